"""The reference book's model: a page per structure, as blocks of plain text, whatever writes it.

A page is a spec written out for a reader: its diagrams, streets, table inputs, options, the seats
that matter, the forced bets, each sizing quantity as a formula and in words, what each action
requires, how chips pushed and words said are ruled, the next hand, every rule with its text and
source, where the spec uses it and the worked examples that show it; then the worked examples
themselves, the conformance cases of the structure played step by step (see
:mod:`betspec.conformance.examples`). A page opens with its contents; the rule index lists every
rule of every structure, with the structures that cite it. The Markdown and HTML back ends render
the same pages.

A structure's page shows the rules it cites: a rule of the specs it extends that only entries it
removed cited (a blind rule in a structure with no blinds) is left out, so that each family's page
speaks its own words. Nothing here knows a structure by name: what a page says comes from its spec.

Text here is plain: the renderers escape it. A link (``Span.href``) is ``#anchor`` within the
page, ``page:<name>`` or ``page:<name>#anchor`` to another page, else a path from the project's
root (a diagram, a case file), which the renderer makes relative to where it writes the page.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

from betspec import vocabulary
from betspec.backends.base import Context, header_lines
from betspec.model import ForcedBet, Input, Option, Spec


@dataclass(frozen=True)
class WorkedStep:
    """One step of a worked example, as words: what was done, how the engine took it, what held."""

    seat: int | None
    action: str  # "raise to 200", "deal the flop", "pushes 300, says raise"
    outcome: str  # "" when simply taken; "refused: not_reopened", "ruled a call"
    rule: str  # the rule behind the outcome ("" when none)
    expected: tuple[tuple[str, str], ...]  # (what, its value as text), in the case's order


@dataclass(frozen=True)
class WorkedExample:
    """A conformance case played through its spec's engine: a worked example of the rules."""

    id: str
    path: str  # relative to the project, with forward slashes
    source: str
    setup: tuple[tuple[str, str], ...]  # (table input, option or start value, its value as text)
    steps: tuple[WorkedStep, ...]
    decided: tuple[str, ...]  # rules the case pins down (a refusal, a ruling, a bound, a setting)
    played: tuple[str, ...]  # rules of the transitions its steps took
    error: str = ""  # why it could not be played (the book says so rather than hide the case)
    refused: str = ""  # the engine's refusal of the case's table, when the case expects one
    refused_rule: str = ""  # the rule that refusal cites


#: How many worked examples a rule lists before "and N more".
EXAMPLES_PER_RULE = 8


@dataclass(frozen=True)
class Span:
    text: str
    code: bool = False
    href: str = ""
    strong: bool = False


Inline = tuple[Span, ...]


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    anchor: str


@dataclass(frozen=True)
class Paragraph:
    spans: Inline
    anchor: str = ""


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[tuple[Inline, ...], ...]
    anchor: str = ""  # the table's own anchor
    row_anchors: tuple[str, ...] = ()  # an anchor per row ("" for none), when given


@dataclass(frozen=True)
class Figure:
    src: str  # from the project's root
    caption: str


@dataclass(frozen=True)
class Contents:
    """The page's contents: a link to each section, in order."""

    items: tuple[Inline, ...]
    anchor: str = "contents"


@dataclass(frozen=True)
class Search:
    """Finding a rule by id or by words. ``filters`` names the table the words filter on this page;
    empty, the words are looked up on the rule index (a renderer with no search shows nothing)."""

    filters: str = ""


@dataclass(frozen=True)
class Live:
    """The structure's engine played on the page: ``structure`` the engine's module, ``examples``
    each worked example's anchor and case file (from the project's root) that the page steps
    through. A renderer with no script shows nothing."""

    structure: str
    examples: tuple[tuple[str, str], ...] = ()


Block = Heading | Paragraph | Table | Figure | Contents | Search | Live

#: The rule index's page (a name no spec can have: spec names have no hyphen), and the anchor of
#: its table.
RULES_PAGE = "rule-index"
RULE_INDEX = "rules"


@dataclass(frozen=True)
class Page:
    name: str  # the file stem
    title: str
    header: tuple[str, ...]  # the do-not-edit lines
    blocks: tuple[Block, ...]


def one_line(words: str) -> str:
    """Whitespace runs, line breaks included, as one space (edges kept: spans are joined)."""
    return re.sub(r"\s+", " ", words)


def text(words: str) -> Inline:
    return (Span(" ".join(words.split())),)


def code(value: str) -> Inline:
    return (Span(" ".join(value.split()), code=True),)


def json_code(value: object) -> Inline:
    return code(json.dumps(value, ensure_ascii=False))


def rule_anchor(rule_id: str) -> str:
    return f"rule-{rule_id.lower()}"


def example_anchor(example_id: str) -> str:
    return "example-" + "".join(ch if ch.isalnum() or ch == "-" else "-" for ch in example_id.lower())


class _Uses:
    """Where a page cites each rule: the rule's link, and the sections it is used in."""

    def __init__(self, spec: Spec, shown: frozenset[str] | None = None) -> None:
        self.spec = spec
        self.shown = frozenset(spec.rules) if shown is None else shown
        self.where: dict[str, list[str]] = {}

    def link(self, rule_id: str, where: str) -> Inline:
        if rule_id not in self.shown:
            return text(rule_id)
        places = self.where.setdefault(rule_id, [])
        if where and where not in places:
            places.append(where)
        return (Span(rule_id, href="#" + rule_anchor(rule_id)),)


def _bounds(entry: Input | Option) -> str:
    parts = []
    if entry.minimum is not None:
        parts.append(f"≥ {entry.minimum}")
    if entry.maximum is not None:
        parts.append(f"≤ {entry.maximum}")
    return f" ({', '.join(parts)})" if parts else ""


def _input_type(item: Input) -> str:
    if item.items:
        kind = f"[{', '.join(item.items)}] ({item.type}s)"
    elif item.per_seat:
        kind = f"{item.type}, one per seat"
    elif item.choices:
        kind = " | ".join(item.choices)
    else:
        kind = item.type
    return (
        kind
        + _bounds(item)
        + (", this hand only" if item.hand else "")
        + (", carried (session)" if item.session else "")
    )


def _input_value(item: Input) -> Inline:
    if item.required:
        return (Span("required"), *((Span(", e.g. "), *json_code(item.example)) if item.example is not None else ()))
    return json_code(item.default)


def _posted_by(bet: ForcedBet) -> Inline:
    if bet.seats == "all":
        return text("every seat, from the button's left")
    if bet.seats is not None:
        return (Span("each seat in "), Span(bet.seats, code=True))
    assert bet.seat is not None
    return code(bet.seat.text)


def _how(bet: ForcedBet) -> str:
    words = [f"{bet.kind} ({vocabulary.FORCED_BET_KINDS[bet.kind]})"]
    if bet.order == "starts_after":
        words.append("the round starts after it")
    elif bet.order == "last":
        words.append("acts last, from any seat")
    if bet.in_full:
        words.append("in full or not at all")
    return ", ".join(words)


def _value(value: object) -> str:
    return json.dumps(value) if isinstance(value, bool) else str(value)


def _diagrams(spec: Spec) -> list[Block]:
    return [
        Heading(2, "Diagrams", "diagrams"),
        Paragraph(
            text(
                "The betting round every street plays (a guard's key, G1 and on, is written out under the "
                "machine), then the hand street by street. The same diagrams in Mermaid are "
                f"diagrams/{spec.name}.mmd and diagrams/{spec.name}.streets.mmd."
            )
        ),
        Figure(f"diagrams/{spec.name}.svg", f"{spec.title}: the betting round"),
        Figure(f"diagrams/{spec.name}.streets.svg", f"{spec.title}: the streets"),
    ]


def _cards(spec: Spec, uses: _Uses) -> list[Block]:
    game = spec.game
    if game is None:
        return []
    rows = tuple(
        (
            code(deal.street),
            text(", ".join("up" if up else "down" for up in deal.hole) or "none"),
            text(str(deal.board) if deal.board else "none"),
            text("draw" if deal.draw else f"discard {deal.discard}" if deal.discard else ""),
        )
        for deal in game.deals
    )
    deck = {"short": "the short deck (36 cards, six to ace)", "standard": "a standard deck (52 cards)"}.get(
        game.deck,
        f"a deck of {len(game.ranks) * len(game.suits)} cards ({', '.join(game.ranks)} in {_suits(game.suits)})",
    )
    shown = "; ".join(f"{kind}: {vocabulary.HAND_KINDS[kind]}" for kind in game.showdown)
    halves = "a split pot, high then low: " if len(game.showdown) > 1 else ""
    described = (
        f"{game.name}, dealt from {deck} by the dealer (betspec.cards, betspec play, the PHH layer; the engine "
        f"bets without cards). The showdown ranks {halves}{shown}. Who acts first: {vocabulary.OPENINGS[game.opening]}."
    )
    if game.boards > 1:
        when = f" when the table gives {game.boards_when}" if game.boards_when else ""
        described += (
            f" The board cards are dealt to {game.boards} boards{when}, each paying its part of every pot "
            "(the odd chips to the first)."
        )
    blocks: list[Block] = [Heading(2, "The cards", "cards"), Paragraph(text(described))]
    if game.rule:
        blocks.append(Paragraph((Span("Rule: "), *uses.link(game.rule, "The cards"), Span("."))))
    blocks.append(Table(("street", "hole cards, each seat", "board cards", "first, each seat still in"), rows))
    return blocks


def _rake(spec: Spec, uses: _Uses) -> list[Block]:
    rake = spec.rake
    if rake is None:
        return []
    percent = f"{rake.basis_points / 100:g}"
    rounded = "to the nearest chip, a half to the even one" if rake.rounding == "half_even" else "down"
    terms = [f"{percent}% of each pot, rounded {rounded}"]
    if rake.unit is not None:
        terms.append(f"then down to a multiple of {rake.unit.text}")
    if rake.cap is not None:
        bound = "each pot" if rake.cap_per == "pot" else "the hand (the main pot raked first, then each side pot)"
        terms.append(f"at most {rake.cap.text} from {bound}")
    described = f"The house takes {', '.join(terms)}, before the pots are paid; every raked chip leaves the table."
    if rake.from_street:
        described += (
            f" No hand is raked before {rake.from_street} unless a showdown dealt every card"
            f" (no {rake.from_street}, no drop)."
        )
    if rake.minimum_pot is not None:
        described += f" No hand whose pots come to less than {rake.minimum_pot.text} is raked."
    if rake.jackpot is not None:
        least = f" when the pots come to {rake.jackpot_minimum.text} or more" if rake.jackpot_minimum else ""
        described += f" Then {rake.jackpot.text} is dropped from the main pot into the jackpot{least}."
    blocks: list[Block] = [Heading(2, "The rake", "rake"), Paragraph(text(described))]
    if rake.rule:
        blocks.append(Paragraph((Span("Rule: "), *uses.link(rake.rule, "The rake"), Span("."))))
    return blocks


def _payments(spec: Spec, uses: _Uses) -> list[Block]:
    if not spec.payments:
        return []
    rows = []
    for payment in spec.payments:
        suits = {True: ", of one suit", False: ", not all of one suit", None: ""}[payment.suited]
        asked = [f"shows {' '.join(payment.ranks)}{suits}"] if payment.ranks else []
        if payment.makes:
            asked.append("makes " + " or ".join(vocabulary.HAND_CATEGORIES[hand] for hand in payment.makes))
        when = f"{' and '.join(asked) or 'always'}{' at a showdown' if payment.showdown else ''}"
        rows.append(
            (
                code(payment.name),
                text(f"{payment.amount.text} from {vocabulary.PAYMENT_PAYERS[payment.source]}"),
                text(vocabulary.PAYMENT_PAYEES[payment.to]),
                text(when),
                uses.link(payment.rule, "Money paid outside the pot"),
            )
        )
    described = (
        "Paid after the pots, from each payer's own stack (at most what he has left), or from the house's "
        "jackpot, to the payee when the cards it shows (at the showdown, or to claim an uncontested pot) are "
        "the ones the payment names, and make a hand it names (as the dealer's evaluator names it)."
    )
    return [
        Heading(2, "Money paid outside the pot", "payments"),
        Paragraph(text(described)),
        Table(("payment", "paid", "to", "when the payee", "rule"), tuple(rows)),
    ]


def _streets(spec: Spec, uses: _Uses) -> list[Block]:
    names = list(spec.street_values)
    rows = tuple(
        (code(street.name), text(street.meaning), *(text(_value(street.values.get(n, ""))) for n in names))
        for street in spec.streets
    )
    blocks: list[Block] = [
        Heading(2, "Streets", "streets"),
        Paragraph(text("The betting rounds in order, and what each declares.")),
        Table(("street", "meaning", *names), rows),
    ]
    if spec.street_values:
        blocks.append(
            Table(
                ("street value", "type", "default", "meaning", "rule"),
                tuple(
                    (code(v.name), text(v.type), json_code(v.default), text(v.meaning), uses.link(v.rule, "Streets"))
                    for v in spec.street_values.values()
                ),
            )
        )
    if spec.deal_inputs:
        blocks.append(Paragraph(text("Given with a deal (cards are not the engine's business):")))
        blocks.append(
            Table(
                ("deal input", "type", "meaning", "rule"),
                tuple(
                    (code(i.name), text(_input_type(i)), text(i.meaning), uses.link(i.rule, "Streets"))
                    for i in spec.deal_inputs.values()
                ),
            )
        )
    return blocks


def _table_inputs(spec: Spec, uses: _Uses) -> list[Block]:
    return [
        Heading(2, "Table inputs", "table-inputs"),
        Paragraph(text("Every table gives stacks (each seat's chips, clockwise) and button (its seat). The others:")),
        Table(
            ("input", "type", "default", "meaning", "rule"),
            tuple(
                (
                    code(i.name),
                    text(_input_type(i)),
                    _input_value(i),
                    text(i.meaning),
                    uses.link(i.rule, "Table inputs"),
                )
                for i in spec.inputs.values()
            ),
        ),
    ]


def _options(spec: Spec, uses: _Uses) -> list[Block]:
    if not spec.options:
        return []
    rows = tuple(
        (
            code(o.name),
            text((" | ".join(o.choices) if o.choices else o.type) + _bounds(o)),
            json_code(o.default),
            text(o.meaning),
            uses.link(o.rule, "Options"),
        )
        for o in sorted(spec.options.values(), key=lambda o: o.name)
    )
    return [
        Heading(2, "Options", "options"),
        Paragraph(text("House rules, given as keywords when an engine is built.")),
        Table(("option", "type", "default", "meaning", "rule"), rows),
    ]


def _memory(spec: Spec, uses: _Uses) -> list[Block]:
    """What the structure remembers: its own variables, for the hand, per seat, or the session."""
    scopes = {"hand": "one for the hand", "seat": "one per seat, for the hand"}
    rows = [
        (
            code(v.name),
            text(scopes[v.scope]),
            text(v.type),
            json_code(v.default),
            text(v.meaning),
            uses.link(v.rule, "Memory"),
        )
        for v in spec.variables.values()
        if v.declared
    ]
    rows += [
        (
            code(i.name),
            text("carried from hand to hand (next_hand sets it)"),
            text(i.type),
            json_code(i.default),
            text(i.meaning),
            uses.link(i.rule, "Memory"),
        )
        for i in spec.inputs.values()
        if i.session
    ]
    if not rows:
        return []
    return [
        Heading(2, "What the structure remembers", "memory"),
        Paragraph(
            text(
                "Variables of the structure's own: set by its effects (or, for the session, by the next "
                "hand), read by its rules, shown in snapshots."
            )
        ),
        Table(("variable", "kept", "type", "default", "meaning", "rule"), tuple(rows)),
    ]


def _roles(spec: Spec, uses: _Uses) -> list[Block]:
    if not spec.roles:
        return []
    rows = tuple(
        (code(r.name), code(r.expr.text), text(r.meaning), uses.link(r.rule, "Seats that matter"))
        for r in spec.roles.values()
    )
    return [Heading(2, "Seats that matter", "seats"), Table(("seat", "is", "meaning", "rule"), rows)]


def _forced_bets(spec: Spec, uses: _Uses) -> list[Block]:
    if not spec.forced_bets:
        return []
    rows = tuple(
        (
            text(bet.name.replace("_", " ")),
            _posted_by(bet),
            code(bet.amount.text),
            code(bet.when.text) if bet.when is not None else text("always"),
            text(_how(bet)),
            uses.link(bet.rule, "Forced bets"),
        )
        for bet in spec.forced_bets
    )
    return [
        Heading(2, "Forced bets", "forced-bets"),
        Paragraph(
            text(
                "Posted in this order before the first action; a seat short of one posts all it has, unless it "
                "is posted in full. Live chips count toward the poster's call; dead ones toward nothing."
            )
        ),
        Table(("forced bet", "posted by", "amount", "when", "how", "rule"), rows),
    ]


def _sizing(spec: Spec, uses: _Uses) -> list[Block]:
    rows = tuple(
        (code(q.name), code(q.expr.text), text(q.meaning), uses.link(q.rule, "Sizing"))
        for q in spec.quantities.values()
    )
    return [
        Heading(2, "Sizing", "sizing"),
        Paragraph(
            text(
                "Each quantity the rules compute, as the spec's formula and in words, in the order they are "
                'computed. Amounts are totals committed this street ("to" amounts).'
            )
        ),
        Table(("quantity", "formula", "in words", "rule"), rows),
    ]


def _actions(spec: Spec, uses: _Uses) -> list[Block]:
    rows = tuple(
        (
            code(event.name),
            code(req.expr.text),
            (Span(req.error, code=True), Span(": " + " ".join(req.message.split()))),
            uses.link(req.rule, "Actions"),
        )
        for event in spec.events.values()
        if event.kind == "action"
        for req in event.requires
    )
    if not rows:
        return []
    return [
        Heading(2, "Actions", "actions"),
        Paragraph(text("What each action requires, checked in this order; the first that fails refuses it.")),
        Table(("action", "must hold", "else", "rule"), rows),
    ]


def _rulings(spec: Spec, uses: _Uses) -> list[Block]:
    if not spec.push_rulings:
        return []
    rows = tuple(
        (
            code(r.when.text),
            text(r.ruling + (f" to {r.to.text}" if r.to is not None else "")),
            text(r.note or ""),
            uses.link(r.rule, "Chips pushed and words said"),
        )
        for r in spec.push_rulings
    )
    return [
        Heading(2, "Chips pushed and words said", "rulings"),
        Paragraph(text("How the dealer rules on chips pushed and words said: the first line that holds decides.")),
        Table(("when", "ruled as", "note", "rule"), rows),
    ]


def _checks(spec: Spec, uses: _Uses) -> list[Block]:
    if not spec.checks:
        return []
    rows = tuple((code(c.expr.text), text(c.message), uses.link(c.rule, "Checks")) for c in spec.checks)
    return [
        Heading(2, "Checks", "checks"),
        Paragraph(text("A table that fails one is refused, with this message.")),
        Table(("must hold", "else", "rule"), rows),
    ]


def _next_hand(spec: Spec) -> list[Block]:
    if spec.next_hand is None:
        return []
    rows = [(text("button"), code(spec.next_hand.button.text))]
    rows += [(code(name), code(expr.text)) for name, expr in spec.next_hand.inputs.items()]
    return [
        Heading(2, "The next hand", "next-hand"),
        Paragraph(
            text(
                "After a hand is settled, the next table: stacks after settlement, busted seats out, and these "
                "values computed from the hand just played."
            )
        ),
        Table(("value", "is"), tuple(rows)),
    ]


def _rule_examples(rule_id: str, examples: Sequence[WorkedExample]) -> Inline:
    deciding = [e for e in examples if rule_id in e.decided]
    playing = [e for e in examples if rule_id in e.played and rule_id not in e.decided]
    ordered = sorted(deciding, key=lambda e: (len(e.decided) + len(e.played), e.id))
    ordered += sorted(playing, key=lambda e: (len(e.decided) + len(e.played), e.id))
    if not ordered:
        return ()
    spans: list[Span] = [Span("Worked examples: ")]
    for index, example in enumerate(ordered[:EXAMPLES_PER_RULE]):
        spans += [Span(", " if index else ""), Span(example.id, href="#" + example_anchor(example.id))]
    if len(ordered) > EXAMPLES_PER_RULE:
        spans.append(Span(f", and {len(ordered) - EXAMPLES_PER_RULE} more"))
    spans.append(Span("."))
    return tuple(span for span in spans if span.text)


def cited(spec: Spec) -> frozenset[str]:
    """The rules ``spec``'s own entries cite: its inputs, options, forced bets, sizing, actions,
    rulings, checks, seats, streets, transitions and procedures."""
    found: set[str] = set(spec.procedure_rules.values())
    entries: tuple[object, ...] = (
        *spec.inputs.values(),
        *spec.options.values(),
        *spec.quantities.values(),
        *spec.roles.values(),
        *spec.forced_bets,
        *spec.checks,
        *spec.push_rulings,
        *spec.street_values.values(),
        *spec.deal_inputs.values(),
        *spec.transitions,
        *(req for event in spec.events.values() for req in event.requires),
    )
    if spec.game is not None:
        entries += (spec.game,)
    if spec.rake is not None:
        entries += (spec.rake,)
    entries += spec.payments
    for entry in entries:
        rule = getattr(entry, "rule", "")
        if isinstance(rule, str) and rule:
            found.add(rule)
    return frozenset(found)


def shown_rules(spec: Spec, bases: Sequence[Spec]) -> frozenset[str]:
    """The rules ``spec``'s page writes out: all of its rules but those that entries of the specs
    it extends cite and that ``spec`` no longer cites (it removed the entries: a structure with no
    blinds leaves out the blind rules). A rule nothing cites (a general one) is kept."""
    here = cited(spec)
    there = frozenset().union(*(cited(base) for base in bases)) if bases else frozenset()
    return frozenset(rule for rule in spec.rules if rule in here or rule not in there)


def _rule_ids(spec: Spec, shown: frozenset[str]) -> Inline:
    spans: list[Span] = [Span("By id: ")]
    for index, rule_id in enumerate(r for r in spec.rules if r in shown):
        spans += [Span(", " if index else ""), Span(rule_id, href="#" + rule_anchor(rule_id))]
    spans.append(Span("."))
    return tuple(span for span in spans if span.text)


def _rules(spec: Spec, uses: _Uses, examples: Sequence[WorkedExample]) -> list[Block]:
    shown = uses.shown
    left_out = len(spec.rules) - len(shown)
    intro = (
        "Every rule this structure cites, with its text and its source, where the spec uses it, and "
        "the worked examples that show it"
    )
    if left_out:
        intro += (
            f"; {left_out} rule{'s' if left_out > 1 else ''} of the specs it extends, cited only by entries "
            "this structure removed, " + ("are" if left_out > 1 else "is") + " left out"
        )
    blocks: list[Block] = [
        Heading(2, "Rules", "rules"),
        Paragraph(text(intro + ". The rule index lists the rules of every structure.")),
        Paragraph(_rule_ids(spec, shown)),
    ]
    for event in spec.events.values():
        for req in event.requires:
            uses.link(req.rule, "Actions")
    for t in spec.transitions:
        uses.link(t.rule, "Diagrams")
    for code_name, rule_id in spec.procedure_rules.items():
        uses.link(rule_id, f"refusals ({code_name})")
    for rule_id, rule in spec.rules.items():
        if rule_id not in shown:
            continue
        blocks.append(
            Paragraph((Span(rule_id, strong=True), Span(": "), *text(rule.text)), anchor=rule_anchor(rule_id))
        )
        details: list[Span] = [Span("Source: "), *text(rule.source)]
        places = uses.where.get(rule_id, [])
        if places:
            details.append(Span(". Used in: " + ", ".join(places)))
        details.append(Span("."))
        blocks.append(Paragraph(tuple(details)))
        shown_in = _rule_examples(rule_id, examples)
        if shown_in:
            blocks.append(Paragraph(shown_in))
    return blocks


def _example(example: WorkedExample, uses: _Uses) -> list[Block]:
    blocks: list[Block] = [
        Heading(3, example.id, example_anchor(example.id)),
        Paragraph(
            (
                Span("Source: "),
                *text(example.source or "not given"),
                Span(". Case: "),
                Span(example.path, href=example.path),
                Span("."),
            )
        ),
    ]
    if example.error:
        blocks.append(Paragraph(text(f"This case could not be played: {example.error}")))
        return blocks
    if example.setup:
        blocks.append(Table(("table", "value"), tuple((code(name), text(value)) for name, value in example.setup)))
    if example.refused:
        because: Inline = (Span(" ("), *uses.link(example.refused_rule, ""), Span(")")) if example.refused_rule else ()
        blocks.append(Paragraph((*text(f"The engine refuses this table: {example.refused}"), *because)))
        return blocks
    rows = []
    for number, step in enumerate(example.steps, 1):
        outcome: Inline = text(step.outcome) if step.outcome else ()
        if step.rule:
            outcome = (*outcome, Span(" ("), *uses.link(step.rule, ""), Span(")"))
        expected = tuple(
            span
            for i, (key, value) in enumerate(step.expected)
            for span in (Span("; " if i else ""), Span(key, code=True), Span(f" {value}"))
            if span.text
        )
        seat = text(str(step.seat)) if step.seat is not None else ()
        rows.append((text(str(number)), seat, text(step.action), outcome, expected))
    blocks.append(Table(("step", "seat", "does", "the engine", "then"), tuple(rows)))
    rules = [*example.decided, *example.played]
    if rules:
        spans: list[Span] = [Span("Rules it shows: ")]
        for index, rule_id in enumerate(rules):
            if index:
                spans.append(Span(", "))
            spans += list(uses.link(rule_id, ""))
        spans.append(Span("."))
        blocks.append(Paragraph(tuple(spans)))
    return blocks


def _contents(blocks: Sequence[Block], counts: dict[str, int]) -> Contents:
    items = []
    for block in blocks:
        if isinstance(block, Heading) and block.level == 2:
            count = f" ({counts[block.anchor]})" if block.anchor in counts else ""
            items.append((Span(block.text, href="#" + block.anchor), *((Span(count),) if count else ())))
    return Contents(tuple(items))


def _navigation() -> Paragraph:
    return Paragraph(
        (
            Span("Back to "),
            Span("the index", href="page:index"),
            Span(". Every rule of every structure, by id and by words: "),
            Span("the rule index", href=f"page:{RULES_PAGE}"),
            Span("."),
        )
    )


def _play(spec: Spec, examples: Sequence[WorkedExample]) -> list[Block]:
    playable = tuple(
        (example_anchor(example.id), example.path) for example in examples if not example.error and example.path
    )
    return [
        Heading(2, "Play a hand", "play"),
        Paragraph(
            text(
                "On this structure's page of the static site, its engine (the TypeScript engine compiled to "
                "JavaScript, run in the browser with no server) deals a table with the structure's inputs and "
                "options, offers the legal actions with their bounds, takes chips pushed and words said, and "
                "explains each refusal with its rule and source; every worked example below can be stepped "
                "through there, the table's state shown after each step."
            )
        ),
        Live(spec.name, playable),
    ]


def spec_page(spec: Spec, root: str, examples: Sequence[WorkedExample], shown: frozenset[str] | None = None) -> Page:
    """``spec``'s page; ``shown`` the rules it writes out (every rule of the spec by default)."""
    uses = _Uses(spec, shown)
    head: list[Block] = [Heading(1, f"{spec.title} ({spec.name})", "top")]
    if spec.description:
        head.append(Paragraph(text(spec.description)))
    head += [_navigation(), Search()]
    blocks: list[Block] = []
    blocks += _diagrams(spec)
    for section in (
        _streets,
        _cards,
        _rake,
        _payments,
        _table_inputs,
        _options,
        _memory,
        _roles,
        _forced_bets,
        _sizing,
        _actions,
        _rulings,
        _checks,
    ):
        blocks += section(spec, uses)
    blocks += _next_hand(spec)
    example_blocks: list[Block] = [
        Heading(2, "Worked examples", "examples"),
        Paragraph(
            text(
                f"The {len(examples)} conformance cases of this structure, each played through its engine when "
                "this page was generated: what each step does, how the engine took it, and what the case "
                "asserts after it (to_act is the seat to act; min_to and max_to bound the next bet or raise)."
            )
        ),
    ]
    if examples:
        links: list[Span] = []
        for index, example in enumerate(examples):
            links += [Span(", " if index else ""), Span(example.id, href="#" + example_anchor(example.id))]
        example_blocks.append(Paragraph(tuple(span for span in (Span("The cases: "), *links, Span(".")) if span.text)))
    for example in examples:
        example_blocks += _example(example, uses)
    blocks += _play(spec, examples)
    blocks += _rules(spec, uses, examples)
    blocks += example_blocks
    counts = {"rules": len(uses.shown), "examples": len(examples)}
    everything = (*head, _contents(blocks, counts), *blocks)
    return Page(spec.name, spec.title, tuple(header_lines(spec, root)), everything)


def index_page(specs: Sequence[Spec], counts: dict[str, int], other_cases: int, shown: dict[str, int]) -> Page:
    rows = tuple(
        (
            (Span(spec.title, href=f"page:{spec.name}"),),
            code(spec.name),
            text(" ".join(spec.description.split()).split(". ")[0].rstrip(".") + "." if spec.description else ""),
            text(str(shown.get(spec.name, len(spec.rules)))),
            text(str(counts.get(spec.name, 0))),
        )
        for spec in specs
    )
    blocks: list[Block] = [
        Heading(1, "The betspec reference book", "top"),
        Paragraph(
            text(
                "One page per betting structure, generated from its spec: the rules with their text and source, "
                "the table inputs, options and forced bets, each sizing formula, the diagrams, and the "
                "conformance cases as worked examples. Regenerated by betspec docs (or betspec generate); "
                "betspec generate --check fails when a page is stale."
            )
        ),
        Paragraph(
            (
                Span("To find a rule by its id or by words, search below or read "),
                Span("the rule index", href=f"page:{RULES_PAGE}"),
                Span(", every rule of every structure with the structures that cite it."),
            )
        ),
        Search(),
        Heading(2, "Structures", "structures"),
        Table(("structure", "spec", "what it is", "rules", "worked examples"), rows),
        Paragraph(
            text(
                f"Not shown as examples: {other_cases} further cases that are tests rather than lessons "
                "(paths found by exploring the machines, differences between options, real hands)."
            )
        ),
    ]
    lines = ("Generated by betspec from the specs in spec/.", "Do not edit: change a spec and run `betspec generate`.")
    return Page("index", "The betspec reference book", lines, tuple(blocks))


def rules_page(specs: Sequence[Spec], shown: dict[str, frozenset[str]]) -> Page:
    """Every rule of every structure, by id: its text, and the structures whose pages write it out
    (a rule two structures word differently has a row for each wording)."""
    wordings: dict[tuple[str, str], list[Spec]] = {}
    for spec in specs:
        for rule_id, rule in spec.rules.items():
            if rule_id in shown.get(spec.name, frozenset(spec.rules)):
                wordings.setdefault((rule_id, " ".join(rule.text.split())), []).append(spec)
    rows = []
    anchors = []
    for (rule_id, words), citing in sorted(wordings.items(), key=lambda item: (item[0][0], -len(item[1]))):
        anchor = rule_anchor(rule_id)
        anchors.append("" if anchor in anchors else anchor)
        where: list[Span] = []
        for index, spec in enumerate(citing):
            where += [Span(", " if index else ""), Span(spec.title, href=f"page:{spec.name}#{anchor}")]
        rows.append(((Span(rule_id, strong=True),), text(words), tuple(s for s in where if s.text)))
    ids = sorted({rule_id for rule_id, _ in wordings})
    blocks: list[Block] = [
        Heading(1, "Every rule, by id", "top"),
        Paragraph(
            (
                Span("Back to "),
                Span("the index", href="page:index"),
                Span(
                    f". The {len(ids)} rules of the {len(specs)} structures, by id: each rule's text and the "
                    "structures that cite it, each linked to the rule on its page (with its source, where the "
                    "structure uses it and the worked examples that show it). A rule that structures word "
                    "differently has a row for each wording."
                ),
            )
        ),
        Search(RULE_INDEX),
        Table(("rule", "text", "structures"), tuple(rows), anchor=RULE_INDEX, row_anchors=tuple(anchors)),
    ]
    lines = ("Generated by betspec from the specs in spec/.", "Do not edit: change a spec and run `betspec generate`.")
    return Page(RULES_PAGE, "Every rule, by id", lines, tuple(blocks))


def _bases(spec: Spec, by_path: dict[str, Spec]) -> list[Spec]:
    """The specs ``spec`` extends, among those given (one not given is passed over)."""
    return [by_path[path] for path in map(os.path.realpath, spec.files[1:]) if path in by_path]


def book(specs: Sequence[Spec], root: str, context: Context | None) -> list[Page]:
    """The index, the rule index and a page for every concrete spec, in name order."""
    context = context or Context()
    by_path = {os.path.realpath(spec.path): spec for spec in specs}
    concrete = sorted((spec for spec in specs if not spec.abstract), key=lambda s: s.name)
    pages: list[Page] = []
    counts: dict[str, int] = {}
    shown: dict[str, frozenset[str]] = {}
    for spec in concrete:
        examples = list(context.examples(spec))
        counts[spec.name] = len(examples)
        shown[spec.name] = shown_rules(spec, _bases(spec, by_path))
        pages.append(spec_page(spec, root, examples, shown[spec.name]))
    index = index_page(concrete, counts, context.other_cases, {name: len(rules) for name, rules in shown.items()})
    return [index, rules_page(concrete, shown), *pages]


def resolve(href: str, suffix: str, up: str) -> str:
    """A page's link as a renderer writes it: pages named with ``suffix``, the project's root ``up``."""
    if href.startswith("#"):
        return href
    if href.startswith("page:"):
        name, _, anchor = href[len("page:") :].partition("#")
        return name + suffix + (f"#{anchor}" if anchor else "")
    return up + href


def _suits(suits: str) -> str:
    """A deck's suits in words: "spades", "hearts and spades"."""
    names = [vocabulary.SUIT_NAMES[suit] for suit in suits]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
