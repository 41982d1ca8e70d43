"""The technique engine: exact step lines, errors, soundness over samples.

Pure tests (no trio). Puzzles come from the repository's public-domain
Sudoku Exchange puzzle bank sample (puzzles/datasets/
sudokuexchange_diabolical_se.txt.gz, Unlicense) and from the QQWing levels
set (puzzles/datasets/qqwing_levels.tsv.gz, generated with QQWing); each
example was found by running the engine over those files, and the expected
line is the engine's output checked by hand against the candidate grid.
"""

from __future__ import annotations

import functools
import gzip
from pathlib import Path

import pytest

from sudoku_server.errors import InvalidPuzzleError, MultipleSolutionsError, UnsolvableError
from sudoku_server.sudoku.geometry import from_units
from sudoku_server.sudoku.grid import Geometry, Grid, geometry
from sudoku_server.sudoku.techniques import (
    TECHNIQUES,
    Board,
    Step,
    find_step,
    next_step,
    solve_steps,
    tables_of,
    unique_solution,
)
from sudoku_server.sudoku.techniques.board import OTHER

DATASETS = Path(__file__).resolve().parents[2] / "puzzles" / "datasets"


@functools.cache
def path_of(puzzle: str):
    return tuple(solve_steps(Grid.from_string(puzzle)))


def board_after(puzzle: str, k: int) -> Board:
    """The candidate grid of a puzzle after the first k steps of its path."""
    board = Board.from_grid(Grid.from_string(puzzle))
    for step in path_of(puzzle)[:k]:
        board.apply(step)
    return board


# (technique, puzzle, index of the step in the puzzle's path, the step's line)
PATH_EXAMPLES = [
    (
        "AIC",
        "25..1..468....5..2...9......4..3.6..6..5.1..4..8.6..1......2...4..3....732..7..65",
        5,
        "AIC: (6)r7c3=(6)r7c4-(1)r7c4=(1)r9c4-(1)r9c3=(9)r9c3, so r7c3 is not 9: remove 9 from r7c3",
    ),
    (
        "BUG type 2",
        "7....58.1..2.84...6......9.12.3.8....8..5..7....4.1.82.6......8...14.3..2.78....5",
        31,
        "BUG type 2: one of r1c4, r2c8 must be 6: remove 6 from r1c8, r2c4",
    ),
    (
        "BUG+1",
        "5.....6.3.4..3.98.391..85....8354....3.8.6.1....9718....47..362.73.8..5.2.9.....8",
        21,
        "BUG+1: without 7 in r2c3 every cell would hold two candidates (r2c3=7)",
    ),
    (
        "Nishio forcing chains",
        "25..1..468....5..2...9......4..3.6..6..5.1..4..8.6..1......2...4..3....732..7..65",
        7,
        "Nishio forcing chains on 9: r5c3=9 leads to a contradiction, so r5c3 is not 9: remove 9 from r5c3",
    ),
    (
        "Swordfish",
        ".8.7...2.6......4...26.17.9..4..6.383..5.8..282.1..4..9.84.72...1......4.4...2.6.",
        4,
        "Swordfish on 7 in rows 2, 5 and 8, columns 2, 3 and 8: remove 7 from r4c2, r6c3, r6c8, r9c3",
    ),
    (
        "VWXYZ-Wing",
        "8...1...7.2.....4....5.3....3.1.7.8...96.23..6...5...1..5.3.8....14.59...........",
        7,
        "VWXYZ-Wing: r1c7, r2c7, r3c7, r4c7 hold 1, 2, 4, 5 and 6 in column 7, r5c9 {4,5} sees every 4 of them: remove 5 from r2c9",
    ),
    (
        "W-Wing",
        "95.7...3...78.4..2......7..82......6...1.2...6......57..4......7..6.34...3...7.29",
        10,
        "W-Wing: (8)r1c7=(1)r1c7-(1)r4c7=(1)r4c8-(1)r8c8=(8)r8c8, so r3c8 is not 8: remove 8 from r3c8",
    ),
    (
        "WXYZ-Wing",
        ".8.7...2.6......4...26.17.9..4..6.383..5.8..282.1..4..9.84.72...1......4.4...2.6.",
        5,
        "WXYZ-Wing: r7c8, r7c9, r9c9 hold 1, 3, 5 and 7 in box 9, r9c1 {5,7} sees every 7 of them: remove 5 from r9c7",
    ),
    (
        "X-Wing",
        "8...1...7.2.....4....5.3....3.1.7.8...96.23..6...5...1..5.3.8....14.59...........",
        1,
        "X-Wing on 8 in rows 5 and 8, columns 2 and 5: remove 8 from r2c5, r3c5, r6c2, r9c2, r9c5",
    ),
    (
        "X-chain",
        "...7.2.....1.8.9...8..1..5.5..3.7..6....2.....7.6.8.3.8.9...1.334.....65.1.....9.",
        6,
        "X-chain on 4 (3 strong links): r1c13=r1c5-r4c5=r5c46-r5c13=r6c3: remove 4 from r3c3",
    ),
    (
        "XY-Wing",
        "...7.2.....1.8.9...8..1..5.5..3.7..6....2.....7.6.8.3.8.9...1.334.....65.1.....9.",
        5,
        "XY-Wing: pivot r4c2 {2,9} with wings r4c5 {4,9} and r6c3 {2,4}: remove 4 from r4c3, r6c5",
    ),
    (
        "XY-chain",
        "...594...5.......3.6.....5..87...36.4.......2.5.8.6.4...5...2..8...2...4.1.7.5.3.",
        19,
        "XY-chain: (8)r9c5=(4)r9c5-(4)r4c5=(1)r4c5-(1)r5c6=(7)r5c6-(7)r2c6=(8)r2c6, so r3c5 is not 8: remove 8 from r3c5",
    ),
    (
        "XY-cycle",
        "5.....6.3.4..3.98.391..85....8354....3.8.6.1....9718....47..362.73.8..5.2.9.....8",
        15,
        "XY-cycle: (2)r1c3-(2)r1c8=(4)r1c8-(4)r3c9=(7)r3c9-(7)r4c9=(6)r4c9-(6)r4c2=(1)r4c2-(1)r7c2=(5)r7c2-(5)r7c6=(9)r7c6-(9)r1c6=(7)r1c6-(7)r1c3=(2)r1c3: remove 1 from r9c2; 2 from r1c4; 4 from r3c8; 6 from r4c1; 7 from r5c9",
    ),
    (
        "XYZ-Wing",
        "2...6.9.8..74.....8.1.2354...2....8.6.8.5.1.4.7....6...8631.4.9.....98..1.9.4...3",
        5,
        "XYZ-Wing: pivot r5c4 {2,7,9} with wings r3c4 {7,9} and r5c6 {2,7}: remove 7 from r4c4",
    ),
    (
        "cell forcing chains",
        "25..1..468....5..2...9......4..3.6..6..5.1..4..8.6..1......2...4..3....732..7..65",
        10,
        "cell forcing chains: each candidate of r1c3 (r1c3=3, r1c3=7, r1c3=9) leads to r3c2 is not 7: remove 7 from r3c2",
    ),
    (
        "claiming",
        "..1...74.9..5.8...2.6...9.8.9.6.3.7...........1.7.5.6.1.5...4.7...1.7..3.87...2..",
        5,
        "claiming: the 6s of row 7 are all in box 8: remove 6 from r8c5, r9c5, r9c6",
    ),
    (
        "dynamic forcing chains",
        "..64.15..3..5.9..1....3....2.5...7.3.3..4..2.67.....58.6.9.7.8.....5......23.49..",
        8,
        "dynamic forcing chains: r3c8=6 leads to a contradiction, so r3c8 is not 6: remove 6 from r3c8",
    ),
    (
        "empty rectangle",
        "..1...74.9..5.8...2.6...9.8.9.6.3.7...........1.7.5.6.1.5...4.7...1.7..3.87...2..",
        6,
        "empty rectangle on 2: r2c8=r5c8-r5c456=r46c5: remove 2 from r2c5",
    ),
    (
        "full house",
        ".64...3...1...367537......8.4.582......4.1......967.3.4......831378...9...8...75.",
        0,
        "full house: r5c5 is the last empty cell in box 5 (r5c5=3)",
    ),
    (
        "grouped turbot fish",
        "2...6.9.8..74.....8.1.2354...2....8.6.8.5.1.4.7....6...8631.4.9.....98..1.9.4...3",
        4,
        "grouped turbot fish on 2: r5c46=r5c8-r7c8=r7c6: remove 2 from r6c6",
    ),
    (
        "hidden pair",
        "...7.2.....1.8.9...8..1..5.5..3.7..6....2.....7.6.8.3.8.9...1.334.....65.1.....9.",
        3,
        "hidden pair: 3 and 6 go only in r1c7, r3c7 in box 3: remove 2 from r3c7; 4 from r1c7, r3c7; 7 from r3c7; 8 from r1c7",
    ),
    (
        "hidden quadruple",
        ".....6....5.87..9...725.8..5.....18..63...94..21.....7..5.217...1..93.5....5.....",
        19,
        "hidden quadruple: 3, 4, 6 and 9 go only in r4c4, r4c5, r6c4, r6c5 in box 5: remove 8 from r6c5",
    ),
    (
        "hidden single",
        "....6.......4..31..8931.2.7.......3...78..9........7..8..6....94......7.216..9..8",
        0,
        "hidden single: r1c8 is the only place for 9 in box 3 (r1c8=9)",
    ),
    (
        "hidden single",
        "..2.1.8..4.......57..5.9..6.846.517..........2.91.83.4.2.....9.....5......12.76..",
        0,
        "hidden single: r5c1 is the only place for 1 in column 1 (r5c1=1)",
    ),
    (
        "hidden triple",
        "....2....2.1...9.3...571...13.....456.......1..5.3.7....6...2...4.7.9.8.9...6...7",
        8,
        "hidden triple: 1, 5 and 7 go only in r1c7, r1c8, r2c8 in box 3: remove 4 from r1c7; 6 from r1c7, r1c8; 8 from r1c7",
    ),
    (
        "naked pair",
        "..2...1..415...6387.......46...5...9.8..3..7...79.18......2....3.8.7.4.5...4.3...",
        5,
        "naked pair: r1c5, r6c5 hold only 4 and 6 in column 5: remove 6 from r3c5, r9c5",
    ),
    (
        "naked quadruple",
        "3.......4..........67...81...52.39...2..6..7.9.......6...4.2...8..6.9..1..9.8.7..",
        18,
        "naked quadruple: r1c5, r2c5, r3c4, r3c6 hold only 2, 3, 4 and 5 in box 2: remove 3 from r2c4; 4 from r2c6; 5 from r1c4, r1c6, r2c4, r2c6",
    ),
    (
        "naked single",
        "89.....47..6...5...5..2..1....8.7...73..6..89.2..1..7.....5....5..6.4..2...981...",
        1,
        "naked single: 3 is the only candidate left in r1c5 (r1c5=3)",
    ),
    (
        "naked triple",
        "89.....47..6...5...5..2..1....8.7...73..6..89.2..1..7.....5....5..6.4..2...981...",
        7,
        "naked triple: r3c1, r3c3, r3c4 hold only 3, 4 and 7 in row 3: remove 3 from r3c7, r3c9",
    ),
    (
        "nice loop",
        "...7.2.....1.8.9...8..1..5.5..3.7..6....2.....7.6.8.3.8.9...1.334.....65.1.....9.",
        8,
        "nice loop: (4)r4c5=(9)r4c5-(9)r8c5=(7)r8c5-(7)r7c5=(7)r7c8-(7)r5c8=(4)r5c8-(4)r4c7=(4)r4c5, so r4c5 is 4 (r4c5=4)",
    ),
    (
        "pointing",
        "..5.7.8...3.851.4..........2..6.7..33.6...7.2.5.....1.9...8...5..3...1...7.2.3.9.",
        1,
        "pointing: the 5s of box 5 are all in row 5: remove 5 from r5c8",
    ),
    (
        "skyscraper",
        ".....97...67....9.9.127.65.6..4.25....4.5.9....23.7..8.86.341.5.1....34...37.....",
        7,
        "skyscraper on 2: r1c2=r9c2-r9c7=r2c7: remove 2 from r1c8, r1c9, r2c1",
    ),
    (
        "turbot fish",
        "..8..9.1.1..3.5......81...381....29...6...4...74....582...73......2.4..9.6.9..5..",
        9,
        "turbot fish on 6: r3c6=r4c6-r4c9=r6c7: remove 6 from r3c7",
    ),
    (
        "two-string kite",
        "8...1...7.2.....4....5.3....3.1.7.8...96.23..6...5...1..5.3.8....14.59...........",
        3,
        "two-string kite on 9: r6c6=r6c8-r4c9=r2c9: remove 9 from r2c6",
    ),
    (
        "unique rectangle type 1",
        "..6...2..9.......4243...896...591.....2.8.3..4..2.3..13.......7...9.7....1.4.8.2.",
        14,
        "unique rectangle type 1 on 2 and 6 in r2c5, r2c6, r7c5, r7c6: remove 2 from r7c5; 6 from r7c5",
    ),
    (
        "unique rectangle type 2",
        "3....9..2.4..76.8...18..6..69....8...3.....1...8....37..3..54...1.63..5.5..7....8",
        12,
        "unique rectangle type 2 on 2 and 6 in r7c2, r7c8, r9c2, r9c8 (extra 7): remove 7 from r7c1",
    ),
    (
        "unique rectangle type 3",
        ".8.61.....3..5..41..1..28....7.....994.....138.....5....28..1..35..7..6.....45.3.",
        16,
        "unique rectangle type 3 on 3 and 6 in r4c5, r4c6, r7c5, r7c6 (extras 1, 2 and 4 with r6c4, r6c5, r6c6 make a naked set in box 5): remove 1 from r4c4; 4 from r4c4",
    ),
    (
        "unique rectangle type 4",
        "3..1....8.9...831...17...94.....365...........432.....28...41...396...8.1....5..9",
        15,
        "unique rectangle type 4 on 1 and 7 in r5c5, r5c6, r8c5, r8c6 (1 is locked in r5c5, r8c5 in column 5): remove 7 from r5c5, r8c5",
    ),
    (
        "unit forcing chains",
        "8...1...7.2.....4....5.3....3.1.7.8...96.23..6...5...1..5.3.8....14.59...........",
        4,
        "unit forcing chains: each place of 5 in row 2 (r2c1=5, r2c7=5, r2c9=5) leads to r2c7 is not 6: remove 6 from r2c7",
    ),
]

# (finder name, puzzle, steps of the path applied first, the line of the step it finds)
FINDER_EXAMPLES = [
    (  # magictour top1465 #77, after its path's first ten steps, none past dynamic forcing chains (SE 9.0 + length
        # 9.7, 39 nodes; nested.py): the same board whether or not the finder is in the path
        "dynamic forcing chains plus",
        "7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5",
        10,
        "dynamic forcing chains plus: each place of 5 in column 8 leads to r1c3 is not 5 (its singles helped by"
        " pointing, claiming, pairs and X-Wings on the candidates left): remove 5 from r1c3",
    ),
    (  # forum 11+ row 20000 (SE 9.5 + length 10.7; tests/unit/test_nested_chains.py)
        "nested forcing chains",
        "98.7..6..75.4.......3.8..7.5....82...3..9..8......4..13...5..9..7...1..6........2",
        0,
        "nested forcing chains: r5c6=7 leads to a contradiction (its singles helped by forcing chains on the"
        " candidates left), so r5c6 is not 7: remove 7 from r5c6",
    ),
    (
        "AIC",
        "....6.......4..31..8931.2.7.......3...78..9........7..8..6....94......7.216..9..8",
        0,
        "X-chain on 7: r1c1=r2c1, so r1c2 is not 7: remove 7 from r1c2",
    ),
    (
        "UVWXYZ-Wing",
        "....6.......4..31..8931.2.7.......3...78..9........7..8..6....94......7.216..9..8",
        0,
        "UVWXYZ-Wing: r1c2, r2c1, r2c2, r2c3, r3c1 hold 2, 3, 4, 5, 6 and 7 in box 1, r1c9 {4,5} sees every 4 of them: remove 5 from r1c1, r1c3",
    ),
    (
        "W-Wing",
        "14.283.......5.6..9.8.1....68.5..91.3.2.......1........2.3.......39.6..........5.",
        0,
        "W-Wing: r1c7 and r8c2 hold {5,7}, joined by the 5s of box 1 (r1c3, r3c2): remove 7 from r8c7",
    ),
    (
        "X-chain",
        "....6.......4..31..8931.2.7.......3...78..9........7..8..6....94......7.216..9..8",
        0,
        "X-cycle on 8: r1c7-r1c8=r6c8-r4c7=r1c7: remove 8 from r1c6",
    ),
    (
        "XY-chain",
        "....6.......4..31..8931.2.7.......3...78..9........7..8..6....94......7.216..9..8",
        0,
        "XY-chain: (3)r7c3=(5)r7c3-(5)r8c3=(3)r8c3: remove 3 from r1c3, r6c3, r7c2, r8c2",
    ),
    (
        "empty rectangle",
        "....6.......4..31..8931.2.7.......3...78..9........7..8..6....94......7.216..9..8",
        0,
        "empty rectangle on 7: r1c1=r2c1-r2c56=r1c46: remove 7 from r1c2",
    ),
    (
        "nice loop",
        "....6.......4..31..8931.2.7.......3...78..9........7..8..6....94......7.216..9..8",
        0,
        "XY-cycle: (3)r7c3-(3)r8c3=(5)r8c3-(5)r7c3=(3)r7c3: remove 3 from r1c3, r6c3, r7c2, r8c2; 5 from r1c3, r2c3, r4c3, r6c3, r7c2, r8c2",
    ),
    (
        "simple colouring",
        "....6.......4..31..8931.2.7.......3...78..9........7..8..6....94......7.216..9..8",
        0,
        "simple colouring on 8 (colour trap): r1c7, r4c3, r6c8 against r1c8, r4c7, r6c3: remove 8 from r1c6",
    ),
    (
        "skyscraper",
        "....6.......4..31..8931.2.7.......3...78..9........7..8..6....94......7.216..9..8",
        0,
        "skyscraper on 8: r2c6=r2c5-r8c5=r8c6: remove 8 from r1c6",
    ),
    (
        "turbot fish",
        "....6.......4..31..8931.2.7.......3...78..9........7..8..6....94......7.216..9..8",
        0,
        "turbot fish on 8: r2c6=r2c5-r8c5=r8c6: remove 8 from r1c6",
    ),
    (
        "two-string kite",
        ".8..35.....59.....6...2...........522..1.4.....836..9...3.91.264.9.......2...8...",
        0,
        "two-string kite on 4: r7c7=r7c4-r9c5=r2c5: remove 4 from r2c7",
    ),
    (
        "unique rectangle type 1",
        "....7.4...9.5..62.2134..5........17.7.......8.89........2..3945.34..6.1...8.2....",
        0,
        "unique rectangle type 1 on 5 and 6 in r1c2, r1c3, r4c2, r4c3: remove 5 from r4c2; 6 from r4c2",
    ),
    (
        "unique rectangle type 2",
        "....5.89.3...82...1..7.9....81...3..54.....69..9...14....2.7..6...84...5.27.6....",
        0,
        "unique rectangle type 2 on 4 and 9 in r7c1, r7c7, r9c1, r9c7 (extra 8): remove 8 from r7c3",
    ),
    (
        "unique rectangle type 3",
        ".....1.9...2....5...6........74..6.5....1........82.4.1.5.4...97......8.9...5.271",
        0,
        "unique rectangle type 3 on 3 and 9 in r4c5, r4c6, r8c5, r8c6 (extras 2 and 6 with r8c2, r8c3, r8c9 make a naked set in row 8): remove 2 from r8c4; 3 from r8c4, r8c7; 4 from r8c7; 6 from r8c4",
    ),
    (
        "unique rectangle type 4",
        "58..74..6.3.2.....7.48.6...........2.47.68..1...71.5........2........6....834....",
        0,
        "unique rectangle type 4 on 3 and 9 in r1c7, r1c8, r5c7, r5c8 (3 is locked in r1c7, r1c8 in row 1): remove 9 from r1c7, r1c8",
    ),
]


def board_of(restricted: dict) -> Board:
    """An empty 9x9 candidate grid: every digit everywhere, except digit -> the only cells it may take."""
    t = tables_of(geometry(3, 3))
    cand = [t.full] * 81
    for digit, cells in restricted.items():
        for c in range(81):
            if c not in cells:
                cand[c] &= ~(1 << (digit - 1))
    return Board(t, [0] * 81, cand)


def rc(*names: str) -> set:
    return {(int(nm[1]) - 1) * 9 + int(nm[3]) - 1 for nm in names}


def test_jellyfish_on_a_constructed_grid():
    # digit 1 in rows 1, 3, 5, 7 only in columns 2, 4, 6, 8 (no two or three of those
    # rows share fewer columns); everywhere in the other rows
    other_rows = {r * 9 + c for r in (1, 3, 5, 7, 8) for c in range(9)}
    cells = rc("r1c2", "r1c4", "r3c4", "r3c6", "r5c6", "r5c8", "r7c8", "r7c2") | other_rows
    step = find_step(board_of({1: cells}), "Jellyfish")
    assert step.describe() == (
        "Jellyfish on 1 in rows 1, 3, 5 and 7, columns 2, 4, 6 and 8: remove 1 from r2c2, r2c4, r2c6, r2c8, "
        "r4c2, r4c4, r4c6, r4c8, r6c2, r6c4, r6c6, r6c8, r8c2, r8c4, r8c6, r8c8, r9c2, r9c4, r9c6, r9c8"
    )
    assert step.se == 5.2
    assert find_step(board_of({1: cells}), "Swordfish") is None
    assert find_step(board_of({1: cells}), "X-Wing") is None


@pytest.mark.parametrize("technique,puzzle,index,line", PATH_EXAMPLES, ids=[e[0] for e in PATH_EXAMPLES])
def test_path_step_line(technique, puzzle, index, line):
    step = path_of(puzzle)[index]
    assert step.technique == technique
    assert step.describe() == line


@pytest.mark.parametrize("name,puzzle,index,line", FINDER_EXAMPLES, ids=[e[0] for e in FINDER_EXAMPLES])
def test_finder_line(name, puzzle, index, line):
    step = find_step(board_after(puzzle, index), name)
    assert step is not None
    assert step.describe() == line


def test_every_path_technique_has_an_example():
    named = {e[0] for e in PATH_EXAMPLES} | {e[0] for e in FINDER_EXAMPLES} | {"Jellyfish"}  # constructed above
    for tech in TECHNIQUES:
        if tech.name in (
            "chains",
            "two strong links",
            "three strong links",
            "four strong links",
            "unique rectangle",
            "BUG",
            "forcing chains",
        ):
            continue  # found under their precise names
        if tech.name in ("nonconsecutive", "cage combinations", "rule of 45"):
            continue  # variant rules: their examples are in tests/unit/test_variant_techniques.py
        if tech.name in ("unique loop", "aligned pair exclusion", "aligned triple exclusion"):
            continue  # SE's own techniques taken last (issue 30): their examples are in tests/unit/test_se_techniques.py
        if tech.name == "nested forcing chains level 4":
            continue  # its example (a state of the Golden Nugget) is in tests/unit/test_nested_level4.py
        if tech.name == "avoidable rectangle":
            continue  # a solving state's step (placed cells): its examples are in tests/unit/test_solving_states.py
        if tech.name == "sandwich":
            continue  # a between line's step: its example is in tests/unit/test_rule_sandwich.py
        if tech.name in ("thermometer", "kropki", "xv", "whispers", "palindrome", "renban", "arrow", "little killer"):
            continue  # issue 29's rules: their examples are in tests/unit/test_marks_rule_steps.py
        if tech.name in ("thermometer bounds", "renban run", "whispers neighbours"):
            continue  # issue 29's line steps: their examples are in tests/unit/test_line_rule_steps.py
        assert tech.name in named, tech.name


def test_hint_examples_from_the_issue_shape():
    # the hidden single and X-Wing lines have the words the protocol promises
    hidden = next(e for e in PATH_EXAMPLES if e[0] == "hidden single")[3]
    assert " is the only place for " in hidden and hidden.endswith(")")
    xwing = next(e for e in PATH_EXAMPLES if e[0] == "X-Wing")[3]
    assert xwing.startswith("X-Wing on ") and ", columns " in xwing and ": remove " in xwing


def test_nudge_names_only_the_technique_and_a_unit():
    for technique, puzzle, index, line in PATH_EXAMPLES:
        step = path_of(puzzle)[index]
        nudge = step.nudge()
        assert nudge.startswith(step.technique + ": look at ")
        rest = nudge[len(step.technique) + len(": look at ") :]
        assert rest.split()[0] in ("row", "column", "box"), nudge
        # never a cell or the effect
        assert "remove" not in nudge and "=" not in nudge and "r1c" not in rest


def test_next_step_is_the_first_of_the_path():
    puzzle = PATH_EXAMPLES[0][1]
    assert next_step(Grid.from_string(puzzle)) == path_of(puzzle)[0]


def test_full_grid_has_no_next_step():
    puzzle = PATH_EXAMPLES[0][1]
    solution = Grid(unique_solution(Grid.from_string(puzzle)))
    assert next_step(solution) is None
    assert solve_steps(solution) == []


# ---------------------------------------------------------------- errors


def test_multiple_solutions_error_names_a_cell():
    # puzzles/datasets/multiple_solutions.txt line 1 (tdoku's test puzzles, BSD-2-Clause)
    puzzle = "8.........95.......67..........2.485...4.3192......736...651947...732518...894263"
    with pytest.raises(MultipleSolutionsError) as info:
        solve_steps(Grid.from_string(puzzle))
    assert info.value.code == "multiple"
    assert info.value.detail == "the puzzle has more than one solution (r2c5 can be 6 or 7)"


def test_empty_grid_has_several_solutions():
    with pytest.raises(MultipleSolutionsError) as info:
        next_step(Grid.from_string("." * 81))
    assert info.value.detail.startswith("the puzzle has more than one solution (r")


def test_unsolvable_is_the_solver_error():
    # puzzles/datasets/no_solution.txt line 1 (Sudopedia's invalid test cases)
    puzzle = "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4."
    with pytest.raises(UnsolvableError) as info:
        solve_steps(Grid.from_string(puzzle))
    assert info.value.code == "unsolvable"
    assert info.value.detail == "no solution exists"


def test_unsolvable_detail_names_the_place():
    # a person's grid with a wrong entry: the digits 1-8 in row 1 and a 9 below its last cell
    puzzle = "12345678." + "........9" + "." * 63
    with pytest.raises(UnsolvableError) as info:
        next_step(Grid.from_string(puzzle))
    assert info.value.detail == "no digit fits r1c9"


def test_duplicate_givens_are_invalid():
    with pytest.raises(InvalidPuzzleError) as info:
        next_step(Grid.from_string("11" + "." * 79))
    assert info.value.detail == "duplicate 1 in row 1 at r1c1 and r1c2"


# ---------------------------------------------------------------- soundness


def sample(name: str, count: int, every: int = 1) -> list:
    with gzip.open(DATASETS / name, "rt") as f:
        lines = [line.split()[0] for line in f if line.strip()]
    return lines[::every][:count]


def check_path(puzzle: str) -> None:
    grid = Grid.from_string(puzzle)
    solution = unique_solution(grid)
    board = Board.from_grid(grid)
    for step in path_of(puzzle):
        assert isinstance(step, Step)
        for c, d in step.placements:
            assert solution[c] == d, step.describe()
        for c, d in step.eliminations:
            assert solution[c] != d, step.describe()
            assert board.cand[c] >> (d - 1) & 1 or board.values[c], step.describe()
        board.apply(step)
    assert tuple(board.values) == solution


@pytest.mark.parametrize("puzzle", sample("sudokuexchange_diabolical_se.txt.gz", 12, every=80))
def test_diabolical_paths_are_sound(puzzle):
    check_path(puzzle)


@pytest.mark.parametrize("puzzle", sample("qqwing_levels.tsv.gz", 8, every=200))
def test_qqwing_paths_are_sound(puzzle):
    check_path(puzzle)


def test_other_sizes_use_the_general_techniques():
    # 4x4 and 6x6 (2x3 boxes) from puzzles/layouts/size4.txt and size6.txt
    for text in (".1....4.....24..", "3.2.......4.4......1...5.5...4...2.."):
        steps = solve_steps(Grid.from_string(text))
        check_path(text)
        assert {s.technique for s in steps} <= {"full house", "hidden single", "naked single"}
    # janko.at 16x16 #53 (Gecode's copy, gecode_16x16_janko55.txt line 53): subsets work on 16x16
    with gzip.open(DATASETS / "gecode_16x16_janko55.txt.gz", "rt") as f:
        puzzle = f.read().split()[52]
    steps = path_of(puzzle)
    assert steps[101].describe() == (
        "naked triple: r14c10, r14c11, r15c11 hold only B, E and G in box 15: remove B from r15c12; G from r13c10"
    )
    assert steps[79].describe() == (
        "hidden pair: B and E go only in r10c3, r11c1 in box 9: remove 5 from r10c3; A from r11c1; C from r11c1"
    )
    check_path(puzzle)


def test_check_is_called_and_can_stop():
    puzzle = PATH_EXAMPLES[-1][1]
    calls = []

    def check():
        calls.append(1)
        if len(calls) > 50:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve_steps(Grid.from_string(puzzle), check=check)
    assert len(calls) == 51


# ---------------------------------------------------------------- an extra unit


def x_sudoku_geometry() -> Geometry:
    """9x9 with the main diagonal r1c1..r9c9 as a 28th unit ("diagonal"); peers follow from the units."""
    classic = geometry(3, 3)
    diagonal = tuple(i * 9 + i for i in range(9))
    return from_units(
        ("x-sudoku-main-diagonal", 3, 3),
        9,
        (*classic.units, diagonal),
        (*classic.unit_names, "diagonal"),
        box_rows=3,
        box_cols=3,
    )


def test_the_tables_take_their_units_and_peers_from_the_geometry():
    t = tables_of(x_sudoku_geometry())
    assert t.cell_units[0] == (18, 0, 9, 27)  # box 1, row 1, column 1, the diagonal
    assert t.cell_units[1] == (18, 0, 10)
    assert t.kind[27] == OTHER and t.others == [27]
    assert t.peer_mask[0] >> 80 & 1 and not tables_of(geometry(3, 3)).peer_mask[0] >> 80 & 1
    # a unique rectangle needs every unit to hold none or one side of it: r1c1 r1c2 r4c1 r4c2
    # qualifies on the classic grid, not when the diagonal holds r1c1 alone
    assert (0, 1, 27, 28) in tables_of(geometry(3, 3)).rectangles
    assert (0, 1, 27, 28) not in t.rectangles


def test_singles_are_found_in_an_extra_unit():
    # r1c1..r8c8 hold 1..8: r9c9 is the diagonal's last empty cell (a full house only there),
    # and its peers on the diagonal leave it one candidate (a naked single only there)
    cells = [0] * 81
    for i in range(8):
        cells[i * 9 + i] = i + 1
    board = Board.from_cells(x_sudoku_geometry(), cells)
    step = find_step(board, "full house")
    assert step.describe() == "full house: r9c9 is the last empty cell in diagonal (r9c9=9)"
    assert (step.se, step.units, step.nudge()) == (1.0, (27,), "full house: look at diagonal")
    step = find_step(board, "naked single")
    assert step.describe() == "naked single: 9 is the only candidate left in r9c9 (r9c9=9)"
    classic = Board.from_cells(geometry(3, 3), cells)
    assert find_step(classic, "full house") is None
    assert find_step(classic, "naked single") is None


def test_a_hidden_single_is_found_in_an_extra_unit():
    # every digit everywhere, but 5 only at r5c5 on the diagonal: no box, row or column has a
    # hidden single; the diagonal has one
    t = tables_of(x_sudoku_geometry())
    cand = [t.full] * 81
    for i in range(9):
        if i != 4:
            cand[i * 9 + i] &= ~(1 << 4)
    step = find_step(Board(t, [0] * 81, cand), "hidden single")
    assert step.describe() == "hidden single: r5c5 is the only place for 5 in diagonal (r5c5=5)"
    assert (step.se, step.units) == (1.5, (27,))
    assert find_step(Board(tables_of(geometry(3, 3)), [0] * 81, cand), "hidden single") is None
