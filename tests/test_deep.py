"""`betspec validate --deep`: specs valid in name and type that play nonsense are reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from betspec.cli import main
from betspec.frontend import load_spec
from betspec.tools.explore import deep_check
from tests.conftest import ROOT, SPEC_DIR

FIXTURES = ROOT / "tests" / "fixtures" / "nonsense"


def lines(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    status = main(["--root", str(ROOT), *argv])
    return status, capsys.readouterr().out.splitlines()


def test_a_first_player_who_may_only_fold_is_reported_at_the_requirement(capsys: pytest.CaptureFixture[str]) -> None:
    path = FIXTURES / "only_fold.json"
    assert lines(capsys, "validate", str(path))[0] == 0  # valid in name and type
    status, out = lines(capsys, "validate", "--deep", str(path))
    assert status == 1
    (found,) = [line for line in out if "[only-fold]" in line and not line.startswith("[")]
    assert found.startswith(f"{path}:") and "/events/call/requires/0: seat" in found
    assert "may only fold on preflop" in found


def test_a_deal_after_the_showdown_is_reported_at_its_transition(capsys: pytest.CaptureFixture[str]) -> None:
    path = FIXTURES / "deal_after_showdown.json"
    assert lines(capsys, "validate", str(path))[0] == 0
    status, out = lines(capsys, "validate", "--deep", str(path))
    assert status == 1
    (found,) = [line for line in out if "[after-the-end]" in line and not line.startswith("[")]
    assert found.startswith(f"{path}:16:5: /transitions/4: deal turn was accepted once the hand was over (showdown)")


def test_bounds_the_wrong_way_round(tmp_path: Path) -> None:
    spec_text = {
        "$schema": "schema/spec.schema.json",
        "spec_version": 1,
        "name": "upside_down",
        "title": "Bounds the wrong way",
        "extends": "no_limit.json",
        "quantities": {
            "bet_max_to": {"type": "int", "expr": "bet_min_to - 1", "meaning": "m", "rule": "SIZE-MAX-BET"},
        },
    }
    path = tmp_path / "upside_down.json"
    path.write_text(json.dumps(spec_text))
    spec, found = load_spec(str(path))
    assert spec is not None, found
    codes = {(f.pointer, f.code) for f in deep_check(spec, str(ROOT))}
    assert ("/quantities/bet_min_to", "bounds") in codes


def test_no_false_alarm_on_any_shipped_spec(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = lines(capsys, "validate", "--deep")
    assert status == 0, out
    assert sum(line.endswith("; played)") for line in out) == len(
        [p for p in SPEC_DIR.glob("*.json") if not json.loads(p.read_text()).get("abstract")]
    )


def test_a_finding_in_a_shipped_base_is_reported_at_the_authors_spec(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec_text = {
        "spec_version": "1.1",
        "name": "fold_pays",
        "title": "A fold that puts a chip in",
        "description": "Valid in name and type: a fold commits a chip, and a seat that folds leaves a call behind.",
        "extends": "no_limit.json",
        "amend": {"events": {"fold": {"effects": {"add": [{"effect": "commit(1)"}]}}}},
    }
    path = tmp_path / "fold_pays.json"
    path.write_text(json.dumps(spec_text, indent=2))
    status, out = lines(capsys, "validate", "--deep", str(path))
    found = [line for line in out if line.endswith("]") and not line.startswith("[")]
    assert status == 1 and found, out
    assert all(line.startswith(f"{path}:") for line in found), found  # never a line of betspec's files
    assert any("/extends: betting_round.json (line " in line for line in found), found
