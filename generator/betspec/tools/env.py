"""Reinforcement-learning environments on any spec: a PettingZoo ``AECEnv`` (an agent a seat) and
a Gymnasium single-agent wrapper playing against given policies (``pip install 'betspec[env]'``).

An episode is one hand of the spec's structure, dealt by the spec's own game (``cards.Dealer``:
hole cards, boards, upcards; stud's bring-in and openers from the cards; a draw stands pat) and
paid by its showdown (PokerKit's rankings; a structure without cards ranks the showdown at
random, seeded). The betting is the engine's: what is legal, the bounds, every rule of the spec.

**Actions.** ``Discrete`` over :attr:`PokerEnv.action_names`: ``fold``, ``check_or_call``,
``bring_in``, ``min_wager`` (the least bet or raise), a wager of each fraction of the pot
(``pot_0.5``: the call, then half the pot it makes), ``all_in``, then the spec's own actions
(a sleeper's ``straddle``). Each observation carries the mask of the legal ones; a wager's amount
is held within the spec's bounds (a fixed-limit round has one amount: the fractions mask as it),
and one the spec refuses between them (a stud open pair allows the small or the big bet only) is
made as the least wager.

**Observations.** A flat ``float32`` vector (:func:`betspec.tools.agent_view.observe`, which
``betspec play --agent`` shows a trained agent too): the seat's own cards, the board, the other
seats' upcards, the street, each seat's stack, chips in, folded or not and the button, the pot,
the call and the bounds of a wager. ``observation_space(agent)`` is a ``Dict`` of that vector
and the action mask.

**Rewards.** At the end of the hand, each seat's chips won or lost, in chips or (``reward_unit=
"big_blinds"``) in big blinds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from gymnasium import Env, spaces
from pettingzoo import AECEnv

from betspec.cards import CardError, Dealer, Game, game_of
from betspec.runtime import Engine, InvalidTable, engine_class
from betspec.tools.agent_actions import action_mask, action_names, take_action
from betspec.tools.agent_view import observation_size, observe

if TYPE_CHECKING:
    from numpy.typing import NDArray


class PokerEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """A hand of ``structure`` at ``seats`` seats, as a PettingZoo AEC environment.

    ``stacks``: the chips of each seat at every hand (default 100 big blinds, or 1,000); ``inputs``
    the table's inputs beyond the spec's examples (blinds, antes), or a function of the hand's
    button giving them (a sleeper's seat, left of the blinds); ``options`` the spec's;
    ``fractions`` the pot fractions wagers are offered at; ``reward_unit`` "chips" or
    "big_blinds". ``reset(seed=...)`` deals a new hand (the button drawn from the seed)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "betspec_poker_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        structure: str | type[Engine],
        seats: int = 2,
        stacks: Sequence[int] | None = None,
        inputs: Mapping[str, object] | Callable[[int], Mapping[str, object]] | None = None,
        options: Mapping[str, object] | None = None,
        fractions: Sequence[float] = (0.5, 1.0, 2.0),
        reward_unit: str = "chips",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        cls = engine_class(structure) if isinstance(structure, str) else structure
        if not isinstance(cls, type) or not issubclass(cls, Engine):
            raise InvalidTable(f"an environment is of a structure's name or engine class, not {structure!r}")
        if type(seats) is not int or not 2 <= seats <= 10:
            raise InvalidTable(f"an environment seats 2 to 10 players, not {seats!r}")
        if reward_unit not in ("chips", "big_blinds"):
            raise InvalidTable(f"reward_unit is 'chips' or 'big_blinds', not {reward_unit!r}")
        if render_mode not in (None, "ansi"):
            raise InvalidTable(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.action_names = action_names(cls, fractions)  # the fractions checked
        self.cls = cls
        self.seats = seats
        given: dict[str, object] = {} if callable(inputs) else dict(inputs or {})
        self.inputs_for: Callable[[int], Mapping[str, object]] = inputs if callable(inputs) else (lambda _button: given)
        self.inputs = dict(self.inputs_for(0))
        self.options: dict[str, Any] = dict(options or {})
        self.fractions = tuple(float(f) for f in fractions)
        self.reward_unit = reward_unit
        self.render_mode = render_mode
        probe = cls.example_table([1000] * seats, 0, **self.inputs)
        self.stacks = list(stacks) if stacks is not None else [100 * self._big_blind(probe) or 1000] * seats
        if len(self.stacks) != seats:
            raise InvalidTable(f"{seats} seats, but {len(self.stacks)} stacks: give one a seat")
        cls(cls.example_table(self.stacks, 0, **self.inputs), **self.options)  # a bad table is refused now
        try:
            self.game: Game | None = game_of(cls)
        except CardError:
            self.game = None
        if self.game is not None and (short := self.game.undealable(seats)):
            raise InvalidTable(f"{cls.SPEC_NAME}: {short}")
        self.possible_agents = [f"player_{seat}" for seat in range(seats)]
        self.agents = list(self.possible_agents)
        size = self._size = observation_size(seats)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, float(seats), shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(len(self.action_names),), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(len(self.action_names))
        self.engine: Engine | None = None
        self.dealer: Dealer | None = None
        self._rng = random.Random()
        self._scale = float(sum(self.stacks)) or 1.0

    @staticmethod
    def _big_blind(table: Any) -> int:
        blinds = table.inputs.get("blinds") or table.inputs.get("bets")
        return int(blinds[-1]) if isinstance(blinds, tuple | list) and blinds else 0

    # ---- PettingZoo's API ---------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        button = self._rng.randrange(self.seats)
        self.dealer = Dealer(self.game, self.seats, seed=self._rng.randrange(2**63)) if self.game else None
        inputs = dict(self.inputs_for(button))
        if self.dealer is not None:
            inputs.update(self.dealer.table_inputs())  # the stud bring-in, from the cards
        table = self.cls.example_table(self.stacks, button, **inputs)
        self.engine = self.cls(table, **self.options)
        self._advance()

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        return {"observation": self._features(seat), "action_mask": self._mask(seat)}

    def step(self, action: int) -> None:
        self._engine()  # reset first
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        engine = self._engine()
        seat = self.possible_agents.index(agent)
        if not self.action_space(agent).contains(action) or not self._mask(seat)[int(action)]:
            raise InvalidTable(f"{agent} may not {self._name(action)} now (see the observation's action_mask)")
        take_action(engine, seat, self.action_names[int(action)])
        self._cumulative_rewards[agent] = 0.0
        self._advance()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.engine is None:
            return None
        engine = self.engine
        return f"{engine.street_name}: pot {engine.pot}, stacks {list(engine.stacks)}, to act {engine.to_act}"

    def close(self) -> None:
        """Nothing to release."""

    # ---- the hand ------------------------------------------------------------------------------

    def _engine(self) -> Engine:
        if self.engine is None:
            raise InvalidTable("reset the environment before stepping it")
        return self.engine

    def _advance(self) -> None:
        """Deal until a seat must act, or pay the hand and end the episode."""
        engine = self._engine()
        while not engine.hand_over and engine.to_act is None:
            if self.dealer is not None:
                self.dealer.deal(engine)
            else:
                engine.deal(engine.next_street)  # type: ignore[arg-type]
        if engine.to_act is not None and not engine.hand_over:
            self.agent_selection = self.possible_agents[engine.to_act]
            return
        self._settle()

    def _settle(self) -> None:
        engine = self._engine()
        if self.dealer is not None:
            while engine.next_street is not None:  # the cards of an all-in showdown run out
                self.dealer.deal(engine)
            self.dealer.settle(engine)
        else:
            contested = sorted({s for pot in engine.pots() for s in pot.eligible if len(pot.eligible) > 1})
            engine.settle(self._rng.sample(contested, len(contested)) if contested else None)
        unit = 1.0
        if self.reward_unit == "big_blinds":
            unit = float(self._big_blind(engine.table) or 1)
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = (engine.stacks[seat] - self.stacks[seat]) / unit
            self.terminations[agent] = True
        # Every seat has its last observation and reward to read: the episode ends, seat by seat.
        self.agent_selection = self.possible_agents[0]

    def _mask(self, seat: int) -> NDArray[np.int8]:
        engine = self.engine
        if engine is None or engine.hand_over or engine.to_act != seat:
            return np.zeros(len(self.action_names), dtype=np.int8)
        return np.array(action_mask(engine, self.action_names), dtype=np.int8)

    def _features(self, seat: int) -> NDArray[np.float32]:
        if self.engine is None:
            return np.zeros(self._size, dtype=np.float32)
        return observe(self.engine, self.dealer, seat, self._scale)

    def _name(self, action: object) -> str:
        if isinstance(action, int | np.integer) and 0 <= int(action) < len(self.action_names):
            return self.action_names[int(action)]
        return repr(action)


def env(structure: str | type[Engine], **kwargs: Any) -> PokerEnv:
    """A :class:`PokerEnv` (PettingZoo's convention: ``env()`` makes one)."""
    return PokerEnv(structure, **kwargs)


Policy = Callable[[dict[str, Any]], int]


def random_policy(rng: random.Random) -> Policy:
    """A policy drawing uniformly among the legal actions of an observation."""

    def choose(observation: dict[str, Any]) -> int:
        legal = [index for index, allowed in enumerate(observation["action_mask"]) if allowed]
        return rng.choice(legal)

    return choose


class SingleAgentEnv(Env[dict[str, Any], Any]):
    """One seat of a :class:`PokerEnv` as a Gymnasium environment, the others played by
    ``opponents`` (a policy a seat; default: uniformly random legal actions, seeded by ``reset``).
    An episode is a hand; its reward, the seat's chips won or lost, comes at its end. An action
    the observation's mask refuses (a learner's early guess) is played as the passive one, a
    check or call where legal, else a fold, and the step's info says ``illegal_action``."""

    def __init__(self, poker: PokerEnv, agent: str = "player_0", opponents: Mapping[str, Policy] | None = None) -> None:
        if agent not in poker.possible_agents:
            raise InvalidTable(f"no agent {agent!r}: {', '.join(poker.possible_agents)}")
        self.metadata = {"render_modes": ["ansi"]}
        self.poker = poker
        self.agent = agent
        self.opponents = dict(opponents or {})
        self.observation_space = poker.observation_space(agent)
        self.action_space = poker.action_space(agent)
        self._rng = random.Random()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self.poker.reset(seed=seed if seed is not None else self._rng.randrange(2**31))
        reward = self._others()
        self._pending = reward
        return self.poker.observe(self.agent), {}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        poker = self.poker
        if poker.terminations[self.agent]:
            raise InvalidTable("the hand is over: reset the environment")
        info: dict[str, Any] = {}
        mask = poker.observe(self.agent)["action_mask"]
        if not self.action_space.contains(action) or not mask[int(action)]:
            names = poker.action_names
            action = names.index("check_or_call") if mask[names.index("check_or_call")] else names.index("fold")
            info["illegal_action"] = True
        poker.step(action)
        self._others()
        done = poker.terminations[self.agent]
        reward = float(poker.rewards[self.agent]) if done else 0.0
        return poker.observe(self.agent), reward, done, False, info

    def _others(self) -> float:
        """Play the other seats until this one acts or the hand is over."""
        poker = self.poker
        while not poker.terminations[self.agent] and poker.agent_selection != self.agent:
            other = poker.agent_selection
            policy = self.opponents.get(other) or random_policy(self._rng)
            poker.step(policy(poker.observe(other)))
        return float(poker.rewards[self.agent]) if poker.terminations[self.agent] else 0.0


__all__ = ["PokerEnv", "SingleAgentEnv", "env", "random_policy"]
