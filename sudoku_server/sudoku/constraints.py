"""The constraint vocabulary: the few kinds of constraint every engine knows.

A rule (``sudoku/rules/``) compiles to these values; the solver cores (Python
and C), the technique engine and the generator switch on the *kinds* here,
never on rule words. Add a kind only when a rule cannot be written with the
ones below (docs/ARCHITECTURE.md, "Rules as data"; after sigh's Interactive
Sudoku Solver: constraint -> handler, each handler propagating one kind).

The kinds (plain frozen values; cells 0-based row-major, digits 1..size,
masks with bit ``d - 1`` for digit d):

- :class:`AllDifferent`: the cells hold distinct digits. Units are the
  geometry's own (rows, columns, boxes, diagonals, regions); an
  ``AllDifferent`` that is not a unit (a killer cage, a pair of cells a
  knight's move apart) makes its cells extra peers.
- :class:`Relation`: for each ``(a, b)`` of ``pairs``, the digits of ``a``
  and ``b`` are an allowed pair of ``table`` (non-consecutive neighbours;
  kropki dots, XV, whispers, thermometer steps and palindrome pairs).
- :class:`Sum`: the cells' digits, each times its weight, add up to
  ``total``; ``distinct`` says whether they also differ (a killer cage: yes;
  a little killer diagonal, an arrow: no).
- :class:`Candidates`: each cell keeps only the digits of its mask
  (pencilmarks, odd/even cells).

Each value carries ``source``: the index, in the rule's own list, of the
thing it came from (a cage, a dot, a line), so that a kind can report a
neutral fact (:class:`Broken`: which constraint, which cells) and the rule
words it (``cage a sums to 14, not 15``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

__all__ = [
    "AllDifferent",
    "Broken",
    "Candidates",
    "Constraint",
    "Relation",
    "Sum",
    "relation_table",
]


@dataclass(frozen=True)
class AllDifferent:
    """The cells hold distinct digits.

    Attributes:
      cells: ascending cell indices, two or more.
      source: which of its rule's things this is (cage index, ...), -1 for none.
    """

    cells: tuple[int, ...]
    source: int = -1


@dataclass(frozen=True)
class Relation:
    """Pairs of cells whose digits must be an allowed pair of ``table``.

    Attributes:
      pairs: ``(a, b)`` cell pairs, ordered as the rule means them (a
        thermometer step is ``(lower, higher)``); a symmetric relation gives
        each pair once with ``a < b``.
      table: ``size`` masks: ``table[d - 1]`` is the mask of the digits
        ``b`` may hold when ``a`` holds ``d`` (non-consecutive on 9x9:
        ``table[4]``, for 5, is every digit but 4 and 6; whether the two
        cells may be equal is the table's to say too).
      source: per pair, which of its rule's things it came from (empty: -1 for all).
    """

    pairs: tuple[tuple[int, int], ...]
    table: tuple[int, ...]
    source: tuple[int, ...] = ()

    def allows(self, da: int, db: int) -> bool:
        """True when ``a`` holding ``da`` and ``b`` holding ``db`` is an allowed pair."""
        return bool(self.table[da - 1] >> (db - 1) & 1)

    @property
    def converse(self) -> tuple[int, ...]:
        """The table read from ``b``'s side: ``[d - 1]`` is the mask ``a`` may hold when ``b`` holds d."""
        size = len(self.table)
        return tuple(
            sum(1 << (da - 1) for da in range(1, size + 1) if self.table[da - 1] >> (db - 1) & 1)
            for db in range(1, size + 1)
        )


@dataclass(frozen=True)
class Sum:
    """The cells' digits, each times its weight, add up to ``total``.

    Attributes:
      cells: the cells, in the rule's order (a pill's digits most significant first).
      total: the sum.
      distinct: True when the digits also differ (a killer cage).
      weights: per cell its weight; empty means 1 for every cell.
      source: which of its rule's things this is (cage index, ...), -1 for none.
    """

    cells: tuple[int, ...]
    total: int
    distinct: bool = False
    weights: tuple[int, ...] = ()
    source: int = -1


@dataclass(frozen=True)
class Candidates:
    """Each cell keeps only the digits of its mask.

    Attributes:
      masks: per cell (``size * size``, row-major) the digits allowed, bit
        ``d - 1`` for digit d, never 0 (the full mask leaves a cell free).
    """

    masks: tuple[int, ...]


#: One value of the vocabulary.
Constraint = AllDifferent | Relation | Sum | Candidates


@dataclass(frozen=True)
class Broken:
    """A neutral fact: ``constraint`` fails on ``cells`` (the rule words it).

    Attributes:
      constraint: the broken constraint.
      cells: the cells that show it (two for a relation pair, the cage's
        cells for a sum), ascending.
      source: the rule's thing (a pair's source, a cage's index), -1 for none.
    """

    constraint: Constraint
    cells: tuple[int, ...]
    source: int = -1


def relation_table(
    size: int, allowed: Iterable[tuple[int, int]] | None = None, *, test: Callable[[int, int], bool] | None = None
) -> tuple[int, ...]:
    """A :class:`Relation` table of ``size`` masks from the allowed ``(da, db)`` pairs.

    ``allowed`` lists the pairs; or ``test``, a callable ``(da, db) -> bool``,
    decides each of the ``size * size`` pairs. Example, non-consecutive on
    9x9: ``relation_table(9, test=lambda a, b: abs(a - b) != 1)``.
    """
    masks = [0] * size
    if allowed is not None:
        for da, db in allowed:
            masks[da - 1] |= 1 << (db - 1)
    if test is not None:
        for da in range(1, size + 1):
            for db in range(1, size + 1):
                if test(da, db):
                    masks[da - 1] |= 1 << (db - 1)
    return tuple(masks)
