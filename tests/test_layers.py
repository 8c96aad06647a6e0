"""The layers import one another one way only, and nothing imports in a cycle.

vocabulary (words everyone shares) <- runtime (what engines run on) <- generated engines;
vocabulary <- model <- front end; model <- back ends, which may read the runtime's declared
contract and nothing else of it. Imports under ``if TYPE_CHECKING:`` are for the type checker
only and are not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

from betspec.runtime import engine_names
from tests.conftest import ROOT

PACKAGE = ROOT / "generator" / "betspec"


def module_name(path: Path) -> str:
    if path.is_relative_to(ROOT / "generated"):
        parts = ["betspec", "engines", *path.relative_to(ROOT / "generated").with_suffix("").parts]
    else:
        parts = ["betspec", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    paths = [*PACKAGE.rglob("*.py"), *(ROOT / "generated").glob("*.py")]
    return {module_name(path): path for path in paths}


def _runtime_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(path: Path, known: set[str]) -> set[str]:
    """The betspec modules ``path`` imports (anywhere in it, functions included)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _runtime_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                child = f"{node.module}.{alias.name}"
                found.add(child if child in known else node.module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text()))
    return {name for name in found if name.split(".")[0] == "betspec"}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(path, set(known)) & set(known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module, or a module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        on_stack.add(name)
        for other in sorted(edges.get(name, ())):
            if other not in index:
                connect(other)
                low[name] = min(low[name], low[other])
            elif other in on_stack:
                low[name] = min(low[name], index[other])
        if low[name] == index[name]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == name:
                    break
            if len(component) > 1 or name in edges.get(name, ()):
                found.append(sorted(component))

    for name in sorted(edges):
        if name not in index:
            connect(name)
    return found


def in_layer(name: str, *prefixes: str) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


NEUTRAL = ("betspec.vocabulary", "betspec.suggest")


def test_no_module_imports_in_a_cycle() -> None:
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"a"}}) == [["a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_vocabulary_imports_nothing_of_betspec() -> None:
    edges = graph()
    for name in NEUTRAL:
        assert edges[name] == set(), name


def test_the_runtime_imports_nothing_of_the_generator() -> None:
    for name, imported in graph().items():
        if in_layer(name, "betspec.runtime"):
            outside = {i for i in imported if not in_layer(i, "betspec.runtime", *NEUTRAL)}
            assert not outside, f"{name} imports {sorted(outside)}"


def test_the_front_end_and_the_model_import_neither_the_runtime_nor_a_back_end() -> None:
    for name, imported in graph().items():
        if in_layer(name, "betspec.frontend", "betspec.model", "betspec.diagnostics"):
            wrong = {i for i in imported if in_layer(i, "betspec.runtime", "betspec.backends")}
            assert not wrong, f"{name} imports {sorted(wrong)}"


#: The runtime's declared contract: what generated code may touch, the mechanisms' signatures and
#: the primitives' bodies the Python back end prints into engines.
CONTRACT = ("betspec.runtime.contract", "betspec.runtime.mechanisms", "betspec.runtime.primitives")


def test_back_ends_read_only_the_runtimes_declared_contract() -> None:
    for name, imported in graph().items():
        if in_layer(name, "betspec.backends"):
            wrong = {i for i in imported if in_layer(i, "betspec.runtime") and i not in CONTRACT}
            assert not wrong, f"{name} imports {sorted(wrong)}"


#: Who may import a tool (betspec.tools): the command line, the project (validate --deep), other
#: tools, and the names tools had before they moved there (each the moved module itself).
TOOL_USERS = ("betspec.tools", "betspec.cli", "betspec.project", "betspec.phh", "betspec.play", "betspec.simulate")


def test_no_layer_imports_a_tool() -> None:
    for name, imported in graph().items():
        if not in_layer(name, *TOOL_USERS):
            wrong = {i for i in imported if in_layer(i, "betspec.tools")}
            assert not wrong, f"{name} imports {sorted(wrong)}"


def test_the_engine_back_ends_share_the_plan_and_not_each_other() -> None:
    edges = graph()
    assert "betspec.backends.python" not in edges["betspec.backends.cython"]
    assert "betspec.backends.cython" not in edges["betspec.backends.python"]
    assert {"betspec.backends.plan", "betspec.backends.writer"} <= edges["betspec.backends.python"]
    assert {"betspec.backends.plan", "betspec.backends.writer"} <= edges["betspec.backends.cython"]
    assert {"betspec.backends.plan", "betspec.backends.writer"} <= edges["betspec.backends.typescript"]
    assert not {"betspec.backends.python", "betspec.backends.cython"} & edges["betspec.backends.typescript"]


def test_generated_engines_import_only_the_runtime() -> None:
    for name, imported in graph().items():
        if in_layer(name, "betspec.engines") and name != "betspec.engines":
            wrong = {i for i in imported if not in_layer(i, "betspec.runtime")}
            assert not wrong, f"{name} imports {sorted(wrong)}"


# ---- rules live in specs: the Python names no structure and no variant ------------------------

#: Words that name a structure or a forced-bet variant: rules a spec states, never Python. The
#: structures are the spec files' names; the variants are the forced bets of issue 10.
VARIANT_WORDS = ("straddle", "kill", "bomb", "mississippi", "burn")
#: Names other formats give their own fields (PHH's), which a converter must spell as they are.
FORMAT_WORDS = frozenset({"blinds_or_straddles"})


def _code_words(path: Path) -> set[str]:
    """The names and string literals of a module's code (its comments and docstrings left out:
    prose may mention a rule; code may not decide one)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    words: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.add(node.id.lower())
        elif isinstance(node, ast.Attribute):
            words.add(node.attr.lower())
        elif isinstance(node, ast.arg):
            words.add(node.arg.lower())
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            words.add(node.value.lower())
    return words


def test_no_structure_or_variant_is_named_in_the_generator_or_the_runtime() -> None:
    structures = engine_names()  # the concrete specs (an abstract base's name may be a plain word)
    modules = [p for p in (ROOT / "generator" / "betspec").rglob("*.py") if "engines" not in p.relative_to(ROOT).parts]
    assert len(modules) > 20
    found = [
        f"{path.relative_to(ROOT)}: {word[:80]!r}"
        for path in modules
        for word in sorted(_code_words(path))
        if word not in FORMAT_WORDS and any(w in word for w in (*structures, *VARIANT_WORDS))
    ]
    assert found == []


def test_the_word_finder_sees_code_and_skips_prose(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('"""A straddle."""\n# a kill\nx = "no_limit"\ndef f(bomb_pot): return bomb_pot\n')
    words = _code_words(module)
    assert "no_limit" in words and "bomb_pot" in words and "a straddle." not in words
