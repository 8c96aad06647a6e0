"""`betspec diff`: what a rule change changes, as the shortest hands on which two rules disagree.

``betspec diff no_limit pot_limit`` compares two structures; ``betspec diff no_limit --option
underraise_rule=half`` one structure under two option sets (its defaults, and these). The search
(:func:`betspec.tools.explore.differences`) plays both on the same small tables, one move deeper at a
time, and stops at the first hand on which they answer differently (a legal set, a bound, a
ruling, or a refusal). The hand is printed with both answers and the rules each side cites, and
written as two conformance cases, one for each side, that pass under the side they were written
for. ``--all`` does it for every value of every option of the structures given (every concrete
spec by default): what each option changes, or that it changes nothing within the bound.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from betspec.runtime.errors import shown

if TYPE_CHECKING:
    from betspec.project import Project
    from betspec.runtime import Engine
    from betspec.tools.explore import Disagreement

_SLUG = re.compile(r"[^a-z0-9]+")


def _out(line: str = "") -> None:
    print(line, flush=True)


def _slug(text: str) -> str:
    return _SLUG.sub("-", text.lower()).strip("-")


def parse_option(pair: str) -> tuple[str, Any]:
    """``NAME=VALUE``: a VALUE is read as a JSON scalar, else as a word (``underraise_rule=half``)."""
    name, equals, raw = pair.partition("=")
    if not equals or not name.strip():
        raise argparse.ArgumentTypeError(f"an option is NAME=VALUE, not {shown(pair)}")
    try:
        value: Any = json.loads(raw)
    except ValueError:  # not JSON (a number too long to read included): a word
        value = raw
    except RecursionError:
        raise argparse.ArgumentTypeError(f"option {shown(name.strip())}: a value is a JSON scalar or a word") from None
    return name.strip(), value


def compare(
    left: type[Engine],
    left_options: Mapping[str, Any],
    right: type[Engine],
    right_options: Mapping[str, Any],
    depth: int,
    budget: int,
) -> Disagreement | None:
    """The shortest disagreement of two engine classes under their options, over the left one's
    small tables; each side's options win over the options both share for a table."""
    from betspec.tools.explore import build, configurations, differences

    given = set(left_options) | set(right_options)
    setups = ((table, {k: v for k, v in shared.items() if k not in given}) for table, shared in configurations(left))
    return differences(
        lambda table, shared: build(left, table, {**shared, **left_options}),
        lambda table, shared: build(right, table, {**shared, **right_options}),
        setups,
        depth,
        budget,
    )


def _rules(
    cls: type[Engine],
    options: Mapping[str, Any],
    found: Disagreement,
    side: Mapping[str, Any],
    other: Mapping[str, Any],
) -> list[str]:
    """The rules behind one side's answer: its refusal, or why it refuses what the other allows."""
    from betspec.tools.explore import _replayed, build

    if "error" in side:
        return [f"{side['error']} by rule {side.get('rule', '?')}"]
    engine = _replayed(lambda t, s: build(cls, t, {**s, **options}), found.table, found.shared, found.moves)
    if engine is None or engine.to_act is None:
        return []
    out = []
    for action in sorted(set(other.get("legal") or []) - set(side.get("legal") or [])):
        refusal = engine._refusal(action, engine.to_act, None)
        if refusal is not None:
            out.append(f"{action} refused by rule {refusal.rule}")
    return out


def describe(found: Disagreement, left: str, right: str, rules: tuple[list[str], list[str]]) -> list[str]:
    """The disagreement as lines a rule author reads."""
    from betspec.tools.explore import shown as said

    lines = [f"table {json.dumps(found.table.to_json())}" + (f", options {found.shared}" if found.shared else "")]
    lines += [f"  {number}. {said(move)}" for number, move in enumerate(found.moves, 1)] or ["  (before any move)"]
    keys = sorted(set(found.left) | set(found.right))
    for key in keys:
        a, b = found.left.get(key), found.right.get(key)
        if a != b:
            lines.append(f"  {key}: {left} {shown(a)}, {right} {shown(b)}")
    for name, cited in zip((left, right), rules, strict=True):
        if cited:
            lines.append(f"  {name}: {'; '.join(cited)}")
    return lines


def cmd_diff(args: argparse.Namespace, project: Project) -> int:
    # Long because it is the command's whole way, argument checks to the written cases, in the
    # order a reader follows it; the search itself is explore's.
    from betspec.project import write_atomically
    from betspec.runtime import engine_class, engine_names
    from betspec.tools.explore import _scale, _variants, as_case

    if args.depth < 1 or args.budget < 1:
        _out("diff: --depth and --budget must be at least 1")
        return 2
    try:
        structures = args.structures or ([] if not args.all else engine_names())
        if not structures:
            _out("diff: name a structure (and another, or --option NAME=VALUE), or use --all")
            return 2
        jobs: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = []
        if args.all:
            for structure in structures:
                cls = engine_class(structure)
                for name, declared in cls.OPTIONS.items():
                    for value in _variants(declared, 3, _scale(cls)):
                        jobs.append((structure, {}, structure, {name: value}))
        else:
            options = dict(args.option)
            other = structures[1] if len(structures) > 1 else structures[0]
            if len(structures) == 1 and not options:
                _out("diff: give a second structure or --option NAME=VALUE to compare with")
                return 2
            jobs.append((structures[0], {}, other, options))
        classes = {name: engine_class(name) for job in jobs for name in (job[0], job[2])}
    except LookupError as exc:
        _out(f"diff: {exc}")
        return 2
    for _, _, structure, wanted in jobs:
        for name in wanted:
            if name not in classes[structure].OPTIONS:
                known = ", ".join(classes[structure].OPTIONS) or "none"
                _out(f"diff: {structure} has no option {shown(name)} (its options: {known})")
                return 2
        if not args.all:
            refusal = _refused(classes[structure], wanted)
            if refusal:
                _out(f"diff: {refusal}")
                return 2
    for left, left_options, right, right_options in jobs:
        left_name = _side(left, left_options)
        right_name = _side(right, right_options)
        found = compare(classes[left], left_options, classes[right], right_options, args.depth, args.budget)
        if found is None:
            _out(f"{left_name} and {right_name}: no disagreement within {args.depth} moves")
            continue
        rules = (
            _rules(classes[left], left_options, found, found.left, found.right),
            _rules(classes[right], right_options, found, found.right, found.left),
        )
        _out(f"{left_name} and {right_name}: they differ after {len(found.moves)} move(s)")
        for line in describe(found, left_name, right_name, rules):
            _out(line)
        source = (
            f"betspec diff: the shortest hand (within {args.depth} moves) on which {left_name} and {right_name} "
            "differ; each side's case pins its answer"
        )
        cases = [
            as_case(found, "left", left, left_options, source),
            as_case(found, "right", right, right_options, source),
        ]
        label = _slug(
            f"{left}-{'-'.join(f'{k}-{v}' for k, v in left_options.items())}-vs-{right}-"
            f"{'-'.join(f'{k}-{v}' for k, v in right_options.items())}"
        )
        for case, side in zip(cases, (left_name, right_name), strict=True):
            case["id"] = f"diff-{label}-{'left' if side == left_name else 'right'}"[:200].strip("-")
            case["source"] = f"{source}: this case is {side}'s"
        if args.out:
            for case in cases:
                path = os.path.join(args.out, f"{case['id']}.json")
                try:
                    os.makedirs(args.out, exist_ok=True)
                    write_atomically(path, json.dumps(case, indent=1) + "\n")
                except OSError as exc:
                    _out(f"diff: cannot write {shown(path)} in --out: {exc.strerror or type(exc).__name__}")
                    return 1
                _out(f"  wrote {os.path.relpath(path)}")
        elif not args.all:
            for case in cases:
                _out(json.dumps(case))
    return 0


def _refused(cls: type[Engine], options: Mapping[str, Any]) -> str:
    """Why ``cls`` refuses ``options`` whatever the table (an option value out of its bounds, not
    of its type), or an empty string: a value refused on every table would only compare errors."""
    from betspec.runtime import InvalidTable

    for name, value in options.items():
        try:
            cls(cls.example_table([10**6] * 3, 0), **{name: value})
        except InvalidTable as exc:
            if exc.message.startswith(f"option {name} "):  # the value itself: int_option, choice_option...
                return exc.message
    return ""


def _side(structure: str, options: Mapping[str, Any]) -> str:
    if not options:
        return structure
    return structure + " with " + ", ".join(f"{name}={_json_shown(value)}" for name, value in options.items())


def _json_shown(value: Any) -> str:
    """A value as JSON, cut short (a word typed on the command line may be huge)."""
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    diff = commands.add_parser(
        "diff",
        help="the shortest hands on which two structures, or two option sets, disagree",
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    diff.add_argument("structures", nargs="*", metavar="STRUCTURE", help="one structure, or two to compare")
    diff.add_argument(
        "--option",
        type=parse_option,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="an option of the (second) structure, compared with its default (repeatable)",
    )
    diff.add_argument("--all", action="store_true", help="every value of every option of the structures")
    diff.add_argument("--depth", type=int, default=6, help="the most moves a hand may take (default 6)")
    diff.add_argument("--budget", type=int, default=30000, help="the most positions searched (default 30000)")
    diff.add_argument("--out", metavar="DIR", help="write each side's case to DIR/<id>.json")
    diff.set_defaults(run=cmd_diff)
