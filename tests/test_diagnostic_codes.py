"""The front end's diagnostic codes are one enum, documented in one table, and no code is a bare
string where a diagnostic is made."""

from __future__ import annotations

import ast
import re

from betspec.diagnostics import Diagnostic, DiagnosticCode, Position
from tests.conftest import ROOT

PACKAGE = ROOT / "generator" / "betspec"
#: Where diagnostics are made, and the position of the code among each maker's arguments.
MAKERS = {"Diagnostic": 2, "error": 1, "diag": 1, "ExprError": 2, "add": 1}


def test_the_docs_table_lists_every_code_once() -> None:
    table = re.findall(r"^\| `([a-z-]+)` \|", (ROOT / "docs" / "diagnostics.md").read_text(), re.MULTILINE)
    assert sorted(table) == sorted(code.value for code in DiagnosticCode)
    assert len(table) == len(set(table))


def test_no_diagnostic_is_made_with_a_bare_string_code() -> None:
    paths = [
        *(PACKAGE / "frontend").glob("*.py"),
        *(PACKAGE / name for name in ("project.py", "house.py", "tools/explore.py")),
    ]
    paths.append(PACKAGE / "conformance" / "runner.py")
    bare = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            at = MAKERS.get(name)
            if at is not None and len(node.args) > at:
                code = node.args[at]
                if isinstance(code, ast.Constant) and isinstance(code.value, str):
                    bare.append(f"{path.name}:{node.lineno} {code.value!r}")
    assert bare == []


def test_a_diagnostic_prints_its_code_as_written() -> None:
    diagnostic = Diagnostic(
        Position("spec/x.json", 3, 7), "/quantities/q", DiagnosticCode.UNKNOWN_NAME, "unknown name 'y'"
    )
    assert str(diagnostic) == "spec/x.json:3:7: /quantities/q: unknown name 'y' [unknown-name]"
    assert diagnostic.code == "unknown-name"
