"""Package attributes imported when first read (PEP 562), for packages whose names live in
modules a caller may not need: a command that reads the runtime's errors does not load the
engine, one that reads a hand history does not load the auditor."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any


def attributes(
    package: str, homes: Mapping[str, str], namespace: dict[str, Any], parts: Iterable[str] = ()
) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: a name of ``homes`` read from its module (and
    kept in ``namespace``, the package's globals, so it is looked up once), a name of ``parts``
    the submodule itself."""
    submodules = frozenset(parts)

    def __getattr__(name: str) -> Any:
        if name in submodules:
            return importlib.import_module(f"{package}.{name}")
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        namespace[name] = value
        return value

    return __getattr__
