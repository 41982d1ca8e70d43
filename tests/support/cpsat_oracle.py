"""An independent oracle for every variant geometry: OR-Tools CP-SAT.

The model is written from the :class:`~sudoku_server.sudoku.geometry.Geometry`
alone, sharing no code with the solver cores, and from the KINDS of its
constraints (sudoku_server/sudoku/constraints.py), never from rule words, so
a new rule needs no oracle code: one integer per cell in 1..size (its domain
the ``Candidates`` masks and the given, if any), ``AddAllDifferent`` per unit
and per ``AllDifferent``, ``AddAllowedAssignments`` of the table's digit pairs
for each pair of a ``Relation``, the weighted sum (and ``AddAllDifferent``
when ``distinct``) for each ``Sum``, and for each ``Between`` one boolean
per cell for "holds low" and "holds high" (exactly one each), a cell
counted when exactly one of them was met before it and it holds neither,
and the counted cells' digits summing to ``total`` (:func:`_between`).

:func:`solutions` answers the solutions up to a limit (with ``limit=2``, 0, 1
or 2 of them mean none, unique, several); :func:`smallest` the lexicographically
smallest solution (row-major-first, the contract of ``solve``) by fixing
prefixes: from any solution, ask for one that keeps the cells before ``i``
and puts a smaller digit in cell ``i``; none means cell ``i`` is settled.
"""

from __future__ import annotations

from collections.abc import Sequence

from ortools.sat.python import cp_model

from sudoku_server.sudoku.constraints import AllDifferent, Between, Candidates, Relation, Sum
from sudoku_server.sudoku.geometry import Geometry

__all__ = ["model_of", "smallest", "solutions"]


def model_of(cells: Sequence[int], geometry: Geometry) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    """The CP-SAT model of a puzzle (``cells``: ``size * size`` ints row-major, 0 = empty) and its cell variables."""
    size = geometry.size
    masks = [geometry.all_digits] * geometry.ncells
    for constraint in geometry.constraints:
        if isinstance(constraint, Candidates):
            masks = [m & a for m, a in zip(masks, constraint.masks)]
    model = cp_model.CpModel()
    x = []
    for i in range(geometry.ncells):
        values = [d for d in range(1, size + 1) if masks[i] >> (d - 1) & 1]
        if cells[i]:
            values = [cells[i]] if cells[i] in values else []
        name = f"r{i // size + 1}c{i % size + 1}"
        if values:
            x.append(model.NewIntVarFromDomain(cp_model.Domain.FromValues(values), name))
        else:  # a given that is not a candidate: no solution (CP-SAT refuses an empty domain)
            x.append(model.NewIntVar(1, size, name))
            model.Add(x[-1] == 0)
    for unit in geometry.units:
        model.AddAllDifferent([x[c] for c in unit])
    for constraint in geometry.constraints:
        if isinstance(constraint, AllDifferent):
            model.AddAllDifferent([x[c] for c in constraint.cells])
        elif isinstance(constraint, Relation):
            allowed = [
                (da, db)
                for da in range(1, size + 1)
                for db in range(1, size + 1)
                if constraint.table[da - 1] >> (db - 1) & 1
            ]
            for a, b in constraint.pairs:
                model.AddAllowedAssignments([x[a], x[b]], allowed)
        elif isinstance(constraint, Sum):
            if constraint.distinct:
                model.AddAllDifferent([x[c] for c in constraint.cells])
            weights = constraint.weights or (1,) * len(constraint.cells)
            model.Add(sum(w * x[c] for c, w in zip(constraint.cells, weights)) == constraint.total)
        elif isinstance(constraint, Between):
            _between(model, [x[c] for c in constraint.cells], constraint, size)
        elif not isinstance(constraint, Candidates):
            raise ValueError(f"the oracle does not know the kind of {constraint!r}")
    return model, x


def _between(model: cp_model.CpModel, line: list[cp_model.IntVar], between: Between, size: int) -> None:
    """The model of a :class:`Between` over the cell variables ``line`` (in its order)."""
    lows, highs, counted = [], [], []
    met: list[cp_model.IntVar] = []  # the low and high booleans of the cells before this one
    for v in line:
        low, high, inside, one = (model.NewBoolVar("") for _ in range(4))
        for flag, digit in ((low, between.low), (high, between.high)):
            model.Add(v == digit).OnlyEnforceIf(flag)
            model.Add(v != digit).OnlyEnforceIf(flag.Not())
        if met:
            model.Add(sum(met) == 1).OnlyEnforceIf(one)
            model.Add(sum(met) != 1).OnlyEnforceIf(one.Not())
        else:
            model.Add(one == 0)
        # inside <=> exactly one of low and high met before, and the cell holds neither
        model.AddBoolAnd([one, low.Not(), high.Not()]).OnlyEnforceIf(inside)
        model.AddBoolOr([one.Not(), low, high, inside])
        y = model.NewIntVar(0, size, "")
        model.Add(y == v).OnlyEnforceIf(inside)
        model.Add(y == 0).OnlyEnforceIf(inside.Not())
        counted.append(y)
        lows.append(low)
        highs.append(high)
        met += [low, high]
    model.AddExactlyOne(lows)
    model.AddExactlyOne(highs)
    model.Add(sum(counted) == between.total)


def _solver(seconds: float) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = seconds
    return solver


def solutions(cells: Sequence[int], geometry: Geometry, limit: int = 2, seconds: float = 60.0) -> list[tuple[int, ...]]:
    """Up to ``limit`` solutions of the puzzle, each ``size * size`` digits row-major.

    One CP-SAT solve per solution, each forbidding the ones found before
    (``AddForbiddenAssignments``); the last one proves there is no other.

    Raises:
      TimeoutError: CP-SAT did not finish within ``seconds``.
    """
    model, x = model_of(cells, geometry)
    found: list[tuple[int, ...]] = []
    while len(found) < limit:
        solver = _solver(seconds)
        status = solver.Solve(model)
        if status == cp_model.INFEASIBLE:
            break
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            raise TimeoutError(f"CP-SAT: {solver.StatusName(status)}")
        found.append(tuple(solver.Value(v) for v in x))
        model.AddForbiddenAssignments(x, [found[-1]])
    return found


def smallest(cells: Sequence[int], geometry: Geometry, seconds: float = 60.0) -> tuple[int, ...] | None:
    """The lexicographically smallest solution (row-major-first), or None when there is none.

    Cells are settled in chunks of :data:`_CHUNK`, in row-major order: with
    the cells before the chunk fixed to the answer so far, minimise the
    chunk read as a number in base ``size + 1`` (small enough for CP-SAT's
    64-bit objective).

    Raises:
      TimeoutError: one CP-SAT call did not finish within ``seconds``.
    """
    best: list[int] = []
    base = geometry.size + 1
    for start in range(0, geometry.ncells, _CHUNK):
        model, x = model_of(cells, geometry)
        for j, d in enumerate(best):
            model.Add(x[j] == d)
        chunk = x[start : start + _CHUNK]
        model.Minimize(sum(v * base ** (len(chunk) - 1 - k) for k, v in enumerate(chunk)))
        solver = _solver(seconds)
        status = solver.Solve(model)
        if status == cp_model.INFEASIBLE:
            return None
        if status != cp_model.OPTIMAL:
            raise TimeoutError(f"CP-SAT: {solver.StatusName(status)}")
        best += [solver.Value(v) for v in chunk]
    return tuple(best)


#: Cells settled per CP-SAT call in :func:`smallest`: 26 ** 13 < 2 ** 63.
_CHUNK = 12
