"""The top of the Sudoku Explainer scale: dynamic forcing chains (+) and nested forcing chains (9.0 to 11+).

Sudoku Explainer's ``Chaining(multiple, dynamic, level)`` past level 0 (SE
1.2.1 by Nicolas Juillerat, as kept by Sukaku Explainer,
github.com/1to9only/SukakuExplainer, ``diuf/sudoku/solver/rules/chaining``:
``Chaining.java`` -- ``doChaining``, ``getAdvancedPotentials``,
``getDifficulty`` -- and ``ChainingHint.java`` -- ``getComplexity``,
``getNestedComplexity``, ``getLengthDifficulty``; read, not copied). A
dynamic forcing chain follows an assumption on a working copy of the grid
that loses every candidate turned off (:mod:`.dynamic`); at level ``L`` the
chain, whenever it runs out of single-candidate implications, also lets
*rules* act on the working grid, the first of them (in this order) that
finds anything the chain made possible:

=====  =================================================  ==========  ==========
level  rules inside the chain                             SE name     SE rating
=====  =================================================  ==========  ==========
1      pointing / claiming, hidden pair, naked pair,      Dynamic     9.0 +
       X-Wing                                             Forcing     length
                                                          Chains (+)
2      + forcing chains (X- and XY-chains from one        Dynamic FC  9.5 +
       candidate to its own negation)                     (+ Forcing  length
                                                          Chains)
3      + cell and unit forcing chains (static)            (+ Multiple 10.0 +
                                                          FC)         length
4      + dynamic forcing chains                           (+ Dynamic  10.5 +
                                                          FC)         length
=====  =================================================  ==========  ==========

Here level 1 is the technique ``dynamic forcing chains plus`` and levels 2
and 3 are ``nested forcing chains`` (the step's rating says which level);
level 4 (a whole dynamic forcing-chain search at every standstill of some
500 chains, in place of levels 2 and 3's rules, as SE has it) is
:mod:`.nested_level4`, the registry's ``nested forcing chains level 4``,
whose steps are ``nested forcing chains`` too, last in the path. All are in the solving
path, after dynamic forcing chains and before the search step (9x9 only),
when the C extension is there (else named finders only: 4-60 s a puzzle):
the rules a chain runs at a standstill -- the level-1 rules, level 2's
nested chains and level 3's static cell and unit forcing chains -- run in C
(``techniques/_nested.c`` through :mod:`.nested_rules`, whose Python
versions are the oracle), which takes a level-3 search from 5-10 s to a
fraction of a second; RATE on the forum's 11+ puzzles takes 1-4 s.
A rule's eliminations become "off" nodes of the chain whose parents are the
candidates the chain removed that the rule needed (SE's ``getRuleParents``:
for a pointing, the digit's places removed from the box outside the line;
for a pair, the other candidates removed from its cells or the digits'
other places removed from the unit; for a nested chain, the candidates
removed that made its singles). A hint is rated as SE does: base
``8.5 + 0.5 * level`` plus :func:`.graph.length_bonus` of its complexity
minus 2, the complexity being the number of distinct nodes behind each of
its conclusions, plus, once each, the complexity of every nested chain
among them. The step taken is the one of lowest rating, then lowest
complexity, then SE's kind order (double forcing, cell, unit, contradiction).

Differences from SE, on purpose: the nested forcing chains of level 2 are
the forcing chains from a candidate to its negation (SE's level-2 rule also
contains X-, Y- and XY-cycles, whose eliminations those chains mostly reach
too), found through the strong links the outer chain made
(:func:`.nested_rules.nested_chains`); the static branches of level 3 are followed to
the end even past a contradiction (SE stops a branch there); a rule's
elimination of a candidate the chain holds true is taken as a
contradiction at once. Every step is still checked against the solution
(:func:`..techniques.solve_steps`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sudoku_server.sudoku.grid import cell_name
from sudoku_server.sudoku.techniques.board import Context, cells_of, digits_of, popcount
from sudoku_server.sudoku.techniques.dynamic import turned_off, turned_on
from sudoku_server.sudoku.techniques.graph import length_bonus
from sudoku_server.sudoku.techniques.nested_rules import Nest, Node, rules
from sudoku_server.sudoku.techniques.step import Step

__all__ = ["NESTED_NAMES", "find_dynamic_plus", "find_nested_forcing_chains"]

#: What a nested chain adds in words, per level (the rules it may use inside).
NESTED_NAMES = {
    1: "pointing, claiming, pairs and X-Wings",
    2: "forcing chains",
    3: "cell and unit forcing chains",
    4: "dynamic forcing chains",
}


@dataclass
class Closure:
    """What one assumption leads to on the working grid.

    Attributes:
      on, off: candidate ids made true / false (insertion ordered).
      parents: each node's parents (the assumption has none).
      nests: the nested chain behind a node a nested rule turned off.
      absurd: the first contradiction (the node, its negation) or None.
      cand, pos: the working grid at the end (cell masks, per-digit bitboards).
    """

    on: dict[int, bool] = field(default_factory=dict)
    off: dict[int, bool] = field(default_factory=dict)
    parents: dict[Node, tuple[Node, ...]] = field(default_factory=dict)
    nests: dict[Node, Nest] = field(default_factory=dict)
    absurd: tuple[Node, Node] | None = None
    cand: list[int] = field(default_factory=list)
    pos: list[int] = field(default_factory=list)


def _closure(
    x: Context, src: int, src_on: bool, level: int, base: tuple[list[int], list[int]] | None = None
) -> Closure:
    """Follow one assumption dynamically, in SE's order, with the rules of ``level`` at each standstill.

    ``base`` is the grid the chain starts from (cell masks, per-digit
    bitboards; default the board's): a nested chain runs on its outer
    chain's working grid, with hidden parents counted against that grid.
    """
    t = x.t
    check = x.check
    N = t.N
    src_cand, src_pos = base if base is not None else (x.cand, x.pos)
    cand = list(src_cand)
    pos = list(src_pos)
    r = Closure(cand=cand, pos=pos)
    on, off, parents = r.on, r.off, r.parents
    parents[(src, src_on)] = ()
    pend_on: list[int] = []
    pend_off: list[int] = []
    if src_on:
        on[src] = True
        pend_on.append(src)
    else:
        off[src] = True
        pend_off.append(src)
    io = jo = 0
    ticks = 0
    while True:
        ticks += 1
        if not ticks & 31:
            check()
        if io < len(pend_on):
            k = pend_on[io]
            io += 1
            for kk in turned_off(k, N, cand, pos, x):
                if kk in on:
                    parents.setdefault((kk, False), ((k, True),))
                    r.absurd = ((kk, True), (kk, False))
                    return r
                if kk not in off:
                    off[kk] = True
                    parents[(kk, False)] = ((k, True),)
                    pend_off.append(kk)
            continue
        if jo < len(pend_off):
            k = pend_off[jo]
            jo += 1
            made = turned_on(k, N, cand, pos, (src_cand, src_pos), x)
            d, c = divmod(k, N)
            if cand[c] >> d & 1:
                cand[c] &= ~(1 << d)
                pos[d] &= ~(1 << c)
            for kk, par in made:
                if kk in off:
                    parents.setdefault((kk, True), par)
                    r.absurd = ((kk, True), (kk, False))
                    return r
                if kk not in on:
                    on[kk] = True
                    parents[(kk, True)] = par
                    pend_on.append(kk)
            continue
        if not level:
            break
        added = False
        for hits in rules(x, level, cand, pos, src_cand, src_pos):
            for removed, needs, nest in hits:
                par = tuple((kk, False) for kk in needs if kk in off)
                for kk in removed:
                    node = (kk, False)
                    if kk in on:
                        parents.setdefault(node, par)
                        if nest is not None:
                            r.nests.setdefault(node, nest)
                        r.absurd = ((kk, True), node)
                        return r
                    if kk not in off:
                        off[kk] = True
                        parents[node] = par
                        if nest is not None:
                            r.nests[node] = nest
                        pend_off.append(kk)
                        added = True
            break  # SE: the first rule that finds anything, alone
        if not added:
            break
    return r


def _weight(r: Closure, nodes: list[Node], seen_nests: set[tuple[int, ...]]) -> int:
    """SE's complexity of the branches ending at ``nodes``: distinct ancestors, plus each new nested chain's."""
    seen: set[Node] = set()
    todo = list(nodes)
    extra = 0
    parents, nests = r.parents, r.nests
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        nest = nests.get(p)
        if nest is not None and nest[0] not in seen_nests:
            seen_nests.add(nest[0])
            extra += nest[1]
        todo.extend(parents.get(p, ()))
    return len(seen) + extra


def _ancestors(r: Closure, node: Node, seen_nests: set[tuple[int, ...]]) -> int:
    return _weight(r, [node], seen_nests)


#: The best conclusion: (se, complexity, kind order, order) and (kind, where, branches, target id, on).
_Best = tuple[tuple[float, int, int, int], tuple[str, int, list[int], int, bool]]


def _search(x: Context, level: int) -> tuple[_Best, int] | None:
    """SE's multiple dynamic chaining at ``level``: the best conclusion, or None."""
    t, cand, pos = x.t, x.cand, x.pos
    N = t.N
    cache: dict[tuple[int, bool], Closure] = {}
    base = 8.5 + 0.5 * level

    def run(k: int, on_: bool) -> Closure:
        r = cache.get((k, on_))
        if r is None:
            x.check()
            r = cache[(k, on_)] = _closure(x, k, on_, level)
        return r

    best: _Best | None = None
    order = 0

    def offer(cx: int, sortkey: int, kind: str, where: int, branches: list[int], target: int, on: bool) -> None:
        nonlocal best, order
        se = round(base + length_bonus(cx - 2), 1)
        key = (se, cx, sortkey, order)
        order += 1
        if best is None or key < best[0]:
            best = (key, (kind, where, branches, target, on))

    for c in range(N):
        m = cand[c]
        if popcount(m) < 2:
            continue
        digs = digits_of(m)
        for d in digs:
            k = d * N + c
            r1 = run(k, True)
            if r1.absurd:
                a, b = r1.absurd
                sn: set[tuple[int, ...]] = set()
                offer(_ancestors(r1, a, sn) + _ancestors(r1, b, sn), 7, "absurd", k, [], k, True)
            r2 = run(k, False)
            if r2.absurd:
                a, b = r2.absurd
                sn = set()
                offer(_ancestors(r2, a, sn) + _ancestors(r2, b, sn), 7, "absurd", k, [], k, False)
            if not r1.absurd and not r2.absurd and len(digs) >= 3:
                for kk in r1.on.keys() & r2.on.keys():
                    if kk != k and popcount(cand[kk % N]) >= 2:
                        sn = set()
                        cx = _ancestors(r1, (kk, True), sn) + _ancestors(r2, (kk, True), sn)
                        offer(cx, 1, "double", k, [], kk, True)
                for kk in r1.off.keys() & r2.off.keys():
                    if kk != k:
                        sn = set()
                        cx = _ancestors(r1, (kk, False), sn) + _ancestors(r2, (kk, False), sn)
                        offer(cx, 1, "double", k, [], kk, False)
        runs = [run(d * N + c, True) for d in digs]
        if all(r.absurd is None for r in runs):
            ons = set(runs[0].on)
            offs = set(runs[0].off)
            for r in runs[1:]:
                ons &= r.on.keys()
                offs &= r.off.keys()
            for kk in ons:
                if popcount(cand[kk % N]) >= 2:
                    sn = set()
                    offer(sum(_ancestors(r, (kk, True), sn) for r in runs), 5, "cell", c, [], kk, True)
            for kk in offs:
                sn = set()
                offer(sum(_ancestors(r, (kk, False), sn) for r in runs), 5, "cell", c, [], kk, False)
        for d in digs:
            for u in t.cell_units[c]:
                pm = pos[d] & t.unit_mask[u]
                if popcount(pm) < 2 or (pm & -pm).bit_length() - 1 != c:
                    continue
                ks = [d * N + cc for cc in cells_of(pm)]
                runs = [run(kk, True) for kk in ks]
                if any(r.absurd is not None for r in runs):
                    continue
                ons = set(runs[0].on)
                offs = set(runs[0].off)
                for r in runs[1:]:
                    ons &= r.on.keys()
                    offs &= r.off.keys()
                for kk in ons:
                    if popcount(cand[kk % N]) >= 2:
                        sn = set()
                        offer(sum(_ancestors(r, (kk, True), sn) for r in runs), 6, "unit", u, ks, kk, True)
                for kk in offs:
                    sn = set()
                    offer(sum(_ancestors(r, (kk, False), sn) for r in runs), 6, "unit", u, ks, kk, False)
    if best is None:
        return None
    return best, level


def find_dynamic_plus(x: Context) -> Step | None:
    """Dynamic forcing chains (+) (SE 9.0 + length): dynamic chains helped by pointing, claiming, pairs, X-Wings.

    As :func:`.dynamic.find_dynamic_forcing_chains`, but whenever a chain
    runs out of singles, a pointing or claiming, a hidden or naked pair or
    an X-Wing that the chain's removals made appear on the working grid
    removes candidates too, and the chain goes on.
    """
    found = _search(x, 1)
    return None if found is None else _step(x, *found)


def find_nested_forcing_chains(x: Context, levels: tuple[int, ...] = (2, 3)) -> Step | None:
    """Nested forcing chains (SE 9.5 / 10.0 + length): dynamic chains with forcing chains inside (levels 2, 3).

    As :func:`find_dynamic_plus`, and when none of its rules applies at a
    standstill: at level 2 a forcing chain (X- or XY-chain from a candidate
    to its own negation) on the working grid that uses a strong link the
    chain made (:func:`.nested_rules.nested_chains`); at level 3 a static cell or unit
    forcing chain on the working grid (:func:`.nested_rules.nested_multiple`). The first
    level (in ``levels``' order) that finds a conclusion gives the step.
    """
    for level in levels:
        found = _search(x, level)
        if found is not None:
            return _step(x, *found)
    return None


def _step(x: Context, best: _Best, level: int) -> Step:
    """The step of the best conclusion at ``level``."""
    t = x.t
    N, n = t.N, t.n
    (se, cx, _, _), (kind, where, ks, kk, tgt_on) = best
    sym = x.sym
    name = "dynamic forcing chains plus" if level == 1 else "nested forcing chains"
    helped = f" (its singles helped by {NESTED_NAMES[level]} on the candidates left)"
    if kind == "absurd":
        d, c = divmod(where, N)
        focus = x.unit_name(t.box_unit[c])
        if tgt_on:
            text = (
                f": {cell_name(c, n)}={sym[d]} leads to a contradiction{helped}, so {cell_name(c, n)} is not {sym[d]}"
            )
            return x.step(
                name,
                se,
                eliminations=((c, d + 1),),
                cells=(c,),
                digits=(d + 1,),
                explanation=text,
                focus=focus,
                nodes=cx,
            )
        text = (
            f": {cell_name(c, n)} without {sym[d]} leads to a contradiction{helped}, so {cell_name(c, n)} is {sym[d]}"
        )
        return x.step(
            name, se, placements=((c, d + 1),), cells=(c,), digits=(d + 1,), explanation=text, focus=focus, nodes=cx
        )
    if kind == "double":
        cases = f"{cell_name(where % N, n)}={sym[where // N]} or not"
        branch_cells: tuple[int, ...] = (where % N,)
        focus = x.unit_name(t.box_unit[where % N])
    elif kind == "cell":
        cases = "each candidate of " + cell_name(where, n)
        branch_cells = (where,)
        focus = x.unit_name(t.box_unit[where])
    else:
        cases = f"each place of {sym[ks[0] // N]} in {x.unit_name(where)}"
        branch_cells = tuple(k % N for k in ks)
        focus = x.unit_name(where)
    d, c = divmod(kk, N)
    concl = f"{cell_name(c, n)}={sym[d]}" if tgt_on else f"{cell_name(c, n)} is not {sym[d]}"
    text = f": {cases} leads to {concl}{helped}"
    cells = tuple(sorted(set(branch_cells) | {c}))
    if tgt_on:
        return x.step(
            name, se, placements=((c, d + 1),), cells=cells, digits=(d + 1,), explanation=text, focus=focus, nodes=cx
        )
    return x.step(
        name, se, eliminations=((c, d + 1),), cells=cells, digits=(d + 1,), explanation=text, focus=focus, nodes=cx
    )
