"""The reference back end: what a structure's table takes and posts, as Markdown
(``docs/reference/<spec>.md``), for the readers of the rules and the developers building tables.

Each page is the spec's declarations written out: the table inputs (type, default or example,
meaning, rule), the options, the seats that matter, the forced bets in posting order, the checks a
table must pass, and the rules they cite with their sources. Nothing here is typed twice: the page
is regenerated from the spec, and ``generate --check`` fails when it is stale.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from betspec.backends.base import header_lines, register
from betspec.model import ForcedBet, Input, Option, Spec


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell: one line, pipes and backticks escaped."""
    return " ".join(text.replace("\\", "\\\\").replace("|", "\\|").split())


def _code(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return "`" + text.replace("`", "'").replace("|", "\\|") + "`"


def _input_type(item: Input) -> str:
    if item.items:
        return f"[{', '.join(item.items)}] ({item.type}s)"
    if item.per_seat:
        return f"{item.type}, one per seat"
    if item.choices:
        return " \\| ".join(item.choices)
    return item.type


def _input_value(item: Input) -> str:
    if item.required:
        return "required" + (f", e.g. {_code(item.example)}" if item.example is not None else "")
    return _code(item.default)


def _bounds(entry: Input | Option) -> str:
    parts = []
    if entry.minimum is not None:
        parts.append(f"≥ {entry.minimum}")
    if entry.maximum is not None:
        parts.append(f"≤ {entry.maximum}")
    return f" ({', '.join(parts)})" if parts else ""


def _option_type(option: Option) -> str:
    return " \\| ".join(option.choices) if option.choices else option.type


def _posted_by(bet: ForcedBet) -> str:
    if bet.seats == "all":
        return "every seat, from the button's left"
    if bet.seats is not None:
        return f"each seat in `{bet.seats}`"
    assert bet.seat is not None
    return f"`{_cell(bet.seat.text)}`"


def _how(bet: ForcedBet) -> str:
    words = [bet.kind + (" (live)" if bet.live else " (dead)")]
    if bet.order == "starts_after":
        words.append("the round starts after it")
    elif bet.order == "last":
        words.append("acts last, from any seat")
    if bet.in_full:
        words.append("in full or not at all")
    return ", ".join(words)


def render(spec: Spec, root: str) -> str:
    lines = [f"<!-- {line} -->" for line in header_lines(spec, root)]
    lines += ["", f"# {_cell(spec.title)} (`{spec.name}`)", ""]
    if spec.description:
        lines += [" ".join(spec.description.split()), ""]
    cited: list[str] = []

    def rule(rule_id: str) -> str:
        if rule_id not in cited:
            cited.append(rule_id)
        return f"[{rule_id}](#rule-{rule_id.lower()})"

    lines += [
        "## Table inputs",
        "",
        "Every table gives `stacks` (each seat's chips, clockwise) and `button` (its seat). The others:",
        "",
        "| input | type | default | meaning | rule |",
        "|---|---|---|---|---|",
    ]
    for item in spec.inputs.values():
        lines.append(
            f"| `{item.name}` | {_input_type(item)}{_bounds(item)} | {_input_value(item)} | "
            f"{_cell(item.meaning)} | {rule(item.rule)} |"
        )
    if spec.options:
        lines += ["", "## Options", "", "House rules, given as keywords when an engine is built.", ""]
        lines += ["| option | type | default | meaning | rule |", "|---|---|---|---|---|"]
        for option in sorted(spec.options.values(), key=lambda o: o.name):
            lines.append(
                f"| `{option.name}` | {_option_type(option)}{_bounds(option)} | {_code(option.default)} | "
                f"{_cell(option.meaning)} | {rule(option.rule)} |"
            )
    if spec.roles:
        lines += ["", "## Seats that matter", "", "| seat | is | meaning | rule |", "|---|---|---|---|"]
        for role in spec.roles.values():
            lines.append(f"| `{role.name}` | `{_cell(role.expr.text)}` | {_cell(role.meaning)} | {rule(role.rule)} |")
    if spec.forced_bets:
        lines += [
            "",
            "## Forced bets",
            "",
            "Posted in this order before the first action; a seat short of one posts all it has, unless",
            "it is posted in full. Live chips count toward the poster's call; dead ones toward nothing.",
            "",
            "| forced bet | posted by | amount | when | how | rule |",
            "|---|---|---|---|---|---|",
        ]
        for bet in spec.forced_bets:
            when = f"`{_cell(bet.when.text)}`" if bet.when is not None else "always"
            lines.append(
                f"| {bet.name.replace('_', ' ')} | {_posted_by(bet)} | `{_cell(bet.amount.text)}` | {when} | "
                f"{_how(bet)} | {rule(bet.rule)} |"
            )
    if spec.checks:
        lines += ["", "## Checks", "", "A table that fails one is refused, with this message.", ""]
        lines += ["| must hold | else | rule |", "|---|---|---|"]
        for check in spec.checks:
            lines.append(f"| `{_cell(check.expr.text)}` | {_cell(check.message)} | {rule(check.rule)} |")
    lines += ["", "## Rules cited", ""]
    for rule_id in cited:
        entry = spec.rules[rule_id]
        lines += [
            f'<a id="rule-{rule_id.lower()}"></a>**{rule_id}**: {" ".join(entry.text.split())}',
            f"*Source: {' '.join(entry.source.split())}*",
            "",
        ]
    return "\n".join(lines).rstrip("\n") + "\n"


class ReferenceBackend:
    name = "reference"
    owns: tuple[tuple[str, tuple[str, ...]], ...] = (("docs/reference", (".md",)),)

    def render(self, specs: Sequence[Spec], root: str) -> dict[str, str]:
        return {f"docs/reference/{spec.name}.md": render(spec, root) for spec in specs if not spec.abstract}


BACKEND = register(ReferenceBackend())
