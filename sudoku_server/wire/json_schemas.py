"""The JSON-schema pieces the JSON API's endpoint rows share (:mod:`sudoku_server.wire.json_endpoints`).

Plain data for the OpenAPI document (:mod:`sudoku_server.wire.openapi`): a
step, a placement or elimination, a transformation map, a list of cells, a
rating's properties, a killer cage (with :func:`cage_object`, the one writer of
the cages that ``parse`` and ``generate`` answer). Pure: no I/O.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sudoku_server.sudoku import rules as _rules
from sudoku_server.sudoku.grid import cell_name

if TYPE_CHECKING:
    from sudoku_server.sudoku.rules.base import Mark
    from sudoku_server.sudoku.variants import Cage

__all__ = [
    "CAGE",
    "CAGES_DESCRIPTION",
    "CELLS",
    "MAP",
    "PLACEMENT",
    "RATING_PROPERTIES",
    "STEP_SCHEMA",
    "cage_object",
    "mark_object",
    "nullable",
]


def nullable(kind: str) -> dict[str, Any]:
    """A schema of ``kind`` or null."""
    return {"type": [kind, "null"]}


PLACEMENT = {
    "type": "object",
    "required": ["cell", "digit"],
    "additionalProperties": False,
    "properties": {"cell": {"type": "string", "pattern": "^r[0-9]+c[0-9]+$"}, "digit": {"type": "integer"}},
}
STEP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["technique", "text", "se", "focus", "placements", "eliminations", "cells"],
    "additionalProperties": False,
    "properties": {
        "technique": nullable("string"),
        "text": {"type": "string"},
        "se": nullable("number"),
        "focus": nullable("string"),
        "placements": {"type": "array", "items": PLACEMENT},
        "eliminations": {"type": "array", "items": PLACEMENT},
        "cells": {"type": "array", "items": {"type": "string"}},
    },
}
MAP = {
    "type": ["object", "null"],
    "required": ["transpose", "rows", "cols", "digits"],
    "additionalProperties": False,
    "properties": {
        "transpose": {"type": "boolean", "description": "the puzzle is transposed first"},
        "rows": {"type": "string", "description": "for each row of the result, the row it comes from (1-based)"},
        "cols": {"type": "string", "description": "for each column of the result, the column it comes from"},
        "digits": {"type": "string", "description": "what digit 1, 2, ... becomes"},
    },
}
CELLS = {"type": "array", "items": {"type": "string", "pattern": "^r[0-9]+c[0-9]+$"}}
#: A killer cage as ``parse`` and ``generate`` answer it (:func:`cage_object`).
CAGE: dict[str, Any] = {
    "type": "object",
    "required": ["symbol", "sum", "cells"],
    "additionalProperties": False,
    "properties": {"symbol": {"type": "string"}, "sum": {"type": "integer"}, "cells": CELLS},
}
#: What a reply's ``cages`` holds (its rule's word first: ``killer: ...``).
CAGES_DESCRIPTION = f"{_rules.taking('cages').word}: the cages, each its symbol, sum and cells"


def cage_object(cage: Cage, size: int) -> dict[str, Any]:
    """A cage as :data:`CAGE`: ``{"symbol": "a", "sum": 13, "cells": ["r1c1", "r1c2"]}`` (its cells in its order,
    named on a ``size`` grid)."""
    return {"symbol": cage.symbol, "sum": cage.total, "cells": [cell_name(c, size) for c in cage.cells]}


def mark_object(mark: Mark, size: int) -> dict[str, Any]:
    """A rule's mark as a reply's ``marks`` item: ``{"rule": "thermo", "cells": ["r1c1", "r1c2"], "value": 0,
    "kind": ""}`` (its cells in its order, named on a ``size`` grid)."""
    return {
        "rule": mark.rule,
        "cells": [cell_name(c, size) for c in mark.cells],
        "value": mark.value,
        "kind": mark.kind,
    }


RATING_PROPERTIES: dict[str, Any] = {
    "level": {"type": "string"},
    "se": {"type": "number"},
    "qqwing": nullable("string"),
    "hardest": nullable("string"),
    "method": {"type": "string"},
    "rules": {"type": "string", "description": "the rules the path followed, as rules= writes them (classic)"},
    "notes": {"type": "array", "items": {"type": "string"}, "description": "families left out under the rules"},
    "hodoku": {
        "type": ["object", "null"],
        "description": "HoDoKu 2.2.0's level (lowercase) and score; complete false: its path stopped, score a"
        " lower bound (null off classic 9x9)",
        "properties": {
            "level": {"type": "string"},
            "score": {"type": "integer"},
            "complete": {"type": "boolean"},
        },
    },
}
