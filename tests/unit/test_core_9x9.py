"""The native 9x9 engine held equal to the general engine (issue 18, the core level with tdoku).

The native core has an engine specialised for the classic 9x9 (``e9`` in
``_native_9x9.h``: digit masks per band, the minirow and minicolumn rules,
branches on band and stack configurations) and a general one that works from
any list of units (``eg``). ``_native.prepare(9, units, classic9)`` picks one;
preparing the classic units with ``classic9=False`` gives the general engine
on the same rules, so the two are compared here on the same puzzles: the
row-major-first solution (``solve``), the counts at several limits
(``count_solutions``), and a valid solution from ``solve_any``; over samples
of every 9x9 dataset (unique, multi-solution, invalid and unsolvable
puzzles) and random puzzles made by blanking solved grids (many solutions).
test_solver_native.py holds the native core against the Python one.
"""

from __future__ import annotations

import gzip
import random
from pathlib import Path

import pytest

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.geometry import classic
from sudoku_server.sudoku.grid import Grid, verify_solution

native = pytest.importorskip("sudoku_server.sudoku.solver._native")

DATASETS = Path(__file__).resolve().parents[2] / "puzzles" / "datasets"

#: (file, how many of its first lines)
SAMPLES = [
    ("magictour_top1465.txt", 300),
    ("tdoku_forum_hardest_1106.txt", 60),
    ("tdoku_forum_hardest_1905_11plus.txt", 60),
    ("sudoku17_royle_49151.txt", 300),
    ("kaggle_bryanpark_first10000.csv", 300),
    ("tdoku_serg_benchmark.txt", 300),
    ("multiple_solutions.txt", 23),
    ("no_solution.txt", 17),
    ("pathological_bruteforce.txt", 10),
    ("invalid_and_multi_catalog.tsv", 40),
]

LIMITS = (1, 2, 3, 17)


def lines(name: str, limit: int) -> list[str]:
    out = []
    with gzip.open(DATASETS / f"{name}.gz", "rt") as f:
        for raw in f:
            field = raw.strip().replace(":", ",").replace("\t", ",").split(",")[0].strip()
            if len(field) == 81 and all(ch in "0123456789._" for ch in field):
                out.append(field.replace("_", "."))
                if len(out) >= limit:
                    break
    return out


@pytest.fixture(scope="module")
def engines():
    geo = classic(3, 3)
    e9 = native.prepare(9, geo.unit_array, True)
    eg = native.prepare(9, geo.unit_array, False)
    return e9, eg


def same(engines, cells: tuple[int, ...], *, limits=LIMITS) -> None:
    e9, eg = engines
    first = native.solve(cells, e9)
    assert first == native.solve(cells, eg), cells
    for limit in limits:
        assert native.count_solutions(cells, e9, limit) == native.count_solutions(cells, eg, limit), (cells, limit)
    some = native.solve_any(cells, e9)
    if isinstance(first, tuple):
        assert isinstance(some, tuple)
        assert verify_solution(Grid(cells), Grid(some)) is None
    else:
        assert some == first  # the same code: no solution, or duplicate givens


def test_the_two_engines_are_the_ones_compared(engines):
    # prepare's classic9 picks the engine; they search differently (node
    # counts), and the 9x9 engine is the one solver.solve uses
    e9, eg = engines
    grid = Grid.from_string(lines("tdoku_forum_hardest_1106.txt", 1)[0])
    native.count_solutions(grid.cells, e9, 2)
    nodes_e9 = native.last_nodes()
    native.count_solutions(grid.cells, eg, 2)
    assert native.last_nodes() != nodes_e9
    assert solver.NATIVE is not None
    solver.NATIVE.count_solutions(grid, 2)
    assert native.last_nodes() == nodes_e9


@pytest.mark.parametrize("name, limit", SAMPLES, ids=[name.split(".")[0] for name, _ in SAMPLES])
def test_datasets_9x9_engine_equals_general_engine(engines, name, limit):
    puzzles = lines(name, limit)
    assert puzzles, name
    for text in puzzles:
        same(engines, Grid.from_string(text).cells)


def solved(rng: random.Random) -> list[int]:
    """A random solved 9x9: the pattern grid, digits, rows in bands, columns in stacks, bands and stacks shuffled."""
    base = [(3 * (r % 3) + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9)]
    digits = list(range(1, 10))
    rng.shuffle(digits)
    bands, stacks = rng.sample(range(3), 3), rng.sample(range(3), 3)
    rows = [3 * b + i for b in bands for i in rng.sample(range(3), 3)]
    cols = [3 * s + i for s in stacks for i in rng.sample(range(3), 3)]
    return [digits[base[9 * r + c] - 1] for r in rows for c in cols]


@pytest.mark.parametrize("keep", [0.0, 0.12, 0.2, 0.25, 0.3, 0.4, 0.6])
def test_random_puzzles_9x9_engine_equals_general_engine(engines, keep):
    # blanking a solved grid keeps it solvable; with few givens, many solutions
    rng = random.Random(int(keep * 1000) + 18)
    for _ in range(40 if keep else 1):
        cells = tuple(v if rng.random() < keep else 0 for v in solved(rng))
        same(engines, cells, limits=(1, 2, 3, 17) if keep >= 0.2 else (1, 2, 17))


def test_random_unsolvable_and_invalid_puzzles(engines):
    # a solvable puzzle with one given changed: no solution, several, or duplicate givens
    rng = random.Random(1818)
    for _ in range(150):
        cells = [v if rng.random() < 0.35 else 0 for v in solved(rng)]
        at = rng.randrange(81)
        cells[at] = rng.randrange(1, 10)
        same(engines, tuple(cells))
