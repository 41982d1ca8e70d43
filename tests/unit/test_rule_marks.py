"""The rules that take marks (issue 29): ``oddeven`` (odd/even cells) and ``thermo`` (thermometers).

Each puzzle below was made with CP-SAT (tests/support/cpsat_oracle.py) from the solution
``SOLUTION``: marks drawn to fit it, then givens removed while CP-SAT still finds one solution.
Both cores (the native facade falls back to the Python core for relations it does not take) and
CP-SAT agree on that one solution; broken givens are named by rule and place.
"""

from __future__ import annotations

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rules.base import Mark
from sudoku_server.sudoku.solver import _python
from sudoku_server.sudoku.variants import Variant, broken_rule, variant_geometry, wrong_in_solution
from tests.support.cpsat_oracle import smallest, solutions

SOLUTION = "754286931921473568863915472698527143312649857547138629479862315135794286286351794"

ODD, EVEN = 1, 2
ODDEVEN_MARKS = tuple(
    Mark("oddeven", (c,), v)
    for c, v in (
        (0, ODD), (3, EVEN), (8, ODD), (12, EVEN), (15, ODD), (17, EVEN), (26, EVEN), (32, ODD),
        (48, ODD), (49, ODD), (55, ODD), (57, EVEN), (60, ODD), (62, ODD), (63, ODD), (72, EVEN),
    )
)  # fmt: skip
ODDEVEN_PUZZLE = ".5.2.......1.73.......1....698....43....4..5.............8.....1.....2.62.6...7.."

THERMO_LINES = (
    (72, 64, 56), (15, 25, 17), (60, 70, 79), (12, 13, 4), (49, 50, 41),
    (40, 30, 21), (3, 2, 1, 0, 9), (58, 66, 57, 67), (23, 32, 42),
)  # fmt: skip
THERMO_MARKS = tuple(Mark("thermo", line) for line in THERMO_LINES)
THERMO_PUZZLE = ".....6.............6..1.4...........3.2.......4....6.9.......1.135..............."


def _grid(text: str) -> Grid:
    return Grid.trusted(tuple(0 if ch == "." else int(ch) for ch in text), 3, 3)


def _check_unique(word: str, marks: tuple[Mark, ...], puzzle: str) -> None:
    geo = variant_geometry(Variant((word,), marks=marks))
    grid = _grid(puzzle)
    assert ["".join(map(str, s)) for s in solutions(grid.cells, geo)] == [SOLUTION]
    assert _python.solve(grid, geometry=geo).to_string() == SOLUTION
    assert solver.solve(grid, geometry=geo).to_string() == SOLUTION
    assert solver.count_solutions(grid, geometry=geo) == 1
    assert _python.count_solutions(grid, geometry=geo) == 1
    assert solver.count_solutions(grid) == 2  # the givens alone: not unique


def test_oddeven_compiles_to_one_candidates_mask():
    geo = variant_geometry(Variant(("oddeven",), marks=ODDEVEN_MARKS))
    (masks,) = [c.masks for c in geo.constraints]  # type: ignore[union-attr]
    assert masks[0] == 0b101010101 and masks[3] == 0b010101010 and masks[1] == 0b111111111


def test_oddeven_puzzle_is_unique_on_both_cores_and_cpsat():
    _check_unique("oddeven", ODDEVEN_MARKS, ODDEVEN_PUZZLE)


def test_oddeven_broken_given_and_solution_are_named():
    geo = variant_geometry(Variant(("oddeven",), marks=ODDEVEN_MARKS))
    assert broken_rule(_grid("4" + "." * 80), geo) == "4 at r1c1 is even on a cell marked odd"
    assert broken_rule(_grid("...3" + "." * 77), geo) == "3 at r1c4 is odd on a cell marked even"
    wrong = _grid("3" + SOLUTION[1:3] + "7" + SOLUTION[4:])
    assert wrong_in_solution(wrong, wrong, geo) == "r1c4 is marked even and holds 7"


def test_thermo_compiles_to_one_increasing_relation_per_line():
    geo = variant_geometry(Variant(("thermo",), marks=THERMO_MARKS))
    assert geo.constraint_names[6] == "thermometer r1c4-r2c1"
    assert geo.constraints[6].pairs == ((3, 2), (2, 1), (1, 0), (0, 9))  # type: ignore[union-attr]
    assert geo.constraints[6].allows(3, 4) and not geo.constraints[6].allows(4, 4)  # type: ignore[union-attr]


def test_thermo_puzzle_is_unique_on_both_cores_and_cpsat():
    _check_unique("thermo", THERMO_MARKS, THERMO_PUZZLE)


def test_thermo_broken_givens_are_named_by_line_and_cells():
    geo = variant_geometry(Variant(("thermo",), marks=(Mark("thermo", (0, 1, 2, 3)),)))
    assert broken_rule(_grid(".75" + "." * 78), geo) == "thermometer r1c1-r1c4: 7 at r1c2 is not below 5 at r1c3"
    wrong = _grid("987654321" + "." * 72)
    assert wrong_in_solution(wrong, wrong, geo) == "thermometer r1c1-r1c4: r1c1 holds 9, not below 8 at r1c2"


def _dots(text: str) -> tuple[Mark, ...]:
    """Kropki dots written ``1-2w 2-3b`` (cells, w white, b black), then both negative marks."""
    marks = [
        Mark("kropki", tuple(int(c) for c in dot[:-1].split("-")), 0, {"w": "white", "b": "black"}[dot[-1]])
        for dot in text.split()
    ]
    return (*marks, Mark("kropki", (), 0, "negative white"), Mark("kropki", (), 0, "negative black"))


KROPKI_MARKS = _dots(
    "1-2w 2-3b 3-12b 4-13w 5-14b 7-16b 9-18w 10-11w 15-16w 15-24w 16-25w 19-20b 22-31w 23-24w 26-35w 27-36b "
    "28-29w 30-39w 31-40b 34-35w 34-43w 37-38w 40-49w 41-42w 41-50w 45-46w 45-54w 49-58b 51-60b 52-61w "
    "56-57w 57-66w 59-60w 59-68b 60-69w 62-71w 63-72w 65-74w 68-69b 70-79w 74-75b"
)
KROPKI_PUZZLE = "." * 81

XV_MARKS = (
    *(
        Mark("xv", (a, b), v)
        for a, b, v in (
            (2, 11, 5), (3, 4, 10), (11, 12, 5), (13, 14, 10), (17, 26, 10), (21, 22, 10), (24, 33, 5),
            (26, 35, 5), (28, 37, 10), (29, 38, 10), (33, 34, 5), (35, 44, 10), (37, 46, 5), (39, 40, 10),
            (50, 59, 10), (54, 63, 5), (55, 64, 10), (59, 60, 5), (60, 69, 5), (66, 75, 10), (68, 77, 5),
            (69, 70, 10), (71, 80, 10), (72, 73, 10),
        )
    ),
    Mark("xv", (), 0, "negative"),
)  # fmt: skip
XV_PUZZLE = ".................8........................................................6......"

WHISPERS_LINES = (
    (17, 26, 25, 33, 32, 31), (57, 49, 50, 59, 67, 75), (3, 13, 22, 21, 20, 29), (29, 37, 28, 36),
    (3, 4, 14, 6, 7), (56, 48, 58), (29, 38, 47), (53, 52, 42),
)  # fmt: skip
WHISPERS_PUZZLE = "...............5.......5.............1....8...........4........1................4"

PALINDROME_LINES = ((3, 12, 2, 10), (73, 65, 57), (32, 22, 13), (27, 18, 19), (75, 74, 64), (21, 29, 28), (37, 47, 48))
PALINDROME_PUZZLE = "........1.....3.........47.6...2..........8..5.....6..........51..79..8..8..5...."


def test_kropki_with_every_dot_and_both_negatives_needs_no_given():
    _check_unique("kropki", KROPKI_MARKS, KROPKI_PUZZLE)


def test_kropki_broken_givens_are_named():
    geo = variant_geometry(Variant(("kropki",), marks=KROPKI_MARKS))
    assert (
        broken_rule(_grid(".35" + "." * 78), geo)
        == "kropki r1c2-r1c3 white 1: 3 at r1c2 and 5 at r1c3 differ by 2, not 1"
    )
    assert broken_rule(_grid("34" + "." * 79), geo) == "kropki negative: 3 at r1c1 and 4 at r1c2 differ by 1"
    assert (
        broken_rule(_grid("36" + "." * 79), geo)
        == "kropki negative: 3 at r1c1 and 6 at r1c2 differ by 3 and are in ratio 2"
    )
    alone = variant_geometry(Variant(("kropki",), marks=(Mark("kropki", (0, 1), 3, "black"),)))
    assert (
        broken_rule(_grid("34" + "." * 79), alone)
        == "kropki r1c1-r1c2 black 3: 3 at r1c1 and 4 at r1c2: neither is 3 times the other"
    )
    assert broken_rule(_grid("39" + "." * 79), alone) is None


def test_xv_with_its_negative_is_unique():
    _check_unique("xv", XV_MARKS, XV_PUZZLE)


def test_xv_broken_givens_are_named():
    geo = variant_geometry(Variant(("xv",), marks=XV_MARKS))
    assert broken_rule(_grid("...36" + "." * 76), geo) == "xv r1c4-r1c5 sum 10: 3 at r1c4 and 6 at r1c5 sum to 9"
    assert broken_rule(_grid("14" + "." * 79), geo) == "xv negative: 1 at r1c1 and 4 at r1c2 sum to 5"


def test_whispers_puzzle_is_unique():
    _check_unique("whispers", tuple(Mark("whispers", line) for line in WHISPERS_LINES), WHISPERS_PUZZLE)


def test_whispers_value_and_broken_givens():
    geo = variant_geometry(Variant(("whispers",), marks=(Mark("whispers", (0, 1, 2)),)))
    assert broken_rule(_grid("16" + "." * 79), geo) is None
    assert (
        broken_rule(_grid("15" + "." * 79), geo)
        == "whispers r1c1-r1c3 (at least 5 apart): 1 at r1c1 and 5 at r1c2 differ by 4"
    )
    three = variant_geometry(Variant(("whispers",), marks=(Mark("whispers", (0, 1, 2), 3),)))
    assert broken_rule(_grid("14" + "." * 79), three) is None


def test_palindrome_puzzle_is_unique():
    _check_unique("palindrome", tuple(Mark("palindrome", line) for line in PALINDROME_LINES), PALINDROME_PUZZLE)


def test_palindrome_pairs_the_ends_and_names_a_broken_pair():
    geo = variant_geometry(Variant(("palindrome",), marks=(Mark("palindrome", (0, 1, 2, 3, 4)),)))
    assert geo.constraints[0].pairs == ((0, 4), (1, 3))  # type: ignore[union-attr]
    assert broken_rule(_grid(".1.2" + "." * 77), geo) == (
        "palindrome r1c1-r1c5: 1 at r1c2 and 2 at r1c4 differ, at the same distance from the two ends"
    )


RENBAN_LINES = ((72, 63, 64), (57, 66, 74), (46, 36, 45), (79, 78, 70), (5, 13, 23), (32, 42, 41), (74, 73, 65, 56, 47))
RENBAN_PUZZLE = ".5..8......1.....8..39..4.......7................3.6.9..9....1........8......1..."

ARROW_LINES = ((15, 24, 33), (12, 20, 11), (27, 36, 37, 38), (64, 72, 63), (70, 78, 77), (62, 52, 61, 69), (58, 59, 68))
ARROW_PUZZLE = "75.....3..............1...2.......4............7.3....4.........357...86.....1..."

LITTLE_KILLERS = (
    ((5, 13, 21, 29, 37, 45), 36), ((62, 52, 42, 32, 22, 12, 2), 31), ((77, 69, 61, 53), 13),
    ((76, 66, 56, 46, 36), 28), ((3, 11, 19, 27), 15), ((17, 7), 11), ((4, 14, 24, 34, 44), 26),
    ((45, 55, 65, 75), 20), ((44, 34, 24, 14, 4), 26),
)  # fmt: skip
LITTLE_KILLER_PUZZLE = "75.2........47............2..8....4.....4.......13.......8....5.............5...."


def test_renban_puzzle_is_unique():
    _check_unique("renban", tuple(Mark("renban", line) for line in RENBAN_LINES), RENBAN_PUZZLE)


def test_renban_pairs_every_two_cells_and_names_a_broken_pair():
    geo = variant_geometry(Variant(("renban",), marks=(Mark("renban", (0, 1, 2, 3)),)))
    assert len(geo.constraints[0].pairs) == 6  # type: ignore[union-attr]
    assert broken_rule(_grid("15" + "." * 79), geo) == (
        "renban r1c1-r1c4 (4 cells): 1 at r1c1 and 5 at r1c2 differ by 4, too far apart"
    )
    assert broken_rule(_grid("14" + "." * 79), geo) is None
    assert solver.solve(_grid("1..4" + "." * 77), geometry=geo).cells[:4] == (1, 2, 3, 4)
    assert smallest(_grid("1..4" + "." * 77).cells, geo)[:4] == (1, 2, 3, 4)  # type: ignore[index]


def test_arrow_puzzle_is_unique():
    _check_unique("arrow", tuple(Mark("arrow", line, 1) for line in ARROW_LINES), ARROW_PUZZLE)


def test_arrow_pill_reads_its_bulb_as_one_number():
    geo = variant_geometry(Variant(("arrow",), marks=(Mark("arrow", (0, 1, 10, 19, 28), 2),)))
    assert geo.constraints[0].weights == (-10, -1, 1, 1, 1)  # type: ignore[union-attr]
    line = "3........4........5"
    assert broken_rule(_grid("12" + "." * 8 + line + "." * 52), geo) is None
    assert (
        broken_rule(_grid("13" + "." * 8 + line + "." * 52), geo)
        == "arrow r1c1-r4c2: its line sums to 12, not 13 in its bulb"
    )
    assert broken_rule(_grid("." * 10 + "9" + "." * 70), geo) is None  # the bulb may still be 9 + the rest
    first = solver.solve(_grid("." * 81), geometry=geo).cells
    assert first[0] * 10 + first[1] == first[10] + first[19] + first[28]
    assert first == tuple(int(d) for d in CPSAT_FIRST_PILL)


CPSAT_FIRST_PILL = (
    "123456789457189236869237145214365897375891462698724351531642978746918523982573614"  # CP-SAT smallest
)


def test_little_killer_puzzle_is_unique():
    marks = tuple(Mark("littlekiller", cells, total) for cells, total in LITTLE_KILLERS)
    _check_unique("littlekiller", marks, LITTLE_KILLER_PUZZLE)


def test_little_killer_broken_givens_are_named():
    geo = variant_geometry(Variant(("littlekiller",), marks=(Mark("littlekiller", (17, 7), 11),)))
    assert (
        broken_rule(_grid("." * 7 + "9" + "." * 9 + "3" + "." * 63), geo)
        == "little killer r2c9-r1c8 sum 11: its givens sum to 12"
    )
    assert broken_rule(_grid("." * 7 + "9" + "." * 73), geo) is None
