"""The engine plan's own nodes: what an engine method does, for every back end to print.

A method of the plan is statements over a few kinds of values, none of them text and none of them
model objects: a spec expression (its checked tree, read by each printer through its own
accessors), a local, a constant, a role's seat. Statements assign, test, walk seats, call a
runtime mechanism (declared in betspec.runtime.mechanisms, its arguments by parameter) and refuse
a table. The plan builds each method once (betspec.backends.plan); passes rewrite a method for a
target (:func:`joined`); each back end prints it with a visitor over these nodes
(:class:`Printer`; :class:`StatementPrinter` spells values and conditions, each target only what
it spells its own way), through an indenting writer, never reading the model.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from betspec.backends.pyexpr import Symbol, literal, negate, python

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


Value = SpecExpr | Local | Const | RoleSeat

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
class Both:
    first: Condition
    second: Condition


Condition = Holds | Fails | NotASeat | NonZero | Positive | AnyGiven | Both

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


Statement = Let | SetRole | If | ForSeats | Call | RefuseTable | Block


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
        return self.constant(value.value)

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
        return f"({self.test(test.first)}) {self.conjunction} {self.test(test.second)}"
