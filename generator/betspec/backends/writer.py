"""The indenting writer every printing back end writes through.

Lines are written at the writer's current indentation (``with w.indented():`` goes one level
in) plus any indent given with the line; ``text`` is the file. A printer keeps no other state
about layout, and never edits what it has written.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

#: One level of indentation (Python's; a TypeScript writer steps by 2).
STEP = 4


class Writer:
    """Lines of generated code, written in order at an indentation the writer holds."""

    def __init__(self, level: int = 0, step: int = STEP) -> None:
        self.lines: list[str] = []
        self.level = level
        self.step = step

    def __call__(self, line: str = "", indent: int = 0) -> None:
        """Write ``line`` at the current indentation plus ``indent`` spaces (a blank line stays blank)."""
        self.lines.append(" " * (self.level + indent) + line if line else "")

    def block(self, text: str, indent: int = 0) -> None:
        """Write each line of ``text`` (another writer's output) at this indentation."""
        for line in text.split("\n"):
            self(line, indent)

    def extend(self, other: Writer) -> None:
        """Write ``other``'s lines as they are, at this writer's indentation."""
        for line in other.lines:
            self(line)

    @contextmanager
    def indented(self, levels: int = 1) -> Iterator[None]:
        """Write the lines of the ``with`` block ``levels`` levels further in."""
        self.level += self.step * levels
        try:
            yield
        finally:
            self.level -= self.step * levels

    def text(self) -> str:
        return "\n".join(self.lines).rstrip("\n") + "\n"
