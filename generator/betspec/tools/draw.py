"""Random tables and options for any spec, built from what it declares.

Tools that play many hands (simulate, coverage, the property and differential tests) never name
a structure or an input: they read the engine class's ``INPUTS`` and ``OPTIONS`` (each input's
type, default, example and bounds) and draw values around the defaults and examples. A draw
the spec's checks refuse is simply drawn again.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from betspec.runtime import Engine, InvalidTable, Start, Table
from betspec.runtime.table import Declared


def _scaled(example: object, scale: int) -> object:
    if isinstance(example, list | tuple):
        return [_scaled(value, scale) for value in example]
    return example * scale if type(example) is int else example


def draw_input(declared: Declared, rng: random.Random, seats: int, variety: float) -> object:
    """A value of one input: its default most of the time (when it has one), else something else
    of its type. ``variety`` is the chance of leaving the default."""
    if not declared.required and rng.random() >= variety:
        return declared.default
    kind = declared.type
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "choice":
        return rng.choice(declared.choices)
    if kind in ("seat", "seat?"):
        return rng.randrange(seats)
    if kind == "seats":
        return rng.sample(range(seats), rng.randint(0, min(2, seats)))
    low = declared.minimum if declared.minimum is not None else 0
    high = declared.maximum if declared.maximum is not None else max(low, 5)
    if declared.example is not None:
        return _scaled(declared.example, rng.choice([0, 1, 1, 2, 5]))
    if declared.per_seat:
        return [rng.randint(low, high) for _ in range(seats)]
    return rng.randint(low, high)


def draw_options(cls: type[Engine], rng: random.Random, variety: float = 0.3) -> dict[str, Any]:
    """Options of ``cls``'s spec: each its default, or (with chance ``variety``) another value."""
    options: dict[str, Any] = {}
    for name, declared in cls.OPTIONS.items():
        if rng.random() >= variety:
            continue
        if declared.type == "bool":
            options[name] = not declared.default
        elif declared.type == "choice":
            options[name] = rng.choice(declared.choices)
        elif declared.type in ("int", "int?"):
            low = declared.minimum if declared.minimum is not None else 0
            high = declared.maximum if declared.maximum is not None else low + 25
            choices: list[int | None] = [low, rng.randint(low, high), high]
            if declared.type == "int?":
                choices.append(None)
            options[name] = rng.choice(choices)
    return options


def draw_table(
    cls: type[Engine], rng: random.Random, seats: int, stack: Callable[[], int], variety: float = 0.15
) -> Table:
    """A table of ``seats`` seats, stacks from ``stack()``, every input drawn (see draw_input)."""
    inputs = {name: draw_input(d, rng, seats, variety) for name, d in cls.INPUTS.items()}
    inputs = {name: value for name, value in inputs.items() if value != cls.INPUTS[name].default}
    return Table.of([stack() for _ in range(seats)], rng.randrange(seats), inputs)


def draw_engine(
    cls: type[Engine],
    rng: random.Random,
    seats: tuple[int, int] = (2, 10),
    stack: Callable[[random.Random], int] | None = None,
    start_chance: float = 0.2,
    tries: int = 50,
) -> Engine:
    """A hand of ``cls`` on a drawn table, options and (sometimes) start street; a draw the spec
    refuses (its checks, a forced bet a seat cannot post in full) is drawn again."""
    draw_stack = stack or (lambda r: r.choice([r.randint(1, 30), r.randint(20, 3000)]))
    for _ in range(tries):
        count = rng.randint(*seats)
        table = draw_table(cls, rng, count, lambda: draw_stack(rng))
        later = cls.STREETS[1:]
        start = Start(rng.choice(later), rng.randint(0, 300)) if later and rng.random() < start_chance else None
        try:
            return cls(table, start=start, **draw_options(cls, rng))
        except InvalidTable:
            continue
    raise InvalidTable(f"no table of {cls.SPEC_NAME} was drawn in {tries} tries: its checks refuse them all")
