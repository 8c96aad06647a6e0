"""Build hook: the compiled engines.

Everything else about the package is in pyproject.toml. Where Cython and a C compiler are
present, the runtime's engine (``betspec.runtime.engine``) and every generated engine
(``betspec.engines.<spec>``) are also compiled, from the very sources the Python engines run
(committed and byte-stable like every generated file), and each source's sha256 is recorded in
``betspec/compiled.json``: :mod:`betspec.compiled` loads a compiled module only while its source
is the one it was built from. A failed compilation leaves the Python engine (``optional=True``);
``BETSPEC_COMPILE=0`` skips compiling.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = "compiled.json"


def _sources() -> dict[str, str]:
    """Module name -> its source, relative to this folder."""
    found = {
        "betspec.runtime.engine": "generator/betspec/runtime/engine.py",
        "betspec.runtime.batch": "generator/betspec/runtime/batch.py",
        "betspec.runtime.table": "generator/betspec/runtime/table.py",
        "betspec.runtime.functions": "generator/betspec/runtime/functions.py",
    }
    for name in sorted(os.listdir(os.path.join(HERE, "generated"))):
        if name.endswith(".py") and not name.startswith("_"):
            found[f"betspec.engines.{name[:-3]}"] = f"generated/{name}"
    return found


def _kernels() -> dict[str, str]:
    """Module name -> its Cython source: the typed runtime and each spec's kernel."""
    found = {"betspec.runtime.kernel": "generator/betspec/runtime/kernel.pyx"}
    folder = os.path.join(HERE, "generated", "kernels")
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
        if name.endswith(".pyx"):
            found[f"betspec.engines.kernels.{name[:-4]}"] = f"generated/kernels/{name}"
    return found


def _extensions() -> list[Extension]:
    if os.environ.get("BETSPEC_COMPILE", "1") == "0":
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    # Each source's digest is taken before it is translated: a source edited while the build runs
    # is then not the one the manifest names, and the finder loads it as Python.
    _DIGESTS.update((module, _digest(path)) for module, path in {**_sources(), **_kernels()}.items())
    extensions = [Extension(module, [path], optional=True) for module, path in _sources().items()]
    compiled = list(
        cythonize(
            extensions,
            build_dir="build/cython",
            language_level=3,
            quiet=True,
            nthreads=os.cpu_count() or 1,
            # Compiled as Python: the same semantics, introspection and errors as the sources.
            compiler_directives={"binding": True, "annotation_typing": False},
        )
    )
    # The kernels: typed Cython, C semantics where their sources declare C types.
    kernels = [Extension(module, [path], optional=True) for module, path in _kernels().items()]
    compiled += cythonize(
        kernels,
        build_dir="build/cython",
        language_level=3,
        quiet=True,
        nthreads=os.cpu_count() or 1,
        include_path=[os.path.join(HERE, "generator")],
    )
    for extension in compiled:
        extension.optional = True  # cythonize makes new Extensions: keep them optional
    return compiled


#: Module name -> the sha256 of the source it is compiled from, taken when the build starts.
_DIGESTS: dict[str, str] = {}


def _digest(path: str) -> str:
    with open(os.path.join(HERE, path), "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


class BuildCompiled(build_ext):
    """build_ext where a module that fails to compile stays Python, then the manifest of what was
    compiled, from which source."""

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # no compiler, no headers, a compiler error: the Python engine runs
            print(f"betspec: {ext.name} not compiled, its Python source runs ({exc})", file=sys.stderr)

    def initialize_options(self) -> None:
        super().initialize_options()
        self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        super().run()
        built = {
            ext.name: _DIGESTS[ext.name]
            for ext in self.extensions
            if ext.name in _DIGESTS and os.path.exists(self.get_ext_fullpath(ext.name))
        }
        package = os.path.dirname(self.get_ext_fullpath("betspec.x"))
        os.makedirs(package, exist_ok=True)
        with open(os.path.join(package, MANIFEST), "w", encoding="utf-8") as handle:
            json.dump(built, handle, indent=1, sort_keys=True)
            handle.write("\n")


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildCompiled})
