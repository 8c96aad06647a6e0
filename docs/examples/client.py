"""What a client of a generated engine writes (README, "Using an engine"): type-checked by the
README's test command with mypy --strict, and run by tests/test_contract.py."""

from __future__ import annotations

import json
import random

from betspec.engines.no_limit import NoLimit
from betspec.runtime import (
    Code,
    Engine,
    IllegalAction,
    Played,
    Policy,
    Pot,
    SnapshotError,
    Start,
    Table,
    compiled,
    engine_class,
    fast_engine,
    has_kernel,
    play_hands,
)
from betspec.runtime.snapshot import restore
from betspec.tools.simulate import random_table

hand = NoLimit(Table(stacks=[950, 950, 250], button=2, blinds=(25, 50)), start=Start("flop", 150))
assert (hand.to_act, hand.legal_actions(), hand.min_to, hand.max_to) == (0, ("bet", "check", "fold"), 50, 950)
hand.bet(0, 100)
hand.raise_to(1, 200)
hand.all_in(2)
hand.call(0)
try:
    hand.raise_to(1, 400)
except IllegalAction as error:
    assert (error.code, error.rule) == (Code.NOT_REOPENED, "REOPEN") and "no-limit rule 3" in error.source
hand.call(1)
assert hand.round_over and hand.pots() == [Pot(amount=900, eligible=(0, 1, 2))]

# A server keeps a signed snapshot after each action, and restores the hand from it.
key = b"server secret"
saved: str = json.dumps(hand.snapshot(key=key))
again: Engine = restore(json.loads(saved), key=key)
again.deal("turn")
assert again.street_name == "turn" and again.to_act == 0

# Engines by structure name, with options as keywords: a typo is refused, naming the option.
fixed = engine_class("fixed_limit")
try:
    fixed(Table(stacks=[100, 100], button=0, blinds=(1, 2), bets=(2, 4)), max_raise=4)
except SnapshotError:
    raise
except Exception as error:
    assert "did you mean 'max_raises'" in str(error)

# A showdown paid, and the next hand's table (README, "Hands in and out, pots paid").
played = NoLimit(Table(stacks=[300, 500, 500], button=0, blinds=(5, 10)))
played.all_in(0)
played.call(1)
played.call(2)
played.deal("flop")
played.bet(1, 100)
played.call(2)
for street in ("turn", "river"):
    played.deal(street)
    played.check(1)
    played.check(2)
assert played.pots() == [Pot(amount=900, eligible=(0, 1, 2)), Pot(amount=200, eligible=(1, 2))]
paid = played.settle([0, [1, 2]])
assert paid.won == (900, 100, 100) and played.stacks == (900, 200, 200)
following: Table = played.next_table()
assert following.button == 1 and following.stacks == (900, 200, 200)

# Many hands in one call: a bot as data (README, "Many hands in one call").
rng = random.Random(1)
bot = Policy({"fold": 3, "check": 4, "call": 4, "bet": 2, "raise": 1.5})
tables = (random_table("no_limit", rng) for _ in range(1_000))
batch: Played = play_hands(engine_class("no_limit"), tables, bot, rng)
assert batch.hands == 1_000 and batch.actions > batch.hands
assert isinstance(compiled(NoLimit), bool)

# A hand at C speed where the install compiled the kernel (README, "Kernels"): the same API, the
# same refusals; the Python engine answers what the kernel does not.
Fast = fast_engine("no_limit")
quick = Fast(Table(stacks=[1000, 1000, 1000], button=0, blinds=(5, 10)))
assert (quick.to_act, quick.legal_actions(), quick.min_to) == (0, ("call", "fold", "raise"), 20)
quick.raise_to(0, 30)
try:
    quick.raise_to(1, 40)
except IllegalAction as error:
    assert error.code == Code.BELOW_MINIMUM
quick.fold(1)
quick.call(2)
assert quick.pot == 65 and quick.next_street == "flop" and isinstance(has_kernel("no_limit"), bool)
