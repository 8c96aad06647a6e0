"""The runtime contract: generated modules import only what it exports, carry its ABI version and
refuse another; what the README shows a client writing runs."""

from __future__ import annotations

import ast
import importlib
import re
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from betspec.runtime import contract
from tests.conftest import ROOT

GENERATED = sorted(p for p in (ROOT / "generated").glob("*.py") if p.name != "__init__.py")


@pytest.mark.parametrize("path", GENERATED, ids=[p.stem for p in GENERATED])
def test_generated_modules_import_only_what_the_contract_exports(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("betspec"):
            exported = contract.EXPORTED.get(node.module, ())
            assert all(alias.name in exported for alias in node.names), (node.module, [a.name for a in node.names])
    assert f"ABI = {contract.ABI_VERSION}" in path.read_text()
    assert f"CONTRACT = {contract.CONTRACT!r}" in path.read_text()


def _engine_names() -> set[str]:
    """Every member Engine and Compiled have (methods, class variables, slots, annotations)."""
    from betspec.runtime.engine import Compiled, Engine

    names: set[str] = set()
    for cls in (*Engine.__mro__, *Compiled.__mro__):
        names |= set(vars(cls)) | set(getattr(cls, "__annotations__", {})) | set(getattr(cls, "__slots__", ()))
    return names


def undeclared_members(text: str) -> set[str]:
    """The members of the runtime's Engine that generated code ``text`` reads, calls or sets on a
    hand (``self``, ``m``) and the contract does not declare; a name the module's own classes
    define that Engine does not have (a spec's options and inputs, LAST_STREET) is its own."""
    tree = ast.parse(text)
    runtime = _engine_names()
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    own.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    own.add(item.target.id)
                elif isinstance(item, ast.Assign):
                    own |= {t.id for t in item.targets if isinstance(t, ast.Name)}
                    if any(isinstance(t, ast.Name) and t.id == "__slots__" for t in item.targets):
                        own |= {e.value for e in ast.walk(item.value) if isinstance(e, ast.Constant)}
    own -= runtime
    used = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("self", "m")
    }
    declared = set(contract.ENGINE_MEMBERS) | set(contract.ENGINE_HOOKS)
    return used - own - declared


@pytest.mark.parametrize("path", GENERATED, ids=[p.stem for p in GENERATED])
def test_generated_engines_touch_only_the_members_the_contract_declares(path: Path) -> None:
    assert undeclared_members(path.read_text()) == set()


def test_a_member_used_by_generated_code_and_not_declared_fails_the_contract() -> None:
    text = (ROOT / "generated" / "no_limit.py").read_text()
    assert "_dead_in" in _engine_names() and "_dead_in" not in contract.ENGINE_MEMBERS
    spoiled = text.replace(
        "def _all_in_to(self) -> int:\n", "def _all_in_to(self) -> int:\n        self._dead_in = []\n", 1
    )
    assert spoiled != text
    assert undeclared_members(spoiled) == {"_dead_in"}


def test_every_declared_member_is_the_runtimes() -> None:
    runtime = _engine_names()
    assert not (set(contract.ENGINE_MEMBERS) | set(contract.ENGINE_HOOKS)) - runtime
    assert len(set(contract.ENGINE_MEMBERS)) == len(contract.ENGINE_MEMBERS)
    assert not set(contract.ENGINE_MEMBERS) & set(contract.ENGINE_HOOKS)


_KERNEL_READS = re.compile(r"\b(?:self|m)\.(_\w+)")
_KERNEL_DEFINES = re.compile(r"^\s*cdef [\w ]+?\b(_\w+)\(self", re.MULTILINE)


@pytest.mark.parametrize("path", sorted((ROOT / "generated" / "kernels").glob("*.pyx")), ids=lambda p: p.stem)
def test_kernels_touch_only_the_members_the_kernel_contract_declares(path: Path) -> None:
    text = path.read_text()
    own = set(_KERNEL_DEFINES.findall(text))
    own |= {name for name in _KERNEL_READS.findall(text) if name.startswith(("_opt_", "_in_", "_dl_", "_role_", "_v_"))}
    assert set(_KERNEL_READS.findall(text)) - own - set(contract.KERNEL_MEMBERS) == set()
    runtime = (ROOT / "generator" / "betspec" / "runtime" / "kernel.pxd").read_text()
    for name in set(_KERNEL_READS.findall(text)) - own:
        assert re.search(rf"\b{name}\b", runtime), name


KERNELS = sorted((ROOT / "generated" / "kernels").glob("*.pyx"))
_IMPORTS = re.compile(r"^from (betspec[\w.]*) (c?import) (.+)$", re.MULTILINE)


@pytest.mark.parametrize("path", KERNELS, ids=[p.stem for p in KERNELS])
def test_kernels_import_only_what_the_kernel_contract_exports(path: Path) -> None:
    found = _IMPORTS.findall(path.read_text())
    assert found
    for module, kind, names in found:
        allowed = (contract.KERNEL_CIMPORTS if kind == "cimport" else contract.KERNEL_IMPORTS).get(module, ())
        assert all(name.strip() in allowed for name in names.split(",")), (module, names)


def test_the_kernel_runtime_declares_what_the_contract_exports() -> None:
    declared = (ROOT / "generator" / "betspec" / "runtime" / "kernel.pxd").read_text()
    for name in contract.KERNEL_CIMPORTS["betspec.runtime.kernel"]:
        assert re.search(rf"^(cdef class|ctypedef [\w ]+|cdef inline \S+) {name}\b", declared, re.MULTILINE), name
    source = (ROOT / "generator" / "betspec" / "runtime" / "kernel.pyx").read_text()
    for name in contract.KERNEL_IMPORTS["betspec.runtime.kernel"]:
        assert re.search(rf"^class {name}\b", source, re.MULTILINE), name


def test_an_engine_generated_for_another_abi_refuses_to_import(tmp_path: Path) -> None:
    stale = (
        (ROOT / "generated" / "no_limit.py")
        .read_text()
        .replace(f"ABI = {contract.ABI_VERSION}\n", f"ABI = {contract.ABI_VERSION + 1}\n")
    )
    (tmp_path / "old_engine.py").write_text(stale)
    code = "import old_engine"
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode != 0
    assert (
        f"old_engine was generated for betspec runtime ABI {contract.ABI_VERSION + 1}, "
        f"and this betspec runs ABI {contract.ABI_VERSION}"
    ) in done.stderr
    assert "regenerate it with `betspec generate`" in done.stderr


def test_the_abi_check_raises_an_import_error() -> None:
    with pytest.raises(ImportError, match="regenerate"):
        contract.require_abi(contract.ABI_VERSION + 1, "somewhere")
    contract.require_abi(contract.ABI_VERSION, "here")
    contract.require_abi(contract.ABI_VERSION, "here", contract.CONTRACT)


def test_the_abi_check_derives_from_the_declared_members(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine generated against other members (one renamed) refuses to load, the version unchanged."""
    recorded = contract.CONTRACT
    monkeypatch.setattr(
        contract, "ENGINE_MEMBERS", tuple("_post_bet" if n == "_post" else n for n in contract.ENGINE_MEMBERS)
    )
    assert contract._digest() != recorded
    monkeypatch.setattr(contract, "CONTRACT", contract._digest())
    with pytest.raises(ImportError, match=r"another betspec runtime contract.*regenerate"):
        contract.require_abi(contract.ABI_VERSION, "old_engine", recorded)


def test_every_generated_module_imports_cleanly_through_the_contract() -> None:
    for path in GENERATED:
        module = importlib.import_module(f"betspec.engines.{path.stem}")
        assert module.ABI == contract.ABI_VERSION


def test_the_example_client_runs() -> None:
    """docs/examples/client.py is what the README shows; mypy --strict checks it in the test command."""
    runpy.run_path(str(ROOT / "docs" / "examples" / "client.py"), run_name="client")


def test_the_readmes_engine_example_runs_as_written(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text()
    start = readme.index("## Using an engine")
    block = readme[readme.index("```python\n", start) + len("```python\n") : readme.index("```\n", start + 20)]
    (tmp_path / "readme_example.py").write_text(block)
    runpy.run_path(str(tmp_path / "readme_example.py"))
