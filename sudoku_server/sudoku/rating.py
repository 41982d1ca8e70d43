"""How hard a puzzle is, on three scales people know. Pure and synchronous.

:func:`rate` solves the puzzle step by step with :mod:`.techniques` (the
easiest technique first at every point) and reads three ratings off the path:

**SE** (``Rating.se``, with ``er``, ``ep``, ``ed``): the Sudoku Explainer
rating (SE 1.2.1 by Nicolas Juillerat; the scale of the Sukaku Explainer
fork, github.com/SudokuMonster/SukakuExplainer, whose default technique set
and per-technique ratings :mod:`.techniques` follows -- its module docstring
has the table). ER is the rating of the hardest step on the path; EP the
hardest step up to the first placement that is not a single ("pearl"); ED
the first step's rating ("diamond"), as SE's ``Solver.getDifficulty``
computes them. ``se`` is ER. ``Rating.hardest`` is the step that set it.
A path that needs the *search step* (no technique applies) has an ER
estimated from the search (``Rating.method == "search estimate"``), 9.0
and up; every other ER comes from the steps' SE ratings
(``method == "techniques"``).

**QQWing** (``Rating.qqwing``): the level QQWing 1.3.4 (Stephen Ostermiller,
qqwing.com, ``qqwing.cpp`` ``SudokuBoard::getDifficulty``) prints: its
solver tries, in order, naked singles, hidden singles (box, row, column),
naked pairs, pointing pairs and triples, box/line reductions and hidden
pairs, and guesses when none applies. The level is *expert* if it had to
guess, else *intermediate* if it used anything past singles, else *easy*
if it used a hidden single, else *simple*. QQWing is a 9x9 program: at
other sizes ``Rating.qqwing`` is None (RATE answers ``qqwing=none``),
though :func:`qqwing_level` itself runs on any size. These deductions only ever
remove candidates, so what QQWing needs does not depend on the order it
finds them in: :func:`qqwing_level` computes the level from three closures
(naked singles; all singles; all its techniques).

**Level** (``Rating.level``): five names for people, each defined by the
hardest technique the path needs (:data:`LEVEL_OF`):

=========  ===============================================================
easy       singles only: full house, hidden single, naked single; on variants the rules' own steps
           (nonconsecutive, thermometer, thermometer bounds, renban run, ...), cage combinations
medium     + pointing, claiming, naked and hidden pairs and triples; rule of 45
hard       + X-Wing, Swordfish, Jellyfish, quadruples, skyscraper,
           two-string kite, turbot fish, empty rectangle, XY-Wing,
           XYZ-Wing, unique rectangles and loops, BUG (+1, types 2-4)
expert     + X-chains of 3-4 strong links, WXYZ-, VWXYZ-, UVWXYZ-Wings,
           X-cycles and X-chains, XY-cycles and XY-chains, W-Wing, AIC,
           nice loops, simple colouring, aligned pair exclusion
extreme    + aligned triple exclusion, Nishio forcing chains, cell and unit forcing
           chains, dynamic forcing chains, search
=========  ===============================================================

:data:`LEVELS` and :data:`QQWING_LEVELS` are defined here only. Importing
this module does not load the technique engine: it is imported by the
functions that rate, on their first call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudoku_server.sudoku.check import Check
from sudoku_server.sudoku.geometry import Geometry
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rules import RULES

if TYPE_CHECKING:  # the technique engine loads on the first rating, not with LEVELS
    from sudoku_server.sudoku.techniques import Board, Step

__all__ = ["LEVELS", "LEVEL_OF", "QQWING_LEVELS", "Rating", "qqwing_level", "rate", "rate_within", "rating_of"]

#: The five levels for people, easiest first.
LEVELS = ("easy", "medium", "hard", "expert", "extreme")

#: QQWing's four levels, easiest first.
QQWING_LEVELS = ("simple", "easy", "intermediate", "expert")

_EASY = (
    "full house",
    "hidden single",
    "naked single",
    *(rule.step.name for rule in RULES.values() if rule.step),  # a relation's step, named by its rule
    *(rule.line.name for rule in RULES.values() if rule.line),  # a line's step (thermometer bounds, renban run)
    "cage combinations",
)
_MEDIUM = ("pointing", "claiming", "naked pair", "hidden pair", "naked triple", "hidden triple", "rule of 45")
_HARD = (
    "X-Wing",
    "Swordfish",
    "Jellyfish",
    "naked quadruple",
    "hidden quadruple",
    "skyscraper",
    "two-string kite",
    "turbot fish",
    "empty rectangle",
    "grouped turbot fish",
    "XY-Wing",
    "XYZ-Wing",
    "unique rectangle type 1",
    "unique rectangle type 2",
    "unique rectangle type 3",
    "unique rectangle type 4",
    "avoidable rectangle type 1",
    "avoidable rectangle type 2",
    "BUG+1",
    "BUG type 2",
    "BUG type 3",
    "BUG type 4",
    "unique loop type 1",
    "unique loop type 2",
    "unique loop type 3",
    "unique loop type 4",
)
_EXPERT = (
    "WXYZ-Wing",
    "VWXYZ-Wing",
    "UVWXYZ-Wing",
    "X-cycle",
    "X-chain",
    "XY-cycle",
    "XY-chain",
    "W-Wing",
    "AIC",
    "nice loop",
    "simple colouring",
    "aligned pair exclusion",
)
_EXTREME = (
    "aligned triple exclusion",
    "Nishio forcing chains",
    "cell forcing chains",
    "unit forcing chains",
    "dynamic forcing chains",
    "dynamic forcing chains plus",
    "nested forcing chains",
    "search",
)

#: The easiest level of the steps each finder of the path can find (:data:`techniques.TECHNIQUES` names);
#: a finder not listed counts as able to find an easy step (it is always run).
_FINDER_LEVEL = {
    "rule of 45": "medium",
    "pointing": "medium",
    "claiming": "medium",
    "naked pair": "medium",
    "hidden pair": "medium",
    "naked triple": "medium",
    "hidden triple": "medium",
    "X-Wing": "hard",
    "Swordfish": "hard",
    "two strong links": "hard",
    "XY-Wing": "hard",
    "XYZ-Wing": "hard",
    "unique rectangle": "hard",
    "unique loop": "hard",
    "avoidable rectangle": "hard",
    "naked quadruple": "hard",
    "Jellyfish": "hard",
    "hidden quadruple": "hard",
    "BUG": "hard",
    "three strong links": "expert",
    "four strong links": "expert",
    "WXYZ-Wing": "expert",
    "VWXYZ-Wing": "expert",
    "UVWXYZ-Wing": "expert",
    "aligned pair exclusion": "expert",
    "chains": "expert",
    "aligned triple exclusion": "extreme",
    "Nishio forcing chains": "extreme",
    "forcing chains": "extreme",
    "dynamic forcing chains": "extreme",
}

#: Technique name (as in :attr:`Step.technique`) -> level name.
LEVEL_OF = {name: level for level, names in zip(LEVELS, (_EASY, _MEDIUM, _HARD, _EXPERT, _EXTREME)) for name in names}


@dataclass(frozen=True)
class Rating:
    """The ratings of one puzzle.

    Attributes:
      level: one of :data:`LEVELS`.
      se: the SE rating (ER), one decimal: the rating of ``hardest``.
      er, ep, ed: Sudoku Explainer's three numbers (er == se).
      qqwing: one of :data:`QQWING_LEVELS` on 9x9; None at other sizes
        (QQWing's levels are defined for 9x9 only).
      hardest: the step that set ``se`` (the first of the path with that rating).
      steps: the number of steps on the path.
      method: ``"techniques"``, or ``"search estimate"`` when the path needed
        the search step (then ``se`` is an estimate, not an SE rating).
      rules: the rules the path followed, as ``rules=`` writes them
        (``classic``, ``x+antiknight``).
      notes: the technique families left out of the path because they do
        not apply to the rules, in words (:func:`.techniques.rule_notes`).
      hodoku: HoDoKu 2.2.0's level (lowercase) and score as ``<level>:<score>``
        (:mod:`.hodoku_rating`), ``+`` after the score where its path stopped
        before the end (HoDoKu's forcing chains, nets or guessing, or a
        technique past :data:`HODOKU_UPTO`): the level is then ``extreme`` and
        the score a lower bound. None off classic 9x9.
    """

    level: str
    se: float
    er: float
    ep: float
    ed: float
    qqwing: str | None
    hardest: Step | None
    steps: int
    method: str
    rules: str = "classic"
    notes: tuple[str, ...] = ()
    hodoku: str | None = None


#: RATE's HoDoKu path tries techniques up to this one (:func:`.hodoku_rating.hodoku_rating`'s ``upto``): those
#: past it (uniqueness, finned fish, Sue de Coq, colours, chains, ALS) come from the Python enumerators, 1-500 ms
#: a state; up to here RATE on top1465 keeps its p95 within 100 ms (benchmarks/RESULTS.md, "HoDoKu parity").
HODOKU_UPTO = "XYZ-Wing"
#: RATE of a solving state (:func:`rate_state`): HoDoKu's path tries every technique (a library line's state
#: is there for one past XYZ-Wing), searching at most this many states with the costly enumerators.
STATE_BUDGET = 8


def rate(grid: Grid, *, check: Check | None = None, geometry: Geometry | None = None) -> Rating:
    """Rate a puzzle with exactly one solution (any size; SE techniques past singles,
    intersections, subsets and fish are 9x9 only, so a larger puzzle that needs
    more takes search steps, whose estimate reaches 11.0 at 1,024 nodes where
    the search stops: :mod:`.techniques.search`; ``qqwing`` is None off 9x9).

    Measured (CPU, one core, C solver core and native technique engine):
    top1465 median 19 ms, max about 0.15 s (about 2 s with the Python
    engine); those that need nested forcing chains (the forum's 11+
    puzzles, with ``techniques._nested`` built) 1-4 s, the few that need
    its level 4 (SE 11.7-11.9, the Golden Nugget) 4-10 s; generated 16x16
    (minimal) 0.15-0.45 s; generated 25x25 (320 givens) 0.1-0.6 s.

    Args:
      grid: the puzzle (``size * size`` ints row-major, 0 = empty).
      check: called often (between steps and inside long searches); may
        block or raise, and what it raises propagates.
      geometry: the puzzle's rules (a variant's geometry); None: classic.
        On a variant the path uses the techniques that apply to its rules
        (:func:`.techniques.rule_notes` names the families left out, in
        ``Rating.notes``), ``qqwing`` is None, ``rules`` names the rules.

    Raises:
      InvalidPuzzleError: two givens share a unit.
      UnsolvableError: no solution (detail as :func:`solver.solve`).
      MultipleSolutionsError: more than one solution (the detail names a cell
        that differs: "the puzzle has more than one solution (r1c2 can be 3 or 5)").
    """
    from sudoku_server.sudoku.techniques import Board, steps_on, unique_solution

    solution = unique_solution(grid, check=check, geometry=geometry)
    steps = steps_on(Board.from_grid(grid, geometry), solution, check=check)
    return _with_hodoku(grid, rating_of(grid, steps, check=check, geometry=geometry), geometry)


def _with_hodoku(grid: Grid, rating: Rating, geometry: Geometry | None) -> Rating:
    """``rating`` with HoDoKu's level and score (``Rating.hodoku``) on a classic 9x9 puzzle; as it is otherwise."""
    if grid.size == 9 and (geometry is None or geometry.classic):
        from dataclasses import replace

        from sudoku_server.sudoku.hodoku_rating import hodoku_rating

        return replace(rating, hodoku=hodoku_rating(list(grid.cells), upto=HODOKU_UPTO).field)
    return rating


def rate_state(board: Board, solution: Sequence[int], *, check: Check | None = None) -> Rating:
    """The rating of the rest of the path from a classic solving state (RATE of a HoDoKu library line).

    ``board``: the state (:meth:`.techniques.Board.from_state`; it is
    solved in place); ``solution``: its solution (81 digits). The figures
    are :func:`rate`'s over the steps from the state to the solution:
    ``level``, ``se`` and ``hardest`` those of the hardest step left;
    ``qqwing`` None (QQWing rates givens, not a state); ``hodoku`` HoDoKu's
    level and score of its own path from the same state.

    Raises:
      TechniqueError: a step contradicts the solution (a bug).
    """
    from dataclasses import replace

    from sudoku_server.sudoku.hodoku_rating import hodoku_rating
    from sudoku_server.sudoku.techniques import steps_on

    values, placed = list(board.values), board.placed
    peers = board.t.peers
    deleted = []  # the candidates the state removed past its digits' peers: HoDoKu's start deletes them too
    for c, v in enumerate(values):
        if not v:
            left = board.t.full
            for p in peers[c]:
                if values[p]:
                    left &= ~(1 << (values[p] - 1))
            deleted += [(c, d + 1) for d in range(board.t.n) if (left & ~board.cand[c]) >> d & 1]
    grid = Grid(tuple(values), board.t.box_rows, board.t.box_cols, board.symbols)
    steps = steps_on(board, solution, check=check)
    rating = rating_of(grid, steps, check=check, state=True)
    return replace(rating, hodoku=hodoku_rating(values, deleted=deleted, placed=placed, budget=STATE_BUDGET).field)


def rate_within(
    grid: Grid,
    *,
    level: str | None = None,
    se_high: float = 99.0,
    check: Check | None = None,
    geometry: Geometry | None = None,
) -> Rating | None:
    """:func:`rate`, or None as soon as the path shows the puzzle is not at ``level`` or rates above ``se_high``.

    For a search of a puzzle of one level (GENERATE level=...): the rating
    of a puzzle it returns is :func:`rate`'s, and None means :func:`rate`
    would have given another level or an SE rating above ``se_high``. The
    path stops at the first step past the level or above ``se_high`` (the
    level and ER only grow along the path). A puzzle that singles alone
    solve is easy (they only remove candidates, so applying them in any order
    ends in the same grid; the path then uses nothing else); for a harder
    level it is turned down before its path is made.

    Args, Raises: as :func:`rate`; ``level`` one of :data:`LEVELS` or None.
    """
    from sudoku_server.sudoku.techniques import TECHNIQUES, Board, path_step_upto, unique_solution

    solution = unique_solution(grid, check=check, geometry=geometry)
    wanted = LEVELS.index(level) if level is not None else len(LEVELS) - 1
    board = Board.from_grid(grid, geometry)
    if level is not None and wanted > 0 and grid.size == 9 and board.t.geometry.classic:
        trial = board.copy()
        if _qq_singles(trial, hidden=True) and trial.solved():
            return None
    # the last finder of the path that can find a step at the level or below: when every finder up to
    # it fails, the path's step is of a later finder (a harder level) or the search step (extreme)
    last = TECHNIQUES[-1].name
    if level is not None:
        for tech in TECHNIQUES:
            if tech.in_path and LEVELS.index(_FINDER_LEVEL.get(tech.name, "easy")) <= wanted:
                last = tech.name
    steps = []
    while not board.solved():
        step = path_step_upto(board, solution, last, check=check)
        if step is None:
            return None
        if step.se > se_high or LEVELS.index(LEVEL_OF.get(step.technique, "extreme")) > wanted:
            return None
        board.apply(step)
        steps.append(step)
    return _with_hodoku(grid, rating_of(grid, steps, check=check, geometry=geometry), geometry)


def rating_of(
    grid: Grid,
    steps: Sequence[Step],
    *,
    check: Check | None = None,
    geometry: Geometry | None = None,
    state: bool = False,
) -> Rating:
    """The :class:`Rating` of a puzzle from its path (as :func:`techniques.solve_steps` returns it).

    ``geometry``: the puzzle's rules, as for :func:`rate` (None: classic). ``state``: the path starts at a
    classic solving state (:func:`rate_state`), not at ``grid``'s givens: ``qqwing`` is None.
    """
    er = ep = ed = 0.0
    hardest: Step | None = None
    level = 0
    pearl_done = False
    for i, step in enumerate(steps):
        if step.se > er:
            er, hardest = step.se, step
        if i == 0:
            ed = step.se
        if not pearl_done and step.placements:
            ep = er
            pearl_done = True
        level = max(level, LEVELS.index(LEVEL_OF.get(step.technique, "extreme")))
    method = "search estimate" if any(s.technique == "search" for s in steps) else "techniques"
    classic = geometry is None or geometry.classic
    if not classic:
        from sudoku_server.sudoku.techniques import rule_notes
    return Rating(
        level=LEVELS[level],
        se=er,
        er=er,
        ep=ep,
        ed=ed,
        qqwing=qqwing_level(grid, check=check) if grid.size == 9 and classic and not state else None,
        hardest=hardest,
        steps=len(steps),
        method=method,
        rules="classic" if geometry is None or classic else _rules_words(geometry),
        notes=() if geometry is None or classic else rule_notes(geometry),
    )


def _rules_words(geometry: Geometry) -> str:
    """The rules of a variant geometry as ``rules=`` writes them (its key holds them: :func:`variant_geometry`)."""
    key = geometry.key
    if isinstance(key, tuple) and len(key) > 1 and key[0] == "variant" and isinstance(key[1], tuple):
        rules = list(key[1])
        if len(key) > 6 and key[6] is not None:  # the candidates (variant_geometry's key)
            rules.append("pencilmarks")
        return "+".join(rules) or "classic"
    return "custom"


# --------------------------------------------------------------------------
# QQWing's level


def _qq_singles(board: Board, hidden: bool) -> bool:
    """Apply naked (and hidden) singles until none is left; False on a contradiction."""
    t = board.t
    n = t.n
    values, cand = board.values, board.cand
    while True:
        progress = False
        for c in range(t.N):
            if values[c]:
                continue
            m = cand[c]
            if not m:
                return False
            if not m & (m - 1):
                board.place(c, m.bit_length())
                progress = True
        if progress:
            continue
        if not hidden:
            return True
        pos = board.pos()
        for u, um in enumerate(t.unit_mask):
            for d in range(n):
                p = pos[d] & um
                if p and not p & (p - 1):
                    board.place(p.bit_length() - 1, d + 1)
                    progress = True
                    break
            if progress:
                break
        if not progress:
            return True


def _qq_reductions(board: Board) -> bool:
    """One of QQWing's eliminations (naked pair, pointing, box/line, hidden pair); True if any."""
    t = board.t
    n = t.n
    cand = board.cand
    pos = board.pos()
    # naked pairs
    for um, cells in zip(t.unit_mask, t.units):
        pairs: dict[int, list[int]] = {}
        for c in cells:
            m = cand[c]
            if m and (m & (m - 1)) and not (m & (m - 1)) & ((m & (m - 1)) - 1):
                pairs.setdefault(m, []).append(c)
        for m, cs in pairs.items():
            if len(cs) >= 2:
                a, b = cs[0], cs[1]
                changed = False
                for c in cells:
                    if c != a and c != b and cand[c] & m:
                        cand[c] &= ~m
                        changed = True
                if changed:
                    board.changed()
                    return True
    # pointing and box/line
    for b, line, im in t.inter:
        for d in range(n):
            # pointing (box -> line), then claiming (line -> box)
            for inside, outside in ((b, line), (line, b)):
                places = pos[d] & t.unit_mask[inside]
                if places and not places & ~im:
                    victims = pos[d] & t.unit_mask[outside] & ~t.unit_mask[inside]
                    if victims:
                        bit = 1 << d
                        for c in range(t.N):
                            if victims >> c & 1:
                                cand[c] &= ~bit
                        board.changed()
                        return True
    # hidden pairs
    for um in t.unit_mask:
        twos: dict[int, list[int]] = {}
        for d in range(n):
            p = pos[d] & um
            if p and bin(p).count("1") == 2:
                twos.setdefault(p, []).append(d)
        for p, ds in twos.items():
            if len(ds) >= 2:
                keep = (1 << ds[0]) | (1 << ds[1])
                changed = False
                for c in range(t.N):
                    if p >> c & 1 and cand[c] & ~keep:
                        cand[c] &= keep
                        changed = True
                if changed:
                    board.changed()
                    return True
    return False


def qqwing_level(grid: Grid, *, check: Check | None = None) -> str:
    """QQWing 1.3.4's level of a puzzle: simple, easy, intermediate or expert (see the module docstring)."""
    from sudoku_server.sudoku.techniques import Board

    base = Board.from_grid(grid)
    b = base.copy()
    if _qq_singles(b, hidden=False) and b.solved():
        return "simple"
    b = base.copy()
    if _qq_singles(b, hidden=True) and b.solved():
        return "easy"
    while True:
        if check is not None:
            check()
        if not _qq_singles(b, hidden=True):
            return "expert"
        if b.solved():
            return "intermediate"
        if not _qq_reductions(b):
            return "expert"
