"""SE's dynamic forcing chains (+) and nested forcing chains (techniques/nested.py) on a forum 11+ puzzle.

The puzzle is row 20000 of puzzles/datasets/tdoku_forum_hardest_1905_11plus.txt.gz
(Sudoku Explainer rates it 11.0 or more). Each step's text, rating and
complexity are pinned, and its effect is checked against the solution.
"""

from __future__ import annotations

import gzip
from pathlib import Path

from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rating import LEVEL_OF
from sudoku_server.sudoku.techniques import TECHNIQUES, Board, find_step, unique_solution
from sudoku_server.sudoku.techniques.nested_rules import NATIVE

FORUM = Path(__file__).resolve().parents[2] / "puzzles" / "datasets" / "tdoku_forum_hardest_1905_11plus.txt.gz"
PUZZLE = "98.7..6..75.4.......3.8..7.5....82...3..9..8......4..13...5..9..7...1..6........2"

#: The same puzzle 15 steps later (its path so far: singles, then nested forcing chains): the values and the
#: candidate masks of the board (bit d - 1 for digit d), where dynamic forcing chains (+) find a step.
LATER_VALUES = "980700600750400020003080070500008200030090080000004001300050090070001006000000002"
LATER_CAND = [
    0, 0, 11, 0, 6, 22, 0, 9, 28, 0, 0, 33, 0, 33, 260, 388, 0, 388, 43, 43, 0, 307, 0, 304, 281, 0, 280,
    0, 297, 329, 37, 101, 0, 0, 44, 332, 43, 0, 107, 51, 0, 50, 88, 0, 88, 162, 290, 482, 54, 100, 0, 340,
    52, 0, 0, 43, 171, 162, 0, 98, 201, 0, 200, 138, 0, 410, 390, 14, 0, 156, 28, 0, 169, 297, 433, 420,
    44, 356, 221, 29, 0,
]  # fmt: skip


def _sound(step, solution) -> None:
    assert step.placements or step.eliminations
    for c, d in step.placements:
        assert solution[c] == d
    for c, d in step.eliminations:
        assert solution[c] != d


def test_the_puzzle_is_the_forum_row() -> None:
    with gzip.open(FORUM, "rt") as f:
        rows = f.read().split()
    assert rows[20000] == PUZZLE


def test_nested_forcing_chain_step_on_the_puzzle() -> None:
    grid = Grid.from_string(PUZZLE)
    board = Board.from_grid(grid)
    # nothing easier applies: plain and (+) dynamic chains find nothing on the puzzle
    assert find_step(board, "dynamic forcing chains") is None
    assert find_step(board, "dynamic forcing chains plus") is None
    step = find_step(board, "nested forcing chains")
    assert step is not None
    assert step.describe() == (
        "nested forcing chains: r5c6=7 leads to a contradiction (its singles helped by forcing chains"
        " on the candidates left), so r5c6 is not 7: remove 7 from r5c6"
    )
    assert (step.se, step.nodes) == (10.7, 203)
    assert step.nudge() == "nested forcing chains: look at box 5"
    _sound(step, unique_solution(grid))


def test_dynamic_forcing_chain_plus_step_on_a_later_board() -> None:
    board = Board.from_grid(Grid.from_string(LATER_VALUES))
    board.cand[:] = LATER_CAND
    board.changed()
    assert find_step(board, "dynamic forcing chains") is None
    step = find_step(board, "dynamic forcing chains plus")
    assert step is not None
    assert step.describe() == (
        "dynamic forcing chains plus: r1c3=1 leads to a contradiction (its singles helped by pointing,"
        " claiming, pairs and X-Wings on the candidates left), so r1c3 is not 1: remove 1 from r1c3"
    )
    # SE: 9.0 + the length bonus of 25 nodes (23 > 16: +0.5)
    assert (step.se, step.nodes) == (9.5, 25)
    _sound(step, unique_solution(Grid.from_string(PUZZLE)))


def test_registered_in_the_path_before_the_search_step_at_the_extreme_level() -> None:
    # in the path when their inner searches run in C (techniques/_nested.c): right after dynamic forcing chains
    names = [t.name for t in TECHNIQUES if t.in_path]
    if NATIVE:
        assert names[-4:] == [
            "dynamic forcing chains",
            "dynamic forcing chains plus",
            "nested forcing chains",
            "nested forcing chains level 4",  # tests/unit/test_nested_level4.py
        ]
    else:  # the Python alone: 4-60 s a puzzle, past RATE's timeout
        assert names[-1] == "dynamic forcing chains"
    named = {t.name: t for t in TECHNIQUES}
    for name in ("dynamic forcing chains plus", "nested forcing chains"):
        assert not named[name].any_size
        assert LEVEL_OF[name] == "extreme"


def test_level_3_a_cell_and_unit_forcing_chain_inside_finds_the_contradiction() -> None:
    # forum 11+ row 2: r4c3=1 leads to no contradiction with levels 1 and 2 inside the chain, and to one with
    # level 3 (static cell and unit forcing chains on the candidates left): SE 10.0 + length, 113 nodes -> 11.0
    from sudoku_server.sudoku.check import no_check
    from sudoku_server.sudoku.techniques.board import Context
    from sudoku_server.sudoku.techniques.graph import length_bonus
    from sudoku_server.sudoku.techniques.nested import _ancestors, _closure, _step

    puzzle = "98.7..6..7.5....9..43.....78..2....6..7.1..2......48..3..9...6.....5.3.......1..9"
    grid = Grid.from_string(puzzle)
    x = Context(Board.from_grid(grid), no_check)
    k = 0 * 81 + 3 * 9 + 2  # digit 1 in r4c3
    assert _closure(x, k, True, 1).absurd is None
    assert _closure(x, k, True, 2).absurd is None
    r = _closure(x, k, True, 3)
    assert r.absurd is not None
    seen: set[tuple[int, ...]] = set()
    nodes = _ancestors(r, r.absurd[0], seen) + _ancestors(r, r.absurd[1], seen)
    assert r.nests and seen  # nested chains were used, and counted once each
    assert nodes == 113
    se = round(10.0 + length_bonus(nodes - 2), 1)
    assert se == 11.0
    step = _step(x, ((se, nodes, 7, 0), ("absurd", k, [], k, True)), 3)
    assert step.describe() == (
        "nested forcing chains: r4c3=1 leads to a contradiction (its singles helped by cell and unit forcing"
        " chains on the candidates left), so r4c3 is not 1: remove 1 from r4c3"
    )
    _sound(step, unique_solution(grid))
