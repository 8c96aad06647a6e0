"""How the engine back ends read spec names and print spec expressions (Python, and Cython's
superset of it).

The accessors are templates saying how generated code reads each name of the vocabulary from a
hand of the runtime (``{m}`` the engine, ``{seat}`` the seat it is about; the engine plan fills
them in per scope, :func:`betspec.backends.plan.scope`). An expression tree becomes Python in
three passes, as compilers do: an ``ast.NodeTransformer`` puts the accessor in place of every name
(so the only identifiers in generated code are ones the generator chose), a folding pass decides
what the options and accessors leave decided (``not False``, ``min(a, a)``, ``not a == b``), and
:func:`source`, this module's own printer, writes the tree with the parentheses precedence needs
and no others (not ``ast.unparse``, whose parentheses differ between Python versions: generated
files are the same bytes wherever they are generated).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

from betspec.model import ARITHMETIC, COMPARE, COMPARISONS, Type
from betspec.vocabulary import AGGREGATES

#: How generated code reads each variable of the vocabulary: ``{m}`` the engine, ``{seat}`` the
#: seat it is about (the seat to act unless a scope names another; see plan.scope).
ACCESSORS: dict[str, str] = {
    "stack": "{m}._behind[{seat}]",
    "committed": "{m}._put_in[{seat}]",
    "contributed": "{m}._contributed[{seat}]",
    "has_acted": "{m}._acted[{seat}]",
    "acted_at": "{m}._acted_at[{seat}]",
    "bet_level": "{m}._bet_level",
    "pot": "{m}._pot",
    "street": "{m}._street",
    "last_street": "{m}.LAST_STREET",
    "seats": "{m}._n",
    "button": "{m}._button",
    "actor": "{seat}",
    "last_live_seat": "{m}._last_live",
    "nominal_level": "{m}._nominal",
    "posted_live": "{m}._posted_live",
    "posted_dead": "{m}._posted_dead",
    "forced_raises": "{m}._forced_raises",
    "players_in": "{m}._players_in",
    "seats_left": "{m}._seats_left()",
    "able": "{m}._able_count",
    "others_able": "{m}._others_able()",
    "answerable": "{m}._answerable()",
    "able_owing": "{m}._able_owing()",
    "pending": "{m}._pending()",
    "action_pending": "({seat} >= 0)",
    "declared_call": "({m}._declared == 1)",
    "declared_wager": "({m}._declared == 2)",
    "bet_announced": "({m}._announced == {m}._bet_level)",
    "out_of_turn_declared": "({seat} in {m}._out_of_turn)",
    "out_of_turn_to": "{m}._out_of_turn.get({seat}, (0, 0))[0]",
    "out_of_turn_level": "{m}._out_of_turn.get({seat}, (0, 0))[1]",
    "last_raise": "{m}._last_raise",
    "last_full_level": "{m}._last_full_level",
    "raises": "{m}._raises",
}

#: The runtime method (of the engine) each primitive of the vocabulary calls.
PRIMITIVE_METHODS: dict[str, str] = {
    "post_forced_bets": "_post_forced_bets",
    "begin_street": "_begin_street",
    "open_betting": "_open_betting",
    "commit": "_commit",
    "check": "_mark_checked",
    "fold": "_mark_folded",
    "pass_action": "_pass_action",
    "close_round": "_close_round",
    "deal": "_deal_runout",
}

#: The Python function each function of the vocabulary is (the last two from the runtime).
FUNCTION_SOURCES: dict[str, str] = {
    "min": "min",
    "max": "max",
    "abs": "abs",
    "ceil_to": "ceil_to",
    "floor_to": "floor_to",
    "committed_of": "committed_of",
    "stack_of": "stack_of",
    "acted_of": "acted_of",
}
#: The functions reading one seat, as the engine's list each indexes with its argument.
SEAT_READS: dict[str, str] = {"committed_of": "_put_in", "stack_of": "_behind", "acted_of": "_acted"}
#: The functions about seats the engine answers with a method of its own.
SEAT_METHODS: dict[str, str] = {"next_live": "_next_live", "prev_live": "_prev_live"}
#: The key under which a symbol table says how generated code names the engine (``m``, ``self``):
#: not a spec name, so it can never be one.
MODEL = "@model"
#: The functions generated code imports from ``betspec.runtime.functions``.
RUNTIME_FUNCTIONS = ("ceil_to", "floor_to")


@dataclass(frozen=True)
class Symbol:
    """A spec name as the Python back end reads it: its type, and the tree that reads it.

    For a quantity, ``inlined`` says whether the tree is its formula written in place (else a
    call of its function)."""

    type: Type
    tree: ast.expr
    kind: str  # "variable", "option", "quantity", "parameter"
    inlined: bool = True
    positive: bool = False  # declared with a minimum of 1 or more (when not None)

    @classmethod
    def read(cls, type: Type, source: str, kind: str, inlined: bool = True, positive: bool = False) -> Symbol:
        """The symbol whose accessor is the Python expression ``source``."""
        return cls(type, ast.parse(source, mode="eval").body, kind, inlined, positive)


def _copy(node: ast.AST) -> ast.AST:
    """A fresh copy of an expression tree (the folding pass rewrites trees in place). Faster than
    ``copy.deepcopy``: only the fields, no positions, no memo."""
    fields = {}
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            value = _copy(value)
        elif isinstance(value, list):
            value = [_copy(item) if isinstance(item, ast.AST) else item for item in value]
        fields[name] = value
    return type(node)(**fields)


def _copied(tree: ast.expr) -> ast.expr:
    copied = _copy(tree)
    assert isinstance(copied, ast.expr)
    return copied


class _Substitute(ast.NodeTransformer):
    """Every spec name becomes its accessor; the front end let no other name through."""

    def __init__(self, symbols: Mapping[str, Symbol]) -> None:
        self.symbols = symbols

    def visit_Call(self, node: ast.Call) -> ast.expr:
        assert isinstance(node.func, ast.Name)
        name = node.func.id
        if name in SEAT_METHODS:
            engine = _copied(self.symbols[MODEL].tree)
            method = ast.Attribute(engine, SEAT_METHODS[name], ast.Load())
            return ast.Call(method, [self.visit(node.args[0])], [])
        if name in SEAT_READS:
            engine = _copied(self.symbols[MODEL].tree)
            reads = ast.Attribute(engine, SEAT_READS[name], ast.Load())
            return ast.Subscript(reads, self.visit(node.args[0]), ast.Load())
        if name in AGGREGATES and len(node.args) == 1:
            # Over every seat: the per-seat input's whole tuple, not the seat to act's value.
            read = self.symbols[node.args[0].id].tree  # type: ignore[attr-defined]
            assert isinstance(read, ast.Subscript)
            return ast.Call(ast.Name(FUNCTION_SOURCES[name], ast.Load()), [_copied(read.value)], [])
        unit = node.args[-1] if name in RUNTIME_FUNCTIONS else None
        node.args = [self.visit(arg) for arg in node.args]
        if isinstance(unit, ast.Name) and self.symbols[unit.id].positive:
            # The unit can never be below 1: the rounding is two operations, not a call.
            value, step = node.args
            if name == "floor_to":
                return ast.BinOp(ast.BinOp(value, ast.FloorDiv(), step), ast.Mult(), _copied(step))
            quotient = ast.BinOp(ast.UnaryOp(ast.USub(), value), ast.FloorDiv(), step)
            return ast.BinOp(ast.UnaryOp(ast.USub(), quotient), ast.Mult(), _copied(step))
        node.func = ast.Name(FUNCTION_SOURCES[name], ast.Load())
        return node

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return _copied(self.symbols[node.id].tree)


_FLIPPED: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}


def _constant(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant)


def _integer(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def _same(a: ast.expr, b: ast.expr) -> bool:
    return ast.dump(a) == ast.dump(b)


class _Fold(ast.NodeTransformer):
    """What the spec's options and the accessors leave decided, decided once, here.

    Expressions are pure (no call in them changes anything), so dropping or reordering nothing
    but decided operands never changes what they compute; every rule keeps the meaning for
    integers, booleans and None, the only values the language has."""

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        operand = node.operand
        if isinstance(node.op, ast.Not):
            if isinstance(operand, ast.Constant):
                return ast.Constant(not operand.value)
            if isinstance(operand, ast.UnaryOp) and isinstance(operand.op, ast.Not):
                return operand.operand
            if isinstance(operand, ast.Compare) and len(operand.ops) == 1:
                flipped = _FLIPPED[type(operand.ops[0])]()
                return ast.Compare(operand.left, [flipped], operand.comparators)
            if isinstance(operand, ast.BoolOp):  # De Morgan: the negations then fold in turn
                opposite = ast.Or() if isinstance(operand.op, ast.And) else ast.And()
                negated = [_transformed(self, ast.UnaryOp(ast.Not(), value)) for value in operand.values]
                return _transformed(self, ast.BoolOp(opposite, negated))
        elif isinstance(operand, ast.Constant) and type(operand.value) is int:
            return ast.Constant(-operand.value)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        self.generic_visit(node)
        conjunction = isinstance(node.op, ast.And)
        values: list[ast.expr] = []
        for value in node.values:
            if isinstance(value, ast.BoolOp) and type(value.op) is type(node.op):
                values.extend(value.values)
            elif isinstance(value, ast.Constant):
                if bool(value.value) != conjunction:
                    # False in an 'and', True in an 'or' decides it, whatever the (pure) others are.
                    return ast.Constant(not conjunction)
            else:
                values.append(value)
        if not values:
            return ast.Constant(conjunction)
        return values[0] if len(values) == 1 else ast.BoolOp(node.op, values)

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant):
            return node.body if node.test.value else node.orelse
        if _same(node.body, node.orelse):
            return node.body
        return node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in ("min", "max") and len(node.args) > 1:
            other = "max" if node.func.id == "min" else "min"
            args: list[ast.expr] = []
            for arg in node.args:
                if not any(_same(arg, kept) for kept in args):
                    args.append(arg)
            # Absorption: max(min(a, x), x) is x, and min(max(a, x), x) is x.
            args = [
                arg
                for arg in args
                if not (
                    isinstance(arg, ast.Call)
                    and isinstance(arg.func, ast.Name)
                    and arg.func.id == other
                    and any(_same(inner, kept) for inner in arg.args for kept in args if kept is not arg)
                )
            ]
            if len(args) == 1:
                return args[0]
            node.args = args
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        left, right = node.left, node.right
        if _integer(left) and _integer(right):
            a, b = left.value, right.value  # type: ignore[attr-defined]
            if isinstance(node.op, ast.Add):
                return ast.Constant(a + b)
            if isinstance(node.op, ast.Sub):
                return ast.Constant(a - b)
            if isinstance(node.op, ast.Mult):
                return ast.Constant(a * b)
            if b:
                return ast.Constant(a // b if isinstance(node.op, ast.FloorDiv) else a % b)
            return node
        if isinstance(node.op, ast.Add | ast.Sub) and _constant(right) and right.value == 0:  # type: ignore[attr-defined]
            return left
        if isinstance(node.op, ast.Add) and _constant(left) and left.value == 0:  # type: ignore[attr-defined]
            return right
        if isinstance(node.op, ast.Mult | ast.FloorDiv) and _constant(right) and right.value == 1:  # type: ignore[attr-defined]
            return left
        if isinstance(node.op, ast.Mult) and _constant(left) and left.value == 1:  # type: ignore[attr-defined]
            return right
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        operands = [node.left, *node.comparators]
        if len(node.ops) == 1 and all(isinstance(o, ast.Constant) for o in operands):
            a, b = (o.value for o in operands)  # type: ignore[attr-defined]
            outcome = COMPARE.get(type(node.ops[0]))
            if outcome is not None:
                return ast.Constant(outcome(a, b))
        return node


def _transformed(transformer: ast.NodeTransformer, tree: ast.expr) -> ast.expr:
    result = transformer.visit(tree)
    assert isinstance(result, ast.expr)
    return result


def fold(tree: ast.expr) -> ast.expr:
    """``tree`` (a Python expression) with what it leaves decided decided."""
    return _transformed(_Fold(), _copied(tree))


def python(tree: ast.expr, symbols: Mapping[str, Symbol]) -> ast.expr:
    """The Python expression for a checked tree: names replaced by their accessors, then folded."""
    return _transformed(_Fold(), _transformed(_Substitute(symbols), _copied(tree)))


def negate(tree: ast.expr) -> ast.expr:
    """``not tree``, folded (no double negation; a comparison turned around)."""
    return _transformed(_Fold(), ast.UnaryOp(ast.Not(), _copied(tree)))


#: Python's precedence of the nodes the printer writes (higher binds tighter).
_IF, _OR, _AND, _NOT, _COMPARE_LEVEL, _ADD, _MULTIPLY, _SIGN, _ATOM = range(1, 10)
#: How tightly each arithmetic operator binds (model.ARITHMETIC says how it is written).
_BINDS: dict[type[ast.operator], int] = {
    ast.Add: _ADD,
    ast.Sub: _ADD,
    ast.Mult: _MULTIPLY,
    ast.FloorDiv: _MULTIPLY,
    ast.Mod: _MULTIPLY,
}


def source(tree: ast.expr) -> str:
    """Python source for an expression tree, parenthesised only where precedence needs it.

    Written here rather than with ``ast.unparse``, whose parentheses differ between Python
    versions: generated files must be the same bytes wherever they are generated."""
    return _printed(tree, 0)


def _printed(node: ast.expr, needed: int) -> str:
    text, level = _written(node)
    return f"({text})" if level < needed else text


def _written(node: ast.expr) -> tuple[str, int]:
    if isinstance(node, ast.Constant):
        return repr(node.value), (_SIGN if isinstance(node.value, int) and node.value < 0 else _ATOM)
    if isinstance(node, ast.Name):
        return node.id, _ATOM
    if isinstance(node, ast.Attribute):
        return f"{_printed(node.value, _ATOM)}.{node.attr}", _ATOM
    if isinstance(node, ast.Subscript):
        return f"{_printed(node.value, _ATOM)}[{_printed(node.slice, 0)}]", _ATOM
    if isinstance(node, ast.Call):
        args = ", ".join(_printed(arg, _IF) for arg in node.args)
        return f"{_printed(node.func, _ATOM)}({args})", _ATOM
    if isinstance(node, ast.Tuple):
        items = ", ".join(_printed(item, _IF) for item in node.elts)
        return f"({items}{',' if len(node.elts) == 1 else ''})", _ATOM
    if isinstance(node, ast.BoolOp):
        level = _AND if isinstance(node.op, ast.And) else _OR
        joiner = " and " if level == _AND else " or "
        # An 'and' inside an 'or' needs no parentheses, but a reader is spared the precedence.
        needed = _NOT if level == _OR else level + 1
        return joiner.join(_printed(value, needed) for value in node.values), level
    if isinstance(node, ast.UnaryOp):
        if isinstance(node.op, ast.Not):
            return f"not {_printed(node.operand, _NOT)}", _NOT
        return f"-{_printed(node.operand, _SIGN)}", _SIGN
    if isinstance(node, ast.BinOp):
        symbol, level = ARITHMETIC[type(node.op)], _BINDS[type(node.op)]
        return f"{_printed(node.left, level)} {symbol} {_printed(node.right, level + 1)}", level
    if isinstance(node, ast.Compare):
        parts = [_printed(node.left, _COMPARE_LEVEL + 1)]
        for op, right in zip(node.ops, node.comparators, strict=True):
            parts += [COMPARISONS[type(op)], _printed(right, _COMPARE_LEVEL + 1)]
        return " ".join(parts), _COMPARE_LEVEL
    if isinstance(node, ast.IfExp):
        body, test = _printed(node.body, _IF + 1), _printed(node.test, _IF + 1)
        return f"{body} if {test} else {_printed(node.orelse, _IF)}", _IF
    raise AssertionError(f"the printer writes no {type(node).__name__}")  # the front end let none through


def literal(value: object) -> str:
    """A Python literal for a JSON scalar: repr of str, int, bool or None, nothing else."""
    if value is None or isinstance(value, bool | int | str):
        return repr(value)
    raise TypeError(f"not a literal: {type(value).__name__}")


def compile_source(tree: ast.expr, symbols: Mapping[str, Symbol]) -> str:
    """Python source for a checked tree, names replaced by their accessors, folded."""
    return source(python(tree, symbols))


def size(tree: ast.expr) -> int:
    """The number of expressions in a tree (names, reads, operations): what writing it in place costs."""
    return sum(1 for node in ast.walk(tree) if isinstance(node, ast.expr))


def is_false(tree: ast.expr) -> bool:
    return isinstance(tree, ast.Constant) and tree.value is False
