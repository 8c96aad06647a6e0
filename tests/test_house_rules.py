"""The house rules of issues 21 and 32, each a spec in JSON alone (docs/examples/house), checked as a rule
author checks them: in a folder of their own, validated deep, generated, their cases conformed; then
their engines and kernels held equal step by step, the actions and variables of their own
included, and a session of hands carrying its state (the kill button) from table to table.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from betspec import house
from betspec.cli import main
from betspec.runtime import IllegalAction, InvalidTable, Table, engine_class
from betspec.runtime.batch import kernel
from betspec.tools.draw import draw_engine
from betspec.vocabulary import DEAD_PHASES
from tests.test_paths_equal import answers, random_step

HOUSE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "house"
SPECS = sorted(path.stem for path in (HOUSE / "spec").glob("*.json"))
#: The house rules whose rule is the dealer's (what a street deals), their betting their base's:
#: tests/test_game_spec.py deals their cards.
CARDS_ONLY = {"crazy_pineapple"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    out = capsys.readouterr().out
    assert "internal error" not in out and "Traceback" not in out, out
    return status, out


@pytest.fixture(scope="module")
def folder(example_house: Path) -> Path:
    """The house copied to a folder of its own and generated there, as an author's would be."""
    return example_house


def test_every_house_rule_validates_deep_and_passes_its_cases(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(capsys, "--root", str(folder), "validate", "--deep")
    assert status == 0, out
    assert out.count("; played)") == len(SPECS) == 11, out
    status, out = run(capsys, "--root", str(folder), "conform")
    cases = sorted((HOUSE / "tests" / "conformance").glob("*.json"))
    assert status == 0, out
    assert out.count("PASS ") == len(cases) >= 10 and "0 failed" in out, out
    structures = [json.loads(path.read_text())["structure"] for path in cases]
    # Each rule its own cases (a rule of the cards only has its tests where they are dealt).
    assert all(structures.count(name) >= 2 for name in SPECS if name not in CARDS_ONLY), structures


def test_an_action_of_a_specs_own_is_an_engine_method_and_an_act(folder: Path) -> None:
    with house.active(str(folder)):
        cls = engine_class("sleeper_straddle")
        assert cls.OWN_ACTIONS == ("straddle",)
        table = Table([1000] * 6, 0, blinds=(5, 10), sleeper_seat=4)
        hand = cls(table)
        hand.fold(3)
        assert hand.legal_actions() == ("straddle",)
        with pytest.raises(IllegalAction) as refused:
            hand.call(4)
        assert (refused.value.code, refused.value.rule) == ("illegal_action", "SLEEPER")
        hand.act(4, "straddle")
        assert hand.call_amount == 20 and hand.variables == {"entered": True, "sleeper_played": True}
        assert hand.history[-1] == (4, "straddle", None)
        from betspec.runtime.snapshot import restore

        again = restore(hand.snapshot())  # the log replays the action of the spec's own
        assert again.snapshot() == hand.snapshot()


def test_a_session_carries_the_kill_button_from_hand_to_hand(folder: Path) -> None:
    """Robert's Rules, section 13: two pots won in a row by one player, the second by at least a
    full bet, and he must kill the next pot; a killer who wins again kills again."""
    with house.active(str(folder)):
        cls = engine_class("kill_after_two_pots")
        table = Table([1000, 1000, 1000, 1000], 0, blinds=(5, 10), bets=(10, 20))
        kills = []
        for winner in (2, 2, 2, 1, 3):
            hand = cls(table)
            while not hand.hand_over:
                seat = hand.to_act
                if seat is None:
                    hand.deal(hand.next_street)
                elif "bet" in hand.legal_actions() and seat == winner:
                    hand.bet(seat, hand.min_to)
                else:
                    hand.act(seat, "call" if "call" in hand.legal_actions() else "check")
            live = [s for s in range(hand.seats) if not hand.folded[s]]
            hand.settle([winner, *(s for s in live if s != winner)])
            table = hand.next_table()
            kills.append((table.get("leg_seat"), table.get("kill"), table.get("killer")))
        assert kills == [(2, "none", None), (2, "full", 2), (2, "full", 2), (1, "none", None), (3, "none", None)]


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler here: the house's kernels cannot be built")
def test_the_house_kernels_answer_as_its_engines_step_by_step(folder: Path) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "betspec.cli", "--root", str(folder), "build", "--kernels"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    with house.active(str(folder)):
        for name in SPECS:
            cls = engine_class(name)
            module = kernel(cls)
            assert module is not None, name
            rng = random.Random(f"house-kernel-{name}")
            compared = own = 0
            while compared < 800:
                engine = draw_engine(cls, random.Random(rng.random()))
                hand = module.KERNEL(engine.table, start=engine.start, **engine.options)
                for _ in range(200):
                    if engine.hand_over:
                        break
                    step = random_step(engine, rng)
                    own += step[0] in cls.OWN_ACTIONS
                    assert _tried(hand, step) == _tried(engine, step), (name, step)
                    assert answers(hand) == answers(engine), (name, step)
                    compared += 1
                assert hand.snapshot() == engine.snapshot()
                if engine.hand_over and engine.to_act is None:
                    live = [s for s in range(engine.seats) if not engine.folded[s]]
                    ranking = None if engine.phase in DEAD_PHASES else live
                    # The house's rake and money paid outside the pot (the winner shows 7-2) alike.
                    shown = {live[0]: ["7h", "2d"]} if cls.PAYMENTS and live else None
                    assert hand.settle(ranking, shown=shown) == engine.settle(ranking, shown=shown)
                    assert _next(hand) == _next(engine)
            assert own > 0 or not cls.OWN_ACTIONS, name


def _tried(engine: object, step: tuple[str, int, int | None]) -> str | None:
    kind, seat, to = step
    try:
        if kind == "deal":
            engine.deal((engine.next_street or engine.STREETS[0]) if seat == 0 else engine.STREETS[-1])  # type: ignore[attr-defined]
        else:
            engine.act(seat, kind, to)  # type: ignore[attr-defined]
    except IllegalAction as error:
        return f"{error.code} {error.rule} {error.message}"
    return None


def _next(engine: object) -> object:
    try:
        return engine.next_table()  # type: ignore[attr-defined]
    except InvalidTable as error:
        return str(error)


def test_the_tools_play_an_action_of_a_specs_own(folder: Path) -> None:
    """``betspec play`` takes it typed by its name; a policy (simulate's bot) draws it when legal."""
    typed = "fold\ncall\nstraddle\ncall\nfold\nfold\ncall\ncheck\nquit\n"
    played = subprocess.run(
        [
            *(sys.executable, "-m", "betspec.cli", "play", "sleeper_straddle", "--seats", "6", "--stack", "1000"),
            *("--input", "sleeper_seat=4", "--seed", "1", "--hands", "1"),
        ],
        input=typed,
        capture_output=True,
        text=True,
        cwd=folder,
        check=False,
    )
    out = played.stdout
    assert "seat 4 to act: straddle" in out and "refused [illegal_action]" in out and "rule SLEEPER" in out, out
    assert "seat 4: straddle" in out and "seat 5 to act: fold | call 20 | raise to 30..1000" in out, out
    from betspec.tools.simulate import BOT

    with house.active(str(folder)):
        hand = engine_class("sleeper_straddle")(Table([1000] * 6, 0, blinds=(5, 10), sleeper_seat=4))
        hand.fold(3)
        assert BOT.decide(hand, random.Random(1)) == ("straddle", None)


def test_the_house_rules_pass_their_cases_on_the_typescript_engines_too(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.test_typescript import MISSING

    if MISSING:
        pytest.skip(f"the TypeScript engines need Node: {MISSING}")
    status, out = run(capsys, "--root", str(folder), "conform", "--engine", "typescript")
    cases = list((HOUSE / "tests" / "conformance").glob("*.json"))
    assert status == 0 and out.count("PASS ") == len(cases) and "0 failed" in out, out
