"""``nonconsecutive``: orthogonally adjacent cells never hold consecutive digits.

One :class:`~sudoku_server.sudoku.constraints.Relation` over every pair of
orthogonal neighbours, its table "the digits do not differ by one"; its
technique step is named after the rule (``hardest=nonconsecutive``).
"""

from __future__ import annotations

from sudoku_server.sudoku.constraints import Broken, Relation, relation_table
from sudoku_server.sudoku.rules.base import BLIND, Build, Compiled, Rule, StepWords, Words, pairs_of

_ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))
_WORDS = "are consecutive neighbours"


def table(size: int) -> tuple[int, ...]:
    """The relation table of "not consecutive" on ``size`` digits."""
    return relation_table(size, test=lambda a, b: abs(a - b) != 1)


def _compile(build: Build) -> Compiled:
    return ((Relation(pairs_of(build.size, _ORTHOGONAL), table(build.size)), ""),)


def _given(broken: Broken, w: Words) -> str:
    a, b = broken.cells
    return f"{w.at(a)} and {w.at(b)} {_WORDS}"


def _solution(broken: Broken, w: Words) -> str:
    a, b = broken.cells
    return f"{w.cell(a)} and {w.cell(b)} {_WORDS} and hold {w.symbol(w.cells[a])} and {w.symbol(w.cells[b])}"


RULE = Rule(
    word="nonconsecutive",
    summary="orthogonally adjacent cells never hold consecutive digits",
    constraints=_compile,
    given_words=_given,
    solution_words=_solution,
    off=("unique rectangle", "BUG", *BLIND),
    step=StepWords("nonconsecutive", 2.3, "neighbours"),
    formats={"f-puzzles": ("nonconsecutive",)},
    draw={"kind": "none"},
)
