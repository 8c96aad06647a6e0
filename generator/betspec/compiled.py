"""Which modules run compiled, and the guard that never lets a stale build run.

At install, ``setup.py`` compiles the runtime's engine and every generated engine with Cython
where it can, and records the sha256 of each source in ``betspec/compiled.json``. A compiled
module sits beside its source and Python's importer prefers it; the finder installed here lets
it load only while the source beside it is still the one it was built from. Regenerate an engine
or edit the runtime, and the Python source is loaded instead until the next build (``pip install
-e .`` again): same behaviour, Python speed, never old rules. ``BETSPEC_PURE=1`` loads every
source as Python. :func:`betspec.runtime.compiled` says what a given engine class runs on.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from types import ModuleType

#: The manifest the build writes beside this module: module name -> sha256 of its source.
MANIFEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "compiled.json")


def built() -> dict[str, str]:
    """What the last build compiled (empty when nothing was, or no build ran)."""
    try:
        with open(MANIFEST, encoding="utf-8") as handle:
            found = json.load(handle)
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


def _digest(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


class _NotBuilt(importlib.abc.Loader):
    """The loader of a kernel whose build is stale or not wanted: a kernel is C only (its
    source is Cython), so there is nothing to load instead, and the caller plays Python."""

    def __init__(self, why: str) -> None:
        self.why = why

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        raise ImportError(f"{spec.name} {self.why}", name=spec.name)

    def exec_module(self, module: ModuleType) -> None:  # pragma: no cover - create_module raised
        raise ImportError(module.__name__)


class FreshOnly(importlib.abc.MetaPathFinder):
    """Imports a compiled module only when its source is the one it was built from; a kernel
    (built from a ``.pyx`` source, with no Python source to fall back on) not at all otherwise."""

    def __init__(self, manifest: dict[str, str], pure: bool) -> None:
        self.manifest = manifest
        self.pure = pure

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.manifest:
            return self._unlisted_kernel(fullname, path)
        leaf = fullname.rpartition(".")[2]
        for entry in path or sys.path:
            source = os.path.join(entry, leaf + ".py")
            if os.path.exists(source):
                if not self.pure and _digest(source) == self.manifest[fullname]:
                    return None  # the default finders load the compiled build beside it
                return importlib.util.spec_from_file_location(fullname, source)
            cython = os.path.join(entry, leaf + ".pyx")
            if os.path.exists(cython):
                if self.pure:
                    return importlib.util.spec_from_loader(fullname, _NotBuilt("is not loaded (BETSPEC_PURE)"))
                if _digest(cython) != self.manifest[fullname]:
                    return importlib.util.spec_from_loader(fullname, _NotBuilt("was built from another source"))
                return None
        return None


    def _unlisted_kernel(
        self, fullname: str, path: Sequence[str] | None
    ) -> importlib.machinery.ModuleSpec | None:
        """A kernel the last build did not compile (a build of it left from before may sit
        beside its source): not loaded."""
        if not fullname.startswith("betspec.") or path is None:
            return None
        leaf = fullname.rpartition(".")[2]
        if any(os.path.exists(os.path.join(entry, leaf + ".pyx")) for entry in path):
            return importlib.util.spec_from_loader(fullname, _NotBuilt("was not compiled by the last build"))
        return None


def install() -> None:
    """Put the finder first, once, when a build compiled anything."""
    manifest = built()
    if manifest and not any(isinstance(f, FreshOnly) for f in sys.meta_path):
        sys.meta_path.insert(0, FreshOnly(manifest, os.environ.get("BETSPEC_PURE", "") not in ("", "0")))
