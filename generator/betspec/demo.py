"""A sample hand, printed: what `betspec demo` shows after setup."""

from __future__ import annotations

from collections.abc import Callable

from betspec.runtime import Engine, IllegalAction, Table, engine_class

# The house rules' no-limit rule 3 example, played from the blinds: A bets, B raises, C is all-in
# short, A calls, and B may not re-raise.
SCRIPT: list[tuple[str, object, object]] = [
    ("call", 0, None),
    ("call", 1, None),
    ("check", 2, None),
    ("deal", "flop", None),
    ("bet", 1, 100),
    ("raise", 2, 200),
    ("all_in", 0, None),
    ("call", 1, None),
    ("raise", 2, 400),
    ("call", 2, None),
    ("deal", "turn", None),
]


def _state(engine: Engine) -> str:
    if engine.to_act is None:
        return f"{engine.street_name}: nobody to act, pot {engine.pot}, stacks {list(engine.stacks)}"
    bounds = f", to {engine.min_to}..{engine.max_to}" if engine.min_to is not None else ""
    return (
        f"{engine.street_name}: seat {engine.to_act} to act, may {'/'.join(engine.legal_actions())}"
        f" (call {engine.call_amount}{bounds}); pot {engine.pot}"
    )


def play(out: Callable[[str], None]) -> int:
    try:
        cls = engine_class("no_limit")
    except LookupError as exc:
        out(f"demo: {exc}")
        return 1
    engine = cls(Table([300, 1000, 1000], button=0, blinds=(25, 50)))
    out("No-limit hold'em, blinds 25/50, stacks 300/1000/1000, button seat 0")
    out("  " + _state(engine))
    for action, who, amount in SCRIPT:
        text = f"deal {who}" if action == "deal" else f"seat {who} {action}" + (f" {amount}" if amount else "")
        try:
            if action == "deal":
                engine.deal(str(who))
            else:
                engine.act(int(who), action, amount)  # type: ignore[arg-type, call-overload]
        except IllegalAction as exc:
            out(f"> {text}: REJECTED [{exc.code}] {exc.message.split('. Rule')[0]}")
            out(f"    rule {exc.rule}: {exc.source}")
            continue
        out(f"> {text}")
        out("  " + _state(engine))
    for pot in engine.pots():
        out(f"  pot {pot.amount}, eligible seats {list(pot.eligible)}")
    return 0
