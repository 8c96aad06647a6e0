"""Meaning checks: from a merged, schema-valid document to the intermediate model.

Everything the schema cannot say is checked here, and every problem is reported (the checker
goes on after an error wherever it can): unknown or mistyped names in expressions, with a "did
you mean"; rules cited but not declared; names declared twice; variables and primitives the
runtime does not provide; quantities that depend on themselves; abstract quantities left
undefined; unreachable states; guards that can never hold; duplicate transitions.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from typing import Any

from betspec import vocabulary
from betspec.diagnostics import Diagnostic, DiagnosticCode, did_you_mean
from betspec.frontend import expr as ex
from betspec.frontend import rule_text
from betspec.frontend.expr import ExprError, Name
from betspec.frontend.loader import Merged
from betspec.model import (
    Assignment,
    Call,
    Check,
    Deal,
    Effect,
    Event,
    Expr,
    ForcedBet,
    Game,
    Input,
    NextHand,
    Option,
    Payment,
    PushRuling,
    Quantity,
    Rake,
    Requirement,
    Role,
    Rule,
    Spec,
    State,
    Street,
    StreetValue,
    Transition,
    Type,
    Variable,
    hand_expressions,
    rake_expressions,
)
from betspec.vocabulary import ValueType

_NO_TO: frozenset[str] = frozenset()
_WITH_TO = frozenset({"to"})
_PUSH = frozenset({"push"})
_SETTLED = frozenset({"settlement"})


class _Checker:
    def __init__(self, merged: Merged) -> None:
        self.merged = merged
        self.doc: dict[str, Any] = merged.value
        self.abstract = bool(self.doc.get("abstract", False))
        self.diagnostics: list[Diagnostic] = []
        self.symbols: dict[str, Name] = {}

    # ---- helpers ------------------------------------------------------------------------

    def error(self, pointer: str, code: DiagnosticCode, message: str, *, key: bool = False, about: str = "") -> None:
        if about and about in self.merged.broken:
            return  # the schema check already reported this entry
        if self.merged.is_silenced(pointer):
            return  # reported at the extending spec's remove that broke it
        self.diagnostics.append(self.merged.diag(pointer, code, message, key=key))

    def table(self, section: str) -> dict[str, Any]:
        value = self.doc.get(section, {})
        return value if isinstance(value, dict) else {}

    def cite(self, pointer: str, rule: str) -> None:
        rules = self.table("rules")
        if rule not in rules:
            self.error(
                pointer,
                DiagnosticCode.UNKNOWN_RULE,
                f"cites rule {rule!r}, which the rules table does not declare{did_you_mean(rule, rules)}",
            )

    def expression(self, pointer: str, text: str, scope: frozenset[str], want: Type | None) -> Expr | None:
        try:
            checked = ex.check(text, self.symbols, scope)
        except ExprError as exc:
            self._expression_error(pointer, text, 0, exc)
            return None
        if want is not None and not _assignable(checked.type, want):
            self.error(pointer, DiagnosticCode.TYPE, f"expression is {checked.type}, expected {want}")
            return None
        return checked

    def _expression_error(self, pointer: str, text: str, shift: int, exc: ExprError) -> None:
        """Report an expression's error; for an unknown name, every unknown name in it (one
        mistake does not hide the next), each saying how to declare it if the runtime has it."""
        if exc.name in self.merged.broken or self.merged.is_silenced(pointer):
            return
        doc_pointer = self.merged.origin(pointer)[1]
        problems = [(exc.offset, exc.code, exc.message, exc.name)]
        if exc.code is DiagnosticCode.UNKNOWN_NAME:
            try:
                tree = ast.parse(text, mode="eval")
            except SyntaxError:
                tree = None
            called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)} if tree is not None else set()
            for node in ast.walk(tree) if tree is not None else ():
                if not isinstance(node, ast.Name) or id(node) in called or node.id in self.symbols:
                    continue
                if node.id != exc.name and node.id not in {p[3] for p in problems}:
                    hint = did_you_mean(node.id, self.symbols)
                    problems.append(
                        (node.col_offset, DiagnosticCode.UNKNOWN_NAME, f"unknown name {node.id!r}{hint}", node.id)
                    )
        for offset, code, message, name in sorted(problems):
            if name in self.merged.broken:
                continue
            if code is DiagnosticCode.UNKNOWN_NAME and name in vocabulary.VARIABLES:
                kind = vocabulary.VARIABLES[name].type
                message = (
                    f'unknown name {name!r}: the runtime provides it; declare it in "variables" '
                    f'({{"{name}": {{"type": "{kind}", "meaning": ...}}}}) to read it'
                )
            position = self.merged.at(pointer).shifted(1 + shift + offset)
            self.diagnostics.append(Diagnostic(position, doc_pointer, code, message))

    # ---- sections -----------------------------------------------------------------------

    def rules(self) -> dict[str, Rule]:
        return {rid: Rule(rid, r["text"], r["source"]) for rid, r in sorted(self.table("rules").items())}

    def declare(self, name: str, symbol: Name, pointer: str, owners: dict[str, str], section: str) -> None:
        if name in owners:
            self.error(
                pointer, DiagnosticCode.DUPLICATE_NAME, f"{name!r} is already declared in {owners[name]}", key=True
            )
            return
        why = _reserved(name) if section != "variables" else None
        if why is not None:
            noun = _NOUNS.get(section, "name")
            candidates = (f"{name}_{noun}", f"{noun}_{name}", f"{name}_value", f"{name}_{section}")
            free = (n for n in candidates if n not in owners and n not in vocabulary.RESERVED_IDENTIFIERS)
            instead = next(free, f"my_{name}")
            message = f"{name!r} is reserved: {why}; a spec's names become Python identifiers (try {instead!r})"
            self.error(pointer, DiagnosticCode.RESERVED_NAME, message, key=True)
            return
        owners[name] = section
        self.symbols[name] = symbol

    def variables(self, owners: dict[str, str], session: dict[str, Input]) -> dict[str, Variable]:
        """The runtime's variables a spec reads, and the spec's own (those with a default): a
        session one goes to ``session``, as the table input it is."""
        out: dict[str, Variable] = {}
        for name, entry in self.table("variables").items():
            pointer = f"/variables/{name}"
            binding = vocabulary.VARIABLES.get(name)
            if "default" in entry or "scope" in entry:
                self.declared_variable(name, entry, owners, out, session)
                continue
            if binding is None:
                hint = did_you_mean(name, vocabulary.VARIABLES)
                self.error(
                    pointer,
                    DiagnosticCode.UNKNOWN_VARIABLE,
                    f"the runtime provides no variable {name!r}{hint}; a variable of the spec's own "
                    'gives its "default" and "scope" (hand, seat or session) and the "rule" it serves',
                    key=True,
                )
                continue
            if entry["type"] not in ("int", "bool", "int?"):
                message = f"{name!r} is {binding.type} in the runtime, not {entry['type']}"
                self.error(f"{pointer}/type", DiagnosticCode.TYPE, message)
                continue
            if binding.type != entry["type"]:
                self.error(
                    f"{pointer}/type",
                    DiagnosticCode.TYPE,
                    f"{name!r} is {binding.type} in the runtime, not {entry['type']}",
                )
                continue
            writable = bool(entry.get("writable", False))
            if writable and not binding.writable:
                self.error(pointer, DiagnosticCode.TYPE, f"{name!r} is read-only in the runtime", key=True)
            out[name] = Variable(name, entry["type"], entry["meaning"], writable)
            symbol = Name(Type(binding.type), "variable", binding.minimum, scope=binding.scope)
            self.declare(name, symbol, pointer, owners, "variables")
        return out

    def declared_variable(
        self,
        name: str,
        entry: dict[str, Any],
        owners: dict[str, str],
        out: dict[str, Variable],
        session: dict[str, Input],
    ) -> None:
        """A variable of the spec's own: checked, then kept as a Variable (hand, seat) or as a
        session input (carried from hand to hand)."""
        pointer = f"/variables/{name}"
        if name in vocabulary.VARIABLES:
            message = f"the runtime provides {name!r}: a variable of the spec's own takes another name"
            self.error(pointer, DiagnosticCode.DUPLICATE_NAME, message, key=True)
            return
        missing = [key for key in ("default", "scope", "rule") if key not in entry]
        if missing:
            message = f"a variable of the spec's own gives its {', '.join(repr(k) for k in missing)}"
            self.error(pointer, DiagnosticCode.MISSING, message, key=True)
            self.merged.broken.add(name)  # reported: its uses are not reported again as unknown
            return
        if "writable" in entry:
            message = "a variable of the spec's own is written by effects (hand, seat) or by next_hand (session)"
            self.error(f"{pointer}/writable", DiagnosticCode.TYPE, message)
            self.merged.broken.add(name)
            return
        self.cite(f"{pointer}/rule", entry["rule"])
        declared_type, default, scope = entry["type"], entry["default"], entry["scope"]
        kind = "int?" if declared_type == "seat?" else declared_type  # a seat is read as a number
        if not _fits(kind, default) or (declared_type == "seat?" and default is not None and default < 0):
            self.error(
                f"{pointer}/default",
                DiagnosticCode.TYPE,
                f"default {default!r} is not a value of this variable{_type_hint(kind, default)}",
            )
            self.merged.broken.add(name)
            return
        minimum = entry.get("minimum")
        if minimum is not None and kind != "bool":
            self.bounds(pointer, default, minimum, None)
        why = _reserved(name)
        if why is not None:
            self.error(pointer, DiagnosticCode.RESERVED_NAME, f"{name!r} is reserved: {why}", key=True)
            self.merged.broken.add(name)
            return
        if scope == "session":
            item = Input(
                name, declared_type, False, default, entry["meaning"], entry["rule"], minimum=minimum, session=True
            )
            session[name] = item
            minimum = 0 if declared_type == "seat?" else minimum
            self.declare(name, Name(Type(kind), "input", minimum, scope="table"), pointer, owners, "variables")
            return
        value_type: ValueType = "int?" if declared_type == "seat?" else entry["type"]
        out[name] = Variable(name, value_type, entry["meaning"], True, scope, default, entry["rule"])
        minimum = 0 if declared_type == "seat?" else minimum
        symbol = Name(Type(kind), "variable", minimum, scope="seat" if scope == "seat" else "hand")
        self.declare(name, symbol, pointer, owners, "variables")

    def inputs(self, owners: dict[str, str], section: str = "inputs") -> dict[str, Input]:
        """What a table provides (``inputs``), or a deal (``deal_inputs``): each input's names
        become table (or per-seat) variables; a deal input's are hand variables of its round."""
        out: dict[str, Input] = {}
        dealt = section == "deal_inputs"
        for name, entry in self.table(section).items():
            pointer = f"/{section}/{name}"
            if dealt and ("default" not in entry or entry.get("per_seat") or entry.get("items")):
                message = "a deal input has a default (a runout deals without it) and is one value"
                self.error(pointer, DiagnosticCode.TYPE, message, key=True)
                continue
            if dealt and entry["type"] == "seats":
                self.error(f"{pointer}/type", DiagnosticCode.TYPE, "a deal input is a value, not a list of seats")
                continue
            if name in vocabulary.BUILT_IN_INPUTS:
                self.error(
                    pointer,
                    DiagnosticCode.RESERVED_NAME,
                    f"every table has {name!r}: a spec does not declare it",
                    key=True,
                )
                continue
            self.cite(f"{pointer}/rule", entry["rule"])
            kind = entry["type"]
            items = tuple(entry.get("items", ()))
            per_seat = bool(entry.get("per_seat", False))
            choices = tuple(entry.get("choices", ()))
            if (kind == "choice") != bool(choices):
                self.error(pointer, DiagnosticCode.TYPE, "a choice input, and only one, lists its 'choices'", key=True)
            if items and (kind != "int" or per_seat):
                self.error(
                    pointer, DiagnosticCode.TYPE, "only an int input that is not per seat names its 'items'", key=True
                )
            if per_seat and kind not in ("int", "bool", "int?"):
                self.error(pointer, DiagnosticCode.TYPE, f"{_a(kind)} input cannot be given per seat", key=True)
            required = "default" not in entry
            default = entry.get("default")
            if not required and not _input_fits(kind, default, items, per_seat, choices):
                hint = "" if items or per_seat else _type_hint(kind, default, choices)
                self.error(
                    f"{pointer}/default", DiagnosticCode.TYPE, f"default {default!r} is not a value of this input{hint}"
                )
            elif not required and not items and not per_seat and kind in ("int", "int?"):
                self.bounds(pointer, default, entry.get("minimum"), entry.get("maximum"))
            item = Input(
                name,
                kind,
                required,
                default,
                entry["meaning"],
                entry["rule"],
                items,
                per_seat,
                entry.get("minimum"),
                entry.get("maximum"),
                choices,
                entry.get("example"),
                bool(entry.get("hand", False)),
            )
            out[name] = item
            scope = "hand" if dealt else "seat" if per_seat else "table"
            value_type = {"seat": "int", "seat?": "int?"}.get(kind, kind)
            minimum = 0 if kind in ("seat", "seat?") else entry.get("minimum")
            for variable in item.names:
                symbol = Name(
                    Type(value_type), "deal input" if dealt else "input", minimum, choices=choices, scope=scope
                )
                self.declare(variable, symbol, pointer, owners, section)
        return out

    def next_hand(self, inputs: dict[str, Input]) -> NextHand | None:
        """The next hand's button and the inputs set for it, as expressions over this hand."""
        entry = self.doc.get("next_hand")
        if not isinstance(entry, dict):
            if not self.abstract:
                self.error(
                    "",
                    DiagnosticCode.MISSING,
                    "the spec (with the specs it extends) has no 'next_hand'",
                    about="next_hand",
                )
            return None
        if "button" not in entry:
            if not self.abstract:
                message = "next_hand has no button (the seat with the button next hand): give one"
                self.error("/next_hand", DiagnosticCode.MISSING, message, about="next_hand")
            return None
        button = self.expression("/next_hand/button", entry["button"], _SETTLED, Type.INT)
        given: dict[str, Expr] = {}
        for name, text in entry.get("inputs", {}).items():
            item = inputs.get(name)
            pointer = f"/next_hand/inputs/{name}"
            if item is None or item.items or item.per_seat or item.type == "seats":
                hint = did_you_mean(name, inputs)
                self.error(
                    pointer,
                    DiagnosticCode.UNKNOWN_NAME,
                    f"{name!r} is not a table input set by one value{hint}",
                    key=True,
                )
                continue
            if item.type == "choice":
                checked = self.choice_expression(pointer, text, item.choices)
            else:
                want = Type({"seat": "int", "seat?": "int?"}.get(item.type, item.type))
                checked = self.expression(pointer, text, _SETTLED, want)
            if checked is not None:
                given[name] = checked
        return NextHand(button, given) if button is not None else None

    def choice_expression(self, pointer: str, text: str, choices: tuple[str, ...]) -> Expr | None:
        """An expression giving a choice input's value: the words it can give are its choices."""
        checked = self.expression(pointer, text, _SETTLED, None)
        if checked is None:
            return None
        if checked.type not in (Type.TEXT, Type.CHOICE):
            self.error(pointer, DiagnosticCode.TYPE, f"expression is {checked.type}, expected one of {list(choices)}")
            return None
        results = [checked.tree]
        words: list[str] = []
        while results:
            node = results.pop()
            if isinstance(node, ast.IfExp):
                results += [node.body, node.orelse]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                words.append(node.value)
        wrong = [word for word in words if word not in choices]
        if wrong:
            hint = did_you_mean(wrong[0], choices)
            message = f"{wrong[0]!r} is not a choice of this input{hint} (its choices: {', '.join(choices)})"
            self.error(pointer, DiagnosticCode.TYPE, message)
            return None
        return checked

    def street_values(self, owners: dict[str, str]) -> dict[str, StreetValue]:
        """Values that differ per street: hand variables read on the street being played."""
        out: dict[str, StreetValue] = {}
        for name, entry in self.table("street_values").items():
            pointer = f"/street_values/{name}"
            self.cite(f"{pointer}/rule", entry["rule"])
            kind, choices = entry["type"], tuple(entry.get("choices", ()))
            if (kind == "choice") != bool(choices):
                self.error(
                    pointer, DiagnosticCode.TYPE, "a choice street value, and only one, lists its 'choices'", key=True
                )
                continue
            if not _input_fits(kind, entry["default"], (), False, choices):
                hint = _type_hint(kind, entry["default"], choices)
                self.error(
                    f"{pointer}/default", DiagnosticCode.TYPE, f"default {entry['default']!r} is not {_a(kind)}{hint}"
                )
                continue
            out[name] = StreetValue(name, kind, entry["default"], entry["meaning"], entry["rule"], choices)
            self.declare(name, Name(Type(kind), "street value", choices=choices), pointer, owners, "street_values")
        return out

    def section(self, key: str, parts: tuple[str, ...], how: str) -> dict[str, Any] | None:
        """A section merged part by part (the game, the rake): None where the spec (with its
        bases) gives none, or null; else the entry, each of ``parts`` it lacks reported (the merged
        section needs them, not each file) and its rule cited."""
        entry = self.doc.get(key)
        if not isinstance(entry, dict):
            return None
        for part in parts:
            if part not in entry:
                message = f"the {key} has no {part!r}: {how}"
                self.error(f"/{key}", DiagnosticCode.MISSING, message, about=f"{key} {part}")
        if "rule" in entry:
            self.cite(f"/{key}/rule", entry["rule"])
        return entry

    def game(self, streets: tuple[Street, ...], inputs: dict[str, Input]) -> Game | None:
        """The cards the game deals, one deal per street in the streets' order; None where the
        spec (with its bases) declares none, or gives null."""
        entry = self.section("game", ("deals", "showdown"), "say what each street deals and how the showdown ranks")
        if entry is None:
            return None
        names = [street.name for street in streets]
        given: dict[str, Any] = entry.get("deals", {})
        for name in given:
            if name not in names:
                message = f"the game deals street {name!r}, which the spec does not have{did_you_mean(name, names)}"
                self.error(f"/game/deals/{name}", DiagnosticCode.GAME, message, key=True)
        deals = tuple(
            Deal(
                name,
                tuple(face == "up" for face in given.get(name, {}).get("hole", ())),
                given.get(name, {}).get("board", 0),
                given.get(name, {}).get("draw", False),
                given.get(name, {}).get("discard", 0),
            )
            for name in names
        )
        showdown = tuple(entry.get("showdown", ()))
        opening = entry.get("opening", "position")
        deck = entry.get("deck", "standard")
        ranks, suits = vocabulary.deck_cards(deck) or (vocabulary.CARD_RANKS, vocabulary.CARD_SUITS)  # (schema refused)
        if isinstance(deck, dict):
            for part in ("ranks", "suits"):
                letters = str(deck.get(part, ""))
                twice = sorted({letter for letter in letters if letters.count(letter) > 1})
                if twice:
                    message = f"the deck's {part} name {', '.join(twice)} more than once: a deck holds each card once"
                    self.error(f"/game/deck/{part}", DiagnosticCode.GAME, message)
        game = Game(
            entry.get("name") or self.doc.get("title", ""),
            deck if isinstance(deck, str) else "",
            deals,
            showdown,
            opening,
            entry.get("rule", ""),
            entry.get("boards", 1),
            entry.get("boards_when", ""),
            ranks,
            suits,
        )
        for problem, pointer in _game_problems(game, "deals" in entry and bool(streets)):
            self.error(pointer, DiagnosticCode.GAME, problem)
        when = game.boards_when
        item = inputs.get(when)
        if when and (item is None or item.per_seat or item.items or item.type not in ("int", "bool")):
            message = f"boards_when names {when!r}, not a table input of one int or bool{did_you_mean(when, inputs)}"
            self.error("/game/boards_when", DiagnosticCode.UNKNOWN_NAME, message)
        return game

    def rake(self, streets: tuple[Street, ...]) -> Rake | None:
        """The house's rake: its terms as expressions over the table and the hand (read as the
        pots are paid); None where the spec (with its bases) posts none, or gives null."""
        entry = self.section("rake", ("percent", "rule"), "say what part of each pot it takes, citing the house's rule")
        if entry is None:
            return None
        terms: dict[str, Expr | None] = {}
        for part in ("unit", "cap", "minimum_pot"):
            text = entry.get(part)
            terms[part] = None if text is None else self.expression(f"/rake/{part}", text, frozenset(), Type.INT)
        jackpot = entry.get("jackpot") or {}
        for part, key in (("drop", "jackpot"), ("minimum_pot", "jackpot_minimum")):
            text = jackpot.get(part)
            pointer = f"/rake/jackpot/{part}"
            terms[key] = None if text is None else self.expression(pointer, text, frozenset(), Type.INT)
        street = entry.get("from_street", "")
        names = [item.name for item in streets]
        if street and street not in names:
            hint = did_you_mean(street, names)
            message = f"the rake is taken from street {street!r}, which the spec does not have{hint}"
            self.error("/rake/from_street", DiagnosticCode.UNKNOWN_NAME, message)
        percent = entry.get("percent", 0)
        return Rake(
            basis_points=round(percent * 100) if isinstance(percent, int | float) else 0,
            rounding=entry.get("rounding", "down"),
            cap_per=entry.get("cap_per", "hand"),
            from_street=street,
            rule=entry.get("rule", ""),
            unit=terms["unit"],
            cap=terms["cap"],
            minimum_pot=terms["minimum_pot"],
            jackpot=terms["jackpot"],
            jackpot_minimum=terms["jackpot_minimum"],
        )

    def payments(self) -> tuple[Payment, ...]:
        """The money the spec pays outside the pot, in the order it declares it (its bases' first)."""
        found: list[Payment] = []
        for name, entry in self.table("payments").items():
            pointer = f"/payments/{name}"
            self.cite(f"{pointer}/rule", entry["rule"])
            amount = self.expression(f"{pointer}/amount", entry["amount"], frozenset(), Type.INT)
            shows = entry.get("shows", {})
            if amount is not None:
                found.append(
                    Payment(
                        name,
                        amount,
                        entry["from"],
                        entry["to"],
                        tuple(shows.get("ranks", ())),
                        shows.get("suited"),
                        bool(entry.get("showdown", False)),
                        entry["rule"],
                        tuple(entry.get("makes", ())),
                    )
                )
        return tuple(found)

    def streets(self, values: dict[str, StreetValue]) -> tuple[Street, ...]:
        """The betting rounds in order, each with every street value (its own or the default)."""
        entries = self.doc.get("streets", [])
        if not isinstance(entries, list) or not entries:
            if not self.abstract:
                self.error(
                    "", DiagnosticCode.MISSING, "the spec (with the specs it extends) has no 'streets'", about="streets"
                )
            return ()
        out: list[Street] = []
        seen: dict[str, int] = {}
        for index, entry in enumerate(entries):
            pointer = f"/streets/{index}"
            name = entry["name"]
            if name in seen:
                message = (
                    f"street {name!r} is named twice (first at /streets/{seen[name]}): each betting round needs a "
                    f"name of its own, which deal() and the cases use (rename this one, e.g. {name + '_2'!r}, or "
                    "drop it; a spec's 'streets' replace its base's whole, so list every round once)"
                )
                self.error(f"{pointer}/name", DiagnosticCode.DUPLICATE_NAME, message)
                continue
            seen[name] = index
            given = dict(entry.get("values", {}))
            for key, value in given.items():
                declared = values.get(key)
                if declared is None:
                    hint = did_you_mean(key, values)
                    self.error(
                        f"{pointer}/values/{key}",
                        DiagnosticCode.UNKNOWN_NAME,
                        f"no street value {key!r} is declared{hint}",
                    )
                elif not _input_fits(declared.type, value, (), False, declared.choices):
                    self.error(f"{pointer}/values/{key}", DiagnosticCode.TYPE, f"{value!r} is not {_a(declared.type)}")
            full = {key: given.get(key, declared.default) for key, declared in values.items()}
            out.append(Street(name, entry["meaning"], full))
        return tuple(out)

    def roles(self, owners: dict[str, str]) -> dict[str, Role]:
        """The seats that matter, as table expressions, in the order they depend on one another."""
        table = self.table("roles")
        for name in table:
            self.declare(name, Name(Type.INT, "role", 0, scope="table"), f"/roles/{name}", owners, "roles")
        order, cyclic = _dependency_order({n: ex.names_in(e["expr"]) & set(table) for n, e in table.items()})
        for name in cyclic:
            self.error(f"/roles/{name}/expr", DiagnosticCode.CYCLE, f"role {name!r} depends on itself")
        out: dict[str, Role] = {}
        for name in order:
            entry = table[name]
            pointer = f"/roles/{name}"
            self.cite(f"{pointer}/rule", entry["rule"])
            checked = self.expression(f"{pointer}/expr", entry["expr"], _NO_TO, Type.INT)
            if checked is not None and self.confined(f"{pointer}/expr", checked, ("table",), "a role"):
                out[name] = Role(name, checked, entry["meaning"], entry["rule"])
        return out

    def forced_bets(self, inputs: dict[str, Input]) -> tuple[ForcedBet, ...]:
        out: list[ForcedBet] = []
        for name, entry in self.table("forced_bets").items():
            pointer = f"/forced_bets/{name}"
            self.cite(f"{pointer}/rule", entry["rule"])
            seats = entry.get("seats")
            scopes: tuple[str, ...] = ("table",)
            if ("seat" in entry) == (seats is not None):
                self.error(
                    pointer,
                    DiagnosticCode.MISSING,
                    "a forced bet names its 'seat' (an expression) or its 'seats'",
                    key=True,
                )
                continue
            if seats is not None:
                scopes = ("table", "seat")
                if seats != "all" and (seats not in inputs or inputs[seats].type != "seats"):
                    candidates = ["all", *(n for n, i in inputs.items() if i.type == "seats")]
                    hint = did_you_mean(seats, candidates)
                    message = f"'seats' is \"all\" or an input of type seats, not {seats!r}{hint}"
                    self.error(f"{pointer}/seats", DiagnosticCode.UNKNOWN_NAME, message)
                    continue
            seat = None
            if "seat" in entry:
                seat = self.expression(f"{pointer}/seat", entry["seat"], _NO_TO, Type.INT)
                if seat is None or not self.confined(f"{pointer}/seat", seat, ("table",), "a forced bet's seat"):
                    continue
            amount = self.expression(f"{pointer}/amount", entry["amount"], _NO_TO, Type.INT)
            when = self.expression(f"{pointer}/when", entry["when"], _NO_TO, Type.BOOL) if "when" in entry else None
            parts = [(p, e) for p, e in (("amount", amount), ("when", when)) if e is not None]
            if amount is None or ("when" in entry and when is None):
                continue
            if not all(self.confined(f"{pointer}/{part}", e, scopes, "a forced bet") for part, e in parts):
                continue
            if when is not None and when.is_constant and when.constant is False:
                self.error(f"{pointer}/when", DiagnosticCode.CONSTANT_GUARD, "this forced bet is never posted")
            kind = entry["kind"]
            order = entry.get("order", "in_turn")
            if order != "in_turn" and kind not in vocabulary.LIVE_KINDS:
                self.error(
                    f"{pointer}/order",
                    DiagnosticCode.TYPE,
                    f"a {kind} is dead money: it does not move its poster's turn",
                )
            out.append(
                ForcedBet(
                    name,
                    seat,
                    seats,
                    amount,
                    kind,
                    when,
                    order,
                    bool(entry.get("in_full", False)),
                    entry["meaning"],
                    entry["rule"],
                )
            )
        return tuple(out)

    def options(self, owners: dict[str, str]) -> dict[str, Option]:
        out: dict[str, Option] = {}
        for name, entry in sorted(self.table("options").items()):
            pointer = f"/options/{name}"
            kind, default = entry["type"], entry["default"]
            minimum, maximum = entry.get("minimum"), entry.get("maximum")
            self.cite(f"{pointer}/rule", entry["rule"])
            choices = tuple(entry.get("choices", ()))
            if kind in ("bool", "choice") and (minimum is not None or maximum is not None):
                self.error(pointer, DiagnosticCode.TYPE, f"{_a(kind)} option has no minimum or maximum", key=True)
            if (kind == "choice") != bool(choices):
                self.error(pointer, DiagnosticCode.TYPE, "a choice option, and only one, lists its 'choices'", key=True)
            if kind == "choice":
                if default not in choices:
                    self.error(
                        f"{pointer}/default",
                        DiagnosticCode.TYPE,
                        f"default {default!r} is not one of {', '.join(choices)}",
                    )
            elif not _fits(kind, default):
                hint = _type_hint(kind, default, choices)
                self.error(f"{pointer}/default", DiagnosticCode.TYPE, f"default {default!r} is not {_a(kind)}{hint}")
            else:
                self.bounds(pointer, default, minimum, maximum)
            out[name] = Option(name, kind, default, entry["meaning"], entry["rule"], minimum, maximum, choices)
            symbol = Name(Type(kind), "option", minimum if kind == "int" else None, choices=choices)
            self.declare(name, symbol, pointer, owners, "options")
        return out

    def bounds(self, pointer: str, default: object, minimum: object, maximum: object) -> None:
        """A default outside the bounds its entry declares, with the two ways out."""
        if not isinstance(default, int) or isinstance(default, bool):
            return
        if isinstance(minimum, int) and default < minimum:
            message = (
                f"default {default} is below the minimum {minimum}: give a default of at least {minimum}, "
                f"or lower the minimum to {default} if {default} is a value the house allows"
            )
            self.error(f"{pointer}/default", DiagnosticCode.TYPE, message)
        if isinstance(maximum, int) and default > maximum:
            message = (
                f"default {default} is above the maximum {maximum}: give a default of at most {maximum}, "
                f"or raise the maximum to {default} if {default} is a value the house allows"
            )
            self.error(f"{pointer}/default", DiagnosticCode.TYPE, message)

    def primitives(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for name, entry in sorted(self.table("primitives").items()):
            if name not in vocabulary.PRIMITIVES:
                hint = did_you_mean(name, vocabulary.PRIMITIVES)
                self.error(
                    f"/primitives/{name}",
                    DiagnosticCode.UNKNOWN_PRIMITIVE,
                    f"the runtime provides no primitive {name!r}{hint}",
                    key=True,
                )
                continue
            out[name] = entry["meaning"]
        return out

    def quantities(self, owners: dict[str, str]) -> dict[str, Quantity]:
        table = self.table("quantities")
        for name, entry in table.items():
            # Declared first so that quantities may use each other in any order.
            symbol = Name(Type(entry["type"]), "quantity", per_seat=bool(entry.get("per_seat")))
            self.declare(name, symbol, f"/quantities/{name}", owners, "quantities")
        order, cyclic = _dependency_order(
            {n: ex.names_in(e["expr"]) & set(table) for n, e in table.items() if "expr" in e}
        )
        for name in cyclic:
            self.error(f"/quantities/{name}/expr", DiagnosticCode.CYCLE, f"quantity {name!r} depends on itself")
        out: dict[str, Quantity] = {}
        for name in order + sorted(n for n, e in table.items() if "expr" not in e):
            entry = table[name]
            pointer = f"/quantities/{name}"
            self.cite(f"{pointer}/rule", entry["rule"])
            if "expr" not in entry:
                if not self.abstract:
                    self.error(
                        pointer,
                        DiagnosticCode.ABSTRACT,
                        f"quantity {name!r} is abstract: this spec must give it an 'expr'",
                        about=name,
                        key=True,
                    )
                continue
            per_seat = bool(entry.get("per_seat"))
            scope = _NO_TO if per_seat else _WITH_TO
            checked = self.expression(f"{pointer}/expr", entry["expr"], scope, Type(entry["type"]))
            if checked is None:
                continue
            if per_seat and not self.confined(f"{pointer}/expr", checked, ("table", "seat"), "a per-seat quantity"):
                continue
            needs_to = "to" in checked.names or any(out[n].needs_to for n in checked.names if n in out)
            out[name] = Quantity(name, entry["type"], checked, entry["meaning"], entry["rule"], needs_to, per_seat)
            where = "seat" if per_seat else ("table" if self._table_scope(checked) else "hand")
            self.symbols[name] = Name(
                Type(entry["type"]),
                "quantity",
                needs=_WITH_TO if needs_to else _NO_TO,
                per_seat=per_seat,
                scope=where,
            )
        if not self.abstract:
            for name, kind in vocabulary.REQUIRED_QUANTITIES.items():
                if name not in table:
                    self.error(
                        "/quantities",
                        DiagnosticCode.MISSING,
                        f"the runtime needs a quantity {name!r} ({kind})",
                        key=True,
                        about=name,
                    )
                elif name in out and (out[name].type != kind or out[name].needs_to or out[name].per_seat):
                    self.error(
                        f"/quantities/{name}",
                        DiagnosticCode.TYPE,
                        f"{name!r} must be an {kind} of the seat to act that does not read 'to'",
                        key=True,
                    )
            for name, kind in vocabulary.REQUIRED_SEAT_QUANTITIES.items():
                if name not in table:
                    message = f"the runtime needs a per-seat quantity {name!r} ({kind})"
                    self.error("/quantities", DiagnosticCode.MISSING, message, key=True, about=name)
                elif name in out and (out[name].type != kind or not out[name].per_seat):
                    message = f'{name!r} must be an {kind} with "per_seat": true'
                    self.error(f"/quantities/{name}", DiagnosticCode.TYPE, message, key=True)
        return out

    def confined(self, pointer: str, checked: Expr, scopes: tuple[str, ...], what: str) -> bool:
        """Report the names ``checked`` reads outside ``scopes`` (options always fit)."""
        ok = True
        kinds = " and ".join(scopes)
        for name in sorted(checked.names):
            symbol = self.symbols.get(name)
            if symbol is None or symbol.kind == "option" or symbol.scope in scopes:
                continue
            self.error(pointer, DiagnosticCode.SCOPE, f"{what} reads only options and {kinds} names, not {name!r}")
            ok = False
        called = {n.func.id for n in ast.walk(checked.tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        for name in sorted(called & set(vocabulary.SEAT_FUNCTIONS)):
            self.error(pointer, DiagnosticCode.SCOPE, f"{what} reads only options and {kinds} names, not {name}()")
            ok = False
        return ok

    def _table_scope(self, checked: Expr) -> bool:
        """The expression reads only what the table fixes for the whole hand."""
        symbols = [self.symbols.get(n) for n in checked.names]
        calls = [n for n in ast.walk(checked.tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
        seat_reads = any(call.func.id in vocabulary.SEAT_FUNCTIONS for call in calls)  # type: ignore[attr-defined]
        return not seat_reads and all(s is not None and (s.kind == "option" or s.scope == "table") for s in symbols)

    def checks(self) -> tuple[Check, ...]:
        out: list[Check] = []
        for index, entry in enumerate(self.doc.get("checks", [])):
            pointer = f"/checks/{index}"
            self.cite(f"{pointer}/rule", entry["rule"])
            checked = self.expression(f"{pointer}/expr", entry["expr"], _NO_TO, Type.BOOL)
            if checked is None or not self.confined(f"{pointer}/expr", checked, ("table",), "a table check"):
                continue
            if checked.is_constant and checked.constant is False:
                self.error(
                    f"{pointer}/expr", DiagnosticCode.CONSTANT_GUARD, "this check can never hold: no table would pass"
                )
            out.append(Check(checked, entry["message"], entry["rule"]))
        return tuple(out)

    def states(self) -> dict[str, State]:
        return {name: State(name, entry["phase"], entry["label"]) for name, entry in self.table("states").items()}

    def effects(
        self,
        pointer: str,
        texts: Iterable[str],
        scope: frozenset[str],
        variables: dict[str, Variable],
        primitives: dict[str, str],
    ) -> tuple[Effect, ...]:
        out: list[Effect] = []
        for index, text in enumerate(texts):
            at = f"{pointer}/{index}"
            effect = self.effect(at, text, scope, variables, primitives)
            if effect is not None:
                out.append(effect)
        return tuple(out)

    def effect(
        self, pointer: str, text: str, scope: frozenset[str], variables: dict[str, Variable], primitives: dict[str, str]
    ) -> Effect | None:
        """``name = expression`` or ``primitive(arguments)``."""
        if "\n" in text or "\r" in text or len(text) > ex.MAX_LENGTH:
            self.error(pointer, DiagnosticCode.SYNTAX, "an effect is one line: 'name = expression' or 'primitive(...)'")
            return None
        try:
            tree = ast.parse(text, mode="exec")
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            offset = max((getattr(exc, "offset", 1) or 1) - 1, 0)
            message = getattr(exc, "msg", "cannot be parsed")
            self.diagnostics.append(
                Diagnostic(
                    self.merged.at(pointer).shifted(1 + offset),
                    self.merged.origin(pointer)[1],
                    DiagnosticCode.SYNTAX,
                    f"syntax error: {message}",
                )
            )
            return None
        body = tree.body
        if (
            len(body) == 1
            and isinstance(body[0], ast.Assign)
            and len(body[0].targets) == 1
            and isinstance(body[0].targets[0], ast.Name)
        ):
            target = body[0].targets[0].id
            variable = variables.get(target)
            if variable is None or not variable.writable:
                writable = sorted(v.name for v in variables.values() if v.writable)
                hint = did_you_mean(target, writable)
                listed = ", ".join(writable) or "none"
                known = variable is not None or target in vocabulary.VARIABLES
                why = "is read-only" if known else "is no variable"
                message = (
                    f"{target!r} {why}{hint}: an effect sets a writable variable ({listed}), or a variable of "
                    f'the spec\'s own (declare it in "variables" with a default, a scope and a rule)'
                )
                self.error(pointer, DiagnosticCode.UNKNOWN_NAME, message, about=target)
                self.expression_at(pointer, text, body[0].value, scope, None)  # its own mistakes too
                return None
            value = body[0].value
            checked = self.expression_at(pointer, text, value, scope, Type(variable.type))
            return Assignment(target, checked) if checked is not None else None
        if (
            len(body) == 1
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Call)
            and isinstance(body[0].value.func, ast.Name)
        ):
            call = body[0].value
            name = call.func.id  # type: ignore[attr-defined]
            if name not in primitives:
                if name in vocabulary.PRIMITIVES:
                    message = (
                        f'unknown primitive {name!r}: the runtime provides it; declare it in "primitives" '
                        f'({{"{name}": {{"meaning": ...}}}}) to call it'
                    )
                else:
                    message = f"unknown primitive {name!r}{did_you_mean(name, primitives)}"
                self.error(pointer, DiagnosticCode.UNKNOWN_PRIMITIVE, message)
                return None
            arity = vocabulary.PRIMITIVES[name]
            if len(call.args) != arity or call.keywords:
                self.error(pointer, DiagnosticCode.TYPE, f"{name}() takes {arity} argument(s)")
                return None
            args = [self.expression_at(pointer, text, arg, scope, Type.INT) for arg in call.args]
            if any(a is None for a in args):
                return None
            return Call(name, tuple(a for a in args if a is not None))
        self.error(pointer, DiagnosticCode.SYNTAX, "an effect is 'name = expression' or 'primitive(arguments)'")
        return None

    def expression_at(
        self, pointer: str, text: str, node: ast.expr, scope: frozenset[str], want: Type | None
    ) -> Expr | None:
        segment = ast.get_source_segment(text, node) or ""
        try:
            checked = ex.check(segment, self.symbols, scope)
        except ExprError as exc:
            self._expression_error(pointer, segment, node.col_offset, exc)
            return None
        if want is not None and not _assignable(checked.type, want):
            self.error(pointer, DiagnosticCode.TYPE, f"{segment!r} is {checked.type}, expected {want}")
            return None
        return checked

    def events(self, variables: dict[str, Variable], primitives: dict[str, str]) -> dict[str, Event]:
        out: dict[str, Event] = {}
        blind_starts = deals = plain_starts = 0
        for name, entry in self.table("events").items():
            pointer = f"/events/{name}"
            kind = entry["kind"]
            params = tuple(entry.get("params", {}))
            scope = _WITH_TO if "to" in params else _NO_TO
            own = bool(entry.get("own", False))
            if own:
                self.own_action(pointer, name, kind, params)
            elif kind == "action":
                if name not in vocabulary.ACTIONS:
                    hint = did_you_mean(name, vocabulary.ACTIONS)
                    message = (
                        f'the runtime has no action {name!r}{hint}; an action of the spec\'s own says so ("own": true)'
                    )
                    self.error(pointer, DiagnosticCode.UNKNOWN_ACTION, message, key=True)
                elif params != vocabulary.ACTION_PARAMS[name]:
                    want = ", ".join(vocabulary.ACTION_PARAMS[name]) or "no parameters"
                    self.error(pointer, DiagnosticCode.PARAMS, f"action {name!r} takes {want}", key=True)
            elif params:
                self.error(f"{pointer}/params", DiagnosticCode.PARAMS, "only action events take parameters")
            deals += kind == "deal"
            plain_starts += kind == "start" and not entry.get("blinds")
            if entry.get("blinds") and kind != "start":
                self.error(f"{pointer}/blinds", DiagnosticCode.TYPE, "only a start event posts the blinds")
            blind_starts += bool(entry.get("blinds")) and kind == "start"
            if entry.get("requires") and kind != "action":
                self.error(f"{pointer}/requires", DiagnosticCode.TYPE, "only action events have requirements")
            requires: list[Requirement] = []
            for index, req in enumerate(entry.get("requires", [])):
                at = f"{pointer}/requires/{index}"
                self.cite(f"{at}/rule", req["rule"])
                checked = self.expression(f"{at}/expr", req["expr"], scope, Type.BOOL)
                if checked is not None:
                    if checked.is_constant and checked.constant is False:
                        self.error(
                            f"{at}/expr",
                            DiagnosticCode.CONSTANT_GUARD,
                            "this requirement can never hold: the action could never be taken",
                        )
                    needs_to = self._needs_to(checked)
                    if requires and requires[-1].needs_to and not needs_to:
                        self.error(
                            f"{at}/expr",
                            DiagnosticCode.ORDER,
                            "a requirement not reading 'to' must come before those that do: "
                            "whether the action is possible is decided before its amount",
                        )
                    requires.append(Requirement(checked, req["error"], req["rule"], req["message"], needs_to))
            effects = self.effects(f"{pointer}/effects", entry.get("effects", []), scope, variables, primitives)
            out[name] = Event(name, kind, bool(entry.get("blinds")), params, tuple(requires), effects, own)
        if not self.abstract:
            for action in vocabulary.ACTIONS:
                if action not in out and action not in vocabulary.OPTIONAL_ACTIONS:
                    self.error(
                        "/events",
                        DiagnosticCode.MISSING,
                        f"the spec declares no {action!r} action",
                        key=True,
                        about=action,
                    )
            counts = (
                (blind_starts, "start event posts the blinds"),
                (plain_starts, "other start event begins a later street"),
                (deals, "deal event deals the next street"),
            )
            for count, what in counts:
                if count != 1:
                    self.error("/events", DiagnosticCode.MISSING, f"exactly one {what}, not {count}", key=True)
        return out

    def own_action(self, pointer: str, name: str, kind: str, params: tuple[str, ...]) -> None:
        """An action of the spec's own: a name of its own, no amount; it becomes an engine method."""
        if kind != "action":
            self.error(f"{pointer}/own", DiagnosticCode.TYPE, "only an action is the spec's own")
        elif params:
            self.error(f"{pointer}/params", DiagnosticCode.PARAMS, "an action of the spec's own takes no amount")
        elif name in vocabulary.ACTIONS or name in vocabulary.ACT_NAMES or name in vocabulary.ENGINE_API:
            message = f"{name!r} is the engine's own: an action of the spec's own takes a name of its own"
            self.error(pointer, DiagnosticCode.RESERVED_NAME, message, key=True)
        elif _reserved(name) is not None:
            self.error(pointer, DiagnosticCode.RESERVED_NAME, f"{name!r} is reserved: {_reserved(name)}", key=True)

    def _needs_to(self, checked: Expr) -> bool:
        return (
            any("to" in self.symbols[n].needs or n == "to" for n in checked.names if n in self.symbols)
            or "to" in checked.names
        )

    def transitions(
        self,
        states: dict[str, State],
        events: dict[str, Event],
        variables: dict[str, Variable],
        primitives: dict[str, str],
    ) -> list[Transition]:
        out: list[Transition] = []
        seen: dict[tuple[str, str, str, str], int] = {}
        for index, entry in enumerate(self.doc.get("transitions", [])):
            pointer = f"/transitions/{index}"
            event = events.get(entry["event"])
            if event is None:
                self.error(
                    f"{pointer}/event",
                    DiagnosticCode.UNKNOWN_NAME,
                    f"unknown event {entry['event']!r}{did_you_mean(entry['event'], events)}",
                    about=entry["event"],
                )
            self.cite(f"{pointer}/rule", entry["rule"])
            sources = entry["source"] if isinstance(entry["source"], list) else [entry["source"]]
            scope = _WITH_TO if event is not None and "to" in event.params else _NO_TO
            guard = None
            if "guard" in entry:
                guard = self.expression(f"{pointer}/guard", entry["guard"], scope, Type.BOOL)
                if guard is not None and guard.is_constant and guard.constant is False:
                    self.error(
                        f"{pointer}/guard",
                        DiagnosticCode.CONSTANT_GUARD,
                        "this guard is always false: the transition can never be taken",
                    )
            effects = self.effects(f"{pointer}/effects", entry.get("effects", []), scope, variables, primitives)
            for number, source in enumerate(sources):
                at = f"{pointer}/source/{number}" if isinstance(entry["source"], list) else f"{pointer}/source"
                if source not in states:
                    self.error(
                        at,
                        DiagnosticCode.UNKNOWN_NAME,
                        f"unknown state {source!r}{did_you_mean(source, states)}",
                        about=source,
                    )
                    continue
                dest = source if entry["dest"] == "=" else entry["dest"]
                if dest not in states:
                    self.error(
                        f"{pointer}/dest",
                        DiagnosticCode.UNKNOWN_NAME,
                        f"unknown state {dest!r}{did_you_mean(dest, states)}",
                        about=dest,
                    )
                    continue
                signature = (entry["event"], source, dest, entry.get("guard", ""))
                if signature in seen:
                    self.error(
                        at,
                        DiagnosticCode.DUPLICATE_TRANSITION,
                        f"the same transition as /transitions/{seen[signature]}",
                    )
                    continue
                seen[signature] = index
                if event is not None:
                    out.append(Transition(event.name, source, dest, guard, entry["rule"], effects, pointer))
        return out

    def seat_writes(
        self, events: dict[str, Event], transitions: list[Transition], variables: dict[str, Variable]
    ) -> None:
        """A seat's variable is written while a seat acts: by an action's effects, nowhere else."""
        per_seat = {name for name, v in variables.items() if v.scope == "seat"}

        def written(effects: Iterable[Effect]) -> list[str]:
            return [e.target for e in effects if isinstance(e, Assignment) and e.target in per_seat]

        def refuse(target: str, where: str) -> None:
            message = f"{target!r} is one value per seat, the seat to act's: only an action's effects write it"
            self.error(where, DiagnosticCode.SCOPE, message)

        for name, event in events.items():
            if event.kind == "action":
                continue
            for target in written(event.effects):
                refuse(target, f"/events/{name}/effects")
            for transition in (t for t in transitions if t.event == name):
                for target in written(transition.effects):
                    refuse(target, transition.origin or "/transitions")

    def unused_state(
        self,
        variables: dict[str, Variable],
        inputs: dict[str, Input],
        events: dict[str, Event],
        transitions: list[Transition],
        exprs: list[Expr],
        next_hand: NextHand | None,
    ) -> None:
        """A variable of the spec's own that nothing writes, or that nothing reads, is a mistake:
        a hand or seat variable no effect sets, a session variable next_hand never sets or that
        no expression reads."""
        names = {name for expr in exprs for name in expr.names}
        effects = [e for event in events.values() for e in event.effects] + [e for t in transitions for e in t.effects]
        written = {e.target for e in effects if isinstance(e, Assignment)}
        for name, variable in variables.items():
            if not variable.declared:
                continue
            if name not in written:
                message = f"{name!r} is declared and no effect writes it: it keeps its default in every hand"
                self.error(f"/variables/{name}", DiagnosticCode.UNUSED, message, key=True)
            elif name not in names:
                message = f"{name!r} is written and nothing reads it: read it in a guard, requirement or quantity"
                self.error(f"/variables/{name}", DiagnosticCode.UNUSED, message, key=True)
        following = self.doc.get("next_hand")
        written_next = following.get("inputs", {}) if isinstance(following, dict) else {}
        for name, item in inputs.items():
            if not item.session:
                continue
            if name in written_next and (next_hand is None or name not in next_hand.inputs):
                continue  # next_hand sets it, and what it sets was reported wrong already
            if next_hand is None or name not in next_hand.inputs:
                message = f"{name!r} is a session variable next_hand never sets: set it in next_hand's inputs"
                self.error(f"/variables/{name}", DiagnosticCode.UNUSED, message, key=True)
            elif name not in names:
                message = f"{name!r} is a session variable nothing reads: read it in next_hand or the hand's rules"
                self.error(f"/variables/{name}", DiagnosticCode.UNUSED, message, key=True)

    def push_rulings(self) -> tuple[PushRuling, ...]:
        entries = self.table("procedures").get("push", [])
        out: list[PushRuling] = []
        for index, entry in enumerate(entries):
            pointer = f"/procedures/push/{index}"
            self.cite(f"{pointer}/rule", entry["rule"])
            when = self.expression(f"{pointer}/when", entry["when"], _PUSH, Type.BOOL)
            to = None
            if entry["ruling"] == "wager":
                if "to" not in entry:
                    self.error(pointer, DiagnosticCode.MISSING, "a wager ruling says what it is 'to'", key=True)
                else:
                    to = self.expression(f"{pointer}/to", entry["to"], _PUSH, Type.INT)
            elif "to" in entry:
                self.error(f"{pointer}/to", DiagnosticCode.TYPE, f"only a wager has an amount, not a {entry['ruling']}")
            if when is not None and when.is_constant and when.constant is False:
                self.error(f"{pointer}/when", DiagnosticCode.CONSTANT_GUARD, "this ruling can never apply")
            if when is not None:
                out.append(PushRuling(when, entry["ruling"], to, entry["rule"], entry.get("note", "")))
        if not self.abstract and (not out or not (out[-1].when.is_constant and out[-1].when.constant is True)):
            self.error(
                "/procedures",
                DiagnosticCode.MISSING,
                "the last ruling on chips pushed must apply always ('when': 'True')",
                key=True,
            )
        return tuple(out)

    def reachability(self, states: dict[str, State], initial: str, transitions: list[Transition]) -> None:
        reached = {initial}
        frontier = [initial]
        while frontier:
            state = frontier.pop()
            for t in transitions:
                if t.source == state and t.dest not in reached:
                    reached.add(t.dest)
                    frontier.append(t.dest)
        for name in states:
            if name not in reached:
                self.error(
                    f"/states/{name}",
                    DiagnosticCode.UNREACHABLE,
                    f"state {name!r} cannot be reached from {initial!r}",
                    key=True,
                )

    def run(self) -> Spec | None:
        # Long because it is the checker's phases in the order each needs the one before (rules,
        # names, expressions, the machine, the model), read top to bottom; each phase is a method.
        for section in ("states", "initial", "events", "transitions", "procedure_rules"):
            if section not in self.doc and not self.abstract:
                self.error(
                    "",
                    DiagnosticCode.MISSING,
                    f"the spec (with the specs it extends) has no {section!r}",
                    about=section,
                )
        rules = self.rules()
        owners: dict[str, str] = {}
        session: dict[str, Input] = {}
        variables = self.variables(owners, session)
        options = self.options(owners)
        inputs = {**self.inputs(owners), **session}
        deal_inputs = self.inputs(owners, "deal_inputs")
        street_values = self.street_values(owners)
        streets = self.streets(street_values)
        game = self.game(streets, inputs)
        roles = self.roles(owners)
        primitives = self.primitives()
        self.symbols["to"] = Name(Type.INT, "parameter", needs=_WITH_TO)
        for name, kind in vocabulary.PUSH_PARAMETERS.items():
            self.symbols[name] = Name(Type(kind), "parameter", needs=_PUSH)
        for name, kind in vocabulary.SETTLEMENT_NAMES.items():
            self.symbols[name] = Name(Type(kind), "settlement", needs=_SETTLED, scope="table")
        quantities = self.quantities(owners)
        states = self.states()
        initial = self.doc.get("initial", "")
        if initial and initial not in states:
            self.error(
                "/initial",
                DiagnosticCode.UNKNOWN_NAME,
                f"unknown state {initial!r}{did_you_mean(initial, states)}",
                about=initial,
            )
        elif initial and states[initial].phase != "start":
            self.error("/initial", DiagnosticCode.TYPE, f"the initial state {initial!r} must have phase 'start'")
        for code, rule in self.table("procedure_rules").items():
            self.cite(f"/procedure_rules/{code}", rule)
        events = self.events(variables, primitives)
        transitions = self.transitions(states, events, variables, primitives)
        if not self.abstract:
            transitions = _possible(transitions, quantities)
        push_rulings = self.push_rulings()
        checks = self.checks()
        forced_bets = self.forced_bets(inputs)
        next_hand = self.next_hand(inputs)
        rake = self.rake(streets)
        payments = self.payments()
        if initial in states:
            self.reachability(states, initial, transitions)
        if not self.abstract:
            for action in (*vocabulary.ACTIONS, *(name for name, event in events.items() if event.own)):
                if action in events and not any(t.event == action for t in transitions):
                    self.error(
                        f"/events/{action}",
                        DiagnosticCode.UNUSED,
                        f"no transition takes the {action!r} action",
                        key=True,
                    )
        self.seat_writes(events, transitions, variables)
        if not self.abstract:
            exprs = _expressions(events, transitions, quantities, roles, checks, forced_bets, push_rulings, next_hand)
            exprs += rake_expressions(rake) + [payment.amount for payment in payments]
            self.unused_state(variables, inputs, events, transitions, exprs, next_hand)
        if not self.diagnostics:
            for found in rule_text.contradictions(rules, options, quantities, events, forced_bets):
                self.error(found.pointer, DiagnosticCode.RULE_TEXT, found.message)
        if any(not diagnostic.is_warning for diagnostic in self.diagnostics):
            return None
        return Spec(
            name=self.doc.get("name", ""),
            title=self.doc.get("title", ""),
            description=self.doc.get("description", ""),
            path=self.merged.path,
            files=tuple(self.merged.files),
            hash=self.merged.hash,
            abstract=self.abstract,
            rules=rules,
            options=options,
            variables=variables,
            primitives=primitives,
            quantities=quantities,
            states=states,
            initial=initial,
            procedure_rules=dict(self.table("procedure_rules")),
            events=events,
            transitions=transitions,
            push_rulings=push_rulings,
            checks=checks,
            inputs=inputs,
            roles=roles,
            forced_bets=forced_bets,
            streets=streets,
            street_values=street_values,
            deal_inputs=deal_inputs,
            next_hand=next_hand,
            game=game,
            rake=rake,
            payments=payments,
        )


def _game_problems(game: Game, dealt: bool) -> list[tuple[str, str]]:
    """What keeps a game's cards from being dealt or ranked as written, each with where."""
    found: list[tuple[str, str]] = []
    if dealt and not any(deal.hole for deal in game.deals):
        found.append(("the game deals no hole cards: give the seats theirs (hole, on the first street)", "/game/deals"))
    if len(game.showdown) == 2:
        high, low = game.showdown
        if high in vocabulary.LOW_HAND_KINDS or low not in vocabulary.LOW_HAND_KINDS:
            lows = ", ".join(vocabulary.LOW_HAND_KINDS)
            found.append(
                (f"a split game lists its high hand, then its low ({lows}), not {high}, {low}", "/game/showdown")
            )
    held = 0
    for deal in game.deals:
        if deal.discard and deal.draw:
            message = f"the {deal.street} both draws and discards: a draw replaces what it discards, a discard does not"
            found.append((message, f"/game/deals/{deal.street}"))
        elif deal.discard > held:
            message = f"the {deal.street} discards {deal.discard} of the {held} hole cards dealt before it"
            found.append((message, f"/game/deals/{deal.street}/discard"))
        held += len(deal.hole) - deal.discard
    board = sum(deal.board for deal in game.deals)
    if dealt and game.boards > 1 and not board:
        found.append((f"the game deals {game.boards} boards of no board cards", "/game/boards"))
    if game.boards_when and game.boards == 1:
        found.append(("boards_when chooses between one board and more: give boards (2)", "/game/boards_when"))
    needed = max((vocabulary.HANDS[kind].board for kind in game.showdown if kind in vocabulary.HANDS), default=0)
    if dealt and board < needed:
        message = f"a hand of {', '.join(game.showdown)} takes {needed} board cards; the game deals {board}"
        found.append((message, "/game/showdown"))
    wanted = 2 * sum(len(deal.hole) for deal in game.deals) + board * game.boards
    if dealt and wanted > len(game.ranks) * len(game.suits):
        message = (
            f"the deck holds {len(game.ranks) * len(game.suits)} cards; two seats are dealt {wanted}"
            " (draws aside): give a larger deck"
        )
        found.append((message, "/game/deck"))
    if dealt and game.opening != "position" and not (game.deals and any(game.deals[0].hole)):
        message = f"opening {game.opening} decides from the upcards: deal the first street one face up"
        found.append((message, "/game/opening"))
    return found


#: What one of a section's entries is called, in a suggested name.
_NOUNS = {
    "options": "option",
    "inputs": "input",
    "deal_inputs": "input",
    "street_values": "value",
    "roles": "seat",
    "quantities": "amount",
}


def _expressions(
    events: dict[str, Event],
    transitions: list[Transition],
    quantities: dict[str, Quantity],
    roles: dict[str, Role],
    checks: tuple[Check, ...],
    forced_bets: tuple[ForcedBet, ...],
    push_rulings: tuple[PushRuling, ...],
    next_hand: NextHand | None,
) -> list[Expr]:
    """Every expression of a spec: what its names may be read by."""
    found = hand_expressions(events, transitions, quantities, roles, checks, forced_bets)
    found += [x for ruling in push_rulings for x in (ruling.when, ruling.to) if x is not None]
    if next_hand is not None:
        found += [next_hand.button, *next_hand.inputs.values()]
    return found


def _reserved(name: str) -> str | None:
    """Why a spec may not declare ``name`` (vocabulary.RESERVED_IDENTIFIERS), or None."""
    if name not in vocabulary.RESERVED_IDENTIFIERS:
        return None
    if name in vocabulary.RESERVED:
        return "the expression language has it"
    if name in vocabulary.PYTHON_KEYWORDS:
        return "it is a Python keyword"
    for section, names in vocabulary.PARAMETERS.items():
        if name in names:
            taker = {"options": "an engine's constructor", "inputs": "a table", "deal_inputs": "a deal"}[section]
            return f"{taker} takes {name!r} beside its {section.replace('_', ' ')}"
    if name in vocabulary.OPTION_CHECKS.values() or name == vocabulary.OPTION_CAST:
        return "an engine's constructor calls it to check its options"
    return "it is a Python builtin, which generated code would hide"


def _possible(transitions: list[Transition], quantities: Mapping[str, Quantity]) -> list[Transition]:
    """The transitions a concrete spec can take: a shared one whose guard reads a quantity this
    structure makes constant false (``skips_preflop`` where no hand skips it) is not in its machine."""
    known: dict[str, object] = {}
    for name, quantity in quantities.items():  # in dependency order
        has_value, value = ex.constant_value(quantity.expr.tree, known)
        if has_value:
            known[name] = value
    out = []
    for transition in transitions:
        if transition.guard is not None and ex.constant_value(transition.guard.tree, known) == (True, False):
            continue
        out.append(transition)
    return out


def _input_fits(kind: str, value: object, items: tuple[str, ...], per_seat: bool, choices: tuple[str, ...]) -> bool:
    """Whether a JSON default is a value of an input (a per-seat one: the value of every seat)."""
    if per_seat:
        return _fits(kind, value)
    if kind == "seats":
        return isinstance(value, list) and all(_fits("int", v) and v >= 0 for v in value)
    if items:
        return isinstance(value, list) and len(value) == len(items) and all(_fits("int", v) for v in value)
    if kind == "choice":
        return value in choices
    if kind in ("seat", "seat?"):
        return (kind == "seat?" and value is None) or (_fits("int", value) and value >= 0)  # type: ignore[operator]
    return _fits(kind, value)


def _assignable(got: Type, want: Type) -> bool:
    return got is want or (want is Type.OPT_INT and got in (Type.INT, Type.NONE))


#: What a value of each declared type is written as in JSON.
_WRITTEN = {
    "int": "a whole number, such as 3",
    "int?": "a whole number, such as 3, or null for none",
    "bool": "true or false",
    "seat": "a seat number, 0 or more",
    "seat?": "a seat number, 0 or more, or null for none",
    "seats": "a list of seat numbers, such as [0, 2]",
}


def _type_hint(kind: str, value: object, choices: tuple[str, ...] = ()) -> str:
    """How to write ``value`` as a ``kind``: the value it was probably meant to be, else what a
    value of the type looks like."""
    numeric = kind in ("int", "int?", "seat", "seat?")
    if isinstance(value, str) and numeric and value.strip().lstrip("-").isdigit() and len(value) < 20:
        return f": write {int(value)} (a number, without quotes)"
    if isinstance(value, str) and kind == "bool" and value.strip().lower() in ("true", "false"):
        return f": write {value.strip().lower()} (without quotes)"
    if isinstance(value, str) and value.strip().lower() in ("null", "none") and kind.endswith("?"):
        return ": write null (without quotes)"
    if isinstance(value, float) and numeric and value.is_integer() and abs(value) < 1e15:
        return f": write {int(value)} (chips and counts are whole numbers)"
    if isinstance(value, bool) and numeric:
        return f": write a whole number ({'1' if value else '0'}?), or make the type 'bool'"
    if isinstance(value, int) and kind == "bool" and value in (0, 1):
        return f": write {'true' if value else 'false'}"
    if value is None and kind in ("int", "seat"):
        return f": null is no {kind}; give {_WRITTEN[kind]}, or make the type '{kind}?' to allow none"
    if kind == "choice" and choices:
        return f": give one of {', '.join(repr(c) for c in choices)}"
    written = _WRITTEN.get(kind)
    return f": {_a(kind)} is written {written}" if written else ""


def _fits(kind: str, value: object) -> bool:
    if kind == "bool":
        return isinstance(value, bool)
    is_int = isinstance(value, int) and not isinstance(value, bool)
    return is_int or (kind == "int?" and value is None)


def _dependency_order(deps: dict[str, set[str]]) -> tuple[list[str], list[str]]:
    """Names in an order where each comes after what it uses; and the names on cycles."""
    order: list[str] = []
    state: dict[str, int] = {}  # 1 visiting, 2 done
    cyclic: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            cyclic.update(path[path.index(name) :])
            return
        state[name] = 1
        for dep in sorted(deps.get(name, ())):
            if dep in deps:
                visit(dep, [*path, dep])
        state[name] = 2
        if name not in cyclic:
            order.append(name)

    for name in sorted(deps):
        visit(name, [name])
    return [n for n in order if n not in cyclic], sorted(cyclic)


def check(merged: Merged) -> tuple[Spec | None, list[Diagnostic]]:
    checker = _Checker(merged)
    spec = checker.run()
    return spec, sorted({merged.attributed(diagnostic) for diagnostic in checker.diagnostics})


def _a(kind: str) -> str:
    """A type's name with its article: "an int", "an int?", "a bool", "a seat"."""
    return ("an " if kind[:1] in "aeiou" else "a ") + kind
