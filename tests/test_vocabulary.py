"""One vocabulary: the JSON Schemas, the runtime, the back ends and the case runner say what
betspec.vocabulary says (as python-statemachine tests that its schema's keys are its own list)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from betspec import vocabulary as v
from betspec.backends import pyexpr
from betspec.conformance import runner
from betspec.runtime import Code, Engine, contract
from tests.conftest import ROOT


def schema(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ROOT / "spec" / "schema" / name).read_text())
    return data


def at(document: dict[str, Any], pointer: str) -> Any:
    node: Any = document
    for token in pointer.strip("/").split("/"):
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


SPEC = schema("spec.schema.json")
CASE = schema("case.schema.json")


@pytest.mark.parametrize(
    "pointer, words",
    [
        ("/properties/options/additionalProperties/properties/type/enum", ("int", "bool", "int?", "choice")),
        ("/properties/variables/additionalProperties/properties/type/enum", v.DECLARED_TYPES),
        ("/properties/variables/additionalProperties/properties/scope/enum", v.DECLARED_SCOPES),
        ("/properties/quantities/additionalProperties/properties/type/enum", ("int", "bool", "int?")),
        ("/properties/states/additionalProperties/properties/phase/enum", v.PHASES),
        ("/properties/events/additionalProperties/properties/kind/enum", v.EVENT_KINDS),
        (
            "/properties/events/additionalProperties/properties/requires/items/properties/error/enum",
            v.REQUIREMENT_CODES,
        ),
        ("/properties/procedures/properties/push/items/properties/ruling/enum", v.PUSH_RULINGS),
        ("/properties/procedure_rules/required", v.PROCEDURE_RULES),
    ],
)
def test_the_spec_schema_says_what_the_vocabulary_says(pointer: str, words: tuple[str, ...]) -> None:
    assert sorted(at(SPEC, pointer)) == sorted(words)


def test_the_spec_schema_lets_actions_take_only_the_vocabularys_parameters() -> None:
    params = at(SPEC, "/properties/events/additionalProperties/properties/params/properties")
    assert set(params) == {p for names in v.ACTION_PARAMS.values() for p in names}


@pytest.mark.parametrize(
    "pointer, words",
    [
        ("/$defs/code/enum", v.ACTION_CODES),
        ("/$defs/action/anyOf/0/enum", tuple(a for a in v.ACT_NAMES if a != "timeout")),  # the clock has its own step
        ("/$defs/step/properties/out_of_turn/properties/act/enum", v.OUT_OF_TURN_DECLARATIONS),
        ("/$defs/expect/properties/legal/items/anyOf/0/enum", v.CHOSEN_ACTIONS),
        ("/$defs/say/oneOf/0/enum", v.DECLARATIONS),
        ("/$defs/say/oneOf/1/properties/act/enum", v.WAGERS),
        ("/$defs/ruling/properties/act/enum", v.RULING_ACTIONS),
    ],
)
def test_the_case_schema_says_what_the_vocabulary_says(pointer: str, words: tuple[str, ...]) -> None:
    assert sorted(at(CASE, pointer)) == sorted(words)


def test_the_case_runner_observes_every_expectation_the_schema_allows() -> None:
    keys = at(CASE, "/$defs/expect/properties")
    engine = runner.build({"structure": "no_limit", "table": {"stacks": [10, 10], "button": 0, "blinds": [1, 2]}})
    for key in keys:
        runner.observe(engine, key)  # raises KeyError for a key it does not know


def test_the_runtime_raises_only_the_vocabularys_codes() -> None:
    assert [c.value for c in Code] == [c.value for c in v.Code]
    assert set(v.REQUIREMENT_CODES) <= set(v.ACTION_CODES)


def test_the_python_back_end_reads_every_word_and_only_those() -> None:
    assert set(pyexpr.ACCESSORS) == set(v.VARIABLES)
    assert set(pyexpr.PRIMITIVE_METHODS) == set(v.PRIMITIVES)
    assert set(pyexpr.FUNCTION_SOURCES) | set(pyexpr.SEAT_METHODS) == set(v.FUNCTIONS)
    assert not set(pyexpr.FUNCTION_SOURCES) & set(pyexpr.SEAT_METHODS)
    for method in pyexpr.SEAT_METHODS.values():
        assert callable(getattr(Engine, method)), method
    for method in pyexpr.PRIMITIVE_METHODS.values():
        assert callable(getattr(Engine, method.removeprefix("m."))), method


def test_every_action_of_the_vocabulary_is_an_engine_method() -> None:
    assert set(contract.ACTION_METHODS) == set(v.ACT_NAMES)
    for method in contract.ACTION_METHODS.values():
        assert callable(getattr(Engine, method))


def test_the_engine_api_names_every_public_member_of_the_engine_and_the_kernel() -> None:
    """An action of a spec's own becomes a method of its engine: ENGINE_API is what it may not be."""
    from betspec.runtime import fast_engine, has_kernel

    public = {name for name in dir(Engine) if not name.startswith("_") and not name.isupper()}
    if has_kernel("no_limit"):
        kernel = fast_engine("no_limit").__mro__[1]  # the runtime's Kernel, under the spec's
        public |= {name for name in dir(kernel) if not name.startswith("_") and not name.isupper()}
    else:
        public |= {"fields", "python"}  # the kernel's own, as kernel.pyx defines them
    assert public == set(v.ENGINE_API)


def test_the_literal_types_are_the_vocabularys_lists() -> None:
    from typing import get_args

    assert tuple(v.FORCED_BET_KINDS) == get_args(v.ForcedBetKind)
    assert get_args(v.ForcedBetOrder) == v.FORCED_BET_ORDERS
    assert get_args(v.EventKind) == v.EVENT_KINDS
    assert get_args(v.Phase) == v.PHASES
    assert get_args(v.InputType) == v.INPUT_TYPES
    assert get_args(v.PushRulingKind) == v.PUSH_RULINGS
    assert set(get_args(v.ValueType)) <= set(v.INPUT_TYPES)
