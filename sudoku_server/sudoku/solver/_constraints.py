"""The pure-Python core's constraints that are not units: nonconsecutive pairs, killer cages, pencilmarks.

A variant geometry (:mod:`..variants`) is units plus peers plus
``constraints``. The bitboard engine (:mod:`._bitboard`) already handles the
units, and eliminates a placed digit from every peer, so the peer rules
(anti-knight, anti-king: ``PairRule`` with ``differ``) and the "digits in a
cage do not repeat" half of a killer cage need nothing more here: their pairs
are extra peers of the geometry. This module adds the rest, on the same
bitboard state (bit ``cell * (n + 1) + d - 1`` while digit d is a candidate
of cell):

* **pencilmarks** (:class:`Candidates`): the root state keeps only each
  cell's candidates (``Engine.root``); nothing to do during the search.
* **nonconsecutive** pairs: a digit e leaves a cell's orthogonal neighbour
  when every candidate of the cell is e - 1 or e + 1 (for a placed digit d:
  d - 1 and d + 1 leave its neighbours). Computed for all cells at once, one
  carry test per digit, one shift per direction of the pairs.
* **killer cages** with sums: for each cage, the sets of distinct digits of
  its size making its sum (precomputed per (size, sum), :func:`combinations`)
  that fit its cells (every placed digit in the set, the set inside the
  union of the cells' candidates, every cell keeping a candidate of the
  set). Each cell keeps the digits of those sets; a digit in all of them
  with one place left in the cage goes there; no set left is a
  contradiction. The rule of 45 adds sums of the same kind: the cells of
  a unit outside the cages inside it (innies), the cells outside a unit of
  the cages that cover it (outies, when they are peers of each other).

Each rule removes only candidates no solution can use, so the answers of
the search (the row-major-first solution) do not change; they are applied
after the engine's own propagation, until nothing changes
(:func:`constrain` wraps ``Engine.propagate``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from sudoku_server.sudoku.variants import Cages, Candidates, PairRule

if TYPE_CHECKING:
    from sudoku_server.sudoku.check import Check
    from sudoku_server.sudoku.geometry import Geometry
    from sudoku_server.sudoku.solver._bitboard import Engine

__all__ = ["combinations", "constrain"]

_Prune = Callable[[int], int]


@functools.cache
def combinations(size: int, cells: int, total: int) -> tuple[int, ...]:
    """Every set of ``cells`` distinct digits of 1..size summing to ``total``, as masks (bit ``d - 1``).

    Ascending by mask; empty when no set makes the sum.
    """
    out: list[int] = []

    def walk(top: int, left: int, rest: int, mask: int) -> None:
        # choose ``left`` digits below or at ``top`` summing to ``rest``
        if left == 0:
            if rest == 0:
                out.append(mask)
            return
        low = left * (left + 1) // 2  # the smallest sum of ``left`` digits
        for d in range(top, left - 1, -1):
            high = left * (2 * d - left + 1) // 2  # the largest sum with d as the top digit
            if high < rest:
                return
            if rest - d >= low - left:  # the others (below d) can still make rest - d
                walk(d - 1, left - 1, rest - d, mask | (1 << (d - 1)))

    walk(size, cells, total, 0)
    return tuple(sorted(out))


def _nonconsecutive(engine: Engine, pairs: tuple[tuple[int, int], ...]) -> _Prune:
    """The nonconsecutive rule on ``pairs`` as a state -> state function (0 on a contradiction)."""
    n, w = engine.n, engine.width
    full, spare, ones = engine.full, engine.spare, engine.cell_ones
    digits = []  # (candidates other than e - 1 and e + 1 in every cell, shift from the spare bit to bit e - 1)
    for e in range(1, n + 1):
        near = 0
        if e >= 2:
            near |= 1 << (e - 2)
        if e < n:
            near |= 1 << e
        digits.append((full ^ (ones * near), n - (e - 1)))
    by_delta: dict[int, tuple[int, int]] = {}
    for a, b in pairs:
        first, second = by_delta.get(b - a, (0, 0))
        by_delta[b - a] = (first | engine.digit_mask << (a * w), second | engine.digit_mask << (b * w))
    directions = tuple((delta * w, first, second) for delta, (first, second) in sorted(by_delta.items()))

    def prune(s: int) -> int:
        z = 0
        for keep, shift in digits:
            z |= (spare ^ (((s & keep) + full) & spare)) >> shift
        if not z:
            return s
        e = 0
        for bits, first, second in directions:
            e |= ((z & first) << bits) | ((z & second) >> bits)
        return s ^ (s & e)

    return prune


def _sums(geo: Geometry, cages: Cages) -> list[tuple[tuple[int, ...], int]]:
    """The cages as (cells, sum), then the sums the rule of 45 implies (innies and outies of each unit).

    A unit's digits sum to ``n(n+1)/2``: its cells outside the cages that lie
    inside it sum to the rest (innies); the cells outside it of the cages
    that cover it sum to the excess (outies), kept when they are all peers
    of each other (so their digits differ, as a cage's do).
    """
    sums = [(cage.cells, cage.total) for cage in cages.cages]
    known = {frozenset(cells) for cells, _total in sums}
    whole = geo.size * (geo.size + 1) // 2
    for unit in geo.units:
        inside = set(unit)
        touching = {cages.cage_of[c] for c in unit if cages.cage_of[c] >= 0}
        within = [k for k in touching if inside.issuperset(cages.cages[k].cells)]
        rest = inside.difference(*(cages.cages[k].cells for k in within))
        implied = [(rest, whole - sum(cages.cages[k].total for k in within))]
        if all(cages.cage_of[c] >= 0 for c in unit):
            covered = set().union(*(cages.cages[k].cells for k in touching))
            implied.append((covered - inside, sum(cages.cages[k].total for k in touching) - whole))
        for cells, total in implied:
            ordered = tuple(sorted(cells))
            if not 0 < len(ordered) < geo.size or frozenset(ordered) in known:
                continue
            if all(b in geo.peers[a] for i, a in enumerate(ordered) for b in ordered[i + 1 :]):
                known.add(frozenset(ordered))
                sums.append((ordered, total))
    return sums


def _cages(engine: Engine, cages: Cages) -> _Prune:
    """The sums of the killer cages (and the rule of 45's) as a state -> state function (0 on a contradiction)."""
    n, w, mask = engine.n, engine.width, engine.digit_mask
    plan = tuple(
        (tuple(c * w for c in cells), combinations(n, len(cells), total)) for cells, total in _sums(engine.geo, cages)
    )

    def prune(s: int) -> int:
        for shifts, sets in plan:
            masks = [(s >> at) & mask for at in shifts]
            union = placed = 0
            for m in masks:
                if not m & (m - 1):
                    if not m:
                        return 0
                    placed |= m
                union |= m
            allowed, required = 0, mask
            for digits in sets:
                if digits & placed == placed and digits | union == union:
                    for m in masks:
                        if not m & digits:
                            break
                    else:
                        allowed |= digits
                        required &= digits
            if not allowed:
                return 0
            if union & ~allowed:
                for k, at in enumerate(shifts):
                    m = masks[k]
                    if m & ~allowed:
                        m &= allowed
                        s ^= (masks[k] ^ m) << at
                        masks[k] = m
            hidden = required & ~placed
            while hidden:
                d = hidden & -hidden
                hidden ^= d
                places = [k for k, m in enumerate(masks) if m & d]
                if not places:
                    return 0
                if len(places) == 1:
                    k = places[0]
                    if masks[k] != d:
                        s ^= (masks[k] ^ d) << shifts[k]
                        masks[k] = d
        return s

    return prune


def _state_of(engine: Engine, masks: tuple[int, ...]) -> int:
    """The bitboard of per-cell candidate masks."""
    s, w = 0, engine.width
    for cell, m in enumerate(masks):
        s |= (m & engine.digit_mask) << (cell * w)
    return s


def constrain(engine: Engine) -> None:
    """Teach ``engine`` its geometry's constraints (module docstring); classic engines are left alone.

    Sets ``engine.root`` for pencilmarks and wraps ``engine.propagate`` with
    the rules that need more than peers.

    Raises:
      ValueError: a constraint this core does not know, or a peer rule or
        cage whose pairs are not peers of the geometry (it would be ignored).
    """
    geo = engine.geo
    prunes: list[_Prune] = []
    for constraint in geo.constraints:
        if isinstance(constraint, PairRule):
            if constraint.differ:
                pairs = constraint.pairs
                if not all(b in geo.peers[a] for a, b in pairs):
                    raise ValueError(f"the pairs of {constraint.rule} are not peers of geometry {geo.key!r}")
            else:
                prunes.append(_nonconsecutive(engine, constraint.pairs))
        elif isinstance(constraint, Cages):
            for cage in constraint.cages:
                cells = cage.cells
                if not all(b in geo.peers[a] for i, a in enumerate(cells) for b in cells[i + 1 :]):
                    raise ValueError(f"the cells of a cage are not peers of geometry {geo.key!r}")
            prunes.append(_cages(engine, constraint))
        elif isinstance(constraint, Candidates):
            engine.root &= _state_of(engine, constraint.masks)
        else:
            raise ValueError(f"the solver does not know the constraint {constraint!r} of geometry {geo.key!r}")
    if not prunes:
        return
    base = engine.propagate
    rules = tuple(prunes)

    def propagate(s: int, done: int, check: Check) -> tuple[int, int]:
        while True:
            s, done = base(s, done, check)
            if not s:
                return 0, 0
            t = s
            for prune in rules:
                t = prune(t)
                if not t:
                    return 0, 0
            if t == s:
                return s, done
            s = t

    engine.propagate = propagate
