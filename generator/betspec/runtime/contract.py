"""The contract between generated engines and this runtime: everything they may touch of it.

What generated code may import (:data:`EXPORTED`), every member of ``Engine`` it may read, call
or set (:data:`ENGINE_MEMBERS`), what a generated class defines for the runtime to call
(:data:`ENGINE_HOOKS`), and what a kernel may touch of the kernels' runtime (:data:`KERNEL_*`); the
signatures of the mechanisms they call are declared in :mod:`betspec.runtime.mechanisms`.
``tests/test_contract.py`` fails when generated code uses a member of the runtime not declared
here. The Python back end writes a generated module's imports from :data:`EXPORTED` (and nothing
else), and stamps the module with :data:`ABI_VERSION` and :data:`CONTRACT`, a digest of these
lists and of the mechanisms' signatures; the module calls :func:`require_abi` when imported, so an
engine generated for another runtime (another version, or a member renamed, added or removed) fails
at once with a message that says what to do, instead of misbehaving later. Raise the version when what a member does
changes while its name stays.
"""

from __future__ import annotations

import hashlib
import json

from betspec.runtime import mechanisms

#: The version of this contract.
ABI_VERSION = 4

#: The names generated code may import, by module.
EXPORTED: dict[str, tuple[str, ...]] = {
    "betspec.runtime.contract": ("require_abi",),
    "betspec.runtime.engine": ("NO_VIEW", "Compiled", "Engine", "Said", "Steps", "View"),
    "betspec.runtime.errors": ("IllegalAction", "InvalidTable"),
    "betspec.runtime.functions": ("ceil_to", "floor_to"),
    "betspec.runtime.table": (
        "ABSENT",
        "MAX_CHIPS",
        "Declared",
        "Start",
        "Table",
        "bool_input",
        "bool_option",
        "choice_input",
        "choice_option",
        "int_input",
        "int_option",
        "items_input",
        "optional_int_input",
        "optional_int_option",
        "optional_seat_input",
        "per_seat_input",
        "required_input",
        "seat_input",
        "seats_input",
        "unknown_inputs",
    ),
}


#: The Engine method that takes each action of the vocabulary ("raise" is a Python keyword).
ACTION_METHODS: dict[str, str] = {
    "fold": "fold",
    "check": "check",
    "call": "call",
    "bet": "bet",
    "raise": "raise_to",
    "all_in": "all_in",
    "timeout": "timeout",
    "bring_in": "bring_in",
}


#: Every member of ``Engine`` (betspec.runtime.engine) generated engines may read, call or set on
#: a hand (``self``, ``m``) beside those they define: the state expressions read (the accessors),
#: the mechanisms effects call (the primitives), what action methods check and record.
ENGINE_MEMBERS: tuple[str, ...] = (
    # the state, read by expressions and the view
    "_able_count",
    "_acted",
    "_acted_at",
    "_actor",
    "_announced",
    "_behind",
    "_bet_level",
    "_button",
    "_contributed",
    "_declared",
    "_deferred",
    "_folded",
    "_forced_raises",
    "_last_full_level",
    "_last_live",
    "_last_raise",
    "_live",
    "_n",
    "_nominal",
    "_out_of_turn",
    "_paid",
    "_players_in",
    "_posted_live",
    "_pot",
    "_put_in",
    "_raises",
    "_returned",
    "_street",
    "_view",
    "next_street",
    # questions answered by the runtime
    "_able_owing",
    "_answerable",
    "_from_button",
    "_next_live",
    "_next_needing_action",
    "_prev_live",
    "_seats_left",
    # what next_hand reads of the settlement (vocabulary.SETTLEMENT_NAMES)
    "_settled_pot_carried",
    "_settled_pot_paid",
    "_settled_winner",
    "_settled_winner_profit",
    # the primitives and the forced bets' last hop
    "_begin_street",
    "_close_round",
    "_commit",
    "_deal_runout",
    "_mark_checked",
    "_mark_folded",
    "_open_betting",
    "_pass_action",
    "_post",
    "_put",
    # what action methods and the constructor call
    "_log",
    "_reject",
    "_require_amount",
    "_require_turn",
    "_setup",
)

#: What a generated engine class defines for the runtime to read or call: Engine's abstract
#: hooks and class variables, and the actions it takes.
ENGINE_HOOKS: tuple[str, ...] = (
    "AUTOMATIC",
    "DEAL",
    "DEAL_INPUTS",
    "DECLARED_VARIABLES",
    "GAME",
    "INITIAL",
    "OWN_ACTIONS",
    "PAYMENTS",
    "INPUTS",
    "OPTIONS",
    "OPTION_DEFAULTS",
    "PROCEDURE_RULES",
    "RAKE",
    "RULES",
    "SETTLE_LIMIT",
    "SPEC_HASH",
    "SPEC_NAME",
    "STATE_PHASE",
    "STREETS",
    "_all_in_to",
    "_all_playable",
    "_begin",
    "_check_table",
    "_compute_roles",
    "_compute_view",
    "_fire",
    "_hand_constants",
    "_load_deal",
    "_load_inputs",
    "_next_hand",
    "_odd_chip_after",
    "_payment_amounts",
    "_playable",
    "_post_forced_bets",
    "_push_ruling",
    "_rake_terms",
    "_refusal",
    "_settle",
    "_state",
    *ACTION_METHODS.values(),
    "deal",
)

#: Every member of ``Kernel`` (betspec/runtime/kernel.pxd) a kernel may read, call or set beside
#: those it declares, and of ``Inputs``.
KERNEL_MEMBERS: tuple[str, ...] = (
    "_able_count",
    "_able_owing",
    "_acted",
    "_acted_at",
    "_actor",
    "_answerable",
    "_begin_street",
    "_behind",
    "_bet_level",
    "_bound",
    "_button",
    "_call",
    "_close_round",
    "_commit",
    "_contributed",
    "_deal_runout",
    "_forced_raises",
    "_inputs",
    "_last_full_level",
    "_last_live",
    "_last_raise",
    "_legal",
    "_live",
    "_magnitude",
    "_mark_checked",
    "_mark_folded",
    "_max_to",
    "_min_to",
    "_n",
    "_nominal",
    "_open_betting",
    "_pass_action",
    "_players_in",
    "_post",
    "_posted_live",
    "_pot",
    "_put_in",
    "_raises",
    "_settle",
    "_state",
    "_street",
    "_viewed",
)


def _digest() -> str:
    lists = [ABI_VERSION, EXPORTED, ACTION_METHODS, ENGINE_MEMBERS, ENGINE_HOOKS, mechanisms.signatures()]
    return hashlib.sha256(json.dumps(lists, sort_keys=True).encode()).hexdigest()[:16]


#: A digest of the lists above: a generated module records the one it was generated against.
CONTRACT = _digest()


class AbiMismatch(ImportError):
    """A generated engine written for another version of the runtime contract."""


def require_abi(version: int, module: str, contract: str | None = None) -> None:
    """Refuse to import a generated module written for another contract: another version, or
    (``contract``, the digest it recorded) other members."""
    if version != ABI_VERSION:
        raise AbiMismatch(
            f"{module} was generated for betspec runtime ABI {version}, and this betspec runs ABI "
            f"{ABI_VERSION}: regenerate it with `betspec generate`"
        )
    if contract is not None and contract != CONTRACT:
        raise AbiMismatch(
            f"{module} was generated for another betspec runtime contract ({contract}; this betspec's "
            f"is {CONTRACT}: its members changed): regenerate it with `betspec generate`"
        )


#: What a generated kernel (the Cython back end's output) may cimport from the kernels'
#: runtime (betspec/runtime/kernel.pxd), and import from it. The install compiles the runtime
#: and every kernel together: a kernel built against another runtime is never loaded
#: (betspec.compiled), so no version is stamped on them.
KERNEL_CIMPORTS: dict[str, tuple[str, ...]] = {
    "betspec.runtime.kernel": (
        "Inputs",
        "Kernel",
        "Templates",
        "ceil_to",
        "chips_t",
        "floor_to",
        "remainder",
        "rounded_down",
        "rounded_up",
    ),
}
KERNEL_IMPORTS: dict[str, tuple[str, ...]] = {"betspec.runtime.kernel": ("KernelRefusal",)}
