"""Chains of strong links on one digit (Sukaku Explainer's StrongLinks).

Two links: skyscraper (SE 4.0), two-string kite (4.1), turbot fish (4.2),
empty rectangle and grouped turbot fish (4.3); three or four: X-chain
(5.4 / 5.8, + 0.1..0.3). A strong link is a unit with two places for the
digit (any unit of the geometry: an extra unit links like a line of its
own kind); grouped links are read off boxes and lines only.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from types import ModuleType
from typing import Literal, cast

from sudoku_server.sudoku.grid import cell_name
from sudoku_server.sudoku.techniques import native
from sudoku_server.sudoku.techniques.board import (
    BOX,
    OTHER,
    Context,
    LinkTables,
    Oriented,
    Tables,
    cells_of,
    elims,
    popcount,
)
from sudoku_server.sudoku.techniques.step import Step

__all__ = ["find_strong_links"]

#: A strong link: (unit id, group A, group B, grouped), groups as cell masks.
Link = tuple[int, int, int, bool]
#: The best chain of a digit: ((se, -victims), digit, links, victims, grouped, kinds).
Chain = tuple[tuple[float, int], int, tuple[Oriented, ...], int, bool, list[int]]

#: The native search's unit tables per geometry's tables (:func:`_native_units`).
_UNITS: weakref.WeakKeyDictionary[Tables, object] = weakref.WeakKeyDictionary()

#: Base rating by number of strong links (Sukaku Explainer StrongLinksHint.baseRatings).
_LINKS_SE = {2: 4.0, 3: 5.4, 4: 5.8}


def group_name(cells: Sequence[int], n: int) -> str:
    """One cell as ``r1c2``; a group in one row as ``r1c23``, in one column as ``r12c3``."""
    if len(cells) == 1:
        return cell_name(cells[0], n)
    rows = sorted({c // n + 1 for c in cells})
    cols = sorted({c % n + 1 for c in cells})
    return "r" + "".join(map(str, rows)) + "c" + "".join(map(str, cols))


def common_peers(t: Tables, mask: int) -> int:
    """Cells that see every cell of ``mask`` (not in it)."""
    m = t.all_cells
    for c in cells_of(mask):
        m &= t.peer_mask[c]
    return m & ~mask


def _strong_links(x: Context, d: int) -> list[Link]:
    """Strong links of digit d, in unit order.

    Plain links are units with two places. Grouped links (Sukaku Explainer's
    empty rectangles and line groups): a line whose places lie in two box
    segments; a box whose places lie in two rows, in two columns, or in one
    row and one column (the cross of an empty rectangle).
    """
    t = x.t
    p = x.pos[d]
    links: list[Link] = []
    for u in range(len(t.units)):
        m = p & t.unit_mask[u]
        cnt = popcount(m)
        if cnt < 2:
            continue
        if cnt == 2:
            low = m & -m
            links.append((u, low, m ^ low, False))
            continue
        if cnt > 6:
            continue
        kind = t.kind[u]
        if kind == OTHER:
            continue
        if kind != BOX:  # a line: split by boxes
            groups = [m & im for im in t.line_segments[u] if m & im]
            if len(groups) == 2:
                links.append((u, groups[0], groups[1], True))
            continue
        # a box: two rows, two columns, or a cross
        rows = t.box_rows_segs[u]
        cols = t.box_cols_segs[u]
        for segs in (rows, cols):
            parts = [m & im for _, im in segs if m & im]
            if len(parts) == 2:
                links.append((u, parts[0], parts[1], True))
        for _, rm in rows:
            if not m & rm:
                continue
            for _, cm in cols:
                if m & ~(rm | cm):
                    continue
                heart = rm & cm
                a, bb = m & rm & ~heart, m & cm & ~heart
                if m & heart:
                    variants: tuple[tuple[int, int], ...] = ((a | heart, bb), (a, bb | heart))
                else:
                    variants = ((a, bb),)
                for ga, gb in variants:
                    if ga and gb and (popcount(ga) > 1 or popcount(gb) > 1):
                        links.append((u, ga, gb, True))
    return links


def _links_se(k: int, kinds: Sequence[int], grouped: bool) -> float:
    """Sukaku Explainer's rating of a chain of k strong links on one digit (kinds: of the links' units)."""
    base = _LINKS_SE[k]
    if grouped:
        return base + 0.3
    has_box = BOX in kinds
    lines = {kd for kd in kinds if kd != BOX}
    if not has_box and len(lines) == 1:
        return base
    if has_box and len(lines) == 2:
        return base + 0.2
    return base + 0.1


def _links_name(x: Context, k: int, chain: Sequence[Oriented], kinds: Sequence[int], grouped: bool) -> str:
    if k > 2:
        return "X-chain"
    if grouped:
        return "empty rectangle" if any(o[4] and x.t.kind[o[1]] == BOX for o in chain) else "grouped turbot fish"
    if BOX not in kinds and len(set(kinds)) == 1:
        return "skyscraper"
    if BOX not in kinds:
        return "two-string kite"
    return "turbot fish"


def _oriented_links(x: Context, d: int) -> LinkTables:
    """Digit d's strong links both ways, with what each end sees and which links may follow (cached)."""
    cache = x.links.get(d)
    if cache is not None:
        return cache
    t = x.t
    p = x.pos[d]
    links = _strong_links(x, d)
    oriented: list[Oriented] = []
    for i, (u, a, b, grouped) in enumerate(links):
        oriented.append((i, u, a, b, grouped))
        oriented.append((i, u, b, a, grouped))
    peers: dict[int, int] = {}

    def seen(g: int) -> int:
        r = peers.get(g)
        if r is None:
            r = peers[g] = common_peers(t, g)
        return r

    start_sees = [seen(o[2]) & p for o in oriented]
    end_sees = [seen(o[3]) for o in oriented]
    # links starting at one cell, by that cell; links starting at a group;
    # links whose end sees a cell
    single_start: dict[int, int] = {}
    group_start: dict[int, list[tuple[int, int]]] = {}
    ends_seeing: dict[int, int] = {}
    for j, o in enumerate(oriented):
        st = o[2]
        if st & (st - 1):
            group_start.setdefault((st & -st).bit_length() - 1, []).append((j, st))
        else:
            c = st.bit_length() - 1
            single_start[c] = single_start.get(c, 0) | 1 << j
        m = end_sees[j] & p
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            ends_seeing[c] = ends_seeing.get(c, 0) | 1 << j
    nxt = []
    for i in range(len(oriented)):
        se_end = end_sees[i]
        m = 0
        cells = se_end & p
        while cells:
            low = cells & -cells
            cells ^= low
            c = low.bit_length() - 1
            m |= single_start.get(c, 0)
            for j, st in group_start.get(c, ()):
                if not st & ~se_end:
                    m |= 1 << j
        nxt.append(m & ~(1 << i))
    cache = x.links[d] = (oriented, start_sees, end_sees, nxt, ends_seeing)
    return cache


def _strong_links_of_digit(x: Context, d: int, k: int, name: str | None) -> Chain | None:
    """The best chain of k strong links on digit d, or None."""
    best: Chain | None = None
    oriented, start_sees, end_sees, nxt, ends_seeing = _oriented_links(x, d)
    m = len(oriented)
    if m < 2 * k:
        return None
    for i in range(m):
        si = start_sees[i]
        if not si:
            continue
        # links that may end a chain from i: they share a victim with i's start
        ends = 0
        mm = si
        while mm:
            low = mm & -mm
            ends |= ends_seeing.get(low.bit_length() - 1, 0)
            mm ^= low
        if not ends:
            continue
        reach = nxt[i]
        for _ in range(k - 2):
            r = 0
            mm = reach
            while mm:
                low = mm & -mm
                r |= nxt[low.bit_length() - 1]
                mm ^= low
            reach = r
        if not reach & ends:
            continue
        # enumerate the chains from i
        o1 = oriented[i]
        stack: list[tuple[tuple[int, ...], int, int]] = [((i,), o1[2] | o1[3], nxt[i])]
        while stack:
            chain, used, cand_next = stack.pop()
            if len(chain) == k - 1:
                mm = cand_next & ends
            else:
                mm = cand_next
            while mm:
                low = mm & -mm
                j = low.bit_length() - 1
                mm ^= low
                oj = oriented[j]
                if oj[2] & used or oj[3] & used or any(oriented[q][0] == oj[0] for q in chain):
                    continue
                ch = chain + (j,)
                if len(ch) < k:
                    stack.append((ch, used | oj[2] | oj[3], nxt[j]))
                    continue
                victims = si & end_sees[j] & ~(used | oj[2] | oj[3])
                if not victims:
                    continue
                links = [oriented[q] for q in ch]
                kinds = [x.t.kind[o[1]] for o in links]
                grouped = any(o[4] for o in links)
                if name is not None and _links_name(x, k, links, kinds, grouped) != name:
                    continue
                se = round(_links_se(k, kinds, grouped), 1)
                key = (se, -popcount(victims))
                if best is None or key < best[0]:
                    best = (key, d, tuple(links), victims, grouped, kinds)
    return best


def _native_units(eng: ModuleType, t: Tables) -> object:
    """The native search's unit tables of a geometry (``_engine.strong_units``), made once per :class:`Tables`."""
    units = _UNITS.get(t)
    if units is None:
        rows = []
        for u in range(len(t.units)):
            kind = t.kind[u]
            if kind == BOX:
                segs_a, segs_b = [im for _, im in t.box_rows_segs[u]], [im for _, im in t.box_cols_segs[u]]
            elif kind == OTHER:
                segs_a, segs_b = [], []
            else:
                segs_a, segs_b = list(t.line_segments[u]), []
            rows.append((kind, t.unit_mask[u], segs_a, segs_b))
        units = _UNITS[t] = eng.strong_units(rows, t.peer_mask)
    return units


def _native_of_digit(x: Context, eng: ModuleType, units: object, d: int, k: int) -> Chain | Literal[False] | None:
    """:func:`_strong_links_of_digit` with no name, natively (``_engine.strong_links``: the same links in
    the same order, the same best chain); False when the digit has more links than the native search holds."""
    found = eng.strong_links(units, x.pos[d], k)
    if not found:
        return found  # type: ignore[no-any-return]
    _, victims, chain = found
    kinds = [x.t.kind[o[1]] for o in chain]
    grouped = any(o[4] for o in chain)
    return ((round(_links_se(k, kinds, grouped), 1), -popcount(victims)), d, chain, victims, grouped, kinds)


def find_strong_links(x: Context, k: int, name: str | None = None) -> Step | None:
    """A chain of k strong links on one digit, weakly linked end to start.

    Either the chain's first or last group holds the digit, so a cell that
    sees both loses it. Two links: skyscraper, two-string kite, turbot fish,
    empty rectangle; three or four: X-chain. Chains are only enumerated from
    a first link whose k-step reach holds a last link sharing a victim with it.
    The best chain of each digit is remembered while that digit's candidates
    stay the same (:attr:`Board.memo`). With no ``name``, each digit's search
    runs natively on 9x9 when the extension is built (:func:`_native_of_digit`).
    """
    n = x.t.n
    best: Chain | None = None
    memo = x.b.memo
    eng = native.engine(x.t.N, n) if name is None else None
    units = _native_units(eng, x.t) if eng is not None else None
    for d in range(x.n):
        x.check()
        mk = ("links", k, name, d, x.pos[d])
        if mk in memo:
            hit = cast("Chain | None", memo[mk])
        else:
            found = _native_of_digit(x, eng, units, d, k) if eng is not None else False
            hit = memo[mk] = _strong_links_of_digit(x, d, k, name) if found is False else found
        if hit is not None and (best is None or hit[0] < best[0]):
            best = hit
    if best is None:
        return None
    (se, _), d, chain, victims, grouped, kinds = best
    parts = []
    for o in chain:
        parts.append(group_name(cells_of(o[2]), n) + "=" + group_name(cells_of(o[3]), n))
    text = "-".join(parts)
    if k == 2:
        explanation = f" on {x.d(d)}: {text}"
    else:
        explanation = f" on {x.d(d)} ({k} strong links): {text}"
    cells = sorted({c for o in chain for c in cells_of(o[2] | o[3])})
    return x.step(
        _links_name(x, k, chain, kinds, grouped),
        se,
        eliminations=elims((c, d) for c in cells_of(victims)),
        cells=tuple(cells),
        units=tuple(o[1] for o in chain),
        digits=(d + 1,),
        explanation=explanation,
        focus=x.unit_name(chain[0][1]),
    )
