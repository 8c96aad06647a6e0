"""A Ray session for the tools that share out work over a cluster (``simulate``, ``phh check``).

Ray is the ``ray`` extra: imported only here, when asked for. A session started here (no
cluster was running in this process) is shut down when the work is done."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def ray_session(workers: int, address: str | None, error: Callable[[str], Exception]) -> Iterator[Any]:
    """Ray, connected to the cluster at ``address`` or to a local one of ``workers`` CPUs; what
    cannot be had (no Ray, no cluster) is ``error``'s one-line error."""
    try:
        import ray
    except ImportError:
        raise error("the ray backend needs Ray: pip install 'betspec[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        try:
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise error(f"cannot reach the Ray cluster: {exc}") from None
    try:
        yield ray
    finally:
        if started_here:
            ray.shutdown()


def cluster_cpus(ray: Any, fallback: int) -> int:
    """The CPUs the cluster has (``fallback`` when it does not say)."""
    resources: Callable[[], dict[str, float]] = ray.cluster_resources  # untyped in Ray
    return int(resources().get("CPU", fallback))
