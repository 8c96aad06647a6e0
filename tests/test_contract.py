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
