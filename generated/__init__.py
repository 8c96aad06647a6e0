"""Engines generated from spec/*.json by `betspec generate`. Do not edit: regenerate."""
