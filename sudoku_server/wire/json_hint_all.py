"""``/api/v1/hint`` with ``all``: every step at the state as JSON (``HINT all``'s block, structured).

Kept apart from :mod:`.json_endpoints` (its row of the endpoint table names :func:`hint_reply`
and :data:`ALL_SCHEMA`), which stays under the size limit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sudoku_server.service.results import Hinted, HintedAll
from sudoku_server.sudoku.grid import cell_name
from sudoku_server.text.puzzle import Puzzle

__all__ = ["ALL_SCHEMA", "all_object", "hint_reply"]

_PLACEMENT = {
    "type": "object",
    "required": ["cell", "digit"],
    "additionalProperties": False,
    "properties": {"cell": {"type": "string"}, "digit": {"type": "integer"}},
}

#: The reply of ``/api/v1/hint`` with ``all``: ``{"steps": [{"code", "technique", "text", "placements",
#: "eliminations"}, ...]}``, simplest first (``code``: HoDoKu's, or ``-``).
ALL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["steps"],
    "additionalProperties": False,
    "properties": {
        "steps": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["code", "technique", "text", "placements", "eliminations"],
                "additionalProperties": False,
                "properties": {
                    "code": {"type": "string"},
                    "technique": {"type": "string"},
                    "text": {"type": "string"},
                    "placements": {"type": "array", "items": _PLACEMENT},
                    "eliminations": {"type": "array", "items": _PLACEMENT},
                },
            },
        }
    },
}


def all_object(result: HintedAll) -> dict[str, Any]:
    """``HINT all`` as JSON: each step's HoDoKu code, technique, words and effects."""
    steps = []
    for f in result.found:
        s = f.step
        n = s.size
        steps.append(
            {
                "code": f.code,
                "technique": s.technique,
                "text": f"{s.technique}{s.explanation}".strip(),
                "placements": [{"cell": cell_name(c, n), "digit": d} for c, d in s.placements],
                "eliminations": [{"cell": cell_name(c, n), "digit": d} for c, d in s.eliminations],
            }
        )
    return {"steps": steps}


def hint_reply(
    step_object: Callable[..., dict[str, Any]],
) -> Callable[[Hinted | HintedAll, Puzzle | None], dict[str, Any]]:
    """The hint endpoint's render: the step as ``step_object`` writes it (:mod:`.json_endpoints`), or :func:`all_object`."""

    def render(result: Hinted | HintedAll, puzzle: Puzzle | None) -> dict[str, Any]:
        if isinstance(result, HintedAll):
            return all_object(result)
        if result.step is None:
            return {
                "technique": None,
                "text": "none: the grid is complete",
                "se": None,
                "focus": None,
                "placements": [],
                "eliminations": [],
                "cells": [],
            }
        return step_object(result.step, nudge=result.nudge)

    return render
