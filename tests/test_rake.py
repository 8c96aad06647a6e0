"""The house's rake, declared in a spec (``rake``): taken by settle before the pots are paid, the
same in the Python and TypeScript engines, and checked against hand histories PokerKit raked.

The rules a rake's terms follow (docs/specs.md, "The rake"): each pot its percentage, rounded
down (or half to even) and down to the rake's chip; the cap each pot's or the hand's (the main pot
raked first); none before ``from_street`` unless a showdown dealt every card, none below the
minimum pot; then the jackpot drop from what the main pot keeps. Every chip raked leaves the
table, and ``total_chips`` counts it, so that a hand's chips still add up."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from betspec import house
from betspec.cli import main
from betspec.frontend import load_spec
from betspec.runtime import Engine, Table, engine_class
from betspec.runtime.snapshot import restore
from betspec.tools.draw import draw_engine
from betspec.tools.simulate import play
from tests.conftest import ROOT

HEAD = {"spec_version": "1.1", "title": "t", "description": "d"}
RULE = {"RAKE": {"text": "The house's rake, as posted.", "source": "the house"}}


def raked(name: str, rake: dict[str, Any] | None, extends: str = "no_limit.json") -> dict[str, Any]:
    return {**HEAD, "name": name, "extends": extends, "rules": RULE, "rake": rake}


def load(folder: Path, body: dict[str, Any]) -> type[Engine]:
    path = folder / f"{body['name']}.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    house.load(path)
    return engine_class(body["name"])


def checked_down(cls: type[Engine], stacks: tuple[int, ...], *, bets: int = 0) -> Engine:
    """A hand where everybody calls the big blind and checks to the river (the first to act on
    the flop betting ``bets`` and being called)."""
    engine = cls(Table.of(stacks, 0, {"blinds": (5, 10)}))
    while not engine.hand_over:
        if engine.round_over:
            engine.deal(engine.next_street)
            continue
        seat = engine.to_act
        assert seat is not None
        legal = engine.legal_actions()
        if bets and engine.street_name == "flop" and "bet" in legal:
            engine.act(seat, "bet", bets)
        else:
            engine.act(seat, "check" if "check" in legal else "call")
    return engine


@pytest.mark.parametrize(
    ("rake", "stacks", "flop_bet", "taken"),
    [
        # 10% of 30 chips, rounded down: 3.
        ({"percent": 10}, (500, 500, 500), 0, (3, 0)),
        # 5% of 30 is 1.5: down 1, half to even 2; of 50 (2.5) half to even 2.
        ({"percent": 5}, (500, 500, 500), 0, (1, 0)),
        ({"percent": 5, "rounding": "half_even"}, (500, 500, 500), 0, (2, 0)),
        ({"percent": 5, "rounding": "half_even"}, (500, 500, 500, 500, 500), 0, (2, 0)),
        # In whole fives: 10% of 230 is 23, taken as 20.
        ({"percent": 10, "unit": "5"}, (500, 500), 105, (20, 0)),
        # Capped at the big blind; no rake at all below the minimum pot.
        ({"percent": 10, "cap": "big_blind"}, (500, 500), 105, (10, 0)),
        ({"percent": 10, "minimum_pot": "10 * big_blind"}, (500, 500, 500), 0, (0, 0)),
        ({"percent": 10, "minimum_pot": "10 * big_blind"}, (500, 500), 105, (23, 0)),
        # The drop from what the main pot keeps, only from a pot of its minimum.
        ({"percent": 10, "jackpot": {"drop": "big_blind", "minimum_pot": "100"}}, (500, 500), 105, (23, 10)),
        ({"percent": 10, "jackpot": {"drop": "big_blind", "minimum_pot": "100"}}, (500, 500, 500), 0, (3, 0)),
        ({"percent": 0, "jackpot": {"drop": "1000"}}, (500, 500), 105, (0, 230)),
    ],
)
def test_a_pot_is_raked_as_its_terms_say(
    tmp_path: Path, rake: dict[str, Any], stacks: tuple[int, ...], flop_bet: int, taken: tuple[int, int]
) -> None:
    cls = load(tmp_path, raked("house_rake", {**rake, "rule": "RAKE"}))
    engine = checked_down(cls, stacks, bets=flop_bet)
    chips, pot = engine.total_chips(), engine.pot
    settlement = engine.settle(list(range(len(stacks))))
    assert (settlement.rake, settlement.jackpot_drop) == (engine.rake, engine.jackpot_drop) == taken
    assert sum(settlement.won) == pot - sum(taken)
    assert engine.total_chips() == chips  # the house's take counted as the chips it was
    assert sum(engine.next_table().stacks) == chips - sum(taken)


def test_the_cap_is_each_pot_s_or_the_hand_s_main_pot_first(tmp_path: Path) -> None:
    """Three all in before the flop: a main pot of 300 and a side pot of 400, raked 10% at most 20."""
    for cap_per, takes in (("hand", (20, 0)), ("pot", (20, 20))):
        cls = load(
            tmp_path, raked(f"capped_{cap_per}", {"percent": 10, "cap": "20", "cap_per": cap_per, "rule": "RAKE"})
        )
        engine = cls(Table.of((100, 300, 300), 0, {"blinds": (5, 10)}))
        engine.act(0, "all_in")
        engine.act(1, "all_in")
        engine.act(2, "call")
        settlement = engine.settle([0, 2, 1])
        assert [a.amount for a in settlement.awards] == [300 - takes[0], 400 - takes[1]]
        assert settlement.rake == sum(takes)
        assert list(engine.stacks) == [300 - takes[0], 0, 400 - takes[1]]


def test_no_flop_no_drop_unless_a_showdown_dealt_the_flop(tmp_path: Path) -> None:
    cls = load(tmp_path, raked("nfnd", {"percent": 10, "from_street": "flop", "rule": "RAKE"}))
    folded = cls(Table.of((500, 500, 500), 0, {"blinds": (5, 10)}))
    folded.act(0, "call")
    folded.act(1, "call")
    folded.act(2, "raise", 40)
    folded.act(0, "fold")
    folded.act(1, "fold")
    assert folded.settle().rake == 0
    all_in = cls(Table.of((500, 500), 0, {"blinds": (5, 10)}))
    all_in.act(0, "all_in")
    all_in.act(1, "call")
    assert all_in.hand_over and all_in.street_name != "flop"
    assert all_in.settle([1, 0]).rake == 100


def test_a_dead_hand_is_not_raked_and_its_pot_carries_whole(tmp_path: Path) -> None:
    """Jacks or better: nobody opens, the hand is dead and its antes carry to the next deal, unraked."""
    cls = load(tmp_path, raked("jacks_raked", {"percent": 10, "rule": "RAKE"}, "jacks_or_better.json"))
    engine = cls(Table.from_json({"stacks": [500, 500, 500], "button": 0, "ante": 5, "bets": [10, 20]}))
    while not engine.hand_over:
        seat = engine.to_act
        assert seat is not None
        engine.act(seat, "check")
    pot = engine.pot
    settlement = engine.settle()
    assert settlement.rake == engine.rake == 0 and pot > 0
    assert engine.next_table().to_json()["carried_pot"] == pot == 15


def test_the_rake_comes_out_before_the_boards_share_a_pot(tmp_path: Path) -> None:
    cls = load(tmp_path, raked("two_boards", {"percent": 10, "rule": "RAKE"}))
    engine = checked_down(cls, (500, 500))
    settlement = engine.settle(runs=[[0, 1], [1, 0]])
    assert settlement.rake == 2
    assert [a.amount for a in settlement.awards] == [9, 9] and list(engine.stacks) == [499, 499]


def test_a_restored_snapshot_has_the_same_rake(tmp_path: Path) -> None:
    cls = load(tmp_path, raked("snap_rake", {"percent": 10, "jackpot": {"drop": "1"}, "rule": "RAKE"}))
    engine = checked_down(cls, (500, 500, 500))
    engine.settle([2, [0, 1]])
    again = restore(engine.snapshot())
    assert (again.rake, again.jackpot_drop, list(again.stacks)) == (3, 1, list(engine.stacks))
    assert again.total_chips() == engine.total_chips() == 1500


def test_a_house_changes_a_base_s_rake_part_by_part_or_drops_it(tmp_path: Path) -> None:
    base = raked("base_rake", {"percent": 10, "cap": "3 * big_blind", "from_street": "flop", "rule": "RAKE"})
    (tmp_path / "base_rake.json").write_text(json.dumps(base), encoding="utf-8")
    higher = {**HEAD, "name": "higher_cap", "extends": "base_rake.json", "rake": {"cap": "4 * big_blind"}}
    (tmp_path / "higher_cap.json").write_text(json.dumps(higher), encoding="utf-8")
    spec, found = load_spec(str(tmp_path / "higher_cap.json"))
    assert spec is not None and spec.rake is not None, found
    assert spec.rake.basis_points == 1000 and spec.rake.from_street == "flop"
    assert spec.rake.cap is not None and spec.rake.cap.text == "4 * big_blind"
    none = {**HEAD, "name": "no_rake", "extends": "base_rake.json", "rake": None}
    (tmp_path / "no_rake.json").write_text(json.dumps(none), encoding="utf-8")
    spec, found = load_spec(str(tmp_path / "no_rake.json"))
    assert spec is not None and spec.rake is None, found


@pytest.mark.parametrize(
    ("rake", "pointer", "code", "says"),
    [
        (
            {"percent": 10, "from_street": "flopp", "rule": "RAKE"},
            "/rake/from_street",
            "unknown-name",
            "did you mean 'flop'",
        ),
        ({"percent": 10, "cap": "big_blind > 2", "rule": "RAKE"}, "/rake/cap", "type", "expected int"),
        ({"percent": 10, "cap": "big_blinds", "rule": "RAKE"}, "/rake/cap", "unknown-name", "big_blinds"),
        ({"percent": 10.001, "rule": "RAKE"}, "/rake/percent", "schema", ""),
        ({"percent": 101, "rule": "RAKE"}, "/rake/percent", "schema", ""),
        ({"percent": 10, "cap_per": "orbit", "rule": "RAKE"}, "/rake/cap_per", "schema", ""),
        ({"percent": 10}, "/rake", "missing", "'rule'"),
        ({"rule": "RAKE"}, "/rake", "missing", "'percent'"),
        ({"percent": 10, "rule": "RAKES"}, "/rake/rule", "unknown-rule", "did you mean 'RAKE'"),
        ({"percent": 10, "jackpot": {"minimum_pot": "5"}, "rule": "RAKE"}, "/rake/jackpot", "schema", "drop"),
    ],
)
def test_a_rake_written_wrong_is_refused_where_it_is_wrong(
    tmp_path: Path, rake: dict[str, Any], pointer: str, code: str, says: str
) -> None:
    path = tmp_path / "wrong_rake.json"
    path.write_text(json.dumps(raked("wrong_rake", rake)), encoding="utf-8")
    spec, found = load_spec(str(path))
    assert spec is None
    assert any(d.pointer == pointer and str(d.code) == code and says in d.message for d in found), [
        (d.pointer, str(d.code), d.message) for d in found
    ]


def test_random_raked_hands_keep_every_chip(tmp_path: Path) -> None:
    """Random tables and play on the example house's rake: the stacks after settling plus what
    the house took are the chips the hand began with, the rake never above its cap of three big
    blinds, the drop never without a raked hand."""
    cls = load(tmp_path, {**json.loads((ROOT / "docs/examples/house/spec/rake_no_flop_no_drop.json").read_text())})
    rng = random.Random("raked")
    raked_hands = 0
    for _ in range(300):
        engine = draw_engine(cls, rng)
        chips = engine.total_chips()
        play(engine, rng)
        contested = {seat for pot in engine.pots() for seat in pot.eligible if len(pot.eligible) > 1}
        ranking = rng.sample(sorted(contested), len(contested)) if contested else None
        settlement = engine.settle(ranking)
        blinds = engine.table.inputs.get("blinds", (0, 0))
        assert sum(engine.stacks) + settlement.rake + settlement.jackpot_drop == chips
        assert isinstance(blinds, tuple) and settlement.rake <= 3 * blinds[-1]
        assert settlement.jackpot_drop == 0 or settlement.rake > 0 or engine.pot == 0
        raked_hands += settlement.rake > 0
    assert raked_hands > 30


@pytest.fixture(scope="module")
def raked_house(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example house, with a rake of each kind more, generated in a folder of its own."""
    root = tmp_path_factory.mktemp("raked") / "house"
    shutil.copytree(ROOT / "docs" / "examples" / "house", root)
    more = raked("rake_half_even_per_pot", None, "pot_limit.json")
    more["rake"] = {
        "percent": 5,
        "rounding": "half_even",
        "cap": "2 * big_blind",
        "cap_per": "pot",
        "unit": "1",
        "rule": "RAKE",
    }
    (root / "spec" / "rake_half_even_per_pot.json").write_text(json.dumps(more), encoding="utf-8")
    assert main(["--root", str(root), "generate"]) == 0
    return root


@pytest.mark.parametrize("structure", ["rake_no_flop_no_drop", "rake_half_even_per_pot"])
def test_the_typescript_engines_rake_as_the_python_engines(raked_house: Path, structure: str) -> None:
    from betspec.tools import typescript_run
    from tests.test_typescript import MISSING, _play

    if MISSING:
        pytest.skip(f"the TypeScript engines need Node: {MISSING}")
    with house.active(str(raked_house)), typescript_run.Server(str(raked_house)) as server:
        cls = engine_class(structure)
        rng = random.Random(f"lockstep-{structure}")
        compared = raked_hands = 0
        for _ in range(60):
            engine = draw_engine(cls, rng)
            compared += _play(server, structure, engine, rng)
            raked_hands += engine.rake > 0
    assert compared > 600 and raked_hands > 5, (compared, raked_hands)


@pytest.mark.parametrize(
    ("code", "base"), [("PO", "pot_limit.json"), ("NS", "no_limit.json"), ("FO/8", "fixed_limit.json")]
)
def test_hands_pokerkit_raked_are_paid_as_pokerkit_paid_them(tmp_path: Path, code: str, base: str) -> None:
    """PokerKit's own rake (10% of each pot to the nearest chip, at most three big blinds a pot,
    no flop no drop) written as a house's spec: each hand is paid to the chip as PokerKit's
    finishing stacks say; under the same structure without the rake, the hands PokerKit raked are
    paid otherwise (less a rake, or mispaid where two winners were raked). PokerKit 0.7.7 bets
    FO/8 pot limit: most of its Omaha high-low hands raise above the fixed limit and are refused
    (tests/test_phh_variants.py's exclusion), the others checked."""
    from betspec.tools import phh
    from tests.test_phh_variants import _odd_chips, exclusion, pokerkit_hand, pokerkit_options

    name = f"raked_{code.replace('/', '').lower()}"
    rake = {"percent": 10, "rounding": "half_even", "cap": "3 * big_blind", "cap_per": "pot", "from_street": "flop"}
    ours = load(tmp_path, raked(name, {**rake, "rule": "RAKE"}, base))
    plain = engine_class(base.removesuffix(".json"))
    rng = random.Random(f"raked-{code}")
    paid = raked_hands = merged = 0
    for _ in range(40):
        text = pokerkit_hand(code, rng, raked=0.1)
        (hand,) = phh.loads(text)
        assert isinstance(hand, phh.Hand), hand
        result = phh.replay(hand, ours, pokerkit_options(ours))
        if result.status == phh.REFUSED:
            assert exclusion(result, hand) is not None, f"{result.line()}\n{text}"
            continue
        assert result.status == phh.ACCEPTED, f"{result.line()}\n{text}"
        pots = phh.check_pots(result)
        if pots.status == phh.MISPAID and _odd_chips(pots, hand):
            continue
        if pots.status == phh.MISPAID and _merged_by_pokerkit(result, pots, hand):
            merged += 1
            continue
        assert pots.status == phh.PAID and pots.rake == 0, f"{pots.detail}\n{text}"
        paid += 1
        # Without the rake, a hand PokerKit raked is paid more by betspec than by the file.
        unraked = phh.check_pots(phh.replay(hand, plain, pokerkit_options(plain)))
        raked_hands += unraked.status != phh.PAID or unraked.rake > 0
    enough = (20, 10) if code != "FO/8" else (3, 1)
    assert paid >= enough[0] and raked_hands >= enough[1] and merged <= 15, (paid, raked_hands, merged)


def _merged_by_pokerkit(result: Any, pots: Any, hand: Any) -> bool:
    """Whether the file's stacks are betspec's but for PokerKit 0.7.7's raking of merged pots:
    once the showdown is over it makes its pots again from the seats still in (the winners), side
    by side pots the same winners are left in merged into one, and rakes each once (10% to the
    nearest chip, capped at three big blinds), so that two pots one player wins are capped once.
    The rulebooks make a pot of each all-in (Robert's Rules of Poker, side pots), and betspec
    rakes each of those. True when that raking, and nothing else, accounts for the difference."""
    engine = result.engine
    if engine is None or hand.finishing_stacks is None or len(engine.pots()) < 2 or hand.game.split:
        return False
    cap = 3 * hand.blinds_or_straddles[1]
    survivors = {seat for seat, won in enumerate(pots.won) if won > 0}
    groups: list[list[int]] = []  # pot amounts, merged as PokerKit merges them
    last: tuple[int, ...] | None = None
    for pot in engine.pots():
        left = tuple(seat for seat in pot.eligible if seat in survivors)
        if groups and left == last:
            groups[-1].append(pot.amount)
        else:
            groups.append([pot.amount])
        last = left

    def rake(amount: int) -> int:
        return min(round(amount * 0.1), cap)

    ours = sum(rake(amount) for group in groups for amount in group)
    theirs = sum(rake(sum(group)) for group in groups)
    return bool(ours - theirs == sum(hand.finishing_stacks) - sum(pots.stacks) > 0)


def test_a_raked_hand_written_as_phh_says_its_rake_and_is_paid_as_written(tmp_path: Path) -> None:
    """to_phh writes what the house took (PHH's user-defined _rake and _jackpot_drop; the
    finishing stacks show it), PokerKit reads the file, and phh check under the same spec pays it
    to the chip; under the spec without the rake, the file's winners have less: a rake."""
    from pokerkit import HandHistory

    from betspec.tools import phh
    from tests.test_phh_variants import _host_hand

    load(tmp_path, json.loads((ROOT / "docs/examples/house/spec/rake_no_flop_no_drop.json").read_text()))
    raked_files = 0
    for seed in range(40):
        engine, dealer = _host_hand("rake_no_flop_no_drop", seed)
        text = phh.to_phh(engine, cards=dealer)
        assert ("_rake = " in text) == (engine.rake > 0) and ("_jackpot_drop = " in text) == (engine.jackpot_drop > 0)
        order = [(engine.button + 1 + i) % engine.seats for i in range(engine.seats)]
        history = HandHistory.loads(text)
        assert history.user_defined_fields.get("_rake", 0) == engine.rake
        (hand,) = phh.loads(text)
        assert isinstance(hand, phh.Hand)
        pots = phh.check_pots(phh.replay(hand, type(engine), engine.options))
        assert pots.status == phh.PAID and pots.rake == 0 and pots.stacks == tuple(engine.stacks[s] for s in order)
        if engine.rake:
            raked_files += 1
            plain = engine_class("no_limit")
            unraked = phh.check_pots(phh.replay(hand, plain, engine.options))
            assert unraked.status != phh.PAID or unraked.rake == engine.rake + engine.jackpot_drop, unraked.detail
    assert raked_files >= 10


def test_simulate_measures_the_rake_on_the_very_same_hands(tmp_path: Path) -> None:
    """A spec with a rake has its hands' pots paid: the hands and actions are the ones simulate
    plays without the rake, the house's take the sum of each hand's, whatever the workers."""
    from betspec.runtime.batch import play_drawn
    from betspec.tools.simulate import BOT, TABLES, simulate

    cls = load(tmp_path, json.loads((ROOT / "docs/examples/house/spec/rake_no_flop_no_drop.json").read_text()))
    plain = play_drawn(engine_class("no_limit"), 400, BOT, 7, tables=TABLES)
    settled = play_drawn(cls, 400, BOT, 7, tables=TABLES, settle=True, keep_stacks=True)
    assert (settled.hands, settled.actions, settled.chips) == (plain.hands, plain.actions, plain.chips)
    assert settled.raked > 0 and sum(map(sum, settled.stacks)) == settled.chips - settled.raked
    unraked = play_drawn(engine_class("no_limit"), 400, BOT, 7, tables=TABLES, settle=True)
    assert unraked.raked == 0 and unraked.actions == plain.actions
    one, _ = simulate("rake_no_flop_no_drop", 4000, 1, seed=3)
    two, _ = simulate("rake_no_flop_no_drop", 4000, 2, seed=3)
    assert one == two and one.raked > 0
    with pytest.raises(Exception, match="settle must be True or False"):
        play_drawn(cls, 1, BOT, 7, settle="yes")  # type: ignore[arg-type]
