"""Diagnostics: what the front end reports to rule authors.

Every problem found in a spec or a case is one ``Diagnostic``: where it is (file, line, column
and JSON pointer), a short code naming the kind of problem, and a message. They print as
``file:line:column: /json/pointer: message``, the format editors and CI logs understand.
"""

from __future__ import annotations

from dataclasses import dataclass

from betspec.suggest import did_you_mean


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
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.position}: {self.pointer or '/'}: {self.message} [{self.code}]"


__all__ = ["Diagnostic", "Position", "SpecError", "did_you_mean"]


class SpecError(Exception):
    """Raised when a spec or case does not pass the front end; carries every diagnostic."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = sorted(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics))
