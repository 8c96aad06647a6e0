"""The engine plan's own nodes: what an engine method does, for every back end to print.

A method of the plan is statements over a few kinds of values, none of them text and none of them
model objects: a spec expression (its checked tree, read by each printer through its own
accessors), a local, a constant, a role's seat, a record of them. Statements assign, test, walk
seats, call a runtime mechanism (declared in betspec.runtime.mechanisms, its arguments by
parameter), refuse a table or an action, reset a variable, return values, and take an event's
transitions (the first move whose guard holds, per group of source states). The plan builds
each method once (betspec.backends.plan); passes rewrite a method for a target (:func:`joined`);
each back end prints it with a visitor over these nodes (:class:`Printer`;
:class:`StatementPrinter` spells values and conditions, each target only what it spells its own
way; :class:`TransitionPrinter` the transitions the Python-syntax targets write out), through an
indenting writer, never reading the model.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Generic, Literal, TypeVar

from betspec.backends.pyexpr import Symbol, literal, negate, python
from betspec.backends.writer import Writer

# ---- values ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpecExpr:
    """An expression of the spec, read about the hand (or, ``per_seat``, about the seat named ``seat``)."""

    tree: ast.expr
    per_seat: bool = False


@dataclass(frozen=True)
class Local:
    name: str


@dataclass(frozen=True)
class Const:
    value: bool | int | str | None


@dataclass(frozen=True)
class RoleSeat:
    """The seat the hand computed for a role of the spec."""

    role: str


@dataclass(frozen=True)
class Record:
    """Values by name: a dict in Python, an object in TypeScript."""

    items: tuple[tuple[str, SpecExpr | Local | Const | RoleSeat], ...]


Value = SpecExpr | Local | Const | RoleSeat | Record


@dataclass(frozen=True)
class InputCheck:
    """The runtime's check of a value given for an input of the spec, which returns the value to
    keep or refuses it: ``function`` (as the Python runtime names it) given the input's name and
    the value, then, where it takes them, the table's number of seats, the number of items, the
    bounds, the choices, and (``element``) the check of each seat's value."""

    function: str
    input: str
    seats: bool = False
    items: int | None = None
    bounds: tuple[int | None, int | None] | None = None
    choices: tuple[str, ...] | None = None
    element: InputCheck | None = None

    def functions(self) -> set[str]:
        """The runtime functions the check calls."""
        return {self.function} | (self.element.functions() if self.element is not None else set())


@dataclass(frozen=True)
class Quantity:
    """A quantity of the spec, as the engines compute it: its name, type, whether it is about a
    seat (``seat``) or reads the amount ``to``, what it means and the rule it follows, and its
    formula (the checked tree, read through each printer's symbols)."""

    name: str
    type: str
    per_seat: bool
    needs_to: bool
    meaning: str
    rule: str
    tree: ast.expr


@dataclass(frozen=True)
class Rule:
    """A rule of the spec's rules table: its id, its text and its source, as the spec states them."""

    id: str
    text: str
    source: str


@dataclass(frozen=True)
class StreetValue:
    """A value of the spec's that each street sets (a limit's size, a deal's count): its name,
    type, one value per street in order, and what it means (for a reader of the code)."""

    name: str
    type: str
    values: tuple[object, ...]
    meaning: str = ""


@dataclass(frozen=True)
class Requirement:
    """A requirement of an action: the spec expression that must hold, whether it reads the
    amount ('to'), and the error, rule and message of the refusal when it does not."""

    expr: SpecExpr
    needs_to: bool
    error: str
    rule: str
    message: str


@dataclass(frozen=True)
class Event:
    """An event of the spec's machine, as engines take it: its name and kind, whether it starts a
    hand with the blinds, whether it is an action of the spec's own, its parameters, whether it has
    effects of its own (run before its transition), whether some transition takes it, the rule an
    action not possible now breaks (its first transition's), and its requirements in order."""

    name: str
    kind: str
    blinds: bool
    own: bool
    params: tuple[str, ...]
    has_effects: bool
    fired: bool
    rule: str
    requires: tuple[Requirement, ...]


@dataclass(frozen=True)
class Transition:
    """A transition of the spec's machine, in the spec's order: its event, source and destination
    states, its guard's text as written (None: none) and the rule it cites."""

    event: str
    source: str
    dest: str
    guard: str | None
    rule: str


@dataclass(frozen=True)
class Variable:
    """A name expressions read that a hand keeps: the runtime's, or (``declared``) the spec's own."""

    name: str
    type: str
    declared: bool


@dataclass(frozen=True)
class State:
    """A state of the spec's machine and the phase of a hand it is in."""

    name: str
    phase: str


@dataclass(frozen=True)
class Option:
    """An option of the spec, as a host gives it when it makes a hand: its name, type, default,
    bounds and choices, the runtime's check of a value given (as the Python runtime names it;
    None: no engine checks one of its type), and what it means (for a client's documentation)."""

    name: str
    type: str
    default: bool | int | str | None
    minimum: int | None
    maximum: int | None
    choices: tuple[str, ...]
    check: str | None
    meaning: str = ""


@dataclass(frozen=True)
class Given:
    """An input a table or a deal gives, as the engines declare, keep and check it: its name, the
    names it is read by (its items', or its own), its type, whether it must be given, its default
    (JSON), one value per seat or not, its bounds, choices and items, the example tools build
    tables with, whether it is for one hand only, and its check (None: no engine checks a value of
    its type, and ``unchecked`` says what of it)."""

    name: str
    names: tuple[str, ...]
    type: str
    required: bool
    default: object
    per_seat: bool
    minimum: int | None
    maximum: int | None
    choices: tuple[str, ...]
    items: tuple[str, ...]
    example: object
    hand: bool
    check: InputCheck | None
    unchecked: str = ""


# ---- conditions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Holds:
    expr: SpecExpr


@dataclass(frozen=True)
class Fails:
    """The spec expression is false (printed negated and folded, never as ``not (...)``)."""

    expr: SpecExpr


@dataclass(frozen=True)
class NotASeat:
    """The value is not a seat of the table (outside 0 .. n - 1)."""

    value: RoleSeat


@dataclass(frozen=True)
class NonZero:
    local: Local


@dataclass(frozen=True)
class Positive:
    local: Local


@dataclass(frozen=True)
class AnyGiven:
    """Some seat's value of the per-seat input is not zero."""

    input: str


@dataclass(frozen=True)
class ActionIs:
    """The action the method was asked about is ``action``."""

    action: str


@dataclass(frozen=True)
class NotFrom:
    """The hand's state is no source state of the event ``event``."""

    event: str


@dataclass(frozen=True)
class Both:
    first: Condition
    second: Condition


Condition = Holds | Fails | NotASeat | NonZero | Positive | AnyGiven | ActionIs | NotFrom | Both

# ---- statements ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Let:
    local: Local
    value: Value


@dataclass(frozen=True)
class SetRole:
    role: str
    value: SpecExpr


@dataclass(frozen=True)
class If:
    test: Condition
    body: tuple[Statement, ...]


@dataclass(frozen=True)
class ForSeats:
    """Each seat in turn as the local ``seat``: every seat clockwise from the button's left (the
    button last), or, given ``seats``, the seats of that seats input in its order."""

    body: tuple[Statement, ...]
    seats: str | None = None


@dataclass(frozen=True)
class Call:
    """A runtime mechanism called on the hand, its arguments by parameter."""

    mechanism: str
    args: tuple[tuple[str, Value], ...]


@dataclass(frozen=True)
class RefuseTable:
    """The table cannot play this hand: ``message`` (text and values, joined), the rule it
    breaks if any; ``code`` is what a kernel, which carries no message, refuses with."""

    message: tuple[str | Value, ...]
    rule: str | None
    code: str


@dataclass(frozen=True)
class Block:
    """Statements in a scope of their own (their locals are theirs: a TypeScript block)."""

    body: tuple[Statement, ...]


@dataclass(frozen=True)
class Move:
    """One transition of an event: taken when its guard holds (always, with no guard), its effect
    function called (given the amount when the event takes one), the hand sent to ``dest``
    (``None``: the state unchanged)."""

    guard: SpecExpr | None
    effect: str | None
    dest: str | None


@dataclass(frozen=True)
class TakeFirst:
    """The first of ``moves`` whose guard holds, taken, then ``done``: the method returns, or
    (``continue``) the automatic transitions go round again. ``with_to``: the effects are given
    the amount the action is to. ``last``: nothing follows in the method, so a move taken
    unguarded need not return."""

    moves: tuple[Move, ...]
    done: Literal["return", "continue"]
    with_to: bool = False
    last: bool = False


@dataclass(frozen=True)
class OnState:
    """A branch per group of source states whose moves are alike, in the spec's order: the hand's
    state is read from the hand, or (``local``) from the local ``state`` a loop set."""

    branches: tuple[tuple[tuple[str, ...], TakeFirst], ...]
    local: bool = False


@dataclass(frozen=True)
class ResetVariable:
    """A variable of the spec's own set to its default as a hand begins (one value per seat, with
    ``per_seat``); ``type`` is the vocabulary's type of its values."""

    variable: str
    default: bool | int | str | None
    type: str
    per_seat: bool = False
    #: The spec's word for where it lives (a hand's, or each seat's), for tools that read it.
    scope: str = "hand"


@dataclass(frozen=True)
class Returns:
    """The method returns ``values``: one, or a tuple of them (a tuple of one with ``listed``:
    one entry a spec's entry, as many as it declares)."""

    values: tuple[Value, ...]
    listed: bool = False


@dataclass(frozen=True)
class Reject:
    """The seat's action refused: the error's code, the rule it breaks and the message, about the
    attempt (the method's ``seat``, ``action`` and ``amount``); ``returned``: returned (a refusal
    asked for), else raised."""

    error: str
    rule: str
    message: str
    action: str
    amount: Local | Const
    returned: bool


@dataclass(frozen=True)
class Require:
    """Reject unless the spec expression holds (one the options make always true is only noted)."""

    expr: SpecExpr
    otherwise: Reject


Statement = (
    Let
    | SetRole
    | If
    | ForSeats
    | Call
    | RefuseTable
    | Block
    | TakeFirst
    | OnState
    | ResetVariable
    | Returns
    | Reject
    | Require
)


@dataclass(frozen=True)
class Method:
    """An engine method: its name (as the Python runtime calls it) and what it does."""

    name: str
    body: tuple[Statement, ...]


# ---- passes ----------------------------------------------------------------------------------


def joined(method: Method) -> Method:
    """An ``if`` whose whole body is another ``if`` as one ``if`` of both tests (ruff's SIM102,
    for the Python engines)."""

    def statement(node: Statement) -> Statement:
        if isinstance(node, If):
            body = tuple(statement(s) for s in node.body)
            if len(body) == 1 and isinstance(body[0], If):
                return If(Both(node.test, body[0].test), body[0].body)
            return replace(node, body=body)
        if isinstance(node, ForSeats | Block):
            return replace(node, body=tuple(statement(s) for s in node.body))
        return node

    return replace(method, body=tuple(statement(s) for s in method.body))


# ---- printing --------------------------------------------------------------------------------

T = TypeVar("T")


class Printer(Generic[T]):
    """A visitor over statements: one ``visit_<Node>`` per statement kind, dispatched by
    :meth:`visit`; a back end's printer subclasses it with its writer and its expressions."""

    def visit(self, node: Statement) -> T:
        method: Callable[[Statement], T] = getattr(self, f"visit_{type(node).__name__}")
        return method(node)

    def visit_all(self, nodes: tuple[Statement, ...]) -> list[T]:
        return [self.visit(node) for node in nodes]


class StatementPrinter(Printer[None]):
    """A printer of statements whose values and conditions are spelled alike in every target but
    for what each target spells its own way: the hand's name, an expression (:meth:`expression`),
    ``and``, and the tests of a seat, a local and a per-seat input (the ``*_test`` methods).
    Spec expressions are read through the target's symbols (the scope of a printer's engine)."""

    #: The hand as the printed code names it.
    hand = "self"
    #: The conjunction of two conditions.
    conjunction = "and"

    def __init__(self, symbols: Mapping[str, Symbol], seat_symbols: Mapping[str, Symbol]) -> None:
        self.symbols, self.seat_symbols = symbols, seat_symbols

    def expression(self, tree: ast.expr) -> str:
        raise NotImplementedError

    def not_a_seat_test(self, seat: str) -> str:
        return f"not 0 <= {seat} < {self.hand}._n"

    def nonzero_test(self, name: str) -> str:
        return name

    def any_given_test(self, name: str) -> str:
        return f"any({self.hand}._in_{name})"

    def action_test(self, action: str) -> str:
        return f"action == {self.constant(action)}"

    def not_from_test(self, event: str) -> str:
        return f"{self.hand}._state not in FROM_{event.upper()}"

    def constant(self, value: bool | int | str | None) -> str:
        return literal(value)

    def tree(self, expr: SpecExpr) -> ast.expr:
        return python(expr.tree, self.seat_symbols if expr.per_seat else self.symbols)

    def value(self, value: Value) -> str:
        if isinstance(value, SpecExpr):
            return self.expression(self.tree(value))
        if isinstance(value, Local):
            return value.name
        if isinstance(value, RoleSeat):
            return f"{self.hand}._role_{value.role}"
        if isinstance(value, Record):
            return self.record([(self.constant(name), self.value(item)) for name, item in value.items])
        return self.constant(value.value)

    def record(self, items: list[tuple[str, str]]) -> str:
        """A record of printed names and values."""
        return "{" + ", ".join(f"{name}: {value}" for name, value in items) + "}"

    def test(self, test: Condition) -> str:
        if isinstance(test, Holds):
            return self.expression(self.tree(test.expr))
        if isinstance(test, Fails):
            return self.expression(negate(self.tree(test.expr)))
        if isinstance(test, NotASeat):
            return self.not_a_seat_test(self.value(test.value))
        if isinstance(test, NonZero):
            return self.nonzero_test(test.local.name)
        if isinstance(test, Positive):
            return f"{test.local.name} > 0"
        if isinstance(test, AnyGiven):
            return self.any_given_test(test.input)
        if isinstance(test, ActionIs):
            return self.action_test(test.action)
        if isinstance(test, NotFrom):
            return self.not_from_test(test.event)
        return f"({self.test(test.first)}) {self.conjunction} {self.test(test.second)}"

    def failing(self, node: Require) -> ast.expr | None:
        """The test that the requirement fails, folded; None where the options make it always
        hold (the target notes it with :func:`always_holds`, or leaves it out)."""
        failing = negate(self.tree(node.expr))
        return None if isinstance(failing, ast.Constant) and failing.value is False else failing

    def rejection(self, node: Reject, message: str) -> str:
        """The call that refuses the attempt (``message`` printed)."""
        tried = f"seat, {self.constant(node.action)}, {self.value(node.amount)}"
        return f"{self.hand}._reject({self.constant(node.error)}, {self.constant(node.rule)}, {tried}, {message})"

    def reset(self, node: ResetVariable) -> str:
        """The statement that sets a variable to its default (Python syntax)."""
        value = self.constant(node.default)
        return f"{self.hand}._v_{node.variable} = {f'[{value}] * {self.hand}._n' if node.per_seat else value}"


def always_holds(node: Require) -> str:
    """What a comment says of a requirement the options make always true."""
    return f"{node.otherwise.rule}: always holds in this structure ({node.otherwise.error} never raised)"


class TransitionPrinter(StatementPrinter):
    """A printer of the transitions written out (:class:`OnState`, :class:`TakeFirst`) in the
    targets that write them as Python-syntax branches: the Python engine's compiled path and the
    kernels. Each gives its writer (:attr:`out`), how it names a state and compares one, and what
    ends a step taken."""

    #: How the target compares the hand's state with a state's constant.
    same_state = "=="
    #: Whether a branch is tested when the event has one source state (the Python engine's action
    #: method has proved the state before its ``_take_<event>`` runs).
    tests_single_source = True

    def __init__(self, out: Writer, symbols: Mapping[str, Symbol], seat_symbols: Mapping[str, Symbol]) -> None:
        super().__init__(symbols, seat_symbols)
        self.out = out

    def state(self, name: str) -> str:
        """The constant naming a state."""
        raise NotImplementedError

    def done(self, kind: Literal["return", "continue"]) -> str:
        return kind

    def visit_ResetVariable(self, node: ResetVariable) -> None:
        self.out(self.reset(node))

    def visit_Returns(self, node: Returns) -> None:
        values = ", ".join(self.value(value) for value in node.values)
        self.out(f"return ({values},)" if node.listed and len(node.values) == 1 else f"return {values}")

    def visit_OnState(self, node: OnState) -> None:
        w = self.out
        if not self.tests_single_source and len(node.branches) == 1 and len(node.branches[0][0]) == 1:
            self.visit_TakeFirst(node.branches[0][1])
            return
        held = "state" if node.local else f"{self.hand}._state"
        for index, (sources, take) in enumerate(node.branches):
            test = " or ".join(f"{held} {self.same_state} {self.state(source)}" for source in sources)
            w(f"{'if' if index == 0 else 'elif'} {test}:")
            with w.indented():
                self.visit_TakeFirst(take)

    def visit_TakeFirst(self, node: TakeFirst) -> None:
        w, args, done = self.out, ", to" if node.with_to else "", self.done(node.done)
        for move in node.moves:
            if move.guard is not None:
                w(f"if {self.test(Holds(move.guard))}:")
            with w.indented(0 if move.guard is None else 1):
                if move.effect is not None:
                    w(f"{move.effect}({self.hand}{args})")
                if move.dest is not None:
                    w(f"{self.hand}._state = {self.state(move.dest)}")
                if move.guard is None:  # the moves after it are never taken
                    if not node.last:
                        w(done)
                    elif move.effect is None and move.dest is None:
                        w("pass")  # a step that does nothing (an action redeclared with no effects)
                    return
                w(done)
