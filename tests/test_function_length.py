"""No hand-written function in generator/ runs past about 80 lines without a comment saying why
(``# Long because ...``): long functions are where rules hide and copies grow."""

from __future__ import annotations

import ast

from tests.conftest import ROOT

LIMIT = 80
WHY = ("# Long because", "# One function, long")


def _long_functions() -> list[str]:
    found = []
    for path in sorted((ROOT / "generator" / "betspec").rglob("*.py")):
        if "engines" in path.relative_to(ROOT).parts:
            continue
        lines = path.read_text().split("\n")
        for node in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.end_lineno is None:
                continue
            first = node.body[0]
            documented = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            start = (first.end_lineno or first.lineno) + 1 if documented else node.body[0].lineno
            text = lines[node.lineno - 1 : node.end_lineno]
            if node.end_lineno - start + 1 > LIMIT and not any(why in line for line in text for why in WHY):
                found.append(
                    f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({node.end_lineno - start + 1} lines)"
                )
    return found


def test_no_function_is_long_without_saying_why() -> None:
    assert _long_functions() == []
