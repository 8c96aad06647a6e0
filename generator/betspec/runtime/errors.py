"""Errors raised by engines. Every one carries a code a program can test and a message a dealer can read.

The codes are :class:`Code`; ``docs/cases.md`` (section "Error codes") says when each is raised.
"""

from __future__ import annotations

import enum


class Code(str, enum.Enum):
    """Every error code betspec raises (``error.code``); compare with ``error.code == Code.X``."""

    OUT_OF_TURN = "out_of_turn"
    NO_ACTION_PENDING = "no_action_pending"
    ILLEGAL_ACTION = "illegal_action"
    BELOW_MINIMUM = "below_minimum"
    ABOVE_MAXIMUM = "above_maximum"
    NOT_REOPENED = "not_reopened"
    CAP_REACHED = "cap_reached"
    BAD_AMOUNT = "bad_amount"
    BAD_SEAT = "bad_seat"
    BOUND_BY_DECLARATION = "bound_by_declaration"
    ROUND_NOT_OVER = "round_not_over"
    INVALID_TABLE = "invalid_table"
    BAD_SNAPSHOT = "bad_snapshot"

    def __str__(self) -> str:
        return self.value


#: The codes of :class:`IllegalAction`: what an action, a deal or a declaration may be refused with.
ACTION_CODES = tuple(code.value for code in Code if code not in (Code.INVALID_TABLE, Code.BAD_SNAPSHOT))


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
