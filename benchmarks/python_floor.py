"""Benchmark: betspec's pure-Python engine beside the plain floor, a hand-written Python engine.

    python benchmarks/python_floor.py [--hands N] [--runs R] [--seconds S] [--json FILE]
                                      [--before COMMIT]

Everything here runs as Python (``BETSPEC_PURE=1`` is set before betspec is imported: no
compiled module, no kernel), as in a browser's Python. On the same seeded hands as
``benchmarks/bench.py`` (``bench.record``), each structure's betspec engine and the floor
(``floor_python.py``: the same no-limit rules written plainly) are timed, replay and query+act
as ``bench.replay`` times them; the floor's answers are first checked against betspec's on every
hand (who acts, the legal actions, the call, the bounds, before every action). Each timed sample
lasts at least ``--seconds`` (the hands replayed as many times as that takes); runs are
interleaved, the median of R kept. A ratio is betspec's rate over the floor's. Time is the
process's CPU time (``time.process_time``), not the wall clock: on a machine shared with other
work, the time slices other processes take are not counted against whichever engine runs then.

The floor plays no-limit rules; pot limit and fixed limit are timed too and set beside the same
floor (their own rules cost a little more: the ratio is indicative there, exact for no limit).

With ``--before COMMIT``, a child process runs betspec as it was at that commit (its
``generator`` and ``generated`` folders, taken with ``git archive``) on the same hands, timed in
the same interleaved runs: the before and after ratios come from one run.
"""

from __future__ import annotations

import os

os.environ["BETSPEC_PURE"] = "1"  # before betspec is imported: the pure-Python engines

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STRUCTURES = ("no_limit", "pot_limit", "fixed_limit")
WORKLOADS = ("replay", "query+act")


def floor_replay(hands: list, query: bool) -> int:  # type: ignore[type-arg]
    """``bench.replay`` through the floor: the same steps, the same queries."""
    from benchmarks.floor_python import FloorNoLimit

    actions = 0
    for hand in hands:
        table = hand.table
        engine = FloorNoLimit(table.stacks, table.button, table.inputs["blinds"])
        for seat, action, to in hand.steps:
            if seat < 0:
                engine.deal(action)
                continue
            if query:
                engine.to_act  # noqa: B018 - the query a bot makes
                engine.legal_actions()
                engine.call_amount  # noqa: B018
                engine.min_to  # noqa: B018
                engine.max_to  # noqa: B018
            engine.act(seat, action, to)
            actions += 1
    return actions


class Sampler:
    """A work timed in samples of at least ``seconds``: the hands replayed ``repeat`` times."""

    def __init__(self, work: Callable[[], int], seconds: float) -> None:
        self.work = work
        started = time.process_time()
        work()  # calibrate (and warm up)
        once = time.process_time() - started
        self.repeat = max(1, int(seconds / max(once, 1e-9)) + 1)

    def rate(self) -> float:
        import gc

        gc.collect()
        done = 0
        started = time.process_time()
        for _ in range(self.repeat):
            done += self.work()
        return done / (time.process_time() - started)


def record(structure: str, hands: int, seed: int) -> list:  # type: ignore[type-arg]
    from benchmarks import bench

    rng = random.Random(f"{seed}-{structure}")
    return [bench.record(structure, rng) for _ in range(hands)]


def worker(hands: int, seed: int, seconds: float) -> int:
    """The child of ``--before``: answers ``structure workload`` with a rate of its betspec."""
    from benchmarks import bench

    samplers: dict[tuple[str, str], Sampler] = {}
    recorded: dict[str, list] = {}  # type: ignore[type-arg]
    for line in sys.stdin:
        structure, workload = line.split()
        if structure not in recorded:
            recorded[structure] = record(structure, hands, seed)
        key = (structure, workload)
        if key not in samplers:
            steps = recorded[structure]
            samplers[key] = Sampler(lambda h=steps, q=workload == "query+act": bench.replay(h, q), seconds)
        print(json.dumps(samplers[key].rate()), flush=True)
    return 0


def before_child(commit: str, folder: str, args: argparse.Namespace) -> subprocess.Popen[str]:
    """A child running betspec as it was at ``commit`` (unpacked into ``folder``)."""
    archive = subprocess.run(
        ["git", "-C", ROOT, "archive", commit, "generator", "generated"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
    env = {**os.environ, "BETSPEC_PURE": "1", "PYTHONPATH": os.path.join(folder, "generator")}
    command = [sys.executable, "-c", _CHILD, ROOT, str(args.hands), str(args.seed), str(args.seconds)]
    return subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=folder)


#: The child's program: the benchmarks of this tree, betspec from PYTHONPATH (the commit's).
_CHILD = (
    "import sys; root = sys.argv[1]; sys.path.append(root); sys.argv[0] = 'worker'\n"
    "import betspec; assert not betspec.__file__.startswith(root), betspec.__file__\n"
    "from benchmarks.python_floor import worker\n"
    "sys.exit(worker(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])))\n"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--seconds", type=float, default=1.0, help="least duration of a timed sample")
    parser.add_argument("--structures", default=",".join(STRUCTURES))
    parser.add_argument("--before", help="also time betspec at this commit (a child process)")
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    from benchmarks import bench
    from benchmarks.floor_python import check_floor
    from betspec.runtime import compiled, engine_class

    assert not compiled(engine_class("no_limit")), "BETSPEC_PURE=1 was not honoured"
    results: dict[str, object] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "hands_per_structure": args.hands,
        "runs": args.runs,
        "least_sample_s": args.seconds,
        "before": args.before,
        "structures": {},
    }
    folder = tempfile.TemporaryDirectory() if args.before else None
    child = before_child(args.before, folder.name, args) if args.before and folder else None

    def ask(structure: str, workload: str) -> float:
        assert child is not None and child.stdin is not None and child.stdout is not None
        child.stdin.write(f"{structure} {workload}\n")
        child.stdin.flush()
        return float(json.loads(child.stdout.readline()))

    print(
        f"betspec pure Python vs the plain floor: {results['machine']}; {args.hands} hands, "
        f"samples of at least {args.seconds:g} s, median of {args.runs}"
    )
    head = f"{'structure':<12} {'workload':<10} {'floor/s':>9} {'betspec/s':>10} {'ratio':>6}"
    print(head + (f" {'before/s':>9} {'ratio':>6}" if child else ""))
    floor_hands = record("no_limit", args.hands, args.seed)
    compared = check_floor(floor_hands)
    print(f"floor checked against betspec before each of {compared:,} no-limit actions: the same answers")
    table: dict[str, object] = {}
    for structure in args.structures.split(","):
        hands = floor_hands if structure == "no_limit" else record(structure, args.hands, args.seed)
        row: dict[str, object] = {"actions": sum(1 for h in hands for s in h.steps if s[0] >= 0)}
        for workload in WORKLOADS:
            query = workload == "query+act"
            floor = Sampler(lambda q=query: floor_replay(floor_hands, q), args.seconds)
            mine = Sampler(lambda h=hands, q=query: bench.replay(h, q), args.seconds)
            rates: dict[str, list[float]] = {"floor": [], "betspec": [], "before": []}
            for run in range(args.runs):
                order = ["floor", "betspec", "before"] if run % 2 == 0 else ["before", "betspec", "floor"]
                for name in order:
                    if name == "floor":
                        rates[name].append(floor.rate())
                    elif name == "betspec":
                        rates[name].append(mine.rate())
                    elif child is not None:
                        rates[name].append(ask(structure, workload))
            median = {name: statistics.median(values) for name, values in rates.items() if values}
            entry = {
                "floor_actions_per_s": median["floor"],
                "betspec_actions_per_s": median["betspec"],
                "ratio": median["betspec"] / median["floor"],
            }
            line = f"{structure:<12} {workload:<10} {median['floor']:>9,.0f} {median['betspec']:>10,.0f}"
            line += f" {entry['ratio']:>5.2f}x"
            if "before" in median:
                entry["before_actions_per_s"] = median["before"]
                entry["before_ratio"] = median["before"] / median["floor"]
                line += f" {median['before']:>9,.0f} {entry['before_ratio']:>5.2f}x"
            row[workload] = entry
            print(line, flush=True)
        table[structure] = row
    results["structures"] = table
    if child is not None:
        assert child.stdin is not None
        child.stdin.close()
        child.wait()
    if folder is not None:
        folder.cleanup()
    if args.json:
        bench.write_results(args.json, results)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    sys.exit(main())
