"""The givens check of the variant rules (grid.check_givens, variants.broken_rule) and the independent
check of a variant solution (solver.verify), word for word; the solver's answers on broken givens."""

from __future__ import annotations

import pytest

from sudoku_server.errors import InvalidPuzzleError, UnsolvableError
from sudoku_server.sudoku import solver
from sudoku_server.sudoku.grid import Grid, check_givens
from sudoku_server.sudoku.solver import _python
from sudoku_server.sudoku.variants import Cage, Variant, variant_geometry

EMPTY = "." * 81


def _grid(givens: dict[str, int]) -> Grid:
    cells = [0] * 81
    for name, d in givens.items():
        r, c = int(name[1]) - 1, int(name[3]) - 1
        cells[r * 9 + c] = d
    return Grid.trusted(tuple(cells), 3, 3)


def _invalid(grid: Grid, variant: Variant) -> str:
    geometry = variant_geometry(variant)
    with pytest.raises(InvalidPuzzleError) as caught:
        check_givens(grid, geometry)
    return str(caught.value)


KILLER = Variant(rules=("killer",), cages=(Cage((0, 1), 15, "a"), Cage((2, 11), 4, "b")))


@pytest.mark.parametrize(
    ("rules", "givens", "variant", "words"),
    [
        ("x", {"r1c1": 3, "r5c5": 3}, Variant(rules=("x",)), "duplicate 3 in diagonal 1 at r1c1 and r5c5"),
        ("x", {"r1c9": 4, "r9c1": 4}, Variant(rules=("x",)), "duplicate 4 in diagonal 2 at r1c9 and r9c1"),
        ("windoku", {"r2c2": 7, "r4c4": 7}, Variant(rules=("windoku",)), "duplicate 7 in window 1 at r2c2 and r4c4"),
        (
            "antiknight",
            {"r1c1": 3, "r2c3": 3},
            Variant(rules=("antiknight",)),
            "3 at r1c1 and r2c3 are a knight's move apart",
        ),
        (
            "antiking",
            {"r1c1": 3, "r2c2": 3},
            Variant(rules=("antiking",)),
            "3 at r1c1 and r2c2 touch diagonally",
        ),
        (
            "nonconsecutive",
            {"r1c1": 3, "r1c2": 4},
            Variant(rules=("nonconsecutive",)),
            "3 at r1c1 and 4 at r1c2 are consecutive neighbours",
        ),
        (
            "nonconsecutive",
            {"r1c1": 5, "r2c1": 4},
            Variant(rules=("nonconsecutive",)),
            "5 at r1c1 and 4 at r2c1 are consecutive neighbours",
        ),
        ("killer", {"r1c3": 2, "r2c3": 2}, KILLER, "duplicate 2 in cage b at r1c3 and r2c3"),
        ("killer", {"r1c3": 5}, KILLER, "cage b: its givens sum to 5, more than its sum 4"),
        ("killer", {"r1c1": 9, "r1c2": 5}, KILLER, "cage a: its givens sum to 14, not its sum 15"),
        (
            "pencilmark",
            {"r1c2": 3},
            Variant(candidates=(0x1FF, 0b1011) + (0x1FF,) * 79),
            "3 at r1c2 is not among its candidates 124",
        ),
        (
            "x+antiknight",
            {"r1c1": 3, "r2c3": 3, "r5c5": 3},
            Variant(rules=("x", "antiknight")),
            "3 at r1c1 and r2c3 are a knight's move apart",
        ),
        (
            "x+antiknight",
            {"r1c1": 3, "r5c5": 3},
            Variant(rules=("x", "antiknight")),
            "duplicate 3 in diagonal 1 at r1c1 and r5c5",
        ),
    ],
)
def test_broken_givens_are_named(rules: str, givens: dict[str, int], variant: Variant, words: str) -> None:
    # the detail after "ERROR invalid " (w-vwire: the wire line is the issue's
    # "ERROR invalid 3 at r1c1 and r2c3 are a knight's move apart", no second "invalid")
    grid = _grid(givens)
    assert _invalid(grid, variant) == words
    # the Python core answers the same words, and counts no solution
    geometry = variant_geometry(variant)
    for function in (_python.solve, _python.solve_any, solver.solve, solver.solve_any):
        with pytest.raises(InvalidPuzzleError) as caught:
            function(grid, geometry=geometry)
        assert str(caught.value) == words
    assert _python.count_solutions(grid, geometry=geometry) == 0


def test_sound_givens_pass() -> None:
    grid = _grid({"r1c1": 3, "r1c5": 5, "r2c2": 8})
    for variant in (Variant(rules=("x", "antiknight", "antiking", "nonconsecutive")), KILLER):
        check_givens(grid, variant_geometry(variant))  # no error
    check_givens(grid)  # classic: the units only, as before


def test_a_cage_sum_no_digits_make_is_unsolvable_not_invalid() -> None:
    # 9 given in a 2-cell cage of 11 leaves 2 for the other cell, which row 1 already holds
    variant = Variant(rules=("killer",), cages=(Cage((0, 1), 11, "a"),))
    grid = _grid({"r1c1": 9, "r1c5": 2})
    check_givens(grid, variant_geometry(variant))
    with pytest.raises(UnsolvableError):
        _python.solve(grid, geometry=variant_geometry(variant))


SOLUTION_X = "123456789456789123789123456214365897368972514597814632941638275832547961675291348"


def _sol(text: str) -> Grid:
    return Grid.trusted(tuple(int(ch) for ch in text), 3, 3)


def test_verify_names_the_rule_a_solution_breaks() -> None:
    empty = Grid.trusted((0,) * 81, 3, 3)
    # the row-major-first solutions of the empty grid: classic, anti-knight (both checked by hand below)
    classic = _sol("123456789456789123789123456214365897365897214897214365531642978642978531978531642")
    knight = _sol("123456789456789123789123456231564897564897231897231564312645978645978312978312645")

    def verify(grid: Grid, variant: Variant) -> str | None:
        return solver.verify(empty, grid, variant_geometry(variant))

    assert verify(_sol(SOLUTION_X), Variant(rules=("x",))) is None
    assert verify(classic, Variant(rules=("x",))) == "diagonal 1 lacks 6"
    assert verify(knight, Variant(rules=("antiknight",))) is None
    # r3c4 = 1 (row 3 is 789123456) and r4c2 = 1 (row 4 is 214365897): a knight's move
    assert verify(classic, Variant(rules=("antiknight",))) == "r3c4 and r4c2 are a knight's move apart and both hold 1"
    assert verify(classic, Variant(rules=("antiking",))) == "r6c6 and r7c5 touch diagonally and both hold 4"
    assert verify(knight, Variant(rules=("antiking",))) == "r3c4 and r4c3 touch diagonally and both hold 1"
    assert (
        verify(knight, Variant(rules=("nonconsecutive",)))
        == "r1c1 and r1c2 are consecutive neighbours and hold 1 and 2"
    )
    cages = (Cage((0, 1), 3, "a"), Cage((2, 3), 8, "b"))
    assert verify(knight, Variant(rules=("killer",), cages=cages)) == "cage b sums to 7, not 8"
    assert verify(knight, Variant(rules=("killer",), cages=(Cage((0, 29), 3, "c"),))) == "cage c holds 1 twice"
    assert verify(knight, Variant(rules=("killer",), cages=(Cage((0, 1), 3, "a"), Cage((2, 3), 7, "b")))) is None
    pencil = Variant(candidates=(0b110,) + (0x1FF,) * 80)
    assert verify(knight, pencil) == "r1c1 holds 1, not among its candidates 23"
    # a wrong unit is still named first, then givens changed, as for classic grids
    given = Grid.trusted((2,) + (0,) * 80, 3, 3)
    assert (
        solver.verify(given, knight, variant_geometry(Variant(rules=("antiknight",)))) == "given 2 at r1c1 changed to 1"
    )


def test_jigsaw_regions_name_the_symbol_count_and_a_one_cell_region():
    """Too many region symbols say how many; a region of one cell says 'cell', not 'cells'."""
    from sudoku_server.errors import PuzzleFormatError
    from sudoku_server.sudoku.variants import Variant, variant_geometry

    rows = [k // 9 for k in range(81)]
    symbols = tuple("abcdefghij")
    with pytest.raises(PuzzleFormatError) as ten:
        variant_geometry(Variant(("jigsaw",), regions=(*rows[:80], 9), region_symbols=symbols))
    assert ten.value.detail == "jigsaw regions: 10 region symbols, not 9"
    one = [0] * 9 + [1] + [2 + min((k - 10) // 9, 6) for k in range(10, 81)]  # region b is r2c1 alone
    with pytest.raises(PuzzleFormatError) as small:
        variant_geometry(Variant(("jigsaw",), regions=tuple(one), region_symbols=symbols))
    assert small.value.detail == "region b has 1 cell, not 9"


@pytest.mark.parametrize("transpose", [False, True])
def test_a_region_that_leaves_two_cells_of_one_column_over_is_refused_by_name(transpose):
    """Break-session finding: region a = r1c1-r1c8 and r2c9, region b = r1c9 and r2c1-r2c8. Row 1 misses, of
    region a's digits, r2c9's: so r1c9 holds it too, in r2c9's column. The search took seconds to find no grid
    (and ran to the timeout with givens); the regions are refused at once, naming the cells."""
    rows = "aaaaaaaab" + "bbbbbbbba" + "".join(ch * 9 for ch in "cdefghi")
    text = "".join(rows[c * 9 + r] for r in range(9) for c in range(9)) if transpose else rows
    symbols = tuple(dict.fromkeys(text))
    regions = tuple(symbols.index(ch) for ch in text)
    with pytest.raises(InvalidPuzzleError) as refused:
        variant_geometry(Variant(("jigsaw",), regions=regions, region_symbols=symbols))
    if transpose:
        assert refused.value.detail == (
            "region a and column 1 share 8 cells, so r9c2 and r9c1 must hold the same digit, but they share row 9"
        )
    else:
        assert refused.value.detail == (
            "region a and row 1 share 8 cells, so r2c9 and r1c9 must hold the same digit, but they share column 9"
        )


def test_a_one_cell_cage_with_an_impossible_sum_is_worded_for_one_cell():
    from sudoku_server.errors import InvalidPuzzleError
    from sudoku_server.sudoku.variants import Cage, Variant, variant_geometry

    with pytest.raises(InvalidPuzzleError) as one:
        variant_geometry(Variant(("killer",), cages=(Cage((0,), 18, "a"),)))
    assert one.value.detail == "cage a has 1 cell and sum 18: it is not a digit of 1-9"
