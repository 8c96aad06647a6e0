"""The base class of generated engines: seats, chips and the primitives specs are written in.

A generated class (``generated/<spec>.py``) subclasses :class:`Engine`, compiles the spec's guards,
sizing formulas and effects into plain functions, and binds them to one ``transitions`` machine
per class (never one per hand). This base class holds the table state and implements the
primitives a spec may name in its effects: posting antes and blinds, committing chips, folding,
passing the action, closing a round. It decides nothing about sizes or legality.
"""

from __future__ import annotations

import copy
import enum
import importlib
import importlib.machinery
import importlib.util
import operator
import pkgutil
import sys
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from betspec.runtime import snapshot_format
from betspec.runtime.errors import IllegalAction, InvalidTable, shown
from betspec.runtime.errors import shown as shown_value
from betspec.runtime.table import MAX_CHIPS, Declared, Start, Table, chips_value
from betspec.suggest import did_you_mean
from betspec.vocabulary import (
    ACT_NAMES,
    BETTING_PHASES,
    CARD_RANKS,
    CARD_SUITS,
    CARRIED_POT,
    DEAD_PHASES,
    DECLARATIONS,
    HAND_CATEGORIES,
    HAND_OVER_PHASES,
    OUT_OF_TURN_DECLARATIONS,
    WAGERS,
)


def _is_card(card: object) -> bool:
    return type(card) is str and len(card) == 2 and card[0] in CARD_RANKS and card[1] in CARD_SUITS


def shows(cards: Sequence[str], ranks: Sequence[str], suited: object) -> bool:
    """Whether ``cards`` hold one card of each of ``ranks`` (all of one suit where ``suited`` is
    True, not all of one suit where it is False; either where None): what a payment's ``shows``
    asks of the cards a seat showed."""

    def pick(start: int, left: list[str], suits: list[str]) -> bool:
        if start == len(ranks):
            return suited is None or (len(set(suits)) == 1) == suited
        for card in left:
            if card[0] == ranks[start]:
                rest = list(left)
                rest.remove(card)
                if pick(start + 1, rest, [*suits, card[1]]):
                    return True
        return False

    return pick(0, list(cards), [])


def _in_seat_order(given: Mapping[Any, Any]) -> list[tuple[Any, Any]]:
    """A mapping's items by seat, as the TypeScript engines read an object's keys (numbers first,
    ascending): so that both refuse the same entry first."""
    return sorted(given.items(), key=lambda item: (type(item[0]) is not int, item[0] if type(item[0]) is int else 0))


@dataclass(frozen=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True)
class Award:
    """One pot (or one run's portion of it) paid: to whom, how much each."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]  # chips each winner took, in the order of ``winners``
    run: int = 0  # the board it was settled on, when the board was run more than once


@dataclass(frozen=True)
class Payment:
    """Money paid outside the pot as the pots were paid: the spec's payment ``name``, from seat
    ``payer`` (None: the house's jackpot) to seat ``payee``, ``amount`` chips (within what the
    payer had left)."""

    name: str
    payer: int | None
    payee: int
    amount: int


@dataclass(frozen=True)
class Settlement:
    """What settling a hand paid: each pot and portion, and what every seat won."""

    awards: tuple[Award, ...]
    won: tuple[int, ...]  # chips each seat took from the pot, in seat order
    returned: tuple[int, ...] = ()  # uncalled bets each seat had back during the hand
    rake: int = 0  # what the house raked from the pots before paying them
    jackpot_drop: int = 0  # what it dropped from the main pot into its jackpot
    payments: tuple[Payment, ...] = ()  # money paid outside the pot, after it

    @property
    def collected(self) -> tuple[int, ...]:
        """What each seat took back from the middle: its winnings and its uncalled bets (what
        hand histories record as a player's winnings)."""
        return tuple(w + r for w, r in zip(self.won, self.returned, strict=True))

    def to_json(self) -> dict[str, Any]:
        return {
            "won": list(self.won),
            "returned": list(self.returned),
            "rake": self.rake,
            "jackpot_drop": self.jackpot_drop,
            "payments": [
                {"name": p.name, "payer": p.payer, "payee": p.payee, "amount": p.amount} for p in self.payments
            ],
            "awards": [
                {
                    "amount": a.amount,
                    "eligible": list(a.eligible),
                    "winners": list(a.winners),
                    "shares": list(a.shares),
                    "run": a.run,
                }
                for a in self.awards
            ],
        }


@dataclass(frozen=True)
class Said:
    """What a player said with (or instead of) his chips."""

    fold: bool = False
    check: bool = False
    call: bool = False
    bet: bool = False
    raise_: bool = False
    to: int | None = None

    @property
    def wager(self) -> bool:
        """A bet or raise was declared (with or without its amount)."""
        return self.bet or self.raise_


#: What the seat to act is bound to by an earlier declaration in this turn (``Engine._declared``).
NOT_BOUND, BOUND_TO_CALL, BOUND_TO_WAGER = 0, 1, 2


@dataclass(frozen=True)
class Ruling:
    """How chips pushed or words said were ruled: the action taken, the rule that decided it.

    ``action`` is fold, check, call, bet, raise, ``withdraw`` (a misheard call taken back: no chips
    moved, and the player is still to act) or ``declared`` (a bet or raise announced without an
    amount: the chips come next).
    ``returned`` is what was pushed beyond the ruled amount (it stays in the stack); ``completed``
    what the player must add to what he pushed.
    """

    action: str
    to: int | None
    rule: str
    source: str
    text: str
    returned: int = 0
    completed: int = 0


#: What the seat to act may do: (legal actions, call amount, min "to", max "to"). Computed once
#: per decision point, dropped at the next event; a plain tuple, as it is built on every decision.
View = tuple[tuple[str, ...], int, int | None, int | None]
NO_VIEW: View = ((), 0, None, None)
#: One transition of a compiled table: (guard or None, effect or None, destination state).
Step = tuple[Callable[..., bool] | None, Callable[..., None] | None, Any]
#: A compiled event: per source state, its transitions in the spec's order.
Steps = Mapping[Any, tuple[Step, ...]]


class Engine:
    """One hand of one betting structure. Seats are 0..n-1 clockwise."""

    __slots__ = (
        "_able_count",
        "_acted",
        "_acted_at",
        "_actor",
        "_announced",
        "_behind",
        "_bet_level",
        "_button",
        "_contributed",
        "_dead",
        "_dead_in",
        "_declared",
        "_deferred",
        "_folded",
        "_forced_raises",
        "_last_full_level",
        "_last_live",
        "_last_raise",
        "_live",
        "_log",
        "_n",
        "_nominal",
        "_out_of_turn",
        "_paid",
        "_paid_out",
        "_players_in",
        "_posted_dead",
        "_posted_live",
        "_pot",
        "_put_in",
        "_raises",
        "_raked",
        "_returned",
        "_start",
        "_state",
        "_street",
        "_table",
        "_view",
        "_won",
    )

    _able_count: int
    _acted: list[bool]
    _acted_at: list[int]
    _actor: int
    _announced: int
    _behind: list[int]
    _bet_level: int
    _button: int
    _contributed: list[int]
    _dead: int
    _dead_in: list[int]
    _declared: int
    _folded: list[bool]
    _forced_raises: int
    _last_full_level: int
    _last_live: int
    _deferred: int
    _paid: bool
    _raked: tuple[int, int]
    _paid_out: tuple[Payment, ...]
    _returned: list[int]
    _won: list[int]
    _last_raise: int
    _live: list[int]
    _log: list[tuple[int, str, Any]]
    _n: int
    _nominal: int
    _out_of_turn: dict[int, tuple[int, int]]
    _players_in: int
    _posted_dead: int
    _posted_live: int
    _pot: int
    _put_in: list[int]
    _raises: int
    _start: Start | None
    _state: enum.Enum
    _street: int
    _table: Table
    _view: View | None

    # Set by each generated class from its spec.
    SPEC_NAME: ClassVar[str] = ""
    SPEC_HASH: ClassVar[str] = ""
    RULES: ClassVar[Mapping[str, tuple[str, str]]] = {}
    PROCEDURE_RULES: ClassVar[Mapping[str, str]] = {}
    STATE_STREET: ClassVar[Mapping[Any, str]] = {}
    STATE_PHASE: ClassVar[Mapping[Any, str]] = {}
    INITIAL: ClassVar[Any] = None
    OPTION_DEFAULTS: ClassVar[Mapping[str, int | bool | str | None]] = {}
    #: The spec's options and table inputs as it declares them (for tools building hands).
    OPTIONS: ClassVar[Mapping[str, Declared]] = {}
    INPUTS: ClassVar[Mapping[str, Declared]] = {}
    DEAL_INPUTS: ClassVar[Mapping[str, Declared]] = {}
    #: The spec's own variables (besides the session ones, which are table inputs): name -> scope
    #: ("hand": one value, "seat": one per seat), each kept in the field ``_v_<name>``.
    DECLARED_VARIABLES: ClassVar[Mapping[str, str]] = {}
    #: The actions of the spec's own (``"own": true``): each a method of its name, taking a seat.
    OWN_ACTIONS: ClassVar[tuple[str, ...]] = ()
    #: The automatic events, taken after every event while a guard holds: (event, compiled table).
    AUTOMATIC: ClassVar[tuple[tuple[Any, Steps], ...]] = ()
    #: How many automatic transitions may follow one another (the number of states).
    SETTLE_LIMIT: ClassVar[int] = 0
    #: The spec's streets, in order, and its deal event's compiled table.
    STREETS: ClassVar[tuple[str, ...]] = ()
    DEAL: ClassVar[Steps] = {}
    #: The cards the spec's game deals and how its showdown ranks them, as JSON data (read by
    #: betspec.cards.game_of); None: the spec declares no cards.
    GAME: ClassVar[Mapping[str, object] | None] = None
    #: The house's rake as its spec posts it (None: no rake); _rake_terms reads its terms.
    RAKE: ClassVar[Mapping[str, object] | None] = None
    #: The money the spec pays outside the pot (its payments); _payment_amounts reads the amounts.
    PAYMENTS: ClassVar[tuple[Mapping[str, object], ...]] = ()

    # ---- construction -------------------------------------------------------------------

    def __init__(self, table: Table, *, start: Start | None = None, **options: object) -> None:
        """A hand on ``table``; ``start`` begins on a later street with a pot instead of blinds.
        ``options`` are the spec's (each generated class declares its own, typed)."""
        raise NotImplementedError  # pragma: no cover - generated

    @classmethod
    def example_table(cls, stacks: Sequence[int], button: int = 0, **inputs: object) -> Table:
        """A table for ``stacks``: the inputs given, the spec's examples for the others it needs."""
        for name, declared in cls.INPUTS.items():
            if name not in inputs and declared.required:
                if declared.example is None:
                    raise InvalidTable(f"{cls.SPEC_NAME} needs the table's {name}, and gives no example of it")
                inputs[name] = declared.example
        return Table.of(stacks, button, inputs)

    def __new__(cls, *args: object, **kwargs: object) -> Engine:
        # Binding the arguments to the generated __init__ would raise a TypeError naming the
        # class; a caller gets the project's error instead, naming the option and its near name.
        if len(args) != 1:
            raise InvalidTable(f"{cls.SPEC_NAME} takes one table (and options as keywords), not {len(args)} arguments")
        if not kwargs:
            return object.__new__(cls)  # what super() would call (no class between has __new__), without super()
        for name in kwargs:
            if name != "start" and name not in cls.OPTION_DEFAULTS:
                hint = did_you_mean(name, cls.OPTION_DEFAULTS)
                known = ", ".join(cls.OPTION_DEFAULTS) or "none"
                raise InvalidTable(f"{cls.SPEC_NAME} has no option {shown(name)}{hint} (its options: {known})")
        return super().__new__(cls)

    def _setup(self, table: Table, start: Start | None) -> None:
        if not isinstance(table, Table):
            raise InvalidTable("an engine is built from a betspec.runtime.Table")
        table = table.checked()
        if start is not None:
            if not isinstance(start, Start):
                raise InvalidTable("start must be a betspec.runtime.Start")
            start = start.checked()
        elif 0 in table.stacks:  # plain ints, once checked
            raise InvalidTable("a seat with no chips is not dealt in (give every seat chips)")
        self._table = table
        self._start = start
        #: Every call made on the hand, as (seat, action, argument); a deal is (-1, street, None): a
        #: snapshot replays it, so a hand restored from one is the hand that was played.
        self._log: list[tuple[int, str, Any]] = []
        n = len(table.stacks)
        self._n = n
        self._button = table.button
        given = table.inputs
        carried = 0
        if CARRIED_POT in given:
            carried = chips_value(given[CARRIED_POT], "the carried pot")
            given = {name: value for name, value in given.items() if name != CARRIED_POT}
        self._load_inputs(given)
        self._compute_roles()
        self._check_table()
        self._hand_constants()
        self._behind = list(table.stacks)
        self._put_in = [0] * n
        self._contributed = [0] * n
        self._folded = [False] * n
        self._acted = [False] * n
        self._acted_at = [0] * n
        self._actor = -1
        self._bet_level = 0
        self._last_raise = 0
        self._last_full_level = 0
        self._raises = 0
        self._street = 0
        #: A pot carried from a dead hand is in the middle from the start: dead money.
        self._pot = carried
        self._dead = carried
        #: Dead money each seat posted (a big blind ante, a blind posted dead): in the main pot,
        #: never its poster's stake when side pots are made.
        self._dead_in = [0] * n
        self._players_in = n
        self._last_live = table.button
        self._deferred = -1  # a seat passed over until every other has acted (a kill blind)
        self._paid = False
        self._returned = [0] * n  # uncalled bets given back, per seat
        self._won = [0] * n  # what the settlement paid each seat
        self._raked, self._paid_out = (0, 0), ()  # the house's take (rake, jackpot drop); paid outside the pot
        self._nominal = self._posted_live = self._posted_dead = self._forced_raises = 0
        #: Declarations made out of turn on this street: seat -> (amount declared, bet level then).
        self._out_of_turn: dict[int, tuple[int, int]] = {}
        #: What the seat to act declared without the chips yet (a bet or raise to come), or a call
        #: that stays bound after its amount was withdrawn; reset whenever a seat acts.
        self._declared = NOT_BOUND
        #: The bet level set by a bet or raise announced with a spoken amount (-1: none this street).
        self._announced = -1
        #: Chips each seat can still put in (the spec's ``playable``): a seat with none is all-in.
        self._live = self._all_playable()
        able = 0
        for live in self._live:  # a loop, not a generator: this runs for every hand
            if live > 0:
                able += 1
        self._able_count = able
        self._view: View | None = None
        self._state = self.INITIAL
        if start is None:
            self._load_deal({})
            self._begin(None)
        else:
            if start.street not in self.STREETS:
                known = ", ".join(self.STREETS)
                raise InvalidTable(f"start street must be one of {known}, not {shown(start.street)}")
            self._street = self.STREETS.index(start.street)
            self._dead = self._pot = start.pot + carried
            self._load_deal(start.inputs)
            self._begin(start.street)
        self._settle()

    def _begin(self, street: str | None) -> None:  # pragma: no cover - generated
        raise NotImplementedError

    def _load_inputs(self, given: Mapping[str, object]) -> None:  # pragma: no cover - generated
        """Check the table's inputs against the spec's and keep them (defaults for those not given)."""
        raise NotImplementedError

    def _load_deal(self, given: Mapping[str, object]) -> None:  # pragma: no cover - generated
        """Check what a deal gives against the spec's deal inputs and keep it for the round."""
        raise NotImplementedError

    def _compute_roles(self) -> None:  # pragma: no cover - generated
        """The seats of the spec's roles, once a hand; raises InvalidTable for one that is not a seat."""
        raise NotImplementedError

    def _post_forced_bets(self) -> None:  # pragma: no cover - generated
        """Post the spec's forced bets, in its order (through :meth:`_post`)."""
        raise NotImplementedError

    def _check_table(self) -> None:  # pragma: no cover - generated
        """Raise InvalidTable when the table and options break one of the spec's checks."""
        raise NotImplementedError

    def _hand_constants(self) -> None:
        """Compute what the generated hot paths read that only the options and the table's inputs
        decide, once a hand (after the table's checks); generated where a spec has any."""

    def _playable(self, seat: int) -> int:  # pragma: no cover - generated
        """Chips ``seat`` can still put in, by the spec's ``playable`` quantity."""
        raise NotImplementedError

    def _all_playable(self) -> list[int]:
        """:meth:`_playable` of every seat, in seat order (generated as one expression)."""
        return list(map(self._playable, range(self._n)))

    def _all_in_to(self) -> int:  # pragma: no cover - generated
        """The commitment of the seat to act if it puts in every chip it can (``all_in_to``)."""
        raise NotImplementedError

    def _refusal(self, action: str, seat: object, to: object) -> IllegalAction | None:  # pragma: no cover
        """The error for ``action`` by the seat to act, or None when the spec allows it now
        (the requirements that do not read the amount; generated)."""
        raise NotImplementedError

    def _fire(self, event: Any, table: Steps, *args: int) -> bool:  # pragma: no cover - generated
        """Take ``event`` (through ``table`` on the compiled path): True if a transition was taken."""
        raise NotImplementedError

    def _settle(self) -> None:
        """After an event: take the automatic transitions whose guards hold, then forget the view."""
        for _ in range(self.SETTLE_LIMIT):
            for event, table in self.AUTOMATIC:
                if self._fire(event, table):
                    break
            else:
                break
        self._view = None

    # ---- questions ----------------------------------------------------------------------

    def _compute_view(self) -> View:  # pragma: no cover - generated
        raise NotImplementedError

    def legal_actions(self) -> tuple[str, ...]:
        """The legal actions of the seat to act, sorted; empty when nobody is to act."""
        return (self._view or self._compute_view())[0]

    @property
    def call_amount(self) -> int:
        """Chips the seat to act must add to call (0 when nobody is to act)."""
        return (self._view or self._compute_view())[1]

    @property
    def min_to(self) -> int | None:
        """The smallest legal bet or raise "to" amount, or None when neither is legal."""
        return (self._view or self._compute_view())[2]

    @property
    def max_to(self) -> int | None:
        """The largest legal bet or raise "to" amount, or None when neither is legal."""
        return (self._view or self._compute_view())[3]

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is pending, or None."""
        return self._actor if self._actor >= 0 else None

    @property
    def next_street(self) -> str | None:
        """The street a deal would open now (the next card, or the next of an all-in runout), or None
        (none once the pots are paid: the hand is closed)."""
        if self._paid or self._street + 1 >= len(self.STREETS):
            return None
        for check, _, _ in self.DEAL.get(self._state, ()):
            if check is None or check(self):
                return self.STREETS[self._street + 1]
        return None

    @property
    def street_name(self) -> str:
        """The spec's name of the street being played (or waiting for the next), ``showdown``
        once the betting is over for good, ``settled`` once the pot is won uncontested, ``dead``
        once the hand is dead (nobody won it: its pot goes to the next deal)."""
        phase = self.STATE_PHASE[self._state]
        if phase in ("runout", "showdown"):
            return "showdown"
        return phase if phase == "settled" or phase == "dead" else self.STREETS[self._street]

    @property
    def phase(self) -> str:
        return self.STATE_PHASE[self._state]

    @property
    def round_over(self) -> bool:
        return self.STATE_PHASE[self._state] not in BETTING_PHASES

    @property
    def hand_over(self) -> bool:
        return self.STATE_PHASE[self._state] in HAND_OVER_PHASES

    @property
    def stacks(self) -> tuple[int, ...]:
        """Every seat's chips behind."""
        return tuple(self._behind)

    @property
    def committed(self) -> tuple[int, ...]:
        """Every seat's commitment on the current street."""
        return tuple(self._put_in)

    @property
    def state(self) -> enum.Enum:
        """The machine's state: a member of the generated module's ``State`` enum."""
        return self._state

    @property
    def table(self) -> Table:
        """The table this hand was built from, checked."""
        return self._table

    @property
    def start(self) -> Start | None:
        """The street and pot this hand started on, or None for a hand from the blinds."""
        return self._start

    @property
    def history(self) -> tuple[tuple[int, str, int | None], ...]:
        """Every call made on the hand, in order: ``(seat, action, argument)``. ``action`` is an action
        (its argument the "to" amount or None), ``push``, ``declare`` or ``out_of_turn`` (their
        arguments as JSON data); a deal is ``(-1, street, None)``. A copy: the log stays as played."""
        return tuple((seat, action, copy.deepcopy(arg)) for seat, action, arg in self._log)

    @property
    def seats(self) -> int:
        """The number of seats at the table."""
        return self._n

    @property
    def button(self) -> int:
        return self._button

    @property
    def pot(self) -> int:
        """Every chip in the middle, this street's commitments included."""
        return self._pot

    @property
    def bet_level(self) -> int:
        """The largest commitment on this street: what everyone must match."""
        return self._bet_level

    @property
    def folded(self) -> tuple[bool, ...]:
        return tuple(self._folded)

    @property
    def contributed(self) -> tuple[int, ...]:
        """Every seat's chips put in over the whole hand (antes and blinds included)."""
        return tuple(self._contributed)

    @property
    def stakes(self) -> tuple[int, ...]:
        """What each seat has at stake: its chips put in less the dead money it posted (a big
        blind ante, a blind posted dead), which is the main pot's. A player wins from each other
        player as much as he staked; side pots are made from the stakes."""
        return tuple(c - d for c, d in zip(self._contributed, self._dead_in, strict=True))

    @property
    def options(self) -> dict[str, int | bool | str | None]:
        """The spec's options as this hand was built with them."""
        return {name: getattr(self, f"_opt_{name}") for name in self.OPTION_DEFAULTS}

    def __repr__(self) -> str:
        """How this hand was built and how far it is (what a failing test or a log needs)."""
        options = "".join(
            f", {name}={value!r}" for name, value in self.options.items() if value != self.OPTION_DEFAULTS[name]
        )
        start = f", start={self._start!r}" if self._start is not None else ""
        return (
            f"<{type(self).__name__}({self._table!r}{start}{options}): {self.street_name}, "
            f"{len(self._log)} calls, {'hand over' if self.hand_over else f'seat {self.to_act} to act'}>"
        )

    def __copy__(self) -> Engine:
        """``copy.copy(hand)``: an independent copy of this hand as it stands, what a search or a
        solver branches on (OpenSpiel clones a state at every node). Each of the hand's
        containers is copied, its immutable values (the table, tuples, numbers) shared: acting on
        either hand leaves the other as it was. Far cheaper than a snapshot restored, which
        replays the hand; equal to it. Python's copy protocol rather than a method of its own:
        a method's name is one a spec's own action could no longer take."""
        cls = type(self)
        twin = object.__new__(cls)
        names, every = _slots(cls)
        try:
            values = every(self)
        except AttributeError:  # a slot this hand never set: each read alone
            pairs = [(name, getattr(self, name)) for name in names if hasattr(self, name)]
        else:
            pairs = list(zip(names, values, strict=True))
        put = object.__setattr__
        for name, value in pairs:
            kind = type(value)
            if kind is list:
                value = [list(item) if type(item) is list else item for item in value]
            elif kind is dict or kind is set:
                value = kind(value)
            put(twin, name, value)
        twin._view = None
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> Engine:
        return self.__copy__()  # its shared values are immutable: a copy is as deep as it needs

    def snapshot(self, key: bytes | None = None) -> dict[str, Any]:
        """This hand as versioned JSON-ready data; :func:`betspec.runtime.snapshot.restore` reads it.

        With ``key``, the snapshot is signed (HMAC-SHA256), and restoring it with the same key
        refuses any edit."""
        return snapshot_format.take(self, key)

    def total_chips(self) -> int:
        """Chips on the table: behind and in the middle, and what the house took from the pots as
        they were paid (its rake and jackpot drop), less what its jackpot paid onto the table.
        Constant for a hand."""
        return sum(self._behind) + self._pot + self._raked[0] + self._raked[1] - self.jackpot_paid

    @property
    def jackpot_paid(self) -> int:
        """What the house's jackpot paid onto the table as the spec's payments say (a high-hand
        bonus): chips that were not on the table when the hand began."""
        return sum(p.amount for p in self._paid_out if p.payer is None) if self._paid_out else 0

    @property
    def rake(self) -> int:
        """What the house raked from the pots as they were paid (0 before, and without a rake)."""
        return self._raked[0]

    @property
    def payments(self) -> tuple[Payment, ...]:
        """The money the settlement paid outside the pot, as the spec's payments say (() before)."""
        return self._paid_out

    @property
    def jackpot_drop(self) -> int:
        """What the house dropped from the main pot into its jackpot as the pots were paid."""
        return self._raked[1]

    # ---- paying the pots -------------------------------------------------------------------

    def settle(
        self,
        ranking: Sequence[int | Sequence[int]] | None = None,
        *,
        runs: Sequence[Sequence[int | Sequence[int]]] | None = None,
        odd_chip_seat: int | None = None,
        shown: Mapping[int, Sequence[str]] | None = None,
        made: Mapping[int, str] | None = None,
    ) -> Settlement:
        """Pay the pots once the hand is over and return what each seat won.

        ``ranking`` is the showdown's result, best first: seats, or lists of seats whose hands
        tie (``[2, [0, 1]]``); an uncontested pot needs none. With ``runs`` (the board run twice
        or more, one ranking per run), each pot is divided into that many equal portions, each
        settled by its own ranking, the odd chips of the division to the first run. Tied winners
        split a pot; the chips that do not divide go one by one to the winners in order from the
        spec's ``odd_chip_after`` seat (the first seat left of the button), or from
        ``odd_chip_seat`` when the dealer gives it (the high card by suit). ``shown`` is the hole
        cards each seat showed (``{2: ["7h", "2c"]}``), which the spec's payments outside the pot
        read (the 7-2 bounty); ``made`` what each seat's hand makes, as the dealer's evaluator
        names it (``{2: "four_of_a_kind"}``, vocabulary.HAND_CATEGORIES), which a payment's
        ``makes`` reads (a high-hand bonus). Every chip ends in a stack, or with the house as the
        spec's rake says; a wrong ranking raises IllegalAction and changes nothing."""
        rule = self.PROCEDURE_RULES["settle"]
        if not self.hand_over:
            raise self._reject("round_not_over", rule, None, "settle", None, "the hand is not over")
        if self._paid:
            raise self._reject("illegal_action", rule, None, "settle", None, "the pots are paid already")
        if odd_chip_seat is not None and (type(odd_chip_seat) is not int or not 0 <= odd_chip_seat < self._n):
            raise self._reject("bad_seat", rule, None, "settle", odd_chip_seat, "the odd chip's seat is not a seat")
        showing = None if shown is None else self._shown(shown, rule)
        making = None if made is None else self._made(made, rule)
        # A dead hand pays nobody: its pot stays in the middle for the next deal. A ranking given
        # for it is checked as for a pot won uncontested (and logged), then pays nothing.
        dead = self.STATE_PHASE[self._state] in DEAD_PHASES
        pots = self.pots()
        contested = [] if dead else [p for p in pots if len(p.eligible) > 1]
        if runs is not None:
            if ranking is not None:
                raise self._reject("illegal_action", rule, None, "settle", None, "give a ranking or runs, not both")
            if not isinstance(runs, list | tuple) or not runs or len(runs) > 10:
                raise self._reject("illegal_action", rule, None, "settle", None, "runs is a list of 1 to 10 rankings")
            orders = [self._ranked(r, contested) for r in runs]
        elif contested or ranking is not None:
            # A ranking given is checked even for a pot won uncontested: it is logged, and a
            # snapshot replays it.
            orders = [self._ranked(ranking, contested)]
        else:
            orders = [[]]
        # Logged once checked (a ranking refused is never copied): plain JSON, the cards shown
        # only where given (the logs of hands before payments stay as they were).
        logged = {"ranking": _plain(ranking), "runs": _plain(runs), "odd_chip_seat": odd_chip_seat}
        if showing is not None:
            logged["shown"] = [[seat, list(cards)] for seat, cards in sorted(showing.items())]
        if making is not None:
            logged["made"] = [[seat, hand] for seat, hand in sorted(making.items())]
        if dead:
            self._paid = True
            self._view = None
            self._log.append((-2, "settle", logged))
            return Settlement((), tuple(self._won), tuple(self._returned))
        first = self._odd_chip_after() if odd_chip_seat is None else (odd_chip_seat - 1) % self._n
        won = [0] * self._n
        awards: list[Award] = []
        # A spec without a rake pays its pots whole (its settle no slower than before rakes).
        takes, raked = (None, (0, 0)) if self.RAKE is None else self._house_takes(pots, bool(contested))
        for index, pot in enumerate(pots):
            paid = pot.amount if takes is None else pot.amount - takes[index]
            portions = [paid // len(orders)] * len(orders)
            portions[0] += paid - sum(portions)
            for run, (portion, order) in enumerate(zip(portions, orders, strict=True)):
                winners = (
                    list(pot.eligible)
                    if len(pot.eligible) == 1
                    else next(
                        [s for s in group if s in pot.eligible]
                        for group in order
                        if any(s in pot.eligible for s in group)
                    )
                )
                # Odd chips clockwise from the seat after ``first``: the winners in that order.
                winners.sort(key=lambda seat: (seat - first - 1) % self._n)
                base, odd = divmod(portion, len(winners))
                shares = [base + (1 if i < odd else 0) for i in range(len(winners))]
                for seat, share in zip(winners, shares, strict=True):
                    won[seat] += share
                awards.append(Award(portion, pot.eligible, tuple(winners), tuple(shares), run))
        for seat, amount in enumerate(won):
            self._behind[seat] += amount
        self._won = won
        self._pot -= sum(won) + raked[0] + raked[1]
        self._raked = raked
        payments = self._pay_outside(showing or {}, making or {}, bool(contested)) if self.PAYMENTS else ()
        self._paid_out = payments
        self._paid = True
        self._view = None
        self._log.append((-2, "settle", logged))
        return Settlement(tuple(awards), tuple(won), tuple(self._returned), *raked, payments)

    def _house_takes(self, pots: Sequence[Pot], showdown: bool) -> tuple[list[int], tuple[int, int]]:
        """What the house takes from each pot before it is paid, as the spec's rake says, and its
        rake and jackpot drop in all. A hand is raked once it reached the rake's street (its
        betting did, or a showdown dealt every card) and its pots come to the minimum: each pot
        its percentage, rounded as posted and down to the rake's chip, within the cap (each pot's,
        or the hand's: the main pot raked first); then the drop from what the main pot keeps."""
        takes = [0] * len(pots)
        rake = self.RAKE
        if rake is None or not pots:
            return takes, (0, 0)
        street = rake["from_street"]
        if street and not showdown and self._street < self.STREETS.index(cast(str, street)):
            return takes, (0, 0)
        unit, cap, minimum, drop, drop_minimum = self._rake_terms()
        total = sum(pot.amount for pot in pots)
        if total < minimum:
            return takes, (0, 0)
        basis_points, per_pot, nearest = cast(int, rake["basis_points"]), rake["cap_per"] == "pot", rake["rounding"]
        taken = 0
        for index, pot in enumerate(pots):
            share, part = divmod(pot.amount * basis_points, 10_000)
            if nearest == "half_even" and (2 * part > 10_000 or (2 * part == 10_000 and share % 2)):
                share += 1
            if unit > 1:
                share -= share % unit
            if cap is not None:
                share = min(share, cap if per_pot else cap - taken)
            takes[index] = share = max(0, min(share, pot.amount))
            taken += share
        dropped = 0
        if drop > 0 and total >= drop_minimum:
            dropped = min(drop, pots[0].amount - takes[0])
            takes[0] += dropped
        return takes, (taken, dropped)

    def _shown(self, shown: object, rule: str) -> dict[int, tuple[str, ...]]:
        """The cards each seat showed, checked: a mapping of seats to lists of cards ("7h"), at
        most ten a seat, no card twice."""
        if not isinstance(shown, Mapping) or len(shown) > self._n:
            raise self._reject("illegal_action", rule, None, "settle", None, "shown maps seats to the cards they show")
        found: dict[int, tuple[str, ...]] = {}
        seen: set[str] = set()
        for seat, cards in _in_seat_order(shown):
            if type(seat) is not int or not 0 <= seat < self._n:
                raise self._reject("bad_seat", rule, None, "settle", seat, "shown maps seats to the cards they show")
            if not isinstance(cards, list | tuple) or len(cards) > 10:
                why = f"seat {seat} shows a list of at most ten cards"
                raise self._reject("illegal_action", rule, None, "settle", seat, why)
            for card in cards:
                if not _is_card(card) or card in seen:
                    why = "not a card" if not _is_card(card) else "a card twice"
                    raise self._reject(
                        "illegal_action", rule, None, "settle", seat, f"seat {seat} shows {shown_value(card)}: {why}"
                    )
                seen.add(card)
            found[seat] = tuple(cards)
        return found

    def _made(self, made: object, rule: str) -> dict[int, str]:
        """What each seat's hand makes, checked: a mapping of seats to the words of
        vocabulary.HAND_CATEGORIES."""
        if not isinstance(made, Mapping) or len(made) > self._n:
            raise self._reject("illegal_action", rule, None, "settle", None, "made maps seats to the hands they make")
        found: dict[int, str] = {}
        for seat, hand in _in_seat_order(made):
            if type(seat) is not int or not 0 <= seat < self._n:
                raise self._reject("bad_seat", rule, None, "settle", seat, "made maps seats to the hands they make")
            if type(hand) is not str or hand not in HAND_CATEGORIES:
                why = f"seat {seat} makes {shown_value(hand)}: not a hand ({', '.join(HAND_CATEGORIES)})"
                raise self._reject("illegal_action", rule, None, "settle", seat, why)
            found[seat] = hand
        return found

    def _pay_outside(
        self, shown: Mapping[int, tuple[str, ...]], made: Mapping[int, str], showdown: bool
    ) -> tuple[Payment, ...]:
        """The spec's payments outside the pot, once the pots are paid: each to the one seat the
        pots paid, when it showed the cards the payment names and made a hand it names (at a
        showdown, where it says so), from every other seat, each paying at most what it has
        left, or from the house's jackpot, once."""
        winner = self._settled_winner()
        if winner is None:
            return ()
        paid_out: list[Payment] = []
        for payment, amount in zip(self.PAYMENTS, self._payment_amounts(), strict=True):
            if amount <= 0 or (payment["showdown"] and not showdown):
                continue
            if not shows(shown.get(winner, ()), cast(Sequence[str], payment["ranks"]), payment["suited"]):
                continue
            if "makes" in payment and made.get(winner) not in cast(Sequence[str], payment["makes"]):
                continue
            if payment["from"] == "jackpot":
                self._behind[winner] += amount
                paid_out.append(Payment(cast(str, payment["name"]), None, winner, amount))
                continue
            for seat in range(self._n):
                paid = min(amount, self._behind[seat]) if seat != winner else 0
                if paid > 0:
                    self._behind[seat] -= paid
                    self._behind[winner] += paid
                    paid_out.append(Payment(cast(str, payment["name"]), seat, winner, paid))
        return tuple(paid_out)

    def _payment_amounts(self) -> tuple[int, ...]:
        """What each of the spec's payments outside the pot is, read about the hand (generated
        where the spec declares payments)."""
        return ()

    def _rake_terms(self) -> tuple[int, int | None, int, int, int]:
        """The rake's chip unit, cap (None: none), minimum pot, jackpot drop and the drop's minimum
        pot, read about the hand (generated where the spec posts a rake)."""
        return 1, None, 0, 0, 0

    def _ranked(self, ranking: object, contested: Sequence[Pot]) -> list[list[int]]:
        """A ranking checked: groups of seats best first, every seat eligible for a contested pot
        in it, none twice, none that folded. A ranking is a list (or tuple) whose entries are
        seats or lists (tuples) of seats, plain ints: nothing deeper, nothing else."""
        rule = self.PROCEDURE_RULES["settle"]
        if not isinstance(ranking, list | tuple):
            raise self._reject(
                "illegal_action", rule, None, "settle", None, "the showdown needs a ranking (seats best first)"
            )
        if len(ranking) > self._n:
            why = f"a ranking lists each of the {self._n} seats once at most"
            raise self._reject("illegal_action", rule, None, "settle", None, why)
        order: list[list[int]] = []
        seen: set[int] = set()
        for entry in ranking:
            group: list[int] = []
            # A seat, or a list of seats that tie; a list is read until a seat fails (at most
            # one past the table's seats: a seat twice or not a seat).
            for seat in entry if isinstance(entry, list | tuple) else (entry,):
                if type(seat) is not int or not 0 <= seat < self._n:
                    raise self._reject("bad_seat", rule, None, "settle", seat, "a ranking lists seat numbers")
                if seat in seen or self._folded[seat]:
                    why = "ranked twice" if seat in seen else "folded"
                    raise self._reject("illegal_action", rule, None, "settle", seat, f"seat {seat} is {why}")
                seen.add(seat)
                group.append(seat)
            if group:
                order.append(group)
        missing = sorted({s for pot in contested for s in pot.eligible} - seen)
        if missing:
            raise self._reject(
                "illegal_action", rule, None, "settle", None, f"seat {missing[0]} shows down and is not ranked"
            )
        return order

    def _next_live(self, seat: int) -> int:
        """The next seat clockwise after ``seat`` that has chips (``seat`` itself if none has)."""
        for step in range(1, self._n + 1):
            other = (seat + step) % self._n
            if self._behind[other] > 0:
                return other
        return seat

    def _prev_live(self, seat: int) -> int:
        """The previous seat before ``seat`` that has chips."""
        for step in range(1, self._n + 1):
            other = (seat - step) % self._n
            if self._behind[other] > 0:
                return other
        return seat

    def _seats_left(self) -> int:
        return sum(1 for stack in self._behind if stack > 0)

    def next_table(self) -> Table:
        """The table of the next hand, once this one is paid: the stacks after settlement, the
        seats with no chips left out (the others numbered in order), the button moved as the
        spec's ``next_hand`` says (moving or dead button, heads-up), and the inputs that carry
        over from hand to hand; those given for one hand only take their defaults."""
        if not self._paid:
            raise InvalidTable("settle the hand before the next: its pots are not paid")
        live = [seat for seat in range(self._n) if self._behind[seat] > 0]
        if len(live) < 2:
            raise InvalidTable("the session is over: fewer than two seats have chips")
        button, given = self._next_hand()
        renumbered = {seat: number for number, seat in enumerate(live)}
        inputs: dict[str, object] = {}
        for name, value in (*self._table.inputs.items(), *given.items()):
            declared = self.INPUTS.get(name)
            if declared is None or (declared.hand and name not in given):
                continue
            if declared.per_seat and isinstance(value, list | tuple):
                value = tuple(value[seat] for seat in live)
            if declared.type in ("seat", "seat?") and type(value) is int:
                # A seat of this hand, numbered as the next table numbers it (None: it is gone).
                value = renumbered.get(value)
                if value is None and declared.type == "seat":
                    inputs.pop(name, None)
                    continue
            inputs[name] = value
        if self._pot:
            inputs[CARRIED_POT] = self._pot  # a dead hand's pot, the next deal's dead money
        return Table.of(tuple(self._behind[seat] for seat in live), renumbered.get(button, 0), inputs)

    def _next_hand(self) -> tuple[int, dict[str, object]]:  # pragma: no cover - generated
        """The next hand's button (a seat of this one) and the inputs the spec sets for it."""
        raise NotImplementedError

    # ---- what next_hand reads of the settlement (vocabulary.SETTLEMENT_NAMES) -------------

    def _settled_winner(self) -> int | None:
        """The one seat the settlement paid, or None (nobody paid, or pots split)."""
        paid = [seat for seat, amount in enumerate(self._won) if amount > 0]
        return paid[0] if len(paid) == 1 else None

    def _settled_winner_profit(self) -> int:
        """What the winner was paid less what he put in (0 without a winner)."""
        winner = self._settled_winner()
        if winner is None:
            return 0
        return self._won[winner] - self._contributed[winner]

    def _settled_pot_paid(self) -> int:
        return sum(self._won)

    def _settled_pot_carried(self) -> int:
        """The chips a dead hand leaves in the middle (the next table's carried pot)."""
        return self._pot if self._paid else 0

    @property
    def variables(self) -> dict[str, int | bool | list[int | bool | None] | None]:
        """The spec's own variables (``variables`` with a scope), as they are now: a seat's
        variable as a list by seat. Session variables are the table's inputs."""
        return {
            name: list(getattr(self, f"_v_{name}")) if scope == "seat" else getattr(self, f"_v_{name}")
            for name, scope in self.DECLARED_VARIABLES.items()
        }

    def _odd_chip_after(self) -> int:  # pragma: no cover - generated
        """The seat after which odd chips go, clockwise (the spec's ``odd_chip_after``)."""
        raise NotImplementedError

    @property
    def paid(self) -> bool:
        """The pots have been paid (:meth:`settle`)."""
        return self._paid

    def pots(self) -> list[Pot]:
        """Main pot first, then side pots; each with the seats that can win it.

        A seat's stake is what it put in less the dead money it posted: a player wins from each
        other player as much as he staked, and the dead money (a big blind ante, a blind posted
        dead, a start pot, a carried pot) is the main pot's, which every seat still in can win,
        whoever posted it: a seat all-in for dead money alone plays for the dead money."""
        dead_in = self._dead_in
        stakes = self.stakes if any(dead_in) else self._contributed
        dead = self._dead + sum(dead_in)
        folded = self._folded
        everyone = tuple(i for i in range(self._n) if not folded[i])
        # The dead money first, as a pot of its own that every seat still in can win; the lowest
        # stake's pot joins it when the same seats can win both (a stake of 0 still wins it).
        pots: list[Pot] = [Pot(dead, everyone)] if dead else []
        floor = 0
        for level in sorted({c for c, f in zip(stakes, folded, strict=True) if not f}):
            amount = sum(min(c, level) - min(c, floor) for c in stakes)
            eligible = tuple(i for i in everyone if stakes[i] >= level)
            if pots and pots[-1].eligible == eligible:
                pots[-1] = Pot(pots[-1].amount + amount, eligible)
            elif amount:
                pots.append(Pot(amount, eligible))
            floor = level
        # Chips folded above every live level belong to the last pot there is.
        excess = sum(max(c - floor, 0) for c in stakes)
        if excess:
            pots[-1:] = [Pot(pots[-1].amount + excess, pots[-1].eligible)] if pots else [Pot(excess, everyone)]
        return pots

    # ---- variables the specs read -------------------------------------------------------

    def _needs_action(self, seat: int) -> bool:
        return (
            not self._folded[seat]
            and self._live[seat] > 0
            and (not self._acted[seat] or self._put_in[seat] < self._bet_level)
        )

    def _pending(self) -> int:
        """Seats still in, with chips, that have not acted or not matched the bet."""
        if self._actor < 0:  # the turn passes to nobody exactly when nobody needs to act
            return 0
        return sum(1 for seat in range(self._n) if self._needs_action(seat))

    def _able(self) -> int:
        """Seats still in with chips behind (kept up to date by every chip movement and fold)."""
        return self._able_count

    def _others_able(self) -> int:
        """Seats other than the one to act still in with chips behind."""
        mine = 1 if self._actor >= 0 and self._live[self._actor] > 0 else 0
        return self._able_count - mine

    def _able_owing(self) -> int:
        """Seats still in, with chips behind, whose commitment is below the bet level."""
        level, put_in, live, folded = self._bet_level, self._put_in, self._live, self._folded
        owing = 0
        for seat in range(self._n):  # a loop over seats, not a generator: this runs after most actions
            if put_in[seat] < level and live[seat] > 0 and not folded[seat]:
                owing += 1
        return owing

    def _answerable(self) -> bool:
        """Another seat still in has more chips in all than the bet level: it could answer a bet."""
        level, actor, put_in, live, folded = self._bet_level, self._actor, self._put_in, self._live, self._folded
        for seat in range(self._n):  # noqa: SIM110 - indexes, not zip and enumerate: asked at every decision
            if put_in[seat] + live[seat] > level and not folded[seat] and seat != actor:
                return True
        return False

    # ---- primitives the specs' effects call ---------------------------------------------

    def _put(self, seat: int, amount: int) -> None:
        self._behind[seat] -= amount
        self._contributed[seat] += amount
        self._pot += amount
        before = self._live[seat]
        after = self._live[seat] = self._playable(seat)
        if (before > 0) != (after > 0) and not self._folded[seat]:
            self._able_count += 1 if after > 0 else -1

    def _post(
        self,
        seat: int,
        amount: int,
        what: str,
        *,
        live: bool,
        dead_money: bool,
        order: str,
        in_full: bool,
    ) -> None:
        """``seat`` posts the forced bet ``what`` of ``amount`` (all it has if less, unless
        ``in_full``): live, toward its call and raising the bet to face, or not; ``dead_money``
        for the main pot, not the poster's stake. Its ``order`` (vocabulary.FORCED_BET_ORDERS):
        ``in_turn``; ``starts_after``, the first turn moved to the seat after it; or ``last``,
        its poster passed over until every other player has acted; neither of the last two when
        it is smaller than a post before it (a blind of zero is no blind: the button's left acts
        first)."""
        if amount < 0:
            raise InvalidTable(f"the {what} comes to {amount} chips: a forced bet is not negative")
        if not 0 <= seat < self._n:
            raise InvalidTable(f"the {what} falls on seat {seat}, which is not at this table")
        behind = self._behind[seat]
        if in_full and behind < amount:
            raise InvalidTable(f"seat {seat} cannot post the {what} of {amount} in full: it has {behind}")
        option = order != "in_turn" and amount >= self._nominal and amount > 0
        if option:  # a smaller post, or none, gets no option
            if order == "starts_after":
                self._last_live = seat
            else:
                self._deferred = seat
        paid = amount if amount <= behind else behind
        if paid > 0:
            # _put written out: a hand's setup posts two or more of these.
            self._behind[seat] = behind - paid
            self._contributed[seat] += paid
            self._pot += paid
            before = self._live[seat]
            after = self._live[seat] = self._playable(seat)
            if (before > 0) != (after > 0) and not self._folded[seat]:
                self._able_count += 1 if after > 0 else -1
        if not live:
            self._posted_dead += paid
            if dead_money:
                self._dead_in[seat] += paid
            return
        self._posted_live += paid
        put = self._put_in[seat] = self._put_in[seat] + paid
        if put > self._bet_level:
            self._bet_level = put
        if amount > self._nominal:
            self._nominal = amount
            if option:
                self._forced_raises += 1

    def _begin_street(self, street: int) -> None:
        self._street = street
        n = self._n
        self._put_in = [0] * n
        self._acted = [False] * n
        self._acted_at = [0] * n
        self._bet_level = 0
        self._out_of_turn = {}
        self._announced = -1
        self._actor = -1
        self._deferred = -1

    def _from_button(self) -> range | list[int]:
        """Every seat, clockwise from the button's left (the button last): the order seats post in."""
        first = self._button + 1
        n = self._n
        return [*range(first, n), *range(first)] if first < n else range(n)

    # ---- the primitives: printed from betspec/runtime/primitives.py by `python -m betspec.tools.primitives`
    # (do not edit: change the declaration and run the command)

    def _mark_acted(self, seat: int) -> None:
        """``seat`` has acted on the bet it faces: a seat passed over no longer is, a declaration
        out of turn and a bound word are spent.
        """
        if seat == self._deferred:
            self._deferred = -1
        if self._out_of_turn:
            self._out_of_turn.pop(seat, None)
        self._declared = NOT_BOUND
        self._acted[seat] = True
        self._acted_at[seat] = self._bet_level

    def _open_betting(self, after: int) -> None:
        """The first seat after ``after`` that still has to act is to act."""
        self._actor = self._next_needing_action(after)

    def _commit(self, to: int) -> None:
        """The seat to act puts in up to ``to`` on this street."""
        seat = self._actor
        put_in = self._put_in
        amount = to - put_in[seat]
        # _put written out: an action's commonest path.
        self._behind[seat] -= amount
        self._contributed[seat] += amount
        self._pot += amount
        live = self._live
        before = live[seat]
        after = live[seat] = self._playable(seat)
        if (before > 0) != (after > 0) and not self._folded[seat]:
            self._able_count += 1 if after > 0 else -1
        put_in[seat] = to
        level = self._bet_level
        if to > level:
            level = self._bet_level = to
        # A commit that puts nothing in and leaves the seat short of the bet is no action on
        # it: the seat keeps its turn to come and its option to raise (commit(committed)
        # facing a bet). _mark_acted written out, the level read from the local.
        if amount or to >= level:
            if seat == self._deferred:
                self._deferred = -1
            if self._out_of_turn:
                self._out_of_turn.pop(seat, None)
            self._declared = NOT_BOUND
            self._acted[seat] = True
            self._acted_at[seat] = level

    def _mark_checked(self) -> None:
        """The seat to act has acted without putting chips in."""
        seat = self._actor
        if seat == self._deferred:
            self._deferred = -1
        if self._out_of_turn:
            self._out_of_turn.pop(seat, None)
        self._declared = NOT_BOUND
        self._acted[seat] = True
        self._acted_at[seat] = self._bet_level

    def _mark_folded(self) -> None:
        """The seat to act is out of the hand."""
        seat = self._actor
        if self._live[seat] > 0:
            self._able_count -= 1
        self._folded[seat] = True
        self._players_in -= 1
        if seat == self._deferred:
            self._deferred = -1
        if self._out_of_turn:
            self._out_of_turn.pop(seat, None)
        self._declared = NOT_BOUND
        self._acted[seat] = True
        self._acted_at[seat] = self._bet_level

    def _pass_action(self) -> None:
        """The next seat that has to act is to act, or nobody."""
        # _next_needing_action after the seat to act, written out: this runs after every
        # action.
        n, level, after = self._n, self._bet_level, self._actor
        live, folded, acted, put_in = self._live, self._folded, self._acted, self._put_in
        deferred = self._deferred
        for step in range(1, n + 1):
            seat = (after + step) % n
            if live[seat] > 0 and not folded[seat] and (not acted[seat] or put_in[seat] < level) and seat != deferred:
                self._actor = seat
                return
        if deferred < 0 or live[deferred] <= 0 or folded[deferred]:
            self._actor = -1
            return
        # Every other player has acted: the passed-over seat's turn, if it still has to act.
        self._actor = deferred if not acted[deferred] or put_in[deferred] < level else -1

    def _close_round(self) -> None:
        """End the betting round: a bet nobody matched goes back to its owner."""
        self._actor = -1
        # The first seat with the largest commitment, and the largest of the others' (0 if
        # none is larger), in one pass: commitments are never negative.
        put_in = self._put_in
        top, best, second = 0, put_in[0], 0
        for seat in range(1, self._n):
            put = put_in[seat]
            if put > best:
                top, best, second = seat, put, best
            elif put > second:
                second = put
        uncalled = best - second
        if uncalled > 0:
            self._put(top, -uncalled)
            self._put_in[top] = second
            self._returned[top] += uncalled

    def _deal_runout(self, street: int) -> None:
        """Deal a street with nobody left to bet."""
        self._street = street

    # ---- end of the primitives printed from betspec/runtime/primitives.py

    def _next_needing_action(self, after: int) -> int:
        n, level = self._n, self._bet_level
        live, folded, acted, put_in = self._live, self._folded, self._acted, self._put_in
        deferred = self._deferred
        for step in range(1, n + 1):
            seat = (after + step) % n
            # _needs_action, written out: this loop runs after every action.
            if live[seat] > 0 and not folded[seat] and (not acted[seat] or put_in[seat] < level) and seat != deferred:
                return seat
        if deferred < 0 or live[deferred] <= 0 or folded[deferred]:
            return -1
        # Every other player has acted: the passed-over seat's turn, if it still has to act.
        return deferred if not acted[deferred] or put_in[deferred] < level else -1

    # ---- rejections ---------------------------------------------------------------------

    def _reject(self, code: str, rule: str, seat: object, action: str, amount: object, why: str = "") -> IllegalAction:
        """The error for an illegal action: its code, what was tried, why, and the rule cited."""
        text, source = self.RULES.get(rule, ("", ""))
        if seat is None and action == "deal":  # the amount is the street asked for
            tried = f"deal {shown(amount)}"
        elif seat is None:  # the table's business (settle): the amount is what was given
            tried = action + ("" if amount is None else f" {shown(amount)}")
        else:
            tried = f"seat {shown(seat)} {action}" + ("" if amount is None else f" {shown(amount)}")
        reason = f": {why}" if why else ""
        if code in _BOUNDS and seat == self._actor and self._actor >= 0:  # the bound the amount broke
            cached = self._view
            bound = (cached or self._compute_view())[_BOUNDS[code][0]]
            self._view = cached  # read, not kept: a refusal changes nothing
            reason += "" if bound is None else f" ({_BOUNDS[code][1]} {bound})"
        message = f"{tried}: {code}{reason}. Rule {rule}: {text} [{source}]"
        return IllegalAction(code, message, rule, source)

    def _require_turn(self, seat: object, action: str, amount: object) -> None:
        """Reject a seat that is not a seat number, or an action when nobody or another seat is to act."""
        if type(seat) is not int:
            why = f"a seat is a whole number 0..{self._n - 1}, not {type(seat).__name__}"
            raise self._reject("bad_seat", self.PROCEDURE_RULES["out_of_turn"], seat, action, amount, why)
        if self._actor < 0:
            rule = self.PROCEDURE_RULES["no_action_pending"]
            raise self._reject("no_action_pending", rule, seat, action, amount, "nobody is to act")
        if seat != self._actor:
            rule = self.PROCEDURE_RULES["out_of_turn"]
            raise self._reject("out_of_turn", rule, seat, action, amount, f"seat {self._actor} is to act")

    def _require_amount(self, seat: object, action: str, amount: object) -> None:
        if type(amount) is not int or amount < 0:
            why = "an amount is a non-negative whole number of chips"
            raise self._reject("bad_amount", self.PROCEDURE_RULES["bad_amount"], seat, action, amount, why)
        if amount > MAX_CHIPS:  # what no table holds (and what TypeScript's numbers hold exactly)
            why = f"an amount is at most {MAX_CHIPS} chips, the most a table holds"
            raise self._reject("bad_amount", self.PROCEDURE_RULES["bad_amount"], seat, action, amount, why)

    def _no_amount(self, seat: object, action: str, amount: object) -> None:
        if amount is not None:
            why = f"{action} takes no amount"
            raise self._reject("bad_amount", self.PROCEDURE_RULES["bad_amount"], seat, action, amount, why)

    # ---- table procedures: chips pushed, words said, declarations out of turn -------------

    def _push_ruling(self, pushed: int, chips: int, largest: int, said: Said) -> tuple[str, int | None, str]:
        """The spec's ruling on chips pushed (generated from its procedures)."""
        raise NotImplementedError  # pragma: no cover - generated

    def _said(self, seat: object, say: object) -> Said:
        """A declaration: "fold", "check", "call", "bet", "raise", or {"act": "bet" | "raise", "to": N}."""
        if say is None:
            return Said()
        if type(say) is str and say in DECLARATIONS:
            return Said(say == "fold", say == "check", say == "call", say == "bet", say == "raise")
        if isinstance(say, Mapping) and set(say) == {"act", "to"} and say["act"] in WAGERS:
            to = say["to"]
            if type(to) is not int or not 0 <= to <= MAX_CHIPS:
                rule = self.PROCEDURE_RULES["bad_amount"]
                why = f"a declared amount is a whole number of chips, at most {MAX_CHIPS}"
                raise self._reject("bad_amount", rule, seat, "say", to, why)
            return Said(bet=say["act"] == "bet", raise_=say["act"] == "raise", to=to)
        rule = self.PROCEDURE_RULES["unknown_action"]
        why = 'a declaration is "fold", "check", "call", "bet", "raise" or {"act": "bet" | "raise", "to": N}'
        raise self._reject("illegal_action", rule, seat, "say", say, why)

    def _wager_refusal(self, seat: int) -> IllegalAction | None:
        """Why the seat to act may not bet or raise now (whichever the bet level calls for), or None."""
        return self._refusal("bet" if self._bet_level == 0 else "raise", seat, None)

    def _rule(self, seat: int, pushed: int, chips: int, largest: int, said: Said) -> Ruling:
        if said.wager and said.to is None:
            # A bet or raise declared without its amount binds only if the player may make one.
            refusal = self._wager_refusal(seat)
            if refusal is not None:
                raise refusal
        if self._declared == BOUND_TO_WAGER and not said.wager:
            said = Said(said.fold, said.check, said.call, True, False, said.to)
        ruling, to, rule = self._push_ruling(pushed, chips, largest, said)
        text, source = self.RULES.get(rule, ("", ""))
        before = self._behind[seat]
        if ruling == "withdraw":
            # Nothing moves, but the player said "call": he stays bound to calling or folding.
            self._declared = BOUND_TO_CALL
            self._view = None
            return Ruling("withdraw", None, rule, source, text, returned=pushed)
        if ruling == "wager":
            assert to is not None
            action = "bet" if self._bet_level == 0 else "raise"
            self.act(seat, action, to)
            if said.to is not None:
                self._announced = self._bet_level
        else:
            action = ruling
            self.act(seat, ruling)
        taken = before - self._behind[seat]
        final = self._put_in[seat] if action in ("bet", "raise", "call") else None
        return Ruling(action, final, rule, source, text, max(pushed - taken, 0), max(taken - pushed, 0))

    def _logged(self, mark: int, entry: tuple[int, str, Any]) -> None:
        """Replace what an inner call logged since ``mark`` by the public call that made it:
        a snapshot replays the calls, and the same calls give the same hand."""
        del self._log[mark:]
        self._log.append(entry)

    def push(self, seat: int, chips: Sequence[int], say: object = None) -> Ruling:
        """Chips pushed forward in one motion, with what was said: ruled, then taken.

        ``chips`` is a list (or tuple) of 1 to 100 chip values, plain ints > 0."""
        if type(seat) is not int or seat != self._actor or self._actor < 0:
            self._require_turn(seat, "push", None)
        rule = self.PROCEDURE_RULES["bad_amount"]
        if not isinstance(chips, list | tuple) or not 0 < len(chips) <= 100:
            raise self._reject("bad_amount", rule, seat, "push", chips, "chips are a list of 1 to 100 chip values")
        # The list's own items (whatever a subclass's iterator says): what is checked is what is logged.
        chips = list.copy(chips) if isinstance(chips, list) else list(tuple.__iter__(chips))
        if any(type(chip) is not int or not 0 < chip <= MAX_CHIPS for chip in chips):
            why = f"a chip is worth a whole number from 1 to {MAX_CHIPS}"
            raise self._reject("bad_amount", rule, seat, "push", chips, why)
        pushed = sum(chips)
        if pushed > self._behind[seat]:
            why = f"the seat has {self._behind[seat]} chips behind"
            raise self._reject("bad_amount", rule, seat, "push", pushed, why)
        said = self._said(seat, self._plain_say(seat, say))
        mark = len(self._log)
        ruling = self._rule(seat, pushed, len(chips), max(chips), said)
        self._logged(mark, (seat, "push", {"chips": list(chips), "say": _saying(said)}))
        return ruling

    def declare(self, seat: int, say: object) -> Ruling:
        """A binding verbal declaration in turn (no chips yet)."""
        if type(seat) is not int or seat != self._actor or self._actor < 0:
            self._require_turn(seat, "say", None)
        said = self._said(seat, self._plain_say(seat, say))
        if said.wager and said.to is None:
            refusal = self._wager_refusal(seat)
            if refusal is not None:
                raise refusal
            self._declared = BOUND_TO_WAGER
            self._view = None
            self._log.append((seat, "declare", _saying(said)))
            text, source = self.RULES.get("VERBAL", ("", ""))
            return Ruling("declared", None, "VERBAL", source, text)
        mark = len(self._log)
        ruling = self._rule(seat, 0, 0, 0, said)
        self._logged(mark, (seat, "declare", _saying(said)))
        return ruling

    def _plain_say(self, seat: object, say: object) -> object:
        """``say`` for :meth:`_said` to read, or refused: a declaration given as a mapping is a dict
        ``{"act": "bet" | "raise", "to": N}`` with N at most the chips on the table, so that what
        is logged of it is plain JSON (used by ``push`` and ``declare``)."""
        if not isinstance(say, Mapping):
            return say
        if type(say) is not dict or type(say.get("act")) is not str:
            rule = self.PROCEDURE_RULES["unknown_action"]
            why = 'a declaration is "fold", "check", "call", "bet", "raise" or {"act": "bet" | "raise", "to": N}'
            raise self._reject("illegal_action", rule, seat, "say", say, why)
        to = say.get("to")
        if type(to) is int and to > self.total_chips():
            why = f"more chips than the table holds ({self.total_chips()})"
            raise self._reject("bad_amount", self.PROCEDURE_RULES["bad_amount"], seat, "say", to, why)
        return say

    def declare_out_of_turn(self, seat: int, act: str, to: int | None = None) -> None:
        """A declaration by a seat not yet to act; it restricts what that seat may do in turn.

        Every argument is checked before anything changes: ``seat`` a plain int, ``act`` check,
        call, bet or raise, ``to`` the amount of a bet or raise (a plain int, at most the chips
        on the table) and None otherwise."""
        # What was tried, as a message names it: the declaration when it is one, never the raw value.
        name = act if type(act) is str and act in OUT_OF_TURN_DECLARATIONS else "out of turn"
        if type(seat) is not int:
            self._require_turn(seat, name, to)
        if self._actor < 0:
            raise self._reject("no_action_pending", self.PROCEDURE_RULES["no_action_pending"], seat, name, to)
        rule = self.PROCEDURE_RULES["out_of_turn"]
        if not 0 <= seat < self._n or self._folded[seat] or self._live[seat] == 0:
            raise self._reject("illegal_action", rule, seat, name, to, "not a seat still to act in this hand")
        if seat == self._actor:
            raise self._reject("illegal_action", rule, seat, name, to, "this seat is to act: it declares in turn")
        if name != act:
            raise self._reject("illegal_action", rule, seat, "out of turn", act, "declares check, call, bet or raise")
        if act in WAGERS:
            self._require_amount(seat, act, to)
            if to > self.total_chips():  # type: ignore[operator]  # an int: checked just above
                why = f"more chips than the table holds ({self.total_chips()})"
                raise self._reject("bad_amount", self.PROCEDURE_RULES["bad_amount"], seat, act, to, why)
        else:
            self._no_amount(seat, act, to)
        amount = to if to is not None else (self._bet_level if act == "call" else 0)
        self._out_of_turn[seat] = (amount, self._bet_level)
        self._log.append((seat, "out_of_turn", {"act": act, "to": to}))
        self._view = None

    def all_in(self, seat: int) -> None:
        """Commit every chip the seat can: a call, a bet or a raise by what it amounts to."""
        if seat != self._actor or self._actor < 0 or type(seat) is not int:
            self._require_turn(seat, "all_in", None)
        to = self._all_in_to()
        mark = len(self._log)
        if to <= self._bet_level:
            self.call(seat)
        elif self._bet_level == 0:
            self.bet(seat, to)
        else:
            self.raise_to(seat, to)
        self._logged(mark, (seat, "all_in", None))

    def act(self, seat: int, action: str, to: int | None = None) -> None:
        """Dispatch by name: ``fold``, ``check``, ``call``, ``bet``, ``raise``, ``all_in``, ``timeout``,
        ``bring_in``, or an action of the spec's own (:attr:`OWN_ACTIONS`)."""
        # Compared only once it is a str: an object whose == raises or lies is an unknown action.
        if type(action) is str and (action == "bet" or action == "raise"):
            if to is None:
                why = "a bet or raise needs a 'to' amount"
                raise self._reject("bad_amount", self.PROCEDURE_RULES["bad_amount"], seat, action, None, why)
            if action == "bet":
                self.bet(seat, to)
            else:
                self.raise_to(seat, to)
            return
        method = self._UNPRICED.get(action) if type(action) is str else None
        if method is None:
            rule = self.PROCEDURE_RULES["unknown_action"]
            raise self._reject("illegal_action", rule, seat, shown(action), to, "unknown action")
        if to is not None:
            self._no_amount(seat, action, to)
        method(self, seat)

    #: The actions ``act`` takes without an amount: name -> this class's method (set per class).
    _UNPRICED: ClassVar[dict[str, Callable[[Engine, int], None]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Looked up once per class, so that act() costs one dict lookup, not a getattr.
        names = (*ACT_NAMES, *cls.OWN_ACTIONS)
        cls._UNPRICED = {name: getattr(cls, name) for name in names if name not in WAGERS}

    # Generated per structure.
    def deal(self, street: str, /, **given: object) -> None:  # pragma: no cover - generated
        """Deal ``street`` once the betting round is over (or during an all-in runout)."""
        raise NotImplementedError

    def fold(self, seat: int) -> None:  # pragma: no cover - generated
        raise NotImplementedError

    def bring_in(self, seat: int) -> None:
        """Post the bring-in (stud): refused in a structure that has none."""
        self._require_turn(seat, "bring_in", None)
        rule = self.PROCEDURE_RULES["unknown_action"]
        raise self._reject("illegal_action", rule, seat, "bring_in", None, "this structure has no bring-in")

    def timeout(self, seat: int) -> None:  # pragma: no cover - generated
        raise NotImplementedError

    def check(self, seat: int) -> None:  # pragma: no cover - generated
        raise NotImplementedError

    def call(self, seat: int) -> None:  # pragma: no cover - generated
        raise NotImplementedError

    def bet(self, seat: int, to: int) -> None:  # pragma: no cover - generated
        raise NotImplementedError

    def raise_to(self, seat: int, to: int) -> None:  # pragma: no cover - generated
        raise NotImplementedError


def _saying(said: Said) -> object:
    """A declaration as JSON: what ``Engine._said`` reads back."""
    if said.to is not None:
        return {"act": "bet" if said.bet else "raise", "to": said.to}
    for word in DECLARATIONS:
        if getattr(said, "raise_" if word == "raise" else word):
            return word
    return None


class Compiled(Engine):
    """The compiled path: events taken through the spec's transition tables, not the machine.

    A generated default engine is ``class Name(Compiled, NameMachine)``: its tables map each
    source state to ``(guard, effect, destination)`` in the spec's order, the same guard and
    effect functions the machine's callbacks call. The generated class also takes each action's
    transition directly (``_take_<event>``) and writes its automatic transitions out (``_settle``).
    """

    __slots__ = ()

    def _fire(self, event: Any, table: Steps, *args: int) -> bool:
        """Take an event through its table: the first transition whose guard holds."""
        for check, apply, dest in table.get(self._state, ()):
            if check is None or check(self, *args):
                if apply is not None:
                    apply(self, *args)
                self._state = dest
                return True
        return False


#: The refusals of an amount that name the bound it broke: the view's slot (min_to, max_to) and its words.
_BOUNDS = {"below_minimum": (2, "at least"), "above_maximum": (3, "at most")}


#: The engine classes found by name (the tools look one up for every hand they build).
_ENGINES: dict[str, type[Engine]] = {}


def _slots(cls: type[Engine]) -> tuple[tuple[str, ...], Callable[[Engine], tuple[Any, ...]]]:
    """Every slot of an engine class and its bases (what a copy of a hand copies), and a getter
    of them all at once; worked out once a class."""
    known = _SLOTS.get(cls)
    if known is None:
        names: list[str] = []
        for klass in reversed(cls.__mro__):
            declared = klass.__dict__.get("__slots__", ())
            names += [declared] if isinstance(declared, str) else list(declared)
        unique = tuple(dict.fromkeys(names))
        known = _SLOTS[cls] = (unique, operator.attrgetter(*unique))
    return known


#: The slots of each engine class copied (weakly: a house's class loaded again is read again).
_SLOTS: weakref.WeakKeyDictionary[type[Engine], tuple[tuple[str, ...], Callable[[Engine], tuple[Any, ...]]]] = (
    weakref.WeakKeyDictionary()
)


def engine_class(structure: str) -> type[Engine]:
    """The default engine generated for a structure; raises LookupError when there is none."""
    found = _ENGINES.get(structure) if type(structure) is str else None
    if found is not None:
        return found
    # The name comes from a case or a snapshot: only a spec name may reach the import.
    # (A plain str of at most 64 characters: a message names it, and only a name is imported.)
    if (
        type(structure) is not str
        or len(structure) > 64
        or not structure.replace("_", "a").isalnum()
        or not structure.isascii()
        or not structure[:1].islower()
    ):
        raise LookupError(f"{shown(structure)} is not a structure name")
    try:
        module = importlib.import_module(f"betspec.engines.{structure}")
    except ImportError:
        raise LookupError(f"no generated engine for structure {structure!r} (run `betspec generate`)") from None
    engine = getattr(module, "ENGINE", None)
    if not (isinstance(engine, type) and issubclass(engine, Engine)):
        raise LookupError(f"generated/{structure}.py defines no engine")
    _ENGINES[structure] = engine
    return engine


def _is_extension(module: object) -> bool:
    return str(getattr(module, "__file__", "")).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def compiled(engine: type[Engine] | Engine) -> bool:
    """Whether ``engine`` (a class or a hand) runs compiled: its generated module and this
    runtime both loaded as the Cython builds made at install, not as Python sources."""
    cls = engine if isinstance(engine, type) else type(engine)
    generated = next((c.__module__ for c in cls.__mro__ if hasattr(sys.modules.get(c.__module__), "SPEC_HASH")), "")
    return _is_extension(sys.modules.get(generated)) and _is_extension(sys.modules.get(__name__))


def engine_names() -> list[str]:
    """The structures with a generated engine, found on disk: no list of names lives in Python."""
    try:
        found = importlib.util.find_spec("betspec.engines")
    except ImportError:
        return []
    where = list(found.submodule_search_locations or []) if found is not None else []
    return sorted(info.name for info in pkgutil.iter_modules(where) if not info.name.startswith("_") and not info.ispkg)


def _plain(value: object) -> object:
    """A ranking, or runs of rankings, as JSON data (tuples as lists), for the log a snapshot
    replays. Only ever given what :meth:`Engine._ranked` accepted (``settle`` checks first):
    lists nested three deep at most (runs, a ranking, a tie) of plain ints, or None."""
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value if value is None or type(value) is int else None
