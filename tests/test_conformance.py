"""Every conformance case under tests/conformance passes, and the shared cases are all there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from betspec.cli import main
from betspec.conformance.runner import run_case
from tests.conftest import ROOT, SHARED

CASES = sorted((ROOT / "tests" / "conformance").rglob("*.json"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case_passes(path: Path) -> None:
    outcome = run_case(str(path))
    assert outcome.status == "PASS", outcome.line()


def test_every_shared_case_is_copied_unchanged() -> None:
    shared = sorted((SHARED / "cases").rglob("*.json"))
    assert len(shared) >= 72, f"expected the shared cases beside the project in {SHARED}"
    for path in shared:
        copy = ROOT / "tests" / "conformance" / path.relative_to(SHARED / "cases")
        assert copy.exists(), f"{copy} is missing"
        assert json.loads(copy.read_text()) == json.loads(path.read_text()), f"{copy} differs from {path}"


def test_case_ids_are_unique() -> None:
    ids = [json.loads(p.read_text())["id"] for p in CASES]
    assert len(ids) == len(set(ids))


def test_every_structure_has_cases_of_its_own() -> None:
    structures = {json.loads(p.read_text())["structure"] for p in CASES}
    assert structures == {"no_limit", "pot_limit", "fixed_limit", "spread_limit"}


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
