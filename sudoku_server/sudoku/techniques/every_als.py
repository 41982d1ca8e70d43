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
  restricted common with a pivot ALS C (not both one and the same digit): a
  digit in A and B, none of those commons, goes from the cells seeing all its
  places in A and B (:func:`als_wings`). *ALS chain* (``0903``, HoDoKu's
  ALS-XY-Chain, also ``RestrictedCommon.java`` and ``SudokuStepFinder.java``):
  four to seven ALS linked by restricted commons, consecutive links carrying
  different digits (:func:`als_chains`).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from sudoku_server.sudoku.techniques.board import Context, cells_of, popcount
from sudoku_server.sudoku.techniques.every_basic import BOX, UNITS, cells_text, seen_by_all, step
from sudoku_server.sudoku.techniques.step import Step

__all__ = [
    "almost_locked_sets",
    "als_chains",
    "als_wings",
    "als_xz",
    "carried_on",
    "chain_ends",
    "chain_links",
    "chain_states",
    "cleared",
    "death_blossoms",
    "sue_de_coq",
]


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
        found: list[tuple[int, tuple[int, ...]]] = []  # where HoDoKu's search first meets each ALS
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
                            found.append((u, combo))
        #: per ALS, its place in HoDoKu's list (units rows, columns, boxes; in a unit, cell tuples in
        #: lexicographic order: ``SudokuStepFinder.checkAlsRecursive``), which orients its chains
        self.rank = [0] * len(found)
        for r, i in enumerate(sorted(range(len(found)), key=found.__getitem__)):
            self.rank[i] = r
        # per ALS and digit: its places, and the cells seeing all of them
        self.places = [[x.pos[d] & m for d in range(9)] for m in self.masks]
        self.sees = [[seen_by_all(p) if p else 0 for p in ps] for ps in self.places]
        self._reach: list[list[int]] | None = None
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

    def reach(self, x: Context) -> list[list[int]]:
        """Per ALS and digit: the cells outside it holding the digit that see all its places of it (0: none)."""
        if self._reach is None:
            pos = x.pos
            self._reach = [
                [s & pos[d] & ~m if p else 0 for d, (p, s) in enumerate(zip(ps, ss))]
                for m, ps, ss in zip(self.masks, self.places, self.sees)
            ]
        return self._reach

    def z_gone(self, x: Context, ids: tuple[int, ...], d: int) -> int:
        """The places of d outside the ALS ``ids`` that see every place of d in them."""
        out = x.pos[d]
        for i in ids:
            if self.places[i][d]:
                out &= self.sees[i][d] & ~self.places[i][d]
        return out


def almost_locked_sets(x: Context) -> _Als:
    """The ALS of the board's state and their restricted commons, built once per board (memo)."""
    return _als(x)


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
    """ALS-XY-Wing (``0902``) as HoDoKu's ``AlsSolver.getAlsXYWingInt`` has it: a pivot ALS C linked by
    restricted commons to ALS A and to ALS B (the two links not both one and the same digit); a digit Z of A
    and B, none of the links' commons, goes from the cells outside A and B seeing all of Z's places in both.
    A and B may overlap (HoDoKu's ALS overlap), Z's places too, but neither holds the other."""
    out = []
    a = _als(x)
    links: dict[int, list[tuple[int, list[int]]]] = {}
    for (i, j), commons in a.rcc.items():
        links.setdefault(i, []).append((j, commons))
        links.setdefault(j, []).append((i, commons))
    reach = a.reach(x)
    shown: set[tuple[tuple[int, int], ...]] = set()  # HINT all keeps the first step of each effect set
    for c, partners in links.items():
        x.check()
        for (i, ci), (j, cj) in combinations(partners, 2):
            if i == j or (len(ci) == 1 and ci == cj):
                continue
            mi, mj = a.masks[i], a.masks[j]
            if not (mi & ~mj and mj & ~mi):
                continue
            common = a.digits[i] & a.digits[j]
            for d in (*ci, *cj):
                common &= ~(1 << d)
            if not common:
                continue
            ri, rj = reach[i], reach[j]
            gone: list[tuple[int, int]] = []
            for d in range(9):
                if common >> d & 1:
                    cells = ri[d] & rj[d]
                    if cells:
                        gone += [(cell, d + 1) for cell in cells_of(cells)]
            if gone and tuple(gone) not in shown:
                shown.add(tuple(gone))
                words = (
                    f": pivot {cells_text(a.masks[c])} {x.digit_set(a.digits[c])}, {cells_text(mi)}"
                    f" {x.digit_set(a.digits[i])}, {cells_text(mj)} {x.digit_set(a.digits[j])}"
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
        # one step per stem and petals, with every digit it removes (HoDoKu's ``getDeathBlossom``
        # eliminates each digit common to all petals at once), in the order first found
        found: dict[tuple[int, ...], list[tuple[int, int]]] = {}
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
                        found.setdefault(combo, []).extend((c, z + 1) for c in cells_of(gone))
                    continue
                for i in choices[k]:
                    r = room & a.sees[i][z]
                    if r:
                        todo.append((k + 1, r, (*combo, i)))
        for combo, elim in found.items():
            words = f": stem {cells_text(1 << stem)}, petals " + "; ".join(cells_text(a.masks[i]) for i in combo)
            out.append(step(x, "death blossom", words, elim=sorted(elim)))
    return out


#: The longest ALS chain searched, in restricted commons (HoDoKu's ``ALL_STEPS_ALS_CHAIN_LENGTH``).
CHAIN_LINKS = 6


def carried_on(before: int, c1: int, c2: int) -> int:
    """The digits (mask) a link's restricted commons ``c1`` (and ``c2``, or -1) carry on after a link whose
    carried digits were ``before``: the commons other than the lowest digit of ``before`` (HoDoKu's
    ``RestrictedCommon.checkRC``, which checks a doubly carried link by its first digit alone); 0: none."""
    p = (before & -before).bit_length() - 1
    if c2 < 0:
        return 0 if c1 == p else 1 << c1
    if p == c2:
        return 1 << c1
    if p == c1:
        return 1 << c2
    return 1 << c1 | 1 << c2


def als_chains(x: Context) -> list[Step]:
    """ALS chain (HoDoKu's ALS-XY-Chain, ``0903``): ALS A1 .. An (4 <= n <= :data:`CHAIN_LINKS` + 1), each
    consecutive pair linked by restricted commons (the two ALS do not overlap), each link carrying a common
    other than the one the link before it carried (HoDoKu's ``RestrictedCommon.checkRC``; a first link with
    two commons starts one chain with each). A digit Z of both A1 and An, carried by neither the first nor
    the last link, goes from the cells outside A1 and An that see all of Z's places in both: if A1 lacks Z
    it is locked and holds the first common, so A2 lacks it and holds the second, ..., and An holds Z.

    Chains run both ways through HoDoKu's list of ALS (its library's cases need that; its search for all
    steps can go forward only) and may pass an ALS twice (every inference still holds). The search is over
    states (ALS, digits the last link carried): per state the states 1..4 links on as bitsets, so each
    start needs only its first links' sets, not every chain."""
    out: list[Step] = []
    a = _als(x)
    links = chain_links(a)
    if not links:
        return out
    states, by_start, succ = chain_states(links, sorted(links))
    x.check()
    # within[k][v]: the states 1..k+1 links after state v
    one = [sum(1 << w for w in set(ws)) for ws in succ]
    within = [one]
    for _ in range(CHAIN_LINKS - 3):
        prev = within[-1]
        layer = []
        for v, ws in enumerate(succ):
            m = one[v]
            for w in ws:
                m |= prev[w]
            layer.append(m)
        within.append(layer)
    x.check()
    far = within[-1]
    reach = a.reach(x)
    ends_of = chain_ends(states, reach)
    shown: set[tuple[tuple[int, int], ...]] = set()
    label: dict[int, str] = {}  # per ALS shown, its cells and digits
    for s, firsts in by_start.items():
        x.check()
        ends = ends_of(s)  # per digit Z of s: the states of the ALS sharing a cell to clear of Z with s
        if not any(ends):
            continue
        shown_ends: set[tuple[int, int]] = set()  # (last ALS, digits cleared) met from s
        for m0, vs in firsts.items():
            after = dict.fromkeys(vs, 0)  # per first link: the states 3..6 links from s
            for v in vs:
                for w in succ[v]:
                    after[v] |= far[w]
            found = 0
            for v in vs:
                found |= after[v]
            for t, zs in cleared(found, ends, m0).items():  # per state reached: the digits it clears with s
                e, m = states[t]
                key = (e, zs)
                if key in shown_ends:
                    continue
                shown_ends.add(key)
                gone: list[tuple[int, int]] = []
                for z in range(9):
                    if zs >> z & 1:
                        gone += [(c, z + 1) for c in cells_of(reach[s][z] & reach[e][z])]
                if tuple(gone) in shown:
                    continue
                shown.add(tuple(gone))
                v = next(v for v in vs if after[v] >> t & 1)
                path = [(s, 0), states[v]]  # the shortest way shown
                at, left = v, next(k for k in range(len(within)) if any(within[k][w] >> t & 1 for w in succ[v]))
                while t not in succ[at] or len(path) < 3:
                    at = next(w for w in succ[at] if within[left][w] >> t & 1)
                    path.append(states[at])
                    left -= 1
                path.append((e, m))
                for k, _carried in path:
                    if k not in label:
                        label[k] = f"{cells_text(a.masks[k])} {x.digit_set(a.digits[k])}"
                words = ": " + "".join(
                    (f" -{x.digit_set(carried)}- " if carried else "") + label[k] for k, carried in path
                )
                out.append(step(x, "ALS-XY-Chain", words, elim=gone))
    return out


# -- ALS chains: the search over states that the HINT all enumerator and HoDoKu's rating path share ---------

ChainLink = tuple[int, int, int]  # (the next ALS, a restricted common, the other common or -1)


def chain_links(a: Any, rank: list[int] | None = None) -> dict[int, list[ChainLink]]:
    """The links of ALS chains: restricted commons between ALS of ``a`` (:func:`almost_locked_sets`) that do
    not overlap, both ways; with ``rank`` (HoDoKu's ALS order) only toward the later ALS."""
    links: dict[int, list[ChainLink]] = {}
    for (i, j), commons in a.rcc.items():
        if a.masks[i] & a.masks[j]:
            continue  # HoDoKu's default, and its library's ALS chains: no overlap
        c1, c2 = commons[0], commons[-1] if len(commons) > 1 else -1
        if rank is None or rank[i] < rank[j]:
            links.setdefault(i, []).append((j, c1, c2))
        if rank is None or rank[j] < rank[i]:
            links.setdefault(j, []).append((i, c1, c2))
    return links


def chain_states(
    links: dict[int, list[ChainLink]], firsts: list[int]
) -> tuple[list[tuple[int, int]], dict[int, dict[int, list[int]]], list[list[int]]]:
    """The states (ALS, mask of the digits the link into it carried) that chains from ``firsts`` (in that
    order) reach: the states; per first ALS and first carried digit, the states after the first link; and
    each state's successors (a link carries a common the link before it did not: :func:`carried_on`)."""
    index: dict[tuple[int, int], int] = {}
    states: list[tuple[int, int]] = []
    todo: list[int] = []

    def state(key: tuple[int, int]) -> int:
        k = index.get(key)
        if k is None:
            k = index[key] = len(states)
            states.append(key)
            todo.append(k)
        return k

    starts: dict[int, dict[int, list[int]]] = {}
    for s in firsts:
        for j, c1, c2 in links[s]:
            for m0 in (1 << c1, 1 << c2) if c2 >= 0 else (1 << c1,):
                starts.setdefault(s, {}).setdefault(m0, []).append(state((j, m0)))
    succ: list[list[int]] = []
    while todo:
        k = todo.pop()
        i, m = states[k]
        nxt = []
        for j, d1, d2 in links.get(i, ()):
            m2 = carried_on(m, d1, d2)
            if m2:
                nxt.append(state((j, m2)))
        while len(succ) <= k:
            succ.append([])
        succ[k] = nxt
    return states, starts, succ


def chain_ends(states: list[tuple[int, int]], reach: Any) -> Callable[[int], list[int]]:
    """For a first ALS ``s``, per digit Z (0-based), the states (a bitset) that may end a chain clearing Z:
    their ALS clears a cell of Z with ``s`` (``reach``: every place of Z in both seen) and their last link
    did not carry Z."""
    of_als: dict[int, int] = {}
    for k, (i, _m) in enumerate(states):
        of_als[i] = of_als.get(i, 0) | 1 << k
    seeing: list[dict[int, int]] = [{} for _ in range(9)]  # per digit and cell: states of ALS clearing it
    for i, ks in of_als.items():
        for z in range(9):
            for c in cells_of(reach[i][z]):
                seeing[z][c] = seeing[z].get(c, 0) | ks
    lacking = [0] * 9  # per digit, the states whose last link did not carry it
    for k, (_i, m) in enumerate(states):
        for z in range(9):
            if not m >> z & 1:
                lacking[z] |= 1 << k

    def ends_of(s: int) -> list[int]:
        out = []
        for z in range(9):
            ends = 0
            for c in cells_of(reach[s][z]):
                ends |= seeing[z].get(c, 0)
            out.append(ends & lacking[z])
        return out

    return ends_of


def cleared(found: int, ends: list[int], m0: int) -> dict[int, int]:
    """Per state of ``found`` (a bitset) that ends a chain whose first link carried ``m0``: the digits (a
    mask) it clears with the first ALS (``ends``: :func:`chain_ends`' for that ALS)."""
    zs_of: dict[int, int] = {}
    for z in range(9):
        hits = found & ends[z] if not m0 >> z & 1 else 0
        while hits:
            low = hits & -hits
            hits ^= low
            t = low.bit_length() - 1
            zs_of[t] = zs_of.get(t, 0) | 1 << z
    return zs_of
