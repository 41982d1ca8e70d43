"""``windoku``: four extra 3x3 windows (rows and columns 2-4 and 6-8) hold every digit once (9x9 only)."""

from __future__ import annotations

from sudoku_server.sudoku.geometry import cell_name
from sudoku_server.sudoku.rules.base import Build, Making, Rule, Units

#: The top-left cell (row, column, 0-based) of each window.
_CORNERS = ((1, 1), (1, 5), (5, 1), (5, 5))


def _cells(size: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple((top + r) * size + left + c for r in range(3) for c in range(3)) for top, left in _CORNERS)


def _windows(build: Build) -> Units:
    return tuple((cells, f"window {k + 1}") for k, cells in enumerate(_cells(build.size)))


RULE = Rule(
    word="windoku",
    summary="four extra 3x3 windows hold every digit once",
    sizes=frozenset({9}),
    units=_windows,
    making=Making(exact=True),
    draw={"kind": "windows", "windows": [[cell_name(c) for c in cells] for cells in _cells(9)]},
)
