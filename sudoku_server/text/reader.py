"""Lines -> puzzles: :class:`PuzzleReader` groups classified lines into puzzles or errors; :func:`parse`.

Layouts (docs/LAYOUTS.md, PROTOCOL.md "Requests"), recognised per puzzle with
no header and no option: a bordered grid in all its common styles (``|``
between boxes, ``+-------+`` or ``*-----*`` frames, box drawing, blank
cells read by column), plain rows (``n`` lines of ``n`` cells; SadMan
Software ``.sdk`` files are this under a ``[Puzzle]`` header), all cells on
one line (with a ``# comment`` or a ``label:``), and dataset rows (Kaggle's
``quizzes,solutions`` CSV: the puzzle field and its expected solution).
The variant layouts (a jigsaw line or region grid, a SudoCue killer line, a
cage block, a pencilmark line) are :mod:`.variant_layouts`'; the region grid
and cage rows alone are read under :attr:`PuzzleReader.rules` only.
Between puzzles, blank lines, ``#`` comments (SudoCue ``#A``... metadata),
``[Section]`` headers and CSV header lines are skipped.

Sizes 4x4 (2x2 boxes), 6x6 (2x3 boxes, or 3x2 where the ``|`` or the rules
say so), 9x9, 16x16 and 25x25: the size comes from the number of cells of
the first row (or of the one line), and from where its ``|`` fall. Symbols
are ``1``-``9`` then letters (case-insensitive); a 16x16 or 25x25 grid may
also use letters only or count from ``0`` (:func:`~sudoku_server.sudoku.grid.choose_symbols`).
``.``, ``_`` and ``0`` (when not a symbol) mark an empty cell.

:mod:`.lines` says what each line is; this module decides what the lines
mean together, with :mod:`.rows` keeping the grid being read and
:mod:`.wording` the text of each error.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from sudoku_server.errors import PuzzleError, PuzzleFormatError
from sudoku_server.sudoku.grid import (
    BOX_SHAPES,
    DIGIT_SYMBOLS,
    Grid,
    symbol_table,
)
from sudoku_server.text import oneline
from sudoku_server.text.fpuzzles import marks_line
from sudoku_server.text.lines import (
    BrokenRow,
    CutLine,
    FirstRow,
    Header,
    Kind,
    Line,
    NotARow,
    OneLine,
    Prose,
    RowShape,
    RowStart,
    WrongCount,
    classify_line,
    ends_grid,
    first_bad_column,
    first_unseen,
    is_caption,
    looks_like_cells,
    opening,
    row_start,
)
from sudoku_server.text.puzzle import (
    LAYOUT_CSV,
    LAYOUT_LINE,
    Event,
    Positions,
    Puzzle,
    Rejected,
)
from sudoku_server.text.rows import GridInProgress, read_symbols
from sudoku_server.text.sizes import COMMON_LINE, ROW_SIZES, SIZE, listed
from sudoku_server.text.variant_layouts import (
    BlockInProgress,
    cage_rows_read,
    line_puzzle,
    regions_follow,
    start_cage_block,
)
from sudoku_server.text.view import mostly_wide, request_col
from sudoku_server.text.wording import cut_line_error, line_count_error, not_a_cell_error, symbol_error

# -- puzzles on one line -------------------------------------------------------


def _one_line_event(line: Line, lineno: int, one: OneLine, last_ending: str) -> Event:
    """The puzzle on ``line`` (``one.expected``: a dataset row's solution field), or its error."""
    raw, cells, size = line.template, one.cells, one.size
    ending = line.ending
    chars = [ch for _, ch in cells]
    expected = one.expected
    extra = "".join([ch for _, ch in expected]) if expected else ""
    symbols, values, bad = read_symbols(chars, size, extra)
    if bad is not None:
        col = cells[bad][0]
        error = symbol_error(lineno, request_col(line.inserted, col), raw[col], size, bad)
        return Rejected(error, ending or last_ending, line.text)
    box_rows, box_cols = BOX_SHAPES[size]
    solution = None
    if expected is not None:
        table = symbol_table(symbols)
        digits = []
        for i, (col, ch) in enumerate(expected):
            value = table.get(ch)
            if not value:
                error = symbol_error(lineno, col, raw[col], size, i, field="solution field")
                return Rejected(error, ending or last_ending, line.text)
            digits.append(value)
        solution = Grid(tuple(digits), box_rows, box_cols, symbols)
    return Puzzle(
        grid=Grid(tuple(values), box_rows, box_cols, symbols),
        layout=LAYOUT_CSV if one.dataset else LAYOUT_LINE,
        first_line=lineno,
        lines=[raw],
        endings=[ending],
        positions=Positions.on_one_line(col for col, _ in cells),
        symbols=symbols,
        expected=solution,
        wide=not raw.isascii() and mostly_wide([raw], [(0, col) for col, _ in cells]),
    )


#: A plain 9x9 one-line puzzle: 81 digits and empty marks, nothing else
#: (dataset files are mostly this; :mod:`.oneline` defines it). :meth:`PuzzleReader.feed_line` reads it
#: without the general machinery; the result is the same (a test holds it).
_PLAIN_LINE = oneline.PLAIN_TEXT
#: The start of a 9x9 line of givens followed by marks (``text.fpuzzles.marks_line``; blanks before it: a
#: verb's line read in place).
_MARKS_LINE = re.compile(r" *[0-9._]{81}[ \t]+[A-Za-z]+=").match


def _quick_line(line: str, ending: str, lineno: int, last_ending: str) -> Puzzle | Rejected | None:
    """The puzzle of a line between puzzles read without classifying it, or None (classify it).

    A plain 9x9 line (the common case, 5x sooner); 81 givens then a rule's marks (``<givens>
    thermo=r1c1-r1c2``, maybe after a verb's room): the line :meth:`PuzzleReader._start_line` would give the
    marks reader (not blank, a comment or a border), whose answer (None: not one) stands.
    """
    if len(line) == COMMON_LINE and ending and _PLAIN_LINE.fullmatch(line):
        return _plain_line_puzzle(line, ending, lineno)
    if "=" in line and _MARKS_LINE(line) is not None:
        return marks_line(line, lineno, ending or last_ending)
    return None


#: Every plain line's cells are at columns 0..80 of line 0 (never extended).
_PLAIN_POSITIONS = Positions.on_one_line(range(COMMON_LINE))


def _plain_line_puzzle(text: str, ending: str, lineno: int) -> Puzzle:
    values = oneline.plain_values(text)
    symbols = DIGIT_SYMBOLS[:SIZE]
    box_rows, box_cols = BOX_SHAPES[SIZE]
    return Puzzle(
        grid=Grid.trusted(values, box_rows, box_cols, symbols),
        layout=LAYOUT_LINE,
        first_line=lineno,
        lines=[text],
        endings=[ending],
        positions=_PLAIN_POSITIONS,
        symbols=symbols,
        plain=True,
    )


# -- the reader ----------------------------------------------------------------


class PuzzleReader:
    """Groups lines into puzzles: the line-level half of the request parser.

    (One class over 250 lines because its few methods share one state, the
    grid being read, and most of its length is the public contract the
    session relies on; what a line is lives in :mod:`.lines`, the grid in
    :mod:`.rows`.)

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

    One state machine over the grid being read (``_grid``): between puzzles
    (None), inside a grid (its rows not all read), or a framed grid complete
    but for its closing border. Each line is classified once
    (:func:`~.lines.classify_line`) and dispatched: to the grid being read
    (:meth:`_grid_line`), and, when that says the line is not the grid's,
    to the start of what follows (:meth:`_start_line`).

    Args:
      report_early: interactive reading (a person typing): a grid's first
        bad row is reported at that row, not when the grid ends; the rest of
        the grid's rows are then read and dropped with no further error.
        Also :meth:`set_report_early`.

    Cost: each line is scanned a constant number of times; a grid keeps at
    most its rows and ``2 * (size + 1)`` border lines.
    """

    def __init__(self, report_early: bool = False) -> None:
        self._grid: GridInProgress | None = None
        self._block: BlockInProgress | None = None  # a cage block, or a jigsaw's region grid (.variant_layouts)
        self._last_ending = "\n"
        self._report_early = report_early
        #: The rules of the puzzle to come (``jigsaw``: a grid of regions follows
        #: a grid of givens; ``killer``: rows of cage symbols alone start a cage
        #: block). The splitter sets it from ``rules=`` and ``RULES``.
        self.rules: frozenset[str] = frozenset()

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
        return (self._grid is not None and not self.awaiting_optional_line) or self._block is not None

    @property
    def awaiting_optional_line(self) -> bool:
        """True when a framed grid has its rows and only a closing border may follow."""
        return self._grid is not None and self._grid.complete

    @property
    def puzzle_start(self) -> int | None:
        """The first line of the multi-line puzzle being read, or None."""
        if self._grid is not None:
            return self._grid.first_line
        return self._block.first_line if self._block is not None else None

    def abort(self) -> None:
        """Drop the puzzle being read (telnet interrupt); no answer is given for it."""
        self._grid = self._block = None

    def cut_short(self, lineno: int, ending: str) -> list[Event]:
        """End the grid being read before its last row, as a blank line would.

        The session calls it when a command line comes inside a grid. Returns
        the grid's error (``line 3: the grid that starts at line 1 has 2 rows,
        expected 9``), or the grid itself when it lacked only its closing
        border, or nothing when it had only border lines.
        """
        grid = self._grid
        block, self._block = self._block, None
        if block is not None:
            return [] if block.reported else [block.cut(lineno, ending)]
        if grid is None:
            return []
        if grid.complete:
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
            it is read through :func:`~.view.cell_view`).
          ending: its terminator, ``""`` when the input ended in the middle
            of the line (it is then the last line): a one-line puzzle or a
            row cut short there is ``incomplete``, not wrong.
          lineno: its 1-based number in the stream (errors name it).

        Returns:
          The :class:`Puzzle` and :class:`Rejected` events completed, in
          order; a :class:`Rejected` error names the line, e.g.
          ``line 4: expected 9 cells, found 8``.
        """
        if ending:
            self._last_ending = ending
        grid = self._grid
        if grid is None and self._block is None and (quick := _quick_line(line, ending, lineno, self._last_ending)):
            return [quick]  # a plain line, a marks line: not classified
        classified = classify_line(line, ending, grid is not None and grid.tabbed and not grid.complete)
        events: list[Event] = []
        if grid is None or not self._grid_line(grid, classified, lineno, events):
            self._start_line(classified, lineno, events)
        return events

    def feed_plain_line(self, line: str, ending: str, lineno: int) -> Puzzle | None:
        """:meth:`feed_line`'s fast path alone: the puzzle of a plain 9x9 one-line ``line``, or None.

        A line :meth:`feed_line` would read as a plain line (no puzzle being
        read, 81 cells of digits and ``.``/``0``/``_``, a terminator) is read
        as it would be; for any other line nothing is read (None): give it to
        :meth:`feed_line`.
        """
        if (
            self._grid is None
            and len(line) == COMMON_LINE
            and ending
            and self._block is None
            and _PLAIN_LINE.fullmatch(line)
        ):
            self._last_ending = ending
            return _plain_line_puzzle(line, ending, lineno)
        return None

    def note_plain_lines(self, ending: str) -> None:
        """Plain lines were read elsewhere (the native core, ``solver.solve_lines``), the last ending ``ending``.

        The state :meth:`feed_plain_line` would leave after them: only the
        last line ending (for the error of a puzzle cut short later) changes.
        """
        self._last_ending = ending

    def finish(self) -> list[Event]:
        """End of input: complete or reject the puzzle being read.

        Returns:
          The final events: the framed grid that lacked only its closing
          border, or an ``incomplete`` error for a puzzle cut short (none
          for a grid whose error was already reported).
        """
        grid = self._grid
        self._grid = None
        block, self._block = self._block, None
        if block is not None:
            return [] if block.reported else [block.incomplete(self._last_ending)]
        if grid is None or grid.reported:
            return []
        if grid.rows == grid.size:
            event = grid.finish()
            if isinstance(event, Puzzle) and regions_follow(self.rules):
                return [BlockInProgress(grid.first_line, event.grid.size, event).incomplete(self._last_ending)]
            return [event]
        if grid.rows == 0 and not grid.cut_at_end:
            return []  # only border lines: nothing was asked
        if grid.error is not None or grid.symbol_error() is not None:
            return [grid.finish()]  # a bad line says more than "incomplete"
        return [grid.incomplete(self._last_ending)]

    # -- the states -----------------------------------------------------

    def _start_line(self, line: Line, lineno: int, events: list[Event]) -> None:
        """A line between puzzles: skip it, start a grid, read a one-line puzzle, or reject it."""
        block = self._block
        if block is not None:  # a cage block or a region grid: the line is its, or ends it
            taken, event = block.feed(line, lineno)
            if event is not None or not taken:
                self._block = None
            if self._report_early and block.error is not None and not block.reported:
                events.append(block.error)  # interactive reading: a bad row at once, nothing more for the block
                block.reported = True
            elif event is not None and not (block.reported and event is block.error):
                events.append(event)
            if not taken:
                self._start_line(line, lineno, events)
            return
        kind = line.kind
        if kind is Kind.BORDER:
            grid = self._grid = GridInProgress(lineno, framed=True)
            grid.add_border(line)
            return
        if kind is Kind.BLANK or (kind is Kind.COMMENT and not cage_rows_read(self.rules)):
            return
        variant = line_puzzle(line, lineno, self._last_ending)  # a jigsaw, SudoCue or pencilmark line (no comment)
        if variant is not None:
            events.append(variant)
            return
        started = start_cage_block(line, lineno, self.rules)  # under killer rules "#abcdefgh" too ("#" a cage symbol)
        if started is not None or kind is Kind.COMMENT:  # a comment under killer rules that is no cage row: skipped
            self._block = started
            return
        what = opening(line)
        ending = line.ending
        if isinstance(what, OneLine):
            event = _one_line_event(line, lineno, what, self._last_ending)
            if not what.field and isinstance(event, Rejected) and not looks_like_cells(what.cells, what.size):
                self._reject_at(line, lineno, first_bad_column(what.cells), events)  # prose of a puzzle's length
                return
            events.append(event)
        elif isinstance(what, FirstRow):
            grid = self._grid = GridInProgress(lineno, framed=False)
            grid.set_shape(what.shape, lineno)
            self._read_row(grid, line, lineno, events)
        elif isinstance(what, BrokenRow):  # the grid it starts still spans its rows
            grid = self._grid = GridInProgress(lineno, framed=False)
            grid.set_shape(RowShape(what.size), lineno)
            error = PuzzleFormatError(f"line {lineno}: expected {what.size} cells, found {what.count}")
            self._fail(grid, lineno, error, events)
            self._read_row(grid, line, lineno, events)
        elif isinstance(what, Prose):
            self._reject_at(line, lineno, what.col, events)
        elif isinstance(what, CutLine):  # the input ended in the middle of a one-line puzzle
            self._reject(cut_line_error(lineno, what.count, what.size), ending, events, line.text)
        elif isinstance(what, WrongCount):
            if what.foreign is not None:  # an inserted stray byte, NUL, zero-width space
                self._reject_at(line, lineno, what.foreign, events)
            else:
                self._reject(line_count_error(lineno, what.count), ending, events, line.text)
        elif isinstance(what, NotARow):
            if what.unseen is not None:  # a backspace typed in the row: named, not counted as a cell
                self._reject_at(line, lineno, what.unseen, events)
                return
            error = PuzzleFormatError(f"line {lineno}: expected a row of {listed(ROW_SIZES)} cells, found {what.count}")
            self._reject(error, ending, events, line.text)
        else:
            assert isinstance(what, Header)  # a CSV header: quizzes,solutions

    def _grid_line(self, grid: GridInProgress, line: Line, lineno: int, events: list[Event]) -> bool:
        """A line while a grid is being read: True when it was the grid's, False when it starts what follows.

        The grid is over (and emitted) before False is returned.
        """
        ending, kind = line.ending, line.kind
        if grid.complete:  # a framed grid, all rows read: a closing border may follow
            self._grid = None
            if kind is Kind.BORDER:
                grid.add_line(line.template, ending)
                grid.borders += 1
                self._emit(grid, events)
                return True
            self._emit(grid, events)
            return False
        if kind is not Kind.CELLS:
            if kind is Kind.BORDER:
                if grid.borders + 1 > grid.max_borders:
                    error = PuzzleFormatError(f"line {lineno}: too many border lines in one grid")
                    self._fail(grid, lineno, error, events)
                grid.add_border(line)
                return True
            self._cut_short(grid, lineno, ending, events)  # a blank line, a comment, a dataset row or a label
            return kind is not Kind.FIELDS
        if ends_grid(len(line.cells), grid.size):  # a whole one-line puzzle
            self._cut_short(grid, lineno, ending, events)
            return False
        if grid.size is None:  # a framed grid's first row sets its size
            start = row_start(line)
            if "|" not in line.body and start.prose:
                self._cut_short(grid, lineno, ending, events)  # prose after a lone border line (a rule in a text)
                return False
            if not self._set_shape(grid, start, line, lineno, events):
                return True
        self._read_row(grid, line, lineno, events)
        return True

    def _set_shape(self, grid: GridInProgress, start: RowStart, line: Line, lineno: int, events: list[Event]) -> bool:
        """The shape a framed grid's first row gives it; False when the input ended inside that row."""
        count = len(line.cells)
        if start.shape is None:
            near = start.near or SIZE
            grid.set_shape(RowShape(near), lineno)
            if not line.ending and count < near:  # the input ended inside the row
                grid.cut_at_end = True
                return True
            error = PuzzleFormatError(f"line {lineno}: expected {near} cells, found {count}")
            self._fail(grid, lineno, _unseen_or(line, lineno, near, error), events)
        else:
            grid.set_shape(start.shape, lineno)
        if self._report_early and grid.error is not None and not grid.reported:
            self._report(grid, events)  # too many border lines before this first row
        return True

    def _read_row(self, grid: GridInProgress, line: Line, lineno: int, events: list[Event]) -> None:
        """A row of the grid: place its cells (or record its error); the grid is emitted after its last row."""
        index = grid.add_line(line.template, line.ending, line.inserted)
        if line.tabbed:
            grid.tabbed = True
        if grid.error is None:
            placed = grid.place(line)
            if placed is None:
                assert grid.size is not None
                count = len(line.cells)
                if not line.ending and count < grid.size:  # the input ended inside the row
                    grid.cut_at_end = True
                    return
                self._fail(grid, lineno, _unseen_or(line, lineno, grid.size, grid.count_error(lineno, count)), events)
            else:
                cols = [col for col, _ in placed]
                width = max(cols) + 1
                if width > len(line.view):  # cells read by column past the end of the line
                    grid.lines[index] = line.template.ljust(width)
                grid.add_cells(index, lineno, cols, [ch for _, ch in placed])
                if self._report_early:
                    foreign = grid.foreign_symbol(index, lineno, placed)
                    if foreign is not None:
                        self._fail(grid, lineno, foreign, events)
        grid.rows += 1
        if grid.rows == grid.size and not grid.framed:
            self._grid = None
            self._emit(grid, events)

    # -- events ---------------------------------------------------------

    def _reject(self, error: PuzzleError, ending: str, events: list[Event], text: str | None = None) -> None:
        events.append(Rejected(error, ending or self._last_ending, text))

    def _reject_at(self, line: Line, lineno: int, col: int, events: list[Event]) -> None:
        """A line rejected on its own for its character at view column ``col``, which is not a cell."""
        self._reject(_char_error(line, lineno, col), line.ending, events, line.text)

    def _cut_short(self, grid: GridInProgress, lineno: int, ending: str, events: list[Event]) -> None:
        """End a grid before its last row (a blank line, a comment, a one-line puzzle...)."""
        self._grid = None
        if grid.rows == 0:
            return  # only border lines: nothing was asked
        cut = PuzzleFormatError(
            f"line {lineno}: the grid that starts at line {grid.first_line}"
            f" has {grid.rows} row{'s' if grid.rows != 1 else ''}, expected {grid.size}"
        )
        self._emit(grid, events, (lineno, cut), ending or self._last_ending)

    def _emit(
        self,
        grid: GridInProgress,
        events: list[Event],
        cut: tuple[int, PuzzleFormatError] | None = None,
        ending: str = "",
    ) -> None:
        """A grid is over: its puzzle or its error, unless that error was already reported."""
        if grid.reported:
            return
        event = grid.finish(cut)
        if ending and isinstance(event, Rejected):
            event.ending = ending
        if isinstance(event, Puzzle) and regions_follow(self.rules):
            assert self._block is None
            self._block = BlockInProgress(grid.first_line, event.grid.size, event)  # its regions follow
            return
        events.append(event)

    def _report(self, grid: GridInProgress, events: list[Event]) -> None:
        """Interactive reading: send the grid's error now; its other rows are then dropped."""
        assert grid.error is not None
        events.append(Rejected(grid.error[1], self._last_ending))  # the current line's ending
        grid.reported = True

    def _fail(self, grid: GridInProgress, lineno: int, error: PuzzleFormatError, events: list[Event]) -> None:
        grid.fail(lineno, error)
        # Interactive reading reports it now, once the grid has a row (border
        # lines alone ask nothing, as at the end of input).
        if self._report_early and not grid.reported and grid.size is not None:
            self._report(grid, events)


def parse(text: str, rules: Iterable[str] = ()) -> Puzzle:
    """Read exactly one puzzle written in any supported layout (docs/LAYOUTS.md).

    Args:
      text: the puzzle's lines (LF, CRLF or CR endings); blank lines and
        comments around it are allowed, and a caption (a line of prose
        directly above the puzzle, docs/LAYOUTS.md "Captions") is skipped as
        the line protocol skips it.
      rules: the rules it is read under (:attr:`PuzzleReader.rules`: ``jigsaw``
        reads a grid of regions after the grid, ``killer`` a cage block).

    Returns:
      Puzzle: the givens (``puzzle.grid``: ``size * size`` ints row-major,
      0 = empty) and the template that renders an answer in the same layout.

    Raises:
      PuzzleFormatError: the text is not one puzzle; the message names the
        line and what was expected ("line 4: expected 9 cells, found 8"); a
        second puzzle is "line 2: more than one puzzle", a line that is no
        puzzle beside the puzzle gets its own error (naming its line).
      IncompletePuzzleError: the text ends inside a puzzle.
    """
    reader = PuzzleReader()
    reader.rules = frozenset(rules)
    events: list[tuple[int, Event]] = []  # (the line read when the event came, the event)
    number = 0  # the lines read (a text of none: 0)
    for number, raw in enumerate(_lines(text), start=1):
        body = raw.rstrip("\r\n")
        events.extend((number, event) for event in reader.feed_line(body, raw[len(body) :], number))
        if len(events) >= 4:
            break  # what is raised or returned is settled: the first two events kept, each caption seen with the next
    else:
        events.extend((number, event) for event in reader.finish())
    kept = [event for index, (_, event) in enumerate(events) if not _caption_above(events, index)]
    if not kept:
        raise PuzzleFormatError("no puzzle found")
    first = kept[0]
    if isinstance(first, Rejected):
        raise first.error
    if len(kept) > 1:
        second = kept[1]
        if isinstance(second, Rejected):
            raise second.error
        raise PuzzleFormatError(f"line {second.first_line}: more than one puzzle")
    return first


def _lines(text: str, chunk: int = 64 * 1024) -> Iterator[str]:
    """``text.splitlines(keepends=True)``, made a piece at a time (a long text is not split whole when its first
    lines settle what it is). Each piece ends after a ``\\n``, which ends a line wherever it is."""
    start = 0
    while start < len(text):
        end = text.find("\n", start + chunk)
        end = len(text) if end < 0 else end + 1
        yield from text[start:end].splitlines(keepends=True)
        start = end


def _caption_above(events: list[tuple[int, Event]], index: int) -> bool:
    """True when ``events[index]`` is a caption: a line of prose rejected on its own, directly above the line
    where the next event, a puzzle, starts (as :class:`sudoku_server.wire.splitter` skips it)."""
    number, event = events[index]
    if not isinstance(event, Rejected) or event.text is None or not is_caption(event.text):
        return False
    if index + 1 >= len(events):
        return False
    following = events[index + 1][1]
    return isinstance(following, Puzzle) and following.first_line == number + 1


def _unseen_or(line: Line, lineno: int, size: int, error: PuzzleFormatError) -> PuzzleFormatError:
    """A row of a ``size`` grid with a wrong count of cells: the error naming its first character that prints
    nothing (:func:`~.lines.first_unseen`, a backspace), else ``error`` (the count's)."""
    col = first_unseen(line.cells)
    if col is None:
        return error
    return not_a_cell_error(lineno, request_col(line.inserted, col), line.template[col], size)


def _char_error(line: Line, lineno: int, col: int) -> PuzzleFormatError:
    """The error of a line rejected for its character at view column ``col``, which is not a cell: with its cell
    when the line is one character short of a one-line puzzle and every cell before it is in a row (``é`` at
    column 13 of a 9x9 line is at r2c4, as a foreign byte there is)."""
    raw = line.template
    ch = raw[col] if col < len(raw) else " "
    at = request_col(line.inserted, col)
    before = [c for c, _ in line.cells if c < col]
    size = next((n for n in ROW_SIZES if n * n == len(line.cells) + 1), None)
    if size is not None and before == list(range(len(before))) and not ch.isspace():
        return symbol_error(lineno, at, ch, size, len(before))
    return not_a_cell_error(lineno, at, ch)
