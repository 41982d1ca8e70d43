"""The static forcing searches of nested forcing chains in C (techniques/_nested.c) against the Python oracle.

``nested_rules.nested_multiple`` and ``nested_chains`` (the rules of levels
3 and 2 inside a chain) run in C when the extension is built;
``nested_multiple_python`` and ``nested_chains_python`` are the oracles. The
candidate states are the working grids of real chains (forum 11+ row 2, a
janko.at 16x16), so the hits compared are the ones a search meets; then the
whole level-3 search and its step are compared with the C on and off.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from sudoku_server.sudoku.check import no_check
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.techniques import Board, nested, unique_solution
from sudoku_server.sudoku.techniques import nested_rules as nr
from sudoku_server.sudoku.techniques.board import Context
from sudoku_server.sudoku.techniques.nested import _closure, find_nested_forcing_chains

native_rules1 = nr._native.rules1 if nr.NATIVE else None
pytestmark = pytest.mark.skipif(not nr.NATIVE, reason="techniques._nested is not built")

DATASETS = Path(__file__).resolve().parents[2] / "puzzles" / "datasets"
#: forum 11+ row 2 (tdoku_forum_hardest_1905_11plus.txt.gz): a level-3 step, r4c3 is not 1 (SE 11.0).
ROW4876 = "98.7..6..5..6.......6.8..4.3...7......85..9.......8.3..2...1.7...54..8......2...1"  # forum 11+ row 4876: chains where each of the four level-1 rules acts
ROW2 = "98.7..6..7.5....9..43.....78..2....6..7.1..2......48..3..9...6.....5.3.......1..9"


def _states(x: Context, level: int, count: int, step: int) -> list[tuple[list[int], list[int]]]:
    """The working grids (cell masks, per-digit bitboards) where the chains of ``level`` stop, over some assumptions."""
    states: list[tuple[list[int], list[int]]] = []
    ids = [d * x.t.N + c for c in range(x.t.N) for d in range(x.t.n) if x.cand[c] >> d & 1][::step][:count]
    for k in ids:
        for on in (True, False):
            r = _closure(x, k, on, level)
            if r.absurd is None:
                states.append((r.cand, r.pos))
    return states


def _python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nr, "_native", None)


def test_nested_multiple_equals_the_python_on_working_grids() -> None:
    x = Context(Board.from_grid(Grid.from_string(ROW2)), no_check)
    states = _states(x, 1, 40, 4)
    assert len(states) >= 40
    hits = 0
    for cand, pos in states:
        native = nr.nested_multiple(x, cand, pos, x.cand, x.pos)
        oracle = nr.nested_multiple_python(x, cand, pos, x.cand, x.pos)
        assert native == oracle
        hits += len(oracle)
    assert hits > 100  # the states do have static cell and unit forcing chains


def test_nested_chains_equals_the_python_on_working_grids() -> None:
    x = Context(Board.from_grid(Grid.from_string(ROW2)), no_check)
    states = _states(x, 1, 40, 4)
    hits = 0
    for cand, pos in states:
        oracle = nr.nested_chains_python(x, 2, cand, pos, x.cand, x.pos)
        assert nr.nested_chains(x, 2, cand, pos, x.cand, x.pos) == oracle
        hits += len(oracle)
    assert hits >= 40


def _level1_python(x: Context, cand: list[int], pos: list[int]) -> list[nr.Hit]:
    for rule in nr._RULES:
        hits = rule(x, cand, pos, x.cand, x.pos)
        if hits:
            return hits
    return []


def test_level_1_rules_equal_the_python_where_chains_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    # the grids where level-1 chains (Python rules) ask for a rule: every one of the four rules gets its turn
    x = Context(Board.from_grid(Grid.from_string(ROW4876)), no_check)
    geo = nr._native_geometry(x.t)
    assert geo is not None
    asked: list[tuple[list[int], list[int]]] = []

    def spy(
        x_: Context, level: int, cand: list[int], pos: list[int], sc: list[int], sp: list[int]
    ) -> list[list[nr.Hit]]:
        asked.append((list(cand), list(pos)))
        return real(x_, level, cand, pos, sc, sp)

    real = nr.rules
    monkeypatch.setattr(nested, "rules", spy)
    monkeypatch.setattr(nr, "_native", None)
    _states(x, 1, 1000, 1)
    kinds = set()
    for cand, pos in asked:
        oracle = _level1_python(x, cand, pos)
        assert native_rules1(geo, cand, x.cand) == oracle
        if oracle:
            kinds.add(next(r.__name__ for r in nr._RULES if r(x, cand, pos, x.cand, x.pos)))
    assert kinds == {"_locking", "_hidden_pair", "_naked_pair", "_x_wing"}


def test_nested_multiple_equals_the_python_on_a_16x16() -> None:
    with gzip.open(DATASETS / "gecode_16x16_janko55.txt.gz", "rt") as f:
        puzzle = f.read().split()[28]
    x = Context(Board.from_grid(Grid.from_string(puzzle)), no_check)
    states = _states(x, 0, 6, 37)
    assert states
    hits = 0
    for cand, pos in states:
        oracle = nr.nested_multiple_python(x, cand, pos, x.cand, x.pos)
        assert nr.nested_multiple(x, cand, pos, x.cand, x.pos) == oracle
        chains = nr.nested_chains_python(x, 2, cand, pos, x.cand, x.pos)
        assert nr.nested_chains(x, 2, cand, pos, x.cand, x.pos) == chains
        level1 = _level1_python(x, cand, pos)
        geo = nr._native_geometry(x.t)
        assert geo is not None
        assert nr._native.rules1(geo, cand, x.cand) == level1
        hits += len(oracle) + len(chains) + len(level1)
    assert hits


def test_a_level_3_chain_is_the_same_with_the_c_on_and_off(monkeypatch: pytest.MonkeyPatch) -> None:
    x = Context(Board.from_grid(Grid.from_string(ROW2)), no_check)
    k = 0 * 81 + 3 * 9 + 2  # digit 1 in r4c3: a contradiction with level 3 inside (test_nested_chains)
    native = _closure(x, k, True, 3)
    _python(monkeypatch)
    oracle = _closure(x, k, True, 3)
    assert native.absurd is not None and native.nests
    assert (native.on, native.off, native.parents, native.nests, native.absurd) == (
        oracle.on,
        oracle.off,
        oracle.parents,
        oracle.nests,
        oracle.absurd,
    )


@pytest.mark.slow  # the level-3 step in pure Python: 11 s (one level-3 chain and level 1 stay in the default run)
def test_the_level_3_step_is_the_same_with_the_c_on_and_off(monkeypatch: pytest.MonkeyPatch) -> None:
    grid = Grid.from_string(ROW2)
    native = find_nested_forcing_chains(Context(Board.from_grid(grid), no_check), levels=(3,))
    _python(monkeypatch)
    oracle = find_nested_forcing_chains(Context(Board.from_grid(grid), no_check), levels=(3,))
    assert native is not None and oracle is not None
    assert (native.technique, native.eliminations, native.placements, native.se, native.nodes) == (
        oracle.technique,
        oracle.eliminations,
        oracle.placements,
        oracle.se,
        oracle.nodes,
    )
    assert native.describe() == oracle.describe()
    assert native.se >= 11.0
    solution = unique_solution(grid)
    for c, d in native.eliminations:
        assert solution[c] != d


def test_bad_arguments_raise_value_error() -> None:
    from sudoku_server.sudoku.techniques import _nested

    with pytest.raises(ValueError):
        _nested.multiple(b"\0" * 12, [0] * 81, [0] * 81)
    x = Context(Board.from_grid(Grid.from_string(ROW2)), no_check)
    geo = nr._native_geometry(x.t)
    assert geo is not None
    with pytest.raises(ValueError):
        _nested.multiple(geo, [0] * 80, [0] * 81)
    with pytest.raises(ValueError):
        _nested.multiple(geo, [1 << 9] * 81, [0] * 81)
    with pytest.raises(ValueError):
        _nested.geometry(9, 81, [[0] * 9], [[0]] * 81, [[]] * 81, [5], [], [0] * 9, [0] * 9)
