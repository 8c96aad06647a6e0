"""The compiled path (the default engine) equals the transitions path, step by step.

Each generated module has ``<Name>Machine``, which takes every event through the transitions
machine, and ``<Name>`` (the default, ``ENGINE``), which takes the same spec's transitions through
compiled tables. The same random hands, illegal attempts included, go through both; after every
step their whole states and their answers must be equal.
"""

from __future__ import annotations

import importlib
import random

import pytest

from betspec.conformance.runner import snapshot
from betspec.runtime import Engine, IllegalAction
from tests.test_engine import STRUCTURES, random_engine


def answers(engine: Engine) -> tuple[object, ...]:
    return (
        engine.to_act,
        engine.legal_actions(),
        engine.call_amount,
        engine.min_to,
        engine.max_to,
        engine.street_name,
        engine.round_over,
        engine.hand_over,
        tuple(engine.pots()),
        engine.variables,
    )


def outcome(engine: Engine, step: tuple[str, int, int | None]) -> str | None:
    kind, seat, to = step
    try:
        if kind == "deal":
            # Seat 1 asks for the last street out of order: both paths must refuse it alike.
            engine.deal((engine.next_street or engine.STREETS[0]) if seat == 0 else engine.STREETS[-1])
        else:
            engine.act(seat, kind, to)
    except IllegalAction as error:
        return f"{error.code} {error.rule} {error.message}"
    return None


def random_step(engine: Engine, rng: random.Random) -> tuple[str, int, int | None]:
    """A step a random player or dealer tries: mostly legal, sometimes out of turn, out of
    bounds or a deal out of order."""
    seat = engine.to_act if engine.to_act is not None and rng.random() < 0.85 else rng.randrange(engine.seats)
    if engine.to_act is None:
        return ("deal", 0 if rng.random() < 0.9 else 1, None)
    tried = ["fold", "check", "call", "bet", "raise", "all_in", *engine.OWN_ACTIONS, *engine.legal_actions() * 3]
    action = rng.choice(tried)
    to = None
    if action in ("bet", "raise"):
        low, high = engine.min_to or 1, engine.max_to or 1
        to = rng.choice([low, high, rng.randint(max(0, low - 5), high + 5)])
    return (action, seat, to)


@pytest.mark.parametrize("structure", STRUCTURES)
def test_compiled_path_equals_the_transitions_machine(structure: str) -> None:
    module = importlib.import_module(f"betspec.engines.{structure}")
    fast_class, machine_class = module.ENGINE, getattr(module, f"{module.ENGINE.__name__}Machine")
    assert issubclass(fast_class, machine_class) and fast_class is not machine_class
    rng = random.Random(f"paths-{structure}")
    compared = 0
    hands = 0
    # Short hands (a cap reached, everyone all in) are cheap: play on until enough steps compared.
    while compared < 2000 and hands < 1000:
        hands += 1
        seed = rng.random()
        fast = random_engine(structure, random.Random(seed), fast_class)
        slow = random_engine(structure, random.Random(seed), machine_class)
        assert type(slow) is machine_class and snapshot(fast) == snapshot(slow)
        for _ in range(200):
            if fast.hand_over:
                break
            assert answers(fast) == answers(slow)
            step = random_step(fast, rng)
            assert outcome(fast, step) == outcome(slow, step)
            assert snapshot(fast) == snapshot(slow)
            compared += 1
    assert compared >= 2000
