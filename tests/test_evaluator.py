"""High hands are ranked by phevaluator (microseconds) where PokerKit's evaluators would take a
millisecond: on random deals of every shape betspec ranks that way, the two rank every pair of
hands alike (which is better, or a tie), so a showdown pays the same seats."""

from __future__ import annotations

import random

import pokerkit
import pytest

from betspec import cards, lookups, vocabulary

DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
#: (PokerKit's hand type, hole cards, board cards): hold'em to the flop, turn and river, seven-card
#: stud, Omaha on the river.
SHAPES = [
    ("StandardHighHand", 2, 3),
    ("StandardHighHand", 2, 4),
    ("StandardHighHand", 2, 5),
    ("StandardHighHand", 7, 0),
    ("OmahaHoldemHand", 4, 5),
]


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


@pytest.mark.parametrize(("name", "hole", "board"), SHAPES)
def test_phevaluator_ranks_every_pair_as_pokerkit_does(name: str, hole: int, board: int) -> None:
    rng = random.Random(f"{name}{hole}{board}")
    kind = getattr(pokerkit, name)
    ties = 0
    for _ in range(300):
        dealt = rng.sample(DECK, 2 * hole + board)
        first, second, shared = dealt[:hole], dealt[hole : 2 * hole], dealt[2 * hole :]
        fast = [cards._fast_strength(name, held, shared) for held in (first, second)]
        assert fast[0] is not None and fast[1] is not None
        slow = [kind.from_game("".join(held), "".join(shared)) for held in (first, second)]
        expected = 0 if slow[0] == slow[1] else (1 if slow[0] > slow[1] else -1)
        assert _sign(fast[0] - fast[1]) == expected, (first, second, shared)
        ties += expected == 0
    assert ties < 300  # the deals are not all alike


def test_hands_of_other_types_are_left_to_pokerkit() -> None:
    assert cards._fast_strength("ShortDeckHoldemHand", ["As", "Ks"], ["Qs", "Js", "Ts"]) is None
    assert cards._fast_strength("OmahaHoldemHand", ["As", "Ks", "2c", "3d"], ["Qs", "Js", "Ts"]) is None
    assert cards._fast_strength("RegularLowHand", ["As", "2s", "3c", "4d", "5h"], []) is None


def test_a_showdown_ranks_ties_together() -> None:
    game = cards.GAMES["NT"]
    ranked = cards.rankings(game, {0: ["2c", "3d"], 1: ["2h", "3s"], 2: ["Ah", "Kd"]}, ["Ts", "Js", "Qc", "9h", "8d"])
    ace_high_straight = cards._fast_strength("StandardHighHand", ["Ah", "Kd"], ["Ts", "Js", "Qc", "9h", "8d"])
    board_straight = cards._fast_strength("StandardHighHand", ["2c", "3d"], ["Ts", "Js", "Qc", "9h", "8d"])
    assert ace_high_straight is not None and board_straight is not None and ace_high_straight > board_straight
    assert ranked == [[[2], [0, 1]]]


SHORT_DECK = [card for card in DECK if card[0] in "6789TJQKA"]
#: PokerKit's hands ranked through their lookup's table (betspec.lookups): (type, deck, hole
#: cards, board cards); high hands of other sizes than phevaluator's too.
COMBINATIONS = [
    ("RegularLowHand", DECK, 7, 0),
    ("EightOrBetterLowHand", DECK, 7, 0),
    ("StandardLowHand", DECK, 5, 0),
    ("StandardLowHand", DECK, 7, 0),
    ("ShortDeckHoldemHand", SHORT_DECK, 2, 5),
    ("StandardHighHand", DECK, 8, 0),
    ("OmahaHoldemHand", DECK, 4, 5),
    ("OmahaEightOrBetterLowHand", DECK, 4, 5),
]


@pytest.mark.parametrize(
    ("name", "deck", "hole", "board"), COMBINATIONS, ids=[f"{c[0]}-{c[2]}-{c[3]}" for c in COMBINATIONS]
)
def test_a_hand_read_from_its_lookup_s_table_ranks_as_from_game(
    name: str, deck: list[str], hole: int, board: int
) -> None:
    rng = random.Random(f"{name}{hole}")
    kind = getattr(pokerkit, name)
    table = lookups.table(name)
    assert table is not None
    compared = none = 0
    low = "EightOrBetter" in name  # most cards make no such low
    for _ in range(1000 if low else 200):
        dealt = rng.sample(deck, 2 * hole + board)
        first, second, shared = dealt[:hole], dealt[hole : 2 * hole], dealt[2 * hole :]
        fast: list[int | None] = []
        slow: list[object] = []
        for held in (first, second):
            try:
                slow.append(kind.from_game("".join(held), "".join(shared)))
            except ValueError:
                with pytest.raises(ValueError):
                    cards._table_strength(table, held, shared)
                slow.append(None)
                fast.append(None)
                continue
            fast.append(cards._table_strength(table, held, shared))
        if None in slow:
            none += 1
            continue
        a, b = fast
        assert a is not None and b is not None
        expected = 0 if slow[0] == slow[1] else (1 if slow[0] > slow[1] else -1)  # type: ignore[operator]
        assert _sign(a - b) == expected, (first, second, shared)
        compared += 1
    assert compared > 20
    assert not low or none > 0  # some hands have no qualifying low


@pytest.mark.parametrize("name", sorted(k.evaluator for k in vocabulary.HANDS.values() if k.distinct_suits))
def test_a_hand_of_distinct_suits_read_from_its_table_ranks_as_from_game(name: str) -> None:
    rng = random.Random(name)
    kind = getattr(pokerkit, name)
    table = lookups.table(name)
    assert table is not None and table.shape == "distinct"
    sizes = set()
    for _ in range(500):
        # Half the deals from two suits: hands of one, two and three cards, not only badugis.
        deck = DECK if rng.random() < 0.5 else [card for card in DECK if card[1] in "cd"]
        dealt = rng.sample(deck, 8)
        first, second = dealt[:4], dealt[4:]
        fast = [cards._table_strength(table, held, []) for held in (first, second)]
        slow = [kind.from_game("".join(held)) for held in (first, second)]
        sizes.update(len(hand.cards) for hand in slow)
        assert fast[0] is not None and fast[1] is not None
        expected = 0 if slow[0] == slow[1] else (1 if slow[0] > slow[1] else -1)
        assert _sign(fast[0] - fast[1]) == expected, (first, second)
    assert {2, 3, 4} <= sizes
    with pytest.raises(ValueError):
        cards._table_strength(table, [], [])
    assert cards._table_strength(table, ["10h", "2c"], []) is None  # not two characters a card
