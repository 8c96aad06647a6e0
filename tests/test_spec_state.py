"""State a spec declares (issue 21): its own variables for the hand, a seat or the session, and
actions of its own. What an author gets wrong is reported where it is written, with its code;
what is right plays in the engine as declared."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from betspec.frontend import load_spec
from betspec.runtime import Table

BASE = {"spec_version": 1, "title": "t", "description": "d", "extends": "no_limit.json"}
RULE = {"HOUSE": {"text": "A house rule.", "source": "the house"}}
FLAG = {"type": "bool", "default": False, "scope": "hand", "meaning": "a flag", "rule": "HOUSE"}
#: An effect setting the flag and a requirement reading it: a variable both written and read.
USES_FLAG = {
    "events": {
        "call": {
            "effects": {"add": [{"effect": "flag = True", "before": 0}]},
            "requires": {
                "add": [{"expr": "not flag", "error": "illegal_action", "rule": "HOUSE", "message": "x", "before": 0}]
            },
        }
    }
}


def problems(folder: Path, **body: Any) -> list[tuple[str, str, str]]:
    path = folder / "house_state.json"
    path.write_text(json.dumps({**BASE, "name": "house_state", "rules": RULE, **body}, indent=2))
    spec, diagnostics = load_spec(str(path))
    assert (spec is None) == bool(diagnostics)
    return [(d.pointer, d.code.value, d.message) for d in diagnostics]


def test_a_variable_of_the_specs_own_that_is_written_and_read_is_accepted(tmp_path: Path) -> None:
    assert problems(tmp_path, variables={"flag": FLAG}, amend=USES_FLAG) == []


@pytest.mark.parametrize(
    "entry, pointer, code, says",
    [
        ({**FLAG, "rule": "NOPE"}, "/variables/flag/rule", "unknown-rule", "NOPE"),
        ({k: v for k, v in FLAG.items() if k != "scope"}, "/variables/flag", "missing", "'scope'"),
        ({**FLAG, "default": 3}, "/variables/flag/default", "type", "default 3"),
        ({**FLAG, "writable": True}, "/variables/flag/writable", "type", "written by effects"),
    ],
)
def test_a_variable_declared_wrong_is_reported_at_its_entry(
    tmp_path: Path, entry: dict[str, Any], pointer: str, code: str, says: str
) -> None:
    found = problems(tmp_path, variables={"flag": entry}, amend=USES_FLAG)
    assert any(p == pointer and c == code and says in m for p, c, m in found), found


def test_a_name_the_runtime_has_is_not_a_variable_of_the_specs_own(tmp_path: Path) -> None:
    found = problems(tmp_path, variables={"pot": {**FLAG, "type": "int", "default": 0}})
    assert any(p == "/variables/pot" and c == "duplicate-name" for p, c, _ in found), found


def test_an_unknown_variable_says_how_to_declare_one_of_the_specs_own(tmp_path: Path) -> None:
    found = problems(tmp_path, variables={"opener_seat": {"type": "int?", "meaning": "who opened"}})
    assert any(c == "unknown-variable" and '"default" and "scope"' in m for _, c, m in found), found


def test_a_variable_nothing_writes_or_nothing_reads_is_unused(tmp_path: Path) -> None:
    found = problems(tmp_path, variables={"flag": FLAG})
    assert ("/variables/flag", "unused") in [(p, c) for p, c, _ in found], found
    written_only = {"events": {"call": {"effects": {"add": [{"effect": "flag = True", "before": 0}]}}}}
    found = problems(tmp_path, variables={"flag": FLAG}, amend=written_only)
    assert any(c == "unused" and "nothing reads it" in m for _, c, m in found), found


def test_a_seats_variable_is_written_only_by_an_action(tmp_path: Path) -> None:
    seat_flag = {**FLAG, "scope": "seat"}
    at_the_end_of_a_round = [{"event": "deal", "source": "complete", "rule": "MIN-RESET"}]
    found = problems(
        tmp_path,
        variables={"flag": seat_flag},
        amend=USES_FLAG,
        remove={"transitions": at_the_end_of_a_round},
        transitions=[
            {
                "event": "deal",
                "source": "complete",
                "dest": "unopened",
                "rule": "MIN-RESET",
                "effects": [
                    "flag = False",
                    "last_raise = round_opening_raise",
                    "last_full_level = 0",
                    "raises = 0",
                    "begin_street(street + 1)",
                    "open_betting(opens_after)",
                ],
            }
        ],
    )
    assert any(c == "scope" and "only an action's effects write it" in m for _, c, m in found), found


def test_a_session_variable_must_be_set_by_next_hand_and_read(tmp_path: Path) -> None:
    streak = {"type": "int", "default": 0, "scope": "session", "meaning": "pots won in a row", "rule": "HOUSE"}
    found = problems(tmp_path, variables={"streak": streak})
    assert any(c == "unused" and "next_hand never sets" in m for _, c, m in found), found
    next_hand = {"button": "next_live(button)", "inputs": {"streak": "streak + 1 if winner is not None else 0"}}
    assert problems(tmp_path, variables={"streak": streak}, next_hand=next_hand) == []


def test_the_settlement_is_read_only_by_next_hand(tmp_path: Path) -> None:
    reads_winner = {
        "events": {
            "call": {
                "requires": {
                    "add": [
                        {"expr": "winner is None", "error": "illegal_action", "rule": "HOUSE", "message": "x"},
                    ]
                }
            }
        }
    }
    found = problems(tmp_path, amend=reads_winner)
    assert any(c == "scope" and "only defined in next_hand" in m for _, c, m in found), found


@pytest.mark.parametrize(
    "name, event, says",
    [
        ("act", {"kind": "action", "own": True}, "the engine's own"),
        ("variables", {"kind": "action", "own": True}, "the engine's own"),
        ("sleep", {"kind": "action", "own": True, "params": {"to": "int"}}, "takes no amount"),
        ("sleep", {"kind": "deal", "own": True}, "only an action"),
    ],
)
def test_an_action_of_the_specs_own_takes_a_name_of_its_own_and_no_amount(
    tmp_path: Path, name: str, event: dict[str, Any], says: str
) -> None:
    found = problems(tmp_path, events={name: event})
    assert any(says in m for _, _, m in found), found


def test_a_misspelt_action_is_not_taken_for_one_of_the_specs_own(tmp_path: Path) -> None:
    found = problems(tmp_path, events={"raize": {"kind": "action"}})
    assert any(c == "unknown-action" and "'raise'" in m and '"own": true' in m for _, c, m in found), found


def test_a_dead_hand_pays_nobody_and_its_pot_opens_the_next(tmp_path: Path) -> None:
    from betspec.runtime import engine_class

    jacks = engine_class("jacks_or_better")
    hand = jacks(Table([100, 100, 100], 0, ante=5, bets=(10, 20)))
    for seat in (1, 2, 0):
        hand.check(seat)
    assert hand.hand_over and hand.phase == "dead" and hand.pot == 15
    settled = hand.settle([0, 1, 2])  # a host ranking the seats left: checked, paying nobody
    assert settled.won == (0, 0, 0) and hand.pot == 15 and hand.paid
    following = hand.next_table()
    assert following.get("carried_pot") == 15 and following.button == 0
    again = jacks(following)
    assert again.pot == 30 and again.total_chips() == 300 and again.pots()[0].amount == 30


def test_no_game_of_the_same_streets_deals_draw_high_and_ranks_it_as_lowball() -> None:
    """jacks_or_better has five-card draw's streets: dealt as 2-7 single draw, its showdown would
    be ranked low, paying the wrong player. Its spec says it deals no cards of betspec's dealer
    (game null: its openers are the host's dealer's to read), so `play` deals none; five-card draw
    itself is dealt as its spec says, the PHH variant of the same cards naming it."""
    from betspec.cards import CardError, game_of
    from betspec.runtime import engine_class

    with pytest.raises(CardError, match="jacks_or_better declares no game"):
        game_of(engine_class("jacks_or_better"))
    assert game_of(engine_class("five_card_draw_fixed_limit")).code == "N2L1D"
