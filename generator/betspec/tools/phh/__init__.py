"""Hand histories in and out: PHH, the notation of the public PHH dataset (https://phh.readthedocs.io).

A ``.phh`` file is one hand written in TOML; a ``.phhs`` file holds several, as tables ``[1]``,
``[2]``, ... Only what concerns betting is read: the forced bets, the stacks, the betting actions
(``pN f``, ``pN cc``, ``pN cbr AMOUNT``) and, from a board deal (``d db``), which street opens.
Cards (hole-card deals, the board, showdowns ``pN sm``) are kept only to check the pots: where a
hand records what each player won (``winnings``) or ended with (``finishing_stacks``),
:func:`check_pots` pays the pots as the engine does, ranking a showdown with PokerKit's hand
evaluators when PokerKit is installed, and compares. Commentaries are skipped.

**Hostile input.** Whatever the bytes, reading gives hands, :class:`Bad` hands with the reason
or a :class:`PhhError` naming the file (and the hand and field): never another exception. A file
is read only if it is a regular file of at most :data:`MAX_FILE_BYTES`; numbers beyond what a
table holds, ``nan``, nesting deeper than TOML is read, and text that is not UTF-8 are refused;
what a message quotes from the input is cut short.

**Seats.** PHH lists the players clockwise from the seat after the button: the first player
posts the small blind, the last has the button. Heads-up the forced bets are read in reverse by
rule (PokerKit's convention too), so the second player, the button, posts the small blind, as a
betspec table has it. betspec seats are 0..n-1 clockwise with an explicit button: player ``pK``
is seat ``K-1`` and the button is seat ``n-1``, whatever the number of players.

**Amounts.** PHH writes amounts as the site did (dollars and cents); betspec counts whole chips.
A file's amounts are multiplied by ``10**d``, ``d`` the most decimal places any betting amount in
the file is written with (``196.20`` counts two), so every hand of a file is in the same unit;
:func:`to_phh` divides by the same scale to write a hand back in the site's units.

Forced bets become the table inputs every spec shares: blinds, straddles and lone blinds seat
by seat, antes for the table or each seat. What does not fit a betspec table (a minimum bet
other than the big blind, unknown stacks) is reported as irregular with its reason by
:func:`table_inputs`, the one place that turns PHH fields into table inputs.

The package is split by job: :mod:`.reader` reads (with :mod:`.document`, :mod:`.amounts`,
:mod:`.actions` and :mod:`.deck`, over the hand model of :mod:`.model`), :mod:`.writer` writes,
:mod:`.table`, :mod:`.replaying`, :mod:`.pots`, :mod:`.cases` and :mod:`.audit` replay and check,
:mod:`.cli` is ``betspec phh``. The public names are reachable here, as they were from the one module;
the others live in their part (``phh.document._fast_toml``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from betspec.runtime.lazy import attributes

if TYPE_CHECKING:
    from betspec.tools.phh.audit import (
        BATCH_BYTES,
        BATCH_PIECES,
        COLLECT_AFTER,
        SHARE_BYTES,
        Finished,
        Report,
        check_files,
        check_part,
        check_parts,
        finished,
        phh_files,
        replayed_in_c,
    )
    from betspec.tools.phh.cases import case_id, to_case
    from betspec.tools.phh.cli import cmd_check, cmd_to_case, register
    from betspec.tools.phh.document import FAST_ALWAYS, FAST_BYTES_A_CHARACTER, FAST_DEPTH, SLOW_BYTES_A_CHARACTER
    from betspec.tools.phh.model import (
        BOARD_STREETS,
        MAX_CHIPS,
        MAX_PLACES,
        QUOTED,
        VARIANTS,
        Act,
        Bad,
        Hand,
        Irregular,
        PhhError,
    )
    from betspec.tools.phh.pots import MISPAID, MISPAID_STATUS, NOTHING_RECORDED, PAID, UNCHECKED, Pots, check_pots
    from betspec.tools.phh.reader import LIMIT_FIELDS, MAX_FILE_BYTES, loads, read
    from betspec.tools.phh.replaying import (
        ACCEPTED,
        INVALID,
        IRREGULAR,
        LINE_ROOM,
        MISDEALT,
        REFUSED,
        Replay,
        deal_inputs,
        engine_for,
        parse_options,
        replay,
    )
    from betspec.tools.phh.runners import BACKENDS
    from betspec.tools.phh.table import ANTE_RULE, TRIMMED, UNTRIMMED, bring_in_seat, hand_options, table_inputs
    from betspec.tools.phh.writer import to_phh, to_phhs

#: Where each name of the package lives, imported when first read (PEP 562): the `betspec`
#: command registers `phh` from its cli part without loading the reader, the engines and the
#: evaluators that only `phh check` runs.
_HOMES = {
    **dict.fromkeys(
        (
            "BATCH_BYTES",
            "BATCH_PIECES",
            "COLLECT_AFTER",
            "Finished",
            "Report",
            "SHARE_BYTES",
            "check_files",
            "check_part",
            "check_parts",
            "finished",
            "phh_files",
            "replayed_in_c",
        ),
        "audit",
    ),
    **dict.fromkeys(("case_id", "to_case"), "cases"),
    **dict.fromkeys(("cmd_check", "cmd_to_case", "register"), "cli"),
    "BACKENDS": "runners",
    **dict.fromkeys(("FAST_ALWAYS", "FAST_BYTES_A_CHARACTER", "FAST_DEPTH", "SLOW_BYTES_A_CHARACTER"), "document"),
    **dict.fromkeys(
        (
            "Act",
            "BOARD_STREETS",
            "Bad",
            "Hand",
            "Irregular",
            "MAX_CHIPS",
            "MAX_PLACES",
            "PhhError",
            "QUOTED",
            "VARIANTS",
        ),
        "model",
    ),
    **dict.fromkeys(
        ("MISPAID", "MISPAID_STATUS", "NOTHING_RECORDED", "PAID", "Pots", "UNCHECKED", "check_pots"), "pots"
    ),
    **dict.fromkeys(("LIMIT_FIELDS", "MAX_FILE_BYTES", "loads", "read"), "reader"),
    **dict.fromkeys(
        (
            "ACCEPTED",
            "INVALID",
            "IRREGULAR",
            "LINE_ROOM",
            "MISDEALT",
            "REFUSED",
            "Replay",
            "deal_inputs",
            "engine_for",
            "parse_options",
            "replay",
        ),
        "replaying",
    ),
    **dict.fromkeys(("ANTE_RULE", "TRIMMED", "UNTRIMMED", "bring_in_seat", "hand_options", "table_inputs"), "table"),
    **dict.fromkeys(("to_phh", "to_phhs"), "writer"),
}

#: The package's parts, each reachable as an attribute once read (``phh.document``).
_PARTS = (
    "actions",
    "amounts",
    "audit",
    "cases",
    "cli",
    "deck",
    "document",
    "model",
    "pots",
    "reader",
    "replaying",
    "runners",
    "table",
    "writer",
)


__getattr__ = attributes("betspec.tools.phh", _HOMES, globals(), _PARTS)


__all__ = [
    "ACCEPTED",
    "ANTE_RULE",
    "BACKENDS",
    "BATCH_BYTES",
    "BATCH_PIECES",
    "BOARD_STREETS",
    "COLLECT_AFTER",
    "FAST_ALWAYS",
    "FAST_BYTES_A_CHARACTER",
    "FAST_DEPTH",
    "INVALID",
    "IRREGULAR",
    "LIMIT_FIELDS",
    "LINE_ROOM",
    "MAX_CHIPS",
    "MAX_FILE_BYTES",
    "MAX_PLACES",
    "MISDEALT",
    "MISPAID",
    "MISPAID_STATUS",
    "NOTHING_RECORDED",
    "PAID",
    "QUOTED",
    "REFUSED",
    "SHARE_BYTES",
    "SLOW_BYTES_A_CHARACTER",
    "TRIMMED",
    "UNCHECKED",
    "UNTRIMMED",
    "VARIANTS",
    "Act",
    "Bad",
    "Finished",
    "Hand",
    "Irregular",
    "PhhError",
    "Pots",
    "Replay",
    "Report",
    "bring_in_seat",
    "case_id",
    "check_files",
    "check_part",
    "check_parts",
    "check_pots",
    "cmd_check",
    "cmd_to_case",
    "deal_inputs",
    "engine_for",
    "finished",
    "hand_options",
    "loads",
    "parse_options",
    "phh_files",
    "read",
    "register",
    "replay",
    "replayed_in_c",
    "table_inputs",
    "to_case",
    "to_phh",
    "to_phhs",
]
