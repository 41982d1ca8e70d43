"""True candidates (``CANDIDATES``): every digit each cell takes in SOME solution, under any rules.

What sigh's Interactive Sudoku Solver and dclamage's SudokuSolver show as
"true candidates". The algorithm (theirs too): solve once; then for each
``(cell, digit)`` pair no solution found so far holds, ask the solver for a
solution with that digit placed there. Each solution found marks every pair
it holds, so most pairs are settled by solutions found for others; each pair
left is either found in a solution or proved to be in none. The work is one
solver call per pair not seen, at most ``size ** 3``; a digit a given peer
holds, or a candidate mask (pencilmarks, odd/even) forbids, is no candidate
and asks nothing.

On the native core it is one C search instead
(:func:`.solver.native_candidates`): a depth-first search over the
solutions that drops every node whose candidates all lie in solutions found
already, so that a puzzle with one solution costs about one count to two,
where one call per pair cost one proof of "no solution" per pair (measured
in benchmarks/RESULTS.md). Elsewhere the calls go to the solver core in use.
The answers are the same either way: the set of true candidates does not
depend on which solutions are found, or how.

Pure and synchronous.
"""

from __future__ import annotations

from collections.abc import Sequence

from sudoku_server.sudoku import solver as _solver
from sudoku_server.sudoku.check import Check, no_check
from sudoku_server.sudoku.constraints import Candidates
from sudoku_server.sudoku.geometry import Geometry
from sudoku_server.sudoku.grid import Grid

__all__ = ["CHECK_EVERY", "true_candidates"]

#: Solver calls between two calls of ``check`` (a call shorter than 0.5 ms never calls it itself).
CHECK_EVERY = 16


def _allowed(grid: Grid, geometry: Geometry) -> list[int]:
    """Per cell the digits not ruled out at once: a given's own digit; else the candidate masks, minus given peers."""
    size = grid.size
    full = (1 << size) - 1
    masks = [full] * len(grid.cells)
    for constraint in geometry.constraints:
        if isinstance(constraint, Candidates):
            masks = [m & k for m, k in zip(masks, constraint.masks)]
    cells = grid.cells
    for c, d in enumerate(cells):
        if d:
            masks[c] = 1 << (d - 1)
            continue
        for p in geometry.peers[c]:
            if cells[p]:
                masks[c] &= ~(1 << (cells[p] - 1))
    return masks


def true_candidates(grid: Grid, *, check: Check | None = None, geometry: Geometry | None = None) -> tuple[int, ...]:
    """The true candidates of ``grid``: per cell (row-major) the digits some solution holds there.

    Args:
      grid: the puzzle (``size * size`` ints row-major, 0 = empty).
      check: the stop hook (:data:`~.check.Check`), called between solver
        calls (every :data:`CHECK_EVERY`) and by the solver in long searches;
        what it raises propagates unchanged.
      geometry: the rules (None: the classic geometry of the grid's shape).

    Returns:
      Per cell a mask, bit ``d - 1`` for digit ``d``; a given's mask is its
      digit alone. Every mask is non-zero.

    Raises:
      InvalidPuzzleError, UnsolvableError: as :func:`.solver.solve_any`
        raises them for the puzzle (the first solve).
    """
    if check is None:
        check = no_check
    geo = grid.geometry if geometry is None else geometry
    first = _solver.solve_any(grid, check=check, geometry=geometry)
    native = _solver.native_candidates(grid, geometry, check)
    if native is not None:
        return native
    seen = [1 << (d - 1) for d in first.cells]
    allowed = _allowed(grid, geo)
    find = _solver.find_cells(grid, geometry)
    cells = list(grid.cells)
    calls = 0
    for c in range(len(cells)):
        if cells[c]:
            continue
        left = allowed[c] & ~seen[c]
        while left:
            low = left & -left
            d = low.bit_length()
            left ^= low
            if seen[c] & low:
                continue  # a solution found for an earlier pair holds it
            calls += 1
            if calls % CHECK_EVERY == 0:
                check()
            cells[c] = d
            found = find(cells, check)
            cells[c] = 0
            if found is not None:
                _mark(seen, found)
    return tuple(seen)


def _mark(seen: list[int], solution: Sequence[int]) -> None:
    for c, d in enumerate(solution):
        seen[c] |= 1 << (d - 1)
