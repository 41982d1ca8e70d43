"""The pure-Python core against an independent oracle (OR-Tools CP-SAT, tests/support/cpsat_oracle.py) on every rule.

Two sets of puzzles:

* the example puzzles of sigh's Interactive Sudoku Solver (MIT; puzzles/variants/sigh_examples.txt,
  its SOURCES header): the stored CP-SAT answers, CP-SAT run again, and the Python core agree on the
  number of solutions (1 or 2+) and the row-major-first solution;
* puzzles made here, seeded: a solution of the rules (CP-SAT's first, moved by symmetries that keep
  the rules), some of its cells as givens (and cages, regions, pencilmarks for those rules), some
  puzzles with one given changed. CP-SAT and the Python core agree on the count (0, 1, 2+) and, when
  there is a solution, on the lexicographically smallest one; every answer passes ``solver.verify``.
"""

from __future__ import annotations

import random

import pytest

from sudoku_server.errors import InvalidPuzzleError, UnsolvableError
from sudoku_server.sudoku import solver
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.solver import _python
from sudoku_server.sudoku.variants import Cage, Variant, variant_geometry
from tests.support.cpsat_oracle import smallest, solutions
from tests.support.sigh_examples import load

#: Examples the Python core takes too long on for a test (over 100,000 search nodes): the oracle's
#: stored answer is still checked by ``verify``; benchmarks measure the cores on them.
SLOW_IN_PYTHON = frozenset({"Anti-consectutive, hard"})

EXAMPLES = load()


def test_the_examples_cover_every_rule() -> None:
    rules = {rule for example in EXAMPLES for rule in example.rules.split("+") if rule}
    assert rules == {"x", "windoku", "antiknight", "antiking", "nonconsecutive", "jigsaw", "killer", "sandwich"}
    assert any(example.variant.candidates is not None for example in EXAMPLES)
    assert any(example.count == 2 for example in EXAMPLES)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_sigh_examples_agree(example) -> None:
    geometry = example.geometry
    stored = Grid.trusted(tuple(int(ch) for ch in example.solution), 3, 3)
    assert solver.verify(example.grid, stored, geometry) is None
    if example.name in SLOW_IN_PYTHON:
        return
    found = solutions(example.grid.cells, geometry)
    assert len(found) == example.count
    if example.count == 1:
        assert found[0] == stored.cells
    else:
        assert smallest(example.grid.cells, geometry) == stored.cells
    assert _python.solve(example.grid, geometry=geometry).cells == stored.cells
    assert _python.count_solutions(example.grid, geometry=geometry) == example.count
    assert solver.solve(example.grid, geometry=geometry).cells == stored.cells
    some = solver.solve_any(example.grid, geometry=geometry)
    assert solver.verify(example.grid, some, geometry) is None
    if example.count == 1:
        assert some.cells == stored.cells


# -- puzzles made here ---------------------------------------------------------------------------

#: A jigsaw layout (the regions of sigh's "Jigsaw" example above).
JIGSAW = "000000021453303021453333221453322221455566121445666111445566667488887777888887777"
JIGSAW_REGIONS = tuple("012345678".index(ch) for ch in JIGSAW)
_JIGSAW_ORDER = tuple(dict.fromkeys(JIGSAW))
JIGSAW_VARIANT_REGIONS = tuple(_JIGSAW_ORDER.index(ch) for ch in JIGSAW)


def _moves(rules: tuple[str, ...]) -> list:
    """Cell maps (row, col) -> (row, col) that keep the rules (none for jigsaw: the regions are fixed)."""
    if "jigsaw" in rules:
        return [lambda r, c: (r, c)]
    return [
        lambda r, c: (r, c),
        lambda r, c: (c, r),
        lambda r, c: (8 - r, 8 - c),
        lambda r, c: (8 - c, 8 - r),
        lambda r, c: (c, 8 - r),
        lambda r, c: (8 - c, r),
        lambda r, c: (r, 8 - c),
        lambda r, c: (8 - r, c),
    ]


def _relabel(rng: random.Random, rules: tuple[str, ...]) -> list[int]:
    """A digit map that keeps the rules: any permutation, or only the reversal under nonconsecutive."""
    if "nonconsecutive" in rules:
        return list(range(10)) if rng.random() < 0.5 else [0, *range(9, 0, -1)]
    digits = list(range(1, 10))
    rng.shuffle(digits)
    return [0, *digits]


def _cages(rng: random.Random, cells: tuple[int, ...], size: int = 9) -> tuple[Cage, ...]:
    """Random cages of 1-4 orthogonally joined cells covering most of the grid, sums from ``cells``."""
    free = set(range(size * size))
    cages = []
    order = list(range(size * size))
    rng.shuffle(order)
    for start in order:
        if start not in free or rng.random() < 0.15:
            continue
        cage = [start]
        free.discard(start)
        want = rng.randint(1, 4)
        while len(cage) < want:
            options = [
                n
                for c in cage
                for n in (c - size, c + size, c - 1 if c % size else -1, c + 1 if c % size < size - 1 else -1)
                if n in free and cells[n] not in {cells[x] for x in cage}
            ]
            if not options:
                break
            pick = rng.choice(options)
            free.discard(pick)
            cage.append(pick)
        cages.append(tuple(sorted(cage)))
    symbols = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    return tuple(Cage(c, sum(cells[x] for x in c), symbols[k]) for k, c in enumerate(cages))


def _base(rules: tuple[str, ...], pencil: bool) -> Variant:
    return Variant(
        rules=rules,
        regions=JIGSAW_VARIANT_REGIONS if "jigsaw" in rules else None,
        region_symbols=_JIGSAW_ORDER if "jigsaw" in rules else (),
        candidates=None,
    )


def _puzzles(rules: tuple[str, ...], pencil: bool, seed: int, count: int) -> list[tuple[Grid, Variant]]:
    rng = random.Random(seed)
    plain = _base(tuple(r for r in rules if r != "killer"), pencil)
    first = solutions((0,) * 81, variant_geometry(plain), limit=1)[0]
    out = []
    for k in range(count):
        move, digits = rng.choice(_moves(rules)), _relabel(rng, rules)
        cells = [0] * 81
        for i, d in enumerate(first):
            r, c = move(i // 9, i % 9)
            cells[r * 9 + c] = digits[d]
        solution = tuple(cells)
        cages: tuple[Cage, ...] = ()
        candidates = None
        if "killer" in rules:
            cages = _cages(rng, solution)
            keep = rng.randint(0, 6)
        elif pencil:
            candidates = tuple((1 << (d - 1)) | sum(1 << e for e in range(9) if rng.random() < 0.45) for d in solution)
            keep = rng.randint(0, 4)
        else:
            keep = rng.randint(22, 32)
        givens = [0] * 81
        for i in rng.sample(range(81), keep):
            givens[i] = solution[i]
        if k % 4 == 3 and keep:  # a changed given: often no solution, or givens that break a rule
            at = rng.choice([i for i in range(81) if givens[i]])
            givens[at] = givens[at] % 9 + 1
        variant = Variant(
            rules=rules,
            regions=plain.regions,
            region_symbols=plain.region_symbols,
            cages=cages,
            candidates=candidates,
        )
        out.append((Grid.trusted(tuple(givens), 3, 3), variant))
    return out


SETS = [
    (("x",), False),
    (("windoku",), False),
    (("antiknight",), False),
    (("antiking",), False),
    (("nonconsecutive",), False),
    (("jigsaw",), False),
    (("killer",), False),
    ((), True),
    (("x", "antiknight"), False),
    (("x", "jigsaw"), False),
    (("x", "killer"), False),
    (("windoku", "antiking"), False),
    (("x", "nonconsecutive"), False),
    (("x",), True),
]


@pytest.mark.parametrize(("rules", "pencil"), SETS, ids=["+".join(r) + ("+pencilmark" if p else "") for r, p in SETS])
def test_made_puzzles_agree(rules: tuple[str, ...], pencil: bool) -> None:
    counts = set()
    for number, (grid, variant) in enumerate(_puzzles(rules, pencil, seed=19 * len(rules) + pencil, count=6)):
        geometry = variant_geometry(variant)
        found = solutions(grid.cells, geometry)
        python_count = _python.count_solutions(grid, geometry=geometry)
        assert python_count == len(found), (number, grid.to_string())
        counts.add(len(found))
        if not found:
            with pytest.raises((InvalidPuzzleError, UnsolvableError)):
                _python.solve(grid, geometry=geometry)
            continue
        answer = _python.solve(grid, geometry=geometry)
        assert answer.cells == smallest(grid.cells, geometry), (number, grid.to_string())
        assert solver.verify(grid, answer, geometry) is None
        assert solver.verify(grid, _python.solve_any(grid, geometry=geometry), geometry) is None
    assert len(counts) >= 2, counts  # the set is not all of one kind


@pytest.mark.parametrize(
    ("rules", "box_rows", "box_cols"),
    [
        (("x",), 2, 2),
        (("nonconsecutive",), 2, 2),
        (("nonconsecutive",), 2, 3),
        (("nonconsecutive",), 3, 2),
        (("antiknight",), 2, 3),
        (("x", "antiking"), 2, 3),
        (("killer",), 2, 3),
        (("x", "killer"), 2, 2),
    ],
    ids=lambda v: "+".join(v) if isinstance(v, tuple) else str(v),
)
def test_other_sizes_agree(rules: tuple[str, ...], box_rows: int, box_cols: int) -> None:
    size = box_rows * box_cols
    rng = random.Random(size * 100 + len(rules))
    plain = Variant(rules=tuple(r for r in rules if r != "killer"))
    empty = Grid.trusted((0,) * size * size, box_rows, box_cols)
    found = solutions(empty.cells, variant_geometry(plain, box_rows, box_cols), limit=1)
    if not found:  # no grid keeps these rules at this size (4x4 nonconsecutive, 6x6 x+antiknight...)
        assert _python.count_solutions(empty, geometry=variant_geometry(plain, box_rows, box_cols)) == 0
        return
    first = found[0]
    for _ in range(8):
        cages = _cages(rng, first, size) if "killer" in rules else ()
        givens = [0] * size * size
        for i in rng.sample(range(size * size), rng.randint(0, size + 2)):
            givens[i] = first[i]
        grid = Grid.trusted(tuple(givens), box_rows, box_cols)
        geometry = variant_geometry(Variant(rules=rules, cages=cages), box_rows, box_cols)
        found = solutions(grid.cells, geometry)
        assert _python.count_solutions(grid, geometry=geometry) == len(found)
        if found:
            assert _python.solve(grid, geometry=geometry).cells == smallest(grid.cells, geometry)
