"""The `betspec` command starts with what it runs: building its parser (`--help`) loads neither
the front end, the back ends, the engines, PokerKit, transitions, Ray nor Cython; each command
loads its own (`python -X importtime -m betspec.cli --help` shows what is left)."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = (
    "betspec.frontend",
    "betspec.backends",
    "betspec.runtime.engine",
    "betspec.runtime.batch",
    "betspec.tools.phh.reader",
    "betspec.tools.phh.audit",
    "betspec.cards",
    "pokerkit",
    "transitions",
    "jsonschema",
    "ray",
    "Cython",
    # Standard modules that cost milliseconds each and only some commands use.
    "concurrent.futures",
    "subprocess",
    "importlib.abc",
    "importlib.resources",
)


def _loaded(code: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_the_parser_loads_nothing_a_command_does_not_run() -> None:
    loaded = _loaded("from betspec.cli import parser\nparser()")
    assert not {name for name in loaded for heavy in HEAVY if name == heavy or name.startswith(heavy + ".")}


def test_a_command_loads_what_it_runs() -> None:
    loaded = _loaded("from betspec.tools import phh\nphh.read")
    assert "betspec.tools.phh.reader" in loaded
    from betspec import runtime

    assert runtime.Engine.__name__ == "Engine" and "Engine" in vars(runtime)  # read once, then kept


def test_validating_a_valid_spec_loads_no_python_schema_validator() -> None:
    # The compiled check passes it (betspec.frontend.schema); jsonschema explains only a refusal.
    from tests.conftest import SPEC_DIR

    code = (
        "from betspec.frontend import load_spec\n"
        f"spec, problems = load_spec({str(SPEC_DIR / 'no_limit.json')!r})\n"
        "assert spec is not None and not problems, problems"
    )
    loaded = _loaded(code)
    assert "jsonschema_rs" in loaded and "betspec.frontend.checker" in loaded
    assert not {name for name in loaded if name == "jsonschema" or name.startswith("jsonschema.")}
    refused = _loaded(
        "from betspec.frontend import jsonpos, schema\n"
        "doc, _ = jsonpos.parse('x.json', '{\"name\": 3}')\n"
        "assert doc is not None and schema.check(doc, schema.SPEC_SCHEMA)"
    )
    assert "jsonschema" in refused
