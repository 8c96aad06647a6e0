"""The diagram model: what a reader of a spec's graphs sees, whatever draws them.

A spec gets two diagrams, both drawn by the DOT and the Mermaid back ends:

- :func:`betting_round`, the machine every street shares (a round not yet opened, a bet to face,
  waiting for the next street; then all-in runout, showdown, a pot won uncontested). The
  transitions between the same two states are one edge, each line of it an event and the rule it
  cites; a guard is a key (``G1``) on the edge, written out with its rule in the legend, so that
  edges stay short and the expressions readable.
- :func:`streets`, the overview of a hand: the forced bets, the streets in order with what each
  declares, and the ways the betting ends.

The model is text and structure only: the back ends choose shapes and escape the text.
"""

from __future__ import annotations

import itertools
import textwrap
from dataclasses import dataclass, field

from betspec.model import Spec

#: The groups of states a diagram draws, in order: the start, the round (the betting open inside
#: it), the end.
CLUSTER_ORDER = ("start", "round", "betting", "over")
#: A cluster drawn inside another.
PARENT = {"betting": "round"}
_CLUSTER_OF_PHASE = {
    "start": "start",
    "unopened": "betting",
    "facing_bet": "betting",
    "runout": "over",
    "showdown": "over",
    "settled": "over",
    "dead": "over",
}
#: Where a diagram's text is wrapped, in characters: boxes stay narrow whatever the rule's length.
WRAP = 44


@dataclass(frozen=True)
class Node:
    name: str
    lines: tuple[str, ...]  # the label, first line the title
    kind: str  # a phase of vocabulary.PHASES, or "street"


@dataclass
class Edge:
    source: str
    dest: str
    lines: list[str] = field(default_factory=list)
    dashed: bool = False
    from_cluster: str = ""  # drawn from the whole cluster of ``source`` (an exit from any street)


@dataclass
class Diagram:
    name: str  # the graph's name, unique among a project's diagrams
    title: str
    clusters: dict[str, list[Node]]  # cluster -> its nodes, in CLUSTER_ORDER or street order
    edges: list[Edge]
    titles: dict[str, str] = field(default_factory=dict)  # cluster -> its title ("" for none)
    legend_title: str = ""
    legend: list[tuple[str, str, str]] = field(default_factory=list)  # (key, text, rule)


def wrap(text: str, width: int = WRAP) -> list[str]:
    return textwrap.wrap(" ".join(text.split()), width) or [""]


def _street_names(spec: Spec) -> str:
    return ", ".join(street.name for street in spec.streets) or "the streets of the specs extending it"


def betting_round(spec: Spec) -> Diagram:
    clusters: dict[str, list[Node]] = {}
    for state in spec.states.values():
        cluster = _CLUSTER_OF_PHASE.get(state.phase, "round")
        clusters.setdefault(cluster, []).append(Node(state.name, (*wrap(state.label), state.name), state.phase))
    titles = {
        "start": "",
        "round": f"Each betting round ({_street_names(spec)})",
        "betting": "Betting open",
        "over": "Betting over",
    }
    keys: dict[str, str] = {}
    legend: list[tuple[str, str, str]] = []
    edges: dict[tuple[str, str], Edge] = {}
    for t in spec.transitions:
        edge = edges.setdefault((t.source, t.dest), Edge(t.source, t.dest))
        guard = ""
        if t.guard is not None:
            if t.guard.text not in keys:
                keys[t.guard.text] = f"G{len(keys) + 1}"
                legend.append((keys[t.guard.text], t.guard.text, t.rule))
            guard = f" [{keys[t.guard.text]}]"
        line = f"{t.event}{guard} ({t.rule})"
        if line not in edge.lines:
            edge.lines.append(line)
    return Diagram(
        spec.name,
        f"{spec.title}: the betting round",
        clusters,
        _from_clusters(list(edges.values()), clusters),
        titles,
        "Guards: a transition is taken when its guard holds",
        legend,
    )


def _from_clusters(edges: list[Edge], clusters: dict[str, list[Node]]) -> list[Edge]:
    """The edges that leave every state of a cluster alike (the end of a round, from a round
    unopened or facing a bet) drawn once, from the cluster: half the lines to follow."""
    members = {cluster: {node.name for node in nodes} for cluster, nodes in clusters.items() if len(nodes) > 1}
    sources: dict[tuple[str, tuple[str, ...]], set[str]] = {}
    for edge in edges:
        sources.setdefault((edge.dest, tuple(edge.lines)), set()).add(edge.source)
    drawn: list[Edge] = []
    done: set[tuple[str, tuple[str, ...]]] = set()
    for edge in edges:
        key = (edge.dest, tuple(edge.lines))
        cluster = next((c for c, names in members.items() if names == sources[key]), "")
        if not cluster:
            drawn.append(edge)
        elif key not in done:
            done.add(key)
            drawn.append(Edge(edge.source, edge.dest, edge.lines, edge.dashed, cluster))
    return drawn


def _rule_into(spec: Spec, phases: tuple[str, ...], dest_phase: str) -> str:
    """The rules of the transitions from ``phases`` into a state of ``dest_phase``."""
    rules: list[str] = []
    for t in spec.transitions:
        if spec.states[t.source].phase in phases and spec.states[t.dest].phase == dest_phase and t.rule not in rules:
            rules.append(t.rule)
    return ", ".join(rules)


def streets(spec: Spec) -> Diagram:
    """The hand street by street: forced bets, each street with its values, how betting ends."""
    start_lines = ["New hand"]
    always = [bet.name.replace("_", " ") for bet in spec.forced_bets if bet.when is None]
    sometimes = [bet.name.replace("_", " ") for bet in spec.forced_bets if bet.when is not None]
    if always:
        start_lines += wrap("posts: " + ", ".join(always))
    if sometimes:
        start_lines += wrap("when the table says: " + ", ".join(sometimes))
    start = Node("hand_start", tuple(start_lines), "start")
    street_nodes: list[Node] = []
    for street in spec.streets:
        lines = [street.name, *wrap(street.meaning)]
        lines += [
            f"{name}: {str(value).lower() if isinstance(value, bool) else value}"
            for name, value in street.values.items()
            if value != spec.street_values[name].default
        ]
        street_nodes.append(Node(f"street_{street.name}", tuple(lines), "street"))
    if not street_nodes:
        extending = wrap("declared by the specs extending this one")
        street_nodes.append(Node("street_any", ("the streets", *extending), "street"))
    betting = ("unopened", "facing_bet")
    over = [
        Node("showdown", ("Showdown", *wrap("two or more players left after the last round")), "showdown"),
        Node(
            "all_in_runout",
            ("All-in runout", *wrap("at most one player with chips: the rest dealt, no more betting")),
            "runout",
        ),
        Node("settled", ("Pot won uncontested", *wrap("one player left")), "settled"),
    ]
    # A hand that ends with nobody paid (a dead hand, its pot kept for the next deal), in the
    # specs that have one, under the label the spec gives it.
    over += [
        Node(name, tuple(wrap(state.label)), "dead") for name, state in spec.states.items() if state.phase == "dead"
    ]
    edges = [Edge(start.name, street_nodes[0].name, [f"the first round ({_rule_into(spec, ('start',), 'unopened')})"])]
    deal = _rule_into(spec, ("complete",), "unopened")
    for before, after in itertools.pairwise(street_nodes):
        edges.append(Edge(before.name, after.name, [f"deal ({deal})"]))
    last_over = f"last round over ({_rule_into(spec, betting, 'showdown')})"
    edges.append(Edge(street_nodes[-1].name, "showdown", [last_over]))
    for node in over[1:]:
        rule = _rule_into(spec, betting, node.kind)
        edges.append(Edge(street_nodes[0].name, node.name, [f"from any street ({rule})"], True, "round"))
    return Diagram(
        f"{spec.name}_streets",
        f"{spec.title}: the streets",
        {"start": [start], "round": street_nodes, "over": over},
        edges,
        {"start": "", "round": "The betting rounds, in order", "over": "Betting over"},
    )


def diagrams(spec: Spec) -> dict[str, Diagram]:
    """A spec's diagrams by the file stem each is written to."""
    return {spec.name: betting_round(spec), f"{spec.name}.streets": streets(spec)}
