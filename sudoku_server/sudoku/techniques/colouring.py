"""Simple colouring on one digit (a named pattern, SE 6.6): colour wrap and colour trap.

Conjugate pairs come from every unit of the geometry; a cell sees a colour
through the geometry's peers.
"""

from __future__ import annotations

from sudoku_server.sudoku.techniques.board import Context, cells_of, elims, popcount
from sudoku_server.sudoku.techniques.step import Step, rcs

__all__ = ["find_simple_colouring"]


def find_simple_colouring(x: Context) -> Step | None:
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
            if m and popcount(m) == 2:
                low = m & -m
                a, b = low.bit_length() - 1, (m ^ low).bit_length() - 1
                adj.setdefault(a, []).append(b)
                adj.setdefault(b, []).append(a)
        done: set[int] = set()
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
                for u in range(len(t.units)):
                    if popcount(sides[s] & t.unit_mask[u]) >= 2:
                        false_cells = cells_of(sides[s])
                        return x.step(
                            "simple colouring",
                            6.6,
                            eliminations=elims((c, d) for c in false_cells),
                            cells=cells,
                            digits=(d + 1,),
                            explanation=(
                                f" on {x.d(d)} (colour wrap): {rcs(false_cells, n)} share one colour, "
                                f"twice in {x.unit_name(u)}"
                            ),
                            focus=x.unit_name(u),
                        )
            s0 = 0
            for c in cells_of(sides[0]):
                s0 |= t.peer_mask[c]
            s1 = 0
            for c in cells_of(sides[1]):
                s1 |= t.peer_mask[c]
            victims = p & s0 & s1 & ~(sides[0] | sides[1])
            if victims:
                return x.step(
                    "simple colouring",
                    6.6,
                    eliminations=elims((c, d) for c in cells_of(victims)),
                    cells=cells,
                    digits=(d + 1,),
                    explanation=(
                        f" on {x.d(d)} (colour trap): {rcs(cells_of(sides[0]), n)} against {rcs(cells_of(sides[1]), n)}"
                    ),
                    focus=x.unit_name(t.box_unit[start]),
                )
    return None
