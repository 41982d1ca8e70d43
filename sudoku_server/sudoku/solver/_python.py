"""The pure-Python solver core: propagation and search. Pure and synchronous; imports no I/O.

The fallback when the native core (``_native``) is not built, and the oracle
it is tested against; :mod:`.solver` chooses between them and states the
contract both keep.

**Rules.** A search node is one int, a bitboard of candidates; the rules
(naked singles, hidden singles, locked candidates over every pair of units
that share two cells or more) are generated from the geometry's units and
run on every cell, unit and digit at once: :mod:`._bitboard` has the design.
This module is the search, the stop hook and the words of a failure, and
knows nothing of rows, columns or boxes: only the engine's ``propagate``,
``pick`` and ``elim``.

**Search** branches two ways on one candidate: assign it, or remove it. The
candidate (:meth:`Engine.pick`) is the lower digit of the cell with two
candidates that has the most open peers (measured: 1.8x to 2.7x fewer nodes
than the first such cell on the hard sets); when no cell has two
candidates, a digit with two places in a unit (the constraint-level choice
of exact cover solvers, Knuth's "Dancing Links"; without it Norvig's
``hard1`` takes 94,000 nodes to a first solution instead of 31); else the
first cell with the fewest candidates.

**The answer** is the *first solution in row-major order*: the one the naive
backtracker (1..n in each empty cell, left to right, top to bottom) prints
first, i.e. the smallest solution read as one number. Propagation cannot
change it (it removes only impossible candidates); the search order must
not either, so :func:`solve` runs two complete searches, interleaved:

* branch and bound: the search above; each solution found becomes the
  bound, and a node is cut unless it may hold a smaller solution. The bound
  also propagates (``_Bound.cut``): cells before the first cell that can
  still go below the bound must equal it, and that cell must not exceed it.
  On a puzzle with one solution this costs less than a uniqueness proof.
* row-major: branch on the first open cell, lowest digit first, under the
  same bound; the first solution it reaches is the answer. It starts once a
  bound exists and gets one node per eight of the first; one per one once a
  second solution is known (puzzles with many solutions, such as the empty
  grid or ``hard1``, where choosing cells by constraint wanders).

Whichever finishes first answers: a puzzle costs about the better of the two
(proofs for hard puzzles with one solution, plain order for open ones).

**Stopping.** Every search node calls ``check()`` (16x16 and larger grids
also every propagation round); the server passes
``trio.from_thread.check_cancelled`` so that a timed-out solve really stops.

**Limits.** Pure Python: about 25 us per node for 9x9 here. The empty 25x25
grid is not solved in reasonable time (the row-major search meets a dead end
it cannot refute quickly); the server's timeout stops it through ``check``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Generator

from sudoku_server.errors import UnsolvableError
from sudoku_server.sudoku.check import Check, no_check
from sudoku_server.sudoku.geometry import Geometry, cell_name
from sudoku_server.sudoku.grid import Grid, check_givens
from sudoku_server.sudoku.solver._bitboard import Engine, engine

__all__ = ["Check", "count_solutions", "solve", "solve_any"]

#: Nodes of the branch and bound per node of the row-major search while at
#: most one solution is known. Measured on top1465 and forum hardest 1106:
#: 4, 8, 16 and "never" cost within 3% of each other in propagations (the
#: row-major search sometimes finishes first); 8 keeps it as a safety net.
_TURNS = 8


def _engine(grid: Grid, geometry: Geometry | None = None) -> Engine:
    """The compiled engine of ``geometry``, or of the classic geometry of ``grid``'s box shape."""
    return engine(grid.geometry if geometry is None else geometry)


class _Bound:
    """The smallest solution found so far, and the lexicographic cut it implies."""

    __slots__ = ("above", "below", "best", "improved")

    def __init__(self) -> None:
        self.best = 0  # a solved state, 0 while none is known
        self.below = 0  # each cell's candidates smaller than its digit in best
        self.above = 0  # each cell's candidates larger than its digit in best
        self.improved = 0  # solutions found

    def offer(self, s: int, engine: Engine) -> None:
        """Make the solved state ``s`` the bound (the cut guarantees it is smaller)."""
        self.best = s
        self.below = s - engine.cell_ones  # one bit per cell: no borrow between cells
        self.above = engine.full ^ (s | self.below)
        self.improved += 1

    def cut(self, s: int, done: int, engine: Engine, check: Check) -> tuple[int, int]:
        """``s`` restricted to solutions smaller than ``best``: (s, done) or (0, 0).

        Cells before the first cell that can go below ``best`` must equal it
        (else the solution would be larger), and that cell cannot exceed it.
        """
        w, propagate = engine.width, engine.propagate
        best = self.best
        while True:
            lower = s & self.below
            if not lower:
                return 0, 0  # every cell is at least best's digit
            first = ((lower & -lower).bit_length() - 1) // w
            missing = best ^ (best & s)
            if missing and ((missing & -missing).bit_length() - 1) // w < first:
                return 0, 0  # an earlier cell already exceeds best
            shift = first * w
            above = (engine.digit_mask << shift) & self.above
            cut = (s >> shift << shift) | (best & ((1 << shift) - 1))
            cut ^= cut & above
            if cut == s:
                return s, done
            s, done = propagate(cut, done, check)
            if not s:
                return 0, 0


def _bound_search(engine: Engine, root: int, done: int, bound: _Bound, check: Check) -> Generator[None, None, None]:
    """Branch and bound over the picked candidates; yields after every node."""
    propagate, pick, elim = engine.propagate, engine.pick, engine.elim
    stack = [(root, done)]
    while stack:
        yield
        check()
        s, done = stack.pop()
        s, done = propagate(s, done, check)
        if not s:
            continue
        if bound.best:
            s, done = bound.cut(s, done, engine, check)
            if not s:
                continue
        b = pick(s)
        if not b:
            bound.offer(s, engine)
            continue
        stack.append((s ^ b, done))
        stack.append((s ^ (s & elim[b.bit_length()]), done))


def _row_major_search(
    engine: Engine, root: int, done: int, bound: _Bound, check: Check, found: list[int]
) -> Generator[None, None, None]:
    """Row-major, lowest digit first, under the bound; stops at its first solution."""
    propagate, elim, ones, w, mask = engine.propagate, engine.elim, engine.cell_ones, engine.width, engine.digit_mask
    stack = [(root, done)]
    while stack:
        yield
        check()
        s, done = stack.pop()
        s, done = propagate(s, done, check)
        if not s:
            continue
        s, done = bound.cut(s, done, engine, check)
        if not s:
            continue
        rest = s & (s - ones)  # nonzero in the open cells
        if not rest:
            found.append(s)
            return
        at = ((rest & -rest).bit_length() - 1) // w * w
        m = (s >> at) & mask
        b = (m & -m) << at
        stack.append((s ^ b, done))
        stack.append((s ^ (s & elim[b.bit_length()]), done))


def _search_first(engine: Engine, root: int, done: int, check: Check) -> int:
    """The row-major-first solution below a propagated root, or 0 (see the module doc)."""
    bound = _Bound()
    found: list[int] = []
    bounded = _bound_search(engine, root, done, bound, check)
    row_major = None
    turn = 0
    for _ in bounded:
        if not bound.best:
            continue
        if row_major is None:
            row_major = _row_major_search(engine, root, done, bound, check, found)
        turn += 1
        if turn >= (_TURNS if bound.improved < 2 else 1):
            turn = 0
            if next(row_major, True):
                return found[0] if found else bound.best
    return bound.best


def _symbol(grid: Grid, digit: int) -> str:
    return grid.symbol(digit)


def _explain(grid: Grid, geometry: Geometry | None = None) -> str:
    """Words for the contradiction the givens lead to by naked and hidden singles.

    Run only when propagation fails at the root: a plain cell-by-cell version
    of the singles that remembers where it failed: "no digit fits r1c5",
    "no place for 4 in row 3", "r2c2 is the only place for both 1 and 5 in
    box 1". "no solution exists" when singles alone find nothing (the
    contradiction came from locked candidates).
    """
    geo = grid.geometry if geometry is None else geometry
    size, full = geo.size, geo.all_digits
    cand = [full] * geo.ncells
    stack = []
    for i, d in enumerate(grid.cells):
        if d:
            cand[i] = 1 << (d - 1)
            stack.append(i)

    def digits(mask: int) -> str:
        return " and ".join(_symbol(grid, d) for d in range(1, size + 1) if mask >> (d - 1) & 1)

    while True:
        while stack:
            c = stack.pop()
            b = cand[c]
            for p in geo.peers[c]:
                m = cand[p]
                if m & b:
                    m ^= b
                    if not m:
                        # c and p both hold digit b: name the one that is not a given.
                        return f"no digit fits {cell_name(c if grid.cells[p] else p, size)}"
                    cand[p] = m
                    if not m & (m - 1):
                        stack.append(p)
        for u, unit in enumerate(geo.units):
            once = twice = 0
            for c in unit:
                m = cand[c]
                twice |= once & m
                once |= m
            if once != full:
                missing = full & ~once
                return f"no place for {digits(missing & -missing)} in {geo.unit_names[u]}"
            uniq = once & ~twice
            for c in unit:
                m = cand[c]
                h = m & uniq
                if h and h != m:
                    if h & (h - 1):
                        return f"{cell_name(c, size)} is the only place for both {digits(h)} in {geo.unit_names[u]}"
                    cand[c] = h
                    stack.append(c)
        if not stack:
            return "no solution exists"


def _propagated(grid: Grid, geometry: Geometry | None, check: Check) -> tuple[Engine, int, int]:
    """The engine for ``grid``'s shape and the state after propagating its givens: (engine, state, done).

    Raises:
      InvalidPuzzleError: two givens share a unit or break another rule of
        a variant (:func:`grid.check_givens`).
      UnsolvableError: propagation alone reaches a contradiction (the detail
        from :func:`_explain`).
    """
    rules = _engine(grid, geometry)
    if len(grid.cells) != rules.ncells:
        raise ValueError(f"a grid of {len(grid.cells)} cells, its geometry has {rules.ncells}")
    if rules.geo.constraints:
        # the rules that are not units (nonconsecutive givens, a cage's sum) would
        # end in "no digit fits"; check_givens names the rule the givens break
        check_givens(grid, rules.geo)
    s, givens = rules.state(grid.cells)
    if s & givens != givens:
        # a given removed by another: two share a unit; find_duplicate names them
        check_givens(grid, geometry)
        raise UnsolvableError(_explain(grid, geometry))
    check()
    s, done = rules.propagate(s, givens, check)
    if not s:
        raise UnsolvableError(_explain(grid, geometry))
    return rules, s, done


def solve(grid: Grid, *, check: Check | None = None, geometry: Geometry | None = None) -> Grid:
    """The first solution of ``grid`` in row-major order.

    "First" is what the naive backtracker (try 1..size in each empty cell, left
    to right, top to bottom) prints first: the smallest solution read as one
    number. For a puzzle with one solution that is simply the solution. The
    search order does not change the answer (module docstring).

    Args:
      grid: the puzzle; ``grid.cells`` holds ``size * size`` ints row-major,
        0 for an empty cell. Any box shape of :data:`grid.BOX_SHAPES`.
      check: called at every search node (well under a millisecond apart
        for 9x9); whatever it raises ends the search and propagates to the
        caller.
      geometry: the rules (units); None for the classic geometry of the
        grid's box shape.

    Returns:
      Grid: the solution, same shape (and symbols), no zeros.

    Raises:
      InvalidPuzzleError: two givens share a unit (checked first, O(cells),
        with the words of :func:`grid.find_duplicate`):
        "duplicate 8 in box 1 at r1c1 and r3c3".
      UnsolvableError: no solution exists; the detail names the cell or unit
        where the givens alone lead to a contradiction ("no digit fits r1c5",
        "no place for 4 in row 3"), or "no solution exists" when it takes a
        search to prove.
    """
    if check is None:
        check = no_check
    engine, s, done = _propagated(grid, geometry, check)
    # solved by propagation alone: the only solution, no search
    solution = _search_first(engine, s, done, check) if engine.pick(s) else s
    if not solution:
        raise UnsolvableError("no solution exists")
    return dataclasses.replace(grid, cells=engine.digits(solution))


def solve_any(grid: Grid, *, check: Check | None = None, geometry: Geometry | None = None) -> Grid:
    """Some solution of ``grid``: the first one the search finds (``SOLVE any``).

    For a puzzle with one solution this is :func:`solve`'s answer; with
    several it is whichever the branch choices reach first, which may differ
    between solver cores and versions (the one non-canonical answer of the
    protocol). Much sooner than :func:`solve` for open 16x16 and 25x25 grids.

    Args, Raises: as :func:`solve` (``InvalidPuzzleError``, ``UnsolvableError``).

    Returns:
      Grid: a solution, same shape (and symbols), no zeros.
    """
    if check is None:
        check = no_check
    engine, s, done = _propagated(grid, geometry, check)
    if engine.pick(s):
        bound = _Bound()
        for _ in _bound_search(engine, s, done, bound, check):
            if bound.best:
                break
        s = bound.best
        if not s:
            raise UnsolvableError("no solution exists")
    return dataclasses.replace(grid, cells=engine.digits(s))


def count_solutions(grid: Grid, limit: int = 2, *, check: Check | None = None, geometry: Geometry | None = None) -> int:
    """How many solutions ``grid`` has, counting no further than ``limit``.

    The search of :func:`solve` without a bound, so ``limit=2`` costs at most
    one search beyond the first solution.

    Args:
      grid: the puzzle (``size * size`` ints row-major, 0 = empty).
      limit: stop once this many are found (``limit=2`` answers "is it unique?").
      check: called at every search node; what it raises propagates.

    Returns:
      int: 0 (none, or givens that break a rule), 1, ... up to ``limit``.
    """
    if check is None:
        check = no_check
    if limit < 1:
        return 0
    engine = _engine(grid, geometry)
    if len(grid.cells) != engine.ncells:
        raise ValueError(f"a grid of {len(grid.cells)} cells, its geometry has {engine.ncells}")
    propagate, pick, elim = engine.propagate, engine.pick, engine.elim
    stack = [engine.state(grid.cells)]
    total = 0
    while stack:
        check()
        s, done = stack.pop()
        s, done = propagate(s, done, check)
        if not s:
            continue
        b = pick(s)
        if not b:
            total += 1
            if total >= limit:
                break
            continue
        stack.append((s ^ b, done))
        stack.append((s ^ (s & elim[b.bit_length()]), done))
    return total
