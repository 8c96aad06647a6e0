"""Where things are in a betspec project, and what generating it produces.

A project is a folder with ``spec/*.json`` (the specs), ``generated/`` (one engine module per
concrete spec) and ``diagrams/`` (a DOT and an SVG per spec). :func:`outputs` computes every
generated file in memory, so ``generate`` and ``generate --check`` share one code path.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass

from betspec.backends import diagram, python
from betspec.diagnostics import Diagnostic, Position
from betspec.frontend import load_spec
from betspec.model import Spec

GENERATED_INIT = '"""Engines generated from spec/*.json by `betspec generate`. Do not edit: regenerate."""\n'


@dataclass(frozen=True)
class Project:
    root: str

    @property
    def spec_dir(self) -> str:
        return os.path.join(self.root, "spec")

    @property
    def generated_dir(self) -> str:
        return os.path.join(self.root, "generated")

    @property
    def diagrams_dir(self) -> str:
        return os.path.join(self.root, "diagrams")

    def spec_files(self) -> list[str]:
        try:
            names = sorted(n for n in os.listdir(self.spec_dir) if n.endswith(".json"))
        except OSError:
            return []
        return [os.path.join(self.spec_dir, n) for n in names]


def load_all(paths: list[str]) -> tuple[list[Spec], list[Diagnostic]]:
    specs: list[Spec] = []
    diagnostics: list[Diagnostic] = []
    for path in paths:
        spec, found = load_spec(path)
        diagnostics += found
        if spec is not None:
            name = os.path.splitext(os.path.basename(path))[0]
            if spec.name != name:
                message = f"the spec is named {spec.name!r} but its file is {name}.json"
                diagnostics.append(Diagnostic(Position(path, 1, 1), "/name", "name", message))
                continue
            specs.append(spec)
    return specs, diagnostics


def outputs(project: Project, specs: list[Spec]) -> dict[str, str]:
    """Every generated file of ``specs``: path -> content. Engines for concrete specs only."""
    files: dict[str, str] = {os.path.join(project.generated_dir, "__init__.py"): GENERATED_INIT}
    for spec in specs:
        if not spec.abstract:
            source = python.generate(spec, project.root)
            files[os.path.join(project.generated_dir, f"{spec.name}.py")] = source
        graph = diagram.render(diagram.extract(spec))
        lines = [line[2:] for line in python.header(spec, project.root)]
        dot_header = "".join(f"// {line}\n" for line in lines)
        files[os.path.join(project.diagrams_dir, f"{spec.name}.dot")] = dot_header + graph.to_string()
        files[os.path.join(project.diagrams_dir, f"{spec.name}.svg")] = diagram.with_comment(
            diagram.to_svg(graph), lines
        )
    return files


def orphans(project: Project, expected: dict[str, str]) -> list[str]:
    """Generated files with no spec behind them any more."""
    found = []
    for folder, suffixes in ((project.generated_dir, (".py",)), (project.diagrams_dir, (".dot", ".svg"))):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
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
