"""The house workflow from an installed betspec: the wheel built from this tree, installed in a
fresh virtual environment outside the checkout, and every command run on a house made there.

Slow (about a minute: the wheel's build and its dependencies' install dominate); the test command
runs it. ``BETSPEC_SKIP_WHEEL=1`` skips it (where there is no package index to install from).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(os.environ.get("BETSPEC_SKIP_WHEEL", "") not in ("", "0"), reason="BETSPEC_SKIP_WHEEL")

#: What a wheel is built from (the tree's files a build reads; nothing it wrote before).
SOURCES = (
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "MANIFEST.in",
    "README.md",
    "LICENSE",
    "generator",
    "generated",
    "spec",
)
IGNORED = shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__", "*.egg-info", "build")


def _environment() -> dict[str, str]:
    """The caller's environment without what points at the checkout's own install."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "BETSPEC_HOUSE")}
    env["BETSPEC_COMPILE"] = "0"  # nothing compiled, at install or on first use: the workflow, fast
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _run(argv: list[str], cwd: Path, stdin: str = "", expect: int = 0) -> str:
    done = subprocess.run(
        argv, cwd=cwd, env=_environment(), input=stdin, capture_output=True, text=True, timeout=600, check=False
    )
    out = done.stdout + done.stderr
    assert done.returncode == expect, (argv, done.returncode, out[-3000:])
    assert "Traceback" not in out and "internal error" not in out, (argv, out[-3000:])
    return out


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a fresh venv holding the wheel of this tree."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    for name in SOURCES:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=IGNORED, symlinks=True)
        elif path.is_file():
            shutil.copy2(path, source / name)
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(work / "dist"), str(source)], work)
    [wheel] = (work / "dist").glob("betspec-*.whl")
    _run([sys.executable, "-m", "venv", str(work / "venv")], work)
    bin_dir = work / "venv" / ("Scripts" if os.name == "nt" else "bin")
    _run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)], work)
    return bin_dir


def test_the_house_workflow_from_an_installed_wheel(installed: Path, tmp_path: Path) -> None:
    betspec = str(installed / "betspec")
    python = str(installed / "python")
    # the installed package is the wheel's, not this checkout
    where = _run([python, "-c", "import betspec; print(betspec.__file__)"], tmp_path)
    assert str(ROOT) not in where and "site-packages" in where
    # a plain install pulls no compiler tooling (Cython comes with the `compile` extra)
    found = _run([python, "-c", "import importlib.util; print(importlib.util.find_spec('Cython'))"], tmp_path)
    assert found.strip() == "None"

    out = _run([betspec, "init", "club", "--name", "club_game"], tmp_path)
    assert "wrote club/spec/club_game.json" in out
    house = tmp_path / "club"

    out = _run([betspec, "validate"], house)
    assert "ok spec/club_game.json: club_game (engine; " in out
    out = _run([betspec, "validate", "--deep"], house)
    assert "played)" in out
    out = _run([betspec, "generate"], house)
    assert "wrote generated/club_game.py" in out and "from 1 spec," in out
    # No TypeScript compiler beside an installed betspec: the live book's engines wait for one,
    # and the house's package (its lock file written by generate) installs it as the README says.
    assert "the live book's engines (docs/site/js) are not compiled" in out
    assert "npm ci --prefix generated/typescript" in out
    if shutil.which("npm") and shutil.which("node"):
        _run(["npm", "ci", "--prefix", "generated/typescript", "--silent"], house)
        out = _run([betspec, "generate"], house)
        assert "wrote docs/site/js/club_game.js" in out and "wrote docs/site/js/runtime.js" in out
    for made in (
        "generated/club_game.py",
        "diagrams/club_game.svg",
        "docs/reference/club_game.md",
        "docs/site/club_game.html",
    ):
        assert (house / made).is_file(), made
    out = _run([betspec, "generate", "--check"], house)
    assert "up to date" in out
    out = _run([betspec, "conform"], house)
    assert "2 passed, 0 failed" in out
    out = _run([betspec, "play", "club_game", "--seed", "3"], house, stdin="r 20\nc\nc\nx\nx\nx\nx\nx\nx\nq\n")
    assert "seat 0 to act" in out and "seat 0: raises to 20" in out
    phh = str(ROOT / "tests" / "phh" / "handhq-abs-200nlh-sample.phhs")
    out = _run([betspec, "phh", "check", "--structure", "club_game", "--option", "max_raises=null", phh], house)
    assert "583 hands under club_game: 583 accepted" in out
    out = _run([betspec, "diff", "club_game", "no_limit"], house)
    assert "raise refused by rule CAP" in out
    out = _run([betspec, "docs", "--check"], house)
    assert "up to date" in out
    out = _run([betspec, "simulate", "--structure", "club_game", "--hands", "500", "--workers", "2"], house)
    assert "500 hands" in out and "chips conserved" in out
    # a shipped session (spec/sessions, in the wheel): played and simulated through its games
    out = _run([betspec, "simulate", "horse", "--hands", "60"], house)
    assert "60 hands of H.O.R.S.E." in out and "chips checked at every hand" in out
    out = _run([betspec, "play", "eight_game", "--seats", "3", "--bots", "all", "--hands", "4", "--seed", "2"], house)
    assert "--- game: deuce-to-seven triple draw" in out and "--- game: limit hold'em" in out
    out = _run([betspec, "coverage"], house, expect=1)  # two cases do not reach every transition
    assert "club_game" in out and "not reached" in out and "2 case files" in out
    # the shipped structures from inside the house, and a shipped case
    out = _run([betspec, "conform", str(ROOT / "tests" / "conformance" / "nl-minimum-raise-ladder.json")], house)
    assert "1 passed" in out

    # the house's own program: its engine imported, and a spec loaded in memory
    program = (
        "import betspec.house, sys\n"
        "betspec.house.use(sys.argv[1])\n"
        "from betspec.engines.club_game import ENGINE\n"
        "from betspec.runtime import IllegalAction, Table\n"
        "from betspec.runtime.snapshot import restore\n"
        "hand = ENGINE(Table([1000, 1000], 0, blinds=(5, 10)))\n"
        "try:\n"
        "    hand.raise_to(0, 15)\n"
        "except IllegalAction as error:\n"
        "    print(error.code, '|', error.message.split('. Rule')[0])\n"
        "loaded = betspec.house.load(sys.argv[1] + '/spec/club_game.json')\n"
        "print(type(restore(loaded(Table([1000, 1000], 0, blinds=(5, 10))).snapshot())).__name__)\n"
    )
    out = _run([python, "-c", program, str(house)], tmp_path)
    assert "below_minimum | seat 0 raise 15: below_minimum: below the minimum raise (at least 20)" in out
    assert out.rstrip().endswith("ClubGame")

    # A game of the house's own: pot-limit Omaha written as a spec (four hole cards, Omaha's
    # ranking), generated by the installed betspec and dealt as it says.
    plo = {
        "$schema": "./schema/spec.schema.json",
        "spec_version": "1.1",
        "name": "club_plo",
        "title": "Club pot-limit Omaha",
        "description": "Pot limit, dealt as Omaha.",
        "extends": "pot_limit.json",
        "rules": {"OMAHA": {"text": "Four hole cards; exactly two of them and three of the board.", "source": "club"}},
        "game": {
            "name": "pot-limit Omaha",
            "rule": "OMAHA",
            "deals": {
                "preflop": {"hole": ["down"] * 4},
                "flop": {"board": 3},
                "turn": {"board": 1},
                "river": {"board": 1},
            },
            "showdown": ["omaha_high"],
        },
    }
    (house / "spec" / "club_plo.json").write_text(json.dumps(plo, indent=2), encoding="utf-8")
    out = _run([betspec, "validate", "spec/club_plo.json"], house)
    assert "ok spec/club_plo.json: club_plo (engine; " in out
    _run([betspec, "generate"], house)
    out = _run([betspec, "play", "club_plo", "--bots", "all", "--hands", "2", "--seed", "4"], house)
    assert "dealt as pot-limit Omaha (PO), the showdown ranked by PokerKit" in out and "(total 2000)" in out
