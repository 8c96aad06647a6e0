"""Issue 33: a table's whole night in a session spec: games in rotation, stakes by level.

The shipped sessions (spec/sessions: H.O.R.S.E., the 8-game mix, dealer's choice, a tournament
schedule with a big blind ante) are checked as an author checks them (validate, validate --deep
playing every game and level with every chip checked), played by `betspec play` and `betspec
simulate`, and their cases (tests/sessions) run: the first hand of a new game and of a new level
(button, bring-in, blinds, antes). A session written wrong is refused where it is wrong; the host
API refuses bad input changing nothing."""

from __future__ import annotations

import html
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from betspec import session as sessions
from betspec import vocabulary
from betspec.conformance import sessions as session_cases
from betspec.frontend import schema
from betspec.runtime import InvalidTable, Table
from betspec.tools.simulate import simulate_session
from tests.conftest import ROOT

SHIPPED = ["dealers_choice", "eight_game", "horse", "tournament_big_blind_ante"]
CASES = session_cases.case_files(str(ROOT))
BETSPEC = str(Path(sys.executable).with_name("betspec"))


def run(*argv: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([BETSPEC, *argv], capture_output=True, text=True, cwd=cwd, timeout=600, check=False)
    assert "Traceback" not in done.stderr and "internal error" not in done.stdout, done.stdout + done.stderr
    return done


def test_the_shipped_sessions_are_the_ones_named() -> None:
    assert sessions.shipped() == SHIPPED


@pytest.mark.parametrize("path", CASES, ids=lambda p: Path(p).stem)
def test_each_session_case_passes(path: str) -> None:
    outcome = session_cases.run_case(path)
    assert outcome.passed, outcome.line()


def test_the_cases_cover_every_shipped_session_and_a_change_of_game_and_level() -> None:
    named = [json.loads(Path(path).read_text())["session"] for path in CASES]
    assert set(SHIPPED) <= set(named)
    every = [hand.get("expect", {}) for path in CASES for hand in json.loads(Path(path).read_text())["hands"]]
    changes = [(change, expect) for expect in every for change in expect.get("changes", [])]
    assert any(change.startswith("game: ") and "button" in expect for change, expect in changes)
    assert any(change.startswith("level ") and "inputs" in expect for change, expect in changes)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (("horse-first-razz-hand-antes-and-the-cards-bring-in", 6, "pot", 12), "hand 7: pot is 9, expected 12"),
        (("horse-omaha-follows-an-orbit-of-holdem", 3, "button", 1), "hand 4: button is 0, expected 1"),
        (
            ("tournament-level-two-starts-with-the-next-hand-after-twenty-minutes", 1, "level", 2),
            "hand 2: level is 1, expected 2",
        ),
    ],
)
def test_a_case_that_expects_wrong_fails_at_its_hand(
    tmp_path: Path, change: tuple[str, int, str, Any], why: str
) -> None:
    name, hand, key, value = change
    case = json.loads((ROOT / "tests" / "sessions" / f"{name}.json").read_text())
    case["hands"][hand].setdefault("expect", {})[key] = value
    case.pop("$schema")
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(case))
    outcome = session_cases.run_case(str(path))
    assert not outcome.passed and why in outcome.message, outcome.line()


def test_validate_deep_plays_every_game_and_level_of_each_shipped_session() -> None:
    done = run("validate", "--deep", *(f"spec/sessions/{name}.json" for name in SHIPPED))
    assert done.returncode == 0, done.stdout
    assert done.stdout.count("every game and level, chips checked") == 4, done.stdout
    assert "tournament_big_blind_ante (session; 1 games, 12 level(s)" in done.stdout


def _bad(tmp_path: Path, edit: Any) -> str:
    body = json.loads((ROOT / "spec" / "sessions" / "horse.json").read_text())
    body.pop("$schema")
    body["name"] = "bad"
    edit(body)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(body, indent=2))
    done = run("validate", str(path))
    assert done.returncode == 1, done.stdout
    return done.stdout


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            lambda b: b["games"]["holdem"].update(structure="fixed_limt"),
            "/games/holdem/structure: no structure 'fixed_limt' (did you mean 'fixed_limit'?) [unknown-name]",
        ),
        (
            lambda b: b["games"]["razz"]["inputs"].update(bring_in_seat=0),
            "/games/razz/inputs/bring_in_seat: bring_in_seat is not the session's to give: the cards decide it",
        ),
        (
            lambda b: b["games"]["stud"]["inputs"].update(antes="ante"),
            "/games/stud/inputs/antes: seven_card_stud has no table input 'antes' (did you mean 'ante'?)",
        ),
        (
            lambda b: b["games"]["omaha_eight"]["inputs"].update(bets=["small_bet", "big_bets"]),
            "/games/omaha_eight/inputs/bets/1: level 1 has no stake 'big_bets' (did you mean 'big_bet'?)",
        ),
        (lambda b: b["games"]["stud_eight"].update(cards="F7S/9"), "/games/stud_eight/cards: no PHH variant 'F7S/9'"),
        (
            lambda b: b["games"]["holdem"].update(cards="F7S"),
            "/games/holdem/cards: F7S deals 5 streets; fixed_limit bets 4",
        ),
        (lambda b: b["rotation"]["games"].append("stud8"), "/rotation/games/5: no game 'stud8' (did you mean 'stud'?)"),
        (lambda b: b["rotation"].update(rule="ROTATE"), "/rotation/rule: cites rule 'ROTATE'"),
        (lambda b: b["rotation"].update(change="hands"), "/rotation: a rotation by 'hands' says how many"),
        (
            lambda b: b["games"]["holdem"]["inputs"].pop("bets"),
            "/games/holdem/inputs: fixed_limit needs the table's bets",
        ),
        (
            lambda b: b["levels"]["stakes"][0].update(small_blind=30),
            "/games/holdem: at level 1: ",
        ),
        (
            lambda b: b.update(rotation={"games": ["holdem"], "change": "weekly", "rule": "ROTATION"}),
            "/rotation/change",
        ),
        (lambda b: b.update(name="other"), "/name: the session 'other' is in bad.json"),
    ],
)
def test_a_session_written_wrong_is_refused_where_it_is_wrong(tmp_path: Path, edit: Any, expected: str) -> None:
    out = _bad(tmp_path, edit)
    assert expected in out, out
    assert "bad.json:" in out


def test_a_session_deals_a_house_spec_beside_it(tmp_path: Path) -> None:
    """A session's game may be a house's own spec, named by its file beside the session."""
    shutil.copy(ROOT / "docs" / "examples" / "house" / "spec" / "five_card_stud.json", tmp_path)
    body = json.loads((ROOT / "spec" / "sessions" / "horse.json").read_text())
    body.pop("$schema")
    body["name"] = "stud_night"
    body["games"]["five_stud"] = {
        "structure": "five_card_stud.json",
        "title": "five-card stud",
        "inputs": {"ante": "ante", "bring_in": "bring_in", "bets": ["small_bet", "big_bet"]},
    }
    body["rotation"]["games"] = ["stud", "five_stud"]
    (tmp_path / "stud_night.json").write_text(json.dumps(body))
    done = run("validate", "--deep", "stud_night.json", cwd=tmp_path)
    assert done.returncode == 0 and "every game and level, chips checked" in done.stdout, done.stdout
    done = run("play", "stud_night.json", "--seats", "3", "--bots", "all", "--hands", "5", "--seed", "1", cwd=tmp_path)
    assert done.returncode == 0 and "--- game: five-card stud (ante 3, bets 20/40, bring in 5) ---" in done.stdout


def test_betspec_play_announces_each_game_and_keeps_every_chip() -> None:
    done = run("play", "horse", "--seats", "3", "--bots", "all", "--hands", "16", "--seed", "4")
    out = done.stdout
    assert done.returncode == 0, out
    games = [line for line in out.splitlines() if line.startswith("--- game: ")]
    assert [line.split(" (")[0] for line in games] == [
        "--- game: limit hold'em",
        "--- game: Omaha high-low, eight or better",
        "--- game: razz",
        "--- game: seven-card stud",
        "--- game: seven-card stud high-low, eight or better",
        "--- game: limit hold'em",
    ]
    assert out.count("(total 3000)") >= 16 and "engine problem" not in out
    assert "after 16 hands" in out and "(total 3000)" in out.splitlines()[-1]


def test_betspec_play_deals_a_tournament_s_levels_and_refuses_stakes_of_its_own() -> None:
    done = run("play", "tournament_big_blind_ante", "--seats", "3", "--bots", "all", "--hands", "2", "--seed", "1")
    assert "--- game: no-limit hold'em (blinds 100/200, big blind ante 200) ---" in done.stdout, done.stdout
    refused = run("play", "horse", "--blinds", "5,10", "--bots", "all")
    assert refused.returncode == 2 and "a session gives each game's stakes and options; not --blinds" in refused.stdout


def test_betspec_simulate_reports_each_game_and_level() -> None:
    done = run("simulate", "eight_game", "--hands", "400", "--seed", "3")
    assert done.returncode == 0, done.stdout
    assert "chips checked at every hand" in done.stdout
    for title in ("deuce-to-seven triple draw", "pot-limit Omaha", "seven-card stud high-low"):
        assert title in done.stdout, done.stdout
    levels = run("simulate", "tournament_big_blind_ante", "--hands", "300", "--seed", "3")
    assert "level 3 " in levels.stdout, levels.stdout
    unknown = run("simulate", "hors")
    assert unknown.returncode == 2 and "no session 'hors'" in unknown.stdout


def test_simulating_the_same_seed_gives_the_same_totals() -> None:
    spec = sessions.load(str(ROOT / "spec" / "sessions" / "horse.json"))
    first, again = (simulate_session(spec, 150, 9) for _ in range(2))
    assert first == again and first.hands == 150 and first.chips_checked == 150
    assert set(first.by_game) == set(spec.games)


def test_the_host_api_carries_stacks_and_refuses_bad_input_changing_nothing() -> None:
    spec = sessions.load(str(ROOT / "spec" / "sessions" / "dealers_choice.json"))
    for stacks, button in (([1000], 0), ([1000, "5"], 0), ([1000, 1000], 2), ([1000, 0], 1), ((1, 2, 3), True)):
        with pytest.raises(InvalidTable):
            sessions.Session(spec, stacks, button)  # type: ignore[arg-type]
    with pytest.raises(InvalidTable):
        sessions.Session("dealers_choice", [10, 10])  # type: ignore[arg-type]
    mixed = sessions.Session(spec, [500, 500, 500], 0)
    engine = mixed.engine()
    with pytest.raises(InvalidTable, match="settle the hand"):
        mixed.next_table(engine)
    rng = random.Random(1)
    while not engine.hand_over:
        engine.act(engine.to_act, "fold" if "check" not in engine.legal_actions() else "check")  # type: ignore[arg-type]
    engine.settle()
    before = (list(mixed.stacks), mixed.button, mixed.hand)
    for bad in (object(), sessions.Session(spec, [500, 500], 0).engine()):
        with pytest.raises(InvalidTable):
            mixed.next_table(bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidTable, match="not the host's to choose now"):
        mixed.next_table(engine, "razz")
    assert (list(mixed.stacks), mixed.button, mixed.hand) == before
    mixed.next_table(engine)
    assert mixed.hand == 2 and sum(mixed.stacks) == 1500
    assert mixed.choose_at_random(rng) is None
    recorded = (list(mixed.stacks), mixed.button, mixed.hand)
    with pytest.raises(InvalidTable, match="recorded already"):  # a finished hand counts once
        mixed.next_table(engine)
    assert (list(mixed.stacks), mixed.button, mixed.hand) == recorded


def test_the_schemas_words_are_the_vocabulary_s() -> None:
    document = schema.document(sessions.SESSION_SCHEMA)
    assert document["properties"]["rotation"]["properties"]["change"]["enum"] == list(vocabulary.SESSION_CHANGES)
    assert document["properties"]["button"]["properties"]["without_button"]["enum"] == list(vocabulary.BUTTON_WITHOUT)


def test_a_session_s_hands_as_phh_are_checked_and_their_stacks_followed(tmp_path: Path) -> None:
    """Issue 33: each hand of a session written as PHH says its session, number, level, game and
    the players' seats (PokerKit reads them); `phh check` of the folder, with no --structure,
    checks every hand under its variant's structure and follows each player's stack from hand to
    hand: a stack changed, or a hand missing, breaks the chain (exit 1)."""
    from pokerkit import HandHistory

    folder = tmp_path / "night"
    done = run("simulate", "horse", "--hands", "30", "--players", "4", "--seed", "5", "--phh", str(folder))
    assert done.returncode == 0, done.stdout
    files = sorted(folder.glob("*.phh"))
    assert len(files) == 30
    history = HandHistory.loads(files[12].read_text())
    assert (history.hand, history.level) == (13, 1) and sorted(history.seats) == [1, 2, 3, 4]
    assert history.user_defined_fields["_session"] == "horse-1" and history.event == "H.O.R.S.E., 20-40 limit"
    checked = run("phh", "check", str(folder))
    assert checked.returncode == 0, checked.stdout[-2000:]
    assert "session horse-1: 30 hand(s), each player's stack carried from hand to hand" in checked.stdout
    assert "30 accepted" in checked.stdout and "30 paid as it says" in checked.stdout
    # A stack that is not the one the hand before left, and a hand taken out.
    sixth = files[5].read_text()
    first = sixth.split("starting_stacks = [", 1)[1].split(",", 1)[0]
    files[5].write_text(sixth.replace(f"starting_stacks = [{first},", f"starting_stacks = [{int(first) + 10},", 1))
    files[9].unlink()
    broken = run("phh", "check", str(folder))
    assert broken.returncode == 1
    assert "BROKEN session horse-1: hand 6 (" in broken.stdout and "starts with" in broken.stdout
    assert "BROKEN session horse-1: hand 10 missing before" in broken.stdout
    assert "session horse-1: 29 hand(s), 2 break(s) in the stacks" in broken.stdout


def test_the_book_draws_each_session_s_rotation_and_tables_its_levels() -> None:
    """Issue 33: each shipped session's page of the reference book (generated and committed):
    its rotation drawn, every game with its structure and cards, every level's numbers, every rule."""
    for name in SHIPPED:
        spec = sessions.load(str(ROOT / "spec" / "sessions" / f"{name}.json"))
        page = (ROOT / "docs" / "reference" / f"session-{name}.md").read_text(encoding="utf-8")
        svg = html.unescape((ROOT / "diagrams" / "sessions" / f"{name}.svg").read_text(encoding="utf-8"))
        assert f"(../../diagrams/sessions/{name}.svg)" in page
        for game in spec.games.values():
            assert f"`{game.structure}`" in page and game.title.split(",")[0] in svg
            assert not game.cards or f"| {game.cards} |" in page
        for number, level in enumerate(spec.levels, 1):
            assert f"| {number} | " + " | ".join(str(value) for value in level.values()) + " |" in page
        assert all(f"| `{rule}` |" in page for rule in spec.rules)
        site = (ROOT / "docs" / "site" / f"session-{name}.html").read_text(encoding="utf-8")
        assert f'<img src="../../diagrams/sessions/{name}.svg"' in site and html.escape(spec.title) in site
    horse = (ROOT / "diagrams" / "sessions" / "horse.dot").read_text(encoding="utf-8")
    assert horse.count("after an orbit") == 5 and "stud_eight -> holdem" in horse
    assert "dealer's choice" in (ROOT / "diagrams" / "sessions" / "dealers_choice.dot").read_text(encoding="utf-8")


def test_a_dead_hand_s_pot_goes_to_the_next_deal_across_a_change_of_game(tmp_path: Path) -> None:
    """Jacks or better's pot nobody opened stays in the middle for the next deal (the spec's dead
    phase); where the next deal is another game's, the chips go with it: every chip is counted
    at every hand, the carried pot included."""
    body = {
        "session_version": "1.0",
        "name": "draw_night",
        "title": "Draw night",
        "description": "Jacks or better and limit hold'em, two hands each.",
        "rules": {"R": {"text": "Two hands each, in turn.", "source": "the house's rule (a test)"}},
        "games": {
            "jacks": {
                "structure": "jacks_or_better",
                "title": "jacks or better",
                "inputs": {"ante": "ante", "bets": ["small_bet", "big_bet"]},
            },
            "holdem": {
                "structure": "fixed_limit",
                "title": "limit hold'em",
                "inputs": {"blinds": ["small_blind", "big_blind"], "bets": ["small_bet", "big_bet"]},
            },
        },
        "rotation": {"games": ["jacks", "holdem"], "change": "hands", "hands": 2, "rule": "R"},
        "levels": {
            "stakes": [{"ante": 5, "small_bet": 10, "big_bet": 20, "small_blind": 5, "big_blind": 10}],
            "rule": "R",
        },
    }
    path = tmp_path / "draw_night.json"
    path.write_text(json.dumps(body))
    spec = sessions.load(str(path))
    mixed = sessions.Session(spec, [500, 500, 500], 0)
    engine = mixed.engine()
    while not engine.hand_over:  # nobody opens: the antes stay in the middle
        engine.act(engine.to_act, "check")  # type: ignore[arg-type]
    engine.settle()
    mixed.next_table(engine)
    assert mixed.carried_pot == 15 and mixed.chips == 1500
    totals = simulate_session(spec, 300, 4, 4)
    assert totals.chips_checked == 300 and set(totals.by_game) == {"jacks", "holdem"}


def test_a_session_begun_at_another_game_goes_on_from_it() -> None:
    """H.O.R.S.E. begun at razz deals stud after razz's orbit, not Omaha."""
    spec = sessions.load(str(ROOT / "spec" / "sessions" / "horse.json"))
    mixed = sessions.Session(spec, [500, 500], 0, first_game="razz")
    dealt = []
    for hand in range(4):
        dealer = mixed.dealer(f"begun/{hand}")
        engine = mixed.engine(**(dealer.table_inputs() if dealer is not None else {}))
        dealt.append(mixed.game.name)
        while not engine.hand_over:
            engine.act(engine.to_act, sessions.checking_or_folding(engine))  # type: ignore[arg-type]
        engine.settle()
        mixed.next_table(engine)
    assert dealt == ["razz", "razz", "stud", "stud"]


def test_the_session_entry_points_refuse_what_is_not_theirs() -> None:
    """A session read from something not a path, looked for by something not a name, a hand
    written with something not its session: each refused by name, no traceback."""
    from betspec.diagnostics import SpecError
    from betspec.runtime import engine_class
    from betspec.tools import phh

    with pytest.raises(SpecError, match="a session is read from a file's path, not 5"):
        sessions.load(5)  # type: ignore[arg-type]
    assert sessions.find(None) is None and sessions.find("hors") is None  # type: ignore[arg-type]
    engine = engine_class("no_limit")(Table.of([100, 100], 0, {"blinds": (1, 2)}))
    engine.act(0, "fold")
    engine.settle()
    with pytest.raises(phh.PhhError, match=r"session is the betspec\.session\.Session"):
        phh.to_phh(engine, session="horse")  # type: ignore[arg-type]
    spec = sessions.load(str(ROOT / "spec" / "sessions" / "horse.json"))
    with pytest.raises(phh.PhhError, match=r"session is the betspec\.session\.Session"):
        phh.to_phh(engine, session=sessions.Session(spec, [100, 100, 100], 0))


def test_dealer_s_choice_without_a_game_named_is_refused_changing_nothing() -> None:
    spec = sessions.load(str(ROOT / "spec" / "sessions" / "dealers_choice.json"))
    mixed = sessions.Session(spec, [500, 500], 0)
    for _ in range(2):
        engine = mixed.engine()
        while not engine.hand_over:
            engine.act(engine.to_act, sessions.checking_or_folding(engine))  # type: ignore[arg-type]
        engine.settle()
        if not mixed.choosing:
            mixed.next_table(engine)
    before = (list(mixed.stacks), mixed.button, mixed.hand, mixed.game.name)
    with pytest.raises(InvalidTable, match="dealer's choice: name the next game"):
        mixed.next_table(engine)
    assert (list(mixed.stacks), mixed.button, mixed.hand, mixed.game.name) == before
    mixed.next_table(engine, "razz")
    assert mixed.game.name == "razz" and mixed.hand == 3
