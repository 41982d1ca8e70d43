"""The candidate grid the finders work on, and the tables of its geometry.

:class:`Tables` turns one :class:`~sudoku_server.sudoku.grid.Geometry` (cells
plus a list of units) into bitboards (bit i = cell i, cells row-major from 0):
a mask per unit, a peer mask per cell, the units of each cell in the order
Sudoku Explainer scans them. Every finder reads the grid's rules from these
tables only, so an extra unit of the geometry (a diagonal, a jigsaw region)
is honoured by every technique defined on units. :class:`Board` holds the
candidates of a grid being solved: one digit mask per cell, bit ``d - 1`` for
digit d.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from sudoku_server.sudoku.check import Check
from sudoku_server.sudoku.grid import DIGIT_SYMBOLS, Geometry, Grid
from sudoku_server.sudoku.techniques.step import Pairs, Step

#: A strong link one way (:mod:`.links`): (link index, unit id, start group, end group, grouped).
Oriented = tuple[int, int, int, int, bool]
#: Per digit (:mod:`.links`): oriented links, what each start sees, what each end sees, the links that may
#: follow each, and per cell the links whose end sees it. Defined here, where :class:`Context` keeps them,
#: so that this module needs nothing of :mod:`.links` (which imports it).
LinkTables = tuple[list[Oriented], list[int], list[int], list[int], dict[int, int]]

__all__ = [
    "BOX",
    "COLUMN",
    "OTHER",
    "ROW",
    "Board",
    "Context",
    "Tables",
    "bits_of",
    "cells_of",
    "digits_of",
    "elims",
    "tables_of",
]

#: Kinds of unit (:attr:`Tables.kind`): a box, a row, a column, any other unit.
BOX, ROW, COLUMN, OTHER = 0, 1, 2, 3

#: Set bits of an int (cells of a bitboard, digits of a digit mask).
popcount = int.bit_count


def bits_of(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first (0-based)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: The cells of a bitboard; the 0-based digits of a digit mask.
cells_of = digits_of = bits_of


def _unit_ids(geo: Geometry, which: Sequence[Sequence[int]], what: str) -> list[int]:
    """The unit ids (indices into ``geo.units``) of the geometry's rows, columns or boxes."""
    index: dict[frozenset[int], int] = {}
    for u, cells in enumerate(geo.units):
        index.setdefault(frozenset(cells), u)
    ids = []
    for k, wanted in enumerate(which):
        found = index.get(frozenset(wanted))
        if found is None:
            raise ValueError(f"the geometry's {what} {k + 1} is not one of its units")
        ids.append(found)
    return ids


def _regions(geo: Geometry) -> list[int]:
    """The unit ids that play the boxes' part on a grid without boxes (jigsaw): the first
    units after the rows and columns that cover every cell once (``region 1``..); none if they do not."""
    n = geo.size
    ids = list(range(2 * n, 3 * n))
    if len(geo.units) < 3 * n or sorted(c for u in ids for c in geo.units[u]) != list(range(geo.ncells)):
        raise ValueError("a geometry without boxes needs regions after its rows and columns")
    return ids


class Tables:
    """The units and peers of one geometry as bitboards (build them with :func:`tables_of`).

    A unit id is an index into the geometry's ``units`` (on a classic grid:
    rows 0..n-1, columns n..2n-1, boxes 2n..3n-1, then any extra units).

    Attributes:
      geometry: the geometry; box_rows, box_cols: its box shape.
      n: digits per unit (9); N: cells (81); full: every digit's bit (0x1FF);
        all_cells: every cell's bit; row_bits: ``n`` low bits (one row's cells).
      units, unit_names: the geometry's units (tuples of cells) and names.
      unit_mask: per unit id, the bitboard of its cells.
      kind: per unit id, :data:`BOX`, :data:`ROW`, :data:`COLUMN` or :data:`OTHER`.
      rows, columns, boxes: the unit ids of the rows, columns and boxes in
        order (on a jigsaw grid the regions are the boxes: every box-line
        argument holds for any unit that meets a line); lines: rows then
        columns; others: the remaining unit ids.
      se_order: every unit id in Sudoku Explainer's scan order: boxes, rows,
        columns, then the others.
      cell_units: per cell, the ids of the units holding it, in ``se_order``.
      box_unit: per cell, the unit id of its box or region (where a nudge points).
      peers, peer_mask: per cell, the cells sharing a unit with it (sorted
        tuple; bitboard).
      row_of, col_of: per cell, its 0-based row and column.
      inter: box-line intersections ``(box id, line id, cells mask)``, boxes in
        order, each with its rows then its columns.
      line_segments, line_boxes: per unit id (empty unless a line), the line's
        box segments as masks and as ``(box id, mask)``.
      box_rows_segs, box_cols_segs: per box id, its ``(row id, mask)`` and
        ``(column id, mask)`` segments.
      cell_column: per cell, the bits of its candidate ids (candidate id =
        0-based digit * N + cell).
    """

    def __init__(self, geo: Geometry) -> None:
        n, N = geo.size, geo.ncells
        self.geometry = geo
        self.box_rows: int = geo.box_rows
        self.box_cols: int = geo.box_cols
        self.n: int = n
        self.N: int = N
        self.full = (1 << n) - 1
        self.all_cells = (1 << N) - 1
        self.row_bits = (1 << n) - 1
        self.units: tuple[tuple[int, ...], ...] = tuple(tuple(u) for u in geo.units)
        self.unit_names: tuple[str, ...] = tuple(geo.unit_names)
        self.unit_mask = [sum(1 << c for c in u) for u in self.units]
        self.rows = _unit_ids(geo, geo.rows, "row")
        self.columns = _unit_ids(geo, geo.columns, "column")
        self.boxes = _unit_ids(geo, geo.boxes, "box") if geo.boxes else _regions(geo)
        self.lines = self.rows + self.columns
        named = set(self.lines) | set(self.boxes)
        self.others = [u for u in range(len(self.units)) if u not in named]
        self.kind = [OTHER] * len(self.units)
        for ids, kind in ((self.rows, ROW), (self.columns, COLUMN), (self.boxes, BOX)):
            for u in ids:
                self.kind[u] = kind
        self.se_order = self.boxes + self.rows + self.columns + self.others
        holders: list[list[int]] = [[] for _ in range(N)]
        for u in self.se_order:
            for c in self.units[u]:
                holders[c].append(u)
        self.cell_units = [tuple(us) for us in holders]
        box_unit = [-1] * N
        for u in self.boxes:
            for c in self.units[u]:
                box_unit[c] = u
        self.box_unit = box_unit
        self.peers: tuple[tuple[int, ...], ...] = tuple(tuple(p) for p in geo.peers)
        self.peer_mask = [sum(1 << p for p in self.peers[c]) for c in range(N)]
        self.row_of: tuple[int, ...] = tuple(geo.row_of)
        self.col_of: tuple[int, ...] = tuple(geo.col_of)
        inter = []
        for b in self.boxes:
            for line in self.lines:
                m = self.unit_mask[b] & self.unit_mask[line]
                if m:
                    inter.append((b, line, m))
        self.inter = inter
        nunits = len(self.units)
        self.line_segments = [[im for b, line, im in inter if line == u] for u in range(nunits)]
        self.line_boxes = [[(b, im) for b, line, im in inter if line == u] for u in range(nunits)]
        rows = set(self.rows)
        self.box_rows_segs = {b: [(line, im) for bb, line, im in inter if bb == b and line in rows] for b in self.boxes}
        self.box_cols_segs = {
            b: [(line, im) for bb, line, im in inter if bb == b and line not in rows] for b in self.boxes
        }
        self.cell_column = [sum(1 << (d * N + c) for d in range(n)) for c in range(N)]

    @functools.cached_property
    def rectangles(self) -> list[tuple[int, int, int, int]]:
        """Cells ``(r1c1, r1c2, r2c1, r2c2)`` of the rectangles a unique rectangle may sit on.

        A rectangle of two rows and two columns qualifies when every unit holds
        none of its cells or exactly one of its sides (two cells in a row or a
        column of the rectangle): swapping its two digits then keeps every
        unit whole, the deadly pattern. On a classic grid: the rectangles over
        exactly two boxes.
        """
        n = self.n
        rects = []
        for r1 in range(n):
            for r2 in range(r1 + 1, n):
                for c1 in range(n):
                    for c2 in range(c1 + 1, n):
                        cells = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
                        if self._deadly(cells):
                            rects.append(cells)
        return rects

    def _deadly(self, cells: tuple[int, int, int, int]) -> bool:
        a, b, c, d = (1 << cell for cell in cells)
        sides = {a | b, c | d, a | c, b | d}
        whole = a | b | c | d
        for cell in cells:
            for u in self.cell_units[cell]:
                if self.unit_mask[u] & whole not in sides:
                    return False
        return True


_TABLES: dict[int, tuple[Geometry, Tables]] = {}


def tables_of(geo: Geometry) -> Tables:
    """The :class:`Tables` of a geometry, built once per geometry object (kept alive with it)."""
    hit = _TABLES.get(id(geo))
    if hit is None or hit[0] is not geo:
        hit = _TABLES[id(geo)] = (geo, Tables(geo))
    return hit[1]


class Board:
    """The candidates of a grid being solved.

    Attributes:
      t: the tables of the grid's geometry.
      values: ``size * size`` ints row-major, 0 for an empty cell.
      cand: per cell, a bitmask of its candidates (bit ``d - 1`` for digit d);
        0 for a filled cell.
      symbols: how digits are written (empty: 1-9 then A-P).
      memo: results of single-digit searches, keyed by what they depend on
        (the digit's candidate bitboard among others): they stay valid while
        it does not change. A copy starts with an empty memo.
      placed: the bitboard of the filled cells that were placed while solving,
        not given (a solving state's; avoidable rectangles need it): 0 for a
        puzzle, where every filled cell is given.
    """

    __slots__ = ("_pos", "cand", "memo", "placed", "symbols", "t", "values")

    def __init__(self, t: Tables, values: list[int], cand: list[int], symbols: str = "") -> None:
        self.t = t
        self.values = values
        self.cand = cand
        self.symbols = symbols
        self._pos: list[int] | None = None
        self.memo: dict[tuple[object, ...], object] = {}
        self.placed = 0

    @classmethod
    def from_cells(cls, geo: Geometry, cells: Sequence[int], symbols: str = "") -> Board:
        """The board of a puzzle on ``geo``: each empty cell's candidates are the digits no peer holds.

        Args:
          geo: the puzzle's geometry (its units and peers are the rules).
          cells: ``geo.ncells`` ints row-major, 0 = empty, else a digit 1..size.
          symbols: how digits are written (empty: 1-9 then A-P).
        """
        t = tables_of(geo)
        values = list(cells)
        cand = []
        for c, v in enumerate(values):
            if v:
                cand.append(0)
                continue
            m = t.full
            for p in t.peers[c]:
                if values[p]:
                    m &= ~(1 << (values[p] - 1))
            cand.append(m)
        for constraint in geo.constraints:
            masks = getattr(constraint, "masks", None)  # a pencilmark puzzle's candidates (variants.Candidates)
            if masks is not None:
                cand = [m & k for m, k in zip(cand, masks)]
        return cls(t, values, cand, symbols)

    @classmethod
    def from_grid(cls, grid: Grid, geometry: Geometry | None = None) -> Board:
        """The board of a puzzle: each empty cell's candidates are the digits no peer holds.

        ``geometry``: the puzzle's rules; None for the classic geometry of its box shape.
        """
        return cls.from_cells(grid.geometry if geometry is None else geometry, grid.cells, grid.symbols)

    @classmethod
    def from_state(cls, grid: Grid, candidates: Sequence[int]) -> Board:
        """The board of a classic solving state (a HoDoKu library line, ``Variant.state``).

        The classic rules of the grid's box shape; each empty cell's
        candidates are those of ``candidates`` (``size * size`` digit masks,
        bit ``d - 1``) that no peer's digit rules out; a filled cell whose
        mask is more than its digit is marked :attr:`placed` (solved, not
        given: avoidable rectangles need it).
        """
        board = cls.from_cells(grid.geometry, grid.cells, grid.symbols)
        board.cand = [m & k for m, k in zip(board.cand, candidates)]
        board.placed = sum(1 << c for c, v in enumerate(grid.cells) if v and candidates[c] != 1 << (v - 1))
        return board

    @property
    def size(self) -> int:
        """Digits per unit (9)."""
        return self.t.n

    def copy(self) -> Board:
        """An independent copy (values, candidates and placed cells; the memo starts empty)."""
        board = Board(self.t, list(self.values), list(self.cand), self.symbols)
        board.placed = self.placed
        return board

    def solved(self) -> bool:
        """Every cell holds a digit."""
        return all(self.values)

    def pos(self) -> list[int]:
        """Per 0-based digit, the bitboard of the cells where it is a candidate (cached)."""
        if self._pos is None:
            pos = [0] * self.t.n
            for c, m in enumerate(self.cand):
                while m:
                    low = m & -m
                    pos[low.bit_length() - 1] |= 1 << c
                    m ^= low
            self._pos = pos
        return self._pos

    def changed(self) -> None:
        """Forget the cached :meth:`pos` after ``cand`` was changed directly."""
        self._pos = None

    def place(self, cell: int, digit: int) -> None:
        """Write ``digit`` (1-based) in ``cell`` and remove it from the peers' candidates.

        A cached :meth:`pos` is updated, as a new list (a context holding the
        old one keeps seeing the state it was made for).
        """
        self.values[cell] = digit
        m = self.cand[cell]
        self.cand[cell] = 0
        bit = ~(1 << (digit - 1))
        cand = self.cand
        for p in self.t.peers[cell]:
            cand[p] &= bit
        if self._pos is not None:
            pos = self._pos = list(self._pos)
            off = ~(1 << cell)
            while m:
                low = m & -m
                pos[low.bit_length() - 1] &= off
                m ^= low
            pos[digit - 1] &= ~self.t.peer_mask[cell]

    def eliminate(self, cell: int, digit: int) -> None:
        """Remove candidate ``digit`` (1-based) from ``cell`` (a cached :meth:`pos` is updated, as :meth:`place`)."""
        self.cand[cell] &= ~(1 << (digit - 1))
        if self._pos is not None:
            pos = self._pos = list(self._pos)
            pos[digit - 1] &= ~(1 << cell)

    def apply(self, step: Step) -> None:
        """Apply a step's placements, then its eliminations."""
        for cell, digit in step.placements:
            if not self.values[cell]:
                self.place(cell, digit)
        for cell, digit in step.eliminations:
            self.eliminate(cell, digit)

    def to_grid(self) -> Grid:
        """The values as a :class:`Grid` (0 = empty)."""
        t = self.t
        return Grid(tuple(self.values), t.box_rows, t.box_cols, self.symbols)


class Context:
    """What the finders share on one board state: the board, its tables, per-digit bitboards.

    Attributes:
      b: the board; t: its tables; n: digits per unit.
      pos: per 0-based digit, the bitboard of its candidate cells.
      cand, values: the board's candidates and values (the same lists).
      check: the stop hook, called inside long searches.
      sym: how digits 1..n are written (``sym[d0]`` for 0-based d0).
      links: per 0-based digit, its oriented strong links (:mod:`.links`).
      shared: what several finders build from this board state, built once
        (the implication graph of :mod:`.graph` and the native tables made
        from it, keyed by name).
    """

    __slots__ = ("b", "cand", "check", "links", "n", "pos", "shared", "sym", "t", "values")

    def __init__(self, board: Board, check: Check) -> None:
        self.b = board
        self.t = board.t
        self.n = board.t.n
        self.pos = board.pos()
        self.cand = board.cand
        self.values = board.values
        self.check = check
        self.sym = board.symbols or DIGIT_SYMBOLS
        self.links: dict[int, LinkTables] = {}
        self.shared: dict[str, object] = {}

    def d(self, d0: int) -> str:
        """How 0-based digit d0 is written."""
        return self.sym[d0]

    def digit_set(self, mask: int) -> str:
        """A digit mask as ``{1,7}``."""
        return "{" + ",".join(self.sym[d] for d in digits_of(mask)) + "}"

    def unit_name(self, u: int) -> str:
        """The name of unit id ``u`` (``"box 2"``)."""
        return self.t.unit_names[u]

    def step(
        self,
        technique: str,
        se: float,
        *,
        placements: Pairs = (),
        eliminations: Pairs = (),
        cells: tuple[int, ...] = (),
        units: tuple[int, ...] = (),
        digits: tuple[int, ...] = (),
        explanation: str = "",
        focus: str = "",
        nodes: int = 0,
    ) -> Step:
        """A :class:`Step` on this board (``se`` rounded to one decimal)."""
        return Step(
            technique,
            round(se, 1),
            placements=placements,
            eliminations=eliminations,
            cells=cells,
            units=units,
            digits=digits,
            explanation=explanation,
            focus=focus,
            size=self.n,
            symbols=self.b.symbols,
            nodes=nodes,
        )


def elims(pairs: Iterable[tuple[int, int]]) -> Pairs:
    """Sorted unique ``(cell, digit 1-based)`` eliminations from ``(cell, 0-based digit)`` pairs."""
    return tuple(sorted({(c, d + 1) for c, d in pairs}))
