"""A trained agent at the table (issue 34, item 5): the example in docs/examples/agents trains a
small agent on the house's kill game in betspec's environment, and ``betspec play --agent``
seats it against a person, shown what the environment showed it, its actions taken as the
environment takes them.

- the agent the example ships (kill_agent.json, 30,000 hands) wins more against the random seat
  than checking and calling, and far more than playing at random (measured, seeded);
- the trainer, run as a user runs it, learns: a short run already beats the random agent, and
  the same seed writes the same file;
- ``betspec play`` seats the agent: it acts as its table says, a wrong seat, a missing or failing
  file and an action its mask refuses are said, never a traceback.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("pokerkit")

from betspec.cli import parser
from betspec.tools.play import run

ROOT = Path(__file__).resolve().parent.parent
AGENTS = ROOT / "docs" / "examples" / "agents"
KILL = ROOT / "docs" / "examples" / "house" / "spec" / "kill_after_two_pots.json"
sys.path.insert(0, str(AGENTS))

import kill_agent  # noqa: E402
import train_kill_agent  # noqa: E402


def test_the_shipped_agent_beats_checking_and_calling_and_playing_at_random() -> None:
    learned = json.loads((AGENTS / "kill_agent.json").read_text())
    assert learned["hands"] == 30000 and len(learned["values"]) >= 40
    trained = train_kill_agent.measure(kill_agent.choose, 1500)
    calling = train_kill_agent.measure(train_kill_agent.always_call, 1500)
    assert trained > calling + 1.0 and calling > 0.5, (trained, calling)


def test_the_trainer_learns_and_writes_the_same_file_for_the_same_seed(tmp_path: Path) -> None:
    outs = []
    for name in ("a.json", "b.json"):
        done = subprocess.run(
            [sys.executable, str(AGENTS / "train_kill_agent.py"), "--hands", "1500", "--measure", "400", "--out", name],
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
            cwd=tmp_path,
        )
        assert done.returncode == 0, done.stderr
        outs.append(done.stdout)
    assert (tmp_path / "a.json").read_text() == (tmp_path / "b.json").read_text()
    won = {line.split(":")[0]: float(line.split(":")[1].split()[0]) for line in outs[0].splitlines()[1:]}
    assert won["the trained agent"] > won["random"] + 1.0, outs[0]


def _play(*argv: str, typed: str = "") -> tuple[int, str]:
    args = parser().parse_args(["play", *argv])
    assert isinstance(args, argparse.Namespace)
    out = io.StringIO()
    status = run(args, io.StringIO(typed), out)
    return status, out.getvalue()


def test_betspec_play_seats_the_agent_against_a_person() -> None:
    agent = str(AGENTS / "kill_agent.py")
    status, out = _play(str(KILL), "--agent", f"1={agent}", "--seed", "3", "--hands", "1", typed="call\n" * 12)
    assert status == 0 and "Traceback" not in out, out
    assert f"seat 1: the agent of {agent}" in out and "seat 1 (agent): " in out and "hand over (" in out, out
    # Both seats agents: they play the hand alone.
    status, out = _play(str(KILL), "--agent", f"0={agent}", "--agent", f"1={agent}", "--seed", "4")
    assert status == 0 and out.count("(agent): ") >= 2 and "hand over (" in out, out


def test_what_play_refuses_of_an_agent_is_said(tmp_path: Path) -> None:
    failing = tmp_path / "failing.py"
    failing.write_text("raise ValueError('not trained')\n")
    wrong = tmp_path / "wrong.py"
    wrong.write_text("def choose(observation):\n    return 99\n")
    raising = tmp_path / "raising.py"
    raising.write_text("def choose(observation):\n    raise KeyError('lost')\n")
    nothing = tmp_path / "nothing.py"
    nothing.write_text("FRACTIONS = (0.5,)\n")
    for argv, said in (
        (["--agent", "5=x.py"], "--agent names seat 5, but the seats are 0..1"),
        (["--agent", f"1={tmp_path / 'gone.py'}"], "no agent file at"),
        (["--agent", f"1={failing}"], "failed as it was loaded: ValueError: not trained"),
        (["--agent", f"1={nothing}"], "defines no choose(observation) -> int"),
        (["--agent", "1=notes.txt"], "an agent is a Python file (.py)"),
    ):
        status, out = _play("no_limit", *argv)
        assert status == 2 and said in out and "Traceback" not in out, (argv, out)
    status, out = _play("no_limit", "--agent", f"1={wrong}", "--seed", "1", "--hands", "1", typed="call\n" * 12)
    assert status == 0 and "chose 99, which its mask refuses: it checks or calls" in out, out
    status, out = _play("no_limit", "--agent", f"1={raising}", "--seed", "1", "--hands", "1", typed="call\n" * 12)
    assert status == 0 and "failed: KeyError: 'lost'; it checks or calls" in out, out
    status, out = _play("horse", "--agent", f"1={wrong}")
    assert status == 2 and "not at a session's" in out, out
