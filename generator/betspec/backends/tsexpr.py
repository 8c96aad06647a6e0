"""Expression trees printed as TypeScript: the trees the engine plan substituted (Python ``ast``
nodes whose names are the accessors a scope chose), written with TypeScript's operators and
precedence.

Every integer operation keeps Python's meaning: ``//`` is ``Math.floor(a / b)`` (exact on the
integers the TypeScript runtime admits, all below 2**53), ``%`` the runtime's ``mod`` (the sign of
the divisor), ``==`` is ``===``, ``x is None`` is ``x === null``, ``seat in seats`` is
``seats.includes(seat)``; a comparison chain is a conjunction. Strings are JSON string literals
(every character outside ASCII escaped). A node this printer does not know is refused with
:class:`betspec.backends.base.BackendError`, never printed wrongly.
"""

from __future__ import annotations

import ast
import json

from betspec.backends.base import BackendError

#: The functions of the expression language, as TypeScript calls them.
FUNCTIONS = {"min": "Math.min", "max": "Math.max", "abs": "Math.abs", "ceil_to": "ceilTo", "floor_to": "floorTo"}
#: The runtime functions printed expressions may call (the module imports those it uses).
RUNTIME_FUNCTIONS = ("ceilTo", "floorTo", "mod")

_COND, _OR, _AND, _EQ, _REL, _ADD, _MUL, _UNARY, _ATOM = range(1, 10)

_COMPARE = {
    ast.Eq: ("===", _EQ),
    ast.NotEq: ("!==", _EQ),
    ast.Lt: ("<", _REL),
    ast.LtE: ("<=", _REL),
    ast.Gt: (">", _REL),
    ast.GtE: (">=", _REL),
    ast.Is: ("===", _EQ),
    ast.IsNot: ("!==", _EQ),
}
_ARITHMETIC = {ast.Add: ("+", _ADD), ast.Sub: ("-", _ADD), ast.Mult: ("*", _MUL)}


def string(value: str) -> str:
    """A TypeScript string literal: JSON's, every character outside ASCII escaped (so that a
    line or paragraph separator, or any other, can never end the literal or the line)."""
    return json.dumps(value, ensure_ascii=True)


def literal(value: object) -> str:
    """A TypeScript literal for a JSON value (lists as arrays, objects as object literals)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return string(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{string(str(k))}: {literal(v)}" for k, v in value.items()) + "}"
    raise BackendError(f"the TypeScript back end prints no value of type {type(value).__name__}")


def ts(tree: ast.expr) -> str:
    """TypeScript source for an expression tree."""
    return _printed(tree, 0)


def _printed(node: ast.expr, needed: int) -> str:
    text, level = _written(node)
    return f"({text})" if level < needed else text


def _written(node: ast.expr) -> tuple[str, int]:
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or value is None:
            return literal(value), _ATOM
        if isinstance(value, int):
            return str(value), (_UNARY if value < 0 else _ATOM)
        if isinstance(value, str):
            return string(value), _ATOM
        raise BackendError(f"the TypeScript back end prints no constant {value!r}")
    if isinstance(node, ast.Name):
        return node.id, _ATOM
    if isinstance(node, ast.Attribute):
        return f"{_printed(node.value, _ATOM)}.{node.attr}", _ATOM
    if isinstance(node, ast.Subscript):
        return f"{_printed(node.value, _ATOM)}[{_printed(node.slice, 0)}]", _ATOM
    if isinstance(node, ast.Call):
        return _call(node), _ATOM
    if isinstance(node, ast.BoolOp):
        level = _AND if isinstance(node.op, ast.And) else _OR
        joiner = " && " if level == _AND else " || "
        return joiner.join(_printed(value, level) for value in node.values), level
    if isinstance(node, ast.UnaryOp):
        if isinstance(node.op, ast.Not):
            return f"!{_printed(node.operand, _UNARY)}", _UNARY
        if isinstance(node.op, ast.USub):
            operand = _printed(node.operand, _UNARY)
            return (f"-({operand})" if operand.startswith("-") else f"-{operand}"), _UNARY
        raise BackendError(f"the TypeScript back end prints no unary {type(node.op).__name__}")
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.FloorDiv):
            return f"Math.floor({_printed(node.left, _MUL)} / {_printed(node.right, _MUL + 1)})", _ATOM
        if isinstance(node.op, ast.Mod):
            return f"mod({_printed(node.left, _COND)}, {_printed(node.right, _COND)})", _ATOM
        found = _ARITHMETIC.get(type(node.op))
        if found is None:
            raise BackendError(f"the TypeScript back end prints no operator {type(node.op).__name__}")
        symbol, level = found
        return f"{_printed(node.left, level)} {symbol} {_printed(node.right, level + 1)}", level
    if isinstance(node, ast.Compare):
        parts = []
        operands = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, operands, operands[1:], strict=False):
            parts.append(_comparison(op, left, right))
        if len(parts) == 1:
            return parts[0]
        return " && ".join(_wrap(text, level, _AND) for text, level in parts), _AND
    if isinstance(node, ast.IfExp):
        body, test = _printed(node.body, _COND + 1), _printed(node.test, _OR)
        return f"{test} ? {body} : {_printed(node.orelse, _COND)}", _COND
    raise BackendError(f"the TypeScript back end prints no {type(node).__name__} (a plan element it does not know)")


def _wrap(text: str, level: int, needed: int) -> str:
    return f"({text})" if level < needed else text


def _comparison(op: ast.cmpop, left: ast.expr, right: ast.expr) -> tuple[str, int]:
    if isinstance(op, ast.In | ast.NotIn):
        test = f"{_printed(right, _ATOM)}.includes({_printed(left, _COND)})"
        return (f"!{test}", _UNARY) if isinstance(op, ast.NotIn) else (test, _ATOM)
    found = _COMPARE.get(type(op))
    if found is None:
        raise BackendError(f"the TypeScript back end prints no comparison {type(op).__name__}")
    symbol, level = found
    # Operands of a comparison are arithmetic (a comparison inside one is parenthesised).
    return f"{_printed(left, _ADD)} {symbol} {_printed(right, _ADD)}", level


def _call(node: ast.Call) -> str:
    if node.keywords:
        raise BackendError("the TypeScript back end prints no call with keywords")
    args = [_printed(arg, _COND) for arg in node.args]
    if isinstance(node.func, ast.Name):
        name = node.func.id
        if name in FUNCTIONS:
            if name in ("min", "max") and len(node.args) == 1:
                return f"{FUNCTIONS[name]}(...{args[0]})"  # over every seat: a per-seat input's values
            return f"{FUNCTIONS[name]}({', '.join(args)})"
        if name.startswith("q_"):
            return f"{name}({', '.join(args)})"
        raise BackendError(f"the TypeScript back end knows no function {name!r}")
    if isinstance(node.func, ast.Attribute):
        return f"{_printed(node.func, _ATOM)}({', '.join(args)})"
    raise BackendError("the TypeScript back end prints calls of names and methods only")


def names_called(trees: list[ast.expr]) -> set[str]:
    """The runtime functions printed trees call (``mod``, ``ceilTo``, ``floorTo``)."""
    found: set[str] = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
                found.add("mod")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS:
                mapped = FUNCTIONS[node.func.id]
                if mapped in RUNTIME_FUNCTIONS:
                    found.add(mapped)
    return found
