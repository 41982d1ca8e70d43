"""Every instance of the basic techniques at one state: singles, intersections, subsets, fish (9x9).

The enumerators of ``HINT all`` (:mod:`.every`): each takes a
:class:`~.board.Context` and returns EVERY step of its technique on the
board, as HoDoKu's "find all steps" does (``SimpleSolver.java`` and
``FishSolver.java`` of HoDoKu 2.2, read for the definitions: which unit
counts, which cells an elimination comes from, when a pair is *locked* or a
fish *sashimi*). The path (:func:`~.next_step`) keeps its own finders and
Sudoku Explainer's ratings; these steps carry ``se=0``.

Definitions as HoDoKu has them:

- *full house*: the last empty cell of a unit; *hidden single*: a digit with
  one place in a unit; *naked single*: a cell with one candidate.
- *locked candidates type 1* (pointing): a digit's 2 or 3 places in a box lie
  in one line; type 2 (claiming): in a line, in one box.
- *naked subsets*: k cells of a unit holding k digits between them; the
  digits go from every other cell of every unit the k cells share. When the
  cells (2 or 3) share a box and a line and eliminations fall in both, the
  step is a *locked pair/triple*. *Hidden subsets*: k digits whose places in
  a unit are k cells; the other digits go from those cells.
- *fish*: k base lines (rows, or columns), k cover lines of the other kind
  holding every base candidate but the *fins*; the digit goes from the cover
  lines' other cells that see every fin. *Sashimi*: a base line has at most
  one candidate that is no fin. *Siamese*: two finned fish on the same base
  lines with different eliminations, taken together.
"""

from __future__ import annotations

from itertools import combinations

from sudoku_server.sudoku.techniques.board import Context, cells_of, popcount
from sudoku_server.sudoku.techniques.step import Step, and_list, rc

__all__ = [
    "BOX",
    "COL",
    "PEERS",
    "ROW",
    "UNITS",
    "fish",
    "full_houses",
    "hidden_singles",
    "hidden_subsets",
    "locked_candidates",
    "naked_singles",
    "naked_subsets",
]

N = 81
ROW = [sum(1 << (r * 9 + c) for c in range(9)) for r in range(9)]
COL = [sum(1 << (r * 9 + c) for r in range(9)) for c in range(9)]
BOX = [sum(1 << ((b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3) for i in range(9)) for b in range(9)]
#: units 0-8 rows, 9-17 columns, 18-26 boxes (HoDoKu's order of constraints: row, column, box)
UNITS = ROW + COL + BOX
UNIT_NAMES = (
    [f"row {k + 1}" for k in range(9)] + [f"column {k + 1}" for k in range(9)] + [f"box {k + 1}" for k in range(9)]
)
ROW_OF = [c // 9 for c in range(N)]
COL_OF = [c % 9 for c in range(N)]
BOX_OF = [c // 27 * 3 + c % 9 // 3 for c in range(N)]
CELL_UNITS = [(ROW_OF[c], 9 + COL_OF[c], 18 + BOX_OF[c]) for c in range(N)]
PEERS = [(ROW[ROW_OF[c]] | COL[COL_OF[c]] | BOX[BOX_OF[c]]) & ~(1 << c) for c in range(N)]


def seen_by_all(cells: int) -> int:
    """The cells (bitboard) that see every cell of ``cells`` (not those cells themselves)."""
    m = (1 << N) - 1
    for c in cells_of(cells):
        m &= PEERS[c]
    return m


def step(x: Context, technique: str, words: str, *, place: tuple[tuple[int, int], ...] = (), elim: object = ()) -> Step:
    """A step with ``words`` as its explanation; ``elim``: ``(cell, digit 1-based)`` pairs."""
    pairs = tuple(sorted(set(elim)))  # type: ignore[call-overload]
    return x.step(technique, 0.0, placements=tuple(sorted(set(place))), eliminations=pairs, explanation=words)


def digit_elims(cells: int, d0: int) -> list[tuple[int, int]]:
    """``(cell, digit)`` for digit ``d0 + 1`` at each cell of a bitboard."""
    return [(c, d0 + 1) for c in cells_of(cells)]


def cells_text(cells: int) -> str:
    return and_list([rc(c, 9) for c in cells_of(cells)])


# -- singles ------------------------------------------------------------------------


def full_houses(x: Context) -> list[Step]:
    out = []
    empty = sum(1 << c for c in range(N) if not x.values[c])
    for u in range(27):
        m = UNITS[u] & empty
        if popcount(m) == 1:
            c = m.bit_length() - 1
            have = {x.values[p] for p in cells_of(UNITS[u])}
            missing = [d for d in range(1, 10) if d not in have]
            if len(missing) == 1 and x.cand[c] >> (missing[0] - 1) & 1:
                d = missing[0]
                out.append(
                    step(x, "full house", f": {rc(c, 9)} is the last empty cell of {UNIT_NAMES[u]}", place=((c, d),))
                )
    return out


def hidden_singles(x: Context) -> list[Step]:
    out = []
    for d0 in range(9):
        p = x.pos[d0]
        for u in (*range(18, 27), *range(18)):
            m = p & UNITS[u]
            if popcount(m) == 1:
                c = m.bit_length() - 1
                words = f": {rc(c, 9)} is the only place for {d0 + 1} in {UNIT_NAMES[u]}"
                out.append(step(x, "hidden single", words, place=((c, d0 + 1),)))
    return out


def naked_singles(x: Context) -> list[Step]:
    out = []
    for c in range(N):
        m = x.cand[c]
        if m and not m & (m - 1):
            d = m.bit_length()
            out.append(step(x, "naked single", f": {d} is the only candidate of {rc(c, 9)}", place=((c, d),)))
    return out


# -- intersections ------------------------------------------------------------------


def locked_candidates(x: Context, kind: int) -> list[Step]:
    """Type 1 (pointing: a box's places in one line) or type 2 (claiming: a line's places in one box)."""
    out = []
    for d0 in range(9):
        p = x.pos[d0]
        for b in range(9):
            for line in range(18):
                inter = BOX[b] & UNITS[line]
                if not inter:
                    continue
                src, dst = (BOX[b], UNITS[line]) if kind == 1 else (UNITS[line], BOX[b])
                m = p & src
                if 2 <= popcount(m) <= 3 and m & ~inter == 0:
                    gone = p & dst & ~src
                    if gone:
                        a, z = (
                            (UNIT_NAMES[18 + b], UNIT_NAMES[line])
                            if kind == 1
                            else (UNIT_NAMES[line], UNIT_NAMES[18 + b])
                        )
                        words = f": in {a}, {d0 + 1} is only in {z}"
                        name = "pointing" if kind == 1 else "claiming"
                        out.append(step(x, name, words, elim=digit_elims(gone, d0)))
    return out


# -- subsets ------------------------------------------------------------------------


_NAKED = {2: "naked pair", 3: "naked triple", 4: "naked quadruple"}
_HIDDEN = {2: "hidden pair", 3: "hidden triple", 4: "hidden quadruple"}
_LOCKED = {2: "locked pair", 3: "locked triple"}


def naked_subsets(x: Context, k: int, locked: bool) -> list[Step]:
    """Naked subsets of ``k`` cells; ``locked``: only the locked ones (else only the others)."""
    out = []
    cand = x.cand
    for u in range(27):
        cells = [c for c in cells_of(UNITS[u]) if cand[c] and popcount(cand[c]) <= k]
        for combo in combinations(cells, k):
            digits = 0
            for c in combo:
                digits |= cand[c]
            if popcount(digits) != k:
                continue
            mask = sum(1 << c for c in combo)
            shared = [v for v in CELL_UNITS[combo[0]] if all(v in CELL_UNITS[c] for c in combo)]
            gone: list[tuple[int, int]] = []
            units_hit = 0
            box = CELL_UNITS[combo[0]][2]
            for v in shared:
                hit = False
                for c in cells_of(UNITS[v] & ~mask):
                    both = cand[c] & digits
                    if both:
                        gone.extend((c, d + 1) for d in range(9) if both >> d & 1)
                        if v == box or BOX_OF[c] + 18 != box:
                            hit = True
                units_hit += hit
            if not gone:
                continue
            is_locked = k < 4 and units_hit > 1 and box in shared and len(shared) >= 2
            if is_locked != locked:
                continue
            name = _LOCKED[k] if is_locked else _NAKED[k]
            words = f": {x.digit_set(digits)} in {cells_text(mask)}"
            out.append(step(x, name, words, elim=gone))
    return out


def hidden_subsets(x: Context, k: int) -> list[Step]:
    out = []
    cand = x.cand
    for u in range(27):
        where = {d0: x.pos[d0] & UNITS[u] for d0 in range(9)}
        digits = [d0 for d0, m in where.items() if m and popcount(m) <= k]
        for combo in combinations(digits, k):
            cells = 0
            dmask = 0
            for d0 in combo:
                cells |= where[d0]
                dmask |= 1 << d0
            if popcount(cells) != k:
                continue
            gone = [(c, d + 1) for c in cells_of(cells) for d in range(9) if (cand[c] & ~dmask) >> d & 1]
            if gone:
                words = f": {x.digit_set(dmask)} in {cells_text(cells)} ({UNIT_NAMES[u]})"
                out.append(step(x, _HIDDEN[k], words, elim=gone))
    return out


# -- fish ---------------------------------------------------------------------------

FISH = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def fish(x: Context, k: int) -> list[Step]:
    """Every basic, finned and sashimi fish of size ``k``, and the Siamese pairs of the finned ones.

    Technique names: ``X-Wing``, ``finned X-Wing``, ``sashimi X-Wing``, ``Siamese finned X-Wing``...
    """
    out: list[Step] = []
    for d0 in range(9):
        p = x.pos[d0]
        for rows in (True, False):
            base_units, cover_units = (ROW, COL) if rows else (COL, ROW)
            cover_of = COL_OF if rows else ROW_OF
            lines = [i for i in range(9) if p & base_units[i]]
            finned: dict[tuple[int, ...], list[tuple[int, str, Step]]] = {}
            for base in combinations(lines, k):
                bmask = 0
                for i in base:
                    bmask |= base_units[i]
                U = p & bmask
                seen: set[tuple[tuple[int, ...], int]] = set()
                for fbox in (-1, *range(9)):
                    rest = U & ~BOX[fbox] if fbox >= 0 else U
                    if fbox >= 0 and rest == U:
                        continue
                    ccols = {cover_of[c] for c in cells_of(rest)}
                    if len(ccols) > k:
                        continue
                    extra = sorted({cover_of[c] for c in cells_of(U & BOX[fbox])} - ccols) if fbox >= 0 else []
                    if len(ccols) + len(extra) < k:
                        continue
                    for more in combinations(extra, k - len(ccols)):
                        cover = tuple(sorted(ccols | set(more)))
                        cmask = 0
                        for j in cover:
                            cmask |= cover_units[j]
                        fins = U & ~cmask
                        if (fins != 0) != (fbox >= 0) or (cover, fins) in seen:
                            continue
                        seen.add((cover, fins))
                        gone = p & cmask & ~bmask
                        if fins:
                            gone &= seen_by_all(fins)
                        if not gone:
                            continue
                        sashimi = fins and any(popcount(U & base_units[i] & ~fins) <= 1 for i in base)
                        name = ("sashimi " if sashimi else "finned " if fins else "") + FISH[k]
                        bname = "rows" if rows else "columns"
                        cname = "columns" if rows else "rows"
                        words = (
                            f" on {d0 + 1} in {bname} {and_list([str(i + 1) for i in base])},"
                            f" {cname} {and_list([str(j + 1) for j in cover])}"
                            + (f", fins {cells_text(fins)}" if fins else "")
                        )
                        s = step(x, name, words, elim=digit_elims(gone, d0))
                        out.append(s)
                        if fins:
                            finned.setdefault(base, []).append((gone, name, s))
            for group in finned.values():
                for (g1, n1, s1), (g2, n2, s2) in combinations(group, 2):
                    if g1 != g2:  # named after either fish (HoDoKu names it after the one it sorts first)
                        words = f"{s1.explanation}; and{s2.explanation}"
                        for name in dict.fromkeys((n1, n2)):
                            out.append(step(x, "Siamese " + name, words, elim=digit_elims(g1 | g2, d0)))
    return out


FRANKEN = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def franken_fish(x: Context, k: int) -> list[Step]:
    """Every Franken fish of size ``k``: base rows and boxes, cover columns and boxes (or the transpose),
    with a box among them; finned when base candidates are left uncovered (fins, and endo fins: base
    candidates in two base units), the digit then going only from cells seeing every fin; a base candidate
    in two cover units goes too (cannibalism). HoDoKu's ``FishSolver`` definitions (Ultimate Fish Guide).

    The HoDoKu rating path's Franken X-Wing (:mod:`~sudoku_server.sudoku.hodoku_rating`); ``HINT all``
    lists Franken and mutant fish of sizes 2 to 7 with :mod:`.every_fish`."""
    out: list[Step] = []
    for d0 in range(9):
        p = x.pos[d0]
        for rows in (True, False):
            lines, others = (ROW, COL) if rows else (COL, ROW)
            base_pool = [m for m in lines + BOX if m & p]
            seen: set[tuple[int, int]] = set()
            for base in combinations(range(len(base_pool)), k):
                units = [base_pool[i] for i in base]
                U = 0
                endo = 0
                for m in units:
                    endo |= U & m & p
                    U |= m & p
                has_box = any(i >= len([m for m in lines if m & p]) for i in base)
                x.check()
                for cover, fins in _covers(U & ~endo, p, others, k):
                    fins |= endo
                    if not has_box and not any(m in BOX for m in cover):
                        continue
                    if all(m in others for m in cover) and not has_box:
                        continue
                    cmask = 0
                    twice = 0
                    for m in cover:
                        twice |= cmask & m & p
                        cmask |= m
                    gone = (p & cmask & ~U) | (twice & U & ~fins)
                    if fins:
                        gone &= seen_by_all(fins)
                    key = (U, gone)
                    if not gone or key in seen:
                        continue
                    seen.add(key)
                    name = ("finned " if fins else "") + "Franken " + FRANKEN[k]
                    words = f" on {d0 + 1}: base {cells_text(U)}" + (f", fins {cells_text(fins)}" if fins else "")
                    out.append(step(x, name, words, elim=digit_elims(gone, d0)))
    return out


def _covers(need: int, p: int, others: list[int], k: int) -> list[tuple[list[int], int]]:
    """Sets of ``k`` cover units (the other lines, boxes) over ``need`` but fins, the fins all in one box."""
    out: list[tuple[list[int], int]] = []
    line_of = COL_OF if others is COL else ROW_OF

    def go(left: int, cover: list[int]) -> None:
        if not left:
            out.append((list(cover), 0))
            return
        if len(cover) == k:
            return
        c = (left & -left).bit_length() - 1
        for m in (others[line_of[c]], BOX[BOX_OF[c]]):
            if m not in cover:
                go(left & ~m, [*cover, m])

    for f in (-1, *range(9)):
        if f >= 0 and not need & BOX[f]:
            continue
        start = len(out)
        go(need & ~BOX[f] if f >= 0 else need, [])
        if f >= 0:
            kept = []
            for cover, _ in out[start:]:
                covered = 0
                for m in cover:
                    covered |= m
                fins = need & ~covered
                if fins and len(cover) == k:
                    kept.append((cover, fins))
            out[start:] = kept
        else:
            out[start:] = [(cover, fins) for cover, fins in out[start:] if len(cover) == k]
    return out
