"""Issue 34, item 1: a PettingZoo environment for any spec, and a Gymnasium one for one seat.

PettingZoo's own ``api_test`` and ``seed_test`` pass for every shipped structure (and a house's,
whose own action is offered), Gymnasium's ``check_env`` for the single-agent wrapper; what an
agent sees is its own cards and what the table shows, never another's hole cards; the mask offers
exactly what the spec allows (a fixed-limit round one amount, the bring-in to its seat); rewards
are the chips won and lost, every chip accounted for (the rake included); bad input is refused
with InvalidTable, changing nothing."""

from __future__ import annotations

import random
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the environments need 'betspec[env]'")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from betspec import house
from betspec.runtime import InvalidTable, engine_class, engine_names
from betspec.tools.agent_actions import CARDS
from betspec.tools.env import PokerEnv, SingleAgentEnv, env


def play_out(poker: PokerEnv, rng: random.Random, seed: int | None = None, prefer: str = "") -> dict[str, float]:
    """One hand, each seat acting at random among its legal actions (``prefer``'s where legal);
    each agent's reward as it reads it once the hand is over."""
    poker.reset(seed=seed)
    rewards: dict[str, float] = {}
    for agent in poker.agent_iter():
        observation, reward, terminated, truncated, _info = poker.last()
        if terminated or truncated:
            rewards[agent] = reward
            poker.step(None)
            continue
        legal = [index for index, allowed in enumerate(observation["action_mask"]) if allowed]
        preferred = poker.action_names.index(prefer) if prefer in poker.action_names else -1
        poker.step(preferred if preferred in legal else rng.choice(legal))
    return rewards


@pytest.mark.parametrize("structure", engine_names())
@pytest.mark.parametrize("seats", [2, 6])
def test_pettingzoo_s_api_test_passes_for_every_shipped_structure(structure: str, seats: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a Dict observation with its mask, as PettingZoo's classic games
        api_test(env(structure, seats=seats), num_cycles=200, verbose_progress=False)


@pytest.mark.parametrize("structure", ["no_limit", "seven_card_stud", "triple_draw", "jacks_or_better"])
def test_a_seed_deals_and_plays_the_same_hand_and_gymnasium_s_checker_passes(structure: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: env(structure, seats=3), num_cycles=100)
        check_env(SingleAgentEnv(env(structure, seats=3)), skip_render_check=True)


@pytest.mark.parametrize("structure", ["no_limit", "fixed_limit", "pot_limit", "seven_card_stud", "badugi"])
def test_rewards_are_the_chips_won_and_lost(structure: str) -> None:
    rng = random.Random(structure)
    poker = env(structure, seats=4)
    for hand in range(40):
        rewards = play_out(poker, rng, seed=hand)
        engine = poker.engine
        assert engine is not None
        won = [engine.stacks[seat] - poker.stacks[seat] for seat in range(4)]
        assert engine.paid and sum(won) == 0
        assert [rewards[f"player_{seat}"] for seat in range(4)] == won


def test_an_agent_sees_its_own_cards_and_what_the_table_shows_never_another_s() -> None:
    poker = env("seven_card_stud", seats=3)
    poker.reset(seed=7)
    dealer = poker.dealer
    assert dealer is not None
    for seat, agent in enumerate(poker.possible_agents):
        features = poker.observe(agent)["observation"]
        own = {CARDS[i] for i in np.flatnonzero(features[: len(CARDS)])}
        others_up = {CARDS[i] for i in np.flatnonzero(features[2 * len(CARDS) : 3 * len(CARDS)])}
        assert own == set(dealer.hole[seat])
        others = [other for other in range(3) if other != seat]
        shown = {c for o in others for c, up in zip(dealer.hole[o], dealer.up[o], strict=True) if up}
        assert others_up == shown and len(shown) == 2
    holdem = env("no_limit", seats=3)
    holdem.reset(seed=3)
    features = holdem.observe("player_1")["observation"]
    assert features[2 * len(CARDS) : 3 * len(CARDS)].sum() == 0 and features[: len(CARDS)].sum() == 2


def test_the_mask_offers_what_the_spec_allows() -> None:
    limit = env("fixed_limit", seats=3)
    limit.reset(seed=1)
    seat = limit.possible_agents.index(limit.agent_selection)
    mask = limit.observe(limit.agent_selection)["action_mask"]
    wagers = [
        name
        for name, allowed in zip(limit.action_names, mask, strict=True)
        if allowed and name not in ("fold", "check_or_call")
    ]
    assert len(wagers) == 1  # a fixed-limit round has one amount to raise to
    assert limit.engine is not None and limit.engine.to_act == seat
    stud = env("seven_card_stud", seats=4)
    stud.reset(seed=2)
    engine, dealer = stud.engine, stud.dealer
    assert engine is not None and dealer is not None
    assert engine.to_act == dealer.table_inputs()["bring_in_seat"]
    mask = stud.observe(stud.agent_selection)["action_mask"]
    assert mask[stud.action_names.index("bring_in")] == 1 and mask[stud.action_names.index("fold")] == 0
    others = [a for a in stud.possible_agents if a != stud.agent_selection]
    assert all(not stud.observe(agent)["action_mask"].any() for agent in others)


def test_a_house_s_own_action_is_offered_and_a_rake_is_in_the_rewards(example_house: Path) -> None:
    with house.active(str(example_house)):
        # The sleeper three seats left of the button: out of the blinds, whoever has the button.
        sleeper = env("sleeper_straddle", seats=6, inputs=lambda button: {"sleeper_seat": (button + 3) % 6})
        assert "straddle" in sleeper.action_names
        rng = random.Random(4)
        straddled = 0
        for hand in range(60):
            play_out(sleeper, rng, seed=hand, prefer="straddle")
            engine = sleeper.engine
            assert engine is not None
            straddled += any(step[1] == "straddle" for step in engine.history)
        assert straddled > 0
        raked = env(engine_class("rake_no_flop_no_drop"), seats=3)
        taken = 0
        for hand in range(40):
            rewards = play_out(raked, rng, seed=hand)
            engine = raked.engine
            assert engine is not None
            assert sum(rewards.values()) == -(engine.rake + engine.jackpot_drop)
            taken += engine.rake
        assert taken > 0


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"structure": "no_limits"}, "no_limits"),
        ({"seats": 1}, "2 to 10"),
        ({"seats": "2"}, "2 to 10"),
        ({"reward_unit": "euros"}, "reward_unit"),
        ({"fractions": (0.5, -1)}, "fractions"),
        ({"render_mode": "human"}, "render_mode"),
        ({"inputs": {"blinds": (10, 5)}}, "blind"),
        ({"options": {"nope": 1}}, "nope"),
        ({"seats": 3, "stacks": [100, 100]}, "3 seats, but 2 stacks"),
    ],
)
def test_bad_input_is_refused_by_name(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises((InvalidTable, LookupError)) as refused:
        env(**{"structure": "no_limit", **kwargs})
    assert words in str(refused.value)


def test_an_action_the_mask_refuses_is_refused_and_changes_nothing() -> None:
    poker = env("no_limit", seats=3)
    with pytest.raises(InvalidTable, match="reset the environment"):
        poker.step(1)
    poker.reset(seed=5)
    mask = poker.observe(poker.agent_selection)["action_mask"]
    refused = [index for index, allowed in enumerate(mask) if not allowed]
    engine = poker.engine
    assert engine is not None and refused
    before = (engine.to_act, list(engine.stacks), engine.pot)
    for action in (refused[0], 99, -1, "call"):
        with pytest.raises(InvalidTable, match="may not"):
            poker.step(action)  # type: ignore[arg-type]
    assert (engine.to_act, list(engine.stacks), engine.pot) == before
    single = SingleAgentEnv(env("no_limit", seats=2))
    single.reset(seed=1)
    _obs, _reward, _done, _trunc, info = single.step(refused[0] if refused[0] < len(mask) else 0)
    assert info == {"illegal_action": True}
