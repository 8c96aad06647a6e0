"""A spec that validates always generates code that imports (issue 18).

Specs extending a shipped one are given fuzzed names (options, inputs, deal inputs, quantities,
roles, street values, events, states) and texts (titles, labels, meanings, rule texts, messages:
NUL, surrogates, quotes, backslashes, triple quotes, braces, newlines, any Unicode), and go through
validate -> generate (every back end, as ``betspec --root DIR generate`` does) -> import: either
the spec is refused with coded diagnostics naming where, or the generated module compiles,
imports and builds an engine that plays. The cases found by hand are written out too: names
that clashed with generated parameters or runtime functions, an action redeclared without
effects, and an automatic event after the round's end, which both engines must take.
"""

from __future__ import annotations

import builtins
import importlib.util
import inspect
import json
import keyword
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from betspec import vocabulary
from betspec.backends import cython as kernel_backend
from betspec.backends import python as python_backend
from betspec.cli import main
from betspec.diagnostics import Diagnostic
from betspec.frontend import characters, load_spec
from betspec.model import Spec
from betspec.project import Project, outputs
from betspec.runtime import Engine, Table, contract

BASE = "no_limit.json"
#: Every code a refused spec may be reported with: the front end's, never an internal error.
CODES = {
    "abstract",
    "constant-guard",
    "cycle",
    "duplicate-key",
    "duplicate-name",
    "duplicate-transition",
    "extends",
    "io",
    "json",
    "missing",
    "name",
    "order",
    "params",
    "remove",
    "reserved-name",
    "schema",
    "scope",
    "syntax",
    "text",
    "type",
    "unknown-action",
    "unknown-name",
    "unknown-primitive",
    "unknown-rule",
    "unknown-variable",
    "unreachable",
    "unused",
}

TRICKY_NAMES = sorted(
    {
        # the generated code's own parameters and locals, the runtime's functions
        *("self", "cls", "table", "start", "street", "stacks", "button", "seat", "to", "given", "value"),
        *("name", "m", "ev", "state", "step", "level", "low", "actor", "cast", "int_option", "bool_option"),
        *("choice_option", "optional_int_option", "int_input", "seat_input", "require_abi", "ceil_to"),
        *("engine", "model", "args", "kwargs", "options", "inputs", "result", "new_raises", "can_bet"),
        # Python's keywords and a few builtins, the diagrams' keywords
        *(name for name in keyword.kwlist if name.islower()),
        *("match", "case", "type", "int", "bool", "len", "sum", "range", "min", "round", "input", "print"),
        *("node", "edge", "graph", "digraph", "subgraph", "strict", "end", "legend", "note", "direction"),
        *("cluster_round", "hand_start", "street_any", "default", "style", "classdef", "click", "fork"),
        # names that are fine
        *("house_cap", "x", "a1", "q_", "x__", "seats_left_"),
    }
)
TRICKY_TEXTS = [
    "\x00",
    "a\x00b",
    "\ud800",
    "lone \udfff low",
    '"""',
    "'''",
    '"',
    "'",
    "\\",
    "\\x00 \\n \\N{BULLET}",
    "{x} {{y}} {0!r}",
    "line\nimport os\nos.system('touch PWNED')",
    "#",
    "x\n#",
    "\r",
    "\x1b[31mred",
    "\x7f",
    "\u2028\u2029\x85",
    "tab\there",
    "é ü 中文 🂡 \u202e",
    "</script><b>&amp;</b>",
    "]]> --> *)",
    'label="x"] ; node [shape=box',
    "%% end\nstate x",
    "a" * 300,
]
names = st.one_of(st.sampled_from(TRICKY_NAMES), st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True))
texts = st.one_of(
    st.sampled_from(TRICKY_TEXTS),
    st.text(max_size=40),
    st.text(st.characters(categories=["Cc", "Cs", "Zl", "Zp", "Po", "So"]), max_size=8),
)


def spec_document(name: str, text: str, entry: str = "n") -> dict[str, Any]:
    """A spec extending no limit: ``name`` given to an option, an input, a deal input, a quantity,
    a role, a street value, an automatic event and a state; ``text`` to every kind of text."""
    meaning = {"meaning": text, "rule": "NEW"}
    return {
        "spec_version": 1,
        "name": entry,
        "title": text or "t",
        "description": text,
        "extends": BASE,
        "rules": {"NEW": {"text": text, "source": text}},
        "options": {f"{name}": {"type": "int", "default": 1, "minimum": 1, **meaning}},
        "inputs": {f"{name}_i": {"type": "int", "default": 0, **meaning}},
        "deal_inputs": {f"{name}_d": {"type": "int", "default": 0, **meaning}},
        "roles": {f"{name}_r": {"expr": "button", **meaning}},
        "street_values": {f"{name}_v": {"type": "int", "default": 1, **meaning}},
        "quantities": {
            f"{name}_q": {
                "type": "int",
                "expr": "max(pot, pot + 1, pot + 2, pot + 3, pot + 4, pot + 5, pot + 6, pot + 7)",
                **meaning,
            }
        },
        "checks": [{"expr": f"{name} >= 1", "message": text or "m", "rule": "NEW"}],
        "states": {f"{name}_s": {"phase": "settled", "label": text}, "complete": {"phase": "complete", "label": text}},
        "events": {f"{name}_e": {"kind": "automatic"}},
        "transitions": [
            {
                "event": f"{name}_e",
                "source": "showdown",
                "dest": f"{name}_s",
                "guard": f"pot < 0 and {name}_q > {name}_v + {name}_i + {name}_d",
                "rule": "NEW",
            }
        ],
    }


def is_clean(found: list[Diagnostic]) -> bool:
    """Refused with coded diagnostics, each naming where, none an internal error."""
    return bool(found) and all(
        d.code in CODES and d.message and "internal error" not in d.message and d.position.line >= 1 for d in found
    )


def write(root: Path, document: dict[str, Any]) -> Path:
    path = root / "spec" / f"{document['name']}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def import_module(path: Path, name: str) -> Any:
    found = importlib.util.spec_from_file_location(name, path)
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    sys.modules[name] = module
    try:
        found.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def engines(module: Any) -> list[type[Engine]]:
    return [
        value
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, Engine) and value.__module__ == module.__name__
    ]


def play(cls: type[Engine], options: dict[str, Any] | None = None, inputs: dict[str, Any] | None = None) -> Engine:
    """A hand played to its end, checking and calling: every engine class must get there."""
    engine = cls(cls.example_table([100, 100, 100], 0, **(inputs or {})), **(options or {}))
    for _ in range(200):
        if engine.hand_over:
            break
        if engine.to_act is None:
            assert engine.next_street is not None, "neither a seat to act nor a street to deal"
            engine.deal(engine.next_street)
            continue
        legal = engine.legal_actions()
        getattr(engine, "check" if "check" in legal else "call")(engine.to_act)
    assert engine.hand_over
    assert sum(engine.stacks) + engine.pot == 300
    return engine


def generate_everything(root: Path, spec: Spec) -> dict[str, str]:
    """Every back end's files, as ``betspec generate`` writes them; each text is valid UTF-8."""
    files = outputs(Project(str(root)), [spec])
    for path, text in files.items():
        text.encode("utf-8")  # a lone surrogate would fail here, as writing the file would
        assert "\x00" not in text, path
    return files


def validate_generate_import(root: Path, document: dict[str, Any], module_name: str) -> Any | None:
    """The fuzz's property: refused cleanly, or generated, compiled and imported; the module."""
    path = write(root, document)
    spec, found = load_spec(str(path))
    if spec is None:
        assert is_clean(found), [str(d) for d in found]
        return None
    assert found == []
    files = generate_everything(root, spec)
    source = files[str(root / "generated" / f"{spec.name}.py")]
    compile(source, f"{spec.name}.py", "exec")
    module_path = root / f"{module_name}.py"
    module_path.write_text(source, encoding="utf-8")
    return import_module(module_path, module_name)


# ---- the fuzz -----------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=names, text=texts)
def test_fuzzed_names_and_texts_are_refused_or_generate_code_that_imports(
    tmp_path_factory: pytest.TempPathFactory, name: str, text: str
) -> None:
    root = tmp_path_factory.mktemp("fuzz")
    module = validate_generate_import(root, spec_document(name, text), "fuzzed_spec_module")
    event("refused" if module is None else "generated")
    if module is None:
        return
    for cls in engines(module):
        play(cls, {name: 1}, {f"{name}_i": 0})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=names, which=st.integers(0, 5))
# A state named as the base's initial one: the base fails at its top-level "initial" (the message
# naming it crashed on a pointer with no entry name).
@example(name="hand_start", which=0)
def test_a_name_is_refused_or_works_in_each_section(
    tmp_path_factory: pytest.TempPathFactory, name: str, which: int
) -> None:
    """A name, bare (no suffix), in one section and as an event and a state: refused with a
    code, or it works."""
    document: dict[str, Any] = {
        "spec_version": 1,
        "name": "n",
        "title": "t",
        "extends": BASE,
        "rules": {"NEW": {"text": "t", "source": "s"}},
    }
    meaning = {"meaning": "m", "rule": "NEW"}
    section, entry = [
        ("options", {"type": "int", "default": 1, **meaning}),
        ("inputs", {"type": "int", "default": 0, **meaning}),
        ("deal_inputs", {"type": "int", "default": 0, **meaning}),
        ("roles", {"expr": "button", **meaning}),
        ("street_values", {"type": "int", "default": 1, **meaning}),
        ("quantities", {"type": "int", "expr": "pot + 1", **meaning}),
    ][which]
    document[section] = {name: entry}
    document["events"] = {f"{name}": {"kind": "automatic"}} if name not in vocabulary.ACTIONS else {}
    document["states"] = {name: {"phase": "settled", "label": "l"}}
    document["transitions"] = [
        {"event": name if name not in vocabulary.ACTIONS else "end_round", "source": "showdown", "dest": name}
        | {"guard": "pot < 0", "rule": "NEW"}
    ]
    root = tmp_path_factory.mktemp("names")
    path = write(root, document)
    spec, found = load_spec(str(path))
    if spec is None:
        assert is_clean(found), [str(d) for d in found]
        event(f"refused: {sorted({d.code for d in found})}")
        return
    event("generated")
    source = python_backend.generate(spec, str(root))
    module_path = root / "named_spec_module.py"
    module_path.write_text(source, encoding="utf-8")
    module = import_module(module_path, "named_spec_module")
    for cls in engines(module):
        given = {"options": ({name: 1}, {}), "inputs": ({}, {name: 0})}.get(section, ({}, {}))
        engine = play(cls, *given)
        if section == "deal_inputs":
            fresh = cls(cls.example_table([100, 100], 0))
            fresh.call(fresh.to_act)
            fresh.check(fresh.to_act)
            fresh.deal(fresh.next_street, **{name: 0})
        assert engine.hand_over


# ---- names: each clash found by hand, refused with a code and a suggestion --------------------


@pytest.mark.parametrize(
    ("section", "name"),
    [
        ("options", "self"),
        ("options", "table"),
        ("options", "start"),
        ("options", "cls"),
        ("options", "cast"),
        ("options", "int_option"),
        ("inputs", "self"),
        ("inputs", "cls"),
        ("deal_inputs", "self"),
        ("deal_inputs", "cls"),
        ("quantities", "class"),
        ("roles", "sum"),
        ("street_values", "len"),
        ("options", "round"),
    ],
)
def test_names_that_would_clash_in_generated_code_are_reserved(tmp_path: Path, section: str, name: str) -> None:
    meaning = {"meaning": "m", "rule": "NEW"}
    entry = {"roles": {"expr": "button", **meaning}, "quantities": {"type": "int", "expr": "pot", **meaning}}.get(
        section, {"type": "int", "default": 1, **meaning}
    )
    document = {
        "spec_version": 1,
        "name": "clash",
        "title": "t",
        "extends": BASE,
        "rules": {"NEW": {"text": "t", "source": "s"}},
        section: {name: entry},
    }
    spec, found = load_spec(str(write(tmp_path, document)))
    assert spec is None and is_clean(found)
    (problem,) = found
    assert problem.code == "reserved-name" and problem.pointer == f"/{section}/{name}"
    assert f"{name!r} is reserved" in problem.message and "(try '" in problem.message
    assert problem.position.line == 1 and problem.position.column > 1


def test_the_reserved_names_are_what_the_generated_code_and_the_runtime_take() -> None:
    """The vocabulary's lists agree with the runtime's signatures and the generated code's calls,
    so that a name the generated code takes beside a spec's is never left free."""
    reserved = vocabulary.RESERVED_IDENTIFIERS

    def parameters(function: Any) -> set[str]:
        found = inspect.signature(function).parameters.values()
        return {p.name for p in found if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}

    assert parameters(Engine.__init__) | {"self", "cls"} == set(vocabulary.PARAMETERS["options"])
    assert parameters(Engine.example_table.__func__) | {"self"} <= set(vocabulary.PARAMETERS["inputs"])  # type: ignore[attr-defined]
    assert parameters(Table.__init__) - {"blinds"} <= set(vocabulary.PARAMETERS["inputs"])
    assert parameters(Engine.deal) == set(vocabulary.PARAMETERS["deal_inputs"])
    exported = {name for names in contract.EXPORTED.values() for name in names}
    assert set(vocabulary.OPTION_CHECKS.values()) <= exported
    assert {name for name in dir(builtins) if name[:1].islower()} <= reserved
    assert set(keyword.kwlist) <= reserved
    # The attributes a generated class keeps a spec's names in are its own: the runtime has none.
    for prefix in ("_opt_", "_in_", "_role_", "_dl_", "q_", "when_", "do_", "on_"):
        assert not [name for name in dir(Engine) if name.startswith(prefix)], prefix
    # The generated constructor calls these beside its options: reserved, or the option hides them.
    source = (Path(python_backend.__file__).parents[3] / "generated" / "no_limit.py").read_text()
    assert f"{vocabulary.OPTION_CAST}(" in source and all(
        f"{check}(" in source for check in ("int_option", "bool_option")
    )


def test_a_shipped_spec_uses_no_reserved_name() -> None:
    spec_dir = Path(python_backend.__file__).parents[3] / "spec"
    for path in sorted(spec_dir.glob("*.json")):
        spec, found = load_spec(str(path))
        assert spec is not None and found == [], path


# ---- texts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["\x00", "a\x00b", "\ud800", "x\udc00", "\r", "\x1b[0m", "\x7f", "\x9b"])
@pytest.mark.parametrize(
    ("where", "pointer"),
    [
        ({"title": "{}"}, "/title"),
        ({"rules": {"NEW": {"text": "{}", "source": "s"}}}, "/rules/NEW/text"),
        ({"states": {"complete": {"phase": "complete", "label": "{}"}}}, "/states/complete/label"),
        ({"options": {"o": {"type": "int", "default": 1, "meaning": "{}", "rule": "CAP"}}}, "/options/o/meaning"),
        (
            {"street_values": {"v": {"type": "int", "default": 1, "meaning": "{}", "rule": "CAP"}}},
            "/street_values/v/meaning",
        ),
    ],
)
def test_control_characters_and_lone_surrogates_are_refused_where_they_are(
    tmp_path: Path, bad: str, where: dict[str, Any], pointer: str
) -> None:
    document = {"spec_version": 1, "name": "texts", "title": "t", "extends": BASE}
    document.update(json.loads(json.dumps(where).replace("{}", json.dumps(bad)[1:-1])))
    path = write(tmp_path, document)
    spec, found = load_spec(str(path))
    assert spec is None and is_clean(found)
    problems = [d for d in found if d.code == "text"]
    assert [d.pointer for d in problems] == [pointer]
    refused = next(ch for ch in bad if characters.problem(ch) is not None)
    assert f"U+{ord(refused):04X}" in problems[0].message
    assert problems[0].position.line == 1 and problems[0].position.column > 1


def test_newlines_tabs_quotes_and_braces_generate_inert_code(tmp_path: Path) -> None:
    """Allowed text that is code in Python, DOT, Mermaid or HTML stays data in every output: a
    newline in a meaning printed as a comment once ran the line after it."""
    text = "x\nraise SystemExit('INJECTED')\n# \"\"\" ''' {0} \\ </script> \t é"
    document = spec_document("house_cap", text, "inert")
    module = validate_generate_import(tmp_path, document, "inert_spec_module")
    assert module is not None
    for cls in engines(module):
        play(cls)
    assert module.RULES["NEW"] == (text, text)


# ---- empty bodies and the automatic events, in both back ends --------------------------------

NO_RIVER_BETTING = {
    "spec_version": 1,
    "name": "no_river_betting",
    "title": "No betting on the river",
    "description": "No limit, but the hand goes to showdown when the river is dealt.",
    "extends": BASE,
    "rules": {"NO-RIVER": {"text": "No betting on the river: the hand is shown down.", "source": "a test"}},
    "events": {"skip_river": {"kind": "automatic"}},
    "transitions": [
        {
            "event": "skip_river",
            "source": "unopened",
            "dest": "showdown",
            "guard": "street == last_street",
            "rule": "NO-RIVER",
            "effects": ["close_round()"],
        }
    ],
}


def _cython(source: str, folder: Path) -> None:
    """The kernel's source through Cython (translated, not compiled): skipped where there is none."""
    cython = shutil.which("cython", path=str(Path(sys.executable).parent))
    if cython is None:
        pytest.skip("Cython is not installed here")
    pyx = folder / "kernel_probe.pyx"
    pyx.write_text(source, encoding="utf-8")
    include = Path(kernel_backend.__file__).parents[2]
    done = subprocess.run(
        [cython, "-3", "-I", str(include), str(pyx), "-o", str(folder / "kernel_probe.c")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_automatic_event_after_the_round_end_is_taken_by_both_engines(tmp_path: Path) -> None:
    module = validate_generate_import(tmp_path, NO_RIVER_BETTING, "no_river_betting_module")
    assert module is not None
    compiled, machine = module.NoRiverBetting, module.NoRiverBettingMachine
    for cls in (compiled, machine):
        engine = cls(cls.example_table([100, 100, 100], 0))
        while not engine.round_over:
            getattr(engine, "check" if "check" in engine.legal_actions() else "call")(engine.to_act)
        for street in ("flop", "turn"):
            engine.deal(street)
            assert engine.legal_actions(), (cls.__name__, street)
            while not engine.round_over:
                engine.check(engine.to_act)
        engine.deal("river")
        assert engine.hand_over and engine.legal_actions() == () and engine.state.value == "showdown", cls.__name__
    # The kernel's _settle tries the event in the same branch as end_round's, after them.
    spec, _ = load_spec(str(tmp_path / "spec" / "no_river_betting.json"))
    assert spec is not None
    kernel = kernel_backend.generate(spec, str(tmp_path))
    settle = kernel[kernel.index("cdef int _settle(self)") :]
    settle = settle[: settle.index("\n    cdef ")]
    branch = settle[settle.index("if state == S_UNOPENED") :]
    branch = branch[: branch.index("elif")]
    assert "LAST_STREET" in branch.split("return 0")[0] or "street" in branch
    assert branch.count("self._state = S_SHOWDOWN") == 2  # end_round's, then skip_river's
    _cython(kernel, tmp_path)


def test_an_action_redeclared_without_effects_generates_code_that_imports(tmp_path: Path) -> None:
    """Redeclaring ``call`` drops the base's effects: its step does nothing, and prints ``pass``."""
    document = {
        "spec_version": 1,
        "name": "quiet_call",
        "title": "A call that does nothing",
        "extends": BASE,
        "events": {"call": {"kind": "action"}},
    }
    module = validate_generate_import(tmp_path, document, "quiet_call_module")
    assert module is not None
    for cls in engines(module):
        engine = cls(cls.example_table([100, 100, 100], 0))
        seat = engine.to_act
        engine.call(seat)  # does nothing: the seat is still to act
        assert engine.to_act == seat and sum(engine.stacks) + engine.pot == 300
    spec, _ = load_spec(str(tmp_path / "spec" / "quiet_call.json"))
    assert spec is not None
    _cython(kernel_backend.generate(spec, str(tmp_path)), tmp_path)


def test_the_cli_generates_and_the_modules_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, NO_RIVER_BETTING)
    write(tmp_path, spec_document("house_cap", "quotes \"'\\ {braces} \n newline", "house"))
    assert main(["--root", str(tmp_path), "generate"]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out and "internal error" not in out
    for name in ("no_river_betting", "house"):
        module = import_module(tmp_path / "generated" / f"{name}.py", f"cli_{name}_module")
        assert engines(module)
