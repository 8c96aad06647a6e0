"""A table's whole night: a session spec (games in rotation, stakes by level) and the host's
:class:`Session`, which gives each hand's table and engine.

A session spec is its own kind of JSON (``spec/schema/session.schema.json``), checked with the
same positioned diagnostics as a structure's spec: the games a table deals (any structure, shipped
or a house's file, with the cards of its own game or of a PHH variant), when the game changes
(after an orbit, after a number of hands, or at the host's choice after an orbit), the stakes of
each game as the level's numbers, and the levels (by hands or minutes). Shipped sessions are in
``spec/sessions``.

What a session decides is data; what it does is mechanism: the hand's table is made from the
stacks and the button carried from the hand before (the engine's own ``next_table``, which moves
the button as the structure's ``next_hand`` says), the inputs of the game and level in force, and
those of the table before that the next game declares too (missed blinds, a session variable).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from betspec import packaged
from betspec.diagnostics import Diagnostic, DiagnosticCode, SpecError, did_you_mean
from betspec.runtime.errors import InvalidTable, shown
from betspec.vocabulary import CARRIED_POT

if TYPE_CHECKING:
    from betspec.cards import Dealer, Game
    from betspec.frontend.jsonpos import Located
    from betspec.runtime import Engine, Table

#: The schema a session spec is checked against, in the packaged schemas.
SESSION_SCHEMA = packaged.SESSION_SCHEMA
#: Stakes as a game's inputs give them: a number, a level's stake by name, a list of them, or a flag.
Stake = int | str | bool | list[int | str]


@dataclass(frozen=True)
class SessionGame:
    """One game of a session: its structure's engine class, the cards it is dealt (a PHH variant's
    code, or "" for the structure's own game), its table inputs (numbers or the level's stakes by
    name) and options."""

    name: str
    title: str
    structure: str
    cls: type[Engine]
    cards: str
    inputs: Mapping[str, Stake]
    options: Mapping[str, Any]

    def table_inputs(self, stakes: Mapping[str, int]) -> dict[str, object]:
        """The game's inputs at a level: each stake named replaced by the level's number."""

        def value(item: int | str | bool) -> object:
            return stakes[item] if isinstance(item, str) else item

        return {
            name: tuple(value(item) for item in given) if isinstance(given, list) else value(given)
            for name, given in self.inputs.items()
        }

    @property
    def has_button(self) -> bool:
        """Whether the seats' positions decide who acts (hold'em, draw): not stud, whose cards do."""
        game = self.card_game
        return game is None or game.opening == "position"

    @property
    def card_game(self) -> Game | None:
        """The cards this game is dealt (None: the structure declares none and no variant is named)."""
        from betspec import cards

        if self.cards:
            return cards.game(self.cards)
        try:
            return cards.game_of(self.cls)
        except cards.CardError:
            return None


@dataclass(frozen=True)
class SessionSpec:
    """A session spec, checked: its games, the rotation and when it changes, where the button goes
    in a game without one, and the levels' stakes and length."""

    name: str
    title: str
    description: str
    path: str
    games: Mapping[str, SessionGame]
    rotation: tuple[str, ...]
    change: str  # "orbit", "hands", "choice", or "" for one game dealt the whole session
    change_hands: int | None
    without_button: str  # "moves" or "frozen"
    levels: tuple[Mapping[str, int], ...]
    level_hands: int | None
    level_minutes: int | None
    rules: Mapping[str, tuple[str, str]] = field(default_factory=dict)


def shipped() -> list[str]:
    """The names of the sessions betspec ships (spec/sessions)."""
    folder = packaged.specs() / "sessions"
    return sorted(path.stem for path in folder.glob("*.json")) if folder.is_dir() else []


def is_session(path: str) -> bool:
    """Whether ``path`` is a file that says it is a session spec (its ``session_version``)."""
    if not isinstance(path, str) or not (path.endswith(".json") and os.path.isfile(path)):
        return False
    try:
        with open(path, encoding="utf-8") as handle:
            head = handle.read(65536)
    except (OSError, UnicodeDecodeError):
        return False
    return '"session_version"' in head


def find(name_or_path: str) -> str | None:
    """The file of a session: a path to one, or a shipped session's name; None if neither."""
    if not isinstance(name_or_path, str):
        return None
    if is_session(name_or_path):
        return name_or_path
    path = packaged.specs() / "sessions" / f"{name_or_path}.json"
    return str(path) if name_or_path in shipped() else None


def load(path: str) -> SessionSpec:
    """The session spec at ``path``, or :class:`SpecError` with every diagnostic."""
    spec, found = check(path)
    if spec is None:
        raise SpecError(found)
    return spec


def check(path: str) -> tuple[SessionSpec | None, list[Diagnostic]]:
    """The session spec at ``path`` and its diagnostics (None where any is an error)."""
    from betspec.diagnostics import Position
    from betspec.frontend import jsonpos, schema

    if not isinstance(path, str):
        why = f"a session is read from a file's path, not {shown(path)}"
        return None, [Diagnostic(Position(shown(path), 1, 1), "", DiagnosticCode.IO, why)]
    doc, found = jsonpos.load(path, "a session")
    if doc is None:
        return None, found
    if not isinstance(doc.value, dict):
        return None, [*found, Diagnostic(doc.at(""), "", DiagnosticCode.SCHEMA, "a session is a JSON object")]
    found += schema.check(doc, SESSION_SCHEMA)
    if found:
        return None, found
    return _Checker(doc, path).spec()


class _Checker:
    """The meaning checks of a session spec the schema accepted: names that exist, inputs each
    game's structure takes, stakes every level gives, rules cited."""

    def __init__(self, doc: Located, path: str) -> None:
        self.doc, self.path, self.value = doc, path, doc.value
        self.found: list[Diagnostic] = []

    def problem(self, pointer: str, code: DiagnosticCode, message: str) -> None:
        self.found.append(Diagnostic(self.doc.at(pointer), pointer, code, message))

    def spec(self) -> tuple[SessionSpec | None, list[Diagnostic]]:
        value = self.value
        name = value["name"]
        stem = os.path.splitext(os.path.basename(self.path))[0]
        if name != stem:
            self.problem("/name", DiagnosticCode.NAME, f"the session {name!r} is in {stem}.json: name it as its file")
        rules = {rule: (entry["text"], entry["source"]) for rule, entry in value["rules"].items()}
        levels = value.get("levels", {"stakes": [{}], "rule": ""})
        for pointer in ("/rotation/rule", "/button/rule", "/levels/rule"):
            cited = _at(value, pointer)
            if cited is not None and cited not in rules:
                hint = did_you_mean(cited, rules)
                self.problem(
                    pointer,
                    DiagnosticCode.UNKNOWN_RULE,
                    f"cites rule {cited!r}, which the session does not define{hint}",
                )
        stakes: list[dict[str, int]] = [dict(level) for level in levels["stakes"]]
        games = {game: self.game(game, entry, stakes) for game, entry in value["games"].items()}
        rotation = value.get("rotation")
        order: tuple[str, ...] = tuple(rotation["games"]) if rotation else (next(iter(games)),)
        for index, game in enumerate(order):
            if game not in games:
                hint = did_you_mean(game, games)
                self.problem(f"/rotation/games/{index}", DiagnosticCode.UNKNOWN_NAME, f"no game {game!r}{hint}")
        change = rotation["change"] if rotation else ""
        if change == "hands" and "hands" not in rotation:
            self.problem("/rotation", DiagnosticCode.MISSING, "a rotation by 'hands' says how many: give hands")
        if change != "hands" and rotation and "hands" in rotation:
            self.problem(
                "/rotation/hands", DiagnosticCode.SCHEMA, f"hands is for a rotation by 'hands', not by {change!r}"
            )
        if self.found or any(game is None for game in games.values()):
            return None, self.found
        length = levels.get("length", {})
        button = value.get("button", {"without_button": "moves"})
        return (
            SessionSpec(
                name,
                value["title"],
                value["description"],
                self.path,
                {game: entry for game, entry in games.items() if entry is not None},
                order,
                change,
                rotation.get("hands") if rotation else None,
                button["without_button"],
                tuple(stakes),
                length.get("hands"),
                length.get("minutes"),
                rules,
            ),
            self.found,
        )

    def game(self, name: str, entry: Mapping[str, Any], stakes: Sequence[Mapping[str, int]]) -> SessionGame | None:
        """One game checked: its structure found, its cards known and fitting its streets, its
        inputs the structure's table inputs (none the cards give hand by hand), every stake named
        given by every level, its table and options taken by its engine at every level."""
        from betspec import cards

        pointer = f"/games/{name}"
        cls = self.structure(f"{pointer}/structure", entry["structure"])
        if cls is None:
            return None
        if entry.get("cards"):
            code = entry["cards"]
            if code not in cards.GAMES:
                hint = did_you_mean(code, cards.GAMES)
                self.problem(
                    f"{pointer}/cards", DiagnosticCode.GAME, f"no PHH variant {code!r}{hint}: {', '.join(cards.GAMES)}"
                )
                return None
            if cards.GAMES[code].streets != len(cls.STREETS):
                self.problem(
                    f"{pointer}/cards",
                    DiagnosticCode.GAME,
                    f"{code} deals {cards.GAMES[code].streets} streets; {cls.SPEC_NAME} bets {len(cls.STREETS)}",
                )
                return None
        inputs: dict[str, Stake] = dict(entry["inputs"])
        broken = False
        for input_name, given in inputs.items():
            where = f"{pointer}/inputs/{input_name}"
            declared = cls.INPUTS.get(input_name)
            if declared is None:
                hint = did_you_mean(input_name, cls.INPUTS)
                self.problem(
                    where, DiagnosticCode.UNKNOWN_NAME, f"{cls.SPEC_NAME} has no table input {input_name!r}{hint}"
                )
                broken = True
                continue
            if declared.hand:
                why = (
                    "the cards decide it hand by hand"
                    if declared.type in ("seat", "seat?")
                    else "it is given for one hand"
                )
                self.problem(where, DiagnosticCode.SCOPE, f"{input_name} is not the session's to give: {why}")
                broken = True
            for index, item in enumerate(given if isinstance(given, list) else [given]):
                if isinstance(item, str) and not all(item in level for level in stakes):
                    missing = next(number for number, level in enumerate(stakes) if item not in level)
                    at = f"{where}/{index}" if isinstance(given, list) else where
                    hint = did_you_mean(item, stakes[missing])
                    self.problem(at, DiagnosticCode.UNKNOWN_NAME, f"level {missing + 1} has no stake {item!r}{hint}")
                    broken = True
        for input_name, declared in cls.INPUTS.items():
            if declared.required and not declared.hand and input_name not in inputs:
                self.problem(
                    f"{pointer}/inputs", DiagnosticCode.MISSING, f"{cls.SPEC_NAME} needs the table's {input_name}"
                )
                broken = True
        if broken:
            return None
        game = SessionGame(
            name,
            entry["title"],
            entry["structure"],
            cls,
            entry.get("cards", ""),
            inputs,
            dict(entry.get("options", {})),
        )
        for number, level in enumerate(stakes, 1):
            try:
                table = cls.example_table([1000] * 3, 0, **game.table_inputs(level))
                cls(table, **game.options)
            except InvalidTable as exc:
                self.problem(f"{pointer}", DiagnosticCode.BOUNDS, f"at level {number}: {exc.message}")
                return None
        return game

    def structure(self, pointer: str, given: str) -> type[Engine] | None:
        """The engine class of a game's structure: a shipped spec's (or the project's) by name, or a
        house spec's file relative to the session's folder, made in memory."""
        from betspec.runtime import engine_class, engine_names

        if given.endswith(".json"):
            from betspec import house

            path = os.path.join(os.path.dirname(os.path.abspath(self.path)), given)
            if not os.path.isfile(path):
                self.problem(pointer, DiagnosticCode.IO, f"no spec file {given} beside the session")
                return None
            try:
                return house.load(path)
            except SpecError as exc:
                self.problem(pointer, DiagnosticCode.EXTENDS, f"{given} does not load: {exc.diagnostics[0].message}")
                return None
        try:
            return engine_class(given)
        except LookupError:
            hint = did_you_mean(given, engine_names())
            self.problem(pointer, DiagnosticCode.UNKNOWN_NAME, f"no structure {given!r}{hint}")
            return None


def _at(value: Mapping[str, Any], pointer: str) -> Any:
    found: Any = value
    for token in pointer.strip("/").split("/"):
        if not isinstance(found, Mapping) or token not in found:
            return None
        found = found[token]
    return found


def checking_or_folding(engine: Engine) -> str:
    """The action of a seat that puts in no chip it need not: check where free, else fold (a
    bring-in owed, brought in): what a session case's hands without steps play, and what
    ``validate --deep`` walks a session's games and levels with."""
    legal = engine.legal_actions()
    return next(action for action in ("check", "fold", "bring_in", "call", *legal) if action in legal)


# ---- the host's side: hand after hand ------------------------------------------------------


class Session:
    """The hands of a session, one after another: ``engine()`` builds the hand to play, and once it
    is settled ``next_engine(engine)`` (or ``next_table``) the next, carrying the stacks, the seats
    and the button, and changing the game and the level as the spec says.

    Players keep their numbers (0 to n-1) for the whole session; each hand's seats are the players
    with chips, in order (``seats`` maps a hand's seat to its player). ``changes`` says what the
    hand about to be dealt starts (a game, a level); ``over`` is True once fewer than two players
    have chips. ``clock`` gives seconds (time.monotonic by default): levels by minutes read it."""

    def __init__(
        self,
        spec: SessionSpec,
        stacks: Sequence[int],
        button: int = 0,
        *,
        clock: Callable[[], float] | None = None,
        first_game: str | None = None,
    ) -> None:
        if not isinstance(spec, SessionSpec):
            raise InvalidTable(f"a session is made from a SessionSpec (betspec.session.load), not {shown(spec)}")
        if (
            not isinstance(stacks, list | tuple)
            or not 2 <= len(stacks) <= 10
            or any(type(stack) is not int or stack < 0 for stack in stacks)
        ):
            raise InvalidTable(f"a session's stacks are 2 to 10 whole numbers of chips, not {shown(stacks)}")
        if type(button) is not int or not 0 <= button < len(stacks) or stacks[button] <= 0:
            raise InvalidTable(f"the button {shown(button)} is not a player with chips (0..{len(stacks) - 1})")
        if sum(1 for stack in stacks if stack > 0) < 2:
            raise InvalidTable("a session needs two players with chips")
        self.spec = spec
        #: What names this session in hand histories (PHH ``_session``): the spec's name unless the
        #: host names the night (two sessions of one spec are told apart by it).
        self.id = spec.name
        self.stacks: list[int] = list(stacks)
        self.button = button
        self.clock = clock or time.monotonic
        self.started = self.clock()
        self.hand = 1  # the number of the hand about to be played (or being played)
        self.level = 0
        if first_game is not None and first_game not in spec.games:
            raise InvalidTable(f"{spec.name} has no game {shown(first_game)}: {', '.join(spec.games)}")
        first = first_game or spec.rotation[0]
        # The place in the rotation: a session begun at another game than the first goes on from it.
        self._turn = spec.rotation.index(first) if first in spec.rotation else 0
        self.game = spec.games[first]
        self.game_hands = 0  # hands dealt of the current game
        self.game_length = self._length()
        self.seats = [player for player, stack in enumerate(self.stacks) if stack > 0]
        self.changes = [f"game: {self.game.title}", *self._level_text()]
        self._carried: dict[str, object] = {}  # inputs the last hand's table carries to the next
        self._chose = button  # the player who chose the game being dealt (dealer's choice)
        self._recorded: object = None  # the last hand next_table recorded: none is recorded twice

    # ---- the hand to play ------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return sum(1 for stack in self.stacks if stack > 0) < 2

    @property
    def carried_pot(self) -> int:
        """The chips of a dead hand (nobody opened) waiting in the middle for the next deal."""
        carried = self._carried.get(CARRIED_POT, 0)
        return carried if isinstance(carried, int) else 0

    @property
    def chips(self) -> int:
        """Every chip of the session's table: the stacks and a dead hand's pot carried."""
        return sum(self.stacks) + self.carried_pot

    @property
    def stakes(self) -> Mapping[str, int]:
        """The level's stakes, by name."""
        return self.spec.levels[self.level]

    @property
    def choosing(self) -> bool:
        """Whether the hand being played is its game's last, the next starting a game the host
        chooses (dealer's choice): ``next_table`` then takes the game's name."""
        return self.spec.change == "choice" and self.game_hands + 1 >= self.game_length

    def table(self) -> Table:
        """The table of the hand about to be played: the players with chips, the button, the game's
        inputs at the level, and what the last table carried that this game declares too."""
        from betspec.runtime import Table

        if self.over:
            raise InvalidTable("the session is over: fewer than two players have chips")
        seats = [player for player, stack in enumerate(self.stacks) if stack > 0]
        button = self.button if self.button in seats else next((p for p in seats if p > self.button), seats[0])
        declared = self.game.cls.INPUTS
        inputs = {name: value for name, value in self._carried.items() if name in declared or name == CARRIED_POT}
        inputs.update(self.game.table_inputs(self.stakes))
        return Table.of([self.stacks[player] for player in seats], seats.index(button), inputs)

    def engine(self, **hand_inputs: object) -> Engine:
        """The hand about to be played, with the inputs the cards give for it (``bring_in_seat``)."""
        from betspec.runtime import Table

        table = self.table()
        if hand_inputs:
            table = Table.of(table.stacks, table.button, {**table.inputs, **hand_inputs})
        return self.game.cls(table, **self.game.options)

    def dealer(self, seed: object) -> Dealer | None:
        """A dealer of the current game's cards for the hand about to be played (None: no cards)."""
        from betspec.cards import Dealer

        game = self.game.card_game
        seats = sum(1 for stack in self.stacks if stack > 0)
        return None if game is None else Dealer(game, seats, seed=seed)

    # ---- after a hand ----------------------------------------------------------------------

    def next_table(self, engine: Engine, game: str | None = None) -> Table:
        """Record the settled hand ``engine`` and give the next hand's table: its stacks, the button
        as the structure moves it (kept where it stood during a game without one, if the session
        freezes it), the game and level in force. ``game`` names the next game where the host
        chooses it (``choosing``); elsewhere it must be None."""
        from betspec.runtime import Engine

        if not isinstance(engine, Engine) or type(engine) is not self.game.cls:
            raise InvalidTable(f"next_table takes the settled hand of {self.game.structure}, not {shown(engine)}")
        if engine.seats != len(self.seats):
            raise InvalidTable(f"the hand has {engine.seats} seats; this session dealt {len(self.seats)}")
        if engine is self._recorded:
            raise InvalidTable("that hand is recorded already: play the next one (engine(), or next_engine)")
        if game is not None and not self.choosing:
            raise InvalidTable("the next game is not the host's to choose now")
        if game is not None and game not in self.spec.games:
            raise InvalidTable(f"{self.spec.name} has no game {shown(game)}: {', '.join(self.spec.games)}")
        if game is None and self.choosing and sum(1 for s in engine.stacks if s > 0) >= 2:
            raise InvalidTable(f"dealer's choice: name the next game ({', '.join(self.spec.rotation)})")
        following = engine.next_table() if sum(1 for s in engine.stacks if s > 0) >= 2 else None
        self._recorded = engine
        for seat, player in enumerate(self.seats):
            self.stacks[player] = engine.stacks[seat]
        live = [player for player in self.seats if self.stacks[player] > 0]
        if following is not None and not (not self.game.has_button and self.spec.without_button == "frozen"):
            self.button = live[following.button]
        # What the table carries to the next hand, the stakes aside: each game gives its own (an
        # ante of stud's is not hold'em's).
        given = {name for entry in self.spec.games.values() for name in entry.inputs}
        self._carried = {n: v for n, v in following.inputs.items() if n not in given} if following is not None else {}
        self.hand += 1
        self.game_hands += 1
        self.changes = []
        if self.over:
            raise InvalidTable("the session is over: fewer than two players have chips")
        if self.game_hands >= self.game_length and self.spec.change:
            self._change(game)
        level = self._level_now()
        if level != self.level:
            self.level = level
            self.changes += self._level_text()
        self.seats = live
        return self.table()

    def next_engine(self, engine: Engine, game: str | None = None, **hand_inputs: object) -> Engine:
        """The next hand's engine (see :meth:`next_table`), with the inputs the cards give for it."""
        self.next_table(engine, game)
        return self.engine(**hand_inputs)

    def _change(self, chosen: str | None) -> None:
        if self.spec.change == "choice":
            if chosen is None:
                raise InvalidTable(f"dealer's choice: name the next game ({', '.join(self.spec.rotation)})")
            name = chosen
            self._chose = self._left_of_chooser([player for player, stack in enumerate(self.stacks) if stack > 0])
        else:
            self._turn = (self._turn + 1) % len(self.spec.rotation)
            name = self.spec.rotation[self._turn]
        self.game = self.spec.games[name]
        self.game_hands = 0
        self.game_length = self._length()
        self.changes.append(f"game: {self.game.title}")
        # A dead hand's pot is money: it goes to the next deal whatever the game.
        declared = self.game.cls.INPUTS
        self._carried = {n: v for n, v in self._carried.items() if n in declared or n == CARRIED_POT}

    def _length(self) -> int:
        """The hands the current game is dealt: an orbit (a hand per player dealt in), or the
        spec's count; a single game, the whole session."""
        if self.spec.change == "hands" and self.spec.change_hands:
            return self.spec.change_hands
        return sum(1 for stack in self.stacks if stack > 0)

    def _level_now(self) -> int:
        last = len(self.spec.levels) - 1
        if self.spec.level_hands:
            return min(last, (self.hand - 1) // self.spec.level_hands)
        if self.spec.level_minutes:
            return min(last, int((self.clock() - self.started) // (60 * self.spec.level_minutes)))
        return 0

    def _level_text(self) -> list[str]:
        if len(self.spec.levels) == 1:
            return []
        stakes = ", ".join(f"{name} {value}" for name, value in self.stakes.items())
        return [f"level {self.level + 1}: {stakes}"]

    def chooser(self, engine: Engine) -> int:
        """Who chooses the next game where the host chooses it (dealer's choice), once ``engine`` is
        settled: the first choice is the first button's, each next the next player's on the left
        with chips (an orbit brings the button back to the same player: the choice moves on)."""
        live = [player for seat, player in enumerate(self.seats) if engine.stacks[seat] > 0]
        return self._left_of_chooser(live)

    def _left_of_chooser(self, live: Sequence[int]) -> int:
        """The next player on the left of the last to choose, among ``live``."""
        return next((player for player in live if player > self._chose), live[0] if live else self._chose)

    # ---- for tools ------------------------------------------------------------------------

    def choose_at_random(self, rng: random.Random) -> str | None:
        """A game for dealer's choice drawn from the rotation (None where the host does not choose)."""
        return rng.choice(list(self.spec.rotation)) if self.choosing else None
