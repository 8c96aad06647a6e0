"""The reference site and the diagrams in a real browser (headless Chromium, Debian's `chromium`
and `chromium-driver`, which `.ci/run` installs): every page loads with no console error and its
images drawn, a screenshot is taken, and every label of every diagram fits its box, in the fonts
the SVG asks for and in a wide monospace font forced on it. Skipped where Chromium is absent."""

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

PAGES = sorted((ROOT / "docs" / "site").glob("*.html"))
SVGS = sorted((ROOT / "diagrams").glob("*.svg"))

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
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1200"):
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
    if page.stem != "index":
        assert len(images) == 2
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
    assert sum(len(group["texts"]) for group in boxes) >= 8
    assert _overflows(boxes) == []
    browser.execute_script(WIDE_FONT)
    assert _overflows(browser.execute_script(MEASURE)) == []
    assert _errors(browser) == []
