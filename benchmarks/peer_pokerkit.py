"""PokerKit as a peer: the same tables and actions, for the benchmark and the differential tests.

PokerKit numbers players from the seat after the button (player 0) to the button (the last
player); heads-up it swaps the blinds itself, so the button posts the small blind. The forced
bets are what betspec's spec posts, seat by seat, as PokerKit's antes and blinds. Dealing,
posting, collecting and showdown are automated, so only betting actions are driven.
PokerKit has no pot-limit Texas hold'em class; :class:`PotLimitTexasHoldem` composes one from
PokerKit's own building blocks, as it composes ``NoLimitTexasHoldem``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import cast

from pokerkit import Automation, FixedLimitTexasHoldem, Mode, NoLimitTexasHoldem, State
from pokerkit.games import PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem

from benchmarks.forced import Posts, forced_bets, player_seats
from betspec.runtime import Table

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


class PotLimitTexasHoldem(PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem):
    """Pot-limit Texas hold'em from PokerKit's parts."""


def create(
    structure: str, table: Table, options: Mapping[str, object] | None = None, posts: Posts | None = None
) -> State:
    """The PokerKit hand of a betspec table; ``posts`` (from :func:`forced_bets`) saves building
    a betspec engine to read them, for the benchmark's timed loop."""
    antes, blinds = posts or forced_bets(structure, table, options or {})
    stacks = [table.stacks[seat] for seat in player_seats(table)]
    big = cast(Sequence[int], table.get("blinds"))[1]
    bets = cast("Sequence[int] | None", table.get("bets"))
    if bets is not None:
        game = FixedLimitTexasHoldem(AUTOMATIONS, False, antes, blinds, bets[0], bets[1], mode=Mode.CASH_GAME)
    elif structure == "pot_limit":
        game = PotLimitTexasHoldem(AUTOMATIONS, False, antes, blinds, max(big, 1), mode=Mode.CASH_GAME)
    else:
        game = NoLimitTexasHoldem(AUTOMATIONS, False, antes, blinds, max(big, 1), mode=Mode.CASH_GAME)
    return game(stacks, len(stacks))


class Peer:
    """One PokerKit hand addressed by betspec seat numbers."""

    __slots__ = ("players", "seats", "state")

    def __init__(
        self, structure: str, table: Table, options: Mapping[str, object] | None = None, posts: Posts | None = None
    ) -> None:
        self.seats = player_seats(table)
        self.players = {seat: index for index, seat in enumerate(self.seats)}
        self.state = create(structure, table, options, posts)

    @property
    def to_act(self) -> int | None:
        index = self.state.actor_index
        return None if index is None else self.seats[index]

    def query(self) -> tuple[int | None, tuple[str, ...], int, int | None, int | None]:
        """Who acts, what is legal, the call amount and the bet bounds, in betspec's terms."""
        state = self.state
        if state.actor_index is None:
            return None, (), 0, None, None
        legal = ["fold"] if state.can_fold() else []
        call = state.checking_or_calling_amount or 0
        if state.can_check_or_call():
            legal.append("call" if call else "check")
        low = high = None
        if state.can_complete_bet_or_raise_to():
            legal.append("raise" if max(state.bets) > 0 else "bet")
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
        return self.seats[state.actor_index], tuple(sorted(legal)), call, low, high

    def act(self, action: str, to: int | None = None) -> None:
        state = self.state
        if action == "fold":
            state.fold()
        elif action in ("check", "call"):
            state.check_or_call()
        else:
            state.complete_bet_or_raise_to(to)

    def stacks(self) -> list[int]:
        result = [0] * len(self.seats)
        for index, seat in enumerate(self.seats):
            result[seat] = self.state.stacks[index]
        return result


def replay(
    structure: str, table: Table, steps: Sequence[tuple[int, str, int | None]], query: bool, posts: Posts | None = None
) -> int:
    """Play betspec-recorded steps through PokerKit; deals are automated there. Returns actions."""
    peer = Peer(structure, table, posts=posts)
    actions = 0
    for seat, action, to in steps:
        if seat < 0:
            continue
        if query:
            peer.query()
        peer.act(action, to)
        actions += 1
    return actions
