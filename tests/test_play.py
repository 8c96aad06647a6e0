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
from betspec.runtime import engine_class
from betspec.tools.play import bot_discards, parse, parse_draw, run

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
                # As a shell starts a command: Ctrl-C delivered and handled by default, whatever
                # the test process (threads, pools of earlier tests) left ignored or blocked.
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
                signal.signal(signal.SIGINT, signal.SIG_DFL)
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

    def interrupt(self) -> None:
        """Ctrl-C, as the terminal sends it (SIGINT). If the signal came in the instant between
        input() printing its prompt and blocking in its read, CPython holds it until the next key
        (wait_until_blocked narrows that window, a loaded machine can still hit it): after two
        seconds without an end, one key more wakes the read, as a person's next key would, and the
        held KeyboardInterrupt is raised. A Ctrl-C that was lost altogether still fails the test:
        the key alone would only bring the prompt back."""
        self.send_raw(b"\x03")
        deadline = time.monotonic() + 2.0
        while not self.closed and time.monotonic() < deadline:
            self._read(deadline)
        if not self.closed:
            self.send_raw(b"\n")

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
    table = terminals("no_limit", "--seats", "3", "--hands", "1", "--showdown", "ask")
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
        # Past the most a table holds (10**15): bad_amount, as every engine says it (issue 29).
        (
            "raise 123456789012345678901234567890",
            r"refused \[bad_amount\].*at most 1000000000000000 chips.*\n  rule CHIPS: ",
        ),
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
    table.interrupt()  # Ctrl-C: the terminal sends SIGINT
    status, shown = table.finish()
    assert "interrupted: leaving the table" in shown
    assert status == 130 and "Traceback" not in table.text


def _answer(shown: str) -> str:
    """Seat 0's policy in the bot games: call when facing a bet, else check."""
    return "c" if re.search(r"to act: .*\| call \d+", shown.splitlines()[-2]) else "x"


def test_bots_play_every_seat_but_one(terminals) -> None:
    table = terminals("no_limit", "--seats", "3", "--bots", "all-but-0", "--seed", "11", "--hands", "1")
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
    assert "bots at seats 1, 2\ncards and bots seeded 11 (--seed 11 replays them)" in everything
    assert re.search(r"seat [12] \(bot\): (folds|checks|calls \d+|bets \d+|raises to \d+)", everything)
    assert re.search(r"^  seat 1  stack +\d+  in +\d+  bot", everything, re.MULTILINE)
    assert re.search(r"^  (main |side )?pot \d+: seats \d+(, \d+)*$", shown, re.MULTILINE)
    assert status == 0 and "Traceback" not in everything
    assert decisions <= 30

    # The same seed, the same bots: the game replays exactly.
    again = terminals("no_limit", "--seats", "3", "--bots", "all-but-0", "--seed", "11", "--hands", "1")
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
        *("--option", "button_rule=moving", "--showdown", "ask"),
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
    status, out = _run("no_limit", "--hands", "2", "--showdown", "ask", typed=typed)
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
    status, out = _run("no_limit", "--stacks", "1000,5,1000,1000", "--hands", "2", "--showdown", "ask", typed=typed)
    assert status == 0, out
    assert "pot 1 (10) to seat 2" in out
    assert f"=== hand 2 of 2: button seat 0; {after}" in out
    second = out.split("=== hand 2 of 2")[1]
    assert re.search(r"seat 0  stack 1000  in  0  button  to act", second), second
    assert re.search(r"seat 2  stack 1000  in  5$", second, re.MULTILINE) and "seat 3  stack  990  in 10" in second
    status, out = _run(
        *("no_limit", "--stacks", "1000,5,1000,1000", "--hands", "2", "--option", "button_rule=moving"),
        *("--showdown", "ask"),
        typed=typed,
    )
    assert status == 0, out
    assert f"=== hand 2 of 2: button seat 2; {after}" in out


def test_a_side_pot_goes_to_the_main_pot_s_winner_when_he_is_in_it() -> None:
    # Seat 0 is all in for 100 and called twice: the main pot (300) is asked about; seat 1 wins
    # it, and the side pot he is in is his too, without asking.
    typed = "allin\nallin\nc\n1\nquit\n"
    status, out = _run("no_limit", "--stacks", "100,500,500", "--hands", "2", "--showdown", "ask", typed=typed)
    assert status == 0, out
    assert out.count("winner> ") == 1
    assert "pot 1 (300) to seat 1" in out and "pot 2 (800) to seat 1" in out
    assert out.rstrip().endswith("seat 1 has every chip: the game is over")


# ---- sessions with cards: scripted, several hands each -------------------------------------

CARD = r"[2-9TJQKA][cdhs]"
#: Seat 0's script: check when it can, else call (bring in when it owes the bring-in); at a draw,
#: discard the first two cards. A line the prompt does not take is refused and the next one read,
#: so the cycle plays any decision.
CHECK_CALL_DRAW = "x\nc\nbring in\ndiscard 1 2\n" * 400


def _hands(out: str) -> list[str]:
    """The session's hands, each from its header to the next."""
    return re.split(r"(?m)^(?==== hand )", out)[1:]


def _stacks(text: str) -> dict[int, int]:
    return {int(seat): int(stack) for seat, stack in re.findall(r"(\d+): (\d+)", text)}


def _check_session(out: str, hands: int, total: int) -> list[str]:
    """Chips conserved hand to hand, every pot of every hand paid: the pots listed at the end of
    a hand are what the winners take (uncontested, or pot by pot), and the next hand's stacks
    are this one's moved by exactly that. The hands' texts."""
    played = _hands(out)
    assert len(played) == hands, out
    ends = re.findall(r"(?m)^after \d+ hands: stacks (.*) \(total (\d+)\)$", out)
    # (stud has no button: its header names none)
    headers = [
        re.match(r"=== hand \d+ of \d+: (?:button seat \d+; )?stacks (.*) \(total (\d+)\) ===", h) for h in played
    ]
    stacks = [_stacks(match.group(1)) for match in headers if match] + [_stacks(ends[0][0])]
    assert len(stacks) == hands + 1 and all(sum(s.values()) == total for s in stacks), out
    for hand in played:
        pots = [int(a) for a in re.findall(r"(?m)^  (?:main pot|side pot|pot) (\d+): seats", hand)]
        alone = re.findall(r"(?m)^seat \d+ wins (\d+) uncontested$", hand)
        paid = [int(a) for a in re.findall(r"(?m)^pot \d+(?:, [a-z0-9 ]+)? \((\d+)\) (?:to seat \d+|split: .*)$", hand)]
        assert pots and (sum(pots) == sum(map(int, alone)) if alone else paid == pots), hand
        if not alone:
            assert re.search(r"(?m)^showdown: seat \d+ shows", hand), hand
    return played


def _ranked_best(shows: list[tuple[int, list[str]]], board: list[str], kind: str) -> set[int]:
    """The seats PokerKit itself ranks best (ties together)."""
    import pokerkit

    hand_type = getattr(pokerkit, kind)
    strengths = {seat: hand_type.from_game("".join(held), "".join(board)) for seat, held in shows}
    best = max(strengths.values())
    return {seat for seat, strength in strengths.items() if strength == best}


def _showdowns(hand: str) -> list[tuple[int, list[str]]]:
    return [
        (int(seat), cards.split())
        for seat, cards in re.findall(rf"(?m)^showdown: seat (\d+) shows ((?:{CARD} ?)+)", hand)
    ]


def test_a_hold_em_session_deals_shows_and_pays_every_pot() -> None:
    argv = ("no_limit", "--seats", "3", "--bots", "1,2", "--seed", "21", "--hands", "5")
    status, out = _run(*argv, typed=CHECK_CALL_DRAW)
    assert status == 0, out
    assert "cards and bots seeded 21 (--seed 21 replays them)" in out
    # Named as the spec names its game; NT, the PHH variant dealing the same cards.
    assert "dealt as Texas hold'em (NT), the showdown ranked by PokerKit" in out
    played = _check_session(out, 5, 3000)
    showdowns = 0
    for hand in played:
        # Seat 0, the human, sees its two cards before each decision; the bots' are never shown.
        mine = set(re.findall(rf"(?m)^  seat 0 cards ({CARD} {CARD})$", hand))
        assert len(mine) == (1 if "stacks 0: 0," not in hand.splitlines()[0] else 0), hand
        assert not re.search(r"(?m)^  seat [12] cards", hand)
        boards = re.findall(rf"dealing the (flop|turn|river): board ((?:{CARD} ?)+)$", hand, re.MULTILINE)
        assert [street for street, _ in boards] == ["flop", "turn", "river"][: len(boards)]
        assert [len(cards.split()) for _, cards in boards] == [3, 1, 1][: len(boards)]
        shows = _showdowns(hand)
        if shows:
            showdowns += 1
            board = [card for _, cards in boards for card in cards.split()]
            assert len(board) == 5 and all(len(held) == 2 for _, held in shows)
            dealt = [card for _, held in shows for card in held] + board
            assert len(set(dealt)) == len(dealt)  # one deck
            if mine and any(seat == 0 for seat, _ in shows):
                assert (0, mine.pop().split()) in shows  # the cards it was shown are the cards it shows down
            winners = {int(s) for s in re.findall(r"(?m)^pot 1 \(\d+\) to seat (\d+)$", hand)}
            winners |= {
                int(s)
                for s in re.findall(r"(?m)^pot 1 \(\d+\) split: (.*)$", hand)
                for s in re.findall(r"seat (\d+)", s)
            }
            assert winners == _ranked_best(shows, board, "StandardHighHand"), hand
            assert re.search(
                r"(?m)^showdown: seat \d+ shows .*: (High card|One pair|Two pair|Three of a kind|Straight|Flush|Full house|Four of a kind|Straight flush)",
                hand,
            )
    assert showdowns >= 2, out
    # The same seed deals the same cards and the bots play the same: the session replays exactly.
    assert _run(*argv, typed=CHECK_CALL_DRAW) == (status, out)
    other = _run("no_limit", "--seats", "3", "--bots", "1,2", "--seed", "22", "--hands", "5", typed=CHECK_CALL_DRAW)
    assert re.findall(r"seat 0 cards .*", other[1])[:1] != re.findall(r"seat 0 cards .*", out)[:1]


def _stud_order(card: str) -> tuple[int, int]:
    return "23456789TJQKA".index(card[0]), "cdhs".index(card[1])


def test_a_stud_session_shows_upcards_brings_in_by_the_cards_and_pays() -> None:
    status, out = _run(
        "seven_card_stud", "--seats", "4", "--bots", "1,2,3", "--seed", "5", "--hands", "4", typed=CHECK_CALL_DRAW
    )
    assert status == 0, out
    assert "bring in seat" not in out.splitlines()[0]  # the cards decide it, hand by hand
    assert "button" not in out  # stud is played without a button: the cards decide who acts
    played = _check_session(out, 4, 4000)
    showdowns = 0
    for hand in played:
        first = hand.split("\n\n")[1]  # the table before the first decision
        mine = re.search(rf"(?m)^  seat 0 cards ({CARD}) ({CARD}) / up ({CARD})$", first)
        assert mine, first
        ups = {0: mine.group(3)} | {
            int(s): c for s, c in re.findall(rf"(?m)^  seat (\d) shows \?\? \?\? ({CARD})$", first)
        }
        assert len(ups) == 4
        # The lowest upcard brings in (clubs lowest on a tie): that seat acts first.
        lowest = min(ups, key=lambda seat: _stud_order(ups[seat]))
        assert re.search(rf"(?m)^  seat {lowest} .* to act$", first), (ups, first)
        upcards = re.findall(rf"(?m)dealing the (fourth|fifth|sixth): ((?:seat \d {CARD}(?:, )?)+)$", hand)
        assert len(upcards) == sum(f"dealing the {street}" in hand for street in ("fourth", "fifth", "sixth"))
        if "dealing the seventh" in hand:
            assert "dealing the seventh: face down" in hand
        shows = _showdowns(hand)
        if shows:
            showdowns += 1
            assert all(len(held) == 7 for _, held in shows), hand
            winners = {int(s) for s in re.findall(r"(?m)^pot 1 \(\d+\) to seat (\d+)$", hand)}
            if winners:
                assert winners == _ranked_best(shows, [], "StandardHighHand"), hand
    assert showdowns >= 1, out


def test_a_triple_draw_session_draws_as_asked_and_pays() -> None:
    status, out = _run(
        "triple_draw", "--seats", "3", "--bots", "1,2", "--seed", "8", "--hands", "3", typed=CHECK_CALL_DRAW
    )
    assert status == 0, out
    assert "dealt as deuce-to-seven triple draw (F2L3D)" in out
    played = _check_session(out, 3, 3000)
    draws = 0
    for hand in played:
        assert re.search(rf"(?m)^  seat 0 cards (?:{CARD} ){{4}}{CARD}$", hand), hand
        # Asked to draw, seat 0 discards its first two cards and is dealt two new ones.
        for places, discarded, new, now in re.findall(
            rf"(?m)^seat 0 draws; your cards ((?:\d:{CARD}  ){{4}}\d:{CARD})\n.*\n(?:.*\n)*?seat 0 discards ({CARD} {CARD}), draws ({CARD} {CARD}): ((?:{CARD} ?){{5}})$",
            hand,
        ):
            held = [item.split(":")[1] for item in places.split()]
            assert discarded.split() == held[:2]
            assert now.split() == held[2:] + new.split()
            draws += 1
        assert re.search(r"(?m)^seat [12] \(bot\) (draws [1-5]|stands pat)$", hand) or "wins" in hand
        shows = _showdowns(hand)
        winners = {int(s) for s in re.findall(r"(?m)^pot 1 \(\d+\) to seat (\d+)$", hand)}
        if shows and winners:
            assert all(len(held) == 5 for _, held in shows)
            assert winners == _ranked_best(shows, [], "StandardLowHand"), hand
    assert draws >= 3, out


def test_without_pokerkit_no_cards_are_dealt_and_the_winners_are_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pokerkit", None)  # as if it were not installed
    typed = "c\nx\n" + "x\n" * 6 + "0\n" + "c\nx\n" + "x\n" * 6 + "1\n"
    status, out = _run("no_limit", "--hands", "2", typed=typed)
    assert status == 0, out
    assert out.count("cards need PokerKit, which ranks the showdown and which betspec installs with it") == 1
    assert "pip install 'pokerkit>=0.7.7,<0.8'" in out  # a hint that resolves from any checkout or index
    assert "cards " not in out.split("no cards are dealt", 1)[1].split("after 2 hands")[0].replace("no cards dealt", "")
    assert out.count("Who wins it?") == 2 and "showdown between seats 0, 1 (no cards dealt)" in out
    assert "after 2 hands: stacks 0: 1000, 1: 1000 (total 2000)" in out


@pytest.mark.parametrize(
    ("line", "discard", "problem"),
    [
        ("discard 2 5", ["Kd", "2s"], ""),
        ("d 9h", ["9h"], ""),
        ("stand", [], ""),
        ("discard", [], ""),
        ("discard 6", None, "'6' is none of your cards"),
        ("discard 1 Ah", None, "Ah is named twice"),
        ("fold", None, "'fold' is not a draw"),
        ("quit", None, "quit"),
    ],
)
def test_what_is_typed_at_a_draw(line: str, discard: list[str] | None, problem: str) -> None:
    got, why = parse_draw(line, ["Ah", "Kd", "7c", "9h", "2s"])
    assert got == discard and why.startswith(problem)


def test_bots_discard_simply() -> None:
    from betspec.cards import GAMES

    assert bot_discards(GAMES["F2L3D"], ["Ah", "Kd", "7c", "7h", "2s"]) == ["Ah", "Kd", "7h"]
    assert bot_discards(GAMES["FB"], ["Ah", "2h", "7c", "9d"]) == ["2h", "9d"]


def test_all_in_is_offered_only_where_the_engine_takes_it() -> None:
    """Issue 29: the prompt offered "(all in: N more)" at fixed limit with deep stacks and under a
    cap, where the engine refuses it; it shows only where all-in is a bet, raise or call taken."""
    status, out = _run("fixed_limit", "--seats", "2", "--stack", "1000", "--hands", "1", typed="q\n")
    assert status == 0 and "seat 0 to act:" in out and "(all in:" not in out, out
    status, out = _run("no_limit", "--seats", "2", "--stack", "1000", "--hands", "1", typed="q\n")
    assert status == 0 and "(all in: 995 more)" in out, out
    # Short of the fixed bet: all in is the only raise there is, and offered.
    status, out = _run("fixed_limit", "--seats", "2", "--stack", "13", "--hands", "1", typed="q\n")
    assert status == 0 and "(all in: " in out, out


def test_the_words_a_newcomer_reads() -> None:
    """Issue 29: a draw street is named as spoken and after the draw ("the first draw, every seat
    in drawn", not "dealing the first_draw"), an option mistyped gets its near name."""
    status, out = _run("triple_draw", "--seats", "2", "--bots", "all", "--seed", "3", "--hands", "1")
    assert status == 0 and "betting round over: the first draw, every seat in drawn" in out, out
    assert "first_draw" not in out, out
    status, out = _run("no_limit", "--option", "bet_unt=3")
    assert status == 2 and "no_limit has no option 'bet_unt' (did you mean 'bet_unit'?)" in out, out


def test_a_bomb_pot_is_bet_on_the_flop_it_shows() -> None:
    """A bomb pot begins on the flop (no betting before it): the flop is on the board before the
    first action, each later street adds its card, and the showdown ranks five board cards."""
    argv = ("no_limit", "--seats", "3", "--stack", "1000", "--blinds", "5,10", "--bots", "all")
    status, out = _run(*argv, "--hands", "1", "--seed", "3", "--input", "bomb_pot=50")
    assert status == 0, out
    lines = out.splitlines()
    begins = next(i for i, line in enumerate(lines) if line.startswith("the hand begins on the flop: board "))
    assert len(lines[begins].split("board ", 1)[1].split()) == 3
    first_action = next(i for i, line in enumerate(lines) if "(bot):" in line)
    assert begins < first_action
    shown = [line for line in lines if line.startswith("showdown: seat ")]
    assert shown and all(line.count("(") == 1 and len(line.rsplit("(", 1)[1].rstrip(")")) == 10 for line in shown)
    for dealt, count in (("dealing the turn: board ", 1), ("dealing the river: board ", 1)):
        assert any(dealt in line and len(line.split(dealt, 1)[1].split()) == count for line in lines), dealt
