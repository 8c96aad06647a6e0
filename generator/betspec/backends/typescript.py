"""The TypeScript back end: each concrete spec's engine as a TypeScript module, printed from the
engine plan, on the hand-written TypeScript runtime (``betspec/runtime/typescript/runtime.ts``).

What it writes, under ``generated/typescript/``: ``src/<spec>.ts`` (one engine class per concrete
spec: its rules table, quantity functions, guards and effects, transition tables, the view and
every action), ``src/runtime.ts`` (the runtime, copied), ``src/vocabulary.ts`` (the words the
runtime shares with the Python one, from :mod:`betspec.vocabulary`), ``src/index.ts`` (every
engine by name), and the package around them (``package.json``, ``tsconfig.json``): an npm
package a web client installs and imports one structure of, with types.

It reads the plan as the Python and Cython back ends do (scopes, callbacks, steps, the view,
forced bets), with accessors of its own where the Python ones read Python's containers
(:data:`TS_ACCESSORS`), and prints expressions with :mod:`betspec.backends.tsexpr`. Every text
from a spec reaches the output as a JSON string literal; the only identifiers in the output are
the ones the plan makes from the schema's names. A plan element this printer does not know (a
primitive, an action, an input type, an expression node) is refused with a
:class:`~betspec.backends.base.BackendError` naming it, never printed wrongly.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping, Sequence
from dataclasses import fields
from pathlib import Path

from betspec import __version__, vocabulary
from betspec.backends import ir
from betspec.backends.base import BackendError, Context, header_lines, register
from betspec.backends.plan import (
    ACTOR,
    INPUT_VALUE_TYPES,
    Do,
    Let,
    Statement,
    Store,
    checks_method,
    chosen_actions,
    fired_events,
    forced_bets_method,
    hoisted,
    kept,
    legal_when,
    roles_method,
    scope,
    view_plan,
)
from betspec.backends.plan import callbacks as plan_callbacks
from betspec.backends.pyexpr import Symbol, is_false, negate, python
from betspec.backends.tsexpr import literal, string, ts
from betspec.backends.writer import Writer
from betspec.model import Event, Input, Option, Requirement, Spec
from betspec.runtime.mechanisms import KINDS, MECHANISMS, arguments

FOLDER = "generated/typescript"
SOURCES = f"{FOLDER}/src"
#: The hand-written runtime the modules run on, copied into the package.
RUNTIME_SOURCE = Path(__file__).resolve().parent.parent / "runtime" / "typescript" / "runtime.ts"
#: The npm package's name: ``import { NoLimit } from "betspec-engines/no_limit"``.
PACKAGE = "betspec-engines"

#: How TypeScript reads the vocabulary's variables: as the Python engine does, but for what the
#: Python engine reads from a dict (declarations out of turn: the runtime's methods instead).
#: Written out, not derived from the Python back end's: a variable added to the vocabulary is
#: refused here (by name) until the TypeScript runtime holds it.
TS_ACCESSORS: dict[str, str] = {
    "stack": "{m}._behind[{seat}]",
    "committed": "{m}._put_in[{seat}]",
    "contributed": "{m}._contributed[{seat}]",
    "has_acted": "{m}._acted[{seat}]",
    "acted_at": "{m}._acted_at[{seat}]",
    "bet_level": "{m}._bet_level",
    "pot": "{m}._pot",
    "street": "{m}._street",
    "last_street": "LAST_STREET",
    "seats": "{m}._n",
    "button": "{m}._button",
    "actor": "{seat}",
    "last_live_seat": "{m}._last_live",
    "nominal_level": "{m}._nominal",
    "posted_live": "{m}._posted_live",
    "posted_dead": "{m}._posted_dead",
    "forced_raises": "{m}._forced_raises",
    "players_in": "{m}._players_in",
    "seats_left": "{m}._seats_left()",
    "able": "{m}._able_count",
    "others_able": "{m}._others_able()",
    "answerable": "{m}._answerable()",
    "able_owing": "{m}._able_owing()",
    "pending": "{m}._pending()",
    "action_pending": "({seat} >= 0)",
    "declared_call": "({m}._declared == 1)",
    "declared_wager": "({m}._declared == 2)",
    "bet_announced": "({m}._announced == {m}._bet_level)",
    "out_of_turn_declared": "{m}._oot_declared({seat})",
    "out_of_turn_to": "{m}._oot_to({seat})",
    "out_of_turn_level": "{m}._oot_level({seat})",
    "last_raise": "{m}._last_raise",
    "last_full_level": "{m}._last_full_level",
    "raises": "{m}._raises",
}
#: The event kinds and state phases the TypeScript runtime plays.
KNOWN_EVENT_KINDS = ("start", "action", "automatic", "deal")
KNOWN_PHASES = ("start", "unopened", "facing_bet", "complete", "runout", "showdown", "settled", "dead")
#: The TypeScript Engine's own members: an action of a spec's own may not take one of these names
#: (beside the vocabulary's ENGINE_API, which the front end refuses).
TS_ENGINE_MEMBERS = frozenset(
    {"allIn", "bringIn", "callAmount", "constructor", "legalActions", "meta", "nextTable", "observed", "raise"}
    | {"raiseTo", "restore", "roundOver", "streetName", "toAct", "totalChips", "handOver", "betLevel", "maxTo"}
    | {"minTo", "nextStreet", "declareOutOfTurn"}
)
#: What of a spec this printer reads: a field the model gains is refused while it holds anything.
KNOWN_SPEC_FIELDS = frozenset(
    [
        "name",
        "title",
        "description",
        "path",
        "files",
        "hash",
        "abstract",
        "rules",
        "options",
        "variables",
        "primitives",
        "quantities",
        "states",
        "initial",
        "procedure_rules",
        "events",
        "transitions",
        "push_rulings",
        "checks",
        "inputs",
        "roles",
        "forced_bets",
        "streets",
        "next_hand",
        "street_values",
        "deal_inputs",
    ]
)

#: The runtime method each primitive of the vocabulary calls.
TS_PRIMITIVES: dict[str, str] = {
    "post_forced_bets": "_postForcedBets",
    "begin_street": "_begin_street",
    "open_betting": "_open_betting",
    "commit": "_commit",
    "check": "_mark_checked",
    "fold": "_mark_folded",
    "pass_action": "_pass_action",
    "close_round": "_close_round",
    "deal": "_deal_runout",
}

#: The engine method that takes each action of the vocabulary.
TS_ACTIONS: dict[str, str] = {
    "fold": "fold",
    "check": "check",
    "call": "call",
    "bet": "bet",
    "raise": "raise",
    "timeout": "timeout",
    "bring_in": "bringIn",
}

_TS_TYPES = {"int": "number", "bool": "boolean", "int?": "number | null", "choice": "string", "seat": "number"}

#: The model's name in every generated function and method (``const m = this`` in methods).
MODEL = "m"

RUNTIME_IMPORTS = (
    "Engine",
    "IllegalAction",
    "InvalidTable",
    "MAX_CHIPS",
    "NO_VIEW",
    "Said",
    "boolInput",
    "boolOption",
    "ceilTo",
    "choiceInput",
    "choiceOption",
    "fire",
    "floorTo",
    "intInput",
    "intOption",
    "isInt",
    "itemsInput",
    "mod",
    "optionalIntInput",
    "optionalIntOption",
    "optionalSeatInput",
    "perSeatInput",
    "requiredInput",
    "restore",
    "seatInput",
    "seatsInput",
    "shown",
    "unknownInputs",
)
RUNTIME_TYPES = ("Declared", "SpecMeta", "StartJson", "Step", "TableJson", "View")


def _refuse(what: str, spec: Spec) -> BackendError:
    return BackendError(
        f"{spec.name}: the TypeScript back end does not know {what}; it prints nothing it cannot print right"
    )


def _known(spec: Spec) -> None:
    """Refuse, naming it, what of the spec this printer does not know how to print."""
    for found in fields(spec):
        if found.name not in KNOWN_SPEC_FIELDS and getattr(spec, found.name):
            raise _refuse(f"the spec's {found.name}", spec)
    for name in spec.variables:
        if name not in TS_ACCESSORS and not spec.variables[name].declared:
            raise _refuse(f"the variable {name!r}", spec)
    for event in spec.events.values():
        if event.kind not in KNOWN_EVENT_KINDS:
            raise _refuse(f"the event kind {event.kind!r} (of {event.name})", spec)
    for state in spec.states.values():
        if state.phase not in KNOWN_PHASES:
            raise _refuse(f"the phase {state.phase!r} (of state {state.name})", spec)
    for primitive in spec.primitives:
        if primitive not in TS_PRIMITIVES:
            raise _refuse(f"the primitive {primitive!r}", spec)


def _symbols(spec: Spec, seat: str | None = None) -> dict[str, Symbol]:
    """The plan's scope, read as TypeScript reads it (the engine always named ``m``)."""
    return scope(spec, MODEL, TS_ACCESSORS, seat=seat)


def _header(spec: Spec, root: str) -> list[str]:
    lines = [f"// {line}" for line in header_lines(spec, root)]
    lines.append(f"// Printed by betspec {__version__} (the TypeScript back end) from the engine plan.")
    return lines


def _ts_type(kind: str) -> str:
    return _TS_TYPES.get(INPUT_VALUE_TYPES.get(kind, kind), "string")


def _option_type(option: Option) -> str:
    if option.type == "choice":
        return " | ".join(string(choice) for choice in option.choices)
    return _TS_TYPES[option.type]


def _input_type(item: Input) -> str:
    if item.type == "seats":
        return "number[]"
    base = _ts_type(item.type)
    return f"({base})[]" if item.per_seat else base


def _declared(name: str, kind: str, default: object, required: bool, extra: Mapping[str, object]) -> str:
    fields = [f"name: {string(name)}", f"type: {string(kind)}"]
    if required:
        fields.append("required: true")
    else:
        fields.append(f"default: {literal(default)}")
    for key, value in extra.items():
        if value not in (None, (), [], False):
            fields.append(f"{key}: {literal(list(value) if isinstance(value, tuple) else value)}")
    return "{ " + ", ".join(fields) + " }"


class _Statements(ir.Printer[None]):
    """Prints a method of the engine plan as TypeScript (the hand is ``m``)."""

    def __init__(self, w: Writer, symbols: Mapping[str, Symbol], seat_symbols: Mapping[str, Symbol]) -> None:
        self.w, self.symbols, self.seat_symbols = w, symbols, seat_symbols

    def tree(self, expr: ir.SpecExpr) -> ast.expr:
        return python(expr.tree, self.seat_symbols if expr.per_seat else self.symbols)

    def value(self, value: ir.Value) -> str:
        if isinstance(value, ir.SpecExpr):
            return ts(self.tree(value))
        if isinstance(value, ir.Local):
            return value.name
        if isinstance(value, ir.RoleSeat):
            return f"m._role_{value.role}"
        return literal(value.value)

    def test(self, test: ir.Condition) -> str:
        if isinstance(test, ir.Holds):
            return ts(self.tree(test.expr))
        if isinstance(test, ir.Fails):
            return ts(negate(self.tree(test.expr)))
        if isinstance(test, ir.NotASeat):
            seat = self.value(test.value)
            return f"!(0 <= {seat} && {seat} < m._n)"
        if isinstance(test, ir.NonZero):
            return f"{test.local.name} !== 0"
        if isinstance(test, ir.Positive):
            return f"{test.local.name} > 0"
        if isinstance(test, ir.AnyGiven):
            return f"m._in_{test.input}.some((value) => Boolean(value))"
        return f"({self.test(test.first)}) && {self.test(test.second)}"

    def call(self, node: ir.Call) -> str:
        given = {name: self.value(value) for name, value in node.args}
        return f"m.{node.mechanism}({', '.join(arguments(node.mechanism, given))});"

    def block(self, opening: str, body: tuple[ir.Statement, ...]) -> None:
        self.w(f"{opening}{{")
        with self.w.indented():
            self.visit_all(body)
        self.w("}")

    def visit_Let(self, node: ir.Let) -> None:
        self.w(f"const {node.local.name} = {self.value(node.value)};")

    def visit_SetRole(self, node: ir.SetRole) -> None:
        self.w(f"m._role_{node.role} = {self.value(node.value)};")

    def visit_If(self, node: ir.If) -> None:
        if len(node.body) == 1 and isinstance(node.body[0], ir.Call):
            self.w(f"if ({self.test(node.test)}) {self.call(node.body[0])}")
        else:
            self.block(f"if ({self.test(node.test)}) ", node.body)

    def visit_ForSeats(self, node: ir.ForSeats) -> None:
        seats = "m._from_button()" if node.seats is None else f"m._in_{node.seats}"
        self.block(f"for (const seat of {seats}) ", node.body)

    def visit_Block(self, node: ir.Block) -> None:
        self.block("", node.body)

    def visit_Call(self, node: ir.Call) -> None:
        self.w(self.call(node))

    def visit_RefuseTable(self, node: ir.RefuseTable) -> None:
        message = " + ".join(string(part) if isinstance(part, str) else self.value(part) for part in node.message)
        rule = "" if node.rule is None else f", {string(node.rule)}"
        self.w(f"throw new InvalidTable({message}{rule});")


class _Module:
    """One spec's module as it is printed."""

    def __init__(self, spec: Spec, root: str) -> None:
        _known(spec)
        self.spec = spec
        self.root = root
        self.cls = spec.class_name
        self.w = Writer()
        self.symbols = _symbols(spec)
        self.found = plan_callbacks(spec, self.symbols)

    # ---- the module -------------------------------------------------------------------------

    def text(self) -> str:
        spec, w = self.spec, self.w
        for event in spec.events.values():
            if event.kind == "action" and event.name not in TS_ACTIONS and not event.own:
                raise _refuse(f"the action {event.name!r}", spec)
            if event.own and _own_method(event.name) in TS_ENGINE_MEMBERS:
                raise _refuse(f"an action of its own named {event.name!r} (a member of the TypeScript engine)", spec)
        for line in _header(spec, self.root):
            w(line)
        w(f"/** {_comment(spec.title + (': ' + spec.description if spec.description else ''))} */")
        w()
        w(f'import {{ {", ".join(RUNTIME_IMPORTS)} }} from "./runtime.js";')
        w(f'import type {{ {", ".join(RUNTIME_TYPES)} }} from "./runtime.js";')
        w("// What a client of this structure handles besides the engine: its errors and data.")
        w('export { BetspecError, IllegalAction, InvalidTable, SnapshotError } from "./runtime.js";')
        w('export type { Pot, Ruling, Settlement, StartJson, TableJson } from "./runtime.js";')
        w()
        w(f"export const SPEC_NAME = {string(spec.name)};")
        w(f"export const SPEC_HASH = {string(spec.hash)};")
        w("/** The spec's streets (its betting rounds), in order. */")
        w(f"export const STREETS: readonly string[] = {literal([s.name for s in spec.streets])};")
        w(f"const LAST_STREET = {len(spec.streets) - 1};")
        for value in spec.street_values.values():
            values = [street.values[value.name] for street in spec.streets]
            w(f"/** {_comment(value.meaning)} ({value.name}), street by street. */")
            w(f"const SV_{value.name.upper()}: readonly {_ts_type(value.type)}[] = {literal(values)};")
        w()
        self._rules()
        self._options_interface()
        self._meta()
        self._quantities()
        self._push_ruling()
        self._callbacks()
        self._tables()
        self._class()
        return w.text()

    def _rules(self) -> None:
        w = self.w
        w("/** Rule id -> [text, source], as the spec's rules table states them. */")
        w("const RULES: Readonly<Record<string, readonly [string, string]>> = {")
        for rule in self.spec.rules.values():
            w(f"{string(rule.id)}: [", 2)
            w(f"{string(rule.text)},", 4)
            w(f"{string(rule.source)},", 4)
            w("],", 2)
        w("};")
        w()

    def _options_interface(self) -> None:
        w, spec = self.w, self.spec
        w(f"/** The options of {spec.name}, each with the spec's default when left out. */")
        w(f"export interface {self.cls}Options {{")
        for option in spec.options.values():
            w(f"/** {_comment(option.meaning)} */", 2)
            w(f"{option.name}?: {_option_type(option)};", 2)
        w("}")
        w()

    def _meta(self) -> None:
        w, spec = self.w, self.spec
        w("/** What the runtime reads of this spec. */")
        w("export const META: SpecMeta = {")
        w("name: SPEC_NAME,", 2)
        w("hash: SPEC_HASH,", 2)
        w("rules: RULES,", 2)
        rules = ", ".join(f"{string(k)}: {string(v)}" for k, v in sorted(spec.procedure_rules.items()))
        w(f"procedureRules: {{ {rules} }},", 2)
        w("streets: STREETS,", 2)
        phases = ", ".join(f"{string(s.name)}: {string(s.phase)}" for s in spec.states.values())
        w(f"statePhase: {{ {phases} }},", 2)
        w(f"initial: {string(spec.initial)},", 2)
        defaults = ", ".join(f"{string(o.name)}: {literal(o.default)}" for o in spec.options.values())
        w(f"optionDefaults: {{ {defaults} }},", 2)
        w("options: {", 2)
        for o in spec.options.values():
            extra: dict[str, object] = {"minimum": o.minimum, "maximum": o.maximum, "choices": tuple(o.choices)}
            w(f"{string(o.name)}: {_declared(o.name, o.type, o.default, False, extra)},", 4)
        w("},", 2)
        for key, items in (("inputs", spec.inputs), ("dealInputs", spec.deal_inputs)):
            w(f"{key}: {{", 2)
            for item in items.values():
                extra = {
                    "minimum": item.minimum,
                    "maximum": item.maximum,
                    "choices": tuple(item.choices),
                    "items": tuple(item.items),
                    "perSeat": item.per_seat,
                    "example": item.example,
                    "hand": item.hand,
                }
                w(f"{string(item.name)}: {_declared(item.name, item.type, item.default, item.required, extra)},", 4)
            w("},", 2)
        w(f"settleLimit: {len(spec.states)},", 2)
        declared = ", ".join(f"{string(v.name)}: {string(v.scope)}" for v in spec.variables.values() if v.declared)
        w(f"declaredVariables: {{ {declared} }},", 2)
        w(f"ownActions: {literal([e.name for e in spec.events.values() if e.own])},", 2)
        w("};")
        w()

    # ---- functions --------------------------------------------------------------------------

    def _quantities(self) -> None:
        w, spec = self.w, self.spec
        seat_symbols = _symbols(spec, seat="seat")
        for quantity in spec.quantities.values():
            params = f"{MODEL}: {self.cls}"
            if quantity.per_seat:
                params += ", seat: number"
            elif quantity.needs_to:
                params += ", to: number"
            symbols = seat_symbols if quantity.per_seat else self.symbols
            w(f"/** {_comment(quantity.meaning)} (rule {_comment(quantity.rule)}). */")
            w(f"function q_{quantity.name}({params}): {_TS_TYPES[quantity.type]} {{")
            w(f"return {ts(python(quantity.expr.tree, symbols))};", 2)
            w("}")
            w()

    def _push_ruling(self) -> None:
        w, spec = self.w, self.spec
        w("/** How chips pushed, with what was said, are ruled: [fold|check|call|wager|withdraw, to, rule]. */")
        params = f"{MODEL}: {self.cls}, pushed: number, chips: number, largest_chip: number, said: Said"
        w(f"function push_ruling({params}): [string, number | null, string] {{")
        w("const said_fold = said.fold, said_check = said.check, said_call = said.call;", 2)
        w("const said_bet = said.bet, said_raise = said.raise_, said_to = said.to;", 2)
        w("void [pushed, chips, largest_chip, said_fold, said_check, said_call, said_bet, said_raise, said_to];", 2)
        finished = False
        for entry in spec.push_rulings:
            to = ts(python(entry.to.tree, self.symbols)) if entry.to is not None else "null"
            result = f"return [{string(entry.ruling)}, {to}, {string(entry.rule)}];"
            if entry.when.is_constant and entry.when.constant is True:
                w(result, 2)
                finished = True
                break
            w(f"if ({ts(python(entry.when.tree, self.symbols))}) {{", 2)
            w(result, 4)
            w("}", 2)
        if not finished:
            w('return ["withdraw", null, ""];', 2)
        w("}")
        w()

    def _statements(self, statements: Sequence[Statement], indent: int) -> None:
        declared: set[str] = set()
        for statement in statements:
            if isinstance(statement, Let):
                keyword = "" if statement.name in declared else "let "
                declared.add(statement.name)
                self.w(f"{keyword}{statement.name} = {ts(statement.value)};", indent)
            elif isinstance(statement, Store):
                variable = self.spec.variables.get(statement.variable)
                if variable is not None and variable.declared:
                    template = statement.target  # a field of the engine, as the plan names it
                elif statement.variable in TS_ACCESSORS:
                    template = TS_ACCESSORS[statement.variable]
                else:
                    raise _refuse(f"the variable {statement.variable!r}", self.spec)
                target = template.format(m=MODEL, seat=f"{MODEL}._actor")
                self.w(f"{ts(ast.parse(target, mode='eval').body)} = {statement.value};", indent)
            elif isinstance(statement, Do):
                method = TS_PRIMITIVES.get(statement.primitive)
                if method is None:
                    raise _refuse(f"the primitive {statement.primitive!r}", self.spec)
                args = ", ".join(ts(arg) for arg in statement.args)
                self.w(f"{MODEL}.{method}({args});", indent)
            else:  # pragma: no cover - the plan has no other statement
                raise _refuse(f"the statement {statement!r}", self.spec)

    def _callbacks(self) -> None:
        w, found, cls = self.w, self.found, self.cls
        w("// ---- guards and effects ----")
        w()
        for name, statements in found.starts.items():
            w(f"/** What {name} does before its guards choose the first state. */")
            w(f"function on_{name}({MODEL}: {cls}): void {{")
            self._statements(statements, 2)
            w("}")
            w()
        for name, guard in found.guards.items():
            to = "to" if guard.takes_to else "_to"
            w(f"function {name}({MODEL}: {cls}, {to}: number): boolean {{")
            w(f"return {ts(guard.test)};", 2)
            w("}")
            w()
        for name, effect in found.effects.items():
            to = "to" if effect.takes_to else "_to"
            w(f"function {name}({MODEL}: {cls}, {to}: number): void {{")
            self._statements(effect.body, 2)
            w("}")
            w()

    def _tables(self) -> None:
        w, spec, found, cls = self.w, self.spec, self.found, self.cls
        w("// The spec's transitions as tables: per source state, in the spec's order, [guard, effect,")
        w("// destination]; the first whose guard holds is taken.")
        automatic: dict[str, list[str]] = {}
        for event in fired_events(spec):
            by_source: dict[str, list[str]] = {}
            for index, t in enumerate(spec.transitions):
                if t.event == event.name:
                    guard, effect = found.of[index]
                    step = f"[{guard or 'null'}, {effect or 'null'}, {string(t.dest)}]"
                    by_source.setdefault(t.source, []).append(step)
            if event.kind == "automatic":
                for state, steps in by_source.items():
                    automatic.setdefault(state, []).extend(steps)
                continue
            self._table(f"T_{event.name.upper()}", by_source, cls)
        self._table("AUTOMATIC", automatic, cls)
        for event in spec.events.values():
            if event.kind in ("action", "deal"):
                members = sorted({t.source for t in spec.transitions if t.event == event.name})
                w(f"const FROM_{event.name.upper()}: ReadonlySet<string> = new Set({literal(members)});")
        w()

    def _table(self, name: str, by_source: Mapping[str, list[str]], cls: str) -> None:
        w = self.w
        w(f"const {name}: Readonly<Record<string, readonly Step<{cls}>[]>> = {{")
        for state, steps in by_source.items():
            w(f"{string(state)}: [{', '.join(steps)}],", 2)
        w("};")

    # ---- the class --------------------------------------------------------------------------

    def _class(self) -> None:
        w, spec, cls = self.w, self.spec, self.cls
        w(f"/** {_comment(spec.title)}: one hand. {_comment(spec.description)} */")
        w(f"export class {cls} extends Engine {{")
        for option in spec.options.values():
            w(f"/** @internal */ _opt_{option.name}!: {_option_type(option)};", 2)
        for item in spec.inputs.values():
            for name in item.names:
                kind = "number" if item.items else _input_type(item)
                w(f"/** @internal */ _in_{name}!: {kind};", 2)
        for name in spec.roles:
            w(f"/** @internal */ _role_{name}!: number;", 2)
        for item in spec.deal_inputs.values():
            w(f"/** @internal */ _dl_{item.name}!: {_input_type(item)};", 2)
        for variable in (v for v in spec.variables.values() if v.declared):
            kind = _TS_TYPES[variable.type]
            w(f"/** @internal */ _v_{variable.name}!: {f'({kind})[]' if variable.scope == 'seat' else kind};", 2)
        w()
        self._constructor()
        w("/** The hand a snapshot (of this engine or the Python one) was taken from. */", 2)
        w(f"static restore(data: unknown): {cls} {{", 2)
        w(f"return restore(data, {cls}, META);", 4)
        w("}", 2)
        w()
        self._begin()
        self._load_inputs()
        self._load_deal()
        self._plan_method(roles_method(self.spec), "protected _computeRoles(): void")
        self._plan_method(forced_bets_method(self.spec, self.symbols), "_postForcedBets(): void")
        self._plan_method(checks_method(self.spec), "protected _checkTable(): void")
        seat_symbols = _symbols(spec, seat="seat")
        self._method(
            "_playable(seat: number): number",
            [f"return {ts(python(spec.quantities['playable'].expr.tree, seat_symbols))};"],
        )
        self._method("protected _allInTo(): number", [f"return {ts(self.symbols['all_in_to'].tree)};"])
        assert spec.next_hand is not None
        given = ", ".join(
            f"{string(name)}: {ts(python(expr.tree, self.symbols))}" for name, expr in spec.next_hand.inputs.items()
        )
        button = ts(python(spec.next_hand.button.tree, self.symbols))
        self._method("protected _nextHand(): [number, Record<string, unknown>]", [f"return [{button}, {{ {given} }}];"])
        odd = ts(python(spec.quantities["odd_chip_after"].expr.tree, self.symbols))
        self._method("protected _oddChipAfter(): number", [f"return {odd};"])
        self._method(
            "protected _pushRuling(pushed: number, chips: number, largest: number, said: Said)"
            ": [string, number | null, string]",
            ["return push_ruling(this, pushed, chips, largest, said);"],
        )
        deal = next((e for e in fired_events(spec) if e.kind == "deal"), None)
        if deal is None:
            raise _refuse("a spec with no deal event", spec)
        table = f"T_{deal.name.upper()}"
        self._method(
            "protected _dealOpen(): boolean",
            [
                f"for (const [guard] of {table}[m._state] ?? []) {{",
                "  if (guard === null || guard(m, 0)) return true;",
                "}",
                "return false;",
            ],
        )
        self._method("protected _takeDeal(): void", [f"fire(m, {table}, 0);"])
        self._method("protected _automatic(): boolean", ["return fire(m, AUTOMATIC, 0);"])
        actions = [e for e in spec.events.values() if e.kind == "action"]
        self._refusal(actions)
        self._view()
        for event in actions:
            self._action(event)
        self._deal()
        w("}")
        w()
        w("/** The engine class of this module. */")
        w(f"export const ENGINE = {cls};")
        w(f"export default {cls};")

    def _method(self, signature: str, body: Sequence[str]) -> None:
        w = self.w
        w("/** @internal */", 2)
        w(f"{signature} {{", 2)
        w("const m = this;", 4)
        for line in body:
            w(line, 4)
        w("}", 2)
        w()

    def _constructor(self) -> None:
        w, spec, cls = self.w, self.spec, self.cls
        w("/** A hand on `table`; `start` begins on a later street with a pot instead of blinds. */", 2)
        w(f"constructor(table: TableJson, options: {cls}Options = {{}}, start: StartJson | null = null) {{", 2)
        w("super(META);", 4)
        w("const given = this._givenOptions(options);", 4)
        for option in spec.options.values():
            name = string(option.name)
            value = f"({name} in given ? given[{name}] : {literal(option.default)})"
            if option.type == "choice":
                check = f"choiceOption({name}, {value}, {literal(list(option.choices))} as const)"
            elif option.type == "bool":
                check = f"boolOption({name}, {value})"
            elif option.type == "int":
                check = f"intOption({name}, {value}, {literal(option.minimum)}, {literal(option.maximum)})"
            elif option.type == "int?":
                check = f"optionalIntOption({name}, {value}, {literal(option.minimum)}, {literal(option.maximum)})"
            else:
                raise _refuse(f"the option type {option.type!r}", spec)
            w(f"this._opt_{option.name} = {check};", 4)
        names = ", ".join(f"{string(o.name)}: this._opt_{o.name}" for o in spec.options.values())
        w(f"this._options = {{ {names} }};", 4)
        w("this._setup(table, start);", 4)
        w("}", 2)
        w()

    def _begin(self) -> None:
        lines: list[str] = []
        starts = [e for e in fired_events(self.spec) if e.kind == "start"]
        for blinds in (True, False):
            for event in (e for e in starts if e.blinds == blinds):
                pad = "  " if blinds else ""
                if blinds:
                    lines.append("if (street === null) {")
                if event.name in self.found.starts:
                    lines.append(f"{pad}on_{event.name}(m);")
                lines.append(f"{pad}fire(m, T_{event.name.upper()}, 0);")
                if blinds:
                    lines += ["  return;", "}"]
        if not lines:
            lines.append("void street;")
        reset = []
        for variable in (v for v in self.spec.variables.values() if v.declared):
            value = literal(variable.default)
            fresh = f"new Array<{_TS_TYPES[variable.type]}>(m._n).fill({value})" if variable.scope == "seat" else value
            reset.append(f"m._v_{variable.name} = {fresh};")
        self._method("protected _begin(street: string | null): void", ["void street;", *reset, *lines])

    def _input_check(self, item: Input, value: str) -> str:
        name = string(item.name)
        bounds = f"{literal(item.minimum)}, {literal(item.maximum)}"
        if item.type == "seats":
            return f"seatsInput({name}, {value}, m._n)"
        if item.items:
            return f"itemsInput({name}, {value}, {len(item.items)}, {bounds})"
        if item.per_seat:
            element = {
                "int": f"(n, v) => intInput(n, v, {bounds})",
                "int?": f"(n, v) => optionalIntInput(n, v, {bounds})",
                "bool": "boolInput",
            }.get(item.type)
            if element is None:
                raise _refuse(f"a per-seat input of type {item.type!r}", self.spec)
            return f"perSeatInput({name}, {value}, m._n, {element})"
        if item.type in ("seat", "seat?"):
            function = "optionalSeatInput" if item.type == "seat?" else "seatInput"
            return f"{function}({name}, {value}, m._n)"
        if item.type == "choice":
            return f"choiceInput({name}, {value}, {literal(list(item.choices))})"
        if item.type == "bool":
            return f"boolInput({name}, {value})"
        if item.type in ("int", "int?"):
            function = "optionalIntInput" if item.type == "int?" else "intInput"
            return f"{function}({name}, {value}, {bounds})"
        raise _refuse(f"the input type {item.type!r}", self.spec)

    def _default(self, item: Input) -> str:
        if item.per_seat:
            return f"new Array(m._n).fill({literal(item.default)})"
        return literal(item.default)

    def _load_inputs(self) -> None:
        spec = self.spec
        lines: list[str] = []
        for item in spec.inputs.values():
            if item.required:
                lines += [
                    f"if (!({string(item.name)} in given)) {{",
                    f"  throw requiredInput(SPEC_NAME, {string(item.name)});",
                    "}",
                ]
        for item in spec.inputs.values():
            if not item.required:
                if item.items:
                    targets = ", ".join(f"m._in_{name}" for name in item.names)
                    lines.append(f"[{targets}] = {self._default(item)} as number[];")
                else:
                    lines.append(f"m._in_{item.name} = {self._default(item)};")
        lines.append("for (const [name, value] of Object.entries(given)) {")
        lines.append("  switch (name) {")
        for item in spec.inputs.values():
            lines.append(f"    case {string(item.name)}:")
            if item.items:
                targets = ", ".join(f"m._in_{name}" for name in item.names)
                lines.append(f"      [{targets}] = {self._input_check(item, 'value')} as [number, ...number[]];")
            else:
                lines.append(f"      m._in_{item.name} = {self._input_check(item, 'value')};")
            lines.append("      break;")
        lines.append("    default:")
        lines.append(f"      unknownInputs(SPEC_NAME, given, {literal(sorted(spec.inputs))});")
        lines += ["  }", "}"]
        self._method("protected _loadInputs(given: Record<string, unknown>): void", lines)

    def _load_deal(self) -> None:
        spec = self.spec
        # Every value checked before any is kept: a refused deal changes nothing.
        lines = [
            f"let dl_{item.name}: {_input_type(item)} = {self._default(item)};" for item in spec.deal_inputs.values()
        ]
        if not spec.deal_inputs:
            lines += [
                "const names = Object.keys(given).sort();",
                "if (names.length) {",
                "  throw new InvalidTable(`nothing is given with a deal in this structure, not ${shown(names)}`);",
                "}",
            ]
        else:
            choices = ", ".join(sorted(spec.deal_inputs))
            lines.append("for (const [name, value] of Object.entries(given)) {")
            for index, item in enumerate(spec.deal_inputs.values()):
                keyword = "if" if index == 0 else "} else if"
                lines.append(f"  {keyword} (name === {string(item.name)}) {{")
                lines.append(f"    dl_{item.name} = {self._input_check(item, 'value')};")
            lines.append("  } else {")
            lines.append(
                f"    throw new InvalidTable({string('a deal gives only ' + choices + ', not ')} + shown(name));"
            )
            lines += ["  }", "}"]
            lines += [f"m._dl_{item.name} = dl_{item.name};" for item in spec.deal_inputs.values()]
        self._method("_loadDeal(given: Record<string, unknown>): void", lines)

    def _plan_method(self, method: ir.Method, signature: str) -> None:
        """A method of the engine plan, printed by :class:`_Statements`."""
        w = Writer(step=2)
        _Statements(w, self.symbols, _symbols(self.spec, seat="seat")).visit_all(method.body)
        self._method(signature, w.lines or ["return;"])

    def _requirement_lines(
        self, requirement: Requirement, symbols: Mapping[str, Symbol], tried: str, verb: str
    ) -> list[str]:
        failing = negate(python(requirement.expr.tree, symbols))
        if is_false(failing):
            return [f"// {requirement.rule}: always holds in this structure ({requirement.error} never raised)"]
        code, rule, message = string(requirement.error), string(requirement.rule), string(requirement.message)
        reject = f"m._reject({code}, {rule}, {tried}, {message})"
        return [f"if ({ts(failing)}) {{", f"  {verb} {reject};", "}"]

    def _refusal(self, actions: list[Event]) -> None:
        spec = self.spec
        lines: list[str] = []
        for event in actions:
            rule = next((t.rule for t in spec.transitions if t.event == event.name), "")
            tried = f"seat, {string(event.name)}, to"
            lines.append(f"if (action === {string(event.name)}) {{")
            lines.append(f"  if (!FROM_{event.name.upper()}.has(m._state)) {{")
            lines.append(f'    return m._reject("illegal_action", {string(rule)}, {tried}, "not possible now");')
            lines.append("  }")
            for requirement in event.requires:
                if not requirement.needs_to:
                    lines += [
                        "  " + line for line in self._requirement_lines(requirement, self.symbols, tried, "return")
                    ]
            lines.append("  return null;")
            lines.append("}")
        lines.append("return null;")
        self._method("protected _refusal(action: string, seat: unknown, to: unknown): IllegalAction | null", lines)

    def _view(self) -> None:
        spec = self.spec
        symbols = dict(_symbols(spec, seat=ACTOR))
        symbols["bet_level"] = Symbol.read(symbols["bet_level"].type, "level", "variable")
        chosen = chosen_actions(spec)

        def legal(event: Event, local: Mapping[str, Symbol]) -> ast.expr:
            sources = ast.parse(f"FROM_{event.name.upper()}.has({MODEL}._state)", mode="eval").body
            return legal_when(sources, event, local)

        plan = view_plan(spec, symbols, chosen, legal)
        lines = [
            f"const {ACTOR} = m._actor;",
            f"if ({ACTOR} < 0) {{",
            "  m._view = NO_VIEW;",
            "  return NO_VIEW;",
            "}",
            "const level = m._bet_level;",
        ]
        lines += [f"const {name} = {ts(tree)};" for name, tree in plan.locals]
        lines += [f"const can_{name} = {ts(tree)};" for name, tree in plan.legal.items()]
        lines.append("const legal: string[] = [];")
        for name in plan.legal:
            lines.append(f"if (can_{name}) legal.push({string(name)});")
        call = ts(plan.call)
        lines.append("let view: View;")
        for index, (action, lowest, highest) in enumerate(plan.bounds):
            lines.append(f"{'if' if index == 0 else '} else if'} (can_{action}) {{")
            lines.append(f"  const low = {ts(lowest)};")
            lines.append(f"  view = [legal, {call}, low, {ts(highest)}];")
        if plan.bounds:
            lines += ["} else {", f"  view = [legal, {call}, null, null];", "}"]
        else:
            lines.append(f"view = [legal, {call}, null, null];")
        lines += ["m._view = view;", "return view;"]
        self._method("protected _computeView(): View", lines)

    def _requirements(
        self, requirements: list[Requirement], symbols: Mapping[str, Symbol], tried: str, with_to: bool
    ) -> list[str]:
        locals_, local = hoisted([r.expr.tree for r in requirements], self.spec, symbols, with_to=with_to)
        used = [negate(python(r.expr.tree, local)) for r in requirements]
        lines = [f"const {name} = {ts(tree)};" for name, tree in kept(locals_, used)]
        for requirement in requirements:
            lines += self._requirement_lines(requirement, local, tried, "throw")
        return lines

    def _action(self, event: Event) -> None:
        spec = self.spec
        method = _own_method(event.name) if event.own else TS_ACTIONS[event.name]
        takes_to = "to" in event.params
        amount = "to" if takes_to else "null"
        name = string(event.name)
        tried = f"seat, {name}, {amount}"
        rule = next((t.rule for t in spec.transitions if t.event == event.name), "")
        lines = [
            f"if (seat !== m._actor || m._actor < 0 || !isInt(seat)) m._requireTurn(seat, {name}, {amount});",
        ]
        if takes_to:
            lines.append(f"if (!isInt(to) || to < 0 || to > MAX_CHIPS) m._requireAmount(seat, {name}, to);")
        independent = [r for r in event.requires if not r.needs_to]
        lines.append("const view = m._view;")
        lines.append(f"if (view === null || !view[0].includes({name})) {{")
        lines.append(f"  if (!FROM_{event.name.upper()}.has(m._state)) {{")
        lines.append(f'    throw m._reject("illegal_action", {string(rule)}, {tried}, "not possible now");')
        lines.append("  }")
        if independent:
            lines += ["  " + line for line in self._requirements(independent, self.symbols, tried, False)]
        lines.append("}")
        dependent = [r for r in event.requires if r.needs_to]
        if dependent:
            lines.append("{")
            lines += ["  " + line for line in self._requirements(dependent, self.symbols, tried, True)]
            lines.append("}")
        lines.append(f"fire(m, T_{event.name.upper()}, {'to' if takes_to else '0'});")
        lines.append(f"m._log.push([seat, {name}, {amount}]);")
        lines.append("m._settle();")
        signature = f"{method}(seat: number, to: number): void" if takes_to else f"{method}(seat: number): void"
        w = self.w
        w(f"/** Seat `seat` acts: {event.name}. Throws IllegalAction and changes nothing if illegal. */", 2)
        w(f"{signature} {{", 2)
        w("const m = this;", 4)
        for line in lines:
            w(line, 4)
        w("}", 2)
        w()

    def _deal(self) -> None:
        rules = self.spec.procedure_rules
        settle, round_not_over = string(rules.get("settle", "")), string(rules.get("round_not_over", ""))
        closed = string("the pots are paid: the hand is closed")
        over = string("the hand is over: no street is left to deal")
        illegal = string(rules.get("illegal_deal", ""))
        betting = literal(list(vocabulary.BETTING_PHASES))
        w = self.w
        w("/** Deal the next street once the betting round is over (or during an all-in runout). */", 2)
        w("deal(street: string, given: Record<string, unknown> = {}): void {", 2)
        for line in [
            "const m = this;",
            "if (m._paid) {",
            f'  throw m._reject("illegal_action", {settle}, null, "deal", street, {closed});',
            "}",
            f"if ({betting}.includes(m.phase)) {{",
            f'  throw m._reject("round_not_over", {round_not_over}, null, "deal", street);',
            "}",
            "const following = m.nextStreet;",
            "if (following === null) {",
            f'  throw m._reject("illegal_action", {illegal}, null, "deal", street, {over});',
            "}",
            f'if (street !== following) throw m._reject("illegal_action", {illegal}, null, "deal", street);',
            "try {",
            "  m._loadDeal(given);",
            "} catch (error) {",
            "  if (error instanceof InvalidTable) {",
            f'    throw m._reject("illegal_action", {illegal}, null, "deal", street, error.message);',
            "  }",
            "  throw error;",
            "}",
            "m._takeDeal();",
            "m._logDeal(street, given);",
            "m._settle();",
        ]:
            w(line, 4)
        w("}", 2)


def _own_method(name: str) -> str:
    """The TypeScript method of an action of a spec's own: its name in camelCase (take_back: takeBack)."""
    first, *rest = name.split("_")
    return first + "".join(part.capitalize() for part in rest)


def _comment(text: str) -> str:
    """Spec text inside a ``/** */`` comment: one inert line (no ``*/``, no line breaks)."""
    return "".join(ch if ch.isprintable() and ch.isascii() else " " for ch in text).replace("*/", "* /")


def _mechanisms() -> str:
    """``src/mechanisms.ts``: the runtime mechanisms as one interface, and a type that only
    compiles if the runtime's Engine has each of them with its declared signature, so that
    ``tsc --strict`` holds the runtime to betspec/runtime/mechanisms.py (both internal: a client's
    declarations leave them out, as they leave out the mechanisms)."""
    lines = [
        f"// Printed by betspec {__version__} from betspec/runtime/mechanisms.py: the mechanisms generated",
        "// engines call, which the runtime's Engine must have. Do not edit: run `betspec generate`.",
        "",
        'import type { Engine } from "./runtime.js";',
        "",
        "/** @internal */",
        "export interface Mechanisms {",
    ]
    for mechanism in MECHANISMS:
        if "typescript" not in mechanism.runtimes:
            continue
        params = ", ".join(f"{_own_method(p.name)}: {KINDS[p.kind].typescript}" for p in mechanism.params)
        lines.append(f"  /** {_comment(mechanism.does)} */")
        lines.append(f"  {mechanism.name}({params}): {KINDS[mechanism.returns].typescript};")
    lines += [
        "}",
        "",
        "/** @internal */",
        "type Implements<T extends Mechanisms> = T;",
        "/** @internal The runtime's Engine, checked against the declaration. */",
        "export type CheckedEngine = Implements<Engine>;",
    ]
    return "\n".join(lines) + "\n"


def _vocabulary() -> str:
    lines = [
        f"// Printed by betspec {__version__} from betspec/vocabulary.py: the words the TypeScript runtime",
        "// shares with the Python one. Do not edit: run `betspec generate`.",
        "",
    ]
    for name in (
        "ACT_NAMES",
        "BETTING_PHASES",
        "DECLARATIONS",
        "HAND_OVER_PHASES",
        "OUT_OF_TURN_DECLARATIONS",
        "WAGERS",
    ):
        values = getattr(vocabulary, name)
        lines.append(f"export const {name}: readonly string[] = {literal(list(values))};")
    return "\n".join(lines) + "\n"


def _runtime() -> str:
    try:
        text = RUNTIME_SOURCE.read_text(encoding="utf-8")
    except OSError as exc:
        raise BackendError(f"the TypeScript runtime is missing ({RUNTIME_SOURCE}): {exc.strerror or exc}") from None
    head = (
        f"// Copied by betspec {__version__} from betspec/runtime/typescript/runtime.ts (the hand-written runtime).\n"
        "// Do not edit: change the source and run `betspec generate`.\n"
    )
    return head + text


def _index(specs: Sequence[Spec]) -> str:
    lines = [
        f"// Printed by betspec {__version__}: every engine of this package by structure name.",
        "// Do not edit: run `betspec generate`.",
        "",
        'export * from "./runtime.js";',
        'import type { Engine, StartJson, TableJson } from "./runtime.js";',
    ]
    for spec in specs:
        lines.append(f'import {{ {spec.class_name} }} from "./{spec.name}.js";')
    lines.append("")
    for spec in specs:
        lines.append(f'export {{ {spec.class_name} }} from "./{spec.name}.js";')
    lines.append("")
    lines.append("/** An engine class: a hand from a table, options and a start; `restore` from a snapshot. */")
    lines.append("export interface Structure {")
    lines.append("  new (table: TableJson, options?: Record<string, unknown>, start?: StartJson | null): Engine;")
    lines.append("  restore(data: unknown): Engine;")
    lines.append("}")
    lines.append("")
    lines.append("/** Every structure's engine class, by the spec's name. */")
    lines.append("export const ENGINES: Readonly<Record<string, Structure>> = {")
    for spec in specs:
        lines.append(f"  {string(spec.name)}: {spec.class_name} as unknown as Structure,")
    lines.append("};")
    return "\n".join(lines) + "\n"


def _package_json() -> str:
    data = {
        "name": PACKAGE,
        "version": __version__,
        "description": "Poker betting engines generated by betspec from declarative specs",
        "license": "MIT",
        "type": "module",
        "main": "./dist/index.js",
        "types": "./dist/index.d.ts",
        "exports": {
            ".": {"types": "./dist/index.d.ts", "default": "./dist/index.js"},
            "./*": {"types": "./dist/*.d.ts", "default": "./dist/*.js"},
        },
        "files": ["dist", "src"],
        # Built before it is packed: a packed package holds dist/ and needs no tsconfig.json.
        "scripts": {"build": "tsc -p tsconfig.json", "prepack": "tsc -p tsconfig.json"},
        "devDependencies": {"typescript": TYPESCRIPT_RANGE},
    }
    return json.dumps(data, indent=2) + "\n"


#: The TypeScript compiler the package's lock file pins: the one every project (betspec's and
#: each house's) compiles its engines and the live book's scripts with, so that the scripts are
#: the same bytes on every machine (``npm ci --prefix generated/typescript``).
TYPESCRIPT_RANGE = "^5.4.0"
TYPESCRIPT_PINNED = {
    "version": "5.9.3",
    "integrity": "sha512-jl1vZzPDinLr9eUt3J/t7V6FgNEw9QjvBPdysz9KfQDD41fQrC2Y4vKQdiaUpFT4bXlb1RHhLpp8wtm6M5TgSw==",
}


def _package_lock() -> str:
    """``package-lock.json``, as npm writes it for the package and its one dev dependency."""
    root = {
        "name": PACKAGE,
        "version": __version__,
        "license": "MIT",
        "devDependencies": {"typescript": TYPESCRIPT_RANGE},
    }
    typescript = {
        **TYPESCRIPT_PINNED,
        "dev": True,
        "license": "Apache-2.0",
        "bin": {"tsc": "bin/tsc", "tsserver": "bin/tsserver"},
        "engines": {"node": ">=14.17"},
    }
    data = {
        "name": PACKAGE,
        "version": __version__,
        "lockfileVersion": 3,
        "requires": True,
        "packages": {"": root, "node_modules/typescript": typescript},
    }
    return json.dumps(data, indent=2) + "\n"


def _tsconfig() -> str:
    data = {
        "compilerOptions": {
            "target": "ES2022",
            "module": "NodeNext",
            "moduleResolution": "NodeNext",
            "strict": True,
            "declaration": True,
            "stripInternal": True,
            "outDir": "dist",
            "rootDir": "src",
            "skipLibCheck": True,
        },
        "include": ["src/*.ts"],
    }
    return json.dumps(data, indent=2) + "\n"


class TypeScriptBackend:
    name = "typescript"
    owns: tuple[tuple[str, tuple[str, ...]], ...] = ((SOURCES, (".ts",)),)

    def render(self, specs: Sequence[Spec], root: str, context: Context | None = None) -> dict[str, str]:
        concrete = [spec for spec in specs if not spec.abstract]
        files = {
            f"{FOLDER}/package.json": _package_json(),
            f"{FOLDER}/package-lock.json": _package_lock(),
            f"{FOLDER}/tsconfig.json": _tsconfig(),
            f"{SOURCES}/runtime.ts": _runtime(),
            f"{SOURCES}/vocabulary.ts": _vocabulary(),
            f"{SOURCES}/mechanisms.ts": _mechanisms(),
            f"{SOURCES}/index.ts": _index(concrete),
        }
        for spec in concrete:
            files[f"{SOURCES}/{spec.name}.ts"] = _Module(spec, root).text()
        return files


BACKEND = register(TypeScriptBackend())
