"""A 9x9 solving state kept the way HoDoKu 2.2.0 keeps it, for its rating path (:mod:`.hodoku_rating`).

HoDoKu picks its singles from two queues that its grid fills as candidates
go (``Sudoku2.java``, ``SudokuSinglesQueue.java`` of HoDoKu 2.2.0, read for
the rules, no code copied):

- a cell left with one candidate joins the *naked single* queue;
- a unit left with one place for a digit joins the *hidden single* queue
  with the first cell of the unit (row-major within it) holding the digit;
- a unit's count rising back to 2, or falling to 0, takes that unit and
  digit off the hidden single queue.

Placing a digit removes it from the peers (ascending cell order, each peer's
row, column and box in turn), then lowers the counts of the cell's own old
candidates. Which hidden single comes first decides HoDoKu's score (a
hidden single scores 14, a naked single 4), so the queues are kept exactly.

Cells are 0..80 row-major, digits 1..9; units 0-8 rows, 9-17 columns,
18-26 boxes (HoDoKu's order of constraints).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["ALL_UNITS", "BUDDIES", "CONSTRAINTS", "HGrid"]

ROWS = [[r * 9 + c for c in range(9)] for r in range(9)]
COLS = [[r * 9 + c for r in range(9)] for c in range(9)]
BOXES = [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)]
#: unit id -> its cells (row-major within the unit)
ALL_UNITS: list[list[int]] = ROWS + COLS + BOXES
#: cell -> (row unit, column unit, box unit)
CONSTRAINTS: list[tuple[int, int, int]] = [(c // 9, 9 + c % 9, 18 + c // 27 * 3 + c % 9 // 3) for c in range(81)]
#: cell -> its 20 peers, ascending
BUDDIES: list[list[int]] = [sorted({p for u in CONSTRAINTS[c] for p in ALL_UNITS[u]} - {c}) for c in range(81)]
FULL = 0x1FF


def index_sum(elims: tuple[tuple[int, int], ...]) -> int:
    """HoDoKu's ``SolutionStep.getIndexSumme`` of eliminations ``(cell, digit)`` sorted by digit then cell: its
    tie-break between two steps with as many eliminations (``compareTo``)."""
    total, offset = 0, 1
    for c, d in elims:
        total += c * offset + d
        offset += 80
    return total


def digit_cells(cells: list[int] | tuple[int, ...]) -> list[int]:
    """Per digit 1..9 (index 0 unused) the cells (bit ``c``) whose candidate masks ``cells`` hold it."""
    out = [0] * 10
    for c, m in enumerate(cells):
        while m:
            low = m & -m
            out[low.bit_length()] |= 1 << c
            m ^= low
    return out


def digits(mask: int) -> list[int]:
    """The digits (1..9) of a candidate mask (bit ``d - 1``), ascending."""
    return [d + 1 for d in range(9) if mask >> d & 1]


class HGrid:
    """Values, candidates, per-unit counts and the two singles queues of one solving state.

    Attributes:
      values: 81 digits, 0 for an empty cell.
      cells: 81 candidate masks (bit ``d - 1``), 0 for a filled cell.
      free: per unit (27) and digit (index 1..9), how many cells of the unit hold the digit.
      ns, hs: the naked and hidden single queues, ``[cell, digit]`` entries, first in first out.
      placed: the bitboard of the filled cells a solving state placed, not given (avoidable rectangles);
        0 for a puzzle.
    """

    __slots__ = ("cells", "free", "hs", "ns", "placed", "values")

    def __init__(self) -> None:
        self.values = [0] * 81
        self.cells = [FULL] * 81
        self.free = [[0] + [9] * 9 for _ in range(27)]
        self.ns: list[tuple[int, int]] = []
        self.hs: list[tuple[int, int]] = []
        self.placed = 0

    @classmethod
    def from_givens(cls, givens: Sequence[int]) -> HGrid:
        """A puzzle's state: the givens placed in cell order, as HoDoKu reads an 81-character line."""
        g = cls()
        for c, v in enumerate(givens):
            if v:
                g.set_cell(c, v)
        return g

    def solved(self) -> bool:
        return all(self.values)

    def _add_hidden(self, unit: int, d: int) -> bool:
        bit = 1 << (d - 1)
        for c in ALL_UNITS[unit]:
            if self.cells[c] & bit:
                self.hs.append((c, d))
                return True
        return False

    def _drop_hidden(self, unit: int, d: int) -> None:
        for i, (c, v) in enumerate(self.hs):
            if v == d and unit in CONSTRAINTS[c]:
                del self.hs[i]
                return

    def del_candidate(self, c: int, d: int) -> bool:
        """Remove candidate d from cell c (no-op when absent); False when the cell is left with none."""
        bit = 1 << (d - 1)
        if not self.cells[c] & bit:
            return True
        self.cells[c] &= ~bit
        if not self.cells[c]:
            return False
        if self.cells[c] & (self.cells[c] - 1) == 0:
            self.ns.append((c, self.cells[c].bit_length()))
        for u in CONSTRAINTS[c]:
            self.free[u][d] -= 1
            f = self.free[u][d]
            if f == 1:
                self._add_hidden(u, d)
            elif f == 0:
                self._drop_hidden(u, d)
        return True

    def set_cell(self, c: int, v: int) -> bool:
        """Place digit v in cell c; False when that leaves the state invalid."""
        if self.values[c] == v:
            return True
        valid = True
        self.values[c] = v
        old = digits(self.cells[c])
        self.cells[c] = 0
        for p in BUDDIES[c]:
            if not self.del_candidate(p, v):
                valid = False
        for d in old:
            for u in CONSTRAINTS[c]:
                self.free[u][d] -= 1
                f = self.free[u][d]
                if f == 1 and d != v:
                    self._add_hidden(u, d)
                elif f == 0 and d != v:
                    valid = False
        return valid

    def delete(self, pairs: Iterable[tuple[int, int]]) -> None:
        """Remove candidates in the given order (the order a step lists them)."""
        for c, d in pairs:
            self.del_candidate(c, d)

    # -- singles, as HoDoKu's solver takes them ---------------------------------------------------------------

    def full_house(self) -> tuple[int, int] | None:
        """The first queued naked single that is the last empty cell of one of its units (queue untouched)."""
        for c, v in self.ns:
            if self.values[c]:
                continue
            for u in CONSTRAINTS[c]:
                f = self.free[u]
                if all(f[j] == 0 for j in range(1, 10) if j != v):
                    return c, v
        return None

    def naked_single(self) -> tuple[int, int] | None:
        """Pop the naked single queue up to its first cell still empty."""
        while self.ns:
            c, v = self.ns.pop(0)
            if not self.values[c]:
                return c, v
        return None

    def hidden_single(self) -> tuple[int, int] | None:
        """Pop the hidden single queue up to its first cell still empty; None when that one no longer
        is a hidden single (HoDoKu then moves on to the next technique)."""
        while self.hs:
            c, v = self.hs.pop(0)
            if not self.values[c]:
                if any(self.free[u][v] == 1 for u in CONSTRAINTS[c]):
                    return c, v
                return None
        return None
