"""PHH text as a TOML document, read within the process's limits: by toml-rs (the ``fast`` extra)
where it is installed and the text is safe for it, else by tomllib."""

from __future__ import annotations

import importlib
import re
import sys
from contextlib import suppress as _suppress
from decimal import Decimal
from typing import TYPE_CHECKING, Any, cast

from betspec.tools.phh.model import PhhError, _cut

if TYPE_CHECKING:
    pass


if sys.version_info >= (3, 11):
    import tomllib
else:  # betspec runs on 3.10, where only reading PHH is unavailable (no tomllib)
    tomllib = None


#: The ``fast`` extra: toml-rs, a compiled (Rust) TOML reader with tomllib's API and results, its
#: ``parse_float`` too; None when not installed (tomllib reads).
_fast_toml: Any


try:
    _fast_toml = importlib.import_module("toml_rs")
except ImportError:
    _fast_toml = None


def _check_reader() -> None:
    """Raise :class:`PhhError` where neither TOML reader is here."""
    if tomllib is None and _fast_toml is None:
        raise PhhError("reading PHH needs Python 3.11 or later (tomllib), or toml-rs (the fast extra)")


def _document(text: str, path: str) -> dict[str, Any]:
    """The TOML document of PHH text (:func:`_toml`), or :class:`PhhError` saying why it cannot
    be read: more memory than this process may use, nesting too deep, not TOML."""
    if not _fits(len(text), SLOW_BYTES_A_CHARACTER):
        need = len(text) * SLOW_BYTES_A_CHARACTER >> 20
        raise PhhError(
            f"{path}: reading {len(text):,} characters of PHH takes about {need:,} MB more memory "
            "than this process may use"
        )
    try:
        document = _toml(text)
    except RecursionError:
        raise PhhError(f"{path}: arrays or tables nested too deeply to read") from None
    except MemoryError:
        raise PhhError(f"{path}: not enough memory to read {len(text):,} characters of PHH") from None
    except ValueError as exc:
        if isinstance(exc, _DECODE_ERRORS):
            raise PhhError(f"{path}: not TOML: {_cut(str(exc), 200)}") from None
        # Python's limit on the digits of an int (sys.get_int_max_str_digits)
        raise PhhError(f"{path}: an integer with more digits than Python reads; no table holds it") from None
    return document


_DECODE_ERRORS: tuple[type[ValueError], ...] = tuple(
    cast(Any, reader).TOMLDecodeError for reader in (tomllib, _fast_toml) if reader is not None
)


def _toml(text: str) -> dict[str, Any]:
    """The TOML document, every float read as the Decimal written (196.20 has two places: the
    scale is read from it). toml-rs (the ``fast`` extra, compiled) reads it when installed, as
    the TOML 1.0.0 tomllib reads and with the same ``parse_float``, so the document is the same;
    whatever it refuses or fails on is read again by tomllib, so that a refusal is tomllib's."""
    if _fast_toml is not None and _fits(len(text)) and _shallow(text) and not _long_number(text):  # (as bytes)
        try:
            document: dict[str, Any] = _fast_toml.loads(text, parse_float=Decimal, toml_version="1.0.0")
            return document
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # a refusal, or a panic of the Rust code (PyO3's is a BaseException)
            if tomllib is None:
                raise
    return cast(dict[str, Any], cast(Any, tomllib).loads(text, parse_float=Decimal))


#: What reading TOML of n characters grows a process's address space by, at most, in bytes a
#: character, as measured (a 60 MB .phhs of 145,750 hands, CPython 3.11 on x86_64): toml-rs 34
#: (2.0 GB), tomllib 19 (1.2 GB). Where the fast reader's would not fit the process's limit or
#: the memory free, tomllib reads the text: toml-rs, failing to allocate, aborts the whole
#: interpreter (a Rust panic), where tomllib raises MemoryError, which is refused as a PhhError.
FAST_BYTES_A_CHARACTER = 40


SLOW_BYTES_A_CHARACTER = 22


#: The text the fast reader takes whatever the limits say it would fit (read at once, measured).
FAST_ALWAYS = 1 << 20


def _fits(characters: int, bytes_a_character: int = FAST_BYTES_A_CHARACTER) -> bool:
    """Whether a reader growing by ``bytes_a_character`` may read ``characters`` of TOML here (by
    default toml-rs): a small text always; a larger one where the growth measured fits both the
    process's address space limit (RLIMIT_AS, less what it uses now) and the memory available
    (Linux's /proc)."""
    if characters <= FAST_ALWAYS:
        return True
    need = characters * bytes_a_character
    limit = _address_space_limit()
    if limit is not None and need + (_proc_kib("/proc/self/status", "VmSize:") or limit) > limit:
        return False
    available = _proc_kib("/proc/meminfo", "MemAvailable:")
    return available is None or need <= available


def _address_space_limit() -> int | None:
    """The process's address space limit in bytes (RLIMIT_AS), or None where there is none."""
    try:
        import resource

        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
        return None if limit == resource.RLIM_INFINITY or limit < 0 else limit
    except (ImportError, OSError, ValueError):
        return None


def _proc_kib(path: str, field: str) -> int | None:
    """A ``field: N kB`` line of a /proc file, in bytes; None where there is none (not Linux)."""
    with _suppress(OSError, ValueError, IndexError), open(path, encoding="ascii") as lines:
        for line in lines:
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    return None


#: The deepest nesting of arrays and inline tables handed to the fast reader: toml-rs 0.4 crashes
#: the process (a stack overflow in Rust) on some thousands; PHH nests two deep.
FAST_DEPTH = 32


_INNERMOST = re.compile(r"\[\]|\{\}")


#: Every byte but the brackets (deleted from UTF-8 text, they leave its brackets: no byte of a
#: character beyond ASCII is one).
_NOT_BRACKET_BYTES = bytes(byte for byte in range(256) if byte not in b"[]{}")


#: Digits and underscores as 1, every other byte as 0 (a run of them: a number's digits).
_DIGIT_BYTES = bytes.maketrans(bytes(range(256)), bytes(int(chr(byte) in "0123456789_") for byte in range(256)))


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _shallow(text: str) -> bool:
    """Whether the brackets of ``text`` nest at most :data:`FAST_DEPTH` deep: each pass removes
    the innermost pairs. Brackets inside strings and comments count too, which can only send a
    file to tomllib."""
    brackets = _utf8(text).translate(None, _NOT_BRACKET_BYTES).decode("ascii")
    for _ in range(FAST_DEPTH):
        if not brackets:
            return True
        brackets, removed = _INNERMOST.subn("", brackets)
        if not removed:
            return False
    return not brackets


def _long_number(text: str) -> bool:
    """Whether ``text`` may hold a decimal integer longer than Python reads from text
    (``sys.get_int_max_str_digits``): toml-rs reads it, tomllib refuses it, and tomllib's answer is
    the one given."""
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
    return bool(limit) and b"\x01" * (limit + 1) in _utf8(text).translate(_DIGIT_BYTES)
