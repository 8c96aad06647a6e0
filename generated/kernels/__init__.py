"""Kernels generated from spec/*.json by `betspec generate` (typed Cython, compiled by `betspec build` or on first use). Do not edit: regenerate."""
