"""The sandwich rule (issue 29): the digits between the 1 and the 9 of a row or column sum to its clue.

Known puzzles solve to their published solution on both cores; CP-SAT
(tests/support/cpsat_oracle.py) agrees with both cores on seeded random
clue sets, unique or not, on 9x9 and on the other sizes (lowest and highest
digit); broken givens are named by the clue; the f-puzzles JSON and link
round trip keeps each clue's side.
"""

from __future__ import annotations

import json
import random

import pytest

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.constraints import Between, between_allowed, broken_givens, broken_solution
from sudoku_server.sudoku.grid import BOX_SHAPES, Grid
from sudoku_server.sudoku.rules.base import Mark
from sudoku_server.sudoku.solver import _python
from sudoku_server.sudoku.variants import Variant, broken_rule, variant_geometry, wrong_in_solution
from sudoku_server.text.fpuzzles import decode_link, link, marks_line, read_object, write
from tests.support.cpsat_oracle import smallest, solutions
from tests.support.sessions import replies

#: "Between 1 and 9 Sudoku" (Cracking the Cryptic, https://www.youtube.com/watch?v=2wfR6QIvNn4;
#: https://sudokupad.app/p8fFp3hT96), as sigh's Interactive Sudoku Solver's examples give it
#: (data/example_puzzles.js, MIT): every clue, three givens, and its published solution.
BETWEEN_1_AND_9 = (
    "....................1...................5...................9.................... sandwich="
    "c1:8;c2:4;c3:17;c4:35;c5:14;c6:13;c7:3;c8:10;c9:25;r1:4;r2:33;r3:20;r4:17;r5:26;r6:10;r7:16;r8:24;r9:0"
)
BETWEEN_1_AND_9_SOLUTION = "236941875954378612871625439182439756397856124645217398413562987569783241728194563"

#: Made for these tests (docs/LAYOUTS.md's example): 13 clues and two givens, unique (CP-SAT says so).
EXAMPLE = (
    "...................6...............................................9............. sandwich="
    "r1:3;r2:2;r5:12;r6:19;r7:19;r8:15;r9:7;c1:26;c3:20;c4:11;c5:15;c7:9;c9:20"
)
EXAMPLE_SOLUTION = "754286931921473568863915472698527143312649857547138629479862315135794286286351794"


def _read(line: str) -> tuple[Grid, Variant]:
    puzzle = marks_line(line, 1, "\n")
    assert puzzle is not None and not hasattr(puzzle, "error")
    return puzzle.grid, puzzle.variant  # type: ignore[union-attr,return-value]


@pytest.mark.parametrize(
    ("line", "solution"), [(BETWEEN_1_AND_9, BETWEEN_1_AND_9_SOLUTION), (EXAMPLE, EXAMPLE_SOLUTION)]
)
def test_known_sandwich_puzzles_solve_to_their_solution_on_both_cores(line: str, solution: str) -> None:
    grid, variant = _read(line)
    geo = variant_geometry(variant)
    assert solver.NATIVE is not None
    for core in (solver.NATIVE, solver.PYTHON):
        assert core.solve(grid, geometry=geo).to_string() == solution, core.name
        assert core.count_solutions(grid, geometry=geo) == 1, core.name
    assert ["".join(map(str, s)) for s in solutions(grid.cells, geo)] == [solution]
    assert replies(f"{line}\nCOUNT {line}\n".encode()) == f"{solution}\nCOUNT 1 unique\n".encode()


def test_a_clue_compiles_to_one_between_over_its_line_from_the_clue_side() -> None:
    _grid, variant = _read("." * 81 + " sandwich=r3:15;c5:0")
    geo = variant_geometry(variant)
    row, column = geo.constraints
    assert row == Between(tuple(range(18, 27)), 1, 9, 15, 0)
    assert column == Between(tuple(range(4, 81, 9)), 1, 9, 0, 1)
    assert geo.constraint_names == ("sandwich r3", "sandwich c5")
    # f-puzzles clues right of a row and below a column read the line from their side
    data = {"size": 9, "grid": [[{}] * 9] * 9, "sandwichsum": [{"cell": "R3C10", "value": 15}, {"cell": "R10C5"}]}
    marks = read_object(data)[1].marks
    assert marks == (Mark("sandwich", tuple(range(26, 17, -1)), 15),)  # a clue without a value says nothing


def test_broken_givens_and_solutions_are_worded_by_the_clue() -> None:
    _grid, variant = _read("." * 81 + " sandwich=r1:5")
    geo = variant_geometry(variant)
    between = geo.constraints[0]
    assert isinstance(between, Between)

    def grid(text: str) -> Grid:
        return Grid.from_string(text.ljust(81, "."))

    assert broken_rule(grid("9.41"), geo) is None  # 4 given between, one cell open: it may hold the 1 missing
    assert broken_givens(between, grid("9.41").cells) is None
    assert broken_rule(grid("941"), geo) == "sandwich r1: the digits between 1 at r1c3 and 9 at r1c1 sum to 4, not 5"
    assert broken_rule(grid("96.1"), geo) == (
        "sandwich r1: the givens between 1 at r1c4 and 9 at r1c1 sum to 6, over 5"
    )
    assert broken_rule(grid("19"), geo) == "sandwich r1: the digits between 1 at r1c1 and 9 at r1c2 sum to 0, not 5"
    solved = Grid.from_string(EXAMPLE_SOLUTION)
    assert broken_solution(between, solved.cells) is not None
    assert wrong_in_solution(grid(""), solved, geo) == (
        "sandwich r1: the digits between 1 at r1c9 and 9 at r1c7 sum to 3, not 5"
    )


def test_a_line_without_its_low_or_high_digit_is_a_broken_solution() -> None:
    line = Between((0, 1, 2), 1, 9, 5)
    assert broken_solution(line, (2, 3, 4)) is not None
    assert broken_solution(line, (1, 5, 9)) is None
    assert broken_solution(line, (1, 4, 9)) is not None


def _clues(solution: list[int], size: int) -> list[tuple[tuple[int, ...], int]]:
    """Every row and column of ``solution`` as a sandwich line (from the left, from the top) and its sum."""
    out = []
    for k in range(size):
        for cells in (tuple(range(k * size, (k + 1) * size)), tuple(range(k, size * size, size))):
            digits = [solution[c] for c in cells]
            a, b = sorted((digits.index(1), digits.index(size)))
            out.append((cells, sum(digits[a + 1 : b])))
    return out


@pytest.mark.parametrize(("size", "seed"), [(9, s) for s in range(8)] + [(4, 1), (4, 2), (6, 1), (6, 2)])
def test_both_cores_agree_with_cpsat_on_random_clue_sets(size: int, seed: int) -> None:
    """Random clues of a random solution (some from the far side), random givens: the row-major-first
    solution and the count (up to 2) of both cores are CP-SAT's."""
    rng = random.Random(seed)
    box_rows, box_cols = BOX_SHAPES[size]
    empty = Grid.trusted((0,) * (size * size), box_rows, box_cols)
    full = list(solver.solve_any(empty).cells)
    rng.shuffle(digits := list(range(1, size + 1)))
    full = [digits[d - 1] for d in full]
    chosen = rng.sample(_clues(full, size), rng.randint(size // 2, 2 * size - 2))
    marks = tuple(Mark("sandwich", cells if rng.random() < 0.5 else cells[::-1], total) for cells, total in chosen)
    geo = variant_geometry(Variant(("sandwich",), marks=marks), box_rows, box_cols)
    givens = [d if rng.random() < 0.12 else 0 for d in full]
    grid = Grid.trusted(tuple(givens), box_rows, box_cols)
    found = solutions(grid.cells, geo)
    first = smallest(grid.cells, geo)
    assert first is not None and len(found) in (1, 2)
    assert solver.NATIVE is not None
    for core in (solver.NATIVE, solver.PYTHON):
        assert core.solve(grid, geometry=geo).cells == first, core.name
        assert core.count_solutions(grid, geometry=geo) == len(found), core.name
    assert _python.solve_any(grid, geometry=geo).cells in {first, *found} or len(found) == 2


def test_fpuzzles_json_and_link_round_trip_keeps_each_clue_s_side() -> None:
    data = {
        "size": 9,
        "grid": [[{"value": 6, "given": True} if (r, c) == (2, 1) else {} for c in range(9)] for r in range(9)],
        "sandwichsum": [{"cell": "R1C0", "value": "3"}, {"cell": "R2C10", "value": 2}, {"cell": "R0C1", "value": 26}],
        "title": "ignored",
    }
    grid, variant = read_object(data)
    assert variant.rules == ("sandwich",)
    written = write(grid, variant)
    assert written["sandwichsum"] == [
        {"cell": "R1C0", "value": 3},
        {"cell": "R2C10", "value": 2},
        {"cell": "R0C1", "value": 26},
    ]
    assert read_object(written) == (grid, variant)
    assert read_object(json.loads(decode_link(link(written)))) == (grid, variant)
    assert replies(f"COUNT {json.dumps(data)}\n".encode()) == b"COUNT 2+ multiple\n"


def test_sandwich_clues_over_the_line_port_and_as_fpuzzles_answers() -> None:
    grid, variant = _read(EXAMPLE)
    data = write(grid, variant)
    got = replies(f"SOLVE {json.dumps(data)}\nSOLVE {link(data)}\nSOLVE format=link {EXAMPLE}\n".encode())
    first, second, answer = got.decode().splitlines()
    assert (first, second) == (EXAMPLE_SOLUTION, EXAMPLE_SOLUTION)
    solved = read_object(json.loads(decode_link(answer)))
    assert solved == (read_object(write(grid, variant, Grid.from_string(EXAMPLE_SOLUTION)))[0], variant)
    assert answer == link(write(grid, variant, Grid.from_string(EXAMPLE_SOLUTION)))


def test_rate_hint_and_steps_name_the_sandwich_step() -> None:
    """The technique engine's step of a between line (each step checked against the solution as it is taken)."""
    lines = replies(f"RATE {BETWEEN_1_AND_9}\nHINT {BETWEEN_1_AND_9}\nSTEPS {BETWEEN_1_AND_9}\n".encode()).decode()
    first = (
        "sandwich: the digits between the 1 and the 9 of sandwich c2 sum to 4:"
        " remove 1 from r9c2; 4 from r1c2, r2c2, r9c2; 9 from r1c2"
    )
    assert lines.splitlines()[:9] == [
        "RATE easy se=2.5 qqwing=none hardest=sandwich method=techniques rules=sandwich",
        f"HINT {first}",
        "STEPS 105 steps, easy se=2.5 qqwing=none hardest=sandwich method=techniques rules=sandwich",
        "note: unique rectangle: off (sandwich: swapping two digits may break the rule)",
        "note: BUG: off (argued for rows, columns and boxes only)",
        "note: dynamic forcing chains plus and nested forcing chains: off (sandwich: they do not read its constraints)",
        f"1. {first}",
        "2. sandwich: the digits between the 1 and the 9 of sandwich c3 sum to 17:"
        " remove 2 from r1c3, r2c3, r8c3, r9c3; 3 from r8c3; 4 from r8c3; 5 from r8c3; 6 from r8c3; 7 from r8c3;"
        " 8 from r8c3; 9 from r1c3, r2c3, r4c3, r5c3, r6c3, r9c3",
        "3. hidden single: r8c3 is the only place for 9 in column 3 (r8c3=9)",
    ]
    assert lines.endswith("105. full house: r9c8 is the last empty cell in box 9 (r9c8=6)\nEND\n")


def test_layouts_md_shows_the_tested_example_and_error() -> None:
    """docs/LAYOUTS.md's sandwich example is EXAMPLE (answered above), its error line the one the server sends."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "LAYOUTS.md").read_text(encoding="utf-8")
    assert f"  {EXAMPLE}\n" in text
    broken = "." * 54 + "..9875.1." + "." * 18 + " sandwich=r7:19"
    error = "ERROR invalid sandwich r7: the givens between 1 at r7c8 and 9 at r7c3 sum to 20, over 19"
    assert f"`{error}`" in text
    assert replies(f"{broken}\n".encode()) == f"{error}\n".encode()
    assert "`ERROR invalid sandwich r3: no digits between 1 and 9 sum to" in text
    assert replies(("." * 81 + " sandwich=r3:1\n").encode()) == (
        b"ERROR invalid sandwich r3: no digits between 1 and 9 sum to 1\n"
    )


def test_between_allowed_keeps_what_some_placement_gives_each_cell() -> None:
    full = 0b111111111
    line = Between(tuple(range(9)), 1, 9, 35)  # 2..8 all between: the 1 and the 9 at the two ends
    assert between_allowed(line, [full] * 9, 9) == (0b100000001, *[0b011111110] * 7, 0b100000001)
    line = Between(tuple(range(9)), 1, 9, 2)  # only a 2 between: 1 2 9 or 9 2 1 somewhere on the line
    rest = full & ~0b100000000  # the 9 placed first (the row's other cells have lost it)
    kept = between_allowed(line, [0b100000000, *[rest] * 8], 9)
    assert kept == (0b100000000, 0b000000010, 0b000000001, *[0b011111100] * 6)
    assert between_allowed(line, [0b100000000, 0b000000100, *[rest] * 7], 9) == (0,) * 9  # a 3 after the 9
