"""`betspec validate`: every problem at once, as file:line:column: /json/pointer: message."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from betspec.cli import main
from betspec.frontend import load_spec
from tests.conftest import SPEC_DIR

LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+): (?P<pointer>/\S*): (?P<message>.+)$")


def write(project: Path, name: str, text: str) -> Path:
    path = project / "spec" / f"{name}.json"
    path.write_text(text)
    return path


def child(name: str, body: str) -> str:
    """A spec extending no_limit, with ``body`` as its last members (already formatted)."""
    return (
        "{\n"
        '  "spec_version": 1,\n'
        f'  "name": "{name}",\n'
        '  "title": "test",\n'
        '  "extends": "no_limit.json"' + ("" if not body else ",\n" + body) + "\n}\n"
    )


def diagnostics(path: Path) -> list[str]:
    spec, found = load_spec(str(path))
    assert spec is None
    return [str(d) for d in found]


@pytest.mark.parametrize("path", sorted(SPEC_DIR.glob("*.json")), ids=lambda p: p.stem)
def test_the_project_specs_validate(path: Path) -> None:
    spec, found = load_spec(str(path))
    assert found == [] and spec is not None


def test_a_typo_in_an_expression_is_reported_at_its_line_and_column(project: Path) -> None:
    body = '  "quantities": {\n    "min_bet_to": {"type": "int", "expr": "ceil_to(big_blnd, bet_unit)", "meaning": "m", "rule": "CAP"}\n  }'
    path = write(project, "typo", child("typo", body))
    [line] = diagnostics(path)
    match = LINE.match(line)
    assert match, line
    text = path.read_text().splitlines()
    row = int(match["line"])
    column = int(match["column"])
    assert match["file"] == str(path)
    assert text[row - 1][column - 1 :].startswith("big_blnd")
    assert match["pointer"] == "/quantities/min_bet_to/expr"
    assert "unknown name 'big_blnd' (did you mean 'big_blind'?)" in match["message"]


def test_every_problem_is_reported_at_once(project: Path) -> None:
    body = (
        '  "options": {"max_bets": {"type": "int", "default": [3], "meaning": "m", "rule": "NOPE"}},\n'
        '  "quantities": {\n'
        '    "min_bet_to": {"type": "int", "expr": "big_blind +", "meaning": "m", "rule": "CAP"},\n'
        '    "max_bet_to": {"type": "bool", "expr": "stack", "meaning": "m", "rule": "CAP"}\n'
        "  }"
    )
    found = diagnostics(write(project, "many", child("many", body)))
    assert len(found) >= 2
    text = "\n".join(found)
    assert "[3] is not of type" in text  # a schema problem...
    assert "syntax error" in text and "expression is int, expected bool" in text  # ...and meaning ones
    body = (
        '  "options": {"max_bets": {"type": "int", "default": true, "meaning": "m", "rule": "NOPE"}},\n'
        '  "quantities": {\n'
        '    "min_bet_to": {"type": "int", "expr": "big_blind +", "meaning": "m", "rule": "CAP"},\n'
        '    "max_bet_to": {"type": "bool", "expr": "stack", "meaning": "m", "rule": "CAPP"}\n'
        "  }"
    )
    found = diagnostics(write(project, "many", child("many", body)))
    text = "\n".join(found)
    for fragment in [
        "cites rule 'NOPE', which the rules table does not declare",
        "default True is not an int",
        "syntax error",
        "expression is int, expected bool",
        "cites rule 'CAPP'",
        "(did you mean 'CAP'?)",
    ]:
        assert fragment in text, (fragment, text)
    assert all(LINE.match(line) for line in found), found


def test_malformed_json_is_reported_with_its_position(project: Path) -> None:
    path = write(project, "broken", '{\n  "spec_version": 1,\n  "name": "broken"\n  "title": "x"\n}\n')
    [line] = diagnostics(path)
    assert line.startswith(f"{path}:4:3: /: invalid JSON: Expecting ',' delimiter")


@pytest.mark.parametrize("text", ["", "   \n", "[1, 2]", "nul", '{"a": NaN}'])
def test_empty_or_not_an_object_is_a_clean_error(project: Path, text: str) -> None:
    found = diagnostics(write(project, "odd", text))
    assert found and all(LINE.match(line) for line in found)


def test_an_unknown_key_names_the_key_and_a_near_one(project: Path) -> None:
    base = json.loads((SPEC_DIR / "betting_round.json").read_text())
    base["transitions"][0]["gaurd"] = base["transitions"][0].pop("guard")
    path = write(project, "betting_round", json.dumps(base, indent=2))
    found = diagnostics(path)
    assert any("/transitions/0/gaurd: unknown key 'gaurd' (did you mean 'guard'?)" in line for line in found), found


def test_a_duplicate_key_is_reported(project: Path) -> None:
    body = '  "description": "one",\n  "description": "two"'
    found = diagnostics(write(project, "dup", child("dup", body)))
    assert any(":7:3: /description: duplicate key 'description'" in line for line in found), found


def test_a_duplicate_name_across_sections_is_reported(project: Path) -> None:
    body = '  "options": {"stack": {"type": "int", "default": 1, "meaning": "m", "rule": "CAP"}}'
    found = diagnostics(write(project, "dup", child("dup", body)))
    assert any("'stack' is already declared in variables" in line for line in found), found


def test_a_guard_citing_no_declared_rule(project: Path) -> None:
    body = '  "transitions": [{"event": "fold", "source": "showdown", "dest": "settled", "guard": "players_in == 1", "rule": "UNCONTESTD"}]'
    found = diagnostics(write(project, "cite", child("cite", body)))
    assert any("cites rule 'UNCONTESTD'" in line and "did you mean 'UNCONTESTED'" in line for line in found)


def test_a_constantly_false_guard_and_an_unreachable_state(project: Path) -> None:
    base = json.loads((SPEC_DIR / "betting_round.json").read_text())
    base["states"]["limbo"] = {"phase": "complete", "label": "nowhere"}
    base["transitions"].append(
        {"event": "fold", "source": "showdown", "dest": "settled", "guard": "1 > 2 and players_in == 1", "rule": "FOLD"}
    )
    found = diagnostics(write(project, "betting_round", json.dumps(base, indent=2)))
    assert any("/states/limbo: state 'limbo' cannot be reached" in line for line in found), found
    assert any("guard is always false" in line for line in found), found


def test_an_undeclared_option_in_an_expression(project: Path) -> None:
    body = '  "quantities": {"cap_reached": {"type": "bool", "expr": "max_raises is not None", "meaning": "m", "rule": "CAP"}}'
    found = diagnostics(write(project, "opt", child("opt", body)))
    assert any("unknown name 'max_raises'" in line for line in found), found


def test_an_optional_must_be_narrowed_before_arithmetic(project: Path) -> None:
    body = '  "options": {"cap": {"type": "int?", "default": null, "meaning": "m", "rule": "CAP"}},\n'
    body += '  "quantities": {"cap_reached": {"type": "bool", "expr": "raises > cap", "meaning": "m", "rule": "CAP"}}'
    found = diagnostics(write(project, "opt", child("opt", body)))
    assert any("test it with 'is not None' first" in line for line in found), found
    good = body.replace('"raises > cap"', '"cap is not None and raises > cap"')
    spec, found = load_spec(str(write(project, "opt", child("opt", good))))
    # A cap cited to no_limit's CAP, whose text says raises are unlimited: a warning, no error.
    assert [d.code for d in found] == ["rule-text"] and spec is not None


def test_extends_cycle_and_missing_base(project: Path) -> None:
    write(project, "a", child("a", "").replace("no_limit.json", "b.json"))
    write(project, "b", child("b", "").replace("no_limit.json", "a.json"))
    found = diagnostics(project / "spec" / "a.json")
    assert any("extends makes a cycle: a.json -> b.json -> a.json" in line for line in found), found
    write(project, "c", child("c", "").replace("no_limit.json", "nowhere.json"))
    found = diagnostics(project / "spec" / "c.json")
    assert any("extends 'nowhere.json': no such spec" in line for line in found), found


def test_a_quantity_depending_on_itself(project: Path) -> None:
    body = '  "quantities": {"min_bet_to": {"type": "int", "expr": "max_bet_to + 1", "meaning": "m", "rule": "CAP"},\n'
    body += '                 "max_bet_to": {"type": "int", "expr": "min_bet_to", "meaning": "m", "rule": "CAP"}}'
    found = diagnostics(write(project, "loop", child("loop", body)))
    assert any("quantity 'max_bet_to' depends on itself" in line for line in found), found


def test_an_abstract_quantity_left_undefined(project: Path) -> None:
    base = json.loads((SPEC_DIR / "betting_round.json").read_text())
    base.pop("abstract")
    found = diagnostics(write(project, "betting_round", json.dumps(base, indent=2)))
    assert any("quantity 'min_bet_to' is abstract" in line for line in found), found


def test_a_runtime_name_that_does_not_exist(project: Path) -> None:
    body = '  "variables": {"stak": {"type": "int", "meaning": "m"}}'
    found = diagnostics(write(project, "var", child("var", body)))
    assert any("the runtime provides no variable 'stak' (did you mean 'stack'?)" in line for line in found), found


def test_validate_command_output_and_exit_status(project: Path, capsys) -> None:
    body = '  "quantities": {"min_bet_to": {"type": "int", "expr": "big_blinds", "meaning": "m", "rule": "CAP"}}'
    write(project, "typo", child("typo", body))
    assert main(["--root", str(project), "validate"]) == 1
    out = capsys.readouterr().out.splitlines()
    problems = [line for line in out if LINE.match(line)]
    assert len(problems) == 1 and "did you mean 'big_blind'" in problems[0]
    # The project's specs and sessions (spec/sessions), and the typo.
    files = len(list(SPEC_DIR.glob("*.json"))) + len(list(SPEC_DIR.glob("sessions/*.json"))) + 1
    assert out[-1] == f"1 problem(s) in {files} file(s)"
    assert main(["validate", str(SPEC_DIR / "no_limit.json")]) == 0


def test_a_huge_file_is_refused_cleanly(project: Path) -> None:
    path = project / "spec" / "huge.json"
    path.write_text('{"title": "' + "x" * (5 * 1024 * 1024) + '"}')
    [line] = diagnostics(path)
    assert "a spec is at most" in line


def test_deep_nesting_is_refused_cleanly(project: Path) -> None:
    path = write(project, "deep", "[" * 5000 + "]" * 5000)
    [line] = diagnostics(path)
    assert "nested" in line


def test_requirements_reading_the_amount_come_last(project: Path) -> None:
    base = json.loads((SPEC_DIR / "betting_round.json").read_text())
    requires = base["events"]["bet"]["requires"]
    requires.append(requires.pop(0))  # 'bet_level == 0' after the amount checks
    found = diagnostics(write(project, "betting_round", json.dumps(base, indent=2)))
    assert any("must come before those that do" in line for line in found), found


def test_a_spec_anywhere_may_extend_a_shipped_one(tmp_path: Path, capsys) -> None:
    """A wheel user has no spec/ folder of betspec's: extends finds the shipped specs."""
    folder = tmp_path / "house" / "spec"
    folder.mkdir(parents=True)
    house = {
        "spec_version": 1,
        "name": "house_no_limit",
        "title": "Our no limit",
        "extends": "no_limit.json",
        "options": {
            "bet_unit": {"type": "int", "default": 25, "minimum": 1, "meaning": "chips of 25", "rule": "CHIPS"}
        },
    }
    (folder / "house_no_limit.json").write_text(json.dumps(house))
    assert main(["--root", str(tmp_path / "house"), "validate"]) == 0
    assert main(["--root", str(tmp_path / "house"), "generate"]) == 0
    source = (tmp_path / "house" / "generated" / "house_no_limit.py").read_text()
    assert "# Extends: no_limit.json (shipped with betspec), betting_round.json (shipped with betspec)." in source
    assert "/work/" not in source and "site-packages" not in source
    house["extends"] = "no_limt.json"
    (folder / "house_no_limit.json").write_text(json.dumps(house))
    assert main(["--root", str(tmp_path / "house"), "validate"]) == 1
    assert "no such spec here or shipped with betspec (did you mean 'no_limit.json'?)" in capsys.readouterr().out


# ---- extends: a list of bases, and what a spec removes from them ------------------------------


def test_a_list_of_bases_is_merged_in_order(project: Path) -> None:
    body = '  "streets": [{"name": "before", "meaning": "m"}, {"name": "after", "meaning": "m"}]'
    write(
        project,
        "two_rounds",
        child("two_rounds", body)
        .replace('"no_limit.json"', '"betting_round.json"')
        .replace('"title": "test",', '"title": "test",\n  "abstract": true,'),
    )
    text = child("mixed", "").replace('"extends": "no_limit.json"', '"extends": ["pot_limit.json", "two_rounds.json"]')
    spec, found = load_spec(str(write(project, "mixed", text)))
    assert found == [] and spec is not None
    assert [s.name for s in spec.streets] == ["before", "after"]  # the later base wins
    assert "count_blinds_in_full" in spec.options  # pot limit's, kept
    assert [Path(f).name for f in spec.files] == [
        "mixed.json",
        "two_rounds.json",
        "pot_limit.json",
        "no_limit.json",
        "betting_round.json",
    ]


def test_a_removal_that_names_nothing_is_reported_with_a_near_name(project: Path) -> None:
    body = '  "remove": {"inputs": ["straddle"], "transitions": [{"event": "deal", "source": "nowhere"}]}'
    found = diagnostics(write(project, "rm", child("rm", body)))
    assert any(
        "/remove/inputs/0: nothing to remove: the specs this one extends have no inputs entry 'straddle' (did you mean 'straddles'?) [remove]"
        in line
        for line in found
    ), found
    assert any("/remove/transitions/0: nothing to remove" in line and "source 'nowhere'" in line for line in found), (
        found
    )


def test_a_removed_state_takes_its_transitions(project: Path) -> None:
    body = '  "remove": {"states": ["all_in_runout"]}'
    spec, found = load_spec(str(write(project, "norunout", child("norunout", body))))
    # no "unknown state" for the transitions that led there or left it, nor "unused" events
    assert found == [] and spec is not None
    assert "all_in_runout" not in spec.states
    assert not [t for t in spec.transitions if "all_in_runout" in (t.source, t.dest)]


def test_one_mistake_does_not_hide_the_next_and_runtime_names_say_how_to_declare_them(project: Path) -> None:
    body = (
        '  "remove": {"variables": ["contributed"]},\n'
        '  "quantities": {"x": {"type": "int", "expr": "contributed + stakk", "meaning": "m", "rule": "CAP"}},\n'
        '  "events": {"fold": {"kind": "action", "effects": ["rasies = foo + 1", "fold()", "pass_action()"]}}'
    )
    found = diagnostics(write(project, "many", child("many", body)))
    assert any(
        "unknown name 'contributed': the runtime provides it; declare it in \"variables\"" in line for line in found
    ), found
    assert any("unknown name 'stakk' (did you mean 'stack'?)" in line for line in found), found
    assert any(
        "'rasies' is no variable (did you mean 'raises'?): an effect sets a writable variable (" in line
        and "last_raise, raises)" in line
        for line in found
    ), found
    assert any("unknown name 'foo'" in line for line in found), found


@pytest.mark.parametrize("key", ["name", "title"])
def test_a_required_name_of_the_wrong_type_is_a_schema_error_not_a_crash(project: Path, key: str) -> None:
    # Found by tests/test_fuzz_specs.py: the schema prunes the value, the meaning checks read on
    # (a spec that extends another inherits neither, so the base is where it shows).
    path = project / "spec" / "betting_round.json"
    doc = json.loads(path.read_text())
    doc[key] = None
    path.write_text(json.dumps(doc))
    spec, found = load_spec(str(path))
    assert spec is None
    assert [str(d).split(": ", 1)[1] for d in found] == [
        f"/{key}: None is not of type 'string': write a text in quotes (\"...\") [schema]"
    ]
