"""The language's sharp edges that house authors met (issue 30, item 5), each smoothed:

- ``%`` and ``//`` over a name that a test around them proves not zero, or over ``max(x, 1)``;
- ``==`` and ``!=`` between an ``int?`` and an ``int`` (None equals no number);
- a commit that puts nothing in and leaves the seat short of the bet is no action on it (the
  seat keeps its option to raise; the compatibility corpus's knocking house runs it through the
  TypeScript engines too);
- no follow-on diagnostic after a first error in a declaration (a bad default, then its uses);
- a read-only variable written, with the writable ones listed; a schema error says what to write.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from betspec import house
from betspec.frontend import load_spec
from betspec.runtime import Table

BASE = {"spec_version": 1, "title": "t", "description": "d", "extends": "no_limit.json"}
RULE = {"HOUSE": {"text": "A house rule.", "source": "the house"}}


def write(folder: Path, name: str, **body: Any) -> Path:
    path = folder / f"{name}.json"
    path.write_text(json.dumps({**BASE, "name": name, "rules": RULE, **body}, indent=1))
    return path


def messages(path: Path) -> list[str]:
    _, diagnostics = load_spec(str(path))
    return [f"{d.pointer}: {d.message} [{d.code}]" for d in diagnostics]


@pytest.mark.parametrize(
    "expr",
    [
        "pot % seats_left if seats_left > 0 else 0",
        "pot // seats_left if seats_left != 0 else 0",
        "0 if seats_left == 0 else pot % seats_left",
        "pot % max(seats_left, 1)",
        "seats_left > 0 and pot % seats_left == 0",
    ],
)
def test_a_divisor_a_test_proves_not_zero_is_taken(tmp_path: Path, expr: str) -> None:
    quantity = {"type": "bool" if " and " in expr else "int", "expr": expr, "meaning": "m", "rule": "HOUSE"}
    variables = {
        "seats_left": {"type": "int", "meaning": "seats with chips"},
        "pot": {"type": "int", "meaning": "the pot"},
    }
    path = write(tmp_path, "divides", variables=variables, quantities={"share": quantity})
    assert [m for m in messages(path) if "divisor" in m] == []


def test_a_divisor_that_may_be_zero_is_refused_saying_how_to_write_it(tmp_path: Path) -> None:
    quantity = {"type": "int", "expr": "pot % seats_left", "meaning": "m", "rule": "HOUSE"}
    variables = {
        "seats_left": {"type": "int", "meaning": "seats with chips"},
        "pot": {"type": "int", "meaning": "the pot"},
    }
    path = write(tmp_path, "divides", variables=variables, quantities={"share": quantity})
    found = [m for m in messages(path) if "divisor" in m]
    assert len(found) == 1 and "max(seats_left, 1)" in found[0] and "if seats_left > 0 else" in found[0]


def test_an_int_or_none_equals_an_int(tmp_path: Path) -> None:
    variables = {"marked": {"type": "int?", "default": None, "scope": "hand", "meaning": "m", "rule": "HOUSE"}}
    amend = {"events": {"raise": {"effects": {"add": [{"effect": "marked = street"}]}}}}
    quantity = {"type": "bool", "expr": "marked == street", "meaning": "m", "rule": "HOUSE"}
    path = write(tmp_path, "marks", variables=variables, amend=amend, quantities={"again": quantity})
    assert [m for m in messages(path) if "compare" in m] == []


def test_a_follow_on_of_a_bad_default_is_not_reported(tmp_path: Path) -> None:
    """The audit's case: a variable's default wrong, then 'unknown name ... (did you mean
    last_street?)' at every use, and 'not a writable variable' where it is written."""
    variables = {"capped_street": {"type": "int?", "default": "none", "scope": "hand", "meaning": "m", "rule": "HOUSE"}}
    amend = {"events": {"raise": {"effects": {"add": [{"effect": "capped_street = street"}]}}}}
    quantity = {"type": "bool", "expr": "capped_street is not None", "meaning": "m", "rule": "HOUSE"}
    path = write(tmp_path, "capped", variables=variables, amend=amend, quantities={"capped": quantity})
    found = messages(path)
    assert len(found) == 1, found
    assert found[0].startswith("/variables/capped_street/default: ") and "write " in found[0]


def test_a_read_only_variable_written_lists_the_writable_ones(tmp_path: Path) -> None:
    amend = {"events": {"raise": {"effects": {"add": [{"effect": "pot = 0"}]}}}}
    found = messages(write(tmp_path, "writes", amend=amend))
    assert len(found) == 1 and "'pot' is read-only" in found[0]
    assert "last_raise" in found[0] and "raises" in found[0] and 'declare it in "variables"' in found[0]


#: An action of the house's own that puts nothing in: a knock, which passes the turn on.
KNOCK = {
    "events": {
        "knock": {"kind": "action", "own": True, "requires": [], "effects": ["commit(committed)", "pass_action()"]}
    },
    "transitions": [{"event": "knock", "source": "facing_bet", "dest": "=", "rule": "HOUSE"}],
}


def _knock_hand(tmp_path: Path, cls: Any) -> Any:
    hand = cls(Table(stacks=[1000, 1000, 1000], button=0, blinds=(5, 10)))
    hand.raise_to(0, 30)  # seat 0 raises
    hand.act(1, "knock")  # seat 1 knocks, facing the raise: nothing put in
    return hand


def test_a_commit_that_puts_nothing_in_facing_a_bet_takes_no_option_away(tmp_path: Path) -> None:
    cls = house.load(write(tmp_path, "knocking", **KNOCK))
    hand = _knock_hand(tmp_path, cls)
    hand.call(2)
    assert hand.to_act == 1 and "raise" in hand.legal_actions(), hand.legal_actions()
    hand.raise_to(1, 100)  # the raise it kept
    assert hand.committed[1] == 100
