"""Text <-> Grid for every layout, and the template that renders an answer.

Layouts (PROTOCOL.md "Requests", docs/LAYOUTS.md), recognised per puzzle
with no header and no option:

``bordered``
    A grid with border lines (only ``+ - = | *`` and blanks, at least one
    ``-``, ``=`` or ``*``) in all its common styles: the ``+-------+`` frame,
    ``*-----------*`` / ``|---+---+---|`` frames, rules between boxes only,
    ``|`` between boxes with or without spaces. Where a row has ``|`` between
    its boxes, its cells may also be read by column, so that empty cells
    printed as blanks (``| 8     |   1   |     5 |``) count.
``rows``
    ``n`` lines of ``n`` cells, optionally separated by blanks (SadMan
    ``.sdk`` files are this layout under a ``[Puzzle]`` header).
``line``
    All cells on one line (16, 36, 81, 256 or 625 of them), optionally with
    a trailing ``# comment`` or a ``label:`` in front.
``csv``
    A dataset row: fields separated by ``,`` (or ``:``); the first field of
    a one-line puzzle's length is the puzzle, and the next one, when it has
    the same length, its expected solution (see :meth:`Puzzle.check_expected`).

Sizes 4x4 (2x2 boxes), 6x6 (2x3 boxes, or 3x2 where the ``|`` or the rules
say so), 9x9, 16x16 and 25x25: the size comes from the number of cells of
the first row (or of the one line), and from where its ``|`` fall.
Symbols are ``1``-``9`` then letters (case-insensitive); a 16x16 or 25x25
grid may also use letters only or count from ``0`` (:func:`grid.choose_symbols`).
``.``, ``_`` and ``0`` (when not a symbol) mark an empty cell.

Between puzzles, blank lines, ``#`` comments (SudoCue ``#A``... metadata),
``[Section]`` headers and CSV header lines (``quizzes,solutions``) are skipped.

The answer to a puzzle is the request's own lines with each empty cell
replaced by its symbol (:meth:`Puzzle.render`): same borders, spacing, symbol
set, letter case and line endings; a multi-line answer ends with one empty
line.

:class:`PuzzleReader` is the line-level state machine that groups lines into
puzzles; it is fed decoded lines by the protocol session and never looks at
bytes or sockets. :func:`parse` reads one puzzle from a string.
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from ._errors import IncompletePuzzleError, PuzzleError, PuzzleFormatError, SolutionMismatchError
from .grid import (
    BOX_SHAPES,
    DIGIT_SYMBOLS,
    VALID_BOXES,
    Grid,
    cell_name,
    choose_symbols,
    describe_char,
    symbol_table,
)

#: Characters that may separate cells within a row.
CELL_SEPARATORS = " \t|"
#: Characters a border line is made of (it must also hold a ``-``, ``=`` or ``*``).
BORDER_CHARS = frozenset("+-=|* \t")
#: The classic grid size; its error texts name the digits ("not a digit 1-9").
SIZE = 9
#: Cells per row of every grid size handled.
ROW_SIZES = (4, 6, 9, 16, 25)
#: One-line puzzle length (cells) -> grid size.
LINE_SIZES = {16: 4, 36: 6, 81: 9, 256: 16, 625: 25}
#: Border lines a grid may hold before its first row (double frames, titles
#: drawn with rules...). Once the size is known the bound is
#: ``2 * (size + 1)``: a rule under every row, twice.
MAX_LEADING_BORDERS = 8
#: A first row whose count is this close to a row size is taken as a broken
#: row of that size (one error for the whole grid, which still spans its rows).
NEAR_ROW = 2
#: Characters that look like cells, by grid size: how a text line that merely
#: has the length of a row (``hello``) is told from a row with a typo.
_CELL_LIKE_SMALL = frozenset("0123456789._")
_CELL_LIKE = {
    4: _CELL_LIKE_SMALL,
    6: _CELL_LIKE_SMALL,
    9: _CELL_LIKE_SMALL,
    16: _CELL_LIKE_SMALL | frozenset("ABCDEFGHIJKLMNOPabcdefghijklmnop"),
    25: _CELL_LIKE_SMALL | frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYabcdefghijklmnopqrstuvwxy"),
}
#: Field separators of a dataset row (``quizzes,solutions``; ``id:puzzle``).
_FIELD_SPLIT = re.compile(r"[,:]")
#: A CSV header field: a word (``quizzes``, ``id``, ``puzzle``...).
_HEADER_FIELD = re.compile(r"\s*[A-Za-z_][A-Za-z0-9_ ]*\s*")

LAYOUT_BORDERED = "bordered"
LAYOUT_ROWS = "rows"
LAYOUT_LINE = "line"
LAYOUT_CSV = "csv"


class Positions(Sequence):
    """Where each cell's character stands: ``(line index, column index)`` pairs, 0-based.

    A compact sequence (two arrays of machine ints, about 8 bytes a cell
    instead of a tuple each): the server holds a window of parsed puzzles
    per connection, so their size bounds its memory.
    """

    __slots__ = ("_lines", "_cols")

    def __init__(self, pairs: Iterable[Tuple[int, int]] = ()) -> None:
        self._lines = array("I")
        self._cols = array("I")
        self.extend(pairs)

    @classmethod
    def on_one_line(cls, columns: Iterable[int]) -> "Positions":
        """Every cell on line 0, at the given columns."""
        positions = cls()
        positions._cols.extend(columns)
        positions._lines.extend(bytes(len(positions._cols)))
        return positions

    def extend(self, pairs: Iterable[Tuple[int, int]]) -> None:
        for line, col in pairs:
            self._lines.append(line)
            self._cols.append(col)

    def __len__(self) -> int:
        return len(self._cols)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [(li, col) for li, col in zip(self._lines[index], self._cols[index])]
        return self._lines[index], self._cols[index]

    def __iter__(self) -> Iterator[Tuple[int, int]]:
        return zip(self._lines, self._cols)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Positions):
            return self._lines == other._lines and self._cols == other._cols
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"Positions({list(self)!r})"


@dataclass
class Puzzle:
    """One puzzle as it arrived, with what is needed to answer in its layout.

    Attributes:
      grid: the givens (``size * size`` ints row-major, 0 = empty).
      layout: ``"bordered"``, ``"rows"``, ``"line"`` or ``"csv"``.
      first_line: 1-based number of its first line in the stream.
      lines: the request's lines, without their terminators (a row read by
        column is padded with blanks up to its last cell).
      endings: each line's terminator (``"\\n"``, ``"\\r\\n"``, ``"\\r"`` or
        ``""`` for an unterminated last line).
      positions: for each cell, row-major, ``(line index, column index)`` of
        its character in ``lines`` (0-based); a compact :class:`Positions`.
      symbols: how the request writes digits 1..size (``symbols[d - 1]``);
        empty for ``123456789``.
      expected: a dataset row's expected solution, or None.
    """

    grid: Grid
    layout: str
    first_line: int
    lines: List[str]
    endings: List[str]
    positions: Sequence[Tuple[int, int]]
    symbols: str = ""
    expected: Optional[Grid] = None

    @property
    def default_ending(self) -> str:
        """The line ending answers use where the request had none: its first one, else LF."""
        for ending in self.endings:
            if ending:
                return ending
        return "\n"

    def render(self, solution: Grid) -> str:
        """The answer text: the request's lines with every empty cell set from ``solution``.

        Givens are left as they were written; empty cells get the request's
        own symbols (:attr:`symbols`). A multi-line answer is followed by one
        empty line; every line ends with the request's own terminator (the
        first one seen for an unterminated last line).
        """
        symbols = self.symbols or DIGIT_SYMBOLS
        chars = [list(line) for line in self.lines]
        for (li, col), given, value in zip(self.positions, self.grid.cells, solution.cells):
            if not given:
                chars[li][col] = symbols[value - 1]
        default = self.default_ending
        out = []
        for row, ending in zip(chars, self.endings):
            out.append("".join(row))
            out.append(ending or default)
        if len(self.lines) > 1:
            out.append(default)
        return "".join(out)

    def check_expected(self, solution: Grid) -> None:
        """Compare ``solution`` with the dataset row's expected solution, if it has one.

        Raises:
          SolutionMismatchError: they differ; the detail names the line and
            the first cell that differs ("line 2: the row's solution has 5 at
            r1c3, the solution found has 4").
        """
        expected = self.expected
        if expected is None or expected.cells == solution.cells:
            return
        size = self.grid.size
        symbols = self.symbols or DIGIT_SYMBOLS
        for i, (want, got) in enumerate(zip(expected.cells, solution.cells)):
            if want != got:
                raise SolutionMismatchError(
                    f"line {self.first_line}: the row's solution has {symbols[want - 1]}"
                    f" at {cell_name(i, size)}, the solution found has {symbols[got - 1]}"
                )


@dataclass
class Rejected:
    """A piece of input that is not a puzzle, with the error to answer.

    Attributes:
      error: the :class:`PuzzleError` (its detail names the line).
      ending: the line ending to answer with.
      text: the line, when it was rejected on its own (not as a row of a
        grid); None otherwise. The protocol session words such a line as an
        unknown verb when its first word is made of letters.
    """

    error: PuzzleError
    ending: str = "\n"
    text: Optional[str] = None


Event = Union[Puzzle, Rejected]


def is_border(line: str) -> bool:
    """True for a border line: only ``+ - = | *`` and blanks, with a ``-``, ``=`` or ``*``."""
    return bool(line) and set(line) <= BORDER_CHARS and any(ch in line for ch in "-=*")


def is_skippable(line: str) -> bool:
    """True for text between puzzles: blank, ``#`` comment, ``[Section]`` header."""
    stripped = line.strip()
    return not stripped or stripped.startswith("#") or (stripped.startswith("[") and stripped.endswith("]"))


def strip_comment(line: str) -> str:
    """The line up to a trailing ``# comment`` (``#`` is never a cell)."""
    cut = line.find("#")
    return line if cut < 0 else line[:cut]


def split_cells(line: str, start: int = 0, end: Optional[int] = None) -> List[Tuple[int, str]]:
    """The cell characters of a row or one-line puzzle: ``(column index, char)`` pairs.

    Every character other than blanks, tabs and ``|`` counts as a cell; whether
    it is a valid symbol is checked later, so a stray ``x`` is reported as a
    bad cell at its place rather than as a wrong count. ``start``/``end``
    limit the scan to one field of a dataset row (where ``"`` quotes are
    also skipped).
    """
    if start == 0 and end is None:
        return [(i, ch) for i, ch in enumerate(line) if ch not in CELL_SEPARATORS]
    stop = len(line) if end is None else end
    return [(i, line[i]) for i in range(start, stop) if line[i] not in CELL_SEPARATORS and line[i] != '"']


def _looks_like_cells(cells: List[Tuple[int, str]], size: int = SIZE) -> bool:
    """True when at least half the characters could be cells of ``size``: a row, maybe flawed.

    Text such as ``hello`` or ``GET / HTTP/1.1`` is not, so it is rejected on
    its own line instead of starting a grid that would swallow the next puzzle.
    """
    like = _CELL_LIKE[size]
    good = sum(1 for _, ch in cells if ch in like)
    return 2 * good >= len(cells)


def _nearest(count: int, sizes) -> int:
    """The size in ``sizes`` closest to ``count`` (ties: the larger)."""
    return min(sizes, key=lambda s: (abs(s - count), -s))


def _near_row_size(count: int) -> Optional[int]:
    """The row size a broken first row of ``count`` cells was meant to have, or None.

    9 wins when it is near (the classic grid), then the closest size.
    """
    if abs(count - SIZE) <= NEAR_ROW:
        return SIZE
    size = _nearest(count, ROW_SIZES)
    return size if abs(count - size) <= NEAR_ROW else None


def _first_bad_char(cells: List[Tuple[int, str]]) -> Tuple[int, str]:
    """The first character of a line that could not be a cell (of a 9x9 grid)."""
    like = _CELL_LIKE[SIZE]
    return next(((col, ch) for col, ch in cells if ch not in like), cells[0])


def _not_a_cell_error(lineno: int, col: int, ch: str) -> PuzzleFormatError:
    """A line that is not a row: it names its first character that is not a cell."""
    return PuzzleFormatError(
        f"line {lineno}, column {col + 1}: {describe_char(ch)} is not a digit 1-9 or an empty mark (. 0 _)"
    )


def _symbol_error(lineno: int, col: int, ch: str, size: int, cell: int, field: str = "") -> PuzzleFormatError:
    """The error for a character that is not a symbol of the grid, naming line, column and cell."""
    where = cell_name(cell, size)
    if field:
        what = "a digit 1-9" if size == SIZE else f"a {size}x{size} symbol"
        return PuzzleFormatError(
            f"line {lineno}, column {col + 1}: expected {what} in the {field} at {where},"
            f" found {describe_char(ch)}"
        )
    if size == SIZE:
        return PuzzleFormatError(
            f"line {lineno}, column {col + 1}: {describe_char(ch)} is not a digit 1-9"
            f" or an empty mark (. 0 _) at {where}"
        )
    return PuzzleFormatError(f"line {lineno}: {describe_char(ch)} is not a {size}x{size} symbol at {where}")


# -- rows read by the columns of their "|" ------------------------------------


def _bars(body: str) -> List[int]:
    return [i for i, ch in enumerate(body) if ch == "|"]


def _segments(body: str, bars: List[int]) -> List[Tuple[Optional[int], Optional[int]]]:
    """The boxes of a row between its ``|``: ``(left bar, right bar)``, None for an open side.

    A row that starts and ends with ``|`` (blanks aside) is framed: its boxes
    lie between bars. Otherwise the text before the first bar and after the
    last one are boxes too, even when blank (an empty box printed as blanks).
    """
    first, last = bars[0], bars[-1]
    framed = not body[:first].strip() and not body[last + 1 :].strip()
    segments: List[Tuple[Optional[int], Optional[int]]] = [] if framed else [(None, first)]
    segments.extend(zip(bars, bars[1:]))
    if not framed:
        segments.append((last, None))
    return segments


def _style(width: int, k: int) -> Optional[Tuple[int, int]]:
    """How ``k`` cells fill a box ``width`` characters wide: (rank, pitch), None if they cannot.

    Rank 0 for `` a b c `` and ``abc``, 1 for ``a b c `` (blank before the
    bar), 2 for ``a b c``: the preference where a width fits two box sizes.
    """
    if width == 2 * k + 1:
        return 0, 2
    if width == k:
        return 0, 1
    if width == 2 * k:
        return 1, 2
    if width == 2 * k - 1:
        return 2, 2
    return None


def _box_ok(nseg: int, k: int) -> bool:
    """True when ``nseg`` boxes of ``k`` cells make a row: a valid box shape, or one cell per box."""
    if k == 1:
        return nseg in ROW_SIZES
    return (nseg, k) in VALID_BOXES


def _slots(body: str, segments, k: int, pitch: int, ref: int) -> Optional[List[int]]:
    """The columns of a row's cells, ``k`` per box ``pitch`` apart, or None if they do not fit.

    Every box is laid out like the reference box (``ref`` characters wide):
    from its left bar, or, for a first box open on the left, back from its
    right bar.
    """
    span = pitch * (k - 1) + 1
    lead = (ref - span) // 2
    trail = ref - span - lead
    slots: List[int] = []
    for left, right in segments:
        start = left + 1 + lead if left is not None else right - trail - span
        if start < 0:
            return None
        slots.extend(range(start, start + pitch * k, pitch))
    for col in slots:
        if col < len(body) and body[col] == "|":
            return None
    return slots


@dataclass
class _RowShape:
    """What a row says about its grid: size, box columns, and where its cells are."""

    size: int
    box_cols: Optional[int]  # None: the default box shape of the size
    slots: Optional[List[int]]  # None: the cells are the row's non-blank characters


def _row_by_bars(
    body: str, cells: List[Tuple[int, str]], size: Optional[int] = None, box_cols: Optional[int] = None
) -> Optional[_RowShape]:
    """Read a row by the columns of its ``|``: its shape, and its cell columns if some are blank.

    With ``size`` and ``box_cols`` (a grid's later rows) only that shape is
    tried. Returns None when the ``|`` do not split the row into boxes of a
    known shape whose cell columns hold every non-blank character.
    """
    bars = _bars(body)
    if not bars:
        return None
    segments = _segments(body, bars)
    nseg = len(segments)
    if nseg < 2:
        return None
    bounded = [right - left - 1 for left, right in segments if left is not None and right is not None]
    ref = bounded[0] if bounded else segments[0][1]
    n = len(cells)
    if size is not None:
        k = box_cols or BOX_SHAPES[size][1]
        ks = [k] if nseg * k == size else ([1] if nseg == size else [])
    else:
        ks = [k for k in (5, 4, 3, 2, 1) if _box_ok(nseg, k)]
    candidates = []
    for k in ks:
        style = _style(ref, k)
        if style is not None:
            if nseg * k == n:  # every cell written: nothing to place
                return _RowShape(n, k if k > 1 else None, None)
            candidates.append((style[0], -k, k, style[1]))
    if size is not None and n >= size:
        return None
    on_row = {col for col, _ in cells}
    for _, _, k, pitch in sorted(candidates):
        slots = _slots(body, segments, k, pitch, ref)
        if slots is not None and on_row <= set(slots):
            return _RowShape(nseg * k, k if k > 1 else None, slots)
    return None


def _first_row_shape(body: str, cells: List[Tuple[int, str]]) -> Optional[_RowShape]:
    """The shape a grid's first row gives it, or None if it is not a row of any size."""
    if "|" in body:
        shape = _row_by_bars(body, cells)
        if shape is not None:
            return shape
    n = len(cells)
    if n in ROW_SIZES:
        return _RowShape(n, _box_cols_by_counts(body, cells, n), None)
    return None


def _box_cols_by_counts(body: str, cells: List[Tuple[int, str]], size: int) -> Optional[int]:
    """Box columns from equal cell counts between the ``|`` of a full row, else None (default)."""
    bars = _bars(body)
    if not bars:
        return None
    counts = []
    for left, right in _segments(body, bars):
        lo = -1 if left is None else left
        hi = len(body) if right is None else right
        counts.append(sum(1 for col, _ in cells if lo < col < hi))
    k = counts[0]
    if k > 1 and all(c == k for c in counts) and size % k == 0 and (size // k, k) in VALID_BOXES:
        return k
    return None


# -- the grid being read ---------------------------------------------------


class _GridInProgress:
    """The lines of a multi-line puzzle being read."""

    def __init__(self, lineno: int, framed: bool) -> None:
        self.first_line = lineno
        self.framed = framed  # started with a border line: a closing one may follow
        self.lines: List[str] = []
        self.endings: List[str] = []
        self.positions = Positions()
        self.chars: List[str] = []  # each cell's character, row-major (blank = empty)
        self.cell_lines: List[int] = []  # the line number of each row read, in order
        self.size: Optional[int] = None
        self.box_cols: Optional[int] = None
        self.size_line = 0  # the line that set the size
        self.bars: Optional[List[int]] = None  # the first row's "|" columns...
        self.slots: Optional[List[int]] = None  # ...and its cell columns
        self.rows = 0
        self.borders = 0
        self.rows_at_first_rule: Optional[int] = None
        self.error: Optional[Tuple[int, PuzzleFormatError]] = None

    def add_line(self, line: str, ending: str) -> int:
        self.lines.append(line)
        self.endings.append(ending)
        return len(self.lines) - 1

    def fail(self, lineno: int, error: PuzzleFormatError) -> None:
        if self.error is None:
            self.error = (lineno, error)

    def set_shape(self, shape: _RowShape, lineno: int) -> None:
        self.size = shape.size
        self.box_cols = shape.box_cols
        self.size_line = lineno
        self.slots = shape.slots

    @property
    def max_borders(self) -> int:
        return 2 * (self.size + 1) if self.size else MAX_LEADING_BORDERS

    def count_error(self, lineno: int, found: int) -> PuzzleFormatError:
        size = self.size
        if size == SIZE:
            return PuzzleFormatError(f"line {lineno}: expected {size} cells, found {found}")
        return PuzzleFormatError(f"line {lineno}: expected {size} cells like line {self.size_line}, found {found}")

    def add_cells(self, index: int, lineno: int, placed: List[Tuple[int, str]]) -> None:
        self.positions.extend((index, col) for col, _ in placed)
        self.chars.extend(ch for _, ch in placed)
        self.cell_lines.append(lineno)

    def box_shape(self) -> Tuple[int, int]:
        size = self.size
        assert size is not None
        if self.box_cols:
            return size // self.box_cols, self.box_cols
        # No "|" said where boxes end: a 6x6 grid with its first rule after
        # three rows has 3x2 boxes.
        if size == 6 and self.rows_at_first_rule == 3:
            return 3, 2
        return BOX_SHAPES[size]

    def finish(self, cut: Optional[Tuple[int, PuzzleFormatError]] = None) -> Event:
        """The puzzle, or the error for its first bad line (``cut``: why it ended early)."""
        ending = (self.endings[-1] if self.endings else "") or "\n"
        errors = [e for e in (self.error, cut) if e is not None]
        size = self.size
        symbols = ""
        values: List[int] = []
        if size is not None and self.chars:
            symbols, values, bad = _read_symbols(self.chars, size)
            if bad is not None:
                lineno = self.cell_lines[bad // size]
                col = self.positions[bad][1]
                errors.append((lineno, _symbol_error(lineno, col, self.chars[bad], size, bad)))
        if errors:
            return Rejected(min(errors, key=lambda e: e[0])[1], ending)
        assert size is not None
        box_rows, box_cols = self.box_shape()
        return Puzzle(
            grid=Grid(tuple(values), box_rows, box_cols, symbols),
            layout=LAYOUT_BORDERED if self.borders or self.bars else LAYOUT_ROWS,
            first_line=self.first_line,
            lines=self.lines,
            endings=self.endings,
            positions=self.positions,
            symbols=symbols,
        )


def _read_symbols(chars: List[str], size: int, extra: str = "") -> Tuple[str, List[int], Optional[int]]:
    """The symbol set, the digits, and the index of the first foreign character (or None)."""
    symbols = choose_symbols(chars + list(extra), size)
    table = symbol_table(symbols)
    values = []
    for i, ch in enumerate(chars):
        value = table.get(ch)
        if value is None:
            return symbols, values, i
        values.append(value)
    return symbols, values, None


class PuzzleReader:
    """Groups lines into puzzles: the line-level half of the request parser.

    Feed it one line at a time with :meth:`feed_line` (text without its
    terminator, the terminator, the 1-based line number); each call returns
    the events completed by that line, in order: a :class:`Puzzle`, or a
    :class:`Rejected` with the error to answer. :meth:`finish` ends the
    input.

    A puzzle is complete as soon as its last cell's line has arrived, except
    a grid that started with a border line: after its last row it waits for
    one more line, taken as the closing border if it is one
    (:attr:`awaiting_optional_line`).

    A line that is not part of a valid puzzle yields one error for the puzzle
    it belongs to: a grid with a bad row still spans its row lines, so the
    next puzzle starts where it should; a blank line, a comment or a whole
    one-line puzzle inside a grid ends it early.

    Cost: each line is scanned a constant number of times; a grid keeps at
    most its rows and ``2 * (size + 1)`` border lines.
    """

    def __init__(self) -> None:
        self._grid: Optional[_GridInProgress] = None
        self._last_ending = "\n"

    @property
    def in_puzzle(self) -> bool:
        """True while a multi-line puzzle has started and is not complete."""
        return self._grid is not None and not self.awaiting_optional_line

    @property
    def awaiting_optional_line(self) -> bool:
        """True when a framed grid has its rows and only a closing border may follow."""
        grid = self._grid
        return grid is not None and grid.size is not None and grid.rows == grid.size

    @property
    def puzzle_start(self) -> Optional[int]:
        """The first line of the multi-line puzzle being read, or None."""
        return self._grid.first_line if self._grid is not None else None

    def abort(self) -> None:
        """Drop the puzzle being read (telnet interrupt); no answer is given for it."""
        self._grid = None

    def skip_blank_lines(self, ending: str) -> None:
        """Blank lines between puzzles (a fast path of :meth:`feed_line`; only when idle)."""
        assert self._grid is None
        self._last_ending = ending

    def feed_line(self, line: str, ending: str, lineno: int) -> List[Event]:
        """Take one line; return the events it completes (see class docstring)."""
        if ending:
            self._last_ending = ending
        events: List[Event] = []
        grid = self._grid
        if grid is not None:
            if grid.rows == grid.size:  # framed grid, all rows read
                self._grid = None
                if is_border(line):
                    grid.add_line(line, ending)
                    grid.borders += 1
                    events.append(grid.finish())
                    return events
                events.append(grid.finish())
            else:
                self._grid_line(grid, line, ending, lineno, events)
                return events
        self._idle_line(line, ending, lineno, events)
        return events

    def finish(self) -> List[Event]:
        """End of input: complete or reject the puzzle being read.

        Returns:
          The final events: the framed grid that lacked only its closing
          border, or an ``incomplete`` error for a puzzle cut short.
        """
        grid = self._grid
        self._grid = None
        if grid is None:
            return []
        if grid.rows == grid.size:
            return [grid.finish()]
        if grid.rows == 0:
            return []  # only border lines: nothing was asked
        if grid.error is not None:
            return [grid.finish()]  # a bad line says more than "incomplete"
        return [
            Rejected(
                IncompletePuzzleError(
                    f"input ended inside the puzzle that starts at line {grid.first_line}"
                    f" ({grid.rows} of {grid.size} rows)"
                ),
                self._last_ending,
            )
        ]

    # -- states ---------------------------------------------------------

    def _reject(self, error: PuzzleError, ending: str, events: List[Event], text: Optional[str] = None) -> None:
        events.append(Rejected(error, ending or self._last_ending, text))

    def _idle_line(self, line: str, ending: str, lineno: int, events: List[Event]) -> None:
        if is_skippable(line):
            return
        if is_border(line):
            grid = self._grid = _GridInProgress(lineno, framed=True)
            grid.add_line(line, ending)
            grid.borders += 1
            return
        body = strip_comment(line)
        if "," in body or ":" in body:
            self._fielded_line(line, body, ending, lineno, events)
            return
        cells = split_cells(body)
        count = len(cells)
        if count in LINE_SIZES and (count != 16 or _is_small_line(body, cells)):
            events.append(self._one_line(line, ending, lineno, cells, LAYOUT_LINE))
            return
        shape = _first_row_shape(body, cells)
        if shape is not None and _looks_like_cells(cells, shape.size):
            grid = self._grid = _GridInProgress(lineno, framed=False)
            grid.set_shape(shape, lineno)
            self._grid_line(grid, line, ending, lineno, events)
            return
        near = _near_row_size(count)
        if near is not None and count and _looks_like_cells(cells, near):
            # A broken first row: the grid it starts still spans its rows.
            grid = self._grid = _GridInProgress(lineno, framed=False)
            grid.set_shape(_RowShape(near, None, None), lineno)
            grid.fail(lineno, PuzzleFormatError(f"line {lineno}: expected {near} cells, found {count}"))
            self._grid_line(grid, line, ending, lineno, events)
            return
        if not _looks_like_cells(cells):
            col, ch = _first_bad_char(cells)
            self._reject(_not_a_cell_error(lineno, col, ch), ending, events, line)
        elif count > max(ROW_SIZES) + 5:
            wanted = _nearest(count, LINE_SIZES)
            self._reject(PuzzleFormatError(f"line {lineno}: expected {wanted} cells, found {count}"), ending, events, line)
        else:
            self._reject(
                PuzzleFormatError(
                    f"line {lineno}: expected a row of 4, 6, 9, 16 or 25 cells, found {count}"
                ),
                ending,
                events,
                line,
            )

    def _one_line(
        self,
        line: str,
        ending: str,
        lineno: int,
        cells: List[Tuple[int, str]],
        layout: str,
        expected: Optional[List[Tuple[int, str]]] = None,
    ) -> Event:
        """A whole puzzle on one line (``expected``: a dataset row's solution field)."""
        size = LINE_SIZES[len(cells)]
        chars = [ch for _, ch in cells]
        extra = "".join(ch for _, ch in expected) if expected else ""
        symbols, values, bad = _read_symbols(chars, size, extra)
        if bad is not None:
            error = _symbol_error(lineno, cells[bad][0], chars[bad], size, bad)
            return Rejected(error, ending or self._last_ending, line)
        box_rows, box_cols = BOX_SHAPES[size]
        solution = None
        if expected is not None:
            table = symbol_table(symbols)
            digits = []
            for i, (col, ch) in enumerate(expected):
                value = table.get(ch)
                if not value:
                    error = _symbol_error(lineno, col, ch, size, i, field="solution field")
                    return Rejected(error, ending or self._last_ending, line)
                digits.append(value)
            solution = Grid(tuple(digits), box_rows, box_cols, symbols)
        return Puzzle(
            grid=Grid(tuple(values), box_rows, box_cols, symbols),
            layout=layout,
            first_line=lineno,
            lines=[line],
            endings=[ending],
            positions=Positions.on_one_line(col for col, _ in cells),
            symbols=symbols,
            expected=solution,
        )

    def _fielded_line(self, line: str, body: str, ending: str, lineno: int, events: List[Event]) -> None:
        """A dataset row (``puzzle,solution``), a labelled puzzle (``id:puzzle``), or a CSV header."""
        bounds = []
        start = 0
        for match in _FIELD_SPLIT.finditer(body):
            bounds.append((start, match.start()))
            start = match.end()
        bounds.append((start, len(body)))
        fields = [split_cells(body, a, b) for a, b in bounds]
        if "," in body and all(
            _HEADER_FIELD.fullmatch(body[a:b]) and len(cells) not in LINE_SIZES
            for (a, b), cells in zip(bounds, fields)
        ):
            return  # a CSV header: quizzes,solutions
        layout = LAYOUT_CSV if "," in body else LAYOUT_LINE
        wrong = None  # a field meant as the puzzle, of a wrong length
        for k, cells in enumerate(fields):
            if len(cells) in LINE_SIZES:
                nxt = fields[k + 1] if k + 1 < len(fields) else None
                expected = nxt if nxt is not None and len(nxt) == len(cells) else None
                events.append(self._one_line(line, ending, lineno, cells, layout, expected))
                return
            if len(cells) >= min(LINE_SIZES) and _looks_like_cells(cells):
                wrong = cells  # not an id or a label: the fields after it are not the puzzle
                break
        if wrong is None:
            everything = split_cells(body)  # the separators "," and ":" count as foreign here
            if not _looks_like_cells(everything):  # text such as "Puzzle 1: easy"
                col, ch = _first_bad_char(everything)
                self._reject(_not_a_cell_error(lineno, col, ch), ending, events, line)
                return
            wrong = max(fields, key=len)
        count = len(wrong)
        wanted = _nearest(count, LINE_SIZES) if count >= min(LINE_SIZES) else SIZE * SIZE
        self._reject(PuzzleFormatError(f"line {lineno}: expected {wanted} cells, found {count}"), ending, events, line)

    def _cut_short(self, grid: _GridInProgress, lineno: int, ending: str, events: List[Event]) -> None:
        """End a grid before its last row (a blank line, a comment, a one-line puzzle...)."""
        self._grid = None
        if grid.rows == 0:
            return  # only border lines: nothing was asked
        cut = PuzzleFormatError(
            f"line {lineno}: the grid that starts at line {grid.first_line}"
            f" has {grid.rows} row{'s' if grid.rows != 1 else ''}, expected {grid.size}"
        )
        rejected = grid.finish((lineno, cut))
        if isinstance(rejected, Rejected):
            rejected.ending = ending or self._last_ending
        events.append(rejected)

    def _grid_line(
        self, grid: _GridInProgress, line: str, ending: str, lineno: int, events: List[Event]
    ) -> None:
        if is_skippable(line):
            self._cut_short(grid, lineno, ending, events)
            return
        if is_border(line):
            grid.borders += 1
            if grid.borders > grid.max_borders:
                grid.fail(lineno, PuzzleFormatError(f"line {lineno}: too many border lines in one grid"))
            if grid.error is None:
                grid.add_line(line, ending)
            if grid.rows and grid.rows_at_first_rule is None:
                grid.rows_at_first_rule = grid.rows
            return
        body = strip_comment(line)
        cells = split_cells(body)
        count = len(cells)
        if "," in body or ":" in body or (
            count in LINE_SIZES and count != grid.size and (count != 16 or grid.size == 4)
        ):
            # A whole one-line puzzle or dataset row: this grid was cut short; the line is read anew.
            self._cut_short(grid, lineno, ending, events)
            self._idle_line(line, ending, lineno, events)
            return
        if grid.size is None:  # a framed grid's first row sets its size
            shape = _first_row_shape(body, cells)
            if shape is None:
                near = _near_row_size(count) or SIZE
                grid.set_shape(_RowShape(near, None, None), lineno)
                grid.fail(lineno, PuzzleFormatError(f"line {lineno}: expected {near} cells, found {count}"))
            else:
                grid.set_shape(shape, lineno)
        index = grid.add_line(line, ending)
        if grid.error is None:
            placed = self._place_cells(grid, line, body, cells)
            if placed is None:
                grid.fail(lineno, grid.count_error(lineno, count))
            else:
                width = max(col for col, _ in placed) + 1
                if width > len(line):  # cells read by column past the end of the line
                    grid.lines[index] = line.ljust(width)
                grid.add_cells(index, lineno, placed)
        grid.rows += 1
        if grid.rows == grid.size and not grid.framed:
            self._grid = None
            events.append(grid.finish())

    @staticmethod
    def _place_cells(
        grid: _GridInProgress, line: str, body: str, cells: List[Tuple[int, str]]
    ) -> Optional[List[Tuple[int, str]]]:
        """The row's ``size`` cells as ``(column, char)``, a blank char for a blank cell; None if wrong."""
        size = grid.size
        assert size is not None
        count = len(cells)
        first = grid.rows == 0
        if first and "|" in body:  # the first row: remember where its cells are
            grid.bars = _bars(body)
            if count == size:
                grid.slots = [col for col, _ in cells]
        if count == size:
            return cells
        if count > size or "|" not in body:
            return None
        bars = _bars(body)
        slots = grid.slots if grid.slots is not None and bars == grid.bars else None
        if slots is None:
            shape = _row_by_bars(body, cells, size, grid.box_cols)
            if shape is None or shape.slots is None:
                return None
            slots = shape.slots
            if first:
                grid.slots = slots
        on_row = {col for col, _ in cells}
        if not on_row <= set(slots):
            return None
        if len(body) < len(line) and max(slots) >= len(body):
            return None  # a cell would fall inside the trailing comment
        return [(col, body[col] if col < len(body) else " ") for col in slots]


def _is_small_line(body: str, cells: List[Tuple[int, str]]) -> bool:
    """True when a 16-cell line is a 4x4 puzzle rather than the first row of a 16x16 grid.

    That is: written without separators, and only with ``1``-``4`` and empty
    marks. Any other 16-cell line starts a 16x16 grid.
    """
    return cells[-1][0] - cells[0][0] == 15 and all(ch in "1234.0_" for _, ch in cells)


def parse(text: str) -> Puzzle:
    """Read exactly one puzzle written in any supported layout.

    Args:
      text: the puzzle's lines (LF, CRLF or CR endings); blank lines and
        comments around it are allowed.

    Returns:
      Puzzle: the givens (``puzzle.grid``: ``size * size`` ints row-major,
      0 = empty) and the template that renders an answer in the same layout.

    Raises:
      PuzzleFormatError: the text is not one puzzle; the message names the
        line and what was expected ("line 4: expected 9 cells, found 8").
      IncompletePuzzleError: the text ends inside a puzzle.
    """
    reader = PuzzleReader()
    events: List[Event] = []
    lines = text.splitlines(keepends=True)
    for number, raw in enumerate(lines, start=1):
        body = raw.rstrip("\r\n")
        events.extend(reader.feed_line(body, raw[len(body):], number))
    events.extend(reader.finish())
    if not events:
        raise PuzzleFormatError("no puzzle found")
    first = events[0]
    if isinstance(first, Rejected):
        raise first.error
    if len(events) > 1:
        raise PuzzleFormatError(f"line {events[1].first_line if isinstance(events[1], Puzzle) else '?'}: more than one puzzle")
    return first
