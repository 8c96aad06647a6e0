"""The TypeScript engines under Node: compiled once per source, cases run through them, and a
long-lived Node process answering a hand's questions as JSON lines (the lockstep test's).

The engines are ``generated/typescript/src/*.ts`` (``betspec generate``); the runner is
``betspec/tools/typescript/runner.ts``. Both are compiled with ``tsc --strict`` (the TypeScript
the generated package installs: ``npm ci --prefix generated/typescript``, else a ``tsc`` on the
path) into the per-user cache (``$BETSPEC_CACHE/typescript/<digest of the sources>``), so that an
edited engine or runner is compiled anew and never run stale.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from betspec.compiled import cache
from betspec.conformance.runner import Outcome, load_case
from betspec.packaged import SOURCE_ROOT

RUNNER = Path(__file__).resolve().parent / "typescript" / "runner.ts"
#: What the runner reads of Node, declared (so that no @types/node is needed).
NODE_TYPES = RUNNER.with_name("node.d.ts")
SOURCES = ("generated", "typescript", "src")
PACKAGE = ("generated", "typescript")
#: Cases handed to one Node process at a time.
BATCH = 400


class NodeMissing(RuntimeError):
    """Node, or the TypeScript compiler, is not installed here (the message says which, and how)."""


def node() -> str:
    found = shutil.which("node")
    if found is None:
        raise NodeMissing("Node.js is not installed (the TypeScript engines run under Node 18 or later)")
    return found


def tsc(root: str) -> list[str]:
    """The TypeScript compiler: the package's own (``npm ci --prefix generated/typescript``, in the
    project or in betspec's source tree), else one on the path."""
    for base in (root, str(SOURCE_ROOT)):  # a house's own, else betspec's checkout's
        local = Path(base, *PACKAGE, "node_modules", "typescript", "bin", "tsc")
        if local.is_file():
            return [node(), str(local)]
    found = shutil.which("tsc")
    if found is not None:
        return [found]
    raise NodeMissing("the TypeScript compiler is not installed: run `npm ci --prefix generated/typescript`")


def _sources(root: str) -> list[Path]:
    folder = Path(root, *SOURCES)
    found = sorted(folder.glob("*.ts"))
    if not found:
        raise NodeMissing(f"no TypeScript engines in {folder}: run `betspec generate`")
    return [*found, RUNNER, NODE_TYPES]


def build(root: str) -> Path:
    """The folder of the compiled engines and runner (compiled now if their sources changed)."""
    sources = _sources(root)
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    target = cache() / "typescript" / digest.hexdigest()[:16]
    if (target / "runner.js").is_file():
        return target
    compiler = tsc(root)
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(dir=target.parent, prefix=".build-"))
    try:
        src = work / "src"
        src.mkdir()
        for path in sources:
            shutil.copyfile(path, src / path.name)
        (work / "package.json").write_text('{"type": "module"}\n')
        config = {
            "compilerOptions": {
                "target": "ES2022",
                "module": "NodeNext",
                "moduleResolution": "NodeNext",
                "strict": True,
                "outDir": "out",
                "rootDir": "src",
                "types": [],
                "skipLibCheck": True,
            },
            "include": ["src/*.ts"],
        }
        (work / "tsconfig.json").write_text(json.dumps(config))
        done = subprocess.run([*compiler, "-p", str(work)], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"tsc --strict failed on the TypeScript engines:\n{done.stdout}{done.stderr}")
        out = work / "out"
        (out / "package.json").write_text('{"type": "module"}\n')
        try:
            os.replace(out, target)
        except OSError:  # another process built it first
            if not (target / "runner.js").is_file():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def run_cases(paths: Sequence[str], root: str) -> Iterator[Outcome]:
    """Each case through the TypeScript engines, as :func:`betspec.conformance.runner.run_case`
    runs it through the Python ones: a case the format refuses is INVALID without running."""
    folder = build(root)
    valid: list[str] = []
    invalid: dict[str, Outcome] = {}
    for path in paths:
        case, diagnostics = load_case(path)
        if case is None:
            invalid[path] = Outcome(path, path, "INVALID", "; ".join(str(d) for d in diagnostics[:5]))
        else:
            valid.append(path)
    results: dict[str, Outcome] = {}
    for start in range(0, len(valid), BATCH):
        chunk = valid[start : start + BATCH]
        done = subprocess.run(
            [node(), str(folder / "runner.js"), "cases", *chunk], capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"the Node runner failed: {done.stderr.strip()[-2000:]}")
        for line in done.stdout.splitlines():
            data = json.loads(line)
            results[data["path"]] = Outcome(data["path"], data["id"], data["status"], data["detail"], data["steps"])
    for path in paths:
        yield invalid.get(path) or results[path]


class Server:
    """A Node process holding TypeScript hands, answering requests as JSON lines."""

    def __init__(self, root: str) -> None:
        folder = build(root)
        self.process = subprocess.Popen(
            [node(), str(folder / "runner.js"), "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def ask(self, request: dict[str, Any]) -> Any:
        """The answer to one request: ``{"ok": ...}`` or ``{"error": {...}}``."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the Node runner stopped")
        return json.loads(line)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def outcomes_text(outcomes: Iterable[Outcome]) -> Iterator[str]:
    for outcome in outcomes:
        yield outcome.line()
