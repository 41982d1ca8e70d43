"""Text <-> Grid for every layout, and the template that renders an answer.

Layouts (PROTOCOL.md "Requests"), recognised per puzzle with no header:

``bordered``
    A grid with border lines (only ``+ - = | *`` and spaces, at least one
    ``-`` or ``=``), in all its common variants: the ``+-------+`` frame,
    rules between boxes only, ``|`` between boxes with or without spaces.
``rows``
    9 lines of 9 cells, optionally separated by spaces.
``line``
    All 81 cells on one line.

Cells are ``1``-``9`` (a given) or ``.``, ``0``, ``_`` (empty). Between
puzzles, blank lines, ``#`` comments and ``[Section]`` headers are skipped.

The answer to a puzzle is the request's own lines with each empty cell
replaced by its digit (:meth:`Puzzle.render`): same borders, spacing and line
endings; a multi-line answer ends with one empty line.

:class:`PuzzleReader` is the line-level state machine that groups lines into
puzzles; it is fed decoded lines by the protocol session and never looks at
bytes or sockets. :func:`parse` reads one puzzle from a string.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple, Union

from ._errors import IncompletePuzzleError, PuzzleError, PuzzleFormatError
from .grid import SYMBOLS, Grid, cell_name, describe_char, symbol_value

#: Characters that may separate cells within a row.
CELL_SEPARATORS = " \t|"
#: Characters a border line is made of (it must also hold a ``-`` or ``=``).
BORDER_CHARS = frozenset("+-=|* \t")
#: Grid size handled by the text layouts (box 3x3).
SIZE = 9
#: Most border lines one grid may hold (frame + rules between boxes = 4).
MAX_BORDER_LINES = 8

LAYOUT_BORDERED = "bordered"
LAYOUT_ROWS = "rows"
LAYOUT_LINE = "line"


@dataclass
class Puzzle:
    """One puzzle as it arrived, with what is needed to answer in its layout.

    Attributes:
      grid: the givens (81 ints row-major, 0 = empty).
      layout: ``"bordered"``, ``"rows"`` or ``"line"``.
      first_line: 1-based number of its first line in the stream.
      lines: the request's lines, without their terminators.
      endings: each line's terminator (``"\\n"``, ``"\\r\\n"``, ``"\\r"`` or
        ``""`` for an unterminated last line).
      positions: for each cell, row-major, ``(line index, column index)`` of
        its character in ``lines`` (0-based).
    """

    grid: Grid
    layout: str
    first_line: int
    lines: List[str]
    endings: List[str]
    positions: List[Tuple[int, int]]

    @property
    def default_ending(self) -> str:
        """The line ending answers use where the request had none: its first one, else LF."""
        for ending in self.endings:
            if ending:
                return ending
        return "\n"

    def render(self, solution: Grid) -> str:
        """The answer text: the request's lines with every cell set from ``solution``.

        Givens are rewritten with the same digit, so only empty cells change.
        A multi-line answer is followed by one empty line; every line ends
        with the request's own terminator (the first one seen for an
        unterminated last line).
        """
        chars = [list(line) for line in self.lines]
        for (li, col), value in zip(self.positions, solution.cells):
            chars[li][col] = SYMBOLS[value]
        default = self.default_ending
        out = []
        for row, ending in zip(chars, self.endings):
            out.append("".join(row))
            out.append(ending or default)
        if len(self.lines) > 1:
            out.append(default)
        return "".join(out)


@dataclass
class Rejected:
    """A piece of input that is not a puzzle, with the error to answer.

    Attributes:
      error: the :class:`PuzzleError` (its detail names the line).
      ending: the line ending to answer with.
    """

    error: PuzzleError
    ending: str = "\n"


Event = Union[Puzzle, Rejected]


def is_border(line: str) -> bool:
    """True for a border line: only ``+ - = | *`` and blanks, with a ``-``, ``=`` or ``*``."""
    return bool(line) and set(line) <= BORDER_CHARS and any(ch in line for ch in "-=*")


def is_skippable(line: str) -> bool:
    """True for text between puzzles: blank, ``#`` comment, ``[Section]`` header."""
    stripped = line.strip()
    return not stripped or stripped.startswith("#") or (stripped.startswith("[") and stripped.endswith("]"))


def split_cells(line: str) -> List[Tuple[int, str]]:
    """The cell characters of a row or one-line puzzle: ``(column index, char)`` pairs.

    Every character other than blanks, tabs and ``|`` counts as a cell; whether
    it is a valid symbol is checked later, so a stray ``x`` is reported as a
    bad cell at its place rather than as a wrong count.
    """
    return [(i, ch) for i, ch in enumerate(line) if ch not in CELL_SEPARATORS]


def _cell_values(
    cells: List[Tuple[int, str]], lineno: int, first_cell: int
) -> Tuple[List[int], Optional[PuzzleFormatError]]:
    """Values of a row's cells, or the error for the first character that is not a symbol."""
    values = []
    for k, (col, ch) in enumerate(cells):
        value = symbol_value(ch, SIZE)
        if value is None:
            return values, PuzzleFormatError(
                f"line {lineno}, column {col + 1}: {describe_char(ch)} is not a digit 1-9"
                f" or an empty mark (. 0 _) at {cell_name(first_cell + k, SIZE)}"
            )
        values.append(value)
    return values, None


def _looks_like_cells(cells: List[Tuple[int, str]]) -> bool:
    """True when at least half the characters are symbols: a row or a puzzle, maybe flawed.

    Text such as ``hello`` or ``GET / HTTP/1.1`` is not, so it is rejected on
    its own line instead of starting a grid that would swallow the next puzzle.
    """
    good = sum(1 for _, ch in cells if symbol_value(ch, SIZE) is not None)
    return 2 * good >= len(cells)


class _GridInProgress:
    """The lines of a multi-line puzzle being read."""

    def __init__(self, lineno: int, framed: bool) -> None:
        self.first_line = lineno
        self.framed = framed  # started with a border line: a closing one may follow
        self.lines: List[str] = []
        self.endings: List[str] = []
        self.positions: List[Tuple[int, int]] = []
        self.values: List[int] = []
        self.rows = 0
        self.borders = 0
        self.error: Optional[PuzzleFormatError] = None

    def add_line(self, line: str, ending: str) -> int:
        self.lines.append(line)
        self.endings.append(ending)
        return len(self.lines) - 1

    def fail(self, error: PuzzleFormatError) -> None:
        if self.error is None:
            self.error = error

    def finish(self) -> Event:
        if self.error is not None:
            return Rejected(self.error, self.endings[-1] or "\n")
        return Puzzle(
            grid=Grid(tuple(self.values)),
            layout=LAYOUT_BORDERED if self.borders else LAYOUT_ROWS,
            first_line=self.first_line,
            lines=self.lines,
            endings=self.endings,
            positions=self.positions,
        )


class PuzzleReader:
    """Groups lines into puzzles: the line-level half of the request parser.

    Feed it one line at a time with :meth:`feed_line` (text without its
    terminator, the terminator, the 1-based line number); each call returns
    the events completed by that line, in order: a :class:`Puzzle`, or a
    :class:`Rejected` with the error to answer. :meth:`finish` ends the
    input.

    A puzzle is complete as soon as its last cell's line has arrived, except
    a grid that started with a border line: after its ninth row it waits for
    one more line, taken as the closing border if it is one
    (:attr:`awaiting_optional_line`).

    A line that is not part of a valid puzzle yields one error for the puzzle
    it belongs to: a grid with a bad row still spans its nine row lines, so
    the next puzzle starts where it should.
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
        return grid is not None and grid.rows == SIZE

    def abort(self) -> None:
        """Drop the puzzle being read (telnet interrupt); no answer is given for it."""
        self._grid = None

    def feed_line(self, line: str, ending: str, lineno: int) -> List[Event]:
        """Take one line; return the events it completes (see class docstring)."""
        if ending:
            self._last_ending = ending
        events: List[Event] = []
        grid = self._grid
        if grid is not None:
            if grid.rows == SIZE:  # framed grid, all rows read
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
        if grid.rows == SIZE:
            return [grid.finish()]
        if grid.rows == 0:
            return []  # only border lines: nothing was asked
        return [
            Rejected(
                IncompletePuzzleError(
                    f"input ended inside the puzzle that starts at line {grid.first_line}"
                    f" ({grid.rows} of {SIZE} rows)"
                ),
                self._last_ending,
            )
        ]

    # -- states ---------------------------------------------------------

    def _idle_line(self, line: str, ending: str, lineno: int, events: List[Event]) -> None:
        if is_skippable(line):
            return
        if is_border(line):
            grid = self._grid = _GridInProgress(lineno, framed=True)
            grid.add_line(line, ending)
            grid.borders += 1
            return
        cells = split_cells(line)
        count = len(cells)
        if count == SIZE * SIZE:
            values, error = _cell_values(cells, lineno, 0)
            if error is not None:
                events.append(Rejected(error, ending or self._last_ending))
                return
            events.append(
                Puzzle(
                    grid=Grid(tuple(values)),
                    layout=LAYOUT_LINE,
                    first_line=lineno,
                    lines=[line],
                    endings=[ending],
                    positions=[(0, col) for col, _ in cells],
                )
            )
            return
        if not _looks_like_cells(cells):
            col, ch = next((col, ch) for col, ch in cells if symbol_value(ch, SIZE) is None)
            events.append(
                Rejected(
                    PuzzleFormatError(
                        f"line {lineno}, column {col + 1}: {describe_char(ch)} is not a digit 1-9"
                        f" or an empty mark (. 0 _)"
                    ),
                    ending or self._last_ending,
                )
            )
            return
        if count > 2 * SIZE:
            events.append(
                Rejected(
                    PuzzleFormatError(f"line {lineno}: expected {SIZE * SIZE} cells, found {count}"),
                    ending or self._last_ending,
                )
            )
            return
        # A row (right or wrong): the first of a grid without a top border.
        grid = self._grid = _GridInProgress(lineno, framed=False)
        self._grid_line(grid, line, ending, lineno, events)

    def _grid_line(
        self, grid: _GridInProgress, line: str, ending: str, lineno: int, events: List[Event]
    ) -> None:
        if is_skippable(line):
            self._grid = None
            if grid.rows == 0:
                return  # a lone border line before a blank: nothing was asked
            events.append(
                Rejected(
                    PuzzleFormatError(
                        f"line {lineno}: the grid that starts at line {grid.first_line}"
                        f" has {grid.rows} rows, expected {SIZE}"
                    ),
                    ending or self._last_ending,
                )
            )
            return
        if len(split_cells(line)) == SIZE * SIZE and not grid.error:
            # A whole one-line puzzle: this grid was cut short; the line is read anew.
            self._grid = None
            events.append(
                Rejected(
                    PuzzleFormatError(
                        f"line {lineno}: the grid that starts at line {grid.first_line}"
                        f" has {grid.rows} rows, expected {SIZE}"
                    ),
                    ending or self._last_ending,
                )
            )
            self._idle_line(line, ending, lineno, events)
            return
        index = grid.add_line(line, ending)
        if is_border(line):
            grid.borders += 1
            if grid.borders > MAX_BORDER_LINES:
                grid.fail(PuzzleFormatError(f"line {lineno}: too many border lines in one grid"))
            return
        cells = split_cells(line)
        if len(cells) != SIZE:
            grid.fail(PuzzleFormatError(f"line {lineno}: expected {SIZE} cells, found {len(cells)}"))
        else:
            values, error = _cell_values(cells, lineno, grid.rows * SIZE)
            if error is not None:
                grid.fail(error)
            else:
                grid.values.extend(values)
                grid.positions.extend((index, col) for col, _ in cells)
        grid.rows += 1
        if grid.rows == SIZE and not grid.framed:
            self._grid = None
            events.append(grid.finish())


def parse(text: str) -> Puzzle:
    """Read exactly one puzzle written in any supported layout.

    Args:
      text: the puzzle's lines (LF, CRLF or CR endings); blank lines and
        comments around it are allowed.

    Returns:
      Puzzle: the givens (``puzzle.grid``: 81 ints row-major, 0 = empty) and
      the template that renders an answer in the same layout.

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
