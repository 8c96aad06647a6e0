"""What the runtime offers spec expressions: variables to read, registers to write, primitives to call.

A spec declares the variables and primitives it uses (with their meaning, for readers); the
front end checks each declaration against this table, and the compiler replaces each name by the
Python source given here. ``m`` is the engine in generated code.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Binding:
    type: str  # "int", "bool" or "int?"
    source: str
    writable: bool = False
    minimum: int | None = None
    #: "table": fixed by the table for the whole hand; "seat": about one seat (the seat to act,
    #: or the seat a per-seat quantity is computed for); "hand": the rest of the hand's state.
    scope: str = "hand"


#: Variables about the seat to act read ``m._actor``; they are meaningful only while a seat is to act.
VARIABLES: dict[str, Binding] = {
    "stack": Binding("int", "m._behind[m._actor]", minimum=0, scope="seat"),
    "committed": Binding("int", "m._put_in[m._actor]", minimum=0, scope="seat"),
    "has_acted": Binding("bool", "m._acted[m._actor]", scope="seat"),
    "acted_at": Binding("int", "m._acted_at[m._actor]", minimum=0, scope="seat"),
    "bet_level": Binding("int", "m._bet_level", minimum=0),
    "pot": Binding("int", "m._pot", minimum=0),
    "small_blind": Binding("int", "m._small_blind", minimum=0, scope="table"),
    "big_blind": Binding("int", "m._big_blind", minimum=0, scope="table"),
    "ante": Binding("int", "m._ante", minimum=0, scope="table"),
    "small_bet": Binding("int", "m._small_bet", minimum=0, scope="table"),
    "big_bet": Binding("int", "m._big_bet", minimum=0, scope="table"),
    "street": Binding("int", "m._street", minimum=0),
    "seats": Binding("int", "m._n", minimum=2, scope="table"),
    "players_in": Binding("int", "m._players_in", minimum=1),
    "able": Binding("int", "m._able()", minimum=0),
    "others_able": Binding("int", "m._others_able()", minimum=0),
    "answerable": Binding("bool", "m._answerable()"),
    "able_owing": Binding("int", "m._able_owing()", minimum=0),
    "pending": Binding("int", "m._pending()", minimum=0),
    "action_pending": Binding("bool", "(m._actor >= 0)"),
    "big_blind_acted": Binding("bool", "m._bb_acted"),
    "small_blind_committed": Binding("int", "m._small_blind_committed()", minimum=0),
    "is_small_blind": Binding("bool", "m._is_small_blind()"),
    "burn_blind": Binding("bool", "m._table.burn_blind", scope="table"),
    "declared_call": Binding("bool", "(m._declared == 1)"),
    "declared_wager": Binding("bool", "(m._declared == 2)"),
    "bet_announced": Binding("bool", "(m._announced == m._bet_level)"),
    "out_of_turn_declared": Binding("bool", "(m._actor in m._out_of_turn)"),
    "out_of_turn_to": Binding("int", "m._out_of_turn.get(m._actor, (0, 0))[0]", minimum=0),
    "out_of_turn_level": Binding("int", "m._out_of_turn.get(m._actor, (0, 0))[1]", minimum=0),
    "last_raise": Binding("int", "m._last_raise", writable=True, minimum=0),
    "last_full_level": Binding("int", "m._last_full_level", writable=True, minimum=0),
    "raises": Binding("int", "m._raises", writable=True, minimum=0),
}

#: Primitives move chips and seats; their arguments are int expressions.
PRIMITIVES: dict[str, tuple[int, str]] = {
    "post_antes": (0, "m._post_antes"),
    "post_blinds": (0, "m._post_blinds"),
    "post_burn_blind": (1, "m._post_burn_blind"),
    "begin_street": (1, "m._begin_street"),
    "commit": (1, "m._commit"),
    "check": (0, "m._mark_checked"),
    "fold": (0, "m._mark_folded"),
    "pass_action": (0, "m._pass_action"),
    "close_round": (0, "m._close_round"),
    "deal": (1, "m._deal_runout"),
}

#: Event kinds the runtime drives, and the action events it exposes as typed methods.
ACTIONS = ("fold", "check", "call", "bet", "raise", "timeout")
ACTION_PARAMS = {"fold": (), "check": (), "call": (), "bet": ("to",), "raise": ("to",), "timeout": ()}
#: The actions a seat chooses among, reported by legal_actions(); a timeout happens to it.
CHOSEN_ACTIONS = ("fold", "check", "call", "bet", "raise")

#: What a ruling on chips pushed may read: the push and the declaration that came with it.
PUSH_PARAMETERS: dict[str, str] = {
    "pushed": "int",
    "chips": "int",
    "largest_chip": "int",
    "said_fold": "bool",
    "said_check": "bool",
    "said_call": "bool",
    "said_bet": "bool",
    "said_raise": "bool",
    "said_to": "int?",
}

#: Quantities every concrete spec must define: the runtime answers queries with them.
REQUIRED_QUANTITIES: dict[str, str] = {
    "all_in_to": "int",
    "call_amount": "int",
    "bet_min_to": "int",
    "bet_max_to": "int",
    "raise_min_to": "int",
    "raise_max_to": "int",
}

#: Quantities computed for every seat (``"per_seat": true``) that the runtime needs: ``playable``,
#: the chips a seat can still put in (a seat with none is all-in for betting).
REQUIRED_SEAT_QUANTITIES: dict[str, str] = {"playable": "int"}

#: The phases (of the schema's list) in which seats bet, and those in which the hand is over.
BETTING_PHASES = ("unopened", "facing_bet")
HAND_OVER_PHASES = ("runout", "showdown", "settled")
