"""German whispers on the 9x9 engine: the units' halves, and the polar parts decided as wholes.

The rules of ``_native_9x9_pairs.h`` for polar cells (German whispers on 9x9,
whose line neighbours take opposite halves and hold no 5):

* ``e9_halves``: every row, column and box holds exactly four low digits
  (1-4) and four high ones (6-9); four cells of a unit confined to a half
  take that half's digits from the unit's other cells, and four cells that
  alone can hold a half hold nothing else;
* ``geo_polar9``: the lines' connected parts, each in two sides (one side
  low, the other high), so that one choice decides every cell of a part; a
  part with an odd cycle has no solution, found at the root;
* ``e9_halves_parts``: a part still open counts in each unit as its two
  sides, so a side that would put five of a half into a unit leaves;
* ``e9_polar_branch``: the search branches on an open part's side first.

They change how the engine searches, never what it answers: the answers
stay the stored solutions (and the CP-SAT and Python oracles of
``test_rule_marks.py`` and ``test_native_relation_reasoning.py``).
"""

from __future__ import annotations

import pytest

from sudoku_server.errors import UnsolvableError
from sudoku_server.sudoku import solver
from sudoku_server.sudoku.variants import variant_geometry
from sudoku_server.text.fpuzzles import marks_line
from tests.support.native import native_core_for_module

NATIVE = native_core_for_module()

#: Stored whispers puzzles (puzzles/variants/bench_whispers.txt, the 12th, 18th, 39th and 85th) that the
#: ninth session's engine solved at the root by probing each line's sides, with the search nodes they take
#: now that the parts' sides are branched on instead (tenth session): 4, 2, 2 and 2.
FEW_NODES = [
    (
        "8............6..1..........7....5......3....4..2......9.....4.......7........3... "
        "whispers=r9c6-r8c7-r9c8;r8c4-r7c5-r6c5-r6c4-r5c3;r8c8-r8c9-r9c9;r6c8-r6c7-r5c6-r5c7-r4c8-r4c9-r5c8;"
        "r1c3-r2c4-r3c5-r2c6-r3c7;r5c5-r4c5-r5c4",
        "873251946254869713619734258731495682596328174482176395968512437325947861147683529",
    ),
    (
        "4732..........5...................2.5....47.......6.....8............3..3........ "
        "whispers=r5c3-r4c2-r4c3;r2c5-r3c6-r4c7;r8c3-r9c3-r8c4;r6c9-r5c9-r6c8-r5c8;r7c7-r8c7-r9c8-r9c9;"
        "r6c4-r5c4-r4c5-r5c5-r5c6",
        "473268159192375846685941273819537624526894731734126598258413967947682315361759482",
    ),
    (
        "...3.4.5.........4....7..9.84...9.........4...........3....7....9........1.....3. "
        "whispers=r1c6-r2c5-r1c5;r9c4-r8c4-r7c5-r8c6-r7c6;r5c4-r5c3-r6c3;r3c4-r4c3-r3c3;"
        "r4c7-r3c8-r4c8-r5c9-r6c8-r7c8;r2c3-r1c2-r2c1-r2c2",
        None,
    ),
    (
        ".....7.9..6...4.......234.......1....................37................7..1...... "
        "whispers=r6c7-r7c6-r8c5-r8c6-r7c5-r6c4;r7c7-r7c8-r8c8;r2c3-r3c2-r2c2;r4c8-r4c7-r3c8;r1c7-r1c8-r2c9;"
        "r4c4-r5c4-r5c3;r5c6-r5c5-r4c6;r8c1-r7c2-r6c3",
        None,
    ),
]
FEW_NODES_COUNTS = [4, 2, 2, 2]

#: The stored whispers puzzle whose solve searched the most (two givens, eight lines): 326 nodes with the
#: halves alone, 186 when both sides of a probe also removed what neither kept (ninth session), 132 with the
#: parts' sides branched on first and counted as wholes in the halves.
HARD = (
    "......................4...............................................8.......... "
    "whispers=r4c6-r5c7-r6c8;r5c2-r4c3-r3c3-r2c4;r8c1-r7c1-r8c2-r9c1-r9c2-r8c3-r8c4;"
    "r5c9-r6c9-r7c8-r8c9-r9c9-r9c8;r5c1-r6c1-r7c2-r6c3-r5c3;r6c4-r7c4-r6c5-r5c6-r6c6-r6c7;"
    "r3c5-r2c5-r3c6;r2c9-r3c9-r2c8-r2c7-r3c7"
)
HARD_SOLUTION = "497621835163895724582743169639514278748362951251978346974286513326159487815437692"


def read(line: str):  # type: ignore[no-untyped-def]
    puzzle = marks_line(line, 1, "\n")
    assert puzzle is not None and puzzle.variant is not None
    return puzzle.grid, variant_geometry(puzzle.variant)


@pytest.mark.parametrize(("line", "solution", "nodes"), [(*p, n) for p, n in zip(FEW_NODES, FEW_NODES_COUNTS)])
def test_stored_puzzles_that_the_halves_and_the_parts_solve_in_a_few_nodes(
    line: str, solution: str | None, nodes: int
) -> None:
    grid, geo = read(line)
    found = NATIVE.solve(grid, geometry=geo)
    assert found is not None
    assert solver._native.last_nodes() <= nodes  # type: ignore[union-attr]
    if solution is not None:
        assert found.to_string() == solution
    assert NATIVE.count_solutions(grid, 2, geometry=geo) == 1


def test_the_hardest_stored_puzzle_takes_at_most_132_nodes() -> None:
    grid, geo = read(HARD)
    found = NATIVE.solve(grid, geometry=geo)
    assert found is not None and found.to_string() == HARD_SOLUTION
    assert solver._native.last_nodes() <= 132  # type: ignore[union-attr]


def test_a_part_with_an_odd_cycle_has_no_solution_at_the_root() -> None:
    # r1c1, r1c2, r2c2 are each other's line neighbours: three cells cannot alternate low and high
    grid, geo = read("." * 81 + " whispers=r1c1-r1c2-r2c2;r2c2-r1c1")
    assert solver._native.engine(solver._prepare(geo)) == "e9"  # type: ignore[union-attr]
    with pytest.raises(UnsolvableError):
        NATIVE.solve(grid, geometry=geo)
    assert solver._native.last_nodes() == 0  # type: ignore[union-attr]
    assert NATIVE.count_solutions(grid, 2, geometry=geo) == 0


def test_a_line_counts_as_its_two_sides_in_its_row() -> None:
    """Seven cells of row 1 on one line (four on one side, three on the other) and a given 4 in r1c9: the
    side of four cannot be low (five low digits in the row), so it is high; the three low cells, each
    between two high ones, hold 1-3, r1c8 holds 5. The true candidates, and the Python core's answer."""
    grid, geo = read("........4" + "." * 72 + " whispers=r1c1-r1c2-r1c3-r1c4-r1c5-r1c6-r1c7")
    union = solver.native_candidates(grid, geometry=geo)
    assert union is not None
    assert [[d for d in range(1, 10) if union[c] >> (d - 1) & 1] for c in range(9)] == [
        [6, 7, 8, 9],
        [1, 2, 3],
        [7, 8, 9],
        [2, 3],
        [7, 8, 9],
        [1, 2, 3],
        [6, 7, 8, 9],
        [5],
        [4],
    ]
    found = NATIVE.solve(grid, geometry=geo)
    assert found is not None
    assert found.to_string() == ("617283954234159678589467123123546789456798231798312465341625897865971342972834516")
    assert found.cells == solver.PYTHON.solve(grid, geometry=geo).cells


def test_a_unit_with_five_cells_that_must_be_low_has_no_solution() -> None:
    # r1c1..r1c9 alternate low, high, low, ... along one line: five low cells in row 1
    line = "......... whispers=r1c1-r1c2-r1c3-r1c4-r1c5-r1c6-r1c7-r1c8-r1c9".replace(".........", "." * 81)
    grid, geo = read(line)
    with pytest.raises(UnsolvableError):
        NATIVE.solve(grid, geometry=geo)
    assert solver._native.last_nodes() == 0  # type: ignore[union-attr]
    assert NATIVE.count_solutions(grid, 2, geometry=geo) == 0
