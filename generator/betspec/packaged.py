"""Files betspec ships beside its code: the schemas and the specs.

A regular install (a wheel) holds them as the packages ``betspec.schemas`` and ``betspec.specs``,
folders with no ``__init__.py`` (namespace packages: ``importlib.resources`` gives them as a
``MultiplexedPath``, which is no file-system path, so their folder is read from the import
system's own record of where the package lies); an editable install reads them from the source
tree, whose finder does not expose a folder without ``__init__.py`` as a package.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

SOURCE_ROOT = Path(__file__).resolve().parents[2]
#: The newest spec schema and the case schema, in schemas().
SPEC_SCHEMA = "spec.schema.json"
CASE_SCHEMA = "case.schema.json"
#: The schemas of a session spec and of a session case (docs/sessions.md), in schemas().
SESSION_SCHEMA = "session.schema.json"
SESSION_CASE_SCHEMA = "session-case.schema.json"


def folder(package: str, source: str) -> Path:
    """The folder of ``package`` when installed, else ``source`` (relative to the source tree)."""
    try:
        found = importlib.util.find_spec(package)
    except ImportError:
        found = None
    for location in (found.submodule_search_locations or []) if found is not None else []:
        if Path(location).is_dir():
            return Path(location)
    return SOURCE_ROOT / source


def schemas() -> Path:
    return folder("betspec.schemas", "spec/schema")


def specs() -> Path:
    """The specs betspec ships, which ``extends`` may name from any folder."""
    return folder("betspec.specs", "spec")
