"""The TypeScript engines (generated/typescript, issue 23) against the Python engines, under Node.

- they compile under ``tsc --strict`` (the engines, the runtime and betspec's Node runner);
- every conformance case of the project passes through them, as through the Python engines;
- lockstep: random hands of every structure, with options drawn and each option's every value
  played, go through a Python hand and a TypeScript hand (a long-lived Node process speaking JSON
  lines) step by step, legal and illegal attempts alike (out of turn, bad seats and amounts,
  unknown actions, deals out of order, chips pushed, words said, declarations out of turn, wrong
  rankings): every answer (who acts, legal actions, the call, the bounds, pots, stakes, history),
  every refusal's code, rule, source and message, every ruling and settlement, the next table;
  and snapshots taken of one restore in the other and say the same;
- the package installs for a client: ``npm pack``, installed into a fresh project, imported
  with its types by a program compiled with ``tsc --strict``.

The tests skip, saying why, where Node (or the TypeScript compiler, installed by
``npm ci --prefix generated/typescript``) is absent.
"""

from __future__ import annotations

import copy
import glob
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from betspec.backends import BackendError
from betspec.cli import main
from betspec.conformance.runner import run_case
from betspec.conformance.runner import snapshot as fields
from betspec.project import Project, load_all, outputs, write_atomically
from betspec.runtime import BetspecError, Engine, Start, Table, engine_class, engine_names
from betspec.runtime.snapshot import restore
from betspec.tools import typescript_run
from betspec.tools.draw import draw_engine, draw_input
from tests.conftest import ROOT
from tests.test_generate import HOSTILE

SPECS = engine_names()
CASES = sorted(glob.glob(str(ROOT / "tests" / "conformance" / "**" / "*.json"), recursive=True))


def _missing() -> str:
    try:
        typescript_run.node()
        typescript_run.tsc(str(ROOT))
    except typescript_run.NodeMissing as missing:
        return str(missing)
    return ""


MISSING = _missing()
needs_node = pytest.mark.skipif(bool(MISSING), reason=f"the TypeScript engines need Node: {MISSING}")


@pytest.fixture(scope="module")
def server() -> Any:
    with typescript_run.Server(str(ROOT)) as running:
        yield running


@needs_node
def test_the_engines_and_the_runner_compile_under_tsc_strict() -> None:
    folder = typescript_run.build(str(ROOT))
    assert (folder / "runner.js").is_file()
    assert {f"{name}.js" for name in SPECS} <= {path.name for path in folder.iterdir()}


@needs_node
def test_every_conformance_case_passes_on_the_typescript_engines() -> None:
    assert len(CASES) > 500
    outcomes = list(typescript_run.run_cases(CASES, str(ROOT)))
    assert len(outcomes) == len(CASES)
    failed = [outcome.line() for outcome in outcomes if outcome.status != "PASS"]
    assert failed == []
    # The same results as the Python engines, step counts included.
    for path, outcome in zip(CASES[::7], outcomes[::7], strict=True):
        python = run_case(path)
        assert (python.status, python.case_id, python.steps) == (outcome.status, outcome.case_id, outcome.steps)


@needs_node
def test_a_failing_case_fails_on_the_typescript_engines_too(tmp_path: Path) -> None:
    case = json.loads((ROOT / "tests" / "conformance" / "nl-short-all-in-does-not-reopen.json").read_text())
    case["steps"][3]["expect"]["min_to"] = 351
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(case))
    (outcome,) = typescript_run.run_cases([str(path)], str(ROOT))
    assert outcome.status == "FAIL" and outcome.detail == "step 3: min_to is 350, expected 351"
    assert outcome.detail == run_case(str(path)).detail


@needs_node
def test_betspec_conform_runs_cases_through_the_typescript_engines(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(ROOT / "tests" / "conformance" / "nl-all-in-side-pots.json"), *CASES[:20]]
    assert main(["--root", str(ROOT), "conform", "--engine", "typescript", *files]) == 0
    out = capsys.readouterr().out
    assert out.count("PASS ") == 21 and "21 passed, 0 failed (TypeScript engines under Node)" in out


# ---- lockstep ----------------------------------------------------------------------------------


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _view(engine: Engine) -> dict[str, Any]:
    """The Python hand's answers, as the Node runner gives the TypeScript hand's."""
    return _json(
        {
            "to_act": engine.to_act,
            "legal": list(engine.legal_actions()),
            "call": engine.call_amount,
            "min_to": engine.min_to,
            "max_to": engine.max_to,
            "street": engine.street_name,
            "next_street": engine.next_street,
            "pot": engine.pot,
            "stacks": list(engine.stacks),
            "committed": list(engine.committed),
            "contributed": list(engine.contributed),
            "stakes": list(engine.stakes),
            "folded": list(engine.folded),
            "bet_level": engine.bet_level,
            "round_over": engine.round_over,
            "hand_over": engine.hand_over,
            "paid": engine.paid,
            "phase": engine.phase,
            "state": engine.state.value,
            "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in engine.pots()],
            "history": [list(step) for step in engine.history],
            "total": engine.total_chips(),
        }
    )


def _error(error: BetspecError) -> dict[str, Any]:
    found = {"type": type(error).__name__, "code": error.code, "message": error.message}
    found["rule"] = getattr(error, "rule", None)
    found["source"] = getattr(error, "source", None)
    return found


def _python_call(engine: Engine, method: str, args: list[Any]) -> Any:
    if method == "act":
        engine.act(*args)
        return None
    if method == "deal":
        engine.deal(args[0], **(args[1] or {}))
        return None
    if method == "push":
        ruling = engine.push(*args)
        return {k: getattr(ruling, k) for k in ("action", "to", "rule", "source", "text", "returned", "completed")}
    if method == "declare":
        ruling = engine.declare(*args)
        return {k: getattr(ruling, k) for k in ("action", "to", "rule", "source", "text", "returned", "completed")}
    if method == "declare_out_of_turn":
        engine.declare_out_of_turn(*args)
        return None
    if method == "settle":
        shown = {int(seat): cards for seat, cards in args[3].items()} if len(args) > 3 and args[3] else None
        made = {int(seat): hand for seat, hand in args[4].items()} if len(args) > 4 and args[4] else None
        return engine.settle(args[0], runs=args[1], odd_chip_seat=args[2], shown=shown, made=made).to_json()
    raise AssertionError(method)


CHIPS = [1, 5, 25, 100, 500]
WORDS: list[Any] = ["fold", "check", "call", "bet", "raise", None, "dance", {"act": 5}, {"act": "raise"}]
BAD_SEATS: list[Any] = [1.5, "0", None, True, -1, 99]
# Past the most a table holds (10**15), and past what TypeScript's numbers hold exactly (2**53):
# refused alike (amounts both sides read exactly, so that the messages echo the same number).
BAD_AMOUNTS: list[Any] = [-5, 1.5, "10", None, True, 10**15, 10**15 + 1, 2**60]


def _ranking(engine: Engine, rng: random.Random) -> Any:
    seats = [s for s in range(engine.seats) if not engine.folded[s]]
    rng.shuffle(seats)
    ranking: list[Any] = []
    while seats:
        take = rng.choice([1, 1, 1, 2])
        group = seats[:take]
        seats = seats[take:]
        ranking.append(group[0] if len(group) == 1 else group)
    roll = rng.random()
    if roll < 0.08 and ranking:
        ranking.pop()  # a seat left out
    elif roll < 0.14:
        ranking.append(ranking[0] if ranking else 0)  # a seat twice
    elif roll < 0.18:
        ranking.append("x")
    return ranking


def _attempt(engine: Engine, rng: random.Random) -> tuple[str, list[Any]]:
    """A call a player or dealer tries: mostly legal, often not."""
    seat: Any = engine.to_act if engine.to_act is not None and rng.random() < 0.85 else rng.randrange(engine.seats)
    if rng.random() < 0.03:
        seat = rng.choice(BAD_SEATS)
    if engine.hand_over and not engine.paid and rng.random() < 0.7:
        if rng.random() < 0.15:
            return "settle", [None, [_ranking(engine, rng) for _ in range(rng.randint(1, 3))], None]
        odd = rng.choice([None, None, None, rng.randrange(engine.seats), -1])
        return "settle", [_ranking(engine, rng), None, odd]
    if engine.to_act is None:
        streets = list(type(engine).STREETS)
        # None too: a hand over has no next street, which a deal of nothing must not match.
        street = (
            (engine.next_street or streets[0]) if rng.random() < 0.9 else rng.choice([*streets, "river", "x", None])
        )
        given = {}
        for name, declared in type(engine).DEAL_INPUTS.items():
            if rng.random() < 0.5:
                given[name] = draw_input(declared, rng, engine.seats, 0.5)
        if rng.random() < 0.05:
            given["nonsense"] = 1
        return "deal", [street, given]
    roll = rng.random()
    if roll < 0.07:
        chips = [rng.choice(CHIPS) for _ in range(rng.randint(1, 4))]
        if rng.random() < 0.05:
            chips = rng.choice([[], [0], [-1], [1.5], "x", [2**60], [10**15 + 1]])
        say = rng.choice([None, None, *WORDS])
        if rng.random() < 0.1:
            say = {"act": rng.choice(["bet", "raise"]), "to": rng.choice([rng.randint(0, 3000), 2**60])}
        return "push", [seat, chips, say]
    if roll < 0.11:
        say = rng.choice(WORDS)
        if rng.random() < 0.3:
            say = {"act": rng.choice(["bet", "raise"]), "to": (engine.min_to or 0) + rng.randint(-3, 50)}
        return "declare", [seat, say]
    if roll < 0.15:
        other = rng.randrange(engine.seats)
        act = rng.choice(["check", "call", "bet", "raise", "fold", "x"])
        to = rng.randint(0, 3000) if act in ("bet", "raise") or rng.random() < 0.1 else None
        return "declare_out_of_turn", [other, act, to]
    actions = ["fold", "check", "call", "bet", "raise", "all_in", "timeout", "bring_in", "dance"]
    action = rng.choice([*actions, *list(engine.legal_actions()) * 4])
    to = None
    if action in ("bet", "raise"):
        low, high = engine.min_to or 1, engine.max_to or 1
        to = rng.choice([low, high, rng.randint(max(0, low - 5), high + 5)])
        if rng.random() < 0.04:
            to = rng.choice(BAD_AMOUNTS)
    elif rng.random() < 0.02:
        to = 5
    return "act", [seat, action, to]


def _snapshots_cross(server: Any, structure: str, engine: Engine, hand: int) -> None:
    """A snapshot of either engine restores in the other, and the two say the same."""
    python = _json(engine.snapshot())
    answer = server.ask({"op": "snapshot", "id": hand})
    assert "ok" in answer, answer
    assert answer["ok"] == python
    restored = server.ask({"op": "restore", "structure": structure, "snapshot": python})
    assert "ok" in restored, restored
    assert restored["ok"]["view"] == _view(engine)
    server.ask({"op": "drop", "id": restored["ok"]["id"]})
    again = restore(answer["ok"])
    assert _view(again) == _view(engine)


def _copies_cross(server: Any, engine: Engine, hand: int, rng: random.Random) -> None:
    """A copy of the hand on either side (copy.copy, copyHand) plays on in lockstep, a few random
    steps, while the hand it was copied from stays as it was on both sides."""
    before = _view(engine)
    twin = copy.copy(engine)
    made = server.ask({"op": "copy", "id": hand})
    assert "ok" in made, made
    assert made["ok"]["view"] == _view(twin) == before
    copied = made["ok"]["id"]
    for _ in range(4):
        if twin.paid:
            break
        method, args = _attempt(twin, rng)
        answer = server.ask({"op": "call", "id": copied, "method": method, "args": args})
        try:
            result = _python_call(twin, method, args)
        except BetspecError as error:
            assert answer["ok"]["error"]["code"] == error.code, (method, args, answer)
        else:
            assert answer["ok"]["result"] == _json(result), (method, args, answer)
        assert answer["ok"]["view"] == _view(twin), (method, args)
    assert _view(engine) == before
    assert server.ask({"op": "view", "id": hand})["ok"] == before
    server.ask({"op": "drop", "id": copied})


def _play(server: Any, structure: str, engine: Engine, rng: random.Random, steps: int = 120) -> int:
    """Play one hand through both engines in lockstep; the number of steps compared."""
    cls = type(engine)
    table = _json(engine.table.to_json())
    start = _json(engine.start.to_json()) if engine.start is not None else None
    made = server.ask({"op": "new", "structure": structure, "table": table, "options": engine.options, "start": start})
    assert "ok" in made, made
    hand = made["ok"]["id"]
    assert made["ok"]["view"] == _view(engine)
    compared = 0
    for number in range(steps):
        if engine.paid:
            answer = server.ask({"op": "next_table", "id": hand})
            try:
                table_after = _json(engine.next_table().to_json())
            except BetspecError as error:
                assert answer["error"]["code"] == error.code and answer["error"]["message"] == error.message
            else:
                assert answer["ok"] == table_after
            break
        method, args = _attempt(engine, rng)
        where = f"{structure} step {number}: {method}{args} on {engine!r}"
        before = fields(engine)
        try:
            result = _python_call(engine, method, args)
        except BetspecError as error:
            answer = server.ask({"op": "call", "id": hand, "method": method, "args": args})
            assert "error" in answer["ok"], (where, answer)
            got = answer["ok"]["error"]
            want = _error(error)
            assert {k: got.get(k) for k in want} == want, where
            assert answer["ok"]["unchanged"], where
            assert fields(engine) == before, where  # a refused call changes nothing, a deal's inputs included
        else:
            answer = server.ask({"op": "call", "id": hand, "method": method, "args": args})
            assert "result" in answer["ok"], (where, answer)
            assert answer["ok"]["result"] == _json(result), where
        assert answer["ok"]["view"] == _view(engine), where
        compared += 1
        if number % 9 == 4:
            _snapshots_cross(server, structure, engine, hand)
        if number % 9 == 7:
            _copies_cross(server, engine, hand, rng)
    _snapshots_cross(server, structure, engine, hand)
    server.ask({"op": "drop", "id": hand})
    assert structure == cls.SPEC_NAME
    return compared


def _option_values(cls: type[Engine]) -> list[dict[str, Any]]:
    """One set of options per value of each option: every bool both ways, every choice, an int's bounds."""
    found: list[dict[str, Any]] = []
    for name, declared in cls.OPTIONS.items():
        if declared.type == "bool":
            found.append({name: not declared.default})
        elif declared.type == "choice":
            found += [{name: choice} for choice in declared.choices if choice != declared.default]
        else:
            low = declared.minimum if declared.minimum is not None else 0
            high = declared.maximum if declared.maximum is not None else low + 25
            found += [{name: value} for value in {low, high, (low + high) // 2} if value != declared.default]
            if declared.type == "int?":
                found.append({name: None})
    return found


@needs_node
@pytest.mark.parametrize("structure", SPECS)
def test_lockstep_random_hands_every_option(server: Any, structure: str) -> None:
    cls = engine_class(structure)
    rng = random.Random(f"lockstep-{structure}")
    compared = hands = 0
    for options in [{}, *_option_values(cls)]:
        for _ in range(3):
            engine = draw_engine(cls, rng)
            try:
                engine = cls(engine.table, start=engine.start, **{**engine.options, **options})
            except BetspecError:
                continue  # this table refuses the option's value: another draw plays it
            compared += _play(server, structure, engine, rng)
            hands += 1
    while hands < 60:
        compared += _play(server, structure, draw_engine(cls, rng), rng)
        hands += 1
    assert compared > 600


@needs_node
def test_lockstep_tables_the_spec_refuses_are_refused_alike(server: Any) -> None:
    rng = random.Random("refused")
    refused = 0
    for structure in SPECS:
        cls = engine_class(structure)
        for _ in range(30):
            engine = draw_engine(cls, rng)
            table = _json(engine.table.to_json())
            for name, declared in cls.INPUTS.items():
                if rng.random() < 0.3:
                    table[name] = draw_input(declared, rng, engine.seats, 1.0)
            if rng.random() < 0.2:
                table["stacks"] = rng.choice([[100], [100, 0], [1.5, 100], "x", [100] * 24])
            options = dict(engine.options)
            if rng.random() < 0.1:
                options["no_such_option"] = 1
            try:
                python = cls(Table.from_json(table), **options)
            except BetspecError as error:
                answer = server.ask({"op": "new", "structure": structure, "table": table, "options": options})
                assert answer.get("error", {}).get("code") == error.code, (structure, table, answer, error)
                assert answer["error"].get("rule", "") == getattr(error, "rule", ""), (structure, table)
                refused += 1
                continue
            answer = server.ask({"op": "new", "structure": structure, "table": table, "options": options})
            assert "ok" in answer, (structure, table, answer)
            assert answer["ok"]["view"] == _view(python)
            server.ask({"op": "drop", "id": answer["ok"]["id"]})
    assert refused > 20


# ---- the package, as a client installs it --------------------------------------------------------

CLIENT = """
import { NoLimit, IllegalAction } from "betspec-engines/no_limit";
import { ENGINES } from "betspec-engines";

const hand = new NoLimit({ stacks: [950, 950, 250], button: 2, blinds: [25, 50] }, {}, { street: "flop", pot: 150 });
const seat: number | null = hand.toAct;
const legal: string[] = hand.legalActions();
const low: number | null = hand.minTo;
hand.bet(0, 100);
hand.raise(1, 200);
hand.allIn(2);
hand.call(0);
let refused = "";
try {
  hand.raise(1, 400);
} catch (error) {
  if (error instanceof IllegalAction) refused = `${error.code} ${error.rule}`;
}
const other = new ENGINES["pot_limit"]!({ stacks: [100, 100], blinds: [1, 2] });
console.log(JSON.stringify({ seat, legal, low, max: hand.maxTo, refused, pots: hand.pots(), other: other.toAct }));
"""


@needs_node
@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_the_package_installs_from_npm_pack_and_compiles_a_client(tmp_path: Path) -> None:
    package = ROOT / "generated" / "typescript"
    packed = subprocess.run(
        ["npm", "pack", "--silent", "--pack-destination", str(tmp_path)],
        cwd=package,
        capture_output=True,
        text=True,
        check=False,
    )
    assert packed.returncode == 0, packed.stderr
    tarball = tmp_path / packed.stdout.strip().splitlines()[-1]
    assert tarball.is_file()
    client = tmp_path / "client"
    client.mkdir()
    (client / "package.json").write_text(json.dumps({"name": "client", "private": True, "type": "module"}))
    installed = subprocess.run(
        ["npm", "install", "--silent", "--no-audit", "--no-fund", "--ignore-scripts", str(tarball)],
        cwd=client,
        capture_output=True,
        text=True,
        check=False,
    )
    assert installed.returncode == 0, installed.stderr
    assert (client / "node_modules" / "betspec-engines" / "dist" / "no_limit.d.ts").is_file()
    (client / "main.ts").write_text(CLIENT)
    guide = (ROOT / "docs" / "engines.md").read_text()  # the TypeScript client the guide shows
    (client / "readme.ts").write_text(guide.split("```ts\n", 1)[1].split("```", 1)[0])
    config = {
        "compilerOptions": {
            "target": "ES2022",
            "module": "NodeNext",
            "moduleResolution": "NodeNext",
            "strict": True,
            "noUncheckedIndexedAccess": True,
            "types": [],
            "outDir": "out",
        },
        "files": ["main.ts", "readme.ts"],
    }
    (client / "tsconfig.json").write_text(json.dumps(config))
    compiler = typescript_run.tsc(str(ROOT))
    compiled = subprocess.run([*compiler, "-p", str(client)], capture_output=True, text=True, check=False)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    ran = subprocess.run(
        [typescript_run.node(), str(client / "out" / "main.js")], capture_output=True, text=True, check=False
    )
    assert ran.returncode == 0, ran.stderr
    result = json.loads(ran.stdout)
    shown = subprocess.run(
        [typescript_run.node(), str(client / "out" / "readme.js")], capture_output=True, text=True, check=False
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith("not_reopened REOPEN ") and "seat 1: call 50 | fold" in shown.stdout
    python = engine_class("no_limit")(Table([950, 950, 250], 2, (25, 50)), start=Start("flop", 150))
    for seat, action, to in ((0, "bet", 100), (1, "raise", 200), (2, "all_in", None), (0, "call", None)):
        python.act(seat, action, to)
    assert result == {
        "seat": 0,
        "legal": ["bet", "check", "fold"],
        "low": 50,
        "max": python.max_to,
        "refused": "not_reopened REOPEN",
        "pots": [{"amount": p.amount, "eligible": list(p.eligible)} for p in python.pots()],
        "other": 0,
    }


# ---- spec text is data; a plan element the printer does not know is refused ---------------------

TS_HOSTILE = [
    *HOSTILE,
    "*/ ${process.exit(3)} `backtick` </script> \u2028 line \u2029 paragraph",
    '"); process.exit(3); ("',
]


@needs_node
@pytest.mark.parametrize("text", TS_HOSTILE)
def test_spec_text_reaches_the_typescript_engines_only_as_data(project: Path, text: str) -> None:
    base = json.loads((project / "spec" / "betting_round.json").read_text())
    base["rules"]["FOLD"]["text"] = text
    base["rules"]["FOLD"]["source"] = text
    base["description"] = text
    base["states"]["settled"]["label"] = text
    base["events"]["check"]["requires"][0]["message"] = text
    (project / "spec" / "betting_round.json").write_text(json.dumps(base))
    nl = json.loads((project / "spec" / "no_limit.json").read_text())
    nl["title"] = text
    nl["description"] = text
    (project / "spec" / "no_limit.json").write_text(json.dumps(nl))
    _generate(project)
    with typescript_run.Server(str(project)) as server:
        made = server.ask({"op": "new", "structure": "no_limit", "table": {"stacks": [100, 100], "blinds": [1, 2]}})
        meta = server.ask({"op": "meta", "id": made["ok"]["id"]})["ok"]
    assert meta["rules"]["FOLD"] == [text, text]
    assert not (project / "PWNED").exists()


def test_a_plan_element_the_printer_does_not_know_is_refused(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from betspec.backends import typescript

    monkeypatch.delitem(typescript.TS_PRIMITIVES, "commit")
    with pytest.raises(BackendError, match="the TypeScript back end does not know the primitive 'commit'"):
        _generate(project)
    assert main(["--root", str(project), "generate"]) == 1
    assert "does not know the primitive 'commit'" in capsys.readouterr().out
    assert not (project / "generated" / "typescript" / "src" / "no_limit.ts").exists()
    monkeypatch.undo()
    monkeypatch.delitem(typescript.TS_ACCESSORS, "raises")
    with pytest.raises(BackendError, match="does not know the variable 'raises'"):
        _generate(project)
    monkeypatch.undo()
    monkeypatch.setattr(typescript, "KNOWN_SPEC_FIELDS", typescript.KNOWN_SPEC_FIELDS - {"roles"})
    with pytest.raises(BackendError, match="does not know the spec's roles"):
        _generate(project)
    monkeypatch.undo()
    monkeypatch.setattr(typescript, "KNOWN_PHASES", ("start",))
    with pytest.raises(BackendError, match="does not know the phase 'unopened'"):
        _generate(project)


def _generate(project: Path) -> None:
    """The TypeScript back end's files of ``project``, written."""
    found = Project(str(project))
    specs, problems = load_all(found.spec_files())
    assert problems == []
    for path, text in outputs(found, specs, ("typescript",)).items():
        write_atomically(path, text)


@needs_node
def test_a_snapshot_either_engine_refuses_the_other_refuses(server: Any) -> None:
    cls = engine_class("no_limit")
    engine = cls(Table([300, 300, 300], 0, (5, 10)))
    engine.act(engine.to_act, "raise", 30)  # type: ignore[arg-type]
    engine.act(engine.to_act, "call")  # type: ignore[arg-type]
    good = _json(engine.snapshot())
    deep: Any = 0
    for _ in range(20):
        deep = [deep]

    def edited(**changes: Any) -> dict[str, Any]:
        data = json.loads(json.dumps(good))
        for key, value in changes.items():
            if key == "stacks":
                data["observed"]["stacks"] = value
            else:
                data[key] = value
        return data

    bad = [
        edited(version=1),
        edited(format="other"),
        edited(spec_hash="0" * 64),
        edited(options={}),
        edited(stacks=[300, 300, 301]),
        edited(log=[*good["log"], [2, "fold", None]]),
        edited(log=[[0, "dance", None]]),
        edited(log=[[0, "raise"]]),
        edited(table={"stacks": [300]}),
        edited(observed=deep),
        edited(start={"street": "flop", "nonsense": 1}),
        "not a snapshot",
    ]
    for data in bad:
        with pytest.raises(BetspecError) as python:
            restore(data)
        assert python.value.code == "bad_snapshot"
        answer = server.ask({"op": "restore", "structure": "no_limit", "snapshot": data})
        assert answer.get("error", {}).get("code") == "bad_snapshot", (data, answer)
    assert "ok" in server.ask({"op": "restore", "structure": "no_limit", "snapshot": good})


@needs_node
def test_every_typescript_engine_exports_its_spec_s_game_as_the_python_engine_has_it(tmp_path: Path) -> None:
    """A client's dealer reads the cards from the TypeScript module as a host's reads them from
    the Python engine (betspec.cards.game_of): the same data, or null where the spec has none."""
    folder = typescript_run.build(str(ROOT))
    script = "".join(
        f'import {{ GAME as g{index} }} from "{(folder / f"{name}.js").as_uri()}";\n'
        for index, name in enumerate(SPECS)
    )
    script += f"console.log(JSON.stringify([{', '.join(f'g{index}' for index in range(len(SPECS)))}]));\n"
    path = tmp_path / "games_check.mjs"
    path.write_text(script, encoding="utf-8")
    ran = subprocess.run([typescript_run.node(), str(path)], capture_output=True, text=True, check=False)
    assert ran.returncode == 0, ran.stderr
    theirs = json.loads(ran.stdout)
    ours = [json.loads(json.dumps(engine_class(name).GAME)) for name in SPECS]
    assert theirs == ours
    assert [game is None for game in theirs] == [name == "jacks_or_better" for name in SPECS]
