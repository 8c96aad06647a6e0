"""Self-play at scale: random hands through the generated engines, over a pool of processes.

Each hand gets a seeded random table (2 to 10 seats) and is played to its end by a random policy
that asks the engine what a bot asks (who acts, what is legal, the bounds) before every action.
Work is split into chunks of hands with their own seeds, so the totals do not depend on the
number of workers; only the time does.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import random
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from betspec.runtime import Engine, InvalidTable, Table, engine_class
from betspec.runtime.batch import Draw, Policy, TableDraw, play_drawn, play_out
from betspec.tools.agent_actions import act_within
from betspec.tools.ray_session import cluster_cpus, ray_session

if TYPE_CHECKING:
    from betspec.cards import Dealer
    from betspec.session import Session, SessionSpec

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


# ---- a session's games and levels --------------------------------------------------------------


@dataclass
class SessionTotals:
    """What a session's hands came to: hands, betting actions and chips put in the pots, per game
    and per level (numbered from 1), and the sessions played (one ends when a player has every chip)."""

    hands: int = 0
    sessions: int = 0
    by_game: dict[str, list[int]] = field(default_factory=dict)  # game -> [hands, actions, pots]
    by_level: dict[int, list[int]] = field(default_factory=dict)  # level -> [hands, actions, pots]
    changes: int = 0  # games started after the first, across sessions
    chips_checked: int = 0


def simulate_session(
    spec: SessionSpec,
    hands: int,
    seed: int | None,
    players: int = 6,
    stack: int = 2000,
    *,
    folding: bool = False,
    phh: str | None = None,
) -> SessionTotals:
    """Play ``hands`` hands of the session ``spec`` with the bot at every seat, ``players`` players
    of ``stack`` chips: each hand dealt and ranked by the dealer of the game in force (random
    showdowns where PokerKit is absent), a draw standing pat, dealer's choice drawn at random, a
    minute's level lasting as many hands as two minutes a hand make (thirty hands an hour, a live
    table's pace). A session whose players but one are out of chips starts again. Every chip is
    checked at every hand: a chip created or lost raises SimulateError. ``folding``: every seat
    checks or folds (the forced bets alone change hands), so that a session lasts through every
    game and level. ``phh``: a folder each hand is written to as PHH (``<session id>-<hand>.phh``,
    the session's id its name and number: ``horse-1``)."""
    from betspec.session import Session, checking_or_folding

    rng = random.Random(seed)
    clock = [0.0]
    totals = SessionTotals()
    mixed: Session | None = None
    total = 0
    for number in range(1, hands + 1):
        if mixed is None or mixed.over:
            mixed = Session(spec, [stack] * players, rng.randrange(players), clock=lambda: clock[0])
            total = mixed.chips
            totals.sessions += 1
            mixed.id = f"{spec.name}-{totals.sessions}"
        game, level = mixed.game.name, mixed.level + 1
        dealer = _dealer(mixed, f"{seed}/{number}")
        engine = mixed.engine(**(dealer.table_inputs() if dealer is not None else {}))
        actions = 0
        while not engine.hand_over:
            if engine.to_act is None:
                if dealer is not None:
                    dealer.deal(engine)
                else:
                    engine.deal(engine.next_street)  # type: ignore[arg-type]
                continue
            seat = engine.to_act
            action, to = (checking_or_folding(engine), None) if folding else BOT.decide(engine, rng)
            # The bot draws a wager's amount between its bounds; on a stud open pair only the
            # small or the big bet is legal (OPEN-PAIR), nothing between: the small one then.
            act_within(engine, seat, action, to)
            actions += 1
        if dealer is not None:
            while engine.next_street is not None:  # the board run out for an all-in showdown
                dealer.deal(engine)
        pots = engine.pot
        if dealer is not None:
            dealer.settle(engine)
        else:
            contested = sorted({s for p in engine.pots() for s in p.eligible if len(p.eligible) > 1})
            engine.settle(rng.sample(contested, len(contested)) if contested else None)
        if phh is not None:
            _write_phh(phh, engine, dealer, mixed)
        for key, table in ((game, totals.by_game), (level, totals.by_level)):
            row = table.setdefault(key, [0, 0, 0])  # type: ignore[arg-type]
            row[0], row[1], row[2] = row[0] + 1, row[1] + actions, row[2] + pots
        totals.hands += 1
        clock[0] += 120.0
        before = mixed.game
        try:
            chosen = mixed.choose_at_random(rng)
            if folding and chosen is not None:  # each game of the list in turn, so that each is dealt
                order = list(spec.rotation)
                chosen = (
                    order[(order.index(mixed.game.name) + 1) % len(order)] if mixed.game.name in order else order[0]
                )
            mixed.next_table(engine, chosen)
        except InvalidTable:
            if not mixed.over:
                raise
        held = mixed.chips + engine.rake + engine.jackpot_drop - engine.jackpot_paid
        if held != total:
            raise SimulateError(f"hand {number} ({game}): the table had {total} chips and has {held}")
        total = mixed.chips
        totals.chips_checked += 1
        totals.changes += mixed.game is not before
    return totals


def walk_session(spec: SessionSpec, players: int = 6) -> tuple[SessionTotals, SessionTotals]:
    """A session played through: its hands with the bot (twice the orbits of its rotation, or at
    least 200), then checked or folded long enough to deal every game and reach every level, a
    session's stacks two hundred times its largest stake. What ``validate --deep`` plays."""
    largest = max((value for level in spec.levels for value in level.values()), default=1)
    orbits = 2 * len(spec.rotation) * players
    played = simulate_session(spec, max(200, orbits), 2026, players, stack=200 * max(largest, 1))
    levels = len(spec.levels)
    by_levels = (spec.level_hands or 0) * levels or ((spec.level_minutes or 0) * levels) // 2
    walked = simulate_session(
        spec, max(orbits, by_levels + players), 2027, players, stack=200 * max(largest, 1), folding=True
    )
    return played, walked


def _write_phh(folder: str, engine: Engine, dealer: Dealer | None, mixed: Session) -> None:
    """The hand just settled as PHH, with where it stands in its session."""
    from betspec.tools.phh.writer import to_phh

    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{mixed.id}-{mixed.hand:06d}.phh")
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(to_phh(engine, cards=dealer, session=mixed))


def _dealer(mixed: Session, seed: str) -> Dealer | None:
    """The cards of a session's hand, where its game has cards and PokerKit ranks them."""
    if importlib.util.find_spec("pokerkit") is None:
        return None
    return mixed.dealer(seed)
