"""Reading PHH: files and text to hands, each field checked."""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from betspec.cards import (
    Game,
)
from betspec.runtime.errors import shown
from betspec.tools.phh.actions import _parse_actions
from betspec.tools.phh.amounts import _TOO_MANY_DIGITS, _amount, _amounts, _chips, _places, _scaled
from betspec.tools.phh.deck import _Cards
from betspec.tools.phh.document import _check_reader, _document
from betspec.tools.phh.model import MAX_CHIPS, VARIANTS, Act, Bad, Hand, PhhError, _act, _brief, _built, _cut, _name

if TYPE_CHECKING:
    pass


#: The most a PHH file may hold: a bigger file (or an endless one, such as ``/dev/zero``) is
#: refused, not read into memory. The largest files of the public PHH dataset are a few MB.
MAX_FILE_BYTES = 64 * 1024 * 1024


def read(path: str, part: tuple[int, int] = (0, 1)) -> list[Hand | Bad]:
    """The hands of a ``.phh`` or ``.phhs`` file; raises :class:`PhhError` when the file is unreadable.
    ``part`` (see :func:`loads`) gives one of several consecutive shares of the hands."""
    return loads(read_text(path), path, part)


def read_text(path: str) -> str:
    """A PHH file's text, or :class:`PhhError` saying why it cannot be read. Only a regular file
    is read, and at most :data:`MAX_FILE_BYTES` of it: a device, a pipe or a bigger file is
    refused before its content is read into memory."""
    try:
        kind = _kind(os.stat(path).st_mode)
        if kind:
            raise PhhError(f"{path}: not a regular file ({kind}): betspec reads PHH from files")
        # Read by the descriptor, not a file object (a third of the time of a one-hand file);
        # non-blocking, so that a pipe put in the file's place since is refused, not waited on.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        try:
            found = os.fstat(descriptor)  # the same file, whatever happened since
            kind = _kind(found.st_mode)
            if kind:
                raise PhhError(f"{path}: not a regular file ({kind}): betspec reads PHH from files")
            chunks: list[bytes] = []
            size = 0
            while size <= MAX_FILE_BYTES:  # to its end, which may be past the size found
                chunk = os.read(descriptor, min(MAX_FILE_BYTES + 1 - size, max(found.st_size - size + 1, 65536)))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        finally:
            os.close(descriptor)
    except OSError as exc:
        raise PhhError(f"{path}: cannot read: {exc.strerror or exc}") from None
    data = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    if len(data) > MAX_FILE_BYTES:
        raise PhhError(f"{path}: more than {MAX_FILE_BYTES} bytes, the most betspec reads from a PHH file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise PhhError(f"{path}: not UTF-8 text (line {line}, byte {exc.start + 1})") from None


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
    _check_reader()
    if not isinstance(text, str):
        raise PhhError(f"{path}: PHH is text (a str), not {type(text).__name__}")
    if len(text) > MAX_FILE_BYTES:
        raise PhhError(f"{path}: more than {MAX_FILE_BYTES} characters, the most betspec reads as PHH")
    document = _document(text, path)
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
