"""OpenSpiel's ``universal_poker`` (the ACPC engine, in C++) as a peer of the benchmark.

Seats: OpenSpiel player i is betspec seat ``(button + 1 + i) % n``: the small blind first, the
button last. Heads-up that makes player 0 the big blind and player 1 the button, who posts the
small blind (betspec's rule), so ``blind`` lists 20 then 10 there.

Each table is its own game, as stacks are game parameters: ``betting=nolimit``, one ``stack`` and
one ``blind`` per player, ``firstPlayer`` (1-based) the seat after the big blind before the flop
(heads-up the button) and the small blind after it (heads-up the big blind), 4 rounds, board cards
0 3 1 1, a 52-card deck, 2 hole cards; ``bettingAbstraction=fullgame``, where action 0 folds,
1 checks or calls and any larger id ``a`` raises to ``a`` chips spent over the whole hand. betspec's
"to" is per street, so a bet or raise to X is id ``X + base``, ``base`` what every player still in
had put in before the street (ACPC's largest commitment when the street starts). Fixed limit is
``betting=limit`` (raise sizes 20 20 40 40, at most 3 4 4 4 raises: before the flop the big blind
is the bet) with the default FCPA actions, 2 being the one fixed bet or raise. OpenSpiel has no
pot-limit betting: pot-limit hands are refused. Chance nodes take cards from a seeded shuffle of
the deck, one per node, as the state asks for them.

The timed replay applies the action ids a checked hand was played with (the translation is done
once, before timing), games loaded beforehand (one per table, like a betspec ``Table``);
``new_initial_state`` and every chance and betting ``apply_action`` are timed. The query before each
action is ``current_player``, ``legal_actions`` (every raise size is one id, so it is as long as
the stack is deep; the min and max "to" are its ends) and ``observation_tensor`` (whose last
values are each player's chips spent, for the call amount).
"""

from __future__ import annotations

import functools
import random
import subprocess
import sys
from collections.abc import Sequence
from typing import Any, NamedTuple

from benchmarks.peer_check import Answers, Refused
from betspec.runtime import Table

try:
    import pyspiel
except ImportError:  # optional peer: bench.py reports it as not installed
    pyspiel = None

NAME = "openspiel"
LABEL = "OpenSpiel"
PACKAGE = "open_spiel"
STREETS = ("preflop", "flop", "turn", "river")
FOLD, CALL, LIMIT_RAISE = 0, 1, 2

_games: dict[str, Any] = {}


class Native(NamedTuple):
    """A checked hand as OpenSpiel plays it."""

    game: Any
    plain: list[int]  # every id applied, chance cards included
    marked: list[int]  # the same, chance cards as ~card (negative), so the query skips them
    decisions: int
    stacks: list[int]  # per player


def available() -> bool:
    return pyspiel is not None


def player_seats(table: Table) -> list[int]:
    """betspec seat of each OpenSpiel player."""
    n = len(table.stacks)
    return [(table.button + 1 + i) % n for i in range(n)]


def game_string(structure: str, table: Table) -> str:
    seats = player_seats(table)
    n = len(seats)
    small, big = table.get("blinds")
    blinds = [big, small] if n == 2 else [small, big] + [0] * (n - 2)
    first = "2 1 1 1" if n == 2 else "3 1 1 1"
    parameters = {
        "numPlayers": str(n),
        "stack": " ".join(str(table.stacks[seat]) for seat in seats),
        "blind": " ".join(map(str, blinds)),
        "firstPlayer": first,
        "numRounds": "4",
        "numBoardCards": "0 3 1 1",
        "numSuits": "4",
        "numRanks": "13",
        "numHoleCards": "2",
    }
    if structure == "no_limit":
        parameters.update(betting="nolimit", bettingAbstraction="fullgame")
    elif structure == "fixed_limit":
        assert table.get("bets") is not None
        small_bet, big_bet = table.get("bets")
        parameters.update(
            betting="limit", raiseSize=f"{small_bet} {small_bet} {big_bet} {big_bet}", maxRaises="3 4 4 4"
        )
    else:
        raise Refused("no pot-limit betting", "universal_poker offers betting=limit or betting=nolimit only")
    return "universal_poker(" + ",".join(f"{key}={value}" for key, value in parameters.items()) + ")"


@functools.cache
def loads_in_a_child(text: str) -> bool:
    """Whether a game loads in a separate process (a limit game of 5 players or more segfaults)."""
    code = f"import pyspiel; pyspiel.load_game({text!r}).new_initial_state()"
    return subprocess.run([sys.executable, "-c", code], capture_output=True).returncode == 0


def load(structure: str, table: Table) -> Any:
    text = game_string(structure, table)
    if structure == "fixed_limit" and len(table.stacks) > 4:
        # OpenSpiel writes no stack line for limit games and ACPC's default covers 4 players: the
        # load fails and the process dies. Probe one table of that size in a child process.
        probe = game_string(structure, Table.of([1000] * len(table.stacks), 0, table.inputs))
        if not loads_in_a_child(probe):
            raise Refused(
                "crash: a limit game of more than 4 players kills the process",
                "ACPC: 'only read 4 stack sizes, need N', then a segmentation fault (probed in a child process)",
            )
    game = _games.get(text)
    if game is None:
        game = _games[text] = pyspiel.load_game(text)
    return game


class Adapter:
    """One universal_poker hand addressed in betspec's terms; records the ids it applies."""

    def __init__(self, structure: str, table: Table, seed: int) -> None:
        self.limit = structure == "fixed_limit"
        self.bets = tuple(table.get("bets")) if table.get("bets") else (0, 0)
        self.seats = player_seats(table)
        self.players = {seat: index for index, seat in enumerate(self.seats)}
        self.stack = [table.stacks[seat] for seat in self.seats]
        self.n = len(self.seats)
        self.game = load(structure, table)
        self.state = self.game.new_initial_state()
        self.cards = random.Random(seed).sample(range(52), 52)
        self.ids: list[int] = []  # every id applied, chance cards as ~card
        self.street = 0
        self.base = 0
        self._deal()

    def _deal(self) -> None:
        state = self.state
        while state.is_chance_node():
            card = self.cards.pop()
            state.apply_action(card)
            self.ids.append(~card)

    def _spent(self) -> list[int]:
        # The observation tensor ends with every player's chips spent; player 0's view will do.
        return [int(v) for v in self.state.observation_tensor(0)[-self.n :]]

    def to_act(self) -> int | None:
        state = self.state
        if state.is_terminal() or state.is_chance_node():
            return None
        return self.seats[state.current_player()]

    def stacks(self) -> list[int]:
        spent = self._spent()
        result = [0] * self.n
        for index, seat in enumerate(self.seats):
            result[seat] = self.stack[index] - spent[index]
        return result

    def _raise_to(self, spent: list[int]) -> int:
        """Limit: where the one legal raise takes the bet, as ACPC computes it (stacks aside)."""
        return max(spent) + self.bets[0 if self.street < 2 else 1]

    def query(self) -> Answers:
        state = self.state
        player = state.current_player()
        legal = state.legal_actions()
        spent = self._spent()
        # ACPC's call is up to the largest commitment; a bot caps it at its own chips, as betspec does.
        call = min(max(spent), self.stack[player]) - spent[player]
        names = []
        if FOLD in legal:
            names.append("fold")
        if CALL in legal:
            names.append("call" if call else "check")
        low = high = None
        raises = [a for a in legal if a > CALL]
        if raises:
            names.append("raise" if max(spent) > self.base else "bet")
            if self.limit:
                low = high = self._raise_to(spent) - self.base
            else:
                low, high = raises[0] - self.base, raises[-1] - self.base
        return tuple(sorted(names)), call, low, high

    def act(self, seat: int, action: str, to: int | None) -> None:
        state = self.state
        player = state.current_player()
        legal = state.legal_actions()
        spent = self._spent()
        behind = self.stack[player] - spent[player]
        if action == "fold":
            choice = FOLD
        elif action in ("check", "call"):
            choice = CALL
            if self.limit and max(spent) - spent[player] >= behind:
                raise Refused("limit games ignore stacks", f"seat {seat} calls all-in for {behind}")
        else:
            assert to is not None
            if self.limit:
                if self._raise_to(spent) - spent[player] >= behind:
                    raise Refused("limit games ignore stacks", f"seat {seat} goes all-in for {behind}")
                if to != self._raise_to(spent) - self.base:
                    raise Refused("a bet size it cannot express", f"{action} to {to}")
                choice = LIMIT_RAISE
            else:
                choice = to + self.base
        if choice not in legal:
            raises = [a for a in legal if a > CALL]
            allowed = f"raises to {raises[0] - self.base}..{raises[-1] - self.base}" if raises else "no raise"
            said = f"{action} to {to}" if to is not None else action
            raise Refused(f"refuses {action}", f"{said} (id {choice}); it allows {allowed}")
        state.apply_action(choice)
        self.ids.append(choice)

    def deal(self, street: str) -> None:
        state = self.state
        if not (state.is_chance_node() or state.is_terminal()):
            seat = self.seats[state.current_player()]
            raise Refused("its betting round goes on", f"betspec deals the {street}; peer has seat {seat} to act")
        self._deal()
        self.street = STREETS.index(street)
        if not state.is_terminal():
            self.base = max(self._spent())

    def finish(self) -> None:
        self._deal()

    def hand_over(self) -> bool:
        return bool(self.state.is_terminal())

    def native(self) -> Native:
        plain = [~a if a < 0 else a for a in self.ids]
        return Native(self.game, plain, list(self.ids), sum(1 for a in self.ids if a >= 0), self.stack)


def replay(natives: Sequence[Native], query: bool) -> int:
    """Play checked hands again from their ids; returns the betting actions taken."""
    actions = 0
    if not query:
        for game, plain, _, decisions, _ in natives:
            apply = game.new_initial_state().apply_action
            for action in plain:
                apply(action)
            actions += decisions
        return actions
    for game, _, marked, _, game_stacks in natives:
        state = game.new_initial_state()
        n = game.num_players()
        for action in marked:
            if action < 0:
                state.apply_action(~action)
                continue
            player = state.current_player()
            legal = state.legal_actions()
            spent = state.observation_tensor(player)[-n:]
            _call = min(max(spent), game_stacks[player]) - spent[player]
            if legal[-1] > CALL:  # the min and max "to": the first and last raise ids
                _bounds = next(a for a in legal if a > CALL), legal[-1]
            state.apply_action(action)
            actions += 1
    return actions
