"""The base class of generated engines: seats, chips and the primitives specs are written in.

A generated class (``generated/<spec>.py``) subclasses :class:`Engine`, compiles the spec's guards,
sizing formulas and effects into plain functions, and binds them to one ``transitions`` machine
per class (never one per hand). This base class holds the table state and implements the
primitives a spec may name in its effects: posting antes and blinds, committing chips, folding,
passing the action, closing a round. It decides nothing about sizes or legality.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from betspec.runtime.bindings import BETTING_PHASES, HAND_OVER_PHASES
from betspec.runtime.errors import IllegalAction, InvalidTable
from betspec.runtime.table import STREETS, Start, Table


@dataclass(frozen=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True)
class Said:
    """What a player said with (or instead of) his chips."""

    fold: bool = False
    check: bool = False
    call: bool = False
    raise_: bool = False
    to: int | None = None


@dataclass(frozen=True)
class Ruling:
    """How chips pushed or words said were ruled: the action taken, the rule that decided it.

    ``action`` is fold, check, call, bet, raise, ``withdraw`` (a misheard call taken back: nothing
    happened) or ``declared`` (a raise announced without an amount: the chips come next).
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


class Engine:
    """One hand of one betting structure. Seats are 0..n-1 clockwise."""

    __slots__ = (
        "able_count",
        "acted",
        "acted_at",
        "actor",
        "ante",
        "bb_acted",
        "bb_seat",
        "behind",
        "bet_level",
        "big_bet",
        "big_blind",
        "button",
        "contributed",
        "dead",
        "declared_raise",
        "folded",
        "last_full_level",
        "last_raise",
        "log",
        "n",
        "out_of_turn",
        "players_in",
        "pot",
        "put_in",
        "raises",
        "sb_seat",
        "small_bet",
        "small_blind",
        "start",
        "state",
        "street",
        "table",
        "view",
    )

    # Set by each generated class from its spec.
    SPEC_NAME: ClassVar[str] = ""
    SPEC_HASH: ClassVar[str] = ""
    RULES: ClassVar[Mapping[str, tuple[str, str]]] = {}
    PROCEDURE_RULES: ClassVar[Mapping[str, str]] = {}
    STATE_STREET: ClassVar[Mapping[Any, str]] = {}
    STATE_PHASE: ClassVar[Mapping[Any, str]] = {}
    USES_BETS: ClassVar[bool] = False
    INITIAL: ClassVar[Any] = None
    OPTION_DEFAULTS: ClassVar[Mapping[str, int | bool | None]] = {}

    # ---- construction -------------------------------------------------------------------

    def _setup(self, table: Table, start: Start | None) -> None:
        if not isinstance(table, Table):
            raise InvalidTable("an engine is built from a betspec.runtime.Table")
        table = table.checked()
        if start is not None:
            if not isinstance(start, Start):
                raise InvalidTable("start must be a betspec.runtime.Start")
            start = start.checked()
        elif any(stack == 0 for stack in table.stacks):
            raise InvalidTable("a seat with no chips is not dealt in (give every seat chips)")
        self.table = table
        self.start = start
        #: Every action and deal taken, as (seat, action, to) and (-1, street, None): a snapshot
        #: replays it, so a hand restored from one is the hand that was played.
        self.log: list[tuple[int, str, int | None]] = []
        if self.USES_BETS:
            if table.bets is None:
                raise InvalidTable(f"{self.SPEC_NAME} needs the table's bets [small_bet, big_bet]")
            if min(table.bets) <= 0:
                raise InvalidTable("fixed-limit bets must be positive")
        n = len(table.stacks)
        self.n = n
        self.button = table.button
        # Heads-up the button posts the small blind and the other seat the big blind.
        self.sb_seat = table.button if n == 2 else (table.button + 1) % n
        self.bb_seat = (self.sb_seat + 1) % n
        self.small_blind, self.big_blind = table.blinds
        self.ante = table.ante
        self.small_bet, self.big_bet = table.bets if table.bets is not None else (0, 0)
        self.behind = list(table.stacks)
        self.put_in = [0] * n
        self.contributed = [0] * n
        self.folded = [False] * n
        self.acted = [False] * n
        self.acted_at = [0] * n
        self.actor = -1
        self.bet_level = 0
        self.last_raise = 0
        self.last_full_level = 0
        self.raises = 0
        self.street = 0
        self.pot = 0
        self.dead = 0
        self.players_in = n
        self.bb_acted = False
        #: Declarations made out of turn on this street: seat -> (amount declared, bet level then).
        self.out_of_turn: dict[int, tuple[int, int]] = {}
        self.declared_raise = -1  # the seat that said "raise" with no amount, its chips to come
        self.able_count = sum(1 for stack in self.behind if stack > 0)
        self.view: View | None = None
        self.state = self.INITIAL
        if start is None:
            self._start(None)
        else:
            self.street = STREETS.index(start.street)
            self.dead = self.pot = start.pot
            self._start(start.street)
        self._settle()

    def _start(self, street: str | None) -> None:  # pragma: no cover - generated
        raise NotImplementedError

    def _settle(self) -> None:  # pragma: no cover - generated
        raise NotImplementedError

    # ---- questions ----------------------------------------------------------------------

    def _compute_view(self) -> View:  # pragma: no cover - generated
        raise NotImplementedError

    def legal_actions(self) -> tuple[str, ...]:
        """The legal actions of the seat to act, sorted; empty when nobody is to act."""
        return (self.view or self._compute_view())[0]

    @property
    def call_amount(self) -> int:
        """Chips the seat to act must add to call (0 when nobody is to act)."""
        return (self.view or self._compute_view())[1]

    @property
    def min_to(self) -> int | None:
        """The smallest legal bet or raise "to" amount, or None when neither is legal."""
        return (self.view or self._compute_view())[2]

    @property
    def max_to(self) -> int | None:
        """The largest legal bet or raise "to" amount, or None when neither is legal."""
        return (self.view or self._compute_view())[3]

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is pending, or None."""
        return self.actor if self.actor >= 0 else None

    @property
    def street_name(self) -> str:
        """``preflop`` .. ``river``, or ``showdown`` / ``settled`` once betting is finished."""
        return self.STATE_STREET[self.state]

    @property
    def phase(self) -> str:
        return self.STATE_PHASE[self.state]

    @property
    def round_over(self) -> bool:
        return self.STATE_PHASE[self.state] not in BETTING_PHASES

    @property
    def hand_over(self) -> bool:
        return self.STATE_PHASE[self.state] in HAND_OVER_PHASES

    @property
    def stacks(self) -> tuple[int, ...]:
        """Every seat's chips behind."""
        return tuple(self.behind)

    @property
    def committed(self) -> tuple[int, ...]:
        """Every seat's commitment on the current street."""
        return tuple(self.put_in)

    @property
    def options(self) -> dict[str, int | bool | None]:
        """The spec's options as this hand was built with them."""
        return {name: getattr(self, f"opt_{name}") for name in self.OPTION_DEFAULTS}

    def snapshot(self) -> dict[str, Any]:
        """This hand as versioned JSON-ready data; :func:`betspec.runtime.snapshot.restore` reads it."""
        from betspec.runtime.snapshot import take

        return take(self)

    def total_chips(self) -> int:
        """Chips on the table: behind and in the middle. Constant for a hand."""
        return sum(self.behind) + self.pot

    def pots(self) -> list[Pot]:
        """Main pot first, then side pots; each with the seats that can win it."""
        live = sorted({c for c, f in zip(self.contributed, self.folded, strict=True) if not f})
        pots: list[Pot] = []
        floor = 0
        for level in live:
            amount = sum(min(c, level) - min(c, floor) for c in self.contributed)
            eligible = tuple(i for i in range(self.n) if not self.folded[i] and self.contributed[i] >= level)
            if pots and pots[-1].eligible == eligible:
                pots[-1] = Pot(pots[-1].amount + amount, eligible)
            elif amount:
                pots.append(Pot(amount, eligible))
            floor = level
        # Dead money (a start pot) and chips folded above every live level belong to the pots
        # that are there: the main pot takes the dead money, the last pot the excess.
        excess = sum(max(c - floor, 0) for c in self.contributed)
        everyone = tuple(i for i in range(self.n) if not self.folded[i])
        if not pots:
            return [Pot(self.dead + excess, everyone)] if self.dead + excess else []
        pots[0] = Pot(pots[0].amount + self.dead, pots[0].eligible)
        if excess:
            pots[-1] = Pot(pots[-1].amount + excess, pots[-1].eligible)
        return pots

    # ---- variables the specs read -------------------------------------------------------

    def _needs_action(self, seat: int) -> bool:
        return (
            not self.folded[seat]
            and self.behind[seat] > 0
            and (not self.acted[seat] or self.put_in[seat] < self.bet_level)
        )

    def pending(self) -> int:
        """Seats still in, with chips, that have not acted or not matched the bet."""
        if self.actor < 0:  # the turn passes to nobody exactly when nobody needs to act
            return 0
        return sum(1 for seat in range(self.n) if self._needs_action(seat))

    def able(self) -> int:
        """Seats still in with chips behind (kept up to date by every chip movement and fold)."""
        return self.able_count

    def others_able(self) -> int:
        """Seats other than the one to act still in with chips behind."""
        mine = 1 if self.actor >= 0 and self.behind[self.actor] > 0 else 0
        return self.able_count - mine

    def able_owing(self) -> int:
        """Seats still in, with chips behind, whose commitment is below the bet level."""
        level = self.bet_level
        return sum(
            1
            for put, behind, folded in zip(self.put_in, self.behind, self.folded, strict=True)
            if put < level and behind > 0 and not folded
        )

    def answerable(self) -> bool:
        """Another seat still in has more chips in all than the bet level: it could answer a bet."""
        level, actor = self.bet_level, self.actor
        for seat, (put, behind, folded) in enumerate(zip(self.put_in, self.behind, self.folded, strict=True)):
            if put + behind > level and not folded and seat != actor:
                return True
        return False

    def small_blind_committed(self) -> int:
        return self.put_in[self.sb_seat]

    def is_small_blind(self) -> bool:
        """The seat to act posted the small blind."""
        return self.actor == self.sb_seat

    # ---- primitives the specs' effects call ---------------------------------------------

    def _put(self, seat: int, amount: int) -> None:
        before = self.behind[seat]
        after = self.behind[seat] = before - amount
        self.contributed[seat] += amount
        self.pot += amount
        if (before > 0) != (after > 0) and not self.folded[seat]:
            self.able_count += 1 if after > 0 else -1

    def post_antes(self) -> None:
        for seat in range(self.n):
            self._put(seat, min(self.ante, self.behind[seat]))

    def post_blinds(self) -> None:
        for seat, blind in ((self.sb_seat, self.small_blind), (self.bb_seat, self.big_blind)):
            paid = min(blind, self.behind[seat])
            self._put(seat, paid)
            self.put_in[seat] += paid
        # A blind posted all-in for less does not lower the bet: the others owe the full blind.
        self.bet_level = self.big_blind
        self.actor = self._next_needing_action(self.bb_seat)

    def post_burn_blind(self, amount: int) -> None:
        """The seat after the big blind posts ``amount`` (nothing when 0): it then acts last
        before the flop, with the option to raise, as it has not acted."""
        if amount <= 0:
            return
        seat = (self.bb_seat + 1) % self.n
        paid = min(amount, self.behind[seat])
        self._put(seat, paid)
        self.put_in[seat] += paid
        self.bet_level = max(self.bet_level, amount)
        self.actor = self._next_needing_action(seat)

    def begin_street(self, street: int) -> None:
        self.street = street
        n = self.n
        self.put_in = [0] * n
        self.acted = [False] * n
        self.acted_at = [0] * n
        self.bet_level = 0
        self.out_of_turn = {}
        self.actor = self._next_needing_action(self.button)

    def commit(self, to: int) -> None:
        seat = self.actor
        self._put(seat, to - self.put_in[seat])
        self.put_in[seat] = to
        if to > self.bet_level:
            self.bet_level = to
        self._mark_acted(seat)

    def mark_checked(self) -> None:
        self._mark_acted(self.actor)

    def mark_folded(self) -> None:
        seat = self.actor
        if self.behind[seat] > 0:
            self.able_count -= 1
        self.folded[seat] = True
        self.players_in -= 1
        self._mark_acted(seat)

    def _mark_acted(self, seat: int) -> None:
        if self.out_of_turn:
            self.out_of_turn.pop(seat, None)
        self.declared_raise = -1
        self.acted[seat] = True
        self.acted_at[seat] = self.bet_level
        if seat == self.bb_seat and self.street == 0:
            self.bb_acted = True

    def pass_action(self) -> None:
        self.actor = self._next_needing_action(self.actor)

    def close_round(self) -> None:
        """End the betting round: a bet nobody matched goes back to its owner."""
        self.actor = -1
        top = max(range(self.n), key=self.put_in.__getitem__)
        second = max((c for i, c in enumerate(self.put_in) if i != top), default=0)
        uncalled = self.put_in[top] - second
        if uncalled > 0:
            self._put(top, -uncalled)
            self.put_in[top] = second

    def deal_runout(self, street: int) -> None:
        self.street = street

    def _next_needing_action(self, after: int) -> int:
        n, level = self.n, self.bet_level
        behind, folded, acted, put_in = self.behind, self.folded, self.acted, self.put_in
        for step in range(1, n + 1):
            seat = (after + step) % n
            # _needs_action, written out: this loop runs after every action.
            if behind[seat] > 0 and not folded[seat] and (not acted[seat] or put_in[seat] < level):
                return seat
        return -1

    # ---- rejections ---------------------------------------------------------------------

    def _reject(self, code: str, rule: str, seat: object, action: str, amount: object, why: str = "") -> IllegalAction:
        """The error for an illegal action: its code, what was tried, why, and the rule cited."""
        text, source = self.RULES.get(rule, ("", ""))
        who = "deal" if seat is None else f"seat {seat}"
        tried = f"{who} {action}" + ("" if amount is None else f" {amount}")
        reason = f": {why}" if why else ""
        message = f"{tried}: {code}{reason}. Rule {rule}: {text} [{source}]"
        return IllegalAction(code, message, rule, source)

    def _require_turn(self, seat: object, action: str, amount: object) -> None:
        """Reject an action when nobody, or another seat, is to act (generated code tests first)."""
        if self.actor < 0:
            raise self._reject(
                "no_action_pending",
                self.PROCEDURE_RULES["no_action_pending"],
                seat,
                action,
                amount,
                "nobody is to act",
            )
        if seat != self.actor or isinstance(seat, bool):
            raise self._reject(
                "out_of_turn",
                self.PROCEDURE_RULES["out_of_turn"],
                seat,
                action,
                amount,
                f"seat {self.actor} is to act",
            )

    def _require_amount(self, seat: object, action: str, amount: object) -> None:
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise self._reject(
                "bad_amount",
                self.PROCEDURE_RULES["bad_amount"],
                seat,
                action,
                amount,
                "an amount is a non-negative whole number of chips",
            )

    # ---- actions shared by every structure ----------------------------------------------

    # ---- table procedures: chips pushed, words said, declarations out of turn -------------

    def _push_ruling(self, pushed: int, chips: int, largest: int, said: Said) -> tuple[str, int | None, str]:
        """The spec's ruling on chips pushed (generated from its procedures)."""
        raise NotImplementedError  # pragma: no cover - generated

    def _said(self, seat: object, say: object) -> Said:
        """A declaration: "fold", "check", "call", "raise", or {"act": "bet" | "raise", "to": N}."""
        rule = self.PROCEDURE_RULES["bad_amount"]
        if say is None:
            return Said()
        if say in ("fold", "check", "call", "raise"):
            return Said(say == "fold", say == "check", say == "call", say == "raise")
        if isinstance(say, Mapping) and set(say) == {"act", "to"} and say["act"] in ("bet", "raise"):
            to = say["to"]
            if type(to) is not int or to < 0:
                raise self._reject("bad_amount", rule, seat, "say", to, "a declared amount is a whole number of chips")
            return Said(raise_=say["act"] == "raise", to=to)
        raise self._reject("illegal_action", self.PROCEDURE_RULES["unknown_action"], seat, "say", None, f"{say!r}")

    def _rule(self, seat: int, pushed: int, chips: int, largest: int, said: Said) -> Ruling:
        if self.declared_raise == seat:
            said = Said(said.fold, said.check, said.call, True, said.to)
        ruling, to, rule = self._push_ruling(pushed, chips, largest, said)
        text, source = self.RULES.get(rule, ("", ""))
        before = self.behind[seat]
        if ruling == "withdraw":
            return Ruling("withdraw", None, rule, source, text, returned=pushed)
        if ruling == "wager":
            assert to is not None
            action = "bet" if self.bet_level == 0 else "raise"
            self.act(seat, action, to)
        else:
            action = ruling
            self.act(seat, ruling)
        taken = before - self.behind[seat]
        final = self.put_in[seat] if action in ("bet", "raise", "call") else None
        return Ruling(action, final, rule, source, text, max(pushed - taken, 0), max(taken - pushed, 0))

    def push(self, seat: int, chips: Sequence[int], say: object = None) -> Ruling:
        """Chips pushed forward in one motion, with what was said: ruled, then taken."""
        if seat != self.actor or self.actor < 0 or type(seat) is not int:
            self._require_turn(seat, "push", None)
        rule = self.PROCEDURE_RULES["bad_amount"]
        if isinstance(chips, str | bytes) or not isinstance(chips, Sequence) or not chips:
            raise self._reject("bad_amount", rule, seat, "push", chips, "chips are a list of chip values")
        if any(type(chip) is not int or chip <= 0 for chip in chips):
            raise self._reject("bad_amount", rule, seat, "push", list(chips), "a chip is worth a whole number > 0")
        pushed = sum(chips)
        if pushed > self.behind[seat]:
            why = f"the seat has {self.behind[seat]} chips behind"
            raise self._reject("bad_amount", rule, seat, "push", pushed, why)
        return self._rule(seat, pushed, len(chips), max(chips), self._said(seat, say))

    def declare(self, seat: int, say: object) -> Ruling:
        """A binding verbal declaration in turn (no chips yet)."""
        if seat != self.actor or self.actor < 0 or type(seat) is not int:
            self._require_turn(seat, "say", None)
        said = self._said(seat, say)
        if said.raise_ and said.to is None:
            self.declared_raise = seat
            self.log.append((seat, "say_raise", None))
            text, source = self.RULES.get("VERBAL", ("", ""))
            return Ruling("declared", None, "VERBAL", source, text)
        return self._rule(seat, 0, 0, 0, said)

    def declare_out_of_turn(self, seat: int, act: str, to: int | None = None) -> None:
        """A declaration by a seat not yet to act; it restricts what that seat may do in turn."""
        if self.actor < 0:
            raise self._reject("no_action_pending", self.PROCEDURE_RULES["no_action_pending"], seat, act, to)
        rule = self.PROCEDURE_RULES["out_of_turn"]
        if type(seat) is not int or not 0 <= seat < self.n or self.folded[seat] or self.behind[seat] == 0:
            raise self._reject("illegal_action", rule, seat, act, to, "not a seat still to act in this hand")
        if seat == self.actor:
            raise self._reject("illegal_action", rule, seat, act, to, "this seat is to act: it declares in turn")
        if act not in ("check", "call", "bet", "raise"):
            raise self._reject("illegal_action", rule, seat, str(act), to, "declares check, call, bet or raise")
        if act in ("bet", "raise") and (type(to) is not int or to < 0):
            raise self._reject("bad_amount", self.PROCEDURE_RULES["bad_amount"], seat, act, to)
        amount = to if act in ("bet", "raise") else (self.bet_level if act == "call" else 0)
        self.out_of_turn[seat] = (amount, self.bet_level)  # type: ignore[assignment]
        self.log.append((seat, f"out_of_turn_{act}", to))
        self.view = None

    def all_in(self, seat: int) -> None:
        """Commit the seat's whole stack: a call, a bet or a raise by what it amounts to."""
        self._require_turn(seat, "all_in", None)
        to = self.put_in[seat] + self.behind[seat]
        if to <= self.bet_level:
            self.call(seat)
        elif self.bet_level == 0:
            self.bet(seat, to)
        else:
            self.raise_to(seat, to)

    def act(self, seat: int, action: str, to: int | None = None) -> None:
        """Dispatch by name: ``fold``, ``check``, ``call``, ``bet``, ``raise`` or ``all_in``."""
        if action in ("bet", "raise"):
            if to is None:
                raise self._reject(
                    "bad_amount",
                    self.PROCEDURE_RULES["bad_amount"],
                    seat,
                    action,
                    None,
                    "a bet or raise needs a 'to' amount",
                )
            if action == "bet":
                self.bet(seat, to)
            else:
                self.raise_to(seat, to)
            return
        if action == "call":
            self.call(seat)
        elif action == "check":
            self.check(seat)
        elif action == "fold":
            self.fold(seat)
        elif action == "all_in":
            self.all_in(seat)
        elif action == "timeout":
            self.timeout(seat)
        else:
            rule = self.PROCEDURE_RULES["unknown_action"]
            raise self._reject("illegal_action", rule, seat, str(action), to, "unknown action")

    # Generated per structure.
    def fold(self, seat: int) -> None:  # pragma: no cover - generated
        raise NotImplementedError

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


class Compiled:
    """The compiled path: events taken through the spec's transition tables, not the machine.

    A generated default engine is ``class Name(Compiled, NameMachine)``: its tables map each
    source state to ``(guard, effect, destination, index)`` in the spec's order, the same guard
    and effect functions the machine's callbacks call. ``AUTOMATIC`` lists the tables of the
    automatic events; ``SETTLE_LIMIT`` bounds how many follow one another (the number of states).
    """

    __slots__ = ()
    AUTOMATIC: ClassVar[tuple[Mapping[Any, tuple[Any, ...]], ...]] = ()
    SETTLE_LIMIT: ClassVar[int] = 0

    def _fire(self, event: object, table: Mapping[Any, tuple[Any, ...]], *args: int) -> bool:
        """Take an event through its table: the first transition whose guard holds."""
        for check, apply, dest, _ in table.get(self.state, ()):  # type: ignore[attr-defined]
            if check is None or check(self, *args):
                if apply is not None:
                    apply(self, *args)
                self.state = dest
                return True
        return False

    def _settle(self) -> None:
        """Take the automatic transitions whose guards hold, then forget the view."""
        for _ in range(self.SETTLE_LIMIT):
            moved = False
            for table in self.AUTOMATIC:
                for check, apply, dest, _ in table.get(self.state, ()):  # type: ignore[attr-defined]
                    if check is None or check(self):
                        if apply is not None:
                            apply(self)
                        self.state = dest
                        moved = True
                        break
            if not moved:
                break
        self.view = None


def engine_class(structure: str) -> type[Engine]:
    """The default engine generated for a structure; raises LookupError when there is none."""
    # The name comes from a case or a snapshot: only a spec name may reach the import.
    if not structure.replace("_", "a").isalnum() or not structure[:1].islower():
        raise LookupError(f"{structure!r} is not a structure name")
    try:
        module = importlib.import_module(f"betspec.engines.{structure}")
    except ImportError:
        raise LookupError(f"no generated engine for structure {structure!r} (run `betspec generate`)") from None
    engine = getattr(module, "ENGINE", None)
    if not (isinstance(engine, type) and issubclass(engine, Engine)):
        raise LookupError(f"generated/{structure}.py defines no engine")
    return engine
