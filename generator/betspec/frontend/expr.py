"""The spec expression language.

Specs state sizing formulas, guards and effects as expressions: a small subset of Python's
expression syntax, read with :mod:`ast` and never evaluated by Python. This module

* parses an expression and refuses every construct outside the whitelist (attribute access,
  subscripts, lambdas, comprehensions, strings, ``**``, calls to anything but the functions in
  :data:`FUNCTIONS`, ...);
* type-checks it against the names a spec declares (``int``, ``bool`` and ``int?``, an integer
  that may be ``None``, which must be narrowed with ``is not None`` before arithmetic);
* folds constants (to find guards that can never hold).

The result is a :class:`betspec.model.Expr`; turning it into code is each back end's business.

Grammar (Python precedence)::

    expr    := expr "if" expr "else" expr | expr ("or" | "and") expr | "not" expr
             | expr (cmp expr)+ | expr ("+" | "-" | "*" | "//" | "%") expr | "-" expr
             | NAME | INT | "True" | "False" | "None" | FUNC "(" expr ("," expr)* ")"
    cmp     := "==" | "!=" | "<" | "<=" | ">" | ">=" | "is" | "is not" | "in" | "not in"

``in`` and ``not in`` ask whether a seat is in a table input that lists seats
(``big_blind_seat in missed_big_blinds``); nothing else is a list.
    FUNC    := min | max | abs | ceil_to | floor_to | committed_of | stack_of | acted_of

``max(x)`` and ``min(x)`` of one argument take a per-seat table input and give its largest or
smallest value over the seats (``max(seat_blinds) > 0``): a table value, whoever acts.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from betspec.diagnostics import DiagnosticCode
from betspec.model import ARITHMETIC, COMPARE, COMPARISONS, Expr, Type
from betspec.suggest import did_you_mean
from betspec.vocabulary import AGGREGATES, FUNCTIONS, SEAT_FUNCTIONS

MAX_LENGTH = 2000
MAX_DEPTH = 40
MAX_LITERAL = 10**15


@dataclass(frozen=True)
class Name:
    """A name an expression may use: its type and what it is (never how a back end reads it)."""

    type: Type
    kind: str  # "variable", "option", "quantity", "parameter"
    minimum: int | None = None
    needs: frozenset[str] = frozenset()  # parameters (``to``, ``push``) that must be in scope
    choices: tuple[str, ...] = ()  # the values of a choice option
    per_seat: bool = False  # a quantity computed for any seat
    #: "table" (fixed for the hand), "seat" (about one seat) or "hand": where the name may be read.
    scope: str = "hand"


class ExprError(Exception):
    """A problem in one expression; ``offset`` is the column within the expression text."""

    def __init__(
        self, offset: int, message: str, code: DiagnosticCode = DiagnosticCode.EXPRESSION, name: str = ""
    ) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message
        self.code = code
        self.name = name  # the unknown name, for "unknown-name" errors


_CHOICE_VALUE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


def parse(text: str) -> ast.expr:
    if not isinstance(text, str):
        raise ExprError(0, "an expression must be a string")
    if len(text) > MAX_LENGTH:
        raise ExprError(0, f"expression longer than {MAX_LENGTH} characters")
    if not text.strip():
        raise ExprError(0, "empty expression")
    if "\n" in text or "\r" in text:
        raise ExprError(text.find("\n") if "\n" in text else text.find("\r"), "an expression is one line")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        offset = max((exc.offset or 1) - 1, 0)
        raise ExprError(offset, f"syntax error: {exc.msg}", DiagnosticCode.SYNTAX) from None
    except (ValueError, RecursionError, MemoryError):
        raise ExprError(0, "expression cannot be parsed", DiagnosticCode.SYNTAX) from None
    _check_shape(tree.body, 0)
    return tree.body


def _check_shape(node: ast.AST, depth: int) -> None:
    """Refuse everything outside the whitelist before any other pass looks at the tree."""
    offset = getattr(node, "col_offset", 0)
    if depth > MAX_DEPTH:
        raise ExprError(offset, f"expression nested more than {MAX_DEPTH} levels")
    if isinstance(node, ast.Constant):
        value = node.value
        if value is None or isinstance(value, bool):
            return
        if isinstance(value, int):
            if abs(value) > MAX_LITERAL:
                raise ExprError(offset, f"integer literal larger than {MAX_LITERAL}")
            return
        if isinstance(value, str) and _CHOICE_VALUE.match(value):
            return  # compared with a choice option: the type check says where it may stand
        kind = type(value).__name__
        raise ExprError(offset, f"{kind} literals are not part of the language (integers, and names of choices)")
    if isinstance(node, ast.Name):
        if node.id.startswith("_"):
            raise ExprError(offset, f"names starting with '_' are not allowed: {node.id!r}")
        return
    if isinstance(node, ast.BoolOp):
        children: list[ast.AST] = list(node.values)
    elif isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, ast.Not | ast.USub):
            raise ExprError(offset, "only 'not' and unary '-' are allowed")
        children = [node.operand]
    elif isinstance(node, ast.BinOp):
        if type(node.op) not in ARITHMETIC:
            raise ExprError(offset, "operator not allowed (use + - * // %)")
        children = [node.left, node.right]
    elif isinstance(node, ast.Compare):
        for op in node.ops:
            if type(op) not in COMPARISONS:
                raise ExprError(offset, "comparison not allowed")
        children = [node.left, *node.comparators]
    elif isinstance(node, ast.IfExp):
        children = [node.test, node.body, node.orelse]
    elif isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name):
            raise ExprError(offset, "only the built-in functions may be called")
        if node.func.id not in FUNCTIONS:
            hint = did_you_mean(node.func.id, FUNCTIONS)
            known = ", ".join(sorted(FUNCTIONS))
            message = f"unknown function {node.func.id!r}{hint}; the functions are {known}"
            raise ExprError(offset, message, DiagnosticCode.UNKNOWN_NAME)
        if node.keywords:
            raise ExprError(offset, "keyword arguments are not allowed")
        children = list(node.args)
        for arg in children:
            if isinstance(arg, ast.Starred):
                raise ExprError(arg.col_offset, "'*' arguments are not allowed")
    else:
        what = type(node).__name__
        raise ExprError(offset, f"{what} is not part of the expression language")
    for child in children:
        _check_shape(child, depth + 1)


class _Checker:
    def __init__(self, symbols: Mapping[str, Name], scope: frozenset[str]) -> None:
        self.symbols = symbols
        self.scope = scope
        self.names: set[str] = set()
        self.aggregated: set[str] = set()  # per-seat inputs read over every seat (table values)
        self.reads_seats = False  # calls a function reading a seat's state

    def check(self, node: ast.expr, narrowed: frozenset[str]) -> Type:
        method: Callable[[ast.expr, frozenset[str]], Type] = getattr(self, f"_{type(node).__name__}")
        return method(node, narrowed)

    def _Constant(self, node: ast.Constant, narrowed: frozenset[str]) -> Type:
        if node.value is None:
            return Type.NONE
        if isinstance(node.value, str):
            return Type.TEXT
        return Type.BOOL if isinstance(node.value, bool) else Type.INT

    def _Name(self, node: ast.Name, narrowed: frozenset[str]) -> Type:
        symbol = self.symbols.get(node.id)
        if symbol is None:
            hint = did_you_mean(node.id, self.symbols)
            raise ExprError(node.col_offset, f"unknown name {node.id!r}{hint}", DiagnosticCode.UNKNOWN_NAME, node.id)
        missing = symbol.needs - self.scope
        if missing:
            where = (
                "in the rulings on chips pushed"
                if "push" in missing
                else "in next_hand, once the hand is settled"
                if "settlement" in missing
                else "for actions with an amount (bet, raise)"
            )
            plain = node.id in missing or "push" in missing or "settlement" in missing
            what = "is" if plain else f"reads {', '.join(sorted(missing))!r}, which is"
            raise ExprError(node.col_offset, f"{node.id!r} {what} only defined {where}", DiagnosticCode.SCOPE)
        self.names.add(node.id)
        if symbol.type is Type.OPT_INT and node.id in narrowed:
            return Type.INT
        return symbol.type

    def _expect(self, node: ast.expr, narrowed: frozenset[str], want: Type, what: str) -> None:
        got = self.check(node, narrowed)
        if got is not want:
            hint = " (test it with 'is not None' first)" if got is Type.OPT_INT else ""
            raise ExprError(node.col_offset, f"{what} must be {want}, not {got}{hint}", DiagnosticCode.TYPE)

    def _BoolOp(self, node: ast.BoolOp, narrowed: frozenset[str]) -> Type:
        local = narrowed
        for value in node.values:
            self._expect(value, local, Type.BOOL, "an operand of 'and'/'or'")
            positive = isinstance(node.op, ast.And)
            local = local | _narrowing(value, positive=positive)
        return Type.BOOL

    def _UnaryOp(self, node: ast.UnaryOp, narrowed: frozenset[str]) -> Type:
        if isinstance(node.op, ast.Not):
            self._expect(node.operand, narrowed, Type.BOOL, "the operand of 'not'")
            return Type.BOOL
        self._expect(node.operand, narrowed, Type.INT, "the operand of unary '-'")
        return Type.INT

    def _BinOp(self, node: ast.BinOp, narrowed: frozenset[str]) -> Type:
        symbol = ARITHMETIC[type(node.op)]
        self._expect(node.left, narrowed, Type.INT, f"the left operand of {symbol!r}")
        self._expect(node.right, narrowed, Type.INT, f"the right operand of {symbol!r}")
        if isinstance(node.op, ast.FloorDiv | ast.Mod) and not self._nonzero(node.right, narrowed):
            divisor = ast.unparse(node.right)
            raise ExprError(
                node.right.col_offset,
                f"the divisor of {symbol!r} must never be zero: a positive literal, a name declared with "
                f"minimum >= 1, max({divisor}, 1), or {divisor} under a test that it is not zero "
                f"(... if {divisor} > 0 else ...)",
                DiagnosticCode.TYPE,
            )
        return Type.INT

    def _nonzero(self, node: ast.expr, narrowed: frozenset[str]) -> bool:
        """Whether ``node`` can never be zero: a positive literal, a name declared with a minimum
        of 1 or more, a name a test around it proved not zero (``x > 0``, ``x != 0``: see
        :func:`_narrowing`), or ``max`` of something positive."""
        if isinstance(node, ast.Constant):
            return isinstance(node.value, int) and not isinstance(node.value, bool) and node.value > 0
        if isinstance(node, ast.Name):
            symbol = self.symbols.get(node.id)
            declared = symbol is not None and symbol.minimum is not None and symbol.minimum >= 1
            return declared or NONZERO + node.id in narrowed
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "max" and node.args:
            return any(self._positive(arg, narrowed) for arg in node.args)
        return False

    def _positive(self, node: ast.expr, narrowed: frozenset[str] = frozenset()) -> bool:
        """Whether ``node`` is at least 1 (a max of it is too)."""
        if isinstance(node, ast.Constant | ast.Call):
            return self._nonzero(node, narrowed)
        if isinstance(node, ast.Name):
            symbol = self.symbols.get(node.id)
            return (symbol is not None and symbol.minimum is not None and symbol.minimum >= 1) or (
                POSITIVE + node.id in narrowed
            )
        return False

    def _Compare(self, node: ast.Compare, narrowed: frozenset[str]) -> Type:
        operands = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, operands, operands[1:], strict=False):
            if isinstance(op, ast.Is | ast.IsNot):
                if not (isinstance(right, ast.Constant) and right.value is None):
                    raise ExprError(right.col_offset, "'is' and 'is not' compare only with None", DiagnosticCode.TYPE)
                got = self.check(left, narrowed)
                if got is not Type.OPT_INT:
                    raise ExprError(left.col_offset, f"only an int? can be None; this is {got}", DiagnosticCode.TYPE)
                continue
            lt, rt = self.check(left, narrowed), self.check(right, narrowed)
            if isinstance(op, ast.In | ast.NotIn):
                if rt is not Type.SEATS:
                    raise ExprError(right.col_offset, f"'in' asks about a list of seats, not {rt}", DiagnosticCode.TYPE)
                if lt is not Type.INT:
                    raise ExprError(
                        left.col_offset, f"'in' asks whether a seat (an int) is listed, not {lt}", DiagnosticCode.TYPE
                    )
                continue
            if Type.SEATS in (lt, rt):
                bad = left if lt is Type.SEATS else right
                raise ExprError(
                    bad.col_offset, "a list of seats is only the right side of 'in' or 'not in'", DiagnosticCode.TYPE
                )
            if {lt, rt} == {Type.CHOICE, Type.TEXT} and isinstance(op, ast.Eq | ast.NotEq):
                option, text = (left, right) if lt is Type.CHOICE else (right, left)
                choices = self.symbols[option.id].choices  # type: ignore[attr-defined]
                value = text.value  # type: ignore[attr-defined]
                if value not in choices:
                    hint = did_you_mean(value, choices)
                    message = f"{value!r} is not a value of {option.id!r} ({', '.join(choices)}){hint}"  # type: ignore[attr-defined]
                    raise ExprError(text.col_offset, message, DiagnosticCode.TYPE)
                continue
            if Type.CHOICE in (lt, rt) or Type.TEXT in (lt, rt):
                raise ExprError(
                    left.col_offset,
                    "a choice is only compared, with == or !=, to one of its values",
                    DiagnosticCode.TYPE,
                )
            if isinstance(op, ast.Eq | ast.NotEq):
                # An int? equals an int or another int? where both hold the same number, and
                # None equals no int: equality is defined over both (ordering is not).
                numbers = {lt, rt} <= {Type.INT, Type.OPT_INT}
                if Type.NONE in (lt, rt):
                    raise ExprError(
                        left.col_offset,
                        "compare with None using 'is None' or 'is not None', not == or !=",
                        DiagnosticCode.TYPE,
                    )
                if lt is not rt and not numbers:
                    raise ExprError(
                        left.col_offset,
                        f"cannot compare {lt} with {rt}: == and != compare two values of one type "
                        "(an int? with an int too)",
                        DiagnosticCode.TYPE,
                    )
            elif lt is not Type.INT or rt is not Type.INT:
                bad = left if lt is not Type.INT else right
                hint = " (test it with 'is not None' first)" if Type.OPT_INT in (lt, rt) else ""
                raise ExprError(
                    bad.col_offset, f"ordering needs int operands, not {lt} and {rt}{hint}", DiagnosticCode.TYPE
                )
        return Type.BOOL

    def _IfExp(self, node: ast.IfExp, narrowed: frozenset[str]) -> Type:
        self._expect(node.test, narrowed, Type.BOOL, "the condition of 'if'")
        body = self.check(node.body, narrowed | _narrowing(node.test, positive=True))
        orelse = self.check(node.orelse, narrowed | _narrowing(node.test, positive=False))
        if {body, orelse} == {Type.INT, Type.NONE} or {body, orelse} == {Type.OPT_INT, Type.NONE}:
            return Type.OPT_INT
        if {body, orelse} == {Type.INT, Type.OPT_INT}:
            return Type.OPT_INT
        if body is not orelse:
            raise ExprError(
                node.col_offset, f"both branches must have one type, not {body} and {orelse}", DiagnosticCode.TYPE
            )
        return body

    def _Call(self, node: ast.Call, narrowed: frozenset[str]) -> Type:
        name = node.func.id  # type: ignore[attr-defined]
        if name in AGGREGATES and len(node.args) == 1:
            return self._aggregate(name, node.args[0])
        low, high = FUNCTIONS[name]
        if not low <= len(node.args) <= high:
            count = f"{low}" if low == high else f"{low} to {high}"
            raise ExprError(
                node.col_offset, f"{name}() takes {count} arguments, not {len(node.args)}", DiagnosticCode.TYPE
            )
        for arg in node.args:
            self._expect(arg, narrowed, Type.INT, f"an argument of {name}()")
        if name in SEAT_FUNCTIONS:
            self.reads_seats = True
            return Type(SEAT_FUNCTIONS[name])
        return Type.INT

    def _aggregate(self, name: str, arg: ast.expr) -> Type:
        """``max(x)`` / ``min(x)`` over the seats, of a per-seat table input: a table value."""
        symbol = self.symbols.get(arg.id) if isinstance(arg, ast.Name) else None
        if symbol is None or symbol.kind != "input" or symbol.scope != "seat" or symbol.type is not Type.INT:
            raise ExprError(
                arg.col_offset,
                f"{name}() of one argument takes a per-seat int input (its {name} over the seats); "
                f"compare values with {name}(a, b)",
                DiagnosticCode.TYPE,
            )
        assert isinstance(arg, ast.Name)
        self.aggregated.add(arg.id)
        return Type.INT


#: What a test proves of a name, as the narrowed set holds it beside the names known not None:
#: ``nonzero:x`` (x is not 0: a divisor) and ``positive:x`` (x is 1 or more).
NONZERO, POSITIVE = "nonzero:", "positive:"
#: A test that proves its name at least 1 when it holds: name > 0, name >= 1; and when it fails:
#: name <= 0 and name < 1 failing. ``!=`` 0 proves it not zero; ``==`` 0 failing does.
_AT_LEAST_ONE = {(ast.Gt, 0), (ast.GtE, 1)}
_AT_MOST_ZERO = {(ast.LtE, 0), (ast.Lt, 1)}


def _narrowing(test: ast.expr, *, positive: bool) -> frozenset[str]:
    """What ``test`` proves when it is ``positive`` (true) or not (false): names known not to be
    None, and (``nonzero:x``, ``positive:x``) names known not to be zero or to be at least 1."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name):
        right = test.comparators[0]
        name, op = test.left.id, type(test.ops[0])
        if isinstance(right, ast.Constant) and right.value is None:
            if isinstance(test.ops[0], ast.IsNot) and positive:
                return frozenset({test.left.id})
            if isinstance(test.ops[0], ast.Is) and not positive:
                return frozenset({test.left.id})
        if isinstance(right, ast.Constant) and type(right.value) is int:
            value = right.value
            if ((op, value) in _AT_LEAST_ONE and positive) or ((op, value) in _AT_MOST_ZERO and not positive):
                return frozenset({NONZERO + name, POSITIVE + name})
            if (op is ast.NotEq and value == 0 and positive) or (op is ast.Eq and value == 0 and not positive):
                return frozenset({NONZERO + name})
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) and positive:
        found: frozenset[str] = frozenset()
        for operand in test.values:
            found |= _narrowing(operand, positive=True)
        return found
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) and not positive:
        found = frozenset()
        for operand in test.values:
            found |= _narrowing(operand, positive=False)
        return found
    return frozenset()


_UNKNOWN = object()


def fold(node: ast.expr, known: Mapping[str, object] | None = None) -> object:
    """The value of ``node`` if it depends on no name but those ``known``, else ``_UNKNOWN``.
    Never calls eval."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return known.get(node.id, _UNKNOWN) if known else _UNKNOWN
    if isinstance(node, ast.BoolOp):
        values = [fold(v, known) for v in node.values]
        if isinstance(node.op, ast.And):
            if any(v is False for v in values):
                return False
            return True if all(v is True for v in values) else _UNKNOWN
        if any(v is True for v in values):
            return True
        return False if all(v is False for v in values) else _UNKNOWN
    if isinstance(node, ast.UnaryOp):
        value = fold(node.operand, known)
        if value is _UNKNOWN:
            return _UNKNOWN
        return (not value) if isinstance(node.op, ast.Not) else -value  # type: ignore[operator]
    if isinstance(node, ast.BinOp):
        left, right = fold(node.left, known), fold(node.right, known)
        if left is _UNKNOWN or right is _UNKNOWN:
            return _UNKNOWN
        assert isinstance(left, int) and isinstance(right, int)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if right == 0:
            return _UNKNOWN
        return left // right if isinstance(node.op, ast.FloorDiv) else left % right
    if isinstance(node, ast.Compare):
        values = [fold(node.left, known), *(fold(c, known) for c in node.comparators)]
        if any(v is _UNKNOWN for v in values):
            return _UNKNOWN
        for op, left, right in zip(node.ops, values, values[1:], strict=False):
            ok = COMPARE[type(op)](left, right)
            if not ok:
                return False
        return True
    if isinstance(node, ast.IfExp):
        test = fold(node.test, known)
        if test is _UNKNOWN:
            return _UNKNOWN
        return fold(node.body if test else node.orelse, known)
    return _UNKNOWN


def constant_value(tree: ast.expr, known: Mapping[str, object]) -> tuple[bool, object]:
    """Whether ``tree`` has one value given the ``known`` values of some names, and that value."""
    value = fold(tree, known)
    return value is not _UNKNOWN, value


def check(text: str, symbols: Mapping[str, Name], scope: frozenset[str] = frozenset()) -> Expr:
    """Parse and type-check ``text``; raise :class:`ExprError` on the first problem."""
    tree = parse(text)
    checker = _Checker(symbols, scope)
    result_type = checker.check(tree, frozenset())
    value = fold(tree)
    return Expr(text, tree, result_type, checker.names, value, value is not _UNKNOWN)


def names_in(text: str) -> set[str]:
    """Names an expression mentions (for dependency order); empty when it does not parse."""
    try:
        tree = parse(text)
    except ExprError:
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
