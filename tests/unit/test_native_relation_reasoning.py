"""The native core's reasoning on relation pairs: split branches, polar probing, two partners that must differ.

Three parts of the general engine (``_native_general.h``, ``_native_kinds.h``)
change how it searches, never what it answers:

* a *polar* pair (German whispers on 9x9: every allowed pair joins a digit
  below 5 to one above it) has its cells probed at every node, each side
  tried and propagated, and where no cell has two candidates the search
  branches on a polar cell's side (``BRANCH_SPLIT``) before its digits;
* a cell whose relation pairs reach two cells that are peers of each other
  cannot hold a digit those pairs give fewer than two partners (a cell
  between two white dots in one row holds neither 1 nor 9): at prepare on
  the tables, and during the search on the candidates of the moment.

The answers are held to the Python core (which has none of the three) on
puzzles of the stored sets with givens taken away, so that most have several
solutions and the row-major-first one matters; the search itself is held by
its node count on the stored set's hardest whispers puzzle (1,102,945 nodes
to prove it unique before these changes, 5,868 after).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.variants import variant_geometry
from sudoku_server.text.fpuzzles import marks_line
from tests.support.native import native_core_for_module

NATIVE = native_core_for_module()

STORED = Path(__file__).resolve().parents[2] / "puzzles" / "variants"

#: The stored whispers puzzle whose uniqueness took the most search (two givens, eight lines).
HARD_WHISPERS = (
    "......................4...............................................8.......... "
    "whispers=r4c6-r5c7-r6c8;r5c2-r4c3-r3c3-r2c4;r8c1-r7c1-r8c2-r9c1-r9c2-r8c3-r8c4;"
    "r5c9-r6c9-r7c8-r8c9-r9c9-r9c8;r5c1-r6c1-r7c2-r6c3-r5c3;r6c4-r7c4-r6c5-r5c6-r6c6-r6c7;"
    "r3c5-r2c5-r3c6;r2c9-r3c9-r2c8-r2c7-r3c7"
)
HARD_WHISPERS_SOLUTION = "497621835163895724582743169639514278748362951251978346974286513326159487815437692"


def read(line: str):  # type: ignore[no-untyped-def]
    puzzle = marks_line(line, 1, "\n")
    assert puzzle is not None and puzzle.variant is not None
    return puzzle.grid, variant_geometry(puzzle.variant)


def stored(rule: str, count: int) -> list[tuple[str, str]]:
    """The first ``count`` puzzles of ``bench_<rule>.txt``: (``<givens> <marks>`` line, solution)."""
    out = []
    for line in (STORED / f"bench_{rule}.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            _rule, givens, solution, *fields = line.split()
            out.append((f"{givens.replace('0', '.')} {' '.join(fields)}", solution))
            if len(out) == count:
                break
    return out


def test_the_hardest_stored_whispers_puzzle_is_proved_unique_in_a_few_thousand_nodes() -> None:
    grid, geo = read(HARD_WHISPERS)
    assert NATIVE.count_solutions(grid, 2, geometry=geo) == 1
    nodes = solver._native.last_nodes()  # type: ignore[union-attr]
    assert nodes < 20_000, nodes
    assert NATIVE.solve(grid, geometry=geo).to_string() == HARD_WHISPERS_SOLUTION


@pytest.mark.parametrize(
    ("rule", "puzzles", "halved"),
    [
        ("whispers", 8, False),
        ("kropki", 12, True),
        ("xv", 12, True),
        ("thermo", 12, True),
        ("palindrome", 6, False),
        ("renban", 10, False),
    ],
)
def test_fewer_givens_get_the_python_cores_answers(rule: str, puzzles: int, halved: bool) -> None:
    """Each puzzle with only 22 of its solution's cells given, and (``halved``) with a random half of its
    givens gone (the Python core is slow on the open whispers and palindrome grids: not those)."""
    rng = random.Random(rule)
    for line, solution in stored(rule, puzzles):
        givens, marks = line.split(" ", 1)
        kept = [i for i, ch in enumerate(givens) if ch != "."]
        drop = set(rng.sample(kept, len(kept) // 2))
        fewer = "".join("." if i in drop else ch for i, ch in enumerate(givens))
        some = set(rng.sample(range(81), 22))
        from_solution = "".join(ch if i in some else "." for i, ch in enumerate(solution))
        for text in (fewer, from_solution) if halved else (from_solution,):
            grid, geo = read(f"{text} {marks}")
            count = solver.PYTHON.count_solutions(grid, 2, geometry=geo)
            assert NATIVE.count_solutions(grid, 2, geometry=geo) == count, (rule, text)
            assert NATIVE.solve(grid, geometry=geo).cells == solver.PYTHON.solve(grid, geometry=geo).cells


def test_a_cell_between_two_white_dots_of_one_row_holds_neither_1_nor_9() -> None:
    """r1c2 has white dots to r1c1 and r1c3: its two partners differ, so 1 (partner 2 only) and 9 go."""
    grid, geo = read("." * 81 + " kropki=r1c1-r1c2:w;r1c2-r1c3:w")
    union = solver.native_candidates(grid, geometry=geo)
    assert union is not None
    assert [d for d in range(1, 10) if union[1] >> (d - 1) & 1] == [2, 3, 4, 5, 6, 7, 8]
    assert [d for d in range(1, 10) if union[0] >> (d - 1) & 1] == list(range(1, 10))


@pytest.mark.parametrize("rule", ["arrow", "littlekiller"])
def test_sums_cut_into_segments_of_peers_get_the_python_cores_answers(rule: str) -> None:
    """A sum's cells that are peers in a row (a diagonal inside a box) take distinct digits in the native
    support of sums; 36 random cells of the solution given (the Python core is slow on open sum grids)."""
    rng = random.Random(rule)
    for line, solution in stored(rule, 10):
        marks = line.split(" ", 1)[1]
        some = set(rng.sample(range(81), 36))
        grid, geo = read("".join(ch if i in some else "." for i, ch in enumerate(solution)) + " " + marks)
        count = solver.PYTHON.count_solutions(grid, 2, geometry=geo)
        assert NATIVE.count_solutions(grid, 2, geometry=geo) == count
        assert NATIVE.solve(grid, geometry=geo).cells == solver.PYTHON.solve(grid, geometry=geo).cells


def test_the_true_candidates_of_an_open_grid_with_one_renban_line_take_a_bounded_search() -> None:
    """Every run of five digits holds 5, so r1c6-r1c9 lose it; every other digit stays everywhere. About 22,000
    nodes; without all-different's filtering on 9x9 (tried this session for little killer's median) the union
    search ran for minutes."""
    from sudoku_server.sudoku.grid import Grid
    from sudoku_server.sudoku.rules.base import Mark
    from sudoku_server.sudoku.variants import Variant

    geo = variant_geometry(Variant(("renban",), marks=(Mark("renban", (0, 1, 2, 3, 4)),)))
    expected = tuple(0x1FF & ~(1 << 4) if 5 <= c <= 8 else 0x1FF for c in range(81))
    assert solver.native_candidates(Grid((0,) * 81, 3, 3), geometry=geo) == expected
    assert solver._native.last_nodes() < 200_000  # type: ignore[union-attr]
