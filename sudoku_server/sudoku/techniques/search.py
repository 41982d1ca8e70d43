"""The search step: past every technique, the solution's digit where the fewest candidates are.

Rated by the size of the search that proves the board's solution unique
(9.0 + 0.2 * log2(nodes), at most 11.0): an estimate, not an SE rating. The
search's singles and dead-end checks read every unit of the geometry.

**The cap.** The search stops at :func:`node_cap` nodes: 20,000 up to 9x9;
1,024 on 16x16 and 25x25, where the estimate already reaches its top (11.0
from 1,024 nodes on), so the rating is the one an uncapped search gives,
and a node costs 5 to 15 times a 9x9 one (measured: 20,000 nodes were about
1 s per search step on 16x16, and a generated 16x16 has 10 to 20 of them).
1,024 too on a geometry with constraints beyond its units (a killer's cages,
the marks rules' relations and sums), which the search does not consult: its
tree there is the unconstrained grid's, 20,000 nodes took about 0.5 s a step
and a little killer puzzle had 11 such steps.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence

from sudoku_server.sudoku.check import Check, no_check
from sudoku_server.sudoku.grid import DIGIT_SYMBOLS, cell_name
from sudoku_server.sudoku.techniques.board import Board, popcount
from sudoku_server.sudoku.techniques.step import Step

__all__ = ["CAP_9X9", "CAP_LARGE", "node_cap", "search_step"]

#: The search's node cap up to 9x9 (the count a capped 9x9 step reports).
CAP_9X9 = 20000

#: The cap on larger grids: the first count whose estimate is the top one, 11.0.
CAP_LARGE = 1024


def node_cap(size: int, constrained: bool = False) -> int:
    """The search's node cap on a grid of ``size`` digits per unit (see the module docstring).

    ``constrained``: the geometry has constraints beyond its units (cages,
    relations, sums, lines), which this search does not consult: its tree is
    then far larger than the puzzle's, so the cap is :data:`CAP_LARGE` on
    every size (the estimate is the same, 11.0, from 1,024 nodes on).
    """
    return CAP_9X9 if size <= 9 and not constrained else CAP_LARGE


def _estimate(nodes: int) -> float:
    """The search step's rating: 9.0 + 0.2 * floor(log2(nodes)), at most 11.0."""
    return min(11.0, 9.0 + 0.2 * max(0, nodes.bit_length() - 1))


def _search_nodes(board: Board, cap: int, check: Check) -> int:
    """Nodes of a depth-first search with naked singles and unit checks that exhausts the board (capped).

    A node is dead when naked singles empty a cell or, once no naked single
    is left, a unit has lost every place of a digit; else it branches on the
    first cell with the fewest candidates, its digits tried from the highest
    (a stack). Those rules fix the tree, so the count does not depend on the
    order singles are found in: here a queue of the cells that became
    singles (each state is the grid's ``allowed`` masks: the candidates of an
    empty cell, the digit's bit of a filled one). ``check`` is called every
    ``max(1, 324 // N)`` nodes (every 4th on 9x9, every node from 16x16 on).
    """
    t = board.t
    N, full = t.N, t.full
    peers, units, cell_units = t.peers, t.units, t.cell_units
    every = max(1, 324 // N)
    get_or = functools.partial(functools.reduce, operator.or_)
    above_one = (1).__lt__
    root = [m if not v else 1 << (v - 1) for m, v in zip(board.cand, board.values)]
    root_filled = [bool(v) for v in board.values]
    # a stack entry: the parent's (allowed, filled) and the branch (cell, digit bit), or (-1, 0) for the root
    stack: list[tuple[list[int], list[bool], int, int]] = [(root, root_filled, -1, 0)]
    nodes = 0
    while stack and nodes < cap:
        nodes += 1
        if nodes % every == 0:
            check()
        allowed, filled, cell, bit = stack.pop()
        allowed, filled = allowed[:], filled[:]
        if cell < 0:
            todo = [c for c in range(N) if not filled[c] and not allowed[c] & (allowed[c] - 1)]
            touched = set(range(len(units)))
        else:
            allowed[cell] = bit
            todo = [cell]
            touched = set(cell_units[cell])
        ok = True
        while todo:
            c = todo.pop()
            if filled[c]:
                continue
            m = allowed[c]
            if not m:
                ok = False
                break
            filled[c] = True
            for p in peers[c]:
                pm = allowed[p]
                if pm & m and not filled[p]:
                    pm ^= m
                    allowed[p] = pm
                    touched.update(cell_units[p])
                    if not pm & (pm - 1):
                        todo.append(p)
        if not ok:
            continue
        for u in touched:
            if get_or(map(allowed.__getitem__, units[u])) != full:
                ok = False
                break
        if not ok:
            continue
        counts = list(map(popcount, allowed))
        fewest = min(filter(above_one, counts), default=0)
        if not fewest:
            continue  # solved
        best = counts.index(fewest)
        m = allowed[best]
        while m:
            low = m & -m
            m ^= low
            stack.append((allowed, filled, best, low))
    return nodes


def search_step(board: Board, solution: Sequence[int], check: Check = no_check) -> Step:
    """The step taken when no technique applies: place the solution's digit, rated by search size.

    The cell is the first with the fewest candidates. The rating is an
    estimate, not an SE rating: 9.0 + 0.2 * log2(nodes) (at most 11.0),
    where nodes is the size of a depth-first search with singles that
    proves the board's solution unique, stopped at :func:`node_cap` nodes.

    Args:
      board: a board that is not solved.
      solution: the puzzle's solution (``size * size`` digits row-major).
      check: the stop hook, called every few nodes of the search (:func:`_search_nodes`).
    """
    t = board.t
    n = t.n
    cand = board.cand
    best = min((c for c in range(t.N) if not board.values[c]), key=lambda c: (popcount(cand[c]), c))
    nodes = _search_nodes(board, node_cap(n, bool(t.geometry.constraints)), check)
    se = _estimate(nodes)
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
