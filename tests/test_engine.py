"""Engines on random hands: chips conserved, legal actions accepted, rejections change nothing."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from betspec.conformance.runner import snapshot
from betspec.runtime import Engine, IllegalAction, InvalidTable, Start, Table, engine_class, engine_names
from betspec.tools.draw import draw_engine
from tests.strategies import engine_args

STRUCTURES = tuple(engine_names())


def random_engine(structure: str, rng: random.Random, cls: type[Engine] | None = None) -> Engine:
    """A random table, start and options for ``structure``, drawn from what its spec declares;
    built with ``cls`` when given (the same draws, so two engines of one spec get one hand)."""
    return draw_engine(cls or engine_class(structure), rng)


def check_pots(engine: Engine) -> None:
    """The pots add up to the pot; a seat still in is eligible exactly for the pots it staked in
    (a pot's level is the least any of its eligible seats staked: dead money is nobody's stake);
    folded seats for none."""
    pots = engine.pots()
    assert sum(p.amount for p in pots) == engine.pot
    paid = engine.stakes
    assert all(0 <= stake <= put for stake, put in zip(paid, engine.contributed, strict=True))
    previous: set[int] | None = None
    for pot in pots:
        assert pot.amount > 0 and pot.eligible
        level = min(paid[seat] for seat in pot.eligible)
        expected = {s for s in range(engine.seats) if not engine.folded[s] and paid[s] >= level}
        assert set(pot.eligible) == expected, (pot, paid, engine.folded)
        assert previous is None or set(pot.eligible) < previous  # side pots nest
        previous = set(pot.eligible)


def check_invariants(engine: Engine, chips: int) -> None:
    assert engine.total_chips() == chips
    assert min(engine.stacks) >= 0
    check_pots(engine)
    if engine.to_act is not None:
        legal = engine.legal_actions()
        assert legal == tuple(sorted(legal))
        if "bring_in" in legal:
            # A seat that owes the bring-in makes it or completes; the low card may not fold, a seat
            # the bring-in passed to (the low card all-in for the ante) may (ALL-IN-ANTE).
            assert set(legal) <= {"bring_in", "bet", "fold"}
            assert ("fold" in legal) == (engine.to_act != engine.table.inputs.get("bring_in_seat"))
        elif engine.options.get("double_open") and not {"check", "call"} & set(legal):
            assert set(legal) == {"fold", "raise"}  # nobody has opened: open or fold (DOUBLE-OPEN)
        else:
            assert "fold" in legal and ("check" in legal) != ("call" in legal)
        assert not ({"bet", "raise"} <= set(legal))
        if engine.min_to is not None:
            assert engine.max_to is not None and engine.min_to <= engine.max_to
            assert engine.max_to <= engine.committed[engine.to_act] + engine.stacks[engine.to_act]
        assert (engine.min_to is None) == (not {"bet", "raise"} & set(legal))
        assert engine.call_amount <= engine.stacks[engine.to_act]
    else:
        assert engine.legal_actions() == () and engine.min_to is None


def try_illegal(engine: Engine, rng: random.Random) -> None:
    """An action the engine does not call legal must be refused, leaving the state as it was."""
    seat = engine.to_act
    candidates = []
    if seat is not None:
        legal = set(engine.legal_actions())
        candidates += [(seat, a, None) for a in ("check", "call") if a not in legal]
        candidates += [(seat, a, 1) for a in ("bet", "raise") if a not in legal]
        candidates.append(((seat + 1) % engine.seats, "fold", None))
        if engine.max_to is not None:
            action = "bet" if "bet" in legal else "raise"
            candidates.append((seat, action, engine.max_to + 1))
            candidates.append((seat, action, -1))
    else:
        candidates.append((0, "check", None))
    who, action, to = rng.choice(candidates)
    before = snapshot(engine)
    with pytest.raises(IllegalAction) as info:
        engine.act(who, action, to)
    assert info.value.code and info.value.rule in engine.RULES
    assert snapshot(engine) == before


SAYINGS: list[object] = [None, None, None, "call", "check", "fold", "raise"]


def push_something(engine: Engine, rng: random.Random) -> bool:
    """Chips pushed (sometimes with words) by the seat to act: ruled and taken, or refused unchanged.

    Whatever the ruling, every chip is accounted for: returned + taken = pushed + completed."""
    seat = engine.to_act
    assert seat is not None
    stack = engine.stacks[seat]
    chips = [rng.choice([1, 5, 25, 100, 500, stack]) for _ in range(rng.randint(1, 3))]
    if sum(chips) > stack and rng.random() < 0.8:
        chips = [stack]
    say = rng.choice([*SAYINGS, {"act": rng.choice(["bet", "raise"]), "to": rng.randint(0, stack + 50)}])
    before, snap = engine.stacks[seat], snapshot(engine)
    try:
        ruling = engine.push(seat, chips, say)
    except IllegalAction as error:
        assert error.rule in engine.RULES and snapshot(engine) == snap
        return False
    taken = before - engine.stacks[seat]
    assert ruling.returned + taken == sum(chips) + ruling.completed, ruling
    assert ruling.rule in engine.RULES
    return ruling.action != "withdraw"


def declare_out_of_turn(engine: Engine, rng: random.Random) -> None:
    seat = rng.randrange(engine.seats)
    snap = snapshot(engine)
    try:
        engine.declare_out_of_turn(seat, rng.choice(["check", "call", "bet", "raise"]), rng.randint(0, 500))
    except IllegalAction:
        assert snapshot(engine) == snap


def play(engine: Engine, rng: random.Random) -> int:
    chips = engine.total_chips()
    steps = 0
    while not engine.hand_over:
        steps += 1
        assert steps < 400, "the hand does not end"
        check_invariants(engine, chips)
        if rng.random() < 0.3:
            try_illegal(engine, rng)
        if engine.to_act is None:
            with pytest.raises(IllegalAction):
                engine.deal("preflop")
            street = engine.next_street
            streets = engine.STREETS
            assert street is not None and (
                engine.street_name == "showdown" or street == streets[streets.index(engine.street_name) + 1]
            )
            engine.deal(street)
            continue
        seat = engine.to_act
        if rng.random() < 0.12 and push_something(engine, rng):
            continue
        if rng.random() < 0.04:
            declare_out_of_turn(engine, rng)
        legal = engine.legal_actions()
        weights = {"fold": 1, "check": 4, "call": 4, "bet": 2, "raise": 2, "bring_in": 4}
        action = rng.choices(legal, [weights[a] for a in legal])[0]
        everything = engine.committed[seat] + engine.stacks[seat]
        if action in ("bet", "raise"):
            assert engine.min_to is not None and engine.max_to is not None
            low, high = engine.min_to, engine.max_to
            unit = engine.options.get("bet_unit") or 1
            between = [t for t in range(low, high + 1, max(1, (high - low) // 7)) if t % unit == 0]  # type: ignore[operator]
            to = rng.choice([low, high, *between])
            if to == everything and rng.random() < 0.5:
                engine.all_in(seat)  # the same action, named as all-in
            else:
                engine.act(seat, action, to)
        elif action == "call" and engine.call_amount == engine.stacks[seat] and rng.random() < 0.5:
            engine.all_in(seat)
        else:
            engine.act(seat, action)
    check_invariants(engine, chips)
    return steps


@pytest.mark.parametrize("structure", STRUCTURES)
def test_random_hands_keep_every_invariant(structure: str) -> None:
    rng = random.Random(f"betspec-{structure}")
    for _ in range(300):
        play(random_engine(structure, rng), rng)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(structure=st.sampled_from(STRUCTURES), seed=st.integers(0, 2**32))
def test_property_random_hands(structure: str, seed: int) -> None:
    rng = random.Random(seed)
    play(random_engine(structure, rng), rng)


@pytest.mark.parametrize(
    "table, message",
    [
        (Table([100], 0, (1, 2)), "2 to 23 seats"),
        (Table([100, 100], 2, (1, 2)), "button 2 is not a seat"),
        (Table([100, -5], 0, (1, 2)), "stack of seat 1"),
        (Table([100, 100], 0, (5, 2)), "larger than the big blind"),
        (Table([100, 0], 0, (1, 2)), "no chips"),
        (Table([100, 100], 0, (1, 2), ante=True), "ante must be a whole number"),
        (Table([100, 100.5], 0, (1, 2)), "whole number"),
    ],
)
def test_bad_tables_are_refused_with_a_message(table: Table, message: str) -> None:
    with pytest.raises(InvalidTable) as info:
        engine_class("no_limit")(table)
    assert message in str(info.value) and info.value.code == "invalid_table"


def test_fixed_limit_needs_bets_and_options_are_checked() -> None:
    with pytest.raises(InvalidTable, match="needs the table's bets"):
        engine_class("fixed_limit")(Table([100, 100], 0, (1, 2)))
    with pytest.raises(InvalidTable, match="max_raises must be at least 0"):
        engine_class("fixed_limit")(Table([100, 100], 0, (1, 2), bets=(2, 4)), max_raises=-1)
    with pytest.raises(InvalidTable, match="bet_unit must be a whole number"):
        engine_class("no_limit")(Table([100, 100], 0, (1, 2)), bet_unit="5")
    with pytest.raises(InvalidTable, match="start street"):
        engine_class("no_limit")(Table([100, 100], 0, (1, 2)), start=Start("showdown", 5))
    with pytest.raises(InvalidTable, match="no_limit has no option 'max_raises'"):
        engine_class("no_limit")(Table([100, 100], 0, (1, 2)), max_raises=3)
    with pytest.raises(InvalidTable, match="no option 'bet_unt' \\(did you mean 'bet_unit'\\?\\)"):
        engine_class("no_limit")(Table([100, 100], 0, (1, 2)), bet_unt=5)
    with pytest.raises(InvalidTable, match="takes one table"):
        engine_class("no_limit")(Table([100, 100], 0, (1, 2)), None)  # type: ignore[call-arg]
    with pytest.raises(InvalidTable, match=r"no_limit has no table input .bets."):
        engine_class("no_limit")(Table([100, 100], 0, (1, 2), bets=(2, 4)))
    with pytest.raises(InvalidTable, match="big bet cannot be smaller than the small bet"):
        engine_class("fixed_limit")(Table([100, 100], 0, (1, 2), bets=(4, 2)))
    with pytest.raises(InvalidTable, match="small bet must be at least one chip"):
        engine_class("fixed_limit")(Table([100, 100], 0, (1, 2), bets=(0, 2)))
    with pytest.raises(InvalidTable, match=r"spread's minimum \(min_bet\) is above its maximum"):
        engine_class("spread_limit")(Table([100, 100], 0, (1, 2)), min_bet=20, max_bet=10)


def test_errors_carry_the_rule_and_its_source() -> None:
    engine = engine_class("pot_limit")(Table([1000, 1000, 1000], 0, (5, 10)), start=Start("flop", 100))
    with pytest.raises(IllegalAction) as info:
        engine.bet(1, 101)
    error = info.value
    assert error.code == "above_maximum" and error.rule == "SIZE-MAX-BET"
    assert "pot-limit rule" in error.source or "introduction" in error.source
    assert "seat 1 bet 101" in error.message and "Pot limit" in error.message


def test_unknown_action_and_missing_amount() -> None:
    engine = engine_class("no_limit")(Table([100, 100], 0, (1, 2)))
    with pytest.raises(IllegalAction) as info:
        engine.act(0, "limp")
    assert info.value.code == "illegal_action"
    with pytest.raises(IllegalAction) as info:
        engine.act(0, "raise")
    assert info.value.code == "bad_amount"
    with pytest.raises(IllegalAction) as info:
        engine.raise_to(0, True)  # type: ignore[arg-type]
    assert info.value.code == "bad_amount"


@st.composite
def hands(draw: st.DrawFn) -> Engine:
    """A drawn structure, table, start and options: anything its spec declares, as a hypothesis draw."""
    cls = engine_class(draw(st.sampled_from(STRUCTURES)))
    stacks, button, inputs, start, options = draw(engine_args(cls))
    try:
        return cls(Table.of(stacks, button, inputs), start=start, **options)
    except InvalidTable as error:
        # The spec's checks refuse some combinations (a straddle at a table too small for it,
        # a forced bet in full from a short stack): those are not hands.
        assert error.code == "invalid_table"
        assume(False)
        raise


@settings(max_examples=300, deadline=None)
@given(engine=hands(), seed=st.integers(0, 2**32))
def test_property_drawn_tables_and_options(engine: Engine, seed: int) -> None:
    steps = play(engine, random.Random(seed))
    assert steps < 400
