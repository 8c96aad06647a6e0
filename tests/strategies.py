"""Hypothesis strategies for any spec's tables and options, built from what its engine declares.

No structure, input or option is named here: each value is drawn from its declaration (type,
bounds, choices, example), mostly left at its default so that the spec's checks refuse few
combinations. A table the spec refuses is filtered out by the test that draws it.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from betspec.runtime import Engine, Start
from betspec.runtime.table import Declared


def _mostly(default: object, other: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``default`` seven times in ten, else a value of ``other``."""
    return st.integers(0, 9).flatmap(lambda i: st.just(default) if i < 7 else other)


def value_of(declared: Declared, seats: int) -> st.SearchStrategy[Any]:
    """A value of one input or option as declared, at a table of ``seats`` seats."""
    kind = declared.type
    strategy: st.SearchStrategy[Any]
    if kind == "bool":
        strategy = st.booleans()
    elif kind == "choice":
        strategy = st.sampled_from(declared.choices)
    elif kind in ("seat", "seat?"):
        strategy = st.integers(0, seats - 1) | (st.none() if kind == "seat?" else st.nothing())
    elif kind == "seats":
        strategy = st.lists(st.integers(0, seats - 1), unique=True, max_size=min(3, seats))
    else:
        low = declared.minimum if declared.minimum is not None else 0
        one = st.integers(low, declared.maximum if declared.maximum is not None else low + 60)
        if declared.items:
            example = declared.example if isinstance(declared.example, tuple | list) else None
            sized = st.lists(one, min_size=len(declared.items), max_size=len(declared.items))
            strategy = (
                sized
                if example is None
                else (st.sampled_from([0, 1, 1, 2, 5]).map(lambda k: [v * k for v in example]) | sized.map(sorted))
            )
        elif declared.per_seat:
            strategy = st.lists(one, min_size=seats, max_size=seats)
        else:
            strategy = one
        if kind == "int?":
            strategy = strategy | st.none()
    return strategy if declared.required else _mostly(declared.default, strategy)


@st.composite
def engine_args(
    draw: st.DrawFn, cls: type[Engine], max_seats: int = 10
) -> tuple[list[int], int, dict[str, Any], Start | None, dict[str, Any]]:
    """Stacks, button, inputs, start and options for ``cls``: uneven, tiny and below-the-blind stacks."""
    seats = draw(st.integers(2, max_seats))
    stacks = draw(st.lists(st.one_of(st.integers(1, 60), st.integers(1, 5000)), min_size=seats, max_size=seats))
    button = draw(st.integers(0, seats - 1))
    inputs = {name: draw(value_of(declared, seats)) for name, declared in cls.INPUTS.items()}
    inputs = {name: value for name, value in inputs.items() if value != cls.INPUTS[name].default}
    later = st.sampled_from(cls.STREETS[1:]) if len(cls.STREETS) > 1 else st.nothing()
    start = draw(st.one_of(st.none(), st.builds(Start, later, st.integers(0, 300))))
    options = {
        name: draw(_mostly(declared.default, value_of(declared, seats))) for name, declared in cls.OPTIONS.items()
    }
    options = {name: value for name, value in options.items() if value != cls.OPTIONS[name].default}
    return stacks, button, inputs, start, options
