"""Running conformance cases (the format of ``docs/cases.md``) through the generated engines."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from betspec.diagnostics import Diagnostic, DiagnosticCode, did_you_mean
from betspec.frontend import jsonpos, schema
from betspec.runtime import Engine, IllegalAction, InvalidTable, Start, Table, engine_class
from betspec.runtime.engine import Ruling

MAX_CASE_BYTES = 4 * 1024 * 1024


@dataclass
class Outcome:
    """What running one case file gave: PASS, FAIL (with the first difference) or INVALID."""

    path: str
    case_id: str
    status: str
    detail: str = ""
    steps: int = 0

    def line(self) -> str:
        detail = f": {self.detail}" if self.detail else ""
        return f"{self.status} {self.case_id} ({self.path}){detail}"


def snapshot(engine: Engine) -> tuple[Any, ...]:
    """Every slot of an engine, lists copied: equal snapshots mean identical states."""
    values = []
    for cls in type(engine).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if slot == "view":
                continue  # a cache of answers, recomputed on demand
            value = getattr(engine, slot, None)
            values.append((slot, tuple(value) if isinstance(value, list) else value))
    return tuple(values)


def observe(engine: Engine, key: str) -> Any:
    """The engine's answer for one expectation key of the case format."""
    if key == "to_act":
        return engine.to_act
    if key == "legal":
        return sorted(engine.legal_actions())
    if key == "call":
        return engine.call_amount
    if key == "min_to":
        return engine.min_to
    if key == "max_to":
        return engine.max_to
    if key == "street":
        return engine.street_name
    if key == "pot":
        return engine.pot
    if key == "stacks":
        return list(engine.stacks)
    if key == "committed":
        return list(engine.committed)
    if key == "round_over":
        return engine.round_over
    if key == "hand_over":
        return engine.hand_over
    if key == "pots":
        return [{"amount": p.amount, "eligible": list(p.eligible)} for p in engine.pots()]
    if key == "paid":
        return engine.paid
    if key == "rake":
        return engine.rake
    if key == "jackpot_drop":
        return engine.jackpot_drop
    if key == "payments":
        return [{"name": p.name, "payer": p.payer, "payee": p.payee, "amount": p.amount} for p in engine.payments]
    if key == "variables":
        return engine.variables
    if key == "next_table":
        try:
            return engine.next_table().to_json()
        except InvalidTable as exc:  # not paid yet, or the session is over: a mismatch, said
            return f"refused: {exc}"
    raise KeyError(key)


def _expected(key: str, value: Any) -> Any:
    if key == "legal":
        return sorted(value)
    if key == "pots":
        return [{"amount": p["amount"], "eligible": sorted(p["eligible"])} for p in value]
    return value


def load_case(path: str) -> tuple[dict[str, Any] | None, list[Diagnostic]]:
    doc, diagnostics = jsonpos.load(path, "a case")
    if doc is None:
        return None, diagnostics
    if not isinstance(doc.value, dict):
        return None, [Diagnostic(doc.at(""), "", DiagnosticCode.SCHEMA, "a case is a JSON object")]
    diagnostics += schema.check(doc, schema.CASE_SCHEMA)
    if diagnostics:
        return None, diagnostics
    return doc.value, []


EngineFor = Callable[[str], "type[Engine] | None"]


def build(case: dict[str, Any], engine_for: EngineFor | None = None) -> Engine:
    """The engine a case starts from (``engine_for`` may supply another class for a structure)."""
    cls = (engine_for and engine_for(case["structure"])) or engine_class(case["structure"])
    options = case.get("options", {})
    defaults = getattr(cls, "OPTION_DEFAULTS", {})
    for name in options:
        if name not in defaults:
            hint = did_you_mean(name, defaults)
            raise InvalidTable(f"option {name!r} is not declared by {case['structure']}{hint}")
    table = Table.from_json(case["table"])
    start = Start.from_json(case["start"]) if "start" in case else None
    return cls(table, start=start, **options)


STEP_KINDS = ("act", "deal", "chips", "say", "out_of_turn", "timeout", "settle")


def apply_step(engine: Engine, step: dict[str, Any]) -> Ruling | None:
    """Take one step; a push or a declaration returns how it was ruled."""
    if "deal" in step:
        engine.deal(step["deal"], **step.get("with", {}))
    elif "act" in step:
        engine.act(step["seat"], step["act"], step.get("to"))
    elif "chips" in step:
        return engine.push(step["seat"], step["chips"], step.get("say"))
    elif "say" in step:
        return engine.declare(step["seat"], step["say"])
    elif "out_of_turn" in step:
        declared = step["out_of_turn"]
        engine.declare_out_of_turn(step["seat"], declared["act"], declared.get("to"))
    elif "timeout" in step:
        engine.timeout(step["seat"])
    elif "settle" in step:
        settle = step["settle"]
        shown, made = settle.get("shown"), settle.get("made")
        engine.settle(
            settle.get("ranking"),
            runs=settle.get("runs"),
            odd_chip_seat=settle.get("odd_chip_seat"),
            shown=None if shown is None else {int(seat): cards for seat, cards in shown.items()},
            made=None if made is None else {int(seat): hand for seat, hand in made.items()},
        )
    return None


def _ruling_difference(ruling: Ruling | None, expected: dict[str, Any]) -> str:
    if ruling is None:
        return "no ruling was made"
    got = {
        "act": ruling.action,
        "to": ruling.to,
        "rule": ruling.rule,
        "returned": ruling.returned,
        "completed": ruling.completed,
    }
    for key, value in expected.items():
        if got[key] != value:
            return f"ruled {key} {got[key]!r} ({ruling.action} by rule {ruling.rule}), expected {value!r}"
    return ""


def run_case(path: str, engine_for: EngineFor | None = None) -> Outcome:
    case, diagnostics = load_case(path)
    if case is None:
        return Outcome(path, path, "INVALID", "; ".join(str(d) for d in diagnostics[:5]))
    case_id = case["id"]
    refused = case.get("refused")
    try:
        engine = build(case, engine_for)
    except InvalidTable as exc:
        if refused is None:
            return Outcome(path, case_id, "INVALID", str(exc))
        if refused.get("rule", exc.rule) != exc.rule:
            return Outcome(
                path,
                case_id,
                "FAIL",
                f"the table is refused by rule {exc.rule or 'none'}, expected {refused['rule']}: {exc}",
            )
        return Outcome(path, case_id, "PASS")
    except LookupError as exc:
        return Outcome(path, case_id, "INVALID", str(exc))
    if refused is not None:
        return Outcome(path, case_id, "FAIL", "the table was accepted, expected it to be refused")
    chips = engine.total_chips()
    for number, step in enumerate(case["steps"]):
        where = f"step {number}"
        if any(kind in step for kind in STEP_KINDS):
            before = snapshot(engine)
            try:
                ruling = apply_step(engine, step)
            except IllegalAction as exc:
                if "error" not in step:
                    return Outcome(path, case_id, "FAIL", f"{where}: rejected: {exc.message}", number)
                if exc.code != step["error"]:
                    return Outcome(
                        path, case_id, "FAIL", f"{where}: error {exc.code!r}, expected {step['error']!r}", number
                    )
                if snapshot(engine) != before:
                    return Outcome(path, case_id, "FAIL", f"{where}: the rejected action changed the state", number)
            else:
                if "error" in step:
                    return Outcome(
                        path, case_id, "FAIL", f"{where}: accepted, expected error {step['error']!r}", number
                    )
                difference = _ruling_difference(ruling, step["as"]) if "as" in step else ""
                if difference:
                    return Outcome(path, case_id, "FAIL", f"{where}: {difference}", number)
        if engine.total_chips() != chips or min(engine.stacks) < 0:
            return Outcome(path, case_id, "FAIL", f"{where}: chips not conserved", number)
        for key, value in step.get("expect", {}).items():
            got, want = observe(engine, key), _expected(key, value)
            if key == "variables" and isinstance(got, dict) and isinstance(want, dict):
                # The variables a case names: a spec that extends the structure may add its own.
                got = {name: got.get(name, "(no such variable)") for name in want}
            if got != want:
                return Outcome(path, case_id, "FAIL", f"{where}: {key} is {got!r}, expected {want!r}", number)
    return Outcome(path, case_id, "PASS", "", len(case["steps"]))
