"""Schema checks: the JSON Schemas of ``spec/schema/``, loaded once, errors mapped to positions."""

from __future__ import annotations

import json
from functools import cache

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from betspec import packaged
from betspec.diagnostics import Diagnostic, DiagnosticCode, did_you_mean
from betspec.frontend.jsonpos import Located, join_pointer

SPEC_SCHEMA = "spec.schema.json"
CASE_SCHEMA = "case.schema.json"


def _schema_text(name: str) -> str:
    return (packaged.schemas() / name).read_text(encoding="utf-8")


@cache
def validator(name: str) -> Draft202012Validator:
    schema = json.loads(_schema_text(name))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


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
        deepest = best_match(error.context)
        if deepest is not None and _pointer(deepest) != pointer:
            return _explain(deepest, doc)
    if error.validator == "required" and isinstance(error.instance, dict):
        return [Diagnostic(doc.at(pointer), pointer, DiagnosticCode.SCHEMA, error.message)]
    message = error.message
    if len(message) > 300:
        message = message[:300] + "..."
    return [Diagnostic(doc.at(pointer), pointer, DiagnosticCode.SCHEMA, message)]


def check(doc: Located, schema_name: str) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for error in validator(schema_name).iter_errors(doc.value):
        out.extend(_explain(error, doc))
    return sorted(set(out))
