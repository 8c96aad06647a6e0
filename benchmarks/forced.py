"""A betspec table's forced bets as a peer engine takes them: per player, dead and live.

Peers number players from the seat after the button; they take antes and blinds per player
rather than betspec's spec-declared inputs (straddles, a big blind ante, missed blinds...).
What a betspec engine posts, seat by seat, is what the peer is given, so any forced bets a
spec declares reach the peer without this module naming one.
"""

from __future__ import annotations

from collections.abc import Mapping

from betspec.runtime import Table, engine_class

#: Each player's dead posts (antes) and live posts (blinds and straddles), in peer order.
Posts = tuple[list[int], list[int]]


def player_seats(table: Table) -> list[int]:
    """The betspec seat of each peer player index."""
    n = len(table.stacks)
    return [(table.button + 1 + i) % n for i in range(n)]


def forced_bets(structure: str, table: Table, options: Mapping[str, object]) -> tuple[list[int], list[int]]:
    """What each peer player posts before the cards, dead (antes) and live (blinds or
    straddles), as betspec's spec posts it: any forced bets the spec declares become the peer's
    per-player antes and blinds. Heads-up PokerKit reads both in reverse (its convention)."""
    posted = engine_class(structure)(table, **options)
    seats = player_seats(table)
    live = [posted.committed[seat] for seat in seats]
    dead = [posted.contributed[seat] - posted.committed[seat] for seat in seats]
    if len(seats) == 2:
        live.reverse()
        dead.reverse()
    return dead, live
