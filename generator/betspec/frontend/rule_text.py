"""Rule texts against what the spec does: a cited rule whose words contradict the spec's own
numbers, found where the words can be read for sure.

A spec that changes what a rule does must say so in the rule's text (an engine's refusal, the
book and ``play`` quote it), and an author who caps raises in a spec whose base says they are
unlimited easily forgets to. This reads three kinds of statement in English rule texts:

- raises said to be unlimited, cited by a requirement that refuses with ``cap_reached`` where
  the spec can reach the cap;
- a number of raises ("three raises", "three by default"), cited by an option about raises whose
  default is another number;
- a multiple of a blind or bet ("twice the big blind", "three times the big blind"), cited by a
  forced bet or quantity whose amount is written as a different multiple of the same thing.

A text these patterns do not read is taken as it is: the check reports contradictions, it does
not prove agreement.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from betspec.model import Event, ForcedBet, Option, Quantity, Rule

_NUMBERS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_NUMBER = r"(\d+|" + "|".join(_NUMBERS) + r")"
#: "the number of raises ... is unlimited", "unlimited raises", "raises are unlimited", "no cap on raises".
_UNLIMITED = re.compile(
    r"number of raises[^.;]*\bunlimited|unlimited (?:number of )?raises|raises are unlimited|no cap on (?:the )?raises",
    re.IGNORECASE,
)
#: "three raises", "a bet and three raises", "three by default" (a number of raises).
_RAISES = re.compile(rf"\b{_NUMBER} (?:raises|by default)\b", re.IGNORECASE)
#: "twice the big blind", "three times the big blind", "double the small bet".
_MULTIPLE = re.compile(
    rf"\b(twice|double|{_NUMBER} times) the (big blind|small blind|small bet|big bet|ante)\b", re.IGNORECASE
)
#: The names an amount is written over, for each thing a text multiplies.
_OVER = {
    "big blind": "big_blind",
    "small blind": "small_blind",
    "small bet": "small_bet",
    "big bet": "big_bet",
    "ante": "ante",
}
#: A multiple of something a text names before ("doubles it", "twice the straddle", "twice the one
#: before"): the text chains amounts, and its numbers are not the amount's alone.
_CHAINED = re.compile(
    rf"\b(?:doubles?\b|(?:twice|{_NUMBER} times) the (?!big blind|small blind|small bet|big bet|ante\b))", re.IGNORECASE
)


@dataclass(frozen=True)
class Contradiction:
    pointer: str
    message: str


def _number(word: str) -> int:
    return int(word) if word.isdigit() else _NUMBERS[word.lower()]


def _multiples(text: str) -> dict[str, set[int]]:
    """The multiples a text states, by what they multiply (its name in a spec)."""
    found: dict[str, set[int]] = {}
    for match in _MULTIPLE.finditer(text):
        how = match.group(1).lower()
        times = 2 if how in ("twice", "double") else _number(match.group(2))
        found.setdefault(_OVER[match.group(3).lower()], set()).add(times)
    return found


def _written_multiples(tree: ast.expr) -> dict[str, set[int]]:
    """Whole multiples ``K * name`` (or ``name * K``) in an amount, by name; a division makes the
    multiple no whole one, and it is left out."""
    found: dict[str, set[int]] = {}
    divided = {
        id(node.left) for node in ast.walk(tree) if isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv)
    }
    for node in ast.walk(tree):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)) or id(node) in divided:
            continue
        for number, name in ((node.left, node.right), (node.right, node.left)):
            if isinstance(number, ast.Constant) and type(number.value) is int and isinstance(name, ast.Name):
                found.setdefault(name.id, set()).add(number.value)
    return found


def _cap_reachable(event: Event, at: int, quantities: Mapping[str, Quantity]) -> bool:
    """Whether a requirement can refuse: it reads something other than quantities that never change."""
    names = event.requires[at].expr.names
    return not event.requires[at].expr.is_constant and not all(
        name in quantities and quantities[name].expr.is_constant for name in names
    )


def contradictions(
    rules: Mapping[str, Rule],
    options: Mapping[str, Option],
    quantities: Mapping[str, Quantity],
    events: Mapping[str, Event],
    forced_bets: tuple[ForcedBet, ...],
) -> Iterator[Contradiction]:
    for name, event in events.items():
        for index, requirement in enumerate(event.requires):
            rule = rules.get(requirement.rule)
            if requirement.error != "cap_reached" or rule is None or not _UNLIMITED.search(rule.text):
                continue
            if _cap_reachable(event, index, quantities):
                caps = sorted(
                    n for n in requirement.expr.names if n in quantities and not quantities[n].expr.is_constant
                )
                where = f"/quantities/{caps[0]}" if caps else f"/events/{name}/requires/{index}"
                yield Contradiction(
                    where,
                    f"rule {requirement.rule} says raises are unlimited ({_quote(rule.text, _UNLIMITED)}), "
                    f"and {name}'s cap refuses citing it: restate {requirement.rule} in this spec's rules "
                    f"with the cap it plays, or cite a rule of its own there (amend {name}'s requirement)",
                )
    for name, option in options.items():
        rule = rules.get(option.rule)
        if rule is None or "raise" not in option.meaning or type(option.default) is not int:
            continue
        stated = {_number(m.group(1)) for m in _RAISES.finditer(rule.text)}
        if stated and option.default not in stated:
            yield Contradiction(
                f"/options/{name}/default",
                f"rule {option.rule} says {_quote(rule.text, _RAISES)}, and option {name} makes it "
                f"{option.default} by default: restate {option.rule} with {option.default} (or make the default "
                f"{min(stated)})",
            )
    cited: list[tuple[str, str, ast.expr]] = [
        (f"/forced_bets/{bet.name}/amount", bet.rule, bet.amount.tree) for bet in forced_bets
    ]
    cited += [(f"/quantities/{name}/expr", q.rule, q.expr.tree) for name, q in quantities.items()]
    for pointer, rule_id, tree in cited:
        rule = rules.get(rule_id)
        if rule is None:
            continue
        if _CHAINED.search(rule.text):
            continue
        said, written = _multiples(rule.text), _written_multiples(tree)
        for over, times in written.items():
            if over in said and not (times & said[over]):
                yield Contradiction(
                    pointer,
                    f"rule {rule_id} says {_quote(rule.text, _MULTIPLE)}, and this amount is "
                    f"{' or '.join(f'{t} * {over}' for t in sorted(times))}: restate {rule_id} with the amount "
                    "played, or correct the amount",
                )


def _quote(text: str, pattern: re.Pattern[str]) -> str:
    match = pattern.search(text)
    return repr(match.group(0)) if match is not None else repr(text[:80])
