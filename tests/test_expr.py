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
        ("stack // (stack - 1)", "can never be zero"),
        ("min(stack)", "min() takes 2 to 8 arguments, not 1"),
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
