"""Near names for messages ("did you mean ..."): shared by the front end and the runtime."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """A " (did you mean 'x'?)" suffix when a near name exists, else an empty string."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
