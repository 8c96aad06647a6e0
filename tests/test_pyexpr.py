"""The Python back end's printer: accessors put in place, what is decided folded, minimal parentheses."""

from __future__ import annotations

import ast
import itertools

import pytest

from betspec.backends.pyexpr import Symbol, compile_source, negate, python, source
from betspec.frontend.expr import Name, check
from betspec.model import Type

NAMES = {
    "a": Name(Type.INT, "variable"),
    "b": Name(Type.INT, "variable"),
    "p": Name(Type.BOOL, "variable"),
    "q": Name(Type.BOOL, "variable"),
    "off": Name(Type.BOOL, "option"),
    "cap": Name(Type.OPT_INT, "option"),
}
SOURCES = {
    "a": Symbol.read(Type.INT, "m._a", "variable"),
    "b": Symbol.read(Type.INT, "m._b[m._actor]", "variable"),
    "p": Symbol.read(Type.BOOL, "m._p()", "variable"),
    "q": Symbol.read(Type.BOOL, "(m._actor >= 0)", "variable"),
    "off": Symbol.read(Type.BOOL, "False", "option"),
    "cap": Symbol.read(Type.OPT_INT, "m._opt_cap", "option"),
}


def printed(text: str) -> str:
    return compile_source(check(text, NAMES).tree, SOURCES)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("not off", "True"),
        ("p and not off", "m._p()"),
        ("p or off", "m._p()"),
        ("p and off", "False"),
        ("not q", "m._actor < 0"),
        ("not (a == b)", "m._a != m._b[m._actor]"),
        ("not not p", "m._p()"),
        ("not (p and a < b)", "not m._p() or m._a >= m._b[m._actor]"),
        ("min(a, a)", "m._a"),
        ("max(min(b, a), a)", "m._a"),
        ("min(max(a, b), b, b)", "m._b[m._actor]"),
        ("a + 0", "m._a"),
        ("1 * a", "m._a"),
        ("2 * 3 + a", "6 + m._a"),
        ("a if 1 > 2 else b", "m._b[m._actor]"),
        ("a if p else a", "m._a"),
        ("(a + b) * 2", "(m._a + m._b[m._actor]) * 2"),
        ("a - (b - 1)", "m._a - (m._b[m._actor] - 1)"),
        ("cap is not None and a > cap", "m._opt_cap is not None and m._a > m._opt_cap"),
    ],
)
def test_the_printer_folds_what_is_decided(text: str, expected: str) -> None:
    assert printed(text) == expected


def test_negation_never_doubles() -> None:
    tree = python(check("p and not q", NAMES).tree, SOURCES)
    assert source(negate(tree)) == "not m._p() or m._actor >= 0"
    assert source(negate(negate(tree))) == source(tree)


def test_folding_keeps_the_meaning_on_every_value() -> None:
    """Each printed form computes what the unfolded expression computes, for every value of its
    names (checked here by evaluating both on plain data; generated code is never evaluated)."""
    texts = [
        "not (a == b)",
        "not (p and a < b)",
        "max(min(b, a), a)",
        "min(max(a, b), b)",
        "not (p or not q) and a >= b",
        "a - (b - 1) if p else a + 0",
    ]
    plain = {name: Symbol.read(symbol.type, name, symbol.kind) for name, symbol in SOURCES.items()}
    for text in texts:
        tree = check(text, NAMES).tree
        folded = compile_source(tree, plain)
        unfolded = ast.unparse(tree)
        for a, b, p, q in itertools.product(range(-2, 3), range(-2, 3), (False, True), (False, True)):
            scope = {"a": a, "b": b, "p": p, "q": q, "off": False, "cap": None}
            assert eval(folded, {}, scope) == eval(unfolded, {}, scope), (text, folded)
