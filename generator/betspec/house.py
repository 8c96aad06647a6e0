"""A house: a folder of one's own specs, their cases and what betspec generates from them.

``betspec init DIR`` makes one::

    DIR/betspec.toml                 the marker: a command run anywhere inside DIR works on DIR
    DIR/spec/<name>.json             a starter spec that extends a shipped structure (house_starter.json)
    DIR/tests/conformance/*.json     its cases (``betspec conform`` and ``coverage`` run them)

and ``betspec generate`` adds ``generated/`` (the engines), ``diagrams/`` and ``docs/`` (the
reference book), as in betspec's own tree: every command works on a house as on betspec's own
specs, and a house spec extends the shipped ones by name (``"extends": "no_limit.json"``).

A house's engines join the shipped ones under ``betspec.engines``: :func:`use` adds the house's
``generated/`` folder to that package's search path (and ``generated/kernels/`` to the kernels'),
so that ``engine_class(name)``, ``from betspec.engines.<name> import <Class>``, snapshots
restored and worker processes all find them, with no ``sys.path`` entry.
The commands call :func:`use` on the house they run in; a program of the house's calls it once,
or is started with ``BETSPEC_HOUSE=DIR`` in its environment (read when betspec is imported).
:func:`load` compiles a spec's engine in memory instead, with no file written.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any

from betspec import packaged
from betspec.diagnostics import errors
from betspec.runtime.errors import BetspecError, shown

if TYPE_CHECKING:
    from betspec.diagnostics import Diagnostic
    from betspec.runtime.engine import Engine

#: The file that marks a house folder.
MARKER = "betspec.toml"
#: The environment variable naming a house whose engines a program (or a worker) sees.
ENVIRONMENT = "BETSPEC_HOUSE"
#: Where a house keeps what the commands read and write, relative to its folder (betspec's own
#: layout, so that everything the README says of betspec's tree holds in a house).
SPECS, CASES, ENGINES = "spec", "tests/conformance", "generated"
#: The package the engines are imported as, the shipped ones and every house's.
PACKAGE = "betspec.engines"
KERNELS = "betspec.engines.kernels"


class HouseError(BetspecError):
    """A house folder that cannot be made or read, or a spec that cannot be loaded."""

    code = "house"


class SpecError(BetspecError):
    """A spec :func:`load` refuses: the first problem (``file:line:column: /pointer: message
    [code]``), with every problem in ``diagnostics``."""

    code = "invalid_spec"

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None) -> None:
        super().__init__(message)
        self.diagnostics = list(diagnostics or [])


# ---- finding the house --------------------------------------------------------------------------


def find(start: str) -> str | None:
    """The nearest folder holding ``betspec.toml``: ``start`` or one of its parents."""
    folder = os.path.abspath(start)
    while True:
        if os.path.isfile(os.path.join(folder, MARKER)):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def project_root(given: str | None, cwd: str | None = None) -> str:
    """The folder a command works on: ``--root`` when given, else the house the current folder
    lies in, else the current folder (betspec's own tree, where no marker is needed)."""
    here = os.path.abspath(cwd or os.getcwd())
    if given is not None:
        return os.path.abspath(given)
    return find(here) or here


def shipped_names() -> set[str]:
    """The names of the specs betspec ships (structures and abstract bases)."""
    from betspec import packaged

    return {path.stem for path in packaged.specs().glob("*.json")}


def is_shipped_tree(root: str) -> bool:
    """Whether ``root`` is betspec's own tree (its engines are the package's own)."""
    found = importlib.util.find_spec(PACKAGE)
    own = [os.path.realpath(p) for p in (found.submodule_search_locations or [])] if found else []
    return os.path.realpath(os.path.join(root, ENGINES)) in own[:1]


def shadowing(specs: list[Any]) -> list[Diagnostic]:
    """A house spec named as a shipped one: its engine would be the shipped one's, and
    ``"extends": "<its name>.json"`` would name itself."""
    from betspec.diagnostics import Diagnostic, DiagnosticCode, Position

    shipped = shipped_names()
    found = []
    for spec in specs:
        if spec.name in shipped:
            message = (
                f"{spec.name!r} is the name of a spec betspec ships: a house spec needs its own name "
                f"(rename the file and its 'name', e.g. house_{spec.name}.json)"
            )
            found.append(Diagnostic(Position(spec.path, 1, 1), "/name", DiagnosticCode.NAME, message))
    return found


# ---- making a house -----------------------------------------------------------------------------

#: What ``betspec init`` writes beside the marker: a starter spec and its cases (data, as specs are).
STARTER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "house_starter.json")


def starter() -> dict[str, Any]:
    """The starter: ``name`` (the default spec name), ``spec`` and ``cases``."""
    with open(STARTER, encoding="utf-8") as handle:
        found: dict[str, Any] = json.load(handle)
    return found


def _renamed(value: Any, old: str, new: str) -> Any:
    """``value`` with the starter's name, and its kebab-case form in case ids, replaced."""
    if isinstance(value, str):
        return value.replace(old, new).replace(old.replace("_", "-"), new.replace("_", "-"))
    if isinstance(value, list):
        return [_renamed(item, old, new) for item in value]
    if isinstance(value, dict):
        return {key: _renamed(item, old, new) for key, item in value.items()}
    return value


@dataclass(frozen=True)
class Made:
    """What :func:`init` wrote."""

    root: str
    spec: str
    files: tuple[str, ...]


def init(folder: str, name: str | None = None) -> Made:
    """Make a house in ``folder`` (created if need be): the marker, a starter spec named
    ``name`` (by default the starter's own) and its cases. Nothing is overwritten: a file
    already there is an error."""
    template = starter()
    folder = _path(folder, "a house's folder")
    name = str(template["name"]) if name is None else name
    if not isinstance(name, str):
        raise HouseError(f"a spec name is a text, not {shown(name)}")
    if not (name.isascii() and name.replace("_", "a").isalnum() and name[:1].islower() and len(name) <= 64):
        raise HouseError(f"{shown(name)} is not a spec name: lowercase letters, digits and _ ({template['name']})")
    if name in shipped_names():
        raise HouseError(f"{name!r} is the name of a spec betspec ships: give the house's its own (house_{name})")
    root = os.path.abspath(folder)
    marker = (
        "# A betspec house: its specs are spec/*.json, its cases tests/conformance/*.json; `betspec generate`\n"
        "# writes generated/ (the engines), diagrams/ and docs/. Any betspec command run inside this\n"
        "# folder works on it; programs see its engines after betspec.house.use(<this folder>).\n"
        "[house]\n"
        f"starter = {json.dumps(name)}\n"
    )
    made = _renamed({"spec": template["spec"], "cases": template["cases"]}, str(template["name"]), name)
    files = {MARKER: marker, f"{SPECS}/{name}.json": json.dumps(made["spec"], indent=2, ensure_ascii=False) + "\n"}
    for case in made["cases"]:
        case = {"$schema": "../../spec/schema/case.schema.json", **case}
        files[f"{CASES}/{case['id']}.json"] = json.dumps(case, indent=2, ensure_ascii=False) + "\n"
    # The schemas the spec and cases name in $schema, for an editor to check and complete them as
    # they are typed (`betspec generate` keeps them those of the betspec that generates the house).
    for schema in (packaged.SPEC_SCHEMA, packaged.CASE_SCHEMA):
        files[f"{SPECS}/schema/{schema}"] = (packaged.schemas() / schema).read_text(encoding="utf-8")
    existing = [relative for relative in files if os.path.exists(os.path.join(root, *relative.split("/")))]
    if existing:
        raise HouseError(f"{root} already has {existing[0]}: nothing written (a house is made once)")
    written = []
    try:
        for relative, content in files.items():
            path = os.path.join(root, *relative.split("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "x", encoding="utf-8", newline="\n") as out:
                out.write(content)
            written.append(path)
    except OSError as exc:
        raise HouseError(f"cannot write in {root}: {exc.strerror or type(exc).__name__}") from None
    return Made(root, os.path.join(root, SPECS, f"{name}.json"), tuple(written))


# ---- a house's engines under betspec.engines ---------------------------------------------------


def _package(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:  # pragma: no cover - betspec.engines ships with betspec
        return None


def _path(value: object, what: str) -> str:
    """``value`` as a path (a text or an os.PathLike of one, no NUL), or HouseError naming it."""
    try:
        path = os.fspath(value)  # type: ignore[call-overload]
    except TypeError:
        path = None
    if not isinstance(path, str) or "\0" in path or not path:
        raise HouseError(f"{what} is the path of a folder or file, as text, not {shown(value)}")
    return path


def _folders(root: str) -> dict[str, str]:
    engines = os.path.join(os.path.abspath(root), ENGINES)
    return {PACKAGE: engines, KERNELS: os.path.join(engines, "kernels")}


def _forget(names: set[str]) -> None:
    """Drop what the runtime has cached for these structures (engine classes, kernel classes)."""
    from betspec.runtime import batch, engine

    for name in names:
        engine._ENGINES.pop(name, None)
        batch._FAST.pop(name, None)


def _unload(folder: str) -> None:
    """Forget the modules imported from ``folder`` (a house no longer in use)."""
    prefix = os.path.join(os.path.realpath(folder), "")
    gone: set[str] = set()
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith(PACKAGE + "."):
            continue  # (the name first: resolving every module's path took 25 ms of a command)
        # A compiled module's file is in the build cache; the finder records its source.
        path = getattr(module, "__betspec_source__", getattr(module, "__file__", None))
        if isinstance(path, str) and os.path.realpath(path).startswith(prefix):
            del sys.modules[module_name]
            gone.add(module_name.rpartition(".")[2])
    _forget(gone)


def use(root: str) -> None:
    """Let ``betspec.engines`` (and its kernels) find the engines generated in the house at
    ``root``, after the shipped ones; another house used before is forgotten. Sets
    ``BETSPEC_HOUSE`` so that worker processes see the same engines. Betspec's own tree needs
    nothing (its engines are the package's)."""
    root = _path(root, "a house")
    try:
        if not os.path.isdir(root):
            raise HouseError(f"no folder at {shown(root)}: a house is a folder (betspec init makes one)")
        if is_shipped_tree(root):
            return
        _use(root)
    except OSError as error:  # a name too long, a folder that cannot be read
        raise HouseError(f"the house at {shown(root)} cannot be used: {error.strerror or error}") from None


def _use(root: str) -> None:
    """:func:`use` of a folder that is there: its engines' folders on the packages' paths."""
    for package_name, folder in _folders(root).items():
        package = _package(package_name)
        if package is None:
            continue
        search: list[str] = package.__path__  # type: ignore[assignment]
        for entry in list(search[1:]):
            if os.path.realpath(entry) != os.path.realpath(folder):
                search.remove(entry)
                _unload(entry)
        if all(os.path.realpath(entry) != os.path.realpath(folder) for entry in search):
            search.append(folder)
    importlib.invalidate_caches()
    os.environ[ENVIRONMENT] = os.path.abspath(root)


def leave() -> None:
    """Forget every house: ``betspec.engines`` holds the shipped engines only again."""
    for package_name in (PACKAGE, KERNELS):
        package = _package(package_name)
        if package is None:
            continue
        search: list[str] = package.__path__  # type: ignore[assignment]
        for entry in list(search[1:]):
            search.remove(entry)
            _unload(entry)
    os.environ.pop(ENVIRONMENT, None)


@contextlib.contextmanager
def active(root: str) -> Iterator[None]:
    """The house at ``root`` in use for the block, and as before it afterwards."""
    before = os.environ.get(ENVIRONMENT)
    use(root)
    try:
        yield
    finally:
        leave()
        if before:
            use(before)


def use_environment() -> None:
    """Use the house ``BETSPEC_HOUSE`` names, if any (betspec calls it when imported)."""
    root = os.environ.get(ENVIRONMENT, "")
    if root and os.path.isdir(root):
        use(root)


# ---- an engine compiled in memory ---------------------------------------------------------------


def load(path: str | os.PathLike[str]) -> type[Engine]:
    """The engine class of the spec at ``path``, generated and compiled in memory (no file is
    written): the class ``betspec generate`` would write, with the same API, errors and
    snapshots. It is registered as ``betspec.engines.<name>`` for this process, so that
    ``engine_class(name)`` and ``snapshot.restore`` find it (replacing a generated engine of the
    same name until the process ends). Raises :class:`SpecError` naming the first problem
    ``betspec validate`` would report (all of them in ``diagnostics``)."""
    from betspec.backends.python import generate
    from betspec.frontend import load_spec
    from betspec.memory_loader import SourceLoader
    from betspec.runtime.engine import Engine

    where = os.path.abspath(_path(path, "a spec"))
    spec, diagnostics = load_spec(where)
    diagnostics = errors(diagnostics)  # a warning does not stop the engine
    if spec is not None and not diagnostics:
        stem = os.path.splitext(os.path.basename(where))[0]
        if spec.name != stem:
            message = f"the spec is named {spec.name!r} but its file is {stem}.json"
            raise SpecError(f"{where}:1:1: /name: {message} [name]")
        diagnostics = shadowing([spec])
    if spec is None or diagnostics:
        found = sorted(set(diagnostics))
        more = f" (and {len(found) - 1} more: betspec validate lists them)" if len(found) > 1 else ""
        raise SpecError(f"{found[0] if found else where + ': not a spec'}{more}", found)
    if spec.abstract:
        raise SpecError(f"{where}: {spec.name!r} is an abstract base: it has no engine (load a spec that extends it)")
    root = os.path.dirname(os.path.dirname(where))
    source = generate(spec, root)
    module_name = f"{PACKAGE}.{spec.name}"
    found_spec = importlib.util.spec_from_loader(module_name, SourceLoader(source, f"<betspec: {where}>"), origin=where)
    assert found_spec is not None and found_spec.loader is not None
    module = importlib.util.module_from_spec(found_spec)
    package = _package(PACKAGE)
    previous = sys.modules.get(module_name)
    sys.modules[module_name] = module
    try:
        found_spec.loader.exec_module(module)
    except BaseException:
        if previous is None:
            sys.modules.pop(module_name, None)
        else:
            sys.modules[module_name] = previous
        raise
    if package is not None:
        setattr(package, spec.name, module)
    _forget({spec.name})
    engine = getattr(module, "ENGINE", None)
    assert isinstance(engine, type) and issubclass(engine, Engine)
    return engine
