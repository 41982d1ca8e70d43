"""CANON's minlex form and SAME's equivalence: exact values, invariance, and an independent reference.

The reference minlex (``benchmarks/reference_minlex.py``) shares no code with
``sudoku_server.sudoku.canon``; here it checks 30 puzzles (a few seconds),
``python3 benchmarks/bench_canon.py --check 300`` checks 300, and its
brute force over all 3,359,232 geometric transformations of solved grids
(``--check-grids N``, numpy, about 10 s a grid).
"""

from __future__ import annotations

import gzip
import random
import sys
from pathlib import Path

import pytest

from sudoku_server.service.answer import answer
from sudoku_server.sudoku import canon
from sudoku_server.sudoku.canon import Transformation, canonical, equivalent, minlex9
from sudoku_server.sudoku.grid import Grid
from sudoku_server.wire import replies
from sudoku_server.wire.session import Session

REPO = Path(__file__).resolve().parents[2]
DATASETS = REPO / "puzzles" / "datasets"
sys.path.insert(0, str(REPO / "benchmarks"))

from reference_minlex import reference_minlex  # noqa: E402

#: The smallest solved grid in minlex order (its own form): Enjoy Sudoku's "most canonical" grid.
MINLEX_SMALLEST_GRID = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
NEEDS_NATIVE = pytest.mark.skipif(canon.NATIVE is None, reason="the native _canon extension is not built")


def _lines(name: str, limit: int) -> list[str]:
    out = []
    with gzip.open(DATASETS / name, "rt") as f:
        for line in f:
            field = line.strip().split(",")[0]
            if len(field) == 81:
                out.append(field)
            if len(out) == limit:
                break
    return out


def _cells(text: str) -> tuple[int, ...]:
    return tuple(0 if ch in ".0_" else int(ch) for ch in text)


def _text(cells: tuple[int, ...]) -> str:
    return "".join(str(v) if v else "." for v in cells)


def _random_transformation(rng: random.Random) -> Transformation:
    def order() -> tuple[int, ...]:
        bands = rng.sample(range(3), 3)
        return tuple(b * 3 + i for b in bands for i in rng.sample(range(3), 3))

    return Transformation(rng.random() < 0.5, order(), order(), tuple(rng.sample(range(1, 10), 9)))


# -- tests ----------------------------------------------------------------------------------


def test_published_values():
    grid = _cells(MINLEX_SMALLEST_GRID)
    assert minlex9(grid)[0] == grid
    moved = _random_transformation(random.Random(5)).apply(Grid(grid))
    assert canonical(moved, native=False).text() == MINLEX_SMALLEST_GRID
    # dobrichev's own example puzzle (patminlex.cpp): pattern first, then digits
    assert canonical(
        Grid(_cells("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")), native=False
    ).text() == ("........1.....2....34....5.......56......7.3.2...18......6.......54.....8.......7")


@pytest.mark.slow  # the pure-Python reference minlex: 11 s (native_equals_python stays in the default run)
def test_reference_agrees_on_puzzles():
    puzzles = _lines("sudoku17_royle_49151.txt.gz", 10) + _lines("magictour_top1465.txt.gz", 10)
    puzzles += _lines("multiple_solutions.txt.gz", 5) + _lines("no_solution.txt.gz", 5)
    for text in puzzles:
        assert minlex9(_cells(text))[0] == reference_minlex(_cells(text)), text


def test_pattern_first_not_zeros_first():
    """Where dobrichev's order and the smallest string with empty cells as 0 part (documented in PROTOCOL.md)."""
    text = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    form = canonical(Grid(_cells(text)), native=False).text()
    pattern = "".join("0" if ch == "." else "1" for ch in form)
    assert pattern == "000000001000001000011000010000000110000001010100011000000100000001100000100000001"


@pytest.mark.parametrize("native", [False, pytest.param(True, marks=NEEDS_NATIVE)])
def test_invariant_under_random_transformations(native):
    rng = random.Random(20)
    puzzle = Grid(_cells(_lines("sudoku17_royle_49151.txt.gz", 1)[0]))
    form = canonical(puzzle, native=native)
    assert form.transformation.apply(puzzle) == form.grid
    for _ in range(1000 if native else 100):
        moved = _random_transformation(rng).apply(puzzle)
        again = canonical(moved, native=native)
        assert again.grid == form.grid
        assert again.transformation.apply(moved) == again.grid


@NEEDS_NATIVE
def test_grid_invariant_under_1000_transformations():
    from sudoku_server.sudoku.solver import solve

    rng = random.Random(21)
    grid = solve(Grid(_cells(_lines("magictour_top1465.txt.gz", 1)[0])))
    form = canonical(grid).grid
    for _ in range(1000):
        assert canonical(_random_transformation(rng).apply(grid)).grid == form


@NEEDS_NATIVE
def test_native_equals_python():
    """The same form and the same transformation (the native core walks in the Python core's order)."""
    from sudoku_server.sudoku.solver import solve

    puzzles = _lines("sudoku17_royle_49151.txt.gz", 300) + _lines("magictour_top1465.txt.gz", 300)
    puzzles += _lines("multiple_solutions.txt.gz", 50) + _lines("no_solution.txt.gz", 50)
    puzzles += [".." + MINLEX_SMALLEST_GRID[2:], "1" + "." * 80, "." * 81, "12" + "." * 78 + "1"]
    grids = [solve(Grid(_cells(text))) for text in _lines("magictour_top1465.txt.gz", 60)]
    for grid in [Grid(_cells(text)) for text in puzzles] + grids:
        assert canonical(grid, native=True) == canonical(grid, native=False), _text(grid.cells)


#: Break-session finding: a full grid that is not a solution crashed the native core (SIGSEGV, the whole server).
CRASHED = "594714173138979498491767153415225537531914839174624748275981675134636745279698942"


@NEEDS_NATIVE
def test_full_grids_that_are_not_solutions_are_searched_as_puzzles():
    """81 givens with a digit twice in a unit: the solved-grid search reads rows as permutations, so these take the
    puzzle search. Their forms are minlex forms (their own form again), and the map reaches them."""
    ones = (1,) * 81
    assert canonical(Grid(ones)).grid.cells == ones  # every transformation ties: the most work there is (0.8 s)
    rows = tuple(int(ch) for ch in "123456789" * 9)
    form = canonical(Grid(rows))
    assert form.text() == "111111111222222222333333333444444444555555555666666666777777777888888888999999999"
    assert form.transformation.apply(Grid(rows)) == form.grid
    rng = random.Random(22)
    for text in [CRASHED] + ["".join(rng.choice("123456789") for _ in range(81)) for _ in range(10)]:
        grid = Grid(_cells(text))
        form = canonical(grid)
        assert form.transformation.apply(grid) == form.grid
        assert sorted(form.transformation.digits) == list(range(1, 10))
        assert canonical(form.grid).grid == form.grid


@NEEDS_NATIVE
@pytest.mark.slow  # the Python core on a full grid that is no solution: 10 s
def test_full_grids_that_are_not_solutions_native_equals_python():
    grid = Grid(_cells(CRASHED))
    assert canonical(grid, native=True) == canonical(grid, native=False)


def test_idempotent():
    for text in _lines("magictour_top1465.txt.gz", 50) + [MINLEX_SMALLEST_GRID]:
        form = canonical(Grid(_cells(text))).grid
        assert canonical(form).grid == form


def test_clue_and_solution_counts_never_share_a_form():
    from sudoku_server.sudoku.solver import count_solutions

    puzzles = _lines("multiple_solutions.txt.gz", 60) + _lines("no_solution.txt.gz", 30)
    puzzles += _lines("sudoku17_royle_49151.txt.gz", 60) + _lines("magictour_top1465.txt.gz", 60)
    rng = random.Random(3)
    puzzles += [_text(_random_transformation(rng).apply(Grid(_cells(t))).cells) for t in puzzles[::7]]
    by_form: dict[tuple[int, ...], set[tuple[int, int]]] = {}
    for text in puzzles:
        grid = Grid(_cells(text))
        try:
            solutions = count_solutions(grid, 2)
        except Exception:  # duplicate givens: no solution
            solutions = 0
        form = canonical(grid).grid.cells
        assert sum(1 for v in form if v) == sum(1 for v in grid.cells if v)
        by_form.setdefault(form, set()).add((sum(1 for v in grid.cells if v), solutions))
    assert all(len(signatures) == 1 for signatures in by_form.values())
    assert len({sig for sigs in by_form.values() for sig in sigs}) > 5


def test_small_sizes():
    four = Grid(_cells("1..." + "..2." + "...." + "...."), 2, 2)
    # the two givens in different rows, columns, stacks and boxes: the last band, the pattern 0001 0100
    assert canonical(four).text() == "...........1.2.."
    assert canonical(Transformation(True, (3, 2, 1, 0), (1, 0, 2, 3), (2, 1, 4, 3)).apply(four)).text() == (
        "...........1.2.."
    )
    six = Grid(tuple([1] + [0] * 34 + [2]), 2, 3)
    form = canonical(six)
    # different bands and stacks: r4c6 (the middle band's last cell) and r6c3 (the last row, the first stack)
    assert form.text() == "." * 23 + "1" + "." * 8 + "2" + "." * 3
    assert form.transformation.apply(six) == form.grid


def test_a_6x6_of_3x2_boxes_has_the_form_of_its_quarter_turn_and_is_the_same_as_it():
    """Break-session finding: a 3x2-box grid's form was computed in its own shape and written as 36 cells that read
    as 2x3 boxes, sharing a form with another 2x3 puzzle while SAME said they differ. Its form is now that of the
    grid turned into 2x3 boxes (transposed): forms compare across the two shapes, and agree with SAME."""
    tall = Grid(tuple([1, 2] + [0] * 34), 3, 2)  # 12|..|.. then five rows of ..|..|..
    turned = Grid(tuple(tall.cells[c * 6 + r] for r in range(6) for c in range(6)), 2, 3)  # 1 at r1c1, 2 at r2c1
    form = canonical(tall)
    assert (form.grid.box_rows, form.grid.box_cols) == (2, 3) and form.transformation.transpose
    assert form.text() == canonical(turned).text() == "." * 29 + "1" + "." * 5 + "2"
    assert form.text() != canonical(Grid(tall.cells, 2, 3)).text()  # the same cells in 2x3 boxes: another puzzle
    assert Grid(form.transformation.apply(tall).cells, 2, 3) == form.grid
    found = equivalent(tall, turned)
    assert found is not None and found.transpose and found.apply(tall).cells == turned.cells
    assert equivalent(tall, Grid(tall.cells, 2, 3)) is None


def _wire(text: str) -> bytes:
    session = Session()
    events = session.receive_data(text.encode()) + session.receive_eof()
    out = b""
    for event in events:
        if hasattr(event, "request"):
            out += replies.render(answer(event.request), event.ending, event.puzzle)
        else:
            out += getattr(event, "data", b"")
    return out


P1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
P1_FORM = "........1.....2....34....5.......56......7.3.2...18......6.......54.....8.......7"


def test_canon_replies():
    assert _wire(f"CANON {P1}\n") == f"CANON {P1_FORM}\n".encode()
    assert _wire(f"canon map {P1}\r\n") == (
        f"CANON {P1_FORM} map transpose=no rows=231987654 cols=897564312 digits=671538249\r\n".encode()
    )
    assert _wire("CANON\n" + "\n".join(P1[r * 9 : r * 9 + 9] for r in range(9)) + "\n") == f"CANON {P1_FORM}\n".encode()
    sixteen = "." * 255 + "1"
    assert _wire(f"CANON {sixteen}\n") == (
        b"ERROR command CANON: a 16x16 puzzle has no canonical form here (4x4, 6x6 and 9x9 only)\n"
    )


def test_canon_map_is_the_transformation():
    line = _wire(f"CANON map {P1}\n").decode().split()
    words = dict(word.split("=") for word in line[3:])
    t = Transformation(
        words["transpose"] == "yes",
        tuple(int(ch) - 1 for ch in words["rows"]),
        tuple(int(ch) - 1 for ch in words["cols"]),
        tuple(int(ch) for ch in words["digits"]),
    )
    assert _text(t.apply(Grid(_cells(P1))).cells) == line[1] == P1_FORM


def test_same_replies():
    rng = random.Random(8)
    moved = _random_transformation(rng).apply(Grid(_cells(P1)))
    reply = _wire(f"SAME {P1} {_text(moved.cells)}\n")
    assert reply.startswith(b"SAME yes transpose=")
    words = dict(word.split("=") for word in reply.decode().split()[2:])
    t = Transformation(
        words["transpose"] == "yes",
        tuple(int(ch) - 1 for ch in words["rows"]),
        tuple(int(ch) - 1 for ch in words["cols"]),
        tuple(int(ch) for ch in words["digits"]),
    )
    assert t.apply(Grid(_cells(P1))) == moved
    transposed = "".join(P1[9 * r + c] for c in range(9) for r in range(9))
    assert (
        _wire(f"SAME {P1} {transposed}\n") == b"SAME yes transpose=yes rows=123456789 cols=123456789 digits=123456789\n"
    )
    # across lines: the first puzzle on SAME's line, the second on the next; or both on lines of their own
    assert _wire(f"SAME {P1}\n{transposed}\n") == _wire(f"SAME {P1} {transposed}\n")
    assert _wire(f"SAME\n{P1}\n{transposed}\nPING\n") == (
        b"SAME yes transpose=yes rows=123456789 cols=123456789 digits=123456789\nPONG\n"
    )
    assert _wire(f"SAME {P1} {'1' + '.' * 80}\n") == b"SAME no\n"
    assert _wire(f"SAME {P1} {'.' * 15 + '1'}\n") == b"SAME no\n"


def test_equivalent_is_the_composition():
    rng = random.Random(9)
    first = Grid(_cells(P1))
    for _ in range(20):
        second = _random_transformation(rng).apply(first)
        t = equivalent(first, second)
        assert t is not None and t.apply(first) == second
    assert equivalent(first, Grid(_cells("1" + "." * 80))) is None


@NEEDS_NATIVE
def test_plain_canon_lines_go_the_usual_path_under_the_scheduler():
    """``CANON <81 cells>`` is parsed as a request of its own, never taken by the plain path (issue 32: CANON runs
    under the scheduler and the solve timeout, not on the event loop); its reply bytes are those of issue 20."""
    session = Session()
    assert session.buffer_plain(f"{P1}\nCANON {P1}\n{P1}\n".encode())
    lines, first = session.take_plain(10)
    assert (lines, first) == ([f"{P1}\n".encode()], 1)  # the plain path stops at the verb
    (event,) = [e for e in session.receive_more(None, 10) if type(e.request).__name__ == "Canon"]
    assert event.request.solver_work and event.request.grid == Grid(_cells(P1))
    assert replies.render(answer(event.request), event.ending, event.puzzle) == f"CANON {P1_FORM}\n".encode()


def test_canon_through_the_server(server_address):
    import socket

    lines = f"CANON {P1}\r\n{P1}\ncanon {P1}\nCANON map {P1}\nCANON {P1}\n"
    with socket.create_connection(server_address, timeout=30) as sock:
        sock.sendall(lines.encode())
        sock.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    got = data.decode().splitlines()
    assert got[0] == got[2] == got[4] == f"CANON {P1_FORM}"
    assert data.startswith(f"CANON {P1_FORM}\r\n".encode())
    assert len(got[1]) == 81 and got[1].isdigit()
    assert got[3] == f"CANON {P1_FORM} map transpose=no rows=231987654 cols=897564312 digits=671538249"
