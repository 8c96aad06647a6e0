"""Conformance cases: the contract of shared/conformance-cases.md, run through the generated engines."""
