"""Orthogonal neighbours and connected shapes of cells: what random regions and cages are drawn with."""

from __future__ import annotations

__all__ = ["connected", "orthogonal"]


def orthogonal(r: int, c: int, size: int) -> list[int]:
    """The cells orthogonally next to row ``r``, column ``c`` (0-based): up, down, left, right."""
    out = []
    if r > 0:
        out.append((r - 1) * size + c)
    if r < size - 1:
        out.append((r + 1) * size + c)
    if c > 0:
        out.append(r * size + c - 1)
    if c < size - 1:
        out.append(r * size + c + 1)
    return out


def connected(cells: set[int], size: int) -> bool:
    """Whether ``cells`` (not empty) are orthogonally connected."""
    start = next(iter(cells))
    seen = {start}
    todo = [start]
    while todo:
        c = todo.pop()
        r, k = divmod(c, size)
        for nb in orthogonal(r, k, size):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)
