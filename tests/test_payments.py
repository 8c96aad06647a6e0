"""Money paid outside the pot, declared in a spec (``payments``): the 7-2 game's bounty.

Paid by settle after the pots, to the one seat they paid when it showed the cards the payment
names, from every other seat dealt in, each paying at most what it has left; the same in the
Python and TypeScript engines, dealt by cards.Dealer and written and checked as PHH."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from betspec import cards, house
from betspec.conformance.runner import snapshot as fields
from betspec.frontend import load_spec
from betspec.runtime import IllegalAction, Table, engine_class
from betspec.runtime.engine import shows
from betspec.runtime.snapshot import restore
from betspec.tools.draw import draw_engine
from betspec.tools.simulate import play
from tests.conftest import ROOT
from tests.test_rake import checked_down, load

HOUSE = ROOT / "docs" / "examples" / "house"
BOUNTY = json.loads((HOUSE / "spec" / "seven_deuce_bounty.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("held", "ranks", "suited", "answer"),
    [
        (["7h", "2d"], ["7", "2"], False, True),
        (["2d", "7h"], ["7", "2"], False, True),
        (["7h", "2h"], ["7", "2"], False, False),
        (["7h", "2h"], ["7", "2"], True, True),
        (["7h", "2h"], ["7", "2"], None, True),
        (["7h", "3d"], ["7", "2"], None, False),
        (["7h"], ["7", "2"], None, False),
        # Omaha's four: some 7 and 2 offsuit among them is enough.
        (["7h", "2h", "7c", "Kd"], ["7", "2"], False, True),
        (["7h", "2h", "Ks", "Qs"], ["7", "2"], False, False),
        (["7h", "7d", "2c", "Ks"], ["7", "7"], None, True),
        (["7h", "2d"], [], None, True),
    ],
)
def test_the_cards_a_payment_asks_for(held: list[str], ranks: list[str], suited: bool | None, answer: bool) -> None:
    assert shows(held, ranks, suited) is answer


@pytest.mark.parametrize(
    "shown",
    [
        "7h2d",
        [["7h", "2d"]],
        {5: ["7h", "2d"]},
        {"0": ["7h", "2d"]},
        {0: "7h2d"},
        {0: ["7h", "2d", "7h"]},
        {0: ["7h", "2x"]},
        {0: [["7h"]]},
        {0: ["7h"] * 11},
        {0: ["7h"], 1: ["7h"]},
    ],
)
def test_cards_shown_wrong_are_refused_and_change_nothing(tmp_path: Path, shown: object) -> None:
    cls = load(tmp_path, BOUNTY)
    engine = checked_down(cls, (500, 500, 500))
    before = fields(engine)
    with pytest.raises(IllegalAction) as refused:
        engine.settle([0, 1, 2], shown=shown)  # type: ignore[arg-type]
    assert refused.value.code in ("illegal_action", "bad_seat") and "show" in refused.value.message
    assert fields(engine) == before and not engine.paid


def test_a_split_pot_or_a_dead_hand_pays_no_bounty(tmp_path: Path) -> None:
    cls = load(tmp_path, BOUNTY)
    engine = checked_down(cls, (500, 500, 500))
    settlement = engine.settle([[0, 2], 1], shown={0: ["7h", "2d"], 2: ["7c", "2s"], 1: ["Ah", "Ad"]})
    assert settlement.payments == () and list(engine.stacks) == [505, 490, 505]


def test_a_payment_only_at_a_showdown_and_a_house_that_replaces_or_removes_it(tmp_path: Path) -> None:
    showdown_only = json.loads(json.dumps(BOUNTY)) | {"name": "bounty_at_showdown"}
    showdown_only["payments"]["seven_deuce"]["showdown"] = True
    cls = load(tmp_path, showdown_only)
    engine = cls(Table.of((500, 500, 500), 0, {"blinds": (5, 10)}))
    engine.act(0, "raise", 40)
    engine.act(1, "fold")
    engine.act(2, "fold")
    assert engine.settle(shown={0: ["7h", "2d"]}).payments == ()
    (tmp_path / "seven_deuce_bounty.json").write_text(json.dumps(BOUNTY), encoding="utf-8")
    doubled = {
        "spec_version": "1.1",
        "name": "double_bounty",
        "title": "t",
        "description": "d",
        "extends": "seven_deuce_bounty.json",
        "payments": {"seven_deuce": {**BOUNTY["payments"]["seven_deuce"], "amount": "2 * big_blind"}},
    }
    (tmp_path / "double_bounty.json").write_text(json.dumps(doubled), encoding="utf-8")
    spec, found = load_spec(str(tmp_path / "double_bounty.json"))
    assert spec is not None and [p.amount.text for p in spec.payments] == ["2 * big_blind"], found
    removed = {**doubled, "name": "no_bounty", "payments": {}, "remove": {"payments": ["seven_deuce"]}}
    (tmp_path / "no_bounty.json").write_text(json.dumps(removed), encoding="utf-8")
    spec, found = load_spec(str(tmp_path / "no_bounty.json"))
    assert spec is not None and spec.payments == (), found


@pytest.mark.parametrize(
    ("payment", "pointer", "code"),
    [
        ({"amount": "big_blind", "from": "each_other", "to": "winner"}, "/payments/bounty", "schema"),
        ({"amount": "big_blind", "from": "everyone", "to": "winner", "rule": "R"}, "/payments/bounty/from", "schema"),
        ({"amount": "big_blind", "from": "each_other", "to": "loser", "rule": "R"}, "/payments/bounty/to", "schema"),
        (
            {"amount": "big_blind", "from": "each_other", "to": "winner", "shows": {"ranks": ["1"]}, "rule": "R"},
            "/payments/bounty/shows/ranks/0",
            "schema",
        ),
        (
            {"amount": "big_blind > 1", "from": "each_other", "to": "winner", "rule": "R"},
            "/payments/bounty/amount",
            "type",
        ),
        (
            {"amount": "big_blinds", "from": "each_other", "to": "winner", "rule": "R"},
            "/payments/bounty/amount",
            "unknown-name",
        ),
        (
            {"amount": "big_blind", "from": "each_other", "to": "winner", "rule": "S"},
            "/payments/bounty/rule",
            "unknown-rule",
        ),
    ],
)
def test_a_payment_written_wrong_is_refused_where_it_is_wrong(
    tmp_path: Path, payment: dict[str, Any], pointer: str, code: str
) -> None:
    body = {
        "spec_version": "1.1",
        "name": "wrong_payment",
        "title": "t",
        "description": "d",
        "extends": "no_limit.json",
        "rules": {"R": {"text": "A bounty.", "source": "the house"}},
        "payments": {"bounty": payment},
    }
    path = tmp_path / "wrong_payment.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    spec, found = load_spec(str(path))
    assert spec is None
    assert any(d.pointer == pointer and str(d.code) == code for d in found), [(d.pointer, str(d.code)) for d in found]


def test_random_hands_keep_every_chip_and_a_snapshot_replays_the_bounty(tmp_path: Path) -> None:
    """Random tables and play, the winner shown holding 7-2 offsuit: every chip stays on the
    table, each payer pays at most the big blind, and a snapshot restores to the same stacks."""
    cls = load(tmp_path, BOUNTY)
    rng = random.Random("bounty")
    bounties = 0
    for _ in range(200):
        engine = draw_engine(cls, rng)
        chips = engine.total_chips()
        play(engine, rng)
        contested = sorted({seat for pot in engine.pots() for seat in pot.eligible if len(pot.eligible) > 1})
        ranking = rng.sample(contested, len(contested)) if contested else None
        first = ranking[0] if ranking else next(iter(engine.pots()[0].eligible)) if engine.pots() else 0
        settlement = engine.settle(ranking, shown={first: ["7h", "2d"]})
        assert sum(engine.stacks) == chips == engine.total_chips()
        blinds = engine.table.inputs.get("blinds", (0, 0))
        assert isinstance(blinds, tuple)
        assert all(0 < p.amount <= blinds[-1] and p.payee != p.payer for p in settlement.payments)
        bounties += bool(settlement.payments)
        again = restore(engine.snapshot())
        assert list(again.stacks) == list(engine.stacks) and again.payments == engine.payments
    assert bounties > 50


def test_the_dealer_shows_the_bounty_and_phh_pays_it_as_written(tmp_path: Path) -> None:
    """Hands dealt from seeded decks and played at random: the dealer gives settle the cards
    shown (every seat's at a showdown; an uncontested winner's only to claim the bounty), to_phh
    writes them, PokerKit reads the file, and phh check pays the bounty as the file's stacks say."""
    from pokerkit import HandHistory

    from betspec.tools import phh

    cls = load(tmp_path, BOUNTY)
    rng = random.Random("bounty-dealt")
    paid = 0
    for seed in range(400):
        n = rng.randint(2, 4)
        dealer = cards.Dealer(cards.game_of(cls), n, seed=seed)
        engine = cls(Table.of([rng.randint(30, 300) for _ in range(n)], 0, {"blinds": (5, 10)}))
        while not engine.hand_over:
            if engine.to_act is None:
                dealer.deal(engine)
                continue
            seat = engine.to_act
            action = rng.choice([a for a in engine.legal_actions() if a in ("fold", "check", "call")])
            engine.act(seat, action)
        while engine.next_street is not None:
            dealer.deal(engine)
        settlement = dealer.settle(engine)
        if not settlement.payments:
            continue
        paid += 1
        payee = settlement.payments[0].payee
        assert shows(dealer.hole[payee], ["7", "2"], False)
        text = phh.to_phh(engine, cards=dealer)
        order = [(engine.button + 1 + i) % engine.seats for i in range(engine.seats)]
        HandHistory.loads(text)  # PokerKit reads it
        (hand,) = phh.loads(text)
        assert isinstance(hand, phh.Hand)
        pots = phh.check_pots(phh.replay(hand, cls, engine.options))
        assert pots.status == phh.PAID and pots.stacks == tuple(engine.stacks[s] for s in order), pots.detail
    assert paid >= 3


def settled_alike(example_house: Path, structure: str, seed: str, hands: int, trials: Any) -> tuple[int, int]:
    """Hands of the house's ``structure`` played at random, then settled through the Python engine
    and the TypeScript one (restored from the Python engine's snapshot) with each of
    ``trials(engine, ranking, winner)``'s settle arguments in turn (ranking, runs, odd chip seat,
    cards shown, hands made) until one is taken: refused alike (the same code and rule), else paid
    alike, the hand after the same, and a snapshot of it restored by TypeScript. Returns the hands
    compared and those that paid outside the pot."""
    from betspec.tools import typescript_run
    from tests.test_typescript import MISSING, _error, _python_call, _view

    if MISSING:
        pytest.skip(f"the TypeScript engines need Node: {MISSING}")
    rng = random.Random(seed)
    compared = paid = 0
    with house.active(str(example_house)), typescript_run.Server(str(example_house)) as server:
        cls = engine_class(structure)
        for _ in range(hands):
            engine = draw_engine(cls, rng)
            play(engine, rng)
            made = server.ask({"op": "restore", "structure": structure, "snapshot": engine.snapshot()})
            assert "ok" in made, made
            hand = made["ok"]["id"]
            contested = sorted({s for pot in engine.pots() for s in pot.eligible if len(pot.eligible) > 1})
            ranking = rng.sample(contested, len(contested)) if contested else None
            winner = ranking[0] if ranking else min(engine.pots()[0].eligible) if engine.pots() else 0
            for args in trials(engine, ranking, winner, rng):
                keyed = [{str(s): v for s, v in a.items()} if isinstance(a, dict) else a for a in args]
                answer = server.ask({"op": "call", "id": hand, "method": "settle", "args": keyed})
                try:
                    result = _python_call(engine, "settle", args)
                except IllegalAction as error:
                    got = answer["ok"]["error"]
                    assert {k: got.get(k) for k in _error(error)} == _error(error)
                    continue
                assert answer["ok"]["result"] == json.loads(json.dumps(result))
                assert answer["ok"]["view"] == _view(engine)
                again = server.ask({"op": "restore", "structure": structure, "snapshot": engine.snapshot()})
                assert "ok" in again, again
                server.ask({"op": "drop", "id": again["ok"]["id"]})
                compared += 1
                paid += bool(result["payments"])
                break
            server.ask({"op": "drop", "id": hand})
    return compared, paid


def test_the_typescript_engines_pay_as_the_python_engines(example_house: Path) -> None:
    """The same hands, settled with the same cards shown (and shown wrong), through both engines."""

    def trials(engine: Any, ranking: Any, winner: int, rng: random.Random) -> list[list[Any]]:
        return [
            [ranking, None, None, shown]
            for shown in (
                {winner: ["9x"]},
                {winner: ["7h", "2d"], (winner + 1) % engine.seats: ["7h"]},
                {winner: ["2s", "7c"]},
            )
        ]

    compared, paid = settled_alike(example_house, "seven_deuce_bounty", "bounty-lockstep", 60, trials)
    assert compared >= 55 and paid >= 20, (compared, paid)


def test_the_schema_s_words_for_payments_are_the_vocabulary_s() -> None:
    """One word list per vocabulary: the schema's ranks, payers and payees are betspec.vocabulary's."""
    from betspec import vocabulary

    for name in ("spec.schema.json", "spec-1.1.schema.json"):
        schema = json.loads((ROOT / "spec" / "schema" / name).read_text(encoding="utf-8"))
        entry = schema["properties"]["payments"]["additionalProperties"]["properties"]
        assert entry["shows"]["properties"]["ranks"]["items"]["enum"] == list(vocabulary.CARD_RANKS)
        assert entry["from"]["enum"] == list(vocabulary.PAYMENT_PAYERS)
        assert entry["to"]["enum"] == list(vocabulary.PAYMENT_PAYEES)
    assert cards.RANKS == vocabulary.CARD_RANKS and cards.SUITS == vocabulary.CARD_SUITS


def test_a_payment_goes_with_the_input_a_house_removes(tmp_path: Path) -> None:
    """A house that removes the table input its base's bounty reads takes the bounty with it (as
    it takes a forced bet that posts it): the spec stands, with no payment."""
    base = json.loads(json.dumps(BOUNTY))
    base["inputs"] = {
        "bounty": {"type": "int", "default": 10, "minimum": 0, "meaning": "the bounty", "rule": "SEVEN-DEUCE"}
    }
    base["payments"]["seven_deuce"]["amount"] = "bounty"
    (tmp_path / "seven_deuce_bounty.json").write_text(json.dumps(base), encoding="utf-8")
    spec, found = load_spec(str(tmp_path / "seven_deuce_bounty.json"))
    assert spec is not None and [p.amount.text for p in spec.payments] == ["bounty"], found
    house_rule = {
        "spec_version": "1.1",
        "name": "no_bounty_input",
        "title": "t",
        "description": "d",
        "extends": "seven_deuce_bounty.json",
        "remove": {"inputs": ["bounty"]},
    }
    (tmp_path / "no_bounty_input.json").write_text(json.dumps(house_rule), encoding="utf-8")
    spec, found = load_spec(str(tmp_path / "no_bounty_input.json"))
    assert spec is not None and spec.payments == (), [(d.pointer, d.message) for d in found]


# ---- from the house's jackpot: a high-hand bonus (high_hand_bonus.json) -------------------------


def _bonus_hand(example_house: Path) -> Any:
    """A hand of the house's high-hand bonus checked down to the river by three seats (pot 30)."""
    with house.active(str(example_house)):
        return checked_down(engine_class("high_hand_bonus"), (1000, 1000, 1000))


def test_a_high_hand_bonus_comes_from_the_jackpot_onto_the_table(example_house: Path) -> None:
    """Four of a kind at the showdown: the winner collects fifty big blinds from the jackpot, once,
    after the pot is raked and paid; the chips come onto the table (total_chips counts them as
    the house's, as it counts the rake), and a snapshot replays the settlement with what it made."""
    engine = _bonus_hand(example_house)
    chips = engine.total_chips()
    settlement = engine.settle([2, 1, 0], shown={2: ["9c", "9d"]}, made={2: "four_of_a_kind", 1: "straight_flush"})
    assert [(p.name, p.payer, p.payee, p.amount) for p in settlement.payments] == [
        ("four_of_a_kind_bonus", None, 2, 500)
    ]
    assert settlement.rake == 3 and list(engine.stacks) == [990, 990, 990 + 27 + 500]
    assert engine.jackpot_paid == 500 and engine.total_chips() == chips == sum(engine.stacks) + 3 - 500
    again = restore(engine.snapshot(), type(engine))
    assert list(again.stacks) == list(engine.stacks) and again.payments == engine.payments
    assert again.jackpot_paid == 500


@pytest.mark.parametrize(
    ("ranking", "made", "paid"),
    [
        ([1, 0, 2], {1: "straight_flush"}, [("straight_flush_bonus", None, 1, 1000)]),
        ([1, 0, 2], {1: "full_house", 0: "four_of_a_kind"}, []),  # the loser's quads: no bonus
        ([[0, 1], 2], {0: "four_of_a_kind", 1: "four_of_a_kind"}, []),  # a split pot: none
        ([0, 1, 2], None, []),  # nothing said of the hands: none
    ],
)
def test_the_bonus_is_the_winner_s_for_the_hand_it_names(
    example_house: Path, ranking: list[Any], made: dict[int, str] | None, paid: list[tuple[Any, ...]]
) -> None:
    engine = _bonus_hand(example_house)
    settlement = engine.settle(ranking, made=made)
    assert [(p.name, p.payer, p.payee, p.amount) for p in settlement.payments] == paid
    assert engine.total_chips() == 3000


@pytest.mark.parametrize(
    "made",
    ["four_of_a_kind", [[2, "flush"]], {2: "quads"}, {2: 5}, {"2": "flush"}, {5: "flush"}, {2: "flush", 0: "Flush"}],
)
def test_hands_made_wrong_are_refused_and_change_nothing(example_house: Path, made: object) -> None:
    engine = _bonus_hand(example_house)
    before = fields(engine)
    with pytest.raises(IllegalAction) as refused:
        engine.settle([2, 1, 0], made=made)  # type: ignore[arg-type]
    assert refused.value.code in ("illegal_action", "bad_seat") and "make" in refused.value.message
    assert fields(engine) == before and not engine.paid


@pytest.mark.parametrize(
    ("code", "hole", "board", "answer"),
    [
        ("NT", ["Ah", "As"], ["Ad", "Ac", "Ks", "2d", "3h"], "four_of_a_kind"),
        ("NT", ["9h", "Th"], ["Jh", "Qh", "Kh", "2c", "3d"], "straight_flush"),
        ("NT", ["9h", "Th"], ["Jh", "Qh", "2h", "2c", "3d"], "flush"),
        ("NT", ["9h", "??"], ["Jh", "Qh", "2h", "2c", "3d"], None),
        ("NT", ["As", "Ah"], ["9d", "9c", "9s", "9h", "Kd"], "four_of_a_kind"),
        ("PO", ["As", "Ah", "2c", "3d"], ["9d", "9c", "9s", "9h", "Kd"], "full_house"),
    ],
)
def test_what_a_hand_makes_is_the_evaluator_s_label(
    code: str, hole: list[str], board: list[str], answer: str | None
) -> None:
    """Omaha plays exactly two hole cards and three of the board: four nines on the board make a
    full house with two aces, where hold'em plays the board's four of a kind."""
    assert cards.made(cards.game(code), hole, board) == answer


def test_the_dealer_tells_what_the_hands_make_and_phh_pays_the_bonus(example_house: Path) -> None:
    """Seeded decks checked down until a winner makes four of a kind or better: the dealer gives
    settle the cards shown and what they make, the jackpot pays, to_phh writes it (_jackpot_paid),
    and phh check pays the file's hand as its stacks say."""
    from betspec.tools import phh

    paid = 0
    with house.active(str(example_house)):
        cls = engine_class("high_hand_bonus")
        for seed in range(3000):
            dealer = cards.Dealer(cards.game_of(cls), 3, seed=seed)
            engine = cls(Table.of((1000, 1000, 1000), 0, {"blinds": (5, 10)}))
            while not engine.hand_over:
                if engine.to_act is None:
                    dealer.deal(engine)
                    continue
                engine.act(engine.to_act, "check" if "check" in engine.legal_actions() else "call")
            settlement = dealer.settle(engine)
            best = max(cards.made(dealer.game, dealer.hole[seat], dealer.board) or "" for seat in range(3))
            if not settlement.payments:
                assert best not in ("four_of_a_kind", "straight_flush") or len(settlement.awards[0].winners) > 1
                continue
            (payment,) = settlement.payments
            made = cards.made(dealer.game, dealer.hole[payment.payee], dealer.board)
            assert payment.payer is None and made in ("four_of_a_kind", "straight_flush")
            assert payment.amount == (500 if made == "four_of_a_kind" else 1000)
            text = phh.to_phh(engine, cards=dealer)
            assert f"_jackpot_paid = {payment.amount}" in text
            (hand,) = phh.loads(text)
            assert isinstance(hand, phh.Hand)
            pots = phh.check_pots(phh.replay(hand, cls, engine.options))
            order = [(engine.button + 1 + i) % 3 for i in range(3)]
            assert pots.status == phh.PAID and pots.stacks == tuple(engine.stacks[s] for s in order), pots.detail
            paid += 1
            if paid == 3:
                break
    assert paid == 3


def test_the_typescript_engines_pay_the_jackpot_as_the_python_engines(example_house: Path) -> None:
    """The same hands settled with the same hands made (and made wrong), through both engines,
    and each engine's snapshot after a bonus restored."""

    def trials(engine: Any, ranking: Any, winner: int, rng: random.Random) -> list[list[Any]]:
        some = ["four_of_a_kind", "straight_flush", "flush"]
        return [
            [ranking, None, None, None, made]
            for made in (
                {winner: "quads"},
                {winner: rng.choice(some), engine.seats: "flush"},
                {winner: rng.choice(some)},
            )
        ]

    compared, paid = settled_alike(example_house, "high_hand_bonus", "bonus-lockstep", 80, trials)
    assert compared >= 75 and paid >= 10, (compared, paid)
