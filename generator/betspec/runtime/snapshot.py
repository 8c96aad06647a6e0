"""Snapshots: a hand as versioned JSON, and back.

A snapshot holds what the hand was built from (spec, spec hash, options, table, start) and its
log of actions and deals, plus the state they led to. :func:`restore` rebuilds the hand by
replaying the log through the engine of the same spec, then compares the result with the stored
state: a snapshot that is corrupt, tampered with, from another spec or another version of it, is
refused with a :class:`SnapshotError` that says why; one that is restored behaves, from there
on, exactly as the hand it was taken from. A server that saves a snapshot after each action
loses nothing when it crashes.
"""

from __future__ import annotations

import re
from typing import Any

from betspec.runtime.engine import Engine, engine_class
from betspec.runtime.errors import BetspecError, IllegalAction, InvalidTable
from betspec.runtime.table import Start, Table

FORMAT = "betspec.snapshot"
VERSION = 1
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
_ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in", "timeout")
_OUT_OF_TURN = {f"out_of_turn_{act}": act for act in ("check", "call", "bet", "raise")}
_STREETS = ("flop", "turn", "river")
MAX_LOG = 10_000


class SnapshotError(BetspecError):
    """A snapshot that cannot be restored; the message says why."""

    code = "bad_snapshot"


def observed(engine: Engine) -> dict[str, Any]:
    """The state a log leads to, as stored in a snapshot and compared on restore."""
    return {
        "state": engine.state.value,
        "out_of_turn": sorted([seat, *declared] for seat, declared in engine._out_of_turn.items()),
        "declared_raise": engine._declared_raise,
        "to_act": engine.to_act,
        "stacks": list(engine.stacks),
        "committed": list(engine.committed),
        "pot": engine.pot,
        "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in engine.pots()],
    }


def take(engine: Engine) -> dict[str, Any]:
    table = engine.table
    return {
        "format": FORMAT,
        "version": VERSION,
        "spec": engine.SPEC_NAME,
        "spec_hash": engine.SPEC_HASH,
        "options": engine.options,
        "table": {
            "stacks": list(table.stacks),
            "button": table.button,
            "blinds": list(table.blinds),
            "ante": table.ante,
            "bets": list(table.bets) if table.bets is not None else None,
        },
        "start": None if engine.start is None else {"street": engine.start.street, "pot": engine.start.pot},
        "log": [list(step) for step in engine.history],
        "observed": observed(engine),
    }


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise SnapshotError(message)


def _engine_class(spec: str) -> type[Engine]:
    try:
        return engine_class(spec)
    except LookupError:
        raise SnapshotError(f"no engine for spec {spec!r} here") from None


def restore(data: Any, engine_class: type[Engine] | None = None) -> Engine:
    """The hand a snapshot was taken from; raises :class:`SnapshotError` saying what is wrong."""
    _require(isinstance(data, dict), "a snapshot is a JSON object")
    _require(data.get("format") == FORMAT, f"not a betspec snapshot (format {data.get('format')!r})")
    version = data.get("version")
    _require(version == VERSION, f"snapshot version {version!r} is not supported (this betspec reads {VERSION})")
    spec = data.get("spec")
    _require(isinstance(spec, str) and bool(_NAME.match(spec)), f"bad spec name {spec!r}")
    cls = engine_class or _engine_class(spec)
    _require(spec == cls.SPEC_NAME, f"the snapshot is of {spec!r}, not {cls.SPEC_NAME!r}")
    _require(
        data.get("spec_hash") == cls.SPEC_HASH,
        f"the snapshot was taken under another version of spec {spec!r} (hash {str(data.get('spec_hash'))[:12]}..., "
        f"this engine {cls.SPEC_HASH[:12]}...): its rules may differ",
    )
    options = data.get("options")
    _require(isinstance(options, dict) and set(options) == set(cls.OPTION_DEFAULTS), "options do not match the spec's")
    raw = data.get("table")
    _require(isinstance(raw, dict), "no table")
    start_raw = data.get("start")
    try:
        table = Table(raw.get("stacks"), raw.get("button"), raw.get("blinds"), raw.get("ante", 0), raw.get("bets"))  # type: ignore[arg-type]
        start = None if start_raw is None else Start(start_raw.get("street"), start_raw.get("pot"))
        engine = cls(table, start=start, **options)
    except (InvalidTable, TypeError, AttributeError) as exc:
        raise SnapshotError(f"the table cannot be rebuilt: {exc}") from None
    log = data.get("log")
    _require(isinstance(log, list) and len(log) <= MAX_LOG, "the log is not a list of steps")
    for number, step in enumerate(log):
        _require(isinstance(step, list) and len(step) == 3, f"log step {number} is not [seat, action, to]")
        seat, action, to = step
        try:
            if seat == -1:
                _require(action in _STREETS and to is None, f"log step {number} is not a deal")
                engine.deal(action)
            else:
                in_range = type(seat) is int and 0 <= seat < engine.seats
                _require(in_range, f"log step {number}: seat {seat!r} out of range")
                if action in _OUT_OF_TURN:
                    engine.declare_out_of_turn(seat, _OUT_OF_TURN[action], to)
                elif action == "say_raise":
                    engine.declare(seat, "raise")
                else:
                    _require(action in _ACTIONS, f"log step {number}: unknown action {action!r}")
                    engine.act(seat, action, to)
        except IllegalAction as exc:
            raise SnapshotError(f"log step {number} does not replay: {exc.message}") from None
    stored = data.get("observed")
    _require(isinstance(stored, dict), "no observed state")
    table_chips = sum(table.stacks) + (start.pot if start is not None else 0)
    stacks, pot = stored.get("stacks"), stored.get("pot")
    if isinstance(stacks, list) and all(type(s) is int for s in stacks) and type(pot) is int:
        _require(sum(stacks) + pot == table_chips, "chip totals do not add up: chips were created or lost")
    actual = observed(engine)
    for key, value in actual.items():
        _require(stored.get(key) == value, f"tampered with: {key} is {stored.get(key)!r}, the log gives {value!r}")
    return engine
