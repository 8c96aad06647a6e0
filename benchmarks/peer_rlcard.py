"""RLCard's no-limit hold'em (the game under its ``no-limit-holdem`` env, pure Python) as a peer.

The game class itself (``rlcard.games.nolimitholdem.Game``) is driven, not the env around it: the
env only adds the numpy observation of the learning agent, and takes one stack for every player.
RLCard has no pot-limit or stacked fixed-limit game: those hands are refused.

Seats: RLCard player i is betspec seat i. RLCard posts the small blind from the seat after its
dealer and the big blind from the next one, heads-up too, where its dealer therefore posts the big
blind; betspec's button posts the small blind. So ``dealer_id`` is betspec's button from 3 seats
up and, heads-up, the big blind's seat, which puts the blinds (and the first to act before the flop)
where betspec has them. One game per table size; a hand sets ``init_chips`` (the stacks),
``dealer_id``, blinds 10 and 20, and calls ``init_game``.

Actions: RLCard's menu is FOLD, CHECK_CALL, RAISE_HALF_POT (adds half the pot, the whole hand's),
RAISE_POT (adds the pot) and ALL_IN. A betspec bet or raise maps onto the menu item that puts in the
same chips; any other size cannot be expressed and the hand is refused. Cards are RLCard's own
shuffle (it plays the betting without reading them; the payoffs are not asked for). Its query is
``get_player_id``, ``get_legal_actions`` and the chips on the street (``round.raised``) for the
call; the min and max "to" are what its menu items would put in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from benchmarks.peer_check import Answers, Refused
from betspec.runtime import Table

try:
    from rlcard.games.nolimitholdem import Action, Game
except ImportError:  # optional peer: bench.py reports it as not installed
    Action = Game = None

NAME = "rlcard"
LABEL = "RLCard"
PACKAGE = "rlcard"

_games: dict[int, Any] = {}


def available() -> bool:
    return Game is not None


def game(table: Table) -> Any:
    n = len(table.stacks)
    found = _games.get(n)
    if found is None:
        found = _games[n] = Game(num_players=n)
        found.small_blind, found.big_blind = table.get("blinds")
    return found


def dealer_id(table: Table) -> int:
    n = len(table.stacks)
    return (table.button + 1) % n if n == 2 else table.button


class Native(NamedTuple):
    """A checked hand as RLCard plays it."""

    game: Any
    stacks: list[int]
    dealer: int
    actions: list[Any]


class Adapter:
    """One RLCard hand addressed in betspec's terms; records the menu items it plays."""

    def __init__(self, structure: str, table: Table, seed: int) -> None:
        if structure != "no_limit":
            raise Refused(f"no {structure.replace('_', '-')} game", "RLCard's hold'em with stacks is no-limit only")
        self.game = game(table)
        self.start = list(table.stacks)
        self.dealer = dealer_id(table)
        self.actions: list[Any] = []
        self.game.init_chips = list(self.start)
        self.game.dealer_id = self.dealer
        self.game.init_game()

    def to_act(self) -> int | None:
        return None if self.game.is_over() else int(self.game.get_player_id())

    def stacks(self) -> list[int]:
        return [player.remained_chips for player in self.game.players]

    def _menu(self) -> dict[Any, int]:
        """What each legal menu item would take the player's street commitment to."""
        game = self.game
        player = game.get_player_id()
        raised = game.round.raised
        behind = game.players[player].remained_chips
        pot = game.dealer.pot
        adds = {Action.RAISE_HALF_POT: int(pot / 2), Action.RAISE_POT: pot, Action.ALL_IN: behind}
        return {a: raised[player] + adds[a] for a in game.get_legal_actions() if a in adds}

    def query(self) -> Answers:
        game = self.game
        player = game.get_player_id()
        raised = game.round.raised
        call = min(max(raised) - raised[player], game.players[player].remained_chips)
        legal = game.get_legal_actions()
        names = []
        if Action.FOLD in legal:
            names.append("fold")
        if Action.CHECK_CALL in legal:
            names.append("call" if call else "check")
        menu = [to for to in self._menu().values() if to > max(raised)]
        low = high = None
        if menu:
            names.append("raise" if max(raised) else "bet")
            low, high = min(menu), max(menu)
        return tuple(sorted(names)), call, low, high

    def act(self, seat: int, action: str, to: int | None) -> None:
        game = self.game
        if action == "fold":
            choice = Action.FOLD
        elif action in ("check", "call"):
            choice = Action.CHECK_CALL
        else:
            menu = self._menu()
            matches = [a for a, menu_to in menu.items() if menu_to == to]
            if not matches:
                offered = ", ".join(f"{a.name.lower()} to {menu_to}" for a, menu_to in menu.items()) or "no raise"
                raise Refused(f"a {action} size not on its menu", f"{action} to {to}; it offers {offered}")
            choice = matches[-1]  # ALL_IN over a pot raise of the same size: the menu's own all-in
        if choice not in game.get_legal_actions():
            legal = [a.name for a in game.get_legal_actions()]
            raise Refused(f"refuses {action}", f"{choice.name} is not among {legal}")
        game.step(choice)
        self.actions.append(choice)

    def deal(self, street: str) -> None:
        stages = ("PREFLOP", "FLOP", "TURN", "RIVER")
        game = self.game
        if not game.is_over() and stages.index(game.stage.name) < stages.index(street.upper()):
            player = game.get_player_id()
            all_in = game.players[player].remained_chips == 0
            what = "gives an all-in seat the turn" if all_in else "its betting round goes on"
            raise Refused(what, f"betspec deals the {street}; peer has seat {player} to act")

    def finish(self) -> None:
        pass

    def hand_over(self) -> bool:
        return bool(self.game.is_over())

    def native(self) -> Native:
        return Native(self.game, self.start, self.dealer, self.actions)


def replay(natives: Sequence[Native], query: bool) -> int:
    """Play checked hands again from their menu items; returns the betting actions taken."""
    count = 0
    for table, stacks, dealer, actions in natives:
        table.init_chips = list(stacks)
        table.dealer_id = dealer
        table.init_game()
        for action in actions:
            if query:
                player = table.get_player_id()
                table.get_legal_actions()
                raised = table.round.raised
                _call = min(max(raised) - raised[player], table.players[player].remained_chips)
            table.step(action)
        count += len(actions)
    return count
