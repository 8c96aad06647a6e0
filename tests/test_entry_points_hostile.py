"""Every public entry point refuses wrong arguments with a betspec error (issue 29, item 5).

The audit's foreign exceptions, each now a coded refusal: replay_hands given deal inputs named
``street`` or ``self`` or not named by text, wrong hands or options, a deeply nested step;
play_drawn and simulate asked for more hands than a machine counts; house.use and house.load
given a path that is not text or holds a NUL; kernel.Logged given what is not logged hands, or
asked for a hand it does not hold; phh check of a large file under a memory limit (toml-rs
aborted the interpreter). And a property test throwing arbitrary values at each of them."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from betspec import house
from betspec.cli import main
from betspec.diagnostics import SpecError
from betspec.runtime import BetspecError, Policy, engine_class, play_drawn
from betspec.runtime.batch import MAX_HANDS, Refused, kernel, replay_hands
from betspec.tools.simulate import BOT

NO_LIMIT = engine_class("no_limit")
TABLE = NO_LIMIT.example_table([100, 100, 100])
TO_THE_FLOP: list[Any] = [(0, "call", None), (1, "call", None), (2, "check", None)]


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("given_inputs", [{"street": 1}, {"self": 1}, {1: 1}, {None: 1}, {("a",): 1}])
def test_a_deal_given_inputs_named_anything_is_refused_as_the_engine_refuses_it(given_inputs: dict[Any, Any]) -> None:
    (answer,) = replay_hands(NO_LIMIT, [(TABLE, [*TO_THE_FLOP, (-1, "flop", given_inputs)])])
    assert isinstance(answer, Refused) and answer.step == 3
    assert answer.error.code == "illegal_action"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("cls", "hands", "options"),
    [
        ("no_limit", [], None),
        (NO_LIMIT, 5, None),
        (NO_LIMIT, [5], None),
        (NO_LIMIT, [(TABLE,)], None),
        (NO_LIMIT, [(5, [])], None),
        (NO_LIMIT, [(TABLE, 5)], None),
        (NO_LIMIT, [], 5),
        (NO_LIMIT, [], {1: 2}),
        (NO_LIMIT, "hands", None),
    ],
)
def test_replay_hands_refuses_wrong_arguments_before_any_hand(cls: Any, hands: Any, options: Any) -> None:
    with pytest.raises(BetspecError):
        replay_hands(cls, hands, options)


def test_a_deeply_nested_step_is_refused_with_a_short_message() -> None:
    with pytest.raises(BetspecError) as refused:
        replay_hands(NO_LIMIT, [(TABLE, [nested(50_000)])])
    assert len(str(refused.value)) < 200


@pytest.mark.parametrize("hands", [10**30, MAX_HANDS + 1, -1, 2.0, "5", None])
def test_play_drawn_refuses_hands_no_machine_counts(hands: Any) -> None:
    with pytest.raises(BetspecError):
        play_drawn(NO_LIMIT, hands, BOT, 1)


@pytest.mark.parametrize("hands", [str(10**100), str(MAX_HANDS + 1), "0"])
def test_simulate_refuses_hands_no_machine_counts(hands: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--hands", hands]) == 2
    out = capsys.readouterr().out
    assert "--hands must be from 1 to 1,000,000,000,000,000" in out and "internal error" not in out


@pytest.mark.parametrize("path", [b"folder", "a\0b", 5, None, "", ["x"], "x" * 100_000, "/nonexistent/house"])
def test_a_house_path_that_is_not_a_folder_s_text_is_refused(path: Any) -> None:
    with pytest.raises(house.HouseError):
        house.use(path)


@pytest.mark.parametrize("path", [b"spec.json", "a\0b", 5, None, ""])
def test_a_spec_path_that_is_not_text_is_refused(path: Any) -> None:
    with pytest.raises(house.HouseError):
        house.load(path)


needs_kernel = pytest.mark.skipif(kernel(NO_LIMIT) is None, reason="the no_limit kernel is not compiled here")


@needs_kernel
@pytest.mark.parametrize("hands", [5, [5], [(TABLE,)], [(5, [])], [(TABLE, 5)], "x"])
def test_logged_refuses_what_is_not_logged_hands(hands: Any) -> None:
    from betspec.runtime import kernel as runtime  # type: ignore[attr-defined]

    module = kernel(NO_LIMIT)
    assert module is not None
    with pytest.raises(BetspecError):
        runtime.Logged(module.KERNEL, hands)
    with pytest.raises(BetspecError):
        runtime.Logged(NO_LIMIT, [])  # an engine class, not a kernel's


@needs_kernel
@pytest.mark.parametrize("index", [1, -1, 10**30, "0", None, 1.0])
def test_logged_refuses_a_hand_it_does_not_hold(index: Any) -> None:
    from betspec.runtime import kernel as runtime  # type: ignore[attr-defined]

    module = kernel(NO_LIMIT)
    assert module is not None
    packed = runtime.Logged(module.KERNEL, [(TABLE, TO_THE_FLOP)])
    with pytest.raises(BetspecError):
        packed.taken(index)


JUNK = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20) | st.binary(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=3),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(junk=JUNK, which=st.integers(0, 5))
def test_junk_given_to_any_entry_point_is_a_betspec_error(junk: Any, which: int) -> None:
    # A whole number of hands within the range is not junk but a batch to play (up to 10**15
    # hands: a run, not a refusal; the range itself is tested above).
    assume(not (which == 3 and type(junk) is int and 0 <= junk <= MAX_HANDS))
    calls = [
        lambda: replay_hands(NO_LIMIT, junk),
        lambda: replay_hands(NO_LIMIT, [(TABLE, junk)]),
        lambda: replay_hands(NO_LIMIT, [(TABLE, [*TO_THE_FLOP, (-1, "flop", junk)])]),
        lambda: play_drawn(NO_LIMIT, junk, BOT, 1),
        lambda: house.use(junk),
        lambda: house.load(junk),
    ]
    with contextlib.suppress(BetspecError, SpecError):  # anything else fails the test
        calls[which]()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the address space limit and /proc are Linux's")
def test_a_large_file_under_a_memory_limit_is_read_or_refused_never_aborted(tmp_path: Path) -> None:
    """The audit's case at a smaller size: a file the fast reader (toml-rs) would take more
    memory to read than the process may use is read by tomllib; one neither could read is
    refused with a message. The interpreter never aborts (toml-rs panicked where an allocation
    failed)."""
    pytest.importorskip("toml_rs")
    sample = (Path(__file__).parent / "phh" / "handhq-abs-200nlh-sample.phhs").read_text(encoding="utf-8")
    body = sample.split("\n\n", 1)[1]  # the hands, [1] to [583], without the header
    copies = [re.sub(r"(?m)^\[(\d+)\]$", rf"[{copy}_\1]", body) for copy in range(60)]
    path = tmp_path / "large.phhs"
    path.write_text("".join(copies), encoding="utf-8")
    size = path.stat().st_size
    assert size > 8_000_000
    code = (
        "import re, resource, sys\n"
        "from betspec.tools import phh\n"
        "read = phh.read  # the reader (imported when first read) loaded before the limit is set\n"
        "used = int(re.search(r'VmSize:\\s+(\\d+)', open('/proc/self/status').read()).group(1)) * 1024\n"
        "resource.setrlimit(resource.RLIMIT_AS, (used + int(sys.argv[2]) * int(sys.argv[3]), resource.RLIM_INFINITY))\n"
        "try:\n"
        "    print(len(read(sys.argv[1])))\n"
        "except phh.PhhError as error:\n"
        "    print('refused:', error)\n"
    )
    env = {**os.environ, "BETSPEC_PURE": "1"}
    # Room for tomllib (19 bytes a character measured) and not for toml-rs (34): read by tomllib.
    done = subprocess.run(
        [sys.executable, "-c", code, str(path), str(size), "28"], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == str(583 * 60)
    # Room for neither: refused, saying why.
    done = subprocess.run(
        [sys.executable, "-c", code, str(path), str(size), "8"], capture_output=True, text=True, env=env, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("refused:") and "more memory than this process may use" in done.stdout


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ({"room_share": 0}, "room_share is a whole number from 1 up, not 0"),
        ({"room_share": "4"}, "room_share is a whole number from 1 up, not '4'"),
        ({"room_share": True}, "room_share is a whole number from 1 up, not True"),
        ({"all_in": float("nan")}, "all_in is a chance from 0 to 1, not nan"),
        ({"all_in": 1.5}, "all_in is a chance from 0 to 1, not 1.5"),
        ({"all_in": "x"}, "all_in is a chance from 0 to 1, not 'x'"),
        ({"own_weight": -1}, "own_weight is a number from 0 up, not -1"),
        ({"fold_when_free": 1}, "fold_when_free is True or False, not 1"),
        ({"weights": {"bet": -1}}, "weight of 'bet' is a number from 0 up, not -1"),
        ({"weights": {"bet": float("inf")}}, "weight of 'bet' is a number from 0 up, not inf"),
        ({"weights": {"bet": "1"}}, "weight of 'bet' is a number from 0 up, not '1'"),
        ({"weights": {3: 1}}, "weights are keyed by action names, not 3"),
        ({"weights": [("call", 1)]}, "weights are a mapping of action to weight"),
    ],
)
def test_a_policy_refuses_what_no_bot_can_play_before_any_hand(given: dict[str, Any], said: str) -> None:
    # room_share 0 divided by zero in the middle of a batch, a text was compared with a draw.
    arguments = {"weights": {"call": 1, "bet": 1, "raise": 1}, **given}
    with pytest.raises(BetspecError, match=re.escape(said)):
        Policy(**arguments)


def test_a_policy_at_its_bounds_plays() -> None:
    policy = Policy({"call": 1, "bet": 1, "raise": 1, "fold": 0}, all_in=1, room_share=1, own_weight=0)
    assert play_drawn(engine_class("no_limit"), 20, policy, 1).hands == 20
