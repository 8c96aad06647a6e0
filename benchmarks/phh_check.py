"""Reading hand histories: `betspec phh check`'s work (read, replay, check the pots) over the
sample's hands against PokerKit reading and replaying the same hands (HandHistory.load_all and
every state of state_actions), in one interleaved run: each sample at least a second, the median
of 5 kept, hands per second each and the ratio; betspec on one process and on two.

Each sample is timed by the clock (hands per second) and by the process's CPU time (hands per
CPU second: what one core does, whatever else the machine runs; not for two processes, whose
work is in the children). ``betspec_cold`` empties betspec's reading caches (the action texts
and cards read so far) before each pass, as the first reading of a corpus finds them.

    .venv/bin/python benchmarks/phh_check.py --json benchmarks/results/phh.json
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from betspec.tools import phh

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(str(path) for path in (ROOT / "tests" / "phh").glob("*.phhs"))


def betspec_check(jobs: int, cold: bool = False) -> Callable[[], int]:
    def run() -> int:
        if cold:
            phh.actions._LINES.clear()
            phh.actions._CARD_TEXTS.clear()
        return sum(report.hands for report in phh.check_files(FILES, "no_limit", {}, jobs))

    return run


def pokerkit_replay() -> int:
    from pokerkit import HandHistory

    hands = 0
    for path in FILES:
        with open(path, "rb") as handle:
            for history in HandHistory.load_all(handle):
                for _ in history.state_actions:
                    pass
                hands += 1
    return hands


def rate(run: Callable[[], int]) -> tuple[float, float]:
    """Hands per second and per CPU second of this process over at least a second of whole runs."""
    hands, started, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        hands += run()
        seconds = time.perf_counter() - started
        if seconds >= 1.0:
            return hands / seconds, hands / max(time.process_time() - cpu, 1e-9)


def main() -> int:
    parser = argparse.ArgumentParser(description="betspec phh check against PokerKit reading the same hands")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    contenders: dict[str, Callable[[], int]] = {
        "betspec": betspec_check(1),
        "betspec_cold": betspec_check(1, cold=True),
        "betspec_2_jobs": betspec_check(2),
        "pokerkit": pokerkit_replay,
    }
    counts = {name: run() for name, run in contenders.items()}  # warm up, and the same hands
    assert len(set(counts.values())) == 1, counts
    samples: dict[str, list[float]] = {name: [] for name in contenders}
    cpu_samples: dict[str, list[float]] = {name: [] for name in contenders if "jobs" not in name}
    for _ in range(args.runs):
        for name, run in contenders.items():
            wall, cpu = rate(run)
            samples[name].append(wall)
            if name in cpu_samples:
                cpu_samples[name].append(cpu)
    medians = {name: statistics.median(values) for name, values in samples.items()}
    cpu_medians = {name: statistics.median(values) for name, values in cpu_samples.items()}
    result = {
        "hands": counts["betspec"],
        "files": [str(Path(path).relative_to(ROOT)) for path in FILES],
        "hands_per_second": {name: round(value) for name, value in medians.items()},
        "samples": {name: [round(value) for value in values] for name, values in samples.items()},
        "hands_per_cpu_second": {name: round(value) for name, value in cpu_medians.items()},
        "cpu_samples": {name: [round(value) for value in values] for name, values in cpu_samples.items()},
        "betspec_over_pokerkit": round(medians["betspec"] / medians["pokerkit"], 2),
        "betspec_cold_over_pokerkit": round(medians["betspec_cold"] / medians["pokerkit"], 2),
        "two_jobs_over_one": round(medians["betspec_2_jobs"] / medians["betspec"], 2),
        "machine": f"{platform.machine()}, Python {platform.python_version()}",
        "pokerkit": _version("pokerkit"),
        "fast_toml": phh.document._fast_toml is not None,
    }
    print(json.dumps(result, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


def _version(name: str) -> str:
    from importlib.metadata import version

    return version(name)


if __name__ == "__main__":
    sys.exit(main())
