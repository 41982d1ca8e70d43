"""The native core on every variant rule, against an independent reference.

Differential property tests (hypothesis): random consistent puzzles of every
rule and several combinations (a solution found by the native core from a
few random givens, then most cells blanked; for killer, random cages over
that solution, with or without givens; for pencilmarks, random candidate
masks that keep the solution's digit) must get from the native core

* ``solve``: the row-major-first solution, the same as a plain row-major
  backtracker (:func:`reference`, written here from the rules alone: cells in
  row-major order, digits ascending, each rule checked as cells are set) and
  the same as the Python core's (the oracle);
* ``count_solutions(limit)`` for limits 1 and 2, the same as both;
* ``solve_any``: a solution that keeps every rule (:func:`breaks`).

Also: the prepared constraint arrays reject what does not fit the grid, the
native ``verify`` sees each broken rule, and givens that break a peer or
nonconsecutive rule are refused as invalid.

Every test here needs the native core: it is skipped when the extension is
not built, and fails instead where ``SUDOKU_SERVER_REQUIRE_NATIVE`` is set.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sudoku_server.errors import PuzzleError
from sudoku_server.sudoku import solver
from sudoku_server.sudoku.constraints import Candidates, Relation, Sum
from sudoku_server.sudoku.geometry import Geometry
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.variants import Cage, Variant, variant_geometry
from tests.support.native import native_core_for_module

NATIVE = native_core_for_module()

#: Rule sets compared (each with and without the others it is combined with).
RULE_SETS = [
    ("x",),
    ("windoku",),
    ("antiknight",),
    ("antiking",),
    ("nonconsecutive",),
    ("jigsaw",),
    ("killer",),
    ("x", "antiknight"),
    ("antiking", "nonconsecutive"),
    ("x", "jigsaw"),
    ("x", "killer"),
    ("windoku", "antiknight", "killer"),
]


def breaks(geo: Geometry, cells: list[int] | tuple[int, ...]) -> str | None:
    """What a full grid breaks under ``geo`` (None: every rule kept), from the rules alone."""
    full = set(range(1, geo.size + 1))
    for name, unit in zip(geo.unit_names, geo.units):
        if {cells[c] for c in unit} != full:
            return name
    for c, peers in enumerate(geo.peers):
        for p in peers:
            if cells[p] == cells[c]:
                return f"peers {c} {p}"
    for constraint in geo.constraints:
        if isinstance(constraint, Relation):
            for a, b in constraint.pairs:
                if not constraint.allows(cells[a], cells[b]):
                    return f"relation {a} {b}"
        elif isinstance(constraint, Sum):
            if sum(cells[c] for c in constraint.cells) != constraint.total:
                return f"sum {constraint.source}"
        elif isinstance(constraint, Candidates):
            for c, mask in enumerate(constraint.masks):
                if not mask >> (cells[c] - 1) & 1:
                    return f"candidates {c}"
    return None


class TooLong(Exception):
    """The reference backtracker used up its node budget."""


#: Nodes the reference backtracker may visit per puzzle (beyond: the example is assumed away).
REFERENCE_NODES = 40_000


def reference(geo: Geometry, givens: list[int], limit: int) -> list[tuple[int, ...]]:
    """Up to ``limit`` solutions in row-major order: plain backtracking from the rules.

    Raises TooLong past :data:`REFERENCE_NODES` tried digits.

    Cells are filled in row-major order with digits ascending; a digit is
    tried when no peer holds it, no nonconsecutive neighbour holds a digit
    next to it, it is one of the cell's candidates, and each cage it is in
    can still reach its sum (the sum so far plus the smallest and largest
    digits its empty cells could add). The first solution is therefore the
    row-major-first one.
    """
    n, ncells = geo.size, geo.ncells
    neighbours: list[list[int]] = [[] for _ in range(ncells)]
    cage_of: list[Cage | None] = [None] * ncells
    allowed = [(1 << n) - 1] * ncells
    for constraint in geo.constraints:
        if isinstance(constraint, Relation):  # the non-consecutive neighbours (the only relation these rules make)
            for a, b in constraint.pairs:
                neighbours[a].append(b)
                neighbours[b].append(a)
        elif isinstance(constraint, Sum):
            cage = Cage(constraint.cells, constraint.total)
            for c in constraint.cells:
                cage_of[c] = cage
        elif isinstance(constraint, Candidates):
            allowed = list(constraint.masks)
    cells = list(givens)

    def fits(c: int, d: int) -> bool:
        if not allowed[c] >> (d - 1) & 1:
            return False
        if any(cells[p] == d for p in geo.peers[c]):
            return False
        if any(cells[p] and abs(cells[p] - d) == 1 for p in neighbours[c]):
            return False
        cage = cage_of[c]
        if cage is not None:
            placed = [cells[p] for p in cage.cells if p != c and cells[p]]
            empty = len(cage.cells) - 1 - len(placed)
            rest = cage.total - d - sum(placed)
            free = sorted(set(range(1, n + 1)) - set(placed) - {d})
            if empty > len(free) or not sum(free[:empty]) <= rest <= sum(free[len(free) - empty :]):
                return False
        return True

    for c in range(ncells):
        if cells[c]:
            d, cells[c] = cells[c], 0
            if not fits(c, d):
                return []
            cells[c] = d
    order = [c for c in range(ncells) if not cells[c]]
    found: list[tuple[int, ...]] = []
    budget = [REFERENCE_NODES]

    def walk(k: int) -> Iterator[None]:
        if k == len(order):
            found.append(tuple(cells))
            yield
            return
        c = order[k]
        for d in range(1, n + 1):
            budget[0] -= 1
            if budget[0] < 0:
                raise TooLong
            if fits(c, d):
                cells[c] = d
                yield from walk(k + 1)
                cells[c] = 0
                if len(found) >= limit:
                    return

    for _ in walk(0):
        if len(found) >= limit:
            break
    return found


def _regions(n: int, rng: random.Random) -> tuple[int, ...]:
    """Random jigsaw regions: the boxes, then random swaps of two border cells that keep each region connected."""
    shape = {4: (2, 2), 6: (2, 3), 9: (3, 3)}[n]
    geo = variant_geometry(Variant(), *shape)
    regions = list(geo.box_of)

    def connected(region: int) -> bool:
        cells = [c for c in range(n * n) if regions[c] == region]
        seen, todo = {cells[0]}, [cells[0]]
        while todo:
            c = todo.pop()
            for p in _orthogonal(c, n):
                if regions[p] == region and p not in seen:
                    seen.add(p)
                    todo.append(p)
        return len(seen) == len(cells)

    for _ in range(40 * n):
        a = rng.randrange(n * n)
        b = rng.choice(_orthogonal(a, n))
        ra, rb = regions[a], regions[b]
        if ra == rb:
            continue
        # a joins b's region; a cell of b's region next to a's region leaves it
        back = [
            s for s in range(n * n) if regions[s] == rb and s != b and ra in {regions[p] for p in _orthogonal(s, n)}
        ]
        if not back:
            continue
        s = rng.choice(back)
        regions[a], regions[s] = rb, ra
        if not (connected(ra) and connected(rb)):
            regions[a], regions[s] = ra, rb
    return tuple(regions)


def _orthogonal(c: int, n: int) -> list[int]:
    r, col = divmod(c, n)
    return [
        rr * n + cc
        for rr, cc in ((r - 1, col), (r + 1, col), (r, col - 1), (r, col + 1))
        if 0 <= rr < n and 0 <= cc < n
    ]


def random_cages(solution: tuple[int, ...], n: int, rng: random.Random, cover: float) -> tuple[Cage, ...]:
    """Random connected cages (1 to 5 cells, distinct digits of ``solution``) over about ``cover`` of the cells."""
    owner = [-1] * (n * n)
    cages = []
    for start in rng.sample(range(n * n), n * n):
        if owner[start] >= 0 or rng.random() > cover:
            continue
        cells, digits = [start], {solution[start]}
        owner[start] = len(cages)
        want = rng.randint(1, 5)
        while len(cells) < want:
            options = [p for c in cells for p in _orthogonal(c, n) if owner[p] < 0 and solution[p] not in digits]
            if not options:
                break
            p = rng.choice(options)
            owner[p] = len(cages)
            cells.append(p)
            digits.add(solution[p])
        cages.append(Cage(tuple(sorted(cells)), sum(solution[c] for c in cells), chr(ord("a") + len(cages) % 26)))
    return tuple(cages)


#: A solution per geometry key (``solve_any`` of the empty grid), varied per example by :func:`_vary`.
_SOLUTIONS: dict[object, tuple[int, ...] | None] = {}


def _base_solution(geo: Geometry, shape: tuple[int, int]) -> tuple[int, ...] | None:
    """Some solution of the empty grid under ``geo``; None when the rules have none at this size."""
    if geo.key not in _SOLUTIONS:
        try:
            _SOLUTIONS[geo.key] = NATIVE.solve_any(Grid.trusted((0,) * geo.ncells, *shape), geometry=geo).cells
        except PuzzleError:
            _SOLUTIONS[geo.key] = None
    return _SOLUTIONS[geo.key]


def _vary(solution: tuple[int, ...], n: int, rules: tuple[str, ...], rng: random.Random) -> tuple[int, ...]:
    """Another solution of the same rules: digits relabelled, the grid turned or mirrored, where the rules allow.

    Any relabelling keeps unit and peer rules; nonconsecutive allows only
    ``d -> n + 1 - d``. The eight symmetries of the square keep rows,
    columns, boxes of square shape, diagonals, windows, knight and king
    moves, but not jigsaw regions.
    """
    if "nonconsecutive" in rules:
        digits = list(range(1, n + 1)) if rng.random() < 0.5 else list(range(n, 0, -1))
    else:
        digits = rng.sample(range(1, n + 1), n)
    cells = [digits[d - 1] for d in solution]
    if "jigsaw" not in rules and n != 6:
        for _ in range(rng.randrange(4)):  # a quarter turn each
            cells = [cells[(n - 1 - c) * n + r] for r in range(n) for c in range(n)]
        if rng.random() < 0.5:
            cells = [cells[r * n + n - 1 - c] for r in range(n) for c in range(n)]
    return tuple(cells)


@st.composite
def puzzles(draw: st.DrawFn) -> tuple[Geometry, Grid]:
    """A rule set, a geometry and a consistent puzzle (it keeps a known solution)."""
    rules = draw(st.sampled_from(RULE_SETS))
    n = draw(st.sampled_from([9] if "windoku" in rules else [4, 6, 9]))
    shape = {4: (2, 2), 6: (2, 3), 9: (3, 3)}[n]
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    unit_rules = tuple(r for r in rules if r != "killer")
    regions = _regions(n, rng) if "jigsaw" in rules else None
    base = variant_geometry(Variant(unit_rules, regions=regions), *shape)
    solution = _base_solution(base, shape)
    if solution is None:  # a rule set with no solution at this size (nonconsecutive 4x4...)
        return base, Grid.trusted((0,) * (n * n), *shape)
    solution = _vary(solution, n, rules, rng)
    keep = draw(st.floats(0.0 if n < 9 else 0.45, 0.85))
    cages: tuple[Cage, ...] = ()
    if "killer" in rules:
        cages = random_cages(solution, n, rng, draw(st.floats(0.3, 1.0)))
        keep = draw(st.floats(0.0, 0.4)) if n < 9 else draw(st.floats(0.1, 0.5))
    candidates = None
    if draw(st.booleans()) and "killer" not in rules:
        candidates = tuple((rng.getrandbits(n) | 1 << (d - 1)) for d in solution)
    geo = variant_geometry(Variant(rules, regions=regions, cages=cages, candidates=candidates), *shape)
    cells = tuple(d if rng.random() < keep else 0 for d in solution)
    return geo, Grid.trusted(cells, *shape)


@pytest.mark.slow  # 120 puzzles, the reference in Python: 3 to 4 minutes of one core
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles())
def test_native_equals_reference(case: tuple[Geometry, Grid]) -> None:
    geo, grid = case
    try:
        expected = reference(geo, list(grid.cells), 2)
    except TooLong:
        assume(False)
        return
    for limit in (1, 2):
        assert NATIVE.count_solutions(grid, limit, geometry=geo) == min(len(expected), limit)
        assert solver.PYTHON.count_solutions(grid, limit, geometry=geo) == min(len(expected), limit)
    if expected:
        assert NATIVE.solve(grid, geometry=geo).cells == expected[0]
        assert solver.PYTHON.solve(grid, geometry=geo).cells == expected[0]
        some = NATIVE.solve_any(grid, geometry=geo).cells
        assert breaks(geo, some) is None
        assert all(g in (0, d) for g, d in zip(grid.cells, some))
    else:
        with pytest.raises(PuzzleError):
            NATIVE.solve(grid, geometry=geo)


def _solved(rules: tuple[str, ...], **data: object) -> tuple[Geometry, tuple[int, ...]]:
    geo = variant_geometry(Variant(rules, **data))  # type: ignore[arg-type]
    return geo, NATIVE.solve(Grid.trusted((0,) * 81, 3, 3), geometry=geo).cells


@pytest.mark.parametrize("rules", [("antiknight",), ("antiking",), ("nonconsecutive",), ("x",), ("windoku",)])
def test_verify_sees_each_broken_rule(rules: tuple[str, ...]) -> None:
    geo, cells = _solved(rules)
    empty = (0,) * 81
    assert breaks(geo, cells) is None
    assert solver.verify(Grid.trusted(empty, 3, 3), Grid.trusted(cells, 3, 3), geo) is None
    # the classic solution of the empty grid breaks each of these rules
    classic_cells = NATIVE.solve(Grid.trusted(empty, 3, 3)).cells
    assert breaks(geo, classic_cells) is not None
    assert solver.verify(Grid.trusted(empty, 3, 3), Grid.trusted(classic_cells, 3, 3), geo) is not None


def test_verify_sees_a_cage_sum_and_a_candidate() -> None:
    geo, cells = _solved(())
    cage = Cage((0, 1), cells[0] + cells[1] + 1, "a")
    killer = variant_geometry(Variant(("killer",), cages=(cage,)))
    empty = Grid.trusted((0,) * 81, 3, 3)
    assert solver.verify(empty, Grid.trusted(cells, 3, 3), killer) is not None
    masks = tuple((1 << 9) - 1 if c else (1 << 9) - 1 - (1 << (cells[0] - 1)) for c in range(81))
    pencil = variant_geometry(Variant(candidates=masks))
    assert solver.verify(empty, Grid.trusted(cells, 3, 3), pencil) is not None


def test_givens_that_break_a_pair_rule_are_invalid() -> None:
    from sudoku_server.sudoku.solver import _native

    for rules, cells in (
        (("antiknight",), {0: 3, 11: 3}),
        (("antiking",), {0: 3, 10: 3}),
        (("nonconsecutive",), {0: 3, 1: 4}),
    ):
        geo = variant_geometry(Variant(rules))
        given = tuple(cells.get(c, 0) for c in range(81))
        prepared = solver._prepare(geo)
        assert _native.solve(given, prepared) == _native.INVALID
        assert NATIVE.count_solutions(Grid.trusted(given, 3, 3), 2, geometry=geo) == 0


@pytest.mark.parametrize(
    "arrays",
    [
        {"differ": bytes(array("H", [0, 81]))},
        {"differ": bytes(array("H", [5, 5]))},
        {"pairs": bytes(array("H", [0]))},  # half a pair
        {"pairs": bytes(array("H", [0, 1]))},  # a pair without its table
        {
            "pairs": bytes(array("H", [0, 1])),
            "pair_table": bytes(array("H", [1])),
            "tables": bytes(array("I", [511] * 9)),
        },
        {
            "pairs": bytes(array("H", [0, 0])),
            "pair_table": bytes(array("H", [0])),
            "tables": bytes(array("I", [511] * 9)),
        },
        {"tables": bytes(array("I", [511] * 8))},  # not size masks
        {"sums": bytes(array("i", [2, 3, 0, 0, 0, 1, 1]))},  # a cell twice
        {"sums": bytes(array("i", [10, 50, 1, *range(10), *[1] * 10]))},  # 10 distinct digits of 1..9
        {"sums": bytes(array("i", [3, 6, 1, 0, 1]))},  # a record cut short
        {"sums": bytes(array("i", [1, 5, 0, 81, 1]))},  # a cell outside the grid
        {"candidates": bytes(array("I", [511] * 80))},
    ],
)
def test_prepare_refuses_constraints_that_do_not_fit(arrays: dict[str, bytes]) -> None:
    from sudoku_server.sudoku.solver import _native

    with pytest.raises(ValueError):
        _native.prepare(9, variant_geometry(Variant()).unit_array, False, **arrays)
