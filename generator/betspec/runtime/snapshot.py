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
import importlib
import re
import sys
from typing import Any, cast

from betspec.runtime.engine import Engine, engine_class
from betspec.runtime.errors import BetspecError, SnapshotError, shown
from betspec.runtime.snapshot_format import FORMAT, VERSION, observed, signature, take
from betspec.runtime.table import Start, Table
from betspec.vocabulary import ACT_NAMES, WAGERS

_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
_SIGNATURE = re.compile(r"^[0-9a-f]{64}$")
#: Logged calls without an argument, and those with an amount.
_PRICED = frozenset(WAGERS)
_PLAIN = frozenset(ACT_NAMES) - _PRICED
#: The most calls a snapshot's log may hold.
MAX_LOG = 10_000
#: What a snapshot may hold at most, checked before anything else reads it (before its signature
#: is computed): values (every number, string, list and object counts one), characters in its
#: strings and keys, lists and objects nested in one another. A snapshot ``take`` writes is far
#: below each: a log step nests 4 deep under the snapshot, a settlement's ranking 6.
MAX_VALUES = 400_000
MAX_TEXT = 1_000_000
MAX_DEPTH = 12
#: The largest number a snapshot holds (chips are at most 10**15).
MAX_INT_BITS = 64
__all__ = ["FORMAT", "MAX_LOG", "VERSION", "SnapshotError", "observed", "restore", "signature", "take"]


def _by_seat(pairs: object, name: str, where: str) -> dict[Any, Any] | None:
    """A settlement's cards shown or hands made, as logged: [seat, value] pairs (JSON has no int
    keys), read back as a mapping by seat (None where not logged); settle checks the values."""
    if pairs is None:
        return None
    _require(
        isinstance(pairs, list) and all(isinstance(p, list) and len(p) == 2 for p in pairs),
        f"{where}: {name} is not [seat, value] pairs",
    )
    by_seat = {seat: value for seat, value in cast(list[list[Any]], pairs)}
    _require(all(type(seat) is int for seat in by_seat), f"{where}: {name} names a seat that is not a number")
    _require(len(by_seat) == len(cast(list[Any], pairs)), f"{where}: a seat in {name} twice")
    return by_seat


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise SnapshotError(message)


def _engine_class(spec: str) -> type[Engine]:
    try:
        return engine_class(spec)
    except LookupError:
        raise SnapshotError(f"no engine for spec {spec!r} here") from None


def _where(path: tuple[Any, ...]) -> str:
    """``snapshot.log[3][2]``: where a value sits, from the chain of keys ``_plain_json`` keeps."""
    keys: list[str] = []
    while path:
        path, key = path
        keys.append(f"[{key}]" if type(key) is int else (f".{key}" if _NAME.match(key) else f"[{shown(key)}]"))
    return "snapshot" + "".join(reversed(keys))


def _plain_json(data: object) -> Any:
    """A copy of ``data`` made of plain JSON values (dicts with string keys, lists, strings,
    numbers of at most 64 bits, booleans, None; tuples read as lists), within the bounds above.
    Anything else raises :class:`SnapshotError` naming where it is. Iterative: a value nested
    thousands deep is refused, never recursed into."""
    root: list[Any] = [None]
    values, text = 1, 0
    pending: list[tuple[object, Any, Any, int, tuple[Any, ...]]] = [(data, root, 0, 0, ())]
    while pending:
        value, parent, slot, depth, path = pending.pop()
        kind = type(value)
        if kind is str:
            text += len(value)  # type: ignore[arg-type]
            if text > MAX_TEXT:
                raise SnapshotError(f"the snapshot holds more than {MAX_TEXT:,} characters of text")
            parent[slot] = value
        elif kind is int:
            if value.bit_length() > MAX_INT_BITS:  # type: ignore[attr-defined]
                raise SnapshotError(f"{_where(path)}: {shown(value)} is out of range")
            parent[slot] = value
        elif kind is bool or kind is float or value is None:
            parent[slot] = value
        elif isinstance(value, dict | list | tuple):
            if depth >= MAX_DEPTH:
                raise SnapshotError(f"{_where(path)}: nested more than {MAX_DEPTH} deep")
            values += len(value)
            if values > MAX_VALUES:
                raise SnapshotError(f"the snapshot holds more than {MAX_VALUES:,} values")
            if isinstance(value, dict):
                made: dict[str, Any] = {}
                for key, item in dict.items(value):  # the dict's own items, whatever a subclass says
                    if type(key) is not str:
                        raise SnapshotError(f"{_where(path)}: a key that is not a string: {shown(key)}")
                    text += len(key)
                    made[key] = None
                    pending.append((item, made, key, depth + 1, (path, key)))
                parent[slot] = made
            else:
                items = list.copy(value) if isinstance(value, list) else list(tuple.__iter__(value))
                parent[slot] = items
                pending.extend((item, items, index, depth + 1, (path, index)) for index, item in enumerate(items))
        else:
            raise SnapshotError(f"{_where(path)}: not a JSON value: {shown(value)}")
    return root[0]


def _python_class(given: object) -> type[Engine]:
    """The engine class a snapshot is restored with: ``given`` itself, or the Python engine of a
    kernel class (``fast_engine``'s: a restored hand is the Python engine's)."""
    if isinstance(given, type) and issubclass(given, Engine):
        return given
    try:
        name = getattr(given, "__module__", None)
        module = sys.modules.get(name) if type(name) is str else None
        if module is not None and getattr(module, "KERNEL", None) is given and type(name) is str:
            package = name.rsplit(".", 2)[0]
            found = getattr(importlib.import_module(f"{package}.{module.SPEC_NAME}"), "ENGINE", None)
            if isinstance(found, type) and issubclass(found, Engine):
                return found
    except Exception:  # not a kernel class either: refused below
        pass
    raise SnapshotError(f"engine_class is an engine class (Engine or a kernel's), not {shown(given)}")


def _replay(engine: Engine, number: int, step: object) -> None:
    """Make again the call a log entry records."""
    where = f"log step {number}"
    if not isinstance(step, list) or len(step) != 3:
        raise SnapshotError(f"{where} is not [seat, action, argument]")
    seat, action, argument = step
    _require(type(action) is str, f"{where}: the action is not a name: {shown(action)}")
    if seat == -1 and type(seat) is int:
        _require(argument is None or isinstance(argument, dict), f"{where} is not a deal")
        given = argument or {}
        for name in given:  # a deal's keywords are the spec's deal inputs, never deal's own
            _require(name in type(engine).DEAL_INPUTS, f"{where}: a deal gives no {shown(name)}")
        engine.deal(action, **given)
        return
    if seat == -2 and type(seat) is int and action == "settle":
        keys = {"ranking", "runs", "odd_chip_seat"}
        _require(
            isinstance(argument, dict) and keys <= set(argument) <= {*keys, "shown", "made"},
            f"{where}: not a settlement",
        )
        engine.settle(
            argument["ranking"],
            runs=argument["runs"],
            odd_chip_seat=argument["odd_chip_seat"],
            shown=_by_seat(argument.get("shown"), "shown", where),
            made=_by_seat(argument.get("made"), "made", where),
        )
        return
    _require(type(seat) is int and 0 <= seat < engine.seats, f"{where}: seat {shown(seat)} out of range")
    if action in _PLAIN or action in type(engine).OWN_ACTIONS:
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

    With ``key``, the snapshot must carry the signature that key makes (see the module's notes).
    ``engine_class`` is the spec's engine class by default; a kernel class (``fast_engine``'s)
    restores as its Python engine. Whatever ``data`` is, the answer is a hand or a
    SnapshotError: its size, depth and values are checked first (``MAX_LOG``, ``MAX_VALUES``,
    ``MAX_TEXT``, ``MAX_DEPTH``), before a signature is computed or a step replayed."""
    _require(isinstance(data, dict), "a snapshot is a JSON object")
    found = dict.get(data, "format")
    _require(type(found) is str and found == FORMAT, f"not a betspec snapshot (format {shown(found)})")
    version = dict.get(data, "version")
    _require(
        type(version) is int and version == VERSION,
        f"snapshot version {shown(version)} is not supported (this betspec reads {VERSION})",
    )
    log = dict.get(data, "log")
    if not isinstance(log, list):
        raise SnapshotError("the log is not a list of steps")
    _require(len(log) <= MAX_LOG, f"the log has {len(log):,} steps: a snapshot holds at most {MAX_LOG:,}")
    data = _plain_json(data)
    if key is not None:
        stored = data.get("signature")
        _require(type(stored) is str, "the snapshot is not signed, and a key was given")
        _require(
            bool(_SIGNATURE.match(stored)) and hmac.compare_digest(stored, signature(data, key)),
            "the signature does not match: tampered with",
        )
    spec = data.get("spec")
    _require(isinstance(spec, str) and bool(_NAME.match(spec)), f"bad spec name {shown(spec)}")
    cls = _engine_class(spec) if engine_class is None else _python_class(engine_class)
    _require(spec == cls.SPEC_NAME, f"the snapshot is of {spec!r}, not {shown(cls.SPEC_NAME)}")
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
    except BetspecError as exc:
        raise SnapshotError(f"the table cannot be rebuilt: {exc.message}") from None
    log = data["log"]
    for number, step in enumerate(log):
        try:
            _replay(engine, number, step)
        except SnapshotError:
            raise
        except BetspecError as exc:
            raise SnapshotError(f"log step {number} does not replay: {exc.message}") from None
    stored = data.get("observed")
    _require(isinstance(stored, dict), "no observed state")
    table_chips = engine.total_chips()
    stacks, pot = stored.get("stacks"), stored.get("pot")
    take = stored.get("house_take", [0, 0])  # the house's take: counted as the chips it was
    jackpot_paid = stored.get("jackpot_paid", 0)  # and what its jackpot paid onto the table
    if (
        isinstance(stacks, list)
        and all(type(s) is int for s in stacks)
        and type(pot) is int
        and isinstance(take, list)
        and all(type(t) is int for t in take)
        and type(jackpot_paid) is int
    ):
        held = sum(stacks) + pot + sum(take) - jackpot_paid
        _require(held == table_chips, "chip totals do not add up: chips were created or lost")
    actual = observed(engine)
    for name, value in actual.items():
        got = stored.get(name)
        _require(got == value, f"tampered with: {name} is {shown(got)}, the log gives {shown(value)}")
    return engine
