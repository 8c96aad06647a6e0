"""The indenting writer every printing back end writes through.

Lines are written at the writer's current indentation (``with w.indented():`` goes one level
in) plus any indent given with the line; ``text`` is the file. A printer keeps no other state
about layout, and never edits what it has written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

#: One level of indentation (Python's; a TypeScript writer steps by 2).
STEP = 4


@dataclass(frozen=True)
class _Later:
    """Lines written when the file is complete, at the indentation of the place they hold."""

    level: int
    fill: Callable[[Writer], None]


class Writer:
    """Lines of generated code, written in order at an indentation the writer holds."""

    def __init__(self, level: int = 0, step: int = STEP) -> None:
        self.lines: list[str | _Later] = []
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
            if isinstance(line, _Later):
                self.lines.append(_Later(self.level + line.level, line.fill))
            else:
                self(line)

    def later(self, fill: Callable[[Writer], None]) -> None:
        """Hold this place for lines that depend on what is printed after it (a class's fields
        found in its methods): ``fill`` writes them when the file is complete, at this
        indentation. Printing stays one pass; nothing written is edited."""
        self.lines.append(_Later(self.level, fill))

    @contextmanager
    def indented(self, levels: int = 1) -> Iterator[None]:
        """Write the lines of the ``with`` block ``levels`` levels further in."""
        self.level += self.step * levels
        try:
            yield
        finally:
            self.level -= self.step * levels

    def record(
        self, items: Mapping[str, object], key: Callable[[str], str], value: Callable[[object], str], rows: str
    ) -> None:
        """The entries of a record of JSON data one level in, one a line; a list of records a
        record a line, between ``rows``' two brackets (``"()"``, ``"[]"``)."""
        with self.indented():
            for name, item in items.items():
                if isinstance(item, list) and any(isinstance(row, dict) for row in item):
                    self(f"{key(name)}: {rows[0]}")
                    with self.indented():
                        for row in item:
                            self(f"{value(row)},")
                    self(f"{rows[1]},")
                else:
                    self(f"{key(name)}: {value(item)},")

    def text(self) -> str:
        return "\n".join(self._written()).rstrip("\n") + "\n"

    def _written(self) -> Iterator[str]:
        for line in self.lines:
            if isinstance(line, _Later):
                held = Writer(line.level, self.step)
                line.fill(held)
                yield from held._written()
            else:
                yield line
