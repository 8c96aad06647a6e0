"""The ``betspec`` command: validate specs, generate engines and diagrams, run conformance cases.

Exit status: 0 success; 1 a problem was found (invalid spec, stale file, failing case);
2 the command line itself is wrong. No traceback reaches the user: an unexpected error is
reported in one line with exit status 3.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from betspec import __version__, house
from betspec.build import register as register_build
from betspec.diagnostics import Diagnostic, SpecError, errors, fixes
from betspec.helptext import PlainParser
from betspec.project import Project, load_all, orphans, outputs, selected, write_atomically
from betspec.runtime.errors import shown
from betspec.tools.diff import register as register_diff
from betspec.tools.phh import register as register_phh
from betspec.tools.play import register as register_play


def _out(line: str) -> None:
    print(line, flush=True)


def _report(diagnostics: list[Diagnostic]) -> None:
    """Each problem, a line each, then how to fix each kind of problem among them."""
    for diagnostic in diagnostics:
        _out(str(diagnostic))
    for line in fixes(diagnostics):
        _out(line)


def cmd_validate(args: argparse.Namespace, project: Project) -> int:
    from betspec import session as sessions

    paths = args.files or project.spec_files()
    folder = os.path.join(project.spec_dir, "sessions")
    if not args.files and os.path.isdir(folder):  # a project's sessions, beside its specs
        paths += sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".json"))
    if not paths:
        _out(f"no specs found in {project.spec_dir}")
        return 1
    mixed = [path for path in paths if sessions.is_session(path)]
    paths = [path for path in paths if path not in mixed]
    specs, diagnostics = _load(project, paths) if paths else ([], [])
    checked, found = _sessions(mixed, args.deep)
    diagnostics = sorted({*diagnostics, *found})
    paths += mixed
    if args.deep:
        diagnostics = [*diagnostics, *_deep(specs, project)]
        failed = {d.position.path for d in errors(diagnostics)}
        specs = [spec for spec in specs if spec.path not in failed]
    _report(diagnostics)
    for spec in specs:
        kind = "abstract base" if spec.abstract else "engine"
        size = f"{len(spec.states)} states, {len(spec.transitions)} transitions"
        _out(
            f"ok {os.path.relpath(spec.path)}: {spec.name} ({kind}; {size}"
            f"{'; played' if args.deep and not spec.abstract else ''})"
        )
    for spec, line in checked:
        _out(f"ok {os.path.relpath(spec.path)}: {spec.name} ({line})")
    stopping = errors(diagnostics)
    warnings = f" and {len(diagnostics) - len(stopping)} warning(s)" if len(stopping) < len(diagnostics) else ""
    if diagnostics:
        _out(f"{len(stopping)} problem(s){warnings} in {len(paths)} file(s)")
    return 1 if stopping else 0


def _sessions(paths: list[str], deep: bool) -> tuple[list[tuple[Any, str]], list[Diagnostic]]:
    """The session specs at ``paths`` checked (and with ``deep``, played through every game and
    level, every chip checked): each that passes with what to say of it, and the diagnostics."""
    from betspec import session as sessions
    from betspec.diagnostics import DiagnosticCode, Position
    from betspec.runtime import BetspecError
    from betspec.tools.simulate import SimulateError, walk_session

    passed: list[tuple[Any, str]] = []
    found: list[Diagnostic] = []
    for path in paths:
        spec, problems = sessions.check(path)
        found += problems
        if spec is None:
            continue
        line = f"session; {len(spec.games)} games, {len(spec.levels)} level(s)"
        if deep:
            here = Position(path, 1, 1)
            try:
                played, walked = walk_session(spec)
            except (SimulateError, BetspecError) as exc:
                found.append(Diagnostic(here, "", DiagnosticCode.CHIPS, f"playing the session: {exc}"))
                continue
            missing = [
                Diagnostic(here, f"/games/{name}", DiagnosticCode.NEVER_REACHED, f"the game {name!r} was never dealt")
                for name in spec.games
                if name in spec.rotation and name not in walked.by_game
            ] + [
                Diagnostic(
                    here,
                    f"/levels/stakes/{level - 1}",
                    DiagnosticCode.NEVER_REACHED,
                    f"level {level} was never reached",
                )
                for level in range(1, len(spec.levels) + 1)
                if level not in walked.by_level
            ]
            found += missing
            if missing:
                continue
            line += f"; played {played.hands + walked.hands} hands, every game and level, chips checked"
        passed.append((spec, line))
    return passed, found


def cmd_show(args: argparse.Namespace, project: Project) -> int:
    """What each spec of SPEC's chain changed of the ones it extends, a line each; with --merged,
    the merged spec as JSON instead. Any problem of the spec is printed and nothing else."""
    import json

    from betspec.frontend import load_spec, loader

    merged, _ = loader.load(args.spec)
    _, diagnostics = load_spec(args.spec)
    _report(diagnostics)
    if merged is None or errors(diagnostics):
        _out(f"{len(errors(diagnostics))} problem(s)")
        return 1
    if args.merged:
        _out(json.dumps(merged.value, indent=2, ensure_ascii=False))
        return 0
    names = [os.path.basename(path) for path in reversed(merged.files)]
    _out(f"{os.path.relpath(args.spec)}: {' <- '.join(names)}")
    for line in merged.changes:
        _out(f"  {line}")
    return 0


def _load(project: Project, paths: list[str]) -> tuple[list[Any], list[Any]]:
    """The specs at ``paths``, with their problems; in a house (a folder with betspec.toml), also
    a spec named as a shipped one (a copy of betspec's own tree may be, as it ships them)."""
    specs, diagnostics = load_all(paths)
    if os.path.isfile(os.path.join(project.root, house.MARKER)):
        clashes = house.shadowing(specs)
        failed = {d.position.path for d in clashes}
        specs = [spec for spec in specs if spec.path not in failed]
        diagnostics = sorted({*diagnostics, *clashes})
    return specs, diagnostics


def _deep(specs: list[Any], project: Project) -> list[Any]:
    """What playing each concrete spec's engine on small tables finds, positioned in its spec (a
    finding in a base betspec ships, at the author's line that changed it, or its extends)."""
    from betspec.frontend import loader
    from betspec.tools.explore import deep_check

    found = []
    for spec in specs:
        if spec.abstract:
            continue
        merged, _ = loader.load(spec.path)
        assert merged is not None
        for finding in deep_check(spec, project.root):
            found.append(merged.attributed(merged.diag(finding.pointer, finding.code, finding.message)))
    return found


def _count(number: int, noun: str) -> str:
    """``number`` of ``noun``, singular for one: "1 spec", "18 specs"."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def cmd_generate(args: argparse.Namespace, project: Project) -> int:
    started = time.perf_counter()
    paths = project.spec_files()
    if not paths:
        _out(f"no specs found in {project.spec_dir}: nothing to generate")
        return 1
    specs, diagnostics = _load(project, paths)
    if diagnostics:
        _report(diagnostics)
    if errors(diagnostics):
        _out("nothing generated: fix the specs first (`betspec validate`)")
        return 1
    from betspec.backends import BackendError

    try:
        files = outputs(project, specs, getattr(args, "only", ()))
    except BackendError as exc:
        _out(f"error: {exc}")
        return 1
    stale = []
    for path, content in files.items():
        try:
            with open(path, encoding="utf-8", newline="") as handle:
                current: str | None = handle.read()
        except OSError:
            current = None
        if current != content:
            stale.append(path)
    if not args.check:
        for path in stale:
            try:
                write_atomically(path, files[path])
            except OSError as exc:
                _out(f"error: cannot write {os.path.relpath(path)}: {exc.strerror or exc}")
                _out("generation stopped: the files written so far are complete, the rest unchanged")
                return 1
    extra = orphans(project, files, getattr(args, "only", ()))
    rel = os.path.relpath
    scripts = (
        _site_scripts(project, check=args.check)
        if "site" in {b.name for b in selected(getattr(args, "only", ()))}
        else ""
    )
    if args.check:
        for path in stale:
            _out(f"stale: {rel(path)} (run `betspec generate`)")
        for path in extra:
            _out(f"stale: {rel(path)} has no spec behind it (delete it)")
        if scripts:
            _out(scripts)
        if stale or extra or scripts:
            return 1
        _out(f"up to date: {len(files)} generated files from {_count(len(specs), 'spec')}")
        return 0
    for path in extra:
        try:
            os.remove(path)
        except OSError as exc:
            _out(f"error: cannot remove {rel(path)}: {exc.strerror or exc}")
            return 1
        _out(f"removed {rel(path)} (no spec behind it)")
    for path in stale:
        _out(f"wrote {rel(path)}")
    if scripts:
        _out(scripts)
    elapsed = time.perf_counter() - started
    _out(f"{len(files)} files from {_count(len(specs), 'spec')}, {len(stale)} changed ({elapsed:.2f} s)")
    return 0


def _site_scripts(project: Project, *, check: bool) -> str:
    """The live book's scripts (docs/site/js/) brought up to date with the TypeScript engines,
    where the project's TypeScript compiler is installed; what to say of them ("" if nothing).
    With ``check``, nothing is written: scripts the project keeps (docs/site/js/ is there) and
    that are stale are named."""
    from betspec.tools import site_js
    from betspec.tools.typescript_run import NodeMissing

    folder = os.path.join(project.root, *site_js.TARGET)
    if not site_js.stale(project.root):
        return ""
    if check:
        if not os.path.isdir(folder):
            return ""  # a project that does not compile the live book's engines
        return f"stale: {os.path.relpath(folder)} (run `betspec generate` with the TypeScript compiler installed)"
    try:
        written = site_js.write(project.root)
    except NodeMissing as missing:
        return (
            f"note: the live book's engines ({os.path.relpath(folder)}) are not compiled: {missing}; "
            "then run `betspec generate` again (the pages work without them, not their live tables)"
        )
    except RuntimeError as failed:
        return f"error: {failed}"
    return "\n".join(f"wrote {os.path.relpath(os.path.join(project.root, path))}" for path in written)


def cmd_conform(args: argparse.Namespace, project: Project) -> int:
    from betspec.conformance.runner import Outcome, run_case

    cases = os.path.join(project.root, *house.CASES.split("/"))
    found = sorted(glob.glob(os.path.join(cases, "**", "*.json"), recursive=True))
    paths = _case_paths(args.files) if args.files else found
    if not paths:
        _out(f"no case files given, and none in {os.path.relpath(cases)}")
        return 2
    counts = {"PASS": 0, "FAIL": 0, "INVALID": 0}
    outcomes: Iterable[Outcome] = (run_case(path) for path in paths)
    if args.engine == "typescript":
        from betspec.tools.typescript_run import NodeMissing, run_cases

        try:
            outcomes = list(run_cases(paths, project.root))
        except (NodeMissing, RuntimeError) as exc:
            _out(f"error: {exc}")
            return 2
    for outcome in outcomes:
        counts[outcome.status] += 1
        _out(outcome.line())
    under = " (TypeScript engines under Node)" if args.engine == "typescript" else ""
    _out(f"{counts['PASS']} passed, {counts['FAIL'] + counts['INVALID']} failed{under}")
    return 0 if counts["FAIL"] == counts["INVALID"] == 0 else 1


def _case_paths(patterns: list[str]) -> list[str]:
    paths: list[str] = []
    for pattern in patterns:
        matched = sorted(glob.glob(pattern, recursive=True)) if any(c in pattern for c in "*?[") else [pattern]
        paths.extend(matched or [pattern])
    return paths


def cmd_coverage(args: argparse.Namespace, project: Project) -> int:
    from betspec.runtime.batch import MAX_HANDS
    from betspec.tools.coverage import explore, measure, write_cases

    specs, diagnostics = _load(project, project.spec_files())
    if errors(diagnostics):
        _report(diagnostics)
        return 1
    names = [spec.name for spec in specs if not spec.abstract]
    default = os.path.join(project.root, "tests", "conformance", "**", "*.json")
    paths = _case_paths(args.files or [default])
    coverages, failures = measure(paths, names)
    for line in failures:
        _out(line)
    if args.generate:
        if not 1 <= args.hands <= MAX_HANDS:
            _out(f"coverage: --hands must be from 1 to {MAX_HANDS:,}")
            return 2
        written = []
        for name, coverage in coverages.items():
            if coverage.missing() or coverage.missing_outcomes():
                try:
                    written += write_cases(args.generate, explore(name, coverage, args.hands, args.seed))
                except OSError as exc:
                    why = exc.strerror or type(exc).__name__
                    _out(f"coverage: cannot write the cases in {shown(args.generate)}: {why}")
                    return 1
        for path in written:
            _out(f"wrote {os.path.relpath(path)}")
        coverages, failures = measure([*paths, *(p for p in written if p not in paths)], names)
    complete = True
    for coverage in coverages.values():
        _out(coverage.summary())
        for index in coverage.missing():
            complete = False
            _out(f"  not reached: {coverage.describe(index)}")
        for index, outcome in coverage.missing_outcomes():
            _out(f"  guard never {outcome}: {coverage.describe(index)}")
    _out(f"{len(paths)} case files")
    return 0 if complete and not failures else 1


def cmd_simulate(args: argparse.Namespace, project: Project) -> int:
    from betspec.runtime import engine_class, engine_names
    from betspec.runtime.batch import MAX_HANDS
    from betspec.tools.simulate import SimulateError, bounded_workers, default_workers, simulate

    if args.session is not None:
        return _simulate_session(args)

    structures = [args.structure] if args.structure else engine_names()
    for structure in structures:
        try:
            engine_class(structure)
        except LookupError as exc:
            _out(f"simulate: {exc}")
            return 2
    if not 1 <= args.hands <= MAX_HANDS:
        _out(f"simulate: --hands must be from 1 to {MAX_HANDS:,}")
        return 2
    counts = args.workers or [default_workers()]
    if any(workers < 1 for workers in counts):
        _out("simulate: --workers must be at least 1")
        return 2
    for structure in structures:
        _out(f"{args.hands:,} {structure} hands, random tables of 2 to 10 seats, a bot's query before each action")
        for requested in counts:
            workers = bounded_workers(requested, args.hands)
            if workers != requested and args.on == "processes":
                _out(f"{requested} workers asked: {workers} started ({default_workers()} cores, {args.hands:,} hands)")
            if args.on == "ray":
                workers = requested
            with _progress(args.hands, f"{workers} worker(s)") as progress:
                try:
                    totals, seconds = simulate(
                        structure,
                        args.hands,
                        workers,
                        args.seed,
                        progress=progress,
                        backend=args.on,
                        address=args.address,
                    )
                except SimulateError as exc:
                    _out(f"simulate: {exc}")
                    return 2
            raked = (
                f"; the house took {totals.raked:,} ({100 * totals.raked / max(totals.hands, 1):,.1f} per 100 hands)"
            )
            _out(
                f"{workers} worker(s): {totals.hands:,} hands, {totals.actions:,} actions in {seconds:.1f} s: "
                f"{totals.hands / seconds:,.0f} hands/s, {totals.actions / seconds:,.0f} actions/s; chips conserved"
                + (raked if engine_class(structure).RAKE is not None else "")
            )
    return 0


def _simulate_session(args: argparse.Namespace) -> int:
    """``betspec simulate SESSION``: its hands played by the bot, totals per game and per level."""
    from betspec import session as sessions
    from betspec.runtime import InvalidTable
    from betspec.tools.simulate import SimulateError, simulate_session

    path = sessions.find(args.session)
    if path is None:
        known = ", ".join(sessions.shipped())
        _out(f"simulate: no session {args.session!r} (a session file, or a shipped one: {known})")
        return 2
    try:
        spec = sessions.load(path)
    except SpecError as exc:
        _out("\n".join(str(d) for d in exc.diagnostics))
        return 2
    if not 1 <= args.hands <= 1_000_000 or not 2 <= args.players <= 10:
        _out("simulate: a session plays 1 to 1,000,000 --hands at 2 to 10 --players")
        return 2
    started = time.perf_counter()
    try:
        totals = simulate_session(spec, args.hands, args.seed, args.players, phh=args.phh)
    except (SimulateError, InvalidTable) as exc:
        _out(f"simulate: {exc}")
        return 1
    seconds = time.perf_counter() - started
    _out(
        f"{totals.hands:,} hands of {spec.title} at {args.players} players in {seconds:.1f} s, "
        f"{totals.sessions} session(s), {totals.changes} changes of game; chips checked at every hand"
    )
    for title, rows in (("game", totals.by_game), ("level", totals.by_level)):
        if title == "level" and len(rows) == 1:
            continue
        _out(f"  {'per ' + title:<28} {'hands':>8} {'actions/hand':>13} {'pot/hand':>10}")
        for key, (hands, actions, pots) in rows.items():
            name = spec.games[str(key)].title if title == "game" else f"level {key}"
            _out(f"  {name[:28]:<28} {hands:>8,} {actions / hands:>13.2f} {pots / hands:>10,.1f}")
    return 0


@contextlib.contextmanager
def _progress(total: int, label: str, every: float = 10.0) -> Iterator[Callable[[int], None]]:
    """A progress bar on a terminal; elsewhere (a log, a pipe), a line every ``every`` seconds."""
    if sys.stdout.isatty():
        from tqdm import tqdm

        with tqdm(total=total, desc=label, unit=" hands", unit_scale=True, leave=False) as bar:

            def advance(done: int) -> None:
                bar.update(done - bar.n)

            yield advance
        return
    started = last = time.perf_counter()

    def report(done: int) -> None:
        nonlocal last
        now = time.perf_counter()
        if now - last >= every and done < total:
            last = now
            _out(f"  {label}: {done:,} of {total:,} hands ({100 * done / total:.0f}%), {now - started:.0f} s")

    yield report


def cmd_init(args: argparse.Namespace, project: Project) -> int:
    try:
        made = house.init(args.folder, args.name)
    except house.HouseError as exc:
        _out(f"init: {exc}")
        return 1
    rel = os.path.relpath
    for path in made.files:
        _out(f"wrote {rel(path)}")
    name = os.path.splitext(os.path.basename(made.spec))[0]
    _out(f"a house in {rel(made.root)}: next,")
    for line in (
        f"cd {rel(made.root)}",
        "betspec validate --deep     # check the specs: each problem at its line, with a fix",
        "betspec generate            # the engines, diagrams and reference book",
        "betspec conform             # the cases in tests/conformance/",
        f"betspec play {name}   # a hand in the terminal",
    ):
        _out(f"  {line}")
    return 0


def cmd_upgrade(args: argparse.Namespace, project: Project) -> int:
    """Each file's upgrade to the newest language as a diff, what each line changes and by which
    rule, and what no rule rewrites; with --write the files are written (nothing is otherwise)."""
    from betspec import language, upgrade
    from betspec.project import write_atomically

    cases = os.path.join(project.root, *house.CASES.split("/"))
    paths = (
        _case_paths(args.files)
        if args.files
        else [
            *project.spec_files(),
            *sorted(glob.glob(os.path.join(cases, "**", "*.json"), recursive=True)),
        ]
    )
    if not paths:
        _out(f"no specs or cases given, and none in {os.path.relpath(project.spec_dir)} or {os.path.relpath(cases)}")
        return 1
    changed = problems = 0
    for path in paths:
        done, diagnostics = upgrade.upgrade_file(path)
        for diagnostic in [*diagnostics, *(done.left if done is not None else ())]:
            _out(str(diagnostic))
            problems += 1
        if done is None or not done.changed:
            continue
        changed += 1
        _out(done.diff().rstrip("\n"))
        for change in done.changes:
            _out(f"  {change}")
        if args.write:
            try:
                write_atomically(path, done.after)
            except OSError as exc:
                _out(f"{path}: cannot write it: {exc.strerror or type(exc).__name__}")
                problems += 1
    verb = "upgraded" if args.write else "to upgrade (run again with --write to write them)"
    _out(
        f"{changed} of {len(paths)} file(s) {verb} to spec language {language.current()}; "
        f"{problems} thing(s) left for you to rewrite (docs/language.md)"
    )
    return 1 if problems else 0


def cmd_demo(args: argparse.Namespace, project: Project) -> int:
    from betspec.tools.demo import play

    book = os.path.join(project.root, "docs", "site", "index.html")
    return play(_out, os.path.relpath(book) if os.path.isfile(book) else None)


def parser() -> argparse.ArgumentParser:
    # Long because it declares every command and its arguments, one after another: a command's
    # help reads best beside its arguments.
    main: argparse.ArgumentParser = PlainParser(prog="betspec", description=__doc__.split("\n")[0])
    main.add_argument("--version", action="version", version=f"betspec {__version__}")
    main.add_argument(
        "--root",
        help="the project folder (with spec/, generated/, diagrams/; default: the house the current folder is in, "
        "found by its betspec.toml, else the current folder)",
    )
    commands = main.add_subparsers(dest="command", required=True)
    validate = commands.add_parser("validate", help="check specs; every problem as file:line:column: /pointer: message")
    validate.add_argument("files", nargs="*", help="spec files (default: spec/*.json)")
    validate.add_argument(
        "--deep",
        action="store_true",
        help="also play each engine on small tables: only-fold decisions, bounds the wrong way, actions "
        "after the hand, endless hands, chips lost, transitions never taken (about 0.4 s a spec)",
    )
    validate.set_defaults(run=cmd_validate)
    show = commands.add_parser(
        "show", help="what each spec a spec extends changed (added, replaced, removed, amended), a line each"
    )
    show.add_argument("spec", help="the spec file")
    show.add_argument("--merged", action="store_true", help="print the merged spec as JSON instead")
    show.set_defaults(run=cmd_show)
    generate = commands.add_parser(
        "generate", help="write every output: generated/<spec>.py, diagrams/, the reference book in docs/"
    )
    generate.add_argument("--check", action="store_true", help="change nothing; exit 1 naming each stale file")
    generate.set_defaults(run=cmd_generate)
    docs = commands.add_parser(
        "docs", help="write the reference book: docs/reference/<spec>.md and the HTML site docs/site/<spec>.html"
    )
    docs.add_argument("--check", action="store_true", help="change nothing; exit 1 naming each stale page")
    docs.set_defaults(run=cmd_generate, only=("reference", "site"))
    conform = commands.add_parser("conform", help="run conformance cases through the generated engines")
    conform.add_argument("files", nargs="*", help="case files (globs allowed; default: tests/conformance/**/*.json)")
    conform.add_argument(
        "--engine", choices=("python", "typescript"), default="python", help="the engines to run them through"
    )
    conform.set_defaults(run=cmd_conform)
    coverage = commands.add_parser("coverage", help="transitions and guard outcomes the cases reach, per spec")
    coverage.add_argument("files", nargs="*", help="case files (default: tests/conformance/**/*.json)")
    coverage.add_argument("--generate", metavar="DIR", help="write cases for what is not reached into DIR")
    coverage.add_argument("--hands", type=int, default=20000, help="hands to explore per spec when generating")
    coverage.add_argument(
        "--seed", type=int, default=2026, help="seed of the random hands explored when generating (default 2026)"
    )
    coverage.set_defaults(run=cmd_coverage)
    simulate = commands.add_parser("simulate", help="play random hands over a pool of processes")
    simulate.add_argument(
        "session",
        nargs="?",
        help="a session (a shipped one's name, or a session file): its games and levels played in one process, "
        "totals per game and per level",
    )
    simulate.add_argument("--structure", help="the spec to play (default: every spec with an engine, in turn)")
    simulate.add_argument("--players", type=int, default=6, help="with a session: its players (default 6)")
    simulate.add_argument(
        "--phh", metavar="DIR", help="with a session: write each hand as PHH in DIR (phh check follows the stacks)"
    )
    simulate.add_argument("--hands", type=int, default=100_000, help="hands to play (default 100,000)")
    simulate.add_argument(
        "--workers", type=int, action="append", help="processes (repeat to compare; default: every core)"
    )
    simulate.add_argument(
        "--seed", type=int, default=2026, help="seed of the tables and the bot's choices (default 2026)"
    )
    simulate.add_argument(
        "--on",
        choices=("processes", "ray"),
        default="processes",
        help="where the chunks run: a local process pool, or Ray (pip install 'betspec[ray]')",
    )
    simulate.add_argument("--address", help="with --on ray: the cluster's address (default: a local one)")
    simulate.set_defaults(run=cmd_simulate)
    demo = commands.add_parser("demo", help="play a sample hand and print it")
    demo.set_defaults(run=cmd_demo)
    init = commands.add_parser(
        "init", help="make a house: a folder for specs of one's own (a starter that extends a shipped one, cases)"
    )
    init.add_argument("folder", help="the folder to make (or fill: nothing in it is overwritten)")
    init.add_argument("--name", help="the starter spec's name (default: house_ and the structure it extends)")
    init.set_defaults(run=cmd_init)
    upgrade = commands.add_parser(
        "upgrade",
        help="rewrite specs and cases written for an older spec language: shows the diff, writes with --write",
    )
    upgrade.add_argument("files", nargs="*", help="specs or cases (globs allowed; default: spec/*.json and the cases)")
    upgrade.add_argument("--write", action="store_true", help="write the upgraded files (without it nothing changes)")
    upgrade.set_defaults(run=cmd_upgrade)
    register_play(commands)
    register_phh(commands)
    register_diff(commands)
    register_build(commands)
    return main


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        project = Project(house.project_root(args.root))
        with house.active(project.root):
            return int(args.run(args, project))
    except house.HouseError as exc:
        _out(f"betspec: {exc}")
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`betspec conform ... | head`): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as exc:  # the promise: no traceback reaches a user
        _out(f"betspec: internal error: {type(exc).__name__}: {_text(exc)} (please report it)")
        return 3


def _text(exc: BaseException) -> str:
    """``str(exc)``, cut short, even when it cannot be made."""
    try:
        text = str(exc)
    except Exception:
        return "(no message)"
    return text if len(text) <= 300 else text[:297] + "..."


if __name__ == "__main__":
    sys.exit(main())
