"""Unique loops: the unique rectangle's argument on a loop of 6 or more cells (SE 4.6 to 5.0 + type).

Sudoku Explainer's ``UniqueLoops`` (SE 1.2.1 by Nicolas Juillerat, as kept
by Sukaku Explainer, github.com/SudokuMonster/SukakuExplainer,
``diuf/sudoku/solver/rules/unique/UniqueLoops.java`` with lkSudoku's fix,
its default, and ``UniqueLoopHint.java``, ``UniqueLoopType3NakedHint.java``,
``UniqueLoopType3HiddenHint.java``; read, not copied). A loop of cells that
all hold digits a and b, each unit it enters holding exactly two of its
cells, one at an odd and one at an even place of the loop, is a deadly
pattern: if every cell held only a and b, the two digits could swap along
the loop and the puzzle would have two solutions. So the loop's extra
candidates must break it:

- type 1: one cell has extras: it is not a nor b;
- type 2: the cells with extras share one extra digit: one of them holds
  it, so no cell that sees them all does;
- type 3: two cells with extras act as one cell holding their extra digits
  in a naked set with other cells of a unit they share (the set's digits
  leave the unit's other cells), or a and b with other digits make a hidden
  set in that unit without one of the two (its cells lose their other digits);
- type 4: the two cells with extras share a unit where a (b) has no other
  place: neither holds b (a).

SE's ratings: 4.5 + 0.1 for a loop of 6 cells, + 0.2 for 8, + 0.5 for 10 or
more; type 3 adds 0.1 per digit of its naked set past one, or 0.1 per cell
of its hidden set past two. The rectangles (loops of 4 cells) are
:mod:`.uniqueness`'s; this module finds the loops of 6 cells or more, as
SE does (the bivalue cells in order as starts, a depth-first walk through
the units of each cell, boxes, rows then columns, never twice through the
same kind of unit in a row; at most two cells with extras unless all share
one extra digit), and takes the step of lowest rating, then type, then
the first found. In the path it runs right after the rectangles (SE sorts
rectangles and loops together: only a rectangle of type 3 rated 4.6 or
more against a loop of the same rating could come out in the other
order). Adding it to the path made 4 more of the 960 SE-rated diabolical
puzzles rate exactly as Sukaku Explainer (benchmarks/RESULTS.md, "SE's own
techniques"). HoDoKu has no unique loop (``-`` in ``HINT all``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from sudoku_server.sudoku.techniques import native
from sudoku_server.sudoku.techniques.board import Context, digits_of, elims, popcount
from sudoku_server.sudoku.techniques.links import common_peers
from sudoku_server.sudoku.techniques.step import Step, rcs

__all__ = ["find_unique_loop", "loop_rating"]

#: A loop step found: (rating, type, order found), cells, a, b, (cell, 0-based digit) eliminations, words.
_Found = tuple[tuple[float, int, int], tuple[int, ...], int, int, list[tuple[int, int]], str]


def loop_rating(cells: int) -> float:
    """SE's base rating of a unique loop of ``cells`` cells (``UniqueLoopHint.getDifficulty``, SE's
    original scale): 4.5 for 4, 4.6 for 6, 4.7 for 8, 5.0 for 10 or more."""
    if cells >= 10:
        return 5.0
    if cells >= 8:
        return 4.7
    if cells >= 6:
        return 4.6
    return 4.5


def find_unique_loop(x: Context, types: Sequence[int] = (1, 2, 3, 4)) -> Step | None:
    """Unique loop of 6 or more cells, types 1 to 4 (SE 4.6-5.0, type 3 more): the easiest, or None.

    Classic 9x9 grids only (boxes, rows and columns: SE's three kinds of unit).
    """
    t = x.t
    if t.n != 9 or not t.geometry.classic:
        return None
    found: list[_Found] = []
    seen: set[tuple[int, frozenset[int], str]] = set()
    unit_of: list[list[int]] = []
    for start, a, b, loops in _walks(x):
        if not unit_of:
            unit_of = _unit_of(x)
        for loop in loops:
            if len(loop) < 6 or not _valid(loop, unit_of):
                continue
            for hit in _loop_steps(x, unit_of, loop, a, b, types):
                key = (hit[0][1], frozenset(loop), hit[5])
                if key in seen:
                    continue
                seen.add(key)
                found.append(((hit[0][0], hit[0][1], len(found)), *hit[1:]))
    if not found:
        return None
    found.sort(key=lambda h: h[0])
    (se, typ, _), loop, a, b, removed, note = found[0]
    n = t.n
    return x.step(
        f"unique loop type {typ}",
        se,
        eliminations=elims(removed),
        cells=loop,
        digits=(a + 1, b + 1),
        explanation=f" on {x.d(a)} and {x.d(b)} in {rcs(loop, n)}{note}",
        focus=x.unit_name(t.box_unit[loop[0]]),
    )


def _unit_of(x: Context) -> list[list[int]]:
    """Per kind of unit (box, row, column), per cell, the unit's id."""
    t = x.t
    kinds = [t.boxes, t.rows, t.columns]
    unit_of = [[0] * t.N for _ in kinds]
    for k, ids in enumerate(kinds):
        for u in ids:
            for c in t.units[u]:
                unit_of[k][c] = u
    return unit_of


def _walks(x: Context) -> Iterator[tuple[int, int, int, list[tuple[int, ...]]]]:
    """SE's starts and walks: (start, a, b, the closed walks from it), for the starts that have some.

    The starts are the bivalue cells in order. A loop through an earlier
    start of the same pair was found from there (the valid loops found do
    not depend on where the walk starts): those cells are left out, then
    the cells with no loop cell in two kinds of unit (each cell of a loop
    has its two neighbours in two of its units). Natively
    (``_engine.loop_walks``, the same starts and walks in the same order)
    when the extension is built, else :func:`_loops` in Python.
    """
    t, cand, pos = x.t, x.cand, x.pos
    eng = native.engine(t.N, t.n)
    if eng is not None:
        x.check()
        for start, loops in eng.loop_walks(cand, pos):
            a, b = digits_of(cand[start])
            yield start, a, b, loops
        return
    unit_of = _unit_of(x)
    units_of = [(1 << unit_of[0][c]) | (1 << unit_of[1][c]) | (1 << unit_of[2][c]) for c in range(t.N)]
    done: dict[int, int] = {}  # per digit pair, the bivalue cells already taken as starts
    for start in range(t.N):
        if popcount(cand[start]) != 2:
            continue
        a, b = digits_of(cand[start])
        pair = cand[start]
        cells = _core(pos[a] & pos[b] & ~done.get(pair, 0), unit_of, t.unit_mask)
        done[pair] = done.get(pair, 0) | 1 << start
        if not cells >> start & 1 or popcount(cells) < 6:
            continue
        x.check()
        loops = _loops(x, unit_of, units_of, start, pair, cells)
        if loops:
            yield start, a, b, loops


def _core(cells: int, unit_of: list[list[int]], unit_mask: list[int]) -> int:
    """The cells of ``cells`` left after removing, again and again, those that have another cell of the set in
    fewer than two of their three units (box, row, column): no loop of the set goes through them."""
    while True:
        drop = 0
        m = cells
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            kinds = 0
            for kind in range(3):
                if unit_mask[unit_of[kind][c]] & cells & ~low:
                    kinds += 1
            if kinds < 2:
                drop |= low
        if not drop:
            return cells
        cells &= ~drop


def _loops(
    x: Context, unit_of: list[list[int]], units_of: list[int], start: int, pair: int, cells: int
) -> list[tuple[int, ...]]:
    """SE's ``checkForLoops`` from ``start`` through ``cells`` (a bitboard of cells holding both digits):
    the closed walks found, in SE's order.

    A walk whose cells at even (odd) places already share a unit can never
    close into a valid loop (:func:`_valid`): it is cut there, which leaves
    out only loops SE rejects.
    """
    t, cand = x.t, x.cand
    unit_mask = t.unit_mask
    out: list[tuple[int, ...]] = []
    path = [start]
    sides = [units_of[start], 0]  # the units entered by the cells at even / odd places
    free = cells & ~(1 << start)  # the cells a walk may still enter (a unit's cells in order: lowest bit first)

    def walk(cell: int, allowed: int, extra: int, last_kind: int) -> None:
        nonlocal free
        for kind in range(3):
            if kind == last_kind:
                continue
            um = unit_mask[unit_of[kind][cell]]
            m = um & (free | (1 << start))
            while m:
                low = m & -m
                m ^= low
                nxt = low.bit_length() - 1
                if nxt == start:
                    if len(path) >= 4:
                        out.append(tuple(path))
                    continue
                side = len(path) & 1
                if sides[side] & units_of[nxt]:
                    continue
                mm = cand[nxt]
                ex = (extra | mm) & ~pair
                k = popcount(mm)
                if k == 2 or popcount(ex) == 1 or allowed > 0:
                    path.append(nxt)
                    sides[side] |= units_of[nxt]
                    free &= ~low
                    walk(nxt, allowed - (k > 2), ex, kind)
                    free |= low
                    sides[side] &= ~units_of[nxt]
                    path.pop()

    walk(start, 2, 0, -1)
    return out


def _valid(loop: tuple[int, ...], unit_of: list[list[int]]) -> bool:
    """SE's ``isValidLoop``: every unit entered holds one cell at an even and one at an odd place."""
    seen: tuple[set[int], set[int]] = (set(), set())
    for i, c in enumerate(loop):
        side = seen[i & 1]
        for kind in range(3):
            u = unit_of[kind][c]
            if u in side:
                return False
            side.add(u)
    return seen[0] == seen[1]


def _loop_steps(
    x: Context, unit_of: list[list[int]], loop: tuple[int, ...], a: int, b: int, types: Sequence[int]
) -> list[tuple[tuple[float, int], tuple[int, ...], int, int, list[tuple[int, int]], str]]:
    """The steps of one valid loop in SE's order (its ``getHints``), each with eliminations."""
    t, cand, pos = x.t, x.cand, x.pos
    n = t.n
    pair = (1 << a) | (1 << b)
    base = loop_rating(len(loop))
    extra = [c for c in loop if popcount(cand[c]) > 2]
    out = []

    def add(se: float, typ: int, removed: list[tuple[int, int]], note: str) -> None:
        if removed and typ in types:
            out.append(((round(se, 1), typ), loop, a, b, removed, note))

    if len(extra) == 1:
        c = extra[0]
        add(base, 1, [(c, a), (c, b)], "")
        return out
    if not extra:
        return out
    ext = 0
    for c in extra:
        ext |= cand[c] & ~pair
    if len(extra) > 2 or popcount(ext) == 1:
        z = (cand[extra[0]] & ~pair).bit_length() - 1
        emask = sum(1 << c for c in extra)
        victims = pos[z] & common_peers(t, emask)
        add(base, 2, [(c, z) for c in digits_of(victims)], f" (extra {x.d(z)})")
    elif len(extra) == 2:
        out.extend(_type3(x, unit_of, loop, a, b, extra[0], extra[1], ext, base) if 3 in types else [])
    if len(extra) == 2:
        c1, c2 = extra
        locked: dict[int, int] = {}  # digit -> the last unit where it has no place but c1 and c2 (SE's r1, r2)
        for kind in range(3):
            u = unit_of[kind][c1]
            if u != unit_of[kind][c2]:
                continue
            others = t.unit_mask[u] & ~(1 << c1) & ~(1 << c2)
            for d in (a, b):
                if not pos[d] & others:
                    locked[d] = u
        lock = (a, b, locked[a]) if a in locked else (b, a, locked[b]) if b in locked else None
        if lock is not None:
            keep, drop, u = lock
            add(
                base,
                4,
                [(c1, drop), (c2, drop)],
                f" ({x.d(keep)} is locked in {rcs((c1, c2), n)} in {x.unit_name(u)})",
            )
    return out


def _type3(
    x: Context,
    unit_of: list[list[int]],
    loop: tuple[int, ...],
    a: int,
    b: int,
    c1: int,
    c2: int,
    ext: int,
    base: float,
) -> list[tuple[tuple[float, int], tuple[int, ...], int, int, list[tuple[int, int]], str]]:
    """SE's ``createType3Hints`` (lkSudoku's order): sizes 2 to 7, then the units c1 and c2 share; naked sets
    with c1 standing for both, then hidden sets of a, b and others without c2."""
    t, cand, pos = x.t, x.cand, x.pos
    n = t.n
    pair = (1 << a) | (1 << b)
    out = []
    for degree in range(2, 8):
        for kind in range(3):
            u = unit_of[kind][c1]
            if u != unit_of[kind][c2]:
                continue
            cells = t.units[u]
            empty = sum(1 for c in cells if cand[c])
            if degree * 2 <= empty and degree >= popcount(ext):
                i1, i2 = cells.index(c1), cells.index(c2)
                for idx in _colex_indexes(9, degree):
                    if i1 not in idx or i2 in idx:
                        continue
                    others = [cells[i] for i in idx if i != i1]
                    naked = ext & cand[c1] & cand[c2]
                    union = ext
                    for c in others:
                        naked |= cand[c]
                        union |= cand[c]
                    if popcount(naked) != degree or popcount(union) != degree:
                        continue
                    if popcount(ext) < 2 or any(popcount(cand[c]) < 2 for c in others):
                        continue
                    removed = [
                        (c, d)
                        for c in cells
                        if c not in others and c not in (c1, c2)
                        for d in digits_of(cand[c] & union)
                    ]
                    if removed:
                        out.append(
                            (
                                (round(base + (degree - 1) * 0.1, 1), 3),
                                loop,
                                a,
                                b,
                                removed,
                                f" (extras {x.digit_set(ext)} of {rcs((c1, c2), n)} make a naked set "
                                f"{x.digit_set(union)} with {rcs(others, n)} in {x.unit_name(u)})",
                            )
                        )
            if degree * 2 < empty:
                rest = [d for d in range(9) if not (pair | ext) >> d & 1]
                if degree - 2 > len(rest):
                    continue
                um_c2 = ~(1 << c2)
                for chosen in _colex_indexes(len(rest), degree - 2):
                    values = [rest[i] for i in chosen] + [a, b]
                    places = 0
                    ok = True
                    for d in values:
                        p = pos[d] & t.unit_mask[u] & um_c2
                        if not p:
                            ok = False
                            break
                        places |= p
                    if not ok or popcount(places) != degree:
                        continue
                    hidden = sum(1 << d for d in values)
                    inner = [c for c in cells if places >> c & 1 and c not in (c1, c2)]
                    removed = [(c, d) for c in inner for d in digits_of(cand[c] & ~hidden)]
                    if removed:
                        out.append(
                            (
                                (round(base + (len(inner) - 1) * 0.1, 1), 3),
                                loop,
                                a,
                                b,
                                removed,
                                f" ({x.digit_set(hidden)} have no other places in {x.unit_name(u)} than "
                                f"{rcs(inner, n)} and {rcs((c1, c2), n)}, one of which holds an extra)",
                            )
                        )
    return out


def _colex_indexes(size: int, k: int) -> list[tuple[int, ...]]:
    """The k-subsets of ``range(size)`` in SE's ``Permutations`` order (colex)."""
    return sorted(itertools.combinations(range(size), k), key=lambda combo: combo[::-1])
