"""Which givens a puzzle needs: the check behind "minimal".

A puzzle with exactly one solution is *minimal* when no single given can be
removed without the puzzle gaining a second solution (the usual definition
in the Sudoku community, e.g. the "minimal puzzle" of the Sudoku Players'
Forum and Gordon Royle's collection of minimal 17-clue puzzles). Pure and
synchronous, like the rest of the domain.
"""

from __future__ import annotations

from sudoku_server.sudoku.check import Check
from sudoku_server.sudoku.grid import Grid, check_givens


def redundant_givens(grid: Grid, *, check: Check | None = None) -> tuple[int, ...]:
    """The givens each of which can be removed alone while the puzzle keeps one solution.

    Args:
      grid: a puzzle with exactly one solution (``size * size`` ints
        row-major, 0 = empty).
      check: the stop hook (:mod:`sudoku_server.sudoku.check`), passed to
        every count.

    Returns:
      The 0-based indices of those given cells, row-major; ``()`` when the
      puzzle is minimal.

    Raises:
      InvalidPuzzleError: two givens share a unit.
      UnsolvableError: no solution.
      MultipleSolutionsError: several solutions (the detail names a cell that
        differs between two of them).
    """
    from sudoku_server.sudoku.solver import count_solutions
    from sudoku_server.sudoku.techniques import unique_solution

    check_givens(grid)
    unique_solution(grid, check=check)  # raises unless exactly one solution
    cells = list(grid.cells)
    redundant = []
    for index, digit in enumerate(grid.cells):
        if not digit:
            continue
        cells[index] = 0
        # The solution still fits, so there is at least one: is there a second?
        if count_solutions(Grid(tuple(cells), grid.box_rows, grid.box_cols, grid.symbols), 2, check=check) == 1:
            redundant.append(index)
        cells[index] = digit
    return tuple(redundant)
