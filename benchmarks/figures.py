"""The figures the README and the docs quote, written by this command, never by hand.

A figure stands between markers in the text: ``<!-- figure:NAME -->`` its value
``<!-- /figure -->``. Counts (structures shipped, cases, ...) are computed from the tree each
time; timings and speeds come from the results the benchmarks write (``benchmarks/results/``)
and from the setup timings this command measures with ``--measure`` (``setup.json``: a fresh
clone installed, then validate, generate and the demo, as the README's main command runs them).

    python benchmarks/figures.py            # rewrite every figure from the tree and the results
    python benchmarks/figures.py --check    # exit 1 naming each figure that is not what it says
    python benchmarks/figures.py --measure  # measure the setup timings first (a minute or two)

``tests/test_figures.py`` runs ``--check``: a figure typed by hand, or left stale by a change of
the tree or of the results, fails the test command.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
#: The texts whose figures this command writes.
TEXTS = ("README.md", "docs/engines.md", "docs/specs.md", "docs/hand-histories.md", "docs/speed.md", "docs/testing.md")
MARKED = re.compile(r"<!-- figure:([a-z_]+) -->(.*?)<!-- /figure -->", re.S)
WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
)


def _results(name: str) -> dict[str, Any]:
    return json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _structures() -> list[str]:
    sys.path.insert(0, str(ROOT / "generator"))
    from betspec.runtime import engine_names

    return engine_names()


def _word(number: int) -> str:
    return WORDS[number] if number < len(WORDS) else f"{number:,}"


def _ratio(value: float) -> str:
    return f"{value:.2f}"


def _floor(row: str) -> str:
    return _ratio(_results("floor")["floor"][row]["of_floor"])


def _variants() -> dict[str, Any]:
    return _results("phh_variants")["variants"]  # type: ignore[no-any-return]


def _variant_ratio(pick: Callable[..., Any], field: str = "ratio") -> str:
    """The variant of the lowest or highest ratio (``pick``: min or max; ``field``: in process, or
    ``command_ratio``, as a command): its ratio and code."""
    code = pick(_variants(), key=lambda name: _variants()[name][field])
    return f"{_variants()[code][field]:.1f}x ({code})"


def _setup(step: str) -> str:
    return f"{_results('setup')['seconds'][step]:.1f}"


FIGURES: dict[str, Callable[[], str]] = {
    "structures": lambda: _word(len(_structures())).capitalize(),
    "cases": lambda: f"{len(glob.glob(str(ROOT / 'tests' / 'conformance' / '**' / '*.json'), recursive=True)):,}",
    "setup_install": lambda: _setup("install"),
    "setup_validate": lambda: _setup("validate"),
    "setup_generate": lambda: _setup("generate"),
    "setup_demo": lambda: _setup("demo"),
    "setup_total": lambda: _setup("total"),
    "setup_machine": lambda: str(_results("setup")["machine"]),
    "phh_betspec": lambda: f"{_results('phh')['hands_per_second']['betspec']:,}",
    "phh_pokerkit": lambda: f"{_results('phh')['hands_per_second']['pokerkit']:,}",
    "phh_times": lambda: (
        f"{_results('phh')['hands_per_second']['betspec'] / _results('phh')['hands_per_second']['pokerkit']:.1f}"
    ),
    "phh_variants_least": lambda: _variant_ratio(min),
    "phh_variants_most": lambda: _variant_ratio(max),
    "phh_variants_ten": lambda: str(sum(v["ratio"] >= 10 for v in _variants().values())),
    "phh_variants_count": lambda: str(len(_variants())),
    "phh_variants_command_least": lambda: _variant_ratio(min, "command_ratio"),
    "phh_variants_command_most": lambda: _variant_ratio(max, "command_ratio"),
    "phh_variants_command_three": lambda: str(sum(v["command_ratio"] >= 3 for v in _variants().values())),
    "floor_play_drawn": lambda: _floor("kernel self-play, tables drawn in C (play_drawn)"),
    "floor_simulate": lambda: _floor("simulate, one worker"),
    "floor_play_hands": lambda: _floor("kernel self-play"),
    "floor_replay_packed": lambda: _floor("kernel replay (batch, packed)"),
    "floor_hands_per_s": lambda: f"{_results('floor')['floor']['simulate, one worker']['hands_per_s']:,.0f}",
    "python_floor_query_act": lambda: _ratio(_results("python_floor")["structures"]["no_limit"]["query+act"]["ratio"]),
}


def rendered(text: str) -> tuple[str, list[str]]:
    """``text`` with every figure written anew, and the names of those that changed."""
    changed: list[str] = []

    def write(match: re.Match[str]) -> str:
        name, old = match.group(1), match.group(2)
        if name not in FIGURES:
            raise SystemExit(f"figures.py: no figure {name!r} (known: {', '.join(sorted(FIGURES))})")
        new = FIGURES[name]()
        if new != old:
            changed.append(f"{name}: {old!r} -> {new!r}")
        return f"<!-- figure:{name} -->{new}<!-- /figure -->"

    return MARKED.sub(write, text), changed


def measure() -> None:
    """The README's main command timed step by step in a fresh clone (results/setup.json)."""
    seconds: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="betspec-figures-") as work:
        clone = Path(work, "clone")
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        venv = clone / ".venv" / "bin"
        steps = [
            ("install", [sys.executable, "-m", "venv", ".venv"], [str(venv / "pip"), "install", "-q", "-e", "."]),
            ("validate", None, [str(venv / "betspec"), "validate"]),
            ("generate", None, [str(venv / "betspec"), "generate"]),
            ("demo", None, [str(venv / "betspec"), "demo"]),
        ]
        for name, before, command in steps:
            started = time.perf_counter()
            if before is not None:
                subprocess.run(before, cwd=clone, check=True, capture_output=True)
            subprocess.run(command, cwd=clone, check=True, capture_output=True)
            seconds[name] = time.perf_counter() - started
    seconds["total"] = sum(seconds.values())
    machine = f"{os.uname().machine}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
    data = {"machine": machine, "seconds": seconds}
    (RESULTS / "setup.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 naming each stale figure")
    parser.add_argument("--measure", action="store_true", help="measure the setup timings first")
    args = parser.parse_args(argv)
    if args.measure and shutil.which("git"):
        measure()
    stale = 0
    for name in TEXTS:
        path = ROOT / name
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        new, changed = rendered(text)
        for change in changed:
            print(f"{name}: {change}")
        stale += len(changed)
        if changed and not args.check:
            path.write_text(new, encoding="utf-8")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
