"""The DOT back end: a spec's diagram as Graphviz DOT and SVG, through pydot.

:func:`render` turns the diagram model (:mod:`betspec.backends.diagram_model`) into pydot
objects. SVG is drawn by ``graphviz-pure``, a pip-installed renderer that writes the same bytes on
every machine.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Sequence

import pydot

from betspec.backends.base import BackendError, header, header_lines, register
from betspec.backends.diagram_model import CLUSTER_ORDER, Diagram, extract
from betspec.model import Spec

PHASE_STYLE = {
    "start": {"shape": "circle", "style": "filled", "fillcolor": "#333333", "fontcolor": "white"},
    "unopened": {"shape": "box", "style": "rounded,filled", "fillcolor": "#e8f4e8"},
    "facing_bet": {"shape": "box", "style": "rounded,filled", "fillcolor": "#fbe9d0"},
    "complete": {"shape": "box", "style": "rounded,dashed"},
    "runout": {"shape": "box", "style": "rounded,filled", "fillcolor": "#f4e0f4"},
    "showdown": {"shape": "doublecircle"},
    "settled": {"shape": "doublecircle"},
}


def _quoted(text: str, newline: str = "\\n") -> str:
    """A DOT double-quoted string: backslashes and quotes escaped, line breaks as ``newline``."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\r", "").replace("\n", newline) + '"'


def render(diagram: Diagram) -> pydot.Dot:
    graph = pydot.Dot(
        graph_name=_quoted(diagram.name),
        graph_type="digraph",
        rankdir="TB",
        fontname="Helvetica",
        label=_quoted(diagram.title),
        labelloc="t",
        fontsize="20",
        newrank="true",
    )
    graph.set_node_defaults(fontname="Helvetica", fontsize="11")
    graph.set_edge_defaults(fontname="Helvetica", fontsize="9")
    for street in sorted(diagram.clusters, key=CLUSTER_ORDER.index):
        states = diagram.clusters[street]
        container: pydot.Dot | pydot.Cluster = graph
        if street != "start":
            container = pydot.Cluster(
                _quoted(street)[1:-1],
                label=_quoted(diagram.titles[street]),
                style="rounded",
                color="#999999",
            )
            graph.add_subgraph(container)  # type: ignore[arg-type]  # pydot's hints say Subgraph; a Cluster is one
        for name, label, phase in states:
            node = pydot.Node(name, label=_quoted(f"{label}\n{name}"))
            for key, value in PHASE_STYLE[phase].items():
                node.set(key, value)
            container.add_node(node)
    for number, (title, lines) in enumerate(diagram.notes):
        text = title + ":\n" + "\n".join(lines) + "\n"
        graph.add_node(
            pydot.Node(
                f"note_{number}",
                label=_quoted(text, "\\l"),
                shape="note",
                fontsize="9",
                style="filled",
                fillcolor="#ffffee",
            )
        )
    for edge in diagram.edges:
        label = "\n".join(edge.lines) + "\n"
        graph.add_edge(pydot.Edge(edge.source, edge.dest, label=_quoted(label, "\\l")))
    return graph


def to_dot(spec: Spec) -> str:
    return render(extract(spec)).to_string()


def renderer() -> str | None:
    """The graphviz-pure program installed beside this Python, or on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "graphviz-pure")
    if os.path.exists(beside):
        return beside
    return shutil.which("graphviz-pure")


def to_svg(graph: pydot.Dot) -> str:
    """The SVG of a rendered diagram, drawn by graphviz-pure through pydot."""
    program = renderer()
    if program is None:
        raise BackendError("graphviz-pure is not installed: run the README's setup command")
    try:
        svg: bytes | str = graph.create(prog=program, format="svg")
    except (OSError, AssertionError, RuntimeError) as exc:
        raise BackendError(f"graphviz-pure failed: {exc}") from None
    return svg.decode("utf-8") if isinstance(svg, bytes) else svg


def with_comment(svg: str, lines: list[str]) -> str:
    """``svg`` with ``lines`` as an XML comment after its XML declaration."""
    body = "\n".join(line.replace("--", "- -") for line in lines)
    comment = f"<!--\n{body}\n-->\n"
    if svg.startswith("<?xml"):
        end = svg.index("\n") + 1
        return svg[:end] + comment + svg[end:]
    return comment + svg


class DotBackend:
    name = "dot"
    owns: tuple[tuple[str, tuple[str, ...]], ...] = (("diagrams", (".dot", ".svg")),)

    def render(self, specs: Sequence[Spec], root: str) -> dict[str, str]:
        files: dict[str, str] = {}
        for spec in specs:
            graph = render(extract(spec))
            files[f"diagrams/{spec.name}.dot"] = header(spec, root, "// ") + graph.to_string()
            files[f"diagrams/{spec.name}.svg"] = with_comment(to_svg(graph), header_lines(spec, root))
        return files


BACKEND = register(DotBackend())
