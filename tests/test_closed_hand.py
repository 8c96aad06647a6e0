"""A finished hand is closed (issue 29, item 4): once a hand is over (won, at its showdown, dead)
and again once it is paid, no call changes it or its log, whatever is asked and with whatever
arguments; each refusal is a betspec error; the snapshot of every finished hand restores to the
same hand. For the Python engines and, where compiled, the kernels."""

from __future__ import annotations

import random
from typing import Any

import pytest

from betspec.runtime import BetspecError, Engine, engine_class, engine_names
from betspec.runtime.batch import fast_engine, has_kernel
from betspec.runtime.snapshot import restore
from betspec.tools.draw import draw_engine

SPECS = engine_names()
STRANGE: list[Any] = [None, "", "x", 0, -1, 1.5, True, 10**30, [], {}, ("a",), object()]


def attempts(engine: Engine, rng: random.Random) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """Calls a host or a player might make on a hand that is over: deals of every street and of
    nothing, every action by every seat, chips pushed, words said, declarations."""
    cls = type(engine)
    seats = [*range(engine.seats), *rng.sample(STRANGE, 3)]
    found: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    for street in [*cls.STREETS, *STRANGE[:5]]:
        found.append(("deal", (street,), {}))
    found.append(("deal", (None,), {"x": 1}))
    for seat in seats:
        for action in ["fold", "check", "call", "bet", "raise", "all_in", "timeout", "bring_in", *cls.OWN_ACTIONS]:
            found.append(("act", (seat, action, rng.choice([None, 1, 10**9])), {}))
        found.append(("push", (seat, [rng.choice([1, 5, 100])], rng.choice([None, "call", "raise"])), {}))
        found.append(("declare", (seat, rng.choice(["call", "check", {"act": "raise", "to": 50}])), {}))
        found.append(("declare_out_of_turn", (seat, "call", None), {}))
    return found


def finished_hands(structure: str, cls: type[Engine], rng: random.Random, count: int) -> list[Engine]:
    """``count`` hands of ``cls`` (the engine or the kernel), drawn as the engine declares its
    tables, played at random to their end."""
    hands = []
    while len(hands) < count:
        drawn = draw_engine(engine_class(structure), rng)
        engine = cls(drawn.table, start=drawn.start, **drawn.options)
        for _ in range(300):
            if engine.hand_over:
                break
            if engine.to_act is None:
                engine.deal(engine.next_street or "")
                continue
            action = rng.choice(engine.legal_actions())
            to = rng.choice([engine.min_to, engine.max_to]) if action in ("bet", "raise") else None
            engine.act(engine.to_act, action, to)
        while not engine.hand_over or engine.next_street is not None:
            if engine.next_street is None:
                break
            engine.deal(engine.next_street)  # an all-in runout dealt to its end
        hands.append(engine)
    return hands


def refused_unchanged(engine: Engine, rng: random.Random) -> int:
    refused = 0
    for method, args, kwargs in attempts(engine, rng):
        before = engine.snapshot()
        try:
            getattr(engine, method)(*args, **kwargs)
        except BetspecError:
            refused += 1
        else:
            raise AssertionError(f"{method}{args} changed a finished hand: {engine.history}")
        assert engine.snapshot() == before, (method, args)
    return refused


def ranking_of(engine: Engine) -> list[int] | None:
    seats = [seat for seat in range(engine.seats) if not engine.folded[seat]]
    return seats if len(seats) > 1 and engine.phase != "dead" else None


@pytest.mark.parametrize("structure", SPECS)
def test_nothing_changes_a_finished_hand_or_a_paid_one(structure: str) -> None:
    rng = random.Random(f"closed-{structure}")
    classes = [engine_class(structure)] + ([fast_engine(structure)] if has_kernel(structure) else [])
    for cls in classes:
        for engine in finished_hands(structure, cls, rng, 12):
            assert engine.hand_over
            refused = refused_unchanged(engine, rng)
            assert refused > 20
            again = restore(engine.snapshot())
            assert again.history == engine.history and again.stacks == engine.stacks
            engine.settle(ranking_of(engine))
            refused_unchanged(engine, rng)
            with pytest.raises(BetspecError):
                engine.settle(ranking_of(engine))
            again = restore(engine.snapshot())
            assert again.history == engine.history and again.stacks == engine.stacks and again.paid


def test_a_deal_of_nothing_after_the_hand_is_won_is_refused_and_not_logged() -> None:
    """The audit's case: deal(None) after everybody folded was taken and logged, and the hand's
    own snapshot no longer restored."""
    cls = engine_class("no_limit")
    hand = cls(cls.example_table([100, 100, 100]))
    hand.fold(hand.to_act or 0)
    hand.fold(hand.to_act or 0)
    assert hand.hand_over and hand.next_street is None
    with pytest.raises(BetspecError) as refused:
        hand.deal(None)  # type: ignore[arg-type]
    assert refused.value.code == "illegal_action" and "no street is left to deal" in str(refused.value)
    assert all(step[0] != -1 for step in hand.history)
    assert restore(hand.snapshot()).history == hand.history
