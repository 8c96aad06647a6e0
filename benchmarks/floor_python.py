"""The plain floor: a hand-written pure-Python no-limit hold'em engine, no framework.

The rules of betspec's ``no_limit`` on the tables ``benchmarks/bench.py`` records (blinds, no
antes; heads-up the button posts the small blind and acts first before the flop): turn order,
the call, the minimum and maximum bet and raise "to", an all-in short of a full raise not
reopening the betting for players who already acted, nobody left to answer a bet, a bet nobody
called given back, all-in runouts, the round and hand ends. Side pots are not made (the
workload never asks for them). It is what a Python programmer writes for speed: one class with
slots, plain lists and ints, the answers for the seat to act computed once per decision.

It answers the queries the benchmarks make (``to_act``, ``legal_actions()``, ``call_amount``,
``min_to``, ``max_to``) and takes ``act(seat, action, to)`` and ``deal(street)``, refusing an
illegal action with ``ValueError``. ``tests/test_floor_python.py`` and ``python_floor.py`` hold
its answers to betspec's on recorded hands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benchmarks.bench import Hand

STREETS = ("preflop", "flop", "turn", "river")
LAST = len(STREETS) - 1

# Phases: betting (a bet to face or not), the round complete, an all-in runout, the hand over.
BETTING, COMPLETE, RUNOUT, OVER = 0, 1, 2, 3


class FloorNoLimit:
    __slots__ = (
        "_view",
        "able",
        "acted",
        "acted_at",
        "actor",
        "big_blind",
        "button",
        "folded",
        "last_raise",
        "level",
        "n",
        "phase",
        "players_in",
        "pot",
        "put_in",
        "stacks",
        "street",
    )

    def __init__(self, stacks: list[int] | tuple[int, ...], button: int, blinds: tuple[int, int]) -> None:
        n = self.n = len(stacks)
        self.button = button
        small, big = blinds
        self.big_blind = big
        self.stacks = list(stacks)
        self.put_in = [0] * n
        self.folded = [False] * n
        self.acted = [False] * n
        self.acted_at = [0] * n
        self.street = 0
        self.players_in = n
        self.pot = 0
        self._view: tuple[tuple[str, ...], int, int | None, int | None] | None = None
        sb = button if n == 2 else (button + 1) % n
        bb = (sb + 1) % n
        level = 0
        for seat, amount in ((sb, small), (bb, big)):
            paid = min(amount, self.stacks[seat])
            self.stacks[seat] -= paid
            self.put_in[seat] = paid
            self.pot += paid
            level = max(level, paid)
        self.level = max(level, big)  # a blind short all-in does not lower the bet to face
        self.last_raise = big
        # Seats that can still bet (in the hand, chips behind), kept as they change, not counted
        # at every action.
        self.able = sum(1 for stack in self.stacks if stack > 0)
        self.phase = BETTING
        self.actor = self._next(bb)
        self._end_round()

    # ---- queries ------------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        return self.actor if self.actor >= 0 else None

    def _answerable(self, actor: int) -> bool:
        level, put_in, stacks, folded = self.level, self.put_in, self.stacks, self.folded
        for seat in range(self.n):  # noqa: SIM110 - a loop that stops early, not a generator
            if seat != actor and not folded[seat] and put_in[seat] + stacks[seat] > level:
                return True
        return False

    def _compute(self) -> tuple[tuple[str, ...], int, int | None, int | None]:
        actor = self.actor
        if actor < 0:
            view: tuple[tuple[str, ...], int, int | None, int | None] = ((), 0, None, None)
        else:
            level = self.level
            put = self.put_in[actor]
            stack = self.stacks[actor]
            all_in = put + stack
            call = level - put
            if call > stack:
                call = stack
            if level == 0:
                if self._answerable(actor):
                    low = min(self.big_blind, all_in)
                    view = (("bet", "check", "fold"), 0, low, max(low, all_in))
                else:
                    view = (("check", "fold"), 0, None, None)
            elif (
                stack > call
                and self._answerable(actor)
                and (not self.acted[actor] or level - self.acted_at[actor] >= self.last_raise)
            ):
                low = min(level + max(self.last_raise, self.big_blind), all_in)
                view = (("call", "fold", "raise") if call else ("check", "fold", "raise"), call, low, max(low, all_in))
            else:
                view = (("call", "fold") if call else ("check", "fold"), call, None, None)
        self._view = view
        return view

    def legal_actions(self) -> tuple[str, ...]:
        return (self._view or self._compute())[0]

    @property
    def call_amount(self) -> int:
        return (self._view or self._compute())[1]

    @property
    def min_to(self) -> int | None:
        return (self._view or self._compute())[2]

    @property
    def max_to(self) -> int | None:
        return (self._view or self._compute())[3]

    @property
    def hand_over(self) -> bool:
        return self.phase >= RUNOUT  # an all-in runout is the hand's end: no more betting

    # ---- actions ------------------------------------------------------------------------

    def act(self, seat: int, action: str, to: int | None = None) -> None:
        actor = self.actor
        if seat != actor or actor < 0:
            raise ValueError(f"seat {seat} is not to act")
        legal, call, low, high = self._view or self._compute()
        if action not in legal:
            raise ValueError(f"{action} is not legal now")
        stacks, put_in = self.stacks, self.put_in
        if action == "fold":
            self.folded[seat] = True
            self.players_in -= 1
            if stacks[seat] > 0:
                self.able -= 1
        elif action == "call":
            if call:
                stacks[seat] -= call
                put_in[seat] += call
                self.pot += call
                if not stacks[seat]:
                    self.able -= 1
        elif action == "bet" or action == "raise":
            if to is None or not low <= to <= high:  # type: ignore[operator]
                raise ValueError(f"{action} to {to} is out of bounds")
            level = self.level
            if to - level >= self.last_raise:
                self.last_raise = to - level
            added = to - put_in[seat]
            stacks[seat] -= added
            put_in[seat] = to
            self.pot += added
            self.level = to
            if not stacks[seat]:
                self.able -= 1
        self.acted[seat] = True
        self.acted_at[seat] = self.level
        self._view = None
        self.actor = self._next(seat)
        self._end_round()

    def _next(self, after: int) -> int:
        """The first seat after ``after`` still in, with chips, that has not acted or owes chips."""
        n, level = self.n, self.level
        stacks, folded, acted, put_in = self.stacks, self.folded, self.acted, self.put_in
        for step in range(1, n + 1):
            seat = (after + step) % n
            if stacks[seat] > 0 and not folded[seat] and (not acted[seat] or put_in[seat] < level):
                return seat
        return -1

    def _end_round(self) -> None:
        if self.phase != BETTING:
            return
        if self.players_in == 1:
            self._close()
            self.phase = OVER
            return
        # No more betting when at most one seat can bet and it owes nothing (counted only then).
        runout = self.able <= 1 and not any(
            not self.folded[seat] and self.stacks[seat] > 0 and self.put_in[seat] < self.level for seat in range(self.n)
        )
        if self.street == LAST and (self.actor < 0 or runout):
            self._close()
            self.phase = OVER
        elif runout:
            self._close()
            self.phase = RUNOUT
        elif self.actor < 0:
            self._close()
            self.phase = COMPLETE

    def _close(self) -> None:
        """The round is over: a bet nobody called goes back to its owner."""
        self.actor = -1
        self._view = None
        put_in = self.put_in
        top, highest, second = 0, -1, 0
        for seat, chips in enumerate(put_in):
            if chips > highest:
                top, highest, second = seat, chips, highest if highest > 0 else 0
            elif chips > second:
                second = chips
        uncalled = highest - second
        if uncalled > 0:
            self.stacks[top] += uncalled
            put_in[top] = second
            self.pot -= uncalled

    def deal(self, street: str) -> None:
        if self.phase not in (COMPLETE, RUNOUT) or self.street == LAST or street != STREETS[self.street + 1]:
            raise ValueError(f"cannot deal {street} now")
        self.street += 1
        self._view = None
        if self.phase == RUNOUT:
            return
        n = self.n
        self.put_in = [0] * n
        self.acted = [False] * n
        self.acted_at = [0] * n
        self.level = 0
        self.last_raise = self.big_blind
        self.phase = BETTING
        self.actor = self._next(self.button)
        self._end_round()


def check_floor(hands: list[Hand]) -> int:
    """Compare the floor with betspec before every action of ``hands`` (no-limit hands); raises
    AssertionError at the first difference. Returns the number of actions compared."""
    from benchmarks.bench import build

    compared = 0
    for index, hand in enumerate(hands):
        table = hand.table
        floor = FloorNoLimit(table.stacks, table.button, table.inputs["blinds"])
        engine = build(hand)
        for seat, action, to in hand.steps:
            mine = (floor.to_act, floor.legal_actions(), floor.call_amount, floor.min_to, floor.max_to)
            theirs = (engine.to_act, engine.legal_actions(), engine.call_amount, engine.min_to, engine.max_to)
            assert mine == theirs, (
                f"hand {index} ({table!r}), before {(seat, action, to)}: floor {mine}, betspec {theirs}"
            )
            if seat < 0:
                floor.deal(action)
                engine.deal(action)
                continue
            floor.act(seat, action, to)
            engine.act(seat, action, to)
            compared += 1
        assert floor.hand_over == engine.hand_over, f"hand {index}: the hand's end differs"
        assert floor.stacks == list(engine.stacks), f"hand {index}: stacks {floor.stacks} != {engine.stacks}"
    return compared
