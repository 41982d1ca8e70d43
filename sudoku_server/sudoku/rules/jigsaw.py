"""``jigsaw``: irregular regions replace the boxes (the puzzle gives them, or the generator draws them).

The regions come with the puzzle (``Variant.regions``: per cell its region;
the text layouts in ``text/variant_layouts.py`` read them). Random layouts
for GENERATE (:func:`random_regions`): start from the boxes and swap border
cells between neighbouring regions, keeping both connected.
"""

from __future__ import annotations

from sudoku_server.errors import InvalidPuzzleError, PuzzleFormatError
from sudoku_server.sudoku.geometry import BOX_SHAPES, cell_name
from sudoku_server.sudoku.rules._shapes import connected, orthogonal
from sudoku_server.sudoku.rules.base import Build, Making, Random, Rule, Units

WORD = "jigsaw"


def _regions(build: Build) -> Units:
    """The regions as units ``region 1``.. (by the puzzle's symbols when it gave them)."""
    size, regions = build.size, build.variant.regions
    if regions is None:
        raise PuzzleFormatError(f"a {WORD} puzzle needs its regions")
    if len(regions) != size * size:
        raise PuzzleFormatError(f"{WORD} regions give {len(regions)} cells, not {size * size}")
    count = max(regions) + 1 if regions else 0
    if min(regions, default=0) < 0 or count > size:
        raise PuzzleFormatError(f"{WORD} regions: {count} region symbols, not {size}")
    cells: list[list[int]] = [[] for _ in range(size)]
    for cell, region in enumerate(regions):
        cells[region].append(cell)
    for k, region_cells in enumerate(cells):
        if len(region_cells) != size:
            held = f"{len(region_cells)} cell" + ("" if len(region_cells) == 1 else "s")
            raise PuzzleFormatError(f"{build.region_name(k)} has {held}, not {size}")
    for k, region_cells in enumerate(cells):
        _leftovers(build, k, region_cells)
    return tuple((tuple(rc), build.region_name(k)) for k, rc in enumerate(cells))


def _leftovers(build: Build, k: int, region_cells: list[int]) -> None:
    """Refuse a region that shares all but one cell with a row (or a column) when the two cells left over share a
    column (a row): they must hold the same digit, the one the shared cells miss, and cannot (the smallest case of
    the law of leftovers; without it the search needs seconds to find that no grid exists).

    Raises InvalidPuzzleError: ``region a and row 1 share 8 cells, so r2c9 and r1c9 must hold the same digit, but they
    share column 9``.
    """
    size = build.size
    for line, name in ((0, "row"), (1, "column")):
        for index in range(size):
            unit = {index * size + i if line == 0 else i * size + index for i in range(size)}
            outside = [c for c in region_cells if c not in unit]
            if len(outside) != 1:
                continue
            (x,) = outside
            (y,) = unit.difference(region_cells)
            if (x % size == y % size) if line == 0 else (x // size == y // size):
                other = f"column {x % size + 1}" if line == 0 else f"row {x // size + 1}"
                raise InvalidPuzzleError(
                    f"{build.region_name(k)} and {name} {index + 1} share {size - 1} cells, so {cell_name(x, size)}"
                    f" and {cell_name(y, size)} must hold the same digit, but they share {other}"
                )


def random_regions(size: int, rng: Random) -> tuple[int, ...]:
    """Random jigsaw regions of a ``size x size`` grid: per cell its region 0..size-1.

    Each region is ``size`` orthogonally connected cells; regions are
    numbered in the order they first appear (row-major). See the module
    docstring for the method.
    """
    box_rows, box_cols = BOX_SHAPES[size]
    ncells = size * size
    region = [(c // size) // box_rows * (size // box_cols) + (c % size) // box_cols for c in range(ncells)]
    members = [{c for c in range(ncells) if region[c] == k} for k in range(size)]
    for _ in range(ncells * 3):
        a = rng.below(ncells)
        ra, ca = divmod(a, size)
        others = [nb for nb in orthogonal(ra, ca, size) if region[nb] != region[a]]
        if not others:
            continue
        b_region = region[others[rng.below(len(others))]]
        a_region = region[a]
        # a cell of b_region touching a_region, other than a's neighbour chain: any border cell
        border = sorted(
            c for c in members[b_region] if any(region[nb] == a_region for nb in orthogonal(*divmod(c, size), size))
        )
        b = border[rng.below(len(border))]
        members[a_region].discard(a)
        members[b_region].discard(b)
        members[a_region].add(b)
        members[b_region].add(a)
        if connected(members[a_region], size) and connected(members[b_region], size):
            region[a], region[b] = b_region, a_region
        else:
            members[a_region].discard(b)
            members[b_region].discard(a)
            members[a_region].add(a)
            members[b_region].add(b)
    order: dict[int, int] = {}
    for k in region:
        order.setdefault(k, len(order))
    return tuple(order[k] for k in region)


RULE = Rule(
    word=WORD,
    summary="irregular regions of connected cells replace the boxes",
    data="regions",
    units=_regions,
    replaces_boxes=True,
    making=Making(layout=random_regions),
    missing="a line of givens then region symbols, or a grid of region symbols after the grid",
    formats={"f-puzzles": ("region",)},
    draw={"kind": "regions"},
)
