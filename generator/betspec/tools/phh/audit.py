"""Checking files of hands (``betspec phh check``): each hand replayed and its pots paid, here, over
processes or on Ray; and a file's hands replayed to their final stacks (:func:`finished`)."""

from __future__ import annotations

import gc
import importlib
import itertools
import json
import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextlib import suppress as _suppress
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, cast

from betspec.tools.phh.model import Bad, Hand, Irregular, PhhError, _brief, _count
from betspec.tools.phh.pots import MISPAID, MISPAID_STATUS, PAID, UNCHECKED, check_pots
from betspec.tools.phh.reader import read
from betspec.tools.phh.replaying import ACCEPTED, INVALID, IRREGULAR, MISDEALT, REFUSED, Replay, engine_for, replay
from betspec.tools.phh.runners import BACKENDS
from betspec.tools.phh.table import hand_options, table_inputs
from betspec.tools.ray_session import cluster_cpus, ray_session

if TYPE_CHECKING:
    from betspec.cards import Game
    from betspec.runtime import Engine


@dataclass(frozen=True)
class Finished:
    """A hand of a file replayed and its pots paid (:func:`finished`): its ``status`` (ACCEPTED,
    REFUSED, IRREGULAR, INVALID, MISDEALT), each player's ``chips`` in PHH order once the pots are
    paid (None where the hand was not replayed to its end and paid), in chips of 1/``scale`` of
    the file's unit, and what betspec found (``detail``: the refusal, how the pots were paid and
    whether as the file says)."""

    name: str
    status: str
    chips: tuple[int, ...] | None
    scale: int
    detail: str

    @property
    def stacks(self) -> tuple[Decimal, ...] | None:
        """Each player's stack in the file's own unit (dollars where it writes 196.20)."""
        return None if self.chips is None else tuple(Decimal(chips) / self.scale for chips in self.chips)


#: The structure hands are checked under: one for every hand, one per variant (PHH's code: a
#: house's own spec; a variant not named under its own), or None (each under its variant's own).
Under = str | Mapping[str, str] | None


def checked_under(structure: object, options: Mapping[str, Any]) -> Under:
    """``structure`` as hands are checked under it (:data:`Under`), each structure's engine found
    and its ``options`` checked; :class:`PhhError` saying why not."""
    from betspec.cards import GAMES

    if structure is None:
        return None
    if isinstance(structure, str):
        engine_for(structure, options)
        return structure
    if not isinstance(structure, Mapping) or len(structure) > len(GAMES):
        why = "a structure's name, or PHH variants mapped to structures"
        raise PhhError(f"hands are checked under {why}, not {_brief(structure)}")
    for code, name in structure.items():
        if code not in GAMES:
            raise PhhError(f"no PHH variant {_brief(code)} (betspec reads {', '.join(GAMES)})")
        if not isinstance(name, str):
            raise PhhError(f"variant {code} is checked under a structure's name, not {_brief(name)}")
        engine_for(name, options)
    return dict(structure)


def structure_of(hand: Hand, structure: Under) -> str:
    """The structure ``hand`` is checked under (see :data:`Under`)."""
    if isinstance(structure, str):
        return structure
    return (structure or {}).get(hand.game.code, hand.game.structure)


def finished(path: str, structure: Under = None, options: Mapping[str, Any] | None = None) -> list[Finished]:
    """Each hand of a PHH file replayed by betspec and paid: its players' final stacks, as the
    rules pay them (``finishing_stacks`` compared where the file records them). A hand is played
    under ``structure`` (by default the one whose betting its variant is; a mapping names the
    structure of some variants, a house's own) with ``options``.

    >>> for hand in finished("hands.phhs"):  # doctest: +SKIP
    ...     print(hand.name, hand.status, hand.stacks)
    """
    found: list[Finished] = []
    engines: dict[str, type[Engine]] = {}
    structure = checked_under(structure, options or {})
    for hand in read(path):
        if isinstance(hand, Bad):
            found.append(Finished(hand.name, INVALID, None, 1, hand.reason))
            continue
        name = structure_of(hand, structure)
        if name not in engines:
            engines[name] = engine_for(name, options or {})
        result = replay(hand, engines[name], options)
        if result.status != ACCEPTED:
            found.append(Finished(hand.name, result.status, None, hand.scale, result.detail))
            continue
        pots = check_pots(result)
        chips = pots.stacks if pots.stacks else None
        status = MISPAID_STATUS if pots.status == MISPAID else result.status
        found.append(Finished(hand.name, status, chips, hand.scale, f"{result.detail}; {pots.detail}"))
    return found


@dataclass
class Report:
    """What checking hands (a file, or a share of its hands) gave: a line per hand, the counts."""

    path: str
    lines: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys((ACCEPTED, REFUSED, MISPAID_STATUS, MISDEALT, IRREGULAR, INVALID), 0)
    )
    paid: dict[str, int] = field(default_factory=lambda: dict.fromkeys((PAID, MISPAID, UNCHECKED), 0))
    raked: int = 0
    irregular: list[str] = field(default_factory=list)
    unreadable: int = 0  # files that could not be read (their reason is a line)

    @property
    def hands(self) -> int:
        return sum(self.counts.values())

    def add(self, other: Report) -> None:
        self.lines += other.lines
        for name, count in other.counts.items():
            self.counts[name] += count
        for name, count in other.paid.items():
            self.paid[name] += count
        self.raked += other.raked
        self.irregular += other.irregular
        self.unreadable += other.unreadable

    def failed(self) -> bool:
        # Irregular hands do not fail the command: their forced bets are not expressible yet,
        # which says nothing about the rules.
        counts = self.counts
        return bool(counts[REFUSED] or counts[INVALID] or counts[MISPAID_STATUS] or counts[MISDEALT])

    def tally(self, named: str = "") -> str:
        counts = self.counts
        misdealt = f", {counts[MISDEALT]} misdealt" if counts[MISDEALT] else ""
        return (
            f"{counts[ACCEPTED]} accepted, {counts[REFUSED]} refused, {counts[MISPAID_STATUS]} mispaid{misdealt}, "
            f"{counts[IRREGULAR]} irregular{named}, {counts[INVALID]} invalid"
        )


_ENGINES: dict[object, tuple[type[Engine], dict[str, Any]]] = {}


#: While hands are checked, the cyclic garbage collector's first generation is collected after
#: this many allocations at least (Python's default is 700): reading and replaying hands
#: allocates many small objects, few of them in cycles, and the collector's passes over them
#: were a twentieth of check's time (measured). The threshold is restored after, as it was.
COLLECT_AFTER = 100_000


_COLLECTING = threading.Lock()


_collecting: list[Any] = [0, None]  # how many checks run now, the threshold they found


@contextmanager
def _collecting_less() -> Iterator[None]:
    with _COLLECTING:
        if _collecting[0] == 0:
            found = gc.get_threshold()
            _collecting[1] = found
            gc.set_threshold(max(found[0], COLLECT_AFTER), *found[1:])
        _collecting[0] += 1
    try:
        yield
    finally:
        with _COLLECTING:
            _collecting[0] -= 1
            if _collecting[0] == 0:
                gc.set_threshold(*_collecting[1])


def check_part(path: str, part: int, parts: int, structure: Under, options: Mapping[str, Any]) -> Report:
    """Check one share of a file's hands (``part`` of ``parts``, see :func:`loads`): replay each
    under ``structure`` (None: the structure whose betting the hand's variant is) and check its
    pots, an engine class looked up once a process."""
    return check_parts([(path, part, parts)], structure, options)[0]


def check_parts(pieces: Sequence[tuple[str, int, int]], structure: Under, options: Mapping[str, Any]) -> list[Report]:
    """:func:`check_part` of each piece (file, share, shares), the hands of them all replayed
    together (those of one structure by its kernel in one call, where it is compiled): a folder
    of one-hand files (the PHH dataset's) costs one call, not one a file. A worker of
    ``betspec phh check --jobs`` runs this on a run of pieces (:data:`BATCH_BYTES`)."""
    with _collecting_less():
        return _check_parts(pieces, structure, options)


def _engine(structure: str, options: Mapping[str, Any]) -> tuple[type[Engine], dict[str, Any]]:
    try:  # options are mostly numbers: hashed as they are, else by their JSON
        key: object = (structure, frozenset((name, type(value), value) for name, value in options.items()))
        hash(key)
    except TypeError:
        key = json.dumps([structure, dict(options)], sort_keys=True, default=str)
    if key not in _ENGINES:
        _ENGINES[key] = (engine_for(structure, options), dict(options))
    return _ENGINES[key]


def _check_parts(pieces: Sequence[tuple[str, int, int]], structure: Under, options: Mapping[str, Any]) -> list[Report]:
    reports: list[Report] = []
    hands: list[Hand | Bad] = []
    read_from: list[tuple[Report, int, int]] = []  # each report's hands: from, to
    for path, part, parts in pieces:
        report = Report(path)
        reports.append(report)
        try:
            found = read(path, (part, parts))
        except PhhError as exc:
            report.lines.append(f"betspec phh: {exc}")
            report.unreadable = 1
            continue
        read_from.append((report, len(hands), len(hands) + len(found)))
        hands += found
    results = _replayed(hands, structure, options)
    for report, start, end in read_from:
        _report_hands(report, [results[index] for index in range(start, end)])
    return reports


def _report_hands(report: Report, results: Sequence[Replay]) -> None:
    """The lines and counts of a report's hands, replayed: each accepted hand's pots checked."""
    for result in results:
        if result.status == ACCEPTED:
            pots = check_pots(result, unrecorded=False)
            report.paid[pots.status] += 1
            report.raked += pots.rake > 0
            if pots.status == MISPAID:
                result.status = MISPAID_STATUS
                result.detail = f"{pots.detail} ({result.detail})"
            else:
                result.detail = f"{result.detail}; {pots.detail}"
        report.counts[result.status] += 1
        if result.status == IRREGULAR:
            report.irregular.append(result.name)
        report.lines.append(result.line())


def _replayed(hands: Sequence[Hand | Bad], structure: Under, options: Mapping[str, Any]) -> dict[int, Replay]:
    """Each hand (by index) replayed under ``structure``, or under its variant's own: the hands
    of one structure replayed by its kernel in one call where it can, the others one by one."""
    results: dict[int, Replay] = {}
    groups: dict[str, list[int]] = {}
    for index, hand in enumerate(hands):
        if isinstance(hand, Bad):
            results[index] = Replay(hand.name, INVALID, hand.reason)
        else:
            groups.setdefault(structure_of(hand, structure), []).append(index)
    for name, indices in groups.items():
        cls, opts = _engine(name, options)
        # A structure asked for (not the variant's own) may deal other cards than the hands.
        theirs = _structure_game(cls) if structure else None
        played: list[int] = []  # the hands of the group its structure may check
        for index in indices:
            hand = cast(Hand, hands[index])
            other = None if theirs is None else _other_game(hand, theirs, cls.SPEC_NAME)
            if other is not None:
                results[index] = Replay(hand.name, INVALID, other, hand)
            else:
                played.append(index)
        in_c = replayed_in_c([hands[index] for index in played], cls, opts)
        for position, index in enumerate(played):
            results[index] = in_c.get(position) or replay(hands[index], cls, opts)
    return results


#: How each game decides who acts first on a street (cards.Game.opening), as a reader says it.
_OPENINGS = {
    "position": "position",
    "low_card": "the lowest upcard (bring-in) and the highest hand showing",
    "high_card": "the highest upcard (bring-in) and the lowest hand showing",
}


def _structure_game(cls: type[Engine]) -> Game | None:
    """The game a structure's spec deals; None where it declares none (its hands are replayed
    whatever their variant)."""
    from betspec import cards

    try:
        return cards.game_of(cls)
    except cards.CardError:
        return None


def _other_game(hand: Hand, theirs: Game, structure: str) -> str | None:
    """Why a hand cannot be checked under ``structure``, dealt as ``theirs``, a game that decides
    who acts first from other cards than the hand's variant does (a seven-card stud hand under
    razz); None when it can."""
    ours = hand.game
    if theirs.opening == ours.opening:
        return None
    mine, its = _OPENINGS.get(ours.opening, ours.opening), _OPENINGS.get(theirs.opening, theirs.opening)
    return (
        f"a {ours.name} hand ({ours.code}) is not {structure}'s to check: {ours.name} opens each street by "
        f"{mine}, {theirs.name} by {its} (check it under {ours.structure}, or without --structure: each hand "
        "under its variant's)"
    )


#: A log's check-or-call and bet-or-raise, as replay_hands takes them (the first legal then).
_PAIRS = {"cc": ("check", "call"), "cbr": ("bet", "raise")}


def replayed_in_c(hands: Sequence[Hand | Bad], cls: type[Engine], options: Mapping[str, Any]) -> dict[int, Replay]:
    """The hands (by index) that the spec's kernel, where it is compiled, replays to their end in
    one call (:func:`betspec.runtime.batch.replay_hands`), as :func:`replay` reports them; the
    others (refused, irregular, invalid, a stud hand whose cards decide who acts: none of the
    kernel's to judge) are left to :func:`replay`, which says why, as the Python engine does."""
    from betspec.runtime import Table
    from betspec.runtime.batch import kernel

    module = kernel(cls)
    if module is None:
        return {}
    runtime = importlib.import_module("betspec.runtime.kernel")
    # The hands by the options each is played under (the house's and what it declares), each
    # group replayed in one call.
    groups: dict[str, tuple[dict[str, Any], list[int], list[tuple[Table, list[tuple[int, Any, int | None]]]]]] = {}
    names = cls.STREETS
    streets = len(names)
    check_or_call, bet_or_raise = _PAIRS["cc"], _PAIRS["cbr"]
    plain = dict(options)
    for index, hand in enumerate(hands):
        if isinstance(hand, Bad) or hand.game.opening != "position" or hand.first_upcards:
            continue
        steps: list[tuple[int, Any, int | None]] = []
        for act in hand.acts:
            seat, verb = act.seat, act.verb
            if seat < 0:
                if act.street >= streets:
                    break
                steps.append((-1, names[act.street], None))
            elif verb == "f":
                steps.append((seat, "fold", None))
            elif verb == "cc":
                steps.append((seat, check_or_call, None))
            elif verb == "cbr":
                steps.append((seat, bet_or_raise, act.to))
            else:
                break
        else:
            try:
                inputs = table_inputs(hand)
                chosen = hand_options(hand, cls, options) if any(hand.antes) else plain
            except Irregular:
                continue
            if "bring_in_seat" not in inputs:
                key = "" if chosen is plain else json.dumps(chosen, sort_keys=True, default=str)
                group = groups.get(key)
                if group is None:
                    group = groups[key] = (chosen, [], [])
                group[1].append(index)
                group[2].append((Table(**inputs), steps))
    found: dict[int, Replay] = {}
    for chosen, indexes, logged in groups.values():
        ends: list[tuple[int | None, str, bool]] = []
        packed = runtime.Logged(module.KERNEL, logged)  # replay_hands, keeping the steps as taken
        taken = packed.replay(cls, dict(chosen), ends)
        ended = iter(ends)
        for position, (index, (table, steps), answer) in enumerate(zip(indexes, logged, taken, strict=True)):
            if answer >= 0:
                continue
            hand = cast(Hand, hands[index])
            to_act, street, over = next(ended)
            betting = len(steps) - [seat for seat, _, _ in steps].count(-1)
            if over:
                end = street
            elif to_act is not None:
                end = f"{street}, seat {to_act} to act when the history stops"
            else:
                end = f"{street} over, the history stops before the next deal"
            detail = f"{_count(betting, 'action')} and {_count(len(steps) - betting, 'deal')}, {end}"
            result = Replay(hand.name, ACCEPTED, detail, hand, over=bool(over), logged=packed.taken(position))
            result.fresh = lambda table=table, chosen=chosen: cls(table, **chosen)
            found[index] = result
    return found


#: Where ``betspec phh check`` checks: here and in a pool of processes, or on a Ray cluster.


#: A file is split among the workers in shares of about this many bytes (each worker reads the
#: whole document for the file's scale, then turns only its share into hands and checks them),
#: when there are fewer files than twice the workers; else each file is one piece of work.
SHARE_BYTES = 64 * 1024


def phh_files(paths: Sequence[str]) -> list[str]:
    """The files to check: each path given, a folder replaced by its ``.phh`` and ``.phhs`` files
    (recursively, in name order). A path that is neither is kept: reading it says why not."""
    files: list[str] = []
    for path in paths:
        if not os.path.isdir(path):
            files.append(path)
            continue
        found = []
        for folder, subfolders, names in os.walk(path):
            subfolders.sort()
            found += [os.path.join(folder, name) for name in names if name.endswith((".phh", ".phhs"))]
        files += sorted(found)
    return files


#: The pieces checked in one call (:func:`check_parts`) are a run of them of about this many
#: bytes, or :data:`BATCH_PIECES` pieces: the hands of many small files replayed together, and
#: never more than a few shares' hands held at once. A share of a file split among the workers
#: is a run of its own, and with workers the runs are four a worker at least where there are
#: pieces enough, so that the work is still shared out among them.
BATCH_BYTES = 4 * SHARE_BYTES
BATCH_PIECES = 512


def _batches(pieces: Sequence[tuple[str, int, int]], workers: int = 1) -> list[list[tuple[str, int, int]]]:
    """The pieces, in order, in runs checked together (:data:`BATCH_BYTES`)."""
    most = BATCH_PIECES if workers <= 1 else max(1, min(BATCH_PIECES, len(pieces) // (4 * workers)))
    batches: list[list[tuple[str, int, int]]] = []
    run: list[tuple[str, int, int]] = []
    size = 0
    for piece in pieces:
        path, _, shares = piece
        if shares > 1:  # split to be shared among the workers: alone
            if run:
                batches.append(run)
                run, size = [], 0
            batches.append([piece])
            continue
        with _suppress(OSError):  # reading it says why not
            size += os.path.getsize(path)
        run.append(piece)
        if size >= BATCH_BYTES or len(run) >= most:
            batches.append(run)
            run, size = [], 0
    if run:
        batches.append(run)
    return batches


def _pieces(files: Sequence[str], workers: int) -> list[tuple[str, int, int]]:
    """The work: (file, share, shares) in the order the lines are printed."""
    pieces = []
    for path in files:
        shares = 1
        if workers > 1 and len(files) < 2 * workers:
            with _suppress(OSError):
                shares = max(1, min(workers, os.path.getsize(path) // SHARE_BYTES))
        pieces += [(path, share, shares) for share in range(shares)]
    return pieces


def check_files(
    files: Sequence[str],
    structure: Under,
    options: Mapping[str, Any],
    jobs: int = 1,
    backend: str = "processes",
    address: str | None = None,
) -> Iterator[Report]:
    """Each file's report, in the order of ``files`` whatever order the workers finish in: its
    hands checked under ``structure`` (None: each under its variant's own) here (``jobs`` 1),
    over a pool of ``jobs`` processes, or as Ray tasks
    (``backend="ray"``, the cluster at ``address`` or a local one of ``jobs`` CPUs)."""
    structure = checked_under(structure, options)
    workers = jobs if backend == "processes" else max(jobs, 2)
    pieces = _pieces(files, workers)
    options = dict(options)
    batches = _batches(pieces, workers)
    if backend == "ray":
        checked = _on_ray(batches, structure, options, jobs, address)
    elif backend != "processes":
        raise PhhError(f"no phh check backend {backend!r} (backends: {', '.join(BACKENDS)})")
    elif jobs <= 1:
        checked = (check_parts(batch, structure, options) for batch in batches)
    else:
        checked = _on_processes(batches, structure, options, jobs)
    reports = (report for batch in checked for report in batch)
    current: Report | None = None
    for piece, report in zip(pieces, reports, strict=True):
        if piece[1] == 0:
            if current is not None:
                yield current
            current = report
        else:
            assert current is not None
            current.add(report)
    if current is not None:
        yield current


def _on_processes(
    batches: Sequence[Sequence[tuple[str, int, int]]], structure: Under, options: dict[str, Any], jobs: int
) -> Iterator[list[Report]]:
    """The runs of pieces over a pool of processes, a bounded window in flight, their reports in
    order."""
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    work = iter(batches)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        window: deque[Future[list[Report]]] = deque(
            pool.submit(check_parts, batch, structure, options) for batch in itertools.islice(work, 2 * jobs)
        )
        while window:
            reports = window.popleft().result()
            window.extend(pool.submit(check_parts, batch, structure, options) for batch in itertools.islice(work, 1))
            yield reports


def _on_ray(
    batches: Sequence[Sequence[tuple[str, int, int]]],
    structure: Under,
    options: dict[str, Any],
    jobs: int,
    address: str | None,
) -> Iterator[list[Report]]:
    """The runs of pieces as Ray tasks (as ``betspec simulate --on ray`` runs its chunks), a
    bounded window in flight, their reports in order. The files are read where the tasks run: a
    cluster's nodes see them at the same paths."""
    from collections import deque

    with ray_session(jobs, address, PhhError) as ray:
        remote = ray.remote(check_parts)
        window_size = 2 * max(jobs, cluster_cpus(ray, jobs))
        work = iter(batches)
        window: deque[Any] = deque(
            remote.remote(batch, structure, options) for batch in itertools.islice(work, window_size)
        )
        while window:
            reports = cast(list[Report], ray.get(window.popleft()))
            window.extend(remote.remote(batch, structure, options) for batch in itertools.islice(work, 1))
            yield reports
