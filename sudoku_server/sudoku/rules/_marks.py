"""Helpers of the rules that take marks (:class:`~.base.Mark`): a rule's own marks, how a line is named."""

from __future__ import annotations

from collections.abc import Callable

from sudoku_server.sudoku.constraints import Broken
from sudoku_server.sudoku.rules.base import Build, Mark, Words, pairs_of


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


#: The four orthogonal steps (row, column): the neighbours a dot or an XV marker joins.
ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))


def relation_words(
    fact: Callable[[int, int], str],
) -> tuple[Callable[[Broken, Words], str], Callable[[Broken, Words], str]]:
    """The given and solution words of a relation rule: ``name: 3 at r1c1 and 5 at r1c2 <fact>``.

    ``fact(da, db)`` words why the two digits break it (``differ by 2, not 1``).
    """

    def words(broken: Broken, w: Words) -> str:
        a, b = broken.cells
        return f"{w.name}: {w.at(a)} and {w.at(b)} {fact(w.cells[a], w.cells[b])}"

    return words, words


def free_pairs(size: int, marks: tuple[Mark, ...]) -> tuple[tuple[int, int], ...]:
    """The orthogonal neighbour pairs ``(a, b)``, ``a < b``, that none of ``marks`` joins."""
    marked = {(min(m.cells), max(m.cells)) for m in marks if len(m.cells) == 2}
    return tuple(p for p in pairs_of(size, ORTHOGONAL) if p not in marked)
