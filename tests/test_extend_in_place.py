"""Extending in place (issue 21, item 4): a spec adds, replaces or removes one requirement or
effect of an event by name and position, and moves a forced bet before or after another by name,
without restating what it extends; ``betspec show`` says what each spec changed."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from betspec import house
from betspec.cli import main
from betspec.frontend import load_spec, loader
from betspec.runtime.errors import IllegalAction
from betspec.runtime.table import Table

BASE = {"spec_version": 1, "title": "t", "description": "d", "extends": "no_limit.json"}
ALL_IN = {
    "expr": "call_amount == playable",
    "error": "illegal_action",
    "rule": "ALL-IN-OR-FOLD",
    "message": "a call must put in every chip: all in or fold",
    "after": "CALL",
}
RULE = {"ALL-IN-OR-FOLD": {"text": "A player calls only all-in; otherwise he folds (or raises).", "source": "house"}}


def write(folder: Path, name: str, **body: Any) -> Path:
    path = folder / f"{name}.json"
    path.write_text(json.dumps({**BASE, "name": name, **body}, indent=2))
    return path


@pytest.fixture
def loaded() -> Iterator[list[str]]:
    names: list[str] = []
    yield names
    from betspec.runtime import engine

    for name in names:
        sys.modules.pop(f"betspec.engines.{name}", None)
        engine._ENGINES.pop(name, None)


def test_one_requirement_added_to_call_by_name_refuses_a_call_short_of_all_in(
    tmp_path: Path, loaded: list[str]
) -> None:
    path = write(tmp_path, "all_in_or_fold", rules=RULE, amend={"events": {"call": {"requires": {"add": [ALL_IN]}}}})
    spec, diagnostics = load_spec(str(path))
    assert diagnostics == [] and spec is not None
    merged, _ = loader.load(str(path))
    assert merged is not None
    call = merged.value["events"]["call"]
    assert [r["rule"] for r in call["requires"]] == ["DECLARED-WAGER", "CALL", "ALL-IN-OR-FOLD", "OPEN-TO-ENTER"]
    assert "after" not in call["requires"][2]
    assert call["effects"] == ["commit(committed + call_amount)", "pass_action()"]
    # What the spec wrote is addressed in its own file.
    doc, pointer = merged.origin("/events/call/requires/2/expr")
    assert doc.path == str(path) and pointer == "/amend/events/call/requires/add/0/expr"
    assert merged.origin("/events/call/requires/3")[1] == "/events/call/requires/2"
    cls = house.load(path)
    loaded.append("all_in_or_fold")
    hand = cls(Table([1000, 1000, 40], 0, blinds=(5, 10)))
    hand.raise_to(0, 40)
    with pytest.raises(IllegalAction) as refused:
        hand.call(1)  # 35 of 995: not all in
    assert refused.value.rule == "ALL-IN-OR-FOLD" and "all in or fold" in refused.value.message
    hand.fold(1)
    hand.call(2)  # the big blind's last 30 chips
    assert hand.stacks[2] == 0 and hand.committed[2] == 40


def test_a_forced_bet_moved_before_another_by_name_is_posted_first(tmp_path: Path, loaded: list[str]) -> None:
    table = Table([1000, 1000, 15], 0, blinds=(5, 10), big_blind_ante=10)
    shipped = house.load(write(tmp_path, "blind_first", description="no amend"))
    loaded.append("blind_first")
    assert shipped(table).committed[2] == 10  # the blind first, the ante gets the last 5
    path = write(tmp_path, "ante_first", amend={"forced_bets": {"big_blind_ante": {"before": "big_blind"}}})
    merged, diagnostics = loader.load(str(path))
    assert diagnostics == [] and merged is not None
    order = list(merged.value["forced_bets"])
    assert order.index("big_blind_ante") == order.index("big_blind") - 1
    moved = house.load(path)
    loaded.append("ante_first")
    hand = moved(table)
    assert hand.committed[2] == 5 and hand.contributed[2] == 15  # the ante first, the blind short


def test_a_forced_bet_written_with_after_is_placed_there(tmp_path: Path) -> None:
    entry = {"seat": "button", "amount": "big_blind", "kind": "dead", "meaning": "m", "rule": "BLINDS"}
    path = write(tmp_path, "button_fee", forced_bets={"button_fee": {**entry, "after": "small_blind"}})
    merged, diagnostics = loader.load(str(path))
    assert diagnostics == [] and merged is not None
    order = list(merged.value["forced_bets"])
    assert order[order.index("small_blind") + 1] == "button_fee"
    assert "after" not in merged.value["forced_bets"]["button_fee"]


def test_replace_and_remove_by_rule_position_and_effect_name(tmp_path: Path) -> None:
    replacement = {**{k: v for k, v in ALL_IN.items() if k != "after"}, "id": "all_in_only"}
    amend = {
        "events": {
            "call": {
                "requires": {"replace": {"CALL": replacement}, "remove": [2]},
                "effects": {"add": [{"effect": "raises = raises", "before": "pass_action"}]},
            }
        }
    }
    path = write(tmp_path, "replaced", rules=RULE, amend=amend)
    spec, diagnostics = load_spec(str(path))
    assert diagnostics == [] and spec is not None
    merged, _ = loader.load(str(path))
    assert merged is not None
    call = merged.value["events"]["call"]
    assert [r.get("id", r["rule"]) for r in call["requires"]] == ["DECLARED-WAGER", "all_in_only"]
    assert call["effects"] == ["commit(committed + call_amount)", "raises = raises", "pass_action()"]
    # A spec extending this one addresses the requirement by its id.
    again = tmp_path / "again.json"
    again.write_text(
        json.dumps(
            {
                **BASE,
                "name": "again",
                "extends": "replaced.json",
                "amend": {"events": {"call": {"requires": {"remove": ["all_in_only"]}}}},
            }
        )
    )
    merged, diagnostics = loader.load(str(again))
    assert diagnostics == [] and merged is not None
    assert [r["rule"] for r in merged.value["events"]["call"]["requires"]] == ["DECLARED-WAGER"]
    assert "again.json: event 'call' requires: removes all_in_only" in merged.changes


def problems(tmp_path: Path, amend: dict[str, Any], **body: Any) -> list[tuple[str, str, str]]:
    path = write(tmp_path, "bad", amend=amend, **body)
    _, diagnostics = loader.load(str(path))
    return [(d.pointer, str(d.code), d.message) for d in diagnostics]


def test_bad_anchors_are_coded_diagnostics_with_a_near_name(tmp_path: Path) -> None:
    [(pointer, code, message)] = problems(tmp_path, {"events": {"cal": {"requires": {"remove": [0]}}}})
    assert (pointer, code) == ("/amend/events/cal", "amend") and "no event 'cal'" in message
    assert "did you mean 'call'" in message
    [(pointer, code, message)] = problems(
        tmp_path, {"events": {"call": {"requires": {"add": [{**ALL_IN, "after": "CALLS"}]}}}}, rules=RULE
    )
    assert (pointer, code) == ("/amend/events/call/requires/add/0/after", "amend")
    assert "no requirement is 'CALLS'" in message and "did you mean 'CALL'" in message
    [(pointer, code, message)] = problems(tmp_path, {"events": {"bet": {"requires": {"remove": ["BET"]}}}})
    assert pointer == "/amend/events/bet/requires/remove/0" and code == "amend"
    assert "requirements answer to 'BET'" in message and "give the position" in message
    [(pointer, code, message)] = problems(tmp_path, {"events": {"call": {"effects": {"remove": [7]}}}})
    assert code == "amend" and "no effect at position 7: there are 2" in message
    [(pointer, code, message)] = problems(tmp_path, {"forced_bets": {"big_blind_ante": {"before": "big_blnd"}}})
    assert (pointer, code) == ("/amend/forced_bets/big_blind_ante/before", "amend")
    assert "did you mean 'big_blind'" in message
    [(pointer, code, message)] = problems(tmp_path, {"forced_bets": {"bb_ante": {"after": "big_blind"}}})
    assert pointer == "/amend/forced_bets/bb_ante" and "no forced bet 'bb_ante' to move" in message


def test_show_names_what_each_extension_changed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    amend = {
        "events": {"call": {"requires": {"add": [ALL_IN]}}},
        "forced_bets": {"big_blind_ante": {"before": "big_blind"}},
    }
    path = write(tmp_path, "shown", rules=RULE, amend=amend)
    assert main(["show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "betting_round.json <- no_limit.json <- shown.json" in out
    assert "shown.json: adds rules 'ALL-IN-OR-FOLD'" in out
    assert "shown.json: event 'call' requires: adds ALL-IN-OR-FOLD after CALL" in out
    assert "shown.json: posts forced bet 'big_blind_ante' before 'big_blind'" in out
    assert "no_limit.json: replaces quantities 'min_bet_to'" in out
    assert main(["show", str(path), "--merged"]) == 0
    merged = json.loads(capsys.readouterr().out)
    assert [r["rule"] for r in merged["events"]["call"]["requires"]][2] == "ALL-IN-OR-FOLD"
    bad = write(tmp_path, "bad_show", amend={"events": {"cal": {"effects": {"remove": [0]}}}})
    assert main(["show", str(bad)]) == 1
    assert "[amend]" in capsys.readouterr().out
