"""The primitives effects run at every action and round, declared once as statements.

Each body here is the one source of a mechanism of :mod:`betspec.runtime.mechanisms` for the Python
runtime: ``betspec/runtime/primitives_printed.py`` (the methods ``Engine`` inherits) is printed
from it by ``python -m betspec.tools.primitives``, and the Python back end prints the same bodies
into a generated engine's effects, a call fewer per primitive. A body may call another declared
primitive on ``self``: both printers write the callee's statements in its place (a fused copy,
made here once instead of by hand). Statements are of the few kinds below; expressions are Python
expressions over ``self``, the parameters, the body's locals and :data:`CONSTANTS`, parsed from
their text, never run.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

#: The runtime's constants a body may read, written as their values wherever a body is printed.
CONSTANTS: dict[str, int] = {"NOT_BOUND": 0}


@dataclass(frozen=True)
class Assign:
    """``a = b = value``: each target an attribute, a subscript, a name, or a tuple of them."""

    targets: tuple[ast.expr, ...]
    value: ast.expr


@dataclass(frozen=True)
class AugAssign:
    target: ast.expr
    op: str
    value: ast.expr


@dataclass(frozen=True)
class Do:
    """An expression for what it does (a call)."""

    value: ast.expr


@dataclass(frozen=True)
class If:
    test: ast.expr
    body: tuple[Statement, ...]
    orelse: tuple[Statement, ...] = ()


@dataclass(frozen=True)
class For:
    target: str
    iter: ast.expr
    body: tuple[Statement, ...]


@dataclass(frozen=True)
class Return:
    """The body ends here (printed only as an effect's last statement, or in the runtime)."""


@dataclass(frozen=True)
class Comment:
    """Why the next statements are written as they are (printed in the runtime, not in engines)."""

    text: str


Statement = Assign | AugAssign | Do | If | For | Return | Comment

_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*"}


def _expr(text: str) -> ast.expr:
    return ast.parse(text, mode="eval").body


def s(text: str) -> Statement:
    """One simple statement from its text: an assignment, an augmented one, or a call."""
    (node,) = ast.parse(text).body
    if isinstance(node, ast.Assign):
        return Assign(tuple(node.targets), node.value)
    if isinstance(node, ast.AugAssign) and type(node.op) in _OPS:
        return AugAssign(node.target, _OPS[type(node.op)], node.value)
    if isinstance(node, ast.Expr):
        return Do(node.value)
    raise ValueError(f"not a simple statement of a primitive: {text!r}")


def if_(test: str, *body: Statement, orelse: tuple[Statement, ...] = ()) -> If:
    return If(_expr(test), body, orelse)


def for_(target: str, iterable: str, *body: Statement) -> For:
    return For(target, _expr(iterable), body)


@dataclass(frozen=True)
class Body:
    """A primitive's parameters (its mechanism's) and statements; ``doc``, its docstring."""

    name: str
    params: tuple[str, ...]
    statements: tuple[Statement, ...]
    doc: str = ""


_ACTED = (
    if_("seat == self._deferred", s("self._deferred = -1")),
    if_("self._out_of_turn", s("self._out_of_turn.pop(seat, None)")),
    s("self._declared = NOT_BOUND"),
    s("self._acted[seat] = True"),
)

BODIES: tuple[Body, ...] = (
    Body(
        "_mark_acted",
        ("seat",),
        (*_ACTED, s("self._acted_at[seat] = self._bet_level")),
        "``seat`` has acted on the bet it faces: a seat passed over no longer is, a declaration "
        "out of turn and a bound word are spent.",
    ),
    Body(
        "_open_betting",
        ("after",),
        (s("self._actor = self._next_needing_action(after)"),),
        "The first seat after ``after`` that still has to act is to act.",
    ),
    Body(
        "_commit",
        ("to",),
        (
            s("seat = self._actor"),
            s("put_in = self._put_in"),
            s("amount = to - put_in[seat]"),
            Comment("_put written out: an action's commonest path."),
            s("self._behind[seat] -= amount"),
            s("self._contributed[seat] += amount"),
            s("self._pot += amount"),
            s("live = self._live"),
            s("before = live[seat]"),
            s("after = live[seat] = self._playable(seat)"),
            if_(
                "(before > 0) != (after > 0) and not self._folded[seat]",
                s("self._able_count += 1 if after > 0 else -1"),
            ),
            s("put_in[seat] = to"),
            s("level = self._bet_level"),
            if_("to > level", s("level = self._bet_level = to")),
            Comment(
                "A commit that puts nothing in and leaves the seat short of the bet is no action on it: "
                "the seat keeps its turn to come and its option to raise (commit(committed) facing a bet). "
                "_mark_acted written out, the level read from the local."
            ),
            if_("amount or to >= level", *_ACTED, s("self._acted_at[seat] = level")),
        ),
        "The seat to act puts in up to ``to`` on this street.",
    ),
    Body(
        "_mark_checked",
        (),
        (s("seat = self._actor"), s("self._mark_acted(seat)")),
        "The seat to act has acted without putting chips in.",
    ),
    Body(
        "_mark_folded",
        (),
        (
            s("seat = self._actor"),
            if_("self._live[seat] > 0", s("self._able_count -= 1")),
            s("self._folded[seat] = True"),
            s("self._players_in -= 1"),
            s("self._mark_acted(seat)"),
        ),
        "The seat to act is out of the hand.",
    ),
    Body(
        "_pass_action",
        (),
        (
            Comment("_next_needing_action after the seat to act, written out: this runs after every action."),
            s("n, level, after = self._n, self._bet_level, self._actor"),
            s("live, folded, acted, put_in = self._live, self._folded, self._acted, self._put_in"),
            s("deferred = self._deferred"),
            for_(
                "step",
                "range(1, n + 1)",
                s("seat = (after + step) % n"),
                if_(
                    "live[seat] > 0 and not folded[seat] and (not acted[seat] or put_in[seat] < level) "
                    "and seat != deferred",
                    s("self._actor = seat"),
                    Return(),
                ),
            ),
            if_("deferred < 0 or live[deferred] <= 0 or folded[deferred]", s("self._actor = -1"), Return()),
            Comment("Every other player has acted: the passed-over seat's turn, if it still has to act."),
            s("self._actor = deferred if not acted[deferred] or put_in[deferred] < level else -1"),
        ),
        "The next seat that has to act is to act, or nobody.",
    ),
    Body(
        "_close_round",
        (),
        (
            s("self._actor = -1"),
            Comment(
                "The first seat with the largest commitment, and the largest of the others' (0 if none "
                "is larger), in one pass: commitments are never negative."
            ),
            s("put_in = self._put_in"),
            s("top, best, second = 0, put_in[0], 0"),
            for_(
                "seat",
                "range(1, self._n)",
                s("put = put_in[seat]"),
                if_(
                    "put > best",
                    s("top, best, second = seat, put, best"),
                    orelse=(if_("put > second", s("second = put")),),
                ),
            ),
            s("uncalled = best - second"),
            if_(
                "uncalled > 0",
                s("self._put(top, -uncalled)"),
                s("self._put_in[top] = second"),
                s("self._returned[top] += uncalled"),
            ),
        ),
        "End the betting round: a bet nobody matched goes back to its owner.",
    ),
    Body("_deal_runout", ("street",), (s("self._street = street"),), "Deal a street with nobody left to bet."),
)

#: Each body by its primitive's name.
BY_NAME: dict[str, Body] = {body.name: body for body in BODIES}
