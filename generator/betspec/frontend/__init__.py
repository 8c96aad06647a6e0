"""The front end: JSON with positions -> schema check -> meaning check -> :class:`betspec.model.Spec`."""

from __future__ import annotations

from betspec.diagnostics import Diagnostic
from betspec.frontend import checker, loader
from betspec.model import Spec


def load_spec(path: str) -> tuple[Spec | None, list[Diagnostic]]:
    """The checked model of the spec at ``path``, or None with every problem found."""
    merged, diagnostics = loader.load(path)
    if merged is None:
        return None, sorted(set(diagnostics))
    spec, meaning = checker.check(merged)
    found = sorted(set(diagnostics) | set(meaning))
    return (spec if not found else None), found
