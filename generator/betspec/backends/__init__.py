"""The back ends: the intermediate model turned into files. Each registers itself (see
:mod:`betspec.backends.base`); importing this package loads them all, in output order."""

from betspec.backends import cython, dot, language, mermaid, python, reference, sessions, site, typescript  # noqa: F401 - importing a back end registers it
from betspec.backends.base import REGISTRY, Backend, BackendError

#: The order back ends write their files in (an engine before its kernel); a back end
#: registered by anyone else comes after these.
ORDER = ("dot", "python", "cython", "typescript", "mermaid", "reference", "site", "language")
REGISTRY.sort(key=lambda backend: ORDER.index(backend.name) if backend.name in ORDER else len(ORDER))

__all__ = ["ORDER", "REGISTRY", "Backend", "BackendError"]
