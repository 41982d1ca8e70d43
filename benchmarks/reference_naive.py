"""Reference: the naive row-major backtracker.

This is the brute-force solver of the introductory articles (for example
Wikipedia, "Sudoku solving algorithms", section *Backtracking*): take the first
empty cell in row-major order (left to right, top to bottom), try the digits
1..9 in turn, and recurse on each digit that does not repeat in the cell's row,
column or box. The first solution it reaches is the smallest one read as an
81-digit number, which is what PROTOCOL.md requires for puzzles with several
solutions ("the first one in row-major order").

The only speed-ups over the textbook version keep its search order exactly:
the row, column and box "used digits" are bitmasks, and the candidate digits
of a cell are read from them instead of scanning the peers. ``calls`` counts
invocations of the recursive step (one per digit placed, plus the root call);
that is the measure of work in ``puzzles/datasets/pathological_bruteforce.tsv.gz``.

``solve_rowmajor_propagating`` is a second, independent way to the same
answer for puzzles where the plain search is too slow: it keeps the row-major
branching order and the 1..9 digit order, but prunes with naked and hidden
singles after every placement. Propagation only removes candidates that no
solution can use, and when it branches every earlier cell is already fixed,
so solutions are still reached in increasing numeric order and the first one
found is the same.

Standard library only; no dependency on ``sudoku_server``.
"""

from __future__ import annotations

__all__ = [
    "CallLimitExceeded",
    "solve_naive",
    "solve_naive_counted",
    "solve_rowmajor_propagating",
]

#: Digit mask bit ``1 << d`` for the digits 1..9 (bit 0 unused).
_ALL = 0x3FE

_ROW = [i // 9 for i in range(81)]
_COL = [i % 9 for i in range(81)]
_BOX = [(i // 27) * 3 + (i % 9) // 3 for i in range(81)]
#: Lowest set bit -> digit, for the masks the search takes bits from.
_DIGIT_OF_BIT = {1 << d: d for d in range(1, 10)}


class CallLimitExceeded(Exception):
    """The search made more recursive calls than ``max_calls`` allowed."""

    def __init__(self, max_calls: int) -> None:
        super().__init__(f"naive search exceeded {max_calls} calls")
        self.max_calls = max_calls


def _parse(puzzle81: str) -> list[int]:
    if len(puzzle81) != 81:
        raise ValueError(f"expected 81 cells, found {len(puzzle81)}")
    cells = []
    for ch in puzzle81:
        if ch in ".0_":
            cells.append(0)
        elif "1" <= ch <= "9":
            cells.append(ord(ch) - 48)
        else:
            raise ValueError(f"bad cell character {ch!r}")
    return cells


def solve_naive_counted(puzzle81: str, max_calls: int | None = None) -> tuple[str | None, int]:
    """Solve by naive row-major backtracking and count the recursive calls.

    Returns:
      (solution, calls): the first solution found (81 digits) or None when
      there is none (including when the givens repeat a digit in a unit), and
      the number of calls the search made.

    Raises:
      CallLimitExceeded: more than ``max_calls`` calls were needed.
      ValueError: the string is not 81 cells.
    """
    cells = _parse(puzzle81)
    rows = [0] * 9
    cols = [0] * 9
    boxes = [0] * 9
    for i, d in enumerate(cells):
        if d:
            bit = 1 << d
            r, c, b = _ROW[i], _COL[i], _BOX[i]
            if (rows[r] | cols[c] | boxes[b]) & bit:
                return None, 0  # duplicate given: no solution
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
    empties = [i for i in range(81) if not cells[i]]
    n = len(empties)
    # Per depth: the cell and its row/col/box indices, looked up once.
    e_r = [_ROW[i] for i in empties]
    e_c = [_COL[i] for i in empties]
    e_b = [_BOX[i] for i in empties]
    placed = [0] * n  # bit placed at each depth (0 = none yet)
    todo = [0] * n  # candidate bits still to try at each depth
    limit = max_calls if max_calls is not None else -1
    calls = 1  # the root call
    if n == 0:
        return "".join(map(str, cells)), calls

    # An iterative form of the recursion: depth k is "the call working on the
    # k-th empty cell". Entering depth k computes its candidates; each digit
    # tried at depth k that leads deeper counts as one recursive call.
    k = 0
    r, c, b = e_r[0], e_c[0], e_b[0]
    todo[0] = _ALL & ~(rows[r] | cols[c] | boxes[b])
    while True:
        m = todo[k]
        old = placed[k]
        if old:
            rows[r] ^= old
            cols[c] ^= old
            boxes[b] ^= old
            placed[k] = 0
        if not m:
            k -= 1
            if k < 0:
                return None, calls
            r, c, b = e_r[k], e_c[k], e_b[k]
            continue
        bit = m & -m
        todo[k] = m ^ bit
        placed[k] = bit
        rows[r] |= bit
        cols[c] |= bit
        boxes[b] |= bit
        calls += 1
        if calls == limit + 1:
            raise CallLimitExceeded(limit)
        k += 1
        if k == n:
            for j in range(n):
                cells[empties[j]] = _DIGIT_OF_BIT[placed[j]]
            return "".join(map(str, cells)), calls
        r, c, b = e_r[k], e_c[k], e_b[k]
        todo[k] = _ALL & ~(rows[r] | cols[c] | boxes[b])


def solve_naive(puzzle81: str, max_calls: int | None = None) -> str | None:
    """Return the first solution of naive row-major backtracking, or None.

    For a puzzle with several solutions this is the row-major-smallest one.

    Raises:
      CallLimitExceeded: more than ``max_calls`` recursive calls were needed.
      ValueError: the string is not 81 cells.
    """
    return solve_naive_counted(puzzle81, max_calls)[0]


_UNITS_OF: list[list[list[int]]] = []
_PEERS_OF: list[list[int]] = []
for _i in range(81):
    _us = [
        [j for j in range(81) if _ROW[j] == _ROW[_i]],
        [j for j in range(81) if _COL[j] == _COL[_i]],
        [j for j in range(81) if _BOX[j] == _BOX[_i]],
    ]
    _UNITS_OF.append(_us)
    _PEERS_OF.append(sorted({j for u in _us for j in u} - {_i}))


def _assign(cand: list[int], s: int, bit: int) -> bool:
    """Leave only ``bit`` in cell ``s``; False on a contradiction."""
    others = cand[s] & ~bit
    while others:
        b = others & -others
        others ^= b
        if not _eliminate(cand, s, b):
            return False
    return True


def _eliminate(cand: list[int], s: int, bit: int) -> bool:
    """Remove candidate ``bit`` from cell ``s`` and propagate singles."""
    m = cand[s]
    if not m & bit:
        return True
    m ^= bit
    cand[s] = m
    if not m:
        return False
    if not m & (m - 1):  # naked single: remove it from the peers
        for p in _PEERS_OF[s]:
            if cand[p] & m and not _eliminate(cand, p, m):
                return False
    for unit in _UNITS_OF[s]:  # hidden single: one place left for bit?
        places = [x for x in unit if cand[x] & bit]
        if not places:
            return False
        if len(places) == 1 and cand[places[0]] != bit and not _assign(cand, places[0], bit):
            return False
    return True


def solve_rowmajor_propagating(puzzle81: str) -> str | None:
    """Row-major-first solution by row-major search with singles propagation.

    Same answer as :func:`solve_naive` (the smallest solution as an 81-digit
    number), usually far fewer nodes. Returns None when there is no solution.
    """
    cells = _parse(puzzle81)
    cand = [_ALL] * 81
    for i, d in enumerate(cells):
        if d and not _assign(cand, i, 1 << d):
            return None

    def search(cand: list[int], start: int) -> list[int] | None:
        s = start
        while s < 81 and not cand[s] & (cand[s] - 1):
            s += 1
        if s == 81:
            return cand
        m = cand[s]
        while m:
            bit = m & -m
            m ^= bit
            trial = cand.copy()
            if _assign(trial, s, bit):
                result = search(trial, s + 1)
                if result is not None:
                    return result
        return None

    result = search(cand, 0)
    if result is None:
        return None
    return "".join(str(_DIGIT_OF_BIT[m]) for m in result)


if __name__ == "__main__":  # pragma: no cover - manual use
    import sys
    import time

    for line in sys.stdin:
        line = line.strip()
        if len(line) != 81:
            continue
        t0 = time.perf_counter()
        sol, n_calls = solve_naive_counted(line)
        dt = time.perf_counter() - t0
        print(sol, n_calls, f"{dt:.3f}s")
