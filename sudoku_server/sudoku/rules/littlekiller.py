"""``littlekiller``: the digits along a little killer diagonal sum to its clue; digits may repeat.

Marks: the diagonal's cells, from one step past the clue to the edge, and
``value`` the sum (f-puzzles ``littlekillersum``: ``cell`` outside the grid,
``direction``, ``value``; the f-puzzles reader walks the diagonal). Each
compiles to one :class:`~sudoku_server.sudoku.constraints.Sum`, not distinct
(``little killer r1c2-r8c9 sum 15``).
"""

from __future__ import annotations

from sudoku_server.sudoku.constraints import Broken, Constraint, Sum
from sudoku_server.sudoku.rules._marks import line_name, marks_of
from sudoku_server.sudoku.rules.base import Build, Compiled, Rule, Words


def _compile(build: Build) -> Compiled:
    size = build.size
    out: list[tuple[Constraint, str]] = []
    for k, m in enumerate(marks_of(build, RULE.word)):
        out.append((Sum(m.cells, m.value, False, (), k), f"little killer {line_name(size, m.cells)} sum {m.value}"))
    return out


def _given(broken: Broken, w: Words) -> str:
    return f"{w.name}: its givens sum to {sum(w.cells[c] for c in broken.cells)}"


def _solution(broken: Broken, w: Words) -> str:
    return f"{w.name}: its digits sum to {sum(w.cells[c] for c in broken.cells)}"


RULE = Rule(
    word="littlekiller",
    summary="the digits along a little killer diagonal sum to its clue; digits may repeat",
    data="marks",
    constraints=_compile,
    given_words=_given,
    solution_words=_solution,
    off=("unique rectangle", "BUG"),
    missing="a little killer puzzle needs its diagonals",
    formats={"f-puzzles": ("littlekillersum",)},
    draw={"kind": "diagonal sums"},
)
