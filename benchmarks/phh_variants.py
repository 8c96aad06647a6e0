"""Auditing hand histories of every variant: `betspec phh check`'s work (read, replay, pay and
check the pots) over hands PokerKit writes in each of its eleven variants, against PokerKit
reading and replaying the same files (HandHistory.load and every state of state_actions), in one
interleaved run: per variant, each sample at least a second, the median of 5, hands per second
each and the ratio.

    .venv/bin/python benchmarks/phh_variants.py --hands 150 --json benchmarks/results/phh_variants.json
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pokerkit import HandHistory

from betspec import cards
from betspec.runtime import engine_class
from betspec.tools import phh

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.test_phh_variants import pokerkit_hand, pokerkit_options


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
    parser.add_argument("--json")
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for code in args.variants:
            structure = cards.GAMES[code].structure
            files = write_hands(Path(tmp), code, args.hands, args.seed)
            ours, theirs = betspec_check(files, structure), pokerkit_replay(files)
            ours(), theirs()  # warm: imports, engines, lookups
            mine, peer = [], []
            for _ in range(args.samples):  # interleaved: the machine's noise falls on both
                mine.append(rate(ours))
                peer.append(rate(theirs))
            a, b = statistics.median(mine), statistics.median(peer)
            results[code] = {"structure": structure, "betspec": round(a, 1), "pokerkit": round(b, 1)}
            results[code]["ratio"] = round(a / b, 2)
            print(f"{code:6} {structure:28} betspec {a:9.1f} hands/s  PokerKit {b:8.1f}  x{a / b:.2f}", flush=True)
    if args.json:
        meta = {"python": platform.python_version(), "machine": platform.machine(), "hands": args.hands}
        Path(args.json).write_text(json.dumps({"meta": meta, "variants": results}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
