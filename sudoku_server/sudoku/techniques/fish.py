"""Basic fish: X-Wing (SE 3.2), Swordfish (3.8), Jellyfish (5.2).

By nature about rows and columns: a digit's places are read row by row off
its bitboard (cells row-major), and the step names the rows' and columns'
unit ids (:attr:`.board.Tables.rows`, :attr:`.board.Tables.columns`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from sudoku_server.sudoku.techniques import native
from sudoku_server.sudoku.techniques.board import Context, digits_of, elims, popcount
from sudoku_server.sudoku.techniques.step import Step, and_list

__all__ = ["find_fish"]

_FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}
_FISH_SE = {2: 3.2, 3: 3.8, 4: 5.2}


def find_fish(x: Context, k: int) -> Step | None:
    """Basic fish: k rows (columns) whose places for a digit lie in k columns (rows)."""
    t, pos = x.t, x.pos
    n = t.n
    rb = t.row_bits
    digits: Sequence[int] = range(n)
    only: tuple[bool, tuple[int, ...]] | None = None
    eng = native.engine(t.N, n)
    if eng is not None and t.rows == list(range(n)) and t.columns == list(range(n, 2 * n)):
        # the search natively: the first digit, orientation and lines with something to remove
        hit = eng.fish(k, x.cand)
        if hit is None:
            return None
        digits, only = (hit[0],), (hit[1], tuple(hit[2]))
    for d in digits:
        p = pos[d]
        if not p:
            continue
        rows = [(p >> (r * n)) & rb for r in range(n)]
        cols = [0] * n
        for r, bits in enumerate(rows):
            while bits:
                low = bits & -bits
                cols[low.bit_length() - 1] |= 1 << r
                bits ^= low
        for by_rows, lines in ((True, rows), (False, cols)):
            if only is not None and by_rows != only[0]:
                continue
            cand_lines = [(i, m) for i, m in enumerate(lines) if m and popcount(m) <= k]
            if len(cand_lines) < k:
                continue
            combos: Iterable[tuple[tuple[int, int], ...]] = (
                itertools.combinations(cand_lines, k) if only is None else (tuple((i, lines[i]) for i in only[1]),)
            )
            for combo in combos:
                cover = 0
                for _, m in combo:
                    cover |= m
                if popcount(cover) != k:
                    continue
                base = [i for i, _ in combo]
                bmask = sum(1 << i for i in base)
                found = []
                for j in digits_of(cover):
                    for i in digits_of((cols[j] if by_rows else rows[j]) & ~bmask):
                        cell = i * n + j if by_rows else j * n + i
                        found.append((cell, d))
                if found:
                    cover_list = digits_of(cover)
                    if by_rows:
                        bases = "rows " + and_list([str(i + 1) for i in base])
                        covers = "columns " + and_list([str(j + 1) for j in cover_list])
                        units = tuple(t.rows[i] for i in base) + tuple(t.columns[j] for j in cover_list)
                    else:
                        bases = "columns " + and_list([str(i + 1) for i in base])
                        covers = "rows " + and_list([str(j + 1) for j in cover_list])
                        units = tuple(t.columns[i] for i in base) + tuple(t.rows[j] for j in cover_list)
                    cells = tuple(
                        sorted(
                            (i * n + j if by_rows else j * n + i)
                            for i in base
                            for j in cover_list
                            if (p >> (i * n + j if by_rows else j * n + i)) & 1
                        )
                    )
                    return x.step(
                        _FISH_NAMES[k],
                        _FISH_SE[k],
                        eliminations=elims(found),
                        cells=cells,
                        units=units,
                        digits=(d + 1,),
                        explanation=f" on {x.d(d)} in {bases}, {covers}",
                        focus=x.unit_name(units[0]),
                    )
    return None
