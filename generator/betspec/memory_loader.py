"""A loader of a module whose source is held in memory (``betspec.house.load``'s engines), in a
module of its own: importlib.abc, which it needs, loads importlib.resources, and every command
reads betspec.house."""

from __future__ import annotations

import importlib.abc
from typing import Any


class SourceLoader(importlib.abc.InspectLoader):
    """Loads a module from source text held in memory (``get_source`` lets tracebacks and
    ``inspect`` show it)."""

    def __init__(self, source: str, origin: str) -> None:
        self.source = source
        self.origin = origin

    def get_source(self, fullname: str) -> str:
        return self.source

    def get_code(self, fullname: str) -> Any:
        return compile(self.source, self.origin, "exec", dont_inherit=True)
