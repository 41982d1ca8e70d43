"""Sudoku Explainer's own techniques the engine took last (issue 30): aligned pair and triple exclusion,
unique loops, BUG types 3 and 4.

Each exact example is a state on a puzzle's path (the path's first ``index``
steps applied): puzzles from the Sudoku Exchange bank sample
(puzzles/datasets/sudokuexchange_diabolical_se.txt.gz, Unlicense) and Gordon
Royle's 17-clue list (sudoku17_royle_49151.txt.gz), found by running the
finders over those files. The deduction of each is checked by hand in its
test's docstring. The sweeps then run every finder over many states (the
paths of the diabolical set, HoDoKu's library states) and check each
effect against the solution.
"""

from __future__ import annotations

import functools
import gzip
import itertools
from pathlib import Path

import pytest

from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.techniques import TECHNIQUES, Board, find_step, solve_steps, unique_solution
from sudoku_server.sudoku.techniques.board import digits_of
from sudoku_server.sudoku.techniques.every import all_steps, code_of
from sudoku_server.sudoku.techniques.exclusion import _used, _used_pair
from sudoku_server.sudoku.techniques.unique_loops import loop_rating
from sudoku_server.text.hodoku import read_case

ROOT = Path(__file__).resolve().parents[2]
DATASETS = ROOT / "puzzles" / "datasets"

DIABOLICAL_1 = ".83.2..9....8..1...293....8....987...7.....6...674....3....698...2..5....1..3.54."
DIABOLICAL_2 = "2...5...6.1.....9.6..8.1..3..7.9.6.....7.3...9...8...21.......5.6.9.2.1...3.6.2.."


@functools.cache
def _path(puzzle: str):
    return tuple(solve_steps(Grid.from_string(puzzle)))


def _board_after(puzzle: str, k: int) -> Board:
    board = Board.from_grid(Grid.from_string(puzzle))
    for step in _path(puzzle)[:k]:
        board.apply(step)
    return board


def _line(puzzle: str, k: int, name: str) -> tuple[str, float]:
    step = find_step(_board_after(puzzle, k), name)
    assert step is not None
    return step.describe(), step.se


def test_aligned_pair_exclusion():
    """r1c7 {4,6} and r1c9 {4,5,6,7} share row 1 and box 3; both see r3c7 {4,6} and r3c8 {5,7}. With r1c9 = 4,
    r1c7 must be 6 (same row), which takes both digits of r3c7; with r1c9 = 6, r1c7 = 4, the same. So r1c9 is
    neither 4 nor 6. SE 6.2."""
    assert _line(DIABOLICAL_1, 0, "aligned pair exclusion") == (
        "aligned pair exclusion on r1c7, r1c9: no combination of their digits may take every candidate of "
        "r3c7{4,6} and r3c8{5,7} or repeat a digit in a unit: remove 4 from r1c9; 6 from r1c9",
        6.2,
    )


def test_aligned_triple_exclusion():
    """Column 4: r1c4 {3,4}, r2c4 {2,3,4,6}, r4c4 {1,2,4,5}; r7c4 {3,4} and r9c4 {1,4,5} see all three.
    r2c4 = 3 forces r1c4 = 4 and r2c4 = 4 forces r1c4 = 3: either way r7c4 loses 3 and 4. r4c4 = 4 forces
    r1c4 = 3, then r7c4 is empty again. So r2c4 loses 3 and 4, r4c4 loses 4. SE 7.5."""
    assert _line(DIABOLICAL_2, 0, "aligned triple exclusion") == (
        "aligned triple exclusion on r2c4, r4c4, r1c4: no combination of their digits may take every candidate "
        "of r7c4{3,4} and r9c4{1,4,5} or repeat a digit in a unit: remove 3 from r2c4; 4 from r2c4, r4c4",
        7.5,
    )


def test_unique_loop_type_2():
    """Eight cells hold 2 and 8: r1c5, r1c6 (row 1), r7c6 (column 6), r7c3 (row 7), r9c3 (column 3), r9c4 (row 9),
    r4c4 (column 4), r4c5 (row 4), back to r1c5 (column 5); every unit holds two of them. All but r1c6 {2,4,8}
    and r7c3 {2,4,8} are {2,8}: without their 4 the two digits could swap round the loop. One of them is 4, so
    r1c3, which sees both, is not. SE 4.5 + 0.2 for 8 cells."""
    puzzle = "3..6....5.297...6.....93.4...7....54..6.3.7..28....6...6.31.....9...512.5....9..6"
    assert _line(puzzle, 52, "unique loop") == (
        "unique loop type 2 on 2 and 8 in r1c5, r1c6, r7c6, r7c3, r9c3, r9c4, r4c4, r4c5 (extra 4): remove 4 from r1c3",
        4.7,
    )


def test_unique_loop_type_4():
    """Six cells hold 1 and 5: r2c7, r2c9, r9c9, r9c6, r7c6, r7c7; the four {1,5} cells and r2c9 {1,3,5,8},
    r9c9 {1,5,6,9}. Column 9 has no 5 outside r2c9 and r9c9, so one of them is 5; if the other were 1 the loop
    would be deadly. Neither is 1. SE 4.6 (6 cells)."""
    puzzle = ".5.1.2.6.....7....6.1.5.7.2..2.6.8...6.8.9.5.9..5.7..4.4.....7...54.63......8...."
    assert _line(puzzle, 19, "unique loop") == (
        "unique loop type 4 on 1 and 5 in r2c7, r2c9, r9c9, r9c6, r7c6, r7c7 (5 is locked in r2c9, r9c9 in "
        "column 9): remove 1 from r2c9, r9c9",
        4.6,
    )


def test_unique_loop_type_3_hidden():
    """Six cells hold 2 and 6: r1c7, r1c9, r6c9, r6c8, r7c8, r7c7, all {2,6} but r6c9 {2,4,6} and r6c8 {1,2,4,6}.
    One of those two holds an extra. In row 6, 2 has no place but r6c9 and r6c8, and 6 none but those and
    r6c4 {5,6,7}: if r6c8 holds an extra, r6c9 is 2 and r6c4 is 6; if r6c9 does, r6c8 is 2 (its only other
    digit here) and r6c4 is again 6. So r6c4 loses 5 and 7. SE 4.6 + 0.0 (hidden pair)."""
    puzzle = ".4.8.3.9.9.......8..84.61...6..2..8.2.4...3.7.........4..187..56.5...7.1...3.5..."
    assert _line(puzzle, 26, "unique loop") == (
        "unique loop type 3 on 2 and 6 in r1c7, r1c9, r6c9, r6c8, r7c8, r7c7 ({2,6} have no other places in "
        "row 6 than r6c4 and r6c9, r6c8, one of which holds an extra): remove 5 from r6c4; 7 from r6c4",
        4.6,
    )


def test_bug_type_3():
    """Every unsolved cell is bivalue but r9c4 {2,6,9} and r9c9 {3,5,7}; without 2 in r9c4 and 7 in r9c9 the
    grid would be a BUG (two solutions), so r9c4 is 2 or r9c9 is 7. Those two act as one cell {2,7}: with
    r9c7 {2,7} a naked pair of row 9, which takes 2 from r9c6 and 7 from r9c8. SE 5.7 + 0.1 (pair)."""
    puzzle = "....1.3..4..8.....2........6.3..4......7...19......5...7..5...........48.1......."
    assert _line(puzzle, 38, "BUG") == (
        "BUG type 3: the BUG digits {2,7} of r9c4, r9c9 make a naked set {2,7} with r9c7 in row 9: "
        "remove 2 from r9c6; 7 from r9c8",
        5.8,
    )


def test_bug_type_4():
    """Every unsolved cell is bivalue but r2c4 {2,5,7} and r9c4 {2,4,9}; without 5 in r2c4 and 9 in r9c4 the grid
    would be a BUG, so r2c4 is 5 or r9c4 is 9. Column 4 has no other place for 2 than these two cells (asserted
    below), so one of them is 2 and the other its BUG digit: r2c4 is 2 or 5, r9c4 is 2 or 9. SE 5.7."""
    puzzle = "....4.9...18......6........7.5...2..3..8........1......2......8....7..3........16"
    board = _board_after(puzzle, 48)
    assert [c for c in board.t.units[board.t.columns[3]] if board.cand[c] >> 1 & 1] == [12, 75]  # r2c4, r9c4
    assert _line(puzzle, 48, "BUG") == (
        "BUG type 4: one of r2c4, r9c4 holds its BUG digit and 2 is locked in them in column 4: "
        "remove 4 from r9c4; 7 from r2c4",
        5.7,
    )


def test_loop_ratings_are_ses():
    """``UniqueLoopHint.getDifficulty`` (original scale): 4.5 rectangle, 4.6 six cells, 4.7 eight, 5.0 ten+."""
    assert [loop_rating(k) for k in (4, 6, 8, 10, 12, 14)] == [4.5, 4.6, 4.7, 5.0, 5.0, 5.0]


def test_hint_all_lists_them_with_hodokus_codes():
    board = _board_after(DIABOLICAL_1, 0)
    solution = unique_solution(Grid.from_string(DIABOLICAL_1))
    found = all_steps(board, solution)
    lines = [(f.code, f.step.technique) for f in found if "exclusion" in f.step.technique]
    assert lines == [("1000", "aligned pair exclusion"), ("1001", "aligned triple exclusion")]
    assert code_of("unique loop type 2") == "-" and code_of("BUG type 3") == "-"


def test_the_registry_holds_them_at_ses_places():
    names = [t.name for t in TECHNIQUES]
    path = [t.name for t in TECHNIQUES if t.in_path]
    assert path.index("unique rectangle") + 1 == path.index("unique loop")
    # the exclusions sit at SE's places as named finders, out of the path (no SE-rated puzzle needs them)
    assert names.index("VWXYZ-Wing") + 1 == names.index("aligned pair exclusion")
    assert "aligned pair exclusion" not in path and "aligned triple exclusion" not in path
    assert names.index("chains") + 1 == names.index("aligned triple exclusion")


def _brute_used(cells, cand, locks, sees):
    used = [0] * len(cells)
    for combo in itertools.product(*(digits_of(cand[c]) for c in cells)):
        m = 0
        for d in combo:
            m |= 1 << d
        if any(lock & ~m == 0 for lock in locks):
            continue
        if any(combo[a] == combo[b] and sees[a][b] for a in range(len(cells)) for b in range(a + 1, len(cells))):
            continue
        for a, d in enumerate(combo):
            used[a] |= 1 << d
    return used


def test_the_exclusion_masks_match_the_brute_force():
    """``_used`` (the last cell as a mask) against every combination, on the base sets of many states."""
    board = _board_after(DIABOLICAL_2, 0)
    t = board.t
    cand = board.cand
    cells3 = [c for c in range(81) if bin(cand[c]).count("1") >= 2][:14]
    checked = 0
    for triple in itertools.combinations(cells3, 3):
        sees = [[bool(t.peer_mask[a] >> b & 1) for b in triple] for a in triple]
        for locks in ({cand[c] for c in cells3 if bin(cand[c]).count("1") <= 3 and c not in triple},):
            for k in (2, 3):
                part = triple[:k]
                s = [row[:k] for row in sees[:k]]
                assert _used(part, cand, locks, s) == _brute_used(part, cand, locks, s), part
                if k == 2:
                    pairs = {lock for lock in locks if bin(lock).count("1") == 2}
                    assert _used_pair(part, cand, pairs, s[0][1]) == _brute_used(part, cand, pairs, s), part
                checked += 1
    assert checked == 2 * 364


def _diabolical(k: int) -> list[str]:
    with gzip.open(DATASETS / "sudokuexchange_diabolical_se.txt.gz", "rt") as f:
        return [line.split()[0] for line in f if line.strip()][:k]


FINDERS = ("aligned pair exclusion", "aligned triple exclusion", "unique loop", "BUG")


def _sound(board: Board, solution, counts: dict[str, int]) -> None:
    for name in FINDERS:
        step = find_step(board, name)
        if step is None:
            continue
        counts[step.technique] = counts.get(step.technique, 0) + 1
        for c, d in step.eliminations:
            assert solution[c] != d, step.describe()
        for c, d in step.placements:
            assert solution[c] == d, step.describe()
        assert any(board.cand[c] >> (d - 1) & 1 for c, d in step.eliminations) or step.placements


@pytest.mark.slow
def test_every_finder_is_sound_on_the_diabolical_paths():
    counts: dict[str, int] = {}
    for puzzle in _diabolical(120):
        solution = unique_solution(Grid.from_string(puzzle))
        board = Board.from_grid(Grid.from_string(puzzle))
        for step in _path(puzzle):
            _sound(board, solution, counts)
            board.apply(step)
    assert counts["aligned pair exclusion"] > 1000 and counts["aligned triple exclusion"] > 1000
    assert counts["unique loop type 1"] + counts["unique loop type 2"] > 5


def test_every_finder_is_sound_on_hodokus_library_states():
    """Every state of reglib-1.4 (HoDoKu's regression library) with a unique solution."""
    counts: dict[str, int] = {}
    states = 0
    for line in (ROOT / "puzzles" / "hodoku" / "reglib-1.4.txt").read_text("utf-8").splitlines():
        if not line.startswith(":"):
            continue
        state = read_case(line).state
        grid = Grid.from_string("".join(str(v) if v else "." for v in state.values))
        try:
            solution = unique_solution(grid)
        except Exception:  # several solutions from the values alone: the candidates decide, not checked here
            continue
        board = Board.from_grid(grid)
        board.cand = [m & k for m, k in zip(board.cand, state.candidates)]
        board.changed()
        if any(not m and not v for m, v in zip(board.cand, board.values)):
            continue
        if any(solution[c] and not board.values[c] and not board.cand[c] >> (solution[c] - 1) & 1 for c in range(81)):
            continue  # a state whose deleted candidates took a solution digit (none expected)
        _sound(board, solution, counts)
        states += 1
    assert states > 500
    assert counts.get("aligned pair exclusion", 0) > 50
