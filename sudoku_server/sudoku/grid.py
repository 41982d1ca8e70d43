"""The :class:`Grid` value, the duplicate check and ``verify_solution``, over units.

The rules are data (:mod:`.geometry`, after Norvig, "Solving Every Sudoku
Puzzle"): a :class:`Geometry` lists the units of a grid, and the checks here
are short loops over that list, whatever the units are. ``Geometry``,
``geometry``, ``BOX_SHAPES``, ``VALID_BOXES`` and ``cell_name`` are defined in
:mod:`.geometry` and re-exported here.

Cells are numbered row-major from 0; people see them as ``r1c1``..``r9c9``
(1-based). Boxes are numbered 1..n left to right, top to bottom.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from sudoku_server.errors import InvalidPuzzleError, PuzzleFormatError, quote
from sudoku_server.sudoku import variants
from sudoku_server.sudoku.geometry import BOX_SHAPES, VALID_BOXES, Geometry, cell_name, geometry

__all__ = [
    "BLANKS",
    "BOX_SHAPES",
    "DIGIT_SYMBOLS",
    "EMPTY_MARKS",
    "LETTER_SYMBOLS",
    "SYMBOLS",
    "VALID_BOXES",
    "ZERO_SYMBOLS",
    "Geometry",
    "Grid",
    "cell_name",
    "check_givens",
    "choose_symbols",
    "describe_char",
    "find_duplicate",
    "geometry",
    "symbol_table",
    "symbol_value",
    "verify_solution",
]

#: Symbols for digits 1..25 in text ("1-9" then "A-P"): index = digit.
SYMBOLS = ".123456789ABCDEFGHIJKLMNOP"

#: Characters that mark an empty cell in one-line text.
EMPTY_MARKS = ".0_"

#: The symbol sets a request may use, each listing the symbols of digits
#: 1, 2, ... (a grid of size n uses the first n). ``DIGIT_SYMBOLS`` is the
#: default (1-9 then A-P); 16x16 and 25x25 grids may also count from ``0``
#: (0-9 then A-O, when ``.`` or ``_`` marks the empty cells) or use letters
#: only (A-P, A-Y, when their givens hold letters and no digit).
DIGIT_SYMBOLS = SYMBOLS[1:]
ZERO_SYMBOLS = "0123456789ABCDEFGHIJKLMNO"
LETTER_SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXY"

#: Blank characters: an empty cell where a layout places cells by column.
BLANKS = " \t"

_new = object.__new__

#: A 9x9 one-line grid of digits and the empty marks ``.`` and ``_`` (``0`` is empty too): read by
#: :meth:`Grid.from_string` without a symbol table.
_PLAIN_NINE = re.compile(r"[0-9._]{81}").fullmatch
#: Those characters' bytes -> their values (the empty marks 0).
_NINE_VALUES = bytes.maketrans(b"0123456789._", bytes([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0]))
_NINE_SYMBOLS = DIGIT_SYMBOLS[:9]


@dataclass(frozen=True)
class Grid:
    """A puzzle or a solution: ``size * size`` digits in row-major order.

    Attributes:
      cells: tuple of ``size * size`` ints (81 for 9x9), row-major; 0 marks an
        empty cell, 1..size a digit.
      box_rows, box_cols: the box shape (3, 3 for classic Sudoku).
      symbols: how digits 1..size are written (``symbols[d - 1]``), for
        messages; empty for the default ``1-9`` then ``A-P``. Not compared:
        two grids with the same cells and shape are equal.
    """

    cells: tuple[int, ...]
    box_rows: int = 3
    box_cols: int = 3
    symbols: str = field(default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        size = self.box_rows * self.box_cols
        cells = self.cells
        if len(cells) != size * size:
            raise ValueError(f"a {size}x{size} grid has {size * size} cells, got {len(cells)}")
        if min(cells) < 0 or max(cells) > size:
            bad = next(value for value in cells if not 0 <= value <= size)
            raise ValueError(f"cell value {bad!r} outside 0..{size}")

    @classmethod
    def trusted(cls, cells: tuple[int, ...], box_rows: int, box_cols: int, symbols: str = "") -> Grid:
        """A Grid from cells known to be valid (``0..size``, ``size * size`` of them): no check.

        For the text reader's fast path, which has just produced them.
        """
        grid = _new(cls)
        # the instance's own dict, filled directly: what the frozen dataclass's
        # __init__ ends with, at a third of the cost of four object.__setattr__
        fields = grid.__dict__
        fields["cells"] = cells
        fields["box_rows"] = box_rows
        fields["box_cols"] = box_cols
        fields["symbols"] = symbols
        return grid

    @property
    def size(self) -> int:
        """Digits per unit (9 for classic Sudoku)."""
        return self.box_rows * self.box_cols

    @property
    def geometry(self) -> Geometry:
        """The :class:`Geometry` (units, peers) of this grid's shape."""
        return geometry(self.box_rows, self.box_cols)

    def symbol(self, digit: int) -> str:
        """How ``digit`` (1..size) is written in this grid's text; ``.`` for 0."""
        if not digit:
            return "."
        return (self.symbols or DIGIT_SYMBOLS)[digit - 1]

    @classmethod
    def from_string(cls, text: str, box_rows: int | None = None, box_cols: int | None = None) -> Grid:
        """Read a one-line grid: ``size * size`` symbols, no separators.

        Symbols are ``1-9`` then ``A-P`` (case-insensitive); ``.``, ``0`` and
        ``_`` mark an empty cell. A 16x16 or 25x25 grid may also use letters
        only (``A-P``, ``A-Y``) or count from ``0`` (see :func:`choose_symbols`).
        The size comes from the length (81 -> 9x9, 16 -> 4x4, 36 -> 6x6,
        256 -> 16x16, 625 -> 25x25) unless the box shape is given.

        Raises:
          PuzzleFormatError: wrong length or a character that is not a symbol
            of the grid ("'x' is not a 9x9 symbol at r1c4").
        """
        text = text.strip()
        if box_rows is None and len(text) == 81 and _PLAIN_NINE(text) is not None:
            # a 9x9 line of digits and empty marks (every marks line's givens): what the loop below reads,
            # in one C call per step (its symbols are choose_symbols' default, 1-9)
            return cls.trusted(tuple(text.encode().translate(_NINE_VALUES)), 3, 3, _NINE_SYMBOLS)
        if box_rows is None or box_cols is None:
            for size, (br, bc) in BOX_SHAPES.items():
                if size * size == len(text):
                    box_rows, box_cols = br, bc
                    break
            else:
                raise PuzzleFormatError(f"expected 81 cells, found {len(text)}")
        size = box_rows * box_cols
        symbols = choose_symbols(text, size)
        table = symbol_table(symbols)
        cells = []
        for i, ch in enumerate(text):
            value = table.get(ch)
            if value is None or ch in BLANKS:
                raise PuzzleFormatError(f"{describe_char(ch)} is not a {size}x{size} symbol at {cell_name(i, size)}")
            cells.append(value)
        return cls(tuple(cells), box_rows, box_cols, symbols)

    def to_string(self, empty: str = ".") -> str:
        """The one-line form: ``size * size`` symbols, ``empty`` for empty cells."""
        symbols = self.symbols or DIGIT_SYMBOLS
        return "".join(symbols[v - 1] if v else empty for v in self.cells)

    def __str__(self) -> str:
        return self.to_string()

    def rows(self) -> list[list[int]]:
        """The grid as ``size`` lists of ``size`` ints (0 = empty)."""
        n = self.size
        return [list(self.cells[r * n : (r + 1) * n]) for r in range(n)]


def symbol_value(ch: str, size: int) -> int | None:
    """The digit a symbol stands for in a ``size`` grid: 0 for empty, None if foreign.

    ``1-9`` are 1..9 and ``A``.. (any case) are 10..; ``.``, ``_`` and ``0``
    are empty.
    """
    if ch in EMPTY_MARKS:
        return 0
    index = SYMBOLS.find(ch.upper()) if ch.isascii() else -1
    if 1 <= index <= size:
        return index
    return None


def choose_symbols(chars: Iterable[str], size: int) -> str:
    """The symbol set of a puzzle of ``size``, chosen from the characters of its cells.

    Grids up to 9x9 use ``1``-``size``. A 16x16 or 25x25 grid uses, in this
    order of preference, the first set that holds all its non-empty cells:

    * ``0-9`` then letters (``0123456789ABCDEF``), when the cells hold a ``0``
      and also ``.``, ``_`` or a blank for the empty cells;
    * letters only (``A-P``, ``A-Y``), when the cells hold a letter and no
      digit;
    * ``1-9`` then letters (``123456789ABCDEFG``, ``1-9 A-P``), the default:
      also for a grid with no letter among its cells (an empty grid, or
      digits 1-9 only), whose answer then uses ``1-9`` first.

    If none holds them all, the set with the fewest foreign characters is
    returned (ties: the default), so the error names a cell that is really
    foreign. Letters are case-insensitive; the set is returned in lower case
    when every letter among the cells is lower case, so answers keep the
    request's case.

    Args:
      chars: the cells' characters (givens, empty marks, blanks).
      size: digits per unit (4, 6, 9, 16, 25).

    Returns:
      str: the symbols of digits 1..size, ``symbols[d - 1]``.
    """
    seen = set(chars)
    used = {ch.upper() for ch in seen if ch not in BLANKS and ch not in "._"}
    default = DIGIT_SYMBOLS[:size]
    options = []
    if size >= 16:
        if "0" in used and (seen & set("._" + BLANKS)):
            options.append(ZERO_SYMBOLS[:size])
        if not used & set("123456789") and used & set(LETTER_SYMBOLS):
            options.append(LETTER_SYMBOLS[:size])
    options.append(default)
    best, best_bad = default, None
    for option in options:
        allowed = set(option) if "0" in option else set(option) | {"0"}
        bad = len(used - allowed)
        if bad == 0:
            best = option
            break
        if best_bad is None or bad < best_bad or (bad == best_bad and option == default):
            best, best_bad = option, bad
    letters = [ch for ch in seen if ch.isascii() and ch.isalpha()]
    if letters and all(ch.islower() for ch in letters):
        best = best.lower()
    return best


@functools.lru_cache(maxsize=64)
def symbol_table(symbols: str) -> dict[str, int]:
    """Character -> digit for a symbol set (both cases); 0 for the empty marks.

    ``.``, ``_`` and blanks are empty; ``0`` is empty unless it is a symbol.
    A character that is not in the table is foreign to the grid.
    """
    table = dict.fromkeys("._" + BLANKS, 0)
    table["0"] = 0
    for digit, ch in enumerate(symbols, start=1):
        table[ch.upper()] = digit
        table[ch.lower()] = digit
    return table


def describe_char(ch: str) -> str:
    """A character as shown in an error line: ``'x'`` when printable ASCII, else ``U+00B0``."""
    if 0xDC80 <= ord(ch) <= 0xDCFF:  # an undecodable byte (surrogateescape)
        return f"byte 0x{ord(ch) - 0xDC00:02X}"
    if ch.isascii() and ch.isprintable():
        return quote(ch, "'") if ch != "'" else quote(ch)  # 'x', or "'" as repr() shows it
    return f"U+{ord(ch):04X}"


def find_duplicate(grid: Grid, geometry: Geometry | None = None) -> str | None:
    """The first pair of equal givens in one unit, described for people; None if none.

    Cells are scanned in row-major order; for each given the earlier cells of
    its units are checked, in the order of the geometry's units (row, then
    column, then box for classic grids), so the report names the first
    offending cell in reading order and the first unit it breaks:
    ``"duplicate 8 in box 1 at r1c1 and r3c3"``. O(cells x units per cell).

    Args:
      grid: the puzzle (``size * size`` ints row-major, 0 = empty).
      geometry: its rules; None for the classic geometry of its box shape.
    """
    geo = grid.geometry if geometry is None else geometry
    size = geo.size
    cell_units = geo.cell_units
    # first cell seen with each digit, per unit
    seen: list[dict[int, int]] = [{} for _ in geo.units]
    for i, d in enumerate(grid.cells):
        if not d:
            continue
        units = cell_units[i]
        for unit in units:
            first = seen[unit].get(d)
            if first is not None:
                return (
                    f"duplicate {grid.symbol(d)} in {geo.unit_names[unit]} "
                    f"at {cell_name(first, size)} and {cell_name(i, size)}"
                )
        for unit in units:
            seen[unit][d] = i
    return None


def check_givens(grid: Grid, geometry: Geometry | None = None) -> None:
    """Raise InvalidPuzzleError if two givens share a unit (see :func:`find_duplicate`) or break a rule.

    For a variant geometry (one with ``constraints``) the givens are first
    checked against its rules that are not units (pencilmarks, anti-knight,
    anti-king, nonconsecutive, killer cages), with the words of
    :func:`.variants.broken_rule`, then the units: two 3s at r1c1 and r2c3
    share box 1 too, and the anti-knight rule names them ``3 at r1c1 and r2c3
    are a knight's move apart`` (``ERROR invalid 3 at ...`` on the wire). Callers pass the request's geometry
    (``request.geometry``).
    """
    problem = None
    if geometry is not None and geometry.constraints:
        problem = variants.broken_rule(grid, geometry)
    if problem is None:
        problem = find_duplicate(grid, geometry)
    if problem is not None:
        raise InvalidPuzzleError(problem)


def verify_solution(puzzle: Grid, solution: Grid, geometry: Geometry | None = None) -> str | None:
    """Check a solution independently of the solver; None when it is right.

    A solution is right when every unit of the geometry holds each digit once,
    every given of ``puzzle`` is kept and, for a variant, every other rule
    holds (:func:`.variants.wrong_in_solution`). Otherwise the first problem
    is returned as text (``"row 3 lacks 7"``, ``"given 5 at r1c2 changed to
    6"``, ``"cage a sums to 14, not 15"``), units in the geometry's order,
    then the constraints.

    Args:
      puzzle, solution: grids of the same shape (``size * size`` ints row-major).
      geometry: the rules; None for the classic geometry of the puzzle's box shape.
    """
    if (puzzle.box_rows, puzzle.box_cols) != (solution.box_rows, solution.box_cols):
        return "shape differs from the puzzle"
    geo = puzzle.geometry if geometry is None else geometry
    cells = solution.cells
    if len(cells) != geo.ncells:
        return "shape differs from the puzzle"
    for i, (given, value) in enumerate(zip(puzzle.cells, cells)):
        if given and given != value:
            return f"given {puzzle.symbol(given)} at {cell_name(i, geo.size)} changed to {puzzle.symbol(value)}"
    full = _all_digits(geo.size)
    for name, unit in zip(geo.unit_names, _unit_getters(geo)):
        values = set(unit(cells))
        if values != full:
            missing = min(full - values)
            return f"{name} lacks {puzzle.symbol(missing)}"
    if geo.constraints:
        return variants.wrong_in_solution(puzzle, solution, geo)
    return None


@functools.cache
def _all_digits(size: int) -> frozenset[int]:
    return frozenset(range(1, size + 1))


@functools.lru_cache(maxsize=64)
def _unit_getters(geo: Geometry) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], ...]:
    """One ``operator.itemgetter`` per unit (C-speed gathering of its cells)."""
    return tuple(operator.itemgetter(*unit) for unit in geo.units)
