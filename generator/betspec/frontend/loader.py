"""Reading a spec file and the specs it extends into one merged document with positions.

``extends`` names a spec in the same folder, or else one shipped with betspec (``no_limit.json``
and the others of ``spec/``), so that a spec written anywhere can build on them; a list of specs
is merged in its order (a structure and a shared base: ``["no_limit.json", "draw.json"]``). Sections that
are tables (rules, options, variables, primitives, quantities, states, events, inputs, ...) merge
entry by entry, the extending spec winning; in the lists (transitions, checks) the base's entries
come first, then the extending spec's; scalars and ``streets`` (the betting rounds, in order) are
replaced whole. Every merged value remembers the file
and pointer it came from, so diagnostics point at the right file.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Any

from betspec import packaged
from betspec.diagnostics import Diagnostic, DiagnosticCode, Position, did_you_mean
from betspec.frontend import characters, jsonpos, schema
from betspec.frontend.jsonpos import Located, join_pointer

TABLES = (
    "rules",
    "options",
    "variables",
    "primitives",
    "quantities",
    "states",
    "events",
    "procedure_rules",
    "procedures",
    "inputs",
    "deal_inputs",
    "roles",
    "forced_bets",
    "street_values",
)
#: Sections that are lists: the base's entries come first, then the extending spec's.
LISTS = ("transitions", "checks")
NOT_INHERITED = ("abstract", "extends", "$schema", "remove")
#: What a transition or check to remove is matched on (every field given must be equal).
_MATCHED = {"transitions": ("event", "source", "dest", "rule"), "checks": ("rule", "message")}
MAX_CHAIN = 16
MAX_BYTES = jsonpos.MAX_BYTES


@dataclass
class Merged:
    """A spec with its bases folded in, and where each part of it was written."""

    path: str
    value: dict[str, Any]
    files: list[str]
    origins: dict[str, tuple[Located, str]] = field(default_factory=dict)
    #: Names whose entries had schema errors and were left out; not reported again as unknown.
    broken: set[str] = field(default_factory=set)

    def origin(self, pointer: str) -> tuple[Located, str]:
        """Where the value at ``pointer`` of the merged spec came from: the file it was written in
        (a spec or one it extends) and its pointer there."""
        probe = pointer
        while True:
            if probe in self.origins:
                doc, original = self.origins[probe]
                return doc, original + pointer[len(probe) :]
            if not probe:
                raise KeyError(pointer)
            probe = probe.rsplit("/", 1)[0]

    def at(self, pointer: str) -> Position:
        doc, original = self.origin(pointer)
        return doc.at(original)

    def key_at(self, pointer: str) -> Position:
        doc, original = self.origin(pointer)
        return doc.key_at(original)

    def diag(self, pointer: str, code: DiagnosticCode, message: str, *, key: bool = False) -> Diagnostic:
        position = self.key_at(pointer) if key else self.at(pointer)
        return Diagnostic(position, self.origin(pointer)[1], code, message)

    @property
    def hash(self) -> str:
        canonical = json.dumps(self.value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return hashlib.sha256(canonical.encode("ascii")).hexdigest()


def prune(doc: Located, diagnostics: list[Diagnostic]) -> set[str]:
    """Remove the entries schema errors point into, so that the rest can still be checked.

    Returns the names removed: meaning checks stay silent about them instead of reporting
    every use of a broken entry as unknown.
    """
    broken: set[str] = set()
    removals: set[tuple[str, ...]] = set()
    for diagnostic in diagnostics:
        if diagnostic.code != "schema":
            continue
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in diagnostic.pointer.split("/")[1:]]
        if len(tokens) >= 2 and (tokens[0] in TABLES or tokens[0] in LISTS):
            removals.add((tokens[0], tokens[1]))
        elif tokens:
            removals.add((tokens[0],))
    value = doc.value
    for removal in sorted(removals):
        section = value.get(removal[0])
        if len(removal) == 1:
            value.pop(removal[0], None)
            broken.add(removal[0])
        elif isinstance(section, dict):
            section.pop(removal[1], None)
            broken.add(removal[1])
        elif isinstance(section, list) and removal[1].isdigit() and int(removal[1]) < len(section):
            section[int(removal[1])] = None
    for section in LISTS:
        if isinstance(value.get(section), list):
            value[section] = [entry for entry in value[section] if entry is not None]
    return broken


def read(path: str) -> tuple[Located | None, list[Diagnostic]]:
    """One file, parsed and checked against the spec schema on its own (at most
    :data:`MAX_BYTES` of a regular file are read: see :func:`jsonpos.read_text`)."""
    doc, diagnostics = jsonpos.load(path)
    if doc is None:
        return None, diagnostics
    if not isinstance(doc.value, dict):
        return None, [*diagnostics, Diagnostic(doc.at(""), "", DiagnosticCode.SCHEMA, "a spec is a JSON object")]
    diagnostics += schema.check(doc, schema.SPEC_SCHEMA)
    diagnostics += characters.check(doc)
    return doc, diagnostics


@dataclass
class _Loaded:
    """A file's chain, computed once per load however many specs extend it: its bases root
    first, then itself; and how many specs extend one another below it (its height)."""

    chain: list[Located]
    height: int


def load(path: str) -> tuple[Merged | None, list[Diagnostic]]:
    """The spec at ``path`` merged with its bases (entries with schema errors left out).

    None when a file cannot be used at all (unreadable, not JSON, not an object, bad extends).
    Each file is read, parsed and checked once, however many of the specs extend it.
    """
    diagnostics: list[Diagnostic] = []
    broken: set[str] = set()
    chain = _chain(path, None, [], diagnostics, broken, {})
    if chain is None:
        return None, diagnostics
    merged = merge(path, chain.chain, diagnostics)
    merged.broken = broken
    return merged, diagnostics


def _chain(
    current: str,
    referrer: tuple[Located, str] | None,
    stack: list[str],
    diagnostics: list[Diagnostic],
    broken: set[str],
    loaded: dict[str, _Loaded],
) -> _Loaded | None:
    """The spec at ``current`` after the specs it extends, root bases first: ``extends`` names one
    spec or a list of them, merged in order (a spec reached twice is merged once, first).
    ``loaded``: the chains found so far in this load, by real path."""
    if referrer is not None and not os.path.exists(current):
        where, pointer = referrer
        base = os.path.basename(current)
        shipped = packaged.specs() / base
        if not shipped.is_file():
            here = [n for n in os.listdir(os.path.dirname(current) or ".") if n.endswith(".json")]
            names = {*here, *(p.name for p in packaged.specs().glob("*.json"))}
            message = f"extends {base!r}: no such spec here or shipped with betspec{did_you_mean(base, names)}"
            diagnostics.append(Diagnostic(where.at(pointer), pointer, DiagnosticCode.EXTENDS, message))
            return None
        current = str(shipped)
    real = os.path.realpath(current)
    known = loaded.get(real)
    if known is not None and len(stack) + known.height < MAX_CHAIN:
        return known  # a chain above the limit is walked again, to say where it is too long
    if (real in stack or len(stack) >= MAX_CHAIN) and referrer is not None:
        where, pointer = referrer
        cycle = " -> ".join(os.path.basename(p) for p in [*stack, real])
        too_long = f"more than {MAX_CHAIN} specs extend one another"
        message = f"extends makes a cycle: {cycle}{_cycle_hint(stack, real)}" if real in stack else too_long
        diagnostics.append(Diagnostic(where.at(pointer), pointer, DiagnosticCode.EXTENDS, message))
        return None
    doc, found = read(current)
    diagnostics += found
    if doc is None:
        return None
    broken |= prune(doc, found)
    bases = doc.value.get("extends")
    bases_named: list[str] = [bases] if isinstance(bases, str) else list(bases) if isinstance(bases, list) else []
    out: list[Located] = []
    merged_already: set[str] = set()
    height = 0
    for index, base in enumerate(bases_named):
        pointer = "/extends" if isinstance(bases, str) else f"/extends/{index}"
        named = os.path.join(os.path.dirname(current), base)
        sub = _chain(named, (doc, pointer), [*stack, real], diagnostics, broken, loaded)
        if sub is None:
            return None
        height = max(height, sub.height + 1)
        for base_doc in sub.chain:
            base_real = os.path.realpath(base_doc.path)
            if base_real not in merged_already:
                merged_already.add(base_real)
                out.append(base_doc)
    out.append(doc)
    loaded[real] = _Loaded(out, height)
    return loaded[real]


def _cycle_hint(stack: list[str], real: str) -> str:
    """How to break a cycle of ``extends``: a spec that names itself where it meant the shipped
    spec of its name, or which link to cut."""
    name = os.path.basename(real)
    if stack[-1] == real and (packaged.specs() / name).is_file():
        stem = os.path.splitext(name)[0]
        return (
            f": {name} names this file itself, not the shipped {name} (a spec beside it of that name hides the "
            f'shipped one): rename this spec, e.g. house_{stem}.json with "name": "house_{stem}"'
        )
    last = os.path.basename(stack[-1])
    return (
        f": a spec cannot be its own base; take {name} out of the 'extends' of {last} (or the other way round), "
        "and let the chain end at a spec that extends nothing (every shipped structure ends at an abstract base)"
    )


def merge(path: str, chain: list[Located], diagnostics: list[Diagnostic] | None = None) -> Merged:
    """Fold ``chain`` (root base first) into one document; each spec's ``remove`` takes entries of
    the specs it extends out before its own are merged (a removal that names nothing is reported)."""
    merged = Merged(path, {}, [doc.path for doc in reversed(chain)])
    value = merged.value
    for depth, doc in enumerate(chain):
        last = depth == len(chain) - 1
        removals = doc.value.get("remove")
        if isinstance(removals, dict):
            found = _remove(value, doc, removals)
            if diagnostics is not None:
                diagnostics += found
        for key, item in doc.value.items():
            if key in NOT_INHERITED and not last:
                continue
            pointer = join_pointer("", key)
            if key in TABLES:
                table = value.setdefault(key, {})
                merged.origins.setdefault(pointer, (doc, pointer))
                for name, entry in item.items():
                    table[name] = entry
                    child = join_pointer(pointer, name)
                    merged.origins[child] = (doc, child)
            elif key in LISTS:
                items = value.setdefault(key, [])
                merged.origins.setdefault(pointer, (doc, pointer))
                for index, entry in enumerate(item):
                    merged.origins[join_pointer(pointer, len(items))] = (doc, join_pointer(pointer, index))
                    items.append(entry)
            else:
                value[key] = item
                merged.origins[pointer] = (doc, pointer)
    merged.origins.setdefault("", (chain[-1], ""))
    return merged


def _remove(value: dict[str, Any], doc: Located, removals: dict[str, Any]) -> list[Diagnostic]:
    """Take out of ``value`` (the bases merged so far) what ``doc``'s ``remove`` names: table
    entries by name, transitions and checks by their fields. A removed state takes the
    transitions from and to it. Each removal that names nothing is a positioned diagnostic."""
    found: list[Diagnostic] = []
    removed_states: set[str] = set()
    for section, names in removals.items():
        if section in _MATCHED:
            continue
        table = value.get(section)
        table = table if isinstance(table, dict) else {}
        for index, name in enumerate(names):
            pointer = f"/remove/{section}/{index}"
            if name not in table:
                hint = did_you_mean(name, table)
                message = f"nothing to remove: the specs this one extends have no {section} entry {name!r}{hint}"
                found.append(Diagnostic(doc.at(pointer), pointer, DiagnosticCode.REMOVE, message))
                continue
            del table[name]
            if section == "states":
                removed_states.add(name)
    for section, fields in _MATCHED.items():
        entries = value.get(section)
        entries = entries if isinstance(entries, list) else []
        for index, wanted in enumerate(removals.get(section, [])):
            pointer = f"/remove/{section}/{index}"
            hit = False
            kept = []
            for entry in entries:
                if not _matches(entry, wanted, fields):
                    kept.append(entry)
                    continue
                hit = True
                sources = entry.get("source")
                if "source" in wanted and isinstance(sources, list) and len(sources) > 1:
                    # One source of a transition written for several: the others keep it.
                    kept.append({**entry, "source": [s for s in sources if s != wanted["source"]]})
            entries[:] = kept
            if not hit:
                shown = ", ".join(f"{key} {wanted[key]!r}" for key in fields if key in wanted)
                message = f"nothing to remove: the specs this one extends have no {section[:-1]} with {shown}"
                found.append(Diagnostic(doc.at(pointer), pointer, DiagnosticCode.REMOVE, message))
    if removed_states and isinstance(value.get("transitions"), list):
        value["transitions"] = [
            entry
            for entry in value["transitions"]
            if entry.get("dest") not in removed_states
            and not set(entry["source"] if isinstance(entry.get("source"), list) else [entry.get("source")])
            <= removed_states
        ]
        value["transitions"] = [
            {**entry, "source": [s for s in entry["source"] if s not in removed_states]}
            if isinstance(entry.get("source"), list)
            else entry
            for entry in value["transitions"]
        ]
    return found


def _matches(entry: Any, wanted: dict[str, Any], fields: tuple[str, ...]) -> bool:
    if not isinstance(entry, dict):
        return False
    for key in fields:
        if key not in wanted:
            continue
        have = entry.get(key)
        if key == "source" and isinstance(have, list):
            if wanted[key] not in have:
                return False
        elif have != wanted[key]:
            return False
    return True
