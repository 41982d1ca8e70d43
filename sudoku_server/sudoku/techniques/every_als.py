"""Every Sue de Coq and almost-locked-set step at one state (9x9; :mod:`.every`).

Definitions as HoDoKu 2.2 has them (``MiscellaneousSolver.java``,
``AlsSolver.java``, read for the definitions):

- *Sue de Coq* (``1101``): 2 or 3 empty cells C of a box-line intersection
  holding digits V, ``|V| >= |C| + 2``; cells A of the rest of the line and B
  of the rest of the box whose digits drawn from V do not meet (A's and B's
  digits outside V each need a cell of their own), ``|A| + |B|`` minus their
  digits outside V making up ``|V| - |C|``. V and B's digits not in A's go
  from the rest of the box, V and A's digits not in B's from the rest of the
  line, and the digits A and B share from both.
- *almost locked set* (ALS): n empty cells of one unit holding n + 1 digits.
  *ALS-XZ* (``0901``): two ALS that do not overlap, a digit X in both whose
  places in the two all see each other (the restricted common): a digit Z in
  both goes from every cell seeing all of Z's places in the two; with two
  restricted commons every digit of each ALS but them goes from the cells
  seeing all its places in that ALS, and each common from the cells seeing
  all its places in both. *ALS-XY-Wing* (``0902``): ALS A and B each with a
  restricted common with a pivot ALS C (different digits): a digit in A and B
  goes from the cells seeing all its places in A and B.
"""

from __future__ import annotations

from itertools import combinations

from sudoku_server.sudoku.techniques.board import Context, cells_of, popcount
from sudoku_server.sudoku.techniques.every_basic import BOX, UNITS, cells_text, seen_by_all, step
from sudoku_server.sudoku.techniques.step import Step

__all__ = ["als_wings", "als_xz", "death_blossoms", "sue_de_coq"]


def _subsets(cells: list[int], cand: list[int]) -> list[tuple[int, int, int]]:
    """Every non-empty subset of ``cells``: (cell mask, digit mask, size)."""
    out = []
    for k in range(1, len(cells) + 1):
        for combo in combinations(cells, k):
            m = 0
            for c in combo:
                m |= cand[c]
            out.append((sum(1 << c for c in combo), m, k))
    return out


def sue_de_coq(x: Context) -> list[Step]:
    out = []
    cand = x.cand
    empty = sum(1 << c for c in range(81) if cand[c])
    for line in range(18):
        for b in range(9):
            inter = UNITS[line] & BOX[b] & empty
            if popcount(inter) < 2:
                continue
            icells = cells_of(inter)
            for size in (2, 3):
                for combo in combinations(icells, size):
                    s_mask = sum(1 << c for c in combo)
                    v = 0
                    for c in combo:
                        v |= cand[c]
                    n_plus = popcount(v) - size
                    if n_plus < 2:
                        continue
                    line_rest = cells_of(UNITS[line] & empty & ~s_mask)
                    for a_mask, a_cand, a_size in _subsets(line_rest, cand):
                        a_extra = popcount(a_cand & ~v)
                        if not a_cand & v or a_size <= a_extra or a_size - a_extra >= n_plus:
                            continue
                        need = n_plus - (a_size - a_extra)
                        forbidden = a_cand & v
                        box_rest = [c for c in cells_of(BOX[b] & empty & ~s_mask & ~a_mask) if not cand[c] & forbidden]
                        for b_mask, b_cand, b_size in _subsets(box_rest, cand):
                            b_extra = popcount(b_cand & ~v)
                            if not b_cand & v or b_size - b_extra != need:
                                continue
                            shared = a_cand & b_cand
                            gone = []
                            box_digits = ((v | b_cand) & ~a_cand) | shared
                            for c in cells_of(BOX[b] & empty & ~b_mask & ~s_mask):
                                gone += [(c, d + 1) for d in range(9) if (cand[c] & box_digits) >> d & 1]
                            line_digits = ((v | a_cand) & ~b_cand) | shared
                            for c in cells_of(UNITS[line] & empty & ~a_mask & ~s_mask):
                                gone += [(c, d + 1) for d in range(9) if (cand[c] & line_digits) >> d & 1]
                            if gone:
                                words = (
                                    f": {cells_text(s_mask)} {x.digit_set(v)}, {cells_text(a_mask)} {x.digit_set(a_cand)},"
                                    f" {cells_text(b_mask)} {x.digit_set(b_cand)}"
                                )
                                out.append(step(x, "Sue de Coq", words, elim=gone))
    return out


class _Als:
    """The ALS of one state and their restricted commons, indexed for speed."""

    def __init__(self, x: Context) -> None:
        cand = x.cand
        seen: set[int] = set()
        self.masks: list[int] = []
        self.digits: list[int] = []
        for u in range(27):
            cells = [c for c in cells_of(UNITS[u]) if cand[c]]
            for k in range(1, len(cells)):
                for combo in combinations(cells, k):
                    m = 0
                    for c in combo:
                        m |= cand[c]
                    if popcount(m) == k + 1:
                        mask = sum(1 << c for c in combo)
                        if mask not in seen:
                            seen.add(mask)
                            self.masks.append(mask)
                            self.digits.append(m)
        # per ALS and digit: its places, and the cells seeing all of them
        self.places = [[x.pos[d] & m for d in range(9)] for m in self.masks]
        self.sees = [[seen_by_all(p) if p else 0 for p in ps] for ps in self.places]
        by_places: dict[tuple[int, int], list[int]] = {}
        for i, ps in enumerate(self.places):
            for d in range(9):
                if ps[d]:
                    by_places.setdefault((d, ps[d]), []).append(i)
        #: (i, j, digit) with i < j: a restricted common of two ALS that do not overlap
        self.rcc: dict[tuple[int, int], list[int]] = {}
        for i, ps in enumerate(self.places):
            x.check()
            for d in range(9):
                if not ps[d]:
                    continue
                room = cells_of(self.sees[i][d] & x.pos[d])
                for k in range(1, len(room) + 1):
                    for combo in combinations(room, k):
                        theirs = sum(1 << c for c in combo)
                        for j in by_places.get((d, theirs), ()):
                            # ALS may overlap, the common's places not in the overlap (HoDoKu's "ALS overlap")
                            mi, mj = self.masks[i], self.masks[j]
                            if j > i and not (mi & mj & (ps[d] | theirs)) and mi & ~mj and mj & ~mi:
                                self.rcc.setdefault((i, j), []).append(d)

    def z_gone(self, x: Context, ids: tuple[int, ...], d: int) -> int:
        """The places of d outside the ALS ``ids`` that see every place of d in them."""
        places = 0
        for i in ids:
            places |= self.places[i][d]
        return x.pos[d] & seen_by_all(places) & ~places


def _als(x: Context) -> _Als:
    key = ("every-als",)
    hit = x.b.memo.get(key)
    if not isinstance(hit, _Als):
        hit = _Als(x)
        x.b.memo[key] = hit
    return hit


def als_xz(x: Context) -> list[Step]:
    out = []
    a = _als(x)
    for (i, j), commons in a.rcc.items():
        da, db = a.digits[i], a.digits[j]
        overlap = a.masks[i] & a.masks[j]
        gone: list[tuple[int, int]] = []
        for d in range(9):
            if (da & db) >> d & 1 and d not in commons and not x.pos[d] & overlap:
                gone += [(c, d + 1) for c in cells_of(a.z_gone(x, (i, j), d))]
        if len(commons) == 2:
            both = a.masks[i] | a.masks[j]  # HoDoKu leaves the cells of both ALS alone
            for k, dk in ((i, da), (j, db)):
                for d in range(9):
                    if dk >> d & 1 and d not in commons:
                        gone += [(c, d + 1) for c in cells_of(a.z_gone(x, (k,), d) & ~both)]
            for d in commons:
                gone += [(c, d + 1) for c in cells_of(a.z_gone(x, (i, j), d))]
        if gone:
            words = (
                f": {cells_text(a.masks[i])} {x.digit_set(da)} and {cells_text(a.masks[j])} {x.digit_set(db)},"
                f" X={x.digit_set(sum(1 << d for d in commons))}"
            )
            out.append(step(x, "ALS-XZ", words, elim=gone))
    return out


def als_wings(x: Context) -> list[Step]:
    out = []
    a = _als(x)
    links: dict[int, list[tuple[int, int]]] = {}
    for (i, j), commons in a.rcc.items():
        for d in commons:
            links.setdefault(i, []).append((j, d))
            links.setdefault(j, []).append((i, d))
    for c, partners in links.items():
        x.check()
        for (i, di), (j, dj) in combinations(partners, 2):
            if di == dj or i == j:
                continue
            da, db = a.digits[i], a.digits[j]
            overlap = a.masks[i] & a.masks[j]
            gone: list[tuple[int, int]] = []
            for d in range(9):
                if (da & db) >> d & 1 and d not in (di, dj) and not x.pos[d] & overlap:
                    gone += [(cell, d + 1) for cell in cells_of(a.z_gone(x, (i, j), d))]
            if gone:
                words = (
                    f": pivot {cells_text(a.masks[c])} {x.digit_set(a.digits[c])}, {cells_text(a.masks[i])}"
                    f" {x.digit_set(da)}, {cells_text(a.masks[j])} {x.digit_set(db)}"
                )
                out.append(step(x, "ALS-XY-Wing", words, elim=gone))
    return out


def death_blossoms(x: Context) -> list[Step]:
    """Death blossom (``0904``): a stem cell, and for each of its digits d an ALS (a petal) holding d whose
    places of d all see the stem; one of the petals then loses d and is locked, so a digit Z of every petal
    (not the stem's) goes from the cells seeing all of Z's places in the petals. Petals may overlap
    (HoDoKu's ALS overlap)."""
    out: list[Step] = []
    a = _als(x)
    cand = x.cand
    stems = sum(1 << c for c in range(81) if 2 <= popcount(cand[c]) <= 4)
    # per stem cell and digit d: the ALS holding d whose places of d all see it (not holding it)
    petals_of: dict[int, dict[int, list[int]]] = {}
    for i, places in enumerate(a.places):
        for d in range(9):
            if places[d]:
                for stem in cells_of(a.sees[i][d] & stems & x.pos[d] & ~a.masks[i]):
                    petals_of.setdefault(stem, {}).setdefault(d, []).append(i)
    for stem, petals in petals_of.items():
        sm = cand[stem]
        stem_digits = [d for d in range(9) if sm >> d & 1]
        if any(d not in petals for d in stem_digits):
            continue
        x.check()
        for z in range(9):
            if sm >> z & 1:
                continue
            choices = [[i for i in petals[d] if a.places[i][z]] for d in stem_digits]
            if not all(choices):
                continue
            # depth first over one petal per stem digit, keeping what still sees every place of z so far
            todo: list[tuple[int, int, tuple[int, ...]]] = [(0, x.pos[z] & ~(1 << stem), ())]
            while todo:
                k, room, combo = todo.pop()
                if k == len(choices):
                    zplaces = 0
                    for i in combo:  # petals may overlap, or be one ALS for two digits: the argument holds
                        zplaces |= a.places[i][z]
                    gone = room & ~zplaces
                    if gone:
                        words = f": stem {cells_text(1 << stem)}, petals " + "; ".join(
                            cells_text(a.masks[i]) for i in combo
                        )
                        out.append(step(x, "death blossom", words, elim=[(c, z + 1) for c in cells_of(gone)]))
                    continue
                for i in choices[k]:
                    r = room & a.sees[i][z]
                    if r:
                        todo.append((k + 1, r, (*combo, i)))
    return out
