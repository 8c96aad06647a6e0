"""Benchmark: generated engines on seeded random hands.

    python benchmarks/bench.py [--hands N] [--runs R] [--json FILE]

Workloads, per structure, on the same recorded action sequences:
- replay: the actions alone (bare replay);
- query+act: before each action the query a bot makes (who acts, legal actions, call amount,
  minimum and maximum "to").
Each figure is the median of R runs. Memory per live hand is measured with tracemalloc on
engines held mid-hand. Tool timings: validating every spec, generating every file (diagrams
included). A benchmark, not a timed test: machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass

from betspec.conformance.runner import engine_class
from betspec.project import Project, load_all, outputs
from betspec.runtime import Engine, Table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STRUCTURES = ("no_limit", "pot_limit", "fixed_limit")
NEXT = {"preflop": "flop", "flop": "turn", "turn": "river"}

Step = tuple[int, str, int | None]  # (seat, action, to); seat -1 is a deal of street `action`


@dataclass
class Hand:
    structure: str
    table: Table
    steps: list[Step]


def random_table(structure: str, rng: random.Random) -> Table:
    seats = rng.randint(2, 10)
    stacks = [rng.randint(20, 400) * 10 for _ in range(seats)]
    bets = (20, 40) if structure == "fixed_limit" else None
    return Table(stacks, rng.randrange(seats), (10, 20), 0, bets)


#: Options under which betspec and PokerKit 0.7.7 play by the same rules (PokerKit never lifts
#: the fixed-limit cap heads-up and has no half-bet rule).
PEER_OPTIONS: dict[str, dict[str, object]] = {
    "fixed_limit": {"uncapped_heads_up": False, "half_bet_reopens": False},
}


def build(hand: Hand) -> Engine:
    return engine_class(hand.structure)(hand.table, **PEER_OPTIONS.get(hand.structure, {}))


def record(structure: str, rng: random.Random) -> Hand:
    """A random hand with a realistic mix: folds, calls, raises, all-ins."""
    table = random_table(structure, rng)
    engine = build(Hand(structure, table, []))
    steps: list[Step] = []
    while not engine.hand_over:
        if engine.to_act is None:
            street = NEXT[engine.street_name]
            engine.deal(street)
            steps.append((-1, street, None))
            continue
        seat = engine.to_act
        legal = engine.legal_actions()
        # No fold when a check is free: bots don't, and PokerKit plays it differently (see README).
        choices = [a for a in legal if not (a == "fold" and "check" in legal)]
        weights = {"fold": 3, "check": 4, "call": 4, "bet": 2, "raise": 1.5}
        action = rng.choices(choices, [weights[a] for a in choices])[0]
        to = None
        if action in ("bet", "raise"):
            low, high = engine.min_to, engine.max_to
            assert low is not None and high is not None
            to = high if rng.random() < 0.08 else min(high, low + rng.randrange(0, max(1, (high - low) // 4 + 1)))
        engine.act(seat, action, to)
        steps.append((seat, action, to))
    return Hand(structure, table, steps)


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


def median_rate(work: Callable[[], int], runs: int) -> tuple[float, float]:
    rates, seconds = [], []
    for _ in range(runs):
        gc.collect()
        started = time.perf_counter()
        count = work()
        elapsed = time.perf_counter() - started
        rates.append(count / elapsed)
        seconds.append(elapsed)
    return statistics.median(rates), statistics.median(seconds)


def memory_per_hand(hands: list[Hand]) -> float:
    """Bytes per engine held mid-hand (after its first actions)."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    live: list[Engine] = []
    for hand in hands:
        engine = build(hand)
        for seat, action, to in hand.steps[:3]:
            if seat < 0:
                engine.deal(action)
            else:
                engine.act(seat, action, to)
        live.append(engine)
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return used / len(live)


def tool_timings(runs: int) -> dict[str, float]:
    project = Project(ROOT)
    paths = project.spec_files()
    validate = statistics.median(_timed(lambda: load_all(paths), runs))
    specs, _ = load_all(paths)
    generate = statistics.median(_timed(lambda: outputs(project, specs), runs))
    return {"validate_s_per_spec": validate / len(paths), "generate_all_s": validate + generate}


def _timed(work: Callable[[], object], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per structure")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (the median is kept)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", help="also write the results to this file")
    args = parser.parse_args(argv)
    results: dict[str, object] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "hands_per_structure": args.hands,
        "runs": args.runs,
        "structures": {},
    }
    print(f"betspec benchmark: {results['machine']}; {args.hands} hands per structure, median of {args.runs} runs")
    print(f"{'structure':<12} {'workload':<10} {'actions/s':>11} {'hands/s':>9} {'bytes/hand':>11}")
    for structure in STRUCTURES:
        rng = random.Random(f"{args.seed}-{structure}")
        hands = [record(structure, rng) for _ in range(args.hands)]
        count = sum(1 for h in hands for s in h.steps if s[0] >= 0)
        memory = memory_per_hand(hands[:1000])
        rows = {}
        for workload, query in (("replay", False), ("query+act", True)):
            rate, seconds = median_rate(lambda h=hands, q=query: replay(h, q), args.runs)
            rows[workload] = {"actions_per_s": rate, "hands_per_s": len(hands) / seconds}
            print(f"{structure:<12} {workload:<10} {rate:>11,.0f} {len(hands) / seconds:>9,.0f} {memory:>11,.0f}")
        results["structures"][structure] = {"actions": count, "bytes_per_live_hand": memory, **rows}  # type: ignore[index]
    tools = tool_timings(args.runs)
    results["tools"] = tools
    validate_ms = tools["validate_s_per_spec"] * 1000
    print(f"validate: {validate_ms:.1f} ms per spec; generate (all specs, diagrams): {tools['generate_all_s']:.2f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=2)
            handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
