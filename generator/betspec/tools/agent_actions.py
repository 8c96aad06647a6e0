"""What an agent may do at a betspec table, as a learner or a solver numbers it: the actions of
:class:`betspec.tools.env.PokerEnv` and of the OpenSpiel game (:mod:`betspec.tools.spiel`),
which mask, size and take them alike. No third-party library: each of those modules brings its own.

The actions, in order: ``fold``, ``check_or_call``, ``bring_in``, ``min_wager`` (the least bet or
raise), a wager of each fraction of the pot (``pot_0.5``: the call, then half the pot it makes),
``all_in``, then the spec's own actions.
"""

from __future__ import annotations

from collections.abc import Sequence

from betspec.cards import RANKS, SUITS
from betspec.runtime import Engine, IllegalAction, InvalidTable
from betspec.runtime.errors import shown
from betspec.vocabulary import WAGERS

#: The 52 cards, in the order of the observations' one-hots.
CARDS = [rank + suit for rank in RANKS for suit in SUITS]
CARD_INDEX = {card: index for index, card in enumerate(CARDS)}


def action_names(cls: type[Engine], fractions: Sequence[float]) -> list[str]:
    """The actions of a structure's agents, the pot fractions ``fractions`` among them
    (:class:`InvalidTable` for fractions that are not up to ten numbers above 0)."""
    if (
        isinstance(fractions, str)
        or not isinstance(fractions, Sequence)
        or len(fractions) > 10
        or not all(type(f) in (int, float) and 0 < f <= 100 for f in fractions)
    ):
        raise InvalidTable(f"fractions are up to ten pot fractions above 0, not {shown(fractions)}")
    pots = [f"pot_{f:g}" for f in fractions]
    return ["fold", "check_or_call", "bring_in", "min_wager", *pots, "all_in", *cls.OWN_ACTIONS]


#: The actions that are not wagers: each the engine's own name, or check or call.
_PLAIN = ("fold", "check_or_call", "bring_in")


def action_mask(engine: Engine, names: Sequence[str]) -> list[bool]:
    """Which of the actions ``names`` the seat to act may take now (fold, check_or_call,
    bring_in, a wager of its amount, the spec's own): a wager's amount offered once, by the
    first action that wagers it."""
    legal = engine.legal_actions()
    wagers = any(w in legal for w in WAGERS) and engine.min_to is not None and engine.max_to is not None
    seen: set[int] = set()
    mask = []
    for name in names:
        if name == "check_or_call":
            mask.append("check" in legal or "call" in legal)
        elif name in _PLAIN or name in type(engine).OWN_ACTIONS:
            mask.append(name in legal)
        elif wagers:
            amount = wager_to(engine, name)
            mask.append(amount not in seen)
            seen.add(amount)
        else:
            mask.append(False)
    return mask


def wager_to(engine: Engine, name: str) -> int:
    """The amount the wager ``name`` goes to: the least, all in, or the call and then that
    fraction of the pot it makes (``pot_0.5``), held within the spec's bounds."""
    low, high = engine.min_to, engine.max_to
    assert low is not None and high is not None
    if name == "min_wager":
        return low
    if name == "all_in":
        return high
    fraction = float(name.removeprefix("pot_"))
    return min(high, max(low, engine.bet_level + int(fraction * (engine.pot + engine.call_amount))))


def meant(engine: Engine, name: str) -> tuple[str, int | None]:
    """The engine's action and amount the agent's action ``name`` (one :func:`action_mask`
    allows) means now: check or call resolved, a wager's amount worked out."""
    legal = engine.legal_actions()
    if name == "check_or_call":
        return ("check" if "check" in legal else "call"), None
    if name in _PLAIN or name in type(engine).OWN_ACTIONS:
        return name, None
    return next(w for w in WAGERS if w in legal), wager_to(engine, name)


def take_action(engine: Engine, seat: int, name: str) -> None:
    """Take the action ``name`` (see :func:`action_mask`) for ``seat``."""
    act_within(engine, seat, *meant(engine, name))


def act_within(engine: Engine, seat: int, action: str, to: int | None) -> None:
    """``engine.act(seat, action, to)``; a wager the spec refuses between its bounds (a stud open
    pair's small or big bet, nothing between; a betting unit) is made as the least wager, always
    legal."""
    try:
        engine.act(seat, action, to)
    except IllegalAction:
        if to is None:
            raise
        engine.act(seat, action, engine.min_to)
