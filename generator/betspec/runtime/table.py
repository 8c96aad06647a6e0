"""What an engine is built from: the table, and optionally a street to start on."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, fields
from typing import Any

from betspec.runtime.errors import InvalidTable, shown
from betspec.vocabulary import STREETS

MAX_SEATS = 23  # 52 cards, 2 each, 5 on the board
MAX_CHIPS = 10**15


def _chips(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidTable(f"{what} must be a whole number of chips, not {value!r}")
    if not 0 <= value <= MAX_CHIPS:
        raise InvalidTable(f"{what} must be between 0 and {MAX_CHIPS}, not {value}")
    return value


@dataclass(frozen=True)
class Table:
    """Seats 0..n-1 clockwise, the button seat, ``[small, big]`` blinds, an ante, fixed-limit bets."""

    stacks: Sequence[int]
    button: int
    blinds: Sequence[int]
    ante: int = 0
    bets: Sequence[int] | None = None
    #: The seat after the big blind posts a burn blind of twice the big blind (no-limit rule 12).
    burn_blind: bool = False

    def checked(self) -> Table:
        """This table with every value checked, as tuples; raises :class:`InvalidTable`."""
        if isinstance(self.stacks, str | bytes) or not isinstance(self.stacks, Sequence):
            raise InvalidTable("stacks must be a list of chip counts")
        if not 2 <= len(self.stacks) <= MAX_SEATS:
            raise InvalidTable(f"a table has 2 to {MAX_SEATS} seats, not {len(self.stacks)}")
        stacks = tuple(self.stacks)
        for seat, stack in enumerate(stacks):
            if type(stack) is not int or not 0 <= stack <= MAX_CHIPS:
                _chips(stack, f"stack of seat {seat}")  # raises, naming the seat
                stacks = tuple(int(s) for s in stacks)  # an int subclass: keep plain ints
        if isinstance(self.button, bool) or not isinstance(self.button, int):
            raise InvalidTable(f"button must be a seat number, not {self.button!r}")
        if not 0 <= self.button < len(stacks):
            raise InvalidTable(f"button {self.button} is not a seat (0..{len(stacks) - 1})")
        if isinstance(self.blinds, str | bytes) or not isinstance(self.blinds, Sequence) or len(self.blinds) != 2:
            raise InvalidTable("blinds must be [small, big]")
        small, big = (_chips(b, name) for b, name in zip(self.blinds, ("small blind", "big blind"), strict=True))
        if small > big:
            raise InvalidTable(f"the small blind ({small}) is larger than the big blind ({big})")
        ante = _chips(self.ante, "ante")
        bets: tuple[int, int] | None = None
        if self.bets is not None:
            if isinstance(self.bets, str | bytes) or not isinstance(self.bets, Sequence) or len(self.bets) != 2:
                raise InvalidTable("bets must be [small_bet, big_bet]")
            bets = (_chips(self.bets[0], "small bet"), _chips(self.bets[1], "big bet"))
        if not isinstance(self.burn_blind, bool):
            raise InvalidTable(f"burn_blind must be true or false, not {self.burn_blind!r}")
        if self.burn_blind and len(stacks) < 3:
            raise InvalidTable("a burn blind needs three seats or more (the seat after the big blind posts it)")
        return Table(stacks, self.button, (small, big), ante, bets, self.burn_blind)

    def to_json(self) -> dict[str, Any]:
        """Every field as JSON data: the one place snapshots, cases and tools write a table from."""
        return {f.name: _json(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_json(cls, data: object) -> Table:
        """The table ``to_json`` wrote (or a case's table: missing fields take their defaults).

        Raises :class:`InvalidTable` for anything else; the values are checked when an engine
        is built from it."""
        return cls(**_fields_of(cls, data, "table"))


@dataclass(frozen=True)
class Start:
    """Begin on ``street`` with every seat in the hand and ``pot`` chips already in the middle."""

    street: str
    pot: int = 0

    def checked(self) -> Start:
        if type(self.street) is not str or self.street not in STREETS:
            raise InvalidTable(f"start street must be one of {', '.join(STREETS)}, not {self.street!r}")
        return Start(self.street, _chips(self.pot, "start pot"))

    def to_json(self) -> dict[str, Any]:
        return {f.name: _json(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_json(cls, data: object) -> Start:
        return cls(**_fields_of(cls, data, "start"))


def _json(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def _fields_of(cls: type, data: object, what: str) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise InvalidTable(f"a {what} is a JSON object, not {type(data).__name__}")
    names = [f.name for f in fields(cls)]
    unknown = sorted(str(key) for key in data if key not in names)
    if unknown:
        raise InvalidTable(f"a {what} has no field {unknown[0][:40]!r} (its fields: {', '.join(names)})")
    required = [f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING]
    missing = [name for name in required if name not in data]
    if missing:
        raise InvalidTable(f"a {what} needs {', '.join(missing)}")
    return dict(data)


def _whole(name: str, value: object, minimum: int | None, maximum: int | None, or_null: bool) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidTable(f"option {name} must be a whole number{' or null' if or_null else ''}, not {shown(value)}")
    if minimum is not None and value < minimum:
        raise InvalidTable(f"option {name} must be at least {minimum}, not {value}")
    if maximum is not None and value > maximum:
        raise InvalidTable(f"option {name} must be at most {maximum}, not {value}")
    if abs(value) > MAX_CHIPS:
        raise InvalidTable(f"option {name} is out of range: {shown(value)}")
    return int(value)


def int_option(name: str, value: object, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` for the int option ``name``, checked; raises :class:`InvalidTable`."""
    return _whole(name, value, minimum, maximum, or_null=False)


def optional_int_option(name: str, value: object, minimum: int | None = None, maximum: int | None = None) -> int | None:
    """``value`` for the ``int?`` option ``name`` (None allowed), checked."""
    return None if value is None else _whole(name, value, minimum, maximum, or_null=True)


def bool_option(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InvalidTable(f"option {name} must be true or false, not {shown(value)}")
    return value


def choice_option(name: str, value: object, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise InvalidTable(f"option {name} must be one of {', '.join(choices)}, not {shown(value)}")
    return value
