"""The Python runtime's primitives are declared once (betspec/runtime/primitives.py): the runtime's
methods are printed from the declaration, and so are the copies an engine's effects hold."""

from __future__ import annotations

import ast

import pytest

from betspec.backends.python import primitive_lines
from betspec.runtime import mechanisms, primitives
from betspec.runtime.engine import Engine
from betspec.tools import primitives as tool
from tests.conftest import ROOT


def test_the_runtimes_methods_are_printed_from_the_declaration() -> None:
    assert tool.main(["--check"]) == 0
    assert tool.rewritten(tool.ENGINE.read_text()) == tool.ENGINE.read_text()


@pytest.mark.parametrize("body", primitives.BODIES, ids=lambda b: b.name)
def test_each_body_is_a_declared_mechanism_with_its_parameters(body: primitives.Body) -> None:
    mechanism = mechanisms.BY_NAME[body.name]
    assert body.params == tuple(p.name for p in mechanism.params)
    assert callable(getattr(Engine, body.name))


def test_a_call_of_another_primitive_is_its_statements_in_place() -> None:
    lines = primitive_lines(primitives.BY_NAME["_mark_checked"].statements, "m")
    assert "_mark_acted" not in "\n".join(lines)
    acted = primitive_lines(primitives.BY_NAME["_mark_acted"].statements, "m")
    assert lines == ["seat = m._actor", *acted]
    assert "m._declared = 0" in lines  # the runtime's constant written as its value in an engine


def test_an_engine_reads_the_specs_playable_in_place_of_the_runtimes_call() -> None:
    playable = ast.parse("m._behind[seat] - 1", mode="eval").body
    lines = primitive_lines(primitives.BY_NAME["_commit"].statements, "m", playable)
    assert "after = live[seat] = m._behind[seat] - 1" in lines
    assert not any("_playable" in line for line in lines)
    runtime = primitive_lines(primitives.BY_NAME["_commit"].statements, "self", comments=True)
    assert "after = live[seat] = self._playable(seat)" in runtime
    assert any(line.strip() == "self._declared = NOT_BOUND" for line in runtime)


def test_a_declaration_takes_only_the_statements_printers_print() -> None:
    with pytest.raises(ValueError, match="not a simple statement"):
        primitives.s("assert seat >= 0")
    with pytest.raises(ValueError, match="not a simple statement"):
        primitives.s("del seat")


def test_generated_engines_hold_the_declared_bodies() -> None:
    text = (ROOT / "generated" / "no_limit.py").read_text()
    assert "# _commit, printed from its declaration (betspec/runtime/primitives.py): a call fewer" in text
    assert "betspec/runtime/engine.py" not in text
