"""The kernels (generated/kernels/<spec>.pyx, compiled by ``betspec build``) against the Python engines.

Every spec's kernel plays random hands, its options and inputs drawn from their declarations, and
each hand is replayed step by step through the Python engine: the same seat to act, the same
legal actions, amount to call and bounds at every decision, the same deals, and at the end the
same chips, commitments, folds and state, field by field. A batch played by the kernel and one
played by the Python engine from the same seed are the same hands; a hand the kernel cannot
take is played by the Python engine, its error included.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import betspec.runtime.batch as batch
from betspec.runtime import (
    BetspecError,
    Engine,
    IllegalAction,
    InvalidTable,
    Policy,
    Table,
    engine_class,
    engine_names,
    play_drawn,
    play_hands,
)
from betspec.tools.simulate import BOT, TABLES, random_table
from betspec.vocabulary import DEAD_PHASES
from tests.strategies import engine_args
from tests.test_engine import random_engine
from tests.test_paths_equal import answers, random_step

SPECS = engine_names()
COMPILED = {name: batch.kernel(engine_class(name)) for name in SPECS}
needs_kernel = pytest.mark.skipif(
    not all(COMPILED.values()), reason="the kernels are not compiled here (betspec build: Cython and a C compiler)"
)


def _batch(module: Any, cls: type[Engine], options: dict[str, Any], policy: Policy, **data: Any) -> Any:
    from betspec.runtime import kernel as runtime  # type: ignore[attr-defined]

    weights = [policy.weights.get(a, 0.0) for a in module.ACTIONS]
    rules = runtime.Policy(weights, policy.fold_when_free, data.get("all_in", policy.all_in), data.get("room_share", 4))
    return runtime.Batch(module.KERNEL.__new__(module.KERNEL), cls, options, rules)


def _replay(cls: type[Engine], module: Any, table: Table, options: dict[str, Any], trace: list[Any]) -> Engine:
    """The Python engine taken through the kernel's steps, each checked as it goes."""
    engine = cls(table, **options)
    for index, (seat, action, to, view) in enumerate(trace):
        where = f"step {index} of {trace}"
        if seat < 0:
            assert engine.to_act is None and engine.next_street == cls.STREETS[action], where
            engine.deal(cls.STREETS[action])
            continue
        legal, call, low, high = view
        names = tuple(name for bit, name in enumerate(module.ACTIONS) if legal >> bit & 1)
        assert engine.to_act == seat, where
        assert engine.legal_actions() == names, where
        assert engine.call_amount == call, where
        assert (engine.min_to, engine.max_to) == (None if low < 0 else low, None if high < 0 else high), where
        engine.act(seat, module.ACTIONS[action], to)
    assert engine.hand_over or (engine.to_act is None and engine.next_street is None)
    return engine


def _same_hand(engine: Engine, kernel: Any, module: Any) -> None:
    fields = kernel.fields()
    state = module.STATES[fields.pop("state")]
    assert engine.state.value == state
    for name, value in fields.items():
        theirs = getattr(engine, name)
        assert (list(theirs) if isinstance(theirs, list | tuple) else theirs) == value, name


@needs_kernel
@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_kernel_plays_the_python_engines_hands_step_by_step(name: str, data: st.DataObject) -> None:
    cls, module = engine_class(name), COMPILED[name]
    stacks, button, inputs, _start, options = data.draw(engine_args(cls))
    table = Table(stacks, button, **inputs)
    try:
        cls(table, **options)
    except InvalidTable:
        return  # a table the spec refuses: the batch's fallback test covers it
    weights = data.draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 3.0]), min_size=6, max_size=6))
    policy = Policy(dict(zip(("fold", "check", "call", "bet", "raise", "bring_in"), weights, strict=True)))
    # A share of the room that is a power of two is a shift in C, any other a division.
    room_share = data.draw(st.sampled_from([1, 2, 3, 4, 7, 8]))
    fast = _batch(module, cls, options, policy, all_in=0.1, room_share=room_share)
    kernel = fast.kernel
    trace: list[Any] = []
    draws = batch._kernel_draws(data.draw(st.integers(0, 2**64 - 1)))
    try:
        fast.play_hand(table, draws, trace)
    except Exception as error:  # the policy may weigh no legal action: the Python engine says so
        assert "no weight" in str(error)
        return
    engine = _replay(cls, module, table, options, trace)
    _same_hand(engine, kernel, module)


@needs_kernel
@pytest.mark.parametrize("name", SPECS)
@pytest.mark.parametrize("room_share", [BOT.room_share, 3])  # a shift in C, and a division
def test_a_batch_is_the_same_hands_whichever_engine_plays_it(
    name: str, room_share: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    cls = engine_class(name)
    rng = random.Random(name)
    tables = [random_table(name, rng) for _ in range(300)]
    policy = dataclasses.replace(BOT, room_share=room_share)
    fast = play_hands(cls, tables, policy, random.Random(1), keep_stacks=True)
    monkeypatch.setattr(batch, "kernel", lambda _cls: None)
    slow = play_hands(cls, tables, policy, random.Random(1), keep_stacks=True)
    assert (fast.hands, fast.actions, fast.chips, fast.stacks) == (slow.hands, slow.actions, slow.chips, slow.stacks)
    assert fast.actions > fast.hands


@needs_kernel
def test_every_kernel_hand_of_a_batch_is_played_in_c() -> None:
    cls = engine_class("no_limit")
    module = COMPILED["no_limit"]
    rng = random.Random(2)
    fast = _batch(module, cls, {}, BOT)
    draws = batch._kernel_draws(7)
    for _ in range(500):
        assert fast.play_hand(random_table("no_limit", rng), draws) > 0  # raises if it could not


@needs_kernel
def test_a_table_the_engine_refuses_is_refused_as_the_engine_refuses_it() -> None:
    cls = engine_class("no_limit")
    tables = [random_table("no_limit", random.Random(1)), Table([100, 0, 50], 0, blinds=(5, 10))]
    with pytest.raises(InvalidTable, match="no chips"):
        play_hands(cls, tables, BOT)
    with pytest.raises(InvalidTable, match="blinds"):
        play_hands(cls, [Table([100, 100], 0, blinds=(5, -10))], BOT)


@needs_kernel
def test_a_policy_refusal_is_the_python_engines() -> None:
    table = random_table("no_limit", random.Random(1))
    with pytest.raises(BetspecError, match="no weight to any legal action"):
        play_hands(engine_class("no_limit"), [table], Policy({"bet": 1.0}))


@needs_kernel
@pytest.mark.parametrize("name", SPECS)
def test_the_tables_drawn_in_c_are_the_tables_drawn_in_python(name: str) -> None:
    """Batch.play_drawn draws each table in C: the seats, stacks and button TableDraw draws
    from the same seed, the inputs the spec's example (read back from each hand as played:
    its stacks before the hand, its button and inputs), the draws left where Python leaves them."""
    cls, module = engine_class(name), COMPILED[name]
    fast = _batch(module, cls, {}, BOT)
    mine, theirs = batch.Draws(99), batch._kernel_draws(99)
    decisions = batch._kernel_draws(5)
    shape = (*TABLES.seats, *TABLES.stacks, TABLES.stack_unit)
    seen = set()
    for _ in range(150):
        table = TABLES.draw(cls, mine)
        done, _, chips = fast.play_drawn(1, shape, theirs, decisions, cls.example_table)
        assert (done, chips, theirs.seed) == (1, sum(table.stacks), mine.seed)
        hand = fast.kernel
        drawn = tuple(left + put for left, put in zip(hand.stacks, hand.contributed, strict=True))
        assert (drawn, hand.button) == (tuple(table.stacks), table.button)
        assert hand.snapshot()["table"] == cls(table).snapshot()["table"]  # the inputs too
        seen.add(len(table.stacks))
    assert seen == set(range(TABLES.seats[0], TABLES.seats[1] + 1))


@needs_kernel
@pytest.mark.parametrize("name", SPECS)
def test_hands_on_tables_drawn_in_c_are_the_python_engines(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """play_drawn: tables and hands in C, the same hands (actions, chips, every final stack) as
    the Python engine plays from the same seed, drawing the same tables in Python."""
    cls = engine_class(name)
    fast = play_drawn(cls, 400, BOT, 2026, keep_stacks=True)
    monkeypatch.setattr(batch, "kernel", lambda _cls: None)
    slow = play_drawn(cls, 400, BOT, 2026, keep_stacks=True)
    assert (fast.hands, fast.actions, fast.chips, fast.stacks) == (slow.hands, slow.actions, slow.chips, slow.stacks)
    assert fast.hands == 400 and fast.actions > fast.hands


@needs_kernel
def test_a_drawn_table_the_kernel_does_not_take_stops_the_batch_before_it() -> None:
    """A table the kernel cannot take (here the example table of 3 seats, a Table subclass)
    stops play_drawn before it, both draws as they stood, for the caller to play in Python."""
    cls, module = engine_class("no_limit"), COMPILED["no_limit"]

    class Other(Table):
        pass

    def make(stacks: list[int], button: int) -> Table:
        made = cls.example_table(stacks, button)
        return Other(made.stacks, made.button, **made.inputs) if len(stacks) == 3 else made

    fast = _batch(module, cls, {}, BOT)
    tables, decisions, mine = batch._kernel_draws(3), batch._kernel_draws(4), batch.Draws(3)
    shape = (*TABLES.seats, *TABLES.stacks, TABLES.stack_unit)
    drawn = []
    while len(drawn) < 50 or len(drawn[-1].stacks) != 3:
        drawn.append(TABLES.draw(cls, mine))
    done, actions, chips = fast.play_drawn(len(drawn), shape, tables, decisions, make)
    first = next(index for index, table in enumerate(drawn) if len(table.stacks) == 3)
    assert done == first and chips == sum(sum(table.stacks) for table in drawn[:first])
    assert TABLES.draw(cls, tables) == drawn[first]  # the draws stood before the table refused
    assert actions > done


@needs_kernel
def test_play_drawn_plays_in_python_the_tables_the_kernel_does_not_take(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables the kernel does not take (here every table of 3 seats, made a Table subclass) are
    drawn again and played by the Python engine in the middle of the batch, from the same
    draws: the same hands as with no kernel at all."""
    cls = engine_class("no_limit")
    example = cls.example_table

    class Other(Table):
        pass

    def make(stacks: list[int], button: int = 0) -> Table:
        made = example(stacks, button)
        return Other(made.stacks, made.button, **made.inputs) if len(stacks) == 3 else made

    monkeypatch.setattr(cls, "example_table", make)
    fast = play_drawn(cls, 300, BOT, 11, keep_stacks=True)
    monkeypatch.setattr(batch, "kernel", lambda _cls: None)
    slow = play_drawn(cls, 300, BOT, 11, keep_stacks=True)
    assert (fast.hands, fast.actions, fast.chips, fast.stacks) == (slow.hands, slow.actions, slow.chips, slow.stacks)
    assert sum(len(stacks) == 3 for stacks in fast.stacks) > 10


def test_the_draws_in_python_are_the_draws_in_c() -> None:
    mine = batch.Draws(12345)
    numbers = [mine.random() for _ in range(5)] + [mine.randrange(7) for _ in range(5)]
    assert all(0 <= x < 1 for x in numbers[:5]) and all(0 <= x < 7 for x in numbers[5:])
    if COMPILED["no_limit"] is None:
        pytest.skip("no compiled kernel runtime here")
    theirs = batch._kernel_draws(12345)
    assert numbers == [theirs.random() for _ in range(5)] + [theirs.randrange(7) for _ in range(5)]
    assert theirs.seed == mine.seed


def _tried(engine: Any, step: tuple[str, int, int | None]) -> str | None:
    """A step as both engines take it: None, or the refusal's code, rule and message."""
    kind, seat, to = step
    try:
        if kind == "deal":
            engine.deal((engine.next_street or engine.STREETS[0]) if seat == 0 else engine.STREETS[-1])
        elif kind == "all_in":
            engine.all_in(seat)
        else:
            engine.act(seat, kind, to)
    except IllegalAction as error:
        return f"{error.code} {error.rule} {error.message}"
    return None


def _next_table(engine: Any) -> object:
    """The next hand's table, or why there is none (the session over)."""
    try:
        return engine.next_table()
    except InvalidTable as error:
        return str(error)


@needs_kernel
@pytest.mark.parametrize("name", SPECS)
def test_a_hand_played_action_by_action_answers_as_the_python_engine(name: str) -> None:
    module = COMPILED[name]
    rng = random.Random(f"kernel-{name}")
    compared = in_c = 0
    while compared < 1500:
        engine = random_engine(name, random.Random(rng.random()))
        hand = module.KERNEL(engine.table, start=engine.start, **engine.options)
        assert hand.python == (engine.start is not None)  # a hand from a later street is Python's
        for _ in range(200):
            if engine.hand_over:
                break
            step = random_step(engine, rng)
            assert _tried(hand, step) == _tried(engine, step), step
            assert answers(hand) == answers(engine), step
            compared += 1
        assert hand.snapshot() == engine.snapshot()
        in_c += not hand.python
        if engine.hand_over and engine.to_act is None:
            # A dead hand is paid to nobody: settled without a ranking.
            winners = None if engine.phase in DEAD_PHASES else [s for s in range(engine.seats) if not engine.folded[s]]
            assert hand.settle(winners) == engine.settle(winners) and hand.stacks == engine.stacks
            assert _next_table(hand) == _next_table(engine)
            assert hand.python  # the pots are paid by the Python engine
    assert in_c > 0


@needs_kernel
def test_a_refused_action_changes_nothing_and_names_the_rule() -> None:
    cls, module = engine_class("no_limit"), COMPILED["no_limit"]
    table = Table([1000, 1000, 1000], 0, blinds=(5, 10))
    hand, engine = module.KERNEL(table), cls(table)
    before = hand.snapshot()
    refused = ((2, "raise", 30), (0, "raise", 15), (0, "check", None), (0, "bet", 100), (1.0, "call", None))
    for bad in (*refused, (0, "call", True), (0, "raise", 10**16), (0, "shove", None)):
        with pytest.raises(IllegalAction) as mine:
            hand.act(*bad)
        with pytest.raises(IllegalAction) as theirs:
            engine.act(*bad)
        assert (mine.value.code, str(mine.value)) == (theirs.value.code, str(theirs.value))
    assert hand.snapshot() == before and not hand.python
    hand.act(0, "raise", 30)
    assert hand.to_act == 1 and hand.min_to == 50 and not hand.python


@needs_kernel
def test_inputs_given_as_lists_and_changed_later_change_nothing_already_loaded() -> None:
    cls, module = engine_class("no_limit"), COMPILED["no_limit"]
    antes = [1, 2, 3]
    first = module.KERNEL(Table([100, 100, 100], 0, blinds=(5, 10), seat_antes=antes))
    antes[:] = [7, 7, 7]
    second = module.KERNEL(Table([100, 100, 100], 0, blinds=(5, 10), seat_antes=antes))
    assert first.pot == 15 + 6 and second.pot == 15 + 21
    assert first.snapshot() == cls(Table([100, 100, 100], 0, blinds=(5, 10), seat_antes=[1, 2, 3])).snapshot()


@needs_kernel
@pytest.mark.parametrize(
    ("args", "options", "says"),
    [
        (({"stacks": [100, 100]},), {}, "Table"),
        ((Table([100, 0], 0, blinds=(5, 10)),), {}, "no chips"),
        ((Table([100, 100], 0, blinds=(5, 10)),), {"bet_unitt": 2}, "did you mean 'bet_unit'"),
        ((Table([100, 100], 5, blinds=(5, 10)),), {}, "button 5"),
    ],
)
def test_a_kernel_refuses_what_the_engine_refuses(args: tuple[Any, ...], options: dict[str, Any], says: str) -> None:
    module = COMPILED["no_limit"]
    with pytest.raises(InvalidTable, match=says):
        module.KERNEL(*args, **options)
    with pytest.raises(InvalidTable, match=says):
        engine_class("no_limit")(*args, **options)


@needs_kernel
@pytest.mark.parametrize("name", ["no_limit", "seven_card_stud"])
def test_a_callback_and_rank_play_kernel_hands_to_the_same_end(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cls = engine_class(name)
    seen: list[str] = []

    def decide(engine: Engine) -> tuple[str, int | None]:
        seen.append(type(engine).__name__)
        legal = engine.legal_actions()
        if "raise" in legal and engine.to_act == 0:
            return "raise", engine.min_to
        passive = next(a for a in ("check", "call", "bring_in", "fold") if a in legal)
        return passive, None

    def rank(engine: Engine) -> list[int]:
        return sorted(range(engine.seats), key=lambda seat: (seat * 7) % engine.seats)

    rng = random.Random(name)
    tables = [random_table(name, rng) for _ in range(60)]
    fast = play_hands(cls, tables, decide, rank=rank, keep_stacks=True)
    assert set(seen) == {COMPILED[name].KERNEL.__name__}  # the callback is shown kernel hands
    monkeypatch.setattr(batch, "kernel", lambda _cls: None)
    slow = play_hands(cls, tables, decide, rank=rank, keep_stacks=True)
    assert (fast.hands, fast.actions, fast.stacks) == (slow.hands, slow.actions, slow.stacks)
    assert any(stacks != tuple(table.stacks) for stacks, table in zip(fast.stacks, tables, strict=True))


@needs_kernel
def test_a_kernel_class_makes_example_tables_as_its_engine_class() -> None:
    for name in SPECS:
        kind = COMPILED[name].KERNEL
        assert kind.example_table([100, 200, 300], 1) == engine_class(name).example_table([100, 200, 300], 1)
        assert name == kind.SPEC_NAME and kind.STREETS == engine_class(name).STREETS


def test_a_spec_with_more_states_than_a_kernel_mask_holds_gets_no_kernel() -> None:
    """A kernel keeps sets of states in one 64-bit mask: a spec with more states than that is
    played by its Python engine alone (no kernel file is written for it), the others get one."""
    from pathlib import Path

    from betspec.backends.cython import KERNEL_STATES, CythonBackend
    from betspec.frontend import load_spec

    root = Path(__file__).resolve().parent.parent
    spec, _ = load_spec(str(root / "spec" / "no_limit.json"))
    assert spec is not None and len(spec.states) <= KERNEL_STATES
    (state,) = list(spec.states.values())[:1]
    many = {**spec.states, **{f"extra_{i}": state for i in range(KERNEL_STATES)}}
    wide = dataclasses.replace(spec, name="wide", states=many)
    files = CythonBackend().render([spec, wide], str(root))
    assert "generated/kernels/no_limit.pyx" in files
    assert not any(path.endswith("/wide.pyx") for path in files)


#: Deep tables: stacks of hundreds of millions to billions of chips (a tournament's final table) and
#: around 2**40, blinds and bets scaled alike.
DEEP = (10**6, 2**30)


def _deep_table(name: str, rng: random.Random, scale: int) -> Table:
    """A random table of ``name`` with its stacks and its chip inputs scaled by ``scale`` (a
    count, as a cap in big blinds, or a seat, stays as it is)."""
    cls = engine_class(name)
    table = random_table(name, rng)
    inputs: dict[str, Any] = {}
    for key, value in table.inputs.items():
        declared = cls.INPUTS.get(key)
        chips = key != "cap" and (declared is None or declared.type == "int")
        if chips and type(value) is int:
            value = value * scale
        elif chips and type(value) in (tuple, list) and all(type(v) is int for v in value):
            value = tuple(v * scale for v in value)
        inputs[key] = value
    return Table([stack * scale for stack in table.stacks], table.button, **inputs)


@needs_kernel
@pytest.mark.parametrize("scale", DEEP)
@pytest.mark.parametrize("name", SPECS)
def test_deep_tables_are_played_in_c_as_the_python_engine_plays_them(name: str, scale: int) -> None:
    cls, module = engine_class(name), COMPILED[name]
    rng = random.Random(f"deep-{name}-{scale}")
    fast = _batch(module, cls, {}, BOT)
    draws = batch._kernel_draws(rng.getrandbits(64))
    for _ in range(40):
        table = _deep_table(name, rng, scale)
        assert sum(table.stacks) > 2**28
        trace: list[Any] = []
        fast.play_hand(table, draws, trace)  # raises where the kernel could not take the table
        engine = _replay(cls, module, table, {}, trace)
        _same_hand(engine, fast.kernel, module)


@needs_kernel
@pytest.mark.parametrize("name", SPECS)
def test_a_deep_hand_played_action_by_action_stays_in_c_and_answers_as_the_python_engine(name: str) -> None:
    module = COMPILED[name]
    rng = random.Random(f"deep-steps-{name}")
    compared = 0
    while compared < 400:
        table = _deep_table(name, rng, rng.choice(DEEP))
        hand, engine = module.KERNEL(table), engine_class(name)(table)
        assert not hand.python  # a deep table is the kernel's
        for _ in range(100):
            if engine.hand_over:
                break
            step = random_step(engine, rng)
            assert _tried(hand, step) == _tried(engine, step), step
            assert answers(hand) == answers(engine), step
            compared += 1
        assert not hand.python and hand.snapshot() == engine.snapshot()


@needs_kernel
@pytest.mark.parametrize("name", ["cap_no_limit", "cap_pot_limit"])
def test_a_product_of_inputs_beyond_64_bits_is_the_python_engines_and_one_within_is_the_kernels(name: str) -> None:
    module, cls = COMPILED[name], engine_class(name)
    stacks = [10**15, 3 * 10**14, 7 * 10**14]
    within = Table(stacks, 0, blinds=(2**31, 2**32), cap=20)  # above the bound each input has alone
    beyond = Table(stacks, 0, blinds=(2**39, 2**40), cap=2**40)  # the cap times the big blind: 2**80
    for table, handed in ((within, False), (beyond, True)):
        hand, engine = module.KERNEL(table), cls(table)
        assert hand.python == handed
        rng = random.Random(name)
        for _ in range(60):
            if engine.hand_over:
                break
            step = random_step(engine, rng)
            assert _tried(hand, step) == _tried(engine, step), step
            assert answers(hand) == answers(engine), step
        assert hand.snapshot() == engine.snapshot()


def _logged_hands(name: str, rng: random.Random, count: int) -> list[tuple[Table, list[Any]]]:
    """Hands of ``name`` as logs: played by the bot (every step recorded, deals as (-1, street,
    None)), on small and deep tables; some with a check or call logged as the pair
    ("check", "call") and a bet or raise as ("bet", "raise"), as a log that does not say which;
    some with a step changed into one the engine may refuse."""
    from betspec.runtime.batch import play_out

    cls = engine_class(name)
    hands = []
    for index in range(count):
        table = random_table(name, rng) if index % 3 else _deep_table(name, rng, rng.choice(DEEP))
        engine = cls(table)
        steps: list[Any] = []
        play_out(
            engine,
            lambda hand: BOT.decide(hand, rng),
            lambda seat, action, to, log=steps: log.append((seat, action, to)),
        )
        if index % 4 == 1:
            steps = [
                (seat, ("check", "call") if action in ("check", "call") else ("bet", "raise"), to)
                if seat >= 0 and action in ("check", "call", "bet", "raise")
                else (seat, action, to)
                for seat, action, to in steps
            ]
        betting = [at for at, step in enumerate(steps) if step[0] >= 0]
        if index % 2 and betting:
            at = rng.choice(betting)
            seat, action, to = steps[at]
            changed = rng.choice(
                [
                    (seat, "raise", (to or 0) + rng.choice([-1, 1, 10**6])),
                    ((seat + 1) % len(table.stacks), action, to),
                    (seat, "check", None),
                    (seat, "bet", 1),
                    (seat, "fold", 5),
                    (-1, cls.STREETS[-1], None),
                    (seat, "all_in", None),
                    (seat, "shove", None),
                    (1.0, action, to),
                ]
            )
            steps = [*steps[:at], changed, *steps[at:]]
        hands.append((table, steps))
    return hands


def _answers(found: list[Any]) -> list[Any]:
    return [None if r is None else (r.step, type(r.error), getattr(r.error, "code", None), str(r.error)) for r in found]


@needs_kernel
@pytest.mark.parametrize("name", SPECS)
def test_logged_hands_replayed_in_c_are_answered_as_the_python_engine_answers_them(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from betspec.runtime import kernel as runtime  # type: ignore[attr-defined]
    from betspec.runtime import replay_hands

    cls, module = engine_class(name), COMPILED[name]
    hands = _logged_hands(name, random.Random(f"logged-{name}"), 300)
    hands.append((Table([100, 0, 50], 0, **random_table(name, random.Random(1)).inputs), []))  # a table refused
    fast = _answers(replay_hands(cls, hands))
    in_c = runtime.replay_hands(module.KERNEL, cls, {}, hands)
    monkeypatch.setattr(batch, "kernel", lambda _cls: None)
    slow = _answers(replay_hands(cls, hands))
    assert fast == slow
    accepted = [answer is None for answer in slow]
    assert 50 < sum(accepted) < len(hands) - 50  # both kinds
    # Every hand the engine accepts, the kernel took in C, to its end.
    assert [taken < 0 for taken in in_c] == accepted
    assert slow[-1] is not None and slow[-1][0] == -1 and slow[-1][1] is InvalidTable


@needs_kernel
def test_a_logged_hand_ends_where_the_python_engine_ends_it() -> None:
    from betspec.runtime import kernel as runtime  # type: ignore[attr-defined]

    cls, module = engine_class("no_limit"), COMPILED["no_limit"]
    hands = [hand for hand in _logged_hands("no_limit", random.Random(3), 60)]
    ends: list[Any] = []
    taken = runtime.replay_hands(module.KERNEL, cls, {}, hands, ends)
    expected = []
    for (table, steps), answer in zip(hands, taken, strict=True):
        if answer >= 0:
            continue
        engine = cls(table)
        for seat, action, to in steps:
            if seat < 0:
                engine.deal(action)
            else:
                engine.act(
                    seat,
                    action if isinstance(action, str) else next(a for a in action if a in engine.legal_actions()),
                    to,
                )
        expected.append((engine.to_act, engine.street_name, engine.hand_over))
    assert ends == expected and len(ends) > 20


@needs_kernel
def test_steps_changed_while_packed_are_answered_by_the_python_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    # A name that is not a str runs its own code when compared: one that adds steps to the list
    # being packed leaves the batch to the Python engine, answered as it answers it without a kernel.
    from betspec.runtime import kernel as runtime  # type: ignore[attr-defined]
    from betspec.runtime import replay_hands

    cls, module = engine_class("no_limit"), COMPILED["no_limit"]

    def hostile() -> list[tuple[Table, list[Any]]]:
        steps: list[Any] = []

        class Growing:
            def __eq__(self, other: object) -> bool:
                if len(steps) < 50:
                    steps.append((1, "fold", None))
                return False

            def __hash__(self) -> int:
                return 1

        steps += [(0, "call", None), (1, (Growing(), Growing()), None), (2, "fold", None)]
        return [(cls.example_table([1000, 1000, 1000], 0), steps)]

    with pytest.raises(runtime.ChangedWhilePacked, match="changed while they were packed"):
        runtime.Logged(module.KERNEL, hostile())
    fast = _answers(replay_hands(cls, hostile()))
    monkeypatch.setattr(batch, "kernel", lambda _cls: None)
    slow = _answers(replay_hands(cls, hostile()))
    assert fast == slow and fast[0] is not None


@needs_kernel
def test_logged_names_are_packed_by_value_whatever_objects_hold_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # Logged knows the names it packed by identity: equal names held by other objects (made at
    # run time, a str subclass, pairs made anew, a street's name as an action and an action's as
    # a street, more objects than it keeps) are answered as the interned ones and as the Python
    # engine answers them.
    from betspec.runtime import kernel as runtime  # type: ignore[attr-defined]
    from betspec.runtime import replay_hands

    class Name(str):
        pass

    cls, module = engine_class("no_limit"), COMPILED["no_limit"]
    hands = _logged_hands("no_limit", random.Random("names"), 120)
    streets = [street for _, steps in hands for seat, street, _ in steps if seat < 0]
    remade: list[tuple[Table, list[Any]]] = []
    for index, (table, steps) in enumerate(hands):
        made = []
        for seat, action, to in steps:
            if isinstance(action, tuple):
                action = tuple("".join(list(name)) for name in action)
            elif isinstance(action, str):
                action = Name(action) if index % 7 == 3 else "".join(list(action))
            made.append((seat, action, to))
        if index % 11 == 5 and made:
            seat, action, to = made[-1]
            made[-1] = (-1, "call", None) if seat >= 0 else (0, streets[0], None)
        remade.append((Table(tuple(table.stacks), table.button, **table.inputs), made))
    interned = _answers(replay_hands(cls, hands))
    fast = _answers(replay_hands(cls, remade))
    in_c = runtime.replay_hands(module.KERNEL, cls, {}, remade)
    monkeypatch.setattr(batch, "kernel", lambda _cls: None)
    slow = _answers(replay_hands(cls, remade))
    assert fast == slow
    # A str subclass is no action's name to the engine (it refuses it as unknown); plain
    # strings made anew are the same names.
    plain = [i for i in range(len(hands)) if i % 11 != 5 and i % 7 != 3]
    assert [fast[i] for i in plain] == [interned[i] for i in plain]
    assert any(fast[i] != interned[i] for i in range(3, len(hands), 7))
    assert sum(taken < 0 for taken in in_c) > 40  # most taken in C, their names found by value


@needs_kernel
@pytest.mark.parametrize("name", ["no_limit", "fixed_limit"])
def test_given_tables_of_changing_inputs_are_played_as_the_python_engine_plays_them(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """play_hands on given tables: each table's inputs are its own, whether the tables before it
    had the same inputs or others, and inputs changed in place between two batches are read as
    they are then."""
    cls = engine_class(name)
    rng = random.Random(f"inputs-{name}")
    base = random_table(name, rng).inputs

    def scaled(value: Any, by: int) -> Any:
        return tuple(scaled(item, by) for item in value) if isinstance(value, tuple) else value * by

    # Other inputs, the same ones in another order (compared key by key), and the same again.
    kinds = [base, {key: scaled(value, 2) for key, value in base.items()}, dict(reversed(base.items())), dict(base)]
    tables = []
    for index in range(300):
        table = random_table(name, rng)
        stacks = table.stacks if index % 2 else tuple(table.stacks)
        tables.append(Table(stacks, table.button, **kinds[index // 7 % len(kinds)]))

    def both() -> tuple[Any, Any]:
        fast = play_hands(cls, tables, BOT, random.Random(7), keep_stacks=True)
        with monkeypatch.context() as patch:
            patch.setattr(batch, "kernel", lambda _cls: None)
            slow = play_hands(cls, tables, BOT, random.Random(7), keep_stacks=True)
        return fast, slow

    for _ in range(2):
        fast, slow = both()
        assert (fast.hands, fast.actions, fast.chips, fast.stacks) == (
            slow.hands,
            slow.actions,
            slow.chips,
            slow.stacks,
        )
        assert fast.hands == 300
        for table in tables[::5]:  # the same dicts, other inputs, in the next batch
            table.inputs.clear()
            table.inputs.update(kinds[-1])


@needs_kernel
def test_the_chips_checked_of_a_batch_of_the_largest_tables_leave_64_bits_exact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """600 hands of the largest tables the engine takes (23 seats of MAX_CHIPS): the chips
    checked in all pass 2^63, and the kernel's totals are the Python engine's (they were summed
    in 64 bits and wrapped)."""
    from betspec.runtime import TableDraw
    from betspec.runtime.table import MAX_CHIPS, MAX_SEATS

    cls = engine_class("no_limit")
    unit = MAX_CHIPS // 4
    largest = TableDraw(seats=(MAX_SEATS, MAX_SEATS), stacks=(4, 4), stack_unit=unit)
    fast = play_drawn(cls, 600, BOT, 3, tables=largest)
    tables = [Table([4 * unit] * MAX_SEATS, index % MAX_SEATS, blinds=(5, 10)) for index in range(600)]
    given = play_hands(cls, tables, BOT, random.Random(3))
    assert fast.chips == given.chips == 600 * MAX_SEATS * 4 * unit > 2**63
    monkeypatch.setattr(batch, "kernel", lambda _cls: None)
    slow = play_drawn(cls, 600, BOT, 3, tables=largest)
    assert (fast.hands, fast.actions, fast.chips) == (slow.hands, slow.actions, slow.chips)
