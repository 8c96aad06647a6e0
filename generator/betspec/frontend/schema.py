"""Schema checks: the JSON Schemas of ``spec/schema/``, loaded once, errors mapped to positions.

A document is first checked by a compiled validator (jsonschema-rs: about 4 ms to build and a
fraction of a millisecond to check a spec, where importing the Python ``jsonschema`` and checking
with it took 120 ms of a one-spec ``validate``); only a document it refuses, or one it cannot
read (a number past 64 bits), is checked again by ``jsonschema``, whose errors (a path, the
keyword, the subschema, the alternatives of a ``oneOf``) the diagnostics are written from. A test
(tests/test_schema_fast_path.py) checks that the two agree on shipped, house and mutated specs.
"""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any, cast

import jsonschema_rs

from betspec import packaged
from betspec.diagnostics import Diagnostic, DiagnosticCode, did_you_mean
from betspec.frontend.jsonpos import Located, join_pointer

SPEC_SCHEMA = packaged.SPEC_SCHEMA
CASE_SCHEMA = packaged.CASE_SCHEMA


def _schema_text(name: str) -> str:
    return (packaged.schemas() / name).read_text(encoding="utf-8")


if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError


@cache
def document(name: str) -> dict[str, Any]:
    """The schema ``name`` as JSON data (a schema file holds an object: the tests check each
    against the metaschema, not every run: checking one took most of a one-spec ``validate``)."""
    found = json.loads(_schema_text(name))
    assert isinstance(found, dict)
    return found


@cache
def _compiled(name: str) -> Any:
    return jsonschema_rs.Draft202012Validator(document(name))


@cache
def validator(name: str) -> Draft202012Validator:
    """The Python validator of schema ``name``, whose errors diagnostics are written from."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(document(name))


def passes(value: object, name: str) -> bool:
    """Whether the compiled validator accepts ``value`` (False too where it cannot read it, so
    that ``jsonschema`` judges)."""
    try:
        return bool(_compiled(name).is_valid(value))
    except (ValueError, TypeError, OverflowError, RecursionError):
        return False


def _pointer(error: ValidationError) -> str:
    pointer = ""
    for token in error.absolute_path:
        pointer = join_pointer(pointer, token)
    return pointer


def _explain(error: ValidationError, doc: Located) -> list[Diagnostic]:
    """One or more diagnostics for a schema error, naming the offending key where there is one."""
    pointer = _pointer(error)
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        schema = error.schema if isinstance(error.schema, dict) else {}
        allowed = list(schema.get("properties", {}))
        out = []
        for key in error.instance:
            if key not in allowed:
                child = join_pointer(pointer, key)
                hint = did_you_mean(key, allowed)
                out.append(Diagnostic(doc.key_at(child), child, DiagnosticCode.SCHEMA, f"unknown key {key!r}{hint}"))
        if out:
            return out
    if error.validator in ("oneOf", "anyOf") and error.context:
        from jsonschema.exceptions import best_match

        deepest = best_match(error.context)
        if deepest is not None and _pointer(deepest) != pointer:
            return _explain(deepest, doc)
    if error.validator == "required" and isinstance(error.instance, dict):
        required: Any = error.validator_value
        missing = [key for key in required if key not in error.instance]
        message = f"{error.message}: add it ({', '.join(repr(k) for k in missing)})" if missing else error.message
        return [Diagnostic(doc.at(pointer), pointer, DiagnosticCode.SCHEMA, message)]
    message = error.message
    if len(message) > 300:
        message = message[:300] + "..."
    return [Diagnostic(doc.at(pointer), pointer, DiagnosticCode.SCHEMA, f"{message}{_fix(error)}")]


#: How a value of each JSON type is written, for a message that says what to write instead.
_WRITTEN = {
    "integer": "a whole number (such as 3)",
    "number": "a number",
    "boolean": "true or false",
    "null": "null (no value)",
    "string": 'a text in quotes ("...")',
    "array": "a list ([...])",
    "object": "an object ({...})",
}


def _fix(error: ValidationError) -> str:
    """What to write instead, for a schema error: the types the key takes, the values it may
    be (a near one named), a name's form, a bound."""
    kind, wanted = error.validator, cast(Any, error.validator_value)
    if kind == "type":
        types = [wanted] if isinstance(wanted, str) else list(wanted)
        written = [_WRITTEN.get(t, t) for t in types]
        said = written[0] if len(written) == 1 else ", ".join(written[:-1]) + " or " + written[-1]
        quoted = " (without quotes)" if isinstance(error.instance, str) and "string" not in types else ""
        return f": write {said}{quoted}"
    if kind == "enum" and isinstance(wanted, list):
        hint = did_you_mean(str(error.instance), [str(v) for v in wanted]) if isinstance(error.instance, str) else ""
        return f"{hint}: write one of them"
    if kind == "const":
        return f": write {wanted!r}"
    if kind == "pattern":
        return ": a name is lowercase letters, digits and _, starting with a letter (a rule id: capitals, digits and -)"
    if kind in ("maxLength", "maxItems", "maxProperties", "maximum"):
        return f": keep it to {wanted} at most"
    if kind in ("minLength", "minItems", "minProperties", "minimum"):
        return f": give at least {wanted}"
    return ": see spec/schema/spec.schema.json for what this key takes"


def check(doc: Located, schema_name: str) -> list[Diagnostic]:
    if passes(doc.value, schema_name):
        return []
    out: list[Diagnostic] = []
    for error in validator(schema_name).iter_errors(doc.value):
        out.extend(_explain(error, doc))
    return sorted(set(out))
