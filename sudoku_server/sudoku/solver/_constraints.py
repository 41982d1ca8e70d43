"""The pure-Python core's constraints that are not units, by kind: relations, sums, candidates.

A variant geometry (:mod:`..variants`) is units plus peers plus
``constraints``, values of the vocabulary (:mod:`...constraints`). The
bitboard engine (:mod:`._bitboard`) already handles the units, and
eliminates a placed digit from every peer, so an
:class:`~...constraints.AllDifferent` that is not a unit (anti-knight,
anti-king pairs) and the "digits do not repeat" half of a distinct
:class:`~...constraints.Sum` need nothing more here: their cells are extra
peers of the geometry. This module adds the rest, on the same bitboard
state (bit ``cell * (n + 1) + d - 1`` while digit d is a candidate of cell):

* :class:`~...constraints.Candidates` (pencilmarks): the root state keeps
  only each cell's candidates (``Engine.root``); nothing to do during the search.
* :class:`~...constraints.Relation`: a digit e leaves a cell's partner when
  every candidate of the cell is a digit e cannot be paired with (for
  non-consecutive neighbours: a placed d removes d - 1 and d + 1; a cell
  {3,5} removes 4). Computed for all cells at once, one carry test per
  digit, one shift per direction of the pairs; both ends of every pair
  each round (the converse table from ``b``'s side).
* distinct :class:`~...constraints.Sum` (killer cages): the sets of
  distinct digits of its size making its sum (precomputed per (size, sum),
  :func:`combinations`) that fit its cells (every placed digit in the set,
  the set inside the union of the cells' candidates, every cell keeping a
  candidate of the set). Each cell keeps the digits of those sets; a digit
  in all of them with one place left goes there; no set left is a
  contradiction. The rule of 45 adds sums of the same kind: the cells of a
  unit outside the sums inside it (innies), the cells outside a unit of
  the sums that cover it (outies, when they are peers of each other).
  Any other sum (digits may repeat, weights, overlaps: a little killer
  diagonal, an arrow) is pruned by bounds (:func:`_bounds`).
* :class:`~...constraints.Between` (sandwich sums, :func:`_between`): every
  placement of ``low`` and ``high`` on the line its cells allow, and (up to
  16 digits) every set of the other digits of the right size and total for
  the cells between them; the cells keep what some placement and set use
  (:func:`~...constraints.between_allowed`).

Each removes only candidates no solution can use, so the answers of the
search (the row-major-first solution) do not change; they are applied after
the engine's own propagation, until nothing changes (:func:`constrain` wraps
``Engine.propagate``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from sudoku_server.sudoku.constraints import AllDifferent, Between, Candidates, Relation, Sum, between_allowed

if TYPE_CHECKING:
    from sudoku_server.sudoku.check import Check
    from sudoku_server.sudoku.geometry import Geometry


class Engine(Protocol):
    """What this module reads and sets of a bitboard engine (:class:`._bitboard.Engine`)."""

    geo: Geometry
    n: int
    width: int
    full: int
    spare: int
    cell_ones: int
    digit_mask: int
    root: int
    propagate: Callable[[int, int, Check], tuple[int, int]]


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


_Plan = tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]


def _direction(engine: Engine, table: tuple[int, ...], arcs: list[tuple[int, int]]) -> _Plan:
    """The arcs ``a -> b`` of ``table``: per digit e (cells whose every candidate forbids e beside them,
    shift to bit e - 1), and per cell distance the source cells' mask and the shift to the target."""
    n, w = engine.n, engine.width
    full, ones = engine.full, engine.cell_ones
    digits = []
    for e in range(1, n + 1):
        near = 0  # the digits d of a cell that leave no room for e in its partner
        for d in range(1, n + 1):
            if not table[d - 1] >> (e - 1) & 1:
                near |= 1 << (d - 1)
        if near:
            digits.append((full ^ (ones * near), n - (e - 1)))
    by_delta: dict[int, int] = {}
    for a, b in arcs:
        by_delta[b - a] = by_delta.get(b - a, 0) | engine.digit_mask << (a * w)
    return tuple(digits), tuple((delta * w, sources) for delta, sources in sorted(by_delta.items()))


def _relation(engine: Engine, relation: Relation) -> _Prune:
    """A relation on its pairs as a state -> state function: both ends of every pair, each round."""
    spare, full = engine.spare, engine.full
    pairs = list(relation.pairs)
    back = [(b, a) for a, b in pairs]
    converse = relation.converse
    plans: tuple[_Plan, ...]
    if converse == relation.table:  # symmetric: one carry test for both directions
        plans = (_direction(engine, relation.table, pairs + back),)
    else:
        plans = (_direction(engine, relation.table, pairs), _direction(engine, converse, back))

    def prune(s: int) -> int:
        e = 0
        for digits, shifts in plans:
            z = 0
            for keep, shift in digits:
                z |= (spare ^ (((s & keep) + full) & spare)) >> shift
            if not z:
                continue
            for bits, sources in shifts:
                e |= (z & sources) << bits if bits > 0 else (z & sources) >> -bits
        return s ^ (s & e)

    return prune


def _sums(geo: Geometry, cages: list[Sum]) -> list[tuple[tuple[int, ...], int]]:
    """The sums as (cells, total), then the sums the rule of 45 implies (innies and outies of each unit).

    A unit's digits sum to ``n(n+1)/2``: its cells outside the sums that lie
    inside it sum to the rest (innies); the cells outside it of the sums
    that cover it sum to the excess (outies), kept when they are all peers
    of each other (so their digits differ, as a cage's do). ``cages`` are
    distinct, unweighted and disjoint.
    """
    cage_of = [-1] * geo.ncells
    for k, cage in enumerate(cages):
        for c in cage.cells:
            cage_of[c] = k
    sums = [(cage.cells, cage.total) for cage in cages]
    known = {frozenset(cells) for cells, _total in sums}
    whole = geo.size * (geo.size + 1) // 2
    for unit in geo.units:
        inside = set(unit)
        touching = {cage_of[c] for c in unit if cage_of[c] >= 0}
        within = [k for k in touching if inside.issuperset(cages[k].cells)]
        rest = inside.difference(*(cages[k].cells for k in within))
        implied = [(rest, whole - sum(cages[k].total for k in within))]
        if all(cage_of[c] >= 0 for c in unit):
            covered = set().union(*(cages[k].cells for k in touching))
            implied.append((covered - inside, sum(cages[k].total for k in touching) - whole))
        for cells, total in implied:
            ordered = tuple(sorted(cells))
            if not 0 < len(ordered) < geo.size or frozenset(ordered) in known:
                continue
            if all(b in geo.peers[a] for i, a in enumerate(ordered) for b in ordered[i + 1 :]):
                known.add(frozenset(ordered))
                sums.append((ordered, total))
    return sums


def _cages(engine: Engine, cages: list[Sum]) -> _Prune:
    """The distinct sums (and the rule of 45's) as a state -> state function (0 on a contradiction)."""
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


def _bounds(engine: Engine, sums: list[Sum]) -> _Prune:
    """Any other sums (digits may repeat, weights, overlaps) by bounds, as a state -> state function.

    Each cell keeps the digits ``d`` whose ``weight * d`` fits between the
    total less the others' largest and the total less the others' smallest
    contributions; an empty cell or a total out of reach is a contradiction.
    """
    w, mask = engine.width, engine.digit_mask
    plan = tuple((tuple(c * w for c in s.cells), s.weights or (1,) * len(s.cells), s.total) for s in sums)

    def prune(s: int) -> int:
        for shifts, weights, total in plan:
            masks = [(s >> at) & mask for at in shifts]
            lows, highs = [], []
            for m, weight in zip(masks, weights):
                if not m:
                    return 0
                small, large = weight * (m & -m).bit_length(), weight * m.bit_length()
                lows.append(min(small, large))
                highs.append(max(small, large))
            low, high = sum(lows), sum(highs)
            if not low <= total <= high:
                return 0
            for k, (m, weight) in enumerate(zip(masks, weights)):
                least, most = total - (high - highs[k]), total - (low - lows[k])
                keep, rest = 0, m
                while rest:
                    bit = rest & -rest
                    rest ^= bit
                    if least <= weight * bit.bit_length() <= most:
                        keep |= bit
                if keep != m:
                    if not keep:
                        return 0
                    s ^= (m ^ keep) << shifts[k]
        return s

    return prune


def _between(engine: Engine, between: Between) -> _Prune:
    """A :class:`Between` as a state -> state function (0 on a contradiction): each cell of its line keeps
    what :func:`~...constraints.between_allowed` allows; results are kept per state of the line (searches
    meet the same lines again)."""
    n, w, mask = engine.n, engine.width, engine.digit_mask
    shifts = tuple(c * w for c in between.cells)
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}

    def prune(s: int) -> int:
        masks = tuple((s >> at) & mask for at in shifts)
        try:
            kept = seen[masks]
        except KeyError:
            if len(seen) > 4096:
                seen.clear()
            kept = seen[masks] = between_allowed(between, masks, n)
        for m, keep, at in zip(masks, kept, shifts):
            if m != keep:
                if not keep:
                    return 0
                s ^= (m ^ keep) << at
        return s

    return prune


def _state_of(engine: Engine, masks: tuple[int, ...]) -> int:
    """The bitboard of per-cell candidate masks."""
    s, w = 0, engine.width
    for cell, m in enumerate(masks):
        s |= (m & engine.digit_mask) << (cell * w)
    return s


def constrain(engine: Engine) -> None:
    """Teach ``engine`` its geometry's constraints, by kind (module docstring); classic engines are left alone.

    Sets ``engine.root`` for candidates and wraps ``engine.propagate`` with
    the kinds that need more than peers.

    Raises:
      ValueError: a kind this core does not know, or an all-different or
        distinct sum whose cells are not peers of the geometry (it would be ignored).
    """
    geo = engine.geo
    prunes: list[_Prune] = []
    cages: list[Sum] = []
    others: list[Sum] = []
    caged: set[int] = set()
    for constraint in geo.constraints:
        if isinstance(constraint, (AllDifferent, Sum)):
            cells = constraint.cells
            distinct = isinstance(constraint, AllDifferent) or constraint.distinct
            if distinct and not all(b in geo.peers[a] for i, a in enumerate(cells) for b in cells[i + 1 :]):
                raise ValueError(f"the cells of {constraint!r} are not peers of geometry {geo.key!r}")
            if isinstance(constraint, Sum):
                if not constraint.distinct or constraint.weights or caged.intersection(cells):
                    others.append(constraint)
                else:
                    caged.update(cells)
                    cages.append(constraint)
        elif isinstance(constraint, Relation):
            prunes.append(_relation(engine, constraint))
        elif isinstance(constraint, Candidates):
            engine.root &= _state_of(engine, constraint.masks)
        elif isinstance(constraint, Between):
            cells = constraint.cells
            if not all(b in geo.peers[a] for i, a in enumerate(cells) for b in cells[i + 1 :]):
                raise ValueError(f"the cells of {constraint!r} are not peers of geometry {geo.key!r}")
            prunes.append(_between(engine, constraint))
        else:
            raise ValueError(f"the solver does not know the constraint {constraint!r} of geometry {geo.key!r}")
    if cages:
        prunes.append(_cages(engine, cages))
    if others:
        prunes.append(_bounds(engine, others))
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
