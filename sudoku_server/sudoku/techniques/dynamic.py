"""Nishio forcing chains (SE 7.5 + length) and dynamic forcing chains (8.5 + length).

SE's ``Chaining(multiple, dynamic)``: the implications of an assumption are
followed on a copy of the grid that loses every candidate turned off, so new
singles (in any unit of the geometry) appear along the way.

The search runs natively when the C extension ``_engine`` (``_engine.c``) is
built (:mod:`.native`): the same closures node for node and the same order of
conclusions, so the same steps (tests/test_engine_native.py runs both on
samples of puzzles and compares every step). This module's Python is the
oracle and the fallback.
"""

from __future__ import annotations

from typing import Any, cast

from sudoku_server.sudoku.grid import cell_name
from sudoku_server.sudoku.techniques import native
from sudoku_server.sudoku.techniques.board import Context, cells_of, digits_of, popcount
from sudoku_server.sudoku.techniques.graph import length_bonus
from sudoku_server.sudoku.techniques.step import Step

__all__ = ["find_dynamic_forcing_chains", "find_nishio"]


def _native_board(x: Context) -> object | None:
    """The native engine's view of this board (``_engine.Dyn``), or None (:func:`.native.engine`)."""
    eng = native.engine(x.t.N, x.t.n)
    if eng is None:
        return None
    return cast(object, eng.Dyn(x.cand, x.t.unit_mask, x.t.cell_units))


#: A node: (candidate id, is_on).
Node = tuple[int, bool]
#: What one assumption leads to: the nodes made on and off (id -> True), the
#: parents of each node, and the first contradiction (two nodes and the one
#: that produced it) or None.
Closure = tuple[dict[int, bool], dict[int, bool], dict[Node, tuple[Node, ...]], tuple[Node, Node, Node] | None]
#: The best Nishio contradiction of a digit: ((se, nodes, (cell, digit, kind)), id, assumed).
_Nishio = tuple[tuple[float, int, tuple[int, int, int]], int, bool]


def turned_off(k: int, N: int, cand: list[int], pos: list[int], x: Context, cell_links: bool = True) -> list[int]:
    """The candidates that candidate ``k`` (digit * N + cell) being on turns off, in SE's order.

    The cell's other candidates (unless ``cell_links`` is False: Nishio),
    then the digit in each unit of the cell. ``cand`` (a digit mask per
    cell) and ``pos`` (a cell mask per digit) are the working grid.
    """
    d, c = divmod(k, N)
    unit_mask = x.t.unit_mask
    out = []
    m = cand[c] & ~(1 << d) if cell_links else 0
    while m:
        low = m & -m
        out.append((low.bit_length() - 1) * N + c)
        m ^= low
    seen = {c}
    for u in x.t.cell_units[c]:
        pm = pos[d] & unit_mask[u]
        while pm:
            low = pm & -pm
            cc = low.bit_length() - 1
            pm ^= low
            if cc not in seen:
                seen.add(cc)
                out.append(d * N + cc)
    return out


def turned_on(
    k: int,
    N: int,
    cand: list[int],
    pos: list[int],
    base: tuple[list[int], list[int]],
    x: Context,
    cell_links: bool = True,
) -> list[tuple[int, tuple[Node, ...]]]:
    """The candidates that candidate ``k`` being off turns on, with their parents, in SE's order.

    The cell's last other candidate (unless ``cell_links`` is False), then
    the digit's last place in each unit of the cell. A parent list is
    ``(k, off)`` then the candidates the working grid (``cand``, ``pos``) has
    lost against ``base`` (the grid the chain started from) that made the
    single: SE's hidden parents. Call it before ``k`` leaves ``cand``/``pos``.
    """
    d, c = divmod(k, N)
    unit_mask = x.t.unit_mask
    out: list[tuple[int, tuple[Node, ...]]] = []
    m = cand[c]
    if cell_links and popcount(m) == 2 and m >> d & 1:
        od = (m & ~(1 << d)).bit_length() - 1
        hidden = tuple((dd * N + c, False) for dd in digits_of(base[0][c] & ~m))
        out.append((od * N + c, ((k, False), *hidden)))
    for u in x.t.cell_units[c]:
        pm = pos[d] & unit_mask[u] & ~(1 << c)
        if pm and not pm & (pm - 1) and pos[d] >> c & 1:
            cc = pm.bit_length() - 1
            gone = base[1][d] & unit_mask[u] & ~pos[d]
            hidden = tuple((d * N + g2, False) for g2 in cells_of(gone))
            out.append((d * N + cc, ((k, False), *hidden)))
    return out


def _dynamic_closure(x: Context, src: int, src_on: bool, nishio: bool = False) -> Closure:
    """Follow the implications of one assumption dynamically, in SE's order (see :data:`Closure`).

    With ``nishio`` only the assumed digit is followed (no cell links).
    ``x.check`` is called every 32 nodes followed (a few microseconds each).
    """
    t = x.t
    check = x.check
    ticks = 0
    N = t.N
    base = (x.cand, x.pos)
    cand = list(x.cand)
    # per digit bitboards of the working grid
    pos = list(x.pos)
    parents: dict[Node, tuple[Node, ...]] = {(src, src_on): ()}
    on: dict[int, bool] = {}
    off: dict[int, bool] = {}
    pend_on: list[int] = []
    pend_off: list[int] = []
    if src_on:
        on[src] = True
        pend_on.append(src)
    else:
        off[src] = True
        pend_off.append(src)
    io = jo = 0
    while True:
        ticks += 1
        if not ticks & 31:
            check()
        if io < len(pend_on):
            k = pend_on[io]
            io += 1
            for kk in turned_off(k, N, cand, pos, x, not nishio):
                if kk in on:
                    return on, off, parents, ((kk, True), (kk, False), (k, True))
                if kk not in off:
                    off[kk] = True
                    parents[(kk, False)] = ((k, True),)
                    pend_off.append(kk)
            continue
        if jo < len(pend_off):
            k = pend_off[jo]
            jo += 1
            made = turned_on(k, N, cand, pos, base, x, not nishio)
            # the candidate leaves the working grid
            d, c = divmod(k, N)
            if cand[c] >> d & 1:
                cand[c] &= ~(1 << d)
                pos[d] &= ~(1 << c)
            for kk, par in made:
                if kk in off:
                    parents.setdefault((kk, True), par)
                    return on, off, parents, ((kk, True), (kk, False), (k, False))
                if kk not in on:
                    on[kk] = True
                    parents[(kk, True)] = par
                    pend_on.append(kk)
            continue
        break
    return on, off, parents, None


def _ancestors(parents: dict[Node, tuple[Node, ...]], node: Node) -> int:
    """The node and its ancestors, counted (SE's complexity of a branch)."""
    seen = set()
    todo = [node]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        todo.extend(parents.get(p, ()))
    return len(seen)


def _nishio_of_digit(x: Context, d: int) -> _Nishio | None:
    """The best Nishio contradiction on digit d, or None."""
    N = x.t.N
    cand = x.cand
    best: _Nishio | None = None
    for c in cells_of(x.pos[d]):
        if popcount(cand[c]) < 2:
            continue
        k = d * N + c
        for typ, assumed in ((0, True), (1, False)):
            x.check()
            _, _, par, absurd = _dynamic_closure(x, k, assumed, nishio=True)
            if not absurd:
                continue
            a, b, _ = absurd
            nodes = _ancestors(par, a) + _ancestors(par, b)
            key = (round(7.5 + length_bonus(nodes - 2), 1), nodes, (c, d, typ))
            if best is None or key < best[0]:
                best = (key, k, assumed)
    return best


def _nishio_of_digit_native(x: Context, dyn: object, d: int) -> _Nishio | None:
    """:func:`_nishio_of_digit` by the native engine (the same result)."""
    x.check()
    r = dyn.nishio_digit(d)  # type: ignore[attr-defined]
    if r is None:
        return None
    nodes, c, typ = r
    return (round(7.5 + length_bonus(nodes - 2), 1), nodes, (c, d, typ)), d * x.t.N + c, typ == 0


def find_nishio(x: Context) -> Step | None:
    """Nishio forcing chains (SE 7.5 + length): one digit, assumed in a cell, leads to a contradiction.

    The assumption is followed on one digit only (the digit leaves the cell's
    units; a unit left with one place for it puts it there), dynamically; a
    contradiction removes the candidate, and one reached by assuming the
    candidate false places it.
    """
    t = x.t
    N, n = t.N, t.n
    best: _Nishio | None = None
    memo = x.b.memo
    dyn: object | None = None
    for d in range(n):
        # one digit's candidates decide it: remembered while they stay the same
        mk = ("nishio", d, x.pos[d])
        if mk in memo:
            hit = cast("_Nishio | None", memo[mk])
        else:
            if dyn is None:
                dyn = _native_board(x) or False
            hit = memo[mk] = _nishio_of_digit_native(x, dyn, d) if dyn else _nishio_of_digit(x, d)
        if hit is not None and (best is None or hit[0] < best[0]):
            best = hit
    if best is None:
        return None
    (se, nodes, _), k, assumed = best
    d, c = divmod(k, N)
    sym = x.sym
    focus = x.unit_name(t.box_unit[c])
    if assumed:
        text = (
            f" on {sym[d]}: {cell_name(c, n)}={sym[d]} leads to a contradiction, so {cell_name(c, n)} is not {sym[d]}"
        )
        return x.step(
            "Nishio forcing chains",
            se,
            eliminations=((c, d + 1),),
            cells=(c,),
            digits=(d + 1,),
            explanation=text,
            focus=focus,
            nodes=nodes,
        )
    text = (
        f" on {sym[d]}: {cell_name(c, n)} without {sym[d]} leads to a contradiction, so {cell_name(c, n)} is {sym[d]}"
    )
    return x.step(
        "Nishio forcing chains",
        se,
        placements=((c, d + 1),),
        cells=(c,),
        digits=(d + 1,),
        explanation=text,
        focus=focus,
        nodes=nodes,
    )


#: A dynamic conclusion: (kind, where, branches, target id, on). kind "absurd":
#: where = the assumed id, on = the assumption (the target is its negation);
#: "double": where = the id assumed both ways; "cell": where = the cell;
#: "unit": where = the unit id, branches = the ids of the digit's places.
_Payload = tuple[str, int, list[int], int, bool]


def find_dynamic_forcing_chains(x: Context) -> Step | None:
    """Dynamic forcing chains (SE 8.5 + length): contradictions, and cell or unit cases that agree.

    A candidate whose assumption (true, or false) leads to a contradiction
    takes the other value; otherwise, as in :func:`.forcing.find_forcing_chains`,
    a conclusion common to every case of a cell or of a unit's places holds.
    Implications are followed on a working grid that loses every candidate
    turned off, so hidden and naked singles that appear along the way count.
    """
    dyn = _native_board(x)
    if dyn is not None:
        return _dynamic_native(x, dyn)
    return _dynamic_python(x)


def _dynamic_native(x: Context, dyn: object) -> Step | None:
    """:func:`find_dynamic_forcing_chains` by the native engine.

    The engine scans cell by cell (``x.check`` between cells) and returns each
    cell's best conclusion in the Python search's order of offers, except
    that ties inside one set of common conclusions are left to this function,
    which walks them in the order of the Python sets (as :func:`_dynamic_python`
    iterates them), so the step is the same.
    """
    N = x.t.N
    best: tuple[tuple[int, int, int, int, int], tuple[Any, ...]] | None = None
    for c in range(N):
        x.check()
        r = dyn.scan_cell(c)  # type: ignore[attr-defined]
        if r is not None:
            key = (r[0], r[1], c, r[2], r[3])
            if best is None or key < best[0]:
                best = (key, r)
    if best is None:
        return None
    nodes, sortkey, _group, phase, kind, where, aux, target, on, ties = best[1]
    c = best[0][2]
    payload: _Payload
    if kind == 0:
        payload = ("absurd", where, [], target, bool(on))
    else:
        which = 1 if phase == 0 else 0
        if kind == 1:
            srcs = [(where, 1), (where, 0)]
            branches: list[int] = []
        elif kind == 2:
            branches = []
            srcs = [(d * N + c, 1) for d in digits_of(x.cand[c])]
        else:
            branches = [aux * N + cc for cc in cells_of(x.pos[aux] & x.t.unit_mask[where])]
            srcs = [(k, 1) for k in branches]
        # the same sets, built the same way, as the Python search: the first tie in their order
        common = set(dict.fromkeys(dyn.order(*srcs[0], which)))  # type: ignore[attr-defined]
        for k, o in srcs[1:]:
            common &= set(dict.fromkeys(dyn.order(k, o, which)))  # type: ignore[attr-defined]
        tied = set(ties)
        target = next(kk for kk in common if kk in tied)
        payload = (("double", "cell", "unit")[kind - 1], where, branches, target, phase == 0)
    se = round(8.5 + length_bonus(nodes - 2), 1)
    return _dynamic_step(x, (se, nodes, sortkey, 0), payload)


def _dynamic_python(x: Context) -> Step | None:
    """:func:`find_dynamic_forcing_chains` in Python (the oracle)."""
    t, cand, pos = x.t, x.cand, x.pos
    N = t.N
    cache: dict[tuple[int, bool], Closure] = {}

    def run(k: int, on_: bool) -> Closure:
        r = cache.get((k, on_))
        if r is None:
            x.check()
            r = cache[(k, on_)] = _dynamic_closure(x, k, on_)
        return r

    best: tuple[tuple[float, int, int, int], _Payload] | None = None
    order = 0

    def offer(nodes: int, sortkey: int, kind: str, where: int, branches: list[int], target: int, on: bool) -> None:
        # each conclusion follows its branches' ancestors (tens of microseconds): check every 8
        nonlocal best, order
        if not order & 7:
            x.check()
        se = round(8.5 + length_bonus(nodes - 2), 1)
        key = (se, nodes, sortkey, order)
        order += 1
        if best is None or key < best[0]:
            best = (key, (kind, where, branches, target, on))

    for c in range(N):
        m = cand[c]
        if not m or popcount(m) < 2:
            continue
        digs = digits_of(m)
        for d in digs:
            k = d * N + c
            on_, off_, par, absurd = run(k, True)
            if absurd:
                a, b, _ = absurd
                offer(_ancestors(par, a) + _ancestors(par, b), 7, "absurd", k, [], k, True)
            on2, off2, par2, absurd2 = run(k, False)
            if absurd2:
                a, b, _ = absurd2
                offer(_ancestors(par2, a) + _ancestors(par2, b), 7, "absurd", k, [], k, False)
            if not absurd and not absurd2 and len(digs) >= 3:
                # double forcing: true either way
                for kk in set(on_) & set(on2):
                    if kk != k and popcount(cand[kk % N]) >= 2:
                        nodes = _ancestors(par, (kk, True)) + _ancestors(par2, (kk, True))
                        offer(nodes, 1, "double", k, [], kk, True)
                for kk in set(off_) & set(off2):
                    if kk != k:
                        nodes = _ancestors(par, (kk, False)) + _ancestors(par2, (kk, False))
                        offer(nodes, 1, "double", k, [], kk, False)
        # cell forcing
        runs = [run(d * N + c, True) for d in digs]
        if all(r[3] is None for r in runs):
            ons = set(runs[0][0])
            offs = set(runs[0][1])
            for r in runs[1:]:
                ons &= set(r[0])
                offs &= set(r[1])
            for kk in ons:
                if popcount(cand[kk % N]) >= 2:
                    nodes = sum(_ancestors(r[2], (kk, True)) for r in runs)
                    offer(nodes, 5, "cell", c, [], kk, True)
            for kk in offs:
                nodes = sum(_ancestors(r[2], (kk, False)) for r in runs)
                offer(nodes, 5, "cell", c, [], kk, False)
        # unit forcing, from the first place of each digit
        for d in digs:
            for u in t.cell_units[c]:
                pm = pos[d] & t.unit_mask[u]
                if popcount(pm) < 2 or (pm & -pm).bit_length() - 1 != c:
                    continue
                ks = [d * N + cc for cc in cells_of(pm)]
                runs = [run(k, True) for k in ks]
                if any(r[3] is not None for r in runs):
                    continue
                ons = set(runs[0][0])
                offs = set(runs[0][1])
                for r in runs[1:]:
                    ons &= set(r[0])
                    offs &= set(r[1])
                for kk in ons:
                    if popcount(cand[kk % N]) >= 2:
                        nodes = sum(_ancestors(r[2], (kk, True)) for r in runs)
                        offer(nodes, 6, "unit", u, ks, kk, True)
                for kk in offs:
                    nodes = sum(_ancestors(r[2], (kk, False)) for r in runs)
                    offer(nodes, 6, "unit", u, ks, kk, False)
    if best is None:
        return None
    return _dynamic_step(x, best[0], best[1])


def _dynamic_step(x: Context, key: tuple[float, int, int, int], payload: _Payload) -> Step:
    """The step of the best dynamic conclusion."""
    t = x.t
    N, n = t.N, t.n
    se, nodes = key[0], key[1]
    sym = x.sym
    kind, where, ks, kk, tgt_on = payload
    if kind == "absurd":
        d, c = divmod(where, N)
        if tgt_on:
            text = f": {cell_name(c, n)}={sym[d]} leads to a contradiction, so {cell_name(c, n)} is not {sym[d]}"
            return x.step(
                "dynamic forcing chains",
                se,
                eliminations=((c, d + 1),),
                cells=(c,),
                digits=(d + 1,),
                explanation=text,
                focus=x.unit_name(t.box_unit[c]),
                nodes=nodes,
            )
        text = f": {cell_name(c, n)} without {sym[d]} leads to a contradiction, so {cell_name(c, n)} is {sym[d]}"
        return x.step(
            "dynamic forcing chains",
            se,
            placements=((c, d + 1),),
            cells=(c,),
            digits=(d + 1,),
            explanation=text,
            focus=x.unit_name(t.box_unit[c]),
            nodes=nodes,
        )
    branches_cells: tuple[int, ...]
    if kind == "double":
        cases = f"{cell_name(where % N, n)}={sym[where // N]} or not"
        branches_cells = (where % N,)
        focus = x.unit_name(t.box_unit[where % N])
    elif kind == "cell":
        cases = "each candidate of " + cell_name(where, n)
        branches_cells = (where,)
        focus = x.unit_name(t.box_unit[where])
    else:
        cases = f"each place of {sym[ks[0] // N]} in {x.unit_name(where)}"
        branches_cells = tuple(k % N for k in ks)
        focus = x.unit_name(where)
    d, c = divmod(kk, N)
    concl = f"{cell_name(c, n)}={sym[d]}" if tgt_on else f"{cell_name(c, n)} is not {sym[d]}"
    text = f": {cases} leads to {concl}"
    cells = tuple(sorted(set(branches_cells) | {c}))
    if tgt_on:
        return x.step(
            "dynamic forcing chains",
            se,
            placements=((c, d + 1),),
            cells=cells,
            digits=(d + 1,),
            explanation=text,
            focus=focus,
            nodes=nodes,
        )
    return x.step(
        "dynamic forcing chains",
        se,
        eliminations=((c, d + 1),),
        cells=cells,
        digits=(d + 1,),
        explanation=text,
        focus=focus,
        nodes=nodes,
    )
