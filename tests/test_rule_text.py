"""Rule texts that say what the structure does (issue 30, item 6): validate warns where a cited
rule's words contradict the spec's own caps and sizes; the starter, the stud, razz and draw pages
and the diagrams say what their structures play."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from betspec.cli import main
from betspec.frontend import load_spec
from betspec.runtime import engine_class
from tests.conftest import ROOT

HOUSE = {"spec_version": "1.1", "title": "t", "description": "d"}


def write(folder: Path, name: str, **body: Any) -> Path:
    path = folder / f"{name}.json"
    path.write_text(json.dumps({**HOUSE, "name": name, **body}, indent=1))
    return path


def warnings(path: Path) -> list[str]:
    spec, found = load_spec(str(path))
    assert spec is not None, found  # a warning does not stop the spec
    assert all(d.code == "rule-text" for d in found), found
    return [f"{d.pointer}: {d.message}" for d in found]


def test_a_cap_cited_to_a_rule_that_says_raises_are_unlimited_is_reported(tmp_path: Path) -> None:
    cap = {"type": "bool", "expr": "raises > 3", "meaning": "three raises made", "rule": "HOUSE"}
    rules = {"HOUSE": {"text": "At most three raises.", "source": "the house"}}
    found = warnings(write(tmp_path, "capped", extends="no_limit.json", rules=rules, quantities={"cap_reached": cap}))
    assert len(found) == 1 and found[0].startswith("/quantities/cap_reached: rule CAP says raises are unlimited")
    # Restated under its own id, the rule says what the spec plays: nothing to report.
    rules["CAP"] = {"text": "A bet and at most three raises a round.", "source": "the house"}
    assert (
        warnings(write(tmp_path, "capped", extends="no_limit.json", rules=rules, quantities={"cap_reached": cap})) == []
    )


def test_a_number_of_raises_the_option_does_not_play_is_reported(tmp_path: Path) -> None:
    option = {"type": "int?", "default": 4, "minimum": 0, "meaning": "raises allowed after the bet", "rule": "CAP"}
    found = warnings(write(tmp_path, "four", extends="fixed_limit.json", options={"max_raises": option}))
    assert found == [
        "/options/max_raises/default: rule CAP says 'three by default', and option max_raises makes it 4 by default: "
        "restate CAP with 4 (or make the default 3)"
    ]


def test_a_multiple_of_the_big_blind_the_amount_does_not_post_is_reported(tmp_path: Path) -> None:
    rules = {"HOUSE-STRADDLE": {"text": "The straddle is twice the big blind.", "source": "the house"}}
    bet = {
        "seat": "straddle_seat",
        "amount": "3 * big_blind",
        "kind": "blind",
        "order": "starts_after",
        "when": "straddles >= 1",
        "meaning": "m",
        "rule": "HOUSE-STRADDLE",
    }
    found = warnings(write(tmp_path, "wide", extends="no_limit.json", rules=rules, forced_bets={"straddle": bet}))
    assert found == [
        "/forced_bets/straddle/amount: rule HOUSE-STRADDLE says 'twice the big blind', and this amount is "
        "3 * big_blind: restate HOUSE-STRADDLE with the amount played, or correct the amount"
    ]
    bet["amount"] = "2 * big_blind"
    assert warnings(write(tmp_path, "wide", extends="no_limit.json", rules=rules, forced_bets={"straddle": bet})) == []


def test_validate_says_a_warning_and_succeeds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cap = {"type": "bool", "expr": "raises > 3", "meaning": "three raises made", "rule": "CAP"}
    path = write(tmp_path, "capped", extends="no_limit.json", quantities={"cap_reached": cap})
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert ": /quantities/cap_reached: warning: rule CAP says raises are unlimited" in out
    assert "[rule-text] to fix: restate the rule" in out and "0 problem(s) and 1 warning(s) in 1 file(s)" in out


def test_no_shipped_spec_and_no_starter_has_a_rule_text_behind_its_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path in sorted((ROOT / "spec").glob("*.json")):
        _, found = load_spec(str(path))
        assert found == [], path.name
    assert main(["init", str(tmp_path / "house")]) == 0
    assert main(["--root", str(tmp_path / "house"), "validate"]) == 0
    out = capsys.readouterr().out
    assert "warning" not in out and "[rule-text]" not in out


@pytest.mark.parametrize(
    ("structure", "says"),
    [
        ("seven_card_stud", "on third and fourth street and the upper limit (the big bet) on fifth, sixth and seventh"),
        ("razz", "on third and fourth street and the upper limit (the big bet) on fifth, sixth and seventh"),
        ("jacks_or_better", "before the draw and the upper limit (the big bet) on the round after it"),
        ("five_card_draw_fixed_limit", "before the draw and the upper limit (the big bet) on the round after it"),
        ("fixed_limit", "on the first and second betting rounds and the upper limit on the third and fourth"),
    ],
)
def test_each_limit_structure_says_on_which_rounds_it_plays_the_big_bet(structure: str, says: str) -> None:
    cls = engine_class(structure)
    assert says in cls.RULES["SIZE-MIN-BET"][0]
    page = (ROOT / "docs" / "reference" / f"{structure}.md").read_text()
    assert says in page and ("third and fourth (1-2" in page) == (structure == "fixed_limit")


def test_no_diagram_of_a_game_without_a_flop_speaks_of_the_flop() -> None:
    for path in sorted((ROOT / "spec").glob("*.json")):
        spec, _ = load_spec(str(path))
        assert spec is not None
        if spec.abstract or any(street.name == "flop" for street in spec.streets):
            continue
        for diagram in (ROOT / "diagrams").glob(f"{spec.name}.*"):
            if diagram.suffix in (".dot", ".mmd"):
                assert "flop" not in diagram.read_text(), diagram.name


def test_the_streets_diagram_shows_a_hand_that_ends_dead() -> None:
    dot = (ROOT / "diagrams" / "jacks_or_better.streets.dot").read_text()
    assert "dead_hand [label=" in dot and "street_predraw -> dead_hand" in dot
    mermaid = (ROOT / "diagrams" / "jacks_or_better.streets.mmd").read_text()
    assert "dead_hand" in mermaid
