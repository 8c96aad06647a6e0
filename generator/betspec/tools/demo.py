"""A sample hand, printed: what `betspec demo` shows after setup.

The hand is a conformance case shipped with the package (``demo.json``): the rulebook example it
plays and the structure it plays it under are data, and the conformance run checks the case, so
the demo cannot drift from the rules it shows.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from importlib.resources import files
from typing import Any

from betspec.runtime import Engine, IllegalAction, Table, engine_class

DEMO = "demo.json"


def _state(engine: Engine) -> str:
    if engine.to_act is None:
        return f"{engine.street_name}: nobody to act, pot {engine.pot}, stacks {list(engine.stacks)}"
    bounds = f", to {engine.min_to}..{engine.max_to}" if engine.min_to is not None else ""
    return (
        f"{engine.street_name}: seat {engine.to_act} to act, may {'/'.join(engine.legal_actions())}"
        f" (call {engine.call_amount}{bounds}); pot {engine.pot}"
    )


def _step(engine: Engine, step: Mapping[str, Any]) -> str:
    """Take one case step; the line saying what was done."""
    if "deal" in step:
        engine.deal(step["deal"])
        return f"deal {step['deal']}"
    if "settle" in step:
        ranking = step["settle"]["ranking"]
        paid = engine.settle(ranking)
        who = ", ".join(f"seat {seat} {amount}" for seat, amount in enumerate(paid.won) if amount)
        return f"showdown, best first {ranking}: paid {who}"
    to = step.get("to")
    engine.act(step["seat"], step["act"], to)
    return f"seat {step['seat']} {step['act']}" + (f" {to}" if to is not None else "")


def play(out: Callable[[str], None], book: str | None = None) -> int:
    """Play the demo hand, printing each step, and say what to try next (``book``: the reference
    book's first page, where it is written)."""
    case = json.loads(files("betspec").joinpath(DEMO).read_text(encoding="utf-8"))
    try:
        cls = engine_class(case["structure"])
    except LookupError as exc:
        out(f"demo: {exc}")
        return 1
    table = Table.from_json(case["table"])
    engine = cls(table, **case["options"])
    given = ", ".join(
        f"{name} {'/'.join(map(str, v)) if isinstance(v, list) else v}" for name, v in table.inputs.items()
    )
    out(f"{case['structure']}: {given}, stacks {'/'.join(map(str, table.stacks))}, button seat {table.button}")
    out(f"  ({case['source']})")
    out("  " + _state(engine))
    for step in case["steps"]:
        described = (
            f"deal {step['deal']}"
            if "deal" in step
            else "settle"
            if "settle" in step
            else f"seat {step['seat']} {step['act']}"
        )
        try:
            described = _step(engine, step)
        except IllegalAction as exc:
            out(
                f"> {described} {step.get('to', '')}".rstrip()
                + f": REJECTED [{exc.code}] {exc.message.split('. Rule')[0]}"
            )
            out(f"    rule {exc.rule}: {exc.source}")
            continue
        out(f"> {described}")
        if not engine.paid:
            out("  " + _state(engine))
    out(f"  stacks after the hand: {list(engine.stacks)}")
    out("")
    out(f"Next: `betspec play {case['structure']}` deals you a hand (cards, bots with --bots 1,2); `betspec init club`")
    out("makes a house, a folder for rules of your own (README, 'Getting started'; docs/tutorial.md).")
    if book is not None:
        out(f"The reference book, every rule and worked example of every structure: {book}")
    return 0
