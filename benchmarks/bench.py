"""Benchmark: generated engines beside PokerKit on the same seeded random hands.

    python benchmarks/bench.py [--hands N] [--runs R] [--json FILE] [--no-peer]

Workloads, per structure, on the same recorded action sequences (2 to 10 seats, folds, calls,
bets, raises, all-ins), played through betspec's default engine and through PokerKit in one run:
- replay: the actions alone (dealing automated in PokerKit);
- query+act: before each action the query a bot makes: who acts, what is legal, the call amount,
  the minimum and maximum "to".
Each rate is the median of R runs, interleaved so that both engines see the same machine load;
the ratio is betspec's over PokerKit's. Memory per live hand: tracemalloc over hands held after
their first actions. Tool timings: the `betspec` command itself (a fresh process) validating
every spec and generating every file, diagrams included. A benchmark, not a timed test: shared
machines are noisy, so compare the ratios.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from betspec.project import Project, load_all
from betspec.runtime import Engine, Table, engine_class
from betspec.simulate import play, random_table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STRUCTURES = ("no_limit", "pot_limit", "fixed_limit")

Step = tuple[int, str, int | None]  # (seat, action, to); seat -1 is a deal of street `action`


@dataclass
class Hand:
    structure: str
    table: Table
    steps: list[Step]


#: Options under which betspec and PokerKit 0.7.7 play by the same rules (PokerKit never lifts
#: the fixed-limit cap heads-up and has no half-bet rule).
PEER_OPTIONS: dict[str, dict[str, object]] = {
    "fixed_limit": {"uncapped_heads_up": False, "half_bet_reopens": False},
}


def build(hand: Hand) -> Engine:
    return engine_class(hand.structure)(hand.table, **PEER_OPTIONS.get(hand.structure, {}))  # type: ignore[arg-type]


def record(structure: str, rng: random.Random) -> Hand:
    """A hand played by betspec.simulate's bot (folds, calls, raises, all-ins), its steps kept."""
    hand = Hand(structure, random_table(structure, rng), [])
    play(build(hand), rng, lambda seat, action, to: hand.steps.append((seat, action, to)))
    return hand


def replay(hands: list[Hand], query: bool) -> int:
    actions = 0
    for hand in hands:
        engine = build(hand)
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


def peer_replay(hands: list[Hand], query: bool) -> int:
    from benchmarks.peer_pokerkit import replay as pokerkit_replay

    return sum(pokerkit_replay(hand.structure, hand.table, hand.steps, query) for hand in hands)


def timed(work: Callable[[], int]) -> tuple[int, float]:
    gc.collect()
    started = time.perf_counter()
    count = work()
    return count, time.perf_counter() - started


def compare(works: dict[str, Callable[[], int]], runs: int) -> dict[str, tuple[float, float]]:
    """Median (actions/s, seconds) of each work, runs interleaved."""
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in works}
    for _ in range(runs):
        for name, work in works.items():
            count, seconds = timed(work)
            samples[name].append((count / seconds, seconds))
    return {
        name: (statistics.median(r for r, _ in values), statistics.median(t for _, t in values))
        for name, values in samples.items()
    }


def memory_per_hand(hands: list[Hand], peer: bool = False) -> float:
    """Bytes per hand held after its first three actions (betspec engines or PokerKit states)."""
    if peer:
        from benchmarks.peer_pokerkit import Peer
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    live: list[object] = []
    for hand in hands:
        actions = [s for s in hand.steps if s[0] >= 0][:3]
        if peer:
            held = Peer(hand.structure, hand.table)
            for _, action, to in actions:
                held.act(action, to)
            live.append(held.state)
        else:
            engine = build(hand)
            for seat, action, to in hand.steps[: hand.steps.index(actions[-1]) + 1]:
                if seat < 0:
                    engine.deal(action)
                else:
                    engine.act(seat, action, to)
            live.append(engine)
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return used / len(live)


def tool_timings(runs: int) -> dict[str, float]:
    """The betspec command in a fresh process, on a copy of the specs (so generate writes)."""
    command = os.path.join(os.path.dirname(sys.executable), "betspec")
    specs = len(Project(ROOT).spec_files())
    validate, generate = [], []
    with tempfile.TemporaryDirectory() as folder:
        shutil.copytree(os.path.join(ROOT, "spec"), os.path.join(folder, "spec"))
        for _ in range(runs):
            for sink, args in ((validate, ["validate"]), (generate, ["generate"])):
                shutil.rmtree(os.path.join(folder, "generated"), ignore_errors=True)
                shutil.rmtree(os.path.join(folder, "diagrams"), ignore_errors=True)
                started = time.perf_counter()
                subprocess.run([command, "--root", folder, *args], check=True, capture_output=True)
                sink.append(time.perf_counter() - started)
    project = Project(ROOT)
    _, in_process = timed(lambda: len(load_all(project.spec_files())[0]))
    return {
        "specs": specs,
        "validate_command_s": statistics.median(validate),
        "validate_s_per_spec": statistics.median(validate) / specs,
        "validate_in_process_s_per_spec": in_process / specs,
        "generate_command_s": statistics.median(generate),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per structure")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (the median is kept)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--no-peer", action="store_true", help="betspec alone, without PokerKit")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # PokerKit warns on some legal actions
    peer = not args.no_peer
    results: dict[str, object] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "hands_per_structure": args.hands,
        "runs": args.runs,
        "structures": {},
    }
    if peer:
        from importlib.metadata import version

        results["pokerkit"] = version("pokerkit")
    print(f"betspec benchmark: {results['machine']}; {args.hands} hands per structure, median of {args.runs} runs")
    header = f"{'structure':<12} {'workload':<10} {'betspec/s':>10} {'hands/s':>8}"
    if peer:
        header += f" {'PokerKit/s':>10} {'ratio':>6}"
    print(header)
    table: dict[str, object] = {}
    for structure in STRUCTURES:
        rng = random.Random(f"{args.seed}-{structure}")
        hands = [record(structure, rng) for _ in range(args.hands)]
        count = sum(1 for h in hands for s in h.steps if s[0] >= 0)
        row: dict[str, object] = {"actions": count}
        for workload, query in (("replay", False), ("query+act", True)):
            works: dict[str, Callable[[], int]] = {"betspec": lambda h=hands, q=query: replay(h, q)}
            if peer:
                works["pokerkit"] = lambda h=hands, q=query: peer_replay(h, q)
            rates = compare(works, args.runs)
            rate, seconds = rates["betspec"]
            entry: dict[str, float] = {"actions_per_s": rate, "hands_per_s": len(hands) / seconds}
            line = f"{structure:<12} {workload:<10} {rate:>10,.0f} {len(hands) / seconds:>8,.0f}"
            if peer:
                entry["pokerkit_actions_per_s"] = rates["pokerkit"][0]
                entry["ratio"] = rate / rates["pokerkit"][0]
                line += f" {rates['pokerkit'][0]:>10,.0f} {entry['ratio']:>5.1f}x"
            row[workload] = entry
            print(line)
        sample = hands[: min(1000, len(hands))]
        row["bytes_per_live_hand"] = memory_per_hand(sample)
        memory = f"{structure:<12} {'memory':<10} {row['bytes_per_live_hand']:>9,.0f}B per live hand"
        if peer:
            row["pokerkit_bytes_per_live_hand"] = memory_per_hand(sample, peer=True)
            row["memory_ratio"] = row["bytes_per_live_hand"] / row["pokerkit_bytes_per_live_hand"]  # type: ignore[operator]
            memory += f"; PokerKit {row['pokerkit_bytes_per_live_hand']:,.0f}B ({row['memory_ratio']:.2f} of it)"
        print(memory)
        table[structure] = row
    results["structures"] = table
    tools = tool_timings(max(1, min(args.runs, 3)))
    results["tools"] = tools
    print(
        f"betspec validate: {tools['validate_command_s']:.2f} s for {tools['specs']} specs "
        f"({tools['validate_s_per_spec']:.3f} s per spec, {tools['validate_in_process_s_per_spec'] * 1000:.0f} ms "
        f"in process); betspec generate, diagrams included: {tools['generate_command_s']:.2f} s"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=2)
            handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    sys.exit(main())
