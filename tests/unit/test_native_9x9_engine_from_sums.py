"""Sums whose digits repeat (arrows, little killer diagonals) on the classic 9x9 units go to the 9x9 engine.

A geometry of the classic units whose sums all repeat digits (an arrow: the
bulb weighted -1, or -10 and -1 for a pill, the shaft 1, total 0; a little
killer diagonal: weights 1) is searched by the classic 9x9 engine
(``_native_9x9_sums.h``: each sum kept to domain consistency on the digit
masks, per segment of peers), not the general one; a killer cage (a distinct
sum, whose cells are peers), differ pairs and polar pairs (whispers) keep the
general engine. The engine changes,
never the answer: every answer here is held to the stored solutions (checked
by CP-SAT when they were made) and to the Python core (first solution in
row-major order, count, true candidates).
"""

from __future__ import annotations

import random

import pytest

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.candidates import true_candidates
from sudoku_server.sudoku.grid import Grid
from sudoku_server.text import PuzzleReader
from sudoku_server.text.puzzle import Puzzle
from tests.support.sessions import replies
from tests.unit.test_native_9x9_engine_from_pairs import NATIVE, engine, read, stored

SUM_RULES = ("arrow", "littlekiller")


@pytest.mark.parametrize("rule", SUM_RULES)
def test_the_sum_rules_go_to_the_9x9_engine(rule: str) -> None:
    line, _solution = stored(rule, 1)[0]
    assert engine(line) == "e9"
    assert engine(line, "nonconsecutive") == "e9"  # with relation pairs too


def test_sums_beside_whispers_or_a_differ_rule_keep_the_general_engine() -> None:
    """German whispers are probed by side (no sums base then); anti-knight adds peers beyond the units."""
    assert engine("." * 81 + " arrow=r1c1-r1c2-r1c3 whispers=r5c5-r5c6") == "eg"
    assert engine("." * 81 + " littlekiller=r1c2-r2c1:9", "antiknight") == "eg"
    assert engine("." * 81 + " littlekiller=r1c2-r2c1:9 thermo=r5c5-r5c6") == "e9"


@pytest.mark.parametrize("rule", SUM_RULES)
def test_the_stored_puzzles_keep_their_solutions(rule: str) -> None:
    for line, solution in stored(rule, 60):
        grid, geo = read(line)
        assert NATIVE.count_solutions(grid, 2, geometry=geo) == 1, line
        assert NATIVE.solve(grid, geometry=geo).to_string() == solution, line
        assert NATIVE.solve_any(grid, geometry=geo).to_string() == solution, line


@pytest.mark.parametrize(("rule", "given"), [("arrow", 16), ("arrow", 20), ("littlekiller", 16), ("littlekiller", 20)])
def test_puzzles_with_givens_taken_away_get_the_python_cores_answers(rule: str, given: int) -> None:
    """``given`` cells of the solution kept: most such grids have several solutions, so the row-major-first
    one, the count and the true candidates all matter."""
    rng = random.Random(f"{rule}{given}")
    counts = []
    for line, solution in stored(rule, 3):
        marks = line.split(" ", 1)[1]
        some = set(rng.sample(range(81), given))
        grid, geo = read("".join(ch if i in some else "." for i, ch in enumerate(solution)) + " " + marks)
        count = solver.PYTHON.count_solutions(grid, 2, geometry=geo)
        counts.append(count)
        assert NATIVE.count_solutions(grid, 2, geometry=geo) == count
        assert NATIVE.solve(grid, geometry=geo).cells == solver.PYTHON.solve(grid, geometry=geo).cells
        if given == 20:  # the Python core's true candidates take seconds with fewer givens
            assert solver.native_candidates(grid, geometry=geo) == true_candidates(grid, geometry=geo)
    assert 2 in counts


def test_an_open_grid_with_a_pill_answers_the_first_grid_that_keeps_it() -> None:
    """A pill r1c1-r1c2 (read as one number, ``:2``) with its shaft r2c1-r3c1-r4c1: at most 27, so r1c1
    is 1 or 2; both cores give the same first grid, the pill holds in it, and it solves to itself."""
    grid, geo = read("." * 81 + " arrow=r1c1-r1c2-r2c1-r3c1-r4c1:2")
    assert engine("." * 81 + " arrow=r1c1-r1c2-r2c1-r3c1-r4c1:2") == "e9"
    first = solver.PYTHON.solve(grid, geometry=geo).to_string()
    assert NATIVE.solve(grid, geometry=geo).to_string() == first
    pill = 10 * int(first[0]) + int(first[1])
    assert pill == int(first[9]) + int(first[18]) + int(first[27])
    assert first == NATIVE.solve(Grid.from_string(first), geometry=geo).to_string()


def test_a_little_killer_diagonal_repeats_a_digit_where_no_unit_forbids_it() -> None:
    """r1c4-r2c3-r3c2-r4c1 sums to 5 only as 1 + {1, 2} + 1: r2c3 and r3c2 share box 1 (they differ), the
    others share no unit with them nor with each other, so 1 is there three times; row 1 then starts with
    3 (box 1 holds 1 and 2 below it)."""
    line = "." * 81 + " littlekiller=r1c4-r2c3-r3c2-r4c1:5"
    grid, geo = read(line)
    assert engine(line) == "e9"
    answer = NATIVE.solve(grid, geometry=geo).to_string()
    assert answer == solver.PYTHON.solve(grid, geometry=geo).to_string()
    assert (answer[3], answer[27], sorted(answer[11] + answer[19])) == ("1", "1", ["1", "2"])
    assert answer[:9] == "345126789"
    assert NATIVE.count_solutions(grid, 3, geometry=geo) == 3


def test_a_little_killer_total_no_digits_make_leaves_no_solution() -> None:
    """The same diagonal summing to 4: r2c3 and r3c2 (box 1) make 3 at least, the two others 2: no
    solution, on either core."""
    grid, geo = read("." * 81 + " littlekiller=r1c4-r2c3-r3c2-r4c1:4")
    assert NATIVE.count_solutions(grid, 2, geometry=geo) == 0
    assert solver.PYTHON.count_solutions(grid, 2, geometry=geo) == 0
    assert solver.native_candidates(grid, geometry=geo) is None


@pytest.mark.parametrize("rule", SUM_RULES)
def test_a_stored_puzzle_with_its_total_changed_is_unsolvable(rule: str) -> None:
    """Each stored puzzle with its first mark's total (little killer) set to its number of cells, or its
    first bulb's cell swapped for a shaft cell (arrow: the old bulb then joins the shaft, bigger than the
    new bulb), has no solution. A total of one 1 per cell is refused by no reader (it is in range) but no
    diagonal with two cells in one box makes it; an arrow whose swapped line no longer touches itself is
    refused by the reader before search (tested with the readers), so it is left out here."""
    tested = 0
    for line, _solution in stored(rule, 3):
        givens, marks = line.split(" ", 1)
        word, body = marks.split("=", 1)
        first, *rest = body.split(";")
        if rule == "littlekiller":
            cells, _total = first.split(":")
            names = cells.split("-")
            first = f"{cells}:{len(names)}"
            boxes = [((int(n[1 : n.index("c")]) - 1) // 3, (int(n[n.index("c") + 1 :]) - 1) // 3) for n in names]
            assert len(set(boxes)) < len(boxes)  # the stored diagonals all cross a box twice
        else:
            bulb, shaft, *more = first.split("-")
            first = "-".join([shaft, bulb, *more])
        broken = f"{givens} {word}={';'.join([first, *rest])}"
        (puzzle,) = PuzzleReader().feed_line(broken, "\n", 1)
        if rule == "arrow" and not isinstance(puzzle, Puzzle):
            assert "cells that do not touch" in str(puzzle.error)
            continue
        grid, geo = read(broken)
        assert NATIVE.count_solutions(grid, 2, geometry=geo) == solver.PYTHON.count_solutions(grid, 2, geometry=geo)
        if rule == "littlekiller":
            assert NATIVE.count_solutions(grid, 2, geometry=geo) == 0
        tested += 1
    assert tested >= 2


def test_the_wire_answers_a_little_killer_total_no_digits_make_with_count_0() -> None:
    """Over the session and the wire: ``COUNT 0 unsolvable``, and SOLVE's error line."""
    line = "." * 81 + " littlekiller=r1c4-r2c3-r3c2-r4c1:4"
    assert replies(f"COUNT {line}\nSOLVE {line}\n".encode()) == (
        b"COUNT 0 unsolvable\nERROR unsolvable no solution exists\n"
    )


def digits(mask: int) -> list[int]:
    return [d for d in range(1, 10) if mask >> (d - 1) & 1]


def test_a_long_diagonal_keeps_exactly_the_digits_of_its_total() -> None:
    """The main diagonal crosses boxes 1, 5 and 9, three cells in each (they differ there), so it makes
    72 at most, as 7, 8 and 9 in every box: with total 72 each of its cells keeps exactly 7, 8 and 9 (its
    totals, 63 above its least, go on one 64-bit word, cut at the total); 73 leaves no solution. With
    r1c1 given as 9, the other eight cells make 63 (the pass leaves the placed cell out of its total): 9
    stays out of box 1's other two."""
    diagonal = "-".join(f"r{i}c{i}" for i in range(1, 10))
    grid, geo = read("." * 81 + f" littlekiller={diagonal}:72")
    assert engine("." * 81 + f" littlekiller={diagonal}:72") == "e9"
    candidates = solver.native_candidates(grid, geometry=geo)
    assert candidates is not None
    assert [digits(candidates[10 * i]) for i in range(9)] == [[7, 8, 9]] * 9
    answer = NATIVE.solve(grid, geometry=geo).to_string()
    assert answer[:9] == "712345689"  # the row-major-first: r1c1 at least 7
    assert sum(int(answer[10 * i]) for i in range(9)) == 72
    grid, geo = read("." * 81 + f" littlekiller={diagonal}:73")
    assert NATIVE.count_solutions(grid, 2, geometry=geo) == 0
    grid, geo = read("9" + "." * 80 + f" littlekiller={diagonal}:72")
    candidates = solver.native_candidates(grid, geometry=geo)
    assert candidates is not None
    assert [digits(candidates[10 * i]) for i in range(9)] == [[9], [7, 8], [7, 8]] + [[7, 8, 9]] * 6
