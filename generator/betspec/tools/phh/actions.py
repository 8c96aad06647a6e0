"""A hand's ``actions`` field read: its betting actions, the deals that open streets, and its cards."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, NoReturn, cast

from betspec.cards import (
    Game,
    split_cards,
)
from betspec.tools.phh.amounts import _amount, _plain
from betspec.tools.phh.deck import (
    _BETTING_STARTS,
    _BOARD_DEALT,
    _DEALT,
    _DISCARDED,
    _FOLDED,
    _OPENED,
    _SHOWN,
    _Cards,
    _check_deck,
)
from betspec.tools.phh.model import BOARD_STREETS, Act, PhhError, _act, _brief

if TYPE_CHECKING:
    pass


#: A player's seat by its PHH name: ``p1`` .. ``p999`` (a number without a leading zero).
_SEATS = {f"p{number}": number - 1 for number in range(1, 1000)}


_CARDS = re.compile(r"^(?:[2-9TJQKA?][cdhs?])+$")


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
    reader = _ActionReader(n, game, cards, bets)
    # The commonest lines are taken at once, as read once (_line); any other, and any the hand's
    # players or streets do not allow (a stud deal, whose cards say the street), by read.
    at_once = reader.read_known
    for number, text in enumerate(actions, 1):
        if type(text) is not str or not at_once(number, text):
            reader.read(number, text)
    return reader.finish()


class _ActionReader:
    """One hand's actions as they are read: the acts so far, the deals still to place, the seats
    that folded and drew, the streets opened; its cards kept in ``cards``, its bets in ``bets``."""

    __slots__ = (
        "acts",
        "bets",
        "betting_since_draw",
        "cards",
        "dealt",
        "dealt_by_street",
        "drawn",
        "folded",
        "game",
        "n",
        "pending",
        "statuses",
        "street",
        "stud",
    )

    def __init__(self, n: int, game: Game, cards: _Cards, bets: list[tuple[int, Decimal | int]]) -> None:
        self.n, self.game, self.cards, self.bets = n, game, cards, bets
        self.acts: list[Act] = []
        self.street = 0  # the streets opened so far after the first
        self.pending: list[tuple[int, str]] = []  # deals to place: (action number, text)
        self.folded: set[int] = set()
        self.drawn: set[int] = set()  # seats that drew in the current draw round
        self.betting_since_draw = True
        self.dealt_by_street, self.statuses = _deals(game)
        self.dealt = [0] * n  # hole cards dealt to each seat, draws' replacements aside (stud's streets)
        self.stud = not game.draw and game.opening != "position"

    def finish(self) -> list[Act]:
        """The acts, the last deals placed, once the cards are checked against the deck."""
        self.place(None)
        _check_deck(self.game, self.cards.moves, self.n, self.dealt_by_street)
        return self.acts

    def open_street(self, number: int, text: str) -> None:
        game = self.game
        if self.street + 1 >= game.streets:
            raise PhhError(
                f"action {number} {_brief(text)}: a deal after the last street ({game.name} has {game.streets})"
            )
        self.street += 1
        self.pending.append((number, text))
        self.cards.moves.append((_OPENED, -1, ()))

    def place(self, first: int | None) -> None:
        """The deals not placed yet as acts, before the betting action of seat ``first`` (None: none)."""
        cards, pending, game = self.cards, self.pending, self.game
        if first is not None:  # a betting action follows: the street's deals are done
            cards.moves.append((_BETTING_STARTS, self.street, ()))
        for i, (number, text) in enumerate(pending):
            opened = self.street - len(pending) + i + 1
            ups: tuple[tuple[int, tuple[str, ...]], ...] = ()
            if game.opening != "position":
                ups = tuple(self.upcards(self.folded))
            verb = BOARD_STREETS[opened - 1] if game.board[opened] else f"street {opened + 1}"
            last = i == len(pending) - 1
            self.acts.append(_act(number, text, -1, verb, None, opened, ups, first if last else None))
        pending.clear()

    def upcards(self, out: set[int]) -> list[tuple[int, tuple[str, ...]]]:
        """Each seat's upcards (the seats ``out`` left out)."""
        statuses = self.statuses
        return [
            (seat, tuple(c for c, up in zip(held, statuses, strict=False) if up))
            for seat, held in enumerate(self.cards.hole)
            if seat not in out
        ]

    def betting(self, seat: int) -> None:
        """A betting action of ``seat`` comes: the street's deals are done; the first says who opens."""
        if self.pending:
            self.place(seat)
        cards = self.cards
        if cards.first_actor is None:
            cards.first_actor = seat
            cards.moves.append((_BETTING_STARTS, 0, ()))
            if self.game.opening != "position":
                cards.first_upcards = self.upcards(set())
        self.betting_since_draw = True

    def read_known(self, number: int, text: str) -> bool:
        """Take an action whose text is one of the commonest (:func:`_line`), as read once; False
        for any other, and any the hand's players or streets do not allow (:meth:`read` takes it)."""
        line = _LINES.get(text)
        if line is None:
            line = _line(text)
            if len(text) <= _LINE_KEPT:
                if len(_LINES) > _LINES_KEPT:
                    _LINES.clear()
                _LINES[text] = line
        kind, cards = line[0], self.cards
        if kind == _NO_OP:
            return True
        if kind == _HOLE and line[1] < self.n:
            self.dealt_to(number, text, line[1], line[2])
            return True
        if kind == _BETTING_LINE and line[1] < self.n:
            seat = line[1]
            self.betting(seat)
            verb, amount, built = line[2], line[3], line[4]
            if verb == "f":
                self.folded.add(seat)
                cards.moves.append((_FOLDED, seat, ()))
            elif amount is not None:
                self.bets.append((len(self.acts), amount))
            act = built.get(number)  # an Act is immutable: one a text and number, shared
            if act is None:
                act = built[number] = _act(number, text, seat, verb)
            self.acts.append(act)
            return True
        if kind == _BOARD and any(self.game.board[self.street + 1 :]):
            self.open_street(number, text)
            self.place(None)
            cards.board += line[1]
            cards.moves.append((_BOARD_DEALT, -1, line[1]))
            return True
        if kind == _SHOW and line[1] < self.n:
            if line[3] is not None:
                cards.hole[line[1]] = list(line[3])  # the cards it holds, now known
                cards.moves.append((_SHOWN, line[1], line[3]))
            cards.shows.append((line[1], line[2]))  # no cards: a muck
            return True
        return False

    def read(self, number: int, text: object) -> None:
        """Any action, or :class:`PhhError` saying why it is not one of the hand's."""
        if not isinstance(text, str):
            raise PhhError(f"action {number} must be a string, not {_brief(text)}")
        words = (text.split("#", 1)[0] if "#" in text else text).split()  # what follows '#' is commentary
        if not words:
            return  # a no-op
        if words[0] == "d":
            self.deal(number, text, words)
            return
        seat = _seat(words[0], self.n, number, text)
        verb = words[1] if len(words) > 1 else ""
        if verb in _BETTING:
            self.betting(seat)
        if verb in ("f", "cc", "pb") and len(words) == 2:
            self.fold_call_or_bring_in(number, text, seat, verb)
        elif verb == "cbr" and len(words) == 3:
            self.bet(number, text, seat, words[2])
        elif verb == "sm" and len(words) <= 3:
            self.show(seat, words[2] if len(words) == 3 else "")
        elif verb == "sd" and len(words) <= 3 and self.game.draw:
            self.draw(number, text, seat, words[2] if len(words) == 3 else None)
        else:
            self.refuse(number, text)

    def deal(self, number: int, text: str, words: list[str]) -> None:
        if len(words) == 4 and words[1] == "dh" and _cards(words[3]) is not None:
            self.deal_hole(number, text, words[2], words[3])
        elif len(words) == 3 and words[1] == "db" and _cards(words[2]) is not None:
            self.deal_board(number, text, words[2])
        else:
            raise PhhError(
                f"{_where(number, text)}: not a deal of hole cards (d dh pN CARDS) or of the board (d db CARDS)"
            )

    def deal_hole(self, number: int, text: str, player: str, dealt: str) -> None:
        self.dealt_to(number, text, _seat(player, self.n, number, text), _cards(dealt) or ())

    def dealt_to(self, number: int, text: str, seat: int, new: tuple[str, ...]) -> None:
        """Hole cards ``new`` dealt to ``seat`` (a seat of the hand's)."""
        if self.stud:  # stud: the cards say the street
            game, statuses = self.game, self.statuses
            reached = self.dealt[seat] + len(new)
            if reached > len(statuses):
                raise PhhError(f"{_where(number, text)}: more cards than {game.name} deals a player ({len(statuses)})")
            while self.street + 1 < game.streets and reached > self.dealt_by_street[self.street]:
                self.open_street(number, text)
            self.dealt[seat] = reached
        self.cards.hole[seat] += new
        self.cards.moves.append((_DEALT, seat, new))

    def deal_board(self, number: int, text: str, dealt: str) -> None:
        game = self.game
        if not any(game.board[self.street + 1 :]):
            if any(game.board):
                raise PhhError(f"{_where(number, text)}: a fourth board deal (hold'em deals flop, turn and river)")
            raise PhhError(f"{_where(number, text)}: a board deal {game.name} does not make")
        self.open_street(number, text)
        # Hold'em's board deal is where the street opens: placed at once.
        self.place(None)
        board = tuple(split_cards(dealt))
        self.cards.board += board
        self.cards.moves.append((_BOARD_DEALT, -1, board))

    def fold_call_or_bring_in(self, number: int, text: str, seat: int, verb: str) -> None:
        if verb == "pb" and self.game.limits != "bring_in":
            raise PhhError(f"{_where(number, text)}: a bring-in (pb) in {self.game.name}, which has none")
        if verb == "f":
            self.folded.add(seat)
            self.cards.moves.append((_FOLDED, seat, ()))
        self.acts.append(_act(number, text, seat, verb))

    def bet(self, number: int, text: str, seat: int, written: str) -> None:
        try:
            amount = Decimal(written)
        except InvalidOperation:
            raise PhhError(f"{_where(number, text)}: the amount is not a number") from None
        checked = amount if _plain(amount) else _amount(amount, _where(number, text))
        if checked is None or checked == 0:
            raise PhhError(f"{_where(number, text)}: a bet or raise is to a positive amount")
        self.bets.append((len(self.acts), checked))
        self.acts.append(_act(number, text, seat, "cbr"))

    def show(self, seat: int, showing: str) -> None:
        cards = self.cards
        if showing not in ("", "-") and _cards(showing) is not None:
            cards.hole[seat] = split_cards(showing)  # the cards it holds, now known
            cards.moves.append((_SHOWN, seat, tuple(cards.hole[seat])))
        cards.shows.append((seat, showing))  # no cards: a muck

    def draw(self, number: int, text: str, seat: int, discards: str | None) -> None:
        """A draw (``pN sd [CARDS]``): the first of a round, or a seat's second, opens a street."""
        if self.betting_since_draw or seat in self.drawn:
            self.open_street(number, text)
            self.drawn.clear()
            self.betting_since_draw = False
        self.drawn.add(seat)
        if discards is None:
            return
        if not _CARDS.match(discards):
            raise PhhError(f"{_where(number, text)}: {_brief(discards)} are not cards")
        held = self.cards.hole[seat]
        thrown = tuple(split_cards(discards))
        for card in thrown:
            if card in held:
                held.remove(card)
            elif "??" in held:
                held.remove("??")
            else:
                raise PhhError(f"{_where(number, text)}: p{seat + 1} discards {card}, which it does not hold")
        self.cards.moves.append((_DISCARDED, seat, thrown))

    def refuse(self, number: int, text: str) -> NoReturn:
        game = self.game
        if game.draw:
            raise PhhError(
                f"{_where(number, text)}: not a draw game's action (f, cc, cbr AMOUNT, sd [CARDS], sm [CARDS])"
            )
        if game.limits == "bring_in":
            raise PhhError(f"{_where(number, text)}: not a stud action (f, cc, cbr AMOUNT, pb, sm [CARDS])")
        raise PhhError(f"{_where(number, text)}: not a hold'em action (f, cc, cbr AMOUNT, sm [CARDS])")


#: What an action's text is, as _parse_actions takes it at once (a stud deal aside):
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
