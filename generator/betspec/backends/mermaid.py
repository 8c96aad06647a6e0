"""The Mermaid back end: a spec's diagram as a Mermaid state diagram (``diagrams/<spec>.mmd``),
which GitHub and documentation tools draw from text.

It draws the same diagrams as the DOT back end (:mod:`betspec.backends.diagram_model`): the
betting round (a composite state for the round, an edge per pair of states labelled with its events
and rules, the guards' legend as a note) and the streets overview.
"""

from __future__ import annotations

from collections.abc import Sequence

from betspec.backends.base import Context, header, register
from betspec.backends.diagram_model import CLUSTER_ORDER, PARENT, Diagram, diagrams
from betspec.model import Spec
from betspec.vocabulary import FINAL_PHASES

#: Characters Mermaid reads as syntax in a label, written as its entity codes instead.
_ENTITIES = {"#": "#35;", ";": "#59;", "<": "#lt;", ">": "#gt;", '"': "#quot;", "{": "#123;", "}": "#125;", ":": "#58;"}


def _label(text: str) -> str:
    """Text safe as a Mermaid label: syntax characters as entities, one line."""
    escaped = "".join(_ENTITIES.get(ch, ch) for ch in text)
    return " ".join(escaped.replace("\r", " ").split("\n"))


def render(diagram: Diagram) -> str:
    lines = ["stateDiagram-v2", f"    accTitle: {_label(diagram.title)}"]
    order = sorted(diagram.clusters, key=CLUSTER_ORDER.index)
    first = diagram.clusters[order[0]][0].name if order and diagram.clusters[order[0]] else None

    def emit(cluster: str, indent: str) -> None:
        title = diagram.titles.get(cluster, "")
        inner = indent
        if title:
            lines.append(f'{indent}state "{_label(title)}" as cluster_{cluster} {{')
            inner = indent + "    "
        for node in diagram.clusters[cluster]:
            lines.append(f"{inner}{node.name} : {'<br/>'.join(_label(line) for line in node.lines)}")
            if node.kind in FINAL_PHASES:
                lines.append(f"{inner}{node.name} --> [*]")
        for child in order:
            if PARENT.get(child) == cluster:
                emit(child, inner)
        if title:
            lines.append(f"{indent}}}")

    for cluster in order:
        if PARENT.get(cluster) not in diagram.clusters:
            emit(cluster, "    ")
    if first is not None:
        lines.append(f"    [*] --> {first}")
    for edge in diagram.edges:
        source = f"cluster_{edge.from_cluster}" if edge.from_cluster else edge.source
        lines.append(f"    {source} --> {edge.dest} : {'<br/>'.join(_label(line) for line in edge.lines)}")
    if diagram.legend and first is not None:
        lines.append(f"    note right of {first}")
        lines.append(f"        {_label(diagram.legend_title)}")
        lines.extend(f"        {_label(f'{key}: {text} ({rule})')}" for key, text, rule in diagram.legend)
        lines.append("    end note")
    return "\n".join(lines) + "\n"


class MermaidBackend:
    name = "mermaid"
    owns: tuple[tuple[str, tuple[str, ...]], ...] = (("diagrams", (".mmd",)),)

    def render(self, specs: Sequence[Spec], root: str, context: Context | None = None) -> dict[str, str]:
        return {
            f"diagrams/{stem}.mmd": header(spec, root, "%% ") + render(diagram)
            for spec in specs
            for stem, diagram in diagrams(spec).items()
        }


BACKEND = register(MermaidBackend())
