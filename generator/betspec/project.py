"""Where things are in a betspec project, and what generating it produces.

A project is a folder with ``spec/*.json`` (the specs) and the folders its back ends write
(``generated/``, ``diagrams/``). :func:`outputs` computes every generated file in memory, so
``generate`` and ``generate --check`` share one code path.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from typing import TYPE_CHECKING

from betspec.diagnostics import Diagnostic, DiagnosticCode, Position

# The front end and the back ends are imported where they are used: every command builds a
# Project, and `betspec --help` or `play` should not wait for what only validate and generate run.
if TYPE_CHECKING:
    from betspec import backends
    from betspec.backends.base import Context
    from betspec.backends.book_model import WorkedExample
    from betspec.model import Spec


@dataclass(frozen=True)
class Project:
    root: str

    @property
    def spec_dir(self) -> str:
        return os.path.join(self.root, "spec")

    def spec_files(self) -> list[str]:
        try:
            names = sorted(n for n in os.listdir(self.spec_dir) if n.endswith(".json"))
        except OSError:
            return []
        return [os.path.join(self.spec_dir, n) for n in names]


def load_all(paths: list[str]) -> tuple[list[Spec], list[Diagnostic]]:
    from betspec.frontend import load_spec

    specs: list[Spec] = []
    diagnostics: list[Diagnostic] = []
    for path in paths:
        spec, found = load_spec(path)
        diagnostics += found
        if spec is not None:
            name = os.path.splitext(os.path.basename(path))[0]
            if spec.name != name:
                message = f"the spec is named {spec.name!r} but its file is {name}.json"
                diagnostics.append(Diagnostic(Position(path, 1, 1), "/name", DiagnosticCode.NAME, message))
                continue
            specs.append(spec)
    # A base's problem is found once for every spec that extends it: report it once.
    return specs, sorted(set(diagnostics))


def context(project: Project) -> Context:
    from betspec.backends.base import Context

    """What the back ends are given beside the specs: the project's cases played as worked
    examples, each spec's once, however many back ends ask."""
    from betspec.conformance.examples import case_files, examples
    from betspec.tools import explore

    played: dict[str, list[WorkedExample]] = {}

    def worked(spec: Spec) -> list[WorkedExample]:
        if spec.name not in played:
            played[spec.name] = examples(spec, explore.engine_module(spec, project.root), project.root)
        return played[spec.name]

    return Context(worked, case_files(project.root)[1])


def outputs(project: Project, specs: list[Spec], only: tuple[str, ...] = ()) -> dict[str, str]:
    """Every generated file of ``specs``, from every registered back end (or those named in
    ``only``): path -> content."""
    files: dict[str, str] = {}
    given = context(project)
    for backend in selected(only):
        for relative, content in backend.render(specs, project.root, given).items():
            files[os.path.join(project.root, *relative.split("/"))] = content
    return files


def selected(only: tuple[str, ...] = ()) -> list[backends.Backend]:
    from betspec import backends

    return [backend for backend in backends.REGISTRY if not only or backend.name in only]


def orphans(project: Project, expected: dict[str, str], only: tuple[str, ...] = ()) -> list[str]:
    """Generated files with no spec behind them any more, in the folders the back ends own."""
    found = []
    for backend in selected(only):
        for folder, suffixes in backend.owns:
            directory = os.path.join(project.root, folder)
            try:
                names = sorted(os.listdir(directory))
            except OSError:
                continue
            for name in names:
                path = os.path.join(directory, name)
                if name.endswith(suffixes) and path not in expected:
                    found.append(path)
    return found


def write_atomically(path: str, content: str) -> None:
    """Write ``content`` to ``path`` so that a reader, or a failure, never sees half a file:
    the text goes to a temporary file beside it, which then replaces it in one step."""
    folder = os.path.dirname(path) or "."
    os.makedirs(folder, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".betspec-", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(content)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
