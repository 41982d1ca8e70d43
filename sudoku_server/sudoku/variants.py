"""Sudoku variants as geometries: the ``rules=`` words, their units and their constraints.

A variant is the classic grid with more rules (docs/PROTOCOL.md, "Variants"):

- **unit rules** add units: ``x`` (both main diagonals, any size),
  ``windoku`` (four extra 3x3 windows at rows and columns 2-4 and 6-8, 9x9
  only), ``jigsaw`` (irregular regions replace the boxes);
- **peer rules** add pairs of cells that must differ without sharing a unit:
  ``antiknight`` (a chess knight's move apart), ``antiking`` (diagonally
  adjacent; orthogonal neighbours already share a row or column);
- ``nonconsecutive``: orthogonally adjacent cells never hold consecutive
  digits (a constraint on pairs that is not "differ");
- ``killer``: cages whose digits do not repeat (their cells become extra
  peers) and sum to the cage's total.

A pencilmark (Sukaku) puzzle gives each cell's candidates instead of givens:
that is a constraint too (:class:`Candidates`), so any rules apply on top.

Everything is data in a :class:`~sudoku_server.sudoku.geometry.Geometry`:
the units, the peers (units plus extra peers) and ``constraints``, a tuple of
:class:`PairRule`, :class:`Cages` and :class:`Candidates` values. The solver
cores, the technique engine and the generator read the geometry only.
:func:`variant_geometry` builds it (cached); the classic variant is
:func:`~sudoku_server.sudoku.geometry.classic` itself, so classic puzzles
take exactly today's paths.

Cells are numbered row-major from 0 and shown as ``r1c1``.. (1-based).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudoku_server.errors import CommandError, InvalidPuzzleError, PuzzleFormatError, quote
from sudoku_server.sudoku.geometry import Geometry, cell_name, classic, from_units

if TYPE_CHECKING:
    from sudoku_server.sudoku.grid import Grid

__all__ = [
    "CLASSIC",
    "RULES",
    "Cage",
    "Cages",
    "Candidates",
    "PairRule",
    "Variant",
    "broken_rule",
    "cage_name",
    "cage_sums",
    "check_fits",
    "parse_rules",
    "variant_geometry",
    "wrong_in_solution",
]

#: Every rule word ``rules=`` takes, in the canonical order of a rule list.
RULES = ("classic", "x", "windoku", "antiknight", "antiking", "nonconsecutive", "jigsaw", "killer")

#: Rules that need data with the puzzle (regions, cages).
_WITH_DATA = ("jigsaw", "killer")

_KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
_KING_DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))
_ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))

#: How a broken peer rule is worded: ``invalid 3 at r1c1 and r2c3 are a knight's move apart``.
PAIR_WORDS = {
    "antiknight": "are a knight's move apart",
    "antiking": "touch diagonally",
    "nonconsecutive": "are consecutive neighbours",
}


@dataclass(frozen=True)
class Cage:
    """A killer cage: its cells hold distinct digits that sum to ``total``.

    Attributes:
      cells: the cage's cells, ascending (0-based, row-major), at least one.
      total: the sum of its digits (1 .. the sum of the largest digits).
      symbol: how the puzzle named it (``"a"`` in a cage block, the cage id
        of a SudoCue line); messages say ``cage a``.
    """

    cells: tuple[int, ...]
    total: int
    symbol: str = ""


@dataclass(frozen=True)
class PairRule:
    """A rule on pairs of cells (a constraint of the geometry).

    Attributes:
      rule: ``"antiknight"`` or ``"antiking"`` (the two cells differ; they are
        extra peers too) or ``"nonconsecutive"`` (their digits do not differ
        by one).
      pairs: ``(a, b)`` cells with ``a < b``, ascending.
    """

    rule: str
    pairs: tuple[tuple[int, int], ...]

    @property
    def differ(self) -> bool:
        """True when the rule says the two cells differ (anti-knight, anti-king)."""
        return self.rule != "nonconsecutive"


@dataclass(frozen=True)
class Cages:
    """The killer cages (a constraint of the geometry); cells in no cage are free.

    Attributes:
      cages: the cages, in the order the puzzle gave them (disjoint).
      cage_of: per cell, the index of its cage in ``cages`` or -1.
    """

    cages: tuple[Cage, ...]
    cage_of: tuple[int, ...]


@dataclass(frozen=True)
class Candidates:
    """A pencilmark puzzle's candidates (a constraint of the geometry).

    Attributes:
      masks: per cell (``size * size``, row-major) the digits still allowed,
        bit ``d - 1`` for digit d, never 0.
    """

    masks: tuple[int, ...]


@dataclass(frozen=True)
class Variant:
    """The rules of one puzzle, as a request carries them (a hashable value).

    Attributes:
      rules: rule words in :data:`RULES` order, without ``classic`` (empty:
        the classic rules).
      regions: for ``jigsaw``, per cell (row-major) its region 0..size-1,
        numbered in the order the regions first appear; None otherwise.
      region_symbols: the symbol the puzzle wrote for each region (messages
        say ``region c``); empty: regions are named by number.
      cages: for ``killer``, the cages.
      candidates: for a pencilmark puzzle, per cell the allowed digits (bit
        ``d - 1``); None otherwise.
    """

    rules: tuple[str, ...] = ()
    regions: tuple[int, ...] | None = None
    region_symbols: tuple[str, ...] = ()
    cages: tuple[Cage, ...] = ()
    candidates: tuple[int, ...] | None = None

    @property
    def classic(self) -> bool:
        """True for the classic rules and no pencilmarks (today's paths)."""
        return not self.rules and self.candidates is None

    @property
    def words(self) -> str:
        """The rules as ``rules=`` writes them: ``"x+antiknight"``, ``"classic"``."""
        return "+".join(self.rules) or "classic"


#: The classic rules.
CLASSIC = Variant()


def parse_rules(text: str) -> tuple[str, ...]:
    """The rule words of ``x+antiknight`` in :data:`RULES` order, without ``classic``.

    Words are case-insensitive; ``classic`` alone (or with others) adds no
    rule. Raises CommandError naming an unknown or repeated word:
    ``rules: unknown rule 'foo' (rules are classic, x, windoku, ...)``.
    """
    words = text.lower().split("+")
    known = set()
    for word in words:
        if word not in RULES:
            raise CommandError(f"rules: unknown rule {quote(word, chr(39))} (rules are {', '.join(RULES)})")
        if word in known:
            raise CommandError(f"rules: {word} is named twice")
        known.add(word)
    return tuple(rule for rule in RULES[1:] if rule in known)


def check_fits(rules: Iterable[str], size: int) -> None:
    """Raise CommandError when a rule does not fit a grid of ``size`` digits per unit.

    ``windoku`` needs 9x9 (``rules: windoku needs a 9x9 grid, not 16x16``);
    the other rules fit every size the server reads.
    """
    if "windoku" in rules and size != 9:
        raise CommandError(f"rules: windoku needs a 9x9 grid, not {size}x{size}")


@functools.cache
def cage_sums(size: int, cells: int) -> tuple[int, int]:
    """The smallest and largest sum of ``cells`` distinct digits of 1..size."""
    return sum(range(1, cells + 1)), sum(range(size - cells + 1, size + 1))


def _pairs(size: int, steps: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    pairs = set()
    for r, c in itertools.product(range(size), repeat=2):
        for dr, dc in steps:
            rr, cc = r + dr, c + dc
            if 0 <= rr < size and 0 <= cc < size:
                a, b = r * size + c, rr * size + cc
                pairs.add((min(a, b), max(a, b)))
    return tuple(sorted(pairs))


def _regions(variant: Variant, size: int) -> list[tuple[int, ...]]:
    regions = variant.regions
    if regions is None:
        raise PuzzleFormatError("a jigsaw puzzle needs its regions")
    if len(regions) != size * size:
        raise PuzzleFormatError(f"jigsaw regions give {len(regions)} cells, not {size * size}")
    count = max(regions) + 1 if regions else 0
    if min(regions, default=0) < 0 or count > size:
        raise PuzzleFormatError(f"jigsaw regions: {count} region symbols, not {size}")
    cells: list[list[int]] = [[] for _ in range(size)]
    for cell, region in enumerate(regions):
        cells[region].append(cell)
    for k, region_cells in enumerate(cells):
        if len(region_cells) != size:
            held = f"{len(region_cells)} cell" + ("" if len(region_cells) == 1 else "s")
            raise PuzzleFormatError(f"{_region_name(variant, k)} has {held}, not {size}")
    return [tuple(rc) for rc in cells]


def _region_name(variant: Variant, k: int) -> str:
    symbols = variant.region_symbols
    return f"region {symbols[k]}" if k < len(symbols) else f"region {k + 1}"


def cage_name(cage: Cage, index: int) -> str:
    """How messages name a cage: ``cage a`` by its symbol, else ``cage 3`` (``index`` from 0)."""
    return f"cage {cage.symbol or index + 1}"


def _cages(variant: Variant, size: int) -> Cages:
    ncells = size * size
    cage_of = [-1] * ncells
    for k, cage in enumerate(variant.cages):
        name = cage_name(cage, k)
        if not cage.cells or len(cage.cells) > size or not all(0 <= c < ncells for c in cage.cells):
            raise PuzzleFormatError(f"{name} has {len(cage.cells)} cells; a cage holds 1 to {size}")
        low, high = cage_sums(size, len(cage.cells))
        if not low <= cage.total <= high:
            n = len(cage.cells)
            made = f"no {n} distinct digits of 1-{size} make it" if n > 1 else f"it is not a digit of 1-{size}"
            raise InvalidPuzzleError(f"{name} has {n} cell{'s' if n > 1 else ''} and sum {cage.total}: {made}")
        for c in cage.cells:
            if cage_of[c] >= 0:
                other = variant.cages[cage_of[c]]
                raise PuzzleFormatError(
                    f"cage {other.symbol or cage_of[c] + 1} and {name} overlap at {cell_name(c, size)}"
                )
            cage_of[c] = k
    return Cages(variant.cages, tuple(cage_of))


@functools.lru_cache(maxsize=256)
def variant_geometry(variant: Variant, box_rows: int = 3, box_cols: int = 3) -> Geometry:
    """The :class:`Geometry` of ``variant`` on a grid of boxes ``box_rows x box_cols``.

    Units: the rows, the columns, then the boxes (or, for ``jigsaw``, the
    regions ``"region 1"``..), then ``"diagonal 1"`` (r1c1 to rNcN) and
    ``"diagonal 2"`` (r1cN to rNc1) for ``x``, then ``"window 1"``..
    ``"window 4"`` for ``windoku``. Constraints: one :class:`PairRule` per
    peer rule and for ``nonconsecutive``, :class:`Cages` for ``killer``,
    :class:`Candidates` for a pencilmark puzzle. The classic variant is
    :func:`~sudoku_server.sudoku.geometry.classic` (same object).

    Raises:
      CommandError: a rule that does not fit the grid (:func:`check_fits`).
      PuzzleFormatError: jigsaw without regions or with a region of the
        wrong size (``region c has 8 cells, not 9``); killer without cages,
        or cages that overlap (``cage a and cage b overlap at r1c2``).
      InvalidPuzzleError: a cage no set of distinct digits can sum to, a
        pencilmark cell with no candidate (``r1c1 has no candidate``).
    """
    if variant.classic:
        return classic(box_rows, box_cols)
    size = box_rows * box_cols
    rules = variant.rules
    check_fits(rules, size)
    base = classic(box_rows, box_cols)
    units: list[tuple[int, ...]] = list(base.rows) + list(base.columns)
    names = [f"row {k + 1}" for k in range(size)] + [f"column {k + 1}" for k in range(size)]
    if "jigsaw" in rules:
        units += _regions(variant, size)
        names += [_region_name(variant, k) for k in range(size)]
        shape = (0, 0)
    else:
        units += list(base.boxes)
        names += [f"box {k + 1}" for k in range(size)]
        shape = (box_rows, box_cols)
    if "x" in rules:
        units += [tuple(k * size + k for k in range(size)), tuple(k * size + size - 1 - k for k in range(size))]
        names += ["diagonal 1", "diagonal 2"]
    if "windoku" in rules:
        for top, left in ((1, 1), (1, 5), (5, 1), (5, 5)):
            units.append(tuple((top + r) * size + left + c for r in range(3) for c in range(3)))
        names += [f"window {k + 1}" for k in range(4)]
    constraints: list[object] = []
    extra: list[tuple[int, int]] = []
    for rule, steps in (("antiknight", _KNIGHT), ("antiking", _KING_DIAGONAL), ("nonconsecutive", _ORTHOGONAL)):
        if rule in rules:
            pair_rule = PairRule(rule, _pairs(size, steps))
            constraints.append(pair_rule)
            if pair_rule.differ:
                extra += pair_rule.pairs
    if "killer" in rules:
        if not variant.cages:
            raise PuzzleFormatError("a killer puzzle needs its cages")
        cages = _cages(variant, size)
        constraints.append(cages)
        for cage in cages.cages:
            extra += itertools.combinations(cage.cells, 2)
    if variant.candidates is not None:
        masks = variant.candidates
        if len(masks) != size * size:
            raise PuzzleFormatError(f"pencilmarks give {len(masks)} cells, not {size * size}")
        full = (1 << size) - 1
        for cell, mask in enumerate(masks):
            if not mask & full:
                raise InvalidPuzzleError(f"{cell_name(cell, size)} has no candidate")
        constraints.append(Candidates(tuple(m & full for m in masks)))
    key = ("variant", rules, box_rows, box_cols, variant.regions, variant.cages, variant.candidates)
    return from_units(
        key, size, units, names, box_rows=shape[0], box_cols=shape[1], constraints=constraints, extra_peers=extra
    )


def _digits(grid: Grid, mask: int, size: int) -> str:
    """A candidate mask as its symbols, ascending: ``124``."""
    return "".join(grid.symbol(d) for d in range(1, size + 1) if mask >> (d - 1) & 1)


def broken_rule(grid: Grid, geometry: Geometry) -> str | None:
    """The first given that breaks a constraint of ``geometry`` (not a unit), described; None if none.

    The units' duplicates are :func:`~sudoku_server.sudoku.grid.find_duplicate`'s;
    :func:`~sudoku_server.sudoku.grid.check_givens` asks both, this first (two
    3s a knight's move apart in one box break the anti-knight rule by name).
    Constraints are checked in the geometry's order (pencilmarks, then the
    pair rules in :data:`RULES` order, then the cages, as
    :func:`variant_geometry` lists them), pairs in ascending order of their
    cells:

    - ``3 at r1c1 is not among its candidates 124`` (pencilmarks);
    - ``3 at r1c1 and r2c3 are a knight's move apart``,
      ``3 at r1c1 and r2c2 touch diagonally`` (:data:`PAIR_WORDS`);
    - ``3 at r1c1 and 4 at r1c2 are consecutive neighbours``;
    - ``duplicate 3 in cage a at r1c1 and r1c2``;
    - ``cage a: its givens sum to 17, more than its sum 15``, and for
      a cage whose cells are all given, ``..., not its sum 15``.

    The words are the detail of ``ERROR invalid`` (InvalidPuzzleError) except
    ``duplicate ...``, which is worded like the units' duplicates (also
    ``ERROR invalid``). O(cells + pairs).

    Args:
      grid: the givens (``size * size`` ints row-major, 0 = empty).
      geometry: the rules (:func:`variant_geometry`).
    """
    cells, size = grid.cells, geometry.size
    for constraint in geometry.constraints:
        if isinstance(constraint, Candidates):
            for i, (d, mask) in enumerate(zip(cells, constraint.masks)):
                if d and not mask >> (d - 1) & 1:
                    return (
                        f"{grid.symbol(d)} at {cell_name(i, size)} is not among its candidates"
                        f" {_digits(grid, mask, size)}"
                    )
        elif isinstance(constraint, PairRule):
            words = PAIR_WORDS[constraint.rule]
            for a, b in constraint.pairs:
                da, db = cells[a], cells[b]
                if not da or not db:
                    continue
                if constraint.differ and da == db:
                    return f"{grid.symbol(da)} at {cell_name(a, size)} and {cell_name(b, size)} {words}"
                if not constraint.differ and abs(da - db) == 1:
                    return (
                        f"{grid.symbol(da)} at {cell_name(a, size)} and {grid.symbol(db)}"
                        f" at {cell_name(b, size)} {words}"
                    )
        elif isinstance(constraint, Cages):
            for k, cage in enumerate(constraint.cages):
                name = cage_name(cage, k)
                first: dict[int, int] = {}
                total = 0
                for c in cage.cells:
                    d = cells[c]
                    if not d:
                        continue
                    if d in first:
                        return f"duplicate {grid.symbol(d)} in {name} at {cell_name(first[d], size)} and {cell_name(c, size)}"
                    first[d] = c
                    total += d
                if total > cage.total:
                    return f"{name}: its givens sum to {total}, more than its sum {cage.total}"
                if len(first) == len(cage.cells) and total != cage.total:
                    return f"{name}: its givens sum to {total}, not its sum {cage.total}"
    return None


def wrong_in_solution(puzzle: Grid, solution: Grid, geometry: Geometry) -> str | None:
    """The first constraint (not a unit) a full ``solution`` breaks, described; None when it keeps them all.

    The independent check of a variant answer, after the units
    (:func:`~sudoku_server.sudoku.grid.verify_solution` calls it); it
    trusts no solver code. Words, constraints in the geometry's order:

    - ``r1c1 holds 3, not among its candidates 124``;
    - ``r1c1 and r2c3 are a knight's move apart and both hold 3``,
      ``r1c1 and r2c2 touch diagonally and both hold 3``;
    - ``r1c1 and r1c2 are consecutive neighbours and hold 3 and 4``;
    - ``cage a holds 3 twice``; ``cage a sums to 14, not 15``.

    Args:
      puzzle: the givens (for the symbols).
      solution: ``size * size`` digits row-major, no zeros.
      geometry: the rules.
    """
    cells, size = solution.cells, geometry.size
    for constraint in geometry.constraints:
        if isinstance(constraint, Candidates):
            for i, (d, mask) in enumerate(zip(cells, constraint.masks)):
                if not mask >> (d - 1) & 1:
                    return (
                        f"{cell_name(i, size)} holds {puzzle.symbol(d)}, not among its candidates"
                        f" {_digits(puzzle, mask, size)}"
                    )
        elif isinstance(constraint, PairRule):
            words = PAIR_WORDS[constraint.rule]
            for a, b in constraint.pairs:
                da, db = cells[a], cells[b]
                if constraint.differ and da == db:
                    return f"{cell_name(a, size)} and {cell_name(b, size)} {words} and both hold {puzzle.symbol(da)}"
                if not constraint.differ and abs(da - db) == 1:
                    return (
                        f"{cell_name(a, size)} and {cell_name(b, size)} {words}"
                        f" and hold {puzzle.symbol(da)} and {puzzle.symbol(db)}"
                    )
        elif isinstance(constraint, Cages):
            for k, cage in enumerate(constraint.cages):
                digits = [cells[c] for c in cage.cells]
                for d in digits:
                    if digits.count(d) > 1:
                        return f"{cage_name(cage, k)} holds {puzzle.symbol(d)} twice"
                if sum(digits) != cage.total:
                    return f"{cage_name(cage, k)} sums to {sum(digits)}, not {cage.total}"
    return None
