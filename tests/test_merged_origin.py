"""A merged spec says where each of its values came from (Merged.origin), the public way the
checker and the diagnostics find the file and pointer a value was written at."""

from __future__ import annotations

from betspec.frontend import loader
from tests.conftest import SPEC_DIR


def test_a_value_of_a_base_is_found_in_the_base() -> None:
    merged, diagnostics = loader.load(str(SPEC_DIR / "pot_limit.json"))
    assert merged is not None, diagnostics
    doc, pointer = merged.origin("/rules/FOLD/text")
    assert doc.path.endswith("betting_round.json") and pointer == "/rules/FOLD/text"
    own, _ = merged.origin("/name")
    assert own.path.endswith("pot_limit.json")
    assert merged.at("/rules/FOLD/text").path.endswith("betting_round.json")
