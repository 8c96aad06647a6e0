"""betspec: poker betting rules as declarative specs, compiled to state machines and diagrams."""

from betspec import compiled as _compiled

__version__ = "0.1.0"

# Before any engine is imported: a compiled build loads only while it matches its source.
_compiled.install()
