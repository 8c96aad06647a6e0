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
    ``docs/diagnostics.md`` has the table of them (tests/test_diagnostic_codes.py keeps it whole)."""

    #: reading the file
    IO = "io"  # the file cannot be read, is not a regular file, is too large, or is not UTF-8
    JSON = "json"  # not JSON, empty, or nested too deeply
    DUPLICATE_KEY = "duplicate-key"  # a key given twice in one object
    TEXT = "text"  # a string holds a control character or a lone surrogate
    SCHEMA = "schema"  # the spec or case schema refuses it (a key missing, unknown or of the wrong kind)
    #: written for a language version this betspec does not read, or an older one whose upgrade rules apply
    LANGUAGE = "language"
    #: putting specs together
    EXTENDS = "extends"  # a base that cannot be found, or a circular extends
    REMOVE = "remove"  # a removal that names nothing of the bases
    AMEND = "amend"  # an amendment naming an event, entry or anchor the merged spec lacks, or ambiguously
    NAME = "name"  # a spec's name is not its file's, or a house spec takes a shipped spec's name
    #: names
    DUPLICATE_NAME = "duplicate-name"  # a name declared twice
    RESERVED_NAME = "reserved-name"  # a name generated code could not take (a keyword, a builtin, self)
    UNKNOWN_NAME = "unknown-name"  # a name, function or entry nobody declares
    UNKNOWN_VARIABLE = "unknown-variable"  # a variable the runtime does not provide
    UNKNOWN_PRIMITIVE = "unknown-primitive"  # a primitive the runtime does not have, or not declared
    UNKNOWN_ACTION = "unknown-action"  # an action the runtime does not take
    UNKNOWN_RULE = "unknown-rule"  # a rule id cited and not in the rules table
    #: expressions
    EXPRESSION = "expression"  # an expression too long, too deep, empty, on two lines, or outside the language
    SYNTAX = "syntax"  # an expression or effect that does not parse
    TYPE = "type"  # a value or expression of the wrong type
    SCOPE = "scope"  # a table expression reading what only the hand knows
    CYCLE = "cycle"  # a role or quantity depending on itself
    CONSTANT_GUARD = "constant-guard"  # a guard, check or condition the structure makes always false
    #: the machine
    MISSING = "missing"  # something the spec must say and does not (a quantity, an action, streets, a ruling's amount)
    ABSTRACT = "abstract"  # a concrete spec leaving an abstract quantity undefined
    PARAMS = "params"  # an event's parameters not those of its action
    ORDER = "order"  # a requirement reading the amount before one that does not
    DUPLICATE_TRANSITION = "duplicate-transition"  # the same transition twice
    UNREACHABLE = "unreachable"  # a state no transition reaches
    UNUSED = "unused"  # an action no transition takes
    #: playing the engine (validate --deep)
    ONLY_FOLD = "only-fold"  # a decision where only fold is legal
    BOUNDS = "bounds"  # the smallest bet or raise above the largest
    OFFERED_REFUSED = "offered-refused"  # an action offered as legal, then refused
    AFTER_THE_END = "after-the-end"  # an action or deal accepted once the hand is over
    ENDLESS = "endless"  # a hand that does not end
    STUCK = "stuck"  # nobody to act and nothing to deal
    CHIPS = "chips"  # chips created or lost
    NEVER_TAKEN = "never-taken"  # a transition no hand explored took
    NEVER_REACHED = "never-reached"  # a state no hand explored reached

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
        return f"{self.position}: {self.pointer or '/'}: {self.message} [{self.code}]"


__all__ = ["Diagnostic", "DiagnosticCode", "Position", "SpecError", "did_you_mean"]


class SpecError(Exception):
    """Raised when a spec or case does not pass the front end; carries every diagnostic."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = sorted(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))
