"""The front end's bounds: time linear in the files a spec extends, memory bounded by the size limit.

A tree of abstract specs each extending 8 others once took 1 s, 6 s and 51 s for 1, 2 and 3
levels and never finished at 4: every path to a base read, parsed and checked it again. Each file
is now read once per load. A spec or case file is read no further than ``jsonpos.MAX_BYTES``, and
what is not a regular file (``/dev/zero``, a pipe, a folder) is refused in one line.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from betspec.cli import main
from betspec.conformance.runner import load_case
from betspec.frontend import jsonpos, load_spec, loader


def fan_out(root: Path, depth: int, width: int) -> Path:
    """``depth`` levels of ``width`` abstract specs, each extending every spec of the level below
    (the first level extends the shipped betting round), and one spec extending the top level."""
    below = ["betting_round.json"]
    for level in range(depth):
        names = []
        for index in range(width):
            name = f"level{level}_{index}"
            extends: str | list[str] = below if len(below) > 1 else below[0]
            document = {"spec_version": 1, "name": name, "title": name, "abstract": True, "extends": extends}
            (root / f"{name}.json").write_text(json.dumps(document))
            names.append(f"{name}.json")
        below = names
    top = {"spec_version": 1, "name": "top", "title": "top", "abstract": True, "extends": below}
    (root / "top.json").write_text(json.dumps(top))
    return root / "top.json"


@pytest.mark.parametrize("depth", [4, 5])
def test_a_wide_deep_tree_of_bases_validates_in_linear_time(tmp_path: Path, depth: int) -> None:
    path = fan_out(tmp_path, depth, 8)
    started = time.perf_counter()
    spec, found = load_spec(str(path))
    elapsed = time.perf_counter() - started
    assert found == [] and spec is not None and spec.abstract
    assert len(spec.files) == 8 * depth + 2  # every base once: the tree's, the betting round, top
    assert elapsed < 5, f"{elapsed:.1f} s for {len(spec.files)} files"


def test_each_file_is_read_once_per_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = fan_out(tmp_path, 3, 4)
    reads: list[str] = []
    original = loader.read

    def counting(name: str) -> object:
        reads.append(os.path.realpath(name))
        return original(name)

    monkeypatch.setattr(loader, "read", counting)
    merged, found = loader.load(str(path))
    assert merged is not None and found == []
    assert len(reads) == len(set(reads)) == 3 * 4 + 2


def test_a_chain_too_long_is_still_found_past_a_base_loaded_before(tmp_path: Path) -> None:
    """A base met first near the top, then again deeper, is walked again where the chain is too long."""
    count = loader.MAX_CHAIN + 2
    for index in range(count):
        document: dict[str, object] = {"spec_version": 1, "name": f"c{index}", "title": "t", "abstract": True}
        if index:
            document["extends"] = f"c{index - 1}.json"
        (tmp_path / f"c{index}.json").write_text(json.dumps(document))
    top = {"spec_version": 1, "name": "top", "title": "t", "abstract": True}
    top["extends"] = [f"c{count - 4}.json", f"c{count - 1}.json"]
    (tmp_path / "top.json").write_text(json.dumps(top))
    spec, found = load_spec(str(tmp_path / "top.json"))
    assert spec is None and [d.code for d in found] == ["extends"]
    assert f"more than {loader.MAX_CHAIN} specs extend one another" in found[0].message


def _one_clean_line(capsys: pytest.CaptureFixture[str], *wanted: str) -> str:
    lines = capsys.readouterr().out.splitlines()
    problems = [line for line in lines if "[io]" in line and not line.startswith("[")]
    assert len(problems) == 1, lines
    assert "Traceback" not in "\n".join(lines) and "internal error" not in "\n".join(lines)
    assert all(text in problems[0] for text in wanted), problems[0]
    return problems[0]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_dev_zero_is_refused_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.perf_counter()
    assert main(["validate", "/dev/zero"]) == 1
    assert time.perf_counter() - started < 5
    _one_clean_line(capsys, "/dev/zero", "not a regular file")
    case, found = load_case("/dev/zero")
    assert case is None and "not a regular file" in found[0].message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    assert main(["validate", str(pipe)]) == 1
    _one_clean_line(capsys, "not a regular file")


def test_a_base_that_is_a_device_is_refused_where_it_is_named(tmp_path: Path) -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero here")
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    document = {"spec_version": 1, "name": "s", "title": "t", "abstract": True, "extends": "zero.json"}
    (tmp_path / "s.json").write_text(json.dumps(document))
    spec, found = load_spec(str(tmp_path / "s.json"))
    assert spec is None and [d.code for d in found] == ["io"] and "not a regular file" in found[0].message


def test_an_enormous_file_is_refused_without_reading_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A sparse file of 8 GiB: read no further than the limit, refused in one line."""
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:
        handle.truncate(8 * 1024**3)
    started = time.perf_counter()
    assert main(["validate", str(path)]) == 1
    assert time.perf_counter() - started < 5
    _one_clean_line(capsys, f"a spec is at most {jsonpos.MAX_BYTES}")
    case, found = load_case(str(path))
    assert case is None and f"a case is at most {jsonpos.MAX_BYTES}" in found[0].message


def test_a_file_at_the_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "padded.json"
    body = '{"spec_version": 1, "name": "padded", "title": "t", "abstract": true}'
    path.write_text(body + " " * (jsonpos.MAX_BYTES - len(body)))
    spec, found = load_spec(str(path))
    assert found == [] and spec is not None
    path.write_text(body + " " * (jsonpos.MAX_BYTES - len(body) + 1))
    spec, found = load_spec(str(path))
    assert spec is None and "at most" in found[0].message
