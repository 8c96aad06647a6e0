"""Writing PHH: the hand an engine has played as PHH text."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from betspec.runtime.errors import BetspecError
from betspec.tools.phh.model import MAX_PLACES, VARIANTS, PhhError, _brief, _per_seat, _unit, _units

if TYPE_CHECKING:
    from betspec.cards import Dealer, Game
    from betspec.runtime import Engine
    from betspec.session import Session


def to_phh(
    engine: Engine,
    scale: int = 1,
    variant: str | None = None,
    cards: Dealer | None = None,
    session: Session | None = None,
) -> str:
    """The hand an engine has played (its table and history) as PHH text, amounts as chips divided by ``scale``.

    Any hand played from the deal is written: all-ins, any button, bring-ins, draws. ``cards``
    is the :class:`betspec.cards.Dealer` that dealt the hand: its hole cards, board, draws and
    showdown (``pN sm``, for the seats still in when the hand is over) are written; without it
    every card is unknown (``??``) and every draw stands pat. The variant is the dealer's game,
    else ``variant``, else the variant dealing the cards the structure's spec declares
    (:func:`betspec.cards.game_of`: PHH has no code for pot-limit hold'em, written ``NT``, which
    allows every pot-limit action).
    The same hand always gives the same bytes: fields in a fixed order, no timestamps.
    Declarations (out of turn, a raise said without its amount) are written as the chips they
    moved; a timeout, whose hand is dead, is a fold. PHH lists the players from the seat after
    the button, which is the last: seat ``s`` is player ``(s - button - 1) % n + 1``, so a hand
    read back has the button on its last seat (the same hand, the seats renumbered).
    ``session`` is the :class:`betspec.session.Session` the hand was dealt in (before its
    ``next_table``): the file then says the session (``event``, and ``_session``, its ``id``), the
    hand's number (``hand``), the level (``level``), the game (``_game``) and each player's seat
    number in the session (``seats``, from 1), which ``phh check`` follows from hand to hand.
    """
    game = _game_to_write(engine, scale, variant, cards)
    table = engine.table
    # What each seat posted before the first action, as the spec's forced bets post it: live
    # chips are PHH's blinds and straddles, dead ones (antes, a dead small blind) its antes.
    fresh = type(engine)(table, **cast(dict[str, Any], engine.options))
    n = len(table.stacks)
    empty = [seat for seat, stack in enumerate(table.stacks) if stack <= 0]
    if empty:
        raise PhhError(f"seat {empty[0]} has no chips: PHH lists the players dealt in, every stack positive")
    order = [(engine.button + 1 + i) % n for i in range(n)]
    fields = _forced_bet_fields(engine, fresh, order, game, scale)
    fields.append(("starting_stacks", _units([table.stacks[seat] for seat in order], scale)))
    actions = _action_lines(engine, fresh, order, game, cards, scale)
    fields.append(("actions", "[" + ", ".join(_literal(a) for a in actions) + "]"))
    if engine.paid:  # what the settlement left each player: what a reader checks its pots against
        fields.append(("finishing_stacks", _units([engine.stacks[seat] for seat in order], scale)))
        # What the house took (and its jackpot paid), as PHH's user-defined fields (PHH has none of its own: the
        # finishing stacks show it); a reader checking under the same spec takes the same.
        for name, taken in (
            ("_rake", engine.rake),
            ("_jackpot_drop", engine.jackpot_drop),
            ("_jackpot_paid", engine.jackpot_paid),
        ):
            if taken:
                fields.append((name, _unit(taken, scale)))
    if session is not None:
        from betspec.session import Session

        if not isinstance(session, Session) or len(session.seats) != n:
            raise PhhError(f"session is the betspec.session.Session the hand was dealt in, not {_brief(session)}")
        fields += _session_fields(session, order)
    return "".join(f"{name} = {value}\n" for name, value in fields)


def _session_fields(session: Session, order: Sequence[int]) -> list[tuple[str, str]]:
    """Where a hand stands in its session: PHH's event, hand, level and seats, and the session's
    id and game as user-defined fields."""
    return [
        ("event", _literal(session.spec.title)),
        ("hand", str(session.hand)),
        ("level", str(session.level + 1)),
        ("seats", "[" + ", ".join(str(session.seats[seat] + 1) for seat in order) + "]"),
        ("_session", _literal(session.id)),
        ("_game", _literal(session.game.name)),
    ]


def _spec_code(cls: type[Engine]) -> str:
    """The PHH variant that deals the cards the structure's spec declares ('' if none does)."""
    from betspec.cards import CardError, game_of

    try:
        return game_of(cls).code
    except CardError:
        return ""


def _game_to_write(engine: Engine, scale: int, variant: str | None, cards: Dealer | None) -> Game:
    """The PHH game an engine's hand is written as (see :func:`to_phh`), or :class:`PhhError`
    saying why the arguments or the hand cannot be written."""
    from betspec.cards import Dealer
    from betspec.runtime import Engine

    if not isinstance(engine, Engine):
        raise PhhError(f"to_phh writes the hand of an engine, not of {_brief(engine)}")
    if type(scale) is not int or scale < 1 or scale > 10**MAX_PLACES or str(scale).rstrip("0") != "1":
        raise PhhError(f"the scale is a power of ten from 1 to 10**{MAX_PLACES}, not {_brief(scale)}")
    if variant is not None and not isinstance(variant, str):
        raise PhhError(f"a variant is a PHH code ({', '.join(VARIANTS)}), not {_brief(variant)}")
    if cards is not None and not isinstance(cards, Dealer):
        raise PhhError(f"cards are a betspec.cards.Dealer, not {_brief(cards)}")
    if cards is not None and cards.other_boards:
        raise PhhError(f"the hand was dealt on {len(cards.all_boards)} boards: a PHH hand has one board")
    cls = type(engine)
    code = cards.game.code if cards is not None else variant or _spec_code(cls)
    if not code:
        code = "FT" if "bets" in cls.INPUTS and "blinds" in cls.INPUTS else "NT"
    if code not in VARIANTS:
        raise PhhError(f"variant {_brief(code)} is not one betspec writes ({', '.join(VARIANTS)})")
    game = VARIANTS[code]
    if variant is not None and variant != code:
        raise PhhError(f"the cards were dealt as {code}, not {_brief(variant)}")
    if len(cls.STREETS) != game.streets:
        raise PhhError(
            f"{engine.SPEC_NAME} deals {', '.join(cls.STREETS)}: "
            f"variant {code} ({game.name}) has {game.streets} streets"
        )
    table = engine.table
    if engine.start is not None:
        raise PhhError(f"a hand started on the {engine.start.street} has no PHH form: PHH hands start with the deal")
    items = _items(cls)
    fixed = "small_bet" in items and "big_bet" in items
    if (game.limits != "min_bet") != fixed:
        need = "fixed bets" if game.limits != "min_bet" else "no fixed bets"
        raise PhhError(f"variant {code} is {game.name}: it needs a structure with {need}")
    if game.limits == "bring_in" and "bring_in" not in cls.INPUTS:
        raise PhhError(f"variant {code} brings in: {engine.SPEC_NAME} has no bring-in")
    if cards is not None and cards.seats != len(table.stacks):
        raise PhhError(f"the dealer dealt {cards.seats} seats, the table has {len(table.stacks)}")
    return game


def _items(cls: type[Engine]) -> dict[str, tuple[str, int]]:
    """Each item of the structure's list inputs, by name: (the input, its index)."""
    return {item: (name, i) for name, declared in cls.INPUTS.items() for i, item in enumerate(declared.items)}


def _table_item(engine: Engine, name: str) -> int:
    """An input of the engine's table, or an item of one (``small_bet`` of ``bets``); 0 where it has none."""
    cls, table = type(engine), engine.table
    items = _items(cls)
    if name not in items:
        value = table.get(name) if name in cls.INPUTS else 0
        return int(cast(int, value or 0))
    value = table.get(items[name][0])
    return int(cast(Sequence[int], value)[items[name][1]]) if isinstance(value, Sequence) else 0


def _forced_bet_fields(
    engine: Engine, fresh: Engine, order: list[int], game: Game, scale: int
) -> list[tuple[str, str]]:
    """The fields of the variant, the forced bets (as ``fresh``, the hand's start, posted them,
    seats in PHH ``order``) and the limits, in the order PHH writes them."""
    live = [fresh.committed[seat] for seat in order]
    dead = [fresh.contributed[seat] - fresh.committed[seat] for seat in order]
    # PHH's antes are dead money unless ante_trimming_status says they are their posters' stakes
    # (each seat's stake, less what it posted live, is its ante of kind ante): one or the other.
    staked = any(fresh.stakes[seat] > fresh.committed[seat] for seat in order)
    if staked and any(fresh.contributed[seat] > fresh.stakes[seat] for seat in order):
        raise PhhError(
            "antes that are their posters' stakes and dead money in one hand have no PHH form "
            "(ante_trimming_status makes every ante one or the other)"
        )
    if game.limits == "bring_in":
        if any(live):
            raise PhhError("a stud hand posts antes only before the deal: PHH has no blinds in stud")
        fields: list[tuple[str, str]] = [
            ("variant", _literal(game.code)),
            ("antes", _units(_per_seat(tuple(dead)), scale)),
        ]
        fields.append(("bring_in", _unit(_table_item(engine, "bring_in"), scale)))
    else:
        fields = [
            ("variant", _literal(game.code)),
            ("antes", _units(_per_seat(tuple(dead)), scale)),
            ("blinds_or_straddles", _units(_per_seat(tuple(live)), scale)),
        ]
    if game.limits != "min_bet":
        fields += [
            ("small_bet", _unit(_table_item(engine, "small_bet"), scale)),
            ("big_bet", _unit(_table_item(engine, "big_bet"), scale)),
        ]
    else:
        fields.append(("min_bet", _unit(max(_table_item(engine, "big_blind"), 1), scale)))
    if staked:
        fields.append(("ante_trimming_status", "true"))
    return fields


def _action_lines(
    engine: Engine, fresh: Engine, order: list[int], game: Game, cards: Dealer | None, scale: int
) -> list[str]:
    """The ``actions`` of the engine's hand: its history replayed on ``fresh`` (the hand's start),
    each step written as the chips it moved, the streets' deals, and the showdown."""
    from betspec.runtime.snapshot import _replay

    player = {seat: i + 1 for i, seat in enumerate(order)}
    streets = type(engine).STREETS
    actions = _deal_lines(game, cards, fresh, order, player, 0)
    for number, (seat, action, argument) in enumerate(engine.history, 1):
        if seat == -2:
            continue  # the settlement: PHH writes the showdown below
        if seat == -1:
            actions += _deal_lines(game, cards, fresh, order, player, streets.index(action))
        before_level, before = fresh.bet_level, fresh.committed[seat] if seat >= 0 else 0
        was_folded = fresh.folded[seat] if seat >= 0 else False
        try:
            _replay(fresh, number, [seat, action, argument])
        except (BetspecError, TypeError, ValueError) as exc:  # not expected: the log is the hand's
            raise PhhError(f"the history's step {number} ({_brief(action)}) cannot be replayed: {exc}") from None
        if seat < 0:
            continue
        moved = _chips_moved(fresh, seat, action, before_level, before, was_folded, scale)
        if moved:
            actions.append(f"p{player[seat]} {moved}")
    if cards is not None and fresh.hand_over:
        showing = [seat for seat in order if not fresh.folded[seat]]
        if len(showing) > 1:
            for seat in showing:
                actions.append(f"p{player[seat]} sm {''.join(cards.hole[seat])}")
        elif cards.claimed is not None:  # shown to claim a payment outside the pot (the 7-2 bounty)
            actions.append(f"p{player[cards.claimed]} sm {''.join(cards.hole[cards.claimed])}")
    return actions


def _chips_moved(
    fresh: Engine, seat: int, action: object, before_level: int, before: int, was_folded: bool, scale: int
) -> str:
    """A seat's step as PHH writes what it did (``f``, ``pb``, ``cbr AMOUNT``, ``cc``), its
    stake ``before`` and the bet level ``before_level`` as they stood; "" for a declaration that
    moved no chips (the action it binds to follows)."""
    after = fresh.committed[seat]
    if fresh.folded[seat] and not was_folded:
        return "f" + (" # timeout: the hand is dead" if action == "timeout" else "")
    if action == "bring_in":
        return "pb"
    if after > before_level and fresh.bet_level > before_level:
        return f"cbr {_unit(after, scale)}"
    if after != before or action in ("check", "call", "all_in", "push"):
        return "cc"
    return ""


def _deal_lines(
    game: Game, cards: Dealer | None, fresh: Engine, order: list[int], player: dict[int, int], street: int
) -> list[str]:
    """The deal lines of a street: draws (each seat still in, in PHH order), hole cards, board."""
    lines: list[str] = []
    still_in = [seat for seat in order if not fresh.folded[seat]]
    if game.draw and street > 0:
        for seat in still_in:
            discards = cards.draws[street].get(seat, []) if cards is not None else []
            lines.append(f"p{player[seat]} sd {''.join(discards)}".rstrip())
    if cards is not None:
        dealt = dict(cards.dealt[street])
        for seat in order:
            if seat in dealt:
                lines.append(f"d dh p{player[seat]} {''.join(dealt[seat])}")
        if cards.boards[street]:
            lines.append(f"d db {''.join(cards.boards[street])}")
        return lines
    if game.hole[street]:
        for seat in still_in if street else order:
            lines.append(f"d dh p{player[seat]} {'??' * len(game.hole[street])}")
    if game.board[street]:
        lines.append(f"d db {'??' * game.board[street]}")
    return lines


def to_phhs(texts: Sequence[str]) -> str:
    """Several hands written by :func:`to_phh` as one ``.phhs`` file: tables ``[1]``, ``[2]``, ..."""
    return "\n".join(f"[{number}]\n{text}" for number, text in enumerate(texts, 1))


def _literal(text: str) -> str:
    """A TOML string: literal (single quotes) when it can be, else basic with escapes."""
    if "'" not in text and "\n" not in text and text.isprintable():
        return f"'{text}'"
    return json.dumps(text)  # a JSON string is a valid TOML basic string for printable text
