"""Threads (issue 18): hands in different threads are independent, one hand per thread at a time.

Eight threads each play 300 random hands of every structure, through the default engines, the
kernels' classes (``fast_engine``) and batches (``play_hands``), switching threads as often as
the interpreter allows. Every hand's snapshot restores to the same hand, chips are conserved,
and each thread's hands are exactly the hands it plays alone: nothing one thread does reaches
another (the caches of engine classes, kernel classes and kernel table inputs are shared). The
same runs in a child process with ``BETSPEC_PURE=1``: the Python engines, no kernel.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
import threading

from betspec.runtime import BetspecError, Engine, engine_class, engine_names, fast_engine, play_hands
from betspec.runtime.snapshot import restore
from betspec.tools.simulate import BOT, random_table

THREADS = 8
HANDS = 300


def hand_digest(hand: Engine, rng: random.Random) -> str:
    """Play ``hand`` out with the bot, a snapshot restored mid-hand, the pots paid; the digest of
    its final snapshot. Raises AssertionError on a snapshot that does not restore, chips lost."""
    chips = hand.total_chips()
    check_at = rng.randrange(12)
    steps = 0
    while not hand.hand_over:
        if steps == check_at:
            data = json.loads(json.dumps(hand.snapshot()))
            assert restore(data).snapshot() == hand.snapshot()
        seat = hand.to_act
        if seat is None:
            street = hand.next_street
            assert street is not None
            hand.deal(street)
        else:
            action, to = BOT.decide(hand, rng)
            hand.act(seat, action, to)
        steps += 1
    live = [seat for seat in range(hand.seats) if not hand.folded[seat]]
    rng.shuffle(live)
    hand.settle(live if len(live) > 1 else None)
    # Every chip in a stack, or in the middle for the next deal when the hand is dead.
    assert hand.total_chips() == chips and sum(hand.stacks) + hand.pot == chips
    final = hand.snapshot()
    again = restore(json.loads(json.dumps(final)))
    assert again.snapshot() == final and again.stacks == hand.stacks
    return hashlib.sha256(json.dumps(final, sort_keys=True).encode()).hexdigest()


def workload(seed: int, hands: int = HANDS) -> list[str]:
    """One thread's hands, from its seed: what it played, as digests."""
    rng = random.Random(seed)
    structures = engine_names()
    played: list[str] = []
    for number in range(hands):
        structure = rng.choice(structures)
        table = random_table(structure, rng)
        if number % 10 == 9:  # a batch of five hands, in C where the kernel is compiled
            tables = [table, *(random_table(structure, rng) for _ in range(4))]
            batch = play_hands(engine_class(structure), tables, BOT, rng, keep_stacks=True)
            # (the batch checks every hand's chips; unpaid pots are not in the stacks)
            assert batch.hands == 5 and batch.chips == sum(sum(t.stacks) for t in tables)
            played.append(f"{batch.hands} {batch.actions} {batch.stacks}")
            continue
        cls = fast_engine(structure) if number % 2 else engine_class(structure)
        try:
            hand = cls(table)
        except BetspecError as error:  # a drawn table the spec refuses: the same in every run
            played.append(error.code)
            continue
        played.append(hand_digest(hand, rng))
    return played


def run_threads(seeds: list[int]) -> dict[int, list[str]]:
    results: dict[int, list[str]] = {}
    failures: list[BaseException] = []
    start = threading.Barrier(len(seeds))

    def play(seed: int) -> None:
        try:
            start.wait()
            results[seed] = workload(seed)
        except BaseException as exc:  # reported by the main thread
            failures.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads as often as the interpreter will
    try:
        threads = [threading.Thread(target=play, args=(seed,)) for seed in seeds]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    if failures:
        raise failures[0]
    return results


def check_threads() -> None:
    seeds = [1000 + index for index in range(THREADS)]
    alone = {seed: workload(seed) for seed in seeds}
    together = run_threads(seeds)
    for seed in seeds:
        assert len(together[seed]) == HANDS
        assert together[seed] == alone[seed], f"thread {seed} played other hands beside the others"


def test_hands_in_different_threads_are_independent() -> None:
    check_threads()


def test_hands_in_different_threads_are_independent_in_pure_python() -> None:
    env = {**os.environ, "BETSPEC_PURE": "1"}
    code = "from tests.test_threads import check_threads; check_threads(); print('threads ok')"
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=root, capture_output=True, text=True, timeout=1200, check=False
    )
    assert done.returncode == 0 and "threads ok" in done.stdout, (done.stdout + done.stderr)[-3000:]
