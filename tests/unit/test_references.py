"""The benchmark's reference solvers agree with each other and with puzzles/.

Pure tests: no trio, no server. The references live in ``benchmarks/`` and do
not import ``sudoku_server``; they are the independent yardstick the
``puzzles/*.expected`` files were produced with (see puzzles/SOURCES.md).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PUZZLES = REPO / "puzzles"
sys.path.insert(0, str(REPO / "benchmarks"))

from reference_classic import solve_classic  # noqa: E402
from reference_naive import (  # noqa: E402
    CallLimitExceeded,
    solve_naive,
    solve_naive_counted,
    solve_rowmajor_propagating,
)

EMPTY_FIRST = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
# Norvig's hard1: many solutions; plain row-major search needs 419,195 calls
# (the count in puzzles/datasets/pathological_bruteforce.tsv.gz).
HARD1 = ".....6....59.....82....8....45........3........6..3.54...325..6.................."


def read_puzzles(name: str) -> list[str]:
    """The 81-cell puzzles of puzzles/NAME.txt, one-line or bordered."""
    text = (PUZZLES / f"{name}.txt").read_text()
    lines = [ln for ln in text.split("\n") if ln and not ln.startswith("#")]
    if all(len(ln) == 81 for ln in lines):
        return lines
    cells = "".join(ch for ch in text if ch in ".0123456789")
    assert len(cells) % 81 == 0
    return [cells[i : i + 81] for i in range(0, len(cells), 81)]


def read_expected(name: str) -> list[str]:
    """The 81-digit solutions of puzzles/NAME.expected."""
    text = (PUZZLES / f"{name}.expected").read_text()
    digits = "".join(ch for ch in text if ch in "123456789")
    if all(len(ln) == 81 for ln in text.split("\n") if ln):
        return [ln for ln in text.split("\n") if ln]
    assert len(digits) % 81 == 0
    return [digits[i : i + 81] for i in range(0, len(digits), 81)]


def is_solution(puzzle: str, answer: str) -> bool:
    if len(answer) != 81 or any(p not in ".0" and p != a for p, a in zip(puzzle, answer)):
        return False
    units = (
        [[r * 9 + c for c in range(9)] for r in range(9)]
        + [[r * 9 + c for r in range(9)] for c in range(9)]
        + [[r * 9 + c for r in range(br, br + 3) for c in range(bc, bc + 3)] for br in (0, 3, 6) for bc in (0, 3, 6)]
    )
    return all(sorted(answer[i] for i in u) == list("123456789") for u in units)


@pytest.mark.parametrize("name", ["newspaper", "inkala", "several"])
def test_references_agree_with_expected(name: str) -> None:
    puzzles = read_puzzles(name)
    expected = read_expected(name)
    assert len(puzzles) == len(expected)
    for puzzle, want in zip(puzzles, expected):
        assert is_solution(puzzle, want)
        assert solve_classic(puzzle) == want
        assert solve_naive(puzzle) == want
        assert solve_rowmajor_propagating(puzzle) == want


def test_naive_first_solution_inkala_without_r7c9() -> None:
    (puzzle,) = read_puzzles("inkala_without_r7c9")
    (inkala,) = read_puzzles("inkala")
    assert inkala[62] == "8" and puzzle == inkala[:62] + "." + inkala[63:]
    want = "812453679943672158675891243154237896386945721729168534231784965468529317597316482"
    assert read_expected("inkala_without_r7c9") == [want]
    assert solve_naive(puzzle) == want
    assert solve_rowmajor_propagating(puzzle) == want
    # Several solutions: the classic search finds a valid one, maybe another.
    assert is_solution(puzzle, solve_classic(puzzle))


def test_naive_first_solution_empty_grid() -> None:
    (puzzle,) = read_puzzles("empty")
    assert puzzle == "." * 81
    assert read_expected("empty") == [EMPTY_FIRST]
    assert solve_naive(puzzle) == EMPTY_FIRST
    assert solve_rowmajor_propagating(puzzle) == EMPTY_FIRST
    assert solve_naive("0" * 81) == EMPTY_FIRST


def test_rowmajor_propagating_matches_naive_on_hard1() -> None:
    sol, calls = solve_naive_counted(HARD1)
    assert calls == 419_195
    assert solve_rowmajor_propagating(HARD1) == sol
    assert read_expected("pathological")[1] == sol


def test_naive_call_cap() -> None:
    with pytest.raises(CallLimitExceeded):
        solve_naive(HARD1, max_calls=1000)
    sol, calls = solve_naive_counted(read_puzzles("inkala")[0])
    assert solve_naive(read_puzzles("inkala")[0], max_calls=calls) == sol
    with pytest.raises(CallLimitExceeded):
        solve_naive(read_puzzles("inkala")[0], max_calls=calls - 1)


@pytest.mark.parametrize("solver", [solve_classic, solve_naive, solve_rowmajor_propagating])
def test_no_solution(solver) -> None:
    duplicate = "11" + "." * 79
    assert solver(duplicate) is None
    # r1c9 has no candidate: row 1 holds 1-8, column 9 holds 9.
    dead_cell = "12345678." + "........9" + "." * 63
    assert solver(dead_cell) is None
