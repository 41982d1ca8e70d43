"""Uniqueness: unique rectangles types 1 to 4 (SE 4.5+) and the bivalue universal grave (BUG+1 5.6, types 2-4 5.7+).

Both rest on the puzzle having one solution. The rectangles are those whose
two digits could swap without breaking any unit of the geometry
(:attr:`.board.Tables.rectangles`); the grave counts places in every unit.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from sudoku_server.sudoku.techniques.board import Context, cells_of, digits_of, elims, popcount
from sudoku_server.sudoku.techniques.links import common_peers
from sudoku_server.sudoku.techniques.step import Step, and_list, rc, rcs

__all__ = ["find_avoidable_rectangle", "find_bug", "find_unique_rectangle"]

#: A unique rectangle found: ((se, type), cells, digit a, digit b, (cell, 0-based digit) eliminations, note).
_Rectangle = tuple[tuple[float, int], tuple[int, int, int, int], int, int, list[tuple[int, int]], str]


def find_unique_rectangle(x: Context, types: Sequence[int] = (1, 2, 3, 4)) -> Step | None:
    """Unique rectangle types 1 to 4 (SE 4.5; type 3 4.5 + 0.1 per digit of its naked set past one).

    Four cells in two rows, two columns and two boxes that all hold digits
    {a,b} would allow two solutions if they held nothing else; the puzzle
    has one, so the extra candidates must break the pattern.
    """
    t, cand = x.t, x.cand
    n = t.n
    found = []
    for cells in t.rectangles:
        c0, c1, c2, c3 = cells
        common = cand[c0] & cand[c1] & cand[c2] & cand[c3]
        if not common or not (common & (common - 1)):
            continue
        ms = (cand[c0], cand[c1], cand[c2], cand[c3])
        for a, b in itertools.combinations(digits_of(common), 2):
            pm = (1 << a) | (1 << b)
            extra = [c for c, m in zip(cells, ms) if m != pm]
            if not extra:
                continue
            hit = _ur_types(x, cells, extra, a, b, pm, types)
            if hit:
                found.append(hit)
    if not found:
        return None
    found.sort(key=lambda h: h[0])
    (se, typ), cells, a, b, removed, note = found[0]
    return x.step(
        f"unique rectangle type {typ}",
        se,
        eliminations=elims(removed),
        cells=cells,
        digits=(a + 1, b + 1),
        explanation=f" on {x.d(a)} and {x.d(b)} in {rcs(cells, n)}{note}",
        focus=x.unit_name(t.box_unit[cells[0]]),
    )


def _ur_types(
    x: Context,
    cells: tuple[int, int, int, int],
    extra: list[int],
    a: int,
    b: int,
    pm: int,
    types: Sequence[int] = (1, 2, 3, 4),
) -> _Rectangle | None:
    """The easiest rectangle step on ``cells`` with digits a, b (mask pm) and its ``extra`` cells, or None."""
    t, cand, pos = x.t, x.cand, x.pos
    n = t.n
    if len(extra) == 1 and 1 in types:
        c = extra[0]
        return ((4.5, 1), cells, a, b, [(c, a), (c, b)], "")
    ext = 0
    for c in extra:
        ext |= cand[c] & ~pm
    # type 2: one extra digit shared by every extra cell
    if 2 in types and popcount(ext) == 1 and all(cand[c] == pm | ext for c in extra):
        z = ext.bit_length() - 1
        emask = sum(1 << c for c in extra)
        victims = pos[z] & common_peers(t, emask)
        if victims:
            return ((4.5, 2), cells, a, b, [(c, z) for c in cells_of(victims)], f" (extra {x.d(z)})")
    if len(extra) != 2:
        return None
    e1, e2 = extra
    shared = set(t.cell_units[e1]) & set(t.cell_units[e2])
    emask = (1 << e1) | (1 << e2)
    # type 4: one UR digit confined to the two extra cells in a shared unit
    for u in sorted(shared) if 4 in types else ():
        um = t.unit_mask[u]
        for keep, drop in ((a, b), (b, a)):
            if pos[keep] & um & ~emask == 0:
                return (
                    (4.5, 4),
                    cells,
                    a,
                    b,
                    [(e1, drop), (e2, drop)],
                    f" ({x.d(keep)} is locked in {rc(e1, n)}, {rc(e2, n)} in {x.unit_name(u)})",
                )
    # type 3: the extra digits form a naked set with other cells of a shared unit
    best: _Rectangle | None = None
    for u in sorted(shared) if 3 in types else ():
        others = [c for c in t.units[u] if cand[c] and c not in (e1, e2) and c not in cells]
        for k in range(1, 4):
            for combo in itertools.combinations(others, k):
                m = ext
                for c in combo:
                    m |= cand[c]
                if popcount(m) != k + 1:
                    continue
                removed = [
                    (c, d)
                    for c in t.units[u]
                    if cand[c] and c not in combo and c not in (e1, e2)
                    for d in digits_of(cand[c] & m)
                ]
                if removed:
                    se = round(4.5 + (popcount(m) - 1) * 0.1, 1)
                    hit: _Rectangle = (
                        (se, 3),
                        cells,
                        a,
                        b,
                        removed,
                        f" (extras {and_list([x.d(d) for d in digits_of(ext)])} with {rcs(combo, n)} "
                        f"make a naked set in {x.unit_name(u)})",
                    )
                    if best is None or hit[0] < best[0]:
                        best = hit
            if best:
                break
    return best


def find_avoidable_rectangle(x: Context) -> Step | None:
    """Avoidable rectangle type 1 or 2 (HoDoKu's ``UniquenessSolver.checkAvoidableRectangle``; SE has none:
    rated 4.5 as unique rectangle types 1 and 2) on a classic 9x9 solving state.

    Two cells of the rectangle were placed while solving (not given), so the
    digits of a finished rectangle could swap there and the puzzle would
    have two solutions. Only the cells the state marks placed
    (:attr:`.board.Board.placed`, a HoDoKu library line's ``+`` cells) count,
    not those the path fills: a puzzle has none, and its path never takes
    this step.
    """
    b = x.b
    if not b.placed or b.size != 9 or not b.t.geometry.classic:
        return None
    from sudoku_server.sudoku.techniques.every_patterns import avoidable_rectangles

    for rect, s in avoidable_rectangles(x):
        if any(x.cand[c] >> (d - 1) & 1 for c, d in s.eliminations):
            digits = tuple(sorted({x.values[c] for c in rect if x.values[c]}))
            return x.step(
                s.technique,
                4.5,
                eliminations=s.eliminations,
                cells=rect,
                digits=digits,
                explanation=s.explanation,
                focus=x.unit_name(b.t.box_unit[rect[0]]),
            )
    return None


def find_bug(x: Context) -> Step | None:
    """Bivalue universal grave: BUG+1 (SE 5.6), BUG types 2 and 4 (5.7) and 3 (5.8+).

    If every empty cell held two candidates and every digit two places per
    unit, the grid would have two solutions; the cells with more candidates
    must keep one of their extra ("BUG") digits. Past BUG+1, the type is
    chosen in SE's order (``BivalueUniversalGrave.getHints`` of Sukaku
    Explainer, github.com/SudokuMonster/SukakuExplainer, ``solver/rules/unique``):
    one BUG digit, type 2, else type 4 for two BUG cells; several BUG
    digits and cells that see every BUG cell, type 4 for two BUG cells,
    then type 3.
    """
    t, cand, pos = x.t, x.cand, x.pos
    n = t.n
    bugs = [c for c in range(t.N) if cand[c] and popcount(cand[c]) > 2]
    if not bugs or len(bugs) > 6:
        return None
    if any(cand[c] and popcount(cand[c]) < 2 for c in range(t.N)):
        return None
    extras = {}
    for c in bugs:
        e = 0
        for d in digits_of(cand[c]):
            if any(popcount(pos[d] & t.unit_mask[u]) > 2 for u in t.cell_units[c]):
                e |= 1 << d
        if popcount(cand[c] & ~e) != 2:
            return None
        extras[c] = e
    # after removing the BUG digits every digit has 0 or 2 places in every unit
    reduced = list(pos)
    for c, e in extras.items():
        for d in digits_of(e):
            reduced[d] &= ~(1 << c)
    for d in range(n):
        for um in t.unit_mask:
            if popcount(reduced[d] & um) not in (0, 2):
                return None
    if len(bugs) == 1:
        c = bugs[0]
        e = extras[c]
        if popcount(e) == 1:
            d = e.bit_length() - 1
            return x.step(
                "BUG+1",
                5.6,
                placements=((c, d + 1),),
                cells=(c,),
                digits=(d + 1,),
                explanation=f": without {x.d(d)} in {rc(c, n)} every cell would hold two candidates",
                focus=x.unit_name(t.box_unit[c]),
            )
        return x.step(
            "BUG+1",
            5.6,
            eliminations=elims((c, d) for d in digits_of(cand[c] & ~e)),
            cells=(c,),
            explanation=f": {rc(c, n)} must keep one of {and_list([x.d(d) for d in digits_of(e)])}",
            focus=x.unit_name(t.box_unit[c]),
        )
    allext = 0
    for e in extras.values():
        allext |= e
    bm = sum(1 << c for c in bugs)
    common = common_peers(t, bm)
    if popcount(allext) == 1:
        d = allext.bit_length() - 1
        victims = pos[d] & common
        if victims and all(extras[c] == allext for c in bugs):
            return x.step(
                "BUG type 2",
                5.7,
                eliminations=elims((c, d) for c in cells_of(victims)),
                cells=tuple(bugs),
                digits=(d + 1,),
                explanation=f": one of {rcs(bugs, n)} must be {x.d(d)}",
                focus=x.unit_name(t.box_unit[bugs[0]]),
            )
        return _bug_type_4(x, bugs, extras, allext) if len(bugs) == 2 else None
    if not common:
        return None
    if len(bugs) == 2:
        step = _bug_type_4(x, bugs, extras, allext)
        if step is not None:
            return step
    return _bug_type_3(x, bugs, allext, common)


def _bug_type_4(x: Context, bugs: list[int], extras: dict[int, int], allext: int) -> Step | None:
    """BUG type 4 (SE 5.7, ``BivalueUniversalGrave.addBug4Hint``): two BUG cells of one unit share one digit
    besides the BUG digits; that digit is locked in them there, and one of them holds its BUG digit, so the
    other holds the shared digit: neither keeps its third digit."""
    t, cand = x.t, x.cand
    n = t.n
    c1, c2 = bugs
    shared = cand[c1] & cand[c2] & ~allext
    if popcount(shared) != 1:
        return None
    units = [u for u in t.cell_units[c1] if u in t.cell_units[c2]]
    if not units:
        return None
    v = shared.bit_length() - 1
    removed = [(c, d) for c in (c1, c2) for d in digits_of(cand[c] & ~extras[c] & ~shared)]
    return x.step(
        "BUG type 4",
        5.7,
        eliminations=elims(removed),
        cells=(c1, c2),
        digits=(v + 1,),
        explanation=(
            f": one of {rc(c1, n)}, {rc(c2, n)} holds its BUG digit and {x.d(v)} is locked in them in "
            f"{x.unit_name(units[0])}"
        ),
        focus=x.unit_name(units[0]),
    )


def _bug_type_3(x: Context, bugs: list[int], allext: int, common: int) -> Step | None:
    """BUG type 3 (SE 5.7 + 0.1 per digit of the naked set past one, ``BivalueUniversalGrave.addBug3Hint``):
    the BUG digits, one of which is true, act as one cell of a naked set with other cells of a unit holding
    every BUG cell; the set's digits leave the unit's other cells. SE's order: sizes 2 to 6, then units."""
    t, cand = x.t, x.cand
    n = t.n
    if popcount(allext) < 2:
        return None
    units = [u for u in t.cell_units[bugs[0]] if all(u in t.cell_units[c] for c in bugs[1:])]
    for degree in range(2, 7):
        for u in units:
            members = [c for c in t.units[u] if common >> c & 1]  # SE's regionCells (filled cells too)
            if len(members) < degree:
                continue
            for combo in _colex(members, degree - 1):
                union = 0
                for c in combo:
                    union |= cand[c]
                if popcount(union) != degree or any(popcount(cand[c]) < 2 for c in combo) or allext & ~union:
                    continue
                removed = [(c, d) for c in members if c not in combo for d in digits_of(cand[c] & union)]
                if removed:
                    return x.step(
                        "BUG type 3",
                        5.7 + (degree - 1) * 0.1,
                        eliminations=elims(removed),
                        cells=(*bugs, *combo),
                        digits=tuple(d + 1 for d in digits_of(union)),
                        explanation=(
                            f": the BUG digits {x.digit_set(allext)} of {rcs(bugs, n)} make a naked set "
                            f"{x.digit_set(union)} with {rcs(combo, n)} in {x.unit_name(u)}"
                        ),
                        focus=x.unit_name(u),
                    )
    return None


def _colex(items: Sequence[int], k: int) -> list[tuple[int, ...]]:
    """The k-subsets of ``items`` in SE's ``Permutations`` order (colex: by the last index, then the others)."""
    return sorted(itertools.combinations(items, k), key=lambda combo: [items.index(c) for c in reversed(combo)])
