"""The per-request path of a puzzle with marks (issue 29: a request's cost beside its solve) answers as before.

Each shortcut of that path is held to the reading it skips: the givens read in
one step as the symbol table reads them, the line given to the marks reader
unclassified as the classifier would give it, the marks kept by their text,
a variant hashed once (and pickled without that hash), the givens checked only
when the search fails (their ERROR still first), the answer written as digits.
"""

from __future__ import annotations

import pickle

import pytest

from sudoku_server.errors import InvalidPuzzleError, PuzzleFormatError
from sudoku_server.service.answer import Solvers, answer
from sudoku_server.service.requests import Solve
from sudoku_server.service.results import Failed, Solved
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rules.base import Mark, Variant
from sudoku_server.sudoku.variants import variant_geometry
from sudoku_server.text.fpuzzles import marks_line
from sudoku_server.text.reader import PuzzleReader
from tests.support.marks_examples import EXAMPLES, SOLUTION
from tests.support.sessions import replies

THERMO = f"{EXAMPLES['thermo'][0]} thermo={EXAMPLES['thermo'][1]}"


def test_a_nine_by_nine_line_of_digits_reads_as_the_symbol_table_reads_it() -> None:
    line = "5_0" + "." * 77 + "9"
    grid = Grid.from_string(line)
    assert grid.cells == (5,) + (0,) * 79 + (9,)
    assert (grid.box_rows, grid.box_cols, grid.symbols) == (3, 3, "123456789")
    with pytest.raises(PuzzleFormatError, match=r"^'x' is not a 9x9 symbol at r1c4$"):
        Grid.from_string("123x" + "." * 77)


def test_mixed_case_cell_names_read_as_the_same_cells() -> None:
    lower = marks_line(f"{EXAMPLES['thermo'][0]} thermo=r1c1-r1c2-r2c3", 1, "\n")
    mixed = marks_line(f"{EXAMPLES['thermo'][0]} thermo=R1C1-r1C2-R2c3", 1, "\n")
    assert lower.variant.marks == mixed.variant.marks == (Mark("thermo", (0, 1, 11)),)  # type: ignore[union-attr]


def test_marks_read_again_from_the_same_text_are_equal_and_their_errors_repeat() -> None:
    first = marks_line(THERMO, 1, "\n")
    again = marks_line(THERMO, 7, "\r\n")
    assert first.variant == again.variant  # type: ignore[union-attr]
    assert again.first_line == 7 and again.endings == ["\r\n"]  # type: ignore[union-attr]
    for lineno in (1, 2):
        bad = marks_line(f"{EXAMPLES['thermo'][0]} thermo=r1c1-r1c1", lineno, "\n")
        assert str(bad.error) == f"line {lineno}: thermo= mark 1: r1c1 appears twice"  # type: ignore[union-attr]


def test_a_marks_line_read_in_place_is_the_puzzle_the_marks_reader_makes() -> None:
    reader = PuzzleReader()
    (puzzle,) = reader.feed_line("      " + THERMO, "\n", 3)
    assert puzzle == marks_line(THERMO, 3, "\n")
    assert puzzle.plain and puzzle.lines == [EXAMPLES["thermo"][0]]


def test_comments_and_unknown_fields_after_givens_keep_their_readings() -> None:
    assert replies(f"# {THERMO}\nPING\n".encode()) == b"PONG\n"
    assert replies(f"{EXAMPLES['thermo'][0]} foo=r1c1\n".encode()).startswith(
        b"ERROR format line 1: foo= is no rule's marks (marks are oddeven=, "
    )


def test_a_marks_answer_is_the_digits_and_the_line_ending() -> None:
    assert replies(f"SOLVE {THERMO}\r\n{THERMO}\n".encode()) == f"{SOLUTION}\r\n{SOLUTION}\n".encode()


def test_a_variant_hashes_once_and_pickles_without_its_hash() -> None:
    variant = marks_line(THERMO, 1, "\n").variant  # type: ignore[union-attr]
    same = Variant(variant.rules, marks=tuple(variant.marks))
    assert hash(variant) == hash(same) == hash(same)
    copied = pickle.loads(pickle.dumps(variant))
    assert copied == variant and "_hash" not in copied.__dict__
    key = variant_geometry(variant).key
    assert pickle.loads(pickle.dumps(key)) == key and hash(pickle.loads(pickle.dumps(key))) == hash(key)
    assert key[:4] == ("variant", ("thermo",), 3, 3)


class _Stopped(BaseException):
    """What a check hook raises (the inline path's "searched too long", a timeout): not an answer."""


def _stopping(grid, *, check=None, geometry=None):
    raise _Stopped()


def test_givens_that_break_a_mark_are_refused_whatever_ended_the_search() -> None:
    broken = Solve(Grid.from_string("32" + "." * 79), variant=Variant(("thermo",), marks=(Mark("thermo", (0, 1)),)))
    result = answer(broken, solvers=Solvers(solve=_stopping))
    assert isinstance(result, Failed) and isinstance(result.error, InvalidPuzzleError)
    assert result.error.detail == "thermometer r1c1-r1c2: 3 at r1c1 is not below 2 at r1c2"
    puzzle = marks_line(THERMO, 1, "\n")
    request = Solve(puzzle.grid, variant=puzzle.variant)  # type: ignore[union-attr]
    with pytest.raises(_Stopped):  # givens that keep the rules: what ended the search goes on
        answer(request, solvers=Solvers(solve=_stopping))
    solved = answer(request)
    assert isinstance(solved, Solved) and "".join(map(str, solved.solution.cells)) == SOLUTION


def _prepared_pair(geo):
    from sudoku_server.sudoku.geometry import classic
    from sudoku_server.sudoku.solver import _constraint_arrays, _native, _prepare

    arrays = _constraint_arrays(geo)
    built = _native.prepare(9, geo.unit_array, False, **arrays)
    like = _native.prepare(9, geo.unit_array, False, like=_prepare(classic(3, 3)), **arrays)
    return _native, built, like


@pytest.mark.parametrize("word", sorted(EXAMPLES))
def test_a_geometry_prepared_like_the_classic_one_solves_counts_and_verifies_as_one_built_anew(word) -> None:
    givens, marks = EXAMPLES[word]
    puzzle = marks_line(f"{givens} {word}={marks}", 1, "\n")
    native, built, like = _prepared_pair(variant_geometry(puzzle.variant))  # type: ignore[union-attr]
    cells = puzzle.grid.cells  # type: ignore[union-attr]
    solution = tuple(int(ch) for ch in SOLUTION)
    assert native.solve(cells, like, None) == native.solve(cells, built, None) == solution
    assert native.count_solutions(cells, like, 2, None) == native.count_solutions(cells, built, 2, None) == 1
    assert native.count_solutions((0,) * 81, like, 3, None) == native.count_solutions((0,) * 81, built, 3, None)
    wrong = (solution[1], solution[0]) + solution[2:]
    assert (native.verify(cells, solution, like), native.verify(cells, wrong, like)) == (True, False)


def test_a_geometry_prepared_like_another_keeps_that_one_alive_and_solves_once_it_is_dropped() -> None:
    # prepare(like=) shares the other geometry's unit arrays (Geo.shared): its capsule holds a reference
    # to the other's, so dropping the other frees nothing it reads (the sanitizer script runs this file too)
    import gc
    import sys

    from sudoku_server.sudoku.solver import _constraint_arrays, _native

    givens, marks = EXAMPLES["thermo"]
    puzzle = marks_line(f"{givens} thermo={marks}", 1, "\n")
    geo = variant_geometry(puzzle.variant)  # type: ignore[union-attr]
    arrays = _constraint_arrays(geo)
    base = _native.prepare(9, geo.unit_array, True)
    before = sys.getrefcount(base)
    like = _native.prepare(9, geo.unit_array, False, like=base, **arrays)
    assert sys.getrefcount(base) == before + 1
    again = _native.prepare(9, geo.unit_array, False, like=like, **arrays)  # like a geometry that shares
    del base, like
    gc.collect()
    cells = puzzle.grid.cells  # type: ignore[union-attr]
    assert _native.solve(cells, again, None) == tuple(int(ch) for ch in SOLUTION)
    assert _native.count_solutions((0,) * 81, again, 2, None) == 2


def test_a_geometry_whose_constraints_add_peers_is_built_anew_whatever_it_is_like() -> None:
    from array import array

    from sudoku_server.sudoku.geometry import classic
    from sudoku_server.sudoku.solver import _native, _prepare

    units = classic(3, 3).unit_array
    differ = array("H", [0, 40]).tobytes()  # r1c1 and r5c5 differ: peers the classic units do not make
    like = _native.prepare(9, units, False, differ=differ, like=_prepare(classic(3, 3)))
    both = tuple(1 if c in (0, 40) else 0 for c in range(81))
    assert _native.solve(both, like, None) == _native.INVALID
    assert isinstance(_native.solve(both, _native.prepare(9, units, False), None), tuple)  # classic: no conflict
    with pytest.raises(TypeError):
        _native.prepare(9, units, False, candidates=bytes(4 * 81), like="not a geometry")
