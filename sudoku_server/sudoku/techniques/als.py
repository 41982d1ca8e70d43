"""Wings on an almost locked set: WXYZ-Wing (SE 5.5-5.6), VWXYZ-Wing (6.2-6.4), UVWXYZ-Wing (6.6).

Sukaku Explainer's WXYZ-, VWXYZ- and UVWXYZ-Wings: k cells of one unit
holding k + 1 digits and a bivalue cell. Defined on units: any unit of the
geometry may hold the set, in Sudoku Explainer's scan order. The search runs
natively on 9x9 when the extension is built (:mod:`.native`); the Python
loop is its oracle.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from sudoku_server.sudoku.techniques import native
from sudoku_server.sudoku.techniques.board import Context, cells_of, digits_of, elims, popcount
from sudoku_server.sudoku.techniques.links import common_peers
from sudoku_server.sudoku.techniques.step import Step, and_list, rc, rcs

__all__ = ["find_als_wing"]

_ALS_WING_NAMES = {3: "WXYZ-Wing", 4: "VWXYZ-Wing", 5: "UVWXYZ-Wing"}


def _als_wing_se(k: int, biggest: int) -> float:
    """Sukaku Explainer's ratings (WXYZWingHint, VWXYZWingHint, UVWXYZWingHint)."""
    if k == 3:
        return 5.5 + ((4 - 3) - abs(3 - biggest)) * 0.1
    if k == 4:
        return 6.2 + ((5 - 3) - abs(3 - biggest)) * 0.1
    return 6.6


def _sets_of(cells: Sequence[int], cand: Sequence[int], k: int, digits: int) -> list[tuple[tuple[int, ...], int]]:
    """k-cell combinations of ``cells`` whose candidates span exactly ``digits`` digits, with their digit mask."""
    out = []
    masks = [cand[c] for c in cells]
    for combo in itertools.combinations(range(len(cells)), k):
        m = 0
        for i in combo:
            m |= masks[i]
        if popcount(m) == digits:
            out.append((tuple(cells[i] for i in combo), m))
    return out


def find_als_wing(x: Context, k: int) -> Step | None:
    """k cells of one unit holding k+1 digits (an almost locked set) and a bivalue cell {x,z}.

    If every ALS cell with x sees the bivalue cell, x cannot be in both, so
    either the bivalue cell is z or the ALS locks z into its cells: z leaves
    every cell that sees the bivalue cell and all the ALS cells holding z.
    """
    t, cand, pos = x.t, x.cand, x.pos
    n = t.n
    # ((se, -victims), ALS cells, bivalue cell, x, z, victims, ALS digits, unit)
    best: tuple[tuple[float, int], tuple[int, ...], int, int, int, int, int, int] | None
    eng = native.engine(t.N, n)
    if eng is not None and all(list(cells) == sorted(cells) for cells in t.units):
        # the same search natively (an ALS is told from another by its cells, as the tuples here)
        x.check()
        r = eng.als_wing(k, cand, [(u, t.units[u]) for u in t.se_order], t.peer_mask)
        if r is None:
            return None
        se10, victim_cells, combo_, y_, xd_, zd_, m_, u_ = r
        victims_ = sum(1 << c for c in victim_cells)
        best = ((round(se10 / 10, 1), -len(victim_cells)), combo_, y_, xd_, zd_, victims_, m_, u_)
        return _als_step(x, k, best)
    by_pair: dict[int, list[int]] = {}
    for c in range(t.N):
        m = cand[c]
        if m and popcount(m) == 2:
            by_pair.setdefault(m, []).append(c)
    if not by_pair:
        return None
    best = None
    seen_sets = set()
    for u in t.se_order:
        x.check()
        cells = [c for c in t.units[u] if cand[c] and 2 <= popcount(cand[c]) <= k + 1]
        if len(cells) < k:
            continue
        for combo, m in _sets_of(cells, cand, k, k + 1):
            ys: list[int] = []
            ds = digits_of(m)
            for i1 in range(len(ds)):
                for i2 in range(i1 + 1, len(ds)):
                    cs = by_pair.get((1 << ds[i1]) | (1 << ds[i2]))
                    if cs:
                        ys.extend(y for y in cs if y not in combo)
            if not ys or combo in seen_sets:
                continue
            seen_sets.add(combo)
            amask = sum(1 << c for c in combo)
            holders = {d: sum(1 << c for c in combo if cand[c] >> d & 1) for d in digits_of(m)}
            sees_all: dict[int, int] = {}
            biggest = max(popcount(cand[c]) for c in combo)
            for y in ys:
                ym = cand[y]
                for xd, zd in (digits_of(ym), digits_of(ym)[::-1]):
                    if holders[xd] & ~t.peer_mask[y]:
                        continue  # x is not restricted: some ALS cell with x misses y
                    sz = sees_all.get(zd)
                    if sz is None:
                        sz = sees_all[zd] = common_peers(t, holders[zd])
                    victims = pos[zd] & sz & t.peer_mask[y] & ~amask
                    if not victims:
                        continue
                    se = round(_als_wing_se(k, biggest), 1)
                    hit = (se, -popcount(victims))
                    if best is None or hit < best[0]:
                        best = (hit, combo, y, xd, zd, victims, m, u)
    if best is None:
        return None
    return _als_step(x, k, best)


def _als_step(
    x: Context, k: int, best: tuple[tuple[float, int], tuple[int, ...], int, int, int, int, int, int]
) -> Step:
    """The step of the best ALS wing found."""
    n = x.t.n
    cand = x.cand
    (se, _), combo, y, xd, zd, victims, m, u = best
    return x.step(
        _ALS_WING_NAMES[k],
        se,
        eliminations=elims((c, zd) for c in cells_of(victims)),
        cells=tuple(combo) + (y,),
        units=(u,),
        digits=tuple(d + 1 for d in digits_of(m)),
        explanation=(
            f": {rcs(combo, n)} hold {and_list([x.d(d) for d in digits_of(m)])} in {x.unit_name(u)}, "
            f"{rc(y, n)} {x.digit_set(cand[y])} sees every {x.d(xd)} of them"
        ),
        focus=x.unit_name(u),
    )
