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
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
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
    chosen_actions,
    engine_plan,
    fired_events,
    hoisted,
    kept,
    legal_when,
    requirement_checks,
    scope,
    view_plan,
)
from betspec.backends.plan import callbacks as plan_callbacks
from betspec.backends.pyexpr import Symbol, negate, python
from betspec.backends.tsexpr import literal, string, ts
from betspec.backends.writer import Writer
from betspec.model import Spec
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
        # The cards a dealer deals (betspec.cards, in Python): a TypeScript engine bets without cards.
        "game",
        "rake",
        "payments",
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
RUNTIME_TYPES = ("CardGame", "Declared", "SpecMeta", "StartJson", "Step", "TableJson", "View")


def _refuse(what: str, spec: Spec) -> BackendError:
    return BackendError(
        f"{spec.name}: the TypeScript back end does not know {what}; it prints nothing it cannot print right"
    )


def _known(spec: Spec) -> None:
    """Refuse, naming it, what of the spec this printer does not know how to print."""
    plan = engine_plan(spec)
    for field in plan.spec_fields:
        if field not in KNOWN_SPEC_FIELDS:
            raise _refuse(f"the spec's {field}", spec)
    for variable in plan.variables:
        if variable.name not in TS_ACCESSORS and not variable.declared:
            raise _refuse(f"the variable {variable.name!r}", spec)
    for event in plan.events:
        if event.kind not in KNOWN_EVENT_KINDS:
            raise _refuse(f"the event kind {event.kind!r} (of {event.name})", spec)
    for state in plan.states:
        if state.phase not in KNOWN_PHASES:
            raise _refuse(f"the phase {state.phase!r} (of state {state.name})", spec)
    for primitive in plan.primitives:
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


def _option_type(option: ir.Option) -> str:
    if option.type == "choice":
        return " | ".join(string(choice) for choice in option.choices)
    return _TS_TYPES[option.type]


def _input_type(item: ir.Given) -> str:
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


class _Statements(ir.StatementPrinter):
    """Prints a method of the engine plan as TypeScript (the hand is ``m``)."""

    hand = "m"
    conjunction = "&&"

    def __init__(self, w: Writer, symbols: Mapping[str, Symbol], seat_symbols: Mapping[str, Symbol]) -> None:
        super().__init__(symbols, seat_symbols)
        self.w = w

    def expression(self, tree: ast.expr) -> str:
        return ts(tree)

    def constant(self, value: bool | int | str | None) -> str:
        return literal(value)

    def not_a_seat_test(self, seat: str) -> str:
        return f"!(0 <= {seat} && {seat} < m._n)"

    def nonzero_test(self, name: str) -> str:
        return f"{name} !== 0"

    def any_given_test(self, name: str) -> str:
        return f"m._in_{name}.some((value) => Boolean(value))"

    def record(self, items: list[tuple[str, str]]) -> str:
        return "{ " + ", ".join(f"{name}: {value}" for name, value in items) + " }"

    def visit_Returns(self, node: ir.Returns) -> None:
        values = [self.value(value) for value in node.values]
        self.w(f"return {values[0] if len(values) == 1 and not node.listed else '[' + ', '.join(values) + ']'};")

    def action_test(self, action: str) -> str:
        return f"action === {string(action)}"

    def not_from_test(self, event: str) -> str:
        return f"!FROM_{event.upper()}.has(m._state)"

    def visit_Reject(self, node: ir.Reject) -> None:
        self.w(f"{'return' if node.returned else 'throw'} {self.rejection(node, string(node.message))};")

    def visit_Require(self, node: ir.Require) -> None:
        failing = self.failing(node)
        if failing is None:
            self.w(f"// {ir.always_holds(node)}")
            return
        self.block(f"if ({ts(failing)}) ", (node.otherwise,))

    def visit_ResetVariable(self, node: ir.ResetVariable) -> None:
        value = self.constant(node.default)
        fresh = f"new Array<{_TS_TYPES[node.type]}>(m._n).fill({value})" if node.per_seat else value
        self.w(f"m._v_{node.variable} = {fresh};")

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


@contextmanager
def _braced(w: Writer, opening: str) -> Iterator[None]:
    """``opening {``, the lines of the ``with`` block one level in, then ``}``."""
    w(f"{opening} {{")
    with w.indented():
        yield
    w("}")


class _Module:
    """One spec's module as it is printed."""

    def __init__(self, spec: Spec, root: str) -> None:
        _known(spec)
        self.spec = spec
        self.root = root
        self.cls = spec.class_name
        self.w = Writer(step=2)
        self.symbols = _symbols(spec)
        self.found = plan_callbacks(spec, self.symbols)
        #: The engine plan the three engine back ends share.
        self.plan = engine_plan(spec)

    # ---- the module -------------------------------------------------------------------------

    def text(self) -> str:
        spec, w = self.spec, self.w
        for event in self.plan.events:
            if event.kind == "action" and event.name not in TS_ACTIONS and not event.own:
                raise _refuse(f"the action {event.name!r}", spec)
            if event.own and _camel(event.name) in TS_ENGINE_MEMBERS:
                raise _refuse(f"an action of its own named {event.name!r} (a member of the TypeScript engine)", spec)
        for line in _header(spec, self.root):
            w(line)
        w(f"/** {_comment(spec.title + (': ' + spec.description if spec.description else ''))} */")
        w()
        w(f'import {{ {", ".join(RUNTIME_IMPORTS)} }} from "./runtime.js";')
        w(f'import type {{ {", ".join(RUNTIME_TYPES)} }} from "./runtime.js";')
        w("// What a client of this structure handles besides the engine: its errors and data.")
        w('export { BetspecError, IllegalAction, InvalidTable, SnapshotError } from "./runtime.js";')
        w('export type { CardGame, Pot, Ruling, Settlement, StartJson, TableJson } from "./runtime.js";')
        w()
        w(f"export const SPEC_NAME = {string(spec.name)};")
        w(f"export const SPEC_HASH = {string(spec.hash)};")
        w("/** The spec's streets (its betting rounds), in order. */")
        w(f"export const STREETS: readonly string[] = {literal(list(self.plan.streets))};")
        w(f"const LAST_STREET = {len(self.plan.streets) - 1};")
        w("/** The cards the game deals, street by street, and how its showdown ranks them (for a dealer). */")
        game = self.plan.game
        if game is None:
            w("export const GAME: CardGame | null = null;")
        else:
            w("export const GAME: CardGame | null = {")
            w.record(game, string, literal, "[]")  # one street's deal a line
            w("};")
        for value in self.plan.street_values:
            w(f"/** {_comment(value.meaning)} ({value.name}), street by street. */")
            w(f"const SV_{value.name.upper()}: readonly {_ts_type(value.type)}[] = {literal(list(value.values))};")
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
        with w.indented():
            for rule in self.plan.rules:
                w(f"{string(rule.id)}: [")
                with w.indented():
                    w(f"{string(rule.text)},")
                    w(f"{string(rule.source)},")
                w("],")
        w("};")
        w()

    def _options_interface(self) -> None:
        w, spec = self.w, self.spec
        w(f"/** The options of {spec.name}, each with the spec's default when left out. */")
        w(f"export interface {self.cls}Options {{")
        with w.indented():
            for option in self.plan.options:
                w(f"/** {_comment(option.meaning)} */")
                w(f"{option.name}?: {_option_type(option)};")
        w("}")
        w()

    def _meta(self) -> None:
        w = self.w
        w("/** What the runtime reads of this spec. */")
        w("export const META: SpecMeta = {")
        with w.indented():
            w("name: SPEC_NAME,")
            w("hash: SPEC_HASH,")
            w("rules: RULES,")
            rules = ", ".join(f"{string(k)}: {string(v)}" for k, v in self.plan.procedure_rules.items())
            w(f"procedureRules: {{ {rules} }},")
            w("streets: STREETS,")
            phases = ", ".join(f"{string(s.name)}: {string(s.phase)}" for s in self.plan.states)
            w(f"statePhase: {{ {phases} }},")
            w(f"initial: {string(self.plan.initial)},")
            defaults = ", ".join(f"{string(o.name)}: {literal(o.default)}" for o in self.plan.options)
            w(f"optionDefaults: {{ {defaults} }},")
            w("options: {")
            with w.indented():
                for o in self.plan.options:
                    extra: dict[str, object] = {"minimum": o.minimum, "maximum": o.maximum, "choices": tuple(o.choices)}
                    w(f"{string(o.name)}: {_declared(o.name, o.type, o.default, False, extra)},")
            w("},")
            for key, items in (("inputs", self.plan.inputs), ("dealInputs", self.plan.deal_inputs)):
                w(f"{key}: {{")
                with w.indented():
                    for item in items:
                        extra = {
                            "minimum": item.minimum,
                            "maximum": item.maximum,
                            "choices": tuple(item.choices),
                            "items": tuple(item.items),
                            "perSeat": item.per_seat,
                            "example": item.example,
                            "hand": item.hand,
                        }
                        entry = _declared(item.name, item.type, item.default, item.required, extra)
                        w(f"{string(item.name)}: {entry},")
                w("},")
            w(f"settleLimit: {len(self.plan.states)},")
            declared = ", ".join(f"{string(v.variable)}: {string(v.scope)}" for v in self.plan.variable_defaults)
            w(f"declaredVariables: {{ {declared} }},")
            w(f"ownActions: {literal(list(self.plan.own_actions))},")
            if self.plan.rake is not None:
                w("rake: {")
                w.record(self.plan.rake, string, literal, "[]")
                w("},")
            if self.plan.payments:
                w("payments: [")
                with w.indented():
                    for payment in self.plan.payments:
                        w(f"{literal(payment)},")
                w("],")
        w("};")
        w()

    # ---- functions --------------------------------------------------------------------------

    def _quantities(self) -> None:
        w, spec = self.w, self.spec
        seat_symbols = _symbols(spec, seat="seat")
        for quantity in self.plan.quantities:
            params = f"{MODEL}: {self.cls}"
            if quantity.per_seat:
                params += ", seat: number"
            elif quantity.needs_to:
                params += ", to: number"
            symbols = seat_symbols if quantity.per_seat else self.symbols
            w(f"/** {_comment(quantity.meaning)} (rule {_comment(quantity.rule)}). */")
            with _braced(w, f"function q_{quantity.name}({params}): {_TS_TYPES[quantity.type]}"):
                w(f"return {ts(python(quantity.tree, symbols))};")
            w()

    def _push_ruling(self) -> None:
        w = self.w
        w("/** How chips pushed, with what was said, are ruled: [fold|check|call|wager|withdraw, to, rule]. */")
        params = f"{MODEL}: {self.cls}, pushed: number, chips: number, largest_chip: number, said: Said"
        with _braced(w, f"function push_ruling({params}): [string, number | null, string]"):
            w("const said_fold = said.fold, said_check = said.check, said_call = said.call;")
            w("const said_bet = said.bet, said_raise = said.raise_, said_to = said.to;")
            w("void [pushed, chips, largest_chip, said_fold, said_check, said_call, said_bet, said_raise, said_to];")
            _Statements(w, self.symbols, self.symbols).visit_all(self.plan.push_ruling.body)
        w()

    def _statements(self, statements: Sequence[Statement]) -> None:
        declared: set[str] = set()
        for statement in statements:
            if isinstance(statement, Let):
                keyword = "" if statement.name in declared else "let "
                declared.add(statement.name)
                self.w(f"{keyword}{statement.name} = {ts(statement.value)};")
            elif isinstance(statement, Store):
                if any(v.declared and v.name == statement.variable for v in self.plan.variables):
                    template = statement.target  # a field of the engine, as the plan names it
                elif statement.variable in TS_ACCESSORS:
                    template = TS_ACCESSORS[statement.variable]
                else:
                    raise _refuse(f"the variable {statement.variable!r}", self.spec)
                target = template.format(m=MODEL, seat=f"{MODEL}._actor")
                self.w(f"{ts(ast.parse(target, mode='eval').body)} = {statement.value};")
            elif isinstance(statement, Do):
                method = TS_PRIMITIVES.get(statement.primitive)
                if method is None:
                    raise _refuse(f"the primitive {statement.primitive!r}", self.spec)
                args = ", ".join(ts(arg) for arg in statement.args)
                self.w(f"{MODEL}.{method}({args});")
            else:  # pragma: no cover - the plan has no other statement
                raise _refuse(f"the statement {statement!r}", self.spec)

    def _callbacks(self) -> None:
        w, found, cls = self.w, self.found, self.cls
        w("// ---- guards and effects ----")
        w()
        for name, statements in found.starts.items():
            w(f"/** What {name} does before its guards choose the first state. */")
            with _braced(w, f"function on_{name}({MODEL}: {cls}): void"):
                self._statements(statements)
            w()
        for name, guard in found.guards.items():
            to = "to" if guard.takes_to else "_to"
            with _braced(w, f"function {name}({MODEL}: {cls}, {to}: number): boolean"):
                w(f"return {ts(guard.test)};")
            w()
        for name, effect in found.effects.items():
            to = "to" if effect.takes_to else "_to"
            with _braced(w, f"function {name}({MODEL}: {cls}, {to}: number): void"):
                self._statements(effect.body)
            w()

    def _tables(self) -> None:
        w, spec, found, cls = self.w, self.spec, self.found, self.cls
        w("// The spec's transitions as tables: per source state, in the spec's order, [guard, effect,")
        w("// destination]; the first whose guard holds is taken.")
        automatic: dict[str, list[str]] = {}
        for event in fired_events(spec):
            by_source: dict[str, list[str]] = {}
            for index, t in enumerate(self.plan.transitions):
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
        for event in self.plan.events:
            if event.kind in ("action", "deal"):
                members = sorted(self.plan.sources[event.name])
                w(f"const FROM_{event.name.upper()}: ReadonlySet<string> = new Set({literal(members)});")
        w()

    def _table(self, name: str, by_source: Mapping[str, list[str]], cls: str) -> None:
        w = self.w
        w(f"const {name}: Readonly<Record<string, readonly Step<{cls}>[]>> = {{")
        with w.indented():
            for state, steps in by_source.items():
                w(f"{string(state)}: [{', '.join(steps)}],")
        w("};")

    # ---- the class --------------------------------------------------------------------------

    def _class(self) -> None:
        w, spec, cls = self.w, self.spec, self.cls
        w(f"/** {_comment(spec.title)}: one hand. {_comment(spec.description)} */")
        with _braced(w, f"export class {cls} extends Engine"):
            self._fields()
            self._constructor()
            w("/** The hand a snapshot (of this engine or the Python one) was taken from. */")
            with _braced(w, f"static restore(data: unknown): {cls}"):
                w(f"return restore(data, {cls}, META);")
            w()
            self._methods()
        w()
        w("/** The engine class of this module. */")
        w(f"export const ENGINE = {cls};")
        w(f"export default {cls};")

    def _fields(self) -> None:
        w = self.w
        for option in self.plan.options:
            w(f"/** @internal */ _opt_{option.name}!: {_option_type(option)};")
        for item in self.plan.inputs:
            for name in item.names:
                kind = "number" if item.items else _input_type(item)
                w(f"/** @internal */ _in_{name}!: {kind};")
        for name in self.plan.role_names:
            w(f"/** @internal */ _role_{name}!: number;")
        for item in self.plan.deal_inputs:
            w(f"/** @internal */ _dl_{item.name}!: {_input_type(item)};")
        for variable in self.plan.variable_defaults:
            kind = _TS_TYPES[variable.type]
            w(f"/** @internal */ _v_{variable.variable}!: {f'({kind})[]' if variable.per_seat else kind};")
        w()

    def _methods(self) -> None:
        w, spec = self.w, self.spec
        self._begin()
        self._load_inputs()
        self._load_deal()
        self._plan_method(self.plan.roles, "protected _computeRoles(): void")
        self._plan_method(self.plan.forced_bets, "_postForcedBets(): void")
        self._plan_method(self.plan.checks, "protected _checkTable(): void")
        seat_symbols = _symbols(spec, seat="seat")
        playable = ts(python(self.plan.quantities_by_name["playable"].tree, seat_symbols))
        self._short_method("_playable(seat: number): number", f"return {playable};")
        self._short_method("protected _allInTo(): number", f"return {ts(self.symbols['all_in_to'].tree)};")
        self._plan_method(self.plan.next_hand, "protected _nextHand(): [number, Record<string, unknown>]")
        self._plan_method(self.plan.odd_chip_after, "protected _oddChipAfter(): number")
        if self.plan.rake_terms is not None:
            self._plan_method(
                self.plan.rake_terms, "protected override _rakeTerms(): [number, number | null, number, number, number]"
            )
        if self.plan.payment_amounts is not None:
            self._plan_method(self.plan.payment_amounts, "protected override _paymentAmounts(): number[]")
        self._short_method(
            "protected _pushRuling(pushed: number, chips: number, largest: number, said: Said)"
            ": [string, number | null, string]",
            "return push_ruling(this, pushed, chips, largest, said);",
        )
        deal = next((e for e in fired_events(spec) if e.kind == "deal"), None)
        if deal is None:  # a game of one betting round: no street is ever dealt
            for signature, body in (
                ("protected _dealOpen(): boolean", "return false;"),
                ("protected _takeDeal(): void", ""),
            ):
                w("/** @internal */")
                with _braced(w, signature):
                    if body:
                        w(body)
                w()
        else:
            table = f"T_{deal.name.upper()}"
            with self._method("protected _dealOpen(): boolean"):
                with _braced(w, f"for (const [guard] of {table}[m._state] ?? [])"):
                    w("if (guard === null || guard(m, 0)) return true;")
                w("return false;")
            self._short_method("protected _takeDeal(): void", f"fire(m, {table}, 0);")
        self._short_method("protected _automatic(): boolean", "return fire(m, AUTOMATIC, 0);")
        actions = [e for e in self.plan.events if e.kind == "action"]
        self._refusal()
        self._view()
        for event in actions:
            self._action(event)
        self._deal()

    @contextmanager
    def _method(self, signature: str, doc: str = "/** @internal */") -> Iterator[None]:
        """A method of the class (the writer at the class's level): ``doc``, ``signature``, then
        the lines of the ``with`` block as its body, the engine named ``m``."""
        w = self.w
        w(doc)
        with _braced(w, signature):
            w("const m = this;")
            yield
        w()

    def _short_method(self, signature: str, *body: str) -> None:
        with self._method(signature):
            for line in body:
                self.w(line)

    def _constructor(self) -> None:
        w, spec, cls = self.w, self.spec, self.cls
        w("/** A hand on `table`; `start` begins on a later street with a pot instead of blinds. */")
        with _braced(w, f"constructor(table: TableJson, options: {cls}Options = {{}}, start: StartJson | null = null)"):
            w("super(META);")
            w("const given = this._givenOptions(options);")
            for option in self.plan.options:
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
                w(f"this._opt_{option.name} = {check};")
            names = ", ".join(f"{string(o.name)}: this._opt_{o.name}" for o in self.plan.options)
            w(f"this._options = {{ {names} }};")
            w("this._setup(table, start);")
        w()

    def _begin(self) -> None:
        w = self.w
        starts = [e for e in fired_events(self.spec) if e.kind == "start"]

        def start(event: ir.Event) -> None:
            if event.name in self.found.starts:
                w(f"on_{event.name}(m);")
            w(f"fire(m, T_{event.name.upper()}, 0);")

        with self._method("protected _begin(street: string | null): void"):
            w("void street;")
            _Statements(w, self.symbols, self.symbols).visit_all(self.plan.variable_defaults)
            # The blinds are posted only by a hand begun on its first street.
            for event in (e for e in starts if e.blinds):
                with _braced(w, "if (street === null)"):
                    start(event)
                    w("return;")
            for event in (e for e in starts if not e.blinds):
                start(event)
            if not starts:
                w("void street;")

    def _input_check(self, item: ir.Given, value: str) -> str:
        check = item.check
        if check is None:
            raise _refuse(item.unchecked, self.spec)
        args = [string(check.input), value]
        if check.seats:
            args.append("m._n")
        if check.items is not None:
            args.append(str(check.items))
        if check.bounds is not None:
            args += [literal(bound) for bound in check.bounds]
        if check.choices is not None:
            args.append(literal(list(check.choices)))
        if check.element is not None:  # called with the input's name and one seat's value
            each, function = check.element, _camel(check.element.function)
            bounds = "" if each.bounds is None else "".join(f", {literal(bound)}" for bound in each.bounds)
            args.append(f"(n, v) => {function}(n, v{bounds})" if bounds else function)
        return f"{_camel(check.function)}({', '.join(args)})"

    def _default(self, item: ir.Given) -> str:
        if item.per_seat:
            return f"new Array(m._n).fill({literal(item.default)})"
        return literal(item.default)

    def _load_inputs(self) -> None:
        w, inputs = self.w, self.plan.inputs
        with self._method("protected _loadInputs(given: Record<string, unknown>): void"):
            for item in inputs:
                if item.required:
                    with _braced(w, f"if (!({string(item.name)} in given))"):
                        w(f"throw requiredInput(SPEC_NAME, {string(item.name)});")
            for item in inputs:
                if not item.required:
                    if item.items:
                        targets = ", ".join(f"m._in_{name}" for name in item.names)
                        w(f"[{targets}] = {self._default(item)} as number[];")
                    else:
                        w(f"m._in_{item.name} = {self._default(item)};")
            with _braced(w, "for (const [name, value] of Object.entries(given))"), _braced(w, "switch (name)"):
                for item in inputs:
                    w(f"case {string(item.name)}:")
                    with w.indented():
                        if item.items:
                            targets = ", ".join(f"m._in_{name}" for name in item.names)
                            w(f"[{targets}] = {self._input_check(item, 'value')} as [number, ...number[]];")
                        else:
                            w(f"m._in_{item.name} = {self._input_check(item, 'value')};")
                        w("break;")
                w("default:")
                with w.indented():
                    w(f"unknownInputs(SPEC_NAME, given, {literal(sorted(item.name for item in inputs))});")

    def _load_deal(self) -> None:
        w, deal_inputs = self.w, self.plan.deal_inputs
        with self._method("_loadDeal(given: Record<string, unknown>): void"):
            # Every value checked before any is kept: a refused deal changes nothing.
            for item in deal_inputs:
                w(f"let dl_{item.name}: {_input_type(item)} = {self._default(item)};")
            if not deal_inputs:
                w("const names = Object.keys(given).sort();")
                with _braced(w, "if (names.length)"):
                    w("throw new InvalidTable(`nothing is given with a deal in this structure, not ${shown(names)}`);")
                return
            choices = ", ".join(sorted(item.name for item in deal_inputs))
            with _braced(w, "for (const [name, value] of Object.entries(given))"):
                for index, item in enumerate(deal_inputs):
                    w(f"{'if' if index == 0 else '} else if'} (name === {string(item.name)}) {{")
                    with w.indented():
                        w(f"dl_{item.name} = {self._input_check(item, 'value')};")
                w("} else {")
                with w.indented():
                    w(f"throw new InvalidTable({string('a deal gives only ' + choices + ', not ')} + shown(name));")
                w("}")
            for item in deal_inputs:
                w(f"m._dl_{item.name} = dl_{item.name};")

    def _plan_method(self, method: ir.Method, signature: str) -> None:
        """A method of the engine plan, printed by :class:`_Statements`."""
        w = self.w
        with self._method(signature):
            written = len(w.lines)
            _Statements(w, self.symbols, _symbols(self.spec, seat="seat")).visit_all(method.body)
            if len(w.lines) == written:
                w("return;")

    def _refusal(self) -> None:
        signature = "protected _refusal(action: string, seat: unknown, to: unknown): IllegalAction | null"
        self._plan_method(self.plan.refusal, signature)

    def _view(self) -> None:
        w, spec = self.w, self.spec
        symbols = dict(_symbols(spec, seat=ACTOR))
        symbols["bet_level"] = Symbol.read(symbols["bet_level"].type, "level", "variable")
        chosen = chosen_actions(spec)

        def legal(event: ir.Event, local: Mapping[str, Symbol]) -> ast.expr:
            sources = ast.parse(f"FROM_{event.name.upper()}.has({MODEL}._state)", mode="eval").body
            return legal_when(sources, event, local)

        plan = view_plan(spec, symbols, chosen, legal)
        with self._method("protected _computeView(): View"):
            w(f"const {ACTOR} = m._actor;")
            with _braced(w, f"if ({ACTOR} < 0)"):
                w("m._view = NO_VIEW;")
                w("return NO_VIEW;")
            w("const level = m._bet_level;")
            for name, tree in plan.locals:
                w(f"const {name} = {ts(tree)};")
            for name, tree in plan.legal.items():
                w(f"const can_{name} = {ts(tree)};")
            w("const legal: string[] = [];")
            for name in plan.legal:
                w(f"if (can_{name}) legal.push({string(name)});")
            call = ts(plan.call)
            w("let view: View;")
            for index, (action, lowest, highest) in enumerate(plan.bounds):
                w(f"{'if' if index == 0 else '} else if'} (can_{action}) {{")
                with w.indented():
                    w(f"const low = {ts(lowest)};")
                    w(f"view = [legal, {call}, low, {ts(highest)}];")
            if plan.bounds:
                w("} else {")
                with w.indented():
                    w(f"view = [legal, {call}, null, null];")
                w("}")
            else:
                w(f"view = [legal, {call}, null, null];")
            w("m._view = view;")
            w("return view;")

    def _requirements(self, requirements: list[ir.Requirement], event: ir.Event, with_to: bool) -> None:
        locals_, local = hoisted([r.expr.tree for r in requirements], self.spec, self.symbols, with_to=with_to)
        used = [negate(python(r.expr.tree, local)) for r in requirements]
        for name, tree in kept(locals_, used):
            self.w(f"const {name} = {ts(tree)};")
        amount = ir.Local("to") if "to" in event.params else ir.Const(None)
        checks = requirement_checks(event, requirements, amount, returned=False)
        _Statements(self.w, local, local).visit_all(checks)

    def _action(self, event: ir.Event) -> None:
        w = self.w
        method = _camel(event.name) if event.own else TS_ACTIONS[event.name]
        takes_to = "to" in event.params
        amount = "to" if takes_to else "null"
        name = string(event.name)
        tried = f"seat, {name}, {amount}"
        rule = event.rule
        signature = f"{method}(seat: number, to: number): void" if takes_to else f"{method}(seat: number): void"
        doc = f"/** Seat `seat` acts: {event.name}. Throws IllegalAction and changes nothing if illegal. */"
        with self._method(signature, doc):
            w(f"if (seat !== m._actor || m._actor < 0 || !isInt(seat)) m._requireTurn(seat, {name}, {amount});")
            if takes_to:
                w(f"if (!isInt(to) || to < 0 || to > MAX_CHIPS) m._requireAmount(seat, {name}, to);")
            independent = [r for r in event.requires if not r.needs_to]
            w("const view = m._view;")
            with _braced(w, f"if (view === null || !view[0].includes({name}))"):
                with _braced(w, f"if (!FROM_{event.name.upper()}.has(m._state))"):
                    w(f'throw m._reject("illegal_action", {string(rule)}, {tried}, "not possible now");')
                if independent:
                    self._requirements(independent, event, False)
            dependent = [r for r in event.requires if r.needs_to]
            if dependent:
                # A block of its own, as the checks above: the constants it hoists stay scoped to it.
                w("{")
                with w.indented():
                    self._requirements(dependent, event, True)
                w("}")
            w(f"fire(m, T_{event.name.upper()}, {'to' if takes_to else '0'});")
            w(f"m._log.push([seat, {name}, {amount}]);")
            w("m._settle();")

    def _deal(self) -> None:
        rules = self.plan.procedure_rules
        settle, round_not_over = string(rules.get("settle", "")), string(rules.get("round_not_over", ""))
        closed = string("the pots are paid: the hand is closed")
        over = string("the hand is over: no street is left to deal")
        illegal = string(rules.get("illegal_deal", ""))
        betting = literal(list(vocabulary.BETTING_PHASES))
        w = self.w
        w("/** Deal the next street once the betting round is over (or during an all-in runout). */")
        with _braced(w, "deal(street: string, given: Record<string, unknown> = {}): void"):
            w("const m = this;")
            with _braced(w, "if (m._paid)"):
                w(f'throw m._reject("illegal_action", {settle}, null, "deal", street, {closed});')
            with _braced(w, f"if ({betting}.includes(m.phase))"):
                w(f'throw m._reject("round_not_over", {round_not_over}, null, "deal", street);')
            w("const following = m.nextStreet;")
            with _braced(w, "if (following === null)"):
                w(f'throw m._reject("illegal_action", {illegal}, null, "deal", street, {over});')
            w(f'if (street !== following) throw m._reject("illegal_action", {illegal}, null, "deal", street);')
            w("try {")
            with w.indented():
                w("m._loadDeal(given);")
            w("} catch (error) {")
            with w.indented():
                with _braced(w, "if (error instanceof InvalidTable)"):
                    w(f'throw m._reject("illegal_action", {illegal}, null, "deal", street, error.message);')
                w("throw error;")
            w("}")
            w("m._takeDeal();")
            w("m._logDeal(street, given);")
            w("m._settle();")


def _camel(name: str) -> str:
    """A Python name as TypeScript spells it, in camelCase: an action of a spec's own (take_back:
    takeBack), a runtime function (per_seat_input: perSeatInput)."""
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
    w = Writer(step=2)
    w(f"// Printed by betspec {__version__} from betspec/runtime/mechanisms.py: the mechanisms generated")
    w("// engines call, which the runtime's Engine must have. Do not edit: run `betspec generate`.")
    w()
    w('import type { Engine } from "./runtime.js";')
    w()
    w("/** @internal */")
    with _braced(w, "export interface Mechanisms"):
        for mechanism in MECHANISMS:
            if "typescript" not in mechanism.runtimes:
                continue
            params = ", ".join(f"{_camel(p.name)}: {KINDS[p.kind].typescript}" for p in mechanism.params)
            w(f"/** {_comment(mechanism.does)} */")
            w(f"{mechanism.name}({params}): {KINDS[mechanism.returns].typescript};")
    w()
    w("/** @internal */")
    w("type Implements<T extends Mechanisms> = T;")
    w("/** @internal The runtime's Engine, checked against the declaration. */")
    w("export type CheckedEngine = Implements<Engine>;")
    return w.text()


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
    # The cards' words (cards.ts, and the payments runtime.ts checks shown cards for).
    lines.append(f"export const CARD_RANKS = {literal(vocabulary.CARD_RANKS)};")
    lines.append(f"export const CARD_SUITS = {literal(vocabulary.CARD_SUITS)};")
    lines.append(f"export const HAND_KINDS: readonly string[] = {literal(list(vocabulary.HANDS))};")
    lines.append(f"export const HAND_CATEGORIES: readonly string[] = {literal(list(vocabulary.HAND_CATEGORIES))};")
    return "\n".join(lines) + "\n"


def _copied(name: str, what: str) -> str:
    """A hand-written source of betspec/runtime/typescript, copied into the package."""
    source = RUNTIME_SOURCE.with_name(name)
    try:
        text = source.read_text(encoding="utf-8")
    except OSError as exc:
        raise BackendError(f"the TypeScript {what} is missing ({source}): {exc.strerror or exc}") from None
    head = (
        f"// Copied by betspec {__version__} from betspec/runtime/typescript/{name} ({what}).\n"
        "// Do not edit: change the source and run `betspec generate`.\n"
    )
    return head + text


def _index(specs: Sequence[Spec]) -> str:
    w = Writer(step=2)
    w(f"// Printed by betspec {__version__}: every engine of this package by structure name.")
    w("// Do not edit: run `betspec generate`.")
    w()
    w('export * from "./runtime.js";')
    w('export * from "./cards.js";')
    w('import type { Engine, StartJson, TableJson } from "./runtime.js";')
    for spec in specs:
        w(f'import {{ {spec.class_name} }} from "./{spec.name}.js";')
    w()
    for spec in specs:
        w(f'export {{ {spec.class_name} }} from "./{spec.name}.js";')
    w()
    w("/** An engine class: a hand from a table, options and a start; `restore` from a snapshot. */")
    with _braced(w, "export interface Structure"):
        w("new (table: TableJson, options?: Record<string, unknown>, start?: StartJson | null): Engine;")
        w("restore(data: unknown): Engine;")
    w()
    w("/** Every structure's engine class, by the spec's name. */")
    w("export const ENGINES: Readonly<Record<string, Structure>> = {")
    with w.indented():
        for spec in specs:
            w(f"{string(spec.name)}: {spec.class_name} as unknown as Structure,")
    w("};")
    return w.text()


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
            f"{SOURCES}/runtime.ts": _copied("runtime.ts", "the hand-written runtime"),
            f"{SOURCES}/cards.ts": _copied("cards.ts", "the hand-written dealer and showdown"),
            f"{SOURCES}/vocabulary.ts": _vocabulary(),
            f"{SOURCES}/mechanisms.ts": _mechanisms(),
            f"{SOURCES}/index.ts": _index(concrete),
        }
        for spec in concrete:
            files[f"{SOURCES}/{spec.name}.ts"] = _Module(spec, root).text()
        return files


BACKEND = register(TypeScriptBackend())
