"""``GET /api/v1/rules``: the registry as JSON, so that a page draws what the server knows (docs/HTTP.md).

Pure: :func:`rules_document` reads :data:`~sudoku_server.sudoku.rules.RULES`
and answers one object per rule, in the registry's order::

    {"rules": [{"word": "x", "summary": "...", "data": "none", "sizes": [4, 6, 9, 16, 25],
                "draw": {"kind": "diagonals"}, "formats": {"f-puzzles": ["diagonal+", "diagonal-"]}}, ...]}

- ``word``: the word of ``rules=``;
- ``data``: what the puzzle brings for it: ``none``, ``regions`` (per cell
  its region), ``cages`` (cells and sums);
- ``sizes``: the grid sizes it fits;
- ``draw``: what a page needs to draw it: ``{"kind": ...}`` one of
  ``none`` (nothing on the grid), ``diagonals``, ``windows`` (with
  ``windows``: their cells as ``r2c2``..), ``regions`` (thick borders
  between the puzzle's regions), ``cages`` (with ``sums``: dashed cages,
  each with its sum), ``groups`` (the cells of one position in every box),
  and for the rules that take marks (parse's ``marks``): ``lines`` (with
  ``shape``: ``thermometer``, ``whispers``, ``renban``, ``palindrome``),
  ``arrows``, ``dots``, ``xv``, ``diagonal sums`` (a little killer's clue
  outside the grid), ``outside sums`` (a clue outside the grid one step
  before the mark's first cell: sandwich) and ``marks`` (odd/even cells);
- ``formats``: its keys in other formats (f-puzzles).
"""

from __future__ import annotations

from typing import Any

from sudoku_server.sudoku.geometry import BOX_SHAPES
from sudoku_server.sudoku.rules import RULES, Rule

__all__ = ["RULES_PATH", "rule_object", "rules_document"]

#: The path of the document.
RULES_PATH = "/api/v1/rules"


def rule_object(rule: Rule) -> dict[str, Any]:
    """One rule as JSON (module docstring)."""
    return {
        "word": rule.word,
        "summary": rule.summary,
        "data": rule.data,
        "sizes": sorted(rule.sizes) if rule.sizes else sorted(BOX_SHAPES),
        "draw": dict(rule.draw),
        "formats": {name: list(keys) for name, keys in rule.formats.items()},
    }


def rules_document() -> dict[str, Any]:
    """Every registered rule, in the registry's order: ``{"rules": [rule_object, ...]}``."""
    return {"rules": [rule_object(rule) for rule in RULES.values()]}
