"""The cards a hand's actions move, and the check that they can come from one deck of its game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from betspec.cards import Game
from betspec.tools.phh.model import PhhError, _cut

if TYPE_CHECKING:
    pass


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
    deck = _Deck(game, n, dealt_by_street)
    # A history that writes no hole cards at all has them unknown, not wrong (betting and board
    # alone): its counts are not checked; one that deals to some players deals to all.
    deck.records_deal = any(what == _DEALT for what, _, _ in moves)
    for what, seat, cards in moves:
        if what == _OPENED:
            deck.dealt += 1  # the card burned before the street's deal
        elif what == _FOLDED:
            deck.fold(seat)
        elif what == _BETTING_STARTS:
            deck.betting_starts(seat)  # (the street is in the seat's place)
        elif what in (_DEALT, _BOARD_DEALT):
            deck.deal(seat, cards)
        elif what == _DISCARDED:
            deck.discard(seat, cards)
        else:
            deck.show(seat, cards)


class _Deck:
    """Where each known card of a hand is as its moves are followed (:func:`_check_deck`)."""

    def __init__(self, game: Game, n: int, dealt_by_street: Sequence[int]) -> None:
        self.game, self.n, self.dealt_by_street = game, n, dealt_by_street
        self.ranks, self.suits = game.ranks, game.suits
        self.size = len(self.ranks) * len(self.suits)
        self.where: dict[str, int] = {}  # a known card in play -> the seat holding it (-1: the board)
        self.discarded: dict[str, int] = {}  # a known card discarded -> the seat that discarded it
        self.held = [0] * n  # hole cards each seat holds, known or not
        self.out: set[int] = set()  # seats folded
        self.street = 0
        self.dealt = 0
        self.records_deal = False

    @staticmethod
    def named(seat: int) -> str:
        return "the board" if seat < 0 else f"p{seat + 1}"

    def place(self, card: str, seat: int, how: str) -> None:
        """``card`` comes into play at ``seat`` (-1: the board), ``how`` saying how ("dealt to",
        "shown by": worded with the seat only for a message, not for every card)."""
        game, size, where, named = self.game, self.size, self.where, self.named
        if card[0] in self.ranks and card[1] in self.suits and card not in where and card not in self.discarded:
            where[card] = seat  # the commonest case, decided in one test
            return
        doing = "dealt on the board" if seat < 0 else f"{how} {named(seat)}"
        if card[0] not in self.ranks or card[1] not in self.suits:
            raise PhhError(f"{card}, {doing}, is not a card of {game.name}'s {size}-card deck")
        other = where.get(card)
        if other is not None:
            held_by = "on the board" if other < 0 else f"held by {named(other)}" + (" already" if other == seat else "")
            raise PhhError(f"{card} is {doing} and {held_by}: a deck holds each card once")
        if card in self.discarded and self.dealt <= size:  # (burned cards counted: one a street)
            raise PhhError(
                f"{card} is dealt to {named(seat)} after {named(self.discarded[card])} discarded it, "
                f"before the deck ran out ({self.dealt} of {size} cards dealt)"
            )
        where[card] = seat

    def fold(self, seat: int) -> None:
        self.out.add(seat)
        for card in [card for card, holder in self.where.items() if holder == seat]:
            del self.where[card]
            self.discarded[card] = seat

    def betting_starts(self, street: int) -> None:
        self.street = street
        if not self.records_deal:
            return
        dealt_by_street, held = self.dealt_by_street, self.held
        for player in range(self.n):
            if player not in self.out and held[player] != dealt_by_street[street]:
                raise PhhError(
                    f"p{player + 1} holds {held[player]} hole cards when the betting of street {street + 1} "
                    f"starts; {self.game.name} deals {dealt_by_street[street]} by then"
                )

    def deal(self, seat: int, cards: tuple[str, ...]) -> None:
        for card in cards:
            self.dealt += 1
            if "?" not in card:
                self.place(card, seat, "dealt to")
        if seat >= 0:
            self.held[seat] += len(cards)

    def discard(self, seat: int, cards: tuple[str, ...]) -> None:
        self.held[seat] -= len(cards)
        for card in cards:
            if "?" not in card:
                self.where.pop(card, None)
                self.discarded[card] = seat

    def show(self, seat: int, cards: tuple[str, ...]) -> None:
        """The cards the seat holds shown: those dealt unknown now known."""
        held = self.held[seat]
        mine = {card for card, holder in self.where.items() if holder == seat}
        shown = {card for card in cards if "?" not in card}
        if not mine <= shown:
            hidden = " ".join(sorted(mine - shown))
            raise PhhError(f"p{seat + 1} shows {_cut(''.join(cards))}, but was dealt {hidden}")
        if len(cards) != held:
            raise PhhError(f"p{seat + 1} shows {len(cards)} cards and holds {held}")
        if held < self.dealt_by_street[self.street]:
            raise PhhError(
                f"p{seat + 1} shows {held} cards; {self.game.name} deals {self.dealt_by_street[self.street]}"
            )
        for card in sorted(shown - mine):
            self.place(card, seat, "shown by")
