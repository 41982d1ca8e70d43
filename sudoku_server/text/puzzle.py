"""A puzzle as it arrived (:class:`Puzzle`), the answer rendered in its own layout, and :class:`Rejected` input.

The answer to a puzzle is the request's own lines with each empty cell
replaced by its symbol (:meth:`Puzzle.render`): same borders, spacing, symbol
set, letter case, characters (box drawing, full-width digits, tabs) and line
endings; a multi-line answer ends with one empty line (docs/LAYOUTS.md).
:func:`bordered_lines` draws a grid in the reference bordered layout.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from sudoku_server.errors import PuzzleError, SolutionMismatchError
from sudoku_server.sudoku.grid import DIGIT_SYMBOLS, SYMBOLS, Grid, cell_name
from sudoku_server.sudoku.variants import Variant
from sudoku_server.text.view import full_width

#: The layouts a :class:`Puzzle` may have (docs/LAYOUTS.md): a grid with
#: border lines or ``|``, a grid of plain rows (SadMan Software ``.sdk``
#: files are this under a ``[Puzzle]`` header), all cells on one line, a
#: dataset row of comma-separated fields (Kaggle's ``quizzes,solutions``).
LAYOUT_BORDERED = "bordered"
LAYOUT_ROWS = "rows"
LAYOUT_LINE = "line"
LAYOUT_CSV = "csv"

#: Digits 0..9 as their characters (``.`` for 0): the answer of a plain line.
_DIGIT_CHARS = bytes.maketrans(bytes(range(10)), SYMBOLS[:10].encode("ascii"))


class Positions(Sequence[tuple[int, int]]):
    """Where each cell's character stands: ``(line index, column index)`` pairs, 0-based, row-major.

    A compact sequence (machine ints in arrays, 2 bytes a cell for a one-line
    puzzle, instead of a tuple each): the server holds a window of parsed
    puzzles per connection, so their size bounds its memory. It equals a list
    or tuple of the same pairs.
    """

    __slots__ = ("_cols", "_lines")

    def __init__(self, pairs: Iterable[tuple[int, int]] = ()) -> None:
        self._lines: array[int] | None = array("H")  # None: every cell on line 0
        self._cols: array[int] = array("H")
        self.extend(pairs)

    @classmethod
    def on_one_line(cls, columns: Iterable[int]) -> Positions:
        """Every cell on line 0, at the given columns."""
        positions = cls()
        positions._lines = None
        positions._cols = _index_array(columns)
        return positions

    def extend(self, pairs: Iterable[tuple[int, int]]) -> None:
        """Append ``(line index, column index)`` pairs (not to a one-line puzzle's positions)."""
        lines, cols = self._lines, self._cols
        assert lines is not None, "a one-line puzzle's positions do not grow"
        for line, col in pairs:
            if col > 0xFFFF and cols.typecode == "H":
                self._cols = cols = array("I", cols)
            lines.append(line)
            cols.append(col)

    def extend_line(self, line: int, columns: Sequence[int]) -> None:
        """Append cells all on line ``line``, at ``columns`` (a row of a grid: one call, not one per cell)."""
        lines, cols = self._lines, self._cols
        assert lines is not None, "a one-line puzzle's positions do not grow"
        if columns and cols.typecode == "H" and max(columns) > 0xFFFF:
            self._cols = cols = array("I", cols)
        lines.extend([line] * len(columns))
        cols.extend(columns)

    def __len__(self) -> int:
        return len(self._cols)

    @overload
    def __getitem__(self, index: int) -> tuple[int, int]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, int]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, int] | list[tuple[int, int]]:
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


def _index_array(values: Iterable[int]) -> array[int]:
    """Column indices in the smallest array that holds them (2 bytes each up to 65535)."""
    listed = list(values)
    return array("H" if not listed or max(listed) <= 0xFFFF else "I", listed)


@dataclass(slots=True)
class Puzzle:
    """One puzzle as it arrived, with what is needed to answer in its layout.

    Attributes:
      grid: the givens (``size * size`` ints row-major, 0 = empty).
      layout: ``"bordered"``, ``"rows"``, ``"line"`` or ``"csv"``; for the
        variant layouts (:mod:`.variant_layouts`) ``"jigsaw-line"``,
        ``"jigsaw-grid"``, ``"sudocue"``, ``"cages"`` or ``"pencilmark"``.
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
      plain: a plain 81-cell line (digits and ``.``/``0``/``_`` only): the
        answer is the solution's digits. A line of givens with rules' marks
        after them (``variant`` set) is one too; its request says the rules.
      variant: for a variant layout (jigsaw, killer, pencilmark:
        :mod:`.variant_layouts`), the rule it implies and its data (regions,
        cages, candidates); None for the classic layouts. ``lines`` then
        hold the givens only (the answer's template).
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
    plain: bool = False
    variant: Variant | None = None

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
        for an unterminated last line). ``8..........36...`` with its
        solution renders as ``812753649943...`` and its ending.

        Args:
          solution: the solved grid (``size * size`` ints row-major, 1..size),
            of the same size as :attr:`grid`.

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
            symbols = full_width(symbols)
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
      error: the :class:`PuzzleError` (its detail names the line:
        ``line 4: expected 9 cells, found 8``).
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


#: What reading yields: a puzzle, or input rejected with its error.
Event = Puzzle | Rejected


def bordered_lines(grid: Grid) -> list[str]:
    """``grid`` in the reference bordered layout: ``+-------+`` rules, ``| 7 . . |`` rows.

    Any size (``grid.cells``: ``size * size`` ints row-major, 0 = empty);
    empty cells are ``.``, digits the grid's symbols (``1-9`` then letters).
    The layout GENERATE's ``format=grid`` and the README use.

    Returns:
      the lines without terminators: a rule, then each row, with a rule
      after every band of boxes (13 lines for 9x9).
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
