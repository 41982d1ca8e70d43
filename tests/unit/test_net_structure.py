"""The network layer's shape (issue 28, docs/ARCHITECTURE.md "net/ as owned parts"), read from the source.

Two rules hold for ``sudoku_server/net``:

* **No import circle.** Every import between its modules counts, wherever it
  stands (module level, inside a function, under ``if TYPE_CHECKING``): the
  modules form a graph without a cycle.
* **No function over a cyclomatic complexity of 15** (McCabe's count, as
  the ``mccabe`` tool and Ruff's ``C901`` make it: 1, plus one per
  ``if``/``elif``, loop, ``except`` and ``case``, and one per loop
  ``else``). Ruff's ``C901`` holds the same limit in ``pyproject.toml`` for
  the lint run; this count needs no tool.

Each rule has a test that it finds what it must find, on a small tree written here.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NET = "sudoku_server.net"
#: The highest cyclomatic complexity a function of ``net/`` may have.
MAX_COMPLEXITY = 15
#: Import circles allowed in ``net/``: none (the app names the front it needs as a Protocol,
#: ``http_app.HttpFront``, rather than importing ``net/http.py``). The test fails once a listed one is gone.
KNOWN_CIRCLES: frozenset[frozenset[str]] = frozenset()


def net_modules(root: Path, package: str = NET) -> dict[str, Path]:
    """The modules of ``package`` under ``root``: dotted name -> path (a package's ``__init__`` is the package)."""
    base = root.joinpath(*package.split("."))
    modules = {}
    for path in sorted(base.glob("*.py")):
        name = package if path.name == "__init__.py" else f"{package}.{path.stem}"
        modules[name] = path
    return modules


def imports_within(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of ``modules`` that module ``name`` imports, anywhere in its source (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                anchor = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
    return {target for target in found if target in modules and target != name}


def circles(modules: dict[str, Path]) -> list[frozenset[str]]:
    """The import circles among ``modules``: each strongly connected set of two or more modules (Tarjan)."""
    graph = {name: imports_within(name, path, modules) for name, path in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(frozenset(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def complexity(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The McCabe complexity of one function (module docstring), its nested functions not counted."""
    count = 1
    todo: list[ast.AST] = list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue  # counted on its own
        if isinstance(node, (ast.If, ast.ExceptHandler, ast.match_case)):
            count += 1
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            count += 2 if node.orelse else 1
        todo.extend(ast.iter_child_nodes(node))
    return count


def too_complex(modules: dict[str, Path], limit: int = MAX_COMPLEXITY) -> list[str]:
    """``module.function: N`` for every function (methods and nested functions included) over ``limit``."""
    problems = []
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                score = complexity(node)
                if score > limit:
                    problems.append(f"{name}.{node.name}: {score}")
    return sorted(problems)


def test_the_network_layer_has_no_import_circle():
    found = set(circles(net_modules(REPO)))
    assert found - KNOWN_CIRCLES == set()
    assert KNOWN_CIRCLES - found == set(), "a known circle is gone: remove it from KNOWN_CIRCLES"


def test_no_function_of_the_network_layer_is_over_the_complexity_limit():
    assert too_complex(net_modules(REPO)) == []


def _tree(tmp_path: Path, files: dict[str, str]) -> dict[str, Path]:
    base = tmp_path / "pkg"
    base.mkdir()
    for file, text in files.items():
        (base / file).write_text(text)
    return net_modules(tmp_path, "pkg")


def test_the_circle_check_sees_a_circle_through_type_checking_and_a_function(tmp_path):
    modules = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\n",
            "b.py": "def f():\n    from pkg import c\n",
            "c.py": "from . import a\n",
            "d.py": "import pkg.a\n",
        },
    )
    assert circles(modules) == [frozenset({"pkg.a", "pkg.b", "pkg.c"})]


def test_the_complexity_count_follows_mccabe(tmp_path):
    source = (
        "def f(x, y):\n"
        "    if x and y or x:\n"  # if: 1 (boolean operands are not counted)
        "        return [i for i in x if i]\n"  # a comprehension is not counted
        "    elif y:\n"  # 1
        "        pass\n"
        "    for i in y:\n"  # 1
        "        while i:\n"  # 1
        "            i -= 1\n"
        "        else:\n"  # 1
        "            pass\n"
        "    try:\n"
        "        pass\n"
        "    except ValueError:\n"  # 1
        "        pass\n"
        "    except KeyError:\n"  # 1
        "        pass\n"
        "    return 1 if x else 2\n"
        "def g():\n"
        "    def h():\n"
        "        if 1:\n"
        "            pass\n"
        "    return h\n"
    )
    modules = _tree(tmp_path, {"__init__.py": "", "m.py": source})
    assert too_complex(modules, limit=7) == ["pkg.m.f: 8"]
    assert too_complex(modules, limit=1) == ["pkg.m.f: 8", "pkg.m.h: 2"]
