"""How the Python back end reads spec names and prints spec expressions.

The accessors say how generated code reads each name of the vocabulary from a hand of the
runtime (``m`` is the engine, ``m._actor`` the seat to act); the printer turns a checked
expression tree into Python source in which every name is replaced by its accessor, so the only
identifiers in generated code are ones the generator chose.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass

from betspec.model import Type

#: Variables of the vocabulary, read from the engine ``m``.
ACCESSORS: dict[str, str] = {
    "stack": "m._behind[m._actor]",
    "committed": "m._put_in[m._actor]",
    "has_acted": "m._acted[m._actor]",
    "acted_at": "m._acted_at[m._actor]",
    "bet_level": "m._bet_level",
    "pot": "m._pot",
    "small_blind": "m._small_blind",
    "big_blind": "m._big_blind",
    "ante": "m._ante",
    "small_bet": "m._small_bet",
    "big_bet": "m._big_bet",
    "street": "m._street",
    "seats": "m._n",
    "players_in": "m._players_in",
    "able": "m._able()",
    "others_able": "m._others_able()",
    "answerable": "m._answerable()",
    "able_owing": "m._able_owing()",
    "pending": "m._pending()",
    "action_pending": "(m._actor >= 0)",
    "big_blind_acted": "m._bb_acted",
    "small_blind_committed": "m._small_blind_committed()",
    "is_small_blind": "m._is_small_blind()",
    "burn_blind": "m._table.burn_blind",
    "declared_call": "(m._declared == 1)",
    "declared_wager": "(m._declared == 2)",
    "bet_announced": "(m._announced == m._bet_level)",
    "out_of_turn_declared": "(m._actor in m._out_of_turn)",
    "out_of_turn_to": "m._out_of_turn.get(m._actor, (0, 0))[0]",
    "out_of_turn_level": "m._out_of_turn.get(m._actor, (0, 0))[1]",
    "last_raise": "m._last_raise",
    "last_full_level": "m._last_full_level",
    "raises": "m._raises",
}

#: The runtime method each primitive of the vocabulary calls.
PRIMITIVE_METHODS: dict[str, str] = {
    "post_antes": "m._post_antes",
    "post_blinds": "m._post_blinds",
    "post_burn_blind": "m._post_burn_blind",
    "begin_street": "m._begin_street",
    "commit": "m._commit",
    "check": "m._mark_checked",
    "fold": "m._mark_folded",
    "pass_action": "m._pass_action",
    "close_round": "m._close_round",
    "deal": "m._deal_runout",
}

#: The Python function each function of the vocabulary is (the last two from the runtime).
FUNCTION_SOURCES: dict[str, str] = {
    "min": "min",
    "max": "max",
    "abs": "abs",
    "ceil_to": "ceil_to",
    "floor_to": "floor_to",
}
#: The functions generated code imports from ``betspec.runtime.functions``.
RUNTIME_FUNCTIONS = ("ceil_to", "floor_to")

_COMPARE = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Is: "is",
    ast.IsNot: "is not",
}
_ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}


@dataclass(frozen=True)
class Symbol:
    """A spec name as the Python back end reads it: its type and its source."""

    type: Type
    source: str
    kind: str  # "variable", "option", "quantity", "parameter"


def compile_source(tree: ast.expr, symbols: Mapping[str, Symbol]) -> str:
    """Python source for a checked tree. Every operand is parenthesised; names become accessors."""
    if isinstance(tree, ast.Constant):
        return repr(tree.value)
    if isinstance(tree, ast.Name):
        return symbols[tree.id].source
    if isinstance(tree, ast.BoolOp):
        joiner = " and " if isinstance(tree.op, ast.And) else " or "
        return "(" + joiner.join(compile_source(v, symbols) for v in tree.values) + ")"
    if isinstance(tree, ast.UnaryOp):
        op = "not " if isinstance(tree.op, ast.Not) else "-"
        return f"({op}{compile_source(tree.operand, symbols)})"
    if isinstance(tree, ast.BinOp):
        op = _ARITH[type(tree.op)]
        return f"({compile_source(tree.left, symbols)} {op} {compile_source(tree.right, symbols)})"
    if isinstance(tree, ast.Compare):
        parts = [compile_source(tree.left, symbols)]
        for op, right in zip(tree.ops, tree.comparators, strict=False):
            parts.append(_COMPARE[type(op)])
            parts.append(compile_source(right, symbols))
        return "(" + " ".join(parts) + ")"
    if isinstance(tree, ast.IfExp):
        body, test = compile_source(tree.body, symbols), compile_source(tree.test, symbols)
        return f"({body} if {test} else {compile_source(tree.orelse, symbols)})"
    if isinstance(tree, ast.Call):
        function = FUNCTION_SOURCES[tree.func.id]  # type: ignore[attr-defined]
        return f"{function}(" + ", ".join(compile_source(a, symbols) for a in tree.args) + ")"
    raise AssertionError(f"unchecked node {type(tree).__name__}")  # the front end refused it already
