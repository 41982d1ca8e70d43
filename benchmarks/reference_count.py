"""Reference: count the solutions of a puzzle of any size, independently.

A textbook backtracking counter, written apart from ``sudoku_server`` (no
shared code) so that it can check the generator's uniqueness proofs: keep
for every row, column and box the set of digits used (one int per unit, a
bit per digit), fill the empty cell with the fewest candidates first
("minimum remaining values", Norvig's "Solving Every Sudoku Puzzle" and
every exact-cover solver), try its candidates in increasing order, and stop
once ``limit`` solutions are found. No other inference.

Standard library only; no dependency on ``sudoku_server``.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["BOXES", "count_solutions_reference"]

#: Box shape (rows, columns) by grid size, the usual conventions.
BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4), 25: (5, 5)}


def count_solutions_reference(cells: Sequence[int], limit: int = 2) -> int:
    """How many solutions ``cells`` has, counting no further than ``limit``.

    Args:
      cells: ``n * n`` ints row-major (n in 4, 6, 9, 16, 25), 0 = empty.
      limit: stop once this many are found.

    Returns:
      int: 0 when the givens repeat a digit in a unit or no solution
      exists; else the count, at most ``limit``.
    """
    ncells = len(cells)
    n = next(size for size in BOXES if size * size == ncells)
    br, bc = BOXES[n]
    full = (1 << n) - 1
    row_of = [i // n for i in range(ncells)]
    col_of = [i % n for i in range(ncells)]
    box_of = [(i // n) // br * (n // bc) + (i % n) // bc for i in range(ncells)]
    rows, cols, boxes = [0] * n, [0] * n, [0] * n
    empty = []
    for i, d in enumerate(cells):
        if not d:
            empty.append(i)
            continue
        bit = 1 << (d - 1)
        r, c, b = row_of[i], col_of[i], box_of[i]
        if (rows[r] | cols[c] | boxes[b]) & bit:
            return 0
        rows[r] |= bit
        cols[c] |= bit
        boxes[b] |= bit
    found = 0

    def search(open_cells: list) -> bool:
        """Count below this node; True once ``limit`` is reached."""
        nonlocal found
        if not open_cells:
            found += 1
            return found >= limit
        best_at, best_mask, best_count = -1, 0, n + 1
        for k, i in enumerate(open_cells):
            mask = full & ~(rows[row_of[i]] | cols[col_of[i]] | boxes[box_of[i]])
            count = bin(mask).count("1")
            if count < best_count:
                best_at, best_mask, best_count = k, mask, count
                if count <= 1:
                    break
        if best_count == 0:
            return False
        i = open_cells[best_at]
        rest = open_cells[:best_at] + open_cells[best_at + 1 :]
        r, c, b = row_of[i], col_of[i], box_of[i]
        mask = best_mask
        while mask:
            bit = mask & -mask
            mask ^= bit
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            done = search(rest)
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit
            if done:
                return True
        return False

    if limit >= 1:
        search(empty)
    return min(found, limit)
