"""Bounded exploration of a spec's engine: what ``validate --deep`` checks and ``betspec diff`` compares.

A spec that passes the name and type checks can still play nonsense: a decision where only fold
is legal, bounds the wrong way round, a deal accepted after the showdown, a hand that never ends.
:func:`deep_check` generates the spec's engine (in memory: the spec need not be generated yet),
plays it on small tables (2 to 4 seats, a few stack shapes, each option value and each table
input varied one at a time, then random draws until the time budget), and reports what it finds
against the spec entry concerned. :func:`differences` plays two engines (two specs, or one with
two option sets) breadth first on the same small tables and returns the shortest hands on which
they answer differently.

Nothing here names a structure or an input: tables and options come from the declarations.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from betspec.diagnostics import DiagnosticCode
from betspec.runtime import Engine, IllegalAction, InvalidTable, Start, Table
from betspec.runtime.table import Declared
from betspec.vocabulary import CARRIED_POT, CHOSEN_ACTIONS, DEAD_PHASES, WAGERS

#: How many actions a hand may take before it counts as one that does not end.
MAX_STEPS = 300


@dataclass(frozen=True)
class Finding:
    """Something an engine did that no betting rule allows, and the spec entry it points at."""

    pointer: str
    code: DiagnosticCode
    message: str


# ---- the spec's engine, generated in memory ----------------------------------------------------


def engine_module(spec: Any, root: str) -> ModuleType:
    """The Python back end's module for ``spec``, written to a private folder and imported (a
    module is what every engine is; the code is the generator's, never the spec's text)."""
    from betspec.backends.python import PythonBackend

    files = PythonBackend().render([spec], root)
    source = files[f"generated/{spec.name}.py"]
    digest = hashlib.sha256(source.encode()).hexdigest()[:16]
    name = f"_betspec_explored_{spec.name}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    # The module is imported from a file (the import system's way), which is removed once it is
    # loaded: nothing is left behind in the temporary folder.
    folder = tempfile.mkdtemp(prefix="betspec-explore-")
    try:
        path = os.path.join(folder, f"{name}.py")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(source)
        found = importlib.util.spec_from_file_location(name, path)
        assert found is not None and found.loader is not None
        module = importlib.util.module_from_spec(found)
        sys.modules[name] = module
        try:
            found.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return module


# ---- small tables from the declarations ------------------------------------------------------


def _scale(cls: type[Engine]) -> int:
    """The size of a bet at the spec's example table (the largest example chip count)."""
    values = [v for d in cls.INPUTS.values() if d.required and d.type == "int" for v in _ints(d.example)]
    return max([*values, 2])


def _ints(value: object) -> list[int]:
    if isinstance(value, list | tuple):
        return [v for v in value if type(v) is int]
    return [value] if type(value) is int else []


def _variants(declared: Declared, seats: int, scale: int) -> list[object]:
    """Values other than the default worth trying for one input or option."""
    kind, default = declared.type, declared.default
    if kind == "bool":
        return [not default] if isinstance(default, bool) else [True, False]
    if kind == "choice":
        return [c for c in declared.choices if c != default]
    if kind in ("seat", "seat?"):
        return [s for s in (seats - 1, 1) if s != default][:1]  # type: ignore[return-value]
    if kind == "seats":
        return [[seats - 1]]
    low = declared.minimum if declared.minimum is not None else 0
    high = declared.maximum
    if declared.items:
        example = _ints(declared.example) or [scale] * len(declared.items)
        return [[v * 2 for v in example]]
    values: list[object] = []
    for value in (max(low, 1), max(low, scale // 2), high):
        if value is not None and value != default and value not in values and (high is None or value <= high):
            values.append(value)
    if kind in ("int?",) and default is not None:
        values.append(None)
    if declared.per_seat:
        return [[values[0]] + [0] * (seats - 1)] if values else []
    return values[:2]


def configurations(cls: type[Engine], seats: Sequence[int] = (2, 3, 4)) -> Iterator[tuple[Table, dict[str, Any]]]:
    """Small tables and options: the spec's example table, then each input and each option away
    from its default one at a time, at each number of seats and stack shape."""
    scale = _scale(cls)
    deep = 100 * scale
    shapes: list[Callable[[int], list[int]]] = [
        lambda n: [deep] * n,
        lambda n: [scale // 2 + 1, *([deep] * (n - 2)), 7 * scale][:n],
        lambda n: [3 * scale // 2 + 1, *([deep] * (n - 1))],
        lambda n: [1, *([deep] * (n - 1))],
        lambda n: [3 * scale + 1, *([2 * scale] * (n - 1))],
    ]
    for n in seats:
        varied = [(name, value) for name, d in cls.INPUTS.items() for value in _variants(d, n, scale)]
        for shape in shapes:
            stacks = shape(n)
            yield cls.example_table(stacks, n - 1), {}
            for name, value in varied:
                table = cls.example_table(stacks, n - 1, **{name: value})
                if build(cls, table, {}) is None:
                    # Refused alone (a kill names its killer): with each other input varied too.
                    partner = next(
                        (
                            cls.example_table(stacks, n - 1, **{name: value, other: v})
                            for other, v in varied
                            if other != name
                            and build(cls, cls.example_table(stacks, n - 1, **{name: value, other: v}), {})
                        ),
                        None,
                    )
                    if partner is None:
                        continue
                    table = partner
                yield table, {}
            for name, declared in cls.OPTIONS.items():
                for value in _variants(declared, n, scale):
                    yield cls.example_table(stacks, n - 1), {name: value}


def tables(cls: type[Engine], seats: Sequence[int] = (2, 3, 4)) -> Iterator[Table]:
    """The small tables of :func:`configurations`, options left alone (for two engines' answers)."""
    for table, options in configurations(cls, seats):
        if not options:
            yield table


def build(cls: type[Engine], table: Table, options: Mapping[str, Any], start: Start | None = None) -> Engine | None:
    """An engine on this table and options, or None when the spec's checks refuse them."""
    try:
        return cls(table, start=start, **options)
    except InvalidTable:
        return None


# ---- one step of a hand: every move the explorations try -------------------------------------

#: ("act", (seat, action, to)), ("deal", (street, given)) or ("push", (seat, chips, say)).
Move = tuple[str, Any]


def moves(engine: Engine, rng: random.Random | None = None, procedures: bool = False) -> list[Move]:
    """What may be done now: each legal action (bets and raises at their bounds), or the deal;
    with ``procedures``, chips pushed too (a bet announced with its amount, a short call, chips
    between the call and the minimum raise, the whole stack) for the rulings on them."""
    seat = engine.to_act
    if seat is None:
        street = engine.next_street
        if street is None:
            return []
        dealt: list[Move] = [("deal", (street, _dealt(engine, rng)))]
        if procedures:  # each yes-or-no a deal can give, one at a time (an open pair)
            declared: Mapping[str, Declared] = engine.DEAL_INPUTS
            dealt += [("deal", (street, {name: True})) for name, item in declared.items() if item.type == "bool"]
        return dealt
    out: list[Move] = []
    for action in engine.legal_actions():
        if action in WAGERS:
            low, high = engine.min_to, engine.max_to
            for to in sorted({low, high} - {None}):  # type: ignore[type-var]
                out.append(("act", (seat, action, to)))
        else:
            out.append(("act", (seat, action, None)))
    if procedures:
        committed, stack, call = engine.committed[seat], engine.stacks[seat], engine.call_amount
        pushes: list[tuple[int, object]] = []
        if engine.min_to is not None:
            word = "bet" if engine.bet_level == 0 else "raise"
            pushes.append((engine.min_to - committed, {"act": word, "to": engine.min_to}))
            for between in (call + 1, call + (engine.min_to - committed - call) // 2):
                if call < between < engine.min_to - committed:
                    pushes.append((between, None))
        if call > 1:
            pushes += [(call * 3 // 4, None), (call * 3 // 4, "call")]  # short, said or not
        pushes.append((stack, None))
        for chips, say in pushes:
            if 0 < chips <= stack:  # two chips at least: one chip alone has its own ruling
                out.append(("push", (seat, [chips - 1, 1] if chips > 1 else [chips], say)))
    return out


def _dealt(engine: Engine, rng: random.Random | None) -> dict[str, Any]:
    """Deal inputs for the next street: drawn when exploring at random, the defaults otherwise."""
    declared: Mapping[str, Declared] = getattr(engine, "DEAL_INPUTS", {})
    if rng is None:
        return {}
    given: dict[str, Any] = {}
    for name, item in declared.items():
        if item.type in ("seat", "seat?"):
            given[name] = rng.choice([s for s in range(engine.seats) if not engine.folded[s]])
        elif item.type == "bool":
            given[name] = rng.random() < 0.3
    return given


def apply(engine: Engine, move: Move) -> None:
    kind, args = move
    if kind == "deal":
        street, given = args
        engine.deal(street, **given)
    elif kind == "push":
        seat, chips, say = args
        engine.push(seat, chips, say)
    else:
        seat, action, to = args
        engine.act(seat, action, to)


# ---- validate --deep ---------------------------------------------------------------------------


#: How many hands of one session exploration plays where a spec carries state from hand to hand.
SESSION_HANDS = 3


@dataclass
class _Findings:
    spec: Any
    found: dict[tuple[str, str], Finding] = field(default_factory=dict)
    #: The spec's own variables (hand, seat, session) seen with a value other than their default.
    changed: set[str] = field(default_factory=set)

    @property
    def sessions(self) -> bool:
        """Whether hands are played on into their next hands: the spec carries state across them."""
        spec = self.spec
        return any(item.session for item in spec.inputs.values()) or any(
            state.phase in DEAD_PHASES for state in spec.states.values()
        )

    def add(self, pointer: str, code: DiagnosticCode, message: str) -> None:
        self.found.setdefault((pointer, code), Finding(pointer, code, message))


def deep_check(spec: Any, root: str, seconds: float = 1.5, seed: int = 2026, at_least: float = 0.3) -> list[Finding]:
    """Play the spec's engine as the module docstring says; what it finds, one per entry and kind."""
    from betspec.conformance.recording import Coverage, recording_class_of
    from betspec.tools.draw import draw_engine

    module = engine_module(spec, root)
    coverage = Coverage(spec.name, tuple(module.TRANSITIONS))
    cls = recording_class_of(module, coverage)
    findings = _Findings(spec)
    rng = random.Random(f"{seed}-{spec.name}")
    started = time.perf_counter()
    deadline = started + seconds
    for table, options in configurations(cls):
        engine = build(cls, table, options)
        if engine is not None:
            _walk(engine, rng, findings)
        if time.perf_counter() > deadline:
            break
    # Random tables and options until every transition is taken (and for a while at least).
    while time.perf_counter() < deadline and (coverage.missing() or time.perf_counter() < started + at_least):
        try:
            engine = draw_engine(cls, rng)
        except InvalidTable:
            break
        _walk(engine, rng, findings)
    declared = [name for name, v in spec.variables.items() if v.declared]
    declared += [name for name, item in spec.inputs.items() if item.session]
    for name in declared:
        if name not in findings.changed:
            where = "session explored" if name in spec.inputs else "hand explored"
            findings.add(
                f"/variables/{name}",
                DiagnosticCode.UNUSED,
                f"{name!r} kept its default in every {where}: what writes it never runs, or never changes it",
            )
    for index in coverage.missing():
        transition = spec.transitions[index]
        findings.add(
            transition.origin or "/transitions",
            DiagnosticCode.NEVER_TAKEN,
            f"no hand explored took {coverage.describe(index)}: "
            f"check its guard and what leads to {transition.source!r}",
        )
    reached = {spec.initial} | {spec.transitions[i].dest for i, count in coverage.fired.items() if count}
    for name in spec.states:
        if name not in reached:
            findings.add(f"/states/{name}", DiagnosticCode.NEVER_REACHED, f"no hand explored reached state {name!r}")
    return sorted(findings.found.values(), key=lambda f: (f.pointer, f.code))


def _walk(engine: Engine, rng: random.Random, findings: _Findings, hands: int = SESSION_HANDS) -> None:
    """One hand at random from ``engine``, every step checked; where the spec carries state from
    hand to hand, paid and played on into the next hands (``hands`` in all)."""
    chips = engine.total_chips()
    for _ in range(MAX_STEPS):
        _variables_seen(engine, findings)
        if engine.total_chips() != chips:
            findings.add(
                "/transitions",
                DiagnosticCode.CHIPS,
                f"chips were created or lost: {chips} became {engine.total_chips()}",
            )
            return
        if engine.hand_over:
            runout = engine.phase == "runout" and engine.next_street is not None
            if runout and rng.random() < 0.8:  # an all-in runout deals the rest
                apply(engine, ("deal", (engine.next_street, {})))
                continue
            _after_the_end(engine, findings)
            if findings.sessions and hands > 1:
                _next_hand(engine, rng, findings, hands - 1)
            return
        if engine.to_act is not None:
            _decision(engine, findings)
        options = moves(engine, rng)
        if not options:
            findings.add(
                "/transitions",
                DiagnosticCode.STUCK,
                f"nobody is to act and nothing can be dealt on {engine.street_name}",
            )
            return
        move = rng.choice(options)
        if engine.to_act is not None and rng.random() < 0.03:
            move = ("act", (engine.to_act, "timeout", None))  # the clock, which no seat chooses
        try:
            apply(engine, move)
        except IllegalAction as error:
            findings.add(
                _requirement_pointer(findings.spec, move, error),
                DiagnosticCode.OFFERED_REFUSED,
                f"{_shown(move)} was offered as legal and then refused: {error.code} ({error.rule})",
            )
            return
    findings.add("/transitions", DiagnosticCode.ENDLESS, f"a hand took more than {MAX_STEPS} actions without ending")


def _variables_seen(engine: Engine, findings: _Findings) -> None:
    """Note the spec's own variables that have left their defaults."""
    spec = findings.spec
    for name, value in engine.variables.items():
        if name in findings.changed:
            continue
        default = spec.variables[name].default
        if any(v != default for v in value) if isinstance(value, list) else value != default:
            findings.changed.add(name)


def _next_hand(engine: Engine, rng: random.Random, findings: _Findings, hands: int) -> None:
    """Pay the hand (a random showdown, ties now and then), check that the next table holds every
    chip (a dead hand's pot carried), note the session values set, and play the next hand."""
    spec = findings.spec
    chips = engine.total_chips()
    live = [seat for seat in range(engine.seats) if not engine.folded[seat]]
    rng.shuffle(live)
    ranking: list[int | list[int]] | None = list(live)
    if len(live) > 2 and rng.random() < 0.3:
        ranking = [[live[0], live[1]], *live[2:]]  # a split pot
    if engine.phase in DEAD_PHASES:
        ranking = None
    try:
        engine.settle(ranking)
        table = engine.next_table()
    except (IllegalAction, InvalidTable):
        return  # a session over (one seat with chips left), or a ranking this hand does not take
    carried = table.get(CARRIED_POT, 0)
    if sum(table.stacks) + (carried if type(carried) is int else 0) != chips:
        findings.add("/next_hand", DiagnosticCode.CHIPS, "the next table does not hold every chip of this hand")
        return
    for name, item in spec.inputs.items():
        if item.session and name in table.inputs and table.inputs[name] != item.default:
            findings.changed.add(name)
    following = build(type(engine), table, engine.options)
    if following is not None:
        _walk(following, rng, findings, hands)


def _decision(engine: Engine, findings: _Findings) -> None:
    spec = findings.spec
    legal = engine.legal_actions()
    if legal == ("fold",):
        want = "check" if engine.call_amount == 0 else "call"
        refusal = engine._refusal(want, engine.to_act, None)
        pointer = f"/events/{want}"
        if refusal is not None:
            pointer = _rule_pointer(spec, want, refusal.rule)
        findings.add(
            pointer,
            DiagnosticCode.ONLY_FOLD,
            f"seat {engine.to_act} may only fold on {engine.street_name} (after {list(engine.history)[-4:]}): "
            f"nothing lets it {want}",
        )
    low, high = engine.min_to, engine.max_to
    if low is not None and high is not None and low > high:
        name = "bet" if engine.bet_level == 0 else "raise"
        findings.add(
            f"/quantities/{name}_min_to",
            DiagnosticCode.BOUNDS,
            f"the smallest {name} ({low}) is above the largest ({high}) "
            f"for seat {engine.to_act} on {engine.street_name}",
        )


def _after_the_end(engine: Engine, findings: _Findings) -> None:
    """Nothing may be done once the hand is over: every action must be refused, and every deal but
    the next street of an all-in runout (which deals the rest with no betting)."""
    spec = findings.spec
    state = engine.state.value
    tries: list[Move] = [
        ("act", (seat, a, None))
        for seat in range(engine.seats)
        for a in (*CHOSEN_ACTIONS, *engine.OWN_ACTIONS)
        if a not in WAGERS
    ]
    runout = engine.phase == "runout"
    tries += [("deal", (street, {})) for street in engine.STREETS if not (runout and street == engine.next_street)]
    for move in tries:
        try:
            apply(engine, move)  # a refusal changes nothing; an acceptance ends the check
        except IllegalAction:
            continue
        event = move[1][1] if move[0] == "act" else "deal"
        taken = next((t for t in spec.transitions if t.source == state and t.event == event), None)
        findings.add(
            taken.origin if taken is not None else "/transitions",
            DiagnosticCode.AFTER_THE_END,
            f"{_shown(move)} was accepted once the hand was over ({state})",
        )
        return


def _rule_pointer(spec: Any, event: str, rule: str) -> str:
    for index, requirement in enumerate(spec.events[event].requires):
        if requirement.rule == rule:
            return f"/events/{event}/requires/{index}"
    return f"/events/{event}"


def _requirement_pointer(spec: Any, move: Move, error: IllegalAction) -> str:
    if move[0] == "act" and move[1][1] in spec.events:
        return _rule_pointer(spec, move[1][1], error.rule)
    return "/transitions"


def _shown(move: Move) -> str:
    kind, args = move
    if kind == "deal":
        return f"deal {args[0]}"
    if kind == "push":
        seat, chips, say = args
        return f"seat {seat} pushes {chips}" + (f" saying {say!r}" if say is not None else "")
    seat, action, to = args
    return f"seat {seat} {action}" + (f" to {to}" if to is not None else "")


def shown(move: Move) -> str:
    """A move as a line of text (``seat 1 raise to 40``, ``deal flop``)."""
    return _shown(move)


# ---- betspec diff --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Disagreement:
    """The shortest hand found on which two engines answer differently, and both answers."""

    table: Table
    moves: tuple[Move, ...]
    left: dict[str, Any]
    right: dict[str, Any]
    shared: dict[str, Any] = field(default_factory=dict)  # options both sides were built with


def answer(engine: Engine) -> dict[str, Any]:
    """What a case can expect of an engine now."""
    return {
        "to_act": engine.to_act,
        "legal": sorted(engine.legal_actions()),
        "call": engine.call_amount,
        "min_to": engine.min_to,
        "max_to": engine.max_to,
        "street": engine.street_name,
        "pot": engine.pot,
        "hand_over": engine.hand_over,
    }


def _outcome(engine: Engine, move: Move) -> dict[str, Any]:
    try:
        apply(engine, move)
    except IllegalAction as error:
        return {"error": error.code, "rule": error.rule}
    return answer(engine)


def _key(engine: Engine) -> tuple[Any, ...]:
    """The engine's state without its log: hands that reach it are explored once."""
    from betspec.conformance.runner import snapshot

    return tuple(
        (name, tuple(sorted(value.items())) if isinstance(value, dict) else value)
        for name, value in snapshot(engine)
        if name not in ("_log", "_table", "_start")
    )


def differences(
    left: Callable[[Table, Mapping[str, Any]], Engine | None],
    right: Callable[[Table, Mapping[str, Any]], Engine | None],
    setups: Iterator[tuple[Table, dict[str, Any]]],
    depth: int = 6,
    budget: int = 30000,
) -> Disagreement | None:
    """The shortest disagreement between two engines over ``setups`` (tables, and options both
    sides share): every setup is searched one move deeper at a time, so the first found is a
    shortest; None when there is none within ``depth`` moves and ``budget`` positions."""
    searches: list[tuple[Table, dict[str, Any], list[tuple[Move, ...]], set[tuple[Any, ...]]]] = []
    for table, shared in setups:
        a, b = left(table, shared), right(table, shared)
        if a is None or b is None:
            continue  # a table one side's checks refuse is not a hand both can play
        if answer(a) != answer(b):
            return Disagreement(table, (), answer(a), answer(b), shared)
        searches.append((table, shared, [()], set()))
    explored = 0
    for _ in range(depth):
        for table, shared, frontier, seen in searches:
            following: list[tuple[Move, ...]] = []
            for path in frontier:
                a = _replayed(left, table, shared, path)
                assert a is not None
                for move in moves(a, procedures=True):
                    explored += 1
                    a2, b2 = _replayed(left, table, shared, path), _replayed(right, table, shared, path)
                    assert a2 is not None and b2 is not None
                    out_a, out_b = _outcome(a2, move), _outcome(b2, move)
                    if out_a != out_b:
                        return Disagreement(table, (*path, move), out_a, out_b, shared)
                    if "error" in out_a or (a2.hand_over and a2.next_street is None):
                        continue
                    key = _key(a2)
                    if key not in seen:
                        seen.add(key)
                        following.append((*path, move))
                if explored > budget:
                    return None
            frontier[:] = following
    return None


def _replayed(
    make: Callable[[Table, Mapping[str, Any]], Engine | None],
    table: Table,
    shared: Mapping[str, Any],
    path: tuple[Move, ...],
) -> Engine | None:
    engine = make(table, shared)
    if engine is None:
        return None
    for move in path:
        apply(engine, move)
    return engine


def as_case(
    disagreement: Disagreement, side: str, structure: str, options: Mapping[str, Any], source: str
) -> dict[str, Any]:
    """One side of a disagreement as a conformance case: the moves, and that side's answer last."""
    steps: list[dict[str, Any]] = []
    for kind, args in disagreement.moves:
        if kind == "deal":
            step: dict[str, Any] = {"deal": args[0]}
            if args[1]:
                step["with"] = dict(args[1])
        elif kind == "push":
            seat, chips, say = args
            step = {"seat": seat, "chips": list(chips)}
            if say is not None:
                step["say"] = say
        else:
            seat, action, to = args
            step = {"seat": seat, "act": action}
            if to is not None:
                step["to"] = to
        steps.append(step)
    result = disagreement.left if side == "left" else disagreement.right
    expect = {k: v for k, v in result.items() if k not in ("error", "rule")}
    if steps:
        if "error" in result:
            steps[-1]["error"] = result["error"]
        else:
            steps[-1]["expect"] = expect
    else:
        steps = [{"expect": expect}]
    name = f"diff-{structure.replace('_', '-')}-{side}"
    return {
        "id": name,
        "source": source,
        "structure": structure,
        "options": {**disagreement.shared, **options},
        "table": disagreement.table.to_json(),
        "steps": steps,
    }
