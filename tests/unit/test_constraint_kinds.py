"""The constraint vocabulary (sudoku_server/sudoku/constraints.py) on its own: tables, the neutral checks,
and a relation no rule has yet (a thermometer's "less than") solved by the Python core as CP-SAT does.

The last shows that the engines switch on the kinds: a geometry built from units and a Relation alone,
with no rule word, is solved (the native core leaves it to the Python core) and equals CP-SAT's
row-major-first solution, whose model is built from the same kinds.
"""

from __future__ import annotations

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.constraints import (
    AllDifferent,
    Broken,
    Candidates,
    Relation,
    Sum,
    broken_givens,
    broken_solution,
    differ_table,
    relation_table,
)
from sudoku_server.sudoku.geometry import classic, from_units
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.solver import _python
from tests.support.cpsat_oracle import smallest, solutions


def test_tables():
    assert differ_table(4) == (0b1110, 0b1101, 0b1011, 0b0111)
    less = relation_table(4, test=lambda a, b: a < b)
    assert less == (0b1110, 0b1100, 0b1000, 0b0000)
    assert Relation(((0, 1),), less).converse == (0b0000, 0b0001, 0b0011, 0b0111)
    assert relation_table(4, [(1, 2), (2, 1)]) == (0b0010, 0b0001, 0, 0)
    assert Relation(((0, 1),), less).allows(1, 4) and not Relation(((0, 1),), less).allows(4, 1)


def test_the_checks_report_neutral_facts():
    digits = [0] * 16
    digits[0], digits[1], digits[5] = 3, 3, 4
    pair = AllDifferent((0, 1))
    assert broken_givens(pair, digits) == Broken(pair, (0, 1))
    less = Relation(((1, 5), (0, 5)), relation_table(4, test=lambda a, b: a < b), source=(7, 8))
    assert broken_givens(less, digits) is None  # 3 < 4 on both pairs
    digits[5] = 2
    assert broken_givens(less, digits) == Broken(less, (1, 5), 7)
    cage = Sum((0, 5, 6), 6, distinct=True, source=2)
    assert broken_givens(cage, digits) is None  # 3 + 2 with r2c3 empty: not over 6
    digits[6] = 4
    assert broken_givens(cage, digits) == Broken(cage, (0, 5, 6), 2)  # 9, not 6
    assert broken_solution(Sum((0, 1), 9, weights=(2, 1)), digits) is None  # 2 * 3 + 3
    weighted = Sum((0, 1), 10, weights=(2, 1))
    assert broken_solution(weighted, digits) == Broken(weighted, (0, 1))
    marks = Candidates(tuple([0b0011] * 16))
    assert broken_givens(marks, digits) == Broken(marks, (0,))


def test_a_relation_of_no_rule_is_solved_as_cpsat_solves_it():
    base = classic(3, 3)
    less = Relation(((0, 1), (1, 2), (2, 3), (3, 4)), relation_table(9, test=lambda a, b: a < b))
    geo = from_units(
        ("test", "thermometer"), 9, base.units, base.unit_names, box_rows=3, box_cols=3, constraints=(less,)
    )
    grid = Grid.from_string("." * 40 + "5" + "." * 40)
    if solver.NATIVE is not None:
        assert solver._prepare(geo) is not None  # the native core takes any relation table
    first = smallest(grid.cells, geo)
    assert first is not None and first[:5] == tuple(sorted(first[:5]))
    assert _python.solve(grid, geometry=geo).cells == first
    assert solver.solve(grid, geometry=geo).cells == first
    assert len(solutions(grid.cells, geo)) == 2 == _python.count_solutions(grid, geometry=geo)


def test_sums_whose_digits_may_repeat_or_carry_weights_are_solved_as_cpsat_solves_them():
    base = classic(3, 3)
    diagonal = Sum((0, 40, 80), 5)  # r1c1 + r5c5 + r9c9 = 5, digits may repeat (a little killer)
    pill = Sum((4, 5), 37, weights=(10, 1))  # r1c5 r1c6 read as one number: 37 (an arrow's pill)
    geo = from_units(
        ("test", "sums"), 9, base.units, base.unit_names, box_rows=3, box_cols=3, constraints=(diagonal, pill)
    )
    grid = Grid.from_string("." * 81)
    if solver.NATIVE is not None:
        assert solver._prepare(geo) is not None  # and any sum: repeated digits, weights
    first = smallest(grid.cells, geo)
    assert first is not None and first[4:6] == (3, 7) and first[0] + first[40] + first[80] == 5
    assert _python.solve(grid, geometry=geo).cells == first
    assert solver.solve(grid, geometry=geo).cells == first
    broken = list(first)
    broken[80] = 9  # r9c9 = 9: the diagonal cannot sum to 5
    assert (
        _python.count_solutions(
            Grid.from_string("".join(str(d) if i == 80 else "." for i, d in enumerate(broken))), geometry=geo
        )
        == 0
    )
