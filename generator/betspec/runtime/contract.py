"""The contract between generated engines and this runtime: what they may import, and its version.

The Python back end writes a generated module's imports from :data:`EXPORTED` (and nothing
else), and stamps the module with :data:`ABI_VERSION`; the module calls :func:`require_abi` when
imported, so an engine generated for another runtime fails at once with a message that says what
to do, instead of misbehaving later. Raise the version whenever a name here, or what the runtime
expects of a generated class (``Engine``'s abstract methods and class variables), changes.
"""

from __future__ import annotations

#: The version of this contract.
ABI_VERSION = 2

#: The names generated code may import, by module.
EXPORTED: dict[str, tuple[str, ...]] = {
    "betspec.runtime.contract": ("require_abi",),
    "betspec.runtime.engine": ("NO_VIEW", "Compiled", "Engine", "Said", "Steps", "View"),
    "betspec.runtime.errors": ("IllegalAction", "InvalidTable"),
    "betspec.runtime.functions": ("ceil_to", "floor_to"),
    "betspec.runtime.table": (
        "ABSENT",
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


class AbiMismatch(ImportError):
    """A generated engine written for another version of the runtime contract."""


def require_abi(version: int, module: str) -> None:
    """Refuse to import a generated module written for another contract version."""
    if version != ABI_VERSION:
        raise AbiMismatch(
            f"{module} was generated for betspec runtime ABI {version}, and this betspec runs ABI "
            f"{ABI_VERSION}: regenerate it with `betspec generate`"
        )

#: What a generated kernel (the kernel back end's typed Cython) may cimport from the kernels'
#: runtime (betspec/runtime/kernel.pxd), and import from it. The install compiles the runtime
#: and every kernel together: a kernel built against another runtime is never loaded
#: (betspec.compiled), so no version is stamped on them.
KERNEL_CIMPORTS: dict[str, tuple[str, ...]] = {
    "betspec.runtime.kernel": ("Inputs", "Kernel", "Templates", "ceil_to", "chips_t", "floor_to"),
}
KERNEL_IMPORTS: dict[str, tuple[str, ...]] = {"betspec.runtime.kernel": ("KernelRefusal",)}
