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
    """A table, start position or option value an engine cannot be built from; ``rule`` is the
    id of the spec's rule a refused table breaks (its ``checks``), empty for the runtime's own."""

    code = Code.INVALID_TABLE.value

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


class SnapshotError(BetspecError):
    """A snapshot that cannot be restored; the message says why."""

    code = Code.BAD_SNAPSHOT.value


_SHOWN = 60
#: How deep and how many items a shown container goes into: the rest is "...".
_DEPTH, _ITEMS = 3, 8
#: An integer of more bits than this is named by its size, not printed (printing a huge one is
#: slow, and one of more than 4,300 digits cannot be printed at all).
_INT_BITS = 256


def shown(value: object) -> str:
    """``repr(value)``, cut short: a message never echoes a huge input.

    Total: it never raises and its result is at most 60 characters, whatever ``value`` is (an
    integer too long to print, a list nested thousands deep, an object whose ``repr`` raises or
    returns something that is not a string)."""
    try:
        text = _repr(value, _DEPTH)
    except Exception:  # a repr that fails in a way _repr does not foresee
        text = _nameless(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _nameless(value: object) -> str:
    """What an unprintable value is shown as: its type's name (``type()`` cannot be overridden)."""
    try:
        name = type(value).__name__
    except Exception:  # pragma: no cover - a metaclass whose __name__ raises
        name = "object"
    return f"<{name[:40] if isinstance(name, str) else 'object'}>"


def _safe(value: object, depth: int) -> str:
    """An item of a container, shown even when its own repr fails."""
    try:
        return _repr(value, depth)
    except Exception:
        return _nameless(value)


def _repr(value: object, depth: int) -> str:
    kind = type(value)
    if isinstance(value, int) and kind is int:
        bits = value.bit_length()
        return repr(value) if bits <= _INT_BITS else f"<an integer of {bits} bits>"
    if isinstance(value, str | bytes) and kind in (str, bytes):
        return repr(value[: _SHOWN + 1])
    if kind is bool or kind is float or value is None:
        return repr(value)
    if isinstance(value, list | tuple | set | frozenset | dict) and kind in (list, tuple, set, frozenset, dict):
        if depth <= 0:
            return {list: "[...]", tuple: "(...)", dict: "{...}"}.get(kind, f"{kind.__name__}(...)")
        items: list[str] = []
        pairs = value.items() if isinstance(value, dict) else None
        for number, item in enumerate(pairs if pairs is not None else value):
            if number == _ITEMS:
                items.append("...")
                break
            if pairs is not None:
                key, inner = item
                items.append(f"{_safe(key, depth - 1)}: {_safe(inner, depth - 1)}")
            else:
                items.append(_safe(item, depth - 1))
        inner_text = ", ".join(items)
        if kind is list:
            return f"[{inner_text}]"
        if kind is tuple:
            return f"({inner_text}{',' if len(value) == 1 else ''})"
        if kind is dict:
            return f"{{{inner_text}}}"
        if not value:
            return f"{kind.__name__}()"
        return f"{{{inner_text}}}" if kind is set else f"frozenset({{{inner_text}}})"
    text = repr(value)  # anything else: its own repr, which may raise (caught by shown)
    return text if type(text) is str else _nameless(value)
