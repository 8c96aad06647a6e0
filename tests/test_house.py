"""A house: a folder of one's own specs (``betspec init``), whose engines every command and a
program of the house's find as they find the shipped ones; and a spec loaded in memory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from betspec import house
from betspec.cli import main
from betspec.runtime import IllegalAction, Table, engine_class, engine_names
from betspec.runtime.snapshot import restore


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    out = capsys.readouterr().out
    assert "internal error" not in out and "Traceback" not in out, out
    return status, out


@pytest.fixture
def made(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    status, out = run(capsys, "init", str(tmp_path / "club"), "--name", "club_game")
    assert status == 0, out
    return tmp_path / "club"


def test_init_makes_a_house_and_refuses_to_overwrite_it(made: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (made / "betspec.toml").is_file()
    spec = json.loads((made / "spec" / "club_game.json").read_text())
    assert spec["name"] == "club_game" and spec["extends"] == "no_limit.json"
    cases = sorted(p.name for p in (made / "tests" / "conformance").glob("*.json"))
    assert cases == ["club-game-fourth-raise-refused.json", "club-game-no-cap-when-max-raises-is-null.json"]
    status, out = run(capsys, "init", str(made))
    assert status == 1 and "already has betspec.toml: nothing written" in out
    status, out = run(capsys, "init", str(made.parent / "other"), "--name", "no_limit")
    assert status == 1 and "the name of a spec betspec ships" in out
    status, out = run(capsys, "init", str(made.parent / "other"), "--name", "Bad-Name")
    assert status == 1 and "is not a spec name" in out and not (made.parent / "other").exists()


def test_every_command_works_inside_a_house_without_root(
    made: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(made / "tests")  # a folder inside the house: found by its betspec.toml
    status, out = run(capsys, "validate", "--deep")
    assert status == 0 and "club_game (engine; " in out and "played" in out, out
    status, out = run(capsys, "generate")
    assert status == 0 and "from 1 spec," in out, out
    assert (made / "generated" / "club_game.py").is_file() and (made / "diagrams" / "club_game.svg").is_file()
    assert (made / "docs" / "reference" / "club_game.md").is_file()
    assert "fourth-raise-refused" in (made / "docs" / "reference" / "club_game.md").read_text()  # a worked example
    status, out = run(capsys, "generate", "--check")
    assert status == 0 and "up to date" in out
    status, out = run(capsys, "conform")  # the house's cases by default
    assert status == 0 and "2 passed, 0 failed" in out, out
    status, out = run(capsys, "coverage")
    assert status == 0 or "not reached" in out
    assert "club_game" in out and "2 case files" in out
    status, out = run(capsys, "simulate", "--structure", "club_game", "--hands", "300", "--workers", "1")
    assert status == 0 and "300 hands" in out and "chips conserved" in out, out
    status, out = run(capsys, "diff", "club_game", "no_limit")
    assert status == 0 and "raise refused by rule CAP" in out, out
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("c\nx\nx\nx\nx\nx\nx\nx\nq\n"))
    status, out = run(capsys, "play", "club_game", "--seed", "1")
    assert status == 0 and "seat 0 to act" in out, out
    # the shipped structures still answer inside a house
    status, out = run(capsys, "conform", str(Path(__file__).parent / "conformance" / "nl-minimum-raise-ladder.json"))
    assert status == 0 and "1 passed" in out
    # and the house is forgotten once the command is done
    assert "club_game" not in engine_names()
    with pytest.raises(LookupError, match="no generated engine for structure 'club_game'"):
        engine_class("club_game")


def test_a_house_program_imports_its_engines(made: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--root", str(made), "generate")[0] == 0
    with house.active(str(made)):
        cls = engine_class("club_game")
        assert "club_game" in engine_names() and "no_limit" in engine_names()
        hand = cls(Table([1000, 1000, 1000], 0, blinds=(5, 10)))
        for seat, to in ((0, 20), (1, 40), (2, 80)):
            hand.raise_to(seat, to)
        with pytest.raises(IllegalAction) as info:
            hand.raise_to(0, 160)
        assert info.value.code == "cap_reached" and info.value.rule == "CAP"
        again = restore(hand.snapshot())  # found by its structure's name
        assert type(again) is cls and again.legal_actions() == hand.legal_actions()
    # a program started with BETSPEC_HOUSE imports the engine as betspec.engines.<name>
    program = "from betspec.engines.club_game import ENGINE; print(ENGINE.__name__, ENGINE.SPEC_NAME)"
    env = {**os.environ, house.ENVIRONMENT: str(made)}
    found = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, check=False)
    assert found.returncode == 0 and found.stdout.split() == ["ClubGame", "club_game"], found.stderr


def test_a_spec_loaded_in_memory_plays_like_a_generated_one(made: Path) -> None:
    before = set(os.listdir(made))
    cls = house.load(made / "spec" / "club_game.json")
    try:
        assert set(os.listdir(made)) == before  # nothing written
        hand = cls(Table([1000, 1000, 1000], 0, blinds=(5, 10)), max_raises=None)
        hand.raise_to(0, 20)
        with pytest.raises(IllegalAction) as info:
            hand.raise_to(1, 25)
        assert info.value.code == "below_minimum" and "below the minimum raise (at least 30)" in info.value.message
        assert engine_class("club_game") is cls
        again = restore(hand.snapshot(key=b"k"), key=b"k")
        assert type(again) is cls and again.to_act == 1 and again.min_to == 30
    finally:
        house.leave()
        sys.modules.pop("betspec.engines.club_game", None)
        from betspec.runtime import engine

        engine._ENGINES.pop("club_game", None)


def test_load_refuses_a_broken_spec_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "spec" / "broken.json"
    path.parent.mkdir()
    base = {"spec_version": 1, "name": "broken", "title": "t", "description": "d", "extends": "no_limit.json"}
    path.write_text(
        json.dumps(
            {
                **base,
                "quantities": {
                    "minimum_bet": {"type": "int", "expr": "twice(big_blind)", "meaning": "m", "rule": "BET"}
                },
            }
        )
    )
    with pytest.raises(house.SpecError) as info:
        house.load(path)
    assert info.value.code == "invalid_spec" and "\n" not in info.value.message
    assert "unknown function 'twice'" in info.value.message and info.value.diagnostics
    path.write_text(json.dumps({**base, "abstract": True}))
    with pytest.raises(house.SpecError, match="abstract base"):
        house.load(path)


def test_a_house_spec_named_as_a_shipped_one_is_refused_with_a_fix(
    made: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = json.loads((made / "spec" / "club_game.json").read_text())
    (made / "spec" / "no_limit.json").write_text(json.dumps({**spec, "name": "no_limit"}))
    status, out = run(capsys, "--root", str(made), "validate")
    assert status == 1
    assert "no_limit.json names this file itself, not the shipped no_limit.json" in out
    assert "rename this spec, e.g. house_no_limit.json" in out


def test_the_shipped_tree_is_no_house(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[1]
    assert house.is_shipped_tree(str(root))
    assert not house.is_shipped_tree(str(tmp_path))
    assert house.project_root(None, cwd=str(tmp_path)) == str(tmp_path)
    (tmp_path / "betspec.toml").write_text("[house]\n")
    (tmp_path / "a" / "b").mkdir(parents=True)
    assert house.project_root(None, cwd=str(tmp_path / "a" / "b")) == str(tmp_path)
    assert house.project_root(str(root), cwd=str(tmp_path)) == str(root)
