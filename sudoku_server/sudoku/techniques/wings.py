"""Wings of bivalue cells: XY-Wing (SE 4.2), XYZ-Wing (4.4), W-Wing (a named pattern, 7.1).

Cells "see" each other through the geometry's peers (any shared unit); the
W-Wing's strong link may lie in any unit.
"""

from __future__ import annotations

from sudoku_server.sudoku.techniques.board import Context, cells_of, digits_of, elims, popcount
from sudoku_server.sudoku.techniques.step import Step, rc

__all__ = ["find_w_wing", "find_xy_wing", "find_xyz_wing"]


def find_xy_wing(x: Context) -> Step | None:
    """Pivot {x,y} seeing wings {x,z} and {y,z}: z leaves the cells seeing both wings (SE 4.2)."""
    t, cand, pos = x.t, x.cand, x.pos
    n = t.n
    bival = [c for c in range(t.N) if cand[c] and popcount(cand[c]) == 2]
    bmask = sum(1 << c for c in bival)
    for pv in bival:
        pm = cand[pv]
        wings = [w for w in cells_of(t.peer_mask[pv] & bmask) if popcount(cand[w] & pm) == 1]
        for i, w1 in enumerate(wings):
            for w2 in wings[i + 1 :]:
                if cand[w1] & cand[w2] & pm:
                    continue  # same pivot digit
                z = cand[w1] & cand[w2] & ~pm
                if not z or cand[w1] | cand[w2] != pm | z:
                    continue
                zd = z.bit_length() - 1
                victims = pos[zd] & t.peer_mask[w1] & t.peer_mask[w2] & ~(1 << pv)
                if victims:
                    return x.step(
                        "XY-Wing",
                        4.2,
                        eliminations=elims((c, zd) for c in cells_of(victims)),
                        cells=(pv, w1, w2),
                        digits=tuple(d + 1 for d in digits_of(pm | z)),
                        explanation=(
                            f": pivot {rc(pv, n)} {x.digit_set(pm)} with wings "
                            f"{rc(w1, n)} {x.digit_set(cand[w1])} and {rc(w2, n)} {x.digit_set(cand[w2])}"
                        ),
                        focus=x.unit_name(t.box_unit[pv]),
                    )
    return None


def find_xyz_wing(x: Context) -> Step | None:
    """Pivot {x,y,z} seeing wings {x,z} and {y,z}: z leaves the cells seeing all three (SE 4.4)."""
    t, cand, pos = x.t, x.cand, x.pos
    n = t.n
    bmask = sum(1 << c for c in range(t.N) if cand[c] and popcount(cand[c]) == 2)
    for pv in range(t.N):
        pm = cand[pv]
        if not pm or popcount(pm) != 3:
            continue
        wings = [w for w in cells_of(t.peer_mask[pv] & bmask) if cand[w] & ~pm == 0]
        for i, w1 in enumerate(wings):
            for w2 in wings[i + 1 :]:
                if cand[w1] == cand[w2]:
                    continue
                z = cand[w1] & cand[w2]
                zd = z.bit_length() - 1
                victims = pos[zd] & t.peer_mask[pv] & t.peer_mask[w1] & t.peer_mask[w2]
                if victims:
                    return x.step(
                        "XYZ-Wing",
                        4.4,
                        eliminations=elims((c, zd) for c in cells_of(victims)),
                        cells=(pv, w1, w2),
                        digits=tuple(d + 1 for d in digits_of(pm)),
                        explanation=(
                            f": pivot {rc(pv, n)} {x.digit_set(pm)} with wings "
                            f"{rc(w1, n)} {x.digit_set(cand[w1])} and {rc(w2, n)} {x.digit_set(cand[w2])}"
                        ),
                        focus=x.unit_name(t.box_unit[pv]),
                    )
    return None


def find_w_wing(x: Context) -> Step | None:
    """Two bivalue cells {x,y} joined by a strong link on y: x leaves the cells seeing both.

    A cell sees one end of a conjugate pair on y, the pair's other end sees
    the other cell; one of the two cells is x.
    """
    t, cand, pos = x.t, x.cand, x.pos
    n = t.n
    bival = [c for c in range(t.N) if cand[c] and popcount(cand[c]) == 2]
    for i, a in enumerate(bival):
        for b in bival[i + 1 :]:
            if cand[a] != cand[b] or t.peer_mask[a] >> b & 1:
                continue
            for yd, xd in (digits_of(cand[a]), digits_of(cand[a])[::-1]):
                victims = pos[xd] & t.peer_mask[a] & t.peer_mask[b]
                if not victims:
                    continue
                for u in range(len(t.units)):
                    pm = pos[yd] & t.unit_mask[u]
                    if popcount(pm) != 2 or pm >> a & 1 or pm >> b & 1:
                        continue
                    low = pm & -pm
                    e1, e2 = low.bit_length() - 1, (pm ^ low).bit_length() - 1
                    for s1, s2 in ((e1, e2), (e2, e1)):
                        if t.peer_mask[a] >> s1 & 1 and t.peer_mask[b] >> s2 & 1:
                            return x.step(
                                "W-Wing",
                                7.1,
                                eliminations=elims((c, xd) for c in cells_of(victims)),
                                cells=(a, b, s1, s2),
                                units=(u,),
                                digits=(xd + 1, yd + 1),
                                explanation=(
                                    f": {rc(a, n)} and {rc(b, n)} hold {x.digit_set(cand[a])}, "
                                    f"joined by the {x.d(yd)}s of {x.unit_name(u)} ({rc(s1, n)}, {rc(s2, n)})"
                                ),
                                focus=x.unit_name(u),
                            )
    return None
