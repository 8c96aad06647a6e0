"""Conformance cases as worked examples: each case played, step by step, and the rules it shows.

The reference book renders a spec's hand-written cases as worked examples, and lists under each
rule the cases that show it. Which rules a case shows is not typed by hand: the case is played
through the spec's engine (generated in memory, so the book never reads a stale engine) and each
rule is credited where it decided something the case asserts:

- **decided**: the rule of a refusal the case expects, of a ruling on chips pushed or words said,
  of the quantity behind an expected minimum or maximum, of a table input or option the case sets;
- **played**: the rule of every transition the case's steps took (a fold, the end of a round).

Cases found by machine (``paths/``, ``diff/``) and the real hands are left out: they are tests,
not examples a reader learns from, and the book says how many there are.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from betspec.backends.book_model import WorkedExample, WorkedStep
from betspec.conformance.recording import Coverage, recording_class_of
from betspec.conformance.runner import STEP_KINDS, apply_step, build
from betspec.conformance.wording import as_text, describe
from betspec.model import Spec
from betspec.runtime import BetspecError, Engine, IllegalAction, InvalidTable, Ruling
from betspec.vocabulary import WAGERS

#: Where a project keeps its conformance cases, relative to its root.
CASES_DIR = "tests/conformance"
#: The folders of cases that are not worked examples (machine-found paths and differences, real hands).
NOT_EXAMPLES = ("paths", "diff", "real-hands")


@dataclass
class _Credits:
    decided: Counter[str] = field(default_factory=Counter)
    played: Counter[str] = field(default_factory=Counter)


def _outcome(refused: IllegalAction | None, ruling: Ruling | None) -> tuple[str, str]:
    if refused is not None:
        return f"refused: {refused.code}", refused.rule
    if ruling is None:
        return "", ""
    words = f"ruled {'a ' if ruling.action in ('fold', 'check', 'call', 'bet', 'raise') else ''}{ruling.action}"
    if ruling.to is not None:
        words += f" to {ruling.to}"
    if ruling.returned:
        words += f", {ruling.returned} returned"
    if ruling.completed:
        words += f", {ruling.completed} to add"
    return words, ruling.rule


def _credit_setup(spec: Spec, case: dict[str, Any], credits: _Credits) -> None:
    for name in case.get("table", {}):
        if name in spec.inputs:
            credits.decided[spec.inputs[name].rule] += 1
    for name in case.get("options", {}):
        if name in spec.options:
            credits.decided[spec.options[name].rule] += 1


def _credit_bounds(spec: Spec, engine: Engine, expected: dict[str, Any], credits: _Credits) -> None:
    """The rules of the quantities behind an expected min_to or max_to."""
    legal = engine.legal_actions() if engine.to_act is not None else ()
    for bound in ("min_to", "max_to"):
        if expected.get(bound) is None:
            continue
        for wager in WAGERS:
            quantity = spec.quantities.get(f"{wager}_{bound}")
            if wager in legal and quantity is not None:
                credits.decided[quantity.rule] += 1


def _setup(case: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    rows = [(name, as_text(value)) for name, value in case.get("table", {}).items()]
    rows += [(f"option {name}", as_text(value)) for name, value in case.get("options", {}).items()]
    rows += [(f"start {name}", as_text(value)) for name, value in case.get("start", {}).items()]
    return tuple(rows)


def _ranked(counter: Counter[str]) -> tuple[str, ...]:
    return tuple(sorted(counter, key=lambda rule: (-counter[rule], rule)))


def case_files(root: str) -> tuple[list[str], int]:
    """The project's example cases (sorted paths) and how many other cases there are."""
    folder = os.path.join(root, *CASES_DIR.split("/"))
    found: list[str] = []
    others = 0
    for directory, subdirs, names in os.walk(folder):
        subdirs.sort()
        relative = os.path.relpath(directory, folder).replace(os.sep, "/")
        is_example = relative.split("/")[0] not in NOT_EXAMPLES
        for name in sorted(names):
            if name.endswith(".json"):
                if is_example:
                    found.append(os.path.join(directory, name))
                else:
                    others += 1
    return found, others


def play(spec: Spec, module: Any, path: str, root: str) -> WorkedExample | None:
    """The case at ``path`` played through ``module`` (the spec's engine); None when it is
    another structure's."""
    with open(path, encoding="utf-8") as handle:
        case = json.load(handle)
    if not isinstance(case, dict) or case.get("structure") != spec.name:
        return None
    relative = os.path.relpath(path, root).replace(os.sep, "/")
    credits = _Credits()
    coverage = Coverage(spec.name, tuple(module.TRANSITIONS))
    recording = recording_class_of(module, coverage)
    steps: list[WorkedStep] = []
    error = refused_table = refused_rule = ""
    try:
        engine = build(case, lambda _name: recording)
    except InvalidTable as exc:
        engine = None
        if "refused" in case:
            refused_table, refused_rule = exc.message, exc.rule
            if exc.rule:
                credits.decided[exc.rule] += 1
        else:
            error = str(exc)
    except (BetspecError, LookupError, TypeError, ValueError) as exc:
        engine, error = None, str(exc)
    if engine is not None:
        _credit_setup(spec, case, credits)
        for step in case.get("steps", []):
            fired = Counter(coverage.fired)
            refused: IllegalAction | None = None
            ruling: Ruling | None = None
            if any(kind in step for kind in STEP_KINDS):
                try:
                    ruling = apply_step(engine, step)
                except IllegalAction as exc:
                    refused = exc
                except (BetspecError, LookupError, TypeError, ValueError) as exc:
                    error = str(exc)
                    break
            if refused is not None and refused.rule and "error" in step:
                credits.decided[refused.rule] += 1
            if ruling is not None and ruling.rule:
                credits.decided[ruling.rule] += 1
            for index, times in (coverage.fired - fired).items():
                credits.played[coverage.transitions[index][4]] += times
            if "expect" in step:
                _credit_bounds(spec, engine, step["expect"], credits)
            outcome, rule = _outcome(refused, ruling)
            expected = tuple((key, as_text(value)) for key, value in step.get("expect", {}).items())
            seat = step.get("seat")
            steps.append(WorkedStep(seat if isinstance(seat, int) else None, describe(step), outcome, rule, expected))
    return WorkedExample(
        str(case.get("id", relative)),
        relative,
        str(case.get("source", "")),
        _setup(case),
        tuple(steps),
        _ranked(credits.decided),
        _ranked(credits.played - credits.decided),
        error,
        refused_table,
        refused_rule,
    )


def examples(spec: Spec, module: Any, root: str) -> list[WorkedExample]:
    """The spec's worked examples: the project's example cases of its structure, played."""
    paths, _others = case_files(root)
    return [example for path in paths if (example := play(spec, module, path, root)) is not None]
