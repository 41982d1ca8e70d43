"""Intersections of a box and a line: pointing (SE 2.6) and claiming (2.8).

By nature about boxes, rows and columns: they read the box-line
intersections of the tables (:attr:`.board.Tables.inter`).
"""

from __future__ import annotations

from sudoku_server.sudoku.techniques.board import Context, cells_of, elims
from sudoku_server.sudoku.techniques.step import Step

__all__ = ["find_claiming", "find_pointing"]


def find_pointing(x: Context) -> Step | None:
    """A digit whose places in a box all lie in one row or column leaves the rest of that line (SE 2.6)."""
    t, pos = x.t, x.pos
    n = t.n
    box = -1
    bm = 0
    places: list[tuple[int, int]] = []  # per digit with two places or more in the box: (digit, places)
    for b, line, im in t.inter:
        if b != box:
            box, bm = b, t.unit_mask[b]
            places = [(d, m) for d in range(n) if (m := pos[d] & bm) & (m - 1)]
        for d, m in places:
            if not m & ~im:
                victims = pos[d] & t.unit_mask[line] & ~bm
                if victims:
                    return x.step(
                        "pointing",
                        2.6,
                        eliminations=elims((c, d) for c in cells_of(victims)),
                        cells=tuple(cells_of(m)),
                        units=(b, line),
                        digits=(d + 1,),
                        explanation=f": the {x.d(d)}s of {x.unit_name(b)} are all in {x.unit_name(line)}",
                        focus=x.unit_name(b),
                    )
    return None


def find_claiming(x: Context) -> Step | None:
    """A digit whose places in a row or column all lie in one box leaves the rest of that box (SE 2.8)."""
    t, pos = x.t, x.pos
    n = t.n
    for line in t.lines:
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
                        eliminations=elims((c, d) for c in cells_of(victims)),
                        cells=tuple(cells_of(m)),
                        units=(line, b),
                        digits=(d + 1,),
                        explanation=f": the {x.d(d)}s of {x.unit_name(line)} are all in {x.unit_name(b)}",
                        focus=x.unit_name(line),
                    )
    return None
