"""Session cases: a session's hands one after another, and what must hold as a hand starts.

A session case (``tests/sessions/*.json``, checked against ``spec/schema/session-case.schema.json``)
names a session (a shipped one, or a file beside the case), the players' stacks and the first
button, then its hands in order. Each hand may give the inputs its cards decide (``with``: the
stud bring-in's seat), what must hold once it is dealt (``expect``: the game, the level, the button
and the players dealt in, table inputs, who acts, the pot and the stacks after the forced bets),
its steps (a case's steps, settle included); without steps each seat checks where free, else
folds (a bring-in owed is brought in), and the pots are paid. Then the clock moves on
(``minutes``, 2 by default) and the next hand comes, with the host's game where it chooses
(``choose``). Every chip is checked from hand to hand.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from betspec import packaged
from betspec.diagnostics import Diagnostic, SpecError
from betspec.runtime.errors import BetspecError

#: The schema of a session case, in the packaged schemas.
SESSION_CASE_SCHEMA = packaged.SESSION_CASE_SCHEMA


@dataclass(frozen=True)
class SessionOutcome:
    """A session case run: passed, or the first hand and what differed there."""

    id: str
    path: str
    passed: bool
    message: str = ""

    def line(self) -> str:
        return f"{'PASS' if self.passed else 'FAIL'} {self.id} ({self.path})" + (
            f": {self.message}" if self.message else ""
        )


def load_case(path: str) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    from betspec.frontend import jsonpos, schema

    doc, found = jsonpos.load(path, "a session case")
    if doc is None:
        return None, found
    found += schema.check(doc, SESSION_CASE_SCHEMA)
    if found:
        return None, found
    value = doc.value
    assert isinstance(value, dict)
    return value, []


def run_case(path: str) -> SessionOutcome:
    """Play the session case at ``path``: PASS, or FAIL at the first hand that differs."""
    from betspec import session as sessions

    case, found = load_case(path)
    if case is None:
        return SessionOutcome(os.path.basename(path), path, False, "; ".join(str(d) for d in found))
    named = case["session"]
    beside = os.path.join(os.path.dirname(os.path.abspath(path)), named)
    where = beside if named.endswith(".json") else sessions.find(named)
    if where is None or not os.path.isfile(where):
        return SessionOutcome(case["id"], path, False, f"no session {named!r}")
    try:
        spec = sessions.load(where)
    except SpecError as exc:
        return SessionOutcome(case["id"], path, False, f"the session does not load: {exc.diagnostics[0]}")
    clock = [0.0]
    try:
        mixed = sessions.Session(
            spec, case["stacks"], case.get("button", 0), clock=lambda: clock[0], first_game=case.get("first_game")
        )
        for number, hand in enumerate(case["hands"], 1):
            problem = _hand(mixed, hand, clock)
            if problem:
                return SessionOutcome(case["id"], path, False, f"hand {number}: {problem}")
    except BetspecError as exc:
        return SessionOutcome(case["id"], path, False, f"refused: {exc.message}")
    return SessionOutcome(case["id"], path, True)


def _hand(mixed: Any, hand: Mapping[str, Any], clock: list[float]) -> str:
    """Play one hand of the case, the clock moved on by its minutes before the next is made; what
    differed from its expectations ("" if nothing)."""
    from betspec.conformance.runner import apply_step
    from betspec.session import checking_or_folding

    total = mixed.chips
    engine = mixed.engine(**hand.get("with", {}))
    for key, wanted in hand.get("expect", {}).items():
        got = _observe(mixed, engine, key)
        if key == "inputs":  # the inputs named: a table carries others (a next hand's dead blind)
            got = {name: got.get(name) for name in wanted}
        if json.loads(json.dumps(got)) != wanted:
            return f"{key} is {json.dumps(got)}, expected {json.dumps(wanted)}"
    for step in hand.get("steps", []):
        apply_step(engine, step)
    while not engine.hand_over:
        if engine.to_act is None:
            engine.deal(engine.next_street)
        else:
            engine.act(engine.to_act, checking_or_folding(engine))
    if not engine.paid:
        contested = sorted({seat for pot in engine.pots() for seat in pot.eligible if len(pot.eligible) > 1})
        engine.settle(contested or None)
    clock[0] += 60.0 * hand.get("minutes", 2)
    mixed.next_table(engine, hand.get("choose"))
    # The session's stacks and a dead hand's pot, with what the house took and paid: every chip.
    held = mixed.chips + engine.rake + engine.jackpot_drop - engine.jackpot_paid
    if held != total:
        return f"chips: the session had {total} and has {held}"
    return ""


def _observe(mixed: Any, engine: Any, key: str) -> Any:
    """What a hand's expectation ``key`` reads: of the session, or of the hand just dealt."""
    if key == "game":
        return mixed.game.name
    if key == "level":
        return mixed.level + 1
    if key == "button":
        return mixed.button
    if key == "players":
        return list(mixed.seats)
    if key == "inputs":
        return {name: list(value) if isinstance(value, tuple) else value for name, value in engine.table.inputs.items()}
    if key == "to_act":
        return None if engine.to_act is None else mixed.seats[engine.to_act]
    if key == "pot":
        return engine.pot
    if key == "stacks":
        return list(engine.stacks)
    return list(mixed.changes)  # "changes": the schema allows no other key


def case_files(root: str) -> list[str]:
    """The session cases of a project (``tests/sessions``), in order."""
    folder = os.path.join(root, "tests", "sessions")
    return (
        sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".json"))
        if os.path.isdir(folder)
        else []
    )


__all__ = ["SESSION_CASE_SCHEMA", "SessionOutcome", "case_files", "load_case", "run_case"]
