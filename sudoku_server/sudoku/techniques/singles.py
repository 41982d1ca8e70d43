"""Singles: full house (SE 1.0), hidden single (1.2 in a box, 1.5 elsewhere), naked single (2.3).

Defined on units: every unit of the geometry counts, in Sudoku Explainer's
order (boxes, rows, columns, then any extra unit).
"""

from __future__ import annotations

from sudoku_server.sudoku.techniques.board import BOX, Context
from sudoku_server.sudoku.techniques.step import Step, rc

__all__ = ["find_full_house", "find_hidden_single", "find_naked_single"]


def placement(x: Context, name: str, rating: float, cell: int, digit: int, unit: int, explanation: str) -> Step:
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


def find_full_house(x: Context) -> Step | None:
    """The last empty cell of a unit (boxes, then rows, then columns, then the other units)."""
    t, values = x.t, x.values
    n = t.n
    empty = 0  # the empty cells, as a bitboard
    for c, v in enumerate(values):
        if not v:
            empty |= 1 << c
    unit_mask = t.unit_mask
    for u in t.se_order:
        e = empty & unit_mask[u]
        if e and not e & (e - 1):
            c = e.bit_length() - 1
            m = x.cand[c]
            if m and not m & (m - 1):
                d = m.bit_length()
                return placement(
                    x, "full house", 1.0, c, d, u, f": {rc(c, n)} is the last empty cell in {x.unit_name(u)}"
                )
    return None


def find_hidden_single(x: Context) -> Step | None:
    """A digit with one place left in a unit: boxes first (SE 1.2), then rows, columns, other units (1.5)."""
    t, pos = x.t, x.pos
    n = t.n
    for u in t.se_order:
        um = t.unit_mask[u]
        for d in range(n):
            m = pos[d] & um
            if m and not m & (m - 1):
                c = m.bit_length() - 1
                return placement(
                    x,
                    "hidden single",
                    1.2 if t.kind[u] == BOX else 1.5,
                    c,
                    d + 1,
                    u,
                    f": {rc(c, n)} is the only place for {x.d(d)} in {x.unit_name(u)}",
                )
    return None


def find_naked_single(x: Context) -> Step | None:
    """A cell with one candidate left (SE 2.3), shown in its box."""
    t = x.t
    n = t.n
    for c, m in enumerate(x.cand):
        if m and not m & (m - 1):
            d = m.bit_length()
            return placement(
                x, "naked single", 2.3, c, d, t.box_unit[c], f": {x.d(d - 1)} is the only candidate left in {rc(c, n)}"
            )
    return None
