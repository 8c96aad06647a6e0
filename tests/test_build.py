"""``betspec build`` and the build cache: what is compiled, once per source, where, and what
happens where nothing can be.

Each test has a cache of its own (``BETSPEC_CACHE`` under ``tmp_path``); a module is compiled
for real (Cython, then the C compiler) where one is present. A small module stands in for an
engine where only the cache's behaviour is tested; a kernel's first use compiles a real kernel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import threading
from pathlib import Path

import pytest

from betspec import build, compiled
from betspec.cli import main
from tests.conftest import ROOT

COMPILER = shutil.which(os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "cc").split()[0])
needs_compiler = pytest.mark.skipif(COMPILER is None, reason="no C compiler here")

#: Imports the small module as betspec compiles it (an engine of a house at DIR) and says how it ran.
SHOW = (
    "import sys, betspec.engines as e; e.__path__.append(sys.argv[1]); import betspec.engines.tiny as t; "
    "print(t.__file__.endswith('.py'), t.answer())"
)


def _run(code: str, cache: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("BETSPEC_COMPILE", "BETSPEC_PURE", "CC")}
    environment.update(BETSPEC_CACHE=str(cache), **env)
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600
    )


def _tiny(folder: Path, answer: int) -> Path:
    folder.mkdir(exist_ok=True)
    source = folder / "tiny.py"
    source.write_text(f"def answer() -> int:\n    return {answer}\n")
    return source


def test_a_structure_is_its_engine_and_kernel_with_the_runtime_they_need() -> None:
    chosen = {t.module: t.source for t in build.targets(["no_limit"])}
    assert set(chosen) == {*compiled.RUNTIME, "betspec.engines.no_limit", "betspec.engines.kernels.no_limit"}
    assert chosen["betspec.engines.no_limit"].name == "no_limit.py"
    assert chosen["betspec.engines.kernels.no_limit"].name == "no_limit.pyx"
    kernels = {t.module for t in build.targets(["pot_limit"], engines=False)}
    assert kernels == {"betspec.runtime.kernel", "betspec.engines.kernels.pot_limit"}
    by_path = build.targets([ROOT / "generated" / "kernels" / "razz.pyx"])
    assert [t.module for t in by_path] == ["betspec.runtime.kernel", "betspec.engines.kernels.razz"]
    everything = {t.module for t in build.targets(root=ROOT)}
    assert {f"betspec.engines.kernels.{p.stem}" for p in (ROOT / "generated" / "kernels").glob("*.pyx")} <= everything


def test_a_house_structure_is_found_in_its_generated_folder(tmp_path: Path) -> None:
    (tmp_path / "generated" / "kernels").mkdir(parents=True)
    (tmp_path / "generated" / "house_nl.py").write_text("X = 1\n")
    (tmp_path / "generated" / "kernels" / "house_nl.pyx").write_text("X = 1\n")
    chosen = {t.module: t.source for t in build.targets(root=tmp_path)}
    assert chosen["betspec.engines.house_nl"] == tmp_path / "generated" / "house_nl.py"
    assert chosen["betspec.engines.kernels.house_nl"] == tmp_path / "generated" / "kernels" / "house_nl.pyx"


def test_what_names_nothing_is_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(build.BuildError, match="no generated engine or kernel named 'nothing_here'"):
        build.targets(["nothing_here"])
    with pytest.raises(build.BuildError, match="not a module betspec compiles"):
        build.targets(["json.decoder"])
    assert main(["build", "nothing_here", "also/missing.pyx"]) == 2
    out = capsys.readouterr().out
    assert out.startswith("betspec build: ") and out.count("\n") == 1 and "Traceback" not in out


@needs_compiler
def test_a_build_is_cached_by_its_source_and_a_changed_source_is_built_again(tmp_path: Path) -> None:
    cache, house = tmp_path / "cache", tmp_path / "generated"
    source = _tiny(house, 1)
    run = "import sys; from betspec import build; r = build.build_targets([build.Target('betspec.engines.tiny', __import__('pathlib').Path(sys.argv[1]))], progress=print); print([o.status for o in r.outcomes])"
    first = _run(run, cache, str(source))
    assert first.returncode == 0, first.stderr
    assert "compiling the tiny engine" in first.stdout and "['built']" in first.stdout
    shown = _run(SHOW, cache, str(house))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.split() == ["False", "1"]  # the build, from the cache
    again = _run(run, cache, str(source))
    assert "['cached']" in again.stdout and "already compiled" in again.stdout
    _tiny(house, 2)  # the source changes: its Python runs, never the old build
    assert _run(SHOW, cache, str(house)).stdout.split() == ["True", "2"]
    rebuilt = _run(run, cache, str(source))
    assert "['built']" in rebuilt.stdout
    assert _run(SHOW, cache, str(house)).stdout.split() == ["False", "2"]
    assert _run(SHOW, cache, str(house), BETSPEC_PURE="1").stdout.split() == ["True", "2"]
    # Both builds are kept, each under its own source's key.
    assert len(list((cache / compiled.cache().name).glob(f"*/tiny{compiled.SUFFIX}"))) == 2


@needs_compiler
def test_two_processes_building_one_module_compile_it_once(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    source = _tiny(tmp_path / "generated", 3)
    run = "import sys; from betspec import build; r = build.build_targets([build.Target('betspec.engines.tiny', __import__('pathlib').Path(sys.argv[1]))]); print(r.outcomes[0].status)"
    results: list[str] = []

    def one() -> None:
        done = _run(run, cache, str(source))
        results.append(done.stdout.strip() or done.stderr)

    threads = [threading.Thread(target=one) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["built", "cached"]


def test_no_compiler_says_so_once_and_python_plays(tmp_path: Path) -> None:
    code = (
        "import random; from betspec.runtime import has_kernel, fast_engine, engine_class, play_hands, Policy; "
        "from betspec.tools.simulate import random_table; "
        "print(has_kernel('no_limit'), has_kernel('no_limit'), has_kernel('pot_limit'), "
        "fast_engine('no_limit') is engine_class('no_limit')); rng = random.Random(1); "
        "print(play_hands(engine_class('no_limit'), [random_table('no_limit', rng) for _ in range(50)], "
        "Policy({'fold': 1, 'check': 2, 'call': 2, 'bet': 1, 'raise': 1}), rng).hands)"
    )
    done = _run(code, tmp_path / "cache", CC="false", BETSPEC_COMPILE="1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False", "False", "True", "50"]
    said = [line for line in done.stderr.splitlines() if "no working C compiler" in line]
    assert len(said) == 1 and "the Python engines run" in said[0], done.stderr
    assert "Traceback" not in done.stderr
    assert not list((tmp_path / "cache").glob(f"*/*/*{compiled.SUFFIX}"))  # nothing was built


def test_betspec_build_without_a_compiler_says_so_and_succeeds(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "betspec.cli", "build", "--kernels", "no_limit"],
        cwd=ROOT,
        env={**os.environ, "BETSPEC_CACHE": str(tmp_path / "cache"), "CC": "false"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("betspec: compiling the kernels' runtime, the no_limit kernel")
    assert "no working C compiler" in lines[-1] and "nothing compiled" in lines[-1]
    assert "Traceback" not in done.stdout + done.stderr


def test_betspec_build_without_the_compile_extra_says_how_to_install_it(tmp_path: Path) -> None:
    # A plain install has no Cython (it comes with `betspec[compile]`): here one that cannot load.
    fake = tmp_path / "site" / "Cython"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('not installed', name='Cython')\n")
    done = subprocess.run(
        [sys.executable, "-m", "betspec.cli", "build", "--kernels", "no_limit"],
        cwd=ROOT,
        env={**os.environ, "BETSPEC_CACHE": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path / "site")},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    last = done.stdout.splitlines()[-1]
    assert "Cython is not installed (pip install 'betspec[compile]')" in last and "nothing compiled" in last, last
    assert "Traceback" not in done.stdout + done.stderr
    assert not list((tmp_path / "cache").glob(f"*/*/*{compiled.SUFFIX}"))


def test_a_kernel_not_compiled_is_said_once_off_a_terminal(tmp_path: Path) -> None:
    code = "from betspec.runtime import has_kernel; print(has_kernel('no_limit'), has_kernel('pot_limit'))"
    done = _run(code, tmp_path / "cache")
    assert done.returncode == 0 and done.stdout.split() == ["False", "False"], done.stderr
    assert done.stderr.count("betspec: ") == 1 and "betspec build" in done.stderr
    assert "the no_limit kernel is not compiled here" in done.stderr
    for quiet in ({"BETSPEC_COMPILE": "0"}, {"BETSPEC_PURE": "1"}):
        done = _run(code, tmp_path / "cache", **quiet)
        assert done.stdout.split() == ["False", "False"] and done.stderr == "", quiet


@needs_compiler
def test_a_kernel_is_compiled_on_first_use_with_its_progress_said(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    # The kernels' runtime from this machine's cache, where it is there (the test compiles one kernel).
    runtime = build.Target("betspec.runtime.kernel", ROOT / "generator" / "betspec" / "runtime" / "kernel.pyx")
    made = compiled.build_path(runtime.module, runtime.source)
    if made.is_file():
        copied = cache / compiled.cache().name / made.parent.name / made.name
        copied.parent.mkdir(parents=True)
        shutil.copy(made, copied)
    code = (
        "from betspec.runtime import has_kernel, fast_engine, engine_class; import sys; "
        "print(has_kernel('fixed_limit'), fast_engine('fixed_limit') is not engine_class('fixed_limit'), "
        "sys.modules['betspec.engines.kernels.fixed_limit'].__file__.startswith(sys.argv[1]))"
    )
    done = _run(code, cache, str(cache), BETSPEC_COMPILE="1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True"]
    assert "betspec: compiling " in done.stderr and "the fixed_limit kernel" in done.stderr
    assert "compiled 1 module(s)" in done.stderr or "compiled 2 module(s)" in done.stderr
    again = _run(code, cache, str(cache), BETSPEC_COMPILE="1")  # cached: nothing said, nothing compiled
    assert again.stdout.split() == ["True", "True", "True"] and again.stderr == "", again.stdout + again.stderr


@needs_compiler
def test_a_user_waiting_on_the_compiler_sees_it_going_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BETSPEC_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(build, "HEARTBEAT", 0.2)
    said: list[str] = []
    source = _tiny(tmp_path / "generated", 4)
    report = build.build_targets([build.Target("betspec.engines.tiny", source)], progress=said.append)
    assert report.ok and [o.status for o in report.outcomes] == ["built"]
    assert said[0].startswith("betspec: compiling the tiny engine with Cython and the C compiler, once (about ")
    assert any(line.startswith("betspec: compiling, 0 of 1 done, ") for line in said), said
    assert any(line.startswith("betspec: [1/1] the tiny engine compiled (") for line in said), said
    assert said[-1].startswith("betspec: compiled 1 module(s) in ")
