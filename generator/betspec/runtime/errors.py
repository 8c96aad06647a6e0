"""Errors raised by engines. Every one carries a code a program can test and a message a dealer can read.

The codes are :class:`Code`; ``docs/cases.md`` (section "Error codes") says when each is raised.
"""

from __future__ import annotations

from betspec.vocabulary import ACTION_CODES, Code

__all__ = ["ACTION_CODES", "BetspecError", "Code", "IllegalAction", "InvalidTable", "SnapshotError", "shown"]


class BetspecError(Exception):
    """Base class of every error betspec raises on purpose."""

    code: str = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class IllegalAction(BetspecError):
    """An action or deal the rules forbid. The engine's state is exactly as it was before it."""

    def __init__(self, code: str, message: str, rule: str = "", source: str = "") -> None:
        super().__init__(message, code)
        self.rule = rule
        self.source = source


class InvalidTable(BetspecError):
    """A table, start position or option value an engine cannot be built from."""

    code = Code.INVALID_TABLE.value


class SnapshotError(BetspecError):
    """A snapshot that cannot be restored; the message says why."""

    code = Code.BAD_SNAPSHOT.value


_SHOWN = 60


def shown(value: object) -> str:
    """``repr(value)``, cut short: a message never echoes a huge input."""
    try:
        text = repr(value)
    except ValueError:  # an integer too long to print (Python's int_max_str_digits)
        return f"<an integer of {value.bit_length() if isinstance(value, int) else '?'} bits>"
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."
