"""Rules of relation pairs on the classic 9x9 units are solved by the 9x9 engine, with the same answers.

A geometry of the classic rows, columns and boxes whose only constraints are
relation pairs (thermometers, kropki dots and their negative rule, XV,
German whispers, palindromes, renban lines: their runs in
``_native_9x9_runs.h``, test_native_9x9_runs.py) and starting candidates is
searched by the classic 9x9 engine (``_native_9x9.h`` with
``_native_9x9_pairs.h``: each pair brought to arc consistency on the digit
masks), not the general one; rules with sums, between lines or differ pairs
keep the general engine. The engine changes,
never the answer: every answer here is held to the stored solutions and to
the Python core (first solution in row-major order, count, true candidates).
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from sudoku_server.errors import InvalidPuzzleError
from sudoku_server.sudoku import solver
from sudoku_server.sudoku.candidates import true_candidates
from sudoku_server.sudoku.grid import Grid, check_givens
from sudoku_server.sudoku.variants import Variant, variant_geometry
from sudoku_server.text.fpuzzles import marks_line
from tests.support.native import native_core_for_module

NATIVE = native_core_for_module()

STORED = Path(__file__).resolve().parents[2] / "puzzles" / "variants"
PAIR_RULES = ("thermo", "kropki", "xv", "whispers", "palindrome")


def read(line: str, *more_rules: str):  # type: ignore[no-untyped-def]
    """The grid and geometry of a ``<givens> <marks>`` line, with ``more_rules`` (rules= words) added."""
    puzzle = marks_line(line, 1, "\n")
    assert puzzle is not None and puzzle.variant is not None
    variant = dataclasses.replace(puzzle.variant, rules=(*more_rules, *puzzle.variant.rules))
    return puzzle.grid, variant_geometry(variant)


def stored(rule: str, count: int) -> list[tuple[str, str]]:
    """The first ``count`` puzzles of ``bench_<rule>.txt``: (``<givens> <marks>`` line, solution)."""
    out = []
    for line in (STORED / f"bench_{rule}.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            _rule, givens, solution, *fields = line.split()
            out.append((f"{givens.replace('0', '.')} {' '.join(fields)}", solution))
            if len(out) == count:
                break
    return out


def engine(line: str, *more_rules: str) -> str:
    """The engine the native core searches ``line``'s geometry with."""
    _grid, geo = read(line, *more_rules)
    return solver._native.engine(solver._prepare(geo))  # type: ignore[union-attr,no-any-return]


@pytest.mark.parametrize("rule", PAIR_RULES)
def test_the_pair_rules_go_to_the_9x9_engine(rule: str) -> None:
    line, _solution = stored(rule, 1)[0]
    assert engine(line) == "e9"


@pytest.mark.parametrize("rule", ["sandwich"])
def test_rules_beyond_plain_pairs_keep_the_general_engine(rule: str) -> None:
    line, _solution = stored(rule, 1)[0]
    assert engine(line) == "eg"


def test_pairs_beside_a_differ_rule_keep_the_general_engine() -> None:
    """Anti-knight adds differ pairs (peers beyond the units): not the 9x9 engine; non-consecutive adds pairs."""
    line, _solution = stored("thermo", 1)[0]
    assert engine(line) == "e9"
    assert engine(line, "nonconsecutive") == "e9"
    assert engine(line, "antiknight") == "eg"


def test_the_stored_non_consecutive_puzzles_keep_their_solutions() -> None:
    """The rule alone (a relation over every two orthogonal neighbours) on grids of a few givens."""
    rows = [line.split() for line in (STORED / "bench_nonconsecutive.txt").read_text().splitlines()]
    for rules, givens, solution in [row[:3] for row in rows if row and not row[0].startswith("#")][:4]:
        grid, geo = Grid.from_string(givens), variant_geometry(Variant(rules=tuple(rules.split("+"))))
        assert solver._native.engine(solver._prepare(geo)) == "e9"  # type: ignore[union-attr]
        assert NATIVE.count_solutions(grid, 2, geometry=geo) == 1
        assert NATIVE.solve(grid, geometry=geo).to_string() == solution


@pytest.mark.parametrize("rule", PAIR_RULES)
def test_the_stored_puzzles_keep_their_solutions(rule: str) -> None:
    for line, solution in stored(rule, 40):
        grid, geo = read(line)
        assert NATIVE.count_solutions(grid, 2, geometry=geo) == 1, line
        assert NATIVE.solve(grid, geometry=geo).to_string() == solution, line
        assert NATIVE.solve_any(grid, geometry=geo).to_string() == solution, line


@pytest.mark.parametrize(
    ("rule", "given", "negative"),
    [("thermo", 22, True), ("kropki", 8, True), ("kropki", 16, False), ("xv", 12, True), ("whispers", 22, True)]
    + [("palindrome", 22, True)],
)
def test_puzzles_with_givens_taken_away_get_the_python_cores_answers(rule: str, given: int, negative: bool) -> None:
    """``given`` cells of the solution given (and the dots' negative rule dropped, unless ``negative``): most
    such grids have several solutions, so the row-major-first one, the count and the true candidates all
    matter (kropki with its negative rule keeps one solution even with no given)."""
    rng = random.Random(rule)
    counts = []
    for line, solution in stored(rule, 6):
        marks = line.split(" ", 1)[1]
        if not negative:
            marks = marks.replace(";negative", "")
        some = set(rng.sample(range(81), given))
        grid, geo = read("".join(ch if i in some else "." for i, ch in enumerate(solution)) + " " + marks)
        count = solver.PYTHON.count_solutions(grid, 2, geometry=geo)
        counts.append(count)
        assert NATIVE.count_solutions(grid, 2, geometry=geo) == count
        assert NATIVE.solve(grid, geometry=geo).cells == solver.PYTHON.solve(grid, geometry=geo).cells
        assert solver.native_candidates(grid, geometry=geo) == true_candidates(grid, geometry=geo)
    assert (2 in counts) is ((rule, negative) != ("kropki", True))


def test_an_open_grid_with_one_thermometer_answers_the_first_grid_that_keeps_it() -> None:
    """r1c1 < r1c2 < r1c3 is what the classic first grid 123456789 holds already; r1c3 < r1c2 < r1c1 is not."""
    up, _geo = read("." * 81 + " thermo=r1c1-r1c2-r1c3")
    assert NATIVE.solve(up, geometry=_geo).to_string()[:9] == "123456789"
    grid, geo = read("." * 81 + " thermo=r1c3-r1c2-r1c1")
    first = solver.PYTHON.solve(grid, geometry=geo).to_string()
    assert first[:9] == "321456789"
    assert NATIVE.solve(grid, geometry=geo).to_string() == first
    assert NATIVE.count_solutions(grid, 5, geometry=geo) == 5


def test_a_given_that_leaves_no_solution_is_found_unsolvable() -> None:
    """A digit given in an empty cell of a unique puzzle, other than its solution's and breaking no pair nor
    unit directly: no grid keeps it, on either core."""
    line, solution = stored("thermo", 1)[0]
    givens, marks = line.split(" ", 1)
    grid, geo = read(line)
    for cell, ch in enumerate(givens):
        if ch != ".":
            continue
        for digit in "123456789":
            if digit == solution[cell]:
                continue
            broken = givens[:cell] + digit + givens[cell + 1 :]
            grid, geo = read(f"{broken} {marks}")
            try:
                check_givens(grid, geo)
            except InvalidPuzzleError:
                continue
            assert NATIVE.count_solutions(grid, 2, geometry=geo) == 0
            assert solver.PYTHON.count_solutions(grid, 2, geometry=geo) == 0
            assert solver.native_candidates(grid, geometry=geo) is None
            return
    raise AssertionError("no such given")


def test_givens_that_break_a_pair_are_invalid_as_on_the_general_engine() -> None:
    """r1c1 given 5 and r1c2 given 3 on a thermometer r1c1-r1c2: the pair is broken by the givens."""
    grid, geo = read("53" + "." * 79 + " thermo=r1c1-r1c2")
    assert NATIVE.count_solutions(grid, 2, geometry=geo) == 0
    with pytest.raises(InvalidPuzzleError):
        NATIVE.solve(grid, geometry=geo)
    assert solver._native.solve(grid.cells, solver._prepare(geo)) == solver._native.INVALID  # type: ignore[union-attr]
