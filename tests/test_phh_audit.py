"""Issue 22: auditing a data set with `betspec phh check` (folders, a line per file and a total,
on several processes or Ray, the same lines in the same order), and the stud dealer's decisions
checked against the upcards (a wrong seat bringing in or opening is MISDEALT)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from betspec.cli import main
from betspec.tools import phh

SAMPLE = Path(__file__).resolve().parent / "phh" / "handhq-abs-200nlh-sample.phhs"


def _corpus(root: Path) -> Path:
    """A folder of several .phhs files, one in a subfolder, cut from the sample, and a file that
    is not PHH (skipped by its name)."""
    text = SAMPLE.read_text(encoding="utf-8")
    header, *tables = re.split(r"(?m)^(?=\[\d+\]\s*$)", text)
    assert len(tables) == 583
    (root / "deeper").mkdir(parents=True)
    for number, (start, stop) in enumerate([(0, 150), (150, 400), (400, 583)]):
        folder = root / "deeper" if number == 2 else root
        (folder / f"part{number}.phhs").write_text(header + "".join(tables[start:stop]), encoding="utf-8")
    (root / "notes.txt").write_text("not a hand history", encoding="utf-8")
    return root


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    status = main(["phh", "check", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out.splitlines()


def test_a_folder_is_checked_file_by_file_and_in_total(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _corpus(tmp_path / "corpus")
    assert phh.phh_files([str(root)]) == [
        str(root / "deeper" / "part2.phhs"),
        str(root / "part0.phhs"),
        str(root / "part1.phhs"),
    ]
    status, lines = _check(capsys, str(root), "--structure", "no_limit")
    assert status == 0
    assert sum(line.startswith("ACCEPTED ") for line in lines) == 583
    files = [line for line in lines if line.startswith("file ")]
    assert files == [
        f"file {root / 'deeper' / 'part2.phhs'}: 183 hands, 183 accepted, 0 refused, 0 mispaid, 0 irregular, 0 invalid",
        f"file {root / 'part0.phhs'}: 150 hands, 150 accepted, 0 refused, 0 mispaid, 0 irregular, 0 invalid",
        f"file {root / 'part1.phhs'}: 250 hands, 250 accepted, 0 refused, 0 mispaid, 0 irregular, 0 invalid",
    ]
    # Each file's line follows its hands; the total is the sample's, whatever the cut.
    assert lines.index(files[0]) == 183 and lines.index(files[1]) == 183 + 1 + 150
    assert lines[-1] == (
        "583 hands under no_limit in 3 files: 583 accepted, 0 refused, 0 mispaid, 0 irregular, 0 invalid; "
        "pots checked against the file in 476 (476 paid as it says, 210 of them less a rake), not in 107"
    )


def test_two_processes_print_what_one_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _corpus(tmp_path / "corpus")
    one = _check(capsys, str(root), str(SAMPLE), "--structure", "no_limit", "--jobs", "1")
    two = _check(capsys, str(root), str(SAMPLE), "--structure", "no_limit", "--jobs", "2")
    assert one == two and one[0] == 0 and len(one[1]) == 2 * 583 + 4 + 1
    # One file split into shares among the workers: the same hands, in the same order.
    alone = _check(capsys, str(SAMPLE), "--structure", "no_limit")
    shared = _check(capsys, str(SAMPLE), "--structure", "no_limit", "--jobs", "0")
    assert alone == shared and len(alone[1]) == 584
    assert [hand.name for hand in phh.read(str(SAMPLE), (0, 2)) + phh.read(str(SAMPLE), (1, 2))] == [
        hand.name for hand in phh.read(str(SAMPLE))
    ]


def test_bad_arguments_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "empty").mkdir()
    status, lines = _check(capsys, str(tmp_path / "empty"), "--structure", "no_limit")
    assert status == 2 and lines[0] == f"betspec phh: {tmp_path / 'empty'}: no .phh or .phhs file in it"
    status, lines = _check(capsys, str(SAMPLE), "--structure", "no_limit", "--jobs", "-1")
    assert status == 2 and lines == ["betspec phh: --jobs is a number of processes, 0 for every core"]


STUD = """variant = "F7S"
antes = [1, 1, 1]
bring_in = 2
small_bet = 10
big_bet = 20
starting_stacks = [200, 200, 200]
actions = [
  "d dh p1 AsKs2c", "d dh p2 QsJs9h", "d dh p3 8s7s3d",
  {third}
  "d dh p1 Kd", "d dh p2 4c", "d dh p3 5h",
  {fourth}
]
"""
RIGHT_THIRD = '"p1 pb", "p2 cc", "p3 cc",'  # p1 shows the 2c, the lowest upcard: it brings in
RIGHT_FOURTH = '"p1 cc", "p2 cc", "p3 cc",'  # p1 shows K-2, the best hand: it opens


@pytest.mark.parametrize(
    ("third", "fourth", "expected"),
    [
        (RIGHT_THIRD, RIGHT_FOURTH, None),
        (
            '"p2 pb", "p3 cc", "p1 cc",',
            RIGHT_FOURTH,
            "action 4 'p2 pb': p2 brings in, where the upcards (p1 2c, p2 9h, p3 3d) say p1, the lowest: "
            "the dealer erred (rule BRING-IN)",
        ),
        (
            RIGHT_THIRD,
            '"p2 cc", "p3 cc", "p1 cc",',
            "action 10 'p2 cc': p2 opens fourth, where the upcards (p1 2c Kd, p2 9h 4c, p3 3d 5h) say p1, "
            "the best hand showing: the dealer erred (rule BRING-IN)",
        ),
    ],
)
def test_a_stud_hand_whose_wrong_seat_brings_in_or_opens_is_misdealt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], third: str, fourth: str, expected: str | None
) -> None:
    path = tmp_path / "stud.phh"
    path.write_text(STUD.format(third=third, fourth=fourth), encoding="utf-8")
    result = phh.replay(phh.read(str(path))[0], phh.engine_for("seven_card_stud", {}))
    if expected is None:
        assert result.status == phh.ACCEPTED, result.line()
        return
    assert (result.status, result.detail) == (phh.MISDEALT, expected)
    status, lines = _check(capsys, str(path), "--structure", "seven_card_stud")
    assert status == 1 and lines[0] == f"MISDEALT {path}: {expected}"
    assert lines[-1].startswith("1 hand under seven_card_stud: 0 accepted, 0 refused, 0 mispaid, 1 misdealt, ")


def test_razz_brings_in_from_the_highest_upcard(tmp_path: Path) -> None:
    # Razz: the king of spades brings in; the file has the 2 bring in instead.
    text = STUD.replace('"F7S"', '"FR"').format(third='"p2 pb", "p3 cc", "p1 cc",', fourth="")
    text = text.replace("AsKs2c", "As2sKs").replace('  "d dh p1 Kd", "d dh p2 4c", "d dh p3 5h",\n', "")
    path = tmp_path / "razz.phh"
    path.write_text(text, encoding="utf-8")
    result = phh.replay(phh.read(str(path))[0], phh.engine_for("razz", {}))
    assert result.status == phh.MISDEALT
    assert result.detail.startswith(
        "action 4 'p2 pb': p2 brings in, where the upcards (p1 Ks, p2 9h, p3 3d) say p1, the highest"
    )


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="the ray extra is not installed")
def test_ray_tasks_print_what_one_process_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _corpus(tmp_path / "corpus")
    here = _check(capsys, str(root), "--structure", "no_limit")
    on_ray = _check(capsys, str(root), "--structure", "no_limit", "--on", "ray", "--jobs", "2")
    assert on_ray == here and here[0] == 0
