"""The engine plan's nodes (betspec.backends.ir): a pass rewrites a method, and each back end's
printer is a visitor over every kind of statement, printing from the plan alone."""

from __future__ import annotations

import ast
import inspect
import textwrap
import typing

import pytest

from betspec.backends import cython, ir, python, typescript
from betspec.backends.plan import scope
from betspec.backends.pyexpr import ACCESSORS
from betspec.backends.writer import Writer
from betspec.frontend import load_spec
from betspec.model import Spec
from tests.conftest import SPEC_DIR

PRINTERS = [python._Statements, cython._Statements, typescript._Statements]


def _no_limit() -> Spec:
    found, problems = load_spec(str(SPEC_DIR / "no_limit.json"))
    assert found is not None, problems
    return found


def _every_kind() -> ir.Method:
    """A method with every statement, value and condition the plan has."""
    seat, amount = ir.Local("seat"), ir.Local("amount")
    big = ir.SpecExpr(ast.Name("big_blind", ast.Load()))
    post = ir.Call(
        "_post",
        (
            ("seat", seat),
            ("amount", amount),
            ("what", ir.Const("a {brace} 'quote'")),
            ("live", ir.Const(True)),
            ("dead_money", ir.Const(False)),
            ("order", ir.Const("in_turn")),
            ("in_full", ir.Const(False)),
        ),
    )
    role = ir.RoleSeat("big_blind_seat")
    return ir.Method(
        "_every_kind",
        (
            ir.SetRole("big_blind_seat", ir.SpecExpr(ast.Constant(1))),
            ir.If(ir.NotASeat(role), (ir.RefuseTable(("seat ", role, " {not} here"), None, "big_blind_seat"),)),
            ir.If(ir.Fails(big), (ir.RefuseTable(("no big blind",), "BLINDS", "BLINDS"),)),
            ir.Block(
                (
                    ir.Let(amount, big),
                    ir.If(ir.Positive(amount), (ir.ForSeats((ir.If(ir.NonZero(amount), (post,)),)),)),
                    ir.If(ir.Holds(big), (ir.If(ir.AnyGiven("seat_antes"), (ir.ForSeats((post,), "seat_antes"),)),)),
                )
            ),
        ),
    )


def test_joined_makes_an_if_of_an_if_one_if_of_both_tests() -> None:
    method = ir.joined(_every_kind())
    block = method.body[3]
    assert isinstance(block, ir.Block)
    last = block.body[2]
    assert isinstance(last, ir.If) and isinstance(last.test, ir.Both)
    assert isinstance(last.test.second, ir.AnyGiven) and isinstance(last.body[0], ir.ForSeats)
    positive = block.body[1]
    assert isinstance(positive, ir.If) and isinstance(positive.test, ir.Positive)  # its body is a loop
    assert ir.joined(method) == method


@pytest.mark.parametrize("printer", PRINTERS, ids=lambda p: p.__module__.rsplit(".", 1)[1])
def test_each_printer_visits_every_kind_of_statement_and_reads_no_model(printer: type) -> None:
    statements = {kind.__name__ for kind in typing.get_args(ir.Statement)}
    transitions = {"TakeFirst", "OnState"}  # written out by the targets that take no tables
    assert statements == {
        "Let",
        "SetRole",
        "If",
        "ForSeats",
        "Call",
        "RefuseTable",
        "Block",
        "ResetVariable",
        "Returns",
        "Reject",
        "Require",
        *transitions,
    }
    if not issubclass(printer, ir.TransitionPrinter):
        statements -= transitions
    assert all(callable(getattr(printer, f"visit_{name}", None)) for name in statements)
    tree = ast.parse(inspect.getsource(printer))
    assert "spec" not in {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}


def _moves(last: bool) -> ir.OnState:
    """Two groups of source states: one tries a guarded move then an unguarded one, the other
    one move that does nothing."""
    guard = ir.SpecExpr(ast.Name("big_blind", ast.Load()))
    first = ir.TakeFirst(
        (ir.Move(guard, "on_raise_all_in", "showdown"), ir.Move(None, "on_raise", None)), "return", True, last
    )
    second = ir.TakeFirst((ir.Move(None, None, None), ir.Move(guard, None, "showdown")), "return", True, last)
    return ir.OnState(((("preflop", "flop"), first), (("river",), second)))


@pytest.mark.parametrize("last", [True, False])
def test_the_transition_printers_take_the_first_move_whose_guard_holds(last: bool) -> None:
    spec = _no_limit()
    symbols = scope(spec, "self", ACCESSORS)
    w = Writer()
    python._Statements(w, symbols, symbols).visit(_moves(last))
    lines = w.text().splitlines()
    assert lines[0] == "if self._state is ST_PREFLOP or self._state is ST_FLOP:"
    assert lines[1].startswith("    if ") and lines[2:5] == [
        "        on_raise_all_in(self, to)",
        "        self._state = ST_SHOWDOWN",
        "        return",
    ]
    assert lines[5] == "    on_raise(self, to)"
    # The method ends after the moves: a move taken unguarded needs no return, a move that does
    # nothing is a ``pass``; the guarded move after an unguarded one is never taken, not printed.
    assert lines[6:] == (
        ["elif self._state is ST_RIVER:", "    pass"]
        if last
        else ["    return", "elif self._state is ST_RIVER:", "    return"]
    )
    w = Writer()
    body = cython._Body([], cython._Flags(()), "(<Inputs>self._inputs)")
    cython._Statements(body, symbols, symbols).visit(_moves(last=False))
    kernel = body.text().splitlines()
    assert kernel[0] == "if self._state == S_PREFLOP or self._state == S_FLOP:"
    assert kernel[4] == "        return 0" and kernel[-1] == "    return 0"
    # One source state: the Python engine's action method proved it, the kernel tests it.
    single = ir.OnState(((("river",), _moves(last).branches[0][1]),))
    w = Writer()
    python._Statements(w, symbols, symbols).visit(single)
    assert not w.text().startswith("if self._state")
    body = cython._Body([], cython._Flags(()), "(<Inputs>self._inputs)")
    cython._Statements(body, symbols, symbols).visit(single)
    assert body.text().startswith("if self._state == S_RIVER:")


def test_a_variable_is_reset_per_hand_or_per_seat_in_every_target() -> None:
    spec = _no_limit()
    symbols = scope(spec, "self", ACCESSORS)
    resets = (ir.ResetVariable("raises", 0, "int"), ir.ResetVariable("killed", False, "bool", per_seat=True))
    w = Writer()
    python._Statements(w, symbols, symbols).visit_all(resets)
    assert w.text().splitlines() == ["self._v_raises = 0", "self._v_killed = [False] * self._n"]
    body = cython._Body([], cython._Flags(()), "(<Inputs>self._inputs)")
    cython._Statements(body, symbols, symbols).visit_all(resets)
    assert body.text() == w.text()
    w = Writer(step=2)
    typescript._Statements(w, typescript._symbols(spec), typescript._symbols(spec, "seat")).visit_all(resets)
    assert w.text().splitlines() == ["m._v_raises = 0;", "m._v_killed = new Array<boolean>(m._n).fill(false);"]


def test_a_method_returns_one_value_or_a_tuple_with_a_record_in_every_target() -> None:
    spec = _no_limit()
    symbols = scope(spec, "self", ACCESSORS)
    record = ir.Record((("a 'b'", ir.Const(1)), ("c", ir.RoleSeat("button_seat"))))
    pair, one = ir.Returns((ir.Const(2), record)), ir.Returns((ir.Const(None),))
    w = Writer()
    python._Statements(w, symbols, symbols).visit_all((pair, one))
    assert w.text().splitlines() == ["return 2, {\"a 'b'\": 1, 'c': self._role_button_seat}", "return None"]
    w = Writer(step=2)
    typescript._Statements(w, typescript._symbols(spec), typescript._symbols(spec, "seat")).visit_all((pair, one))
    assert w.text().splitlines() == ['return [2, { "a \'b\'": 1, "c": m._role_button_seat }];', "return null;"]


def test_an_action_is_rejected_unless_its_requirement_holds_in_every_target() -> None:
    spec = _no_limit()
    symbols = scope(spec, "self", ACCESSORS)
    big = ir.SpecExpr(ast.Name("big_blind", ast.Load()))
    reject = ir.Reject("too_small", "R1", "a {short} 'one'", "raise", ir.Local("to"), False)
    checks = (
        ir.If(ir.ActionIs("raise"), (ir.If(ir.NotFrom("raise"), (reject,)),)),
        ir.Require(big, reject),
        ir.Require(ir.SpecExpr(ast.Constant(True)), reject),  # always holds: only noted
    )
    w = Writer()
    python._Statements(w, symbols, symbols).visit_all(checks)
    assert w.text().splitlines() == [
        "if action == 'raise':",
        "    if self._state not in FROM_RAISE:",
        "        raise self._reject('too_small', 'R1', seat, 'raise', to, \"a {short} 'one'\")",
        "if not self._in_big_blind:",
        "    raise self._reject('too_small', 'R1', seat, 'raise', to, \"a {short} 'one'\")",
        "# R1: always holds in this structure (too_small never raised)",
    ]
    w = Writer(step=2)
    typescript._Statements(w, typescript._symbols(spec), typescript._symbols(spec, "seat")).visit_all(checks)
    text = w.text()
    assert 'if (action === "raise") {' in text and "if (!FROM_RAISE.has(m._state)) {" in text
    assert text.count('throw m._reject("too_small", "R1", seat, "raise", to, "a {short} \'one\'");') == 2
    assert "// R1: always holds" in text
    body = cython._Body([], cython._Flags(()), "(<Inputs>self._inputs)")
    cython._Statements(body, symbols, symbols).visit_all(checks[1:])
    assert body.text().splitlines() == ["if not self._in_big_blind:", "    raise KernelRefusal('too_small')"]


def test_the_python_printer_prints_valid_python_with_named_flags() -> None:
    spec = _no_limit()
    w = Writer()
    printer = python._Statements(w, scope(spec, "self", ACCESSORS), scope(spec, "self", ACCESSORS, seat="seat"))
    printer.method(_every_kind())
    text = w.text()
    ast.parse(textwrap.dedent(text))
    assert "def _every_kind(self) -> None:" in text
    assert "raise InvalidTable(f'seat {self._role_big_blind_seat} {{not}} here')" in text
    assert "rule='BLINDS'" in text and "if (" in text and ") and any(self._in_seat_antes):" in text
    assert "live=True, dead_money=False, order='in_turn', in_full=False)" in text


def test_the_typescript_printer_prints_blocks_and_one_line_calls() -> None:
    spec = _no_limit()
    w = Writer(step=2)
    typescript._Statements(w, typescript._symbols(spec), typescript._symbols(spec, "seat")).visit_all(
        _every_kind().body
    )
    text = w.text()
    depths = [line.count("{") - line.count("}") for line in text.splitlines() if "{not}" not in line]
    assert depths.count(1) == depths.count(-1) == 8 and set(depths) == {-1, 0, 1}
    assert 'throw new InvalidTable("seat " + m._role_big_blind_seat + " {not} here");' in text
    assert 'throw new InvalidTable("no big blind", "BLINDS");' in text
    assert 'if (amount !== 0) m._post(seat, amount, "a {brace} \'quote\'", true, false, "in_turn", false);' in text
    assert "for (const seat of m._in_seat_antes) {" in text and "for (const seat of m._from_button()) {" in text


def test_a_held_place_is_written_when_the_file_is_complete_at_its_indentation() -> None:
    found: list[str] = []
    w = Writer()
    w("class C:")
    with w.indented():
        w.later(lambda held: [held(f"{name}: int") for name in found])
        w("")
        w.later(lambda held: [held(line) for line in ("def f(self) -> None:", "    pass", "")])
        w("x = 1")
    found += ["a", "b"]  # found after the place was held, as hand constants are
    outer = Writer(step=4)
    with outer.indented():
        outer.extend(w)
    assert w.text() == "class C:\n    a: int\n    b: int\n\n    def f(self) -> None:\n        pass\n\n    x = 1\n"
    assert outer.text() == "".join(f"    {line}\n" if line else "\n" for line in w.text().splitlines())


def test_the_python_back_end_prints_each_engine_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    engine = python._engine

    def counted(w: Writer, spec: Spec, *rest: typing.Any) -> None:
        calls.append(spec.name)
        engine(w, spec, *rest)

    monkeypatch.setattr(python, "_engine", counted)
    text = python.generate(_no_limit(), str(SPEC_DIR.parent))
    assert calls == ["no_limit"]
    assert "def _hand_constants(self) -> None:" in text and "    _k_" in text
    assert text == (SPEC_DIR.parent / "generated" / "no_limit.py").read_text()


def test_the_kernel_prints_roundings_and_remainders_as_python_computes_them() -> None:
    """A kernel rounds to a unit and takes remainders through the runtime's inline functions
    (kernel.pxd: computed as Python does, the division skipped where its answer is known), and
    looks for a seat in a per-seat input only where the input is not empty; the inputs are read
    through a cast of the hand's, not a reference-counted local."""
    fields = [("_in_missed", "tuple"), ("_opt_bet_unit", "chips_t")]
    body = cython._Body([], cython._Flags(fields), "(<KInputs>self._inputs)")
    printed = {
        text: body.src(ast.parse(text, mode="eval").body)
        for text in (
            "-(-(a + 1) // t._opt_bet_unit) * t._opt_bet_unit",
            "a // t._opt_bet_unit * t._opt_bet_unit",
            "(button + 1) % n",
            "seat in t._in_missed",
            "-(-a // b) * c",  # not a rounding to one unit: printed as written
            "a // b",
        )
    }
    assert list(printed.values()) == [
        "rounded_up(a + 1, (<KInputs>self._inputs)._opt_bet_unit)",
        "rounded_down(a, (<KInputs>self._inputs)._opt_bet_unit)",
        "remainder(button + 1, n)",
        "len((<KInputs>self._inputs)._in_missed) != 0 and seat in (<KInputs>self._inputs)._in_missed",
        "-(-a // b) * c",
        "a // b",
    ]
