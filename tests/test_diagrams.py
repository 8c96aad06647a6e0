"""The diagram model and the DOT back end: every transition on one edge, guards in the legend,
the streets in order, and labels held to the widths graphviz laid them out at."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from betspec.backends import dot
from betspec.backends.diagram_model import PARENT, betting_round, streets
from betspec.frontend import load_spec
from betspec.model import Spec
from tests.conftest import ROOT, SPEC_DIR

SPECS = sorted(SPEC_DIR.glob("*.json"))


def _spec(path: Path) -> Spec:
    spec, found = load_spec(str(path))
    assert spec is not None, found
    return spec


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_every_transition_is_a_line_of_one_edge_and_every_guard_is_in_the_legend(path: Path) -> None:
    spec = _spec(path)
    diagram = betting_round(spec)
    held: dict[str, set[str]] = {}
    for cluster, nodes in diagram.clusters.items():
        for name in (cluster, PARENT.get(cluster, "")):
            held.setdefault(name, set()).update(node.name for node in nodes)
    keys = {text: key for key, text, _rule in diagram.legend}
    for t in spec.transitions:
        guard = f" [{keys[t.guard.text]}]" if t.guard is not None else ""
        line = f"{t.event}{guard} ({t.rule})"
        carrying = [
            e
            for e in diagram.edges
            if e.dest == t.dest
            and line in e.lines
            and (e.source == t.source or t.source in held.get(e.from_cluster, ()))
        ]
        assert len(carrying) == 1, (t, carrying)
    guards = {t.guard.text: t.rule for t in spec.transitions if t.guard is not None}
    assert {text: rule for _key, text, rule in diagram.legend} == guards
    assert [key for key, _text, _rule in diagram.legend] == [f"G{i}" for i in range(1, len(guards) + 1)]


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_the_streets_overview_draws_the_declared_streets_in_order(path: Path) -> None:
    spec = _spec(path)
    diagram = streets(spec)
    names = [node.lines[0] for node in diagram.clusters["round"]]
    assert names == ([s.name for s in spec.streets] or ["the streets"])
    chain = [
        (e.source, e.dest) for e in diagram.edges if e.source.startswith("street_") and e.dest.startswith("street_")
    ]
    nodes = [node.name for node in diagram.clusters["round"]]
    assert chain == list(itertools.pairwise(nodes))
    for street in spec.streets:
        for name, value in street.values.items():
            shown = f"{name}: {str(value).lower() if isinstance(value, bool) else value}"
            node = next(n for n in diagram.clusters["round"] if n.name == f"street_{street.name}")
            assert (shown in node.lines) == (value != spec.street_values[name].default), (street.name, name)


def test_an_svg_text_is_held_to_the_width_graphviz_measured() -> None:
    svg = '<text text-anchor="middle" x="10.5" y="-20.25" font-size="11">a</text>'
    xdot = "T 10.5 20.25 0 33.75 1 -a "
    assert 'textLength="33.75" lengthAdjust="spacingAndGlyphs"' in dot.fit_text(svg, xdot)
    assert dot.fit_text(svg, "T 99 99 0 1 1 -a ") == svg  # no measure found: left alone


@pytest.mark.parametrize("svg", sorted((ROOT / "diagrams").glob("*.svg")), ids=lambda p: p.stem)
def test_every_committed_label_is_held_to_its_width(svg: Path) -> None:
    texts = re.findall(r"<text [^>]*>", svg.read_text())
    assert texts
    assert all('textLength="' in text for text in texts), [t for t in texts if "textLength" not in t][:3]
