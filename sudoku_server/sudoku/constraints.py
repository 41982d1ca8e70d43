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
- :class:`Between`: along a line of distinct digits (a row, a column), the
  digits strictly between the cell holding ``low`` and the cell holding
  ``high`` add up to ``total`` (sandwich sums). Added because none of the
  above can say it: which cells are summed depends on where two digits
  fall (issue 29).

Each value carries ``source``: the index, in the rule's own list, of the
thing it came from (a cage, a dot, a line), so that a kind can report a
neutral fact (:class:`Broken`: which constraint, which cells) and the rule
words it (``cage a sums to 14, not 15``).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "AllDifferent",
    "Between",
    "Broken",
    "Candidates",
    "Constraint",
    "Relation",
    "Sum",
    "between_allowed",
    "broken_givens",
    "broken_solution",
    "differ_table",
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


@dataclass(frozen=True)
class Between:
    """Along a line, the digits strictly between the cell holding ``low`` and the one holding ``high`` sum to ``total``.

    The line holds ``low`` once and ``high`` once, in either order; the
    cells strictly between those two add up to ``total`` (0: the two touch,
    nothing between). Its cells hold distinct digits (the engines take a
    line whose cells are peers of each other: a row or a column).

    Attributes:
      cells: the line's cells in order (a sandwich clue's row or column,
        from the clue's side), two or more, distinct.
      low, high: the two digits that bound the summed cells (1 and 9 on 9x9).
      total: the sum of the digits between them.
      source: which of its rule's things this is (the clue's index), -1 for none.
    """

    cells: tuple[int, ...]
    low: int
    high: int
    total: int
    source: int = -1

    def between(self, digits: Sequence[int]) -> tuple[int, int, tuple[int, ...]] | None:
        """Where ``low`` and ``high`` are on the line (positions in ``cells``, in line order) and the cells
        strictly between them; None when either is not placed in ``digits`` (row-major, 0 = empty)."""
        at = {digits[c]: k for k, c in enumerate(self.cells) if digits[c] in (self.low, self.high)}
        if self.low not in at or self.high not in at:
            return None
        i, j = sorted((at[self.low], at[self.high]))
        return i, j, self.cells[i + 1 : j]


#: One value of the vocabulary.
Constraint = AllDifferent | Relation | Sum | Candidates | Between


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


@functools.lru_cache(maxsize=1024)
def between_sets(size: int, mid: int, total: int, cells: int) -> tuple[tuple[int, ...], ...]:
    """Per count k of cells (0 .. ``cells``), the sets of ``k`` digits of ``mid`` (a mask) summing to ``total``."""
    out: list[list[int]] = [[] for _ in range(cells + 1)]
    digits = [d for d in range(1, size + 1) if mid >> (d - 1) & 1]
    for k in range(cells + 1):
        for chosen in itertools.combinations(digits, k):
            if sum(chosen) == total:
                out[k].append(sum(1 << (d - 1) for d in chosen))
    return tuple(tuple(sets) for sets in out)


def between_allowed(constraint: Between, masks: Sequence[int], size: int) -> tuple[int, ...]:
    """Per cell of a :class:`Between` line, the digits of its mask some placement of the line allows.

    ``masks``: per cell of the line, in its order, the digits it may hold
    (bit ``d - 1``). A placement puts ``low`` at one cell and ``high`` at
    another (their masks allowing it), the cells between them a set of as
    many of the other digits summing to ``total`` (listed up to 16 digits;
    above, bounds: the smallest and largest digits of the cells between),
    the cells outside the other digits; each cell a digit of its part and,
    on a line of ``size`` cells, every digit of a part a cell of that part.
    All zeros: no placement (a contradiction). O(cells^2 * sets * cells).
    """
    line = tuple(masks)
    count = len(line)
    lo, hi = 1 << (constraint.low - 1), 1 << (constraint.high - 1)
    mid = ((1 << size) - 1) & ~(lo | hi)
    whole, total = count == size, constraint.total
    listed = between_sets(size, mid, total, max(0, count - 2)) if size <= 16 else None
    allowed = [0] * count
    for a in range(count - 1):
        for b in range(a + 1, count):
            low_first = bool(line[a] & lo and line[b] & hi)
            high_first = bool(line[a] & hi and line[b] & lo)
            if not low_first and not high_first:
                continue
            inner, outer = line[a + 1 : b], line[:a] + line[b + 1 :]
            if listed is None:
                smallest = sum(((m & mid) & -(m & mid)).bit_length() for m in inner)
                largest = sum((m & mid).bit_length() for m in inner)
                choices: Iterable[tuple[int, int]] = ((mid, mid),) if smallest <= total <= largest else ()
            else:
                choices = ((ins, mid & ~ins) for ins in listed[b - a - 1])
            in_union = out_union = 0
            for m in inner:
                in_union |= m
            for m in outer:
                out_union |= m
            acc_in = acc_out = 0
            fit = False
            for ins, outs in choices:
                if whole and listed is not None and (ins & ~in_union or outs & ~out_union):
                    continue
                if all(m & ins for m in inner) and all(m & outs for m in outer):
                    acc_in, acc_out, fit = acc_in | ins, acc_out | outs, True
            if not fit:
                continue
            for k in range(count):
                if k != a and k != b:
                    allowed[k] |= acc_in if a < k < b else acc_out
            allowed[a] |= (lo if low_first else 0) | (hi if high_first else 0)
            allowed[b] |= (hi if low_first else 0) | (lo if high_first else 0)
    return tuple(m & keep for m, keep in zip(line, allowed))


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


def differ_table(size: int) -> tuple[int, ...]:
    """The :class:`Relation` table of "the two digits differ" on ``size`` digits."""
    full = (1 << size) - 1
    return tuple(full ^ (1 << (d - 1)) for d in range(1, size + 1))


def _repeat(constraint: Constraint, cells: tuple[int, ...], digits: Sequence[int]) -> Broken | None:
    """The first digit two of ``cells`` hold (cell order): Broken on those two cells."""
    first: dict[int, int] = {}
    for c in cells:
        d = digits[c]
        if not d:
            continue
        if d in first:
            return Broken(constraint, (first[d], c), getattr(constraint, "source", -1))
        first[d] = c
    return None


def broken_givens(constraint: Constraint, digits: Sequence[int]) -> Broken | None:
    """The first fact of ``constraint`` the givens ``digits`` (row-major, 0 = empty) already break, or None.

    In order: :class:`Candidates`, the first given (row-major) outside its
    mask (one cell); :class:`AllDifferent`, the first digit given twice (the
    two cells, in the constraint's order); :class:`Relation`, the first pair
    (in ``pairs`` order) whose two givens are not an allowed pair (``source``
    the pair's); :class:`Sum`, for ``distinct`` a digit given twice, then the
    givens' weighted sum over ``total`` (when every weight is positive) or,
    with every cell given, other than ``total`` (the given cells);
    :class:`Between`, ``low`` or ``high`` given twice, then with both given
    the givens between them over ``total``, or all given and other than
    ``total`` (the bounding cells, then the given cells between). O(cells).
    """
    if isinstance(constraint, Candidates):
        for i, (d, mask) in enumerate(zip(digits, constraint.masks)):
            if d and not mask >> (d - 1) & 1:
                return Broken(constraint, (i,))
        return None
    if isinstance(constraint, AllDifferent):
        return _repeat(constraint, constraint.cells, digits)
    if isinstance(constraint, Relation):
        for k, (a, b) in enumerate(constraint.pairs):
            da, db = digits[a], digits[b]
            if da and db and not constraint.table[da - 1] >> (db - 1) & 1:
                return Broken(constraint, (a, b), constraint.source[k] if constraint.source else -1)
        return None
    if isinstance(constraint, Between):
        return _between_givens(constraint, digits)
    if constraint.distinct:
        twice = _repeat(constraint, constraint.cells, digits)
        if twice is not None:
            return twice
    weights = constraint.weights or (1,) * len(constraint.cells)
    given = tuple(c for c in constraint.cells if digits[c])
    total = sum(w * digits[c] for c, w in zip(constraint.cells, weights))
    over = total > constraint.total and min(weights) > 0  # a negative weight (an arrow's bulb) can still pull it down
    if over or (len(given) == len(constraint.cells) and total != constraint.total):
        return Broken(constraint, given, constraint.source)
    return None


def broken_solution(constraint: Constraint, digits: Sequence[int]) -> Broken | None:
    """The first fact of ``constraint`` a full grid ``digits`` (row-major, no zeros) breaks, or None.

    As :func:`broken_givens` with every cell given: a :class:`Sum` reports a
    repeat (``distinct``), else a total other than ``total`` (all its cells);
    a :class:`Between` a line without ``low`` or ``high`` (all its cells), else
    a sum between them other than ``total`` (the two bounding cells and the
    cells between, in line order).
    """
    if isinstance(constraint, Sum):
        if constraint.distinct:
            twice = _repeat(constraint, constraint.cells, digits)
            if twice is not None:
                return twice
        weights = constraint.weights or (1,) * len(constraint.cells)
        if sum(w * digits[c] for c, w in zip(constraint.cells, weights)) != constraint.total:
            return Broken(constraint, constraint.cells, constraint.source)
        return None
    if isinstance(constraint, Between):
        bounds = constraint.between(digits)
        if bounds is None:  # a line of distinct digits without low or high (not a whole unit)
            return Broken(constraint, constraint.cells, constraint.source)
        i, j, inner = bounds
        if sum(digits[c] for c in inner) != constraint.total:
            return Broken(constraint, (constraint.cells[i], *inner, constraint.cells[j]), constraint.source)
        return None
    return broken_givens(constraint, digits)


def _between_givens(constraint: Between, digits: Sequence[int]) -> Broken | None:
    """:func:`broken_givens` of a :class:`Between`: ``low`` or ``high`` given twice (those two cells); with
    both given, the givens between them over ``total``, or all given and other than ``total`` (the two
    bounding cells, then the given cells between, in line order)."""
    for d in (constraint.low, constraint.high):
        twice = [c for c in constraint.cells if digits[c] == d]
        if len(twice) > 1:
            return Broken(constraint, (twice[0], twice[1]), constraint.source)
    bounds = constraint.between(digits)
    if bounds is None:
        return None
    i, j, inner = bounds
    given = tuple(c for c in inner if digits[c])
    total = sum(digits[c] for c in given)
    if total > constraint.total or (len(given) == len(inner) and total != constraint.total):
        return Broken(constraint, (constraint.cells[i], *given, constraint.cells[j]), constraint.source)
    return None
