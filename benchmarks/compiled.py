"""Benchmark: the compiled engines and the kernels (built by ``betspec build``) beside the Python engines.

    python benchmarks/compiled.py [--hands N] [--runs R] [--json FILE]

This process runs the compiled builds; a child process runs the very same sources as Python
(``BETSPEC_PURE=1``: no compiled module, no kernel). Both take the same seeded hands
(benchmarks/bench.py's) and time, run by run, interleaved:
- replay and query+act, as bench.py times them, through the default engine (compiled here) and,
  here only, through the spec's kernel (``fast_engine``, called per action from Python);
- self-play: hands played to the end by simulate's bot on fresh random tables through the batch
  interface (:func:`betspec.runtime.play_hands`): through the kernel here, the Python engine
  there, from the same draws, so both play the very same hands;
- memory per live hand, as bench.py measures it (default engine and kernel here).
A ratio is the rate here over the Python one. Every sample repeats its workload until at least a
second has passed (``--least``), so that a sample is not a few milliseconds of a shared machine.

Then the limit: no-limit hands through the kernel beside the plain C floor (benchmarks/floor.c, a
hand-written C loop with the same rules, compiled with ``cc -O2``), first checked to play the
very same hands (the same hands, actions and chips in self-play; every recorded action taken in
replay): self-play (``play_hands`` on given tables, simulate's bot, the same SplitMix64 draws)
and replay of the recorded hands (per action from Python, and in one call where the kernels have
a batch replay), and self-play with the tables drawn in C (``play_drawn``, the floor's very hands)
and ``betspec simulate`` on one worker (its first chunk is those hands). A ratio there is the
kernel's rate over the floor's, of hands per second for self-play. A benchmark, not a timed test.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import statistics
import subprocess
import sys
from collections.abc import Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STRUCTURES = ("no_limit", "pot_limit", "fixed_limit")
#: (what is timed here, what it is compared with in the Python child)
WORKLOADS = (
    ("replay", "replay"),
    ("query+act", "query+act"),
    ("kernel replay", "replay"),
    ("kernel query+act", "query+act"),
    ("self-play", "self-play"),
)


class Runner:
    """The workloads of one structure, on hands recorded from one seed."""

    def __init__(self, structure: str, hands: int, seed: int) -> None:
        from benchmarks import bench

        self.bench = bench
        self.structure = structure
        self.count = hands
        self.seed = seed
        rng = random.Random(f"{seed}-{structure}")
        self.hands = [bench.record(structure, rng) for _ in range(hands)]

    def rate(self, workload: str, least: float = 1.0) -> float:
        """Actions per second (hands per second for self-play) of one sample: the workload
        repeated until at least ``least`` seconds have passed."""
        from benchmarks.floor import sample

        if workload == "self-play":
            return sample(self._self_play, least)[0]
        fast = workload.startswith("kernel ")
        return sample(lambda: self.bench.replay(self.hands, workload.endswith("query+act"), fast=fast), least)[0]

    def _self_play(self) -> int:
        from betspec.runtime import engine_class, play_hands
        from betspec.tools.simulate import BOT, random_table

        rng = random.Random(self.seed)
        tables = (random_table(self.structure, rng) for _ in range(self.count))
        return play_hands(engine_class(self.structure), tables, BOT, rng).hands

    def memory(self, fast: bool = False) -> float:
        return self.bench.memory_per_hand(self.hands[:1000], fast=fast)


def worker(hands: int, seed: int, least: float) -> int:
    """The Python side: answers ``structure workload`` lines with a rate, ``structure memory``
    with bytes per live hand."""
    runners: dict[str, Runner] = {}
    for line in sys.stdin:
        structure, workload = line.split()
        runner = runners.get(structure) or runners.setdefault(structure, Runner(structure, hands, seed))
        value = runner.memory() if workload == "memory" else runner.rate(workload, least)
        print(json.dumps(value), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--least", type=float, default=1.0, help="seconds a sample lasts at least")
    parser.add_argument("--json")
    parser.add_argument("--floor-only", action="store_true", help="only the kernel beside the C floor")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.hands, args.seed, args.least)
    from betspec.runtime import compiled, engine_class, has_kernel

    if args.floor_only:
        floor = {"floor": floor_rows(args.hands, args.seed, args.runs, args.least)}
        if args.json:
            from benchmarks.bench import write_results

            write_results(args.json, floor)
        return 0

    missing = [s for s in STRUCTURES if not (compiled(engine_class(s)) and has_kernel(s))]
    if missing:
        print(f"not compiled here: {', '.join(missing)} (run `betspec build`: Cython, a C compiler)", file=sys.stderr)
        return 2
    child = subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--worker",
            "--hands",
            str(args.hands),
            "--seed",
            str(args.seed),
            "--least",
            str(args.least),
        ],
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
        "least_seconds_per_sample": args.least,
        "structures": {},
    }
    print(f"compiled vs Python engines: {results['machine']}; {args.hands} hands, median of {args.runs} runs")
    print(f"{'structure':<12} {'workload':<16} {'compiled/s':>11} {'Python/s':>10} {'ratio':>7}")
    table: dict[str, object] = {}
    for structure in STRUCTURES:
        mine = Runner(structure, args.hands, args.seed)
        row: dict[str, object] = {}
        for workload, theirs in WORKLOADS:
            compiled_rates, python_rates = [], []
            for run in range(args.runs):
                # Interleaved, alternating who goes first: both see the same machine load.
                if run % 2:
                    python_rates.append(ask(structure, theirs))
                    compiled_rates.append(mine.rate(workload, args.least))
                else:
                    compiled_rates.append(mine.rate(workload, args.least))
                    python_rates.append(ask(structure, theirs))
            fast, slow = statistics.median(compiled_rates), statistics.median(python_rates)
            row[workload] = {"compiled_per_s": fast, "python_per_s": slow, "ratio": fast / slow}
            unit = "hands" if workload == "self-play" else "actions"
            print(f"{structure:<12} {workload:<16} {fast:>11,.0f} {slow:>10,.0f} {fast / slow:>6.2f}x  ({unit})")
        memory = {"compiled": mine.memory(), "kernel": mine.memory(fast=True), "python": ask(structure, "memory")}
        row["bytes_per_live_hand"] = memory
        print(
            f"{structure:<12} {'memory':<16} {memory['compiled']:>10,.0f}B {memory['python']:>9,.0f}B per live hand; "
            f"kernel {memory['kernel']:,.0f}B"
        )
        table[structure] = row
    results["structures"] = table
    assert child.stdin is not None
    child.stdin.close()
    child.wait()
    results["floor"] = floor_rows(args.hands, args.seed, args.runs, args.least)
    if args.json:
        from benchmarks.bench import write_results

        write_results(args.json, results)
    return 0


def floor_rows(hands: int, seed: int, runs: int, least: float) -> dict[str, object]:
    """No-limit hands through the kernel beside the plain C floor, checked to be the same hands
    first; the median of ``runs`` interleaved samples of each, in actions per second."""
    from benchmarks import bench, floor
    from betspec.runtime import Table, engine_class
    from betspec.runtime.batch import kernel

    try:
        floor.load()
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"no C floor here ({error})", file=sys.stderr)
        return {}
    from betspec.tools.simulate import chunks, simulate

    # The hands of simulate's first chunk: the floor's tables and draws, play_drawn's and, with
    # one chunk of work (hands up to simulate's CHUNK), simulate's on one worker.
    drawn_seed = next(chunks("no_limit", hands, seed, {}))[1]
    totals = floor.same_hands(hands, drawn_seed)
    tables, draws_seed = floor.draw(hands, drawn_seed)
    packed = floor.Tables(tables)
    simulated, _ = simulate("no_limit", hands, 1, seed=seed)
    by_chunk = [floor.kernel_play_drawn(size, chunk) for _, chunk, size, _ in chunks("no_limit", hands, seed, {})]
    if (simulated.hands, simulated.actions, simulated.chips_checked) != tuple(map(sum, zip(*by_chunk, strict=True))):
        raise AssertionError(f"simulate played other hands than play_drawn on its chunks: {simulated}")
    # Hands per action of each workload (its hands are the same on every call).
    per_action = {"floor self-play": totals[0] / totals[1]}
    given = floor.kernel_self_play(tables, seed)
    per_action["kernel self-play"] = given[0] / given[1]
    per_action["kernel self-play, tables drawn in C (play_drawn)"] = totals[0] / totals[1]
    per_action["simulate, one worker"] = simulated.hands / simulated.actions
    # The same tables a million times deeper (stacks of hundreds of millions to billions, the
    # blinds alike), which a kernel before issue 24 left to the Python engine: a rate per action.
    deep = [
        Table([s * 10**6 for s in t.stacks], t.button, blinds=tuple(b * 10**6 for b in t.inputs["blinds"]))
        for t in tables
    ]
    recorded = [bench.record("no_limit", random.Random(f"{seed}-no_limit-{i}")) for i in range(hands)]
    replayed = floor.Tables([h.table for h in recorded], [h.steps for h in recorded])
    taken, refused = replayed.replay()
    if (taken, refused) != (replayed.actions, 0):
        raise AssertionError(
            f"the C floor refused {refused} recorded hands, took {taken} of {replayed.actions} actions"
        )
    module = kernel(engine_class("no_limit"))
    works: dict[str, Callable[[], int]] = {
        "floor self-play": lambda: packed.self_play(draws_seed)[1],
        "kernel self-play": lambda: floor.kernel_self_play(tables, seed)[1],
        "kernel self-play, tables drawn in C (play_drawn)": lambda: floor.kernel_play_drawn(hands, drawn_seed)[1],
        "simulate, one worker": lambda: simulate("no_limit", hands, 1, seed=seed)[0].actions,
        "kernel self-play, deep tables (x10^6)": lambda: floor.kernel_self_play(deep, seed)[1],
        "floor replay": lambda: replayed.replay()[0],
        "kernel replay (per action from Python)": lambda: bench.replay(recorded, False, fast=True),
    }
    if module is not None:
        from betspec.runtime import replay_hands

        cls = engine_class("no_limit")
        logged = [(h.table, h.steps) for h in recorded]
        if any(answer is not None for answer in replay_hands(cls, logged)):
            raise AssertionError("the kernel's batch replay refused a recorded hand")
        works["kernel replay (batch, in C)"] = lambda: len(replay_hands(cls, logged)) and replayed.actions
        runtime = importlib.import_module("betspec.runtime.kernel")
        logs = runtime.Logged(module.KERNEL, logged)  # packed once, as the floor's arrays are
        works["kernel replay (batch, packed)"] = lambda: len(logs.replay(cls, {})) and replayed.actions

    def floor_of(name: str) -> str:
        return "floor self-play" if "self-play" in name or "simulate" in name else "floor replay"

    # Each run times the floor and the kernel's workloads one after another; a ratio is taken
    # within a run (the machine's load drifts between runs), and the median of the runs kept.
    samples: dict[str, list[float]] = {name: [] for name in works}
    for run in range(runs):
        order = list(works.items()) if run % 2 == 0 else list(reversed(works.items()))
        for name, work in order:
            samples[name].append(floor.sample(work, least)[0])
    rates = {name: statistics.median(values) for name, values in samples.items()}

    def per_hand(name: str) -> float:
        return per_action.get(name, per_action.get(floor_of(name), 1.0))

    # A ratio of self-play is of hands per second (the same as of actions where the hands are the floor's).
    ratios = {
        name: statistics.median(
            mine * per_hand(name) / (limit * per_hand(floor_of(name)))
            for mine, limit in zip(values, samples[floor_of(name)], strict=True)
        )
        for name, values in samples.items()
    }
    print(
        f"the kernel beside the plain C floor (no limit; {totals[0]:,} self-play hands, {totals[1]:,} actions, "
        f"the same in both; {len(recorded):,} recorded hands, {replayed.actions:,} actions; median of {runs}, "
        "ratios within each run)"
    )
    rows: dict[str, object] = {"self_play_totals": list(totals), "replay_actions": replayed.actions}
    for name, rate in rates.items():
        low, high = min(samples[name]), max(samples[name])
        spread = [
            mine * per_hand(name) / (limit * per_hand(floor_of(name)))
            for mine, limit in zip(samples[name], samples[floor_of(name)], strict=True)
        ]
        rows[name] = {"actions_per_s": rate, "of_floor": ratios[name], "of_floor_runs": spread}
        hands_per_s = ""
        if name in per_action:
            rows[name]["hands_per_s"] = rate * per_hand(name)  # type: ignore[index]
            hands_per_s = f" {rate * per_hand(name):>10,.0f} hands/s"
        print(
            f"  {name:<48} {rate:>12,.0f} actions/s ({low:,.0f} to {high:,.0f}){hands_per_s}  "
            f"{ratios[name]:>5.2f} of the floor ({min(spread):.2f} to {max(spread):.2f})"
        )
    return rows


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    sys.exit(main())
