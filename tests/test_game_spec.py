"""A spec's game: the cards it deals and how its showdown ranks them, declared in JSON.

The dealer (cards.Dealer, `betspec play`, the PHH layer) deals what the spec says, not a game
guessed from the structure's name or streets."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

from betspec import cards, house, vocabulary
from betspec.frontend import load_spec
from betspec.runtime import Table, engine_class
from tests.conftest import ROOT, SPEC_DIR

HEAD = {"spec_version": "1.1", "title": "t", "description": "d"}
OMAHA = {
    "preflop": {"hole": ["down"] * 4},
    "flop": {"board": 3},
    "turn": {"board": 1},
    "river": {"board": 1},
}
EXAMPLES = ROOT / "docs" / "examples" / "house" / "spec"


def example(name: str) -> dict[str, Any]:
    """A game of the example house (docs/examples/house), as its author wrote it, to be written
    again under a name of the test's."""
    body = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return {key: value for key, value in body.items() if key not in ("name", "$schema")}


PLO = example("pot_limit_omaha")


#: The PHH variant each shipped structure's cards are: the game PokerKit deals under that code,
#: as betspec dealt these structures before specs said their games (games.json's old table).
SHIPPED = {
    "no_limit": "NT",
    "pot_limit": "NT",
    "cap_no_limit": "NT",
    "cap_pot_limit": "NT",
    "spread_limit": "NT",
    "fixed_limit": "FT",
    "seven_card_stud": "F7S",
    "razz": "FR",
    "five_card_draw_no_limit": "N2L1D",
    "five_card_draw_pot_limit": "N2L1D",
    "five_card_draw_fixed_limit": "N2L1D",
    "triple_draw": "F2L3D",
    "badugi": "FB",
}


def write(folder: Path, name: str, body: dict[str, Any]) -> Path:
    path = folder / f"{name}.json"
    path.write_text(json.dumps({**HEAD, "name": name, **body}))
    return path


def problems(folder: Path, name: str, body: dict[str, Any]) -> list[tuple[str, str, str]]:
    spec, found = load_spec(str(write(folder, name, body)))
    assert spec is None, "the spec was accepted"
    return [(d.pointer, str(d.code), d.message) for d in found]


@pytest.mark.parametrize(("structure", "code"), sorted(SHIPPED.items()))
def test_each_shipped_structure_is_dealt_the_game_its_spec_declares(structure: str, code: str) -> None:
    game = cards.game_of(engine_class(structure))
    known = cards.GAMES[code]
    assert game.code == code and game.structure == structure
    assert (game.hole, game.board, game.draw, game.hands, game.opening, game.short_deck) == (
        known.hole,
        known.board,
        known.draw,
        known.hands,
        known.opening,
        known.short_deck,
    )
    assert (game.ace_low, game.distinct_suits, game.limits) == (known.ace_low, known.distinct_suits, known.limits)


def test_every_kind_of_hand_the_language_names_has_an_evaluator() -> None:
    assert set(cards.HAND_TYPES) == set(vocabulary.HAND_KINDS)
    assert set(vocabulary.LOW_HAND_KINDS) <= set(vocabulary.HAND_KINDS)


def test_an_extending_spec_changes_the_parts_of_its_bases_game_it_gives() -> None:
    razz, _ = load_spec(str(SPEC_DIR / "razz.json"))
    stud, _ = load_spec(str(SPEC_DIR / "seven_card_stud.json"))
    assert razz is not None and stud is not None and razz.game is not None and stud.game is not None
    assert razz.game.deals == stud.game.deals and razz.game.deck == stud.game.deck
    assert (razz.game.showdown, razz.game.opening, razz.game.name) == (("ace_to_five_low",), "high_card", "Razz")
    assert (stud.game.showdown, stud.game.opening) == (("high",), "low_card")


def test_a_spec_that_replaces_the_streets_without_a_game_has_none(tmp_path: Path) -> None:
    streets = [{"name": "before", "meaning": "m"}, {"name": "after", "meaning": "m"}]
    spec, found = load_spec(str(write(tmp_path, "two_rounds", {"extends": "no_limit.json", "streets": streets})))
    assert spec is not None and not [d for d in found if not d.is_warning]
    assert spec.game is None
    with pytest.raises(cards.CardError, match="declares no game"):
        cards.game_of(house.load(tmp_path / "two_rounds.json"))


def test_a_game_given_null_deals_no_cards() -> None:
    spec, _ = load_spec(str(SPEC_DIR / "jacks_or_better.json"))
    assert spec is not None and spec.game is None


def test_a_house_deals_pot_limit_omaha_from_its_spec_alone(tmp_path: Path) -> None:
    cls = house.load(write(tmp_path, "house_plo", PLO))
    game = cards.game_of(cls)
    assert game.code == "PO" and game.name == "pot-limit Omaha" and game.hands == ("OmahaHoldemHand",)
    for seed in range(20):
        dealer = cards.Dealer(game, 4, seed=seed)
        engine = _played_down(cls, dealer, Table(stacks=[1000] * 4, button=0, blinds=(5, 10)))
        assert all(len(held) == 4 for held in dealer.hole) and len(dealer.board) == 5
        assert sum(engine.stacks) == 4000
        # The pot goes to the best Omaha hand (exactly two hole cards), as PokerKit ranks it.
        best = _omaha_winners(dealer)
        assert {seat for seat in range(4) if engine.stacks[seat] > 990} == best


def _omaha_winners(dealer: cards.Dealer) -> set[int]:
    from pokerkit import OmahaHoldemHand

    board = "".join(dealer.board)
    hands = {seat: OmahaHoldemHand.from_game("".join(held), board) for seat, held in enumerate(dealer.hole)}
    top = max(hands.values())
    return {seat for seat, hand in hands.items() if hand == top}


def test_betspec_play_deals_a_house_spec_its_own_cards(tmp_path: Path) -> None:
    path = write(tmp_path, "house_plo", PLO)
    betspec = str(Path(sys.executable).with_name("betspec"))
    command = [betspec, "play", path.name, "--seats", "3", "--bots", "all", "--hands", "1"]
    shown = subprocess.run([*command, "--seed", "5"], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert "dealt as pot-limit Omaha (PO)" in shown.stdout
    assert "hold'em" not in shown.stdout


@pytest.mark.parametrize(
    ("body", "pointer", "code", "words"),
    [
        (
            {"game": {"deals": {**OMAHA, "flopp": {"board": 1}}, "showdown": ["high"]}},
            "/game/deals/flopp",
            "game",
            "street 'flopp', which the spec does not have (did you mean 'flop'?)",
        ),
        (
            {"game": {"deals": OMAHA, "showdown": ["low_eight", "omaha_high"]}},
            "/game/showdown",
            "game",
            "a split game lists its high hand, then its low",
        ),
        (
            {"game": {"deals": {"preflop": {"hole": ["down", "down"]}}, "showdown": ["omaha_high"]}},
            "/game/showdown",
            "game",
            "a hand of omaha_high takes 3 board cards; the game deals 0",
        ),
        (
            {"game": {"deals": OMAHA, "showdown": ["high"], "opening": "low_card"}},
            "/game/opening",
            "game",
            "deal the first street one face up",
        ),
        (
            {"game": {"deals": {"flop": {"board": 3}}, "showdown": ["high"]}},
            "/game/deals",
            "game",
            "the game deals no hole cards",
        ),
        (
            # jacks_or_better's game is null: a game written over it is whole, nothing inherited.
            {"extends": "jacks_or_better.json", "game": {"deals": {"predraw": {"hole": ["down"] * 5}}}},
            "/game",
            "missing",
            "the game has no 'showdown'",
        ),
        (
            {"game": {"deals": OMAHA, "showdown": ["high"], "rule": "NOPE"}},
            "/game/rule",
            "unknown-rule",
            "cites rule 'NOPE'",
        ),
        ({"game": {"deals": OMAHA, "showdown": ["highest"]}}, "/game/showdown/0", "schema", "highest"),
        (
            {"game": {"deals": OMAHA, "showdown": ["high"], "deck": {"ranks": "JQKJ", "suits": "hs"}}},
            "/game/deck/ranks",
            "game",
            "the deck's ranks name J more than once",
        ),
        (
            {"game": {"deals": OMAHA, "showdown": ["high"], "deck": {"ranks": "JQK", "suits": "s"}}},
            "/game/deck",
            "game",
            "the deck holds 3 cards; two seats are dealt 13",
        ),
        (
            {"game": {"deals": OMAHA, "showdown": ["high"], "deck": {"ranks": "JQX", "suits": "s"}}},
            "/game/deck",
            "schema",
            "",
        ),
    ],
)
def test_a_game_that_cannot_be_dealt_as_written_is_refused_where_it_is_written(
    tmp_path: Path, body: dict[str, Any], pointer: str, code: str, words: str
) -> None:
    found = problems(tmp_path, "house", {"extends": "no_limit.json"} | body)
    assert any(p == pointer and c == code and words in m for p, c, m in found), found


def test_the_book_and_the_schema_carry_the_game_vocabulary() -> None:
    schema = json.loads((ROOT / "spec" / "schema" / "spec.schema.json").read_text())
    game = schema["properties"]["game"]["properties"]
    named, data = game["deck"]["oneOf"]
    assert named["enum"] == list(vocabulary.DECKS)
    assert data["properties"]["ranks"]["pattern"] == f"^[{vocabulary.CARD_RANKS}]{{1,{len(vocabulary.CARD_RANKS)}}}$"
    assert data["properties"]["suits"]["pattern"] == f"^[{vocabulary.CARD_SUITS}]{{1,{len(vocabulary.CARD_SUITS)}}}$"
    assert game["showdown"]["items"]["enum"] == list(vocabulary.HAND_KINDS)
    assert game["opening"]["enum"] == list(vocabulary.OPENINGS)
    faces = game["deals"]["additionalProperties"]["properties"]["hole"]["items"]["enum"]
    assert faces == list(vocabulary.CARD_FACES)


CRAZY_PINEAPPLE = example("crazy_pineapple")


def test_crazy_pineapple_discards_one_card_after_the_flop_before_the_turn(tmp_path: Path) -> None:
    cls = house.load(write(tmp_path, "crazy_pineapple", CRAZY_PINEAPPLE))
    game = cards.game_of(cls)
    assert game.code == "" and game.discards == (0, 0, 1, 0) and game.hands == ("StandardHighHand",)
    dealer = cards.Dealer(game, 3, seed=4)
    engine = cls(Table(stacks=[500] * 3, button=0, blinds=(5, 10)))
    assert all(len(held) == 3 for held in dealer.hole)
    with pytest.raises(cards.CardError, match="no discard before street 2"):
        dealer.discard(0, dealer.hole[0][:1])
    while engine.to_act is not None:  # the preflop round, called around
        seat = engine.to_act
        engine.call(seat) if "call" in engine.legal_actions() else engine.check(seat)
    dealer.deal(engine)  # the flop
    while engine.to_act is not None:
        engine.check(engine.to_act)
    before = [list(held) for held in dealer.hole]
    with pytest.raises(cards.CardError, match="seat 0 discards 1 before the turn is dealt"):
        dealer.deal(engine)
    with pytest.raises(cards.CardError, match="discards 1 of its cards here"):
        dealer.discard(0, dealer.hole[0][:2])
    assert dealer.hole == before and engine.street_name == "flop"  # a refusal changes nothing
    for seat in range(3):
        dealer.discard(seat, [dealer.hole[seat][seat]])
    with pytest.raises(cards.CardError, match="discarded already"):
        dealer.discard(0, dealer.hole[0][:1])
    dealer.deal(engine)
    assert [len(held) for held in dealer.hole] == [2, 2, 2] and len(dealer.board) == 4
    assert [dealer.discards[seat] for seat in range(3)] == [[before[seat][seat]] for seat in range(3)]


def test_betspec_play_deals_crazy_pineapple_and_bots_discard(tmp_path: Path) -> None:
    path = write(tmp_path, "crazy_pineapple", CRAZY_PINEAPPLE)
    betspec = str(Path(sys.executable).with_name("betspec"))
    command = [betspec, "play", path.name, "--seats", "3", "--bots", "all", "--hands", "8", "--seed", "3"]
    shown = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert "dealt as crazy pineapple, the showdown ranked by PokerKit" in shown.stdout
    assert "(bot) discards 1" in shown.stdout and "(total 3000)" in shown.stdout.splitlines()[-1]


@pytest.mark.parametrize(
    ("turn", "words"),
    [
        ({"board": 1, "discard": 1, "draw": True}, "the turn both draws and discards"),
        ({"board": 1, "discard": 4}, "the turn discards 4 of the 3 hole cards dealt before it"),
    ],
)
def test_a_discard_the_hand_cannot_make_is_refused(tmp_path: Path, turn: dict[str, Any], words: str) -> None:
    body = json.loads(json.dumps(CRAZY_PINEAPPLE))
    body["game"]["deals"]["turn"] = turn
    found = problems(tmp_path, "crazy_pineapple", body)
    assert any(code == "game" and words in message for _, code, message in found), found


DOUBLE_BOARD_BOMB_POT = example("bomb_pot_every_orbit")


def _played_down(cls: type[Any], dealer: cards.Dealer, table: Table) -> Any:
    """A hand checked down to its end and paid by the dealer."""
    engine = cls(table)
    dealer.follow(engine)
    while not engine.paid:
        if engine.to_act is not None:
            (engine.call if "call" in engine.legal_actions() else engine.check)(engine.to_act)
        elif engine.next_street is not None:
            dealer.deal(engine)
        else:
            dealer.settle(engine)
    return engine


def _winners(board: list[str], holes: list[list[str]]) -> set[int]:
    from pokerkit import StandardHighHand

    hands = {seat: StandardHighHand.from_game("".join(held), "".join(board)) for seat, held in enumerate(holes)}
    top = max(hands.values())
    return {seat for seat, hand in hands.items() if hand == top}


def test_a_bomb_pot_is_dealt_two_boards_each_paying_half_of_the_pot(tmp_path: Path) -> None:
    cls = house.load(write(tmp_path, "double_board", DOUBLE_BOARD_BOMB_POT))
    game = cards.game_of(cls)
    assert (game.boards, game.boards_when, game.code) == (2, "bomb_pot", "NT")
    split = 0
    for seed in range(40):
        dealer = cards.Dealer(game, 3, seed=seed)
        engine = _played_down(cls, dealer, Table(stacks=[500] * 3, button=0, blinds=(5, 10), bomb_pot=51))
        boards = dealer.all_boards
        assert [len(board) for board in boards] == [5, 5] and not set(boards[0]) & set(boards[1])
        assert engine.street_name is not None and sum(engine.stacks) == 1500
        # 153 chips: each board 76 (the odd chip of the division to the first board), split among
        # its best hands, their odd chips from the first seat left of the button.
        won = [stack - 449 for stack in engine.stacks]
        expected = [0, 0, 0]
        for board, portion in zip(boards, (77, 76), strict=True):
            best = sorted(_winners(board, dealer.hole), key=lambda seat: (seat - 1) % 3)
            for place, seat in enumerate(best):
                expected[seat] += portion // len(best) + (place < portion % len(best))
        assert won == expected, (seed, boards, dealer.hole)
        split += _winners(boards[0], dealer.hole) != _winners(boards[1], dealer.hole)
    assert split  # some hands split the pot between the boards' winners


def test_a_hand_that_is_not_a_bomb_pot_is_dealt_one_board(tmp_path: Path) -> None:
    cls = house.load(write(tmp_path, "double_board", DOUBLE_BOARD_BOMB_POT))
    dealer = cards.Dealer(cards.game_of(cls), 3, seed=1)
    _played_down(cls, dealer, Table(stacks=[500] * 3, button=0, blinds=(5, 10)))
    assert dealer.other_boards == [] and len(dealer.board) == 5


def test_betspec_play_deals_the_orbit_s_bomb_pot_on_both_boards(tmp_path: Path) -> None:
    path = write(tmp_path, "double_board", DOUBLE_BOARD_BOMB_POT)
    betspec = str(Path(sys.executable).with_name("betspec"))
    command = [betspec, "play", path.name, "--seats", "3", "--bots", "all", "--hands", "3", "--seed", "1"]
    shown = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    first, second, third = (part.split("=== hand ", 1)[0] for part in shown.stdout.split("=== hand ")[1:])
    # The table's second hand is the orbit's bomb pot (next_hand says so): two boards, whose
    # seeded showdown has each board pay its half; the hands around it have one board.
    assert "the hand begins on the flop: board 1 " in second and "; board 2 " in second
    assert any(line.startswith("showdown: seat") and "; board 2 " in line for line in second.splitlines())
    paid = re.findall(r"(?m)^pot 1, board (\d) \((\d+)\) to seat \d$", second)
    assert [board for board, _ in paid] == ["1", "2"] and abs(int(paid[0][1]) - int(paid[1][1])) <= 1
    assert "board 1 " not in first and "board 1 " not in third
    assert "(total 3000)" in shown.stdout.splitlines()[-1]


@pytest.mark.parametrize(
    ("game", "pointer", "code", "words"),
    [
        ({"boards": 2, "boards_when": "bomb"}, "/game/boards_when", "unknown-name", "(did you mean 'bomb_pot'?)"),
        ({"boards_when": "bomb_pot"}, "/game/boards_when", "game", "give boards (2)"),
    ],
)
def test_boards_on_a_condition_name_a_table_input(
    tmp_path: Path, game: dict[str, Any], pointer: str, code: str, words: str
) -> None:
    found = problems(tmp_path, "double_board", {"extends": "no_limit.json", "game": game})
    assert any(p == pointer and c == code and words in m for p, c, m in found), found


@pytest.mark.parametrize(
    ("code", "body"),
    [
        (
            "NS",
            {"extends": "no_limit.json", "game": {"deck": "short", "showdown": ["short_deck_high"]}},
        ),
        (
            "FO/8",
            {"extends": "fixed_limit.json", "game": {"deals": OMAHA, "showdown": ["omaha_high", "omaha_low_eight"]}},
        ),
        ("F7S/8", {"extends": "seven_card_stud.json", "game": {"showdown": ["high", "low_eight"]}}),
    ],
)
def test_a_house_spec_dealing_a_phh_variant_s_cards_is_named_and_ranked_as_it(
    tmp_path: Path, code: str, body: dict[str, Any]
) -> None:
    """Short deck (its flush over a full house), Omaha hi-lo and stud hi-lo written as house
    specs are dealt and ranked as the PHH variant PokerKit plays (whose pots the PHH tests check)."""
    game = cards.game_of(house.load(write(tmp_path, "house_game", body)))
    known = cards.GAMES[code]
    assert game.code == code
    assert (game.hole, game.board, game.hands, game.opening, game.short_deck, game.split) == (
        known.hole,
        known.board,
        known.hands,
        known.opening,
        known.short_deck,
        known.split,
    )
    dealer = cards.Dealer(game, 4, seed=1)
    deck = {card for card in [*dealer.deck, *(c for held in dealer.hole for c in held)]}
    assert len(deck) == (36 if game.short_deck else 52)


class _Broken:
    SPEC_NAME = "broken"
    GAME: ClassVar[dict[str, object]] = {"deals": 3, "showdown": ["highest"]}


@pytest.mark.parametrize("junk", [5, "no_limit", None, int, _Broken, [engine_class("no_limit")]])
def test_game_of_refuses_what_is_not_an_engine_class_with_a_game(junk: object) -> None:
    with pytest.raises(cards.CardError):
        cards.game_of(junk)  # type: ignore[arg-type]


@pytest.mark.parametrize("junk", [None, 5, "Ah", ["Zz"], [["Ah"]], [1], ["Ah", "Ah"], list(range(10**3))])
def test_a_discard_of_junk_is_refused_and_changes_nothing(tmp_path: Path, junk: object) -> None:
    dealer = cards.Dealer(cards.game_of(house.load(write(tmp_path, "crazy_pineapple", CRAZY_PINEAPPLE))), 3, seed=9)
    dealer.street = 2  # as if the flop were dealt: the turn's discard is due
    before = ([list(held) for held in dealer.hole], [dict(d) for d in dealer.draws], list(dealer.deck))
    with pytest.raises(cards.CardError):
        dealer.discard(0, junk)  # type: ignore[arg-type]
    assert ([list(held) for held in dealer.hole], [dict(d) for d in dealer.draws], list(dealer.deck)) == before
    for seat in (-1, 3, "0", None):
        with pytest.raises(cards.CardError):
            dealer.discard(seat, dealer.hole[0][:1])  # type: ignore[arg-type]


def test_the_book_shows_each_structure_s_cards() -> None:
    razz = (ROOT / "docs" / "reference" / "razz.md").read_text(encoding="utf-8")
    cards_section = razz.split("## The cards", 1)[1].split("\n## ", 1)[0]
    assert "ace\\_to\\_five\\_low" in cards_section and "Rule: [RAZZ](#rule-razz)" in cards_section
    assert "| `third` | down, down, up | none |  |" in cards_section
    # The rules of the games razz does not deal (hold'em's, stud's) are cited only by its bases.
    assert "rule-holdem" not in razz and "rule-stud-cards" not in razz
    jacks = (ROOT / "docs" / "reference" / "jacks_or_better.md").read_text(encoding="utf-8")
    assert "## The cards" not in jacks


def test_a_human_at_betspec_play_discards_as_crazy_pineapple_asks(tmp_path: Path) -> None:
    import argparse
    import io
    import re

    from betspec.cli import parser
    from betspec.tools.play import run

    path = write(tmp_path, "crazy_pineapple", CRAZY_PINEAPPLE)
    args = parser().parse_args(["play", str(path), "--seats", "3", "--bots", "1,2", "--seed", "6", "--hands", "3"])
    assert isinstance(args, argparse.Namespace)
    out = io.StringIO()
    # Checks and calls, and at the discard first two cards (refused: one is due), then the first.
    assert run(args, io.StringIO("x\nc\ndiscard 1 2\ndiscard 1\n" * 200), out) == 0
    shown = out.getvalue()
    asked = re.findall(r"(?m)^seat 0 discards 1; your cards 1:(\S\S)  2:(\S\S)  3:(\S\S)$", shown)
    assert asked, shown
    assert "discard 1 of your cards (by place or by card), not 2" in shown
    for first, second, third in asked:
        assert f"seat 0 discards {first}: {second} {third}" in shown
    assert shown.splitlines()[-1].endswith("(total 3000)")


def test_phh_check_takes_a_variant_s_hands_under_a_house_spec(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder of mixed variants, no --structure: pot-limit Omaha's hands under the house's own
    Omaha spec (--variant PO=...), no-limit hold'em's under its own; every pot paid as PokerKit
    paid it."""
    import random

    from betspec.cli import main
    from tests.test_phh_variants import pokerkit_hand

    house.load(write(tmp_path, "house_plo", PLO))  # the house's engine, in this process
    folder = tmp_path / "hands"
    folder.mkdir()
    # Hands where PokerKit plays as the rulebooks do (tests/test_phh_variants.py checks the rest,
    # with the exclusions docs/testing.md lists).
    rng = random.Random("variant-2")
    for number in range(4):
        (folder / f"po{number}.phh").write_text(pokerkit_hand("PO", rng), encoding="utf-8")
        (folder / f"nt{number}.phh").write_text(pokerkit_hand("NT", rng), encoding="utf-8")
    status = main(["phh", "check", "--variant", "PO=house_plo", str(folder)])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0, lines
    summary = lines[-1]
    assert "8 hands under each variant's structure (PO under house_plo) in 8 files: 8 accepted" in summary
    assert "pots checked against the file in 8 (8 paid as it says" in summary
    # The mapping is what checks them: Omaha's hands under a stud spec are not its to check.
    status = main(["phh", "check", "--variant", "PO=seven_card_stud", str(folder)])
    out = capsys.readouterr().out
    assert status == 1 and out.count("is not seven_card_stud's to check") == 4, out
    status = main(["phh", "check", "--variant", "PO=no_such_spec", str(folder)])
    assert status == 2 and "no_such_spec" in capsys.readouterr().out


@pytest.mark.parametrize("junk", [5, ["PO"], {"XX": "no_limit"}, {"PO": 5}, {"PO": "no_such_spec"}])
def test_hands_are_checked_under_a_name_or_a_mapping_of_variants_else_refused(junk: object) -> None:
    from betspec.tools import phh
    from betspec.tools.phh.audit import check_files, finished

    hands = str(ROOT / "tests" / "phh" / "handhq-abs-200nlh-sample.phhs")
    with pytest.raises(phh.PhhError):
        finished(hands, junk)  # type: ignore[arg-type]
    with pytest.raises(phh.PhhError):
        list(check_files([hands], junk, {}))  # type: ignore[arg-type]


FIVE_CARD_STUD = example("five_card_stud")


def test_five_card_stud_is_dealt_from_its_spec_the_upcards_opening_each_street(tmp_path: Path) -> None:
    """The house's five-card stud (extending seven-card stud with its own streets and game): one
    card down and one up, then an upcard a street; the lowest upcard brings in and the best hand
    showing opens each later street, as the dealer decides from the cards; every chip paid to the
    best hand shown."""
    cls = house.load(write(tmp_path, "five_stud", FIVE_CARD_STUD))
    game = cards.game_of(cls)
    assert (game.code, game.streets, game.opening) == ("", 4, "low_card")
    openings = showdowns = 0
    for seed in range(40):
        seats = 2 + seed % 5
        dealer = cards.Dealer(game, seats, seed=seed)
        table = Table.of([200] * seats, 0, {"ante": 1, "bring_in": 2, "bets": (5, 10), **dealer.table_inputs()})
        engine = cls(table)
        assert engine.to_act == dealer.table_inputs()["bring_in_seat"]
        while not engine.hand_over:
            if engine.to_act is None:
                dealer.deal(engine)
                live = [seat for seat in range(seats) if not engine.folded[seat]]
                if engine.to_act is not None:
                    assert engine.to_act == cards.opener(game, dealer.upcards(live), engine.button)
                    openings += 1
                continue
            legal = engine.legal_actions()
            engine.act(engine.to_act, next(a for a in ("bring_in", "check", "call") if a in legal))
        chips = engine.total_chips()
        settlement = dealer.settle(engine)
        assert sum(engine.stacks) == chips
        assert all(
            len(held) == 5 and dealer.up[seat] == [False, True, True, True, True]
            for seat, held in enumerate(dealer.hole)
        )
        best = cards.rankings(game, dict(enumerate(dealer.hole)), [])[0][0]
        assert {seat for seat, won in enumerate(settlement.won) if won} == set(best)
        showdowns += 1
    assert openings >= 100 and showdowns == 40


def test_betspec_play_deals_five_card_stud(tmp_path: Path) -> None:
    path = write(tmp_path, "five_stud", FIVE_CARD_STUD)
    betspec = str(Path(sys.executable).with_name("betspec"))
    command = [betspec, "play", path.name, "--seats", "4", "--bots", "all", "--hands", "3", "--seed", "2"]
    shown = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert "five-card stud" in shown.stdout and "brings in" in shown.stdout, shown.stdout
    assert "error" not in shown.stdout.lower() and "engine problem" not in shown.stdout, shown.stdout
