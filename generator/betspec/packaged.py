"""Files betspec ships beside its code: the schemas and the specs.

A regular install (a wheel) holds them as the packages ``betspec.schemas`` and ``betspec.specs``;
an editable install reads them from the source tree, whose finder does not expose a folder
without ``__init__.py`` as a package.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

SOURCE_ROOT = Path(__file__).resolve().parents[2]


def folder(package: str, source: str) -> Path:
    """The folder of ``package`` when installed, else ``source`` (relative to the source tree)."""
    try:
        found = resources.files(package)
    except ModuleNotFoundError:
        return SOURCE_ROOT / source
    return Path(str(found))


def schemas() -> Path:
    return folder("betspec.schemas", "spec/schema")


def specs() -> Path:
    """The specs betspec ships, which ``extends`` may name from any folder."""
    return folder("betspec.specs", "spec")
