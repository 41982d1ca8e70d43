"""Little killer on the 9x9 engine: the short sums' own support, and the order the sums' passes run in.

Two changes of ``_native_9x9_sums.h`` (tenth session) that make a search
cheaper, never different:

* ``e9_support_small``: a sum of weights 1 with one or two open cells keeps
  its digits without the bitset support: one cell the total's digit, two
  cells the digits whose partner the other holds, never d + d for two peers
  (cells of one box);
* ``e9_sums_of`` and ``e9_sums_placed``: the sums of a cell a branch placed
  go to domain consistency before e9's rules run, and those of the cells
  the rules placed before the naked singles; the fixpoint is the same, so
  the search nodes are too.

The candidates below are the true ones (every digit some solution holds:
``native_candidates``), worked out by hand from the diagonals' totals.
"""

from __future__ import annotations

import pytest

from sudoku_server.sudoku import solver
from tests.unit.test_native_9x9_engine_from_pairs import NATIVE, engine, read

#: Two cells of box 1 (peers: their digits differ); and a diagonal whose two middle cells are given (r2c3
#: as 5, r3c2 as 6: 11 of its total), leaving r1c4 and r4c1 open, which share no row, column or box (a
#: digit may repeat) and see neither given.
PEERS = "r1c2-r2c1"
APART = "r1c4-r2c3-r3c2-r4c1"
APART_GIVENS = "." * 11 + "5" + "." * 7 + "6" + "." * 61


def line_of(diagonal: str, total: int) -> str:
    """The empty grid with the two-cell diagonal making total (APART: its two open cells making it)."""
    if diagonal == PEERS:
        return "." * 81 + f" littlekiller={PEERS}:{total}"
    return APART_GIVENS + f" littlekiller={APART}:{total + 11}"


def digits(mask: int) -> list[int]:
    return [d for d in range(1, 10) if mask >> (d - 1) & 1]


def candidates_of(line: str, cells: list[int]) -> list[list[int]]:
    grid, geo = read(line)
    assert engine(line) == "e9"
    found = solver.native_candidates(grid, geometry=geo)
    assert found is not None
    return [digits(found[c]) for c in cells]


@pytest.mark.parametrize(
    ("diagonal", "total", "expected"),
    [
        (PEERS, 4, [[1, 3], [1, 3]]),  # 2 + 2 would repeat a digit in box 1
        (APART, 4, [[1, 2, 3], [1, 2, 3]]),  # 2 + 2 is fine apart
        (PEERS, 17, [[8, 9], [8, 9]]),
        (APART, 18, [[9], [9]]),
        (PEERS, 3, [[1, 2], [1, 2]]),
        (APART, 10, [list(range(1, 10)), list(range(1, 10))]),
    ],
)
def test_two_open_cells_keep_the_digits_whose_partner_the_other_holds(
    diagonal: str, total: int, expected: list[list[int]]
) -> None:
    cells = [1, 9] if diagonal == PEERS else [3, 27]
    assert candidates_of(line_of(diagonal, total), cells) == expected


@pytest.mark.parametrize(("diagonal", "total"), [(PEERS, 2), (PEERS, 18), (APART, 1), (APART, 19)])
def test_two_cells_no_two_digits_make_leave_no_solution(diagonal: str, total: int) -> None:
    grid, geo = read(line_of(diagonal, total))
    assert NATIVE.count_solutions(grid, 2, geometry=geo) == 0


def test_one_open_cell_keeps_the_digit_of_the_total_left() -> None:
    """r1c2 given as 3: r2c1 (box 1) must make 10 - 3 = 7; with 13 it would need 10, no digit."""
    assert candidates_of(".3" + "." * 79 + f" littlekiller={PEERS}:10", [9]) == [[7]]
    grid, geo = read(".3" + "." * 79 + f" littlekiller={PEERS}:13")
    assert NATIVE.count_solutions(grid, 2, geometry=geo) == 0


#: The stored little killer puzzles (puzzles/variants/bench_littlekiller.txt, the 212th and 57th) whose
#: solves search the most and about the median: 5,386 and 364 nodes before and after the tenth session's
#: changes (the sums' passes run earlier, to the same fixpoint); 5,270 and 360 since the eleventh's fewer
#: row-major turns while the constraint-led search proves (_native.c, SEARCH_QUIET) and its stronger
#: lexicographic cut (e9_cut_equal).
SEARCHED = [
    (
        "..7...........................2..6.1...4.............23.......5..2...47...51..... littlekiller="
        "r6c9-r7c8-r8c7-r9c6:9;r4c9-r5c8-r6c7-r7c6-r8c5-r9c4:28;r1c4-r2c3-r3c2-r4c1:14;"
        "r1c9-r2c8-r3c7-r4c6-r5c5-r6c4-r7c3-r8c2-r9c1:34;r2c1-r3c2-r4c3-r5c4-r6c5-r7c6-r8c7-r9c8:46;"
        "r1c6-r2c5-r3c4-r4c3-r5c2-r6c1:25;r1c5-r2c4-r3c3-r4c2-r5c1:30;r3c1-r4c2-r5c3-r6c4-r7c5-r8c6-r9c7:41;"
        "r1c8-r2c7-r3c6-r4c5-r5c4-r6c3-r7c2-r8c1:48;r1c7-r2c6-r3c5-r4c4-r5c3-r6c2-r7c1:27",
        "587361924261954387934728156759283641623415798148697532376849215812536479495172863",
        5270,
    ),
    (
        "........4....1.5...........1.5...74.....4.......9.....5..2................9...... littlekiller="
        "r6c9-r7c8-r8c7-r9c6:23;r1c6-r2c7-r3c8-r4c9:26;r1c3-r2c2-r3c1:19;"
        "r1c1-r2c2-r3c3-r4c4-r5c5-r6c6-r7c7-r8c8-r9c9:48;r1c4-r2c3-r3c2-r4c1:10;r7c9-r8c8-r9c7:16;"
        "r1c6-r2c5-r3c4-r4c3-r5c2-r6c1:35;r2c9-r3c8-r4c7-r5c6-r6c5-r7c4-r8c3-r9c2:30",
        "357689214982314567416527938135862749298741356674953182563278491821495673749136825",
        360,
    ),
]


@pytest.mark.parametrize(("line", "solution", "nodes"), SEARCHED)
def test_the_sums_passes_run_earlier_to_the_same_fixpoint(line: str, solution: str, nodes: int) -> None:
    grid, geo = read(line)
    assert NATIVE.solve(grid, geometry=geo).to_string() == solution
    assert solver._native.last_nodes() == nodes  # type: ignore[union-attr]
    assert NATIVE.count_solutions(grid, 2, geometry=geo) == 1
