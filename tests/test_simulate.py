"""`betspec simulate`: the same totals whatever the number of workers, chips conserved."""

from __future__ import annotations

from betspec.cli import main
from betspec.tools.simulate import simulate


def test_totals_do_not_depend_on_the_number_of_workers() -> None:
    one, _ = simulate("pot_limit", 2500, 1, seed=7)
    two, _ = simulate("pot_limit", 2500, 2, seed=7)
    assert (one.hands, one.actions, one.chips_checked) == (two.hands, two.actions, two.chips_checked)
    assert one.hands == 2500 and one.actions > 2500


def test_simulate_command(capsys) -> None:
    assert main(["simulate", "--structure", "fixed_limit", "--hands", "300", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "1 worker(s): 300 hands" in out and "chips conserved" in out
    assert main(["simulate", "--hands", "0"]) == 2


def test_simulate_refuses_a_structure_without_an_engine(capsys) -> None:
    assert main(["simulate", "--structure", "betting_round", "--hands", "5"]) == 2
    assert "no generated engine for structure 'betting_round'" in capsys.readouterr().out


def test_workers_are_bounded_by_the_work_and_the_cores(capsys) -> None:
    from betspec.tools.simulate import CHUNK, bounded_workers, default_workers

    assert bounded_workers(300, 2000) == 1  # one chunk of work: one process
    assert bounded_workers(300, 100 * CHUNK) == min(300, 4 * default_workers())
    assert main(["simulate", "--hands", "200", "--workers", "300"]) == 0
    assert "300 workers asked: 1 started" in capsys.readouterr().out


def test_the_work_is_streamed_not_built_whole() -> None:
    from betspec.tools.simulate import chunk_size, chunks

    work = chunks("no_limit", 10**18, 1, {})  # a list of these would not fit in memory
    first, second = next(work), next(work)
    assert first[2] == second[2] == chunk_size(10**18) and first[1] != second[1]


def test_progress_lines_when_not_a_terminal(capsys) -> None:
    from betspec.cli import _progress

    with _progress(100, "1 worker(s)", every=0.0) as report:
        report(40)
        report(100)  # the end is said by the summary line, not by progress
    assert capsys.readouterr().out == "  1 worker(s): 40 of 100 hands (40%), 0 s\n"
