"""The rules as data (issue 27): the registry, the words, and the recipe of CONTRIBUTING.md "How to add a rule".

- Outside the rules package (sudoku_server/sudoku/rules/), no module names a rule in its CODE
  (docstrings and comments aside): read with ``ast``, every string constant that is not a
  docstring and every name (variables, attributes, functions, arguments, imports) is split into
  words; a rule word (``antiknight``, ``nonconsecutive``, ...) appears nowhere, except ``jigsaw``
  and ``killer`` in their text layouts (at most two modules). ``x`` is too short a word to look
  for (X-chains, ``x`` the context); the registry's other words are all checked, a new rule's too.
- Every registered rule compiles only to the kinds of the constraint vocabulary, and has a CP-SAT
  oracle case (:data:`ORACLE_CASES`): CP-SAT, built from the kinds (tests/cpsat_oracle.py), and both
  solver cores agree on the count and the row-major-first solution.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.constraints import AllDifferent, Between, Candidates, Relation, Sum
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rules import DATA_KINDS, PENCILMARKS, RULES
from sudoku_server.sudoku.rules.base import Mark
from sudoku_server.sudoku.solver import _python
from sudoku_server.sudoku.variants import Cage, Variant, variant_geometry
from tests.support.cpsat_oracle import smallest, solutions

PACKAGE = Path(__file__).resolve().parents[2] / "sudoku_server"
RULES_PACKAGE = PACKAGE / "sudoku" / "rules"

#: The rule words looked for in code: every registered word but the one-letter ``x``.
CHECKED_WORDS = frozenset(word for word in RULES if len(word) > 1)

#: Words that a text layout of the rule's data may say (the layouts' own names: "jigsaw-line",
#: "a SudoCue killer line"), in at most :data:`LAYOUT_MODULES` modules outside the rules package.
LAYOUT_WORDS = frozenset({"jigsaw", "killer"})
LAYOUT_MODULES = 2

#: Words still spoken outside the rules package, by module: it only shrinks. The native core's
#: keyword array for non-consecutive pairs is named after the rule until the C side takes plain
#: arrays per kind (the ADAPTER in sudoku/solver/__init__.py, replaced by the native helper).
KNOWN: dict[str, frozenset[str]] = {}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                out.add(id(first.value))
        # attribute docstrings (a string statement after an assignment) are docs too
        for field in ("body", "orelse"):
            stmts = getattr(node, field, None)
            if isinstance(stmts, list):
                out.update(
                    id(stmt.value)
                    for stmt in stmts
                    if isinstance(stmt, ast.Expr)
                    and isinstance(stmt.value, ast.Constant)
                    and isinstance(stmt.value.value, str)
                )
    return out


def words_in_code(source: str) -> set[str]:
    """The lower-case words of the names and non-docstring string constants of ``source``."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    texts: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            texts.append(node.value)
        elif isinstance(node, ast.Name):
            texts.append(node.id)
        elif isinstance(node, ast.Attribute):
            texts.append(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            texts.append(node.name)
        elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
            texts.append(node.arg)
        elif isinstance(node, ast.alias):
            texts += [node.name, node.asname or ""]
        elif isinstance(node, ast.ImportFrom) and node.module:
            texts.append(node.module)
    return {word.lower() for text in texts for word in re.findall(r"[A-Za-z]+", text)}


def spoken() -> dict[str, set[str]]:
    """Per module outside the rules package (path under sudoku_server/), the rule words its code says."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if RULES_PACKAGE in path.parents:
            continue
        found = words_in_code(path.read_text(encoding="utf-8")) & CHECKED_WORDS
        if found:
            out[path.relative_to(PACKAGE).as_posix()] = found
    return out


def test_no_module_outside_the_rules_names_a_rule():
    found = spoken()
    layout_modules = sorted(name for name, words in found.items() if words & LAYOUT_WORDS)
    assert len(layout_modules) <= LAYOUT_MODULES, layout_modules
    wrong = {
        name: sorted(words - LAYOUT_WORDS - KNOWN.get(name, frozenset()))
        for name, words in found.items()
        if words - LAYOUT_WORDS - KNOWN.get(name, frozenset())
    }
    assert wrong == {}


def test_the_known_exceptions_are_still_there():
    """A word no longer spoken leaves KNOWN, so that the list only shrinks."""
    found = spoken()
    assert {
        name: sorted(words - found.get(name, set())) for name, words in KNOWN.items() if words - found.get(name, set())
    } == {}


def test_the_word_check_sees_code_and_not_docs():
    source = (
        '"""antiknight in a docstring."""\n'
        "# nonconsecutive in a comment\n"
        "def f(windoku_size):\n"
        '    """killer in a docstring."""\n'
        '    return {"jigsaw": 1}[f"a {windoku_size} disjoint"]\n'
        "from sudoku_server.sudoku.rules.antiking import RULE\n"
    )
    assert words_in_code(source) & {*CHECKED_WORDS, "disjoint"} >= {"windoku", "jigsaw", "antiking", "disjoint"}
    assert not words_in_code(source) & {"antiknight", "nonconsecutive", "killer"}


# -- the registry -------------------------------------------------------------------------------

#: One oracle case per registered rule: the rules, the variant's data and the givens (9x9, row-major,
#: ``.`` empty). The count (0, 1, 2+) and the row-major-first solution of both cores are held to
#: CP-SAT's. A new rule needs one row here and no oracle code.
KILLER_CAGES = (
    Cage((0, 1), 3, "a"),
    Cage((2, 3, 4), 24, "b"),
    Cage((9, 10), 17, "c"),
    Cage((40,), 5, "d"),
)
JIGSAW_REGIONS = tuple(
    "012345678".index(ch) for ch in "000000021453303021453333221453322221455566121445666111445566667488887777888887777"
)
ORACLE_CASES: dict[str, tuple[dict[str, object], str]] = {
    "x": ({}, "........9............1..................7.......81.......63..7..3......1....913.8"),
    "windoku": ({}, "...........6...........3.5..3.29..6.....6..9.6................5.....2..8....3...."),
    "antiknight": ({}, "........94................6..1.....756......1.9.......31...5...................45"),
    "antiking": ({}, "..3.5...........2.7.......6.1......73.5...2.........6.5..........2.........5....."),
    "nonconsecutive": ({}, "............6...................1.....1..........6..4......................7....."),
    "jigsaw": (
        {"regions": JIGSAW_REGIONS},
        "1..4.......1.84............6...................2....46.9.1..............95..3....",
    ),
    "killer": ({"cages": KILLER_CAGES}, "." * 81),
    "disjoint": ({}, "7.....93.92..7..6.....15...6.8....4..12..9..7............8.....................9."),
    "oddeven": (
        {"marks": tuple(Mark("oddeven", (c,), 1 + c % 2) for c in (0, 3, 8, 12, 15, 17, 26, 32, 48, 49))},
        ".5.2.......1.73.......1....698....43....4..5.............8.....1.....2.62.6...7..",
    ),
    "thermo": (
        {"marks": (Mark("thermo", (3, 2, 1, 0, 9)), Mark("thermo", (58, 66, 57, 67)), Mark("thermo", (23, 32, 42)))},
        ".....6.............6..1.4...........3.2.......4....6.9.......1.135...............",
    ),
    "kropki": (
        {
            "marks": (
                Mark("kropki", (1, 2), 0, "white"),
                Mark("kropki", (2, 3), 0, "black"),
            )
        },
        ".5.2.......1.73.......1....698....43....4..5.............8.....1.....2.62.6...7..",
    ),
    "xv": (
        {"marks": (Mark("xv", (3, 4), 10), Mark("xv", (2, 11), 5), Mark("xv", (), 0, "negative"))},
        ".................8........................................................6......",
    ),
    "whispers": (
        {"marks": (Mark("whispers", (17, 26, 25, 33, 32, 31)), Mark("whispers", (3, 4, 14, 6, 7), 4))},
        "...............5.......5.............1....8...........4........1................4",
    ),
    "renban": (
        {"marks": (Mark("renban", (72, 63, 64)), Mark("renban", (74, 73, 65, 56, 47)))},
        ".5..8......1.....8..39..4.......7................3.6.9..9....1........8......1...",
    ),
    "arrow": (
        {
            "marks": (
                Mark("arrow", (15, 24, 33), 1),
                Mark("arrow", (27, 36, 37, 38), 1),
                Mark("arrow", (0, 1, 10, 19), 2),
            )
        },
        "." * 81,
    ),
    "littlekiller": (
        {"marks": (Mark("littlekiller", (5, 13, 21, 29, 37, 45), 36), Mark("littlekiller", (17, 7), 11))},
        "75.2........47............2..8....4.....4.......13.......8....5.............5....",
    ),
    "palindrome": (
        {"marks": (Mark("palindrome", (3, 12, 2, 10)), Mark("palindrome", (73, 65, 57)))},
        "........1.....3.........47.6...2..........8..5.....6..........51..79..8..8..5....",
    ),
    "sandwich": (
        {"marks": (Mark("sandwich", tuple(range(8, -1, -1)), 3), Mark("sandwich", tuple(range(2, 81, 9)), 20))},
        ".5.2.......1.73.......1....698....43....4..5.............8.....1.....2.62.6...7..",
    ),
}


def _case(word: str) -> tuple[Variant, Grid]:
    data, givens = ORACLE_CASES[word]
    variant = Variant((word,), **data)  # type: ignore[arg-type]
    return variant, Grid.trusted(tuple(0 if ch == "." else int(ch) for ch in givens), 3, 3)


def test_every_rule_has_an_oracle_case_and_data_of_a_known_kind():
    assert set(ORACLE_CASES) == set(RULES)
    for rule in (*RULES.values(), PENCILMARKS):
        assert rule.data in DATA_KINDS, rule.word
        assert rule.data == "none" or any(f.name == rule.data for f in dataclasses.fields(Variant)), rule.word


@pytest.mark.parametrize(
    "word",
    # non-consecutive takes CP-SAT 15 s: CI runs it (the slow tier), the default run the others
    [pytest.param(w, marks=pytest.mark.slow) if w == "nonconsecutive" else w for w in sorted(RULES)],
)
def test_every_rule_compiles_to_known_kinds_and_agrees_with_cpsat(word: str) -> None:
    variant, grid = _case(word)
    geometry = variant_geometry(variant)
    kinds = (AllDifferent, Relation, Sum, Candidates, Between)
    assert all(isinstance(constraint, kinds) for constraint in geometry.constraints)
    assert len(geometry.constraint_rules) == len(geometry.constraint_names) == len(geometry.constraints)
    assert set(geometry.constraint_rules) <= {word}
    found = solutions(grid.cells, geometry)
    assert len(found) in (1, 2)
    first = smallest(grid.cells, geometry)
    assert first is not None
    assert _python.solve(grid, geometry=geometry).cells == first
    assert _python.count_solutions(grid, geometry=geometry) == len(found)
    assert solver.solve(grid, geometry=geometry).cells == first
    assert solver.count_solutions(grid, geometry=geometry) == len(found)
