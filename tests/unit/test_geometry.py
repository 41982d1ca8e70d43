"""The geometry is a list of units, and every core works from it.

Variants are built here from plain lists of units (not the classic
constructor): X-Sudoku (two diagonals more), windoku (four windows more,
overlapping the boxes) and the classic units under another key. Both solver
cores must give the same row-major-first answer and the same counts, every
solution must break no unit, and a 4x4 X-Sudoku is counted by brute force
too, independently of both cores.
"""

from __future__ import annotations

import itertools
import random

import pytest

from sudoku_server.errors import InvalidPuzzleError, UnsolvableError
from sudoku_server.sudoku import geometry as geometry_module
from sudoku_server.sudoku import grid as grid_module
from sudoku_server.sudoku import solver
from sudoku_server.sudoku.generator import SIZES
from sudoku_server.sudoku.geometry import BOX_SHAPES, Geometry, classic, from_units, geometry
from sudoku_server.sudoku.grid import Grid, find_duplicate, verify_solution

CORES = [solver.PYTHON] + ([solver.NATIVE] if solver.NATIVE is not None else [])


def x_sudoku(box_rows: int, box_cols: int) -> Geometry:
    """Classic units plus the two diagonals, as a plain list (not classic())."""
    base = classic(box_rows, box_cols)
    n = base.size
    diagonals = [tuple(i * n + i for i in range(n)), tuple(i * n + n - 1 - i for i in range(n))]
    return from_units(
        ("x", box_rows, box_cols),
        n,
        list(base.units) + diagonals,
        list(base.unit_names) + ["diagonal 1", "diagonal 2"],
        box_rows=box_rows,
        box_cols=box_cols,
    )


def windoku() -> Geometry:
    """Classic 9x9 units plus the four windows (rows and columns 2-4 and 6-8), which overlap boxes."""
    base = classic(3, 3)
    windows = [tuple((r0 + r) * 9 + c0 + c for r in range(3) for c in range(3)) for r0 in (1, 5) for c0 in (1, 5)]
    return from_units(
        "windoku",
        9,
        list(base.units) + windows,
        list(base.unit_names) + [f"window {k}" for k in range(1, 5)],
        box_rows=3,
        box_cols=3,
    )


def plain_classic(box_rows: int, box_cols: int) -> Geometry:
    """The classic units under another key: the general engines, not the 9x9 one."""
    base = classic(box_rows, box_cols)
    return from_units(("plain", box_rows, box_cols), base.size, base.units, base.unit_names)


def breaks_no_unit(geo: Geometry, cells: tuple[int, ...]) -> bool:
    full = set(range(1, geo.size + 1))
    return all({cells[c] for c in unit} == full for unit in geo.units)


def puzzles_from(solution: Grid, count: int, seed: int) -> list[Grid]:
    """Puzzles keeping a random 15%..60% of a solution's cells (some with several solutions)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        keep = rng.uniform(0.15, 0.6)
        cells = tuple(d if rng.random() < keep else 0 for d in solution.cells)
        out.append(Grid(cells, solution.box_rows, solution.box_cols))
    return out


def outcome(fn, *args, **kwargs):
    try:
        return "ok", fn(*args, **kwargs)
    except (InvalidPuzzleError, UnsolvableError) as exc:
        return type(exc).__name__, exc.detail


def test_classic_geometry_is_units_and_computed_peers():
    geo = classic(3, 3)
    assert geo.key == ("classic", 3, 3) and geo.classic
    assert geometry is classic and geometry(3, 3) is geo
    assert len(geo.units) == 27 and geo.unit_names[0] == "row 1" and geo.unit_names[26] == "box 9"
    assert geo.units == geo.rows + geo.columns + geo.boxes
    assert all(len(p) == 20 for p in geo.peers) and all(len(us) == 3 for us in geo.cell_units)
    assert geo.cell_units[80] == (8, 17, 26)
    assert len(geo.unit_array) == 27 * 9 * 2 and geo.constraints == ()
    assert geo.box_of[80] == 8 and geo.row_of[80] == 8 and geo.col_of[80] == 8 and geo.all_digits == 0x1FF
    # grid.py re-exports the same objects
    for name in ("Geometry", "geometry", "BOX_SHAPES", "VALID_BOXES", "cell_name"):
        assert getattr(grid_module, name) is getattr(geometry_module, name)
    assert SIZES == tuple(sorted(BOX_SHAPES)) == (4, 6, 9, 16, 25)


def test_peers_follow_the_units():
    geo = x_sudoku(3, 3)
    assert not geo.classic and geo == x_sudoku(3, 3) and geo != classic(3, 3)
    assert len(geo.cell_units[0]) == 4 and len(geo.cell_units[40]) == 5 and len(geo.cell_units[1]) == 3
    assert len(geo.peers[0]) == 26 and len(geo.peers[40]) == 32 and len(geo.peers[1]) == 20
    assert geo.rows == classic(3, 3).rows and geo.boxes == classic(3, 3).boxes


def test_constraints_are_refused_not_ignored():
    base = classic(2, 2)
    caged = from_units("caged", 4, base.units, base.unit_names, constraints=("a cage",))
    assert caged.constraints == ("a cage",)
    for core in CORES:
        with pytest.raises(ValueError):
            core.solve(Grid((0,) * 16, 2, 2), geometry=caged)


def test_from_units_refuses_bad_units():
    with pytest.raises(ValueError):
        from_units("k", 4, [(0, 1, 2, 2)], ["bad"])
    with pytest.raises(ValueError):
        from_units("k", 4, [(0, 1, 2, 16)], ["bad"])
    with pytest.raises(ValueError):
        from_units("k", 4, [(0, 1, 2)], ["short"])
    with pytest.raises(ValueError):
        from_units("k", 4, [(0, 1, 2, 3)], [])
    with pytest.raises(ValueError):
        from_units("k", 26, [], [])
    with pytest.raises(ValueError):
        from_units("k", 4, [(0, 1, 2, 3)], ["row"], box_rows=3, box_cols=2)


@pytest.mark.parametrize("box", [(3, 3), (2, 3), (2, 2), (4, 4)])
def test_hand_built_classic_equals_classic(box):
    # the same units under another key (the general engine even at 9x9): the same answers
    plain, geo = plain_classic(*box), classic(*box)
    n = geo.size
    solution = solver.solve(Grid((0,) * (n * n), *box))
    for puzzle in puzzles_from(solution, 40 if n <= 9 else 6, seed=n):
        for core in CORES:
            expected = outcome(core.solve, puzzle)
            assert outcome(core.solve, puzzle, geometry=plain) == expected
            assert outcome(core.solve, puzzle, geometry=geo) == expected
            assert core.count_solutions(puzzle, 3, geometry=plain) == core.count_solutions(puzzle, 3)


@pytest.mark.parametrize("geo", [x_sudoku(2, 2), x_sudoku(2, 3), x_sudoku(3, 3), windoku()], ids=lambda g: str(g.key))
def test_variants_both_cores_equal(geo):
    n = geo.size
    empty = Grid((0,) * geo.ncells, geo.box_rows, geo.box_cols)
    first = solver.PYTHON.solve(empty, geometry=geo)
    assert breaks_no_unit(geo, first.cells)
    assert verify_solution(empty, first, geo) is None and solver.verify(empty, first, geo) is None
    for core in CORES:
        assert core.solve(empty, geometry=geo) == first
        assert core.count_solutions(empty, 2, geometry=geo) == 2
        assert breaks_no_unit(geo, core.solve_any(empty, geometry=geo).cells)
    # its solutions are classic solutions too: the first of them comes no sooner than the classic first
    assert first.cells >= solver.solve(Grid((0,) * geo.ncells, geo.box_rows, geo.box_cols)).cells
    for puzzle in puzzles_from(first, 60 if n <= 9 else 10, seed=len(geo.units)):
        expected = outcome(solver.PYTHON.solve, puzzle, geometry=geo)
        counts = [solver.PYTHON.count_solutions(puzzle, limit, geometry=geo) for limit in (1, 2, 5)]
        if expected[0] == "ok":
            assert breaks_no_unit(geo, expected[1].cells)
            assert all(a == b or not b for a, b in zip(expected[1].cells, puzzle.cells))
        for core in CORES[1:]:
            assert outcome(core.solve, puzzle, geometry=geo) == expected
            assert [core.count_solutions(puzzle, limit, geometry=geo) for limit in (1, 2, 5)] == counts
            kind, answer = outcome(core.solve_any, puzzle, geometry=geo)
            if expected[0] == "ok":
                assert kind == "ok" and breaks_no_unit(geo, answer.cells)
                if counts[1] == 1:
                    assert answer == expected[1]


def brute_force_count(geo: Geometry) -> int:
    """Solutions of an empty 4x4 grid under ``geo``: every grid of permuted rows, checked unit by unit."""
    n = geo.size
    perms = list(itertools.permutations(range(1, n + 1)))
    total = 0
    for rows in itertools.product(perms, repeat=n):
        cells = tuple(d for row in rows for d in row)
        total += breaks_no_unit(geo, cells)
    return total


def test_4x4_x_sudoku_count_by_brute_force():
    geo = x_sudoku(2, 2)
    expected = brute_force_count(geo)
    assert expected == brute_force_count(x_sudoku(2, 2))
    empty = Grid((0,) * 16, 2, 2)
    assert solver.PYTHON.count_solutions(empty, 10**6) == 288  # the classic 4x4 count
    for core in CORES:
        assert core.count_solutions(empty, 10**6, geometry=geo) == expected
        assert core.count_solutions(empty, 10**6, geometry=plain_classic(2, 2)) == 288


def test_duplicates_and_failures_name_the_variant_unit():
    geo = x_sudoku(3, 3)
    cells = [0] * 81
    cells[0] = 5
    cells[80] = 5  # r1c1 and r9c9: the main diagonal only
    puzzle = Grid(tuple(cells))
    assert find_duplicate(puzzle) is None
    assert find_duplicate(puzzle, geo) == "duplicate 5 in diagonal 1 at r1c1 and r9c9"
    for core in CORES:
        assert outcome(core.solve, puzzle, geometry=geo) == (
            "InvalidPuzzleError",
            "duplicate 5 in diagonal 1 at r1c1 and r9c9",
        )
        assert core.count_solutions(puzzle, 2, geometry=geo) == 0
        assert outcome(core.solve, puzzle)[0] == "ok"
    # a classic solution breaks the diagonals: verify says which
    solution = solver.solve(Grid((0,) * 81))
    message = verify_solution(Grid((0,) * 81), solution, geo)
    assert message is not None and message.startswith("diagonal")
    assert solver.verify(Grid((0,) * 81), solution, geo) == message
    assert solver.verify(Grid((0,) * 81), solution) is None
    # the diagonal's last cell has no digit left: the explainer names it, on both cores
    cells = [0] * 81
    for i in range(8):
        cells[i * 9 + i] = i + 1
    cells[8 * 9 + 0] = 9  # r9c1: 9 is in row 9 already
    puzzle = Grid(tuple(cells))
    for core in CORES:
        assert outcome(core.solve, puzzle, geometry=geo) == ("UnsolvableError", "no digit fits r9c9")
        assert core.count_solutions(puzzle, 2, geometry=geo) == 0
