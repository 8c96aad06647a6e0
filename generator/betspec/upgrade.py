"""``betspec upgrade``: a spec or case written for an older language version, rewritten for the
newest by the upgrade rules of ``language.json``.

The rules are data; this module has the few mechanisms they name (``op``):

- ``member``: in the objects at a pointer pattern, a key with a given value written as other
  members (a forced bet's ``acts_last: true`` as ``order: "starts_after"``);
- ``option``: an option renamed (its value negated where its meaning was reversed) or gone, in a
  spec's option declarations and ``remove.options``, in a case's ``options``, and as a word of
  its expressions;
- ``words``: patterns in a spec's expressions rewritten, and what is left of an old name reported;
- ``own_action``: an action of the spec's own (its own or a base's) whose name the engine took
  for its own use renamed, where the action is declared, amended, removed and taken (a
  transition's ``event``; a case's ``act`` and the ``legal`` actions it expects).

Edits are made in the file's own text, at the positions the front end's parser records, so that
an author's layout and every line the rules do not touch stay as written. What no rule can
rewrite is reported, not guessed.
"""

from __future__ import annotations

import bisect
import difflib
import json
import os
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from betspec import language, packaged
from betspec.diagnostics import Diagnostic, DiagnosticCode, Position
from betspec.frontend import jsonpos
from betspec.frontend.jsonpos import Located, join_pointer

_scanstring = vars(json.decoder)["scanstring"]
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class Change:
    """One rewrite: where, by which rule, what."""

    position: Position
    rule: str
    what: str

    def __str__(self) -> str:
        return f"{self.position}: {self.what} [{self.rule}]"


@dataclass(frozen=True)
class Upgraded:
    """A file and what the upgrade makes of it; ``left``: what no rule rewrites, for the author."""

    path: str
    before: str
    after: str
    version: language.Version | None
    changes: tuple[Change, ...]
    left: tuple[Diagnostic, ...]

    @property
    def changed(self) -> bool:
        return self.after != self.before

    def diff(self) -> str:
        return "".join(
            difflib.unified_diff(
                self.before.splitlines(keepends=True),
                self.after.splitlines(keepends=True),
                fromfile=self.path,
                tofile=f"{self.path} (upgraded)",
            )
        )


@dataclass(frozen=True)
class _Edit:
    start: int
    end: int
    text: str


@cache
def _not_expressions() -> frozenset[str]:
    """The keys whose strings are prose or names (the schema's ``$defs/text`` and ``$defs/name``),
    not expressions: no upgrade rewrites them."""
    schema = json.loads((packaged.schemas() / "spec.schema.json").read_text(encoding="utf-8"))
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in (node.get("properties") or {}).items():
                if isinstance(value, dict) and value.get("$ref") in ("#/$defs/text", "#/$defs/name"):
                    found.add(key)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return frozenset(found)


class _File:
    """A parsed file's text and where each value and key of it starts and ends."""

    def __init__(self, doc: Located, text: str) -> None:
        self.doc, self.text = doc, text
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.edits: list[_Edit] = []
        #: Expressions rewritten, by pointer: several rules may rewrite one, each in turn.
        self.rewritten: dict[str, str] = {}
        self.changes: list[Change] = []
        self.left: list[Diagnostic] = []

    def offset(self, position: Position) -> int:
        return self.line_starts[position.line - 1] + position.column - 1

    def position(self, offset: int) -> Position:
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return Position(self.doc.path, line + 1, offset - self.line_starts[line] + 1)

    def value_span(self, pointer: str) -> tuple[int, int]:
        start = self.offset(self.doc.values[pointer])
        if self.text[start] == '"':
            return start, _scanstring(self.text, start + 1)[1]
        return start, _DECODER.raw_decode(self.text, start)[1]

    def member_span(self, pointer: str) -> tuple[int, int]:
        """From an object member's key to the end of its value."""
        return self.offset(self.doc.keys[pointer]), self.value_span(pointer)[1]

    def key_span(self, pointer: str) -> tuple[int, int]:
        start = self.offset(self.doc.keys[pointer])
        return start, _scanstring(self.text, start + 1)[1]

    def edit(self, span: tuple[int, int], text: str, rule: str, what: str) -> None:
        self.edits.append(_Edit(span[0], span[1], text))
        self.changes.append(Change(self.position(span[0]), rule, what))

    def delete(self, span: tuple[int, int], rule: str, what: str) -> None:
        """Take a member or an item out, with the comma that joins it to its neighbours."""
        start, end = span
        after = re.compile(r"\s*,\s*").match(self.text, end)
        if after is not None:
            end = after.end()
        else:
            before = re.compile(r",\s*$").search(self.text, 0, start)
            if before is not None:
                start = before.start()
        self.edit((start, end), "", rule, what)

    def report(self, pointer: str, rule: str, message: str) -> None:
        self.left.append(
            Diagnostic(self.doc.at(pointer), pointer, DiagnosticCode.LANGUAGE, f"{message} [upgrade rule {rule}]")
        )

    def result(self) -> str:
        edits = [
            *self.edits,
            *(_Edit(*self.value_span(p), json.dumps(new, ensure_ascii=False)) for p, new in self.rewritten.items()),
        ]
        text: list[str] = []
        last = 0
        for edit in sorted(edits, key=lambda e: (e.start, e.end)):
            # Only deletions meet (two neighbours taken out, each with the comma between them).
            start = max(edit.start, last)
            text += [self.text[last:start], edit.text]
            last = max(edit.end, last)
        return "".join([*text, self.text[last:]])


def _walk(value: Any, pointer: str = "") -> list[tuple[str, Any]]:
    """Every value of a document with its pointer, parents before children."""
    out = [(pointer, value)]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _walk(item, join_pointer(pointer, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _walk(item, join_pointer(pointer, index))
    return out


def _matches(pattern: str, pointer: str) -> bool:
    wanted, parts = pattern.split("/"), pointer.split("/")
    return len(wanted) == len(parts) and all(w in ("*", p) for w, p in zip(wanted, parts, strict=True))


def _expressions(doc: Located) -> list[tuple[str, str]]:
    """A spec's strings that are expressions or effects (not prose or names, not its rules' texts,
    not what it removes)."""
    skipped = _not_expressions()
    out = []
    for pointer, value in _walk(doc.value):
        if (
            not isinstance(value, str)
            or pointer.startswith(("/rules/", "/remove/"))
            or pointer in ("/$schema", "/spec_version")
        ):
            continue
        key = pointer.rsplit("/", 1)[-1]
        if key in skipped or key.startswith("_"):
            continue
        out.append((pointer, value))
    return out


def _words(file: _File, rule: dict[str, Any], words: list[dict[str, str]]) -> None:
    """Rewrite a rule's patterns in the spec's expressions, and report what is left of the old name."""
    for pointer, written in _expressions(file.doc):
        value = file.rewritten.get(pointer, written)
        new = value
        for word in words:
            new = re.sub(word["pattern"], word["write"], new)
        if new != value:
            file.rewritten[pointer] = new
            file.changes.append(Change(file.doc.at(pointer), rule["id"], f"{value!r} -> {new!r}"))
        if "left" in rule and re.search(rule["left"], new):
            file.report(pointer, rule["id"], rule["left_message"])


def _member(file: _File, rule: dict[str, Any]) -> None:
    for pointer, value in _walk(file.doc.value):
        if not (isinstance(value, dict) and rule["key"] in value and _matches(rule["at"], pointer)):
            continue
        at = join_pointer(pointer, rule["key"])
        for case in rule["values"]:
            if value[rule["key"]] == case["when"] and type(value[rule["key"]]) is type(case["when"]):
                clash = [key for key in case["write"] if key in value]
                if clash:
                    file.report(at, rule["id"], f"{rule['change']}; it has {clash[0]} already: keep one")
                    break
                written = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in case["write"].items())
                file.edit(
                    file.member_span(at), written, rule["id"], f"{rule['key']}: {json.dumps(case['when'])} -> {written}"
                )
                break
        else:
            file.report(at, rule["id"], rule["change"])


def _negated(value: Any) -> Any:
    return (not value) if isinstance(value, bool) else value


def _option(file: _File, rule: dict[str, Any], is_case: bool) -> None:
    old, gone = rule["old"], rule.get("gone", False)
    options = file.doc.value.get("options")
    at = join_pointer("/options", old)
    if isinstance(options, dict) and old in options:
        value = options[old]
        if is_case:
            if gone and value in rule.get("keep", []):
                file.delete(file.member_span(at), rule["id"], f"option {old} taken away (its value is the rule now)")
            elif gone:
                file.report(at, rule["id"], rule["gone_message"])
            else:
                new = _negated(value) if rule.get("negate") else value
                written = f"{json.dumps(rule['new'])}: {json.dumps(new)}"
                file.edit(file.member_span(at), written, rule["id"], f"{old}: {json.dumps(value)} -> {written}")
        elif gone:
            file.report(at, rule["id"], rule["gone_message"])
        else:
            file.edit(file.key_span(at), json.dumps(rule["new"]), rule["id"], f"option {old} -> {rule['new']}")
            default = join_pointer(at, "default")
            if rule.get("negate") and isinstance(value, dict) and isinstance(value.get("default"), bool):
                new_default = json.dumps(not value["default"])
                file.edit(file.value_span(default), new_default, rule["id"], f"its default -> {new_default}")
    removed = (
        file.doc.value.get("remove", {}).get("options") if isinstance(file.doc.value.get("remove"), dict) else None
    )
    for index, name in enumerate(removed if isinstance(removed, list) else []):
        if name == old:
            pointer = f"/remove/options/{index}"
            if gone:
                file.delete(file.value_span(pointer), rule["id"], f"no option {old} to remove any more")
            else:
                file.edit(
                    file.value_span(pointer), json.dumps(rule["new"]), rule["id"], f"remove {old} -> {rule['new']}"
                )
    if not is_case and rule.get("words"):
        _words(file, rule, rule["words"])
    elif not is_case and gone:
        for pointer, value in _expressions(file.doc):
            if re.search(rf"\b{re.escape(old)}\b", value):
                file.report(pointer, rule["id"], rule["gone_message"])


#: Where a spec names an action of its own besides its key under ``events`` and ``amend/events``.
_SPEC_ACTION_NAMES = ("/transitions/*/event", "/remove/transitions/*/event", "/remove/events/*")


def _own_action(file: _File, rule: dict[str, Any], is_case: bool) -> None:
    """Rename the actions of a spec's own that take a name ``rule`` reserves (``names``): each
    becomes its name and ``suffix``. In a case, an action taken or expected by such a name can only
    be an action of the spec's own (no other action takes one), so it is renamed wherever it is."""
    reserved, suffix = set(rule["names"]), rule["suffix"]
    value = file.doc.value
    renamed = {name: name + suffix for name in reserved}
    if is_case:
        for pointer, item in _walk(value):
            if (
                isinstance(item, str)
                and item in reserved
                and (_matches("/steps/*/act", pointer) or re.search(r"/legal/\d+$", pointer))
            ):
                file.edit(file.value_span(pointer), json.dumps(renamed[item]), rule["id"], f"{item} -> {renamed[item]}")
        return
    own = _own_actions(file.doc.path, value, reserved, suffix)
    events = value.get("events") if isinstance(value.get("events"), dict) else {}
    for name in sorted(own):
        if renamed[name] in events:
            file.report(
                join_pointer("/events", name),
                rule["id"],
                f"{rule['change']}; {renamed[name]} is taken: rename it by hand",
            )
            own.discard(name)
    for name in sorted(own):
        for pointer in (join_pointer("/events", name), join_pointer("/amend/events", name)):
            if pointer in file.doc.keys:
                file.edit(
                    file.key_span(pointer), json.dumps(renamed[name]), rule["id"], f"action {name} -> {renamed[name]}"
                )
    for pointer, item in _walk(value):
        if isinstance(item, str) and item in own and any(_matches(at, pointer) for at in _SPEC_ACTION_NAMES):
            file.edit(file.value_span(pointer), json.dumps(renamed[item]), rule["id"], f"{item} -> {renamed[item]}")
    for pointer, written in _expressions(file.doc):  # (an action's name is not an expression)
        for name in sorted(own):
            if re.search(rf"\b{re.escape(name)}\b", written):
                file.report(pointer, rule["id"], f"{rule['change']}; this names {name}: rewrite it by hand")


def _own_actions(path: str, value: dict[str, Any], reserved: set[str], suffix: str) -> set[str]:
    """The reserved names the spec at ``path`` or a spec it extends gives an action of its own,
    found with its bases (the spec alone where its chain does not load); a base already upgraded
    (its action renamed) counts by the name it had, so that specs upgrade in any order."""
    from betspec.frontend import loader

    declared = value.get("events")
    events: dict[str, Any] = declared if isinstance(declared, dict) else {}
    if path and os.path.isfile(path):
        merged, _ = loader.load(path)
        if merged is not None and isinstance(merged.value.get("events"), dict):
            events = {**merged.value["events"], **events}
    own = {name for name, event in events.items() if isinstance(event, dict) and event.get("own") is True}
    return {name for name in reserved if name in own or name + suffix in own}


def upgrade_text(path: str, text: str) -> tuple[Upgraded | None, list[Diagnostic]]:
    """``text`` (a spec or a case, as read from ``path``) upgraded to the newest language."""
    doc, problems = jsonpos.parse(path, text)
    if doc is None:
        return None, problems
    if not isinstance(doc.value, dict):
        return None, [Diagnostic(doc.at(""), "", DiagnosticCode.SCHEMA, "a spec or case is a JSON object")]
    file = _File(doc, text)
    is_case = "structure" in doc.value and "steps" in doc.value
    version = language.parse(doc.value.get("spec_version")) if not is_case else None
    if not is_case and version is None:
        message = 'spec_version is not a version betspec knows the form of: write 1 or "MAJOR.MINOR" ("1.1")'
        return None, [Diagnostic(doc.at("/spec_version"), "/spec_version", DiagnosticCode.LANGUAGE, message)]
    if version is not None and not language.reads(version):
        message = (
            f"written for spec language {version}, newer than this betspec's {language.current()}: upgrade betspec"
        )
        return None, [Diagnostic(doc.at("/spec_version"), "/spec_version", DiagnosticCode.LANGUAGE, message)]
    for rule in language.upgrades():
        before = language.parse(rule["before"])
        if version is not None and before is not None and version >= before:
            continue
        if rule["op"] == "member" and not is_case:
            _member(file, rule)
        elif rule["op"] == "option":
            _option(file, rule, is_case)
        elif rule["op"] == "words" and not is_case:
            _words(file, rule, rule["words"])
        elif rule["op"] == "own_action":
            _own_action(file, rule, is_case)
    newest = language.current()
    if version is not None and version < newest:
        file.edit(
            file.value_span("/spec_version"), json.dumps(str(newest)), "version", f"spec_version {version} -> {newest}"
        )
    left = tuple(sorted(set(file.left)))
    changes = tuple(sorted(file.changes, key=lambda c: (c.position.line, c.position.column)))
    return Upgraded(path, text, file.result(), version, changes, left), []


def upgrade_file(path: str) -> tuple[Upgraded | None, list[Diagnostic]]:
    text, problems = jsonpos.read_text(path, "a spec or case")
    if text is None:
        return None, problems
    return upgrade_text(path, text)
