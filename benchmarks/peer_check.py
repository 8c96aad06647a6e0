"""Which recorded hands a peer can take, and what it answers differently on them.

A peer's :class:`Adapter` plays one hand in betspec's terms: seats 0..n-1 clockwise, actions by
name, "to" amounts per street. :func:`check_hands` plays betspec's engine and the adapter side by
side through each recorded hand. Before every action it compares who acts and every seat's chips
behind, then the bot's query (legal actions, call amount, min and max "to"); the action goes to both.

- A hand is *refused* (left out of that peer's timing) at the first thing the peer cannot follow:
  an action it cannot express or will not take, another seat to act, other chips, an exception, a
  hand that does not end where betspec's ends. One example is kept per kind of refusal.
- On a hand the peer takes, answers that differ from betspec's are *wrong answers*: counted per
  kind (decisions and hands), the first example of each kept. They do not exclude the hand, as the
  recorded actions were still legal in the peer and played the same chips.

Kinds carry tags for the situation (street, heads-up, after a short all-in, the seat has already
acted this street) because those are where the rule differences live.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from betspec.runtime import Engine, Table

Step = tuple[int, str, int | None]
#: The bot's query in betspec's terms: (legal actions sorted, call amount, min "to", max "to").
Answers = tuple[tuple[str, ...], int, int | None, int | None]
STREET_ORDER = ("preflop", "flop", "turn", "river")


class Refused(Exception):
    """The peer cannot take this hand; ``kind`` groups refusals, ``detail`` says what it did."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind
        self.detail = detail


class Adapter(Protocol):
    """One hand of a peer, addressed in betspec's terms."""

    def to_act(self) -> int | None: ...

    def stacks(self) -> list[int]: ...

    def query(self) -> Answers: ...

    def act(self, seat: int, action: str, to: int | None) -> None: ...

    def deal(self, street: str) -> None: ...

    def finish(self) -> None: ...

    def hand_over(self) -> bool: ...

    def native(self) -> Any: ...


@dataclass
class Kind:
    decisions: int = 0
    hands: int = 0
    first: dict[str, object] = field(default_factory=dict)


@dataclass
class Findings:
    """One peer on one structure's hands."""

    hands: int = 0
    taken: list[int] = field(default_factory=list)
    actions: int = 0  # betting actions in the hands taken
    natives: list[Any] = field(default_factory=list)
    refused: dict[str, Kind] = field(default_factory=dict)
    wrong: dict[str, Kind] = field(default_factory=dict)

    @property
    def refused_count(self) -> int:
        return self.hands - len(self.taken)

    def as_json(self) -> dict[str, object]:
        def kinds(table: dict[str, Kind]) -> dict[str, object]:
            ordered = sorted(table.items(), key=lambda item: (-item[1].hands, item[0]))
            return {
                name: {"hands": kind.hands, "decisions": kind.decisions, "first": kind.first} for name, kind in ordered
            }

        return {
            "hands": self.hands,
            "hands_taken": len(self.taken),
            "hands_refused": self.refused_count,
            "actions_taken": self.actions,
            "refused": kinds(self.refused),
            "wrong_answers": kinds(self.wrong),
        }


class Street:
    """What the tags need about the street being bet, from betspec's own answers."""

    def __init__(self, name: str, opening: int, level: int) -> None:
        self.name = name
        self.level = level
        self.full = opening  # the largest full bet or raise of the street so far
        self.short = False  # an all-in for less than a full raise has been made this street
        self.acted: set[int] = set()

    def tags(self, seat: int, heads_up: bool) -> list[str]:
        tags = [self.name if self.name == "preflop" else "postflop"]
        if heads_up:
            tags.append("heads-up")
        if self.short:
            tags.append("after a short all-in")
        if seat in self.acted:
            tags.append("has acted")
        return tags

    def after(self, seat: int, level: int, all_in: bool) -> None:
        raised = level - self.level
        if raised > 0:
            if raised >= self.full:
                self.full = raised
            elif all_in:
                self.short = True
            self.level = level
        self.acted.add(seat)


def describe_table(table: Table) -> str:
    seats = len(table.stacks)
    return f"{seats} seats, button {table.button}, blinds {tuple(table.get('blinds'))}, stacks {list(table.stacks)}"


def describe_steps(steps: Sequence[Step]) -> str:
    words = []
    for seat, action, to in steps:
        if seat < 0:
            words.append(f"| {action} |")
        else:
            words.append(f"s{seat} {action}" + (f" {to}" if to is not None else ""))
    return " ".join(words)


def describe(answers: Answers) -> str:
    legal, call, low, high = answers
    text = f"legal {'/'.join(legal) or '-'}, call {call}"
    if low is not None or high is not None:
        text += f", to {low}..{high}"
    return text


def differences(mine: Answers, theirs: Answers) -> list[str]:
    """The kinds of difference between betspec's answers and the peer's, tags aside."""
    found = [f"allows {a}" for a in theirs[0] if a not in mine[0]]
    found += [f"lacks {a}" for a in mine[0] if a not in theirs[0]]
    if mine[1] != theirs[1]:
        found.append("call amount " + ("higher" if theirs[1] > mine[1] else "lower"))
    sizing = {"bet", "raise"}
    if sizing & set(mine[0]) and sizing & set(theirs[0]):
        for what, a, b in (("min to", mine[2], theirs[2]), ("max to", mine[3], theirs[3])):
            if a is not None and b is not None and a != b:
                found.append(f"{what} " + ("higher" if b > a else "lower"))
    return found


def sizing_tags(engine: Engine, seat: int) -> list[str]:
    """Why a bet or raise may be out of the question, for the kinds about one."""
    stacks, committed, folded = engine.stacks, engine.committed, engine.folded
    level = max(committed)
    if stacks[seat] + committed[seat] <= level:
        return ["no chips beyond the call"]
    others = [s for s in range(len(stacks)) if s != seat and not folded[s] and stacks[s] + committed[s] > level]
    return [] if others else ["nobody left to answer"]


def check_hand(
    findings: Findings,
    index: int,
    table: Table,
    steps: Sequence[Step],
    engine: Engine,
    make_adapter: Callable[[], Adapter],
) -> None:
    """Play one hand through betspec's ``engine`` and the peer; record what the peer did."""
    findings.hands += 1
    heads_up = len(table.stacks) == 2
    big = table.get("blinds")[1]
    opening = table.get("bets")[0] if table.get("bets") else big
    street = Street("preflop", opening, big)
    wrong_here: dict[str, tuple[int, dict[str, object]]] = {}
    done: list[Step] = []
    current: list[Step] = []  # the step being played, for the example of a refusal

    def example(**extra: object) -> dict[str, object]:
        return {"hand": index, "table": describe_table(table), "before": describe_steps(done), **extra}

    tags: list[str] = []
    try:
        try:
            adapter = make_adapter()
        except Refused:
            raise
        except Exception as error:  # the peer cannot even start this table
            raise Refused(f"crash: {type(error).__name__}", str(error)[:300]) from error
        for seat, action, to in steps:
            if seat < 0:
                current[:] = [(seat, action, to)]
                engine.deal(action)
                adapter.deal(action)
                bets = table.get("bets")
                opening = (bets[0] if STREET_ORDER.index(action) < 2 else bets[1]) if bets else big
                street = Street(action, opening, 0)
                done.append((seat, action, to))
                continue
            current[:] = [(seat, action, to)]
            tags = street.tags(seat, heads_up)
            actor = adapter.to_act()
            if actor != seat:
                what = "the peer ended the hand" if actor is None else "another seat to act"
                if actor is not None and engine.stacks[actor] == 0:
                    what = "gives an all-in seat the turn"
                raise Refused(f"{what} [{', '.join(tags)}]", f"betspec: seat {seat} to act; peer: {actor}")
            mine: Answers = (engine.legal_actions(), engine.call_amount, engine.min_to, engine.max_to)
            if list(engine.stacks) != adapter.stacks():
                chips = f"betspec {list(engine.stacks)}, peer {adapter.stacks()}"
                raise Refused(f"other chips [{', '.join(tags)}]", chips)
            theirs = adapter.query()
            for kind in differences(mine, theirs):
                if kind.endswith("fold"):  # folding does not depend on the situation
                    key = kind
                else:
                    sizing = sizing_tags(engine, seat) if kind.endswith(("bet", "raise")) else []
                    key = f"{kind} [{', '.join(tags + sizing)}]"
                count, first = wrong_here.get(key, (0, {}))
                if not first:
                    first = example(step=describe_steps(current), betspec=describe(mine), peer=describe(theirs))
                wrong_here[key] = (count + 1, first)
            engine.act(seat, action, to)
            try:
                adapter.act(seat, action, to)
            except Refused as refusal:
                raise Refused(f"{refusal.kind} [{', '.join(tags)}]", refusal.detail) from refusal
            street.after(seat, max(engine.committed), engine.stacks[seat] == 0)
            done.append((seat, action, to))
        tags, current[:] = [], []
        adapter.finish()
        if not adapter.hand_over():
            actor = adapter.to_act()
            all_in = actor is not None and engine.stacks[actor] == 0
            what = "gives an all-in seat the turn" if all_in else "the hand goes on in the peer"
            raise Refused(what, f"betspec's hand is over; peer has seat {actor} to act")
    except Refused as refusal:
        _record(findings.refused, refusal.kind, example(step=describe_steps(current), peer=refusal.detail))
        return
    except Exception as error:
        kind = f"crash: {type(error).__name__}" + (f" [{', '.join(tags)}]" if tags else "")
        _record(findings.refused, kind, example(step=describe_steps(current), peer=str(error)[:300] or repr(error)))
        return
    findings.taken.append(index)
    findings.actions += sum(1 for seat, _, _ in steps if seat >= 0)
    findings.natives.append(adapter.native())
    for key, (count, first) in wrong_here.items():
        _record(findings.wrong, key, first, count)


def _record(table: dict[str, Kind], key: str, first: dict[str, object], decisions: int = 1) -> None:
    kind = table.setdefault(key, Kind())
    kind.hands += 1
    kind.decisions += decisions
    if not kind.first:
        kind.first = first


def summary(findings: Findings, limit: int = 4) -> list[str]:
    """A few printable lines: the refusals and wrong answers most hands had."""
    lines = []
    for title, table in (("refused", findings.refused), ("wrong answers", findings.wrong)):
        ordered = sorted(table.items(), key=lambda item: (-item[1].hands, item[0]))
        if not ordered:
            continue
        parts = [f"{name} ({kind.hands:,} hand{'s' if kind.hands > 1 else ''})" for name, kind in ordered[:limit]]
        if len(ordered) > limit:
            more = len(ordered) - limit
            parts.append(f"{more} more kind{'s' if more > 1 else ''}")
        lines.append(f"{title}: " + "; ".join(parts))
    return lines
