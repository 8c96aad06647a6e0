"""The runtime that generated engines import: chip bookkeeping, errors and the table inputs.

Generated modules depend on this package and on ``transitions`` only. Everything a betting
structure decides (sizes, legality, reopening, when a round ends) is compiled from its spec; the
runtime only moves chips, keeps the seat order and answers the primitive questions the specs'
expressions are written in (the names of :mod:`betspec.vocabulary`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from betspec.runtime.lazy import attributes

if TYPE_CHECKING:
    from betspec.runtime.batch import (
        Draws,
        Played,
        Policy,
        Refused,
        TableDraw,
        fast_engine,
        has_kernel,
        play_drawn,
        play_hands,
        replay_hands,
    )
    from betspec.runtime.engine import Engine, Pot, Ruling, compiled, engine_class, engine_names
    from betspec.runtime.errors import BetspecError, Code, IllegalAction, InvalidTable, SnapshotError
    from betspec.runtime.table import Start, Table

#: Where each name of the package lives: imported when first read (PEP 562), so that a command
#: or a module reading one part of the runtime (its errors) does not load the engine and the
#: batch runner too.
_HOMES = {
    **dict.fromkeys(
        (
            "Draws",
            "Played",
            "Policy",
            "Refused",
            "TableDraw",
            "fast_engine",
            "has_kernel",
            "play_drawn",
            "play_hands",
            "replay_hands",
        ),
        "batch",
    ),
    **dict.fromkeys(("Engine", "Pot", "Ruling", "compiled", "engine_class", "engine_names"), "engine"),
    **dict.fromkeys(("BetspecError", "Code", "IllegalAction", "InvalidTable", "SnapshotError"), "errors"),
    **dict.fromkeys(("Start", "Table"), "table"),
}


__getattr__ = attributes("betspec.runtime", _HOMES, globals())


__all__ = [
    "BetspecError",
    "Code",
    "Draws",
    "Engine",
    "IllegalAction",
    "InvalidTable",
    "Played",
    "Policy",
    "Pot",
    "Refused",
    "Ruling",
    "SnapshotError",
    "Start",
    "Table",
    "TableDraw",
    "compiled",
    "engine_class",
    "engine_names",
    "fast_engine",
    "has_kernel",
    "play_drawn",
    "play_hands",
    "replay_hands",
]
