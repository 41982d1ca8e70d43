"""HoDoKu's level and score (RATE's ``hodoku=``) equal HoDoKu 2.2.0's own on puzzles it rated.

The expected values are lines of ``puzzles/hodoku/rated-2.2.0.txt``, written by HoDoKu 2.2.0's ``/bs``
with its default settings (``puzzles/hodoku/README.md``).
"""

from __future__ import annotations

import pathlib

import pytest

from sudoku_server.sudoku.hodoku_grid import HGrid
from sudoku_server.sudoku.hodoku_rating import hodoku_path, hodoku_rating

RATED = pathlib.Path(__file__).resolve().parents[2] / "puzzles" / "hodoku" / "rated-2.2.0.txt"

CASES = [
    # singles only: 4 a naked single or full house, 14 a hidden single, in HoDoKu's queue order
    ("..43..2.9..5..9..1.7..6..43..6..2.8719...74...5..83...6.....1.5..35.869..4291.3..", "easy", 184),
    (".4.1...5.1.7..396.52...8..........17...9.68..8.3.5.62..9..6.5436...8.7..25..971..", "easy", 188),
    # norvig top95 #1: pointing (the SE path's hardest) and HoDoKu's medium
    ("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......", "medium", 696),
    # top95 #4: unfair by its steps (ALS)
    ("48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....", "unfair", 1706),
    # top95 #5: hard
    ("....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8...", "hard", 1286),
    # top1465: HoDoKu's 24th step is an ALS-XY-Chain (5900, 340) eliminating r5c3<>5
    ("...4...26.7...9...28.5.....8..3....79......8.....9..64...7..1....6.....2..3.15...", "extreme", 4662),
    # top1465: one forcing chain (8500, 500), HoDoKu's "Forcing Chain Verity => r2c5=8"
    ("....3...27..4......3.....9..6..2....8.....7........1..4..7.1......6...35.....8...", "extreme", 3648),
    # top1465: three forcing chains and three forcing nets (8600, 700)
    ("...5....6..4.6...7.7.4..2..12..8....5...9163......3..2..29....5.......6.8....6...", "extreme", 6154),
    # top1465: a forcing chain, two ALS-XZ and an ALS-XY-Wing, each HoDoKu's own (its ALS search)
    (".6.5.1.9.1...9..539....7....4.8...7.......5.8.817.5.3.....5.2............76..8...", "extreme", 3494),
]

ALS_CHAIN = "...4...26.7...9...28.5.....8..3....79......8.....9..64...7..1....6.....2..3.15..."


def _givens(puzzle: str) -> list[int]:
    return [0 if ch in ".0" else int(ch) for ch in puzzle]


@pytest.mark.parametrize(("puzzle", "level", "score"), CASES)
def test_level_and_score_equal_hodokus(puzzle: str, level: str, score: int) -> None:
    r = hodoku_rating(_givens(puzzle))
    assert (r.level, r.score, r.complete) == (level, score, True)
    assert r.field == f"{level}:{score}"


def test_cases_are_lines_of_the_stored_file() -> None:
    stored = {line.split()[0]: (line.split()[1], int(line.split()[2])) for line in RATED.read_text().splitlines()}
    for puzzle, level, score in CASES[:2]:
        assert stored[puzzle] == (level, score)


@pytest.mark.slow  # 500 puzzles through the whole path: 16 s (the kaggle ones stay in the default run)
def test_stored_sudoku17_puzzles_rated_as_hodoku() -> None:
    """All 500 sudoku17 puzzles (HoDoKu's skyscrapers, kites, empty rectangles, wings, remote pairs, Sue de Coq,
    ALS in its order; ".......218...4..." too since the path takes HoDoKu's own nice loops, the discontinuous
    loop from two strong links at its start among them)."""
    rows = [line.split() for line in RATED.read_text().splitlines() if line.endswith(" sudoku17")]
    differ = []
    for p, level, score, _ in rows:
        r = hodoku_rating(_givens(p))
        if (r.level, r.score) != (level, int(score)):
            differ.append((p, r.field, f"{level}:{score}"))
    assert len(rows) == 500
    assert differ == []


def test_stored_kaggle_puzzles_rated_as_hodoku() -> None:
    rows = [line.split() for line in RATED.read_text().splitlines() if line.endswith(" kaggle")]
    assert len(rows) == 500
    got = [(p, hodoku_rating(_givens(p)).field) for p, *_ in rows]
    assert got == [(p, f"{level}:{score}") for p, level, score, _ in rows]


def test_a_stopped_path_is_extreme_with_a_lower_bound() -> None:
    # the newspaper grid: HoDoKu's path (``/vp``) is a hidden single, a pointing, three forcing nets, then it
    # guesses (Brute Force); ours stops where it guesses
    newspaper = "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5"
    r = hodoku_rating(_givens(newspaper))
    assert (r.level, r.score, r.complete, r.field) == ("extreme", 2164, False, "extreme:2164+")
    assert r.steps[2:] == ("Forcing Net",) * 3


def test_hidden_single_queue_order() -> None:
    # placing r1c1=1 on an empty grid leaves no single; the queues stay empty
    g = HGrid()
    g.set_cell(0, 1)
    assert (g.ns, g.hs) == ([], [])
    # removing 2 from all of row 1 but r1c9 queues r1c9 as row 1's hidden single
    for c in range(1, 8):
        g.del_candidate(c, 2)
    assert g.hs == [(8, 2)]
    assert g.hidden_single() == (8, 2)


def test_als_xy_chain_taken_where_hodoku_takes_it() -> None:
    # HoDoKu 2.2.0 /vp: step 24 "Almost Locked Set Chain: 5- r6c12346 {123578} -2- r6c7 {25} -5- r14c7 {259}
    # -2- r4c3,r6c12 {1235} -5 => r5c3<>5", the only ALS chain of its path
    steps = hodoku_rating(_givens(ALS_CHAIN)).steps
    assert steps.index("Almost Locked Set XY-Chain") == 23
    assert steps.count("Almost Locked Set XY-Chain") == 1


def _cell(name: str) -> int:
    return (int(name[1]) - 1) * 9 + int(name[3]) - 1


def test_forcing_chains_and_nets_as_hodoku_takes_them() -> None:
    """The forcing steps of a path and their one effect each, as HoDoKu 2.2.0's ``/vp`` lists them:
    Forcing Net Verity => r1c7<>9, Forcing Net Contradiction in c3 => r2c4<>3, Forcing Chain Contradiction
    in r7 => r8c1<>3, Forcing Chain Verity => r8c5<>7 and => r8c6<>7, Forcing Net Verity => r3c5=3."""
    path = hodoku_path(_givens(CASES[-2][0]))
    forcing = [(name, pl, el) for name, pl, el in path if name.startswith("Forcing")]
    assert forcing == [
        ("Forcing Net", [], [(_cell("r1c7"), 9)]),
        ("Forcing Net", [], [(_cell("r2c4"), 3)]),
        ("Forcing Chain", [], [(_cell("r8c1"), 3)]),
        ("Forcing Chain", [], [(_cell("r8c5"), 7)]),
        ("Forcing Chain", [], [(_cell("r8c6"), 7)]),
        ("Forcing Net", [(_cell("r3c5"), 3)], []),
    ]
    assert len(path) == 83  # every step of HoDoKu's path
    chain = [(name, pl, el) for name, pl, el in hodoku_path(_givens(CASES[-3][0])) if name.startswith("Forcing")]
    assert chain == [("Forcing Chain", [(_cell("r2c5"), 8)], [])]


def test_als_steps_as_hodoku_takes_them() -> None:
    """HoDoKu 2.2.0's ``/vp``: Forcing Chain Contradiction in r6 => r4c5<>2; ALS-XZ A=r1c1379 B=r4c579 X=2
    Z=3 => r1c5<>3; ALS-XZ A=r78c2 B=r1237c3 X=9 Z=3 => r8c3<>3; ALS-XY-Wing A=r4c579 B=r1c5,r2c46,r3c4
    C=r1c1379 X,Y=2,8 Z=3 => r3c5,r5c4<>3 (the HINT all enumerators list other ALS steps first here)."""
    path = hodoku_path(_givens(CASES[-1][0]))
    later = [(name, pl, el) for name, pl, el in path if name.startswith(("Almost", "Forcing"))]
    assert later == [
        ("Forcing Chain", [], [(_cell("r4c5"), 2)]),
        ("Almost Locked Set XZ-Rule", [], [(_cell("r1c5"), 3)]),
        ("Almost Locked Set XZ-Rule", [], [(_cell("r8c3"), 3)]),
        ("Almost Locked Set XY-Wing", [], [(_cell("r3c5"), 3), (_cell("r5c4"), 3)]),
    ]
