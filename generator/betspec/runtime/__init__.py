"""The runtime that generated engines import: chip bookkeeping, errors and the table inputs.

Generated modules depend on this package and on ``transitions`` only. Everything a betting
structure decides (sizes, legality, reopening, when a round ends) is compiled from its spec; the
runtime only moves chips, keeps the seat order and answers the primitive questions the specs'
expressions are written in (the names of :mod:`betspec.vocabulary`).
"""

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
