"""A hand's ``actions`` field read: its betting actions, the deals that open streets, and its cards."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, cast

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
