from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SPEC_DIR = ROOT / "spec"
SHARED = ROOT.parent / "shared"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the project's specs in a fresh folder, to break and regenerate freely."""
    shutil.copytree(SPEC_DIR, tmp_path / "spec", ignore=shutil.ignore_patterns("schema"))
    return tmp_path


@pytest.fixture(scope="session")
def example_house(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example house (docs/examples/house) copied to a folder of its own and generated there,
    as an author's would be."""
    from betspec.cli import main

    root = tmp_path_factory.mktemp("house") / "house"
    shutil.copytree(ROOT / "docs" / "examples" / "house", root)
    assert main(["--root", str(root), "generate"]) == 0
    return root
