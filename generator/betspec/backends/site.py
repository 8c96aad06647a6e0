"""The reference book as a static HTML site (``docs/site/<spec>.html``, ``index.html`` and
``style.css``), for readers in a browser: the same pages as the Markdown back end
(:mod:`betspec.backends.book_model`), every text escaped, no script, the diagrams as images.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from betspec.backends.base import Context, register
from betspec.backends.book_model import Figure, Heading, Inline, Page, Paragraph, Span, Table, book, one_line, resolve
from betspec.model import Spec

STYLE = """\
body { font-family: system-ui, sans-serif; line-height: 1.45; margin: 0 auto; max-width: 72rem; padding: 1rem 2rem; }
code { font-family: ui-monospace, monospace; font-size: 0.9em; background: #f3f3f3; padding: 0 0.2em; }
table { border-collapse: collapse; margin: 0.8rem 0; }
th, td { border: 1px solid #cccccc; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #dddddd; }
figcaption { color: #555555; font-size: 0.9em; }
h2 { border-bottom: 1px solid #dddddd; margin-top: 2rem; }
h3 { margin-top: 1.5rem; }
:target { background: #fff6d5; }
"""


def _escape(text: str) -> str:
    return html.escape(one_line(text), quote=True)


def _span(span: Span) -> str:
    out = _escape(span.text)
    if span.code:
        out = f"<code>{out}</code>"
    if span.strong:
        out = f"<strong>{out}</strong>"
    if span.href:
        out = f'<a href="{html.escape(resolve(span.href, ".html", "../../"), quote=True)}">{out}</a>'
    return out


def _inline(spans: Inline) -> str:
    return "".join(_span(span) for span in spans)


def render(page: Page) -> str:
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
    for block in page.blocks:
        if isinstance(block, Heading):
            out.append(f'<h{block.level} id="{_escape(block.anchor)}">{_escape(block.text)}</h{block.level}>')
        elif isinstance(block, Paragraph):
            anchor = f' id="{_escape(block.anchor)}"' if block.anchor else ""
            out.append(f"<p{anchor}>{_inline(block.spans)}</p>")
        elif isinstance(block, Table):
            out.append("<table>")
            out.append("<tr>" + "".join(f"<th>{_escape(c)}</th>" for c in block.columns) + "</tr>")
            out += ["<tr>" + "".join(f"<td>{_inline(cell)}</td>" for cell in row) + "</tr>" for row in block.rows]
            out.append("</table>")
        elif isinstance(block, Figure):
            src = html.escape(resolve(block.src, ".html", "../../"), quote=True)
            caption = _escape(block.caption)
            out.append(f'<figure><img src="{src}" alt="{caption}"><figcaption>{caption}</figcaption></figure>')
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


class SiteBackend:
    name = "site"
    owns: tuple[tuple[str, tuple[str, ...]], ...] = (("docs/site", (".html", ".css")),)

    def render(self, specs: Sequence[Spec], root: str, context: Context | None = None) -> dict[str, str]:
        files = {f"docs/site/{page.name}.html": render(page) for page in book(specs, root, context)}
        files["docs/site/style.css"] = STYLE
        return files


BACKEND = register(SiteBackend())
