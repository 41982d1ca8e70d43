"""SE's nested forcing chains, level 4 (techniques/nested_level4.py, techniques/_nested_dynamic.h).

The state is the Golden Nugget (row 48762 of
puzzles/datasets/tdoku_forum_hardest_1905_11plus.txt.gz, Sudoku Explainer 11.9)
after the first three steps of its path (eliminations by nested forcing
chains of levels 2 and 3): there dynamic forcing chains, dynamic forcing
chains (+) and nested forcing chains of levels 2 and 3 find nothing, and
level 4 -- dynamic forcing chains inside the chain -- is the first rule that
works.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from sudoku_server.sudoku.check import no_check
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rating import LEVEL_OF
from sudoku_server.sudoku.techniques import TECHNIQUES, Board, find_step, unique_solution
from sudoku_server.sudoku.techniques.board import Context, digits_of
from sudoku_server.sudoku.techniques.nested import _closure
from sudoku_server.sudoku.techniques.nested_level4 import find_nested_level4
from sudoku_server.sudoku.techniques.nested_rules import NATIVE

FORUM = Path(__file__).resolve().parents[2] / "puzzles" / "datasets" / "tdoku_forum_hardest_1905_11plus.txt.gz"
GOLDEN_NUGGET = ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7....."

#: The Golden Nugget after 3 steps: its values, and the candidate masks of the board (bit d - 1 for digit d).
VALUES = "000000039000001005003050800008090006070002000100400000009080050020000600400700000"
CAND = [
    242, 185, 123, 162, 106, 232, 75, 0, 0, 482, 392, 106, 422, 110, 0, 74, 106, 0, 354, 297, 0, 290, 0, 360, 0,
    107, 75, 22, 28, 0, 17, 0, 84, 95, 75, 0, 308, 0, 56, 181, 37, 0, 285, 393, 141, 0, 308, 50, 0, 100, 244, 342,
    450, 198, 100, 37, 0, 35, 0, 44, 79, 0, 79, 212, 0, 81, 277, 13, 284, 0, 457, 205, 0, 181, 49, 0, 39, 308, 263,
    387, 135,
]  # fmt: skip

pytestmark = pytest.mark.skipif(not NATIVE, reason="level 4's inner search is C only (techniques/_nested.c)")


def _board() -> Board:
    board = Board.from_grid(Grid.from_string(VALUES))
    board.cand[:] = CAND
    board.changed()
    return board


def test_the_puzzle_is_the_forum_row() -> None:
    with gzip.open(FORUM, "rt") as f:
        rows = f.read().split()
    assert rows[48762] == GOLDEN_NUGGET


def test_level_4_is_the_first_rule_that_works_at_the_state() -> None:
    board = _board()
    for name in ("dynamic forcing chains", "dynamic forcing chains plus", "nested forcing chains"):
        assert find_step(board, name) is None, name
    step = find_step(board, "nested forcing chains level 4")
    assert step is not None
    assert step.describe() == (
        "nested forcing chains: r2c1=7 leads to a contradiction (its singles helped by dynamic forcing chains"
        " on the candidates left), so r2c1 is not 7: remove 7 from r2c1"
    )
    assert step.eliminations == ((9, 7),) and step.placements == ()
    # SE: 10.5 + the length bonus of 316 nodes (314 > 256: +1.3)
    assert (step.se, step.nodes) == (11.8, 316)
    assert unique_solution(Grid.from_string(GOLDEN_NUGGET))[9] != 7


def test_every_chain_from_a_true_assumption_stays_true() -> None:
    # the inner searches' removals, taken inside chains whose assumption the solution holds, agree with it
    solution = unique_solution(Grid.from_string(GOLDEN_NUGGET))
    board = _board()
    x = Context(board, no_check)
    for c in (9, 10, 11):  # r2c1, r2c2, r2c3
        for d in digits_of(board.cand[c]):
            on = solution[c] == d + 1
            r = _closure(x, d * 81 + c, on, 4)
            assert r.absurd is None
            assert all(solution[k % 81] != k // 81 + 1 for k in r.off)
            assert all(solution[k % 81] == k // 81 + 1 for k in r.on)


def test_past_its_budget_it_finds_nothing() -> None:
    calls: list[int] = []

    def hook() -> None:
        calls.append(1)

    x = Context(_board(), hook)
    assert find_nested_level4(x, budget=50) is None
    assert len(calls) == 50  # the hook ran until the budget was spent, then the search gave up
    assert x.check is hook  # the context's own hook is back


def test_the_searches_of_one_board_share_the_budget() -> None:
    from sudoku_server.sudoku.techniques import nested_level4

    calls: list[int] = []
    board = _board()
    board.memo[nested_level4._SPENT] = nested_level4.BUDGET - 30  # a path that has spent all but 30
    x = Context(board, lambda: calls.append(1))
    assert find_nested_level4(x) is None
    assert len(calls) == 30
    assert board.memo[nested_level4._SPENT] == nested_level4.BUDGET
    assert find_nested_level4(x) is None and len(calls) == 30  # nothing left: not even started


def test_registered_last_in_the_path_at_the_extreme_level() -> None:
    names = [t.name for t in TECHNIQUES if t.in_path]
    assert names[-2:] == ["nested forcing chains", "nested forcing chains level 4"]
    assert LEVEL_OF["nested forcing chains"] == "extreme"
