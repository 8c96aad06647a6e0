"""`phh check` without `--structure`: each hand replayed under the structure whose betting its
variant is (a folder of mixed games reads as each game's own check would), and a hand of a game
that opens its streets from other cards than the structure's game refused (issue 32: a seven-card
stud hand checked as razz was ACCEPTED)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from betspec import cards
from betspec.cli import main
from betspec.runtime import engine_class
from betspec.tools import phh
from tests.test_phh_variants import pokerkit_hand

HANDS = 6


def _folder(root: Path) -> dict[str, list[Path]]:
    """A folder of PokerKit-written hands, HANDS of each variant, one file a hand."""
    written: dict[str, list[Path]] = {}
    root.mkdir(parents=True, exist_ok=True)
    for code in cards.GAMES:
        rng = random.Random(f"mixed-{code}")
        for index in range(HANDS):
            path = root / f"{code.replace('/', '-')}-{index}.phh"
            path.write_text(pokerkit_hand(code, rng), encoding="utf-8")
            written.setdefault(code, []).append(path)
    return written


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    status = main(["phh", "check", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out.splitlines()


def test_without_a_structure_each_hand_is_checked_as_under_its_variant_s_own(tmp_path: Path) -> None:
    written = _folder(tmp_path / "mixed")
    files = sorted(str(path) for paths in written.values() for path in paths)
    mixed = {report.path: report for report in phh.check_files(files, None, {})}
    for code, paths in written.items():
        structure = cards.GAMES[code].structure
        for path in paths:
            (own,) = phh.check_files([str(path)], structure, {})
            assert mixed[str(path)].lines == own.lines, code
            assert mixed[str(path)].counts == own.counts
    accepted = sum(report.counts[phh.ACCEPTED] for report in mixed.values())
    assert accepted >= len(files) // 2  # most PokerKit hands replay under default options


def test_a_mixed_folder_reads_as_each_game_s_check_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _folder(tmp_path / "mixed")
    status, lines = _check(capsys, str(tmp_path / "mixed"))
    total = len(cards.GAMES) * HANDS
    assert lines[-1].startswith(f"{total} hands under each variant's structure in {total} files: ")
    assert not any(line.startswith("INVALID ") for line in lines), [line for line in lines if "INVALID" in line]
    # Under one structure, the hands of other games fail as before (a street it does not deal, a
    # table input it has not): the folder is not one structure's.
    status, lines = _check(capsys, str(tmp_path / "mixed"), "--structure", "no_limit")
    assert status == 1 and any(line.startswith("INVALID ") for line in lines)


@pytest.mark.parametrize(
    ("code", "structure", "other"),
    [("F7S", "razz", "FR"), ("FR", "seven_card_stud", "F7S"), ("F7S/8", "razz", "FR")],
)
def test_a_stud_hand_under_a_structure_opening_from_other_cards_is_invalid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], code: str, structure: str, other: str
) -> None:
    path = tmp_path / "hand.phh"
    path.write_text(pokerkit_hand(code, random.Random(f"stud-{code}")), encoding="utf-8")
    status, lines = _check(capsys, str(path), "--structure", structure)
    assert status == 1
    # The structure's cards are its spec's game (named as the spec names it), the PHH variant of
    # the same cards being ``other``.
    ours, theirs = cards.GAMES[code], cards.game_of(engine_class(structure))
    assert theirs.code == other
    assert lines[0].startswith("INVALID "), lines
    assert f"a {ours.name} hand ({code}) is not {structure}'s to check" in lines[0]
    assert f"{theirs.name} by the {'highest' if theirs.opening == 'high_card' else 'lowest'} upcard" in lines[0]
    assert f"check it under {ours.structure}, or without --structure" in lines[0]
    # Without --structure, or under its own, it is checked.
    for argv in ([str(path)], [str(path), "--structure", ours.structure]):
        _, lines = _check(capsys, *argv)
        assert not lines[0].startswith("INVALID "), lines


def test_a_hold_em_hand_under_another_position_game_s_structure_is_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Short deck's betting is no limit's, dealt as no-limit hold'em is: a position game either way.
    path = tmp_path / "hand.phh"
    path.write_text(pokerkit_hand("NS", random.Random("ns")), encoding="utf-8")
    _, lines = _check(capsys, str(path), "--structure", "no_limit")
    assert lines[0].startswith("ACCEPTED ") or lines[0].startswith("REFUSED "), lines


def test_to_case_without_a_structure_uses_the_variant_s(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random("to-case")
    for attempt in range(20):
        path = tmp_path / f"stud-{attempt}.phh"
        path.write_text(pokerkit_hand("F7S", rng), encoding="utf-8")
        status = main(["phh", "to-case", str(path), "--out", str(tmp_path / "cases")])
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        if status == 0:
            break
    else:
        pytest.fail("no stud hand PokerKit wrote became a case")
    (case,) = (tmp_path / "cases").glob("*.json")
    assert '"structure": "seven_card_stud"' in case.read_text(encoding="utf-8")
