"""The spec language's versions (``language.json``): which one a spec was written for, which ones
this betspec reads, what each changed for an author, and the upgrade rules of the changes that
break a spec written before them (applied by :mod:`betspec.upgrade`).

The language has a version of its own, ``MAJOR.MINOR``, apart from betspec's: a spec says the
one it was written for in ``spec_version`` (the integer 1 of every spec before minor versions
were numbered is 1.0).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

#: How a version is written in a spec: MAJOR.MINOR, no leading zero.
WRITTEN = re.compile(r"([1-9][0-9]{0,3})\.(0|[1-9][0-9]{0,3})")
#: The stable address of the newest schema; each version's copy is spec-MAJOR.MINOR.schema.json.
SCHEMA_ID = "https://betspec.dev/schema/spec.schema.json"


@dataclass(frozen=True, order=True)
class Version:
    major: int
    minor: int

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"

    @property
    def schema_file(self) -> str:
        """The file name of this version's published schema."""
        return f"spec-{self}.schema.json"

    @property
    def schema_id(self) -> str:
        return SCHEMA_ID.replace("spec.schema.json", self.schema_file)


def parse(value: object) -> Version | None:
    """The version a spec_version says (1 is 1.0), or None when it says none betspec knows the form of."""
    if value == 1 and type(value) is int:
        return Version(1, 0)
    if isinstance(value, str):
        match = WRITTEN.fullmatch(value)
        if match is not None:
            return Version(int(match.group(1)), int(match.group(2)))
    return None


@dataclass(frozen=True)
class Release:
    """One version of the language: the betspec that brought it and what changed for authors."""

    version: Version
    betspec: str
    added: tuple[str, ...]
    changed: tuple[str, ...]
    removed: tuple[str, ...]


@cache
def _data() -> dict[str, Any]:
    # Beside this module, as betspec.packaged reads the schemas: importlib.resources would load
    # importlib.abc (8 ms) into every command that reads a spec.
    found: dict[str, Any] = json.loads(Path(__file__).with_name("language.json").read_text(encoding="utf-8"))
    return found


def current() -> Version:
    """The newest version this betspec reads (and writes)."""
    found = parse(_data()["current"])
    assert found is not None  # language.json is betspec's own, checked by its tests
    return found


def releases() -> tuple[Release, ...]:
    """Every version, newest first."""
    out = []
    for entry in _data()["versions"]:
        version = parse(entry["version"])
        assert version is not None
        out.append(
            Release(version, entry["betspec"], tuple(entry["added"]), tuple(entry["changed"]), tuple(entry["removed"]))
        )
    return tuple(out)


def policy() -> str:
    return str(_data()["policy"])


def upgrades() -> tuple[dict[str, Any], ...]:
    """The upgrade rules, as language.json writes them (:mod:`betspec.upgrade` reads their ops)."""
    return tuple(_data()["upgrades"])


def reads(version: Version) -> bool:
    """Whether this betspec reads a spec written for ``version``: same major, minor not newer."""
    newest = current()
    return version.major == newest.major and version.minor <= newest.minor


def changelog() -> str:
    """docs/language.md: the versions and what each changed for a spec's author."""
    lines = [
        "# The spec language's versions",
        "",
        "<!-- Printed by `betspec generate` from generator/betspec/language.json: edit that, not this. -->",
        "",
        policy(),
        "",
        f"The newest version is {current()}. Its schema's stable address is `{SCHEMA_ID}`; each version's",
        "schema is published beside it in `spec/schema/` (and in the package, `betspec.schemas`).",
        "",
    ]
    for release in releases():
        lines += [
            f"## {release.version} (betspec {release.betspec})",
            "",
            f"Schema: `spec/schema/{release.version.schema_file}`.",
            "",
        ]
        for title, entries in (("Added", release.added), ("Changed", release.changed), ("Removed", release.removed)):
            if entries:
                lines += [f"**{title}**", ""]
                lines += [f"- {entry}" for entry in entries]
                lines.append("")
    lines += [
        "## Upgrade rules",
        "",
        "What `betspec upgrade` rewrites in a spec or case written for a version before the one named.",
        "",
    ]
    lines += ["| rule | before | what changed |", "| --- | --- | --- |"]
    for rule in upgrades():
        lines.append(f"| `{rule['id']}` | {rule['before']} | {rule['change']} |")
    return "\n".join(lines) + "\n"
