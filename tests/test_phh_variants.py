"""PHH of every family betspec plays (issue 22): hands PokerKit 0.7.7 writes in each of its eleven
variants replayed and paid, the 2019 WSOP triple-draw hand of the PHH standard's examples, and
``to_phh`` round trips with cards read back by PokerKit's own reader (the oracle).

PokerKit deals and plays the generated hands (seeded): antes, blinds, straddles, short stacks,
bring-ins posted or completed, draws and stand-pats, random decisions. Where PokerKit departs
from the rulebooks (docs/testing.md, the table of exclusions), the replay sets the
house option that plays as PokerKit does, or the test names the exclusion a refusal falls under.
"""

from __future__ import annotations

import json
import random
import re
import warnings
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import tomllib
from pokerkit import Automation, HandHistory, Mode, State, rake

from betspec import cards
from betspec.runtime import Engine, Table, engine_class
from betspec.tools import phh

YOCKEY = Path(__file__).resolve().parent / "phh" / "arieh-yockey-2019.phh"
HANDS = 40
STUD = ("F7S", "F7S/8", "FR")


def _decide(state: State, rng: random.Random) -> None:
    """One random decision of PokerKit's player to act (a fold only when checking is not free)."""
    if state.can_stand_pat_or_discard():
        index = state.stand_patter_or_discarder_index
        assert index is not None
        hole = list(state.hole_cards[index])
        count = rng.randint(0, min(3, len(hole)))
        state.stand_pat_or_discard(rng.sample(hole, count) if count else ())
        return
    choices = []
    if state.can_fold() and state.checking_or_calling_amount:
        choices.append("f")
    if state.can_check_or_call():
        choices += ["cc"] * 3
    if state.can_post_bring_in():
        choices += ["pb"] * 2
    if state.can_complete_bet_or_raise_to():
        choices += ["cbr"] * 2
    choice = rng.choice(choices)
    if choice == "f":
        state.fold()
    elif choice == "cc":
        state.check_or_call()
    elif choice == "pb":
        state.post_bring_in()
    else:
        low = state.min_completion_betting_or_raising_to_amount
        high = state.max_completion_betting_or_raising_to_amount
        state.complete_bet_or_raise_to(rng.choice([low, high]))


def pokerkit_hand(code: str, rng: random.Random, raked: float = 0) -> str:
    """A hand PokerKit deals and plays in variant ``code``, as the PHH text it writes; with
    ``raked``, PokerKit rakes that part of each pot (a fraction), at most three big blinds a pot,
    no flop no drop."""
    n = rng.randint(2, 6)
    stacks = [rng.choice([rng.randint(3, 40), rng.randint(50, 400), rng.randint(200, 3000)]) for _ in range(n)]
    ante = rng.choice([0, 0, 1, 2])
    small = rng.choice([1, 2, 5])
    blinds = [small, 2 * small] + ([4 * small] if n > 3 and rng.random() < 0.3 else [])
    kind = HandHistory.game_types[code]
    random.seed(rng.random())  # PokerKit shuffles with the random module
    automations = tuple(Automation)
    more: dict[str, Any] = {"mode": Mode.CASH_GAME}
    if raked:
        more["rake"] = partial(rake, percentage=raked, cap=3 * 2 * small, no_flop_no_drop=True)
    if code in STUD:
        bet = rng.choice([4, 10])
        game: Any = kind(automations, False, ante, rng.choice([1, bet // 2]), bet, 2 * bet, **more)
    elif cards.GAMES[code].limits == "min_bet":
        game = kind(automations, False, ante, blinds, 2 * small, **more)
    else:
        game = kind(automations, False, ante, blinds, 2 * small, 4 * small, **more)
    state = game(stacks, n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while state.status:
            _decide(state, rng)
    history = HandHistory.from_game_state(game, state, finishing_stacks=list(state.stacks))
    return str(history.dumps())


def pokerkit_hand_with_forced_bets(code: str, rng: random.Random) -> str:
    """A hand PokerKit deals and plays in variant ``code`` with antes of every kind PHH writes (for
    every seat, ante trimming on or off; a big blind ante; a button ante) and stacks that are
    often short of the forced bets, as the PHH text it writes."""
    n = rng.randint(2, 6)
    small = rng.choice([1, 2, 5])
    kinds = ["none", "every_seat", "big_blind", "button"] if code not in STUD else ["none", "every_seat"]
    kind = rng.choice(kinds)
    antes = [0] * n
    if kind == "every_seat":
        antes = [rng.choice([1, 2, 5])] * n
    elif kind == "big_blind":
        antes[1] = 2 * small  # PHH's big blind ante is the second player's, heads-up too
    elif kind == "button":
        antes[-1] = rng.choice([1, 2, 5])
    # PHH keeps trimming off for antes that are not every seat's (the standard's optional fields).
    trimming = kind == "every_seat" and rng.random() < 0.3
    forced = max(antes) + 4 * small
    stacks = [
        rng.choice([rng.randint(1, max(2, forced)), rng.randint(3, 40), rng.randint(50, 400), rng.randint(200, 3000)])
        for _ in range(n)
    ]
    blinds = [small, 2 * small] + ([4 * small] if n > 3 and rng.random() < 0.3 else [])
    variant = HandHistory.game_types[code]
    random.seed(rng.random())  # PokerKit shuffles with the random module
    automations = tuple(Automation)
    if code in STUD:
        bet = rng.choice([4, 10])
        game: Any = variant(automations, trimming, antes, rng.choice([1, bet // 2]), bet, 2 * bet)
    elif cards.GAMES[code].limits == "min_bet":
        game = variant(automations, trimming, antes, blinds, 2 * small)
    else:
        game = variant(automations, trimming, antes, blinds, 2 * small, 4 * small)
    state = game(stacks, n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while state.status:
            _decide(state, rng)
    # PokerKit 0.7.7's from_game_state writes the game's required fields only: it leaves
    # ante_trimming_status at PHH's default (false) whatever the game played, so it is given.
    history = HandHistory.from_game_state(
        game, state, finishing_stacks=list(state.stacks), ante_trimming_status=trimming
    )
    return str(history.dumps())


def pokerkit_options(cls: type[Engine]) -> dict[str, Any]:
    """The house options under which betspec plays as PokerKit does where the two part (docs/testing.md's
    table of exclusions): a blind posted short lowers the bet, four raises after the big blind at
    fixed limit, raises capped heads-up too."""
    wanted: dict[str, Any] = {"short_blind_lowers_bet": True, "uncapped_heads_up": False}
    if "blinds" in cls.INPUTS and "bets" in cls.INPUTS:
        wanted["max_raises"] = 4
    return {name: value for name, value in wanted.items() if name in cls.OPTION_DEFAULTS}


def exclusion(result: phh.Replay, hand: phh.Hand) -> str | None:
    """The exclusion a refusal falls under, or None: a raise over a short all-in (PokerKit raises
    a full bet over it and reopens; the rulebooks complete it and do not reopen), the minimum
    raise over a straddle (PokerKit: the straddle plus the big blind; the rulebooks: twice it), or
    a fixed-limit cap over a straddle (PokerKit counts no raise in it), the one player with chips
    left asked to check (PokerKit), or a fixed-limit Omaha high-low bet above the limit (PokerKit 0.7.7 plays FO/8 pot limit:
    ``FixedLimitOmahaHoldemHighLowSplitEightOrBetter.betting_structure`` is ``POT_LIMIT``)."""
    engine, error = result.engine, result.error
    assert engine is not None and error is not None
    if hand.variant == "FO/8" and error.rule in ("SIZE-MAX-RAISE", "SIZE-MAX-BET", "SIZE-MIN-RAISE", "SIZE-BET", "CAP"):
        return "fo8_played_pot_limit"  # PokerKit 0.7.7's FixedLimitOmaha...EightOrBetter bets pot limit
    all_in = any(stack == 0 and not folded for stack, folded in zip(engine.stacks, engine.folded, strict=True))
    # At fixed limit a raise of a full bet over a short all-in is off the rulebooks' ladder
    # (complete it, or raise the completed bet): refused as an amount the sizes do not give.
    if error.rule in ("SIZE-MAX-RAISE", "REOPEN", "SIZE-MIN-RAISE", "CHIPS") and all_in:
        return "short_all_in"
    straddled = sum(1 for v in hand.blinds_or_straddles if v) > 2
    if error.rule == "SIZE-MIN-RAISE" and straddled:
        return "straddle_unraised"
    if error.rule == "CAP" and straddled:
        return "fixed_limit_preflop_cap"  # PokerKit counts no raise in the straddle
    if error.code == "no_action_pending" and error.rule == "ROUND-END" and all_in:
        return "lone_player_asked_to_check"
    return None


def _odd_chips(pots: phh.Pots, hand: phh.Hand) -> bool:
    """Paid otherwise than PokerKit by odd chips of a split pot only (PokerKit gives them by seat
    number; betspec to the high half and clockwise from the button, each pot split separately,
    Robert's Rules): a high-low game, or hands that tie."""
    if hand.finishing_stacks is None:
        return False
    split = hand.game.split or any(len(group) > 1 for group in pots.ranking)
    return split and all(abs(a - b) <= 1 for a, b in zip(pots.stacks, hand.finishing_stacks, strict=True))


def _pot_without_a_low(result: phh.Replay, hand: phh.Hand) -> bool:
    """A high-low hand with a pot (a side pot as a rule) that no player eligible for it has a
    qualifying low for: PokerKit 0.7.7 splits that pot's low half among its players, where the
    rulebooks give the best high hand the whole pot (Robert's Rules of Poker, high-low split
    games: no qualifying low, the high hand wins the whole pot; each pot is split separately)."""
    if not hand.game.split or result.engine is None:
        return False
    holes = {seat: [held[i : i + 2] for i in range(0, len(held), 2)] for seat, held in enumerate(hand.hole)}
    pots = [pot for pot in result.engine.pots() if len(pot.eligible) > 1]
    contenders = {seat: holes[seat] for pot in pots for seat in pot.eligible}
    if not contenders or not all(cards.known(held) for held in contenders.values()):
        return False
    board = [card for deal in hand.board for card in _cards_of(deal)]
    _, low = cards.rankings(hand.game, contenders, board)
    qualifying = {seat for group in low for seat in group}
    return any(not qualifying & set(pot.eligible) for pot in pots)


def _cards_of(text: str) -> list[str]:
    return [text[i : i + 2] for i in range(0, len(text), 2)]


@pytest.mark.parametrize("code", list(cards.GAMES))
def test_hands_pokerkit_writes_are_replayed_and_paid(code: str) -> None:
    game = cards.GAMES[code]
    cls = engine_class(game.structure)
    options = pokerkit_options(cls)
    rng = random.Random(f"phh-variants-{code}")
    tally: Counter[str] = Counter()
    for _ in range(HANDS):
        text = pokerkit_hand(code, rng)
        (hand,) = phh.loads(text)
        assert isinstance(hand, phh.Hand), hand
        result = phh.replay(hand, cls, options)
        if result.status == phh.REFUSED:
            why = exclusion(result, hand)
            assert why is not None, f"{result.line()}\n{text}"
            tally[why] += 1
            continue
        assert result.status == phh.ACCEPTED, f"{result.line()}\n{text}"
        pots = phh.check_pots(result)
        if pots.status == phh.MISPAID and _odd_chips(pots, hand):
            tally["odd_chip_of_a_split_pot"] += 1
            continue
        assert pots.status == phh.PAID, f"{pots.detail}\n{text}"
        tally["paid"] += 1
    # PokerKit 0.7.7 bets FO/8 pot limit: most of its hands raise above the fixed limit.
    assert tally["paid"] >= (HANDS * 0.6 if code != "FO/8" else 3), tally


FORCED_BET_HANDS = 150


@pytest.mark.parametrize("code", list(cards.GAMES))
def test_hands_with_antes_big_blind_antes_and_short_stacks_are_paid_as_their_files_say(code: str) -> None:
    """Issue 29: every hand PokerKit writes with antes (trimmed or not), big blind and button
    antes, and stacks short of the forced bets is paid as its file's finishing_stacks say, or
    departs from it only where docs/hand-histories.md names a rulebook difference (an exclusion of the
    replay, the odd chip of a split pot, a pot nobody eligible has a low for); ante_trimming_status
    read as the file declares it."""
    game = cards.GAMES[code]
    cls = engine_class(game.structure)
    options = pokerkit_options(cls)
    rng = random.Random(f"phh-forced-bets-{code}")
    tally: Counter[str] = Counter()
    for _ in range(FORCED_BET_HANDS):
        text = pokerkit_hand_with_forced_bets(code, rng)
        (hand,) = phh.loads(text)
        assert isinstance(hand, phh.Hand), hand
        result = phh.replay(hand, cls, options)
        if result.status == phh.REFUSED:
            why = exclusion(result, hand)
            assert why is not None, f"{result.line()}\n{text}"
            tally[why] += 1
            continue
        assert result.status == phh.ACCEPTED, f"{result.line()}\n{text}"
        pots = phh.check_pots(result)
        if pots.status == phh.MISPAID and _odd_chips(pots, hand):
            tally["odd_chip_of_a_split_pot"] += 1
        elif pots.status == phh.MISPAID and _pot_without_a_low(result, hand):
            tally["pot_without_a_low"] += 1
        else:
            assert pots.status == phh.PAID, f"{pots.detail}\n{text}"
            tally["paid"] += 1
            tally["paid_with_antes"] += any(hand.antes)
    assert tally["paid"] >= (FORCED_BET_HANDS * 0.85 if code != "FO/8" else 20), tally
    assert tally["paid_with_antes"] >= tally["paid"] // 3, tally


def test_a_file_s_ante_trimming_status_decides_who_wins_the_antes() -> None:
    """One hand, three players anteing 5, one all-in for 2 of his ante with the best hand: with
    ante_trimming_status false (PHH's default) he wins all the antes, 12; true, 2 from each, 6
    (table stakes, rule ANTE-RULE)."""
    lines = [
        "variant = 'NT'",
        "antes = [5, 5, 5]",
        "blinds_or_straddles = [1, 2, 0]",
        "min_bet = 2",
        "starting_stacks = [100, 100, 2]",
        "actions = ['d dh p1 7c2d', 'd dh p2 8h3s', 'd dh p3 AcAd', 'p1 cc', 'p2 cc', 'd db Ks9d4h', 'p1 cc',"
        " 'p2 cc', 'd db 5s', 'p1 cc', 'p2 cc', 'd db Jc', 'p1 cc', 'p2 cc', 'p1 sm 7c2d', 'p2 sm 8h3s',"
        " 'p3 sm AcAd']",
    ]
    cls = engine_class("no_limit")
    won = {}
    for trimming in (None, "false", "true"):
        field = [] if trimming is None else [f"ante_trimming_status = {trimming}"]
        (hand,) = phh.loads("\n".join(field + lines) + "\n")
        assert isinstance(hand, phh.Hand)
        result = phh.replay(hand, cls)
        assert result.status == phh.ACCEPTED, result.line()
        won[trimming] = phh.check_pots(result).stacks
    # Each blind calls to 2 and checks down; p2's king-jack-nine-eight beats p1's, p3's aces beat both.
    # Dead antes: 12 for all three (p3's), the blinds' 2 each for p1 and p2 (p2's).
    assert won[None] == won["false"] == (93, 97, 12)
    # Trimmed: 2 from each of the three (p3's 6), the rest of the antes and the blinds p2's.
    assert won["true"] == (93, 103, 6)


def test_the_2019_wsop_triple_draw_hand_replays_and_pays_the_winner() -> None:
    (hand,) = phh.read(str(YOCKEY))
    assert isinstance(hand, phh.Hand) and hand.variant == "F2L3D"
    result = phh.replay(hand, engine_class("triple_draw"))
    assert result.status == phh.ACCEPTED, result.line()
    assert [step["deal"] for step in result.steps if "deal" in step] == ["first_draw", "second_draw", "third_draw"]
    pots = phh.check_pots(result)
    assert pots.ranking == ((3,), (0,))  # Arieh's 7-5 low beats Yockey's 7-6
    assert pots.stacks == (0, 4190000, 5910000, 12095000)  # as PokerKit pays it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        final = list(HandHistory.loads(YOCKEY.read_text(encoding="utf-8")))[-1]
    assert tuple(final.stacks) == pots.stacks


def _host_hand(structure: str, seed: int) -> tuple[Engine, cards.Dealer]:
    """A hand a host deals from a seeded deck and plays at random to the end, paid."""
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    cls = engine_class(structure)
    dealer = cards.Dealer(cards.game_of(cls), n, seed=seed)
    inputs: dict[str, Any] = {"ante": rng.choice([0, 1])}
    if "bring_in" in cls.INPUTS:
        inputs |= {"bring_in": 2, "bets": (10, 20)}
    else:
        inputs["blinds"] = (5, 10)
        if "bets" in cls.INPUTS:
            inputs["bets"] = (10, 20)
    # PokerKit reads what betspec allows, except where it departs: deep stacks at limit poker (no
    # short all-in), no open-pair big bet, raises capped heads-up, no fold when checking is free.
    low = 400 if "bets" in cls.INPUTS else 11
    stacks = [rng.choice([rng.randint(low, 500 if low > 11 else 60), rng.randint(400, 1000)]) for _ in range(n)]
    options = {name: False for name in ("uncapped_heads_up", "open_pair_big_bet") if name in cls.OPTION_DEFAULTS}
    engine = cls(Table.of(stacks, rng.randrange(n), {**inputs, **dealer.table_inputs()}), **options)
    while not engine.hand_over:
        if engine.to_act is None:
            if dealer.game.draw:
                for seat in range(n):
                    if not engine.folded[seat]:
                        dealer.draw(seat, dealer.hole[seat][: rng.randint(0, 2)])
            dealer.deal(engine)
            continue
        legal = [a for a in engine.legal_actions() if a != "timeout"]
        if "check" in legal and "fold" in legal:
            legal.remove("fold")
        action = rng.choice(legal)
        seat = engine.to_act
        if action == "all_in":
            engine.all_in(seat)
        elif action in ("bet", "raise"):
            engine.act(seat, action, rng.choice([engine.min_to, engine.max_to]))
        else:
            engine.act(seat, action)
    while engine.next_street is not None:
        dealer.deal(engine)
    dealer.settle(engine)
    return engine, dealer


ROUND_TRIP = ["no_limit", "pot_limit", "fixed_limit", "seven_card_stud", "razz", "triple_draw", "badugi"]


@pytest.mark.parametrize("structure", [*ROUND_TRIP, "five_card_draw_no_limit"])
def test_to_phh_writes_any_hand_with_its_cards_and_pokerkit_reads_it_back(structure: str) -> None:
    for seed in range(15):
        engine, dealer = _host_hand(structure, seed)
        text = phh.to_phh(engine, cards=dealer)
        order = [(engine.button + 1 + i) % engine.seats for i in range(engine.seats)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            final = list(HandHistory.loads(text))[-1]
        assert tuple(final.stacks) == tuple(engine.stacks[seat] for seat in order), text
        (hand,) = phh.loads(text)
        assert isinstance(hand, phh.Hand)
        result = phh.replay(hand, type(engine), engine.options)
        assert result.status == phh.ACCEPTED, f"{result.line()}\n{text}"
        assert result.engine is not None
        ours = [(order.index(s) if s >= 0 else s, a, t) for s, a, t in engine.history if s != -2]
        theirs = list(result.engine.history)
        assert [a for _, a, _ in theirs] == [a for _, a, _ in ours]
        assert phh.to_phh(result.engine) == phh.to_phh(result.engine)  # the same bytes
        assert phh.check_pots(result).stacks == tuple(engine.stacks[seat] for seat in order)


def test_all_ins_and_any_button_are_written() -> None:
    engine = engine_class("no_limit")(Table.of([300, 500, 500], 1, {"blinds": (5, 10)}))
    dealer = cards.Dealer("NT", 3, seed=3)
    engine.all_in(1)
    engine.call(2)
    engine.call(0)
    while engine.next_street is not None:
        dealer.deal(engine)
    dealer.settle(engine)
    text = phh.to_phh(engine, cards=dealer)
    assert "p3 cbr 500" in text and text.count("d db") == 3 and text.count(" sm ") == 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        final = list(HandHistory.loads(text))[-1]
    assert sum(final.stacks) == 1300 and sorted(final.stacks) == sorted(engine.stacks)


def test_the_dealer_decides_what_the_cards_decide() -> None:
    stud = cards.GAMES["F7S"]
    razz = cards.GAMES["FR"]
    ups = {0: ["Kd"], 1: ["2h"], 2: ["2c"]}
    assert cards.bring_in_seat(stud, ups) == 2  # the lowest upcard, clubs lowest on a tie
    assert cards.bring_in_seat(razz, {0: ["Kd"], 1: ["Ks"], 2: ["Ac"]}) == 1  # the king of spades
    assert cards.opener(stud, {0: ["Kd", "2c"], 1: ["9h", "9c"], 2: ["Ah", "Kc"]}) == 1  # a pair showing
    assert cards.opener(razz, {0: ["Kd", "2c"], 1: ["9h", "9c"], 2: ["Ah", "3c"]}) == 2  # the lowest
    # Hands showing alike: the first seat after the button opens (the dealer's left), else the lowest.
    tied = {0: ["3s", "6s"], 1: ["3h", "6c"], 2: ["2d", "4c"]}
    assert cards.opener(stud, tied) == 0 and cards.opener(stud, tied, button=0) == 1
    assert cards.opener(stud, tied, button=1) == 0 and cards.opener(stud, tied, button=2) == 0
    assert cards.open_pair({0: ["9h", "9c"]}) and not cards.open_pair({0: ["9h", "8c"]})
    first, again = cards.Dealer("F7S", 4, seed=11), cards.Dealer("F7S", 4, seed=11)
    assert first.hole == again.hole and first.table_inputs() == again.table_inputs()
    assert all(len(held) == 3 for held in first.hole)
    royal = ["As", "Ks", "Qs", "Js", "Ts", "9d", "8d"]
    wheel = ["Ah", "2c", "3d", "4h", "5c", "9c", "Kh"]
    high, low = cards.rankings(cards.GAMES["F7S/8"], {0: royal, 1: wheel})
    assert high == [[0], [1]] and low == [[1]]
    assert cards.settlement_rankings([high, low]) == {"runs": [[[0], [1]], [[1], [0]]]}
    assert cards.settlement_rankings([high, []]) == {"ranking": [[0], [1]]}


CLI_HANDS = 6


@pytest.mark.parametrize("code", list(cards.GAMES))
def test_phh_check_on_the_command_line(code: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``betspec phh check`` (through ``betspec.cli.main``) on a file of hands PokerKit writes in
    the variant: the hands the library accepts and pays, one ACCEPTED line each, paid as the
    file says; then every hand generated, whatever PokerKit departs on, one line each, the
    command's exit status as the lines say, never a traceback."""
    from betspec.cli import main

    game = cards.GAMES[code]
    cls = engine_class(game.structure)
    options = pokerkit_options(cls)
    argv = ["--structure", game.structure, *(f"--option={name}={json.dumps(v)}" for name, v in options.items())]
    rng = random.Random(f"phh-cli-{code}")
    kept: list[str] = []
    every: list[tuple[str, str]] = []  # each hand generated and the status the library gives it
    while len(kept) < CLI_HANDS:
        assert len(every) < 30 * CLI_HANDS, f"{code}: too few hands accepted and paid"
        text = pokerkit_hand(code, rng)
        (hand,) = phh.loads(text)
        assert isinstance(hand, phh.Hand)
        result = phh.replay(hand, cls, options)
        pots = phh.check_pots(result) if result.status == phh.ACCEPTED else None
        every.append((text, phh.MISPAID_STATUS if pots and pots.status == phh.MISPAID else result.status))
        if pots is not None and pots.status == phh.PAID:
            kept.append(text)

    path = tmp_path / "kept.phhs"
    path.write_text(phh.to_phhs(kept), encoding="utf-8")
    status = main(["phh", "check", str(path), *argv])
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert status == 0 and err == "" and "Traceback" not in out, out
    assert len(lines) == CLI_HANDS + 1, out
    for number, line in enumerate(lines[:-1], 1):
        assert line.startswith(f"ACCEPTED {path}[{number}]: "), line
        assert re.search(
            r"; pots paid (uncontested|at a showdown ranked p\d.*) as the file's finishing_stacks say", line
        )
    n = CLI_HANDS
    assert lines[-1] == (
        f"{n} hands under {game.structure}: {n} accepted, 0 refused, 0 mispaid, 0 irregular, 0 invalid; "
        f"pots checked against the file in {n} ({n} paid as it says), not in 0"
    )

    path = tmp_path / "every.phhs"
    path.write_text(phh.to_phhs([text for text, _ in every]), encoding="utf-8")
    status = main(["phh", "check", str(path), *argv])
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert err == "" and "Traceback" not in out and len(lines) == len(every) + 1
    assert [line.split(" ", 1)[0] for line in lines[:-1]] == [expected for _, expected in every]
    for line in lines[:-1]:
        if line.startswith("REFUSED"):
            assert re.search(r"\) refused: [a-z_]+, rule [A-Z0-9-]+ \[", line), line  # the code, rule and source
    assert status == (0 if all(expected == phh.ACCEPTED for _, expected in every) else 1)


def _altered(text: str, change: str) -> str | None:
    """A PokerKit-written hand with its cards made impossible by ``change``: a card dealt to two
    players, twice to one, on the board and in a hand, or a hole card short; None where the hand
    gives no room for it (no board, no known card)."""
    document = tomllib.loads(text)
    actions: list[str] = list(document["actions"])
    deals = [i for i, a in enumerate(actions) if a.startswith("d dh ") and "?" not in a.split()[3]]
    boards = [i for i, a in enumerate(actions) if a.startswith("d db ")]
    if len(deals) < 2:
        return None
    first, second = (
        deals[0],
        next((i for i in deals[1:] if actions[i].split()[2] != actions[deals[0]].split()[2]), None),
    )
    held = cards.split_cards(actions[first].split()[3])
    if change == "two_players" and second is not None:
        words = actions[second].split()
        theirs = cards.split_cards(words[3])
        actions[second] = f"d dh {words[2]} {held[0]}{''.join(theirs[1:])}"
    elif change == "one_player_twice" and len(held) > 1:
        words = actions[first].split()
        actions[first] = f"d dh {words[2]} {held[0]}{held[0]}{''.join(held[2:])}"
    elif change == "board_and_hand" and boards:
        board = cards.split_cards(actions[boards[0]].split()[2])
        actions[boards[0]] = f"d db {held[0]}{''.join(board[1:])}"
    elif change == "hole_card_short" and len(held) > 1:
        words = actions[first].split()
        actions[first] = f"d dh {words[2]} {''.join(held[1:])}"
    else:
        return None
    written = "actions = [" + ", ".join(f"'{a}'" for a in actions) + "]"
    return re.sub(r"(?m)^actions = .*$", lambda _: written, text)


ALTERATIONS = ("two_players", "one_player_twice", "board_and_hand", "hole_card_short")


@pytest.mark.parametrize("code", list(cards.GAMES))
def test_hands_whose_cards_no_deck_could_deal_are_refused_with_the_card(code: str) -> None:
    """Issue 29, item 3: PokerKit-written hands of every variant, each altered four ways, are
    refused when read (invalid, saying which card or which player), never replayed or paid; the
    hands as written are read."""
    rng = random.Random(f"phh-deck-{code}")
    refused: Counter[str] = Counter()
    for _ in range(25):
        text = pokerkit_hand(code, rng)
        (hand,) = phh.loads(text)
        assert isinstance(hand, phh.Hand), hand
        for change in ALTERATIONS:
            altered = _altered(text, change)
            if altered is None:
                continue
            (bad,) = phh.loads(altered)
            assert isinstance(bad, phh.Bad), f"{change}\n{altered}"
            assert re.search(
                r"[2-9TJQKA][cdhs] is |holds \d+ hole cards|p\d shows \d+ cards|discards [2-9TJQKA][cdhs], which it does not hold",
                bad.reason,
            ), bad.reason
            refused[change] += 1
    assert refused["two_players"] >= 20 and refused["hole_card_short"] >= 20, refused
    assert refused["board_and_hand"] >= 20 or not any(cards.GAMES[code].board), refused


def test_a_short_deck_hand_dealt_a_deuce_is_refused() -> None:
    text = pokerkit_hand("NS", random.Random("short-deck-deuce"))
    document = tomllib.loads(text)
    first = next(a for a in document["actions"] if a.startswith("d dh "))
    words = first.split()
    deuce = f"d dh {words[2]} 2c{words[3][2:]}"
    (bad,) = phh.loads(text.replace(f"'{first}'", f"'{deuce}'"))
    assert isinstance(bad, phh.Bad) and bad.reason.startswith("2c, dealt to p1, is not a card of"), bad


def test_betspec_s_own_hands_are_checked_against_their_finishing_stacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 29: to_phh wrote no finishing_stacks, so that phh check of betspec's own files read
    "checked against the file in 0"; a paid hand writes them, and they check."""
    from betspec.cli import main

    texts = []
    for seed in range(6):
        engine, dealer = _host_hand("no_limit", seed)
        text = phh.to_phh(engine, cards=dealer)
        order = [(engine.button + 1 + i) % engine.seats for i in range(engine.seats)]
        assert f"finishing_stacks = [{', '.join(str(engine.stacks[seat]) for seat in order)}]" in text
        texts.append(text)
    path = tmp_path / "own.phhs"
    path.write_text(phh.to_phhs(texts), encoding="utf-8")
    assert main(["phh", "check", "--structure", "no_limit", str(path)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert "pots checked against the file in 6 (6 paid as it says), not in 0" in last, last
