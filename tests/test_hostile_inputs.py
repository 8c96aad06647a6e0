"""Issue 18: no input to a public function or command crashes, prints a traceback or ends in an
"internal error". Each hostile argument gets betspec's coded error, a short message, and changes
nothing: the hand's snapshot is the same after the refusal as before it."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest

from betspec.runtime import BetspecError, Engine, IllegalAction, InvalidTable, SnapshotError, Start, Table, engine_class
from betspec.runtime.errors import shown
from betspec.runtime.snapshot import MAX_LOG, restore

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BETSPEC = os.path.join(os.path.dirname(sys.executable), "betspec")


class BadRepr:
    """An object that cannot be printed, nor compared for its words."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    def __str__(self) -> str:
        raise RuntimeError("no str")


class NotAString:
    def __repr__(self) -> str:
        return 5  # type: ignore[return-value]


def nested(depth: int) -> list[Any]:
    """A list nested ``depth`` deep, built without recursion."""
    top: list[Any] = []
    inner = top
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return top


def hostile() -> list[tuple[str, object]]:
    values: list[tuple[str, object]] = [
        ("huge int", 10**5000),
        ("negative huge int", -(10**5000)),
        ("deep list", nested(5000)),
        ("bad repr", BadRepr()),
        ("repr not a string", NotAString()),
        ("set", {0, 1}),
        ("frozenset", frozenset({0})),
        ("float", 1.5),
        ("nan", float("nan")),
        ("bool", True),
        ("string", "flop"),
        ("huge string", "x" * 1_000_000),
        ("bytes", b"\xff"),
        ("object", object()),
        ("dict", {"act": BadRepr(), "to": 10**5000}),
    ]
    try:
        import numpy
    except ImportError:
        pass
    else:
        values.append(("numpy int", numpy.int64(0)))
    return values


HOSTILE = hostile()
IDS = [name for name, _ in HOSTILE]
VALUES = [value for _, value in HOSTILE]


def fresh() -> Engine:
    cls = engine_class("no_limit")
    return cls(Table([1000, 1000, 1000], 0, (5, 10)))


def over_uncontested() -> Engine:
    engine = fresh()
    engine.fold(0)
    engine.fold(1)
    assert engine.hand_over and engine.paid is False
    return engine


def over_contested() -> Engine:
    engine = fresh()
    engine.call(0)
    engine.call(1)
    engine.check(2)
    for street in ("flop", "turn", "river"):
        engine.deal(street)
        for seat in (1, 2, 0):
            engine.check(seat)
    assert engine.hand_over and sum(not f for f in engine.folded) == 3
    return engine


def refused(engine: Engine, call: Callable[[Engine], object], kind: type[BetspecError] = BetspecError) -> str:
    """``call`` is refused with betspec's error (of ``kind``, a known code, a short message) and
    the hand is exactly as it was: returns the code."""
    before = engine.snapshot()
    text = json.dumps(before)
    with pytest.raises(BetspecError) as info:
        call(engine)
    error = info.value
    assert isinstance(error, kind), type(error)
    assert error.code in {
        "out_of_turn",
        "no_action_pending",
        "illegal_action",
        "below_minimum",
        "above_maximum",
        "bad_amount",
        "bad_seat",
        "round_not_over",
        "invalid_table",
        "bad_snapshot",
        "not_reopened",
        "cap_reached",
        "bound_by_declaration",
    }, error.code
    assert len(str(error)) < 1000 and len(error.message) < 1000
    after = engine.snapshot()
    assert after == before and json.dumps(after) == text  # nothing changed, and it is still JSON
    assert restore(json.loads(json.dumps(after))).snapshot() == after
    return error.code


# ---- shown: total and bounded -----------------------------------------------------------


@pytest.mark.parametrize("value", [*VALUES, nested(200_000), "é" * 100, (1,), {}, set(), None], ids=shown)
def test_shown_never_raises_and_is_short(value: object) -> None:
    text = shown(value)
    assert isinstance(text, str) and 0 < len(text) <= 60


def test_shown_is_repr_for_plain_values() -> None:
    for value in (12, "flop", None, True, 1.5, [1, [2, 3]], (1,), {"act": "bet", "to": 10}, {1, 2}):
        assert shown(value) == repr(value)
    assert shown(10**5000) == f"<an integer of {(10**5000).bit_length()} bits>"
    assert shown(BadRepr()) == "<BadRepr>" and shown(NotAString()) == "<NotAString>"
    assert shown([BadRepr(), 1]) == "[<BadRepr>, 1]"


# ---- every action, with a hostile seat or amount ----------------------------------------

SEATED = ("fold", "check", "call", "all_in", "timeout", "bring_in")


@pytest.mark.parametrize("value", VALUES, ids=IDS)
def test_a_hostile_seat_is_refused_by_every_action(value: object) -> None:
    engine = fresh()
    expected = "out_of_turn" if type(value) is int else "bad_seat"
    for name in SEATED:
        assert refused(engine, lambda e, name=name: getattr(e, name)(value), IllegalAction) == expected
        assert refused(engine, lambda e, name=name: e.act(value, name), IllegalAction) == expected  # type: ignore[arg-type]
    for name in ("bet", "raise_to"):
        assert refused(engine, lambda e, name=name: getattr(e, name)(value, 20), IllegalAction) == expected
    assert refused(engine, lambda e: e.push(value, [20]), IllegalAction) == expected  # type: ignore[arg-type]
    assert refused(engine, lambda e: e.declare(value, "call"), IllegalAction) == expected  # type: ignore[arg-type]
    assert refused(engine, lambda e: e.declare_out_of_turn(value, "bet", 20), IllegalAction) in (  # type: ignore[arg-type]
        expected,
        "illegal_action",  # an int that is no seat at this table
    )


@pytest.mark.parametrize("value", VALUES, ids=IDS)
def test_a_hostile_amount_or_name_is_refused(value: object) -> None:
    engine = fresh()
    seat = engine.to_act
    assert seat == 0
    wrong_amount = {"bad_amount", "above_maximum", "below_minimum"}
    for name in ("bet", "raise_to"):
        assert refused(engine, lambda e, name=name: getattr(e, name)(seat, value), IllegalAction) in wrong_amount | {
            "illegal_action"  # a bet facing the big blind
        }
    assert refused(engine, lambda e: e.act(seat, "raise", value), IllegalAction) in wrong_amount  # type: ignore[arg-type]
    assert refused(engine, lambda e: e.act(seat, "call", value), IllegalAction) == "bad_amount"  # type: ignore[arg-type]
    assert refused(engine, lambda e: e.act(seat, value), IllegalAction) == "illegal_action"  # type: ignore[arg-type]
    assert refused(engine, lambda e: e.deal(value), IllegalAction) == "round_not_over"  # type: ignore[arg-type]
    assert refused(engine, lambda e: e.push(seat, value), IllegalAction) == "bad_amount"  # type: ignore[arg-type]
    assert refused(engine, lambda e: e.push(seat, [value]), IllegalAction) == "bad_amount"
    assert refused(engine, lambda e: e.push(seat, [20], value), IllegalAction) in {"illegal_action", "bad_amount"}
    assert refused(engine, lambda e: e.declare(seat, value), IllegalAction) in {"illegal_action", "bad_amount"}
    for say in ({"act": value, "to": 20}, {"act": "raise", "to": value}):
        assert refused(engine, lambda e, say=say: e.declare(seat, say), IllegalAction) in {
            "illegal_action",
            "bad_amount",
        }
        assert refused(engine, lambda e, say=say: e.push(seat, [20], say), IllegalAction) in {
            "illegal_action",
            "bad_amount",
        }
    assert refused(engine, lambda e: e.declare_out_of_turn(1, value), IllegalAction) == "illegal_action"  # type: ignore[arg-type]
    assert refused(engine, lambda e: e.declare_out_of_turn(1, "bet", value), IllegalAction) == "bad_amount"  # type: ignore[arg-type]
    assert refused(engine, lambda e: e.declare_out_of_turn(1, "raise", value), IllegalAction) == "bad_amount"  # type: ignore[arg-type]
    if value is not None:
        assert refused(engine, lambda e: e.declare_out_of_turn(1, "check", value), IllegalAction) == "bad_amount"  # type: ignore[arg-type]


def test_declared_amounts_are_at_most_the_chips_on_the_table() -> None:
    engine = fresh()
    total = engine.total_chips()
    assert refused(engine, lambda e: e.declare_out_of_turn(1, "bet", 10**5000), IllegalAction) == "bad_amount"
    assert refused(engine, lambda e: e.declare_out_of_turn(1, "bet", total + 1), IllegalAction) == "bad_amount"
    assert refused(engine, lambda e: e.declare(0, {"act": "raise", "to": 10**5000}), IllegalAction) == "bad_amount"
    assert refused(engine, lambda e: e.push(0, [20], {"act": "raise", "to": total + 1}), IllegalAction) == "bad_amount"
    engine.declare_out_of_turn(1, "bet", total)  # the most a declaration may say
    json.dumps(engine.snapshot())


def test_a_push_is_a_list_of_at_most_a_hundred_chips() -> None:
    engine = fresh()
    assert refused(engine, lambda e: e.push(0, [1] * 101), IllegalAction) == "bad_amount"
    assert refused(engine, lambda e: e.push(0, range(1, 3)), IllegalAction) == "bad_amount"  # type: ignore[arg-type]
    assert refused(engine, lambda e: e.push(0, []), IllegalAction) == "bad_amount"
    engine.push(0, [1] * 100)  # a raise to 100, in a hundred chips
    assert engine.committed[0] == 100


# ---- settle ------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [*VALUES, nested(200_000)], ids=[*IDS, "list 200,000 deep"])
def test_settle_refuses_a_hostile_ranking_even_for_an_uncontested_pot(value: object) -> None:
    for engine in (over_uncontested(), over_contested()):
        assert refused(engine, lambda e: e.settle(value), IllegalAction) in ("illegal_action", "bad_seat")  # type: ignore[arg-type]
        assert refused(engine, lambda e: e.settle([value]), IllegalAction) in ("illegal_action", "bad_seat")  # type: ignore[list-item]
        assert refused(engine, lambda e: e.settle([[value]]), IllegalAction) in ("illegal_action", "bad_seat")  # type: ignore[list-item]
        assert refused(engine, lambda e: e.settle(runs=value), IllegalAction) in ("illegal_action", "bad_seat")  # type: ignore[arg-type]
        assert refused(engine, lambda e: e.settle(runs=[value]), IllegalAction) in ("illegal_action", "bad_seat")  # type: ignore[list-item]
        if value is not None:
            assert refused(engine, lambda e: e.settle(odd_chip_seat=value), IllegalAction) == "bad_seat"  # type: ignore[arg-type]
            # The cards shown (for payments outside the pot): a mapping of seats to lists of cards.
            assert refused(engine, lambda e: e.settle(shown=value), IllegalAction) in ("illegal_action", "bad_seat")  # type: ignore[arg-type]
            assert refused(engine, lambda e: e.settle(shown={0: value}), IllegalAction) == "illegal_action"  # type: ignore[dict-item]
            assert refused(engine, lambda e: e.settle(shown={0: [value]}), IllegalAction) == "illegal_action"  # type: ignore[list-item]


def test_settle_checks_a_ranking_given_for_an_uncontested_pot_then_pays() -> None:
    engine = over_uncontested()
    for ranking in ([0], [2, 2], [[2, 2]], [2, 7], [[[2]]], [2, [0]], [2, 0, 1, 2]):
        assert refused(engine, lambda e, ranking=ranking: e.settle(ranking), IllegalAction) in (
            "illegal_action",
            "bad_seat",
        )
    engine.settle((2,))
    assert engine.paid and engine.history[-1] == (-2, "settle", {"ranking": [2], "runs": None, "odd_chip_seat": None})
    assert restore(json.loads(json.dumps(engine.snapshot()))).stacks == engine.stacks


def test_a_contested_settlement_is_logged_as_plain_json() -> None:
    engine = over_contested()
    engine.settle(runs=((2, (0, 1)), [[0, 1, 2]]), odd_chip_seat=1)
    logged = engine.history[-1]
    assert logged == (-2, "settle", {"ranking": None, "runs": [[2, [0, 1]], [[0, 1, 2]]], "odd_chip_seat": 1})
    again = restore(json.loads(json.dumps(engine.snapshot())))
    assert again.stacks == engine.stacks and again.paid


# ---- tables, starts, options -------------------------------------------------------------


@pytest.mark.parametrize("value", VALUES, ids=IDS)
def test_hostile_tables_starts_and_options_are_invalid_tables(value: object) -> None:
    cls = engine_class("no_limit")
    good = Table([1000, 1000], 0, (5, 10))
    builds: list[Callable[[], object]] = [
        lambda: cls(Table(value, 0, (5, 10))),  # type: ignore[arg-type]
        lambda: cls(Table([1000, value], 0, (5, 10))),  # type: ignore[list-item]
        lambda: cls(Table([1000, 1000], value, (5, 10))),  # type: ignore[arg-type]
        lambda: cls(Table([1000, 1000], 0, value)),  # type: ignore[arg-type]
        lambda: cls(Table([1000, 1000], 0, (5, 10), ante=value)),
        lambda: cls(Table([1000, 1000], 0, (5, 10), **{"x" * 10_000: value})),
        lambda: cls(good, start=Start(value, 10)),  # type: ignore[arg-type]
        lambda: cls(good, start=Start("flop", value)),  # type: ignore[arg-type]
        lambda: cls(good, start=Start("flop", 0, value)),  # type: ignore[arg-type]
        lambda: cls(good, start=value),  # type: ignore[arg-type]
        lambda: cls(value),  # type: ignore[arg-type]
        lambda: cls(good, **{"x" * 1_000_000: value}),
        lambda: cls(cls.example_table(value, 0)),  # type: ignore[arg-type]
        lambda: cls(Table.from_json(value)),
        lambda: cls(good, start=Start.from_json(value)),
    ]
    builds += [lambda name=name: cls(good, **{name: value}) for name in cls.OPTION_DEFAULTS]  # type: ignore[misc]
    for build in builds:
        try:
            build()
        except InvalidTable as error:
            assert error.code == "invalid_table" and len(error.message) < 1000
        else:
            # The few values a slot takes (a table input given as a word is refused; None is a default).
            assert value in (None, True, "flop") or isinstance(value, float), build


def test_a_table_always_prints() -> None:
    for value in VALUES:
        text = repr(Table([1, value], value, ante=value))  # type: ignore[list-item]
        assert text.startswith("Table(") and hash(Table([1, value], 0)) is not None  # type: ignore[list-item]


def test_engine_class_names_a_wrong_structure_briefly() -> None:
    for value in [*VALUES, "x" * 1_000_000, "no_limit" + "é"]:
        with pytest.raises(LookupError) as info:
            engine_class(value)  # type: ignore[arg-type]
        assert len(str(info.value)) < 200


# ---- snapshots ---------------------------------------------------------------------------


def played() -> Engine:
    engine = engine_class("seven_card_stud")(
        Table([500, 500, 500], 0, ante=1, bring_in=2, bets=(5, 10), bring_in_seat=1)
    )
    engine.bring_in(1)
    engine.call(2)
    engine.call(0)
    engine.deal("fourth", opener=2, open_pair=False)
    return engine


def bad_snapshot(data: object, key: bytes | None = None, cls: object = None) -> str:
    started = time.perf_counter()
    with pytest.raises(SnapshotError) as info:
        restore(data, engine_class=cls, key=key)  # type: ignore[arg-type]
    assert time.perf_counter() - started < 10
    assert info.value.code == "bad_snapshot" and len(str(info.value)) < 1000
    return info.value.message


def test_a_deal_step_takes_only_the_spec_deal_inputs() -> None:
    data = played().snapshot()
    restore(copy.deepcopy(data))
    for name in ("street", "self", "given", "opener_x"):
        edited = copy.deepcopy(data)
        edited["log"][3][2] = {name: 1}
        assert "log step 3: a deal gives no" in bad_snapshot(edited)


def test_a_snapshot_nested_deep_or_holding_no_json_is_refused_naming_where() -> None:
    data = played().snapshot(key=b"k")
    restore(copy.deepcopy(data), key=b"k")
    cases: list[tuple[Callable[[dict[str, Any]], object], str]] = [
        (lambda d: d["log"][0].__setitem__(2, nested(993)), "snapshot.log[0][2]"),
        (lambda d: d["table"].update(ante=nested(100_000)), "snapshot.table.ante"),
        (lambda d: d["options"].__setitem__(1, 2), "snapshot.options: a key that is not a string"),
        (lambda d: d["log"].append([0, "call", {1, 2}]), "not a JSON value: {1, 2}"),
        (lambda d: d["log"].append([0, "bet", 10**5000]), "is out of range"),
        (lambda d: d["log"].append([0, "bet", 2**64]), "is out of range"),
        (lambda d: d["observed"].update(pot=BadRepr()), "snapshot.observed.pot: not a JSON value: <BadRepr>"),
        (lambda d: d["table"].update(stacks=[0] * 500_000), "more than 400,000 values"),
        (lambda d: d["log"].append(["x" * 2_000_000, "call", None]), "characters of text"),
    ]
    for tamper, where in cases:
        edited = copy.deepcopy({k: v for k, v in data.items() if k != "log"})
        edited["log"] = copy.deepcopy(data["log"])
        tamper(edited)
        for key in (None, b"k"):
            assert where in bad_snapshot(edited, key=key)


def test_a_huge_log_is_refused_before_it_is_signed_over() -> None:
    data = played().snapshot(key=b"k")
    data["log"] = [[0, "call", None]] * 1_000_000
    started = time.perf_counter()
    assert f"a snapshot holds at most {MAX_LOG:,}" in bad_snapshot(data, key=b"k")
    assert time.perf_counter() - started < 1


def test_a_signature_that_is_not_hex_is_refused() -> None:
    data = played().snapshot(key=b"k")
    data["signature"] = "é" * 64
    assert "signature does not match" in bad_snapshot(data, key=b"k")


@pytest.mark.parametrize("value", VALUES, ids=IDS)
def test_restore_refuses_hostile_arguments(value: object) -> None:
    engine = played()
    data = engine.snapshot()
    bad_snapshot(value)
    bad_snapshot({**data, "log": value})
    bad_snapshot({**data, "table": value})
    bad_snapshot({**data, "start": value})
    bad_snapshot({**data, "options": value})
    bad_snapshot({**data, "observed": value})
    bad_snapshot({**data, "format": value})
    bad_snapshot({**data, "version": value})
    bad_snapshot({**data, "log": [*data["log"], value]})
    bad_snapshot({**data, "log": [*data["log"], [0, "call", value]]})
    bad_snapshot(
        {**data, "log": [*data["log"], [-2, "settle", {"ranking": value, "runs": None, "odd_chip_seat": None}]]}
    )
    bad_snapshot({**data, "log": [*data["log"], [1, "out_of_turn", {"act": "bet", "to": value}]]})
    bad_snapshot({**data, "log": [*data["log"], [2, "push", {"chips": value, "say": None}]]})
    bad_snapshot({**data, "log": [*data["log"], [2, "declare", value]]})
    bad_snapshot(engine.snapshot(key=b"k"), key=value)  # type: ignore[arg-type]
    bad_snapshot(data, cls=value)
    if not isinstance(value, bytes):  # (bytes are a key)
        with pytest.raises(SnapshotError):
            engine.snapshot(key=value)  # type: ignore[arg-type]
    assert engine.snapshot() == data


def test_restore_takes_a_kernel_class_as_its_python_engine() -> None:
    from betspec.runtime import fast_engine

    engine = fresh()
    engine.raise_to(0, 30)
    restored = restore(json.loads(json.dumps(engine.snapshot())), engine_class=fast_engine("no_limit"))
    assert isinstance(restored, engine_class("no_limit")) and restored.snapshot() == engine.snapshot()
    assert "not pot_limit" not in bad_snapshot(engine.snapshot(), cls=fast_engine("pot_limit"))


# ---- the commands ------------------------------------------------------------------------


def run(*args: str, stdin: bytes = b"", timeout: float = 300) -> tuple[int, str]:
    done = subprocess.run([BETSPEC, *args], input=stdin, capture_output=True, timeout=timeout, cwd=ROOT, check=False)
    out = (done.stdout + done.stderr).decode("utf-8", "replace")
    assert "Traceback" not in out and "internal error" not in out, out[-2000:]
    return done.returncode, out


DEEP = "[" * 5000


@pytest.mark.parametrize(
    "args, status",
    [
        (("play", "no_limit", "--input", f"ante={DEEP}"), 2),
        (("play", "no_limit", "--option", f"bet_unit={DEEP}"), 2),
        (("play", "no_limit", "--input", "ante=" + "9" * 5000), 2),
        (("play", "no_limit", "--input", "ante=[1,[2]]"), 2),
        (("play", "no_limit", "--stacks", "1," + "9" * 5000), 2),
        (("play", "x" * 100_000), 2),
        (("diff", "no_limit", "pot_limit", "--depth", "-1"), 2),
        (("diff", "no_limit", "--option", f"bet_unit={DEEP}"), 2),
        (("diff", "no_limit", "--option", "bet_unit=" + "1" * 5000), 2),
        (("diff", "no_limit", "--option", "bet_unit=-3"), 2),
        (("diff", "no_limit", "pot_limit", "--depth", "2", "--out", "/dev/null/cases"), 1),
        (("diff", "no_limit", "pot_limit", "--depth", "2", "--out", "README.md"), 1),
        (("conform", "/nonexistent.json"), 1),
        (("conform", "tests"), 1),
        (("validate", "/nonexistent.json"), 1),
        (("validate", "tests"), 1),
        (("simulate", "--structure", "x" * 100_000), 2),
        (("simulate", "--structure", "no_limit", "--hands", "0"), 2),
        (("coverage", "/nonexistent.json"), 1),
    ],
    ids=lambda value: str(value)[:40],
)
def test_hostile_command_lines_get_one_line_errors(args: tuple[str, ...], status: int) -> None:
    code, out = run(*args)
    assert code == status, out[-2000:]
    assert len(out) < 5000 or args[0] in ("diff", "coverage")  # (they print what they found first)


def test_play_reads_bad_bytes_and_a_huge_line_without_echoing_it() -> None:
    typed = b"\xff\xfe fold\n" + b"x" * 10_000_000 + b"\nfold\n"
    code, out = run("play", "no_limit", stdin=typed)
    assert code == 0 and len(out) < 5000, out[-2000:]
    assert "a line of 10,000,001 characters is not read" in out and "seat 0: folds" in out


def test_cases_files_that_are_not_json_text(tmp_path: Any) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{")
    hostile_case = tmp_path / "case.json"
    case = {
        "id": "hostile",
        "source": "test",
        "structure": "no_limit",
        "table": {"stacks": [100, 100], "button": 0, "blinds": [1, 2]},
        "steps": [{"seat": 0, "act": "raise", "to": 123456789}],
    }
    hostile_case.write_text(json.dumps(case).replace("123456789", "1" + "0" * 5000))
    for path in (deep, binary, hostile_case):
        code, out = run("conform", str(path))
        assert code == 1 and "0 passed, 1 failed" in out and len(out) < 2000, out


def test_a_deal_refused_for_one_of_its_inputs_changes_nothing() -> None:
    """Found by the TypeScript lockstep test: the deal inputs were kept one by one, so a deal
    refused for its second input had already changed the first (read by the next street's order)."""
    hand = engine_class("seven_card_stud")(Table([100, 100, 100], 0, ante=1, bring_in=2, bets=(5, 10), bring_in_seat=1))
    hand.bring_in(1)
    hand.call(2)
    hand.call(0)
    before = (hand.snapshot(), hand._dl_opener, hand._dl_open_pair)  # type: ignore[attr-defined]
    with pytest.raises(BetspecError):
        hand.deal("fourth", opener=2, open_pair=True, nonsense=1)
    assert (hand.snapshot(), hand._dl_opener, hand._dl_open_pair) == before  # type: ignore[attr-defined]
