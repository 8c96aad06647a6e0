"""What in the specs a spec extends reads the names it removes.

A spec that removes an input, a role, an option, a quantity, a rule, ... from its bases must not
leave base entries reading it: those entries would fail in files the author does not own. When a
spec's ``remove`` is applied, every base entry still there is read for the names its expressions
use (and the rules it cites); those reading a removed name are its dependents. A forced bet, a
check, a role, a payment outside the pot or an input ``next_hand`` sets has no meaning without
what it reads: it goes with it (and what reads a removed role goes in turn). Any other dependent
(a quantity, an event's requirement or effect, a transition, a procedure, ``next_hand``'s
button, the rake's terms) is for the author to
replace: the loader reports it at the author's ``remove`` line unless the spec's own entries
replace it.

Where expressions are is read from the spec schema (each field whose schema is an expression or
a list of effects), never listed here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from betspec.frontend import schema
from betspec.frontend.jsonpos import join_pointer

#: The sections whose entries define names expressions read (an input also defines its items).
NAMING = ("inputs", "deal_inputs", "options", "variables", "quantities", "roles", "primitives", "street_values")
#: Sections whose entries go with a name they read: they mean nothing without it.
CARRIED = ("forced_bets", "checks", "roles", "payments")
#: The kinds of expression fields the schema defines (``$defs``).
_EXPRESSION_DEFS = ("#/$defs/expr", "#/$defs/effects")
_WILD = "*"


@cache
def expression_paths() -> tuple[tuple[str, ...], ...]:
    """Every path of the spec schema to an expression or a list of effects, ``*`` standing for
    any entry name or list index (``("quantities", "*", "expr")``), the ``amend`` section left
    out (amendments are applied before removals are judged)."""
    root = schema.document(schema.SPEC_SCHEMA)
    found: list[tuple[str, ...]] = []

    def walk(node: Any, path: tuple[str, ...]) -> None:
        if not isinstance(node, dict):
            return
        if node.get("$ref") in _EXPRESSION_DEFS:
            found.append(path)
            return
        for key, child in node.get("properties", {}).items():
            walk(child, (*path, key))
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], (*path, _WILD))
        if isinstance(node.get("items"), dict):
            walk(node["items"], (*path, _WILD))

    for section, child in root.get("properties", {}).items():
        if section not in ("amend", "remove"):
            walk(child, (section,))
    return tuple(found)


def _located(value: Any, path: tuple[str, ...], pointer: str = "") -> Iterator[tuple[str, Any]]:
    """The values at ``path`` in ``value``, each with its pointer."""
    if not path:
        yield pointer, value
        return
    head, rest = path[0], path[1:]
    if head == _WILD:
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, child in items:
            yield from _located(child, rest, join_pointer(pointer, key))
    elif isinstance(value, dict) and head in value:
        yield from _located(value[head], rest, join_pointer(pointer, head))


def names_read(text: Any) -> set[str]:
    """The names an expression or an effect reads (variables, functions and primitives alike);
    nothing for text that does not parse (the checker reports it)."""
    texts = text if isinstance(text, list) else [text]
    found: set[str] = set()
    for item in texts:
        if not isinstance(item, str):
            continue
        try:
            tree = ast.parse(item.strip(), mode="exec")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        found |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    return found


def names_in(entry: Any) -> set[str]:
    """The names every string of an entry reads, where it parses as an expression or an effect
    (its prose parses as none, or as names no spec declares)."""
    if isinstance(entry, dict):
        return set().union(*(names_in(child) for child in entry.values())) if entry else set()
    if isinstance(entry, list):
        return set().union(*(names_in(child) for child in entry)) if entry else set()
    return names_read(entry)


def defined(section: str, name: str, entry: Any) -> set[str]:
    """The names an entry of a naming section defines: its own, and an input's items."""
    names = {name}
    if section == "inputs" and isinstance(entry, dict) and isinstance(entry.get("items"), list):
        names |= {item for item in entry["items"] if isinstance(item, str)}
    return names


@dataclass(frozen=True)
class Dependent:
    """A base entry reading a removed name: where it is in the merged spec (the entry's pointer,
    ``/quantities/minimum_bet``) and what it reads that is gone."""

    pointer: str
    reads: str

    @property
    def section(self) -> str:
        return self.pointer.split("/")[1]

    @property
    def kind(self) -> str:
        """What the entry is, in a word: its section in the singular ("quantity", "forced bet")."""
        section = self.section
        singular = section[:-3] + "y" if section.endswith("ies") else section.removesuffix("s")
        return singular.replace("_", " ")

    @property
    def carried(self) -> bool:
        """It goes with what it reads: a forced bet, a check, a role, an input next_hand sets."""
        return self.section in CARRIED or self.pointer.startswith("/next_hand/inputs/")


def dependents(value: dict[str, Any], gone: set[str], rules: set[str]) -> list[Dependent]:
    """The entries of ``value`` (the bases merged so far) reading a name of ``gone`` or citing a
    rule of ``rules``, each once, in the order the schema lists their fields."""
    found: dict[str, Dependent] = {}
    for path in expression_paths():
        for pointer, text in _located(value, path):
            entry = entry_pointer(pointer)
            if entry in found:
                continue
            hit = sorted(names_read(text) & gone)
            if hit:
                found[entry] = Dependent(entry, hit[0])
    forced = value.get("forced_bets")
    for name, entry in (forced if isinstance(forced, dict) else {}).items():
        seats = entry.get("seats") if isinstance(entry, dict) else None  # a seats input's name
        pointer = join_pointer("/forced_bets", name)
        if isinstance(seats, str) and seats in gone and pointer not in found:
            found[pointer] = Dependent(pointer, seats)
    following = value.get("next_hand")
    inputs = following.get("inputs") if isinstance(following, dict) else None
    for name in inputs if isinstance(inputs, dict) else ():  # next_hand sets inputs by name
        pointer = join_pointer("/next_hand/inputs", name)
        if name in gone:
            found[pointer] = Dependent(pointer, name)
    if rules:
        for pointer, cited in _citations(value):
            entry = entry_pointer(pointer)
            if cited in rules and entry not in found:
                found[entry] = Dependent(entry, cited)
    return list(found.values())


def entry_pointer(pointer: str) -> str:
    """The entry a field belongs to: a table's entry (``/quantities/x``), a list's item
    (``/transitions/3``), next_hand's input (``/next_hand/inputs/x``) or button, a procedure's
    ruling (``/procedures/push/2``), an event's requirement or effects (``/events/bet/requires/1``)."""
    tokens = pointer.split("/")[1:]
    section = tokens[0] if tokens else ""
    if section == "next_hand":
        depth = 3 if len(tokens) > 2 and tokens[1] == "inputs" else 2
    elif section in ("procedures", "events"):
        depth = min(len(tokens), 4 if len(tokens) > 3 and tokens[2] == "requires" else 3)
    else:
        depth = 2
    return "/" + "/".join(tokens[:depth])


def _citations(value: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every ``"rule"`` a base entry cites, with its pointer."""

    def walk(node: Any, pointer: str) -> Iterator[tuple[str, str]]:
        if isinstance(node, dict):
            for key, child in node.items():
                here = join_pointer(pointer, key)
                if key == "rule" and isinstance(child, str):
                    yield here, child
                else:
                    yield from walk(child, here)
        elif isinstance(node, list):
            for index, child in enumerate(node):
                yield from walk(child, join_pointer(pointer, index))

    for section, child in value.items():
        if section not in ("rules", "remove", "amend"):
            yield from walk(child, f"/{section}")
