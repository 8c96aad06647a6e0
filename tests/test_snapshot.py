"""Snapshots: versioned JSON that restores to a hand behaving identically; bad ones are refused."""

from __future__ import annotations

import copy
import json
import random

import pytest

from betspec.conformance.runner import snapshot
from betspec.runtime import Engine, Start, Table, engine_class
from betspec.runtime.snapshot import SnapshotError, restore
from betspec.simulate import choose
from tests.test_engine import NEXT, STRUCTURES, random_engine


def step(engine: Engine, rng: random.Random) -> None:
    if engine.to_act is None:
        engine.deal(NEXT[engine.street_name])
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
    assert streets == {"preflop", "flop", "turn", "river"}


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
        (lambda d: d.update(version=2), "version 2 is not supported"),
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
        (lambda d: d["log"].__setitem__(0, "raise"), "is not [seat, action, to]"),
        (lambda d: d["table"].update(stacks=[1000, 800, 601]), "chip totals do not add up"),
        (lambda d: d["table"].update(stacks=[1000, 800, 600, 100]), "does not replay"),
        (lambda d: d["table"].update(button="x"), "the table cannot be rebuilt"),
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


@pytest.mark.parametrize("data", [None, [], "snapshot", 3, {}])
def test_not_a_snapshot_at_all(data: object) -> None:
    with pytest.raises(SnapshotError):
        restore(data)


def test_a_start_street_and_options_survive() -> None:
    cls = engine_class("pot_limit")
    engine = cls(Table([500, 500, 500], 1, (5, 10)), start=Start("turn", 90), pot_rounding=25, bet_unit=5)
    engine.bet(2, 50)
    again = through_json(engine)
    assert again.options == {
        "bet_unit": 5,
        "misheard_call_rule": True,
        "pot_rounding": 25,
        "small_blind_counts_as_big": False,
        "underraise_rule": "complete",
    }
    assert again.start == Start("turn", 90) and again.max_to == engine.max_to


def test_declarations_survive_a_snapshot() -> None:
    engine = engine_class("no_limit")(Table([1000, 1000, 1000], 0, (5, 10)), start=Start("flop", 100))
    engine.declare_out_of_turn(2, "bet", 100)
    engine.declare(1, "raise")  # nothing to raise: a bet of the chips to come
    again = through_json(engine)
    assert again._out_of_turn == {2: (100, 0)} and again._declared_raise == 1
    engine.check(1)
    assert through_json(engine).legal_actions() == ("check", "fold")  # the out-of-turn restriction holds
