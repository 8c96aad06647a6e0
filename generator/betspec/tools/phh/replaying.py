"""Replaying a hand through an engine, action by action, and what the cards decide for each street."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress as _suppress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, cast

from betspec.cards import (
    NoEvaluator,
    known,
)
from betspec.cards import open_pair as cards_open_pair
from betspec.cards import opener as cards_opener
from betspec.tools.phh.model import Act, Bad, Hand, Irregular, PhhError, _brief, _count, _cut
from betspec.tools.phh.table import hand_options, table_inputs

if TYPE_CHECKING:
    from betspec.runtime import Engine, IllegalAction


ACCEPTED, REFUSED, IRREGULAR, INVALID = "ACCEPTED", "REFUSED", "IRREGULAR", "INVALID"


#: The most characters a hand's line of ``phh check`` takes.
LINE_ROOM = 1000


#: A stud hand whose dealer erred: the seat the file has bring in, or open a later street, is not
#: the one its upcards decide (the file shows them all).
MISDEALT = "MISDEALT"


@dataclass
class Replay:
    """What replaying one hand gave: accepted, refused at an action, irregular or invalid."""

    name: str
    status: str
    detail: str
    hand: Hand | None = None
    engine: Engine | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)  # the case steps taken
    act: Act | None = None  # the action refused
    error: IllegalAction | None = None
    # A hand replayed in C (phh check): no engine kept; a new one at the hand's start, to pay the
    # pots on, and whether the hand was over. Its steps are then in ``logged`` (``steps`` empty)
    # as the kernel took them (``kernel.Logged.taken``): (seat, action, to), a deal (-1, street,
    # None); a pair of actions ("check", "call"), the first legal then, where a log does not say.
    fresh: Callable[[], Engine] | None = None
    over: bool = False
    logged: list[tuple[int, Any, int | None]] | None = None

    def line(self) -> str:
        """The hand's report, one line of at most :data:`LINE_ROOM` characters."""
        return _cut(f"{self.status} {self.name}: {self.detail}", LINE_ROOM)


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """``NAME=VALUE`` strings as options; a VALUE is read as a JSON scalar, else as a word."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, equals, raw = pair.partition("=")
        name = name.strip()
        if not equals or not name:
            raise PhhError(f"an option is NAME=VALUE, not {pair!r}")
        try:
            value: object = json.loads(raw)
        except ValueError:
            value = raw  # a bare word is how a choice is written (underraise_rule=half)
        if isinstance(value, list | dict):
            raise PhhError(f"option {name}: a value is a number, true, false, null or a word")
        options[name] = value
    return options


def engine_for(structure: str, options: Mapping[str, Any]) -> type[Engine]:
    """The structure's engine class, its options checked; raises :class:`PhhError` saying why not."""
    from betspec.diagnostics import did_you_mean
    from betspec.runtime import InvalidTable, engine_class

    try:
        cls = engine_class(structure)
    except LookupError as exc:
        raise PhhError(str(exc)) from None
    for name in options:
        if name not in cls.OPTION_DEFAULTS:
            raise PhhError(f"option {name!r} is not declared by {structure}{did_you_mean(name, cls.OPTION_DEFAULTS)}")
    try:  # values are checked by the engine itself, once, on a table any structure takes
        cls(cls.example_table([100, 100], 1), **options)
    except InvalidTable as exc:
        raise PhhError(f"{structure}: {exc.message}") from None
    return cls


def replay(hand: Hand | Bad, cls: type[Engine], options: Mapping[str, Any] | None = None) -> Replay:
    """Every action of a hand through an engine of ``cls``: accepted, or the first one it refuses."""
    from betspec.conformance.wording import describe
    from betspec.runtime import IllegalAction, InvalidTable, Table

    if isinstance(hand, Bad):
        return Replay(hand.name, INVALID, hand.reason)
    try:
        inputs = table_inputs(hand)
        chosen = hand_options(hand, cls, options)
    except Irregular as exc:
        return Replay(hand.name, IRREGULAR, str(exc), hand)
    try:
        engine = cls(Table(**inputs), **chosen)
    except InvalidTable as exc:
        return Replay(hand.name, INVALID, f"no {cls.SPEC_NAME} table for it: {exc.message}", hand)
    result = Replay(hand.name, ACCEPTED, "", hand, engine)
    misdealt = _wrong_bring_in(hand, inputs, engine)
    if misdealt:
        result.status, result.detail = MISDEALT, misdealt
        return result
    for act in hand.acts:
        if act.seat < 0 and act.street >= len(cls.STREETS):
            return Replay(
                hand.name,
                INVALID,
                f"action {act.number} {_brief(act.text)} opens a street {cls.SPEC_NAME} does not deal "
                f"({', '.join(cls.STREETS)})",
                hand,
            )
        step = _step(engine, act, hand)
        try:
            if act.seat < 0:
                cast(_Dealer, engine).deal(step["deal"], **step.get("with", {}))
            else:
                engine.act(act.seat, step["act"], step.get("to"))
        except IllegalAction as exc:
            taken = f"deal {step['deal']}" if act.seat < 0 else f"seat {act.seat} {describe(step)}"
            # Kept without its traceback: its frames hold this hand's replay, whose error it is, a
            # cycle that kept every hand of a batch for the collector to find (a tenth of check).
            result.status, result.act, result.error = REFUSED, act, exc.with_traceback(None)
            source = _cut(exc.source, 500)  # a house's rule may cite a long text
            result.detail = (
                f"action {act.number} {_brief(act.text)} ({taken}) refused: {exc.code}, rule {exc.rule} [{source}]"
            )
            return result
        result.steps.append(step)
        misdealt = _wrong_opener(hand, act, step, engine) if act.seat < 0 else ""
        if misdealt:
            result.status, result.detail = MISDEALT, misdealt
            return result
    betting = sum(1 for act in hand.acts if act.seat >= 0)
    deals = len(hand.acts) - betting
    if engine.hand_over:
        end = engine.street_name
    elif engine.to_act is not None:
        end = f"{engine.street_name}, seat {engine.to_act} to act when the history stops"
    else:
        end = f"{engine.street_name} over, the history stops before the next deal"
    result.detail = f"{_count(betting, 'action')} and {_count(deals, 'deal')}, {end}"
    return result


def _first_bet(hand: Hand, after: int = 0) -> Act | None:
    return next((act for act in hand.acts if act.seat >= 0 and act.number > after), None)


def _shown_ups(ups: Sequence[tuple[int, tuple[str, ...]]]) -> str:
    return ", ".join(f"p{seat + 1} {' '.join(cards)}" for seat, cards in ups)


def _wrong_bring_in(hand: Hand, inputs: Mapping[str, Any], engine: Engine) -> str:
    """Why the file's bring-in is not the cards' (the first to act is not the seat of the lowest
    upcard, the highest in razz), or "" when it is or the file does not show every upcard."""
    first = _first_bet(hand)
    decided = inputs.get("bring_in_seat")
    if first is None or decided is None or decided == first.seat or engine.to_act == first.seat:
        return ""
    low = hand.game.opening == "high_card"
    return (
        f"action {first.number} {_brief(first.text)}: p{first.seat + 1} brings in, where the upcards "
        f"({_shown_ups(hand.first_upcards)}) say p{decided + 1}, the {'highest' if low else 'lowest'}: "
        f"the dealer erred (rule BRING-IN)"
    )


def _wrong_opener(hand: Hand, act: Act, step: Mapping[str, Any], engine: Engine) -> str:
    """Why the seat the file has open a stud street after a deal is not the one the upcards decide
    (the best hand showing, the lowest in razz), or "" when it is or the cards decide nothing."""
    opener = step.get("with", {}).get("opener")
    if act.first is None or opener is None or opener == act.first or engine.to_act in (None, act.first):
        return ""
    first = _first_bet(hand, act.number)
    if first is None:
        return ""
    low = hand.game.opening == "high_card"
    return (
        f"action {first.number} {_brief(first.text)}: p{first.seat + 1} opens {step['deal']}, where the "
        f"upcards ({_shown_ups(act.upcards)}) say p{opener + 1}, the {'lowest' if low else 'best'} hand "
        f"showing: the dealer erred (rule BRING-IN)"
    )


class _Dealer(Protocol):
    """What every generated engine has and the base class does not declare."""

    def deal(self, street: str, /, **given: object) -> None: ...


def deal_inputs(hand: Hand, act: Act, cls: type[Engine]) -> dict[str, Any]:
    """What the cards decide for a stud street (the spec's deal inputs): the opener, the best hand
    showing (the lowest in razz) where the file shows every upcard and PokerKit ranks them, else
    the seat that acts first; an open pair on fourth street, where the upcards show one."""
    game = hand.game
    if game.opening == "position":
        return {}
    given: dict[str, Any] = {}
    ups = dict(act.upcards)
    shown_all = bool(ups) and all(known(cards) for cards in ups.values())
    if "opener" in cls.DEAL_INPUTS:
        opener: int | None = act.first
        if shown_all:
            with _suppress(NoEvaluator):
                opener = cards_opener(game, ups)
        if opener is not None:
            given["opener"] = opener
    if "open_pair" in cls.DEAL_INPUTS and act.street == 1 and shown_all:
        given["open_pair"] = cards_open_pair(ups)
    return given


def _step(engine: Engine, act: Act, hand: Hand) -> dict[str, Any]:
    """The case step a PHH action is: a cc checks or calls, a cbr bets or raises, by what stands;
    a deal names the engine's street and what the cards decide for it."""
    if act.seat < 0:
        step: dict[str, Any] = {"deal": type(engine).STREETS[act.street]}
        given = deal_inputs(hand, act, type(engine))
        if given:
            step["with"] = given
        return step
    if act.verb == "pb":
        return {"seat": act.seat, "act": "bring_in"}
    if act.verb == "f":
        return {"seat": act.seat, "act": "fold"}
    if act.verb == "cc":
        return {"seat": act.seat, "act": "check" if engine.call_amount == 0 else "call"}
    # The "to" amount is the seat's whole stake on the street, as the engine's; an all-in for
    # less than a full raise is still a raise to that amount, and the engine rules on it.
    return {"seat": act.seat, "act": "bet" if engine.bet_level == 0 else "raise", "to": act.to}
