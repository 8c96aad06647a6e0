"""What a snapshot records: a hand's inputs, the calls made on it and the state they led to, as JSON.

:func:`take` writes it (``Engine.snapshot`` calls it); :mod:`betspec.runtime.snapshot` reads it
back. This module knows nothing of the engine classes, so that the engine may import it.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import TYPE_CHECKING, Any

from betspec.runtime.errors import SnapshotError

if TYPE_CHECKING:
    from betspec.runtime.engine import Engine

FORMAT = "betspec.snapshot"
VERSION = 2


def observed(engine: Engine) -> dict[str, Any]:
    """The state a log leads to, as stored in a snapshot and compared on restore."""
    found = {
        "state": engine.state.value,
        "out_of_turn": sorted([seat, *declared] for seat, declared in engine._out_of_turn.items()),
        "declared": engine._declared,
        "announced": engine._announced,
        "to_act": engine.to_act,
        "stacks": list(engine.stacks),
        "committed": list(engine.committed),
        "pot": engine.pot,
        "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in engine.pots()],
    }
    if engine.DECLARED_VARIABLES:  # the spec's own variables, where it declares any
        found["variables"] = engine.variables
    if engine.RAKE is not None:  # what the house took as the pots were paid, where it rakes
        found["house_take"] = [engine.rake, engine.jackpot_drop]
    if any(payment["from"] == "jackpot" for payment in engine.PAYMENTS):  # where the jackpot pays out
        found["jackpot_paid"] = engine.jackpot_paid
    return found


def _canonical(data: dict[str, Any]) -> bytes:
    body = {key: value for key, value in data.items() if key != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def signing_key(key: object) -> bytes:
    if not isinstance(key, bytes | bytearray) or not key:
        raise SnapshotError("a signing key is non-empty bytes")
    return bytes(key)


def signature(data: dict[str, Any], key: bytes) -> str:
    """The HMAC-SHA256 (hex) of a snapshot's canonical JSON, its signature left out."""
    return hmac.new(signing_key(key), _canonical(data), hashlib.sha256).hexdigest()


def take(engine: Engine, key: bytes | None = None) -> dict[str, Any]:
    """A snapshot of ``engine``, signed with ``key`` when one is given."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "spec": engine.SPEC_NAME,
        "spec_hash": engine.SPEC_HASH,
        "options": engine.options,
        "table": engine.table.to_json(),
        "start": None if engine.start is None else engine.start.to_json(),
        "log": [list(step) for step in engine.history],
        "observed": observed(engine),
    }
    if key is not None:
        data["signature"] = signature(data, key)
    return data
