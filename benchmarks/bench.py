"""Benchmark: generated engines beside PokerKit and other peers on the same seeded random hands.

    python benchmarks/bench.py [--hands N] [--runs R] [--json FILE] [--no-peer]
                               [--peers pokerkit,openspiel,clubs,rlcard]

Workloads, per structure, on the same recorded action sequences (2 to 10 seats, folds, calls,
bets, raises, all-ins), played through betspec's default engine and through every peer in one run:
- replay: the actions alone (dealing automated in the peers);
- query+act: before each action the query a bot makes: who acts, what is legal, the call amount,
  the minimum and maximum "to".
Each rate is the median of R runs, interleaved so that every engine sees the same machine load,
each sample repeating its workload until at least a second has passed;
a ratio is betspec's rate over the peer's. Memory per live hand (betspec and PokerKit):
tracemalloc over hands held after their first actions. Tool timings: the `betspec` command itself
(a fresh process) validating every spec and generating every file, diagrams included. A
benchmark, not a timed test: shared machines are noisy, so compare the ratios.

Peers: PokerKit (peer_pokerkit) takes every recorded hand. OpenSpiel, clubs and RLCard (their
peer_*.py files, each optional) are first checked hand by hand against betspec (peer_check.py):
the hands one cannot take are counted by reason and left out of its timing, so its rate is over
the hands it took; what it answers differently is counted too (benchmarks/peers.md). A peer that
does not import is reported as not installed and skipped.
"""

from __future__ import annotations

import argparse
import gc
import importlib
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
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version
from types import ModuleType
from typing import TYPE_CHECKING, Any

from betspec.project import Project, load_all
from betspec.runtime import Engine, Table, engine_class, fast_engine, has_kernel
from betspec.tools.simulate import play, random_table

if TYPE_CHECKING:  # imported where used: the script puts the project root on sys.path first
    from benchmarks.peer_check import Adapter, Findings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STRUCTURES = ("no_limit", "pot_limit", "fixed_limit")
#: Every peer, in table order; each is benchmarks/peer_<name>.py.
PEERS = ("pokerkit", "openspiel", "clubs", "rlcard")

Step = tuple[int, str, int | None]  # (seat, action, to); seat -1 is a deal of street `action`


@dataclass
class Hand:
    structure: str
    table: Table
    steps: list[Step]
    #: PokerKit's antes and blinds for the table, read once from betspec's posting (not timed).
    posts: tuple[list[int], list[int]] = ([], [])


#: Options under which betspec and PokerKit 0.7.7 play by the same rules (PokerKit never lifts
#: the fixed-limit cap heads-up and has no half-bet rule).
PEER_OPTIONS: dict[str, dict[str, object]] = {
    "fixed_limit": {"uncapped_heads_up": False, "half_bet_reopens": False},
}


def build(hand: Hand, fast: bool = False) -> Engine:
    """The hand's engine: the default one, or with ``fast`` the spec's kernel (fast_engine)."""
    cls = fast_engine(hand.structure) if fast else engine_class(hand.structure)
    return cls(hand.table, **PEER_OPTIONS.get(hand.structure, {}))  # type: ignore[arg-type]


def record(structure: str, rng: random.Random) -> Hand:
    """A hand played by betspec.tools.simulate's bot (folds, calls, raises, all-ins), its steps kept."""
    from benchmarks.forced import forced_bets

    hand = Hand(structure, random_table(structure, rng), [])
    hand.posts = forced_bets(structure, hand.table, PEER_OPTIONS.get(structure, {}))
    play(build(hand), rng, lambda seat, action, to: hand.steps.append((seat, action, to)))
    return hand


def replay(hands: list[Hand], query: bool, fast: bool = False) -> int:
    actions = 0
    for hand in hands:
        engine = build(hand, fast)
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


def node_server() -> Any:
    """A Node process holding the TypeScript engines (betspec.tools.typescript_run), or None
    where Node or the TypeScript compiler is missing (said on stderr)."""
    from betspec.tools import typescript_run

    try:
        return typescript_run.Server(ROOT)
    except (typescript_run.NodeMissing, RuntimeError) as missing:
        print(f"the TypeScript engines under Node: skipped ({missing})", file=sys.stderr)
        return None


def node_load(server: Any, hands: list[Hand]) -> int:
    """The hands sent to Node once (not timed); the id its replays name them by."""
    data = [
        {
            "structure": h.structure,
            "table": h.table.to_json(),
            "options": PEER_OPTIONS.get(h.structure, {}),
            "steps": [list(step) for step in h.steps],
        }
        for h in hands
    ]
    answer = server.ask({"op": "bench_load", "hands": data})
    return int(answer["ok"])


def node_replay(server: Any, loaded: int, query: bool) -> int:
    """The same replay through the TypeScript engines under Node (one request: the hands are there)."""
    return int(server.ask({"op": "bench_run", "id": loaded, "query": query})["ok"])


def peer_replay(hands: list[Hand], query: bool) -> int:
    from benchmarks.peer_pokerkit import replay as pokerkit_replay

    return sum(pokerkit_replay(hand.structure, hand.table, hand.steps, query, hand.posts) for hand in hands)


@dataclass
class Peer:
    """A peer that imported: its module, the name it is shown by, its installed version."""

    name: str
    module: ModuleType
    label: str
    version: str


def load_peers(names: list[str]) -> tuple[list[Peer], list[str]]:
    """The peers among ``names`` that import, and the names of those that do not."""
    loaded, missing = [], []
    for name in names:
        try:
            module = importlib.import_module(f"benchmarks.peer_{name}")
        except ImportError:
            missing.append(name)
            continue
        if name == "pokerkit":
            loaded.append(Peer(name, module, "PokerKit", version("pokerkit")))
        elif module.available():
            loaded.append(Peer(name, module, module.LABEL, version(module.PACKAGE)))
        else:
            missing.append(name)
    return loaded, missing


def check_peer(peer: Peer, hands: list[Hand], seed: int) -> Findings:
    """Which hands ``peer`` can take (with its native form of each), and what it answers otherwise."""
    from benchmarks.peer_check import Findings, check_hand

    findings = Findings()
    for index, hand in enumerate(hands):
        hand_seed = zlib.crc32(f"{seed}-{hand.structure}-{index}".encode())

        def adapter(hand: Hand = hand, hand_seed: int = hand_seed) -> Adapter:
            return peer.module.Adapter(hand.structure, hand.table, hand_seed)  # type: ignore[no-any-return]

        check_hand(findings, index, hand.table, hand.steps, build(hand), adapter)
    return findings


def ratio_text(ratio: float) -> str:
    return f"{ratio:.2f}x" if ratio < 1 else f"{ratio:.1f}x"


#: The least a timed sample lasts: a workload is repeated until this many seconds have passed.
LEAST_SECONDS = 1.0


def timed(work: Callable[[], int], least: float = 0.0) -> tuple[int, float]:
    """(count, seconds) of one pass of ``work``, the mean of as many passes as take ``least``
    seconds at least."""
    gc.collect()
    count, passes = 0, 0
    started = time.perf_counter()
    while True:
        count += work()
        passes += 1
        elapsed = time.perf_counter() - started
        if elapsed >= least:
            return count // passes, elapsed / passes


def compare(works: dict[str, Callable[[], int]], runs: int) -> dict[str, tuple[float, float]]:
    """Median (actions/s, seconds per pass) of each work, runs interleaved, each sample lasting
    LEAST_SECONDS at least."""
    samples: dict[str, list[tuple[float, float]]] = {name: [] for name in works}
    for _ in range(runs):
        for name, work in works.items():
            count, seconds = timed(work, LEAST_SECONDS)
            samples[name].append((count / seconds, seconds))
    return {
        name: (statistics.median(r for r, _ in values), statistics.median(t for _, t in values))
        for name, values in samples.items()
    }


def memory_per_hand(hands: list[Hand], peer: bool = False, fast: bool = False) -> float:
    """Bytes per hand held after its first three actions (betspec engines, kernel hands with
    ``fast``, or PokerKit states)."""
    if peer:
        from benchmarks.peer_pokerkit import Peer
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    live: list[object] = []
    for hand in hands:
        actions = [s for s in hand.steps if s[0] >= 0][:3]
        if peer:
            held = Peer(hand.structure, hand.table, posts=hand.posts)
            for _, action, to in actions:
                held.act(action, to)
            live.append(held.state)
        else:
            engine = build(hand, fast)
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


def parse_peers(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in PEERS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown peer {', '.join(unknown)} (peers: {', '.join(PEERS)})")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per structure")
    parser.add_argument("--runs", type=int, default=5, help="runs per figure (the median is kept)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--no-peer", action="store_true", help="betspec alone, without any peer")
    parser.add_argument("--no-node", action="store_true", help="without the TypeScript engines under Node")
    parser.add_argument(
        "--peers",
        type=parse_peers,
        default=list(PEERS),
        help=f"comma-separated peers (default: every one that imports: {','.join(PEERS)})",
    )
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # PokerKit warns on some legal actions
    from benchmarks.peer_check import summary

    peers, missing = load_peers([] if args.no_peer else args.peers)
    for name in missing:
        # On stderr, so that the table reads as before when PokerKit is the only peer installed.
        print(f"peer {name}: not installed, skipped (pip install -e '.[bench]')", file=sys.stderr)
    pokerkit = any(p.name == "pokerkit" for p in peers)
    others = [p for p in peers if p.name != "pokerkit"]
    results: dict[str, object] = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "hands_per_structure": args.hands,
        "runs": args.runs,
        "structures": {},
    }
    for p in peers:
        results[p.name] = p.version
    if others:
        results["peers"] = {p.name: {"label": p.label, "version": p.version} for p in peers}
        results["peers_not_installed"] = missing
    print(f"betspec benchmark: {results['machine']}; {args.hands} hands per structure, median of {args.runs} runs")
    header = f"{'structure':<12} {'workload':<10} {'betspec/s':>10} {'hands/s':>8}"
    if pokerkit:
        header += f" {'PokerKit/s':>10} {'ratio':>6}"
    for p in others:
        header += f" {p.label + '/s':>12} {'ratio':>6}"
    print(header)
    table: dict[str, object] = {}
    notes: list[str] = []
    node = None if args.no_node else node_server()
    for structure in STRUCTURES:
        rng = random.Random(f"{args.seed}-{structure}")
        hands = [record(structure, rng) for _ in range(args.hands)]
        count = sum(1 for h in hands for s in h.steps if s[0] >= 0)
        row: dict[str, object] = {"actions": count}
        checked = {p.name: check_peer(p, hands, args.seed) for p in others}
        if others:
            row["peers"] = {name: found.as_json() for name, found in checked.items()}
        for p in others:
            found = checked[p.name]
            taken = f"took {len(found.taken):,} of {found.hands:,} hands"
            notes.append(f"{p.label} {p.version}, {structure}: {taken}")
            notes.extend(f"    {line}" for line in summary(found))
        kernel = has_kernel(structure)
        loaded = node_load(node, hands) if node is not None else -1
        for workload, query in (("replay", False), ("query+act", True)):
            works: dict[str, Callable[[], int]] = {"betspec": lambda h=hands, q=query: replay(h, q)}
            if kernel:
                works["kernel"] = lambda h=hands, q=query: replay(h, q, fast=True)
            if node is not None:
                works["node"] = lambda n=node, i=loaded, q=query: node_replay(n, i, q)  # type: ignore[misc]
            if pokerkit:
                works["pokerkit"] = lambda h=hands, q=query: peer_replay(h, q)
            for p in others:
                if checked[p.name].natives:
                    works[p.name] = lambda m=p.module, n=checked[p.name].natives, q=query: m.replay(n, q)  # type: ignore[misc]
            rates = compare(works, args.runs)
            rate, seconds = rates["betspec"]
            entry: dict[str, float | None] = {"actions_per_s": rate, "hands_per_s": len(hands) / seconds}
            line = f"{structure:<12} {workload:<10} {rate:>10,.0f} {len(hands) / seconds:>8,.0f}"
            if pokerkit:
                entry["pokerkit_actions_per_s"] = rates["pokerkit"][0]
                entry["ratio"] = rate / rates["pokerkit"][0]
                line += f" {rates['pokerkit'][0]:>10,.0f} {entry['ratio']:>5.1f}x"
            for p in others:
                if p.name in rates:
                    theirs = rates[p.name][0]
                    entry[f"{p.name}_actions_per_s"] = theirs
                    entry[f"{p.name}_ratio"] = rate / theirs
                    line += f" {theirs:>12,.0f} {ratio_text(rate / theirs):>6}"
                else:  # no hand taken: nothing to time
                    entry[f"{p.name}_actions_per_s"] = entry[f"{p.name}_ratio"] = None
                    line += f" {'-':>12} {'-':>6}"
            row[workload] = entry
            print(line)
            if node is not None:
                theirs, seconds = rates["node"]
                entry["node_actions_per_s"] = theirs
                entry["node_over_default"] = theirs / rates["betspec"][0]
                line = f"{'  TS/Node':<12} {workload:<10} {theirs:>10,.0f} {len(hands) / seconds:>8,.0f}"
                print(f"{line}   ({ratio_text(theirs / rates['betspec'][0])} the Python engine's rate)")
            if kernel:
                rate, seconds = rates["kernel"]
                entry["kernel_actions_per_s"] = rate
                entry["kernel_over_default"] = rate / rates["betspec"][0]
                line = f"{'  kernel':<12} {workload:<10} {rate:>10,.0f} {len(hands) / seconds:>8,.0f}"
                for p in [*([next(p for p in peers if p.name == "pokerkit")] if pokerkit else []), *others]:
                    width = 10 if p.name == "pokerkit" else 12  # the columns of the line above
                    if p.name in rates:
                        entry[f"kernel_{p.name}_ratio"] = rate / rates[p.name][0]
                        line += f" {rates[p.name][0]:>{width},.0f} {ratio_text(rate / rates[p.name][0]):>6}"
                    else:
                        line += f" {'-':>{width}} {'-':>6}"
                print(line)
        sample = hands[: min(1000, len(hands))]
        row["bytes_per_live_hand"] = memory_per_hand(sample)
        memory = f"{structure:<12} {'memory':<10} {row['bytes_per_live_hand']:>9,.0f}B per live hand"
        if pokerkit:
            row["pokerkit_bytes_per_live_hand"] = memory_per_hand(sample, peer=True)
            row["memory_ratio"] = row["bytes_per_live_hand"] / row["pokerkit_bytes_per_live_hand"]  # type: ignore[operator]
            memory += f"; PokerKit {row['pokerkit_bytes_per_live_hand']:,.0f}B ({row['memory_ratio']:.2f} of it)"
        if kernel:
            row["kernel_bytes_per_live_hand"] = memory_per_hand(sample, fast=True)
            memory += f"; kernel {row['kernel_bytes_per_live_hand']:,.0f}B"
        print(memory)
        table[structure] = row
    results["structures"] = table
    if node is not None:
        node.close()
    if notes:
        print("hands each peer took (the others are left out of its rates) and its commonest differences:")
        for note in notes:
            print(note)
    tools = tool_timings(max(1, min(args.runs, 3)))
    results["tools"] = tools
    print(
        f"betspec validate: {tools['validate_command_s']:.2f} s for {tools['specs']} specs "
        f"({tools['validate_s_per_spec']:.3f} s per spec, {tools['validate_in_process_s_per_spec'] * 1000:.0f} ms "
        f"in process); betspec generate, diagrams included: {tools['generate_command_s']:.2f} s"
    )
    if args.json:
        write_results(args.json, results)
    return 0


def write_results(path: str, results: dict[str, object]) -> None:
    """A run's results as the JSON file the README's tables are read from."""
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(results, handle, indent=2)
        handle.write("\n")


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    sys.exit(main())
