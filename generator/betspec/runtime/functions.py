"""The functions spec expressions may call besides ``min``, ``max`` and ``abs``."""

from __future__ import annotations


def ceil_to(value: int, unit: int) -> int:
    """``value`` rounded up to a multiple of ``unit`` (unchanged when ``unit`` is not positive)."""
    if unit <= 0:
        return value
    return -(-value // unit) * unit


def floor_to(value: int, unit: int) -> int:
    """``value`` rounded down to a multiple of ``unit`` (unchanged when ``unit`` is not positive)."""
    if unit <= 0:
        return value
    return value // unit * unit
