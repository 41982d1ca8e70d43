"""Every instance of the pattern techniques at one state: single-digit patterns, wings, unique rectangles
(9x9; :mod:`.every`).

Definitions as HoDoKu 2.2 has them (``SingleDigitPatternSolver.java``,
``WingSolver.java``, ``UniquenessSolver.java``, read for the definitions):

- *skyscraper*: two strong links on a digit in two rows (columns) whose ends
  share a column (row); the digit goes from the cells seeing both other ends.
  *Two-string kite*: a strong link in a row and one in a column with an end
  of each in one box (distinct cells); the digit goes from the cell seeing
  both other ends. *Turbot fish*: any other two strong links joined by a
  weak link. *Empty rectangle*: a box whose places for the digit lie on one
  row and one column of it (not on one line alone), and a strong link in a
  line outside the box with an end on that row (column): the digit goes from
  the cell where the link's other end meets the box's column (row). *Dual*
  kites and empty rectangles: two on the same box, taken together.
- *XY-Wing*: a bivalue pivot {x,y} and bivalue pincers {x,z}, {y,z} it sees:
  z goes from the cells seeing both pincers. *XYZ-Wing*: the pivot is
  {x,y,z}; z goes from the cells seeing all three. *W-Wing*: two cells {x,y}
  that do not see each other, each seeing one end of a strong link on x: y
  goes from the cells seeing both.
- *unique rectangle* types 1, 2 and 4 on four empty cells in two rows, two
  columns and two boxes holding both digits a and b.
"""

from __future__ import annotations

from itertools import combinations

from sudoku_server.sudoku.techniques.board import Context, popcount
from sudoku_server.sudoku.techniques.every_basic import (
    BOX,
    BOX_OF,
    COL,
    COL_OF,
    PEERS,
    ROW,
    ROW_OF,
    UNITS,
    cells_text,
    digit_elims,
    seen_by_all,
    step,
)
from sudoku_server.sudoku.techniques.step import Step, rc

__all__ = ["bug_plus_one", "colours", "rectangles", "single_digit", "templates", "w_wings", "xy_wings", "xyz_wings"]


def _strong_links(p: int) -> list[tuple[int, int, int]]:
    """``(unit, a, b)``: the units where the digit (bitboard ``p``) has exactly two places a < b."""
    out = []
    for u in range(27):
        m = p & UNITS[u]
        if popcount(m) == 2:
            a = (m & -m).bit_length() - 1
            b = m.bit_length() - 1
            out.append((u, a, b))
    return out


def single_digit(x: Context) -> list[Step]:
    out: list[Step] = []
    for d0 in range(9):
        p = x.pos[d0]
        links = _strong_links(p)
        kites: dict[int, list[int]] = {}
        for (u1, a1, b1), (u2, a2, b2) in combinations(links, 2):
            for s1, e1 in ((a1, b1), (b1, a1)):
                for s2, e2 in ((a2, b2), (b2, a2)):
                    if len({s1, e1, s2, e2}) < 4 or not PEERS[s1] >> s2 & 1:
                        continue
                    gone = p & PEERS[e1] & PEERS[e2] & ~(1 << s1 | 1 << s2)
                    if not gone:
                        continue
                    same_kind = u1 // 9 == u2 // 9 and u1 < 18
                    if same_kind and (
                        (u1 < 9 and COL_OF[s1] == COL_OF[s2]) or (9 <= u1 < 18 and ROW_OF[s1] == ROW_OF[s2])
                    ):
                        name = "skyscraper"
                    elif {u1 // 9, u2 // 9} == {0, 1} and BOX_OF[s1] == BOX_OF[s2]:
                        name = "two-string kite"
                        kites.setdefault(BOX_OF[s1], []).append(gone)
                    else:
                        name = "turbot fish"
                    words = f" on {d0 + 1}: {rc(e1, 9)}={rc(s1, 9)}-{rc(s2, 9)}={rc(e2, 9)}"
                    out.append(step(x, name, words, elim=digit_elims(gone, d0)))
        for box, gones in kites.items():
            for g1, g2 in combinations(gones, 2):
                if g1 != g2:
                    out.append(
                        step(x, "dual two-string kite", f" on {d0 + 1} in box {box + 1}", elim=digit_elims(g1 | g2, d0))
                    )
        out.extend(_empty_rectangles(x, d0, links))
    return out


def _empty_rectangles(x: Context, d0: int, links: list[tuple[int, int, int]]) -> list[Step]:
    out = []
    p = x.pos[d0]
    for b in range(9):
        m = p & BOX[b]
        if popcount(m) < 2:
            continue
        found: list[int] = []
        for r in range(b // 3 * 3, b // 3 * 3 + 3):
            for c in range(b % 3 * 3, b % 3 * 3 + 3):
                cross = ROW[r] | COL[c]
                if m & ~cross or not m & ~ROW[r] or not m & ~COL[c]:
                    continue
                for u, a, z in links:
                    if u >= 18:
                        continue
                    for s, e in ((a, z), (z, a)):
                        if BOX_OF[s] == b or BOX_OF[e] == b:
                            continue
                        if u >= 9 and ROW_OF[s] == r:  # a column's link, one end on the box's row
                            target = ROW_OF[e] * 9 + c
                        elif u < 9 and COL_OF[s] == c:  # a row's link, one end on the box's column
                            target = r * 9 + COL_OF[e]
                        else:
                            continue
                        if BOX_OF[target] == b or not p >> target & 1:
                            continue
                        words = f" on {d0 + 1} in box {b + 1} (row {r + 1}, column {c + 1}), link {rc(s, 9)}={rc(e, 9)}"
                        out.append(step(x, "empty rectangle", words, elim=((target, d0 + 1),)))
                        found.append(1 << target)
        for g1, g2 in combinations(dict.fromkeys(found), 2):
            out.append(step(x, "dual empty rectangle", f" on {d0 + 1} in box {b + 1}", elim=digit_elims(g1 | g2, d0)))
    return out


def _bivalues(x: Context) -> list[int]:
    return [c for c in range(81) if popcount(x.cand[c]) == 2]


def xy_wings(x: Context) -> list[Step]:
    out = []
    cand = x.cand
    bi = _bivalues(x)
    for pivot in bi:
        pm = cand[pivot]
        wings = [c for c in bi if c != pivot and PEERS[pivot] >> c & 1 and popcount(cand[c] & pm) == 1]
        for w1, w2 in combinations(wings, 2):
            z = cand[w1] & cand[w2] & ~pm
            if not z or cand[w1] & pm == cand[w2] & pm or popcount(z) != 1:
                continue
            d0 = z.bit_length() - 1
            gone = x.pos[d0] & PEERS[w1] & PEERS[w2]
            if gone:
                words = f": {rc(pivot, 9)} {x.digit_set(pm)}, {rc(w1, 9)} {x.digit_set(cand[w1])}, {rc(w2, 9)} {x.digit_set(cand[w2])}"
                out.append(step(x, "XY-Wing", words, elim=digit_elims(gone, d0)))
    return out


def xyz_wings(x: Context) -> list[Step]:
    out = []
    cand = x.cand
    bi = _bivalues(x)
    for pivot in range(81):
        pm = cand[pivot]
        if popcount(pm) != 3:
            continue
        wings = [c for c in bi if PEERS[pivot] >> c & 1 and cand[c] & pm == cand[c]]
        for w1, w2 in combinations(wings, 2):
            if cand[w1] == cand[w2]:
                continue
            z = cand[w1] & cand[w2]
            d0 = z.bit_length() - 1
            gone = x.pos[d0] & PEERS[w1] & PEERS[w2] & PEERS[pivot]
            if gone:
                words = f": {rc(pivot, 9)} {x.digit_set(pm)}, {rc(w1, 9)} {x.digit_set(cand[w1])}, {rc(w2, 9)} {x.digit_set(cand[w2])}"
                out.append(step(x, "XYZ-Wing", words, elim=digit_elims(gone, d0)))
    return out


def w_wings(x: Context) -> list[Step]:
    out = []
    cand = x.cand
    bi = _bivalues(x)
    links = {d0: _strong_links(x.pos[d0]) for d0 in range(9)}
    for c1, c2 in combinations(bi, 2):
        if cand[c1] != cand[c2] or PEERS[c1] >> c2 & 1:
            continue
        for xd in (cand[c1] & -cand[c1], cand[c1] & (cand[c1] - 1)):
            x0 = xd.bit_length() - 1
            y0 = (cand[c1] & ~xd).bit_length() - 1
            gone = x.pos[y0] & PEERS[c1] & PEERS[c2]
            if not gone:
                continue
            for _u, a, b in links[x0]:
                if a in (c1, c2) or b in (c1, c2):
                    continue
                if (PEERS[c1] >> a & 1 and PEERS[c2] >> b & 1) or (PEERS[c1] >> b & 1 and PEERS[c2] >> a & 1):
                    words = f": {rc(c1, 9)} and {rc(c2, 9)} {x.digit_set(cand[c1])}, strong link {x0 + 1} {rc(a, 9)}={rc(b, 9)}"
                    out.append(step(x, "W-Wing", words, elim=digit_elims(gone, y0)))
    return out


def _rects() -> list[tuple[int, int, int, int]]:
    out = []
    for r1, r2 in combinations(range(9), 2):
        for c1, c2 in combinations(range(9), 2):
            cells = (r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2)
            if len({BOX_OF[c] for c in cells}) == 2:
                out.append(cells)
    return out


_RECTS = _rects()


def rectangles(x: Context) -> list[Step]:
    """Unique rectangles types 1, 2 and 4, with missing candidates allowed in the cells that are not {a,b}."""
    out = []
    cand = x.cand
    for rect in _RECTS:
        ms = [cand[c] for c in rect]
        if not all(ms):
            continue
        pairs = {m for m in ms if popcount(m) == 2}
        for ab in pairs:
            a0 = (ab & -ab).bit_length() - 1
            b0 = ab.bit_length() - 1
            exact = [c for c in rect if cand[c] == ab]
            extra = [c for c in rect if cand[c] != ab]
            if len(exact) < 2 or any(not cand[c] & ab or not cand[c] & ~ab for c in extra):
                continue
            name = f" on {a0 + 1}/{b0 + 1} in {cells_text(sum(1 << c for c in rect))}"
            if len(exact) == 3:
                (c,) = extra
                gone = [(c, d + 1) for d in (a0, b0) if cand[c] >> d & 1]
                out.append(step(x, "unique rectangle type 1", name, elim=gone))
            if len(exact) == 2:
                e1, e2 = extra
                if not PEERS[e1] >> e2 & 1:
                    continue
                more = (cand[e1] | cand[e2]) & ~ab
                if cand[e1] & ~ab == cand[e2] & ~ab and popcount(more) == 1:
                    z0 = more.bit_length() - 1
                    gone_cells = x.pos[z0] & seen_by_all(1 << e1 | 1 << e2)
                    if gone_cells:
                        out.append(step(x, "unique rectangle type 2", name, elim=digit_elims(gone_cells, z0)))
                for u in range(27):
                    if UNITS[u] >> e1 & 1 and UNITS[u] >> e2 & 1:
                        for keep, drop in ((a0, b0), (b0, a0)):
                            if x.pos[keep] & UNITS[u] == 1 << e1 | 1 << e2:
                                gone = [(c, drop + 1) for c in (e1, e2) if cand[c] >> drop & 1]
                                if gone:
                                    out.append(step(x, "unique rectangle type 4", name, elim=gone))
    return out


def bug_plus_one(x: Context) -> list[Step]:
    """BUG+1: every empty cell bivalue but one with three candidates; the digit there three times in its units."""
    cand = x.cand
    multi = [c for c in range(81) if cand[c] and popcount(cand[c]) != 2]
    if len(multi) != 1 or popcount(cand[multi[0]]) != 3:
        return []
    c = multi[0]
    for d0 in range(9):
        if cand[c] >> d0 & 1 and all(
            popcount(x.pos[d0] & UNITS[u]) == 3 for u in (ROW_OF[c], 9 + COL_OF[c], 18 + BOX_OF[c])
        ):
            gone = [(c, d + 1) for d in range(9) if d != d0 and cand[c] >> d & 1]  # HoDoKu removes the others
            return [step(x, "BUG+1", f": all but {rc(c, 9)} bivalue, so it is {d0 + 1}", elim=gone)]
    return []


def colours(x: Context) -> list[Step]:
    return []


def templates(x: Context) -> list[Step]:
    return []
