"""The arrows between the layers (docs/ARCHITECTURE.md "The arrows"), read from the source.

Every module of ``sudoku_server`` and ``sudoku_client`` is parsed with
:mod:`ast`; every import counts, wherever it stands (module level, inside a
function, under ``if TYPE_CHECKING``), relative imports are resolved, and a
string that names a module of the package (``importlib.import_module``, the
lazy table of ``sudoku_server/__init__.py``) counts as a lazy import. Each
module belongs to one layer, and each import must follow the arrows::

    errors <- sudoku <- text;  sudoku <- service
    wire may use service, text, sudoku;  net uses wire, service;  app uses net

A violation fails with the importing module, the line, what it imports and
the rule it breaks. Two subprocess checks then look at what an import really
loads: the pure layers load no I/O module, and the public API is lazy.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

#: Layer -> the layers its modules may import (besides their own layer).
#: ``top`` is ``sudoku_server/__init__.py`` (the public API), ``main`` is
#: ``sudoku_server/__main__.py``, ``client`` is the ``sudoku_client`` package.
MAY_IMPORT: dict[str, frozenset[str]] = {
    "errors": frozenset(),
    "sudoku": frozenset({"errors"}),
    "text": frozenset({"errors", "sudoku", "top"}),
    "service": frozenset({"errors", "sudoku", "top"}),
    "wire": frozenset({"errors", "sudoku", "text", "service", "top"}),
    "net": frozenset({"errors", "sudoku", "text", "service", "wire", "top"}),
    "app": frozenset({"errors", "sudoku", "text", "service", "wire", "net", "top"}),
    "main": frozenset({"app"}),
    "top": frozenset({"errors"}),  # and, lazily (a module named in a string), sudoku: TOP_MAY_LOAD_LAZILY
    "client": frozenset(),  # and exactly CLIENT_MAY_IMPORT of the server
}
#: What the public API may load lazily, on first use of a name.
TOP_MAY_LOAD_LAZILY = frozenset({"errors", "sudoku"})
#: The only modules of the server the bundled client may import: the line
#: splitter it shares with the server, and the top package (for ``__version__``).
CLIENT_MAY_IMPORT = frozenset({"sudoku_server", "sudoku_server.wire.splitter"})
#: Third-party modules the client uses when installed (the ``progress`` extra), with a fallback.
CLIENT_OPTIONAL = frozenset({"tqdm"})
#: Modules that do I/O or run an event loop: only these layers may import them.
IO_MODULES = frozenset({"trio", "socket", "selectors", "select", "asyncio", "ssl"})
#: The HTTP front's libraries (issue 21): ASGI servers and frameworks run event loops and do I/O, so only the
#: network layer may import them (``net/http.py``, ``net/http_app.py``); the JSON API (``wire/json_api.py``)
#: and its OpenAPI document (``wire/openapi.py``) stay pure.
IO_MODULES |= frozenset({"starlette", "hypercorn", "h11", "anyio"})
IO_LAYERS = frozenset({"net", "app", "client"})
#: The entry point: only ``python -m sudoku_server`` (and the console script) call it.
CLI = "sudoku_server.app.cli"
CLI_IMPORTERS = frozenset({"sudoku_server.__main__"})

#: Imports that break a rule today, in code another engineer is changing in
#: this wave: (importing module or package, imported module); a package
#: covers its modules. The test fails when one of these is fixed, so that the
#: entry is removed: the lead empties this at merge.
#: Imports that break a rule and are waiting to be fixed (importer, imported); empty now.
KNOWN_VIOLATIONS: frozenset[tuple[str, str]] = frozenset()


def known(importer: str, imported: str) -> tuple[str, str] | None:
    """The KNOWN_VIOLATIONS entry that covers this import, or None."""
    for entry in KNOWN_VIOLATIONS:
        owner, target = entry
        if target == imported and (importer == owner or importer.startswith(owner + ".")):
            return entry
    return None


@dataclass(frozen=True)
class Import:
    """One import of one module: the module it names, its line, and how it names it."""

    target: str  # the imported module (resolved; a name imported from a package counts as the package)
    line: int
    lazy: bool = False  # named in a string (importlib), not an import statement


def module_name(root: Path, path: Path) -> str:
    """``sudoku_server/net/server.py`` -> ``sudoku_server.net.server``; a package's ``__init__`` is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def read_modules(root: Path, packages: tuple[str, ...] = ("sudoku_server", "sudoku_client")) -> dict[str, Path]:
    """Every ``.py`` module of ``packages`` under ``root``: dotted name -> path."""
    return {
        module_name(root, path): path
        for package in packages
        if (root / package).is_dir()
        for path in sorted((root / package).rglob("*.py"))
    }


def imports_of(name: str, path: Path, known: set[str]) -> list[Import]:
    """Every import of one module, resolved to module names (``known``: the package's own modules).

    ``from a import b`` is an import of ``a.b`` when that is a module, else of ``a``.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                anchor = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append(Import(sub if sub in known else base, node.lineno))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
            if "." in text and text.split(".", 1)[0] in ("sudoku_server", "sudoku_client") and text in known:
                found.append(Import(text, node.lineno, lazy=True))
    return list(dict.fromkeys(found))  # `from a import b, c` names `a` once


def layer_of(module: str) -> str | None:
    """The layer of a module of the project; None for anything else (stdlib, third party)."""
    parts = module.split(".")
    if parts[0] == "sudoku_client":
        return "client"
    if parts[0] != "sudoku_server":
        return None
    if len(parts) == 1:
        return "top"
    if parts[1] == "__main__":
        return "main"
    if parts[1] in MAY_IMPORT:
        return parts[1]
    return "unknown"


def violations(root: Path) -> list[tuple[str, str, str]]:
    """Every import under ``root`` that breaks an arrow: ``(importer, imported, message)``."""
    modules = read_modules(root)
    known = set(modules)
    found = []
    for name, path in modules.items():
        layer = layer_of(name)
        assert layer is not None
        for imp in imports_of(name, path, known):
            rule = broken_rule(name, layer, imp)
            if rule is not None:
                how = "names in a string" if imp.lazy else "imports"
                found.append((name, imp.target, f"{name} (line {imp.line}) {how} {imp.target}: {rule}"))
    return found


def broken_rule(name: str, layer: str, imp: Import) -> str | None:
    """The rule that ``name`` (of ``layer``) breaks by importing ``imp``, or None."""
    target = imp.target
    top_level = target.split(".", 1)[0]
    if top_level in IO_MODULES and layer not in IO_LAYERS:
        return f"only net and app import {', '.join(sorted(IO_MODULES))}"
    if target == CLI or target.startswith(CLI + "."):
        return None if name in CLI_IMPORTERS else "nothing imports sudoku_server.app.cli (the entry point)"
    if layer == "client":
        if top_level == "sudoku_client":
            return None
        if top_level == "sudoku_server":
            if target in CLIENT_MAY_IMPORT:
                return None
            return f"sudoku_client may import only {', '.join(sorted(CLIENT_MAY_IMPORT))} of the server"
        if top_level not in sys.stdlib_module_names | CLIENT_OPTIONAL and top_level != "__future__":
            return "sudoku_client uses the standard library only"
        return None
    other = layer_of(target)
    if other is None or other == layer:
        return None
    if other == "unknown" or layer == "unknown":
        return "every module of sudoku_server belongs to a layer of docs/ARCHITECTURE.md"
    if layer == "top" and imp.lazy:
        if other in TOP_MAY_LOAD_LAZILY:
            return None
        return f"the public API loads only {', '.join(sorted(TOP_MAY_LOAD_LAZILY))} (lazily)"
    if other not in MAY_IMPORT[layer]:
        allowed = ", ".join(sorted(MAY_IMPORT[layer])) or "nothing of the project"
        return f"the {layer} layer may import {allowed} (docs/ARCHITECTURE.md)"
    return None


def test_every_import_follows_the_arrows():
    found = violations(REPO)
    new = [message for importer, imported, message in found if known(importer, imported) is None]
    assert not new, "imports against the arrows:\n" + "\n".join(new)


def test_every_known_violation_is_still_there():
    """A fixed known violation leaves KNOWN_VIOLATIONS, so that the list only shrinks."""
    found = {known(importer, imported) for importer, imported, _ in violations(REPO)}
    fixed = sorted(KNOWN_VIOLATIONS - found)
    assert not fixed, f"fixed, remove from KNOWN_VIOLATIONS: {fixed}"


def test_the_checker_finds_each_kind_of_violation(tmp_path):
    """The checker itself: a fake package with one violation of each rule, in each form of import."""
    files = {
        "sudoku_server/__init__.py": 'import importlib\nLAZY = {"x": "sudoku_server.net.server"}\n',
        "sudoku_server/__main__.py": "from sudoku_server.app.cli import main\n",
        "sudoku_server/errors.py": "",
        "sudoku_server/sudoku/__init__.py": "",
        "sudoku_server/sudoku/grid.py": (
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n"
            "    from sudoku_server.text import view\n"
            "def later():\n"
            "    import trio\n"
            "    from ..errors import PuzzleError\n"
        ),
        "sudoku_server/text/__init__.py": "",
        "sudoku_server/text/view.py": "from ..wire import splitter\n",
        "sudoku_server/wire/__init__.py": "",
        "sudoku_server/wire/splitter.py": "from . import session\n",
        "sudoku_server/wire/session.py": "import sudoku_server.net.pool\n",
        "sudoku_server/net/__init__.py": "",
        "sudoku_server/net/pool.py": "import trio\nfrom sudoku_server.app import cli\n",
        "sudoku_server/net/server.py": "import socket\n",
        "sudoku_server/app/__init__.py": "",
        "sudoku_server/app/cli.py": "from sudoku_server.net import server\n",
        "sudoku_client/__init__.py": "",
        "sudoku_client/client.py": (
            "import socket\nimport requests\nfrom sudoku_server import __version__\n"
            "from sudoku_server.wire import splitter, session\n"
        ),
    }
    for relative, text in files.items():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text)
    found = {(importer, imported): message for importer, imported, message in violations(tmp_path)}
    assert set(found) == {
        ("sudoku_server", "sudoku_server.net.server"),
        ("sudoku_server.sudoku.grid", "sudoku_server.text.view"),
        ("sudoku_server.sudoku.grid", "trio"),
        ("sudoku_server.text.view", "sudoku_server.wire.splitter"),
        ("sudoku_server.wire.session", "sudoku_server.net.pool"),
        ("sudoku_server.net.pool", "sudoku_server.app.cli"),
        ("sudoku_client.client", "requests"),
        ("sudoku_client.client", "sudoku_server.wire.session"),
    }, found
    assert found[("sudoku_server.sudoku.grid", "trio")] == (
        "sudoku_server.sudoku.grid (line 5) imports trio: only net and app import anyio, asyncio, h11, hypercorn,"
        " select, selectors, socket, ssl, starlette, trio"
    )
    assert found[("sudoku_server.sudoku.grid", "sudoku_server.text.view")] == (
        "sudoku_server.sudoku.grid (line 3) imports sudoku_server.text.view:"
        " the sudoku layer may import errors (docs/ARCHITECTURE.md)"
    )
    assert "nothing imports sudoku_server.app.cli" in found[("sudoku_server.net.pool", "sudoku_server.app.cli")]
    assert "names in a string" in found[("sudoku_server", "sudoku_server.net.server")]
    assert "sudoku_server, sudoku_server.wire.splitter" in found[("sudoku_client.client", "sudoku_server.wire.session")]


def test_a_module_outside_every_layer_is_named(tmp_path):
    (tmp_path / "sudoku_server" / "web").mkdir(parents=True)
    (tmp_path / "sudoku_server" / "__init__.py").write_text("")
    (tmp_path / "sudoku_server" / "errors.py").write_text("")
    (tmp_path / "sudoku_server" / "web" / "__init__.py").write_text("from sudoku_server import errors\n")
    assert [message for _, _, message in violations(tmp_path)] == [
        "sudoku_server.web (line 1) imports sudoku_server.errors:"
        " every module of sudoku_server belongs to a layer of docs/ARCHITECTURE.md"
    ]


#: Layers whose every module must import without loading an I/O module; and
#: two modules of net that are pure too (the scheduler decides, metrics count).
PURE_LAYERS = ("errors", "sudoku", "text", "service", "wire")
PURE_NET = ("sudoku_server.net.scheduler", "sudoku_server.net.metrics")


def pure_modules() -> list[str]:
    return (
        ["sudoku_server"]
        + [name for name in read_modules(REPO, ("sudoku_server",)) if layer_of(name) in PURE_LAYERS]
        + list(PURE_NET)
    )


def loaded_after(code: str, *names: str) -> list[str]:
    """Which of ``names`` are in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    probe = code + f"\nimport sys\nprint(','.join(n for n in {names!r} if n in sys.modules))\n"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=REPO)
    return [name for name in out.stdout.strip().split(",") if name]


def test_the_pure_layers_load_no_io_module():
    modules = pure_modules()
    assert "sudoku_server.wire.session" in modules and "sudoku_server.sudoku.grid" in modules
    code = "".join(f"import {name}\n" for name in modules)
    io_modules = [
        name
        for name in read_modules(REPO, ("sudoku_server",))
        if layer_of(name) in ("net", "app") and name.count(".") == 2 and name not in PURE_NET
    ]
    assert "sudoku_server.net.server" in io_modules
    assert loaded_after(code, *sorted(IO_MODULES), *io_modules) == []


def test_the_public_api_is_lazy():
    code = "import sudoku_server\nfrom sudoku_server import Grid, solve\nassert Grid and solve\n"
    assert loaded_after(code, "sudoku_server.sudoku.techniques", "trio", "socket") == []
    assert loaded_after(code + "from sudoku_server import next_step\n", "sudoku_server.sudoku.techniques")


@pytest.mark.parametrize("module", ["sudoku_server.app.cli", "sudoku_server.app.runtime", "sudoku_server.net.server"])
def test_the_io_layers_do_load_trio(module):
    """The subprocess probe sees what an import loads (it is not blind)."""
    assert loaded_after(f"import {module}", "trio") == ["trio"]


# -- units a reader can hold ---------------------------------------------------------

#: Lines of one module, and of one class, above which a reason is needed; and the hard limits.
MODULE_LINES, MODULE_LINES_MAX = 800, 1000
CLASS_LINES, CLASS_LINES_MAX = 250, 400


def sizes(repo: Path) -> list[tuple[str, str, int, str]]:
    """``(path, what, lines, docstring)`` of every module and every class of the package and the client."""
    found = []
    for package in ("sudoku_server", "sudoku_client"):
        for path in sorted((repo / package).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            tree = ast.parse(text)
            rel = str(path.relative_to(repo))
            found.append((rel, "module", len(text.splitlines()), ast.get_docstring(tree) or ""))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    found.append((rel, f"class {node.name}", lines, ast.get_docstring(node) or ""))
    return found


def oversized(repo: Path) -> list[str]:
    """Modules and classes over their size: over the hard limit, or over the soft one with no reason
    (a sentence with "because" in the docstring, saying why it is one unit)."""
    problems = []
    for path, what, lines, doc in sizes(repo):
        soft, hard = (MODULE_LINES, MODULE_LINES_MAX) if what == "module" else (CLASS_LINES, CLASS_LINES_MAX)
        if lines > hard:
            problems.append(f"{path}: {what} has {lines} lines (at most {hard})")
        elif lines > soft and "because" not in doc:
            problems.append(f"{path}: {what} has {lines} lines, over {soft} with no reason in its docstring")
    return problems


def test_modules_and_classes_a_reader_can_hold():
    assert oversized(REPO) == []


def test_the_size_check_sees_a_long_class(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(CLASS_LINES + 5))
    (tmp_path / "sudoku_server").mkdir()
    (tmp_path / "sudoku_server" / "big.py").write_text(f'class Big:\n    """Plain."""\n{body}\n')
    (tmp_path / "sudoku_client").mkdir()
    assert oversized(tmp_path) == [
        f"sudoku_server/big.py: class Big has {CLASS_LINES + 7} lines, over {CLASS_LINES} with no reason in its docstring"
    ]
