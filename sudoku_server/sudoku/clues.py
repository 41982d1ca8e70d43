"""Which givens a puzzle needs: the check behind "minimal".

A puzzle with exactly one solution is *minimal* when no single given can be
removed without the puzzle gaining a second solution (the usual definition
in the Sudoku community, e.g. the "minimal puzzle" of the Sudoku Players'
Forum and Gordon Royle's collection of minimal 17-clue puzzles). Also :func:`uniqueness`, the check behind UNIQUE: where the solutions of a
puzzle that is not unique differ, and which clues make it unique. Pure and
synchronous, like the rest of the domain.
"""

from __future__ import annotations

from dataclasses import dataclass

from sudoku_server.sudoku.check import Check
from sudoku_server.sudoku.geometry import Geometry
from sudoku_server.sudoku.grid import Grid, check_givens


def redundant_givens(grid: Grid, *, check: Check | None = None, geometry: Geometry | None = None) -> tuple[int, ...]:
    """The givens each of which can be removed alone while the puzzle keeps one solution.

    Args:
      grid: a puzzle with exactly one solution (``size * size`` ints
        row-major, 0 = empty).
      check: the stop hook (:mod:`sudoku_server.sudoku.check`), passed to
        every count.
      geometry: the rules (:mod:`..geometry`, a variant's units and
        constraints); None for the classic geometry of the grid's box shape.

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

    check_givens(grid, geometry)
    unique_solution(grid, check=check, geometry=geometry)  # raises unless exactly one solution
    cells = list(grid.cells)
    redundant = []
    for index, digit in enumerate(grid.cells):
        if not digit:
            continue
        cells[index] = 0
        # The solution still fits, so there is at least one: is there a second?
        smaller = Grid(tuple(cells), grid.box_rows, grid.box_cols, grid.symbols)
        if count_solutions(smaller, 2, check=check, geometry=geometry) == 1:
            redundant.append(index)
        cells[index] = digit
    return tuple(redundant)


#: Solutions counted, at most, for each candidate clue when no single clue
#: makes the puzzle unique and :func:`uniqueness` picks the clue that leaves
#: the fewest (a cap: a larger count is as good as this one).
CUT_LIMIT = 64


@dataclass(frozen=True)
class Uniqueness:
    """What :func:`uniqueness` found about a puzzle's solutions.

    Attributes:
      unique: exactly one solution (the other fields are then empty).
      first: the row-major-first solution (what SOLVE answers), ``size * size`` digits; () when unique.
      last: the row-major-last solution (the largest read as one number); () when unique.
      differ: the cells (0-based, row-major) where ``first`` and ``last`` differ.
      add: the clues ``(cell, digit)`` each of which, added alone, leaves exactly
        one solution (every one checked by a count), row-major then by digit;
        when ``add_all`` is set, a set of clues that together do (no single one does).
      add_all: no single clue suffices: ``add`` is a set found to work together.
    """

    unique: bool
    first: tuple[int, ...] = ()
    last: tuple[int, ...] = ()
    differ: tuple[int, ...] = ()
    add: tuple[tuple[int, int], ...] = ()
    add_all: bool = False


def uniqueness(grid: Grid, *, check: Check | None = None, geometry: Geometry | None = None) -> Uniqueness:
    """Whether a puzzle has one solution; if not, two of them, where they differ, and the clues that fix it.

    The two solutions are the row-major-first and the row-major-last (the
    first is :func:`~sudoku_server.sudoku.solver.solve`'s answer; the last is
    the largest solution read as one number: for the classic geometry, and a
    variant one with no rules but units and peers, the same search with the
    digits relabelled ``d -> size + 1 - d``, as it is under units and
    pairs of cells that must differ (anti-knight, anti-king); under killer
    cages, nonconsecutive or pencilmarks, whose rules name digits,
    :func:`_last_solution`'s cell-by-cell search). A clue ``(cell, digit)`` is listed
    in ``add`` when the puzzle with it added has exactly one solution,
    checked by a count for every empty cell and every digit its peers' givens
    leave. When none does, ``add`` is a set found greedily (each round adds
    the row-major-first solution's digit at the cell that leaves the fewest
    solutions, counted up to :data:`CUT_LIMIT`, until one clue more suffices
    alone; then every clue the others make unnecessary is dropped) and
    checked by a count: small, not proven smallest.

    Args:
      grid: the puzzle (``size * size`` ints row-major, 0 = empty), any box shape.
      check: the stop hook (:mod:`sudoku_server.sudoku.check`), passed to every search.
      geometry: the rules (:mod:`..geometry`: a variant's units and
        constraints, every search and count under them); None for the classic
        geometry of the grid's box shape.

    Returns:
      Uniqueness.

    Raises:
      InvalidPuzzleError: two givens share a unit, or break another rule of ``geometry``.
      UnsolvableError: no solution (the detail of :func:`~sudoku_server.sudoku.solver.solve`).
    """
    from sudoku_server.sudoku.solver import count_solutions, solve

    if geometry is not None and geometry.classic:
        geometry = None
    check_givens(grid, geometry)
    first = solve(grid, check=check, geometry=geometry).cells  # raises UnsolvableError
    shape = (grid.box_rows, grid.box_cols, grid.symbols)
    if count_solutions(grid, 2, check=check, geometry=geometry) == 1:
        return Uniqueness(True)
    if geometry is None or all(getattr(rule, "differ", False) for rule in geometry.constraints):
        top = grid.size + 1
        flipped = Grid.trusted(tuple(top - v if v else 0 for v in grid.cells), *shape)
        last = tuple(top - v for v in solve(flipped, check=check, geometry=geometry).cells)
    else:
        last = _last_solution(grid, first, geometry, check)
    differ = tuple(cell for cell, (a, b) in enumerate(zip(first, last)) if a != b)
    fixes, _ = _single_clues(list(grid.cells), grid, check, geometry)
    if fixes:
        return Uniqueness(False, first, last, differ, tuple(fixes))
    return Uniqueness(False, first, last, differ, _clue_set(grid, check, geometry), add_all=True)


def _last_solution(grid: Grid, known: tuple[int, ...], geometry: Geometry, check: Check | None) -> tuple[int, ...]:
    """The row-major-last solution of ``grid`` under ``geometry``, with no relabelling (any rules).

    Cell by cell in row-major order, each empty cell takes the largest digit
    that still leaves a solution with the cells before it fixed: from
    ``known`` (a solution), only the digits above the current solution's are
    tried, each by one search, and a digit that fits brings its solution.
    """
    from sudoku_server.errors import InvalidPuzzleError, UnsolvableError
    from sudoku_server.sudoku.solver import solve

    shape = (grid.box_rows, grid.box_cols, grid.symbols)
    cells = list(grid.cells)
    current = known
    for cell, given in enumerate(grid.cells):
        if given:
            continue
        for digit in range(grid.size, current[cell], -1):
            cells[cell] = digit
            try:
                current = solve(Grid.trusted(tuple(cells), *shape), check=check, geometry=geometry).cells
            except (UnsolvableError, InvalidPuzzleError):  # no solution; or the digit breaks a rule (a cage's sum)
                continue
            break
        cells[cell] = current[cell]
    return current


def _count(cells: list[int], grid: Grid, limit: int, check: Check | None, geometry: Geometry | None = None) -> int:
    from sudoku_server.sudoku.solver import count_cells, count_solutions

    if geometry is None:
        return count_cells(cells, grid, limit, check=check)
    from sudoku_server.errors import InvalidPuzzleError

    puzzle = Grid.trusted(tuple(cells), grid.box_rows, grid.box_cols, grid.symbols)
    try:
        return count_solutions(puzzle, limit, check=check, geometry=geometry)
    except InvalidPuzzleError:  # the clue breaks a rule (a cage's sum): no solution, as count_cells counts it
        return 0


def _single_clues(
    cells: list[int], grid: Grid, check: Check | None, geometry: Geometry | None
) -> tuple[list[tuple[int, int]], dict[int, int]]:
    """The clues each leaving exactly one solution, and for each empty cell how many digits leave any.

    ``cells`` is restored before returning.
    """
    peers = (grid.geometry if geometry is None else geometry).peers
    digits = range(1, grid.size + 1)
    fixes: list[tuple[int, int]] = []
    open_digits: dict[int, int] = {}
    for cell, value in enumerate(cells):
        if value:
            continue
        used = {cells[p] for p in peers[cell]}
        fitting = 0
        for digit in digits:
            if digit in used:
                continue
            cells[cell] = digit
            found = _count(cells, grid, 2, check, geometry)
            if found:
                fitting += 1
                if found == 1:
                    fixes.append((cell, digit))
        cells[cell] = 0
        open_digits[cell] = fitting
    return fixes, open_digits


def _clue_set(grid: Grid, check: Check | None, geometry: Geometry | None) -> tuple[tuple[int, int], ...]:
    """Clues that together leave one solution, when no single clue does (:func:`uniqueness`)."""
    from sudoku_server.sudoku.solver import solve

    cells = list(grid.cells)
    added: list[tuple[int, int]] = []
    while True:
        fixes, open_digits = _single_clues(cells, grid, check, geometry)
        if fixes:
            added.append(fixes[0])
            cells[fixes[0][0]] = fixes[0][1]
            break
        shape = (grid.box_rows, grid.box_cols, grid.symbols)
        target = solve(Grid.trusted(tuple(cells), *shape), check=check, geometry=geometry).cells
        best: tuple[int, int] | None = None
        for cell, fitting in open_digits.items():
            if fitting < 2:  # the same digit in every solution: no cut
                continue
            cells[cell] = target[cell]
            left = _count(cells, grid, CUT_LIMIT, check, geometry)
            cells[cell] = 0
            if best is None or left < best[0]:
                best = (left, cell)
        assert best is not None  # several solutions: some cell takes two digits
        cell = best[1]
        cells[cell] = target[cell]
        added.append((cell, target[cell]))
    # drop every clue the others make unnecessary (the last one is needed: none sufficed without it)
    for clue in list(added[:-1]):
        cells[clue[0]] = 0
        if _count(cells, grid, 2, check, geometry) == 1:
            added.remove(clue)
        else:
            cells[clue[0]] = clue[1]
    if _count(cells, grid, 2, check, geometry) != 1:
        raise RuntimeError("the clues found do not make the puzzle unique")
    return tuple(sorted(added))
