"""Human solving techniques: the logical steps people use, found on a candidate grid.

Pure and synchronous (no I/O). A :class:`Board` holds the candidates of a
grid being solved (one digit bitmask per cell, bit ``d - 1`` for digit d);
each *finder* looks for one technique on it and returns a :class:`Step` --
the technique, the cells, units and digits involved, the placements and the
eliminations -- or ``None``. :func:`next_step` tries the finders from the
easiest up and returns the first step found; :func:`solve_steps` applies
steps until the grid is solved.

**Order and ratings.** The finders run in the order of the Sudoku Explainer
rating scale (SE 1.2.1 by Nicolas Juillerat, as extended by Sukaku Explainer,
github.com/SudokuMonster/SukakuExplainer, with its default technique set),
and every step carries SE's rating of that step (:attr:`Step.se`):

====================================================  =========================
technique                                             SE rating
====================================================  =========================
full house (last empty cell of a unit)                1.0
hidden single in a box / in a row or column           1.2 / 1.5
naked single                                          2.3
pointing / claiming (box-line)                        2.6 / 2.8
naked pair, X-Wing, hidden pair                       3.0, 3.2, 3.4
naked triple, Swordfish, hidden triple                3.6, 3.8, 4.0
skyscraper / two-string kite / turbot fish            4.0 / 4.1 / 4.2 (grouped,
(two strong links on one digit)                       e.g. empty rectangle: 4.3)
XY-Wing, XYZ-Wing                                     4.2, 4.4
unique rectangle types 1, 2, 4 / type 3               4.5 / 4.5 + 0.1 per extra
unique loop of 6 / 8 / 10+ cells, types 1-4           4.6 / 4.7 / 5.0 (type 3 more)
avoidable rectangle types 1, 2 (a solving state's     4.5 (HoDoKu's; SE has
placed cells only: never on a puzzle's path)          none)
naked quadruple, Jellyfish, hidden quadruple          5.0, 5.2, 5.4
X-chain of 3 strong links                             5.4 (+0.1..0.3)
WXYZ-Wing (ALS of 3 cells + a bivalue cell)           5.5-5.6
BUG+1 / BUG types 2, 4 / BUG type 3                   5.6 / 5.7 / 5.7 + 0.1 per extra
X-chain of 4 strong links                             5.8 (+0.1..0.3)
VWXYZ-Wing (ALS of 4 cells + a bivalue cell)          6.2-6.4
aligned pair exclusion                                6.2
X-cycle / XY-cycle (continuous nice loops)            6.5 + length
X-chain (forcing chain on one digit)                  6.6 + length
XY-chain, W-Wing, AIC, nice loop (placing a digit)    7.0 + length
Nishio forcing chains                                 7.5 + length
cell / unit forcing chains                            8.0 + length
dynamic forcing chains                                8.5 + length
====================================================  =========================

Left out of the path on purpose: the UVWXYZ-Wing (6.6; the Sukaku Explainer
that rated the Sudoku Exchange bank did not have it: with it 10 of its 960
diabolical ratings come out 0.5 too low), aligned pair exclusion (6.2,
after the VWXYZ-Wing: it changes none of those 960 ratings and adds some
10 ms to RATE a top1465 puzzle), aligned triple exclusion (7.5,
SE's place is after the chains, before Nishio: there it changes none of
those 960 ratings and adds some 6 ms to RATE a puzzle) and loops mixing cells and digits
(SE's 7.0 bidirectional cycles; the AICs reaching the same eliminations rate
the same within 0.1). Both stay available as named finders
(:data:`TECHNIQUES` entries with ``in_path=False``), with the patterns SE
finds under a more general name: skyscraper, two-string kite, turbot fish,
empty rectangle, the unique rectangle types, W-Wing, simple colouring,
X-chain, XY-chain, AIC and nice loop.

Chains are searched the way Sudoku Explainer does (``Chaining.java``): an
implication graph on single candidates -- "on" implies "off" for the other
candidates of the cell and the same digit in the cell's units; "off"
implies "on" for the last other candidate of a cell (Y link) or the last
other place of a digit in a unit (X link) -- searched breadth first from
every candidate, so each chain found is a shortest one; the step taken is
the one of lowest rating, then fewest nodes. A chain's rating grows with its
length by SE's rule (``ChainingHint.getLengthDifficulty``): +0.1 each time
the number of nodes minus 2 passes 4, 6, 8, 12, 16, 24, 32, ... (alternately
x1.5, x4/3). The forcing-chain search meets in the middle: the graph is its
own contrapositive, so a chain from a candidate to its negation shows up as
a node and its negation both reached within half its length (:func:`.graph.meet`).
Cell and unit forcing chains follow the same static graph to the end;
Nishio and dynamic forcing chains follow a working copy of the grid that
loses every candidate turned off, so new singles count along the way.

Past those, Sudoku Explainer has dynamic forcing chains (+) (9.0 + length)
and nested forcing chains (9.5, 10.0, 10.5 + length, by what runs inside the
chain): :mod:`.nested` has the first three levels as "dynamic forcing
chains plus" (level 1) and "nested forcing chains" (levels 2 and 3), in the
path after dynamic forcing chains when their inner searches run in C
(``techniques/_nested.c`` built and the pure-Python switch off; else named
finders only: in Python a puzzle that needs them takes 4 to 60 s), and
:mod:`.nested_level4` has level 4 (10.5 + length: dynamic forcing chains
inside the chain, SE's "experimental" level), last in the path, its steps
also named "nested forcing chains" (C only; it gives up past a count of work
of some 5 s).

Past dynamic forcing chains the grid still gets a step: a *search step*
(technique ``"search"``), the digit of the solution in the cell with the
fewest candidates, rated from the size of the search needed (clearly labelled, not an SE
rating; :mod:`.search`).

**Sizes.** Singles, intersections, naked and hidden subsets and basic fish
work on every grid from 4x4 to 25x25; the other techniques are for 9x9, so
a larger grid that needs more takes search steps (their search stops at
1,024 nodes there, where the estimate reaches 11.0: :mod:`.search`).

**Units.** The rules come from the grid's geometry, a list of units
(:class:`.board.Tables`): singles, subsets, strong links, wings, ALS wings,
uniqueness, colouring, chains, forcing chains and the search step work on
every unit of the list, so an extra unit (a diagonal, a jigsaw region) is
honoured without touching them; pointing, claiming and basic fish are about
boxes, rows and columns by nature.

**Modules**, one per family: :mod:`.board` (the tables, :class:`Board`, the
finders' context), :mod:`.step` (:class:`Step`), :mod:`.singles`,
:mod:`.intersections`, :mod:`.subsets`, :mod:`.fish`, :mod:`.links` (chains
of strong links on one digit), :mod:`.wings`, :mod:`.uniqueness`,
:mod:`.unique_loops`, :mod:`.exclusion` (aligned pair and triple exclusion),
:mod:`.als` (wings on an almost locked set), :mod:`.colouring`,
:mod:`.graph` (the implication graph), :mod:`.chains`, :mod:`.forcing`
(static cell and unit forcing chains), :mod:`.dynamic` (Nishio and dynamic
forcing chains), :mod:`.nested` (dynamic forcing chains (+) and nested
forcing chains; :mod:`.nested_rules`, the rules inside them; :mod:`.nested_level4`, level 4), :mod:`.search` (the search step); this module holds the
registry (:data:`TECHNIQUES`) and the entry points.

**Soundness.** :func:`solve_steps` checks every step against the puzzle's
solution (a placement is the solution's digit, an elimination never removes
it) and stops with :class:`TechniqueError` if one is not.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sudoku_server.sudoku.check import Check, no_check
from sudoku_server.sudoku.geometry import Geometry
from sudoku_server.sudoku.grid import Grid, cell_name
from sudoku_server.sudoku.techniques.als import find_als_wing
from sudoku_server.sudoku.techniques.board import Board, Context, Tables, tables_of
from sudoku_server.sudoku.techniques.chains import find_chain, find_x_chain, find_xy_chain
from sudoku_server.sudoku.techniques.colouring import find_simple_colouring
from sudoku_server.sudoku.techniques.dynamic import find_dynamic_forcing_chains, find_nishio
from sudoku_server.sudoku.techniques.exclusion import find_aligned_pair_exclusion, find_aligned_triple_exclusion
from sudoku_server.sudoku.techniques.fish import find_fish
from sudoku_server.sudoku.techniques.forcing import find_forcing_chains
from sudoku_server.sudoku.techniques.intersections import find_claiming, find_pointing
from sudoku_server.sudoku.techniques.links import find_strong_links
from sudoku_server.sudoku.techniques.nested import find_dynamic_plus, find_nested_forcing_chains
from sudoku_server.sudoku.techniques.nested_level4 import find_nested_level4
from sudoku_server.sudoku.techniques.nested_rules import NATIVE as NESTED_NATIVE
from sudoku_server.sudoku.techniques.search import search_step
from sudoku_server.sudoku.techniques.singles import find_full_house, find_hidden_single, find_naked_single
from sudoku_server.sudoku.techniques.step import Step, TechniqueError
from sudoku_server.sudoku.techniques.subsets import find_hidden_subset, find_naked_subset
from sudoku_server.sudoku.techniques.unique_loops import find_unique_loop
from sudoku_server.sudoku.techniques.uniqueness import find_avoidable_rectangle, find_bug, find_unique_rectangle
from sudoku_server.sudoku.techniques.variant_rules import (
    RULE_FINDERS,
    applies,
    find_cage_combinations,
    find_rule_of_45,
    rule_notes,
)
from sudoku_server.sudoku.techniques.wings import find_w_wing, find_xy_wing, find_xyz_wing

__all__ = [
    "TECHNIQUES",
    "Board",
    "Step",
    "Tables",
    "Technique",
    "TechniqueError",
    "find_step",
    "next_step",
    "next_step_on",
    "path_step_upto",
    "rule_notes",
    "search_step",
    "solve_steps",
    "steps_on",
    "tables_of",
    "unique_solution",
]

#: A finder: the context of one board state -> the step it finds, or None.
Finder = Callable[[Context], Step | None]


@dataclass(frozen=True)
class Technique:
    """One finder of the registry.

    Attributes:
      name: the registry name (:func:`find_step`); the steps it finds may
        carry a more precise name (``"skyscraper"`` for ``"two strong links"``).
      finder: board context -> Step or None.
      any_size: works on every grid size (else 9x9 only).
      in_path: tried by :func:`next_step` (the others are named patterns
        the path finds under a more general technique).
      constraints_only: reads nothing but the geometry's constraints
        (relations, lines, sums): it finds nothing on a geometry without any,
        so the path leaves it out there (:func:`_path_of`).
    """

    name: str
    finder: Finder
    any_size: bool = False
    in_path: bool = True
    constraints_only: bool = False


TECHNIQUES: tuple[Technique, ...] = (
    Technique("full house", find_full_house, True),
    Technique("hidden single", find_hidden_single, True),
    Technique("naked single", find_naked_single, True),
    # the variant rules that are not units (:mod:`.variant_rules`): nothing to find on other grids
    # a relation's step, named by its rule
    *(Technique(name, finder, True, constraints_only=True) for name, finder in RULE_FINDERS),
    Technique("cage combinations", find_cage_combinations, True, constraints_only=True),
    Technique("rule of 45", find_rule_of_45, True, constraints_only=True),
    Technique("pointing", find_pointing, True),
    Technique("claiming", find_claiming, True),
    Technique("naked pair", functools.partial(find_naked_subset, k=2), True),
    Technique("X-Wing", functools.partial(find_fish, k=2), True),
    Technique("hidden pair", functools.partial(find_hidden_subset, k=2), True),
    Technique("naked triple", functools.partial(find_naked_subset, k=3), True),
    Technique("Swordfish", functools.partial(find_fish, k=3), True),
    Technique("hidden triple", functools.partial(find_hidden_subset, k=3), True),
    Technique("two strong links", functools.partial(find_strong_links, k=2)),
    Technique("XY-Wing", find_xy_wing),
    Technique("XYZ-Wing", find_xyz_wing),
    Technique("unique rectangle", find_unique_rectangle),
    Technique("unique loop", find_unique_loop),  # SE's UniqueLoops past 4 cells (4.6-5.0)
    # a solving state's placed cells only (Board.placed): a puzzle's path never takes it
    Technique("avoidable rectangle", find_avoidable_rectangle),
    Technique("naked quadruple", functools.partial(find_naked_subset, k=4), True),
    Technique("Jellyfish", functools.partial(find_fish, k=4), True),
    Technique("hidden quadruple", functools.partial(find_hidden_subset, k=4), True),
    Technique("three strong links", functools.partial(find_strong_links, k=3)),
    Technique("WXYZ-Wing", functools.partial(find_als_wing, k=3)),
    Technique("BUG", find_bug),
    Technique("four strong links", functools.partial(find_strong_links, k=4)),
    Technique("VWXYZ-Wing", functools.partial(find_als_wing, k=4)),
    # SE's place (6.2); out of the path: it changes no rating of the SE-rated set and costs RATE some 10 ms a
    # top1465 puzzle, past issue 30's p95 of 100 ms (benchmarks/RESULTS.md, "SE's own techniques")
    Technique("aligned pair exclusion", find_aligned_pair_exclusion, in_path=False),
    Technique("UVWXYZ-Wing", functools.partial(find_als_wing, k=5), in_path=False),
    Technique("chains", find_chain),
    # SE's place (7.5, before Nishio); out of the path: it changes no rating of the SE-rated set and costs RATE
    # some 6 ms a puzzle (benchmarks/RESULTS.md, "SE's own techniques")
    Technique("aligned triple exclusion", find_aligned_triple_exclusion, in_path=False),
    Technique("Nishio forcing chains", find_nishio),
    Technique("forcing chains", find_forcing_chains),
    Technique("dynamic forcing chains", find_dynamic_forcing_chains),
    # SE 9.0+, 9.5+ and 10.0+ (:mod:`.nested`), before the search step when their inner searches run in C
    # (techniques/_nested.c); with the Python alone they take 4-60 s a puzzle, past RATE's timeout: named finders only
    Technique("dynamic forcing chains plus", find_dynamic_plus, in_path=NESTED_NATIVE),
    Technique("nested forcing chains", find_nested_forcing_chains, in_path=NESTED_NATIVE),
    # SE 10.5+ (:mod:`.nested_level4`, SE's "experimental" level: dynamic forcing chains inside), last, its inner
    # search in C only; a count of work caps it (some 5 s), past which it finds nothing
    Technique("nested forcing chains level 4", find_nested_level4, in_path=NESTED_NATIVE),
    # named patterns, found by the path under a more general technique
    Technique("skyscraper", functools.partial(find_strong_links, k=2, name="skyscraper"), in_path=False),
    Technique("two-string kite", functools.partial(find_strong_links, k=2, name="two-string kite"), in_path=False),
    Technique("turbot fish", functools.partial(find_strong_links, k=2, name="turbot fish"), in_path=False),
    Technique("empty rectangle", functools.partial(find_strong_links, k=2, name="empty rectangle"), in_path=False),
    Technique("unique rectangle type 1", functools.partial(find_unique_rectangle, types=(1,)), in_path=False),
    Technique("unique rectangle type 2", functools.partial(find_unique_rectangle, types=(2,)), in_path=False),
    Technique("unique rectangle type 3", functools.partial(find_unique_rectangle, types=(3,)), in_path=False),
    Technique("unique rectangle type 4", functools.partial(find_unique_rectangle, types=(4,)), in_path=False),
    Technique("W-Wing", find_w_wing, in_path=False),
    Technique("simple colouring", find_simple_colouring, in_path=False),
    Technique("X-chain", find_x_chain, in_path=False),
    Technique("XY-chain", find_xy_chain, in_path=False),
    Technique("AIC", lambda x: find_chain(x, modes=("xy",), cycles=()), in_path=False),
    Technique(
        "nice loop", lambda x: find_chain(x, modes=("y", "xy"), cycles=("y", "xy"), forcing=False), in_path=False
    ),
)

_BY_NAME = {tech.name: tech for tech in TECHNIQUES}


def find_step(board: Board, technique: str, *, check: Check | None = None) -> Step | None:
    """Look for one technique (a :data:`TECHNIQUES` name) on the board; None if absent.

    Raises:
      KeyError: an unknown technique name.
    """
    tech = _BY_NAME[technique]
    if not tech.any_size and board.size != 9:
        return None
    return tech.finder(Context(board, check or no_check))


#: Each name's first place in :data:`TECHNIQUES` (where :func:`_path_step`'s ``last`` stops the path).
_INDEX: dict[str, int] = {}
for _i, _tech in enumerate(TECHNIQUES):
    _INDEX.setdefault(_tech.name, _i)

#: The path's finders per board tables (:func:`_path_of`).
_PATHS: weakref.WeakKeyDictionary[Tables, tuple[tuple[int, Finder], ...]] = weakref.WeakKeyDictionary()


def _path_of(t: Tables) -> tuple[tuple[int, Finder], ...]:
    """The finders the path tries on a board of these tables, in order, with their places in :data:`TECHNIQUES`
    (made once per tables: the techniques in the path for the grid's size and rules, less those that read only
    constraints when the geometry has none)."""
    path = _PATHS.get(t)
    if path is None:
        geo = t.geometry
        nine = t.n == 9
        path = _PATHS[t] = tuple(
            (i, tech.finder)
            for i, tech in enumerate(TECHNIQUES)
            if tech.in_path
            and (tech.any_size or nine)
            and (geo.classic or applies(tech.name, geo))
            and not (tech.constraints_only and not geo.constraints)
        )
    return path


def _path_step(board: Board, check: Check, last: str | None = None) -> Step | None:
    x = Context(board, check)
    stop = len(TECHNIQUES) if last is None else _INDEX.get(last, len(TECHNIQUES))
    for i, finder in _path_of(board.t):
        if i > stop:
            break
        check()
        step = finder(x)
        if step is not None:
            return step
    return None


def path_step_upto(board: Board, solution: Sequence[int], last: str, *, check: Check | None = None) -> Step | None:
    """The path's next step if one of the finders up to ``last`` (a :data:`TECHNIQUES` name) finds it, else None.

    The finders run in the path's order and stop after ``last``: None means
    the path's step, if the board is not solved, comes from a later finder or
    is the search step. The step is checked against ``solution`` (as
    :func:`next_step_on`).

    Raises:
      TechniqueError: the step contradicts the solution (a bug).
    """
    if board.solved():
        return None
    step = _path_step(board, check or no_check, last)
    if step is not None:
        _verify(step, solution, board)
    return step


def _verify(step: Step, solution: Sequence[int], board: Board) -> None:
    n = board.size
    changed = False
    for c, d in step.placements:
        if solution[c] != d:
            raise TechniqueError(f"{step.technique} placed {d} at {cell_name(c, n)}, the solution has {solution[c]}")
        if not board.values[c]:
            changed = True
    for c, d in step.eliminations:
        if solution[c] == d:
            raise TechniqueError(f"{step.technique} removed {d} from {cell_name(c, n)}, the solution's digit")
        if board.cand[c] >> (d - 1) & 1:
            changed = True
    if not changed:
        raise TechniqueError(f"{step.technique} changed nothing: {step.describe()}")


def next_step_on(board: Board, solution: Sequence[int], *, check: Check | None = None) -> Step | None:
    """The easiest step on a board whose solution is known; None when it is solved.

    The step is checked against ``solution`` (81 ints, 1-based digits).

    Raises:
      TechniqueError: the step contradicts the solution (a bug).
    """
    if board.solved():
        return None
    return _checked_step(board, solution, check or no_check)


def _checked_step(board: Board, solution: Sequence[int], check: Check) -> Step:
    """The easiest step on a board that is not solved (the search step if no technique applies), checked."""
    step = _path_step(board, check)
    if step is None:
        step = search_step(board, solution, check)
    _verify(step, solution, board)
    return step


def steps_on(board: Board, solution: Sequence[int], *, check: Check | None = None) -> list[Step]:
    """Apply the easiest step until the board is solved; the steps in order (the board is changed).

    Raises:
      TechniqueError: a step contradicts the solution (a bug).
    """
    check = check or no_check
    steps = []
    while not board.solved():
        step = _checked_step(board, solution, check)
        board.apply(step)
        steps.append(step)
    return steps


# --------------------------------------------------------------------------
# The public entry points: puzzles with exactly one solution


def unique_solution(grid: Grid, *, check: Check | None = None, geometry: Geometry | None = None) -> tuple[int, ...]:
    """The solution of a puzzle that must have exactly one.

    Returns:
      tuple: ``size * size`` digits row-major.

    Raises:
      InvalidPuzzleError: two givens share a unit.
      UnsolvableError: no solution (the detail of :func:`solver.solve`, naming
        the place: "no digit fits r1c5").
      MultipleSolutionsError: several solutions; the detail names a cell that
        differs between two of them: "the puzzle has more than one solution
        (r1c2 can be 3 or 5)".
    """
    from sudoku_server.errors import MultipleSolutionsError
    from sudoku_server.sudoku.solver import count_solutions, solve

    first = solve(grid, check=check, geometry=geometry)
    if count_solutions(grid, 2, check=check, geometry=geometry) < 2:
        return first.cells
    # the first empty cell (row-major) whose digit is not forced once the
    # cells before it take the first solution's digits: a binary search
    empties = [i for i, v in enumerate(grid.cells) if not v]

    def fixed(k: int) -> Grid:
        cells = list(grid.cells)
        for i in empties[:k]:
            cells[i] = first.cells[i]
        return Grid(tuple(cells), grid.box_rows, grid.box_cols, grid.symbols)

    lo, hi = 0, len(empties)  # count(fixed(lo)) >= 2, count(fixed(hi)) == 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if count_solutions(fixed(mid), 2, check=check, geometry=geometry) >= 2:
            lo = mid
        else:
            hi = mid
    cell = empties[hi - 1]
    base = list(fixed(hi - 1).cells)
    other = None
    for d in range(1, grid.size + 1):
        if d == first.cells[cell]:
            continue
        base[cell] = d
        if count_solutions(
            Grid(tuple(base), grid.box_rows, grid.box_cols, grid.symbols), 1, check=check, geometry=geometry
        ):
            other = d
            break
    assert other is not None  # two solutions differ at ``cell``: another digit fits there
    a, b = sorted((first.cells[cell], other))
    raise MultipleSolutionsError(
        f"the puzzle has more than one solution ({cell_name(cell, grid.size)} can be "
        f"{grid.symbol(a)} or {grid.symbol(b)})"
    )


def next_step(grid: Grid, *, check: Check | None = None, geometry: Geometry | None = None) -> Step | None:
    """The easiest logical step on a puzzle (the first of :func:`solve_steps`); None if it is full.

    Args:
      grid: the puzzle (``size * size`` ints row-major, 0 = empty); its
        candidates are the digits no peer holds.
      check: called between finders and inside long searches (well under a
        few milliseconds apart); whatever it raises propagates.
      geometry: the puzzle's rules (a variant's geometry,
        :func:`~sudoku_server.sudoku.variants.variant_geometry`); None: the
        classic rules of the grid's box shape. Families that do not apply
        to the rules stay out of the path (:func:`rule_notes` says which).

    Raises:
      InvalidPuzzleError, UnsolvableError, MultipleSolutionsError: as
        :func:`unique_solution` (a puzzle needs exactly one solution).
      TechniqueError: a step contradicted the solution (a bug).
    """
    solution = unique_solution(grid, check=check, geometry=geometry)
    return next_step_on(Board.from_grid(grid, geometry), solution, check=check)


def solve_steps(grid: Grid, *, check: Check | None = None, geometry: Geometry | None = None) -> list[Step]:
    """Every step from the puzzle to its solution, easiest technique first at each point.

    Args, Raises: as :func:`next_step`.

    Returns:
      list of :class:`Step`: applying them in order to the puzzle's
      candidates solves it; each was checked against the solution.
    """
    solution = unique_solution(grid, check=check, geometry=geometry)
    return steps_on(Board.from_grid(grid, geometry), solution, check=check)
