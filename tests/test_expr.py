"""The expression language: what it accepts, what it refuses, how it types and compiles."""

from __future__ import annotations

import pytest

from betspec.backends.pyexpr import Symbol, compile_source
from betspec.frontend.expr import ExprError, Name, check
from betspec.model import Type

SYMBOLS = {
    "stack": Name(Type.INT, "variable", minimum=0),
    "bet_unit": Name(Type.INT, "option", minimum=1),
    "cap": Name(Type.OPT_INT, "option"),
    "flag": Name(Type.BOOL, "option"),
    "to": Name(Type.INT, "parameter", needs=frozenset({"to"})),
}
#: How the Python back end reads the same names.
SOURCES = {
    "stack": Symbol.read(Type.INT, "m.stacks[m.actor]", "variable"),
    "bet_unit": Symbol.read(Type.INT, "m.opt_bet_unit", "option"),
    "cap": Symbol.read(Type.OPT_INT, "m.opt_cap", "option"),
    "flag": Symbol.read(Type.BOOL, "m.opt_flag", "option"),
    "to": Symbol.read(Type.INT, "to", "parameter"),
    "rule_kind": Symbol.read(Type.CHOICE, "m.opt_rule_kind", "option"),
}


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('echo pwned')",
        "stack.__class__",
        "(lambda: 1)()",
        "[x for x in range(3)]",
        "{1: 2}",
        "2 ** 999999",
        "'a string'",
        "stack[0]",
        "__builtins__",
        "_private",
        "open('x')",
        "eval('1')",
        "stack if stack else stack := 3",
        "1.5",
        "stack in (1, 2)",
        "f'{stack}'",
        "1; 2",
        "9" * 20,
        "-" * 3000 + "1",
        "not " * 100 + "flag",
    ],
)
def test_outside_the_language_is_refused(text: str) -> None:
    with pytest.raises(ExprError):
        check(text, SYMBOLS, frozenset({"to"}))


@pytest.mark.parametrize(
    "text, message",
    [
        ("stak + 1", "unknown name 'stak' (did you mean 'stack'?)"),
        ("flag + 1", "the left operand of '+' must be int, not bool"),
        ("stack and flag", "must be bool, not int"),
        ("cap + 1", "test it with 'is not None' first"),
        ("stack is None", "only an int? can be None"),
        (
            "stack // (stack - 1)",
            "must never be zero: a positive literal, a name declared with minimum >= 1, max(stack - 1, 1)",
        ),
        ("min(stack)", "min() of one argument takes a per-seat int input"),
        ("min(stack, 1, 2, 3, 4, 5, 6, 7, 8)", "min() takes 1 to 8 arguments, not 9"),
        ("to + 1", "'to' is only defined for actions with an amount"),
        ("maxi(stack, 1)", "unknown function 'maxi' (did you mean 'max'?)"),
        ("stack if flag else flag", "both branches must have one type"),
    ],
)
def test_type_errors_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(ExprError) as info:
        check(text, SYMBOLS)
    assert message in info.value.message


def test_error_offsets_point_at_the_culprit() -> None:
    with pytest.raises(ExprError) as info:
        check("1 + stak", SYMBOLS)
    assert info.value.offset == 4


def test_narrowing_makes_an_optional_usable() -> None:
    assert check("cap is not None and stack > cap", SYMBOLS).type is Type.BOOL
    assert check("stack - cap if cap is not None else 0", SYMBOLS).type is Type.INT
    assert check("cap is None or stack > cap", SYMBOLS).type is Type.BOOL


def test_compiled_source_uses_only_the_accessors() -> None:
    checked = check("max(stack, to) // bet_unit if flag else -stack", SYMBOLS, frozenset({"to"}))
    source = compile_source(checked.tree, SOURCES)
    assert source == "max(m.stacks[m.actor], to) // m.opt_bet_unit if m.opt_flag else -m.stacks[m.actor]"


@pytest.mark.parametrize(
    "text, value",
    [
        ("1 > 2", False),
        ("1 < 2 and 3 == 3", True),
        ("flag and 1 > 2", False),
        ("7 // 2 + 7 % 2", 4),
        ("stack > 1", None),
    ],
)
def test_constants_fold_without_eval(text: str, value: object) -> None:
    checked = check(text, SYMBOLS)
    assert checked.is_constant == (value is not None)
    if value is not None:
        assert checked.constant == value


CHOICE = {**SYMBOLS, "rule_kind": Name(Type.CHOICE, "option", choices=("complete", "half"))}


def test_a_choice_compares_only_with_its_values() -> None:
    checked = check("rule_kind == 'half' and stack > 1", CHOICE)
    assert compile_source(checked.tree, SOURCES) == "m.opt_rule_kind == 'half' and m.stacks[m.actor] > 1"
    for text, message in [
        ("rule_kind == 'halve'", "'halve' is not a value of 'rule_kind' (complete, half) (did you mean 'half'?)"),
        ("rule_kind + 1", "must be int"),
        ("rule_kind == stack", "a choice is only compared"),
        ("'half' == 'half'", "a choice is only compared"),
        ("stack == 'half'", "a choice is only compared"),
    ]:
        with pytest.raises(ExprError) as info:
            check(text, CHOICE)
        assert message in info.value.message, text


#: A per-seat input (each seat's blind) and a list of seats (who missed a blind), as a spec's
#: inputs declare them.
SEATED = {
    **SYMBOLS,
    "seat_blinds": Name(Type.INT, "input", minimum=0, scope="seat"),
    "missed": Name(Type.SEATS, "input", scope="table"),
    "big_blind_seat": Name(Type.INT, "role", minimum=0, scope="table"),
}
SEATED_SOURCES = {
    **SOURCES,
    "seat_blinds": Symbol.read(Type.INT, "m.in_seat_blinds[m.actor]", "input"),
    "missed": Symbol.read(Type.SEATS, "m.in_missed", "input"),
    "big_blind_seat": Symbol.read(Type.INT, "m.role_big_blind_seat", "role"),
}


def test_max_of_a_per_seat_input_reads_every_seat() -> None:
    checked = check("max(seat_blinds) > 0", SEATED)
    assert checked.type is Type.BOOL and "seat_blinds" not in checked.names  # a table value
    assert compile_source(checked.tree, SEATED_SOURCES) == "max(m.in_seat_blinds) > 0"
    both = check("max(seat_blinds, stack)", SEATED)  # two arguments: the seat to act's value
    assert compile_source(both.tree, SEATED_SOURCES) == "max(m.in_seat_blinds[m.actor], m.stacks[m.actor])"


def test_a_seat_is_asked_about_a_list_of_seats_with_in() -> None:
    checked = check("big_blind_seat not in missed and 2 in missed", SEATED)
    assert (
        compile_source(checked.tree, SEATED_SOURCES) == "m.role_big_blind_seat not in m.in_missed and 2 in m.in_missed"
    )
    assert compile_source(check("not big_blind_seat in missed", SEATED).tree, SEATED_SOURCES) == (
        "m.role_big_blind_seat not in m.in_missed"
    )


@pytest.mark.parametrize(
    "text, message",
    [
        ("stack in stack", "'in' asks about a list of seats, not int"),
        ("flag in missed", "'in' asks whether a seat (an int) is listed, not bool"),
        ("missed == missed", "a list of seats is only the right side of 'in' or 'not in'"),
        ("missed + 1", "must be int, not seats"),
        ("max(missed)", "takes a per-seat int input"),
    ],
)
def test_lists_of_seats_are_only_asked_about(text: str, message: str) -> None:
    with pytest.raises(ExprError) as info:
        check(text, SEATED)
    assert message in info.value.message
