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
import copy
import textwrap
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from typing import cast

from betspec import vocabulary
from betspec.backends import ir
from betspec.backends.base import BackendError, Context, header_lines, register
from betspec.backends.plan import (
    ACTOR,
    INPUT_VALUE_TYPES,
    Do,
    Let,
    Local,
    Statement,
    Store,
    ViewPlan,
    chosen_actions,
    engine_plan,
    event_moves,
    expressions,
    fired_events,
    functions_called,
    hoisted,
    kept,
    legal_when,
    quantity_function,
    requirement_checks,
    scope,
    settle_moves,
    start_moves,
    view_plan,
)
from betspec.backends.plan import (
    callbacks as plan_callbacks,
)
from betspec.backends.pyexpr import (
    ACCESSORS,
    PRIMITIVE_METHODS,
    RUNTIME_FUNCTIONS,
    Symbol,
    compile_source,
    fold,
    is_false,
    literal,
    negate,
    python,
    size,
    source,
)
from betspec.backends.writer import Writer
from betspec.model import COMPARE, Spec
from betspec.runtime import contract, primitives
from betspec.runtime.mechanisms import named_arguments

_PY_TYPES = {"int": "int", "bool": "bool", "int?": "int | None", "choice": "str"}
WIDTH = 96
#: The line length of the project's ruff settings, past which isort wraps an import.
IMPORT_WIDTH = 120


def _json_literal(value: object) -> str:
    """A Python literal for JSON data (lists as tuples): scalars through :func:`_lit`."""
    if isinstance(value, list):
        items = [_json_literal(v) for v in value]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(key)}: {_json_literal(item)}" for key, item in value.items()) + "}"
    return literal(value)


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


def _symbols(spec: Spec, model: str, seat: str | None = None) -> dict[str, Symbol]:
    """The plan's scope of the engine named ``model`` (about ``seat``), read as this back end reads it."""
    return scope(spec, model, ACCESSORS, seat=seat)


def generate(spec: Spec, root: str) -> str:
    """The source of ``generated/<spec.name>.py``, printed once: the hand constants the hot paths
    read (:class:`_HandConstants`) are found as their trees are printed, and the places that
    declare and compute them (the class's slots and fields, ``_hand_constants``) are written
    when the module is complete (:meth:`Writer.later`)."""
    token = _CONSTANTS.set(_HandConstants(spec))
    try:
        return _module(spec, root)
    finally:
        _CONSTANTS.reset(token)


def _module(spec: Spec, root: str) -> str:
    w = Writer()
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
    w(f"CONTRACT = {literal(contract.CONTRACT)}")
    w("require_abi(ABI, __name__, CONTRACT)")
    w()
    w(f"SPEC_NAME = {literal(spec.name)}")
    w(f"SPEC_HASH = {literal(spec.hash)}")
    w("#: The table inputs the spec declares (besides stacks and button).")
    names = sorted(item.name for item in engine_plan(spec).inputs)
    w("INPUT_NAMES = frozenset({" + ", ".join(literal(name) for name in names) + "})")
    w("#: The spec's streets (its betting rounds), in order.")
    planned = engine_plan(spec)
    w(f"STREETS: tuple[str, ...] = {_tuple(planned.streets)}")
    if planned.game is None:
        w("#: The spec declares no cards: a dealer deals none.")
        w("GAME: Mapping[str, object] | None = None")
    else:
        w("#: The cards the game deals, street by street, and how its showdown ranks them (for a dealer).")
        w("GAME: Mapping[str, object] | None = {")
        w.record(planned.game, literal, _json_literal, "()")  # one street's deal a line
        w("}")
    if planned.rake is not None:
        w("#: The house's rake: its percentage (in hundredths of a per cent), rounding, what the cap")
        w("#: bounds and the street a hand must reach to be raked; _rake_terms reads the rest.")
        w("RAKE: Mapping[str, object] | None = {")
        w.record(planned.rake, literal, _json_literal, "()")
        w("}")
    if planned.payments:
        w("#: The money paid outside the pot as the pots are paid, in the spec's order;")
        w("#: _payment_amounts reads each one's amount.")
        w("PAYMENTS: tuple[Mapping[str, object], ...] = (")
        with w.indented():
            for payment in planned.payments:
                w(f"{_json_literal(payment)},")
        w(")")
    for value in planned.street_values:
        values = _tuple(value.values)
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
    "betspec.runtime.table": ("ABSENT", "MAX_CHIPS", "Declared", "Start", "Table", "required_input", "unknown_inputs"),
}
_OPTION_CHECKS = vocabulary.OPTION_CHECKS


def _runtime_imports(spec: Spec) -> list[str]:
    """The import lines of a generated module, checked against the runtime's declared contract."""
    wanted = {module: set(names) for module, names in _RUNTIME_NAMES.items()}
    wanted["betspec.runtime.table"] |= {_OPTION_CHECKS[option.type] for option in engine_plan(spec).options}
    planned = engine_plan(spec)
    for item in (*planned.inputs, *planned.deal_inputs):
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
    return any(option.type == "choice" for option in engine_plan(spec).options)


def _option_type(option: ir.Option) -> str:
    if option.type == "choice":
        return "Literal[" + ", ".join(literal(choice) for choice in option.choices) + "]"
    return _PY_TYPES[option.type]


def _states(w: Writer, spec: Spec) -> None:
    w("class State(str, enum.Enum):")
    with w.indented():
        w(repr(f"The states of {spec.name}, one to one with the spec's."))
        w()
        for state in engine_plan(spec).states:
            w(f"{_enum_member(state.name)} = {literal(state.name)}")
    w()
    w()
    w("# The states as module constants: the engine's hot paths read these, not the enum's attributes")
    w("# (each a descriptor call in Python 3.11).")
    for state in engine_plan(spec).states:
        w(f"{_state_member(state.name)} = State.{_enum_member(state.name)}")
    w()
    w()


def _rules(w: Writer, spec: Spec) -> None:
    w("#: Rule id -> (text, source), as the spec's rules table states them.")
    w("RULES: dict[str, tuple[str, str]] = {")
    with w.indented():
        for rule in engine_plan(spec).rules:
            w(f"{literal(rule.id)}: (")
            with w.indented():
                w(_text(rule.text, w.level) + ",")
                w(_text(rule.source, w.level) + ",")
            w("),")
    w("}")
    w()
    w()


def _quantities(w: Writer, spec: Spec, symbols: Mapping[str, Symbol], cls: str) -> None:
    seat_symbols = _symbols(spec, "m", seat="seat")
    for quantity in engine_plan(spec).quantities:
        params = f"m: {cls}Machine, to: int" if quantity.needs_to else f"m: {cls}Machine"
        if quantity.per_seat:
            params = f"m: {cls}Machine, seat: int"
        w(f"def q_{quantity.name}({params}) -> {_PY_TYPES[quantity.type]}:")
        with w.indented():
            w(repr(f"{quantity.meaning} (rule {quantity.rule})."))
            scope = seat_symbols if quantity.per_seat else symbols
            w(f"return {compile_source(quantity.tree, scope)}")
        w()
        w()


def _push_rulings(w: Writer, spec: Spec, symbols: Mapping[str, Symbol], cls: str) -> None:
    """``push_ruling``: the spec's rulings on chips pushed, in its order; the first that applies."""
    signature = f"m: {cls}Machine, pushed: int, chips: int, largest_chip: int, said: Said"
    w(f"def push_ruling({signature}) -> tuple[str, int | None, str]:")
    with w.indented():
        w(repr("How chips pushed, with what was said, are ruled: (fold|check|call|wager|withdraw, to, rule)."))
        w("said_fold, said_check, said_call = said.fold, said.check, said.call")
        w("said_bet, said_raise = said.bet, said.raise_")
        w("said_to = said.to")
        _Statements(w, symbols, symbols).visit_all(engine_plan(spec).push_ruling.body)
    w()
    w()


#: An operand of min or max this small, calling nothing, is read twice rather than passed to a call.
EXTREMUM_OPERAND_NODES = 6


class _Extrema(ast.NodeTransformer):
    """``min(a, b)`` as ``a if a <= b else b`` and ``max(a, b)`` as ``a if a >= b else b`` where
    ``a`` and ``b`` are small reads calling nothing (expressions are pure: reading twice changes
    nothing but the speed; the first of equal operands is the one chosen, as by min and max)."""

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        name = node.func.id if isinstance(node.func, ast.Name) else ""
        if name not in ("min", "max") or len(node.args) != 2 or node.keywords:
            return node
        if not all(_plain_operand(arg) for arg in node.args):
            return node
        a, b = node.args
        test = ast.Compare(a, [ast.LtE() if name == "min" else ast.GtE()], [b])
        return ast.IfExp(test, fold(a), fold(b))


def _plain_operand(tree: ast.expr) -> bool:
    return size(tree) <= EXTREMUM_OPERAND_NODES and not any(isinstance(n, ast.Call) for n in ast.walk(tree))


class _HandConstants:
    """What the hot paths read that only the options and the table's inputs decide, found in the
    trees :func:`fast_source` prints and read from a field computed once a hand (``_k_<what it computes>``, in
    ``_hand_constants``, after the table's checks) instead of at every decision.

    Only what cannot raise is taken (so that computing it ahead, whether or not the hot path
    would have reached it, changes nothing): scalar options and inputs (never one that may be
    None, never a per-seat list), constants, arithmetic and comparisons of them, a floor
    division or remainder only by a constant or a declared positive option or input, ``min``
    and ``max`` of numbers."""

    def __init__(self, spec: Spec) -> None:
        #: field -> (kind: int, bool or str; never zero or less)
        self.kinds: dict[str, tuple[str, bool]] = {"LAST_STREET": ("int", False)}
        for option in engine_plan(spec).options:
            if option.type in ("int", "bool", "choice"):
                positive = option.type == "int" and option.minimum is not None and option.minimum >= 1
                kind = "str" if option.type == "choice" else option.type
                self.kinds[f"_opt_{option.name}"] = (kind, positive)
        for item in engine_plan(spec).inputs:
            if item.per_seat or item.type not in ("int", "bool", "choice"):
                continue
            positive = item.type == "int" and item.minimum is not None and item.minimum >= 1
            for name in item.names:
                self.kinds[f"_in_{name}"] = ("str" if item.type == "choice" else item.type, positive)
        #: source of a constant tree -> (field, tree, kind), in the order first met
        self.found: dict[str, tuple[str, ast.expr, str]] = {}
        #: field -> the words of its name (a constant of constants names them by theirs)
        self.words: dict[str, str] = {}

    def kind(self, node: ast.expr) -> str | None:
        """int, bool or str for a tree that is a hand's constant and cannot raise; else None."""
        numbers = ("int", "bool")
        if isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool | int | str):
                return "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "str"
            return None
        if isinstance(node, ast.Attribute):
            return self.kinds[node.attr][0] if node.attr in self.kinds and isinstance(node.value, ast.Name) else None
        if isinstance(node, ast.UnaryOp):
            inner = self.kind(node.operand)
            if isinstance(node.op, ast.Not):
                return "bool" if inner is not None else None
            return "int" if isinstance(node.op, ast.USub) and inner in numbers else None
        if isinstance(node, ast.BinOp):
            left, right = self.kind(node.left), self.kind(node.right)
            if left not in numbers or right not in numbers:
                return None
            if isinstance(node.op, ast.Add | ast.Sub | ast.Mult):
                return "int"
            if isinstance(node.op, ast.FloorDiv | ast.Mod) and self.positive(node.right):
                return "int"
            return None
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            kinds = [self.kind(operand) for operand in operands]
            if None in kinds or not all(type(op) in COMPARE for op in node.ops):
                return None
            ordered = any(not isinstance(op, ast.Eq | ast.NotEq) for op in node.ops)
            return None if ordered and not all(k in numbers for k in kinds) else "bool"
        if isinstance(node, ast.BoolOp | ast.IfExp):
            parts = node.values if isinstance(node, ast.BoolOp) else [node.body, node.orelse]
            kinds = [self.kind(part) for part in parts]
            if isinstance(node, ast.IfExp) and self.kind(node.test) is None:
                return None
            if len(set(kinds)) == 1:
                return kinds[0]
            return "int" if all(k in numbers for k in kinds) else None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
            if node.keywords or len(node.args) < 2:
                return None
            return "int" if all(self.kind(arg) in numbers for arg in node.args) else None
        return None

    def positive(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Constant):
            return type(node.value) is int and node.value > 0
        return isinstance(node, ast.Attribute) and self.kinds.get(node.attr, ("", False))[1]

    def field(self, tree: ast.expr, kind: str) -> str:
        """The field holding ``tree`` (reading ``self``); a constant of constants in its turn."""
        text = source(self._expanded(tree))
        if text not in self.found:
            name = self.name(tree)
            taken = {found[0] for found in self.found.values()}
            field = f"_k_{name}"
            # Two trees read alike once shortened (an if's test left out): the second one numbered.
            again = 2
            while field in taken:
                field, again = f"_k_{name}_{again}", again + 1
            self.found[text] = (field, tree, kind)
            self.kinds[field] = (kind, False)  # computed after those it reads
            self.words[field] = name
        return self.found[text][0]

    def _expanded(self, tree: ast.expr) -> ast.expr:
        """``tree`` with the fields of constants it reads written out: one key for one computation,
        whether a tree reads another constant's field or computes it again."""
        trees = {found[0]: found[1] for found in self.found.values()}

        class Expand(ast.NodeTransformer):
            def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
                inner = trees.get(node.attr)
                return node if inner is None else cast(ast.expr, self.visit(copy.deepcopy(inner)))

        return cast(ast.expr, Expand().visit(copy.deepcopy(tree)))

    def reading_earlier(self, field: str, tree: ast.expr) -> ast.expr:
        """``tree``, the computation of ``field``, reading the constants computed before it from
        their fields where it computes them again."""
        order = [found[0] for found in self.found.values()]
        earlier = {key: found[0] for key, found in self.found.items() if order.index(found[0]) < order.index(field)}
        expanded = self._expanded

        class Read(ast.NodeTransformer):
            def visit(self, node: ast.AST) -> ast.AST:
                if node is not tree and isinstance(node, ast.expr) and not isinstance(node, ast.Attribute):
                    known = earlier.get(source(expanded(node)))
                    if known is not None:
                        return ast.Attribute(ast.Name("self", ast.Load()), known, ast.Load())
                return self.generic_visit(node)

        return cast(ast.expr, Read().visit(copy.deepcopy(tree)))

    def name(self, tree: ast.expr) -> str:
        """A field's name said by what it computes (``small_chips_is_stay_behind``,
        ``big_blind_at_least_1_rounded_up_to_bet_unit``); past :data:`_NAME_WIDTH` characters an
        if's test is left out (``bomb_pot_or_big_blind``)."""
        full = self._words(tree, short=False)
        return full if len(full) <= _NAME_WIDTH else self._words(tree, short=True)

    def _words(self, node: ast.expr, short: bool) -> str:
        def words(child: ast.expr) -> str:
            return self._words(child, short)

        if isinstance(node, ast.Constant):
            value = node.value
            text = str(value).lower() if isinstance(value, bool | int) else str(value)
            return "".join(c if c.isascii() and (c.isalnum() or c == "_") else "_" for c in text) or "empty"
        if isinstance(node, ast.Attribute):
            if node.attr in self.words:
                return self.words[node.attr]
            return node.attr.removeprefix("_opt_").removeprefix("_in_").lower()
        if isinstance(node, ast.UnaryOp):
            return f"{'not' if isinstance(node.op, ast.Not) else 'minus'}_{words(node.operand)}"
        rounded = _rounded_up(node)
        if rounded is not None:
            return f"{words(rounded[0])}_rounded_up_to_{words(rounded[1])}"
        if isinstance(node, ast.BinOp):
            return f"{words(node.left)}_{_OPERATOR_WORDS[type(node.op)]}_{words(node.right)}"
        if isinstance(node, ast.Compare):
            said = [words(node.left)]
            for op, right in zip(node.ops, node.comparators, strict=True):
                said += [_OPERATOR_WORDS[type(op)], words(right)]
            return "_".join(said)
        if isinstance(node, ast.BoolOp):
            return f"_{'and' if isinstance(node.op, ast.And) else 'or'}_".join(words(v) for v in node.values)
        if isinstance(node, ast.IfExp):
            if short:
                return f"{words(node.body)}_or_{words(node.orelse)}"
            return f"{words(node.body)}_if_{words(node.test)}_else_{words(node.orelse)}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 2:
            # min and max of two: the bound the value is held to.
            held = "at_least" if node.func.id == "max" else "at_most"
            return f"{words(node.args[0])}_{held}_{words(node.args[1])}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            return f"{node.func.id}_of_{'_and_'.join(words(a) for a in node.args)}"
        raise AssertionError(f"no words for a hand constant's {type(node).__name__}")


#: A hand constant's field name is at most this long before it is shortened (:meth:`_HandConstants.name`).
_NAME_WIDTH = 48

_OPERATOR_WORDS: dict[type, str] = {
    ast.Add: "plus",
    ast.Sub: "minus",
    ast.Mult: "times",
    ast.FloorDiv: "div",
    ast.Mod: "mod",
    ast.Eq: "is",
    ast.NotEq: "is_not",
    ast.Gt: "over",
    ast.GtE: "at_least",
    ast.Lt: "under",
    ast.LtE: "at_most",
}


def _rounded_up(node: ast.expr) -> tuple[ast.expr, ast.expr] | None:
    """(value, unit) where ``node`` is ``-(-value // unit) * unit``, the value rounded up to a
    multiple of the unit as the printer writes it; else None."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
        return None
    left = node.left
    if not (isinstance(left, ast.UnaryOp) and isinstance(left.op, ast.USub)):
        return None
    inner = left.operand
    if not (isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.FloorDiv)):
        return None
    value = inner.left
    if not (isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub)):
        return None
    if source(inner.right) != source(node.right):
        return None
    return value.operand, node.right


class _Hoist(ast.NodeTransformer):
    """The largest hand constants of a tree (:class:`_HandConstants`) read from their fields."""

    def __init__(self, constants: _HandConstants) -> None:
        self.constants = constants

    def visit(self, node: ast.AST) -> ast.AST:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
            # min and max of ints are associative: the constant operands as one constant.
            fixed = [arg for arg in node.args if self.constants.kind(arg) in ("int", "bool")]
            if 2 <= len(fixed) < len(node.args) and not node.keywords:
                rest = [arg for arg in node.args if arg not in fixed]
                node = ast.Call(node.func, [*rest, ast.Call(node.func, fixed, [])], [])
        if isinstance(node, ast.expr) and not isinstance(node, ast.Attribute | ast.Constant):
            kind = self.constants.kind(node)
            reads = [n for n in ast.walk(node) if isinstance(n, ast.Attribute)]
            if kind is not None and reads:
                model = reads[0].value
                assert isinstance(model, ast.Name)
                normal = _Renamed("self", model.id).visit(copy.deepcopy(node))
                assert isinstance(normal, ast.expr)
                return ast.Attribute(ast.Name(model.id, ast.Load()), self.constants.field(normal, kind), ast.Load())
        visited: ast.AST = super().visit(node)
        return visited


#: The hand constants of the spec being generated (:func:`generate` sets them; a context
#: variable: engines generated at once in two threads do not share them).
_CONSTANTS: ContextVar[_HandConstants | None] = ContextVar("hand_constants", default=None)


def _hand_constants() -> list[tuple[str, ast.expr, str]]:
    """The hand constants found so far: (field, tree reading ``self``, kind)."""
    constants = _CONSTANTS.get()
    return list(constants.found.values()) if constants is not None else []


def fast_tree(tree: ast.expr) -> ast.expr:
    """``tree`` with its small extrema written as conditions (:class:`_Extrema`): the same
    values, no builtin call (the Python back end's hot paths); the hand's constants in it read
    from their fields (:class:`_HandConstants`)."""
    result: ast.AST = fold(tree)
    constants = _CONSTANTS.get()
    if constants is not None:
        result = _Hoist(constants).visit(result)
    result = _Extrema().visit(result)
    assert isinstance(result, ast.expr)
    return result


def fast_source(tree: ast.expr) -> str:
    """:func:`source` of :func:`fast_tree`."""
    return source(fast_tree(tree))


#: The primitives an effect runs at every action or round, printed into it from their declaration
#: (betspec/runtime/primitives.py: a call saved per primitive); the others are called.
INLINED_PRIMITIVES = frozenset(
    {"_close_round", "_commit", "_deal_runout", "_mark_checked", "_mark_folded", "_open_betting", "_pass_action"}
)


class _Renamed(ast.NodeTransformer):
    """A tree with the engine's name ``model`` where it had ``name`` (``self`` as an effect names it)."""

    def __init__(self, model: str, name: str = "self") -> None:
        self.model, self.name = model, name

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return ast.Name(self.model, node.ctx) if node.id == self.name else node


class _Rewritten(ast.NodeTransformer):
    """A primitive's expression as printed on the engine named ``model``: ``self`` renamed, the
    runtime's constants written as their values, and (given ``playable``, the spec's quantity of
    the seat named ``seat``) that tree in place of the call to ``self._playable(seat)``."""

    def __init__(self, model: str, playable: ast.expr | None = None, values: bool = True) -> None:
        self.model, self.playable, self.values = model, playable, values

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if self.values and node.id in primitives.CONSTANTS:
            return ast.Constant(primitives.CONSTANTS[node.id])
        return ast.Name(self.model, node.ctx) if node.id == "self" else node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        func, args = node.func, node.args
        if (
            self.playable is not None
            and isinstance(func, ast.Attribute)
            and func.attr == "_playable"
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
            and len(args) == 1
            and isinstance(args[0], ast.Name)
            and args[0].id == "seat"
        ):
            return copy.deepcopy(self.playable)
        return cast(ast.expr, self.generic_visit(node))


def _fused(statements: Sequence[primitives.Statement]) -> list[primitives.Statement]:
    """``statements`` with each call of another declared primitive on ``self`` (one whose
    arguments are its parameters' names) replaced by that primitive's statements: the fused
    copy, made here rather than by hand."""
    found: list[primitives.Statement] = []
    for statement in statements:
        call = statement.value if isinstance(statement, primitives.Do) else None
        callee = (
            primitives.BY_NAME.get(call.func.attr)
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            else None
        )
        if (
            callee is not None
            and isinstance(call, ast.Call)
            and [a.id for a in call.args if isinstance(a, ast.Name)] == list(callee.params)
        ):
            found += _fused(callee.statements)
        elif isinstance(statement, primitives.If):
            found.append(primitives.If(statement.test, tuple(_fused(statement.body)), tuple(_fused(statement.orelse))))
        elif isinstance(statement, primitives.For):
            found.append(primitives.For(statement.target, statement.iter, tuple(_fused(statement.body))))
        else:
            found.append(statement)
    return found


def primitive_lines(
    statements: Sequence[primitives.Statement], model: str, playable: ast.expr | None = None, comments: bool = False
) -> list[str]:
    """Python lines for a primitive's statements (fused) on the engine named ``model``,
    expressions through :func:`source`: the same bytes wherever the engines are generated. With
    ``comments``, the declaration's comments too, and the runtime's constants by their names (the
    runtime's own copy)."""
    rewrite = _Rewritten(model, playable, values=not comments)

    def expr(tree: ast.expr) -> str:
        text = source(cast(ast.expr, rewrite.visit(copy.deepcopy(tree))))
        return text[1:-1] if isinstance(tree, ast.Tuple) and tree.elts else text

    def block(body: Sequence[primitives.Statement]) -> list[str]:
        return ["    " + line for line in primitive_lines(body, model, playable, comments)]

    lines: list[str] = []
    for node in _fused(statements):
        if isinstance(node, primitives.Comment):
            lines += [f"# {line}" for line in textwrap.wrap(node.text, WIDTH - 12)] if comments else []
        elif isinstance(node, primitives.Assign):
            lines.append(" = ".join([*(expr(t) for t in node.targets), expr(node.value)]))
        elif isinstance(node, primitives.AugAssign):
            lines.append(f"{expr(node.target)} {node.op}= {expr(node.value)}")
        elif isinstance(node, primitives.Do):
            lines.append(expr(node.value))
        elif isinstance(node, primitives.Return):
            lines.append("return")
        elif isinstance(node, primitives.For):
            lines += [f"for {node.target} in {expr(node.iter)}:", *block(node.body)]
        else:
            lines += [f"if {expr(node.test)}:", *block(node.body)]
            orelse = node.orelse
            while len(orelse) == 1 and isinstance(orelse[0], primitives.If):
                lines += [f"elif {expr(orelse[0].test)}:", *block(orelse[0].body)]
                orelse = orelse[0].orelse
            lines += ["else:", *block(orelse)] if orelse else []
    return lines


def _stored(statements: Sequence[primitives.Statement]) -> set[str]:
    """The names a primitive's statements bind (its locals, and any parameter it rebinds)."""
    names: set[str] = set()
    for node in _fused(statements):
        targets: list[ast.expr] = []
        if isinstance(node, primitives.Assign):
            targets = list(node.targets)
        elif isinstance(node, primitives.AugAssign):
            targets = [node.target]
        elif isinstance(node, primitives.For):
            names.add(node.target)
            names |= _stored(node.body)
        elif isinstance(node, primitives.If):
            names |= _stored(node.body) | _stored(node.orelse)
        for target in targets:
            names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    return names


def _returns(statements: Sequence[primitives.Statement]) -> bool:
    return any(
        isinstance(node, primitives.Return)
        or (isinstance(node, primitives.If) and (_returns(node.body) or _returns(node.orelse)))
        or (isinstance(node, primitives.For) and _returns(node.body))
        for node in _fused(statements)
    )


def _primitive(
    method: str, args: list[str], model: str, taken: set[str], last: bool, playable: ast.expr | None
) -> list[str] | None:
    """The lines of the primitive ``method`` with ``args`` (sources) on the engine named
    ``model``, or None where it is called instead: not one of :data:`INLINED_PRIMITIVES`, a
    return before the effect's end, or a name of its that the effect uses too (a parameter
    given as the same name, and never rebound, is shared)."""
    body = primitives.BY_NAME.get(method) if method in INLINED_PRIMITIVES else None
    if body is None or (_returns(body.statements) and not last):
        return None
    lines = [f"# {method}, printed from its declaration (betspec/runtime/primitives.py): a call fewer"]
    stored = _stored(body.statements)
    names = set(stored)
    for param, arg in zip(body.params, args, strict=True):
        if arg != param or param in stored:
            names.add(param)
            lines.append(f"{param} = {arg}")
    if names & taken or model in names:
        return None
    return lines + primitive_lines(body.statements, model, playable)


def statement_lines(
    statements: Iterable[Statement], model: str = "m", taken: Iterable[str] = (), playable: ast.expr | None = None
) -> list[str]:
    """Python lines for an effect's statements, the engine named ``model`` (``taken``: the
    effect's parameters). The commonest primitives are printed in place (:func:`_primitive`),
    with ``playable`` (the spec's quantity, of the seat named ``seat``) for the call to it."""
    statements = list(statements)
    names = set(taken) | {model}
    for statement in statements:
        if isinstance(statement, Let):
            names.add(statement.name)
            names |= {n.id for n in ast.walk(statement.value) if isinstance(n, ast.Name)}
        elif isinstance(statement, Store):
            names.add(statement.value)
        else:
            names |= {n.id for arg in statement.args for n in ast.walk(arg) if isinstance(n, ast.Name)}
    lines: list[str] = []
    for index, statement in enumerate(statements):
        if isinstance(statement, Let):
            lines.append(f"{statement.name} = {fast_source(statement.value)}")
        elif isinstance(statement, Store):
            lines.append(f"{statement.target.format(m=model, seat=f'{model}._actor')} = {statement.value}")
        else:
            assert isinstance(statement, Do)
            args = [fast_source(arg) for arg in statement.args]
            method = PRIMITIVE_METHODS[statement.primitive]
            inlined = _primitive(method, args, model, names, index == len(statements) - 1, playable)
            lines += inlined if inlined is not None else [f"{model}.{method}({', '.join(args)})"]
    return lines


def _callbacks(
    w: Writer, spec: Spec, symbols: Mapping[str, Symbol], cls: str
) -> dict[int, tuple[str | None, str | None]]:
    """Guard and effect functions per transition (:func:`callbacks`), each with its
    ``transitions`` callback (``when_X_event(ev)``, ``do_X_event(ev)``, send_event=True): both
    paths run the same functions."""
    found = plan_callbacks(spec, symbols)
    formula = engine_plan(spec).quantities_by_name["playable"].tree
    playable = fast_tree(python(formula, _symbols(spec, "m", seat="seat")))
    w("# ---- guards and effects, and their transitions callbacks (send_event=True) ----")
    w()
    w()
    _function(
        w,
        f"def _hand(ev: EventData) -> {cls}Machine:",
        repr("The hand an event of the machine was triggered for."),
        f"return cast({cls}Machine, ev.model)",
    )
    for name, statements in found.starts.items():
        doc = repr(f"What {name} does before its guards choose the first state.")
        _function(w, f"def on_{name}(m: {cls}Machine) -> None:", doc, *statement_lines(statements))
    written: set[str] = set()
    for guard_name, effect_name in found.of.values():
        if guard_name is not None and guard_name not in written:
            written.add(guard_name)
            guard = found.guards[guard_name]
            takes_to, body = guard.takes_to, source(guard.test)
            params = f"m: {cls}Machine, to: int" if takes_to else f"m: {cls}Machine"
            forward = f"_hand(ev){', *ev.args' if takes_to else ''}"
            _function(w, f"def {guard_name}({params}) -> bool:", f"return {body}")
            _function(w, f"def {guard_name}_event(ev: EventData) -> bool:", f"return {guard_name}({forward})")
        if effect_name is not None and effect_name not in written:
            written.add(effect_name)
            effect = found.effects[effect_name]
            takes_to = effect.takes_to
            lines = statement_lines(effect.body, taken=("to",) if takes_to else (), playable=playable)
            params = f"m: {cls}Machine, to: int" if takes_to else f"m: {cls}Machine"
            forward = f"_hand(ev){', *ev.args' if takes_to else ''}"
            _function(w, f"def {effect_name}({params}) -> None:", *lines)
            _function(w, f"def {effect_name}_event(ev: EventData) -> None:", f"{effect_name}({forward})")
    return found.of


def _function(w: Writer, header: str, *body: str) -> None:
    """A module-level function: ``header``, the lines of its ``body`` one level in, two blank lines."""
    _method(w, header, *body)
    w()


def _machine(w: Writer, spec: Spec, callbacks: Mapping[int, tuple[str | None, str | None]]) -> None:
    w("# One machine for the class: hands are models triggered through its events, never attached.")
    w("MACHINE = Machine(")
    with w.indented():
        w("model=None,")
        w("states=State,")
        w(f"initial=State.{_enum_member(engine_plan(spec).initial)},")
        w("model_attribute='_state',")
        w("auto_transitions=False,")
        w("send_event=True,")
        w("ignore_invalid_triggers=True,")
        w("transitions=[")
        with w.indented():
            for index, t in enumerate(engine_plan(spec).transitions):
                guard, effect = callbacks[index]
                parts = [
                    f'"trigger": {literal(t.event)}',
                    f'"source": State.{_enum_member(t.source)}',
                    f'"dest": State.{_enum_member(t.dest)}',
                ]
                if guard:
                    parts.append(f'"conditions": [{guard}_event]')
                if effect:
                    parts.append(f'"before": [{effect}_event]')
                w("{" + ", ".join(parts) + "},  # rule " + t.rule)
        w("],")
    w(")")
    for event in fired_events(spec):
        w(f"EVENT_{event.name.upper()}: Event = MACHINE.events[{literal(event.name)}]")
    w()
    w("#: The spec's transitions in its order: (event, source, destination, guard, rule).")
    w("TRANSITIONS: tuple[tuple[str, str, str, str | None, str], ...] = (")
    with w.indented():
        for t in engine_plan(spec).transitions:
            guard = literal(t.guard) if t.guard is not None else "None"
            w(f"({literal(t.event)}, {literal(t.source)}, {literal(t.dest)}, {guard}, {literal(t.rule)}),")
    w(")")
    w()
    w("# The same transitions as tables for the compiled path: per source state, in the spec's order,")
    w("# (guard or None, effect or None, destination); the first whose guard holds is taken.")
    for event in fired_events(spec):
        w(f"FAST_{event.name.upper()}: Steps = {{")
        by_source: dict[str, list[str]] = {}
        for index, t in enumerate(engine_plan(spec).transitions):
            if t.event == event.name:
                guard, effect = callbacks[index]
                step = f"({guard or 'None'}, {effect or 'None'}, State.{_enum_member(t.dest)})"
                by_source.setdefault(t.source, []).append(step)
        with w.indented():
            for state, steps in by_source.items():
                w(f"State.{_enum_member(state)}: ({', '.join(steps)},),")
        w("}")
    w()
    w()


def _sources(spec: Spec, event: str) -> str:
    members = sorted(engine_plan(spec).sources[event])
    return "frozenset({" + ", ".join(f"State.{_enum_member(s)}" for s in members) + "})"


def _functions_used(spec: Spec) -> list[str]:
    """The runtime functions (not builtins) the compiled expressions still call, sorted: a
    rounding whose unit is declared positive is written as arithmetic instead."""
    symbols = _symbols(spec, "m")
    return functions_called((python(expr.tree, symbols) for expr in expressions(spec)), RUNTIME_FUNCTIONS)


def _engine(
    w: Writer,
    spec: Spec,
    symbols: Mapping[str, Symbol],
    cls: str,
    callbacks: Mapping[int, tuple[str | None, str | None]],
) -> None:
    """The engine's two classes: {cls}Machine, every event through the transitions machine, and
    {cls}, the default engine, the same hand through compiled tables."""
    self_symbols = _symbols(spec, "self")
    actions = [e for e in engine_plan(spec).events if e.kind == "action"]
    _legal_sets(w, spec, actions)
    w(f"class {cls}Machine(Engine):")
    with w.indented():
        w(repr(f"{spec.title}, every event through the transitions machine. {spec.description}".strip()))
        w()
        _class_variables(w, spec)
        _fields(w, spec)
        _hand_methods(w, spec, self_symbols, actions)
    _compiled_class(w, spec, self_symbols, cls, callbacks, actions)


def _legal_sets(w: Writer, spec: Spec, actions: list[ir.Event]) -> None:
    """Each event's source states, and the legal-action tuples a view is indexed into."""
    for event in [*actions, *(e for e in engine_plan(spec).events if e.kind == "deal")]:
        w(f"FROM_{event.name.upper()} = {_sources(spec, event.name)}")
    names = [e.name for e in chosen_actions(spec)]
    w("#: Sorted tuples of legal actions, indexed by one bit per action in this order: " + ", ".join(names))
    w("LEGAL_SETS: tuple[tuple[str, ...], ...] = (")
    with w.indented():
        for mask in range(2 ** len(names)):
            chosen = tuple(name for i, name in enumerate(names) if mask >> i & 1)
            w(f"{chosen!r},")
    w(")")
    w()
    w()


def _class_variables(w: Writer, spec: Spec) -> None:
    """The machine class's slots and the class variables the runtime reads."""
    declared = [
        *(f"_opt_{option.name}" for option in engine_plan(spec).options),
        *(f"_in_{name}" for item in engine_plan(spec).inputs for name in item.names),
        *(f"_role_{name}" for name in engine_plan(spec).role_names),
        *(f"_dl_{item.name}" for item in engine_plan(spec).deal_inputs),
        *(f"_v_{reset.variable}" for reset in engine_plan(spec).variable_defaults),
    ]

    def slots(w: Writer) -> None:
        names = sorted([*declared, *(field for field, _, _ in _hand_constants())])
        listed = ", ".join(f'"{name}"' for name in names)
        w(f"__slots__ = ({listed}{',' if len(names) == 1 else ''})")

    w.later(slots)
    w()
    w("SPEC_NAME: ClassVar[str] = SPEC_NAME")
    w("SPEC_HASH: ClassVar[str] = SPEC_HASH")
    w("RULES: ClassVar[dict[str, tuple[str, str]]] = RULES")
    _dictionary(
        w,
        "PROCEDURE_RULES: ClassVar[dict[str, str]]",
        (f"{literal(code)}: {literal(rule)}," for code, rule in engine_plan(spec).procedure_rules.items()),
    )
    w("STREETS: ClassVar[tuple[str, ...]] = STREETS")
    w("GAME: ClassVar[Mapping[str, object] | None] = GAME")
    planned = engine_plan(spec)
    if planned.rake is not None:
        w("RAKE: ClassVar[Mapping[str, object] | None] = RAKE")
    if planned.payments:
        w("PAYMENTS: ClassVar[tuple[Mapping[str, object], ...]] = PAYMENTS")
    w(f"LAST_STREET: ClassVar[int] = {len(planned.streets) - 1}")
    _dictionary(
        w,
        "STATE_PHASE: ClassVar[dict[State, str]]",
        (f"State.{_enum_member(state.name)}: {literal(state.phase)}," for state in planned.states),
    )
    _dictionary(
        w,
        "OPTION_DEFAULTS: ClassVar[dict[str, int | bool | str | None]]",
        (f"{literal(option.name)}: {literal(option.default)}," for option in engine_plan(spec).options),
    )
    _dictionary(
        w, "OPTIONS: ClassVar[dict[str, Declared]]", (_declared_option(option) for option in engine_plan(spec).options)
    )
    _declared_inputs(w, "INPUTS", engine_plan(spec).inputs)
    _declared_inputs(w, "DEAL_INPUTS", engine_plan(spec).deal_inputs)
    own = engine_plan(spec).own_actions
    w(f"OWN_ACTIONS: ClassVar[tuple[str, ...]] = {own!r}")
    _dictionary(
        w,
        "DECLARED_VARIABLES: ClassVar[dict[str, str]]",
        (f"{literal(v.variable)}: {literal(v.scope)}," for v in engine_plan(spec).variable_defaults),
    )
    w(f"INITIAL: ClassVar[State] = State.{_enum_member(planned.initial)}")
    automatic = [e for e in fired_events(spec) if e.kind == "automatic"]
    pairs = ", ".join(f"(EVENT_{e.name.upper()}, FAST_{e.name.upper()})" for e in automatic)
    w(f"AUTOMATIC: ClassVar[tuple[tuple[Event, Steps], ...]] = ({pairs}{',' if len(automatic) == 1 else ''})")
    w(f"SETTLE_LIMIT: ClassVar[int] = {len(planned.states)}")
    deal = next((e for e in fired_events(spec) if e.kind == "deal"), None)
    if deal is not None:  # a game of one betting round deals no street: the engine's empty DEAL
        w(f"DEAL: ClassVar[Steps] = FAST_{deal.name.upper()}")


def _dictionary(w: Writer, declaration: str, entries: Iterable[str]) -> None:
    """``declaration = {``, each of ``entries`` one level in, ``}``."""
    w(f"{declaration} = {{")
    with w.indented():
        for entry in entries:
            w(entry)
    w("}")


def _declared_option(option: ir.Option) -> str:
    """An option's entry in OPTIONS: its declaration, for tools that build tables."""
    extra = "".join(
        f", {key}={value}"
        for key, value in (
            ("minimum", literal(option.minimum)),
            ("maximum", literal(option.maximum)),
            ("choices", repr(tuple(option.choices))),
        )
        if value not in ("None", "()")
    )
    name, kind, default = literal(option.name), literal(option.type), literal(option.default)
    return f"{name}: Declared({name}, {kind}, {default}{extra}),"


def _fields(w: Writer, spec: Spec) -> None:
    """The hand's fields, typed: its state, options, inputs, roles, deal inputs, variables and
    hand constants."""
    w("_state: State")
    for option in engine_plan(spec).options:
        w(f"_opt_{option.name}: {_option_type(option)}")
    for item in engine_plan(spec).inputs:
        for name in item.names:
            w(f"_in_{name}: {_input_type(item)}")
    for name in engine_plan(spec).role_names:
        w(f"_role_{name}: int")
    for item in engine_plan(spec).deal_inputs:
        w(f"_dl_{item.name}: {_input_type(item)}")
    for variable in engine_plan(spec).variable_defaults:
        kind = _PY_TYPES[variable.type]
        w(f"_v_{variable.variable}: {f'list[{kind}]' if variable.per_seat else kind}")
    w.later(_constant_fields)
    w()


def _constant_fields(w: Writer) -> None:
    for field, _, kind in _hand_constants():
        w(f"{field}: {kind}")


def _method(w: Writer, header: str, *body: str) -> None:
    """A method of a few lines: ``header``, its ``body`` one level in, a blank line."""
    w(header)
    with w.indented():
        for line in body:
            w(line)
    w()


def _hand_constants_method(w: Writer) -> None:
    """``_hand_constants``, computing the fields the whole module's hot paths read (none: no method)."""
    constants = _CONSTANTS.get()
    if constants is None or not constants.found:
        return
    _method(
        w,
        "def _hand_constants(self) -> None:",
        repr("What the hot paths read that only the options and the table's inputs decide, once a hand."),
        *(f"self.{field} = {source(constants.reading_earlier(field, tree))}" for field, tree, _ in _hand_constants()),
    )


def _hand_methods(w: Writer, spec: Spec, self_symbols: Mapping[str, Symbol], actions: list[ir.Event]) -> None:
    """The machine class's methods: setting a hand up, the quantities the runtime reads, the
    refusals, the view and the actions."""
    _init(w, spec)
    _start(w, spec)
    _load_inputs(w, spec)
    _load_deal(w, spec)
    statements = _Statements(w, self_symbols, _symbols(spec, "self", seat="seat"))
    planned = engine_plan(spec)
    statements.method(planned.roles)
    statements.method(planned.forced_bets)
    statements.method(planned.checks)
    w.later(_hand_constants_method)
    # Called from the hand's setup on (after its constants are computed: they are read here).
    seat_symbols = _symbols(spec, "self", seat="seat")
    playable = fast_source(python(engine_plan(spec).quantities_by_name["playable"].tree, seat_symbols))
    _method(w, "def _playable(self, seat: int) -> int:", f"return {playable}")
    _method(w, "def _all_playable(self) -> list[int]:", f"return [{playable} for seat in range(self._n)]")
    _method(w, "def _all_in_to(self) -> int:", f"return {source(self_symbols['all_in_to'].tree)}")
    statements.returning(planned.next_hand, "tuple[int, dict[str, object]]")
    if planned.rake_terms is not None:
        statements.returning(planned.rake_terms, "tuple[int, int | None, int, int, int]")
    if planned.payment_amounts is not None:
        statements.returning(planned.payment_amounts, "tuple[int, ...]")
    statements.returning(planned.odd_chip_after, "int")
    _refusal(w, spec, self_symbols)
    _method(
        w,
        "def _push_ruling(self, pushed: int, chips: int, largest: int, said: Said) -> tuple[str, int | None, str]:",
        "return push_ruling(self, pushed, chips, largest, said)",
    )
    _method(
        w,
        "def _fire(self, event: Event, table: Steps, *args: int) -> bool:",
        repr("Take ``event`` through the transitions machine."),
        "return bool(event.trigger(self, *args))",
    )
    _view(w, spec, self_symbols, actions)
    for event in actions:
        if engine_plan(spec).sources[event.name]:
            takes_to = "to" in event.params
            _method(
                w,
                f"def _take_{event.name}(self{', to: int' if takes_to else ''}) -> None:",
                f"self._fire(EVENT_{event.name.upper()}, FAST_{event.name.upper()}{', to' if takes_to else ''})",
            )
    for event in actions:
        _action(w, spec, event, _in_place(spec, self_symbols))
    _deal(w, spec)


def _compiled_class(
    w: Writer,
    spec: Spec,
    self_symbols: Mapping[str, Symbol],
    cls: str,
    callbacks: Mapping[int, tuple[str | None, str | None]],
    actions: list[ir.Event],
) -> None:
    """The default engine: the machine's hand, its events taken through compiled tables."""
    w()
    w()
    w(f"class {cls}(Compiled, {cls}Machine):")
    doc = (
        f"{spec.title}: the default engine. The same spec, states, transitions, guards and effects as "
        f"{cls}Machine, taken through compiled tables instead of the transitions machine; the "
        "differential tests prove the two equal."
    )
    with w.indented():
        w(repr(doc))
        w()
        w("__slots__ = ()")
        for event in actions:
            _direct(w, spec, event, self_symbols, callbacks)
        _direct_settle(w, spec, self_symbols, callbacks)
        _direct_begin(w, spec, self_symbols, callbacks)


def _direct_begin(
    w: Writer, spec: Spec, symbols: Mapping[str, Symbol], callbacks: Mapping[int, tuple[str | None, str | None]]
) -> None:
    """``_begin`` for the compiled path: the start events' transitions from the initial state (the
    state every hand is in when it begins) written out, guards inline, as :func:`_start` takes
    them through the tables."""
    w()
    # Transitions read nothing about a seat a loop names: the hand's own symbols serve for both.
    printer = _Statements(w, symbols, symbols)

    def take(event: ir.Event) -> None:
        printer.visit(start_moves(spec, event, callbacks))

    _begin(w, spec, take)


def _state_member(state: str) -> str:
    """The module constant naming a state (``ST_<STATE>``)."""
    return f"ST_{_enum_member(state)}"


def _direct(
    w: Writer,
    spec: Spec,
    event: ir.Event,
    symbols: Mapping[str, Symbol],
    callbacks: Mapping[int, tuple[str | None, str | None]],
) -> None:
    """``_take_<event>`` for the compiled path: the event's transition from the current state taken
    directly, its guard inline, instead of a walk through its table. The action method has proved
    the state is a source of the event before it gets here."""
    moves = event_moves(spec, event, callbacks, last=True)
    if not moves.branches:
        return
    w()
    # One unguarded move that keeps the state, whatever the source: the effect is the method.
    effect = moves.branches[0][1].moves[0].effect
    if effect is not None and all(take.moves == (ir.Move(None, effect, None),) for _, take in moves.branches):
        w(f"_take_{event.name} = {effect}")
        return
    w(f"def _take_{event.name}(self{', to: int' if moves.branches[0][1].with_to else ''}) -> None:")
    with w.indented():
        _Statements(w, symbols, symbols).visit(moves)


def _direct_settle(
    w: Writer, spec: Spec, symbols: Mapping[str, Symbol], callbacks: Mapping[int, tuple[str | None, str | None]]
) -> None:
    """``_settle`` for the compiled path: the automatic events' transitions written out, guards
    inline, taken until none applies (at most one per state). It runs after every event. A state
    several automatic events leave tries them in the spec's order of events, as the machine fires
    them (Engine._settle): one branch holds them all."""
    w()
    w("def _settle(self) -> None:")
    with w.indented():
        w(repr("The automatic transitions (the end of a round) taken until none applies."))
        w("for _ in range(self.SETTLE_LIMIT):")
        with w.indented():
            w("state = self._state")
            _Statements(w, symbols, symbols).visit(settle_moves(spec, callbacks))
            w("break")
        w("self._view = None")


def _init(w: Writer, spec: Spec) -> None:
    params = ["self", "table: Table", "*", "start: Start | None = None"]
    for option in engine_plan(spec).options:
        params.append(f"{option.name}: {_option_type(option)} = {literal(option.default)}")
    w("def __init__(")
    with w.indented():
        for param in params:
            w(f"{param},")
    w(") -> None:")
    with w.indented():
        w(repr("A hand on ``table``; ``start`` begins on a later street with a pot instead of blinds."))
        for option in engine_plan(spec).options:
            w(f"self._opt_{option.name} = {_option_value(option)}")
        w("self._setup(table, start)")
    w()


def _option_value(option: ir.Option) -> str:
    """The option given to ``__init__``, as it is kept: checked against the spec's declaration."""
    name, check, given = literal(option.name), _OPTION_CHECKS[option.type], option.name
    # The plain case tested in place (what the runtime's check returns as it is given), the
    # runtime's check called only for anything else, to take it or refuse it.
    plain: str | None
    if option.type == "choice":
        value = f"{check}({name}, {given}, {tuple(option.choices)!r})"
        value = f"cast({literal(_option_type(option))}, {value})"
        plain = f"type({given}) is str and {given} in {tuple(option.choices)!r}"
    elif option.type == "bool":
        value = f"{check}({name}, {given})"
        plain = f"{given} is True or {given} is False"
    else:
        value = f"{check}({name}, {given}, {literal(option.minimum)}, {literal(option.maximum)})"
        plain = None
        if option.type == "int":  # the runtime's range of chips, and the option's own bounds
            low, minimum, maximum = "-MAX_CHIPS", option.minimum, option.maximum
            if minimum is not None and minimum >= 0:
                low, minimum = literal(minimum), None
            plain = f"type({given}) is int and {low} <= {given} <= MAX_CHIPS"
            plain += f" and {given} >= {minimum}" if minimum is not None else ""
            plain += f" and {given} <= {maximum}" if maximum is not None else ""
    return value if plain is None else f"{given} if {plain} else {value}"


def _start(w: Writer, spec: Spec) -> None:
    _begin(w, spec, lambda event: w(f"self._fire(EVENT_{event.name.upper()}, FAST_{event.name.upper()})"))
    w()


def _begin(w: Writer, spec: Spec, take: Callable[[ir.Event], None]) -> None:
    """``_begin``: the variables at their defaults, then the start event of a hand begun on its
    first street (the blinds) or the other one, each run and its transition taken by ``take``
    (through the tables, or written out for the compiled path)."""
    w("def _begin(self, street: str | None) -> None:")
    with w.indented():
        _Statements(w, {}, {}).visit_all(engine_plan(spec).variable_defaults)
        starts = [e for e in fired_events(spec) if e.kind == "start"]
        for blinds in (True, False):
            for event in (e for e in starts if e.blinds == blinds):
                if blinds:
                    w("if street is None:")
                # The blinds are posted only by a hand begun on its first street.
                with w.indented(1 if blinds else 0):
                    if event.has_effects:
                        w(f"on_{event.name}(self)")
                    take(event)
                    if blinds:
                        w("return")


def _declared_inputs(w: Writer, name: str, items: Iterable[ir.Given]) -> None:
    """``name``: the inputs as the spec declares them, for tools that build tables and deals."""
    w(f"{name}: ClassVar[dict[str, Declared]] = {{")
    with w.indented():
        for item in items:
            default = "ABSENT" if item.required else _json_literal(item.default)
            extra = "".join(
                f", {key}={value}"
                for key, value in (
                    ("minimum", literal(item.minimum)),
                    ("maximum", literal(item.maximum)),
                    ("choices", repr(tuple(item.choices))),
                    ("items", repr(tuple(item.items))),
                    ("per_seat", repr(item.per_seat)),
                    ("example", _json_literal(item.example)),
                    ("hand", repr(item.hand)),
                )
                if value not in ("None", "()", "False")
            )
            w(f"{literal(item.name)}: Declared({literal(item.name)}, {literal(item.type)}, {default}{extra}),")
    w("}")


def _input_type(item: ir.Given) -> str:
    """The Python type an input is kept as."""
    if item.type == "seats":
        return "tuple[int, ...]"
    if item.type == "choice":
        return "str"
    base = _PY_TYPES[INPUT_VALUE_TYPES.get(item.type, item.type)]
    return f"tuple[{base}, ...]" if item.per_seat else base


def _input_check(item: ir.Given, value: str, model: str = "self") -> tuple[str, set[str]]:
    """The runtime call that checks ``value`` (source) for ``item`` on the engine named ``model``,
    and the runtime names it calls."""
    check = item.check
    if check is None:
        raise BackendError(f"the Python back end does not know {item.unchecked} (input {item.name!r})")
    return _check_call(check, value, model), check.functions()


def _check_call(check: ir.InputCheck, value: str, model: str) -> str:
    args = [literal(check.input), value]
    if check.seats:
        args.append(f"{model}._n")
    if check.items is not None:
        args.append(str(check.items))
    if check.bounds is not None:
        args += [literal(bound) for bound in check.bounds]
    if check.choices is not None:
        args.append(repr(check.choices))
    if check.element is not None:  # called with the input's name and one seat's value
        each = check.element
        bounds = "" if each.bounds is None else "".join(f", {literal(bound)}" for bound in each.bounds)
        args.append(f"lambda n, v: {each.function}(n, v{bounds})" if bounds else each.function)
    return f"{check.function}({', '.join(args)})"


def _tuple(values: Sequence[object]) -> str:
    """A tuple literal of scalars: ``(a, b)``, ``(a,)`` for one value."""
    return _json_literal(list(values))


def _default_source(item: ir.Given) -> str:
    """The value an input keeps when the table does not give it, as Python source."""
    value = item.default
    if item.per_seat:
        return f"({literal(value)},) * self._n"
    if isinstance(value, list):
        return _tuple(value)
    return literal(value)


def _load_inputs(w: Writer, spec: Spec) -> None:
    """``_load_inputs``: every default set at once, then a loader for each input the table gives
    (most tables give one or two of a spec's inputs)."""
    w("def _load_inputs(self, given: Mapping[str, object]) -> None:")
    with w.indented():
        w(repr("The table's inputs, checked against the spec's; the defaults for those it does not give."))
        for item in engine_plan(spec).inputs:
            if item.required:
                w(f"if {literal(item.name)} not in given:")
                with w.indented():
                    w(f"raise required_input(SPEC_NAME, {literal(item.name)})")
        for item in engine_plan(spec).inputs:
            if not item.required:
                targets = ", ".join(f"self._in_{name}" for name in item.names)
                w(f"{targets} = {_default_source(item)}")
        w("for name, value in given.items():")
        with w.indented():
            w("load = LOADERS.get(name)")
            w("if load is None:")
            with w.indented():
                w("unknown_inputs(SPEC_NAME, given, INPUT_NAMES)")
            w("load(self, value)  # type: ignore[misc]")
    w()


def _loaders(w: Writer, spec: Spec, cls: str) -> None:
    """One function per input, checking a given value and keeping it (``LOADERS``)."""
    for item in engine_plan(spec).inputs:
        targets = ", ".join(f"m._in_{name}" for name in item.names)
        check = _input_check(item, "value", "m")[0]
        _function(w, f"def _load_{item.name}(m: {cls}Machine, value: object) -> None:", f"{targets} = {check}")
    w("#: The loader of each input the spec declares, by name.")
    _dictionary(
        w,
        f"LOADERS: dict[str, Callable[[{cls}Machine, object], None]]",
        (f"{literal(item.name)}: _load_{item.name}," for item in engine_plan(spec).inputs),
    )
    w()


class _Statements(ir.TransitionPrinter):
    """Prints a method of the engine plan into the engine class (the hand is ``self``)."""

    same_state = "is"
    tests_single_source = False

    def __init__(
        self,
        out: Writer,
        symbols: Mapping[str, Symbol],
        seat_symbols: Mapping[str, Symbol],
        written: Callable[[ast.expr], ast.expr] | None = None,
    ) -> None:
        super().__init__(out, symbols, seat_symbols)
        #: How a requirement's test is written with the hand constants among its locals in place.
        self.written = written

    def state(self, name: str) -> str:
        return _state_member(name)

    def expression(self, tree: ast.expr) -> str:
        return source(tree)

    def returning(self, method: ir.Method, returns: str) -> None:
        """A method of the hand that takes nothing and returns a value of the type ``returns``."""
        self.out(f"def {method.name}(self) -> {returns}:")
        with self.out.indented():
            self.visit_all(method.body)
        self.out()

    def method(self, method: ir.Method) -> None:
        """A method of the hand that takes nothing and gives nothing."""
        w = self.out
        w(f"def {method.name}(self) -> None:")
        with w.indented():
            if not method.body:
                w("return None")
            self.visit_all(ir.joined(method).body)
        w()

    def visit_Let(self, node: ir.Let) -> None:
        self.out(f"{node.local.name} = {self.value(node.value)}")

    def visit_SetRole(self, node: ir.SetRole) -> None:
        self.out(f"self._role_{node.role} = {self.value(node.value)}")

    def visit_If(self, node: ir.If) -> None:
        self.out(f"if {self.test(node.test)}:")
        with self.out.indented():
            self.visit_all(node.body)

    def visit_ForSeats(self, node: ir.ForSeats) -> None:
        self.out(f"for seat in {'self._from_button()' if node.seats is None else f'self._in_{node.seats}'}:")
        with self.out.indented():
            self.visit_all(node.body)

    def visit_Block(self, node: ir.Block) -> None:
        self.visit_all(node.body)

    def visit_Call(self, node: ir.Call) -> None:
        given = {name: self.value(value) for name, value in node.args}
        self.out(f"self.{node.mechanism}({', '.join(named_arguments(node.mechanism, given))})")

    def visit_Reject(self, node: ir.Reject) -> None:
        message = _text(node.message, self.out.level)
        self.out(f"{'return' if node.returned else 'raise'} {self.rejection(node, message)}")

    def visit_Require(self, node: ir.Require) -> None:
        failing = self.failing(node)
        if failing is None:
            self.out(f"# {ir.always_holds(node)}")
            return
        self.out(f"if {fast_source(failing if self.written is None else self.written(failing))}:")
        with self.out.indented():
            self.visit_Reject(node.otherwise)

    def visit_RefuseTable(self, node: ir.RefuseTable) -> None:
        rule = "" if node.rule is None else f", rule={literal(node.rule)}"
        if all(isinstance(part, str) for part in node.message):
            message = _text("".join(str(part) for part in node.message), self.out.level + 4)
        else:
            message = _formatted(node.message, self.value)
        self.out(f"raise InvalidTable({message}{rule})")


def _formatted(parts: tuple[str | ir.Value, ...], value: Callable[[ir.Value], str]) -> str:
    """An f-string of text and values (the text's braces doubled)."""
    text = "".join(
        part.replace("{", "{{").replace("}", "}}") if isinstance(part, str) else "{" + value(part) + "}"
        for part in parts
    )
    return "f" + repr(text)


def _refusal(w: Writer, spec: Spec, symbols: Mapping[str, Symbol]) -> None:
    """``_refusal``: the first requirement not reading 'to' that an action breaks, as an error."""
    w("def _refusal(self, action: str, seat: object, to: object) -> IllegalAction | None:")
    with w.indented():
        w(repr("Why ``action`` is not possible now (its requirements not reading 'to'), or None."))
        _Statements(w, symbols, symbols).visit_all(engine_plan(spec).refusal.body)
    w()


def _legal(event: ir.Event, symbols: Mapping[str, Symbol]) -> ast.expr:
    """When ``event`` is possible now: its source states, and its requirements not reading 'to'."""
    return legal_when(ast.parse(f"self._state in FROM_{event.name.upper()}", mode="eval").body, event, symbols)


def _in_place(spec: Spec, symbols: Mapping[str, Symbol]) -> dict[str, Symbol]:
    """``symbols`` with the quantities the plan calls as functions written in place instead (the
    view and the action methods: a call costs more here than what most of them compute; what
    is read more than once is still computed once, in a local). A quantity about another seat
    than the one to act stays a call."""
    found = dict(symbols)
    for quantity in engine_plan(spec).quantities:  # in dependency order
        name = quantity.name
        symbol = found[name]
        tree = symbol.tree
        called = isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name)
        if quantity.per_seat or (not symbol.inlined and not called):
            continue  # about another seat; or kept by the runtime (the seat's playable chips)
        if called:
            assert isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name)
            if tree.func.id != quantity_function(name):
                continue
            tree = python(quantity.tree, found)
        # A quantity that only the options and the table's inputs decide: read from its field.
        constants = _CONSTANTS.get()
        kind = constants.kind(tree) if constants is not None else None
        if constants is not None and kind is not None and not isinstance(tree, ast.Attribute | ast.Constant):
            model = next(n.value for n in ast.walk(tree) if isinstance(n, ast.Attribute))
            assert isinstance(model, ast.Name)
            normal = _Renamed("self", model.id).visit(copy.deepcopy(tree))
            assert isinstance(normal, ast.expr)
            tree = ast.Attribute(ast.Name(model.id, ast.Load()), constants.field(normal, kind), ast.Load())
        found[name] = Symbol(symbol.type, tree, "quantity")
    return found


class _Named(ast.NodeTransformer):
    """A tree with the locals ``values`` names written as their trees."""

    def __init__(self, values: Mapping[str, ast.expr]) -> None:
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.expr:
        value = self.values.get(node.id)
        return copy.deepcopy(value) if value is not None else node


def _constant_locals(locals_: list[Local]) -> tuple[list[Local], Callable[[ast.expr], ast.expr]]:
    """The locals that are not hand constants (:class:`_HandConstants`), and how to write a tree
    with those that are in place (each then one field read, or part of a larger constant)."""
    constants: dict[str, ast.expr] = {}
    others: list[Local] = []

    def written(tree: ast.expr) -> ast.expr:
        result = _Named(constants).visit(copy.deepcopy(tree))
        assert isinstance(result, ast.expr)
        return result

    for name, tree in locals_:
        tree = written(tree)
        found = _CONSTANTS.get()
        if found is not None and found.kind(fold(copy.deepcopy(tree))) is not None:
            constants[name] = tree
        else:
            others.append((name, tree))
    return others, written


def _view(w: Writer, spec: Spec, symbols: Mapping[str, Symbol], actions: list[ir.Event]) -> None:
    """``_compute_view``: legality and bounds in one pass, shared subexpressions computed once."""
    w("def _compute_view(self) -> View:")
    with w.indented():
        w(repr("What the seat to act may do, computed once per decision and kept until the next event."))
        w(f"{ACTOR} = self._actor")
        w(f"if {ACTOR} < 0:")
        with w.indented():
            w("self._view = NO_VIEW")
            w("return NO_VIEW")
        # Read often here: the seat to act and the bet level as locals.
        symbols = dict(_symbols(spec, "self", seat=ACTOR))
        symbols["bet_level"] = Symbol.read(symbols["bet_level"].type, "level", "variable")
        symbols = _in_place(spec, symbols)
        w("level = self._bet_level")
        chosen = chosen_actions(spec)
        names = [e.name for e in chosen]
        plan = view_plan(spec, symbols, chosen, _view_legal)
        locals_, written = _constant_locals(plan.locals)
        plan = ViewPlan(
            locals_,
            {name: written(tree) for name, tree in plan.legal.items()},
            written(plan.call),
            [(action, written(lowest), written(highest)) for action, lowest, highest in plan.bounds],
        )
        _view_body(w, plan, names)
    w()


def _view_body(w: Writer, plan: ViewPlan, names: list[str]) -> None:
    """The view computed from the plan: legality, the legal tuple, and the bounds of a wager."""
    call = plan.call
    # The state, read by every action's test, once; the locals the legality and the call read
    # first, those only a wager's bounds read in its branch (computed only when it is legal).
    read = {node.id for tree in plan.legal.values() for node in ast.walk(tree) if isinstance(node, ast.Name)}
    if "state" in read:
        w("state = self._state")
    head = kept(plan.locals, [*plan.legal.values(), call])
    for name, tree in head:
        w(f"{name} = {fast_source(tree)}")
    for name, tree in plan.legal.items():
        w(f"can_{name} = {fast_source(tree)}")
    # The legal tuple for each combination, sorted, looked up by a bit per action.
    bits = " | ".join(f"({2**i} if can_{name} else 0)" for i, name in enumerate(names))
    w(f"legal = LEGAL_SETS[{bits}]")
    w("view: View")
    for index, (action, lowest, highest) in enumerate(plan.bounds):
        w(f"{'if' if index == 0 else 'elif'} can_{action}:")
        with w.indented():
            for name, tree in kept(plan.locals, [lowest, highest]):
                if (name, tree) not in head:
                    w(f"{name} = {fast_source(tree)}")
            w(f"low = {fast_source(lowest)}")
            w(f"view = (legal, {fast_source(call)}, low, {fast_source(highest)})")
    unbounded = f"view = (legal, {fast_source(call)}, None, None)"
    if plan.bounds:
        w("else:")
        with w.indented():
            w(unbounded)
    else:
        w(unbounded)
    w("self._view = view")
    w("return view")


def _view_legal(event: ir.Event, symbols: Mapping[str, Symbol]) -> ast.expr:
    """:func:`_legal` as the view tests it: the state read once, into the local ``state``."""
    return legal_when(ast.parse(f"state in FROM_{event.name.upper()}", mode="eval").body, event, symbols)


def _action(w: Writer, spec: Spec, event: ir.Event, symbols: Mapping[str, Symbol]) -> None:
    method = contract.ACTION_METHODS.get(event.name, event.name)  # an action of the spec's own: its name
    takes_to = "to" in event.params
    signature = "self, seat: int, to: int" if takes_to else "self, seat: int"
    w(f"def {method}({signature}) -> None:")
    with w.indented():
        _action_body(w, spec, event, symbols)
    w()


def _action_body(w: Writer, spec: Spec, event: ir.Event, symbols: Mapping[str, Symbol]) -> None:
    takes_to = "to" in event.params
    amount = "to" if takes_to else "None"
    w(repr(f"Seat ``seat`` acts: {event.name}. Raises IllegalAction and changes nothing if illegal."))
    w("if seat != self._actor or self._actor < 0 or type(seat) is not int:")
    with w.indented():
        w(f"self._require_turn(seat, {literal(event.name)}, {amount})")
    if takes_to:
        w("if type(to) is not int or not 0 <= to <= MAX_CHIPS:")
        with w.indented():
            w(f"self._require_amount(seat, {literal(event.name)}, to)")
    tried = f"seat, {literal(event.name)}, {amount}"
    rule = event.rule
    # Requirements not reading 'to' come first (the checker makes sure). A cached view that lists
    # this action proves they all hold on this very state (the view is dropped at every event),
    # so only the amount is left to check, and the first failing requirement is the same.
    independent = []
    for requirement in (r for r in event.requires if not r.needs_to):
        if is_false(negate(python(requirement.expr.tree, symbols))):
            w(f"# {requirement.rule}: always holds in this structure ({requirement.error} never raised)")
        else:
            independent.append(requirement)
    unproven = f"view is None or {literal(event.name)} not in view[0]"
    refused = f"raise self._reject('illegal_action', {literal(rule)}, {tried}, 'not possible now')"
    w("view = self._view")
    if not independent:
        w(f"if ({unproven}) and self._state not in FROM_{event.name.upper()}:")
        with w.indented():
            w(refused)
    else:
        w(f"if {unproven}:")
        with w.indented():
            w(f"if self._state not in FROM_{event.name.upper()}:")
            with w.indented():
                w(refused)
            _requirements(w, spec, independent, symbols, event)
    _requirements(w, spec, [r for r in event.requires if r.needs_to], symbols, event, with_to=True)
    w(f"self._take_{event.name}({'to' if takes_to else ''})")
    w(f"self._log.append((seat, {literal(event.name)}, {amount}))")
    w("self._settle()")


def _requirements(
    w: Writer,
    spec: Spec,
    requirements: list[ir.Requirement],
    symbols: Mapping[str, Symbol],
    event: ir.Event,
    with_to: bool = False,
) -> None:
    """The checks of ``requirements`` in order, the quantities they share computed once first."""
    locals_, local = hoisted([r.expr.tree for r in requirements], spec, symbols, with_to=with_to)
    locals_, written = _constant_locals(locals_)
    used = [negate(written(python(r.expr.tree, local))) for r in requirements]
    for name, tree in kept(locals_, used):
        w(f"{name} = {fast_source(tree)}")
    amount = ir.Local("to") if "to" in event.params else ir.Const(None)
    printer = _Statements(w, local, local, written)
    printer.visit_all(requirement_checks(event, requirements, amount, returned=False))


def _deal(w: Writer, spec: Spec) -> None:
    (event,) = [e for e in engine_plan(spec).events if e.kind == "deal"]
    name = event.name.upper()
    # street positional only: a deal input of any name (even one named street) is a keyword.
    w("def deal(self, street: str, /, **given: object) -> None:")
    with w.indented():
        w(
            repr(
                "Deal the next street once the betting round is over (or during an all-in runout); "
                "``given`` are the spec's deal inputs."
            )
        )
        # Once the pots are paid the hand is closed: nothing but the next table follows.
        w("if self._paid:")
        with w.indented():
            w(
                'raise self._reject("illegal_action", self.PROCEDURE_RULES["settle"], None, "deal", street, '
                '"the pots are paid: the hand is closed")'
            )
        w(f"if self.STATE_PHASE[self._state] in {vocabulary.BETTING_PHASES!r}:")
        with w.indented():
            w('raise self._reject("round_not_over", self.PROCEDURE_RULES["round_not_over"], None, "deal", street)')
        # A hand over (won, or at its showdown) deals nothing more: next_street is None then, which
        # a deal of None must not match.
        w("following = self.next_street")
        w("if following is None:")
        with w.indented():
            w(
                'raise self._reject("illegal_action", self.PROCEDURE_RULES["illegal_deal"], None, "deal", street, '
                '"the hand is over: no street is left to deal")'
            )
        w("if street != following:")
        with w.indented():
            w('raise self._reject("illegal_action", self.PROCEDURE_RULES["illegal_deal"], None, "deal", street)')
        w("try:")
        with w.indented():
            w("self._load_deal(given)")
        w("except InvalidTable as error:")
        with w.indented():
            w(
                'raise self._reject("illegal_action", self.PROCEDURE_RULES["illegal_deal"], None, "deal", street, '
                "error.message) from None"
            )
        w(f"self._fire(EVENT_{name}, FAST_{name})")
        w("self._log.append((-1, street, dict(given) if given else None))")
        w("self._settle()")


def _load_deal(w: Writer, spec: Spec) -> None:
    """``_load_deal``: the spec's deal inputs, their defaults unless given (each deal resets them)."""
    deal_inputs = engine_plan(spec).deal_inputs
    w("def _load_deal(self, given: Mapping[str, object]) -> None:")
    with w.indented():
        if not deal_inputs:
            w("if given:")
            with w.indented():
                w('raise InvalidTable(f"nothing is given with a deal in this structure, not {sorted(given)}")')
            w()
            return
        # Every value checked before any is kept: a deal refused for one of them changes nothing.
        for item in deal_inputs:
            w(f"dl_{item.name}: {_input_type(item)} = {_default_source(item)}")
        w("for name, value in given.items():")
        choices = ", ".join(sorted(item.name for item in deal_inputs))
        with w.indented():
            for index, item in enumerate(deal_inputs):
                check = _input_check(item, "value")[0]
                w(f"{'if' if index == 0 else 'elif'} name == {literal(item.name)}:")
                with w.indented():
                    w(f"dl_{item.name} = {check}")
            w("else:")
            with w.indented():
                w(f'raise InvalidTable(f"a deal gives only {choices}, not {{name!r}}")')
        for item in deal_inputs:
            w(f"self._dl_{item.name} = dl_{item.name}")
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
