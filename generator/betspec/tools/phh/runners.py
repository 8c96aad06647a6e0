"""Where `betspec phh check` runs its workers: read by the command line (its choices) and the
audit (which runs them), each without loading the other."""

from __future__ import annotations

#: Processes on this machine, or Ray tasks on a cluster.
BACKENDS = ("processes", "ray")
