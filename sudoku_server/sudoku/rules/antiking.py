"""``antiking``: two diagonally adjacent cells hold different digits (orthogonal ones already share a unit)."""

from __future__ import annotations

from sudoku_server.sudoku.rules import _peers
from sudoku_server.sudoku.rules.base import Rule

_KING_DIAGONAL = ((-1, -1), (-1, 1), (1, -1), (1, 1))
_WORDS = "touch diagonally"

RULE = Rule(
    word="antiking",
    summary="diagonally adjacent cells hold different digits",
    constraints=_peers.compiler(_KING_DIAGONAL),
    given_words=_peers.given_words(_WORDS),
    solution_words=_peers.solution_words(_WORDS),
    off=("unique rectangle", "BUG"),
    formats={"f-puzzles": ("antiking",)},
    draw={"kind": "none"},
)
