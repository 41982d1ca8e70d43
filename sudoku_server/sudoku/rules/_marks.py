"""Helpers of the rules that take marks (:class:`~.base.Mark`): a rule's own marks, how a line is named."""

from __future__ import annotations

from sudoku_server.sudoku.rules.base import Build, Mark


def marks_of(build: Build, word: str) -> tuple[Mark, ...]:
    """The marks of ``build``'s variant that belong to the rule ``word``, in the puzzle's order."""
    return tuple(mark for mark in build.variant.marks if mark.rule == word)


def cell_name(size: int, c: int) -> str:
    """``r1c2``: cell ``c`` of a grid of ``size`` digits per unit."""
    return f"r{c // size + 1}c{c % size + 1}"


def line_name(size: int, cells: tuple[int, ...]) -> str:
    """``r1c1-r1c4``: a line by its first and last cell (one cell: that cell)."""
    if len(cells) == 1:
        return cell_name(size, cells[0])
    return f"{cell_name(size, cells[0])}-{cell_name(size, cells[-1])}"
