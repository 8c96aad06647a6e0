"""Table procedures through the API: bad inputs get coded errors and change nothing."""

from __future__ import annotations

import pytest

from betspec.conformance.runner import snapshot
from betspec.runtime import IllegalAction, InvalidTable, Start, Table, engine_class


def a_flop() -> object:
    return engine_class("no_limit")(Table([300, 1000, 1000], 2, (5, 10)), start=Start("flop", 30))


@pytest.mark.parametrize(
    "call, code",
    [
        (lambda e: e.push(0, "500"), "bad_amount"),
        (lambda e: e.push(0, []), "bad_amount"),
        (lambda e: e.push(0, [100.5]), "bad_amount"),
        (lambda e: e.push(0, [True]), "bad_amount"),
        (lambda e: e.push(0, [200, 200]), "bad_amount"),
        (lambda e: e.declare(0, {"act": "raise", "to": 1.5}), "bad_amount"),
        (lambda e: e.declare(0, {"act": "raise", "to": -1}), "bad_amount"),
        (lambda e: e.declare(0, {"act": "shove", "to": 5}), "illegal_action"),
        (lambda e: e.declare(0, "allin"), "illegal_action"),
        (lambda e: e.declare(1, "call"), "out_of_turn"),
        (lambda e: e.declare_out_of_turn(0, "bet", 10), "illegal_action"),
        (lambda e: e.declare_out_of_turn(5, "bet", 10), "illegal_action"),
        (lambda e: e.declare_out_of_turn(1, "fold"), "illegal_action"),
        (lambda e: e.declare_out_of_turn(1, "bet", None), "bad_amount"),
        (lambda e: e.timeout(1), "out_of_turn"),
    ],
)
def test_bad_procedure_inputs_are_refused_and_change_nothing(call, code: str) -> None:
    engine = a_flop()
    before = snapshot(engine)
    with pytest.raises(IllegalAction) as info:
        call(engine)
    assert info.value.code == code and info.value.rule in engine.RULES
    assert snapshot(engine) == before


def test_a_ruling_names_its_rule_and_source() -> None:
    engine = engine_class("pot_limit")(Table([1000, 1000, 1000], 0, (5, 10)), start=Start("flop", 100))
    ruling = engine.push(1, [500])
    assert (ruling.action, ruling.to, ruling.returned, ruling.rule) == ("bet", 100, 400, "SINGLE-CHIP")
    assert "pot-limit rule 7" in ruling.source and "pot-size bet" in ruling.text


def test_underraise_rule_is_an_option_checked_like_the_others() -> None:
    with pytest.raises(InvalidTable, match="underraise_rule must be one of complete, half"):
        engine_class("no_limit")(Table([100, 100], 0, (1, 2)), underraise_rule="tournament")
    with pytest.raises(InvalidTable, match="burn blind needs three seats"):
        engine_class("no_limit")(Table([100, 100], 0, (1, 2), burn_blind=True))
