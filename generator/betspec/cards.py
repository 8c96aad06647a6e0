"""Cards for hosts, the PHH layer and ``betspec play``: the games PHH names, a seeded deck, what
the cards decide (the stud bring-in and openers, an open pair), and the showdown ranked.

betspec's engines play the betting; the cards are the dealer's. This module deals them and
tells the engine what they decide: ``bring_in_seat`` (a table input) and ``opener`` and
``open_pair`` (a stud deal's inputs), then ranks the showdown for :meth:`Engine.settle`.
Hands are ranked by evaluator libraries: high hands of five to seven cards and Omaha's by
phevaluator (microseconds a hand), the others by PokerKit's evaluators (``pip install pokerkit``),
read from its lookups kept as tables (:mod:`betspec.lookups`: a showdown then needs no ``import
pokerkit``, which builds every lookup), each checked to rank as PokerKit does
(tests/test_evaluator.py, tests/test_lookups.py); without PokerKit,
:func:`rankings` raises :class:`NoEvaluator` and a caller says once that the showdown is not
checked. The one kind no library ranks, ``high_cards`` (hands of fewer than five cards: Kuhn
poker, Leduc hold'em), betspec ranks itself (:func:`high_cards_strength`).

**Games.** :data:`GAMES` is keyed by the PHH variant code (https://phh.readthedocs.io): what
each street deals (hole cards down or up, board cards), whether a draw comes before it, the
PokerKit hand types ranked (two for a high-low split game), how the opener is chosen, and the
betspec structure whose betting the variant is. A structure is dealt as its spec's ``game``
says (:func:`game_of`), named in hand histories by the variant dealing the same cards (PHH has no
code for pot-limit hold'em, nor for pot- or fixed-limit single draw: NT and N2L1D name them).

**High-low.** A split game ranks twice; :func:`settlement_rankings` turns the two rankings into
the ``runs`` of :meth:`Engine.settle`: each pot in two halves, the odd chip to the high half
(Robert's Rules of Poker, split pots: the odd chip goes to the high hand), the low half to the
best qualifying low among the pot's players, else to the high hand.
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import random
import sys
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from betspec import lookups, vocabulary
from betspec.runtime.errors import BetspecError, Code, shown

if TYPE_CHECKING:
    from betspec.runtime import Engine
    from betspec.runtime.engine import Settlement

RANKS = vocabulary.CARD_RANKS
SUITS = vocabulary.CARD_SUITS  # PokerKit's suit order, clubs lowest: the stud bring-in's tie-break


class CardError(BetspecError):
    """Cards that cannot be dealt or ranked as asked (a game betspec does not know, a bad card)."""

    code = Code.BAD_PHH.value


class NoEvaluator(CardError):
    """PokerKit, whose evaluators rank the hands, is not installed."""


@dataclass(frozen=True)
class Game:
    """How a poker game deals and ranks, as PHH names it."""

    code: str  # the PHH variant code
    name: str
    structure: str  # the betspec structure whose betting it is
    hole: tuple[tuple[bool, ...], ...]  # per street: the hole cards dealt to each seat, True face up
    board: tuple[int, ...]  # per street: the board cards dealt as it opens
    draw: bool = False  # a draw before every street but the first
    hands: tuple[str, ...] = ("StandardHighHand",)  # PokerKit's hand types, high first
    opening: str = "position"  # position, low_card (stud) or high_card (razz)
    limits: str = "min_bet"  # the PHH fields of its limits: min_bet, bets (small/big) or bring_in
    ace_low: bool = False  # the ace is the lowest card (a bot's draw keeps it)
    distinct_suits: bool = False  # a low hand needs its suits distinct too (a bot's draw)
    #: Per street: whether a draw opens it (empty: before every street but the first, if ``draw``).
    draws: tuple[bool, ...] = ()
    #: Per street: the hole cards each seat still in discards as it opens, none replaced (empty: none).
    discards: tuple[int, ...] = ()
    #: The boards the board cards are dealt to (each paying its part of every pot), and the table
    #: input that must be given nonzero for more than one ('': always).
    boards: int = 1
    boards_when: str = ""
    #: The deck: its ranks (lowest first) and suits, a card of every rank in every suit (the short
    #: deck's six to ace; a spec's own, as Kuhn poker's three cards).
    ranks: str = RANKS
    suits: str = SUITS

    @property
    def short_deck(self) -> bool:
        """Dealt from the short deck (six to ace, every suit)."""
        return (self.ranks, self.suits) == (vocabulary.DECK_RANKS["short"], SUITS)

    @property
    def deck(self) -> list[str]:
        """The deck's cards in order: by rank, lowest first, then by suit."""
        return [rank + suit for rank in self.ranks for suit in self.suits]

    @property
    def streets(self) -> int:
        return len(self.hole)

    def undealable(self, seats: int) -> str:
        """Why the deck cannot deal the first street to ``seats`` seats ("" when it can): Kuhn
        poker's three cards cannot deal four seats. (A later street short of cards is the dealer's
        to handle, as stud's last card is dealt face up to all when eight play.)"""
        needed = len(self.hole[0]) * seats + self.board[0] * self.boards if self.hole else 0
        size = len(self.ranks) * len(self.suits)
        return (
            f"{self.name}'s deck of {size} cards cannot deal {seats} seats ({needed} needed)" if needed > size else ""
        )

    @property
    def split(self) -> bool:
        return len(self.hands) > 1

    def draws_before(self, street: int) -> bool:
        """Whether a draw opens street ``street`` (0: the first)."""
        if self.draws:
            return 0 <= street < len(self.draws) and self.draws[street]
        return self.draw and 0 < street < self.streets

    def discards_before(self, street: int) -> int:
        """The hole cards each seat still in discards as street ``street`` opens (0: the first)."""
        return self.discards[street] if 0 <= street < len(self.discards) else 0


def _load_games() -> dict[str, Game]:
    """The games of ``games.json``: how each PHH variant deals and ranks, and the structure whose
    betting it is (data of the format, not rules of the code; a spec says its own game)."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "games.json"), encoding="utf-8") as handle:
        data = json.load(handle)
    games = {
        code: Game(
            code,
            entry["name"],
            entry["structure"],
            tuple(tuple(bool(up) for up in street) for street in entry["hole"]),
            tuple(int(count) for count in entry["board"]),
            draw=bool(entry["draw"]),
            hands=tuple(entry["hands"]),
            opening=entry["opening"],
            ranks=vocabulary.DECK_RANKS["short" if entry["short_deck"] else "standard"],
            limits=entry["limits"],
            ace_low=bool(entry["ace_low"]),
            distinct_suits=bool(entry["distinct_suits"]),
        )
        for code, entry in data["games"].items()
    }
    return games


#: The PHH variants whose betting is a betspec structure, by code.
GAMES: Mapping[str, Game] = _load_games()
#: The evaluator (PokerKit's hand type) of each kind of hand a spec's showdown names
#: (:data:`betspec.vocabulary.HANDS`).
HAND_TYPES: Mapping[str, str] = {name: kind.evaluator for name, kind in vocabulary.HANDS.items()}


def game(code: str) -> Game:
    """The game of a PHH code; raises :class:`CardError` naming the codes known."""
    found = GAMES.get(code) if isinstance(code, str) else None
    if found is None:
        raise CardError(f"no game {code!r}: betspec deals {', '.join(GAMES)}")
    return found


def game_of(cls: type[Engine]) -> Game:
    """The game a structure's engine deals, as its spec's ``game`` says (the spec, not its name
    or streets, decides); :class:`CardError` where the spec declares no cards. Its code is the
    PHH variant that deals the same cards, the one stating its limits as the structure does
    first ('' if none)."""
    if not isinstance(cls, type) or not isinstance(getattr(cls, "SPEC_NAME", None), str):
        raise CardError(f"game_of takes a generated engine class, not {shown(cls)}")
    data = getattr(cls, "GAME", None)
    if not isinstance(data, Mapping):
        raise CardError(f"{cls.SPEC_NAME} declares no game: no cards are dealt")
    # A class's game is read once: an audit asks for it at every hand.
    known = _GAMES_OF.get(cls)
    if known is not None and known[0] is data:
        return known[1]
    try:
        found = _game_of(cls, data)
    except (KeyError, TypeError, ValueError, AttributeError):
        raise CardError(f"{cls.SPEC_NAME}'s GAME is not a game betspec generated: regenerate it") from None
    _GAMES_OF[cls] = (data, found)
    return found


#: The games of the engine classes asked for, with the GAME each was read from (weakly: a class
#: loaded again from a regenerated module is read again).
_GAMES_OF: weakref.WeakKeyDictionary[type[Engine], tuple[Mapping[str, Any], Game]] = weakref.WeakKeyDictionary()


def _game_of(cls: type[Engine], data: Mapping[str, Any]) -> Game:
    deals = cast(Sequence[Mapping[str, Any]], data["deals"])
    showdown = tuple(cast(Sequence[str], data["showdown"]))
    draws = tuple(bool(deal["draw"]) for deal in deals)
    ranks, suits = vocabulary.deck_cards(data["deck"]) or ("", "")
    if not ranks:
        raise ValueError("no deck")
    found = Game(
        "",
        str(data["name"]),
        cls.SPEC_NAME,
        tuple(tuple(face == "up" for face in deal["hole"]) for deal in deals),
        tuple(int(deal["board"]) for deal in deals),
        draw=any(draws),
        hands=tuple(HAND_TYPES[kind] for kind in showdown),
        opening=str(data["opening"]),
        limits=_limits(cls),
        ace_low=vocabulary.HANDS[showdown[0]].ace_low,
        distinct_suits=vocabulary.HANDS[showdown[0]].distinct_suits,
        draws=draws,
        discards=tuple(int(deal.get("discard", 0)) for deal in deals),
        boards=int(cast(int, data.get("boards", 1))),
        boards_when=str(data.get("boards_when", "")),
        ranks=ranks,
        suits=suits,
    )
    # A PHH variant dealing the same cards names the game in hand histories: the one stating its
    # limits as this structure does, else any (PHH has no pot-limit hold'em: NT, as PokerKit writes).
    alike = [known for known in GAMES.values() if _same_cards(known, found)]
    alike.sort(key=lambda known: known.limits != found.limits)
    return replace(found, code=alike[0].code, limits=alike[0].limits) if alike else found


def _limits(cls: type[Engine]) -> str:
    """How a PHH file states the structure's limits: a bring-in (stud), small and big bets, or a
    minimum bet (no and pot limit)."""
    if "bring_in" in cls.INPUTS:
        return "bring_in"
    return "bets" if "bets" in cls.INPUTS else "min_bet"


def _same_cards(known: Game, game: Game) -> bool:
    """Whether a PHH variant deals and ranks as ``game`` does."""
    draws = known.draws or tuple(known.draw and street > 0 for street in range(known.streets))
    if any(game.discards) or (game.boards > 1 and not game.boards_when):
        return False  # no PHH variant discards without drawing, or deals every hand on two boards
    return (known.hole, known.board, draws, known.hands, known.opening, known.ranks, known.suits) == (
        game.hole,
        game.board,
        game.draws,
        game.hands,
        game.opening,
        game.ranks,
        game.suits,
    )


def split_cards(text: str) -> list[str]:
    """``"AhKs??"`` as ``["Ah", "Ks", "??"]``."""
    return [text[i : i + 2] for i in range(0, len(text) - 1, 2)]


def known(cards: Iterable[str]) -> bool:
    return "?" not in "".join(cards)  # (one scan: a deal of stud asks it of every seat)


# ---- what the cards decide: the stud bring-in and openers ----------------------------------


def _card_key(card: str, low_game: bool) -> tuple[int, int]:
    """A card's place for the bring-in: by rank (the ace high in stud, low in razz), then suit."""
    rank = card[0]
    order = ("A" + RANKS[:-1]) if low_game else RANKS
    return order.index(rank), SUITS.index(card[1])


def bring_in_seat(the_game: Game, upcards: Mapping[int, Sequence[str]]) -> int:
    """The seat that brings in: the lowest upcard (by suit on a tie; clubs lowest) in stud, the
    highest (the king of spades highest, the ace low) in razz. Robert's Rules of Poker, section 8
    rule 1 and section 9; WSOP 2024 Tournament Rules IX."""
    low_game = the_game.opening == "high_card"
    shown = {seat: cards[0] for seat, cards in upcards.items() if cards and known(cards[:1])}
    if not shown:
        raise CardError("no upcard is known: the bring-in cannot be decided")
    pick = max if low_game else min
    return pick(shown, key=lambda seat: _card_key(shown[seat], low_game))


def opener(the_game: Game, upcards: Mapping[int, Sequence[str]], button: int | None = None) -> int | None:
    """The seat that opens a later stud street: the best hand showing (lowest in razz), the seat
    nearest the dealer's left on a tie (Robert's Rules, section 8 rule 2): the first after
    ``button`` (the dealer's place), else the lowest seat (a hand history's first player is the
    one after its button). Ranked by PokerKit's own opening lookups; None for games opened by
    position."""
    if the_game.opening == "position":
        return None
    low_game = the_game.opening == "high_card"
    table = lookups.table(lookups.OPENING[low_game])
    if table is None:
        raise NoEvaluator("PokerKit, which ranks the hands showing, is not installed (pip install pokerkit)")
    strengths: dict[int, int] = {}
    after = -1 if button is None else button
    for seat in sorted(upcards, key=lambda seat: (seat - after - 1) % 1000):
        strength = _cards_strength(table, upcards[seat]) if upcards[seat] else None
        if strength is not None:
            strengths[seat] = strength
    if not strengths:
        return None
    best = max(strengths.values())  # a low game's table counts the lowest strongest
    return next(seat for seat in strengths if strengths[seat] == best)  # the nearest the dealer's left on a tie


def open_pair(upcards: Mapping[int, Sequence[str]]) -> bool:
    """A pair shows on fourth street: two upcards of one rank (Robert's Rules, section 8 rule 4)."""
    return any(len(cards) == 2 and known(cards) and cards[0][0] == cards[1][0] for cards in upcards.values())


# ---- the showdown ---------------------------------------------------------------------------


def rankings(the_game: Game, holes: Mapping[int, Sequence[str]], board: Sequence[str] = ()) -> list[list[list[int]]]:
    """The showdown of ``holes`` (seat -> the cards it holds) ranked by each of the game's hand
    types (PokerKit's evaluators): per type, groups of seats best first, ties together. A seat
    with no hand of a type (no qualifying low) is left out of that ranking. Raises
    :class:`NoEvaluator` without PokerKit, :class:`CardError` for cards it cannot rank."""
    lists = [board, *holes.values()] if isinstance(holes, Mapping) else [""]
    if not all(isinstance(cards, Sequence) and not isinstance(cards, str) for cards in lists):
        raise CardError("rankings takes each seat's cards and the board as lists of cards (['Ah', 'Kd'])")
    texts = [card for cards in lists for card in cards]
    if not all(isinstance(card, str) for card in texts):
        raise CardError(f"cards are texts ('Ah'), not {shown(next(c for c in texts if not isinstance(c, str)))}")
    if any(name not in _OWN_EVALUATORS for name in the_game.hands) and not lookups.installed():
        raise NoEvaluator("PokerKit, which ranks the hands, is not installed (pip install pokerkit)")
    result: list[list[list[int]]] = []
    board_text = "".join(board)
    for index, name in enumerate(the_game.hands):
        own = _OWN_EVALUATORS.get(name)
        strengths: dict[int, Any] = {}
        for seat, cards in holes.items():
            if not known(cards) or not known(board):
                raise CardError(f"seat {seat} shows down and its cards are not all known")
            if own is not None:
                try:
                    strengths[seat] = own(cards, board)
                except ValueError:
                    raise CardError(f"seat {seat} shows {''.join(cards)} {board_text}: not cards of a deck") from None
                continue
            try:
                strengths[seat] = _strength(name, cards, board)
            except ValueError:
                if index == 0:
                    raise CardError(f"PokerKit's {name} makes no hand of {''.join(cards)} {board_text}") from None
        ranking: list[list[int]] = []
        for seat in sorted(strengths, key=lambda s: strengths[s], reverse=True):
            if ranking and strengths[seat] == strengths[ranking[-1][0]]:
                ranking[-1].append(seat)
            else:
                ranking.append([seat])
        result.append(ranking)
    return result


def high_cards_strength(cards: Sequence[str], board: Sequence[str] = ()) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The strength of a ``high_cards`` hand (every card of the hand and the board, however few),
    larger the better: the sizes of its groups of one rank, largest first (a pair over high cards,
    two pair over a pair, a full house over three of a kind: the order of the poker hands without
    straights or flushes), then the groups' ranks in that order. Suits do not count. PokerKit
    ranks hands of five cards and more only; Kuhn poker's is one card, Leduc hold'em's two."""
    counts: dict[int, int] = {}
    for card in (*cards, *board):
        if len(card) != 2 or card[1] not in SUITS:
            raise ValueError(f"{card!r} is not a card")
        rank = RANKS.index(card[0])
        counts[rank] = counts.get(rank, 0) + 1
    groups = sorted(((count, rank) for rank, count in counts.items()), reverse=True)
    return tuple(count for count, _ in groups), tuple(rank for _, rank in groups)


#: The hand types betspec ranks itself (vocabulary.HANDS' evaluator), none of PokerKit's.
_OWN_EVALUATORS: dict[str, Any] = {vocabulary.HANDS["high_cards"].evaluator: high_cards_strength}


def ranked_by(the_game: Game) -> str:
    """Who ranks the game's showdown, in words: PokerKit's evaluators, or betspec's own."""
    return "betspec" if all(name in _OWN_EVALUATORS for name in the_game.hands) else "PokerKit"


def _fast_strength(name: str, cards: Sequence[str], board: Sequence[str]) -> int | None:
    """The strength of a hand of the types phevaluator ranks as PokerKit does (the best five of
    five to seven cards; Omaha's two of four in the hand with three of five on the board), larger
    the better, or None: PokerKit ranks the others. phevaluator ranks a hand in microseconds where
    PokerKit takes about a millisecond (benchmarks/phh_variants.py; tests/test_evaluator.py checks
    the two rank alike)."""
    if name == "StandardHighHand" and 5 <= len(cards) + len(board) <= 7:
        return -int(_phevaluator().evaluate_cards(*_card_ids([*cards, *board])))
    if name == "OmahaHoldemHand" and len(cards) == 4 and len(board) == 5:
        return -int(_phevaluator().evaluate_omaha_cards(*_card_ids([*board, *cards])))
    return None


def _card_ids(cards: list[str]) -> list[Any]:
    """The cards as phevaluator's numbers, which it takes as they are (it reads a card's text in
    Python: three quarters of a showdown's ranking); a card not of the deck as it is written, for
    phevaluator to refuse."""
    ids = _phevaluator_ids()
    return [ids.get(card, card) for card in cards]


@functools.cache
def _phevaluator_ids() -> dict[str, int]:
    card = _phevaluator().Card
    return {rank + suit: int(card.to_id(rank + suit)) for rank in RANKS for suit in SUITS}


def _strength(name: str, cards: Sequence[str], board: Sequence[str]) -> Any:
    """The strength of a seat's hand of PokerKit's hand type ``name``, larger the better: by
    phevaluator, else by the type's lookup table, else (a type made otherwise, cards not written
    two characters each) by PokerKit's ``from_game``. Raises ValueError where they make no hand."""
    fast = _fast_strength(name, cards, board)
    if fast is None:
        table = lookups.table(name)
        fast = None if table is None else _table_strength(table, cards, board)
    if fast is not None:
        return fast
    import pokerkit

    kind = getattr(pokerkit, name, None)
    if kind is None:
        raise NoEvaluator(f"this PokerKit has no {name} to rank the hands")
    return kind.from_game("".join(cards), "".join(board))


def _table_strength(table: lookups.Table, cards: Sequence[str], board: Sequence[str]) -> int | None:
    """PokerKit's own strength of a seat's hand, larger the better, read from its lookup's table
    (:mod:`betspec.lookups`) as its ``from_game`` makes the hand; None where the cards are not
    written two characters each (``from_game`` reads them then). Raises ValueError, as
    ``from_game`` does, when the cards make no hand of the type (no qualifying low)."""
    if not all(len(card) == 2 and card[0] in RANKS and card[1] in SUITS for card in (*cards, *board)):
        return None
    shape = table.shape
    if shape == "combination":
        best = _best_of(table, sorted([*cards, *board]), table.count)
    elif shape == "hole_board":
        best = None
        for held in itertools.combinations(cards, table.hole):
            found = _best_of(table, sorted([*held, *board]), table.hole + table.board, held)
            if found is not None and (best is None or found > best):
                best = found
    elif shape == "distinct":
        best = _distinct_strength(table, cards, board)
    else:
        best = _cards_strength(table, cards)
    if best is None:
        raise ValueError(f"no {table.name} of {''.join(cards)} {''.join(board)}")
    return best


def _best_of(table: lookups.Table, every: list[str], count: int, held: Sequence[str] = ()) -> int | None:
    """The best ``count`` of the cards ``every`` (sorted: each subset's ranks then in one order,
    its key), or None; with ``held``, only those holding all of them (Omaha's two)."""
    if held:
        rest = sorted(card for card in every if card not in held)
        fives = (sorted([*held, *three]) for three in itertools.combinations(rest, count - len(held)))
    else:
        fives = (list(five) for five in itertools.combinations(every, count))
    suits = [card[1] for card in every]
    # No five shares a suit unless some suit holds five of the cards.
    flush = any(suits.count(suit) >= count for suit in set(suits))
    offsuit, suited, sign = table.offsuit, table.suited, -1 if table.low else 1
    best: int | None = None
    for five in fives:
        ranks = "".join(card[0] for card in five)
        index = (suited if flush and len({card[1] for card in five}) == 1 else offsuit).get(ranks)
        if index is not None and (best is None or sign * index > best):
            best = sign * index
    return best


def _distinct_strength(table: lookups.Table, cards: Sequence[str], board: Sequence[str]) -> int | None:
    """The strength of a hand of the most cards of distinct ranks and suits, then the best by the
    table (as PokerKit's ``from_game`` picks it), larger the better; None: no cards. Its table
    keys such cards by their ranks alone (none share a suit, one card is kept offsuit)."""
    every = sorted([*cards, *board])
    for count in range(min(len(every), len(SUITS)), 0, -1):
        best: int | None = None
        for subset in itertools.combinations(every, count):
            ranks = "".join(card[0] for card in subset)
            if len(set(ranks)) < count or len({card[1] for card in subset}) < count:
                continue
            strength = table.strength(ranks, False)
            if strength is not None and (best is None or strength > best):
                best = strength
        if best is not None:  # the most cards first: fewer make a hand only where these make none
            return best
    return None


def _cards_strength(table: lookups.Table, cards: Sequence[str]) -> int | None:
    """The strength of the cards as they are (a stud street's upcards), or None: no entry."""
    ordered = sorted(cards)
    suited = len(ordered) > 1 and len({card[1] for card in ordered}) == 1
    return table.strength("".join(card[0] for card in ordered), suited)


@functools.cache
def _phevaluator() -> Any:
    import phevaluator

    return phevaluator


def settlement_rankings(ranked: Sequence[Sequence[Sequence[int]]]) -> dict[str, Any]:
    """The keyword arguments of :meth:`Engine.settle` for a showdown's rankings: ``ranking`` for a
    game ranked once; ``runs`` (high, then low) for a split game, the low ranking completed with
    the seats that have no qualifying low in their high order, so that a pot nobody in it has a
    low for goes whole to the high hand."""
    if len(ranked) == 1:
        return {"ranking": [list(group) for group in ranked[0]]}
    high, low = ranked[0], ranked[1]
    if not low:
        return {"ranking": [list(group) for group in high]}
    in_low = {seat for group in low for seat in group}
    rest = [[seat for seat in group if seat not in in_low] for group in high]
    return {"runs": [[list(g) for g in high], [list(g) for g in low] + [g for g in rest if g]]}


def made(the_game: Game, cards: Sequence[str], board: Sequence[str] = ()) -> str | None:
    """What a seat's cards make with the board as the game's high hand, in the words of
    vocabulary.HAND_CATEGORIES (PokerKit's label: "four_of_a_kind"), or None: a game ranked low
    first (razz, deuce-to-seven, badugi), cards unknown or too few, or no PokerKit."""
    try:
        import pokerkit
    except ImportError:
        return None
    kind = getattr(pokerkit, the_game.hands[0], None) if the_game.hands else None
    if kind is None or kind.low or not known([*cards, *board]):
        return None
    try:
        label = kind.from_game("".join(cards), "".join(board)).entry.label.name.lower()
    except ValueError:
        return None
    return label if label in vocabulary.HAND_CATEGORIES else None


def describe(the_game: Game, cards: Sequence[str], board: Sequence[str] = ()) -> str:
    """What a seat's cards make, as PokerKit names it ("One pair (JsTs2cAhAs)"), or ""."""
    try:
        import pokerkit
    except ImportError:
        return ""
    names = []
    for name in the_game.hands:
        kind = getattr(pokerkit, name, None)
        try:
            names.append(str(kind.from_game("".join(cards), "".join(board))) if kind else "")
        except ValueError:
            continue
    return "; ".join(n for n in names if n)


# ---- a dealer for hosts -----------------------------------------------------------------------


@dataclass
class Dealer:
    """A seeded deck dealt to ``seats`` seats, as ``game`` deals: the host's side of a hand.

    ``Dealer("F7S", 3, seed=7)`` deals third street at once (every seat is dealt in);
    :meth:`table_inputs` is what the cards decide for the table (``bring_in_seat``);
    :meth:`deal` deals the engine's next street to the seats still in and tells the engine
    (``opener`` and ``open_pair`` in stud); :meth:`draw` discards and replaces before a draw
    street; :meth:`settle` ranks the showdown with PokerKit and has the engine pay every pot."""

    game: Game
    seats: int
    seed: object = None
    deck: list[str] = field(default_factory=list)
    hole: list[list[str]] = field(default_factory=list)  # each seat's cards, in the order dealt
    up: list[list[bool]] = field(default_factory=list)  # each card face up or not
    board: list[str] = field(default_factory=list)
    discards: list[list[str]] = field(default_factory=list)  # each seat's discards, per draw
    street: int = 0  # the streets dealt
    #: Per street: the hole cards dealt each seat as it opened (replacements of a draw included).
    dealt: list[list[tuple[int, list[str]]]] = field(default_factory=list)
    #: Per street: the board cards dealt as it opened.
    boards: list[list[str]] = field(default_factory=list)
    #: Per street: each seat's discards in the draw before it (absent: stood pat).
    draws: list[dict[int, list[str]]] = field(default_factory=list)
    #: The boards after the first (a double board: one), each dealt as many cards as ``board``.
    other_boards: list[list[str]] = field(default_factory=list)
    #: What each run of the last settlement paid, in the engine's order of runs (its awards'
    #: ``run``): a split game's "high" and "low", each board's ("board 2 low"); empty for one.
    run_names: list[str] = field(default_factory=list)
    #: The seat that showed its cards to claim a payment outside an uncontested pot (the 7-2
    #: bounty), as the last settle had it; None: none did.
    claimed: int | None = None

    def __init__(self, game_or_code: Game | str, seats: int, seed: object = None) -> None:
        self.game = game_or_code if isinstance(game_or_code, Game) else game(game_or_code)
        if type(seats) is not int or not 2 <= seats <= 10:
            raise CardError(f"a dealer deals to 2 to 10 seats, not {shown(seats)}")
        # A seed is a number or a text (as random.Random takes one), never a structure whose
        # repr could be anything (deeply nested, huge).
        if not (seed is None or type(seed) is int or (isinstance(seed, str | bytes) and len(seed) <= 4096)):
            raise CardError(f"a dealer's seed is None, an int or a text of at most 4096 characters, not {shown(seed)}")
        if short := self.game.undealable(seats):
            raise CardError(short)
        self.seats = seats
        self.seed = seed
        self.deck = self.game.deck
        random.Random(seed).shuffle(self.deck)
        self.hole = [[] for _ in range(seats)]
        self.up = [[] for _ in range(seats)]
        self.board = []
        self.discards = [[] for _ in range(seats)]
        self.street = 0
        self.dealt = [[] for _ in self.game.hole]
        self.boards = [[] for _ in self.game.hole]
        self.draws = [{} for _ in self.game.hole]
        # A game on several boards on a condition knows whether it holds once it sees the table
        # (at the first deal): until then, one board.
        self.other_boards = [[] for _ in range(self.game.boards - 1)] if not self.game.boards_when else []
        self.run_names = []
        self.claimed = None
        self._deal_street(range(seats))

    def _take(self, count: int) -> list[str]:
        if count > len(self.deck):
            raise CardError(f"the deck is out of cards ({len(self.deck)} left, {count} needed)")
        taken, self.deck = self.deck[:count], self.deck[count:]
        return taken

    def _deal_street(self, seats: Iterable[int]) -> None:
        statuses = self.game.hole[self.street]
        for seat in seats:
            new = self._take(len(statuses))
            self.hole[seat] += new
            self.up[seat] += statuses
            if new:
                self.dealt[self.street].append((seat, new))
        count = self.game.board[self.street]
        board = self._take(count)
        self.board += board
        self.boards[self.street] = board
        for other in self.other_boards:
            other += self._take(count)
        self.street += 1

    def _choose_boards(self, engine: Engine) -> None:
        """On a game's first board cards, the boards of this hand: several where the table gives
        the game's condition (a bomb pot), else one."""
        when = self.game.boards_when
        if when and not self.board and not self.other_boards:
            given = engine.table.get(when)
            if type(given) in (int, bool) and given:
                self.other_boards = [[] for _ in range(self.game.boards - 1)]

    @property
    def all_boards(self) -> list[list[str]]:
        """Every board of the hand, the first first (one, unless the game deals several)."""
        return [self.board, *self.other_boards]

    def upcards(self, seats: Iterable[int] | None = None) -> dict[int, list[str]]:
        """Each seat's cards dealt face up (every seat's, or those of ``seats``)."""
        if seats is None:
            chosen: Iterable[int] = range(self.seats)
        elif isinstance(seats, str | bytes) or not isinstance(seats, Iterable):
            raise CardError(f"seats are a list of seats, not {shown(seats)}")
        else:
            chosen = [self._seat(seat) for seat in itertools.islice(seats, self.seats + 1)]
        return {s: [c for c, u in zip(self.hole[s], self.up[s], strict=True) if u] for s in chosen}

    def table_inputs(self) -> dict[str, object]:
        """What the first street's cards decide for the table: the stud bring-in's seat."""
        if self.game.opening == "position":
            return {}
        return {"bring_in_seat": bring_in_seat(self.game, self.upcards())}

    def _seat(self, seat: object) -> int:
        if type(seat) is not int or not 0 <= seat < self.seats:
            raise CardError(f"a seat is a number from 0 to {self.seats - 1}, not {shown(seat)}")
        return seat

    def draw(self, seat: int, discard: Sequence[str] = ()) -> list[str]:
        """Seat ``seat`` discards these cards (none: stands pat) and is dealt as many: the new ones.
        A draw refused (not a draw game, no draw left, drawn already, cards the seat does not
        hold) changes nothing."""
        seat = self._seat(seat)
        if not self.game.draw:
            raise CardError(f"{self.game.name} has no draw")
        if isinstance(discard, str) or not isinstance(discard, Sequence) or len(discard) > len(self.hole[seat]):
            raise CardError(f"a discard is a list of the cards seat {seat} holds, not {shown(discard)}")
        cards = list(discard)
        held = self.hole[seat]
        if any(type(card) is not str or card not in held for card in cards) or len(set(cards)) != len(cards):
            raise CardError(f"seat {seat} holds {''.join(held)}: it cannot discard {shown(cards)}")
        if self.street >= self.game.streets:
            raise CardError("no draw is left: every street is dealt")
        if not self.game.draws_before(self.street):
            raise CardError(f"{self.game.name} has no draw before street {self.street + 1}")
        if seat in self.draws[self.street]:
            raise CardError(f"seat {seat} has drawn already before this street")
        if len(cards) > len(self.deck):
            raise CardError(f"the deck is out of cards ({len(self.deck)} left, {len(cards)} needed)")
        for card in cards:
            index = held.index(card)
            del held[index]
            del self.up[seat][index]
        self.discards[seat] += cards
        new = self._take(len(cards))
        held += new
        self.up[seat] += [False] * len(new)
        self.draws[self.street][seat] = cards
        if new:
            self.dealt[self.street].append((seat, new))
        return new

    def discard(self, seat: int, cards: Sequence[str]) -> None:
        """Seat ``seat`` throws away these of its cards before the next street, none replaced, as
        many as the game says (crazy pineapple: one as the turn opens). A discard refused (none
        due, the wrong count, discarded already, cards the seat does not hold) changes nothing."""
        seat = self._seat(seat)
        due = self.game.discards_before(self.street)
        if not due:
            raise CardError(f"{self.game.name} has no discard before street {self.street + 1}")
        if isinstance(cards, str) or not isinstance(cards, Sequence) or len(cards) != due:
            raise CardError(f"seat {seat} discards {due} of its cards here, not {shown(cards)}")
        chosen = list(cards)
        held = self.hole[seat]
        if any(type(card) is not str or card not in held for card in chosen) or len(set(chosen)) != len(chosen):
            raise CardError(f"seat {seat} holds {''.join(held)}: it cannot discard {shown(chosen)}")
        if seat in self.draws[self.street]:
            raise CardError(f"seat {seat} has discarded already before this street")
        for card in chosen:
            index = held.index(card)
            del held[index]
            del self.up[seat][index]
        self.discards[seat] += chosen
        self.draws[self.street][seat] = chosen

    def deal(self, engine: Engine, street: str | None = None) -> dict[str, object]:
        """Deal the engine's next street to the seats still in, tell the engine (with what the
        cards decide) and return those deal inputs. A deal the dealer or the engine refuses
        changes neither."""
        engine = self._engine(engine)
        following = engine.next_street
        if street is None:
            street = following
        if street is None:
            raise CardError("the hand has no street left to deal")
        if type(street) is not str:
            raise CardError(f"a street is named by a text, not {shown(street)}")
        if self.street >= self.game.streets:
            raise CardError(f"{self.game.name} deals {self.game.streets} streets")
        live = [seat for seat in range(self.seats) if not engine.folded[seat]]
        due = self.game.discards_before(self.street)
        waiting = [seat for seat in live if seat not in self.draws[self.street]]
        if due and waiting:
            raise CardError(f"seat {waiting[0]} discards {due} before the {street} is dealt")
        kept = self._state()
        try:
            self._choose_boards(engine)
            self._deal_street(live)
            given = self.deal_inputs(engine, live)
            cast(Any, engine).deal(street, **given)  # generated engines take the spec's deal inputs
        except BaseException:
            self._restore(kept)
            raise
        return given

    def follow(self, engine: Engine) -> list[str]:
        """Deal, without telling the engine, the cards of the streets a hand began past (a bomb
        pot begins on the flop, with no betting before it: its flop is on the board before anyone
        acts). Returns the board cards dealt, if any."""
        hand = self._engine(engine)
        name = hand.street_name
        if name not in hand.STREETS:
            return []
        live = [seat for seat in range(self.seats) if not hand.folded[seat]]
        dealt: list[str] = []
        self._choose_boards(hand)
        while self.street <= hand.STREETS.index(name) and self.street < self.game.streets:
            self._deal_street(live)
            dealt += self.boards[self.street - 1]
        return dealt

    def _engine(self, engine: object) -> Engine:
        """``engine`` if it is a betspec hand (an engine, or a kernel's) at this dealer's seats."""
        from betspec.runtime import Engine

        kernel = sys.modules.get("betspec.runtime.kernel")
        hand_types: tuple[type, ...] = (Engine, getattr(kernel, "Kernel", Engine))
        if not isinstance(engine, hand_types):
            raise CardError(f"a dealer deals to a betspec hand (an engine or a kernel's), not {type(engine).__name__}")
        hand = cast("Engine", engine)
        if hand.seats != self.seats:
            raise CardError(f"the dealer deals to {self.seats} seats, the hand has {hand.seats}")
        return hand

    def _state(self) -> tuple[Any, ...]:
        """What dealing changes, copied (to put back where a deal is refused)."""
        return (
            list(self.deck),
            [list(h) for h in self.hole],
            [list(u) for u in self.up],
            list(self.board),
            self.street,
            [list(d) for d in self.dealt],
            [list(b) for b in self.boards],
            [list(b) for b in self.other_boards],
        )

    def _restore(self, kept: tuple[Any, ...]) -> None:
        self.deck, self.hole, self.up, self.board, self.street, self.dealt, self.boards, self.other_boards = kept

    def deal_inputs(self, engine: Engine, live: Sequence[int]) -> dict[str, object]:
        """The deal inputs the cards decide for the street just dealt, among those the spec takes."""
        given: dict[str, object] = {}
        if self.game.opening == "position":
            return given
        ups = self.upcards(live)
        if "opener" in engine.DEAL_INPUTS:
            given["opener"] = opener(self.game, ups, engine.button)
        if "open_pair" in engine.DEAL_INPUTS and self.street == 2:
            given["open_pair"] = open_pair(ups)
        return given

    def showdown(self, seats: Iterable[int]) -> list[list[list[int]]]:
        """The rankings of the seats that show down (PokerKit's evaluators)."""
        if isinstance(seats, str | bytes) or not isinstance(seats, Iterable):
            raise CardError(f"the seats that show down are a list of seats, not {shown(seats)}")
        chosen = [self._seat(seat) for seat in list(itertools.islice(seats, self.seats + 1))]
        if len(chosen) > self.seats or len(set(chosen)) != len(chosen):
            raise CardError(f"the seats that show down are each of the {self.seats} seats once at most")
        return rankings(self.game, {seat: self.hole[seat] for seat in chosen}, self.board)

    def showdowns(self, seats: Iterable[int]) -> list[list[list[list[int]]]]:
        """The rankings of the seats that show down on each board, the first board first."""
        first = self.showdown(seats)
        held = {seat for ranked in first[0] for seat in ranked}
        holes = {seat: self.hole[seat] for seat in sorted(held)}
        return [first, *(rankings(self.game, holes, board) for board in self.other_boards)]

    def settle(self, engine: Engine) -> Settlement:
        """Rank the showdown (if a pot is contested) and have the engine pay every pot, with the
        cards shown where the spec pays money outside the pot on them (the 7-2 bounty): every
        seat's at a showdown; an uncontested winner's where they claim a payment (a player shows
        to collect)."""
        engine = self._engine(engine)
        contested = sorted({seat for pot in engine.pots() if len(pot.eligible) > 1 for seat in pot.eligible})
        shown = self._shown(engine, contested)
        if not contested:
            showing = self._showing(engine, shown)
            settled = engine.settle(**showing)
            self.run_names = []  # once paid: a refused settle changes nothing
            self.claimed = next(iter(shown), None) if shown else None
            return settled
        # Each board pays its part of every pot (a split game's board its high and low halves):
        # one run per part, the odd chips of the division to the first, as the engine divides them.
        runs: list[list[list[int]]] = []
        names: list[str] = []
        boards = self.showdowns(contested)
        for number, ranked in enumerate(boards, 1):
            given = settlement_rankings(ranked)
            board = f"board {number} " if len(boards) > 1 else ""
            if "runs" in given:
                runs += given["runs"]
                names += [f"{board}high", f"{board}low"]
            else:
                runs.append(given["ranking"])
                names.append(board.strip())
        showing = self._showing(engine, shown)
        settled = engine.settle(runs=runs, **showing) if len(runs) > 1 else engine.settle(runs[0], **showing)
        self.run_names = names if len(runs) > 1 else []
        self.claimed = None
        return settled

    def _shown(self, engine: Engine, contested: Sequence[int]) -> dict[int, list[str]] | None:
        """The cards shown for the spec's payments outside the pot (None: it declares none)."""
        payments = type(engine).PAYMENTS
        if not payments:
            return None
        if contested:
            return {seat: list(self.hole[seat]) for seat in contested}
        from betspec.runtime.engine import shows

        wanted = [p for p in payments if not p["showdown"]]
        alone = {seat for pot in engine.pots() for seat in pot.eligible}
        for seat in sorted(alone):
            held = self.hole[seat]
            for payment in wanted:
                if shows(held, cast(Sequence[str], payment["ranks"]), payment["suited"]) and (
                    "makes" not in payment or made(self.game, held, self.board) in cast(Sequence[str], payment["makes"])
                ):
                    return {seat: list(held)}
        return {}

    def _showing(self, engine: Engine, shown: dict[int, list[str]] | None) -> dict[str, Any]:
        """settle's keyword arguments for the cards shown: the cards, and what each seat's hand
        makes where a payment asks (a high-hand bonus)."""
        if not shown:
            return {}
        if not any("makes" in payment for payment in type(engine).PAYMENTS):
            return {"shown": shown}
        hands = {seat: made(self.game, held, self.board) for seat, held in shown.items()}
        return {"shown": shown, "made": {seat: hand for seat, hand in hands.items() if hand is not None}}
