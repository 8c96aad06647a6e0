"""What an agent sees of a hand, as :class:`betspec.tools.env.PokerEnv` observes it and ``betspec
play --agent`` shows it to a trained agent: one flat ``float32`` vector (numpy, the ``env`` extra).

In order: the seat's own cards, the board, the other seats' upcards (each a 52-card one-hot),
the street (a one-hot of :data:`MAX_STREETS`), then per seat from the observer's left its stack,
its chips in this round, folded or not, the button; the pot, the call and the bounds of a wager.
Chips are in units of the hand's starting chips (``scale``), so an agent trained at one stake
plays another.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from betspec.tools.agent_actions import CARD_INDEX, CARDS

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from betspec.cards import Dealer
    from betspec.runtime import Engine

#: The most streets a structure bets (stud's five), for the street's one-hot.
MAX_STREETS = 6


def observation_size(seats: int) -> int:
    """The length of the observation of a hand of ``seats`` seats."""
    return 3 * len(CARDS) + MAX_STREETS + 4 * seats + 4


def observe(engine: Engine | None, dealer: Dealer | None, seat: int, scale: float) -> NDArray[np.float32]:
    """What ``seat`` sees of the hand on ``engine``, its cards dealt by ``dealer`` (None: a hand
    without cards); zeros before a hand is dealt (``engine`` None)."""
    n = engine.seats if engine is not None else 0
    out = np.zeros(observation_size(n), dtype=np.float32)
    if engine is None:
        return out
    if dealer is not None:
        for card in dealer.hole[seat]:
            if card in CARD_INDEX:
                out[CARD_INDEX[card]] = 1.0
        for card in dealer.board:
            if card in CARD_INDEX:
                out[len(CARDS) + CARD_INDEX[card]] = 1.0
        for other in range(n):
            if other == seat:
                continue
            for card, up in zip(dealer.hole[other], dealer.up[other], strict=False):
                if up and card in CARD_INDEX:
                    out[2 * len(CARDS) + CARD_INDEX[card]] = 1.0
    at = 3 * len(CARDS)
    streets = list(engine.STREETS)
    if engine.street_name in streets:
        out[at + min(streets.index(engine.street_name), MAX_STREETS - 1)] = 1.0
    at += MAX_STREETS
    for place in range(n):
        other = (seat + place) % n
        out[at + place] = engine.stacks[other] / scale
        out[at + n + place] = engine.committed[other] / scale
        out[at + 2 * n + place] = float(engine.folded[other])
        out[at + 3 * n + place] = float(other == engine.button)
    at += 4 * n
    out[at] = engine.pot / scale
    out[at + 1] = engine.call_amount / scale if engine.to_act == seat else 0.0
    out[at + 2] = (engine.min_to or 0) / scale
    out[at + 3] = (engine.max_to or 0) / scale
    return out
