"""CANDIDATES: every digit each cell takes in some solution, for any rules (issue 29, "Also").

Held to an independent oracle: the union of every solution, enumerated by OR-Tools CP-SAT
(tests/support/cpsat_oracle.py), on puzzles with a handful of solutions; and exact lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sudoku_server.sudoku.candidates import true_candidates
from sudoku_server.sudoku.geometry import Geometry
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.variants import variant_geometry
from sudoku_server.text.fpuzzles import marks_line
from tests.support.cpsat_oracle import solutions
from tests.support.sessions import replies

ROOT = Path(__file__).resolve().parents[2]
UNIQUE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
UNIQUE_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def union(found: list[tuple[int, ...]]) -> tuple[int, ...]:
    masks = [0] * len(found[0])
    for solution in found:
        for cell, digit in enumerate(solution):
            masks[cell] |= 1 << (digit - 1)
    return tuple(masks)


def pencilmarks(masks: tuple[int, ...], size: int = 9) -> str:
    return "".join("".join(str(k + 1) if m >> k & 1 else "." for k in range(size)) for m in masks)


def test_a_unique_puzzle_has_its_solution_as_its_only_candidates():
    expected = "".join("." * (int(d) - 1) + d + "." * (9 - int(d)) for d in UNIQUE_SOLUTION)
    assert replies(f"CANDIDATES {UNIQUE}\n".encode()) == f"{expected}\n".encode()


def test_a_classic_puzzle_with_several_solutions_agrees_with_every_solution_cpsat_finds():
    cells = [int(ch) for ch in UNIQUE_SOLUTION]
    cells[:18] = [0] * 18  # rows 1 and 2 out: their digits may swap where the boxes allow
    grid = Grid(tuple(cells), 3, 3)
    found = solutions(cells, grid.geometry, limit=200)
    assert 2 <= len(found) < 200
    masks = true_candidates(grid)
    assert masks == union(found)
    text = "".join(str(d) if d else "." for d in cells)
    assert replies(f"CANDIDATES {text}\n".encode()) == f"{pencilmarks(masks)}\n".encode()


def test_a_thermo_puzzle_with_two_rows_open_agrees_with_cpsat():
    line = next(
        row for row in (ROOT / "puzzles/variants/bench_thermo.txt").read_text().splitlines() if not row.startswith("#")
    )
    _, _, solution, marks = line.split(" ", 3)
    cells = [int(ch) for ch in solution]
    cells[:18] = [0] * 18  # rows 1 and 2 out: several solutions the thermometers allow
    text = "".join(str(d) if d else "." for d in cells)
    puzzle = marks_line(f"{text} {marks}", 1, "\n")
    geometry = variant_geometry(puzzle.variant)  # type: ignore[union-attr]
    found = solutions(cells, geometry, limit=200)
    assert 2 <= len(found) < 200
    masks = true_candidates(Grid(tuple(cells), 3, 3), geometry=geometry)
    assert masks == union(found)
    assert replies(f"CANDIDATES {text} {marks}\n".encode()) == f"{pencilmarks(masks)}\n".encode()


def test_givens_that_break_the_rules_get_the_error_solve_gives():
    bad = "11" + "." * 79
    assert replies(f"CANDIDATES {bad}\n".encode()) == replies(f"SOLVE {bad}\n".encode())
    assert replies(f"CANDIDATES {bad}\n".encode()).startswith(b"ERROR invalid ")


def test_an_unsolvable_puzzle_gets_the_error_solve_gives():
    unsolvable = "12345678." + "........9" + "." * 63
    assert replies(f"CANDIDATES {unsolvable}\n".encode()) == replies(f"SOLVE {unsolvable}\n".encode())


def per_pair(grid: Grid, geometry: Geometry | None = None) -> tuple[int, ...]:
    """The true candidates the slow way: one solver call per (cell, digit) no solution found so far holds."""
    from sudoku_server.sudoku import solver

    real = solver.native_candidates
    solver.native_candidates = lambda *args, **kwargs: None  # type: ignore[assignment]
    try:
        return true_candidates(grid, geometry=geometry)
    finally:
        solver.native_candidates = real  # type: ignore[assignment]


@pytest.mark.parametrize("rule", ["kropki", "xv", "whispers", "renban", "arrow", "littlekiller", "sandwich"])
def test_the_one_search_agrees_with_one_call_per_candidate(rule: str):
    """The native search (``_native.candidates``, nodes with nothing new dropped) against a call per pair."""
    from sudoku_server.sudoku import solver

    rows = [r for r in (ROOT / f"puzzles/variants/bench_{rule}.txt").read_text().splitlines() if not r.startswith("#")]
    for line in rows[:3]:
        _, _, solution, marks = line.split(" ", 3)
        cells = [int(ch) for ch in solution]
        cells[:18] = [0] * 18  # rows 1 and 2 out: several solutions
        text = "".join(str(d) if d else "." for d in cells)
        geometry = variant_geometry(marks_line(f"{text} {marks}", 1, "\n").variant)  # type: ignore[union-attr]
        grid = Grid(tuple(cells), 3, 3)
        if solver.CORE == "native":
            assert solver.native_candidates(grid, geometry) is not None
        assert true_candidates(grid, geometry=geometry) == per_pair(grid, geometry)


@pytest.mark.parametrize(
    "givens",
    [
        "1..............4",  # a 4x4 with two givens: many solutions
        "12..34..........",
        "." * 16,
    ],
)
def test_a_4x4_with_many_solutions_agrees_with_one_call_per_candidate(givens: str):
    grid = Grid(tuple(int(ch) if ch != "." else 0 for ch in givens), 2, 2)
    assert true_candidates(grid) == per_pair(grid)


def test_a_classic_grid_with_most_cells_open_agrees_with_one_call_per_candidate():
    cells = [int(ch) for ch in UNIQUE_SOLUTION]
    cells[:45] = [0] * 45  # five rows open: the 9x9 engine's search with many solutions
    grid = Grid(tuple(cells), 3, 3)
    assert true_candidates(grid) == per_pair(grid)
