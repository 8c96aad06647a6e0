"""Hostile and broken specs: validate and generate give a clean error or code that works.

Mutations of the real specs (any value replaced by another of any type, injection strings,
huge numbers, dunder names, deleted keys) and arbitrary JSON documents go through the front end;
whatever validates is generated, imported from a file and played for a hand. Never a traceback,
never a hang, never code that does anything at import but define itself.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from betspec.backends import dot, python
from betspec.cli import main
from betspec.diagnostics import Diagnostic
from betspec.frontend import load_spec
from betspec.runtime import BetspecError, Table
from tests.conftest import SPEC_DIR

HOSTILE_TEXT = [
    "__import__('os').system('touch PWNED')",
    "to ** 999999999",
    "stack.__class__.__mro__",
    "(lambda: 0)()",
    "[x for x in (1, 2)]",
    "__init__",
    "stack\nimport os",
    "'; import os; os.system('touch PWNED') #",
    '"""',
    "\\",
    "\u202ebidi\u0000nul",
    "é" * 3,
    "x" * 20_000,
    "",
    "min(" * 300,
    "1" * 5000,
]

VALUES = st.one_of(
    st.integers(-(10**30), 10**30),
    st.sampled_from(HOSTILE_TEXT),
    st.text(max_size=30),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.lists(st.integers(-5, 5), max_size=3),
    st.dictionaries(st.sampled_from(["type", "expr", "rule", "x", "__class__"]), st.integers(-3, 3), max_size=2),
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += paths(item, (*prefix, index))
    return found


def mutate(document: Any, rng: random.Random, replacement: Any) -> Any:
    where = rng.choice(paths(document)[1:])
    parent = document
    for token in where[:-1]:
        parent = parent[token]
    if rng.random() < 0.25 and isinstance(parent, dict):
        del parent[where[-1]]
    else:
        parent[where[-1]] = copy.deepcopy(replacement)  # never the same object twice: no cycles
    return document


def is_clean(found: list[Diagnostic]) -> bool:
    return all(isinstance(d, Diagnostic) and d.message and d.position.line >= 1 for d in found)


def generate_import_and_play(path: Path, tmp_path: Path, name: str) -> None:
    spec, found = load_spec(str(path))
    assert is_clean(found), found
    if spec is None or spec.abstract:
        return
    source = python.generate(spec, str(tmp_path))
    dot.to_dot(spec)  # the DOT back end takes the same model
    compile(source, str(path), "exec")
    module_path = tmp_path / f"{name}.py"
    module_path.write_text(source)
    module_spec = importlib.util.spec_from_file_location(f"fuzzed_{name}", module_path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(module)
    assert not (tmp_path / "PWNED").exists()
    try:
        engine = module.ENGINE(Table([200, 300, 400], 0, (1, 2), 0, (2, 4)))
        for _ in range(60):
            if engine.hand_over:
                break
            if engine.to_act is None:
                engine.deal({"preflop": "flop", "flop": "turn", "turn": "river"}[engine.street_name])
            else:
                engine.act(engine.to_act, engine.legal_actions()[0] if engine.legal_actions() else "fold")
    except (BetspecError, TypeError, ZeroDivisionError, RecursionError):
        # A spec may be valid and still describe a game nobody can play (its formulas are its
        # own); what matters is that nothing runs at import and no chip is created.
        pass
    sys.modules.pop(f"fuzzed_{name}", None)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    target=st.sampled_from(["betting_round", "no_limit", "pot_limit", "fixed_limit", "spread_limit"]),
    seed=st.integers(0, 2**32),
    replacement=VALUES,
    count=st.integers(1, 3),
)
def test_mutated_specs_validate_cleanly_and_generate_working_code(
    tmp_path_factory, target: str, seed: int, replacement: Any, count: int
) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    (folder / "spec").mkdir()
    for spec_file in SPEC_DIR.glob("*.json"):
        (folder / "spec" / spec_file.name).write_bytes(spec_file.read_bytes())
    rng = random.Random(seed)
    path = folder / "spec" / f"{target}.json"
    document = json.loads(path.read_text())
    for _ in range(count):
        document = mutate(document, rng, replacement)
    path.write_text(json.dumps(document))
    for name in ("no_limit", "pot_limit", "spread_limit", "fixed_limit", target):
        generate_import_and_play(folder / "spec" / f"{name}.json", folder, f"{name}_{seed}")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=30,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=JSON)
def test_arbitrary_json_is_a_clean_error(tmp_path_factory, document: Any) -> None:
    path = tmp_path_factory.mktemp("json") / "any.json"
    path.write_text(json.dumps(document))
    spec, found = load_spec(str(path))
    assert spec is None and found and is_clean(found)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=200))
def test_arbitrary_text_is_a_clean_error(tmp_path_factory, text: str) -> None:
    path = tmp_path_factory.mktemp("text") / "any.json"
    path.write_text(text, encoding="utf-8")
    spec, found = load_spec(str(path))
    assert spec is None and found and is_clean(found)


def test_binary_and_unreadable_files_are_clean_errors(tmp_path: Path, capsys) -> None:
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00garbage")
    (tmp_path / "folder.json").mkdir()
    for name in ("binary.json", "folder.json", "missing.json"):
        assert main(["validate", str(tmp_path / name)]) == 1
    out = capsys.readouterr().out
    assert "internal error" not in out and "Traceback" not in out
    assert "not UTF-8" in out and "cannot read" in out


def test_ten_megabytes_is_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"rules": {' + ",".join(f'"R{i}": {{"text": "t", "source": "s"}}' for i in range(270_000)) + "}}")
    assert path.stat().st_size > 10_000_000
    spec, found = load_spec(str(path))
    assert spec is None and "a spec is at most" in found[0].message
