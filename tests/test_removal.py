"""Removal that carries what depends on it (issue 30, item 2), and next_hand merged entry by entry.

A spec that removes names from its bases (inputs, roles, quantities, rules, ...) takes with them
the base entries that mean nothing without them (forced bets, checks, roles, inputs next_hand
sets), so that a base that grows a forced bet reading a removed input does not break the spec;
any other base entry still reading a removed name is reported at the author's ``remove`` line,
naming the entry, its file and line and what to do, and nothing is reported in betspec's files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from betspec.frontend import load_spec, loader

BASE = {"spec_version": 1, "title": "t", "description": "d", "extends": "no_limit.json"}
#: Every blind removed by name as an author listed them before the big blind ante posted first
#: (big_blind_ante_before_blind) and the small blind given seat by seat (seat_small_blind) were
#: added to betting_round.json: both read inputs and roles this list removes.
OLD_BLIND_REMOVAL = {
    "inputs": [
        "blinds",
        "big_blind_ante",
        "button_ante",
        "burn_blind",
        "straddles",
        "button_straddle",
        "dead_small_blind",
        "missed_big_blinds",
        "missed_small_blinds",
        "blinds_by_seat",
        "seat_blinds",
    ],
    "forced_bets": [
        "small_blind",
        "big_blind",
        "big_blind_ante",
        "button_ante",
        "straddle",
        "second_straddle",
        "third_straddle",
        "button_straddle",
        "missed_big_blind",
        "missed_small_blind",
        "seat_blind",
    ],
    "roles": ["small_blind_seat", "big_blind_seat", "straddle_seat", "second_straddle_seat", "third_straddle_seat"],
    "checks": [
        {"rule": "BLINDS"},
        {"rule": "STRADDLE"},
        {"rule": "BURN-BLIND"},
        {"rule": "MISSISSIPPI"},
        {"rule": "DEAD-SB"},
        {"rule": "BLINDS-BY-SEAT"},
        {"rule": "MISSED-BLINDS"},
    ],
    "quantities": ["next_big_blind", "last_big_blind_left"],
}
ANTE_ONLY_QUANTITIES = {
    "minimum_bet": {"type": "int", "expr": "max(ante, 1)", "meaning": "the ante", "rule": "ANTE"},
    "round_opening_raise": {"type": "int", "expr": "0", "meaning": "nothing is bet as a round starts", "rule": "ANTE"},
}


def write(folder: Path, name: str, **body: Any) -> Path:
    path = folder / f"{name}.json"
    path.write_text(json.dumps({**BASE, "name": name, **body}, indent=1))
    return path


def lines(diagnostics: list[Any]) -> list[str]:
    return [str(d) for d in diagnostics]


def test_an_ante_only_game_removing_the_blinds_by_name_validates_as_the_base_grows(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "ante_only",
        remove=OLD_BLIND_REMOVAL,
        quantities=ANTE_ONLY_QUANTITIES,
        next_hand={"button": "next_live(button)"},
    )
    spec, diagnostics = load_spec(str(path))
    assert diagnostics == [] and spec is not None
    assert {bet.name for bet in spec.forced_bets} == {
        "ante",
        "ante_dead",
        "seat_ante",
        "seat_ante_dead",
        "bomb_pot_ante",
        "bomb_pot_ante_dead",
    }
    merged, _ = loader.load(str(path))
    assert merged is not None
    carried = [line for line in merged.changes if "removed too" in line]
    assert "ante_only.json: removes forced bet 'seat_small_blind', which reads 'seat_blinds', removed too" in carried
    assert any("'big_blind_ante_before_blind'" in line for line in carried)
    assert (
        "ante_only.json: removes next_hand's input 'dead_small_blind', which reads 'dead_small_blind', removed too"
        in carried
    )


def test_a_base_entry_a_removal_breaks_is_reported_at_the_author_s_line(tmp_path: Path) -> None:
    path = write(tmp_path, "ante_only", remove=OLD_BLIND_REMOVAL, next_hand={"button": "next_live(button)"})
    _, diagnostics = load_spec(str(path))
    assert diagnostics
    assert all(d.position.path == str(path) for d in diagnostics), lines(diagnostics)
    text = "\n".join(lines(diagnostics))
    assert ("/remove/inputs/0: removing input 'blinds' leaves quantity 'minimum_bet' of no_limit.json (line ") in text
    assert (
        "reading 'big_blind': define quantity 'minimum_bet' in this spec, or remove it too, or keep 'blinds' [remove]"
        in text
    )
    assert "quantity 'round_opening_raise' of betting_round.json" in text
    source = path.read_text().splitlines()
    for diagnostic in diagnostics:
        assert '"blinds"' in source[diagnostic.position.line - 1] or "remove" in diagnostic.pointer


def test_removing_what_next_hand_s_button_reads_asks_for_a_button_of_the_author_s_own(tmp_path: Path) -> None:
    path = write(tmp_path, "ante_only", remove=OLD_BLIND_REMOVAL, quantities=ANTE_ONLY_QUANTITIES)
    _, diagnostics = load_spec(str(path))
    assert [d.code for d in diagnostics] == ["remove"]
    assert "leaves next_hand's button of betting_round.json" in diagnostics[0].message
    assert "give next_hand a button of your own" in diagnostics[0].message
    assert diagnostics[0].pointer == "/remove/quantities/1"


def test_removing_a_rule_takes_the_checks_citing_it(tmp_path: Path) -> None:
    path = write(tmp_path, "no_straddles", remove={"rules": ["MISSISSIPPI"], "inputs": ["button_straddle"]})
    spec, diagnostics = load_spec(str(path))
    assert diagnostics == [] and spec is not None
    assert "MISSISSIPPI" not in {check.rule for check in spec.checks}
    assert "button_straddle" not in {bet.name for bet in spec.forced_bets}


def test_next_hand_is_extended_entry_by_entry(tmp_path: Path) -> None:
    """A house that sets one more input for the next hand keeps the base's dead-button rule."""
    path = write(
        tmp_path,
        "one_more",
        inputs={"bonus": {"type": "int", "default": 0, "minimum": 0, "meaning": "m", "rule": "ANTE"}},
        next_hand={"inputs": {"bonus": "0"}},
    )
    merged, diagnostics = loader.load(str(path))
    assert diagnostics == [] and merged is not None
    following = merged.value["next_hand"]
    assert set(following["inputs"]) == {"dead_small_blind", "bonus"}
    assert "prev_live" in following["button"]
    spec, diagnostics = load_spec(str(path))
    assert diagnostics == [] and spec is not None and spec.next_hand is not None
    assert set(spec.next_hand.inputs) == {"dead_small_blind", "bonus"}
    assert merged.origin("/next_hand/inputs/bonus")[0].path == str(path)
    assert merged.origin("/next_hand/inputs/dead_small_blind")[0].path.endswith("betting_round.json")


def test_remove_next_hand_takes_out_one_input_and_says_when_it_names_none(tmp_path: Path) -> None:
    path = write(tmp_path, "live_button", remove={"next_hand": ["dead_small_blind"]})
    merged, diagnostics = loader.load(str(path))
    assert diagnostics == [] and merged is not None
    assert merged.value["next_hand"]["inputs"] == {}
    path = write(tmp_path, "typo", remove={"next_hand": ["dead_small_blnd"]})
    _, diagnostics = loader.load(str(path))
    assert [d.code for d in diagnostics] == ["remove"]
    assert "did you mean 'dead_small_blind'" in diagnostics[0].message


def test_a_concrete_spec_whose_next_hand_has_no_button_is_told_to_give_one(tmp_path: Path) -> None:
    body = {"spec_version": 1, "name": "no_button", "title": "t", "next_hand": {"inputs": {}}}
    path = tmp_path / "no_button.json"
    path.write_text(json.dumps(body))
    _, diagnostics = load_spec(str(path))
    assert any("next_hand has no button" in d.message for d in diagnostics)


def test_a_base_entry_an_author_s_declaration_breaks_is_reported_at_that_declaration(tmp_path: Path) -> None:
    wrong = {"type": "bool", "expr": "True", "meaning": "m", "rule": "ANTE"}
    path = write(tmp_path, "wrong_type", quantities={"minimum_bet": wrong})
    _, diagnostics = load_spec(str(path))
    assert diagnostics and all(d.position.path == str(path) for d in diagnostics), lines(diagnostics)
    assert (
        "/quantities/minimum_bet: quantity 'minimum_bet' as declared here breaks quantity 'min_bet_to' of "
        "no_limit.json (line "
    ) in "\n".join(lines(diagnostics))


def test_no_change_of_an_author_s_reports_a_problem_in_betspec_s_own_files(tmp_path: Path) -> None:
    """Each quantity and option of no limit redeclared with the wrong type, each input and role
    removed: whatever breaks is reported in the author's file, at a line of the author's."""
    merged, _ = loader.load(str(loader.packaged.specs() / "no_limit.json"))
    assert merged is not None
    changes: list[dict[str, Any]] = []
    for name in merged.value["quantities"]:
        changes.append({"quantities": {name: {"type": "bool", "expr": "True", "meaning": "m", "rule": "ANTE"}}})
    for name in merged.value["options"]:
        changes.append({"options": {name: {"type": "bool", "default": True, "meaning": "m", "rule": "ANTE"}}})
    for section in ("inputs", "roles", "quantities"):
        changes += [{"remove": {section: [name]}} for name in merged.value[section]]
    assert len(changes) > 80
    for number, change in enumerate(changes):
        path = write(tmp_path, f"change_{number}", **change)
        _, diagnostics = load_spec(str(path))
        assert all(d.position.path == str(path) for d in diagnostics), (change, lines(diagnostics))
