"""`betspec play`: hands of any generated structure played at the keyboard, bots optional.

Everything that is a rule stays in the engine: this module only shows what the engine answers
(who acts, what is legal, the bounds), turns typed words into engine calls and prints the
engine's refusals with the rule they cite. It never decides legality itself, so a refusal a
player reads is always the spec's.

The cards are a :class:`betspec.cards.Dealer`'s, seeded (``--seed``): the game the structure
is dealt as (hold'em, Omaha, stud, razz, the draw games), the human seats shown their cards and
the board or the upcards each street, the draws asked of them (bots discard simply), the
showdown ranked by PokerKit's evaluators and every pot paid by the engine's ``settle``. Without
PokerKit (or with ``--showdown ask|split|random``) no cards are dealt: a human at the table
names the winners, bots alone draw them from the seeded generator. The engine pays the pots
(odd chips as its spec says) and makes the next hand's table as the spec's next-hand rule says
(the button moved or kept dead, a dead small blind, busted seats out): this module follows it,
hand after hand until the player quits (or ``--hands`` are played).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import itertools
import json
import os
import random
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO, cast

# Every `betspec` command imports this module to register `play`; the runtime and the bot are
# imported where they are first used, so `betspec validate` and the others start no slower.
if TYPE_CHECKING:
    from betspec.cards import Dealer, Game
    from betspec.runtime import Engine, IllegalAction, Table
    from betspec.runtime.engine import Settlement
    from betspec.session import Session as MixedSession
    from betspec.tools.agent_file import Agent

#: A typed amount longer than this is refused here: ``int()`` of thousands of digits is slow,
#: and no table holds that many chips; shorter ones go to the engine, which cites the rule.
MAX_DIGITS = 40
#: A typed line longer than this is not read (nor echoed in full): no action is that long.
MAX_LINE = 1000
#: Seats asked for beyond this are refused before a list of stacks that size is built; the
#: Table itself says how many seats a hand may have.
MAX_SEATS_ASKED = 1000
#: How many times a bot may choose again after a refusal before it folds (a refusal of a bot's
#: choice is a bug in the engine or the bot, shown to the user rather than hidden).
BOT_RETRIES = 5

HELP = """\
Actions (for the seat to act; amounts are what the seat's total on this street becomes):
  fold, f            check, x (or k)       call, c
  bet N, b N         raise N, r N          (also "raise to N")
  all in, allin      bring in (stud)       help, h, ?
  show, s (the table again)                quit, q (Ctrl-D or Ctrl-C also leave the table)
Draws (draw games, before each draw street): discard 2 5 (by place), discard 9h Kd (by card),
  stand (keep every card)."""
#: What the cards need: PokerKit ranks the showdown.
NO_CARDS = (
    "cards need PokerKit, which ranks the showdown and which betspec installs with it: it is missing here "
    "(pip install 'pokerkit>=0.7.7,<0.8' in this environment): no cards are dealt"
)


class Leave(Exception):
    """The user left the table (quit, end of input or Ctrl-C); ``status`` is the exit status."""

    def __init__(self, reason: str, status: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


# ---- the command line ---------------------------------------------------------------------


def _chips_list(text: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected whole numbers separated by commas, not {_shown(text)}") from None
    if any(value < 0 for value in values):
        raise argparse.ArgumentTypeError(f"chips cannot be negative: {_shown(text)}")
    return values


def _pair(text: str) -> tuple[int, int]:
    values = _chips_list(text)
    if len(values) != 2:
        raise argparse.ArgumentTypeError(f"expected two numbers, SMALL,BIG, not {_shown(text)}")
    return values[0], values[1]


def _bots(text: str) -> tuple[str, tuple[int, ...]]:
    """``1,2`` (those seats), ``all``, or ``all-but-0`` (every seat but those named)."""
    text = text.strip().lower()
    if text == "all":
        return "all-but", ()
    mode, rest = ("all-but", text[len("all-but-") :]) if text.startswith("all-but-") else ("only", text)
    try:
        seats = tuple(int(part) for part in rest.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected seat numbers (1,2), all, or all-but-SEATS (all-but-0), not {_shown(text)}"
        ) from None
    return mode, seats


def _agent(text: str) -> tuple[int, str]:
    seat, equals, path = text.partition("=")
    if not equals or not seat.strip().isdigit() or not path:
        raise argparse.ArgumentTypeError(f"expected SEAT=FILE (1=agent.py), not {text!r}")
    return int(seat), path


def _shown(text: str) -> str:
    """What was typed, quoted and cut short (a message never echoes a huge argument)."""
    from betspec.runtime.errors import shown

    return shown(text)


def _value(text: str, lists: bool) -> tuple[str, object]:
    """``NAME=VALUE``: VALUE read as JSON (a number, true, false, null; with ``lists``, a flat list
    of them too), else as a word."""
    name, equals, raw = text.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not {_shown(text)}")
    what = "a number, true, false, null" + (", a list of them" if lists else "") + " or a word"
    try:
        value: object = json.loads(raw)
    except ValueError:
        # A bare word is the natural way to write a choice (underraise_rule=half); a number too
        # long to read is one too, which the engine refuses.
        value = raw
    except RecursionError:  # a list nested thousands deep
        raise argparse.ArgumentTypeError(f"{_shown(name.strip())}: a value is {what}") from None
    if isinstance(value, dict) or (
        isinstance(value, list) and (not lists or any(isinstance(item, list | dict) for item in value))
    ):
        raise argparse.ArgumentTypeError(f"{_shown(name.strip())}: a value is {what}")
    return name.strip(), value


def _option(text: str) -> tuple[str, object]:
    """A spec option: NAME=VALUE, VALUE a JSON scalar or a word."""
    return _value(text, lists=False)


def _input(text: str) -> tuple[str, object]:
    """A table input: NAME=VALUE, VALUE a JSON scalar, a flat list of them (seat_antes=[0,1,1]) or a word."""
    return _value(text, lists=True)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``betspec play`` to the ``betspec`` command's sub-commands."""
    play = subparsers.add_parser(
        "play",
        help="play hands at the keyboard (bots optional)",
        description="Play hands of a generated structure in the terminal: the table is shown before each "
        "decision, refusals are explained with the rule they cite, streets are dealt when a round ends.",
        epilog=HELP,
    )
    play.add_argument(
        "structure",
        help="a spec with a generated engine (a wrong name lists them), a spec file (.json) played as written, "
        "or a session (a shipped one's name, or a session file): its games in rotation and its levels",
    )
    play.add_argument("--seats", type=int, help="number of seats (default: as many as --stacks, else 2)")
    play.add_argument("--stacks", type=_chips_list, metavar="A,B,...", help="every seat's chips, in seat order")
    play.add_argument("--stack", type=int, default=1000, help="every seat's chips when --stacks is not given")
    play.add_argument("--blinds", type=_pair, metavar="SMALL,BIG", help="the blinds (default: the spec's example)")
    play.add_argument(
        "--bets",
        type=_pair,
        metavar="SMALL,BIG",
        help="the fixed bets, for a spec whose table has them (default: the big blind and twice it)",
    )
    play.add_argument(
        "--input",
        type=_input,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="any other table input the spec declares (repeatable): ante=5, seat_antes=[0,1,1], missed_big_blinds=[3]",
    )
    play.add_argument("--button", type=int, default=0, help="the button's seat for the first hand (default 0)")
    play.add_argument(
        "--option",
        type=_option,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a spec option (repeatable); VALUE is read as JSON (10, true, null), else as a word",
    )
    play.add_argument("--bots", type=_bots, metavar="SEATS", help="seats played by bots: 1,2 or all-but-0 or all")
    play.add_argument(
        "--agent",
        type=_agent,
        action="append",
        default=[],
        metavar="SEAT=FILE",
        help="a seat played by a trained agent (repeatable): a Python file defining choose(observation) -> int, "
        "the policy of betspec's environment (docs/environments.md)",
    )
    play.add_argument(
        "--seed", type=int, help="seed of the cards, the bots and bot-only showdowns (default: drawn, printed)"
    )
    play.add_argument(
        "--hands",
        type=int,
        help="hands to play; stacks carry over (default: until you quit, or one seat has every chip; bots alone: 1)",
    )
    play.add_argument(
        "--showdown",
        choices=("cards", "ask", "split", "random"),
        help="who wins a contested pot: cards (default: dealt and ranked, PokerKit's evaluators), or with no cards "
        "dealt: ask (default with a human, without PokerKit), split, random (default for bots without PokerKit)",
    )
    play.set_defaults(run=command)


def command(args: argparse.Namespace, project: object) -> int:
    """The ``betspec play`` entry point, on the process's terminal."""
    # What cannot be decoded is read as U+FFFD (and is not an action); what cannot be printed is
    # escaped: bytes typed or piped in never end the session with a traceback.
    for stream, errors in ((sys.stdin, "replace"), (sys.stdout, "backslashreplace")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors=errors)
    try:
        return run(args, sys.stdin, sys.stdout)
    except BrokenPipeError:
        # The reader went away (`betspec play ... | head`): nothing left to tell anyone.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def table_for(cls: type[Engine], args: argparse.Namespace) -> Table:
    """The first hand's table: the one place that decides what a structure's Table is made of.

    The inputs given on the command line, the spec's examples for the others it needs. Later
    hands replace only the stacks and the button, so whatever this decides carries over.
    """
    from betspec.runtime import InvalidTable

    if args.stacks is not None:
        stacks = list(args.stacks)
        if args.seats is not None and args.seats != len(stacks):
            raise InvalidTable(f"--seats {args.seats} but --stacks lists {len(stacks)} seats")
    else:
        seats = 2 if args.seats is None else args.seats
        if not 0 <= seats <= MAX_SEATS_ASKED:
            raise InvalidTable(f"--seats {seats} is not a number of seats")
        stacks = [args.stack] * seats
    inputs: dict[str, object] = dict(args.input)
    for name, value in (("blinds", args.blinds), ("bets", args.bets)):
        if value is not None:
            if name not in cls.INPUTS:
                raise InvalidTable(f"{cls.SPEC_NAME} has no table input {name}: --{name} does not apply")
            inputs[name] = value
    if args.blinds is not None and args.bets is None and "bets" in cls.INPUTS:
        inputs["bets"] = (args.blinds[1], 2 * args.blinds[1])
    return cls.example_table(stacks, args.button, **inputs)


def options_for(cls: type[Engine], pairs: Sequence[tuple[str, object]]) -> dict[str, object]:
    """The spec options given on the command line; the engine checks their values."""
    from betspec.runtime import InvalidTable

    options: dict[str, object] = {}
    for name, value in pairs:
        if name not in cls.OPTION_DEFAULTS:
            known = ", ".join(sorted(cls.OPTION_DEFAULTS)) or "none"
            from betspec.diagnostics import did_you_mean

            hint = did_you_mean(name, cls.OPTION_DEFAULTS)
            raise InvalidTable(f"{cls.SPEC_NAME} has no option {_shown(name)}{hint} (its options: {known})")
        options[name] = value
    return options


def build(cls: type[Engine], table: Table, options: Mapping[str, Any]) -> Engine:
    """A hand on ``table`` with the spec's ``options`` (keywords the engine checks)."""
    return cls(table, **options)


def run(args: argparse.Namespace, stream: TextIO, out: TextIO) -> int:
    """Play as ``args`` say, reading what is typed from ``stream`` and writing to ``out``."""
    from betspec.runtime import InvalidTable, engine_class, engine_names

    def say(line: str = "") -> None:
        out.write(line + "\n")
        out.flush()

    from betspec import session as sessions

    found = sessions.find(args.structure)
    if found is not None and (args.structure.endswith(".json") or args.structure not in engine_names()):
        if args.agent:
            say("play: --agent seats a trained agent at a structure's table, not at a session's")
            return 2
        return _run_session(args, found, stream, out, say)
    if args.structure.endswith(".json") and os.path.isfile(args.structure):
        # A spec of the house's own, played as written: its engine made in memory, nothing written.
        from betspec.house import SpecError, load

        try:
            cls = load(args.structure)
        except SpecError as exc:
            say(f"play: {exc.message}")
            return 2
    else:
        try:
            cls = engine_class(args.structure)
        except LookupError as exc:
            known = ", ".join(engine_names())
            say(f"play: {exc}" + (f"; structures with an engine: {known}" if known else ""))
            return 2
    try:
        table = table_for(cls, args)
        options = options_for(cls, args.option)
        build(cls, table, options)  # once, so a bad table or option is reported before any play
    except InvalidTable as exc:
        say(f"play: {exc.message}")
        return 2
    seats = len(table.stacks)
    chosen = _seating(args, seats, say)
    if chosen is None:
        return 2
    bots, hands, seed = chosen
    agents = _agents(cls, args.agent, seats, say)
    if agents is None:
        return 2
    bots |= set(agents)  # an agent's seat draws, discards and waits as a bot's
    if args.hands is None and len(bots) == seats:
        hands = 1
    keyboard = Keyboard(stream, out)
    name = cls.SPEC_NAME or args.structure
    game, why = _game(cls, name, args.showdown)
    # The stud bring-in's seat is the cards' to decide, hand by hand.
    say(f"betspec play: {name}, {seats} seats" + _inputs_text(cls, table, () if game is None else ("bring_in_seat",)))
    no_cards = "random" if len(bots) == seats else "ask"
    showdown = "cards" if game is not None else (args.showdown if args.showdown not in (None, "cards") else no_cards)
    session = Session(cls, options, table, bots, random.Random(seed), showdown, keyboard, say)
    session.game, session.seed, session.fallback = game, seed, no_cards
    session.agents = agents
    if why:
        say(why)
    seeded = (["cards"] if game is not None else []) + (["bots"] if bots else [])
    for seat, (agent, _) in sorted(agents.items()):
        say(f"seat {seat}: the agent of {agent.path}")
    if bots - set(agents):
        say(f"bots at seats {', '.join(map(str, sorted(bots - set(agents))))}")
    if seeded:
        say(f"{' and '.join(seeded)} seeded {seed} (--seed {seed} replays them)")
    if game is not None:
        named = f"{game.name} ({game.code})" if game.code else game.name  # the PHH variant of the same cards
        from betspec.cards import ranked_by

        say(f"dealt as {named}, the showdown ranked by {ranked_by(game)}")
    return _played(session, hands, say)


def _played(session: Session, hands: int | None, say: Callable[[str], None]) -> int:
    """Play the session's hands at the keyboard: its exit status (130 when interrupted)."""
    say('type "help" for the actions, "quit" to leave')
    try:
        session.play(hands)
    except Leave as leave:
        say(leave.reason)
        return leave.status
    except KeyboardInterrupt:
        say("\ninterrupted: leaving the table")
        return 130
    return 0


#: The seats bots play, the hands to play (None: until the table breaks) and the seed.
Seating = tuple[set[int], int | None, int]


def _seating(args: argparse.Namespace, seats: int, say: Callable[[str], None]) -> Seating | None:
    """The seats the bots play, the hands to play (None: until the table breaks) and the seed, as
    --bots, --hands and --seed say; None where one is wrong (said)."""
    bots: set[int] = set()
    if args.bots is not None:
        mode, named = args.bots
        wrong = [seat for seat in named if not 0 <= seat < seats]
        if wrong:
            say(f"play: --bots names seat {wrong[0]}, but the seats are 0..{seats - 1}")
            return None
        bots = set(named) if mode == "only" else set(range(seats)) - set(named)
    if args.hands is not None and args.hands < 1:
        say("play: --hands must be at least 1")
        return None
    hands = args.hands if args.hands is not None else (1 if len(bots) == seats else None)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    return bots, hands, seed


def _agents(
    cls: type[Engine], given: Sequence[tuple[int, str]], seats: int, say: Callable[[str], None]
) -> dict[int, tuple[Agent, list[str]]] | None:
    """The trained agents --agent seats, each with the names of its actions; None where one is
    wrong (said)."""
    from betspec.runtime import InvalidTable
    from betspec.tools.agent_actions import action_names
    from betspec.tools.agent_file import AgentError, load_agent

    agents: dict[int, tuple[Agent, list[str]]] = {}
    for seat, path in given:
        if not 0 <= seat < seats:
            say(f"play: --agent names seat {seat}, but the seats are 0..{seats - 1}")
            return None
        if importlib.util.find_spec("numpy") is None:
            say(
                "play: an agent sees what betspec's environment shows it, which needs numpy: pip install 'betspec[env]'"
            )
            return None
        try:
            agent = load_agent(path, seat)
            agents[seat] = (agent, action_names(cls, agent.fractions))
        except (AgentError, InvalidTable) as exc:
            say(f"play: {exc.message}")
            return None
    return agents


def _pokerkit() -> bool:
    """Whether PokerKit, whose evaluators rank a showdown, can be imported."""
    try:
        return importlib.util.find_spec("pokerkit") is not None
    except (ImportError, ValueError):  # ValueError: set to None in sys.modules (a test, a shim)
        return False


def _game(cls: type[Engine], name: str, showdown: str | None) -> tuple[Game | None, str]:
    """The game the structure is dealt as (None: no cards are dealt), and what to say once."""
    from betspec.cards import CardError, game_of

    if showdown not in (None, "cards"):
        return None, ""
    try:
        game = game_of(cls)
    except CardError as exc:
        return None, f"{exc.message}: no cards are dealt"
    if not _pokerkit():
        return None, NO_CARDS
    return game, ""


def _inputs_text(cls: type[Engine], table: Table, leave: Sequence[str] = ()) -> str:
    """The table's inputs other than their defaults (and ``leave``), in the spec's order:
    ``, blinds 5/10, ante 1``."""
    parts = []
    for name, declared in cls.INPUTS.items():
        if name in leave:
            continue
        value = table.get(name, declared.default)
        if value == declared.default or (isinstance(value, list | tuple) and list(value) == declared.default):
            continue
        if isinstance(value, list | tuple):
            shown = "/".join(map(str, value)) if declared.items else ",".join(map(str, value))
        else:
            shown = "yes" if value is True else str(value)
        parts.append(f", {name.replace('_', ' ')} {shown}")
    return "".join(parts)


# ---- reading what is typed ----------------------------------------------------------------


class Keyboard:
    """Lines typed at a prompt. On a real terminal ``input()`` gives line editing; any other
    stream (a test, a script piped in) is read line by line and echoed, so a transcript reads
    as a hand played."""

    def __init__(self, stream: TextIO, out: TextIO) -> None:
        self.stream = stream
        self.out = out
        self.terminal = stream is sys.stdin and out is sys.stdout and _isatty(stream) and _isatty(out)
        if self.terminal:
            with contextlib.suppress(ImportError):  # Windows has no readline; input() still works
                import readline  # noqa: F401  # loaded, it gives input() line editing and history

    def ask(self, prompt: str) -> str:
        """The next line typed; a line of more than ``MAX_LINE`` characters is not read (its
        start is echoed, with its length) and the prompt comes again."""
        while True:
            line = self._line(prompt)
            if line is not None:
                return line

    def _line(self, prompt: str) -> str | None:
        if self.terminal:
            try:
                typed = input(prompt)
            except EOFError:
                self.out.write("\n")
                raise Leave("end of input: leaving the table") from None
            if len(typed) <= MAX_LINE:
                return typed
            self._too_long(len(typed))
            return None
        self.out.write(prompt)
        self.out.flush()
        line = self.stream.readline(MAX_LINE + 1)
        if not line:
            self.out.write("\n")
            raise Leave("end of input: leaving the table")
        if len(line) > MAX_LINE and not line.endswith("\n"):
            length = len(line)
            while True:  # the rest of the line, read in pieces and dropped
                piece = self.stream.readline(65536)
                length += len(piece)
                if not piece or piece.endswith("\n"):
                    break
            self.out.write(line[:60] + "...\n")
            self._too_long(length)
            return None
        self.out.write(line if line.endswith("\n") else line + "\n")
        return line.rstrip("\r\n")

    def _too_long(self, length: int) -> None:
        self.out.write(f"a line of {length:,} characters is not read (at most {MAX_LINE}): type it again\n")


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@dataclass(frozen=True)
class Typed:
    """What a line asks for: an engine action (``fold`` .. ``all_in``, with its "to"), or a
    table command (``help``, ``show``, ``quit``), or nothing understood (``problem`` says why)."""

    action: str = ""
    to: int | None = None
    problem: str = ""


WORDS = {
    "f": "fold",
    "fold": "fold",
    "x": "check",
    "k": "check",
    "check": "check",
    "c": "call",
    "call": "call",
    "b": "bet",
    "bet": "bet",
    "r": "raise",
    "raise": "raise",
    "allin": "all_in",
    "bringin": "bring_in",
    "bring_in": "bring_in",
    "bring-in": "bring_in",
    "all-in": "all_in",
    "all_in": "all_in",
    "shove": "all_in",
    "h": "help",
    "help": "help",
    "?": "help",
    "s": "show",
    "show": "show",
    "q": "quit",
    "quit": "quit",
    "exit": "quit",
}
AMOUNT = re.compile(r"-?\d[\d,_]*")
ALL_IN = re.compile(r"\ball\s+in\b")
BRING_IN = re.compile(r"\bbring\s+in\b")


def parse(line: str, own: Sequence[str] = ()) -> Typed:
    """Read one typed line; never raises. ``own``: the structure's actions of its own, typed by name."""
    words = BRING_IN.sub("bringin", ALL_IN.sub("allin", line.lower())).split()
    if not words:
        return Typed()
    action = words[0] if words[0] in own else WORDS.get(words[0])
    if action is None:
        return Typed(problem=f"{_shown(words[0])} is not an action (type help)")
    rest = words[1:]
    if action in ("bet", "raise"):
        if rest[:1] == ["to"]:
            rest = rest[1:]
        if not rest:
            return Typed(problem=f"{action} needs the amount it makes the seat's total: {action} 300")
        if len(rest) > 1:
            return Typed(problem=f"{action} takes one amount, not {_shown(' '.join(rest))}")
        text = rest[0]
        if not AMOUNT.fullmatch(text):
            return Typed(problem=f"{_shown(text)} is not a number of chips")
        digits = text.replace(",", "").replace("_", "")
        if len(digits.lstrip("-")) > MAX_DIGITS:
            return Typed(problem=f"{len(digits)} digits: more chips than any table holds")
        return Typed(action, int(digits))
    if rest:
        return Typed(problem=f"{words[0]} takes no amount")
    return Typed(action)


def parse_draw(line: str, held: Sequence[str]) -> tuple[list[str] | None, str]:
    """A typed draw: the cards discarded (by place, 1 first, or by card; none: stand pat), or
    why not ("quit" and "help" asked for); never raises."""
    words = line.replace(",", " ").split()
    if not words:
        return None, ""
    first = words[0].lower()
    if first in ("q", "quit", "exit"):
        return None, "quit"
    if first in ("h", "help", "?"):
        return None, "help"
    if first in ("stand", "pat", "keep"):
        return ([], "") if len(words) == 1 or words[1:] == ["pat"] else (None, "stand keeps every card: type stand")
    if first not in ("discard", "d", "draw"):
        return None, f"{_shown(words[0])} is not a draw: discard 2 5 (by place), discard 9h (by card), or stand"
    chosen: list[str] = []
    for word in words[1:]:
        by_card = next((card for card in held if card.lower() == word.lower()), None)
        if by_card is None and word.isdigit() and len(word) < 3 and 1 <= int(word) <= len(held):
            by_card = held[int(word) - 1]
        if by_card is None:
            return None, f"{_shown(word)} is none of your cards: places 1..{len(held)} or {' '.join(held)}"
        if by_card in chosen:
            return None, f"{by_card} is named twice"
        chosen.append(by_card)
    return chosen, ""


def bot_discards(game: Game, held: Sequence[str]) -> list[str]:
    """A bot's draw in a lowball game: from the lowest card up, it keeps each card of eight or
    less whose rank (and suit, where the game's low hands need distinct suits) it does not hold
    yet, and discards the rest."""
    order = "A23456789TJQK" if game.ace_low else "23456789TJQKA"
    kept: list[str] = []
    for card in sorted(held, key=lambda card: order.index(card[0])):
        low = order.index(card[0]) <= order.index("8")
        if low and all(card[0] != other[0] and (not game.distinct_suits or card[1] != other[1]) for other in kept):
            kept.append(card)
    return [card for card in held if card not in kept]


def bot_pitches(game: Game, held: Sequence[str], board: Sequence[str], count: int) -> list[str]:
    """A bot's discard without replacement: the ``count`` cards whose loss leaves the best hand
    with the board as the game ranks it (the first such, in the order the cards were dealt)."""
    from betspec.cards import CardError, rankings

    keeps = [list(kept) for kept in itertools.combinations(held, len(held) - count)]
    try:
        best = rankings(game, dict(enumerate(keeps)), board)[0][0][0]
    except CardError:  # too few cards to make a hand yet (a discard before the board): the lowest go
        order = "A23456789TJQK" if game.ace_low else "23456789TJQKA"
        return sorted(held, key=lambda card: order.index(card[0]))[:count]
    return [card for card in held if card not in keeps[best]]


# ---- the table ----------------------------------------------------------------------------


class Session:
    """Hands one after another at one table; seats keep their numbers when others go out."""

    def __init__(
        self,
        cls: type[Engine],
        options: dict[str, object],
        table: Table,
        bots: set[int],
        rng: random.Random,
        showdown: str,
        keyboard: Keyboard,
        say: Callable[[str], None],
    ) -> None:
        self.cls = cls
        self.options = options
        self.table = table
        self.bots = bots
        self.rng = rng
        self.showdown = showdown
        self.keyboard = keyboard
        self.say = say
        self.stacks = list(table.stacks)  # by seat number, across hands
        self.raked = 0  # what the house took from the pots, across hands
        self.button = table.button
        self.game: Game | None = None  # the game the cards are dealt as; None: no cards
        #: The session spec's games and levels (betspec.session), where a session is played.
        self.mixed: MixedSession | None = None
        self.seed: object = None  # the decks' seed: hand N is dealt from a deck seeded "seed/N"
        self.fallback = "ask"  # who wins a showdown the cards cannot decide
        #: The seats trained agents play (--agent), each with the names of its actions.
        self.agents: dict[int, tuple[Agent, list[str]]] = {}

    @property
    def has_button(self) -> bool:
        """Whether the game is played with a button (hold'em, Omaha, draw): stud and razz are not
        (the cards decide who acts), and the table's button is only the dealer's place."""
        return self.game is None or self.game.opening == "position"

    def play(self, hands: int | None) -> None:
        """Play ``hands`` hands (None: until the player quits or one seat has every chip)."""
        from betspec.runtime import Table

        total = sum(self.stacks)
        table: Table | None = None  # the next hand's, as the engine made it from the hand before
        seats: list[int] = []  # the seat number of each of its seats
        for number in itertools.count(1):
            if table is None and self.mixed is not None:
                table, seats = self.mixed.table(), list(self.mixed.seats)
            elif table is None:
                seats = [seat for seat, stack in enumerate(self.stacks) if stack > 0]
                if len(seats) < 2:
                    self._over(seats)
                    return
                table = Table.of([self.stacks[s] for s in seats], seats.index(self.button), self.table.inputs)
            if hands is None and not any(self.stacks[seat] for seat in seats if seat not in self.bots):
                self.say("no seat at the keyboard has chips left: the session is over")
                return
            title = f"hand {number}" + (f" of {hands}" if hands is not None and hands > 1 else "")
            self.say("")
            button = f"button seat {self.button}; " if self.has_button else ""
            self.say(f"=== {title}: {button}stacks {self._stacks_text()} (total {sum(self.stacks)}) ===")
            if self.mixed is not None:
                self._announce(table)
            out = [seat for seat, stack in enumerate(self.stacks) if stack == 0]
            if out:
                self.say(f"out of chips: seat{'s' if len(out) > 1 else ''} {', '.join(map(str, out))}")
            dealer = self._dealer(number, len(seats))
            if dealer is not None and dealer.table_inputs():  # the stud bring-in: the cards decide it
                table = Table.of(table.stacks, table.button, {**table.inputs, **dealer.table_inputs()})
            hand = Hand(self, build(self.cls, table, self.options), seats, dealer)
            hand.play()
            if hands == 1 and self.game is None:
                break  # one hand, no cards: nothing to pay it for
            self._settle(hand)
            if sum(self.stacks) + self.raked != total:  # the house's take counted as the chips it was
                self.say(f"engine problem: the table had {total} chips and now has {sum(self.stacks)}; stopping")
                return
            if hands is not None and number >= hands:
                break
            table, seats = self._next(hand)
            if table is None:
                return
        if hands is not None and hands > 1:
            self.say("")
            self.say(f"after {hands} hands: stacks {self._stacks_text()} (total {sum(self.stacks)}{self._taken(', ')})")

    def _next(self, hand: Hand) -> tuple[Table | None, list[int]]:
        """The next hand's table, as the spec's next-hand rule makes it (the engine's
        ``next_table``: the button moved or kept dead, the inputs it sets, busted seats out), with
        the seat number of each of its seats; None when fewer than two seats have chips."""
        engine = hand.engine
        seats = [seat for index, seat in enumerate(hand.seats) if engine.stacks[index] > 0]
        if len(seats) < 2:
            self._over(seats)
            return None, []
        if self.mixed is not None:  # the session's next game and level, its stacks and button carried
            table = self.mixed.next_table(engine, self._chosen_game(engine))
            self.button = self.mixed.button
            return table, list(self.mixed.seats)
        table = engine.next_table()
        self.button = seats[table.button]
        return table, seats

    def _announce(self, table: Table) -> None:
        """What the hand about to be dealt starts (a game with its stakes, a level), where a
        session is played; the game's structure, options and cards taken for it."""
        from betspec.cards import CardError

        mixed = cast("MixedSession", self.mixed)
        self.cls, self.options = mixed.game.cls, dict(mixed.game.options)
        for change in mixed.changes:
            stakes = _inputs_text(self.cls, table, ("bring_in_seat",))[2:] if change.startswith("game: ") else ""
            self.say(f"--- {change}{f' ({stakes})' if stakes else ''} ---")
        if self.showdown == "cards" or self.game is not None:
            try:
                self.game = mixed.game.card_game if _pokerkit() else None
            except CardError:
                self.game = None
            self.showdown = "cards" if self.game is not None else self.fallback

    def _chosen_game(self, engine: Engine) -> str | None:
        """The next game where the session's host chooses it (dealer's choice): the player on the
        next hand's button chooses, a bot at random."""
        mixed = cast("MixedSession", self.mixed)
        if not mixed.choosing:
            return None
        games = list(mixed.spec.rotation)
        chooser = mixed.chooser(engine)
        if chooser in self.bots:
            chosen = self.rng.choice(games)
            self.say(f"seat {chooser} (bot) chooses {mixed.spec.games[chosen].title}")
            return chosen
        while True:
            typed = self.keyboard.ask(f"seat {chooser} chooses the next game ({', '.join(games)}): ").strip()
            if typed in games:
                return typed
            self.say(f"not a game of this session: {', '.join(games)}")

    def _dealer(self, number: int, seats: int) -> Dealer | None:
        """Hand ``number``'s cards: a deck seeded from the session's seed and the hand's number."""
        from betspec.cards import CardError, Dealer

        if self.game is None:
            return None
        try:
            return Dealer(self.game, seats, seed=f"{self.seed}/{number}")
        except CardError as exc:
            self.say(f"the dealer: {exc.message}; this hand has no cards")
            return None

    def _stacks_text(self) -> str:
        return ", ".join(f"{seat}: {stack}" for seat, stack in enumerate(self.stacks))

    def _settle(self, hand: Hand) -> None:
        """Have the engine pay the pots to the winners named for them, so that the next hand starts
        from the right stacks. The winners make a ranking, best first: a pot is asked about only
        when nobody ranked so far is in it (a side pot an earlier pot's winner is in goes to him),
        and the seats never named tie last."""
        engine = hand.engine
        pots = engine.pots()
        contested = [pot for pot in pots if len(pot.eligible) > 1]
        if hand.dealer is not None:
            settlement = self._showdown(hand)
            if settlement is not None:
                self._paid(hand, settlement)
                return
        ranking: list[list[int]] = []
        for number, pot in enumerate(pots, 1):
            if pot in contested and not any(set(group) & set(pot.eligible) for group in ranking):
                winners = self._winners(number, pot.amount, tuple(hand.seats[i] for i in pot.eligible))
                ranking.append([hand.seats.index(seat) for seat in winners])
        ranked = {index for group in ranking for index in group}
        rest = sorted({index for pot in contested for index in pot.eligible} - ranked)
        if rest:
            ranking.append(rest)
        self._paid(hand, engine.settle(ranking if contested else None))

    def _showdown(self, hand: Hand) -> Settlement | None:
        """Show the hands of the seats in a contested pot, what each makes, and have the dealer
        rank them and the engine pay every pot; None when the cards cannot decide it (said)."""
        from betspec.cards import CardError, describe
        from betspec.runtime import IllegalAction

        dealer, engine = hand.dealer, hand.engine
        assert dealer is not None
        shown = sorted({index for pot in engine.pots() if len(pot.eligible) > 1 for index in pot.eligible})
        boards = dealer.all_boards
        for index in shown:
            held = dealer.hole[index]
            made = [describe(dealer.game, held, board) for board in boards]
            makes = made[0] if len(boards) == 1 else "; ".join(f"board {n} {m}" for n, m in enumerate(made, 1) if m)
            self.say(f"showdown: seat {hand.seats[index]} shows {' '.join(held)}" + (f": {makes}" if makes else ""))
        try:
            return dealer.settle(engine)
        except (CardError, IllegalAction) as exc:
            self.say(f"the dealer cannot rank this showdown: {exc.message}")
            self.showdown = self.fallback
            return None

    def _paid(self, hand: Hand, settlement: Settlement) -> None:
        """The stacks after the engine paid the pots; each pot's winners said."""
        engine = hand.engine
        for index, seat in enumerate(hand.seats):
            self.stacks[seat] = engine.stacks[index]
        if len(hand.live) > 1:  # an uncontested win was announced with the pots
            # A pot paid in parts (a split game's halves, each board's) names each part.
            names = hand.dealer.run_names if hand.dealer is not None else []
            for place, award in enumerate(settlement.awards):
                number = place // len(names) + 1 if names else place + 1
                pot = f"pot {number}, {names[award.run]}" if names else f"pot {number}"
                winners = [hand.seats[index] for index in award.winners]
                if len(winners) == 1:
                    self.say(f"{pot} ({award.amount}) to seat {winners[0]}")
                else:
                    given = " and ".join(f"seat {s} {c}" for s, c in zip(winners, award.shares, strict=True))
                    self.say(f"{pot} ({award.amount}) split: {given}")
        self._house_take(hand, settlement)

    def _over(self, seats: list[int]) -> None:
        """The game over: one seat (or none) has every chip the house did not take."""
        taken = f" ({self._taken('')})" if self.raked else ""
        self.say(f"seat {seats[0]} has every chip{taken}: the game is over" if seats else "nobody has chips")

    def _taken(self, before: str) -> str:
        """What the house took across hands, less what its jackpot paid onto the table ("" for nothing)."""
        if self.raked > 0:
            return f"{before}the house took {self.raked}"
        if self.raked < 0:
            return f"{before}the jackpot paid {-self.raked} more than the house took"
        return ""

    def _house_take(self, hand: Hand, settlement: Settlement) -> None:
        """What the house took before paying, as the spec's rake says (counted for the session's
        end), and the money paid outside the pot after."""
        if settlement.rake:
            self.say(f"the house rakes {settlement.rake}")
        if settlement.jackpot_drop:
            self.say(f"{settlement.jackpot_drop} dropped into the jackpot")
        self.raked += settlement.rake + settlement.jackpot_drop
        seats = hand.seats
        for payment in settlement.payments:  # money paid outside the pot (the 7-2 bounty, a high-hand bonus)
            if payment.payer is None:  # chips the house's jackpot brings onto the table
                self.raked -= payment.amount
                self.say(f"the jackpot pays seat {seats[payment.payee]} {payment.amount} ({payment.name})")
            else:
                self.say(
                    f"seat {seats[payment.payer]} pays seat {seats[payment.payee]} {payment.amount} ({payment.name})"
                )

    def _winners(self, number: int, amount: int, eligible: tuple[int, ...]) -> list[int]:
        who = ", ".join(map(str, eligible))
        showdown = self.fallback if self.showdown == "cards" else self.showdown
        if showdown == "split":
            return list(eligible)
        if showdown == "random":
            return [self.rng.choice(eligible)]
        self.say(f"pot {number} ({amount} chips) goes to the best hand of seats {who}.")
        self.say("Who wins it? Seat numbers (two or more split it); Enter splits it between them all.")
        while True:
            line = self.keyboard.ask(f"pot {number} winner> ").strip().lower()
            if line in ("q", "quit", "exit"):
                raise Leave("leaving the table")
            if line in ("", "split"):
                return list(eligible)
            parts = line.replace(",", " ").split()
            if all(part.isdigit() and len(part) < 4 and int(part) in eligible for part in parts):
                return sorted({int(part) for part in parts})
            self.say(f"not a winner: give seat numbers among {who}")


class Hand:
    """One hand: decisions asked of the keyboard or the bots, streets dealt when a round ends."""

    def __init__(self, session: Session, engine: Engine, seats: list[int], dealer: Dealer | None = None) -> None:
        self.session = session
        self.say = session.say
        self.engine = engine
        self.seats = seats  # seat number of each engine seat (seats out of chips are not dealt in)
        self.dealer = dealer  # the cards (engine seats are the dealer's), or None
        self.folded: set[int] = set()  # seat numbers; tracked here as every action passes through here
        self.street = engine.street_name

    @property
    def live(self) -> list[int]:
        return [seat for seat in self.seats if seat not in self.folded]

    def play(self) -> None:
        engine = self.engine
        if self.dealer is not None:
            board = self.dealer.follow(engine)  # a hand begun past its first street (a bomb pot)
            if board:
                begins = f"the hand begins on the {engine.street_name.replace('_', ' ')}"
                boards = self.dealer.all_boards
                if len(boards) == 1:
                    self.say(f"{begins}: board {' '.join(board)}")
                else:
                    self.say(f"{begins}: " + "; ".join(f"board {n} {' '.join(b)}" for n, b in enumerate(boards, 1)))
        while not engine.hand_over:
            self.street = engine.street_name
            if engine.to_act is None:
                if not self._deal("betting round over"):
                    return
                continue
            self._decide(engine.to_act)
        # Nobody can bet any more: the board is still dealt to the river, as at a table.
        while engine.next_street is not None and self._deal("all in, no more betting"):
            pass
        self._finish()

    def _deal(self, why: str) -> bool:
        from betspec.cards import CardError
        from betspec.runtime import IllegalAction

        street = self.engine.next_street
        if street is None:
            self.say(f"engine problem: the {self.street} is over but the hand is not, and no street follows it")
            return False
        dealt = ""
        drew = False
        try:
            if self.dealer is None:
                self.engine.deal(street)
            else:
                drew = self.dealer.game.draws_before(self.dealer.street)
                if drew:
                    self._draws()
                if self.dealer.game.discards_before(self.dealer.street):
                    self._discards()
                self.dealer.deal(self.engine, street)
                dealt = self._dealt()
        except IllegalAction as exc:
            self.say(f"engine problem: dealing the {street} was refused")
            self._explain(exc)
            return False
        except CardError as exc:
            self.say(f"the dealer: {exc.message}; the hand goes on without cards")
            self.dealer = None
            return self._deal(why)
        self.street = street
        name = street.replace("_", " ")
        if self.dealer is not None and drew:  # the cards were drawn just before
            self.say(f"{why}: the {name}, every seat in drawn" + (f": {dealt}" if dealt else ""))
        else:
            self.say(f"{why}: dealing the {name}" + (f": {dealt}" if dealt else ""))
        return True

    def _dealt(self) -> str:
        """What everybody sees of the street just dealt: the board cards, or the upcards."""
        dealer = self.dealer
        assert dealer is not None
        street = dealer.street - 1
        count = dealer.game.board[street]
        if count and dealer.other_boards:
            shown = [dealer.boards[street], *(board[-count:] for board in dealer.other_boards)]
            return "; ".join(f"board {n} {' '.join(cards)}" for n, cards in enumerate(shown, 1))
        if count:
            return "board " + " ".join(dealer.boards[street])
        up = dealer.game.hole[street]
        if up and all(up):
            return ", ".join(f"seat {self.seats[index]} {' '.join(cards)}" for index, cards in dealer.dealt[street])
        if up:
            return "face down"
        return ""

    def _draws(self) -> None:
        """Each seat still in, from the button's left, discards and is dealt as many: a human
        says which (by place or by card), a bot discards simply."""
        dealer, engine = self.dealer, self.engine
        assert dealer is not None
        n = len(self.seats)
        button = engine.table.button
        for index in [(button + step) % n for step in range(1, n + 1)]:
            if engine.folded[index]:
                continue
            seat = self.seats[index]
            if seat in self.session.bots:
                discard = bot_discards(dealer.game, dealer.hole[index])
                new = dealer.draw(index, discard)
                self.say(f"seat {seat} (bot) " + (f"draws {len(new)}" if new else "stands pat"))
                continue
            discard = self._ask_draw(seat, dealer.hole[index])
            new = dealer.draw(index, discard)
            if new:
                self.say(
                    f"seat {seat} discards {' '.join(discard)}, draws {' '.join(new)}: {' '.join(dealer.hole[index])}"
                )
            else:
                self.say(f"seat {seat} stands pat: {' '.join(dealer.hole[index])}")

    def _discards(self) -> None:
        """Each seat still in, from the button's left, throws away as many cards as the game says
        before the street is dealt (none replaced): a human says which, a bot keeps its best."""
        dealer, engine = self.dealer, self.engine
        assert dealer is not None
        due = dealer.game.discards_before(dealer.street)
        n = len(self.seats)
        for index in [(engine.table.button + step) % n for step in range(1, n + 1)]:
            if engine.folded[index]:
                continue
            seat = self.seats[index]
            if seat in self.session.bots:
                dealer.discard(index, bot_pitches(dealer.game, dealer.hole[index], dealer.board, due))
                self.say(f"seat {seat} (bot) discards {due}")
                continue
            chosen = self._ask_cards(seat, dealer.hole[index], f"discards {due}", due)
            dealer.discard(index, chosen)
            self.say(f"seat {seat} discards {' '.join(chosen)}: {' '.join(dealer.hole[index])}")

    def _ask_draw(self, seat: int, held: Sequence[str]) -> list[str]:
        return self._ask_cards(seat, held, "draws")

    def _ask_cards(self, seat: int, held: Sequence[str], doing: str, count: int | None = None) -> list[str]:
        """The cards a human seat discards, typed by place or by card: any number for a draw
        (none: stands pat), exactly ``count`` for a discard without replacement."""
        places = "  ".join(f"{place}:{card}" for place, card in enumerate(held, 1))
        self.say(f"seat {seat} {doing}; your cards {places}")
        self.say('discard by place or card ("discard 2 5", "discard 9h")' + (', or "stand"' if count is None else ""))
        while True:
            typed = self.session.keyboard.ask(f"seat {seat} {doing.split()[0]}> ")
            discard, problem = parse_draw(typed, held)
            if problem == "quit":
                raise Leave("leaving the table")
            if problem == "help":
                self.say(HELP)
            elif problem:
                self.say(problem)
            elif discard is not None and count is not None and len(discard) != count:
                self.say(f"discard {count} of your cards (by place or by card), not {len(discard)}")
            elif discard is not None:
                return discard

    def _decide(self, index: int) -> None:
        seat = self.seats[index]
        self.show()
        if seat in self.session.agents:
            self._agent(index)
            return
        if seat in self.session.bots:
            self._bot(index)
            return
        while True:
            typed = parse(self.session.keyboard.ask(f"seat {seat}> "), self.engine.OWN_ACTIONS)
            if typed.problem:
                self.say(typed.problem)
                continue
            if typed.action == "":
                continue
            if typed.action == "quit":
                raise Leave("leaving the table")
            if typed.action == "help":
                self.say(HELP)
                self.say(self.choices())
                continue
            if typed.action == "show":
                self.show()
                continue
            if self._take(index, typed.action, typed.to):
                return
            self.say(self.choices())

    def _bot(self, index: int) -> None:
        from betspec.tools.simulate import choose

        for _ in range(BOT_RETRIES):
            _, action, to = choose(self.engine, self.session.rng)
            if self._take(index, action, to, bot=True):
                return
            self.say("(the bot's choice was refused: that is a bug in the engine or the bot; it chooses again)")
        self.say("(the bot gives up and folds)")
        if not self._take(index, "fold", None, bot=True):
            raise Leave("engine problem: even a fold was refused; stopping", 1)

    def _agent(self, index: int) -> None:
        """The seat's trained agent chooses, shown what the environment would show it: an action
        its mask refuses, or an agent that fails, is said, and the seat checks or calls (else
        folds), as the environment's Gymnasium wrapper plays a refused action."""
        import numpy as np

        from betspec.tools.agent_actions import action_mask, meant
        from betspec.tools.agent_view import observe

        seat, engine = self.seats[index], self.engine
        agent, names = self.session.agents[seat]
        mask = action_mask(engine, names)
        seen = {
            "observation": observe(engine, self.dealer, index, float(sum(engine.table.stacks)) or 1.0),
            "action_mask": np.array(mask, dtype=np.int8),
        }
        passive = names.index("check_or_call") if mask[names.index("check_or_call")] else names.index("fold")
        try:
            chosen = agent.choose(seen)
        except Exception as exc:  # the developer's own code: said, and the seat plays on
            self.say(f"(the agent at seat {seat} failed: {type(exc).__name__}: {exc}; it checks or calls)")
            chosen = passive
        if not isinstance(chosen, int | np.integer) or not 0 <= int(chosen) < len(names) or not mask[int(chosen)]:
            self.say(f"(the agent at seat {seat} chose {chosen!r}, which its mask refuses: it checks or calls)")
            chosen = passive
        action, to = meant(engine, names[int(chosen)])
        if not self._take(index, action, to, bot=True) and not self._take(index, action, engine.min_to, bot=True):
            raise Leave("engine problem: the agent's action was refused at its least amount too; stopping", 1)

    def _take(self, index: int, action: str, to: int | None, bot: bool = False) -> bool:
        """Ask the engine to take the action; print what happened, or why it was refused."""
        from betspec.runtime import IllegalAction

        engine = self.engine
        seat = self.seats[index]
        call, behind, committed = engine.call_amount, engine.stacks[index], engine.committed[index]
        try:
            engine.act(index, action, to)
        except IllegalAction as exc:
            self._explain(exc)
            return False
        if action == "fold":
            self.folded.add(seat)
        if action in ("bet", "raise"):
            done = f"{'bets' if action == 'bet' else 'raises to'} {to}" + (
                " (all in)" if to == committed + behind else ""
            )
        elif action == "bring_in":
            done = f"brings in {engine.committed[index] - committed}"
        elif action == "all_in":
            done = f"all in: {behind} more, {committed + behind} in on this street"
        else:
            done = {"fold": "folds", "check": "checks", "call": f"calls {call}"}.get(action, action)
        player = " (agent)" if seat in self.session.agents else " (bot)" if bot else ""
        self.say(f"seat {seat}{player}: {done}")
        return True

    def _explain(self, exc: IllegalAction) -> None:
        """A refusal as a dealer would give it: the code, then the rule cited, its text and source."""
        rules = type(self.engine).RULES
        text = rules[exc.rule][0] if exc.rule in rules else ""
        # The message repeats the code and ends with the rule; the part between says why.
        detail = exc.message.split(". Rule ")[0].replace(f": {exc.code}", "", 1)
        self.say(f"refused [{exc.code}]: {detail}")
        if exc.rule:
            self.say(f"  rule {exc.rule}: {text or exc.message}")
        if exc.source:
            self.say(f"  source: {exc.source}")

    def show(self) -> None:
        engine = self.engine
        self.say("")
        self.say(f"{engine.street_name.replace('_', ' ')}: pot {engine.pot}")
        width = max(len(str(stack)) for stack in engine.stacks)
        put = max(len(str(chips)) for chips in engine.committed)
        for index, seat in enumerate(self.seats):
            marks = []
            if seat == self.session.button and self.session.has_button:
                marks.append("button")
            if seat in self.session.bots:
                marks.append("agent" if seat in self.session.agents else "bot")
            if seat in self.folded:
                marks.append("folded")
            elif engine.stacks[index] == 0:
                marks.append("all in")
            if index == engine.to_act:
                marks.append("to act")
            stack = str(engine.stacks[index]).rjust(width)
            self.say(
                f"  seat {seat}  stack {stack}  in {str(engine.committed[index]).rjust(put)}"
                + "".join(f"  {m}" for m in marks)
            )
        for line in self.cards():
            self.say(line)
        if engine.to_act is not None:
            self.say(self.choices())

    def cards(self) -> list[str]:
        """The board, the human seat's cards (its upcards after a slash), and in stud every other
        seat's upcards (its down cards as ??)."""
        dealer = self.dealer
        if dealer is None:
            return []
        boards = dealer.all_boards if dealer.board else []
        named = [f"board {n}" for n in range(1, len(boards) + 1)] if len(boards) > 1 else ["board"]
        lines = [f"  {name} {' '.join(board)}" for name, board in zip(named, boards, strict=False)]
        humans = [seat for seat in self.seats if seat not in self.session.bots]
        for index, seat in enumerate(self.seats):
            if seat in self.folded:
                continue
            held, up = dealer.hole[index], dealer.up[index]
            # A human's cards are his: shown to him, or with several at one keyboard, to the one to act.
            if seat in humans and (len(humans) == 1 or index == self.engine.to_act):
                down = [card for card, shown in zip(held, up, strict=True) if not shown]
                faced = [card for card, shown in zip(held, up, strict=True) if shown]
                lines.append(f"  seat {seat} cards {' '.join(down)}" + (f" / up {' '.join(faced)}" if faced else ""))
            elif any(up):  # stud: what everybody sees
                shown = " ".join(card if face else "??" for card, face in zip(held, up, strict=True))
                lines.append(f"  seat {seat} shows {shown}")
        return lines

    def choices(self) -> str:
        """The legal actions of the seat to act, with the call and the "to" bounds."""
        engine = self.engine
        index = engine.to_act
        if index is None:
            return "nobody is to act"
        low, high = engine.min_to, engine.max_to
        bounds = (f"{low}" if low == high else f"{low}..{high}") if low is not None else "?"
        shown = {
            "fold": "fold",
            "check": "check",
            "call": f"call {engine.call_amount}",
            "bet": f"bet to {bounds}",
            "raise": f"raise to {bounds}",
            "bring_in": "bring in",
        }
        legal = engine.legal_actions()
        order = [name for name in shown if name in legal] + [name for name in legal if name not in shown]
        listed = " | ".join(shown.get(name, name) for name in order)
        # All in only where it is one of the actions offered: a wager to every chip within the
        # bounds, or a call that takes every chip (not under a cap, not past a fixed limit).
        stack, everything = engine.stacks[index], engine.committed[index] + engine.stacks[index]
        wagers = {"bet", "raise"} & set(legal) and low is not None and high is not None and low <= everything <= high
        calls = "call" in legal and engine.call_amount >= stack
        return f"seat {self.seats[index]} to act: {listed}" + (f"  (all in: {stack} more)" if wagers or calls else "")

    def pots(self) -> list[tuple[int, tuple[int, ...]]]:
        """The engine's pots, with seat numbers."""
        return [(pot.amount, tuple(self.seats[i] for i in pot.eligible)) for pot in self.engine.pots()]

    def _finish(self) -> None:
        engine = self.engine
        self.say("")
        self.say(f"hand over ({engine.street_name.replace('_', ' ')})")
        pots = self.pots()
        for number, (amount, eligible) in enumerate(pots, 1):
            name = "main pot" if number == 1 and len(pots) > 1 else ("pot" if len(pots) == 1 else "side pot")
            self.say(f"  {name} {amount}: seats {', '.join(map(str, eligible))}")
        if not pots:
            self.say("  no chips in the middle")
        if sum(amount for amount, _ in pots) != engine.pot:
            self.say(f"engine problem: the pots add up to {sum(a for a, _ in pots)}, the pot is {engine.pot}")
        live = self.live
        if len(live) == 1:
            self.say(f"seat {live[0]} wins {engine.pot} uncontested")
        else:
            cards = "" if self.dealer is not None else " (no cards dealt)"
            self.say(f"showdown between seats {', '.join(map(str, live))}{cards}")


def _run_session(args: argparse.Namespace, path: str, stream: TextIO, out: TextIO, say: Callable[[str], None]) -> int:
    """``betspec play SESSION``: the session's games in rotation and its levels, the game and the
    level announced as each starts, the stakes the session gives (not --blinds, --bets, --input)."""
    from betspec import session as sessions
    from betspec.diagnostics import SpecError
    from betspec.runtime import InvalidTable

    try:
        spec = sessions.load(path)
    except SpecError as exc:
        say("play: " + "\n".join(str(d) for d in exc.diagnostics))
        return 2
    given = [name for name in ("blinds", "bets") if getattr(args, name) is not None] + [n for n, _ in args.input]
    if given or args.option:
        say(f"play: a session gives each game's stakes and options; not --{', --'.join(given or ['option'])}")
        return 2
    seated = 2 if args.seats is None else args.seats
    stacks = list(args.stacks) if args.stacks is not None else [args.stack] * seated
    try:
        mixed = sessions.Session(spec, stacks, args.button)
    except InvalidTable as exc:
        say(f"play: {exc.message}")
        return 2
    seats = len(stacks)
    chosen = _seating(args, seats, say)
    if chosen is None:
        return 2
    bots, hands, seed = chosen
    keyboard = Keyboard(stream, out)
    cards = _pokerkit() and args.showdown in (None, "cards")
    no_cards = "random" if len(bots) == seats else "ask"
    showdown = "cards" if cards else (args.showdown if args.showdown not in (None, "cards") else no_cards)
    first = mixed.game
    table = mixed.table()
    player = Session(first.cls, dict(first.options), table, bots, random.Random(seed), showdown, keyboard, say)
    player.mixed, player.seed, player.fallback = mixed, seed, no_cards
    player.game = first.card_game if cards else None
    say(f"betspec play: session {spec.name} ({spec.title}), {seats} seats")
    say("games: " + ", ".join(spec.games[name].title for name in dict.fromkeys(spec.rotation)))
    if bots:
        say(f"bots at seats {', '.join(map(str, sorted(bots)))}")
    say(f"{'cards and ' if cards else ''}bots seeded {seed} (--seed {seed} replays them)")
    return _played(player, hands, say)
