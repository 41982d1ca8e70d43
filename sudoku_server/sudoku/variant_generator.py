"""Puzzle generation for variants (``GENERATE rules=...``): unit and peer rules, jigsaw regions, killer cages, marks.

Pure and synchronous, like :mod:`.generator`, whose pieces it reuses: the
SplitMix64 stream, the random full grid (:func:`.generator._full_grid`), the
one-pass removal of givens (:func:`.generator._remove_givens`) and the
uniqueness proofs (:class:`.generator._Proofs`). Those work on a compiled
bitboard engine (:mod:`.solver._bitboard`); here it is the engine of the
variant's geometry: its units, its peers (a knight's move, the cells of a
cage) and the constraints the pure-Python core knows
(:mod:`.solver._constraints`: nonconsecutive pairs, cage sums), so the
full-grid search, the existence searches of the proofs and the counts below
answer for the variant's rules.

**Bounded removal.** Except under rules whose making is ``exact`` (``x``,
``windoku``, ``disjoint``: units on the boxes; exact tests, as for classic, fast), each removal test is the proof of
:class:`.generator._Proofs` on at most :data:`REMOVAL_BUDGET` search nodes
(:class:`_BudgetedProofs`) on whichever solver core: a count without a
bound took seconds on near-minimal puzzles (nonconsecutive: 5-13 givens). A
removal whose proof needs more nodes keeps its given and the result says
``minimal=False``. Nodes, not time, so a seed gives the same puzzle on every
machine, under any load, with either core. Random jigsaw layouts are
bounded too (:data:`_LAYOUTS`).

**Randomness.** From ``rng = SplitMix64(seed)``, always, in this order: the
symmetry pick, ``grid_key`` and ``order_key`` (as :func:`.generator.generate`
draws them), then ``shape_key``: jigsaw regions are drawn from
``SplitMix64(shape_key)``, killer cages from ``SplitMix64(shape_key + 1)``,
the marks of the marks rules (odd/even cells, thermometers: ``Making.marks``
of each rule, in the registry's order) from ``SplitMix64(shape_key + 2)``.
So a seed gives the same puzzle on every machine.

**Jigsaw regions** (:func:`.rules.jigsaw.random_regions`): the boxes, then random swaps of
two cells across the border of two regions that keep both regions connected
(``size * size * 3`` tries). A layout on which the full-grid search fails
(some layouts have no solution) is replaced by the next one.

**Killer cages** (:func:`.rules.killer.random_cages`): cells in a random order; each cell
not yet in a cage starts one and grows to a random size of 2 to 5 through
random orthogonal neighbours whose digits (in the full grid) are not yet in
the cage; a cell left alone joins a neighbouring cage that does not hold its
digit when one has room (6 cells at most), else stays a cage of one. With
``givens=0`` (the default for killer: a *pure* killer, no givens) the cages
must make the solution unique: while another solution exists, the cage of a
cell where it differs (:func:`_differing_cell`, from the solver's counts on
whichever core takes the geometry, so both cores make the same puzzle) is
split in two (:func:`.rules.killer.split`), which always ends (cages of one cell fix
their digits). The cage sizes drawn favour 2 and 3 cells
(``rules.killer._CAGE_SIZES``): small cages have few digit sets, so the counts stay
short. With ``givens=N > 0`` the cages stay as drawn and givens are removed
from the full grid as for classic puzzles, keeping at least N.

Measured (9x9, seeds 20-29, 2 shared cores): a pure killer in about 20 ms
(median) on the native core, tail about 1 s; about 0.75 s on the
pure-Python core, tail about 16 s. benchmarks/bench_variant_generate.py
measures every rule set.

**Marks** (odd/even cells, thermometers): drawn over the full grid, so the
solution satisfies them (each rule's ``Making.marks``); then givens are
removed as for any rule, each removal proved unique on the budget, under the
marks' constraints (the engine of the geometry with the marks).
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Sequence

from sudoku_server.errors import InvalidPuzzleError, UnsolvableError
from sudoku_server.sudoku import generator as _gen
from sudoku_server.sudoku import solver as _solver
from sudoku_server.sudoku.check import Check, no_check
from sudoku_server.sudoku.geometry import BOX_SHAPES, Geometry
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rules import RULES, Rule
from sudoku_server.sudoku.rules.base import Mark
from sudoku_server.sudoku.solver._bitboard import Engine, engine
from sudoku_server.sudoku.variants import Variant, variant_geometry

__all__ = ["generate_variant"]

#: Full-grid searches before a jigsaw layout is replaced; attempt k has a budget of
#: ``4 * 2**min(k, 10) * cells`` nodes (peer and nonconsecutive rules leave few grids: the first
#: attempts of a seed may not reach one).
_ATTEMPTS = 16
#: The attempts on a random jigsaw layout before the next layout is drawn (a layout that takes more
#: is replaced: with ``x`` on top, some layouts take minutes of search to show they have no grid).
_LAYOUT_ATTEMPTS = 3
_NODES_PER_CELL = 4
#: Random jigsaw layouts drawn before GENERATE gives up (a bound on the work, the same on every machine).
_LAYOUTS = 64
#: Search nodes (propagations of the pure-Python engine) one removal test may take: a removal whose
#: proof of uniqueness needs more keeps its given (the puzzle is then not minimal).
REMOVAL_BUDGET = 40


def _differing_cell(count: Callable[..., int], solution: Grid, check: Check) -> int:
    """A cell where another solution of the empty grid differs from ``solution``, or -1 when there is none.

    With the cells before ``k`` (row-major) fixed to ``solution``'s digits,
    the grid has two solutions or more up to some ``k`` and one from
    ``k + 1`` on: a binary search on ``k`` (as :func:`.techniques.unique_solution`
    names a cell); another solution then differs at cell ``k``.
    """
    cells = solution.cells
    n = len(cells)

    def fixed(k: int) -> Grid:
        return Grid(cells[:k] + (0,) * (n - k), solution.box_rows, solution.box_cols)

    if count(fixed(0), 2, check=check) < 2:
        return -1
    lo, hi = 0, n  # count(fixed(lo)) >= 2, count(fixed(hi)) == 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if count(fixed(mid), 2, check=check) >= 2:
            lo = mid
        else:
            hi = mid
    return lo


def _core_count(geo: Geometry) -> Callable[..., int]:
    """The solver's ``count_solutions`` on ``geo`` (whichever core takes it: the answers are the same)."""
    count = _solver.count_solutions

    def counted(grid: Grid, limit: int = 2, *, check: Check | None = None) -> int:
        return count(grid, limit, check=check, geometry=geo)

    return counted


def _native_count(geo: Geometry) -> Callable[..., int] | None:
    """The solver's count on ``geo`` when the native core takes that geometry itself, else None."""
    if _solver.CORE == "python" or _solver._native is None:
        return None
    if _solver._prepare(geo) is None:
        return None
    count = _solver.count_solutions

    def counted(grid: Grid, limit: int = 2, *, check: Check | None = None) -> int:
        return count(grid, limit, check=check, geometry=geo)

    return counted


def generate_variant(
    variant: Variant,
    size: int = 9,
    *,
    symmetry: str = "none",
    givens: int | None = None,
    seed: int | None = None,
    full: bool = False,
    check: Check | None = None,
) -> _gen.Generated:
    """Make a puzzle with exactly one solution under ``variant``'s rules (or a full grid).

    Like :func:`.generator.generate` (same options and meaning; the module
    docstring says what is drawn from the seed), plus: jigsaw regions are
    ``variant.regions`` when given, else random; killer cages are always
    made here (``variant.cages`` is ignored), and ``givens=None`` means 0 for
    killer (a pure killer). The result's ``variant`` carries the regions or
    cages made, and the rules.

    Raises:
      ValueError: an option out of range (as :func:`.generator.generate`),
        ``full`` or a ``symmetry`` with a pure killer.
      CommandError: a rule that does not fit the size (``windoku`` off 9x9).
    """
    if check is None:
        check = no_check
    if variant.classic:
        return _gen.generate(size, symmetry=symmetry, givens=givens, seed=seed, full=full, check=check)
    if size not in _gen.SIZES:
        raise ValueError(f"size must be {_gen._SIZES_TEXT}, not {size}")
    rules = [RULES[word] for word in variant.rules]
    late = next((rule for rule in rules if rule.making.from_solution is not None), None)  # cages
    drawn = next((rule for rule in rules if rule.making.layout is not None and rule.data), None)  # regions
    if drawn is not None and getattr(variant, drawn.data) is not None:
        drawn = None
    if drawn is not None and size > 9:  # a 16x16 grid of random regions is not filled within the solve timeout
        raise ValueError(
            f"random {drawn.data} are drawn up to 9x9, not {size}x{size}; give regions= (a symbol per cell) for more"
        )
    if late is not None and full:
        raise ValueError(f"full makes a solved grid; {late.making.noun} need a puzzle")
    if late is not None and size > 9:  # the cage block's symbols: 16x16 grids take 70-80 cages
        raise ValueError(f"{late.making.noun} are generated up to 9x9, not {size}x{size} (more cages than symbols)")
    marked = next((rule for rule in rules if rule.making.marks is not None), None)
    if marked is not None and full:
        raise ValueError(f"full makes a solved grid; {marked.making.noun} need a puzzle")
    if marked is not None and size > 16:  # each removal's uniqueness test at 25x25 takes past the solve timeout
        raise ValueError(
            f"{marked.making.noun} are generated up to 16x16, not {size}x{size} (they are solved at 25x25)"
        )
    if late is not None and givens is None:
        givens = 0
    pure = late is not None and givens == 0
    if pure and symmetry != "none":
        assert late is not None
        raise ValueError(f"symmetry places givens; a pure {late.word} (givens=0) has none")
    if symmetry not in _gen.SYMMETRIES + ("random",):
        raise ValueError(f"symmetry must be none, rot180, rot90, mirror, diagonal or random, not {symmetry!r}")
    if full and (symmetry != "none" or givens is not None):
        raise ValueError("symmetry and givens apply to puzzles, not to a full grid")
    ncells = size * size
    if givens is not None:
        givens = _gen._check_int("givens", givens, 0, ncells)
    seed = secrets.randbits(64) if seed is None else _gen._check_int("seed", seed, 0, _gen.SEED_LIMIT - 1)
    rng = _gen.SplitMix64(seed)
    pick = rng.below(len(_gen.RANDOM_SYMMETRIES))
    if symmetry == "random":
        symmetry = _gen.RANDOM_SYMMETRIES[pick]
    grid_key = rng.next()
    order_key = rng.next()
    shape_key = rng.next()
    box_rows, box_cols = BOX_SHAPES[size]

    base_variant = Variant(variant.rules, variant.regions, variant.region_symbols, (), variant.candidates)
    if late is not None:
        base_variant = Variant(
            tuple(r for r in variant.rules if r != late.word), variant.regions, variant.region_symbols
        )
    region_rng = _gen.SplitMix64(shape_key)
    for _layout in range(_LAYOUTS):
        if drawn is not None:
            assert drawn.making.layout is not None
            regions = drawn.making.layout(size, region_rng)
            base_variant = Variant(base_variant.rules, regions, (), (), base_variant.candidates)
        try:
            base_geo = variant_geometry(base_variant, box_rows, box_cols)
        except InvalidPuzzleError:
            if drawn is None:
                raise
            continue  # a drawn layout no grid follows (jigsaw's leftovers): the next one, as when no grid is found
        if drawn is None and not _admits_a_grid(base_geo, size, check):
            raise ValueError(f"no grid follows the rules {variant.words}")
        eng = engine(base_geo)
        solved = _full_grid(eng, grid_key, check, _LAYOUT_ATTEMPTS if drawn is not None else _ATTEMPTS)
        if solved:
            break
        if drawn is None:
            raise ValueError(f"no grid follows the rules {variant.words}")
    else:
        raise ValueError(f"no grid found on {_LAYOUTS} random layouts for the rules {variant.words}")
    solution_cells = eng.digits(solved)
    solution = Grid(solution_cells, box_rows, box_cols)
    made_variant = base_variant
    if drawn is not None:  # the drawn regions belong to the puzzle (a killer jigsaw's cages are drawn over them)
        variant = dataclasses.replace(variant, regions=base_variant.regions)
    if full:
        return _gen.Generated(solution, solution, seed, "none", ncells, False, made_variant)

    marks = _marks(rules, solution_cells, size, shape_key)
    if marks:
        variant = dataclasses.replace(variant, marks=marks)
        made_variant = dataclasses.replace(made_variant, marks=marks)
    if late is not None:
        made = _late_data(late, variant, solution_cells, size, shape_key)
        made_variant = made[1]
        geo = variant_geometry(made_variant, box_rows, box_cols)
        if pure:
            while True:
                check()
                differ = _differing_cell(_core_count(geo), solution, check)
                if differ < 0:
                    break
                made_variant = _refined(late, variant, made[0], differ, size, solution_cells)
                geo = variant_geometry(made_variant, box_rows, box_cols)
            puzzle = Grid((0,) * ncells, box_rows, box_cols)
            return _gen.Generated(puzzle, solution, seed, "none", 0, True, made_variant)
    else:
        geo = variant_geometry(made_variant, box_rows, box_cols)
    eng = engine(geo)
    cell_orbits = _gen.orbits(size, symmetry)
    order = _gen.permutation(_gen.SplitMix64(order_key), len(cell_orbits))
    tests: _gen._Proofs | _gen._Counts
    if all(rule.making.exact for rule in rules):
        count = _native_count(geo)
        tests = _gen._Proofs(eng, solved, check) if count is None else _gen._Counts(count, solution, check)
        kept, minimal = _gen._remove_givens(eng, solved, [cell_orbits[i] for i in order], givens or 0, tests, check)
    else:
        budgeted = _BudgetedProofs(eng, solved, check)
        kept, minimal = _gen._remove_givens(eng, solved, [cell_orbits[i] for i in order], givens or 0, budgeted, check)
        minimal = minimal and not budgeted.refused
    puzzle = Grid(
        tuple(d if kept >> (c * eng.width) & eng.digit_mask else 0 for c, d in enumerate(solution_cells)),
        box_rows,
        box_cols,
    )
    return _gen.Generated(puzzle, solution, seed, symmetry, sum(1 for d in puzzle.cells if d), minimal, made_variant)


def _admits_a_grid(geo: Geometry, size: int, check: Check) -> bool:
    """Whether some full grid follows the rules of ``geo``: one search of the empty grid (``solve_any``), which
    proves at once what the random full-grid searches would only give up on after their budgets
    (``x+windoku+antiknight``: no grid; the searches ran to the solve timeout)."""
    box_rows, box_cols = BOX_SHAPES[size]
    try:
        _solver.solve_any(Grid((0,) * (size * size), box_rows, box_cols), geometry=geo, check=check)
    except UnsolvableError:
        return False
    return True


def _marks(rules: Sequence[Rule], solution: Sequence[int], size: int, shape_key: int) -> tuple[Mark, ...]:
    """The marks of the rules that draw them over ``solution``, in the registry's order, from ``SplitMix64(shape_key + 2)``."""
    rng = _gen.SplitMix64(shape_key + 2)
    marks: list[Mark] = []
    for rule in rules:
        if rule.making.marks is not None:
            marks += rule.making.marks(solution, size, rng)
    return tuple(marks)


def _late_data(
    rule: Rule, variant: Variant, solution: Sequence[int], size: int, shape_key: int
) -> tuple[list[list[int]], Variant]:
    """The data ``rule`` draws over the solution (cages, from ``SplitMix64(shape_key + 1)``) and the variant with it."""
    making = rule.making
    assert making.from_solution is not None and making.variant_of is not None
    lists = making.from_solution(solution, size, _gen.SplitMix64(shape_key + 1))
    return lists, making.variant_of(variant, lists, solution)


def _refined(
    rule: Rule, variant: Variant, lists: list[list[int]], cell: int, size: int, solution: Sequence[int]
) -> Variant:
    """Split the list of ``rule``'s data holding ``cell`` (in place), and the variant with the lists."""
    making = rule.making
    assert making.split is not None and making.variant_of is not None
    making.split(lists, cell, size)
    return making.variant_of(variant, lists, solution)


def _full_grid(eng: Engine, key: int, check: Check, attempts: int) -> int:
    """A random solved state, or 0 when the attempts fail (a jigsaw layout may have no grid)."""
    for attempt in range(attempts):
        budget = _NODES_PER_CELL << min(attempt, 10)
        solved = _gen._full_grid_attempt(eng, _gen.SplitMix64(key + attempt), check, budget)
        if solved:
            return solved
    return 0


class _BudgetedProofs(_gen._Proofs):
    """The removal tests of :class:`.generator._Proofs`, each on at most :data:`REMOVAL_BUDGET` search nodes.

    The budget counts nodes of the pure-Python engine, never time, so a seed
    gives the same puzzle on every machine, under any load and with either
    solver core. A removal whose proof needs more nodes keeps its given and
    sets ``refused`` (the puzzle is then reported not minimal); every
    removal made is proved, so the puzzle stays unique.
    """

    def __init__(self, engine: Engine, solved: int, check: Check, budget: int = REMOVAL_BUDGET) -> None:
        super().__init__(engine, solved, check)
        self.budget = budget
        self.refused = False

    def orbit_unique(self, rest: int, orbit: tuple[int, ...]) -> bool:
        """Whether the givens ``rest`` have one solution, proved within the budget (False when not proved)."""
        engine, solved, own, check = self.engine, self.solved, self.own, self.check
        s, done = engine.propagate(engine.root & ~(rest ^ (rest & solved)), 0, check)
        for c in orbit:
            value = solved & own[c]
            if s & own[c] == value:
                continue  # forced by propagation
            found = _gen._exists(engine, s ^ value, done, solved, check, self.budget)
            if found is None:
                self.refused = True
                return False
            if found:
                return False
            s ^= s & own[c] & ~value  # no other digit here: fix it
        return True
