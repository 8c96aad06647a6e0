"""Issue 34, item 3: an OpenSpiel game for any spec, registered with pyspiel: chance nodes deal
the spec's own cards, OpenSpiel's own random simulation test passes on every shipped structure
with cards, an OpenSpiel solver runs on one, and what a player's information state says is what
that player may know; a state clones apart from its original."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the OpenSpiel game needs 'betspec[solvers]'")

from betspec.runtime import InvalidTable, Table, engine_class, engine_names  # noqa: E402
from betspec.tools import spiel  # noqa: E402

#: Each structure's table for the game: small stacks, small stakes.
STAKES = {
    "blinds": {"blinds": (1, 2)},
    "limit": {"blinds": (1, 2), "bets": (2, 4)},
    "stud": {"ante": 1, "bring_in": 1, "bets": (2, 4)},
}


def table(structure: str, seats: int) -> Table:
    """Small stacks and stakes; the spec's examples for the other inputs it needs (a cap)."""
    cls = engine_class(structure)
    kind = "stud" if "bring_in" in cls.INPUTS else "limit" if "bets" in cls.INPUTS else "blinds"
    return cls.example_table([40] * seats, 0, **STAKES[kind])


WITH_CARDS = [name for name in engine_names() if engine_class(name).GAME]


@pytest.mark.parametrize("structure", WITH_CARDS)
@pytest.mark.parametrize("seats", [2, 3])
def test_openspiel_s_random_simulation_test_passes(structure: str, seats: int) -> None:
    name = spiel.register(structure, table(structure, seats))
    game = pyspiel.load_game(name)
    assert game.num_players() == seats and game.get_type().short_name == name
    pyspiel.random_sim_test(game, num_sims=15, serialize=False, verbose=False)


def test_a_structure_without_cards_is_refused_by_name() -> None:
    with pytest.raises(InvalidTable, match="declares no game"):
        spiel.register("jacks_or_better", Table.of([40, 40], 0, {"ante": 1, "bets": (2, 4)}))
    with pytest.raises(InvalidTable, match="Table"):
        spiel.register("no_limit", [40, 40])  # type: ignore[arg-type]


def test_a_solver_runs_on_a_house_s_game_and_its_policy_is_legal() -> None:
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = pyspiel.load_game(spiel.register("fixed_limit", table("fixed_limit", 2)))
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(150):
        solver.iteration()
    policy = solver.average_policy()
    rng = random.Random(3)
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, chances)[0])
                continue
            probabilities = policy.action_probabilities(state)
            assert set(probabilities) == set(state.legal_actions())
            assert abs(sum(probabilities.values()) - 1) < 1e-9
            state.apply_action(rng.choice(state.legal_actions()))
        assert sum(state.returns()) == 0


def test_an_information_state_says_what_its_player_may_know() -> None:
    """Its own cards and the face-up ones, every action; another seat's hole cards never."""
    game = pyspiel.load_game(spiel.register("seven_card_stud", table("seven_card_stud", 3)))
    rng = random.Random(5)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([card for card, _ in state.chance_outcomes()]))
                continue
            player = state.current_player()
            known = state.information_state_string(player)
            for seat, up, card in state.dealt:
                assert (f"s{seat}={card}" in known) == (up or seat == player)
            clone = state.clone()
            assert clone.information_state_string(player) == known and str(clone) == str(state)
            state.apply_action(rng.choice(state.legal_actions()))
            assert clone.information_state_string(player) == known  # a clone stands apart


def test_a_process_that_registered_a_game_exits_cleanly() -> None:
    """The registry outlives the interpreter's objects: a game registered as a class (as
    OpenSpiel's own Python games are) leaves nothing for it to free after Python has finished."""
    program = (
        "import pyspiel\n"
        "from betspec.runtime import Table\n"
        "from betspec.tools import spiel\n"
        "name = spiel.register('no_limit', Table.of([40, 40], 0, {'blinds': (1, 2)}))\n"
        "pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=2, serialize=False, verbose=False)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr


def test_the_game_needs_open_spiel_alone() -> None:
    """The solvers extra brings OpenSpiel and NumPy, not the environments' PettingZoo and
    Gymnasium: the game imports without them."""
    program = "import sys\nsys.modules['pettingzoo'] = sys.modules['gymnasium'] = None\nimport betspec.tools.spiel\n"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
