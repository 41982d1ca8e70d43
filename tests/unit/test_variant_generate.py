"""GENERATE rules=... (issue 19): the reply bytes for a seed per rule, uniqueness by count, reproducibility.

Each reply is the server's own (the sans-I/O session of the wire, answered by
the service). Every puzzle made is read back through the wire (COUNT, then
SOLVE in the same layout) and counted by the solver under its rules: one
solution, the generator's.
"""

from __future__ import annotations

import json

import pytest

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.generator import SplitMix64, generate
from sudoku_server.sudoku.geometry import classic
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rules.jigsaw import random_regions
from sudoku_server.sudoku.rules.killer import random_cages
from sudoku_server.sudoku.variant_generator import generate_variant
from sudoku_server.sudoku.variants import Variant, parse_rules, variant_geometry
from tests.support.sessions import replies

#: (request, reply): one seed per rule, exact bytes.
REPLIES = [
    (
        "GENERATE rules=x seed=1",
        "# generated size=9 givens=18 symmetry=none seed=1 minimal=yes rules=x\n"
        ".7.3....9....2.7........2......5............69......3.8......6...12..3....5..6.2.\n",
    ),
    (
        "GENERATE rules=windoku seed=2",
        "# generated size=9 givens=17 symmetry=none seed=2 minimal=yes rules=windoku\n"
        "75.....3.92..7........1....3..5......16..2.49.9..............6.......8...........\n",
    ),
    (
        "GENERATE rules=antiknight seed=3",
        "# generated size=9 givens=13 symmetry=none seed=3 minimal=no rules=antiknight\n"
        ".73.............5....5..6.......9...4.....7.8.................32........9......4.\n",
    ),
    (
        "GENERATE rules=antiking seed=4",
        "# generated size=9 givens=20 symmetry=none seed=4 minimal=no rules=antiking\n"
        ".......3.2......1.7...............57..5.9....6..73..42....2.....68.57.......4...3\n",
    ),
    (
        "GENERATE rules=nonconsecutive seed=2 givens=30",
        "# generated size=9 givens=30 symmetry=none seed=2 minimal=no rules=nonconsecutive\n"
        "17....62935..27.8.6...91...2..9..37..18536..2.3..............3.8..3..5......8..9.\n",
    ),
    (
        "GENERATE rules=jigsaw seed=6",
        "# generated size=9 givens=17 symmetry=none seed=6 minimal=no rules=jigsaw\n"
        "2....3.....64..8.7.6...7...1.2..5.9...................7....2.........3...5......4"
        "111122333122112333112222343555666443555666644575686449775788949777788949788889999\n",
    ),
    (
        "GENERATE rules=killer seed=29",
        "# generated size=9 givens=0 symmetry=none seed=29 minimal=yes rules=killer\n"
        "abcbdeefg\nabbddhefg\naiiidjklg\nammidjkln\noppiqrrnn\noopsqqttt\nuuusvvvwx\nyzABvwwwx\nyCABDDEEE\n"
        "a=30 b=22 c=1 d=17 e=11 f=17 g=16 h=7 i=21 j=7 k=7 l=11 m=15 n=9 o=7"
        " p=14 q=14 r=17 s=11 t=19 u=11 v=25 w=12 x=17 y=8 z=7 A=17 B=9 C=2 D=14 E=10\n\n",
    ),
    (
        "GENERATE rules=killer seed=7 givens=30",
        "# generated size=9 givens=30 symmetry=none seed=7 minimal=no rules=killer\n"
        ".3.81..5. abbccddef\n25..3...4 abbccdgef\n1.....6.. ahhiiggej\n..1..2.4. hhhikglej\n3...581.9 mmkkkllnj\n"
        "....4.3.6 moopqrrnj\n....2..6. soopqrtnu\n..21.3.95 spppqtttu\n.....92.. vvwwwwxxu\n"
        "a=9 b=23 c=21 d=19 e=13 f=6 g=20 h=28 i=12 j=30 k=24 l=14 m=19 n=16 o=19 p=22 q=12 r=11 s=12 t=24"
        " u=9 v=5 w=28 x=9\n\n",
    ),
    (
        "GENERATE rules=x+antiking seed=8",
        "# generated size=9 givens=13 symmetry=none seed=8 minimal=no rules=x+antiking\n"
        "37................2.....................1...2.......6...43..8.....2.74...9.......\n",
    ),
    ("GENERATE rules=killer full", "ERROR command GENERATE: full makes a solved grid; killer cages need a puzzle\n"),
    (
        "GENERATE rules=killer symmetry=rot180 seed=1",
        "ERROR command GENERATE: symmetry places givens; a pure killer (givens=0) has none\n",
    ),
    (  # break-session finding: "74 cages, more than the 67 cage symbols", after the cages were drawn
        "GENERATE rules=killer size=16 seed=3",
        "ERROR command GENERATE: killer cages are generated up to 9x9, not 16x16 (more cages than symbols)\n",
    ),
    (  # break-session finding: the random full-grid searches ran to the solve timeout
        "GENERATE rules=x+windoku+antiknight seed=4",
        "ERROR command GENERATE: no grid follows the rules x+windoku+antiknight\n",
    ),
]


@pytest.mark.parametrize("request_line,reply", REPLIES, ids=[r[0][9:] for r in REPLIES])
def test_generate_reply_bytes(request_line, reply):
    assert replies(request_line.encode() + b"\n").decode() == reply


def _puzzle_text(reply: str) -> str:
    """The puzzle of a GENERATE reply, without its ``#`` line."""
    return reply.split("\n", 1)[1]


@pytest.mark.parametrize("request_line,reply", [r for r in REPLIES if r[1].startswith("#")], ids=lambda r: r)
def test_generated_puzzle_reads_back_unique(request_line, reply):
    """The reply's puzzle, sent back under its rules: COUNT 1 unique (the wire reads the layout GENERATE wrote)."""
    rules = request_line.split("rules=")[1].split()[0]
    text = _puzzle_text(reply).rstrip("\n") + "\n"
    assert replies(f"COUNT rules={rules}\n{text}".encode()) == b"COUNT 1 unique\n"


@pytest.mark.parametrize(
    "rules,seed",
    [
        ("x", 11),
        ("windoku", 12),
        ("antiknight", 13),
        ("antiking", 14),
        ("jigsaw", 15),
        ("killer", 26),
        ("killer+jigsaw", 3),
    ],
)
def test_generated_puzzles_are_unique_and_reproducible(rules, seed):
    variant = Variant(parse_rules(rules))
    made = generate_variant(variant, seed=seed)
    again = generate_variant(variant, seed=seed)
    assert made == again
    geo = variant_geometry(made.variant, 3, 3)
    assert solver.count_solutions(made.puzzle, 2, geometry=geo) == 1
    assert solver.solve(made.puzzle, geometry=geo) == made.solution
    assert solver.verify(made.puzzle, made.solution, geo) is None
    if "killer" in rules:
        assert made.givens == 0 and not any(made.puzzle.cells)
        assert all(1 <= len(cage.cells) <= 6 for cage in made.variant.cages)
        assert sorted(c for cage in made.variant.cages for c in cage.cells) == list(range(81))
    else:
        # removal tests are budgeted (variant_generator.REMOVAL_BUDGET): minimal=yes must be true, and a
        # refused removal says minimal=no
        assert made.givens == sum(1 for d in made.puzzle.cells if d)
        if made.minimal:
            for c, d in enumerate(made.puzzle.cells):
                if d:
                    fewer = made.puzzle.cells[:c] + (0,) + made.puzzle.cells[c + 1 :]
                    assert solver.count_solutions(Grid(fewer, 3, 3), 2, geometry=geo) == 2


def test_a_killer_jigsaw_is_one_fpuzzles_line_with_its_regions_and_cages():
    """Break-session finding: ``GENERATE rules=killer+jigsaw`` answered ``ERROR format a jigsaw puzzle needs its
    regions`` (the cages were drawn over a variant without the drawn regions); regions and cages together have no
    line layout, so the f-puzzles JSON line holds both, and reads back unique."""
    reply = replies(b"GENERATE rules=killer+jigsaw seed=3\n").decode()
    header, line, end = reply.split("\n")
    assert header == "# generated size=9 givens=0 symmetry=none seed=3 minimal=yes rules=jigsaw+killer" and end == ""
    data = json.loads(line)
    made = generate_variant(Variant(("jigsaw", "killer")), seed=3)
    assert made.variant.regions is not None
    assert [cell["region"] for row in data["grid"] for cell in row] == list(made.variant.regions)
    assert len(data["killercage"]) == len(made.variant.cages)
    assert (
        replies(f"COUNT {line}\nSOLVE {line}\n".encode()) == f"COUNT 1 unique\n{made.solution.to_string()}\n".encode()
    )


def test_given_regions_in_non_ascii_symbols_come_back_in_utf8():
    """Break-session finding: ``regions=`` of non-ASCII symbols answered ``ERROR internal UnicodeEncodeError``."""
    regions = "ééébbbcccééébbbcccéééjbbcccjbjeeefffjjjeeefffjjjhghfffggeheeiiiggghhhiiiggghhhiii"
    reply = replies(f"GENERATE rules=jigsaw seed=1 regions={regions}\n".encode()).decode("utf-8")
    header, line, end = reply.split("\n")
    assert header == "# generated size=9 givens=20 symmetry=none seed=1 minimal=no rules=jigsaw" and end == ""
    assert line == "...3.8..9....2.7..1.....5.3....5...........953...8..7..5.....3...71..2.........4." + regions
    assert replies(f"COUNT rules=jigsaw {line}\n".encode()) == b"COUNT 1 unique\n"


def test_given_regions_that_hold_no_grid_are_refused_by_name():
    regions = "aaaaaaaabbbbbbbbbacccccccccdddddddddeeeeeeeeefffffffffggggggggghhhhhhhhhiiiiiiiii"
    assert replies(f"GENERATE rules=jigsaw seed=1 regions={regions}\n".encode()) == (
        b"ERROR invalid region a and row 1 share 8 cells, so r2c9 and r1c9 must hold the same digit, but they share"
        b" column 9\n"
    )


def test_given_regions_are_kept():
    regions = tuple(random_regions(9, SplitMix64(99)))
    made = generate_variant(Variant(("jigsaw",), regions=regions), seed=3)
    assert made.variant.regions == regions
    geo = variant_geometry(made.variant, 3, 3)
    assert solver.count_solutions(made.puzzle, 2, geometry=geo) == 1


def test_random_regions_are_connected_and_sized():
    for seed in range(20):
        regions = random_regions(9, SplitMix64(seed))
        assert sorted(regions.count(k) for k in range(9)) == [9] * 9
        for k in range(9):
            cells = {c for c in range(81) if regions[c] == k}
            start = min(cells)
            seen, todo = {start}, [start]
            while todo:
                c = todo.pop()
                r, col = divmod(c, 9)
                for nb in (c - 9 if r else -1, c + 9 if r < 8 else -1, c - 1 if col else -1, c + 1 if col < 8 else -1):
                    if nb in cells and nb not in seen:
                        seen.add(nb)
                        todo.append(nb)
            assert seen == cells


def test_random_cages_hold_distinct_digits():
    solution = generate(seed=5, full=True).solution.cells
    cages = random_cages(solution, 9, SplitMix64(5))
    assert sorted(c for cage in cages for c in cage) == list(range(81))
    for cage in cages:
        assert len({solution[c] for c in cage}) == len(cage) <= 6


def test_classic_generate_unchanged():
    # rules=classic and no rules: today's puzzle and bytes
    assert replies(b"GENERATE seed=1\n") == replies(b"GENERATE rules=classic seed=1\n")
    assert generate_variant(Variant(), seed=1) == generate(seed=1)
    assert generate(seed=1).puzzle.geometry == classic(3, 3)


def test_full_grid_follows_the_rules():
    made = generate_variant(Variant(("antiknight",)), seed=2, full=True)
    assert made.puzzle == made.solution and all(made.solution.cells)
    geo = variant_geometry(Variant(("antiknight",)), 3, 3)
    assert solver.verify(Grid((0,) * 81, 3, 3), made.solution, geo) is None
