"""Hand histories in and out: PHH, the notation of the public PHH dataset (https://phh.readthedocs.io).

A ``.phh`` file is one hand written in TOML; a ``.phhs`` file holds several, as tables ``[1]``,
``[2]``, ... Only what concerns betting is read: the forced bets, the stacks, the betting actions
(``pN f``, ``pN cc``, ``pN cbr AMOUNT``) and, from a board deal (``d db``), which street opens.
Cards (hole-card deals, the board, showdowns ``pN sm``) are kept only to check the pots: where a
hand records what each player won (``winnings``) or ended with (``finishing_stacks``),
:func:`check_pots` pays the pots as the engine does, ranking a showdown with PokerKit's hand
evaluators when PokerKit is installed, and compares. Commentaries are skipped.

**Hostile input.** Whatever the bytes, reading gives hands, :class:`Bad` hands with the reason
or a :class:`PhhError` naming the file (and the hand and field): never another exception. A file
is read only if it is a regular file of at most :data:`MAX_FILE_BYTES`; numbers beyond what a
table holds, ``nan``, nesting deeper than TOML is read, and text that is not UTF-8 are refused;
what a message quotes from the input is cut short.

**Seats.** PHH lists the players clockwise from the seat after the button: the first player
posts the small blind, the last has the button. Heads-up the forced bets are read in reverse by
rule (PokerKit's convention too), so the second player, the button, posts the small blind, as a
betspec table has it. betspec seats are 0..n-1 clockwise with an explicit button: player ``pK``
is seat ``K-1`` and the button is seat ``n-1``, whatever the number of players.

**Amounts.** PHH writes amounts as the site did (dollars and cents); betspec counts whole chips.
A file's amounts are multiplied by ``10**d``, ``d`` the most decimal places any betting amount in
the file is written with (``196.20`` counts two), so every hand of a file is in the same unit;
:func:`to_phh` divides by the same scale to write a hand back in the site's units.

Forced bets become the table inputs every spec shares: blinds, straddles and lone blinds seat
by seat, antes for the table or each seat. What does not fit a betspec table (a minimum bet
other than the big blind, unknown stacks) is reported as irregular with its reason by
:func:`table_inputs`, the one place that turns PHH fields into table inputs.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import itertools
import json
import os
import re
import stat
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextlib import suppress as _suppress
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from betspec.cards import (
    GAMES,
    RANKS,
    SUITS,
    CardError,
    Game,
    NoEvaluator,
    known,
    rankings,
    settlement_rankings,
    split_cards,
)
from betspec.cards import bring_in_seat as cards_bring_in_seat
from betspec.cards import open_pair as cards_open_pair
from betspec.cards import opener as cards_opener
from betspec.runtime.errors import BetspecError, Code, shown
from betspec.tools.ray_session import cluster_cpus, ray_session

if TYPE_CHECKING:
    from betspec.cards import Dealer
    from betspec.runtime import Engine, IllegalAction

if sys.version_info >= (3, 11):
    import tomllib
else:  # betspec runs on 3.10, where only reading PHH is unavailable (no tomllib)
    tomllib = None
#: The ``fast`` extra: toml-rs, a compiled (Rust) TOML reader with tomllib's API and results, its
#: ``parse_float`` too; None when not installed (tomllib reads).
_fast_toml: Any
try:
    _fast_toml = importlib.import_module("toml_rs")
except ImportError:
    _fast_toml = None

# The `betspec` command imports this module to register `phh`; the engines are imported where
# they are first used, so the other commands start no slower (the command loads the runtime's
# errors anyway).

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
#: The most a PHH file may hold: a bigger file (or an endless one, such as ``/dev/zero``) is
#: refused, not read into memory. The largest files of the public PHH dataset are a few MB.
MAX_FILE_BYTES = 64 * 1024 * 1024
#: What a message quotes of a value or an action from the file, at most (in characters).
QUOTED = 60
#: A player's seat by its PHH name: ``p1`` .. ``p999`` (a number without a leading zero).
_SEATS = {f"p{number}": number - 1 for number in range(1, 1000)}
_CARDS = re.compile(r"^(?:[2-9TJQKA?][cdhs?])+$")
_NON_SLUG = re.compile(r"[^a-z0-9]+")


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


# ---- reading --------------------------------------------------------------------------------


def read(path: str, part: tuple[int, int] = (0, 1)) -> list[Hand | Bad]:
    """The hands of a ``.phh`` or ``.phhs`` file; raises :class:`PhhError` when the file is unreadable.

    Only a regular file is read, and at most :data:`MAX_FILE_BYTES` of it: a device, a pipe or a
    bigger file is refused before its content is read into memory. ``part`` (see :func:`loads`)
    gives one of several consecutive shares of the hands."""
    try:
        kind = _kind(os.stat(path).st_mode)
        if kind:
            raise PhhError(f"{path}: not a regular file ({kind}): betspec reads PHH from files")
        with open(path, "rb") as handle:
            kind = _kind(os.fstat(handle.fileno()).st_mode)  # the same file, whatever happened since
            if kind:
                raise PhhError(f"{path}: not a regular file ({kind}): betspec reads PHH from files")
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise PhhError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise PhhError(f"{path}: more than {MAX_FILE_BYTES} bytes, the most betspec reads from a PHH file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise PhhError(f"{path}: not UTF-8 text (line {line}, byte {exc.start + 1})") from None
    return loads(text, path, part)


def _kind(mode: int) -> str:
    """What a file that is not a regular one is ("" for a regular file)."""
    if stat.S_ISREG(mode):
        return ""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    return "a socket" if stat.S_ISSOCK(mode) else "not a file"


def loads(text: str, path: str = "<text>", part: tuple[int, int] = (0, 1)) -> list[Hand | Bad]:
    """The hands of PHH text: one hand, or several as tables ``[1]``, ``[2]``, ...

    Raises :class:`PhhError` for text that is not a PHH document at all; a hand that is not valid
    is a :class:`Bad` with the reason, the others are read. ``part=(i, n)`` gives only the i-th of
    n consecutive shares of the hands (what a worker of ``betspec phh check --jobs`` checks), each
    hand as reading them all gives it: the whole document is read for the file's scale."""
    share, shares = part
    if not 0 <= share < shares:
        raise PhhError(f"{path}: no part {share} of {shares}")
    if tomllib is None and _fast_toml is None:
        raise PhhError("reading PHH needs Python 3.11 or later (tomllib), or toml-rs (the fast extra)")
    if not isinstance(text, str):
        raise PhhError(f"{path}: PHH is text (a str), not {type(text).__name__}")
    if len(text) > MAX_FILE_BYTES:
        raise PhhError(f"{path}: more than {MAX_FILE_BYTES} characters, the most betspec reads as PHH")
    if not _fits(len(text), SLOW_BYTES_A_CHARACTER):
        need = len(text) * SLOW_BYTES_A_CHARACTER >> 20
        raise PhhError(
            f"{path}: reading {len(text):,} characters of PHH takes about {need:,} MB more memory "
            "than this process may use"
        )
    try:
        document = _toml(text)
    except RecursionError:
        raise PhhError(f"{path}: arrays or tables nested too deeply to read") from None
    except MemoryError:
        raise PhhError(f"{path}: not enough memory to read {len(text):,} characters of PHH") from None
    except ValueError as exc:
        if isinstance(exc, _DECODE_ERRORS):
            raise PhhError(f"{path}: not TOML: {_cut(str(exc), 200)}") from None
        # Python's limit on the digits of an int (sys.get_int_max_str_digits)
        raise PhhError(f"{path}: an integer with more digits than Python reads; no table holds it") from None
    if "variant" in document:
        raw_hands: list[tuple[str, object]] = [("", document)]
    else:
        raw_hands = list(document.items())
        if not raw_hands:
            raise PhhError(f"{path}: no hand in it (neither a variant field nor tables [1], [2], ...)")
    parsed: list[_Parsed | Bad] = []
    for key, raw in raw_hands:
        try:
            parsed.append(_parse(key, raw))
        except PhhError as exc:
            parsed.append(Bad(_name(path, key), str(exc), key))
    places = max((p.places for p in parsed if isinstance(p, _Parsed)), default=0)
    header = _header(text)
    hands: list[Hand | Bad] = []
    count = len(parsed)
    for item in parsed[count * share // shares : count * (share + 1) // shares]:
        if isinstance(item, Bad):
            hands.append(item)
            continue
        try:
            hands.append(item.hand(path, 10**places, header))
        except PhhError as exc:
            hands.append(Bad(_name(path, item.key), str(exc), item.key))
    return hands


_DECODE_ERRORS: tuple[type[ValueError], ...] = tuple(
    cast(Any, reader).TOMLDecodeError for reader in (tomllib, _fast_toml) if reader is not None
)


def _toml(text: str) -> dict[str, Any]:
    """The TOML document, every float read as the Decimal written (196.20 has two places: the
    scale is read from it). toml-rs (the ``fast`` extra, compiled) reads it when installed, as
    the TOML 1.0.0 tomllib reads and with the same ``parse_float``, so the document is the same;
    whatever it refuses or fails on is read again by tomllib, so that a refusal is tomllib's."""
    if _fast_toml is not None and _fits(len(text)) and _shallow(text) and not _long_number(text):  # (as bytes)
        try:
            document: dict[str, Any] = _fast_toml.loads(text, parse_float=Decimal, toml_version="1.0.0")
            return document
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # a refusal, or a panic of the Rust code (PyO3's is a BaseException)
            if tomllib is None:
                raise
    return cast(dict[str, Any], cast(Any, tomllib).loads(text, parse_float=Decimal))


#: What reading TOML of n characters grows a process's address space by, at most, in bytes a
#: character, as measured (a 60 MB .phhs of 145,750 hands, CPython 3.11 on x86_64): toml-rs 34
#: (2.0 GB), tomllib 19 (1.2 GB). Where the fast reader's would not fit the process's limit or
#: the memory free, tomllib reads the text: toml-rs, failing to allocate, aborts the whole
#: interpreter (a Rust panic), where tomllib raises MemoryError, which is refused as a PhhError.
FAST_BYTES_A_CHARACTER = 40
SLOW_BYTES_A_CHARACTER = 22
#: The text the fast reader takes whatever the limits say it would fit (read at once, measured).
FAST_ALWAYS = 1 << 20


def _fits(characters: int, bytes_a_character: int = FAST_BYTES_A_CHARACTER) -> bool:
    """Whether a reader growing by ``bytes_a_character`` may read ``characters`` of TOML here (by
    default toml-rs): a small text always; a larger one where the growth measured fits both the
    process's address space limit (RLIMIT_AS, less what it uses now) and the memory available
    (Linux's /proc)."""
    if characters <= FAST_ALWAYS:
        return True
    need = characters * bytes_a_character
    limit = _address_space_limit()
    if limit is not None and need + (_proc_kib("/proc/self/status", "VmSize:") or limit) > limit:
        return False
    available = _proc_kib("/proc/meminfo", "MemAvailable:")
    return available is None or need <= available


def _address_space_limit() -> int | None:
    """The process's address space limit in bytes (RLIMIT_AS), or None where there is none."""
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
        return None if limit == resource.RLIM_INFINITY or limit < 0 else limit
    except (ImportError, OSError, ValueError):
        return None


def _proc_kib(path: str, field: str) -> int | None:
    """A ``field: N kB`` line of a /proc file, in bytes; None where there is none (not Linux)."""
    with _suppress(OSError, ValueError, IndexError), open(path, encoding="ascii") as lines:
        for line in lines:
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    return None


#: The deepest nesting of arrays and inline tables handed to the fast reader: toml-rs 0.4 crashes
#: the process (a stack overflow in Rust) on some thousands; PHH nests two deep.
FAST_DEPTH = 32
_INNERMOST = re.compile(r"\[\]|\{\}")


#: Every byte but the brackets (deleted from UTF-8 text, they leave its brackets: no byte of a
#: character beyond ASCII is one).
_NOT_BRACKET_BYTES = bytes(byte for byte in range(256) if byte not in b"[]{}")
#: Digits and underscores as 1, every other byte as 0 (a run of them: a number's digits).
_DIGIT_BYTES = bytes.maketrans(bytes(range(256)), bytes(int(chr(byte) in "0123456789_") for byte in range(256)))


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _shallow(text: str) -> bool:
    """Whether the brackets of ``text`` nest at most :data:`FAST_DEPTH` deep: each pass removes
    the innermost pairs. Brackets inside strings and comments count too, which can only send a
    file to tomllib."""
    brackets = _utf8(text).translate(None, _NOT_BRACKET_BYTES).decode("ascii")
    for _ in range(FAST_DEPTH):
        if not brackets:
            return True
        brackets, removed = _INNERMOST.subn("", brackets)
        if not removed:
            return False
    return not brackets


def _long_number(text: str) -> bool:
    """Whether ``text`` may hold a decimal integer longer than Python reads from text
    (``sys.get_int_max_str_digits``): toml-rs reads it, tomllib refuses it, and tomllib's answer is
    the one given."""
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    return bool(limit) and b"\x01" * (limit + 1) in _utf8(text).translate(_DIGIT_BYTES)


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


def _header(text: str) -> str:
    """The comment lines a file opens with, joined: where the hands come from, as a rule."""
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("#"):
            break
        lines.append(stripped.lstrip("#").strip())
    return " ".join(line for line in lines if line)


@dataclass
class _Parsed:
    """A hand as written, amounts still Decimal: the file's scale is known once all are read."""

    key: str
    variant: str
    amounts: dict[str, Any]
    acts: list[Act]  # a bet or raise's ``to`` not yet known: None until scaled
    number: str | None
    places: int = 0
    cards: _Cards | None = None
    bets: list[tuple[int, Decimal | int]] = field(default_factory=list)  # (index in acts, amount as written)

    def hand(self, path: str, scale: int, header: str) -> Hand:
        amounts = self.amounts

        def chip_list(name: str) -> tuple[int, ...]:
            values = amounts[name]
            fast = _scaled(values, scale)  # at once, each one named only where one is too many chips
            return fast if fast is not None else tuple(_chips(v, f"{name}[{i}]", scale) for i, v in enumerate(values))

        def optional(name: str) -> int | None:
            value = amounts.get(name)
            return None if value is None else _chips(value, name, scale)

        written = amounts["starting_stacks"]
        stacks: tuple[int | None, ...] | None = _scaled(written, scale)
        if stacks is None:
            stacks = tuple(
                None if v is None else _chips(v, f"starting_stacks[{i}]", scale) for i, v in enumerate(written)
            )
        acts = list(self.acts)
        for index, amount in self.bets:
            act = acts[index]
            to = int(amount * scale)
            if to > MAX_CHIPS:  # (exact: see _chips) named only for the message
                _chips(amount, f"action {act.number} {_brief(act.text)}", scale)
            acts[index] = _act(act.number, act.text, act.seat, act.verb, to, act.street, act.upcards, act.first)
        cards = self.cards or _Cards([], [], [])
        bring_in = amounts.get("bring_in")
        return _built(  # Hand(...), every field in its order
            Hand,
            {
                "path": path,
                "key": self.key,
                "variant": self.variant,
                "scale": scale,
                "starting_stacks": stacks,
                "antes": chip_list("antes"),
                "blinds_or_straddles": chip_list("blinds_or_straddles"),
                "min_bet": optional("min_bet"),
                "small_bet": optional("small_bet"),
                "big_bet": optional("big_bet"),
                "acts": tuple(acts),
                "bring_in": None if bring_in is None else _chips(bring_in, "bring_in", scale),
                "number": self.number,
                "winnings": chip_list("winnings") if "winnings" in amounts else None,
                "header": header,
                "finishing_stacks": chip_list("finishing_stacks") if "finishing_stacks" in amounts else None,
                "hole": tuple(["".join(held) for held in cards.hole]),
                "board": tuple(cards.board),
                "shows": tuple(cards.shows),
                "first_upcards": tuple(cards.first_upcards),
                "first_actor": cards.first_actor,
                "ante_trimming": "ante_trimming_status" in amounts,
            },
        )


def _chips(value: Decimal | int, what: str, scale: int) -> int:
    """An amount as written, in chips (times ``scale``); refused where a table cannot hold it."""
    scaled = value * scale  # exact: at most 10**15 with 6 places, times 10**6 at most
    if scaled > MAX_CHIPS:
        unit = "" if scale == 1 else f" in chips of 1/{scale}"
        raise PhhError(f"{what} is more chips{unit} than a table holds ({_brief(value)}; {MAX_CHIPS} at most)")
    return int(scaled)


def _scaled(values: Sequence[Decimal | int | None], scale: int) -> tuple[int, ...] | None:
    """Each amount in chips (times ``scale``, exact), or None where one is unknown or more chips
    than a table holds (each is then turned one by one, to say which)."""
    if None in values:
        return None
    chips = tuple([value * scale if type(value) is int else int(value * scale) for value in values])  # type: ignore[operator]
    return chips if not chips or max(chips) <= MAX_CHIPS else None


@dataclass
class _Cards:
    """The cards a hand's actions write: each seat's cards, board deals, showdowns."""

    hole: list[list[str]]
    board: list[str]
    shows: list[tuple[int, str]]
    first_upcards: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)
    first_actor: int | None = None
    #: Every card moved, in order, for the deck's check (:func:`_check_deck`): (what, seat, cards),
    #: what one of _DEALT, _BOARD_DEALT, _DISCARDED, _SHOWN, _OPENED (a street opened: a card
    #: burned before its deal, as dealers do and PHH does not write), _FOLDED (the seat's cards
    #: mucked: with the discards, what a dealer shuffles when the deck runs out), _BETTING_STARTS (the
    #: first betting action after a street's deals: the street, as seat; each player still in
    #: holds its cards by then).
    moves: list[tuple[int, int, tuple[str, ...]]] = field(default_factory=list)


_DEALT, _BOARD_DEALT, _DISCARDED, _SHOWN, _OPENED, _FOLDED, _BETTING_STARTS = range(7)


def _places(value: Decimal | int) -> int:
    """The decimal places ``value`` is written with (0 for an int): read from its text, which
    says it in positional notation, else from its exponent."""
    if type(value) is int:
        return 0
    text = str(value)
    if "E" in text and isinstance(value, Decimal):
        exponent = value.as_tuple().exponent
        return max(0, -exponent) if isinstance(exponent, int) else 0
    dot = text.find(".")
    return 0 if dot < 0 else len(text) - dot - 1


#: An amount of this many digits or more is more chips than a table holds (see :func:`_amount`).
_TOO_MANY_DIGITS = 10 ** len(str(MAX_CHIPS))


def _plain(value: object) -> bool:
    """Whether ``value`` is an amount :func:`_amount` takes as it is, without a word to say: an int
    or a finite Decimal, not negative, of fewer digits than :data:`_TOO_MANY_DIGITS` and at most
    :data:`MAX_PLACES` places (the common case, checked at once; any other goes to _amount)."""
    if type(value) is int:
        return bool(0 <= value < _TOO_MANY_DIGITS)
    if type(value) is Decimal:
        return (
            value.is_finite() and not value.is_signed() and value.adjusted() < _DIGITS and _places(value) <= MAX_PLACES
        )
    return False


_DIGITS = len(str(MAX_CHIPS))


def _amount(value: object, what: str, *, unknown: bool = False) -> Decimal | int | None:
    """A PHH amount (TOML integer or float) as a Decimal (an int as it is where it is plain, see
    :func:`_plain`); ``inf`` is None where PHH allows it.

    Checked before any arithmetic: no amount is bigger than a table holds or written with more
    than :data:`MAX_PLACES` decimals, so none overflows or turns into a huge int later."""
    if (type(value) is int or type(value) is Decimal) and _plain(value):
        return value
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise PhhError(f"{what} must be a number, not {_brief(value)}")
    amount = Decimal(value)
    if amount.is_nan():
        raise PhhError(f"{what} is not a number (nan)")
    if amount.is_infinite():
        if unknown and amount > 0:
            return None
        raise PhhError(f"{what} cannot be {_brief(value)}")
    if amount.is_signed() and amount:
        raise PhhError(f"{what} cannot be negative ({_brief(amount)})")
    if _places(amount) > MAX_PLACES:
        raise PhhError(f"{what} has more than {MAX_PLACES} decimal places ({_brief(amount)})")
    if amount and amount.adjusted() >= len(str(MAX_CHIPS)):  # adjusted(): the power of ten of its first digit
        raise PhhError(f"{what} is more chips than a table holds ({_brief(amount)}; {MAX_CHIPS} at most)")
    return amount


def _amounts(
    raw: Mapping[str, object], name: str, n: int, *, unknown: bool = False
) -> tuple[list[Decimal | int | None], int]:
    """The field's amounts, one a player, each checked (:func:`_amount`), and the most decimal
    places one is written with."""
    values = raw[name]
    if not isinstance(values, list) or len(values) != n:
        raise PhhError(f"{name} must list one amount per player ({n}), not {_brief(values)}")
    most = 0
    for value in values:  # the common case at once: plain amounts (_plain), taken as they are
        if type(value) is int:
            if not 0 <= value < _TOO_MANY_DIGITS:
                break
        elif type(value) is Decimal and value.is_finite() and not value.is_signed() and value.adjusted() < _DIGITS:
            places = _places(value)
            if places > MAX_PLACES:
                break
            most = max(most, places)
        else:
            break
    else:
        return values, most
    checked = [_amount(v, f"{name}[{i}]", unknown=unknown) for i, v in enumerate(values)]
    return checked, max((_places(v) for v in checked if v is not None), default=0)


#: The PHH fields of each kind of limits (:attr:`betspec.cards.Game.limits`).
LIMIT_FIELDS: Mapping[str, tuple[str, ...]] = {
    "min_bet": ("min_bet",),
    "bets": ("small_bet", "big_bet"),
    "bring_in": ("bring_in", "small_bet", "big_bet"),
}


_REQUIRED: dict[str, tuple[Game, tuple[str, ...]]] = {}


def _required(game: Game) -> tuple[str, ...]:
    """The fields a hand of ``game`` must have, in the order a missing one is named (once a game,
    as _deals)."""
    found = _REQUIRED.get(game.code)
    if found is None or found[0] is not game:
        # Stud has no blinds: PHH leaves the field out (zeros if written).
        forced = ("antes",) if game.limits == "bring_in" else ("antes", "blinds_or_straddles")
        found = _REQUIRED[game.code] = (game, (*forced, "starting_stacks", "actions", *LIMIT_FIELDS[game.limits]))
    return found[1]


def _parse(key: str, raw: object) -> _Parsed:
    if not isinstance(raw, dict):
        raise PhhError(f"[{_cut(key, 30)}] is not a table of fields" if key else "not a table of fields")
    variant = raw.get("variant")
    if not isinstance(variant, str):
        raise PhhError("no variant field" if variant is None else f"variant must be a string, not {_brief(variant)}")
    game = VARIANTS.get(variant)
    if game is None:
        known_codes = ", ".join(VARIANTS)
        raise PhhError(f"variant {_brief(variant)} is not one betspec replays: it reads {known_codes}")
    limits = LIMIT_FIELDS[game.limits]
    for name in _required(game):
        if name not in raw:
            raise PhhError(f"no {name} field (a hand of variant {variant} must have one)")
    stacks_raw = raw["starting_stacks"]
    if not isinstance(stacks_raw, list) or len(stacks_raw) < 2:
        raise PhhError(f"starting_stacks must list two players or more, not {_brief(stacks_raw)}")
    n = len(stacks_raw)
    amounts: dict[str, Any] = {}
    places = 0  # the most decimal places an amount is written with
    for name in ("antes", "blinds_or_straddles", "starting_stacks"):
        if name in raw:
            amounts[name], most = _amounts(raw, name, n, unknown=name == "starting_stacks")
            places = max(places, most)
        else:
            amounts[name] = [Decimal(0)] * n
    if 0 in amounts["starting_stacks"]:  # (None, unknown, is not 0)
        zero = amounts["starting_stacks"].index(0)
        raise PhhError(f"starting_stacks[{zero}] is 0: PHH stacks are positive")
    for name in limits:
        amounts[name] = limit = _amount(raw[name], name)
        if limit is not None:
            places = max(places, _places(limit))
    for name in ("winnings", "finishing_stacks"):  # recorded by some sites: what each won, or ended with
        if name in raw:
            amounts[name], most = _amounts(raw, name, n)
            places = max(places, most)
    trimming = raw.get("ante_trimming_status", False)
    if type(trimming) is not bool:
        raise PhhError(f"ante_trimming_status must be true or false, not {_brief(trimming)}")
    if trimming:
        amounts["ante_trimming_status"] = True
    number = raw.get("hand")
    if number is not None and (isinstance(number, bool) or not isinstance(number, str | int)):
        raise PhhError(f"hand must be a name or a number, not {_brief(number)}")
    cards = _Cards([[] for _ in range(n)], [], [])
    bets: list[tuple[int, Decimal | int]] = []
    acts = _parse_actions(raw["actions"], n, game, cards, bets)
    for _, amount in bets:
        places = max(places, _places(amount))
    if type(number) is int and -_TOO_MANY_DIGITS < number < _TOO_MANY_DIGITS:
        hand_number: str | None = repr(number)  # as shown() writes it, at once
    else:
        hand_number = None if number is None else _cut(number if isinstance(number, str) else shown(number), 200)
    return _Parsed(key, variant, amounts, acts, hand_number, places, cards, bets)


_BETTING = frozenset({"f", "cc", "cbr", "pb"})


#: What is worked out once a game, by its code (with the game it is for: a Game hashes slowly).
_DEALS: dict[str, tuple[Game, list[int], list[bool]]] = {}


def _deals(game: Game) -> tuple[list[int], list[bool]]:
    """A game's hole cards dealt by the end of each street, and whether each is face up (as dealt
    in order): worked out once a game."""
    found = _DEALS.get(game.code)
    if found is None or found[0] is not game:
        per_street = [len(statuses) for statuses in game.hole]
        dealt_by_street = [sum(per_street[: i + 1]) for i in range(len(per_street))]
        statuses = [status for street_statuses in game.hole for status in street_statuses]
        found = _DEALS[game.code] = (game, dealt_by_street, statuses)
    return found[1], found[2]


def _parse_actions(
    actions: object, n: int, game: Game, cards: _Cards, bets: list[tuple[int, Decimal | int]]
) -> list[Act]:
    """The betting actions and street deals of a hand; its cards kept in ``cards``.

    Streets open as the game deals them: a board deal in hold'em; in stud, the first card of a
    street (a seat's fourth card opens fourth street); in draw games the first draw after a
    betting round. A deal is placed just before the betting action that follows it. A bet or
    raise is an Act without its amount: ``bets`` gets its index and the amount as written."""
    if not isinstance(actions, list):
        raise PhhError(f"actions must be a list of strings, not {_brief(actions)}")
    acts: list[Act] = []
    street = 0  # the streets opened so far after the first
    pending: list[tuple[int, str]] = []  # deals to place: (action number, text)
    folded: set[int] = set()
    drawn: set[int] = set()  # seats that drew in the current draw round
    betting_since_draw = True
    dealt_by_street, statuses = _deals(game)
    dealt = [0] * n  # hole cards dealt to each seat, draws' replacements aside (stud's streets)
    stud = not game.draw and game.opening != "position"
    # Where position decides who acts (not stud), the commonest lines are taken at once, as
    # read once (_line); any other, and any the hand's players or streets do not allow, below.
    at_once = game.opening == "position"
    lines = _LINES

    def open_street(number: int, text: str) -> None:
        nonlocal street
        if street + 1 >= game.streets:
            raise PhhError(
                f"action {number} {_brief(text)}: a deal after the last street ({game.name} has {game.streets})"
            )
        street += 1
        pending.append((number, text))
        cards.moves.append((_OPENED, -1, ()))

    def place(first: int | None) -> None:
        if first is not None:  # a betting action follows: the street's deals are done
            cards.moves.append((_BETTING_STARTS, street, ()))
        for i, (number, text) in enumerate(pending):
            opened = street - len(pending) + i + 1
            ups: tuple[tuple[int, tuple[str, ...]], ...] = ()
            if game.opening != "position":
                ups = tuple(
                    (seat, tuple(c for c, up in zip(held, statuses, strict=False) if up))
                    for seat, held in enumerate(cards.hole)
                    if seat not in folded
                )
            verb = BOARD_STREETS[opened - 1] if game.board[opened] else f"street {opened + 1}"
            last = i == len(pending) - 1
            acts.append(_act(number, text, -1, verb, None, opened, ups, first if last else None))
        pending.clear()

    for number, text in enumerate(actions, 1):
        if at_once and type(text) is str:
            line = lines.get(text)
            if line is None:
                line = _line(text)
                if len(text) <= _LINE_KEPT:
                    if len(lines) > _LINES_KEPT:
                        lines.clear()
                    lines[text] = line
            kind = line[0]
            if kind == _NO_OP:
                continue
            if kind == _HOLE and line[1] < n:
                cards.hole[line[1]] += line[2]
                cards.moves.append((_DEALT, line[1], line[2]))
                continue
            if kind == _BETTING_LINE and line[1] < n:
                seat = line[1]
                if pending:
                    place(seat)
                if cards.first_actor is None:
                    cards.first_actor = seat
                    cards.moves.append((_BETTING_STARTS, 0, ()))
                betting_since_draw = True
                verb, amount, built = line[2], line[3], line[4]
                if verb == "f":
                    folded.add(seat)
                    cards.moves.append((_FOLDED, seat, ()))
                elif amount is not None:
                    bets.append((len(acts), amount))
                act = built.get(number)  # an Act is immutable: one a text and number, shared
                if act is None:
                    act = built[number] = _act(number, text, seat, verb)
                acts.append(act)
                continue
            if kind == _BOARD and any(game.board[street + 1 :]):
                open_street(number, text)
                place(None)
                cards.board += line[1]
                cards.moves.append((_BOARD_DEALT, -1, line[1]))
                continue
            if kind == _SHOW and line[1] < n:
                if line[3] is not None:
                    cards.hole[line[1]] = list(line[3])  # the cards it holds, now known
                    cards.moves.append((_SHOWN, line[1], line[3]))
                cards.shows.append((line[1], line[2]))  # no cards: a muck
                continue
        if not isinstance(text, str):
            raise PhhError(f"action {number} must be a string, not {_brief(text)}")
        words = (text.split("#", 1)[0] if "#" in text else text).split()  # what follows '#' is commentary
        if not words:
            continue  # a no-op
        if words[0] == "d":
            if len(words) == 4 and words[1] == "dh" and _cards(words[3]) is not None:
                seat = _seat(words[2], n, number, text)
                new = _cards(words[3]) or ()
                if stud:  # stud: the cards say the street
                    reached = dealt[seat] + len(new)
                    if reached > len(statuses):
                        raise PhhError(
                            f"{_where(number, text)}: more cards than {game.name} deals a player ({len(statuses)})"
                        )
                    while street + 1 < game.streets and reached > dealt_by_street[street]:
                        open_street(number, text)
                    dealt[seat] = reached
                cards.hole[seat] += new
                cards.moves.append((_DEALT, seat, new))
                continue
            if len(words) == 3 and words[1] == "db" and _cards(words[2]) is not None:
                if not any(game.board[street + 1 :]):
                    if any(game.board):
                        raise PhhError(
                            f"{_where(number, text)}: a fourth board deal (hold'em deals flop, turn and river)"
                        )
                    raise PhhError(f"{_where(number, text)}: a board deal {game.name} does not make")
                open_street(number, text)
                # Hold'em's board deal is where the street opens: placed at once.
                place(None)
                board = tuple(split_cards(words[2]))
                cards.board += board
                cards.moves.append((_BOARD_DEALT, -1, board))
                continue
            raise PhhError(
                f"{_where(number, text)}: not a deal of hole cards (d dh pN CARDS) or of the board (d db CARDS)"
            )
        seat = _seat(words[0], n, number, text)
        verb = words[1] if len(words) > 1 else ""
        if verb in _BETTING:
            if pending:
                place(seat)
            if cards.first_actor is None:
                cards.first_actor = seat
                cards.moves.append((_BETTING_STARTS, 0, ()))
                if game.opening != "position":
                    cards.first_upcards = [
                        (s, tuple(c for c, up in zip(held, statuses, strict=False) if up))
                        for s, held in enumerate(cards.hole)
                    ]
            betting_since_draw = True
        if verb in ("f", "cc", "pb") and len(words) == 2:
            if verb == "pb" and game.limits != "bring_in":
                raise PhhError(f"{_where(number, text)}: a bring-in (pb) in {game.name}, which has none")
            if verb == "f":
                folded.add(seat)
                cards.moves.append((_FOLDED, seat, ()))
            acts.append(_act(number, text, seat, verb))
        elif verb == "cbr" and len(words) == 3:
            try:
                amount = Decimal(words[2])
            except InvalidOperation:
                raise PhhError(f"{_where(number, text)}: the amount is not a number") from None
            checked = amount if _plain(amount) else _amount(amount, _where(number, text))
            if checked is None or checked == 0:
                raise PhhError(f"{_where(number, text)}: a bet or raise is to a positive amount")
            bets.append((len(acts), checked))
            acts.append(_act(number, text, seat, verb))
        elif verb == "sm" and len(words) <= 3:
            showing = words[2] if len(words) == 3 else ""
            if showing not in ("", "-") and _cards(showing) is not None:
                cards.hole[seat] = split_cards(showing)  # the cards it holds, now known
                cards.moves.append((_SHOWN, seat, tuple(cards.hole[seat])))
            cards.shows.append((seat, showing))  # no cards: a muck
        elif verb == "sd" and len(words) <= 3 and game.draw:
            if betting_since_draw or seat in drawn:
                open_street(number, text)
                drawn.clear()
                betting_since_draw = False
            drawn.add(seat)
            if len(words) == 3:
                if not _CARDS.match(words[2]):
                    raise PhhError(f"{_where(number, text)}: {_brief(words[2])} are not cards")
                held = cards.hole[seat]
                thrown = tuple(split_cards(words[2]))
                for card in thrown:
                    if card in held:
                        held.remove(card)
                    elif "??" in held:
                        held.remove("??")
                    else:
                        raise PhhError(f"{_where(number, text)}: p{seat + 1} discards {card}, which it does not hold")
                cards.moves.append((_DISCARDED, seat, thrown))
        elif game.draw:
            raise PhhError(
                f"{_where(number, text)}: not a draw game's action (f, cc, cbr AMOUNT, sd [CARDS], sm [CARDS])"
            )
        elif game.limits == "bring_in":
            raise PhhError(f"{_where(number, text)}: not a stud action (f, cc, cbr AMOUNT, pb, sm [CARDS])")
        else:
            raise PhhError(f"{_where(number, text)}: not a hold'em action (f, cc, cbr AMOUNT, sm [CARDS])")
    place(None)
    _check_deck(game, cards.moves, n, dealt_by_street)
    return acts


def _check_deck(
    game: Game, moves: Sequence[tuple[int, int, tuple[str, ...]]], n: int, dealt_by_street: Sequence[int]
) -> None:
    """Raise :class:`PhhError` where the hand's cards cannot come from one deck of its game: a
    card that is not the deck's (a deuce in short deck), a card in two places at once (two
    players, one player twice, the board and a hand), a card dealt again after it was discarded
    or mucked before the deck ran out, a showdown of cards other than those dealt, or a player
    still in who holds more or fewer hole cards than the game deals by a street
    (``dealt_by_street``) when its betting starts or at the showdown. Unknown cards (``??``) are
    allowed where PHH allows them; a history may stop anywhere (PHH's partial histories), and one
    that writes no hole card at all is not counted."""
    ranks = RANKS[4:] if game.short_deck else RANKS
    size = 4 * len(ranks)
    where: dict[str, int] = {}  # a known card in play -> the seat holding it (-1: the board)
    discarded: dict[str, int] = {}  # a known card discarded -> the seat that discarded it
    held = [0] * n  # hole cards each seat holds, known or not
    out: set[int] = set()  # seats folded
    street = 0
    dealt = 0
    # A history that writes no hole cards at all has them unknown, not wrong (betting and board
    # alone): its counts are not checked; one that deals to some players deals to all.
    records_deal = any(what == _DEALT for what, _, _ in moves)

    def named(seat: int) -> str:
        return "the board" if seat < 0 else f"p{seat + 1}"

    def place(card: str, seat: int, doing: str) -> None:
        """``card`` comes into play at ``seat`` (-1: the board), ``doing`` saying how."""
        if card[0] not in ranks or card[1] not in SUITS:
            raise PhhError(f"{card}, {doing}, is not a card of {game.name}'s {size}-card deck")
        other = where.get(card)
        if other is not None:
            held_by = "on the board" if other < 0 else f"held by {named(other)}" + (" already" if other == seat else "")
            raise PhhError(f"{card} is {doing} and {held_by}: a deck holds each card once")
        if card in discarded and dealt <= size:  # (burned cards counted: one a street)
            raise PhhError(
                f"{card} is dealt to {named(seat)} after {named(discarded[card])} discarded it, "
                f"before the deck ran out ({dealt} of {size} cards dealt)"
            )
        where[card] = seat

    for what, seat, cards in moves:
        if what == _OPENED:
            dealt += 1  # the card burned before the street's deal
        elif what == _FOLDED:
            out.add(seat)
            for card in [card for card, holder in where.items() if holder == seat]:
                del where[card]
                discarded[card] = seat
        elif what == _BETTING_STARTS:
            street = seat  # (the street is in the seat's place)
            if not records_deal:
                continue
            for player in range(n):
                if player not in out and held[player] != dealt_by_street[street]:
                    raise PhhError(
                        f"p{player + 1} holds {held[player]} hole cards when the betting of street {street + 1} "
                        f"starts; {game.name} deals {dealt_by_street[street]} by then"
                    )
        elif what in (_DEALT, _BOARD_DEALT):
            for card in cards:
                dealt += 1
                if "?" not in card:
                    place(card, seat, f"dealt to {named(seat)}" if seat >= 0 else "dealt on the board")
            if seat >= 0:
                held[seat] += len(cards)
        elif what == _DISCARDED:
            held[seat] -= len(cards)
            for card in cards:
                if "?" not in card:
                    where.pop(card, None)
                    discarded[card] = seat
        else:  # shown: the cards the seat holds, those dealt unknown now known
            mine = {card for card, holder in where.items() if holder == seat}
            shown = {card for card in cards if "?" not in card}
            if not mine <= shown:
                hidden = " ".join(sorted(mine - shown))
                raise PhhError(f"p{seat + 1} shows {_cut(''.join(cards))}, but was dealt {hidden}")
            if len(cards) != held[seat]:
                raise PhhError(f"p{seat + 1} shows {len(cards)} cards and holds {held[seat]}")
            if held[seat] < dealt_by_street[street]:
                raise PhhError(f"p{seat + 1} shows {held[seat]} cards; {game.name} deals {dealt_by_street[street]}")
            for card in sorted(shown - mine):
                place(card, seat, f"shown by {named(seat)}")


#: What an action's text is, as _parse_actions takes it at once where position decides who acts:
#: (_NO_OP,), (_HOLE, seat, cards), (_BOARD, cards), (_BETTING_LINE, seat, verb, amount or None,
#: its Acts by action number) for ``f``, ``cc`` and ``cbr`` (a plain positive amount; its Act
#: without its amount, given once scaled), (_SHOW, seat, shown, cards or None);
#: (_OTHER,) for anything else, read by the general code (which words its refusal).
_NO_OP, _HOLE, _BOARD, _BETTING_LINE, _SHOW, _OTHER = range(6)
#: The texts read so far (of at most _LINE_KEPT characters), emptied when it grows large.
_LINES: dict[str, tuple[Any, ...]] = {}
_LINE_KEPT = 64
_LINES_KEPT = 65536


def _line(text: str) -> tuple[Any, ...]:
    """What an action's text is (see :data:`_LINES`); seats still to check against the hand's."""
    words = (text.split("#", 1)[0] if "#" in text else text).split()  # what follows '#' is commentary
    if not words:
        return (_NO_OP,)
    if words[0] == "d":
        if len(words) == 4 and words[1] == "dh":
            held, seat = _cards(words[3]), _SEATS.get(words[2])
            if held is not None and seat is not None:
                return (_HOLE, seat, held)
        elif len(words) == 3 and words[1] == "db":
            board = _cards(words[2])
            if board is not None:
                return (_BOARD, board)
        return (_OTHER,)
    seat = _SEATS.get(words[0])
    if seat is None or len(words) < 2:
        return (_OTHER,)
    verb = words[1]
    if len(words) == 2 and verb in ("f", "cc"):
        return (_BETTING_LINE, seat, verb, None, {})
    if len(words) == 3 and verb == "cbr":
        try:
            amount = Decimal(words[2])
        except InvalidOperation:
            return (_OTHER,)
        return (_BETTING_LINE, seat, verb, amount, {}) if _plain(amount) and amount else (_OTHER,)
    if verb == "sm" and len(words) <= 3:
        showing = words[2] if len(words) == 3 else ""
        return (_SHOW, seat, showing, None if showing in ("", "-") else _cards(showing))
    return (_OTHER,)


#: Text of cards read so far (of at most _LINE_KEPT characters), as its cards (None: not cards);
#: emptied when it grows large.
_CARD_TEXTS: dict[str, tuple[str, ...] | None] = {}


def _cards(text: str) -> tuple[str, ...] | None:
    """``text`` as cards (``"AhKs??"`` as ``("Ah", "Ks", "??")``), or None where it is not cards."""
    found = _CARD_TEXTS.get(text, _NOT_READ)
    if found is _NOT_READ:  # not read yet (kept where it is short: a line's cards)
        found = tuple(split_cards(text)) if _CARDS.match(text) else None
        if len(text) <= _LINE_KEPT:
            if len(_CARD_TEXTS) > 4096:
                _CARD_TEXTS.clear()
            _CARD_TEXTS[text] = found
    return cast("tuple[str, ...] | None", found)


_NOT_READ: Any = object()


def _seat(word: str, n: int, number: int, text: str) -> int:
    seat = _SEATS.get(word, n)
    if seat >= n:
        raise PhhError(f"{_where(number, text)}: {_brief(word)} is not a player (p1 .. p{n})")
    return seat


def _where(number: int, text: str) -> str:
    """An action as a message names it (built only for a message)."""
    return f"action {number} {_brief(text)}"


# ---- PHH fields to a betspec table ------------------------------------------------------------


def table_inputs(hand: Hand) -> dict[str, Any]:
    """The table of a hand as a case writes it (``stacks``, ``button`` and the spec's inputs).

    The forced bets become the inputs every structure shares (``betting_round.json``): two blinds
    on the two seats after the button (the button and the other seat heads-up) are ``blinds``;
    any other pattern (a straddle, a lone blind, blinds out of order) is posted seat by seat with
    ``blinds_by_seat`` and ``seat_blinds``, the minimum bet as the big blind, the smallest post
    below it as the small blind; one ante for every seat
    is ``ante``, unequal antes are ``seat_antes``. Raises :class:`Irregular` with every reason a
    hand does not fit: unknown stacks, a minimum bet other than the big blind.
    """
    n = hand.players
    antes, posted = _per_seat(hand.antes), _per_seat(hand.blinds_or_straddles)
    button = n - 1
    if hand.game.limits == "bring_in":
        return _stud_inputs(hand, antes)
    small_seat = button if n == 2 else 0
    big_seat = (small_seat + 1) % n
    small, big = posted[small_seat], posted[big_seat]
    scale = hand.scale
    reasons = []
    unknown = [f"p{seat + 1}" for seat, stack in enumerate(hand.starting_stacks) if stack is None]
    if unknown:
        reasons.append(f"unknown starting stack (inf) of {', '.join(unknown)}")
    by_seat = small > big or any(v for seat, v in enumerate(posted) if seat not in (small_seat, big_seat))
    if by_seat:  # the big blind is what the hand says the minimum bet is
        # The minimum bet: a fixed-limit game's small bet (its big blind is a full bet, a straddle
        # a raise, as with the blinds posted from the button), else the largest post.
        minimum = hand.small_bet if hand.game.limits == "bets" else hand.min_bet
        big = minimum if minimum is not None else max(posted)
        small = min((v for v in posted if 0 < v < big), default=0)
    inputs: dict[str, Any] = {"stacks": list(hand.starting_stacks), "button": button, "blinds": [small, big]}
    if hand.game.limits == "bets":
        assert hand.small_bet is not None and hand.big_bet is not None  # required by _parse
        inputs["bets"] = [hand.small_bet, hand.big_bet]
    elif not by_seat and hand.min_bet != max(big, 1):
        # A table's minimum bet is its big blind, one chip when there is none (no_limit.json).
        reasons.append(
            f"min_bet {_unit(hand.min_bet or 0, scale)} is not the big blind {_unit(big, scale)}: "
            "a table's minimum bet is its big blind"
        )
    if reasons:
        raise Irregular("; ".join(reasons))
    if len(set(antes)) > 1:
        inputs["seat_antes"] = list(antes)
    elif antes[0]:
        inputs["ante"] = antes[0]
    if by_seat:
        inputs["blinds_by_seat"] = True
        inputs["seat_blinds"] = list(posted)
    return inputs


#: The option of the betting round (betting_round.json) saying whether antes every seat posts are
#: their posters' stakes or dead money, and its values for PHH's ante_trimming_status.
ANTE_RULE, TRIMMED, UNTRIMMED = "ante_rule", "stake", "dead"


def hand_options(hand: Hand, cls: type[Engine], options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The options ``hand`` is replayed under: ``options`` (the house's), overridden by what the
    hand's own fields say of how it was played. A hand with antes says whether they are dead
    money (``ante_trimming_status`` false, PHH's default: a player short of his ante can win them
    all) or table stakes (true), which is the spec's option ``ante_rule``. Raises
    :class:`Irregular`, naming the field, where the spec cannot play what the hand declares and
    it matters (a player short of his ante)."""
    chosen = dict(options or {})
    antes = _per_seat(hand.antes)
    if not any(antes):
        return chosen
    rule = TRIMMED if hand.ante_trimming else UNTRIMMED
    declared = cls.OPTIONS.get(ANTE_RULE)
    if declared is not None and rule in declared.choices:
        chosen[ANTE_RULE] = rule
        return chosen
    short = any(stack is not None and stack < ante for stack, ante in zip(hand.starting_stacks, antes, strict=True))
    if short:
        field = f"ante_trimming_status = {'true' if hand.ante_trimming else 'false'}"
        raise Irregular(
            f"{field} with a player short of his ante: {cls.SPEC_NAME} has no option {ANTE_RULE} "
            f"with the value {rule!r} to play it"
        )
    return chosen


def _stud_inputs(hand: Hand, antes: tuple[int, ...]) -> dict[str, Any]:
    """A stud or razz hand's table: antes, the bring-in, the bets, and the seat that brings in."""
    reasons = []
    unknown = [f"p{seat + 1}" for seat, stack in enumerate(hand.starting_stacks) if stack is None]
    if unknown:
        reasons.append(f"unknown starting stack (inf) of {', '.join(unknown)}")
    if any(hand.blinds_or_straddles):
        reasons.append("blinds in a stud hand: stud has antes and a bring-in")
    if reasons:
        raise Irregular("; ".join(reasons))
    inputs: dict[str, Any] = {
        "stacks": list(hand.starting_stacks),
        "button": hand.players - 1,
        "bring_in": hand.bring_in,
        "bets": [hand.small_bet, hand.big_bet],
        "bring_in_seat": bring_in_seat(hand),
    }
    if len(set(antes)) > 1:
        inputs["seat_antes"] = list(antes)
    elif antes[0]:
        inputs["ante"] = antes[0]
    return inputs


def bring_in_seat(hand: Hand) -> int:
    """The seat that brings in: decided by the upcards where the file shows them all (the lowest,
    highest in razz, by suit on a tie), else the seat of the first betting action."""
    ups = {seat: list(cards) for seat, cards in hand.first_upcards}
    if ups and all(cards and known(cards) for cards in ups.values()):
        return cards_bring_in_seat(hand.game, ups)
    return hand.first_actor if hand.first_actor is not None else 0


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


# ---- replaying a hand through an engine -----------------------------------------------------


ACCEPTED, REFUSED, IRREGULAR, INVALID = "ACCEPTED", "REFUSED", "IRREGULAR", "INVALID"
#: The most characters a hand's line of ``phh check`` takes.
LINE_ROOM = 1000
#: A stud hand whose dealer erred: the seat the file has bring in, or open a later street, is not
#: the one its upcards decide (the file shows them all).
MISDEALT = "MISDEALT"


@dataclass
class Replay:
    """What replaying one hand gave: accepted, refused at an action, irregular or invalid."""

    name: str
    status: str
    detail: str
    hand: Hand | None = None
    engine: Engine | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)  # the case steps taken
    act: Act | None = None  # the action refused
    error: IllegalAction | None = None
    # A hand replayed in C (phh check): no engine kept; a new one at the hand's start, to pay the
    # pots on, and whether the hand was over. Its steps are then in ``logged`` (``steps`` empty)
    # as the kernel took them (``kernel.Logged.taken``): (seat, action, to), a deal (-1, street,
    # None); a pair of actions ("check", "call"), the first legal then, where a log does not say.
    fresh: Callable[[], Engine] | None = None
    over: bool = False
    logged: list[tuple[int, Any, int | None]] | None = None

    def line(self) -> str:
        """The hand's report, one line of at most :data:`LINE_ROOM` characters."""
        return _cut(f"{self.status} {self.name}: {self.detail}", LINE_ROOM)


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``NAME=VALUE`` strings as options; a VALUE is read as a JSON scalar, else as a word."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, equals, raw = pair.partition("=")
        name = name.strip()
        if not equals or not name:
            raise PhhError(f"an option is NAME=VALUE, not {pair!r}")
        try:
            value: object = json.loads(raw)
        except ValueError:
            value = raw  # a bare word is how a choice is written (underraise_rule=half)
        if isinstance(value, list | dict):
            raise PhhError(f"option {name}: a value is a number, true, false, null or a word")
        options[name] = value
    return options


def engine_for(structure: str, options: Mapping[str, Any]) -> type[Engine]:
    """The structure's engine class, its options checked; raises :class:`PhhError` saying why not."""
    from betspec.diagnostics import did_you_mean
    from betspec.runtime import InvalidTable, engine_class

    try:
        cls = engine_class(structure)
    except LookupError as exc:
        raise PhhError(str(exc)) from None
    for name in options:
        if name not in cls.OPTION_DEFAULTS:
            raise PhhError(f"option {name!r} is not declared by {structure}{did_you_mean(name, cls.OPTION_DEFAULTS)}")
    try:  # values are checked by the engine itself, once, on a table any structure takes
        cls(cls.example_table([100, 100], 1), **options)
    except InvalidTable as exc:
        raise PhhError(f"{structure}: {exc.message}") from None
    return cls


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


def finished(path: str, structure: str | None = None, options: Mapping[str, Any] | None = None) -> list[Finished]:
    """Each hand of a PHH file replayed by betspec and paid: its players' final stacks, as the
    rules pay them (``finishing_stacks`` compared where the file records them). A hand is played
    under ``structure`` (by default the one whose betting its variant is) with ``options``.

    >>> for hand in finished("hands.phhs"):  # doctest: +SKIP
    ...     print(hand.name, hand.status, hand.stacks)
    """
    found: list[Finished] = []
    engines: dict[str, type[Engine]] = {}
    for hand in read(path):
        if isinstance(hand, Bad):
            found.append(Finished(hand.name, INVALID, None, 1, hand.reason))
            continue
        name = structure or hand.game.structure
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


def replay(hand: Hand | Bad, cls: type[Engine], options: Mapping[str, Any] | None = None) -> Replay:
    """Every action of a hand through an engine of ``cls``: accepted, or the first one it refuses."""
    from betspec.conformance.runner import describe
    from betspec.runtime import IllegalAction, InvalidTable, Table

    if isinstance(hand, Bad):
        return Replay(hand.name, INVALID, hand.reason)
    try:
        inputs = table_inputs(hand)
        chosen = hand_options(hand, cls, options)
    except Irregular as exc:
        return Replay(hand.name, IRREGULAR, str(exc), hand)
    try:
        engine = cls(Table(**inputs), **chosen)
    except InvalidTable as exc:
        return Replay(hand.name, INVALID, f"no {cls.SPEC_NAME} table for it: {exc.message}", hand)
    result = Replay(hand.name, ACCEPTED, "", hand, engine)
    misdealt = _wrong_bring_in(hand, inputs, engine)
    if misdealt:
        result.status, result.detail = MISDEALT, misdealt
        return result
    for act in hand.acts:
        if act.seat < 0 and act.street >= len(cls.STREETS):
            return Replay(
                hand.name,
                INVALID,
                f"action {act.number} {_brief(act.text)} opens a street {cls.SPEC_NAME} does not deal "
                f"({', '.join(cls.STREETS)})",
                hand,
            )
        step = _step(engine, act, hand)
        try:
            if act.seat < 0:
                cast(_Dealer, engine).deal(step["deal"], **step.get("with", {}))
            else:
                engine.act(act.seat, step["act"], step.get("to"))
        except IllegalAction as exc:
            taken = f"deal {step['deal']}" if act.seat < 0 else f"seat {act.seat} {describe(step)}"
            result.status, result.act, result.error = REFUSED, act, exc
            source = _cut(exc.source, 500)  # a house's rule may cite a long text
            result.detail = (
                f"action {act.number} {_brief(act.text)} ({taken}) refused: {exc.code}, rule {exc.rule} [{source}]"
            )
            return result
        result.steps.append(step)
        misdealt = _wrong_opener(hand, act, step, engine) if act.seat < 0 else ""
        if misdealt:
            result.status, result.detail = MISDEALT, misdealt
            return result
    betting = sum(1 for act in hand.acts if act.seat >= 0)
    deals = len(hand.acts) - betting
    if engine.hand_over:
        end = engine.street_name
    elif engine.to_act is not None:
        end = f"{engine.street_name}, seat {engine.to_act} to act when the history stops"
    else:
        end = f"{engine.street_name} over, the history stops before the next deal"
    result.detail = f"{_count(betting, 'action')} and {_count(deals, 'deal')}, {end}"
    return result


def _first_bet(hand: Hand, after: int = 0) -> Act | None:
    return next((act for act in hand.acts if act.seat >= 0 and act.number > after), None)


def _shown_ups(ups: Sequence[tuple[int, tuple[str, ...]]]) -> str:
    return ", ".join(f"p{seat + 1} {' '.join(cards)}" for seat, cards in ups)


def _wrong_bring_in(hand: Hand, inputs: Mapping[str, Any], engine: Engine) -> str:
    """Why the file's bring-in is not the cards' (the first to act is not the seat of the lowest
    upcard, the highest in razz), or "" when it is or the file does not show every upcard."""
    first = _first_bet(hand)
    decided = inputs.get("bring_in_seat")
    if first is None or decided is None or decided == first.seat or engine.to_act == first.seat:
        return ""
    low = hand.game.opening == "high_card"
    return (
        f"action {first.number} {_brief(first.text)}: p{first.seat + 1} brings in, where the upcards "
        f"({_shown_ups(hand.first_upcards)}) say p{decided + 1}, the {'highest' if low else 'lowest'}: "
        f"the dealer erred (rule BRING-IN)"
    )


def _wrong_opener(hand: Hand, act: Act, step: Mapping[str, Any], engine: Engine) -> str:
    """Why the seat the file has open a stud street after a deal is not the one the upcards decide
    (the best hand showing, the lowest in razz), or "" when it is or the cards decide nothing."""
    opener = step.get("with", {}).get("opener")
    if act.first is None or opener is None or opener == act.first or engine.to_act in (None, act.first):
        return ""
    first = _first_bet(hand, act.number)
    if first is None:
        return ""
    low = hand.game.opening == "high_card"
    return (
        f"action {first.number} {_brief(first.text)}: p{first.seat + 1} opens {step['deal']}, where the "
        f"upcards ({_shown_ups(act.upcards)}) say p{opener + 1}, the {'lowest' if low else 'best'} hand "
        f"showing: the dealer erred (rule BRING-IN)"
    )


# ---- the pots paid, against the file ------------------------------------------------------------


#: A hand's pots checked against the file: paid as it says (perhaps less a rake), paid otherwise,
#: or not checked (the file records neither winnings nor finishing stacks, the showdown cannot
#: be ranked, the history stops before the hand is over).
PAID, MISPAID, UNCHECKED = "paid", "mispaid", "unchecked"
#: Not a hand's status but what ``betspec phh check`` prints for a hand whose every action the
#: engine accepts and whose pots it pays otherwise than the file says.
MISPAID_STATUS = "MISPAID"


@dataclass(frozen=True)
class Pots:
    """What paying a replayed hand's pots gave, compared with the file's ``winnings`` and
    ``finishing_stacks``."""

    status: str  # PAID, MISPAID or UNCHECKED
    detail: str
    won: tuple[int, ...] = ()  # what betspec paid each seat from the pots (uncalled bets not counted)
    stacks: tuple[int, ...] = ()  # each seat's stack once the pots are paid
    ranking: tuple[tuple[int, ...], ...] = ()  # the showdown's ranking, best first; () uncontested
    rake: int = 0  # what the file's winners have less than betspec paid them: the house's cut


#: What a hand whose file records neither winnings nor finishing stacks says of its pots.
NOTHING_RECORDED = "pots not checked: the file records no winnings or finishing_stacks"


def check_pots(result: Replay, *, unrecorded: bool = True) -> Pots:
    """Pay the pots of a hand the engine accepted and compare with what the file records.

    An uncontested pot needs no cards. A showdown is ranked with PokerKit's evaluator of the
    variant (:data:`EVALUATORS`) from the cards the file shows (``pN sm CARDS``, or the cards
    dealt); a muck (``pN sm``) ranks below every hand shown. The file's ``winnings`` are what
    each player took from the pots (uncalled bets are not winnings), its ``finishing_stacks``
    the stacks after the hand. A site's rake shows as winners paid less than the pots: accepted
    when the seats the file pays are exactly the seats betspec pays, none gets more than betspec
    pays, and the others end as betspec says; the rake is reported. The replay's engine is not
    touched: the hand is played again on a new one. With ``unrecorded`` false, a hand whose file
    records neither is not paid (nor its showdown ranked): there is nothing to compare, and
    ``betspec phh check`` reads only what it checks."""
    from betspec.runtime import IllegalAction

    hand, played = result.hand, result.engine
    if result.status != ACCEPTED or hand is None or (played is None and result.fresh is None):
        return Pots(UNCHECKED, "pots not checked: the hand was not replayed")
    recorded = [name for name in ("winnings", "finishing_stacks") if getattr(hand, name) is not None]
    if not (played.hand_over if played is not None else result.over):
        return Pots(UNCHECKED, "pots not checked: the history stops before the hand is over")
    if not recorded and not unrecorded:
        return Pots(UNCHECKED, NOTHING_RECORDED)
    if played is not None:
        engine = type(played)(played.table, **cast(dict[str, Any], played.options))
    else:
        engine = cast("Callable[[], Engine]", result.fresh)()
    for seat, what, to in result.logged or ():  # replayed in C: each action as the kernel took it
        if seat < 0:
            cast(_Dealer, engine).deal(what)
        elif type(what) is tuple:
            engine.act(seat, what[0] if what[0] in engine.legal_actions() else what[1], to)
        else:
            engine.act(seat, what, to)
    for step in result.steps:
        if "deal" in step:
            cast(_Dealer, engine).deal(step["deal"], **step.get("with", {}))
        elif isinstance(step["act"], tuple):  # replayed in C: the one of the pair legal here
            legal = engine.legal_actions()
            engine.act(step["seat"], next((a for a in step["act"] if a in legal), step["act"][-1]), step.get("to"))
        else:
            engine.act(step["seat"], step["act"], step.get("to"))
    pots = engine.pots()
    contenders = sorted({seat for pot in pots for seat in pot.eligible})
    ranking: list[list[int]] = []
    how: dict[str, Any] = {}
    if any(len(pot.eligible) > 1 for pot in pots):
        ranked, why = _ranking(hand, contenders)
        if ranked is None and not recorded:
            return Pots(UNCHECKED, NOTHING_RECORDED)
        if ranked is None:
            return Pots(UNCHECKED, f"showdown not checked: {why}")
        ranking = ranked[0]
        how = {"ranking": ranked[0]} if len(ranked) == 1 else {"runs": ranked}
    try:
        paid = engine.settle(**how)
    except IllegalAction as exc:  # not expected: the ranking names every seat that shows down
        return Pots(UNCHECKED, f"pots not checked: the engine refuses the ranking {ranking}: {exc.message}")
    won, stacks = paid.won, engine.stacks
    ranks = tuple(tuple(group) for group in ranking)
    if not recorded:  # paid, with nothing to compare: what betspec paid is in won and stacks
        return Pots(UNCHECKED, NOTHING_RECORDED, won, stacks, ranks)
    rake = 0
    for name in recorded:
        theirs = cast(tuple[int, ...], getattr(hand, name))
        ours = stacks
        if name == "winnings":
            # Sites differ on an uncalled bet: given back (not won), or counted in what the player
            # collected (a walk: the big blind collects the whole pot). Either is the same chips.
            ours = tuple(
                w + r if t == w + r else w for t, w, r in zip(theirs, won, paid.returned or [0] * len(won), strict=True)
            )
        wrong = _mispaid(name, theirs, ours, hand, paid.returned)
        if wrong:
            return Pots(MISPAID, wrong, won, stacks, ranks)
        rake = max(rake, sum(ours) - sum(theirs))
    shown_how = "uncontested" if not ranking else "at a showdown ranked " + _shown_ranking(ranking)
    if "runs" in how:
        shown_how += ", low " + _shown_ranking(how["runs"][1])
    cut = f", less a rake of {_unit(rake, hand.scale)}" if rake else ""
    return Pots(
        PAID, f"pots paid {shown_how} as the file's {' and '.join(recorded)} say{cut}", won, stacks, ranks, rake
    )


def _mispaid(name: str, theirs: tuple[int, ...], ours: tuple[int, ...], hand: Hand, returned: Sequence[int]) -> str:
    """Why the file's ``name`` field differs from what betspec paid (a rake aside), or ""."""
    if theirs == ours:
        return ""
    # A rake: the seats betspec pays have less in the file, every other seat is as betspec says.
    # A seat betspec pays is one whose winnings are not 0, or whose stack grew.
    gained = [o > 0 if name == "winnings" else o > start for o, start in zip(ours, _starts(hand), strict=True)]
    raked = all(t <= o if g else t == o for t, o, g in zip(theirs, ours, gained, strict=True))
    if raked and name == "winnings":
        raked = all(bool(t) == g for t, g in zip(theirs, gained, strict=True))
    if raked:
        return ""
    unit = hand.scale

    def differs(seat: int, file: int, paid: int) -> str:
        if name == "winnings":
            back = returned[seat] if seat < len(returned) else 0
            also = f" (and gave back {_unit(back, unit)} uncalled)" if back else ""
            return (
                f"p{seat + 1} (seat {seat}) won {_unit(file, unit)} by the file, betspec paid {_unit(paid, unit)}{also}"
            )
        return f"p{seat + 1} (seat {seat}) ends with {_unit(file, unit)} by the file, {_unit(paid, unit)} by betspec"

    diffs = [differs(seat, t, o) for seat, (t, o) in enumerate(zip(theirs, ours, strict=True)) if t != o]
    more = f" (and {len(diffs) - 3} more)" if len(diffs) > 3 else ""
    return f"pots paid otherwise than the file's {name}: {'; '.join(diffs[:3])}{more}"


def _starts(hand: Hand) -> tuple[int, ...]:
    return tuple(stack or 0 for stack in hand.starting_stacks)


def _shown_ranking(ranking: Sequence[Sequence[int]]) -> str:
    return " > ".join("=".join(f"p{seat + 1}" for seat in group) for group in ranking)


def _ranking(hand: Hand, contenders: Sequence[int]) -> tuple[list[list[list[int]]] | None, str]:
    """The showdown of ``contenders`` from the cards the file shows, as :meth:`Engine.settle`
    takes it: one ranking, or a split game's two runs (high, then low completed by the high order:
    :func:`betspec.cards.settlement_rankings`), best first with ties together; or None and why it
    cannot be ranked. A muck ranks below every hand shown."""
    game = hand.game
    board = [card for deal in hand.board for card in split_cards(deal)]
    if len(board) != sum(game.board) or not known(board):
        return None, "the file does not show the whole board"
    shown_cards = dict(hand.shows)
    holes = sum(len(statuses) for statuses in game.hole)
    seen = set(board)
    if len(seen) != len(board):
        return None, "a card is on the board twice"
    held: dict[int, list[str]] = {}
    mucked: list[int] = []
    for seat in contenders:
        if shown_cards.get(seat) == "":
            mucked.append(seat)  # a muck: it cannot win the pot
            continue
        cards = split_cards(hand.hole[seat]) if seat < len(hand.hole) else []
        if len(cards) != holes or not known(cards):
            return None, f"p{seat + 1} shows down and the file does not show {holes} known cards"
        if len(set(cards)) != holes or set(cards) & seen:
            return None, f"p{seat + 1}'s cards {''.join(cards)} are dealt twice"
        seen |= set(cards)
        held[seat] = cards
    try:
        ranked = rankings(game, held, board)
    except NoEvaluator as exc:
        return None, str(exc)
    except CardError as exc:
        return None, str(exc)
    if not held:
        return [[mucked]], ""
    how = settlement_rankings(ranked)
    if mucked:  # below every hand shown, in every ranking
        for ranking in how.get("runs") or [how["ranking"]]:
            ranking.append(mucked)
    return [how["ranking"]] if "ranking" in how else how["runs"], ""


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


class _Dealer(Protocol):
    """What every generated engine has and the base class does not declare."""

    def deal(self, street: str, /, **given: object) -> None: ...


def deal_inputs(hand: Hand, act: Act, cls: type[Engine]) -> dict[str, Any]:
    """What the cards decide for a stud street (the spec's deal inputs): the opener, the best hand
    showing (the lowest in razz) where the file shows every upcard and PokerKit ranks them, else
    the seat that acts first; an open pair on fourth street, where the upcards show one."""
    game = hand.game
    if game.opening == "position":
        return {}
    given: dict[str, Any] = {}
    ups = {seat: list(cards) for seat, cards in act.upcards}
    shown_all = bool(ups) and all(known(cards) for cards in ups.values())
    if "opener" in cls.DEAL_INPUTS:
        opener: int | None = act.first
        if shown_all:
            with _suppress(NoEvaluator):
                opener = cards_opener(game, ups)
        if opener is not None:
            given["opener"] = opener
    if "open_pair" in cls.DEAL_INPUTS and act.street == 1 and shown_all:
        given["open_pair"] = cards_open_pair(ups)
    return given


def _step(engine: Engine, act: Act, hand: Hand) -> dict[str, Any]:
    """The case step a PHH action is: a cc checks or calls, a cbr bets or raises, by what stands;
    a deal names the engine's street and what the cards decide for it."""
    if act.seat < 0:
        step: dict[str, Any] = {"deal": type(engine).STREETS[act.street]}
        given = deal_inputs(hand, act, type(engine))
        if given:
            step["with"] = given
        return step
    if act.verb == "pb":
        return {"seat": act.seat, "act": "bring_in"}
    if act.verb == "f":
        return {"seat": act.seat, "act": "fold"}
    if act.verb == "cc":
        return {"seat": act.seat, "act": "check" if engine.call_amount == 0 else "call"}
    # The "to" amount is the seat's whole stake on the street, as the engine's; an all-in for
    # less than a full raise is still a raise to that amount, and the engine rules on it.
    return {"seat": act.seat, "act": "bet" if engine.bet_level == 0 else "raise", "to": act.to}


# ---- a hand as a conformance case -----------------------------------------------------------


def case_id(hand: Hand) -> str:
    """A case id (lowercase words joined by hyphens) from the file's name and the hand's key."""
    stem = os.path.splitext(os.path.basename(hand.path))[0]
    slug = _NON_SLUG.sub("-", f"{stem}-{hand.key}".lower()).strip("-")
    return slug[:200].strip("-") or "phh-hand"


def to_case(hand: Hand | Bad, cls: type[Engine], options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The conformance case of a hand the engine accepts; raises :class:`PhhError` with the reason otherwise."""
    result = replay(hand, cls, options)
    if result.status != ACCEPTED or result.engine is None or not isinstance(hand, Hand):
        raise Irregular(result.line()) if result.status == IRREGULAR else PhhError(result.line())
    engine = result.engine
    origin = f"{hand.header} " if hand.header else ""
    number = f" (hand {hand.number})" if hand.number else ""
    unit = "" if hand.scale == 1 else f"; amounts in chips of 1/{hand.scale} of the file's unit"
    source = f"{origin}PHH {os.path.basename(hand.path)}{f' [{hand.key}]' if hand.key else ''}{number}{unit}"
    steps = [dict(step) for step in result.steps] or [{}]
    steps[-1]["expect"] = {"hand_over": engine.hand_over, "pot": engine.pot, "stacks": list(engine.stacks)}
    return {
        "id": case_id(hand),
        "source": source[:2000],
        "structure": cls.SPEC_NAME,
        "options": dict(options or {}),
        "table": table_inputs(hand),
        "steps": steps,
    }


# ---- an engine's hand as PHH ------------------------------------------------------------------


def to_phh(engine: Engine, scale: int = 1, variant: str | None = None, cards: Dealer | None = None) -> str:
    """The hand an engine has played (its table and history) as PHH text, amounts as chips divided by ``scale``.

    Any hand played from the deal is written: all-ins, any button, bring-ins, draws. ``cards``
    is the :class:`betspec.cards.Dealer` that dealt the hand: its hole cards, board, draws and
    showdown (``pN sm``, for the seats still in when the hand is over) are written; without it
    every card is unknown (``??``) and every draw stands pat. The variant is the dealer's game,
    else ``variant``, else the game the structure is dealt as (:data:`betspec.cards.STRUCTURE_GAMES`:
    PHH has no code for pot-limit hold'em, written ``NT``, which allows every pot-limit action).
    The same hand always gives the same bytes: fields in a fixed order, no timestamps.
    Declarations (out of turn, a raise said without its amount) are written as the chips they
    moved; a timeout, whose hand is dead, is a fold. PHH lists the players from the seat after
    the button, which is the last: seat ``s`` is player ``(s - button - 1) % n + 1``, so a hand
    read back has the button on its last seat (the same hand, the seats renumbered).
    """
    from betspec.cards import STRUCTURE_GAMES, Dealer
    from betspec.runtime import Engine
    from betspec.runtime.snapshot import _replay

    if not isinstance(engine, Engine):
        raise PhhError(f"to_phh writes the hand of an engine, not of {_brief(engine)}")
    if type(scale) is not int or scale < 1 or scale > 10**MAX_PLACES or str(scale).rstrip("0") != "1":
        raise PhhError(f"the scale is a power of ten from 1 to 10**{MAX_PLACES}, not {_brief(scale)}")
    if variant is not None and not isinstance(variant, str):
        raise PhhError(f"a variant is a PHH code ({', '.join(VARIANTS)}), not {_brief(variant)}")
    if cards is not None and not isinstance(cards, Dealer):
        raise PhhError(f"cards are a betspec.cards.Dealer, not {_brief(cards)}")
    cls = type(engine)
    code = cards.game.code if cards is not None else variant or STRUCTURE_GAMES.get(engine.SPEC_NAME)
    if code is None:
        code = "FT" if "bets" in cls.INPUTS and "blinds" in cls.INPUTS else "NT"
    if code not in VARIANTS:
        raise PhhError(f"variant {_brief(code)} is not one betspec writes ({', '.join(VARIANTS)})")
    game = VARIANTS[code]
    if variant is not None and variant != code:
        raise PhhError(f"the cards were dealt as {code}, not {_brief(variant)}")
    if len(cls.STREETS) != game.streets:
        raise PhhError(
            f"{engine.SPEC_NAME} deals {', '.join(cls.STREETS)}: "
            f"variant {code} ({game.name}) has {game.streets} streets"
        )
    table = engine.table
    if engine.start is not None:
        raise PhhError(f"a hand started on the {engine.start.street} has no PHH form: PHH hands start with the deal")
    items = {item: (name, i) for name, declared in cls.INPUTS.items() for i, item in enumerate(declared.items)}
    fixed = "small_bet" in items and "big_bet" in items
    if (game.limits != "min_bet") != fixed:
        need = "fixed bets" if game.limits != "min_bet" else "no fixed bets"
        raise PhhError(f"variant {code} is {game.name}: it needs a structure with {need}")
    if game.limits == "bring_in" and "bring_in" not in cls.INPUTS:
        raise PhhError(f"variant {code} brings in: {engine.SPEC_NAME} has no bring-in")
    if cards is not None and cards.seats != len(table.stacks):
        raise PhhError(f"the dealer dealt {cards.seats} seats, the table has {len(table.stacks)}")

    def item(name: str) -> int:
        if name not in items:
            value = table.get(name) if name in cls.INPUTS else 0
            return int(cast(int, value or 0))
        value = table.get(items[name][0])
        return int(cast(Sequence[int], value)[items[name][1]]) if isinstance(value, Sequence) else 0

    # What each seat posted before the first action, as the spec's forced bets post it: live
    # chips are PHH's blinds and straddles, dead ones (antes, a dead small blind) its antes.
    fresh = cls(table, **cast(dict[str, Any], engine.options))
    n = len(table.stacks)
    empty = [seat for seat, stack in enumerate(table.stacks) if stack <= 0]
    if empty:
        raise PhhError(f"seat {empty[0]} has no chips: PHH lists the players dealt in, every stack positive")
    order = [(engine.button + 1 + i) % n for i in range(n)]
    player = {seat: i + 1 for i, seat in enumerate(order)}
    live = [fresh.committed[seat] for seat in order]
    dead = [fresh.contributed[seat] - fresh.committed[seat] for seat in order]
    # PHH's antes are dead money unless ante_trimming_status says they are their posters' stakes
    # (each seat's stake, less what it posted live, is its ante of kind ante): one or the other.
    staked = any(fresh.stakes[seat] > fresh.committed[seat] for seat in order)
    if staked and any(fresh.contributed[seat] > fresh.stakes[seat] for seat in order):
        raise PhhError(
            "antes that are their posters' stakes and dead money in one hand have no PHH form "
            "(ante_trimming_status makes every ante one or the other)"
        )
    if game.limits == "bring_in":
        if any(live):
            raise PhhError("a stud hand posts antes only before the deal: PHH has no blinds in stud")
        fields: list[tuple[str, str]] = [("variant", _literal(code)), ("antes", _units(_per_seat(tuple(dead)), scale))]
        fields.append(("bring_in", _unit(item("bring_in"), scale)))
    else:
        fields = [
            ("variant", _literal(code)),
            ("antes", _units(_per_seat(tuple(dead)), scale)),
            ("blinds_or_straddles", _units(_per_seat(tuple(live)), scale)),
        ]
    if game.limits != "min_bet":
        fields += [("small_bet", _unit(item("small_bet"), scale)), ("big_bet", _unit(item("big_bet"), scale))]
    else:
        fields.append(("min_bet", _unit(max(item("big_blind"), 1), scale)))
    if staked:
        fields.append(("ante_trimming_status", "true"))
    fields.append(("starting_stacks", _units([table.stacks[seat] for seat in order], scale)))

    actions: list[str] = []

    def deal_street(street: int) -> None:
        """The deal lines of a street: draws (each seat still in, in PHH order), hole cards, board."""
        still_in = [seat for seat in order if not fresh.folded[seat]]
        if game.draw and street > 0:
            for seat in still_in:
                discards = cards.draws[street].get(seat, []) if cards is not None else []
                actions.append(f"p{player[seat]} sd {''.join(discards)}".rstrip())
        if cards is not None:
            dealt = dict(cards.dealt[street])
            for seat in order:
                if seat in dealt:
                    actions.append(f"d dh p{player[seat]} {''.join(dealt[seat])}")
            if cards.boards[street]:
                actions.append(f"d db {''.join(cards.boards[street])}")
            return
        if game.hole[street]:
            for seat in still_in if street else order:
                actions.append(f"d dh p{player[seat]} {'??' * len(game.hole[street])}")
        if game.board[street]:
            actions.append(f"d db {'??' * game.board[street]}")

    deal_street(0)
    for number, (seat, action, argument) in enumerate(engine.history, 1):
        if seat == -2:
            continue  # the settlement: PHH writes the showdown below
        if seat == -1:
            deal_street(cls.STREETS.index(action))
        before_level, before = fresh.bet_level, fresh.committed[seat] if seat >= 0 else 0
        was_folded = fresh.folded[seat] if seat >= 0 else False
        try:
            _replay(fresh, number, [seat, action, argument])
        except (BetspecError, TypeError, ValueError) as exc:  # not expected: the log is the hand's
            raise PhhError(f"the history's step {number} ({_brief(action)}) cannot be replayed: {exc}") from None
        if seat < 0:
            continue
        name = f"p{player[seat]}"
        after = fresh.committed[seat]
        if fresh.folded[seat] and not was_folded:
            actions.append(f"{name} f" + (" # timeout: the hand is dead" if action == "timeout" else ""))
        elif action == "bring_in":
            actions.append(f"{name} pb")
        elif after > before_level and fresh.bet_level > before_level:
            actions.append(f"{name} cbr {_unit(after, scale)}")
        elif after != before or action in ("check", "call", "all_in", "push"):
            actions.append(f"{name} cc")
        # else a declaration that moved no chips: the action it binds to follows
    if cards is not None and fresh.hand_over:
        showing = [seat for seat in order if not fresh.folded[seat]]
        if len(showing) > 1:
            for seat in showing:
                actions.append(f"p{player[seat]} sm {''.join(cards.hole[seat])}")
    fields.append(("actions", "[" + ", ".join(_literal(a) for a in actions) + "]"))
    if engine.paid:  # what the settlement left each player: what a reader checks its pots against
        fields.append(("finishing_stacks", _units([engine.stacks[seat] for seat in order], scale)))
    return "".join(f"{name} = {value}\n" for name, value in fields)


def to_phhs(texts: Sequence[str]) -> str:
    """Several hands written by :func:`to_phh` as one ``.phhs`` file: tables ``[1]``, ``[2]``, ..."""
    return "\n".join(f"[{number}]\n{text}" for number, text in enumerate(texts, 1))


def _literal(text: str) -> str:
    """A TOML string: literal (single quotes) when it can be, else basic with escapes."""
    if "'" not in text and "\n" not in text and text.isprintable():
        return f"'{text}'"
    return json.dumps(text)  # a JSON string is a valid TOML basic string for printable text


# ---- the command line -----------------------------------------------------------------------


def _out(line: str) -> None:
    print(line, flush=True)


def _err(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


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


_ENGINES: dict[str, tuple[type[Engine], dict[str, Any]]] = {}

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


def check_part(path: str, part: int, parts: int, structure: str, options: Mapping[str, Any]) -> Report:
    """Check one share of a file's hands (``part`` of ``parts``, see :func:`loads`): replay each
    and check its pots; a worker of ``betspec phh check --jobs`` runs this, an engine class
    looked up once a process."""
    key = json.dumps([structure, dict(options)], sort_keys=True, default=str)
    if key not in _ENGINES:
        _ENGINES[key] = (engine_for(structure, options), dict(options))
    cls, opts = _ENGINES[key]
    with _collecting_less():
        return _check_part(path, part, parts, cls, opts)


def _check_part(path: str, part: int, parts: int, cls: type[Engine], opts: dict[str, Any]) -> Report:
    report = Report(path)
    try:
        hands = read(path, (part, parts))
    except PhhError as exc:
        report.lines.append(f"betspec phh: {exc}")
        report.unreadable = 1
        return report
    in_c = replayed_in_c(hands, cls, opts)
    for index, hand in enumerate(hands):
        result = in_c.get(index) or replay(hand, cls, opts)
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
    return report


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
BACKENDS = ("processes", "ray")
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
    structure: str,
    options: Mapping[str, Any],
    jobs: int = 1,
    backend: str = "processes",
    address: str | None = None,
) -> Iterator[Report]:
    """Each file's report, in the order of ``files`` whatever order the workers finish in: its
    hands checked here (``jobs`` 1), over a pool of ``jobs`` processes, or as Ray tasks
    (``backend="ray"``, the cluster at ``address`` or a local one of ``jobs`` CPUs)."""
    pieces = _pieces(files, jobs if backend == "processes" else max(jobs, 2))
    options = dict(options)
    if backend == "ray":
        reports = _on_ray(pieces, structure, options, jobs, address)
    elif backend != "processes":
        raise PhhError(f"no phh check backend {backend!r} (backends: {', '.join(BACKENDS)})")
    elif jobs <= 1:
        reports = (check_part(*piece, structure, options) for piece in pieces)
    else:
        reports = _on_processes(pieces, structure, options, jobs)
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
    pieces: Sequence[tuple[str, int, int]], structure: str, options: dict[str, Any], jobs: int
) -> Iterator[Report]:
    """The pieces over a pool of processes, a bounded window in flight, their reports in order."""
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    work = iter(pieces)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        window: deque[Future[Report]] = deque(
            pool.submit(check_part, *piece, structure, options) for piece in itertools.islice(work, 2 * jobs)
        )
        while window:
            report = window.popleft().result()
            window.extend(pool.submit(check_part, *piece, structure, options) for piece in itertools.islice(work, 1))
            yield report


def _on_ray(
    pieces: Sequence[tuple[str, int, int]], structure: str, options: dict[str, Any], jobs: int, address: str | None
) -> Iterator[Report]:
    """The pieces as Ray tasks (as ``betspec simulate --on ray`` runs its chunks), a bounded
    window in flight, their reports in order. The files are read where the tasks run: a cluster's
    nodes see them at the same paths."""
    from collections import deque

    with ray_session(jobs, address, PhhError) as ray:
        remote = ray.remote(check_part)
        window_size = 2 * max(jobs, cluster_cpus(ray, jobs))
        work = iter(pieces)
        window: deque[Any] = deque(
            remote.remote(*piece, structure, options) for piece in itertools.islice(work, window_size)
        )
        while window:
            report = cast(Report, ray.get(window.popleft()))
            window.extend(remote.remote(*piece, structure, options) for piece in itertools.islice(work, 1))
            yield report


def cmd_check(args: argparse.Namespace, project: object = None) -> int:
    """Replay every hand of the files and check its pots; exit 1 when a hand is refused, invalid,
    misdealt or paid otherwise than the file says, 2 on a bad file."""
    try:
        options = parse_options(args.option)
        engine_for(args.structure, options)
    except PhhError as exc:
        _out(f"betspec phh: {exc}")
        return 2
    if args.jobs < 0:
        _out("betspec phh: --jobs is a number of processes, 0 for every core")
        return 2
    jobs = args.jobs or _cores()
    files = phh_files(args.files)
    empty = [path for path in args.files if os.path.isdir(path) and not phh_files([path])]
    for path in empty:
        _out(f"betspec phh: {path}: no .phh or .phhs file in it")
    total = Report("")
    total.unreadable = len(empty)
    several = len(files) > 1
    try:
        for report in check_files(files, args.structure, options, jobs, args.on, args.address):
            for line in report.lines:
                _out(line)
            total.add(report)
            if several and not report.unreadable:
                _out(f"file {report.path}: {_count(report.hands, 'hand')}, {report.tally()}")
    except PhhError as exc:
        _out(f"betspec phh: {exc}")
        return 2
    named = f" ({', '.join(total.irregular)})" if total.irregular else ""
    unread = f"; {total.unreadable} file(s) unreadable" if total.unreadable else ""
    paid = total.paid
    checked = paid[PAID] + paid[MISPAID]
    rake = f", {total.raked} of them less a rake" if total.raked else ""
    where = f" in {len(files)} files" if several else ""
    _out(
        f"{_count(total.hands, 'hand')} under {args.structure}{where}: {total.tally(named)}; "
        f"pots checked against the file in {checked} ({paid[PAID]} paid as it says{rake}), "
        f"not in {paid[UNCHECKED]}{unread}"
    )
    if total.unreadable:
        return 2
    return 1 if total.failed() else 0


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def cmd_to_case(args: argparse.Namespace, project: object = None) -> int:
    """Write each hand (or the one named) as a conformance case; exit 1 when one cannot be."""
    try:
        options = parse_options(args.option)
        cls = engine_for(args.structure, options)
        hands = read(args.file)
    except PhhError as exc:
        _out(f"betspec phh: {exc}")
        return 2
    if args.hand is not None:
        chosen = [hand for hand in hands if hand.key == args.hand]
        if not chosen:
            keys = [hand.key for hand in hands]
            more = ", ..." if len(keys) > 10 else ""
            listed = ", ".join(_cut(key, 20) for key in keys[:10])
            _out(f"betspec phh: {args.file} has no hand {_brief(args.hand)} (it has {listed}{more})")
            return 2
        hands = chosen
    # With --out, stdout reports what was written; without, stdout is the cases, one JSON a line.
    note = _out if args.out else _err
    failed = 0
    for hand in hands:
        try:
            case = to_case(hand, cls, options)
        except Irregular as exc:
            note(f"skipped: {exc}")
            failed += args.hand is not None
            continue
        except PhhError as exc:
            note(f"skipped: {exc}")
            failed += 1
            continue
        text = json.dumps(case) + "\n"
        if not args.out:
            sys.stdout.write(text)
            continue
        path = os.path.join(args.out, f"{case['id']}.json")
        try:
            os.makedirs(args.out, exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
        except OSError as exc:
            _out(f"betspec phh: cannot write {path}: {exc.strerror or exc}")
            return 2
        _out(f"wrote {path}")
    sys.stdout.flush()
    return 1 if failed else 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``betspec phh`` (``check``, ``to-case``) to the ``betspec`` command's sub-commands."""
    phh = subparsers.add_parser("phh", help="hand histories in PHH: replay them through a structure, or make cases")
    commands = phh.add_subparsers(dest="phh_command", required=True)

    def structure_and_options(command: argparse.ArgumentParser, default: str | None) -> None:
        command.add_argument(
            "--structure",
            required=default is None,
            default=default,
            help="the spec whose engine replays the hands" + (f" (default {default})" if default else ""),
        )
        command.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="a spec option (repeatable); VALUE is read as JSON (10, true, null), else as a word",
        )

    check = commands.add_parser(
        "check",
        help="replay every hand; one line per hand and a summary",
        description="Replay every hand of the files through a structure's engine: ACCEPTED, REFUSED "
        "(the first action the spec refuses, with its rule), MISPAID (every action accepted, the pots "
        "paid otherwise than the file's winnings or finishing_stacks say), IRREGULAR (forced bets a "
        "table cannot express yet; they do not fail the command) or INVALID. An accepted hand's line "
        "says whether its pots were checked against the file. Exit 1 when a hand is refused, mispaid "
        "or invalid, 2 when a file cannot be read.",
    )
    check.add_argument("files", nargs="+", metavar="FILE", help=".phh or .phhs files, or folders of them")
    structure_and_options(check, None)
    check.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="processes to check on (default 1; 0: every core); the lines come in the same order",
    )
    check.add_argument(
        "--on",
        choices=BACKENDS,
        default="processes",
        help="where: processes here, or Ray tasks (pip install 'betspec[ray]'; --jobs CPUs of a local cluster)",
    )
    check.add_argument("--address", help="with --on ray: the cluster's address (default: a local one)")
    check.set_defaults(run=cmd_check)
    to_case_parser = commands.add_parser(
        "to-case",
        help="write hands as conformance cases (JSON)",
        description="Write each hand the engine accepts as a conformance case, to DIR/<id>.json, or "
        "one JSON a line on stdout without --out.",
    )
    to_case_parser.add_argument("file", metavar="FILE", help="a .phh or .phhs file")
    to_case_parser.add_argument(
        "--hand", metavar="N", help="only this hand: its table name in a .phhs file (1, 2, ...)"
    )
    to_case_parser.add_argument("--out", metavar="DIR", help="the folder to write <id>.json into")
    structure_and_options(to_case_parser, None)
    to_case_parser.set_defaults(run=cmd_to_case)
