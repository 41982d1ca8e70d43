"""sudoku-server: a plain-text TCP service that solves Sudoku puzzles.

The public API here is pure (it imports no trio and touches no sockets):

* :class:`Grid` — a puzzle or solution (``size * size`` ints, 0 = empty);
* :func:`solve`, :func:`solve_any`, :func:`count_solutions` — the solver (native
  or pure Python: ``solver.CORE``);
* :func:`next_step`, :func:`solve_steps` / :class:`Step` — human techniques
  (:mod:`sudoku_server.techniques`), :func:`rate` / :class:`Rating` — SE,
  QQWing and named levels (:mod:`sudoku_server.rating`);
* :func:`generate` / :class:`Generated` — random full grids and minimal
  puzzles with one solution, reproducible from a 64-bit seed;
* :func:`parse` / :class:`Puzzle` — text in any supported layout;
* the errors, each carrying its wire code.

The server lives in :mod:`sudoku_server.server` and the command line in
:mod:`sudoku_server.cli` (``sudoku-server`` / ``python -m sudoku_server``).
"""

from ._errors import (
    InvalidPuzzleError,
    MultipleSolutionsError,
    PuzzleError,
    PuzzleFormatError,
    SolutionMismatchError,
    UnsolvableError,
)
from .generator import Generated, generate
from .grid import Grid, cell_name, geometry, verify_solution
from .rating import Rating, rate
from .solver import count_solutions, solve, solve_any
from .techniques import Step, TechniqueError, next_step, solve_steps

__version__ = "0.2.0"

__all__ = [
    "Generated",
    "Grid",
    "InvalidPuzzleError",
    "MultipleSolutionsError",
    "PuzzleError",
    "PuzzleFormatError",
    "Rating",
    "SolutionMismatchError",
    "Step",
    "TechniqueError",
    "UnsolvableError",
    "cell_name",
    "count_solutions",
    "generate",
    "geometry",
    "next_step",
    "rate",
    "solve",
    "solve_any",
    "solve_steps",
    "verify_solution",
]
