"""Engines that count what they take: a generated engine class made to record, per transition,
how often it fired and which outcomes its guard gave (the coverage tool and the book's worked
examples both play cases through one)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from betspec.runtime import Engine

Transition = tuple[str, str, str, "str | None", str]


@dataclass
class Coverage:
    spec: str
    transitions: tuple[Transition, ...]
    fired: Counter[int] = field(default_factory=Counter)
    outcomes: set[tuple[int, bool]] = field(default_factory=set)

    @property
    def guarded(self) -> list[int]:
        return [i for i, t in enumerate(self.transitions) if t[3] is not None]

    def missing(self) -> list[int]:
        return [i for i in range(len(self.transitions)) if not self.fired[i]]

    def missing_outcomes(self) -> list[tuple[int, bool]]:
        return [(i, o) for i in self.guarded for o in (True, False) if (i, o) not in self.outcomes]

    def describe(self, index: int) -> str:
        event, source, dest, guard, rule = self.transitions[index]
        return f"{event}: {source} -> {dest}" + (f" [{guard}]" if guard else "") + f" ({rule})"

    def case_id(self, index: int, outcome: bool | None) -> str:
        """A stable case id for a path reaching transition ``index`` (or one of its guard's
        outcomes): named for what it reaches, so regenerating never renames another case."""
        event, source, dest, _guard, rule = self.transitions[index]
        words = [self.spec, event, source, "to", dest, rule]
        if outcome is not None and not outcome:
            words.append("guard-false")
        return "path-" + "-".join(w.replace("_", "-").lower() for w in words)

    def summary(self) -> str:
        total, reached = len(self.transitions), len(self.transitions) - len(self.missing())
        outcomes = 2 * len(self.guarded)
        seen = outcomes - len(self.missing_outcomes())
        return (
            f"{self.spec}: transitions {reached}/{total} ({100 * reached / total:.0f}%), "
            f"guard outcomes {seen}/{outcomes} ({100 * seen / max(outcomes, 1):.0f}%)"
        )


def recording_class_of(module: Any, coverage: Coverage) -> type[Engine]:
    """The default engine of a generated ``module``, counting into ``coverage``."""
    fast = module.ENGINE
    fired, outcomes = coverage.fired, coverage.outcomes
    # A table entry is the n-th transition of its event from its source, in the spec's order.
    index_of: dict[tuple[int, Any, int], int] = {}
    seen: Counter[tuple[str, str]] = Counter()
    for index, (event, source, *_) in enumerate(module.TRANSITIONS):
        table = getattr(module, f"FAST_{event.upper()}")
        index_of[(id(table), module.State(source), seen[(event, source)])] = index
        seen[(event, source)] += 1

    def _fire(self: Engine, event: object, table: dict[Any, Any], *args: int) -> bool:
        for position, (check, apply, dest) in enumerate(table.get(self._state, ())):
            index = index_of[(id(table), self._state, position)]
            holds = check is None or check(self, *args)
            if check is not None:
                outcomes.add((index, bool(holds)))
            if holds:
                if apply is not None:
                    apply(self, *args)
                self._state = dest
                fired[index] += 1
                return True
        return False

    def through_fire(table: dict[Any, Any]) -> Callable[..., None]:
        def take(self: Engine, *args: int) -> None:
            _fire(self, None, table, *args)

        return take

    # The compiled path takes an action's transition directly (``_take_<event>``) and writes the
    # automatic ones out in ``_settle``: both go back through the tables here, to be recorded.
    namespace: dict[str, object] = {"__slots__": (), "_fire": _fire, "_settle": Engine._settle}
    for event in {event for event, *_ in module.TRANSITIONS}:
        if hasattr(fast, f"_take_{event}"):
            namespace[f"_take_{event}"] = through_fire(getattr(module, f"FAST_{event.upper()}"))
    # It also writes out the start events' transitions (``_begin``): a hand begins here as the
    # machine's class begins it, through _fire and the tables.
    if "_begin" in vars(fast):
        namespace["_begin"] = next(vars(base)["_begin"] for base in fast.__mro__[1:] if "_begin" in vars(base))
    return type(f"Recording{fast.__name__}", (fast,), namespace)
