"""What each request means: :func:`answer` maps a typed request to a typed result.

:data:`HANDLERS` is THE one dispatch table: request type -> handler. A
handler calls the domain and returns a result; a domain error
(:class:`~sudoku_server.errors.PuzzleError`) becomes :class:`Failed`, an
unexpected exception ``Failed(InternalError(...))``, logged with its
traceback. Whatever ``check`` raises (a timeout, a cancellation, a pause that
must unwind) passes through unchanged: it must be a ``BaseException`` that is
not an ``Exception``, as the server's are.

Pure and synchronous: no bytes, no threads, no trio. The server runs
:func:`answer` in its solver threads with a ``check`` of its own.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from sudoku_server.errors import (
    CommandError,
    DrainingError,
    InternalError,
    PuzzleError,
    SolutionMismatchError,
    UnsolvableError,
)
from sudoku_server.service.requests import (
    Candidates,
    Canon,
    Count,
    Generate,
    Help,
    Hint,
    HintAll,
    Interactive,
    KeepAlive,
    Minimal,
    Ping,
    Quit,
    Rate,
    Request,
    Rules,
    Same,
    Solve,
    Stats,
    Steps,
    Unique,
    Version,
)
from sudoku_server.service.results import (
    Bye,
    CandidatesFound,
    Canonized,
    Compared,
    Counted,
    Failed,
    Generated,
    HelpShown,
    Hinted,
    HintedAll,
    InteractiveOn,
    KeepAliveOn,
    MinimalChecked,
    Pong,
    Rated,
    Result,
    RulesSet,
    Solved,
    StatsShown,
    Stepped,
    UniqueChecked,
    VersionInfo,
)
from sudoku_server.sudoku import solver as _solver
from sudoku_server.sudoku.check import Check
from sudoku_server.sudoku.generator import Generated as GeneratedPuzzle
from sudoku_server.sudoku.geometry import Geometry
from sudoku_server.sudoku.grid import DIGIT_SYMBOLS, Grid, cell_name, check_givens
from sudoku_server.sudoku.variants import Variant, variant_geometry

if TYPE_CHECKING:
    from sudoku_server.sudoku.techniques import Board

log = logging.getLogger("sudoku_server")

#: The protocol version VERSION and STATS report (docs/PROTOCOL.md).
PROTOCOL = 2

Solver = Callable[..., Grid]
"""``solve(grid, *, check) -> Grid``: raises UnsolvableError / InvalidPuzzleError."""


@dataclass(frozen=True)
class Solvers:
    """The solver functions :func:`answer` calls: parameters so that tests can pass a slow or broken one.

    Attributes:
      solve: ``solve(grid, *, check) -> Grid``, the first solution in row-major order.
      solve_any: ``solve_any(grid, *, check) -> Grid``, any solution (``SOLVE any``).
      count_solutions: ``count_solutions(grid, limit, *, check) -> int`` (at most ``limit``).
    """

    solve: Solver = _solver.solve
    solve_any: Solver = _solver.solve_any
    count_solutions: Callable[..., int] = _solver.count_solutions


#: The solver's own functions.
DEFAULT_SOLVERS = Solvers()


class Server(Protocol):
    """What the verbs about the server itself read (VERSION, PING, STATS, INTERACTIVE, KEEPALIVE)."""

    @property
    def version(self) -> str:
        """The package version (``0.3.0``)."""
        ...

    @property
    def draining(self) -> bool:
        """True while the server drains before stopping: PING answers ``ERROR draining``."""
        ...

    @property
    def interactive_timeout(self) -> float:
        """Seconds of silence that end an interactive session."""
        ...

    @property
    def idle_timeout(self) -> float:
        """Seconds of silence that end a session held by a program (``KEEPALIVE``)."""
        ...

    def stats_pairs(self) -> list[tuple[str, object]]:
        """The STATS fields, ``(name, value)`` in order."""
        ...


@dataclass
class Standalone:
    """A :class:`Server` for answers outside a server (tests, the library): not draining, no counters."""

    version: str = "unknown"
    draining: bool = False
    interactive_timeout: float = 300.0
    idle_timeout: float = 60.0
    pairs: list[tuple[str, object]] = field(default_factory=list)

    def stats_pairs(self) -> list[tuple[str, object]]:
        return list(self.pairs)


@dataclass(frozen=True)
class _Call:
    """One call's context, handed to every handler."""

    check: Check | None
    solvers: Solvers
    server: Server


def _variant_geometry(
    request: Solve | Count | Candidates | Rate | Hint | HintAll | Steps | Unique | Minimal,
) -> Geometry:
    """The geometry of a variant request, its givens checked under its rules.

    Raises the errors of :func:`~sudoku_server.sudoku.variants.variant_geometry`
    (a region of the wrong size, a cage no digits can sum to, a pencilmark
    cell with no candidate) and InvalidPuzzleError for givens that break a
    rule (two givens in one unit of the geometry).
    """
    geometry = request.geometry
    check_givens(request.grid, geometry)
    return geometry


def _solve(request: Solve, call: _Call) -> Result:
    solvers = call.solvers
    grid = request.grid
    solve = solvers.solve_any if request.any else solvers.solve
    if request.variant.classic:  # classic puzzles: today's call, untouched
        geometry = None
        solution = solve(grid, check=call.check)
    else:
        geometry = request.geometry
        try:
            solution = solve(grid, check=call.check, geometry=geometry)
        except BaseException:
            # Givens that break a rule are refused as before the search (ERROR invalid naming the rule),
            # whatever ended it (no solution, the check hook). Checked only here: a search that finds a
            # solution has proved them (it keeps every given and breaks no rule).
            check_givens(grid, geometry)
            raise
    problem = _solver.verify(grid, solution, geometry)
    if problem is not None:
        raise RuntimeError(f"solver returned a wrong solution: {problem}")
    expected = request.expected
    if expected is not None and expected.cells != solution.cells:
        raise mismatch(grid, expected, solution)
    if request.format != "line":
        return Solved(solution, request.format, grid, request.variant)
    return Solved(solution)


def mismatch(puzzle: Grid, expected: Grid, solution: Grid) -> SolutionMismatchError:
    """The error for a dataset row whose expected solution differs from ``solution``.

    The detail names the first cell that differs, in the puzzle's own symbols
    (``the row's solution has 5 at r1c3, the solution found has 4``); the wire
    puts the line number in front.
    """
    size = puzzle.size
    symbols = puzzle.symbols or DIGIT_SYMBOLS
    for cell, (want, got) in enumerate(zip(expected.cells, solution.cells)):
        if want != got:
            return SolutionMismatchError(
                f"the row's solution has {symbols[want - 1]} at {cell_name(cell, size)},"
                f" the solution found has {symbols[got - 1]}",
                cell=cell,
                expected=want,
                found=got,
            )
    raise ValueError("the solutions are equal")


def _count(request: Count, call: _Call) -> Result:
    if not request.variant.classic:
        geometry = _variant_geometry(request)
        count = call.solvers.count_solutions(request.grid, request.limit, check=call.check, geometry=geometry)
        return Counted(count, request.limit)
    check_givens(request.grid)
    return Counted(call.solvers.count_solutions(request.grid, request.limit, check=call.check), request.limit)


def _candidates(request: Candidates, call: _Call) -> Result:
    from sudoku_server.sudoku.candidates import true_candidates

    if request.variant.classic:
        check_givens(request.grid)
        geometry = None
    else:
        geometry = _variant_geometry(request)
    return CandidatesFound(true_candidates(request.grid, check=call.check, geometry=geometry), request.grid)


def _rules_geometry(request: Rate | Hint | HintAll | Steps) -> Geometry | None:
    """None for a classic request (its givens checked as today), else its variant's geometry, givens checked."""
    if request.variant.classic:
        check_givens(request.grid)
        return None
    return _variant_geometry(request)


def _rate(request: Rate, call: _Call) -> Result:
    from sudoku_server.sudoku.rating import rate, rate_state

    geometry = _rules_geometry(request)
    if request.variant.classic_state:
        board, solution = _state_start(request, geometry, call)
        return Rated(rate_state(board, solution, check=call.check))
    return Rated(rate(request.grid, check=call.check, geometry=geometry))


def _state_start(
    request: Rate | Hint | HintAll | Steps, geometry: Geometry | None, call: _Call
) -> tuple[Board, tuple[int, ...]]:
    """The board and solution of a classic solving state (``Variant.state``: a HoDoKu library line).

    The solution is searched under the state's candidates (``geometry``, the
    pencilmarks'); the board reasons under the classic rules from them, its
    placed cells apart from its givens (:meth:`~sudoku_server.sudoku.techniques.Board.from_state`).
    Raises what :func:`~sudoku_server.sudoku.techniques.unique_solution` raises.
    """
    from sudoku_server.sudoku.techniques import Board, unique_solution

    candidates = request.variant.candidates
    assert candidates is not None
    solution = unique_solution(request.grid, check=call.check, geometry=geometry)
    return Board.from_state(request.grid, candidates), solution


def _hint(request: Hint, call: _Call) -> Result:
    from sudoku_server.sudoku.techniques import next_step, next_step_on

    geometry = _rules_geometry(request)
    if request.variant.classic_state:
        board, solution = _state_start(request, geometry, call)
        return Hinted(next_step_on(board, solution, check=call.check), request.nudge)
    return Hinted(next_step(request.grid, check=call.check, geometry=geometry), request.nudge)


def _hint_all(request: HintAll, call: _Call) -> Result:
    from sudoku_server.sudoku.techniques import Board, unique_solution
    from sudoku_server.sudoku.techniques.every import all_steps, placed_cells

    geometry = _rules_geometry(request)
    if request.variant.classic_state:
        board, solution = _state_start(request, geometry, call)
    else:
        solution = unique_solution(request.grid, check=call.check, geometry=geometry)
        board = Board.from_grid(request.grid, geometry)
        board.placed = placed_cells(request.grid.cells, request.variant.candidates)
    return HintedAll(tuple(all_steps(board, solution, check=call.check, kraken=request.kraken)))


def _minimal(request: Minimal, call: _Call) -> Result:
    from sudoku_server.sudoku.clues import redundant_givens

    grid = request.grid
    if request.variant.classic_state:
        # a solving state's puzzle is its givens: its placed cells and deleted candidates are progress
        masks = request.variant.candidates or ()
        cells = tuple(v if v and masks[c] == 1 << (v - 1) else 0 for c, v in enumerate(grid.cells))
        grid, geometry = replace(grid, cells=cells), None
    else:
        geometry = None if request.variant.classic else _variant_geometry(request)
    return MinimalChecked(redundant_givens(grid, check=call.check, geometry=geometry), grid.size)


def _canon(request: Canon, call: _Call) -> Result:
    from sudoku_server.sudoku.canon import canonical

    _classic_only("CANON", request)
    return Canonized(canonical(request.grid, check=call.check), request.map)


def _same(request: Same, call: _Call) -> Result:
    from sudoku_server.sudoku.canon import equivalent

    if request.first is None:
        raise ValueError("SAME answered before its first puzzle")
    _classic_only("SAME", request)
    return Compared(equivalent(request.first, request.grid, check=call.check))


def _unique(request: Unique, call: _Call) -> Result:
    from sudoku_server.sudoku.clues import uniqueness

    grid = request.grid
    geometry = None if request.variant.classic else _variant_geometry(request)
    try:
        found = uniqueness(grid, check=call.check, geometry=geometry)
    except UnsolvableError as error:
        return UniqueChecked(None, grid.size, grid.symbols, unsolvable=error.detail)
    return UniqueChecked(found, grid.size, grid.symbols)


def _steps(request: Steps, call: _Call) -> Result:
    from sudoku_server.sudoku.rating import rating_of
    from sudoku_server.sudoku.techniques import solve_steps, steps_on

    geometry = _rules_geometry(request)
    if request.variant.classic_state:
        board, solution = _state_start(request, geometry, call)
        steps = tuple(steps_on(board, solution, check=call.check))
        return Stepped(steps, rating_of(request.grid, steps, check=call.check, state=True))
    # one path for both (rate() would walk it again: seconds on puzzles that need nested forcing chains)
    steps = tuple(solve_steps(request.grid, check=call.check, geometry=geometry))
    return Stepped(steps, rating_of(request.grid, steps, check=call.check, geometry=geometry))


def _generate(request: Generate, call: _Call) -> Result:
    """A puzzle from the seed; with ``level``/``se``, from seed, seed + 1, ... until one rates in the band.

    Its ``seed`` alone then makes the same puzzle again. The solve timeout
    (``check``) bounds the search: never a puzzle of another level.
    """
    from sudoku_server.sudoku import generator

    base = request.seed if request.seed is not None else secrets.randbits(64)
    rating = None
    for k in range(generator.SEED_LIMIT):
        if request.variant.classic:
            made = generator.generate(
                request.size,
                symmetry=request.symmetry,
                givens=request.givens,
                seed=(base + k) % generator.SEED_LIMIT,
                full=request.full,
                check=call.check,
            )
        else:
            made = _generate_variant(request, (base + k) % generator.SEED_LIMIT, call.check)
        if not request.rated:
            break
        from sudoku_server.sudoku.rating import rate_within

        low, high = request.se if request.se is not None else (0.0, 99.0)
        # None: the path already shows another level or a rating above the band (the same choice as rate)
        rating = rate_within(
            made.puzzle, level=request.level, se_high=high, check=call.check, geometry=_made_geometry(made)
        )
        if rating is not None and (request.level is None or rating.level == request.level) and low <= rating.se:
            break
    return Generated(made, rating, request.full, request.format)


def _generate_variant(request: Generate, seed: int, check: Check | None) -> GeneratedPuzzle:
    """:func:`~sudoku_server.sudoku.variant_generator.generate_variant` for a GENERATE with ``rules=``.

    Raises CommandError for options the variant generator turns down
    (``GENERATE: full makes a solved grid; killer cages need a puzzle``).
    """
    from sudoku_server.sudoku.variant_generator import generate_variant

    try:
        return generate_variant(
            request.variant,
            request.size,
            symmetry=request.symmetry,
            givens=request.givens,
            seed=seed,
            full=request.full,
            check=check,
        )
    except ValueError as error:
        raise CommandError(f"GENERATE: {error}") from None


def _made_geometry(made: GeneratedPuzzle) -> Geometry | None:
    """The geometry of a made puzzle's rules (None: classic)."""
    if made.variant.classic:
        return None
    return variant_geometry(made.variant, made.puzzle.box_rows, made.puzzle.box_cols)


def _classic_only(verb: str, request: Canon | Same) -> None:
    """Refuse a CANON or SAME puzzle under other rules than classic (rules, regions, cages or pencilmarks).

    Its transformations (transposition, band, row, stack and column orders,
    relabelling) keep only the classic rules: a canonical form or an
    equivalence found with them means nothing for a jigsaw, killer or
    pencilmark puzzle. Raises CommandError:
    ``CANON: classic rules only, not x``.
    """
    if not request.variant.classic:
        raise CommandError(f"{verb}: classic rules only, not {rules_named(request.variant)}")


def rules_named(variant: Variant) -> str:
    """The rules of a variant in words: ``x+antiknight``, ``pencilmarks``, ``killer with pencilmarks``."""
    if variant.candidates is None:
        return variant.words
    return "pencilmarks" if not variant.rules else f"{variant.words} with pencilmarks"


def _rules(request: Rules, call: _Call) -> Result:
    return RulesSet(Variant(request.rules or ()).words)


def _help(request: Help, call: _Call) -> Result:
    return HelpShown(request.topic)


def _version(request: Version, call: _Call) -> Result:
    return VersionInfo(call.server.version, PROTOCOL, _solver.CORE)


def _ping(request: Ping, call: _Call) -> Result:
    if call.server.draining:
        return Failed(DrainingError("server shutting down, use another"))
    return Pong()


def _quit(request: Quit, call: _Call) -> Result:
    return Bye()


def _stats(request: Stats, call: _Call) -> Result:
    return StatsShown(tuple(call.server.stats_pairs()))


def _interactive(request: Interactive, call: _Call) -> Result:
    return InteractiveOn(call.server.interactive_timeout)


def _keepalive(request: KeepAlive, call: _Call) -> Result:
    return KeepAliveOn(call.server.idle_timeout)


#: THE dispatch table: request type -> handler ``(request, call) -> result``.
HANDLERS: dict[type[Any], Callable[[Any, _Call], Result]] = {
    Solve: _solve,
    Count: _count,
    Candidates: _candidates,
    Rate: _rate,
    Hint: _hint,
    HintAll: _hint_all,
    Steps: _steps,
    Minimal: _minimal,
    Canon: _canon,
    Same: _same,
    Unique: _unique,
    Generate: _generate,
    Help: _help,
    Version: _version,
    Ping: _ping,
    Quit: _quit,
    Stats: _stats,
    Interactive: _interactive,
    KeepAlive: _keepalive,
    Rules: _rules,
}

_STANDALONE = Standalone()


def answer(
    request: Request,
    *,
    check: Check | None = None,
    solvers: Solvers = DEFAULT_SOLVERS,
    server: Server = _STANDALONE,
    about: str = "the request",
) -> Result:
    """The result of one request.

    Args:
      request: a typed request (:mod:`.requests`).
      check: the stop hook passed to the domain's long computations.
      solvers: the solver functions (tests pass slow or broken ones).
      server: what VERSION, PING, STATS, INTERACTIVE and KEEPALIVE read.
      about: what the request is, for the detail of an internal error
        (``the puzzle at line 3``: ``ValueError while solving the puzzle at line 3``).

    Returns:
      The handler's result; ``Failed(error)`` for a domain error, and
      ``Failed(InternalError(...))`` for a fault (logged with its traceback).

    Raises:
      Whatever ``check`` raises, unchanged.
    """
    call = _Call(check, solvers, server)
    try:
        return HANDLERS[type(request)](request, call)
    except PuzzleError as error:
        return Failed(error)
    except Exception as error:
        log.exception("internal error on %s", about)
        doing = "solving" if isinstance(request, Solve) else "answering"
        return Failed(InternalError(f"{type(error).__name__} while {doing} {about}"))


def answer_many(
    requests: Iterable[tuple[Solve, str]],
    *,
    check: Check | None = None,
    solvers: Solvers = DEFAULT_SOLVERS,
) -> Iterator[Result]:
    """The results of many solve requests, in order, one at a time (the server's bulk path).

    Each is answered by the one SOLVE handler, as :func:`answer` answers it.

    Args:
      requests: ``(request, about)`` pairs (``about`` as for :func:`answer`).

    Whatever ``check`` raises ends the iteration there: the results already
    yielded stand, the request it was raised in has none.
    """
    call = _Call(check, solvers, _STANDALONE)
    for request, about in requests:
        try:
            yield _solve(request, call)
        except PuzzleError as error:
            yield Failed(error)
        except Exception as error:
            log.exception("internal error on %s", about)
            yield Failed(InternalError(f"{type(error).__name__} while solving {about}"))
