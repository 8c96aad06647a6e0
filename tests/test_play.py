"""`betspec play`: the real command driven through a pseudo-terminal, as a player types.

Each test forks the command onto a pty (`pty.fork`), reads until the prompt it expects (with a
deadline, never a fixed sleep), types a line and asserts on what the table printed. A few checks
of the command line's refusals run in-process through the injectable stream instead.
"""

from __future__ import annotations

import argparse
import fcntl
import io
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time

import pytest

from betspec.cli import parser
from betspec.play import parse, run
from betspec.runtime import engine_class

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
HUMAN = r"seat \d+> $"
WINNER = r"pot \d+ winner> $"


class Terminal:
    """`betspec play ARGS` on a pseudo-terminal: read until a pattern, type a line, wait for the end."""

    def __init__(self, *args: str) -> None:
        env = {**os.environ, "TERM": "dumb", "PYTHONUNBUFFERED": "1"}
        argv = [sys.executable, "-m", "betspec.cli", "play", *args]
        pid, fd = pty.fork()
        if pid == 0:  # the child: the command, with the pty as its terminal
            try:
                os.execve(sys.executable, argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        # Wide enough that readline never scrolls or wraps a typed line (it would redraw the prompt).
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 250, 0, 0))
        self.text = ""  # everything read, "\r\n" as "\n", escapes removed
        self.seen = 0  # where the next expect starts looking
        self.closed = False
        self.status: int | None = None

    def _read(self, deadline: float) -> bool:
        """Read what is there (waiting until the deadline); False once the command has closed the pty."""
        left = deadline - time.monotonic()
        if left <= 0:
            return True
        ready, _, _ = select.select([self.fd], [], [], left)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # EIO: the other side is closed
            chunk = b""
        if not chunk:
            self.closed = True
            return False
        self.text += ANSI.sub("", chunk.decode("utf-8", "replace").replace("\r\n", "\n"))
        return True

    def expect(self, *patterns: str, timeout: float = 10.0) -> tuple[int, str]:
        """Read until one of the patterns matches after what was read before; the pattern's index
        and the text up to the end of the match."""
        compiled = [re.compile(p, re.MULTILINE) for p in patterns]
        deadline = time.monotonic() + timeout
        while True:
            for index, pattern in enumerate(compiled):
                found = pattern.search(self.text, self.seen)
                if found:
                    chunk = self.text[self.seen : found.end()]
                    self.seen = found.end()
                    return index, chunk
            if self.closed or time.monotonic() >= deadline:
                raise AssertionError(f"expected {patterns}; the command printed:\n{self.text[self.seen :]}")
            self._read(deadline)

    def send(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\n")

    def send_raw(self, data: bytes) -> None:
        os.write(self.fd, data)

    def wait_until_blocked(self, timeout: float = 5.0) -> None:
        """Wait until the command sleeps (in its read of the terminal, once its prompt is out).

        A SIGINT that arrives after input() printed its prompt but before it blocks is only acted
        on at the next key (CPython checks signals when its select is interrupted); a person never
        types that fast, a loaded test machine can. Linux tells the process's state; elsewhere
        this returns at once.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with open(f"/proc/{self.pid}/stat") as stat:
                    state = stat.read().rsplit(")", 1)[1].split()[0]
            except OSError:
                return
            if state == "S":
                return
            time.sleep(0.002)

    def finish(self, timeout: float = 10.0) -> tuple[int, str]:
        """Read to the end; the exit status and what was printed since the last expect."""
        deadline = time.monotonic() + timeout
        while not self.closed and time.monotonic() < deadline:
            self._read(deadline)
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                break
            time.sleep(0.01)
        else:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            raise AssertionError(f"the command did not end; it printed:\n{self.text[self.seen :]}")
        os.close(self.fd)
        rest = self.text[self.seen :]
        self.seen = len(self.text)
        return self.status, rest

    def close(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            os.close(self.fd)


@pytest.fixture
def terminals():
    opened: list[Terminal] = []

    def start(*args: str) -> Terminal:
        terminal = Terminal(*args)
        opened.append(terminal)
        return terminal

    yield start
    for terminal in opened:
        terminal.close()


def test_a_hand_at_the_keyboard(terminals) -> None:
    rules = engine_class("no_limit").RULES
    table = terminals("no_limit", "--seats", "3")
    _, shown = table.expect(HUMAN)
    # The state before the first decision: street, pot, every seat, who acts, the bounds.
    assert "preflop: pot 15" in shown
    assert re.search(r"seat 0  stack 1000  in  0  button  to act", shown)
    assert re.search(r"seat 1  stack  995  in  5\n", shown)
    assert re.search(r"seat 2  stack  990  in 10\n", shown)
    assert "seat 0 to act: fold | call 10 | raise to 20..1000" in shown
    assert shown.endswith("seat 0> ")

    table.send("raise 15")  # under the minimum raise: refused, explained, asked again
    _, shown = table.expect(HUMAN)
    assert "refused [below_minimum]" in shown
    assert f"rule SIZE-MIN-RAISE: {rules['SIZE-MIN-RAISE'][0]}" in shown
    assert f"source: {rules['SIZE-MIN-RAISE'][1]}" in shown
    assert shown.endswith("seat 0> ")  # the same seat, again

    table.send("check")  # facing the big blind
    _, shown = table.expect(HUMAN)
    assert "refused [illegal_action]" in shown and "rule CHECK:" in shown and shown.endswith("seat 0> ")

    table.send("c")
    _, shown = table.expect(HUMAN)
    assert "seat 0: calls 10" in shown and "seat 1 to act: fold | call 5 | raise to 20..1000" in shown
    table.send("call")
    _, shown = table.expect(HUMAN)
    assert "seat 2 to act: fold | check | raise to 20..1000" in shown
    table.send("x")
    _, shown = table.expect(HUMAN)
    assert "betting round over: dealing the flop" in shown
    assert "flop: pot 30" in shown and "seat 1 to act: fold | check | bet to 10..990" in shown
    table.send("b 100")
    _, shown = table.expect(HUMAN)
    assert "seat 1: bets 100" in shown and "seat 2 to act: fold | call 100 | raise to 200..990" in shown
    table.send("raise to 150")
    _, shown = table.expect(HUMAN)
    assert "refused [below_minimum]" in shown and "SIZE-MIN-RAISE" in shown
    table.send("f")
    table.expect(HUMAN)
    table.send("fold")
    status, shown = table.finish()
    # The uncalled bet goes back: the pot is the preflop 30, seat 1's alone.
    assert "hand over (settled)" in shown
    assert "pot 30: seats 1" in shown
    assert "seat 1 wins 30 uncontested" in shown
    assert status == 0 and "Traceback" not in table.text


def test_nothing_typed_makes_a_traceback_and_end_of_input_leaves(terminals) -> None:
    table = terminals("no_limit", "--seats", "3")
    table.expect(HUMAN)
    for line, answer in [
        ("", ""),  # nothing typed: the prompt again
        ("hello there", r"'hello' is not an action"),
        ("raise", r"raise needs the amount"),
        ("raise ten", r"'ten' is not a number of chips"),
        ("bet 1 2", r"bet takes one amount"),
        ("call 10", r"call takes no amount"),
        ("raise -50", r"refused \[bad_amount\].*\n  rule CHIPS: "),
        ("raise 123456789012345678901234567890", r"refused \[above_maximum\].*\n  rule STACK: "),
        ("raise " + "9" * 150, r"150 digits: more chips than any table holds"),
        ("\u00e9t\u00e9 \u2603 ;;", r"is not an action"),
        ("help", r"bet N, b N"),
    ]:
        table.send(line)
        _, shown = table.expect(answer + r"(.|\n)*?" + HUMAN)
        assert shown.endswith("seat 0> ") and "Traceback" not in shown
    table.send_raw(b"\x04")  # Ctrl-D at the start of a line: end of input
    status, shown = table.finish()
    assert "end of input: leaving the table" in shown
    assert status == 0 and "Traceback" not in table.text


def test_quit_and_ctrl_c_leave_cleanly(terminals) -> None:
    table = terminals("no_limit", "--seats", "3")
    table.expect(HUMAN)
    table.send("quit")
    status, shown = table.finish()
    assert "leaving the table" in shown and status == 0

    table = terminals("no_limit", "--seats", "3")
    table.expect(HUMAN)
    table.wait_until_blocked()
    table.send_raw(b"\x03")  # Ctrl-C: the terminal sends SIGINT
    status, shown = table.finish()
    assert "interrupted: leaving the table" in shown
    assert status == 130 and "Traceback" not in table.text


def _answer(shown: str) -> str:
    """Seat 0's policy in the bot games: call when facing a bet, else check."""
    return "c" if re.search(r"to act: .*\| call \d+", shown.splitlines()[-2]) else "x"


def test_bots_play_every_seat_but_one(terminals) -> None:
    table = terminals("no_limit", "--seats", "3", "--bots", "all-but-0", "--seed", "11")
    decisions = 0
    while True:
        index, shown = table.expect(HUMAN, r"^hand over \(\w+\)$", timeout=10)
        if index == 1:
            break
        assert shown.endswith("seat 0> ")  # only seat 0 is ever asked
        table.send(_answer(shown))
        decisions += 1
    status, shown = table.finish()
    everything = table.text
    assert "bots at seats 1, 2 (seed 11" in everything
    assert re.search(r"seat [12] \(bot\): (folds|checks|calls \d+|bets \d+|raises to \d+)", everything)
    assert re.search(r"^  seat 1  stack +\d+  in +\d+  bot", everything, re.MULTILINE)
    assert re.search(r"^  (main |side )?pot \d+: seats \d+(, \d+)*$", shown, re.MULTILINE)
    assert status == 0 and "Traceback" not in everything
    assert decisions <= 30

    # The same seed, the same bots: the game replays exactly.
    again = terminals("no_limit", "--seats", "3", "--bots", "all-but-0", "--seed", "11")
    while True:
        index, shown = again.expect(HUMAN, r"^hand over \(\w+\)$", timeout=10)
        if index == 1:
            break
        again.send(_answer(shown))
    again.finish()
    assert again.text == everything


def test_three_hands_conserve_the_chips(terminals) -> None:
    table = terminals(
        "no_limit",
        *("--stacks", "300,200,100", "--bots", "all-but-0", "--seed", "5", "--hands", "3", "--blinds", "10,20"),
        *("--option", "button_rule=moving"),
    )
    while True:
        index, shown = table.expect(HUMAN, WINNER, r"^after 3 hands: .*$", r"^seat \d has every chip.*$")
        if index == 0:
            table.send("allin")  # seat 0 shoves every time, so chips move and seats go out
        elif index == 1:
            seats = re.findall(r"of seats ([\d, ]+)\.", shown)[-1]
            table.send(seats.split(",")[0])  # the first seat named wins the pot
        else:
            break
    status, _ = table.finish()
    text = table.text
    hands = re.findall(
        r"^=== hand (\d) of 3: button seat (\d); stacks ([^(]*) \(total (\d+)\) ===$", text, re.MULTILINE
    )
    assert [number for number, *_ in hands] == ["1", "2", "3"][: len(hands)] and len(hands) >= 2
    ends = re.findall(r"^after 3 hands: stacks ([^(]*) \(total (\d+)\)$", text, re.MULTILINE)
    totals = [sum(int(stack) for stack in re.findall(r"\d+: (\d+)", stacks)) for _, _, stacks, _ in hands]
    totals += [sum(int(stack) for stack in re.findall(r"\d+: (\d+)", stacks)) for stacks, _ in ends]
    assert totals == [600] * len(totals)
    # The stacks of hand 1 are the command line's; later ones differ (the chips moved).
    assert hands[0][2] == "0: 300, 1: 200, 2: 100"
    assert len({stacks for _, _, stacks, _ in hands}) > 1
    # With a moving button, the button moves one seat clockwise among the seats still in.
    in_chips = [
        [int(seat) for seat, stack in re.findall(r"(\d+): (\d+)", stacks) if int(stack) > 0]
        for _, _, stacks, _ in hands
    ]
    for (_, before, _, _), (_, after, _, _), alive in zip(hands, hands[1:], in_chips[1:], strict=False):
        following = [(int(before) + step) % 3 for step in range(1, 4)]
        assert int(after) == next(seat for seat in following if seat in alive)
    assert status == 0 and "Traceback" not in text


def test_fixed_limit_gets_its_bets_and_bots_play_alone(terminals) -> None:
    table = terminals("fixed_limit", "--seats", "4", "--bots", "all", "--seed", "3", "--hands", "2")
    status, shown = table.finish()
    assert "fixed_limit, 4 seats, blinds 5/10, bets 10/20" in shown
    assert shown.count("hand over (") == 2
    assert status == 0 and "Traceback" not in shown


# ---- in-process, through the injectable stream ---------------------------------------------


def _run(*argv: str, typed: str = "") -> tuple[int, str]:
    args = parser().parse_args(["play", *argv])
    assert isinstance(args, argparse.Namespace)
    out = io.StringIO()
    status = run(args, io.StringIO(typed), out)
    return status, out.getvalue()


def test_command_line_refusals() -> None:
    status, out = _run("betting_round")
    assert status == 2 and "no generated engine for structure 'betting_round'" in out and "no_limit" in out
    status, out = _run("no_limit", "--option", "max_raises=3")
    assert status == 2 and "no_limit has no option 'max_raises'" in out and "bet_unit" in out
    status, out = _run("no_limit", "--option", "bet_unit=0")
    assert status == 2 and "option bet_unit must be at least 1" in out
    status, out = _run("no_limit", "--option", "underraise_rule=sideways")
    assert status == 2 and "underraise_rule must be one of complete, half" in out
    status, out = _run("no_limit", "--seats", "3", "--stacks", "100,100")
    assert status == 2 and "--seats 3 but --stacks lists 2 seats" in out
    status, out = _run("no_limit", "--bots", "0,7", "--seats", "3")
    assert status == 2 and "--bots names seat 7" in out
    status, out = _run("no_limit", "--button", "5")
    assert status == 2 and "button 5 is not a seat" in out
    status, out = _run("no_limit", "--bets", "10,20")
    assert status == 2 and "no_limit has no table input bets: --bets does not apply" in out
    status, out = _run("no_limit", "--hands", "0")
    assert status == 2 and "--hands must be at least 1" in out


def test_options_reach_the_engine_and_a_script_can_be_piped() -> None:
    # bet_unit 5: a flop bet of 12 is refused by the engine, with the rule it cites.
    status, out = _run("no_limit", "--seats", "2", "--option", "bet_unit=5", typed="c\nx\nb 12\nb 15\nc\nquit\n")
    assert status == 0
    assert "seat 0 (bot)" not in out and "refused [" in out and "seat 1: bets 15" in out
    assert out.rstrip().endswith("leaving the table")


def test_the_winners_named_at_the_keyboard_take_the_pot() -> None:
    # Heads-up, checked down; seat 7 is not in the hand, seat 0 wins; hand 2 starts from the new stacks.
    typed = "c\nx\n" + "x\n" * 6 + "7\n0\nquit\n"
    status, out = _run("no_limit", "--hands", "2", typed=typed)
    assert status == 0
    assert "pot 1 (20 chips) goes to the best hand of seats 0, 1." in out
    assert "not a winner: give seat numbers among 0, 1" in out
    assert "pot 1 (20) to seat 0" in out
    assert "=== hand 2 of 2: button seat 1; stacks 0: 1010, 1: 990 (total 2000) ===" in out
    assert out.count("dealing the") == 3 and out.rstrip().endswith("leaving the table")


def test_a_split_pot_gives_the_odd_chip_clockwise_from_the_button() -> None:
    # The small blind folds, seats 0 and 2 check it down: 25 chips split, the odd one to seat 2,
    # the first of the two clockwise from the button (seat 0).
    typed = "c\nf\nx\n" + "x\n" * 6 + "quit\n"
    status, out = _run("no_limit", "--seats", "3", "--hands", "2", "--showdown", "split", typed=typed)
    assert status == 0
    assert "pot 1 (25) split: seat 2 13 and seat 0 12" in out
    assert "stacks 0: 1002, 1: 995, 2: 1003 (total 3000)" in out


@pytest.mark.parametrize(
    ("line", "action", "to"),
    [
        ("f", "fold", None),
        ("X", "check", None),
        ("c", "call", None),
        ("b 300", "bet", 300),
        ("r 1,000", "raise", 1000),
        ("raise to 600", "raise", 600),
        ("all in", "all_in", None),
        ("allin", "all_in", None),
        ("?", "help", None),
        ("q", "quit", None),
    ],
)
def test_what_is_typed(line: str, action: str, to: int | None) -> None:
    typed = parse(line)
    assert (typed.action, typed.to, typed.problem) == (action, to, "")


def test_any_table_input_the_spec_declares_is_given_with_input() -> None:
    status, out = _run(
        "no_limit", "--seats", "4", "--input", "straddles=1", "--input", "ante=2", "--bots", "all", "--seed", "1"
    )
    assert status == 0, out
    assert out.splitlines()[0] == "betspec play: no_limit, 4 seats, blinds 5/10, ante 2, straddles 1"
    status, out = _run("no_limit", "--input", "straddle=1")
    assert status == 2 and "no_limit has no table input 'straddle' (did you mean 'straddles'?" in out
    status, out = _run("no_limit", "--input", "straddles=5", "--seats", "3")
    assert status == 2 and "table input straddles must be at most 3" in out


def test_the_next_hand_follows_the_spec_s_rule_for_the_button() -> None:
    # Seat 1, the small blind, is all in for his blind and loses: he is out. Under the dead button
    # (the default) the big blind moves on one seat, to seat 3, and seat 0 keeps the button, as the
    # engine's next_table() has it; a moving button goes on to seat 2.
    typed = "f\nf\n2\nquit\n"
    after = "stacks 0: 1000, 1: 0, 2: 1005, 3: 1000 (total 3005) ==="
    status, out = _run("no_limit", "--stacks", "1000,5,1000,1000", "--hands", "2", typed=typed)
    assert status == 0, out
    assert "pot 1 (10) to seat 2" in out
    assert f"=== hand 2 of 2: button seat 0; {after}" in out
    second = out.split("=== hand 2 of 2")[1]
    assert re.search(r"seat 0  stack 1000  in  0  button  to act", second), second
    assert re.search(r"seat 2  stack 1000  in  5$", second, re.MULTILINE) and "seat 3  stack  990  in 10" in second
    status, out = _run(
        "no_limit", "--stacks", "1000,5,1000,1000", "--hands", "2", "--option", "button_rule=moving", typed=typed
    )
    assert status == 0, out
    assert f"=== hand 2 of 2: button seat 2; {after}" in out


def test_a_side_pot_goes_to_the_main_pot_s_winner_when_he_is_in_it() -> None:
    # Seat 0 is all in for 100 and called twice: the main pot (300) is asked about; seat 1 wins
    # it, and the side pot he is in is his too, without asking.
    typed = "allin\nallin\nc\n1\nquit\n"
    status, out = _run("no_limit", "--stacks", "100,500,500", "--hands", "2", typed=typed)
    assert status == 0, out
    assert out.count("winner> ") == 1
    assert "pot 1 (300) to seat 1" in out and "pot 2 (800) to seat 1" in out
    assert out.rstrip().endswith("seat 1 has every chip: the game is over")
