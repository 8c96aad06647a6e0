"""Auditing hand histories of every variant: `betspec phh check`'s work (read, replay, pay and
check the pots) over hands PokerKit writes in each of its eleven variants, against PokerKit
reading and replaying the same files (HandHistory.load and every state of state_actions), in one
interleaved run: per variant, each sample at least a second, the median of 5, hands per second
each and the ratio. With ``--command``, also ``betspec phh check`` run as a user types it, a new
process each time (start-up, imports and the kernel's loading counted; one process, as the
command's default), in hands per second of wall time and its ratio to PokerKit in process.

    .venv/bin/python benchmarks/phh_variants.py --hands 150 --command --json benchmarks/results/phh_variants.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from pokerkit import HandHistory

from betspec import cards
from betspec.runtime import engine_class
from betspec.tools import phh

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.test_phh_variants import pokerkit_hand, pokerkit_options

warnings.filterwarnings("ignore", category=UserWarning, module="pokerkit")  # its dealer's advice, as it writes hands


def write_hands(folder: Path, code: str, count: int, seed: int) -> list[str]:
    rng = random.Random(f"{seed}:{code}")
    files = []
    for index in range(count):
        path = folder / f"{code.replace('/', '-')}-{index}.phh"
        path.write_text(pokerkit_hand(code, rng))
        files.append(str(path))
    return files


def betspec_check(files: list[str], structure: str) -> Callable[[], int]:
    options = pokerkit_options(engine_class(structure))

    def run() -> int:
        return sum(report.hands for report in phh.check_files(files, structure, options, 1))

    return run


def betspec_command(files: list[str], structure: str) -> Callable[[], int]:
    """``betspec phh check`` of the files in a new process, as a user runs it (the venv's script)."""
    script = Path(sys.executable).with_name("betspec")
    options = pokerkit_options(engine_class(structure))
    argv = [str(script), "phh", "check", *files, "--structure", structure]
    for name, value in options.items():
        argv += ["--option", f"{name}={json.dumps(value)}"]

    # As an install leaves it: its modules' bytecode written (pip compiles a wheel's at install),
    # not compiled again at every start as under PYTHONDONTWRITEBYTECODE.
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}

    def run() -> int:
        done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False, env=env)
        if done.returncode not in (0, 1):  # 1: a hand refused (PokerKit's rules differ: docs/testing.md)
            raise SystemExit(f"betspec phh check failed ({done.returncode}): {done.stderr.strip()}")
        return len(files)

    return run


def pokerkit_replay(files: list[str]) -> Callable[[], int]:
    def run() -> int:
        for path in files:
            with open(path, "rb") as handle:
                for _ in HandHistory.load(handle).state_actions:
                    pass
        return len(files)

    return run


def rate(run: Callable[[], int]) -> float:
    hands, started = 0, time.perf_counter()
    while True:
        hands += run()
        seconds = time.perf_counter() - started
        if seconds >= 1.0:
            return hands / seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", nargs="*", default=sorted(HandHistory.game_types))
    parser.add_argument("--command", action="store_true", help="also time betspec phh check as a command")
    parser.add_argument("--json")
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for code in args.variants:
            structure = cards.GAMES[code].structure
            files = write_hands(Path(tmp), code, args.hands, args.seed)
            ours, theirs = betspec_check(files, structure), pokerkit_replay(files)
            command = betspec_command(files, structure) if args.command else None
            ours(), theirs()  # warm: imports, engines, lookups
            if command is not None:
                command()  # the kernel's module compiled into the build cache once, as `betspec build` does
            mine, peer, typed = [], [], []
            for _ in range(args.samples):  # interleaved: the machine's noise falls on all
                mine.append(rate(ours))
                peer.append(rate(theirs))
                if command is not None:
                    typed.append(rate(command))
            a, b = statistics.median(mine), statistics.median(peer)
            results[code] = {"structure": structure, "betspec": round(a, 1), "pokerkit": round(b, 1)}
            results[code]["ratio"] = round(a / b, 2)
            line = f"{code:6} {structure:28} betspec {a:9.1f} hands/s  PokerKit {b:8.1f}  x{a / b:.2f}"
            if typed:
                c = statistics.median(typed)
                results[code]["command"] = round(c, 1)
                results[code]["command_ratio"] = round(c / b, 2)
                line += f"  command {c:8.1f} x{c / b:.2f}"
            print(line, flush=True)
    if args.json:
        meta = {"python": platform.python_version(), "machine": platform.machine(), "hands": args.hands}
        meta["cores"] = os.cpu_count()
        Path(args.json).write_text(json.dumps({"meta": meta, "variants": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
