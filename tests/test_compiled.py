"""The compiled engines: Cython builds of the runtime's engine and of every generated engine,
made by ``betspec build`` into the per-user cache, equal the Python engines step by step, and a
build whose source has changed since is never loaded.

The Python side runs in a child process with ``BETSPEC_PURE=1`` (every source as Python); both
play the same random hands, illegal attempts included, and write down after every step the
answers a bot reads, how the step was taken or refused (code, rule, message) and the hand's
snapshot. The two records must be equal. (The test command runs ``betspec build`` first; where
there is no C compiler these tests skip.)
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import random
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from betspec import compiled as loader
from betspec.runtime import compiled, engine_class
from tests.conftest import ROOT
from tests.test_engine import STRUCTURES, random_engine
from tests.test_paths_equal import answers, outcome, random_step

STEPS = 1500  # per structure


def record(structure: str, steps: int = STEPS) -> list[str]:
    """The same random hands as any other process draws, step by step, as JSON lines."""
    rng = random.Random(f"compiled-{structure}")
    lines: list[str] = []
    while len(lines) < steps:
        engine = random_engine(structure, random.Random(rng.random()))
        for _ in range(200):
            if engine.hand_over:
                break
            step = random_step(engine, rng)
            taken = outcome(engine, step)
            lines.append(json.dumps([step, taken, repr(answers(engine)), engine.snapshot()], sort_keys=True))
        if engine.hand_over and engine.to_act is None:
            paid = engine.settle([seat for seat in range(engine.seats) if not engine.folded[seat]])
            lines.append(json.dumps([list(paid.won), list(engine.stacks)]))
    return lines


@cache
def python_records() -> dict[str, list[str]]:
    """Every structure's record, played by the Python sources in a child process."""
    code = (
        "import json, sys; from tests.test_compiled import record; from tests.test_engine import STRUCTURES; "
        "json.dump({s: record(s) for s in STRUCTURES}, sys.stdout)"
    )
    env = {**os.environ, "BETSPEC_PURE": "1"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def _source(structure: str) -> Path:
    return ROOT / "generated" / f"{structure}.py"


def _built(module: str, source: Path) -> bool:
    return loader.build_path(module, source).is_file()


def test_a_build_is_loaded_exactly_while_its_source_is_the_one_built() -> None:
    runtime = ROOT / "generator" / "betspec" / "runtime" / "engine.py"
    runtime_built = _built("betspec.runtime.engine", runtime)
    if not runtime_built:
        pytest.skip("no compiled build here (betspec build: Cython and a C compiler)")
    for structure in STRUCTURES:
        cls = engine_class(structure)
        assert compiled(cls) == _built(f"betspec.engines.{structure}", _source(structure))


@pytest.mark.parametrize("structure", STRUCTURES)
def test_compiled_engine_equals_the_python_engine_step_by_step(structure: str) -> None:
    if not compiled(engine_class(structure)):
        pytest.skip(f"{structure} is not running compiled (no build, or its source changed since: reinstall)")
    mine, theirs = record(structure), python_records()[structure]
    assert len(mine) == len(theirs) >= STEPS
    for index, (a, b) in enumerate(zip(mine, theirs, strict=True)):
        assert a == b, f"step {index}: compiled {a[:400]} / python {b[:400]}"


def test_python_only_loads_every_source_as_python() -> None:
    code = (
        "import betspec.runtime.engine as e, betspec.engines.no_limit as m; "
        "from betspec.runtime import compiled; print(e.__file__, m.__file__, compiled(m.ENGINE))"
    )
    env = {**os.environ, "BETSPEC_PURE": "1"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    runtime, engine, flag = done.stdout.split()
    assert runtime.endswith("engine.py") and engine.endswith("no_limit.py") and flag == "False"


def _cache_with(tmp_path: Path, module: str, source: Path) -> Path:
    """A cache (under ``tmp_path``) holding a file where the build of ``module`` from ``source``
    goes: what the finder is to find, or pass over (``BETSPEC_CACHE`` set by the caller)."""
    built = loader.build_path(module, source)
    built.parent.mkdir(parents=True)
    built.write_bytes(b"")
    return built


def test_the_finder_loads_a_build_of_this_very_source_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BETSPEC_CACHE", str(tmp_path / "cache"))
    source = tmp_path / "mod.py"
    source.write_text("X = 1\n")
    built = _cache_with(tmp_path, "betspec.engines.mod", source)
    fresh = loader.FreshOnly(pure=False)
    spec = fresh.find_spec("betspec.engines.mod", [str(tmp_path)])
    assert spec is not None and spec.origin == str(built)  # the compiled build loads
    assert fresh.find_spec("pkg.mod", [str(tmp_path)]) is None  # not betspec's: not its business
    # A build beside the source (an older install's) is never what loads.
    (tmp_path / f"mod{loader.SUFFIX}").write_bytes(b"")
    source.write_text("X = 2\n")  # the source changed since the build: the source loads
    spec = fresh.find_spec("betspec.engines.mod", [str(tmp_path)])
    assert spec is not None and spec.origin == str(source)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    assert module.X == 2
    source.write_text("X = 1\n")  # the source it was built from again: the build again
    spec = fresh.find_spec("betspec.engines.mod", [str(tmp_path)])
    assert spec is not None and spec.origin == str(built)
    pure = loader.FreshOnly(pure=True)
    spec = pure.find_spec("betspec.engines.mod", [str(tmp_path)])
    assert spec is not None and spec.origin == str(source)


def test_the_key_is_the_source_and_for_a_kernel_its_declarations(tmp_path: Path) -> None:
    source = tmp_path / "kern.pyx"
    source.write_text("X = 1\n")
    first = loader.key("betspec.engines.kernels.kern", source)
    assert first == loader.key("betspec.engines.kernels.kern", source)
    assert first != loader.key("betspec.engines.kernels.other", source)  # the module's name counts
    source.write_text("X = 2\n")
    assert first != loader.key("betspec.engines.kernels.kern", source)


def test_the_finder_never_loads_a_kernel_built_from_another_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BETSPEC_CACHE", str(tmp_path / "cache"))
    source = tmp_path / "kern.pyx"
    source.write_text("X = 1\n")
    built = _cache_with(tmp_path, "betspec.engines.kernels.kern", source)
    spec = loader.FreshOnly(pure=False).find_spec("betspec.engines.kernels.kern", [str(tmp_path)])
    assert spec is not None and spec.origin == str(built)
    (tmp_path / f"kern{loader.SUFFIX}").write_bytes(b"")  # an older install's: never loaded
    source.write_text("X = 2\n")
    for finder, why in (
        (loader.FreshOnly(pure=False), "not compiled from its source"),
        (loader.FreshOnly(pure=True), "BETSPEC_PURE"),
    ):
        spec = finder.find_spec("betspec.engines.kernels.kern", [str(tmp_path)])
        assert spec is not None and spec.loader is not None
        with pytest.raises(ImportError, match=why):
            importlib.util.module_from_spec(spec)


def test_python_only_loads_no_kernel() -> None:
    code = "from betspec.runtime import fast_engine, has_kernel, engine_class; print(has_kernel('no_limit'), fast_engine('no_limit') is engine_class('no_limit'))"
    env = {**os.environ, "BETSPEC_PURE": "1"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]
