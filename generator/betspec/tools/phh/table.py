"""PHH fields to a betspec table: the table inputs and options a hand is replayed under."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from betspec.cards import bring_in_seat as cards_bring_in_seat
from betspec.cards import (
    known,
)
from betspec.tools.phh.model import Hand, Irregular, _per_seat, _unit

if TYPE_CHECKING:
    from betspec.runtime import Engine


def table_inputs(hand: Hand) -> dict[str, Any]:
    """The table of a hand as a case writes it (``stacks``, ``button`` and the spec's inputs).

    The forced bets become the inputs every structure shares (``betting_round.json``): two blinds
    on the two seats after the button (the button and the other seat heads-up) are ``blinds``;
    any other pattern (a straddle, a lone blind, blinds out of order) is posted seat by seat with
    ``blinds_by_seat`` and ``seat_blinds``, the minimum bet as the big blind, the smallest post
    below it as the small blind; one ante for every seat
    is ``ante``, unequal antes are ``seat_antes``. Raises :class:`Irregular` with every reason a
    hand does not fit: unknown stacks, a minimum bet other than the big blind.
    """
    n = hand.players
    antes, posted = _per_seat(hand.antes), _per_seat(hand.blinds_or_straddles)
    button = n - 1
    if hand.game.limits == "bring_in":
        return _stud_inputs(hand, antes)
    small_seat = button if n == 2 else 0
    big_seat = (small_seat + 1) % n
    small, big = posted[small_seat], posted[big_seat]
    scale = hand.scale
    reasons = []
    unknown = [f"p{seat + 1}" for seat, stack in enumerate(hand.starting_stacks) if stack is None]
    if unknown:
        reasons.append(f"unknown starting stack (inf) of {', '.join(unknown)}")
    by_seat = small > big or any(v for seat, v in enumerate(posted) if seat not in (small_seat, big_seat))
    if by_seat:  # the big blind is what the hand says the minimum bet is
        # The minimum bet: a fixed-limit game's small bet (its big blind is a full bet, a straddle
        # a raise, as with the blinds posted from the button), else the largest post.
        minimum = hand.small_bet if hand.game.limits == "bets" else hand.min_bet
        big = minimum if minimum is not None else max(posted)
        small = min((v for v in posted if 0 < v < big), default=0)
    inputs: dict[str, Any] = {"stacks": list(hand.starting_stacks), "button": button, "blinds": [small, big]}
    if hand.game.limits == "bets":
        assert hand.small_bet is not None and hand.big_bet is not None  # required by _parse
        inputs["bets"] = [hand.small_bet, hand.big_bet]
    elif not by_seat and hand.min_bet != max(big, 1):
        # A table's minimum bet is its big blind, one chip when there is none (no_limit.json).
        reasons.append(
            f"min_bet {_unit(hand.min_bet or 0, scale)} is not the big blind {_unit(big, scale)}: "
            "a table's minimum bet is its big blind"
        )
    if reasons:
        raise Irregular("; ".join(reasons))
    if len(set(antes)) > 1:
        inputs["seat_antes"] = list(antes)
    elif antes[0]:
        inputs["ante"] = antes[0]
    if by_seat:
        inputs["blinds_by_seat"] = True
        inputs["seat_blinds"] = list(posted)
    return inputs


#: The option of the betting round (betting_round.json) saying whether antes every seat posts are
#: their posters' stakes or dead money, and its values for PHH's ante_trimming_status.
ANTE_RULE, TRIMMED, UNTRIMMED = "ante_rule", "stake", "dead"


def hand_options(hand: Hand, cls: type[Engine], options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The options ``hand`` is replayed under: ``options`` (the house's), overridden by what the
    hand's own fields say of how it was played. A hand with antes says whether they are dead
    money (``ante_trimming_status`` false, PHH's default: a player short of his ante can win them
    all) or table stakes (true), which is the spec's option ``ante_rule``. Raises
    :class:`Irregular`, naming the field, where the spec cannot play what the hand declares and
    it matters (a player short of his ante)."""
    chosen = dict(options or {})
    antes = _per_seat(hand.antes)
    if not any(antes):
        return chosen
    rule = TRIMMED if hand.ante_trimming else UNTRIMMED
    declared = cls.OPTIONS.get(ANTE_RULE)
    if declared is not None and rule in declared.choices:
        chosen[ANTE_RULE] = rule
        return chosen
    short = any(stack is not None and stack < ante for stack, ante in zip(hand.starting_stacks, antes, strict=True))
    if short:
        field = f"ante_trimming_status = {'true' if hand.ante_trimming else 'false'}"
        raise Irregular(
            f"{field} with a player short of his ante: {cls.SPEC_NAME} has no option {ANTE_RULE} "
            f"with the value {rule!r} to play it"
        )
    return chosen


def _stud_inputs(hand: Hand, antes: tuple[int, ...]) -> dict[str, Any]:
    """A stud or razz hand's table: antes, the bring-in, the bets, and the seat that brings in."""
    reasons = []
    unknown = [f"p{seat + 1}" for seat, stack in enumerate(hand.starting_stacks) if stack is None]
    if unknown:
        reasons.append(f"unknown starting stack (inf) of {', '.join(unknown)}")
    if any(hand.blinds_or_straddles):
        reasons.append("blinds in a stud hand: stud has antes and a bring-in")
    if reasons:
        raise Irregular("; ".join(reasons))
    inputs: dict[str, Any] = {
        "stacks": list(hand.starting_stacks),
        "button": hand.players - 1,
        "bring_in": hand.bring_in,
        "bets": [hand.small_bet, hand.big_bet],
        "bring_in_seat": bring_in_seat(hand),
    }
    if len(set(antes)) > 1:
        inputs["seat_antes"] = list(antes)
    elif antes[0]:
        inputs["ante"] = antes[0]
    return inputs


def bring_in_seat(hand: Hand) -> int:
    """The seat that brings in: decided by the upcards where the file shows them all (the lowest,
    highest in razz, by suit on a tie), else the seat of the first betting action."""
    ups = {seat: list(cards) for seat, cards in hand.first_upcards}
    if ups and all(cards and known(cards) for cards in ups.values()):
        return cards_bring_in_seat(hand.game, ups)
    return hand.first_actor if hand.first_actor is not None else 0
