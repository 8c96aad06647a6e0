"""`betspec diff`: the shortest hands on which two rules disagree, as cases each side passes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from betspec.cli import main
from betspec.conformance.runner import run_case
from betspec.runtime import engine_class, engine_names
from betspec.tools.explore import _scale, _variants
from tests.conftest import ROOT

COMMITTED = ROOT / "tests" / "conformance" / "diff"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    status = main(["--root", str(ROOT), "diff", *argv])
    return status, capsys.readouterr().out.splitlines()


def test_one_option_against_the_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "no_limit", "--option", "underraise_rule=half", "--out", str(tmp_path))
    assert status == 0
    assert out[0] == 'no_limit and no_limit with underraise_rule="half": they differ after 1 move(s)'
    assert "  1. seat 1 pushes [5, 1]" in out
    assert '  call: no_limit 10, no_limit with underraise_rule="half" 0' in out
    written = sorted(tmp_path.glob("*.json"))
    assert [p.name for p in written] == [
        "diff-no-limit-vs-no-limit-underraise-rule-half-left.json",
        "diff-no-limit-vs-no-limit-underraise-rule-half-right.json",
    ]
    for path in written:
        assert run_case(str(path)).status == "PASS"
    left, right = (json.loads(p.read_text()) for p in written)
    assert left["options"] == {} and right["options"] == {"underraise_rule": "half"}
    # each side's case fails under the other side: it pins what the option changes
    swapped = tmp_path / "swapped.json"
    swapped.write_text(json.dumps({**left, "options": right["options"]}))
    assert run_case(str(swapped)).status == "FAIL"


def test_two_structures(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "no_limit", "pot_limit")
    assert status == 0 and out[0] == "no_limit and pot_limit: they differ after 0 move(s)"
    assert "  max_to: no_limit 1000, pot_limit 30" in out
    cases = [json.loads(line) for line in out if line.startswith("{")]
    assert [c["structure"] for c in cases] == ["no_limit", "pot_limit"]


def test_refusals_name_the_problem(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "no_limit")[0] == 2
    status, out = run(capsys, "no_limit", "--option", "max_raises=3")
    assert status == 2 and out[0].startswith("diff: no_limit has no option 'max_raises'")
    status, out = run(capsys, "no_such_structure", "--option", "x=1")
    assert status == 2 and "no generated engine" in out[0]


def test_every_option_of_every_structure_is_answered_and_the_cases_are_the_committed_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run(capsys, "--all", "--out", str(tmp_path))
    assert status == 0
    verdicts = [line for line in out if not line.startswith("  ") and not line.startswith("table ")]
    expected = sum(
        len(_variants(declared, 3, _scale(engine_class(name))))
        for name in engine_names()
        for declared in engine_class(name).OPTIONS.values()
    )
    assert len(verdicts) == expected
    assert all(": they differ after " in line or ": no disagreement within 6 moves" in line for line in verdicts)
    written = {p.name: p.read_text() for p in tmp_path.glob("*.json")}
    assert written == {p.name: p.read_text() for p in COMMITTED.glob("*.json")}  # regenerated, byte for byte
    assert 2 * sum(": they differ after " in line for line in verdicts) == len(written)
