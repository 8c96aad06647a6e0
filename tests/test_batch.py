"""Many hands in one call: a policy as data or as a callback, the same hands as a hand-written
loop, pots paid, chips conserved, bad arguments refused cleanly."""

from __future__ import annotations

import random

import pytest

from betspec.runtime import BetspecError, Engine, Policy, TableDraw, engine_class, play_drawn, play_hands
from betspec.runtime.batch import draws_from, play_out
from betspec.tools.simulate import BOT, random_table
from tests.test_engine import STRUCTURES


@pytest.mark.parametrize("structure", STRUCTURES)
def test_a_batch_plays_the_hands_a_loop_plays(structure: str) -> None:
    cls = engine_class(structure)
    steps: list[tuple[int, str, int | None]] = []
    rng = random.Random(5)
    tables = [random_table(structure, random.Random(i)) for i in range(40)]
    played = play_hands(cls, tables, BOT, rng, keep_stacks=True, on_step=lambda *s: steps.append(s))
    assert played.hands == 40 and played.actions == sum(1 for seat, _a, _t in steps if seat >= 0)
    # A batch draws its policy's decisions from Draws seeded by the caller's rng.
    draws = draws_from(random.Random(5))
    again: list[tuple[int, str, int | None]] = []
    stacks = []
    for table in tables:
        engine = cls(table)
        play_out(engine, lambda hand: BOT.decide(hand, draws), lambda *s: again.append(s))
        stacks.append(tuple(engine.stacks))
    assert again == steps and stacks == played.stacks
    assert played.chips == sum(sum(t.stacks) for t in tables)


def test_a_callback_is_called_at_decisions_only_and_rank_pays_every_pot() -> None:
    cls = engine_class("no_limit")
    calls: list[int] = []

    def decide(engine: Engine) -> tuple[str, int | None]:
        assert engine.to_act is not None and not engine.round_over
        calls.append(engine.to_act)
        return ("check", None) if "check" in engine.legal_actions() else ("call", None)

    tables = [random_table("no_limit", random.Random(i)) for i in range(30)]
    played = play_hands(cls, tables, decide, rank=lambda e: list(range(e.seats)), keep_stacks=True)
    assert len(calls) == played.actions > 0
    for table, stacks in zip(tables, played.stacks, strict=True):
        assert sum(stacks) == sum(table.stacks)
        # everyone checks or calls to the river: the lowest live seat wins every pot it is in
        assert stacks != tuple(table.stacks)


def test_a_policy_with_no_legal_action_weighted_is_refused() -> None:
    table = random_table("no_limit", random.Random(1))
    with pytest.raises(BetspecError, match="no weight to any legal action"):
        play_hands(engine_class("no_limit"), [table], Policy({"bet": 1.0}))


@pytest.mark.parametrize("policy", [None, 3, "fold"])
def test_a_policy_that_is_not_one_is_refused(policy: object) -> None:
    with pytest.raises(BetspecError, match="a policy is"):
        play_hands(engine_class("no_limit"), [], policy)  # type: ignore[arg-type]


def test_an_engine_class_is_required() -> None:
    with pytest.raises(BetspecError, match="engine class"):
        play_hands("no_limit", [], BOT)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "keywords", "said"),
    [
        (("10", 1), {}, "hands must be a whole number"),
        ((True, 1), {}, "hands must be a whole number"),
        ((-1, 1), {}, "hands must be a whole number"),
        ((3, "x"), {}, "seed must be a whole number"),
        ((3, 1), {"tables": 5}, "tables must be a betspec.runtime.TableDraw"),
        ((3, 1), {"keep_stacks": 1}, "keep_stacks must be True or False"),
    ],
)
def test_play_drawn_refuses_wrong_arguments_before_a_hand(
    args: tuple[object, ...], keywords: dict[str, object], said: str
) -> None:
    with pytest.raises(BetspecError, match=said):
        play_drawn(engine_class("no_limit"), args[0], BOT, args[1], **keywords)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("keywords", "said"),
    [
        ({"seats": (1, 3)}, "seats must be a pair"),
        ({"seats": (5, 3)}, "seats must be a pair"),
        ({"seats": (2, 24)}, "seats must be a pair"),
        ({"seats": [2, 3]}, "seats must be a pair"),
        ({"stacks": (0, 3)}, "stacks must be a pair"),
        ({"stack_unit": 0}, "stack_unit must be a whole number"),
        ({"stack_unit": 10**14, "stacks": (1, 100)}, r"1 <= low <= high <= 10,"),
    ],
)
def test_a_table_draw_out_of_bounds_is_refused_whole(keywords: dict[str, object], said: str) -> None:
    with pytest.raises(BetspecError, match=said):
        TableDraw(**keywords)  # type: ignore[arg-type]


def test_the_largest_table_draw_plays() -> None:
    draw = TableDraw(seats=(23, 23), stacks=(10**14, 10**14), stack_unit=10)
    played = play_drawn(engine_class("no_limit"), 5, BOT, 7, tables=draw)
    assert (played.hands, played.chips) == (5, 5 * 23 * 10**15)
