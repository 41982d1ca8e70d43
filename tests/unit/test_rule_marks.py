"""The rules that take marks (issue 29): ``oddeven`` (odd/even cells) and ``thermo`` (thermometers).

Each puzzle below was made with CP-SAT (tests/support/cpsat_oracle.py) from the solution
``SOLUTION``: marks drawn to fit it, then givens removed while CP-SAT still finds one solution.
Both cores (the native facade falls back to the Python core for relations it does not take) and
CP-SAT agree on that one solution; broken givens are named by rule and place.
"""

from __future__ import annotations

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rules.base import Mark
from sudoku_server.sudoku.solver import _python
from sudoku_server.sudoku.variants import Variant, broken_rule, variant_geometry, wrong_in_solution
from tests.support.cpsat_oracle import solutions

SOLUTION = "754286931921473568863915472698527143312649857547138629479862315135794286286351794"

ODD, EVEN = 1, 2
ODDEVEN_MARKS = tuple(
    Mark("oddeven", (c,), v)
    for c, v in (
        (0, ODD), (3, EVEN), (8, ODD), (12, EVEN), (15, ODD), (17, EVEN), (26, EVEN), (32, ODD),
        (48, ODD), (49, ODD), (55, ODD), (57, EVEN), (60, ODD), (62, ODD), (63, ODD), (72, EVEN),
    )
)  # fmt: skip
ODDEVEN_PUZZLE = ".5.2.......1.73.......1....698....43....4..5.............8.....1.....2.62.6...7.."

THERMO_LINES = (
    (72, 64, 56), (15, 25, 17), (60, 70, 79), (12, 13, 4), (49, 50, 41),
    (40, 30, 21), (3, 2, 1, 0, 9), (58, 66, 57, 67), (23, 32, 42),
)  # fmt: skip
THERMO_MARKS = tuple(Mark("thermo", line) for line in THERMO_LINES)
THERMO_PUZZLE = ".....6.............6..1.4...........3.2.......4....6.9.......1.135..............."


def _grid(text: str) -> Grid:
    return Grid.trusted(tuple(0 if ch == "." else int(ch) for ch in text), 3, 3)


def _check_unique(word: str, marks: tuple[Mark, ...], puzzle: str) -> None:
    geo = variant_geometry(Variant((word,), marks=marks))
    grid = _grid(puzzle)
    assert ["".join(map(str, s)) for s in solutions(grid.cells, geo)] == [SOLUTION]
    assert _python.solve(grid, geometry=geo).to_string() == SOLUTION
    assert solver.solve(grid, geometry=geo).to_string() == SOLUTION
    assert solver.count_solutions(grid, geometry=geo) == 1
    assert _python.count_solutions(grid, geometry=geo) == 1
    assert solver.count_solutions(grid) == 2  # the givens alone: not unique


def test_oddeven_compiles_to_one_candidates_mask():
    geo = variant_geometry(Variant(("oddeven",), marks=ODDEVEN_MARKS))
    (masks,) = [c.masks for c in geo.constraints]  # type: ignore[union-attr]
    assert masks[0] == 0b101010101 and masks[3] == 0b010101010 and masks[1] == 0b111111111


def test_oddeven_puzzle_is_unique_on_both_cores_and_cpsat():
    _check_unique("oddeven", ODDEVEN_MARKS, ODDEVEN_PUZZLE)


def test_oddeven_broken_given_and_solution_are_named():
    geo = variant_geometry(Variant(("oddeven",), marks=ODDEVEN_MARKS))
    assert broken_rule(_grid("4" + "." * 80), geo) == "4 at r1c1 is even on a cell marked odd"
    assert broken_rule(_grid("...3" + "." * 77), geo) == "3 at r1c4 is odd on a cell marked even"
    wrong = _grid("3" + SOLUTION[1:3] + "7" + SOLUTION[4:])
    assert wrong_in_solution(wrong, wrong, geo) == "r1c4 is marked even and holds 7"


def test_thermo_compiles_to_one_increasing_relation_per_line():
    geo = variant_geometry(Variant(("thermo",), marks=THERMO_MARKS))
    assert geo.constraint_names[6] == "thermometer r1c4-r2c1"
    assert geo.constraints[6].pairs == ((3, 2), (2, 1), (1, 0), (0, 9))  # type: ignore[union-attr]
    assert geo.constraints[6].allows(3, 4) and not geo.constraints[6].allows(4, 4)  # type: ignore[union-attr]


def test_thermo_puzzle_is_unique_on_both_cores_and_cpsat():
    _check_unique("thermo", THERMO_MARKS, THERMO_PUZZLE)


def test_thermo_broken_givens_are_named_by_line_and_cells():
    geo = variant_geometry(Variant(("thermo",), marks=(Mark("thermo", (0, 1, 2, 3)),)))
    assert broken_rule(_grid(".75" + "." * 78), geo) == "thermometer r1c1-r1c4: 7 at r1c2 is not below 5 at r1c3"
    wrong = _grid("987654321" + "." * 72)
    assert wrong_in_solution(wrong, wrong, geo) == "thermometer r1c1-r1c4: r1c1 holds 9, not below 8 at r1c2"
