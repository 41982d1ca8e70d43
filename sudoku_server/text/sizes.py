"""The grid sizes as text shows them: cells per row, cells on one line, and how near a miss is.

Every size derives from :data:`sudoku_server.sudoku.grid.BOX_SHAPES`, the one
definition of the sizes handled (4, 6, 9, 16 and 25 cells a row); nothing in
:mod:`sudoku_server.text` restates them.
"""

from __future__ import annotations

from collections.abc import Iterable

from sudoku_server.sudoku.grid import BOX_SHAPES

#: The classic grid size; its error texts name the digits ("not a digit 1-9").
SIZE = 9
#: Cells per row of every grid size handled, ascending: 4, 6, 9, 16, 25.
ROW_SIZES: tuple[int, ...] = tuple(sorted(BOX_SHAPES))
#: One-line puzzle length (cells) -> grid size: 16 -> 4, 36 -> 6, 81 -> 9, 256 -> 16, 625 -> 25.
LINE_SIZES: dict[int, int] = {size * size: size for size in ROW_SIZES}
#: The smallest and largest row sizes (4 and 25).
SMALLEST, LARGEST = ROW_SIZES[0], ROW_SIZES[-1]
#: The length that is both a one-line puzzle (4x4) and a row (16x16): 16.
AMBIGUOUS_LINE = SMALLEST * SMALLEST
#: The one-line size named for a count far from every size (below it): 81 cells (9x9).
COMMON_LINE = SIZE * SIZE
#: A first row whose count is this close to a row size is taken as a broken
#: row of that size (one error for the whole grid, which still spans its rows).
NEAR_ROW = 2
#: How close a one-line count must be to a line size to be read as a line of
#: that size with cells missing or extra: 5% of the size, at least 2 cells
#: (16: 2, 36: 2, 81: 4, 256: 12, 625: 31). Farther counts name :data:`COMMON_LINE`.
NEAR_LINE: dict[int, int] = {cells: max(2, cells // 20) for cells in LINE_SIZES}
#: Border lines a grid may hold before its first row (double frames, titles
#: drawn with rules...). Once the size is known the bound is
#: ``2 * (size + 1)``: a rule under every row, twice.
MAX_LEADING_BORDERS = 8


def listed(sizes: Iterable[int]) -> str:
    """Sizes as a sentence lists them: ``"4, 6, 9, 16 or 25"``."""
    words = [str(size) for size in sizes]
    return ", ".join(words[:-1]) + " or " + words[-1]
