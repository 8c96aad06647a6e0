"""The live book's engines: the TypeScript engines compiled to classic scripts for the static site
(``docs/site/js/runtime.js`` and ``docs/site/js/<structure>.js``), which a page loads from
``file://`` or any static host (ES modules do not load from ``file://`` in Chromium).

``python -m betspec.tools.site_js [ROOT]`` compiles ``generated/typescript/src/*.ts`` with the
package's own ``tsc`` (the version ``package-lock.json`` pins, so the output is the same on every
machine) as AMD modules, each wrapped so that it registers itself with a twenty-line loader at the
head of ``runtime.js``: no bundler, no text rewritten in what tsc prints. Each file's first line
records the sha256 of the TypeScript sources it was compiled from, so that a test tells, without
Node, whether the committed scripts are those of the committed sources (``tests/test_live_book.py``;
with Node it compiles them anew and compares the bytes). ``betspec generate`` compiles them where
they are stale and the project's TypeScript compiler is installed (``npm ci --prefix
generated/typescript``: every project's ``package-lock.json`` pins the same one), and else says
how; it needs no Node to write everything else.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from betspec.tools.typescript_run import SOURCES, NodeMissing, tsc

#: Where the scripts go, relative to the project.
TARGET = ("docs", "site", "js")
#: The modules of the runtime, in the order they load; every other module but the index is a structure's.
RUNTIME = ("vocabulary", "runtime")
SKIPPED = ("index",)

LOADER = """\
(function (root) {
  "use strict";
  var modules = {};
  // define(name, dependencies, factory): an AMD module as tsc prints it, registered under its name.
  function define(name, dependencies, factory) {
    var exports = {};
    var given = dependencies.map(function (dependency) {
      if (dependency === "require") {
        return function () { throw new Error("betspec: require is not available"); };
      }
      if (dependency === "exports") { return exports; }
      var key = dependency.replace(/^\\.\\//, "").replace(/\\.js$/, "");
      if (!Object.prototype.hasOwnProperty.call(modules, key)) {
        throw new Error("betspec: module " + key + " is not loaded (load js/runtime.js first)");
      }
      return modules[key];
    });
    factory.apply(null, given);
    modules[name] = exports;
    return exports;
  }
  root.betspec = { modules: modules, define: define };
})(typeof globalThis !== "undefined" ? globalThis : this);
"""


def digest(root: str) -> str:
    """The sha256 of the TypeScript sources (their names and bytes), as each script records it."""
    hashed = hashlib.sha256()
    for path in sorted(Path(root, *SOURCES).glob("*.ts")):
        hashed.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return hashed.hexdigest()


def header(root: str) -> str:
    return (
        f"// Compiled by betspec (python -m betspec.tools.site_js) from generated/typescript/src, "
        f"sources sha256 {digest(root)}.\n"
        "// Do not edit: run `betspec generate`, then `python -m betspec.tools.site_js`.\n"
    )


def _wrapped(name: str, compiled: str) -> str:
    body = compiled.rstrip("\n")
    call = f"function (dependencies, factory) {{ betspec.define({json.dumps(name)}, dependencies, factory); }}"
    return f"(function (define) {{\n{body}\n}})({call});\n"


def scripts(root: str) -> dict[str, str]:
    """Each script of the live book: path relative to ``root`` -> content (compiled now, with tsc)."""
    sources = sorted(Path(root, *SOURCES).glob("*.ts"))
    names = [path.stem for path in sources if path.stem not in SKIPPED]
    compiler = tsc(root)
    with tempfile.TemporaryDirectory(prefix="betspec-site-js-") as work:
        src = Path(work, "src")
        src.mkdir()
        for path in sources:
            if path.stem not in SKIPPED:
                shutil.copyfile(path, src / path.name)
        config = {
            "compilerOptions": {
                "target": "ES2022",
                "module": "AMD",
                "moduleResolution": "node10",
                "ignoreDeprecations": "5.0",
                "strict": True,
                "outDir": "out",
                "rootDir": "src",
                "types": [],
                "skipLibCheck": True,
                "newLine": "lf",
            },
            "include": ["src/*.ts"],
        }
        Path(work, "tsconfig.json").write_text(json.dumps(config))
        done = subprocess.run([*compiler, "-p", work], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"tsc failed on the TypeScript engines:\n{done.stdout}{done.stderr}")
        compiled = {name: Path(work, "out", f"{name}.js").read_text(encoding="utf-8") for name in names}
    top = header(root)
    folder = "/".join(TARGET)
    files = {f"{folder}/runtime.js": top + LOADER + "".join(_wrapped(name, compiled[name]) for name in RUNTIME)}
    for name in names:
        if name not in RUNTIME:
            files[f"{folder}/{name}.js"] = top + _wrapped(name, compiled[name])
    return files


def stale(root: str) -> bool:
    """Whether the scripts are not those of the project's TypeScript sources: one missing, one
    too many, or one compiled from other sources (each records their sha256). Needs no Node."""
    sources = sorted(Path(root, *SOURCES).glob("*.ts"))
    folder = Path(root, *TARGET)
    wanted = {"runtime.js"} | {f"{p.stem}.js" for p in sources if p.stem not in (*RUNTIME, *SKIPPED)}
    present = {path.name for path in folder.glob("*.js")}
    if present != wanted:
        return True
    first = header(root).splitlines()[0]
    for name in wanted:
        with open(folder / name, encoding="utf-8") as script:
            if script.readline().rstrip("\n") != first:
                return True
    return False


def write(root: str) -> list[str]:
    """Compile and write the scripts (those of structures no longer generated removed); their paths."""
    files = scripts(root)
    folder = Path(root, *TARGET)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.js"):
        if f"{'/'.join(TARGET)}/{old.name}" not in files:
            old.unlink()
    for relative, content in files.items():
        Path(root, relative).write_text(content, encoding="utf-8", newline="")
    return sorted(files)


def main(argv: list[str]) -> int:
    root = argv[0] if argv else "."
    try:
        written = write(root)
    except NodeMissing as missing:
        print(f"betspec: the live book's engines are not compiled: {missing}", file=sys.stderr)
        return 1
    except RuntimeError as failed:  # tsc refused the sources: a printer's error, said whole
        print(f"betspec: {failed}", file=sys.stderr)
        return 1
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
