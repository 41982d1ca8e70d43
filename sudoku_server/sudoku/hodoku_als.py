"""HoDoKu's ALS-XY-Chain as its rating path takes it (5900, score 340).

HoDoKu 2.2.0's ``AlsSolver.getAlsXYChain`` (with ``getAlsXYChainInt``, ``getAlsXYChainRecursive``,
``checkCandidatesToDelete``, ``AlsComparator``; ``SudokuStepFinder.getAlses``, ``doGetRestrictedCommons``;
``RestrictedCommon.checkRC``; read for the rules, no code copied) searches its ALS chains so:

- its list of ALS (bivalue cells too) in its order: units rows, columns, boxes; in a unit the cell tuples
  in lexicographic order; an ALS met again later is left out;
- restricted commons only *forward* (``setRcOnlyForward(true)``): from an ALS to one later in the list,
  the two not overlapping; so a chain's ALS come in list order, none twice;
- a chain starts with one common of its first link (each of two in turn), each next link carries a
  common other than the digit the link before it carried (``checkRC``; a link carrying both its commons
  counts its first alone), and from 3 links on, every digit Z of both the first and the last ALS but the
  first link's and the last link's carried commons goes from the cells (outside the two) seeing all of
  Z's places in both;
- one step per set of eliminations; the steps sorted by ``AlsComparator``: most eliminations, then the
  smallest weighted sum of the eliminated candidates (sorted by digit, then cell), and the first taken.

The search here is over states (ALS, digits carried into it), the list order making the links a DAG; the
set of chains is the same as HoDoKu's depth-first walk (its 50-link cap is never reached on 9x9).
"""

from __future__ import annotations

from sudoku_server.sudoku.techniques.board import Context, cells_of
from sudoku_server.sudoku.techniques.every_als import almost_locked_sets, carried_on

__all__ = ["als_xy_chain"]


def _weight(pairs: list[tuple[int, int]]) -> int:
    """HoDoKu's ``SolutionStep.getIndexSumme`` over candidates sorted by digit, then cell."""
    total, offset = 0, 1
    for c, d in sorted(pairs, key=lambda p: (p[1], p[0])):
        total += c * offset + d
        offset += 80
    return total


def als_xy_chain(x: Context) -> list[tuple[int, int]] | None:
    """The eliminations (``(cell, digit)``, cells 0..80, digits 1..9) of the ALS-XY-Chain HoDoKu takes at
    this state, or None."""
    a = almost_locked_sets(x)
    rank = a.rank
    links: dict[int, list[tuple[int, int, int]]] = {}  # forward links: ALS -> (later ALS, common, common or -1)
    for (i, j), commons in a.rcc.items():
        if a.masks[i] & a.masks[j]:
            continue
        c1, c2 = commons[0], commons[-1] if len(commons) > 1 else -1
        if rank[i] < rank[j]:
            links.setdefault(i, []).append((j, c1, c2))
        else:
            links.setdefault(j, []).append((i, c1, c2))
    if not links:
        return None
    index: dict[tuple[int, int], int] = {}
    states: list[tuple[int, int]] = []
    todo: list[int] = []

    def state(key: tuple[int, int]) -> int:
        k = index.get(key)
        if k is None:
            k = index[key] = len(states)
            states.append(key)
            todo.append(k)
        return k

    starts: dict[int, dict[int, list[int]]] = {}  # first ALS -> first carried digit mask -> states after it
    for s in sorted(links, key=rank.__getitem__):
        for j, c1, c2 in links[s]:
            for m0 in (1 << c1, 1 << c2) if c2 >= 0 else (1 << c1,):
                starts.setdefault(s, {}).setdefault(m0, []).append(state((j, m0)))
    succ: dict[int, list[int]] = {}
    while todo:
        k = todo.pop()
        i, m = states[k]
        nxt = []
        for j, d1, d2 in links.get(i, ()):
            m2 = carried_on(m, d1, d2)
            if m2:
                nxt.append(state((j, m2)))
        succ[k] = nxt
    x.check()
    # per state, the states one or more links on (links go to later ALS: a DAG)
    plus = [0] * len(states)
    for k in sorted(range(len(states)), key=lambda k: -rank[states[k][0]]):
        r = 0
        for w in succ[k]:
            r |= 1 << w | plus[w]
        plus[k] = r
    of_als: dict[int, int] = {}
    for k, (i, _m) in enumerate(states):
        of_als[i] = of_als.get(i, 0) | 1 << k
    reach = a.reach(x)
    seeing: list[dict[int, int]] = [{} for _ in range(9)]  # per digit and cell: states of ALS clearing it
    for i, ks in of_als.items():
        for z in range(9):
            for c in cells_of(reach[i][z]):
                seeing[z][c] = seeing[z].get(c, 0) | ks
    lacking = [0] * 9  # per digit, the states whose last link did not carry it
    for k, (_i, m) in enumerate(states):
        for z in range(9):
            if not m >> z & 1:
                lacking[z] |= 1 << k
    best: tuple[int, int] | None = None
    taken: list[tuple[int, int]] | None = None
    done: set[tuple[int, int, int]] = set()
    for s, firsts in starts.items():
        x.check()
        ends_of = []
        for z in range(9):
            ends = 0
            for c in cells_of(reach[s][z]):
                ends |= seeing[z].get(c, 0)
            ends_of.append(ends & lacking[z])
        if not any(ends_of):
            continue
        for m0, vs in firsts.items():
            found = 0
            for v in vs:
                for w in succ[v]:
                    found |= plus[w]
            zs_of: dict[int, int] = {}
            for z in range(9):
                hits = found & ends_of[z] if not m0 >> z & 1 else 0
                while hits:
                    low = hits & -hits
                    hits ^= low
                    t = low.bit_length() - 1
                    zs_of[t] = zs_of.get(t, 0) | 1 << z
            for t, zs in zs_of.items():
                e = states[t][0]
                if (s, e, zs) in done:
                    continue
                done.add((s, e, zs))
                gone = [(c, z + 1) for z in range(9) if zs >> z & 1 for c in cells_of(reach[s][z] & reach[e][z])]
                key = (-len(gone), _weight(gone))
                if best is None or key < best:
                    best, taken = key, gone
    return taken
