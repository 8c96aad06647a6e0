"""A small agent for the house's kill game (docs/examples/house/spec/kill_after_two_pots.json,
fixed-limit hold'em heads-up where a player who wins two pots in a row must kill the next), trained
by ``train_kill_agent.py`` and played against a person by ``betspec play``::

    betspec play docs/examples/house/spec/kill_after_two_pots.json --agent 1=docs/examples/agents/kill_agent.py

An agent file for ``betspec play --agent`` defines ``choose(observation) -> int``: the index of
an action of ``betspec.tools.env.PokerEnv`` (its observation: the vector and the legal actions'
mask), and may say the pot ``FRACTIONS`` its actions were numbered with (the environment's
default otherwise). This one looks its situation up in the table it learned (``kill_agent.json``):
how strong its cards are, the street, whether it faces a bet.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: The pot fractions the agent's actions were numbered with (PokerEnv's default).
FRACTIONS = (0.5, 1.0, 2.0)
#: The ranks, deuce lowest, as the observation's one-hots order the cards (rank, then suit).
RANKS = "23456789TJQKA"
#: The learned value of each action in each situation (situation key -> one value per action).
#: (Empty until train_kill_agent.py has written it.)
LEARNED = Path(__file__).with_name("kill_agent.json")
TABLE: dict[str, list[float]] = json.loads(LEARNED.read_text())["values"] if LEARNED.exists() else {}


def situation(observation: Sequence[float]) -> str:
    """What the agent tells situations apart by: a strength bucket (0..5), the street, and
    whether it faces a bet (the observation's layout: betspec.tools.agent_view)."""
    vector = list(observation)
    hole = [index for index in range(52) if vector[index] > 0.5]
    board = [index for index in range(52, 104) if vector[index] > 0.5]
    street = max(range(6), key=lambda index: vector[156 + index])
    seats = (len(vector) - 166) // 4
    facing = vector[162 + 4 * seats + 1] > 0
    return f"{strength([i // 4 for i in hole], [(i - 52) // 4 for i in board])}|{street}|{int(facing)}"


def strength(hole: Sequence[int], board: Sequence[int]) -> int:
    """0..5: how good two hole cards are, alone before the flop (a pair, two high cards, one),
    then with the board (two pair or better, a top pair or an overpair, another pair, two
    overcards, nothing)."""
    if len(hole) != 2:
        return 0
    high, low = max(hole), min(hole)
    if not board:
        if high == low:
            return 5 if high >= 8 else 4
        return 3 if low >= 8 else 2 if high >= 10 else 1 if high >= 8 else 0
    cards = [*hole, *board]
    counts = {rank: cards.count(rank) for rank in set(cards)}
    paired = [rank for rank in set(hole) if counts[rank] >= 2]
    if len(paired) >= 2 or any(counts[rank] >= 3 for rank in set(hole)):
        return 5
    if (high == low and high > max(board)) or (paired and max(paired) >= max(board)):
        return 4
    if paired or high == low:
        return 3
    return 2 if low > max(board) else 1 if high > max(board) else 0


def choose(observation: dict[str, Any]) -> int:
    """The legal action worth most in this situation, as learned; checking or calling where the
    situation was never met."""
    mask = list(observation["action_mask"])
    values = TABLE.get(situation(observation["observation"]))
    legal = [index for index, allowed in enumerate(mask) if allowed]
    if values is None:
        return 1 if mask[1] else legal[0]
    return max(legal, key=lambda index: values[index])
