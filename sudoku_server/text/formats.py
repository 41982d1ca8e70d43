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

Pasted text (docs/LAYOUTS.md "Pasted grids") is read through a view of each
line with the same length (:func:`cell_view`): box-drawing lines (``─│┌┼``,
``━┃┏╋``, ``═║╔╬``, arcs, dashes, mixed) read as ``- | +``, Unicode spaces
(no-break, ideographic...) as blanks, full-width digits, letters and
``．`` as their ASCII forms. A row holding tabs whose fields hold at most
one cell each (a copied spreadsheet or HTML table) splits at every tab, and
an empty field is an empty cell.

The answer to a puzzle is the request's own lines with each empty cell
replaced by its symbol (:meth:`Puzzle.render`): same borders, spacing, symbol
set, letter case, characters (box drawing, full-width digits, tabs) and line
endings; a multi-line answer ends with one empty line.

:class:`PuzzleReader` is the line-level state machine that groups lines into
puzzles; it is fed decoded lines by the protocol session and never looks at
bytes or sockets. :func:`parse` reads one puzzle from a string.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from sudoku_server.errors import IncompletePuzzleError, PuzzleError, PuzzleFormatError, SolutionMismatchError
from sudoku_server.sudoku.grid import (
    BOX_SHAPES,
    DIGIT_SYMBOLS,
    LETTER_SYMBOLS,
    VALID_BOXES,
    ZERO_SYMBOLS,
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
#: How close a one-line count must be to a line size to be read as a line of
#: that size with cells missing or extra, by size: 5% of the size, at least 2
#: (a few typos). Farther counts name the common size, 81 cells (9x9).
NEAR_LINE = {16: 2, 36: 2, 81: 4, 256: 12, 625: 31}
#: The one-line size named for a count far from every size (below 81).
COMMON_LINE = SIZE * SIZE
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


def _box_drawing_view() -> dict[int, str]:
    """Box-drawing characters (U+2500..U+257F) -> ``-``, ``|`` or ``+``, from their Unicode names.

    A character drawn only left/right (``─ ━ ═ ┄ ╌ ╴``) is a ``-``; only
    up/down (``│ ┃ ║ ┆ ╎ ╵``) a ``|``; both (corners, tees, crosses, arcs,
    light/heavy/double mixed: ``┌ ┼ ╋ ╬ ╟ ╭``) a ``+``. The diagonals are left
    out: they are no frame.
    """
    table = {}
    across, down = {"HORIZONTAL", "LEFT", "RIGHT"}, {"VERTICAL", "UP", "DOWN"}
    for cp in range(0x2500, 0x2580):
        words = set(unicodedata.name(chr(cp), "").split())
        if "DIAGONAL" in words:
            continue
        h, v = bool(words & across), bool(words & down)
        table[cp] = "+" if h and v else "-" if h else "|" if v else None
    return {cp: ch for cp, ch in table.items() if ch}


#: Unicode spaces read as a blank: no-break (U+00A0), ogham, en quad .. hair
#: space (U+2000..U+200A), narrow no-break (U+202F), medium mathematical
#: (U+205F) and ideographic (U+3000): the space separators (Zs) of Unicode.
UNICODE_SPACES = "\u00a0\u1680" + "".join(chr(cp) for cp in range(0x2000, 0x200B)) + "\u202f\u205f\u3000"
#: Full-width forms read as their ASCII counterparts: digits, letters and
#: ``． ＿ ｜ ＋ － ＝ ＊`` (U+FF0E ...).
FULL_WIDTH = (
    "".join(chr(0xFF10 + i) for i in range(10))
    + "".join(chr(0xFF21 + i) + chr(0xFF41 + i) for i in range(26))
    + "．＿｜＋－＝＊"
)
_VIEW = {
    **_box_drawing_view(),
    **{ord(ch): " " for ch in UNICODE_SPACES},
    **{ord(ch): chr(ord(ch) - 0xFEE0) for ch in FULL_WIDTH},
    0x00A6: "|",  # broken bar
}
#: ASCII -> full width, for answers to full-width requests.
_WIDE = {ord(chr(ord(ch) - 0xFEE0)): ch for ch in FULL_WIDTH}


def cell_view(text: str) -> str:
    """``text`` as the layouts read it: the same length, one character for one.

    Box-drawing lines become ``-``, ``|`` or ``+``; Unicode spaces
    (:data:`UNICODE_SPACES`) a blank; full-width digits, letters and
    ``． ＿ ｜ ＋ － ＝ ＊`` their ASCII forms. Every other character is kept
    (and reported as foreign where it stands in a cell).
    """
    return text if text.isascii() else text.translate(_VIEW)


def _is_wide(ch: str) -> bool:
    """True for a full-width form or the ideographic space (a full-width blank)."""
    return "\uff01" <= ch <= "\uff5e" or ch == "\u3000"


def _mostly_wide(lines: Sequence[str], positions: Sequence[tuple[int, int]]) -> bool:
    """True when more than half the cells at ``positions`` are written in full width."""
    return 2 * sum(_is_wide(lines[li][col]) for li, col in positions) > len(positions)


#: Field counts a tab row may have (row and one-line sizes), and the only-tab
#: lines read as empty rows between puzzles (9x9, 16x16, 25x25 rows).
_TAB_SIZES = frozenset(ROW_SIZES) | frozenset(LINE_SIZES)
_EMPTY_TAB_ROW = frozenset((9, 16, 25))


def _tab_fields(view: str, in_tab_grid: bool) -> list[tuple[int, int, bool]] | None:
    """The cell fields of a tab row, or None when the line is not one.

    A line is a tab row when it holds a tab, no ``|``, ``,`` or ``:``, and
    every field between tabs holds at most one character besides blanks. A
    last empty field is the end of the line, not a cell, unless the fields
    then number a row size (a row whose last cell is empty). A line of tabs
    only is a row inside a grid of tab rows, or with 9, 16 or 25 fields.

    Returns:
      ``(start, end, empty)`` per cell field (columns of ``view``; ``empty``
      when it holds no character).
    """
    body = strip_comment(view)
    if "\t" not in body or "|" in body or "," in body or ":" in body:
        return None
    fields = []
    start = 0
    for part in body.split("\t"):
        end = start + len(part)
        held = part.strip(" ")
        if len(held) > 1:
            return None
        fields.append((start, end, not held))
        start = end + 1
    if fields[-1][2] and len(fields) not in _TAB_SIZES:
        fields.pop()  # a trailing tab
    if all(empty for _, _, empty in fields) and not (in_tab_grid or len(fields) in _EMPTY_TAB_ROW):
        return None  # a blank line (auto-indent)
    return fields


def _expand_tabs(view: str, raw: str, fields: list[tuple[int, int, bool]]) -> tuple[str, str, tuple[int, ...]]:
    """A tab row with one character per cell: ``.`` in the view for each empty field.

    An empty field gets a blank inserted in ``raw`` (the answer writes its
    digit there); a field of blanks has its first blank read as ``.``.

    Returns:
      the new view, the new raw line, and the columns (in the new lines) of
      the inserted characters, to map columns back to the request's.
    """
    views, raws, inserted = [], [], []
    pos = 0
    length = 0
    for start, end, empty in fields:
        views.append(view[pos:start])
        raws.append(raw[pos:start])
        length += start - pos
        if not empty:
            views.append(view[start:end])
            raws.append(raw[start:end])
            length += end - start
        elif start == end:
            inserted.append(length)
            views.append(".")
            raws.append(" ")
            length += 1
        else:
            views.append("." + view[start + 1 : end])
            raws.append(raw[start:end])
            length += end - start
        pos = end
    views.append(view[pos:])
    raws.append(raw[pos:])
    return "".join(views), "".join(raws), tuple(inserted)


def _request_col(inserted: Sequence[int], col: int) -> int:
    """The column in the request of column ``col`` of a line with ``inserted`` characters."""
    return col - bisect.bisect_left(inserted, col) if inserted else col


LAYOUT_BORDERED = "bordered"
LAYOUT_ROWS = "rows"
LAYOUT_LINE = "line"
LAYOUT_CSV = "csv"


class Positions(Sequence):
    """Where each cell's character stands: ``(line index, column index)`` pairs, 0-based.

    A compact sequence (machine ints in arrays, 2 bytes a cell for a one-line
    puzzle, instead of a tuple each): the server holds a window of parsed
    puzzles per connection, so their size bounds its memory.
    """

    __slots__ = ("_cols", "_lines")

    def __init__(self, pairs: Iterable[tuple[int, int]] = ()) -> None:
        self._lines: array | None = array("H")  # None: every cell on line 0
        self._cols = array("H")
        self.extend(pairs)

    @classmethod
    def on_one_line(cls, columns: Iterable[int]) -> Positions:
        """Every cell on line 0, at the given columns."""
        positions = cls()
        positions._lines = None
        positions._cols = _index_array(columns)
        return positions

    def extend(self, pairs: Iterable[tuple[int, int]]) -> None:
        lines, cols = self._lines, self._cols
        assert lines is not None, "a one-line puzzle's positions do not grow"
        for line, col in pairs:
            if col > 0xFFFF and cols.typecode == "H":
                self._cols = cols = array("I", cols)
            lines.append(line)
            cols.append(col)

    def __len__(self) -> int:
        return len(self._cols)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return list(self)[index]
        return (0 if self._lines is None else self._lines[index]), self._cols[index]

    def __iter__(self) -> Iterator[tuple[int, int]]:
        if self._lines is None:
            return ((0, col) for col in self._cols)
        return zip(self._lines, self._cols)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Positions, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"Positions({list(self)!r})"


def _index_array(values: Iterable[int]) -> array:
    """Column indices in the smallest array that holds them (2 bytes each up to 65535)."""
    values = list(values)
    return array("H" if not values or max(values) <= 0xFFFF else "I", values)


@dataclass(slots=True)
class Puzzle:
    """One puzzle as it arrived, with what is needed to answer in its layout.

    Attributes:
      grid: the givens (``size * size`` ints row-major, 0 = empty).
      layout: ``"bordered"``, ``"rows"``, ``"line"`` or ``"csv"``.
      first_line: 1-based number of its first line in the stream.
      lines: the request's lines, without their terminators, in their own
        characters (a row read by column is padded with blanks up to its
        last cell; an empty field of a tab row holds one inserted blank).
      endings: each line's terminator (``"\\n"``, ``"\\r\\n"``, ``"\\r"`` or
        ``""`` for an unterminated last line).
      positions: for each cell, row-major, ``(line index, column index)`` of
        its character in ``lines`` (0-based); a compact :class:`Positions`.
      symbols: how the request writes digits 1..size (``symbols[d - 1]``);
        empty for ``123456789``.
      expected: a dataset row's expected solution, or None.
      wide: True when most of its cells are written in full-width characters
        (``１``, ``．``, the ideographic space): the answer fills the empty
        cells with full-width symbols too.
    """

    grid: Grid
    layout: str
    first_line: int
    lines: list[str]
    endings: list[str]
    positions: Sequence[tuple[int, int]]
    symbols: str = ""
    expected: Grid | None = None
    wide: bool = False
    plain: bool = False  # a plain 81-cell line: the answer is the solution's digits

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
        own symbols (:attr:`symbols`), in full width for a full-width request
        (:attr:`wide`). A multi-line answer is followed by one empty line;
        every line ends with the request's own terminator (the first one seen
        for an unterminated last line).

        Returns:
          str: the answer; it may hold any character of the request (box
          drawing, full-width digits, undecodable bytes kept as
          surrogateescape code points), so send it as
          ``.encode("utf-8", "surrogateescape")``.
        """
        if self.plain:
            return bytes(solution.cells).translate(_DIGIT_CHARS).decode("ascii") + self.endings[0]
        symbols = self.symbols or DIGIT_SYMBOLS
        if self.wide:
            symbols = symbols.translate(_WIDE)
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
      text: the line as it arrived, when it was rejected on its own (prose,
        a mistyped command, a one-line puzzle of a wrong length or with a
        foreign character); None otherwise, and never for a row of a grid.
        The protocol session words such a line as an unknown verb when its
        first word is made of letters.
    """

    error: PuzzleError
    ending: str = "\n"
    text: str | None = None


Event = Puzzle | Rejected


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


def split_cells(line: str, start: int = 0, end: int | None = None) -> list[tuple[int, str]]:
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


def _looks_like_cells(cells: list[tuple[int, str]], size: int = SIZE) -> bool:
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


def _near_row_size(count: int) -> int | None:
    """The row size a broken first row of ``count`` cells was meant to have, or None.

    9 wins when it is near (the classic grid), then the closest size.
    """
    if abs(count - SIZE) <= NEAR_ROW:
        return SIZE
    size = _nearest(count, ROW_SIZES)
    return size if abs(count - size) <= NEAR_ROW else None


#: A word: two or more letters in a row (any script).
_WORD = re.compile(r"[^\W\d_]{2,}")
#: The letters a grid of each size may hold as symbols (any case).
_GRID_LETTERS = {
    16: frozenset(LETTER_SYMBOLS[:16] + LETTER_SYMBOLS[:16].lower()),
    25: frozenset(LETTER_SYMBOLS + LETTER_SYMBOLS.lower()),
}


def _holds_word(body: str, size: int) -> bool:
    """True when ``body`` holds a word no row of ``size`` could: prose, not a row with a typo.

    A word is two or more letters in a row. Grids up to 9x9 hold no letter;
    a 16x16 row may hold ``A``-``P`` and a 25x25 row ``A``-``Y``, so
    ``Sudoku`` is prose for every size and ``ABCD`` only up to 9x9.
    """
    allowed = _GRID_LETTERS.get(size, frozenset())
    return any(not set(m.group()) <= allowed for m in _WORD.finditer(body))


def _is_prose(body: str, cells: list[tuple[int, str]], size: int) -> bool:
    """True for a line that is not cells of a ``size`` grid: mostly other characters, or a word."""
    return not _looks_like_cells(cells, size) or _holds_word(body, size)


def _only_cells(cells: list[tuple[int, str]], size: int) -> bool:
    """True when every character could be a cell of ``size`` (a broken first row has no other)."""
    like = _CELL_LIKE[size]
    return all(ch in like for _, ch in cells)


def _near_line_size(count: int) -> int | None:
    """The one-line size within :data:`NEAR_LINE` of ``count``, or None."""
    for size, margin in NEAR_LINE.items():
        if abs(count - size) <= margin:
            return size
    return None


def _line_count_error(lineno: int, count: int) -> PuzzleFormatError:
    """A one-line puzzle or dataset field of a wrong length.

    A count near a size names it (``expected 81 cells, found 80``); a count
    far from every size names the common one below 81
    (``expected 81 cells (9x9), found 40``) and lists them all above.
    """
    near = _near_line_size(count)
    if near is not None:
        return PuzzleFormatError(f"line {lineno}: expected {near} cells, found {count}")
    if count < COMMON_LINE:
        return PuzzleFormatError(f"line {lineno}: expected {COMMON_LINE} cells (9x9), found {count}")
    return PuzzleFormatError(f"line {lineno}: expected 16, 36, 81, 256 or 625 cells, found {count}")


def _cut_line_size(count: int) -> int | None:
    """The one-line size a line of ``count`` cells cut by the end of input was meant to have.

    The next size above ``count``: 16 or 36 only when ``count`` is within
    their :data:`NEAR_LINE` below them, else 81, 256 or 625. None when the
    line has too many cells for that reading: a few over 81, 256 or 625
    (within their margin), or over 625.
    """
    if count < 1:
        return None
    for size in (81, 256, 625):
        if size < count <= size + NEAR_LINE[size]:
            return None
    for size in sorted(LINE_SIZES):
        if count < size and (size >= COMMON_LINE or size - count <= NEAR_LINE[size]):
            return size
    return None


def _cut_line_error(lineno: int, count: int, size: int) -> IncompletePuzzleError:
    return IncompletePuzzleError(f"input ended inside the one-line puzzle at line {lineno} ({count} of {size} cells)")


def _first_bad_char(cells: list[tuple[int, str]]) -> tuple[int, str]:
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
            f"line {lineno}, column {col + 1}: expected {what} in the {field} at {where}, found {describe_char(ch)}"
        )
    if size == SIZE:
        return PuzzleFormatError(
            f"line {lineno}, column {col + 1}: {describe_char(ch)} is not a digit 1-9"
            f" or an empty mark (. 0 _) at {where}"
        )
    return PuzzleFormatError(f"line {lineno}: {describe_char(ch)} is not a {size}x{size} symbol at {where}")


# -- rows read by the columns of their "|" ------------------------------------


def _bars(body: str) -> list[int]:
    return [i for i, ch in enumerate(body) if ch == "|"]


def _segments(body: str, bars: list[int]) -> list[tuple[int | None, int | None]]:
    """The boxes of a row between its ``|``: ``(left bar, right bar)``, None for an open side.

    A row that starts and ends with ``|`` (blanks aside) is framed: its boxes
    lie between bars. Otherwise the text before the first bar and after the
    last one are boxes too, even when blank (an empty box printed as blanks).
    """
    first, last = bars[0], bars[-1]
    framed = not body[:first].strip() and not body[last + 1 :].strip()
    segments: list[tuple[int | None, int | None]] = [] if framed else [(None, first)]
    segments.extend(zip(bars, bars[1:]))
    if not framed:
        segments.append((last, None))
    return segments


def _style(width: int, k: int) -> tuple[int, int] | None:
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


def _slots(body: str, segments, k: int, pitch: int, ref: int) -> list[int] | None:
    """The columns of a row's cells, ``k`` per box ``pitch`` apart, or None if they do not fit.

    Every box is laid out like the reference box (``ref`` characters wide):
    from its left bar, or, for a first box open on the left, back from its
    right bar.
    """
    span = pitch * (k - 1) + 1
    lead = (ref - span) // 2
    trail = ref - span - lead
    slots: list[int] = []
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
    box_cols: int | None  # None: the default box shape of the size
    slots: list[int] | None  # None: the cells are the row's non-blank characters


def _row_by_bars(
    body: str, cells: list[tuple[int, str]], size: int | None = None, box_cols: int | None = None
) -> _RowShape | None:
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


def _first_row_shape(body: str, cells: list[tuple[int, str]]) -> _RowShape | None:
    """The shape a grid's first row gives it, or None if it is not a row of any size."""
    if "|" in body:
        shape = _row_by_bars(body, cells)
        if shape is not None:
            return shape
    n = len(cells)
    if n in ROW_SIZES:
        return _RowShape(n, _box_cols_by_counts(body, cells, n), None)
    return None


def _box_cols_by_counts(body: str, cells: list[tuple[int, str]], size: int) -> int | None:
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
        self.lines: list[str] = []  # as the request wrote them (the answer's template)
        self.endings: list[str] = []
        self.inserted: list[tuple[int, ...]] = []  # per line: columns of inserted characters
        self.positions = Positions()
        self.chars: list[str] = []  # each cell's character, row-major (blank = empty)
        self.cell_lines: list[int] = []  # the line number of each row read, in order
        self.size: int | None = None
        self.box_cols: int | None = None
        self.size_line = 0  # the line that set the size
        self.bars: list[int] | None = None  # the first row's "|" columns...
        self.slots: list[int] | None = None  # ...and its cell columns
        self.rows = 0
        self.borders = 0
        self.rows_at_first_rule: int | None = None
        self.error: tuple[int, PuzzleFormatError] | None = None
        self.tabbed = False  # its rows are tab fields
        self.reported = False  # its error was already sent (interactive reading)
        self.cut_at_end = False  # its last row was cut by the end of input

    def add_line(self, raw: str, ending: str, inserted: tuple[int, ...] = ()) -> int:
        self.lines.append(raw)
        self.endings.append(ending)
        self.inserted.append(inserted)
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

    def add_cells(self, index: int, lineno: int, placed: list[tuple[int, str]]) -> None:
        self.positions.extend((index, col) for col, _ in placed)
        self.chars.extend(ch for _, ch in placed)
        self.cell_lines.append(lineno)

    def box_shape(self) -> tuple[int, int]:
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
        symbols, values, bad = _read_symbols(self.chars, size)
        if bad is None:
            return symbols, values, None
        lineno = self.cell_lines[bad // size]
        li, col = self.positions[bad]
        error = _symbol_error(lineno, _request_col(self.inserted[li], col), self.lines[li][col], size, bad)
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
        wide = not all(line.isascii() for line in self.lines) and _mostly_wide(self.lines, self.positions)
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


def _read_symbols(chars: list[str], size: int, extra: str = "") -> tuple[str, list[int], int | None]:
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


#: Symbols of some symbol set of each size (any case), with the empty marks:
#: a character outside is foreign to every grid of that size, whatever its
#: other cells say (interactive reading reports it at its row).
_ANY_SYMBOL = {
    size: frozenset(symbol_table(DIGIT_SYMBOLS[:size]))
    | (
        frozenset(symbol_table(ZERO_SYMBOLS[:size])) | frozenset(symbol_table(LETTER_SYMBOLS[:size]))
        if size >= 16
        else frozenset()
    )
    for size in ROW_SIZES
}


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
    one-line puzzle inside a grid ends it early. A line of prose (not cells:
    :attr:`Rejected.text` is set) gets its own error and never starts a
    grid.

    Args:
      report_early: interactive reading (a person typing): a grid's first
        bad row is reported at that row, not when the grid ends; the rest of
        the grid's rows are then read and dropped with no further error.
        Also :meth:`set_report_early`.

    Cost: each line is scanned a constant number of times; a grid keeps at
    most its rows and ``2 * (size + 1)`` border lines.
    """

    def __init__(self, report_early: bool = False) -> None:
        self._grid: _GridInProgress | None = None
        self._last_ending = "\n"
        self._report_early = report_early
        # The line being read: as it arrived, as the answer's template
        # (tab fields filled), and the columns inserted into that template.
        self._given = ""
        self._raw = ""
        self._inserted: tuple[int, ...] = ()
        self._tabbed = False

    @property
    def report_early(self) -> bool:
        """True when a bad row is reported at once (interactive reading)."""
        return self._report_early

    def set_report_early(self, on: bool = True) -> list[Event]:
        """Switch interactive reading on (or off) between two lines.

        Returns:
          The error of the grid being read when it already has one (to send
          now: reading on, that grid reports nothing more); else ``[]``.
        """
        self._report_early = on
        events: list[Event] = []
        grid = self._grid
        if on and grid is not None and grid.error is not None and not grid.reported and grid.size is not None:
            self._report(grid, events)
        return events

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
    def puzzle_start(self) -> int | None:
        """The first line of the multi-line puzzle being read, or None."""
        return self._grid.first_line if self._grid is not None else None

    def abort(self) -> None:
        """Drop the puzzle being read (telnet interrupt); no answer is given for it."""
        self._grid = None

    def cut_short(self, lineno: int, ending: str) -> list[Event]:
        """End the grid being read before its last row, as a blank line would.

        The session calls it when a command line comes inside a grid. Returns
        the grid's error (``line 3: the grid that starts at line 1 has 2 rows,
        expected 9``), or the grid itself when it lacked only its closing
        border, or nothing when it had only border lines.
        """
        grid = self._grid
        if grid is None:
            return []
        if self.awaiting_optional_line:
            return self.finish()
        events: list[Event] = []
        self._cut_short(grid, lineno, ending, events)
        return events

    def skip_blank_lines(self, ending: str) -> None:
        """Blank lines between puzzles (a fast path of :meth:`feed_line`; only when idle)."""
        assert self._grid is None
        self._last_ending = ending

    def feed_line(self, line: str, ending: str, lineno: int) -> list[Event]:
        """Take one line; return the events it completes (see class docstring).

        Args:
          line: the line's text, without its terminator (any characters:
            it is read through :func:`cell_view`).
          ending: its terminator, ``""`` when the input ended in the middle
            of the line (it is then the last line): a one-line puzzle or a
            row cut short there is ``incomplete``, not wrong.
          lineno: its 1-based number in the stream (errors name it).
        """
        if ending:
            self._last_ending = ending
        grid = self._grid
        if grid is None and len(line) == 81 and ending and _PLAIN_LINE.fullmatch(line):
            return [_plain_line_puzzle(line, ending, lineno)]  # the common case, 5x sooner
        events: list[Event] = []
        awaiting = grid is not None and grid.size is not None and grid.rows == grid.size
        view = cell_view(line)
        self._given = self._raw = line
        self._inserted = ()
        fields = _tab_fields(view, grid is not None and grid.tabbed and not awaiting)
        self._tabbed = fields is not None
        if fields is not None:
            view, self._raw, self._inserted = _expand_tabs(view, line, fields)
        if grid is not None:
            if awaiting:  # framed grid, all rows read
                self._grid = None
                if is_border(view):
                    grid.add_line(self._raw, ending)
                    grid.borders += 1
                    self._emit(grid, events)
                    return events
                self._emit(grid, events)
            else:
                self._grid_line(grid, view, ending, lineno, events)
                return events
        self._idle_line(view, ending, lineno, events)
        return events

    def finish(self) -> list[Event]:
        """End of input: complete or reject the puzzle being read.

        Returns:
          The final events: the framed grid that lacked only its closing
          border, or an ``incomplete`` error for a puzzle cut short (none
          for a grid whose error was already reported).
        """
        grid = self._grid
        self._grid = None
        if grid is None or grid.reported:
            return []
        if grid.rows == grid.size:
            return [grid.finish()]
        if grid.rows == 0 and not grid.cut_at_end:
            return []  # only border lines: nothing was asked
        if grid.error is not None or grid.symbol_error() is not None:
            return [grid.finish()]  # a bad line says more than "incomplete"
        return [grid.incomplete(self._last_ending)]

    # -- events ---------------------------------------------------------

    def _reject(self, error: PuzzleError, ending: str, events: list[Event], text: str | None = None) -> None:
        events.append(Rejected(error, ending or self._last_ending, text))

    def _reject_count(
        self, cells: list[tuple[int, str]], lineno: int, count: int, ending: str, events: list[Event]
    ) -> None:
        """A one-line puzzle of a wrong length: its first character that no grid could
        hold, when it has one (an inserted stray byte, NUL, zero-width space), else the count."""
        like = _CELL_LIKE[max(ROW_SIZES)]
        foreign = next((col for col, ch in cells if ch not in like), None)
        if foreign is not None:
            ch = self._raw[foreign] if foreign < len(self._raw) else " "
            error = _not_a_cell_error(lineno, _request_col(self._inserted, foreign), ch)
        else:
            error = _line_count_error(lineno, count)
        self._reject(error, ending, events, self._given)

    def _reject_prose(self, cells: list[tuple[int, str]], lineno: int, ending: str, events: list[Event]) -> None:
        """A line that is not cells: its first character that is not a cell, and its text."""
        col, _ = _first_bad_char(cells) if cells else (0, " ")
        ch = self._raw[col] if col < len(self._raw) else " "
        error = _not_a_cell_error(lineno, _request_col(self._inserted, col), ch)
        self._reject(error, ending, events, self._given)

    def _emit(self, grid: _GridInProgress, events: list[Event], cut=None, ending: str = "") -> None:
        """A grid is over: its puzzle or its error, unless that error was already reported."""
        if grid.reported:
            return
        event = grid.finish(cut)
        if ending and isinstance(event, Rejected):
            event.ending = ending
        events.append(event)

    def _report(self, grid: _GridInProgress, events: list[Event]) -> None:
        """Interactive reading: send the grid's error now; its other rows are then dropped."""
        assert grid.error is not None
        events.append(Rejected(grid.error[1], self._last_ending))  # the current line's ending
        grid.reported = True

    def _fail(self, grid: _GridInProgress, lineno: int, error: PuzzleFormatError, events: list[Event]) -> None:
        grid.fail(lineno, error)
        # Interactive reading reports it now, once the grid has a row (border
        # lines alone ask nothing, as at the end of input).
        if self._report_early and not grid.reported and grid.size is not None:
            self._report(grid, events)

    # -- states ---------------------------------------------------------

    def _idle_line(self, line: str, ending: str, lineno: int, events: list[Event]) -> None:
        if is_skippable(line):
            return
        if is_border(line):
            grid = self._grid = _GridInProgress(lineno, framed=True)
            grid.add_line(self._raw, ending)
            grid.borders += 1
            return
        body = strip_comment(line)
        if "," in body or ":" in body:
            self._fielded_line(line, body, ending, lineno, events)
            return
        cells = split_cells(body)
        count = len(cells)
        if count in LINE_SIZES and (count != 16 or _is_small_line(body, cells)):
            event = self._one_line(ending, lineno, cells, LAYOUT_LINE)
            if isinstance(event, Rejected) and not _looks_like_cells(cells, LINE_SIZES[count]):
                self._reject_prose(cells, lineno, ending, events)  # prose of a puzzle's length
                return
            events.append(event)
            return
        shape = _first_row_shape(body, cells)
        near = _near_row_size(count) if count else None
        size = shape.size if shape is not None else near or SIZE
        if _is_prose(body, cells, size):
            self._reject_prose(cells, lineno, ending, events)
            return
        if shape is not None:
            grid = self._grid = _GridInProgress(lineno, framed=False)
            grid.set_shape(shape, lineno)
            self._grid_line(grid, line, ending, lineno, events)
            return
        cut = _cut_line_size(count) if not ending else None
        if cut is not None:  # the input ended in the middle of a one-line puzzle
            self._reject(_cut_line_error(lineno, count, cut), ending, events, self._given)
            return
        if near is not None and _only_cells(cells, near):
            # A broken first row: the grid it starts still spans its rows.
            grid = self._grid = _GridInProgress(lineno, framed=False)
            grid.set_shape(_RowShape(near, None, None), lineno)
            self._fail(grid, lineno, PuzzleFormatError(f"line {lineno}: expected {near} cells, found {count}"), events)
            self._grid_line(grid, line, ending, lineno, events)
            return
        if count > max(ROW_SIZES) + 5:
            self._reject_count(cells, lineno, count, ending, events)
        else:
            self._reject(
                PuzzleFormatError(f"line {lineno}: expected a row of 4, 6, 9, 16 or 25 cells, found {count}"),
                ending,
                events,
                self._given,
            )

    def _one_line(
        self,
        ending: str,
        lineno: int,
        cells: list[tuple[int, str]],
        layout: str,
        expected: list[tuple[int, str]] | None = None,
    ) -> Event:
        """A whole puzzle on the current line (``expected``: a dataset row's solution field)."""
        raw = self._raw
        size = LINE_SIZES[len(cells)]
        chars = [ch for _, ch in cells]
        extra = "".join(ch for _, ch in expected) if expected else ""
        symbols, values, bad = _read_symbols(chars, size, extra)
        if bad is not None:
            col = cells[bad][0]
            error = _symbol_error(lineno, _request_col(self._inserted, col), raw[col], size, bad)
            return Rejected(error, ending or self._last_ending, self._given)
        box_rows, box_cols = BOX_SHAPES[size]
        solution = None
        if expected is not None:
            table = symbol_table(symbols)
            digits = []
            for i, (col, ch) in enumerate(expected):
                value = table.get(ch)
                if not value:
                    error = _symbol_error(lineno, col, raw[col], size, i, field="solution field")
                    return Rejected(error, ending or self._last_ending, self._given)
                digits.append(value)
            solution = Grid(tuple(digits), box_rows, box_cols, symbols)
        return Puzzle(
            grid=Grid(tuple(values), box_rows, box_cols, symbols),
            layout=layout,
            first_line=lineno,
            lines=[raw],
            endings=[ending],
            positions=Positions.on_one_line(col for col, _ in cells),
            symbols=symbols,
            expected=solution,
            wide=not raw.isascii() and _mostly_wide([raw], [(0, col) for col, _ in cells]),
        )

    def _fielded_line(self, line: str, body: str, ending: str, lineno: int, events: list[Event]) -> None:
        """A dataset row (``puzzle,solution``), a labelled puzzle (``id:puzzle``), or a CSV header."""
        bounds = []
        start = 0
        for match in _FIELD_SPLIT.finditer(body):
            bounds.append((start, match.start()))
            start = match.end()
        bounds.append((start, len(body)))
        fields = [split_cells(body, a, b) for a, b in bounds]
        if "," in body and all(
            _HEADER_FIELD.fullmatch(body[a:b]) and len(cells) not in LINE_SIZES for (a, b), cells in zip(bounds, fields)
        ):
            return  # a CSV header: quizzes,solutions
        layout = LAYOUT_CSV if "," in body else LAYOUT_LINE
        wrong = None  # a field meant as the puzzle, of a wrong length
        for k, cells in enumerate(fields):
            if len(cells) in LINE_SIZES:
                nxt = fields[k + 1] if k + 1 < len(fields) else None
                expected = nxt if nxt is not None and len(nxt) == len(cells) else None
                events.append(self._one_line(ending, lineno, cells, layout, expected))
                return
            if len(cells) >= min(LINE_SIZES) and _looks_like_cells(cells):
                wrong = cells  # not an id or a label: the fields after it are not the puzzle
                if k == len(fields) - 1 and not ending:  # the input ended inside it
                    cut = _cut_line_size(len(cells))
                    if cut is not None:
                        self._reject(_cut_line_error(lineno, len(cells), cut), ending, events, self._given)
                        return
                break
        if wrong is None:
            everything = split_cells(body)  # the separators "," and ":" count as foreign here
            if _is_prose(body, everything, SIZE):  # text such as "Puzzle 1: easy"
                self._reject_prose(everything, lineno, ending, events)
                return
            wrong = max(fields, key=len)
        self._reject_count(wrong, lineno, len(wrong), ending, events)

    def _cut_short(self, grid: _GridInProgress, lineno: int, ending: str, events: list[Event]) -> None:
        """End a grid before its last row (a blank line, a comment, a one-line puzzle...)."""
        self._grid = None
        if grid.rows == 0:
            return  # only border lines: nothing was asked
        cut = PuzzleFormatError(
            f"line {lineno}: the grid that starts at line {grid.first_line}"
            f" has {grid.rows} row{'s' if grid.rows != 1 else ''}, expected {grid.size}"
        )
        self._emit(grid, events, (lineno, cut), ending or self._last_ending)

    def _grid_line(self, grid: _GridInProgress, line: str, ending: str, lineno: int, events: list[Event]) -> None:
        if is_skippable(line):
            self._cut_short(grid, lineno, ending, events)
            return
        if is_border(line):
            grid.borders += 1
            if grid.borders > grid.max_borders:
                self._fail(grid, lineno, PuzzleFormatError(f"line {lineno}: too many border lines in one grid"), events)
            if grid.error is None:
                grid.add_line(self._raw, ending)
            if grid.rows and grid.rows_at_first_rule is None:
                grid.rows_at_first_rule = grid.rows
            return
        body = strip_comment(line)
        cells = split_cells(body)
        count = len(cells)
        if (
            "," in body
            or ":" in body
            or (count in LINE_SIZES and count != grid.size and (count != 16 or grid.size == 4))
        ):
            # A whole one-line puzzle or dataset row: this grid was cut short; the line is read anew.
            self._cut_short(grid, lineno, ending, events)
            self._idle_line(line, ending, lineno, events)
            return
        if grid.size is None:  # a framed grid's first row sets its size
            shape = _first_row_shape(body, cells)
            near = _near_row_size(count) if count else None
            if "|" not in body and _is_prose(body, cells, shape.size if shape is not None else near or SIZE):
                # Prose after a lone border line (a rule in a text): no grid yet.
                self._cut_short(grid, lineno, ending, events)
                self._idle_line(line, ending, lineno, events)
                return
            if shape is None:
                near = near or SIZE
                grid.set_shape(_RowShape(near, None, None), lineno)
                if not ending and count < near:  # the input ended inside the row
                    grid.cut_at_end = True
                    return
                self._fail(
                    grid, lineno, PuzzleFormatError(f"line {lineno}: expected {near} cells, found {count}"), events
                )
            else:
                grid.set_shape(shape, lineno)
            if self._report_early and grid.error is not None and not grid.reported:
                self._report(grid, events)  # too many border lines before this first row
        index = grid.add_line(self._raw, ending, self._inserted)
        if self._tabbed:
            grid.tabbed = True
        if grid.error is None:
            placed = self._place_cells(grid, line, body, cells)
            if placed is None:
                assert grid.size is not None
                if not ending and count < grid.size:  # the input ended inside the row
                    grid.cut_at_end = True
                    return
                self._fail(grid, lineno, grid.count_error(lineno, count), events)
            else:
                width = max(col for col, _ in placed) + 1
                if width > len(line):  # cells read by column past the end of the line
                    grid.lines[index] = self._raw.ljust(width)
                grid.add_cells(index, lineno, placed)
                if self._report_early:
                    self._check_symbols(grid, index, lineno, placed, events)
        grid.rows += 1
        if grid.rows == grid.size and not grid.framed:
            self._grid = None
            self._emit(grid, events)

    def _check_symbols(
        self, grid: _GridInProgress, index: int, lineno: int, placed: list[tuple[int, str]], events: list[Event]
    ) -> None:
        """Interactive reading: report a row's character that no symbol set of the grid's size holds.

        (A character foreign only to the set the whole grid chooses, such as
        ``H`` in a 16x16 grid that also holds digits, is known at its end.)
        """
        size = grid.size
        assert size is not None
        allowed = _ANY_SYMBOL[size]
        for k, (col, ch) in enumerate(placed):
            if ch not in allowed:
                cell = grid.rows * size + k
                raw = grid.lines[index][col]
                error = _symbol_error(lineno, _request_col(self._inserted, col), raw, size, cell)
                self._fail(grid, lineno, error, events)
                return

    @staticmethod
    def _place_cells(
        grid: _GridInProgress, line: str, body: str, cells: list[tuple[int, str]]
    ) -> list[tuple[int, str]] | None:
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


def _is_small_line(body: str, cells: list[tuple[int, str]]) -> bool:
    """True when a 16-cell line is a 4x4 puzzle rather than the first row of a 16x16 grid.

    That is: written without separators, and only with ``1``-``4`` and empty
    marks. Any other 16-cell line starts a 16x16 grid.
    """
    return cells[-1][0] - cells[0][0] == 15 and all(ch in "1234.0_" for _, ch in cells)


#: A plain 9x9 one-line puzzle: 81 digits and empty marks, nothing else
#: (dataset files are mostly this). :meth:`PuzzleReader.feed_line` reads it
#: without the general machinery; the result is the same (a test holds it).
_PLAIN_LINE = re.compile(r"[0-9._]{81}")
_PLAIN_VALUES = bytes.maketrans(b"0123456789._", bytes(range(10)) + b"\x00\x00")
#: Digits 1..9 as their characters (the answer of a plain line).
_DIGIT_CHARS = bytes.maketrans(bytes(range(10)), b".123456789")
#: Every plain line's cells are at columns 0..80 of line 0 (never extended).
_PLAIN_POSITIONS = Positions.on_one_line(range(81))


def _plain_line_puzzle(line: str, ending: str, lineno: int) -> Puzzle:
    values = tuple(line.encode("ascii").translate(_PLAIN_VALUES))
    symbols = DIGIT_SYMBOLS[:SIZE]
    return Puzzle(
        grid=Grid.trusted(values, 3, 3, symbols),
        layout=LAYOUT_LINE,
        first_line=lineno,
        lines=[line],
        endings=[ending],
        positions=_PLAIN_POSITIONS,
        symbols=symbols,
        plain=True,
    )


def bordered_lines(grid: Grid) -> list[str]:
    """``grid`` in the reference bordered layout: ``+-------+`` rules, ``| 7 . . |`` rows.

    Any size; empty cells are ``.``, digits the grid's symbols (``1-9`` then
    letters). The layout GENERATE's ``format=grid`` and the README use.
    """
    n, box_rows, box_cols = grid.size, grid.box_rows, grid.box_cols
    rule = "+" + "+".join("-" * (2 * box_cols + 1) for _ in range(n // box_cols)) + "+"
    lines = [rule]
    for r in range(n):
        cells = [grid.symbol(v) for v in grid.cells[r * n : (r + 1) * n]]
        boxes = (" ".join(cells[b : b + box_cols]) for b in range(0, n, box_cols))
        lines.append("| " + " | ".join(boxes) + " |")
        if (r + 1) % box_rows == 0:
            lines.append(rule)
    return lines


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
    events: list[Event] = []
    lines = text.splitlines(keepends=True)
    for number, raw in enumerate(lines, start=1):
        body = raw.rstrip("\r\n")
        events.extend(reader.feed_line(body, raw[len(body) :], number))
    events.extend(reader.finish())
    if not events:
        raise PuzzleFormatError("no puzzle found")
    first = events[0]
    if isinstance(first, Rejected):
        raise first.error
    if len(events) > 1:
        raise PuzzleFormatError(
            f"line {events[1].first_line if isinstance(events[1], Puzzle) else '?'}: more than one puzzle"
        )
    return first
