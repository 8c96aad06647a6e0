"""The hand model of PHH: a hand's betting and cards in betspec seats and chips, the errors, and
how a message quotes the file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar

from betspec.cards import (
    GAMES,
    Game,
)
from betspec.runtime.errors import BetspecError, Code, shown

if TYPE_CHECKING:
    pass


#: The PHH variants whose betting betspec replays, by code: hold'em and Omaha (blinds, four
#: rounds and a board), seven-card stud and razz (antes, a bring-in, five rounds), and the draw
#: games (blinds, a draw between rounds). Each is one of betspec's structures
#: (:data:`betspec.cards.GAMES`: the game's deals, evaluators and structure).
VARIANTS: Mapping[str, Game] = GAMES


#: The streets the first, second and third board deals open.
BOARD_STREETS = ("flop", "turn", "river")


#: More decimal places than this is not a currency: refused rather than scaled to huge numbers.
MAX_PLACES = 6


#: The most chips a betspec table takes (betspec.runtime.table.MAX_CHIPS), checked before any
#: huge amount is turned into an int.
MAX_CHIPS = 10**15


#: What a message quotes of a value or an action from the file, at most (in characters).
QUOTED = 60


class PhhError(BetspecError):
    """A file or hand that cannot be read as PHH, or a hand that cannot be written as PHH."""

    code = Code.BAD_PHH.value


class Irregular(PhhError):
    """A valid PHH hand whose forced bets or limits a betspec table cannot express; says why."""

    code = Code.IRREGULAR_PHH.value


@dataclass(frozen=True)
class Act:
    """One betting action or deal of a hand, in betspec seats and chips.

    A deal opens the next street: a board deal (``d db``) in hold'em, the first card of a new
    street (``d dh``) in stud, the first draw (``pN sd``) of a draw round; it is taken just
    before the next betting action (or at the end), so that what the cards of the whole street
    decide is known: in stud, the upcards of every seat still in and the seat that acts first."""

    number: int  # 1-based position in the hand's ``actions`` field, for messages
    text: str  # the notation as the file writes it
    seat: int  # -1 for a deal
    verb: str  # ``f``, ``cc``, ``cbr``, ``pb``, or the street a deal opens (``flop``, ``street 2``)
    to: int | None = None  # a ``cbr``'s amount, in chips
    street: int = 0  # a deal: the index of the street it opens (1 for the second)
    upcards: tuple[tuple[int, tuple[str, ...]], ...] = ()  # a stud deal: each live seat's upcards
    first: int | None = None  # a deal: the seat of the betting action that follows it, if any


_new = object.__new__


_set = object.__setattr__


_Frozen = TypeVar("_Frozen")


def _built(cls: type[_Frozen], fields: dict[str, Any]) -> _Frozen:
    """``cls(**fields)`` for a frozen dataclass given every field, built at a third of the cost:
    its ``__init__`` sets each field through ``object.__setattr__``; this sets them all at once
    (the same object: fields, equality, hash, repr and pickling read them as they read one built
    by its class)."""
    built = _new(cls)
    _set(built, "__dict__", fields)
    return built


def _act(
    number: int,
    text: str,
    seat: int,
    verb: str,
    to: int | None = None,
    street: int = 0,
    upcards: tuple[tuple[int, tuple[str, ...]], ...] = (),
    first: int | None = None,
) -> Act:
    """``Act(...)`` (as :func:`_built` builds one, the call inlined: the commonest object read)."""
    act = _new(Act)
    _set(
        act,
        "__dict__",
        {
            "number": number,
            "text": text,
            "seat": seat,
            "verb": verb,
            "to": to,
            "street": street,
            "upcards": upcards,
            "first": first,
        },
    )
    return act


@dataclass(frozen=True)
class Hand:
    """A PHH hand's betting: every per-player field is in PHH order, which is betspec seat order."""

    path: str
    key: str  # the table name in a .phhs file ("1", "2", ...); "" for a .phh file
    variant: str
    scale: int  # chips per unit of the file's amounts
    starting_stacks: tuple[int | None, ...]  # None: unknown (``inf``)
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    min_bet: int | None
    small_bet: int | None
    big_bet: int | None
    acts: tuple[Act, ...]
    bring_in: int | None = None  # stud and razz: the bring-in
    number: str | None = None  # the ``hand`` field: the site's hand number
    winnings: tuple[int, ...] | None = None  # the ``winnings`` field, where the site recorded it
    header: str = ""  # the file's leading comment, which often says where the hands come from
    finishing_stacks: tuple[int, ...] | None = None  # the ``finishing_stacks`` field, where recorded
    hole: tuple[str, ...] = ()  # each player's cards at the end (dealt, less discards, as last shown)
    board: tuple[str, ...] = ()  # the cards of each board deal
    shows: tuple[tuple[int, str], ...] = ()  # showdowns: (seat, cards shown); "" a muck, "-" shows as dealt
    first_upcards: tuple[tuple[int, tuple[str, ...]], ...] = ()  # stud: each seat's upcard on third street
    first_actor: int | None = None  # the seat of the first betting action
    #: ``ante_trimming_status`` (PHH's default false: a player short of his ante can win all the
    #: antes, which are dead money; true: he wins from each player only as much as he put in).
    ante_trimming: bool = False

    @property
    def game(self) -> Game:
        return GAMES[self.variant]

    @property
    def name(self) -> str:
        return _name(self.path, self.key)

    @property
    def players(self) -> int:
        return len(self.starting_stacks)


@dataclass(frozen=True)
class Bad:
    """A hand of a file that is not valid PHH (or not a variant betspec replays), and why."""

    name: str
    reason: str
    key: str = ""


def _cut(text: str, room: int = QUOTED) -> str:
    """Text from the input, cut short for a message."""
    return text if len(text) <= room else text[: room - 3] + "..."


def _brief(value: object, depth: int = 0) -> str:
    """A value from the file as a message shows it: its repr, cut short, built without ever
    writing out a huge or deeply nested value whole."""
    if depth > 2:
        return "..."
    if isinstance(value, list):
        items = [_brief(item, depth + 1) for item in value[:6]]
        return _cut("[" + ", ".join(items) + (", ..." if len(value) > 6 else "") + "]")
    if isinstance(value, dict):
        pairs = [f"{_cut(str(k), 20)} = {_brief(v, depth + 1)}" for k, v in list(value.items())[:4]]
        return _cut("{" + ", ".join(pairs) + (", ..." if len(value) > 4 else "") + "}")
    if isinstance(value, str):
        return shown(value[: QUOTED + 1])
    if isinstance(value, Decimal):
        return _cut(str(value), 30)
    return shown(value)


def _name(path: str, key: str) -> str:
    return f"{path}[{_cut(key, 30)}]" if key else path


def _per_seat(values: tuple[int, ...]) -> tuple[int, ...]:
    """A per-player forced-bet field by seat: PHH reverses the forced bets heads-up, by rule."""
    return values[::-1] if len(values) == 2 else values


def _unit(chips: int, scale: int) -> str:
    """Chips written in the hand's units, as the file writes them (2, 0.50, 196.20)."""
    places = len(str(scale)) - 1
    whole, part = divmod(chips, scale)
    return str(whole) if part == 0 else f"{whole}.{part:0{places}d}"


def _units(values: Sequence[int], scale: int) -> str:
    return "[" + ", ".join(_unit(v, scale) for v in values) + "]"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
