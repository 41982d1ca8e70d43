"""Propagation and search: the solver. Pure and synchronous; imports no I/O.

Candidates are bitmasks: bit ``d - 1`` set when digit ``d`` is still possible
for a cell. A state is a list of ``ncells`` such masks.

Propagation removes only candidates that no solution can use:

* naked single: a cell with one candidate removes it from its peers;
* hidden single: a digit with one place left in a unit is placed there.

Search picks the cell with the fewest candidates (Norvig's design) and tries
them in turn. That ordering finds *a* solution fast, but the answer the
project promises is the *first solution in row-major order*: the one the
naive backtracker of the articles prints first (try 1..9 in each empty cell,
left to right, top to bottom), i.e. the smallest solution read as a number.
:func:`solve` gets it without a row-major search: it finds any solution W,
then walks the cells in row-major order and, at each open cell, asks the fast
search whether a solution with a smaller digit there (and the earlier cells
as fixed so far) exists. If one does it becomes the new W; if none does the
cell is fixed to W's digit. The refutations together cover exactly the
solutions smaller than the answer, so a puzzle with one solution costs about
one extra search, like a uniqueness check.

Every search node calls ``check()``; the server passes
``trio.from_thread.check_cancelled`` so that a timed-out solve really stops.
"""

from __future__ import annotations

from typing import Callable, List, Optional

from ._errors import UnsolvableError
from .grid import SYMBOLS, Grid, cell_name, check_givens, geometry

__all__ = ["solve", "count_solutions", "Check"]

#: The stop hook: called at every search node; raising from it ends the search
#: (the exception propagates out of :func:`solve` / :func:`count_solutions`).
Check = Callable[[], None]


def _no_check() -> None:
    return None


class _Tables:
    """Per-shape data the hot loops read: peers, units, the full mask, popcounts."""

    __slots__ = ("geo", "peers", "units", "full", "ncells", "pop")

    def __init__(self, box_rows: int, box_cols: int) -> None:
        geo = geometry(box_rows, box_cols)
        self.geo = geo
        self.peers = geo.peers
        self.units = geo.units
        self.full = geo.all_digits
        self.ncells = geo.ncells
        # popcount table for the search's cell choice (2**size entries up to
        # 16x16; 25x25 masks use int.bit_count instead).
        self.pop = [bin(m).count("1") for m in range(1 << geo.size)] if geo.size <= 16 else None


_TABLES: dict = {}


def _tables(grid: Grid) -> _Tables:
    key = (grid.box_rows, grid.box_cols)
    tables = _TABLES.get(key)
    if tables is None:
        tables = _TABLES[key] = _Tables(*key)
    return tables


def _propagate(cand: List[int], stack: List[int], peers, units, full: int):
    """Apply naked and hidden singles to ``cand`` in place until nothing changes.

    Args:
      cand: the state (one candidate mask per cell); changed in place.
      stack: cells whose single candidate must still be removed from their
        peers; emptied.
    Returns:
      None when the state is consistent; otherwise a tuple describing the
      contradiction: ``("cell", c)`` (no candidate left for cell c),
      ``("unit", u, mask)`` (digits in mask have no place in unit u) or
      ``("twice", c, u, mask)`` (cell c is the only place in unit u for two
      digits).
    """
    while True:
        while stack:
            c = stack.pop()
            b = cand[c]
            for p in peers[c]:
                m = cand[p]
                if m & b:
                    m ^= b
                    if not m:
                        return ("cell", p)
                    cand[p] = m
                    if not m & (m - 1):
                        stack.append(p)
        for u, unit in enumerate(units):
            once = twice = 0
            for c in unit:
                m = cand[c]
                twice |= once & m
                once |= m
            if once != full:
                return ("unit", u, full & ~once)
            uniq = once & ~twice
            if uniq:
                for c in unit:
                    m = cand[c]
                    h = m & uniq
                    if h and h != m:
                        if h & (h - 1):
                            return ("twice", c, u, h)
                        cand[c] = h
                        stack.append(c)
        if not stack:
            return None


def _describe(conflict, tables: _Tables) -> str:
    """Words for a contradiction tuple of :func:`_propagate`."""
    geo = tables.geo
    size = geo.size

    def digits(mask: int) -> str:
        return " and ".join(SYMBOLS[d] for d in range(1, size + 1) if mask >> (d - 1) & 1)

    kind = conflict[0]
    if kind == "cell":
        return f"no digit fits {cell_name(conflict[1], size)}"
    if kind == "unit":
        mask = conflict[2]
        return f"no place for {digits(mask & -mask)} in {geo.unit_names[conflict[1]]}"
    return f"{cell_name(conflict[1], size)} is the only place for both {digits(conflict[3])} in {geo.unit_names[conflict[2]]}"


def _initial_state(grid: Grid, tables: _Tables):
    """The propagated state of a puzzle's givens: (cand, conflict)."""
    full = tables.full
    cand = [full] * tables.ncells
    stack = []
    for i, d in enumerate(grid.cells):
        if d:
            cand[i] = 1 << (d - 1)
            stack.append(i)
    conflict = _propagate(cand, stack, tables.peers, tables.units, full)
    return cand, conflict


def _search(cand: List[int], tables: _Tables, check: Check) -> Optional[List[int]]:
    """Depth-first search, fewest candidates first; the first solution found or None.

    ``cand`` must be propagated. Calls ``check()`` at every node.
    """
    check()
    pop = tables.pop
    best = -1
    best_n = 99
    if pop is not None:
        for i, m in enumerate(cand):
            if m & (m - 1):
                n = pop[m]
                if n < best_n:
                    best, best_n = i, n
                    if n == 2:
                        break
    else:
        for i, m in enumerate(cand):
            if m & (m - 1):
                n = m.bit_count()
                if n < best_n:
                    best, best_n = i, n
                    if n == 2:
                        break
    if best < 0:
        return cand
    peers, units, full = tables.peers, tables.units, tables.full
    m = cand[best]
    while m:
        b = m & -m
        m ^= b
        trial = cand[:]
        trial[best] = b
        if _propagate(trial, [best], peers, units, full) is None:
            found = _search(trial, tables, check)
            if found is not None:
                return found
    return None


def _count(cand: List[int], tables: _Tables, check: Check, limit: int) -> int:
    """Number of solutions below the propagated state ``cand``, stopping at ``limit``."""
    check()
    pop = tables.pop
    best = -1
    best_n = 99
    for i, m in enumerate(cand):
        if m & (m - 1):
            n = pop[m] if pop is not None else m.bit_count()
            if n < best_n:
                best, best_n = i, n
                if n == 2:
                    break
    if best < 0:
        return 1
    peers, units, full = tables.peers, tables.units, tables.full
    total = 0
    m = cand[best]
    while m:
        b = m & -m
        m ^= b
        trial = cand[:]
        trial[best] = b
        if _propagate(trial, [best], peers, units, full) is None:
            total += _count(trial, tables, check, limit - total)
            if total >= limit:
                return total
    return total


def _to_grid(cand: List[int], grid: Grid) -> Grid:
    return Grid(tuple(m.bit_length() for m in cand), grid.box_rows, grid.box_cols)


def solve(grid: Grid, *, check: Optional[Check] = None) -> Grid:
    """The first solution of ``grid`` in row-major order.

    "First" is what the naive backtracker (try 1..size in each empty cell, left
    to right, top to bottom) prints first: the smallest solution read as one
    number. For a puzzle with one solution that is simply the solution.

    Args:
      grid: the puzzle; ``grid.cells`` holds ``size * size`` ints row-major,
        0 for an empty cell.
      check: called at every search node (and at least every few
        milliseconds of search); whatever it raises ends the search and
        propagates to the caller.

    Returns:
      Grid: the solution, same shape, no zeros.

    Raises:
      InvalidPuzzleError: two givens share a unit (checked first, O(cells)):
        "duplicate 8 in box 1 at r1c1 and r3c3".
      UnsolvableError: no solution exists; the detail names the cell or unit
        where the givens alone lead to a contradiction ("no digit fits r1c5",
        "no place for 4 in row 3"), or "no solution exists" when it takes a
        search to prove.
    """
    if check is None:
        check = _no_check
    check_givens(grid)
    tables = _tables(grid)
    fixed, conflict = _initial_state(grid, tables)
    if conflict is not None:
        raise UnsolvableError(_describe(conflict, tables))
    best = _search(fixed[:], tables, check)
    if best is None:
        raise UnsolvableError("no solution exists")
    peers, units, full = tables.peers, tables.units, tables.full
    for i in range(tables.ncells):
        m = fixed[i]
        if not m & (m - 1):
            continue
        # Is there a solution with a smaller digit at i (earlier cells fixed)?
        while True:
            lower = m & (best[i] - 1)
            if not lower:
                break
            trial = fixed[:]
            trial[i] = lower
            stack = [] if lower & (lower - 1) else [i]
            if _propagate(trial, stack, peers, units, full) is not None:
                break
            found = _search(trial, tables, check)
            if found is None:
                break
            best = found
        fixed[i] = best[i]
        # ``best`` extends ``fixed``, so this propagation cannot fail.
        _propagate(fixed, [i], peers, units, full)
    return _to_grid(best, grid)


def count_solutions(grid: Grid, limit: int = 2, *, check: Optional[Check] = None) -> int:
    """How many solutions ``grid`` has, counting no further than ``limit``.

    Args:
      grid: the puzzle (``size * size`` ints row-major, 0 = empty).
      limit: stop once this many are found (``limit=2`` answers "is it unique?").
      check: called at every search node; what it raises propagates.

    Returns:
      int: 0 (none, or givens that break a rule), 1, ... up to ``limit``.
    """
    if check is None:
        check = _no_check
    if limit < 1:
        return 0
    tables = _tables(grid)
    cand, conflict = _initial_state(grid, tables)
    if conflict is not None:
        return 0
    return _count(cand, tables, check, limit)
