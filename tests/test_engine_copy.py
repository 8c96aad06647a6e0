"""``copy.copy(engine)``: an independent copy of a hand as it stands (what a search or a solver branches
on: OpenSpiel clones a state at every node). At random points of random hands of every shipped
structure, the copy is the hand (its snapshot, every question's answer), then each goes its own
way: a step taken on one leaves the other as it was, and the same steps taken on both keep them
equal, refusals included. ``copy.deepcopy`` gives the same. (Python's protocol, not a method: an
engine's method names are names a spec's own action may not take.)"""

from __future__ import annotations

import copy
import random

import pytest

from betspec.conformance.runner import snapshot
from tests.test_engine import STRUCTURES, random_engine
from tests.test_paths_equal import answers, outcome, random_step


@pytest.mark.parametrize("structure", STRUCTURES)
def test_a_copy_is_the_hand_and_goes_its_own_way(structure: str) -> None:
    rng = random.Random(f"copy-{structure}")
    copies = 0
    for _ in range(40):
        hand = random_engine(structure, rng)
        for _ in range(200):
            if hand.hand_over:
                break
            twin = rng.choice([copy.copy, copy.deepcopy])(hand)
            assert type(twin) is type(hand) and twin is not hand
            assert answers(twin) == answers(hand)  # (a question caches the view: asked first)
            before = snapshot(hand)
            assert snapshot(twin) == before
            step = random_step(twin, rng)
            outcome(twin, step)  # the copy goes its own way: the hand is untouched
            assert snapshot(hand) == before
            again = copy.copy(hand)
            step = random_step(hand, rng)
            assert outcome(hand, step) == outcome(again, step)
            assert answers(hand) == answers(again) and snapshot(hand) == snapshot(again)
            copies += 1
        if hand.hand_over:  # the copy's pots paid, the hand's not
            answers(hand)
            settled, before = copy.copy(hand), snapshot(hand)
            settled.settle([[seat] for seat in range(settled.seats) if not settled.folded[seat]])
            assert snapshot(hand) == before and snapshot(settled) != before
            assert settled.total_chips() == hand.total_chips()
    assert copies >= 200


def _kernel_structures() -> list[str]:
    from betspec.runtime import engine_class
    from betspec.runtime.batch import kernel

    return [name for name in STRUCTURES if kernel(engine_class(name)) is not None]


@pytest.mark.parametrize("structure", STRUCTURES)
def test_a_kernel_hand_is_copied_as_the_python_engines_hand_is(structure: str) -> None:
    """The same for a hand played by the spec's kernel (batch.fast_engine): its C state and steps
    copied, a hand the kernel handed to the Python engine (an action of the spec's own) copied
    with its engine. Skipped where the kernel is not compiled here."""
    from betspec.runtime import Start
    from betspec.runtime.batch import fast_engine
    from betspec.tools.simulate import random_table

    if structure not in _kernel_structures():
        pytest.skip(f"the {structure} kernel is not compiled here (betspec build)")
    kernel_class = fast_engine(structure)
    rng = random.Random(f"kernel-copy-{structure}")
    copies = handed = 0
    for index in range(30):
        table = random_table(structure, rng)
        # A hand started on a later street is the Python engine's (the kernel hands it over).
        later = kernel_class.STREETS[1:] and index % 3 == 0
        hand = kernel_class(table, start=Start(kernel_class.STREETS[1], 30)) if later else kernel_class(table)
        for _ in range(200):
            if hand.hand_over:
                break
            twin = rng.choice([copy.copy, copy.deepcopy])(hand)
            assert type(twin) is type(hand) and twin is not hand and twin.python == hand.python
            assert answers(twin) == answers(hand)
            before = hand.snapshot()
            assert twin.snapshot() == before
            step = random_step(twin, rng)
            outcome(twin, step)  # the copy goes its own way: the hand is untouched
            assert hand.snapshot() == before and answers(hand) == answers(copy.copy(hand))
            again = copy.copy(hand)
            step = random_step(hand, rng)
            assert outcome(hand, step) == outcome(again, step)
            assert answers(hand) == answers(again) and hand.snapshot() == again.snapshot()
            copies += 1
            handed += hand.python
        if hand.hand_over:  # the copy's pots paid, the hand's not
            answers(hand)
            settled, before = copy.copy(hand), hand.snapshot()
            settled.settle([[seat] for seat in range(settled.seats) if not settled.folded[seat]])
            assert hand.snapshot() == before and settled.snapshot() != before
            assert settled.total_chips() == hand.total_chips()
    assert copies >= 200 and handed > 0, (copies, handed)
