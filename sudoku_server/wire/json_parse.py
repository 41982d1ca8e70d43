"""The JSON API's ``parse`` endpoint (docs/HTTP.md "parse"): a puzzle's text read into its structure, no solving.

Pure: the web page draws a pasted puzzle from this reply (its givens, its
regions, its killer cages and its rules) before anything is solved. The reply
is rendered from the typed request that :func:`~sudoku_server.wire.json_api.read_fields`
made of the text (the request's variant: the rules given and those the layout
implies, a jigsaw's regions, a killer's cages, a pencilmark line's candidates)
and the :class:`~sudoku_server.text.Puzzle` read.

:func:`direct_reply` answers such an endpoint without the solver pool
(:attr:`~sudoku_server.wire.json_api.Endpoint.direct`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sudoku_server.sudoku.grid import DIGIT_SYMBOLS, cell_name
from sudoku_server.sudoku.variants import CLASSIC
from sudoku_server.wire.json_schemas import CAGE, CAGES_DESCRIPTION, cage_object, mark_object

if TYPE_CHECKING:
    from sudoku_server.service.requests import Request
    from sudoku_server.text import Puzzle
    from sudoku_server.wire.json_api import Call, Endpoint

PARSE_SUMMARY = "Read a puzzle without solving it: its size, givens, rules, regions, killer cages, candidates and marks"


def parse_object(request: Request, puzzle: Puzzle | None) -> dict[str, Any]:
    """The structure of one puzzle as JSON.

    Returns:
      ``{"size", "symbols", "givens", "rules", "regions", "region_symbols", "cages", "candidates"}``: ``symbols``
      the puzzle's
      digits 1..size as it writes them (``"123456789"``, ``"0123456789ABCDEF"``); ``givens`` ``size * size``
      of those symbols row-major, ``.`` for an empty cell; ``rules`` as ``rules=`` writes them (``killer+x``,
      ``classic``); ``regions`` per cell (row-major) its region 1..size: the jigsaw's regions, numbered in
      the order they first appear, else the boxes (left to right, top to bottom); ``region_symbols`` the
      symbol the puzzle wrote for each jigsaw region (as errors and steps name them: ``region b``), else null;
      ``cages`` the killer cages
      in the puzzle's order, each ``{"symbol", "sum", "cells"}`` (cells ``r1c1``, ascending), else empty;
      ``candidates`` for a pencilmark puzzle per cell its candidates as symbols, else null; ``marks`` the
      marks of the rules that take them (:class:`~sudoku_server.sudoku.rules.base.Mark`), in the puzzle's
      order, each ``{"rule", "cells", "value", "kind"}``: the rule's word (``thermo``), its cells as ``r1c1``
      in the rule's order (a thermometer from its bulb, an arrow's bulb then its line, a little killer's
      diagonal from the cell after its clue), the rule's number (0: none) and kind (``""``: none; kropki
      ``white`` / ``black``; a mark without cells turns on a negative constraint), else empty. A filled
      cell's candidates are its digit. A HoDoKu library line (a classic solving state) adds ``placed``: the
      cells (``r1c1``, row-major) whose digit was placed while solving, not given (``givens`` holds both).
    """
    assert puzzle is not None
    grid = puzzle.grid
    n = grid.size
    symbols = puzzle.symbols or grid.symbols or DIGIT_SYMBOLS[:n]
    variant = getattr(request, "variant", CLASSIC)
    if variant.regions is not None:
        regions = [k + 1 for k in variant.regions]
    else:
        boxes_across = n // grid.box_cols
        regions = [(i // n // grid.box_rows) * boxes_across + (i % n) // grid.box_cols + 1 for i in range(n * n)]
    candidates = None
    if variant.candidates is not None:
        # a filled cell's candidate is its digit (a library line's placed cell carries every digit's bit)
        masks = [1 << (v - 1) if v else mask for v, mask in zip(grid.cells, variant.candidates)]
        candidates = ["".join(symbols[d] for d in range(n) if mask >> d & 1) for mask in masks]
    placed = {}
    if variant.state and variant.candidates is not None:
        full = variant.candidates
        placed = {"placed": [cell_name(c, n) for c, v in enumerate(grid.cells) if v and full[c] != 1 << (v - 1)]}
    return {
        "size": n,
        "symbols": symbols[:n],
        "givens": "".join(symbols[v - 1] if v else "." for v in grid.cells),
        "rules": variant.words,
        "regions": regions,
        "region_symbols": list(variant.region_symbols)
        if variant.regions is not None and variant.region_symbols
        else None,
        "cages": [cage_object(cage, n) for cage in variant.cages],
        "candidates": candidates,
        "marks": [mark_object(m, n) for m in variant.marks],
        **placed,
    }


PARSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["size", "symbols", "givens", "rules", "regions", "region_symbols", "cages", "candidates", "marks"],
    "additionalProperties": False,
    "properties": {
        "size": {"type": "integer"},
        "symbols": {"type": "string", "description": "the digits 1..size as the puzzle writes them"},
        "givens": {"type": "string", "description": "size * size symbols row-major, '.' for an empty cell"},
        "rules": {"type": "string", "description": "the rules (given and implied by the layout), as rules= writes"},
        "regions": {
            "type": "array",
            "items": {"type": "integer", "minimum": 1},
            "description": "per cell its region 1..size: a jigsaw's regions, else the boxes",
        },
        "region_symbols": {
            "type": ["array", "null"],
            "items": {"type": "string"},
            "description": "jigsaw: the symbol of region 1, 2, ... as the puzzle writes it (steps say 'region b')",
        },
        "cages": {"type": "array", "description": CAGES_DESCRIPTION, "items": CAGE},
        "candidates": {
            "type": ["array", "null"],
            "items": {"type": "string"},
            "description": "a pencilmark puzzle or a solving state: per cell its candidates as symbols",
        },
        "placed": {
            "type": "array",
            "items": {"type": "string", "pattern": "^r[0-9]+c[0-9]+$"},
            "description": "a HoDoKu library line only: the cells whose digit was placed, not given",
        },
        "marks": {
            "type": "array",
            "description": "the marks of the rules that take them (lines, dots, marked cells), in order",
            "items": {
                "type": "object",
                "required": ["rule", "cells", "value", "kind"],
                "additionalProperties": False,
                "properties": {
                    "rule": {"type": "string", "description": "the word of the rule it belongs to"},
                    "cells": {"type": "array", "items": {"type": "string", "pattern": "^r[0-9]+c[0-9]+$"}},
                    "value": {"type": "integer", "description": "the rule's number for it; 0: none"},
                    "kind": {
                        "type": "string",
                        "description": "which of the rule's marks it is (a dot's colour, a negative rule); '' none",
                    },
                },
            },
        },
    },
}


def direct_reply(endpoint: Endpoint, call: Call) -> tuple[int, dict[str, Any]]:
    """``(status, object)`` of a :attr:`~sudoku_server.wire.json_api.Endpoint.direct` endpoint's call: each item
    rendered from its typed request and puzzle (an item's error in its place), as one reply or a batch."""
    from sudoku_server.wire import json_api  # json_api's endpoint table imports this module

    replies = []
    for item in map(json_api.parsed, call.items):
        if item.request is None:
            assert item.error is not None
            replies.append(json_api.error_reply(item.error, item.puzzle))
        else:
            replies.append((200, endpoint.render(item.request, item.puzzle)))
    return json_api.batch_reply(replies) if call.batch else replies[0]
