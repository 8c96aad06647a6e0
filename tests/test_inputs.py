"""Every public entry point refuses wrong types and misplaced amounts, with a code, changing nothing."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from betspec.conformance.runner import snapshot
from betspec.runtime import Engine, IllegalAction, InvalidTable, Start, Table, engine_class

try:  # numpy is not a dependency; its integers are the commonest int look-alike
    import numpy

    NUMPY_ZERO: list[object] = [numpy.int64(0)]
except ImportError:  # pragma: no cover - depends on the machine
    NUMPY_ZERO = []


class IntLike(int):
    """An int subclass: equal to 0, but not a plain int."""


NOT_SEATS: list[object] = [0.0, Decimal(0), Fraction(0), False, IntLike(0), "0", None, *NUMPY_ZERO]


def a_flop() -> Engine:
    return engine_class("no_limit")(Table([1000, 1000, 1000], 2, (5, 10)), start=Start("flop", 30))


ACTIONS: dict[str, Callable[[Engine, Any], object]] = {
    "fold": lambda e, s: e.fold(s),
    "check": lambda e, s: e.check(s),
    "call": lambda e, s: e.call(s),
    "bet": lambda e, s: e.bet(s, 20),
    "raise_to": lambda e, s: e.raise_to(s, 20),
    "all_in": lambda e, s: e.all_in(s),
    "timeout": lambda e, s: e.timeout(s),
    "act": lambda e, s: e.act(s, "check"),
    "push": lambda e, s: e.push(s, [20]),
    "declare": lambda e, s: e.declare(s, "check"),
    "declare_out_of_turn": lambda e, s: e.declare_out_of_turn(s, "check"),
}


@pytest.mark.parametrize("seat", NOT_SEATS, ids=lambda s: f"{type(s).__name__}")
@pytest.mark.parametrize("name", list(ACTIONS))
def test_every_action_refuses_a_seat_that_is_not_an_int(name: str, seat: object) -> None:
    engine = a_flop()
    assert (engine.to_act == 0 and seat == 0) or seat in (None, "0")  # equal to the seat to act
    before = snapshot(engine)
    with pytest.raises(IllegalAction) as info:
        ACTIONS[name](engine, seat)
    assert info.value.code == "bad_seat", info.value.message
    assert info.value.rule in engine.RULES
    assert snapshot(engine) == before and engine.history == ()


@pytest.mark.parametrize(
    "call, code",
    [
        (lambda e: e.act(0, "all_in", 3), "bad_amount"),
        (lambda e: e.act(0, "check", 500), "bad_amount"),
        (lambda e: e.act(0, "fold", 0), "bad_amount"),
        (lambda e: e.act(0, "timeout", 1), "bad_amount"),
        (lambda e: e.act(0, "call", 10), "bad_amount"),
        (lambda e: e.act(0, "bet", True), "bad_amount"),
        (lambda e: e.act(0, "bet", 20.0), "bad_amount"),
        (lambda e: e.act(0, ["bet"], 20), "illegal_action"),
        (lambda e: e.act(0, None), "illegal_action"),
        (lambda e: e.declare_out_of_turn(1, "check", object()), "bad_amount"),
        (lambda e: e.declare_out_of_turn(1, "call", 10), "bad_amount"),
        (lambda e: e.declare_out_of_turn(1, "bet", 10.0), "bad_amount"),
        (lambda e: e.declare_out_of_turn(1, ["bet"], 10), "illegal_action"),
        (lambda e: e.declare(0, ["raise"]), "illegal_action"),
        (lambda e: e.declare(0, {"act": "bet", "to": True}), "bad_amount"),
        (lambda e: e.push(0, [20], ["raise"]), "illegal_action"),
        (lambda e: e.push(0, (x for x in [20])), "bad_amount"),
    ],
)
def test_misplaced_or_mistyped_amounts_are_refused(call: Callable[[Engine], object], code: str) -> None:
    engine = a_flop()
    before = snapshot(engine)
    with pytest.raises(IllegalAction) as info:
        call(engine)
    assert info.value.code == code, info.value.message
    assert snapshot(engine) == before


def test_a_huge_input_is_not_echoed() -> None:
    engine = a_flop()
    with pytest.raises(IllegalAction) as info:
        engine.act(0, "x" * 10_000_000)
    assert len(info.value.message) < 1000
    with pytest.raises(IllegalAction) as info:
        engine.bet(0, 10**5000)  # too long for repr(): still a coded refusal
    # Past the most a table holds: bad_amount, in every engine alike (issue 29).
    assert info.value.code == "bad_amount" and "an integer of 16610 bits" in info.value.message
    with pytest.raises(IllegalAction) as info:
        engine.deal("flop")
    assert info.value.message.startswith("deal 'flop': round_not_over")


def test_options_are_checked_by_name_with_a_near_name() -> None:
    cls = engine_class("no_limit")
    table = Table([100, 100], 0, (1, 2))
    with pytest.raises(InvalidTable, match=r"no option 'bet_unt' \(did you mean 'bet_unit'\?\)"):
        cls(table, bet_unt=5)
    with pytest.raises(InvalidTable, match="small_chips must be one of stay_behind, play"):
        cls(table, small_chips="keep")


def test_the_burn_blind_is_posted_in_full_or_not_at_all() -> None:
    cls = engine_class("no_limit")
    with pytest.raises(InvalidTable, match="seat 3 cannot post the straddle of 20 in full: it has 15"):
        cls(Table([1000, 1000, 1000, 15], 0, (5, 10), burn_blind=True))
    engine = cls(Table([1000, 1000, 1000, 20], 0, (5, 10), burn_blind=True))
    assert engine.committed == (0, 5, 10, 20) and engine.stacks[3] == 0
