"""`betspec simulate`: the same totals whatever the number of workers, chips conserved."""

from __future__ import annotations

from betspec.cli import main
from betspec.simulate import simulate


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
