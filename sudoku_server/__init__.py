"""sudoku-server: a plain-text TCP service that solves Sudoku puzzles.

The public API here is pure (it imports no trio and touches no sockets), and
lazy: ``import sudoku_server`` loads only the errors; each name below loads
its module on first use, so the technique engine is loaded by the first
:func:`rate` or :func:`next_step`, not by the import.

* :class:`Grid` — a puzzle or solution (``size * size`` ints row-major,
  0 = empty); :func:`geometry`, :func:`cell_name`, :func:`verify_solution`;
* :func:`solve`, :func:`solve_any`, :func:`count_solutions` — the solver
  (native or pure Python: ``sudoku_server.sudoku.solver.CORE``);
* :func:`next_step`, :func:`solve_steps` / :class:`Step` — human techniques
  (:mod:`sudoku_server.sudoku.techniques`), :func:`rate` / :class:`Rating` —
  SE, QQWing and named levels (:mod:`sudoku_server.sudoku.rating`);
* :func:`generate` / :class:`Generated` — random full grids and minimal
  puzzles with one solution, reproducible from a 64-bit seed;
* the errors, each carrying its wire code (:mod:`sudoku_server.errors`).

The layers (docs/ARCHITECTURE.md): :mod:`.sudoku` (the domain), :mod:`.text`
(layouts), :mod:`.service` (what a request means), :mod:`.wire` (the line
protocol, sans-I/O), :mod:`.net` (trio) and :mod:`.app` (the process:
``sudoku-server`` / ``python -m sudoku_server``).
"""

from __future__ import annotations

import importlib
from typing import Any

from sudoku_server.errors import (
    InvalidPuzzleError,
    MultipleSolutionsError,
    PuzzleError,
    PuzzleFormatError,
    SolutionMismatchError,
    UnsolvableError,
)

__version__ = "0.3.0"

#: Public name -> the module that defines it (loaded on first use).
_LAZY = {
    "Grid": "sudoku_server.sudoku.grid",
    "cell_name": "sudoku_server.sudoku.grid",
    "geometry": "sudoku_server.sudoku.grid",
    "verify_solution": "sudoku_server.sudoku.grid",
    "solve": "sudoku_server.sudoku.solver",
    "solve_any": "sudoku_server.sudoku.solver",
    "count_solutions": "sudoku_server.sudoku.solver",
    "Generated": "sudoku_server.sudoku.generator",
    "generate": "sudoku_server.sudoku.generator",
    "Rating": "sudoku_server.sudoku.rating",
    "rate": "sudoku_server.sudoku.rating",
    "Step": "sudoku_server.sudoku.techniques",
    "TechniqueError": "sudoku_server.sudoku.techniques",
    "next_step": "sudoku_server.sudoku.techniques",
    "solve_steps": "sudoku_server.sudoku.techniques",
}


def __getattr__(name: str) -> Any:
    """Load a public name's module on first use (PEP 562)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'sudoku_server' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


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
