"""The back ends: the intermediate model turned into files. Each registers itself (see
:mod:`betspec.backends.base`); importing this package loads them all, in output order."""

from betspec.backends import dot, kernel, mermaid, python, reference, site  # noqa: F401 - importing a back end registers it
from betspec.backends.base import REGISTRY, Backend, BackendError

__all__ = ["REGISTRY", "Backend", "BackendError"]
