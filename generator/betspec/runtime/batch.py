"""Many hands in one call, for simulators, solvers and training loops.

:func:`play_hands` plays hands of one engine class to their end: deals are made as rounds end,
and decisions come from a policy, given as data (:class:`Policy`: a weight per action and how
wagers are sized, drawn from :class:`Draws`, seeded from the caller's ``random.Random``) or as a
callback called only at decisions. Chips are checked for conservation after every hand;
``rank`` pays the pots. :func:`play_drawn` draws the tables too (:class:`TableDraw`, from
:class:`Draws`: the same tables in Python and in C).

A policy given as data is played in C where the spec's kernel is compiled
(``betspec.engines.kernels.<spec>``, :func:`kernel`; by ``betspec build``, or on first use): the
whole hand, from the blinds to its end, with the same rules and the same draws, so the hands are
the same hands whichever plays them; for :func:`play_drawn`, the loop over the tables and their
drawing too. A hand the kernel cannot take (a table the engine refuses,
a refusal) is played again through the Python engine from the same draws: its outcome, error
included, is the Python engine's.
"""

from __future__ import annotations

import importlib
import itertools
import random
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

from betspec.runtime.engine import Engine, engine_class
from betspec.runtime.errors import BetspecError, shown
from betspec.runtime.table import MAX_CHIPS, MAX_SEATS, Table
from betspec.vocabulary import POLICY_UNIT_OPTION, WAGERS

#: A decision: the action for the seat to act, and its "to" amount for a bet or raise.
Decision = tuple[str, "int | None"]
#: A policy as a callback: given the hand at a decision, what the seat to act does.
Decide = Callable[[Engine], Decision]
#: Who won a hand at showdown, best first (ties as lists), as :meth:`Engine.settle` takes it.
Rank = Callable[[Engine], "Sequence[int | Sequence[int]] | None"]


class Draw(Protocol):
    """What a policy draws from: ``random.Random`` is one, :class:`Draws` another."""

    def random(self) -> float: ...

    def randrange(self, n: int, /) -> int: ...


_MASK = (1 << 64) - 1


class Draws:
    """SplitMix64, the generator a batch draws its policy's decisions from: written here in
    Python and in the kernels' runtime in C (``betspec.runtime.kernel.Draws``), the same
    numbers from the same seed. ``random()`` is in [0, 1) with 53 bits; ``randrange(n)`` is
    the next number modulo ``n``."""

    __slots__ = ("seed",)

    def __init__(self, seed: int) -> None:
        #: The state: a Draws built from it draws what this one will.
        self.seed = seed & _MASK

    def _next(self) -> int:
        self.seed = z = (self.seed + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def random(self) -> float:
        return (self._next() >> 11) * (1.0 / 9007199254740992.0)

    def randrange(self, n: int, /) -> int:
        if n <= 0:
            raise ValueError("empty range for randrange")
        return self._next() % n

    def split(self) -> Draws:
        """Another generator, seeded from this one's next number (the kernels' Draws splits alike)."""
        return Draws(self._next())


def draws_from(rng: random.Random) -> Draws:
    """The draws of a batch seeded from ``rng`` (one 64-bit number taken from it)."""
    return Draws(rng.getrandbits(64))


def _weight(what: str, value: object, wanted: str = "a number from 0 up") -> float:
    """``value``, a policy's number: finite and not negative (a bool is no number here)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < float("inf"):
        raise BetspecError(f"{what} is {wanted}, not {shown(value)}")
    return float(value)


@dataclass(frozen=True)
class Policy:
    """A bot as data. At each decision it draws one legal action by ``weights`` (an action with no
    weight is never drawn; with ``fold_when_free`` off it never folds when a check is free), then
    sizes a bet or raise: all-in with chance ``all_in``, else the minimum plus a random part of
    ``1/room_share`` of the room above it, rounded down to the table's ``bet_unit`` if it has one.
    An action of the structure's own that ``weights`` does not name weighs ``own_weight``."""

    weights: Mapping[str, float]
    all_in: float = 0.08
    room_share: int = 4
    fold_when_free: bool = False
    own_weight: float = 1.0

    def __post_init__(self) -> None:
        # Refused here, before any hand: a share of zero divided by zero in the middle of a batch,
        # a text compared with a draw.
        if not isinstance(self.weights, Mapping):
            raise BetspecError(f"a policy's weights are a mapping of action to weight, not {shown(self.weights)}")
        for action, weight in self.weights.items():
            if not isinstance(action, str):
                raise BetspecError(f"a policy's weights are keyed by action names, not {shown(action)}")
            _weight(f"a policy's weight of {action!r}", weight)
        _weight("a policy's own_weight", self.own_weight)
        if _weight("a policy's all_in", self.all_in, "a chance from 0 to 1") > 1:
            raise BetspecError(f"a policy's all_in is a chance from 0 to 1, not {shown(self.all_in)}")
        if type(self.room_share) is not int or not 1 <= self.room_share <= MAX_CHIPS:
            raise BetspecError(f"a policy's room_share is a whole number from 1 up, not {shown(self.room_share)}")
        if not isinstance(self.fold_when_free, bool):
            raise BetspecError(f"a policy's fold_when_free is True or False, not {shown(self.fold_when_free)}")

    def weight(self, action: str, own: Sequence[str]) -> float:
        """The weight of ``action`` where ``own`` are the structure's own actions."""
        return self.weights.get(action, self.own_weight if action in own else 0)

    def decide(self, engine: Engine, rng: Draw) -> Decision:
        legal = engine.legal_actions()
        own = type(engine).OWN_ACTIONS
        weights = {a: self.weight(a, own) for a in legal}
        choices = [a for a in legal if weights[a] > 0]
        if not self.fold_when_free and "check" in legal:
            choices = [a for a in choices if a != "fold"]
        if not choices:
            raise BetspecError(f"the policy gives no weight to any legal action ({', '.join(legal)})")
        # random.choices, written out (the kernels draw the same): the first cumulative weight
        # above a uniform point of the total.
        cumulative, total = [], 0.0
        for name in choices:
            total += weights[name]
            cumulative.append(total)
        point = rng.random() * total
        action = choices[-1]
        for name, upto in zip(choices[:-1], cumulative, strict=False):
            if point < upto:
                action = name
                break
        to = None
        if action in WAGERS:
            low, high = engine.min_to, engine.max_to
            assert low is not None and high is not None
            room = max(1, (high - low) // self.room_share + 1)
            to = high if rng.random() < self.all_in else min(high, low + rng.randrange(room))
            unit = engine.options.get(POLICY_UNIT_OPTION)
            unit = unit if type(unit) is int and unit > 0 else 1
            if to != high and to % unit:
                to = max(low, to - to % unit)
        return action, to


@dataclass(frozen=True)
class TableDraw:
    """How random tables are drawn (``simulate``'s): ``seats`` seats (both ends in), each with a
    stack of ``stacks`` (both ends in) times ``stack_unit`` chips, the button at any seat, every
    other input the spec's example or default (``example_table``). Drawn by ``randrange`` alone,
    in this order (the seats, each stack, the button): from :class:`Draws` the kernels draw the
    same tables in C; from ``random.Random`` the tables ``randint`` would draw."""

    seats: tuple[int, int] = (2, 10)
    stacks: tuple[int, int] = (20, 400)
    stack_unit: int = 10

    def __post_init__(self) -> None:
        # Refused here, whole, before a draw: a kernel takes these as C integers.
        def pair(value: object, what: str, least: int, most: int) -> None:
            if not (
                isinstance(value, tuple)
                and len(value) == 2
                and all(type(n) is int and least <= n <= most for n in value)
                and value[0] <= value[1]
            ):
                raise BetspecError(
                    f"TableDraw's {what} must be a pair (low, high) of whole numbers, "
                    f"{least} <= low <= high <= {most}, not {value!r}"
                )

        pair(self.seats, "seats", 2, MAX_SEATS)
        if type(self.stack_unit) is not int or not 1 <= self.stack_unit <= MAX_CHIPS:
            raise BetspecError(
                f"TableDraw's stack_unit must be a whole number of chips, 1 to {MAX_CHIPS}, not {self.stack_unit!r}"
            )
        pair(self.stacks, "stacks", 1, MAX_CHIPS // self.stack_unit)  # the engine deals no seat without chips

    def draw(self, cls: type[Engine], rng: Draw) -> Table:
        low, high = self.seats
        seats = low + rng.randrange(high - low + 1)
        least, most = self.stacks
        stacks = [(least + rng.randrange(most - least + 1)) * self.stack_unit for _ in range(seats)]
        return cls.example_table(stacks, rng.randrange(seats))


@dataclass
class Played:
    """What a batch played: hands, betting actions, the chips checked, each hand's final stacks."""

    hands: int = 0
    actions: int = 0
    chips: int = 0
    stacks: list[tuple[int, ...]] = field(default_factory=list)
    raked: int = 0  # what the house took as the pots were paid (settled batches: rake and jackpot drop)


def play_out(engine: Engine, decide: Decide, on_step: Callable[[int, str, int | None], None] | None = None) -> int:
    """Play ``engine``'s hand to its end: deals as rounds end, ``decide`` at each decision, each
    action and deal shown to ``on_step`` (a deal as seat -1 and the street); returns the number
    of betting actions."""
    actions = 0
    while not engine.hand_over:
        seat = engine.to_act
        if seat is None:
            street = engine.next_street
            if street is None:
                break
            engine.deal(street)
            if on_step is not None:
                on_step(-1, street, None)
            continue
        action, to = decide(engine)
        engine.act(seat, action, to)
        actions += 1
        if on_step is not None:
            on_step(seat, action, to)
    return actions


def play_hands(
    cls: type[Engine],
    tables: Iterable[Table],
    policy: Policy | Decide,
    rng: random.Random | None = None,
    *,
    options: Mapping[str, object] | None = None,
    rank: Rank | None = None,
    keep_stacks: bool = False,
    on_step: Callable[[int, str, int | None], None] | None = None,
) -> Played:
    """Play a hand on each of ``tables`` (an iterable: it may be drawn as the hands go, from the
    same ``rng``) with ``policy``; returns the totals. ``rank`` pays each hand's pots (not
    called for a pot won uncontested); ``keep_stacks`` keeps each hand's final stacks;
    ``on_step`` sees every action and deal (a deal as seat -1 and the street). A policy given
    as data draws from :func:`draws_from` ``rng``.

    Where the spec's kernel is compiled, a policy given as data plays each hand in C (unless
    ``rank`` or ``on_step`` is given), and a callback is shown kernel hands (``fast_engine``'s,
    with the engine's API); the hands are the same hands either way."""
    rng = rng or random.Random(0)
    given = dict(options or {})
    decide: Callable[[Engine], Decision]
    if isinstance(policy, Policy):
        chosen = policy
        draws: Draw = draws_from(rng)

        def decide(engine: Engine) -> Decision:
            return chosen.decide(engine, draws)

    elif callable(policy):
        decide = policy
    else:
        raise BetspecError(f"a policy is a betspec.runtime.Policy or a callable, not {type(policy).__name__}")
    if not (isinstance(cls, type) and issubclass(cls, Engine)):
        raise BetspecError(f"hands are played by an engine class, not {cls!r}")
    module = kernel(cls)
    hands: type[Engine] = cls if module is None else module.KERNEL
    fast = None
    if module is not None and isinstance(policy, Policy) and rank is None and on_step is None:
        fast = _configured(module, cls, given, policy)
        if fast is not None:
            draws = _kernel_draws(draws.seed)  # type: ignore[attr-defined]
    played = Played()
    if fast is not None:
        # In C, a few hundred tables a call (drawn from ``tables`` as the hands go); a table the
        # kernel cannot take is played again through the Python engine, from the same draws.
        stacks = played.stacks if keep_stacks else None
        remaining = iter(tables)
        while chunk := list(itertools.islice(remaining, _TABLES_PER_CALL)):
            start = 0
            while start < len(chunk):
                done, actions, chips = fast.play_tables(chunk, start, draws, stacks)
                played.hands += done
                played.actions += actions
                played.chips += chips
                start += done
                if start < len(chunk):
                    _play_python(cls, chunk[start], given, decide, on_step, rank, keep_stacks, played)
                    start += 1
        return played
    for table in tables:
        _play_python(hands, table, given, decide, on_step, rank, keep_stacks, played)
    return played


def play_drawn(
    cls: type[Engine],
    hands: int,
    policy: Policy,
    seed: int,
    *,
    tables: TableDraw = TableDraw(),
    options: Mapping[str, object] | None = None,
    keep_stacks: bool = False,
    settle: bool = False,
) -> Played:
    """``hands`` hands, each on a table drawn by ``tables`` and played to its end by ``policy``
    (given as data); returns the totals. The tables are drawn from ``Draws(seed)``, the
    decisions from the generator it splits off first (:meth:`Draws.split`), so the hands depend
    on ``seed`` alone.

    Where the spec's kernel is compiled the tables are drawn and played in C, the whole batch in
    one call; a table the kernel cannot take is drawn again and played through the Python engine
    from the same draws, so the hands are the same hands whichever plays them. With ``settle``,
    each hand's pots are paid as well (the showdown's seats ranked in seat order: what the house
    takes depends on the pots, not on who wins them), through the Python engine, which pays the
    pots of the kernels' hands; ``Played.raked`` is what the spec's rake took."""
    if not isinstance(policy, Policy):
        raise BetspecError(f"play_drawn takes a betspec.runtime.Policy, not {type(policy).__name__}")
    if not (isinstance(cls, type) and issubclass(cls, Engine)):
        raise BetspecError(f"hands are played by an engine class, not {cls!r}")
    if type(hands) is not int or not 0 <= hands <= MAX_HANDS:
        raise BetspecError(f"play_drawn's hands must be a whole number from 0 to {MAX_HANDS:,}, not {shown(hands)}")
    if type(seed) is not int:
        raise BetspecError(f"play_drawn's seed must be a whole number, not {shown(seed)}")
    if not isinstance(tables, TableDraw):
        raise BetspecError(f"play_drawn's tables must be a betspec.runtime.TableDraw, not {type(tables).__name__}")
    if not isinstance(keep_stacks, bool):
        raise BetspecError(f"play_drawn's keep_stacks must be True or False, not {keep_stacks!r}")
    if not isinstance(settle, bool):
        raise BetspecError(f"play_drawn's settle must be True or False, not {settle!r}")
    given = dict(options or {})
    first = Draws(seed)
    split = first.split()
    table_draws: Draw = first
    draws: Draw = split

    def decide(engine: Engine) -> Decision:
        return policy.decide(engine, draws)

    played = Played()
    module = kernel(cls)
    fast = None if module is None else _configured(module, cls, given, policy)
    if fast is None or settle:
        rank = _in_seat_order if settle else None
        for _ in range(hands):
            _play_python(cls, tables.draw(cls, table_draws), given, decide, None, rank, keep_stacks, played)
        return played
    table_draws, draws = _kernel_draws(first.seed), _kernel_draws(split.seed)
    shape = (*tables.seats, *tables.stacks, tables.stack_unit)
    stacks = played.stacks if keep_stacks else None
    while played.hands < hands:
        done, actions, chips = fast.play_drawn(
            hands - played.hands, shape, table_draws, draws, cls.example_table, stacks
        )
        played.hands += done
        played.actions += actions
        played.chips += chips
        if played.hands < hands:
            # A table the kernel did not take: the draws stand before it.
            _play_python(cls, tables.draw(cls, table_draws), given, decide, None, None, keep_stacks, played)
    return played


def _in_seat_order(engine: Engine) -> list[int]:
    """A showdown's ranking that names every seat still in, in seat order."""
    return [seat for seat in range(engine.seats) if not engine.folded[seat]]


#: Tables a batch hands the kernel at once (play_hands).
_TABLES_PER_CALL = 256


def _play_python(
    cls: type[Engine],
    table: Table,
    given: dict[str, object],
    decide: Callable[[Engine], Decision],
    on_step: Callable[[int, str, int | None], None] | None,
    rank: Rank | None,
    keep_stacks: bool,
    played: Played,
) -> None:
    """One hand of a batch played through ``cls`` (a kernel class's hands are the kernel's)."""
    engine = cls(table, **given)  # type: ignore[arg-type]  # options checked by it
    chips = engine.total_chips()
    played.actions += play_out(engine, decide, on_step)
    if rank is not None:
        contested = sum(not folded for folded in engine.folded) > 1
        engine.settle(rank(engine) if contested else None)
        played.raked += engine.rake + engine.jackpot_drop
    if engine.total_chips() != chips:
        raise BetspecError(f"chips not conserved in hand {played.hands + 1} of the batch")
    played.hands += 1
    played.chips += chips
    if keep_stacks:
        played.stacks.append(tuple(engine.stacks))


#: The most hands one call plays: a thousand million million (over thirty years at a million
#: hands a second), so that every count fits the machine's integers.
MAX_HANDS = 10**15


#: A step of a logged hand: (seat, action, to), the action a name or a tuple of names (the
#: first of them legal then, else the last: ("check", "call") for a log's check-or-call), and a
#: deal (-1, street, None), or (-1, street, {inputs}) for a deal given inputs.
LoggedStep = tuple[int, "str | tuple[str, ...]", Any]


@dataclass(frozen=True)
class Refused:
    """How the engine refuses a logged hand: at its step ``step`` (the index in its steps; -1
    for the table), with ``error`` (an :class:`IllegalAction` with its code, an ``InvalidTable``)."""

    step: int
    error: BetspecError


def replay_hands(
    cls: type[Engine], hands: Iterable[tuple[Table, Sequence[LoggedStep]]], options: Mapping[str, object] | None = None
) -> list[Refused | None]:
    """Check logged hands in one call: each (table, steps) answered as ``cls`` answers it, None
    where it takes every step, else :class:`Refused` (the first step refused and the engine's
    error, code and message included).

    Where the spec's kernel is compiled the hands are replayed in C, one after another; the Python
    engine replays a hand only where the kernel does not take it to its end (a refusal, worded by
    the engine; a step the kernel does not take, as a deal given inputs), from its start.

    Wrong arguments (a class that is not an engine's, hands that are not (table, steps) pairs,
    options that are not named) raise :class:`BetspecError` before any hand is replayed."""
    if not (isinstance(cls, type) and issubclass(cls, Engine)):
        raise BetspecError(f"hands are replayed by an engine class, not {shown(cls)}")
    if options is not None and not (isinstance(options, Mapping) and all(type(k) is str for k in options)):
        raise BetspecError(f"options are a mapping of option names to values, not {shown(options)}")
    given = dict(options or {})
    if isinstance(hands, list):
        logged = hands
    elif isinstance(hands, Iterable) and not isinstance(hands, str | bytes | Mapping):
        logged = list(hands)
    else:
        raise BetspecError(f"logged hands are a list of (table, steps), not {shown(hands)}")
    for index, hand in enumerate(logged):
        if not isinstance(hand, tuple | list) or len(hand) != 2:
            raise BetspecError(f"logged hand {index} is (table, steps), not {shown(hand)}")
        if not isinstance(hand[0], Table):
            raise BetspecError(f"logged hand {index}'s table is a betspec.runtime.Table, not {shown(hand[0])}")
        if not isinstance(hand[1], list | tuple):
            raise BetspecError(f"logged hand {index}'s steps are a list of (seat, action, to), not {shown(hand[1])}")
    module = kernel(cls)
    if module is not None:
        runtime = importlib.import_module("betspec.runtime.kernel")
        try:
            answers = runtime.replay_hands(module.KERNEL, cls, given, logged)
        except runtime.ChangedWhilePacked:
            answers = [0] * len(logged)  # every hand through the Python engine, from its start
        if max(answers, default=-1) < 0:  # every hand taken to its end in C
            return [None] * len(logged)
    else:
        answers = [0] * len(logged)
    return [
        None if taken < 0 else _replay_logged(cls, table, steps, given)
        for (table, steps), taken in zip(logged, answers, strict=True)
    ]


def _replay_logged(
    cls: type[Engine], table: Table, steps: Sequence[LoggedStep], options: dict[str, object]
) -> Refused | None:
    """One logged hand through the Python engine: None, or the first step it refuses and why."""
    from betspec.runtime.errors import IllegalAction, InvalidTable

    try:
        engine = cls(table, **options)  # type: ignore[arg-type]  # options checked by it
    except InvalidTable as error:
        return Refused(-1, error)
    for index, step in enumerate(steps):
        if not isinstance(step, tuple) or len(step) != 3:
            raise BetspecError(f"a logged step is (seat, action, to), not {shown(step)} (step {index})")
        seat, action, to = step
        try:
            if type(seat) is int and seat < 0:
                if to is not None and not isinstance(to, dict):
                    raise BetspecError(
                        f"a logged deal is (-1, street, None or its inputs), not {shown(step)} (step {index})"
                    )
                named = to or {}
                if any(type(name) is not str for name in named):
                    # No deal input has a name that is not a text: refused as the engine refuses an
                    # input it does not take.
                    why = "a deal's inputs are named by texts"
                    rule = engine.PROCEDURE_RULES["illegal_deal"]
                    return Refused(index, engine._reject("illegal_action", rule, None, "deal", action, why))
                engine.deal(action, **named)  # type: ignore[arg-type]
            elif isinstance(action, tuple) and action:
                legal = engine.legal_actions()
                engine.act(seat, next((name for name in action if name in legal), action[-1]), to)
            else:
                engine.act(seat, action, to)  # type: ignore[arg-type]
        except IllegalAction as error:
            return Refused(index, error)
    return None


def fast_engine(structure: str) -> type[Engine]:
    """The engine to play ``structure``'s hands action by action at C speed: its kernel's class
    where it is compiled (``betspec build``, or on first use), the default engine otherwise
    (``has_kernel`` says which).

    A kernel hand has the engine's API: who acts, what is legal and the bounds, the actions and
    the deals are answered in C; anything else (a refusal and its error, chips pushed, words
    said, a snapshot, the pots paid, a hand from a later street) by the Python engine, the hand
    replayed through it, and a hand it has changed stays with it."""
    found = _FAST.get(structure)
    if found is None:
        cls = engine_class(structure)
        module = kernel(cls)
        found = _FAST[structure] = cls if module is None else module.KERNEL
    return found


#: The classes fast_engine found, by structure (a tool asks for one per hand it builds).
_FAST: dict[str, type[Engine]] = {}


def has_kernel(structure: str) -> bool:
    """Whether ``structure``'s kernel is compiled and loaded here (``fast_engine`` plays it, and
    ``play_hands`` plays a policy given as data through it)."""
    return kernel(engine_class(structure)) is not None


def kernel(cls: type[Engine]) -> ModuleType | None:
    """The compiled kernel of ``cls``'s spec, or None: not compiled here (no C compiler, no build
    of its source yet, ``BETSPEC_PURE=1``), or ``cls`` not the engine class its generated module
    exports. A kernel not built yet is compiled when first imported where it may be (at a
    terminal, or with ``BETSPEC_COMPILE=1``: :mod:`betspec.compiled`, which says so)."""
    module_name = getattr(cls, "__module__", "")
    package, _, leaf = module_name.rpartition(".")
    try:
        found = importlib.import_module(f"{package}.kernels.{leaf}") if package else None
    except ImportError:
        return None
    engines = sys.modules.get(module_name)
    if found is None or engines is None or getattr(found, "SPEC_HASH", None) != getattr(cls, "SPEC_HASH", ""):
        return None
    return found if getattr(engines, str(found.ENGINE), None) is cls else None


def _kernel_draws(seed: int) -> Draw:
    """:class:`Draws` in C, from the kernels' runtime: the same numbers, read by a kernel without
    leaving C."""
    made: Draw = importlib.import_module("betspec.runtime.kernel").Draws(seed)
    return made


def _configured(module: ModuleType, cls: type[Engine], options: Mapping[str, object], policy: Policy) -> Any:
    """A batch of ``module``'s kernel playing ``policy``, or None where the policy's data are not
    plain numbers (the Python engine then plays, and says what is wrong)."""
    runtime = importlib.import_module("betspec.runtime.kernel")
    try:
        weights = [float(policy.weight(name, cls.OWN_ACTIONS)) for name in module.ACTIONS]
        data = runtime.Policy(weights, bool(policy.fold_when_free), float(policy.all_in), int(policy.room_share))
        # A kernel with no hand yet (its class refuses to be built without a table): each
        # play_hand starts one on its table.
        return runtime.Batch(module.KERNEL.__new__(module.KERNEL), cls, dict(options), data)
    except (TypeError, ValueError, OverflowError, AttributeError, runtime.KernelRefusal):
        return None
