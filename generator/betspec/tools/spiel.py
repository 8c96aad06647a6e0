"""An OpenSpiel game for any spec: registered with ``pyspiel``, chance nodes dealing the spec's own
cards, so that OpenSpiel's algorithms (CFR, Monte Carlo CFR, best response) run on a house's rules
(``pip install open_spiel``).

:func:`register` makes the game of a structure at a number of seats and a table, and returns the
name ``pyspiel.load_game`` loads it by (``python_betspec_<structure>_<seats>``). Each card dealt is
a chance node (uniform over the cards left); the streets' cards come as the spec's game deals them
(each seat still in its hole cards, then the board); the stud bring-in and each street's opener
come from the cards dealt, as ``betspec.cards`` decides them; a draw stands pat. The players'
actions are :class:`betspec.tools.env.PokerEnv`'s (fold, check or call, bring in, the least
wager, pot fractions, all in, the spec's own), each legal one listed once. The showdown is ranked
by the spec's game; the returns are the chips each seat won or lost.

A game of several boards or of discards is not dealt here yet.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pyspiel

from betspec.cards import CardError, Game, bring_in_seat, game_of, open_pair, opener, rankings, settlement_rankings
from betspec.runtime import Engine, InvalidTable, Table, engine_class
from betspec.tools.agent_actions import CARD_INDEX, CARDS, action_mask, action_names, take_action


class _Rules:
    """What a registered game plays: the structure, its table, the cards and the actions."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Rules:
        return self  # what a game plays never changes: its states share it

    def __init__(self, cls: type[Engine], table: Table, options: Mapping[str, Any], fractions: Sequence[float]) -> None:
        self.cls, self.table, self.options = cls, table, dict(options)
        try:
            self.game: Game = game_of(cls)
        except CardError as exc:
            raise InvalidTable(f"{cls.SPEC_NAME}: an OpenSpiel game deals the spec's cards: {exc.message}") from None
        if self.game.boards > 1 or any(self.game.discards) or self.game.boards_when:
            raise InvalidTable(f"{cls.SPEC_NAME}: a game of several boards or of discards is not dealt here yet")
        self.seats = len(table.stacks)
        if short := self.game.undealable(self.seats):
            raise InvalidTable(f"{cls.SPEC_NAME}: {short}")
        self.names = action_names(cls, fractions)
        self.deck = self.game.deck
        # The chance nodes of each street: (seat, face up) for each hole card, (-1, True) for the board.
        self.deals = [
            [*((seat, up) for seat in range(self.seats) for up in hole), *((-1, True),) * board]
            for hole, board in zip(self.game.hole, self.game.board, strict=True)
        ]


class _Hand:
    """What a state holds of its hand: the cards dealt, the players' actions, the engine they
    were played on. It copies (``copy.deepcopy``, as OpenSpiel clones a state at every node) as
    ``copy.copy`` copies a hand (:meth:`Engine.__copy__`) and its lists of immutable entries one level deep, not
    through ``deepcopy``'s walk of every tuple (two thirds of a CFR iteration's time)."""

    __slots__ = ("dealt", "engine", "history", "marks", "paid")

    def __init__(self) -> None:
        self.engine: Engine | None = None
        self.dealt: list[tuple[int, bool, str]] = []  # (seat or -1 for the board, face up, card)
        self.history: list[tuple[int, int]] = []  # (seat, action index)
        self.marks: list[int] = []  # where in ``dealt`` each street whose cards are all out ends
        self.paid = False

    def __deepcopy__(self, memo: dict[int, Any]) -> _Hand:
        twin = _Hand()
        twin.engine = None if self.engine is None else copy.copy(self.engine)
        twin.dealt, twin.history, twin.marks = list(self.dealt), list(self.history), list(self.marks)
        twin.paid = self.paid
        return twin


class BetspecState(pyspiel.State):  # type: ignore[misc]
    """A hand: the cards dealt so far (chance actions), the players' actions, and the engine they
    were played on (OpenSpiel clones a state by copying its attributes: the engine, held in a
    :class:`_Hand`, copies as its snapshot restored)."""

    def __init__(self, game: BetspecGame, rules: _Rules) -> None:
        super().__init__(game)
        self.rules = rules
        self._hand = _Hand()

    # ---- OpenSpiel's API ---------------------------------------------------------------------

    def current_player(self) -> int:
        if self._paid:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._pending() is not None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self._engine().to_act
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        return [index for index, allowed in enumerate(self._mask()) if allowed]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        out = {card for _seat, _up, card in self.dealt}
        left = [CARD_INDEX[card] for card in self.rules.deck if card not in out]
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_action(self, action: int) -> None:
        pending = self._pending()
        if pending is not None:
            self.dealt.append((*pending, CARDS[action]))
        else:
            seat = self._engine().to_act
            assert seat is not None
            self._act(seat, action)
            self.history.append((seat, action))
        self._advance()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARDS[action]}"
        return self.rules.names[action]

    def is_terminal(self) -> bool:
        return self._paid

    def returns(self) -> list[float]:
        if not self._paid:
            return [0.0] * self.rules.seats
        engine = self._engine()
        return [float(engine.stacks[seat] - self.rules.table.stacks[seat]) for seat in range(self.rules.seats)]

    def information_state_string(self, player: int | None = None) -> str:
        """What ``player`` (the player to act, if none is given) knows: its own cards, the cards
        shown, every action, in order."""
        if player is None:
            player = self.current_player()
        cards = [_seen(seat, up, card, player) for seat, up, card in self.dealt]
        acts = [f"s{seat}:{self.rules.names[action]}" for seat, action in self.history]
        return f"p{player} " + " ".join(cards + acts)

    def observation_string(self, player: int | None = None) -> str:
        if player is None:
            player = self.current_player()
        engine = self.engine
        own = "".join(card for seat, _up, card in self.dealt if seat == player)
        shown = "".join(card for seat, up, card in self.dealt if up and seat != player)
        if engine is None:
            return f"p{player} {own} | {shown}"
        return f"p{player} {own} | {shown} | pot {engine.pot} stacks {list(engine.stacks)} in {list(engine.committed)}"

    def __str__(self) -> str:
        return self.information_state_string(0).removeprefix("p0 ")

    # ---- the hand --------------------------------------------------------------------------

    @property
    def engine(self) -> Engine | None:
        return self._hand.engine

    @property
    def dealt(self) -> list[tuple[int, bool, str]]:
        """The cards dealt so far: (seat or -1 for the board, face up, card), in order."""
        return self._hand.dealt

    @property
    def history(self) -> list[tuple[int, int]]:
        """The players' actions so far: (seat, action index), in order."""
        return self._hand.history

    @property
    def marks(self) -> list[int]:
        return self._hand.marks

    @property
    def _paid(self) -> bool:
        return self._hand.paid

    def _engine(self) -> Engine:
        if self.engine is None:
            raise InvalidTable("no card is dealt yet")
        return self.engine

    def _street_deals(self) -> list[tuple[int, bool]]:
        """The cards of the street being dealt: each seat still in its hole cards, the board."""
        engine = self.engine
        deals = self.rules.deals[len(self.marks)]
        if engine is None:
            return list(deals)
        return [(seat, up) for seat, up in deals if seat < 0 or not engine.folded[seat]]

    def _pending(self) -> tuple[int, bool] | None:
        """The card the dealer deals next (its seat, -1 for the board; face up or not), or None:
        a seat acts, or every card the hand needs is out."""
        if self._paid or len(self.marks) >= len(self.rules.deals):
            return None
        engine = self.engine
        if engine is not None:
            if engine.to_act is not None and not engine.hand_over:
                return None  # the betting goes on
            if engine.hand_over and sum(1 for seat in range(self.rules.seats) if not engine.folded[seat]) < 2:
                return None  # won uncontested: no card shows
        wanted = self._street_deals()
        done = len(self.dealt) - (self.marks[-1] if self.marks else 0)
        return wanted[done] if done < len(wanted) else None

    def _advance(self) -> None:
        """Open each street whose cards are out (the engine made at the first, the street dealt to
        it after), then pay the hand once it is over and every card it needs is out."""
        while len(self.marks) < len(self.rules.deals) and self._pending() is None:
            engine = self.engine
            if engine is not None and engine.to_act is not None and not engine.hand_over:
                break
            if engine is not None and engine.hand_over and self._pending() is None and not self._needs_cards():
                break
            self.marks.append(len(self.dealt))
            self._open_street()
        engine = self.engine
        if engine is not None and engine.hand_over and not self._paid and self._pending() is None:
            self._settle()

    def _needs_cards(self) -> bool:
        """Whether a hand over still shows down cards not dealt: two seats or more are left."""
        engine = self._engine()
        return sum(1 for seat in range(self.rules.seats) if not engine.folded[seat]) > 1

    def _open_street(self) -> None:
        rules, game = self.rules, self.rules.game
        if self.engine is None:
            inputs: dict[str, object] = {}
            if game.opening != "position":
                inputs["bring_in_seat"] = bring_in_seat(game, self._upcards(set()))
            table = Table.of(rules.table.stacks, rules.table.button, {**rules.table.inputs, **inputs})
            self._hand.engine = rules.cls(table, **rules.options)
            return
        engine = self.engine
        street = engine.next_street
        if street is None:
            return  # the hand is over: the cards run out for its showdown
        given: dict[str, object] = {}
        if game.opening != "position":
            ups = self._upcards({seat for seat in range(rules.seats) if engine.folded[seat]})
            if "opener" in rules.cls.DEAL_INPUTS:
                given["opener"] = opener(game, ups, engine.button)
            if "open_pair" in rules.cls.DEAL_INPUTS and len(self.marks) == 2:
                given["open_pair"] = open_pair(ups)
        engine.deal(street, **given)

    def _upcards(self, out: set[int]) -> dict[int, list[str]]:
        ups: dict[int, list[str]] = {seat: [] for seat in range(self.rules.seats) if seat not in out}
        for seat, up, card in self.dealt:
            if seat >= 0 and up and seat in ups:
                ups[seat].append(card)
        return ups

    def _settle(self) -> None:
        engine = self._engine()
        live = [seat for seat in range(self.rules.seats) if not engine.folded[seat]]
        if len(live) > 1 and any(len(pot.eligible) > 1 for pot in engine.pots()):
            holes = {seat: [card for s, _up, card in self.dealt if s == seat] for seat in live}
            board = [card for s, _up, card in self.dealt if s < 0]
            engine.settle(**settlement_rankings(rankings(self.rules.game, holes, board)))
        else:
            engine.settle()
        self._hand.paid = True

    def _mask(self) -> list[bool]:
        return action_mask(self._engine(), self.rules.names)

    def _act(self, seat: int, action: int) -> None:
        take_action(self._engine(), seat, self.rules.names[action])


def _seen(seat: int, up: bool, card: str, player: int) -> str:
    """A dealt card as ``player`` sees it: its own and the face-up ones, others' as ``??``."""
    where = "b" if seat < 0 else f"s{seat}"
    return f"{where}={card if up or seat == player else '??'}"


class BetspecObserver:
    """OpenSpiel's observer of a betspec game: the information state (perfect recall) or the
    observation, as a string and a tensor (the seat's own cards, the cards shown, the pot, each
    seat's stack and chips in, in units of the table's chips)."""

    def __init__(self, iig_obs_type: Any, rules: _Rules) -> None:
        self.perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False))
        self.rules = rules
        size = 2 * len(CARDS) + 1 + 2 * rules.seats
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: BetspecState, player: int) -> None:
        self.tensor.fill(0)
        for seat, up, card in state.dealt:
            if seat == player:
                self.tensor[CARD_INDEX[card]] = 1
            elif up:
                self.tensor[len(CARDS) + CARD_INDEX[card]] = 1
        engine = state.engine
        if engine is not None:
            scale = float(sum(self.rules.table.stacks)) or 1.0
            self.tensor[2 * len(CARDS)] = engine.pot / scale
            for seat in range(self.rules.seats):
                self.tensor[2 * len(CARDS) + 1 + seat] = engine.stacks[seat] / scale
                self.tensor[2 * len(CARDS) + 1 + self.rules.seats + seat] = engine.committed[seat] / scale

    def string_from(self, state: BetspecState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return state.observation_string(player)


class BetspecGame(pyspiel.Game):  # type: ignore[misc]
    """A registered betspec game (see :func:`register`: a subclass a registration, its type, its
    information and its rules in ``_made``)."""

    _made: tuple[Any, Any, _Rules]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game_type, game_info, rules = self._made
        super().__init__(game_type, game_info, dict(params or {}))
        self.rules = rules

    def new_initial_state(self) -> BetspecState:
        return BetspecState(self, self.rules)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BetspecObserver:
        return BetspecObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), self.rules)


def register(
    structure: str | type[Engine],
    table: Table,
    options: Mapping[str, Any] | None = None,
    fractions: Sequence[float] = (0.5, 1.0),
) -> str:
    """Register the OpenSpiel game of ``structure`` played on ``table`` (its stacks, button and
    inputs); returns the name ``pyspiel.load_game`` loads it by."""
    cls = engine_class(structure) if isinstance(structure, str) else structure
    if not isinstance(table, Table):
        raise InvalidTable(f"an OpenSpiel game is played on a betspec.runtime.Table, not {table!r}")
    rules = _Rules(cls, table, options or {}, fractions)
    cls(Table.of(table.stacks, table.button, {**table.inputs, **_hand_inputs(rules)}), **rules.options)  # refused now
    name = f"python_betspec_{cls.SPEC_NAME}_{rules.seats}"
    total = float(sum(table.stacks))
    zero_sum = cls.RAKE is None and not any(p["from"] == "jackpot" for p in cls.PAYMENTS)
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"betspec {cls.SPEC_NAME}, {rules.seats} seats",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.seats,
        min_num_players=rules.seats,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
    )
    cards = sum(len(street) for street in rules.deals)
    game_info = pyspiel.GameInfo(
        num_distinct_actions=len(rules.names),
        max_chance_outcomes=len(CARDS),
        num_players=rules.seats,
        min_utility=-float(max(table.stacks)),
        max_utility=total,
        utility_sum=0.0 if zero_sum else None,
        max_game_length=cards + 400,
    )
    # A class, as OpenSpiel's own Python games register (the registry outlives the interpreter's
    # objects: a closure held there is freed after Python has finalized).
    made = type(f"BetspecGame_{cls.SPEC_NAME}_{rules.seats}", (BetspecGame,), {"_made": (game_type, game_info, rules)})
    _REGISTERED.append(made)
    pyspiel.register_game(game_type, made)
    return name


#: The game classes registered, kept for the process's life as the registry keeps them.
_REGISTERED: list[type[BetspecGame]] = []


def _hand_inputs(rules: _Rules) -> dict[str, object]:
    """Inputs the cards give each hand, at an example's values, to check the table with."""
    return {"bring_in_seat": 0} if rules.game.opening != "position" and "bring_in_seat" in rules.cls.INPUTS else {}


__all__ = ["BetspecGame", "BetspecState", "register"]
