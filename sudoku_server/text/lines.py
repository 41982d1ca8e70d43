"""What ONE line of text is: a border, a row of n cells, a one-line puzzle, a dataset row, prose...

Pure functions with no reader state (docs/LAYOUTS.md names every layout).
:func:`classify_line` reads a line through :func:`~.view.cell_view` (and its
tab fields) and says what kind it is (:class:`Line`: blank, comment, border,
fields, cells); :func:`opening` says what a line of cells or fields is when
it comes between puzzles (:data:`Opening`: a one-line puzzle, the first row
of a grid, prose...), and :func:`row_start` what it says about a grid it
starts (:class:`RowStart`: its size, box shape and cell columns).
:class:`~.reader.PuzzleReader` acts on these values; it words the errors.

A cell is any character other than a blank, a tab or ``|``; whether it is a
symbol of the grid is decided when the grid is read, so a stray ``x`` is
reported at its place rather than as a wrong count.

The values returned are slotted dataclasses that nothing changes once made;
they are not frozen because a frozen dataclass costs about a microsecond
more to make, once per line on the request path.
"""

from __future__ import annotations

import enum
import re
import string
from collections.abc import Sequence
from dataclasses import dataclass

from sudoku_server.sudoku.grid import BOX_SHAPES, DIGIT_SYMBOLS, EMPTY_MARKS, LETTER_SYMBOLS, VALID_BOXES
from sudoku_server.text.sizes import (
    AMBIGUOUS_LINE,
    COMMON_LINE,
    LARGEST,
    LINE_SIZES,
    NEAR_LINE,
    NEAR_ROW,
    ROW_SIZES,
    SIZE,
    SMALLEST,
)
from sudoku_server.text.view import cell_view, expand_tabs, strip_comment, tab_fields

#: Characters that may separate cells within a row.
CELL_SEPARATORS = " \t|"
#: Characters a border line is made of (it must also hold a ``-``, ``=`` or ``*``).
BORDER_CHARS = frozenset("+-=|* \t")
#: The letters a grid of each size may hold as symbols (any case): A-P for
#: 16x16, A-Y for 25x25; grids up to 9x9 hold none.
GRID_LETTERS = {
    size: frozenset(LETTER_SYMBOLS[:size] + LETTER_SYMBOLS[:size].lower()) for size in ROW_SIZES if size > SIZE
}
#: Characters that look like cells, by grid size: how a text line that merely
#: has the length of a row (``hello``) is told from a row with a typo.
_CELL_LIKE_SMALL = frozenset(string.digits + EMPTY_MARKS)
CELL_LIKE = {size: _CELL_LIKE_SMALL | GRID_LETTERS.get(size, frozenset()) for size in ROW_SIZES}
#: The characters of a 4x4 one-line puzzle: ``1``-``4`` and the empty marks.
_SMALL_LINE_CHARS = frozenset(DIGIT_SYMBOLS[:SMALLEST] + EMPTY_MARKS)
#: Field separators of a dataset row (``quizzes,solutions``; ``id:puzzle``).
_FIELD_SPLIT = re.compile(r"[,:]")
#: A CSV header field: a word (``quizzes``, ``id``, ``puzzle``...).
_HEADER_FIELD = re.compile(r"\s*[A-Za-z_][A-Za-z0-9_ ]*\s*")
#: A word: two or more letters in a row (any script).
_WORD = re.compile(r"[^\W\d_]{2,}")
#: A ``[Section]`` header (SadMan .sdk: ``[Puzzle]``, ``[State]``): a name in square brackets that starts with an
#: ASCII letter and holds no bracket, brace, quote or comma (so a JSON array, ``[1,2,3]`` or ``[{...}]``, is none).
SECTION_HEADER = re.compile(r"\[[A-Za-z][^\[\]{}\",]*\]")

#: A cell character of a line: ``(column, character)`` in the line's view.
Cell = tuple[int, str]


class Kind(enum.Enum):
    """The kind of a line, before any puzzle is considered."""

    BLANK = "blank"  # nothing but blanks
    COMMENT = "comment"  # a "#" comment (SudoCue #A #D ... metadata) or a "[Section]" header (SECTION_HEADER)
    BORDER = "border"  # only "+ - = | *" and blanks, with a "-", "=" or "*"
    FIELDS = "fields"  # holds "," or ":" (a dataset row, a "label:" puzzle, a CSV header, or prose)
    CELLS = "cells"  # anything else: cells, maybe with separators (a row, a one-line puzzle, prose)


@dataclass(slots=True)
class Line:
    """One line as the layouts read it.

    Attributes:
      kind: what the line is (:class:`Kind`).
      text: the line as it arrived, without its terminator.
      template: the answer's template of it: ``text`` with a blank inserted
        for each empty field of a tab row (the answer writes a digit there).
      view: ``template`` as the layouts read it (:func:`~.view.cell_view`;
        ``.`` for an empty tab field), of the same length.
      ending: its terminator; ``""`` when the input ended inside the line.
      body: the view up to a trailing ``# comment`` (fields and cells only).
      cells: its cell characters, ``(column, character)`` in the view (cells only).
      inserted: the columns of ``template`` inserted for empty tab fields.
      tabbed: True for a tab row (its fields are its cells).
    """

    kind: Kind
    text: str
    template: str
    view: str
    ending: str
    body: str = ""
    cells: Sequence[Cell] = ()
    inserted: tuple[int, ...] = ()
    tabbed: bool = False


def classify_line(text: str, ending: str, in_tab_grid: bool = False) -> Line:
    """What kind of line ``text`` is (:class:`Line`), read through :func:`~.view.cell_view`.

    Args:
      text: the line without its terminator (any characters).
      ending: its terminator, ``""`` for a last line cut by the end of input.
      in_tab_grid: a grid of tab rows is being read, so a line of tabs only
        is one of its rows (all cells empty) rather than a blank line.

    ``classify_line("| 8 . . | . 1 . | . . 5 |", "\\n").kind`` is
    :attr:`Kind.CELLS`, with the 9 cells ``(2, "8"), (4, "."), ...``.
    """
    view = cell_view(text)
    template, tabbed = text, False
    inserted: tuple[int, ...] = ()
    fields = tab_fields(view, in_tab_grid) if "\t" in view else None
    if fields is not None:
        view, template, inserted = expand_tabs(view, text, fields)
        tabbed = True
    stripped = view.strip()
    if not stripped:
        return Line(Kind.BLANK, text, template, view, ending, inserted=inserted, tabbed=tabbed)
    if stripped[0] == "#" or SECTION_HEADER.fullmatch(stripped):
        return Line(Kind.COMMENT, text, template, view, ending, inserted=inserted, tabbed=tabbed)
    if is_border(view):
        return Line(Kind.BORDER, text, template, view, ending, inserted=inserted, tabbed=tabbed)
    body = strip_comment(view)
    if "," in body or ":" in body:
        return Line(Kind.FIELDS, text, template, view, ending, body, (), inserted, tabbed)
    return Line(Kind.CELLS, text, template, view, ending, body, split_cells(body), inserted, tabbed)


def is_border(line: str) -> bool:
    """True for a border line: only ``+ - = | *`` and blanks, with a ``-``, ``=`` or ``*`` (``+---+---+``)."""
    return bool(line) and set(line) <= BORDER_CHARS and any(ch in line for ch in "-=*")


def split_cells(line: str, start: int = 0, end: int | None = None) -> list[Cell]:
    """The cell characters of a row or one-line puzzle: ``(column index, char)`` pairs.

    Every character other than blanks, tabs and ``|`` counts as a cell;
    ``start``/``end`` limit the scan to one field of a dataset row (where
    ``"`` quotes are also skipped). ``split_cells("8 .|1")`` is
    ``[(0, "8"), (2, "."), (4, "1")]``.
    """
    if start == 0 and end is None:
        return [(i, ch) for i, ch in enumerate(line) if ch not in CELL_SEPARATORS]
    stop = len(line) if end is None else end
    return [(i, line[i]) for i in range(start, stop) if line[i] not in CELL_SEPARATORS and line[i] != '"']


def looks_like_cells(cells: Sequence[Cell], size: int = SIZE) -> bool:
    """True when at least half the characters could be cells of ``size``: a row, maybe flawed.

    Text such as ``hello`` or ``GET / HTTP/1.1`` is not, so it is rejected on
    its own line instead of starting a grid that would swallow the next puzzle.
    """
    like = CELL_LIKE[size]
    good = sum(1 for _, ch in cells if ch in like)
    return 2 * good >= len(cells)


def holds_word(body: str, size: int) -> bool:
    """True when ``body`` holds a word no row of ``size`` could: prose, not a row with a typo.

    A word is two or more letters in a row. Grids up to 9x9 hold no letter;
    a 16x16 row may hold ``A``-``P`` and a 25x25 row ``A``-``Y``, so
    ``Sudoku`` is prose for every size and ``ABCD`` only up to 9x9.
    """
    allowed = GRID_LETTERS.get(size, frozenset())
    return any(not set(m.group()) <= allowed for m in _WORD.finditer(body))


def is_prose(body: str, cells: Sequence[Cell], size: int) -> bool:
    """True for a line that is not cells of a ``size`` grid: mostly other characters, or a word."""
    return not looks_like_cells(cells, size) or holds_word(body, size)


#: A word of a caption: letters, maybe an apostrophe inside (``today's``), maybe one punctuation mark after.
_CAPTION_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*[.,:;!?]?")


def is_caption(text: str) -> bool:
    """True for a line of prose that may stand above a puzzle as its caption (docs/LAYOUTS.md "Captions").

    Asked only about a line rejected on its own as not cells. Its first
    blank-separated token is a word (letters, maybe an apostrophe inside,
    maybe one of ``. , : ; ! ?`` after it) and not all capitals (``PROXY``,
    ``GET``, ``SOLVEE``: a command's word); it has two tokens or more, or its
    one word ends with ``:``; and it has no ``=``. ``Today's puzzle:``,
    ``Here is today's puzzle:``, ``Sudoku 2024-06-01 (hard)`` and ``Puzzle:``
    are captions; ``hello`` and ``SOLVEE`` (one word: a mistyped verb) and
    ``COUNTT limit=5`` (a mistyped command) are not.
    """
    tokens = text.split()
    if not tokens or "=" in text or not _CAPTION_WORD.fullmatch(tokens[0]):
        return False
    head = tokens[0].rstrip(".,:;!?")
    if len(head) > 1 and head.isupper():
        return False  # a command's word: a mistyped verb, PROXY, GET (never a caption)
    return len(tokens) >= 2 or tokens[0].endswith(":")


def only_cells(cells: Sequence[Cell], size: int) -> bool:
    """True when every character could be a cell of ``size`` (a broken first row has no other)."""
    like = CELL_LIKE[size]
    return all(ch in like for _, ch in cells)


def first_unseen(cells: Sequence[Cell]) -> int | None:
    """The column of the first cell character that prints nothing, or None.

    That is a control character (a raw backspace ``\\x08`` or DEL typed in a
    session that does no line editing, an escape), an undecodable byte, a
    zero-width space: not seen on a terminal, so a row that holds one is
    refused naming it rather than by its count of cells (break-session
    finding: ``12345678\\x08\\x089`` was ``expected a row of 4, 6, 9, 16 or 25
    cells, found 11``).
    """
    return next((col for col, ch in cells if not ch.isprintable()), None)


def first_bad_column(cells: Sequence[Cell]) -> int:
    """The column of the first character that could not be a cell of a 9x9 grid (else the first cell's; 0 for none)."""
    like = CELL_LIKE[SIZE]
    return next((col for col, ch in cells if ch not in like), cells[0][0] if cells else 0)


def near_row_size(count: int) -> int | None:
    """The row size a broken first row of ``count`` cells was meant to have, or None.

    9 wins when it is within :data:`~.sizes.NEAR_ROW` (the classic grid),
    then the closest size (ties: the larger): 10 -> 9, 5 -> 6, 14 -> 16, 12 -> None.
    """
    if not count:
        return None
    if abs(count - SIZE) <= NEAR_ROW:
        return SIZE
    size = min(ROW_SIZES, key=lambda s: (abs(s - count), -s))
    return size if abs(count - size) <= NEAR_ROW else None


def near_line_size(count: int) -> int | None:
    """The one-line size within :data:`~.sizes.NEAR_LINE` of ``count`` (80 -> 81), or None (40)."""
    for size, margin in NEAR_LINE.items():
        if abs(count - size) <= margin:
            return size
    return None


def cut_line_size(count: int) -> int | None:
    """The one-line size a line of ``count`` cells cut by the end of input was meant to have.

    The next size above ``count``: 16 or 36 only when ``count`` is within
    their :data:`~.sizes.NEAR_LINE` below them, else 81, 256 or 625 (40 -> 81,
    14 -> 16). None when the line has too many cells for that reading: a few
    over 81, 256 or 625 (within their margin), or over 625.
    """
    if count < 1:
        return None
    for size in LINE_SIZES:
        if size >= COMMON_LINE and size < count <= size + NEAR_LINE[size]:
            return None
    for size in LINE_SIZES:
        if count < size and (size >= COMMON_LINE or size - count <= NEAR_LINE[size]):
            return size
    return None


def is_small_line(body: str, cells: Sequence[Cell]) -> bool:
    """True when a 16-cell line is a 4x4 puzzle rather than the first row of a 16x16 grid.

    That is: written without separators, and only with ``1``-``4`` and empty
    marks (``.1....4.....24..``). Any other 16-cell line starts a 16x16 grid.
    """
    return cells[-1][0] - cells[0][0] == AMBIGUOUS_LINE - 1 and all(ch in _SMALL_LINE_CHARS for _, ch in cells)


def ends_grid(count: int, size: int | None) -> bool:
    """True when a line of ``count`` cells is a whole one-line puzzle, not a row of a grid of ``size``.

    ``size`` is None while a framed grid has no row yet. A one-line puzzle of
    another size ends the grid early; a 16-cell line is a 4x4 puzzle only
    after a 4x4 grid (elsewhere it is a 16x16 row): ``ends_grid(81, 9)`` is
    True, ``ends_grid(16, None)`` False.
    """
    return count in LINE_SIZES and count != size and (count != AMBIGUOUS_LINE or size == LINE_SIZES[AMBIGUOUS_LINE])


# -- rows read by the columns of their "|" ------------------------------------


@dataclass(slots=True)
class RowShape:
    """What a row says about its grid.

    Attributes:
      size: cells per row (4, 6, 9, 16 or 25).
      box_cols: columns per box, or None for the default box shape of the size.
      slots: the columns of the row's cells when it is read by column (some
        cells blank), or None when its cells are its non-blank characters.
    """

    size: int
    box_cols: int | None = None
    slots: tuple[int, ...] | None = None


def bars(body: str) -> list[int]:
    """The columns of the ``|`` of a row."""
    return [i for i, ch in enumerate(body) if ch == "|"]


_Segment = tuple[int | None, int | None]


def _segments(body: str, bar_cols: list[int]) -> list[_Segment]:
    """The boxes of a row between its ``|``: ``(left bar, right bar)``, None for an open side.

    A row that starts and ends with ``|`` (blanks aside) is framed: its boxes
    lie between bars. Otherwise the text before the first bar and after the
    last one are boxes too, even when blank (an empty box printed as blanks).
    """
    first, last = bar_cols[0], bar_cols[-1]
    framed = not body[:first].strip() and not body[last + 1 :].strip()
    segments: list[_Segment] = [] if framed else [(None, first)]
    segments.extend(zip(bar_cols, bar_cols[1:]))
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


def _slots(body: str, segments: list[_Segment], k: int, pitch: int, ref: int) -> tuple[int, ...] | None:
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
        if left is not None:
            start = left + 1 + lead
        else:
            assert right is not None  # a box open on the left is the first, which ends at a bar
            start = right - trail - span
        if start < 0 or (right is not None and start + pitch * (k - 1) >= right):
            return None  # the box's cells would reach its right bar: it is narrower than the reference box
        slots.extend(range(start, start + pitch * k, pitch))
    for col in slots:
        if col < len(body) and body[col] == "|":
            return None
    return tuple(slots)


def row_by_bars(
    body: str, cells: Sequence[Cell], size: int | None = None, box_cols: int | None = None
) -> RowShape | None:
    """Read a row by the columns of its ``|``: its shape, and its cell columns if some are blank.

    With ``size`` and ``box_cols`` (a grid's later rows) only that shape is
    tried. Returns None when the ``|`` do not split the row into boxes of a
    known shape whose cell columns hold every non-blank character.
    ``row_by_bars("| 8     |", ...)``-style rows: docs/LAYOUTS.md "Bordered
    grid with blank empty cells".
    """
    bar_cols = bars(body)
    if not bar_cols:
        return None
    segments = _segments(body, bar_cols)
    nseg = len(segments)
    if nseg < 2:
        return None
    bounded = [right - left - 1 for left, right in segments if left is not None and right is not None]
    ref = bounded[0] if bounded else segments[0][1]
    assert ref is not None  # two open boxes: the first one ends at a bar
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
                return RowShape(n, k if k > 1 else None, None)
            candidates.append((style[0], -k, k, style[1]))
    if size is not None and n >= size:
        return None
    on_row = {col for col, _ in cells}
    for _, _, k, pitch in sorted(candidates):
        slots = _slots(body, segments, k, pitch, ref)
        if slots is not None and on_row <= set(slots):
            return RowShape(nseg * k, k if k > 1 else None, slots)
    return None


def first_row_shape(body: str, cells: Sequence[Cell]) -> RowShape | None:
    """The shape a grid's first row gives it, or None if it is not a row of any size."""
    if "|" in body:
        shape = row_by_bars(body, cells)
        if shape is not None:
            return shape
    n = len(cells)
    if n in ROW_SIZES:
        return RowShape(n, _box_cols_by_counts(body, cells, n), None)
    return None


def _box_cols_by_counts(body: str, cells: Sequence[Cell], size: int) -> int | None:
    """Box columns from equal cell counts between the ``|`` of a full row, else None (default)."""
    bar_cols = bars(body)
    if not bar_cols:
        return None
    counts = []
    for left, right in _segments(body, bar_cols):
        lo = -1 if left is None else left
        hi = len(body) if right is None else right
        counts.append(sum(1 for col, _ in cells if lo < col < hi))
    k = counts[0]
    if k > 1 and all(c == k for c in counts) and size % k == 0 and (size // k, k) in VALID_BOXES:
        return k
    return None


# -- what a line is between puzzles -------------------------------------------


@dataclass(slots=True)
class RowStart:
    """What a line of cells says as the first row of a grid.

    Attributes:
      shape: the grid's shape, or None when the line is no row of any size.
      near: the row size a broken row of its count was meant to have, or None.
      prose: True when it is not cells of that size (mostly other characters,
        or a word no grid of the size could hold).
    """

    shape: RowShape | None
    near: int | None
    prose: bool


def row_start(line: Line) -> RowStart:
    """What a line of cells says as the first row of a grid (:class:`RowStart`).

    ``row_start`` of ``"8 . . | . 1 . | . . 5"`` is
    ``RowStart(RowShape(9, 3, None), 9, False)``; of ``"hello"``
    ``RowStart(None, 6, True)``.
    """
    body, cells = line.body, line.cells
    shape = first_row_shape(body, cells)
    near = near_row_size(len(cells))
    size = shape.size if shape is not None else near or SIZE
    return RowStart(shape, near, is_prose(body, cells, size))


@dataclass(slots=True)
class OneLine:
    """A whole puzzle on one line (docs/LAYOUTS.md "One line", "Dataset rows").

    Attributes:
      size: the grid size (``len(cells)`` is ``size * size``).
      cells: the puzzle's cells, ``(column, character)`` in the line's view.
      expected: a dataset row's expected solution field (same length), or None.
      dataset: True for a row of fields split by ``,`` (the ``csv`` layout).
      field: True when the puzzle is a field of a line with ``,`` or ``:``.
    """

    size: int
    cells: Sequence[Cell]
    expected: Sequence[Cell] | None = None
    dataset: bool = False
    field: bool = False


@dataclass(slots=True)
class FirstRow:
    """The first row of a grid of ``shape`` (docs/LAYOUTS.md "Rows", "Bordered grid")."""

    shape: RowShape


@dataclass(slots=True)
class BrokenRow:
    """A first row of ``count`` cells meant as a row of ``size`` (within 2): the grid still spans its rows."""

    size: int
    count: int


@dataclass(slots=True)
class Prose:
    """Text, not cells (``hello``, ``Puzzle 1: easy``); ``col``: its first character that is not a cell."""

    col: int


@dataclass(slots=True)
class CutLine:
    """A one-line puzzle cut by the end of input: ``count`` of ``size`` cells (``size``: 16 .. 625)."""

    count: int
    size: int


@dataclass(slots=True)
class WrongCount:
    """A one-line puzzle or dataset field of ``count`` cells, no size's; ``foreign``: the column of its
    first character no grid could hold (a stray byte, a zero-width space), or None."""

    count: int
    foreign: int | None


@dataclass(slots=True)
class NotARow:
    """A line of ``count`` cells (30 or fewer) that is no row and no one-line puzzle; ``unseen``: the column of
    its first character that prints nothing (:func:`first_unseen`: a backspace, an escape), or None."""

    count: int
    unseen: int | None = None


@dataclass(slots=True)
class Header:
    """A CSV header line made of words (``quizzes,solutions``): skipped."""


#: What a line of cells or fields is when it comes between puzzles.
Opening = OneLine | FirstRow | BrokenRow | Prose | CutLine | WrongCount | NotARow | Header


def opening(line: Line) -> Opening:
    """What a line of cells or fields (:attr:`Kind.CELLS`, :attr:`Kind.FIELDS`) is between puzzles.

    ``opening`` of an 81-cell line is ``OneLine(9, cells)``; of
    ``"8 . . . 1 . . . 5"`` ``FirstRow(RowShape(9))``; of ``"hello"``
    ``Prose(0)``; of ``"quizzes,solutions"`` ``Header()``.
    """
    if line.kind is Kind.FIELDS:
        return _fields_opening(line)
    cells = line.cells
    count = len(cells)
    if count in LINE_SIZES and (count != AMBIGUOUS_LINE or is_small_line(line.body, cells)):
        return OneLine(LINE_SIZES[count], cells)
    start = row_start(line)
    if start.prose:
        return Prose(first_bad_column(cells))
    if start.shape is not None:
        return FirstRow(start.shape)
    cut = cut_line_size(count) if not line.ending else None
    if cut is not None:  # the input ended in the middle of a one-line puzzle
        return CutLine(count, cut)
    near = start.near
    if near is not None and only_cells(cells, near):
        return BrokenRow(near, count)
    if count > LARGEST + 5:
        return _wrong_count(cells)
    return NotARow(count, first_unseen(cells))


def _wrong_count(cells: Sequence[Cell]) -> WrongCount:
    like = CELL_LIKE[LARGEST]
    return WrongCount(len(cells), next((col for col, ch in cells if ch not in like), None))


def _fields_opening(line: Line) -> Opening:
    """A dataset row (``puzzle,solution``), a labelled puzzle (``id:puzzle``), a CSV header, or prose.

    The first field of a one-line puzzle's length is the puzzle; the next
    one, when it has the same length, its expected solution.
    """
    body = line.body
    bounds = []
    start = 0
    for match in _FIELD_SPLIT.finditer(body):
        bounds.append((start, match.start()))
        start = match.end()
    bounds.append((start, len(body)))
    fields = [split_cells(body, a, b) for a, b in bounds]
    dataset = "," in body
    if dataset and all(
        _HEADER_FIELD.fullmatch(body[a:b]) and len(cells) not in LINE_SIZES for (a, b), cells in zip(bounds, fields)
    ):
        return Header()
    wrong = None  # a field meant as the puzzle, of a wrong length
    for k, cells in enumerate(fields):
        if len(cells) in LINE_SIZES:
            nxt = fields[k + 1] if k + 1 < len(fields) else None
            expected = nxt if nxt is not None and len(nxt) == len(cells) else None
            return OneLine(LINE_SIZES[len(cells)], cells, expected, dataset, field=True)
        if len(cells) >= min(LINE_SIZES) and looks_like_cells(cells):
            wrong = cells  # not an id or a label: the fields after it are not the puzzle
            if k == len(fields) - 1 and not line.ending:  # the input ended inside it
                cut = cut_line_size(len(cells))
                if cut is not None:
                    return CutLine(len(cells), cut)
            break
    if wrong is None:
        everything = split_cells(body)  # the separators "," and ":" count as foreign here
        if is_prose(body, everything, SIZE):  # text such as "Puzzle 1: easy"
            return Prose(first_bad_column(everything))
        wrong = max(fields, key=len)
    return _wrong_count(wrong)
