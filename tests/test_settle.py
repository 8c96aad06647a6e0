"""Paying the pots (`settle`) and playing a session (`next_table`): every chip ends in a stack."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from betspec.runtime import IllegalAction, InvalidTable, Table, engine_class
from betspec.runtime.snapshot import restore
from betspec.tools import phh
from betspec.tools.simulate import choose
from tests.conftest import ROOT

NoLimit = engine_class("no_limit")


def all_in_three_ways(stacks: list[int]) -> object:
    engine = NoLimit(Table(stacks, 0, (5, 10)))
    engine.all_in(0)
    engine.call(1) if engine.call_amount < engine.stacks[1] else engine.all_in(1)
    engine.call(2) if engine.call_amount < engine.stacks[2] else engine.all_in(2)
    while engine.next_street:
        engine.deal(engine.next_street)
    return engine


def test_an_uncontested_pot_needs_no_ranking() -> None:
    engine = NoLimit(Table([100, 100, 100], 0, (5, 10)))
    engine.fold(0)
    engine.fold(1)
    paid = engine.settle()
    assert paid.won == (0, 0, 10) and paid.returned == (0, 0, 5) and paid.collected == (0, 0, 15)
    assert engine.stacks == (100, 95, 105) and engine.total_chips() == 300 and engine.paid


def test_side_pots_go_to_the_best_hand_eligible_for_each() -> None:
    engine = all_in_three_ways([100, 50, 25])
    paid = engine.settle([2, 1, 0])  # the shortest stack has the best hand
    assert [(a.amount, a.winners) for a in paid.awards] == [(75, (2,)), (50, (1,))]
    assert engine.stacks == (50, 50, 75)  # seat 0's uncalled 50 came back before the showdown


def test_a_tie_splits_the_pot_and_the_odd_chip_goes_left_of_the_button() -> None:
    # Poker TDA rule 20, Robert's section 3: the first seat left of the button takes the odd chip.
    engine = NoLimit(Table([100, 100, 100], 0, (5, 10)))
    engine.call(0)
    engine.call(1)
    engine.check(2)
    engine.deal("flop")
    engine.bet(1, 15)
    engine.call(2)
    engine.fold(0)
    for street in ("turn", "river"):
        engine.deal(street)
        engine.check(1)
        engine.check(2)
    assert engine.pot == 60
    paid = engine.settle([[2, 1]])
    assert paid.awards[0].winners == (1, 2) and paid.awards[0].shares == (30, 30)
    engine = NoLimit(Table([100, 100, 101], 0, (5, 10)))
    engine.call(0)
    engine.call(1)
    engine.check(2)
    engine.deal("flop")
    engine.bet(1, 15)
    engine.call(2)
    engine.call(0)  # 75 in the pot
    for street in ("turn", "river"):
        engine.deal(street)
        engine.check(1)
        engine.check(2)
        engine.check(0)
    paid = engine.settle([[0, 2], 1])
    assert paid.awards[0].winners == (2, 0) and paid.awards[0].shares == (38, 37)  # seat 2 is left of it first
    assert engine.settle is not None and engine.total_chips() == 301
    other = NoLimit(Table([100, 100, 100], 0, (5, 10)))
    other.call(0), other.call(1), other.check(2)
    while not other.hand_over:
        if other.to_act is None:
            other.deal(other.next_street or "")
        else:
            other.check(other.to_act)
    assert other.settle([[0, 1, 2]], odd_chip_seat=1).awards[0].shares == (10, 10, 10)


def test_the_board_run_twice_halves_each_pot() -> None:
    # no-limit-pot-limit-house-rules.fr.txt, no-limit rule 14: 'brasser en double'
    engine = all_in_three_ways([100, 50, 25])
    paid = engine.settle(runs=[[2, 1, 0], [0, [1, 2]]])
    assert [(a.amount, a.winners, a.run) for a in paid.awards] == [
        (38, (2,), 0),
        (37, (0,), 1),
        (25, (1,), 0),
        (25, (0,), 1),
    ]
    assert sum(paid.won) == 125 and engine.total_chips() == 175


@pytest.mark.parametrize(
    "ranking, code",
    [
        (None, "illegal_action"),  # a showdown needs one
        ([0, 1], "illegal_action"),  # seat 2 shows down and is not ranked
        ([0, 0, 1, 2], "illegal_action"),  # ranked twice
        ([0, True, 2], "bad_seat"),
        ([0, 1, 7], "bad_seat"),
        ("012", "illegal_action"),
    ],
)
def test_a_wrong_ranking_is_refused_and_changes_nothing(ranking: object, code: str) -> None:
    engine = all_in_three_ways([100, 50, 25])
    before = engine.snapshot()
    with pytest.raises(IllegalAction) as info:
        engine.settle(ranking)  # type: ignore[arg-type]
    assert info.value.code == code and engine.snapshot() == before


def test_settling_before_the_end_or_twice_is_refused() -> None:
    engine = NoLimit(Table([100, 100], 0, (5, 10)))
    with pytest.raises(IllegalAction) as info:
        engine.settle()
    assert info.value.code == "round_not_over"
    engine.fold(0)
    engine.settle()
    with pytest.raises(IllegalAction):
        engine.settle()


def test_a_settled_hand_survives_a_snapshot() -> None:
    engine = all_in_three_ways([100, 50, 25])
    engine.settle([2, [0, 1]])
    again = restore(engine.snapshot())
    assert again.paid and again.stacks == engine.stacks


def test_fold_outs_of_the_real_hands_pay_what_the_site_paid() -> None:
    """Every fold-out of the PHH sample: before a flop the site paid exactly what betspec pays
    (counting a blind's excess as won, as the site does, or as an uncalled bet given back, as
    betspec does); once a flop was dealt the site paid less by its rake, to the same winner."""
    hands = phh.read(str(ROOT / "tests" / "phh" / "handhq-abs-200nlh-sample.phhs"))
    exact = raked = 0
    for hand in hands:
        result = phh.replay(hand, NoLimit)
        engine = result.engine
        assert isinstance(hand, phh.Hand) and engine is not None
        if engine.street_name != "settled" or hand.winnings is None:
            continue
        paid = engine.settle()
        if not any(act.seat < 0 for act in hand.acts):
            assert hand.winnings in (paid.won, paid.collected), hand.name
            exact += 1
        else:
            winner = [s for s, w in enumerate(hand.winnings) if w]
            assert winner == [s for s, w in enumerate(paid.won) if w] and sum(hand.winnings) < sum(paid.collected)
            raked += 1
    assert (exact, raked) == (266, 210)


@pytest.mark.parametrize("structure", ["no_limit", "fixed_limit", "pot_limit"])
@pytest.mark.parametrize("button_rule", ["dead", "moving"])
def test_a_session_of_a_hundred_hands(structure: str, button_rule: str) -> None:
    cls = engine_class(structure)
    rng = random.Random(f"session-{structure}-{button_rule}")
    table = cls.example_table([4000] * 6, 5)
    total = sum(table.stacks)
    played = 0
    while played < 100:
        played += 1
        engine = cls(table, button_rule=button_rule)
        while not engine.hand_over:
            if engine.to_act is None:
                engine.deal(engine.next_street or "")
            else:  # a quiet bot: bets and raises at the minimum, so the session lasts
                seat, action, to = choose(engine, rng)
                engine.act(seat, action, engine.min_to if to is not None else None)
        while engine.next_street:
            engine.deal(engine.next_street)
        showing = [s for s in range(engine.seats) if not engine.folded[s]]
        rng.shuffle(showing)
        engine.settle(showing if len(showing) > 1 else None)
        assert engine.total_chips() == total
        before = [s for s in range(engine.seats) if engine.stacks[s] > 0]
        try:
            table = engine.next_table()
        except InvalidTable:
            assert len(before) < 2
            break
        assert sum(table.stacks) == total and len(table.stacks) == len(before)
        nxt = cls(table, button_rule=button_rule)
        if len(before) > 2 and len(before) == engine.seats:  # nobody left: the seats keep their numbers
            if button_rule == "moving":
                assert nxt.button == (engine.button + 1) % engine.seats
            else:  # the dead button: the big blind moves to the next player, the button follows
                assert nxt._role_big_blind_seat == (engine._role_big_blind_seat + 1) % engine.seats  # type: ignore[attr-defined]
    assert played == 100


def test_the_next_table_keeps_what_carries_and_drops_what_was_for_one_hand(tmp_path: Path) -> None:
    engine = NoLimit(Table([100, 100, 100, 100], 0, (5, 10), ante=1, straddles=1))
    engine.fold(0)
    engine.fold(1)
    engine.fold(2)
    with pytest.raises(InvalidTable, match="settle the hand"):
        engine.next_table()
    engine.settle()
    table = engine.next_table()
    assert table.get("ante") == 1 and table.get("blinds") == (5, 10) and table.get("straddles") is None


def _showdown(engine: object, losers_last: list[int]) -> None:
    while not engine.hand_over:  # type: ignore[attr-defined]
        if engine.to_act is None:  # type: ignore[attr-defined]
            engine.deal(engine.next_street or "")  # type: ignore[attr-defined]
        elif engine.call_amount:  # type: ignore[attr-defined]
            engine.call(engine.to_act)  # type: ignore[attr-defined]
        else:
            engine.check(engine.to_act)  # type: ignore[attr-defined]
    while engine.next_street:  # type: ignore[attr-defined]
        engine.deal(engine.next_street)  # type: ignore[attr-defined]
    engine.settle(losers_last)  # type: ignore[attr-defined]


def test_the_big_blind_busts_under_the_dead_button_and_the_small_blind_is_dead() -> None:
    # Robert's Rules section 4, rules 1 and 2: the big blind moves to the next player; the old
    # big blind's empty seat would post the small blind, which is dead.
    engine = NoLimit(Table([100, 100, 10, 100], 0, (5, 10)))
    _showdown(engine, [0, 1, 3, 2])  # seat 2, the big blind, loses its 10
    table = engine.next_table()
    assert table.stacks == (130, 90, 90) and table.get("dead_small_blind") is True and table.button == 1
    nxt = NoLimit(table)
    assert nxt.committed == (0, 0, 10)  # old seat 3 posts the big blind, nobody the small blind
    engine = NoLimit(Table([100, 100, 10, 100], 0, (5, 10)), button_rule="moving")
    _showdown(engine, [0, 1, 3, 2])
    table = engine.next_table()
    assert table.get("dead_small_blind") is False and table.button == 1  # old seat 1 takes the button
    assert NoLimit(table).committed == (10, 0, 5)


def test_going_heads_up_nobody_has_the_big_blind_twice() -> None:
    # Poker TDA rule 32 (heads-up): the other player takes the button and the small blind.
    engine = NoLimit(Table([100, 10, 100], 0, (5, 10)))  # seat 1 is the small blind and busts
    _showdown(engine, [0, 2, 1])
    table = engine.next_table()
    assert len(table.stacks) == 2 and table.button == 1  # old seat 2, the big blind, now the button
    assert NoLimit(table).committed == (10, 5)
