"""Snapshots: versioned JSON that restores to a hand behaving identically; bad ones are refused."""

from __future__ import annotations

import copy
import json
import random

import pytest

from betspec.conformance.runner import snapshot
from betspec.runtime import Engine, InvalidTable, Start, Table, engine_class
from betspec.runtime.snapshot import SnapshotError, restore
from betspec.tools.simulate import choose
from tests.test_engine import STRUCTURES, random_engine


def step(engine: Engine, rng: random.Random) -> None:
    if engine.to_act is None:
        engine.deal(engine.next_street or "")
    else:
        engine.act(*choose(engine, rng))


def through_json(engine: Engine) -> Engine:
    return restore(json.loads(json.dumps(engine.snapshot())))


@pytest.mark.parametrize("structure", STRUCTURES)
def test_round_trip_mid_hand_on_every_street_then_identical_play(structure: str) -> None:
    rng = random.Random(f"snap-{structure}")
    streets: set[str] = set()
    for _ in range(120):
        engine = random_engine(structure, rng)
        while not engine.hand_over:
            streets.add(engine.street_name)
            restored = through_json(engine)
            assert snapshot(restored) == snapshot(engine)
            assert restored.snapshot() == engine.snapshot()
            seed = rng.random()
            for twin in (engine, restored):  # the same decisions from here on
                local = random.Random(seed)
                for _ in range(3):
                    if not twin.hand_over:
                        step(twin, local)
            assert snapshot(restored) == snapshot(engine)
        assert through_json(engine).snapshot() == engine.snapshot()
    assert streets == set(type(engine).STREETS)


def a_snapshot() -> dict:
    engine = engine_class("no_limit")(Table([1000, 800, 600], 0, (5, 10), ante=1), start=None)
    engine.raise_to(0, 30)
    engine.call(1)
    engine.call(2)
    engine.deal("flop")
    engine.bet(1, 50)
    return engine.snapshot()


@pytest.mark.parametrize(
    "tamper, message",
    [
        (lambda d: d.update(version=1), "version 1 is not supported"),
        (lambda d: d.update(version=["x" * 50_000_000]), "is not supported"),
        (lambda d: d.update(format="other"), "not a betspec snapshot"),
        (lambda d: d.update(spec_hash="0" * 64), "another version of spec 'no_limit'"),
        (lambda d: d.update(spec="no_such_spec"), "no engine for spec 'no_such_spec'"),
        (lambda d: d.update(spec="../etc"), "bad spec name"),
        (lambda d: d["observed"]["stacks"].__setitem__(0, 5000), "chip totals do not add up"),
        (lambda d: d["observed"].update(pot=1), "chip totals do not add up"),
        (lambda d: d["observed"].update(to_act=0), "tampered with: to_act"),
        (lambda d: d["log"].__setitem__(1, [7, "call", None]), "seat 7 out of range"),
        (lambda d: d["log"].__setitem__(1, [1, "raise", 31]), "does not replay"),
        (lambda d: d["log"].append([-1, "turn", None]), "does not replay"),
        (lambda d: d["log"].__setitem__(0, "raise"), "is not [seat, action, argument]"),
        (lambda d: d["log"].__setitem__(0, [0, ["raise"], 30]), "the action is not a name"),
        (lambda d: d["log"].__setitem__(0, [0, "raise", "30"]), "raise needs an amount"),
        (lambda d: d["log"].__setitem__(0, [0.0, "raise", 30]), "seat 0.0 out of range"),
        (lambda d: d["log"].__setitem__(1, [1, "call", 5]), "call takes no amount"),
        (lambda d: d["log"].__setitem__(1, [1, "push", [5]]), "not a push"),
        (lambda d: d["log"].__setitem__(1, [1, "shove", None]), "unknown action 'shove'"),
        (lambda d: d["log"].__setitem__(1, [1, "x" * 1000, None]), "unknown action 'xxxxxxx"),
        (lambda d: d.update(spec="s" * 5000), "bad spec name"),
        (lambda d: d["table"].update(stacks=[1000, 800, 601]), "chip totals do not add up"),
        (lambda d: d["table"].update(stacks=[1000, 800, 600, 100]), "does not replay"),
        (lambda d: d["table"].update(button="x"), "the table cannot be rebuilt"),
        (lambda d: d["table"].update(surprise=1), "no_limit has no table input 'surprise'"),
        (lambda d: d.update(table=[1, 2]), "a table is a JSON object"),
        (lambda d: d.update(start={"street": ["flop"], "pot": 0}), "the table cannot be rebuilt"),
        (lambda d: d["options"].update(extra=1), "options do not match"),
        (lambda d: d.pop("observed"), "no observed state"),
    ],
)
def test_bad_snapshots_are_refused_with_a_reason(tamper, message: str) -> None:
    data = a_snapshot()
    restore(copy.deepcopy(data))  # the untouched one restores
    tamper(data)
    with pytest.raises(SnapshotError) as info:
        restore(data)
    assert message in str(info.value) and info.value.code == "bad_snapshot"
    assert len(str(info.value)) < 1000  # nothing huge is echoed


@pytest.mark.parametrize("data", [None, [], "snapshot", 3, {}])
def test_not_a_snapshot_at_all(data: object) -> None:
    with pytest.raises(SnapshotError):
        restore(data)


def test_a_start_street_and_options_survive() -> None:
    cls = engine_class("pot_limit")
    engine = cls(Table([500, 500, 500], 1, (5, 10)), start=Start("turn", 90), pot_rounding=25, bet_unit=5)
    engine.bet(2, 50)
    again = through_json(engine)
    assert again.options == engine.options == {**cls.OPTION_DEFAULTS, "bet_unit": 5, "pot_rounding": 25}
    assert again.start == Start("turn", 90) and again.max_to == engine.max_to


def test_declarations_survive_a_snapshot() -> None:
    engine = engine_class("no_limit")(Table([1000, 1000, 1000], 0, (5, 10)), start=Start("flop", 100))
    engine.declare_out_of_turn(2, "bet", 100)
    engine.declare(1, "raise")  # nothing to raise: a bet of the chips to come
    again = through_json(engine)
    assert again._out_of_turn == {2: (100, 0)} and again.legal_actions() == ("bet", "fold")
    ruling = engine.push(1, [5])  # the declared bet binds: brought up to the minimum
    assert (ruling.action, ruling.to, ruling.completed) == ("bet", 10, 5)
    # The skipped player bet no more than seat 2 declared out of turn: seat 2 may call or fold.
    assert through_json(engine).legal_actions() == ("call", "fold")


def test_a_withdrawn_call_and_an_announced_bet_survive_a_snapshot() -> None:
    engine = engine_class("no_limit")(Table([1000, 1000], 0, (5, 10)), start=Start("river", 100))
    engine.push(1, [500], {"act": "bet", "to": 400})
    engine.push(0, [100], "call")  # misheard: withdrawn, and bound to call or fold
    again = through_json(engine)
    assert again.legal_actions() == engine.legal_actions() == ("call", "fold")
    assert again._announced == engine._announced == 400


def test_signed_snapshots_refuse_any_edit() -> None:
    key = b"server secret"
    data = json.loads(json.dumps(a_engine().snapshot(key=key)))
    assert restore(copy.deepcopy(data), key=key).pot == data["observed"]["pot"]
    with pytest.raises(SnapshotError, match="not signed"):
        restore(a_engine().snapshot(), key=key)
    with pytest.raises(SnapshotError, match="signature does not match"):
        restore(copy.deepcopy(data), key=b"another key")
    # A consistent edit (the log and the state of another legal hand) restores unsigned...
    other = a_engine(last_bet=60).snapshot()
    edited = {**copy.deepcopy(data), "log": other["log"], "observed": other["observed"]}
    assert restore({k: v for k, v in edited.items() if k != "signature"}).pot == other["observed"]["pot"]
    # ... and never signed.
    with pytest.raises(SnapshotError, match="signature does not match"):
        restore(edited, key=key)
    with pytest.raises(SnapshotError, match="non-empty bytes"):
        a_engine().snapshot(key="text")  # type: ignore[arg-type]


def a_engine(last_bet: int = 50) -> Engine:
    engine = engine_class("no_limit")(Table([1000, 800, 600], 0, (5, 10), ante=1))
    engine.raise_to(0, 30)
    engine.call(1)
    engine.call(2)
    engine.deal("flop")
    engine.bet(1, last_bet)
    return engine


@pytest.mark.parametrize("structure", [s for s in STRUCTURES if "burn_blind" in engine_class(s).INPUTS])
def test_burn_blind_hands_restore_on_every_street(structure: str) -> None:
    rng = random.Random(f"burn-{structure}")
    streets: set[str] = set()
    for _ in range(60):
        engine = random_engine(structure, rng)
        seats = max(engine.seats, 3)
        table = type(engine).example_table([5000] * seats, rng.randrange(seats), burn_blind=True)
        try:
            engine = type(engine)(table, **engine.options)
        except InvalidTable:  # the drawn options do not fit the example table (a bet unit)
            continue
        while not engine.hand_over:
            streets.add(engine.street_name)
            restored = through_json(engine)
            assert restored.table.get("burn_blind") is True and snapshot(restored) == snapshot(engine)
            step(engine, rng)
    assert streets == set(type(engine).STREETS)
