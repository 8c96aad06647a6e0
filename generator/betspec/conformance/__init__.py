"""Conformance cases (the format of docs/cases.md), run through the generated engines."""
