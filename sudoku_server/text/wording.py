"""The text of the format errors about counts and characters, naming the line (and column) at fault.

The errors are :class:`~sudoku_server.errors.PuzzleFormatError` (wire code
``format``) and :class:`~sudoku_server.errors.IncompletePuzzleError`
(``incomplete``); docs/LAYOUTS.md "Errors" lists them with examples.
Columns are 0-based here and 1-based in the text. (A grid's own errors, a
wrong row count or a grid cut short, are worded where it is read:
:mod:`.rows` and :mod:`.reader`.)
"""

from __future__ import annotations

import json

from sudoku_server.errors import IncompletePuzzleError, PuzzleFormatError, quote
from sudoku_server.sudoku.grid import cell_name, describe_char
from sudoku_server.text.lines import SECTION_HEADER, near_line_size
from sudoku_server.text.sizes import COMMON_LINE, LINE_SIZES, SIZE, listed


def line_count_error(lineno: int, count: int) -> PuzzleFormatError:
    """A one-line puzzle or dataset field of a wrong length.

    A count near a size names it (``expected 81 cells, found 80``); a count
    far from every size names the common one below 81
    (``expected 81 cells (9x9), found 40``) and lists them all above.
    """
    near = near_line_size(count)
    if near is not None:
        return PuzzleFormatError(f"line {lineno}: expected {near} cells, found {count}")
    if count < COMMON_LINE:
        return PuzzleFormatError(f"line {lineno}: expected {COMMON_LINE} cells ({SIZE}x{SIZE}), found {count}")
    return PuzzleFormatError(f"line {lineno}: expected {listed(LINE_SIZES)} cells, found {count}")


def cut_line_error(lineno: int, count: int, size: int) -> IncompletePuzzleError:
    """``input ended inside the one-line puzzle at line 1 (40 of 81 cells)``."""
    return IncompletePuzzleError(f"input ended inside the one-line puzzle at line {lineno} ({count} of {size} cells)")


def not_a_cell_error(lineno: int, col: int, ch: str, size: int = SIZE) -> PuzzleFormatError:
    """A line that is not a row (or a row of a ``size`` grid with a wrong count of cells): it names its first
    character that is not a cell (``col`` 0-based)."""
    if size != SIZE:
        return PuzzleFormatError(f"line {lineno}, column {col + 1}: {describe_char(ch)} is not a {size}x{size} symbol")
    return PuzzleFormatError(
        f"line {lineno}, column {col + 1}: {describe_char(ch)} is not a digit 1-9 or an empty mark (. 0 _)"
    )


def symbol_error(lineno: int, col: int, ch: str, size: int, cell: int, field: str = "") -> PuzzleFormatError:
    """The error for a character that is not a symbol of the grid, naming line, column and cell."""
    where = cell_name(cell, size)
    if field:
        what = "a digit 1-9" if size == SIZE else f"a {size}x{size} symbol"
        return PuzzleFormatError(
            f"line {lineno}, column {col + 1}: expected {what} in the {field} at {where}, found {describe_char(ch)}"
        )
    if size == SIZE:
        return PuzzleFormatError(
            f"line {lineno}, column {col + 1}: {describe_char(ch)} is not a digit 1-9"
            f" or an empty mark (. 0 _) at {where}"
        )
    return PuzzleFormatError(f"line {lineno}: {describe_char(ch)} is not a {size}x{size} symbol at {where}")


#: The most characters of a bracketed line an error quotes (then "...").
QUOTED_BRACKETS = 40


def bracketed_line_error(text: str, lineno: int) -> PuzzleFormatError | None:
    """A line in square brackets that is no ``[Section]`` header (:data:`.lines.SECTION_HEADER`); None otherwise.

    ``[{"size":9,...}]`` and ``[1,2,3]`` (what ``json.dumps([obj])`` writes): ``line 1: a JSON array; send one
    f-puzzles object per line``; any other: ``line 1: "[1 2 3]" is no [Section] header (a name in brackets, such
    as [Puzzle]) and no puzzle``. ``text``: the line without its terminator.
    """
    stripped = text.strip()
    if not (stripped.startswith("[") and stripped.endswith("]")) or SECTION_HEADER.fullmatch(stripped):
        return None
    try:
        value = json.loads(stripped)
    except (ValueError, RecursionError):
        value = None
    if isinstance(value, list):
        return PuzzleFormatError(f"line {lineno}: a JSON array; send one f-puzzles object per line")
    shown = stripped if len(stripped) <= QUOTED_BRACKETS else stripped[: QUOTED_BRACKETS - 3] + "..."
    return PuzzleFormatError(
        f"line {lineno}: {quote(shown)} is no [Section] header (a name in brackets, such as [Puzzle]) and no puzzle"
    )
