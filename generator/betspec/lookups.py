"""PokerKit's hand lookups kept as tables, so that ranking a showdown does not import PokerKit.

PokerKit ranks a hand through a lookup: the entry of five cards (a badugi's one to four, a stud
street's upcards) is found by their ranks and whether they share a suit, and entries compare by
their index. ``import pokerkit`` builds every one of its lookups (0.65 s here: ``betspec phh
check`` of a small file spent two thirds of its time on it). This module reads the entries of
each lookup betspec ranks with once, from PokerKit itself, and keeps them beside the build cache
(:func:`betspec.compiled.cache`)::

    <cache>/tables/pokerkit-<sha256 of PokerKit's lookups, hands and state sources>/<name>.json

A table is exactly the lookup it was read from: another PokerKit (any change to those three
sources) reads its own. A table missing, unreadable or not one this module wrote is read from
PokerKit again (and written, where the cache can be written); ``betspec build`` writes them all.
A hand type whose hands are not made this way (a Greek hold'em hand, a hand of another library)
has no table: :func:`betspec.cards.rankings` asks PokerKit's ``from_game`` then.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import itertools
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from betspec import vocabulary

#: How a hand type makes its hand of a seat's cards and the board (PokerKit's classes):
#: ``combination``, the best ``count`` of them all; ``hole_board``, the best of exactly ``hole``
#: of the seat's cards and ``board`` of the board's; ``distinct``, the most cards of distinct
#: ranks and suits, then the best (vocabulary.HANDS' distinct_suits); ``cards``, the cards as
#: they are (a stud street's opening lookup, of the upcards).
SHAPES = ("combination", "hole_board", "distinct", "cards")

#: The opening lookups of a stud street (PokerKit's State: the upcards ranked, in a low game
#: the lowest first), by whether the game is low.
OPENING = {True: "_LowHandOpeningLookup", False: "_HighHandOpeningLookup"}

#: Bumped when a table's form changes.
FORM = 1

_SOURCES = ("lookups.py", "hands.py", "state.py")

#: The ranks a table is read for: every rank PokerKit knows (a short deck's lookup holds fewer).
_RANKS = vocabulary.CARD_RANKS
_SUITS = vocabulary.CARD_SUITS


@dataclass(frozen=True)
class Table:
    """A lookup's entries: the index of the entry of cards whose ranks are ``ranks`` (sorted, as
    text: ``"2578A"``), in ``suited`` where they share a suit, else in ``offsuit``; a ranks with
    no entry makes no hand. ``low``: a smaller index is the better hand."""

    name: str
    shape: str
    low: bool
    count: int  # the cards a hand is made of (combination); 0 for the others
    hole: int  # hole_board's cards of the seat's and of the board
    board: int
    offsuit: dict[str, int]
    suited: dict[str, int]

    def strength(self, ranks: str, suited: bool) -> int | None:
        """The strength of cards of ``ranks`` (sorted), larger the better, or None: no hand."""
        index = (self.suited if suited else self.offsuit).get(ranks)
        return None if index is None else (-index if self.low else index)


_TABLES: dict[str, Table | None] = {}


def installed() -> bool:
    """Whether PokerKit is installed (found without importing it; a module set to None in
    ``sys.modules``, Python's way of barring an import, counts as not installed)."""
    return not _barred() and _folder() is not None


def table(name: str) -> Table | None:
    """The table of PokerKit's hand type or opening lookup ``name``, or None: no PokerKit, or a
    hand type it does not make by one of :data:`SHAPES`."""
    if _barred():
        return None
    if name not in _TABLES:
        folder = _folder()
        _TABLES[name] = None if folder is None else _kept(folder, name)[0]
    return _TABLES[name]


def names() -> list[str]:
    """Every table betspec ranks with: the hand types of vocabulary.HANDS, the opening lookups."""
    return sorted({kind.evaluator for kind in vocabulary.HANDS.values()} | set(OPENING.values()))


def write_all() -> tuple[Path | None, list[str]]:
    """Every table in the cache (``betspec build``), those missing or damaged read from PokerKit
    and written: the folder and the names of the tables there; (None, []) without PokerKit."""
    folder = _folder()
    if folder is None or _barred():
        return None, []
    kept = []
    for name in names():
        found, on_disk = _kept(folder, name)
        if found is not None and on_disk:
            _TABLES[name] = found
            kept.append(name)
    return folder, kept


def _barred() -> bool:
    return sys.modules.get("pokerkit", True) is None


def _kept(folder: Path, name: str) -> tuple[Table | None, bool]:
    """The table of ``name`` in ``folder``, else read from PokerKit and written there, and
    whether it is there now (a cache that cannot be written keeps none)."""
    path = folder / f"{name}.json"
    found = _read(path, name)
    if found is not None:
        return found, True
    found = _from_pokerkit(name)
    return found, found is not None and _write(path, found)


_FOLDER: list[Path | None] = []


def _folder() -> Path | None:
    """This PokerKit's folder of tables, None without PokerKit: found without importing it."""
    if not _FOLDER:
        try:
            spec = importlib.util.find_spec("pokerkit")
        except (ImportError, ValueError):
            spec = None
        places = list(spec.submodule_search_locations or ()) if spec is not None else []
        digest = hashlib.sha256(f"betspec-tables-{FORM}".encode())
        for source in _SOURCES:
            try:
                digest.update(b"\0" + (Path(places[0]) / source).read_bytes())
            except (OSError, IndexError):
                _FOLDER.append(None)
                return None
        from betspec.compiled import cache

        _FOLDER.append(cache() / "tables" / f"pokerkit-{digest.hexdigest()[:32]}")
    return _FOLDER[0]


def _read(path: Path, name: str) -> Table | None:
    """The table written at ``path``, or None: missing, unreadable or not a table of ``name``."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        found = Table(**data)
    except (OSError, ValueError, TypeError):
        return None
    counts = (found.count, found.hole, found.board)
    fields = (found.shape in SHAPES, found.name == name, type(found.low) is bool)
    maps = (found.offsuit, found.suited)
    if not all(fields) or not all(type(c) is int and 0 <= c <= 7 for c in counts):
        return None
    if not all(type(m) is dict and all(type(v) is int for v in m.values()) for m in maps):
        return None
    return found


def _write(path: Path, found: Table) -> bool:
    """Write the table (atomically: a reader sees the whole table or none); False where the cache
    cannot be written (the table is kept in memory only)."""
    data = {name: getattr(found, name) for name in Table.__dataclass_fields__}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{os.getpid()}")
        partial.write_text(json.dumps(data, separators=(",", ":"), sort_keys=True), encoding="utf-8")
        os.replace(partial, path)
    except OSError:
        return False
    return True


def _from_pokerkit(name: str) -> Table | None:
    """The table of ``name`` read from PokerKit's own lookup: the entry of every multiset of one
    to five ranks, its cards of one suit (ranks all distinct) and of suits in turn (clubs,
    diamonds, hearts, spades: distinct for four cards and fewer)."""
    try:
        import pokerkit
        from pokerkit import state
    except ImportError:
        return None
    shape, count, hole, board = _shape(name, pokerkit)
    if shape is None:
        return None
    kind = getattr(pokerkit, name, None) if shape != "cards" else None
    lookup = getattr(state, name)() if kind is None else kind.lookup
    offsuit: dict[str, int] = {}
    suited: dict[str, int] = {}
    for size in range(1, 6):
        for ranks in itertools.combinations_with_replacement(sorted(_RANKS), size):
            key = "".join(ranks)
            patterns = [(offsuit, "".join(f"{r}{_SUITS[i % 4]}" for i, r in enumerate(ranks)))]
            if len(set(ranks)) == size and size > 1:
                patterns.append((suited, "".join(f"{r}{_SUITS[0]}" for r in ranks)))
            for into, cards in patterns:
                try:
                    entry = lookup.get_entry_or_none(cards)
                except ValueError:  # not cards the lookup takes (a badugi of one suit twice)
                    entry = None
                if entry is not None:
                    into[key] = entry.index
    low = kind.low if kind is not None else name == OPENING[True]
    # One card shares its suit with itself: a lookup keys it suited, its table keeps it offsuit.
    return Table(name, shape, bool(low), count, hole, board, offsuit, suited)


def _shape(name: str, pokerkit: Any) -> tuple[str | None, int, int, int]:
    if name in OPENING.values():
        return "cards", 0, 0, 0
    kind: Any = getattr(pokerkit, name, None)
    if not inspect.isclass(kind) or not issubclass(kind, pokerkit.Hand):
        return None, 0, 0, 0
    counts: Any = kind  # PokerKit's classes say how many cards they take
    if issubclass(kind, pokerkit.HoleBoardCombinationHand):
        return "hole_board", 0, counts.hole_card_count, counts.board_card_count
    if issubclass(kind, pokerkit.BoardCombinationHand):
        return None, 0, 0, 0
    if issubclass(kind, pokerkit.CombinationHand):
        return "combination", counts.card_count, 0, 0
    if any(entry.evaluator == name and entry.distinct_suits for entry in vocabulary.HANDS.values()):
        return "distinct", 0, 0, 0
    return None, 0, 0, 0
