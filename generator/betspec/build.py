"""Compiling betspec's modules with Cython, into the per-user cache :mod:`betspec.compiled` loads.

Nothing is compiled at install. :func:`build` (``betspec build``) compiles the modules it is
given, each in a process of its own, as many at a time as there are cores, and says what it does
as it goes; a kernel is also compiled the first time it is imported (:func:`first_use`, run by
the finder of :mod:`betspec.compiled` in a process of its own: ``has_kernel``, ``fast_engine``,
``play_hands``) when a user sees it happen (standard error is a terminal) or ``BETSPEC_COMPILE=1``
says so (``BETSPEC_COMPILE=0``: never on first use). A module is compiled once per source: a
build is cached under the sha256 of its source (:func:`betspec.compiled.key`), a changed source
is built anew, and a lock per build keeps two processes from compiling the same module at once.
Where there is no C compiler (or no Cython and setuptools: the ``compile`` extra), betspec says
so once and the Python engine plays.

What is compiled: the kernels (typed Cython: the betting in C) with the runtime they are typed
against; asked (``--engines``, ``--all``), the generated engines and the runtime they call per
action (Cython compiling the Python sources as they are: the same code, 1.18 to 1.34 times as
fast, for most of a build's time).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from betspec import compiled
from betspec.runtime.errors import BetspecError

#: Said as a build goes: one line at a time.
Progress = Callable[[str], None]
#: The runtime an engine calls per action, compiled with every engine.
ENGINE_RUNTIME = tuple(name for name in compiled.RUNTIME if name != "betspec.runtime.kernel")
#: The runtime every kernel is typed against, compiled with every kernel.
KERNEL_RUNTIME = "betspec.runtime.kernel"
ENGINES, KERNELS = compiled.PACKAGES
#: Seconds of CPU per kilobyte of source (Cython, then the C compiler at -O3), measured on x86_64
#: (every engine, kernel and the runtime: 408 s): what the time a build will take is estimated from.
_SECONDS_PER_KB = {".py": 0.27, ".pyx": 0.15}
#: Seconds between two lines saying a build is still going on.
HEARTBEAT = 30.0
#: A worker's exit status when no C compiler works (or Cython is missing): nothing can be built.
_NO_COMPILER = 3


class BuildError(BetspecError):
    """A module that cannot be built: not found, or not compiled (the compiler's last line)."""

    code = "build"


@dataclass(frozen=True)
class Target:
    """A module to compile and the source it is compiled from."""

    module: str
    source: Path

    @property
    def label(self) -> str:
        package, _, leaf = self.module.rpartition(".")
        if package == KERNELS:
            return f"the {leaf} kernel"
        if package == ENGINES:
            return f"the {leaf} engine"
        return "the kernels' runtime" if self.module == KERNEL_RUNTIME else f"the runtime's {leaf}"

    @property
    def estimate(self) -> float:
        """Seconds it may take to compile, from its size."""
        return self.source.stat().st_size / 1000 * _SECONDS_PER_KB.get(self.source.suffix, 0.3)


@dataclass(frozen=True)
class Outcome:
    """What became of one target: ``built`` now, ``cached`` (built before, from the same
    source), ``failed`` (``error`` says why) or ``skipped`` (no compiler: nothing was tried)."""

    target: Target
    status: str
    seconds: float = 0.0
    error: str = ""


@dataclass
class Report:
    """What a build did, target by target. ``no_compiler`` says why nothing could be compiled
    (no C compiler, or no Cython), empty when a compiler works."""

    outcomes: list[Outcome] = field(default_factory=list)
    no_compiler: str = ""
    seconds: float = 0.0

    def count(self, status: str) -> int:
        return sum(outcome.status == status for outcome in self.outcomes)

    @property
    def ok(self) -> bool:
        """Every target is compiled (now or before)."""
        return all(outcome.status in ("built", "cached") for outcome in self.outcomes)


# ---- what to build ------------------------------------------------------------------------------


def _runtime(module: str) -> Target:
    source = compiled.source_of(module)
    if source is None:  # pragma: no cover - the runtime ships with betspec
        raise BuildError(f"betspec's runtime has no source for {module}")
    return Target(module, source)


def _module_of(path: Path) -> str:
    """The module a generated engine or kernel file is imported as."""
    leaf = path.stem
    if not leaf.isidentifier() or path.suffix not in (".py", ".pyx"):
        raise BuildError(f"{path}: not an engine (.py) or a kernel (.pyx) that betspec generated")
    runtime = Path(compiled.__file__).resolve().parent / "runtime"
    if path.resolve().parent == runtime:
        module = f"betspec.runtime.{leaf}"
        if module not in compiled.RUNTIME:
            raise BuildError(f"{path}: betspec's runtime compiles {', '.join(compiled.RUNTIME)} only")
        return module
    return f"{KERNELS if path.suffix == '.pyx' else ENGINES}.{leaf}"


def _structure(name: str, root: str | os.PathLike[str] | None, engines: bool, kernels: bool) -> list[Target]:
    """A structure's engine and kernel: in ``root``'s ``generated/`` first, else betspec's."""
    found: list[Target] = []
    for wanted, package, folder, suffix in (
        (engines, ENGINES, ("generated",), ".py"),
        (kernels, KERNELS, ("generated", "kernels"), ".pyx"),
    ):
        if not wanted:
            continue
        module = f"{package}.{name}"
        source: Path | None = Path(root, *folder, name + suffix) if root is not None else None
        if source is None or not source.is_file():
            source = compiled.source_of(module)
        if source is not None and source.suffix == suffix:
            found.append(Target(module, source))
    if not found:
        where = f" in {Path(root, 'generated')} or" if root is not None else ""
        raise BuildError(f"no generated engine or kernel named {name!r}{where} in betspec's engines (betspec generate)")
    return found


def targets(
    items: Iterable[str | os.PathLike[str]] | None = None,
    *,
    root: str | os.PathLike[str] | None = None,
    engines: bool = True,
    kernels: bool = True,
) -> list[Target]:
    """The modules to compile for ``items`` (structure names, module names, or paths of generated
    engines and kernels; by default every engine and kernel of ``root``'s ``generated/``, or,
    without one there, of betspec's), with the runtime they need. ``engines`` and ``kernels``
    choose what of a structure is compiled."""
    chosen: list[Target] = []
    wanted: list[str | os.PathLike[str]]
    if items is not None:
        wanted = list(items)
    else:
        folder = Path(root, "generated") if root is not None else None
        names: set[str]
        if folder is not None and folder.is_dir():
            names = {*(p.stem for p in folder.glob("*.py")), *(p.stem for p in folder.glob("kernels/*.pyx"))}
        else:
            from betspec.runtime.engine import engine_names

            names = set(engine_names())
        wanted = [name for name in sorted(names) if not name.startswith("_")]
    for item in wanted:
        text = os.fspath(item)
        if text.endswith((".py", ".pyx")) or os.sep in text or "/" in text:
            path = Path(text)
            if not path.is_file():
                raise BuildError(f"{text}: no such file")
            chosen.append(Target(_module_of(path), path.resolve()))
        elif "." in text:
            source = compiled.source_of(text) if compiled.managed(text) else None
            if source is None:
                raise BuildError(f"{text}: not a module betspec compiles (its engines, kernels and runtime)")
            chosen.append(Target(text, source))
        else:
            chosen += _structure(text, root, engines, kernels)
    needed: list[Target] = []
    if any(t.module.rpartition(".")[0] == ENGINES for t in chosen):
        needed += [_runtime(module) for module in ENGINE_RUNTIME]
    if any(t.module.rpartition(".")[0] == KERNELS for t in chosen):
        needed.append(_runtime(KERNEL_RUNTIME))
    unique: dict[str, Target] = {}
    for target in [*needed, *chosen]:
        unique.setdefault(target.module, target)
    return list(unique.values())


# ---- building -----------------------------------------------------------------------------------


def compiler_flags() -> list[str]:
    """Added to the interpreter's own flags (which keep their -O3): no debug information, which
    made most of the time and the size of a build; and signed arithmetic that may not overflow
    (``-fno-wrapv`` undoes the interpreter's ``-fwrapv``, which its own C needs and Cython's does
    not: Cython checks its overflows without wrapping, and a kernel keeps every sum within 64 bits
    by the bounds it loads tables under), so the compiler may keep a seat counter in a register
    and simplify its loops, as it does for the benchmarks' plain C floor: 2 to 3% more hands a
    second in self-play (measured)."""
    return [] if os.name == "nt" else ["-g0", "-fno-wrapv"]


@contextlib.contextmanager
def _locked(path: Path, waiting: Callable[[], None]) -> Iterator[None]:
    """Hold the lock at ``path`` (another process building the same module waits for it)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no lock; a build still lands in one step
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            waiting()
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _shown_time(seconds: float) -> str:
    seconds = max(1, round(seconds))
    return f"{seconds} s" if seconds < 90 else f"{seconds // 60} min {seconds % 60:02d} s"


def _where(path: Path) -> str:
    home = os.path.expanduser("~")
    text = str(path)
    return "~" + text[len(home) :] if home and home != "/" and text.startswith(home + os.sep) else text


def build(
    items: Iterable[str | os.PathLike[str]] | None = None,
    *,
    root: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    jobs: int | None = None,
    engines: bool = True,
    kernels: bool = True,
    force: bool = False,
) -> Report:
    """Compile ``items`` (what :func:`targets` takes) into the cache, ``jobs`` at a time (by
    default one per core), saying what happens to ``progress`` line by line; returns the
    :class:`Report`. A module built before from the same source is not built again (unless
    ``force``). Raises :class:`BuildError` for an item that names nothing; a module that fails to
    compile is in the report (``Report.ok``), as is the absence of a compiler."""
    return build_targets(
        targets(items, root=root, engines=engines, kernels=kernels), progress=progress, jobs=jobs, force=force
    )


def build_targets(
    chosen: list[Target], *, progress: Progress | None = None, jobs: int | None = None, force: bool = False
) -> Report:
    """Compile ``chosen`` (see :func:`build`)."""
    # Imported here: every command's parser reads this module, only a build needs a pool.
    from concurrent.futures import ThreadPoolExecutor

    say = progress or (lambda line: None)
    started = time.perf_counter()
    report = Report()
    todo = [t for t in chosen if force or not compiled.build_path(t.module, t.source).is_file()]
    report.outcomes += [Outcome(t, "cached") for t in chosen if t not in todo]
    if not todo:
        say(f"betspec: {len(chosen)} module(s) already compiled ({_where(compiled.cache())})")
        return report
    workers = max(1, min(jobs or os.cpu_count() or 1, len(todo)))
    estimate = max(max(t.estimate for t in todo), sum(t.estimate for t in todo) / workers)
    names = ", ".join(t.label for t in todo) if len(todo) <= 3 else f"{len(todo)} modules"
    say(
        f"betspec: compiling {names} with Cython and the C compiler, once"
        f" (about {_shown_time(estimate)} on {workers} idle core{'s' if workers > 1 else ''};"
        f" cached in {_where(compiled.cache())})..."
    )
    lock = threading.Lock()
    outcomes: dict[str, Outcome] = {}

    def one(target: Target) -> None:
        if report.no_compiler:
            outcomes[target.module] = Outcome(target, "skipped")
            return
        begun = time.perf_counter()
        status, error = _build_one(
            target, force, lambda: say(f"betspec: waiting for another process compiling {target.label}")
        )
        seconds = time.perf_counter() - begun
        with lock:
            if status == "no-compiler":
                if not report.no_compiler:
                    report.no_compiler = error
                outcomes[target.module] = Outcome(target, "skipped", seconds, error)
                return
            outcomes[target.module] = Outcome(target, status, seconds, error)
            done = sum(o.status in ("built", "failed") for o in outcomes.values())
            what = "compiled" if status == "built" else "already compiled" if status == "cached" else "NOT compiled"
            line = f"betspec: [{done}/{len(todo)}] {target.label} {what} ({_shown_time(seconds)})"
            say(line if status != "failed" else f"{line}: {error}")

    # The largest first: the last to finish is then a small one.
    ordered = sorted(todo, key=lambda t: -t.estimate)
    finished = threading.Event()

    def heartbeat() -> None:
        # Between two modules done, a line every half minute: a user waiting sees it is going on.
        while not finished.wait(HEARTBEAT):
            with lock:
                done = sum(o.status in ("built", "failed") for o in outcomes.values())
            say(f"betspec: compiling, {done} of {len(todo)} done, {_shown_time(time.perf_counter() - started)} so far")

    beating = threading.Thread(target=heartbeat, daemon=True)
    beating.start()
    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(one, ordered))
    finally:
        finished.set()
        beating.join()
    report.outcomes += [outcomes[t.module] for t in todo]
    report.seconds = time.perf_counter() - started
    if report.no_compiler:
        say(f"betspec: {report.no_compiler}: nothing compiled; the Python engines run (the same results, slower)")
    else:
        failed = report.count("failed")
        say(
            f"betspec: compiled {report.count('built')} module(s) in {_shown_time(report.seconds)}"
            + (f"; {failed} failed (their Python engines run)" if failed else "")
        )
    return report


def _build_one(target: Target, force: bool, waiting: Callable[[], None]) -> tuple[str, str]:
    """Compile one target in a worker process: (status, error)."""
    import shutil
    import subprocess
    import tempfile

    destination = compiled.build_path(target.module, target.source)
    cache = compiled.cache()
    with _locked(cache / "locks" / (destination.parent.name + ".lock"), waiting):
        if destination.is_file() and not force:
            return "cached", ""  # another process built it while this one waited
        cache.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix="build-", dir=cache))
        try:
            done = subprocess.run(
                [sys.executable, "-m", "betspec.build", target.module, str(target.source), str(work)],
                capture_output=True,
                text=True,
                env={**os.environ, "BETSPEC_PURE": "1"},  # the worker needs no build of its own
                check=False,
            )
            made = work / "out" / destination.name
            if done.returncode == _NO_COMPILER:
                return "no-compiler", _last_line(done.stderr) or "no C compiler"
            if done.returncode != 0 or not made.is_file():
                return "failed", _last_line(done.stderr + done.stdout) or f"exit status {done.returncode}"
            destination.parent.mkdir(parents=True, exist_ok=True)
            os.replace(made, destination)
            return "built", ""
        finally:
            shutil.rmtree(work, ignore_errors=True)


def _last_line(text: str) -> str:
    """The line of a compiler's output that says what went wrong (the last error, else the last)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line.lower()]
    found = (errors or lines or [""])[-1]
    return found if len(found) <= 300 else found[:297] + "..."


# ---- on first use -------------------------------------------------------------------------------


def _say(line: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr, flush=True)


def first_use(module: str, source: str) -> int:
    """Compile the kernel ``module`` from ``source``, and the kernels' runtime it needs, saying
    so on standard error: what :mod:`betspec.compiled` runs, in a process of its own, on a
    kernel's first import. Exit status 0 built, 1 failed, 3 no compiler here."""
    target = Target(module, Path(source))
    wanted = [target] if module == KERNEL_RUNTIME else [_runtime(KERNEL_RUNTIME), target]
    report = build_targets(wanted, progress=_say)
    return 0 if report.ok else _NO_COMPILER if report.no_compiler else 1


# ---- the command --------------------------------------------------------------------------------


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``betspec build`` to the command line."""
    command = commands.add_parser(
        "build",
        help="compile the kernels (and, asked, the default engines) with Cython into a per-user cache, once per "
        "source (a kernel is otherwise compiled on first use at a terminal)",
    )
    command.add_argument(
        "structures", nargs="*", help="structures, or generated .py/.pyx files (default: every one in generated/)"
    )
    only = command.add_mutually_exclusive_group()
    only.add_argument("--kernels", action="store_true", help="the kernels only (the betting in C; the default)")
    only.add_argument(
        "--engines",
        action="store_true",
        help="the default engines only (Cython over their Python: 1.2 to 1.3 times as fast, most of a build's time)",
    )
    only.add_argument("--all", action="store_true", help="the kernels and the default engines")
    command.add_argument("--jobs", type=int, help="compilers at a time (default: one per core)")
    command.add_argument("--force", action="store_true", help="compile again what is already compiled")
    command.set_defaults(run=cmd_build)


def cmd_build(args: argparse.Namespace, project: object) -> int:
    """Exit status 0: compiled, or nothing can be compiled here (no compiler: said); 1 a module
    failed to compile; 2 an argument names nothing to compile."""
    root = getattr(project, "root", ".")
    if args.jobs is not None and args.jobs < 1:
        print("betspec build: --jobs is at least 1", flush=True)
        return 2
    try:
        report = build(
            args.structures or None,
            root=root,
            progress=lambda line: print(line, flush=True),
            jobs=args.jobs,
            # The default engines compiled run 1.18 to 1.34 times their Python (benchmarks/compiled.py)
            # for five sixths of a cold build: compiled only when asked (docs/speed.md).
            engines=args.engines or args.all,
            kernels=not args.engines,
            force=args.force,
        )
    except BuildError as exc:
        print(f"betspec build: {exc.message}", flush=True)
        return 2
    if not args.structures:  # what a showdown is ranked with, kept so that it need not import PokerKit
        from betspec import lookups

        folder, kept = lookups.write_all()
        if folder is not None:
            print(f"betspec: {len(kept)} of PokerKit's hand lookups kept as tables ({_where(folder)})", flush=True)
    return 1 if report.count("failed") else 0


# ---- the worker ---------------------------------------------------------------------------------


def _worker(module: str, source: str, work: str) -> int:
    """Compile ``source`` as ``module`` into ``work/out``: first whether a C compiler works at
    all (exit status 3 when not), then Cython's C, then the extension."""
    # setuptools drives the platform's compiler as an install would (its flags, its linker);
    # it and Cython come with the `compile` extra, not with a plain install.
    try:
        tools: Any = importlib.import_module("setuptools")
        build_ext: Any = importlib.import_module("setuptools.command.build_ext").build_ext
        cython: Any = importlib.import_module("Cython.Compiler.Main")
    except ImportError as exc:
        print(f"{exc.name or 'Cython'} is not installed (pip install 'betspec[compile]')", file=sys.stderr)
        return _NO_COMPILER

    def extension(name: str, c_file: str, out: str) -> str:
        ext = tools.Extension(name, [c_file], extra_compile_args=compiler_flags())
        command = build_ext(tools.Distribution({"ext_modules": [ext], "script_name": "betspec"}))
        command.build_lib = out
        command.build_temp = os.path.join(work, "temp")
        command.ensure_finalized()
        command.run()
        return str(command.get_ext_fullpath(name))

    probe = os.path.join(work, "probe.c")
    with open(probe, "w", encoding="utf-8") as handle:
        handle.write(
            '#include <Python.h>\nstatic struct PyModuleDef m = {PyModuleDef_HEAD_INIT, "probe"};\n'
            "PyMODINIT_FUNC PyInit_probe(void) { return PyModuleDef_Init(&m); }\n"
        )
    try:
        extension("probe", probe, os.path.join(work, "probe"))
    except Exception as exc:
        compiler = os.environ.get("CC") or "the C compiler"
        print(f"no working C compiler ({compiler}: {type(exc).__name__}: {exc})", file=sys.stderr)
        return _NO_COMPILER
    c_file = os.path.join(work, module.rpartition(".")[2] + ".c")
    directives = {} if source.endswith(".pyx") else {"binding": True, "annotation_typing": False}
    options = cython.CompilationOptions(
        cython.default_options,
        language_level=3,
        include_path=[str(Path(compiled.__file__).resolve().parents[1])],
        compiler_directives=directives,
        output_file=c_file,
    )
    result = cython.compile_single(source, options, full_module_name=module)
    if result.num_errors or not os.path.isfile(c_file):
        print(f"Cython found {result.num_errors} error(s) in {source}", file=sys.stderr)
        return 1
    built = extension(module, c_file, os.path.join(work, "lib"))
    os.makedirs(os.path.join(work, "out"), exist_ok=True)
    os.replace(built, os.path.join(work, "out", os.path.basename(built)))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--first-use"]:
        sys.exit(first_use(*sys.argv[2:4]))
    sys.exit(_worker(*sys.argv[1:4]))
