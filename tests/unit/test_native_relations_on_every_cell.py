"""The general engine's relation propagation holds when every cell of a 25x25 grid is in a relation.

Break-session finding: ``SOLVE rules=nonconsecutive`` of an empty 25x25 grid
never answered. The relation pairs' queue of cells (``ev_relations`` in
``_native_kinds.h``) was a ring of as many slots as a grid can have cells;
with all 625 cells in it the ring was full, its end index was never wrapped,
and the loop ran forever (writing past the ring) without looking at the
deadline: the solver thread, and the server's stop, hung. The ring now has
one slot more, and each propagation round looks at the deadline.
"""

from __future__ import annotations

import os

import pytest

from sudoku_server.sudoku import solver
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.variants import Variant, variant_geometry

if solver.NATIVE is None:
    if os.environ.get("SUDOKU_SERVER_REQUIRE_NATIVE", "") not in ("", "0"):
        pytest.fail(f"the native core is required: {solver.NATIVE_MISSING}", pytrace=False)
    pytest.skip(f"no native core: {solver.NATIVE_MISSING}", allow_module_level=True)

SYMBOLS = "0123456789ABCDEFGHIJKLMNOP"
EMPTY = Grid(tuple([0] * 625), 5, 5)
#: The row-major-first solution of the empty 25x25 nonconsecutive grid (digits 1..25 as 1-9 then A-P).
FIRST = (
    "1352468A79BDFCEGIKHJLNPMO68A7913524GIKHJLNPMOBDFCEBDFCEGIKHJLNPMO1352468A79GIKHJLNPMO68A79BDFCE13524"
    "LNPMOBDFCE1352468A79GIKHJ241357968ACEBDFHJGIKNPMOL7968A24135HJGIKMOLNPCEBDFCEBDFHJGIKMOLNP241357968A"
    "HJGIKMOLNP7968ACEBDF24135MOLNPCEBDF241357968AHJGIK31462579B8ACEGDFHJLIPMOKN579B831462FHJLIOKMPNACEGD"
    "ACEGDFHJLIOKMPN31462579B8FHJLIOKMPN579B8ACEGD31462OKMPNACEGD31462579B8FHJLI4271385C96DAHEBIFNJGKOLPM"
    "85C9642713IFNJMKPDOLEBHAGDAHEBIFNKGPL2O14M357968JCJFNKGPLDOM85796EBHAC42I13PLIOMEAHJB4G3KC92816D5NF"
    "796241JG357EB8AHDLIFMOKCNPEB8A796IFCNPD1LJ5OK3MG24HIP3FCNB241KMO5G8A7EHJLD96NGDJHKMOEL92IF3P6C418A75B"
    "KMO5LDP8AHJ6C47NG29BIF3E1"
)


def test_an_empty_25x25_nonconsecutive_grid_is_solved():
    geometry = variant_geometry(Variant(("nonconsecutive",)), 5, 5)
    solution = solver.solve(EMPTY, geometry=geometry)
    assert "".join(SYMBOLS[v] for v in solution.cells) == FIRST
    assert solver.verify(EMPTY, solution, geometry) is None
    assert solver.count_solutions(EMPTY, 2, geometry=geometry) == 2


class Stop(Exception):
    pass


def stop() -> None:
    raise Stop


@pytest.mark.parametrize("verb", ["solve", "count", "candidates"])
def test_a_long_25x25_search_with_relations_on_every_cell_stops_at_its_check(verb):
    """x + antiknight + nonconsecutive on an empty 25x25 grid takes minutes: each search looks at its check (the
    server's solve timeout) and stops there; it hung in the propagation before."""
    geometry = variant_geometry(Variant(("x", "antiknight", "nonconsecutive")), 5, 5)
    run = {
        "solve": lambda: solver.solve(EMPTY, geometry=geometry, check=stop),
        "count": lambda: solver.count_solutions(EMPTY, 2, geometry=geometry, check=stop),
        "candidates": lambda: solver.native_candidates(EMPTY, geometry, check=stop),
    }[verb]
    with pytest.raises(Stop):
        run()
