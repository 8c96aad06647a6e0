"""The Mermaid back end: a spec's diagram as a Mermaid state diagram (``diagrams/<spec>.mmd``),
which GitHub and documentation tools draw from text.

It draws the same diagram model as the DOT back end (:mod:`betspec.backends.diagram_model`): a
composite state per street, an edge per pair of states labelled with its events, guards and rules,
and the requirements and rulings as notes.
"""

from __future__ import annotations

from collections.abc import Sequence

from betspec.backends.base import header, register
from betspec.backends.diagram_model import CLUSTER_ORDER, Diagram, extract
from betspec.model import Spec

#: Characters Mermaid reads as syntax in a label, written as its entity codes instead.
_ENTITIES = {"#": "#35;", ";": "#59;", "<": "#lt;", ">": "#gt;", '"': "#quot;", "{": "#123;", "}": "#125;", ":": "#58;"}


def _label(text: str) -> str:
    """Text safe as a Mermaid label: syntax characters as entities, one line."""
    escaped = "".join(_ENTITIES.get(ch, ch) for ch in text)
    return " ".join(escaped.replace("\r", " ").split("\n"))


def render(diagram: Diagram) -> str:
    lines = ["stateDiagram-v2", f"    accTitle: {_label(diagram.title)}"]
    first = None
    for street in sorted(diagram.clusters, key=CLUSTER_ORDER.index):
        states = diagram.clusters[street]
        indent = "    "
        if street != "start":
            lines.append(f'    state "{_label(diagram.titles[street])}" as street_{street} {{')
            indent = "        "
        for name, label, phase in states:
            first = first or name
            lines.append(f"{indent}{name} : {_label(label)}")
            if phase in ("showdown", "settled"):
                lines.append(f"{indent}{name} --> [*]")
        if street != "start":
            lines.append("    }")
    if first is not None:
        lines.append(f"    [*] --> {first}")
    for edge in diagram.edges:
        lines.append(f"    {edge.source} --> {edge.dest} : {'<br/>'.join(_label(line) for line in edge.lines)}")
    for title, notes in diagram.notes:
        if first is None:
            break
        lines.append(f"    note right of {first}")
        lines.append(f"        {_label(title)}")
        lines.extend(f"        {_label(note)}" for note in notes)
        lines.append("    end note")
    return "\n".join(lines) + "\n"


class MermaidBackend:
    name = "mermaid"
    owns: tuple[tuple[str, tuple[str, ...]], ...] = (("diagrams", (".mmd",)),)

    def render(self, specs: Sequence[Spec], root: str) -> dict[str, str]:
        return {f"diagrams/{spec.name}.mmd": header(spec, root, "%% ") + render(extract(spec)) for spec in specs}


BACKEND = register(MermaidBackend())
