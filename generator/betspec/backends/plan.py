"""The engine plan: what an engine of a spec computes, lowered from the checked model, printed by no one.

Both engine back ends (the Python engines, :mod:`betspec.backends.python`, and the kernels,
:mod:`betspec.backends.cython`) print this plan; neither reads the other. The plan holds trees,
never text:

- **scopes**: the symbol table of every scope generated code reads names in (:func:`scope`: the
  engine as ``m`` or ``self``, about the seat to act or a seat named in a loop), each name read
  through the target's accessors (the Python engine's, the kernel's);
- **locals**: the quantities a function reads more than once, computed once (:func:`hoisted`),
  and only those its code reads (:func:`kept`);
- **callbacks**: each distinct guard and effect once, as trees and statements
  (:class:`Callbacks`), named after what it does (:func:`callbacks`);
- **steps**: each event's transitions grouped by source state (:func:`steps_by_source`, sources
  doing the same together: :func:`alike`), the automatic transitions in the spec's order
  (:func:`automatic_steps`);
- **the view**: legality of each chosen action, the call and the bounds (:func:`view_plan`);
- **forced bets**: each with its kind, order and flags as fields (:func:`forced_bets`);
- **quantities read**: the quantity functions a set of trees calls (:func:`quantities_called`);
- **methods as plan nodes** (:mod:`betspec.backends.ir`): the roles, the table's checks, the
  forced bets, the refusal, ``_next_hand``, the variables' defaults, the transitions written out
  (:func:`event_moves`, :func:`settle_moves`) and each input's check (:func:`input_check`); those
  alike in every target are built once a spec as an :class:`EnginePlan` (:func:`engine_plan`).
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from betspec import vocabulary
from betspec.backends import ir
from betspec.backends.pyexpr import ACCESSORS, MODEL, Symbol, fold, python, size
from betspec.model import Assignment, Call, Effect, Expr, Input, Rake, Spec, Transition, Type, Variable

#: The value type expressions read an input of each type as.
INPUT_VALUE_TYPES = {"seat": "int", "seat?": "int?"}

#: A quantity whose tree has at most this many nodes is written in place instead of called:
#: expressions are pure, so this changes speed, never meaning.
INLINE_NODES = 24

#: The per-seat quantities the runtime computes for every seat whenever its chips move, and the
#: list it keeps them in (Engine._live is playable: a seat with none is all-in).
CACHED_SEAT_QUANTITIES = {"playable": "_live"}

#: The local a function that reads the seat to act often holds it in (``seat=ACTOR`` in scope).
ACTOR = "actor"

#: A local of generated code holding a quantity computed once: (its name, its tree).
Local = tuple[str, ast.expr]


def declared_accessor(variable: Variable) -> str:
    """How generated code reads and writes a variable of the spec's own (``{m}`` the engine,
    ``{seat}`` the seat it is about): a field of the engine, a list by seat for a seat's."""
    field = f"{{m}}._v_{variable.name}"
    return f"{field}[{{seat}}]" if variable.scope == "seat" else field


def store_target(spec: Spec, variable: str) -> str:
    """The accessor template an assignment to ``variable`` writes through, in any target."""
    found = spec.variables[variable]
    return declared_accessor(found) if found.declared else ACCESSORS[variable]


def _type(name: str) -> Type:
    """The value type of a declared type (the spec's names are the Type's values)."""
    return Type(name)


#: How many specs' plans, and how many scopes (a dozen or so a spec), are kept: a long fuzzing
#: run builds many.
_KEPT = 256
_SCOPES_KEPT = 4096
#: The scopes built, by spec (name and hash) and the scope's own terms: every printer asks for
#: the same few scopes many times, each about 15 ms to build. Bounded, as the plans are.
_SCOPES: dict[tuple[object, ...], dict[str, Symbol]] = {}


def scope(
    spec: Spec,
    model: str,
    accessors: Mapping[str, str],
    seat: str | None = None,
    given: str | None = None,
) -> dict[str, Symbol]:
    """The symbols of a scope (:func:`_scope`), a copy of its own for the caller to change; the
    symbols themselves are shared, and no caller changes one (substitution copies trees)."""
    key = (spec.name, spec.hash, model, tuple(accessors.items()), seat, given)
    found = _SCOPES.get(key)
    if found is None:
        if len(_SCOPES) >= _SCOPES_KEPT:
            _SCOPES.clear()
        found = _SCOPES[key] = _scope(spec, model, accessors, seat, given)
    return dict(found)


def _scope(
    spec: Spec,
    model: str,
    accessors: Mapping[str, str],
    seat: str | None = None,
    given: str | None = None,
) -> dict[str, Symbol]:
    """The symbols of a scope: how generated code reads every name an expression may use.

    ``model``: how the scope names the engine (``m``, ``self``); ``accessors``: the target's
    template for each variable of the vocabulary (``{m}`` the engine, ``{seat}`` the seat it is
    about); ``seat``: the local naming the seat variables are about (the seat to act otherwise);
    ``given``: the local holding the options, table inputs and deal inputs (the engine itself
    unless named)."""
    symbols: dict[str, Symbol] = {}
    holder = given or model
    about = seat or f"{model}._actor"
    for name, variable in spec.variables.items():
        template = declared_accessor(variable) if variable.declared else accessors[name]
        symbols[name] = Symbol.read(_type(variable.type), template.format(m=model, seat=about), "variable")
    for name in vocabulary.SETTLEMENT_NAMES:
        symbols[name] = Symbol.read(
            _type(vocabulary.SETTLEMENT_NAMES[name]), f"{model}._settled_{name}()", "settlement"
        )
    for name, option in spec.options.items():
        positive = option.minimum is not None and option.minimum >= 1
        symbols[name] = Symbol.read(_type(option.type), f"{holder}._opt_{name}", "option", positive=positive)
    for item in spec.inputs.values():
        value_type = _type(INPUT_VALUE_TYPES.get(item.type, item.type))
        positive = item.minimum is not None and item.minimum >= 1
        for name in item.names:
            accessor = f"{holder}._in_{name}"
            if item.per_seat:
                accessor += f"[{about}]"
            symbols[name] = Symbol.read(value_type, accessor, "input", positive=positive)
    for name in spec.roles:
        symbols[name] = Symbol.read(Type.INT, f"{model}._role_{name}", "role")
    for item in spec.deal_inputs.values():
        value_type = _type(INPUT_VALUE_TYPES.get(item.type, item.type))
        symbols[item.name] = Symbol.read(value_type, f"{holder}._dl_{item.name}", "deal input")
    for value in spec.street_values.values():
        # A tuple of the street's values, one per street, indexed by the street being played.
        symbols[value.name] = Symbol.read(
            _type(value.type), f"SV_{value.name.upper()}[{model}._street]", "street value"
        )
    symbols[MODEL] = Symbol.read(Type.INT, model, "model")
    symbols["to"] = Symbol.read(Type.INT, "to", "parameter")
    for name, kind in vocabulary.PUSH_PARAMETERS.items():
        symbols[name] = Symbol.read(_type(kind), name, "parameter")
    for name, quantity in spec.quantities.items():  # in dependency order
        if name in CACHED_SEAT_QUANTITIES and seat in (None, ACTOR):
            # The runtime keeps this one per seat, up to date with every chip moved: read it.
            cached = f"{model}.{CACHED_SEAT_QUANTITIES[name]}[{about}]"
            symbols[name] = Symbol.read(_type(quantity.type), cached, "quantity", inlined=False)
            continue
        formula = python(quantity.expr.tree, symbols)
        if size(formula) <= INLINE_NODES:
            symbols[name] = Symbol(_type(quantity.type), formula, "quantity")
            continue
        function = quantity_function(name)
        if quantity.per_seat:
            call = f"{function}({model}, {about})"
        else:
            call = f"{function}({model}, to)" if quantity.needs_to else f"{function}({model})"
        symbols[name] = Symbol.read(_type(quantity.type), call, "quantity", inlined=False)
    return symbols


def hoisted(
    trees: Iterable[ast.expr], spec: Spec, symbols: Mapping[str, Symbol], with_to: bool = False
) -> tuple[list[Local], dict[str, Symbol]]:
    """Locals for the quantities these expressions read more than once, and symbols using them.

    ``with_to``: the amount ``to`` is in scope, so quantities reading it may be hoisted too.
    """
    counts: dict[str, int] = {}

    def count(tree: ast.expr) -> None:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Name) or node.id not in spec.quantities:
                continue
            if with_to or not spec.quantities[node.id].needs_to:
                counts[node.id] = counts.get(node.id, 0) + 1
            if symbols[node.id].inlined:  # written in place: what it reads is read here too
                count(spec.quantities[node.id].expr.tree)

    for tree in trees:
        count(tree)
    locals_: list[Local] = []
    local = dict(symbols)
    needed = set(counts)
    for name in reversed(spec.quantities):  # what the quantities read need too
        if name in needed:
            needed |= spec.quantities[name].expr.names & set(spec.quantities)
    for name, quantity in spec.quantities.items():  # dependency order: locals may use earlier ones
        if name not in needed or (quantity.needs_to and not with_to):
            continue
        if name in CACHED_SEAT_QUANTITIES and not local[name].inlined:
            continue  # the runtime's own copy, read in place: as cheap as a local
        formula = python(quantity.expr.tree, local)
        if isinstance(formula, ast.Constant):
            # Decided by the structure (a hook left at its default): folded where it is read.
            local[name] = Symbol(local[name].type, formula, "quantity")
        elif counts.get(name, 0) > 1:
            locals_.append((f"{name}_", formula))
            local[name] = Symbol.read(local[name].type, f"{name}_", "quantity")
        elif local[name].inlined:
            local[name] = Symbol(local[name].type, formula, "quantity")  # written in place: use the locals
    return locals_, local


def kept(locals_: list[Local], used: Iterable[ast.expr]) -> list[Local]:
    """The locals something reads, directly or through another kept local, in their order."""
    wanted = {node.id for tree in used for node in ast.walk(tree) if isinstance(node, ast.Name)}
    found: list[Local] = []
    for name, tree in reversed(locals_):
        if name in wanted:
            found.insert(0, (name, tree))
            wanted |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    return found


# ---- effects as statements ----


@dataclass(frozen=True)
class Let:
    """``name = value``: a local (a quantity read more than once, or an assignment's new value)."""

    name: str
    value: ast.expr


@dataclass(frozen=True)
class Store:
    """A writable variable set from the local ``value`` (an assignment's second half), through
    ``target``, its accessor template (``{m}`` the engine, ``{seat}`` the seat to act)."""

    variable: str
    value: str
    target: str


@dataclass(frozen=True)
class Do:
    """A primitive of the vocabulary called with its arguments."""

    primitive: str
    args: tuple[ast.expr, ...]


Statement = Let | Store | Do


def _key(statement: Statement) -> tuple[str, ...]:
    if isinstance(statement, Let):
        return ("let", statement.name, ast.dump(statement.value))
    if isinstance(statement, Store):
        return ("store", statement.variable, statement.value)
    return ("do", statement.primitive, *(ast.dump(arg) for arg in statement.args))


def effect_statements(effects: Iterable[Effect], symbols: Mapping[str, Symbol], spec: Spec) -> list[Statement]:
    """Effects in order; each run of assignments between two primitives reads the state as it is
    there, all together (so that an effect reading what it assigns sees the state before)."""
    statements: list[Statement] = []
    group: list[Assignment] = []
    taken: set[str] = set()

    def flush() -> None:
        if not group:
            return
        trees = [a.expr.tree for a in group]
        local: Mapping[str, Symbol] = symbols
        if len(group) > 1:
            locals_, local = hoisted(trees, spec, symbols, with_to=True)
            used = [python(tree, local) for tree in trees]
            statements.extend(Let(name, tree) for name, tree in kept(locals_, used))
        temps = []
        for assignment in group:
            temp, number = f"new_{assignment.target}", 2
            while temp in taken:
                temp, number = f"new_{assignment.target}_{number}", number + 1
            taken.add(temp)
            temps.append(temp)
            statements.append(Let(temp, python(assignment.expr.tree, local)))
        statements.extend(
            Store(a.target, temp, store_target(spec, a.target)) for a, temp in zip(group, temps, strict=True)
        )
        group.clear()

    for effect in effects:
        if isinstance(effect, Assignment):
            group.append(effect)
            continue
        flush()
        assert isinstance(effect, Call)
        statements.append(Do(effect.primitive, tuple(python(a.tree, symbols) for a in effect.args)))
    flush()
    return statements


# ---- callbacks ----


@dataclass(frozen=True)
class GuardFunction:
    """A guard function: whether it takes ``to``, and the condition."""

    takes_to: bool
    test: ast.expr


@dataclass(frozen=True)
class EffectFunction:
    """An effect function: whether it takes ``to``, and its statements."""

    takes_to: bool
    body: tuple[Statement, ...]


@dataclass(frozen=True)
class Callbacks:
    """The guard and effect functions of a spec's transitions, each body once, named.

    ``guards`` and ``effects``: name -> body, in the order they are first used; ``of``: per
    transition index, its guard's and its effect's names (None where it has none); ``starts``:
    per start event with effects of its own, their statements (they run before its guards choose
    a state)."""

    guards: dict[str, GuardFunction]
    effects: dict[str, EffectFunction]
    of: dict[int, tuple[str | None, str | None]]
    starts: dict[str, tuple[Statement, ...]]


def _slug(text: str) -> str:
    return text.lower().replace("-", "_")


def _key_candidates(t: Transition) -> list[str]:
    """Names for a transition's guard or effect, each more precise: by its event and the rule it
    cites, then its destination, then its source. Derived from the spec, never counted."""
    rule = _slug(t.rule)
    base = t.event if rule == t.event else f"{t.event}_{rule}"
    return [base, f"{base}_to_{t.dest}", f"{base}_to_{t.dest}_from_{t.source}"]


def _named(bodies: Mapping[tuple[object, ...], Transition]) -> dict[tuple[object, ...], str]:
    """A name for each distinct body, from the first transition that has it: the least precise
    one no body before it took. A transition added later renames none of these."""
    names: dict[tuple[object, ...], str] = {}
    taken: set[str] = set()
    for body, first in bodies.items():
        candidates = _key_candidates(first)
        name = next((c for c in candidates if c not in taken), None)
        suffix = 2
        while name is None:  # the same event, rule, source and destination with another guard
            name = f"{candidates[-1]}_{suffix}" if f"{candidates[-1]}_{suffix}" not in taken else None
            suffix += 1
        taken.add(name)
        names[body] = name
    return names


def _does(body: Sequence[Statement]) -> str:
    """What an effect does, as a name: the primitives it calls and the variables it sets, in order
    (``set_raises_last_raise_commit_pass_action``)."""
    parts: list[str] = []
    setting: list[str] = []
    for statement in body:
        if isinstance(statement, Store):
            setting.append(statement.variable)
            continue
        if isinstance(statement, Do):
            if setting:
                parts.append("set_" + "_".join(setting))
                setting.clear()
            parts.append(statement.primitive)
    if setting:
        parts.append("set_" + "_".join(setting))
    return "_".join(parts) or "nothing"


def _effect_names(
    bodies: Mapping[tuple[object, ...], EffectFunction], users: Mapping[tuple[object, ...], list[Transition]]
) -> dict[tuple[object, ...], str]:
    """A name for each distinct effect, from what it does; effects doing the same primitives and
    settings with other values are told apart by the events, then the rules, of the transitions
    that take them. No effect is named after one transition when others share it."""
    names = {key: _does(body.body) for key, body in bodies.items()}

    def events(key: tuple[object, ...]) -> str:
        return "_or_".join(dict.fromkeys(t.event for t in users[key]))

    def rules(key: tuple[object, ...]) -> str:
        return "_or_".join(dict.fromkeys(_slug(t.rule) for t in users[key]))

    for refine in (events, rules):
        counts: dict[str, int] = {}
        for name in names.values():
            counts[name] = counts.get(name, 0) + 1
        names = {key: f"{name}_for_{refine(key)}" if counts[name] > 1 else name for key, name in names.items()}
    return names


def callbacks(spec: Spec, symbols: Mapping[str, Symbol]) -> Callbacks:
    """The functions behind ``spec``'s transitions, read through ``symbols``: ``when_X(m)`` (a
    guard, named after the event and rule of its transitions) and ``do_X(m)`` (an effect, named
    after what it does); identical bodies share one function."""
    guards: dict[tuple[object, ...], Transition] = {}
    effect_users: dict[tuple[object, ...], list[Transition]] = {}
    guard_of: dict[tuple[object, ...], GuardFunction] = {}
    effect_of: dict[tuple[object, ...], EffectFunction] = {}
    bodies: dict[int, tuple[tuple[object, ...] | None, tuple[object, ...] | None]] = {}
    # The transitions of one spec entry (one per source state) share their guard and effects.
    lowered: dict[tuple[str, int, int], tuple[GuardFunction | None, EffectFunction | None]] = {}
    for index, t in enumerate(spec.transitions):
        event = spec.events[t.event]
        takes_to = "to" in event.params
        entry = (t.event, id(t.guard), id(t.effects))
        if entry not in lowered:
            guard_body = GuardFunction(takes_to, python(t.guard.tree, symbols)) if t.guard is not None else None
            # A start event's own effects run before its guards choose the first state.
            shared = [] if event.kind == "start" else event.effects
            statements = tuple(effect_statements([*shared, *t.effects], symbols, spec))
            lowered[entry] = (guard_body, EffectFunction(takes_to, statements) if statements else None)
        guard, effect = lowered[entry]
        guard_key: tuple[object, ...] | None = None
        effect_key: tuple[object, ...] | None = None
        if guard is not None:
            guard_key = (guard.takes_to, ast.dump(guard.test))
            guards.setdefault(guard_key, t)
            guard_of.setdefault(guard_key, guard)
        if effect is not None:
            effect_key = (effect.takes_to, *(_key(s) for s in effect.body))
            effect_users.setdefault(effect_key, []).append(t)
            effect_of.setdefault(effect_key, effect)
        bodies[index] = (guard_key, effect_key)
    guard_names, effect_names = _named(guards), _effect_names(effect_of, effect_users)
    found = Callbacks({}, {}, {}, {})
    for event in spec.events.values():
        if event.kind == "start" and event.effects and any(t.event == event.name for t in spec.transitions):
            found.starts[event.name] = tuple(effect_statements(list(event.effects), symbols, spec))
    for index in range(len(spec.transitions)):
        guard_key, effect_key = bodies[index]
        guard_name = f"when_{guard_names[guard_key]}" if guard_key is not None else None
        effect_name = f"do_{effect_names[effect_key]}" if effect_key is not None else None
        if guard_key is not None and guard_name is not None:
            found.guards.setdefault(guard_name, guard_of[guard_key])
        if effect_key is not None and effect_name is not None:
            found.effects.setdefault(effect_name, effect_of[effect_key])
        found.of[index] = (guard_name, effect_name)
    return found


# ---- steps ----

#: One step of an event from a source state: the transition, and its effect function's name.
Step = tuple[Transition, str | None]


def fired_events(spec: Spec) -> list[ir.Event]:
    """The events some transition takes, in the spec's order."""
    return [e for e in engine_plan(spec).events if e.fired]


def plan_events(spec: Spec) -> tuple[ir.Event, ...]:
    """The spec's events as the plan holds them, in the spec's order."""
    fired = {t.event for t in spec.transitions}
    return tuple(
        ir.Event(
            e.name,
            e.kind,
            e.blinds,
            e.own,
            e.params,
            bool(e.effects),
            e.name in fired,
            next((t.rule for t in spec.transitions if t.event == e.name), ""),
            tuple(ir.Requirement(ir.SpecExpr(r.expr.tree), r.needs_to, r.error, r.rule, r.message) for r in e.requires),
        )
        for e in spec.events.values()
    )


def steps_by_source(spec: Spec, event: str, of: Mapping[int, tuple[str | None, str | None]]) -> dict[str, list[Step]]:
    """An event's transitions per source state, in the spec's order, each with its effect function."""
    found: dict[str, list[Step]] = {}
    for index, t in enumerate(spec.transitions):
        if t.event == event:
            found.setdefault(t.source, []).append((t, of[index][1]))
    return found


def automatic_steps(spec: Spec, of: Mapping[int, tuple[str | None, str | None]]) -> dict[str, list[Step]]:
    """The automatic events' transitions per source state: a state several automatic events leave
    tries them in the spec's order of events, as the machine fires them."""
    found: dict[str, list[Step]] = {}
    for event in (e for e in fired_events(spec) if e.kind == "automatic"):
        for state_name, steps in steps_by_source(spec, event.name, of).items():
            found.setdefault(state_name, []).extend(steps)
    return found


def _shape(steps: list[Step]) -> tuple[object, ...]:
    """What taking ``steps`` does, whatever their source: sources alike share one branch."""
    return tuple(
        (t.guard.text if t.guard is not None else None, effect, "=" if t.dest == t.source else t.dest)
        for t, effect in steps
    )


def alike(by_source: Mapping[str, list[Step]]) -> list[list[str]]:
    """The source states whose steps do the same, grouped, in the spec's order."""
    groups: dict[tuple[object, ...], list[str]] = {}
    for state, steps in by_source.items():
        groups.setdefault(_shape(steps), []).append(state)
    return list(groups.values())


def take_first(
    steps: list[Step], done: Literal["return", "continue"], with_to: bool = False, last: bool = False
) -> ir.TakeFirst:
    """Steps as the plan's moves: the first whose guard holds is taken."""
    moves = tuple(
        ir.Move(None if t.guard is None else ir.SpecExpr(t.guard.tree), effect, None if t.dest == t.source else t.dest)
        for t, effect in steps
    )
    return ir.TakeFirst(moves, done, with_to, last and done == "return")


def on_state(
    by_source: Mapping[str, list[Step]],
    done: Literal["return", "continue"],
    *,
    with_to: bool = False,
    local: bool = False,
    last: bool = False,
) -> ir.OnState:
    """Steps per source state as the plan's branches, one per group of sources alike."""
    return ir.OnState(
        tuple((tuple(sources), take_first(by_source[sources[0]], done, with_to, last)) for sources in alike(by_source)),
        local,
    )


def event_moves(
    spec: Spec, event: ir.Event, of: Mapping[int, tuple[str | None, str | None]], *, last: bool = False
) -> ir.OnState:
    """An event's transition from the hand's state, taken, then the method returns: its
    ``_take_<event>`` (``last``: the method ends there)."""
    return on_state(steps_by_source(spec, event.name, of), "return", with_to="to" in event.params, last=last)


def start_moves(spec: Spec, event: ir.Event, of: Mapping[int, tuple[str | None, str | None]]) -> ir.TakeFirst:
    """A start event's transition from the initial state, the state every hand begins in."""
    return take_first(steps_by_source(spec, event.name, of).get(spec.initial, []), "return", last=True)


def variable_defaults(spec: Spec) -> tuple[ir.ResetVariable, ...]:
    """The spec's own variables at their defaults, as a hand begins."""
    return tuple(
        ir.ResetVariable(v.name, v.default, v.type, v.scope == "seat", v.scope)
        for v in spec.variables.values()
        if v.declared
    )


def settle_moves(spec: Spec, of: Mapping[int, tuple[str | None, str | None]]) -> ir.OnState:
    """The automatic transitions from the state a settling loop read, the first that applies taken."""
    return on_state(automatic_steps(spec, of), "continue", local=True)


# ---- what the runtime asks of a hand ----


def next_hand_method(spec: Spec) -> ir.Method:
    """``_next_hand``: the next hand's button and the inputs it is given, read once the pots are paid."""
    assert spec.next_hand is not None  # the loader gives every spec one
    given = ir.Record(tuple((name, ir.SpecExpr(expr.tree)) for name, expr in spec.next_hand.inputs.items()))
    return ir.Method("_next_hand", (ir.Returns((ir.SpecExpr(spec.next_hand.button.tree), given)),))


def quantity_method(spec: Spec, name: str, quantity: str) -> ir.Method:
    """A method named ``name`` that returns a quantity of the spec about the hand."""
    return ir.Method(name, (ir.Returns((ir.SpecExpr(spec.quantities[quantity].expr.tree),)),))


def requirement_checks(
    event: ir.Event, requirements: Iterable[ir.Requirement], amount: ir.Local | ir.Const, *, returned: bool
) -> tuple[ir.Require, ...]:
    """An action's requirements as checks, each rejecting the attempt (the seat's ``event`` to
    ``amount``) unless it holds; the rejection returned (a refusal asked for) or raised."""
    return tuple(
        ir.Require(r.expr, ir.Reject(r.error, r.rule, r.message, event.name, amount, returned)) for r in requirements
    )


def refusal_method(actions: Iterable[ir.Event]) -> ir.Method:
    """``_refusal``: why an action is not possible now (no source state, or the first of its
    requirements not reading 'to' that fails), returned, or nothing."""
    to, nothing = ir.Local("to"), ir.Returns((ir.Const(None),))
    body: list[ir.Statement] = []
    for event in actions:
        now = ir.Reject("illegal_action", event.rule, "not possible now", event.name, to, True)
        checks = requirement_checks(event, [r for r in event.requires if not r.needs_to], to, returned=True)
        body.append(ir.If(ir.ActionIs(event.name), (ir.If(ir.NotFrom(event.name), (now,)), *checks, nothing)))
    return ir.Method("_refusal", (*body, nothing))


def push_ruling_method(spec: Spec) -> ir.Method:
    """``push_ruling``: the spec's rulings on chips pushed in its order, the first whose condition
    holds returned as (ruling, to, rule); none applies (an abstract spec) is a withdrawal."""
    body: list[ir.Statement] = []
    for entry in spec.push_rulings:
        to = ir.SpecExpr(entry.to.tree) if entry.to is not None else ir.Const(None)
        result = ir.Returns((ir.Const(entry.ruling), to, ir.Const(entry.rule)))
        if entry.when.is_constant and entry.when.constant is True:
            body.append(result)
            return ir.Method("push_ruling", tuple(body))
        body.append(ir.If(ir.Holds(ir.SpecExpr(entry.when.tree)), (result,)))
    body.append(ir.Returns((ir.Const("withdraw"), ir.Const(None), ir.Const(""))))
    return ir.Method("push_ruling", tuple(body))


# ---- the inputs ----

#: The runtime's check of one seat's value of a per-seat input, by the value's type.
_ELEMENT_CHECKS = {"int": "int_input", "int?": "optional_int_input", "bool": "bool_input"}


def input_check(item: Input) -> ir.InputCheck:
    """How a value given for ``item`` is checked. A type no engine checks is a LookupError naming
    it (the schema admits none)."""
    name, bounds = item.name, (item.minimum, item.maximum)
    optional = "optional_" if item.type.endswith("?") else ""
    if item.type == "seats":
        return ir.InputCheck("seats_input", name, seats=True)
    if item.items:
        return ir.InputCheck("items_input", name, items=len(item.items), bounds=bounds)
    if item.per_seat:
        element = _ELEMENT_CHECKS.get(item.type)
        if element is None:
            raise LookupError(f"a per-seat input of type {item.type!r}")
        each = ir.InputCheck(element, name, bounds=None if item.type == "bool" else bounds)
        return ir.InputCheck("per_seat_input", name, seats=True, element=each)
    if item.type in ("seat", "seat?"):
        return ir.InputCheck(f"{optional}seat_input", name, seats=True)
    if item.type == "choice":
        return ir.InputCheck("choice_input", name, choices=tuple(item.choices))
    if item.type == "bool":
        return ir.InputCheck("bool_input", name)
    if item.type in ("int", "int?"):
        return ir.InputCheck(f"{optional}int_input", name, bounds=bounds)
    raise LookupError(f"the input type {item.type!r}")


def given(item: Input) -> ir.Given:
    """An input of the spec as the engines declare, keep and check it."""
    check: ir.InputCheck | None = None
    unchecked = ""
    try:
        check = input_check(item)
    except LookupError as unknown:
        unchecked = str(unknown)
    return ir.Given(
        item.name,
        item.names,
        item.type,
        item.required,
        item.default,
        item.per_seat,
        item.minimum,
        item.maximum,
        item.choices,
        item.items,
        item.example,
        item.hand,
        check,
        unchecked,
    )


# ---- the view ----


@dataclass(frozen=True)
class ViewPlan:
    """What a view computes: the locals it shares (only those something reads), each chosen
    action's legality, the amount to call, and per wager its bounds (the highest may read the
    lowest as ``low``)."""

    locals: list[Local]
    legal: dict[str, ast.expr]
    call: ast.expr
    bounds: list[tuple[str, ast.expr, ast.expr]]


def chosen_actions(spec: Spec) -> list[ir.Event]:
    """The actions a player (or a policy) chooses among, sorted by name: one bit each in a legal set."""
    return sorted(
        (e for e in engine_plan(spec).events if e.kind == "action" and (e.own or e.name in vocabulary.CHOSEN_ACTIONS)),
        key=lambda e: e.name,
    )


def view_plan(
    spec: Spec,
    symbols: Mapping[str, Symbol],
    chosen: Sequence[ir.Event],
    legal: Callable[[ir.Event, Mapping[str, Symbol]], ast.expr],
) -> ViewPlan:
    """The view of ``chosen`` (sorted by name), read through ``symbols``; ``legal`` writes when
    one action is possible (its source states, as a back end tests them, and its requirements)."""
    by_name = {e.name: e for e in chosen}
    wagers = [(a, f"{a}_min_to", f"{a}_max_to") for a in vocabulary.WAGERS if a in by_name]
    trees = [r.expr.tree for e in chosen for r in e.requires if not r.needs_to]
    trees += [spec.quantities["call_amount"].expr.tree]
    trees += [spec.quantities[q].expr.tree for _, low, high in wagers for q in (low, high)]
    locals_, local = hoisted(trees, spec, symbols)
    legality = {e.name: legal(e, local) for e in chosen}
    call = local["call_amount"].tree
    used = [*legality.values(), call]
    bounds = []
    for action, low, high in wagers:
        branch = dict(local)
        lowest = python(spec.quantities[low].expr.tree, branch)
        branch[low] = Symbol.read(Type.INT, "low", "quantity")
        highest = python(spec.quantities[high].expr.tree, branch)
        used += [lowest, highest]
        bounds.append((action, lowest, highest))
    # Only the locals something reads (a quantity may have been needed only inside another).
    return ViewPlan(kept(locals_, used), legality, call, bounds)


def legal_when(sources: ast.expr, event: ir.Event, symbols: Mapping[str, Symbol]) -> ast.expr:
    """When ``event`` is possible now: ``sources`` (the state is one it leaves, as a back end
    tests it), and its requirements not reading 'to'."""
    checks = [python(r.expr.tree, symbols) for r in event.requires if not r.needs_to]
    return fold(ast.BoolOp(ast.And(), [sources, *checks]))


# ---- forced bets ----


def reads_seat(spec: Spec, tree: ast.expr) -> bool:
    """The expression reads something about a seat (a per-seat input, a seat variable)."""
    over_seats = {
        id(call.args[0])
        for call in ast.walk(tree)
        if isinstance(call, ast.Call) and getattr(call.func, "id", "") in vocabulary.AGGREGATES and len(call.args) == 1
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.Name) or id(node) in over_seats:
            continue
        item = next((i for i in spec.inputs.values() if node.id in i.names), None)
        if item is not None and item.per_seat:
            return True
        variable = vocabulary.VARIABLES.get(node.id)
        if variable is not None and variable.scope == "seat":
            return True
        quantity = spec.quantities.get(node.id)
        if quantity is not None and (quantity.per_seat or reads_seat(spec, quantity.expr.tree)):
            return True
    return False


def roles_method(spec: Spec) -> ir.Method:
    """``_compute_roles``: each role's seat, a seat the table does not have refused."""
    body: list[ir.Statement] = []
    for role in spec.roles.values():
        body.append(ir.SetRole(role.name, ir.SpecExpr(role.expr.tree)))
        if not always_a_seat(spec, role.expr.tree):
            seat = ir.RoleSeat(role.name)
            message = (f"the {role.name} is seat ", seat, ", which is not at this table")
            body.append(ir.If(ir.NotASeat(seat), (ir.RefuseTable(message, None, role.name),)))
    return ir.Method("_compute_roles", tuple(body))


def checks_method(spec: Spec) -> ir.Method:
    """``_check_table``: the spec's checks of a table, the first that fails refusing it."""
    body = tuple(
        ir.If(
            ir.Fails(ir.SpecExpr(check.expr.tree)),
            (ir.RefuseTable((f"{check.message} (rule {check.rule})",), check.rule, check.rule),),
        )
        for check in spec.checks
    )
    return ir.Method("_check_table", body)


def forced_bets_method(spec: Spec) -> ir.Method:
    """``_post_forced_bets``: each forced bet in posting order (each a block of its own), those
    the structure never posts (a condition the structure decides false: folded, whatever engine
    reads it) left out. A post of nothing does nothing, and the seat is not even computed for
    it; what does not depend on the seat is decided once before going round the table."""
    symbols = scope(spec, "self", ACCESSORS)
    body: list[ir.Statement] = []
    amount = ir.Local("amount")
    for bet in spec.forced_bets:
        when_per_seat = bet.when is not None and bet.seats is not None and reads_seat(spec, bet.when.tree)
        when = None
        if bet.when is not None:
            folded = python(bet.when.tree, symbols)
            if isinstance(folded, ast.Constant) and folded.value is False:
                continue  # never posted in this structure
            if not (isinstance(folded, ast.Constant) and folded.value is True):
                when = ir.SpecExpr(bet.when.tree, per_seat=when_per_seat)
        flags: dict[str, ir.Value] = {"what": ir.Const(bet.name.replace("_", " ")), "live": ir.Const(bet.live)}
        flags |= {"dead_money": ir.Const(bet.dead_money), "order": ir.Const(bet.order)}
        flags["in_full"] = ir.Const(bet.in_full)

        def post(seat: ir.Value, chips: ir.Value, flags: dict[str, ir.Value] = flags) -> ir.Call:
            return ir.Call("_post", tuple(({"seat": seat, "amount": chips} | flags).items()))

        steps: list[ir.Statement]
        if bet.seats is None:
            assert bet.seat is not None
            seat = ir.SpecExpr(bet.seat.tree)
            steps = [ir.Let(amount, ir.SpecExpr(bet.amount.tree)), ir.If(ir.NonZero(amount), (post(seat, amount),))]
        else:
            per_seat = reads_seat(spec, bet.amount.tree)
            each: ir.Statement = post(
                ir.Local("seat"), ir.SpecExpr(bet.amount.tree, per_seat=True) if per_seat else amount
            )
            if when is not None and when_per_seat:
                each = ir.If(ir.Holds(when), (each,))
            loop = ir.ForSeats((each,), None if bet.seats == "all" else bet.seats)
            if not per_seat:
                steps = [ir.Let(amount, ir.SpecExpr(bet.amount.tree)), ir.If(ir.Positive(amount), (loop,))]
            elif isinstance(bet.amount.tree, ast.Name):  # one per-seat input: nothing to post if all are 0
                steps = [ir.If(ir.AnyGiven(bet.amount.tree.id), (loop,))]
            else:
                steps = [loop]
        if when is not None and not when_per_seat:
            steps = [ir.If(ir.Holds(when), tuple(steps))]
        body.append(ir.Block(tuple(steps)))
    return ir.Method("_post_forced_bets", tuple(body))


def always_a_seat(spec: Spec, tree: ast.expr) -> bool:
    """Whether a role's expression is a seat whatever the table: ``x % seats``, the button, a seat
    input (checked when loaded), a role before it, or a choice between such."""
    if isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.Mod):
        return isinstance(tree.right, ast.Name) and tree.right.id == "seats"
    if isinstance(tree, ast.IfExp):
        return always_a_seat(spec, tree.body) and always_a_seat(spec, tree.orelse)
    if isinstance(tree, ast.Name):
        if tree.id == "button" or tree.id in spec.roles:
            return True
        item = next((i for i in spec.inputs.values() if tree.id in i.names), None)
        return item is not None and item.type in ("seat", "seat?") and not item.per_seat
    return False


# ---- what functions read ----


def expressions(spec: Spec) -> list[Expr]:
    """Every checked expression an engine computes: quantities, requirements, guards and effects."""
    found: list[Expr] = [q.expr for q in spec.quantities.values()]
    effects: list[Effect] = []
    for event in spec.events.values():
        found += [r.expr for r in event.requires]
        effects += event.effects
    for transition in spec.transitions:
        if transition.guard is not None:
            found.append(transition.guard)
        effects += transition.effects
    for effect in effects:
        found += [effect.expr] if isinstance(effect, Assignment) else list(effect.args)
    return found


def functions_called(trees: Iterable[ast.expr], among: Iterable[str]) -> list[str]:
    """The functions of ``among`` that printed trees (after :func:`scope`'s symbols) call, sorted."""
    names = {
        node.func.id
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    return sorted(names & set(among))


def quantity_function(name: str) -> str:
    """The function a quantity not written in place is (``q_<name>``)."""
    return f"q_{name}"


def quantities_called(spec: Spec, trees: Iterable[ast.expr], formulas: Mapping[str, ast.expr]) -> set[str]:
    """The quantities whose functions ``trees`` call, and those their ``formulas`` (each quantity's
    tree as its function computes it) call in turn."""
    functions = {quantity_function(name): name for name in spec.quantities}
    wanted: set[str] = set()

    def visit(tree: ast.expr) -> None:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions:
                name = functions[node.func.id]
                if name not in wanted:
                    wanted.add(name)
                    visit(formulas[name])

    for tree in trees:
        visit(tree)
    return wanted


# ---- the plan of an engine, built once ----


@dataclass(frozen=True)
class EnginePlan:
    """The methods every engine back end prints alike for one spec, built once from the checked
    model (:func:`engine_plan`) and walked by each back end's statement printer, and the data every
    printer reads instead of the model (a printer reads the spec for its names only)."""

    roles: ir.Method
    checks: ir.Method
    forced_bets: ir.Method
    refusal: ir.Method
    next_hand: ir.Method
    odd_chip_after: ir.Method
    variable_defaults: tuple[ir.ResetVariable, ...]
    #: The spec's roles by name, its rules table, and the rule each procedure (a deal, settling)
    #: cites, by the procedure's code.
    role_names: tuple[str, ...]
    rules: tuple[ir.Rule, ...]
    procedure_rules: Mapping[str, str]
    #: How chips pushed, with what was said, are ruled: the first ruling that applies, returned
    #: as (ruling, to, rule).
    push_ruling: ir.Method
    #: Each event's source states (the states a transition of it leaves), in the spec's order of
    #: states; an event no transition takes has none. The actions of the spec's own, by name.
    sources: Mapping[str, tuple[str, ...]]
    own_actions: tuple[str, ...]
    #: The machine's states in the spec's order, the first a hand is in, the streets' names in
    #: order, and the values each street sets.
    states: tuple[ir.State, ...]
    initial: str
    streets: tuple[str, ...]
    street_values: tuple[ir.StreetValue, ...]
    #: The quantities in the spec's dependency order (each reads only those before it), and by name.
    quantities: tuple[ir.Quantity, ...]
    quantities_by_name: Mapping[str, ir.Quantity]
    #: The options, the inputs a table gives and those a deal gives, in the spec's order.
    options: tuple[ir.Option, ...]
    inputs: tuple[ir.Given, ...]
    deal_inputs: tuple[ir.Given, ...]
    #: The events and the transitions in the spec's order; the names a hand keeps (the runtime's
    #: the spec reads and the spec's own); every expression a hand computes (the checker's list);
    #: the runtime primitives the spec names; and which fields of the model the spec gives (a back
    #: end refuses, naming it, one it does not know how to print).
    events: tuple[ir.Event, ...]
    transitions: tuple[ir.Transition, ...]
    variables: tuple[ir.Variable, ...]
    hand_expressions: tuple[ast.expr, ...]
    primitives: tuple[str, ...]
    spec_fields: tuple[str, ...]
    #: The cards the game deals and how its showdown ranks them, as JSON data in the spec's words
    #: (each street's deal in the streets' order); None where the spec declares no game.
    game: Mapping[str, object] | None
    #: The house's rake as JSON data (its percentage in hundredths of a per cent, rounding, what
    #: the cap bounds, the street a hand must reach, its rule), and ``_rake_terms``, its terms
    #: read about the hand as the pots are paid; None where the spec posts no rake.
    rake: Mapping[str, object] | None
    rake_terms: ir.Method | None
    #: The money paid outside the pot, as JSON data in the spec's order (each payment's name, who
    #: pays and collects, the cards the payee shows, whether only at a showdown, its rule), and
    #: ``_payment_amounts``, each one's amount read about the hand as the pots are paid.
    payments: tuple[Mapping[str, object], ...]
    payment_amounts: ir.Method | None

    def quantity(self, name: str) -> ir.Quantity | None:
        """The quantity named ``name``, if the spec has one."""
        return self.quantities_by_name.get(name)

    def option(self, name: str) -> ir.Option | None:
        """The option named ``name``, if the spec has one."""
        return next((option for option in self.options if option.name == name), None)


#: The plans built, by spec (its name and the hash of its merged text): the back ends of one
#: ``betspec generate`` share each spec's plan. Bounded: a long fuzzing run builds many.
_BUILT: dict[tuple[str, str], EnginePlan] = {}


def engine_plan(spec: Spec) -> EnginePlan:
    """The engine plan of ``spec``, built on first asking."""
    key = (spec.name, spec.hash)
    found = _BUILT.get(key)
    if found is None:
        if len(_BUILT) >= _KEPT:
            _BUILT.clear()
        found = _BUILT[key] = _built(spec)
    return found


def _built(spec: Spec) -> EnginePlan:
    events = plan_events(spec)
    quantities = tuple(
        ir.Quantity(q.name, q.type, q.per_seat, q.needs_to, q.meaning, q.rule, q.expr.tree)
        for q in spec.quantities.values()
    )
    return EnginePlan(
        roles=roles_method(spec),
        checks=checks_method(spec),
        forced_bets=forced_bets_method(spec),
        refusal=refusal_method(e for e in events if e.kind == "action"),
        next_hand=next_hand_method(spec),
        odd_chip_after=quantity_method(spec, "_odd_chip_after", "odd_chip_after"),
        variable_defaults=variable_defaults(spec),
        role_names=tuple(spec.roles),
        sources={
            event: tuple(s for s in spec.states if any(t.event == event and t.source == s for t in spec.transitions))
            for event in spec.events
        },
        own_actions=tuple(e.name for e in spec.events.values() if e.own),
        rules=tuple(ir.Rule(rule.id, rule.text, rule.source) for rule in spec.rules.values()),
        procedure_rules=dict(sorted(spec.procedure_rules.items())),
        push_ruling=push_ruling_method(spec),
        states=tuple(ir.State(state.name, state.phase) for state in spec.states.values()),
        initial=spec.initial,
        streets=tuple(street.name for street in spec.streets),
        street_values=tuple(
            ir.StreetValue(v.name, v.type, tuple(street.values[v.name] for street in spec.streets), v.meaning)
            for v in spec.street_values.values()
        ),
        quantities=quantities,
        quantities_by_name={q.name: q for q in quantities},
        options=tuple(
            ir.Option(
                o.name,
                o.type,
                o.default,
                o.minimum,
                o.maximum,
                o.choices,
                vocabulary.OPTION_CHECKS.get(o.type),
                o.meaning,
            )
            for o in spec.options.values()
        ),
        inputs=tuple(given(item) for item in spec.inputs.values()),
        deal_inputs=tuple(given(item) for item in spec.deal_inputs.values()),
        events=events,
        transitions=tuple(
            ir.Transition(t.event, t.source, t.dest, None if t.guard is None else t.guard.text, t.rule)
            for t in spec.transitions
        ),
        variables=tuple(ir.Variable(v.name, v.type, v.declared) for v in spec.variables.values()),
        hand_expressions=tuple(expr.tree for expr in spec.hand_expressions()),
        primitives=tuple(spec.primitives),
        spec_fields=tuple(f.name for f in dataclasses.fields(spec) if getattr(spec, f.name)),
        game=game_data(spec),
        rake=rake_data(spec),
        rake_terms=None if spec.rake is None else rake_terms_method(spec.rake),
        payments=payments_data(spec),
        payment_amounts=payment_amounts_method(spec),
    )


def payments_data(spec: Spec) -> tuple[dict[str, object], ...]:
    """The spec's payments outside the pot as JSON data (what settle and a dealer read), in order."""
    return tuple(
        {
            "name": p.name,
            "from": p.source,
            "to": p.to,
            "ranks": list(p.ranks),
            "suited": p.suited,
            **({"makes": list(p.makes)} if p.makes else {}),
            "showdown": p.showdown,
            "rule": p.rule,
        }
        for p in spec.payments
    )


def payment_amounts_method(spec: Spec) -> ir.Method | None:
    """``_payment_amounts``: each payment's amount in the spec's order, read about the hand as the
    pots are paid (a tuple even of one); None where the spec declares no payment."""
    if not spec.payments:
        return None
    amounts = tuple(ir.SpecExpr(p.amount.tree) for p in spec.payments)
    return ir.Method("_payment_amounts", (ir.Returns(amounts, listed=True),))


def rake_data(spec: Spec) -> dict[str, object] | None:
    """The spec's rake as JSON data (what settle and the book read), or None."""
    rake = spec.rake
    if rake is None:
        return None
    return {
        "basis_points": rake.basis_points,
        "rounding": rake.rounding,
        "cap_per": rake.cap_per,
        "from_street": rake.from_street,
        "rule": rake.rule,
    }


def rake_terms_method(rake: Rake) -> ir.Method:
    """``_rake_terms``: the rake's chip unit, cap (None: none), minimum pot, jackpot drop and the
    drop's minimum pot, read about the hand as its pots are paid (a term not given: 1, None, 0,
    0, 0)."""
    defaults: tuple[tuple[Expr | None, int | None], ...] = (
        (rake.unit, 1),
        (rake.cap, None),
        (rake.minimum_pot, 0),
        (rake.jackpot, 0),
        (rake.jackpot_minimum, 0),
    )
    values = tuple(ir.Const(default) if term is None else ir.SpecExpr(term.tree) for term, default in defaults)
    return ir.Method("_rake_terms", (ir.Returns(values),))


def game_data(spec: Spec) -> dict[str, object] | None:
    """The spec's game as JSON data (what a dealer reads), or None."""
    game = spec.game
    if game is None:
        return None
    deals = [
        {
            "street": deal.street,
            "hole": ["up" if up else "down" for up in deal.hole],
            "board": deal.board,
            "draw": deal.draw,
            "discard": deal.discard,
        }
        for deal in game.deals
    ]
    return {
        "name": game.name,
        "deck": game.deck or {"ranks": game.ranks, "suits": game.suits},
        "deals": deals,
        "showdown": list(game.showdown),
        "opening": game.opening,
        "rule": game.rule,
        "boards": game.boards,
        "boards_when": game.boards_when,
    }
