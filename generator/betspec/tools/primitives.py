"""Print the Python runtime's primitives from their declaration (betspec/runtime/primitives.py).

``python -m betspec.tools.primitives`` rewrites the marked region of betspec/runtime/engine.py
with the methods the declaration describes, the way the Python back end prints the same bodies
into engines; ``--check`` says whether the region is up to date (tests/test_primitives.py runs it).
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from betspec.backends.python import primitive_lines
from betspec.runtime import primitives
from betspec.runtime.mechanisms import BY_NAME, KINDS

ENGINE = Path(__file__).resolve().parent.parent / "runtime" / "engine.py"
BEGIN = "    # ---- the primitives: printed from betspec/runtime/primitives.py by `python -m betspec.tools.primitives`"
END = "    # ---- end of the primitives printed from betspec/runtime/primitives.py"
WIDTH = 100


def printed() -> list[str]:
    """The region's lines: each declared primitive as a method of Engine."""
    lines = [BEGIN, "    # (do not edit: change the declaration and run the command)", ""]
    for body in primitives.BODIES:
        mechanism = BY_NAME[body.name]
        params = "".join(f", {p.name}: {KINDS[p.kind].python}" for p in mechanism.params)
        lines.append(f"    def {body.name}(self{params}) -> {KINDS[mechanism.returns].python}:")
        doc = textwrap.wrap(body.doc, WIDTH - 14)
        if len(doc) == 1:
            lines.append(f'        """{doc[0]}"""')
        else:
            lines += [f'        """{doc[0]}', *(f"        {line}" for line in doc[1:]), '        """']
        lines += [f"        {line}" for line in primitive_lines(body.statements, "self", comments=True)]
        lines.append("")
    return [*lines, END]


def rewritten(text: str) -> str:
    """``text`` (engine.py) with its region printed anew."""
    lines = text.split("\n")
    begin, end = lines.index(BEGIN), lines.index(END)
    return "\n".join([*lines[:begin], *printed(), *lines[end + 1 :]])


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = ENGINE.read_text(encoding="utf-8")
    new = rewritten(text)
    if "--check" in args:
        if new != text:
            print(f"stale: {ENGINE} (run `python -m betspec.tools.primitives`)")
            return 1
        print(f"up to date: {ENGINE}")
        return 0
    if new != text:
        ENGINE.write_text(new, encoding="utf-8")
        print(f"wrote {ENGINE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
