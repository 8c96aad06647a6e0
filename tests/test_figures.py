"""The figures the README and the docs quote are what ``benchmarks/figures.py`` writes from the
tree and the benchmarks' results (issue 29): none typed by hand, none left stale."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_every_figure_is_the_one_the_figures_command_writes() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "figures.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_readme_is_a_page_to_start_from() -> None:
    """The README gets a reader started and says where to read on: its sections in the order a
    newcomer needs them, the compiler's layout on a page of its own, every page it names there."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    headings = [line for line in readme.splitlines() if line.startswith("## ")]
    assert headings == [
        "## Getting started",
        "## Using an engine",
        "## Writing rules",
        "## A whole night: sessions",
        "## Hand histories",
        "## Speed",
    ]
    assert len(readme.split()) < 2500
    for page in (
        "tutorial",
        "engines",
        "specs",
        "diagnostics",
        "cases",
        "hand-histories",
        "sessions",
        "speed",
        "testing",
        "layout",
    ):
        assert f"docs/{page}.md" in readme and (ROOT / "docs" / f"{page}.md").is_file(), page
