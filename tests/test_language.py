"""The spec language's versions (issue 30, items 1 and 3): a spec says the version it was written
for; each version's schema is published; a spec for a newer version is refused saying so; and
`betspec upgrade` rewrites a spec or case written for an older one, in its own text, showing the
diff and writing nothing without --write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from betspec import language, upgrade
from betspec.cli import main
from betspec.frontend import load_spec
from tests.conftest import ROOT

SCHEMAS = ROOT / "spec" / "schema"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    out = capsys.readouterr().out
    assert "internal error" not in out and "Traceback" not in out, out
    return status, out


def test_every_shipped_spec_says_the_newest_version_and_the_schemas_of_each_are_published() -> None:
    newest = language.current()
    for path in (ROOT / "spec").glob("*.json"):
        assert json.loads(path.read_text())["spec_version"] == str(newest), path.name
    versions = [release.version for release in language.releases()]
    assert versions == sorted(versions, reverse=True) and versions[0] == newest
    for version in versions:
        schema = json.loads((SCHEMAS / version.schema_file).read_text())
        assert schema["$id"] == version.schema_id
        Draft202012Validator.check_schema(schema)
    stable = json.loads((SCHEMAS / "spec.schema.json").read_text())
    assert stable["$id"] == language.SCHEMA_ID
    for name in ("spec.schema.json", "case.schema.json"):  # the front end does not check them at run time
        Draft202012Validator.check_schema(json.loads((SCHEMAS / name).read_text()))
    # The newest version's copy is the stable schema under its own address.
    copy = json.loads((SCHEMAS / newest.schema_file).read_text())
    assert {**copy, "$id": stable["$id"], "title": stable["title"]} == stable


def test_a_spec_of_the_previous_release_validates_against_its_version_s_schema() -> None:
    """The 1.0 copy is the schema betspec 0.1 checked specs with: its form of spec_version only."""
    old = json.loads((SCHEMAS / "spec-1.0.schema.json").read_text())
    validator = Draft202012Validator(old)
    house = {"spec_version": 1, "name": "house_x", "title": "t", "extends": "no_limit.json"}
    assert list(validator.iter_errors(house)) == []
    assert list(validator.iter_errors({**house, "spec_version": "1.1"}))  # 1.0 did not know minor versions
    assert list(Draft202012Validator(json.loads((SCHEMAS / "spec.schema.json").read_text())).iter_errors(house)) == []


def _write(folder: Path, name: str, body: dict[str, object]) -> Path:
    path = folder / f"{name}.json"
    path.write_text(json.dumps(body, indent=2) + "\n")
    return path


HOUSE = {"name": "house_x", "title": "t", "description": "d", "extends": "no_limit.json"}


@pytest.mark.parametrize("version", ["1.9", "2.0", "7.3"])
def test_a_spec_written_for_a_newer_version_is_refused_saying_which_it_needs(tmp_path: Path, version: str) -> None:
    path = _write(tmp_path, "house_x", {"spec_version": version, **HOUSE, "brand_new_key": 1})
    spec, found = load_spec(str(path))
    assert spec is None and len(found) == 1, found
    assert found[0].code == "language" and found[0].pointer == "/spec_version"
    assert (
        f"written for spec language {version}; this betspec" in found[0].message
        and "upgrade betspec" in found[0].message
    )


@pytest.mark.parametrize("version", ["1", "01.1", "1.1.0", 1.1, 2, True])
def test_a_version_of_no_known_form_is_a_schema_error(tmp_path: Path, version: object) -> None:
    spec, found = load_spec(str(_write(tmp_path, "house_x", {"spec_version": version, **HOUSE})))
    assert spec is None and [d.code for d in found] == ["schema"], found


def test_an_older_version_s_spec_validates_as_it_did(tmp_path: Path) -> None:
    spec, found = load_spec(str(_write(tmp_path, "house_x", {"spec_version": 1, **HOUSE})))
    assert found == [] and spec is not None


#: A house spec written for 1.0 (betspec 0.1), with every name an upgrade rule rewrites.
OLD = """{
  "spec_version": 1,
  "name": "house_kill",
  "title": "A kill game",
  "description": "The killer acts last; a bet needs someone to answer it.",
  "extends": "fixed_limit.json",
  "rules": {
    "HOUSE-KILL": {"text": "The killer_acts_last option is the house's: the killer acts last.", "source": "the house"}
  },
  "options": {
    "killer_acts_last": {"type": "bool", "default": true, "meaning": "the killer acts last", "rule": "HOUSE-KILL"}
  },
  "forced_bets": {
    "house_kill": {"seat": "killer_seat", "amount": "2 * big_blind", "kind": "blind", "acts_last": true,
                   "when": "kill != 'none' and not killer_acts_last and killer_seat != big_blind_seat",
                   "meaning": "the house's kill blind", "rule": "HOUSE-KILL"}
  },
  "quantities": {
    "answered": {"type": "bool", "expr": "others_covering > 0", "meaning": "someone could answer", "rule": "HOUSE-KILL"}
  }
}
"""


def test_upgrade_rewrites_an_old_spec_in_its_own_text_and_the_result_validates(tmp_path: Path) -> None:
    path = tmp_path / "house_kill.json"
    path.write_text(OLD)
    spec, found = load_spec(str(path))
    assert spec is None
    hint = [d for d in found if d.code == "language"]
    assert len(hint) == 1 and "written for spec language 1.0: `betspec upgrade" in hint[0].message
    assert "answerable, forced-bet-order, killer-acts-in-turn" in hint[0].message
    done, problems = upgrade.upgrade_file(str(path))
    assert problems == [] and done is not None and done.left == ()
    assert {change.rule for change in done.changes} == {
        "version",
        "forced-bet-order",
        "killer-acts-in-turn",
        "answerable",
    }
    after = done.after
    assert '"spec_version": "1.1"' in after and '"order": "starts_after"' in after
    assert '"killer_acts_in_turn": {"type": "bool", "default": false' in after
    assert "kill != 'none' and killer_acts_in_turn and killer_seat != big_blind_seat" in after
    assert '"expr": "answerable"' in after
    # Prose is not rewritten, and every line no rule touches is as written.
    assert "The killer_acts_last option is the house's" in after
    untouched = [
        line
        for line in OLD.splitlines()
        if not any(w in line for w in ("killer_acts", "others_cov", "acts_last", "spec_version"))
    ]
    assert all(line in after.splitlines() for line in untouched)
    path.write_text(after)
    spec, found = load_spec(str(path))
    assert found == [] and spec is not None
    assert "killer_acts_in_turn" in spec.options
    again, _ = upgrade.upgrade_file(str(path))
    assert again is not None and not again.changed  # upgraded once is upgraded


def test_upgrade_rewrites_a_case_s_options(tmp_path: Path) -> None:
    case = {
        "id": "x",
        "source": "s",
        "structure": "seven_card_stud",
        "options": {"killer_acts_last": True, "bring_in_all_in": "next_seat", "max_raises": 4},
        "table": {},
        "steps": [],
    }
    done, _ = upgrade.upgrade_text("case.json", json.dumps(case, indent=2))
    assert done is not None and done.left == ()
    assert json.loads(done.after)["options"] == {"killer_acts_in_turn": False, "max_raises": 4}
    case["options"] = {"bring_in_all_in": "none"}
    done, _ = upgrade.upgrade_text("case.json", json.dumps(case))
    assert done is not None and not done.changed
    assert len(done.left) == 1 and "Robert's Rules, stud, rule 8" in done.left[0].message


def test_what_no_rule_rewrites_is_reported_at_its_place(tmp_path: Path) -> None:
    body = json.loads(OLD)
    body["quantities"]["count"] = {"type": "int", "expr": "others_covering * 2", "meaning": "m", "rule": "HOUSE-KILL"}
    done, _ = upgrade.upgrade_text(str(tmp_path / "house_kill.json"), json.dumps(body, indent=2))
    assert done is not None
    assert [(d.pointer, d.code) for d in done.left] == [("/quantities/count/expr", "language")]
    assert "a count of them has no replacement" in done.left[0].message


def test_betspec_upgrade_shows_the_diff_and_writes_only_with_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "house_kill.json"
    path.write_text(OLD)
    status, out = run(capsys, "upgrade", str(path))
    assert status == 0 and path.read_text() == OLD
    assert '-  "spec_version": 1,' in out and '+  "spec_version": "1.1",' in out
    assert "[forced-bet-order]" in out and "1 of 1 file(s) to upgrade (run again with --write" in out
    status, out = run(capsys, "upgrade", "--write", str(path))
    assert status == 0 and path.read_text() != OLD and "1 of 1 file(s) upgraded to spec language 1.1" in out
    status, out = run(capsys, "upgrade", str(path))
    assert status == 0 and "0 of 1 file(s)" in out
    newer = _write(tmp_path, "house_y", {"spec_version": "3.0", **HOUSE})
    status, out = run(capsys, "upgrade", str(newer))
    assert status == 1 and "newer than this betspec's 1.1" in out
    status, out = run(capsys, "upgrade", str(tmp_path / "missing.json"))
    assert status == 1 and "[io]" in out


def test_init_writes_the_schema_an_editor_checks_the_spec_with(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = run(capsys, "init", str(tmp_path / "house"))
    assert status == 0
    spec_path = next((tmp_path / "house" / "spec").glob("*.json"))
    spec = json.loads(spec_path.read_text())
    assert spec["$schema"] == "./schema/spec.schema.json" and spec["spec_version"] == str(language.current())
    schema = json.loads((spec_path.parent / spec["$schema"]).read_text())
    assert list(Draft202012Validator(schema).iter_errors(spec)) == []
    assert list(Draft202012Validator(schema).iter_errors({**spec, "spec_version": "one"}))
    for case_path in (tmp_path / "house" / "tests" / "conformance").glob("*.json"):
        case = json.loads(case_path.read_text())
        case_schema = json.loads((case_path.parent / case["$schema"]).read_text())
        assert list(Draft202012Validator(case_schema).iter_errors(case)) == []


def test_docs_language_lists_every_version_and_upgrade_rule() -> None:
    text = (ROOT / "docs" / "language.md").read_text()
    assert text == language.changelog()
    for release in language.releases():
        assert f"## {release.version} (betspec {release.betspec})" in text
    for rule in language.upgrades():
        assert f"| `{rule['id']}` | {rule['before']} |" in text


def test_the_names_an_upgrade_renames_own_actions_from_are_the_engines() -> None:
    """The own-action-names rule renames an action of a spec's own whose name an engine answers
    to (vocabulary.ENGINE_API, which a spec's own action may not take): each name it lists is
    one, so the rule renames exactly what the checker refuses."""
    from betspec.vocabulary import ENGINE_API

    rules = [rule for rule in language.upgrades() if rule["op"] == "own_action"]
    assert rules and all(set(rule["names"]) <= ENGINE_API for rule in rules)
