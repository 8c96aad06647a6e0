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
from betspec.runtime.batch import Draw, Policy, TableDraw, play_drawn, play_out
from betspec.tools.ray_session import cluster_cpus, ray_session

WEIGHTS = {"fold": 3.0, "check": 4.0, "call": 4.0, "bet": 2.0, "raise": 1.5, "bring_in": 4.0}
CHUNK = 2000


#: simulate's tables: 2 to 10 seats of 20 to 400 times 10 chips, a random button, every other
#: input the spec's example or default.
TABLES = TableDraw(seats=(2, 10), stacks=(20, 400), stack_unit=10)


def random_table(structure: str, rng: Draw) -> Table:
    """A table drawn as simulate draws them (:data:`TABLES`), from ``rng`` (``random.Random``
    or :class:`~betspec.runtime.batch.Draws`)."""
    return TABLES.draw(engine_class(structure), rng)


#: The bot every simulated seat plays: no fold when a check is free; bets and raises mostly small,
#: sometimes all-in.
BOT = Policy(WEIGHTS)


def choose(engine: Engine, rng: random.Random) -> tuple[int, str, int | None]:
    """The bot's decision for the seat to act."""
    seat = engine.to_act
    assert seat is not None
    action, to = BOT.decide(engine, rng)
    return seat, action, to


def play(engine: Engine, rng: random.Random, on_step: Callable[[int, str, int | None], None] | None = None) -> int:
    """Play ``engine`` to the end of the hand with the bot; returns the number of betting actions."""
    return play_out(engine, lambda hand: BOT.decide(hand, rng), on_step)


@dataclass
class Totals:
    hands: int = 0
    actions: int = 0
    chips_checked: int = 0
    raked: int = 0  # what the spec's rake took (its hands' pots paid), 0 where it posts none

    def add(self, other: Totals) -> None:
        self.hands += other.hands
        self.actions += other.actions
        self.chips_checked += other.chips_checked
        self.raked += other.raked


def run_chunk(structure: str, seed: int, hands: int, options: dict[str, object]) -> Totals:
    """``hands`` hands in one batch (:func:`betspec.runtime.batch.play_drawn`): the tables
    (:data:`TABLES`) and the decisions drawn from the chunk's seed, in C where the spec's kernel
    is compiled (the same hands either way); a spec with a rake has its pots paid (through the
    Python engine) and what the rake took counted."""
    cls = engine_class(structure)
    # A spec with a rake has its hands' pots paid, to measure what the house takes.
    played = play_drawn(cls, hands, BOT, seed, tables=TABLES, options=options, settle=cls.RAKE is not None)
    return Totals(played.hands, played.actions, played.chips, played.raked)


#: A pool gets at most this many processes per core: more only add switching.
WORKERS_PER_CORE = 4


def chunks(
    structure: str, hands: int, seed: int, options: dict[str, object]
) -> Iterator[tuple[str, int, int, dict[str, object]]]:
    """The work, a chunk at a time (never built as a whole list: ``hands`` may be huge)."""
    size = chunk_size(hands)
    for index, start in enumerate(range(0, hands, size)):
        yield structure, seed * 1_000_003 + index, min(size, hands - start), options


def chunk_size(hands: int) -> int:
    """Hands per chunk: CHUNK, or a hundredth of the work when that is more (a chunk played in C
    takes milliseconds: fewer, larger chunks keep a pool's or a cluster's overhead small). It
    depends on the number of hands only, so the totals do not depend on what runs the chunks."""
    return max(CHUNK, -(-hands // 100))


def bounded_workers(requested: int, hands: int) -> int:
    """The processes worth starting: no more than the chunks of work, nor than the cores allow."""
    return max(1, min(requested, -(-hands // chunk_size(hands)), WORKERS_PER_CORE * default_workers()))


#: Where simulate's chunks run: a local pool of processes, or a Ray cluster (``pip install 'betspec[ray]'``).
BACKENDS = ("processes", "ray")


class SimulateError(Exception):
    """simulate cannot run as asked (a backend not installed or not reachable)."""


def simulate(
    structure: str,
    hands: int,
    workers: int,
    seed: int = 2026,
    options: dict[str, object] | None = None,
    progress: Callable[[int], None] | None = None,
    backend: str = "processes",
    address: str | None = None,
) -> tuple[Totals, float]:
    """Play ``hands`` hands over ``workers`` processes (bounded by :func:`bounded_workers`), or
    over a Ray cluster (``backend="ray"``: the one at ``address``, else a local one of
    ``workers`` CPUs); returns the totals and the seconds taken (on Ray, from when the cluster
    is reached), the same totals whatever runs the chunks. ``progress`` is told the hands played so far."""
    options = options or {}
    work = chunks(structure, hands, seed, options)
    totals = Totals()
    started = time.perf_counter()

    def add(result: Totals) -> None:
        totals.add(result)
        if progress is not None:
            progress(totals.hands)

    if backend == "ray":
        return totals, _on_ray(work, max(1, workers), address, add)
    if backend != "processes":
        raise SimulateError(f"no simulate backend {backend!r} (backends: {', '.join(BACKENDS)})")
    workers = bounded_workers(workers, hands)
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


def _on_ray(
    work: Iterator[tuple[str, int, int, dict[str, object]]],
    workers: int,
    address: str | None,
    add: Callable[[Totals], None],
) -> float:
    """The chunks as Ray tasks, a bounded window of them in flight; returns the seconds they
    took, from when the cluster was reached and its workers were up to the last result
    (starting and stopping a local cluster is not the simulation's time)."""
    with ray_session(workers, address, SimulateError) as ray:
        remote = ray.remote(run_chunk)
        cpus = cluster_cpus(ray, workers)
        window = 2 * max(workers, cpus)
        # Workers start lazily: one empty chunk per CPU first, so that each has imported the
        # engines before the clock starts, as a process pool's workers have when they fork.
        first = next(work, None)
        if first is not None:
            ray.get([remote.remote(first[0], first[1], 0, first[3]) for _ in range(max(workers, cpus))])
            work = itertools.chain([first], work)
        began = time.perf_counter()
        pending = [remote.remote(*chunk) for chunk in itertools.islice(work, window)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                add(ray.get(ref))
            pending += [remote.remote(*chunk) for chunk in itertools.islice(work, len(done))]
        return time.perf_counter() - began


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
