"""Human solving techniques: the logical steps people use, found on a candidate grid.

Pure and synchronous (no I/O). A :class:`Board` holds the candidates of a
grid being solved (one digit bitmask per cell, bit ``d - 1`` for digit d);
each *finder* looks for one technique on it and returns a :class:`Step` --
the technique, the cells, units and digits involved, the placements and the
eliminations -- or ``None``. :func:`next_step` tries the finders from the
easiest up and returns the first step found; :func:`solve_steps` applies
steps until the grid is solved.

**Order and ratings.** The finders run in the order of the Sudoku Explainer
rating scale (SE 1.2.1 by Nicolas Juillerat, as extended by Sukaku Explainer,
github.com/SudokuMonster/SukakuExplainer, with its default technique set),
and every step carries SE's rating of that step (:attr:`Step.se`):

====================================================  =========================
technique                                             SE rating
====================================================  =========================
full house (last empty cell of a unit)                1.0
hidden single in a box / in a row or column           1.2 / 1.5
naked single                                          2.3
pointing / claiming (box-line)                        2.6 / 2.8
naked pair, X-Wing, hidden pair                       3.0, 3.2, 3.4
naked triple, Swordfish, hidden triple                3.6, 3.8, 4.0
skyscraper / two-string kite / turbot fish            4.0 / 4.1 / 4.2 (grouped,
(two strong links on one digit)                       e.g. empty rectangle: 4.3)
XY-Wing, XYZ-Wing                                     4.2, 4.4
unique rectangle types 1, 2, 4 / type 3               4.5 / 4.5 + 0.1 per extra
naked quadruple, Jellyfish, hidden quadruple          5.0, 5.2, 5.4
X-chain of 3 strong links                             5.4 (+0.1..0.3)
WXYZ-Wing (ALS of 3 cells + a bivalue cell)           5.5-5.6
BUG+1 / BUG type 2                                    5.6 / 5.7
X-chain of 4 strong links                             5.8 (+0.1..0.3)
VWXYZ-Wing (ALS of 4 cells + a bivalue cell)          6.2-6.4
X-cycle / XY-cycle (continuous nice loops)            6.5 + length
X-chain (forcing chain on one digit)                  6.6 + length
XY-chain, W-Wing, AIC, nice loop (placing a digit)    7.0 + length
Nishio forcing chains                                 7.5 + length
cell / unit forcing chains                            8.0 + length
dynamic forcing chains                                8.5 + length
====================================================  =========================

Left out of the path on purpose: the UVWXYZ-Wing (6.6; the Sukaku Explainer
that rated the Sudoku Exchange bank did not have it: with it 10 of its 960
diabolical ratings come out 0.5 too low) and loops mixing cells and digits
(SE's 7.0 bidirectional cycles; the AICs reaching the same eliminations rate
the same within 0.1). Both stay available as named finders
(:data:`TECHNIQUES` entries with ``in_path=False``), with the patterns SE
finds under a more general name: skyscraper, two-string kite, turbot fish,
empty rectangle, the unique rectangle types, W-Wing, simple colouring,
X-chain, XY-chain, AIC and nice loop.

Chains are searched the way Sudoku Explainer does (``Chaining.java``): an
implication graph on single candidates -- "on" implies "off" for the other
candidates of the cell and the same digit in the cell's units; "off"
implies "on" for the last other candidate of a cell (Y link) or the last
other place of a digit in a unit (X link) -- searched breadth first from
every candidate, so each chain found is a shortest one; the step taken is
the one of lowest rating, then fewest nodes. A chain's rating grows with its
length by SE's rule (``ChainingHint.getLengthDifficulty``): +0.1 each time
the number of nodes minus 2 passes 4, 6, 8, 12, 16, 24, 32, ... (alternately
x1.5, x4/3). The forcing-chain search meets in the middle: the graph is its
own contrapositive, so a chain from a candidate to its negation shows up as
a node and its negation both reached within half its length (:func:`_meet`).
Cell and unit forcing chains follow the same static graph to the end;
Nishio and dynamic forcing chains follow a working copy of the grid that
loses every candidate turned off, so new singles count along the way.

Past dynamic forcing chains the grid still gets a step: a *search step*
(technique ``"search"``), the digit of the solution in the cell with the
fewest candidates, rated by :mod:`.rating` from the size of the search
needed (clearly labelled, not an SE rating).

**Sizes.** Singles, intersections, naked and hidden subsets and basic fish
work on every grid from 4x4 to 25x25; the other techniques are for 9x9.

**Soundness.** :func:`solve_steps` checks every step against the puzzle's
solution (a placement is the solution's digit, an elimination never removes
it) and stops with :class:`TechniqueError` if one is not.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sudoku_server.errors import PuzzleError
from sudoku_server.sudoku.grid import DIGIT_SYMBOLS, Grid, cell_name, geometry

__all__ = [
    "TECHNIQUES",
    "Board",
    "Step",
    "TechniqueError",
    "find_step",
    "next_step",
    "solve_steps",
]

Check = Callable[[], None]


def _no_check() -> None:
    return None


class TechniqueError(PuzzleError):
    """A step failed the solution check: a bug in a finder (``ERROR internal ...``)."""

    code = "internal"


# --------------------------------------------------------------------------
# Tables: the units of one grid shape as bitboards (bit i = cell i)


class _Tables:
    """Unit and peer bitboards of one box shape, computed once from :func:`grid.geometry`."""

    def __init__(self, box_rows: int, box_cols: int) -> None:
        geo = geometry(box_rows, box_cols)
        n, N = geo.size, geo.ncells
        self.box_rows, self.box_cols = box_rows, box_cols
        self.n, self.N = n, N
        self.full = geo.all_digits
        self.units = geo.units
        self.unit_names = geo.unit_names
        self.unit_mask = [sum(1 << c for c in u) for u in geo.units]
        self.cell_units = [(geo.row_of[c], n + geo.col_of[c], 2 * n + geo.box_of[c]) for c in range(N)]
        self.peers = geo.peers
        self.peer_mask = [sum(1 << p for p in geo.peers[c]) for c in range(N)]
        self.row_of, self.col_of, self.box_of = geo.row_of, geo.col_of, geo.box_of
        # box-line intersections: (box unit, line unit, cells mask)
        inter = []
        for b in range(2 * n, 3 * n):
            for line in range(2 * n):
                m = self.unit_mask[b] & self.unit_mask[line]
                if m:
                    inter.append((b, line, m))
        self.inter = inter
        # per line, the masks of its box segments; per box, its row and column segments
        self.line_segments = [[im for b, line, im in inter if line == u] for u in range(2 * n)]
        self.line_boxes = [[(b, im) for b, line, im in inter if line == u] for u in range(2 * n)]
        self.box_rows_segs = {
            b: [(line, im) for bb, line, im in inter if bb == b and line < n] for b in range(2 * n, 3 * n)
        }
        self.box_cols_segs = {
            b: [(line, im) for bb, line, im in inter if bb == b and line >= n] for b in range(2 * n, 3 * n)
        }
        self.row_bits = (1 << n) - 1
        # every candidate bit of a cell, candidate id = digit * N + cell
        self.cell_column = [sum(1 << (d * N + c) for d in range(n)) for c in range(N)]
        # rectangles of two rows, two columns and two boxes (unique rectangles)
        rects = []
        for r1 in range(n):
            for r2 in range(r1 + 1, n):
                for c1 in range(n):
                    for c2 in range(c1 + 1, n):
                        cells = (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2)
                        if len({self.box_of[c] for c in cells}) == 2:
                            rects.append(cells)
        self.rectangles = rects
        self.all_cells = (1 << N) - 1


@functools.cache
def _tables(box_rows: int, box_cols: int) -> _Tables:
    return _Tables(box_rows, box_cols)


def _popcount(x: int) -> int:
    return bin(x).count("1")


if hasattr(int, "bit_count"):  # Python 3.10+

    def _popcount(x: int) -> int:
        return x.bit_count()


def _cells_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _digits_of(mask: int) -> list[int]:
    """0-based digits of a digit mask."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# --------------------------------------------------------------------------
# The board


class Board:
    """The candidates of a grid being solved.

    Attributes:
      values: ``size * size`` ints row-major, 0 for an empty cell.
      cand: per cell, a bitmask of its candidates (bit ``d - 1`` for digit d);
        0 for a filled cell.
      size, box_rows, box_cols: the shape; symbols: how digits are written.
    """

    __slots__ = ("_pos", "cand", "memo", "symbols", "t", "values")

    def __init__(self, t: _Tables, values: list[int], cand: list[int], symbols: str = "") -> None:
        self.t = t
        self.values = values
        self.cand = cand
        self.symbols = symbols
        self._pos = None
        # results of single-digit searches, keyed by the digit's candidate
        # bitboard: they stay valid while that digit's candidates do not change
        self.memo: dict[tuple, object] = {}

    @classmethod
    def from_grid(cls, grid: Grid) -> Board:
        """The board of a puzzle: each empty cell's candidates are the digits no peer holds."""
        t = _tables(grid.box_rows, grid.box_cols)
        values = list(grid.cells)
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
        return cls(t, values, cand, grid.symbols)

    @property
    def size(self) -> int:
        return self.t.n

    def copy(self) -> Board:
        return Board(self.t, list(self.values), list(self.cand), self.symbols)

    def solved(self) -> bool:
        return all(self.values)

    def pos(self) -> list[int]:
        """Per 0-based digit, the bitboard of the cells where it is a candidate (cached)."""
        if self._pos is None:
            n = self.t.n
            pos = [0] * n
            for c, m in enumerate(self.cand):
                while m:
                    low = m & -m
                    pos[low.bit_length() - 1] |= 1 << c
                    m ^= low
            self._pos = pos
        return self._pos

    def place(self, cell: int, digit: int) -> None:
        """Write ``digit`` (1-based) in ``cell`` and remove it from the peers' candidates."""
        self.values[cell] = digit
        self.cand[cell] = 0
        bit = ~(1 << (digit - 1))
        cand = self.cand
        for p in self.t.peers[cell]:
            cand[p] &= bit
        self._pos = None

    def eliminate(self, cell: int, digit: int) -> None:
        self.cand[cell] &= ~(1 << (digit - 1))
        self._pos = None

    def apply(self, step: Step) -> None:
        """Apply a step's placements, then its eliminations."""
        for cell, digit in step.placements:
            if not self.values[cell]:
                self.place(cell, digit)
        for cell, digit in step.eliminations:
            self.eliminate(cell, digit)

    def to_grid(self) -> Grid:
        t = self.t
        return Grid(tuple(self.values), t.box_rows, t.box_cols, self.symbols)


# --------------------------------------------------------------------------
# Steps


@dataclass(frozen=True)
class Step:
    """One logical step, as data.

    Attributes:
      technique: its name, e.g. ``"hidden single"``, ``"X-Wing"``.
      se: its Sudoku Explainer rating (one decimal).
      placements: ``(cell, digit)`` pairs written by the step (cells 0-based
        row-major, digits 1-based).
      eliminations: ``(cell, digit)`` candidates removed by the step.
      cells: the cells of the pattern; units: its unit indices (rows 0..n-1,
        columns n..2n-1, boxes 2n..3n-1); digits: its digits (1-based).
      explanation: the words between the technique and the effect.
      focus: the unit a nudge points at (``"box 2"``).
      size, symbols: for writing cells and digits.
      nodes: for chains, the number of nodes (SE's complexity).
    """

    technique: str
    se: float
    placements: tuple = ()
    eliminations: tuple = ()
    cells: tuple = ()
    units: tuple = ()
    digits: tuple = ()
    explanation: str = ""
    focus: str = ""
    size: int = 9
    symbols: str = field(default="", compare=False)
    nodes: int = 0

    def _sym(self, digit: int) -> str:
        return (self.symbols or DIGIT_SYMBOLS)[digit - 1]

    def effect(self) -> str:
        """``(r3c5=7)`` for placements, ``remove 4 from r5c3, r9c8; 7 from r1c1`` for eliminations."""
        n = self.size
        parts = []
        if self.placements:
            parts.append("(" + ", ".join(f"{cell_name(c, n)}={self._sym(d)}" for c, d in self.placements) + ")")
        if self.eliminations:
            by_digit: dict[int, list] = {}
            for c, d in self.eliminations:
                by_digit.setdefault(d, []).append(c)
            groups = [
                f"{self._sym(d)} from " + ", ".join(cell_name(c, n) for c in sorted(cs))
                for d, cs in sorted(by_digit.items())
            ]
            parts.append(": remove " + "; ".join(groups))
        if self.placements and self.eliminations:
            return " " + parts[0] + parts[1]
        if self.placements:
            return " " + parts[0]
        return parts[0] if parts else ""

    def describe(self) -> str:
        """The step as one line in words.

        ``hidden single: r3c5 is the only place for 7 in box 2 (r3c5=7)``,
        ``X-Wing on 4 in rows 2 and 7, columns 3 and 8: remove 4 from r5c3, r9c8``.
        """
        return f"{self.technique}{self.explanation}{self.effect()}"

    def nudge(self) -> str:
        """Only the technique and the unit to look at, never the answer: ``hidden single: look at box 2``."""
        if self.focus:
            return f"{self.technique}: look at {self.focus}"
        return f"{self.technique}: look at the whole grid"


def _rc(c: int, n: int) -> str:
    return cell_name(c, n)


def _rcs(cells, n: int) -> str:
    return ", ".join(cell_name(c, n) for c in cells)


def _and_list(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


class _Ctx:
    """What finders share on one board state: the board, its tables, per-digit bitboards."""

    __slots__ = ("b", "cache", "cand", "check", "n", "pos", "sym", "t", "values")

    def __init__(self, board: Board, check: Check) -> None:
        self.b = board
        self.t = board.t
        self.n = board.t.n
        self.pos = board.pos()
        self.cand = board.cand
        self.values = board.values
        self.check = check
        syms = board.symbols or DIGIT_SYMBOLS
        self.sym = syms
        self.cache: dict[tuple, object] = {}

    def d(self, d0: int) -> str:
        """How 0-based digit d0 is written."""
        return self.sym[d0]

    def step(self, technique: str, se: float, **kw) -> Step:
        return Step(technique, round(se, 1), size=self.n, symbols=self.b.symbols, **kw)

    def unit_name(self, u: int) -> str:
        return self.t.unit_names[u]


def _elims(pairs) -> tuple:
    """Sorted unique (cell, digit 1-based) eliminations from (cell, 0-based digit) pairs."""
    return tuple(sorted({(c, d + 1) for c, d in pairs}))


# --------------------------------------------------------------------------
# Singles


def find_full_house(x: _Ctx) -> Step | None:
    """The last empty cell of a unit (boxes, then rows, then columns)."""
    t, values = x.t, x.values
    n = t.n
    for u in list(range(2 * n, 3 * n)) + list(range(2 * n)):
        empty = [c for c in t.units[u] if not values[c]]
        if len(empty) == 1:
            c = empty[0]
            m = x.cand[c]
            if m and not m & (m - 1):
                d = m.bit_length()
                return _placement(
                    x, "full house", 1.0, c, d, u, f": {_rc(c, n)} is the last empty cell in {x.unit_name(u)}"
                )
    return None


def _placement(x: _Ctx, name: str, rating: float, cell: int, digit: int, unit: int, explanation: str) -> Step:
    """The step of a single: ``digit`` (1-based) placed in ``cell`` (0-based, row-major), shown in ``unit``."""
    return x.step(
        name,
        rating,
        placements=((cell, digit),),
        cells=(cell,),
        units=(unit,),
        digits=(digit,),
        explanation=explanation,
        focus=x.unit_name(unit),
    )


def find_hidden_single(x: _Ctx) -> Step | None:
    """A digit with one place left in a unit: boxes first (SE 1.2), then rows and columns (1.5)."""
    t, pos = x.t, x.pos
    n = t.n
    for u in list(range(2 * n, 3 * n)) + list(range(2 * n)):
        um = t.unit_mask[u]
        for d in range(n):
            m = pos[d] & um
            if m and not m & (m - 1):
                c = m.bit_length() - 1
                return _placement(
                    x,
                    "hidden single",
                    1.2 if u >= 2 * n else 1.5,
                    c,
                    d + 1,
                    u,
                    f": {_rc(c, n)} is the only place for {x.d(d)} in {x.unit_name(u)}",
                )
    return None


def find_naked_single(x: _Ctx) -> Step | None:
    """A cell with one candidate left (SE 2.3)."""
    t = x.t
    n = t.n
    for c, m in enumerate(x.cand):
        if m and not m & (m - 1):
            d = m.bit_length()
            box = t.cell_units[c][2]
            return _placement(
                x, "naked single", 2.3, c, d, box, f": {x.d(d - 1)} is the only candidate left in {_rc(c, n)}"
            )
    return None


# --------------------------------------------------------------------------
# Intersections


def find_pointing(x: _Ctx) -> Step | None:
    """A digit whose places in a box all lie in one row or column leaves the rest of that line (SE 2.6)."""
    t, pos = x.t, x.pos
    n = t.n
    for b, line, im in t.inter:
        bm = t.unit_mask[b]
        for d in range(n):
            m = pos[d] & bm
            if m and not m & ~im and m & (m - 1):
                victims = pos[d] & t.unit_mask[line] & ~bm
                if victims:
                    return x.step(
                        "pointing",
                        2.6,
                        eliminations=_elims((c, d) for c in _cells_of(victims)),
                        cells=tuple(_cells_of(m)),
                        units=(b, line),
                        digits=(d + 1,),
                        explanation=f": the {x.d(d)}s of {x.unit_name(b)} are all in {x.unit_name(line)}",
                        focus=x.unit_name(b),
                    )
    return None


def find_claiming(x: _Ctx) -> Step | None:
    """A digit whose places in a row or column all lie in one box leaves the rest of that box (SE 2.8)."""
    t, pos = x.t, x.pos
    n = t.n
    for line in range(2 * n):
        lm = t.unit_mask[line]
        for d in range(n):
            m = pos[d] & lm
            if not m or not m & (m - 1):
                continue
            for b, im in t.line_boxes[line]:
                if m & ~im:
                    continue
                victims = pos[d] & t.unit_mask[b] & ~lm
                if victims:
                    return x.step(
                        "claiming",
                        2.8,
                        eliminations=_elims((c, d) for c in _cells_of(victims)),
                        cells=tuple(_cells_of(m)),
                        units=(line, b),
                        digits=(d + 1,),
                        explanation=f": the {x.d(d)}s of {x.unit_name(line)} are all in {x.unit_name(b)}",
                        focus=x.unit_name(line),
                    )
    return None


# --------------------------------------------------------------------------
# Subsets

_SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quadruple"}
_NAKED_SE = {2: 3.0, 3: 3.6, 4: 5.0}
_HIDDEN_SE = {2: 3.4, 3: 4.0, 4: 5.4}
_FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}
_FISH_SE = {2: 3.2, 3: 3.8, 4: 5.2}


def _unit_order(n: int) -> list[int]:
    """Boxes, then rows, then columns (the order SE scans units in)."""
    return list(range(2 * n, 3 * n)) + list(range(n)) + list(range(n, 2 * n))


def find_naked_subset(x: _Ctx, k: int) -> Step | None:
    """k cells of a unit holding only k digits: those digits leave the unit's other cells."""
    t, cand = x.t, x.cand
    n = t.n
    for u in _unit_order(n):
        cells = [c for c in t.units[u] if cand[c]]
        if len(cells) <= k:
            continue
        small = [c for c in cells if _popcount(cand[c]) <= k]
        if len(small) < k:
            continue
        for combo in itertools.combinations(small, k):
            m = 0
            for c in combo:
                m |= cand[c]
            if _popcount(m) != k:
                continue
            elims = [(c, d) for c in cells if c not in combo for d in _digits_of(cand[c] & m)]
            if elims:
                digits = [x.d(d) for d in _digits_of(m)]
                return x.step(
                    f"naked {_SUBSET_NAMES[k]}",
                    _NAKED_SE[k],
                    eliminations=_elims(elims),
                    cells=combo,
                    units=(u,),
                    digits=tuple(d + 1 for d in _digits_of(m)),
                    explanation=f": {_rcs(combo, n)} hold only {_and_list(digits)} in {x.unit_name(u)}",
                    focus=x.unit_name(u),
                )
    return None


def find_hidden_subset(x: _Ctx, k: int) -> Step | None:
    """k digits with places in only k cells of a unit: those cells lose their other candidates."""
    t, pos, cand = x.t, x.pos, x.cand
    n = t.n
    for u in _unit_order(n):
        um = t.unit_mask[u]
        empty = sum(1 for c in t.units[u] if cand[c])
        if empty <= k:
            continue
        digs = []
        for d in range(n):
            m = pos[d] & um
            if m and _popcount(m) <= k:
                digs.append((d, m))
        if len(digs) < k:
            continue
        for combo in itertools.combinations(digs, k):
            m = 0
            dm = 0
            for d, pm in combo:
                m |= pm
                dm |= 1 << d
            if _popcount(m) != k:
                continue
            cells = _cells_of(m)
            elims = [(c, d) for c in cells for d in _digits_of(cand[c] & ~dm)]
            if elims:
                digits = [x.d(d) for d, _ in combo]
                return x.step(
                    f"hidden {_SUBSET_NAMES[k]}",
                    _HIDDEN_SE[k],
                    eliminations=_elims(elims),
                    cells=tuple(cells),
                    units=(u,),
                    digits=tuple(d + 1 for d, _ in combo),
                    explanation=f": {_and_list(digits)} go only in {_rcs(cells, n)} in {x.unit_name(u)}",
                    focus=x.unit_name(u),
                )
    return None


def find_fish(x: _Ctx, k: int) -> Step | None:
    """Basic fish: k rows (columns) whose places for a digit lie in k columns (rows)."""
    t, pos = x.t, x.pos
    n = t.n
    rb = t.row_bits
    for d in range(n):
        p = pos[d]
        if not p:
            continue
        rows = [(p >> (r * n)) & rb for r in range(n)]
        cols = [0] * n
        for r, bits in enumerate(rows):
            while bits:
                low = bits & -bits
                cols[low.bit_length() - 1] |= 1 << r
                bits ^= low
        for by_rows, lines in ((True, rows), (False, cols)):
            cand_lines = [(i, m) for i, m in enumerate(lines) if m and _popcount(m) <= k]
            if len(cand_lines) < k:
                continue
            for combo in itertools.combinations(cand_lines, k):
                cover = 0
                for _, m in combo:
                    cover |= m
                if _popcount(cover) != k:
                    continue
                base = [i for i, _ in combo]
                bmask = sum(1 << i for i in base)
                elims = []
                for j in _digits_of(cover):
                    for i in _digits_of((cols[j] if by_rows else rows[j]) & ~bmask):
                        cell = i * n + j if by_rows else j * n + i
                        elims.append((cell, d))
                if elims:
                    cover_list = _digits_of(cover)
                    if by_rows:
                        bases = "rows " + _and_list([str(i + 1) for i in base])
                        covers = "columns " + _and_list([str(j + 1) for j in cover_list])
                        units = tuple(base) + tuple(n + j for j in cover_list)
                    else:
                        bases = "columns " + _and_list([str(i + 1) for i in base])
                        covers = "rows " + _and_list([str(j + 1) for j in cover_list])
                        units = tuple(n + i for i in base) + tuple(cover_list)
                    cells = tuple(
                        sorted(
                            (i * n + j if by_rows else j * n + i)
                            for i in base
                            for j in cover_list
                            if (p >> (i * n + j if by_rows else j * n + i)) & 1
                        )
                    )
                    return x.step(
                        _FISH_NAMES[k],
                        _FISH_SE[k],
                        eliminations=_elims(elims),
                        cells=cells,
                        units=units,
                        digits=(d + 1,),
                        explanation=f" on {x.d(d)} in {bases}, {covers}",
                        focus=x.unit_name(units[0]),
                    )
    return None


# --------------------------------------------------------------------------
# Single-digit chains of strong links (Sukaku Explainer's StrongLinks)

#: Base rating by number of strong links (Sukaku Explainer StrongLinksHint.baseRatings).
_LINKS_SE = {2: 4.0, 3: 5.4, 4: 5.8}


def _group_name(cells: Sequence[int], n: int) -> str:
    """One cell as ``r1c2``; a group in one row as ``r1c23``, in one column as ``r12c3``."""
    if len(cells) == 1:
        return cell_name(cells[0], n)
    rows = sorted({c // n + 1 for c in cells})
    cols = sorted({c % n + 1 for c in cells})
    return "r" + "".join(map(str, rows)) + "c" + "".join(map(str, cols))


def _common_peers(t: _Tables, mask: int) -> int:
    """Cells that see every cell of ``mask`` (not in it)."""
    m = t.all_cells
    for c in _cells_of(mask):
        m &= t.peer_mask[c]
    return m & ~mask


def _strong_links(x: _Ctx, d: int) -> list:
    """Strong links of digit d: (unit, group A, group B, grouped) with A, B cell masks.

    Plain links are units with two places. Grouped links (Sukaku Explainer's
    empty rectangles and line groups): a line whose places lie in two box
    segments; a box whose places lie in two rows, in two columns, or in one
    row and one column (the cross of an empty rectangle).
    """
    t = x.t
    n = t.n
    p = x.pos[d]
    links = []
    for u in range(3 * n):
        m = p & t.unit_mask[u]
        cnt = _popcount(m)
        if cnt < 2:
            continue
        if cnt == 2:
            low = m & -m
            links.append((u, low, m ^ low, False))
            continue
        if cnt > 6:
            continue
        if u < 2 * n:  # a line: split by boxes
            groups = [m & im for im in t.line_segments[u] if m & im]
            if len(groups) == 2:
                links.append((u, groups[0], groups[1], True))
            continue
        # a box: two rows, two columns, or a cross
        rows = t.box_rows_segs[u]
        cols = t.box_cols_segs[u]
        for segs in (rows, cols):
            parts = [m & im for _, im in segs if m & im]
            if len(parts) == 2:
                links.append((u, parts[0], parts[1], True))
        for rl, rm in rows:
            if not m & rm:
                continue
            for cl, cm in cols:
                if m & ~(rm | cm):
                    continue
                heart = rm & cm
                a, bb = m & rm & ~heart, m & cm & ~heart
                if m & heart:
                    variants = ((a | heart, bb), (a, bb | heart))
                else:
                    variants = ((a, bb),)
                for ga, gb in variants:
                    if ga and gb and (_popcount(ga) > 1 or _popcount(gb) > 1):
                        links.append((u, ga, gb, True))
    return links


def _link_kind(u: int, n: int) -> int:
    return 0 if u >= 2 * n else (1 if u < n else 2)


def _links_se(k: int, kinds: Sequence[int], grouped: bool) -> float:
    """Sukaku Explainer's rating of a chain of k strong links on one digit."""
    base = _LINKS_SE[k]
    if grouped:
        return base + 0.3
    has_box = 0 in kinds
    lines = {kd for kd in kinds if kd}
    if not has_box and len(lines) == 1:
        return base
    if has_box and len(lines) == 2:
        return base + 0.2
    return base + 0.1


def _links_name(k: int, n: int, chain, kinds, grouped: bool) -> str:
    if k > 2:
        return "X-chain"
    if grouped:
        return "empty rectangle" if any(o[4] and o[1] >= 2 * n for o in chain) else "grouped turbot fish"
    if 0 not in kinds and len(set(kinds)) == 1:
        return "skyscraper"
    if 0 not in kinds:
        return "two-string kite"
    return "turbot fish"


def _oriented_links(x: _Ctx, d: int):
    """Digit d's strong links both ways, with what each end sees and which links may follow (cached)."""
    cache = x.cache.get(("links", d))
    if cache is not None:
        return cache
    t = x.t
    n = t.n
    p = x.pos[d]
    links = _strong_links(x, d)
    oriented = []
    for i, (u, a, b, grouped) in enumerate(links):
        oriented.append((i, u, a, b, grouped))
        oriented.append((i, u, b, a, grouped))
    peers: dict[int, int] = {}

    def seen(g):
        r = peers.get(g)
        if r is None:
            r = peers[g] = _common_peers(t, g)
        return r

    start_sees = [seen(o[2]) & p for o in oriented]
    end_sees = [seen(o[3]) for o in oriented]
    # links starting at one cell, by that cell; links starting at a group;
    # links whose end sees a cell
    single_start: dict[int, int] = {}
    group_start: dict[int, list] = {}
    ends_seeing: dict[int, int] = {}
    for j, o in enumerate(oriented):
        st = o[2]
        if st & (st - 1):
            group_start.setdefault((st & -st).bit_length() - 1, []).append((j, st))
        else:
            c = st.bit_length() - 1
            single_start[c] = single_start.get(c, 0) | 1 << j
        m = end_sees[j] & p
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            ends_seeing[c] = ends_seeing.get(c, 0) | 1 << j
    nxt = []
    for i, o in enumerate(oriented):
        se_end = end_sees[i]
        m = 0
        cells = se_end & p
        while cells:
            low = cells & -cells
            cells ^= low
            c = low.bit_length() - 1
            m |= single_start.get(c, 0)
            for j, st in group_start.get(c, ()):
                if not st & ~se_end:
                    m |= 1 << j
        nxt.append(m & ~(1 << i))
    cache = x.cache[("links", d)] = (oriented, start_sees, end_sees, nxt, ends_seeing)
    return cache


def _strong_links_of_digit(x: _Ctx, d: int, k: int, name: str | None):
    """The best chain of k strong links on digit d: (key, d, links, victims, grouped, kinds) or None."""
    n = x.t.n
    best = None
    oriented, start_sees, end_sees, nxt, ends_seeing = _oriented_links(x, d)
    m = len(oriented)
    if m < 2 * k:
        return None
    for i in range(m):
        si = start_sees[i]
        if not si:
            continue
        # links that may end a chain from i: they share a victim with i's start
        ends = 0
        mm = si
        while mm:
            low = mm & -mm
            ends |= ends_seeing.get(low.bit_length() - 1, 0)
            mm ^= low
        if not ends:
            continue
        reach = nxt[i]
        for _ in range(k - 2):
            r = 0
            mm = reach
            while mm:
                low = mm & -mm
                r |= nxt[low.bit_length() - 1]
                mm ^= low
            reach = r
        if not reach & ends:
            continue
        # enumerate the chains from i
        o1 = oriented[i]
        stack = [((i,), o1[2] | o1[3], nxt[i])]
        while stack:
            chain, used, cand_next = stack.pop()
            if len(chain) == k - 1:
                mm = cand_next & ends
            else:
                mm = cand_next
            while mm:
                low = mm & -mm
                j = low.bit_length() - 1
                mm ^= low
                oj = oriented[j]
                if oj[2] & used or oj[3] & used or any(oriented[q][0] == oj[0] for q in chain):
                    continue
                ch = chain + (j,)
                if len(ch) < k:
                    stack.append((ch, used | oj[2] | oj[3], nxt[j]))
                    continue
                victims = si & end_sees[j] & ~(used | oj[2] | oj[3])
                if not victims:
                    continue
                links = [oriented[q] for q in ch]
                kinds = [_link_kind(o[1], n) for o in links]
                grouped = any(o[4] for o in links)
                if name is not None and _links_name(k, n, links, kinds, grouped) != name:
                    continue
                se = round(_links_se(k, kinds, grouped), 1)
                key = (se, -_popcount(victims))
                if best is None or key < best[0]:
                    best = (key, d, tuple(links), victims, grouped, kinds)
    return best


def find_strong_links(x: _Ctx, k: int, name: str | None = None) -> Step | None:
    """A chain of k strong links on one digit, weakly linked end to start.

    Either the chain's first or last group holds the digit, so a cell that
    sees both loses it. Two links: skyscraper, two-string kite, turbot fish,
    empty rectangle; three or four: X-chain. Chains are only enumerated from
    a first link whose k-step reach holds a last link sharing a victim with it.
    The best chain of each digit is remembered while that digit's candidates
    stay the same (:attr:`Board.memo`).
    """
    t = x.t
    n = t.n
    best = None
    memo = x.b.memo
    for d in range(x.n):
        x.check()
        mk = ("links", k, name, d, x.pos[d])
        if mk in memo:
            hit = memo[mk]
        else:
            hit = memo[mk] = _strong_links_of_digit(x, d, k, name)
        if hit is not None and (best is None or hit[0] < best[0]):
            best = hit
    if best is None:
        return None
    (se, _), d, chain, victims, grouped, kinds = best
    parts = []
    for o in chain:
        parts.append(_group_name(_cells_of(o[2]), n) + "=" + _group_name(_cells_of(o[3]), n))
    text = "-".join(parts)
    name = _links_name(k, n, chain, kinds, grouped)
    if k == 2:
        explanation = f" on {x.d(d)}: {text}"
    else:
        explanation = f" on {x.d(d)} ({k} strong links): {text}"
    cells = sorted({c for o in chain for c in _cells_of(o[2] | o[3])})
    return x.step(
        name,
        se,
        eliminations=_elims((c, d) for c in _cells_of(victims)),
        cells=tuple(cells),
        units=tuple(o[1] for o in chain),
        digits=(d + 1,),
        explanation=explanation,
        focus=x.unit_name(chain[0][1]),
    )


# --------------------------------------------------------------------------
# Wings


def _digit_set(x: _Ctx, mask: int) -> str:
    return "{" + ",".join(x.d(d) for d in _digits_of(mask)) + "}"


def find_xy_wing(x: _Ctx) -> Step | None:
    """Pivot {x,y} seeing wings {x,z} and {y,z}: z leaves the cells seeing both wings (SE 4.2)."""
    t, cand, pos = x.t, x.cand, x.pos
    n = t.n
    bival = [c for c in range(t.N) if cand[c] and _popcount(cand[c]) == 2]
    bmask = sum(1 << c for c in bival)
    for pv in bival:
        pm = cand[pv]
        wings = [w for w in _cells_of(t.peer_mask[pv] & bmask) if _popcount(cand[w] & pm) == 1]
        for i, w1 in enumerate(wings):
            for w2 in wings[i + 1 :]:
                if cand[w1] & cand[w2] & pm:
                    continue  # same pivot digit
                z = cand[w1] & cand[w2] & ~pm
                if not z or cand[w1] | cand[w2] != pm | z:
                    continue
                zd = z.bit_length() - 1
                victims = pos[zd] & t.peer_mask[w1] & t.peer_mask[w2] & ~(1 << pv)
                if victims:
                    return x.step(
                        "XY-Wing",
                        4.2,
                        eliminations=_elims((c, zd) for c in _cells_of(victims)),
                        cells=(pv, w1, w2),
                        digits=tuple(d + 1 for d in _digits_of(pm | z)),
                        explanation=(
                            f": pivot {_rc(pv, n)} {_digit_set(x, pm)} with wings "
                            f"{_rc(w1, n)} {_digit_set(x, cand[w1])} and {_rc(w2, n)} {_digit_set(x, cand[w2])}"
                        ),
                        focus=x.unit_name(t.cell_units[pv][2]),
                    )
    return None


def find_xyz_wing(x: _Ctx) -> Step | None:
    """Pivot {x,y,z} seeing wings {x,z} and {y,z}: z leaves the cells seeing all three (SE 4.4)."""
    t, cand, pos = x.t, x.cand, x.pos
    n = t.n
    bmask = sum(1 << c for c in range(t.N) if cand[c] and _popcount(cand[c]) == 2)
    for pv in range(t.N):
        pm = cand[pv]
        if not pm or _popcount(pm) != 3:
            continue
        wings = [w for w in _cells_of(t.peer_mask[pv] & bmask) if cand[w] & ~pm == 0]
        for i, w1 in enumerate(wings):
            for w2 in wings[i + 1 :]:
                if cand[w1] == cand[w2]:
                    continue
                z = cand[w1] & cand[w2]
                zd = z.bit_length() - 1
                victims = pos[zd] & t.peer_mask[pv] & t.peer_mask[w1] & t.peer_mask[w2]
                if victims:
                    return x.step(
                        "XYZ-Wing",
                        4.4,
                        eliminations=_elims((c, zd) for c in _cells_of(victims)),
                        cells=(pv, w1, w2),
                        digits=tuple(d + 1 for d in _digits_of(pm)),
                        explanation=(
                            f": pivot {_rc(pv, n)} {_digit_set(x, pm)} with wings "
                            f"{_rc(w1, n)} {_digit_set(x, cand[w1])} and {_rc(w2, n)} {_digit_set(x, cand[w2])}"
                        ),
                        focus=x.unit_name(t.cell_units[pv][2]),
                    )
    return None


# --------------------------------------------------------------------------
# Uniqueness: unique rectangles and BUG


def find_unique_rectangle(x: _Ctx, types: Sequence[int] = (1, 2, 3, 4)) -> Step | None:
    """Unique rectangle types 1 to 4 (SE 4.5; type 3 4.5 + 0.1 per digit of its naked set past one).

    Four cells in two rows, two columns and two boxes that all hold digits
    {a,b} would allow two solutions if they held nothing else; the puzzle
    has one, so the extra candidates must break the pattern.
    """
    t, cand, pos = x.t, x.cand, x.pos
    n = t.n
    found = []
    for cells in t.rectangles:
        c0, c1, c2, c3 = cells
        common = cand[c0] & cand[c1] & cand[c2] & cand[c3]
        if not common or not (common & (common - 1)):
            continue
        ms = (cand[c0], cand[c1], cand[c2], cand[c3])
        for a, b in itertools.combinations(_digits_of(common), 2):
            pm = (1 << a) | (1 << b)
            extra = [c for c, m in zip(cells, ms) if m != pm]
            if not extra:
                continue
            hit = _ur_types(x, cells, extra, a, b, pm, types)
            if hit:
                found.append(hit)
    if not found:
        return None
    found.sort(key=lambda h: h[0])
    (se, typ), cells, a, b, elims, note = found[0]
    return x.step(
        f"unique rectangle type {typ}",
        se,
        eliminations=_elims(elims),
        cells=cells,
        digits=(a + 1, b + 1),
        explanation=f" on {x.d(a)} and {x.d(b)} in {_rcs(cells, n)}{note}",
        focus=x.unit_name(t.cell_units[cells[0]][2]),
    )


def _ur_types(x: _Ctx, cells, extra, a, b, pm, types=(1, 2, 3, 4)):
    t, cand, pos = x.t, x.cand, x.pos
    n = t.n
    if len(extra) == 1 and 1 in types:
        c = extra[0]
        return ((4.5, 1), cells, a, b, [(c, a), (c, b)], "")
    ext = 0
    for c in extra:
        ext |= cand[c] & ~pm
    # type 2: one extra digit shared by every extra cell
    if 2 in types and _popcount(ext) == 1 and all(cand[c] == pm | ext for c in extra):
        z = ext.bit_length() - 1
        emask = sum(1 << c for c in extra)
        victims = pos[z] & _common_peers(t, emask)
        if victims:
            return ((4.5, 2), cells, a, b, [(c, z) for c in _cells_of(victims)], f" (extra {x.d(z)})")
    if len(extra) != 2:
        return None
    e1, e2 = extra
    shared = set(t.cell_units[e1]) & set(t.cell_units[e2])
    emask = (1 << e1) | (1 << e2)
    # type 4: one UR digit confined to the two extra cells in a shared unit
    for u in sorted(shared) if 4 in types else ():
        um = t.unit_mask[u]
        for keep, drop in ((a, b), (b, a)):
            if pos[keep] & um & ~emask == 0:
                return (
                    (4.5, 4),
                    cells,
                    a,
                    b,
                    [(e1, drop), (e2, drop)],
                    f" ({x.d(keep)} is locked in {_rc(e1, n)}, {_rc(e2, n)} in {x.unit_name(u)})",
                )
    # type 3: the extra digits form a naked set with other cells of a shared unit
    best = None
    for u in sorted(shared) if 3 in types else ():
        others = [c for c in t.units[u] if cand[c] and c not in (e1, e2) and c not in cells]
        for k in range(1, 4):
            for combo in itertools.combinations(others, k):
                m = ext
                for c in combo:
                    m |= cand[c]
                if _popcount(m) != k + 1:
                    continue
                elims = [
                    (c, d)
                    for c in t.units[u]
                    if cand[c] and c not in combo and c not in (e1, e2)
                    for d in _digits_of(cand[c] & m)
                ]
                if elims:
                    se = round(4.5 + (_popcount(m) - 1) * 0.1, 1)
                    hit = (
                        (se, 3),
                        cells,
                        a,
                        b,
                        elims,
                        f" (extras {_and_list([x.d(d) for d in _digits_of(ext)])} with {_rcs(combo, n)} "
                        f"make a naked set in {x.unit_name(u)})",
                    )
                    if best is None or hit[0] < best[0]:
                        best = hit
            if best:
                break
    return best


def find_bug(x: _Ctx) -> Step | None:
    """Bivalue universal grave: BUG+1 (SE 5.6) and BUG type 2 (5.7).

    If every empty cell held two candidates and every digit two places per
    unit, the grid would have two solutions; the cells with more candidates
    must keep one of their extra ("BUG") digits.
    """
    t, cand, pos = x.t, x.cand, x.pos
    n = t.n
    bugs = [c for c in range(t.N) if cand[c] and _popcount(cand[c]) > 2]
    if not bugs or len(bugs) > 6:
        return None
    if any(cand[c] and _popcount(cand[c]) < 2 for c in range(t.N)):
        return None
    extras = {}
    for c in bugs:
        e = 0
        for d in _digits_of(cand[c]):
            if any(_popcount(pos[d] & t.unit_mask[u]) > 2 for u in t.cell_units[c]):
                e |= 1 << d
        if _popcount(cand[c] & ~e) != 2:
            return None
        extras[c] = e
    # after removing the BUG digits every digit has 0 or 2 places in every unit
    reduced = list(pos)
    for c, e in extras.items():
        for d in _digits_of(e):
            reduced[d] &= ~(1 << c)
    for d in range(n):
        for u in range(3 * n):
            if _popcount(reduced[d] & t.unit_mask[u]) not in (0, 2):
                return None
    if len(bugs) == 1:
        c = bugs[0]
        e = extras[c]
        if _popcount(e) == 1:
            d = e.bit_length() - 1
            return x.step(
                "BUG+1",
                5.6,
                placements=((c, d + 1),),
                cells=(c,),
                digits=(d + 1,),
                explanation=f": without {x.d(d)} in {_rc(c, n)} every cell would hold two candidates",
                focus=x.unit_name(t.cell_units[c][2]),
            )
        return x.step(
            "BUG+1",
            5.6,
            eliminations=_elims((c, d) for d in _digits_of(cand[c] & ~e)),
            cells=(c,),
            explanation=f": {_rc(c, n)} must keep one of {_and_list([x.d(d) for d in _digits_of(e)])}",
            focus=x.unit_name(t.cell_units[c][2]),
        )
    allext = 0
    for e in extras.values():
        allext |= e
    if _popcount(allext) == 1 and all(extras[c] == allext for c in bugs):
        d = allext.bit_length() - 1
        bm = sum(1 << c for c in bugs)
        victims = pos[d] & _common_peers(t, bm)
        if victims:
            return x.step(
                "BUG type 2",
                5.7,
                eliminations=_elims((c, d) for c in _cells_of(victims)),
                cells=tuple(bugs),
                digits=(d + 1,),
                explanation=f": one of {_rcs(bugs, n)} must be {x.d(d)}",
                focus=x.unit_name(t.cell_units[bugs[0]][2]),
            )
    return None


# --------------------------------------------------------------------------
# Wings on an almost locked set (Sukaku Explainer's WXYZ-, VWXYZ-, UVWXYZ-Wings)

_ALS_WING_NAMES = {3: "WXYZ-Wing", 4: "VWXYZ-Wing", 5: "UVWXYZ-Wing"}


def _als_wing_se(k: int, biggest: int) -> float:
    """Sukaku Explainer's ratings (WXYZWingHint, VWXYZWingHint, UVWXYZWingHint)."""
    if k == 3:
        return 5.5 + ((4 - 3) - abs(3 - biggest)) * 0.1
    if k == 4:
        return 6.2 + ((5 - 3) - abs(3 - biggest)) * 0.1
    return 6.6


def _sets_of(cells, cand, k: int, digits: int):
    """k-cell combinations of ``cells`` whose candidates span exactly ``digits`` digits (pruned as built)."""
    out = []
    masks = [cand[c] for c in cells]
    for combo in itertools.combinations(range(len(cells)), k):
        m = 0
        for i in combo:
            m |= masks[i]
        if _popcount(m) == digits:
            out.append((tuple(cells[i] for i in combo), m))
    return out


def find_als_wing(x: _Ctx, k: int) -> Step | None:
    """k cells of one unit holding k+1 digits (an almost locked set) and a bivalue cell {x,z}.

    If every ALS cell with x sees the bivalue cell, x cannot be in both, so
    either the bivalue cell is z or the ALS locks z into its cells: z leaves
    every cell that sees the bivalue cell and all the ALS cells holding z.
    """
    t, cand, pos = x.t, x.cand, x.pos
    n = t.n
    by_pair: dict[int, list] = {}
    for c in range(t.N):
        m = cand[c]
        if m and _popcount(m) == 2:
            by_pair.setdefault(m, []).append(c)
    if not by_pair:
        return None
    best = None
    seen_sets = set()
    for u in _unit_order(n):
        x.check()
        cells = [c for c in t.units[u] if cand[c] and 2 <= _popcount(cand[c]) <= k + 1]
        if len(cells) < k:
            continue
        for combo, m in _sets_of(cells, cand, k, k + 1):
            ys = []
            ds = _digits_of(m)
            for i1 in range(len(ds)):
                for i2 in range(i1 + 1, len(ds)):
                    cs = by_pair.get((1 << ds[i1]) | (1 << ds[i2]))
                    if cs:
                        ys.extend(y for y in cs if y not in combo)
            if not ys or combo in seen_sets:
                continue
            seen_sets.add(combo)
            amask = sum(1 << c for c in combo)
            holders = {d: sum(1 << c for c in combo if cand[c] >> d & 1) for d in _digits_of(m)}
            sees_all = {}
            biggest = max(_popcount(cand[c]) for c in combo)
            for y in ys:
                ym = cand[y]
                for xd, zd in (_digits_of(ym), _digits_of(ym)[::-1]):
                    if holders[xd] & ~t.peer_mask[y]:
                        continue  # x is not restricted: some ALS cell with x misses y
                    sz = sees_all.get(zd)
                    if sz is None:
                        sz = sees_all[zd] = _common_peers(t, holders[zd])
                    victims = pos[zd] & sz & t.peer_mask[y] & ~amask
                    if not victims:
                        continue
                    se = round(_als_wing_se(k, biggest), 1)
                    hit = (se, -_popcount(victims))
                    if best is None or hit < best[0]:
                        best = (hit, combo, y, xd, zd, victims, m, u)
    if best is None:
        return None
    (se, _), combo, y, xd, zd, victims, m, u = best
    return x.step(
        _ALS_WING_NAMES[k],
        se,
        eliminations=_elims((c, zd) for c in _cells_of(victims)),
        cells=tuple(combo) + (y,),
        units=(u,),
        digits=tuple(d + 1 for d in _digits_of(m)),
        explanation=(
            f": {_rcs(combo, n)} hold {_and_list([x.d(d) for d in _digits_of(m)])} in {x.unit_name(u)}, "
            f"{_rc(y, n)} {_digit_set(x, cand[y])} sees every {x.d(xd)} of them"
        ),
        focus=x.unit_name(u),
    )


# --------------------------------------------------------------------------
# Chains (Sudoku Explainer's Chaining.java, static level: cycles and forcing chains)
#
# A node is a candidate id k = digit * N + cell (digit 0-based, N cells), "on"
# (the candidate is the cell's digit) or "off". Sets of nodes are ints over
# candidate ids. The implications of the current grid:
#   on(k)  -> off: the same digit in the cell's units (X and Y),
#                  the other candidates of the cell (Y only);
#   off(k) -> on:  the other place of the digit in a unit with two places (X),
#                  the other candidate of a bivalue cell (Y).


def _length_bonus(length: int) -> float:
    """SE's ChainingHint.getLengthDifficulty, ``length`` = nodes - 2."""
    added = 0.0
    ceil = 4
    odd = False
    while length > ceil:
        added += 0.1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return added


class _Graph:
    """The implication graph of one board state (lists indexed by candidate id)."""

    __slots__ = ("N", "allc", "ids", "n", "offon_x", "offon_xy", "offon_y", "onoff_x", "onoff_xy")

    def __init__(self, x: _Ctx) -> None:
        t, pos, cand = x.t, x.pos, x.cand
        n, N = t.n, t.N
        self.N, self.n = N, n
        NC = n * N
        allc = 0
        for d in range(n):
            allc |= pos[d] << (d * N)
        self.allc = allc
        onoff_x = [0] * NC
        onoff_xy = [0] * NC
        offon_x = [0] * NC
        offon_y = [0] * NC
        ids = []
        peer_mask, cell_column, unit_mask = t.peer_mask, t.cell_column, t.unit_mask
        for c in range(N):
            m = cand[c]
            while m:
                low = m & -m
                d = low.bit_length() - 1
                m ^= low
                k = d * N + c
                ids.append(k)
                sp = (peer_mask[c] & pos[d]) << (d * N)
                onoff_x[k] = sp
                onoff_xy[k] = sp | (cell_column[c] & allc & ~(1 << k))
        for d in range(n):
            p = pos[d]
            if not p:
                continue
            sh = d * N
            for um in unit_mask:
                m = p & um
                if m and _popcount(m) == 2:
                    low = m & -m
                    a = low.bit_length() - 1
                    b = (m ^ low).bit_length() - 1
                    offon_x[sh + a] |= 1 << (sh + b)
                    offon_x[sh + b] |= 1 << (sh + a)
        for c in range(N):
            m = cand[c]
            if m and _popcount(m) == 2:
                low = m & -m
                a = low.bit_length() - 1
                b = (m ^ low).bit_length() - 1
                offon_y[a * N + c] = 1 << (b * N + c)
                offon_y[b * N + c] = 1 << (a * N + c)
        self.onoff_x, self.onoff_xy = onoff_x, onoff_xy
        self.offon_x, self.offon_y = offon_x, offon_y
        self.offon_xy = [a | b for a, b in zip(offon_x, offon_y)]
        self.ids = ids  # candidate ids in SE's order (cell, then digit)


def _spread(front: int, table: list) -> int:
    nxt = 0
    while front:
        low = front & -front
        nxt |= table[low.bit_length() - 1]
        front ^= low
    return nxt


def _bfs_layers(src: int, start_on: bool, onoff: list, offon: list, limit: int = 1 << 30, stop_absurd: bool = False):
    """Layers of the breadth-first implication search from src: list of (is_on, set)."""
    bit = 1 << src
    layers = [(start_on, bit)]
    vis = [0, 0]  # off, on
    vis[1 if start_on else 0] = bit
    front = bit
    phase_on = start_on
    nodes = 1
    while front and nodes < limit:
        if phase_on:
            nxt = _spread(front, onoff) & ~vis[0]
            if stop_absurd and nxt & vis[1]:
                layers.append((False, nxt))
                vis[0] |= nxt
                break
            vis[0] |= nxt
        else:
            nxt = _spread(front, offon) & ~vis[1]
            if stop_absurd and nxt & vis[0]:
                layers.append((True, nxt))
                vis[1] |= nxt
                break
            vis[1] |= nxt
        nodes += 1
        if not nxt:
            break
        layers.append((not phase_on, nxt))
        front = nxt
        phase_on = not phase_on
    return layers, vis[1], vis[0]


def _path_to(layers, target_on: bool, target: int, onoff: list, offon: list) -> list:
    """A shortest implication path (list of (id, on)) from the layers' source to the target node."""
    # find the target's layer
    idx = None
    for i, (is_on, s) in enumerate(layers):
        if is_on == target_on and s >> target & 1:
            idx = i
            break
    if idx is None:
        return []
    path = [(target, target_on)]
    cur, cur_on = target, target_on
    for i in range(idx - 1, -1, -1):
        is_on, s = layers[i]
        table = onoff if is_on else offon
        m = s
        while m:
            low = m & -m
            k = low.bit_length() - 1
            m ^= low
            if table[k] >> cur & 1:
                path.append((k, is_on))
                cur, cur_on = k, is_on
                break
    path.reverse()
    return path


def _node_text(k: int, N: int, n: int, sym: str) -> str:
    return f"({sym[k // N]}){cell_name(k % N, n)}"


def _eureka(path, N, n, sym) -> str:
    """A chain as alternating links: ``(7)r1c2=(7)r1c8-(3)r1c8=...``."""
    out = []
    for i, (k, on) in enumerate(path):
        if i:
            # off -> on is a strong link (=), on -> off a weak link (-)
            out.append("=" if on else "-")
        out.append(_node_text(k, N, n, sym))
    return "".join(out)


def _single_digit_text(path, N, n) -> str:
    return "".join(("" if i == 0 else ("=" if on else "-")) + cell_name(k % N, n) for i, (k, on) in enumerate(path))


def _cycle_eliminations(x: _Ctx, g: _Graph, path) -> list:
    """SE's cycle rule: a candidate outside the loop's cells seeing an on node and an off node of its digit."""
    t = x.t
    N = g.N
    cells = 0
    for k, _ in path:
        cells |= 1 << (k % N)
    fwd = {}
    back = {}
    for k, on in path:
        d, c = divmod(k, N)
        tgt = fwd if on else back
        tgt[d] = tgt.get(d, 0) | t.peer_mask[c]
    out = []
    for d, f in fwd.items():
        v = f & back.get(d, 0) & x.pos[d] & ~cells
        out.extend((c, d) for c in _cells_of(v))
    return out


def _find_cycle(x: _Ctx, g: _Graph, src: int, onoff: list, offon: list, limit: int):
    """The shortest worthwhile continuous loop through src on: (nodes, path) or None."""
    layers, vis_on, vis_off = _bfs_layers(src, True, onoff, offon, limit)
    closers = offon[src]  # off(t) -> on(src) iff off(src) -> on(t)
    if not closers:
        return None
    best = None
    # on layers at even indexes; the loop closes with on(q) -> off(t) -> on(src)
    for i in range(2, len(layers), 2):
        is_on, s = layers[i]
        nodes = i + 2  # nodes of the loop: path to q (i + 1) plus off(t)
        if nodes > limit:
            break
        tm = closers
        while tm:
            low = tm & -tm
            tt = low.bit_length() - 1
            tm ^= low
            qs = onoff[tt] & s
            while qs:
                lq = qs & -qs
                q = lq.bit_length() - 1
                qs ^= lq
                path = _path_to(layers[: i + 1], True, q, onoff, offon)
                if not path or any(k == tt and not on for k, on in path):
                    continue
                loop = path + [(tt, False)]
                elims = _cycle_eliminations(x, g, loop)
                if elims:
                    return nodes, loop, elims
        if best:
            break
    return None


def _chain_se(mode: str, kind: str, nodes: int) -> float:
    if mode == "xy":
        base = 7.0
    elif kind == "cycle":
        base = 6.5
    else:
        base = 6.6  # forcing X-chain
    return round(base + _length_bonus(nodes - 2), 1)


_SORT_KEY = {"x": 2, "y": 3, "xy": 4}


_MAX_NODES: dict[tuple, int] = {}


def _max_nodes(mode: str, kind: str, best) -> int:
    """The most nodes a chain of this mode may have to beat ``best`` (a key)."""
    if best is None:
        return 64
    ck = (mode, kind, best[:3])
    hit = _MAX_NODES.get(ck)
    if hit is not None:
        return hit
    _MAX_NODES[ck] = limit = _max_nodes_of(mode, kind, best)
    return limit


def _max_nodes_of(mode: str, kind: str, best) -> int:
    limit = 0
    for nodes in range(4, 65):
        key = (_chain_se(mode, kind, nodes), nodes, _SORT_KEY[mode])
        if key < best[:3]:
            limit = nodes
        else:
            break
    return limit


def _layers(src: int, start_on: bool, onoff: list, offon: list, depth: int) -> list:
    """Breadth-first layers (bitsets of new nodes) from one node, ``depth`` links deep.

    Layer i holds nodes of the start's polarity when i is even, the other when odd.
    """
    bit = 1 << src
    layers = [bit]
    vis_off = vis_on = 0
    if start_on:
        vis_on = bit
    else:
        vis_off = bit
    front = bit
    on = start_on
    for _ in range(depth):
        nxt = 0
        table = onoff if on else offon
        while front:
            low = front & -front
            nxt |= table[low.bit_length() - 1]
            front ^= low
        if on:
            nxt &= ~vis_off
            vis_off |= nxt
        else:
            nxt &= ~vis_on
            vis_on |= nxt
        if not nxt:
            break
        layers.append(nxt)
        front = nxt
        on = not on
    return layers


def _meet(layers) -> tuple:
    """The fewest links from the layers' source to its negation: (links, a, b, node) or None.

    The graph is its own contrapositive (on(a) -> off(b) iff on(b) -> off(a),
    off(a) -> on(b) iff off(b) -> on(a)), so src implies v in a links and not-v
    in b links exactly when src implies not-src in a + b links; a shortest such
    chain meets itself halfway, so layers ``ceil(links / 2)`` deep suffice.
    """
    best = None
    for bb in range(1, len(layers)):
        for aa in range(1 - bb % 2, bb, 2):
            m = layers[aa] & layers[bb]
            if m:
                if best is None or aa + bb < best[0]:
                    best = (aa + bb, aa, bb, (m & -m).bit_length() - 1)
                break
    return best


def _as_pairs(layers, start_on: bool) -> list:
    return [(start_on if i % 2 == 0 else not start_on, s) for i, s in enumerate(layers)]


def _negate_path(path) -> list:
    """The contrapositive of an implication path: reversed, every node negated."""
    return [(k, not on) for k, on in reversed(path)]


def _meet_path(layers, start_on: bool, a: int, b: int, v: int, onoff: list, offon: list) -> list:
    """The chain src -> ... -> not-src through v (v at layer a, not-v at layer b)."""
    pairs = _as_pairs(layers, start_on)
    v_on = start_on if a % 2 == 0 else not start_on
    p1 = _path_to(pairs[: a + 1], v_on, v, onoff, offon)
    p2 = _path_to(pairs[: b + 1], not v_on, v, onoff, offon)
    return p1 + _negate_path(p2)[1:]


def _depth_for(nodes: int) -> int:
    return (nodes + 1) // 2


def find_chain(x: _Ctx, modes=("x", "y", "xy"), cycles=("x", "y"), forcing: bool = True) -> Step | None:
    """The easiest static chain, as Sudoku Explainer rates them (X- and XY-cycles, X-chains, AICs).

    Searched from every candidate: loops through it, and forcing chains from
    it being true to it being false (it is eliminated) or from false to true
    (it is placed). Single-digit chains first (6.5/6.6 + length), then loops
    of bivalue cells (6.5 + length), then chains mixing cells and digits
    (7.0 + length); the step is the one of lowest rating, then fewest nodes,
    then SE's order (cell, digit; loops before chains). Each search is
    bidirectional (:func:`_meet`) and deepened pass by pass, one SE length
    bucket at a time, so no search goes deeper than the best chain needs.
    """
    g = _Graph(x)
    check = x.check
    best = None  # (key, info); key = (se, nodes, sortkey, (cell, digit, kind)): SE's order
    if "x" in modes:
        # single-digit chains depend on one digit's candidates: searched per
        # digit, remembered while that digit's candidates stay the same
        memo = x.b.memo
        for d in range(x.n):
            mk = ("xchain", "x" in cycles, forcing, d, x.pos[d])
            if mk in memo:
                hit = memo[mk]
            else:
                hit = memo[mk] = _x_chains_of_digit(x, g, d, "x" in cycles, forcing)
            if hit is not None and (best is None or hit[0] < best[0]):
                best = hit
    for mode in modes:
        if mode == "x":
            continue
        if mode == "y":
            onoff, offon = g.onoff_xy, g.offon_y
        else:
            onoff, offon = g.onoff_xy, g.offon_xy
        if best is not None and _chain_se(mode, "chain", 4) > best[0][0]:
            continue
        sources = [k for k in g.ids if mode != "y" or _popcount(x.cand[k % g.N]) == 2]
        for cap in (8, 12, 18, 26, 64) if mode == "xy" else (64,):
            for k in sources:
                check()
                bk = best[0] if best else None
                lim_c = min(cap, _max_nodes(mode, "cycle", bk)) if mode in cycles and offon[k] else 0
                lim_f = min(cap, _max_nodes(mode, "chain", bk)) if forcing and mode != "y" else 0
                if lim_c < 4 and lim_f < 4:
                    continue
                # loops through on(k), SE's way: a breadth-first tree from on(k)
                # closed by a weak link to off(t), t a strong partner of k
                if lim_c >= 4:
                    cyc = _find_cycle(x, g, k, onoff, offon, lim_c)
                    if cyc:
                        nodes, loop, elims = cyc
                        key = (_chain_se(mode, "cycle", nodes), nodes, _SORT_KEY[mode], (k % g.N, k // g.N, 0))
                        if best is None or key < best[0]:
                            best = (key, ("cycle", mode, k, loop, elims))
                if lim_f >= 4:
                    depth = _depth_for(lim_f)
                    for start_on in (True, False):
                        layers = _layers(k, start_on, onoff, offon, depth)
                        hit = _meet(layers)
                        if hit and hit[0] + 1 <= lim_f:
                            nodes = hit[0] + 1
                            typ = 1 if start_on else 2
                            key = (_chain_se(mode, "chain", nodes), nodes, _SORT_KEY[mode], (k % g.N, k // g.N, typ))
                            if best is None or key < best[0]:
                                best = (key, ("chain", mode, k, start_on, nodes, layers, hit))
            if best is not None:
                break
    if best is None:
        return None
    return _chain_step(x, g, best)


def _x_chains_of_digit(x: _Ctx, g: _Graph, d: int, cycles: bool, forcing: bool):
    """The best single-digit loop or forcing chain on digit d: (key, info) or None (see :func:`find_chain`)."""
    onoff, offon = g.onoff_x, g.offon_x
    N = g.N
    best = None
    p = x.pos[d]
    for c in _cells_of(p):
        k = d * N + c
        order = (c, d)
        bk = best[0] if best else None
        lim_c = _max_nodes("x", "cycle", bk) if cycles and offon[k] else 0
        if lim_c >= 4:
            cyc = _find_cycle(x, g, k, onoff, offon, lim_c)
            if cyc:
                nodes, loop, elims = cyc
                key = (_chain_se("x", "cycle", nodes), nodes, _SORT_KEY["x"], order + (0,))
                if best is None or key < best[0]:
                    best = (key, ("cycle", "x", k, loop, elims))
        if not forcing:
            continue
        lim_f = _max_nodes("x", "chain", best[0] if best else None)
        if lim_f < 4:
            continue
        depth = _depth_for(lim_f)
        for typ, start_on in ((1, True), (2, False)):
            layers = _layers(k, start_on, onoff, offon, depth)
            hit = _meet(layers)
            if hit and hit[0] + 1 <= lim_f:
                nodes = hit[0] + 1
                key = (_chain_se("x", "chain", nodes), nodes, _SORT_KEY["x"], order + (typ,))
                if best is None or key < best[0]:
                    best = (key, ("chain", "x", k, start_on, nodes, layers, hit))
    return best


def _chain_step(x: _Ctx, g: _Graph, best) -> Step:
    key, info = best
    se, nodes = key[0], key[1]
    N, n, sym = g.N, x.n, x.sym
    if info[0] == "cycle":
        _, mode, k, loop, elims = info
        if mode == "x":
            name = "X-cycle"
            text = f" on {sym[k // N]}: " + _single_digit_text(loop + [(k, True)], N, n)
        elif mode == "y":
            name = "XY-cycle"
            text = ": " + _eureka(loop + [(k, True)], N, n, sym)
        else:
            name = "nice loop"
            text = ": " + _eureka(loop + [(k, True)], N, n, sym)
        cells = tuple(sorted({kk % N for kk, _ in loop}))
        return x.step(
            name,
            se,
            eliminations=_elims(elims),
            cells=cells,
            digits=tuple(sorted({kk // N + 1 for kk, _ in loop})),
            explanation=text,
            focus=x.unit_name(x.t.cell_units[k % N][2]),
            nodes=nodes,
        )
    _, mode, k, start_on, nodes, layers, hit = info
    onoff, offon = (g.onoff_x, g.offon_x) if mode == "x" else (g.onoff_xy, g.offon_xy)
    _, a, b, v = hit
    path = _meet_path(layers, start_on, a, b, v, onoff, offon)
    d, c = divmod(k, N)
    cells = tuple(sorted({kk % N for kk, _ in path}))
    digits = tuple(sorted({kk // N + 1 for kk, _ in path}))
    focus = x.unit_name(x.t.cell_units[c][2])
    if start_on:
        inner = path[1:-1]  # off(a1) on(b1) ... on(bk): the AIC a1=b1-...=bk
        name = "X-chain" if mode == "x" else _name_xy_chain(x, g, inner)
        if name == "X-chain":
            text = f" on {sym[d]}: " + _single_digit_text(inner, N, n)
        else:
            text = ": " + _eureka(inner, N, n, sym)
        text += f", so {cell_name(c, n)} is not {sym[d]}"
        return x.step(
            name, se, eliminations=((c, d + 1),), cells=cells, digits=digits, explanation=text, focus=focus, nodes=nodes
        )
    # off(src) ... on(src): src = b0 - a1 = ... = src, a discontinuous nice loop
    if mode == "x" or len({kk // N for kk, _ in path}) == 1:
        name = "X-chain"
        text = f" on {sym[d]}: " + _single_digit_text(path, N, n)
    else:
        name = "nice loop"
        text = ": " + _eureka(path, N, n, sym)
    text += f", so {cell_name(c, n)} is {sym[d]}"
    return x.step(
        name, se, placements=((c, d + 1),), cells=cells, digits=digits, explanation=text, focus=focus, nodes=nodes
    )


def _name_xy_chain(x: _Ctx, g: _Graph, inner) -> str:
    """XY-chain (every strong link inside a bivalue cell), W-Wing, or AIC."""
    N = g.N
    strong = [(inner[i][0], inner[i + 1][0]) for i in range(0, len(inner) - 1, 2)]
    if all(a % N == b % N for a, b in strong):
        return "XY-chain"
    if len(strong) == 3:
        (a1, b1), (a2, b2), (a3, b3) = strong
        if (
            a1 % N == b1 % N
            and a3 % N == b3 % N
            and a2 % N != b2 % N
            and a2 // N == b2 // N == b1 // N == a3 // N
            and x.cand[a1 % N] == x.cand[b3 % N]
        ):
            return "W-Wing"
    digits = {k // N for k, _ in inner}
    if len(digits) == 1:
        return "X-chain"
    return "AIC"


# --------------------------------------------------------------------------
# Forcing chains on a cell or a unit (SE's multiple forcing chains, static)


def _depth_of(layers, target_on: bool, target: int) -> int:
    """Nodes on the path from the layers' source to the target (SE's ancestor count); 0 if absent."""
    for i, (is_on, s) in enumerate(layers):
        if is_on == target_on and s >> target & 1:
            return i + 1
    return 0


def find_forcing_chains(x: _Ctx) -> Step | None:
    """Cell and unit forcing chains (SE 8.0 + length): every case leads to the same conclusion.

    For a cell with three or more candidates, each candidate in turn is
    assumed true and followed by the implications of :func:`find_chain`; a
    candidate that every case makes true (false) is true (false). The same
    for the places of a digit in a unit. The rating counts the nodes of all
    the branches.
    """
    g = _Graph(x)
    t, cand, pos = x.t, x.cand, x.pos
    N, n = g.N, x.n
    onoff, offon = g.onoff_xy, g.offon_xy
    closures: dict[int, tuple] = {}

    def closure(k):
        r = closures.get(k)
        if r is None:
            x.check()
            r = closures[k] = _bfs_layers(k, True, onoff, offon, stop_absurd=True)
        return r

    best = None
    order = 0

    def consider(branches, sortkey, what, unit):
        nonlocal best, order
        ons = offs = None
        for k in branches:
            _, von, voff = closure(k)
            ons = von if ons is None else ons & von
            offs = voff if offs is None else offs & voff
        for target_on, targets in ((True, ons), (False, offs)):
            while targets:
                low = targets & -targets
                tk = low.bit_length() - 1
                targets ^= low
                tc = tk % N
                if target_on and _popcount(cand[tc]) < 2:
                    continue
                nodes = sum(_depth_of(closure(k)[0], target_on, tk) for k in branches)
                se = round(8.0 + _length_bonus(nodes - 2), 1)
                key = (se, nodes, sortkey, order)
                order += 1
                if best is None or key < best[0]:
                    best = (key, what, unit, branches, tk, target_on)

    for c in range(N):
        m = cand[c]
        if not m or _popcount(m) < 3:
            continue
        branches = [d * N + c for d in _digits_of(m)]
        consider(branches, 5, "cell", c)
        for d in _digits_of(m):
            for u in (t.cell_units[c][2], t.cell_units[c][0], t.cell_units[c][1]):
                pm = pos[d] & t.unit_mask[u]
                if _popcount(pm) >= 2 and (pm & -pm).bit_length() - 1 == c:
                    consider([d * N + cc for cc in _cells_of(pm)], 6, "unit", u)
    if best is None:
        return None
    key, what, unit, branches, tk, target_on = best
    se, nodes = key[0], key[1]
    d, c = divmod(tk, N)
    sym = x.sym
    cases = ", ".join(f"{cell_name(k % N, n)}={sym[k // N]}" for k in branches)
    concl = f"{cell_name(c, n)}={sym[d]}" if target_on else f"{cell_name(c, n)} is not {sym[d]}"
    if what == "cell":
        name = "cell forcing chains"
        text = f": each candidate of {cell_name(unit, n)} ({cases}) leads to {concl}"
        focus = x.unit_name(t.cell_units[unit][2])
    else:
        name = "unit forcing chains"
        text = f": each place of {sym[branches[0] // N]} in {x.unit_name(unit)} ({cases}) leads to {concl}"
        focus = x.unit_name(unit)
    cells = tuple(sorted({k % N for k in branches} | {c}))
    if target_on:
        return x.step(
            name, se, placements=((c, d + 1),), cells=cells, digits=(d + 1,), explanation=text, focus=focus, nodes=nodes
        )
    return x.step(
        name, se, eliminations=((c, d + 1),), cells=cells, digits=(d + 1,), explanation=text, focus=focus, nodes=nodes
    )


# --------------------------------------------------------------------------
# Dynamic forcing chains (SE's Chaining(multiple, dynamic)): the implications
# of an assumption are followed on a copy of the grid that loses every
# candidate turned off, so new singles appear along the way.


def _dynamic_closure(x: _Ctx, src: int, src_on: bool, nishio: bool = False):
    """Follow the implications of one assumption dynamically, in SE's order.

    Returns (on, off, parents, absurd): the nodes made on and off (dicts id ->
    node key), the parents of each node key, and the first contradiction
    (a pair of node keys) or None. A node key is (id, is_on).
    """
    t = x.t
    N, n = t.N, t.n
    cand = list(x.cand)
    src_cand = x.cand
    unit_mask = t.unit_mask
    cell_units = t.cell_units
    peers = t.peers
    # per digit bitboards of the working grid
    pos = list(x.pos)
    parents: dict[tuple, tuple] = {(src, src_on): ()}
    on: dict[int, bool] = {}
    off: dict[int, bool] = {}
    pend_on: list[int] = []
    pend_off: list[int] = []
    if src_on:
        on[src] = True
        pend_on.append(src)
    else:
        off[src] = True
        pend_off.append(src)
    io = jo = 0
    while True:
        if io < len(pend_on):
            k = pend_on[io]
            io += 1
            d, c = divmod(k, N)
            # other candidates of the cell, then the digit in box, row, column
            outs = []
            m = cand[c] & ~(1 << d) if not nishio else 0
            while m:
                low = m & -m
                outs.append((low.bit_length() - 1) * N + c)
                m ^= low
            seen = {c}
            for u in (cell_units[c][2], cell_units[c][0], cell_units[c][1]):
                pm = pos[d] & unit_mask[u]
                while pm:
                    low = pm & -pm
                    cc = low.bit_length() - 1
                    pm ^= low
                    if cc not in seen:
                        seen.add(cc)
                        outs.append(d * N + cc)
            for kk in outs:
                if kk in on:
                    return on, off, parents, ((kk, True), (kk, False), (k, True))
                if kk not in off:
                    off[kk] = True
                    parents[(kk, False)] = ((k, True),)
                    pend_off.append(kk)
            continue
        if jo < len(pend_off):
            k = pend_off[jo]
            jo += 1
            d, c = divmod(k, N)
            outs = []
            m = cand[c]
            if not nishio and _popcount(m) == 2 and m >> d & 1:
                od = (m & ~(1 << d)).bit_length() - 1
                hidden = tuple((dd * N + c, False) for dd in _digits_of(src_cand[c] & ~m))
                outs.append((od * N + c, ((k, False),) + hidden))
            for u in (cell_units[c][2], cell_units[c][0], cell_units[c][1]):
                pm = pos[d] & unit_mask[u] & ~(1 << c)
                if pm and not pm & (pm - 1) and pos[d] >> c & 1:
                    cc = pm.bit_length() - 1
                    gone = x.pos[d] & unit_mask[u] & ~pos[d]
                    hidden = tuple((d * N + g2, False) for g2 in _cells_of(gone))
                    outs.append((d * N + cc, ((k, False),) + hidden))
            # the candidate leaves the working grid
            if cand[c] >> d & 1:
                cand[c] &= ~(1 << d)
                pos[d] &= ~(1 << c)
            for kk, par in outs:
                if kk in off:
                    parents.setdefault((kk, True), par)
                    return on, off, parents, ((kk, True), (kk, False), (k, False))
                if kk not in on:
                    on[kk] = True
                    parents[(kk, True)] = par
                    pend_on.append(kk)
            continue
        break
    return on, off, parents, None


def _ancestors(parents: dict[tuple, tuple], node: tuple) -> int:
    seen = set()
    todo = [node]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo.extend(parents.get(p, ()))
    return len(seen)


def _nishio_of_digit(x: _Ctx, d: int):
    """The best Nishio contradiction on digit d: ((se, nodes, (cell, digit, kind)), id, assumed) or None."""
    N = x.t.N
    cand = x.cand
    best = None
    for c in _cells_of(x.pos[d]):
        if _popcount(cand[c]) < 2:
            continue
        k = d * N + c
        for typ, assumed in ((0, True), (1, False)):
            x.check()
            _, _, par, absurd = _dynamic_closure(x, k, assumed, nishio=True)
            if not absurd:
                continue
            a, b, _ = absurd
            nodes = _ancestors(par, a) + _ancestors(par, b)
            key = (round(7.5 + _length_bonus(nodes - 2), 1), nodes, (c, d, typ))
            if best is None or key < best[0]:
                best = (key, k, assumed)
    return best


def find_nishio(x: _Ctx) -> Step | None:
    """Nishio forcing chains (SE 7.5 + length): one digit, assumed in a cell, leads to a contradiction.

    The assumption is followed on one digit only (the digit leaves the cell's
    units; a unit left with one place for it puts it there), dynamically; a
    contradiction removes the candidate, and one reached by assuming the
    candidate false places it.
    """
    t, cand = x.t, x.cand
    N, n = t.N, t.n
    best = None
    memo = x.b.memo
    for d in range(n):
        # one digit's candidates decide it: remembered while they stay the same
        mk = ("nishio", d, x.pos[d])
        if mk in memo:
            hit = memo[mk]
        else:
            hit = memo[mk] = _nishio_of_digit(x, d)
        if hit is not None and (best is None or hit[0] < best[0]):
            best = hit
    if best is None:
        return None
    (se, nodes, _), k, assumed = best
    d, c = divmod(k, N)
    sym = x.sym
    focus = x.unit_name(t.cell_units[c][2])
    if assumed:
        text = (
            f" on {sym[d]}: {cell_name(c, n)}={sym[d]} leads to a contradiction, so {cell_name(c, n)} is not {sym[d]}"
        )
        return x.step(
            "Nishio forcing chains",
            se,
            eliminations=((c, d + 1),),
            cells=(c,),
            digits=(d + 1,),
            explanation=text,
            focus=focus,
            nodes=nodes,
        )
    text = (
        f" on {sym[d]}: {cell_name(c, n)} without {sym[d]} leads to a contradiction, so {cell_name(c, n)} is {sym[d]}"
    )
    return x.step(
        "Nishio forcing chains",
        se,
        placements=((c, d + 1),),
        cells=(c,),
        digits=(d + 1,),
        explanation=text,
        focus=focus,
        nodes=nodes,
    )


def find_dynamic_forcing_chains(x: _Ctx) -> Step | None:
    """Dynamic forcing chains (SE 8.5 + length): contradictions, and cell or unit cases that agree.

    A candidate whose assumption (true, or false) leads to a contradiction
    takes the other value; otherwise, as in :func:`find_forcing_chains`, a
    conclusion common to every case of a cell or of a unit's places holds.
    Implications are followed on a working grid that loses every candidate
    turned off, so hidden and naked singles that appear along the way count.
    """
    t, cand, pos = x.t, x.cand, x.pos
    N, n = t.N, t.n
    cache: dict[tuple, tuple] = {}

    def run(k, on_):
        r = cache.get((k, on_))
        if r is None:
            x.check()
            r = cache[(k, on_)] = _dynamic_closure(x, k, on_)
        return r

    best = None
    order = 0

    def offer(se_nodes, sortkey, payload):
        nonlocal best, order
        nodes = se_nodes
        se = round(8.5 + _length_bonus(nodes - 2), 1)
        key = (se, nodes, sortkey, order)
        order += 1
        if best is None or key < best[0]:
            best = (key, payload)

    for c in range(N):
        m = cand[c]
        if not m or _popcount(m) < 2:
            continue
        digs = _digits_of(m)
        for d in digs:
            k = d * N + c
            on_, off_, par, absurd = run(k, True)
            if absurd:
                a, b, _ = absurd
                nodes = _ancestors(par, a) + _ancestors(par, b)
                offer(nodes, 7, ("absurd", k, True, nodes))
            on2, off2, par2, absurd2 = run(k, False)
            if absurd2:
                a, b, _ = absurd2
                nodes = _ancestors(par2, a) + _ancestors(par2, b)
                offer(nodes, 7, ("absurd", k, False, nodes))
            if not absurd and not absurd2 and len(digs) >= 3:
                # double forcing: true either way
                for kk in set(on_) & set(on2):
                    if kk != k and _popcount(cand[kk % N]) >= 2:
                        nodes = _ancestors(par, (kk, True)) + _ancestors(par2, (kk, True))
                        offer(nodes, 1, ("double", k, kk, True, nodes))
                for kk in set(off_) & set(off2):
                    if kk != k:
                        nodes = _ancestors(par, (kk, False)) + _ancestors(par2, (kk, False))
                        offer(nodes, 1, ("double", k, kk, False, nodes))
        # cell forcing
        runs = [run(d * N + c, True) for d in digs]
        if all(r[3] is None for r in runs):
            ons = set(runs[0][0])
            offs = set(runs[0][1])
            for r in runs[1:]:
                ons &= set(r[0])
                offs &= set(r[1])
            for kk in ons:
                if _popcount(cand[kk % N]) >= 2:
                    nodes = sum(_ancestors(r[2], (kk, True)) for r in runs)
                    offer(nodes, 5, ("cell", c, [d * N + c for d in digs], kk, True, nodes))
            for kk in offs:
                nodes = sum(_ancestors(r[2], (kk, False)) for r in runs)
                offer(nodes, 5, ("cell", c, [d * N + c for d in digs], kk, False, nodes))
        # unit forcing, from the first place of each digit
        for d in digs:
            for u in (t.cell_units[c][2], t.cell_units[c][0], t.cell_units[c][1]):
                pm = pos[d] & t.unit_mask[u]
                if _popcount(pm) < 2 or (pm & -pm).bit_length() - 1 != c:
                    continue
                ks = [d * N + cc for cc in _cells_of(pm)]
                runs = [run(k, True) for k in ks]
                if any(r[3] is not None for r in runs):
                    continue
                ons = set(runs[0][0])
                offs = set(runs[0][1])
                for r in runs[1:]:
                    ons &= set(r[0])
                    offs &= set(r[1])
                for kk in ons:
                    if _popcount(cand[kk % N]) >= 2:
                        nodes = sum(_ancestors(r[2], (kk, True)) for r in runs)
                        offer(nodes, 6, ("unit", u, ks, kk, True, nodes))
                for kk in offs:
                    nodes = sum(_ancestors(r[2], (kk, False)) for r in runs)
                    offer(nodes, 6, ("unit", u, ks, kk, False, nodes))
    if best is None:
        return None
    key, payload = best
    se, nodes = key[0], key[1]
    sym = x.sym
    kind = payload[0]
    if kind == "absurd":
        _, k, assumed_on, _ = payload
        d, c = divmod(k, N)
        if assumed_on:
            text = f": {cell_name(c, n)}={sym[d]} leads to a contradiction, so {cell_name(c, n)} is not {sym[d]}"
            return x.step(
                "dynamic forcing chains",
                se,
                eliminations=((c, d + 1),),
                cells=(c,),
                digits=(d + 1,),
                explanation=text,
                focus=x.unit_name(t.cell_units[c][2]),
                nodes=nodes,
            )
        text = f": {cell_name(c, n)} without {sym[d]} leads to a contradiction, so {cell_name(c, n)} is {sym[d]}"
        return x.step(
            "dynamic forcing chains",
            se,
            placements=((c, d + 1),),
            cells=(c,),
            digits=(d + 1,),
            explanation=text,
            focus=x.unit_name(t.cell_units[c][2]),
            nodes=nodes,
        )
    if kind == "double":
        _, k, kk, tgt_on, _ = payload
        cases = f"{cell_name(k % N, n)}={sym[k // N]} or not"
        branches_cells = (k % N,)
        focus = x.unit_name(t.cell_units[k % N][2])
    elif kind == "cell":
        _, c0, ks, kk, tgt_on, _ = payload
        cases = "each candidate of " + cell_name(c0, n)
        branches_cells = (c0,)
        focus = x.unit_name(t.cell_units[c0][2])
    else:
        _, u, ks, kk, tgt_on, _ = payload
        cases = f"each place of {sym[ks[0] // N]} in {x.unit_name(u)}"
        branches_cells = tuple(k % N for k in ks)
        focus = x.unit_name(u)
    d, c = divmod(kk, N)
    concl = f"{cell_name(c, n)}={sym[d]}" if tgt_on else f"{cell_name(c, n)} is not {sym[d]}"
    text = f": {cases} leads to {concl}"
    cells = tuple(sorted(set(branches_cells) | {c}))
    if tgt_on:
        return x.step(
            "dynamic forcing chains",
            se,
            placements=((c, d + 1),),
            cells=cells,
            digits=(d + 1,),
            explanation=text,
            focus=focus,
            nodes=nodes,
        )
    return x.step(
        "dynamic forcing chains",
        se,
        eliminations=((c, d + 1),),
        cells=cells,
        digits=(d + 1,),
        explanation=text,
        focus=focus,
        nodes=nodes,
    )


# --------------------------------------------------------------------------
# Finders found outside the rating path: named patterns people look for


def find_w_wing(x: _Ctx) -> Step | None:
    """Two bivalue cells {x,y} joined by a strong link on y: x leaves the cells seeing both.

    A cell sees one end of a conjugate pair on y, the pair's other end sees
    the other cell; one of the two cells is x.
    """
    t, cand, pos = x.t, x.cand, x.pos
    n = t.n
    bival = [c for c in range(t.N) if cand[c] and _popcount(cand[c]) == 2]
    for i, a in enumerate(bival):
        for b in bival[i + 1 :]:
            if cand[a] != cand[b] or t.peer_mask[a] >> b & 1:
                continue
            for yd, xd in (_digits_of(cand[a]), _digits_of(cand[a])[::-1]):
                victims = pos[xd] & t.peer_mask[a] & t.peer_mask[b]
                if not victims:
                    continue
                for u in range(3 * n):
                    pm = pos[yd] & t.unit_mask[u]
                    if _popcount(pm) != 2 or pm >> a & 1 or pm >> b & 1:
                        continue
                    low = pm & -pm
                    e1, e2 = low.bit_length() - 1, (pm ^ low).bit_length() - 1
                    for s1, s2 in ((e1, e2), (e2, e1)):
                        if t.peer_mask[a] >> s1 & 1 and t.peer_mask[b] >> s2 & 1:
                            return x.step(
                                "W-Wing",
                                7.1,
                                eliminations=_elims((c, xd) for c in _cells_of(victims)),
                                cells=(a, b, s1, s2),
                                units=(u,),
                                digits=(xd + 1, yd + 1),
                                explanation=(
                                    f": {_rc(a, n)} and {_rc(b, n)} hold {_digit_set(x, cand[a])}, "
                                    f"joined by the {x.d(yd)}s of {x.unit_name(u)} ({_rc(s1, n)}, {_rc(s2, n)})"
                                ),
                                focus=x.unit_name(u),
                            )
    return None


def find_simple_colouring(x: _Ctx) -> Step | None:
    """Simple colouring on one digit: colour the conjugate pairs of a cluster in two colours.

    Colour wrap: two cells of one colour in a unit, so that colour is false.
    Colour trap: a cell that sees both colours loses the digit.
    """
    t, pos = x.t, x.pos
    n = t.n
    for d in range(n):
        p = pos[d]
        adj: dict[int, list[int]] = {}
        for um in t.unit_mask:
            m = p & um
            if m and _popcount(m) == 2:
                low = m & -m
                a, b = low.bit_length() - 1, (m ^ low).bit_length() - 1
                adj.setdefault(a, []).append(b)
                adj.setdefault(b, []).append(a)
        done = set()
        for start in sorted(adj):
            if start in done:
                continue
            colour = {start: 0}
            todo = [start]
            while todo:
                c = todo.pop()
                for o in adj[c]:
                    if o not in colour:
                        colour[o] = 1 - colour[c]
                        todo.append(o)
            done |= set(colour)
            if len(colour) < 4:
                continue
            sides = [sum(1 << c for c, k in colour.items() if k == s) for s in (0, 1)]
            cells = tuple(sorted(colour))
            for s in (0, 1):
                for u in range(3 * n):
                    if _popcount(sides[s] & t.unit_mask[u]) >= 2:
                        false_cells = _cells_of(sides[s])
                        return x.step(
                            "simple colouring",
                            6.6,
                            eliminations=_elims((c, d) for c in false_cells),
                            cells=cells,
                            digits=(d + 1,),
                            explanation=(
                                f" on {x.d(d)} (colour wrap): {_rcs(false_cells, n)} share one colour, "
                                f"twice in {x.unit_name(u)}"
                            ),
                            focus=x.unit_name(u),
                        )
            s0 = 0
            for c in _cells_of(sides[0]):
                s0 |= t.peer_mask[c]
            s1 = 0
            for c in _cells_of(sides[1]):
                s1 |= t.peer_mask[c]
            victims = p & s0 & s1 & ~(sides[0] | sides[1])
            if victims:
                return x.step(
                    "simple colouring",
                    6.6,
                    eliminations=_elims((c, d) for c in _cells_of(victims)),
                    cells=cells,
                    digits=(d + 1,),
                    explanation=(
                        f" on {x.d(d)} (colour trap): {_rcs(_cells_of(sides[0]), n)} against "
                        f"{_rcs(_cells_of(sides[1]), n)}"
                    ),
                    focus=x.unit_name(t.cell_units[start][2]),
                )
    return None


def find_x_chain(x: _Ctx) -> Step | None:
    """The shortest single-digit chain or loop (the X mode of :func:`find_chain`)."""
    return find_chain(x, modes=("x",))


def find_xy_chain(x: _Ctx) -> Step | None:
    """A chain of bivalue cells: its ends hold z, so z leaves the cells seeing both ends."""
    t, cand, pos = x.t, x.cand, x.pos
    N, n = t.N, t.n
    bival = [c for c in range(N) if cand[c] and _popcount(cand[c]) == 2]
    bmask = sum(1 << c for c in bival)
    best = None
    for start in bival:
        x.check()
        for zd in _digits_of(cand[start]):
            # state: (cell, digit that cell must be if the chain start is not z)
            first = (cand[start] & ~(1 << zd)).bit_length() - 1
            seen = {(start, first)}
            front = [(start, first, (start,))]
            while front and (best is None or len(front[0][2]) < len(best[2])):
                nxt = []
                for c, dd, path in front:
                    for o in _cells_of(t.peer_mask[c] & bmask):
                        if not cand[o] >> dd & 1 or o in path:
                            continue
                        od = (cand[o] & ~(1 << dd)).bit_length() - 1
                        if (o, od) in seen:
                            continue
                        seen.add((o, od))
                        np_ = path + (o,)
                        if od == zd:
                            victims = pos[zd] & t.peer_mask[start] & t.peer_mask[o] & ~sum(1 << q for q in np_)
                            if victims and (best is None or len(np_) < len(best[2])):
                                best = (zd, victims, np_)
                        nxt.append((o, od, np_))
                front = nxt
    if best is None:
        return None
    zd, victims, path = best
    nodes = 2 * len(path) + 2
    # (z)c0=(a)c0-(a)c1=(b)c1-...=(z)cm
    chain = []
    dd = zd
    for c in path:
        od = (cand[c] & ~(1 << dd)).bit_length() - 1
        chain.append((dd * N + c, False))
        chain.append((od * N + c, True))
        dd = od
    text = _eureka(chain, N, n, x.sym)
    return x.step(
        "XY-chain",
        round(7.0 + _length_bonus(nodes - 2), 1),
        eliminations=_elims((c, zd) for c in _cells_of(victims)),
        cells=path,
        digits=tuple(sorted({d + 1 for c in path for d in _digits_of(cand[c])})),
        explanation=f": {text}",
        focus=x.unit_name(t.cell_units[path[0]][2]),
        nodes=nodes,
    )


# --------------------------------------------------------------------------
# The search step: past every technique, the solution's digit where the
# fewest candidates are, rated by the size of the search that proves it.


def _search_nodes(board: Board, cap: int, check: Check) -> int:
    """Nodes of a depth-first search with naked and hidden singles that exhausts the board (capped)."""
    t = board.t
    n, N = t.n, t.N
    nodes = 0
    stack = [(list(board.cand), list(board.values))]
    while stack and nodes < cap:
        nodes += 1
        if nodes % 64 == 0:
            check()
        cand, values = stack.pop()
        ok = True
        changed = True
        while changed and ok:
            changed = False
            for c in range(N):
                if values[c]:
                    continue
                m = cand[c]
                if not m:
                    ok = False
                    break
                if not m & (m - 1):
                    values[c] = m.bit_length()
                    cand[c] = 0
                    for p in t.peers[c]:
                        cand[p] &= ~m
                    changed = True
            if not ok:
                break
            for u in t.units:
                seen = 0
                for c in u:
                    seen |= cand[c] if not values[c] else 1 << (values[c] - 1)
                if seen != t.full:
                    ok = False
                    break
        if not ok:
            continue
        best, bc = None, n + 1
        for c in range(N):
            if not values[c]:
                k = _popcount(cand[c])
                if k < bc:
                    best, bc = c, k
        if best is None:
            continue
        m = cand[best]
        while m:
            low = m & -m
            m ^= low
            c2, v2 = list(cand), list(values)
            v2[best] = low.bit_length()
            c2[best] = 0
            for p in t.peers[best]:
                c2[p] &= ~low
            stack.append((c2, v2))
    return nodes


def search_step(board: Board, solution: Sequence[int], check: Check = _no_check) -> Step:
    """The step taken when no technique applies: place the solution's digit, rated by search size.

    The cell is the first with the fewest candidates. The rating is an
    estimate, not an SE rating: 9.0 + 0.2 * log2(nodes) (at most 11.0),
    where nodes is the size of a depth-first search with singles that
    proves the board's solution unique.
    """
    t = board.t
    n = t.n
    cand = board.cand
    best = min((c for c in range(t.N) if not board.values[c]), key=lambda c: (_popcount(cand[c]), c))
    nodes = _search_nodes(board, 20000, check)
    se = min(11.0, 9.0 + 0.2 * max(0, nodes.bit_length() - 1))
    d = solution[best]
    syms = board.symbols or DIGIT_SYMBOLS
    return Step(
        "search",
        round(se, 1),
        placements=((best, d),),
        cells=(best,),
        digits=(d,),
        explanation=(
            f": no technique applies; a search of {nodes} nodes gives {cell_name(best, n)}={syms[d - 1]}"
            " (rating estimated from the search)"
        ),
        focus=geometry(t.box_rows, t.box_cols).unit_names[t.cell_units[best][2]],
        size=n,
        symbols=board.symbols,
        nodes=nodes,
    )


# --------------------------------------------------------------------------
# The registry, in the order the rating path tries them


@dataclass(frozen=True)
class Technique:
    """One finder of the registry.

    Attributes:
      name: the registry name (:func:`find_step`); the steps it finds may
        carry a more precise name (``"skyscraper"`` for ``"two strong links"``).
      finder: board context -> Step or None.
      any_size: works on every grid size (else 9x9 only).
      in_path: tried by :func:`next_step` (the others are named patterns
        the path finds under a more general technique).
    """

    name: str
    finder: Callable
    any_size: bool = False
    in_path: bool = True


TECHNIQUES: tuple[Technique, ...] = (
    Technique("full house", find_full_house, True),
    Technique("hidden single", find_hidden_single, True),
    Technique("naked single", find_naked_single, True),
    Technique("pointing", find_pointing, True),
    Technique("claiming", find_claiming, True),
    Technique("naked pair", functools.partial(find_naked_subset, k=2), True),
    Technique("X-Wing", functools.partial(find_fish, k=2), True),
    Technique("hidden pair", functools.partial(find_hidden_subset, k=2), True),
    Technique("naked triple", functools.partial(find_naked_subset, k=3), True),
    Technique("Swordfish", functools.partial(find_fish, k=3), True),
    Technique("hidden triple", functools.partial(find_hidden_subset, k=3), True),
    Technique("two strong links", functools.partial(find_strong_links, k=2)),
    Technique("XY-Wing", find_xy_wing),
    Technique("XYZ-Wing", find_xyz_wing),
    Technique("unique rectangle", find_unique_rectangle),
    Technique("naked quadruple", functools.partial(find_naked_subset, k=4), True),
    Technique("Jellyfish", functools.partial(find_fish, k=4), True),
    Technique("hidden quadruple", functools.partial(find_hidden_subset, k=4), True),
    Technique("three strong links", functools.partial(find_strong_links, k=3)),
    Technique("WXYZ-Wing", functools.partial(find_als_wing, k=3)),
    Technique("BUG", find_bug),
    Technique("four strong links", functools.partial(find_strong_links, k=4)),
    Technique("VWXYZ-Wing", functools.partial(find_als_wing, k=4)),
    Technique("UVWXYZ-Wing", functools.partial(find_als_wing, k=5), in_path=False),
    Technique("chains", find_chain),
    Technique("Nishio forcing chains", find_nishio),
    Technique("forcing chains", find_forcing_chains),
    Technique("dynamic forcing chains", find_dynamic_forcing_chains),
    # named patterns, found by the path under a more general technique
    Technique("skyscraper", functools.partial(find_strong_links, k=2, name="skyscraper"), in_path=False),
    Technique("two-string kite", functools.partial(find_strong_links, k=2, name="two-string kite"), in_path=False),
    Technique("turbot fish", functools.partial(find_strong_links, k=2, name="turbot fish"), in_path=False),
    Technique("empty rectangle", functools.partial(find_strong_links, k=2, name="empty rectangle"), in_path=False),
    Technique("unique rectangle type 1", functools.partial(find_unique_rectangle, types=(1,)), in_path=False),
    Technique("unique rectangle type 2", functools.partial(find_unique_rectangle, types=(2,)), in_path=False),
    Technique("unique rectangle type 3", functools.partial(find_unique_rectangle, types=(3,)), in_path=False),
    Technique("unique rectangle type 4", functools.partial(find_unique_rectangle, types=(4,)), in_path=False),
    Technique("W-Wing", find_w_wing, in_path=False),
    Technique("simple colouring", find_simple_colouring, in_path=False),
    Technique("X-chain", find_x_chain, in_path=False),
    Technique("XY-chain", find_xy_chain, in_path=False),
    Technique("AIC", lambda x: find_chain(x, modes=("xy",), cycles=()), in_path=False),
    Technique(
        "nice loop", lambda x: find_chain(x, modes=("y", "xy"), cycles=("y", "xy"), forcing=False), in_path=False
    ),
)

_BY_NAME = {tech.name: tech for tech in TECHNIQUES}


def _ctx(board: Board, check: Check | None) -> _Ctx:
    return _Ctx(board, check or _no_check)


def find_step(board: Board, technique: str, *, check: Check | None = None) -> Step | None:
    """Look for one technique (a :data:`TECHNIQUES` name) on the board; None if absent.

    Raises:
      KeyError: an unknown technique name.
    """
    tech = _BY_NAME[technique]
    if not tech.any_size and board.size != 9:
        return None
    return tech.finder(_ctx(board, check))


def _path_step(board: Board, check: Check) -> Step | None:
    x = _Ctx(board, check)
    nine = board.size == 9
    for tech in TECHNIQUES:
        if not tech.in_path or not (tech.any_size or nine):
            continue
        check()
        step = tech.finder(x)
        if step is not None:
            return step
    return None


def _verify(step: Step, solution: Sequence[int], board: Board) -> None:
    n = board.size
    changed = False
    for c, d in step.placements:
        if solution[c] != d:
            raise TechniqueError(f"{step.technique} placed {d} at {cell_name(c, n)}, the solution has {solution[c]}")
        if not board.values[c]:
            changed = True
    for c, d in step.eliminations:
        if solution[c] == d:
            raise TechniqueError(f"{step.technique} removed {d} from {cell_name(c, n)}, the solution's digit")
        if board.cand[c] >> (d - 1) & 1:
            changed = True
    if not changed:
        raise TechniqueError(f"{step.technique} changed nothing: {step.describe()}")


def next_step_on(board: Board, solution: Sequence[int], *, check: Check | None = None) -> Step | None:
    """The easiest step on a board whose solution is known; None when it is solved.

    The step is checked against ``solution`` (81 ints, 1-based digits).

    Raises:
      TechniqueError: the step contradicts the solution (a bug).
    """
    check = check or _no_check
    if board.solved():
        return None
    step = _path_step(board, check)
    if step is None:
        step = search_step(board, solution, check)
    _verify(step, solution, board)
    return step


def steps_on(board: Board, solution: Sequence[int], *, check: Check | None = None) -> list[Step]:
    """Apply the easiest step until the board is solved; the steps in order (the board is changed)."""
    check = check or _no_check
    steps = []
    while not board.solved():
        step = next_step_on(board, solution, check=check)
        board.apply(step)
        steps.append(step)
    return steps


# --------------------------------------------------------------------------
# The public entry points: puzzles with exactly one solution


def unique_solution(grid: Grid, *, check: Check | None = None) -> tuple[int, ...]:
    """The solution of a puzzle that must have exactly one.

    Returns:
      tuple: ``size * size`` digits row-major.

    Raises:
      InvalidPuzzleError: two givens share a unit.
      UnsolvableError: no solution (the detail of :func:`solver.solve`, naming
        the place: "no digit fits r1c5").
      MultipleSolutionsError: several solutions; the detail names a cell that
        differs between two of them: "the puzzle has more than one solution
        (r1c2 can be 3 or 5)".
    """
    from sudoku_server.errors import MultipleSolutionsError
    from sudoku_server.sudoku.solver import count_solutions, solve

    first = solve(grid, check=check)
    if count_solutions(grid, 2, check=check) < 2:
        return first.cells
    # the first empty cell (row-major) whose digit is not forced once the
    # cells before it take the first solution's digits: a binary search
    empties = [i for i, v in enumerate(grid.cells) if not v]

    def fixed(k: int) -> Grid:
        cells = list(grid.cells)
        for i in empties[:k]:
            cells[i] = first.cells[i]
        return Grid(tuple(cells), grid.box_rows, grid.box_cols, grid.symbols)

    lo, hi = 0, len(empties)  # count(fixed(lo)) >= 2, count(fixed(hi)) == 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if count_solutions(fixed(mid), 2, check=check) >= 2:
            lo = mid
        else:
            hi = mid
    cell = empties[hi - 1]
    base = list(fixed(hi - 1).cells)
    other = None
    for d in range(1, grid.size + 1):
        if d == first.cells[cell]:
            continue
        base[cell] = d
        if count_solutions(Grid(tuple(base), grid.box_rows, grid.box_cols, grid.symbols), 1, check=check):
            other = d
            break
    a, b = sorted((first.cells[cell], other))
    raise MultipleSolutionsError(
        f"the puzzle has more than one solution ({cell_name(cell, grid.size)} can be "
        f"{grid.symbol(a)} or {grid.symbol(b)})"
    )


def next_step(grid: Grid, *, check: Check | None = None) -> Step | None:
    """The easiest logical step on a puzzle (the first of :func:`solve_steps`); None if it is full.

    Args:
      grid: the puzzle (``size * size`` ints row-major, 0 = empty); its
        candidates are the digits no peer holds.
      check: called between finders and inside long searches (well under a
        few milliseconds apart); whatever it raises propagates.

    Raises:
      InvalidPuzzleError, UnsolvableError, MultipleSolutionsError: as
        :func:`unique_solution` (a puzzle needs exactly one solution).
      TechniqueError: a step contradicted the solution (a bug).
    """
    solution = unique_solution(grid, check=check)
    return next_step_on(Board.from_grid(grid), solution, check=check)


def solve_steps(grid: Grid, *, check: Check | None = None) -> list[Step]:
    """Every step from the puzzle to its solution, easiest technique first at each point.

    Args, Raises: as :func:`next_step`.

    Returns:
      list of :class:`Step`: applying them in order to the puzzle's
      candidates solves it; each was checked against the solution.
    """
    solution = unique_solution(grid, check=check)
    return steps_on(Board.from_grid(grid), solution, check=check)
