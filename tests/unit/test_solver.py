"""The solver: answers, errors, the stop hook, every box shape.

Pure tests (no trio). Data comes from ``puzzles/`` (see puzzles/SOURCES.md)
or is written inline with its source. The answer promised for a puzzle with
several solutions is the first one in row-major order, the one the naive
1..9 left-to-right top-to-bottom backtracker prints first.
"""

from __future__ import annotations

import csv
import time
from pathlib import Path

import pytest

from sudoku_server.errors import InvalidPuzzleError, UnsolvableError
from sudoku_server.sudoku.grid import Grid, verify_solution
from sudoku_server.sudoku.solver import PYTHON

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


def lines(name: str) -> list:
    """The puzzle (or answer) lines of a puzzles/ file: no comments, no blanks."""
    text = (PUZZLES / name).read_text()
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def solved(core, puzzle: str) -> str:
    """Solve a one-line puzzle with ``core``, check the answer independently, return it as text."""
    grid = Grid.from_string(puzzle)
    answer = core.solve(grid)
    assert verify_solution(grid, answer) is None
    return answer.to_string()


NEWSPAPER = "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5"
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_WITHOUT_R7C9 = INKALA[:62] + "." + INKALA[63:]
HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
BRUTE_FORCE = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"


@pytest.mark.parametrize(
    "puzzle, expected",
    [
        (NEWSPAPER, "798635421126974583453218679972586314564123897381497256617352948835749162249861735"),
        (INKALA, "812753649943682175675491283154237896369845721287169534521974368438526917796318452"),
        # several solutions: the row-major-first one
        (INKALA_WITHOUT_R7C9, "812453679943672158675891243154237896386945721729168534231784965468529317597316482"),
        ("." * 81, "123456789456789123789123456214365897365897214897214365531642978642978531978531642"),
    ],
    ids=["newspaper", "inkala", "inkala-without-r7c9", "empty"],
)
def test_known_answers(core, puzzle, expected):
    assert solved(core, puzzle) == expected


def test_inkala_without_r7c9_has_several_solutions(core):
    assert core.count_solutions(Grid.from_string(INKALA_WITHOUT_R7C9), 2) == 2
    assert core.count_solutions(Grid.from_string(INKALA), 2) == 1


@pytest.mark.parametrize("name", ["norvig_top95", "norvig_hardest", "pathological"])
def test_datasets_match_expected(core, name):
    puzzles = lines(f"{name}.txt")
    expected = lines(f"{name}.expected")
    assert len(puzzles) == len(expected)
    for puzzle, answer in zip(puzzles, expected):
        assert solved(core, puzzle) == answer, puzzle


def test_pathological_puzzles_are_fast(core, wallclock):
    # hard1 (>= 10^8 solutions) took a cell-only fewest-candidates search 50 s;
    # the brute-force puzzle takes the naive backtracker 69 million calls.
    for puzzle in (HARD1, BRUTE_FORCE, "." * 81):
        start = time.process_time()
        core.solve(Grid.from_string(puzzle))
        wallclock.below(time.process_time() - start, 2.0, f"CPU of {puzzle}")  # ~0.05 s here


def test_kaggle_rows_give_the_published_solution(core):
    with open(PUZZLES / "kaggle_1000.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 1000
    for row in rows:
        assert core.solve(Grid.from_string(row["quizzes"])).to_string() == row["solutions"]


def test_sudoku17_sample_is_unique(core):
    # every 5th of the 500 (100 puzzles); the whole list is checked by
    # ``benchmarks/bench_solver.py --count``.
    for puzzle in lines("sudoku17_500.txt")[::5]:
        assert core.count_solutions(Grid.from_string(puzzle), 2) == 1, puzzle


@pytest.mark.parametrize(
    "puzzle, detail",
    [
        ("5....5" + "." * 75, "duplicate 5 in row 1 at r1c1 and r1c6"),
        ("5" + "." * 8 + "5" + "." * 71, "duplicate 5 in column 1 at r1c1 and r2c1"),
        ("8" + "." * 19 + "8" + "." * 60, "duplicate 8 in box 1 at r1c1 and r3c3"),
        # Sudopedia "Invalid Test Cases" (datasets' no_solution.txt, line 11)
        (
            "..9.7...5..21..9..1...28....7...5..1..851.....5....3.......3..68........21.....87",
            "duplicate 5 in box 5 at r4c6 and r5c4",
        ),
    ],
    ids=["row", "column", "box-only", "sudopedia-box"],
)
def test_duplicate_givens_are_invalid(core, puzzle, detail):
    grid = Grid.from_string(puzzle)
    with pytest.raises(InvalidPuzzleError) as info:
        core.solve(grid)
    assert info.value.detail == detail
    assert core.count_solutions(grid) == 0


@pytest.mark.parametrize(
    "puzzle, detail",
    [
        # Sudopedia "Invalid Test Cases": unsolvable square, box, column, row
        # (the datasets' no_solution.txt, lines 14-17)
        ("..9.287..8.6..4..5..3.....46.........2.71345.........23.....5..9..4..8.7..125.3..", "no digit fits r5c1"),
        (".9.3....1....8..46......8..4.5.6..3...32756...6..1.9.4..1......58..2....2....7.6.", "no digit fits r5c2"),
        (
            "....41....6.....2...2......32.6.........5..417.......2......23..48......5.1..2...",
            "no place for 2 in column 5",
        ),
        (
            "9..1....4.14.3.8....3....9....7.8..18....3..........3..21....7...9.4.5..5...16..3",
            "no place for 1 in row 5",
        ),
        # tdoku test/test_puzzles, 0 solutions: proved only by search
        ("....5....4....92....9....1.2..6.39....6.....79....43...94...8.......8.9.8......23", "no solution exists"),
        ("1....6.8....7......9..5.......56..3.3.............38.15....1.6.....2.4..8.2..5.1.", "no solution exists"),
    ],
)
def test_unsolvable_without_duplicates(core, puzzle, detail):
    grid = Grid.from_string(puzzle)
    with pytest.raises(UnsolvableError) as info:
        core.solve(grid)
    assert info.value.detail == detail
    assert core.count_solutions(grid) == 0


@pytest.mark.parametrize(
    "puzzle, count",
    [
        # tdoku test/test_puzzles: puzzle:expected_solution_count
        ("8.........95.......67.........472968...913245...856137....9.716...6.8492......583", 3),
        ("8.........59.......76.........832765...476198...951243....9.516...6.4982......437", 9),
        ("8.........59.......67..........3.265...4.6198......437...753916...891742...624583", 13),
        ("8.........59.......67.........728563...691487...534912...976.3....4127.8...853...", 91),
        ("8.........95.......67..........2.485...4.3192......736...651947...732518...894263", 125),
    ],
)
def test_count_solutions_known_counts(core, puzzle, count):
    grid = Grid.from_string(puzzle)
    assert core.count_solutions(grid, limit=1000) == count
    assert core.count_solutions(grid, limit=count) == count
    assert core.count_solutions(grid, limit=2) == 2
    assert core.count_solutions(grid, limit=1) == 1
    assert core.count_solutions(grid, limit=0) == 0


class Stop(Exception):
    pass


def stop_after(calls: int):
    seen = [0]

    def check() -> None:
        seen[0] += 1
        if seen[0] > calls:
            raise Stop

    return check, seen


@pytest.mark.parametrize("puzzle", [HARD1, "." * 81, lines("norvig_top95.txt")[10]])  # line 11: ~50 nodes
def test_python_core_checks_at_every_node(puzzle):
    # The Python core calls check() at every search node; the native core's
    # schedule (by time) is tested in test_solver_native.py.
    core = PYTHON
    grid = Grid.from_string(puzzle)
    check, seen = stop_after(3)
    with pytest.raises(Stop):
        core.solve(grid, check=check)
    assert seen[0] == 4
    check, seen = stop_after(3)
    with pytest.raises(Stop):
        core.count_solutions(grid, limit=10**9, check=check)
    assert seen[0] == 4


def test_python_core_calls_check_often(wallclock):
    core = PYTHON
    # The gaps between check() calls bound how late a stop request is seen.
    for puzzle in [HARD1] + lines("norvig_hardest.txt"):
        stamps = []
        core.solve(Grid.from_string(puzzle), check=lambda: stamps.append(time.perf_counter()))
        gaps = [b - a for a, b in zip(stamps, stamps[1:])]
        assert stamps
        wallclock.below(max(gaps, default=0), 0.1, "the longest gap between checks")


def first_by_brute_force(grid: Grid) -> tuple:
    """The row-major-first solution by plain backtracking (small grids only)."""
    geo = grid.geometry
    cells = list(grid.cells)

    def fill(i: int) -> bool:
        if i == len(cells):
            return True
        if cells[i]:
            return fill(i + 1)
        for d in range(1, geo.size + 1):
            if all(cells[p] != d for p in geo.peers[i]):
                cells[i] = d
                if fill(i + 1):
                    return True
        cells[i] = 0
        return False

    assert fill(0)
    return tuple(cells)


# small grids with several solutions: the answer is the brute force's first
FOUR = "1.........2....."  # 18 solutions
SIX = "1........2..........5....3........6."  # valid with 2x3 and 3x2 boxes

# Gecode examples, janko.at 16x16 (datasets' gecode_16x16_janko55.txt, first line)
SIXTEEN = (
    "D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8....61....2...C....B7.......AE.964..G"
    "......F9.5.7.4............29....A.C..........645D.1......D....1.C.B7F.....E.C2G...8A9B..9.G52.....EF6.256..F"
    ".....D.B.E13.6.D........7A...8BC3....954."
)


def test_4x4(core):
    grid = Grid.from_string(FOUR)
    answer = core.solve(grid)
    assert verify_solution(grid, answer) is None
    assert answer.cells == first_by_brute_force(grid)
    assert answer.to_string() == "1234341241232341"
    assert core.count_solutions(grid, 100) == 18
    assert core.solve(Grid((0,) * 16, 2, 2)).to_string() == "1234341221434321"


@pytest.mark.parametrize("boxes", [(2, 3), (3, 2)])
def test_6x6(core, boxes):
    for grid in (Grid.from_string(SIX, *boxes), Grid((0,) * 36, *boxes)):
        answer = core.solve(grid)
        assert verify_solution(grid, answer) is None
        assert answer.cells == first_by_brute_force(grid)


def test_16x16(core):
    grid = Grid.from_string(SIXTEEN)
    answer = core.solve(grid)
    assert verify_solution(grid, answer) is None
    assert core.count_solutions(grid, 2) == 1


def no_smaller_solution(grid: Grid, answer: Grid) -> bool:
    """True when no solution is smaller than ``answer`` read row-major.

    For each empty cell in turn, with the earlier cells as in the answer,
    every smaller digit leads to no solution (``count_solutions`` is an
    unbounded search, independent of the bound used by ``solve``).
    """
    for i, given in enumerate(grid.cells):
        if given:
            continue
        for digit in range(1, answer.cells[i]):
            trial = answer.cells[:i] + (digit,) + grid.cells[i + 1 :]
            if PYTHON.count_solutions(Grid(trial, grid.box_rows, grid.box_cols), 1):
                return False
    return True


@pytest.mark.parametrize(
    "boxes, keep",
    # 25x25: 12 to 18 s of one core per core, so in the slow tier
    [((4, 4), 7), ((4, 4), 5), pytest.param((5, 5), 14, marks=pytest.mark.slow)],
)
def test_large_grids_first_solution(core, boxes, keep):
    # a valid grid (row r shifted by (r % box_rows) * box_cols + r // box_rows,
    # digits relabelled), keeping ``keep`` cells in 20: several solutions
    box_rows, box_cols = boxes
    n = box_rows * box_cols
    relabel = [(7 * d + 3) % n + 1 for d in range(n)]
    cells = tuple(
        relabel[((r % box_rows) * box_cols + r // box_rows + c) % n] if (r * n + c) * 7 % 20 < keep else 0
        for r in range(n)
        for c in range(n)
    )
    grid = Grid(cells, box_rows, box_cols)
    answer = core.solve(grid)
    assert verify_solution(grid, answer) is None
    assert core.count_solutions(grid, 2) == 2
    assert no_smaller_solution(grid, answer)


def test_empty_16x16_answers_at_once(core, wallclock):
    grid = Grid((0,) * 256, 4, 4)
    core.solve(grid)  # compile the 16x16 tables once
    start = time.process_time()
    answer = core.solve(grid)
    wallclock.below(time.process_time() - start, 2.0, "CPU")  # ~0.1 s here
    assert verify_solution(grid, answer) is None
    assert answer.cells[:32] == tuple(range(1, 17)) + (5, 6, 7, 8, 1, 2, 3, 4, 13, 14, 15, 16, 9, 10, 11, 12)


@pytest.mark.parametrize(
    "puzzle,detail",
    [
        # Row 1 holds 1-4 and 6-9; the 5 in column 5 leaves r1c5 nothing. The
        # message names the empty cell, never the given it clashes with.
        ("1234.6789" + "." * 13 + "5" + "." * 58, "no digit fits r1c5"),
        (".23456789" + "." * 36 + "1" + "." * 35, "no digit fits r1c1"),
        ("12345678." + "." * 71 + "9", "no digit fits r1c9"),
    ],
)
def test_unsolvable_detail_names_the_empty_cell_not_a_given(core, puzzle, detail):
    with pytest.raises(UnsolvableError) as info:
        core.solve(Grid.from_string(puzzle))
    assert info.value.detail == detail


# -- solve_any: some solution, the first the search finds ---------------------


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 2), (3, 3), (4, 4), (5, 5)])
def test_solve_any_fills_the_empty_grid_of_every_size(core, box):
    n = box[0] * box[1]
    grid = Grid(tuple([0] * (n * n)), *box)
    assert verify_solution(grid, core.solve_any(grid)) is None


def test_solve_any_equals_solve_on_a_unique_puzzle(core):
    grid = Grid.from_string("8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..")
    assert core.solve_any(grid).to_string() == (
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
    )


def test_solve_any_reports_the_same_errors_as_solve(core):
    with pytest.raises(InvalidPuzzleError, match=r"^duplicate 1 in row 1 at r1c1 and r1c2$"):
        core.solve_any(Grid.from_string("11" + "." * 79))
    with pytest.raises(UnsolvableError):
        core.solve_any(Grid.from_string("12345678." + "." * 8 + "9" + "." * 63))
