"""The reference site and the diagrams in a real browser (headless Chromium, Debian's `chromium`
and `chromium-driver`, which `.ci/run` installs), in a window 1280 pixels wide: every page loads
with no console error and its images drawn, a screenshot is taken; each structure page opens with
its contents, whose links lead to their sections; the rule index finds a rule by its id and by
words, from its own box and from any page's; the diagrams' text is at least 10 CSS pixels tall
where the page shows them, each linked to its full SVG; and every label of every diagram fits its
box, in the fonts the SVG asks for and in a wide monospace font forced on it. Skipped where
Chromium is absent."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

webdriver = pytest.importorskip("selenium.webdriver")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER), reason="headless Chromium is not installed")

SITE = ROOT / "docs" / "site"
PAGES = sorted(SITE.glob("*.html"))
SESSIONS = [page for page in PAGES if page.stem.startswith("session-")]  # a session's page: its rotation drawn
STRUCTURES = [page for page in PAGES if page.stem not in ("index", "rule-index") and page not in SESSIONS]
SVGS = sorted((ROOT / "diagrams").glob("*.svg")) + sorted((ROOT / "diagrams" / "sessions").glob("*.svg"))
#: The window the book is read in, in CSS pixels, and the least height of a diagram's text there.
WIDTH = 1280
LEGIBLE = 10.0

#: The boxes of an SVG drawn by graphviz, each with the texts inside it, measured by the browser.
MEASURE = """
const boxes = [];
for (const group of document.querySelectorAll('g.node, g.cluster')) {
  const shape = group.querySelector('path, polygon, ellipse');
  if (!shape) continue;
  const box = shape.getBBox();
  const texts = [...group.querySelectorAll(':scope > text')].map(t => {
    const b = t.getBBox();
    return {text: t.textContent, x: b.x, y: b.y, width: b.width, height: b.height};
  });
  boxes.push({id: group.querySelector('title').textContent, box: {x: box.x, y: box.y, width: box.width,
    height: box.height}, texts: texts});
}
return boxes;
"""
WIDE_FONT = """
const style = document.createElementNS('http://www.w3.org/2000/svg', 'style');
style.textContent = 'text { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace !important; }';
document.documentElement.appendChild(style);
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={WIDTH},1000"):
        options.add_argument(argument)
    options.binary_location = str(CHROMIUM)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _errors(browser: Any) -> list[str]:
    return [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_a_page_loads_with_no_console_error_and_its_images_drawn(browser: Any, page: Path, tmp_path: Path) -> None:
    browser.get_log("browser")  # what earlier pages logged
    browser.get(page.as_uri())
    assert browser.title
    assert _errors(browser) == []
    images = browser.execute_script(
        "return [...document.images].map(i => [i.getAttribute('src'), i.complete && i.naturalWidth > 0]);"
    )
    assert all(drawn for _src, drawn in images), images
    assert len(images) == (2 if page in STRUCTURES else 1 if page in SESSIONS else 0)
    assert browser.execute_script("return window.innerWidth;") == WIDTH
    shot = tmp_path / f"{page.stem}.png"
    assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000


def _overflows(boxes: list[dict[str, Any]]) -> list[str]:
    wrong = []
    for group in boxes:
        box = group["box"]
        for text in group["texts"]:
            inside = box["x"] - 0.5 <= text["x"] and text["x"] + text["width"] <= box["x"] + box["width"] + 0.5
            if not inside:
                wrong.append(f"{group['id']}: {text['text']!r} is {text['width']:.1f} wide in {box['width']:.1f}")
    return wrong


@pytest.mark.parametrize("svg", SVGS, ids=lambda p: p.stem)
def test_every_label_fits_its_box_in_any_font(browser: Any, svg: Path) -> None:
    browser.get(svg.as_uri())
    boxes = browser.execute_script(MEASURE)
    assert sum(len(group["texts"]) for group in boxes) >= (2 if svg.parent.name == "sessions" else 8)
    assert _overflows(boxes) == []
    browser.execute_script(WIDE_FONT)
    assert _overflows(browser.execute_script(MEASURE)) == []
    assert _errors(browser) == []


#: Where each link of the contents leads, and where its target stands once the link is followed.
CONTENTS = """
const nav = document.querySelector('nav#contents');
if (!nav) return null;
const firstSection = document.querySelector('h2');
return {
  before: nav.getBoundingClientRect().bottom <= firstSection.getBoundingClientRect().top,
  links: [...nav.querySelectorAll('a')].map(a => [a.textContent, a.getAttribute('href')]),
  sections: [...document.querySelectorAll('h2')].map(h => '#' + h.id),
};
"""


@pytest.mark.parametrize("page", STRUCTURES, ids=lambda p: p.stem)
def test_a_structure_page_opens_with_contents_whose_links_lead_to_their_sections(browser: Any, page: Path) -> None:
    browser.get(page.as_uri())
    found = browser.execute_script(CONTENTS)
    assert found is not None, "no contents"
    assert found["before"], "the contents come after the first section"
    assert [href for _, href in found["links"]] == found["sections"]
    assert {"#rules", "#examples", "#diagrams"} <= set(found["sections"])
    for text, href in (found["links"][-1], found["links"][len(found["links"]) // 2]):
        browser.find_element("css selector", f'nav#contents a[href="{href}"]').click()
        top = browser.execute_script(
            "return [location.hash, document.querySelector(arguments[0]).getBoundingClientRect().top, "
            "document.documentElement.scrollHeight - window.innerHeight - window.scrollY];",
            href,
        )
        hash_, where, below = top
        assert hash_ == href, text
        # The section's heading is at the top of the window, or the page has scrolled to its end.
        assert abs(where) <= 2 or below <= 2, (text, where, below)
        browser.execute_script("window.scrollTo(0, 0);")
    assert _errors(browser) == []


#: The rows of the rule index a reader sees: each rule's id and its row's text.
VISIBLE_RULES = """
return [...document.querySelectorAll('#rules tr')].slice(1)
  .filter(row => row.offsetParent !== null)
  .map(row => [row.cells[0].textContent, row.textContent.toLowerCase()]);
"""


def _search(browser: Any, words: str) -> None:
    """Type ``words`` in the page's search box, as a reader does (what was there erased first)."""
    from selenium.webdriver.common.keys import Keys

    box = browser.find_element("css selector", "form#search input[name=q]")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(Keys.BACKSPACE)
    if words:
        box.send_keys(words)


def test_the_rule_index_finds_a_rule_by_id_and_by_words(browser: Any) -> None:
    index = SITE / "rule-index.html"
    browser.get(index.as_uri())
    every = browser.execute_script(VISIBLE_RULES)
    assert len(every) > 50 and len({rule for rule, _ in every}) > 40
    # By id, in any case: that rule first, and the rules whose text holds the words too (issue
    # 29: an id hid every other rule that speaks of it).
    _search(browser, "bring-in")
    found = browser.execute_script(VISIBLE_RULES)
    assert found[0][0] == "BRING-IN"
    others = [text for rule, text in every if rule != "BRING-IN" and "bring-in" in text]
    assert others and len(found) == 1 + len(others)
    assert (
        browser.find_element("id", "search-status").text
        == f"rule BRING-IN, and {len(others)} more that hold every word"
    )
    # By words: the rules whose text holds every word, and only those.
    _search(browser, "misheard  AMOUNT")
    shown = browser.execute_script(VISIBLE_RULES)
    assert "MISHEARD" in {rule for rule, _ in shown}
    assert all("misheard" in text and "amount" in text for _, text in shown)
    assert len(shown) < len(every) / 4
    hidden = [text for _, text in every if "misheard" in text and "amount" in text]
    assert len(hidden) == len(shown)
    _search(browser, "")
    assert len(browser.execute_script(VISIBLE_RULES)) == len(every)
    # A structure's rule, from its row: the link leads to the rule on the structure's page.
    _search(browser, "open-pair")
    link = browser.find_element("css selector", '#rules tr:not([hidden]) a[href="seven_card_stud.html#rule-open-pair"]')
    link.click()
    assert browser.current_url.endswith("seven_card_stud.html#rule-open-pair")
    where = browser.execute_script("return document.getElementById('rule-open-pair').getBoundingClientRect().top;")
    assert abs(where) <= 2
    assert _errors(browser) == []


@pytest.mark.parametrize("page", [SITE / "index.html", SITE / "razz.html"], ids=lambda p: p.stem)
def test_any_page_s_search_box_looks_the_words_up_on_the_rule_index(browser: Any, page: Path) -> None:
    browser.get(page.as_uri())
    _search(browser, "DEAL")
    browser.find_element("css selector", "form#search button").click()
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 10).until(lambda driver: "rule-index.html?q=DEAL" in driver.current_url)
    assert browser.current_url.startswith((SITE / "rule-index.html").as_uri())
    found = browser.execute_script(VISIBLE_RULES)
    assert found[0][0] == "DEAL" and all(rule == "DEAL" or "deal" in text for rule, text in found)
    assert browser.find_element("css selector", "form#search input[name=q]").get_attribute("value") == "DEAL"
    assert _errors(browser) == []


#: How tall the smallest of a diagram's texts stands: the height of a capital letter in its font
#: (what a reader sees of a label, below its font size), in CSS pixels of the SVG drawn at its
#: own size.
SMALLEST_TEXT = """
const pen = new OffscreenCanvas(8, 8).getContext('2d');
const heights = [...document.querySelectorAll('text')].map(t => {
  const style = getComputedStyle(t);
  pen.font = style.fontStyle + ' ' + style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily;
  return pen.measureText('H').actualBoundingBoxAscent * t.getScreenCTM().a;
});
return [Math.min(...heights), heights.length, document.documentElement.getBoundingClientRect().width];
"""
#: Each diagram of a page: its file, how wide it is drawn and its own width, and its links.
DIAGRAMS = """
return [...document.querySelectorAll('figure img')].map(img => ({
  src: img.getAttribute('src'),
  drawn: img.getBoundingClientRect().width,
  natural: img.naturalWidth,
  linked: [...img.closest('figure').querySelectorAll('a')].some(a => a.getAttribute('href') === img.getAttribute('src')),
}));
"""


@pytest.mark.parametrize("page", STRUCTURES, ids=lambda p: p.stem)
def test_the_diagrams_text_is_legible_where_the_page_shows_it(browser: Any, page: Path) -> None:
    browser.get(page.as_uri())
    diagrams = browser.execute_script(DIAGRAMS)
    assert len(diagrams) == 2
    for diagram in diagrams:
        assert diagram["linked"], diagram["src"]
        svg = (page.parent / diagram["src"]).resolve()
        browser.get(svg.as_uri())
        smallest, count, width = browser.execute_script(SMALLEST_TEXT)
        assert count >= 8
        assert abs(width - diagram["natural"]) <= 1, (svg.name, width, diagram["natural"])
        shown = smallest * diagram["drawn"] / diagram["natural"]
        assert shown >= LEGIBLE, f"{svg.name}: capitals {shown:.1f} CSS px tall at a {WIDTH}-pixel window"
        browser.get(page.as_uri())
    assert _errors(browser) == []
