"""The runtime mechanisms generated engines call, declared once for the three runtimes.

A mechanism is a method of the hand every runtime provides (the Python ``Engine``, the kernels'
``Kernel``, the TypeScript ``Engine``): a primitive an effect runs, the last hop of a forced bet, a
question about the seats. Each is declared here with its parameters in order and the kind of each;
a kind is a type per runtime (:data:`KINDS`). The printers call a mechanism with its arguments in
this order; ``tests/test_mechanisms.py`` reads the three runtimes' own signatures (Python's by
inspection, the kernel's ``.pxd``, the TypeScript source) against this, and the TypeScript back end
prints :data:`MECHANISMS` as the interface ``Mechanisms`` (``src/mechanisms.ts``), which the
TypeScript runtime's ``Engine`` implements, so that ``tsc --strict`` checks it too. The contract's
digest (:mod:`betspec.runtime.contract`) covers these signatures.
"""

from __future__ import annotations

from dataclasses import dataclass

from betspec.vocabulary import FORCED_BET_ORDERS


@dataclass(frozen=True)
class Kind:
    """What a parameter or a result is, as each runtime types it."""

    python: str
    cython: str
    typescript: str


#: The kinds of values mechanisms take and give. ``order`` is a word of
#: vocabulary.FORCED_BET_ORDERS in every runtime; ``nothing`` is a result of none (a kernel's
#: mechanisms return an int, -1 on an exception).
KINDS: dict[str, Kind] = {
    "seat": Kind("int", "int", "number"),
    "street": Kind("int", "int", "number"),
    "count": Kind("int", "int", "number"),
    "chips": Kind("int", "chips_t", "number"),
    "flag": Kind("bool", "bint", "boolean"),
    "order": Kind("str", "str", "string"),
    "words": Kind("str", "str", "string"),
    "seats": Kind("range | list[int]", "", "number[]"),
    "nothing": Kind("None", "int", "void"),
}

#: The runtimes, by the name the kinds use.
RUNTIMES = ("python", "cython", "typescript")


@dataclass(frozen=True)
class Param:
    name: str
    kind: str


@dataclass(frozen=True)
class Mechanism:
    """A method of the hand: ``params`` in the order every runtime takes them, ``returns`` the
    kind of its result, ``runtimes`` those that provide it (a kernel walks the table itself)."""

    name: str
    params: tuple[Param, ...]
    returns: str
    does: str
    runtimes: tuple[str, ...] = RUNTIMES


def _m(name: str, params: str, returns: str, does: str, runtimes: tuple[str, ...] = RUNTIMES) -> Mechanism:
    """A mechanism from ``"name: kind, ..."``."""
    pairs = [part.split(":") for part in params.split(",") if part.strip()]
    return Mechanism(name, tuple(Param(n.strip(), k.strip()) for n, k in pairs), returns, does, runtimes)


MECHANISMS: tuple[Mechanism, ...] = (
    _m("_put", "seat: seat, amount: chips", "nothing", "move chips from a seat's stack into the pot"),
    _m(
        "_post",
        "seat: seat, amount: chips, what: words, live: flag, dead_money: flag, order: order, in_full: flag",
        "nothing",
        "post a forced bet (all the seat has if less, unless in_full), live or dead, in the order given",
    ),
    _m("_begin_street", "street: street", "nothing", "start a street's betting: nobody has put in or acted"),
    _m("_open_betting", "after: seat", "nothing", "the first seat after `after` that has to act is to act"),
    _m("_commit", "to: chips", "nothing", "the seat to act puts in up to `to` on this street"),
    _m("_mark_checked", "", "nothing", "the seat to act has acted without putting chips in"),
    _m("_mark_folded", "", "nothing", "the seat to act is out of the hand"),
    _m("_mark_acted", "seat: seat", "nothing", "a seat has acted on the bet it faces"),
    _m("_pass_action", "", "nothing", "the next seat that has to act is to act, or nobody"),
    _m("_close_round", "", "nothing", "end the betting round: a bet nobody matched goes back"),
    _m("_deal_runout", "street: street", "nothing", "deal a street with nobody left to bet"),
    _m("_next_needing_action", "after: seat", "seat", "the first seat after `after` that has to act, or -1"),
    _m("_next_live", "seat: seat", "seat", "the next seat clockwise with chips"),
    _m("_prev_live", "seat: seat", "seat", "the previous seat counterclockwise with chips"),
    _m("_seats_left", "", "count", "how many seats have chips"),
    _m("_able_owing", "", "count", "how many seats that may still bet owe chips to the bet"),
    _m("_answerable", "", "flag", "whether a seat other than the one to act could answer a bet"),
    _m(
        "_from_button",
        "",
        "seats",
        "the seats clockwise from the button's left, the button last",
        ("python", "typescript"),
    ),
)

#: Each mechanism by its name.
BY_NAME: dict[str, Mechanism] = {mechanism.name: mechanism for mechanism in MECHANISMS}


def arguments(name: str, given: dict[str, str]) -> list[str]:
    """The arguments of a call of mechanism ``name`` (printed sources, by parameter), in its order:
    every printer calls a mechanism through this, so no call shape is written twice."""
    mechanism = BY_NAME[name]
    assert set(given) == {p.name for p in mechanism.params}, (name, sorted(given))
    return [given[param.name] for param in mechanism.params]


def named_arguments(name: str, given: dict[str, str]) -> list[str]:
    """:func:`arguments` with a flag or an order by its name, as Python and Cython may pass them,
    so that a call reads what each ``True`` is (the Python runtime's ``_post`` takes them only as
    keywords)."""
    mechanism = BY_NAME[name]
    ordered = arguments(name, given)
    return [
        f"{param.name}={value}" if param.kind in ("flag", "order") else value
        for param, value in zip(mechanism.params, ordered, strict=True)
    ]


def signatures() -> dict[str, object]:
    """The declarations as plain data, for the contract's digest."""
    return {
        "kinds": {name: [kind.python, kind.cython, kind.typescript] for name, kind in KINDS.items()},
        "orders": list(FORCED_BET_ORDERS),
        "mechanisms": [[m.name, [[p.name, p.kind] for p in m.params], m.returns, list(m.runtimes)] for m in MECHANISMS],
    }
