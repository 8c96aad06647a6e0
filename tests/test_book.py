"""The reference book: a page per structure in Markdown and HTML, every rule written out with the
worked examples that show it, links that lead somewhere, spec text that stays text."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from betspec.backends import reference, site
from betspec.backends.book_model import RULES_PAGE, Paragraph, book, example_anchor, rule_anchor, spec_page
from betspec.cli import main
from betspec.conformance.examples import NOT_EXAMPLES, case_files
from betspec.frontend import load_spec
from betspec.project import Project, context
from betspec.runtime import engine_names
from tests.conftest import ROOT, SPEC_DIR

DOCS = ROOT / "docs"


def _spec(name: str):
    spec, found = load_spec(str(SPEC_DIR / f"{name}.json"))
    assert spec is not None, found
    return spec


def _example_cases() -> dict[str, list[dict]]:
    by_structure: dict[str, list[dict]] = {}
    for path in case_files(str(ROOT))[0]:
        case = json.loads(Path(path).read_text(encoding="utf-8"))
        by_structure.setdefault(case["structure"], []).append(case)
    return by_structure


@pytest.mark.parametrize("name", engine_names())
def test_a_page_writes_out_every_rule_and_every_example_of_its_structure(name: str) -> None:
    spec = _spec(name)
    md = (DOCS / "reference" / f"{name}.md").read_text(encoding="utf-8")
    page = (DOCS / "site" / f"{name}.html").read_text(encoding="utf-8")
    shown = _shown(name)
    assert shown and shown <= set(spec.rules)
    for rule_id, rule in spec.rules.items():
        if rule_id not in shown:
            assert f'id="{rule_anchor(rule_id)}"' not in page and f"**{rule_id}**" not in md
            continue
        assert f'<a id="{rule_anchor(rule_id)}"></a>**{rule_id}**' in md
        assert f'<p id="{rule_anchor(rule_id)}"><strong>{rule_id}</strong>: ' in page
        assert html.escape(" ".join(rule.source.split()), quote=True) in page
    cases = _example_cases().get(name, [])
    assert cases, name
    for case in cases:
        assert f'<h3 id="{example_anchor(case["id"])}">' in page, case["id"]
        steps = [s for s in case["steps"]]
        # the steps table has one row per step of the case
        section = page.split(f'<h3 id="{example_anchor(case["id"])}">')[1].split("<h3 ")[0]
        assert section.count("<tr><td>") == len(steps) + sum(1 for _ in _setup(case)), case["id"]
    assert "could not be played" not in md


def _setup(case: dict):
    yield from case.get("table", {})
    yield from case.get("options", {})
    yield from case.get("start", {})


@pytest.mark.parametrize("folder", ["reference", "site"])
def test_every_link_leads_to_an_anchor_or_a_file(folder: str) -> None:
    for path in sorted((DOCS / folder).glob("*.*")):
        if path.suffix in (".css", ".js"):  # the style and the live pages' script (tests/test_live_book.py)
            continue
        text = path.read_text(encoding="utf-8")
        anchors = set(re.findall(r'id="([^"]+)"', text))
        targets = (
            re.findall(r"\]\(([^)]+)\)", text) if folder == "reference" else re.findall(r'(?:href|src)="([^"]+)"', text)
        )
        assert targets, path
        for target in targets:
            target = html.unescape(target)
            file, _, anchor = target.partition("#")
            if not file:
                assert anchor in anchors, (path.name, target)
                continue
            resolved = (path.parent / file).resolve()
            assert resolved.exists(), (path.name, target)
            if anchor:
                assert f'id="{anchor}"' in resolved.read_text(encoding="utf-8"), (path.name, target)


def test_a_refusal_or_a_ruling_credits_its_rule_to_the_example() -> None:
    given = context(Project(str(ROOT)))
    refused = 0
    for name in engine_names():
        for example in given.examples(_spec(name)):
            for step in example.steps:
                if step.rule:
                    assert step.rule in example.decided, (example.id, step)
                    refused += step.outcome.startswith("refused")
    assert refused > 20


def test_machine_found_cases_and_real_hands_are_counted_not_shown() -> None:
    examples, others = case_files(str(ROOT))
    assert others > 100
    assert not any(f"/{folder}/" in path.replace("\\", "/") for path in examples for folder in NOT_EXAMPLES)
    index = (DOCS / "reference" / "index.md").read_text(encoding="utf-8")
    assert f"Not shown as examples: {others} further cases" in index


HOSTILE = "</td></tr><script>alert(1)</script> | [x](javascript:alert(1)) `y` *z* <!-- -->"


def test_spec_text_stays_text_in_both_renderings(project: Path) -> None:
    path = project / "spec" / "no_limit.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    first = next(iter(doc["rules"]))
    doc["rules"][first]["text"] = HOSTILE
    doc["title"] = HOSTILE
    path.write_text(json.dumps(doc), encoding="utf-8")
    spec, found = load_spec(str(path))
    assert spec is not None, found
    page = spec_page(spec, str(project), [])
    out = site.render(page)
    assert "<script>" not in out and 'href="javascript' not in out
    assert out.count("<table>") == out.count("</table>") and out.count("<!--") == 1 and "<!-- -->" not in out
    assert html.escape(" ".join(HOSTILE.split()), quote=True) in out
    md = reference.render(page)
    assert (
        "<script>" not in md
        and "[x](javascript" not in md
        and sum(line.startswith("<!--") for line in md.splitlines()) == len(page.header)
    )
    assert f"# {reference._cell(HOSTILE)} (no\\_limit)\n" in md


def test_docs_writes_the_book_and_nothing_else(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--root", str(project), "docs"]) == 0
    written = sorted(p.relative_to(project).parts[0] for p in project.rglob("*.*") if "spec" not in p.parts)
    assert set(written) == {"docs"}
    assert main(["--root", str(project), "docs", "--check"]) == 0
    (project / "docs" / "site" / "no_limit.html").write_text("stale", encoding="utf-8")
    (project / "docs" / "site" / "gone.html").write_text("orphan", encoding="utf-8")
    assert main(["--root", str(project), "docs", "--check"]) == 1
    out = capsys.readouterr().out
    assert "stale: " in out and "no_limit.html" in out and "gone.html has no spec behind it" in out


def test_the_index_lists_every_structure() -> None:
    pages = book([_spec(name) for name in engine_names()], str(ROOT), None)
    assert [p.name for p in pages] == ["index", RULES_PAGE, *sorted(engine_names())]
    index = (DOCS / "site" / "index.html").read_text(encoding="utf-8")
    for name in engine_names():
        assert f'href="{name}.html"' in index
    assert all(isinstance(b, Paragraph) or b for b in pages[0].blocks)


def _shown(name: str) -> set[str]:
    """The rules a structure's page writes out, as its page lists them by id."""
    md = (DOCS / "reference" / f"{name}.md").read_text(encoding="utf-8")
    line = next(line for line in md.splitlines() if line.startswith("By id: "))
    return set(re.findall(r"\[([A-Z0-9-]+)\]\(#rule-", line))


@pytest.mark.parametrize("name", engine_names())
def test_a_page_opens_with_its_contents(name: str) -> None:
    md = (DOCS / "reference" / f"{name}.md").read_text(encoding="utf-8")
    page = (DOCS / "site" / f"{name}.html").read_text(encoding="utf-8")
    sections = re.findall(r"^## .* <a id=\"([^\"]+)\"></a>$", md, re.MULTILINE)
    assert sections[0] == "diagrams" and {"rules", "examples"} <= set(sections)
    listed = re.findall(r"^- \[[^\]]+\]\(#([^)]+)\)", md, re.MULTILINE)
    assert listed == sections
    assert md.index('<a id="contents"></a>**Contents**') < md.index("\n## ")
    nav = page.split('<nav id="contents"', 1)[1].split("</nav>", 1)[0]
    assert re.findall(r'href="#([^"]+)"', nav) == sections
    assert page.index('<nav id="contents"') < page.index("<h2 ")
    # A link to the rule index, and a search box that looks words up there.
    assert f"]({RULES_PAGE}.md)" in md and f'action="{RULES_PAGE}.html"' in page
    # Each diagram with a link to its full SVG.
    for svg in (f"{name}.svg", f"{name}.streets.svg"):
        assert f'<a href="../../diagrams/{svg}">open the full SVG</a>' in page
        assert f"full size](../../diagrams/{svg})" in md


def test_the_rule_index_lists_every_rule_of_every_structure_with_its_pages() -> None:
    md = (DOCS / "reference" / f"{RULES_PAGE}.md").read_text(encoding="utf-8")
    page = (DOCS / "site" / f"{RULES_PAGE}.html").read_text(encoding="utf-8")
    for name in engine_names():
        spec = _spec(name)
        for rule_id in _shown(name):
            assert f'<tr id="{rule_anchor(rule_id)}">' in page or f"<strong>{rule_id}</strong>" in page
            assert f"]({name}.md#{rule_anchor(rule_id)})" in md, (name, rule_id)
            assert f'href="{name}.html#{rule_anchor(rule_id)}"' in page, (name, rule_id)
            assert html.escape(" ".join(spec.rules[rule_id].text.split()), quote=True) in page
        for rule_id in set(spec.rules) - _shown(name):
            assert f"{name}.md#{rule_anchor(rule_id)})" not in md
    # The filter is the page's own inline script: nothing fetched, so it works from file://.
    assert page.count("<script>") == 1 and "src=" not in page.split("<script>")[1]
    assert 'id="search"' in page and 'id="rules"' in page


#: Words of hold'em a family's page must not carry (spec text, sources and code aside), and for
#: the structures with no blinds, the blinds' and straddles' words.
HOLDEM_ONLY = ("hold'em", "flop, turn", "river", "(last two)", "before the flop")
NO_BLINDS = ("small blind", "straddle", "burn blind", "button ante", "dead button")
FAMILIES = {
    "seven_card_stud": HOLDEM_ONLY + NO_BLINDS + ("flop",),
    "razz": HOLDEM_ONLY + NO_BLINDS + ("flop",),
    "triple_draw": HOLDEM_ONLY,
    "badugi": HOLDEM_ONLY,
    "five_card_draw_fixed_limit": (*HOLDEM_ONLY, "last two"),
}


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_a_family_s_page_uses_its_own_words(name: str) -> None:
    md = (DOCS / "reference" / f"{name}.md").read_text(encoding="utf-8")
    lines = [line for line in md.splitlines() if not line.startswith(("Source: ", "<!--"))]
    words = re.sub(r"`+[^`]*`+", "", "\n".join(lines)).lower()
    found = [phrase for phrase in FAMILIES[name] if phrase in words]
    assert found == [], [(p, words[max(0, words.index(p) - 80) : words.index(p) + 40]) for p in found]
    if "stud" in name or name == "razz":
        for removed in ("BLINDS", "STRADDLE", "BB-OPTION", "KILL", "MISSISSIPPI", "DEAD-SB", "BUTTON"):
            assert removed not in _shown(name)
        assert "BRING-IN" in _shown(name)
