"""The JSON API's errors (docs/HTTP.md "Errors"): an error as ``{"error": {...}}`` and its HTTP status.

Pure: no I/O. Re-exported by :mod:`sudoku_server.wire.json_api`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from sudoku_server.errors import BusyError, DrainingError, PuzzleError, SolutionMismatchError
from sudoku_server.sudoku.grid import cell_name

if TYPE_CHECKING:
    from sudoku_server.text import Puzzle

#: HTTP status of each error code (docs/HTTP.md "Errors"); ``busy`` is 503 unless the client's budget is used (429).
STATUS = {
    "format": 400,
    "incomplete": 400,
    "invalid": 400,
    "command": 400,
    "mismatch": 422,
    "unsolvable": 422,
    "multiple": 422,
    "too-large": 413,
    "busy": 503,
    "draining": 503,
    "shutdown": 503,
    "timeout": 504,
    "internal": 500,
}
#: The statuses of the errors that :func:`error_reply` sends with a ``Retry-After``.
RETRY_STATUSES = frozenset({429, 503})
_LINE = re.compile(r"\bline ([0-9]+)\b")


def error_object(error: PuzzleError, puzzle: Puzzle | None = None) -> dict[str, Any]:
    """``{"code": ..., "message": ..., "line": ...}``: the line protocol's code and words, and the line of the
    puzzle's text it is about (its first line, or the line a format error names; None when none)."""
    line: int | None = puzzle.first_line if puzzle is not None else None
    match = _LINE.search(error.detail) if error.code in ("format", "incomplete") else None
    if match is not None:
        line = int(match.group(1))
    out: dict[str, Any] = {"code": error.code, "message": error.detail, "line": line}
    if isinstance(error, SolutionMismatchError) and error.cell is not None and puzzle is not None:
        out["cell"] = cell_name(error.cell, puzzle.grid.size)
    return out


def status_of(error: PuzzleError, *, budget: bool = False) -> int:
    """The HTTP status of an error (:data:`STATUS`); ``budget``: a ``busy`` because the client's budget is used: 429."""
    if isinstance(error, BusyError) and budget:
        return 429
    return STATUS.get(error.code, 500)


def error_reply(
    error: PuzzleError, puzzle: Puzzle | None = None, *, budget: bool = False
) -> tuple[int, dict[str, Any]]:
    """``(status, {"error": {...}})`` for an error (:func:`error_object`, :func:`status_of`)."""
    return status_of(error, budget=budget), {"error": error_object(error, puzzle)}


def draining_error() -> DrainingError:
    """The error of a request that comes while the server stops (``503 draining``), in PING's words."""
    return DrainingError("server shutting down, use another")
