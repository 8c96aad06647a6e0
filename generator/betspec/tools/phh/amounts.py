"""PHH amounts as written (TOML integers and floats), checked, and turned into chips once a file's scale is known."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from betspec.tools.phh.model import MAX_CHIPS, MAX_PLACES, PhhError, _brief

if TYPE_CHECKING:
    pass


def _chips(value: Decimal | int, what: str, scale: int) -> int:
    """An amount as written, in chips (times ``scale``); refused where a table cannot hold it."""
    scaled = value * scale  # exact: at most 10**15 with 6 places, times 10**6 at most
    if scaled > MAX_CHIPS:
        unit = "" if scale == 1 else f" in chips of 1/{scale}"
        raise PhhError(f"{what} is more chips{unit} than a table holds ({_brief(value)}; {MAX_CHIPS} at most)")
    return int(scaled)


def _scaled(values: Sequence[Decimal | int | None], scale: int) -> tuple[int, ...] | None:
    """Each amount in chips (times ``scale``, exact), or None where one is unknown or more chips
    than a table holds (each is then turned one by one, to say which)."""
    if None in values:
        return None
    chips = tuple([value * scale if type(value) is int else int(value * scale) for value in values])  # type: ignore[operator]
    return chips if not chips or max(chips) <= MAX_CHIPS else None


def _places(value: Decimal | int) -> int:
    """The decimal places ``value`` is written with (0 for an int): read from its text, which
    says it in positional notation, else from its exponent."""
    if type(value) is int:
        return 0
    text = str(value)
    if "E" in text and isinstance(value, Decimal):
        exponent = value.as_tuple().exponent
        return max(0, -exponent) if isinstance(exponent, int) else 0
    dot = text.find(".")
    return 0 if dot < 0 else len(text) - dot - 1


#: An amount of this many digits or more is more chips than a table holds (see :func:`_amount`).
_TOO_MANY_DIGITS = 10 ** len(str(MAX_CHIPS))


def _plain(value: object) -> bool:
    """Whether ``value`` is an amount :func:`_amount` takes as it is, without a word to say: an int
    or a finite Decimal, not negative, of fewer digits than :data:`_TOO_MANY_DIGITS` and at most
    :data:`MAX_PLACES` places (the common case, checked at once; any other goes to _amount)."""
    if type(value) is int:
        return bool(0 <= value < _TOO_MANY_DIGITS)
    if type(value) is Decimal:
        return (
            value.is_finite() and not value.is_signed() and value.adjusted() < _DIGITS and _places(value) <= MAX_PLACES
        )
    return False


_DIGITS = len(str(MAX_CHIPS))


def _amount(value: object, what: str, *, unknown: bool = False) -> Decimal | int | None:
    """A PHH amount (TOML integer or float) as a Decimal (an int as it is where it is plain, see
    :func:`_plain`); ``inf`` is None where PHH allows it.

    Checked before any arithmetic: no amount is bigger than a table holds or written with more
    than :data:`MAX_PLACES` decimals, so none overflows or turns into a huge int later."""
    if (type(value) is int or type(value) is Decimal) and _plain(value):
        return value
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise PhhError(f"{what} must be a number, not {_brief(value)}")
    amount = Decimal(value)
    if amount.is_nan():
        raise PhhError(f"{what} is not a number (nan)")
    if amount.is_infinite():
        if unknown and amount > 0:
            return None
        raise PhhError(f"{what} cannot be {_brief(value)}")
    if amount.is_signed() and amount:
        raise PhhError(f"{what} cannot be negative ({_brief(amount)})")
    if _places(amount) > MAX_PLACES:
        raise PhhError(f"{what} has more than {MAX_PLACES} decimal places ({_brief(amount)})")
    if amount and amount.adjusted() >= len(str(MAX_CHIPS)):  # adjusted(): the power of ten of its first digit
        raise PhhError(f"{what} is more chips than a table holds ({_brief(amount)}; {MAX_CHIPS} at most)")
    return amount


def _amounts(
    raw: Mapping[str, object], name: str, n: int, *, unknown: bool = False
) -> tuple[list[Decimal | int | None], int]:
    """The field's amounts, one a player, each checked (:func:`_amount`), and the most decimal
    places one is written with."""
    values = raw[name]
    if not isinstance(values, list) or len(values) != n:
        raise PhhError(f"{name} must list one amount per player ({n}), not {_brief(values)}")
    most = 0
    for value in values:  # the common case at once: plain amounts (_plain), taken as they are
        if type(value) is int:
            if not 0 <= value < _TOO_MANY_DIGITS:
                break
        elif type(value) is Decimal and value.is_finite() and not value.is_signed() and value.adjusted() < _DIGITS:
            places = _places(value)
            if places > MAX_PLACES:
                break
            most = max(most, places)
        else:
            break
    else:
        return values, most
    checked = [_amount(v, f"{name}[{i}]", unknown=unknown) for i, v in enumerate(values)]
    return checked, max((_places(v) for v in checked if v is not None), default=0)
