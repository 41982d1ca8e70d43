"""Aligned exclusion: aligned pair exclusion (SE 6.2) and aligned triple exclusion (SE 7.5).

Sudoku Explainer's ``AlignedPairExclusion`` and ``AlignedExclusion(3)``
(SE 1.2.1 by Nicolas Juillerat, as kept by Sukaku Explainer,
github.com/SudokuMonster/SukakuExplainer,
``diuf/sudoku/solver/rules/AlignedPairExclusion.java``,
``AlignedExclusion.java`` and ``AlignedExclusionHint.java``; read, not
copied). A *base* set of two (three) cells with two or more candidates is
checked against its *excluders*: the cells that see every base cell and
hold two (two or three) candidates. A combination of digits for the base
cells is impossible when two base cells that see each other take the same
digit, or when it holds every candidate of one excluder (that cell would
be left empty). A candidate of a base cell that no possible combination
uses is false. HoDoKu lists both under "enumeration on selected cells"
(codes 1000 and 1001) without a solver.

The search is SE's, in SE's order, so the step it takes is SE's: the base
cells are the cells with two or more candidates that see some excluder
and no unsolved cell with one candidate; pairs of them in SE's order
(``Twomutations``: the later cell outer); a triple adds, to a pair, a cell
among the excluders of either (``twinArea``); at least two common
excluders are needed; the first base set that removes something gives
the step.
"""

from __future__ import annotations

import itertools

from sudoku_server.sudoku.techniques.board import Context, digits_of, popcount
from sudoku_server.sudoku.techniques.step import Step, and_list, rcs

__all__ = ["find_aligned_pair_exclusion", "find_aligned_triple_exclusion"]

#: SE's rating of each degree (``AlignedExclusionHint.getDifficulty``).
_SE = {2: 6.2, 3: 7.5}
_NAMES = {2: "aligned pair exclusion", 3: "aligned triple exclusion"}


def find_aligned_pair_exclusion(x: Context) -> Step | None:
    """Aligned pair exclusion (SE 6.2): two base cells and the bivalue cells that see both."""
    return _find(x, 2)


def find_aligned_triple_exclusion(x: Context) -> Step | None:
    """Aligned triple exclusion (SE 7.5): three base cells and the cells of two or three candidates that see all."""
    return _find(x, 3)


def _bases(x: Context, degree: int) -> tuple[list[int], dict[int, int]]:
    """SE's base cells in cell order and, per base cell, the bitboard of its excluders."""
    t, cand = x.t, x.cand
    singles = small = 0
    for c, m in enumerate(cand):
        k = popcount(m)
        if k == 1:
            singles |= 1 << c
        elif 2 <= k <= degree:
            small |= 1 << c
    base: list[int] = []
    excluders: dict[int, int] = {}
    peer_mask = t.peer_mask
    for c, m in enumerate(cand):
        if m & (m - 1) and not peer_mask[c] & singles:
            ex = peer_mask[c] & small
            if ex:
                base.append(c)
                excluders[c] = ex
    return base, excluders


def _find(x: Context, degree: int) -> Step | None:
    t = x.t
    if t.n != 9:
        return None
    base, excluders = _bases(x, degree)
    if len(base) < degree:
        return None
    basemask = sum(1 << c for c in base)
    card = {c: popcount(x.cand[c]) for c in base}
    for j in range(1, len(base)):  # SE's Twomutations: (0,1), (0,2), (1,2), (0,3), ...
        c1 = base[j]
        for i in range(j):
            c0 = base[i]
            common01 = excluders[c0] & excluders[c1]
            if not common01 & (common01 - 1):
                continue  # two common excluders are needed (a triple's are among its pair's)
            if degree == 2:
                # a digit of one cell goes only when each digit of the other but one completes a lock with it
                if popcount(common01) < min(card[c0], card[c1]) - 1:
                    continue
                found = _exclude(x, (c0, c1), common01)
                if found:
                    return found
                continue
            x.check()
            # SE's twinArea: the base cells among the excluders of either, in the order SE lists them
            twin = [c for c in _ordered(excluders[c0], excluders[c1]) if basemask >> c & 1 and c not in (c0, c1)]
            for c2 in twin:
                common = common01 & excluders[c2]
                if common & (common - 1):
                    found = _exclude(x, (c0, c1, c2), common)
                    if found:
                        return found
    return None


def _ordered(first: int, second: int) -> list[int]:
    """The cells of ``first`` in order, then those of ``second`` not in ``first`` (a LinkedHashSet's order)."""
    out = []
    m = first
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    m = second & ~first
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def _exclude(x: Context, cells: tuple[int, ...], common: int) -> Step | None:
    """The step of one base set with its common excluders (a bitboard, two or more cells), or None."""
    if not common & (common - 1):
        return None
    t, cand = x.t, x.cand
    k = len(cells)
    union = 0
    for c in cells:
        union |= cand[c]
    # a combination holding one of these empties that excluder (only those within the base cells' digits can)
    locks = set()
    m = common
    while m:
        low = m & -m
        m ^= low
        lock = cand[low.bit_length() - 1]
        if not lock & ~union:
            locks.add(lock)
    if k == 2:
        used = _used_pair(cells, cand, locks, bool(t.peer_mask[cells[0]] >> cells[1] & 1))
        if used[0] == cand[cells[0]] and used[1] == cand[cells[1]]:
            return None
    sees = [[bool(t.peer_mask[a] >> b & 1) for b in cells] for a in cells]
    if k != 2:
        used = _used(cells, cand, locks, sees)
    removed = tuple(sorted((c, d + 1) for a, c in enumerate(cells) for d in digits_of(cand[c] & ~used[a])))
    if not removed:
        return None
    n = t.n
    exc = digits_of(common)
    return x.step(
        _NAMES[k],
        _SE[k],
        eliminations=removed,
        cells=cells,
        explanation=(
            f" on {rcs(cells, n)}: no combination of their digits may take every candidate of "
            f"{and_list([rcs((e,), n) + x.digit_set(cand[e]) for e in exc])}"
            + (" or repeat a digit in a unit" if any(sees[a][b] for a in range(k) for b in range(a + 1, k)) else "")
        ),
        focus=x.unit_name(t.box_unit[cells[0]]),
    )


def _used_pair(cells: tuple[int, ...], cand: list[int], locks: set[int], see: bool) -> list[int]:
    """:func:`_used` for two cells, whose locks are pairs of digits: d in one cell is possible when some
    digit of the other cell is neither d's partner in a lock nor d itself where the cells see each other."""
    partner = [0] * 9
    for lock in locks:
        p, q = _DIGITS[lock]
        partner[p] |= 1 << q
        partner[q] |= 1 << p
    m0, m1 = cand[cells[0]], cand[cells[1]]
    used0 = used1 = 0
    for d in _DIGITS[m0]:
        free = m1 & ~partner[d] & ~((1 << d) if see else 0)
        if free:
            used0 |= 1 << d
            used1 |= free
    return [used0, used1]


def _used(cells: tuple[int, ...], cand: list[int], locks: set[int], sees: list[list[bool]]) -> list[int]:
    """Per base cell, the digit mask that some possible combination gives it.

    A combination is impossible when it holds every digit of a lock (an
    excluder's candidates) or gives one digit to two base cells that see
    each other. The last cell's digits are handled as a mask: for each
    choice of the others, the digits of the last cell that complete no lock
    and repeat no seen digit are its possible ones.
    """
    k = len(cells)
    used = [0] * k
    full = [cand[c] for c in cells]
    last = full[-1]
    for head in itertools.product(*(_DIGITS[m] for m in full[:-1])):
        m = 0
        for d in head:
            m |= 1 << d
        if len(head) == 2 and head[0] == head[1] and sees[0][1]:
            continue
        killed = 0
        for lock in locks:
            rest = lock & ~m
            if not rest:
                killed = -1
                break
            if not rest & (rest - 1):
                killed |= rest
        if killed == -1:
            continue
        for a, d in enumerate(head):
            if sees[a][k - 1]:
                killed |= 1 << d
        free = last & ~killed
        if free:
            for a, d in enumerate(head):
                used[a] |= 1 << d
            used[-1] |= free
            if used == full:
                break  # every digit is possible: nothing to remove
    return used


#: The 0-based digits of every 9-digit mask.
_DIGITS = [tuple(digits_of(m)) for m in range(1 << 9)]
