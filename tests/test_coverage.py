"""`betspec coverage`: the cases reach every transition of every spec."""

from __future__ import annotations

import re

from betspec.cli import main
from betspec.runtime import engine_names
from betspec.tools.coverage import explore, measure, new_coverage
from tests.conftest import ROOT

SPECS = engine_names()
CASES = sorted(str(p) for p in (ROOT / "tests" / "conformance").rglob("*.json"))


def test_the_cases_reach_every_transition_of_every_spec() -> None:
    coverages, failures = measure(CASES, SPECS)
    assert failures == []
    for coverage in coverages.values():
        assert coverage.missing() == [], coverage.summary()
        # The outcomes never seen are structural: 'bet_level == 0' is only tried once
        # 'bet_level > 0' failed, so it cannot be false; a deal in the runout past the last
        # street is refused before the event fires (it is not the next street).
        # (The rule each transition cites is the spec's: stud's forced bets are antes.)
        missing = [re.sub(r" \([A-Z-]+\)$", "", coverage.describe(i)) for i, _ in coverage.missing_outcomes()]
        assert sorted(missing) == [
            "deal: all_in_runout -> all_in_runout [street < last_street]",
            "post_blinds: hand_start -> unopened [bet_level == 0]",
        ], coverage.summary()


def test_without_the_generated_paths_something_is_missing_and_exploration_finds_it() -> None:
    written = [c for c in CASES if "/paths/" not in c]
    coverages, _ = measure(written, ["pot_limit"])
    coverage = coverages["pot_limit"]
    assert coverage.missing()
    cases = explore("pot_limit", coverage, hands=20000, seed=2026)
    assert cases and coverage.missing() == []
    assert all(case["steps"][-1].keys() == {"expect"} for case in cases)


def test_coverage_command_reports_per_spec(capsys) -> None:
    assert main(["--root", str(ROOT), "coverage"]) == 0
    out = capsys.readouterr().out
    for spec in SPECS:
        assert re.search(rf"^{spec}: transitions (\d+)/\1 \(100%\)", out, re.MULTILINE), out


def test_a_recording_engine_counts_what_fires() -> None:
    coverage = new_coverage("no_limit")
    measure([str(ROOT / "tests" / "conformance" / "heads-up-blinds-and-order.json")], ["no_limit"])
    assert sum(coverage.fired.values()) == 0  # a fresh record is untouched by other runs
    coverages, _ = measure([str(ROOT / "tests" / "conformance" / "heads-up-blinds-and-order.json")], ["no_limit"])
    fired = {coverages["no_limit"].describe(i) for i in coverages["no_limit"].fired}
    assert "fold: facing_bet -> facing_bet (FOLD)" in fired
    assert "end_round: facing_bet -> settled [players_in == 1] (UNCONTESTED)" in fired
