"""sudoku-server: a plain-text TCP service that solves Sudoku puzzles.

The public API here is pure (it imports no trio and touches no sockets):

* :class:`Grid` — a puzzle or solution (``size * size`` ints, 0 = empty);
* :func:`solve`, :func:`solve_any`, :func:`count_solutions` — the solver (native
  or pure Python: ``solver.CORE``);
* :func:`parse` / :class:`Puzzle` — text in any supported layout;
* the errors, each carrying its wire code.

The server lives in :mod:`sudoku_server.server` and the command line in
:mod:`sudoku_server.cli` (``sudoku-server`` / ``python -m sudoku_server``).
"""

from ._errors import (
    InvalidPuzzleError,
    PuzzleError,
    PuzzleFormatError,
    SolutionMismatchError,
    UnsolvableError,
)
from .grid import Grid, cell_name, geometry, verify_solution
from .solver import count_solutions, solve, solve_any

__version__ = "0.1.0"

__all__ = [
    "Grid",
    "InvalidPuzzleError",
    "PuzzleError",
    "PuzzleFormatError",
    "SolutionMismatchError",
    "UnsolvableError",
    "cell_name",
    "count_solutions",
    "geometry",
    "solve",
    "solve_any",
    "verify_solution",
]
