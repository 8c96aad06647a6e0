"""The pots of a replayed hand paid as the engine pays them, against what the file records."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from betspec.cards import (
    CardError,
    NoEvaluator,
    known,
    made,
    rankings,
    settlement_rankings,
    split_cards,
)
from betspec.tools.phh.model import Hand, _unit
from betspec.tools.phh.replaying import ACCEPTED, Replay, _Dealer

if TYPE_CHECKING:
    from betspec.runtime import Engine


#: A hand's pots checked against the file: paid as it says (perhaps less a rake), paid otherwise,
#: or not checked (the file records neither winnings nor finishing stacks, the showdown cannot
#: be ranked, the history stops before the hand is over).
PAID, MISPAID, UNCHECKED = "paid", "mispaid", "unchecked"


#: Not a hand's status but what ``betspec phh check`` prints for a hand whose every action the
#: engine accepts and whose pots it pays otherwise than the file says.
MISPAID_STATUS = "MISPAID"


@dataclass(frozen=True)
class Pots:
    """What paying a replayed hand's pots gave, compared with the file's ``winnings`` and
    ``finishing_stacks``."""

    status: str  # PAID, MISPAID or UNCHECKED
    detail: str
    won: tuple[int, ...] = ()  # what betspec paid each seat from the pots (uncalled bets not counted)
    stacks: tuple[int, ...] = ()  # each seat's stack once the pots are paid
    ranking: tuple[tuple[int, ...], ...] = ()  # the showdown's ranking, best first; () uncontested
    rake: int = 0  # what the file's winners have less than betspec paid them: the house's cut


#: What a hand whose file records neither winnings nor finishing stacks says of its pots.
NOTHING_RECORDED = "pots not checked: the file records no winnings or finishing_stacks"


def check_pots(result: Replay, *, unrecorded: bool = True) -> Pots:
    """Pay the pots of a hand the engine accepted and compare with what the file records.

    An uncontested pot needs no cards. A showdown is ranked with PokerKit's evaluator of the
    variant (:data:`EVALUATORS`) from the cards the file shows (``pN sm CARDS``, or the cards
    dealt); a muck (``pN sm``) ranks below every hand shown. The file's ``winnings`` are what
    each player took from the pots (uncalled bets are not winnings), its ``finishing_stacks``
    the stacks after the hand. A site's rake shows as winners paid less than the pots: accepted
    when the seats the file pays are exactly the seats betspec pays, none gets more than betspec
    pays, and the others end as betspec says; the rake is reported. The replay's engine is not
    touched: the hand is played again on a new one. With ``unrecorded`` false, a hand whose file
    records neither is not paid (nor its showdown ranked): there is nothing to compare, and
    ``betspec phh check`` reads only what it checks."""
    from betspec.runtime import IllegalAction

    hand, played = result.hand, result.engine
    if result.status != ACCEPTED or hand is None or (played is None and result.fresh is None):
        return Pots(UNCHECKED, "pots not checked: the hand was not replayed")
    recorded = [name for name in ("winnings", "finishing_stacks") if getattr(hand, name) is not None]
    if not (played.hand_over if played is not None else result.over):
        return Pots(UNCHECKED, "pots not checked: the history stops before the hand is over")
    if not recorded and not unrecorded:
        return Pots(UNCHECKED, NOTHING_RECORDED)
    engine = _played_again(result)
    pots = engine.pots()
    contenders = sorted({seat for pot in pots for seat in pot.eligible})
    ranking: list[list[int]] = []
    how: dict[str, Any] = {}
    if any(len(pot.eligible) > 1 for pot in pots):
        ranked, why = _ranking(hand, contenders)
        if ranked is None and not recorded:
            return Pots(UNCHECKED, NOTHING_RECORDED)
        if ranked is None:
            return Pots(UNCHECKED, f"showdown not checked: {why}")
        ranking = ranked[0]
        how = {"ranking": ranked[0]} if len(ranked) == 1 else {"runs": ranked}
    if type(engine).PAYMENTS:  # the cards the file shows, for the spec's payments outside the pot
        held = {seat: split_cards(hand.hole[seat]) for seat, cards in hand.shows if cards not in ("", "-")}
        how["shown"] = {seat: cards for seat, cards in held.items() if known(cards)}
        if any("makes" in payment for payment in type(engine).PAYMENTS):  # and what they make (a high-hand bonus)
            board = [card for deal in hand.board for card in split_cards(deal)]
            hands = {seat: made(hand.game, cards, board) for seat, cards in how["shown"].items()}
            how["made"] = {seat: name for seat, name in hands.items() if name is not None}
    try:
        paid = engine.settle(**how)
    except IllegalAction as exc:  # not expected: the ranking names every seat that shows down
        return Pots(UNCHECKED, f"pots not checked: the engine refuses the ranking {ranking}: {exc.message}")
    won, stacks = paid.won, engine.stacks
    ranks = tuple(tuple(group) for group in ranking)
    if not recorded:  # paid, with nothing to compare: what betspec paid is in won and stacks
        return Pots(UNCHECKED, NOTHING_RECORDED, won, stacks, ranks)
    rake = 0
    for name in recorded:
        theirs = cast(tuple[int, ...], getattr(hand, name))
        ours = stacks
        if name == "winnings":
            # Sites differ on an uncalled bet: given back (not won), or counted in what the player
            # collected (a walk: the big blind collects the whole pot). Either is the same chips.
            ours = tuple(
                w + r if t == w + r else w for t, w, r in zip(theirs, won, paid.returned or [0] * len(won), strict=True)
            )
        wrong = _mispaid(name, theirs, ours, hand, paid.returned)
        if wrong:
            return Pots(MISPAID, wrong, won, stacks, ranks)
        rake = max(rake, sum(ours) - sum(theirs))
    shown_how = "uncontested" if not ranking else "at a showdown ranked " + _shown_ranking(ranking)
    if "runs" in how:
        shown_how += ", low " + _shown_ranking(how["runs"][1])
    cut = f", less a rake of {_unit(rake, hand.scale)}" if rake else ""
    return Pots(
        PAID, f"pots paid {shown_how} as the file's {' and '.join(recorded)} say{cut}", won, stacks, ranks, rake
    )


def _played_again(result: Replay) -> Engine:
    """The replayed hand on an engine of its own, its pots not paid yet: a copy of the replay's
    engine (which is left as it is), or, for a hand replayed in C, a new engine that plays the
    steps the kernel took."""
    played = result.engine
    if played is not None and not played.paid:
        # copy.copy: the hand as it stands (Engine.__copy__), 13 microseconds where playing the
        # steps again took about a hundred. (An engine whose pots its caller paid is played again.)
        return copy.copy(played)
    if played is not None:
        engine = type(played)(played.table, **cast(dict[str, Any], played.options))
    else:
        engine = cast("Callable[[], Engine]", result.fresh)()
    for seat, what, to in result.logged or ():  # replayed in C: each action as the kernel took it
        if seat < 0:
            cast(_Dealer, engine).deal(what)
        elif type(what) is tuple:
            engine.act(seat, what[0] if what[0] in engine.legal_actions() else what[1], to)
        else:
            engine.act(seat, what, to)
    for step in result.steps:
        if "deal" in step:
            cast(_Dealer, engine).deal(step["deal"], **step.get("with", {}))
        elif isinstance(step["act"], tuple):  # replayed in C: the one of the pair legal here
            legal = engine.legal_actions()
            engine.act(step["seat"], next((a for a in step["act"] if a in legal), step["act"][-1]), step.get("to"))
        else:
            engine.act(step["seat"], step["act"], step.get("to"))
    return engine


def _mispaid(name: str, theirs: tuple[int, ...], ours: tuple[int, ...], hand: Hand, returned: Sequence[int]) -> str:
    """Why the file's ``name`` field differs from what betspec paid (a rake aside), or ""."""
    if theirs == ours:
        return ""
    # A rake: the seats betspec pays have less in the file, every other seat is as betspec says.
    # A seat betspec pays is one whose winnings are not 0, or whose stack grew.
    gained = [o > 0 if name == "winnings" else o > start for o, start in zip(ours, _starts(hand), strict=True)]
    raked = all(t <= o if g else t == o for t, o, g in zip(theirs, ours, gained, strict=True))
    if raked and name == "winnings":
        raked = all(bool(t) == g for t, g in zip(theirs, gained, strict=True))
    if raked:
        return ""
    unit = hand.scale

    def differs(seat: int, file: int, paid: int) -> str:
        if name == "winnings":
            back = returned[seat] if seat < len(returned) else 0
            also = f" (and gave back {_unit(back, unit)} uncalled)" if back else ""
            return (
                f"p{seat + 1} (seat {seat}) won {_unit(file, unit)} by the file, betspec paid {_unit(paid, unit)}{also}"
            )
        return f"p{seat + 1} (seat {seat}) ends with {_unit(file, unit)} by the file, {_unit(paid, unit)} by betspec"

    diffs = [differs(seat, t, o) for seat, (t, o) in enumerate(zip(theirs, ours, strict=True)) if t != o]
    more = f" (and {len(diffs) - 3} more)" if len(diffs) > 3 else ""
    return f"pots paid otherwise than the file's {name}: {'; '.join(diffs[:3])}{more}"


def _starts(hand: Hand) -> tuple[int, ...]:
    return tuple(stack or 0 for stack in hand.starting_stacks)


def _shown_ranking(ranking: Sequence[Sequence[int]]) -> str:
    return " > ".join("=".join(f"p{seat + 1}" for seat in group) for group in ranking)


def _ranking(hand: Hand, contenders: Sequence[int]) -> tuple[list[list[list[int]]] | None, str]:
    """The showdown of ``contenders`` from the cards the file shows, as :meth:`Engine.settle`
    takes it: one ranking, or a split game's two runs (high, then low completed by the high order:
    :func:`betspec.cards.settlement_rankings`), best first with ties together; or None and why it
    cannot be ranked. A muck ranks below every hand shown."""
    game = hand.game
    board = [card for deal in hand.board for card in split_cards(deal)]
    if len(board) != sum(game.board) or not known(board):
        return None, "the file does not show the whole board"
    shown_cards = dict(hand.shows)
    holes = sum(len(statuses) for statuses in game.hole)
    seen = set(board)
    if len(seen) != len(board):
        return None, "a card is on the board twice"
    held: dict[int, list[str]] = {}
    mucked: list[int] = []
    for seat in contenders:
        if shown_cards.get(seat) == "":
            mucked.append(seat)  # a muck: it cannot win the pot
            continue
        cards = split_cards(hand.hole[seat]) if seat < len(hand.hole) else []
        if len(cards) != holes or not known(cards):
            return None, f"p{seat + 1} shows down and the file does not show {holes} known cards"
        if len(set(cards)) != holes or set(cards) & seen:
            return None, f"p{seat + 1}'s cards {''.join(cards)} are dealt twice"
        seen |= set(cards)
        held[seat] = cards
    try:
        ranked = rankings(game, held, board)
    except NoEvaluator as exc:
        return None, str(exc)
    except CardError as exc:
        return None, str(exc)
    if not held:
        return [[mucked]], ""
    how = settlement_rankings(ranked)
    if mucked:  # below every hand shown, in every ranking
        for ranking in how.get("runs") or [how["ranking"]]:
            ranking.append(mucked)
    return [how["ranking"]] if "ranking" in how else how["runs"], ""
