"""The grid being read (:class:`GridInProgress`): its lines, its shape and its cells so far.

:class:`~.reader.PuzzleReader` holds one while a multi-line puzzle (a bordered
grid or plain rows, docs/LAYOUTS.md) is being read, feeds it rows and border
lines, and asks it for the :class:`~.puzzle.Puzzle` (or the error) at its end.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from sudoku_server.errors import IncompletePuzzleError, PuzzleFormatError
from sudoku_server.sudoku.grid import (
    BOX_SHAPES,
    DIGIT_SYMBOLS,
    LETTER_SYMBOLS,
    ZERO_SYMBOLS,
    Grid,
    choose_symbols,
    symbol_table,
)
from sudoku_server.text.lines import Cell, Line, RowShape, bars, row_by_bars
from sudoku_server.text.puzzle import LAYOUT_BORDERED, LAYOUT_ROWS, Event, Positions, Puzzle, Rejected
from sudoku_server.text.sizes import MAX_LEADING_BORDERS, ROW_SIZES, SIZE
from sudoku_server.text.view import mostly_wide, request_col
from sudoku_server.text.wording import symbol_error


def read_symbols(chars: list[str], size: int, extra: str = "") -> tuple[str, list[int], int | None]:
    """The symbol set, the digits, and the index of the first foreign character (or None)."""
    symbols = choose_symbols(chars + list(extra), size)
    table = symbol_table(symbols)
    read = [table.get(ch) for ch in chars]
    if None in read:
        bad = read.index(None)
        return symbols, cast("list[int]", read[:bad]), bad
    return symbols, cast("list[int]", read), None


#: Symbols of some symbol set of each size (any case), with the empty marks:
#: a character outside is foreign to every grid of that size, whatever its
#: other cells say (interactive reading reports it at its row).
ANY_SYMBOL = {
    size: frozenset(symbol_table(DIGIT_SYMBOLS[:size]))
    | (
        frozenset(symbol_table(ZERO_SYMBOLS[:size])) | frozenset(symbol_table(LETTER_SYMBOLS[:size]))
        if size > SIZE
        else frozenset()
    )
    for size in ROW_SIZES
}


class GridInProgress:
    """A multi-line puzzle being read: its lines (the answer's template), its shape and its cells so far."""

    def __init__(self, lineno: int, framed: bool) -> None:
        self.first_line = lineno
        self.framed = framed  # started with a border line: a closing one may follow
        # The template: the lines as the request wrote them, their endings,
        # and per line the columns inserted for empty tab fields.
        self.lines: list[str] = []
        self.endings: list[str] = []
        self.inserted: list[tuple[int, ...]] = []
        # The cells: where each stands, its character (blank = empty), row-major,
        # and the line number of each row read, in order.
        self.positions = Positions()
        self.chars: list[str] = []
        self.cell_lines: list[int] = []
        # The shape: set by the first row (its line: size_line).
        self.size: int | None = None
        self.box_cols: int | None = None
        self.size_line = 0
        self.bars: list[int] | None = None  # the first row's "|" columns...
        self.slots: Sequence[int] | None = None  # ...and its cell columns
        self.rows_at_first_rule: int | None = None
        self.tabbed = False  # its rows are tab fields
        # The progress: rows and border lines read, and the first error.
        self.rows = 0
        self.borders = 0
        self.error: tuple[int, PuzzleFormatError] | None = None
        self.reported = False  # its error was already sent (interactive reading)
        self.cut_at_end = False  # its last row was cut by the end of input

    @property
    def complete(self) -> bool:
        """True when every row is read (a framed grid may still take its closing border)."""
        return self.size is not None and self.rows == self.size

    @property
    def max_borders(self) -> int:
        """How many border lines the grid may hold: ``2 * (size + 1)``, or a few before its size is known."""
        return 2 * (self.size + 1) if self.size else MAX_LEADING_BORDERS

    def add_line(self, raw: str, ending: str, inserted: tuple[int, ...] = ()) -> int:
        """Append a line to the template; returns its index."""
        self.lines.append(raw)
        self.endings.append(ending)
        self.inserted.append(inserted)
        return len(self.lines) - 1

    def add_border(self, line: Line) -> None:
        """A border line: part of the template unless the grid already failed."""
        self.borders += 1
        if self.error is None:
            self.add_line(line.template, line.ending)
        if self.rows and self.rows_at_first_rule is None:
            self.rows_at_first_rule = self.rows

    def fail(self, lineno: int, error: PuzzleFormatError) -> None:
        """Record the grid's error (only its first one counts)."""
        if self.error is None:
            self.error = (lineno, error)

    def set_shape(self, shape: RowShape, lineno: int) -> None:
        """The shape its first row (at ``lineno``) gives it."""
        self.size = shape.size
        self.box_cols = shape.box_cols
        self.size_line = lineno
        self.slots = shape.slots

    def count_error(self, lineno: int, found: int) -> PuzzleFormatError:
        """A row of ``found`` cells: ``expected 9 cells, found 8`` (other sizes name the line that set it)."""
        size = self.size
        if size == SIZE:
            return PuzzleFormatError(f"line {lineno}: expected {size} cells, found {found}")
        return PuzzleFormatError(f"line {lineno}: expected {size} cells like line {self.size_line}, found {found}")

    def place(self, line: Line) -> Sequence[Cell] | None:
        """The row's ``size`` cells as ``(column, char)``, a blank char for a blank cell; None if wrong.

        A row with ``|`` may leave cells blank: they are read by the columns of
        the first row's cells when its ``|`` stand where the first row's do,
        else by its own boxes (docs/LAYOUTS.md "Bordered grid with blank empty
        cells").
        """
        size = self.size
        assert size is not None
        body, cells = line.body, line.cells
        count = len(cells)
        first = self.rows == 0
        if first and "|" in body:  # the first row: remember where its cells are
            self.bars = bars(body)
            if count == size:
                self.slots = [col for col, _ in cells]
        if count == size:
            return cells
        if count > size or "|" not in body:
            return None
        slots = self.slots if self.slots is not None and bars(body) == self.bars else None
        if slots is None:
            shape = row_by_bars(body, cells, size, self.box_cols)
            if shape is None or shape.slots is None:
                return None
            slots = shape.slots
            if first:
                self.slots = slots
        on_row = {col for col, _ in cells}
        if not on_row <= set(slots):
            return None
        if len(body) < len(line.view) and max(slots) >= len(body):
            return None  # a cell would fall inside the trailing comment
        return [(col, body[col] if col < len(body) else " ") for col in slots]

    def add_cells(self, index: int, lineno: int, cols: list[int], chars: list[str]) -> None:
        """Append a row's cells: their columns on template line ``index`` and characters (stream line ``lineno``)."""
        self.positions.extend_line(index, cols)
        self.chars.extend(chars)
        self.cell_lines.append(lineno)

    def foreign_symbol(self, index: int, lineno: int, placed: Sequence[Cell]) -> PuzzleFormatError | None:
        """The error for the row's first character that no symbol set of the grid's size holds, or None.

        (A character foreign only to the set the whole grid chooses, such as
        ``H`` in a 16x16 grid that also holds digits, is known at its end. One
        that no set holds is named before those, wherever they stand, in both
        reading modes: :meth:`_symbols`.)
        """
        size = self.size
        assert size is not None
        allowed = ANY_SYMBOL[size]
        for k, (col, ch) in enumerate(placed):
            if ch not in allowed:
                raw = self.lines[index][col]
                return symbol_error(lineno, request_col(self.inserted[index], col), raw, size, self.rows * size + k)
        return None

    def box_shape(self) -> tuple[int, int]:
        """``(box rows, box columns)``: from its ``|``, its first rule, or the size's default."""
        size = self.size
        assert size is not None
        if self.box_cols:
            return size // self.box_cols, self.box_cols
        # No "|" said where boxes end: a 6x6 grid with its first rule after
        # three rows has 3x2 boxes.
        if size == 6 and self.rows_at_first_rule == 3:
            return 3, 2
        return BOX_SHAPES[size]

    def _symbols(self) -> tuple[str, list[int], tuple[int, PuzzleFormatError] | None]:
        """The symbol set its cells choose, their digits, and the first foreign cell's error (or None)."""
        size = self.size
        if size is None or not self.chars:
            return "", [], None
        symbols, values, bad = read_symbols(self.chars, size)
        if bad is None:
            return symbols, values, None
        # A character no set of the size holds is named first (interactive reading names it at its
        # row, before the set the whole grid chooses is known), then one foreign to the chosen set.
        anywhere = ANY_SYMBOL[size]
        bad = next((i for i, ch in enumerate(self.chars) if ch not in anywhere), bad)
        lineno = self.cell_lines[bad // size]
        li, col = self.positions[bad]
        error = symbol_error(lineno, request_col(self.inserted[li], col), self.lines[li][col], size, bad)
        return symbols, values, (lineno, error)

    def symbol_error(self) -> tuple[int, PuzzleFormatError] | None:
        """The first cell read that is not a symbol of the set its cells choose, with its line."""
        return self._symbols()[2]

    def finish(self, cut: tuple[int, PuzzleFormatError] | None = None) -> Event:
        """The puzzle, or the error for its first bad line (``cut``: why it ended early)."""
        ending = (self.endings[-1] if self.endings else "") or "\n"
        symbols, values, foreign = self._symbols()
        errors = [e for e in (self.error, cut, foreign) if e is not None]
        size = self.size
        if errors:
            return Rejected(min(errors, key=lambda e: e[0])[1], ending)
        assert size is not None
        box_rows, box_cols = self.box_shape()
        wide = not all(line.isascii() for line in self.lines) and mostly_wide(self.lines, self.positions)
        return Puzzle(
            grid=Grid(tuple(values), box_rows, box_cols, symbols),
            layout=LAYOUT_BORDERED if self.borders or self.bars else LAYOUT_ROWS,
            first_line=self.first_line,
            lines=self.lines,
            endings=self.endings,
            positions=self.positions,
            symbols=symbols,
            wide=wide,
        )

    def incomplete(self, ending: str) -> Rejected:
        """The ``incomplete`` error: the input ended before its last row."""
        return Rejected(
            IncompletePuzzleError(
                f"input ended inside the puzzle that starts at line {self.first_line} ({self.rows} of {self.size} rows)"
            ),
            ending,
        )
