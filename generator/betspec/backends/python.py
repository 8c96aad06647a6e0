"""The Python back end: a spec model becomes a module with one ``transitions``-based engine class.

What the generated module holds, in order: a do-not-edit header naming the spec and its hash; an
Enum of the spec's states; the rules table; one function per quantity; the effect and guard
callbacks; one ``transitions.Machine`` for the class (shared by every hand, never per hand);
and the engine class with typed action methods whose requirement checks are inlined.

Safety: the only identifiers in the output are ones this module makes from names the schema
restricts to ``[a-z][a-z0-9_]*`` (or rule ids, ``[A-Z][A-Z0-9-]*``, only inside string literals);
every text from a spec reaches the output through :func:`repr`; expressions arrive as checked
trees and are printed by :func:`betspec.backends.pyexpr.compile_source`.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from betspec import vocabulary
from betspec.backends.base import Context, header_lines, register
from betspec.backends.pyexpr import (
    ACCESSORS,
    MODEL,
    PRIMITIVE_METHODS,
    RUNTIME_FUNCTIONS,
    Symbol,
    compile_source,
    fold,
    is_false,
    negate,
    python,
    size,
    source,
)
from betspec.model import Assignment, Call, Effect, Event, Input, Option, Requirement, Spec, Transition, Type
from betspec.runtime import contract

_TYPES = {"int": Type.INT, "bool": Type.BOOL, "int?": Type.OPT_INT, "choice": Type.CHOICE, "seats": Type.SEATS}
_PY_TYPES = {"int": "int", "bool": "bool", "int?": "int | None", "choice": "str"}
#: The value type expressions read an input of each type as.
_INPUT_VALUE_TYPES = {"seat": "int", "seat?": "int?"}
WIDTH = 96
#: The line length of the project's ruff settings, past which isort wraps an import.
IMPORT_WIDTH = 120


def _json_literal(value: object) -> str:
    """A Python literal for JSON data (lists as tuples): scalars through :func:`_lit`."""
    if isinstance(value, list):
        items = [_json_literal(v) for v in value]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    return _lit(value)


def _lit(value: object) -> str:
    """A Python literal for a JSON scalar: repr of str, int, bool or None, nothing else."""
    if value is None or isinstance(value, bool | int | str):
        return repr(value)
    raise TypeError(f"not a literal: {type(value).__name__}")


def _text(value: str, indent: int) -> str:
    """A string literal, split into implicitly joined repr() pieces when it is long."""
    if len(repr(value)) + indent <= WIDTH:
        return repr(value)
    words = value.split(" ")
    pieces: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}" if current else word
        if len(repr(candidate)) + indent + 4 > WIDTH and current:
            pieces.append(current + " ")
            current = word
        else:
            candidate_ok = candidate
            current = candidate_ok
    pieces.append(current)
    pad = " " * (indent + 4)
    body = "\n".join(pad + repr(piece) for piece in pieces)
    return "(\n" + body + "\n" + " " * indent + ")"


def _comment(line: str) -> str:
    """A comment line holding spec text, kept one inert line: a newline or any other character
    that is not printable (a line or paragraph separator) is written as a space."""
    return "".join(ch if ch.isprintable() else " " for ch in line)


def _negated(tree: ast.expr, symbols: Mapping[str, Symbol]) -> str:
    """Source that is true when ``tree`` is false, folded (no double negation)."""
    return source(negate(python(tree, symbols)))


def _enum_member(state: str) -> str:
    return state.upper()


#: A quantity whose Python tree has at most this many nodes is written in place instead of
#: called: expressions are pure, so this changes speed, never meaning.
INLINE_NODES = 24

#: The per-seat quantities the runtime computes for every seat whenever its chips move, and the
#: list it keeps them in (Engine._live is playable: a seat with none is all-in).
CACHED_SEAT_QUANTITIES = {"playable": "_live"}

#: The local a method that reads the seat to act often holds it in (``seat=ACTOR`` in _symbols).
ACTOR = "actor"

#: A local of generated code holding a quantity computed once: (its name, its tree).
Local = tuple[str, ast.expr]


def _symbols(
    spec: Spec,
    model: str,
    seat: str | None = None,
    accessors: Mapping[str, str] = ACCESSORS,
    given: str | None = None,
) -> dict[str, Symbol]:
    """Accessors for every name an expression may use, reading the engine as ``model``.

    ``seat``: the name of the seat variables are about, for per-seat quantities (the seat to act
    otherwise); ``accessors``: how the engine answers each variable of the vocabulary; ``given``:
    what holds the options, table inputs and deal inputs (the engine itself unless named)."""
    symbols: dict[str, Symbol] = {}
    holder = given or model
    for name in spec.variables:
        accessor = accessors[name].replace("m.", f"{model}.")
        if seat is not None:
            accessor = accessor.replace(f"{model}._actor", seat)
        symbols[name] = Symbol.read(_TYPES[vocabulary.VARIABLES[name].type], accessor, "variable")
    for name, option in spec.options.items():
        positive = option.minimum is not None and option.minimum >= 1
        symbols[name] = Symbol.read(_TYPES[option.type], f"{holder}._opt_{name}", "option", positive=positive)
    for item in spec.inputs.values():
        value_type = _TYPES[_INPUT_VALUE_TYPES.get(item.type, item.type)]
        positive = item.minimum is not None and item.minimum >= 1
        for name in item.names:
            accessor = f"{holder}._in_{name}"
            if item.per_seat:
                accessor += f"[{seat or f'{model}._actor'}]"
            symbols[name] = Symbol.read(value_type, accessor, "input", positive=positive)
    for name in spec.roles:
        symbols[name] = Symbol.read(Type.INT, f"{model}._role_{name}", "role")
    for item in spec.deal_inputs.values():
        value_type = _TYPES[_INPUT_VALUE_TYPES.get(item.type, item.type)]
        symbols[item.name] = Symbol.read(value_type, f"{holder}._dl_{item.name}", "deal input")
    for value in spec.street_values.values():
        # A tuple of the street's values, one per street, indexed by the street being played.
        symbols[value.name] = Symbol.read(
            _TYPES[value.type], f"SV_{value.name.upper()}[{model}._street]", "street value"
        )
    symbols[MODEL] = Symbol.read(Type.INT, model, "model")
    symbols["to"] = Symbol.read(Type.INT, "to", "parameter")
    for name, kind in vocabulary.PUSH_PARAMETERS.items():
        symbols[name] = Symbol.read(_TYPES[kind], name, "parameter")
    for name, quantity in spec.quantities.items():  # in dependency order
        if name in CACHED_SEAT_QUANTITIES and seat in (None, ACTOR):
            # The runtime keeps this one per seat, up to date with every chip moved: read it.
            cached = f"{model}.{CACHED_SEAT_QUANTITIES[name]}[{seat or f'{model}._actor'}]"
            symbols[name] = Symbol.read(_TYPES[quantity.type], cached, "quantity", inlined=False)
            continue
        formula = python(quantity.expr.tree, symbols)
        if size(formula) <= INLINE_NODES:
            symbols[name] = Symbol(_TYPES[quantity.type], formula, "quantity")
            continue
        if quantity.per_seat:
            call = f"q_{name}({model}, {seat or f'{model}._actor'})"
        else:
            call = f"q_{name}({model}, to)" if quantity.needs_to else f"q_{name}({model})"
        symbols[name] = Symbol.read(_TYPES[quantity.type], call, "quantity", inlined=False)
    return symbols


def _hoisted(
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


def _kept(locals_: list[Local], used: Iterable[ast.expr]) -> list[Local]:
    """The locals something reads, directly or through another kept local, in their order."""
    wanted = {node.id for tree in used for node in ast.walk(tree) if isinstance(node, ast.Name)}
    kept: list[Local] = []
    for name, tree in reversed(locals_):
        if name in wanted:
            kept.insert(0, (name, tree))
            wanted |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    return kept


class _Writer:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, line: str = "", indent: int = 0) -> None:
        self.lines.append(" " * indent + line if line else "")

    def block(self, text: str, indent: int = 0) -> None:
        for line in text.split("\n"):
            self(line, indent)

    def text(self) -> str:
        return "\n".join(self.lines).rstrip("\n") + "\n"


def generate(spec: Spec, root: str) -> str:
    """The source of ``generated/<spec.name>.py``."""
    w = _Writer()
    cls = spec.class_name
    symbols = _symbols(spec, "m")
    for line in header_lines(spec, root):
        w(f"# {line}")
    w(repr(f"{spec.title}: {spec.description}" if spec.description else spec.title))
    w()
    w("from __future__ import annotations")
    w()
    w("import enum")
    w("from collections.abc import Callable, Mapping")
    w(f"from typing import {', '.join(sorted({'ClassVar', 'cast', *(['Literal'] if _has_choices(spec) else [])}))}")
    w()
    w("from transitions import Event, EventData, Machine")
    w()
    for line in _runtime_imports(spec):
        w(line)
    w()
    w(f"ABI = {contract.ABI_VERSION}")
    w("require_abi(ABI, __name__)")
    w()
    w(f"SPEC_NAME = {_lit(spec.name)}")
    w(f"SPEC_HASH = {_lit(spec.hash)}")
    w("#: The table inputs the spec declares (besides stacks and button).")
    w("INPUT_NAMES = frozenset({" + ", ".join(_lit(n) for n in sorted(spec.inputs)) + "})")
    w("#: The spec's streets (its betting rounds), in order.")
    w(f"STREETS: tuple[str, ...] = {_tuple([street.name for street in spec.streets])}")
    for value in spec.street_values.values():
        values = _tuple([street.values[value.name] for street in spec.streets])
        w(_comment(f"#: {value.meaning} ({value.name}), street by street."))
        w(f"SV_{value.name.upper()}: tuple[{_PY_TYPES.get(value.type, 'str')}, ...] = {values}")
    w()
    w()
    _states(w, spec)
    _rules(w, spec)
    _quantities(w, spec, symbols, cls)
    _push_rulings(w, spec, symbols, cls)
    callbacks = _callbacks(w, spec, symbols, cls)
    _machine(w, spec, callbacks)
    _engine(w, spec, symbols, cls, callbacks)
    w()
    w()
    _loaders(w, spec, cls)
    w()
    w("#: The engine class of this module, for tools that load engines by structure name.")
    w(f"ENGINE = {cls}")
    return w.text()


#: What every generated module imports from the runtime, by module (the functions its
#: expressions call are added): each name must be one the contract exports.
_RUNTIME_NAMES: dict[str, tuple[str, ...]] = {
    "betspec.runtime.contract": ("require_abi",),
    "betspec.runtime.engine": ("NO_VIEW", "Compiled", "Engine", "Said", "Steps", "View"),
    "betspec.runtime.errors": ("IllegalAction", "InvalidTable"),
    "betspec.runtime.table": ("ABSENT", "Declared", "Start", "Table", "required_input", "unknown_inputs"),
}
_OPTION_CHECKS = vocabulary.OPTION_CHECKS


def _runtime_imports(spec: Spec) -> list[str]:
    """The import lines of a generated module, checked against the runtime's declared contract."""
    wanted = {module: set(names) for module, names in _RUNTIME_NAMES.items()}
    wanted["betspec.runtime.table"] |= {_OPTION_CHECKS[option.type] for option in spec.options.values()}
    for item in (*spec.inputs.values(), *spec.deal_inputs.values()):
        wanted["betspec.runtime.table"] |= _input_check(item, "value")[1]
    if _functions_used(spec):
        wanted["betspec.runtime.functions"] = set(_functions_used(spec))
    lines = []
    for module in sorted(wanted):
        missing = wanted[module] - set(contract.EXPORTED.get(module, ()))
        if missing:
            raise AssertionError(f"the runtime contract does not export {sorted(missing)} from {module}")
        names = sorted(wanted[module], key=_import_order)
        line = f"from {module} import {', '.join(names)}"
        if len(line) > IMPORT_WIDTH:  # as isort wraps it: one name a line
            line = f"from {module} import (\n" + "".join(f"    {name},\n" for name in names) + ")"
        lines.append(line)
    return lines


def _import_order(name: str) -> tuple[bool, str]:
    # isort's order: constants first, then classes, then functions.
    return (not name.isupper(), name if name[:1].isupper() else "~" + name)


def _has_choices(spec: Spec) -> bool:
    return any(option.type == "choice" for option in spec.options.values())


def _option_type(option: Option) -> str:
    if option.type == "choice":
        return "Literal[" + ", ".join(_lit(choice) for choice in option.choices) + "]"
    return _PY_TYPES[option.type]


def _states(w: _Writer, spec: Spec) -> None:
    w("class State(str, enum.Enum):")
    w(repr(f"The states of {spec.name}, one to one with the spec's."), 4)
    w()
    for state in spec.states.values():
        w(f"{_enum_member(state.name)} = {_lit(state.name)}", 4)
    w()
    w()


def _rules(w: _Writer, spec: Spec) -> None:
    w("#: Rule id -> (text, source), as the spec's rules table states them.")
    w("RULES: dict[str, tuple[str, str]] = {")
    for rule in spec.rules.values():
        w(f"{_lit(rule.id)}: (", 4)
        w(_text(rule.text, 8) + ",", 8)
        w(_text(rule.source, 8) + ",", 8)
        w("),", 4)
    w("}")
    w()
    w()


def _quantities(w: _Writer, spec: Spec, symbols: Mapping[str, Symbol], cls: str) -> None:
    seat_symbols = _symbols(spec, "m", seat="seat")
    for quantity in spec.quantities.values():
        params = f"m: {cls}Machine, to: int" if quantity.needs_to else f"m: {cls}Machine"
        if quantity.per_seat:
            params = f"m: {cls}Machine, seat: int"
        w(f"def q_{quantity.name}({params}) -> {_PY_TYPES[quantity.type]}:")
        w(repr(f"{quantity.meaning} (rule {quantity.rule})."), 4)
        scope = seat_symbols if quantity.per_seat else symbols
        w(f"return {compile_source(quantity.expr.tree, scope)}", 4)
        w()
        w()


def _push_rulings(w: _Writer, spec: Spec, symbols: Mapping[str, Symbol], cls: str) -> None:
    """``push_ruling``: the spec's rulings on chips pushed, in its order; the first that applies."""
    signature = f"m: {cls}Machine, pushed: int, chips: int, largest_chip: int, said: Said"
    w(f"def push_ruling({signature}) -> tuple[str, int | None, str]:")
    w(repr("How chips pushed, with what was said, are ruled: (fold|check|call|wager|withdraw, to, rule)."), 4)
    w(
        "said_fold, said_check, said_call = said.fold, said.check, said.call",
        4,
    )
    w(
        "said_bet, said_raise = said.bet, said.raise_",
        4,
    )
    w(
        "said_to = said.to",
        4,
    )
    for entry in spec.push_rulings:
        to = compile_source(entry.to.tree, symbols) if entry.to is not None else "None"
        result = f"return {_lit(entry.ruling)}, {to}, {_lit(entry.rule)}"
        if entry.when.is_constant and entry.when.constant is True:
            w(result, 4)
            break
        w(f"if {compile_source(entry.when.tree, symbols)}:", 4)
        w(result, 8)
    else:
        w("return 'withdraw', None, ''", 4)  # no ruling applies: abstract specs only
    w()
    w()


def _effect_lines(effects: Iterable[Effect], symbols: Mapping[str, Symbol], spec: Spec | None = None) -> list[str]:
    """Effects in order; each run of assignments between two primitives reads the state as it is
    there, all together (so that an effect reading what it assigns sees the state before)."""
    lines: list[str] = []
    group: list[Assignment] = []
    taken: set[str] = set()

    def flush() -> None:
        if not group:
            return
        trees = [a.expr.tree for a in group]
        local = symbols
        if spec is not None and len(group) > 1:
            hoisted, local = _hoisted(trees, spec, symbols, with_to=True)
            used = [python(tree, local) for tree in trees]
            lines.extend(f"{name} = {source(tree)}" for name, tree in _kept(hoisted, used))
        temps = []
        for assignment in group:
            temp, number = f"new_{assignment.target}", 2
            while temp in taken:
                temp, number = f"new_{assignment.target}_{number}", number + 1
            taken.add(temp)
            temps.append(temp)
            lines.append(f"{temp} = {compile_source(assignment.expr.tree, local)}")
        lines.extend(f"{ACCESSORS[a.target]} = {temp}" for a, temp in zip(group, temps, strict=True))
        group.clear()

    for effect in effects:
        if isinstance(effect, Assignment):
            group.append(effect)
            continue
        flush()
        assert isinstance(effect, Call)
        args = ", ".join(compile_source(a.tree, symbols) for a in effect.args)
        lines.append(f"{PRIMITIVE_METHODS[effect.primitive]}({args})")
    flush()
    return lines


def _slug(text: str) -> str:
    return text.lower().replace("-", "_")


def _key_candidates(t: Transition) -> list[str]:
    """Names for a transition's guard or effect, each more precise: by its event and the rule it
    cites, then its destination, then its source. Derived from the spec, never counted."""
    rule = _slug(t.rule)
    base = t.event if rule == t.event else f"{t.event}_{rule}"
    return [base, f"{base}_to_{t.dest}", f"{base}_to_{t.dest}_from_{t.source}"]


def _named(bodies: dict[tuple[str, ...], Transition]) -> dict[tuple[str, ...], str]:
    """A name for each distinct body, from the first transition that has it: the least precise
    one no body before it took. A transition added later renames none of these."""
    names: dict[tuple[str, ...], str] = {}
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


@dataclass(frozen=True)
class Callbacks:
    """The guard and effect functions of a spec's transitions, each body once, named.

    ``guards`` and ``effects``: name -> (whether it takes ``to``, its body: the guard's
    expression, the effect's lines), in the order they are first used; ``of``: per transition
    index, its guard's and its effect's names (None where it has none); ``starts``: per start
    event with effects of its own, their lines (they run before its guards choose a state)."""

    guards: dict[str, tuple[bool, str]]
    effects: dict[str, tuple[bool, list[str]]]
    of: dict[int, tuple[str | None, str | None]]
    starts: dict[str, list[str]]


def callbacks(spec: Spec, symbols: Mapping[str, Symbol]) -> Callbacks:
    """The functions behind ``spec``'s transitions, read through ``symbols``: ``when_X(m)`` (a
    guard) and ``do_X(m)`` (an effect), named after the event and rule of the first transition
    that has them; identical bodies share one function."""
    guards: dict[tuple[str, ...], Transition] = {}
    effects: dict[tuple[str, ...], Transition] = {}
    bodies: dict[int, tuple[tuple[str, ...] | None, tuple[str, ...] | None]] = {}
    # The transitions of one spec entry (one per source state) share their guard and effects.
    printed: dict[tuple[str, int, int], tuple[tuple[str, ...] | None, list[str]]] = {}
    for index, t in enumerate(spec.transitions):
        event = spec.events[t.event]
        takes_to = "to" in event.params
        entry = (t.event, id(t.guard), id(t.effects))
        if entry not in printed:
            guard_source = (str(takes_to), compile_source(t.guard.tree, symbols)) if t.guard is not None else None
            # A start event's own effects run before its guards choose the first state (_begin).
            shared = [] if event.kind == "start" else event.effects
            printed[entry] = (guard_source, _effect_lines([*shared, *t.effects], symbols, spec))
        guard, lines = printed[entry]
        if guard is not None:
            guards.setdefault(guard, t)
        effect = (str(takes_to), *lines) if lines else None
        if effect is not None:
            effects.setdefault(effect, t)
        bodies[index] = (guard, effect)
    guard_names, effect_names = _named(guards), _named(effects)
    found = Callbacks({}, {}, {}, {})
    for event in spec.events.values():
        if event.kind == "start" and event.effects and any(t.event == event.name for t in spec.transitions):
            found.starts[event.name] = _effect_lines(list(event.effects), symbols, spec)
    for index in range(len(spec.transitions)):
        guard, effect = bodies[index]
        guard_name = f"when_{guard_names[guard]}" if guard is not None else None
        effect_name = f"do_{effect_names[effect]}" if effect is not None else None
        if guard is not None and guard_name is not None:
            found.guards.setdefault(guard_name, (guard[0] == "True", guard[1]))
        if effect is not None and effect_name is not None:
            found.effects.setdefault(effect_name, (effect[0] == "True", list(effect[1:])))
        found.of[index] = (guard_name, effect_name)
    return found


def _callbacks(
    w: _Writer, spec: Spec, symbols: Mapping[str, Symbol], cls: str
) -> dict[int, tuple[str | None, str | None]]:
    """Guard and effect functions per transition (:func:`callbacks`), each with its
    ``transitions`` callback (``when_X_event(ev)``, ``do_X_event(ev)``, send_event=True): both
    paths run the same functions."""
    found = callbacks(spec, symbols)
    w("# ---- guards and effects, and their transitions callbacks (send_event=True) ----")
    w()
    w()
    w(f"def _hand(ev: EventData) -> {cls}Machine:")
    w(repr("The hand an event of the machine was triggered for."), 4)
    w(f"return cast({cls}Machine, ev.model)", 4)
    w()
    w()
    for name, lines in found.starts.items():
        w(f"def on_{name}(m: {cls}Machine) -> None:")
        w(repr(f"What {name} does before its guards choose the first state."), 4)
        for line in lines:
            w(line, 4)
        w()
        w()
    written: set[str] = set()
    for guard_name, effect_name in found.of.values():
        if guard_name is not None and guard_name not in written:
            written.add(guard_name)
            takes_to, body = found.guards[guard_name]
            params = f"m: {cls}Machine, to: int" if takes_to else f"m: {cls}Machine"
            forward = f"_hand(ev){', *ev.args' if takes_to else ''}"
            w(f"def {guard_name}({params}) -> bool:")
            w(f"return {body}", 4)
            w()
            w()
            w(f"def {guard_name}_event(ev: EventData) -> bool:")
            w(f"return {guard_name}({forward})", 4)
            w()
            w()
        if effect_name is not None and effect_name not in written:
            written.add(effect_name)
            takes_to, lines = found.effects[effect_name]
            params = f"m: {cls}Machine, to: int" if takes_to else f"m: {cls}Machine"
            forward = f"_hand(ev){', *ev.args' if takes_to else ''}"
            w(f"def {effect_name}({params}) -> None:")
            for line in lines:
                w(line, 4)
            w()
            w()
            w(f"def {effect_name}_event(ev: EventData) -> None:")
            w(f"{effect_name}({forward})", 4)
            w()
            w()
    return found.of


def _machine(w: _Writer, spec: Spec, callbacks: Mapping[int, tuple[str | None, str | None]]) -> None:
    w("# One machine for the class: hands are models triggered through its events, never attached.")
    w("MACHINE = Machine(")
    w("model=None,", 4)
    w("states=State,", 4)
    w(f"initial=State.{_enum_member(spec.initial)},", 4)
    w("model_attribute='_state',", 4)
    w("auto_transitions=False,", 4)
    w("send_event=True,", 4)
    w("ignore_invalid_triggers=True,", 4)
    w("transitions=[", 4)
    for index, t in enumerate(spec.transitions):
        guard, effect = callbacks[index]
        parts = [
            f'"trigger": {_lit(t.event)}',
            f'"source": State.{_enum_member(t.source)}',
            f'"dest": State.{_enum_member(t.dest)}',
        ]
        if guard:
            parts.append(f'"conditions": [{guard}_event]')
        if effect:
            parts.append(f'"before": [{effect}_event]')
        w("{" + ", ".join(parts) + "},  # rule " + t.rule, 8)
    w("],", 4)
    w(")")
    for event in _fired_events(spec):
        w(f"EVENT_{event.name.upper()}: Event = MACHINE.events[{_lit(event.name)}]")
    w()
    w("#: The spec's transitions in its order: (event, source, destination, guard, rule).")
    w("TRANSITIONS: tuple[tuple[str, str, str, str | None, str], ...] = (")
    for t in spec.transitions:
        guard = _lit(t.guard.text) if t.guard is not None else "None"
        w(f"({_lit(t.event)}, {_lit(t.source)}, {_lit(t.dest)}, {guard}, {_lit(t.rule)}),", 4)
    w(")")
    w()
    w("# The same transitions as tables for the compiled path: per source state, in the spec's order,")
    w("# (guard or None, effect or None, destination); the first whose guard holds is taken.")
    for event in _fired_events(spec):
        w(f"FAST_{event.name.upper()}: Steps = {{")
        by_source: dict[str, list[str]] = {}
        for index, t in enumerate(spec.transitions):
            if t.event == event.name:
                guard, effect = callbacks[index]
                step = f"({guard or 'None'}, {effect or 'None'}, State.{_enum_member(t.dest)})"
                by_source.setdefault(t.source, []).append(step)
        for state, steps in by_source.items():
            w(f"State.{_enum_member(state)}: ({', '.join(steps)},),", 4)
        w("}")
    w()
    w()


def _fired_events(spec: Spec) -> list[Event]:
    return [e for e in spec.events.values() if any(t.event == e.name for t in spec.transitions)]


def _sources(spec: Spec, event: str) -> str:
    members = sorted({t.source for t in spec.transitions if t.event == event})
    return "frozenset({" + ", ".join(f"State.{_enum_member(s)}" for s in members) + "})"


def _expressions(spec: Spec) -> Iterable[ast.expr]:
    """Every checked expression tree the generated module compiles."""
    for quantity in spec.quantities.values():
        yield quantity.expr.tree
    effects: list[Effect] = []
    for event in spec.events.values():
        yield from (r.expr.tree for r in event.requires)
        effects += event.effects
    for transition in spec.transitions:
        if transition.guard is not None:
            yield transition.guard.tree
        effects += transition.effects
    for effect in effects:
        if isinstance(effect, Assignment):
            yield effect.expr.tree
        else:
            yield from (a.tree for a in effect.args)


def _functions_used(spec: Spec) -> list[str]:
    """The runtime functions (not builtins) the compiled expressions still call, sorted: a
    rounding whose unit is declared positive is written as arithmetic instead."""
    symbols = _symbols(spec, "m")
    names = {
        node.func.id
        for tree in _expressions(spec)
        for node in ast.walk(python(tree, symbols))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    return sorted(names & set(RUNTIME_FUNCTIONS))


def _engine(
    w: _Writer,
    spec: Spec,
    symbols: Mapping[str, Symbol],
    cls: str,
    callbacks: Mapping[int, tuple[str | None, str | None]],
) -> None:
    self_symbols = _symbols(spec, "self")
    actions = [e for e in spec.events.values() if e.kind == "action"]
    for event in [*actions, *(e for e in spec.events.values() if e.kind == "deal")]:
        w(f"FROM_{event.name.upper()} = {_sources(spec, event.name)}")
    names = sorted(e.name for e in actions if e.name in vocabulary.CHOSEN_ACTIONS)
    w("#: Sorted tuples of legal actions, indexed by one bit per action in this order: " + ", ".join(names))
    w("LEGAL_SETS: tuple[tuple[str, ...], ...] = (")
    for mask in range(2 ** len(names)):
        chosen = tuple(name for i, name in enumerate(names) if mask >> i & 1)
        w(f"{chosen!r},", 4)
    w(")")
    w()
    w()
    w(f"class {cls}Machine(Engine):")
    w(repr(f"{spec.title}, every event through the transitions machine. {spec.description}".strip()), 4)
    w()
    names = sorted(
        [
            *(f"_opt_{name}" for name in spec.options),
            *(f"_in_{name}" for item in spec.inputs.values() for name in (item.names or (item.name,))),
            *(f"_role_{name}" for name in spec.roles),
            *(f"_dl_{name}" for name in spec.deal_inputs),
        ]
    )
    slots = ", ".join(f'"{name}"' for name in names)
    w(f"__slots__ = ({slots}{',' if len(names) == 1 else ''})", 4)
    w()
    w("SPEC_NAME: ClassVar[str] = SPEC_NAME", 4)
    w("SPEC_HASH: ClassVar[str] = SPEC_HASH", 4)
    w("RULES: ClassVar[dict[str, tuple[str, str]]] = RULES", 4)
    w("PROCEDURE_RULES: ClassVar[dict[str, str]] = {", 4)
    for code, rule in sorted(spec.procedure_rules.items()):
        w(f"{_lit(code)}: {_lit(rule)},", 8)
    w("}", 4)
    w("STREETS: ClassVar[tuple[str, ...]] = STREETS", 4)
    w(f"LAST_STREET: ClassVar[int] = {len(spec.streets) - 1}", 4)
    w("STATE_PHASE: ClassVar[dict[State, str]] = {", 4)
    for state in spec.states.values():
        w(f"State.{_enum_member(state.name)}: {_lit(state.phase)},", 8)
    w("}", 4)
    w("OPTION_DEFAULTS: ClassVar[dict[str, int | bool | str | None]] = {", 4)
    for option in spec.options.values():
        w(f"{_lit(option.name)}: {_lit(option.default)},", 8)
    w("}", 4)
    w("OPTIONS: ClassVar[dict[str, Declared]] = {", 4)
    for option in spec.options.values():
        extra = "".join(
            f", {key}={value}"
            for key, value in (
                ("minimum", _lit(option.minimum)),
                ("maximum", _lit(option.maximum)),
                ("choices", repr(tuple(option.choices))),
            )
            if value not in ("None", "()")
        )
        w(f"{_lit(option.name)}: Declared({_lit(option.name)}, {_lit(option.type)}, {_lit(option.default)}{extra}),", 8)
    w("}", 4)
    _declared_inputs(w, "INPUTS", spec.inputs.values())
    _declared_inputs(w, "DEAL_INPUTS", spec.deal_inputs.values())
    w(f"INITIAL: ClassVar[State] = State.{_enum_member(spec.initial)}", 4)
    automatic = [e for e in _fired_events(spec) if e.kind == "automatic"]
    pairs = ", ".join(f"(EVENT_{e.name.upper()}, FAST_{e.name.upper()})" for e in automatic)
    w(f"AUTOMATIC: ClassVar[tuple[tuple[Event, Steps], ...]] = ({pairs}{',' if len(automatic) == 1 else ''})", 4)
    w(f"SETTLE_LIMIT: ClassVar[int] = {len(spec.states)}", 4)
    deal = next(e for e in _fired_events(spec) if e.kind == "deal")
    w(f"DEAL: ClassVar[Steps] = FAST_{deal.name.upper()}", 4)
    w("_state: State", 4)
    for option in spec.options.values():
        w(f"_opt_{option.name}: {_option_type(option)}", 4)
    for item in spec.inputs.values():
        for name in item.names or (item.name,):
            w(f"_in_{name}: {_input_type(item)}", 4)
    for name in spec.roles:
        w(f"_role_{name}: int", 4)
    for item in spec.deal_inputs.values():
        w(f"_dl_{item.name}: {_input_type(item)}", 4)
    w()
    _init(w, spec)
    _start(w, spec)
    _load_inputs(w, spec)
    _load_deal(w, spec)
    _compute_roles(w, spec, self_symbols)
    _post_forced_bets(w, spec, self_symbols)
    _table_checks(w, spec, self_symbols)
    w("def _playable(self, seat: int) -> int:", 4)
    seat_symbols = _symbols(spec, "self", seat="seat")
    playable = spec.quantities["playable"].expr.tree
    w(f"return {compile_source(playable, seat_symbols)}", 8)
    w()
    w("def _all_in_to(self) -> int:", 4)
    w(f"return {source(self_symbols['all_in_to'].tree)}", 8)
    w()
    _next_hand(w, spec, self_symbols)
    w("def _odd_chip_after(self) -> int:", 4)
    w(f"return {compile_source(spec.quantities['odd_chip_after'].expr.tree, self_symbols)}", 8)
    w()
    _refusal(w, spec, self_symbols, actions)
    w("def _push_ruling(self, pushed: int, chips: int, largest: int, said: Said) -> tuple[str, int | None, str]:", 4)
    w("return push_ruling(self, pushed, chips, largest, said)", 8)
    w()
    w("def _fire(self, event: Event, table: Steps, *args: int) -> bool:", 4)
    w(repr("Take ``event`` through the transitions machine."), 8)
    w("return bool(event.trigger(self, *args))", 8)
    w()
    _view(w, spec, self_symbols, actions)
    for event in actions:
        if any(t.event == event.name for t in spec.transitions):
            takes_to = "to" in event.params
            w(f"def _take_{event.name}(self{', to: int' if takes_to else ''}) -> None:", 4)
            w(f"self._fire(EVENT_{event.name.upper()}, FAST_{event.name.upper()}{', to' if takes_to else ''})", 8)
            w()
    for event in actions:
        _action(w, spec, event, self_symbols)
    _deal(w, spec)
    w()
    w()
    w(f"class {cls}(Compiled, {cls}Machine):")
    doc = (
        f"{spec.title}: the default engine. The same spec, states, transitions, guards and effects as "
        f"{cls}Machine, taken through compiled tables instead of the transitions machine; the "
        "differential tests prove the two equal."
    )
    w(repr(doc), 4)
    w()
    w("__slots__ = ()", 4)
    for event in actions:
        _direct(w, spec, event, self_symbols, callbacks)
    _direct_settle(w, spec, self_symbols, callbacks)


def _steps_by_source(
    spec: Spec, event: str, callbacks: Mapping[int, tuple[str | None, str | None]]
) -> dict[str, list[tuple[Transition, str | None]]]:
    """An event's transitions per source state, in the spec's order, each with its effect function."""
    found: dict[str, list[tuple[Transition, str | None]]] = {}
    for index, t in enumerate(spec.transitions):
        if t.event == event:
            found.setdefault(t.source, []).append((t, callbacks[index][1]))
    return found


def _shape(steps: list[tuple[Transition, str | None]]) -> tuple[object, ...]:
    """What taking ``steps`` does, whatever their source: sources alike share one branch."""
    return tuple(
        (t.guard.text if t.guard is not None else None, effect, "=" if t.dest == t.source else t.dest)
        for t, effect in steps
    )


def _alike(by_source: Mapping[str, list[tuple[Transition, str | None]]]) -> list[list[str]]:
    """The source states whose steps do the same, grouped, in the spec's order."""
    groups: dict[tuple[object, ...], list[str]] = {}
    for state, steps in by_source.items():
        groups.setdefault(_shape(steps), []).append(state)
    return list(groups.values())


def _state_member(state: str) -> str:
    return f"State.{_enum_member(state)}"


def take_steps(
    w: _Writer,
    steps: list[tuple[Transition, str | None]],
    symbols: Mapping[str, Symbol],
    args: str,
    done: str,
    indent: int,
    state: Callable[[str], str] = _state_member,
) -> None:
    """The first of ``steps`` whose guard holds, taken: its effect, its destination (as ``state``
    names it), then ``done``."""
    for t, effect in steps:
        inner = indent
        if t.guard is not None:
            w(f"if {compile_source(t.guard.tree, symbols)}:", indent)
            inner = indent + 4
        if effect is not None:
            w(f"{effect}(self{args})", inner)
        if t.dest != t.source:
            w(f"self._state = {state(t.dest)}", inner)
        if t.guard is None:
            if done != "return":  # a branch of the method's last statement: it returns anyway
                w(done, inner)
            elif effect is None and t.dest == t.source:
                w("pass", inner)  # a step that does nothing (an action redeclared with no effects)
            return
        w(done, inner)


def _direct(
    w: _Writer,
    spec: Spec,
    event: Event,
    symbols: Mapping[str, Symbol],
    callbacks: Mapping[int, tuple[str | None, str | None]],
) -> None:
    """``_take_<event>`` for the compiled path: the event's transition from the current state taken
    directly, its guard inline, instead of a walk through its table. The action method has proved
    the state is a source of the event before it gets here."""
    by_source = _steps_by_source(spec, event.name, callbacks)
    if not by_source:
        return
    takes_to = "to" in event.params
    args = ", to" if takes_to else ""
    w()
    # One step per source, unguarded, the same effect, the state unchanged: the effect is the method.
    steps = [step for steps in by_source.values() for step in steps]
    if all(len(s) == 1 for s in by_source.values()) and all(
        t.guard is None and t.dest == t.source and effect == steps[0][1] and effect is not None for t, effect in steps
    ):
        w(f"_take_{event.name} = {steps[0][1]}", 4)
        return
    w(f"def _take_{event.name}(self{', to: int' if takes_to else ''}) -> None:", 4)
    first = True
    for sources in _alike(by_source):
        if len(by_source) > 1:
            test = " or ".join(f"self._state is State.{_enum_member(source)}" for source in sources)
            w(f"{'if' if first else 'elif'} {test}:", 8)
        first = False
        take_steps(w, by_source[sources[0]], symbols, args, "return", 12 if len(by_source) > 1 else 8)


def _direct_settle(
    w: _Writer, spec: Spec, symbols: Mapping[str, Symbol], callbacks: Mapping[int, tuple[str | None, str | None]]
) -> None:
    """``_settle`` for the compiled path: the automatic events' transitions written out, guards
    inline, taken until none applies (at most one per state). It runs after every event."""
    w()
    w("def _settle(self) -> None:", 4)
    w(repr("The automatic transitions (the end of a round) taken until none applies."), 8)
    w("for _ in range(self.SETTLE_LIMIT):", 8)
    w("state = self._state", 12)
    settle_branches(w, spec, symbols, callbacks, lambda source: f"state is {_state_member(source)}")
    w("break", 12)
    w("self._view = None", 8)


def settle_branches(
    w: _Writer,
    spec: Spec,
    symbols: Mapping[str, Symbol],
    callbacks: Mapping[int, tuple[str | None, str | None]],
    test: Callable[[str], str],
    state: Callable[[str], str] = _state_member,
) -> None:
    """The automatic events' transitions inside _settle's loop: a branch per group of sources
    alike (``test`` says the state is one of them), each taking the first step whose guard holds
    and going round again. A state several automatic events leave tries them in the spec's order
    of events, as the machine fires them (Engine._settle): one branch holds them all."""
    by_source: dict[str, list[tuple[Transition, str | None]]] = {}
    for event in (e for e in _fired_events(spec) if e.kind == "automatic"):
        for state_name, steps in _steps_by_source(spec, event.name, callbacks).items():
            by_source.setdefault(state_name, []).extend(steps)
    for index, sources in enumerate(_alike(by_source)):
        w(f"{'if' if index == 0 else 'elif'} {' or '.join(test(source) for source in sources)}:", 12)
        take_steps(w, by_source[sources[0]], symbols, "", "continue", 16, state=state)


def _init(w: _Writer, spec: Spec) -> None:
    params = ["self", "table: Table", "*", "start: Start | None = None"]
    for option in spec.options.values():
        params.append(f"{option.name}: {_option_type(option)} = {_lit(option.default)}")
    w("def __init__(", 4)
    for param in params:
        w(f"{param},", 8)
    w(") -> None:", 4)
    w(repr("A hand on ``table``; ``start`` begins on a later street with a pot instead of blinds."), 8)
    for option in spec.options.values():
        name, check = _lit(option.name), _OPTION_CHECKS[option.type]
        if option.type == "choice":
            value = f"{check}({name}, {option.name}, {tuple(option.choices)!r})"
            value = f"cast({_lit(_option_type(option))}, {value})"
        elif option.type == "bool":
            value = f"{check}({name}, {option.name})"
        else:
            value = f"{check}({name}, {option.name}, {_lit(option.minimum)}, {_lit(option.maximum)})"
        w(f"self._opt_{option.name} = {value}", 8)
    w("self._setup(table, start)", 8)
    w()


def _start(w: _Writer, spec: Spec) -> None:
    w("def _begin(self, street: str | None) -> None:", 4)
    starts = [e for e in _fired_events(spec) if e.kind == "start"]
    for blinds in (True, False):
        for event in (e for e in starts if e.blinds == blinds):
            indent = 8
            if blinds:
                w("if street is None:", 8)
                indent = 12
            if event.effects:
                w(f"on_{event.name}(self)", indent)
            w(f"self._fire(EVENT_{event.name.upper()}, FAST_{event.name.upper()})", indent)
            if blinds:
                w("return", indent)
    w()


def _declared_inputs(w: _Writer, name: str, items: Iterable[Input]) -> None:
    """``name``: the inputs as the spec declares them, for tools that build tables and deals."""
    w(f"{name}: ClassVar[dict[str, Declared]] = {{", 4)
    for item in items:
        default = "ABSENT" if item.required else _json_literal(item.default)
        extra = "".join(
            f", {key}={value}"
            for key, value in (
                ("minimum", _lit(item.minimum)),
                ("maximum", _lit(item.maximum)),
                ("choices", repr(tuple(item.choices))),
                ("items", repr(tuple(item.items))),
                ("per_seat", repr(item.per_seat)),
                ("example", _json_literal(item.example)),
                ("hand", repr(item.hand)),
            )
            if value not in ("None", "()", "False")
        )
        w(f"{_lit(item.name)}: Declared({_lit(item.name)}, {_lit(item.type)}, {default}{extra}),", 8)
    w("}", 4)


def _next_hand(w: _Writer, spec: Spec, symbols: Mapping[str, Symbol]) -> None:
    """``_next_hand``: the spec's next_hand expressions, read once the pots are paid."""
    w("def _next_hand(self) -> tuple[int, dict[str, object]]:", 4)
    assert spec.next_hand is not None
    given = ", ".join(
        f"{_lit(name)}: {compile_source(expr.tree, symbols)}" for name, expr in spec.next_hand.inputs.items()
    )
    w(f"return {compile_source(spec.next_hand.button.tree, symbols)}, {{{given}}}", 8)
    w()


def _input_type(item: Input) -> str:
    """The Python type an input is kept as."""
    if item.type == "seats":
        return "tuple[int, ...]"
    if item.type == "choice":
        return "str"
    base = _PY_TYPES[_INPUT_VALUE_TYPES.get(item.type, item.type)]
    return f"tuple[{base}, ...]" if item.per_seat else base


def _input_check(item: Input, value: str) -> tuple[str, set[str]]:
    """The runtime call that checks ``value`` (source) for ``item``, and the runtime names it calls."""
    name = _lit(item.name)
    bounds = f"{_lit(item.minimum)}, {_lit(item.maximum)}"
    if item.type == "seats":
        return f"seats_input({name}, {value}, self._n)", {"seats_input"}
    if item.items:
        return f"items_input({name}, {value}, {len(item.items)}, {bounds})", {"items_input"}
    if item.per_seat:
        element = {"int": "int_input", "int?": "optional_int_input", "bool": "bool_input"}[item.type]
        check = element if item.type == "bool" else f"lambda n, v: {element}(n, v, {bounds})"
        return f"per_seat_input({name}, {value}, self._n, {check})", {"per_seat_input", element}
    if item.type in ("seat", "seat?"):
        function = f"{'optional_' if item.type == 'seat?' else ''}seat_input"
        return f"{function}({name}, {value}, self._n)", {function}
    if item.type == "choice":
        return f"choice_input({name}, {value}, {tuple(item.choices)!r})", {"choice_input"}
    if item.type == "bool":
        return f"bool_input({name}, {value})", {"bool_input"}
    function = f"{'optional_' if item.type == 'int?' else ''}int_input"
    return f"{function}({name}, {value}, {bounds})", {function}


def _tuple(values: Sequence[object]) -> str:
    """A tuple literal of scalars: ``(a, b)``, ``(a,)`` for one value."""
    return _json_literal(list(values))


def _default_source(item: Input) -> str:
    """The value an input keeps when the table does not give it, as Python source."""
    value = item.default
    if item.per_seat:
        return f"({_lit(value)},) * self._n"
    if isinstance(value, list):
        return _tuple(value)
    return _lit(value)


def _load_inputs(w: _Writer, spec: Spec) -> None:
    """``_load_inputs``: every default set at once, then a loader for each input the table gives
    (most tables give one or two of a spec's inputs)."""
    w("def _load_inputs(self, given: Mapping[str, object]) -> None:", 4)
    w(repr("The table's inputs, checked against the spec's; the defaults for those it does not give."), 8)
    for item in spec.inputs.values():
        if item.required:
            w(f"if {_lit(item.name)} not in given:", 8)
            w(f"raise required_input(SPEC_NAME, {_lit(item.name)})", 12)
    for item in spec.inputs.values():
        if not item.required:
            targets = ", ".join(f"self._in_{name}" for name in item.names or (item.name,))
            w(f"{targets} = {_default_source(item)}", 8)
    w("for name, value in given.items():", 8)
    w("load = LOADERS.get(name)", 12)
    w("if load is None:", 12)
    w("unknown_inputs(SPEC_NAME, given, INPUT_NAMES)", 16)
    w("load(self, value)  # type: ignore[misc]", 12)
    w()


def _loaders(w: _Writer, spec: Spec, cls: str) -> None:
    """One function per input, checking a given value and keeping it (``LOADERS``)."""
    for item in spec.inputs.values():
        targets = ", ".join(f"m._in_{name}" for name in item.names or (item.name,))
        w(f"def _load_{item.name}(m: {cls}Machine, value: object) -> None:")
        w(f"{targets} = {_input_check(item, 'value')[0].replace('self._n', 'm._n')}", 4)
        w()
        w()
    w("#: The loader of each input the spec declares, by name.")
    w(f"LOADERS: dict[str, Callable[[{cls}Machine, object], None]] = {{")
    for item in spec.inputs.values():
        w(f"{_lit(item.name)}: _load_{item.name},", 4)
    w("}")
    w()


def _compute_roles(w: _Writer, spec: Spec, symbols: Mapping[str, Symbol]) -> None:
    w("def _compute_roles(self) -> None:", 4)
    if not spec.roles:
        w("return None", 8)
    for role in spec.roles.values():
        w(f"self._role_{role.name} = {compile_source(role.expr.tree, symbols)}", 8)
        if not _always_a_seat(spec, role.expr.tree):
            w(f"if not 0 <= self._role_{role.name} < self._n:", 8)
            message = f"f'the {role.name} is seat {{self._role_{role.name}}}, which is not at this table'"
            w(f"raise InvalidTable({message})", 12)
    w()


def _always_a_seat(spec: Spec, tree: ast.expr) -> bool:
    """Whether a role's expression is a seat whatever the table: ``x % seats``, the button, a seat
    input (checked when loaded), a role before it, or a choice between such."""
    if isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.Mod):
        return isinstance(tree.right, ast.Name) and tree.right.id == "seats"
    if isinstance(tree, ast.IfExp):
        return _always_a_seat(spec, tree.body) and _always_a_seat(spec, tree.orelse)
    if isinstance(tree, ast.Name):
        if tree.id == "button" or tree.id in spec.roles:
            return True
        item = next((i for i in spec.inputs.values() if tree.id in i.names), None)
        return item is not None and item.type in ("seat", "seat?") and not item.per_seat
    return False


def _post_forced_bets(w: _Writer, spec: Spec, symbols: Mapping[str, Symbol]) -> None:
    """``_post_forced_bets``: each forced bet of the spec in order, through the runtime's _post."""
    w("def _post_forced_bets(self) -> None:", 4)
    if not spec.forced_bets:
        w("return None", 8)

    def loop(seats: str) -> list[tuple[int, str]]:
        return [(0, f"for seat in {'self._from_button()' if seats == 'all' else f'self._in_{seats}'}:")]

    forced_bet_lines(w, spec, symbols, _symbols(spec, "self", seat="seat"), loop, "self")
    w()


#: How a back end writes a loop over a forced bet's seats (``all``, or a seats input's name):
#: its lines, each with its indent relative to the loop's, the body one level in.
SeatLoop = Callable[[str], list[tuple[int, str]]]


def forced_bet_lines(
    w: _Writer,
    spec: Spec,
    symbols: Mapping[str, Symbol],
    seat_symbols: Mapping[str, Symbol],
    loop: SeatLoop,
    given: str,
) -> None:
    """The body of ``_post_forced_bets``: each forced bet in order, through the runtime's _post,
    its expressions read through ``symbols`` (``seat_symbols`` about the seat posting), the
    inputs through ``given``, the seats walked as ``loop`` writes it."""
    for bet in spec.forced_bets:
        order = f"{bet.order == 'starts_after'}, {bet.order == 'last'}"
        flags = f"{bet.live}, {bet.dead_money}, {order}, {bet.in_full}, {_lit(bet.name.replace('_', ' '))}"
        indent = 8
        per_seat_when = bet.when is not None and bet.seats is not None and _reads_seat(spec, bet.when.tree)
        when = None if bet.when is None else compile_source(bet.when.tree, seat_symbols if per_seat_when else symbols)
        if when == "False":
            continue  # never posted in this structure
        if when is not None and when != "True" and not per_seat_when:
            w(f"if {when}:", indent)
            indent += 4
        if bet.seats is None:
            assert bet.seat is not None
            # A post of nothing does nothing (no chips, no option): most tables leave most forced
            # bets at 0, and the seat is not even computed for them.
            seat = compile_source(bet.seat.tree, symbols)
            w(f"amount = {compile_source(bet.amount.tree, symbols)}", indent)
            w("if amount:", indent)
            w(f"self._post({seat}, amount, {flags})", indent + 4)
            continue
        # What does not depend on the seat is decided once, before going round the table.
        amount = compile_source(bet.amount.tree, seat_symbols)
        if not _reads_seat(spec, bet.amount.tree):
            w(f"amount = {compile_source(bet.amount.tree, symbols)}", indent)
            w("if amount > 0:", indent)
            indent += 4
            amount = "amount"
        elif isinstance(bet.amount.tree, ast.Name):  # one per-seat input: nothing to post if all are 0
            w(f"if any({given}._in_{bet.amount.tree.id}):", indent)
            indent += 4
        for inner, line in loop(bet.seats):
            w(line, indent + inner)
        indent += 4
        if per_seat_when and when != "True":
            w(f"if {when}:", indent)
            indent += 4
        w(f"self._post(seat, {amount}, {flags})", indent)


def _reads_seat(spec: Spec, tree: ast.expr) -> bool:
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
        if quantity is not None and (quantity.per_seat or _reads_seat(spec, quantity.expr.tree)):
            return True
    return False


def _table_checks(w: _Writer, spec: Spec, symbols: Mapping[str, Symbol]) -> None:
    w("def _check_table(self) -> None:", 4)
    if not spec.checks:
        w("return None", 8)
    for check in spec.checks:
        w(f"if {_negated(check.expr.tree, symbols)}:", 8)
        text = _text(f"{check.message} (rule {check.rule})", 16)
        w(f"raise InvalidTable({text}, rule={_lit(check.rule)})", 12)
    w()


def _refusal(w: _Writer, spec: Spec, symbols: Mapping[str, Symbol], actions: list[Event]) -> None:
    """``_refusal``: the first requirement not reading 'to' that an action breaks, as an error."""
    w("def _refusal(self, action: str, seat: object, to: object) -> IllegalAction | None:", 4)
    w(repr("Why ``action`` is not possible now (its requirements not reading 'to'), or None."), 8)
    for event in actions:
        rule = next((t.rule for t in spec.transitions if t.event == event.name), "")
        tried = f"seat, {_lit(event.name)}, to"
        w(f"if action == {_lit(event.name)}:", 8)
        w(f"if self._state not in FROM_{event.name.upper()}:", 12)
        w(f"return self._reject('illegal_action', {_lit(rule)}, {tried}, 'not possible now')", 16)
        for requirement in event.requires:
            if not requirement.needs_to:
                _requirement(w, requirement, symbols, tried, 12, verb="return")
        w("return None", 12)
    w("return None", 8)
    w()


def _legal(event: Event, symbols: Mapping[str, Symbol]) -> ast.expr:
    """When ``event`` is possible now: its source states, and its requirements not reading 'to'."""
    state = ast.parse(f"self._state in FROM_{event.name.upper()}", mode="eval").body
    checks = [python(r.expr.tree, symbols) for r in event.requires if not r.needs_to]
    return fold(ast.BoolOp(ast.And(), [state, *checks]))


def _view(w: _Writer, spec: Spec, symbols: Mapping[str, Symbol], actions: list[Event]) -> None:
    """``_compute_view``: legality and bounds in one pass, shared subexpressions computed once."""
    w("def _compute_view(self) -> View:", 4)
    w(repr("What the seat to act may do, computed once per decision and kept until the next event."), 8)
    w(f"{ACTOR} = self._actor", 8)
    w(f"if {ACTOR} < 0:", 8)
    w("self._view = NO_VIEW", 12)
    w("return NO_VIEW", 12)
    # Read often here: the seat to act and the bet level as locals.
    symbols = dict(_symbols(spec, "self", seat=ACTOR))
    symbols["bet_level"] = Symbol.read(symbols["bet_level"].type, "level", "variable")
    w("level = self._bet_level", 8)
    chosen = sorted((e for e in actions if e.name in vocabulary.CHOSEN_ACTIONS), key=lambda e: e.name)
    names = [e.name for e in chosen]
    plan = view_plan(spec, symbols, chosen, _legal)
    call = plan.call
    body = [f"can_{name} = {source(tree)}" for name, tree in plan.legal.items()]
    # The legal tuple for each combination, sorted, looked up by a bit per action.
    bits = " | ".join(f"({2**i} if can_{name} else 0)" for i, name in enumerate(names))
    body.append(f"legal = LEGAL_SETS[{bits}]")
    body.append("view: View")
    for index, (action, lowest, highest) in enumerate(plan.bounds):
        body.append(f"{'if' if index == 0 else 'elif'} can_{action}:")
        body.append(f"    low = {source(lowest)}")
        body.append(f"    view = (legal, {source(call)}, low, {source(highest)})")
    unbounded = f"view = (legal, {source(call)}, None, None)"
    body += ["else:", f"    {unbounded}"] if plan.bounds else [unbounded]
    body += ["self._view = view", "return view"]
    for name, tree in plan.locals:
        w(f"{name} = {source(tree)}", 8)
    for line in body:
        w(line, 8)
    w()


@dataclass(frozen=True)
class ViewPlan:
    """What a view computes: the locals it shares (only those something reads), each chosen
    action's legality, the amount to call, and per wager its bounds (the highest may read the
    lowest as ``low``)."""

    locals: list[Local]
    legal: dict[str, ast.expr]
    call: ast.expr
    bounds: list[tuple[str, ast.expr, ast.expr]]


def view_plan(
    spec: Spec,
    symbols: Mapping[str, Symbol],
    chosen: Sequence[Event],
    legal: Callable[[Event, Mapping[str, Symbol]], ast.expr],
) -> ViewPlan:
    """The view of ``chosen`` (sorted by name), read through ``symbols``; ``legal`` writes when
    one action is possible (its source states, as a back end tests them, and its requirements)."""
    by_name = {e.name: e for e in chosen}
    wagers = [(a, f"{a}_min_to", f"{a}_max_to") for a in vocabulary.WAGERS if a in by_name]
    trees = [r.expr.tree for e in chosen for r in e.requires if not r.needs_to]
    trees += [spec.quantities["call_amount"].expr.tree]
    trees += [spec.quantities[q].expr.tree for _, low, high in wagers for q in (low, high)]
    hoisted, local = _hoisted(trees, spec, symbols)
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
    return ViewPlan(_kept(hoisted, used), legality, call, bounds)


def _action(w: _Writer, spec: Spec, event: Event, symbols: Mapping[str, Symbol]) -> None:
    method = contract.ACTION_METHODS[event.name]
    takes_to = "to" in event.params
    signature = "self, seat: int, to: int" if takes_to else "self, seat: int"
    amount = "to" if takes_to else "None"
    w(f"def {method}({signature}) -> None:", 4)
    w(repr(f"Seat ``seat`` acts: {event.name}. Raises IllegalAction and changes nothing if illegal."), 8)
    w("if seat != self._actor or self._actor < 0 or type(seat) is not int:", 8)
    w(f"self._require_turn(seat, {_lit(event.name)}, {amount})", 12)
    if takes_to:
        w("if type(to) is not int or to < 0:", 8)
        w(f"self._require_amount(seat, {_lit(event.name)}, to)", 12)
    tried = f"seat, {_lit(event.name)}, {amount}"
    rule = next((t.rule for t in spec.transitions if t.event == event.name), "")
    # Requirements not reading 'to' come first (the checker makes sure). A cached view that lists
    # this action proves they all hold on this very state (the view is dropped at every event),
    # so only the amount is left to check, and the first failing requirement is the same.
    independent = []
    for requirement in (r for r in event.requires if not r.needs_to):
        if is_false(negate(python(requirement.expr.tree, symbols))):
            w(f"# {requirement.rule}: always holds in this structure ({requirement.error} never raised)", 8)
        else:
            independent.append(requirement)
    unproven = f"view is None or {_lit(event.name)} not in view[0]"
    refused = f"raise self._reject('illegal_action', {_lit(rule)}, {tried}, 'not possible now')"
    w("view = self._view", 8)
    if not independent:
        w(f"if ({unproven}) and self._state not in FROM_{event.name.upper()}:", 8)
        w(refused, 12)
    else:
        w(f"if {unproven}:", 8)
        w(f"if self._state not in FROM_{event.name.upper()}:", 12)
        w(refused, 16)
        _requirements(w, spec, independent, symbols, tried, 12)
    _requirements(w, spec, [r for r in event.requires if r.needs_to], symbols, tried, 8, with_to=True)
    w(f"self._take_{event.name}({'to' if takes_to else ''})", 8)
    w(f"self._log.append((seat, {_lit(event.name)}, {amount}))", 8)
    w("self._settle()", 8)
    w()


def _requirements(
    w: _Writer,
    spec: Spec,
    requirements: list[Requirement],
    symbols: Mapping[str, Symbol],
    tried: str,
    indent: int,
    with_to: bool = False,
) -> None:
    """The checks of ``requirements`` in order, the quantities they share computed once first."""
    hoisted, local = _hoisted([r.expr.tree for r in requirements], spec, symbols, with_to=with_to)
    used = [negate(python(r.expr.tree, local)) for r in requirements]
    for name, tree in _kept(hoisted, used):
        w(f"{name} = {source(tree)}", indent)
    for requirement in requirements:
        _requirement(w, requirement, local, tried, indent)


def _requirement(
    w: _Writer, requirement: Requirement, symbols: Mapping[str, Symbol], tried: str, indent: int, verb: str = "raise"
) -> None:
    """Reject unless the requirement holds; one the options make always true is only noted."""
    failing_tree = negate(python(requirement.expr.tree, symbols))
    failing = source(failing_tree)
    if is_false(failing_tree):
        w(f"# {requirement.rule}: always holds in this structure ({requirement.error} never raised)", indent)
        return
    w(f"if {failing}:", indent)
    message = _text(requirement.message, indent + 4)
    w(f"{verb} self._reject({_lit(requirement.error)}, {_lit(requirement.rule)}, {tried}, {message})", indent + 4)


def _deal(w: _Writer, spec: Spec) -> None:
    (event,) = [e for e in spec.events.values() if e.kind == "deal"]
    name = event.name.upper()
    w("def deal(self, street: str, **given: object) -> None:", 4)
    w(
        repr(
            "Deal the next street once the betting round is over (or during an all-in runout); "
            "``given`` are the spec's deal inputs."
        ),
        8,
    )
    # Once the pots are paid the hand is closed: nothing but the next table follows.
    w("if self._paid:", 8)
    w(
        'raise self._reject("illegal_action", self.PROCEDURE_RULES["settle"], None, "deal", street, '
        '"the pots are paid: the hand is closed")',
        12,
    )
    w(f"if self.STATE_PHASE[self._state] in {vocabulary.BETTING_PHASES!r}:", 8)
    w('raise self._reject("round_not_over", self.PROCEDURE_RULES["round_not_over"], None, "deal", street)', 12)
    w("if street != self.next_street:", 8)
    w('raise self._reject("illegal_action", self.PROCEDURE_RULES["illegal_deal"], None, "deal", street)', 12)
    w("try:", 8)
    w("self._load_deal(given)", 12)
    w("except InvalidTable as error:", 8)
    w(
        'raise self._reject("illegal_action", self.PROCEDURE_RULES["illegal_deal"], None, "deal", street, '
        "error.message) from None",
        12,
    )
    w(f"self._fire(EVENT_{name}, FAST_{name})", 8)
    w("self._log.append((-1, street, dict(given) if given else None))", 8)
    w("self._settle()", 8)


def _load_deal(w: _Writer, spec: Spec) -> None:
    """``_load_deal``: the spec's deal inputs, their defaults unless given (each deal resets them)."""
    w("def _load_deal(self, given: Mapping[str, object]) -> None:", 4)
    for item in spec.deal_inputs.values():
        w(f"self._dl_{item.name} = {_default_source(item)}", 8)
    if not spec.deal_inputs:
        w("if given:", 8)
        w('raise InvalidTable(f"nothing is given with a deal in this structure, not {sorted(given)}")', 12)
        w()
        return
    w("for name, value in given.items():", 8)
    choices = ", ".join(sorted(spec.deal_inputs))
    for index, item in enumerate(spec.deal_inputs.values()):
        check = _input_check(item, "value")[0]
        w(f"{'if' if index == 0 else 'elif'} name == {_lit(item.name)}:", 12)
        w(f"self._dl_{item.name} = {check}", 16)
    w("else:", 12)
    w(f'raise InvalidTable(f"a deal gives only {choices}, not {{name!r}}")', 16)
    w()


GENERATED_INIT = '"""Engines generated from spec/*.json by `betspec generate`. Do not edit: regenerate."""\n'


class PythonBackend:
    name = "python"
    owns: tuple[tuple[str, tuple[str, ...]], ...] = (("generated", (".py",)),)

    def render(self, specs: Sequence[Spec], root: str, context: Context | None = None) -> dict[str, str]:
        files = {"generated/__init__.py": GENERATED_INIT}
        for spec in specs:
            if not spec.abstract:
                files[f"generated/{spec.name}.py"] = generate(spec, root)
        return files


BACKEND = register(PythonBackend())
