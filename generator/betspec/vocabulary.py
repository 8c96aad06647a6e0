"""The one vocabulary: the words specs, the front end, the back ends and the runtime share.

What a spec may read (variables), write (registers), call (primitives and functions); the
actions, declarations and event kinds; the phases of states (the streets are each spec's); the quantities
and procedure rules the runtime needs; the error codes. Each list is written here once and
nowhere else: the front end checks specs against it, the back ends and the runtime read it, and
tests/test_vocabulary.py checks that the JSON Schemas' enums say the same.

This module imports nothing of betspec: every layer may read it.
"""

from __future__ import annotations

import builtins
import enum
import json
import keyword
import os
from dataclasses import dataclass
from typing import Literal, get_args

#: The types of values in specs: options, variables, quantities, parameters.
ValueType = Literal["int", "bool", "int?", "choice"]
#: "table": fixed by the table and options for the whole hand; "seat": about one seat (the seat
#: to act, or the seat a per-seat quantity is computed for); "hand": the rest of the hand's state.
Scope = Literal["table", "seat", "hand"]


@dataclass(frozen=True)
class Variable:
    """A name the runtime lets expressions read (and, when writable, effects assign)."""

    type: ValueType
    scope: Scope = "hand"
    writable: bool = False
    minimum: int | None = None


#: Variables about the seat to act are meaningful only while a seat is to act.
VARIABLES: dict[str, Variable] = {
    "stack": Variable("int", "seat", minimum=0),
    "committed": Variable("int", "seat", minimum=0),
    "contributed": Variable("int", "seat", minimum=0),
    # Writable so a house rule can give a seat its option back (a straddle that keeps it).
    "has_acted": Variable("bool", "seat", writable=True),
    "acted_at": Variable("int", "seat", minimum=0),
    "bet_level": Variable("int", writable=True, minimum=0),
    "pot": Variable("int", minimum=0),
    "street": Variable("int", minimum=0),
    "last_street": Variable("int", "table", minimum=0),
    "seats": Variable("int", "table", minimum=2),
    "button": Variable("int", "table", minimum=0),
    "actor": Variable("int"),
    "last_live_seat": Variable("int", minimum=0),
    "nominal_level": Variable("int", minimum=0),
    "posted_live": Variable("int", minimum=0),
    "posted_dead": Variable("int", minimum=0),
    "forced_raises": Variable("int", minimum=0),
    "players_in": Variable("int", minimum=1),
    "seats_left": Variable("int", minimum=0),
    "able": Variable("int", minimum=0),
    "others_able": Variable("int", minimum=0),
    "answerable": Variable("bool"),
    "able_owing": Variable("int", minimum=0),
    "pending": Variable("int", minimum=0),
    "action_pending": Variable("bool"),
    "declared_call": Variable("bool"),
    "declared_wager": Variable("bool"),
    "bet_announced": Variable("bool"),
    "out_of_turn_declared": Variable("bool"),
    "out_of_turn_to": Variable("int", minimum=0),
    "out_of_turn_level": Variable("int", minimum=0),
    "last_raise": Variable("int", writable=True, minimum=0),
    "last_full_level": Variable("int", writable=True, minimum=0),
    "raises": Variable("int", writable=True, minimum=0),
}

#: Primitives move chips and seats; the number of int arguments each takes.
PRIMITIVES: dict[str, int] = {
    "post_forced_bets": 0,
    "begin_street": 1,
    "open_betting": 1,
    "commit": 1,
    "check": 0,
    "fold": 0,
    "pass_action": 0,
    "close_round": 0,
    "deal": 1,
}

#: Functions expressions may call besides the operators, with their least and most arguments.
FUNCTIONS: dict[str, tuple[int, int]] = {
    "min": (1, 8),
    "max": (1, 8),
    "abs": (1, 1),
    "ceil_to": (2, 2),
    "floor_to": (2, 2),
    "committed_of": (1, 1),
    "stack_of": (1, 1),
    "acted_of": (1, 1),
    "next_live": (1, 1),
    "prev_live": (1, 1),
}
#: Functions that, given one argument, read it over every seat: ``max(seat_blinds)`` is the
#: largest of a per-seat input, whoever acts.
AGGREGATES = frozenset({"min", "max"})
#: What the functions reading one seat give (their argument is a seat number); the others give int.
SEAT_FUNCTIONS: dict[str, ValueType] = {
    "committed_of": "int",
    "stack_of": "int",
    "acted_of": "bool",
    "next_live": "int",  # the next seat clockwise with chips
    "prev_live": "int",  # the previous seat with chips
}

#: Action events a spec declares, and the parameters each takes.
ACTION_PARAMS: dict[str, tuple[str, ...]] = {
    "fold": (),
    "check": (),
    "call": (),
    "bet": ("to",),
    "raise": ("to",),
    "timeout": (),
    "bring_in": (),
}
ACTIONS = tuple(ACTION_PARAMS)
#: Actions a structure may go without (a stud bring-in); every other is declared by every spec.
OPTIONAL_ACTIONS = ("bring_in",)
#: The actions a seat chooses among, reported by legal_actions() (a timeout happens to it).
CHOSEN_ACTIONS = ("fold", "check", "call", "bet", "raise", "bring_in")
#: What an engine (or a kernel) answers to by name: an action of a spec's own (``"own": true``),
#: which becomes a method of its engine, may not take one of these names. tests/test_vocabulary.py
#: checks the list against Engine's and Kernel's public members.
ENGINE_API = frozenset(
    {
        "act", "all_in", "bet", "bet_level", "bring_in", "button", "call", "call_amount", "check",
        "committed", "contributed", "deal", "declare", "declare_out_of_turn", "example_table", "fields",
        "fold", "folded", "hand_over", "history", "jackpot_drop", "jackpot_paid", "legal_actions", "max_to", "min_to",
        "next_street", "next_table", "options", "paid", "payments", "phase", "pot", "pots", "push", "python",
        "raise_to",
        "rake", "round_over", "seats", "settle", "snapshot", "stacks", "stakes", "start", "state", "street_name",
        "table", "timeout", "to_act", "total_chips", "variables",
    }
)  # fmt: skip
#: The actions that take a "to" amount: a bet or a raise, a wager.
WAGERS = ("bet", "raise")
#: The option a policy given as data rounds its bets and raises to, where a spec declares it.
POLICY_UNIT_OPTION = "bet_unit"
#: What ``act`` and a case's ``act`` take: the chosen actions, all-in and the clock.
ACT_NAMES = (*CHOSEN_ACTIONS, "all_in", "timeout")

#: What a player may say in turn, and out of turn (fold needs no declaration out of turn).
DECLARATIONS = ("fold", "check", "call", "bet", "raise")
OUT_OF_TURN_DECLARATIONS = ("check", "call", "bet", "raise")

#: What a ruling on chips pushed may read: the push and the declaration that came with it.
PUSH_PARAMETERS: dict[str, ValueType] = {
    "pushed": "int",
    "chips": "int",
    "largest_chip": "int",
    "said_fold": "bool",
    "said_check": "bool",
    "said_call": "bool",
    "said_bet": "bool",
    "said_raise": "bool",
    "said_to": "int?",
}
#: What chips pushed may be ruled to be (a wager is a bet or raise to the ruling's amount).
PushRulingKind = Literal["fold", "check", "call", "wager", "withdraw"]
PUSH_RULINGS: tuple[PushRulingKind, ...] = get_args(PushRulingKind)
#: What a Ruling reports as its action: an action, a withdrawn call, or a wager announced.
RULING_ACTIONS = ("fold", "check", "call", "bet", "raise", "withdraw", "declared")

#: What a table input holds: a value of a type (int, bool, int?, choice, seat, seat?), ``items``
#: ints named each (``blinds``: small_blind, big_blind), one value ``per_seat``, or ``seats``, a
#: list of seat numbers (read only by forced bets, which post for each).
InputType = Literal["int", "bool", "int?", "choice", "seat", "seat?", "seats"]
INPUT_TYPES: tuple[InputType, ...] = get_args(InputType)
#: The inputs every table has, whatever the spec: each seat's chips and the button.
BUILT_IN_INPUTS = ("stacks", "button")
#: What any table may give besides: chips already in the middle, dead money of the main pot (the
#: pot a dead hand carried to this one); ``next_table`` sets it after a dead hand.
CARRIED_POT = "carried_pot"

#: What a spec's own variables hold, and where each lives: ``hand`` (one value for the hand),
#: ``seat`` (one per seat, for the hand: read and written as the seat to act's), ``session``
#: (one value carried from hand to hand: a table input ``next_hand`` sets from the settlement).
DeclaredScope = Literal["hand", "seat", "session"]
DECLARED_SCOPES: tuple[DeclaredScope, ...] = get_args(DeclaredScope)
DECLARED_TYPES = ("int", "bool", "int?", "seat?")
#: What ``next_hand`` may read of the settlement of the hand it follows, besides the hand's own
#: names: who was paid (the one seat paid every chip, or None), by how much, and what was carried.
SETTLEMENT_NAMES: dict[str, ValueType] = {
    "winner": "int?",  # the one seat the settlement paid (None: nobody, or a pot split)
    "winner_profit": "int",  # what the winner was paid less what he put in (0 without a winner)
    "pot_paid": "int",  # the chips the settlement paid in all
    "pot_carried": "int",  # the chips a dead hand leaves in the middle for the next one
}

#: What a forced bet is, each kind with what it means for the chips.
ForcedBetKind = Literal["ante", "dead", "blind"]
FORCED_BET_KINDS: dict[ForcedBetKind, str] = {
    "ante": "toward no call; its poster's own stake: he wins as much from each player as he put in",
    "dead": "dead money: toward no call and nobody's stake, in the main pot, which a short all-in player can win whole",
    "blind": "live: toward its poster's call, raising the bet to face",
}
LIVE_KINDS = ("blind",)
DEAD_MONEY_KINDS = ("dead",)
#: Where a live forced bet puts its poster in the first round's order: ``in_turn`` (where his seat
#: comes), ``starts_after`` (the round starts with the seat after his, so he acts last: the big
#: blind, a straddle), ``last`` (passed over until every other player has acted, whatever his
#: seat: a kill blind).
ForcedBetOrder = Literal["in_turn", "starts_after", "last"]
FORCED_BET_ORDERS: tuple[ForcedBetOrder, ...] = get_args(ForcedBetOrder)

#: The kinds of events a spec declares.
EventKind = Literal["start", "action", "automatic", "deal"]
EVENT_KINDS: tuple[EventKind, ...] = get_args(EventKind)

#: The phases of states; seats bet in the betting phases; the hand is over in the last ones.
Phase = Literal["start", "unopened", "facing_bet", "complete", "runout", "showdown", "settled", "dead"]
PHASES: tuple[Phase, ...] = get_args(Phase)
BETTING_PHASES = ("unopened", "facing_bet")
HAND_OVER_PHASES = ("runout", "showdown", "settled", "dead")
#: A hand that ends with no winner (nobody opened): settling it pays nothing, and its pot is
#: the next table's ``carried_pot``.
DEAD_PHASES = ("dead",)
#: The phases a hand ends in, nothing left but paying (a runout still deals).
FINAL_PHASES = ("showdown", "settled", *DEAD_PHASES)

#: Quantities every concrete spec defines: the runtime answers queries with them.
REQUIRED_QUANTITIES: dict[str, ValueType] = {
    "all_in_to": "int",
    "odd_chip_after": "int",
    "call_amount": "int",
    "bet_min_to": "int",
    "bet_max_to": "int",
    "raise_min_to": "int",
    "raise_max_to": "int",
}
#: Per-seat quantities the runtime needs: ``playable``, the chips a seat can still put in (a seat
#: with none is all-in for betting).
REQUIRED_SEAT_QUANTITIES: dict[str, ValueType] = {"playable": "int"}

#: The rules a spec names for the refusals the runtime makes itself (turn, amounts, deals, and
#: ``settle``: a showdown's ranking refused, or pots paid twice).
PROCEDURE_RULES = (
    "out_of_turn",
    "no_action_pending",
    "bad_amount",
    "round_not_over",
    "illegal_deal",
    "unknown_action",
    "settle",
)

#: Names a spec may not declare: the language's parameters and functions.
RESERVED = frozenset({"to", *PUSH_PARAMETERS, *FUNCTIONS, *SETTLEMENT_NAMES, CARRIED_POT})

#: The parameters beside which generated code takes a spec's names as keyword arguments, per
#: section: an engine's options (``Engine(table, *, start=None, **options)``, and ``cls`` of
#: ``Engine.__new__``), a table's inputs (``Table(stacks, button, **inputs)``,
#: ``Engine.example_table(cls, stacks, button, **inputs)``), a deal's (``deal(street, **given)``).
PARAMETERS: dict[str, tuple[str, ...]] = {
    "options": ("self", "cls", "table", "start"),
    "inputs": ("self", "cls", *BUILT_IN_INPUTS),
    "deal_inputs": ("self", "street"),
}
#: The runtime's check of an option of each type, which a generated constructor calls beside its
#: options (and ``typing.cast``, for a choice): an option may not hide them.
OPTION_CHECKS: dict[str, str] = {
    "int": "int_option",
    "int?": "optional_int_option",
    "bool": "bool_option",
    "choice": "choice_option",
}
OPTION_CAST = "cast"
#: Python's own names, its keywords and builtins: a spec's names become identifiers of generated
#: code (parameters, locals, functions), where one would be a syntax error or hide a builtin.
PYTHON_KEYWORDS = frozenset({*keyword.kwlist, *keyword.softkwlist})
PYTHON_BUILTINS = frozenset(name for name in dir(builtins) if name[:1].islower())
#: Every name a spec's own names (options, inputs, deal inputs, street values, roles, quantities)
#: may not take, whatever their section: a name reserved for one is reserved for all.
RESERVED_IDENTIFIERS = frozenset(
    {
        *RESERVED,
        *PYTHON_KEYWORDS,
        *PYTHON_BUILTINS,
        *(name for names in PARAMETERS.values() for name in names),
        *OPTION_CHECKS.values(),
        OPTION_CAST,
    }
)


class Code(str, enum.Enum):
    """Every error code betspec raises (``error.code``); docs/cases.md says when each is raised."""

    OUT_OF_TURN = "out_of_turn"
    NO_ACTION_PENDING = "no_action_pending"
    ILLEGAL_ACTION = "illegal_action"
    BELOW_MINIMUM = "below_minimum"
    ABOVE_MAXIMUM = "above_maximum"
    NOT_REOPENED = "not_reopened"
    CAP_REACHED = "cap_reached"
    BAD_AMOUNT = "bad_amount"
    BAD_SEAT = "bad_seat"
    BOUND_BY_DECLARATION = "bound_by_declaration"
    ROUND_NOT_OVER = "round_not_over"
    INVALID_TABLE = "invalid_table"
    BAD_SNAPSHOT = "bad_snapshot"
    BAD_PHH = "bad_phh"
    IRREGULAR_PHH = "irregular_phh"

    def __str__(self) -> str:
        return self.value


#: The codes of refused actions, deals and declarations (a case's ``error``).
#: The codes of errors about documents and tables rather than actions.
DOCUMENT_CODES = (Code.INVALID_TABLE, Code.BAD_SNAPSHOT, Code.BAD_PHH, Code.IRREGULAR_PHH)
ACTION_CODES = tuple(code.value for code in Code if code not in DOCUMENT_CODES)
#: The codes a spec's requirement may raise (the runtime raises the others itself).
REQUIREMENT_CODES = (
    "illegal_action",
    "below_minimum",
    "above_maximum",
    "not_reopened",
    "cap_reached",
    "bad_amount",
    "bound_by_declaration",
)

# ---- the game: cards ----------------------------------------------------------------------------

#: The decks a game is dealt from by name: the standard 52 cards, or the short deck's 36 (six to
#: ace). A game may give its deck as data instead: the ranks and suits it holds (Kuhn poker's
#: three cards, Leduc hold'em's six), each a card of every rank in every suit.
Deck = Literal["standard", "short"]
DECKS: tuple[Deck, ...] = get_args(Deck)
#: How a hole card is dealt: face down (seen by its holder) or face up (seen by all).
CardFace = Literal["down", "up"]
CARD_FACES: tuple[CardFace, ...] = get_args(CardFace)


#: How a showdown ranks the hands shown (a split game lists its high hand, then its low one),
#: each kind with what it means, the evaluator that ranks it and what a bot's draw keeps: data
#: of the language (hands.json), its words spelled there only.
@dataclass(frozen=True)
class HandKind:
    meaning: str
    evaluator: str  # PokerKit's hand type
    split_low: bool  # a split game's low half
    ace_low: bool  # the ace is the lowest card
    distinct_suits: bool  # a low hand needs its suits distinct too
    board: int  # the board cards a hand of the kind is made with (Omaha: exactly three)


def _hand_kinds() -> dict[str, HandKind]:
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "hands.json"), encoding="utf-8") as handle:
        return {name: HandKind(**entry) for name, entry in json.load(handle)["hands"].items()}


HANDS: dict[str, HandKind] = _hand_kinds()
HAND_KINDS: dict[str, str] = {name: kind.meaning for name, kind in HANDS.items()}
#: The lows a split game's second hand may be.
LOW_HAND_KINDS = tuple(name for name, kind in HANDS.items() if kind.split_low)
#: Who acts first on each street, from the cards: by position (the blinds), or from the upcards
#: (the lowest brings in and the highest hand showing opens after; razz the reverse).
OPENINGS: dict[str, str] = {
    "position": "by position: the blinds, then the seat after the last to act",
    "low_card": "the lowest upcard brings in on the first street; the highest hand showing opens the others",
    "high_card": "the highest upcard brings in on the first street; the lowest hand showing opens the others",
}

#: The cards' ranks, lowest first, and suits (PokerKit's order, clubs lowest: the stud bring-in's
#: tie-break): what cards.Dealer deals and what a payment's ``shows`` names.
CARD_RANKS = "23456789TJQKA"
CARD_SUITS = "cdhs"
SUIT_NAMES = dict(zip(CARD_SUITS, ("clubs", "diamonds", "hearts", "spades"), strict=True))
#: The ranks of each named deck (every suit of each).
DECK_RANKS: dict[Deck, str] = {"standard": CARD_RANKS, "short": CARD_RANKS[CARD_RANKS.index("6") :]}


def deck_cards(deck: object) -> tuple[str, str] | None:
    """The ranks and suits of a game's deck (a name of :data:`DECKS`, or ``{"ranks": "JQK",
    "suits": "hs"}``), in the cards' order (lowest first), or None for what is neither. The
    ranks and suits given as data keep the order of :data:`CARD_RANKS` and :data:`CARD_SUITS`
    whatever order the spec wrote them in."""
    if isinstance(deck, str):
        ranks = DECK_RANKS.get(deck)  # type: ignore[call-overload]
        return None if ranks is None else (ranks, CARD_SUITS)
    if not isinstance(deck, dict):
        return None
    ranks, suits = deck.get("ranks"), deck.get("suits")
    if not (isinstance(ranks, str) and isinstance(suits, str) and ranks and suits):
        return None
    if set(ranks) - set(CARD_RANKS) or set(suits) - set(CARD_SUITS):
        return None
    return "".join(r for r in CARD_RANKS if r in ranks), "".join(s for s in CARD_SUITS if s in suits)


#: Who pays a payment outside the pot (a spec's ``payments``), and who collects it.
PAYMENT_PAYERS = {
    "each_other": "every seat dealt in but the payee",
    "jackpot": "the house's jackpot, once (chips that come onto the table: a high-hand bonus)",
}
PAYMENT_PAYEES = {"winner": "the one seat the hand's pots paid (none where they were split, or the hand was dead)"}
#: What a hand makes, lowest first, as the dealer's evaluator names it (PokerKit's labels): what a
#: payment's ``makes`` names and what ``settle(made=...)`` is told of each seat's hand.
HAND_CATEGORIES = {
    "high_card": "high card",
    "one_pair": "one pair",
    "two_pair": "two pair",
    "three_of_a_kind": "three of a kind",
    "straight": "a straight",
    "flush": "a flush",
    "full_house": "a full house",
    "four_of_a_kind": "four of a kind",
    "straight_flush": "a straight flush",
}

#: When a session's game changes (a session spec's ``rotation.change``).
SESSION_CHANGES = {
    "orbit": "after as many hands as players were dealt in at the game's first hand (each deals it once)",
    "hands": "after the number of hands the rotation gives",
    "choice": "after an orbit, to the game the host chooses (dealer's choice: each player in turn)",
}
#: Where a session's button goes while a game without one (stud, razz) is dealt.
BUTTON_WITHOUT = {
    "moves": "it goes round one seat a hand, as in a button game, counting the hands",
    "frozen": "it stays where it stood, and moves on from there when a button game returns",
}
