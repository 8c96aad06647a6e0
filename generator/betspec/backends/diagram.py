"""The diagram back end: a spec's state graph as Graphviz DOT and SVG, through pydot.

Extract, then render: :func:`extract` reduces the spec to what a reader of the rulebooks
recognises (a cluster per street; a round not yet opened, a bet to face, waiting for the next
card; all-in runout, showdown, a pot won uncontested), merging the transitions between the same
two states into one edge labelled with its events, guards and the rules they cite.
:func:`render` turns that into pydot objects. SVG is drawn by ``graphviz-pure``, a pip-installed
renderer that writes the same bytes on every machine.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass, field

import pydot

from betspec.model import Spec

STREET_ORDER = ("preflop", "flop", "turn", "river", "over")
STREET_TITLES = {"preflop": "Pre-flop", "flop": "Flop", "turn": "Turn", "river": "River", "over": "Betting over"}
PHASE_STYLE = {
    "start": {"shape": "circle", "style": "filled", "fillcolor": "#333333", "fontcolor": "white"},
    "unopened": {"shape": "box", "style": "rounded,filled", "fillcolor": "#e8f4e8"},
    "facing_bet": {"shape": "box", "style": "rounded,filled", "fillcolor": "#fbe9d0"},
    "complete": {"shape": "box", "style": "rounded,dashed"},
    "runout": {"shape": "box", "style": "rounded,filled", "fillcolor": "#f4e0f4"},
    "showdown": {"shape": "doublecircle"},
    "settled": {"shape": "doublecircle"},
}


@dataclass
class Edge:
    source: str
    dest: str
    lines: list[str] = field(default_factory=list)


@dataclass
class Diagram:
    name: str
    title: str
    clusters: dict[str, list[tuple[str, str, str]]]  # street -> (state, label, phase)
    edges: list[Edge]
    notes: list[tuple[str, list[str]]] = field(default_factory=list)  # (title, lines) boxes


def extract(spec: Spec) -> Diagram:
    clusters: dict[str, list[tuple[str, str, str]]] = {}
    for state in spec.states.values():
        street = "start" if state.phase == "start" else state.street
        street = "over" if street in ("showdown", "settled") else street
        clusters.setdefault(street, []).append((state.name, state.label, state.phase))
    edges: dict[tuple[str, str], Edge] = {}
    for t in spec.transitions:
        edge = edges.setdefault((t.source, t.dest), Edge(t.source, t.dest))
        guard = f" [{t.guard.text}]" if t.guard is not None else ""
        line = f"{t.event}{guard} ({t.rule})"
        if line not in edge.lines:
            edge.lines.append(line)
    notes: list[tuple[str, list[str]]] = []
    requirements = [
        f"{event.name}: [{r.expr.text}] else {r.error} ({r.rule})"
        for event in spec.events.values()
        for r in event.requires
    ]
    if requirements:
        notes.append(("Each action requires, in order", requirements))
    if spec.push_rulings:
        rulings = []
        for number, entry in enumerate(spec.push_rulings, 1):
            to = f" to {entry.to.text}" if entry.to is not None else ""
            rulings.append(f"{number}. [{entry.when.text}] {entry.ruling}{to} ({entry.rule})")
        notes.append(("Chips pushed are ruled by the first that applies", rulings))
    return Diagram(spec.name, spec.title, clusters, list(edges.values()), notes)


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
    order = ["start", *STREET_ORDER]
    for street in sorted(diagram.clusters, key=order.index):
        states = diagram.clusters[street]
        container: pydot.Dot | pydot.Cluster = graph
        if street != "start":
            container = pydot.Cluster(
                _quoted(street)[1:-1],
                label=_quoted(STREET_TITLES[street]),
                style="rounded",
                color="#999999",
            )
            graph.add_subgraph(container)
        for name, label, phase in states:
            container.add_node(pydot.Node(name, label=_quoted(f"{label}\n{name}"), **PHASE_STYLE[phase]))
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


class RenderError(Exception):
    pass


def to_svg(graph: pydot.Dot) -> str:
    """The SVG of a rendered diagram, drawn by graphviz-pure through pydot."""
    program = renderer()
    if program is None:
        raise RenderError("graphviz-pure is not installed: run the README's setup command")
    try:
        svg = graph.create(prog=program, format="svg")
    except (OSError, AssertionError, RuntimeError) as exc:
        raise RenderError(f"graphviz-pure failed: {exc}") from None
    return svg.decode("utf-8")


def with_comment(svg: str, lines: list[str]) -> str:
    """``svg`` with ``lines`` as an XML comment after its XML declaration."""
    body = "\n".join(line.replace("--", "- -") for line in lines)
    comment = f"<!--\n{body}\n-->\n"
    if svg.startswith("<?xml"):
        end = svg.index("\n") + 1
        return svg[:end] + comment + svg[end:]
    return comment + svg
