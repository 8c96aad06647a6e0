"""The language's own files in a project: its versions' schemas in ``spec/schema/`` (the newest
as ``spec.schema.json``, which a house's specs name in ``$schema`` so that an editor checks and
completes them as they are typed; each version's as ``spec-MAJOR.MINOR.schema.json``; the schemas
of a case, a session and a session case), ``docs/language.md``, what each version changed for an author, and
``docs/diagnostics.md``, what each diagnostic code is reported for and how to fix it.

In betspec's own project these are the schemas themselves, written back as they are read; in a
house they are copies of the betspec that generates it, so that they follow an upgrade.
"""

from __future__ import annotations

from collections.abc import Sequence

from betspec import diagnostics, language, packaged
from betspec.backends.base import Context, register
from betspec.model import Spec

SCHEMAS = "spec/schema"
NEWEST = packaged.SPEC_SCHEMA
CASES = packaged.CASE_SCHEMA


def versioned(newest: str, version: language.Version) -> str:
    """The newest schema's text as ``version``'s published copy: its own ``$id`` and title."""
    return newest.replace(f'"$id": "{language.SCHEMA_ID}"', f'"$id": "{version.schema_id}"', 1).replace(
        '"title": "betspec betting-structure spec, the newest language version"',
        f'"title": "betspec betting-structure spec, language version {version}"',
        1,
    )


class LanguageBackend:
    name = "language"
    owns: tuple[tuple[str, tuple[str, ...]], ...] = (
        (SCHEMAS, (".schema.json",)),
        ("docs", ("language.md", "diagnostics.md")),
    )

    def render(self, specs: Sequence[Spec], root: str, context: Context | None = None) -> dict[str, str]:
        folder = packaged.schemas()
        newest = (folder / NEWEST).read_text(encoding="utf-8")
        current = language.current()
        files = {f"{SCHEMAS}/{NEWEST}": newest}
        for name in (CASES, packaged.SESSION_SCHEMA, packaged.SESSION_CASE_SCHEMA):
            files[f"{SCHEMAS}/{name}"] = (folder / name).read_text(encoding="utf-8")
        for release in language.releases():
            name = release.version.schema_file
            # The newest version's copy is printed from the schema; an older one is frozen as published.
            text = versioned(newest, current) if release.version == current else (folder / name).read_text("utf-8")
            files[f"{SCHEMAS}/{name}"] = text
        files["docs/language.md"] = language.changelog()
        files["docs/diagnostics.md"] = diagnostics.table()
        return files


BACKEND = register(LanguageBackend())
