"""The front end: JSON with positions -> schema check -> meaning check -> :class:`betspec.model.Spec`."""

from __future__ import annotations

import os

from betspec.diagnostics import Diagnostic, DiagnosticCode, errors
from betspec.frontend import checker, loader
from betspec.model import Spec


def load_spec(path: str) -> tuple[Spec | None, list[Diagnostic]]:
    """The checked model of the spec at ``path``, or None with every problem found."""
    merged, diagnostics = loader.load(path)
    if merged is None:
        return None, sorted(set(diagnostics) | set(_upgradable(path, errors(diagnostics))))
    spec, meaning = checker.check(merged)
    found = sorted(set(diagnostics) | set(meaning))
    found = sorted(set(found) | set(_upgradable(path, errors(found))))
    return (spec if not errors(found) else None), found


def _upgradable(path: str, found: list[Diagnostic]) -> list[Diagnostic]:
    """When a spec written for an older language has problems and the upgrade rules rewrite some
    of it, one more diagnostic, at its spec_version, says so: the problems may be what changed."""
    if not found or any(d.code == DiagnosticCode.LANGUAGE for d in found):
        return []
    from betspec import upgrade

    done, _ = upgrade.upgrade_file(path)
    if done is None or done.version is None:
        return []
    rules = sorted({change.rule for change in done.changes if change.rule != "version"})
    if not rules and not done.left:
        return []
    named = ", ".join(rules) if rules else "none that rewrite it"
    shown = os.path.relpath(path)
    shown = path if shown.startswith("..") else shown
    message = (
        f"written for spec language {done.version}: `betspec upgrade {shown}` shows what changed "
        f"since ({named}; {len(done.left)} thing(s) to rewrite by hand), --write writes it (docs/language.md)"
    )
    doc = loader.read(path)[0]
    position = doc.at("/spec_version") if doc is not None else found[0].position
    return [Diagnostic(position, "/spec_version", DiagnosticCode.LANGUAGE, message)]
