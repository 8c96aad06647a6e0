"""Which modules run compiled, and the guard that never lets a stale build run.

Nothing is compiled at install. ``betspec build`` (:mod:`betspec.build`), or the first import of
a kernel (:func:`betspec.build.first_use`: at a terminal, or with ``BETSPEC_COMPILE=1``), compiles
a module with Cython into a per-user cache, under the sha256 of what it is compiled from
(:func:`key`: the module's name, its source and, for a kernel, the runtime's declarations it is
typed against)::

    $BETSPEC_CACHE or $XDG_CACHE_HOME/betspec or ~/.cache/betspec
        /<the interpreter's tag: cpython-311-x86_64-linux-gnu>/<key>/<module's leaf><suffix>

The finder installed here answers for every module betspec compiles (:data:`RUNTIME`, and every
module of :data:`PACKAGES`: the generated engines and kernels, a house's included, since a house
adds its folders to those packages): it finds the source, computes its key and loads the build
of that key when the cache holds one. So a build is loaded exactly while its source is the one
it was built from: regenerate an engine or edit the runtime, and the Python source runs (a
kernel, whose source is Cython, is not loaded at all) until it is built again. A compiled module
left beside its source by an older install is never loaded. ``BETSPEC_PURE=1`` loads every
source as Python and no kernel. :func:`betspec.runtime.compiled` says what an engine runs on.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

#: The runtime's modules compiled by Cython, as Python (the engine and what it calls per action)
#: and, for ``kernel``, as typed Cython.
RUNTIME = (
    "betspec.runtime.engine",
    "betspec.runtime.batch",
    "betspec.runtime.table",
    "betspec.runtime.functions",
    "betspec.runtime.kernel",
)
#: The packages whose every module is compiled: the generated engines and their kernels.
PACKAGES = ("betspec.engines", "betspec.engines.kernels")
#: What every kernel is typed against (``cimport betspec.runtime.kernel``): part of a kernel's key.
DECLARATIONS = Path(__file__).resolve().parent / "runtime" / "kernel.pxd"
#: Changed when how a module is compiled changes (Cython's directives, the compiler's flags).
FORMAT = "betspec-build-2"
#: A compiled module's file name ends so: ``.cpython-311-x86_64-linux-gnu.so`` (the importer's own
#: first suffix, the one a build gets; read without ``sysconfig``, whose data an import would load).
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def pure() -> bool:
    """``BETSPEC_PURE`` set (and not ``0``): every source runs as Python, no kernel loads."""
    return os.environ.get("BETSPEC_PURE", "") not in ("", "0")


def cache() -> Path:
    """This interpreter's folder of the build cache (nothing is created)."""
    root = os.environ.get("BETSPEC_CACHE", "")
    if not root:
        base = os.environ.get("XDG_CACHE_HOME", "") or (
            os.environ.get("LOCALAPPDATA", "") if sys.platform == "win32" else ""
        )
        root = os.path.join(base or os.path.join(os.path.expanduser("~"), ".cache"), "betspec")
    tag = SUFFIX.lstrip(".").rpartition(".")[0] or sys.implementation.cache_tag
    return Path(root) / tag


def key(module: str, source: str | os.PathLike[str]) -> str:
    """The sha256 a build of ``module`` from ``source`` is cached under: of the module's name, the
    source and, for a kernel (a ``.pyx``), the declarations it is compiled against."""
    import hashlib  # here, as subprocess below: `import betspec` (every command) reads this module

    digest = hashlib.sha256(f"{FORMAT}\0{module}\0".encode())
    with open(source, "rb") as handle:
        digest.update(handle.read())
    if str(source).endswith(".pyx"):
        digest.update(b"\0")
        digest.update(DECLARATIONS.read_bytes())
    return digest.hexdigest()


def build_path(module: str, source: str | os.PathLike[str]) -> Path:
    """Where the build of ``module`` from ``source`` is, or goes, in the cache."""
    return cache() / key(module, source) / (module.rpartition(".")[2] + SUFFIX)


def managed(module: str) -> bool:
    """Whether betspec compiles ``module`` (the finder answers for it)."""
    return module in RUNTIME or module.rpartition(".")[0] in PACKAGES


def source_of(module: str, path: Sequence[str] | None = None) -> Path | None:
    """The source ``module`` is compiled from: its ``.py`` or ``.pyx`` in its package's folders
    (``path``, else found without importing the module itself), or None."""
    package, _, leaf = module.rpartition(".")
    if path is None:
        try:
            found = importlib.util.find_spec(package) if package else None
        except (ImportError, ValueError):
            found = None
        path = list(found.submodule_search_locations or []) if found is not None else []
    for entry in path:
        for suffix in (".py", ".pyx"):
            candidate = Path(entry) / (leaf + suffix)
            if candidate.is_file():
                return candidate
    return None


if TYPE_CHECKING:
    from importlib.abc import Loader as _Loader
    from importlib.abc import MetaPathFinder as _Finder
else:
    # The import system asks only for these methods; importlib.abc would load importlib.resources
    # (8 ms) into every command, since `import betspec` installs the finder.
    _Loader = _Finder = object


class _NotBuilt(_Loader):
    """The loader of a kernel not built from its source, or not wanted: a kernel is C only (its
    source is Cython), so there is nothing to load instead, and the caller plays Python."""

    def __init__(self, why: str) -> None:
        self.why = why

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        raise ImportError(f"{spec.name} {self.why}", name=spec.name)

    def exec_module(self, module: ModuleType) -> None:  # pragma: no cover - create_module raised
        raise ImportError(module.__name__)


class _Built(importlib.machinery.ExtensionFileLoader):
    """Loads a build from the cache, and notes on the module the source it was built from
    (``__betspec_source__``): its ``__file__`` is the build's, in the cache."""

    def __init__(self, fullname: str, path: str, source: str) -> None:
        super().__init__(fullname, path)
        self.source = source

    def exec_module(self, module: ModuleType) -> None:
        super().exec_module(module)
        module.__betspec_source__ = self.source  # type: ignore[attr-defined]


class FreshOnly(_Finder):
    """Imports a compiled module only when the cache holds a build of its very source; else its
    Python source, or for a kernel (built from a ``.pyx`` source) nothing at all."""

    def __init__(self, pure: bool = False) -> None:
        self.pure = pure

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if path is None or not managed(fullname):
            return None
        source = source_of(fullname, path)
        if source is None:
            return None
        built = build_path(fullname, source)
        if not self.pure and built.is_file():
            return self._built(fullname, built, source)
        if source.suffix == ".py":
            # Named explicitly: a compiled module an older install left beside it is not loaded.
            return importlib.util.spec_from_file_location(fullname, str(source))
        if not self.pure and _first_use(fullname, source) and built.is_file():
            return self._built(fullname, built, source)
        why = "is not loaded (BETSPEC_PURE)" if self.pure else "is not compiled from its source (betspec build)"
        return importlib.util.spec_from_loader(fullname, _NotBuilt(why), origin=str(source))

    @staticmethod
    def _built(fullname: str, built: Path, source: Path) -> importlib.machinery.ModuleSpec | None:
        loader = _Built(fullname, str(built), str(source))
        return importlib.util.spec_from_file_location(fullname, str(built), loader=loader)


#: Kernels this process has tried to compile on first use (each is tried once).
_TRIED: set[str] = set()
#: Why no kernel is compiled on first use here, once said (not at a terminal, no compiler): said
#: once a process, and no kernel is tried again.
_SAID: list[str] = []


def compile_on_first_use() -> bool:
    """Whether a kernel not yet built is compiled when first imported: ``BETSPEC_COMPILE=1``
    yes, ``0`` no, unset when standard error is a terminal (a user sees the progress)."""
    setting = os.environ.get("BETSPEC_COMPILE", "")
    if setting in ("0", "1"):
        return setting == "1"
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (OSError, ValueError):
        return False


def _say(line: str) -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(line, file=sys.stderr, flush=True)


def _first_use(module: str, source: Path) -> bool:
    """A kernel's first import: compiled now where it may be (:func:`compile_on_first_use`), by
    ``betspec.build`` in a process of its own that says what it does on standard error; whether
    it is built. Where it may not be, or cannot be (no compiler), says once a process why not
    (the caller plays the Python engine) and tries no kernel again."""
    if module in _TRIED or _SAID or os.environ.get("BETSPEC_COMPILE", "") == "0":
        return False
    _TRIED.add(module)
    if not compile_on_first_use():
        _SAID.append("not at a terminal")
        leaf = module.rpartition(".")[2]
        what = "the kernels' runtime" if module in RUNTIME else f"the {leaf} kernel"
        _say(
            f"betspec: {what} is not compiled here: the Python engine plays its hands (the same hands, slower);"
            " `betspec build` compiles the kernels once (BETSPEC_COMPILE=1 compiles on first use)"
        )
        return False
    import subprocess

    try:
        done = subprocess.run(
            [sys.executable, "-m", "betspec.build", "--first-use", module, str(source)],
            stdout=subprocess.DEVNULL,
            env={**os.environ, "BETSPEC_COMPILE": "0"},
            check=False,
        )
    except OSError as exc:  # pragma: no cover - no interpreter to run: nothing can be built
        _SAID.append(str(exc))
        _say(f"betspec: the kernels cannot be compiled here ({exc}): the Python engines play")
        return False
    if done.returncode == 3:  # no compiler (said by the build): not tried again
        _SAID.append("no compiler")
    importlib.invalidate_caches()
    return done.returncode == 0


def install() -> None:
    """Put the finder first, once."""
    if not any(isinstance(f, FreshOnly) for f in sys.meta_path):
        sys.meta_path.insert(0, FreshOnly(pure()))
