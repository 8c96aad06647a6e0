"""Hands of one session, file after file: the stacks each player carries from hand to hand.

A hand ``to_phh`` wrote in a session (:class:`betspec.session.Session`) says its session's id
(``_session``), its number (``hand``) and each player's seat number in the session (``seats``).
``phh check`` follows each session's hands in order of their numbers: each player dealt in starts
with the chips it finished the hand before with, every player who finished with chips is dealt
in, no hand is missing or given twice.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from betspec.tools.phh.document import _document
from betspec.tools.phh.model import PhhError
from betspec.tools.phh.reader import read_text

Amount = int | Decimal


@dataclass
class _Played:
    """What a session's hand says of its players: their seats, and their chips before and after."""

    where: str
    number: int
    seats: tuple[int, ...]
    starting: tuple[Amount, ...]
    finishing: tuple[Amount, ...] | None


@dataclass
class Carried:
    """Each session's hands found, and what broke the chain of stacks (empty: nothing)."""

    hands: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def follow(paths: Sequence[str]) -> Carried:
    """The sessions' hands in the files at ``paths``, checked from hand to hand. A file that
    cannot be read is the main check's to report: it is passed over here."""
    sessions: dict[str, list[_Played]] = {}
    for path in paths:
        try:  # a regular file of at most the bytes betspec reads, as the check itself reads it
            text = read_text(path)
            if "_session" not in text:
                continue  # no hand of a session: nothing to parse twice
            document = _document(text, path)
        except PhhError:
            continue
        tables = [document] if path.endswith(".phh") else [t for t in document.values() if isinstance(t, Mapping)]
        for index, table in enumerate(tables, 1):
            played = _played(table, path if len(tables) == 1 else f"{path} [{index}]")
            if played is not None:
                sessions.setdefault(table["_session"], []).append(played)
    carried = Carried()
    for name, hands in sorted(sessions.items()):
        hands.sort(key=lambda hand: hand.number)
        carried.hands[name] = len(hands)
        carried.problems += [f"session {name}: {problem}" for problem in _chain(hands)]
    return carried


def _played(table: Mapping[str, Any], where: str) -> _Played | None:
    """A session's hand, or None for a hand of no session (or one whose fields do not say it)."""
    name, number, seats = table.get("_session"), table.get("hand"), table.get("seats")
    starting, finishing = table.get("starting_stacks"), table.get("finishing_stacks")
    if not isinstance(name, str) or type(number) is not int or not isinstance(seats, list):
        return None
    if not all(type(seat) is int for seat in seats) or not isinstance(starting, list) or len(starting) != len(seats):
        return None
    amounts = (int, Decimal)
    if not all(isinstance(stack, amounts) for stack in starting):
        return None
    ended = tuple(finishing) if isinstance(finishing, list) and len(finishing) == len(seats) else None
    return _Played(where, number, tuple(seats), tuple(starting), ended)


def _chain(hands: Sequence[_Played]) -> list[str]:
    """What breaks the chain of stacks from each hand to the next."""
    problems: list[str] = []
    for before, after in itertools.pairwise(hands):
        if after.number == before.number:
            problems.append(f"hand {after.number} twice ({before.where}, {after.where})")
            continue
        if after.number != before.number + 1:
            gap = (
                f"hand {before.number + 1}"
                if after.number == before.number + 2
                else (f"hands {before.number + 1} to {after.number - 1}")
            )
            problems.append(f"{gap} missing before {after.where}")
            continue
        if before.finishing is None:
            problems.append(f"hand {before.number} ({before.where}) has no finishing_stacks to carry")
            continue
        left = dict(zip(before.seats, before.finishing, strict=True))
        starts = dict(zip(after.seats, after.starting, strict=True))
        for seat, stack in sorted(starts.items()):
            if left.get(seat) != stack:
                had = "was not dealt in" if seat not in left else f"finished hand {before.number} with {left[seat]}"
                problems.append(f"hand {after.number} ({after.where}): seat {seat} starts with {stack}; it {had}")
        for seat, stack in sorted(left.items()):
            if stack and seat not in starts:
                problems.append(
                    f"hand {after.number} ({after.where}): seat {seat}, with {stack} chips, is not dealt in"
                )
    return problems
