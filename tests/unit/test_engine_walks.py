"""The native walks (``techniques/_engine_walks.h``) equal their Python oracles step for step (issue 30).

- Unique loops: ``_engine.loop_walks`` gives the starts and closed walks of
  :func:`unique_loops._walks`'s Python code, in the same order, and
  :func:`find_unique_loop` the same step, at every state of two diabolical
  paths that take a unique loop (types 4 and 1).
- Strong links: ``_engine.strong_links`` gives each digit's best chain of
  :func:`links._strong_links_of_digit`, so the two, three and four strong
  links finders give the same step at every state of a top1465 path and of
  jigsaw and X-Sudoku paths (irregular boxes, extra units); with the engine
  on, the Python search does not run.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.techniques import Board, find_step, links, native, steps_on, unique_solution
from sudoku_server.sudoku.techniques.board import Context
from sudoku_server.sudoku.techniques.unique_loops import _walks, find_unique_loop
from sudoku_server.sudoku.variant_generator import generate_variant
from sudoku_server.sudoku.variants import Variant, variant_geometry

DATASETS = Path(__file__).resolve().parents[2] / "puzzles" / "datasets"

pytestmark = pytest.mark.skipif(
    native.engine(81, 9) is None, reason="the native technique engine (_engine) is not built"
)

LINKS = ("two strong links", "three strong links", "four strong links")


def puzzle(name: str, index: int) -> str:
    with gzip.open(DATASETS / name, "rt") as f:
        rows = [line.split()[0] for line in f if line.strip() and not line.startswith("#")]
    return rows[index]


def states(grid: Grid, geometry=None):
    """Every unsolved board state along the puzzle's path, with the step taken there."""
    board = Board.from_grid(grid, geometry)
    for step in steps_on(Board.from_grid(grid, geometry), unique_solution(grid, geometry=geometry)):
        yield board, step
        board.apply(step)


def shown(step):
    if step is None:
        return None
    return (
        step.technique,
        step.describe(),
        step.se,
        step.cells,
        step.units,
        step.digits,
        step.eliminations,
        step.focus,
    )


def both(fn):
    """fn() with the native engine on, then off."""
    out = []
    for on in (True, False):
        native.ENABLED = on
        try:
            out.append(fn())
        finally:
            native.ENABLED = True
    return out


@pytest.mark.parametrize("index,kind", [(58, "unique loop type 4"), (177, "unique loop type 1")])
def test_unique_loop_walks_and_steps_equal_python(index, kind):
    grid = Grid.from_string(puzzle("sudokuexchange_diabolical_se.txt.gz", index))
    walked = taken = 0
    for board, step in states(grid):
        walks_native, walks_python = both(lambda: list(_walks(Context(board.copy(), lambda: None))))
        assert walks_native == walks_python
        found_native, found_python = both(lambda: shown(find_unique_loop(Context(board.copy(), lambda: None))))
        assert found_native == found_python
        walked += len(walks_native)
        if step.technique == kind:
            assert found_native is not None and found_native[1] == step.describe()
            taken += 1
    assert taken == 1 and walked > 0


def _links_steps(board: Board) -> list:
    return [shown(find_step(board.copy(), name)) for name in LINKS]


def test_strong_links_native_equals_python_on_a_hard_path(monkeypatch):
    grid = Grid.from_string(puzzle("magictour_top1465.txt.gz", 124))
    compared = found = 0
    first = None
    for board, _ in states(grid):
        native_steps, python_steps = both(lambda: _links_steps(board))
        assert native_steps == python_steps
        first = first or native_steps
        found += sum(s is not None for s in native_steps)
        compared += 1
    assert compared > 40 and found > 20

    def python_search(*args, **kwargs):  # the engine on: the Python search must not run
        raise AssertionError("the Python strong-links search ran")

    monkeypatch.setattr(links, "_strong_links_of_digit", python_search)
    assert _links_steps(Board.from_grid(grid)) == first


@pytest.mark.parametrize("rules,seed", [(("jigsaw",), 1), (("x",), 2)])
def test_strong_links_native_equals_python_on_variants(rules, seed):
    made = generate_variant(Variant(rules), 9, seed=seed)
    geometry = variant_geometry(made.variant)
    compared = found = 0
    for board, _ in states(made.puzzle, geometry):
        native_steps, python_steps = both(lambda: _links_steps(board))
        assert native_steps == python_steps
        found += sum(s is not None for s in native_steps)
        compared += 1
    assert compared > 20 and found > 0
