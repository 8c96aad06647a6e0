"""Self-play at scale: random hands through the generated engines, over a pool of processes.

Each hand gets a seeded random table (2 to 10 seats) and is played to its end by a random policy
that asks the engine what a bot asks (who acts, what is legal, the bounds) before every action.
Work is split into chunks of hands with their own seeds, so the totals do not depend on the
number of workers; only the time does.
"""

from __future__ import annotations

import itertools
import os
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass

from betspec.runtime import Engine, Table, engine_class
from betspec.vocabulary import WAGERS

WEIGHTS = {"fold": 3.0, "check": 4.0, "call": 4.0, "bet": 2.0, "raise": 1.5, "bring_in": 4.0}
CHUNK = 2000


def random_table(structure: str, rng: random.Random) -> Table:
    """2 to 10 seats of 20 to 400 times 10 chips, every other input the spec's example or default."""
    seats = rng.randint(2, 10)
    stacks = [rng.randint(20, 400) * 10 for _ in range(seats)]
    return engine_class(structure).example_table(stacks, rng.randrange(seats))


def choose(engine: Engine, rng: random.Random) -> tuple[int, str, int | None]:
    """A bot's decision: no fold when a check is free; bets and raises mostly small, sometimes all-in."""
    seat = engine.to_act
    assert seat is not None
    legal = engine.legal_actions()
    choices = [a for a in legal if not (a == "fold" and "check" in legal)]
    action = rng.choices(choices, [WEIGHTS[a] for a in choices])[0]
    to = None
    if action in WAGERS:
        low, high = engine.min_to, engine.max_to
        assert low is not None and high is not None
        to = high if rng.random() < 0.08 else min(high, low + rng.randrange(0, max(1, (high - low) // 4 + 1)))
        unit = engine.options.get("bet_unit")
        unit = unit if type(unit) is int and unit > 0 else 1
        if to != high and to % unit:
            to = max(low, to - to % unit)
    return seat, action, to


def play(engine: Engine, rng: random.Random, on_step: Callable[[int, str, int | None], None] | None = None) -> int:
    """Play ``engine`` to the end of the hand; returns the number of betting actions."""
    actions = 0
    while not engine.hand_over:
        street = engine.next_street
        if engine.to_act is None and street is not None:
            engine.deal(street)
            if on_step is not None:
                on_step(-1, street, None)
            continue
        seat, action, to = choose(engine, rng)
        engine.act(seat, action, to)
        actions += 1
        if on_step is not None:
            on_step(seat, action, to)
    return actions


@dataclass
class Totals:
    hands: int = 0
    actions: int = 0
    chips_checked: int = 0

    def add(self, other: Totals) -> None:
        self.hands += other.hands
        self.actions += other.actions
        self.chips_checked += other.chips_checked


def run_chunk(structure: str, seed: int, hands: int, options: dict[str, object]) -> Totals:
    from betspec.runtime import engine_class

    cls = engine_class(structure)
    rng = random.Random(seed)
    totals = Totals()
    for _ in range(hands):
        engine = cls(random_table(structure, rng), **options)  # type: ignore[arg-type]
        chips = engine.total_chips()
        totals.actions += play(engine, rng)
        if engine.total_chips() != chips:
            raise AssertionError(f"chips not conserved in a {structure} hand (seed {seed})")
        totals.hands += 1
        totals.chips_checked += chips
    return totals


#: A pool gets at most this many processes per core: more only add switching.
WORKERS_PER_CORE = 4


def chunks(
    structure: str, hands: int, seed: int, options: dict[str, object]
) -> Iterator[tuple[str, int, int, dict[str, object]]]:
    """The work, a chunk at a time (never built as a whole list: ``hands`` may be huge)."""
    for index, start in enumerate(range(0, hands, CHUNK)):
        yield structure, seed * 1_000_003 + index, min(CHUNK, hands - start), options


def bounded_workers(requested: int, hands: int) -> int:
    """The processes worth starting: no more than the chunks of work, nor than the cores allow."""
    return max(1, min(requested, -(-hands // CHUNK), WORKERS_PER_CORE * default_workers()))


def simulate(
    structure: str,
    hands: int,
    workers: int,
    seed: int = 2026,
    options: dict[str, object] | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[Totals, float]:
    """Play ``hands`` hands over ``workers`` processes (bounded by :func:`bounded_workers`);
    returns the totals and the seconds taken. ``progress`` is told the hands played so far."""
    options = options or {}
    work = chunks(structure, hands, seed, options)
    workers = bounded_workers(workers, hands)
    totals = Totals()
    started = time.perf_counter()

    def add(result: Totals) -> None:
        totals.add(result)
        if progress is not None:
            progress(totals.hands)

    if workers <= 1:
        for chunk in work:
            add(run_chunk(*chunk))
        return totals, time.perf_counter() - started
    with ProcessPoolExecutor(max_workers=workers) as pool:
        # A bounded window of chunks in flight: memory stays flat whatever the number of hands.
        pending = {pool.submit(run_chunk, *chunk) for chunk in itertools.islice(work, 2 * workers)}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                add(future.result())
            pending |= {pool.submit(run_chunk, *chunk) for chunk in itertools.islice(work, len(done))}
    return totals, time.perf_counter() - started


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
