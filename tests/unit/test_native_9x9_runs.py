"""Renban lines are solved by the 9x9 engine with their runs, with the same answers (issue 29).

A renban line of k <= 7 cells is a run (``geo_runs``: k distinct digits
within k - 1 of each other); on the classic 9x9 units the 9x9 engine keeps
it as the general engine does (``_native_9x9_runs.h``, ``e9_runs``: each
cell keeps the digits of the one-to-one placements of some window of k
consecutive digits). Longer lines are relation pairs only. The engine
changes, never the answer: every answer here is held to the stored
solutions and to the Python core (first solution in row-major order, count,
true candidates), and a broken puzzle is ``COUNT 0 unsolvable``.
"""

from __future__ import annotations

import random

import pytest

from sudoku_server.errors import InvalidPuzzleError
from sudoku_server.sudoku import solver
from sudoku_server.sudoku.candidates import true_candidates
from sudoku_server.sudoku.grid import check_givens
from tests.support.native import native_core_for_module
from tests.support.sessions import replies
from tests.unit.test_native_9x9_engine_from_pairs import engine, read, stored

NATIVE = native_core_for_module()

#: An open grid's renban lines: a run of 4 across two boxes, a run of 7 bent over three rows, a line of 8
#: (no run: its pairs only) and one of 2 (a pair).
LINES = {
    "four": "renban=r1c2-r1c3-r1c4-r1c5",
    "seven": "renban=r4c1-r4c2-r5c3-r6c4-r6c5-r5c6-r4c7",
    "eight": "renban=r9c1-r9c2-r9c3-r9c4-r9c5-r9c6-r9c7-r9c8",
    "two": "renban=r2c2-r3c3",
}


def test_renban_goes_to_the_9x9_engine() -> None:
    line, _solution = stored("renban", 1)[0]
    assert engine(line) == "e9"
    for marks in LINES.values():
        assert engine("." * 81 + " " + marks) == "e9", marks


def test_renban_beside_a_differ_rule_keeps_the_general_engine() -> None:
    line, _solution = stored("renban", 1)[0]
    assert engine(line, "antiknight") == "eg"


def test_the_stored_renban_puzzles_keep_their_solutions() -> None:
    for line, solution in stored("renban", 200):
        grid, geo = read(line)
        assert NATIVE.count_solutions(grid, 2, geometry=geo) == 1, line
        assert NATIVE.solve(grid, geometry=geo).to_string() == solution, line
        assert NATIVE.solve_any(grid, geometry=geo).to_string() == solution, line


@pytest.mark.parametrize("given", [18, 24])
def test_renban_with_givens_taken_away_gets_the_python_cores_answers(given: int) -> None:
    """``given`` cells of the solution given: most such grids have several solutions, so the row-major-first
    one, the count and the true candidates all matter."""
    rng = random.Random(given)
    counts = []
    for line, solution in stored("renban", 8):
        marks = line.split(" ", 1)[1]
        some = set(rng.sample(range(81), given))
        grid, geo = read("".join(ch if i in some else "." for i, ch in enumerate(solution)) + " " + marks)
        count = solver.PYTHON.count_solutions(grid, 3, geometry=geo)
        counts.append(count)
        assert NATIVE.count_solutions(grid, 3, geometry=geo) == count, line
        assert NATIVE.solve(grid, geometry=geo).cells == solver.PYTHON.solve(grid, geometry=geo).cells, line
        assert solver.native_candidates(grid, geometry=geo) == true_candidates(grid, geometry=geo), line
    assert 3 in counts


@pytest.mark.parametrize("name", sorted(LINES))
def test_an_open_grid_with_one_line_answers_as_the_python_core(name: str) -> None:
    grid, geo = read("." * 81 + " " + LINES[name])
    first = solver.PYTHON.solve(grid, geometry=geo).to_string()
    assert NATIVE.solve(grid, geometry=geo).to_string() == first
    assert NATIVE.count_solutions(grid, 4, geometry=geo) == 4


def test_the_first_grid_of_a_run_of_four() -> None:
    """r1c2..r1c5 consecutive: 1 at r1c1 leaves them 2345 in the row-major-first grid; with 9 given at r1c2
    the run is 6789 (the window 6-9), the first grid 1 9 6 7 8 2 3 4 5 in row 1."""
    grid, geo = read("." * 81 + " " + LINES["four"])
    assert NATIVE.solve(grid, geometry=geo).to_string()[:9] == "123456789"
    grid, geo = read("." + "9" + "." * 79 + " " + LINES["four"])
    first = NATIVE.solve(grid, geometry=geo).to_string()
    assert first[:9] == "196782345"
    assert first == solver.PYTHON.solve(grid, geometry=geo).to_string()


def test_a_run_that_cannot_be_filled_is_unsolvable() -> None:
    """1 at r1c2 and 4 at r1c5 on a run of four leave r1c3 and r1c4 the digits 2 and 3, which row 1 holds at
    r1c8 and r1c9: no pair of givens breaks the line, no grid keeps it."""
    grid, geo = read("." + "1" + "." * 2 + "4" + "." * 2 + "23" + "." * 72 + " " + LINES["four"])
    check_givens(grid, geo)
    assert NATIVE.count_solutions(grid, 2, geometry=geo) == 0
    assert solver.PYTHON.count_solutions(grid, 2, geometry=geo) == 0
    assert solver.native_candidates(grid, geometry=geo) is None


def test_a_line_of_eight_is_no_run() -> None:
    """A run has at most seven cells (RUN_MAX): a line of eight once passed as a run of eight and overran the
    runs' arrays of seven (the general engine's ev_runs by luck, e9_runs to no solution); it is pairs only."""
    grid, geo = read("." * 81 + " " + LINES["eight"])
    assert NATIVE.count_solutions(grid, 4, geometry=geo) == 4
    first = NATIVE.solve(grid, geometry=geo).to_string()
    assert first[72:] == solver.PYTHON.solve(grid, geometry=geo).to_string()[72:]
    assert sorted(first[72:80]) in (list("12345678"), list("23456789"))


def test_stored_renban_puzzles_with_a_given_changed_are_count_0_unsolvable() -> None:
    """The first stored puzzles, each with its first empty cell given a digit that breaks no rule directly
    (no peer, no pair holds it) but is not its solution's: ``COUNT 0 unsolvable`` through the session."""
    broken = 0
    for line, solution in stored("renban", 12):
        givens, marks = line.split(" ", 1)
        for cell, ch in enumerate(givens):
            if ch != ".":
                continue
            wrong = [d for d in "123456789" if d != solution[cell]]
            for digit in wrong:
                puzzle = givens[:cell] + digit + givens[cell + 1 :]
                grid, geo = read(f"{puzzle} {marks}")
                try:
                    check_givens(grid, geo)
                except InvalidPuzzleError:
                    continue
                assert replies(f"COUNT {puzzle} {marks}\n".encode()) == b"COUNT 0 unsolvable\n", puzzle
                broken += 1
                break
            break
    assert broken == 12
