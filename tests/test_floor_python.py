"""The plain floor of benchmarks/python_floor.py answers as betspec's no-limit engine does.

The floor (benchmarks/floor_python.py, a hand-written Python engine) is what the pure-Python
engine is timed against: on a few hundred recorded hands it must give, before every action, the
same seat to act, legal actions, call and bounds, and end each hand with the same stacks, so that
the comparison is of the same work.
"""

from __future__ import annotations

import random

from benchmarks.bench import record
from benchmarks.floor_python import check_floor


def test_floor_answers_as_betspec() -> None:
    rng = random.Random("floor-2026")
    hands = [record("no_limit", rng) for _ in range(300)]
    assert check_floor(hands) > 3000
