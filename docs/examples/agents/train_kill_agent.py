"""Train the small agent of ``kill_agent.py`` on the house's kill game and write what it learned
to ``kill_agent.json``; then measure it against the agents it should beat.

    python docs/examples/agents/train_kill_agent.py --hands 30000

The game is the tutorial house's ``kill_after_two_pots.json`` (fixed-limit hold'em, its limits
doubled in a killed pot), loaded from its file (``betspec.house.load``: no generated files), at
two seats, every other hand killed by the button. The environment is betspec's PettingZoo one
(``betspec.tools.env``: ``pip install 'betspec[env]'``), its Gymnasium wrapper playing the other
seat. The learning is the plainest there is: Monte Carlo control over the situations
``kill_agent.situation`` tells apart, each action's value the running mean of the chips it led
to, explored epsilon-greedily. Seeded: the same command writes the same file.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import kill_agent  # type: ignore[import-not-found]  # noqa: E402  (the agent file beside this one)

from betspec import house  # noqa: E402
from betspec.tools.env import PokerEnv, SingleAgentEnv, random_policy  # noqa: E402

SPEC = HERE.parent / "house" / "spec" / "kill_after_two_pots.json"

Policy = Callable[[dict[str, Any]], int]


def game(seed: int) -> SingleAgentEnv:
    """Heads-up, 100 big blinds each, every other hand killed by the button; the other seat
    plays uniformly at random among its legal actions."""
    cls = house.load(SPEC)
    killed = random.Random(f"kills {seed}")

    def inputs(button: int) -> dict[str, object]:
        return {"kill": "full", "killer": button} if killed.random() < 0.5 else {}

    poker = PokerEnv(cls, seats=2, inputs=inputs, reward_unit="big_blinds", fractions=kill_agent.FRACTIONS)
    return SingleAgentEnv(poker, "player_0", {"player_1": random_policy(random.Random(f"opponent {seed}"))})


def train(hands: int, seed: int = 1) -> dict[str, list[float]]:
    """Each situation's value of each action, learned over ``hands`` hands."""
    table = game(seed)
    actions = len(table.poker.action_names)
    values: dict[str, list[float]] = {}
    seen: dict[str, list[int]] = {}
    rng = random.Random(f"explore {seed}")
    for hand in range(hands):
        explore = max(0.05, 1.0 - 2.0 * hand / hands)
        observation, _ = table.reset(seed=rng.randrange(2**31))
        visited: list[tuple[str, int]] = []
        done, reward = over(table)
        while not done:
            key = kill_agent.situation(observation["observation"])
            legal = [index for index, allowed in enumerate(observation["action_mask"]) if allowed]
            known = values.get(key)
            if known is None or rng.random() < explore:
                action = rng.choice(legal)
            else:
                action = max(legal, key=lambda index: known[index])
            visited.append((key, action))
            observation, reward, done, _, _ = table.step(action)
        for key, action in visited:
            value = values.setdefault(key, [0.0] * actions)
            count = seen.setdefault(key, [0] * actions)
            count[action] += 1
            value[action] += (reward - value[action]) / count[action]
    return values


def over(table: SingleAgentEnv) -> tuple[bool, float]:
    """Whether the hand just dealt is over before the agent acts (the other seat folded its
    small blind), and the agent's reward then."""
    done = bool(table.poker.terminations[table.agent])
    return done, float(table.poker.rewards[table.agent]) if done else 0.0


def measure(choose: Policy, hands: int, seed: int = 99) -> float:
    """Big blinds won a hand by ``choose`` against the random seat, over ``hands`` seeded hands."""
    table = game(seed)
    won = []
    for number in range(hands):
        observation, _ = table.reset(seed=number)
        done, reward = over(table)
        while not done:
            observation, reward, done, _, _ = table.step(choose(observation))
        won.append(reward)
    return statistics.fmean(won)


def always_call(observation: dict[str, Any]) -> int:
    return 1 if observation["action_mask"][1] else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=30000, help="hands to train on")
    parser.add_argument("--measure", type=int, default=5000, help="hands to measure each agent on")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(HERE / "kill_agent.json"))
    args = parser.parse_args()
    values = train(args.hands, args.seed)
    rounded = {key: [round(v, 4) for v in row] for key, row in sorted(values.items())}
    Path(args.out).write_text(json.dumps({"hands": args.hands, "seed": args.seed, "values": rounded}, indent=0) + "\n")
    kill_agent.TABLE = rounded
    print(f"trained on {args.hands} hands: {len(rounded)} situations, written to {args.out}")
    uniform = random_policy(random.Random("measured random"))
    for name, agent in (
        ("the trained agent", kill_agent.choose),
        ("always check or call", always_call),
        ("random", uniform),
    ):
        print(f"{name}: {measure(agent, args.measure):+.3f} big blinds a hand against the random seat")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
