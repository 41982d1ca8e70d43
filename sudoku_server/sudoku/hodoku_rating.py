"""HoDoKu's level and score of a 9x9 puzzle: its solving path, step by step, with its default settings.

HoDoKu 2.2.0 (``SudokuSolver.solve``/``getHint``, ``Options.DEFAULT_SOLVER_STEPS``,
``SimpleSolver.java``; read for the rules, no code copied) rates a puzzle so:

- At each state it tries its enabled techniques in the order of their
  *index* (:data:`STEPS`) and takes the first step the first technique with
  one gives; it applies it and starts over.
- The score is the sum of the base scores of the techniques of those steps
  (a full house or naked single 4, a hidden single 14, ...).
- The level is the hardest level among those techniques (easy, medium, hard,
  unfair, extreme), raised while the score passes that level's top score
  (easy 800, medium 1000, hard 1600, unfair 1800).

Singles, intersections, subsets and basic fish are found here, and
skyscrapers, two-string kites, empty rectangles, remote pairs and W-, XY- and
XYZ-Wings in :mod:`.hodoku_patterns`, in HoDoKu's own scan order over its own
singles queues (:mod:`.hodoku_grid`); Turbot Fish, X-Chains and XY-Chains in
:mod:`.hodoku_chains`, by HoDoKu's own chain search and choice. The other techniques come from the
``HINT all`` enumerators (:mod:`.techniques.every`): for finned fish, Sue de
Coq the first step listed is taken (HoDoKu takes the first its search meets),
for the others the one HoDoKu's ordering of steps puts first: most
eliminations, then the smallest weighted sum of the eliminated candidates
(``SolutionStep.compareTo``). ALS-XZ, ALS-XY-Wing and ALS-XY-Chain follow
HoDoKu's own ALS search and choice (:mod:`.hodoku_als`), nice loops and AICs
(plain and grouped) its table search and choice (:mod:`.hodoku_loops`),
forcing chains and nets its tables (:mod:`.hodoku_tabling`). Where no technique applies (HoDoKu
would guess), the path stops and the rating is marked incomplete. Agreement
with HoDoKu 2.2.0 itself: benchmarks/RESULTS.md ("HoDoKu parity").
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sudoku_server.sudoku import hodoku_als
from sudoku_server.sudoku import hodoku_patterns as hp
from sudoku_server.sudoku.geometry import classic
from sudoku_server.sudoku.hodoku_chains import chain_step
from sudoku_server.sudoku.hodoku_grid import ALL_UNITS, CONSTRAINTS, HGrid, digits
from sudoku_server.sudoku.hodoku_loops import nice_loop_step
from sudoku_server.sudoku.hodoku_tabling import forcing_step
from sudoku_server.sudoku.techniques import every_als as als
from sudoku_server.sudoku.techniques import every_basic as basic
from sudoku_server.sudoku.techniques import every_patterns as patterns
from sudoku_server.sudoku.techniques.board import Board, Context, tables_of
from sudoku_server.sudoku.techniques.every_basic import step
from sudoku_server.sudoku.techniques.step import Step

__all__ = ["LEVELS", "STEPS", "HodokuRating", "hodoku_path", "hodoku_rating"]

#: HoDoKu's levels, lowercase, and the top score of each (``Options.DEFAULT_DIFFICULTY_LEVELS``).
LEVELS = ("easy", "medium", "hard", "unfair", "extreme")
MAX_SCORE = (800, 1000, 1600, 1800, 1 << 62)

E, M, H, U, X = range(5)

#: (HoDoKu's step name, level, base score, our technique names) for every technique enabled by default,
#: in HoDoKu's order (by index).
STEPS: tuple[tuple[str, int, int, tuple[str, ...]], ...] = (
    ("Full House", E, 4, ()),
    ("Naked Single", E, 4, ()),
    ("Hidden Single", E, 14, ()),
    ("Locked Pair", M, 40, ()),
    ("Locked Triple", M, 60, ()),
    ("Locked Candidates Type 1 (Pointing)", M, 50, ()),
    ("Locked Candidates Type 2 (Claiming)", M, 50, ()),
    ("Naked Pair", M, 60, ()),
    ("Naked Triple", M, 80, ()),
    ("Hidden Pair", M, 70, ()),
    ("Hidden Triple", M, 100, ()),
    ("Naked Quadruple", H, 120, ()),
    ("Hidden Quadruple", H, 150, ()),
    ("X-Wing", H, 140, ()),
    ("Swordfish", H, 150, ()),
    ("Jellyfish", H, 160, ()),
    ("Remote Pair", H, 110, ()),
    ("Bivalue Universal Grave + 1", H, 100, ("BUG+1",)),
    ("Skyscraper", H, 130, ()),
    ("2-String Kite", H, 150, ()),
    ("Turbot Fish", H, 120, ("turbot fish",)),
    ("Empty Rectangle", H, 120, ()),
    ("W-Wing", H, 150, ()),
    ("XY-Wing", H, 160, ()),
    ("XYZ-Wing", H, 180, ()),
    ("Uniqueness Test 1", H, 100, ("unique rectangle type 1",)),
    ("Uniqueness Test 2", H, 100, ("unique rectangle type 2",)),
    ("Uniqueness Test 3", H, 100, ("unique rectangle type 3",)),
    ("Uniqueness Test 4", H, 100, ("unique rectangle type 4",)),
    ("Uniqueness Test 5", H, 100, ("unique rectangle type 5",)),
    ("Uniqueness Test 6", H, 100, ("unique rectangle type 6",)),
    ("Hidden Rectangle", H, 100, ("hidden rectangle",)),
    ("Avoidable Rectangle Type 1", H, 100, ("avoidable rectangle type 1",)),
    ("Avoidable Rectangle Type 2", H, 100, ("avoidable rectangle type 2",)),
    ("Finned X-Wing", H, 130, ("finned X-Wing",)),
    ("Sashimi X-Wing", H, 150, ("sashimi X-Wing",)),
    ("Finned Swordfish", U, 200, ("finned Swordfish",)),
    ("Sashimi Swordfish", U, 240, ("sashimi Swordfish",)),
    ("Finned Jellyfish", U, 250, ("finned Jellyfish",)),
    ("Sashimi Jellyfish", U, 260, ("sashimi Jellyfish",)),
    ("Sue de Coq", U, 250, ("Sue de Coq",)),
    ("Simple Colors", H, 150, ("simple colours trap", "simple colours wrap")),
    ("Multi Colors", H, 200, ("multi-colours 1", "multi-colours 2")),
    ("X-Chain", U, 260, ("X-chain",)),
    ("XY-Chain", U, 260, ("XY-chain",)),
    ("Nice Loop/AIC", U, 280, ("continuous nice loop", "discontinuous nice loop", "AIC")),
    (
        "Grouped Nice Loop/AIC",
        U,
        300,
        ("grouped continuous nice loop", "grouped discontinuous nice loop", "grouped AIC"),
    ),
    ("Almost Locked Set XZ-Rule", U, 300, ("ALS-XZ",)),
    ("Almost Locked Set XY-Wing", U, 320, ("ALS-XY-Wing",)),
    ("Almost Locked Set XY-Chain", U, 340, ("ALS-XY-Chain",)),
    ("Franken X-Wing", U, 300, ("Franken X-Wing",)),
    ("Forcing Chain", X, 500, ()),
    ("Forcing Net", X, 700, ()),
)


_Enum = Callable[[Context], list[Step]]


def _als_step(technique: str, find: Callable[[Context], list[tuple[int, int]] | None]) -> _Enum:
    """The step of an ALS technique HoDoKu takes (:mod:`.hodoku_als`), as a one-step list (none: [])."""

    def steps(x: Context) -> list[Step]:
        gone = find(x)
        return [] if gone is None else [step(x, technique, "", elim=gone)]

    return steps


_als_xz = _als_step("ALS-XZ", hodoku_als.als_xz)
_als_xy_wing = _als_step("ALS-XY-Wing", hodoku_als.als_xy_wing)
_als_chain = _als_step("ALS-XY-Chain", hodoku_als.als_xy_chain)


#: Which enumerator lists a technique's steps (our technique name -> enumerator).
_ENUMS: tuple[tuple[_Enum, tuple[str, ...]], ...] = (
    (functools.partial(basic.fish, k=2), ("finned X-Wing", "sashimi X-Wing")),
    (functools.partial(basic.fish, k=3), ("finned Swordfish", "sashimi Swordfish")),
    (functools.partial(basic.fish, k=4), ("finned Jellyfish", "sashimi Jellyfish")),
    (patterns.bug_plus_one, ("BUG+1",)),
    (
        patterns.rectangles,
        (
            "unique rectangle type 1",
            "unique rectangle type 2",
            "unique rectangle type 3",
            "unique rectangle type 4",
            "unique rectangle type 5",
            "unique rectangle type 6",
            "hidden rectangle",
            "avoidable rectangle type 1",
            "avoidable rectangle type 2",
        ),
    ),
    (als.sue_de_coq, ("Sue de Coq",)),
    (patterns.colours, ("simple colours trap", "simple colours wrap", "multi-colours 1", "multi-colours 2")),
    (_als_xz, ("ALS-XZ",)),  # HoDoKu's first, in its order of restricted commons
    (_als_xy_wing, ("ALS-XY-Wing",)),
    (_als_chain, ("ALS-XY-Chain",)),  # HoDoKu's forward-only search; it sorts (AlsComparator): the best is taken
    (functools.partial(basic.franken_fish, k=2), ("Franken X-Wing",)),
)
#: HoDoKu techniques whose first step in its search order is taken (the enumerators list in that order, digit
#: by digit, rows before columns, base lines in lexicographic order); the others take the step HoDoKu sorts
#: first (:func:`_best`).
FIRST_FOUND = frozenset(
    {
        "Finned X-Wing",
        "Sashimi X-Wing",
        "Finned Swordfish",
        "Sashimi Swordfish",
        "Finned Jellyfish",
        "Sashimi Jellyfish",
        "Franken X-Wing",
        "Almost Locked Set XZ-Rule",
        "Almost Locked Set XY-Wing",
        "Sue de Coq",
    }
)
_ENUM_OF: dict[str, int] = {name: i for i, (_, names) in enumerate(_ENUMS) for name in names}


@dataclass(frozen=True)
class HodokuRating:
    """HoDoKu's rating of a puzzle.

    Attributes:
      level: ``easy``, ``medium``, ``hard``, ``unfair`` or ``extreme``.
      score: the sum of the base scores of the path's steps.
      steps: HoDoKu's name of each step of the path, in order.
      complete: the path solved the puzzle; False where it stopped (HoDoKu would guess, or ``upto``
        left out the technique needed): the level is then ``extreme`` and the score a lower bound.
    """

    level: str
    score: int
    steps: tuple[str, ...]
    complete: bool

    @property
    def field(self) -> str:
        """``<level>:<score>`` as RATE writes it (``+`` after a lower bound)."""
        return f"{self.level}:{self.score}" + ("" if self.complete else "+")


# -- HoDoKu's own finders for the simple techniques -----------------------------------------------------------

Pairs = list[tuple[int, int]]


def _subset_elims(g: HGrid, cells: Sequence[int], mask: int, hidden: bool) -> tuple[Pairs, bool]:
    """The eliminations of a subset and whether it is locked (``SimpleSolver.createSubsetStep``)."""
    out: Pairs = []
    same = [all(CONSTRAINTS[c][i] == CONSTRAINTS[cells[0]][i] for c in cells) for i in range(3)]
    con = CONSTRAINTS[cells[0]]
    if hidden:
        for c in cells:
            out += [(c, d) for d in digits(g.cells[c] & ~mask)]
        return out, False
    found = 0
    for i in range(3):
        if not same[i]:
            continue
        seen = False
        for p in ALL_UNITS[con[i]]:
            if p in cells:
                continue
            for d in digits(g.cells[p] & mask):
                out.append((p, d))
                if not seen and (i == 2 or CONSTRAINTS[p][2] != con[2]):
                    seen = True
                    found += 1
    locked = len(cells) < 4 and found > 1 and same[2] and (same[0] or same[1])
    return out, locked


def _naked(g: HGrid, k: int, locked_only: bool) -> Pairs | None:
    groups = (range(18, 27),) if locked_only else (range(18, 27), range(9), range(9, 18))
    for units in groups:
        for u in units:
            pool = [c for c in ALL_UNITS[u] if g.cells[c] and POP[g.cells[c]] <= k]
            if len(pool) < k:
                continue
            for combo, mask in _unions(pool, g.cells, k):
                out, locked = _subset_elims(g, combo, mask, False)
                if out and locked == locked_only:
                    return out
    return None


#: popcount of a 9-bit mask
POP = [bin(i).count("1") for i in range(1 << 9)]


def _unions(pool: list[int], masks: Sequence[int], k: int) -> list[tuple[tuple[int, ...], int]]:
    """The k-subsets (k = 2..4) of ``pool`` (lexicographic) whose masks' union has exactly k bits; a prefix
    whose union already passes k is cut, as HoDoKu's nested loops do."""
    out: list[tuple[tuple[int, ...], int]] = []
    n = len(pool)
    for i1 in range(n - k + 1):
        a = pool[i1]
        m1 = masks[a]
        if POP[m1] > k:
            continue
        for i2 in range(i1 + 1, n - k + 2):
            b = pool[i2]
            m2 = m1 | masks[b]
            if POP[m2] > k:
                continue
            if k == 2:
                if POP[m2] == 2:
                    out.append(((a, b), m2))
                continue
            for i3 in range(i2 + 1, n - k + 3):
                c = pool[i3]
                m3 = m2 | masks[c]
                if POP[m3] > k:
                    continue
                if k == 3:
                    if POP[m3] == 3:
                        out.append(((a, b, c), m3))
                    continue
                for i4 in range(i3 + 1, n):
                    d = pool[i4]
                    m4 = m3 | masks[d]
                    if POP[m4] == 4:
                        out.append(((a, b, c, d), m4))
    return out


def _positions(g: HGrid) -> list[list[int]]:
    """Per unit (27) and digit (index 1..9), the bitmask of the positions (0-8) in the unit holding it."""
    out = [[0] * 10 for _ in range(27)]
    cells = g.cells
    for u in range(27):
        row = out[u]
        for i, c in enumerate(ALL_UNITS[u]):
            m = cells[c]
            while m:
                low = m & -m
                row[low.bit_length()] |= 1 << i
                m ^= low
    return out


def _hidden(g: HGrid, k: int, pos: list[list[int]]) -> Pairs | None:
    for base in (18, 0, 9):
        for u in range(base, base + 9):
            cells = ALL_UNITS[u]
            if sum(1 for c in cells if g.cells[c]) <= k:
                continue
            free = g.free[u]
            cand = [d for d in range(1, 10) if 0 < free[d] <= k]
            if len(cand) < k:
                continue
            for ds, where in _unions(cand, pos[u], k):
                mask = sum(1 << (d - 1) for d in ds)
                chosen = [cells[i] for i in range(9) if where >> i & 1]
                out, _ = _subset_elims(g, chosen, mask, True)
                if out:
                    return out
    return None


def _locked_candidates(g: HGrid, kind: int) -> Pairs | None:
    bases = (18,) if kind == 1 else (0, 9)
    cells = g.cells
    for base in bases:
        for u in range(base, base + 9):
            free = g.free[u]
            wanted = [d for d in range(1, 10) if free[d] == 2 or free[d] == 3]
            if not wanted:
                continue
            unit = ALL_UNITS[u]
            for d in wanted:
                n = free[d]
                bit = 1 << (d - 1)
                places = [CONSTRAINTS[c] for c in unit if cells[c] & bit]
                con = places[0]
                target = -1
                if base == 18:
                    if all(q[0] == con[0] for q in places) and g.free[con[0]][d] > n:
                        target = con[0]
                    elif all(q[1] == con[1] for q in places) and g.free[con[1]][d] > n:
                        target = con[1]
                elif all(q[2] == con[2] for q in places) and g.free[con[2]][d] > n:
                    target = con[2]
                if target < 0:
                    continue
                return [(c, d) for c in ALL_UNITS[target] if cells[c] & bit and u not in CONSTRAINTS[c]]
    return None


def _basic_fish(g: HGrid, k: int, pos: list[list[int]]) -> Pairs | None:
    """The first basic fish of size k (``FishSolver.getAnyFish``): digits 1-9, rows as base then columns,
    base lines in lexicographic order; the first with eliminations (in the cover lines, ascending cells)."""
    for d in range(1, 10):
        bit = 1 << (d - 1)
        for base, cover in ((0, 9), (9, 0)):
            where = [pos[u][d] for u in range(27)]
            lines = [u for u in range(base, base + 9) if where[u] and POP[where[u]] <= k]
            for combo, covers in _unions(lines, where, k):
                out = sorted(
                    c
                    for i in range(9)
                    if covers >> i & 1
                    for c in ALL_UNITS[cover + i]
                    if g.cells[c] & bit and CONSTRAINTS[c][0 if base == 0 else 1] not in combo
                )
                if out:
                    return [(c, d) for c in out]
    return None


# -- the path ---------------------------------------------------------------------------------------------------

_TABLES = None


def _board(g: HGrid) -> Board:
    global _TABLES
    if _TABLES is None:
        _TABLES = tables_of(classic())
    board = Board(_TABLES, list(g.values), list(g.cells))
    board.placed = g.placed
    return board


def _weight(pairs: Sequence[tuple[int, int]]) -> int:
    """HoDoKu's weighted sum of eliminated candidates (``SolutionStep.getIndexSumme``)."""
    total, offset = 0, 1
    for c, d in pairs:
        total += c * offset + d
        offset += 80
    return total


def _best(steps: list[Step]) -> Step:
    def key(s: Step) -> tuple[int, int, int]:
        el = sorted(s.eliminations)
        return (0 if s.placements else 1, -len(el), _weight(el))

    return min(steps, key=key)


def hodoku_rating(
    givens: Sequence[int],
    *,
    max_steps: int = 2000,
    budget: int | None = None,
    upto: str | None = None,
    deleted: Sequence[tuple[int, int]] = (),
    placed: int = 0,
) -> HodokuRating:
    """HoDoKu's rating of a 9x9 puzzle (81 digits row-major, 0 = empty) with one solution.

    ``deleted``: ``(cell, digit)`` candidates removed before the path starts, ``placed`` the bitboard of the
    filled cells placed, not given (a solving state's: the path and its score are then those of the rest
    from that state, as HoDoKu solves on from a library line; avoidable rectangles use the state's placed
    cells, not those the path fills).

    ``budget``: at most this many states past HoDoKu's subsets may be searched with the enumerators
    (the costly part: 10-100 ms a state in Python); None: no limit. Past it the path stops.
    ``upto``: the last technique (HoDoKu's name, :data:`STEPS`) tried; where none up to it applies the
    path stops (RATE stops before finned fish: the costly enumerators come after it). None: every one.
    Returns a :class:`HodokuRating`; ``complete`` is False where the path stopped before the end.
    """
    g = HGrid.from_givens(givens)
    g.delete(deleted)
    g.placed = placed
    score = 0
    level = E
    names: list[str] = []
    complete = True
    spent = 0
    last = len(STEPS) - 1 if upto is None else [name for name, *_ in STEPS].index(upto)
    while not g.solved():
        if len(names) >= max_steps:
            complete = False
            break
        taken = _next(g, budget is None or spent < budget, last)
        if taken is None:
            complete = False
            break
        index, placements, elims = taken
        spent += index >= 16
        name, lv, base, _ = STEPS[index]
        names.append(name)
        score += base
        level = max(level, lv)
        for c, d in placements:
            g.set_cell(c, d)
        g.delete(elims)
    if not complete:
        level = X
    while score > MAX_SCORE[level]:
        level += 1
    return HodokuRating(LEVELS[level], score, tuple(names), complete)


def hodoku_path(givens: Sequence[int], *, max_steps: int = 2000) -> list[tuple[str, Pairs, Pairs]]:
    """HoDoKu's solving path of a 9x9 puzzle (81 digits row-major, 0 = empty), every technique on.

    Returns one ``(HoDoKu's step name, placements, eliminations)`` per step, ``(cell, digit)`` pairs with
    cells 0..80 row-major (as HoDoKu's ``/vp`` lists a path); it ends early where no technique applies.
    """
    g = HGrid.from_givens(givens)
    out: list[tuple[str, Pairs, Pairs]] = []
    while not g.solved() and len(out) < max_steps:
        taken = _next(g)
        if taken is None:
            break
        index, placements, elims = taken
        out.append((STEPS[index][0], placements, elims))
        for c, d in placements:
            g.set_cell(c, d)
        g.delete(elims)
    return out


def _next(g: HGrid, enumerate_more: bool = True, last: int = len(STEPS) - 1) -> tuple[int, Pairs, Pairs] | None:
    """The step HoDoKu takes at this state: (index into :data:`STEPS`, placements, eliminations)."""
    single = g.full_house()
    if single:
        return 0, [single], []
    single = g.naked_single()
    if single:
        return 1, [single], []
    single = g.hidden_single()
    if single:
        return 2, [single], []
    table: list[list[list[int]]] = []

    def pos() -> list[list[int]]:
        if not table:
            table.append(_positions(g))
        return table[0]

    simple: tuple[tuple[int, Callable[[], Pairs | None]], ...] = (
        (3, lambda: _naked(g, 2, True)),
        (4, lambda: _naked(g, 3, True)),
        (5, lambda: _locked_candidates(g, 1)),
        (6, lambda: _locked_candidates(g, 2)),
        (7, lambda: _naked(g, 2, False)),
        (8, lambda: _naked(g, 3, False)),
        (9, lambda: _hidden(g, 2, pos())),
        (10, lambda: _hidden(g, 3, pos())),
        (11, lambda: _naked(g, 4, False)),
        (12, lambda: _hidden(g, 4, pos())),
        (13, lambda: _basic_fish(g, 2, pos())),
        (14, lambda: _basic_fish(g, 3, pos())),
        (15, lambda: _basic_fish(g, 4, pos())),
    )
    for index, find in simple:
        out = find()
        if out:
            return index, [], out
    x: Context | None = None
    listed: dict[int, list[Step]] = {}
    for index in range(16, last + 1):
        nets = _TABLING.get(STEPS[index][0])
        if nets is not None:
            if not enumerate_more:
                return None
            found_step = forcing_step(g, nets)
            if found_step:
                return index, found_step[0], found_step[1]
            continue
        grouped = _LOOPS.get(STEPS[index][0])
        if grouped is not None:
            if not enumerate_more:
                return None
            loop = nice_loop_step(g, grouped)
            if loop:
                return index if loop.grouped else _PLAIN_LOOPS, [], list(loop.eliminations)
            continue
        own = _OWN.get(STEPS[index][0])
        if own is not None:
            out = own(g)
            if out:
                return index, [], out
            continue
        if not enumerate_more:
            return None
        if x is None:
            x = Context(_board(g), lambda: None)
        wanted = STEPS[index][3]
        found: list[Step] = []
        for name in wanted:
            e = _ENUM_OF[name]
            if e not in listed:
                listed[e] = [s for s in _ENUMS[e][0](x) if _changes(s, g)]
            found += [s for s in listed[e] if s.technique == name]
        if found:
            s = found[0] if STEPS[index][0] in FIRST_FOUND else _best(found)
            return index, list(s.placements), sorted(s.eliminations, key=lambda p: (p[1], p[0]))
    return None


def _chain(g: HGrid, kind: str) -> Pairs | None:
    """The X-Chain, XY-Chain or Turbot Fish HoDoKu takes (:mod:`.hodoku_chains`), its eliminations."""
    found = chain_step(g, kind)
    return None if found is None else list(found.eliminations)


#: HoDoKu techniques past the basic fish found here in HoDoKu's own order (:mod:`.hodoku_patterns`,
#: :mod:`.hodoku_chains`).
_OWN: dict[str, Callable[[HGrid], Pairs | None]] = {
    "Skyscraper": hp.skyscraper,
    "2-String Kite": hp.two_string_kite,
    "Empty Rectangle": hp.empty_rectangle,
    "Remote Pair": hp.remote_pair,
    "W-Wing": hp.w_wing,
    "XY-Wing": hp.xy_wing,
    "XYZ-Wing": hp.xyz_wing,
    "Turbot Fish": functools.partial(_chain, kind="Turbot Fish"),
    "X-Chain": functools.partial(_chain, kind="X-Chain"),
    "XY-Chain": functools.partial(_chain, kind="XY-Chain"),
}


#: HoDoKu's nice loops and AICs (:mod:`.hodoku_loops`): name -> grouped search. The grouped search finds plain
#: loops too; HoDoKu scores a step by its type, so a plain loop it takes counts as ``Nice Loop/AIC``.
_LOOPS: dict[str, bool] = {"Nice Loop/AIC": False, "Grouped Nice Loop/AIC": True}
_PLAIN_LOOPS = [name for name, *_ in STEPS].index("Nice Loop/AIC")

#: HoDoKu's tabling techniques (:mod:`.hodoku_tabling`): name -> nets (False: forcing chains).
_TABLING: dict[str, bool] = {"Forcing Chain": False, "Forcing Net": True}


def _changes(s: Step, g: HGrid) -> bool:
    return any(not g.values[c] for c, _ in s.placements) or any(g.cells[c] >> (d - 1) & 1 for c, d in s.eliminations)
