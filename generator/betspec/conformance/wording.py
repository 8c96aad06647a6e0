"""A case's steps and values in words (``raise to 200``, ``deal the flop``): for reports, the
book and ``phh check``'s refusals, which word a step without loading the spec's front end."""

from __future__ import annotations

import json
from typing import Any


def as_text(value: Any) -> str:
    """A value of a case in words: lists joined, pots with their seats, none, true."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, list) and value and all(isinstance(v, dict) and "amount" in v for v in value):
        return "; ".join(f"{v['amount']} for seats {', '.join(map(str, v.get('eligible', [])))}" for v in value)
    if isinstance(value, list):
        return ", ".join(as_text(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {as_text(v)}" for k, v in value.items())
    return str(value)


def _said(said: Any) -> str:
    if isinstance(said, dict):
        return f"{said.get('act', '')} to {said['to']}" if "to" in said else str(said.get("act", ""))
    return str(said)


def describe(step: dict[str, Any]) -> str:
    """A step of a case in words: ``raise to 200``, ``deal the flop``, ``pushes 300, says raise``."""
    if "deal" in step:
        given = step.get("with", {})
        return f"deal the {step['deal']}" + (f" ({as_text(given)})" if given else "")
    if "act" in step:
        return str(step["act"]).replace("_", " ") + (f" to {step['to']}" if step.get("to") is not None else "")
    if "chips" in step:
        return f"pushes {step['chips']}" + (f", says {_said(step['say'])}" if "say" in step else "")
    if "say" in step:
        return f"says {_said(step['say'])}"
    if "out_of_turn" in step:
        return f"out of turn, declares {_said(step['out_of_turn'])}"
    if "timeout" in step:
        return "lets the clock run out"
    if "settle" in step:
        settle = step["settle"]
        if "runs" in settle:
            return "the pots are paid, run by run (" + "; ".join(as_text(run) for run in settle["runs"]) + ")"
        ranking = settle.get("ranking")
        return "the pots are paid" + (f" (best first: {as_text(ranking)})" if ranking else "")
    return "(looks at the table)"
