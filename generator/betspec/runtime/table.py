"""What an engine is built from: the table, and optionally a street to start on."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, TypeVar

from betspec.runtime.errors import InvalidTable, shown
from betspec.suggest import did_you_mean

T = TypeVar("T")
#: What a generated engine reads for an input the table does not give.
ABSENT: Any = type("Absent", (), {"__repr__": lambda self: "ABSENT"})()
MAX_SEATS = 23  # 52 cards, 2 each, 5 on the board
MAX_CHIPS = 10**15


def chips_value(value: object, what: str) -> int:
    """``value`` as a number of chips (a plain int, 0 to MAX_CHIPS); raises :class:`InvalidTable`
    naming ``what`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidTable(f"{what} must be a whole number of chips, not {shown(value)}")
    if not 0 <= value <= MAX_CHIPS:
        raise InvalidTable(f"{what} must be between 0 and {MAX_CHIPS}, not {shown(value)}")
    return value


class Table:
    """Seats 0..n-1 clockwise with their chips, the button's seat, and what else the spec's
    ``inputs`` declare (``blinds=(small, big)``, ``ante``, ``bets``, ``straddles``...).

    ``blinds`` may come third, positionally, as most specs have them; every other input is a
    keyword. The engine checks the inputs against its spec: an unknown one is refused, naming
    its near name; a missing one takes the spec's default, or is refused when it has none.
    """

    __slots__ = ("button", "inputs", "stacks")

    def __init__(
        self, stacks: Sequence[int], button: int = 0, blinds: Sequence[int] | None = None, **inputs: object
    ) -> None:
        self.stacks: Sequence[int] = stacks
        self.button: int = button
        self.inputs: Mapping[str, object] = {"blinds": blinds, **inputs} if blinds is not None else dict(inputs)

    def __setattr__(self, name: str, value: object) -> None:
        if hasattr(self, "inputs"):
            raise AttributeError("a Table does not change: build another one")
        object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Table) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(repr(self))

    def __repr__(self) -> str:
        given = "".join(f", {name}={_repr(value)}" for name, value in sorted(self.inputs.items(), key=_by_name))
        return f"Table(stacks={_repr(self.stacks)}, button={_repr(self.button)}{given})"

    def get(self, name: str, default: object = None) -> object:
        """The value of input ``name``, or ``default`` when the table does not give it."""
        return self.inputs.get(name, default)

    def checked(self) -> Table:
        """This table with its seats checked and its values as tuples; raises :class:`InvalidTable`.

        The inputs are checked by the engine, against its spec."""
        stacks, button, inputs = self.stacks, self.button, self.inputs
        plain = (
            (type(stacks) is list or type(stacks) is tuple)
            and 2 <= len(stacks) <= MAX_SEATS
            and type(button) is int
            and 0 <= button < len(stacks)
            and type(inputs) is dict
        )
        if plain:
            for stack in stacks:
                if type(stack) is not int or not 0 <= stack <= MAX_CHIPS:
                    plain = False
                    break
        if plain:
            # The common case, as the slow path below would leave it: plain values, lists as tuples.
            frozen = {}
            for name, value in inputs.items():
                if type(name) is not str:
                    raise InvalidTable("a table's inputs are named")
                if type(value) is tuple:
                    # A flat tuple is kept as it is (what _frozen returns for it): blinds, for every hand.
                    for item in value:
                        if isinstance(item, list | tuple):
                            value = _frozen(value)
                            break
                elif type(value) is list:
                    value = _frozen(value)
                frozen[name] = value
            table = Table.__new__(Table)
            _set(table, "stacks", tuple(stacks))
            _set(table, "button", button)
            _set(table, "inputs", frozen)
            return table
        if isinstance(self.stacks, str | bytes) or not isinstance(self.stacks, Sequence):
            raise InvalidTable("stacks must be a list of chip counts")
        if not 2 <= len(self.stacks) <= MAX_SEATS:
            raise InvalidTable(f"a table has 2 to {MAX_SEATS} seats, not {len(self.stacks)}")
        stacks = tuple(self.stacks)
        for seat, stack in enumerate(stacks):
            if type(stack) is not int or not 0 <= stack <= MAX_CHIPS:
                chips_value(stack, f"stack of seat {seat}")  # raises, naming the seat
                stacks = tuple(int(s) for s in stacks)  # an int subclass: keep plain ints
        if type(self.button) is not int:
            raise InvalidTable(f"button must be a seat number, not {shown(self.button)}")
        if not 0 <= self.button < len(stacks):
            raise InvalidTable(f"button {shown(self.button)} is not a seat (0..{len(stacks) - 1})")
        if not isinstance(self.inputs, Mapping) or not all(type(name) is str for name in self.inputs):
            raise InvalidTable("a table's inputs are named")
        return Table.of(stacks, self.button, {name: _frozen(value) for name, value in self.inputs.items()})

    @classmethod
    def of(cls, stacks: Sequence[int], button: int, inputs: Mapping[str, object]) -> Table:
        """A table of these fields, as they are (``inputs`` may hold ``blinds`` like any input)."""
        table = cls.__new__(cls)
        _set(table, "stacks", stacks)
        _set(table, "button", button)
        _set(table, "inputs", dict(inputs))
        return table

    def to_json(self) -> dict[str, Any]:
        """The table as JSON data: the one place snapshots, cases and tools write a table from."""
        return {"stacks": list(self.stacks), "button": self.button, **{k: _json(v) for k, v in self.inputs.items()}}

    @classmethod
    def from_json(cls, data: object) -> Table:
        """The table ``to_json`` wrote, or a case's table; raises :class:`InvalidTable` for anything else."""
        if not isinstance(data, Mapping):
            raise InvalidTable(f"a table is a JSON object, not {type(data).__name__}")
        if "stacks" not in data:
            raise InvalidTable("a table needs its stacks")
        if not all(type(key) is str for key in data):
            raise InvalidTable("a table's inputs are named")
        inputs = {k: v for k, v in data.items() if k not in ("stacks", "button")}
        return cls.of(data["stacks"], data.get("button", 0), inputs)


_set = object.__setattr__


def _by_name(item: tuple[object, object]) -> tuple[bool, str]:
    """Inputs in the order of their names (a name that is not a string, which the engine refuses, last)."""
    name = item[0]
    return (False, name) if type(name) is str else (True, "")


def _repr(value: object) -> str:
    """``repr(value)``, or, for a value that cannot be printed (an integer of thousands of
    digits, a list nested thousands deep, a repr that raises), what ``shown`` makes of it."""
    try:
        text = repr(value)
    except Exception:
        return shown(value)
    return text if type(text) is str else shown(value)


#: How deep a table input may nest lists (the specs' are flat: ``blinds``, ``seat_antes``).
MAX_NESTING = 8


def _frozen(value: object, depth: int = 0) -> object:
    """Lists as tuples, so that a checked table cannot be changed through what it was given;
    raises :class:`InvalidTable` for lists nested more than ``MAX_NESTING`` deep."""
    if isinstance(value, list | tuple):
        if depth >= MAX_NESTING:
            raise InvalidTable(f"a table input nests lists more than {MAX_NESTING} deep")
        for v in value:
            if isinstance(v, list | tuple):
                return tuple(_frozen(v, depth + 1) for v in value)
        return tuple(value)
    return value


@dataclass(frozen=True)
class Start:
    """Begin on ``street`` (one of the spec's) with every seat in the hand and ``pot`` chips
    already in the middle; ``inputs`` are what its deal would have given (a stud street's opener)."""

    street: str
    pot: int = 0
    inputs: Mapping[str, object] = field(default_factory=dict)

    def checked(self) -> Start:
        """This start with its values checked; the engine checks the street against its spec's."""
        if type(self.street) is not str:
            raise InvalidTable(f"start street must be a street's name, not {shown(self.street)}")
        if not isinstance(self.inputs, Mapping) or not all(type(name) is str for name in self.inputs):
            raise InvalidTable("a start's inputs are named")
        return Start(self.street, chips_value(self.pot, "start pot"), dict(self.inputs))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"street": self.street, "pot": self.pot}
        if self.inputs:
            data["inputs"] = {name: _json(value) for name, value in self.inputs.items()}
        return data

    @classmethod
    def from_json(cls, data: object) -> Start:
        return cls(**_fields_of(cls, data, "start"))


def _json(value: object) -> object:
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    return value


def _fields_of(cls: type, data: object, what: str) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise InvalidTable(f"a {what} is a JSON object, not {type(data).__name__}")
    names = [f.name for f in fields(cls)]
    if not all(type(key) is str for key in data):
        raise InvalidTable(f"a {what}'s fields are named ({', '.join(names)})")
    unknown = sorted(key for key in data if key not in names)
    if unknown:
        raise InvalidTable(f"a {what} has no field {shown(unknown[0])} (its fields: {', '.join(names)})")
    required = [f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING]
    missing = [name for name in required if name not in data]
    if missing:
        raise InvalidTable(f"a {what} needs {', '.join(missing)}")
    return dict(data)


def _whole(name: str, value: object, minimum: int | None, maximum: int | None, or_null: bool) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidTable(f"option {name} must be a whole number{' or null' if or_null else ''}, not {shown(value)}")
    if minimum is not None and value < minimum:
        raise InvalidTable(f"option {name} must be at least {minimum}, not {shown(value)}")
    if maximum is not None and value > maximum:
        raise InvalidTable(f"option {name} must be at most {maximum}, not {shown(value)}")
    if abs(value) > MAX_CHIPS:
        raise InvalidTable(f"option {name} is out of range: {shown(value)}")
    return int(value)


def int_option(name: str, value: object, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` for the int option ``name``, checked; raises :class:`InvalidTable`."""
    if _plain_int(value, minimum, maximum):  # the common case, without building a message
        return value  # type: ignore[return-value]
    return _whole(name, value, minimum, maximum, or_null=False)


def optional_int_option(name: str, value: object, minimum: int | None = None, maximum: int | None = None) -> int | None:
    """``value`` for the ``int?`` option ``name`` (None allowed), checked."""
    return None if value is None else _whole(name, value, minimum, maximum, or_null=True)


def bool_option(name: str, value: object) -> bool:
    if value is True or value is False:
        return value
    if not isinstance(value, bool):
        raise InvalidTable(f"option {name} must be true or false, not {shown(value)}")
    return value


def choice_option(name: str, value: object, choices: tuple[str, ...]) -> str:
    if type(value) is str and value in choices:
        return value
    if not isinstance(value, str) or value not in choices:
        raise InvalidTable(f"option {name} must be one of {', '.join(choices)}, not {shown(value)}")
    return value


@dataclass(frozen=True)
class Declared:
    """An option or a table input as its spec declares it: what tools read to build tables and
    options for any spec (its type, default or example, bounds, choices)."""

    name: str
    type: str
    default: object  # ABSENT when the table must give it
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    per_seat: bool = False
    example: object = None
    hand: bool = False  # given for one hand only: not carried to the next table

    @property
    def required(self) -> bool:
        return self.default is ABSENT


# ---- table inputs, checked against the spec's declarations (generated code calls these) ----


def unknown_inputs(spec: str, given: Mapping[str, object], names: frozenset[str]) -> None:
    """Refuse a table input the spec does not declare, naming its near name."""
    for name in given:
        if name not in names:
            known = ", ".join(sorted(names)) or "none"
            hint = did_you_mean(name, names)
            raise InvalidTable(f"{spec} has no table input {shown(name)}{hint} (its inputs: {known})")


def required_input(spec: str, name: str) -> InvalidTable:
    return InvalidTable(f"{spec} needs the table's {name}")


def _plain_int(value: object, minimum: int | None, maximum: int | None) -> bool:
    """``value`` is a plain int within the bounds and the chip range: the common case, checked
    without building a message."""
    return (
        type(value) is int
        and -MAX_CHIPS <= value <= MAX_CHIPS
        and (minimum is None or value >= minimum)
        and (maximum is None or value <= maximum)
    )


def int_input(name: str, value: object, minimum: int | None = None, maximum: int | None = None) -> int:
    if _plain_int(value, minimum, maximum):
        return value  # type: ignore[return-value]
    return _whole(f"table input {name}", value, minimum, maximum, or_null=False)


def optional_int_input(name: str, value: object, minimum: int | None = None, maximum: int | None = None) -> int | None:
    return None if value is None else _whole(f"table input {name}", value, minimum, maximum, or_null=True)


def bool_input(name: str, value: object) -> bool:
    return bool_option(f"table input {name}", value)


def choice_input(name: str, value: object, choices: tuple[str, ...]) -> str:
    return choice_option(f"table input {name}", value, choices)


def seat_input(name: str, value: object, seats: int) -> int:
    return _whole(f"table input {name} (a seat)", value, 0, seats - 1, or_null=False)


def optional_seat_input(name: str, value: object, seats: int) -> int | None:
    return None if value is None else seat_input(name, value, seats)


def seats_input(name: str, value: object, seats: int) -> tuple[int, ...]:
    """A list of distinct seats."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise InvalidTable(f"table input {name} is a list of seats, not {shown(value)}")
    found = tuple(seat_input(name, seat, seats) for seat in value)
    if len(set(found)) != len(found):
        raise InvalidTable(f"table input {name} names a seat twice: {shown(list(found))}")
    return found


def items_input(name: str, value: object, count: int, minimum: int | None, maximum: int | None) -> tuple[int, ...]:
    """A fixed-length list of ints (``blinds``: [small, big])."""
    if (type(value) is tuple or type(value) is list) and len(value) == count:
        low = -MAX_CHIPS if minimum is None else max(minimum, -MAX_CHIPS)
        high = MAX_CHIPS if maximum is None else min(maximum, MAX_CHIPS)
        for v in value:  # _plain_int written out: a table's blinds are read for every hand
            if type(v) is not int or not low <= v <= high:
                break
        else:
            return tuple(value)
    if isinstance(value, str | bytes) or not isinstance(value, Sequence) or len(value) != count:
        raise InvalidTable(f"table input {name} is a list of {count} whole numbers, not {shown(value)}")
    return tuple(_whole(f"table input {name}", v, minimum, maximum, or_null=False) for v in value)


def per_seat_input(name: str, value: object, seats: int, check: Callable[[str, object], T]) -> tuple[T, ...]:
    """One value per seat, in seat order (a single value stands for every seat)."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        return (check(name, value),) * seats
    if len(value) != seats:
        raise InvalidTable(f"table input {name} gives {len(value)} values for {seats} seats")
    return tuple(check(name, v) for v in value)
