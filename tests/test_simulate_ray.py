"""simulate's chunks on Ray (the `ray` extra): a local two-worker cluster plays the same hands,
to the same totals, as the local process pool."""

from __future__ import annotations

import pytest

from betspec.cli import main
from betspec.tools.simulate import SimulateError, simulate

ray = pytest.importorskip("ray")


def test_two_ray_workers_total_what_one_process_totals() -> None:
    local, _ = simulate("no_limit", 8000, 1, seed=7)
    on_ray, _ = simulate("no_limit", 8000, 2, seed=7, backend="ray")
    assert on_ray == local and local.hands == 8000 and local.actions > 8000
    assert not ray.is_initialized()  # the cluster it started is shut down


def test_the_command_runs_on_ray(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--structure", "fixed_limit", "--hands", "4000", "--workers", "2", "--on", "ray"]) == 0
    out = capsys.readouterr().out
    assert "2 worker(s): 4,000 hands" in out and "chips conserved" in out


def test_an_unknown_backend_is_a_clear_error() -> None:
    with pytest.raises(SimulateError, match="no simulate backend 'spark'"):
        simulate("no_limit", 10, 1, backend="spark")
