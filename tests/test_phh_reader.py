"""The TOML reader under PHH: toml-rs (the ``fast`` extra, compiled) where it is installed,
tomllib otherwise, and the same hands, amounts and refusals either way.

PHH amounts may be TOML floats; betspec reads each as the Decimal written (``196.20`` has two
places and sets the file's scale), so the fast reader is used only through the same
``parse_float``, and whatever it refuses is read again by tomllib.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from betspec import phh
from betspec.cli import main

SAMPLES = Path(__file__).resolve().parent / "phh"
FAST = phh.document._fast_toml


@pytest.fixture(params=["fast", "tomllib"])
def reader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each test twice: with the fast reader, and with tomllib forced (the fallback)."""
    if request.param == "tomllib":
        monkeypatch.setattr(phh.document, "_fast_toml", None)
    yield request.param


def _read_with(fast: Any, text: str) -> list[phh.Hand | phh.Bad] | str:
    """The hands of ``text`` with ``fast`` as the fast reader (None: tomllib), or the refusal."""
    saved = phh.document._fast_toml
    phh.document._fast_toml = fast
    try:
        return phh.loads(text, "t.phh")
    except phh.PhhError as exc:
        return str(exc)
    finally:
        phh.document._fast_toml = saved


def test_the_test_extra_installs_the_fast_reader() -> None:
    # The `test` extra has toml-rs, so the tests exercise it; phh found it at import.
    assert FAST is not None and FAST is importlib.import_module("toml_rs")


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.phh*")), ids=lambda p: p.name)
def test_both_readers_read_the_same_hands(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    fast, slow = _read_with(FAST, text), _read_with(None, text)
    assert isinstance(fast, list) and fast == slow
    assert any(isinstance(hand, phh.Hand) for hand in fast)


HAND = """\
variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [{sb}, {bb}]
min_bet = {bb}
starting_stacks = [{stack}, 200]
actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 cbr {raise_to}', 'p1 f']
"""

AMOUNTS = [
    # (small blind, big blind, first stack, raise), each as TOML writes it
    ("0.50", "1.00", "100.20", "3.0"),  # trailing zeros: two places, the scale 100
    ("0.5", "1", "100.2", "3"),  # one place: the scale 10
    ("5e-1", "1E0", "1_00.25", "3.000"),  # exponents and underscores
    ("1", "2", "inf", "6"),  # an unknown stack
    ("1", "2", "nan", "6"),  # refused: not a number
    ("1", "2", "-inf", "6"),  # refused
    ("1", "2", "1.0000001", "6"),  # refused: more places than a currency
    ("1", "2", "1e20", "6"),  # refused: more chips than a table holds
    ("1", "2", "123456789012345678901234567890", "6"),  # an integer beyond 64 bits: refused the same
    ("+1.0", "2.00", "-0.0", "6"),  # a signed zero stack: refused as 0
]


@pytest.mark.parametrize(("sb", "bb", "stack", "raise_to"), AMOUNTS)
def test_amounts_are_read_exactly_by_both(sb: str, bb: str, stack: str, raise_to: str) -> None:
    text = HAND.format(sb=sb, bb=bb, stack=stack, raise_to=raise_to)
    fast, slow = _read_with(FAST, text), _read_with(None, text)
    assert fast == slow
    if stack == "100.20":
        hand = fast[0]
        assert isinstance(hand, phh.Hand) and hand.scale == 100 and hand.starting_stacks[0] == 10020


@pytest.mark.parametrize(
    "text",
    [
        "[1\nvariant = 'NT'\n",  # not TOML
        "a = 1\na = 2\n",  # a key twice
        "a = {b = 1,}\n",  # TOML 1.1 allows a trailing comma in an inline table; 1.0 (tomllib) does not
        'a = "\\e"\n',  # TOML 1.1's escape: refused as tomllib refuses it
        "a = 1979-05-27 07:32\n",  # TOML 1.1's time without seconds
        "a = " + "[" * 3000 + "]" * 3000 + "\n",  # nested too deeply for tomllib (toml-rs reads it)
        "a = " + "[" * 100_000 + "]" * 100_000 + "\n",  # toml-rs would crash the process: tomllib reads it
        "a = [" + "{b = " * 50_000 + "1" + "}" * 50_000 + "]\n",
        "a = 1" + "0" * 5000 + "\n",  # more digits than Python reads
        "",  # no hand
    ],
)
def test_a_refusal_is_tomllib_s(text: str) -> None:
    # Nesting deeper than phh.FAST_DEPTH never reaches toml-rs, whatever the brackets' places.
    fast, slow = _read_with(FAST, text), _read_with(None, text)
    assert isinstance(slow, str) and fast == slow


class _Panic(BaseException):
    """As PyO3 raises when the Rust code panics: not an Exception."""


class _Panicking:
    TOMLDecodeError = ValueError

    @staticmethod
    def loads(text: str, **options: object) -> dict[str, Any]:
        raise _Panic("the reader panicked")


def test_deep_nesting_goes_to_tomllib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(phh.document, "_fast_toml", _Panicking())  # asked to read it, it would fail the test
    assert phh.document._shallow("a = [[1], {b = [2]}]\n# a comment [ ] { }\n[1]\nx = 1\n")
    nested = "a = " + "[" * (phh.FAST_DEPTH + 1) + "]" * (phh.FAST_DEPTH + 1)
    assert not phh.document._shallow(nested) and not phh.document._shallow("# [\n")
    called: list[str] = []
    monkeypatch.setattr(_Panicking, "loads", staticmethod(lambda text, **options: called.append(text)))
    assert _read_with(phh.document._fast_toml, nested) == _read_with(None, nested) and called == []


def test_a_panic_of_the_fast_reader_falls_back_to_tomllib() -> None:
    text = (SAMPLES / "arieh-yockey-2019.phh").read_text(encoding="utf-8")
    assert _read_with(_Panicking(), text) == _read_with(None, text)


def test_check_reads_only_what_it_checks(
    reader: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The sample's showdowns record no winnings: phh check compares nothing there, so it ranks
    # none of them (PokerKit is not even asked); the hands that record winnings are checked.
    def no_ranking(*args: object, **kwargs: object) -> None:
        raise AssertionError("a showdown was ranked with nothing to compare it with")

    monkeypatch.setattr(phh.pots, "rankings", no_ranking)
    status = main(["phh", "check", str(SAMPLES / "handhq-abs-200nlh-sample.phhs"), "--structure", "no_limit"])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0 and len(lines) == 584
    assert (
        lines[-1].startswith("583 hands under no_limit: 583 accepted")
        and "checked against the file in 476" in lines[-1]
    )
    assert sum("showdown; pots not checked: the file records no winnings" in line for line in lines) > 50
    # check_pots itself still pays such a showdown when asked (the default), for callers that want it.
    monkeypatch.undo()
    if reader == "tomllib":
        monkeypatch.setattr(phh.document, "_fast_toml", None)
    hands = phh.read(str(SAMPLES / "handhq-abs-200nlh-sample.phhs"))
    from betspec.engines.no_limit import NoLimit

    ranked = [
        (result, pots)
        for result in (phh.replay(hand, NoLimit) for hand in hands)
        if (pots := phh.check_pots(result)).ranking
    ]
    assert len(ranked) > 20
    for result, pots in ranked:
        assert pots.status == phh.UNCHECKED and sum(pots.won) == sum(pot.amount for pot in result.engine.pots())  # type: ignore[union-attr]
        assert phh.check_pots(result, unrecorded=False) == phh.Pots(phh.UNCHECKED, phh.NOTHING_RECORDED)
