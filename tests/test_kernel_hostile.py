"""The kernels refuse exactly what the Python engines refuse, and never crash (issue 18).

Each kernel hand runs in lockstep with a Python engine on the same table while both are called
with hostile arguments: wrong types (floats, bools, Decimals, numpy integers where numpy is
installed, strings, None), integers far beyond 64 bits, negative and boundary values, missing and
extra arguments, no table at all. Every call must end alike on both (the same exception class,
the same code and message, or the same result), and a refused call must leave the hand as it was
(its snapshot, and with the kernel still playing it). Tables and options of those values go
through the kernel's class and through ``play_hands``; and a table whose inputs multiply beyond
64 bits is played as the Python engine plays it.
"""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import betspec.runtime.batch as batch
from betspec.runtime import (
    BetspecError,
    Engine,
    InvalidTable,
    Policy,
    Table,
    engine_class,
    engine_names,
    fast_engine,
    play_hands,
)
from betspec.runtime.table import MAX_CHIPS
from betspec.tools.simulate import BOT, random_table

SPECS = engine_names()
COMPILED = {name: batch.kernel(engine_class(name)) for name in SPECS}
needs_kernel = pytest.mark.skipif(
    not all(COMPILED.values()), reason="the kernels are not compiled here (no C compiler at install, or stale)"
)


def _numpy_ints() -> list[Any]:
    if importlib.util.find_spec("numpy") is None:
        return []
    import numpy  # type: ignore[import-not-found, unused-ignore]

    return [numpy.int64(5), numpy.int32(0), numpy.int64(10)]


#: Values no argument of the engine's API takes as a number (or takes as a number far out of range).
HOSTILE: list[Any] = [
    1.5,
    5.0,
    0.0,
    float("nan"),
    float("inf"),
    True,
    False,
    Decimal(5),
    Decimal("5.5"),
    "0",
    "fold",
    b"1",
    None,
    [],
    [5],
    (0,),
    {},
    object(),
    -1,
    -(10**30),
    10**30,
    10**5000,
    2**31,
    2**31 - 1,
    2**32,
    2**63,
    2**63 - 1,
    2**64,
    -(2**63),
    1 << 28,
    (1 << 28) + 1,
    *_numpy_ints(),
]


def ended(call: Callable[[], Any]) -> tuple[Any, ...]:
    """How a call ended: its result, or its exception's class, code and (for betspec's) message."""
    try:
        result = call()
    except BetspecError as error:
        return ("raised", type(error), error.code, str(error))
    except Exception as error:  # a foreign exception: its class is compared (never a crash)
        return ("raised", type(error), getattr(error, "code", None), None)
    return ("returned", result)


def _pair(name: str, table: Table, **options: Any) -> tuple[Any, Engine]:
    module = COMPILED[name]
    assert module is not None
    return module.KERNEL(table, **options), engine_class(name)(table, **options)


def _table(name: str, stacks: list[int] | None = None, button: int = 0) -> Table:
    return engine_class(name).example_table(stacks or [600, 1000, 1400], button)


def _calls(seat: Any, to: Any, street: Any) -> Iterator[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """Every method of the API called with ``seat``, ``to`` and ``street``, and with an argument
    too few or too many."""
    for method in ("fold", "check", "call", "all_in", "bring_in"):
        yield method, (seat,), {}
        yield method, (seat, to), {}
        yield method, (), {}
    for method in ("bet", "raise_to"):
        yield method, (seat, to), {}
        yield method, (seat,), {}
        yield method, (seat, to, to), {}
        yield method, (), {"to": to}
    for action in ("fold", "check", "call", "bet", "raise", "all_in", "bring_in", to, seat):
        yield "act", (seat, action, to), {}
        yield "act", (seat, action), {}
    yield "act", (seat,), {}
    yield "act", (), {"action": "fold"}
    yield "act", (seat, "fold", None, to), {}
    yield "deal", (street,), {}
    yield "deal", (), {}
    yield "deal", (street, to), {}
    yield "push", (seat, [to]), {}
    yield "push", (seat, to), {}
    yield "declare", (seat, to), {}
    yield "declare", (seat, "call", to), {}
    yield "settle", (seat,), {}
    yield "settle", (), {"odd_chip_seat": to}
    yield "declare_out_of_turn", (seat, "bet", to), {}


def _lockstep(hand: Any, engine: Engine, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """One call on both: ended alike; a refusal changed nothing and left the kernel playing."""
    python, before = hand.python, hand.snapshot()
    mine = ended(lambda: getattr(hand, method)(*args, **kwargs))
    theirs = ended(lambda: getattr(engine, method)(*args, **kwargs))
    assert mine == theirs, (method, args, kwargs)
    if mine[0] == "raised":
        assert hand.snapshot() == before, (method, args, kwargs)
        assert hand.python == python, (method, args, kwargs)  # a refusal hands nothing over
    assert hand.snapshot() == engine.snapshot(), (method, args, kwargs)


def _legal_step(engine: Engine, rng: random.Random) -> tuple[str, tuple[Any, ...]]:
    if engine.to_act is None:
        return "deal", (engine.next_street,)
    action = rng.choice(engine.legal_actions())
    if action in ("bet", "raise"):
        low, high = engine.min_to, engine.max_to
        assert low is not None and high is not None
        return "act", (engine.to_act, action, rng.choice([low, high]))
    return "act", (engine.to_act, action, None)


@needs_kernel
@pytest.mark.parametrize("name", SPECS)
def test_no_table_is_refused_as_the_engine_refuses_it_and_never_crashes(name: str) -> None:
    kind, cls = fast_engine(name), engine_class(name)
    assert kind is COMPILED[name].KERNEL  # type: ignore[union-attr]
    table = _table(name)
    for args in ((), (table, table), (None,), ({"stacks": [100, 100]},)):
        assert ended(lambda args=args: kind(*args)) == ended(lambda args=args: cls(*args))
        assert ended(lambda args=args: kind(*args))[1] is InvalidTable
    # A kernel made without __init__ (as a batch makes one) answers nothing, and says why.
    bare = kind.__new__(kind)
    for ask in (
        lambda: bare.legal_actions(),
        lambda: bare.fold(0),
        lambda: bare.act(0, "call"),
        lambda: bare.bet(0, 20),
        lambda: bare.all_in(0),
        lambda: bare.deal("flop"),
        lambda: bare.snapshot(),
        lambda: bare.to_act,
        lambda: bare.min_to,
        lambda: bare.call_amount,
        lambda: bare.stacks,
        lambda: bare.phase,
        lambda: bare.total_chips(),
        lambda: bare.push(0, [5]),
        lambda: bare.settle(),
    ):
        assert ended(ask)[1] is InvalidTable


@needs_kernel
@pytest.mark.parametrize("name", SPECS)
def test_hostile_arguments_end_alike_on_kernel_and_engine_at_every_step(name: str) -> None:
    rng = random.Random(f"hostile-{name}")
    hand, engine = _pair(name, _table(name))
    assert not hand.python
    steps = 0
    while not engine.hand_over and steps < 12:
        actor = engine.to_act
        seat = actor if actor is not None else 0
        street = engine.next_street or engine.STREETS[-1]
        values = [*rng.sample(HOSTILE, 6), engine.min_to, engine.max_to, engine.call_amount]
        for value in values:
            for method, args, kwargs in _calls(rng.choice([seat, value]), value, rng.choice([street, value])):
                if method in ("settle",) and rng.random() < 0.5:
                    continue
                _lockstep(hand, engine, method, args, kwargs)
                if hand.python:  # a hostile call that was legal after all (both took it)
                    break
        if hand.python:
            hand, engine = _pair(name, _table(name, button=steps % 3))
            steps += 1
            continue
        method, args = _legal_step(engine, rng)
        _lockstep(hand, engine, method, args, {})
        steps += 1
    assert steps > 0


@st.composite
def _hostile_call(draw: st.DrawFn) -> tuple[str, tuple[Any, ...], dict[str, Any]]:
    value = st.sampled_from(HOSTILE) | st.integers(-(2**70), 2**70) | st.integers(-5, 60)
    seat, to, street = draw(value), draw(value), draw(value | st.sampled_from(["preflop", "flop", "turn", "river"]))
    calls = list(_calls(seat, to, street))
    return calls[draw(st.integers(0, len(calls) - 1))]


@needs_kernel
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls=st.lists(_hostile_call(), min_size=1, max_size=8), legal=st.lists(st.booleans(), min_size=8, max_size=8))
def test_drawn_hostile_calls_between_legal_steps_end_alike(
    name: str, calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]], legal: list[bool]
) -> None:
    rng = random.Random(len(calls))
    hand, engine = _pair(name, _table(name, [300, 900, 1500, 2000]))
    for call, step in zip(calls, legal, strict=False):
        _lockstep(hand, engine, *call)
        if step and not engine.hand_over:
            _lockstep(hand, engine, *_legal_step(engine, rng), {})


@needs_kernel
@pytest.mark.parametrize("name", SPECS)
def test_a_refused_push_declaration_or_settle_leaves_the_hand_to_the_kernel(name: str) -> None:
    hand, engine = _pair(name, _table(name))
    actor = engine.to_act
    assert actor is not None and not hand.python
    other = (actor + 1) % engine.seats
    for method, args in (
        ("push", (other, [5])),
        ("push", (actor, [])),
        ("push", (actor, [10**30])),
        ("push", (actor, [1.5])),
        ("declare", (other, "call")),
        ("declare", (actor, "shove")),
        ("settle", ([0],)),
        ("settle", ()),
        ("declare_out_of_turn", (actor, "bet", 10)),
    ):
        _lockstep(hand, engine, method, args, {})
        assert not hand.python, (method, args)
    # A read leaves it too; an action taken in C after those is the kernel's.
    assert hand.pots() == engine.pots() and not hand.python
    _lockstep(hand, engine, *_legal_step(engine, random.Random(1)), {})
    assert not hand.python
    # A call the engine takes (and logs) hands the hand over for good.
    if engine.to_act is not None and engine.call_amount > 0:
        _lockstep(hand, engine, "push", (engine.to_act, [engine.call_amount]), {})
        assert hand.python


def _variants(value: Any) -> list[Any]:
    """``value`` (a number, or numbers in a tuple or list) as each type the engine refuses for it."""
    if type(value) is int:
        found = [float(value), Decimal(value), str(value), *(_numpy_ints()[:1] if value == 5 else [])]
        return [*found, bool(value)] if value in (0, 1) else found
    if type(value) in (tuple, list) and value and all(type(v) is int for v in value):
        return [type(value)(kind(v) for v in value) for kind in (float, Decimal)] + [value[:-1]]
    return []


def _hostile_tables(name: str) -> Iterator[tuple[Table, dict[str, Any]]]:
    """A good table (and no options), then the same with one input or option of another type
    equal to it (5.0 for 5), or beyond 64 bits."""
    cls = engine_class(name)
    good = _table(name)
    yield good, {}
    inputs = dict(good.inputs)
    for key, declared in cls.INPUTS.items():
        value = inputs.get(key, declared.example if declared.example is not None else declared.default)
        for other in (*_variants(value), 10**30, -(10**30), MAX_CHIPS, MAX_CHIPS + 1, True):
            yield Table(good.stacks, good.button, **{**inputs, key: other}), {}
    for key, default in cls.OPTION_DEFAULTS.items():
        for other in (*_variants(default), 10**30, None, "x", 1.0, True, False):
            yield good, {key: other}


def _ok_or_error(outcome: tuple[Any, ...]) -> tuple[Any, ...]:
    return outcome if outcome[0] == "raised" else ("returned",)


@needs_kernel
@pytest.mark.parametrize("name", SPECS)
def test_a_table_or_option_of_the_wrong_type_is_refused_after_a_good_one_as_the_engine_refuses_it(name: str) -> None:
    cls, kind = engine_class(name), COMPILED[name].KERNEL  # type: ignore[union-attr]
    good = _table(name)
    for table, options in _hostile_tables(name):
        kind(good)  # the cached inputs are the good table's: a table equal to them is not them
        mine = ended(lambda table=table, options=options: kind(table, **options))
        theirs = ended(lambda table=table, options=options: cls(table, **options))
        assert _ok_or_error(mine) == _ok_or_error(theirs), (table, options)
        if mine[0] == "returned":
            hand, engine = mine[1], theirs[1]
            assert hand.snapshot() == engine.snapshot(), (table, options)
            assert (hand.legal_actions(), hand.min_to, hand.max_to) == (
                engine.legal_actions(),
                engine.min_to,
                engine.max_to,
            )


def _played(cls: type[Engine], tables: list[Table], options: dict[str, Any]) -> tuple[Any, ...]:
    def play() -> tuple[Any, ...]:
        done = play_hands(cls, tables, BOT, random.Random(3), options=options, keep_stacks=True)
        return (done.hands, done.actions, done.chips, done.stacks)

    return ended(play)


@needs_kernel
@pytest.mark.parametrize("name", SPECS)
def test_play_hands_refuses_hostile_tables_and_options_as_the_python_engine(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cls = engine_class(name)
    good = _table(name)
    cases = list(_hostile_tables(name))
    fast = [_played(cls, [good, good, table], options) for table, options in cases]
    fast_callback = [
        ended(lambda table=table, options=options: play_hands(cls, [good, table], _passive, options=options).hands)
        for table, options in cases
    ]
    monkeypatch.setattr(batch, "kernel", lambda _cls: None)
    slow = [_played(cls, [good, good, table], options) for table, options in cases]
    slow_callback = [
        ended(lambda table=table, options=options: play_hands(cls, [good, table], _passive, options=options).hands)
        for table, options in cases
    ]
    for case, mine, theirs in zip(cases, fast, slow, strict=True):
        assert mine == theirs, case
    assert fast_callback == slow_callback
    assert any(outcome[0] == "raised" for outcome in fast) and any(outcome[0] == "returned" for outcome in fast)


def _passive(engine: Engine) -> tuple[str, int | None]:
    legal = engine.legal_actions()
    return next(a for a in ("check", "call", "bring_in", "fold") if a in legal), None


CAP = "cap_no_limit"


@needs_kernel
@pytest.mark.skipif(CAP not in SPECS, reason="no capped structure here")
def test_inputs_whose_product_leaves_64_bits_are_played_as_the_python_engine_plays_them() -> None:
    table = Table([10**7] * 3, 0, blinds=(5 * 10**5, 10**6), cap=10**13)
    hand, engine = _pair(CAP, table)
    assert hand.snapshot() == engine.snapshot()
    rng = random.Random(5)
    while not engine.hand_over:
        assert (hand.to_act, hand.legal_actions(), hand.min_to, hand.max_to, hand.call_amount) == (
            engine.to_act,
            engine.legal_actions(),
            engine.min_to,
            engine.max_to,
            engine.call_amount,
        )
        _lockstep(hand, engine, *_legal_step(engine, rng), {})
    assert hand.stacks == engine.stacks
    # The same in a batch, a policy given as data and a callback alike.
    cls = engine_class(CAP)
    rng = random.Random(9)
    tables = [table, Table([10**7] * 4, 1, blinds=(5, 10), cap=2**40), *(random_table(CAP, rng) for _ in range(20))]
    fast = play_hands(cls, tables, BOT, random.Random(1), keep_stacks=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(batch, "kernel", lambda _cls: None)
        slow = play_hands(cls, tables, BOT, random.Random(1), keep_stacks=True)
    assert (fast.hands, fast.actions, fast.stacks) == (slow.hands, slow.actions, slow.stacks)


BOUNDARY = [0, 1, 2, 2**28 - 1, 2**28, 2**30, 2**31 - 1, 2**31, 2**32, 2**40, 2**53 + 1, MAX_CHIPS - 1, MAX_CHIPS]


@needs_kernel
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_boundary_inputs_are_played_alike_or_refused_alike(name: str, data: st.DataObject) -> None:
    cls = engine_class(name)
    good = _table(name, [data.draw(st.sampled_from([1, 2, 10, 2**27, 2**28 - 3, 2**28, 2**40])) for _ in range(3)])
    inputs = dict(good.inputs)
    for key, declared in cls.INPUTS.items():
        if declared.type == "int" and data.draw(st.booleans()):
            number = st.sampled_from(BOUNDARY)
            value = inputs.get(key, declared.default)
            if type(value) in (tuple, list):
                inputs[key] = tuple(sorted(data.draw(st.lists(number, min_size=len(value), max_size=len(value)))))
            else:
                inputs[key] = data.draw(number)
    table = Table(good.stacks, good.button, **inputs)
    mine = ended(lambda: COMPILED[name].KERNEL(table))  # type: ignore[union-attr]
    theirs = ended(lambda: cls(table))
    assert _ok_or_error(mine) == _ok_or_error(theirs)
    if mine[0] == "raised":
        return
    hand, engine = mine[1], theirs[1]
    rng = random.Random(data.draw(st.integers(0, 99)))
    for _ in range(30):
        if engine.hand_over:
            break
        assert (hand.to_act, hand.legal_actions(), hand.min_to, hand.max_to) == (
            engine.to_act,
            engine.legal_actions(),
            engine.min_to,
            engine.max_to,
        )
        _lockstep(hand, engine, *_legal_step(engine, rng), {})


@needs_kernel
def test_the_kernels_input_bound_is_the_generators() -> None:
    from betspec.backends.cython import HAND_CHIPS
    from betspec.runtime import kernel as runtime  # type: ignore[attr-defined]

    assert runtime.SEAT_CHIPS_MAX == HAND_CHIPS


def test_a_policy_given_as_data_plays_hostile_tables_through_the_same_fallback() -> None:
    if not all(COMPILED.values()):
        pytest.skip("the kernels are not compiled here")
    cls = engine_class("no_limit")
    tables = [Table([100, 100], 0, blinds=(5.0, 10.0)), Table([100, 100], 0, blinds=(5, 10))]
    for order in (tables, tables[::-1]):
        with pytest.raises(InvalidTable, match="blinds"):
            play_hands(cls, order, Policy({"call": 1.0, "check": 1.0}))
