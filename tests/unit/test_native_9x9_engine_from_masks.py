"""Rules that only narrow cells' candidates on the classic 9x9 units are solved by the 9x9 engine from masks.

A geometry of the classic rows, columns and boxes whose only constraint is
starting candidates (``Candidates``: odd/even marks, a pencilmark layout) is
searched by the classic 9x9 engine (``_native_9x9.h``, ``run9`` with the
masks), not the general one (``mask9`` in ``_native_geometry.h``); any other
constraint beside them (a diagonal, a pair, a sum) keeps the general engine.
The engine changes, never the answer: every answer here is held to the
Python core (first solution in row-major order, count, true candidates).
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.candidates import true_candidates
from sudoku_server.sudoku.variants import variant_geometry
from sudoku_server.text.fpuzzles import marks_line
from tests.support.native import native_core_for_module

NATIVE = native_core_for_module()

STORED = Path(__file__).resolve().parents[2] / "puzzles" / "variants" / "bench_oddeven.txt"


def read(line: str, *more_rules: str):  # type: ignore[no-untyped-def]
    """The grid and geometry of a ``<givens> <marks>`` line, with ``more_rules`` (rules= words) added."""
    puzzle = marks_line(line, 1, "\n")
    assert puzzle is not None and puzzle.variant is not None
    variant = dataclasses.replace(puzzle.variant, rules=(*more_rules, *puzzle.variant.rules))
    return puzzle.grid, variant_geometry(variant)


def stored(count: int) -> list[tuple[str, str, str]]:
    """The first ``count`` stored odd/even puzzles: (givens, marks field, solution)."""
    out = []
    for line in STORED.read_text().splitlines():
        if line and not line.startswith("#"):
            _rule, givens, solution, marks = line.split()
            out.append((givens.replace("0", "."), marks, solution))
            if len(out) == count:
                break
    return out


def agree(line: str, *more_rules: str) -> int:
    """Assert the native core answers ``line`` as the Python core does; return the count (limit 2)."""
    grid, geo = read(line, *more_rules)
    count = solver.PYTHON.count_solutions(grid, 2, geometry=geo)
    assert NATIVE.count_solutions(grid, 2, geometry=geo) == count, line
    if count:
        assert NATIVE.solve(grid, geometry=geo).cells == solver.PYTHON.solve(grid, geometry=geo).cells, line
        assert solver.native_candidates(grid, geometry=geo) == true_candidates(grid, geometry=geo), line
    return count


def test_odd_even_puzzles_with_givens_taken_away_get_the_python_cores_answers() -> None:
    rng = random.Random(29)
    counts = []
    for givens, marks, _solution in stored(12):
        kept = [i for i, ch in enumerate(givens) if ch != "."]
        drop = set(rng.sample(kept, len(kept) // 3))
        counts.append(agree("".join("." if i in drop else ch for i, ch in enumerate(givens)) + " " + marks))
    assert 2 in counts  # the row-major-first solution of a puzzle with several mattered


def test_the_stored_odd_even_puzzles_keep_their_solutions() -> None:
    for givens, marks, solution in stored(40):
        grid, geo = read(f"{givens} {marks}")
        assert NATIVE.count_solutions(grid, 2, geometry=geo) == 1
        assert NATIVE.solve(grid, geometry=geo).to_string() == solution


def test_a_given_on_a_cell_of_the_other_parity_leaves_no_solution() -> None:
    """r1c1 holds 8 (given) and is marked odd: no grid keeps both, on either core."""
    givens, marks, _solution = stored(1)[0]
    assert givens[0] == "8"
    grid, geo = read(f"{givens} oddeven=r1c1:odd;{marks.split('=', 1)[1]}")
    assert NATIVE.count_solutions(grid, 2, geometry=geo) == 0
    assert solver.PYTHON.count_solutions(grid, 2, geometry=geo) == 0


def test_an_empty_grid_marked_odd_and_even_answers_the_first_grid_that_keeps_the_marks() -> None:
    line = "." * 81 + " oddeven=r1c1-r1c2-r1c3:even;r9c9:odd"
    assert agree(line) == 2
    grid, geo = read(line)
    assert NATIVE.solve(grid, geometry=geo).to_string()[:9] == "246135789"


def test_odd_even_with_a_constraint_beside_it_keeps_the_general_engines_answers() -> None:
    """The diagonals (differ pairs) with the marks: not the 9x9 engine, same answers."""
    givens, marks, _solution = stored(2)[1]
    assert agree("." * 81 + f" {marks}", "x") == 2
    assert agree(f"{givens} {marks}", "x") == 0
