"""The native core against the Python core (the oracle), and its stop hook.

Differential property tests: random puzzles of every box shape (a known
solution relabelled and permuted, then blanked, so many have several
solutions, and some get an extra given that may break them) must get the
same ``solve`` answer or the same error (type and detail), the same
``count_solutions`` for several limits, and a valid ``solve_any`` answer from
both cores. Samples of every dataset in ``puzzles/datasets/`` are compared the
same way (the whole sets are run by ``benchmarks/bench_solver.py``).

The stop hook: whatever ``check`` raises ends a native search and propagates;
a ``check`` that blocks does not change the answer; and ``check`` is called
well within every millisecond of search (the exact worst gap is measured by
``benchmarks/bench_solver.py --check-gaps``).

Every test here needs the native core: it is skipped when the extension is
not built, and fails instead where ``SUDOKU_SERVER_REQUIRE_NATIVE`` is set
(as in CI, .ci/run).
"""

from __future__ import annotations

import gzip
import random
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sudoku_server.errors import PuzzleError
from sudoku_server.sudoku import solver
from sudoku_server.sudoku.grid import Grid, verify_solution

DATASETS = Path(__file__).resolve().parents[2] / "puzzles" / "datasets"

#: Python-core search nodes allowed per example before it is assumed away
#: (the oracle is slow on open 16x16 and 25x25 grids).
MAX_ORACLE_NODES = 3000


def solved_grid(box_rows: int, box_cols: int, rng: random.Random) -> list:
    """A random solved grid: the pattern grid with digits, bands, stacks, rows, columns permuted."""
    n = box_rows * box_cols
    base = [[(box_cols * (r % box_rows) + r // box_rows + c) % n + 1 for c in range(n)] for r in range(n)]
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    bands = rng.sample(range(n // box_rows), n // box_rows)
    stacks = rng.sample(range(n // box_cols), n // box_cols)
    rows = [b * box_rows + r for b in bands for r in rng.sample(range(box_rows), box_rows)]
    cols = [s * box_cols + c for s in stacks for c in rng.sample(range(box_cols), box_cols)]
    return [digits[base[r][c] - 1] for r in rows for c in cols]


SHAPES = [(2, 2), (2, 3), (3, 2), (3, 3), (4, 4), (5, 5)]
#: Share of cells kept, per size: low for small grids (many solutions), high
#: enough on large ones for the Python oracle to finish.
KEEP = {4: (0.0, 0.8), 6: (0.05, 0.8), 9: (0.12, 0.7), 16: (0.5, 0.85), 25: (0.7, 0.9)}


@st.composite
def puzzles(draw, shapes=tuple(SHAPES)):
    box_rows, box_cols = draw(st.sampled_from(shapes))
    n = box_rows * box_cols
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    cells = solved_grid(box_rows, box_cols, rng)
    low, high = KEEP[n]
    keep = draw(st.floats(min_value=low, max_value=high))
    cells = [v if rng.random() < keep else 0 for v in cells]
    if draw(st.integers(0, 3)) == 0:
        # an extra given anywhere: may repeat a digit in a unit, or leave no solution
        cells[draw(st.integers(0, n * n - 1))] = draw(st.integers(1, n))
    return Grid(tuple(cells), box_rows, box_cols)


class OracleTooSlow(Exception):
    pass


def oracle_check():
    calls = [0]

    def check() -> None:
        calls[0] += 1
        if calls[0] > MAX_ORACLE_NODES:
            raise OracleTooSlow

    return check


def outcome(fn, *args, **kwargs):
    """("ok", value) or (error class name, detail)."""
    try:
        return "ok", fn(*args, **kwargs)
    except PuzzleError as exc:
        return type(exc).__name__, exc.detail


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(puzzles(), st.sampled_from([1, 2, 3, 7]))
def test_native_equals_python(native, puzzle, limit):
    python = solver.PYTHON
    try:
        expected = outcome(python.solve, puzzle, check=oracle_check())
        expected_count = python.count_solutions(puzzle, limit, check=oracle_check())
        unique = python.count_solutions(puzzle, 2, check=oracle_check()) == 1
    except OracleTooSlow:
        assume(False)
    assert outcome(native.solve, puzzle) == expected
    assert native.count_solutions(puzzle, limit) == expected_count
    kind, answer = outcome(native.solve_any, puzzle)
    if expected[0] == "ok":
        assert kind == "ok" and verify_solution(puzzle, answer) is None
        if unique:
            assert answer == expected[1]
    else:
        assert (kind, answer) == expected


def test_every_shape_and_limit_edge(native):
    # the empty grid of every shape: equal first solutions; counts at limits 0..3
    for box_rows, box_cols in SHAPES:
        n = box_rows * box_cols
        grid = Grid((0,) * (n * n), box_rows, box_cols)
        if n <= 16:
            assert native.solve(grid) == solver.PYTHON.solve(grid)
        assert verify_solution(grid, native.solve_any(grid)) is None
        for limit in (-1, 0, 1, 2, 3):
            assert native.count_solutions(grid, limit) == max(0, limit)


def test_huge_limit_and_bad_input(native):
    grid = Grid.from_string("8.........95.......67..........2.485...4.3192......736...651947...732518...894263")
    assert native.count_solutions(grid, 10**30) == 125
    from sudoku_server.sudoku.geometry import classic
    from sudoku_server.sudoku.solver import _native as _csolver

    geo = classic(3, 3)
    prepared = _csolver.prepare(geo.size, geo.unit_array, True)
    with pytest.raises(ValueError):
        _csolver.solve((0,) * 80, prepared)
    with pytest.raises(ValueError):
        _csolver.solve((10,) + (0,) * 80, prepared)
    with pytest.raises(TypeError):
        _csolver.solve(("1",) + (0,) * 80, prepared)
    with pytest.raises(ValueError):
        _csolver.solve((0,) * 64, prepared)
    with pytest.raises(TypeError):
        _csolver.solve((0,) * 81, (3, 3))  # a geometry comes from prepare()
    with pytest.raises(ValueError):
        _csolver.prepare(9, geo.unit_array[:-2], False)  # not whole units
    with pytest.raises(ValueError):
        _csolver.prepare(4, classic(2, 2).unit_array, True)  # the 9x9 engine on other units
    # any box shape: the native core's general engine, equal to the Python core
    odd = Grid((0,) * 64, 2, 4)
    assert native.solve(odd) == solver.PYTHON.solve(odd)


def dataset_lines(name: str, limit: int) -> list:
    """The first ``limit`` puzzle lines (first field) of a dataset file, ``.`` for empty."""
    out = []
    with gzip.open(DATASETS / f"{name}.gz", "rt") as f:
        for raw in f:
            field = raw.strip().replace("\t", ",").replace(":", ",").replace(" ", ",").split(",")[0].strip()
            if len(field) in (81, 256, 625) and not field.startswith("#"):
                out.append(field)
                if len(out) >= limit:
                    break
    return out


# (dataset, puzzles compared with the Python core): a quick sample of each
SAMPLES = [
    ("norvig_top95.txt", 95),
    ("norvig_hardest.txt", 11),
    ("norvig_easy50.txt", 49),
    ("magictour_top1465.txt", 100),
    ("tdoku_forum_hardest_1106.txt", 25),
    ("tdoku_forum_hardest_1905_11plus.txt", 25),
    ("sudoku17_royle_49151.txt", 100),
    ("sudoku17_complete_49158.txt", 100),
    ("kaggle_bryanpark_first10000.csv", 200),
    ("tdoku_serg_benchmark.txt", 100),
    ("sudokuexchange_diabolical_se.txt", 50),
    ("qqwing_levels.tsv", 50),
    ("pathological_bruteforce.txt", 10),
    ("tdoku_test_puzzles_native.txt", 43),
    ("no_solution.txt", 17),
    ("multiple_solutions.txt", 23),
    ("invalid_and_multi_catalog.tsv", 40),
    ("gecode_16x16_janko55.txt", 55),
]


@pytest.mark.parametrize("name, limit", SAMPLES, ids=[name.split(".")[0] for name, _ in SAMPLES])
def test_datasets_native_equals_python(native, name, limit):
    python = solver.PYTHON
    puzzles = dataset_lines(name, limit)
    assert puzzles, name
    for text in puzzles:
        grid = Grid.from_string(text)
        expected = outcome(python.solve, grid)
        assert outcome(native.solve, grid) == expected, text
        assert native.count_solutions(grid, 2) == python.count_solutions(grid, 2), text


def test_tdoku_counts(native):
    # tdoku's test puzzles carry their solution counts (puzzle:count[:solution])
    with gzip.open(DATASETS / "tdoku_test_puzzles_native.txt.gz", "rt") as f:
        rows = [line.strip().split(":") for line in f if ":" in line]
    assert len(rows) == 43
    for fields in rows:
        grid = Grid.from_string(fields[0])
        assert native.count_solutions(grid, 10_000) == int(fields[1]), fields[0]


def test_kaggle_and_sudoku17_whole_sets(native):
    # cheap natively: every kaggle row gives its published solution; the
    # first 5000 17-clue puzzles are unique
    with gzip.open(DATASETS / "kaggle_bryanpark_first10000.csv.gz", "rt") as f:
        rows = [line.strip().split(",") for line in f][1:]
    assert len(rows) == 10000
    for quiz, solution in rows:
        assert native.solve(Grid.from_string(quiz)).to_string() == solution
    for text in dataset_lines("sudoku17_royle_49151.txt", 5000):
        assert native.count_solutions(Grid.from_string(text), 2) == 1, text


# -- the stop hook -------------------------------------------------------------


class Stop(Exception):
    pass


def sparse(box: int, keep: float, seed: int) -> Grid:
    """A solved box*box grid with a share ``keep`` of its cells kept (the benchmark's sparse grids)."""
    rng = random.Random(seed)
    cells = solved_grid(box, box, rng)
    return Grid(tuple(v if rng.random() < keep else 0 for v in cells), box, box)


#: A search that lasts (the empty 9x9 has 6.7e21 solutions).
LONG_COUNT = Grid((0,) * 81)
#: A minimal 25x25 puzzle (Gecode's frisch16 set, the first): more than 20 s
#: of search for the row-major-first solution.
LONG_SOLVE = Grid.from_string(dataset_lines("gecode_25x25_frisch16.txt", 1)[0], 5, 5)


@pytest.mark.parametrize("how", ["solve", "count_solutions"])  # solve_any is count's search
def test_what_check_raises_ends_the_search(native, how, wallclock):
    calls = [0]

    def check() -> None:
        calls[0] += 1
        raise Stop

    start = time.perf_counter()
    with pytest.raises(Stop):
        if how == "count_solutions":
            native.count_solutions(LONG_COUNT, 10**18, check=check)
        else:
            native.solve(LONG_SOLVE, check=check)
    assert calls[0] == 1
    wallclock.below(time.perf_counter() - start, 1.0, "the search's end")  # the first call comes within about 0.5 ms


def test_a_blocking_check_changes_nothing(native):
    # check sleeps 0.2 s at its first call, then lets the search go on: the
    # answers are the ones found without check (and the Python core's);
    # a search of about 1.5 ms, three times check's 0.5 ms period (a 16x16
    # with 40% kept took 0.4-0.6 ms: too short to be sure of a call)
    grid = sparse(4, 0.35, 2)
    expected = native.solve(grid)
    assert expected == solver.PYTHON.solve(grid)
    calls = []

    def check() -> None:
        if not calls:
            time.sleep(0.2)
        calls.append(time.perf_counter())

    start = time.perf_counter()
    assert native.solve(grid, check=check) == expected
    assert calls, "the search was too short to call check; pick a harder grid"
    assert time.perf_counter() - start >= 0.2
    calls.clear()
    assert native.count_solutions(LONG_COUNT, 20_000, check=check) == 20_000
    assert calls


def test_check_is_called_within_every_millisecond_of_search(native, wallclock):
    # Gaps in this thread's CPU time (the search's own time: a loaded machine
    # may pause the process for milliseconds, which is not search); the
    # native core calls check after 0.5 ms of wall time. 5 ms is generous;
    # benchmarks/bench_solver.py --check-gaps measures the wall-clock gaps.
    stamps = []

    def check() -> None:
        stamps.append(time.thread_time())
        if stamps[-1] - stamps[0] > 0.1:
            raise Stop

    for how, grid in (("solve", LONG_SOLVE), ("count", Grid((0,) * 256, 4, 4)), ("count", LONG_COUNT)):
        stamps.clear()
        start = time.thread_time()
        with pytest.raises(Stop):
            if how == "count":
                native.count_solutions(grid, 10**18, check=check)
            else:
                native.solve(grid, check=check)
        gaps = [b - a for a, b in zip([start] + stamps, stamps)]
        assert len(gaps) > 50
        wallclock.below(max(gaps), 0.005, "the longest gap between checks")


def test_threads_solve_at_once_with_equal_answers(native):
    # one core per thread while the lock is released; each search has its own state
    puzzles = [Grid.from_string(p) for p in dataset_lines("tdoku_forum_hardest_1106.txt", 40)]
    expected = [native.solve(p) for p in puzzles]
    results = {}

    def work(k: int) -> None:
        results[k] = [native.solve(p) for p in puzzles[k::4]]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(4):
        assert results[k] == expected[k::4]


def test_core_selection():
    # SUDOKU_SERVER_PURE_PYTHON forces the Python core at import ("" and "0" do not)
    import os
    import subprocess

    code = "from sudoku_server.sudoku import solver; print(solver.CORE)"
    repo = DATASETS.parent.parent
    for value, expected in (("1", "python"), ("yes", "python"), ("0", None), ("", None)):
        env = dict(os.environ, SUDOKU_SERVER_PURE_PYTHON=value)
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, cwd=repo, capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == (expected or ("native" if solver.NATIVE is not None else "python"))
    assert solver.CORE in ("native", "python")
