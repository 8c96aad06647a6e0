"""The reference book in Markdown (``docs/reference/<spec>.md``, ``index.md`` and ``rules.md``,
the rule index), for readers on GitHub or in an editor. The pages are
:mod:`betspec.backends.book_model`'s; this module only writes them, escaping every text so that a
spec's words cannot break a table or a link. Markdown has no search box: its pages link to the
rule index, and a reader's find-in-page does the rest.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from betspec.backends.base import Context, register
from betspec.backends.book_model import (
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

#: Characters Markdown may read as syntax in running text.
_MARKUP = "\\`*_[]<>|#"


def _cell(text: str) -> str:
    """Text safe in Markdown running text and table cells: one line, syntax characters escaped."""
    return "".join("\\" + ch if ch in _MARKUP else ch for ch in one_line(text))


def _code(text: str) -> str:
    """A code span; a backtick inside lengthens the fence (CommonMark), a pipe is escaped for tables."""
    body = " ".join(text.split()).replace("|", "\\|")
    longest = 0
    run = 0
    for ch in body:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if body.startswith("`") or body.endswith("`") else ""
    return f"{fence}{pad}{body}{pad}{fence}"


def _span(span: Span) -> str:
    out = _code(span.text) if span.code else _cell(span.text)
    if span.strong:
        out = f"**{out}**"
    if span.href:
        out = f"[{out}]({resolve(span.href, '.md', '../../')})"
    return out


def _inline(spans: Inline) -> str:
    return "".join(_span(span) for span in spans)


def _anchor(anchor: str) -> str:
    """An anchor a link may target; anchors are the book's own (letters, digits, hyphens)."""
    return f'<a id="{html.escape(anchor, quote=True)}"></a>'


def render(page: Page) -> str:
    lines = [f"<!-- {line.replace('--', '- -')} -->" for line in page.header]
    for block in page.blocks:
        if isinstance(block, Search | Live):
            continue  # no search box in Markdown (the pages link to the rule index), no engine played
        lines.append("")
        if isinstance(block, Heading):
            anchor = "" if block.level == 1 else f' <a id="{block.anchor}"></a>'
            lines.append(f"{'#' * block.level} {_cell(block.text)}{anchor}")
        elif isinstance(block, Paragraph):
            anchor = f'<a id="{block.anchor}"></a>' if block.anchor else ""
            lines.append(anchor + _inline(block.spans))
        elif isinstance(block, Table):
            if block.anchor:
                lines += [_anchor(block.anchor), ""]
            lines.append("| " + " | ".join(_cell(c) for c in block.columns) + " |")
            lines.append("|" + "---|" * len(block.columns))
            anchors = block.row_anchors or ("",) * len(block.rows)
            for anchor, row in zip(anchors, block.rows, strict=True):
                cells = [_inline(cell) for cell in row]
                if anchor and cells:
                    cells[0] = _anchor(anchor) + cells[0]
                lines.append("| " + " | ".join(cells) + " |")
        elif isinstance(block, Figure):
            src = resolve(block.src, ".md", "../../")
            lines.append(f"![{_cell(block.caption)}]({src})")
            lines += ["", f"[{_cell(block.caption)}, full size]({src})"]
        elif isinstance(block, Contents):
            lines += [_anchor(block.anchor) + "**Contents**", ""]
            lines += [f"- {_inline(item)}" for item in block.items]
    return "\n".join(lines).strip("\n") + "\n"


class ReferenceBackend:
    name = "reference"
    owns: tuple[tuple[str, tuple[str, ...]], ...] = (("docs/reference", (".md",)),)

    def render(self, specs: Sequence[Spec], root: str, context: Context | None = None) -> dict[str, str]:
        return {f"docs/reference/{page.name}.md": render(page) for page in book(specs, root, context)}


BACKEND = register(ReferenceBackend())
