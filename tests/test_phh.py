"""PHH hand histories in and out (betspec.tools.phh), with PokerKit's own PHH reader as the oracle.

The sample is 583 real no-limit hands from the PHH dataset (tests/phh, copied unchanged: its
header says where they come from). Every action in them was accepted by the site.
"""

from __future__ import annotations

import gc
import hashlib
import json
import warnings
import weakref
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from pokerkit import BoardDealing, CheckingOrCalling, CompletionBettingOrRaisingTo, Folding, HandHistory

from betspec.cli import main
from betspec.conformance.runner import run_case
from betspec.engines.fixed_limit import FixedLimit
from betspec.engines.no_limit import NoLimit
from betspec.runtime import Start, Table, engine_class
from betspec.tools import phh

SAMPLE = Path(__file__).resolve().parent / "phh" / "handhq-abs-200nlh-sample.phhs"
SAMPLE_SHA256 = "011fc3e6cec4be6475fdb454f35faf2d33a05bc0c197563cc6029fc531246ae5"
CENTS = 100  # the sample's amounts are dollars with cents
#: The hands of the sample with a lone blind: p1, the seat after the button, posts the big blind
#: and nobody a small blind. A table cannot say that yet (its big blind is two seats after the button).
LONE_BLIND = {"283", "309", "322", "417"}


@pytest.fixture(scope="module")
def sample() -> list[phh.Hand | phh.Bad]:
    return phh.read(str(SAMPLE))


@pytest.fixture(scope="module")
def replays(sample: list[phh.Hand | phh.Bad]) -> list[phh.Replay]:
    return [phh.replay(hand, NoLimit) for hand in sample]


@pytest.fixture(scope="module")
def pokerkit_hands() -> list[HandHistory]:
    return list(HandHistory.loads_all(SAMPLE.read_text(encoding="utf-8"), parse_value=Decimal))


def _cents(value: Any) -> int:
    exact = Decimal(value) * CENTS
    assert exact == exact.to_integral_value()
    return int(exact)


def _played(history: HandHistory, *, to_the_end: bool = True) -> Any:
    """PokerKit's state after every action of the history, and what it completes by itself after
    them unless ``to_the_end`` is false (it cannot show down a board written as unknown cards)."""
    left = len(history.actions)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns on a fold when a check is free
        state = None
        for step, action in history.state_actions:
            state = step
            left -= action is not None
            if not left and not to_the_end:
                break
    return state


def _betting(state: Any) -> Iterator[tuple[int, str, int | None]]:
    """PokerKit's betting operations and board deals as (seat, f | cc | cbr | deal, amount in cents)."""
    for operation in state.operations:
        if isinstance(operation, Folding):
            yield operation.player_index, "f", None
        elif isinstance(operation, CheckingOrCalling):
            yield operation.player_index, "cc", _cents(operation.amount)
        elif isinstance(operation, CompletionBettingOrRaisingTo):
            yield operation.player_index, "cbr", _cents(operation.amount)
        elif isinstance(operation, BoardDealing):
            yield -1, "deal", None


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    status = main(["phh", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out.splitlines()


def _hand_file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


THREE_HANDED = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', {actions}]
"""


def _three_handed(*actions: str, **fields: str) -> str:
    text = THREE_HANDED.replace("{actions}", ", ".join(f"'{a}'" for a in actions))
    for name, value in fields.items():
        text = "\n".join(f"{name} = {value}" if line.startswith(f"{name} =") else line for line in text.splitlines())
    return text + ("" if text.endswith("\n") else "\n")


# ---- the sample ------------------------------------------------------------------------------


def test_the_sample_is_the_shared_file_unchanged() -> None:
    assert hashlib.sha256(SAMPLE.read_bytes()).hexdigest() == SAMPLE_SHA256
    assert SAMPLE.read_text(encoding="utf-8").startswith("# Real no-limit hold'em hands played on Absolute Poker")


def test_every_hand_is_accepted_the_lone_blinds_posted_seat_by_seat(replays: list[phh.Replay]) -> None:
    assert len(replays) == 583
    assert {result.status for result in replays} == {phh.ACCEPTED}
    for result in replays:
        assert result.hand is not None and result.engine is not None and result.engine.hand_over, result.line()
        table = phh.table_inputs(result.hand)
        if result.hand.key in LONE_BLIND:
            # p1 posts the big blind's amount and nobody else a blind: the betting opens after
            # p1, which the table says seat by seat (BLINDS-BY-SEAT), no small blind.
            assert table["blinds"] == [0, 2 * CENTS] and table["blinds_by_seat"] is True
            assert table["seat_blinds"] == [2 * CENTS] + [0] * (result.hand.players - 1)
            assert result.engine.history[0][0] == 1
        else:
            assert "blinds_by_seat" not in table and "seat_antes" not in table


def test_seats_amounts_and_the_button(sample: list[phh.Hand | phh.Bad]) -> None:
    hands = {hand.key: hand for hand in sample if isinstance(hand, phh.Hand)}
    assert all(hand.scale == CENTS for hand in hands.values())  # one scale for the whole file
    assert phh.table_inputs(hands["1"]) == {
        "stacks": [41735, 9666, 44335, 20000, 19620, 7112],  # 196.20 is 19620 cents
        "button": 5,
        "blinds": [100, 200],
    }
    # Heads-up: p1 is the big blind and p2 the button, who posts the small blind and acts first.
    heads_up = hands["3"]
    assert phh.table_inputs(heads_up) == {"stacks": [9730, 14000], "button": 1, "blinds": [100, 200]}
    assert [(act.seat, act.verb) for act in heads_up.acts] == [(1, "f")]
    with_antes = next(hand for hand in hands.values() if hand.antes[0])
    assert phh.table_inputs(with_antes)["ante"] == 50


def test_pokerkit_reads_the_same_hands(
    sample: list[phh.Hand | phh.Bad], replays: list[phh.Replay], pokerkit_hands: list[HandHistory]
) -> None:
    assert len(pokerkit_hands) == len(sample)
    for hand, result, history in zip(sample, replays, pokerkit_hands, strict=True):
        assert isinstance(hand, phh.Hand)

        def cents(chips: int | None, hand: phh.Hand = hand) -> int | None:
            return None if chips is None else chips * CENTS // hand.scale

        assert [cents(s) for s in hand.starting_stacks] == [_cents(s) for s in history.starting_stacks]
        assert [cents(b) for b in hand.blinds_or_straddles] == [_cents(b) for b in history.blinds_or_straddles]
        assert [cents(a) for a in hand.antes] == [_cents(a) for a in history.antes]
        assert cents(hand.min_bet) == _cents(history.min_bet)
        state = _played(history)
        theirs = list(_betting(state))
        ours = [(a.seat, "deal" if a.seat < 0 else a.verb, cents(a.to)) for a in hand.acts]
        assert [(s, v, a if v == "cbr" else None) for s, v, a in theirs] == ours, hand.name
        if result.status != phh.ACCEPTED:
            continue
        assert not state.status, f"{hand.name}: PokerKit ends the hand where betspec does"
        # A cc is a check exactly when PokerKit adds no chips, and a call for what betspec says.
        engine = NoLimit(Table(**phh.table_inputs(hand)))
        pokerkit_calls = iter(amount for _, verb, amount in theirs if verb == "cc")
        for step in result.steps:
            if "deal" in step:
                engine.deal(step["deal"])
                continue
            if step["act"] in ("check", "call"):
                assert cents(engine.call_amount) == next(pokerkit_calls), hand.name
            engine.act(step["seat"], step["act"], step.get("to"))


# ---- round trips -------------------------------------------------------------------------------


def test_engine_to_phh_and_back_gives_the_same_hand(
    sample: list[phh.Hand | phh.Bad], replays: list[phh.Replay]
) -> None:
    for hand, result in zip(sample, replays, strict=True):
        if result.status != phh.ACCEPTED:
            continue
        assert isinstance(hand, phh.Hand) and result.engine is not None
        text = phh.to_phh(result.engine, scale=hand.scale)
        assert text == phh.to_phh(result.engine, scale=hand.scale)
        (back,) = phh.loads(text)
        assert isinstance(back, phh.Hand), back
        assert back.scale in (1, 10, hand.scale)
        factor = hand.scale // back.scale
        assert [s * factor for s in back.starting_stacks if s is not None] == list(hand.starting_stacks)
        assert [b * factor for b in back.blinds_or_straddles] == list(hand.blinds_or_straddles)
        assert [a * factor for a in back.antes] == list(hand.antes)
        assert [(a.seat, a.verb, None if a.to is None else a.to * factor) for a in back.acts] == [
            (a.seat, a.verb, a.to) for a in hand.acts
        ]
        again = phh.replay(back, NoLimit)
        assert again.status == phh.ACCEPTED and again.engine is not None
        assert phh.to_phh(again.engine, scale=back.scale) == text  # byte-stable


def test_pokerkit_replays_what_to_phh_writes(
    sample: list[phh.Hand | phh.Bad], replays: list[phh.Replay], pokerkit_hands: list[HandHistory]
) -> None:
    for hand, result, original in zip(sample, replays, pokerkit_hands, strict=True):
        if result.status != phh.ACCEPTED:
            continue
        assert isinstance(hand, phh.Hand) and result.engine is not None
        written = HandHistory.loads(phh.to_phh(result.engine, scale=hand.scale), parse_value=Decimal)
        assert list(_betting(_played(written, to_the_end=False))) == list(_betting(_played(original))), hand.name


def test_every_accepted_hand_becomes_a_case_that_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, lines = _run(capsys, "to-case", "--structure", "no_limit", str(SAMPLE), "--out", str(tmp_path))
    assert status == 0
    written = sorted(tmp_path.glob("*.json"))
    assert len(written) == 583 == len([line for line in lines if line.startswith("wrote ")])
    assert not [line for line in lines if line.startswith("skipped")]
    for path in written:
        outcome = run_case(str(path))
        assert outcome.status == "PASS", outcome.line()
    case = json.loads((tmp_path / "handhq-abs-200nlh-sample-3.json").read_text(encoding="utf-8"))
    assert case["structure"] == "no_limit" and case["table"]["button"] == 1
    assert case["steps"] == [
        {"seat": 1, "act": "fold", "expect": {"hand_over": True, "pot": 200, "stacks": [9630, 13900]}}
    ]
    assert "ABS-2009-07-01_2009-07-23_200NLH_OBFU" in case["source"] and "hand 3017248030" in case["source"]


def test_to_case_of_one_hand_on_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines = _run(capsys, "to-case", "--structure", "no_limit", str(SAMPLE), "--hand", "2")
    assert status == 0 and len(lines) == 1
    case = json.loads(lines[0])
    assert case["id"] == "handhq-abs-200nlh-sample-2"
    assert [s.get("act", s.get("deal")) for s in case["steps"]][:7] == [
        "fold", "raise", "fold", "fold", "call", "call", "flop",
    ]  # fmt: skip
    status, lines = _run(
        capsys, "to-case", "--structure", "no_limit", str(SAMPLE), "--hand", "283"
    )  # a lone blind, seat by seat
    assert status == 0 and json.loads(lines[0])["table"]["seat_blinds"] == [200, 0, 0, 0]
    status, lines = _run(capsys, "to-case", "--structure", "no_limit", str(SAMPLE), "--hand", "9999")
    assert status == 2 and lines[0].startswith("betspec phh: ") and "no hand '9999'" in lines[0]


def test_fixed_limit_and_a_timeout_written_and_read_back() -> None:
    engine = FixedLimit(Table([1000, 1000, 1000], 2, (5, 10), bets=(10, 20)))
    engine.raise_to(2, 20)
    engine.call(0)
    engine.timeout(1)
    engine.deal("flop")
    engine.bet(0, 10)
    engine.call(2)
    text = phh.to_phh(engine, scale=100)
    assert text.splitlines()[:5] == [
        "variant = 'FT'",
        "antes = [0, 0, 0]",
        "blinds_or_straddles = [0.05, 0.10, 0]",
        "small_bet = 0.10",
        "big_bet = 0.20",
    ]
    assert "'p2 f # timeout: the hand is dead'" in text
    (back,) = phh.loads(text)
    assert isinstance(back, phh.Hand) and back.scale == 100
    assert phh.table_inputs(back) == {"stacks": [1000] * 3, "button": 2, "blinds": [5, 10], "bets": [10, 20]}
    again = phh.replay(back, FixedLimit)
    assert again.status == phh.ACCEPTED and again.engine is not None
    assert again.engine.history == (*engine.history[:2], (1, "fold", None), *engine.history[3:])
    state = _played(HandHistory.loads(text, parse_value=Decimal))
    assert [v for _, v, _ in _betting(state)] == ["cbr", "cc", "f", "deal", "cbr", "cc"]


def test_what_has_no_phh_form_is_refused() -> None:
    with pytest.raises(phh.PhhError, match="started on the flop"):
        phh.to_phh(NoLimit(Table([100, 100], 1, (1, 2)), start=Start("flop", 10)))
    with pytest.raises(phh.PhhError, match="power of ten"):
        phh.to_phh(NoLimit(Table([100, 100], 1, (1, 2))), scale=25)


def test_forced_bets_are_written_as_posted_and_read_back_seat_by_seat() -> None:
    # A burn blind is written as the straddle it is, and read back as blinds posted seat by
    # seat: the same chips, the same first seat to act (the one after the straddle).
    burn = NoLimit(Table([1000] * 4, 3, (5, 10), burn_blind=True, ante=1))
    text = phh.to_phh(burn)
    assert "antes = [1, 1, 1, 1]" in text and "blinds_or_straddles = [5, 10, 20, 0]" in text
    (back,) = phh.loads(text)
    assert isinstance(back, phh.Hand)
    assert phh.table_inputs(back) == {
        "stacks": [1000] * 4,
        "button": 3,
        "blinds": [5, 10],
        "ante": 1,
        "blinds_by_seat": True,
        "seat_blinds": [5, 10, 20, 0],
    }
    again = phh.replay(back, NoLimit)
    assert again.engine is not None and again.engine.to_act == burn.to_act == 3
    assert again.engine.contributed == burn.contributed
    # A dead small blind and a big blind ante are dead money: PHH's antes.
    dead = NoLimit(Table([1000] * 4, 3, (5, 10), missed_small_blinds=[2], big_blind_ante=10))
    assert "antes = [0, 10, 5, 0]" in phh.to_phh(dead)


def test_to_phhs_holds_several_hands() -> None:
    first = NoLimit(Table([100, 100], 1, (1, 2)))
    first.fold(1)
    second = NoLimit(Table([300, 200, 100], 2, (1, 2), ante=1))
    text = phh.to_phhs([phh.to_phh(first), phh.to_phh(second)])
    hands = phh.loads(text, "two.phhs")
    assert [h.name for h in hands] == ["two.phhs[1]", "two.phhs[2]"]
    assert all(isinstance(h, phh.Hand) for h in hands)


# ---- irregular and invalid hands ------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "inputs", "first", "pot"),
    [
        ({"blinds_or_straddles": "[1, 2, 4]"}, {"blinds": [1, 2], "seat_blinds": [1, 2, 4]}, 0, 7),
        ({"blinds_or_straddles": "[2, 1, 0]"}, {"blinds": [1, 2], "seat_blinds": [2, 1, 0]}, 1, 3),
        ({"blinds_or_straddles": "[2, 0, 0]"}, {"blinds": [0, 2], "seat_blinds": [2, 0, 0]}, 1, 2),
        ({"antes": "[0, 1, 0]"}, {"blinds": [1, 2], "seat_antes": [0, 1, 0]}, 2, 4),
    ],
)
def test_forced_bets_any_seat_posts_fit_a_table(
    fields: dict[str, str], inputs: dict[str, object], first: int, pot: int
) -> None:
    (hand,) = phh.loads(_three_handed(**fields))
    assert isinstance(hand, phh.Hand)
    table = phh.table_inputs(hand)
    assert {name: table[name] for name in inputs} == inputs
    assert ("seat_blinds" in inputs) == table.get("blinds_by_seat", False)
    result = phh.replay(hand, NoLimit)
    assert result.status == phh.ACCEPTED and result.engine is not None
    assert result.engine.to_act == first  # the seat after the last seat to post at least the blinds before it
    assert result.engine.pot == pot


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"min_bet": "4"}, "min_bet 4 is not the big blind 2"),
        ({"starting_stacks": "[200, inf, 200]"}, r"unknown starting stack \(inf\) of p2"),
    ],
)
def test_forced_bets_a_table_cannot_express_are_irregular(tmp_path: Path, fields: dict[str, str], reason: str) -> None:
    (hand,) = phh.loads(_three_handed("p3 f", **fields))
    assert isinstance(hand, phh.Hand)
    with pytest.raises(phh.Irregular, match=reason):
        phh.table_inputs(hand)
    result = phh.replay(hand, NoLimit)
    assert result.status == phh.IRREGULAR


def test_heads_up_forced_bets_are_read_in_reverse() -> None:
    text = _three_handed("p2 f", antes="[0, 0]", blinds_or_straddles="[1, 2]", starting_stacks="[50, 80]")
    text = text.replace("'d dh p3 ????', ", "")
    (hand,) = phh.loads(text)
    assert isinstance(hand, phh.Hand)
    assert phh.table_inputs(hand) == {"stacks": [50, 80], "button": 1, "blinds": [1, 2]}
    (reversed_,) = phh.loads(text.replace("[1, 2]", "[2, 1]"))
    assert isinstance(reversed_, phh.Hand)
    assert phh.table_inputs(reversed_)["seat_blinds"] == [1, 2]  # the button posts 1, the other seat 2


def test_zero_small_blind_fits_a_table() -> None:
    (hand,) = phh.loads(_three_handed("p3 f", "p1 f", blinds_or_straddles="[0, 2, 0]"))
    assert isinstance(hand, phh.Hand)
    assert phh.table_inputs(hand)["blinds"] == [0, 2]
    assert phh.replay(hand, NoLimit).status == phh.ACCEPTED


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("variant = 'FK'\nantes = [1, 1]\nstarting_stacks = [10, 10]\nactions = []\n", "variant 'FK' is not one"),
        ("variant = 'F7S'\nantes = [1, 1]\nstarting_stacks = [10, 10]\nactions = []\n", "no bring_in field"),
        (_three_handed("p3 sd"), "not a hold'em action"),
        (_three_handed("p4 f"), "'p4' is not a player"),
        (_three_handed("p3 cbr lots"), "the amount is not a number"),
        (_three_handed("p3 f", antes="[0, 0]"), "antes must list one amount per player"),
        (_three_handed("p3 f", blinds_or_straddles="[1, -2, 0]"), "cannot be negative"),
        (THREE_HANDED.replace("min_bet = 2\n", "").replace("{actions}", "'p3 f'"), "no min_bet field"),
        (_three_handed("d db ??????", "d db ??", "d db ??", "d db ??"), "a fourth board deal"),
        (_three_handed("p3 f", starting_stacks="[200, 0.1234567, 200]"), "more than 6 decimal places"),
    ],
)
def test_what_is_not_phh_is_invalid_with_the_reason(text: str, reason: str) -> None:
    (hand,) = phh.loads(text, "bad.phh")
    assert isinstance(hand, phh.Bad) and reason in hand.reason, hand
    result = phh.replay(hand, NoLimit)
    assert result.status == phh.INVALID and result.line().startswith("INVALID bad.phh: ")


def test_commentaries_no_ops_and_showdowns_are_skipped() -> None:
    (hand,) = phh.loads(_three_handed("p3 cc # limps", "", "p1 cc", "p2 cc", "d db AhKhQh", "p1 sm AsAd", "p2 sm"))
    assert isinstance(hand, phh.Hand)
    assert [(a.seat, a.verb) for a in hand.acts] == [(2, "cc"), (0, "cc"), (1, "cc"), (-1, "flop")]
    result = phh.replay(hand, NoLimit)
    assert result.status == phh.ACCEPTED
    assert result.detail == "3 actions and 1 deal, flop, seat 0 to act when the history stops"


# ---- the command line -----------------------------------------------------------------------


def test_check_the_sample(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines = _run(capsys, "check", str(SAMPLE), "--structure", "no_limit")
    assert status == 0
    assert len(lines) == 584
    assert sum(line.startswith("ACCEPTED ") for line in lines) == 583
    # 476 hands record the winnings (all of them uncontested pots: the sample's showdowns do not
    # record them); betspec pays each as the file says, 210 of them less the site's rake.
    assert lines[-1] == (
        "583 hands under no_limit: 583 accepted, 0 refused, 0 mispaid, 0 irregular, 0 invalid; "
        "pots checked against the file in 476 (476 paid as it says, 210 of them less a rake), not in 107"
    )
    assert sum("; pots paid uncontested as the file's winnings say" in line for line in lines) == 476
    assert (
        sum(line.endswith("pots not checked: the file records no winnings or finishing_stacks") for line in lines)
        == 107
    )
    assert lines[1].endswith("; pots paid uncontested as the file's winnings say, less a rake of 1.55")


def test_a_raise_below_the_minimum_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _hand_file(tmp_path, "short.phh", _three_handed("p3 cbr 3", "p1 f", "p2 f"))
    status, lines = _run(capsys, "check", path, "--structure", "no_limit")
    assert status == 1
    assert lines[0].startswith(f"REFUSED {path}: action 4 'p3 cbr 3' (seat 2 raise to 3) refused: below_minimum, rule ")
    assert lines[-1].startswith("1 hand under no_limit: 0 accepted, 1 refused, 0 mispaid, 0 irregular, 0 invalid; ")
    result = phh.replay(phh.read(path)[0], NoLimit)
    assert result.error is not None and result.error.code == "below_minimum"
    assert result.error.rule in lines[0] and result.error.source in lines[0]
    assert result.act is not None and result.act.number == 4


def test_pots_are_paid_on_a_copy_of_the_replay_and_on_a_new_hand_once_its_caller_paid_them() -> None:
    checked = 0
    for hand in phh.read(str(SAMPLE))[:80]:
        result = phh.replay(hand, NoLimit)
        if result.status != phh.ACCEPTED or result.engine is None or not result.engine.hand_over:
            continue
        first = phh.check_pots(result)
        assert not result.engine.paid  # the replay's engine is left as it was
        if first.status != phh.PAID:
            continue
        # The caller pays the replay's own engine: its pots are then checked on the hand played again.
        result.engine.settle(**({"ranking": [list(group) for group in first.ranking]} if first.ranking else {}))
        assert phh.check_pots(result) == first
        checked += 1
    assert checked > 20


def test_a_refused_hand_is_freed_without_the_collector(tmp_path: Path) -> None:
    # A refusal kept with its traceback held the frames that held its replay: every hand of a
    # checked batch then waited for the cyclic collector (a tenth of phh check's time).
    path = _hand_file(tmp_path, "short.phh", _three_handed("p3 cbr 3", "p1 f", "p2 f"))
    hand = phh.read(path)[0]
    collecting = gc.isenabled()
    gc.disable()
    try:
        result = phh.replay(hand, NoLimit)
        assert result.status == "REFUSED" and result.error is not None
        freed = weakref.ref(result)
        del result
        assert freed() is None
    finally:
        if collecting:
            gc.enable()


def test_a_structure_that_forbids_what_the_site_allowed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Hand 1 raises to 8 over blinds of 1 and 2: pot limit allows a raise to 7 at most.
    (first,) = [h for h in phh.read(str(SAMPLE)) if h.key == "1"]
    result = phh.replay(first, engine_class("pot_limit"))
    assert result.status == phh.REFUSED and result.error is not None and result.error.code == "above_maximum"
    status, lines = _run(capsys, "check", str(SAMPLE), "--structure", "pot_limit")
    assert status == 1
    assert lines[0].startswith(
        f"REFUSED {SAMPLE}[1]: action 10 'p6 cbr 8' (seat 5 raise to 800) refused: above_maximum"
    )


def test_options_are_json_scalars_checked_by_the_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert phh.parse_options(["bet_unit=5", "underraise_rule=half", "max_raises=null", "x=true"]) == {
        "bet_unit": 5,
        "underraise_rule": "half",
        "max_raises": None,
        "x": True,
    }
    path = _hand_file(tmp_path, "odd.phh", _three_handed("p3 cbr 5", "p1 f", "p2 f"))
    assert _run(capsys, "check", path, "--structure", "no_limit")[0] == 0
    status, lines = _run(capsys, "check", path, "--structure", "no_limit", "--option", "bet_unit=2")
    assert status == 1 and lines[0].startswith("REFUSED")
    status, lines = _run(capsys, "check", path, "--structure", "no_limit", "--option", "bet_units=2")
    assert status == 2 and lines == [
        "betspec phh: option 'bet_units' is not declared by no_limit (did you mean 'bet_unit'?)"
    ]
    status, lines = _run(capsys, "check", path, "--structure", "no_limit", "--option", "bet_unit=zero")
    assert status == 2 and len(lines) == 1 and lines[0].startswith("betspec phh: no_limit: option bet_unit")
    status, lines = _run(capsys, "check", path, "--structure", "no_limit", "--option", "bet_unit")
    assert status == 2 and lines == ["betspec phh: an option is NAME=VALUE, not 'bet_unit'"]


def test_bad_files_give_one_clean_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    not_toml = _hand_file(tmp_path, "broken.phhs", "[1\nvariant = 'NT'\n")
    status, lines = _run(capsys, "check", not_toml, "--structure", "no_limit")
    assert status == 2 and lines[0].startswith(f"betspec phh: {not_toml}: not TOML: ") and len(lines) == 2
    missing = str(tmp_path / "missing.phh")
    status, lines = _run(capsys, "check", missing, "--structure", "no_limit")
    assert status == 2 and lines[0] == f"betspec phh: {missing}: cannot read: No such file or directory"
    binary = tmp_path / "binary.phh"
    binary.write_bytes(b"\xff\xfe\x00variant")
    assert (
        _run(capsys, "check", str(binary), "--structure", "no_limit")[1][0]
        == f"betspec phh: {binary}: not UTF-8 text (line 1, byte 1)"
    )
    empty = _hand_file(tmp_path, "empty.phhs", "# nothing\n")
    assert "no hand in it" in _run(capsys, "check", empty, "--structure", "no_limit")[1][0]
    stud = _hand_file(
        tmp_path, "stud.phh", "variant = 'FK'\nantes = [1, 1]\nstarting_stacks = [10, 10]\nactions = []\n"
    )
    status, lines = _run(capsys, "check", stud, "--structure", "no_limit")
    assert status == 1 and lines[0].startswith(f"INVALID {stud}: variant 'FK' is not one betspec replays")
    status, lines = _run(capsys, "check", stud, "--structure", "no_such_structure")
    assert status == 2 and lines == [
        "betspec phh: no generated engine for structure 'no_such_structure' (run `betspec generate`)"
    ]
    assert _run(capsys, "to-case", "--structure", "no_limit", not_toml)[0] == 2
    # A no-limit hand has no fixed bets for a fixed-limit table: invalid there, not a crash.
    status, lines = _run(
        capsys, "check", _hand_file(tmp_path, "nl.phh", _three_handed("p3 f")), "--structure", "fixed_limit"
    )
    assert status == 1 and lines[0].startswith("INVALID") and "bets" in lines[0]


def test_irregular_hands_do_not_fail_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _hand_file(tmp_path, "min-bet.phh", _three_handed("p1 f", min_bet="4"))
    status, lines = _run(capsys, "check", path, "--structure", "no_limit")
    assert status == 0
    assert lines[0].startswith(f"IRREGULAR {path}: min_bet 4 is not the big blind 2")
    assert lines[-1] == (
        f"1 hand under no_limit: 0 accepted, 0 refused, 0 mispaid, 1 irregular ({path}), 0 invalid; "
        "pots checked against the file in 0 (0 paid as it says), not in 0"
    )


def _pokerkit_fixed_limit_straddled(seed: int, count: int) -> str:
    """Fixed-limit hold'em hands with a straddle (blinds 1-2, straddle 4, bets 2-4), played and
    written by PokerKit (each choice random among PokerKit's legal actions), as one .phhs text."""
    import random

    from pokerkit import Automation, FixedLimitTexasHoldem

    rng = random.Random(seed)
    texts = []
    game = FixedLimitTexasHoldem(tuple(Automation), True, 0, (1, 2, 4), 2, 4)  # the dealer automated
    for _ in range(count):
        n = rng.randint(3, 6)
        state = game(tuple(rng.choice((30, 100, 400)) for _ in range(n)), n)
        while state.status:
            choices = ["c", "r", "r"] + (["f"] if state.can_fold() else [])
            move = rng.choice([c for c in choices if c != "r" or state.can_complete_bet_or_raise_to()])
            if move == "f":
                state.fold()
            elif move == "c":
                state.check_or_call()
            else:
                state.complete_bet_or_raise_to()
        texts.append(HandHistory.from_game_state(game, state).dumps())
    return "\n".join(f"[{number}]\n{text}" for number, text in enumerate(texts, 1))


def test_pokerkit_straddled_fixed_limit_hands_count_raises_as_the_native_inputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """BLINDS-BY-SEAT and CAP: with blinds and a straddle given seat by seat, the big blind is the
    opening bet and the straddle the first raise, as with straddles=1; the small blind counts for
    nothing. PokerKit allows four raises before the flop and counts neither the big blind nor the
    straddle (the preflop-cap exclusion of the differential test): with the cap raised by two
    (max_raises=5) every hand it wrote is accepted, and under the default every refusal is the
    raise to 10, a bet (the big blind, 2) and three raises (the straddle to 4, then 6 and 8)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = _hand_file(tmp_path, "fl.phhs", _pokerkit_fixed_limit_straddled(seed=21, count=120))
    status, lines = _run(capsys, "check", path, "--structure", "fixed_limit", "--option", "max_raises=5")
    assert status == 0 and lines[-1].startswith("120 hands under fixed_limit: 120 accepted, 0 refused"), lines[-1]
    status, lines = _run(capsys, "check", path, "--structure", "fixed_limit")
    refused = [line for line in lines if line.startswith("REFUSED")]
    assert refused and status == 1
    assert all("cbr 10'" in line and "cap_reached" in line for line in refused), refused[:3]
    (hand,) = phh.loads(_pokerkit_fixed_limit_straddled(seed=21, count=1).split("\n", 1)[1])
    assert isinstance(hand, phh.Hand)
    assert phh.table_inputs(hand)["blinds"] == [1, 2]  # the minimum bet (the small bet) is the big blind


def test_phh_check_replays_in_c_what_the_python_engine_replays_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the kernel is compiled, check replays the hands in one call in C and reports every
    hand as the Python engine's replay does: accepted, refused, pots paid or not checked."""
    import betspec.runtime.batch as batch

    cls = engine_class("no_limit")
    if batch.kernel(cls) is None:
        pytest.skip("the no_limit kernel is not compiled here")
    texts = [
        _three_handed("p3 cbr 3", "p1 f", "p2 f"),  # a raise below the minimum: refused
        _three_handed("p3 cbr 6", "p1 f", "p2 cc", "d db ??????", "p2 cc", "p3 cbr 10", "p2 f"),
        _three_handed("p3 cc", "p1 cc", "p2 cc", "d db ??????"),  # the history stops
        _three_handed("p3 cc", "p1 cc", "p2 cbr 2000"),  # more than the stack
        _three_handed("p3 f", "p1 f", starting_stacks="[200000000000, 300000000000, 5]"),
    ]
    paths = [str(SAMPLE), *(_hand_file(tmp_path, f"hand{i}.phh", text) for i, text in enumerate(texts))]
    hands = phh.read(str(SAMPLE))
    assert len(phh.replayed_in_c(hands, cls, {})) == len(hands)  # every sample hand, in C
    fast = [phh.check_part(path, 0, 1, "no_limit", {}) for path in paths]
    monkeypatch.setattr(batch, "kernel", lambda _cls: None)
    assert phh.replayed_in_c(hands, cls, {}) == {}
    slow = [phh.check_part(path, 0, 1, "no_limit", {}) for path in paths]
    for mine, theirs in zip(fast, slow, strict=True):
        assert (mine.lines, mine.counts, mine.paid, mine.raked) == (
            theirs.lines,
            theirs.counts,
            theirs.paid,
            theirs.raked,
        )
    assert sum(report.counts[phh.REFUSED] for report in slow) == 2


def test_files_checked_together_are_reported_as_each_file_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """check_files checks runs of files together (check_parts: their hands replayed in one call);
    each file's report is what checking it alone gives, in the order of the files, whatever the
    runs: an unreadable file, a file of bad hands and a refused hand among them."""
    texts = [
        _three_handed("p3 cbr 6", "p1 f", "p2 cc", "d db ??????", "p2 cc", "p3 cbr 10", "p2 f"),
        _three_handed("p3 cbr 3", "p1 f", "p2 f"),  # refused
        "not = [a hand",  # unreadable
        _three_handed("p3 f", "p1 f"),
    ]
    paths = [str(SAMPLE)] + [_hand_file(tmp_path, f"hand{i}.phh", text) for i, text in enumerate(texts * 3)]
    paths.insert(5, str(tmp_path / "missing.phh"))
    alone = [phh.check_part(path, 0, 1, None, {}) for path in paths]
    for pieces in (512, 3, 1):
        monkeypatch.setattr(phh.audit, "BATCH_PIECES", pieces)
        together = list(phh.check_files(paths, None, {}))
        assert [r.path for r in together] == paths
        for mine, theirs in zip(together, alone, strict=True):
            assert (mine.lines, mine.counts, mine.paid, mine.raked, mine.unreadable) == (
                theirs.lines,
                theirs.counts,
                theirs.paid,
                theirs.raked,
                theirs.unreadable,
            )
    assert sum(report.unreadable for report in alone) == 4
    assert sum(report.counts[phh.REFUSED] for report in alone) == 3
    pieces = [(path, 0, 1) for path in paths]
    runs = phh.audit._batches(pieces)  # BATCH_PIECES is 1 here: a run a file
    assert runs == [[piece] for piece in pieces]
    monkeypatch.setattr(phh.audit, "BATCH_PIECES", 512)
    assert phh.audit._batches(pieces) == [pieces]  # 239 kB in all, below BATCH_BYTES
    monkeypatch.setattr(phh.audit, "BATCH_BYTES", 100_000)
    runs = phh.audit._batches(pieces)  # the sample ends a run by its size, the small files another
    assert runs == [pieces[:1], pieces[1:]]
    # With workers: four runs a worker at least, and a share of a file split among them alone.
    runs = phh.audit._batches(pieces[1:], workers=2)
    assert [piece for run in runs for piece in run] == pieces[1:] and len(runs) >= min(8, len(pieces) - 1)
    small = [(path, 0, 1) for path in paths[1:]]
    shared = [*small, (str(SAMPLE), 0, 2), (str(SAMPLE), 1, 2), *small]
    runs = phh.audit._batches(shared, workers=2)  # at most 30 // 8 = 3 pieces a run
    assert [piece for run in runs for piece in run] == shared
    assert all(len(run) == 1 for run in runs if any(shares > 1 for _, _, shares in run))
    assert max(len(run) for run in runs) == 3


def test_a_hand_replayed_in_c_keeps_each_action_as_the_python_engine_names_it() -> None:
    """The steps a hand replayed in C keeps (Logged.taken: each check-or-call and bet-or-raise
    as the one the kernel took) are the steps the Python engine's replay takes, deals named
    alike; the pots are paid from them."""
    import betspec.runtime.batch as batch

    cls = engine_class("no_limit")
    if batch.kernel(cls) is None:
        pytest.skip("the no_limit kernel is not compiled here")
    hands = phh.read(str(SAMPLE))
    in_c = phh.replayed_in_c(hands, cls, {})
    assert len(in_c) == len(hands)
    for index, hand in enumerate(hands):
        python = phh.replay(hand, cls)
        assert python.status == phh.ACCEPTED
        steps = [
            (-1, step["deal"], None) if "deal" in step else (step["seat"], step["act"], step.get("to"))
            for step in python.steps
        ]
        assert in_c[index].logged == steps, hand.name
        assert in_c[index].steps == []
        assert phh.check_pots(in_c[index]) == phh.check_pots(python)


def test_checking_leaves_the_garbage_collector_as_it_found_it() -> None:
    """check_part collects cyclic garbage less often while it runs (phh.COLLECT_AFTER) and puts
    the collector's thresholds back as they were, a file unreadable too."""
    saved = gc.get_threshold()
    try:
        gc.set_threshold(1234, 11, 12)
        report = phh.check_part(str(SAMPLE), 0, 1, "no_limit", {})
        assert report.hands == 583 and gc.get_threshold() == (1234, 11, 12)
        assert phh.check_part("/nonexistent.phh", 0, 1, "no_limit", {}).unreadable == 1
        assert gc.get_threshold() == (1234, 11, 12)
    finally:
        gc.set_threshold(*saved)


def test_a_hand_s_line_is_bounded() -> None:
    """Issue 29: a REFUSED line printed a rule's source whole, however long (a house's)."""
    line = phh.Replay("hand.phh", phh.REFUSED, "refused: " + "a long source " * 2000).line()
    assert len(line) <= phh.LINE_ROOM and line.startswith("REFUSED hand.phh: refused: a long source")


def test_a_file_s_hands_replayed_to_their_final_stacks_in_one_call() -> None:
    """Issue 29: replaying a PHH file to its final stacks from Python took check_pots, which the
    README never named; phh.finished does it, each hand under its variant's structure."""
    from decimal import Decimal

    hands = phh.finished(str(SAMPLE))
    assert len(hands) == 583 and {hand.status for hand in hands} == {phh.ACCEPTED}
    first = hands[0]
    assert first.stacks == (
        Decimal("416.35"),
        Decimal("94.66"),
        Decimal("443.35"),
        Decimal("200"),
        Decimal("196.2"),
        Decimal("74.12"),
    )
    assert sum(hand.chips is not None for hand in hands) >= 476  # every hand whose pots the file lets betspec pay
    for hand in hands:
        if hand.chips is not None:
            assert "as the file's" in hand.detail or "less a rake" in hand.detail or "not checked" in hand.detail
