"""Kuhn poker and Leduc hold'em written as betspec specs (docs/examples/solvers: their decks,
antes, bet sizes and raise caps; Leduc's pair over a high card), checked against what OpenSpiel
computes on its own kuhn_poker and leduc_poker (issue 34, item 4): the same game trees and
information states, and CFR giving the same exploitability at every iteration and Kuhn's known
value (the first player loses 1/18 a hand).

Each spec is loaded as a house's author would (its own folder, generated there), and its OpenSpiel
game is ``betspec.tools.spiel``'s: the cards are chance nodes dealt from the spec's own deck, the
showdown is ranked by the spec's own hand kind, the betting is the engine's.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy as policy_lib  # noqa: E402
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability, get_all_states  # noqa: E402

from betspec import cards, house  # noqa: E402
from betspec.runtime import Table, engine_class  # noqa: E402
from betspec.tools import spiel  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SOLVERS = ROOT / "docs" / "examples" / "solvers"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The solvers' house copied to a folder of its own and generated there."""
    from betspec.cli import main

    root = tmp_path_factory.mktemp("solvers") / "solvers"
    shutil.copytree(SOLVERS, root)
    assert main(["--root", str(root), "generate"]) == 0
    return root


@pytest.fixture(scope="module")
def games(folder: Path) -> dict[str, Any]:
    """Each spec's OpenSpiel game (100 chips a seat, as OpenSpiel's Leduc; the first player the
    seat after the button) beside OpenSpiel's own."""
    with house.active(str(folder)):
        ours = {
            name: pyspiel.load_game(spiel.register(engine_class(name), Table.of([100, 100], 1, {})))
            for name in ("kuhn_poker", "leduc_holdem")
        }
    return {
        "kuhn_poker": (ours["kuhn_poker"], pyspiel.load_game("kuhn_poker")),
        "leduc_holdem": (ours["leduc_holdem"], pyspiel.load_game("leduc_poker")),
    }


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    from betspec.cli import main

    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_the_solver_games_validate_deep_and_pass_their_cases(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "--root", str(folder), "validate", "--deep")
    assert status == 0 and out.count("; played)") == 2 and "abstract base" in out, out
    status, out = run(capsys, "--root", str(folder), "conform")
    cases = sorted((SOLVERS / "tests" / "conformance").glob("*.json"))
    assert status == 0 and out.count("PASS ") == len(cases) == 4 and "0 failed" in out, out


def test_the_solver_games_pass_their_cases_on_the_typescript_engines_too(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.test_typescript import MISSING

    if MISSING:
        pytest.skip(f"the TypeScript engines need Node: {MISSING}")
    status, out = run(capsys, "--root", str(folder), "conform", "--engine", "typescript")
    assert status == 0 and out.count("PASS ") == 4 and "0 failed" in out, out


def test_the_decks_are_the_specs_own(folder: Path) -> None:
    with house.active(str(folder)):
        kuhn, leduc = (cards.game_of(engine_class(name)) for name in ("kuhn_poker", "leduc_holdem"))
    assert kuhn.deck == ["Js", "Qs", "Ks"]
    assert leduc.deck == ["Jh", "Js", "Qh", "Qs", "Kh", "Ks"]
    for seed in range(30):
        dealer = cards.Dealer(leduc, 2, seed=seed)
        assert all(card in leduc.deck for card in dealer.hole[0] + dealer.hole[1] + dealer.deck)
        assert len({*dealer.hole[0], *dealer.hole[1], *dealer.deck}) == 6
    with pytest.raises(cards.CardError, match="Kuhn poker's deck of 3 cards cannot deal 4 seats"):
        cards.Dealer(kuhn, 4, seed=1)


def test_more_seats_than_the_deck_deals_are_refused_by_name(folder: Path) -> None:
    from betspec.runtime import InvalidTable
    from betspec.tools.env import PokerEnv

    with house.active(str(folder)):
        kuhn, leduc = engine_class("kuhn_poker"), engine_class("leduc_holdem")
    with pytest.raises(InvalidTable, match="deck of 3 cards cannot deal 4 seats"):
        spiel.register(kuhn, Table.of([10] * 4, 1, {}))
    with pytest.raises(InvalidTable, match="deck of 6 cards cannot deal 7 seats"):
        PokerEnv(leduc, seats=7)
    assert PokerEnv(kuhn, seats=3).seats == 3  # three cards, three seats: Kuhn's three-player game


@pytest.mark.parametrize(
    ("hole", "board", "best"),
    [
        ({0: ["Ks"], 1: ["Qs"]}, [], [[0], [1]]),  # Kuhn: the higher card
        ({0: ["Js"], 1: ["Qs"]}, [], [[1], [0]]),
        ({0: ["Jh"], 1: ["Kh"]}, ["Js"], [[0], [1]]),  # Leduc: a pair beats a high card
        ({0: ["Kh"], 1: ["Qh"]}, ["Js"], [[0], [1]]),  # else the higher card
        ({0: ["Qh"], 1: ["Qs"]}, ["Kh"], [[0, 1]]),  # equal ranks split, whatever the suits
    ],
)
def test_high_cards_ranks_a_pair_over_high_cards_and_ignores_suits(
    hole: dict[int, list[str]], board: list[str], best: list[list[int]]
) -> None:
    game = cards.Game("", "high cards", "", ((False,),), (0,), hands=("HighCardsHand",))
    assert cards.rankings(game, hole, board) == [best]


def test_the_game_trees_and_information_states_are_openspiels(games: dict[str, Any]) -> None:
    """Kuhn: 24 decision nodes in 12 information states; Leduc: 3,780 in 936 (suits apart, as
    OpenSpiel's leduc_poker counts them without its suit isomorphism)."""
    counts = {}
    for name, pair in games.items():
        for game in pair:
            states = get_all_states.get_all_states(game, include_terminals=False, include_chance_states=False)
            infos = {state.information_state_string(state.current_player()) for state in states.values()}
            counts[name, game.get_type().short_name.startswith("python_betspec")] = (len(states), len(infos))
    assert counts == {
        ("kuhn_poker", True): (24, 12),
        ("kuhn_poker", False): (24, 12),
        ("leduc_holdem", True): (3780, 936),
        ("leduc_holdem", False): (3780, 936),
    }


def _curve(game: Any, iterations: int) -> tuple[list[float], Any]:
    solver = cfr.CFRSolver(game)
    curve = []
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
        curve.append(float(exploitability.exploitability(game, solver.average_policy())))
    return curve, solver


def test_cfr_on_kuhn_gives_openspiels_exploitability_and_the_value_minus_one_eighteenth(games: dict[str, Any]) -> None:
    ours, theirs = games["kuhn_poker"]
    mine, solver = _curve(ours, 12)
    native, native_solver = _curve(theirs, 12)
    assert mine == pytest.approx(native, abs=1e-9)
    assert mine[0] == pytest.approx(0.458333, abs=1e-6) and mine[-1] < 0.06
    for _ in range(300):
        solver.evaluate_and_update_policy()
        native_solver.evaluate_and_update_policy()
    values = [
        expected_game_score.policy_value(game.new_initial_state(), [s.average_policy()] * 2)[0]
        for game, s in ((ours, solver), (theirs, native_solver))
    ]
    assert values[0] == pytest.approx(values[1], abs=1e-9)
    assert values[0] == pytest.approx(-1 / 18, abs=5e-3)


def test_cfr_on_leduc_gives_openspiels_exploitability(games: dict[str, Any]) -> None:
    ours, theirs = games["leduc_holdem"]
    mine, _ = _curve(ours, 1)
    native, _ = _curve(theirs, 1)
    assert mine == pytest.approx(native, abs=1e-9) and mine[0] == pytest.approx(2.373611, abs=1e-6)
    uniform = [
        expected_game_score.policy_value(game.new_initial_state(), [policy_lib.UniformRandomPolicy(game)] * 2)
        for game in (ours, theirs)
    ]
    assert uniform[0] == pytest.approx(uniform[1], abs=1e-9)


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_holdem"])
def test_openspiels_own_game_test_passes(games: dict[str, Any], name: str) -> None:
    ours, _ = games[name]
    pyspiel.random_sim_test(ours, num_sims=30, serialize=False, verbose=False)


def test_hands_played_through_both_games_pay_alike(games: dict[str, Any]) -> None:
    """Random hands of Leduc dealt and played alike through both games (OpenSpiel's card c is
    rank c // 2 in suits h, s; its actions fold, call, raise are ours fold, check_or_call,
    min_wager) end with the same returns, and each step offers the same actions."""
    from betspec.tools.agent_actions import CARD_INDEX

    ours, theirs = games["leduc_holdem"]
    names = ours.rules.names
    mapped = [names.index(name) for name in ("fold", "check_or_call", "min_wager")]
    deck = ["Jh", "Js", "Qh", "Qs", "Kh", "Ks"]
    rng = random.Random(7)
    for _ in range(200):
        mine, native = ours.new_initial_state(), theirs.new_initial_state()
        while not native.is_terminal():
            if native.is_chance_node():
                card = rng.choice([c for c, _ in native.chance_outcomes()])
                native.apply_action(card)
                mine.apply_action(CARD_INDEX[deck[card]])
                continue
            assert mine.legal_actions() == [mapped[a] for a in native.legal_actions()]
            action = rng.choice(native.legal_actions())
            native.apply_action(action)
            mine.apply_action(mapped[action])
        assert mine.is_terminal() and mine.returns() == native.returns()
