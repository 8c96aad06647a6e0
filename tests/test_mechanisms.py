"""One signature per runtime mechanism: betspec/runtime/mechanisms.py declares each, and the
Python runtime, the kernels' runtime and the TypeScript runtime are read against it; generated
engines call each with the declared arguments; the contract's digest covers the signatures.
(``tsc --strict`` checks the TypeScript runtime against the interface printed from the same
declaration whenever the TypeScript engines are compiled: tests/test_typescript.py.)"""

from __future__ import annotations

import ast
import inspect
import re

import pytest

from betspec.runtime import contract, mechanisms
from betspec.runtime.engine import Engine
from betspec.runtime.mechanisms import KINDS, MECHANISMS, Mechanism
from tests.conftest import ROOT

RUNTIME = ROOT / "generator" / "betspec" / "runtime"


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(part.capitalize() for part in rest)


def _in(runtime: str) -> list[Mechanism]:
    return [m for m in MECHANISMS if runtime in m.runtimes]


@pytest.mark.parametrize("mechanism", _in("python"), ids=lambda m: m.name)
def test_the_python_runtime_takes_what_is_declared(mechanism: Mechanism) -> None:
    signature = inspect.signature(getattr(Engine, mechanism.name))
    params = list(signature.parameters.values())[1:]
    assert [(p.name, p.annotation) for p in params] == [(p.name, KINDS[p.kind].python) for p in mechanism.params]
    assert signature.return_annotation == KINDS[mechanism.returns].python


def _pxd_signatures() -> dict[str, tuple[str, list[tuple[str, str]]]]:
    found = {}
    text = (RUNTIME / "kernel.pxd").read_text()
    for result, name, params in re.findall(r"cdef (?:inline )?(\w+) (_\w+)\(self(?:, )?([^)]*)\)", text):
        pairs = [tuple(part.rsplit(" ", 1)) for part in params.split(", ") if part]
        found[name] = (result, [(pname, ptype) for ptype, pname in pairs])
    return found


@pytest.mark.parametrize("mechanism", _in("cython"), ids=lambda m: m.name)
def test_the_kernels_runtime_takes_what_is_declared(mechanism: Mechanism) -> None:
    result, params = _pxd_signatures()[mechanism.name]
    assert params == [(p.name, KINDS[p.kind].cython) for p in mechanism.params]
    assert result == KINDS[mechanism.returns].cython


@pytest.mark.parametrize("mechanism", _in("typescript"), ids=lambda m: m.name)
def test_the_typescript_runtime_takes_what_is_declared(mechanism: Mechanism) -> None:
    text = (RUNTIME / "typescript" / "runtime.ts").read_text()
    found = re.search(rf"^  {re.escape(mechanism.name)}\(([^)]*)\): ([^{{]+?) {{", text, re.MULTILINE)
    assert found is not None, mechanism.name
    params = [tuple(part.split(": ")) for part in found.group(1).split(", ") if part]
    assert params == [(_camel(p.name), KINDS[p.kind].typescript) for p in mechanism.params]
    assert found.group(2) == KINDS[mechanism.returns].typescript


def test_the_typescript_engine_is_checked_against_the_printed_interface() -> None:
    printed = (ROOT / "generated" / "typescript" / "src" / "mechanisms.ts").read_text()
    assert all(f"  {m.name}(" in printed for m in _in("typescript"))
    assert "export type CheckedEngine = Implements<Engine>;" in printed


def _calls(path_glob: str) -> list[tuple[str, ast.Call]]:
    found = []
    for path in sorted(ROOT.glob(path_glob)):
        for node in ast.walk(ast.parse(path.read_text())):
            called = node.func.attr if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) else ""
            if called in mechanisms.BY_NAME:
                found.append((f"{path.name}:{node.lineno}", node))
    return found


def test_generated_engines_call_each_mechanism_with_its_declared_arguments() -> None:
    calls = _calls("generated/*.py")
    assert "_post" in {call.func.attr for _, call in calls if isinstance(call.func, ast.Attribute)}
    for where, call in calls:
        assert isinstance(call.func, ast.Attribute)
        declared = [p.name for p in mechanisms.BY_NAME[call.func.attr].params]
        named = [k.arg for k in call.keywords]
        assert len(call.args) + len(named) == len(declared), where
        assert named == declared[len(call.args) :], where


def test_the_contract_digest_covers_the_signatures(monkeypatch: pytest.MonkeyPatch) -> None:
    before = contract._digest()
    post = mechanisms.BY_NAME["_post"]
    swapped = (post.params[1], post.params[0], *post.params[2:])
    changed = tuple(Mechanism(m.name, swapped, m.returns, m.does, m.runtimes) if m is post else m for m in MECHANISMS)
    monkeypatch.setattr(mechanisms, "MECHANISMS", changed)
    assert contract._digest() != before
    assert before == contract.CONTRACT


def test_a_call_names_every_argument_once() -> None:
    with pytest.raises(AssertionError):
        mechanisms.arguments("_put", {"seat": "0"})
    assert mechanisms.named_arguments("_put", {"amount": "5", "seat": "1"}) == ["1", "5"]
