"""PokerKit's lookups kept as tables (betspec.lookups): read from PokerKit, written beside the
build cache, read back, read again where damaged; a showdown and a stud opener ranked from them
as PokerKit ranks, without importing PokerKit once they are written."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from pokerkit import state as pk_state

from betspec import cards, lookups

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty build cache, and no table known to this process."""
    monkeypatch.setenv("BETSPEC_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(lookups, "_TABLES", {})
    monkeypatch.setattr(lookups, "_FOLDER", [])
    return tmp_path / "cache"


@pytest.mark.parametrize("code", ["F7S", "FR"])
def test_a_stud_opener_from_the_table_is_pokerkit_s(code: str) -> None:
    game = cards.GAMES[code]
    low = game.opening == "high_card"
    lookup = pk_state._LowHandOpeningLookup() if low else pk_state._HighHandOpeningLookup()
    rng = random.Random(code)
    for _ in range(300):
        seats = rng.randint(2, 7)
        showing = rng.randint(1, 4)
        dealt = rng.sample(DECK, seats * showing)
        upcards = {seat: dealt[seat * showing : (seat + 1) * showing] for seat in range(seats)}
        button = rng.choice([None, *range(seats)])
        after = -1 if button is None else button
        entries = {
            seat: lookup.get_entry("".join(upcards[seat]))
            for seat in sorted(upcards, key=lambda seat: (seat - after - 1) % 1000)
        }
        best = (min if low else max)(entries.values())
        expected = next(seat for seat in entries if entries[seat] == best)
        assert cards.opener(game, upcards, button) == expected, (upcards, button)


def test_tables_are_written_once_and_read_back(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = lookups.table("StandardLowHand")
    assert table is not None and table.shape == "combination" and table.low and table.count == 5
    (written,) = fresh.glob("*/tables/pokerkit-*/StandardLowHand.json")
    monkeypatch.setattr(lookups, "_TABLES", {})
    monkeypatch.setattr(lookups, "_from_pokerkit", lambda name: pytest.fail("read from PokerKit again"))
    assert lookups.table("StandardLowHand") == table
    assert written.is_file()


@pytest.mark.parametrize(
    "damage",
    [
        "{not json",
        json.dumps({"name": "StandardLowHand"}),
        "[]",
        "",
    ],
    ids=["not-json", "fields-missing", "not-an-object", "empty"],
)
def test_a_damaged_table_is_read_from_pokerkit_again(fresh: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    good = lookups.table("BadugiHand")
    assert good is not None
    (path,) = fresh.glob("*/tables/pokerkit-*/BadugiHand.json")
    path.write_text(damage, encoding="utf-8")
    monkeypatch.setattr(lookups, "_TABLES", {})
    assert lookups.table("BadugiHand") == good
    assert json.loads(path.read_text(encoding="utf-8"))["offsuit"] == good.offsuit  # written anew


def test_a_table_of_another_name_or_with_other_values_is_not_read(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = lookups.table("EightOrBetterLowHand")
    assert good is not None
    (path,) = fresh.glob("*/tables/pokerkit-*/EightOrBetterLowHand.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    wrongs: list[dict[str, object]] = [
        {"name": "BadugiHand"},
        {"offsuit": {"5432A": "1"}},
        {"suited": []},
        {"shape": "guess"},
        {"low": 1},
        {"count": "5"},
        {"hole": -1},
        {"board": 10**9},
        {"extra": 1},
    ]
    for wrong in wrongs:
        path.write_text(json.dumps({**data, **wrong}), encoding="utf-8")
        monkeypatch.setattr(lookups, "_TABLES", {})
        assert lookups.table("EightOrBetterLowHand") == good, wrong


def test_a_cache_that_cannot_be_written_keeps_tables_in_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("BETSPEC_CACHE", str(blocked))
    monkeypatch.setattr(lookups, "_TABLES", {})
    monkeypatch.setattr(lookups, "_FOLDER", [])
    table = lookups.table("RegularLowHand")
    assert table is not None and table.low
    assert lookups.write_all()[1] == []  # nothing kept on disk, and no error


def test_a_hand_type_pokerkit_makes_otherwise_has_no_table(fresh: Path) -> None:
    assert lookups.table("HighCardsHand") is None  # betspec's own
    assert lookups.table("GreekHoldemHand") is None  # a board combination: PokerKit's from_game
    assert lookups.table("NoSuchHand") is None


def test_without_pokerkit_there_is_no_table(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pokerkit", None)  # import pokerkit raises ImportError
    assert lookups.table("StandardLowHand") is None and not lookups.installed()
    assert lookups.write_all() == (None, [])
    with pytest.raises(cards.NoEvaluator):
        cards.opener(cards.GAMES["F7S"], {0: ["Ah"], 1: ["Kd"]})


SHOWDOWNS = """
import sys
from betspec import cards
print(cards.rankings(cards.GAMES["F2L3D"], {0: ["7c", "5d", "4h", "3s", "2c"], 1: ["Ac", "2d", "3h", "4s", "5c"]}))
print(cards.rankings(cards.GAMES["FB"], {0: ["Ac", "2d", "3h", "4s"], 1: ["Ac", "2c", "3h", "4s"][::-1]}))
print(cards.rankings(cards.GAMES["FO/8"], {0: ["Ac", "2d", "Kh", "Ks"], 1: ["9c", "Td", "Qh", "Qs"]}, ["5h", "6s", "7d", "Kc", "Qd"]))
print(cards.opener(cards.GAMES["FR"], {0: ["Kc", "Kd"], 1: ["2c", "7d"], 2: ["Ac", "3h"]}))
print("pokerkit" in sys.modules)
"""


def test_once_written_a_showdown_imports_no_pokerkit(tmp_path: Path) -> None:
    env = {**os.environ, "BETSPEC_CACHE": str(tmp_path / "cache")}
    runs = [
        subprocess.run([sys.executable, "-c", SHOWDOWNS], env=env, capture_output=True, text=True, check=False)
        for _ in range(2)
    ]
    assert all(run.returncode == 0 for run in runs), [run.stderr for run in runs]
    first, second = (run.stdout.splitlines() for run in runs)
    assert (
        first[:-1]
        == second[:-1]
        == [
            "[[[0], [1]]]",  # 7-5 low beats the ace-high A-5 (no wheel in deuce-to-seven)
            "[[[0], [1]]]",  # a four-card badugi beats a three-card one
            "[[[0], [1]], [[0]]]",  # three kings over three queens; the one low
            "2",  # razz: A-3 showing, the lowest hand, opens
        ]
    )
    assert first[-1] == "True" and second[-1] == "False"  # read from PokerKit once, then from the tables


def test_build_writes_every_table_once(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, kept = lookups.write_all()
    assert folder is not None and kept == [name for name in lookups.names() if name != "HighCardsHand"]
    assert sorted(path.stem for path in folder.glob("*.json")) == kept
    written = {path: path.stat().st_mtime_ns for path in folder.glob("*.json")}

    def again(name: str) -> None:  # betspec's own hand type has no table: asked again, and none
        assert name not in kept, f"{name} read from PokerKit again"

    monkeypatch.setattr(lookups, "_from_pokerkit", again)
    assert lookups.write_all() == (folder, kept)  # kept as they are: read, not written again
    assert {path: path.stat().st_mtime_ns for path in folder.glob("*.json")} == written
