"""Snapshots: a hand as versioned JSON, and back.

A snapshot holds what the hand was built from (spec, spec hash, options, table, start), the log
of the calls made on it (actions, deals, chips pushed, declarations in and out of turn), and the
state they led to. :func:`restore` rebuilds the hand by replaying the log through the engine of
the same spec, then compares the result with the stored state, so a restored hand behaves, from
there on, exactly as the hand it was taken from: a server that saves a snapshot after each action
loses nothing when it crashes.

What is checked without a key: the format and version, that the spec is known here and has the
same hash (its rules have not changed), the options and the table, that every logged call
replays (each is a legal call in turn), that no chip was created or lost, and that the stored
state equals the state the log leads to. An edit that changes the log and the stored state
consistently (a different but legal hand) passes these checks; a server that must refuse such
edits signs its snapshots: ``engine.snapshot(key=...)`` adds an HMAC-SHA256 of the canonical JSON,
and ``restore(data, key=...)`` refuses a snapshot whose signature is missing or does not match.
"""

from __future__ import annotations

import hmac
import re
from typing import Any

from betspec.runtime.engine import Engine, engine_class
from betspec.runtime.errors import IllegalAction, InvalidTable, SnapshotError, shown
from betspec.runtime.snapshot_format import FORMAT, VERSION, observed, signature, take
from betspec.runtime.table import Start, Table
from betspec.vocabulary import ACT_NAMES, WAGERS

_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
#: Logged calls without an argument, and those with an amount.
_PRICED = frozenset(WAGERS)
_PLAIN = frozenset(ACT_NAMES) - _PRICED
MAX_LOG = 10_000
__all__ = ["FORMAT", "VERSION", "SnapshotError", "observed", "restore", "signature", "take"]


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise SnapshotError(message)


def _engine_class(spec: str) -> type[Engine]:
    try:
        return engine_class(spec)
    except LookupError:
        raise SnapshotError(f"no engine for spec {spec!r} here") from None


def _replay(engine: Engine, number: int, step: object) -> None:
    """Make again the call a log entry records."""
    where = f"log step {number}"
    if not isinstance(step, list) or len(step) != 3:
        raise SnapshotError(f"{where} is not [seat, action, argument]")
    seat, action, argument = step
    _require(type(action) is str, f"{where}: the action is not a name: {shown(action)}")
    if seat == -1 and type(seat) is int:
        _require(argument is None or isinstance(argument, dict), f"{where} is not a deal")
        engine.deal(action, **(argument or {}))
        return
    if seat == -2 and type(seat) is int and action == "settle":
        _require(
            isinstance(argument, dict) and set(argument) == {"ranking", "runs", "odd_chip_seat"},
            f"{where}: not a settlement",
        )
        engine.settle(argument["ranking"], runs=argument["runs"], odd_chip_seat=argument["odd_chip_seat"])
        return
    _require(type(seat) is int and 0 <= seat < engine.seats, f"{where}: seat {shown(seat)} out of range")
    if action in _PLAIN:
        _require(argument is None, f"{where}: {action} takes no amount")
        engine.act(seat, action)
    elif action in _PRICED:
        _require(type(argument) is int, f"{where}: {action} needs an amount")
        engine.act(seat, action, argument)
    elif action == "push":
        _require(isinstance(argument, dict) and set(argument) == {"chips", "say"}, f"{where}: not a push")
        engine.push(seat, argument["chips"], argument["say"])
    elif action == "declare":
        engine.declare(seat, argument)
    elif action == "out_of_turn":
        _require(isinstance(argument, dict) and set(argument) == {"act", "to"}, f"{where}: not a declaration")
        engine.declare_out_of_turn(seat, argument["act"], argument["to"])
    else:
        raise SnapshotError(f"{where}: unknown action {shown(action)}")


def restore(data: Any, engine_class: type[Engine] | None = None, key: bytes | None = None) -> Engine:
    """The hand a snapshot was taken from; raises :class:`SnapshotError` saying what is wrong.

    With ``key``, the snapshot must carry the signature that key makes (see the module's notes)."""
    _require(isinstance(data, dict), "a snapshot is a JSON object")
    _require(data.get("format") == FORMAT, f"not a betspec snapshot (format {shown(data.get('format'))})")
    version = data.get("version")
    _require(version == VERSION, f"snapshot version {shown(version)} is not supported (this betspec reads {VERSION})")
    if key is not None:
        stored = data.get("signature")
        _require(type(stored) is str, "the snapshot is not signed, and a key was given")
        _require(hmac.compare_digest(stored, signature(data, key)), "the signature does not match: tampered with")
    spec = data.get("spec")
    _require(isinstance(spec, str) and bool(_NAME.match(spec)), f"bad spec name {shown(spec)}")
    cls = engine_class or _engine_class(spec)
    _require(spec == cls.SPEC_NAME, f"the snapshot is of {spec!r}, not {cls.SPEC_NAME!r}")
    _require(
        data.get("spec_hash") == cls.SPEC_HASH,
        f"the snapshot was taken under another version of spec {spec!r} (hash {shown(data.get('spec_hash'))[:14]}..., "
        f"this engine {cls.SPEC_HASH[:12]}...): its rules may differ",
    )
    options = data.get("options")
    _require(isinstance(options, dict) and set(options) == set(cls.OPTION_DEFAULTS), "options do not match the spec's")
    try:
        table = Table.from_json(data.get("table"))
        start_raw = data.get("start")
        start = None if start_raw is None else Start.from_json(start_raw)
        engine = cls(table, start=start, **options)
    except InvalidTable as exc:
        raise SnapshotError(f"the table cannot be rebuilt: {exc}") from None
    log = data.get("log")
    _require(isinstance(log, list) and len(log) <= MAX_LOG, "the log is not a list of steps")
    for number, step in enumerate(log):
        try:
            _replay(engine, number, step)
        except IllegalAction as exc:
            raise SnapshotError(f"log step {number} does not replay: {exc.message}") from None
    stored = data.get("observed")
    _require(isinstance(stored, dict), "no observed state")
    table_chips = engine.total_chips()
    stacks, pot = stored.get("stacks"), stored.get("pot")
    if isinstance(stacks, list) and all(type(s) is int for s in stacks) and type(pot) is int:
        _require(sum(stacks) + pot == table_chips, "chip totals do not add up: chips were created or lost")
    actual = observed(engine)
    for name, value in actual.items():
        got = stored.get(name)
        _require(got == value, f"tampered with: {name} is {shown(got)}, the log gives {shown(value)}")
    return engine
