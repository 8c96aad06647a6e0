"""betspec: poker betting rules as declarative specs, compiled to state machines and diagrams."""

__version__ = "0.1.0"
