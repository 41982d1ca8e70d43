"""``x``: the two main diagonals hold every digit once (X-Sudoku, any size)."""

from __future__ import annotations

from sudoku_server.sudoku.rules.base import Build, Making, Rule, Units


def _diagonals(build: Build) -> Units:
    n = build.size
    return (
        (tuple(k * n + k for k in range(n)), "diagonal 1"),
        (tuple(k * n + n - 1 - k for k in range(n)), "diagonal 2"),
    )


RULE = Rule(
    word="x",
    summary="both main diagonals hold every digit once",
    units=_diagonals,
    making=Making(exact=True),
    formats={"f-puzzles": ("diagonal+", "diagonal-")},
    draw={"kind": "diagonals"},
)
