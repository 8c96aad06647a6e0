"""Diagnostics: what the front end reports to rule authors.

Every problem found in a spec or a case is one ``Diagnostic``: where it is (file, line, column
and JSON pointer), a short code naming the kind of problem, and a message. They print as
``file:line:column: /json/pointer: message``, the format editors and CI logs understand.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from betspec.suggest import did_you_mean


class DiagnosticCode(str, enum.Enum):
    """What kind of problem a diagnostic reports: the code in brackets at the end of its line.
    :data:`ABOUT` says what each is reported for and how to fix it (docs/diagnostics.md is printed
    from it)."""

    IO = "io"
    JSON = "json"
    DUPLICATE_KEY = "duplicate-key"
    TEXT = "text"
    SCHEMA = "schema"
    LANGUAGE = "language"
    EXTENDS = "extends"
    REMOVE = "remove"
    AMEND = "amend"
    NAME = "name"
    DUPLICATE_NAME = "duplicate-name"
    RESERVED_NAME = "reserved-name"
    UNKNOWN_NAME = "unknown-name"
    UNKNOWN_VARIABLE = "unknown-variable"
    UNKNOWN_PRIMITIVE = "unknown-primitive"
    UNKNOWN_ACTION = "unknown-action"
    UNKNOWN_RULE = "unknown-rule"
    EXPRESSION = "expression"
    SYNTAX = "syntax"
    TYPE = "type"
    SCOPE = "scope"
    CYCLE = "cycle"
    CONSTANT_GUARD = "constant-guard"
    MISSING = "missing"
    ABSTRACT = "abstract"
    PARAMS = "params"
    ORDER = "order"
    DUPLICATE_TRANSITION = "duplicate-transition"
    UNREACHABLE = "unreachable"
    UNUSED = "unused"
    ONLY_FOLD = "only-fold"
    BOUNDS = "bounds"
    OFFERED_REFUSED = "offered-refused"
    AFTER_THE_END = "after-the-end"
    ENDLESS = "endless"
    STUCK = "stuck"
    CHIPS = "chips"
    NEVER_TAKEN = "never-taken"
    NEVER_REACHED = "never-reached"
    RULE_TEXT = "rule-text"
    GAME = "game"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, order=True)
class Position:
    path: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def shifted(self, columns: int) -> Position:
        return Position(self.path, self.line, self.column + columns)


@dataclass(frozen=True, order=True)
class Diagnostic:
    position: Position
    pointer: str
    code: DiagnosticCode
    message: str

    def __str__(self) -> str:
        warning = "warning: " if self.is_warning else ""
        return f"{self.position}: {self.pointer or '/'}: {warning}{self.message} [{self.code}]"

    @property
    def is_warning(self) -> bool:
        """A problem to fix that does not stop the spec from generating (a rule's text behind what it does)."""
        return self.code in WARNINGS


__all__ = ["ABOUT", "About", "Diagnostic", "DiagnosticCode", "Position", "SpecError", "did_you_mean", "errors", "fixes"]


class SpecError(Exception):
    """Raised when a spec or case does not pass the front end; carries every diagnostic."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = sorted(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))


@dataclass(frozen=True)
class About:
    """What a code is reported for and how to fix it: ``docs/diagnostics.md`` is printed from these,
    and ``betspec validate`` prints the fix of each code it reports."""

    group: str
    reported_for: str
    fix: str


_FILE, _TOGETHER, _NAMES = "Reading the file", "Putting specs together", "Names"
_EXPRESSIONS, _MACHINE, _PLAYING = "Expressions", "The machine", "Playing the engine (validate --deep)"

ABOUT: dict[DiagnosticCode, About] = {
    DiagnosticCode.IO: About(
        _FILE,
        "the file cannot be read, is not a regular file, is too large (over 4 MiB), or is not UTF-8",
        "give the path of a regular file of at most 4 MiB, saved as UTF-8",
    ),
    DiagnosticCode.JSON: About(
        _FILE,
        "not JSON, empty, or nested too deeply",
        "correct the JSON at the line and column shown (a missing comma or quote, a trailing comma, a comment); "
        "a spec is one JSON object, nested at most 64 deep",
    ),
    DiagnosticCode.DUPLICATE_KEY: About(
        _FILE, "a key given twice in one object", "keep one of the two: JSON readers keep the later and drop the first"
    ),
    DiagnosticCode.TEXT: About(
        _FILE,
        "a string holds a control character or a lone surrogate",
        "take the character out (a rule's text is one paragraph: no tab, no line break)",
    ),
    DiagnosticCode.SCHEMA: About(
        _FILE,
        "the spec or case schema refuses it (a key missing, unknown or of the wrong kind)",
        "write the key as the message says (the type it takes with an example, or one of its values); "
        'with "$schema": "./schema/spec.schema.json" an editor completes and checks every key as it is typed',
    ),
    DiagnosticCode.LANGUAGE: About(
        _FILE,
        "the spec is written for a language version this betspec does not read (a newer one), or for an older one "
        "whose changes its problems may be",
        "a newer version: upgrade betspec (pip install -U betspec); an older one: run `betspec upgrade FILE` to see "
        "the rewrite, then `betspec upgrade --write FILE` (docs/language.md lists each version's changes)",
    ),
    DiagnosticCode.EXTENDS: About(
        _TOGETHER,
        "a base that cannot be found, or a circular extends",
        "name a spec betspec ships (its spec/ folder lists them) or a file beside this one; no spec may extend "
        "itself through others",
    ),
    DiagnosticCode.REMOVE: About(
        _TOGETHER,
        "a removal that names nothing of the bases, or that leaves a base entry reading what it removed (reported at "
        "the removal, naming the entry, its file and line)",
        "remove only what a base declares (`betspec show --merged BASE` prints it); for an entry that reads what "
        "you removed, define it in the spec, remove it too, or keep the name",
    ),
    DiagnosticCode.AMEND: About(
        _TOGETHER,
        "an `amend` (or a forced bet's `before`/`after`) naming an event, a requirement, an effect or a forced bet "
        "the merged spec lacks, or an anchor more than one entry answers to",
        "name what the merged spec has (`betspec show --merged SPEC`); where several entries answer, anchor by id, "
        "rule or position",
    ),
    DiagnosticCode.NAME: About(
        _TOGETHER,
        "a spec's name is not its file's, or a house spec takes a shipped spec's name",
        "make the name the file's (without .json); a house spec takes a name of its own (its file's name)",
    ),
    DiagnosticCode.DUPLICATE_NAME: About(
        _NAMES,
        "a name declared twice",
        "rename one of them; to replace a base's entry, declare it under the same name in the same table",
    ),
    DiagnosticCode.RESERVED_NAME: About(
        _NAMES,
        "a name generated code could not take (a keyword, a builtin, self)",
        "choose another name: add a word to it (raise_cap, not raise; seat_count, not len)",
    ),
    DiagnosticCode.UNKNOWN_NAME: About(
        _NAMES,
        "a name, function or entry nobody declares",
        "correct it to the name suggested, or declare it (variables, quantities, options, inputs, roles)",
    ),
    DiagnosticCode.UNKNOWN_VARIABLE: About(
        _NAMES,
        "a variable the runtime does not provide",
        "use a variable the runtime provides (docs/specs.md, 'Variables'), or make it the spec's own: declare it "
        "in variables with a type, a default, a scope and a rule",
    ),
    DiagnosticCode.UNKNOWN_PRIMITIVE: About(
        _NAMES,
        "a primitive the runtime does not have, or not declared",
        "use a primitive the runtime has (docs/specs.md, 'Primitives'), declared in the spec's primitives",
    ),
    DiagnosticCode.UNKNOWN_ACTION: About(
        _NAMES,
        "an action the runtime does not take",
        "use an action the runtime takes (fold, check, call, bet, raise, ...), or give the event own: true to make "
        "it an action of the spec's own",
    ),
    DiagnosticCode.UNKNOWN_RULE: About(
        _NAMES,
        "a rule id cited and not in the rules table",
        "add the rule to the spec's rules (its text and its source), or cite a rule the spec or its bases have",
    ),
    DiagnosticCode.EXPRESSION: About(
        _EXPRESSIONS,
        "an expression too long, too deep, empty, on two lines, or outside the language",
        "write one expression on one line with the language's operators and functions (docs/specs.md, "
        "'Expressions'); name a long part as a quantity of its own",
    ),
    DiagnosticCode.SYNTAX: About(
        _EXPRESSIONS,
        "an expression or effect that does not parse",
        "correct it at the column shown (a parenthesis not closed, = where == is meant, a word missing)",
    ),
    DiagnosticCode.TYPE: About(
        _EXPRESSIONS,
        "a value or expression of the wrong type",
        "give the type the message names (it shows one to write); compare to make a bool, guard an int? with "
        "'is not None' before its arithmetic",
    ),
    DiagnosticCode.SCOPE: About(
        _EXPRESSIONS,
        "a table expression reading what only the hand knows",
        "read only the table's inputs, options and other table quantities there, or make it a hand quantity",
    ),
    DiagnosticCode.CYCLE: About(
        _EXPRESSIONS,
        "a role or quantity depending on itself",
        "define one of the names in the cycle without the others",
    ),
    DiagnosticCode.CONSTANT_GUARD: About(
        _EXPRESSIONS,
        "a guard, check or condition the structure makes always false",
        "correct the condition so that some table or hand makes it true, or remove the entry",
    ),
    DiagnosticCode.MISSING: About(
        _MACHINE,
        "something the spec must say and does not (a quantity, an action, streets, a ruling's amount)",
        "add what the message names, or extend a spec that has it",
    ),
    DiagnosticCode.ABSTRACT: About(
        _MACHINE,
        "a concrete spec leaving an abstract quantity undefined",
        "define the quantity in the spec's quantities (its base says what it means), or mark the spec abstract",
    ),
    DiagnosticCode.PARAMS: About(
        _MACHINE,
        "an event's parameters not those of its action",
        "give the event its action's parameters: bet and raise take to, the other actions none",
    ),
    DiagnosticCode.ORDER: About(
        _MACHINE,
        "a requirement reading the amount before one that does not",
        "move the requirement after the ones that check the amount is given (amend with before or after)",
    ),
    DiagnosticCode.DUPLICATE_TRANSITION: About(
        _MACHINE, "the same transition twice", "remove one of the two, or give them different guards"
    ),
    DiagnosticCode.UNREACHABLE: About(
        _MACHINE, "a state no transition reaches", "add a transition into the state, or remove it"
    ),
    DiagnosticCode.UNUSED: About(
        _MACHINE, "an action no transition takes", "add a transition taking the action, or remove the event"
    ),
    DiagnosticCode.ONLY_FOLD: About(
        _PLAYING,
        "a decision where only fold is legal",
        "loosen the requirement the message names so that a seat there may also check, call or go all in",
    ),
    DiagnosticCode.BOUNDS: About(
        _PLAYING,
        "the smallest bet or raise above the largest",
        "make the quantities named give a smallest amount at most the largest (cap the minimum with min(...))",
    ),
    DiagnosticCode.OFFERED_REFUSED: About(
        _PLAYING,
        "an action offered as legal, then refused",
        "make the event's requirements and its legality agree: an action listed as legal must be taken",
    ),
    DiagnosticCode.AFTER_THE_END: About(
        _PLAYING,
        "an action or deal accepted once the hand is over",
        "take the transition out of the states that end the hand, or guard it with a live hand",
    ),
    DiagnosticCode.ENDLESS: About(
        _PLAYING,
        "a hand that does not end",
        "add the transition that ends the round once every seat has acted, or the hand",
    ),
    DiagnosticCode.STUCK: About(
        _PLAYING,
        "nobody to act and nothing to deal",
        "add a transition out of the state shown for that situation, or a street to deal",
    ),
    DiagnosticCode.CHIPS: About(
        _PLAYING,
        "chips created or lost",
        "take every commit from a stack and pay every pot out; a next_hand must keep every chip of the hand",
    ),
    DiagnosticCode.NEVER_TAKEN: About(
        _PLAYING,
        "a transition no hand explored took",
        "correct its guard so that some hand takes it, or remove it if none can",
    ),
    DiagnosticCode.NEVER_REACHED: About(
        _PLAYING,
        "a state no hand explored reached",
        "correct the transitions into it so that some hand reaches it, or remove it",
    ),
    DiagnosticCode.GAME: About(
        _MACHINE,
        "a game whose cards cannot be dealt or ranked as written: a deal for a street the spec does not have, no "
        "hole cards, a split game whose second hand is not a low, an Omaha hand without three board cards, an "
        "opening by the upcards with none dealt on the first street",
        "deal each street the spec has (by its name), give each seat its hole cards, list a split game's high "
        "hand then its low, or give the game null if the spec deals no cards",
    ),
    DiagnosticCode.RULE_TEXT: About(
        "Rule texts (warnings: the spec still generates)",
        "a cited rule's text contradicting what the spec does, where its words can be read for sure: raises said "
        "unlimited where the spec caps them, a number of raises other than the option's default, a multiple of a "
        "blind or bet other than the amount's",
        "restate the rule in the spec's own rules, under the same id, with what the spec plays (an engine's "
        "refusal, the book and play quote it), or cite a rule of the spec's own",
    ),
}


#: Codes that report what a reader would be misled by, not what an engine would do wrong: the
#: spec still generates, and validate says them as warnings.
WARNINGS = frozenset({DiagnosticCode.RULE_TEXT})


def errors(found: list[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics among ``found`` that stop a spec (all but warnings)."""
    return [diagnostic for diagnostic in found if not diagnostic.is_warning]


def fixes(found: list[Diagnostic]) -> list[str]:
    """One line for each code among ``found``, in order of first appearance: how to fix it."""
    seen = dict.fromkeys(d.code for d in found)
    return [f"[{code}] to fix: {ABOUT[code].fix}" for code in seen]


def table() -> str:
    """docs/diagnostics.md."""
    lines = [
        "# Diagnostic codes",
        "",
        "<!-- Printed by `betspec generate` from betspec.diagnostics.ABOUT: edit that, not this. -->",
        "",
        "Every problem `betspec validate` (and `validate --deep`, `generate`, `conform` reading a case) reports is",
        "one line, `file:line:column: /json/pointer: message [code]`. The code says what kind of problem it is;",
        "the message says what is wrong and, where it can tell, what to write instead; after the problems,",
        "`betspec validate` prints how to fix each code it reported, as the last column below says.",
        "The codes are one enum, `betspec.diagnostics.DiagnosticCode`; `tests/test_diagnostic_codes.py`",
        "checks that each has its line and its fix and that the front end reports no other;",
        "`tests/fixtures/diagnostics/` holds a spec that makes each code the front end reports, and",
        "`validate` is tested to print the code and its fix for each (and for some of `--deep`'s).",
        "",
    ]
    groups: dict[str, list[tuple[DiagnosticCode, About]]] = {}
    for code, about in ABOUT.items():
        groups.setdefault(about.group, []).append((code, about))
    for group, entries in groups.items():
        lines += [f"**{group}**", "", "| code | reported for | to fix it |", "| --- | --- | --- |"]
        lines += [f"| `{code}` | {about.reported_for} | {about.fix} |" for code, about in entries]
        lines.append("")
    return "\n".join(lines)
