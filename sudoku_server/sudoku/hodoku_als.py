"""HoDoKu's ALS-XZ, ALS-XY-Wing and ALS-XY-Chain as its rating path takes them (5700, 5800, 5900).

ALS-XZ and ALS-XY-Wing (``AlsSolver.getAlsXZInt``, ``checkDoublyLinkedAls``, ``getAlsXYWingInt``, with
``onlyOne``): the first step in the order of HoDoKu's list of restricted commons (below: forward, ALS not
overlapping, by the first ALS, then the second, in list order). ALS-XZ: a common's ALS A and B; every
digit of both but that common goes from the cells (outside A and B) seeing all its places in both; with
two commons, each call leaves out one of them, so both go too, and every other digit of A goes from the
cells outside B seeing all its places in A (and B's likewise). ALS-XY-Wing: two commons, the second later
in the list, sharing one ALS C (not both one and the same single digit), A and B their other ALS, not
overlapping; every digit of A and B but the commons' digits goes from the cells seeing all its places in
both.

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
from sudoku_server.sudoku.techniques.every_als import (
    almost_locked_sets,
    chain_ends,
    chain_links,
    chain_states,
    cleared,
)

__all__ = ["als_xy_chain", "als_xy_wing", "als_xz"]


def _weight(pairs: list[tuple[int, int]]) -> int:
    """HoDoKu's ``SolutionStep.getIndexSumme`` over candidates sorted by digit, then cell."""
    total, offset = 0, 1
    for c, d in sorted(pairs, key=lambda p: (p[1], p[0])):
        total += c * offset + d
        offset += 80
    return total


def _commons(x: Context) -> list[tuple[int, int, int, int]]:
    """HoDoKu's list of restricted commons: (ALS, later ALS, common, second common or -1), ALS as indices into
    :func:`.every_als.almost_locked_sets`, in HoDoKu's order."""
    a = almost_locked_sets(x)
    rank = a.rank
    out = []
    for (i, j), commons in a.rcc.items():
        if a.masks[i] & a.masks[j]:
            continue
        lo, hi = (i, j) if rank[i] < rank[j] else (j, i)
        out.append((lo, hi, commons[0], commons[-1] if len(commons) > 1 else -1))
    out.sort(key=lambda r: (rank[r[0]], rank[r[1]]))
    return out


def als_xz(x: Context) -> list[tuple[int, int]] | None:
    """The eliminations of the ALS-XZ HoDoKu takes at this state, or None."""
    a = almost_locked_sets(x)
    reach = a.reach(x)
    for i, j, c1, c2 in _commons(x):
        gone: set[tuple[int, int]] = set()
        common = a.digits[i] & a.digits[j]
        for d in range(9):
            if common >> d & 1 and (d != c1 or c2 >= 0):
                gone.update((c, d + 1) for c in cells_of(reach[i][d] & reach[j][d]))
        if c2 >= 0:
            for k, other in ((i, j), (j, i)):
                for d in range(9):
                    if a.digits[k] >> d & 1 and d not in (c1, c2):
                        gone.update((c, d + 1) for c in cells_of(reach[k][d] & ~a.masks[other]))
        if gone:
            return sorted(gone)
    return None


def als_xy_wing(x: Context) -> list[tuple[int, int]] | None:
    """The eliminations of the ALS-XY-Wing HoDoKu takes at this state, or None."""
    a = almost_locked_sets(x)
    reach = a.reach(x)
    rcs = _commons(x)
    by_als: dict[int, list[int]] = {}
    for k, (i, j, _c1, _c2) in enumerate(rcs):
        by_als.setdefault(i, []).append(k)
        by_als.setdefault(j, []).append(k)
    for k1, (i1, j1, c11, c12) in enumerate(rcs):
        later = sorted({k2 for k2 in by_als[i1] + by_als[j1] if k2 > k1})
        for k2 in later:
            i2, j2, c21, c22 = rcs[k2]
            if c12 < 0 and c22 < 0 and c11 == c21:
                continue
            pivot = i1 if i1 in (i2, j2) else j1
            p = j1 if pivot == i1 else i1
            q = j2 if pivot == i2 else i2
            if a.masks[p] & a.masks[q]:
                continue
            common = a.digits[p] & a.digits[q]
            for d in (c11, c12, c21, c22):
                if d >= 0:
                    common &= ~(1 << d)
            gone = [(c, d + 1) for d in range(9) if common >> d & 1 for c in cells_of(reach[p][d] & reach[q][d])]
            if gone:
                return gone
    return None


def als_xy_chain(x: Context) -> list[tuple[int, int]] | None:
    """The eliminations (``(cell, digit)``, cells 0..80, digits 1..9) of the ALS-XY-Chain HoDoKu takes at
    this state, or None."""
    a = almost_locked_sets(x)
    rank = a.rank
    links = chain_links(a, rank)  # forward links only: HoDoKu's rating search
    if not links:
        return None
    states, starts, succ = chain_states(links, sorted(links, key=rank.__getitem__))
    x.check()
    # per state, the states one or more links on (links go to later ALS: a DAG)
    plus = [0] * len(states)
    for k in sorted(range(len(states)), key=lambda k: -rank[states[k][0]]):
        r = 0
        for w in succ[k]:
            r |= 1 << w | plus[w]
        plus[k] = r
    reach = a.reach(x)
    ends_of = chain_ends(states, reach)
    best: tuple[int, int] | None = None
    taken: list[tuple[int, int]] | None = None
    done: set[tuple[int, int, int]] = set()
    for s, firsts in starts.items():
        x.check()
        ends = ends_of(s)
        if not any(ends):
            continue
        for m0, vs in firsts.items():
            found = 0
            for v in vs:
                for w in succ[v]:
                    found |= plus[w]
            for t, zs in cleared(found, ends, m0).items():
                e = states[t][0]
                if (s, e, zs) in done:
                    continue
                done.add((s, e, zs))
                gone = [(c, z + 1) for z in range(9) if zs >> z & 1 for c in cells_of(reach[s][z] & reach[e][z])]
                key = (-len(gone), _weight(gone))
                if best is None or key < best:
                    best, taken = key, gone
    return taken
