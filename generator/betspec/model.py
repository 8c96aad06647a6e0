"""The intermediate model: a checked spec as the back ends see it.

The front end (:mod:`betspec.frontend`) turns JSON files into these objects, after the schema
and meaning checks; the back ends (:mod:`betspec.backends`) read nothing else. Every expression
here has been parsed and type-checked; every name it uses is declared; every rule it cites
exists; inheritance (``extends``) has been resolved.
"""

from __future__ import annotations

import ast
import enum
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from betspec.vocabulary import (
    DEAD_MONEY_KINDS,
    LIVE_KINDS,
    EventKind,
    ForcedBetKind,
    ForcedBetOrder,
    InputType,
    Phase,
    PushRulingKind,
    ValueType,
)


class Type(enum.Enum):
    """The type of an expression (the spec's value types, and two the type checker uses)."""

    INT = "int"
    BOOL = "bool"
    OPT_INT = "int?"
    CHOICE = "choice"  # an option with named values, compared only with one of them
    NONE = "None"
    TEXT = "text"  # a string literal: only ever one side of a comparison with a choice
    SEATS = "seats"  # a table input listing seats: only ever the right side of 'in' / 'not in'

    def __str__(self) -> str:
        return self.value


#: The expression language's comparisons, as written: the one table the front end reads them
#: with and the back ends print them from.
COMPARISONS: dict[type[ast.cmpop], str] = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
}
#: The arithmetic operators, as written.
ARITHMETIC: dict[type[ast.operator], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.FloorDiv: "//",
    ast.Mod: "%",
}
#: What each comparison of two values computes (folding constants): all but membership.
COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
}


@dataclass
class Expr:
    """A parsed, type-checked expression of a spec: its text, its tree (the whitelisted subset
    of Python's expression syntax), its type, the names it reads, and its folded value."""

    text: str
    tree: ast.expr
    type: Type
    names: set[str] = field(default_factory=set)
    constant: object = None  # the folded value, when is_constant
    is_constant: bool = False


@dataclass(frozen=True)
class Rule:
    id: str
    text: str
    source: str


@dataclass(frozen=True)
class Option:
    name: str
    type: ValueType
    default: int | bool | str | None
    meaning: str
    rule: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Input:
    """Something a table provides (besides its stacks and button), as the spec declares it."""

    name: str
    type: InputType
    required: bool
    default: object  # JSON, when not required
    meaning: str
    rule: str
    items: tuple[str, ...] = ()  # ints named each (blinds: small_blind, big_blind)
    per_seat: bool = False  # one value per seat
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    example: object = None  # a value tools build example tables with (JSON)
    hand: bool = False  # given for one hand only (a straddle, a kill): the next table drops it
    session: bool = False  # a session variable the spec declares: carried, set by next_hand

    @property
    def names(self) -> tuple[str, ...]:
        """The names expressions read it by: its items', or its own."""
        return self.items or (self.name,)


@dataclass(frozen=True)
class Role:
    """A seat that matters (a blind, a straddle, ...), as an expression over the table."""

    name: str
    expr: Expr
    meaning: str
    rule: str


@dataclass(frozen=True)
class ForcedBet:
    """One post before the cards, in order: who posts, how much, and what it is."""

    name: str
    seat: Expr | None  # the poster; None when ``seats`` says who
    seats: str | None  # "all" (every seat, from the button's left), or a seats input
    amount: Expr
    kind: ForcedBetKind
    when: Expr | None
    order: ForcedBetOrder  # where the poster acts in the first round
    in_full: bool  # posted in full or not at all (a table whose poster is short is refused)
    meaning: str
    rule: str

    @property
    def live(self) -> bool:
        return self.kind in LIVE_KINDS

    @property
    def dead_money(self) -> bool:
        """Its chips go to the main pot as nobody's stake."""
        return self.kind in DEAD_MONEY_KINDS


@dataclass(frozen=True)
class Variable:
    """A name expressions read: the runtime's (``scope`` empty), or the spec's own, declared with a
    default and a scope (``hand``, ``seat``; a ``session`` one is a table input, see Input)."""

    name: str
    type: ValueType
    meaning: str
    writable: bool
    scope: str = ""  # "" for the runtime's own; "hand" or "seat" for the spec's
    default: int | bool | None = None
    rule: str = ""

    @property
    def declared(self) -> bool:
        """The spec's own variable, which the generated engine keeps (not the runtime's)."""
        return bool(self.scope)


@dataclass(frozen=True)
class Quantity:
    name: str
    type: ValueType
    expr: Expr
    meaning: str
    rule: str
    needs_to: bool  # the formula reads the amount of the action ('to')
    per_seat: bool = False  # computed for any seat, not only the seat to act


@dataclass(frozen=True)
class Check:
    """A condition on the table and options that every hand must meet (else InvalidTable)."""

    expr: Expr
    message: str
    rule: str


@dataclass(frozen=True)
class State:
    name: str
    phase: Phase
    label: str


@dataclass(frozen=True)
class NextHand:
    """How the next hand's table follows from this one's: its button, and inputs set for it."""

    button: Expr
    inputs: dict[str, Expr] = field(default_factory=dict)


@dataclass(frozen=True)
class StreetValue:
    """A value that differs from street to street (``big_bets``), as the spec declares it."""

    name: str
    type: ValueType  # "int", "bool" or "choice"
    default: int | bool | str
    meaning: str
    rule: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Street:
    """One betting round, in the spec's order, with its street values (every declared one)."""

    name: str
    meaning: str
    values: dict[str, int | bool | str] = field(default_factory=dict)


@dataclass(frozen=True)
class Deal:
    """What a street deals as it opens: each seat's hole cards (True: face up), board cards,
    whether each seat still in may discard and draw first, and how many cards each seat still in
    discards first without replacement (crazy pineapple's one after the flop's betting)."""

    street: str
    hole: tuple[bool, ...] = ()
    board: int = 0
    draw: bool = False
    discard: int = 0  # the hole cards each seat still in throws away first, none replaced


@dataclass(frozen=True)
class Rake:
    """The house's take from a hand's pots, as its spec posts it: a percentage of each pot (in
    hundredths of a per cent) rounded down or half to even, then down to a multiple of ``unit``;
    capped per pot or per hand (the main pot raked first); none below ``minimum_pot`` or before
    ``from_street``; and a jackpot drop from the main pot after it."""

    basis_points: int  # the percentage in hundredths of a per cent: 10% is 1000
    rounding: str  # down or half_even
    cap_per: str  # hand or pot
    from_street: str  # "" where every hand is raked
    rule: str
    unit: Expr | None = None
    cap: Expr | None = None
    minimum_pot: Expr | None = None
    jackpot: Expr | None = None
    jackpot_minimum: Expr | None = None


@dataclass(frozen=True)
class Payment:
    """Money paid outside the pot as the pots are paid: ``amount`` from each payer (``source``,
    vocabulary.PAYMENT_PAYERS) to the payee (``to``, vocabulary.PAYMENT_PAYEES), when the payee
    shows hole cards of ``ranks`` (of one suit or not, as ``suited`` says; None: either), makes
    one of the hands ``makes`` names (vocabulary.HAND_CATEGORIES; empty: any) and, with
    ``showdown``, only at a showdown."""

    name: str
    amount: Expr
    source: str
    to: str
    ranks: tuple[str, ...]
    suited: bool | None
    showdown: bool
    rule: str
    makes: tuple[str, ...] = ()


def rake_expressions(rake: Rake | None) -> list[Expr]:
    """The expressions of a rake's terms that it gives, in the order the engines read them."""
    if rake is None:
        return []
    terms = (rake.unit, rake.cap, rake.minimum_pot, rake.jackpot, rake.jackpot_minimum)
    return [term for term in terms if term is not None]


@dataclass(frozen=True)
class Game:
    """The cards a spec's game deals and how its showdown ranks them (for the dealer; the
    engines bet without cards): its name, deck, one deal per street in the streets' order, the
    showdown's hand kinds (high first), who opens each street, the rule it cites, and its boards
    (on a condition: a double-board bomb pot)."""

    name: str
    deck: str  # the deck's name (vocabulary.DECKS), or "" where the spec gives its ranks and suits
    deals: tuple[Deal, ...]
    showdown: tuple[str, ...]
    opening: str
    rule: str = ""
    boards: int = 1  # the boards the board cards are dealt to, each paying its part of every pot
    boards_when: str = ""  # a table input: dealt on ``boards`` boards only when it is given nonzero
    ranks: str = "23456789TJQKA"  # the deck's ranks, lowest first, and its suits: a card of each
    suits: str = "cdhs"


@dataclass(frozen=True)
class Requirement:
    expr: Expr
    error: str
    rule: str
    message: str
    needs_to: bool


@dataclass(frozen=True)
class Assignment:
    target: str
    expr: Expr


@dataclass(frozen=True)
class Call:
    primitive: str
    args: tuple[Expr, ...]


Effect = Assignment | Call


@dataclass(frozen=True)
class Event:
    name: str
    kind: EventKind
    blinds: bool
    params: tuple[str, ...]
    requires: tuple[Requirement, ...]
    effects: tuple[Effect, ...]
    own: bool = False  # an action of the spec's own (not one of the runtime's): a method of its engine


@dataclass(frozen=True)
class Transition:
    event: str
    source: str
    dest: str
    guard: Expr | None
    rule: str
    effects: tuple[Effect, ...]
    origin: str = ""  # the JSON pointer of the spec entry it comes from (/transitions/3)


@dataclass(frozen=True)
class PushRuling:
    """One entry of the rulings on chips pushed: when it applies, what the push becomes."""

    when: Expr
    ruling: PushRulingKind  # a wager is a bet or raise to ``to``
    to: Expr | None
    rule: str
    note: str


def hand_expressions(
    events: dict[str, Event],
    transitions: list[Transition],
    quantities: dict[str, Quantity],
    roles: dict[str, Role],
    checks: tuple[Check, ...],
    forced_bets: tuple[ForcedBet, ...],
) -> list[Expr]:
    """Every expression a hand computes while it is played: quantities, roles, checks,
    requirements, guards, effects and forced bets (not the procedures' rulings, nor the next
    hand's). The checker reads them for the names they use; the kernels compute them in C."""
    found: list[Expr] = [q.expr for q in quantities.values()] + [r.expr for r in roles.values()]
    found += [c.expr for c in checks]
    found += [r.expr for event in events.values() for r in event.requires]
    found += [t.guard for t in transitions if t.guard is not None]
    effects = [e for event in events.values() for e in event.effects] + [e for t in transitions for e in t.effects]
    for effect in effects:
        found += list(effect.args) if isinstance(effect, Call) else [effect.expr]
    found += [x for bet in forced_bets for x in (bet.seat, bet.amount, bet.when) if x is not None]
    return found


@dataclass
class Spec:
    name: str
    title: str
    description: str
    path: str
    files: tuple[str, ...]  # the spec and the specs it extends, nearest first
    hash: str
    abstract: bool
    rules: dict[str, Rule]
    options: dict[str, Option]
    variables: dict[str, Variable]
    primitives: dict[str, str]
    quantities: dict[str, Quantity]  # in dependency order
    states: dict[str, State]
    initial: str
    procedure_rules: dict[str, str]
    events: dict[str, Event]
    transitions: list[Transition] = field(default_factory=list)
    push_rulings: tuple[PushRuling, ...] = ()
    checks: tuple[Check, ...] = ()
    inputs: dict[str, Input] = field(default_factory=dict)
    roles: dict[str, Role] = field(default_factory=dict)  # in dependency order
    forced_bets: tuple[ForcedBet, ...] = ()
    streets: tuple[Street, ...] = ()
    next_hand: NextHand | None = None
    game: Game | None = None
    rake: Rake | None = None
    payments: tuple[Payment, ...] = ()
    street_values: dict[str, StreetValue] = field(default_factory=dict)
    deal_inputs: dict[str, Input] = field(default_factory=dict)

    def hand_expressions(self) -> list[Expr]:
        """Every expression a hand computes while it is played (:func:`hand_expressions`)."""
        return hand_expressions(
            self.events, self.transitions, self.quantities, self.roles, self.checks, self.forced_bets
        )

    def transitions_of(self, event: str) -> list[Transition]:
        return [t for t in self.transitions if t.event == event]

    @property
    def class_name(self) -> str:
        return "".join(part.capitalize() for part in self.name.split("_"))
