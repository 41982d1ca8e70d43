"""Sudoku variants as geometries: a puzzle's rules compiled, by the registry, into units and constraints.

A variant is the classic grid with more rules (docs/PROTOCOL.md,
"Variants"); each rule is one module of :mod:`sudoku_server.sudoku.rules`,
which says what it compiles to: extra units (a diagonal, a window), units
in the boxes' place (regions), and constraints of the vocabulary
(:mod:`sudoku_server.sudoku.constraints`: all-different, relation, sum,
candidates). A pencilmark (Sukaku) puzzle's candidates are a constraint too,
so any rules apply on top.

Everything is data in a :class:`~sudoku_server.sudoku.geometry.Geometry`:
the units, the peers (units plus the cells of every non-unit all-different
and distinct sum) and ``constraints``, with the word of the rule each came
from (``constraint_rules``) and the name messages give it
(``constraint_names``). The solver cores, the technique engine and the
generator read the geometry only, and switch on the kinds.
:func:`variant_geometry` builds it (cached); the classic variant is
:func:`~sudoku_server.sudoku.geometry.classic` itself, so classic puzzles
take exactly today's paths.

:func:`broken_rule` and :func:`wrong_in_solution` check givens and a
solution against the constraints, kind by kind (a neutral
:class:`~sudoku_server.sudoku.constraints.Broken` fact), and let the rule
word it. Cells are numbered row-major from 0 and shown as ``r1c1``.. (1-based).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Protocol

from sudoku_server.sudoku.constraints import (
    AllDifferent,
    Broken,
    Constraint,
    Sum,
    broken_givens,
    broken_solution,
)
from sudoku_server.sudoku.geometry import Geometry, classic, from_units
from sudoku_server.sudoku.rules import PENCILMARKS, RULES, Build, Cage, Variant, Words, check_fits, parse_rules, rule_of

__all__ = [
    "CLASSIC",
    "RULES",
    "Cage",
    "Variant",
    "broken_rule",
    "check_fits",
    "parse_rules",
    "variant_geometry",
    "wrong_in_solution",
]

#: The classic rules.
CLASSIC = Variant()


@functools.lru_cache(maxsize=256)
def variant_geometry(variant: Variant, box_rows: int = 3, box_cols: int = 3) -> Geometry:
    """The :class:`Geometry` of ``variant`` on a grid of boxes ``box_rows x box_cols``.

    Units: the rows, the columns, then the boxes (or the units of the rule
    that replaces them: ``"region 1"``..), then each rule's extra units in
    :data:`RULES` order (``"diagonal 1"``, ``"diagonal 2"``, ``"window 1"``..).
    Constraints: each rule's, in :data:`RULES` order, then the pencilmarks'.
    The classic variant is :func:`~sudoku_server.sudoku.geometry.classic`
    (same object).

    Raises:
      CommandError: a rule that does not fit the grid (:func:`check_fits`).
      PuzzleFormatError: a rule's data missing or malformed (``a jigsaw
        puzzle needs its regions``, ``region c has 8 cells, not 9``,
        ``cage a and cage b overlap at r1c2``).
      InvalidPuzzleError: data no solution can follow (a cage no set of
        distinct digits can sum to, a pencilmark cell with no candidate).
    """
    if variant.classic:
        return classic(box_rows, box_cols)
    size = box_rows * box_cols
    check_fits(variant.rules, size)
    build = Build(variant, size, box_rows, box_cols)
    chosen = [RULES[word] for word in variant.rules]
    base = classic(box_rows, box_cols)
    units: list[tuple[int, ...]] = list(base.units[: 2 * size])  # the rows, then the columns
    names = list(base.unit_names[: 2 * size])  # "row 1".., "column 1"..
    boxes = next((rule for rule in chosen if rule.replaces_boxes), None)
    if boxes is not None and boxes.units is not None:
        placed = list(boxes.units(build))
        shape = (0, 0)
    else:
        placed = list(zip(base.units[2 * size :], base.unit_names[2 * size :]))  # the boxes, "box 1"..
        shape = (box_rows, box_cols)
    for rule in chosen:
        if rule.units is not None and not rule.replaces_boxes:
            placed += rule.units(build)
    units += [cells for cells, _name in placed]
    names += [name for _cells, name in placed]
    constraints: list[Constraint] = []
    words: list[str] = []
    labels: list[str] = []
    for rule in chosen + ([PENCILMARKS] if variant.candidates is not None else []):
        if rule.constraints is not None:
            for constraint, label in rule.constraints(build):
                constraints.append(constraint)
                words.append(rule.word)
                labels.append(label)
    extra: list[tuple[int, int]] = []
    for constraint in constraints:
        if isinstance(constraint, AllDifferent) or (isinstance(constraint, Sum) and constraint.distinct):
            extra += itertools.combinations(constraint.cells, 2)
    key = (
        "variant",
        variant.rules,
        box_rows,
        box_cols,
        variant.regions,
        variant.cages,
        variant.candidates,
        variant.marks,
    )
    return from_units(
        key,
        size,
        units,
        names,
        box_rows=shape[0],
        box_cols=shape[1],
        constraints=constraints,
        extra_peers=extra,
        constraint_rules=words,
        constraint_names=labels,
        rule_words=(*variant.rules, *((PENCILMARKS.word,) if variant.candidates is not None else ())),
    )


class Digits(Protocol):
    """A grid as the checks read it: its cells and how it writes a digit (a :class:`~.grid.Grid`)."""

    @property
    def cells(self) -> tuple[int, ...]: ...

    def symbol(self, digit: int) -> str: ...


def _first(
    cells: Sequence[int],
    symbol: Callable[[int], str],
    geometry: Geometry,
    check: Callable[[Constraint, Sequence[int]], Broken | None],
    solution: bool,
) -> str | None:
    for k, constraint in enumerate(geometry.constraints):
        broken = check(constraint, cells)
        if broken is None:
            continue
        rule = rule_of(geometry.constraint_rules[k])
        words = rule.solution_words if solution else rule.given_words
        assert words is not None, f"rule {rule.word} has no words for a broken constraint"
        return words(broken, Words(cells, symbol, geometry.size, geometry.constraint_names[k]))
    return None


def broken_rule(grid: Digits, geometry: Geometry) -> str | None:
    """The first given that breaks a constraint of ``geometry`` (not a unit), described; None if none.

    The units' duplicates are :func:`~sudoku_server.sudoku.grid.find_duplicate`'s;
    :func:`~sudoku_server.sudoku.grid.check_givens` asks both, this first (two
    3s a knight's move apart in one box break the anti-knight rule by name).
    Constraints are checked in the geometry's order (the rules' in
    :data:`RULES` order, then the pencilmarks), each by its kind
    (:func:`~sudoku_server.sudoku.constraints.broken_givens`), and the rule
    that made it words the fact (``3 at r1c1 and r2c3 are a knight's move
    apart``, ``duplicate 3 in cage a at r1c1 and r1c2``, ``cage a: its
    givens sum to 17, more than its sum 15``, ``3 at r1c1 is not among its
    candidates 124``). The words are the detail of ``ERROR invalid``. O(cells + pairs).

    Args:
      grid: the givens (``size * size`` ints row-major, 0 = empty) and their symbols.
      geometry: the rules (:func:`variant_geometry`).
    """
    return _first(grid.cells, grid.symbol, geometry, broken_givens, False)


def wrong_in_solution(puzzle: Digits, solution: Digits, geometry: Geometry) -> str | None:
    """The first constraint (not a unit) a full ``solution`` breaks, described; None when it keeps them all.

    The independent check of a variant answer, after the units
    (:func:`~sudoku_server.sudoku.grid.verify_solution` calls it); it
    trusts no solver code. Constraints in the geometry's order, each by its
    kind (:func:`~sudoku_server.sudoku.constraints.broken_solution`), worded
    by its rule (``r1c1 and r2c3 are a knight's move apart and both hold 3``,
    ``cage a sums to 14, not 15``, ``r1c1 holds 3, not among its candidates 124``).

    Args:
      puzzle: the givens (for the symbols).
      solution: ``size * size`` digits row-major, no zeros.
      geometry: the rules.
    """
    return _first(solution.cells, puzzle.symbol, geometry, broken_solution, True)
