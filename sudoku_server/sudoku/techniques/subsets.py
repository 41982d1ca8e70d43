"""Naked and hidden subsets: pairs (SE 3.0, 3.4), triples (3.6, 4.0), quadruples (5.0, 5.4).

Defined on units: every unit of the geometry, in Sudoku Explainer's order
(boxes, rows, columns, then any extra unit). On 9x9 the search runs natively
when the extension is built (:mod:`.native`); the loops here are its oracle.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from sudoku_server.sudoku.techniques import native
from sudoku_server.sudoku.techniques.board import Context, cells_of, digits_of, elims, popcount
from sudoku_server.sudoku.techniques.step import Step, and_list, rcs

__all__ = ["find_hidden_subset", "find_naked_subset"]

SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quadruple"}
_NAKED_SE = {2: 3.0, 3: 3.6, 4: 5.0}
_HIDDEN_SE = {2: 3.4, 3: 4.0, 4: 5.4}


def _native_subset(x: Context, hidden: bool, k: int) -> tuple[Sequence[int], tuple[int, ...] | None]:
    """The units to search and the one combination to take (cells, or digits when hidden).

    With the native engine (9x9): the unit and combination its search finds
    first (the same as the loops below), or no unit at all; without it:
    every unit in SE's order and every combination (None).
    """
    t = x.t
    eng = native.engine(t.N, t.n)
    if eng is None:
        return t.se_order, None
    hit = eng.subset(hidden, k, x.cand, t.se_order, t.units)
    if hit is None:
        return (), None
    return (hit[0],), tuple(hit[1])


def find_naked_subset(x: Context, k: int) -> Step | None:
    """k cells of a unit holding only k digits: those digits leave the unit's other cells."""
    t, cand = x.t, x.cand
    n = t.n
    units, only = _native_subset(x, False, k)
    for u in units:
        cells = [c for c in t.units[u] if cand[c]]
        if len(cells) <= k:
            continue
        small = [c for c in cells if popcount(cand[c]) <= k]
        if len(small) < k:
            continue
        combos: Iterable[tuple[int, ...]] = itertools.combinations(small, k) if only is None else (only,)
        for combo in combos:
            m = 0
            for c in combo:
                m |= cand[c]
            if popcount(m) != k:
                continue
            found = [(c, d) for c in cells if c not in combo for d in digits_of(cand[c] & m)]
            if found:
                digits = [x.d(d) for d in digits_of(m)]
                return x.step(
                    f"naked {SUBSET_NAMES[k]}",
                    _NAKED_SE[k],
                    eliminations=elims(found),
                    cells=combo,
                    units=(u,),
                    digits=tuple(d + 1 for d in digits_of(m)),
                    explanation=f": {rcs(combo, n)} hold only {and_list(digits)} in {x.unit_name(u)}",
                    focus=x.unit_name(u),
                )
    return None


def find_hidden_subset(x: Context, k: int) -> Step | None:
    """k digits with places in only k cells of a unit: those cells lose their other candidates."""
    t, pos, cand = x.t, x.pos, x.cand
    n = t.n
    units, only = _native_subset(x, True, k)
    for u in units:
        um = t.unit_mask[u]
        empty = sum(1 for c in t.units[u] if cand[c])
        if empty <= k:
            continue
        digs = []
        for d in range(n):
            m = pos[d] & um
            if m and popcount(m) <= k:
                digs.append((d, m))
        if len(digs) < k:
            continue
        combos: Iterable[tuple[tuple[int, int], ...]] = (
            itertools.combinations(digs, k) if only is None else (tuple((d, pos[d] & um) for d in only),)
        )
        for combo in combos:
            m = 0
            dm = 0
            for d, pm in combo:
                m |= pm
                dm |= 1 << d
            if popcount(m) != k:
                continue
            cells = cells_of(m)
            found = [(c, d) for c in cells for d in digits_of(cand[c] & ~dm)]
            if found:
                digits = [x.d(d) for d, _ in combo]
                return x.step(
                    f"hidden {SUBSET_NAMES[k]}",
                    _HIDDEN_SE[k],
                    eliminations=elims(found),
                    cells=tuple(cells),
                    units=(u,),
                    digits=tuple(d + 1 for d, _ in combo),
                    explanation=f": {and_list(digits)} go only in {rcs(cells, n)} in {x.unit_name(u)}",
                    focus=x.unit_name(u),
                )
    return None
