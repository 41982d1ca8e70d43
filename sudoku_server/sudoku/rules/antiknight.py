"""``antiknight``: two cells a chess knight's move apart hold different digits."""

from __future__ import annotations

from sudoku_server.sudoku.rules import _peers
from sudoku_server.sudoku.rules.base import Rule

_KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
_WORDS = "are a knight's move apart"

RULE = Rule(
    word="antiknight",
    summary="cells a chess knight's move apart hold different digits",
    constraints=_peers.compiler(_KNIGHT),
    given_words=_peers.given_words(_WORDS),
    solution_words=_peers.solution_words(_WORDS),
    off=("unique rectangle", "BUG"),
    formats={"f-puzzles": ("antiknight",)},
    draw={"kind": "none"},
)
