"""The engine plan (betspec.backends.plan), without printing: scopes, locals, callbacks, steps,
the view, forced bets and the quantities functions read, as trees; and the two engine back ends
as printers of it, sharing no private name and editing no printed text."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Mapping
from functools import cache

import pytest

from betspec.backends import ir, plan
from betspec.backends.pyexpr import ACCESSORS, MODEL, Symbol, python, source
from betspec.frontend import load_spec
from betspec.model import Input, Spec
from tests.conftest import ROOT, SPEC_DIR

BACKENDS = ROOT / "generator" / "betspec" / "backends"


@cache
def spec(name: str) -> Spec:
    loaded, diagnostics = load_spec(str(SPEC_DIR / f"{name}.json"))
    assert loaded is not None, diagnostics
    return loaded


def test_a_scope_reads_the_engine_and_the_seat_it_is_named_for() -> None:
    nl = spec("no_limit")
    m = plan.scope(nl, "m", ACCESSORS)
    assert source(m["stack"].tree) == "m._behind[m._actor]"
    assert source(m[MODEL].tree) == "m"
    about = plan.scope(nl, "self", ACCESSORS, seat="seat")
    assert source(about["stack"].tree) == "self._behind[seat]"
    assert source(about["actor"].tree) == "seat"
    given = plan.scope(nl, "self", ACCESSORS, given="t")
    assert source(given["big_blind"].tree) == "t._in_big_blind"


def test_a_scope_is_built_once_and_each_caller_gets_a_copy_of_its_own() -> None:
    nl = spec("no_limit")
    first = plan.scope(nl, "m", ACCESSORS)
    first["stack"] = first["to"]  # a caller changing its copy (the view rebinds bet_level so)
    second = plan.scope(nl, "m", ACCESSORS)
    assert source(second["stack"].tree) == "m._behind[m._actor]"
    assert second["big_blind"] is plan.scope(nl, "m", ACCESSORS)["big_blind"]  # the symbols shared
    assert source(plan.scope(nl, "self", ACCESSORS)["stack"].tree) == "self._behind[self._actor]"


def test_a_quantity_read_twice_is_one_local_and_only_kept_if_read() -> None:
    nl = spec("no_limit")
    symbols = plan.scope(nl, "self", ACCESSORS, seat=plan.ACTOR)
    tree = ast.parse("call_amount + call_amount", mode="eval").body
    locals_, local = plan.hoisted([tree, tree], nl, symbols)
    names = [name for name, _ in locals_]
    assert "call_amount_" in names
    assert source(local["call_amount"].tree) == "call_amount_"
    assert plan.kept(locals_, []) == []
    read = ast.parse("call_amount_", mode="eval").body
    assert [name for name, _ in plan.kept(locals_, [read])][-1] == "call_amount_"


def test_identical_bodies_are_one_callback_and_every_transition_names_its_own() -> None:
    nl = spec("no_limit")
    found = plan.callbacks(nl, plan.scope(nl, "m", ACCESSORS))
    assert set(found.of) == set(range(len(nl.transitions)))
    effects = [effect for _, effect in found.of.values() if effect is not None]
    assert len(set(effects)) == len(found.effects) < len(effects)  # shared: fold and timeout, the end of a round
    for name, effect in found.effects.items():
        assert name.startswith("do_") and effect.body
        assert all(isinstance(s, plan.Let | plan.Store | plan.Do) for s in effect.body)
    for name, guard in found.guards.items():
        assert name.startswith("when_") and isinstance(guard.test, ast.expr)
    # The start event's own effects are not its transitions' (they run before the guards choose).
    assert "post_blinds" in found.starts
    assert any(isinstance(s, plan.Do) and s.primitive == "post_forced_bets" for s in found.starts["post_blinds"])


def test_a_run_of_assignments_reads_the_state_before_it_sets_it() -> None:
    nl = spec("no_limit")
    found = plan.callbacks(nl, plan.scope(nl, "m", ACCESSORS))
    (raise_index,) = [i for i, t in enumerate(nl.transitions) if t.event == "raise"]
    body = found.effects[found.of[raise_index][1] or ""].body
    stores = [i for i, s in enumerate(body) if isinstance(s, plan.Store)]
    lets = [i for i, s in enumerate(body) if isinstance(s, plan.Let)]
    assert stores and max(lets) < min(stores)  # every new value computed before any is set
    assert [s.primitive for s in body if isinstance(s, plan.Do)] == ["commit", "pass_action"]


def test_steps_are_grouped_by_source_and_the_automatic_ones_keep_the_spec_order() -> None:
    nl = spec("no_limit")
    found = plan.callbacks(nl, plan.scope(nl, "m", ACCESSORS))
    by_source = plan.steps_by_source(nl, "end_round", found.of)
    assert set(by_source) == {"unopened", "facing_bet"}
    rules = [t.rule for t, _ in by_source["unopened"]]
    assert rules == [t.rule for t in nl.transitions if t.event == "end_round" and t.source == "unopened"]
    assert plan.alike(by_source) == [["unopened", "facing_bet"]]  # both do the same: one branch
    automatic = plan.automatic_steps(nl, found.of)
    assert [t.rule for t, _ in automatic["unopened"]] == rules


def test_an_event_s_transitions_are_moves_per_group_of_sources_alike() -> None:
    nl = spec("no_limit")
    found = plan.callbacks(nl, plan.scope(nl, "m", ACCESSORS))
    raise_ = plan.event_moves(nl, nl.events["raise"], found.of)
    steps = plan.steps_by_source(nl, "raise", found.of)
    assert [list(sources) for sources, _ in raise_.branches] == plan.alike(steps)
    for sources, take in raise_.branches:
        assert take.with_to and take.done == "return" and not take.last
        assert [m.effect for m in take.moves] == [effect for _, effect in steps[sources[0]]]
        assert [m.dest for m in take.moves] == [None if t.dest == t.source else t.dest for t, _ in steps[sources[0]]]
        assert [m.guard is None for m in take.moves] == [t.guard is None for t, _ in steps[sources[0]]]
    assert plan.event_moves(nl, nl.events["raise"], found.of, last=True).branches[0][1].last
    settle = plan.settle_moves(nl, found.of)
    assert settle.local and {take.done for _, take in settle.branches} == {"continue"}
    assert not any(take.last for _, take in settle.branches)  # the loop goes on after a move


def test_an_input_s_check_is_chosen_by_its_type_and_what_it_holds() -> None:
    def item(kind: str, **declared: object) -> Input:
        return Input("x", kind, False, 0, "", "", **declared)  # type: ignore[arg-type]

    assert plan.input_check(item("seats")) == ir.InputCheck("seats_input", "x", seats=True)
    assert plan.input_check(item("seat?")).function == "optional_seat_input"
    blinds = plan.input_check(item("int", items=("small", "big"), minimum=0))
    assert (blinds.function, blinds.items, blinds.bounds) == ("items_input", 2, (0, None))
    antes = plan.input_check(item("int?", per_seat=True, maximum=9))
    assert antes.seats and antes.element == ir.InputCheck("optional_int_input", "x", bounds=(None, 9))
    assert antes.functions() == {"per_seat_input", "optional_int_input"}
    kills = plan.input_check(item("bool", per_seat=True))
    assert kills.element is not None and kills.element.bounds is None
    assert plan.input_check(item("choice", choices=("a", "b"))).choices == ("a", "b")
    assert plan.input_check(item("int", minimum=1, maximum=5)).bounds == (1, 5)
    for unknown in (item("text"), item("seat", per_seat=True)):
        with pytest.raises(LookupError, match="type"):
            plan.input_check(unknown)
        given = plan.given(unknown)
        assert given.check is None and "type" in given.unchecked  # a printer refuses it, saying so
    given = plan.given(item("int?", per_seat=True, maximum=9))
    assert given.check == antes and not given.unchecked and given.names == ("x",)


def test_the_plan_declares_the_spec_s_inputs_in_its_order() -> None:
    for name in ("no_limit", "seven_card_stud", "triple_draw"):
        found = spec(name)
        planned = plan.engine_plan(found)
        assert [g.name for g in planned.inputs] == list(found.inputs)
        assert [g.name for g in planned.deal_inputs] == list(found.deal_inputs)
        for given, item in zip(planned.inputs, found.inputs.values(), strict=True):
            assert (given.type, given.required, given.default, given.names) == (
                item.type,
                item.required,
                item.default,
                item.names,
            )
            assert given.check == plan.input_check(item)
        assert [(o.name, o.type, o.default, o.choices) for o in planned.options] == [
            (o.name, o.type, o.default, o.choices) for o in found.options.values()
        ]
        assert all(o.check is not None and planned.option(o.name) is o for o in planned.options)
        assert planned.option("no such option") is None
        assert [(st.name, st.phase) for st in planned.states] == [(st.name, st.phase) for st in found.states.values()]
        assert planned.initial == found.initial and planned.streets == tuple(st.name for st in found.streets)
        for value in planned.street_values:
            assert value.values == tuple(street.values[value.name] for street in found.streets)
        assert planned.role_names == tuple(found.roles)
        assert [r.id for r in planned.rules] == list(found.rules)
        assert dict(planned.procedure_rules) == found.procedure_rules
        for event in found.events.values():
            assert set(planned.sources[event.name]) == {t.source for t in found.transitions if t.event == event.name}
        assert planned.own_actions == tuple(e.name for e in found.events.values() if e.own)
        assert [q.name for q in planned.quantities] == list(found.quantities)  # the dependency order
        for quantity in planned.quantities:
            model = found.quantities[quantity.name]
            assert ast.dump(quantity.tree) == ast.dump(model.expr.tree) and planned.quantity(quantity.name) is quantity
            assert (quantity.per_seat, quantity.needs_to, quantity.type) == (model.per_seat, model.needs_to, model.type)
        assert planned.quantity("no such quantity") is None
        assert [(e.name, e.kind, e.blinds, e.own, e.params, e.has_effects) for e in planned.events] == [
            (e.name, e.kind, e.blinds, e.own, e.params, bool(e.effects)) for e in found.events.values()
        ]
        for event in planned.events:
            assert event.fired == any(t.event == event.name for t in found.transitions)
            assert event.rule == first_rule(found, event.name)
            model = found.events[event.name].requires
            assert [(r.needs_to, r.error, r.rule, r.message) for r in event.requires] == [
                (r.needs_to, r.error, r.rule, r.message) for r in model
            ]
            # (another load of the same spec may have built the plan: trees compare by their dump)
            assert [ast.dump(r.expr.tree) for r in event.requires] == [ast.dump(m.expr.tree) for m in model]
        assert [(t.event, t.source, t.dest, t.guard, t.rule) for t in planned.transitions] == [
            (t.event, t.source, t.dest, None if t.guard is None else t.guard.text, t.rule) for t in found.transitions
        ]
        assert [(v.name, v.type, v.declared) for v in planned.variables] == [
            (v.name, v.type, v.declared) for v in found.variables.values()
        ]
        assert [ast.dump(tree) for tree in planned.hand_expressions] == [
            ast.dump(expr.tree) for expr in found.hand_expressions()
        ]
        assert planned.primitives == tuple(found.primitives)
        assert set(planned.spec_fields) == {f.name for f in dataclasses.fields(found) if getattr(found, f.name)}


def first_rule(found: Spec, event: str) -> str:
    """The rule an action not possible now breaks, as the rulebook tables list it: its first
    transition's."""
    return next((t.rule for t in found.transitions if t.event == event), "")


def test_the_push_rulings_return_the_first_that_applies_or_a_withdrawal() -> None:
    nl = spec("no_limit")
    body = plan.push_ruling_method(nl).body
    rulings = list(nl.push_rulings)
    always = next((i for i, r in enumerate(rulings) if r.when.is_constant and r.when.constant is True), None)
    kept = rulings if always is None else rulings[: always + 1]
    assert len(body) == len(kept) + (always is None)
    for statement, entry in zip(body, kept, strict=False):
        returned = statement if isinstance(statement, ir.Returns) else statement.body[0]  # type: ignore[union-attr]
        assert isinstance(returned, ir.Returns)
        assert returned.values[0] == ir.Const(entry.ruling) and returned.values[2] == ir.Const(entry.rule)
    if always is None:
        assert body[-1] == ir.Returns((ir.Const("withdraw"), ir.Const(None), ir.Const("")))


def test_the_refusal_asks_each_action_its_sources_then_its_requirements_not_reading_to() -> None:
    nl = spec("no_limit")
    actions = [e for e in plan.engine_plan(nl).events if e.kind == "action"]
    method = plan.refusal_method(actions)
    assert method.name == "_refusal" and method.body[-1] == ir.Returns((ir.Const(None),))
    for event, branch in zip(actions, method.body, strict=False):
        assert isinstance(branch, ir.If) and branch.test == ir.ActionIs(event.name)
        first, *checks, last = branch.body
        assert isinstance(first, ir.If) and first.test == ir.NotFrom(event.name)
        assert first.body == (
            ir.Reject(
                "illegal_action", first_rule(nl, event.name), "not possible now", event.name, ir.Local("to"), True
            ),
        )
        wanted = [r for r in event.requires if not r.needs_to]
        assert [(c.otherwise.error, c.otherwise.rule) for c in checks if isinstance(c, ir.Require)] == [
            (r.error, r.rule) for r in wanted
        ]
        assert len(checks) == len(wanted) and last == ir.Returns((ir.Const(None),))


def test_the_view_plans_legality_the_call_and_bounds_per_wager() -> None:
    nl = spec("no_limit")
    symbols = plan.scope(nl, "self", ACCESSORS, seat=plan.ACTOR)
    chosen = plan.chosen_actions(nl)
    assert [e.name for e in chosen] == sorted(e.name for e in chosen)
    view = plan.view_plan(nl, symbols, chosen, lambda event, local: plan.legal_when(ast.Constant(True), event, local))
    assert set(view.legal) == {e.name for e in chosen}
    assert [action for action, _, _ in view.bounds] == [a for a in ("bet", "raise") if a in view.legal]
    assert isinstance(view.call, ast.expr)
    trees = [*view.legal.values(), view.call, *(t for _, low, high in view.bounds for t in (low, high))]
    trees += [tree for _, tree in view.locals]
    read = {node.id for tree in trees for node in ast.walk(tree) if isinstance(node, ast.Name)}
    assert view.locals and all(name in read for name, _ in view.locals)  # only the locals something reads


@pytest.mark.parametrize("name", ["no_limit", "seven_card_stud"])
def test_the_forced_bets_method_posts_each_bet_in_order_with_its_flags(name: str) -> None:
    structure = spec(name)
    method = plan.forced_bets_method(structure)
    calls = [
        [node for node in _walk(block) if isinstance(node, ir.Call)]
        for block in method.body
        if isinstance(block, ir.Block)
    ]
    assert len(calls) == len(method.body) and all(len(found) == 1 for found in calls)
    posted = [dict(found[0].args) for found in calls]
    names = [bet.name for bet in structure.forced_bets]
    by_what = {name.replace("_", " "): bet for name, bet in zip(names, structure.forced_bets, strict=True)}
    order = [name.replace("_", " ") for name in names]
    whats = [args["what"].value for args in posted if isinstance(args["what"], ir.Const)]
    assert whats == [what for what in order if what in whats]  # posting order, never-posted ones left out
    for args in posted:
        bet = by_what[str(getattr(args["what"], "value", ""))]
        flags = {key: getattr(args[key], "value", None) for key in ("live", "dead_money", "order", "in_full")}
        assert flags == {"live": bet.live, "dead_money": bet.dead_money, "order": bet.order, "in_full": bet.in_full}
    if name == "no_limit":
        big = next(args for args in posted if getattr(args["what"], "value", "") == "big blind")
        assert getattr(big["order"], "value", "") == "starts_after"


def _walk(node: ir.Statement) -> list[ir.Statement]:
    found: list[ir.Statement] = [node]
    for child in getattr(node, "body", ()):
        found += _walk(child)
    return found


def test_the_quantities_called_are_found_on_trees_transitively() -> None:
    nl = spec("no_limit")
    symbols = plan.scope(nl, "m", ACCESSORS)
    called = [name for name, q in nl.quantities.items() if not symbols[name].inlined and not q.per_seat]
    assert called, "no_limit has a quantity too long to write in place"
    name = called[0]
    formulas: dict[str, ast.expr] = {q: ast.Constant(0) for q in nl.quantities}
    inner = next(q for q in nl.quantities if q != name)
    formulas[name] = ast.parse(f"{plan.quantity_function(inner)}(m)", mode="eval").body
    found = plan.quantities_called(nl, [symbols[name].tree], formulas)
    assert found == {name, inner}
    assert plan.quantities_called(nl, [ast.parse("m._pot", mode="eval").body], formulas) == set()


def _imports(path: str) -> set[tuple[str, str]]:
    tree = ast.parse((BACKENDS / path).read_text())
    return {
        (node.module or "", alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_neither_engine_back_end_reads_the_other_or_edits_printed_text() -> None:
    for printer, other in (("python.py", "cython"), ("cython.py", "python"), ("typescript.py", "python")):
        imported = _imports(printer)
        assert not {(module, name) for module, name in imported if module == f"betspec.backends.{other}"}, printer
        assert ("betspec.backends", other) not in imported, printer
        private = {
            (module, name)
            for module, name in imported
            if name.startswith("_") and not name.startswith("__") and module != "__future__"
        }
        assert not private, (printer, private)
        text = (BACKENDS / printer).read_text()
        assert "import re" not in text, printer  # no pattern matched over generated code
        assert '.replace("m."' not in text and ".replace('self._n'" not in text, printer
        assert "line.replace(" not in text and "lines.replace(" not in text, printer  # no printed line edited
        assert '"engine.py"' not in text and "RUNTIME_ENGINE" not in text, printer  # no runtime source read


def test_the_engine_plan_is_built_once_a_spec_for_every_engine_back_end(monkeypatch: pytest.MonkeyPatch) -> None:
    from betspec.backends import cython, python, typescript

    built: list[str] = []
    build = plan._built

    def counted(found: Spec) -> plan.EnginePlan:
        built.append(found.name)
        return build(found)

    monkeypatch.setattr(plan, "_BUILT", {})
    monkeypatch.setattr(plan, "_built", counted)
    nl = spec("no_limit")
    for backend in (python.BACKEND, cython.BACKEND, typescript.BACKEND):
        assert backend.render([nl], str(ROOT))
    assert built == ["no_limit"]
    planned = plan.engine_plan(nl)
    assert planned is plan.engine_plan(nl) and built == ["no_limit"]
    actions = [e for e in plan.plan_events(nl) if e.kind == "action"]
    assert _shape(planned.refusal) == _shape(plan.refusal_method(actions))
    assert _shape(planned.roles) == _shape(plan.roles_method(nl))
    assert _shape(planned.next_hand) == _shape(plan.next_hand_method(nl))


def test_the_forced_bets_never_posted_are_left_out_alike_for_every_engine() -> None:
    """Whether the structure ever posts a forced bet is folded from the spec, not from a target's
    way of reading it: the plan the three engines share."""
    from betspec.backends import cython, python, typescript

    for name in ("no_limit", "fixed_limit", "seven_card_stud", "triple_draw"):
        found = spec(name)
        shared = plan.forced_bets_method(found)
        assert _shape(shared) == _shape(plan.engine_plan(found).forced_bets)
        for symbols in (python._symbols(found, "self"), cython._symbols_of(found, "self"), typescript._symbols(found)):
            kept = [bet for bet in found.forced_bets if bet.when is None or not _never(bet.when.tree, symbols)]
            assert len(shared.body) == len(kept), name


def _shape(value: object) -> object:
    """A plan value as plain data, its trees dumped: plans built from two loads of one spec
    compare equal (ast nodes compare by identity)."""
    if isinstance(value, ast.AST):
        return ast.dump(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, *(_shape(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, tuple | list):
        return tuple(_shape(item) for item in value)
    return value


def _never(tree: ast.expr, symbols: Mapping[str, Symbol]) -> bool:
    folded = python(tree, symbols)
    return isinstance(folded, ast.Constant) and folded.value is False


#: What a printer may read of the model: names, and the header's facts.
NAMING = {"name", "title", "class_name", "hash", "description", "files", "abstract"}
#: What a printer may import from the model: the spec's type, and vocabularies (the types of
#: values, the comparison operators).
MODEL_IMPORTS = {"Spec", "Type", "COMPARE"}


@pytest.mark.parametrize("printer", ["python.py", "cython.py", "typescript.py"])
def test_a_printer_reads_the_model_for_names_only(printer: str) -> None:
    """Everything else an engine printer prints comes from the engine plan: it reads no field of
    the spec but its names, imports none of the model's node types, and does not reflect on it."""
    tree = ast.parse((BACKENDS / printer).read_text())
    reads = [
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr not in NAMING
        and (
            (isinstance(node.value, ast.Name) and node.value.id == "spec")
            or (isinstance(node.value, ast.Attribute) and node.value.attr == "spec")
        )
    ]
    assert reads == []
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "betspec.model"
        for alias in node.names
    }
    assert imported <= MODEL_IMPORTS
    reflected = [
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in {"getattr", "vars", "fields"}
        and any(isinstance(arg, ast.Name) and arg.id == "spec" for arg in node.args)
    ]
    assert reflected == []


def test_an_effect_is_named_after_what_it_does_not_after_its_first_transition() -> None:
    nl = spec("no_limit")
    found = plan.callbacks(nl, plan.scope(nl, "m", ACCESSORS))
    named = {(t.event, t.rule): found.of[i][1] for i, t in enumerate(nl.transitions)}
    # One effect for the end of a round however it ends: it closes the round.
    assert {named[("end_round", rule)] for rule in ("UNCONTESTED", "SHOWDOWN", "RUNOUT", "ROUND-END")} == {
        "do_close_round"
    }
    # The street after a bomb pot's antes and a new street's deal do the same: a new round.
    assert named[("post_blinds", "ORDER")] == named[("deal", "MIN-RESET")]
    assert named[("deal", "MIN-RESET")] == "do_set_last_raise_last_full_level_raises_begin_street_open_betting"
    assert named[("fold", "FOLD")] == named[("timeout", "CLOCK")] == "do_fold_pass_action"
    assert named[("call", "CALL")] == "do_commit_pass_action"
    assert len(set(found.effects)) == len(found.effects)
