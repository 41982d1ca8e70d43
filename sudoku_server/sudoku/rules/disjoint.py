"""``disjoint``: disjoint groups: the cells in the same position of every box hold different digits.

The nine cells at one position of the boxes (the top-left cell of every box,
...) form an extra unit, ``group 1``.. (position row-major within the box);
on a 9x9 grid each group holds every digit once, as a box does. It fits
every grid that has boxes (box rows x box columns cells per group).
"""

from __future__ import annotations

from sudoku_server.sudoku.rules.base import Build, Making, Rule, Units


def _groups(build: Build) -> Units:
    n, br, bc = build.size, build.box_rows, build.box_cols
    corners = [(r, c) for r in range(0, n, br) for c in range(0, n, bc)]
    return tuple(
        (tuple((r + dr) * n + c + dc for r, c in corners), f"group {k + 1}")
        for k, (dr, dc) in enumerate((dr, dc) for dr in range(br) for dc in range(bc))
    )


RULE = Rule(
    word="disjoint",
    summary="cells in the same position of every box hold different digits",
    units=_groups,
    making=Making(exact=True),
    formats={"f-puzzles": ("disjointgroups",)},
    draw={"kind": "groups"},
)
