"""The line steps of issue 29's lines (thermometer bounds, renban run, whispers neighbours): exact lines, sound.

Each finder on a board built for it (a state, its exact eliminations and its
exact step line); every elimination is checked against the puzzle's true
candidates (the digits some solution holds there, enumerated by the solver):
a step never removes a digit of a solution. Then the bounds and runs on
plain masks, and the paths of the marks examples, whose every step the
engine checks against the solution.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sudoku_server.sudoku.candidates import true_candidates
from sudoku_server.sudoku.check import no_check
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rules import Variant
from sudoku_server.sudoku.rules.base import Mark
from sudoku_server.sudoku.techniques import Board, Context
from sudoku_server.sudoku.techniques.line_rules import (
    find_apart_neighbours,
    find_rising_bounds,
    find_run,
    rising_keep,
    run_keep,
)
from sudoku_server.sudoku.techniques.step import Step
from sudoku_server.sudoku.variants import variant_geometry
from sudoku_server.text.fpuzzles import marks_line
from sudoku_server.text.puzzle import Puzzle
from tests.support.marks_examples import EXAMPLES, SOLUTION
from tests.support.sessions import replies

FULL = 0b111111111


def _context(word: str, lines: tuple[tuple[int, ...], ...], givens: dict[int, int]) -> tuple[Context, Variant]:
    variant = Variant((word,), marks=tuple(Mark(word, line) for line in lines))
    values = [0] * 81
    for c, d in givens.items():
        values[c] = d
    return Context(Board.from_cells(variant_geometry(variant), values), no_check), variant


def _assert_sound(step: Step, variant: Variant, givens: dict[int, int]) -> None:
    """No elimination of ``step`` is a digit some solution of the puzzle holds in its cell."""
    values = [0] * 81
    for c, d in givens.items():
        values[c] = d
    truth = true_candidates(Grid(tuple(values), 3, 3), geometry=variant_geometry(variant))
    assert step.eliminations
    for c, d in step.eliminations:
        assert not truth[c] >> (d - 1) & 1, (c, d)


def test_thermometer_bounds_on_an_empty_grid():
    # r1c1 (bulb) - r1c2 - r1c3 - r2c3 (tip): 1-6, 2-7, 3-8, 4-9
    givens: dict[int, int] = {}
    x, variant = _context("thermo", ((0, 1, 2, 11),), givens)
    step = find_rising_bounds(x, "thermo")
    assert step is not None
    assert step.describe() == (
        "thermometer bounds: thermometer r1c1-r2c3: its digits rise from the bulb, so r1c1 is below 7, r1c2 is"
        " above 1 and below 8, r1c3 is above 2 and below 9 and r2c3 is above 3: remove 1 from r1c2, r1c3, r2c3;"
        " 2 from r1c3, r2c3; 3 from r2c3; 7 from r1c1; 8 from r1c1, r1c2; 9 from r1c1, r1c2, r1c3"
    )
    assert sorted(step.eliminations) == sorted(
        [(0, 7), (0, 8), (0, 9), (1, 1), (1, 8), (1, 9), (2, 1), (2, 2), (2, 9), (11, 1), (11, 2), (11, 3)]
    )
    _assert_sound(step, variant, givens)


def test_thermometer_bounds_read_the_whole_line_past_a_given():
    # r5c5 = 6 in the middle of r5c3-r5c4-r5c5-r5c6-r5c7: below it 1-4 and 2-5, above it 7-8 and 8-9
    givens = {40: 6}
    x, variant = _context("thermo", ((38, 39, 40, 41, 42),), givens)
    step = find_rising_bounds(x, "thermo")
    assert step is not None
    assert step.describe() == (
        "thermometer bounds: thermometer r5c3-r5c7: its digits rise from the bulb, so r5c3 is below 5, r5c4 is"
        " above 1 and below 6, r5c6 is above 6 and below 9 and r5c7 is above 7: remove 1 from r5c4, r5c6, r5c7;"
        " 2 from r5c6, r5c7; 3 from r5c6, r5c7; 4 from r5c6, r5c7; 5 from r5c3, r5c6, r5c7; 7 from r5c3, r5c4,"
        " r5c7; 8 from r5c3, r5c4; 9 from r5c3, r5c4, r5c6"
    )
    _assert_sound(step, variant, givens)


def test_renban_run_places_the_middle_digit_the_pair_step_cannot():
    # row 1 holds 4-9 in r1c4-r1c9; 2 is in columns 1 and 2 (r4c1, r7c2): r1c1 and r1c2 are {1,3}, r1c3 {1,2,3}
    givens = {3: 4, 4: 5, 5: 6, 6: 7, 7: 8, 8: 9, 27: 2, 55: 2}
    x, variant = _context("renban", ((0, 1, 2),), givens)
    assert [x.cand[c] for c in (0, 1, 2)] == [0b101, 0b101, 0b111]
    step = find_run(x, "renban")
    assert step is not None
    assert step.describe() == (
        "renban run: renban r1c1-r1c3 (3 cells): its digits are a run of consecutive digits: {1,2,3}:"
        " remove 1 from r1c3; 3 from r1c3"
    )
    _assert_sound(step, variant, givens)


def test_renban_run_keeps_only_the_runs_that_fit():
    # r1c1 = 2 on a 4-cell renban: runs {1-4} and {2-5}; r1c2's 6-9 and the others' go
    givens = {0: 2}
    x, variant = _context("renban", ((0, 1, 2, 3),), givens)
    step = find_run(x, "renban")
    assert step is not None
    assert step.describe().startswith(
        "renban run: renban r1c1-r1c4 (4 cells): its digits are a run of consecutive digits: {1,2,3,4} or {2,3,4,5}:"
        " remove 6 from r1c2, r1c3, r1c4;"
    )
    assert sorted(step.eliminations) == [(c, d) for c in (1, 2, 3) for d in (6, 7, 8, 9)]
    _assert_sound(step, variant, givens)


def test_whispers_neighbours_that_see_each_other_rule_out_4_and_6():
    # r1c1 - r1c2 - r1c3: r1c1 and r1c3 share row 1, so r1c2 cannot be 4 (a 9 on each side) or 6 (a 1 on each side)
    givens: dict[int, int] = {}
    x, variant = _context("whispers", ((0, 1, 2),), givens)
    step = find_apart_neighbours(x, "whispers")
    assert step is not None
    assert step.describe() == (
        "whispers neighbours: whispers r1c1-r1c3 (at least 5 apart): r1c1 and r1c3 beside r1c2 see each other:"
        " beside 4 both could hold only 9, beside 6 both could hold only 1: remove 4 from r1c2; 6 from r1c2"
    )
    _assert_sound(step, variant, givens)


def test_whispers_neighbours_that_do_not_see_each_other_keep_4():
    # r1c3 - r2c4 - r3c5... : r1c3 (box 1) and r3c5 (box 2) share no unit: nothing to say
    x, _ = _context("whispers", ((2, 12, 22),), {})
    assert find_apart_neighbours(x, "whispers") is None


def test_rising_keep_and_run_keep_on_masks():
    assert rising_keep([FULL] * 4, 9) == (
        [0b000111111, 0b001111110, 0b011111100, 0b111111000],
        [(0, 7), (1, 8), (2, 9), (3, 10)],
    )
    assert rising_keep([0b100, 0b1], 9) is None  # a 3 cannot rise to a 1
    assert run_keep([0b101, 0b101, 0b111], 9) == ([0b101, 0b101, 0b010], [0b111])
    assert run_keep([0b1, 0b1], 9) == ([0, 0], [])  # two 1s are no run


@pytest.mark.parametrize(("word", "step"), [("renban", "renban run"), ("whispers", "whispers neighbours")])
def test_the_examples_paths_take_the_line_steps(word: str, step: str):
    givens, marks = EXAMPLES[word]
    lines = replies(f"STEPS {givens} {word}={marks}\n".encode()).decode().splitlines()
    assert lines[-1] == "END"
    assert any(line.split(". ", 1)[1].startswith(f"{step}: ") for line in lines[4:-1])


def test_a_digit_every_run_holds_leaves_the_cells_that_see_the_line():
    # r1c1-r1c5: every run of 5 digits on 9x9 holds 5, so 5 is on the line, and the rest of row 1 loses it
    givens: dict[int, int] = {}
    x, variant = _context("renban", ((0, 1, 2, 3, 4),), givens)
    step = find_run(x, "renban")
    assert step is not None
    assert step.describe() == (
        "renban run: renban r1c1-r1c5 (5 cells): every run ({1,2,3,4,5} or {2,3,4,5,6} or {3,4,5,6,7} or"
        " {4,5,6,7,8} or {5,6,7,8,9}) holds 5, so one of r1c1, r1c2, r1c3, r1c4, r1c5 holds it:"
        " remove 5 from r1c6, r1c7, r1c8, r1c9"
    )
    assert step.se == 2.6
    _assert_sound(step, variant, givens)


def test_a_digit_every_run_holds_leaves_the_cells_that_see_all_its_places_on_the_line():
    # r1c1-r1c2-r1c3-r2c3-r3c3-r3c4: every run of 6 holds 4; r3c1 and r3c2 see every cell of the line (box 1,
    # row 3), r1c4 does not see r2c3
    givens: dict[int, int] = {}
    x, variant = _context("renban", ((0, 1, 2, 11, 20, 21),), givens)
    step = find_run(x, "renban")
    assert step is not None
    assert step.describe() == (
        "renban run: renban r1c1-r3c4 (6 cells): every run ({1,2,3,4,5,6} or {2,3,4,5,6,7} or {3,4,5,6,7,8} or"
        " {4,5,6,7,8,9}) holds 4, so one of r1c1, r1c2, r1c3, r2c3, r3c3, r3c4 holds it: remove 4 from r3c1, r3c2"
    )
    _assert_sound(step, variant, givens)


def test_whispers_neighbours_on_two_lines_crossing_at_the_cell():
    # r2c2 is on the lines r1c2-r2c2 and r2c2-r2c1, which cross there; r1c2 and r2c1 share box 1
    givens: dict[int, int] = {}
    x, variant = _context("whispers", ((1, 10), (10, 9)), givens)
    step = find_apart_neighbours(x, "whispers")
    assert step is not None
    assert step.describe() == (
        "whispers neighbours: whispers r1c2-r2c2 (at least 5 apart) and whispers r2c2-r2c1 (at least 5 apart):"
        " r1c2 and r2c1 beside r2c2 see each other: beside 4 both could hold only 9, beside 6 both could hold"
        " only 1: remove 4 from r2c2; 6 from r2c2"
    )
    _assert_sound(step, variant, givens)


@pytest.mark.parametrize(
    ("word", "finder"), [("thermo", find_rising_bounds), ("renban", find_run), ("whispers", find_apart_neighbours)]
)
def test_the_line_steps_to_their_fixpoint_never_remove_a_digit_of_the_solution(
    word: str, finder: Callable[[Context, str], Step | None]
):
    # the example's givens and marks (unique: SOLUTION), the line step alone applied until it finds nothing
    givens, marks = EXAMPLES[word]
    puzzle = marks_line(f"{givens} {word}={marks}", 1, "\n")
    assert isinstance(puzzle, Puzzle) and puzzle.variant is not None
    board = Board.from_cells(variant_geometry(puzzle.variant), [int(ch) if ch != "." else 0 for ch in givens])
    removed = 0
    while (step := finder(Context(board, no_check), word)) is not None:
        for c, d in step.eliminations:
            assert SOLUTION[c] != str(d), (step.describe(), c, d)
            board.cand[c] &= ~(1 << (d - 1))
            removed += 1
    assert removed == {"thermo": 80, "renban": 58, "whispers": 21}[word]


def test_thermometer_bounds_on_a_6x6_grid():
    # r1c1-r1c2-r1c3 on 6x6 (boxes 2x3): 1-4, 2-5, 3-6
    variant = Variant(("thermo",), marks=(Mark("thermo", (0, 1, 2)),))
    board = Board.from_cells(variant_geometry(variant, 2, 3), [0] * 36)
    step = find_rising_bounds(Context(board, no_check), "thermo")
    assert step is not None
    assert step.describe() == (
        "thermometer bounds: thermometer r1c1-r1c3: its digits rise from the bulb, so r1c1 is below 5, r1c2 is"
        " above 1 and below 6 and r1c3 is above 2: remove 1 from r1c2, r1c3; 2 from r1c3; 5 from r1c1; 6 from"
        " r1c1, r1c2"
    )
