"""Static chains, as Sudoku Explainer rates them: X- and XY-cycles, X-chains, XY-chains, AICs, nice loops.

X-cycle / XY-cycle (continuous nice loops) 6.5 + length, X-chain (forcing
chain on one digit) 6.6 + length, chains mixing cells and digits 7.0 +
length (:func:`.graph.length_bonus`). The chains walk the implication graph
of :mod:`.graph`, built from the geometry's units and peers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from sudoku_server.sudoku.grid import cell_name
from sudoku_server.sudoku.techniques.board import Context, cells_of, digits_of, elims, popcount
from sudoku_server.sudoku.techniques.graph import (
    Graph,
    Path,
    bfs_layers,
    eureka,
    graph_of,
    layers_from,
    length_bonus,
    meet,
    meet_path,
    native_links,
    path_to,
    single_digit_text,
)
from sudoku_server.sudoku.techniques.step import Step

__all__ = ["find_chain", "find_x_chain", "find_xy_chain"]

#: How chains compare: (se, nodes, mode's sort key, (cell, digit, kind)), SE's order.
Key = tuple[float, int, int, tuple[int, int, int]]


@dataclass(frozen=True)
class _Cycle:
    """A continuous loop through on(k): its nodes and eliminations ((cell, 0-based digit))."""

    mode: str
    k: int
    loop: Path
    removed: list[tuple[int, int]]


@dataclass(frozen=True)
class _Forcing:
    """A chain from k (on or off) to its negation, as the layers and meeting point of :func:`.graph.meet`."""

    mode: str
    k: int
    start_on: bool
    nodes: int
    layers: list[int]
    hit: tuple[int, int, int, int]


_Best = tuple[Key, "_Cycle | _Forcing"]


def _cycle_eliminations(x: Context, g: Graph, path: Path) -> list[tuple[int, int]]:
    """SE's cycle rule: a candidate outside the loop's cells seeing an on node and an off node of its digit."""
    t = x.t
    N = g.N
    cells = 0
    for k, _ in path:
        cells |= 1 << (k % N)
    fwd: dict[int, int] = {}
    back: dict[int, int] = {}
    for k, on in path:
        d, c = divmod(k, N)
        tgt = fwd if on else back
        tgt[d] = tgt.get(d, 0) | t.peer_mask[c]
    out: list[tuple[int, int]] = []
    for d, f in fwd.items():
        v = f & back.get(d, 0) & x.pos[d] & ~cells
        out.extend((c, d) for c in cells_of(v))
    return out


def _find_cycle(
    x: Context, g: Graph, src: int, onoff: list[int], offon: list[int], limit: int
) -> tuple[int, Path, list[tuple[int, int]]] | None:
    """The shortest worthwhile continuous loop through src on: (nodes, path, eliminations) or None."""
    layers, _, _ = bfs_layers(src, True, onoff, offon, limit)
    closers = offon[src]  # off(t) -> on(src) iff off(src) -> on(t)
    if not closers:
        return None
    # on layers at even indexes; the loop closes with on(q) -> off(t) -> on(src)
    for i in range(2, len(layers), 2):
        _, s = layers[i]
        nodes = i + 2  # nodes of the loop: path to q (i + 1) plus off(t)
        if nodes > limit:
            break
        tm = closers
        while tm:
            low = tm & -tm
            tt = low.bit_length() - 1
            tm ^= low
            qs = onoff[tt] & s
            while qs:
                lq = qs & -qs
                q = lq.bit_length() - 1
                qs ^= lq
                path = path_to(layers[: i + 1], True, q, onoff, offon)
                if not path or any(k == tt and not on for k, on in path):
                    continue
                loop = path + [(tt, False)]
                removed = _cycle_eliminations(x, g, loop)
                if removed:
                    return nodes, loop, removed
    return None


def _chain_se(mode: str, kind: str, nodes: int) -> float:
    if mode == "xy":
        base = 7.0
    elif kind == "cycle":
        base = 6.5
    else:
        base = 6.6  # forcing X-chain
    return round(base + length_bonus(nodes - 2), 1)


_SORT_KEY = {"x": 2, "y": 3, "xy": 4}


_MAX_NODES: dict[tuple[str, str, tuple[float, int, int]], int] = {}


def _max_nodes(mode: str, kind: str, best: Key | None) -> int:
    """The most nodes a chain of this mode may have to beat ``best`` (a key)."""
    if best is None:
        return 64
    ck = (mode, kind, best[:3])
    hit = _MAX_NODES.get(ck)
    if hit is not None:
        return hit
    _MAX_NODES[ck] = limit = _max_nodes_of(mode, kind, best)
    return limit


def _max_nodes_of(mode: str, kind: str, best: Key) -> int:
    limit = 0
    for nodes in range(4, 65):
        key = (_chain_se(mode, kind, nodes), nodes, _SORT_KEY[mode])
        if key < best[:3]:
            limit = nodes
        else:
            break
    return limit


class _Meets:
    """``meet(layers_from(k, start_on, onoff, offon, depth))`` of one table pair, natively when it can.

    The layers themselves are only made (in Python) for a chain kept as the best so far; the Python
    tables (:meth:`.graph.Graph.tables`) are only read when there is no native engine or to make them.
    """

    __slots__ = ("g", "links", "name", "x")

    def __init__(self, x: Context, name: str, g: Graph) -> None:
        self.x, self.name, self.g = x, name, g
        self.links: object | None = None  # built on the first search

    def _links(self) -> object:
        links = self.links
        if links is None:
            links = self.links = native_links(self.x, self.name) or False
        return links

    def meet(self, k: int, start_on: bool, depth: int) -> tuple[int, int, int, int] | None:
        links = self._links()
        if links:
            return cast("tuple[int, int, int, int] | None", links.meet_from(k, start_on, depth))  # type: ignore[attr-defined]
        return meet(layers_from(k, start_on, *self.g.tables(self.name), depth))

    def meet_function(self) -> Callable[[int, bool, int], tuple[int, int, int, int] | None]:
        """:meth:`meet` as a function (the native one itself when there is one: no Python call per source)."""
        links = self._links()
        if links:
            return cast("Callable[[int, bool, int], tuple[int, int, int, int] | None]", links.meet_from)  # type: ignore[attr-defined]
        return self.meet

    def cycle(self, g: Graph, k: int, limit: int) -> tuple[int, Path, list[tuple[int, int]]] | None:
        """:func:`_find_cycle` from on(k)."""
        links = self._links()
        if links:
            return cast("tuple[int, Path, list[tuple[int, int]]] | None", links.cycle(k, limit))  # type: ignore[attr-defined]
        return _find_cycle(self.x, g, k, *self.g.tables(self.name), limit)

    def layers(self, k: int, start_on: bool, depth: int) -> list[int]:
        return layers_from(k, start_on, *self.g.tables(self.name), depth)


def _depth_for(nodes: int) -> int:
    return (nodes + 1) // 2


def find_chain(
    x: Context,
    modes: Sequence[str] = ("x", "y", "xy"),
    cycles: Sequence[str] = ("x", "y"),
    forcing: bool = True,
) -> Step | None:
    """The easiest static chain, as Sudoku Explainer rates them (X- and XY-cycles, X-chains, AICs).

    Searched from every candidate: loops through it, and forcing chains from
    it being true to it being false (it is eliminated) or from false to true
    (it is placed). Single-digit chains first (6.5/6.6 + length), then loops
    of bivalue cells (6.5 + length), then chains mixing cells and digits
    (7.0 + length); the step is the one of lowest rating, then fewest nodes,
    then SE's order (cell, digit; loops before chains). Each search is
    bidirectional (:func:`.graph.meet`) and deepened pass by pass, one SE
    length bucket at a time, so no search goes deeper than the best chain needs.
    """
    g = graph_of(x)
    check = x.check
    best: _Best | None = None
    if "x" in modes:
        # single-digit chains depend on one digit's candidates: searched per
        # digit, remembered while that digit's candidates stay the same
        memo = x.b.memo
        meets_x = _Meets(x, "x", g)
        for d in range(x.n):
            mk = ("xchain", "x" in cycles, forcing, d, x.pos[d])
            if mk in memo:
                hit = cast("_Best | None", memo[mk])
            else:
                hit = memo[mk] = _x_chains_of_digit(x, g, d, "x" in cycles, forcing, meets_x)
            if hit is not None and (best is None or hit[0] < best[0]):
                best = hit
    for mode in modes:
        if mode == "x":
            continue
        if best is not None and _chain_se(mode, "chain", 4) > best[0][0]:
            continue
        meets = _Meets(x, mode, g)
        meet_from = meets.meet_function()
        sources = g.bivalue_ids if mode == "y" else g.ids
        links = native_links(x, mode)
        offon = g.tables(mode)[1] if links is None else []
        for cap in (8, 12, 18, 26, 64) if mode == "xy" else (64,):
            if links is not None:
                # the loop below, natively: one call per pass (``check`` between passes)
                check()
                best = _native_pass(links, g, mode, sources, cap, mode in cycles, forcing and mode != "y", best)
                if best is not None:
                    break
                continue
            for k in sources:
                check()
                bk = best[0] if best else None
                lim_c = min(cap, _max_nodes(mode, "cycle", bk)) if mode in cycles and offon[k] else 0
                lim_f = min(cap, _max_nodes(mode, "chain", bk)) if forcing and mode != "y" else 0
                if lim_c < 4 and lim_f < 4:
                    continue
                # loops through on(k), SE's way: a breadth-first tree from on(k)
                # closed by a weak link to off(t), t a strong partner of k
                if lim_c >= 4:
                    cyc = meets.cycle(g, k, lim_c)
                    if cyc:
                        nodes, loop, removed = cyc
                        key = (_chain_se(mode, "cycle", nodes), nodes, _SORT_KEY[mode], (k % g.N, k // g.N, 0))
                        if best is None or key < best[0]:
                            best = (key, _Cycle(mode, k, loop, removed))
                if lim_f >= 4:
                    depth = _depth_for(lim_f)
                    for start_on in (True, False):
                        met = meet_from(k, start_on, depth)
                        if met and met[0] + 1 <= lim_f:
                            nodes = met[0] + 1
                            typ = 1 if start_on else 2
                            key = (_chain_se(mode, "chain", nodes), nodes, _SORT_KEY[mode], (k % g.N, k // g.N, typ))
                            if best is None or key < best[0]:
                                layers = meets.layers(k, start_on, depth)
                                best = (key, _Forcing(mode, k, start_on, nodes, layers, met))
            if best is not None:
                break
    if best is None:
        return None
    return _chain_step(x, g, best)


_SE_TENTHS: dict[tuple[str, str], list[int]] = {}


def _se_tenths(mode: str, kind: str) -> list[int]:
    """:func:`_chain_se` in tenths for 0..64 nodes (what the native pass compares)."""
    hit = _SE_TENTHS.get((mode, kind))
    if hit is None:
        hit = _SE_TENTHS[(mode, kind)] = [round(_chain_se(mode, kind, nodes) * 10) for nodes in range(65)]
    return hit


def _native_pass(
    links: object,
    g: Graph,
    mode: str,
    sources: list[int],
    cap: int,
    cycles: bool,
    forcing: bool,
    best: _Best | None,
    refresh: bool = False,
) -> _Best | None:
    """One pass of :func:`find_chain`'s loop over ``sources`` by the native engine: the best so far after it."""
    bk = None
    if best is not None:
        key = best[0]
        bk = (round(key[0] * 10), key[1], key[2], *key[3])
    r = links.chain_pass(  # type: ignore[attr-defined]
        sources,
        cap,
        _SORT_KEY[mode],
        _se_tenths(mode, "cycle"),
        _se_tenths(mode, "chain"),
        cycles,
        forcing,
        bk,
        refresh,
    )
    if r is None:
        return best
    _, nodes, cell, digit, typ, info = r
    k = digit * g.N + cell
    if mode == "x":
        onoff, offon = g.onoff_x, g.offon_x
    elif mode == "y":
        onoff, offon = g.onoff_xy, g.offon_y
    else:
        onoff, offon = g.onoff_xy, g.offon_xy
    if typ == 0:
        loop, removed = info
        return (_chain_se(mode, "cycle", nodes), nodes, _SORT_KEY[mode], (cell, digit, 0)), _Cycle(
            mode, k, loop, removed
        )
    start_on = typ == 1
    # the layers up to the meeting point (a breadth-first search's layers do not depend on its depth)
    layers = layers_from(k, start_on, onoff, offon, info[2])
    return (_chain_se(mode, "chain", nodes), nodes, _SORT_KEY[mode], (cell, digit, typ)), _Forcing(
        mode, k, start_on, nodes, layers, info
    )


def _x_chains_of_digit(
    x: Context, g: Graph, d: int, cycles: bool, forcing: bool, meets: _Meets | None = None
) -> _Best | None:
    """The best single-digit loop or forcing chain on digit d, or None (see :func:`find_chain`)."""
    N = g.N
    best: _Best | None = None
    p = x.pos[d]
    links = native_links(x, "x")
    if links is not None:
        # the loop below, natively (the chain limit taken after each cycle search, as there)
        return _native_pass(links, g, "x", [d * N + c for c in cells_of(p)], 64, cycles, forcing, None, refresh=True)
    offon = g.offon_x
    for c in cells_of(p):
        k = d * N + c
        bk = best[0] if best else None
        lim_c = _max_nodes("x", "cycle", bk) if cycles and offon[k] else 0
        if lim_c >= 4:
            if meets is None:
                meets = _Meets(x, "x", g)
            cyc = meets.cycle(g, k, lim_c)
            if cyc:
                nodes, loop, removed = cyc
                key = (_chain_se("x", "cycle", nodes), nodes, _SORT_KEY["x"], (c, d, 0))
                if best is None or key < best[0]:
                    best = (key, _Cycle("x", k, loop, removed))
        if not forcing:
            continue
        lim_f = _max_nodes("x", "chain", best[0] if best else None)
        if lim_f < 4:
            continue
        depth = _depth_for(lim_f)
        if meets is None:
            meets = _Meets(x, "x", g)
        for typ, start_on in ((1, True), (2, False)):
            met = meets.meet(k, start_on, depth)
            if met and met[0] + 1 <= lim_f:
                nodes = met[0] + 1
                key = (_chain_se("x", "chain", nodes), nodes, _SORT_KEY["x"], (c, d, typ))
                if best is None or key < best[0]:
                    layers = meets.layers(k, start_on, depth)
                    best = (key, _Forcing("x", k, start_on, nodes, layers, met))
    return best


def _chain_step(x: Context, g: Graph, best: _Best) -> Step:
    key, info = best
    se, nodes = key[0], key[1]
    N, n, sym = g.N, x.n, x.sym
    if isinstance(info, _Cycle):
        mode, k, loop = info.mode, info.k, info.loop
        if mode == "x":
            name = "X-cycle"
            text = f" on {sym[k // N]}: " + single_digit_text(loop + [(k, True)], N, n)
        elif mode == "y":
            name = "XY-cycle"
            text = ": " + eureka(loop + [(k, True)], N, n, sym)
        else:
            name = "nice loop"
            text = ": " + eureka(loop + [(k, True)], N, n, sym)
        return x.step(
            name,
            se,
            eliminations=elims(info.removed),
            cells=tuple(sorted({kk % N for kk, _ in loop})),
            digits=tuple(sorted({kk // N + 1 for kk, _ in loop})),
            explanation=text,
            focus=x.unit_name(x.t.box_unit[k % N]),
            nodes=nodes,
        )
    mode, k, start_on = info.mode, info.k, info.start_on
    onoff, offon = (g.onoff_x, g.offon_x) if mode == "x" else (g.onoff_xy, g.offon_xy)
    _, a, b, v = info.hit
    path = meet_path(info.layers, start_on, a, b, v, onoff, offon)
    d, c = divmod(k, N)
    cells = tuple(sorted({kk % N for kk, _ in path}))
    digits = tuple(sorted({kk // N + 1 for kk, _ in path}))
    focus = x.unit_name(x.t.box_unit[c])
    if start_on:
        inner = path[1:-1]  # off(a1) on(b1) ... on(bk): the AIC a1=b1-...=bk
        name = "X-chain" if mode == "x" else _name_xy_chain(x, g, inner)
        if name == "X-chain":
            text = f" on {sym[d]}: " + single_digit_text(inner, N, n)
        else:
            text = ": " + eureka(inner, N, n, sym)
        text += f", so {cell_name(c, n)} is not {sym[d]}"
        return x.step(
            name, se, eliminations=((c, d + 1),), cells=cells, digits=digits, explanation=text, focus=focus, nodes=nodes
        )
    # off(src) ... on(src): src = b0 - a1 = ... = src, a discontinuous nice loop
    if mode == "x" or len({kk // N for kk, _ in path}) == 1:
        name = "X-chain"
        text = f" on {sym[d]}: " + single_digit_text(path, N, n)
    else:
        name = "nice loop"
        text = ": " + eureka(path, N, n, sym)
    text += f", so {cell_name(c, n)} is {sym[d]}"
    return x.step(
        name, se, placements=((c, d + 1),), cells=cells, digits=digits, explanation=text, focus=focus, nodes=nodes
    )


def _name_xy_chain(x: Context, g: Graph, inner: Path) -> str:
    """XY-chain (every strong link inside a bivalue cell), W-Wing, or AIC."""
    N = g.N
    strong = [(inner[i][0], inner[i + 1][0]) for i in range(0, len(inner) - 1, 2)]
    if all(a % N == b % N for a, b in strong):
        return "XY-chain"
    if len(strong) == 3:
        (a1, b1), (a2, b2), (a3, b3) = strong
        if (
            a1 % N == b1 % N
            and a3 % N == b3 % N
            and a2 % N != b2 % N
            and a2 // N == b2 // N == b1 // N == a3 // N
            and x.cand[a1 % N] == x.cand[b3 % N]
        ):
            return "W-Wing"
    digits = {k // N for k, _ in inner}
    if len(digits) == 1:
        return "X-chain"
    return "AIC"


def find_x_chain(x: Context) -> Step | None:
    """The shortest single-digit chain or loop (the X mode of :func:`find_chain`)."""
    return find_chain(x, modes=("x",))


def find_xy_chain(x: Context) -> Step | None:
    """A chain of bivalue cells: its ends hold z, so z leaves the cells seeing both ends."""
    t, cand, pos = x.t, x.cand, x.pos
    N, n = t.N, t.n
    bival = [c for c in range(N) if cand[c] and popcount(cand[c]) == 2]
    bmask = sum(1 << c for c in bival)
    best: tuple[int, int, tuple[int, ...]] | None = None
    for start in bival:
        x.check()
        for zd in digits_of(cand[start]):
            # state: (cell, digit that cell must be if the chain start is not z)
            first = (cand[start] & ~(1 << zd)).bit_length() - 1
            seen = {(start, first)}
            front: list[tuple[int, int, tuple[int, ...]]] = [(start, first, (start,))]
            while front and (best is None or len(front[0][2]) < len(best[2])):
                nxt = []
                for c, dd, path in front:
                    for o in cells_of(t.peer_mask[c] & bmask):
                        if not cand[o] >> dd & 1 or o in path:
                            continue
                        od = (cand[o] & ~(1 << dd)).bit_length() - 1
                        if (o, od) in seen:
                            continue
                        seen.add((o, od))
                        np_ = path + (o,)
                        if od == zd:
                            victims = pos[zd] & t.peer_mask[start] & t.peer_mask[o] & ~sum(1 << q for q in np_)
                            if victims and (best is None or len(np_) < len(best[2])):
                                best = (zd, victims, np_)
                        nxt.append((o, od, np_))
                front = nxt
    if best is None:
        return None
    zd, victims, cells = best
    nodes = 2 * len(cells) + 2
    # (z)c0=(a)c0-(a)c1=(b)c1-...=(z)cm
    chain: Path = []
    dd = zd
    for c in cells:
        od = (cand[c] & ~(1 << dd)).bit_length() - 1
        chain.append((dd * N + c, False))
        chain.append((od * N + c, True))
        dd = od
    text = eureka(chain, N, n, x.sym)
    return x.step(
        "XY-chain",
        round(7.0 + length_bonus(nodes - 2), 1),
        eliminations=elims((c, zd) for c in cells_of(victims)),
        cells=cells,
        digits=tuple(sorted({d + 1 for c in cells for d in digits_of(cand[c])})),
        explanation=f": {text}",
        focus=x.unit_name(t.box_unit[cells[0]]),
        nodes=nodes,
    )
