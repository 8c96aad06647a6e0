"""What characters a spec's strings may hold: text, not control codes.

Every string of a spec reaches generated code, diagrams and pages (titles, labels, meanings,
rule texts, messages). A control character other than a newline or a tab (a NUL, an escape
sequence, a carriage return) or a lone surrogate (``"\\ud800"`` in JSON, which no UTF-8 file
can hold) would validate and then break whatever prints it: each is refused at its pointer.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from betspec.diagnostics import Diagnostic, DiagnosticCode
from betspec.frontend.jsonpos import Located, join_pointer

#: Control characters (Unicode category Cc) but the newline and the tab, and surrogates.
_REFUSED = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def problem(text: str) -> str | None:
    """What in ``text`` is not text a spec may hold (\"a NUL (U+0000) at character 3: ...\"), or None."""
    found = _REFUSED.search(text)
    if found is None:
        return None
    char = found.group()
    code = f"U+{ord(char):04X}"
    where = f" at character {found.start() + 1}" if len(text) > 1 else ""
    if unicodedata.category(char) == "Cs":
        why = "a surrogate alone is not a character (no UTF-8 file can hold it)"
        return f"a lone surrogate ({code}){where}: {why}; strings hold printable text, newlines and tabs"
    name = {"\x00": "a NUL", "\r": "a carriage return", "\x1b": "an escape"}.get(char, "a control character")
    return f"{name} ({code}){where}: strings hold printable text, newlines and tabs only"


def _strings(value: Any, pointer: str) -> Iterator[tuple[str, str, bool]]:
    """Every string of a JSON value, keys included: (its pointer, the string, whether a key)."""
    if isinstance(value, str):
        yield pointer, value, False
    elif isinstance(value, dict):
        for key, item in value.items():
            child = join_pointer(pointer, key)
            yield child, key, True
            yield from _strings(item, child)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, join_pointer(pointer, index))


def check(doc: Located) -> list[Diagnostic]:
    """A diagnostic for each string (or key) of ``doc`` that is not text."""
    out: list[Diagnostic] = []
    for pointer, text, is_key in _strings(doc.value, ""):
        why = problem(text)
        if why is not None:
            what = "key" if is_key else "string"
            position = doc.key_at(pointer) if is_key else doc.at(pointer)
            out.append(Diagnostic(position, pointer, DiagnosticCode.TEXT, f"this {what} holds {why}"))
    return out
