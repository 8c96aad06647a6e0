"""``betspec phh``: the sub-commands ``check`` and ``to-case``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import cast

from betspec.tools.phh.runners import BACKENDS


def _out(line: str) -> None:
    print(line, flush=True)


def _err(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def cmd_check(args: argparse.Namespace, project: object = None) -> int:
    """Replay every hand of the files and check its pots; exit 1 when a hand is refused, invalid,
    misdealt or paid otherwise than the file says, 2 on a bad file."""
    # The reader, the engines and the evaluators, loaded only when a check runs.
    from betspec.tools.phh.audit import Report, check_files, checked_under, phh_files
    from betspec.tools.phh.model import PhhError, _count
    from betspec.tools.phh.pots import MISPAID, PAID, UNCHECKED
    from betspec.tools.phh.replaying import parse_options

    try:
        options = parse_options(args.option)
        under_what = checked_under(_under(args), options)
    except PhhError as exc:
        _out(f"betspec phh: {exc}")
        return 2
    if args.jobs < 0:
        _out("betspec phh: --jobs is a number of processes, 0 for every core")
        return 2
    jobs = args.jobs or _cores()
    files = phh_files(args.files)
    empty = [path for path in args.files if os.path.isdir(path) and not phh_files([path])]
    for path in empty:
        _out(f"betspec phh: {path}: no .phh or .phhs file in it")
    total = Report("")
    total.unreadable = len(empty)
    several = len(files) > 1
    try:
        for report in check_files(files, under_what, options, jobs, args.on, args.address):
            for line in report.lines:
                _out(line)
            total.add(report)
            if several and not report.unreadable:
                _out(f"file {report.path}: {_count(report.hands, 'hand')}, {report.tally()}")
    except PhhError as exc:
        _out(f"betspec phh: {exc}")
        return 2
    broken = _sessions(files)
    named = f" ({', '.join(total.irregular)})" if total.irregular else ""
    unread = f"; {total.unreadable} file(s) unreadable" if total.unreadable else ""
    paid = total.paid
    checked = paid[PAID] + paid[MISPAID]
    rake = f", {total.raked} of them less a rake" if total.raked else ""
    where = f" in {len(files)} files" if several else ""
    mapped = ", ".join(f"{code} under {name}" for code, name in (args.variant or {}).items())
    under = args.structure or "each variant's structure" + (f" ({mapped})" if mapped else "")
    _out(
        f"{_count(total.hands, 'hand')} under {under}{where}: {total.tally(named)}; "
        f"pots checked against the file in {checked} ({paid[PAID]} paid as it says{rake}), "
        f"not in {paid[UNCHECKED]}{unread}"
    )
    if total.unreadable:
        return 2
    return 1 if total.failed() or broken else 0


def _sessions(files: list[str]) -> bool:
    """The hands of a session (written with its ``_session``, ``hand`` and ``seats``), followed
    from hand to hand: a line for each session, and each break in its chain of stacks; whether
    one broke."""
    from betspec.tools.phh.sessions import follow

    carried = follow(files)
    for line in carried.problems:
        _out(f"BROKEN {line}")
    for name, hands in carried.hands.items():
        broken = sum(line.startswith(f"session {name}:") for line in carried.problems)
        verdict = f"{broken} break(s) in the stacks" if broken else "each player's stack carried from hand to hand"
        _out(f"session {name}: {hands} hand(s), {verdict}")
    return bool(carried.problems)


def _under(args: argparse.Namespace) -> object:
    """What hands are checked under: --structure's, or --variant's mapping (PhhError if both)."""
    from betspec.tools.phh.model import PhhError

    if args.structure is not None and args.variant:
        raise PhhError("give --structure (every hand under one) or --variant (some variants under a house's), not both")
    return args.structure if args.structure is not None else (args.variant or None)


def _variants(text: str) -> tuple[str, str]:
    """``CODE=STRUCTURE``, as --variant is given."""
    code, equals, structure = text.partition("=")
    if not equals or not code or not structure:
        raise argparse.ArgumentTypeError(f"{text!r} is not CODE=STRUCTURE (PO=house_plo)")
    return code, structure


class _Variants(argparse.Action):
    """--variant, repeatable, gathered into one mapping of PHH codes to structures."""

    def __call__(self, parser: object, namespace: argparse.Namespace, values: object, option: object = None) -> None:
        code, structure = cast(tuple[str, str], values)
        mapping = dict(getattr(namespace, self.dest) or {})
        mapping[code] = structure
        setattr(namespace, self.dest, mapping)


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def cmd_to_case(args: argparse.Namespace, project: object = None) -> int:
    """Write each hand (or the one named) as a conformance case; exit 1 when one cannot be."""
    from betspec.tools.phh.audit import checked_under, structure_of
    from betspec.tools.phh.cases import to_case
    from betspec.tools.phh.model import Bad, Hand, Irregular, PhhError, _brief, _cut
    from betspec.tools.phh.reader import read
    from betspec.tools.phh.replaying import INVALID, Replay, engine_for, parse_options

    try:
        options = parse_options(args.option)
        under_what = checked_under(_under(args), options)
        hands = read(args.file)
    except PhhError as exc:
        _out(f"betspec phh: {exc}")
        return 2
    if args.hand is not None:
        chosen = [hand for hand in hands if hand.key == args.hand]
        if not chosen:
            keys = [hand.key for hand in hands]
            more = ", ..." if len(keys) > 10 else ""
            listed = ", ".join(_cut(key, 20) for key in keys[:10])
            _out(f"betspec phh: {args.file} has no hand {_brief(args.hand)} (it has {listed}{more})")
            return 2
        hands = chosen
    # With --out, stdout reports what was written; without, stdout is the cases, one JSON a line.
    note = _out if args.out else _err
    failed = 0
    for hand in hands:
        try:
            # Each hand under the structure asked for, else the one whose betting its variant is.
            if isinstance(hand, Bad) and args.structure is None:
                raise PhhError(Replay(hand.name, INVALID, hand.reason).line())
            structure = structure_of(cast(Hand, hand), under_what)
            case = to_case(hand, engine_for(structure, options), options)
        except Irregular as exc:
            note(f"skipped: {exc}")
            failed += args.hand is not None
            continue
        except PhhError as exc:
            note(f"skipped: {exc}")
            failed += 1
            continue
        text = json.dumps(case) + "\n"
        if not args.out:
            sys.stdout.write(text)
            continue
        path = os.path.join(args.out, f"{case['id']}.json")
        try:
            os.makedirs(args.out, exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
        except OSError as exc:
            _out(f"betspec phh: cannot write {path}: {exc.strerror or exc}")
            return 2
        _out(f"wrote {path}")
    sys.stdout.flush()
    return 1 if failed else 0


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``betspec phh`` (``check``, ``to-case``) to the ``betspec`` command's sub-commands."""
    phh = subparsers.add_parser("phh", help="hand histories in PHH: replay them through a structure, or make cases")
    commands = phh.add_subparsers(dest="phh_command", required=True)

    def structure_and_options(command: argparse.ArgumentParser) -> None:
        command.add_argument(
            "--structure",
            help="the spec whose engine replays the hands (default: the structure whose betting each hand's "
            "variant is, as `phh check` names it in its summary)",
        )
        command.add_argument(
            "--variant",
            type=_variants,
            action=_Variants,
            metavar="CODE=STRUCTURE",
            help="the hands of a PHH variant under a structure of the house's own (repeatable: PO=house_plo); "
            "the other variants under their own",
        )
        command.add_argument(
            "--option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help="a spec option (repeatable); VALUE is read as JSON (10, true, null), else as a word",
        )

    check = commands.add_parser(
        "check",
        help="replay every hand; one line per hand and a summary",
        description="Replay every hand of the files through a structure's engine: ACCEPTED, REFUSED "
        "(the first action the spec refuses, with its rule), MISPAID (every action accepted, the pots "
        "paid otherwise than the file's winnings or finishing_stacks say), IRREGULAR (forced bets a "
        "table cannot express yet; they do not fail the command) or INVALID. An accepted hand's line "
        "says whether its pots were checked against the file. Exit 1 when a hand is refused, mispaid "
        "or invalid, 2 when a file cannot be read.",
    )
    check.add_argument("files", nargs="+", metavar="FILE", help=".phh or .phhs files, or folders of them")
    structure_and_options(check)
    check.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="processes to check on (default 1; 0: every core); the lines come in the same order",
    )
    check.add_argument(
        "--on",
        choices=BACKENDS,
        default="processes",
        help="where: processes here, or Ray tasks (pip install 'betspec[ray]'; --jobs CPUs of a local cluster)",
    )
    check.add_argument("--address", help="with --on ray: the cluster's address (default: a local one)")
    check.set_defaults(run=cmd_check)
    to_case_parser = commands.add_parser(
        "to-case",
        help="write hands as conformance cases (JSON)",
        description="Write each hand the engine accepts as a conformance case, to DIR/<id>.json, or "
        "one JSON a line on stdout without --out.",
    )
    to_case_parser.add_argument("file", metavar="FILE", help="a .phh or .phhs file")
    to_case_parser.add_argument(
        "--hand", metavar="N", help="only this hand: its table name in a .phhs file (1, 2, ...)"
    )
    to_case_parser.add_argument("--out", metavar="DIR", help="the folder to write <id>.json into")
    structure_and_options(to_case_parser)
    to_case_parser.set_defaults(run=cmd_to_case)
