"""The plain C floor (benchmarks/floor.c): no-limit betting as a hand-written C loop, the limit
the kernel is measured against.

    python benchmarks/floor.py [--hands N]     # checks the floor plays the kernel's hands, prints rates

:func:`load` compiles floor.c with the system ``cc -O3`` (once per source, in a temporary folder
keyed by its hash) and loads it with ctypes; :class:`Tables` packs tables and recorded hands into
the C arrays its two functions read. :func:`same_hands` is the check that keeps the comparison
honest: the floor's self-play totals (hands, actions, chips) are the kernel's on the same tables
and seed, and its replay takes every recorded action the engine took.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "floor.c")
#: As the kernels are compiled (the interpreter's -O3): a floor built at -O2 ran 1.2 times slower,
#: and every ratio against it read high.
FLAGS = ("-O3", "-shared", "-fPIC")
#: The actions of the floor by number (the kernel's ACTIONS order for no limit).
ACTIONS = ("bet", "call", "check", "fold", "raise")

_LIB: Any = None


def load() -> Any:
    """floor.c compiled (``cc -O3``) and loaded, or an OSError saying why not."""
    global _LIB
    if _LIB is not None:
        return _LIB
    with open(SOURCE, "rb") as handle:
        digest = hashlib.sha256(" ".join(FLAGS).encode() + b"\0" + handle.read()).hexdigest()[:16]
    folder = os.path.join(tempfile.gettempdir(), f"betspec-floor-{os.getuid()}")
    os.makedirs(folder, exist_ok=True)
    target = os.path.join(folder, f"floor-{digest}.so")
    if not os.path.exists(target):
        compiler = os.environ.get("CC", "cc")
        if shutil.which(compiler) is None:
            raise OSError(f"no C compiler ({compiler}) to build the C floor")
        partial = f"{target}.{os.getpid()}"
        subprocess.run([compiler, *FLAGS, "-o", partial, SOURCE], check=True)
        os.replace(partial, target)
    lib = ctypes.CDLL(target)
    ll, i32 = ctypes.POINTER(ctypes.c_longlong), ctypes.POINTER(ctypes.c_int)
    lib.floor_self_play.argtypes = [ctypes.c_int, i32, ll, i32, ll, ctypes.c_uint64, ll]
    lib.floor_self_play.restype = ctypes.c_longlong
    lib.floor_replay.argtypes = [ctypes.c_int, i32, ll, i32, ll, i32, ll, ll]
    lib.floor_replay.restype = ctypes.c_longlong
    _LIB = lib
    return lib


def _array(kind: Any, values: Sequence[int]) -> Any:
    return (kind * max(1, len(values)))(*values)


class Tables:
    """No-limit tables (stacks, button, blinds) as C arrays, and with ``steps`` the recorded
    hands on them ((seat, action, to) each, a deal as seat -1 and its street)."""

    def __init__(self, tables: Sequence[Any], steps: Sequence[Sequence[tuple[int, str, int | None]]] = ()) -> None:
        self.count = len(tables)
        self.seats = _array(ctypes.c_int, [len(t.stacks) for t in tables])
        self.stacks = _array(ctypes.c_longlong, [s for t in tables for s in t.stacks])
        self.buttons = _array(ctypes.c_int, [t.button for t in tables])
        self.blinds = _array(ctypes.c_longlong, [b for t in tables for b in t.inputs["blinds"]])
        flat: list[int] = []
        for hand in steps:
            for seat, action, to in hand:
                flat += [seat, -1, 0] if seat < 0 else [seat, ACTIONS.index(action), -1 if to is None else to]
        self.counts = _array(ctypes.c_int, [len(hand) for hand in steps])
        self.steps = _array(ctypes.c_longlong, flat)
        self.actions = sum(1 for hand in steps for seat, _, _ in hand if seat >= 0)

    def self_play(self, seed: int) -> tuple[int, int, int]:
        """(hands, actions, chips) of the bot's hands on these tables, drawn from ``seed``."""
        out = (ctypes.c_longlong * 2)()
        hands = load().floor_self_play(self.count, self.seats, self.stacks, self.buttons, self.blinds, seed, out)
        if hands < 0:
            raise RuntimeError("the C floor lost chips")
        return hands, out[0], out[1]

    def replay(self) -> tuple[int, int]:
        """(actions taken, hands refused) replaying the recorded hands."""
        out = (ctypes.c_longlong * 1)()
        refused = load().floor_replay(
            self.count, self.seats, self.stacks, self.buttons, self.blinds, self.counts, self.steps, out
        )
        return out[0], refused


def draw(hands: int, seed: int) -> tuple[list[Any], int]:
    """``hands`` no-limit tables drawn as simulate draws them (``play_drawn``: the tables from
    ``Draws(seed)``, after the decisions' generator split off it), and the 64-bit seed of those
    decisions: the floor given both plays ``play_drawn``'s very hands."""
    from betspec.runtime import Draws, engine_class
    from betspec.tools.simulate import TABLES

    first = Draws(seed)
    decisions = first.split().seed
    cls = engine_class("no_limit")
    return [TABLES.draw(cls, first) for _ in range(hands)], decisions


def play_hands_seed(seed: int) -> int:
    """The seed of the decisions ``play_hands`` draws from ``random.Random(seed)``."""
    return random.Random(seed).getrandbits(64)


def kernel_self_play(tables: list[Any], seed: int) -> tuple[int, int, int]:
    """The hands on ``tables`` through ``play_hands`` (the kernel where it is compiled), the
    decisions drawn from ``random.Random(seed)`` (:func:`play_hands_seed`)."""
    from betspec.runtime import engine_class, play_hands
    from betspec.tools.simulate import BOT

    played = play_hands(engine_class("no_limit"), tables, BOT, random.Random(seed))
    return played.hands, played.actions, played.chips


def kernel_play_drawn(hands: int, seed: int) -> tuple[int, int, int]:
    """``hands`` hands through ``play_drawn`` (tables drawn and played in C where the kernel is
    compiled): the hands of :func:`draw` ``(hands, seed)``."""
    from betspec.runtime import engine_class, play_drawn
    from betspec.tools.simulate import BOT, TABLES

    played = play_drawn(engine_class("no_limit"), hands, BOT, seed, tables=TABLES)
    return played.hands, played.actions, played.chips


def same_hands(hands: int = 2000, seed: int = 2026) -> tuple[int, int, int]:
    """Check the floor plays the kernel's hands (the same totals): ``play_drawn``'s, and
    ``play_hands``' on the same tables; returns ``play_drawn``'s."""
    tables, draws_seed = draw(hands, seed)
    packed = Tables(tables)
    checks = (
        ("play_drawn", packed.self_play(draws_seed), kernel_play_drawn(hands, seed)),
        ("play_hands", packed.self_play(play_hands_seed(seed)), kernel_self_play(tables, seed)),
    )
    for name, floor, kernel in checks:
        if floor != kernel:
            raise AssertionError(
                f"the C floor played other hands than {name}: {floor} (hands, actions, chips), {kernel}"
            )
    return checks[0][1]


def sample(work: Callable[[], int], least: float = 1.0) -> tuple[float, int]:
    """(count per second, repeats): ``work`` repeated until at least ``least`` seconds passed."""
    count, repeats = 0, 0
    started = time.perf_counter()
    while True:
        count += work()
        repeats += 1
        elapsed = time.perf_counter() - started
        if elapsed >= least:
            return count / elapsed, repeats


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    hands, actions, chips = same_hands(args.hands, args.seed)
    print(f"the C floor and the kernel: the same {hands:,} hands, {actions:,} actions, {chips:,} chips")
    tables, draws_seed = draw(args.hands, args.seed)
    packed = Tables(tables)
    rate, _ = sample(lambda: packed.self_play(draws_seed)[1])
    print(f"C floor self-play: {rate:,.0f} actions/s")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(HERE))
    sys.exit(main())
