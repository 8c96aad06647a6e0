"""Start-up: the wall time of short commands beyond the interpreter's own start (`python -c pass`),
interleaved, the median of many runs each, with byte-code cached as any installed package has it.

    .venv/bin/python benchmarks/startup.py --runs 31 --json benchmarks/results/startup.json

`python -X importtime -m betspec.cli <command>` shows where a command's imports go.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BETSPEC = shutil.which("betspec", path=str(Path(sys.executable).parent)) or "betspec"
COMMANDS = {
    "interpreter": [sys.executable, "-c", "pass"],
    "betspec --help": [BETSPEC, "--help"],
    "betspec validate (one spec)": [BETSPEC, "validate", str(ROOT / "spec" / "no_limit.json")],
    "betspec phh check (one hand)": [
        BETSPEC,
        "phh",
        "check",
        "--structure",
        "fixed_limit",
        str(ROOT / "tests" / "phh" / "arieh-yockey-2019.phh"),
    ],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=31)
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    env = {**os.environ}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # an installed package's byte-code is compiled
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(args.runs + 1):  # the first round writes the byte-code, and is not counted
        for name, command in COMMANDS.items():
            started = time.perf_counter()
            subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            times[name].append(time.perf_counter() - started)
    medians = {name: statistics.median(found[1:]) for name, found in times.items()}
    base = medians["interpreter"]
    results = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}",
        "runs": args.runs,
        "seconds": {name: round(value, 4) for name, value in medians.items()},
        "beyond_interpreter": {name: round(medians[name] - base, 4) for name in COMMANDS if name != "interpreter"},
    }
    for name, value in medians.items():
        extra = "" if name == "interpreter" else f"  ({value - base:.3f} s beyond the interpreter)"
        print(f"{name:32} {value:.3f} s{extra}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
