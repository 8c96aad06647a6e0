"""Every conformance case under tests/conformance passes, and the shared cases are all there."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from betspec.cli import main
from betspec.conformance.runner import run_case
from betspec.runtime import engine_names
from tests.conftest import ROOT, SHARED

CASES = sorted((ROOT / "tests" / "conformance").rglob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case_passes(path: Path) -> None:
    outcome = run_case(str(path))
    assert outcome.status == "PASS", outcome.line()


def copied_cases() -> dict[str, str]:
    """The cases copied from the shared case set: relative path -> sha256 (tests/conformance/SHARED.sha256)."""
    lines = (ROOT / "tests" / "conformance" / "SHARED.sha256").read_text().splitlines()
    return {name: digest for digest, name in (line.split("  ", 1) for line in lines if not line.startswith("#"))}


def test_every_copied_case_is_there_unchanged() -> None:
    copies = copied_cases()
    assert len(copies) == 72
    for name, digest in copies.items():
        path = ROOT / "tests" / "conformance" / name
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, f"{path} was changed"


@pytest.mark.skipif(
    not (SHARED / "cases").is_dir(), reason="the shared case set is beside the project only on a developer's machine"
)
def test_the_copies_are_the_shared_set_where_it_is_beside_the_project() -> None:
    shared = {p.relative_to(SHARED / "cases").as_posix(): p for p in (SHARED / "cases").rglob("*.json")}
    assert set(shared) == set(copied_cases())
    for name, path in shared.items():
        assert hashlib.sha256(path.read_bytes()).hexdigest() == copied_cases()[name]


def test_case_ids_are_unique() -> None:
    ids = [json.loads(p.read_text())["id"] for p in CASES]
    assert len(ids) == len(set(ids))


def test_every_structure_has_cases_of_its_own() -> None:
    structures = {json.loads(p.read_text())["structure"] for p in CASES}
    assert structures == set(engine_names())


def test_the_demo_is_a_case_that_passes(capsys: pytest.CaptureFixture[str]) -> None:
    demo = ROOT / "generator" / "betspec" / "demo.json"
    assert run_case(str(demo)).status == "PASS"
    assert main(["demo"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "no_limit: blinds 25/50, stacks 300/1000/1000, button seat 0"
    assert any("REJECTED [not_reopened]" in line for line in out)
    # The hand to its end, paid, and what to try next, the book named where it is written.
    assert "> showdown, best first [0, [1, 2]]: paid seat 0 900" in out
    assert "  stacks after the hand: [900, 700, 700]" in out
    assert any(line.startswith("Next: `betspec play no_limit`") for line in out)
    assert out[-1] == "The reference book, every rule and worked example of every structure: docs/site/index.html"


def test_conform_command_prints_one_line_per_case_and_fails_on_a_failure(tmp_path: Path, capsys) -> None:
    good = ROOT / "tests" / "conformance" / "heads-up-blinds-and-order.json"
    case = json.loads(good.read_text())
    case["id"] = "deliberately-wrong"
    case["steps"][0]["expect"]["call"] = 6
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(case))
    assert main(["conform", str(good), str(bad)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("PASS heads-up-blinds-and-order")
    assert lines[1].startswith("FAIL deliberately-wrong") and "call is 5, expected 6" in lines[1]
    assert lines[2] == "1 passed, 1 failed"


def test_a_wrong_error_code_and_an_unexpected_acceptance_fail(tmp_path: Path) -> None:
    case = json.loads((ROOT / "tests/conformance/nl-minimum-raise-ladder.json").read_text())
    case["steps"][1]["error"] = "above_maximum"
    path = tmp_path / "c.json"
    path.write_text(json.dumps(case))
    assert "error 'below_minimum', expected 'above_maximum'" in run_case(str(path)).detail
    case["steps"][1] = {"seat": 1, "act": "bet", "to": 10, "error": "below_minimum"}
    path.write_text(json.dumps(case))
    assert "accepted, expected error" in run_case(str(path)).detail


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda c: c.update(structure="no_such"), "no generated engine"),
        (lambda c: c.update(options={"bet_unti": 5}), "did you mean 'bet_unit'"),
        (lambda c: c["table"].update(button=9), "button 9 is not a seat"),
        (lambda c: c.update(surprise=1), "unknown key 'surprise'"),
        (lambda c: c["steps"].append({"seat": 0, "act": "bet"}), "'to' is a required property"),
    ],
)
def test_an_invalid_case_is_reported_not_skipped(tmp_path: Path, change, message: str) -> None:
    case = json.loads((ROOT / "tests/conformance/heads-up-blinds-and-order.json").read_text())
    change(case)
    path = tmp_path / "c.json"
    path.write_text(json.dumps(case))
    outcome = run_case(str(path))
    assert outcome.status == "INVALID"
    assert message in outcome.detail
