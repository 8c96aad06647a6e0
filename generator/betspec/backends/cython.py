"""The Cython back end: each concrete spec's kernel, its betting as typed Cython, ``generated/kernels/<spec>.pyx``.

A kernel is the spec's hand compiled with C types, for the batch interface
(:func:`betspec.runtime.batch.play_hands`): the same guards, effects, sizing formulas, forced
bets, roles and checks as the Python engine, printed from the same engine plan
(:mod:`betspec.backends.plan`: scopes, callbacks, steps, the view, forced bets), over a typed
state whose fields have the Python engine's names (``betspec/runtime/kernel.pxd``). What a
kernel does not hold (rulings, declarations out of turn, snapshots, settling) the Python engine
does: an expression reading a ruling's state reads it as the kernel always has it, none pending. ``betspec build`` (or a
kernel's first use) compiles them where it can (betspec/build.py); tests/test_kernel.py plays
them beside the Python engines.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Literal

from betspec import vocabulary
from betspec.backends import ir
from betspec.backends.base import Context, header_lines, register
from betspec.backends.plan import (
    ACTOR,
    Callbacks,
    Do,
    Let,
    Statement,
    Store,
    callbacks,
    chosen_actions,
    engine_plan,
    event_moves,
    fired_events,
    hoisted,
    kept,
    legal_when,
    quantities_called,
    scope,
    settle_moves,
    view_plan,
)
from betspec.backends.pyexpr import ACCESSORS, PRIMITIVE_METHODS, Symbol, is_false, literal, negate, python, source
from betspec.backends.writer import Writer
from betspec.model import Spec, Type
from betspec.runtime import contract
from betspec.runtime.mechanisms import named_arguments

#: How a kernel answers the vocabulary's variables: as the Python engine does, but for the
#: rulings' state, which a kernel never holds (no declaration, announcement or out-of-turn call).
KERNEL_ACCESSORS: dict[str, str] = {
    **ACCESSORS,
    "last_street": "LAST_STREET",
    "declared_call": "False",
    "declared_wager": "False",
    "bet_announced": "False",
    "out_of_turn_declared": "False",
    "out_of_turn_to": "0",
    "out_of_turn_level": "0",
}

#: The C type a kernel keeps a value of each type in (Python objects for those with None or names).
_C_TYPES = {
    "int": "chips_t",
    "bool": "bint",
    "seat": "int",
    "int?": "object",
    "seat?": "object",
    "choice": "str",
    "seats": "tuple",
}
#: A kernel function's C return type and error value, by the value type it returns.
_RETURNS = {Type.INT: ("chips_t", "except? -1"), Type.BOOL: ("int", "except -1")}

#: The chips a kernel's table holds at most (``SEAT_CHIPS_MAX`` in betspec/runtime/kernel.pyx,
#: which refuses a table with more): every stack, bet, pot and 'to' of a kernel's hand is within it.
HAND_CHIPS = 1 << 55
#: The magnitude no value a kernel computes in C may reach (64-bit chips, with a margin).
C_LIMIT = 1 << 62
#: Above any seat number (a table has at most betspec.runtime.table.MAX_SEATS seats, 23).
SEATS_BELOW = 1 << 6
#: The most states a kernel's masks hold (one bit each in an unsigned 64-bit integer).
KERNEL_STATES = 64

FOLDER = "generated/kernels"
KERNELS_INIT = (
    '"""Kernels generated from spec/*.json by `betspec generate` (typed Cython, compiled by '
    '`betspec build` or on first use). Do not edit: regenerate."""\n'
)


#: The local every kernel function reads the options, table inputs and deal inputs through (the
#: hand's Inputs, shared by the hands of the same table inputs).
GIVEN = "t"


def _symbols_of(spec: Spec, model: str, seat: str | None = None) -> dict[str, Symbol]:
    """The plan's scope of the hand named ``model`` (about ``seat``), the inputs read through GIVEN."""
    return scope(spec, model, KERNEL_ACCESSORS, seat=seat, given=GIVEN)


def _state(name: str) -> str:
    return f"S_{name.upper()}"


def _mask(states: Sequence[str], spec: Spec) -> int:
    order = [state.name for state in engine_plan(spec).states]
    return sum(1 << order.index(state) for state in states)


class _Flags(ast.NodeTransformer):
    """A text option or input compared with a text (``t._opt_x == 'word'``) read as a C bint
    of the inputs (``t._opt_x__is_word``), set once when they are loaded: the same truth, without
    a string comparison each time (a kernel's _playable compared one at every chip put in)."""

    def __init__(self, fields: Sequence[tuple[str, str]]) -> None:
        self.fields = fields
        self.texts = {name for name, kind in fields if kind == "str"}
        #: (field, text) -> the flag's name, for every comparison rewritten.
        self.used: dict[tuple[str, str], str] = {}

    def rewritten(self, tree: ast.expr) -> ast.expr:
        found: ast.expr = self.visit(copy.deepcopy(tree))
        return found

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        left, right = node.left, node.comparators[0]
        if (
            len(node.ops) == 1
            and isinstance(node.ops[0], (ast.Eq, ast.NotEq))
            and isinstance(left, ast.Attribute)
            and isinstance(left.value, ast.Name)
            and left.value.id == GIVEN
            and left.attr in self.texts
            and isinstance(right, ast.Constant)
            and type(right.value) is str
        ):
            key = (left.attr, right.value)
            word = right.value if right.value.isidentifier() and right.value.isascii() else ""
            name = self.used.setdefault(key, f"{left.attr}__is_{word or len(self.used)}")
            flag = ast.Attribute(ast.Name(GIVEN, ast.Load()), name, ast.Load())
            return flag if isinstance(node.ops[0], ast.Eq) else ast.UnaryOp(ast.Not(), flag)
        return node


class _Divisions(ast.NodeTransformer):
    """The spec's roundings to a unit and remainders, as the kernel runtime's inline functions
    that compute them as Python does but skip the 64-bit division where the answer is known
    (kernel.pxd: rounded_up, rounded_down, remainder); and a seat looked for in a per-seat input
    held as a tuple (``seat in missed_big_blinds``) looked for only where the tuple is not empty,
    as it mostly is: the same truth, without a call into the interpreter each hand."""

    def __init__(self, fields: Sequence[tuple[str, str]]) -> None:
        self.tuples = {name for name, kind in fields if kind == "tuple"}

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        held = node.comparators[0]
        if (
            len(node.ops) == 1
            and isinstance(node.ops[0], ast.In)
            and isinstance(held, ast.Attribute)
            and isinstance(held.value, ast.Name)
            and held.value.id == GIVEN
            and held.attr in self.tuples
        ):
            held_any = ast.Compare(_call("len", copy.deepcopy(held)), [ast.NotEq()], [ast.Constant(0)])
            return ast.BoolOp(ast.And(), [held_any, node])
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.Mod):
            return _call("remainder", node.left, node.right)
        if not isinstance(node.op, ast.Mult):
            return node
        left, unit = node.left, node.right
        if isinstance(left, ast.UnaryOp) and isinstance(left.op, ast.USub):  # -(-value // unit) * unit
            inner = left.operand
            if _divided_by(inner, unit):
                assert isinstance(inner, ast.BinOp)
                value = inner.left
                if isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.USub):
                    return _call("rounded_up", value.operand, unit)
        if _divided_by(left, unit):  # value // unit * unit
            assert isinstance(left, ast.BinOp)
            return _call("rounded_down", left.left, unit)
        return node

    def rewritten(self, tree: ast.expr) -> ast.expr:
        found: ast.expr = self.visit(tree)
        return found


def _divided_by(node: ast.expr, unit: ast.expr) -> bool:
    """Whether ``node`` is a floor division by ``unit`` (the same tree)."""
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv) and _same(node.right, unit)


def _call(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Name(name, ast.Load()), list(args), [])


def _same(a: ast.expr, b: ast.expr) -> bool:
    return ast.dump(a) == ast.dump(b)


class _Body(Writer):
    """A function's body as it is written, and every tree it printed (the quantity functions a
    kernel holds are those its bodies call). The inputs (GIVEN in the plan's trees) are read as
    ``given``, the hand's inputs cast to the kernel's class where they are read: a typed local
    would take and drop a reference to them in every call, five times a decision."""

    def __init__(self, printed: list[ast.expr], flags: _Flags, given: str) -> None:
        super().__init__()
        self.given = given
        self.printed = printed
        self.flags = flags
        self.divisions = _Divisions(flags.fields)

    def src(self, tree: ast.expr) -> str:
        """``tree`` printed, noted as read by this function."""
        self.printed.append(tree)
        rewritten = self.divisions.rewritten(self.flags.rewritten(tree))
        return source(_Renamed(GIVEN, self.given).visit(rewritten))

    def expr(self, tree: ast.expr, symbols: Mapping[str, Symbol]) -> str:
        """A spec expression read through ``symbols``, printed."""
        return self.src(python(tree, symbols))

    def negated(self, tree: ast.expr, symbols: Mapping[str, Symbol]) -> str:
        """Source that is true when the spec expression is false, folded."""
        return self.src(negate(python(tree, symbols)))


class _Renamed(ast.NodeTransformer):
    """A name printed as other source (the inputs' GIVEN as the cast that reads them)."""

    def __init__(self, name: str, printed: str) -> None:
        self.name, self.printed = name, printed

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return ast.Name(self.printed, node.ctx) if node.id == self.name else node


class _Printer:
    """Writes a kernel's functions, each reading the inputs through the hand it is given."""

    def __init__(self, cls: str, flags: _Flags) -> None:
        self.cls = cls
        self.printed: list[ast.expr] = []
        self.flags = flags

    @contextmanager
    def function(self, w: Writer, header: str, doc: str | None = None, model: str = "m") -> Iterator[_Body]:
        """A function at ``w``'s level, its body written into the yielded writer from its own level."""
        body = _Body(self.printed, self.flags, f"(<{self.cls}Inputs>{model}._inputs)")
        yield body
        w(header)
        with w.indented():
            if doc is not None:
                w(doc)
            w.extend(body)

    def method(self, w: Writer, header: str, doc: str | None = None) -> AbstractContextManager[_Body]:
        """A method of the kernel class (the hand is ``self``), ``w`` at the class's level."""
        return self.function(w, header, doc, "self")


def generate(spec: Spec, root: str) -> str:
    """The source of ``generated/kernels/<spec.name>.pyx``."""
    w = Writer()
    cls = spec.class_name
    for line in header_lines(spec, root):
        w(f"# {line}")
    w("# cython: language_level=3, boundscheck=False, wraparound=False, infer_types=True")
    w(repr(f"{spec.title}: the betting compiled with C types, for many hands in one call."))
    w()
    w("cimport cython")
    for module, names in contract.KERNEL_CIMPORTS.items():
        w(f"from {module} cimport {', '.join(names)}")
    w()
    for module, names in contract.KERNEL_IMPORTS.items():
        w(f"from {module} import {', '.join(names)}")
    w()
    w(f"SPEC_NAME = {literal(spec.name)}")
    w(f"SPEC_HASH = {literal(spec.hash)}")
    w("#: The class of the spec's engine module this kernel plays as.")
    w(f"ENGINE = {literal(spec.class_name)}")
    chosen = chosen_actions(spec)
    w("#: The actions a policy chooses among: bit i of a legal set is ACTIONS[i].")
    w(f"ACTIONS = {tuple(e.name for e in chosen)!r}")
    planned = engine_plan(spec)
    w(f"STATES = {tuple(state.name for state in planned.states)!r}")
    w("#: Each state's phase, by state number.")
    w(f"PHASES = {tuple(state.phase for state in planned.states)!r}")
    w(f"STREETS = {planned.streets!r}")
    w("#: The legal actions for each set of bits, sorted.")
    legal_sets = tuple(
        tuple(e.name for bit, e in enumerate(chosen) if mask >> bit & 1) for mask in range(2 ** len(chosen))
    )
    w(f"LEGAL_SETS = {legal_sets!r}")
    w()
    w("cdef enum:")
    with w.indented():
        for index, state in enumerate(engine_plan(spec).states):
            w(f"{_state(state.name)} = {index}")
        for index, event in enumerate(chosen):
            w(f"A_{event.name.upper()} = {index}")
    w()
    w("#: The inputs and options a kernel computes with in 64 bits: a number beyond it (a product of")
    w("#: two of them could overflow) leaves the hand to the Python engine unless the inputs' _fits says")
    w("#: those products stay within 64 bits (see input_bound and fits_check).")
    w(f"cdef chips_t INPUT_BOUND = {input_bound(spec)}")
    planned = engine_plan(spec)
    w(f"cdef int LAST_STREET = {len(planned.streets) - 1}")
    w(f"cdef int STREET_COUNT = {len(planned.streets)}")
    w(f"cdef int SETTLE_LIMIT = {len(planned.states)}")
    phases = {state.name: state.phase for state in planned.states}
    betting = [s for s, p in phases.items() if p in vocabulary.BETTING_PHASES]
    over = [s for s, p in phases.items() if p in vocabulary.HAND_OVER_PHASES]
    w(f"cdef unsigned long long BETTING = {_mask(betting, spec)}")
    w(f"cdef unsigned long long HAND_OVER = {_mask(over, spec)}")
    for value in planned.street_values:
        w(f"cdef {_C_TYPES[value.type]} SV_{value.name.upper()}[{len(planned.streets)}]")
        for index, number in enumerate(value.values):
            w(f"SV_{value.name.upper()}[{index}] = {literal(number)}")
    w()
    w()
    plan = callbacks(spec, _symbols_of(spec, "m"))
    printer = _Printer(cls, _Flags(_fields(spec)))
    # The inputs class declares the flags the code after it tests, and the quantities are the
    # functions that code calls: their place is held and written when the module is complete.
    w.later(lambda held: _declarations(printer, held, spec, cls))
    _functions(printer, w, spec, cls, plan)
    _kernel_class(printer, w, spec, cls, plan.of)
    w()
    w()
    w(f"cdef Templates TEMPLATES = Templates({cls}Inputs)")
    w(f"KERNEL = {cls}Kernel")
    return w.text()


def _declarations(printer: _Printer, w: Writer, spec: Spec, cls: str) -> None:
    """The inputs class and the quantity functions, once the rest of the module is printed: the
    quantities first (a flag they test is one the inputs class declares), written after it."""
    quantities = Writer(step=w.step)
    _quantities(printer, quantities, spec, cls)
    _inputs_class(w, spec, cls, printer.flags.used)
    w.extend(quantities)


def _fields(spec: Spec) -> list[tuple[str, str]]:
    """The options, table inputs and deal inputs, as an Inputs of the spec holds them."""
    fields: list[tuple[str, str]] = []
    for option in engine_plan(spec).options:
        fields.append((f"_opt_{option.name}", _field_type(option.type)))
    for item in engine_plan(spec).inputs:
        for name in item.names:
            fields.append((f"_in_{name}", _field_type(item.type, item.per_seat)))
    for item in engine_plan(spec).deal_inputs:
        fields.append((f"_dl_{item.name}", _field_type(item.type)))
    return fields


def _inputs_class(w: Writer, spec: Spec, cls: str, flags: Mapping[tuple[str, str], str]) -> None:
    w(f"cdef class {cls}Inputs(Inputs):")
    with w.indented():
        w(repr("The options, table inputs and deal inputs of the hands of one table's inputs."))
        w()
        fields = _fields(spec)
        for name, kind in fields:
            w(f"cdef {kind} {name}")
        # Whether a per-seat input gives any seat anything, decided once (a forced bet of it is
        # posted only then), not by a walk over its tuple each hand.
        given = [name for name, kind in fields if kind == "tuple" and name.startswith("_in_")]
        for name in given:
            w(f"cdef bint {name}__any")
        for name in sorted(flags.values()):
            w(f"cdef bint {name}")
        w()
        w("cdef int _load(self, object engine) except -1:")
        with w.indented():
            w(repr("What the Python engine loaded (and checked) for the table."))
            for name, _ in fields:
                w(f"self.{name} = engine.{name}")
            for name in given:
                w(f"self.{name}__any = any(self.{name})")
            for (field, text), name in sorted(flags.items(), key=lambda item: item[1]):
                w(f"self.{name} = self.{field} == {literal(text)}")
            numbers = [name for name, kind in fields if kind not in ("str", "bint")]
            if numbers:
                w(f"self._bound(({', '.join(f'self.{name}' for name in numbers)},), INPUT_BOUND)")
            w("return 0")
        w()
        check = fits_check(spec)
        if check is not None:
            used, test = check
            w("cdef bint _fits(self) except -1:")
            with w.indented():
                w(repr("Whether no expression of the spec leaves 64 bits with these inputs (their magnitudes)."))
                for local, name in used:
                    w(f"{local} = self._magnitude(self.{name})")
                w(f"return {test}")
            w()
    w()


class _Overflow(Exception):
    """An expression may leave 64 bits with inputs that large."""


def _bounds(spec: Spec, bound: int) -> None:
    """Raise _Overflow if some expression the kernel computes may reach C_LIMIT when every
    number input and option is within ``bound`` (a bound on each of its operands, through
    every operation: the magnitudes add, multiply, and no more)."""
    hand = max(HAND_CHIPS, bound)  # a variable may be given an input's value (last_raise = big_blind)
    named: dict[str, int] = {}
    by_type = {"bool": 1, "choice": 0, "seat": SEATS_BELOW, "seat?": SEATS_BELOW, "seats": SEATS_BELOW}
    for variable in engine_plan(spec).variables:
        named[variable.name] = 1 if variable.type == "bool" else hand
    for option in engine_plan(spec).options:
        named[option.name] = by_type.get(option.type, bound)
    for item in (*engine_plan(spec).inputs, *engine_plan(spec).deal_inputs):
        for name in item.names:
            named[name] = by_type.get(item.type, bound)
    for name in engine_plan(spec).role_names:
        named[name] = SEATS_BELOW
    for value in engine_plan(spec).street_values:
        numbers = value.values
        named[value.name] = max(abs(n) for n in numbers if type(n) is int) if value.type == "int" else 1

    def of(node: ast.expr) -> int:
        found = _magnitude(node)
        if found >= C_LIMIT:
            raise _Overflow(source(node))
        return found

    quantities = engine_plan(spec).quantities_by_name

    def _magnitude(node: ast.expr) -> int:
        if isinstance(node, ast.Constant):
            return abs(node.value) if type(node.value) is int else (1 if type(node.value) is bool else 0)
        if isinstance(node, ast.Name):
            quantity = quantities.get(node.id)
            if quantity is not None and node.id not in named:
                named[node.id] = of(quantity.tree)
            return named.get(node.id, hand)
        if isinstance(node, ast.UnaryOp):
            operand = of(node.operand)
            return operand if isinstance(node.op, ast.USub) else 1
        if isinstance(node, ast.BinOp):
            left, right = of(node.left), of(node.right)
            if isinstance(node.op, ast.Mult):
                return left * right
            if isinstance(node.op, ast.FloorDiv):
                return left  # a divisor is never 0 (the front end's bounds), so at most the dividend
            if isinstance(node.op, ast.Mod):
                return right
            return left + right
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = [of(arg) for arg in node.args]
            if node.func.id in ("ceil_to", "floor_to"):
                return args[0] + args[1]  # within a unit of the value
            if node.func.id in ("next_live", "prev_live"):
                return SEATS_BELOW
            return max(args, default=0) if node.func.id != "acted_of" else 1
        if isinstance(node, ast.IfExp):
            of(node.test)
            return max(of(node.body), of(node.orelse))
        if isinstance(node, ast.BoolOp):
            return max(of(value) for value in node.values)
        if isinstance(node, ast.Compare):
            for compared in (node.left, *node.comparators):
                of(compared)
            return 1
        return max((of(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)), default=hand)

    for tree in engine_plan(spec).hand_expressions:
        of(tree)


def input_bound(spec: Spec) -> int:
    """The largest power of two the spec's inputs and options may reach for no expression its
    kernel computes in C to overflow: the kernel's table loader refuses a table beyond it, and the
    Python engine plays it. The engine itself allows none beyond its MAX_CHIPS (10**15, under
    2**50), so a bound above that refuses nothing; a product of two inputs (``cap * big_blind``)
    is what brings a kernel's bound below it."""
    for bits in range(62, -1, -1):
        bound = 1 << bits
        try:
            _bounds(spec, bound)
        except _Overflow:
            continue
        return bound
    raise ValueError(f"{spec.name}: an expression overflows 64 bits whatever its inputs")


#: A bound on every number input and option the engine takes (its MAX_CHIPS, 10**15, under 2**50).
ENGINE_INPUTS = 1 << 50


#: A magnitude as :func:`fits_check` computes it: the largest of some polynomials in the inputs'
#: magnitudes (each a tuple of (monomial, coefficient), a monomial a sorted tuple of names).
_Poly = tuple[tuple[tuple[str, ...], int], ...]
_Size = tuple[int, frozenset[_Poly]]


def _poly_add(a: _Poly, b: _Poly, times: bool = False) -> _Poly:
    terms: dict[tuple[str, ...], int] = {}
    if times:
        for left, x in a:
            for right, y in b:
                key = tuple(sorted(left + right))
                terms[key] = terms.get(key, 0) + x * y
    else:
        for key, value in (*a, *b):
            terms[key] = terms.get(key, 0) + value
    return tuple(sorted((key, value) for key, value in terms.items() if value))


def _largest(polys: frozenset[_Poly]) -> frozenset[_Poly]:
    """The polynomials not below another one coefficient by coefficient (magnitudes are >= 0)."""

    def below(a: _Poly, b: _Poly) -> bool:
        other = dict(b)
        return a != b and all(value <= other.get(key, 0) for key, value in a)

    return frozenset(p for p in polys if not any(below(p, q) for q in polys))


def _poly_text(poly: _Poly) -> str:
    terms = []
    for key, value in poly:
        terms.append(" * ".join((*(f"m_{name}" for name in key), *([str(value)] if value != 1 or not key else []))))
    return " + ".join(terms) or "0"


def fits_check(spec: Spec) -> tuple[list[tuple[str, str]], str] | None:
    """Where some expression the kernel computes may reach C_LIMIT with inputs the engine takes
    (a product of two inputs, ``cap * big_blind``): the inputs' fields it reads (``m_<name>``, the
    field), and a Python test of their magnitudes (Python integers) that holds exactly when none
    of those expressions reaches C_LIMIT with these inputs, by the rules of :func:`_bounds` (each
    magnitude the largest of polynomials in the inputs'). A table with an input beyond INPUT_BOUND
    is the kernel's when it holds, the Python engine's when not. None where no expression can
    reach it (INPUT_BOUND then refuses nothing the engine takes)."""
    # One function, long: a small abstract interpretation whose nested functions share its
    # tables (the magnitude of each name, the risky polynomials); split, they would pass all of them.
    hand = max(HAND_CHIPS, ENGINE_INPUTS)
    fields: dict[str, str] = {}
    named: dict[str, _Size] = {}
    by_type = {"bool": 1, "choice": 0, "seat": SEATS_BELOW, "seat?": SEATS_BELOW, "seats": SEATS_BELOW}

    def const(value: int) -> _Size:
        return value, frozenset({(((), value),) if value else ()})

    for variable in engine_plan(spec).variables:
        named[variable.name] = const(1 if variable.type == "bool" else hand)
    given: list[tuple[str, str, str]] = [("_opt_", option.name, option.type) for option in engine_plan(spec).options]
    given += [("_in_", name, item.type) for item in engine_plan(spec).inputs for name in item.names]
    given += [("_dl_", item.name, item.type) for item in engine_plan(spec).deal_inputs]
    for prefix, name, kind in given:
        if kind in by_type:
            named[name] = const(by_type[kind])
        else:
            named[name] = (ENGINE_INPUTS, frozenset({(((name,), 1),)}))
            fields[name] = f"{prefix}{name}"
    for name in engine_plan(spec).role_names:
        named[name] = const(SEATS_BELOW)
    for value in engine_plan(spec).street_values:
        numbers = value.values
        named[value.name] = const(max(abs(n) for n in numbers if type(n) is int) if value.type == "int" else 1)
    risky: set[_Poly] = set()

    def of(node: ast.expr) -> _Size:
        found = _size(node)
        if found[0] >= C_LIMIT:
            risky.update(found[1])
        return found

    def combine(left: _Size, right: _Size, times: bool) -> _Size:
        size = left[0] * right[0] if times else left[0] + right[0]
        return size, _largest(frozenset(_poly_add(a, b, times) for a in left[1] for b in right[1]))

    def most(values: list[_Size], default: _Size) -> _Size:
        if not values:
            return default
        return max(v for v, _ in values), _largest(frozenset(p for _, polys in values for p in polys))

    quantities = engine_plan(spec).quantities_by_name

    def _size(node: ast.expr) -> _Size:
        if isinstance(node, ast.Constant):
            return const(abs(node.value) if type(node.value) is int else (1 if type(node.value) is bool else 0))
        if isinstance(node, ast.Name):
            quantity = quantities.get(node.id)
            if quantity is not None and node.id not in named:
                named[node.id] = of(quantity.tree)
            return named.get(node.id, const(hand))
        if isinstance(node, ast.UnaryOp):
            operand = of(node.operand)
            return operand if isinstance(node.op, ast.USub) else const(1)
        if isinstance(node, ast.BinOp):
            left, right = of(node.left), of(node.right)
            if isinstance(node.op, ast.FloorDiv):
                return left
            if isinstance(node.op, ast.Mod):
                return right
            return combine(left, right, isinstance(node.op, ast.Mult))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = [of(arg) for arg in node.args]
            if node.func.id in ("ceil_to", "floor_to"):
                return combine(args[0], args[1], False)
            if node.func.id in ("next_live", "prev_live"):
                return const(SEATS_BELOW)
            return most(args, const(0)) if node.func.id != "acted_of" else const(1)
        if isinstance(node, ast.IfExp):
            of(node.test)
            return most([of(node.body), of(node.orelse)], const(0))
        if isinstance(node, ast.BoolOp):
            return most([of(value) for value in node.values], const(0))
        if isinstance(node, ast.Compare):
            for compared in (node.left, *node.comparators):
                of(compared)
            return const(1)
        children = [of(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)]
        return most(children, const(hand))

    for tree in engine_plan(spec).hand_expressions:
        of(tree)
    if not risky:
        return None
    # Those that reach it with every input at its largest (the others never do).
    polys = sorted(p for p in _largest(frozenset(risky)) if sum(v * ENGINE_INPUTS ** len(k) for k, v in p) >= C_LIMIT)
    if not polys:
        return None
    used = sorted({name for poly in polys for key, _ in poly for name in key})
    test = " and ".join(f"{_poly_text(poly)} < {C_LIMIT}" for poly in polys)
    return [(f"m_{name}", fields[name]) for name in used], test


def _quantities(printer: _Printer, w: Writer, spec: Spec, cls: str) -> None:
    """The quantities written as functions (too long to inline) that the kernel's other functions
    call, and those they call, in the spec's dependency order."""
    seat_symbols = _symbols_of(spec, "m", seat="seat")
    symbols = _symbols_of(spec, "m")
    formulas = {
        quantity.name: python(quantity.tree, seat_symbols if quantity.per_seat else symbols)
        for quantity in engine_plan(spec).quantities
    }
    wanted = quantities_called(spec, printer.printed, formulas)
    for quantity in engine_plan(spec).quantities:
        if quantity.name not in wanted:
            continue
        params = [f"{cls}Kernel m"]
        if quantity.per_seat:
            params.append("int seat")
        elif quantity.needs_to:
            params.append("chips_t to")
        returns, error = _RETURNS.get(Type(quantity.type), ("object", ""))
        header = f"cdef {returns} q_{quantity.name}({', '.join(params)}) {error}:".replace(" :", ":")
        with printer.function(w, header, doc=repr(f"{quantity.meaning} (rule {quantity.rule}).")) as body:
            body(f"return {body.src(formulas[quantity.name])}")
        w()
        w()


def _functions(printer: _Printer, w: Writer, spec: Spec, cls: str, plan: Callbacks) -> None:
    """The guards (``when_X``) and effects (``do_X``), as the Python engine names them."""
    model = f"{cls}Kernel m"
    for name, statements in plan.starts.items():
        _function(printer, w, f"on_{name}({model})", statements, None)
    for name, guard in plan.guards.items():
        _function(printer, w, f"{name}({model}{', chips_t to' if guard.takes_to else ''})", (), guard.test)
    for name, effect in plan.effects.items():
        _function(printer, w, f"{name}({model}{', chips_t to' if effect.takes_to else ''})", effect.body, None)


def _function(
    printer: _Printer, w: Writer, signature: str, statements: Sequence[Statement], test: ast.expr | None
) -> None:
    """A guard's or effect's C function: 1 or 0 for a guard, 0 for an effect, -1 on an error."""
    with printer.function(w, f"cdef int {signature} except -1:") as body:
        flags = sorted({s.name for s in statements if isinstance(s, Let) and _boolean(s.value)})
        if flags:
            body(f"cdef bint {', '.join(flags)}")  # inferred, a truth value would be a Python object
        for statement in statements:
            body(_statement(body, statement))
        body(f"return {body.src(test)}" if test is not None else "return 0")
    w()
    w()


def _boolean(tree: ast.expr) -> bool:
    """Whether ``tree`` is a truth value whatever it reads (a comparison, a negation, and/or of
    truth values): its local is then a C bint, with the same value."""
    if isinstance(tree, ast.Compare) or (isinstance(tree, ast.UnaryOp) and isinstance(tree.op, ast.Not)):
        return True
    if isinstance(tree, ast.BoolOp):
        return all(_boolean(value) for value in tree.values)
    return isinstance(tree, ast.Constant) and type(tree.value) is bool


def _statement(body: _Body, statement: Statement) -> str:
    """One statement of an effect, the hand named ``m``."""
    if isinstance(statement, Let):
        return f"{statement.name} = {body.src(statement.value)}"
    if isinstance(statement, Store):
        return f"{statement.target.format(m='m', seat='m._actor')} = {statement.value}"
    assert isinstance(statement, Do)
    return f"m.{PRIMITIVE_METHODS[statement.primitive]}({', '.join(body.src(arg) for arg in statement.args)})"


def _field_type(type_name: str, per_seat: bool = False) -> str:
    return "tuple" if per_seat else _C_TYPES.get(type_name, "object")


def _kernel_class(
    printer: _Printer, w: Writer, spec: Spec, cls: str, of: Mapping[int, tuple[str | None, str | None]]
) -> None:
    # Final: no class derives from it, so its methods call each other directly (no vtable),
    # and the C compiler may inline them.
    w("@cython.final")
    w(f"cdef class {cls}Kernel(Kernel):")
    with w.indented():
        _kernel_fields(w, spec)
        _kernel_methods(printer, w, spec, of)
        _copy_fields(w, spec, cls)


def _kernel_fields(w: Writer, spec: Spec) -> None:
    """The kernel class's docstring, class constants and fields (Cython wants them before its methods)."""
    w(repr(f"One hand of {spec.name}, its state in C (betspec.runtime.kernel)."))
    w()
    w("SPEC_NAME = SPEC_NAME")
    w("SPEC_HASH = SPEC_HASH")
    w("STREETS = STREETS")
    w(f"OWN_ACTIONS = {engine_plan(spec).own_actions!r}")
    w()
    for name in engine_plan(spec).role_names:
        w(f"cdef int _role_{name}")
    for variable in engine_plan(spec).variable_defaults:
        kind = "list" if variable.per_seat else _C_TYPES.get(variable.type, "object")
        w(f"cdef {kind} _v_{variable.variable}")
    w()


def _copy_fields(w: Writer, spec: Spec, cls: str) -> None:
    """The fields of the kernel's own (its spec's roles and variables) copied into ``other``, for
    ``copy.copy(hand)`` (Kernel.__copy__): a per-seat variable's list copied, every other shared."""
    w()
    w("cdef int _copy_fields(self, Kernel other) except -1:")
    with w.indented():
        roles = engine_plan(spec).role_names
        variables = engine_plan(spec).variable_defaults
        if roles or variables:
            w(f"cdef {cls}Kernel to = <{cls}Kernel>other")
        for name in roles:
            w(f"to._role_{name} = self._role_{name}")
        for variable in variables:
            field = f"_v_{variable.variable}"
            copied = f"None if self.{field} is None else list(self.{field})"  # (None: no hand yet)
            w(f"to.{field} = {copied}" if variable.per_seat else f"to.{field} = self.{field}")
        w("return 0")


def _returning(w: Writer, header: str, value: object) -> None:
    """A method of the kernel class that only returns ``value``."""
    w(header)
    with w.indented():
        w(f"return {value}")
    w()


def _kernel_methods(printer: _Printer, w: Writer, spec: Spec, of: Mapping[int, tuple[str | None, str | None]]) -> None:
    symbols = _symbols_of(spec, "self")
    for method, value in (
        ("Templates _templates", "TEMPLATES"),
        ("tuple _names", "ACTIONS"),
        ("tuple _legal_sets", "LEGAL_SETS"),
        ("tuple _streets", "STREETS"),
        ("tuple _phases", "PHASES"),
    ):
        _returning(w, f"cdef {method}(self):", value)
    _plan_method(printer, w, spec, symbols, engine_plan(spec).roles)
    _plan_method(printer, w, spec, symbols, engine_plan(spec).checks)
    locals_ = ("cdef int seat, step", "cdef chips_t amount")
    _plan_method(printer, w, spec, symbols, engine_plan(spec).forced_bets, locals_)
    with printer.method(w, "cdef chips_t _all_in_to(self) except? -1:") as body:
        body(f"return {body.src(symbols['all_in_to'].tree)}")
    w()
    with printer.method(w, "cdef chips_t _playable(self, int seat) except? -1:") as body:
        playable = engine_plan(spec).quantities_by_name["playable"].tree
        body(f"return {body.expr(playable, _symbols_of(spec, 'self', seat='seat'))}")
    w()
    _begin(printer, w, spec, symbols, of)
    _view(printer, w, spec)
    chosen = chosen_actions(spec)
    _allowed(printer, w, spec, chosen)
    w("cdef int _take(self, int action, chips_t to) except -1:")
    with w.indented():
        for index, event in enumerate(chosen):
            w(f"{'if' if index == 0 else 'elif'} action == A_{event.name.upper()}:")
            with w.indented():
                w(f"self._take_{event.name}({'to' if 'to' in event.params else ''})")
        w("else:")
        with w.indented():
            w("raise KernelRefusal('no such action')")
        w("self._settle()")
        w("return 0")
    w()
    for event in chosen:
        _action(printer, w, spec, event, symbols, of)
    _settle(printer, w, spec, symbols, of)
    _deal(printer, w, spec, symbols, of)
    for event in (e for e in chosen if e.own):
        # An action of the spec's own, by its own method as the engine's: through act, which takes
        # it in C when it can and hands anything else (with its refusal) to the Python engine.
        w(f"def {event.name}(self, seat):")
        with w.indented():
            w(repr(f"Seat ``seat`` acts: {event.name} (an action of the spec's own), as the engine's method."))
            w(f"self.act(seat, {literal(event.name)})")
        w()
    _returning(w, "cdef bint _hand_over(self) noexcept:", "HAND_OVER >> self._state & 1")
    unit = engine_plan(spec).option(vocabulary.POLICY_UNIT_OPTION)
    with printer.method(w, "cdef chips_t _bet_unit(self) noexcept:") as body:
        if unit is not None and unit.type == "int":
            body(f"return {body.src(symbols[unit.name].tree)}")
        else:
            body("return 1")
    w()
    names = [e.name for e in chosen]
    _returning(w, "cdef int _fold_bit(self) noexcept:", names.index("fold") if "fold" in names else -1)
    _returning(w, "cdef int _check_bit(self) noexcept:", names.index("check") if "check" in names else -1)
    _returning(w, "cdef int _action_count(self) noexcept:", len(names))
    wagers = [f"action == A_{name.upper()}" for name in names if name in vocabulary.WAGERS]
    w("cdef bint _is_wager(self, int action) noexcept:")
    with w.indented():
        w(f"return {' or '.join(wagers) or 'False'}")


class _Statements(ir.TransitionPrinter):
    """Prints a method of the engine plan into a kernel's function body (the hand is ``self``,
    the table's inputs read through GIVEN)."""

    def __init__(self, body: _Body, symbols: Mapping[str, Symbol], seat_symbols: Mapping[str, Symbol]) -> None:
        super().__init__(body, symbols, seat_symbols)
        self.body = body

    def state(self, name: str) -> str:
        return _state(name)

    def done(self, kind: Literal["return", "continue"]) -> str:
        return "return 0" if kind == "return" else kind

    def expression(self, tree: ast.expr) -> str:
        return self.body.src(tree)

    def any_given_test(self, name: str) -> str:
        # Decided once a table (the inputs' ``__any`` flag), not by a walk over the tuple a hand.
        return f"{self.body.given}._in_{name}__any"

    def visit_Let(self, node: ir.Let) -> None:
        self.body(f"{node.local.name} = {self.value(node.value)}")

    def visit_SetRole(self, node: ir.SetRole) -> None:
        self.body(f"self._role_{node.role} = {self.value(node.value)}")

    def visit_If(self, node: ir.If) -> None:
        self.body(f"if {self.test(node.test)}:")
        with self.body.indented():
            self.visit_all(node.body)

    def visit_ForSeats(self, node: ir.ForSeats) -> None:
        body = self.body
        if node.seats is None:  # clockwise from the button's left, the button last
            body("for step in range(self._n):")
            with body.indented():
                body("seat = remainder(self._button + 1 + step, self._n)")
        else:
            body(f"for seat in {body.given}._in_{node.seats}:")
        with body.indented():
            self.visit_all(node.body)

    def visit_Block(self, node: ir.Block) -> None:
        self.visit_all(node.body)

    def visit_Call(self, node: ir.Call) -> None:
        given = {name: self.value(value) for name, value in node.args}
        self.body(f"self.{node.mechanism}({', '.join(named_arguments(node.mechanism, given))})")

    def visit_RefuseTable(self, node: ir.RefuseTable) -> None:
        self.body(f"raise KernelRefusal({literal(node.code)})")

    def visit_Reject(self, node: ir.Reject) -> None:
        # A kernel carries no message: its engine words the refusal from the code.
        self.body(f"raise KernelRefusal({literal(node.error)})")

    def visit_Require(self, node: ir.Require) -> None:
        failing = self.failing(node)
        if failing is not None:
            self.body(f"if {self.body.src(failing)}:")
            with self.body.indented():
                self.visit_Reject(node.otherwise)


def _plan_method(
    printer: _Printer,
    w: Writer,
    spec: Spec,
    symbols: Mapping[str, Symbol],
    method: ir.Method,
    locals_: tuple[str, ...] = (),
) -> None:
    """A method of the engine plan as a kernel's ``cdef int`` method (0, or -1 with an exception)."""
    with printer.method(w, f"cdef int {method.name}(self) except -1:") as body:
        for declaration in locals_:
            body(declaration)
        _Statements(body, symbols, _symbols_of(spec, "self", seat="seat")).visit_all(method.body)
        body("return 0")
    w()


def _moves(body: _Body, symbols: Mapping[str, Symbol], moves: ir.Statement) -> None:
    """Transitions of the plan written out into ``body``."""
    # Transitions read nothing about a seat a loop names: the hand's own symbols serve for both.
    _Statements(body, symbols, symbols).visit(moves)


def _begin(
    printer: _Printer,
    w: Writer,
    spec: Spec,
    symbols: Mapping[str, Symbol],
    of: Mapping[int, tuple[str | None, str | None]],
) -> None:
    """The hand's start: the initial state, the start event's own effects, its first transition."""
    with printer.method(w, "cdef int _begin(self) except -1:") as body:
        body(f"self._state = {_state(engine_plan(spec).initial)}")
        _Statements(body, symbols, symbols).visit_all(engine_plan(spec).variable_defaults)
        plan_starts = {e.name for e in engine_plan(spec).events if e.kind == "start" and e.has_effects}
        for event in (e for e in fired_events(spec) if e.kind == "start" and e.blinds):
            if event.name in plan_starts:
                body(f"on_{event.name}(self)")
            _moves(body, symbols, event_moves(spec, event, of))
            break
        body("return 0")
    w()


def _legal(spec: Spec, event: ir.Event, symbols: Mapping[str, Symbol]) -> ast.expr:
    """When ``event`` is possible now: its source states, and its requirements not reading 'to'."""
    sources = engine_plan(spec).sources[event.name]
    state = ast.parse(" or ".join(f"self._state == {_state(s)}" for s in sources) or "False", mode="eval").body
    return legal_when(state, event, symbols)


def _view(printer: _Printer, w: Writer, spec: Spec) -> None:
    """``_view``: every chosen action's legality and the bounds, shared quantities computed once."""
    with printer.method(w, "cdef int _view(self) except -1:") as body:
        body(f"cdef int {ACTOR} = self._actor")
        body("cdef chips_t low")
        chosen = chosen_actions(spec)
        symbols = dict(_symbols_of(spec, "self", seat=ACTOR))
        symbols["bet_level"] = Symbol.read(symbols["bet_level"].type, "level", "variable")
        plan = view_plan(spec, symbols, chosen, lambda event, local: _legal(spec, event, local))
        if plan.legal:
            # C booleans: untyped, an ``and`` of them would be a Python object.
            body(f"cdef bint {', '.join(f'can_{name}' for name in plan.legal)}")
        body("self._viewed = 1")
        body(f"if {ACTOR} < 0:")
        with body.indented():
            body("self._legal = 0")
            body("self._call = 0")
            body("self._min_to = self._max_to = -1")
            body("return 0")
        body("level = self._bet_level")
        # The locals the legality and the call read, computed once; those only a wager's
        # bounds read, in that wager's branch.
        shared = kept(plan.locals, [*plan.legal.values(), plan.call])
        for name, tree in shared:
            body(f"{name} = {body.src(tree)}")
        for name, tree in plan.legal.items():
            body(f"can_{name} = {body.src(tree)}")
        bits = " | ".join(f"({1 << i} if can_{e.name} else 0)" for i, e in enumerate(chosen))
        body(f"self._legal = {bits or '0'}")
        body(f"self._call = {body.src(plan.call)}")
        for index, (action, lowest, highest) in enumerate(plan.bounds):
            body(f"{'if' if index == 0 else 'elif'} can_{action}:")
            with body.indented():
                for name, tree in kept(plan.locals, [lowest, highest]):
                    if name not in {computed for computed, _ in shared}:
                        body(f"{name} = {body.src(tree)}")
                body(f"low = {body.src(lowest)}")
                body("self._min_to = low")
                body(f"self._max_to = {body.src(highest)}")
        unbounded = "self._min_to = self._max_to = -1"
        if plan.bounds:
            body("else:")
            with body.indented():
                body(unbounded)
        else:
            body(unbounded)
        body("return 0")
    w()


def _allowed(printer: _Printer, w: Writer, spec: Spec, chosen: list[ir.Event]) -> None:
    """``_allowed``: whether one action is legal now (the view's test of it alone), for an action
    taken with no view asked for."""
    with printer.method(w, "cdef bint _allowed(self, int action) except -1:") as body:
        body(f"cdef int {ACTOR} = self._actor")
        body(f"if {ACTOR} < 0:")
        with body.indented():
            body("return False")
        symbols = dict(_symbols_of(spec, "self", seat=ACTOR))
        for index, event in enumerate(chosen):
            body(f"{'if' if index == 0 else 'elif'} action == A_{event.name.upper()}:")
            with body.indented():
                body(f"return {body.src(_legal(spec, event, symbols))}")
        body("return False")
    w()


def _action(
    printer: _Printer,
    w: Writer,
    spec: Spec,
    event: ir.Event,
    symbols: Mapping[str, Symbol],
    of: Mapping[int, tuple[str | None, str | None]],
) -> None:
    """``_take_<action>``: the amount's requirements (the view proved the others), then the
    event's transition from the current state."""
    takes_to = "to" in event.params
    header = f"cdef int _take_{event.name}(self{', chips_t to' if takes_to else ''}) except -1:"
    with printer.method(w, header) as body:
        requirements = [r for r in event.requires if r.needs_to]
        locals_, local = hoisted([r.expr.tree for r in requirements], spec, symbols, with_to=True)
        failing = [negate(python(r.expr.tree, local)) for r in requirements]
        for name, tree in kept(locals_, failing):
            body(f"{name} = {body.src(tree)}")
        for requirement, tree in zip(requirements, failing, strict=True):
            if not is_false(tree):
                body(f"if {body.src(tree)}:")
                with body.indented():
                    body(f"raise KernelRefusal({literal(requirement.error)})")
        _moves(body, symbols, event_moves(spec, event, of))
        body("raise KernelRefusal('not possible now')")
    w()


def _settle(
    printer: _Printer,
    w: Writer,
    spec: Spec,
    symbols: Mapping[str, Symbol],
    of: Mapping[int, tuple[str | None, str | None]],
) -> None:
    """The automatic transitions taken until none applies (at most one per state), a state several
    automatic events leave trying them in the spec's order of events, as the machine fires them."""
    with printer.method(w, "cdef int _settle(self) except -1:") as body:
        body("cdef int state, step")
        body("for step in range(SETTLE_LIMIT):")
        with body.indented():
            body("state = self._state")
            _moves(body, symbols, settle_moves(spec, of))
            body("break")
        body("self._viewed = 0")
        body("return 0")
    w()


def _deal(
    printer: _Printer,
    w: Writer,
    spec: Spec,
    symbols: Mapping[str, Symbol],
    of: Mapping[int, tuple[str | None, str | None]],
) -> None:
    """Whether a deal is due (the Python engine's next_street), and the deal."""
    (event,) = [e for e in engine_plan(spec).events if e.kind == "deal"]
    moves = event_moves(spec, event, of)
    with printer.method(w, "cdef bint _can_deal(self) except -1:") as body:
        body("if self._street + 1 >= STREET_COUNT:")
        with body.indented():
            body("return False")
        for index, (sources, take) in enumerate(moves.branches):
            test = " or ".join(f"self._state == {_state(source)}" for source in sources)
            body(f"{'if' if index == 0 else 'elif'} {test}:")
            with body.indented():
                for move in take.moves:
                    if move.guard is None:
                        body("return True")
                        break
                    body(f"if {body.expr(move.guard.tree, symbols)}:")
                    with body.indented():
                        body("return True")
        body("return False")
    w()
    w("cdef int _deal(self) except -1:")
    with w.indented():
        w("if BETTING >> self._state & 1:")
        with w.indented():
            w("raise KernelRefusal('round_not_over')")
        w(f"self._take_{event.name}()")
        w("self._settle()")
        w("return 0")
    w()
    with printer.method(w, f"cdef int _take_{event.name}(self) except -1:") as body:
        _moves(body, symbols, moves)
        body("return 0")
    w()


class CythonBackend:
    name = "cython"
    owns: tuple[tuple[str, tuple[str, ...]], ...] = ((FOLDER, (".pyx", ".py")),)

    def render(self, specs: Sequence[Spec], root: str, context: Context | None = None) -> dict[str, str]:
        files = {f"{FOLDER}/__init__.py": KERNELS_INIT}
        for spec in specs:
            # A kernel keeps sets of states as one 64-bit mask: a spec with more states has no
            # kernel, and its Python engine plays every hand (fast_engine falls back to it).
            if not spec.abstract and len(engine_plan(spec).states) <= KERNEL_STATES:
                files[f"{FOLDER}/{spec.name}.pyx"] = generate(spec, root)
        return files


BACKEND = register(CythonBackend())
