"""The shared shape of the peer rules (anti-knight, anti-king): pairs of cells that must differ.

Each pair compiles to an :class:`~sudoku_server.sudoku.constraints.AllDifferent`
of its two cells (extra peers of the geometry); the rule words a broken pair.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sudoku_server.sudoku.constraints import AllDifferent, Broken
from sudoku_server.sudoku.rules.base import Build, Compiled, Words, pairs_of


def compiler(steps: Sequence[tuple[int, int]]) -> Callable[[Build], Compiled]:
    """``build -> one AllDifferent per pair of cells`` one of ``steps`` apart (ascending pairs)."""

    def compile_pairs(build: Build) -> Compiled:
        return tuple((AllDifferent(pair), "") for pair in pairs_of(build.size, steps))

    return compile_pairs


def given_words(relation: str) -> Callable[[Broken, Words], str]:
    """``3 at r1c1 and r2c3 are a knight's move apart`` (``relation``: "are a knight's move apart")."""

    def words(broken: Broken, w: Words) -> str:
        a, b = broken.cells
        return f"{w.at(a)} and {w.cell(b)} {relation}"

    return words


def solution_words(relation: str) -> Callable[[Broken, Words], str]:
    """``r1c1 and r2c3 are a knight's move apart and both hold 3``."""

    def words(broken: Broken, w: Words) -> str:
        a, b = broken.cells
        return f"{w.cell(a)} and {w.cell(b)} {relation} and both hold {w.symbol(w.cells[a])}"

    return words
