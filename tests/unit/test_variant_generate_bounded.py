"""GENERATE rules=... on a bounded search (issue 19, "GENERATE: 9x9 unit and peer rules median <= 20 ms").

Each removal of a given is proved on at most ``REMOVAL_BUDGET`` search nodes
of the pure-Python engine: the rule sets whose unbounded counts took seconds
(nonconsecutive, antiknight) answer at once, with a seed's exact bytes, a
unique puzzle, and ``minimal=no`` when a removal was refused for the budget.
No timing is asserted (the bound is in nodes); the benchmark measures time.
"""

from __future__ import annotations

import pytest

from sudoku_server.sudoku import solver
from sudoku_server.sudoku import variant_generator as vg
from sudoku_server.sudoku.solver._bitboard import engine
from sudoku_server.sudoku.variants import Variant, variant_geometry
from tests.support.sessions import replies

REPLIES = [
    (
        "GENERATE rules=nonconsecutive seed=0",
        "# generated size=9 givens=9 symmetry=none seed=0 minimal=no rules=nonconsecutive\n"
        "............1.....2.4.......4.6..........2.................4.2.............8.....\n",
    ),
    (
        "GENERATE rules=antiknight seed=5",
        "# generated size=9 givens=14 symmetry=none seed=5 minimal=no rules=antiknight\n"
        "...........6...3..3....5...6................1..1....9....4.2....3.......1.7....6.\n",
    ),
]


@pytest.mark.parametrize("request_line,reply", REPLIES, ids=[r[0][9:] for r in REPLIES])
def test_bounded_generate_bytes_and_unique(request_line, reply):
    assert replies(request_line.encode() + b"\n").decode() == reply
    rules = request_line.split("rules=")[1].split()[0]
    puzzle = reply.split("\n", 1)[1]
    assert replies(f"COUNT rules={rules}\n{puzzle}".encode()) == b"COUNT 1 unique\n"


@pytest.mark.parametrize("rules,seed", [("nonconsecutive", 0), ("antiknight", 5)])
def test_refused_removal_says_not_minimal(rules, seed):
    made = vg.generate_variant(Variant((rules,)), seed=seed)
    assert made == vg.generate_variant(Variant((rules,)), seed=seed)
    assert not made.minimal
    geo = variant_geometry(made.variant, 3, 3)
    assert solver.count_solutions(made.puzzle, 2, geometry=geo) == 1


def test_budget_refuses_what_a_longer_proof_decides():
    # every given of the seed's puzzle, tested for removal on the budget and on no practical bound
    made = vg.generate_variant(Variant(("antiknight",)), seed=5)
    geo = variant_geometry(made.variant, 3, 3)
    eng = engine(geo)
    w, mask = eng.width, eng.digit_mask
    solved = 0
    for c, d in enumerate(made.solution.cells):
        solved |= 1 << (c * w + d - 1)
    kept = 0
    for c, d in enumerate(made.puzzle.cells):
        if d:
            kept |= mask << (c * w)
    refused = 0
    for c, d in enumerate(made.puzzle.cells):
        if not d:
            continue
        rest = kept ^ (mask << (c * w))
        tight = vg._BudgetedProofs(eng, solved, lambda: None)
        loose = vg._BudgetedProofs(eng, solved, lambda: None, budget=10**7)
        fewer = made.puzzle.cells[:c] + (0,) + made.puzzle.cells[c + 1 :]
        unique = solver.count_solutions(type(made.puzzle)(fewer, 3, 3), 2, geometry=geo) == 1
        assert loose.orbit_unique(rest, (c,)) == unique and not loose.refused
        assert not tight.orbit_unique(rest, (c,))  # the generator kept it: unprovable within the budget
        refused += tight.refused
    assert refused >= 1  # so the reply says minimal=no


def test_jigsaw_layouts_are_bounded(monkeypatch):
    monkeypatch.setattr(vg, "_LAYOUTS", 0)
    with pytest.raises(ValueError, match="no grid found on 0 random layouts for the rules jigsaw"):
        vg.generate_variant(Variant(("jigsaw",)), seed=1)
