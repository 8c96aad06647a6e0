"""The compiled schema check (jsonschema-rs) that lets a valid document through without the Python
``jsonschema`` must agree with it: a document it passes that ``jsonschema`` refuses would be a
diagnostic lost. Checked on every document the project has (shipped, house, fixture and case
files) and on shipped specs with one value replaced by another of any JSON type."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from betspec.frontend import jsonpos, schema
from tests.conftest import SPEC_DIR

ROOT = SPEC_DIR.parent


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None  # a fixture that is not JSON: the reader refuses it before any schema check


SPECS = [
    path
    for path in sorted(
        [
            *SPEC_DIR.glob("*.json"),
            *(ROOT / "tests" / "compat" / "house" / "spec").glob("*.json"),
            *(ROOT / "tests" / "fixtures").rglob("*.json"),
        ]
    )
    if _json(path) is not None
]
CASES = sorted((ROOT / "tests" / "conformance").rglob("*.json"))


def _valid(value: Any, name: str) -> bool:
    return not any(True for _ in schema.validator(name).iter_errors(value))


def _agree(value: Any, name: str) -> None:
    assert schema.passes(value, name) == _valid(value, name), json.dumps(value)[:400]


@pytest.mark.parametrize("path", SPECS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_compiled_check_agrees_on_every_spec_file(path: Path) -> None:
    _agree(_json(path), schema.SPEC_SCHEMA)


def test_the_compiled_check_agrees_on_the_cases() -> None:
    assert CASES
    for path in CASES:
        _agree(_json(path), schema.CASE_SCHEMA)


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=12),
    st.sampled_from(["no_limit", "big_blind", "min_raise", "BLINDS", "a\n", "X-1\n", "ante", "fold", "1.2"]),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=6,
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _paths(child, (*path, index))
    return found


_SHIPPED = [_json(path) for path in sorted(SPEC_DIR.glob("*.json"))]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_compiled_check_agrees_on_altered_specs(data: st.DataObject) -> None:
    spec = copy.deepcopy(data.draw(st.sampled_from(_SHIPPED)))
    path = data.draw(st.sampled_from(_paths(spec)[1:]))
    holder = spec
    for step in path[:-1]:
        holder = holder[step]
    if data.draw(st.booleans()) and isinstance(holder, dict):
        del holder[path[-1]]
    else:
        holder[path[-1]] = data.draw(_VALUES)
    # Never passed when jsonschema refuses. The other way they may differ (a pattern's ``$``
    # matches before a final newline in Python's re only): jsonschema then judges alone.
    assert not schema.passes(spec, schema.SPEC_SCHEMA) or _valid(spec, schema.SPEC_SCHEMA), json.dumps(spec)[:400]


def test_a_document_the_compiled_check_refuses_is_judged_by_jsonschema() -> None:
    # Rust's regex reads ``$`` as the end of the text, Python's as before a final newline too:
    # for such a name jsonschema alone decides, as it did before the compiled check.
    text = (SPEC_DIR / "no_limit.json").read_text(encoding="utf-8")
    doc, problems = jsonpos.parse("house.json", text.replace('"name": "no_limit"', '"name": "no_limit\\n"', 1))
    assert doc is not None and not problems and doc.value["name"] == "no_limit\n"
    assert not schema.passes(doc.value, schema.SPEC_SCHEMA)
    assert schema.check(doc, schema.SPEC_SCHEMA) == []
    doc.value["name"] = "No limit"
    assert [d.pointer for d in schema.check(doc, schema.SPEC_SCHEMA)] == ["/name"]
