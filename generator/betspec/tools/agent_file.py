"""A trained agent for ``betspec play --agent SEAT=FILE``: a Python file of the developer's own
that defines ``choose(observation) -> int``, the policy a learner trained on
:class:`betspec.tools.env.PokerEnv` (its observation: ``{"observation": vector, "action_mask":
mask}``; its answer: the index of one of the environment's actions), and may say the pot
``FRACTIONS`` its actions were numbered with (the environment's default otherwise).

``betspec play`` shows the agent's seat what the environment would (:mod:`betspec.tools.agent_view`)
and takes its action as the environment would (:mod:`betspec.tools.agent_actions`), so an agent
trained there plays a person here unchanged.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from betspec.runtime.errors import BetspecError, shown

#: The environment's pot fractions (PokerEnv's default), for an agent file that names none.
DEFAULT_FRACTIONS = (0.5, 1.0, 2.0)


class AgentError(BetspecError):
    """An agent file that cannot be loaded: missing, failing as it is run, or without ``choose``."""

    code = "bad_agent"


@dataclass(frozen=True)
class Agent:
    path: str
    choose: Callable[[dict[str, Any]], object]
    fractions: tuple[float, ...]


def load_agent(path: object, seat: int) -> Agent:
    """The agent the file at ``path`` defines (run once, as a module of its own); raises
    :class:`AgentError` saying what is wrong."""
    if not isinstance(path, str) or not path.endswith(".py"):
        raise AgentError(f"an agent is a Python file (.py) defining choose(observation), not {shown(path)}")
    if not os.path.isfile(path):
        raise AgentError(f"no agent file at {shown(path)}")
    found = importlib.util.spec_from_file_location(f"betspec_agent_seat_{seat}", path)
    if found is None or found.loader is None:
        raise AgentError(f"{shown(path)} cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(found)
    try:
        found.loader.exec_module(module)
    except Exception as exc:  # the developer's own code: whatever it raises is said, not shown as a traceback
        raise AgentError(f"the agent file {shown(path)} failed as it was loaded: {type(exc).__name__}: {exc}") from None
    choose = getattr(module, "choose", None)
    if not callable(choose) or not _takes_one(choose):
        raise AgentError(f"the agent file {shown(path)} defines no choose(observation) -> int")
    fractions = getattr(module, "FRACTIONS", DEFAULT_FRACTIONS)
    if not isinstance(fractions, Sequence) or isinstance(fractions, str):
        raise AgentError(f"the agent file's FRACTIONS are pot fractions (0.5, 1.0), not {shown(fractions)}")
    return Agent(path, choose, tuple(fractions))


def _takes_one(function: Callable[..., object]) -> bool:
    try:
        inspect.signature(function).bind(None)
    except (TypeError, ValueError):
        return False
    return True
