"""clubs (``clubs.poker.Dealer``, pure Python) as a peer of the benchmark.

Seats: clubs player i is betspec seat i, and clubs' button is betspec's (a reset moves the button
one seat on, so it is set one seat back first, as a dealer passing the button would leave it).
clubs rolls its blinds list from the seat after the button, so ``[10, 20, 0, ...]`` puts the
blinds on betspec's seats; heads-up it rolls it from the button, who posts the small blind
(betspec's rule) with the same list. One dealer per structure and table size (``raise_sizes``
``inf``, ``pot`` or ``[20, 20, 40, 40]`` with at most ``[3, 4, 4, 4]`` raises, the big blind being
the preflop bet), built before timing like a betspec ``Table``: its hand evaluator takes a while
to build. A hand sets the dealer's stacks and button and resets it.

Actions: clubs takes one number, the chips to add now: ``-1`` folds, 0 checks, the call amount
calls, ``to - committed this street`` bets or raises. clubs rounds any other number to its nearest
legal size, so a bet or raise outside its ``[min_raise, max_raise]`` is refused here rather than
played as another size. clubs deals and shows down inside ``step``; its deck is shuffled by the
global ``random``, seeded per hand so that a hand's cards (and a crash at showdown) are the same in
the check and in every timed run. Its query is the observation ``step`` returns anyway (who acts,
call, min and max raise), read before each action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

from benchmarks.peer_check import Answers, Refused
from betspec.runtime import Table

try:
    from clubs.poker import Dealer
except ImportError:  # optional peer: bench.py reports it as not installed
    Dealer = None

NAME = "clubs"
LABEL = "clubs"
PACKAGE = "clubs"
STREETS = ("preflop", "flop", "turn", "river")

_dealers: dict[tuple[str, int], Any] = {}


def available() -> bool:
    return Dealer is not None


def dealer(structure: str, table: Table) -> Any:
    n = len(table.stacks)
    found = _dealers.get((structure, n))
    if found is None:
        small, big = table.get("blinds")
        sizes: object = "inf"
        raises: object = "inf"
        if structure == "pot_limit":
            sizes = "pot"
        elif structure == "fixed_limit":
            assert table.get("bets") is not None
            small_bet, big_bet = table.get("bets")
            sizes, raises = [small_bet, small_bet, big_bet, big_bet], [3, 4, 4, 4]
        found = _dealers[(structure, n)] = Dealer(
            num_players=n,
            num_streets=4,
            blinds=[small, big] + [0] * (n - 2),
            antes=0,
            raise_sizes=sizes,
            num_raises=raises,
            num_suits=4,
            num_ranks=13,
            num_hole_cards=2,
            num_community_cards=[0, 3, 1, 1],
            num_cards_for_hand=5,
            mandatory_num_hole_cards=0,
            start_stack=max(table.stacks),
        )
    return found


class Native(NamedTuple):
    """A checked hand as clubs plays it."""

    dealer: Any
    stacks: list[int]
    button: int  # where the dealer's button is left before the reset moves it
    seed: int
    bets: list[int]


class Adapter:
    """One clubs hand addressed in betspec's terms; records the numbers it steps with."""

    def __init__(self, structure: str, table: Table, seed: int) -> None:
        self.n = len(table.stacks)
        self.dealer = dealer(structure, table)
        self.start = list(table.stacks)
        self.button = (table.button - 1) % self.n
        self.seed = seed
        self.bets: list[int] = []
        self.dealer.stacks = list(self.start)
        self.dealer.button = self.button
        random.seed(seed)
        self.obs = self.dealer.reset()

    def to_act(self) -> int | None:
        action = self.dealer.action
        return None if action == -1 else int(action)

    def stacks(self) -> list[int]:
        return list(self.dealer.stacks)

    def query(self) -> Answers:
        obs = self.obs
        player = obs["action"]
        call = obs["call"]
        committed = obs["street_commits"]
        names = ["fold", "call"] if call else ["check"]
        low = high = None
        if obs["max_raise"] > call:
            names.append("raise" if max(committed) else "bet")
            low, high = committed[player] + obs["min_raise"], committed[player] + obs["max_raise"]
        return tuple(sorted(names)), call, low, high

    def act(self, seat: int, action: str, to: int | None) -> None:
        obs = self.obs
        if action == "fold":
            bet = -1
        elif action == "check":
            bet = 0
        elif action == "call":
            bet = obs["call"]
        else:
            assert to is not None
            bet = to - obs["street_commits"][obs["action"]]
            low, high = obs["min_raise"], obs["max_raise"]
            if high <= obs["call"]:
                raise Refused(f"refuses {action}", f"{action} to {to}; it allows no bet or raise here")
            if not low <= bet <= high:
                committed = obs["street_commits"][obs["action"]]
                side = "below its minimum" if bet < low else "above its maximum"
                raise Refused(f"{action} {side}", f"{action} to {to}; it allows {committed + low}..{committed + high}")
        self.bets.append(bet)
        self.obs = self.dealer.step(bet)[0]

    def deal(self, street: str) -> None:
        action = self.dealer.action
        if action != -1 and self.dealer.street < STREETS.index(street):
            what = "gives an all-in seat the turn" if self.dealer.stacks[action] == 0 else "its betting round goes on"
            raise Refused(what, f"betspec deals the {street}; peer has seat {action} to act")

    def finish(self) -> None:
        pass

    def hand_over(self) -> bool:
        return bool(self.dealer.action == -1)

    def native(self) -> Native:
        return Native(self.dealer, self.start, self.button, self.seed, self.bets)


def replay(natives: Sequence[Native], query: bool) -> int:
    """Play checked hands again from their numbers; returns the betting actions taken."""
    actions = 0
    for table, stacks, button, seed, bets in natives:
        table.stacks = list(stacks)
        table.button = button
        random.seed(seed)
        obs = table.reset()
        step = table.step
        for bet in bets:
            if query:
                _answers = obs["action"], obs["call"], obs["min_raise"], obs["max_raise"]
            obs = step(bet)[0]
        actions += len(bets)
    return actions
