"""Moved to :mod:`betspec.tools.play`: this name stays for imports written before, as the very same module."""

import sys

from betspec.tools import play as _moved

sys.modules[__name__] = _moved
