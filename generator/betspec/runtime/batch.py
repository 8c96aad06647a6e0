"""Many hands in one call, for simulators, solvers and training loops.

:func:`play_hands` plays hands of one engine class to their end: deals are made as rounds end,
and decisions come from a policy, given as data (:class:`Policy`: a weight per action and how
wagers are sized, drawn from a seeded ``random.Random``) or as a callback called only at
decisions. Chips are checked for conservation after every hand; ``rank`` pays the pots.
Compiled with the runtime where the install compiled it (:func:`betspec.runtime.compiled`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from betspec.runtime.engine import Engine
from betspec.runtime.errors import BetspecError
from betspec.runtime.table import Table
from betspec.vocabulary import WAGERS

#: A decision: the action for the seat to act, and its "to" amount for a bet or raise.
Decision = tuple[str, "int | None"]
#: A policy as a callback: given the hand at a decision, what the seat to act does.
Decide = Callable[[Engine], Decision]
#: Who won a hand at showdown, best first (ties as lists), as :meth:`Engine.settle` takes it.
Rank = Callable[[Engine], "Sequence[int | Sequence[int]] | None"]


@dataclass(frozen=True)
class Policy:
    """A bot as data. At each decision it draws one legal action by ``weights`` (an action with no
    weight is never drawn; with ``fold_when_free`` off it never folds when a check is free), then
    sizes a bet or raise: all-in with chance ``all_in``, else the minimum plus a random part of
    ``1/room_share`` of the room above it, rounded down to the table's ``bet_unit`` if it has one."""

    weights: Mapping[str, float]
    all_in: float = 0.08
    room_share: int = 4
    fold_when_free: bool = False

    def decide(self, engine: Engine, rng: random.Random) -> Decision:
        legal = engine.legal_actions()
        choices = [a for a in legal if self.weights.get(a, 0) > 0]
        if not self.fold_when_free and "check" in legal:
            choices = [a for a in choices if a != "fold"]
        if not choices:
            raise BetspecError(f"the policy gives no weight to any legal action ({', '.join(legal)})")
        action = rng.choices(choices, [self.weights[a] for a in choices])[0]
        to = None
        if action in WAGERS:
            low, high = engine.min_to, engine.max_to
            assert low is not None and high is not None
            room = max(1, (high - low) // self.room_share + 1)
            to = high if rng.random() < self.all_in else min(high, low + rng.randrange(0, room))
            unit = engine.options.get("bet_unit")
            unit = unit if type(unit) is int and unit > 0 else 1
            if to != high and to % unit:
                to = max(low, to - to % unit)
        return action, to


@dataclass
class Played:
    """What a batch played: hands, betting actions, the chips checked, each hand's final stacks."""

    hands: int = 0
    actions: int = 0
    chips: int = 0
    stacks: list[tuple[int, ...]] = field(default_factory=list)


def play_out(engine: Engine, decide: Decide, on_step: Callable[[int, str, int | None], None] | None = None) -> int:
    """Play ``engine``'s hand to its end: deals as rounds end, ``decide`` at each decision, each
    action and deal shown to ``on_step`` (a deal as seat -1 and the street); returns the number
    of betting actions."""
    actions = 0
    while not engine.hand_over:
        seat = engine.to_act
        if seat is None:
            street = engine.next_street
            if street is None:
                break
            engine.deal(street)
            if on_step is not None:
                on_step(-1, street, None)
            continue
        action, to = decide(engine)
        engine.act(seat, action, to)
        actions += 1
        if on_step is not None:
            on_step(seat, action, to)
    return actions


def play_hands(
    cls: type[Engine],
    tables: Iterable[Table],
    policy: Policy | Decide,
    rng: random.Random | None = None,
    *,
    options: Mapping[str, object] | None = None,
    rank: Rank | None = None,
    keep_stacks: bool = False,
    on_step: Callable[[int, str, int | None], None] | None = None,
) -> Played:
    """Play a hand on each of ``tables`` (an iterable: it may be drawn as the hands go, from the
    same ``rng``) with ``policy``; returns the totals. ``rank`` pays each hand's pots (not
    called for a pot won uncontested); ``keep_stacks`` keeps each hand's final stacks;
    ``on_step`` sees every action and deal (a deal as seat -1 and the street)."""
    rng = rng or random.Random(0)
    given = dict(options or {})
    decide: Callable[[Engine], Decision]
    if isinstance(policy, Policy):
        chosen = policy

        def decide(engine: Engine) -> Decision:
            return chosen.decide(engine, rng)

    elif callable(policy):
        decide = policy
    else:
        raise BetspecError(f"a policy is a betspec.runtime.Policy or a callable, not {type(policy).__name__}")
    if not (isinstance(cls, type) and issubclass(cls, Engine)):
        raise BetspecError(f"hands are played by an engine class, not {cls!r}")
    played = Played()
    for table in tables:
        engine = cls(table, **given)  # type: ignore[arg-type]  # the spec's options, checked by the class
        chips = engine.total_chips()
        played.actions += play_out(engine, decide, on_step)
        if rank is not None:
            contested = sum(not folded for folded in engine.folded) > 1
            engine.settle(rank(engine) if contested else None)
        if engine.total_chips() != chips:
            raise BetspecError(f"chips not conserved in hand {played.hands + 1} of the batch")
        played.hands += 1
        played.chips += chips
        if keep_stacks:
            played.stacks.append(tuple(engine.stacks))
    return played
