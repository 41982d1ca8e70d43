"""Cell and unit forcing chains (SE's multiple forcing chains, static level; SE 8.0 + length).

Every case of a cell (each candidate) or of a unit (each place of a digit;
any unit of the geometry) is followed through the implication graph of
:mod:`.graph`; a conclusion common to every case holds.
"""

from __future__ import annotations

from sudoku_server.sudoku.grid import cell_name
from sudoku_server.sudoku.techniques.board import Context, cells_of, digits_of, popcount
from sudoku_server.sudoku.techniques.graph import Layers, bfs_layers, graph_of, length_bonus, native_links
from sudoku_server.sudoku.techniques.step import Step

__all__ = ["find_forcing_chains"]


def _depth_of(layers: Layers, target_on: bool, target: int) -> int:
    """Nodes on the path from the layers' source to the target (SE's ancestor count); 0 if absent."""
    for i, (is_on, s) in enumerate(layers):
        if is_on == target_on and s >> target & 1:
            return i + 1
    return 0


def find_forcing_chains(x: Context) -> Step | None:
    """Cell and unit forcing chains (SE 8.0 + length): every case leads to the same conclusion.

    For a cell with three or more candidates, each candidate in turn is
    assumed true and followed by the implications of :func:`.chains.find_chain`;
    a candidate that every case makes true (false) is true (false). The same
    for the places of a digit in a unit. The rating counts the nodes of all
    the branches.
    """
    g = graph_of(x)
    t, cand, pos = x.t, x.cand, x.pos
    N = g.N
    links = native_links(x, "xy")
    if links is not None:
        found = _forcing_native(x, links)
        if found is None:
            return None
        return _forcing_step(x, *found)
    onoff, offon = g.onoff_xy, g.offon_xy
    closures: dict[int, tuple[Layers, int, int]] = {}

    def closure(k: int) -> tuple[Layers, int, int]:
        r = closures.get(k)
        if r is None:
            x.check()
            r = closures[k] = bfs_layers(k, True, onoff, offon, stop_absurd=True)
        return r

    # ((se, nodes, sort key, order), "cell" or "unit", the cell or unit id, branch ids, target id, target on)
    best: tuple[tuple[float, int, int, int], str, int, list[int], int, bool] | None = None
    order = 0

    def consider(branches: list[int], sortkey: int, what: str, unit: int) -> None:
        nonlocal best, order
        ons = offs = -1  # every node, until the first branch
        for k in branches:
            _, von, voff = closure(k)
            ons &= von
            offs &= voff
        for target_on, targets in ((True, ons), (False, offs)):
            while targets:
                low = targets & -targets
                tk = low.bit_length() - 1
                targets ^= low
                tc = tk % N
                if target_on and popcount(cand[tc]) < 2:
                    continue
                nodes = sum(_depth_of(closure(k)[0], target_on, tk) for k in branches)
                se = round(8.0 + length_bonus(nodes - 2), 1)
                key = (se, nodes, sortkey, order)
                order += 1
                if best is None or key < best[0]:
                    best = (key, what, unit, branches, tk, target_on)

    for c in range(N):
        m = cand[c]
        if not m or popcount(m) < 3:
            continue
        branches = [d * N + c for d in digits_of(m)]
        consider(branches, 5, "cell", c)
        for d in digits_of(m):
            for u in t.cell_units[c]:
                pm = pos[d] & t.unit_mask[u]
                if popcount(pm) >= 2 and (pm & -pm).bit_length() - 1 == c:
                    consider([d * N + cc for cc in cells_of(pm)], 6, "unit", u)
    if best is None:
        return None
    key, what, unit, branches, tk, target_on = best
    return _forcing_step(x, key[0], key[1], what, unit, branches, tk, target_on)


def _forcing_native(x: Context, links: object) -> tuple[float, int, str, int, list[int], int, bool] | None:
    """The search of :func:`find_forcing_chains` by the native engine (the same conclusion; ``x.check`` per cell)."""
    t = x.t
    cand_bytes = b"".join([m.to_bytes(2, "little") for m in x.cand])
    best: tuple[tuple[int, int], tuple[int, int, int, int, int, int, list[int]]] | None = None
    units = t.units
    for c in range(t.N):
        m = x.cand[c]
        if not m or popcount(m) < 3:
            continue
        x.check()
        r = links.forcing_cell(c, cand_bytes, [(u, units[u]) for u in t.cell_units[c]])  # type: ignore[attr-defined]
        if r is not None and (best is None or (r[0], r[1]) < best[0]):
            best = ((r[0], r[1]), r)
    if best is None:
        return None
    nodes, _, what, where, tk, on, branches = best[1]
    se = round(8.0 + length_bonus(nodes - 2), 1)
    return se, nodes, ("cell", "unit")[what], where, branches, tk, bool(on)


def _forcing_step(
    x: Context, se: float, nodes: int, what: str, unit: int, branches: list[int], tk: int, target_on: bool
) -> Step:
    """The step of a cell or unit forcing chain conclusion."""
    t = x.t
    N, n = t.N, t.n
    d, c = divmod(tk, N)
    sym = x.sym
    cases = ", ".join(f"{cell_name(k % N, n)}={sym[k // N]}" for k in branches)
    concl = f"{cell_name(c, n)}={sym[d]}" if target_on else f"{cell_name(c, n)} is not {sym[d]}"
    if what == "cell":
        name = "cell forcing chains"
        text = f": each candidate of {cell_name(unit, n)} ({cases}) leads to {concl}"
        focus = x.unit_name(t.box_unit[unit])
    else:
        name = "unit forcing chains"
        text = f": each place of {sym[branches[0] // N]} in {x.unit_name(unit)} ({cases}) leads to {concl}"
        focus = x.unit_name(unit)
    cells = tuple(sorted({k % N for k in branches} | {c}))
    if target_on:
        return x.step(
            name, se, placements=((c, d + 1),), cells=cells, digits=(d + 1,), explanation=text, focus=focus, nodes=nodes
        )
    return x.step(
        name, se, eliminations=((c, d + 1),), cells=cells, digits=(d + 1,), explanation=text, focus=focus, nodes=nodes
    )
