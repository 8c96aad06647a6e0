"""The TypeScript cards module (``betspec/runtime/typescript/cards.ts``) against ``betspec.cards``.

- it compiles under ``tsc --strict`` with the package it is copied into (typescript_run.build);
- its ``rankings`` rank every hand kind exactly as the Python side (PokerKit's evaluators, and
  phevaluator where it stands in for them) on thousands of random deals per kind, dealt as the
  game deals them (hold'em, short deck, Omaha, stud, draw), half of them from a thinned deck so
  that straights, flushes, full houses and straight flushes come up, and on hands chosen for the
  edges (the wheel, the short deck's A-6-7-8-9, a deuce-to-seven A-2-3-4-5, badugis of one card);
  ties are grouped and ordered as Python's sort orders them, seats without a low left out, and
  the split games' ``settlementRankings`` are ``settlement_rankings``;
- its ``Dealer`` deals every game shape betspec ships as ``deals`` says, every card once, the same
  cards again for the same seed, and refuses bad input (naming the problem) changing nothing.

Every question goes to one Node process (JSON in, JSON out). The tests skip, saying why, where
Node or the TypeScript compiler (``npm ci --prefix generated/typescript``) is absent.
"""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from betspec import cards, vocabulary
from betspec.runtime import engine_class, engine_names
from betspec.tools import typescript_run
from tests.conftest import ROOT
from tests.test_typescript import MISSING

pytest.importorskip("pokerkit", reason="the Python rankings compared against need PokerKit")

#: Random deals compared per game.
DEALS = 2500
RANKS = cards.RANKS
SUITS = cards.SUITS
KIND_OF = {evaluator: kind for kind, evaluator in cards.HAND_TYPES.items()}

#: The games compared: PHH code -> (hole cards, board cards), each hand kind among them.
SHAPES: dict[str, tuple[int, int]] = {
    "NT": (2, 5),  # high, hold'em
    "F7S": (7, 0),  # high, stud
    "NS": (2, 5),  # short_deck_high
    "PO": (4, 5),  # omaha_high
    "FO/8": (4, 5),  # omaha_high, omaha_low_eight
    "F7S/8": (7, 0),  # high, low_eight
    "FR": (7, 0),  # ace_to_five_low
    "F2L3D": (5, 0),  # deuce_to_seven_low
    "FB": (4, 0),  # badugi
}


pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"cards.ts needs Node and tsc: {MISSING}")

#: Reads the questions (a JSON list) on stdin, answers each ({"ok": ...} or {"error": message}).
RUNNER = r"""
import { Dealer, bringInSeat, made, openPair, opener, rank, rankings, settlementRankings } from "./cards.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const questions = JSON.parse(Buffer.concat(chunks).toString("utf8"));

function answer(ask) {
  try {
    return { ok: ask() ?? null };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

// Holes as a list of [seat, cards] pairs are a Map (its order kept), else an object.
const holesOf = (holes) => (Array.isArray(holes) ? new Map(holes) : holes);

function ranked({ game, holes, board }) {
  const given = holesOf(holes);
  const found = rankings(game, given, board);
  const seats = given instanceof Map ? [...given] : Object.entries(given);
  const keys = game.showdown.map((kind) => seats.map(([, held]) => rank(kind, held, board)));
  return { rankings: found, settle: settlementRankings(found), keys };
}

// A card named by a step: a text as it is, a number the seat's own card at that place, [seat, at] another's.
const cardOf = (dealer, seat, item) =>
  typeof item === "string" ? item : Array.isArray(item) ? dealer.hole[item[0]]?.[item[1]] : dealer.hole[seat]?.[item];

const STEPS = {
  deal: (dealer, street, seats) => dealer.deal(street, seats),
  draw: (dealer, seat, items) => dealer.draw(seat, items.map((item) => cardOf(dealer, seat, item))),
  discard: (dealer, seat, items) => dealer.discard(seat, items.map((item) => cardOf(dealer, seat, item))),
  showdown: (dealer, seats) => dealer.showdown(seats),
  showdowns: (dealer, seats) => dealer.showdowns(seats),
  chooseBoards: (dealer, table) => dealer.chooseBoards(table),
};

function state(dealer) {
  const { hole, up, board, otherBoards, discards, undealt, street } = dealer;
  return JSON.parse(JSON.stringify({ hole, up, board, otherBoards, discards, undealt, street }));
}

function dealt({ game, seats, seed, script }) {
  const dealer = new Dealer(game, seats, seed);
  const initial = state(dealer);
  const steps = script.map(([name, ...args]) => ({ ...answer(() => STEPS[name](dealer, ...args)), state: state(dealer) }));
  return { initial, steps };
}

const ASK = {
  rankings: ranked,
  rank: ({ kind, hole, board }) => rank(kind, hole, board),
  made: ({ kind, hole, board }) => made(kind, hole, board),
  upcards: ({ game, upcards, street, button }) => ({
    bringIn: street === 0 ? bringInSeat(game, upcards) : null,
    opener: opener(game, upcards, button),
    openPair: openPair(upcards),
  }),
  settle: ({ ranked }) => settlementRankings(ranked),
  dealer: dealt,
};

process.stdout.write(JSON.stringify(questions.map((question) => answer(() => ASK[question.op](question)))));
"""


# ---- the games ---------------------------------------------------------------------------------


def card_game(code: str) -> dict[str, Any]:
    """The TypeScript CardGame of a PHH variant: a shipped spec's GAME where one deals it, else
    the variant written out as a spec's game would be."""
    for name in engine_names():
        cls = engine_class(name)
        if getattr(cls, "GAME", None) and cards.game_of(cls).code == code:
            return json.loads(json.dumps(cls.GAME))
    return written(cards.GAMES[code])


def written(game: cards.Game) -> dict[str, Any]:
    deals = [
        {
            "street": f"street {street}",
            "hole": ["up" if up else "down" for up in hole],
            "board": board,
            "draw": game.draws_before(street),
            "discard": 0,
        }
        for street, (hole, board) in enumerate(zip(game.hole, game.board, strict=True))
    ]
    return {
        "name": game.name,
        "deck": "short" if game.short_deck else "standard",
        "deals": deals,
        "showdown": [KIND_OF[hand] for hand in game.hands],
        "opening": game.opening,
        "rule": "",
        "boards": 1,
        "boards_when": "",
    }


def python_game(game: dict[str, Any]) -> cards.Game:
    """A Python game ranking as a CardGame's showdown says (all rankings reads of it)."""
    return dataclasses.replace(cards.GAMES["NT"], hands=tuple(cards.HAND_TYPES[kind] for kind in game["showdown"]))


CRAZY_PINEAPPLE = {
    "name": "crazy pineapple",
    "deck": "standard",
    "deals": [
        {"street": "preflop", "hole": ["down", "down", "down"], "board": 0, "draw": False, "discard": 0},
        {"street": "flop", "hole": [], "board": 3, "draw": False, "discard": 0},
        {"street": "turn", "hole": [], "board": 1, "draw": False, "discard": 1},
        {"street": "river", "hole": [], "board": 1, "draw": False, "discard": 0},
    ],
    "showdown": ["high"],
    "opening": "position",
    "rule": "CRAZY-PINEAPPLE",
    "boards": 1,
    "boards_when": "",
}


def dealer_games() -> dict[str, dict[str, Any]]:
    """Every game shape betspec ships (each PHH variant, each spec's GAME) and a discard game."""
    games = {f"PHH {code}": written(game) for code, game in cards.GAMES.items()}
    for name in engine_names():
        data = getattr(engine_class(name), "GAME", None)
        if data:
            games[f"spec {name}"] = json.loads(json.dumps(data))
    games["crazy pineapple"] = CRAZY_PINEAPPLE
    games["double board"] = {**written(cards.GAMES["NT"]), "boards": 2}
    return games


# ---- the deals -----------------------------------------------------------------------------


def full_deck(short: bool) -> list[str]:
    return [rank + suit for rank in (RANKS[4:] if short else RANKS) for suit in SUITS]


def thinned_deck(rng: random.Random, short: bool, needed: int) -> list[str]:
    """A few neighbouring ranks (wrapping past the ace, for the wheel) in one or two suits, grown
    until the deal fits: straights, flushes, full houses and straight flushes come up often."""
    ranks = RANKS[4:] if short else RANKS
    start, count, suits = rng.randrange(len(ranks)), rng.randint(5, 7), rng.randint(1, 2)
    while count * suits < needed:
        if suits < 4 and (count >= len(ranks) or rng.random() < 0.5):
            suits += 1
        else:
            count += 1
    chosen = rng.sample(SUITS, suits)
    return [ranks[(start + i) % len(ranks)] + suit for i in range(count) for suit in chosen]


def deal(rng: random.Random, code: str) -> dict[str, Any]:
    """One random showdown of the game: 2 to 6 seats (2 or 3 from a thinned deck), the seats given
    in a shuffled order half the time (a Map on the TypeScript side, a dict in that order here)."""
    hole, board = SHAPES[code]
    short = cards.GAMES[code].short_deck
    thin = rng.random() < 0.5
    seats = rng.randint(2, 3) if thin else rng.randint(2, 6)
    deck = thinned_deck(rng, short, seats * hole + board) if thin else full_deck(short)
    rng.shuffle(deck)
    order = list(range(seats))
    if rng.random() < 0.5:
        rng.shuffle(order)
    holes = {seat: deck[i * hole : (i + 1) * hole] for i, seat in enumerate(order)}
    return {"holes": holes, "board": deck[seats * hole : seats * hole + board], "ordered": order == sorted(order)}


def deals_of(code: str) -> list[dict[str, Any]]:
    rng = random.Random(f"typescript cards {code}")
    return [deal(rng, code) for _ in range(DEALS)]


def ranking_question(game: dict[str, Any], holes: dict[int, list[str]], board: Sequence[str], ordered: bool) -> dict:
    given: Any = {str(seat): held for seat, held in holes.items()} if ordered else [[s, h] for s, h in holes.items()]
    return {"op": "rankings", "game": game, "holes": given, "board": list(board)}


#: Hands chosen for the edges of each kind: (game code, board, each seat's cards, space apart).
EDGES: dict[str, tuple[str, str, str]] = {
    "high": (
        "F7S",
        "",
        "AhKhQhJhTh 5c4c3c2cAc 6d5d4d3d2d AsAdAcAh2c 2s2d2c2hAc AhAdAcKhKd KhKdKcAhAd AhJh9h7h5h AhJh9h7h4h AhKdQcJsTs 5h4d3c2sAs 6h5d4c3s2s AhAdAc2s3d AhAdKcKs2d AhAd2c3s4d AhKdQcJs9s AhKdQcJs9d 7h5d4c3s2s Kh5d4c3s2s AhKdQcJs8s KsKdQcQsAh KsKdQcQsJh",
    ),
    "short_deck_high": (
        "NS",
        "",
        "Ah6d7c8s9s 6h7d8c9sTs TsJsQsKsAs Ah6h7h8h9h 6h7h8h9hTh AhAdAc6s6d KhKdKc6s6d AhJh9h7h6h KhJh9h7h6h AhAdAc6s7d 9hTdJcQsKs AhAdAcAs6d AhAd6c6s7d AhAd6c7s8d AhKdQcJs9s Ah7d8c9sTs KhQhJh9h8h AhKhQhJh9h",
    ),
    "deuce_to_seven_low": (
        "F2L3D",
        "",
        "7h5d4c3s2s 7h6d4c3s2s 8h5d4c3s2s Ah5d4c3s2s 6h5d4c3s2s 7h5h4h3h2h KhQdJcTs8s 2h2d3c4s5s AhKdQcJsTs AhKdQcJs9s 7c5h4d3c2h 3h3d3c2s2h",
    ),
    "ace_to_five_low": (
        "FR",
        "",
        "5h4d3c2sAs 5h4h3h2hAh 6h4d3c2sAs AhAd2c3s4d 2h2d3c4s5s KhKdKcKsQh KhKdKcQsQh KhQdJcTs9s 6h5d4c3s2s AhAd2c2s3d AhAdAc2s3d Ah2d3c4s5sKhKd",
    ),
    "low_eight": (
        "F7S/8",
        "",
        "Ah2d3c4s5s9h9d 8h7d6c5s4sKhKd 9h7d6c5s4sKhKd Ah2d3c4s4h4d4c Ah2d3c4s6sAd2h Ah2h3h4h5hKhQh 8h7d6c5s4s3hKd AhAd2c2s3h3d4c",
    ),
    "omaha_low_eight": (
        "FO/8",
        "Ah2d3c9sKs",
        "4h5hQcQd 4d8d8c8h KhKdQsJs 2s3sAsAc 4c5c6c7c 6h7h4s5s AdAc2h3h 4s5sJhJd",
    ),
    "omaha_high": ("PO", "AhKhQh2d2c", "JhTh3c4c Jh3c4c5c 2s2hAcAd AdKdQd9s 3h4h5h6h JcTc9c8c KsKd7c7d AsAc3h4h"),
    "badugi": (
        "FB",
        "",
        "Ah2d3c4s Ah2h3c4s AhAd2c3s KhKdKcKs Ah2h3h4h KhQdJcTs Ah2d3c3s 2h3d4c5s Ac2d3h4s 2c2d2h2s Kh5d5c5s AhKhQhJh",
    ),
}


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every question of the module asked of cards.ts in one Node process: name -> its answers."""
    out = compile_cards(tmp_path_factory.mktemp("cards_ts"))
    questions: dict[str, list[dict[str, Any]]] = {}
    for code in SHAPES:
        game = card_game(code)
        questions[code] = [ranking_question(game, d["holes"], d["board"], d["ordered"]) for d in deals_of(code)]
    for kind, (code, board, hands) in EDGES.items():
        holes = {seat: cards.split_cards(text) for seat, text in enumerate(hands.split())}
        questions[f"edge {kind}"] = [ranking_question(card_game(code), holes, cards.split_cards(board), True)]
    questions["made"] = [question for _, question in made_questions()]
    questions["upcards"] = [question for _, question in upcard_questions()]
    questions["boards"] = board_questions()
    questions["refused"] = [question for question, _ in REFUSED]
    questions["dealer"] = [question for _, _, question in dealer_scripts()]
    questions["dealer refused"] = [question for question, _ in dealer_refusals()]
    questions["high cards"] = [question for _, _, question in high_cards_deals()]
    questions["own deck"] = [own_deck_question(seed) for seed in range(40)]
    names = [name for name, asked in questions.items() for _ in asked]
    every = [question for asked in questions.values() for question in asked]
    done = subprocess.run(
        [typescript_run.node(), str(out / "ask.mjs")],
        input=json.dumps(every),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    found: dict[str, list[Any]] = {name: [] for name in questions}
    for name, reply in zip(names, json.loads(done.stdout), strict=True):
        found[name].append(reply)
    return found


def compile_cards(folder: Path) -> Path:
    """cards.ts as the package compiles it (``tsc --strict``, with the engines and the runtime:
    typescript_run.build), and the questions' runner beside it."""
    built = typescript_run.build(str(ROOT))
    (folder / "package.json").write_text('{"type": "module"}\n')
    (folder / "ask.mjs").write_text(RUNNER.replace('"./cards.js"', json.dumps((built / "cards.js").as_uri())))
    return folder


def ok(reply: dict[str, Any]) -> Any:
    assert "error" not in reply, reply["error"]
    return reply["ok"]


# ---- rankings ------------------------------------------------------------------------------


def test_cards_ts_compiles_under_tsc_strict(answers: dict[str, Any]) -> None:
    """The package's copy is the source's (betspec generate --check keeps them so), compiled with
    the engines under tsc --strict, and answers."""
    source = (ROOT / "generator" / "betspec" / "runtime" / "typescript" / "cards.ts").read_text(encoding="utf-8")
    assert (ROOT / "generated" / "typescript" / "src" / "cards.ts").read_text(encoding="utf-8").endswith(source)
    assert all("ok" in reply for reply in answers["NT"])


@pytest.mark.parametrize("code", list(SHAPES))
def test_random_showdowns_rank_as_python(code: str, answers: dict[str, Any]) -> None:
    game = cards.GAMES[code]
    assert [KIND_OF[hand] for hand in game.hands] == card_game(code)["showdown"]
    for dealt, reply in zip(deals_of(code), answers[code], strict=True):
        expected = cards.rankings(game, dealt["holes"], dealt["board"])
        got = ok(reply)
        assert got["rankings"] == expected, (code, dealt)
        assert got["settle"] == cards.settlement_rankings(expected), (code, dealt)


def test_the_deals_reach_every_category_ties_and_missing_lows(answers: dict[str, Any]) -> None:
    """The random deals are a fair test: each kind's every category comes up (its key's first
    element), seats tie, lows fail to qualify, and a split pot's low goes to another seat."""
    categories: dict[str, set[int]] = {}
    ties = missing = split = 0
    for code in SHAPES:
        showdown = card_game(code)["showdown"]
        for reply in answers[code]:
            got = ok(reply)
            for kind, keys in zip(showdown, got["keys"], strict=True):
                if kind not in ("low_eight", "omaha_low_eight"):  # a key of ranks alone, no category
                    categories.setdefault(kind, set()).update(key[0] for key in keys if key)
                missing += sum(key is None for key in keys)
            ties += any(len(group) > 1 for ranking in got["rankings"] for group in ranking)
            split += "runs" in got["settle"] and got["settle"]["runs"][0][0] != got["settle"]["runs"][1][0]
    assert categories["high"] == categories["short_deck_high"] == categories["omaha_high"] == set(range(9))
    assert categories["deuce_to_seven_low"] == {-c for c in range(9)}
    # Seven cards of five ranks or more always hold two pair or better as a razz low: three of a
    # kind and worse come up in the hands at the edges only.
    assert categories["ace_to_five_low"] == {0, -1, -2}
    assert categories["badugi"] == {1, 2, 3, 4}
    assert ties > 1000 and missing > 1000 and split > 500


#: The games whose first hand is high or low, for what a hand makes (a payment's ``makes``).
MADE = ("NT", "NS", "PO", "F7S", "FR", "F2L3D", "FB")


def made_questions() -> list[tuple[tuple[cards.Game, list[str], list[str]], dict[str, Any]]]:
    """Each seat's hand of the first 400 random deals of each game in MADE, asked what it makes
    as the game's first hand kind: (the Python game, hole, board) and the question."""
    asked = []
    for code in MADE:
        game = card_game(code)
        for dealt in deals_of(code)[:400]:
            for held in dealt["holes"].values():
                question = {"op": "made", "kind": game["showdown"][0], "hole": held, "board": dealt["board"]}
                asked.append(((cards.GAMES[code], held, dealt["board"]), question))
    return asked


def test_what_a_hand_makes_is_python_s(answers: dict[str, Any]) -> None:
    """cards.ts's made names what PokerKit's label names (betspec.cards.made) for the high kinds,
    every category among them; nothing for razz, deuce-to-seven and badugi (first ranked low)."""
    made: dict[str, set[Any]] = {}
    for ((game, hole, board), _), reply in zip(made_questions(), answers["made"], strict=True):
        expected = cards.made(game, hole, board)
        assert ok(reply) == expected, (game.code, hole, board)
        made.setdefault(game.code, set()).add(expected)
    assert made["NT"] == made["F7S"] == made["PO"] == made["NS"] == set(vocabulary.HAND_CATEGORIES)
    assert made["FR"] == made["F2L3D"] == made["FB"] == {None}


def upcard_questions() -> list[tuple[tuple[cards.Game, int, dict[int, list[str]], int | None], dict[str, Any]]]:
    """Stud and razz hands of 2 to 7 seats, a third of them from a thinned deck (pairs and trips
    showing), each street's upcards asked who brings in (the first), who opens and whether a pair
    shows: (the Python game, street, upcards) and the question."""
    rng = random.Random("typescript upcards")
    asked = []
    for code in ("F7S", "FR", "F7S/8"):
        game = cards.GAMES[code]
        data = card_game(code)
        statuses = [up for street in game.hole for up in street]
        for _ in range(300):
            thin = rng.random() < 0.34
            seats = rng.randint(2, 4) if thin else rng.randint(2, 7)
            deck = thinned_deck(rng, False, seats * 7) if thin else full_deck(False)
            rng.shuffle(deck)
            held = {seat: deck[seat * 7 : seat * 7 + 7] for seat in range(seats)}
            for street in range(4):
                dealt = sum(len(s) for s in game.hole[: street + 1])
                ups = {s: [c for c, up in zip(held[s][:dealt], statuses, strict=False) if up] for s in held}
                # Ties go to the first seat after the button (half the time given), else the lowest.
                button = rng.randrange(seats) if rng.random() < 0.5 else None
                question = {
                    "op": "upcards",
                    "game": data,
                    "street": street,
                    "upcards": {str(s): u for s, u in ups.items()},
                    "button": button,
                }
                asked.append(((game, street, ups, button), question))
    return asked


def test_what_the_upcards_decide_is_python_s(answers: dict[str, Any]) -> None:
    """cards.ts decides the bring-in, each later street's opener and the open pair as
    betspec.cards does (PokerKit's opening lookups): on ties, pairs, trips and razz's reversal."""
    ties = pairs = 0
    for ((game, street, ups, button), _), reply in zip(upcard_questions(), answers["upcards"], strict=True):
        got = ok(reply)
        if street == 0:
            assert got["bringIn"] == cards.bring_in_seat(game, ups), (game.code, ups)
        assert got["opener"] == cards.opener(game, ups, button), (game.code, street, ups, button)
        assert got["openPair"] == cards.open_pair(ups), (game.code, ups)
        keys = [tuple(sorted(card[0] for card in u)) for u in ups.values()]
        ties += street > 0 and len(set(keys)) < len(keys)
        pairs += got["openPair"]
    assert ties > 50 and pairs > 50, (ties, pairs)


#: A game whose boards depend on the table (a bomb pot's double board).
BOMB_POT = {**written(cards.GAMES["NT"]), "boards": 2, "boards_when": "bomb_pot"}


def board_questions() -> list[dict[str, Any]]:
    """A bomb pot's hand three ways: chosen before the first board card, not a bomb pot, and
    chosen after a board card."""
    hand = [["deal", 0, [0, 1, 2]], ["deal", 1, [0, 1, 2]], ["deal", 2, [0, 1, 2]], ["deal", 3, [0, 1, 2]]]
    scripts = [
        [["chooseBoards", {"bomb_pot": 20}], *hand, ["showdowns", [0, 1, 2]]],
        [["chooseBoards", {"bomb_pot": 0}], *hand],
        [*hand[:2], ["chooseBoards", {"bomb_pot": 20}], *hand[2:]],
    ]
    return [{"op": "dealer", "game": BOMB_POT, "seats": 3, "seed": 5, "script": script} for script in scripts]


def test_a_table_s_input_deals_a_double_board(answers: dict[str, Any]) -> None:
    """chooseBoards before the first board card deals every board, each ranked as Python ranks
    it; a false input, or a choice after a board card, one board."""
    game = BOMB_POT
    double, single, late = (ok(reply)["steps"] for reply in answers["boards"])
    final = double[-2]["state"]
    assert [len(board) for board in [final["board"], *final["otherBoards"]]] == [5, 5]
    every = [c for held in final["hole"] for c in held] + final["board"] + final["otherBoards"][0] + final["undealt"]
    assert sorted(every) == sorted(full_deck(False))
    holes = {seat: final["hole"][seat] for seat in range(3)}
    python = python_game(game)
    assert ok(double[-1]) == [cards.rankings(python, holes, board) for board in [final["board"], *final["otherBoards"]]]
    assert single[-1]["state"]["otherBoards"] == [] == late[-1]["state"]["otherBoards"]


@pytest.mark.parametrize("kind", list(EDGES))
def test_hands_at_the_edges_rank_as_python(kind: str, answers: dict[str, Any]) -> None:
    """Hands chosen where rankings differ between rulebooks, all at one showdown. PokerKit, which
    the Python side ranks with, decides: a short deck's flush beats its full house but its
    straight still beats three of a kind, A-6-7-8-9 its lowest straight; deuce-to-seven's
    A-2-3-4-5 is ace high; a badugi is its most cards of distinct ranks and suits, then the lowest."""
    code, board, hands = EDGES[kind]
    holes = {seat: cards.split_cards(text) for seat, text in enumerate(hands.split())}
    expected = cards.rankings(cards.GAMES[code], holes, cards.split_cards(board))
    (reply,) = answers[f"edge {kind}"]
    assert ok(reply)["rankings"] == expected
    assert kind in card_game(code)["showdown"]


#: Questions cards.ts refuses, and what its message says.
REFUSED: list[tuple[dict[str, Any], str]] = [
    ({"op": "rank", "kind": "high", "hole": ["Xx", "Ah"], "board": []}, 'no card "Xx"'),
    ({"op": "rank", "kind": "high", "hole": ["1h", "Ah"], "board": []}, 'no card "1h"'),
    ({"op": "rank", "kind": "high", "hole": ["Ah", "Kd"], "board": ["Ah", "2c", "3d"]}, "the card Ah is given twice"),
    ({"op": "rank", "kind": "lowball", "hole": ["Ah"], "board": []}, 'no hand kind "lowball"'),
    (
        {"op": "rankings", "game": written(cards.GAMES["NT"]), "holes": {"0": ["??", "??"]}, "board": []},
        "seat 0 shows down and its cards are not all known",
    ),
    (
        {"op": "rankings", "game": written(cards.GAMES["PO"]), "holes": {"1": ["Ah", "Kd", "2c", "3c"]}, "board": []},
        "omaha_high makes no hand of seat 1's AhKd2c3c",
    ),
]


def test_bad_cards_and_kinds_are_refused_by_name(answers: dict[str, Any]) -> None:
    for (question, message), reply in zip(REFUSED, answers["refused"], strict=True):
        assert message in reply.get("error", ""), (question, reply)


# ---- the dealer ----------------------------------------------------------------------------


def seats_that_fit(game: dict[str, Any], draws: int) -> int:
    """The most seats (10 at most) the deck deals the whole hand to, each seat drawing ``draws``
    cards at each draw."""
    deck = 36 if game["deck"] == "short" else 52
    hole = sum(len(d["hole"]) for d in game["deals"])
    board = sum(d["board"] for d in game["deals"])
    drawn = draws * sum(d["draw"] for d in game["deals"])
    return max(seats for seats in range(2, 11) if seats * (hole + drawn) + board <= deck or seats == 2)


def hand_script(game: dict[str, Any], seats: int, folding: bool) -> list[list[Any]]:
    """A whole hand: each street dealt to the seats still in (with folding, a seat folds a street),
    each draw or discard the game opens a street with done by each of them first, then the showdown."""
    script: list[list[Any]] = []
    live = list(range(seats))
    for street, dealt in enumerate(game["deals"]):
        if folding and street and len(live) > 2:
            live = live[1:]
        held = sum(len(d["hole"]) for d in game["deals"][:street])
        for seat in live:
            if dealt["draw"]:
                script.append(["draw", seat, list(range((seat + street) % (min(held, 3) + 1)))])
            if dealt["discard"]:
                script.append(["discard", seat, list(range(dealt["discard"]))])
        script.append(["deal", street, live])
    script.append(["showdown", live])
    return script


def dealer_scripts() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Per game shape: the most seats, then two, then folding; each seed twice, then another seed."""
    found = []
    for name, game in dealer_games().items():
        most = seats_that_fit(game, 3)
        for seats, folding, seed in [
            (most, False, 7),
            (most, False, 7),
            (2, False, "two"),
            (most, True, 8),
            (most, False, 9),
        ]:
            question = {
                "op": "dealer",
                "game": game,
                "seats": seats,
                "seed": seed,
                "script": hand_script(game, seats, folding),
            }
            found.append((name, game, question))
    return found


def test_the_dealer_deals_every_game_as_its_deals_say(answers: dict[str, Any]) -> None:
    for (name, game, question), reply in zip(dealer_scripts(), answers["dealer"], strict=True):
        check_hand(name, game, question, ok(reply)["steps"])


def check_hand(name: str, game: dict[str, Any], question: dict[str, Any], steps: list[dict[str, Any]]) -> None:
    faces: list[list[bool]] = [[] for _ in range(question["seats"])]
    for step, done in zip(question["script"], steps, strict=True):
        result = ok(done)
        if step[0] == "deal":
            dealt = game["deals"][step[1]]
            for seat in range(question["seats"]):
                wanted = len(dealt["hole"]) if seat in step[2] else 0
                assert len(result["hole"][seat]) == wanted, (name, step)
                faces[seat] += [face == "up" for face in dealt["hole"]] if seat in step[2] else []
            assert len(result["board"]) == dealt["board"], (name, step)
            assert [len(other) for other in result["otherBoards"]] == [dealt["board"]] * (game["boards"] - 1), name
        if step[0] == "draw":
            assert len(result) == len(step[2]), (name, step)
    final = steps[-1]["state"]
    drawn = any(d["draw"] or d["discard"] for d in game["deals"])
    if not drawn:
        assert final["up"] == faces, name
    assert all(up == [False] * len(up) for up in final["up"]) or not drawn, name
    every = [card for hand in final["hole"] + final["discards"] + final["otherBoards"] for card in hand]
    every += final["board"] + final["undealt"]
    assert sorted(every) == sorted(full_deck(game["deck"] == "short")), name
    assert final["street"] == len(game["deals"]), name
    live = question["script"][-1][1]
    expected = cards.rankings(python_game(game), {seat: final["hole"][seat] for seat in live}, final["board"])
    assert steps[-1]["ok"] == expected, name


def test_a_seed_deals_the_same_cards_again(answers: dict[str, Any]) -> None:
    by_game: dict[str, list[Any]] = {}
    for (name, _, _), reply in zip(dealer_scripts(), answers["dealer"], strict=True):
        by_game.setdefault(name, []).append(ok(reply)["steps"])
    for name, (first, again, _, _, other) in by_game.items():
        assert first == again, name
        assert first[-1]["state"] != other[-1]["state"], name


def dealer_refusals() -> list[tuple[dict[str, Any], list[str]]]:
    """Scripts with bad steps: per step, what its refusal says ('' where the step is good)."""
    badugi = written(cards.GAMES["FB"])
    stud = written(cards.GAMES["F7S"])

    def script(game: dict[str, Any], seats: int, steps: list[tuple[list[Any], str]], seed: Any = 1) -> Any:
        return {"op": "dealer", "game": game, "seats": seats, "seed": seed, "script": [s for s, _ in steps]}, [
            m for _, m in steps
        ]

    return [
        script(
            badugi,
            3,
            [
                (["deal", 1, [0, 1, 2]], "street 1 is not next: street 0 is"),
                (["deal", 4, [0, 1, 2]], "street 4 is out of range: fixed-limit badugi deals streets 0 to 3"),
                (["deal", -1, [0, 1, 2]], "street -1 is out of range"),
                (["deal", 0, [0, 5]], "a seat is a number from 0 to 2, not 5"),
                (["deal", 0, [0, 0]], "the seats still in name a seat twice"),
                (["draw", 0, []], "no draw before the first street"),
                (["deal", 0, [0, 1, 2]], ""),
                (["draw", 0, ["Xx"]], 'no card "Xx"'),
                (["draw", 0, [[1, 0]]], "it does not hold"),
                (["draw", 0, [0, 0]], "seat 0 throws away a card twice"),
                (["discard", 0, [0]], "fixed-limit badugi has no discard before street 1"),
                (["draw", 3, [0]], "a seat is a number from 0 to 2, not 3"),
                (["draw", 0, [0, 1]], ""),
                (["draw", 0, [2]], "seat 0 has drawn already before street 1"),
                (["showdown", [0, 0]], "the seats that show down name a seat twice"),
                (["deal", 1, [0, 1, 2]], ""),
                (["deal", 2, [0, 1]], ""),
                (["deal", 3, [0, 1]], ""),
                (["deal", 3, [0, 1]], "street 3 is not next: every street is dealt"),
                (["draw", 1, []], "no draw is left: every street is dealt"),
                (["showdown", [0, 1, 2]], ""),
            ],
        ),
        script(
            stud,
            10,
            [
                (["deal", 0, list(range(10))], ""),
                (["deal", 1, list(range(10))], ""),
                (["deal", 2, list(range(10))], ""),
                (["deal", 3, list(range(10))], "the deck is out of cards (2 left, 10 needed)"),
                (["deal", 3, [0]], ""),
                (["deal", 4, [1]], ""),
                (["deal", 3, [0]], "street 3 is not next: every street is dealt"),
            ],
        ),
        script(
            CRAZY_PINEAPPLE,
            2,
            [
                (["deal", 0, [0, 1]], ""),
                (["discard", 0, [0]], "crazy pineapple has no discard before street 1"),
                (["deal", 1, [0, 1]], ""),
                (["deal", 2, [0, 1]], "seat 0 discards 1 before street 2 (turn) is dealt"),
                (["discard", 0, [0, 1]], "seat 0 discards 1 of its cards here, not 2"),
                (["draw", 0, [0]], "crazy pineapple has no draw before street 2"),
                (["discard", 0, [0]], ""),
                (["discard", 0, [0]], "seat 0 has discarded already before street 2"),
                (["deal", 2, [0, 1]], "seat 1 discards 1 before street 2 (turn) is dealt"),
                (["discard", 1, [2]], ""),
                (["deal", 2, [0, 1]], ""),
                (["deal", 3, [0, 1]], ""),
            ],
        ),
        script(stud, 11, [], seed=3),
        script(stud, 2, [], seed=1.5),
    ]


def test_the_dealer_refuses_bad_input_by_name_changing_nothing(answers: dict[str, Any]) -> None:
    replies = answers["dealer refused"]
    for (question, messages), reply in zip(dealer_refusals()[:3], replies[:3], strict=True):
        before = ok(reply)["initial"]
        assert before["undealt"] and not any(before["hole"]), before
        for step, message, done in zip(question["script"], messages, ok(reply)["steps"], strict=True):
            if message:
                assert message in done.get("error", ""), (step, done)
                assert done["state"] == before, step
            else:
                assert "error" not in done, (step, done)
            before = done["state"]
    assert "a dealer deals to 2 to 10 seats, not 11" in replies[3]["error"]
    assert "a dealer's seed is an integer or a text" in replies[4]["error"]


# ---- a deck of the spec's own, and the hands of few cards ------------------------------------

#: Leduc hold'em's game as its spec declares it (docs/examples/solvers): six cards, a pair over a
#: high card.
LEDUC = {
    "name": "Leduc hold'em",
    "deck": {"ranks": "KJQ", "suits": "sh"},  # in no order: the cards are dealt in the deck's order
    "deals": [
        {"street": "first", "hole": ["down"], "board": 0, "draw": False, "discard": 0},
        {"street": "second", "hole": [], "board": 1, "draw": False, "discard": 0},
    ],
    "showdown": ["high_cards"],
    "opening": "position",
    "rule": "LEDUC",
    "boards": 1,
    "boards_when": "",
}


def high_cards_deals() -> list[tuple[dict[int, list[str]], list[str], dict[str, Any]]]:
    """Random showdowns of one to four cards a seat from decks of a few ranks (pairs, two pair and
    trips come up), ranked as ``high_cards``."""
    rng = random.Random("typescript cards high_cards")
    asked = []
    for _ in range(600):
        deck = [rank + suit for rank in rng.sample(RANKS, rng.randint(2, 4)) for suit in SUITS]
        rng.shuffle(deck)
        seats, held, shared = rng.randint(2, 3), rng.randint(1, 2), rng.randint(0, 2)
        holes = {seat: deck[seat * held : (seat + 1) * held] for seat in range(seats)}
        board = deck[seats * held : seats * held + shared]
        asked.append((holes, board, ranking_question(LEDUC, holes, board, True)))
    return asked


def own_deck_question(seed: int) -> dict[str, Any]:
    return {"op": "dealer", "game": LEDUC, "seats": 2, "seed": seed, "script": hand_script(LEDUC, 2, False)}


def test_high_cards_rank_as_python(answers: dict[str, Any]) -> None:
    """A pair over high cards, two pair over a pair, trips over two pair; suits never count."""
    shapes = set()
    for (holes, board, _), reply in zip(high_cards_deals(), answers["high cards"], strict=True):
        got = ok(reply)
        assert got["rankings"] == cards.rankings(python_game(LEDUC), holes, board), (holes, board)
        shapes.update(tuple(key[: len(key) // 2]) for key in got["keys"][0] if len(key) % 2 == 0)
    assert {(1,), (2,), (1, 1), (2, 1), (3,)} <= shapes, shapes


def test_a_deck_of_the_specs_own_deals_its_cards_alone(answers: dict[str, Any]) -> None:
    """Every card of Leduc's six, each once, in the same order as betspec.cards builds the deck."""
    python = cards.Game("", "", "", ((False,), ()), (0, 1), ranks="JQK", suits="hs")
    assert python.deck == ["Jh", "Js", "Qh", "Qs", "Kh", "Ks"]
    hands = set()
    for reply in answers["own deck"]:
        final = ok(reply)["steps"][-1]["state"]
        every = [card for hand in final["hole"] for card in hand] + final["board"] + final["undealt"]
        assert sorted(every) == sorted(python.deck) and len(final["board"]) == 1
        hands.add(tuple(final["hole"][0]))
    assert len(hands) == 6  # every card comes up in the first seat's hand over the seeds
