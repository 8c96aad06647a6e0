"""The DOT back end: a spec's diagram as Graphviz DOT and SVG, through pydot.

:func:`render` turns a diagram of the model (:mod:`betspec.backends.diagram_model`) into pydot
objects. SVG is drawn by ``graphviz-pure``, a pip-installed renderer that writes the same bytes on
every machine.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import sys
from collections.abc import Sequence

import pydot

from betspec.backends.base import BackendError, Context, header, header_lines, register
from betspec.backends.diagram_model import CLUSTER_ORDER, PARENT, WRAP, Diagram, betting_round, diagrams, wrap
from betspec.model import Spec

PHASE_STYLE = {
    "start": {"shape": "box", "style": "rounded,filled", "fillcolor": "#333333", "fontcolor": "white"},
    "unopened": {"shape": "box", "style": "rounded,filled", "fillcolor": "#e8f4e8"},
    "facing_bet": {"shape": "box", "style": "rounded,filled", "fillcolor": "#fbe9d0"},
    "complete": {"shape": "box", "style": "rounded,dashed"},
    "street": {"shape": "box", "style": "rounded,filled", "fillcolor": "#e8eef8"},
    "runout": {"shape": "box", "style": "rounded,filled", "fillcolor": "#f4e0f4"},
    "showdown": {"shape": "box", "style": "rounded,bold", "peripheries": "2"},
    "settled": {"shape": "box", "style": "rounded,bold", "peripheries": "2"},
    "dead": {"shape": "box", "style": "rounded,dashed,bold", "peripheries": "2"},
}


def _quoted(text: str, newline: str = "\\n") -> str:
    """A DOT double-quoted string: backslashes and quotes escaped, line breaks as ``newline``."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\r", "").replace("\n", newline) + '"'


def _html(text: str) -> str:
    """Text safe inside a DOT HTML-like label."""
    return html.escape(text.replace("\r", "").replace("\n", " "), quote=True)


def _legend(diagram: Diagram) -> str:
    """The guards legend as a DOT HTML-like table: key, expression, rule, one row each."""
    rows = [f'<tr><td colspan="3" align="left"><b>{_html(diagram.legend_title)}</b></td></tr>']
    for key, text, rule in diagram.legend:
        expression = "".join(f'{_html(line)}<br align="left"/>' for line in wrap(text, 2 * WRAP))
        rows.append(f'<tr><td><b>{_html(key)}</b></td><td align="left">{expression}</td><td>{_html(rule)}</td></tr>')
    return '<<table border="0" cellborder="1" cellspacing="0" cellpadding="4">' + "".join(rows) + "</table>>"


def render(diagram: Diagram) -> pydot.Dot:
    graph = pydot.Dot(
        graph_name=_quoted(diagram.name),
        graph_type="digraph",
        rankdir="TB",
        fontname="Helvetica",
        label=_quoted(diagram.title),
        labelloc="t",
        fontsize="18",
        newrank="true",
        compound="true",
    )
    # Sizes a reader reads where the book shows a diagram (at the size it was drawn): the capitals of
    # the smallest text, 12 points, stand more than 10 CSS pixels tall.
    graph.set_node_defaults(fontname="Helvetica", fontsize="12")
    graph.set_edge_defaults(fontname="Helvetica", fontsize="12")
    containers: dict[str, pydot.Dot | pydot.Cluster] = {}
    for cluster in sorted(diagram.clusters, key=CLUSTER_ORDER.index):
        parent = containers.get(PARENT.get(cluster, ""), graph)
        container = parent
        if diagram.titles.get(cluster):
            container = pydot.Cluster(
                cluster, label=_quoted(diagram.titles[cluster]), style="rounded", color="#999999", fontsize="13"
            )
            parent.add_subgraph(container)  # type: ignore[arg-type]  # pydot's hints say Subgraph; a Cluster is one
        containers[cluster] = container
        for node in diagram.clusters[cluster]:
            dot_node = pydot.Node(node.name, label=_quoted("\n".join(node.lines)))
            for key, value in PHASE_STYLE[node.kind].items():
                dot_node.set(key, value)
            container.add_node(dot_node)
    if diagram.legend:
        graph.add_node(pydot.Node("legend", label=_legend(diagram), shape="plaintext", fontsize="12"))
        # Below the machine (hung from the states it ends in), where a reader looks for the key.
        leaving = {edge.source for edge in diagram.edges if edge.source != edge.dest}
        for nodes in diagram.clusters.values():
            for node in nodes:
                if node.name not in leaving:
                    graph.add_edge(pydot.Edge(node.name, "legend", style="invis"))
    for edge in diagram.edges:
        label = "\n".join(edge.lines) + "\n"
        dot_edge = pydot.Edge(edge.source, edge.dest, label=_quoted(label, "\\l"))
        if edge.dashed:
            dot_edge.set("style", "dashed")
        if edge.from_cluster:
            dot_edge.set("ltail", f"cluster_{edge.from_cluster}")
        graph.add_edge(dot_edge)
    return graph


def to_dot(spec: Spec) -> str:
    return render(betting_round(spec)).to_string()


def renderer() -> str | None:
    """The graphviz-pure program installed beside this Python, or on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "graphviz-pure")
    if os.path.exists(beside):
        return beside
    return shutil.which("graphviz-pure")


def _run(graph: pydot.Dot, fmt: str) -> str:
    program = renderer()
    if program is None:
        raise BackendError("graphviz-pure is not installed: run the README's setup command")
    try:
        out: bytes | str = graph.create(prog=program, format=fmt)
    except (OSError, AssertionError, RuntimeError) as exc:
        raise BackendError(f"graphviz-pure failed: {exc}") from None
    return out.decode("utf-8") if isinstance(out, bytes) else out


#: An xdot text operation: ``T x y justification width bytes -text``.
_XDOT_TEXT = re.compile(r"T (-?[\d.]+) (-?[\d.]+) -?\d (-?[\d.]+) \d+ -")
_SVG_TEXT = re.compile(r'<text ([^>]*?)x="(-?[\d.]+)" y="(-?[\d.]+)"')


def _text_widths(xdot: str) -> dict[tuple[float, float], str]:
    """Where graphviz put each text, and the width it laid it out with: (x, y) -> width."""
    flat = xdot.replace("\\\n", "")
    return {(round(float(x), 1), round(float(y), 1)): w for x, y, w in _XDOT_TEXT.findall(flat)}


def fit_text(svg: str, xdot: str) -> str:
    """``svg`` with every text held to the width graphviz measured it at (``textLength``).

    Graphviz sizes boxes with its own font metrics; a browser draws with whatever font it has,
    wider or narrower. Held to its laid-out width, a label fits its box in every font."""
    widths = _text_widths(xdot)

    def held(match: re.Match[str]) -> str:
        width = widths.get((round(float(match[2]), 1), round(-float(match[3]), 1)))
        if width is None:
            return match[0]
        return f'{match[0]} textLength="{width}" lengthAdjust="spacingAndGlyphs"'

    return _SVG_TEXT.sub(held, svg)


def to_svg(graph: pydot.Dot) -> str:
    """The SVG of a rendered diagram, drawn by graphviz-pure through pydot, its text held to fit."""
    return fit_text(_run(graph, "svg"), _run(graph, "xdot"))


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

    def render(self, specs: Sequence[Spec], root: str, context: Context | None = None) -> dict[str, str]:
        files: dict[str, str] = {}
        for spec in specs:
            for stem, diagram in diagrams(spec).items():
                graph = render(diagram)
                files[f"diagrams/{stem}.dot"] = header(spec, root, "// ") + graph.to_string()
                files[f"diagrams/{stem}.svg"] = with_comment(to_svg(graph), header_lines(spec, root))
        return files


BACKEND = register(DotBackend())
