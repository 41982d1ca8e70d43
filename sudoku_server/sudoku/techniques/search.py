"""The search step: past every technique, the solution's digit where the fewest candidates are.

Rated by the size of the search that proves the board's solution unique
(9.0 + 0.2 * log2(nodes), at most 11.0): an estimate, not an SE rating. The
search's singles and dead-end checks read every unit of the geometry.
"""

from __future__ import annotations

from collections.abc import Sequence

from sudoku_server.sudoku.check import Check, no_check
from sudoku_server.sudoku.grid import DIGIT_SYMBOLS, cell_name
from sudoku_server.sudoku.techniques.board import Board, popcount
from sudoku_server.sudoku.techniques.step import Step

__all__ = ["search_step"]


def _search_nodes(board: Board, cap: int, check: Check) -> int:
    """Nodes of a depth-first search with naked singles and unit checks that exhausts the board (capped)."""
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
                k = popcount(cand[c])
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


def search_step(board: Board, solution: Sequence[int], check: Check = no_check) -> Step:
    """The step taken when no technique applies: place the solution's digit, rated by search size.

    The cell is the first with the fewest candidates. The rating is an
    estimate, not an SE rating: 9.0 + 0.2 * log2(nodes) (at most 11.0),
    where nodes is the size of a depth-first search with singles that
    proves the board's solution unique.

    Args:
      board: a board that is not solved.
      solution: the puzzle's solution (``size * size`` digits row-major).
      check: the stop hook, called every 64 nodes of the search.
    """
    t = board.t
    n = t.n
    cand = board.cand
    best = min((c for c in range(t.N) if not board.values[c]), key=lambda c: (popcount(cand[c]), c))
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
        focus=t.unit_names[t.box_unit[best]],
        size=n,
        symbols=board.symbols,
        nodes=nodes,
    )
