"""``killer``: cages whose digits do not repeat and sum to the cage's total.

Each cage compiles to one :class:`~sudoku_server.sudoku.constraints.Sum`
with ``distinct`` (its cells become extra peers), named ``cage a`` by its
symbol. GENERATE draws cages over the solution (:func:`random_cages`): from
each cell not yet caged (in a seeded random order) a cage grows to a drawn
size (:data:`_CAGE_SIZES`) through orthogonal neighbours whose digits are
not in it yet; a lone cell then joins a neighbouring cage that has room and
lacks its digit. A puzzle with no givens is split (:func:`split`) until unique.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence

from sudoku_server.errors import InvalidPuzzleError, PuzzleFormatError
from sudoku_server.sudoku.constraints import Broken, Sum
from sudoku_server.sudoku.geometry import cell_name
from sudoku_server.sudoku.rules._shapes import connected, orthogonal
from sudoku_server.sudoku.rules.base import BLIND, Build, Cage, Compiled, Making, Random, Rule, Variant, Words
from sudoku_server.sudoku.seeded import permutation

WORD = "killer"

#: The symbols of cages in a cage block, in the order of each cage's first cell: letters,
#: then marks that are neither digits, empty marks (``.`` ``0`` ``_``), ``=`` nor ``|``.
CAGE_SYMBOLS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&*+-/<>?@^~"

#: Cages are drawn with 2 to this many cells (a lone cell may join one up to one more).
_CAGE_MAX = 5
#: The size a cage is drawn to grow to, one of these at random: small cages have few digit sets, so
#: the searches that prove a pure killer unique stay short.
_CAGE_SIZES = (2, 2, 3, 3, 3, 4, 4, 5)


@functools.cache
def cage_sums(size: int, cells: int) -> tuple[int, int]:
    """The smallest and largest sum of ``cells`` distinct digits of 1..size."""
    return sum(range(1, cells + 1)), sum(range(size - cells + 1, size + 1))


def cage_name(cage: Cage, index: int) -> str:
    """How messages name a cage: ``cage a`` by its symbol, else ``cage 3`` (``index`` from 0)."""
    return f"cage {cage.symbol or index + 1}"


def _compile(build: Build) -> Compiled:
    """One distinct Sum per cage, after checking the cages fit the grid and each other."""
    variant, size = build.variant, build.size
    if not variant.cages:
        raise PuzzleFormatError(f"a {WORD} puzzle needs its cages")
    ncells = size * size
    cage_of = [-1] * ncells
    out = []
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
        out.append((Sum(cage.cells, cage.total, distinct=True, source=k), name))
    return tuple(out)


def _twice(broken: Broken, w: Words) -> bool:
    a, b = broken.cells[:2] if len(broken.cells) == 2 else (0, -1)
    return b >= 0 and w.cells[a] == w.cells[b]


def _given(broken: Broken, w: Words) -> str:
    if _twice(broken, w):
        a, b = broken.cells
        return f"duplicate {w.symbol(w.cells[a])} in {w.name} at {w.cell(a)} and {w.cell(b)}"
    assert isinstance(broken.constraint, Sum)
    want = broken.constraint.total
    total = sum(w.cells[c] for c in broken.constraint.cells)
    if total > want:
        return f"{w.name}: its givens sum to {total}, more than its sum {want}"
    return f"{w.name}: its givens sum to {total}, not its sum {want}"


def _solution(broken: Broken, w: Words) -> str:
    assert isinstance(broken.constraint, Sum)
    digits = [w.cells[c] for c in broken.constraint.cells]
    for d in digits:
        if digits.count(d) > 1:
            return f"{w.name} holds {w.symbol(d)} twice"
    return f"{w.name} sums to {sum(digits)}, not {broken.constraint.total}"


def random_cages(solution: Sequence[int], size: int, rng: Random) -> list[list[int]]:
    """Random cages over a solution: lists of cells (module docstring), covering the grid."""
    ncells = size * size
    cage_of = [-1] * ncells
    cages: list[list[int]] = []
    for start in permutation(rng, ncells):  # type: ignore[arg-type]
        if cage_of[start] >= 0:
            continue
        want = _CAGE_SIZES[rng.below(len(_CAGE_SIZES))]
        cage = [start]
        digits = {solution[start]}
        cage_of[start] = len(cages)
        while len(cage) < want:
            options = sorted(
                {
                    nb
                    for c in cage
                    for nb in orthogonal(*divmod(c, size), size)
                    if cage_of[nb] < 0 and solution[nb] not in digits
                }
            )
            if not options:
                break
            nb = options[rng.below(len(options))]
            cage.append(nb)
            digits.add(solution[nb])
            cage_of[nb] = len(cages)
        cages.append(cage)
    # lone cells join a neighbouring cage that has room and lacks their digit
    for cage in cages:
        if len(cage) != 1:
            continue
        c = cage[0]
        for nb in orthogonal(*divmod(c, size), size):
            other = cages[cage_of[nb]]
            if other is not cage and len(other) <= _CAGE_MAX and solution[c] not in {solution[x] for x in other}:
                other.append(c)
                cage.clear()
                cage_of[c] = cage_of[nb]
                break
    return [sorted(cage) for cage in cages if cage]


def with_cages(variant: Variant, cages: Sequence[Sequence[int]], solution: Sequence[int]) -> Variant:
    """``variant`` with ``cages`` (lists of cells), their totals from ``solution``, named in order of first cell."""
    ordered = sorted(cages, key=lambda cells: cells[0])
    if len(ordered) > len(CAGE_SYMBOLS):
        raise ValueError(f"{len(ordered)} cages, more than the {len(CAGE_SYMBOLS)} cage symbols")
    made = tuple(
        Cage(tuple(cells), sum(solution[c] for c in cells), CAGE_SYMBOLS[k]) for k, cells in enumerate(ordered)
    )
    return dataclasses.replace(variant, cages=made)  # the rest kept (regions, candidates, marks)


def split(cages: list[list[int]], cell: int, size: int) -> None:
    """Split the cage holding ``cell``: the cell and one neighbour in it (or the cell alone) become a cage."""
    for k, cage in enumerate(cages):
        if cell in cage:
            break
    if len(cage) == 1:
        raise AssertionError("a cage of one cell fixes its digit")
    r, c = divmod(cell, size)
    near = [nb for nb in orthogonal(r, c, size) if nb in cage]
    part = [cell]
    rest = [x for x in cage if x != cell]
    if len(cage) > 3 and near:
        candidate = [cell, near[0]]
        remaining = [x for x in cage if x not in candidate]
        if connected(set(remaining), size):
            part, rest = sorted(candidate), remaining
    if not connected(set(rest), size):
        part, rest = [cell], [x for x in cage if x != cell]
    cages[k] = sorted(rest)
    cages.append(part)


RULE = Rule(
    word=WORD,
    summary="cages whose digits do not repeat and sum to the cage's total",
    data="cages",
    constraints=_compile,
    given_words=_given,
    solution_words=_solution,
    off=("unique rectangle", "BUG", *BLIND),
    making=Making(from_solution=random_cages, variant_of=with_cages, split=split, noun=f"{WORD} cages"),
    missing="a SudoCue line or a cage block",
    formats={"f-puzzles": ("killercage",)},
    draw={"kind": "cages", "sums": True},
)
