"""The reference book as a static HTML site (``docs/site/<spec>.html``, ``index.html``,
``rules.html`` and ``style.css``), for readers in a browser: the same pages as the Markdown back end
(:mod:`betspec.backends.book_model`), every text escaped, the diagrams as images shown at the size
they were drawn (scrolled within their frame, each linked to its full SVG).

Every page has a search box that looks words up on the rule index; the rule index filters its
table as the reader types, with a few lines of inline script (no file fetched, so it works from
``file://``; without script the box still leads to the whole index).

A structure's page is live: it loads its engine, the TypeScript engine compiled to a classic script
(``docs/site/js/runtime.js`` and ``docs/site/js/<spec>.js``, which ``python -m
betspec.tools.site_js`` compiles: generate stays free of Node), its worked examples' cases as JSON
data in the page, and ``live.js`` (:data:`LIVE`, the same for every structure), which steps every
worked example through the engine and plays a hand in the "Play a hand" panel.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Sequence
from pathlib import Path

from betspec.backends.base import Context, register
from betspec.backends.book_model import (
    RULES_PAGE,
    Contents,
    Figure,
    Heading,
    Inline,
    Live,
    Page,
    Paragraph,
    Search,
    Span,
    Table,
    book,
    one_line,
    resolve,
)
from betspec.model import Spec

STYLE = """\
body { font-family: system-ui, sans-serif; line-height: 1.45; margin: 0 auto; max-width: 72rem; padding: 1rem 2rem; }
code { font-family: ui-monospace, monospace; font-size: 0.9em; background: #f3f3f3; padding: 0 0.2em; }
table { border-collapse: collapse; margin: 0.8rem 0; }
th, td { border: 1px solid #cccccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
figure { margin: 1rem 0; }
.diagram-view { overflow: auto; max-height: 90vh; border: 1px solid #dddddd; }
.diagram-view img { display: block; max-width: none; height: auto; }
figcaption { color: #555555; font-size: 0.9em; }
h2 { border-bottom: 1px solid #dddddd; margin-top: 2rem; }
h3 { margin-top: 1.5rem; }
nav.contents { background: #f7f7f7; border: 1px solid #dddddd; padding: 0.5rem 1rem; margin: 1rem 0; }
nav.contents ul { columns: 2; margin: 0.3rem 0; padding-left: 1.2rem; }
form.search { margin: 0.8rem 0; }
form.search input { font: inherit; padding: 0.2rem 0.4rem; width: 24rem; max-width: 70%; }
form.search button { font: inherit; }
#search-status { color: #555555; margin-left: 0.5rem; }
tr[hidden] { display: none; }
:target { background: #fff6d5; }
.live, .live-example { background: #f7fbff; border: 1px solid #c9dcf0; padding: 0.5rem 1rem; margin: 0.8rem 0; }
.live fieldset { margin: 0.5rem 0; }
.live-field { display: inline-block; margin: 0.2rem 1rem 0.2rem 0; }
.live input, .live select, .live button, .live-example button { font: inherit; }
.live-state { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
.live-facts { display: grid; grid-template-columns: max-content auto; gap: 0.1rem 0.8rem; margin: 0.8rem 0; }
.live-facts dt { font-family: ui-monospace, monospace; }
.live-facts dd { margin: 0; font-family: ui-monospace, monospace; }
.live-to-act { background: #fff6d5; }
.live-refusal { background: #fdecec; border-left: 4px solid #c0392b; padding: 0.3rem 0.6rem; margin: 0.5rem 0; }
.live-ruling { background: #eef7ee; border-left: 4px solid #2e7d32; padding: 0.3rem 0.6rem; margin: 0.5rem 0; }
.live-refusal p, .live-ruling p { margin: 0.2rem 0; }
.live-source { color: #555555; font-size: 0.9em; }
.live-differs { background: #fdecec; }
"""

#: The live pages' script, the same for every structure (``docs/site/live.js``).
LIVE = (Path(__file__).resolve().parent / "live_book.js").read_text(encoding="utf-8")

#: The rule index's filter: a row is shown when its rule's id is the query or its text holds every
#: word of the query (any case), the rule of that id first: a rule named by its id hides none of
#: the others that speak of it. ``?q=`` fills the box on arrival.
FILTER = """\
(function () {
  var form = document.getElementById('search');
  var box = form.elements.q;
  var table = document.getElementById(TABLE);
  var status = document.getElementById('search-status');
  var rows = Array.prototype.slice.call(table.rows, 1);
  var body = rows.length ? rows[0].parentNode : null;
  function find() {
    var query = box.value.trim().toLowerCase();
    var words = query.split(/\\s+/).filter(function (word) { return word.length > 0; });
    var byId = rows.filter(function (row) { return row.cells[0].textContent.toLowerCase() === query; });
    var shown = 0;
    rows.forEach(function (row) {
      var text = row.textContent.toLowerCase();
      var hit = byId.indexOf(row) >= 0 || words.every(function (word) { return text.indexOf(word) >= 0; });
      row.hidden = !hit;
      if (hit) { shown += 1; }
    });
    // The rule named by its id first, the others in their order.
    byId.concat(rows.filter(function (row) { return byId.indexOf(row) < 0; })).forEach(function (row) {
      body.appendChild(row);
    });
    var more = shown - byId.length;
    var also = more ? ', and ' + more + ' more that hold every word' : '';
    status.textContent = !words.length ? rows.length + ' rules'
      : byId.length ? 'rule ' + byId[0].cells[0].textContent + also
      : shown + ' of ' + rows.length + ' rules hold every word';
  }
  form.addEventListener('submit', function (event) { event.preventDefault(); find(); });
  box.addEventListener('input', find);
  var asked = new URLSearchParams(window.location.search).get('q');
  if (asked) { box.value = asked; }
  find();
})();
"""


def _escape(text: str) -> str:
    return html.escape(one_line(text), quote=True)


def _href(target: str) -> str:
    return html.escape(resolve(target, ".html", "../../"), quote=True)


def _span(span: Span) -> str:
    out = _escape(span.text)
    if span.code:
        out = f"<code>{out}</code>"
    if span.strong:
        out = f"<strong>{out}</strong>"
    if span.href:
        out = f'<a href="{_href(span.href)}">{out}</a>'
    return out


def _inline(spans: Inline) -> str:
    return "".join(_span(span) for span in spans)


def _id(anchor: str) -> str:
    return f' id="{_escape(anchor)}"' if anchor else ""


def _search(block: Search) -> list[str]:
    action = "" if block.filters else f' action="{_href("page:" + RULES_PAGE)}"'
    out = [
        f'<form id="search" class="search" role="search" method="get"{action}>',
        '<input type="search" name="q" aria-label="Find a rule by its id or by words" '
        'placeholder="Find a rule: BRING-IN, all in, dead button">',
        '<button type="submit">Find</button>',
    ]
    if block.filters:
        out.append('<span id="search-status" role="status"></span>')
    out.append("</form>")
    if block.filters:
        # The table's id as a JavaScript string; "<" escaped so that no text ends the script.
        table = json.dumps(block.filters).replace("<", "\\u003c")
        out += ["<script>", FILTER.replace("TABLE", table).rstrip("\n"), "</script>"]
    return out


def _data(text: str) -> str:
    """JSON inside a script element: "<" escaped, so that no text ends the script."""
    return text.replace("<", "\\u003c")


def _live(block: Live, root: str) -> tuple[list[str], list[str]]:
    """The panel where it stands, and the scripts after the page: the cases, the engine, live.js."""
    examples = []
    for anchor, path in block.examples:
        with open(os.path.join(root, *path.split("/")), encoding="utf-8") as handle:
            examples.append({"anchor": anchor, "case": json.load(handle)})
    data = json.dumps({"structure": block.structure, "examples": examples}, ensure_ascii=False, separators=(",", ":"))
    panel = [
        '<div id="live-play" class="live">',
        "<noscript><p>Playing a hand here needs JavaScript.</p></noscript>",
        "</div>",
    ]
    scripts = [
        f'<script type="application/json" id="live-data">{_data(data)}</script>',
        '<script src="js/runtime.js"></script>',
        '<script src="js/cards.js"></script>',
        f'<script src="js/{_escape(block.structure)}.js"></script>',
        '<script src="live.js"></script>',
    ]
    return panel, scripts


def render(page: Page, root: str = ".") -> str:
    comment = "\n".join(line.replace("--", "- -") for line in page.header)
    out = [
        "<!DOCTYPE html>",
        f"<!--\n{comment}\n-->",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_escape(page.title)}</title>",
        '<link rel="stylesheet" href="style.css">',
        "</head>",
        "<body>",
    ]
    scripts: list[str] = []
    for block in page.blocks:
        if isinstance(block, Heading):
            out.append(f"<h{block.level}{_id(block.anchor)}>{_escape(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            out.append(f"<p{_id(block.anchor)}>{_inline(block.spans)}</p>")
        elif isinstance(block, Table):
            out.append(f"<table{_id(block.anchor)}>")
            out.append("<tr>" + "".join(f"<th>{_escape(c)}</th>" for c in block.columns) + "</tr>")
            anchors = block.row_anchors or ("",) * len(block.rows)
            for anchor, row in zip(anchors, block.rows, strict=True):
                out.append(f"<tr{_id(anchor)}>" + "".join(f"<td>{_inline(cell)}</td>" for cell in row) + "</tr>")
            out.append("</table>")
        elif isinstance(block, Figure):
            src = _href(block.src)
            caption = _escape(block.caption)
            out.append(
                f'<figure class="diagram"><div class="diagram-view"><img src="{src}" alt="{caption}"></div>'
                f'<figcaption>{caption} (<a href="{src}">open the full SVG</a>)</figcaption></figure>'
            )
        elif isinstance(block, Contents):
            items = "".join(f"<li>{_inline(item)}</li>" for item in block.items)
            out.append(
                f'<nav{_id(block.anchor)} class="contents" aria-label="Contents">'
                f"<strong>Contents</strong><ul>{items}</ul></nav>"
            )
        elif isinstance(block, Search):
            found = _search(block)
            # The form where it stands; a script after the page, once the table it filters is there.
            split = found.index("<script>") if "<script>" in found else len(found)
            out += found[:split]
            scripts += found[split:]
        elif isinstance(block, Live):
            panel, after = _live(block, root)
            out += panel
            scripts += after
    out += [*scripts, "</body>", "</html>"]
    return "\n".join(out) + "\n"


class SiteBackend:
    name = "site"
    owns: tuple[tuple[str, tuple[str, ...]], ...] = (("docs/site", (".html", ".css", ".js")),)

    def render(self, specs: Sequence[Spec], root: str, context: Context | None = None) -> dict[str, str]:
        files = {f"docs/site/{page.name}.html": render(page, root) for page in book(specs, root, context)}
        files["docs/site/style.css"] = STYLE
        files["docs/site/live.js"] = LIVE
        return files


BACKEND = register(SiteBackend())
