"""The rules a nested forcing chain runs on its working grid (SE's ``getAdvancedPotentials``), for :mod:`.nested`.

A dynamic chain of level ``L`` (:func:`.nested._closure`), when it runs out
of singles, asks :func:`rules` for the first rule of its level that removes
candidates on the grid the chain left: pointing and claiming, hidden pair,
naked pair, X-Wing (level 1 and up), then forcing chains (level 2,
:func:`nested_chains`) or static cell and unit forcing chains (level 3,
:func:`nested_multiple`). Each hit names the candidates the chain removed
that it needs (SE's ``getRuleParents``); a hit that needs none is dropped,
as SE drops it (the rule applies without the chain). When the C extension
``techniques/_nested.c`` is built, :func:`rules`, :func:`nested_chains` and
:func:`nested_multiple` run there on the cell masks (``_native``; the
geometry flattened once per :class:`~.board.Tables`), and the Python
versions here (``_RULES``, :func:`nested_chains_python`,
:func:`nested_multiple_python`) are the oracle: tests/test_nested_native.py
holds them equal hit for hit. Sources: Sukaku
Explainer's ``Chaining.java`` and the hints' ``getRuleParents``
(github.com/1to9only/SukakuExplainer; read, not copied).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from sudoku_server.sudoku.techniques.board import Context, Tables, cells_of, digits_of, popcount

__all__ = ["NATIVE", "Hit", "Link", "Nest", "Node", "nested_chains", "nested_multiple", "rules"]

_native: Any
try:
    from sudoku_server.sudoku.techniques import _nested

    _native = _nested
except ImportError:  # no C compiler at install time: the Python searches below
    _native = None
if os.environ.get("SUDOKU_SERVER_PURE_PYTHON", "") not in ("", "0"):
    _native = None

#: Whether level 3's static forcing searches run in C (``techniques/_nested.c``; the Python below is the oracle).
NATIVE: bool = _native is not None

#: A node: (candidate id = 0-based digit * N + cell, is_on).
Node = tuple[int, bool]
#: What a nested chain adds to the complexity of a chain that uses it: (identity, complexity).
Nest = tuple[tuple[int, ...], int]
#: One rule's hint on the working grid: (candidate ids it removes, ids of the removed candidates it needs, nest).
Hit = tuple[list[int], list[int], Nest | None]
#: A strong link the outer chain made: (candidate id a, candidate id b, the removed ids that made it).
Link = tuple[int, int, tuple[int, ...]]


def rules(
    x: Context, level: int, cand: list[int], pos: list[int], src_cand: list[int], src_pos: list[int]
) -> list[list[Hit]]:
    """The hits of the first rule of ``level`` that has any (a list of one list), else ``[]``.

    A hit counts only if it needs a candidate the chain removed (SE skips a
    rule that applies without the chain).
    """
    geo = _native_geometry(x.t) if _native is not None else None
    if geo is not None:
        hits = _native.rules1(geo, cand, src_cand)
        if hits:
            return [hits]
    else:
        for rule in _RULES:
            hits = rule(x, cand, pos, src_cand, src_pos)
            if hits:
                return [hits]
    if level == 2:
        hits = nested_chains(x, level, cand, pos, src_cand, src_pos)
    elif level == 3:
        hits = nested_multiple(x, cand, pos, src_cand, src_pos)
    elif level == 4 and geo is not None:  # dynamic forcing chains inside (C only: techniques/_nested_dynamic.h)
        x.check()
        hits = [
            (rem, need, ((4, kind, where, k, on), size))
            for k, on, size, rem, need, kind, where in _native.dynamic(geo, cand, src_cand)
        ]
    else:
        hits = []
    return [hits] if hits else []


def _locking(x: Context, cand: list[int], pos: list[int], src_cand: list[int], src_pos: list[int]) -> list[Hit]:
    """Pointing and claiming on the working grid (SE ``Locking``; parents: the digit's removed places)."""
    t = x.t
    N = t.N
    um = t.unit_mask
    out: list[Hit] = []
    for d in range(t.n):
        p = pos[d]
        if not p:
            continue
        gone = src_pos[d] & ~p
        if not gone:
            continue
        sh = d * N
        for b, line, im in t.inter:
            bm, lm = um[b], um[line]
            pb = p & bm
            if pb and not pb & ~im:
                rem = p & lm & ~im
                if rem:
                    need = gone & bm & ~lm
                    if need:
                        out.append(([sh + c for c in cells_of(rem)], [sh + c for c in cells_of(need)], None))
            pl = p & lm
            if pl and not pl & ~im:
                rem = p & bm & ~im
                if rem:
                    need = gone & lm & ~bm
                    if need:
                        out.append(([sh + c for c in cells_of(rem)], [sh + c for c in cells_of(need)], None))
    return out


def _hidden_pair(x: Context, cand: list[int], pos: list[int], src_cand: list[int], src_pos: list[int]) -> list[Hit]:
    """Hidden pairs on the working grid (parents: the two digits' removed places in the unit)."""
    t = x.t
    N, n = t.N, t.n
    out: list[Hit] = []
    for u in t.se_order:
        um = t.unit_mask[u]
        two = [(d, pos[d] & um) for d in range(n) if popcount(pos[d] & um) == 2]
        for i in range(len(two)):
            d1, m1 = two[i]
            for d2, m2 in two[i + 1 :]:
                if m1 != m2:
                    continue
                keep = (1 << d1) | (1 << d2)
                rem = [dd * N + c for c in cells_of(m1) for dd in digits_of(cand[c] & ~keep)]
                if not rem:
                    continue
                need = [dd * N + c for dd in (d1, d2) for c in cells_of(src_pos[dd] & um & ~m1)]
                if need:
                    out.append((rem, need, None))
    return out


def _naked_pair(x: Context, cand: list[int], pos: list[int], src_cand: list[int], src_pos: list[int]) -> list[Hit]:
    """Naked pairs on the working grid (parents: the other candidates removed from the two cells)."""
    t = x.t
    N = t.N
    out: list[Hit] = []
    for u in t.se_order:
        cells = [c for c in cells_of(t.unit_mask[u]) if popcount(cand[c]) == 2]
        for i in range(len(cells)):
            a = cells[i]
            for b in cells[i + 1 :]:
                m = cand[a]
                if cand[b] != m:
                    continue
                two = m
                rem = [
                    dd * N + c
                    for dd in digits_of(two)
                    for c in cells_of(pos[dd] & t.unit_mask[u] & ~((1 << a) | (1 << b)))
                ]
                if not rem:
                    continue
                need = [dd * N + c for c in (a, b) for dd in digits_of(src_cand[c] & ~two)]
                if need:
                    out.append((rem, need, None))
    return out


def _x_wing(x: Context, cand: list[int], pos: list[int], src_cand: list[int], src_pos: list[int]) -> list[Hit]:
    """X-Wings on the working grid (parents: the digit's removed places in the base lines, off the covers)."""
    t = x.t
    N, n = t.N, t.n
    um = t.unit_mask
    out: list[Hit] = []
    for bases, covers in ((t.rows, t.columns), (t.columns, t.rows)):
        for d in range(n):
            p = pos[d]
            gone = src_pos[d] & ~p
            if not gone:
                continue
            sh = d * N
            per = []
            for u in bases:
                cover = 0
                for j, v in enumerate(covers):
                    if p & um[u] & um[v]:
                        cover |= 1 << j
                if 0 < popcount(cover) <= 2:
                    per.append((u, cover))
            for i in range(len(per)):
                u1, c1 = per[i]
                for u2, c2 in per[i + 1 :]:
                    cv = c1 | c2
                    if popcount(cv) != 2:
                        continue
                    cover_mask = 0
                    for j in digits_of(cv):
                        cover_mask |= um[covers[j]]
                    base_mask = um[u1] | um[u2]
                    rem = p & cover_mask & ~base_mask
                    if not rem:
                        continue
                    need = gone & base_mask & ~cover_mask
                    if need:
                        out.append(([sh + c for c in cells_of(rem)], [sh + c for c in cells_of(need)], None))
    return out


_RULES: tuple[Callable[[Context, list[int], list[int], list[int], list[int]], list[Hit]], ...] = (
    _locking,
    _hidden_pair,
    _naked_pair,
    _x_wing,
)


def _static_reach(x: Context, cand: list[int], pos: list[int], src: int) -> dict[Node, Node | None]:
    """Every node that candidate ``src`` being true implies on a fixed grid, breadth first: node -> its parent.

    The grid does not change along the chain (SE's static chaining): on ->
    off for the cell's other candidates and the digit's other places in each
    unit; off -> on for the other candidate of a bivalue cell and the other
    place of the digit in a unit with two places. The source maps to None.
    """
    t = x.t
    N = t.N
    um, cell_units = t.unit_mask, t.cell_units
    parent: dict[Node, Node | None] = {(src, True): None}
    front = [(src, True)]
    while front:
        nxt = []
        for k, is_on in front:
            d, c = divmod(k, N)
            if is_on:
                outs = [dd * N + c for dd in digits_of(cand[c] & ~(1 << d))]
                others = 0
                for u in cell_units[c]:
                    others |= pos[d] & um[u]
                outs.extend(d * N + cc for cc in cells_of(others & ~(1 << c)))
            else:
                outs = []
                m = cand[c]
                if popcount(m) == 2:
                    outs.append(((m & ~(1 << d)).bit_length() - 1) * N + c)
                for u in cell_units[c]:
                    pm = pos[d] & um[u]
                    if popcount(pm) == 2:
                        outs.append(d * N + (pm & ~(1 << c)).bit_length() - 1)
            for kk in outs:
                node = (kk, not is_on)
                if node not in parent:
                    parent[node] = (k, is_on)
                    nxt.append(node)
        front = nxt
    return parent


def _new_links(x: Context, cand: list[int], pos: list[int], src_cand: list[int], src_pos: list[int]) -> list[Link]:
    """The strong links of the working grid that the source grid lacks: (a, b, the removed ids that made it).

    A bivalue cell that had more candidates; a digit with two places left in a
    unit where it had more.
    """
    t = x.t
    N = t.N
    out: list[Link] = []
    for c in range(N):
        m = cand[c]
        if popcount(m) == 2 and src_cand[c] != m:
            a, b = digits_of(m)
            out.append((a * N + c, b * N + c, tuple(e * N + c for e in digits_of(src_cand[c] & ~m))))
    for d in range(t.n):
        p, sp = pos[d], src_pos[d]
        if p == sp:
            continue
        for u in t.se_order:
            um = t.unit_mask[u]
            pm = p & um
            if popcount(pm) == 2 and sp & um != pm:
                a, b = cells_of(pm)
                out.append((d * N + a, d * N + b, tuple(d * N + g for g in cells_of(sp & um & ~pm))))
    return out


def _why(
    x: Context, cand: list[int], pos: list[int], src_cand: list[int], src_pos: list[int], p: int, q: int
) -> set[int]:
    """The removed ids behind the strong link off(p) -> on(q) on the working grid (SE's rule parents)."""
    N = x.t.N
    cp, (dq, cq) = p % N, divmod(q, N)
    if cp == cq:
        return {e * N + cq for e in digits_of(src_cand[cq] & ~cand[cq])}
    um = x.t.unit_mask
    for u in x.t.cell_units[cq]:
        if um[u] >> cp & 1 and popcount(pos[dq] & um[u]) == 2:
            return {dq * N + g for g in cells_of(src_pos[dq] & um[u] & ~pos[dq])}
    return set()


def _path(par: dict[Node, Node | None], node: Node) -> list[Node]:
    """The nodes from the BFS source to ``node``, source first."""
    out = []
    cur: Node | None = node
    while cur is not None:
        out.append(cur)
        cur = par[cur]
    out.reverse()
    return out


_GEO: dict[int, tuple[Tables, bytes | None]] = {}


def _native_geometry(t: Tables) -> bytes | None:
    """The geometry flattened for ``_nested.multiple`` (built once per :class:`Tables`), or None if too large."""
    hit = _GEO.get(id(t))
    if hit is None or hit[0] is not t:
        geo: bytes | None = None
        if t.n * t.N <= 8192:
            peers = []
            for c in range(t.N):
                m = 0
                for u in t.cell_units[c]:
                    m |= t.unit_mask[u]
                peers.append(cells_of(m & ~(1 << c)))
            inter = [u for b, line, _ in t.inter for u in (b, line)]
            geo = _native.geometry(t.n, t.N, t.units, t.cell_units, peers, t.se_order, inter, t.rows, t.columns)
        hit = _GEO[id(t)] = (t, geo)
    return hit[1]


def nested_chains(
    x: Context, level: int, cand: list[int], pos: list[int], src_cand: list[int], src_pos: list[int]
) -> list[Hit]:
    """Level 2's nested rule (:func:`nested_chains_python`), in C when the extension is built (the same hits)."""
    geo = _native_geometry(x.t) if _native is not None else None
    if geo is None:
        return nested_chains_python(x, level, cand, pos, src_cand, src_pos)
    x.check()
    return [
        (removed, need, ((2, kk, on), size))
        for kk, on, size, removed, need, _, _ in _native.chains(geo, cand, src_cand)
    ]


def nested_chains_python(
    x: Context, level: int, cand: list[int], pos: list[int], src_cand: list[int], src_pos: list[int]
) -> list[Hit]:
    """The nested rule of ``level`` (2: forcing chains) on the working grid: its eliminations.

    A forcing chain from a candidate k to its own negation, static on the
    working grid, removes k (assumed true) or the cell's other candidates
    (assumed false). It counts only if it uses a strong link the outer chain
    made (else it needs nothing the chain removed: SE drops it), and a chain
    k -> off(a) -> on(b) -> not k through the new link a=b exists exactly when
    on(a) and on(b) both turn k off (the graph is its own contrapositive:
    k -> off(a) iff on(a) -> off(k)); likewise both turn k on for a chain from
    k assumed false. So two breadth-first searches per new link find every
    such chain, the shortest through each link. Parents: the removed
    candidates behind each strong link of the chain; complexity: its nodes.
    """
    N = x.t.N
    links = _new_links(x, cand, pos, src_cand, src_pos)
    if not links:
        return []
    reach: dict[int, dict[Node, Node | None]] = {}
    for a, b, _ in links:
        for e in (a, b):
            if e not in reach:
                reach[e] = _static_reach(x, cand, pos, e)
    best: dict[tuple[int, bool], tuple[int, list[int], set[int]]] = {}
    for a, b, made in links:
        ra, rb = reach[a], reach[b]
        for node in ra.keys() & rb.keys():
            k, is_on = node
            if k in (a, b) and not is_on:
                continue
            if is_on and popcount(cand[k % N]) < 2:
                continue
            pa, pb = _path(ra, node), _path(rb, node)
            size = len(pa) + len(pb)
            key = (k, is_on)
            if key in best and best[key][0] <= size:
                continue
            need = set(made)
            for path in (pa, pb):
                for (p, p_on), (q, q_on) in zip(path, path[1:]):
                    if q_on and not p_on:
                        need |= _why(x, cand, pos, src_cand, src_pos, p, q)
            if need:
                d, c = divmod(k, N)
                removed = [e * N + c for e in digits_of(cand[c] & ~(1 << d))] if is_on else [k]
                best[key] = (size, removed, need)
    x.check()
    return [
        (removed, sorted(need), ((2, k, int(is_on)), size))
        for (k, is_on), (size, removed, need) in sorted(best.items())
    ]


def _tables(x: Context, cand: list[int], pos: list[int]) -> tuple[list[int], list[int]]:
    """The static implications of a grid as bitsets over candidate ids: (on -> off, off -> on) per id.

    The same links as :func:`_static_reach`, for breadth-first searches that
    only need what is reached (:func:`_reach_bits`).
    """
    t = x.t
    N, n = t.N, t.n
    allc = 0
    for d in range(n):
        allc |= pos[d] << (d * N)
    onoff = [0] * (n * N)
    offon = [0] * (n * N)
    peer_mask, cell_column, um = t.peer_mask, t.cell_column, t.unit_mask
    for c in range(N):
        m = cand[c]
        if not m:
            continue
        col = cell_column[c] & allc
        two = popcount(m) == 2
        for d in digits_of(m):
            k = d * N + c
            onoff[k] = ((peer_mask[c] & pos[d]) << (d * N)) | (col & ~(1 << k))
            if two:
                offon[k] = col & ~(1 << k)
    for d in range(n):
        p = pos[d]
        sh = d * N
        for u in t.se_order:
            pm = p & um[u]
            if popcount(pm) == 2:
                a, b = cells_of(pm)
                offon[sh + a] |= 1 << (sh + b)
                offon[sh + b] |= 1 << (sh + a)
    return onoff, offon


def _reach_bits(k: int, onoff: list[int], offon: list[int]) -> tuple[int, int]:
    """The ids made on and off by candidate ``k`` being true (static, :func:`_tables`): (on bits, off bits)."""
    on_vis = front = 1 << k
    off_vis = 0
    while front:
        nxt = 0
        while front:
            low = front & -front
            nxt |= onoff[low.bit_length() - 1]
            front ^= low
        nxt &= ~off_vis
        off_vis |= nxt
        front = 0
        while nxt:
            low = nxt & -nxt
            front |= offon[low.bit_length() - 1]
            nxt ^= low
        front &= ~on_vis
        on_vis |= front
    return on_vis, off_vis


def nested_multiple(x: Context, cand: list[int], pos: list[int], src_cand: list[int], src_pos: list[int]) -> list[Hit]:
    """Level 3's nested rule (:func:`nested_multiple_python`), in C when the extension is built.

    ``_nested.multiple`` runs the same searches on the cell masks and
    returns the same hits in the same order (tests/test_nested_native.py).
    """
    geo = _native_geometry(x.t) if _native is not None else None
    if geo is None:
        return nested_multiple_python(x, cand, pos, src_cand, src_pos)
    x.check()
    return [
        (removed, need, ((3, kind, where, kk, on), size))
        for kk, on, size, removed, need, kind, where in _native.multiple(geo, cand, src_cand)
    ]


def nested_multiple_python(
    x: Context, cand: list[int], pos: list[int], src_cand: list[int], src_pos: list[int]
) -> list[Hit]:
    """Level 3's nested rule: static cell and unit forcing chains on the working grid (SE's multiple chains).

    A cell with three candidates or more, or a digit's places in a unit (two
    or more), whose every case implies the same node (static implications on
    the working grid, :func:`_static_reach`) gives that node. Parents: the
    candidates the outer chain removed from the cell (or the digit's places
    removed from the unit) and those behind each strong link of the branches;
    a conclusion without any is dropped (it needs nothing the chain did).
    Complexity: the branches' nodes.
    """
    t = x.t
    N = t.N
    um = t.unit_mask
    onoff, offon = _tables(x, cand, pos)
    bits: dict[int, tuple[int, int]] = {}
    reach: dict[int, dict[Node, Node | None]] = {}

    def of(k: int) -> dict[Node, Node | None]:
        r = reach.get(k)
        if r is None:
            r = reach[k] = _static_reach(x, cand, pos, k)
        return r

    def bits_of_reach(k: int) -> tuple[int, int]:
        r = bits.get(k)
        if r is None:
            r = bits[k] = _reach_bits(k, onoff, offon)
        return r

    best: dict[Node, tuple[int, list[int], set[int], tuple[int, ...]]] = {}

    def conclude(kind: int, where: int, srcs: list[int], own: set[int]) -> None:
        on_all = off_all = -1
        for k in srcs:
            on_b, off_b = bits_of_reach(k)
            on_all &= on_b
            off_all &= off_b
            if not on_all and not off_all:
                return
        common = [(kk, True) for kk in cells_of(on_all)] + [(kk, False) for kk in cells_of(off_all)]
        if not common:
            return
        branches = [of(k) for k in srcs]
        for node in common:
            kk, is_on = node
            if kk in srcs:
                continue
            d, c = divmod(kk, N)
            if is_on:
                removed = [e * N + c for e in digits_of(cand[c] & ~(1 << d))]
            else:
                removed = [kk] if cand[c] >> d & 1 else []
            if not removed:
                continue
            paths = [_path(br, node) for br in branches]
            size = sum(len(p) for p in paths)
            if node in best and best[node][0] <= size:
                continue
            need = set(own)
            for path in paths:
                for (p, p_on), (q, q_on) in zip(path, path[1:]):
                    if q_on and not p_on:
                        need |= _why(x, cand, pos, src_cand, src_pos, p, q)
            if need:
                best[node] = (size, removed, need, (3, kind, where, kk, int(is_on)))

    for c in range(N):
        m = cand[c]
        if popcount(m) > 2:
            own = {e * N + c for e in digits_of(src_cand[c] & ~m)}
            conclude(0, c, [d * N + c for d in digits_of(m)], own)
        x.check()
    for d in range(t.n):
        for u in t.se_order:
            pm = pos[d] & um[u]
            if popcount(pm) >= 2:
                own = {d * N + g for g in cells_of(src_pos[d] & um[u] & ~pm)}
                conclude(1, u, [d * N + cc for cc in cells_of(pm)], own)
        x.check()
    return [(removed, sorted(need), (key, size)) for _, (size, removed, need, key) in sorted(best.items())]
