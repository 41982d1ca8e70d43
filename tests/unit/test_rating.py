"""Ratings: SE numbers from the path, QQWing's levels, the five named levels.

Pure tests (no trio). Puzzles: the Sudoku Exchange bank sample (public
domain, with its published Sukaku Explainer rating), the QQWing levels set
(generated with QQWing 1.3.4, its level in the file) and the Gecode copy of
a janko.at 16x16 puzzle, all in puzzles/datasets/.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from sudoku_server.errors import MultipleSolutionsError, UnsolvableError
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rating import LEVEL_OF, LEVELS, QQWING_LEVELS, qqwing_level, rate
from sudoku_server.sudoku.techniques import TECHNIQUES, solve_steps

DATASETS = Path(__file__).resolve().parents[2] / "puzzles" / "datasets"

# puzzle, level, se, qqwing, hardest step line
RATED = [
    # QQWing "simple" (qqwing_levels.tsv line 1)
    (
        "....6.......4..31..8931.2.7.......3...78..9........7..8..6....94......7.216..9..8",
        "easy",
        1.5,
        "simple",
        "hidden single: r3c8 is the only place for 4 in row 3 (r3c8=4)",
    ),
    # QQWing "intermediate" (line 801)
    (
        "4....35...58...29...9.....6....3.9.82......7...3...4....564.78..6........7..9...5",
        "medium",
        2.6,
        "intermediate",
        "pointing: the 8s of box 7 are all in column 1: remove 8 from r6c1",
    ),
    # QQWing "expert" (line 1201)
    (
        ".........32..8.....794....3..6..742......4.....59...7...763.9..6.........38275.6.",
        "hard",
        4.5,
        "expert",
        "unique rectangle type 1 on 8 and 9 in r4c2, r4c9, r5c2, r5c9: remove 8 from r5c9; 9 from r5c9",
    ),
    # Sudoku Exchange, published 7.2 (line 1)
    (
        ".83.2..9....8..1...293....8....987...7.....6...674....3....698...2..5....1..3.54.",
        "expert",
        7.2,
        "expert",
        "AIC: (6)r2c2=(6)r8c2-(9)r8c2=(9)r6c2-(9)r6c9=(5)r6c9-(5)r6c1=(5)r2c1, so r2c1 is not 6: remove 6 from r2c1",
    ),
    # Sudoku Exchange, published 5.5 (line 7)
    (
        "52..1...7.8..4..32..75..1........7..41..6..59..2........9..62..36..7..8.2...5..43",
        "expert",
        5.5,
        "expert",
        "X-chain on 4 (3 strong links): r7c4=r7c2-r8c3=r1c3-r1c7=r6c7: remove 4 from r6c4",
    ),
    # Sudoku Exchange, published 8.9 (line 10)
    (
        "7...4...6...759...9..8.1..3...524....3.....2.4.......75.1...2.8.8.....1.2.9...3.4",
        "extreme",
        8.9,
        "expert",
        "dynamic forcing chains: r4c7=9 leads to a contradiction, so r4c7 is not 9: remove 9 from r4c7",
    ),
]


@pytest.mark.parametrize("puzzle,level,se,qq,hardest", RATED, ids=[f"se{r[2]}" for r in RATED])
def test_rating(puzzle, level, se, qq, hardest):
    r = rate(Grid.from_string(puzzle))
    assert (r.level, r.se, r.er, r.qqwing, r.method) == (level, se, se, qq, "techniques")
    assert r.hardest.describe() == hardest
    assert r.hardest.se == r.se
    steps = solve_steps(Grid.from_string(puzzle))
    assert r.steps == len(steps)
    assert max(s.se for s in steps) == r.se
    # ED is the first step's rating, EP the hardest up to the first placement
    assert r.ed == steps[0].se
    assert r.ep <= r.er


def test_search_estimate_is_labelled():
    # janko.at 16x16 #29 (Gecode's copy, line 29): past the techniques that work on 16x16
    with gzip.open(DATASETS / "gecode_16x16_janko55.txt.gz", "rt") as f:
        puzzle = f.read().split()[28]
    r = rate(Grid.from_string(puzzle))
    assert r.method == "search estimate"
    assert (r.se, r.level) == (9.6, "extreme")
    assert r.hardest.describe() == (
        "search: no technique applies; a search of 9 nodes gives r1c14=G (rating estimated from the search) (r1c14=G)"
    )


def test_qqwing_levels_agree_with_qqwing():
    with gzip.open(DATASETS / "qqwing_levels.tsv.gz", "rt") as f:
        rows = [line.split() for line in f if line.strip()]
    sample = rows[::40]  # 40 puzzles, 10 per level
    assert {level for _, level in sample} == set(QQWING_LEVELS)
    for puzzle, level in sample:
        assert qqwing_level(Grid.from_string(puzzle)) == level, puzzle


def test_every_technique_has_a_level():
    names = set()
    for technique in TECHNIQUES:
        names.add(technique.name)
    precise = {
        "full house",
        "hidden single",
        "naked single",
        "pointing",
        "claiming",
        "naked pair",
        "hidden pair",
        "naked triple",
        "hidden triple",
        "naked quadruple",
        "hidden quadruple",
        "X-Wing",
        "Swordfish",
        "Jellyfish",
        "skyscraper",
        "two-string kite",
        "turbot fish",
        "empty rectangle",
        "XY-Wing",
        "XYZ-Wing",
        "WXYZ-Wing",
        "VWXYZ-Wing",
        "UVWXYZ-Wing",
        "W-Wing",
        "simple colouring",
        "X-chain",
        "XY-chain",
        "AIC",
        "nice loop",
        "Nishio forcing chains",
        "dynamic forcing chains",
    }
    assert precise <= names
    for name in precise | {
        "X-cycle",
        "XY-cycle",
        "BUG+1",
        "BUG type 2",
        "cell forcing chains",
        "unit forcing chains",
        "search",
        "grouped turbot fish",
    }:
        assert LEVEL_OF.get(name, "?") in LEVELS, name


def test_rate_needs_one_solution():
    with pytest.raises(MultipleSolutionsError) as info:
        rate(Grid.from_string("8.........95.......67..........2.485...4.3192......736...651947...732518...894263"))
    assert info.value.detail == "the puzzle has more than one solution (r2c5 can be 6 or 7)"
    with pytest.raises(UnsolvableError) as info:
        rate(Grid.from_string("12345678." + "........9" + "." * 63))
    assert info.value.detail == "no digit fits r1c9"


def test_rate_check_may_stop_it():
    class Stop(Exception):
        pass

    calls = []

    def check():
        calls.append(None)
        if len(calls) == 200:
            raise Stop

    with pytest.raises(Stop):
        rate(Grid.from_string(RATED[-1][0]), check=check)
