"""Help printed as plain text. ``betspec --help`` and each command's help take their words from
docstrings, whose reStructuredText markup (double backquotes, ``:func:`` and other roles) a
terminal would show raw: :class:`PlainParser` prints it as the words alone.

A paragraph of a description or an epilog is filled to the terminal's width, unless a line of it
after the first is indented: such a paragraph is a layout (a table of commands) and keeps its lines.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

#: A role (``:func:`betspec.x```, ``:mod:`~betspec.x```) and a literal or interpreted text.
_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`(~?)([^`]+)`")
_QUOTED = re.compile(r"``([^`]+)``|`([^`]+)`")


def plain(text: str) -> str:
    """``text`` without reStructuredText markup: roles and quotes give their words alone."""

    def role(match: re.Match[str]) -> str:
        target = match.group(2)
        return target.rsplit(".", 1)[-1] if match.group(1) else target

    text = _ROLE.sub(role, text)
    return _QUOTED.sub(lambda match: match.group(1) or match.group(2), text)


class PlainFormatter(argparse.HelpFormatter):
    """Descriptions, epilogs and every help string as plain text (see the module)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = re.split(r"\n[ \t]*\n", plain(text).strip("\n"))
        out = []
        for paragraph in paragraphs:
            lines = paragraph.splitlines()
            if any(line[:1].isspace() for line in lines[1:]):
                out.append("\n".join(indent + line for line in lines))
            else:
                out.append(super()._fill_text(paragraph, width, indent))
        return "\n\n".join(out)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        help_text = super()._get_help_string(action)
        return plain(help_text) if help_text else help_text


class PlainParser(argparse.ArgumentParser):
    """An argument parser whose help is plain text; its sub-commands' parsers are made of this
    class too (argparse makes them of the parser's class), so their help is plain as well."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", PlainFormatter)
        super().__init__(*args, **kwargs)
