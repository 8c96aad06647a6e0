"""Reading a spec file and the specs it extends into one merged document with positions.

``extends`` names a spec in the same folder, or else one shipped with betspec (``no_limit.json``
and the others of ``spec/``), so that a spec written anywhere can build on them; a list of specs
is merged in its order (a structure and a shared base: ``["no_limit.json", "draw.json"]``). Sections that
are tables (rules, options, variables, primitives, quantities, states, events, inputs, ...) merge
entry by entry, the extending spec winning; in the lists (transitions, checks) the base's entries
come first, then the extending spec's; scalars and ``streets`` (the betting rounds, in order) are
replaced whole. Every merged value remembers the file
and pointer it came from, so diagnostics point at the right file.

A spec changes its bases in place, without restating them, with ``amend`` (applied after its own
entries are merged): ``"amend": {"events": {"call": {"requires": {"add": [{..., "before": "CALL"}],
"replace": {"CALL": {...}}, "remove": ["OPEN-TO-ENTER"]}, "effects": {...}}}}`` adds, replaces or
removes one requirement or effect of an event. An anchor is a position from 0, or, for a
requirement, its ``id``, else its ``rule``, else its ``expr``; for an effect, the effect as written,
else the primitive it calls or the variable it sets; a name more than one entry answers to is
refused (give the position). Anchors name the list as the bases wrote it, before this amend. A
forced bet (posted in the table's order) moves with ``"amend": {"forced_bets": {NAME: {"before":
OTHER}}}``, and one a spec writes may carry ``"before"`` or ``"after"`` itself. What each spec of
the chain changed is in :attr:`Merged.changes` (``betspec show SPEC``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from betspec import language, packaged
from betspec.diagnostics import Diagnostic, DiagnosticCode, Position, did_you_mean
from betspec.frontend import characters, dependents, jsonpos, schema
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
    "payments",
)
#: Sections that are lists: the base's entries come first, then the extending spec's.
LISTS = ("transitions", "checks")
NOT_INHERITED = ("abstract", "extends", "$schema", "remove", "amend")
#: How the next hand follows: merged part by part, its inputs entry by entry.
NEXT_HAND = "next_hand"
#: The cards the game deals: merged part by part (its deals replaced whole); a spec that
#: replaces the streets without a game of its own has none (its bases' dealt other streets).
GAME = "game"
#: The house's rake: merged part by part (its jackpot replaced whole).
RAKE = "rake"
#: Where a forced bet or an amended entry goes: before or after another.
_PLACED = ("before", "after")
#: What names a spec rather than saying anything about its rules: not listed as a change.
_LABELS = ("spec_version", "name", "title", "description")
_EFFECT_NAME = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*[(=]")
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
    #: What each spec of the chain changed of the ones before it, a line each ("house.json: ...").
    changes: list[str] = field(default_factory=list)
    #: Entries of the bases that read what a spec removed, reported at that spec's ``remove``:
    #: the checker says nothing more of them.
    silenced: set[str] = field(default_factory=set)

    def is_silenced(self, pointer: str) -> bool:
        """Whether ``pointer`` is in an entry already reported at the ``remove`` that broke it."""
        return any(pointer == entry or pointer.startswith(entry + "/") for entry in self.silenced)

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

    def attributed(self, diagnostic: Diagnostic) -> Diagnostic:
        """``diagnostic`` where its author can act on it. A spec of the author's (not one betspec
        ships) whose bases fail in betspec's own files is told so at its own line: at its
        declaration of a name the failing base entry reads (the change that broke it), naming the
        entry, its file and line; else at its ``extends``. Any other diagnostic is returned as it is."""
        shipped = packaged.specs().resolve()
        failing = Path(diagnostic.position.path).resolve()
        if failing.parent != shipped or Path(self.path).resolve().parent == shipped:
            return diagnostic
        entry = dependents.entry_pointer(diagnostic.pointer)
        where = f"{failing.name} (line {diagnostic.position.line})"
        reads: set[str] = set()
        if _exists(self.value, entry) and self.origin(entry)[1] == entry:
            reads = dependents.names_in(_at(self.value, entry))
        for name, pointer in sorted(self._authored(shipped).items()):
            if name in reads:
                doc, original = self.origin(pointer)
                kind = dependents.Dependent(pointer, name).kind
                tokens = entry.split("/")
                # An entry of a table (``/quantities/x``), or a key of the spec itself (``/initial``).
                described = (
                    f"{dependents.Dependent(entry, name).kind} {tokens[2]!r}" if len(tokens) > 2 else repr(tokens[1])
                )
                message = f"{kind} {name!r} as declared here breaks {described} of {where}: {diagnostic.message}"
                return Diagnostic(doc.key_at(original), original, diagnostic.code, message)
        top, _ = self.origins[""]
        message = (
            f"{where}: {diagnostic.pointer or '/'}: {diagnostic.message} "
            "(a spec this one extends fails with what this spec changes)"
        )
        pointer = "/extends" if "extends" in top.value else ""
        return Diagnostic(top.at(pointer), pointer, diagnostic.code, message)

    def _authored(self, shipped: Path) -> dict[str, str]:
        """The names entries of the author's specs (not betspec's) declare, with each entry's
        pointer (an input's items, the input's)."""
        found: dict[str, str] = {}
        for section in dependents.NAMING:
            table = self.value.get(section)
            for name, entry in (table if isinstance(table, dict) else {}).items():
                pointer = join_pointer(f"/{section}", name)
                doc, _ = self.origin(pointer)
                if Path(doc.path).resolve().parent != shipped:
                    for defined in dependents.defined(section, name, entry):
                        found.setdefault(defined, pointer)
        return found

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
    newer = _newer_language(doc)
    if newer is not None:
        # Read by an older language, a newer spec's every new word would be a diagnostic: one says why.
        return None, [*diagnostics, newer]
    diagnostics += schema.check(doc, schema.SPEC_SCHEMA)
    diagnostics += characters.check(doc)
    return doc, diagnostics


def _newer_language(doc: Located) -> Diagnostic | None:
    """The diagnostic of a spec written for a language version this betspec does not read."""
    version = language.parse(doc.value.get("spec_version"))
    if version is None or language.reads(version):
        return None  # an unreadable spec_version is the schema's to report
    message = (
        f"written for spec language {version}; this betspec reads {language.current()} "
        f"and the versions before it: upgrade betspec (pip install -U betspec), docs/language.md"
    )
    return Diagnostic(doc.at("/spec_version"), "/spec_version", DiagnosticCode.LANGUAGE, message)


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
    found: list[Diagnostic] = []
    amended: set[str] = set()  # entries whose parts have origins of their own
    for depth, doc in enumerate(chain):
        last = depth == len(chain) - 1
        label = os.path.basename(doc.path)
        changes = merged.changes if depth else []
        removals = doc.value.get("remove")
        pending: list[tuple[dependents.Dependent, str]] = []
        if isinstance(removals, dict):
            found += _remove(value, doc, removals, changes, pending)
        placed: list[tuple[str, dict[str, Any]]] = []
        for key, item in doc.value.items():
            if key in NOT_INHERITED and not last:
                continue
            pointer = join_pointer("", key)
            if key in TABLES:
                table = value.setdefault(key, {})
                merged.origins.setdefault(pointer, (doc, pointer))
                for name, entry in item.items():
                    if key == "forced_bets" and isinstance(entry, dict) and any(k in entry for k in _PLACED):
                        placed.append((name, entry))
                        entry = {k: v for k, v in entry.items() if k not in _PLACED}
                    changes.append(f"{label}: {'replaces' if name in table else 'adds'} {key} {name!r}")
                    table[name] = entry
                    child = join_pointer(pointer, name)
                    if child in amended:
                        amended.discard(child)
                        for stale in [p for p in merged.origins if p.startswith(child + "/")]:
                            del merged.origins[stale]
                    merged.origins[child] = (doc, child)
            elif key == NEXT_HAND and isinstance(item, dict) and isinstance(value.get(key), dict):
                _merge_next_hand(merged, doc, item, changes)
            elif key in (GAME, RAKE) and isinstance(item, dict) and isinstance(value.get(key), dict):
                _merge_parts(merged, doc, key, item, changes)
            elif key in LISTS:
                items = value.setdefault(key, [])
                merged.origins.setdefault(pointer, (doc, pointer))
                for index, entry in enumerate(item):
                    merged.origins[join_pointer(pointer, len(items))] = (doc, join_pointer(pointer, index))
                    items.append(entry)
                if item:
                    changes.append(f"{label}: adds {len(item)} {key if len(item) > 1 else key[:-1]}")
            else:
                if key not in _LABELS and key not in NOT_INHERITED:
                    changes.append(f"{label}: {'replaces' if key in value else 'sets'} {key}")
                value[key] = item
                merged.origins[pointer] = (doc, pointer)
        if "streets" in doc.value and GAME not in doc.value and value.get(GAME) is not None:
            changes.append(f"{label}: drops the game of its bases (it deals other streets)")
            del value[GAME]
            for stale in [p for p in merged.origins if p == f"/{GAME}" or p.startswith(f"/{GAME}/")]:
                del merged.origins[stale]
        for name, entry in placed:
            found += _place_written(value.get("forced_bets", {}), doc, name, entry, changes)
        amend = doc.value.get("amend")
        if isinstance(amend, dict):
            found += _amend(merged, doc, amend, changes, amended)
        found += _unreplaced(merged, doc, pending)
    merged.origins.setdefault("", (chain[-1], ""))
    if diagnostics is not None:
        diagnostics += found
    return merged


def _merge_next_hand(merged: Merged, doc: Located, item: dict[str, Any], changes: list[str]) -> None:
    """``next_hand`` of an extending spec over its bases': the button replaced if it gives one,
    the inputs set entry by entry (the bases' others kept: a house that sets one more input does
    not drop the dead-button rule)."""
    target = merged.value[NEXT_HAND]
    label = os.path.basename(doc.path)
    # Each part and input keeps the origin it has before some are replaced.
    kept = [join_pointer(f"/{NEXT_HAND}", part) for part in target]
    inputs = target.get("inputs")
    kept += [join_pointer(f"/{NEXT_HAND}/inputs", name) for name in (inputs if isinstance(inputs, dict) else ())]
    for pointer in kept:
        merged.origins.setdefault(pointer, merged.origin(pointer))
    for part, given in item.items():
        pointer = join_pointer(f"/{NEXT_HAND}", part)
        if part == "inputs" and isinstance(given, dict) and isinstance(target.get(part), dict):
            inputs = target[part]
            merged.origins.setdefault(pointer, (doc, pointer))
            for name, expr in given.items():
                changes.append(f"{label}: {'replaces' if name in inputs else 'adds'} next_hand input {name!r}")
                inputs[name] = expr
                merged.origins[join_pointer(pointer, name)] = (doc, join_pointer(pointer, name))
            continue
        changes.append(f"{label}: replaces next_hand {part}")
        target[part] = given
        merged.origins[pointer] = (doc, pointer)


def _merge_parts(merged: Merged, doc: Located, key: str, item: dict[str, Any], changes: list[str]) -> None:
    """``game`` or ``rake`` of an extending spec over its bases': each part it gives replaced
    (razz gives its showdown and opening, and keeps seven-card stud's deck and deals; a house
    raises its bases' rake cap and keeps the rest)."""
    target = merged.value[key] = dict(merged.value[key])  # the base's own document stays as read
    label = os.path.basename(doc.path)
    for pointer in [join_pointer(f"/{key}", part) for part in target]:
        merged.origins.setdefault(pointer, merged.origin(pointer))
    for part, given in item.items():
        pointer = join_pointer(f"/{key}", part)
        changes.append(f"{label}: {'replaces' if part in target else 'sets'} {key} {part}")
        target[part] = given
        merged.origins[pointer] = (doc, pointer)


def _place_written(
    table: dict[str, Any], doc: Located, name: str, entry: dict[str, Any], changes: list[str]
) -> list[Diagnostic]:
    """Put the forced bet ``name``, written by ``doc`` with ``before`` or ``after``, there."""
    pointer = join_pointer("/forced_bets", name)
    given = [where for where in _PLACED if where in entry]
    if len(given) > 1:
        message = f"forced bet {name!r} gives both before and after: give one"
        return [
            Diagnostic(
                doc.at(join_pointer(pointer, "after")), join_pointer(pointer, "after"), DiagnosticCode.AMEND, message
            )
        ]
    where = given[0]
    return _move(table, doc, join_pointer(pointer, where), name, where, entry[where], changes)


def _move(
    table: dict[str, Any], doc: Located, pointer: str, name: str, where: str, anchor: Any, changes: list[str]
) -> list[Diagnostic]:
    """Move the forced bet ``name`` of ``table`` (posting order) just ``where`` the one ``anchor``."""
    if anchor == name or anchor not in table:
        others = [other for other in table if other != name]
        hint = did_you_mean(str(anchor), others)
        message = f"no forced bet {anchor!r} to post {name!r} {where}{hint} (forced bets: {', '.join(others)})"
        return [Diagnostic(doc.at(pointer), pointer, DiagnosticCode.AMEND, message)]
    entry = table.pop(name)
    order = list(table.items())
    at = [other for other, _ in order].index(anchor) + (where == "after")
    order.insert(at, (name, entry))
    table.clear()
    table.update(order)
    changes.append(
        f"{os.path.basename(doc.path)}: posts forced bet {name!r} {where} {anchor!r} (order: {', '.join(table)})"
    )
    return []


def _amend(
    merged: Merged, doc: Located, amend: dict[str, Any], changes: list[str], amended: set[str]
) -> list[Diagnostic]:
    """Apply ``doc``'s ``amend`` to the merged spec: requirements and effects of events added,
    replaced or removed by anchor; forced bets moved. Each problem a positioned diagnostic."""
    found: list[Diagnostic] = []
    value = merged.value
    label = os.path.basename(doc.path)
    forced = value.get("forced_bets")
    forced = forced if isinstance(forced, dict) else {}
    for name, where_to in amend.get("forced_bets", {}).items():
        pointer = join_pointer("/amend/forced_bets", name)
        if name not in forced:
            message = f"no forced bet {name!r} to move{did_you_mean(name, forced)}"
            found.append(Diagnostic(doc.key_at(pointer), pointer, DiagnosticCode.AMEND, message))
            continue
        for where, anchor in where_to.items():
            found += _move(forced, doc, join_pointer(pointer, where), name, where, anchor, changes)
    events = value.get("events")
    events = events if isinstance(events, dict) else {}
    for name, edits in amend.get("events", {}).items():
        pointer = join_pointer("/amend/events", name)
        event = events.get(name)
        if not isinstance(event, dict):
            message = f"no event {name!r} to amend{did_you_mean(name, events)}"
            found.append(Diagnostic(doc.key_at(pointer), pointer, DiagnosticCode.AMEND, message))
            continue
        at = join_pointer("/events", name)
        event = dict(event)
        for part, ops in edits.items():
            before = list(event.get(part, []))
            origins = [merged.origin(f"{at}/{part}/{index}") for index in range(len(before))]
            entries, problems = _edit(doc, f"{pointer}/{part}", name, part, before, origins, ops, changes)
            found += problems
            event[part] = [entry for _, entry in entries]
            for index in range(len(before)):
                merged.origins.pop(f"{at}/{part}/{index}", None)
            for index, (origin, _) in enumerate(entries):
                merged.origins[f"{at}/{part}/{index}"] = origin
            shown = ", ".join(_describe(part, entry) for _, entry in entries)
            changes.append(f"{label}: event {name!r} {part} now: {shown}")
        events[name] = event
        amended.add(at)
    return found


def _describe(part: str, entry: Any) -> str:
    """A requirement by its id or rule, an effect as written."""
    if part == "requires" and isinstance(entry, dict):
        return str(entry.get("id") or entry.get("rule"))
    return str(entry)


def _anchor(part: str, entries: list[Any], anchor: Any) -> tuple[int | None, str]:
    """The position in ``entries`` that ``anchor`` names, or None and why not."""
    noun = "requirement" if part == "requires" else "effect"
    if isinstance(anchor, int) or (isinstance(anchor, str) and anchor.isdigit()):
        index = int(anchor)
        if index < len(entries):
            return index, ""
        return None, f"no {noun} at position {index}: there are {len(entries)} (from 0)"
    names: list[str] = []
    hits: list[int] = []
    if part == "requires":
        for key in ("id", "rule", "expr"):
            values = [entry.get(key) if isinstance(entry, dict) else None for entry in entries]
            names += [v for v in values if isinstance(v, str)]
            hits = hits or [index for index, v in enumerate(values) if v == anchor]
    else:
        called = [_EFFECT_NAME.match(entry) if isinstance(entry, str) else None for entry in entries]
        names = [*(str(entry) for entry in entries), *(m.group(1) for m in called if m)]
        hits = [index for index, entry in enumerate(entries) if entry == anchor]
        hits = hits or [index for index, m in enumerate(called) if m and m.group(1) == anchor]
    if len(hits) == 1:
        return hits[0], ""
    if hits:
        where = ", ".join(str(index) for index in hits)
        return None, f"{len(hits)} {noun}s answer to {anchor!r} (positions {where}): give the position"
    return None, f"no {noun} is {anchor!r}{did_you_mean(str(anchor), names)}"


def _edit(
    doc: Located,
    pointer: str,
    event: str,
    part: str,
    before: list[Any],
    origins: list[tuple[Located, str]],
    ops: dict[str, Any],
    changes: list[str],
) -> tuple[list[tuple[tuple[Located, str], Any]], list[Diagnostic]]:
    """One list of an event (``requires`` or ``effects``) with ``ops`` applied, each entry with its
    origin; anchors name ``before`` (the list as the bases wrote it)."""
    found: list[Diagnostic] = []
    label = os.path.basename(doc.path)
    noun = "requirement" if part == "requires" else "effect"
    where_said = f"of event {event!r}"

    def resolve(anchor: Any, at: str) -> int | None:
        index, why = _anchor(part, before, anchor)
        if index is None:
            found.append(Diagnostic(doc.at(at), at, DiagnosticCode.AMEND, f"{why} {where_said}"))
        return index

    removed: set[int] = set()
    for index, anchor in enumerate(ops.get("remove", [])):
        hit = resolve(anchor, f"{pointer}/remove/{index}")
        if hit is not None:
            removed.add(hit)
            changes.append(f"{label}: event {event!r} {part}: removes {_describe(part, before[hit])}")
    replaced: dict[int, tuple[tuple[Located, str], Any]] = {}
    for anchor, new in ops.get("replace", {}).items():
        at = join_pointer(f"{pointer}/replace", anchor)
        hit = resolve(anchor, at)
        if hit is None:
            continue
        if hit in removed:
            message = f"{noun} {anchor!r} {where_said} is both removed and replaced: do one"
            found.append(Diagnostic(doc.at(at), at, DiagnosticCode.AMEND, message))
            continue
        replaced[hit] = ((doc, at), new)
        changes.append(f"{label}: event {event!r} {part}: replaces {_describe(part, before[hit])} (position {hit})")
    ahead: dict[int, list[tuple[tuple[Located, str], Any]]] = {}
    behind: dict[int, list[tuple[tuple[Located, str], Any]]] = {}
    at_end: list[tuple[tuple[Located, str], Any]] = []
    for index, add in enumerate(ops.get("add", [])):
        at = f"{pointer}/add/{index}"
        given = [where for where in _PLACED if where in add]
        if part == "requires":
            entry = {key: item for key, item in add.items() if key not in _PLACED}
            origin = (doc, at)
        else:
            entry = add["effect"]
            origin = (doc, f"{at}/effect")
        if len(given) > 1:
            message = f"{noun} {index} added to event {event!r} gives both before and after: give one"
            found.append(Diagnostic(doc.at(f"{at}/after"), f"{at}/after", DiagnosticCode.AMEND, message))
            continue
        if not given:
            at_end.append((origin, entry))
            changes.append(f"{label}: event {event!r} {part}: adds {_describe(part, entry)} last")
            continue
        hit = resolve(add[given[0]], f"{at}/{given[0]}")
        if hit is None:
            continue
        (ahead if given[0] == "before" else behind).setdefault(hit, []).append((origin, entry))
        shown = f"{given[0]} {_describe(part, before[hit])}"
        changes.append(f"{label}: event {event!r} {part}: adds {_describe(part, entry)} {shown}")
    out: list[tuple[tuple[Located, str], Any]] = []
    for index, written in enumerate(before):
        out += ahead.get(index, [])
        if index not in removed:
            out.append(replaced.get(index, (origins[index], written)))
        out += behind.get(index, [])
    return out + at_end, found


def _remove(
    value: dict[str, Any],
    doc: Located,
    removals: dict[str, Any],
    changes: list[str] | None = None,
    pending: list[tuple[dependents.Dependent, str]] | None = None,
) -> list[Diagnostic]:
    """Take out of ``value`` (the bases merged so far) what ``doc``'s ``remove`` names: table
    entries by name, transitions and checks by their fields. A removed state takes the
    transitions from and to it. Each removal that names nothing is a positioned diagnostic.

    What of the bases reads a removed name goes with it where it means nothing without it (a
    forced bet, a check, a role, an input next_hand sets: :mod:`dependents`); the other entries
    reading one are added to ``pending`` with the pointer of the removal that broke them, for the
    loader to report at it unless the spec replaces them."""
    # Long because each kind of removal (table entries, transitions, checks, states) is a few
    # lines on the same merged value, in the order removals must run; split, each part would
    # take the same five arguments.
    found: list[Diagnostic] = []
    removed_states: set[str] = set()
    label = os.path.basename(doc.path)
    gone: dict[str, str] = {}  # a name removed -> the pointer of its removal in ``doc``
    rules_gone: dict[str, str] = {}
    for section, names in removals.items():
        if section in _MATCHED:
            continue
        table = value.get(section)
        if section == NEXT_HAND:  # the inputs next_hand sets, by name
            table = table.get("inputs") if isinstance(table, dict) else None
        table = table if isinstance(table, dict) else {}
        for index, name in enumerate(names):
            pointer = f"/remove/{section}/{index}"
            if name not in table:
                hint = did_you_mean(name, table)
                message = f"nothing to remove: the specs this one extends have no {section} entry {name!r}{hint}"
                found.append(Diagnostic(doc.at(pointer), pointer, DiagnosticCode.REMOVE, message))
                continue
            if section in dependents.NAMING:
                for defined in dependents.defined(section, name, table[name]):
                    gone.setdefault(defined, pointer)
            elif section == "rules":
                rules_gone[name] = pointer
            del table[name]
            if changes is not None:
                changes.append(f"{label}: removes {section} {name!r}")
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
            if hit and changes is not None:
                shown = ", ".join(f"{key} {wanted[key]!r}" for key in fields if key in wanted)
                changes.append(f"{os.path.basename(doc.path)}: removes {section} with {shown}")
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
    if gone or rules_gone:
        _carry(value, label, gone, rules_gone, changes, pending)
    return found


def _carry(
    value: dict[str, Any],
    label: str,
    gone: dict[str, str],
    rules_gone: dict[str, str],
    changes: list[str] | None,
    pending: list[tuple[dependents.Dependent, str]] | None,
) -> None:
    """Remove what reads a removed name and means nothing without it, until nothing more does (a
    role removed so takes the forced bets on its seat); keep the other readers in ``pending``."""
    while True:
        found = dependents.dependents(value, set(gone), set(rules_gone))
        carried = [d for d in found if d.carried]
        for dependent in sorted(carried, key=_removal_order):
            cause = gone.get(dependent.reads) or rules_gone[dependent.reads]
            tokens = [token.replace("~1", "/").replace("~0", "~") for token in dependent.pointer.split("/")[1:]]
            if tokens[0] == "next_hand":
                inputs = value.get("next_hand", {}).get("inputs", {})
                inputs.pop(tokens[-1], None)
                what = f"next_hand's input {tokens[-1]!r}"
            elif tokens[0] == "checks":
                checks = value.get("checks", [])
                check = checks.pop(int(tokens[1]))
                what = f"check {check.get('rule', tokens[1])!r}" if isinstance(check, dict) else "a check"
            else:
                value.get(tokens[0], {}).pop(tokens[1], None)
                what = f"{dependent.kind} {tokens[1]!r}"
                if tokens[0] in dependents.NAMING:
                    gone.setdefault(tokens[1], cause)
            if changes is not None:
                changes.append(f"{label}: removes {what}, which reads {dependent.reads!r}, removed too")
        if not carried:
            if pending is not None:
                pending += [(d, gone.get(d.reads) or rules_gone[d.reads]) for d in found]
            return


def _removal_order(dependent: dependents.Dependent) -> tuple[str, int]:
    """Checks by falling index, so that removing one leaves the others' indexes right."""
    tokens = dependent.pointer.split("/")
    return (tokens[1], -int(tokens[2]) if tokens[1] == "checks" else 0)


def _unreplaced(merged: Merged, doc: Located, pending: list[tuple[dependents.Dependent, str]]) -> list[Diagnostic]:
    """The base entries reading what ``doc`` removed that ``doc`` did not replace, each reported
    at the removal (naming the entry, its file and line, and what to do) and silenced."""
    found: list[Diagnostic] = []
    for dependent, cause in pending:
        try:
            origin, _ = merged.origin(dependent.pointer)
        except KeyError:
            continue
        if origin is doc or not _exists(merged.value, dependent.pointer):
            continue
        where = merged.at(dependent.pointer)
        removal = dependents.Dependent("/" + "/".join(cause.split("/")[2:3]), "").kind
        removed = _at(doc.value, cause)
        what, fix = _describe_dependent(merged.value, dependent)
        message = (
            f"removing {removal} {removed!r} leaves {what} of "
            f"{os.path.basename(where.path)} (line {where.line}) reading {dependent.reads!r}: {fix}, "
            f"or keep {removed!r}"
        )
        found.append(Diagnostic(doc.at(cause), cause, DiagnosticCode.REMOVE, message))
        merged.silenced.add(dependent.pointer)
    return found


def _exists(value: Any, pointer: str) -> bool:
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return False
    return True


def _at(value: Any, pointer: str) -> Any:
    for token in pointer.split("/")[1:]:
        value = value[int(token)] if isinstance(value, list) else value[token.replace("~1", "/").replace("~0", "~")]
    return value


def _describe_dependent(value: dict[str, Any], dependent: dependents.Dependent) -> tuple[str, str]:
    """A dependent entry in words, and how the author replaces it."""
    tokens = [token.replace("~1", "/").replace("~0", "~") for token in dependent.pointer.split("/")[1:]]
    section = tokens[0]
    if section == "events" and len(tokens) >= 3:
        event = tokens[1]
        part = "a requirement" if tokens[2] == "requires" else "the effects"
        return f"{part} of event {event!r}", f'amend it ("amend": {{"events": {{"{event}": ...}}}})'
    if section == "transitions":
        entry = _at(value, dependent.pointer)
        keys = {k: entry[k] for k in ("event", "source", "dest") if isinstance(entry, dict) and k in entry}
        shown = ", ".join(f"{k} {v!r}" for k, v in keys.items())
        return f"the transition ({shown})", f'remove it too ("remove": {{"transitions": [{json.dumps(keys)}]}})'
    if section == "procedures":
        return f"ruling {tokens[2]} of procedure {tokens[1]!r}", f"give procedure {tokens[1]!r} of your own"
    if section == "next_hand":
        return "next_hand's button", "give next_hand a button of your own"
    kind, name = dependent.kind, tokens[1] if len(tokens) > 1 else section
    return f"{kind} {name!r}", f"define {kind} {name!r} in this spec, or remove it too"


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
