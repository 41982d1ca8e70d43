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
  kites: two kites through the same two cells of their box, on one digit or
  two (HoDoKu's ``findDualTwoStringKites`` pairs any two of its kites so);
  dual empty rectangles: two on the same box; each pair taken together.
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

from sudoku_server.sudoku.techniques.board import Context, cells_of, popcount
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

__all__ = [
    "avoidable_rectangles",
    "bug_plus_one",
    "colours",
    "rectangles",
    "single_digit",
    "templates",
    "w_wings",
    "xy_wings",
    "xyz_wings",
]


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
    # per pair of cells in the box joining a kite's links: its digit's eliminations (any digit)
    kites: dict[tuple[int, int], list[list[tuple[int, int]]]] = {}
    for d0 in range(9):
        p = x.pos[d0]
        links = _strong_links(p)
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
                        kites.setdefault((min(s1, s2), max(s1, s2)), []).append(digit_elims(gone, d0))
                    else:
                        name = "turbot fish"
                    words = f" on {d0 + 1}: {rc(e1, 9)}={rc(s1, 9)}-{rc(s2, 9)}={rc(e2, 9)}"
                    out.append(step(x, name, words, elim=digit_elims(gone, d0)))
        out.extend(_empty_rectangles(x, d0, links))
    for (b1, b2), gones in kites.items():
        for g1, g2 in combinations(gones, 2):
            if g1 != g2:
                digits = "/".join(sorted({str(d) for _, d in g1 + g2}))
                words = f" on {digits} through {rc(b1, 9)} and {rc(b2, 9)} (box {BOX_OF[b1] + 1})"
                out.append(step(x, "dual two-string kite", words, elim=g1 + g2))
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


def _allowed(x: Context) -> list[int]:
    """Per 0-based digit, the empty cells no filled peer excludes it from (its candidates before any deletion:
    HoDoKu's "missing candidates" are digits deleted there by a technique)."""
    out = []
    empty = sum(1 << c for c in range(81) if not x.values[c])
    for d in range(1, 10):
        m = empty
        for c in range(81):
            if x.values[c] == d:
                m &= ~PEERS[c]
        out.append(m)
    return out


def rectangles(x: Context) -> list[Step]:
    """Unique rectangles types 1-6 and hidden rectangles (``UniquenessSolver.checkURForStep``), missing
    candidates allowed, and avoidable rectangles types 1 and 2 on placed (not given) cells."""
    out: list[Step] = []
    cand = x.cand
    allowed = _allowed(x)
    for rect in _RECTS:
        if any(x.values[c] for c in rect):
            out.extend(_avoidable(x, rect))
            continue
        for ab in dict.fromkeys(cand[c] for c in rect if popcount(cand[c]) == 2):
            a0 = (ab & -ab).bit_length() - 1
            b0 = ab.bit_length() - 1
            if any(not allowed[a0] >> c & 1 or not allowed[b0] >> c & 1 for c in rect):
                continue
            out.extend(_ur_steps(x, rect, ab, a0, b0))
    return out


def _ur_steps(x: Context, rect: tuple[int, int, int, int], ab: int, a0: int, b0: int) -> list[Step]:
    cand = x.cand
    out = []
    two = [c for c in rect if not cand[c] & ~ab]
    add = [c for c in rect if cand[c] & ~ab]
    rmask = sum(1 << c for c in rect)
    words = f" on {a0 + 1}/{b0 + 1} in {cells_text(rmask)}"
    if len(two) == 3:
        gone = [(add[0], d + 1) for d in (a0, b0) if cand[add[0]] >> d & 1]
        if gone:
            out.append(step(x, "unique rectangle type 1", words, elim=gone))
    if len(two) in (1, 2):
        extra = 0
        for c in add:
            extra |= cand[c] & ~ab
        if popcount(extra) == 1:
            z0 = extra.bit_length() - 1
            gone_cells = x.pos[z0] & seen_by_all(sum(1 << c for c in add))
            if gone_cells:
                i1, i2 = add[0], add[1]
                diagonal = len(add) == 3 or (ROW_OF[i1] != ROW_OF[i2] and COL_OF[i1] != COL_OF[i2])
                name = "unique rectangle type 5" if diagonal else "unique rectangle type 2"
                out.append(step(x, name, words, elim=digit_elims(gone_cells, z0)))
    if len(two) == 2:
        i1, i2 = add
        u3 = (cand[i1] | cand[i2]) & ~ab
        for u in range(27):
            if UNITS[u] >> i1 & 1 and UNITS[u] >> i2 & 1:
                out.extend(_ur3(x, u, u3, ab, rmask, (i1, i2), words))
        if ROW_OF[i1] == ROW_OF[i2] or COL_OF[i1] == COL_OF[i2]:
            both = PEERS[i1] & PEERS[i2]
            drop = b0 if not x.pos[a0] & both else a0 if not x.pos[b0] & both else -1
            if drop >= 0:
                gone = [(c, drop + 1) for c in (i1, i2) if cand[c] >> drop & 1]
                if gone:
                    out.append(step(x, "unique rectangle type 4", words, elim=gone))
        else:
            lines = ROW[ROW_OF[i1]] | COL[COL_OF[i1]] | ROW[ROW_OF[i2]] | COL[COL_OF[i2]]
            lines &= ~rmask
            drop = a0 if not x.pos[a0] & lines else b0 if not x.pos[b0] & lines else -1
            if drop >= 0:
                gone = [(c, drop + 1) for c in (i1, i2) if cand[c] >> drop & 1]
                if gone:
                    out.append(step(x, "unique rectangle type 6", words, elim=gone))
    if len(two) == 1 or (len(two) == 2 and ROW_OF[two[0]] != ROW_OF[two[1]] and COL_OF[two[0]] != COL_OF[two[1]]):
        for corner in two:
            i1, i2 = add[0], add[1]
            line = ROW_OF[i2] if ROW_OF[i1] == ROW_OF[corner] else ROW_OF[i1]
            col = COL_OF[i2] if COL_OF[i1] == COL_OF[corner] else COL_OF[i1]
            target = line * 9 + col
            for keep, drop in ((a0, b0), (b0, a0)):
                if x.pos[keep] & (ROW[line] | COL[col]) & ~rmask:
                    continue
                if cand[target] >> drop & 1:
                    out.append(step(x, "hidden rectangle", words, elim=((target, drop + 1),)))
    return out


def _ur3(x: Context, u: int, u3: int, ab: int, rmask: int, roof: tuple[int, int], words: str) -> list[Step]:
    """Unique rectangle type 3: the roof's extra digits as one virtual cell in a naked subset of unit ``u``."""
    cand = x.cand
    others = [c for c in cells_of(UNITS[u] & ~rmask) if cand[c] and not cand[c] & ab]
    out = []
    for k in range(1, len(others) + 1):
        for combo in combinations(others, k):
            digits = u3
            for c in combo:
                digits |= cand[c]
            if popcount(digits) != k + 1:  # the roof counts as one cell
                continue
            cells = sum(1 << c for c in combo) | 1 << roof[0] | 1 << roof[1]
            if u >= 18 and (
                len({ROW_OF[c] for c in cells_of(cells)}) == 1 or len({COL_OF[c] for c in cells_of(cells)}) == 1
            ):
                continue
            scope = UNITS[u]
            if u < 18 and len({BOX_OF[c] for c in cells_of(cells)}) == 1:
                scope |= BOX[BOX_OF[roof[0]]]
            gone = [(c, d + 1) for c in cells_of(scope & ~cells) for d in range(9) if (cand[c] & digits) >> d & 1]
            if gone:
                out.append(step(x, "unique rectangle type 3", f"{words}, with {cells_text(cells & ~rmask)}", elim=gone))
    return out


def avoidable_rectangles(x: Context) -> list[tuple[tuple[int, int, int, int], Step]]:
    """Every avoidable rectangle step (types 1 and 2, :func:`_avoidable`), each with its rectangle's four cells;
    none unless the board has placed (not given) cells."""
    if not x.b.placed:
        return []
    return [(rect, s) for rect in _RECTS if any(x.values[c] for c in rect) for s in _avoidable(x, rect)]


def _avoidable(x: Context, rect: tuple[int, int, int, int]) -> list[Step]:
    """Avoidable rectangles (``UniquenessSolver.checkAvoidableRectangle``): a side of two placed (not given)
    cells a, b in one box; across, b placed and a's cell bivalue (type 1: a goes), or both cells {b,c} and {a,c}
    (type 2: c goes from the cells seeing both)."""
    placed = x.b.placed
    cand, values = x.cand, x.values
    out = []
    r1c1, r1c2, r2c1, r2c2 = rect
    sides = [(r1c1, r1c2, r2c1, r2c2), (r2c1, r2c2, r1c1, r1c2), (r1c1, r2c1, r1c2, r2c2), (r1c2, r2c2, r1c1, r2c1)]
    for i11, i12, i21, i22 in sides:
        if BOX_OF[i11] != BOX_OF[i12] or not (placed >> i11 & 1 and placed >> i12 & 1):
            continue
        for s11, s12, s21, s22 in ((i11, i12, i21, i22), (i12, i11, i22, i21)):
            a, b = values[s11], values[s12]
            ma, mb = 1 << (a - 1), 1 << (b - 1)
            words = f" on {a}/{b} in {cells_text(sum(1 << c for c in rect))}"
            if (
                values[s21] == b
                and placed >> s21 & 1
                and not values[s22]
                and cand[s22] & ma
                and popcount(cand[s22]) == 2
            ):
                out.append(step(x, "avoidable rectangle type 1", words, elim=((s22, a),)))
            both_open = not values[s21] and not values[s22] and cand[s21] & mb and cand[s22] & ma
            if both_open and popcount(cand[s21]) == 2 and popcount(cand[s22]) == 2:
                z = cand[s21] & ~mb
                if cand[s22] & z:
                    z0 = z.bit_length() - 1
                    gone = x.pos[z0] & PEERS[s21] & PEERS[s22]
                    if gone:
                        out.append(step(x, "avoidable rectangle type 2", words, elim=digit_elims(gone, z0)))
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


def _clusters(p: int) -> list[tuple[int, int]]:
    """The conjugate-pair clusters of a digit (bitboard ``p``), each two-coloured: ``(colour A, colour B)``."""
    adj: dict[int, list[int]] = {}
    for _u, a, b in _strong_links(p):
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    colour: dict[int, int] = {}
    out = []
    for start in sorted(adj):
        if start in colour:
            continue
        colour[start] = 0
        sides = [1 << start, 0]
        todo = [start]
        while todo:
            c = todo.pop()
            for o in adj[c]:
                if o not in colour:
                    colour[o] = 1 - colour[c]
                    sides[colour[o]] |= 1 << o
                    todo.append(o)
        out.append((sides[0], sides[1]))
    return out


def _sees(cells: int) -> int:
    """The cells that see at least one cell of ``cells``."""
    m = 0
    for c in cells_of(cells):
        m |= PEERS[c]
    return m


def _conflict(side: int) -> bool:
    """Two cells of one colour see each other."""
    return any(side & PEERS[c] for c in cells_of(side))


def colours(x: Context) -> list[Step]:
    """Simple colours (trap, wrap) and multi-colours (types 1 and 2), HoDoKu's ``ColoringSolver`` definitions."""
    out = []
    for d0 in range(9):
        p = x.pos[d0]
        clusters = _clusters(p)
        for a, b in clusters:
            words = f" on {d0 + 1}: {cells_text(a)} / {cells_text(b)}"
            trapped = p & _sees(a) & _sees(b) & ~(a | b)
            if trapped:
                out.append(step(x, "simple colours trap", words, elim=digit_elims(trapped, d0)))
            for side in (a, b):
                if _conflict(side):
                    out.append(step(x, "simple colours wrap", words, elim=digit_elims(side, d0)))
        for (a1, a2), (b1, b2) in combinations(clusters, 2):
            for first, second in (((a1, a2), (b1, b2)), ((b1, b2), (a1, a2))):
                for s1, s2 in (first, first[::-1]):
                    # multi-colours 2: one colour sees both colours of the other cluster: it is false
                    if _sees(s1) & second[0] and _sees(s1) & second[1]:
                        words = (
                            f" on {d0 + 1}: {cells_text(s1)} sees both colours of {cells_text(second[0] | second[1])}"
                        )
                        out.append(step(x, "multi-colours 2", words, elim=digit_elims(s1, d0)))
            # multi-colours 1: s1 and t1 see each other, so s2 or t2 is true: what sees both goes (one step per pair)
            gone = 0
            for s1, s2 in ((a1, a2), (a2, a1)):
                for t1, t2 in ((b1, b2), (b2, b1)):
                    if _sees(s1) & t1:
                        gone |= p & _sees(s2) & _sees(t2) & ~(s2 | t2)
            if gone:
                words = f" on {d0 + 1}: {cells_text(a1)} / {cells_text(a2)} and {cells_text(b1)} / {cells_text(b2)}"
                out.append(step(x, "multi-colours 1", words, elim=digit_elims(gone, d0)))
    return out


def _templates_of(x: Context, d0: int) -> list[int]:
    """Every placement of the digit in all nine rows (one cell per row, column and box) that keeps its
    placed cells and uses only its candidates."""
    p = x.pos[d0]
    d = d0 + 1
    allowed = []
    for r in range(9):
        row = [r * 9 + c for c in range(9) if x.values[r * 9 + c] == d]
        allowed.append(row if row else list(cells_of(p & ROW[r])))
    out: list[int] = []

    def go(r: int, cols: int, boxes: int, acc: int) -> None:
        if r == 9:
            out.append(acc)
            return
        for c in allowed[r]:
            col = 1 << COL_OF[c]
            box = 1 << BOX_OF[c]
            if not cols & col and not boxes & box:
                go(r + 1, cols | col, boxes | box, acc | 1 << c)

    go(0, 0, 0, 0)
    return out


def templates(x: Context) -> list[Step]:
    """Template set and delete per digit, with HoDoKu's refinement: a template is dropped while it uses a cell
    every remaining template of another digit uses (``SudokuStepFinder.initCandTemplates``)."""
    lists = [_templates_of(x, d0) for d0 in range(9)]
    full = (1 << 81) - 1

    def meet(ts: list[int]) -> int:
        m = full
        for t in ts:
            m &= t
        return m

    must = [meet(ts) for ts in lists]
    removed = True
    while removed:
        removed = False
        for j in range(9):
            others = 0
            for k in range(9):
                if k != j:
                    others |= must[k]
            keep = [t for t in lists[j] if not t & others]
            if len(keep) != len(lists[j]):
                removed = True
                lists[j] = keep
            must[j] = meet(keep)
    out = []
    for d0 in range(9):
        if not lists[d0]:
            continue
        placed = sum(1 << c for c in range(81) if x.values[c] == d0 + 1)
        sets = must[d0] & ~placed
        if sets:
            words = f": every template of {d0 + 1} holds {cells_text(sets)}"
            out.append(step(x, "template set", words, place=tuple((c, d0 + 1) for c in cells_of(sets))))
        union = 0
        for t in lists[d0]:
            union |= t
        gone = x.pos[d0] & ~union
        if gone:
            words = f": no template of {d0 + 1} holds {cells_text(gone)}"
            out.append(step(x, "template delete", words, elim=digit_elims(gone, d0)))
    return out
