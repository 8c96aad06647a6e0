"""PHH input that is not what it should be, and pots checked against what the file says.

Whatever the bytes, `betspec.tools.phh` answers with hands, bad hands with their reason, or a PhhError
naming the file: never another exception, never a message that quotes a huge input whole. The
command prints one line per bad hand or file and exits with its documented code (1 a bad hand,
2 a bad file), never a traceback or "internal error".
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import warnings
from pathlib import Path
from typing import Any, cast

import pytest

from betspec.cli import main
from betspec.engines.fixed_limit import FixedLimit
from betspec.engines.no_limit import NoLimit
from betspec.runtime import BetspecError, Table, engine_class
from betspec.tools import phh
from betspec.tools.phh import reader

#: Longer than this, a message quotes too much of the input.
LONGEST = 400

THREE = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [200, 200, 200]
actions = ['d dh p1 ????', 'd dh p2 ????', 'd dh p3 ????', 'p3 cbr 6', 'p1 f', 'p2 f']
"""

FIXED = """\
variant = 'FT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [200, 200, 200]
actions = ['p3 f', 'p1 f']
"""


def _with(text: str, name: str, value: str) -> str:
    """The document with field ``name`` set to ``value`` (TOML), added if it is not there."""
    lines = [line for line in text.splitlines() if not line.startswith(f"{name} =")]
    return "\n".join([*lines, f"{name} = {value}"]) + "\n"


def _reasons(text: str) -> list[str]:
    """What reading gives, as reasons: the PhhError's message, or each bad hand's reason."""
    try:
        hands = phh.loads(text, "hostile.phh")
    except phh.PhhError as exc:
        assert isinstance(exc, BetspecError) and exc.code == "bad_phh"
        assert len(str(exc)) < LONGEST, str(exc)[:LONGEST]
        return [str(exc)]
    reasons = []
    for hand in hands:
        if isinstance(hand, phh.Bad):
            assert len(hand.reason) < LONGEST and len(hand.name) < LONGEST, hand.reason[:LONGEST]
            reasons.append(hand.reason)
            result = phh.replay(hand, NoLimit)
            assert result.status == phh.INVALID and len(result.line()) < LONGEST
    return reasons


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    status = main(["phh", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "internal error" not in out + err
    return status, out.splitlines()


# ---- numbers, nesting, bytes ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("9" * 5000, "an integer with more digits than Python reads"),
        (
            "1" + "0" * 5000 + ".5",
            "starting_stacks[0] is more chips than a table holds (100000000000000000000000000...;",
        ),
        ("1" + "0" * 5000, "an integer with more digits than Python reads"),
        ("1" + "0" * 4000, "starting_stacks[0] is more chips than a table holds"),
        ("1e9999999", "starting_stacks[0] is more chips than a table holds (1E+9999999;"),
        ("1e16", "starting_stacks[0] is more chips than a table holds"),
        ("1e-9999999", "starting_stacks[0] has more than 6 decimal places (1E-9999999)"),
        ("nan", "starting_stacks[0] is not a number (nan)"),
        ("-inf", "starting_stacks[0] cannot be -Infinity"),
        ("-1", "starting_stacks[0] cannot be negative (-1)"),
        ("0", "starting_stacks[0] is 0"),
        ("true", "starting_stacks[0] must be a number, not True"),
        ("1979-05-27", "starting_stacks[0] must be a number, not datetime.date(1979, 5, 27)"),
    ],
)
def test_numbers_no_table_holds_are_refused(value: str, reason: str) -> None:
    text = _with(THREE, "starting_stacks", f"[{value}, 200, 200]")
    (found,) = _reasons(text)
    assert found.startswith(reason) or reason in found, found


def test_a_stack_that_is_too_big_once_scaled_names_its_field() -> None:
    text = _with(THREE, "starting_stacks", "[999999999999999, 200, 200.5]")
    assert _reasons(text) == [
        "starting_stacks[0] is more chips in chips of 1/10 than a table holds (999999999999999; 1000000000000000 at most)"
    ]


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("p3 cbr 1e9999999", "action 4 'p3 cbr 1e9999999': a bet or raise"),
        ("p3 cbr " + "9" * 100_000, "action 4 'p3 cbr 99999"),
        ("p3 cbr nan", "action 4 'p3 cbr nan' is not a number (nan)"),
        ("p3 cbr sNaN", "action 4 'p3 cbr sNaN' is not a number (nan)"),
        ("p3 cbr inf", "action 4 'p3 cbr inf' cannot be"),
        ("p3 cbr -5", "action 4 'p3 cbr -5' cannot be negative"),
        ("p3 cbr 0", "a bet or raise is to a positive amount"),
        ("p3 cbr 0.0000001", "has more than 6 decimal places"),
        ("p3 cbr \x01", "the amount is not a number"),
        ("x" * 1_000_000, "action 4 'xxxxxxxxx"),
        ("p3 " + "f" * 1_000_000, "not a hold'em action"),
        ("p" + "9" * 1_000_000 + " f", "is not a player (p1 .. p3)"),
    ],
)
def test_bad_actions_are_refused_and_quoted_short(action: str, reason: str) -> None:
    text = THREE.replace("'p3 cbr 6'", repr(action).replace("\\x01", "\\u0001"))
    (found,) = _reasons(text.replace("'\\u0001'", '"\\u0001"'))
    assert reason in found or found.startswith(reason.split(":")[0]), found
    assert len(found) < 200


def test_deep_nesting_is_refused() -> None:
    deep = "[" * 500 + "]" * 500
    assert _reasons(_with(THREE, "antes", deep)) == ["hostile.phh: arrays or tables nested too deeply to read"]
    nested = "[" * 50 + "1" + "]" * 50  # read by TOML, refused as an amount, shown short
    (reason,) = _reasons(_with(THREE, "antes", f"[{nested}, 0, 0]"))
    assert reason == "antes[0] must be a number, not [[[...]]]"


@pytest.mark.parametrize(
    "text",
    [
        "variant = 'NT'\x00\n",
        "variant = '\x00'\n",
        "# \x00\n",
        'variant = "\\u0000"\n',
        "\ufeffvariant = 'NT'\n",
        "[1\n",
        "= 1\n",
        "",
        "x = 1\n",
        "[1]\n[1]\n",
        "'" * 3 + "a" * 1_000_000,
        "variant = 'NT'\n" + "#" * 5_000_000 + "\n",
    ],
)
def test_not_a_document_is_one_error(text: str) -> None:
    reasons = _reasons(text)
    assert len(reasons) == 1 and reasons[0], reasons


def test_only_a_str_is_read() -> None:
    with pytest.raises(phh.PhhError, match="PHH is text"):
        phh.loads(b"variant = 'NT'")  # type: ignore[arg-type]


# ---- every field, every wrong type ------------------------------------------------------------


WRONG = ["true", "'x'", "[]", "[[1]]", "{a = 1}", "1979-05-27T07:32:00", "nan", "-1", "1e9999999", "0.1234567"]
FIELDS = [
    (THREE, "variant"),
    (THREE, "antes"),
    (THREE, "blinds_or_straddles"),
    (THREE, "min_bet"),
    (THREE, "starting_stacks"),
    (THREE, "actions"),
    (THREE, "hand"),
    (THREE, "winnings"),
    (THREE, "finishing_stacks"),
    (FIXED, "small_bet"),
    (FIXED, "big_bet"),
]


@pytest.mark.parametrize(("document", "name"), FIELDS)
@pytest.mark.parametrize("value", WRONG)
def test_wrong_types_in_every_field(document: str, name: str, value: str) -> None:
    per_player = name in ("antes", "blinds_or_straddles", "starting_stacks", "winnings", "finishing_stacks")
    reasons = _reasons(_with(document, name, value))
    hands = [] if reasons else phh.loads(_with(document, name, value))
    if name == "hand" and value in ("'x'", "-1"):
        assert not reasons and isinstance(hands[0], phh.Hand)  # a hand's name or number
        return
    if name == "actions" and value == "[]":
        assert not reasons and isinstance(hands[0], phh.Hand) and hands[0].acts == ()  # a hand of no action
        return
    if name == "min_bet" and value == "-1":
        assert reasons == ["min_bet cannot be negative (-1)"]
        return
    assert len(reasons) == 1, (name, value, hands)
    assert name in reasons[0] or (name == "actions" and reasons[0].startswith("action 1 must be a string")), reasons
    if per_player:  # the same values inside the list are refused too
        inner = _reasons(_with(document, name, f"[{value}, 1, 1]"))
        assert len(inner) == 1 and name in inner[0], inner


def test_an_amount_list_of_the_wrong_length_is_refused() -> None:
    for name in ("antes", "winnings", "finishing_stacks"):
        assert _reasons(_with(THREE, name, "[1, 2]")) == [f"{name} must list one amount per player (3), not [1, 2]"]


def test_a_long_list_is_shown_short() -> None:
    (reason,) = _reasons(_with(THREE, "antes", "[" + ", ".join(["'x' "] * 100_000) + "]"))
    assert reason.startswith("antes must list one amount per player (3), not ['x', 'x'") and len(reason) < 120


def test_a_long_table_name_is_cut_in_the_hand_name() -> None:
    key = "k" * 100_000
    (bad,) = phh.loads(f"[{key}]\nvariant = 'XX'\n", "long.phhs")
    assert isinstance(bad, phh.Bad) and bad.key == key and len(bad.name) < 60
    assert bad.name.startswith("long.phhs[kkk") and bad.name.endswith("...]")


# ---- files ------------------------------------------------------------------------------------------


def test_dev_zero_and_other_files_that_are_not_regular_are_refused(tmp_path: Path) -> None:
    if os.path.exists("/dev/zero"):
        with pytest.raises(phh.PhhError, match=r"^/dev/zero: not a regular file \(a device\)"):
            phh.read("/dev/zero")
    with pytest.raises(phh.PhhError, match=r"not a regular file \(a directory\)"):
        phh.read(str(tmp_path))
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo.phh"
        os.mkfifo(fifo)
        with pytest.raises(phh.PhhError, match=r"not a regular file \(a pipe\)"):
            phh.read(str(fifo))  # refused before it is opened: opening a pipe waits for a writer


def test_a_file_bigger_than_the_limit_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert phh.MAX_FILE_BYTES == 64 * 1024 * 1024
    path = tmp_path / "big.phh"
    path.write_text(THREE, encoding="utf-8")
    monkeypatch.setattr(phh.reader, "MAX_FILE_BYTES", len(THREE) - 1)
    with pytest.raises(phh.PhhError, match=f"more than {len(THREE) - 1} bytes, the most betspec reads"):
        phh.read(str(path))
    monkeypatch.setattr(phh.reader, "MAX_FILE_BYTES", len(THREE))
    assert isinstance(phh.read(str(path))[0], phh.Hand)


def test_invalid_utf8_and_nul_bytes(tmp_path: Path) -> None:
    path = tmp_path / "latin.phh"
    path.write_bytes(THREE.encode() + b"# caf\xe9\n")
    with pytest.raises(phh.PhhError, match=r"not UTF-8 text \(line 7, byte \d+\)$"):
        phh.read(str(path))
    path.write_bytes(THREE.encode().replace(b"'NT'", b"'N\x00T'"))
    with pytest.raises(phh.PhhError, match=r"not TOML: .*line 1"):
        phh.read(str(path))


def test_the_command_on_dev_zero_ends_at_once_with_one_line() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    done = subprocess.run(
        [sys.executable, "-m", "betspec.cli", "phh", "check", "/dev/zero", "--structure", "no_limit"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done
    lines = done.stdout.splitlines()
    assert lines[0] == "betspec phh: /dev/zero: not a regular file (a device): betspec reads PHH from files"
    assert lines[-1].endswith("1 file(s) unreadable") and len(lines) == 2
    assert "Traceback" not in done.stdout + done.stderr and "internal error" not in done.stdout + done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "betspec.cli", "phh", "to-case", "/dev/zero", "--structure", "no_limit"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and done.stdout.splitlines() == [
        "betspec phh: /dev/zero: not a regular file (a device): betspec reads PHH from files"
    ]


def test_the_command_gives_one_line_per_bad_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hands = [
        _with(THREE, "starting_stacks", "[1e9999999, 200, 200]"),
        _with(THREE, "antes", "[nan, 0, 0]"),
        THREE.replace("'p3 cbr 6'", repr("p3 cbr " + "9" * 100_000)),
        _with(THREE, "hand", "[1]"),
        THREE,
    ]
    path = tmp_path / "mixed.phhs"
    path.write_text("".join(f"[{i}]\n{text}\n" for i, text in enumerate(hands, 1)), encoding="utf-8")
    status, lines = _run(capsys, "check", str(path), "--structure", "no_limit")
    assert status == 1
    assert [line.split(":")[0] for line in lines[:5]] == [
        f"INVALID {path}[1]",
        f"INVALID {path}[2]",
        f"INVALID {path}[3]",
        f"INVALID {path}[4]",
        f"ACCEPTED {path}[5]",
    ]
    assert all(len(line) < LONGEST for line in lines)
    assert lines[-1].startswith("5 hands under no_limit: 1 accepted, 0 refused, 0 mispaid, 0 irregular, 4 invalid;")
    deep = tmp_path / "deep.phh"
    deep.write_text("a = " + "[" * 500 + "]" * 500 + "\n", encoding="utf-8")
    huge = tmp_path / "huge.phh"
    huge.write_text(_with(THREE, "min_bet", "9" * 5000), encoding="utf-8")
    for path, reason in ((deep, "arrays or tables nested too deeply"), (huge, "an integer with more digits")):
        status, lines = _run(capsys, "check", str(path), "--structure", "no_limit")
        assert (
            status == 2 and len(lines) == 2 and lines[0] == f"betspec phh: {path}: {reason}" + lines[0].split(reason)[1]
        )


# ---- to_phh given odd input -------------------------------------------------------------------------


def test_to_phh_refuses_what_it_cannot_write() -> None:
    engine = NoLimit(Table([100, 100], 1, (1, 2)))
    odd: list[tuple[tuple[Any, ...], str]] = [
        (("an engine",), "to_phh writes the hand of an engine, not of 'an engine'"),
        ((None,), "to_phh writes the hand of an engine, not of None"),
        ((engine, "100"), "the scale is a power of ten from 1 to 10**6, not '100'"),
        ((engine, 10.0), "not 10.0"),
        ((engine, True), "not True"),
        ((engine, 10**7), "not 10000000"),
        ((engine, 10**400), "not <an integer of 1329 bits>"),
        (
            (engine, 1, ["NT"]),
            "a variant is a PHH code (NT, NS, PO, FT, FO/8, F7S, F7S/8, FR, N2L1D, F2L3D, FB), not ['NT']",
        ),
        ((engine, 1, "x" * 10_000), "variant 'xxxx"),
    ]
    for args, message in odd:
        with pytest.raises(phh.PhhError) as caught:
            phh.to_phh(*args)
        assert message in str(caught.value) and len(str(caught.value)) < 200
    with pytest.raises(
        phh.PhhError, match="variant FT is fixed-limit Texas hold'em: it needs a structure with fixed bets"
    ):
        phh.to_phh(engine, 1, "FT")
    with pytest.raises(phh.PhhError, match="no_limit deals preflop, flop, turn, river: variant N2L1D"):
        phh.to_phh(engine, 1, "N2L1D")
    stud = engine_class("seven_card_stud")  # stud is written (issue 22): antes, the bring-in
    assert "bring_in = 5" in phh.to_phh(stud(stud.example_table([100, 100, 100], 2)))


def test_to_phh_writes_any_button_from_the_seat_after_it() -> None:
    # Seat 1 has the button: PHH's players are seats 2, 0 and 1 (the button last).
    engine = NoLimit(Table([300, 200, 100], 1, (1, 2)))
    engine.raise_to(1, 6)  # the button, after the blinds on seats 2 and 0
    engine.fold(2)
    engine.call(0)
    text = phh.to_phh(engine)
    assert "blinds_or_straddles = [1, 2, 0]" in text and "starting_stacks = [100, 300, 200]" in text
    assert "'p3 cbr 6', 'p1 f', 'p2 cc'" in text
    (back,) = phh.loads(text)
    again = phh.replay(back, NoLimit)
    assert again.status == phh.ACCEPTED and again.engine is not None
    assert again.engine.stacks == (engine.stacks[2], engine.stacks[0], engine.stacks[1])


# ---- pots against the file --------------------------------------------------------------------------


def _pots(text: str, cls: type = NoLimit) -> phh.Pots:
    (hand,) = phh.loads(text, "pots.phh")
    assert isinstance(hand, phh.Hand), hand
    result = phh.replay(hand, cls)
    assert result.status == phh.ACCEPTED, result.line()
    return phh.check_pots(result)


def test_an_uncontested_pot_is_checked() -> None:
    # p3 raises to 6, the blinds fold: p3 wins 5 (the blinds and the 2 called) and has 4 back uncalled.
    paid = _pots(_with(THREE, "winnings", "[0, 0, 5]"))
    assert (paid.status, paid.won, paid.stacks, paid.rake) == (phh.PAID, (0, 0, 5), (199, 198, 203), 0)
    assert paid.detail == "pots paid uncontested as the file's winnings say"
    # A site that counts the uncalled bet in what the player collected: the same chips.
    assert _pots(_with(THREE, "winnings", "[0, 0, 9]")).status == phh.PAID
    assert _pots(_with(THREE, "finishing_stacks", "[199, 198, 203]")).status == phh.PAID
    raked = _pots(_with(THREE, "winnings", "[0, 0, 4.5]"))
    assert raked.status == phh.PAID and raked.rake == 5  # chips of 1/10: the file writes 4.5
    assert raked.detail == "pots paid uncontested as the file's winnings say, less a rake of 0.5"
    both = _pots(_with(_with(THREE, "winnings", "[0, 0, 4.5]"), "finishing_stacks", "[199, 198, 202.5]"))
    assert both.detail == "pots paid uncontested as the file's winnings and finishing_stacks say, less a rake of 0.5"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("winnings", "[5, 0, 0]", "p1 (seat 0) won 5 by the file, betspec paid 0; p3 (seat 2) won 0 by the file, "),
        ("winnings", "[0, 0, 11]", "p3 (seat 2) won 11 by the file, betspec paid 5 (and gave back 4 uncalled)"),
        ("winnings", "[0, 0, 0]", "p3 (seat 2) won 0 by the file, betspec paid 5 (and gave back 4 uncalled)"),
        ("winnings", "[0, 1, 2]", "p2 (seat 1) won 1 by the file, betspec paid 0"),
        ("finishing_stacks", "[203, 198, 199]", "p1 (seat 0) ends with 203 by the file, 199 by betspec"),
        ("finishing_stacks", "[199, 198, 204]", "p3 (seat 2) ends with 204 by the file, 203 by betspec"),
    ],
)
def test_a_file_that_pays_otherwise_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: str, message: str
) -> None:
    text = _with(THREE, field, value)
    paid = _pots(text)
    assert paid.status == phh.MISPAID and message in paid.detail, paid.detail
    assert paid.detail.startswith(f"pots paid otherwise than the file's {field}: ")
    path = tmp_path / "wrong.phh"
    path.write_text(text, encoding="utf-8")
    status, lines = _run(capsys, "check", str(path), "--structure", "no_limit")
    assert status == 1
    assert lines[0].startswith(f"MISPAID {path}: pots paid otherwise than the file's {field}: ") and message in lines[0]
    assert lines[-1].startswith("1 hand under no_limit: 0 accepted, 0 refused, 1 mispaid, 0 irregular, 0 invalid;")
    assert lines[-1].endswith("pots checked against the file in 1 (0 paid as it says), not in 0")


SHOWDOWN = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 50, 200]
actions = ['d dh p1 AsAd', 'd dh p2 KsKd', 'd dh p3 ????', 'p3 cbr 50', 'p1 cbr 100', 'p2 cc', 'p3 cc',
  'p1 sm AsAd', 'p2 sm KsKd', 'p3 sm {p3}', 'd db 2c7h9d', 'd db Jc', 'd db 3s']
"""


def test_a_showdown_is_ranked_with_pokerkit_and_checked() -> None:
    pytest.importorskip("pokerkit")
    # p1 (aces) all in for 100, p2 (kings) for 50, p3 calls 100 with queens: p1 wins both pots.
    text = SHOWDOWN.replace("{p3}", "QsQd")
    paid = _pots(_with(text, "finishing_stacks", "[250, 0, 100]"))
    assert paid.status == phh.PAID, paid.detail
    assert paid.ranking == ((0,), (1,), (2,)) and paid.won == (250, 0, 0)
    assert paid.detail == "pots paid at a showdown ranked p1 > p2 > p3 as the file's finishing_stacks say"
    # p3 makes a straight (8 T with the 9 J): the main pot and the side pot go to p3.
    straight = _pots(_with(SHOWDOWN.replace("{p3}", "8hTh"), "winnings", "[0, 0, 250]"))
    assert straight.status == phh.PAID and straight.ranking == ((2,), (0,), (1,))
    # The file says the aces won where the straight did: reported.
    wrong = _pots(_with(SHOWDOWN.replace("{p3}", "8hTh"), "winnings", "[250, 0, 0]"))
    assert wrong.status == phh.MISPAID
    assert "p1 (seat 0) won 250 by the file, betspec paid 0" in wrong.detail
    # A muck ranks below every hand shown; a split pot is split.
    mucked = _pots(_with(SHOWDOWN.replace("'p3 sm {p3}'", "'p3 sm'"), "winnings", "[250, 0, 0]"))
    assert mucked.status == phh.PAID and mucked.ranking == ((0,), (1,), (2,))
    split = SHOWDOWN.replace("KsKd", "AhAc").replace("{p3}", "QsQd")
    tie = _pots(_with(split, "winnings", "[175, 75, 0]"))  # the main pot split, the side pot p1's
    assert tie.status == phh.PAID and tie.ranking == ((0, 1), (2,)) and tie.won == (175, 75, 0)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (("'p3 sm {p3}'", "'p3 sm ????'"), "p3 shows down and the file does not show 2 known cards"),
        (("'d db 3s'", "'d db ??'"), "the file does not show the whole board"),
        (("'p3 sm {p3}'", "'p3 sm ZzZz'"), "p3 shows down and the file does not show 2 known cards"),
    ],
)
def test_a_showdown_the_file_does_not_show_is_not_checked(change: tuple[str, str], why: str) -> None:
    pytest.importorskip("pokerkit")
    text = _with(SHOWDOWN.replace(*change).replace("{p3}", "QsQd"), "winnings", "[0, 0, 0]")
    paid = _pots(text)
    assert paid.status == phh.UNCHECKED and paid.detail.startswith(f"showdown not checked: {why}")
    assert len(paid.detail) < 120


@pytest.mark.parametrize(
    ("change", "why"),
    [
        # Issue 29, item 3: a deck holds each card once. These hands were read and their showdown
        # left unchecked; they cannot have been dealt, and are refused with the card.
        (("'p3 sm {p3}'", "'p3 sm AsKh'"), "As is shown by p3 and held by p1: a deck holds each card once"),
        (("'p3 sm {p3}'", "'p3 sm " + "Qs" * 10_000 + "'"), "p3 shows 10000 cards and holds 2"),
        (("'d db Jc'", "'d db Kd'"), "Kd is dealt on the board and held by p2: a deck holds each card once"),
        (("'d dh p3 ????'", "'d dh p3 ??'"), "p3 holds 1 hole cards when the betting of street 1 starts"),
    ],
)
def test_a_hand_whose_cards_a_deck_cannot_deal_is_refused_with_the_card(change: tuple[str, str], why: str) -> None:
    (hand,) = phh.loads(SHOWDOWN.replace(*change).replace("{p3}", "QsQd"), "pots.phh")
    assert isinstance(hand, phh.Bad) and hand.reason.startswith(why), hand
    assert len(hand.reason) < 200


def test_without_pokerkit_the_showdown_is_not_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pokerkit", None)  # import pokerkit raises ImportError
    paid = _pots(_with(SHOWDOWN.replace("{p3}", "QsQd"), "winnings", "[250, 0, 0]"))
    assert paid.status == phh.UNCHECKED
    assert paid.detail.startswith("showdown not checked: PokerKit, which ranks the hands, is not installed")
    assert _pots(_with(THREE, "winnings", "[0, 0, 5]")).status == phh.PAID  # an uncontested pot needs none


def test_pots_are_not_checked_where_the_file_says_nothing_or_stops_early() -> None:
    assert _pots(THREE).detail == "pots not checked: the file records no winnings or finishing_stacks"
    early = _with(THREE.replace(", 'p1 f', 'p2 f'", ""), "winnings", "[0, 0, 5]")
    assert _pots(early).detail == "pots not checked: the history stops before the hand is over"


def test_fixed_limit_pots_are_checked() -> None:
    assert _pots(_with(FIXED, "winnings", "[0, 3, 0]"), FixedLimit).status == phh.PAID
    assert _pots(_with(FIXED, "winnings", "[3, 0, 0]"), FixedLimit).status == phh.MISPAID


# ---- hands PokerKit plays and pays, betspec checks ---------------------------------------------------


def _pokerkit_hands(seed: int, count: int) -> list[str]:
    """Random no-limit hands played by betspec's engine, dealt real cards from a seeded deck and
    shown down, written as PHH with the finishing stacks PokerKit pays (PokerKit the oracle)."""
    pokerkit = pytest.importorskip("pokerkit")
    rng = random.Random(seed)
    deck = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
    texts = []
    while len(texts) < count:
        n = rng.randint(2, 6)
        stacks = [rng.choice((40, 75, 120, 300, 301)) for _ in range(n)]
        engine = NoLimit(Table(stacks, n - 1, (1, 2), ante=rng.choice((0, 0, 1))))
        over_at = None  # how much of the history was played when the betting ended
        while engine.next_street is not None or not engine.hand_over:
            if engine.hand_over and over_at is None:
                over_at = len(engine.history)
            if engine.to_act is None:
                engine.deal(cast(str, engine.next_street))
                continue
            act = rng.choice([a for a in engine.legal_actions() if a != "fold" or rng.random() < 0.3])
            if act in ("bet", "raise"):
                low, high = engine.min_to or 0, engine.max_to or 0
                engine.act(engine.to_act, act, rng.choice((low, high, (low + high) // 2)))
            else:
                engine.act(engine.to_act, act)
        over_at = len(engine.history) if over_at is None else over_at
        cards = rng.sample(deck, 2 * n + 5)
        hole = ["".join(cards[2 * seat : 2 * seat + 2]) for seat in range(n)]
        board = iter([cards[2 * n : 2 * n + 3], cards[2 * n + 3 : 2 * n + 4], cards[2 * n + 4 :]])
        text = phh.to_phh(engine)  # the button is the last seat: seat s is player s + 1
        (written,) = phh.loads(text)
        assert isinstance(written, phh.Hand)
        actions = [act.text for act in written.acts]  # the betting and the board, without the hole cards
        actions = [f"d db {''.join(next(board))}" if line.startswith("d db") else line for line in actions]
        contenders = [seat for seat in range(n) if not engine.folded[seat]]
        if len(contenders) > 1:  # PokerKit is shown the cards once the betting is over
            actions[over_at:over_at] = [f"p{seat + 1} sm {hole[seat]}" for seat in contenders]
        actions = [f"d dh p{seat + 1} {hole[seat]}" for seat in range(n)] + actions
        text = _with(text, "actions", json.dumps(actions))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            history = pokerkit.HandHistory.loads(text)
            final = None
            for state, _ in history.state_actions:
                final = state
        if final is None or final.status:  # PokerKit has not finished the hand: not an oracle for it
            continue
        texts.append(_with(text, "finishing_stacks", json.dumps([int(s) for s in final.stacks])))
    return texts


def test_betspec_pays_what_pokerkit_pays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    texts = _pokerkit_hands(seed=18, count=60)
    showdowns = side_pots = splits = 0
    for text in texts:
        (hand,) = phh.loads(text)
        result = phh.replay(hand, NoLimit)
        assert result.engine is not None
        paid = phh.check_pots(result)
        assert paid.status == phh.PAID and paid.rake == 0, (paid.detail, text)
        showdowns += bool(paid.ranking)
        side_pots += len(result.engine.pots()) > 1
        splits += any(len(group) > 1 for group in paid.ranking)
    assert (showdowns, side_pots, splits) >= (40, 20, 1), (showdowns, side_pots, splits)
    path = tmp_path / "pokerkit.phhs"
    path.write_text("\n".join(f"[{i}]\n{text}" for i, text in enumerate(texts, 1)), encoding="utf-8")
    status, lines = _run(capsys, "check", str(path), "--structure", "no_limit")
    assert status == 0 and lines[-1].endswith("pots checked against the file in 60 (60 paid as it says), not in 0")
    # The same hands with two players' finishing stacks swapped: each is reported.
    swapped = []
    for text in texts:
        (hand,) = phh.loads(text)
        assert isinstance(hand, phh.Hand) and hand.finishing_stacks is not None
        stacks = list(hand.finishing_stacks)
        if len(set(stacks)) > 1:
            i = stacks.index(max(stacks))
            j = stacks.index(min(stacks))
            stacks[i], stacks[j] = stacks[j], stacks[i]
            swapped.append(_with(text, "finishing_stacks", str(stacks)))
    assert all(_pots(text).status == phh.MISPAID for text in swapped)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_put_in_a_file_s_place_after_its_stat_is_refused_not_waited_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Between the stat and the open a file may be replaced: the open does not block on a pipe
    # with no writer, and the descriptor's own stat refuses it.
    regular = tmp_path / "hand.phh"
    regular.write_text("variant = 'NT'\n", encoding="utf-8")
    pipe = tmp_path / "swapped.phh"
    os.mkfifo(pipe)
    real_stat = os.stat
    monkeypatch.setattr(
        os, "stat", lambda path, *args, **kwargs: real_stat(regular if path == str(pipe) else path, *args, **kwargs)
    )
    refused: list[str] = []

    def read() -> None:
        try:
            reader.read_text(str(pipe))
        except phh.PhhError as exc:
            refused.append(str(exc))

    worker = threading.Thread(target=read, daemon=True)  # a read that blocks fails the test, not the run
    worker.start()
    worker.join(10)
    assert not worker.is_alive(), "the read waits on the pipe"
    assert len(refused) == 1 and "not a regular file (a pipe)" in refused[0]
