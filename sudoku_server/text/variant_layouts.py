"""The layouts of variant puzzles: jigsaw, killer and pencilmark (docs/LAYOUTS.md "Variant layouts").

Each layout brings the data its rule needs and implies the rule
(:attr:`~.puzzle.Puzzle.variant`); ``rules=`` and ``RULES`` add to it:

- **jigsaw line**: one line of ``2 * N * N`` characters with no blank, the
  ``N * N`` givens then ``N * N`` region symbols (the form sigh's
  Interactive Sudoku Solver reads): 162 characters for 9x9. No other layout
  has that length, so the line is read as jigsaw whatever the rules say.
- **jigsaw grid**: under rules that include ``jigsaw``, a grid of givens
  (any grid layout) followed by ``N`` rows of ``N`` region symbols (blank
  lines and comments may stand between the two grids). Without the rule the
  second grid would be read as another puzzle.
- **SudoCue killer line**: ``3x3::k:`` (``3x3:d:k:`` for killer-X: the
  diagonals are units too; in either case), then 81 colon-separated numbers
  ``sum * 256 + cage id`` (0, or a sum of 0: the cell is in no cage), and a
  closing colon (may be left out). 9x9 only, as SudoCue's; at least one
  cage.
- **cage block**: ``N`` rows of ``N`` cage symbols, each row preceded by its
  ``N`` givens and a blank (the CodinGame form), then the ``symbol=sum``
  pairs (``a=11 b=15``) on one line or several (read until every cage has
  its sum); ``.`` marks a cell in no cage. Rows
  of cage symbols alone (no givens) are read under rules that include
  ``killer`` only, and must hold a character that is no digit (a row of
  digits is a row of givens); such a first row may start with ``#`` (a
  cage symbol there, not a comment).
- **pencilmark line** (Sukaku): 729 characters for 9x9, 9 per cell; the
  ``k``-th character of a cell is the digit ``k`` where ``k`` is still a
  candidate, ``.`` or ``0`` where it is not. A cell with one candidate is a
  given. Other sizes are not read (a 4x4 pencilmark line would have the
  length of other layouts).

The answer to each is the solved grid only, in the givens' layout: one line
of ``N * N`` digits for a line, ``N`` rows of ``N`` digits (and an empty
line) for a cage block, the givens' grid filled in for a jigsaw grid; never
the regions, the cages or the sums.

Pure functions of one line, and :class:`BlockInProgress` for the cage block
and the region grid; :class:`~.reader.PuzzleReader` calls them. The errors
name the line (and the row, cage or cell); the checks of the regions' and
cages' sizes and sums are :func:`~sudoku_server.sudoku.variants.variant_geometry`'s.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from sudoku_server.errors import IncompletePuzzleError, PuzzleError, PuzzleFormatError, quote
from sudoku_server.sudoku.grid import BOX_SHAPES, DIGIT_SYMBOLS, EMPTY_MARKS, Grid, cell_name, describe_char
from sudoku_server.sudoku.variants import Cage, Variant
from sudoku_server.text.fpuzzles import is_fpuzzles, marks_line
from sudoku_server.text.fpuzzles import read as read_fpuzzles
from sudoku_server.text.hodoku import library_puzzle
from sudoku_server.text.lines import Kind, Line
from sudoku_server.text.puzzle import Event, Positions, Puzzle, Rejected
from sudoku_server.text.rows import read_symbols
from sudoku_server.text.sizes import LINE_SIZES, ROW_SIZES, SIZE
from sudoku_server.text.wording import bracketed_line_error, symbol_error

#: The rules whose data these layouts read: regions (a grid of regions follows the givens' grid under
#: it) and cages (rows of cage symbols alone start a cage block under it; "#" may start one).
REGIONS_RULE = "jigsaw"
CAGES_RULE = "killer"


def regions_follow(rules: Collection[str]) -> bool:
    """Whether a grid of region symbols follows a grid of givens under ``rules``."""
    return REGIONS_RULE in rules


def cage_rows_read(rules: Collection[str]) -> bool:
    """Whether a row of cage symbols alone starts a cage block under ``rules`` (so ``#`` starts no comment)."""
    return CAGES_RULE in rules


#: Layouts of :attr:`Puzzle.layout` added here.
LAYOUT_JIGSAW_LINE = "jigsaw-line"
LAYOUT_JIGSAW_GRID = "jigsaw-grid"
LAYOUT_SUDOCUE = "sudocue"
LAYOUT_CAGES = "cages"
LAYOUT_PENCILMARK = "pencilmark"

#: Jigsaw line length -> grid size: 32 -> 4, 72 -> 6, 162 -> 9, 512 -> 16, 1250 -> 25.
JIGSAW_LINE_SIZES: dict[int, int] = {2 * size * size: size for size in ROW_SIZES}
#: A pencilmark line's length (9x9 only): 9 characters for each of 81 cells.
PENCILMARK_LINE = SIZE * SIZE * SIZE
#: Cells of a cage block's first row with its givens: N givens and N cage symbols (8, 12, 18, 32, 50).
_CAGE_ROW_CELLS = frozenset(2 * size for size in ROW_SIZES)
#: The start of a SudoCue killer line: ``3x3::k:`` or ``3x3:d:k:`` (killer-X).
_SUDOCUE = re.compile(r"\s*3x3:(d?):k:", re.IGNORECASE | re.ASCII)
#: One ``symbol=sum`` pair of a cage block's sums lines.
_SUM_PAIR = re.compile(r"([^\s=]+)=([0-9]+)")
#: The most digits a cage sum (``symbol=sum``) and a SudoCue number may have.
_SUM_DIGITS = 4
_SUDOCUE_DIGITS = 6
#: The most cages an ``incomplete`` error names when the input ends before their sums (then "and K more").
_NAMED_CAGES = 10
#: The characters that stand for "not a candidate" in a pencilmark line.
_NOT_CANDIDATE = ".0"


def _digits_template(grid: Grid, ending: str, lineno: int, layout: str, variant: Variant, symbols: str) -> Puzzle:
    """A puzzle whose answer is one line of the grid's digits: the givens as a line template."""
    chars = symbols or DIGIT_SYMBOLS
    text = "".join(chars[v - 1] if v else "." for v in grid.cells)
    return Puzzle(
        grid=grid,
        layout=layout,
        first_line=lineno,
        lines=[text],
        endings=[ending],
        positions=Positions.on_one_line(range(len(text))),
        symbols=symbols,
        variant=variant,
    )


def numbered_regions(symbols: list[str]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Region symbols per cell -> (region per cell, numbered in order of first appearance; the symbols in that order)."""
    order: dict[str, int] = {}
    regions = tuple(order.setdefault(s, len(order)) for s in symbols)
    return regions, tuple(order)


# -- one-line layouts -------------------------------------------------------------


def line_puzzle(line: Line, lineno: int, last_ending: str) -> Event | None:
    """The variant puzzle on ``line`` (a jigsaw, SudoCue, pencilmark or f-puzzles line) or its error, or the error of
    a bracketed line that is no ``[Section]`` header (:func:`.wording.bracketed_line_error`); None: not one.

    ``line`` is a line between puzzles (not blank, not a border).
    """
    bracketed = bracketed_line_error(line.text, lineno)  # "[1,2,3]": no [Section] header (those are comments)
    if bracketed is not None:
        return Rejected(bracketed, line.ending or last_ending, line.text)
    if is_fpuzzles(line.text):  # an f-puzzles JSON object or link (.fpuzzles)
        return read_fpuzzles(line.text, lineno, line.ending or last_ending)
    if "=" in line.text:  # givens then rule marks: "<givens> thermo=r1c1-r1c2-r1c3" (.fpuzzles)
        marked = marks_line(line.text, lineno, line.ending or last_ending)
        if marked is not None:
            return marked
    foreign = _foreign_region_symbol(line, lineno, last_ending)
    if foreign is not None:
        return foreign
    if line.kind is Kind.FIELDS:
        library = library_puzzle(line, lineno, last_ending)  # a HoDoKu library line (:mod:`.hodoku`)
        if library is not None:
            return library
        match = _SUDOCUE.match(line.body)
        return None if match is None else _sudocue(line, lineno, last_ending, match)
    cells = line.cells
    count = len(cells)
    if count == PENCILMARK_LINE:
        return _pencilmark(line, lineno, last_ending)
    size = JIGSAW_LINE_SIZES.get(count)
    if size is not None and cells[-1][0] - cells[0][0] == count - 1:
        return _jigsaw_line(line, lineno, last_ending, size)
    return None


#: What cannot be a region symbol (a layout's blanks, borders, comments and fields).
_NOT_REGION_SYMBOLS = "|#,:"


def _foreign_region_symbol(line: Line, lineno: int, last_ending: str) -> Rejected | None:
    """A jigsaw line (``2 * N * N`` characters, no blank) whose region symbols hold a ``|``, ``#``, ``,`` or ``:``:
    its error, naming the first at its column; None for any other line (break-session finding: ``|`` there was
    read as a border, and the error named a good region symbol at another column)."""
    text = line.text.strip()
    start = line.text.index(text[0]) if text else 0  # the blanks before it (a verb's line is padded to its column)
    size = JIGSAW_LINE_SIZES.get(len(text))
    if size is None or any(ch.isspace() or ch in _NOT_REGION_SYMBOLS for ch in text[: size * size]):
        return None  # not N * N givens first (a HoDoKu library line, a line of fields)
    if any(ch.isspace() for ch in text):
        return None
    for k in range(size * size, len(text)):
        if text[k] in _NOT_REGION_SYMBOLS:
            error = PuzzleFormatError(
                f"line {lineno}, column {start + k + 1}: {quote(text[k], chr(39))} is not a region symbol (region"
                " symbols are any characters but blanks, | # , and :)"
            )
            return Rejected(error, line.ending or last_ending, None)
    return None


def _jigsaw_line(line: Line, lineno: int, last_ending: str, size: int) -> Event:
    """``N * N`` givens then ``N * N`` region symbols, no blank (sigh's jigsaw form)."""
    ncells = size * size
    cells = line.cells
    ending = line.ending or last_ending
    symbols, values, bad = read_symbols([ch for _, ch in cells[:ncells]], size)
    if bad is not None:
        col = cells[bad][0]
        return Rejected(symbol_error(lineno, col, line.template[col], size, bad), ending, None)
    regions, region_symbols = numbered_regions([ch for _, ch in cells[ncells:]])
    box_rows, box_cols = BOX_SHAPES[size]
    grid = Grid(tuple(values), box_rows, box_cols, symbols)
    variant = Variant((REGIONS_RULE,), regions=regions, region_symbols=region_symbols)
    return _digits_template(grid, line.ending, lineno, LAYOUT_JIGSAW_LINE, variant, symbols)


def _sudocue(line: Line, lineno: int, last_ending: str, match: re.Match[str]) -> Event:
    """SudoCue's killer line: ``3x3:[d]:k:`` and 81 numbers ``sum * 256 + cage id``."""
    ending = line.ending or last_ending
    fields = line.body[match.end() :].rstrip().split(":")
    if fields and fields[-1] == "":
        fields.pop()  # the closing colon
    ncells = SIZE * SIZE
    if len(fields) != ncells:
        error = PuzzleFormatError(f"line {lineno}: a SudoCue killer line has {ncells} numbers, found {len(fields)}")
        return Rejected(error, ending, None)
    cages: dict[int, tuple[int, list[int]]] = {}  # id -> (sum, cells), in order of first appearance
    for cell, text in enumerate(fields):
        text = text.strip()
        if not text.isascii() or not text.isdigit():
            error = PuzzleFormatError(
                f"line {lineno}: SudoCue number {cell + 1} ({cell_name(cell)}) is {quote(text, chr(39))}, not a number"
            )
            return Rejected(error, ending, None)
        if len(text) > _SUDOCUE_DIGITS:
            error = PuzzleFormatError(
                f"line {lineno}: SudoCue number {cell + 1} ({cell_name(cell)}) has {len(text)} digits,"
                f" too large (at most {_SUDOCUE_DIGITS})"
            )
            return Rejected(error, ending, None)
        total, cage_id = divmod(int(text), 256)
        if not total:
            continue  # in no cage
        known = cages.setdefault(cage_id, (total, []))
        if known[0] != total:
            first = cell_name(known[1][0])
            error = PuzzleFormatError(
                f"line {lineno}: cage {cage_id} has sum {known[0]} at {first} and {total} at {cell_name(cell)}"
            )
            return Rejected(error, ending, None)
        known[1].append(cell)
    if not cages:
        error = PuzzleFormatError(f"line {lineno}: the SudoCue line has no cage (every number is under 256)")
        return Rejected(error, ending, None)
    rules = ("x", CAGES_RULE) if match.group(1) else (CAGES_RULE,)
    variant = Variant(rules, cages=tuple(Cage(tuple(cells), total, str(k)) for k, (total, cells) in cages.items()))
    grid = Grid((0,) * ncells, *BOX_SHAPES[SIZE])
    return _digits_template(grid, line.ending, lineno, LAYOUT_SUDOCUE, variant, "")


def _pencilmark(line: Line, lineno: int, last_ending: str) -> Event:
    """729 characters, 9 per cell: the digit where a candidate, ``.`` or ``0`` where not."""
    ending = line.ending or last_ending
    cells = line.cells
    masks = []
    values = []
    for cell in range(SIZE * SIZE):
        mask = 0
        for k in range(SIZE):
            col, ch = cells[cell * SIZE + k]
            if ch == DIGIT_SYMBOLS[k]:
                mask |= 1 << k
            elif ch not in _NOT_CANDIDATE:
                error = PuzzleFormatError(
                    f"line {lineno}, column {col + 1}: {describe_char(line.template[col])} in the candidates of"
                    f" {cell_name(cell)}, where {DIGIT_SYMBOLS[k]}, . or 0 goes"
                )
                return Rejected(error, ending, None)
        masks.append(mask)
        values.append(mask.bit_length() if mask and not mask & (mask - 1) else 0)
    grid = Grid(tuple(values), *BOX_SHAPES[SIZE])
    return _digits_template(grid, line.ending, lineno, LAYOUT_PENCILMARK, Variant(candidates=tuple(masks)), "")


# -- the cage block and the region grid -------------------------------------------


def cage_row_size(line: Line, rules: Collection[str]) -> tuple[int, bool] | None:
    """``(size, with givens)`` when ``line`` starts a cage block, else None.

    With givens: two blank-separated words of ``N`` characters (``N`` a row
    size); or ``N`` cage symbols after a word of givens a cell or two short or
    long (the block then answers its row error). Without: under ``killer`` rules, one word of ``N`` characters
    holding a character that is no digit or empty mark; it may start with
    ``#`` (a cage symbol, so the line is then no comment).
    """
    count = len(line.cells)
    if count not in _CAGE_ROW_CELLS and "#" in line.view:  # "#" may be a cage symbol (a comment elsewhere)
        count = sum(len(word) for word in line.view.split())
    if count in _CAGE_ROW_CELLS:
        if line.kind is not Kind.CELLS or "|" in line.view:
            return None
        words = line.view.split()
        if len(words) == 2 and len(words[0]) == len(words[1]):
            return len(words[0]), True
    if line.kind is Kind.CELLS and "|" not in line.view:
        words = line.view.split()
        if (
            len(words) == 2
            and len(words[1]) in ROW_SIZES
            and 0 < abs(len(words[0]) - len(words[1])) <= 2
            and all(ch.isdigit() or ch in EMPTY_MARKS for ch in words[0])
            and any(not (ch.isdigit() or ch in EMPTY_MARKS) for ch in words[1])
        ):  # a cage block's first row with a cell too few or too many: the block's row error, not a size's
            return len(words[1]), True
    if cage_rows_read(rules) and count in ROW_SIZES and _may_be_cage_row(line) and "|" not in line.view:
        words = line.view.split()
        if len(words) == 1 and any(not (ch.isdigit() or ch in EMPTY_MARKS) for ch in words[0]):
            return count, False
    return None


def start_cage_block(line: Line, lineno: int, rules: Collection[str]) -> BlockInProgress | None:
    """The cage block ``line`` (at ``lineno``) starts, its first row read (:func:`cage_row_size`); None: not one."""
    row = cage_row_size(line, rules)
    if row is None:
        return None
    block = BlockInProgress(lineno, row[0], with_givens=row[1])
    block.feed(line, lineno)
    return block


def _may_be_cage_row(line: Line) -> bool:
    """A line of cells, or a ``#`` "comment" (``#`` is a cage symbol; a ``[Section]`` header is not a row)."""
    return line.kind is Kind.CELLS or (line.kind is Kind.COMMENT and line.view.lstrip().startswith("#"))


class BlockInProgress:
    """A cage block, or the region grid after a jigsaw puzzle's givens, being read.

    Feed it lines with :meth:`feed` (a line that is not its own ends it: its
    error, and the line is read as what follows). :meth:`finish` is the end
    of input inside it.

    Args:
      first_line: the 1-based line it starts at (the givens' grid's first
        line for a region grid; errors name the region grid by its own
        first row's line, :attr:`start`).
      size: cells per row.
      givens: for a region grid, the puzzle of the givens read before it;
        None for a cage block.
      with_givens: a cage block's rows hold their givens.
    """

    def __init__(self, first_line: int, size: int, givens: Puzzle | None = None, with_givens: bool = False) -> None:
        self.first_line = first_line
        self.size = size
        self.givens = givens
        self.with_givens = with_givens
        self.rows: list[str] = []  # cage or region symbols of each row read
        self.given_rows: list[str] = []  # a cage block's givens, row by row
        self.given_cols: list[int] = []  # the column each row's givens start at
        self.endings: list[str] = []
        self.lines: list[int] = []  # the line number of each row
        self.error: Rejected | None = None  # the first bad row's error
        self.reported = False  # its error was already sent (interactive reading)
        self.sums: dict[str, int] = {}  # a cage block's sums read so far (they may take several lines)
        self.sums_line = 0  # the line of its last sums line read, 0 before the first

    @property
    def what(self) -> str:
        return "region grid" if self.givens is not None else "cage block"

    @property
    def start(self) -> int:
        """The line of the block's first row (for a region grid, not of its givens' grid); :attr:`first_line` before."""
        return self.lines[0] if self.lines else self.first_line

    def _missing_regions(self) -> str:
        """A region grid with no row yet: what is missing, after what."""
        return (
            f"the region grid ({self.size} rows of {self.size} region symbols) after the jigsaw givens' grid"
            f" that starts at line {self.first_line}"
        )

    @property
    def complete(self) -> bool:
        """True when every row is read (a cage block then waits for its sums line)."""
        return len(self.rows) == self.size

    def feed(self, line: Line, lineno: int) -> tuple[bool, Event | None]:
        """``(taken, event)``: whether the line was the block's, and the puzzle or error it completes (or None).

        A bad row is recorded (the block still spans its rows, as a grid
        does) and answered when the block ends; a line that cannot be a row
        ends it early (not taken when it may start what follows).
        """
        regions = self.givens is not None
        if regions and (line.kind is Kind.BORDER or (line.kind in (Kind.BLANK, Kind.COMMENT) and not self.rows)):
            return True, None  # between the givens' grid and its regions, or a rule of the region grid
        if self.complete:  # a cage block: the sums line
            return self._sums(line, lineno)
        if line.kind is Kind.BLANK or (regions and line.kind is not Kind.CELLS):
            return line.kind is not Kind.FIELDS, self.cut(lineno, line.ending)
        size = self.size
        if regions:
            cells = line.cells
            if len(cells) == size:
                self._row(lineno, line.ending, "".join(ch for _, ch in cells))
            else:
                self._bad_row(lineno, line.ending, f"expected {size} region symbols, found {len(cells)}")
        else:
            words = line.view.split()  # cage symbols may be "#", "-", "*" ...: the whole line, not its cells
            if len(words) == 1 + self.with_givens and all(len(word) == size for word in words):
                if self.with_givens:
                    self.given_rows.append(words[0])
                    self.given_cols.append(line.view.index(words[0]))
                self._row(lineno, line.ending, words[-1])
            elif len(words) == 1 and len(line.cells) in LINE_SIZES and len(line.cells) > size:
                # a whole puzzle on one line (one word: a row of givens and 7 symbols, 16 cells, is a bad row;
                # break-session finding: it was read as the first row of a 16x16 grid)
                return False, self.cut(lineno, line.ending)  # the block ends before it
            else:
                form = f"{size} givens, a blank and {size} cage symbols" if self.with_givens else f"{size} cage symbols"
                self._bad_row(lineno, line.ending, f"expected a row of the cage block: {form}")
        if self.complete and regions:
            return True, self.error or self._regions_puzzle()
        return True, None

    def _bad_row(self, lineno: int, ending: str, what: str) -> None:
        if self.error is None:
            self.error = Rejected(PuzzleFormatError(f"line {lineno}: {what}"), ending or "\n")
        self._row(lineno, ending, "")
        if self.with_givens:
            self.given_rows.append("")
            self.given_cols.append(0)

    def _row(self, lineno: int, ending: str, symbols: str) -> None:
        self.rows.append(symbols)
        self.endings.append(ending)
        self.lines.append(lineno)

    def cut(self, lineno: int, ending: str) -> Rejected:
        """The error of a block ended before its last row (or its sums line) by a line at ``lineno``."""
        if self.error is not None:
            return self.error
        if self.sums_line:  # a cage block whose sums lines ended before every cage had its sum
            error = PuzzleFormatError(f"line {self.sums_line}: cage {self._unsummed()[0]} has no sum")
        elif self.complete:
            error = PuzzleFormatError(
                f"line {lineno}: expected the cage sums (symbol=sum ...) after the cage block"
                f" that starts at line {self.first_line}"
            )
        elif not self.rows:
            error = PuzzleFormatError(f"line {lineno}: expected {self._missing_regions()}")
        else:
            rows = len(self.rows)
            error = PuzzleFormatError(
                f"line {lineno}: the {self.what} that starts at line {self.start}"
                f" has {rows} row{'s' if rows != 1 else ''}, expected {self.size}"
            )
        return Rejected(error, ending or "\n")

    def incomplete(self, ending: str) -> Rejected:
        """The input ended inside the block (its first bad row says more, when it has one)."""
        if self.error is not None:
            return self.error
        if self.sums_line:
            missing = self._unsummed()
            names = ", ".join(missing[:_NAMED_CAGES]) + (
                f" and {len(missing) - _NAMED_CAGES} more" if len(missing) > _NAMED_CAGES else ""
            )
            plural = "s" if len(missing) > 1 else ""
            what = (
                f"before the sum{plural} of cage{plural} {names} of the cage block that starts at line {self.start}"
                f" (its sums so far end at line {self.sums_line})"
            )
        elif self.complete:
            what = f"before the sums of the cage block that starts at line {self.start}"
        elif not self.rows:
            what = f"before {self._missing_regions()}"
        else:
            what = f"inside the {self.what} ({len(self.rows)} of {self.size} rows) that starts at line {self.start}"
        return Rejected(IncompletePuzzleError(f"input ended {what}"), ending)

    def _regions_puzzle(self) -> Puzzle:
        givens = self.givens
        assert givens is not None
        regions, symbols = numbered_regions([ch for row in self.rows for ch in row])
        givens.variant = Variant((REGIONS_RULE,), regions=regions, region_symbols=symbols)
        givens.layout = LAYOUT_JIGSAW_GRID
        return givens

    def _sums(self, line: Line, lineno: int) -> tuple[bool, Event | None]:
        """A line after a cage block's rows: its sums (they may take several lines, read until every cage
        has its sum), or the line that ends it (then not taken when it may start what follows)."""
        ending = line.ending or "\n"
        words = line.view.split()
        # no sums line: it starts what follows (after a first sums line, a line with a word without "=" is none:
        # a marks line, <givens> thermo=..., is a puzzle of its own, never swallowed as sums)
        if not words or not (all if self.sums_line else any)("=" in word for word in words):
            return line.kind not in (Kind.FIELDS, Kind.CELLS), self.cut(lineno, ending)
        cells_of = self._cells_of()
        for word in words:  # a sums line: each word a symbol=sum
            match = _SUM_PAIR.fullmatch(word)
            if match is None:
                error = PuzzleFormatError(f"line {lineno}: cage sums: {quote(word, chr(39))} is not symbol=sum")
                return True, Rejected(error, ending)
            symbol, digits = match.group(1), match.group(2)
            if len(digits) > _SUM_DIGITS:
                error = PuzzleFormatError(
                    f"line {lineno}: cage {symbol}: its sum has {len(digits)} digits, too large (at most {_SUM_DIGITS})"
                )
                return True, Rejected(error, ending)
            if symbol in self.sums:
                return True, Rejected(PuzzleFormatError(f"line {lineno}: cage {symbol} has two sums"), ending)
            if symbol not in cells_of and self.error is None:
                return True, Rejected(
                    PuzzleFormatError(f"line {lineno}: cage {symbol} has a sum but no cell in the cage block"), ending
                )
            self.sums[symbol] = int(digits)
        self.sums_line = lineno
        if self.error is not None:
            return True, self.error
        if self._unsummed():
            return True, None  # more sums on the next line
        return True, self._cages_puzzle(cells_of, ending)

    def _cells_of(self) -> dict[str, list[int]]:
        """Each cage symbol of the block's rows and its cells (0-based, row-major), in the order of first cells."""
        cells_of: dict[str, list[int]] = {}
        for r, row in enumerate(self.rows):
            for c, symbol in enumerate(row):
                if symbol != ".":
                    cells_of.setdefault(symbol, []).append(r * self.size + c)
        return cells_of

    def _unsummed(self) -> list[str]:
        """The cages of the block with no sum read yet, in the order of their first cells."""
        return [symbol for symbol in self._cells_of() if symbol not in self.sums]

    def _cages_puzzle(self, cells_of: dict[str, list[int]], ending: str) -> Event:
        size = self.size
        sums = self.sums
        cages = tuple(Cage(tuple(cells), sums[symbol], symbol) for symbol, cells in cells_of.items())
        box_rows, box_cols = BOX_SHAPES[size]
        if self.with_givens:
            chars = [ch for row in self.given_rows for ch in row]
            symbols, values, bad = read_symbols(chars, size)
            if bad is not None:
                at_row, at_col = divmod(bad, size)
                error: PuzzleError = symbol_error(
                    self.lines[at_row], self.given_cols[at_row] + at_col, chars[bad], size, bad
                )
                return Rejected(error, ending)
            template = list(self.given_rows)
        else:
            symbols, values = "", [0] * (size * size)
            template = ["." * size] * size
        positions = Positions()
        for r in range(size):
            positions.extend_line(r, range(size))
        return Puzzle(
            grid=Grid(tuple(values), box_rows, box_cols, symbols),
            layout=LAYOUT_CAGES,
            first_line=self.first_line,
            lines=template,
            endings=self.endings,
            positions=positions,
            symbols=symbols,
            variant=Variant((CAGES_RULE,), cages=cages),
        )
