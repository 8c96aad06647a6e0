"""Pots by contribution, dead money included, on tables heavy with forced bets and short stacks.

The rule (ANTE-DEAD, ANTE-RULE and table stakes in the specs): a seat still in wins from each
player as much as it staked, that player's stake if less, and all the dead money (a big blind or
button ante, a blind posted dead, an ante under ante_rule 'dead', a start or carried pot),
whoever posted it, a seat all-in for dead money alone included. Here that is computed from the
stakes alone, without ``pots()``, and checked against the pots every engine makes (Python, the
kernel where compiled, TypeScript under Node) after every step of random hands, and against
what a settlement pays.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from betspec.runtime import Engine, InvalidTable, Table, engine_class, engine_names
from betspec.runtime.batch import fast_engine, has_kernel
from betspec.tools import typescript_run
from betspec.tools.draw import draw_input, draw_options
from tests.conftest import ROOT

SPECS = engine_names()


def winnable(engine: Engine, seat: int) -> int:
    """What ``seat`` wins if its hand is best, from the stakes alone: all the dead money, and from
    every player as much as it staked (that player's stake if less); the seats with the largest
    stake still in also take what folded seats put in above it."""
    stakes = engine.stakes
    dead = engine.pot - sum(stakes)
    mine = stakes[seat]
    top = max(stakes[s] for s in range(engine.seats) if not engine.folded[s])
    above = sum(max(stake - top, 0) for stake in stakes) if mine == top else 0
    return dead + sum(min(stake, mine) for stake in stakes) + above


def check_pots_by_contribution(engine: Engine) -> None:
    pots = engine.pots()
    assert sum(pot.amount for pot in pots) == engine.pot
    assert engine.pot - sum(engine.stakes) >= 0  # the dead money is never negative
    for seat in range(engine.seats):
        eligible = sum(pot.amount for pot in pots if seat in pot.eligible)
        if engine.folded[seat]:
            assert eligible == 0, (seat, pots)
        else:
            assert eligible == winnable(engine, seat), (seat, pots, engine.stakes, engine.contributed)


def forced_bet_table(cls: type[Engine], rng: random.Random) -> tuple[Table, dict[str, Any]] | None:
    """A table whose inputs leave their defaults half the time (the forced bets of every kind the
    spec declares), with stacks from one chip to a few times the largest amount drawn, and
    options drawn likewise; None when the spec's checks refuse the draw."""
    seats = rng.randint(2, 7)
    inputs = {name: draw_input(declared, rng, seats, 0.5) for name, declared in cls.INPUTS.items()}
    inputs = {name: value for name, value in inputs.items() if value != cls.INPUTS[name].default}
    amounts = [v for value in inputs.values() for v in (value if isinstance(value, list | tuple) else [value])]
    largest = max([v for v in amounts if type(v) is int] + [2])
    stacks = [rng.choice([1, rng.randint(1, largest), rng.randint(1, 3 * largest)]) for _ in range(seats)]
    table = Table.of(stacks, rng.randrange(seats), inputs)
    options = draw_options(cls, rng, 0.5)
    try:
        cls(table, **options)
    except InvalidTable:
        return None
    return table, options


def ranking(engine: Engine, rng: random.Random) -> list[Any]:
    seats = [seat for seat in range(engine.seats) if not engine.folded[seat]]
    rng.shuffle(seats)
    return seats


def play_out(hands: list[Engine], rng: random.Random) -> list[int]:
    """Play the same random legal steps on every engine of ``hands``, checking each's pots after
    every step; settle with the best hand alone and return the seats in the ranking order."""
    first = hands[0]
    chips = first.total_chips()
    for hand in hands:
        check_pots_by_contribution(hand)
    for _ in range(200):
        if first.hand_over:
            break
        if first.to_act is None:
            street = first.next_street
            assert street is not None
            for hand in hands:
                hand.deal(street)
        else:
            seat, legal = first.to_act, first.legal_actions()
            action = rng.choice(legal)
            to = None
            if action in ("bet", "raise"):
                assert first.min_to is not None and first.max_to is not None
                to = rng.choice([first.min_to, first.max_to])
            for hand in hands:
                hand.act(seat, action, to)
        for hand in hands:
            assert hand.pots() == first.pots() and hand.stacks == first.stacks
            check_pots_by_contribution(hand)
    assert first.hand_over
    order = ranking(first, rng)
    best = order[0]
    # A dead hand (nobody opened) pays nobody: its pot is the next deal's.
    expected = 0 if first.phase == "dead" else winnable(first, best)
    contested = sum(not folded for folded in first.folded) > 1
    settlements = [hand.settle(order if contested else None) for hand in hands]
    for hand, settlement in zip(hands, settlements, strict=True):
        assert settlement == settlements[0] and hand.stacks == first.stacks
        assert settlement.won[best] == expected, (settlement, first.stakes)
        assert hand.total_chips() == chips and (hand.pot == 0 or hand.phase == "dead")  # every chip in a stack
    return order


@pytest.mark.parametrize("structure", SPECS)
def test_pots_pay_every_seat_what_it_contributed_for(structure: str) -> None:
    cls = engine_class(structure)
    kernel = fast_engine(structure) if has_kernel(structure) else None
    rng = random.Random(f"pots-{structure}")
    played = 0
    while played < 120:
        drawn = forced_bet_table(cls, rng)
        if drawn is None:
            continue
        table, options = drawn
        hands = [cls(table, **options)]
        if kernel is not None:
            hands.append(kernel(table, **options))
        play_out(hands, rng)
        played += 1


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(structure=st.sampled_from(SPECS), seed=st.integers(0, 2**32))
def test_property_pots_by_contribution(structure: str, seed: int) -> None:
    rng = random.Random(seed)
    drawn = forced_bet_table(engine_class(structure), rng)
    if drawn is not None:
        play_out([engine_class(structure)(drawn[0], **drawn[1])], rng)


def _node_missing() -> str:
    try:
        typescript_run.node()
        typescript_run.tsc(str(ROOT))
    except typescript_run.NodeMissing as missing:
        return str(missing)
    return ""


@pytest.mark.skipif(bool(_node_missing()), reason="the TypeScript engines need Node and tsc")
def test_the_typescript_engines_make_the_same_pots_on_forced_bet_tables() -> None:
    compared = 0
    with typescript_run.Server(str(ROOT)) as server:
        for structure in SPECS:
            cls = engine_class(structure)
            rng = random.Random(f"pots-ts-{structure}")
            played = 0
            while played < 25:
                drawn = forced_bet_table(cls, rng)
                if drawn is None:
                    continue
                table, options = drawn
                engine = cls(table, **options)
                made = server.ask(
                    {"op": "new", "structure": structure, "table": table.to_json(), "options": options, "start": None}
                )
                hand = made["ok"]["id"]
                while True:
                    view = server.ask({"op": "view", "id": hand})["ok"]
                    assert view["pots"] == [{"amount": p.amount, "eligible": list(p.eligible)} for p in engine.pots()]
                    assert view["stakes"] == list(engine.stakes)
                    compared += 1
                    if engine.hand_over:
                        break
                    if engine.to_act is None:
                        method, args = "deal", [engine.next_street, {}]
                        engine.deal(engine.next_street or "")
                    else:
                        seat, action = engine.to_act, rng.choice(engine.legal_actions())
                        to = rng.choice([engine.min_to, engine.max_to]) if action in ("bet", "raise") else None
                        method, args = "act", [seat, action, to]
                        engine.act(seat, action, to)
                    answer = server.ask({"op": "call", "id": hand, "method": method, "args": args})
                    assert "result" in answer["ok"], answer
                order = ranking(engine, rng)
                contested = sum(not f for f in engine.folded) > 1
                paid = engine.settle(order if contested else None).to_json()
                answer = server.ask(
                    {"op": "call", "id": hand, "method": "settle", "args": [order if contested else None, None, None]}
                )
                assert answer["ok"]["result"] == paid
                server.ask({"op": "drop", "id": hand})
                played += 1
    assert compared > 500


def test_a_seat_all_in_for_dead_money_alone_can_win_it() -> None:
    """The button all-in for the button ante (the spec's default options) wins the dead ante with
    the best hand; before the fix the dead money went to a pot he could not win."""
    cls = engine_class("no_limit")
    hand = cls(Table.of([1000, 1000, 1000, 50], 3, {"blinds": (10, 20), "button_ante": 50}))
    for seat, action in ((2, "call"), (0, "call"), (1, "check")):
        hand.act(seat, action)
    while not hand.hand_over:
        if hand.to_act is None:
            hand.deal(hand.next_street or "")
        else:
            hand.check(hand.to_act)
    paid = hand.settle([3, 0, 1, 2])
    assert paid.won == (60, 0, 0, 50)
