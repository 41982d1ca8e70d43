"""Puzzle generation: random solved grids, and minimal puzzles with one solution.

Pure and synchronous; imports no I/O. The one entry point is :func:`generate`.

**Randomness.** Everything random comes from SplitMix64 (:class:`SplitMix64`;
Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
OOPSLA 2014, in Vigna's reference form ``prng.di.unimi.it/splitmix64.c``):
64-bit integer arithmetic only, so a seed gives the same numbers on every
machine and every Python version. Python's :mod:`random` is not used (its
reproducibility promise covers ``random()`` only). Shuffles decode one big
random integer as a fraction (:func:`permutation`), so they need no floats
and no rejection loop, and each is within ``2**-64`` of uniform.

From ``rng = SplitMix64(seed)`` three words are drawn, always, in this order
and whatever the options:

1. ``rng.below(4)`` picks the symmetry when ``symmetry="random"``
   (:data:`RANDOM_SYMMETRIES`);
2. ``grid_key``: attempt ``a`` (0, then 1... see below) of the full grid
   takes ``key = SplitMix64(grid_key + a).next()``, and cell ``c`` tries its
   digits in the order ``permutation(SplitMix64(key + c), size)``;
3. ``order_key``: the orbits (:func:`orbits`) are tried for removal in the
   order ``permutation(SplitMix64(order_key), len(orbits))``.

So ``generate(seed=s, full=True).solution`` is the solution of
``generate(seed=s)``, and ``symmetry="random"`` gives exactly the puzzle of
the symmetry it reports, with the same seed.

**The full grid** (:func:`_full_grid`) is a depth-first search from the
empty grid with the solver's propagation (naked singles, hidden singles,
locked candidates), branching on the open cell with the fewest candidates
(the first in row-major order among equals) and trying its candidates in a
random order of the digits drawn for that cell (from its own stream,
``SplitMix64(key + cell)``, so the draws do not depend on the path of the
search). Measured: 0.6 (9x9) to 0.8 (25x25) search nodes per cell, and no
restart in 100,000 grids of 9x9, 1,000 of 16x16 and 100 of 25x25 (seeds
0 up). The fixed random cell order of the "random full grid" articles
thrashes instead: 2.4 million nodes for one of 200 9x9 seeds, and a 25x25
grid unfinished after minutes. A search that passes ``4 * cells`` nodes
starts over with the next key (a safety net). The grid of a seed depends on
the seed and on what propagation removes, and propagation computes the
fixpoint of its rules, whatever order they run in: any solver core with the
same rules gives the same grid.

**The puzzle** starts as the full grid and loses its givens one symmetry
orbit at a time (a cell and its images under the symmetry), in a random
order of the orbits, in one pass: an orbit goes when the puzzle keeps
exactly one solution. One pass is enough for minimality: a puzzle with two
solutions keeps both when more givens go, so an orbit that had to stay
still has to at the end. On the pure-Python solver core, uniqueness is
proved without counting to 2 (:class:`_Proofs`):

* the solution ``S`` is known and the puzzle had one solution before, so
  after removing orbit ``O`` any other solution differs from ``S`` inside
  ``O``: the puzzle is unique iff, for each cell ``c`` of ``O``, no solution
  has a digit other than ``S[c]`` at ``c`` -- one existence search per cell
  (:func:`_exists`, with the cells of ``O`` already cleared fixed to their
  digits of ``S``), which answers as soon as it finds one solution;
* a cell that propagation from the remaining givens fixes to ``S[c]``
  costs one propagation and no search;
* consecutive orbits of the order are tried together while propagation
  fixes all of their cells (the group doubles after a success, halves after
  a failure, and single orbits follow the first failure of a pair). This
  gives the puzzle that removing them one at a time gives (each
  intermediate puzzle has more givens, so it is unique too), for a few
  propagations instead of dozens.

When the solver runs another core (``solver.CORE`` other than
``"python"``: the C extension), each test is one call of its
``count_solutions(limit=2)`` instead (:class:`_Counts`; groups are accepted
when the count is 1): measured with the C core of the ``native`` branch,
2.6x to 2.9x less CPU time than the Python proofs (9x9 median 0.95 ms
against 3.4 ms, 16x16 0.15 s against 0.47 s). The full grid stays on the
Python engine (0.6 ms of those 0.95).

Whether an orbit can go is a fact about the puzzle, not about how the search
looks, so the puzzle depends only on the full grid and the order: the
search heuristics and the core can change without changing any puzzle
(a test runs both kinds of removal tests on the same seeds).

**Stopping.** ``check()`` is called at every search node, before every
removal test, and (16x16 and up) every propagation round; whatever it raises
ends the generation and propagates unchanged. It may block (the server
pauses long work through it).
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sudoku_server.sudoku import solver as _solver
from sudoku_server.sudoku.check import Check, no_check
from sudoku_server.sudoku.geometry import BOX_SHAPES, classic
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.seeded import SEED_LIMIT, SplitMix64, permutation
from sudoku_server.sudoku.solver._bitboard import Engine
from sudoku_server.sudoku.solver._python import _engine as _solver_engine
from sudoku_server.sudoku.variants import CLASSIC, Variant

__all__ = [
    "DEFAULT_GIVENS",
    "RANDOM_SYMMETRIES",
    "SEED_LIMIT",
    "SIZES",
    "SYMMETRIES",
    "Generated",
    "SplitMix64",
    "generate",
    "orbits",
    "permutation",
]

#: Grid sizes :func:`generate` makes (digits per unit; boxes of
#: :data:`geometry.BOX_SHAPES`, the one list of the sizes).
SIZES = tuple(sorted(BOX_SHAPES))

#: The sizes as the error message words them: "4, 6, 9, 16 or 25".
_SIZES_TEXT = ", ".join(map(str, SIZES[:-1])) + f" or {SIZES[-1]}"

#: Symmetries of the givens' positions (not of their digits):
#:
#: * ``none``: every cell is its own orbit;
#: * ``rot180``: ``r, c`` and ``n+1-r, n+1-c`` (half turn about the centre);
#: * ``rot90``: the four quarter-turn images of a cell;
#: * ``mirror``: ``r, c`` and ``r, n+1-c`` (left-right, QQWing's ``mirror``);
#: * ``diagonal``: ``r, c`` and ``c, r`` (across the main diagonal).
SYMMETRIES = ("none", "rot180", "rot90", "mirror", "diagonal")

#: What ``symmetry="random"`` picks from (with the seed): the real symmetries.
RANDOM_SYMMETRIES = ("rot180", "rot90", "mirror", "diagonal")


#: A full-grid search that passes this many nodes per cell starts over with
#: the next key (measured: 0.6 to 0.8 nodes per cell, sizes 4 to 25).
_NODES_PER_CELL = 4

#: The first group of orbits tried together in the removal pass.
_FIRST_GROUP = 4

#: The givens floor :func:`generate` applies when none is asked for
#: (``givens=None``), per size: only 25x25 has one. A minimal 25x25 puzzle
#: takes minutes (its last uniqueness proofs are long searches); measured
#: with the C core, seeds 0-9: floor 320 0.07-0.12 s, 310 0.08-0.6 s, 300
#: several seeds past 12 s, 280 every seed past 12 s. ``givens=0`` still asks
#: for a minimal puzzle.
DEFAULT_GIVENS = {25: 320}


@functools.cache
def orbits(size: int, symmetry: str) -> tuple[tuple[int, ...], ...]:
    """The orbits of the cells of a ``size x size`` grid under a symmetry.

    Returns:
      tuple of tuples of cell indices (row-major, 0-based), each sorted, in
      the order of each orbit's first cell; every cell in exactly one.
      ``rot90`` orbits have 4 cells (1 at the centre of odd sizes),
      ``rot180``, ``mirror`` and ``diagonal`` 2 (1 on their axis), ``none`` 1.

    Raises:
      ValueError: an unknown symmetry.
    """
    last = size - 1
    # each symmetry as a map of the square grid's cells: (row, column) -> its images
    maps: dict[str, Callable[[int, int], tuple[tuple[int, int], ...]]] = {
        "none": lambda r, c: ((r, c),),
        "rot180": lambda r, c: ((r, c), (last - r, last - c)),
        "rot90": lambda r, c: ((r, c), (c, last - r), (last - r, last - c), (last - c, r)),
        "mirror": lambda r, c: ((r, c), (r, last - c)),
        "diagonal": lambda r, c: ((r, c), (c, r)),
    }
    images = maps.get(symmetry)
    if images is None:
        raise ValueError(f"unknown symmetry {symmetry!r}")
    seen: set[int] = set()
    out = []
    for cell in range(size * size):
        if cell in seen:
            continue
        orbit = tuple(sorted({r * size + c for r, c in images(*divmod(cell, size))}))
        seen.update(orbit)
        out.append(orbit)
    return tuple(out)


@dataclass(frozen=True)
class Generated:
    """What :func:`generate` made.

    Attributes:
      puzzle: the puzzle, a :class:`Grid` (``size * size`` ints row-major,
        0 = empty); for ``full=True`` the full grid itself (no empty cell).
      solution: its one solution (for ``full=True``, the same grid).
      seed: the seed used, in ``range(SEED_LIMIT)``: pass it back to
        :func:`generate` with the same options for the same puzzle.
      symmetry: the symmetry of the givens (one of :data:`SYMMETRIES`; the
        one picked when ``random`` was asked; ``none`` for a full grid).
      givens: how many cells of ``puzzle`` are given.
      minimal: True when every orbit was tested, so that no given (no
        orbit of givens, with a symmetry) can be removed keeping one
        solution; False for a full grid and when the ``givens`` floor kept
        an orbit from being tested.
      variant: the rules the puzzle follows, with the jigsaw regions or
        killer cages made for it (:mod:`.variant_generator`); CLASSIC here.
    """

    puzzle: Grid
    solution: Grid
    seed: int
    symmetry: str
    givens: int
    minimal: bool
    variant: Variant = CLASSIC

    @property
    def size(self) -> int:
        """Digits per unit (9 for classic Sudoku)."""
        return self.puzzle.size


def generate(
    size: int = 9,
    *,
    symmetry: str = "none",
    givens: int | None = None,
    seed: int | None = None,
    full: bool = False,
    check: Check | None = None,
) -> Generated:
    """Make a random full grid, or a puzzle with exactly one solution.

    With ``full=False`` (the default) the puzzle has one solution and is
    minimal under ``symmetry``: no given (no orbit of givens) can be removed
    keeping it unique.

    ``givens=N`` sets a floor: the removal pass (module docstring) removes
    an orbit only when the puzzle stays unique *and* keeps at least ``N``
    givens; an orbit that would go below ``N`` is left untested, and
    :attr:`Generated.minimal` is then False. So the puzzle has ``N`` givens
    or more. It is the minimal puzzle of the same seed when that one has at
    least ``N + k`` givens (``k``: the largest orbit, 1 with no
    symmetry, 4 with ``rot90``); otherwise the pass stops on the way to it,
    with ``N`` to ``N + k - 1`` givens. ``givens=size*size`` returns the
    full grid as the puzzle. With ``givens=None`` the floor is the size's
    default, :data:`DEFAULT_GIVENS` (320 at 25x25, none at the other sizes).

    Args:
      size: digits per unit, one of :data:`SIZES` (boxes 2x2, 2x3, 3x3,
        4x4, 5x5). Pure Python, measured: 9x9 about 4 ms, 16x16 about 0.3 s;
        25x25 full grids 0.2 s and puzzles down to ``givens=315`` about a
        second, but a minimal 25x25 puzzle (``givens=0``) takes far longer
        (its last uniqueness proofs are searches of minutes): stop it
        through ``check``.
      symmetry: one of :data:`SYMMETRIES`, or ``"random"`` (one of
        :data:`RANDOM_SYMMETRIES`, picked from the seed).
      givens: the floor described above, ``0 .. size * size``; 0 for a
        minimal puzzle; None for the size's default (:data:`DEFAULT_GIVENS`:
        a minimal puzzle except at 25x25, where the floor is 320).
      seed: an int in ``range(SEED_LIMIT)``; the same seed and options give
        the same puzzle on every machine and Python version. None draws one
        from :mod:`secrets`; it is returned in :attr:`Generated.seed`.
      full: return a random solved grid instead of a puzzle (then
        ``symmetry`` must be ``"none"`` and ``givens`` None).
      check: the stop hook, as for :func:`solver.solve`: called at least
        every few milliseconds (9x9: every search node, well under one);
        whatever it raises ends the generation and propagates.

    Returns:
      Generated: the puzzle, its solution, the seed, the symmetry used, the
      number of givens.

    Raises:
      ValueError: an option out of range; the message names it as the wire
        does: ``"size must be 4, 6, 9, 16 or 25, not 10"``.
    """
    if check is None:
        check = no_check
    size = _check_int("size", size, None, None)
    if size not in SIZES:
        raise ValueError(f"size must be {_SIZES_TEXT}, not {size}")
    if not isinstance(symmetry, str) or symmetry not in SYMMETRIES + ("random",):
        raise ValueError(f"symmetry must be none, rot180, rot90, mirror, diagonal or random, not {symmetry!r}")
    ncells = size * size
    if givens is not None:
        givens = _check_int("givens", givens, 0, ncells)
    if seed is None:
        seed = secrets.randbits(64)
    else:
        seed = _check_int("seed", seed, 0, SEED_LIMIT - 1)
    if full and symmetry != "none":
        raise ValueError("symmetry applies to puzzles, not to a full grid")
    if full and givens is not None:
        raise ValueError("givens applies to puzzles, not to a full grid")
    if givens is None and not full:
        givens = DEFAULT_GIVENS.get(size)

    rng = SplitMix64(seed)
    pick = rng.below(len(RANDOM_SYMMETRIES))
    if symmetry == "random":
        symmetry = RANDOM_SYMMETRIES[pick]
    grid_key = rng.next()
    order_key = rng.next()

    box_rows, box_cols = BOX_SHAPES[size]
    engine = _solver_engine(Grid((0,) * ncells, box_rows, box_cols), classic(box_rows, box_cols))
    check()
    solved = _full_grid(engine, grid_key, check)
    solution = Grid(engine.digits(solved), box_rows, box_cols)
    if full:
        return Generated(solution, solution, seed, "none", ncells, False)

    cell_orbits = orbits(size, symmetry)
    order = permutation(SplitMix64(order_key), len(cell_orbits))
    count = _core_count()
    tests = _Proofs(engine, solved, check) if count is None else _Counts(count, solution, check)
    kept, minimal = _remove_givens(engine, solved, [cell_orbits[i] for i in order], givens or 0, tests, check)
    puzzle = Grid(
        tuple(d if kept >> (c * engine.width) & engine.digit_mask else 0 for c, d in enumerate(solution.cells)),
        box_rows,
        box_cols,
    )
    return Generated(puzzle, solution, seed, symmetry, sum(1 for d in puzzle.cells if d), minimal)


def _check_int(name: str, value: object, low: int | None, high: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, not {value!r}")
    if low is not None and high is not None and not low <= value <= high:
        raise ValueError(f"{name} must be from {low} to {high}, not {value}")
    return value


def _full_grid(engine: Engine, key: int, check: Check) -> int:
    """A random solved state (see the module docstring): attempt after attempt."""
    attempt = 0
    while True:
        solved = _full_grid_attempt(engine, SplitMix64(key + attempt), check)
        if solved:
            return solved
        attempt += 1


def _full_grid_attempt(engine: Engine, rng: SplitMix64, check: Check, nodes_per_cell: int = _NODES_PER_CELL) -> int:
    """One depth-first search for a solved state, or 0 past its node budget (``nodes_per_cell * cells``).

    Branches on the open cell with the fewest candidates (the first in
    row-major order among equals), first on its candidate that comes first
    in the cell's own random order of the digits,
    ``permutation(SplitMix64(key + cell), n)`` with ``key = rng.next()``,
    then on the other candidates.
    """
    n, w, mask = engine.n, engine.width, engine.digit_mask
    ones, full, spare = engine.cell_ones, engine.full, engine.spare
    propagate, elim = engine.propagate, engine.elim
    key = rng.next()
    digit_orders: dict[int, list[int]] = {}
    budget = nodes_per_cell * engine.ncells
    stack = [(full, 0)]
    while stack:
        check()
        budget -= 1
        if budget < 0:
            return 0
        s, done = stack.pop()
        s, done = propagate(s, done, check)
        if not s:
            continue
        r = s & (s - ones)  # each cell without its lowest candidate
        if not r:
            return s
        # ``more``: spare bits of the cells with k candidates or more
        more = (r + full) & spare
        while True:
            r = r & ((r | spare) - ones)
            fewer = more
            more = (r + full) & spare
            exact = fewer ^ more  # cells with exactly k candidates
            if exact:
                break
        at = (exact & -exact).bit_length() - 1 - n  # its first bit
        cell = at // w
        digits = digit_orders.get(cell)
        if digits is None:
            digits = digit_orders[cell] = permutation(SplitMix64(key + cell), n)
        m = (s >> at) & mask
        for d in digits:
            if m >> d & 1:
                break
        b = 1 << (at + d)
        stack.append((s ^ b, done))
        stack.append((s ^ (s & elim[b.bit_length()]), done))
    return 0


def _exists(engine: Engine, s: int, done: int, solved: int, check: Check, budget: int | None = None) -> bool | None:
    """Whether the (unpropagated) state ``s`` has a solution: a depth-first search.

    It branches on the solver's choice of cell (``pick``), trying first the
    digit of ``solved`` there when it is still a candidate. Measured over
    whole 16x16 generations (seeds 0-11): 1.0x to 2.5x fewer propagations
    than the solver's digit order, 1.7x in all; 9x9 within 10% either way
    (the answer is the same; only a search that finds a solution stops
    early, and when it does depends on the order). Tried and dropped, as they cost more
    nodes on 16x16: randomised restarts, a second cell choice interleaved,
    limited-discrepancy passes first, branching on the removed cell first.

    With ``budget``, at most that many search nodes: None when it needs more
    (the variant generator's bounded removal; a node count, not time, so a
    seed makes the same puzzle on any machine).
    """
    propagate, pick, elim = engine.propagate, engine.pick, engine.elim
    w, mask = engine.width, engine.digit_mask
    stack = [(s, done)]
    nodes = 0
    while stack:
        nodes += 1
        if budget is not None and nodes > budget:
            return None
        check()
        s, done = stack.pop()
        s, done = propagate(s, done, check)
        if not s:
            continue
        b = pick(s)
        if not b:
            return True
        near = solved & s & (mask << ((b.bit_length() - 1) // w * w))
        if near:
            b = near
        stack.append((s ^ b, done))
        stack.append((s ^ (s & elim[b.bit_length()]), done))
    return False


def _remove_givens(
    engine: Engine,
    solved: int,
    ordered: Sequence[tuple[int, ...]],
    floor: int,
    tests: _Proofs | _Counts,
    check: Check,
) -> tuple[int, bool]:
    """The one-pass removal (module docstring).

    Args:
      solved: the full grid's state (one candidate per cell).
      ordered: the orbits, in removal order.
      floor: keep at least this many givens.
      tests: the uniqueness tests, :class:`_Proofs` or :class:`_Counts`.

    Returns:
      (kept, minimal): the mask of the given cells (every digit bit of each),
      and whether every orbit was tested.
    """
    w, mask = engine.width, engine.digit_mask
    own = [mask << (c * w) for c in range(engine.ncells)]
    masks = []
    for orbit in ordered:
        m = 0
        for c in orbit:
            m |= own[c]
        masks.append(m)
    kept = engine.full  # every digit bit of every given cell
    count = engine.ncells
    minimal = True
    i, group, total = 0, _FIRST_GROUP, len(ordered)
    while i < total:
        check()
        if group > 1:
            # several orbits at once
            removed, cells, j = 0, 0, i
            while j < total and j - i < group and count - cells - len(ordered[j]) >= floor:
                removed |= masks[j]
                cells += len(ordered[j])
                j += 1
            if j - i > 1:
                rest = kept ^ removed
                if tests.group_unique(rest, removed, ordered[i:j]):
                    tests.remove(ordered[i:j])
                    kept, count, i = rest, count - cells, j
                    group *= 2
                    continue
                group = max(1, (j - i) // 2)
                continue
            group = 1
        orbit = ordered[i]
        i += 1
        if count - len(orbit) < floor:
            minimal = False
            continue
        rest = kept ^ masks[i - 1]
        if tests.orbit_unique(rest, orbit):
            tests.remove((orbit,))
            kept, count = rest, count - len(orbit)
    return kept, minimal


class _Proofs:
    """Uniqueness tests on the pure-Python engine: propagation, existence searches.

    ``rest`` is the mask of the givens left (every digit bit of each given
    cell); the puzzle before the removal had one solution, ``solved``. The
    states start from ``engine.root`` (``full``, or the candidate masks of
    a rule such as odd/even), so a rule's masks count in every proof.
    """

    def __init__(self, engine: Engine, solved: int, check: Check) -> None:
        self.engine, self.solved, self.check = engine, solved, check
        w, mask = engine.width, engine.digit_mask
        self.own = [mask << (c * w) for c in range(engine.ncells)]

    def group_unique(self, rest: int, removed: int, orbits: Sequence[tuple[int, ...]]) -> bool:
        """True when propagation from ``rest`` alone fixes every cell of ``removed``."""
        engine, solved = self.engine, self.solved
        s, _ = engine.propagate(engine.root & ~(rest ^ (rest & solved)), 0, self.check)
        return s & removed == solved & removed

    def orbit_unique(self, rest: int, orbit: tuple[int, ...]) -> bool:
        """Whether the givens ``rest`` (the puzzle without ``orbit``) still have one solution.

        Any other solution differs from ``solved`` inside ``orbit``: for each
        of its cells, search for a solution with another digit there, the
        earlier cells fixed to theirs.
        """
        engine, solved, own, check = self.engine, self.solved, self.own, self.check
        root = engine.root & ~(rest ^ (rest & solved))
        if len(orbit) == 1:
            # propagation refutes it at once when the cell is forced
            return not _exists(engine, root ^ (solved & own[orbit[0]]), 0, solved, check)
        s, done = engine.propagate(root, 0, check)
        for c in orbit:
            value = solved & own[c]
            if s & own[c] == value:
                continue  # forced by propagation
            if _exists(engine, s ^ value, done, solved, check):
                return False
            s ^= s & own[c] & ~value  # no other digit here: fix it
        return True

    def remove(self, orbits: Sequence[tuple[int, ...]]) -> None:
        """The orbits are gone from the puzzle (``rest`` tells the rest)."""


class _Counts:
    """Uniqueness tests through the solver's ``count_solutions(limit=2)``.

    Used when the solver's core is not the pure-Python engine (the C
    extension counts several times faster than the proofs of :class:`_Proofs`
    run in Python). Either way a test answers whether the puzzle is unique,
    so both give the same puzzles (tested).
    """

    def __init__(self, count: Callable[..., int], solution: Grid, check: Check) -> None:
        self.count, self.check = count, check
        self.values = list(solution.cells)
        self.shape = (solution.box_rows, solution.box_cols)

    def _unique_without(self, orbits: Sequence[tuple[int, ...]]) -> bool:
        values = self.values[:]
        for orbit in orbits:
            for c in orbit:
                values[c] = 0
        return self.count(Grid(tuple(values), *self.shape), 2, check=self.check) == 1

    def group_unique(self, rest: int, removed: int, orbits: Sequence[tuple[int, ...]]) -> bool:
        return self._unique_without(orbits)

    def orbit_unique(self, rest: int, orbit: tuple[int, ...]) -> bool:
        return self._unique_without((orbit,))

    def remove(self, orbits: Sequence[tuple[int, ...]]) -> None:
        for orbit in orbits:
            for c in orbit:
                self.values[c] = 0


def _core_count() -> Callable[..., int] | None:
    """The solver's ``count_solutions`` when its core is not the pure-Python engine."""
    if _solver.CORE == "python":
        return None
    return _solver.count_solutions
