"""``rules=disjoint`` (disjoint groups), the rule added along CONTRIBUTING.md "How to add a rule".

The cells in the same position of every box hold different digits: nine extra units ``group 1``..
``group 9``. The puzzle below (GENERATE rules=disjoint seed=2) is unique: CP-SAT says so, from the
geometry's units alone. Its answers over the line protocol are exact bytes.
"""

from __future__ import annotations

from sudoku_server.service.answer import answer
from sudoku_server.sudoku import solver
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.solver import _python
from sudoku_server.sudoku.variants import Variant, variant_geometry
from sudoku_server.wire.replies import render
from sudoku_server.wire.session import Reply, RequestReceived, Session
from tests.support.cpsat_oracle import solutions

PUZZLE = "7.....93.92..7..6.....15...6.8....4..12..9..7............8.....................9."
ANSWER = "754286931921473568863915472698527143312649857547138629479862315135794286286351794"


def replies(data: bytes) -> bytes:
    """What the server answers to ``data`` (then end of input): the session's events answered and rendered."""
    session = Session()
    out = []
    for event in session.receive_data(data) + session.receive_eof():
        if isinstance(event, Reply):
            out.append(event.data)
        elif isinstance(event, RequestReceived):
            out.append(render(answer(event.request), event.ending, event.puzzle))
    return b"".join(out)


def test_the_groups_are_units():
    geo = variant_geometry(Variant(("disjoint",)))
    assert geo.unit_names[27:] == tuple(f"group {k}" for k in range(1, 10))
    assert geo.units[27] == (0, 3, 6, 27, 30, 33, 54, 57, 60)
    assert geo.units[35] == (20, 23, 26, 47, 50, 53, 74, 77, 80)
    assert geo.constraints == ()


def test_cpsat_and_both_cores_agree_on_the_one_solution():
    geo = variant_geometry(Variant(("disjoint",)))
    grid = Grid.from_string(PUZZLE)
    assert ["".join(map(str, s)) for s in solutions(grid.cells, geo)] == [ANSWER]
    assert _python.solve(grid, geometry=geo).to_string() == ANSWER
    assert solver.solve(grid, geometry=geo).to_string() == ANSWER
    assert solver.count_solutions(grid, geometry=geo) == 1
    assert solver.count_solutions(grid) == 2  # classic rules alone: not unique


def test_the_answers_are_exact_bytes():
    broken = PUZZLE[:30] + "7" + PUZZLE[31:]  # r4c4 = 7, as r1c1: both in group 1
    request = (
        f"SOLVE rules=disjoint {PUZZLE}\n"
        f"COUNT rules=disjoint {PUZZLE}\n"
        f"COUNT {PUZZLE}\n"
        "GENERATE rules=disjoint seed=2\n"
        f"SOLVE rules=disjoint {broken}\n"
        "RULES x+disjoint\n"
    )
    assert (
        replies(request.encode())
        == (
            f"{ANSWER}\n"
            "COUNT 1 unique\n"
            "COUNT 2+ multiple\n"
            "# generated size=9 givens=18 symmetry=none seed=2 minimal=yes rules=disjoint\n"
            f"{PUZZLE}\n"
            "ERROR invalid duplicate 7 in group 1 at r1c1 and r4c4\n"
            "RULES x+disjoint\n"
        ).encode()
    )
