"""`betspec --help` and every command's help print plain text: the descriptions come from
docstrings, whose reStructuredText markup (double backquotes, :func: and other roles) is printed
as its words alone, paragraphs filled to the terminal, and a layout (the actions of `play`) kept."""

from __future__ import annotations

import argparse
import re

import pytest

from betspec.cli import main, parser
from betspec.helptext import plain

MARKUP = re.compile(r"``|:[a-z]+:`|`")


def _commands(top: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Every parser of the command line, by its command words (sub-commands' too)."""
    found = {"": top}
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.update({f"{name} {k}".strip(): p for k, p in _commands(sub).items()})
    return found


def test_every_command_s_help_is_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    commands = _commands(parser())
    assert {"", "play", "diff", "phh check", "docs"} <= set(commands)
    for words, command in commands.items():
        shown = command.format_help()
        assert not MARKUP.search(shown), (words, MARKUP.search(shown))
    diff = commands["diff"].format_help()
    assert "betspec diff no_limit pot_limit compares two structures" in " ".join(diff.split())
    assert "(betspec.tools.explore.differences)" in " ".join(diff.split())
    play = commands["play"].format_help()
    assert "\n  fold, f            check, x (or k)       call, c\n" in play
    assert all(len(line) <= 80 for line in play.split("Actions (")[0].splitlines()), play


def test_the_top_help_names_the_command_plainly(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "The betspec command: validate specs" in out and "``" not in out


@pytest.mark.parametrize(
    ("marked", "words"),
    [
        ("``betspec diff``", "betspec diff"),
        (":func:`betspec.tools.explore.differences`", "betspec.tools.explore.differences"),
        (":meth:`~betspec.runtime.Engine.next_table`", "next_table"),
        ("`betspec play`: hands", "betspec play: hands"),
        ("no markup", "no markup"),
    ],
)
def test_plain_gives_the_words_alone(marked: str, words: str) -> None:
    assert plain(marked) == words
