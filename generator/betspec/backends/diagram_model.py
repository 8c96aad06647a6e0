"""The diagram model: what a reader of a spec's state graph sees, whatever draws it.

:func:`extract` reduces a spec to what a reader of the rulebooks recognises (the betting round
every street plays, named with the streets: a round not yet opened, a bet to face, waiting for
the next street; then all-in runout, showdown, a pot won uncontested), merging the transitions
between the same two states into one edge labelled with its events, guards and the rules they
cite, and listing the requirements and the rulings as notes. The DOT and Mermaid back ends draw it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from betspec.model import Spec

#: The groups of states a diagram draws, in order: the start, the round every street plays, the end.
CLUSTER_ORDER = ("start", "round", "over")
_CLUSTER_OF_PHASE = {"start": "start", "runout": "over", "showdown": "over", "settled": "over"}


@dataclass
class Edge:
    source: str
    dest: str
    lines: list[str] = field(default_factory=list)


@dataclass
class Diagram:
    name: str
    title: str
    clusters: dict[str, list[tuple[str, str, str]]]  # cluster -> (state, label, phase)
    edges: list[Edge]
    titles: dict[str, str] = field(default_factory=dict)  # cluster -> its title
    notes: list[tuple[str, list[str]]] = field(default_factory=list)  # (title, lines) boxes


def extract(spec: Spec) -> Diagram:
    clusters: dict[str, list[tuple[str, str, str]]] = {}
    for state in spec.states.values():
        cluster = _CLUSTER_OF_PHASE.get(state.phase, "round")
        clusters.setdefault(cluster, []).append((state.name, state.label, state.phase))
    streets = ", ".join(street.name for street in spec.streets) or "the streets of the specs extending it"
    titles = {"round": f"Each betting round ({streets})", "over": "Betting over"}
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
    return Diagram(spec.name, spec.title, clusters, list(edges.values()), titles, notes)
