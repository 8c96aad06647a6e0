"""Coverage of the state machines: which transitions and guard outcomes the cases exercise.

:func:`recording_class` derives, from a generated engine class, one that takes the same
transitions through the same tables and counts, per transition, how often it fired and which
outcomes its guard gave. :func:`measure` runs conformance cases with it. :func:`explore` derives
the missing paths the way model-based testing tools do from a statechart: it plays seeded random
hands (varied tables, blinds, antes, start streets, options) with the recording engine, and keeps
each hand that reaches a transition or guard outcome nothing before it reached, as a new
conformance case that ends with the state it reached.
"""

from __future__ import annotations

import importlib
import json
import os
import random
from collections.abc import Iterable
from typing import Any

from betspec.conformance.recording import Coverage, recording_class_of
from betspec.conformance.runner import run_case
from betspec.runtime import Engine, IllegalAction, InvalidTable, Start, Table
from betspec.tools.draw import draw_options, draw_table
from betspec.vocabulary import WAGERS


def _module(spec: str) -> Any:
    return importlib.import_module(f"betspec.engines.{spec}")


def recording_class(spec: str, coverage: Coverage) -> type[Engine]:
    """The spec's default engine, counting transitions and guard outcomes into ``coverage``."""
    return recording_class_of(_module(spec), coverage)


def new_coverage(spec: str) -> Coverage:
    return Coverage(spec, tuple(_module(spec).TRANSITIONS))


def measure(case_paths: Iterable[str], specs: Iterable[str]) -> tuple[dict[str, Coverage], list[str]]:
    """Run the cases with recording engines; returns coverage per spec and the failing cases."""
    coverages = {spec: new_coverage(spec) for spec in specs}
    classes = {spec: recording_class(spec, coverage) for spec, coverage in coverages.items()}
    failures = []
    for path in case_paths:
        outcome = run_case(path, engine_for=classes.get)
        if outcome.status != "PASS":
            failures.append(outcome.line())
    return coverages, failures


# ---- exploration: cases for what the existing ones miss -------------------------------------


def _random_setup(cls: type[Engine], rng: random.Random) -> tuple[dict[str, Any], Start | None, dict[str, Any]]:
    """A table (as a case writes it), a start and options, drawn from what the spec declares."""
    sizes = (
        lambda: rng.randint(1, 3),
        lambda: rng.randint(1, 30),
        lambda: rng.randint(20, 400),
        lambda: rng.randint(200, 2000),
    )
    table = draw_table(cls, rng, rng.randint(2, 6), lambda: rng.choice(sizes)(), variety=0.2)
    start = None
    if rng.random() < 0.25:
        start = Start(rng.choice(cls.STREETS), rng.choice([0, 30, 200]))
    return table.to_json(), start, draw_options(cls, rng)


def _play(engine: Engine, rng: random.Random, steps: list[dict[str, Any]]) -> None:
    for _ in range(300):
        if engine.hand_over:
            if rng.random() < 0.5 and engine.street_name == "showdown":
                street = engine.next_street or engine.STREETS[-1]
                if rng.random() < 0.3:  # a deal in the runout, sometimes of the wrong street
                    street = rng.choice(engine.STREETS[1:] or engine.STREETS)
                try:
                    engine.deal(street)
                    steps.append({"deal": street})
                except IllegalAction as error:
                    steps.append({"deal": street, "error": error.code})
                continue
            return
        if engine.to_act is None:
            dealt = engine.next_street
            assert dealt is not None
            engine.deal(dealt)
            steps.append({"deal": dealt})
            continue
        seat = engine.to_act
        if rng.random() < 0.03:
            engine.timeout(seat)
            steps.append({"seat": seat, "timeout": True})
            continue
        action = rng.choice(engine.legal_actions())
        step: dict[str, Any] = {"seat": seat, "act": action}
        if action in WAGERS:
            low, high = engine.min_to, engine.max_to
            assert low is not None and high is not None
            step["to"] = rng.choice([low, high])
        engine.act(seat, action, step.get("to"))
        steps.append(step)


def explore(spec: str, coverage: Coverage, hands: int, seed: int) -> list[dict[str, Any]]:
    """Cases, each reaching a transition or guard outcome not yet in ``coverage`` (updated)."""
    cls = recording_class(spec, coverage)
    rng = random.Random(f"{seed}-{spec}")
    cases: list[dict[str, Any]] = []
    for number in range(hands):
        if not coverage.missing() and not coverage.missing_outcomes():
            break
        table, start, options = _random_setup(cls, rng)
        trial = Coverage(spec, coverage.transitions)
        try:
            engine = recording_class(spec, trial)(
                Table.from_json(table),
                start=start,
                **options,
            )
        except InvalidTable:
            continue
        steps: list[dict[str, Any]] = []
        _play(engine, rng, steps)
        new = [i for i in trial.fired if not coverage.fired[i]]
        new_outcomes = trial.outcomes - coverage.outcomes
        if not new and not new_outcomes:
            continue
        coverage.fired.update(trial.fired)
        coverage.outcomes |= trial.outcomes
        reached = "; ".join(coverage.describe(i) for i in sorted(new)) or "guard outcomes " + ", ".join(
            f"{coverage.describe(i)} = {o}" for i, o in sorted(new_outcomes)
        )
        first, outcome = (min(new), None) if new else min(new_outcomes)
        case: dict[str, Any] = {
            "id": coverage.case_id(first, outcome),
            "source": f"betspec coverage: a path generated to reach {reached} (seed {seed}, hand {number})",
            "structure": spec,
            "options": options,
            "table": table,
        }
        if start is not None:
            case["start"] = {"street": start.street, "pot": start.pot}
        final = {
            "to_act": engine.to_act,
            "street": engine.street_name,
            "pot": engine.pot,
            "stacks": list(engine.stacks),
            "hand_over": engine.hand_over,
        }
        case["steps"] = [*steps, {"expect": final}]
        cases.append(case)
    return cases


def write_cases(folder: str, cases: list[dict[str, Any]]) -> list[str]:
    os.makedirs(folder, exist_ok=True)
    written = []
    for case in cases:
        path = os.path.join(folder, f"{case['id']}.json")
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(case, handle, indent=1)
            handle.write("\n")
        written.append(path)
    return written
