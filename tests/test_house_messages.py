"""The mistakes a new author makes get a fix, not only a complaint; refusals name the bound."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from betspec.frontend import load_spec
from betspec.runtime import IllegalAction, Start, Table, engine_class

HEAD = {"spec_version": 1, "title": "t", "description": "d"}
RULE = {"R": {"text": "t", "source": "s"}}


def problems(folder: Path, name: str, body: dict[str, object]) -> list[str]:
    path = folder / f"{name}.json"
    path.write_text(json.dumps({**HEAD, "name": name, **body}))
    spec, found = load_spec(str(path))
    assert found, spec
    return [f"{d.pointer}: {d.message}" for d in found]


def option(default: object, **bounds: int) -> dict[str, object]:
    entry = {"type": "int?", "default": default, "meaning": "m", "rule": "R", **bounds}
    return {"extends": "no_limit.json", "rules": RULE, "options": {"max_raises": entry}}


@pytest.mark.parametrize(
    ("default", "fix"),
    [
        ("3", "write 3 (a number, without quotes)"),
        (3.0, "write 3 (chips and counts are whole numbers)"),
        (True, "write a whole number (1?), or make the type 'bool'"),
        ("three", "an int? is written a whole number, such as 3, or null for none"),
    ],
)
def test_a_default_of_the_wrong_type(tmp_path: Path, default: object, fix: str) -> None:
    [found] = problems(tmp_path, "a", option(default))
    assert found == f"/options/max_raises/default: default {default!r} is not an int?: {fix}"


def test_a_default_outside_its_bounds(tmp_path: Path) -> None:
    [found] = problems(tmp_path, "b", option(0, minimum=1))
    assert found.endswith(
        "default 0 is below the minimum 1: give a default of at least 1, or lower the minimum to 0 "
        "if 0 is a value the house allows"
    )
    [found] = problems(tmp_path, "c", option(9, maximum=4))
    assert "default 9 is above the maximum 4: give a default of at most 4, or raise the maximum" in found
    body = {
        "extends": "no_limit.json",
        "rules": RULE,
        "inputs": {"pot_cap": {"type": "int", "default": -1, "minimum": 0, "meaning": "m", "rule": "R"}},
    }
    [found] = problems(tmp_path, "d", body)
    assert found.startswith("/inputs/pot_cap/default: default -1 is below the minimum 0: give a default of at least 0")


def test_a_street_declared_twice(tmp_path: Path) -> None:
    streets = [{"name": n, "meaning": "m"} for n in ("preflop", "flop", "flop", "river")]
    [found] = problems(tmp_path, "e", {"extends": "no_limit.json", "streets": streets})
    assert found.startswith("/streets/2/name: street 'flop' is named twice (first at /streets/1): ")
    assert "rename this one, e.g. 'flop_2', or drop it" in found


def test_a_circular_extends(tmp_path: Path) -> None:
    (tmp_path / "g.json").write_text(json.dumps({**HEAD, "name": "g", "abstract": True, "extends": "f.json"}))
    [found] = problems(tmp_path, "f", {"extends": "g.json"})
    assert found.startswith(
        "/extends: extends makes a cycle: f.json -> g.json -> f.json: a spec cannot be its own base"
    )
    assert "take f.json out of the 'extends' of g.json" in found


def test_a_function_that_does_not_exist(tmp_path: Path) -> None:
    quantity = {"type": "int", "expr": "twice(big_blind)", "meaning": "m", "rule": "R"}
    [found] = problems(
        tmp_path, "h", {"extends": "no_limit.json", "rules": RULE, "quantities": {"min_bet_to": quantity}}
    )
    assert found.startswith("/quantities/min_bet_to/expr: unknown function 'twice'; the functions are abs, ")
    assert "ceil_to" in found and "max, min" in found


def test_refusals_name_the_bound() -> None:
    hand = engine_class("no_limit")(Table(stacks=[950, 950, 250], button=2, blinds=(25, 50)), start=Start("flop", 150))
    hand.bet(0, 100)
    for to, words in (
        (150, "below the minimum raise (at least 200)"),
        (5000, "more than the seat's chips (at most 950)"),
        (100, "a raise goes above the bet (at least 200)"),
    ):
        with pytest.raises(IllegalAction) as info:
            hand.raise_to(1, to)
        assert f"seat 1 raise {to}: {info.value.code}: {words}. Rule" in info.value.message
    hand = engine_class("pot_limit")(Table(stacks=[1000, 1000], button=0, blinds=(5, 10)))
    with pytest.raises(IllegalAction, match=r"above the maximum raise \(at most 30\)"):
        hand.raise_to(0, 31)
