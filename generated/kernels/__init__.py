"""Kernels generated from spec/*.json by `betspec generate` (typed Cython, compiled at install). Do not edit: regenerate."""
