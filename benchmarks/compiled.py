"""Benchmark: the compiled engines (Cython builds made at install) beside the Python engines.

    python benchmarks/compiled.py [--hands N] [--runs R] [--json FILE]

This process runs the compiled builds; a child process runs the very same sources as Python
(``BETSPEC_PURE=1``). Both record the same seeded hands (benchmarks/bench.py's) and time, run by
run, interleaved:
- replay and query+act, as bench.py times them;
- self-play: hands played to the end by simulate's bot on fresh random tables, through the batch
  interface (:func:`betspec.runtime.play_hands`) here and through a Python loop of
  ``simulate.play`` in the child;
- memory per live hand, as bench.py measures it.
A ratio is the compiled rate over the Python one. A benchmark, not a timed test.
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
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STRUCTURES = ("no_limit", "pot_limit", "fixed_limit")
WORKLOADS = ("replay", "query+act", "self-play")


class Runner:
    """The workloads of one structure, on hands recorded from one seed."""

    def __init__(self, structure: str, hands: int, seed: int, python_loop: bool) -> None:
        from benchmarks import bench

        self.bench = bench
        self.structure = structure
        self.count = hands
        self.seed = seed
        self.python_loop = python_loop
        rng = random.Random(f"{seed}-{structure}")
        self.hands = [bench.record(structure, rng) for _ in range(hands)]

    def rate(self, workload: str) -> float:
        """Actions per second (hands per second for self-play) of one run."""
        started = time.perf_counter()
        done = self._self_play() if workload == "self-play" else self.bench.replay(self.hands, workload == "query+act")
        return done / (time.perf_counter() - started)

    def _self_play(self) -> int:
        from betspec.runtime import engine_class, play_hands
        from betspec.simulate import BOT, play, random_table

        rng = random.Random(self.seed)
        cls = engine_class(self.structure)
        if self.python_loop:
            for _ in range(self.count):
                play(cls(random_table(self.structure, rng)), rng)
            return self.count
        tables = (random_table(self.structure, rng) for _ in range(self.count))
        return play_hands(cls, tables, BOT, rng).hands

    def memory(self) -> float:
        return self.bench.memory_per_hand(self.hands[:1000])


def worker(hands: int, seed: int) -> int:
    """The Python side: answers ``structure workload`` lines with a rate, ``structure memory``
    with bytes per live hand."""
    runners: dict[str, Runner] = {}
    for line in sys.stdin:
        structure, workload = line.split()
        runner = runners.get(structure) or runners.setdefault(structure, Runner(structure, hands, seed, True))
        value = runner.memory() if workload == "memory" else runner.rate(workload)
        print(json.dumps(value), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.hands, args.seed)
    from betspec.runtime import compiled, engine_class

    missing = [s for s in STRUCTURES if not compiled(engine_class(s))]
    if missing:
        print(f"not compiled here: {', '.join(missing)} (install with Cython and a C compiler)", file=sys.stderr)
        return 2
    child = subprocess.Popen(
        [sys.executable, __file__, "--worker", "--hands", str(args.hands), "--seed", str(args.seed)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "BETSPEC_PURE": "1"},
        cwd=ROOT,
    )

    def ask(structure: str, what: str) -> float:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(f"{structure} {what}\n")
        child.stdin.flush()
        return float(json.loads(child.stdout.readline()))

    results: dict[str, object] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "hands_per_structure": args.hands,
        "runs": args.runs,
        "structures": {},
    }
    print(f"compiled vs Python engines: {results['machine']}; {args.hands} hands, median of {args.runs} runs")
    print(f"{'structure':<12} {'workload':<10} {'compiled/s':>11} {'Python/s':>10} {'ratio':>6}")
    table: dict[str, object] = {}
    for structure in STRUCTURES:
        mine = Runner(structure, args.hands, args.seed, False)
        row: dict[str, object] = {}
        for workload in WORKLOADS:
            compiled_rates, python_rates = [], []
            for run in range(args.runs):
                # Interleaved, alternating who goes first: both see the same machine load.
                if run % 2:
                    python_rates.append(ask(structure, workload))
                    compiled_rates.append(mine.rate(workload))
                else:
                    compiled_rates.append(mine.rate(workload))
                    python_rates.append(ask(structure, workload))
            fast, slow = statistics.median(compiled_rates), statistics.median(python_rates)
            row[workload] = {"compiled_per_s": fast, "python_per_s": slow, "ratio": fast / slow}
            unit = "hands" if workload == "self-play" else "actions"
            print(f"{structure:<12} {workload:<10} {fast:>11,.0f} {slow:>10,.0f} {fast / slow:>5.2f}x  ({unit})")
        row["bytes_per_live_hand"] = {"compiled": mine.memory(), "python": ask(structure, "memory")}
        print(
            f"{structure:<12} {'memory':<10} {row['bytes_per_live_hand']['compiled']:>10,.0f}B "  # type: ignore[index]
            f"{row['bytes_per_live_hand']['python']:>9,.0f}B per live hand"
        )  # type: ignore[index]
        table[structure] = row
    results["structures"] = table
    assert child.stdin is not None
    child.stdin.close()
    child.wait()
    if args.json:
        from benchmarks.bench import write_results

        write_results(args.json, results)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    sys.exit(main())
