"""RATE, HINT and STEPS under variant rules (issue 19): the steps named, exact lines, the families left out.

Over the wire (the sans-I/O session answered by the service, as the server
does) on the example puzzles of tests/support/variant_examples.py and on a pure
killer made by ``GENERATE rules=killer seed=29``; then each variant finder
on a board built for it.
"""

from __future__ import annotations

import pytest

from sudoku_server.sudoku.check import no_check
from sudoku_server.sudoku.geometry import classic
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.techniques import Board, Context, find_step, solve_steps
from sudoku_server.sudoku.techniques.board import tables_of
from sudoku_server.sudoku.techniques.variant_rules import (
    applies,
    find_cage_combinations,
    find_relation,
    find_rule_of_45,
    rule_notes,
)
from sudoku_server.sudoku.variants import Cage, Variant, variant_geometry
from tests.support.sessions import replies
from tests.support.variant_examples import ANTIKING, JIGSAW_GIVENS, JIGSAW_REGIONS, NONCONSECUTIVE, X

#: GENERATE rules=killer seed=29: a pure killer (no givens), its cage block.
KILLER = (
    "abcbdeefg\nabbddhefg\naiiidjklg\nammidjkln\noppiqrrnn\noopsqqttt\nuuusvvvwx\nyzABvwwwx\nyCABDDEEE\n"
    "a=30 b=22 c=1 d=17 e=11 f=17 g=16 h=7 i=21 j=7 k=7 l=11 m=15 n=9 o=7 p=14 q=14 r=17 s=11 t=19 u=11 v=25"
    " w=12 x=17 y=8 z=7 A=17 B=9 C=2 D=14 E=10\n"
)

NOTE_BUG = "note: BUG: off (argued for rows, columns and boxes only)"

CAGE_A = (
    "cage combinations: cage a (r1c1, r2c1, r3c1, r4c1) sums to 30: {6,7,8,9}: remove 1 from r1c1, r2c1, r3c1,"
    " r4c1; 2 from r1c1, r2c1, r3c1, r4c1; 3 from r1c1, r2c1, r3c1, r4c1; 4 from r1c1, r2c1, r3c1, r4c1;"
    " 5 from r1c1, r2c1, r3c1, r4c1"
)


def note_ur(rules: str) -> str:
    return f"note: unique rectangle: off ({rules}: swapping two digits may break the rule)"


def note_blind(rules: str) -> str:
    return (
        f"note: dynamic forcing chains plus and nested forcing chains: off ({rules}: they do not read its constraints)"
    )


def steps_of(rules: str, puzzle: str) -> list[str]:
    return replies(f"STEPS rules={rules}\n{puzzle}".encode()).decode().splitlines()


def test_killer_steps_name_cage_combinations_and_the_rule_of_45():
    lines = steps_of("killer", KILLER)
    assert lines[:6] == [
        "STEPS 118 steps, medium se=2.3 qqwing=none hardest=cage-combinations method=techniques rules=killer",
        note_ur("killer"),
        NOTE_BUG,
        note_blind("killer"),
        "1. " + CAGE_A,
        "2. cage combinations: cage c (r1c3) sums to 1: {1} (r1c3=1)",
    ]
    assert lines[43] == "40. rule of 45: the innies of rows 7-9 (r7c4) sum to 3 (r7c4=3)"
    assert lines[-1] == "END"
    assert not any("unique rectangle" in line or "BUG" in line for line in lines[4:])


def test_killer_rate_and_hint():
    rate = b"RATE medium se=2.3 qqwing=none hardest=cage-combinations method=techniques rules=killer\n"
    assert replies(f"RATE rules=killer\n{KILLER}".encode()) == rate
    assert replies(f"HINT rules=killer\n{KILLER}".encode()) == f"HINT {CAGE_A}\n".encode()
    assert replies(f"HINT nudge rules=killer\n{KILLER}".encode()) == b"HINT cage combinations: look at cage a\n"


EXAMPLES = [
    (
        "x",
        X,
        [
            "STEPS 124 steps, extreme se=9.0 qqwing=none hardest=dynamic-forcing-chains method=techniques rules=x",
            NOTE_BUG,
            "1. hidden single: r8c3 is the only place for 2 in box 7 (r8c3=2)",
            "2. hidden single: r2c8 is the only place for 2 in diagonal 2 (r2c8=2)",
        ],
        b"RATE extreme se=9.0 qqwing=none hardest=dynamic-forcing-chains method=techniques rules=x\n",
    ),
    (
        "antiking",
        ANTIKING,
        [
            "STEPS 103 steps, expert se=7.2 qqwing=none hardest=AIC method=techniques rules=antiking",
            note_ur("antiking"),
            NOTE_BUG,
            "1. hidden single: r3c4 is the only place for 1 in box 2 (r3c4=1)",
        ],
        b"RATE expert se=7.2 qqwing=none hardest=AIC method=techniques rules=antiking\n",
    ),
    (
        "nonconsecutive",
        NONCONSECUTIVE,
        [
            "STEPS 74 steps, easy se=2.3 qqwing=none hardest=nonconsecutive method=techniques rules=nonconsecutive",
            note_ur("nonconsecutive"),
            NOTE_BUG,
            note_blind("nonconsecutive"),
            "1. hidden single: r9c9 is the only place for 6 in box 9 (r9c9=6)",
            "2. nonconsecutive: r1c2 holds 3, so its neighbours cannot hold {2,4}: remove 2 from r1c1, r1c3, r2c2;"
            " 4 from r1c1, r2c2",
        ],
        b"RATE easy se=2.3 qqwing=none hardest=nonconsecutive method=techniques rules=nonconsecutive\n",
    ),
    (
        "jigsaw",
        JIGSAW_GIVENS + JIGSAW_REGIONS,
        [
            "STEPS 107 steps, extreme se=8.8 qqwing=none hardest=dynamic-forcing-chains method=techniques rules=jigsaw",
            NOTE_BUG,
            "1. hidden single: r1c6 is the only place for 6 in region b (r1c6=6)",
            "2. hidden single: r4c8 is the only place for 9 in region f (r4c8=9)",
        ],
        b"RATE extreme se=8.8 qqwing=none hardest=dynamic-forcing-chains method=techniques rules=jigsaw\n",
    ),
]


@pytest.mark.parametrize("rules,puzzle,head,rate", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_steps_and_rate_lines(rules, puzzle, head, rate):
    lines = steps_of(rules, puzzle + "\n")
    assert lines[: len(head)] == head
    assert lines[-1] == "END"
    if rules != "x":  # unique rectangles apply to unit rules only
        assert not any("unique rectangle" in line for line in lines[len(head) :])
    assert replies(f"RATE rules={rules}\n{puzzle}\n".encode()) == rate


def test_classic_rate_has_no_rules_and_no_notes():
    puzzle = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    assert replies(f"RATE\n{puzzle}\n".encode()) == replies(f"RATE rules=classic\n{puzzle}\n".encode())
    assert b"rules=" not in replies(f"RATE\n{puzzle}\n".encode())
    assert not any(line.startswith("note:") for line in steps_of("classic", puzzle + "\n"))


def test_families_that_apply():
    x = variant_geometry(Variant(("x",)))
    jigsaw = variant_geometry(Variant(("jigsaw",), regions=tuple(range(9)) * 9))
    antiknight = variant_geometry(Variant(("antiknight",)))
    assert applies("unique rectangle", x) and applies("unique rectangle", classic())
    assert not applies("unique rectangle", antiknight)
    assert not applies("BUG", x) and not applies("BUG", jigsaw) and applies("BUG", classic())
    assert applies("pointing", jigsaw) and applies("X-Wing", antiknight)
    assert rule_notes(classic()) == ()
    assert rule_notes(antiknight) == (note_ur("antiknight")[6:], NOTE_BUG[6:])


def test_jigsaw_regions_play_the_boxes():
    regions = tuple(((c // 9) // 3) * 3 + (c % 9) // 3 for c in range(81))  # the boxes, as jigsaw regions
    geo = variant_geometry(Variant(("jigsaw",), regions=regions))
    t = tables_of(geo)
    assert [t.unit_names[u] for u in t.boxes] == [f"region {k}" for k in range(1, 10)]
    assert t.box_unit[80] == t.boxes[8]


def _board(rules: Variant, cells: dict[int, int]) -> Board:
    values = [0] * 81
    for c, d in cells.items():
        values[c] = d
    return Board.from_cells(variant_geometry(rules), values)


def test_nonconsecutive_finder():
    board = _board(Variant(("nonconsecutive",)), {40: 5})  # r5c5 = 5
    step = find_relation(Context(board, no_check), "nonconsecutive")
    assert step is not None
    assert step.describe() == (
        "nonconsecutive: r5c5 holds 5, so its neighbours cannot hold {4,6}: remove 4 from r4c5, r5c4, r5c6, r6c5;"
        " 6 from r4c5, r5c4, r5c6, r6c5"
    )
    assert find_step(_board(Variant(), {40: 5}), "nonconsecutive") is None


def test_antiknight_candidates_see_knight_peers():
    board = _board(Variant(("antiknight",)), {0: 7})  # r1c1 = 7
    assert not board.cand[11] >> 6 & 1 and not board.cand[19] >> 6 & 1  # r2c3, r3c2
    assert board.cand[12] >> 6 & 1  # r2c4 is no knight's move away


def test_cage_combinations_and_rule_of_45_finders():
    cages = (Cage((0, 1), 3, "a"), Cage((2, 3, 4, 5, 6, 7, 8), 42, "b"))
    board = _board(Variant(("killer",), cages=cages), {})
    step = find_cage_combinations(Context(board, no_check))
    assert step is not None and step.describe().startswith(
        "cage combinations: cage a (r1c1, r1c2) sums to 3: {1,2}: remove 3 from r1c1, r1c2;"
    )
    # row 1 sums to 45: a cage of its other eight cells summing to 40 leaves r1c1, an innie, 5
    cages = (Cage(tuple(range(1, 9)), 40, "b"),)
    board = _board(Variant(("killer",), cages=cages), {})
    step = find_rule_of_45(Context(board, no_check))
    assert step is not None
    assert step.describe() == "rule of 45: the innies of row 1 (r1c1) sum to 5 (r1c1=5)"


def test_steps_are_checked_against_the_solution():
    # every step of a variant path passed the soundness check (solve_steps raises TechniqueError otherwise)
    geo = variant_geometry(Variant(("nonconsecutive",)))
    steps = solve_steps(Grid.from_string(NONCONSECUTIVE), geometry=geo)
    assert {s.technique for s in steps} >= {"nonconsecutive", "hidden single"}
