"""JSON with source positions.

The standard library parses JSON but forgets where each value was; rule authors need
``file:line:column`` for every diagnostic. This module parses the same grammar (after the
standard parser has accepted the text, so syntax errors keep the standard messages) and records
the position of every value and key under its JSON pointer. It also reports duplicate object keys,
which ``json.loads`` silently collapses.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from betspec.diagnostics import Diagnostic, DiagnosticCode, Position

#: The standard parser's string scanner (C or Python), which typeshed does not declare.
_scanstring: Callable[[str, int], tuple[str, int]] = vars(json.decoder)["scanstring"]
_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?")
# Deep nesting is refused before Python's recursion limit is: a clean error, never a traceback.
MAX_DEPTH = 64
#: The most a spec or case file may hold: a file is read no further, so that a device or an
#: enormous file is refused at once instead of filling the memory.
MAX_BYTES = 4 * 1024 * 1024


def pointer_escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def join_pointer(pointer: str, token: str | int) -> str:
    return f"{pointer}/{pointer_escape(str(token))}"


@dataclass
class Located:
    """A parsed JSON document and where each of its values and keys stands in the source."""

    path: str
    value: Any
    values: dict[str, Position] = field(default_factory=dict)
    keys: dict[str, Position] = field(default_factory=dict)

    def at(self, pointer: str) -> Position:
        """The position of the value at ``pointer``, or of its nearest located ancestor."""
        while True:
            if pointer in self.values:
                return self.values[pointer]
            if not pointer:
                return Position(self.path, 1, 1)
            pointer = pointer.rsplit("/", 1)[0]

    def key_at(self, pointer: str) -> Position:
        return self.keys.get(pointer) or self.at(pointer)


class _Parser:
    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.doc = Located(path, None)
        self.duplicates: list[Diagnostic] = []

    def position(self, index: int) -> Position:
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= index:
                lo = mid
            else:
                hi = mid - 1
        return Position(self.path, lo + 1, index - self.line_starts[lo] + 1)

    def skip(self, i: int) -> int:
        return _WS.match(self.text, i).end()  # type: ignore[union-attr]

    def value(self, i: int, pointer: str, depth: int) -> tuple[Any, int]:
        if depth > MAX_DEPTH:
            raise _TooDeep(self.position(i), pointer)
        self.doc.values[pointer] = self.position(i)
        ch = self.text[i]
        if ch == "{":
            return self.object(i + 1, pointer, depth)
        if ch == "[":
            return self.array(i + 1, pointer, depth)
        if ch == '"':
            text, end = _scanstring(self.text, i + 1)
            return text, end
        for literal, result in (("true", True), ("false", False), ("null", None)):
            if self.text.startswith(literal, i):
                return result, i + len(literal)
        match = _NUMBER.match(self.text, i)
        assert match is not None  # the standard parser accepted this text
        number = match.group()
        if match.group(1) or match.group(2):
            return float(number), match.end()
        return int(number), match.end()

    def object(self, i: int, pointer: str, depth: int) -> tuple[dict[str, Any], int]:
        result: dict[str, Any] = {}
        i = self.skip(i)
        if self.text[i] == "}":
            return result, i + 1
        while True:
            key_start = self.skip(i)
            key, i = _scanstring(self.text, key_start + 1)
            child = join_pointer(pointer, key)
            if key in result:
                self.duplicates.append(
                    Diagnostic(
                        self.position(key_start),
                        child,
                        DiagnosticCode.DUPLICATE_KEY,
                        f"duplicate key {key!r}: a later value would silently replace the first",
                    )
                )
            self.doc.keys[child] = self.position(key_start)
            i = self.skip(self.skip(i) + 1)  # past the colon
            result[key], i = self.value(i, child, depth + 1)
            i = self.skip(i)
            if self.text[i] == "}":
                return result, i + 1
            i += 1  # the comma

    def array(self, i: int, pointer: str, depth: int) -> tuple[list[Any], int]:
        result: list[Any] = []
        i = self.skip(i)
        if self.text[i] == "]":
            return result, i + 1
        while True:
            i = self.skip(i)
            item, i = self.value(i, join_pointer(pointer, len(result)), depth + 1)
            result.append(item)
            i = self.skip(i)
            if self.text[i] == "]":
                return result, i + 1
            i += 1


class _TooDeep(Exception):
    def __init__(self, position: Position, pointer: str) -> None:
        self.position = position
        self.pointer = pointer


def parse(path: str, text: str) -> tuple[Located | None, list[Diagnostic]]:
    """Parse ``text``; return the located document (None when it is not JSON) and diagnostics."""
    if not text.strip():
        return None, [Diagnostic(Position(path, 1, 1), "", DiagnosticCode.JSON, "empty file: expected a JSON object")]
    try:
        json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        return None, [
            Diagnostic(Position(path, exc.lineno, exc.colno), "", DiagnosticCode.JSON, f"invalid JSON: {exc.msg}")
        ]
    except ValueError as exc:
        return None, [Diagnostic(Position(path, 1, 1), "", DiagnosticCode.JSON, f"invalid JSON: {exc}")]
    except RecursionError:
        return None, [Diagnostic(Position(path, 1, 1), "", DiagnosticCode.JSON, "invalid JSON: nested too deeply")]
    parser = _Parser(path, text)
    try:
        value, _ = parser.value(parser.skip(0), "", 0)
    except _TooDeep as exc:
        message = f"nested more than {MAX_DEPTH} levels deep"
        return None, [Diagnostic(exc.position, exc.pointer, DiagnosticCode.JSON, message)]
    parser.doc.value = value
    return parser.doc, parser.duplicates


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def read_text(path: str, what: str = "a spec", limit: int = MAX_BYTES) -> tuple[str | None, list[Diagnostic]]:
    """The UTF-8 text of the regular file at ``path``, read no further than ``limit`` bytes: a
    device (``/dev/zero``), a pipe or a folder, or a file over the limit, is one clean diagnostic."""
    where = Position(path, 1, 1)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None, [
                Diagnostic(where, "", DiagnosticCode.IO, f"cannot read: not a regular file ({what} is a JSON file)")
            ]
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        return None, [Diagnostic(where, "", DiagnosticCode.IO, f"cannot read: {exc.strerror or exc}")]
    if len(data) > limit:
        message = f"file is more than {limit} bytes; {what} is at most {limit} ({limit // 1024 // 1024} MiB)"
        return None, [Diagnostic(where, "", DiagnosticCode.IO, message)]
    try:
        # As a text-mode read would: every line ending a newline.
        return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n"), []
    except UnicodeDecodeError as exc:
        return None, [Diagnostic(where, "", DiagnosticCode.IO, f"not UTF-8 text: {exc.reason}")]


def load(path: str, what: str = "a spec") -> tuple[Located | None, list[Diagnostic]]:
    """The JSON document at ``path`` with positions (see :func:`read_text` for what is refused)."""
    text, found = read_text(path, what)
    if text is None:
        return None, found
    return parse(path, text)
