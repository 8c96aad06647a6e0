"""The front end's diagnostic codes are one enum, documented in one table, and no code is a bare
string where a diagnostic is made."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from betspec.diagnostics import ABOUT, Diagnostic, DiagnosticCode, Position
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


def test_every_code_says_what_it_is_for_and_how_to_fix_it() -> None:
    assert set(ABOUT) == set(DiagnosticCode)
    for code, about in ABOUT.items():
        assert about.reported_for.strip() and about.fix.strip(), code
        row = f"| `{code}` | {about.reported_for} | {about.fix} |"
        assert row in (ROOT / "docs" / "diagnostics.md").read_text(), row


FIXTURES = sorted((ROOT / "tests" / "fixtures" / "diagnostics").glob("*.json"))
#: The codes only playing the engine finds (validate --deep), each with a spec that makes it.
DEEP = {
    "only-fold": "only_fold.json",
    "after-the-end": "deal_after_showdown.json",
    "never-taken": "never_taken.json",
}


def _validate(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    from betspec.cli import main

    status = main(["--root", str(ROOT), "validate", *argv])
    return status, capsys.readouterr().out.splitlines()


def test_every_code_but_the_deep_ones_has_a_spec_that_makes_it() -> None:
    made = {path.stem.replace("_", "-") for path in FIXTURES}
    deep = {code.value for code in DiagnosticCode if "--deep" in ABOUT[code].group}
    assert made == {code.value for code in DiagnosticCode} - deep
    assert set(DEEP) <= deep


@pytest.mark.parametrize("path", FIXTURES, ids=[path.stem for path in FIXTURES])
def test_validate_reports_the_code_at_the_spec_and_prints_its_fix(
    capsys: pytest.CaptureFixture[str], path: Path
) -> None:
    code = DiagnosticCode(path.stem.replace("_", "-"))
    status, out = _validate(capsys, str(path))
    found = [line for line in out if line.endswith(f"[{code}]")]
    assert found and all(line.startswith(str(path)) for line in found), out
    assert f"[{code}] to fix: {ABOUT[code].fix}" in out, out
    assert status == (0 if code is DiagnosticCode.RULE_TEXT else 1)
    assert not any("Traceback" in line or "internal error" in line for line in out)


@pytest.mark.parametrize("code", sorted(DEEP))
def test_validate_deep_reports_the_code_and_prints_its_fix(capsys: pytest.CaptureFixture[str], code: str) -> None:
    path = ROOT / "tests" / "fixtures" / "nonsense" / DEEP[code]
    assert _validate(capsys, str(path))[0] == 0  # valid in name and type
    status, out = _validate(capsys, "--deep", str(path))
    assert status == 1 and any(line.endswith(f"[{code}]") for line in out), out
    assert f"[{code}] to fix: {ABOUT[DiagnosticCode(code)].fix}" in out, out
