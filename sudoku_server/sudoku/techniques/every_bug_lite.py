"""BUG Lite at one state (``HINT all``, 9x9; reglib-1.4's header code ``0620``, no HoDoKu solver).

Sudopedia's "BUG-Lite": a set of empty cells, each given two of its candidates (its *pair*), such that in
every row, column and box each digit is in the pairs of no pattern cell or of exactly two. Were every
pattern cell to hold a digit of its pair, the unit with n pattern cells has n digits each in two pairs, so
each digit once; giving every cell its pair's other digit is a second solution. A puzzle with one
solution has none, so some pattern cell holds a digit outside its pair (the generalisation of BUG+1 to a
part of the grid; a unique rectangle is the BUG Lite of four cells, left to ``0600``-``0605``). Two forms:

- **BUG Lite+1**: every pattern cell bivalue but one: that cell holds another digit, its pair goes.
- **BUG Lite+n, one digit**: the pattern cells that are not bivalue all hold their pair and one digit x:
  x is in one of them, so x goes from every cell seeing all of them.

Patterns of 6 to :data:`MAX_CELLS` cells; the search (a pattern grown from its non-bivalue cell, a cell
added where a digit is once in a unit) is bounded by :data:`MAX_NODES` patterns tried per state.
"""

from __future__ import annotations

from sudoku_server.sudoku.techniques.board import Context, cells_of, popcount
from sudoku_server.sudoku.techniques.every_basic import CELL_UNITS, PEERS, UNITS, step
from sudoku_server.sudoku.techniques.step import Step, and_list, rc

__all__ = ["MAX_CELLS", "MAX_NODES", "NAME", "bug_lite"]

#: The technique name (code ``0620``).
NAME = "BUG Lite"
#: The largest pattern searched (cells).
MAX_CELLS = 14
#: Cells tried per state at most (the search's bound).
MAX_NODES = 20000


class _Search:
    def __init__(self, x: Context) -> None:
        self.x = x
        bivalue = [c for c in range(81) if not x.values[c] and popcount(x.cand[c]) == 2]
        self.by_unit = [[(c, x.cand[c]) for c in bivalue if UNITS[u] >> c & 1] for u in range(27)]
        self.nodes = 0
        self.found: list[tuple[int, dict[int, int]]] = []
        self.seen: set[tuple[tuple[int, int], ...]] = set()

    def grow(self, pairs: dict[int, int], count: dict[tuple[int, int], int], extra: list[tuple[int, int]]) -> None:
        """Close the pattern ``pairs`` (cell -> pair mask): the cells in ``extra`` may be added too."""
        self.nodes += 1
        if self.nodes > MAX_NODES:
            return
        open_ = next((k for k, n in count.items() if n == 1), None)
        if open_ is None:
            key = tuple(sorted(pairs.items()))
            if len(pairs) >= 6 and key not in self.seen:
                self.seen.add(key)
                self.found.append((sum(1 << c for c in pairs), dict(pairs)))
            return
        if len(pairs) >= MAX_CELLS:
            return
        u, d0 = open_
        for c, pair in self.by_unit[u] + [t for t in extra if UNITS[u] >> t[0] & 1]:
            if c in pairs or not pair >> d0 & 1:
                continue
            adds = [(v, e) for v in CELL_UNITS[c] for e in range(9) if pair >> e & 1]
            if any(count.get(k, 0) >= 2 for k in adds):
                continue
            for k in adds:
                count[k] = count.get(k, 0) + 1
            pairs[c] = pair
            self.grow(pairs, count, extra)
            del pairs[c]
            for k in adds:
                count[k] -= 1
                if not count[k]:
                    del count[k]


def _start(search: _Search, c: int, pair: int, extra: list[tuple[int, int]]) -> None:
    search.found = []
    count = {(u, e): 1 for u in CELL_UNITS[c] for e in range(9) if pair >> e & 1}
    search.grow({c: pair}, count, extra)


def _pattern_text(pairs: dict[int, int]) -> str:
    return and_list([f"{rc(c, 9)}({''.join(str(d + 1) for d in range(9) if p >> d & 1)})" for c, p in pairs.items()])


def bug_lite(x: Context) -> list[Step]:
    """Every BUG Lite+1 and BUG Lite+n (one digit) at the state; ``[]`` where none."""
    out: list[Step] = []
    search = _Search(x)
    # BUG Lite+1: one cell beyond its pair, the rest bivalue
    for c in range(81):
        m = x.cand[c]
        if x.values[c] or popcount(m) < 3:
            continue
        ds = [d for d in range(9) if m >> d & 1]
        for i, p in enumerate(ds):
            for q in ds[i + 1 :]:
                _start(search, c, 1 << p | 1 << q, [])
                for _cells, pairs in search.found:
                    words = (
                        f": {_pattern_text(pairs)} would have two solutions, so {rc(c, 9)} holds neither {p + 1}"
                        f" nor {q + 1}"
                    )
                    out.append(step(x, NAME, words, elim=[(c, p + 1), (c, q + 1)]))
    # BUG Lite+n: the cells beyond their pair all hold it and one digit x0
    for x0 in range(9):
        three = [(c, x.cand[c] & ~(1 << x0)) for c in cells_of(x.pos[x0]) if popcount(x.cand[c]) == 3]
        if len(three) < 2:
            continue
        for c, pair in three:
            _start(search, c, pair, [t for t in three if t[0] > c])
            for cells, pairs in search.found:
                plus = [t for t in pairs if popcount(x.cand[t]) == 3]
                if len(plus) < 2:
                    continue
                seeing = x.pos[x0] & ~cells
                for t in plus:
                    seeing &= PEERS[t]
                if seeing:
                    words = (
                        f": {_pattern_text(pairs)} would have two solutions, so {x0 + 1} is in"
                        f" {and_list([rc(t, 9) for t in plus])}"
                    )
                    out.append(step(x, NAME, words, elim=[(t, x0 + 1) for t in cells_of(seeing)]))
    return out
