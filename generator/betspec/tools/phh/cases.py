"""A hand the engine accepts as a conformance case."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from betspec.tools.phh.model import Bad, Hand, Irregular, PhhError
from betspec.tools.phh.replaying import ACCEPTED, IRREGULAR, replay
from betspec.tools.phh.table import table_inputs

if TYPE_CHECKING:
    from betspec.runtime import Engine


_NON_SLUG = re.compile(r"[^a-z0-9]+")


def case_id(hand: Hand) -> str:
    """A case id (lowercase words joined by hyphens) from the file's name and the hand's key."""
    stem = os.path.splitext(os.path.basename(hand.path))[0]
    slug = _NON_SLUG.sub("-", f"{stem}-{hand.key}".lower()).strip("-")
    return slug[:200].strip("-") or "phh-hand"


def to_case(hand: Hand | Bad, cls: type[Engine], options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The conformance case of a hand the engine accepts; raises :class:`PhhError` with the reason otherwise."""
    result = replay(hand, cls, options)
    if result.status != ACCEPTED or result.engine is None or not isinstance(hand, Hand):
        raise Irregular(result.line()) if result.status == IRREGULAR else PhhError(result.line())
    engine = result.engine
    origin = f"{hand.header} " if hand.header else ""
    number = f" (hand {hand.number})" if hand.number else ""
    unit = "" if hand.scale == 1 else f"; amounts in chips of 1/{hand.scale} of the file's unit"
    source = f"{origin}PHH {os.path.basename(hand.path)}{f' [{hand.key}]' if hand.key else ''}{number}{unit}"
    steps = [dict(step) for step in result.steps] or [{}]
    steps[-1]["expect"] = {"hand_over": engine.hand_over, "pot": engine.pot, "stacks": list(engine.stacks)}
    return {
        "id": case_id(hand),
        "source": source[:2000],
        "structure": cls.SPEC_NAME,
        "options": dict(options or {}),
        "table": table_inputs(hand),
        "steps": steps,
    }
