"""Pencilmarks (Sukaku): each cell's candidates come with the puzzle instead of givens.

Not a ``rules=`` word: a pencilmark layout brings it (``Variant.candidates``),
and any rules apply on top. It compiles to one
:class:`~sudoku_server.sudoku.constraints.Candidates`.
"""

from __future__ import annotations

from sudoku_server.errors import InvalidPuzzleError, PuzzleFormatError
from sudoku_server.sudoku.constraints import Broken, Candidates
from sudoku_server.sudoku.geometry import cell_name
from sudoku_server.sudoku.rules.base import Build, Compiled, Rule, Words


def _compile(build: Build) -> Compiled:
    masks, size = build.variant.candidates, build.size
    if masks is None:
        return ()
    if len(masks) != size * size:
        raise PuzzleFormatError(f"pencilmarks give {len(masks)} cells, not {size * size}")
    full = (1 << size) - 1
    for cell, mask in enumerate(masks):
        if not mask & full:
            raise InvalidPuzzleError(f"{cell_name(cell, size)} has no candidate")
    return ((Candidates(tuple(m & full for m in masks)), ""),)


def _mask(broken: Broken) -> int:
    assert isinstance(broken.constraint, Candidates)
    return broken.constraint.masks[broken.cells[0]]


def _given(broken: Broken, w: Words) -> str:
    return f"{w.at(broken.cells[0])} is not among its candidates {w.digits(_mask(broken))}"


def _solution(broken: Broken, w: Words) -> str:
    c = broken.cells[0]
    return f"{w.cell(c)} holds {w.symbol(w.cells[c])}, not among its candidates {w.digits(_mask(broken))}"


RULE = Rule(
    word="pencilmarks",
    summary="each cell keeps only the candidates the puzzle gives it",
    data="candidates",
    constraints=_compile,
    given_words=_given,
    solution_words=_solution,
    off=("unique rectangle", "BUG"),
    draw={"kind": "candidates"},
)
