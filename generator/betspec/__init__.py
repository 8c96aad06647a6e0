"""betspec: poker betting rules as declarative specs, compiled to state machines and diagrams."""

import os as _os

from betspec import compiled as _compiled

__version__ = "0.2.0"

# Before any engine is imported: a compiled build loads only while it matches its source.
_compiled.install()

# A house's engines beside the shipped ones, for a program (or a command's worker) started with
# BETSPEC_HOUSE=DIR in its environment (betspec.house).
if _os.environ.get("BETSPEC_HOUSE"):
    from betspec import house as _house

    _house.use_environment()
