"""The dealer refuses what it cannot do, changing nothing (issue 29, items 4 and 5).

``cards.Dealer`` is a host's object: every call with wrong types, bad seats, a hand that is not
a betspec hand, a draw or a deal that the dealer or the engine refuses raises a betspec error
(``CardError``, or the engine's ``IllegalAction``) and leaves the dealer and the engine exactly as
they were."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from betspec import cards
from betspec.runtime import BetspecError, Engine, engine_class

HOSTILE: list[Any] = [None, -1, 99, 1.5, True, "0", [], {}, object(), 10**40, ("a",), b"x", float("nan")]


def dealt_state(dealer: cards.Dealer) -> dict[str, Any]:
    return copy.deepcopy({name: value for name, value in vars(dealer).items() if name != "game"})


def hold_em(seed: int = 3) -> tuple[cards.Dealer, Engine]:
    cls = engine_class("no_limit")
    engine = cls(cls.example_table([200, 200, 200]))
    return cards.Dealer("NT", 3, seed=seed), engine


def draw_game(seed: int = 3) -> tuple[cards.Dealer, Engine]:
    cls = engine_class("triple_draw")
    engine = cls(cls.example_table([200, 200, 200]))
    return cards.Dealer("F2L3D", 3, seed=seed), engine


def test_a_refused_second_draw_takes_no_card() -> None:
    dealer, engine = draw_game()
    while engine.to_act is not None:
        engine.act(engine.to_act, "call" if "call" in engine.legal_actions() else "check")
    dealer.draw(0, dealer.hole[0][:2])
    before = dealt_state(dealer)
    with pytest.raises(cards.CardError, match="drawn already"):
        dealer.draw(0, dealer.hole[0][:1])
    assert dealt_state(dealer) == before


def test_a_deal_the_engine_refuses_deals_no_card() -> None:
    dealer, engine = hold_em()
    assert engine.to_act is not None  # the betting is not over: the engine refuses the flop
    before, snapshot = dealt_state(dealer), engine.snapshot()
    with pytest.raises(BetspecError):
        dealer.deal(engine, "flop")
    assert dealt_state(dealer) == before and engine.snapshot() == snapshot


@pytest.mark.parametrize("seat", HOSTILE)
def test_a_draw_by_what_is_not_a_seat_is_refused(seat: Any) -> None:
    dealer, _ = draw_game()
    before = dealt_state(dealer)
    with pytest.raises(cards.CardError):
        dealer.draw(seat, [])
    assert dealt_state(dealer) == before


@pytest.mark.parametrize(
    "arguments",
    [("NT", 1), ("NT", 11), ("NT", "3"), ("NT", True), ("XX", 3), (None, 3), ("NT", 3, [1, [2]]), ("NT", 3, object())],
)
def test_a_dealer_that_cannot_be_made_is_refused(arguments: tuple[Any, ...]) -> None:
    with pytest.raises(cards.CardError):
        cards.Dealer(*arguments)


def test_a_deeply_nested_seed_is_refused_at_once() -> None:
    nested: Any = []
    for _ in range(100_000):
        nested = [nested]
    with pytest.raises(cards.CardError, match="seed"):
        cards.Dealer("NT", 3, seed=nested)


@pytest.mark.parametrize("hand", [None, "engine", 3, object()])
def test_a_deal_to_what_is_not_a_hand_is_refused(hand: Any) -> None:
    dealer, _ = hold_em()
    before = dealt_state(dealer)
    with pytest.raises(cards.CardError, match="betspec hand"):
        dealer.deal(hand)
    with pytest.raises(cards.CardError, match="betspec hand"):
        dealer.settle(hand)
    assert dealt_state(dealer) == before


def test_a_hand_of_other_seats_is_refused() -> None:
    dealer = cards.Dealer("NT", 4, seed=1)
    cls = engine_class("no_limit")
    with pytest.raises(cards.CardError, match="4 seats, the hand has 3"):
        dealer.deal(cls(cls.example_table([100, 100, 100])))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 1000),
    calls=st.lists(
        st.tuples(
            st.sampled_from(["draw", "deal", "upcards", "showdown", "settle", "table_inputs"]),
            st.sampled_from([0, 1, 2, *HOSTILE]),
            st.sampled_from([(), ["??"], ["2c"], "AhKh", None, 5, ["Ah", "Ah"], [[]], *(["x"] * 3)]),
        ),
        max_size=12,
    ),
)
def test_every_refused_call_leaves_dealer_and_engine_as_they_were(seed: int, calls: list[Any]) -> None:
    rng = random.Random(seed)
    dealer, engine = draw_game(seed) if rng.random() < 0.5 else hold_em(seed)
    for method, seat, argument in calls:
        if engine.to_act is not None and rng.random() < 0.7:
            legal = engine.legal_actions()
            action = "call" if "call" in legal else "check" if "check" in legal else legal[0]
            engine.act(engine.to_act, action)
        before, snapshot = dealt_state(dealer), engine.snapshot()
        try:
            if method == "draw":
                dealer.draw(
                    seat, argument if argument != ["??"] else dealer.hole[seat][:1] if seat in (0, 1, 2) else []
                )
            elif method == "deal":
                dealer.deal(engine, argument if isinstance(argument, str) else None)
            elif method == "upcards":
                dealer.upcards(argument)
            elif method == "showdown":
                dealer.showdown(argument if argument is not None else [seat])
            elif method == "settle":
                dealer.settle(engine)
            else:
                dealer.table_inputs()
        except BetspecError:
            assert dealt_state(dealer) == before and engine.snapshot() == snapshot, method
        if engine.hand_over and engine.paid:
            break


def test_the_dealer_follows_a_hand_begun_past_its_first_street() -> None:
    from betspec.cards import Dealer
    from betspec.runtime import Table, engine_class

    cls = engine_class("no_limit")
    bomb = cls(Table([100, 100, 100], 0, [1, 2], bomb_pot=5))
    dealer = Dealer("NT", 3, seed=1)
    assert bomb.street_name == "flop" and dealer.board == []
    assert len(dealer.follow(bomb)) == 3 and len(dealer.board) == 3 and dealer.street == 2
    assert dealer.follow(bomb) == []  # already there: nothing dealt twice
    plain = cls(Table([100, 100, 100], 0, [1, 2]))
    other = Dealer("NT", 3, seed=1)
    assert other.follow(plain) == [] and other.board == [] and other.street == 1
