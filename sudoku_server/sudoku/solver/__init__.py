"""The solver: one contract, two cores, chosen at import. Pure and synchronous.

The contract (both cores keep it exactly; the tests hold one against the other):

* :func:`solve` — the first solution in row-major order: what the naive
  backtracker (1..n in each empty cell, left to right, top to bottom) prints
  first. For a puzzle with one solution, simply the solution.
* :func:`solve_any` — the first solution the search finds (``SOLVE any``);
  with several solutions it may differ between cores and versions.
* :func:`count_solutions` — how many solutions, counting no further than a limit.
* Errors: :class:`InvalidPuzzleError` when two givens share a unit (the words
  of :func:`grid.find_duplicate`: "duplicate 8 in box 1 at r1c1 and r3c3")
  or, on a variant geometry, break another of its rules (the words of
  :func:`grid.check_givens`: "invalid 3 at r1c1 and r2c3 are a knight's move apart");
  :class:`UnsolvableError` when there is no solution (the words of the Python
  core's explainer, run only on failure: "no digit fits r1c5", "no place for 4
  in row 3", "no solution exists").
* ``check`` (:data:`Check`): called with the interpreter lock held at least
  once per millisecond of search; it may block (the search waits) or raise
  (the exception ends the search and propagates unchanged).

The cores:

* ``"native"`` — ``sudoku_server.sudoku.solver._native``, a C extension (``_native.c``,
  its header comment has the design), built by ``pip install`` when a C
  compiler and the Python headers are present. A specialised engine for the
  classic 9x9 geometry and a general one for any list of units up to 25x25,
  with the constraint kinds of :mod:`..constraints` (all-different beyond
  the units as differ pairs, relation pairs with their tables, sums,
  candidate masks; ``_native_kinds.h``), which it takes as plain arrays
  (:func:`_constraint_arrays`) and knows no rule by name.
  It takes plain arrays (the cells, and the geometry prepared once per key by
  ``_native.prepare``) and returns the solution's cells or a code; this module
  words the errors and builds the :class:`Grid`. It releases the interpreter lock while it
  searches, so solves in several threads run on several cores at once, and
  takes it back to call ``check`` every 0.5 ms of search (it does not call
  ``check`` at all on a search shorter than that).
* ``"python"`` — :mod:`._python`, the pure-Python core (its docstring has
  the design): the fallback, and the oracle the native core is tested against.
  It calls ``check`` at every search node.

:data:`CORE` names the core in use: the native one when it can be imported,
unless the environment variable ``SUDOKU_SERVER_PURE_PYTHON`` is set to
anything but ``""`` or ``"0"`` when this module is first imported.
:data:`NATIVE` and :data:`PYTHON` give each core's functions explicitly
(``NATIVE`` is None when the extension is missing, :data:`NATIVE_MISSING`
says why); geometries the native core does not take (a constraint of a
kind it does not know, more units than ``_native.MAX_UNITS``) go to the
Python core. A prepared variant geometry is kept by key like the classic
ones, the last :data:`_PREPARED_MAX` or so of them (each killer, jigsaw or
pencilmark puzzle is a geometry of its own).

Every function takes ``geometry=``: the rules as a list of units
(:mod:`..geometry`); None, the default, is the classic geometry of the
grid's box shape (``grid.geometry``).

Threads: neither core keeps state between calls, so several threads may solve
at once; the native core runs them on several processor cores (the lock is
released during the search; ``_native.set_gil_hold(seconds)`` keeps it for
the first part of each search instead, process-wide).
"""

from __future__ import annotations

import itertools
import os
from array import array
from collections.abc import Callable, Hashable, Sequence
from typing import Any, NamedTuple

from sudoku_server.errors import InvalidPuzzleError, UnsolvableError
from sudoku_server.sudoku.check import Check
from sudoku_server.sudoku.constraints import AllDifferent, Between, Candidates, Relation, Sum
from sudoku_server.sudoku.geometry import Geometry
from sudoku_server.sudoku.geometry import classic as classic_geometry
from sudoku_server.sudoku.grid import Grid, check_givens, verify_solution
from sudoku_server.sudoku.solver import _python
from sudoku_server.sudoku.solver._python import _explain

__all__ = [
    "CORE",
    "NATIVE",
    "PYTHON",
    "Check",
    "Core",
    "count_cells",
    "count_solutions",
    "find_cells",
    "is_own_solve",
    "solve",
    "solve_any",
    "solve_lines",
    "verify",
]

#: The environment variable that forces the pure-Python core (read at import).
PURE_PYTHON_ENV = "SUDOKU_SERVER_PURE_PYTHON"


class Core(NamedTuple):
    """One solver core: its name and its three functions (the contract above)."""

    name: str
    solve: Callable[..., Grid]
    solve_any: Callable[..., Grid]
    count_solutions: Callable[..., int]


PYTHON = Core("python", _python.solve, _python.solve_any, _python.count_solutions)

#: Why the native core is not available ("" when it is).
NATIVE_MISSING = ""
_native: Any
try:
    from sudoku_server.sudoku.solver import _native
except ImportError as exc:  # not built: no compiler, or a checkout without ``pip install -e .``
    _native = None
    NATIVE_MISSING = f"sudoku_server.sudoku.solver._native cannot be imported ({exc})"

#: The native form of each geometry (``_native.prepare``), by geometry key;
#: None for a geometry the native core does not take. Prepared once: peers
#: and intersections are computed in C then, not per call.
_PREPARED: dict[Hashable, object] = {}
#: The same for the classic geometries, by ``box_rows * 32 + box_cols``: the
#: per-call path of ``solve(grid)`` (no Geometry looked up).
_CLASSIC: dict[int, object] = {}


#: Prepared geometries kept at most (beyond it the oldest go): every killer,
#: jigsaw or pencilmark puzzle is a geometry of its own.
_PREPARED_MAX = 512


def _constraint_arrays(geo: Geometry) -> dict[str, bytes] | None:
    """The keyword arguments of ``_native.prepare`` for ``geo``'s constraints,
    from their kinds (:mod:`..constraints`) only: differ pairs (every
    all-different that is neither a unit nor the cells of a distinct sum,
    which prepare makes differ itself), relation pairs with their tables
    (one table per distinct table), sums as records, candidate masks (several
    combine), between lines as records (count, low, high, total, cells). None when a constraint is of a kind
    the native core does not know, or a between line whose cells are not peers (the Python core refuses it)."""
    differ: list[int] = []
    pairs: list[int] = []
    pair_table: list[int] = []
    tables: dict[tuple[int, ...], int] = {}
    sums: list[int] = []
    masks: list[int] | None = None
    between: list[int] = []
    kinds = geo.constraints
    # the cells of a distinct sum differ in C already (prepare adds them)
    summed = {c.cells for c in kinds if isinstance(c, Sum) and c.distinct}
    units: set[frozenset[int]] | None = None
    for constraint in kinds:
        if constraint.__class__ is Relation and len(constraint.table) == geo.size:  # the commonest kind first
            index = tables.get(constraint.table)
            if index is None:
                index = tables[constraint.table] = len(tables)
            if len(constraint.pairs) == 1:  # a dot (kropki, XV): one pair
                pairs += constraint.pairs[0]
                pair_table.append(index)
            else:
                pairs.extend(itertools.chain.from_iterable(constraint.pairs))
                pair_table.extend([index] * len(constraint.pairs))
        elif isinstance(constraint, AllDifferent):
            if constraint.cells in summed:
                continue
            if len(constraint.cells) == geo.size:  # only then may it be a unit
                if units is None:
                    units = {frozenset(unit) for unit in geo.units}
                if frozenset(constraint.cells) in units:
                    continue
            differ += [c for pair in itertools.combinations(constraint.cells, 2) for c in pair]
        elif isinstance(constraint, Relation):
            if len(constraint.table) != geo.size:
                return None
            index = tables.setdefault(constraint.table, len(tables))
            pairs.extend(itertools.chain.from_iterable(constraint.pairs))
            pair_table.extend([index] * len(constraint.pairs))
        elif isinstance(constraint, Sum):
            weights = constraint.weights or (1,) * len(constraint.cells)
            if constraint.distinct and len(constraint.cells) > geo.size:
                return None
            sums += (len(constraint.cells), constraint.total, int(constraint.distinct))
            sums += constraint.cells
            sums += weights
        elif isinstance(constraint, Candidates):
            if masks is None:
                masks = list(constraint.masks)
            else:
                masks = [m & k for m, k in zip(masks, constraint.masks)]
        elif isinstance(constraint, Between):
            cells = constraint.cells
            if len(cells) > geo.size:
                return None
            if len(cells) == geo.size:  # a row or a column: a unit, its cells peers
                if units is None:
                    units = {frozenset(unit) for unit in geo.units}
                peers = frozenset(cells) in units
            else:
                peers = False
            if not peers and not all(b in geo.peers[a] for i, a in enumerate(cells) for b in cells[i + 1 :]):
                return None
            between += (len(cells), constraint.low, constraint.high, constraint.total, *cells)
        else:
            return None
    arrays: dict[str, bytes] = {}
    if differ:
        arrays["differ"] = array("H", differ).tobytes()
    if pairs:
        arrays["pairs"] = array("H", pairs).tobytes()
        arrays["pair_table"] = array("H", pair_table).tobytes()
        arrays["tables"] = array("I", [m for table in tables for m in table]).tobytes()
    if sums:
        arrays["sums"] = array("i", sums).tobytes()
    if masks is not None:
        arrays["candidates"] = array("I", masks).tobytes()
    if between:
        arrays["between"] = array("i", between).tobytes()
    return arrays


# -- end of the ADAPTER --------------------------------------------------------------------------


def _prepare(geo: Geometry) -> object:
    """The prepared native geometry of ``geo``, or None when the native core does not take it."""
    try:
        return _PREPARED[geo.key]
    except KeyError:
        pass
    prepared = None
    if geo.size <= _native.MAX_SIZE and 0 < len(geo.units) <= _native.MAX_UNITS:
        arrays = _constraint_arrays(geo) if geo.constraints else {}
        if arrays is not None:
            like = _like(geo) if arrays else None
            prepared = _native.prepare(geo.size, geo.unit_array, geo.key == ("classic", 3, 3), like=like, **arrays)
    if geo.constraints and len(_PREPARED) >= _PREPARED_MAX:
        for key in [k for k in _PREPARED if not (isinstance(k, tuple) and k[:1] == ("classic",))][:64]:
            del _PREPARED[key]
    _PREPARED[geo.key] = prepared
    return prepared


def _like(geo: Geometry) -> object:
    """The prepared classic geometry when ``geo`` has its units (a variant of marks, cages, pencilmarks): its
    units, peers and intersections are shared by ``_native.prepare(like=...)`` (its capsule keeps this one
    alive) rather than derived again (20 µs of every such request, issue 29); None otherwise."""
    if not geo.box_rows:
        return None
    base = classic_geometry(geo.box_rows, geo.box_cols)
    if base.unit_array != geo.unit_array:
        return None
    return _prepare(base)


def _classic(grid: Grid) -> object:
    """The prepared classic geometry of ``grid``'s box shape (cached by shape)."""
    prepared = _CLASSIC[grid.box_rows * 32 + grid.box_cols] = _prepare(grid.geometry)
    return prepared


def _failure(grid: Grid, code: int, geometry: Geometry | None) -> Exception:
    """The exception for a grid the native core found no solution for (code
    ``_native.NONE``) or with two givens in a unit or breaking a pair rule
    (``_native.INVALID``): the Python core's words (:func:`grid.check_givens`
    names a broken rule of a variant, a cage its givens overfill, or the
    duplicate; else the explainer)."""
    if code == _native.INVALID or (geometry is not None and geometry.constraints):
        try:
            check_givens(grid, geometry)
        except InvalidPuzzleError as exc:
            return exc
    return UnsolvableError(_explain(grid, geometry))


_new = object.__new__


def _native_first(grid: Grid, *, check: Check | None = None, geometry: Geometry | None = None) -> Grid:
    """:func:`solve` on the native core (docstring there)."""
    if geometry is None:
        prepared = _CLASSIC.get(grid.box_rows * 32 + grid.box_cols) or _classic(grid)
    else:
        prepared = _prepare(geometry)
    if prepared is None:
        return _python.solve(grid, check=check, geometry=geometry)
    cells = _solve(grid.cells, prepared, check)
    if cells.__class__ is not tuple:
        raise _failure(grid, cells, geometry)
    # Grid.trusted, inline: this is every solve's path
    solution = _new(grid.__class__)
    fields = solution.__dict__
    fields["cells"] = cells
    fields["box_rows"] = grid.box_rows
    fields["box_cols"] = grid.box_cols
    fields["symbols"] = grid.symbols
    return solution


def _native_any(grid: Grid, *, check: Check | None = None, geometry: Geometry | None = None) -> Grid:
    """:func:`solve_any` on the native core (docstring there)."""
    prepared = _prepare(grid.geometry if geometry is None else geometry)
    if prepared is None:
        return _python.solve_any(grid, check=check, geometry=geometry)
    cells = _solve_any(grid.cells, prepared, check)
    if cells.__class__ is not tuple:
        raise _failure(grid, cells, geometry)
    return grid.__class__.trusted(cells, grid.box_rows, grid.box_cols, grid.symbols)


def _native_count(grid: Grid, limit: int = 2, *, check: Check | None = None, geometry: Geometry | None = None) -> int:
    """:func:`count_solutions` on the native core (docstring there)."""
    if geometry is None:
        prepared = _CLASSIC.get(grid.box_rows * 32 + grid.box_cols) or _classic(grid)
    else:
        prepared = _prepare(geometry)
    if prepared is None:
        return _python.count_solutions(grid, limit, check=check, geometry=geometry)
    return _count(grid.cells, prepared, limit, check)  # type: ignore[no-any-return]


NATIVE: Core | None = None
if _native is not None:
    _solve, _solve_any, _count = _native.solve, _native.solve_any, _native.count_solutions
    _solve_lines = _native.solve_lines
    NATIVE = Core("native", _native_first, _native_any, _native_count)


def _choose() -> Core:
    if os.environ.get(PURE_PYTHON_ENV, "") not in ("", "0") or NATIVE is None:
        return PYTHON
    return NATIVE


_CORE = _choose()

#: The core in use: ``"native"`` or ``"python"``.
CORE: str = _CORE.name


def solve(grid: Grid, *, check: Check | None = None, geometry: Geometry | None = None) -> Grid:
    """The first solution of ``grid`` in row-major order.

    "First" is what the naive backtracker (try 1..size in each empty cell, left
    to right, top to bottom) prints first: the smallest solution read as one
    number. For a puzzle with one solution that is simply the solution.

    Args:
      grid: the puzzle; ``grid.cells`` holds ``size * size`` ints row-major,
        0 for an empty cell. Any box shape of :data:`grid.BOX_SHAPES`.
      check: the stop hook (:data:`Check`): called with the interpreter lock
        held at least once per millisecond of search; it may block, and what
        it raises ends the search and propagates to the caller.
      geometry: the rules, a list of units (:mod:`..geometry`): None for the
        classic geometry of the grid's box shape.

    Returns:
      Grid: the solution, same shape (and symbols), no zeros.

    Raises:
      InvalidPuzzleError: two givens share a unit, with the words of
        :func:`grid.find_duplicate`: "duplicate 8 in box 1 at r1c1 and r3c3".
      UnsolvableError: no solution exists; the detail names the cell or unit
        where the givens alone lead to a contradiction ("no digit fits r1c5",
        "no place for 4 in row 3"), or "no solution exists" when it takes a
        search to prove.
    """
    return _CORE.solve(grid, check=check, geometry=geometry)


def is_own_solve(function: Callable[..., Grid]) -> bool:
    """True when ``function`` is this module's :func:`solve`, not a replacement.

    :func:`solve_lines` gives :func:`solve`'s answers without calling it; a
    caller that was handed another solve function (a test's slow solver,
    even one set as ``solver.solve``) must not take that shortcut.
    """
    return function is _OWN_SOLVE


def solve_any(grid: Grid, *, check: Check | None = None, geometry: Geometry | None = None) -> Grid:
    """Some solution of ``grid``: the first one the search finds (``SOLVE any``).

    For a puzzle with one solution this is :func:`solve`'s answer; with
    several it is whichever the branch choices reach first, which may differ
    between cores and versions. Much sooner than :func:`solve` for open 16x16
    and 25x25 grids.

    Args, Raises: as :func:`solve`.

    Returns:
      Grid: a solution, same shape (and symbols), no zeros.
    """
    return _CORE.solve_any(grid, check=check, geometry=geometry)


def count_solutions(grid: Grid, limit: int = 2, *, check: Check | None = None, geometry: Geometry | None = None) -> int:
    """How many solutions ``grid`` has, counting no further than ``limit``.

    Args:
      grid: the puzzle (``size * size`` ints row-major, 0 = empty).
      limit: stop once this many are found (``limit=2`` answers "is it unique?").
      check: the stop hook, as for :func:`solve`.
      geometry: the rules, as for :func:`solve`.

    Returns:
      int: 0 (none, or givens that break a rule), 1, ... up to ``limit``.
    """
    return _CORE.count_solutions(grid, limit, check=check, geometry=geometry)


# The functions above document the contract; the chosen core's functions
# take their place (no call in between). The native ones are C functions
# with the same signatures and their own docstrings.
solve, solve_any, count_solutions = _CORE.solve, _CORE.solve_any, _CORE.count_solutions  # noqa: F811
#: This module's :func:`solve` (the core's own, bound just above), kept apart
#: from the module attribute, which a test may replace with a slow solver
#: (:func:`is_own_solve`).
_OWN_SOLVE = solve


def count_cells(cells: Sequence[int], like: Grid, limit: int = 2, *, check: Check | None = None) -> int:
    """:func:`count_solutions` of ``cells`` (``size * size`` ints row-major, 0 = empty) in ``like``'s shape.

    For a caller that counts many variants of one puzzle (UNIQUE counts one
    per candidate clue): with the native core the cells go to C as they are,
    a list included, with no :class:`Grid` built per call. Cells out of range
    count as a grid breaking a rule would (0).
    """
    if CORE == "native":
        prepared = _CLASSIC.get(like.box_rows * 32 + like.box_cols) or _classic(like)
        if prepared is not None:
            return _count(cells, prepared, limit, check)  # type: ignore[no-any-return]
    return count_solutions(Grid(tuple(cells), like.box_rows, like.box_cols, like.symbols), limit, check=check)


def find_cells(
    like: Grid, geometry: Geometry | None = None
) -> Callable[[Sequence[int], Check | None], tuple[int, ...] | None]:
    """A function ``find(cells, check)``: some solution of ``cells`` under ``geometry``'s rules, or None.

    For a caller that asks about many fillings of one puzzle (``CANDIDATES``
    asks one per candidate): ``cells`` are ``size * size`` ints row-major
    (0 = empty) in ``like``'s shape, a list included; the answer is a
    solution's cells (:func:`solve_any`'s), or None when there is none or the
    cells break a rule. On the native core the cells go to C as they are
    (the geometry is prepared once, here), with no :class:`Grid` built per
    call; else :func:`solve_any` of the core in use. ``check`` is
    :func:`solve`'s stop hook; what it raises propagates.
    """
    if CORE == "native":
        prepared = _prepare(like.geometry if geometry is None else geometry)
        if prepared is not None:
            solve_any_native = _solve_any

            def native(cells: Sequence[int], check: Check | None) -> tuple[int, ...] | None:
                found = solve_any_native(cells, prepared, check)
                return found if found.__class__ is tuple else None

            return native
    solve_any_core = _CORE.solve_any

    def core(cells: Sequence[int], check: Check | None) -> tuple[int, ...] | None:
        grid = Grid(tuple(cells), like.box_rows, like.box_cols, like.symbols)
        try:
            return solve_any_core(grid, check=check, geometry=geometry).cells
        except (InvalidPuzzleError, UnsolvableError):
            return None

    return core


def native_candidates(
    grid: Grid, geometry: Geometry | None = None, check: Check | None = None
) -> tuple[int, ...] | None:
    """The true candidates of ``grid`` in one native search, or None when the native core cannot answer.

    Per cell (``size * size``, row-major) a mask of the digits some solution
    holds there, bit ``d - 1`` for digit ``d`` (``_native.candidates``: one
    depth-first search over the solutions that drops every node whose
    candidates all lie in solutions found already). None also when the
    native core is not in use, the geometry is one it does not take, or the
    puzzle has no solution or two givens sharing a unit (the caller's first
    solve raises for those). ``check`` as :func:`solve`'s; what it raises propagates.
    """
    if CORE != "native":
        return None
    prepared = _prepare(grid.geometry if geometry is None else geometry)
    if prepared is None:
        return None
    found = _native.candidates(grid.cells, prepared, check)
    return found if found.__class__ is tuple else None


def verify(puzzle: Grid, solution: Grid, geometry: Geometry | None = None) -> str | None:
    """Check a solution independently of the search; None when it is right.

    The rule every answer passes before it is sent: every unit holds each
    digit once, every given is kept and, for a variant geometry, every other
    rule holds (pairs, nonconsecutive, cages with sums, pencilmarks). The
    native core's ``verify`` (C, no search code, from the geometry's units
    and constraints) answers the common case; a wrong solution, a geometry
    it does not take, or no native core goes to
    :func:`grid.verify_solution`, which also says what is wrong ("row 3 lacks
    7", "r1c1 and r2c3 are a knight's move apart and both hold 3", "cage a
    sums to 14, not 15"); should the two checks disagree on a wrong
    solution, it is refused all the same.
    """
    refused = False
    if _native is not None and (puzzle.box_rows, puzzle.box_cols) == (solution.box_rows, solution.box_cols):
        prepared = _prepare(puzzle.geometry if geometry is None else geometry)
        if prepared is not None:
            if _native.verify(puzzle.cells, solution.cells, prepared):
                return None
            refused = True
    problem = verify_solution(puzzle, solution, geometry)
    if problem is None and refused and geometry is not None and geometry.constraints:
        # the two independent checks disagree: refuse rather than send it
        return "the solution breaks a rule of the variant"
    return problem


#: An empty 9x9 grid: the key of the classic geometry :func:`solve_lines` prepares.
_NINE = Grid.trusted((0,) * 81, 3, 3)

#: True when :func:`solve_lines` answers lines in C (the native core is in use).
LINES_NATIVE: bool = CORE == "native"


def solve_lines(lines: Sequence[bytes], out: list[bytes | None], *, check: Check | None = None) -> None:
    """Plain one-line 9x9 puzzles, text to text, in the native core: append each line's answer to ``out``.

    The fast path of the text layer for the commonest request (dataset
    files, pipelined clients). It mirrors what :mod:`sudoku_server.text`
    does with a *plain line* (``text/reader.py``: ``_PLAIN_LINE``, and
    :meth:`Puzzle.render <sudoku_server.text.Puzzle.render>` for ``plain``):
    a line is taken when it is exactly 81 characters of ``1``-``9`` and the
    empty marks ``0`` ``.`` ``_``, then its terminator (``b"\\n"``,
    ``b"\\r\\n"`` or ``b"\\r"``); its answer is the row-major-first
    solution (:func:`solve`'s) as 81 digits, then the line's own terminator,
    after the independent check every answer passes (:func:`verify`'s rule).

    For every other line ``out`` gets None ("not mine"): the caller answers
    it through the Python text layer, which stays the reference (every other
    layout, blanks around the cells, other sizes, dataset rows, and the
    wording of errors: givens sharing a unit, no solution). Without the native
    core every line is "not mine". ``tests/test_ctext.py`` holds the two paths
    equal byte for byte.

    Args:
      lines: each a line's bytes with its terminator.
      out: the list the answers are appended to, one per line, in order.
      check: the stop hook, as for :func:`solve`, per puzzle (called once a
        puzzle's search has run 0.5 ms since it began or since the hook last
        returned); the interpreter lock is released for the whole batch.

    Raises:
      Whatever ``check`` raises: ``out`` then holds the answers of the lines
      before the one it was raised in.
    """
    if _native is None or not LINES_NATIVE:
        out.extend([None] * len(lines))
        return
    prepared = _CLASSIC.get(3 * 32 + 3) or _classic(_NINE)
    _solve_lines(lines, prepared, out, check)


def solve_nine_arrays(
    cells: Sequence[int], arrays: dict[str, bytes], *, check: Check | None = None
) -> tuple[int, ...] | None:
    """The fast path of a 9x9 puzzle of the classic units with constraints given as the native core's arrays.

    ``arrays``: ``_native.prepare``'s keyword arguments as :func:`_constraint_arrays` makes them for the
    geometry (the rules' fast reading of a marks line: ``rules._native_marks``). The search and the
    independent check of :func:`solve` then :func:`verify` on the classic 9x9 units with those constraints,
    prepared from the classic geometry's (``like=``) and kept nowhere: its row-major-first solution's 81
    digits, or None for the usual path to answer and word (no native core, givens that break a rule, no
    solution, a solution the check refuses). ``check`` as for :func:`solve`; what it raises propagates.
    """
    if _native is None or not LINES_NATIVE:
        return None
    like = _CLASSIC.get(3 * 32 + 3) or _classic(_NINE)
    prepared = _native.prepare(9, _NINE.geometry.unit_array, False, like=like, **arrays)
    found = _solve(cells, prepared, check)
    if found.__class__ is not tuple or not _native.verify(cells, found, prepared):
        return None
    return found


def marks_reader(words: Sequence[tuple[object, ...]]) -> object | None:
    """The native core's reader of a marks line, for :func:`solve_marks_line`; None without the native core.

    ``words``: per word it takes (in lower case), its place among the rules, its shape's code, its tables, tails
    and words without cells (``rules._native_marks.reader_words``; ``_native_marksline.h``). Raises ValueError
    for words it cannot take (more than 32, longer than 24 bytes, a shape it does not know, tables not 9 x 9
    masks, more than 4 tails or words).
    """
    if _native is None or not LINES_NATIVE:
        return None
    return _native.marks_reader(words)  # type: ignore[no-any-return]


def solve_marks_line(line: bytes, reader: object, *, check: Check | None = None) -> bytes | bool | None:
    """A marks line (``SOLVE <81 givens> word=marks ...`` and its terminator) answered in one native call.

    The line read by ``reader`` (:func:`marks_reader`) to the arrays :func:`_constraint_arrays` makes of its
    geometry, prepared like the classic 9x9 geometry (``like=``), searched and checked as
    :func:`solve_nine_arrays` does: the row-major-first solution's 81 digits and the line's terminator; None
    for a line read with no answer (givens that break a rule or share a unit, no solution: the usual path
    words it); False for a line the reader does not take (another verb, option or word, a mark in another
    form). ``check`` as for :func:`solve`; what it raises propagates.
    """
    return _native.solve_marks(line, reader, _CLASSIC.get(3 * 32 + 3) or _classic(_NINE), check)  # type: ignore[no-any-return]
