"""Property tests: the solver against plain backtracking on random puzzles.

A random solved grid (a known solution with its digits relabelled, bands,
stacks, rows within bands and columns within stacks permuted, maybe
transposed) loses a random set of cells, so many puzzles have several
solutions. The answer must be the first solution of the naive row-major
backtracker (1..n in each empty cell, left to right, top to bottom), and
``count_solutions`` must agree with the backtracker's count. Cases where the
backtracker would need too many steps are assumed away.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from sudoku_server.errors import UnsolvableError
from sudoku_server.sudoku.grid import Grid, geometry, verify_solution
from sudoku_server.sudoku.solver import count_solutions, solve

#: Steps the backtracker may take per example before the case is dropped.
MAX_STEPS = 20_000

SOLVED = {
    (2, 2): "1234341221434321",
    (2, 3): "123456456123214365365214531642642531",
    (3, 2): "123456345612561234214365436521652143",
    (3, 3): "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
}


class TooLong(Exception):
    pass


def backtrack(grid: Grid, limit: int):
    """(first solution or None, number of solutions up to ``limit``) by row-major backtracking."""
    geo = geometry(grid.box_rows, grid.box_cols)
    cells = list(grid.cells)
    empties = [i for i, d in enumerate(cells) if not d]
    first = []
    count = 0
    steps = 0

    def fill(k: int) -> bool:
        nonlocal count, steps
        steps += 1
        if steps > MAX_STEPS:
            raise TooLong
        if k == len(empties):
            if not first:
                first.append(tuple(cells))
            count += 1
            return count >= limit
        i = empties[k]
        for d in range(1, geo.size + 1):
            if all(cells[p] != d for p in geo.peers[i]):
                cells[i] = d
                if fill(k + 1):
                    return True
        cells[i] = 0
        return False

    for i, d in enumerate(cells):  # givens repeating in a unit: no solution
        if d and any(cells[p] == d for p in geo.peers[i]):
            return None, 0
    fill(0)
    return (first[0] if first else None), count


@st.composite
def solved_grids(draw, shapes=tuple(SOLVED)):
    box_rows, box_cols = draw(st.sampled_from(shapes))
    n = box_rows * box_cols
    base = [[int(ch, 36) for ch in SOLVED[box_rows, box_cols][r * n : (r + 1) * n]] for r in range(n)]
    digits = draw(st.permutations(range(1, n + 1)))
    bands = draw(st.permutations(range(n // box_rows)))
    stacks = draw(st.permutations(range(n // box_cols)))
    rows = [b * box_rows + r for b in bands for r in draw(st.permutations(range(box_rows)))]
    cols = [s * box_cols + c for s in stacks for c in draw(st.permutations(range(box_cols)))]
    grid = [[digits[base[r][c] - 1] for c in cols] for r in rows]
    if box_rows == box_cols and draw(st.booleans()):
        grid = [list(col) for col in zip(*grid)]
    return Grid(tuple(v for row in grid for v in row), box_rows, box_cols)


@st.composite
def puzzles(draw, shapes=tuple(SOLVED)):
    solution = draw(solved_grids(shapes))
    ncells = len(solution.cells)
    keep = draw(st.floats(min_value=0.15, max_value=0.7))
    mask = draw(st.lists(st.floats(0, 1), min_size=ncells, max_size=ncells))
    cells = tuple(v if m < keep else 0 for v, m in zip(solution.cells, mask))
    return Grid(cells, solution.box_rows, solution.box_cols)


@settings(max_examples=150, deadline=None)
@given(puzzles())
def test_solve_is_the_backtrackers_first_solution(puzzle):
    try:
        first, _ = backtrack(puzzle, 1)
    except TooLong:
        assume(False)
    # blanking a solved grid leaves it solvable
    assert first is not None
    answer = solve(puzzle)
    assert verify_solution(puzzle, answer) is None
    assert answer.cells == first


@settings(max_examples=100, deadline=None)
@given(puzzles(), st.integers(min_value=1, max_value=6))
def test_count_solutions_agrees_with_backtracking(puzzle, limit):
    try:
        _, count = backtrack(puzzle, limit)
    except TooLong:
        assume(False)
    assert count_solutions(puzzle, limit) == count


@settings(max_examples=60, deadline=None)
@given(puzzles(shapes=((2, 2), (2, 3), (3, 2))), st.data())
def test_small_grids_with_an_extra_clue(puzzle, data):
    # An added given may make the puzzle unsolvable: then solve must say so
    # exactly when the backtracker finds nothing.
    empties = [i for i, d in enumerate(puzzle.cells) if not d]
    assume(empties)
    cell = data.draw(st.sampled_from(empties))
    digit = data.draw(st.integers(1, puzzle.size))
    cells = list(puzzle.cells)
    cells[cell] = digit
    grid = Grid(tuple(cells), puzzle.box_rows, puzzle.box_cols)
    first, count = backtrack(grid, 3)
    assert count_solutions(grid, 3) == count
    if any(d and any(grid.cells[p] == d for p in grid.geometry.peers[i]) for i, d in enumerate(grid.cells)):
        return  # duplicate givens: InvalidPuzzleError, tested in test_solver.py
    if first is None:
        with pytest.raises(UnsolvableError):
            solve(grid)
    else:
        assert solve(grid).cells == first
