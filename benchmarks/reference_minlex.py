"""Reference: the minlex canonical form of a 9x9 puzzle or solved grid, computed independently.

Written apart from ``sudoku_server`` (no shared code) to check CANON's form
(tests/unit/test_canon.py, benchmarks/bench_canon.py ``--check``). The convention
is dobrichev's (sudoku-minlexing-tool): the smallest pattern of givens
first (row-major, a given 1, an empty cell 0), then, among the
transformations giving it, the smallest digits relabelled in order of first
appearance.

* :func:`reference_minlex`: every transposition and row order (2 x 1,296);
  for each, the columns' best order for the pattern by sorting (columns
  within a stack by their pattern read top to bottom, then the stacks by
  their pattern read row by row); then every column order tied on the
  smallest pattern is walked for the digits. Tens of milliseconds a puzzle.
* :func:`brute_force_grid`: a solved grid over all 3,359,232 geometric
  transformations, with numpy (the relabelling is the first row's). Seconds
  a grid.

Standard library only, but numpy for :func:`brute_force_grid`.
"""

from __future__ import annotations

from itertools import permutations, product

__all__ = ["ORDERS", "brute_force_grid", "reference_minlex"]


def _line_orders() -> list[tuple[int, ...]]:
    return [
        tuple(b * 3 + inner[k][i] for k, b in enumerate(bands) for i in range(3))
        for bands in permutations(range(3))
        for inner in product(permutations(range(3)), repeat=3)
    ]


ORDERS = _line_orders()


def _tied_orders(keys: list[int], items: range | list[int]) -> list[list[int]]:
    """Every order of ``items`` sorted by ``keys``, items with equal keys in any order."""
    groups: list[list[int]] = []
    for item in sorted(items, key=lambda x: keys[x]):
        if groups and keys[groups[-1][0]] == keys[item]:
            groups[-1].append(item)
        else:
            groups.append([item])
    out: list[list[int]] = [[]]
    for group in groups:
        out = [done + list(p) for done in out for p in permutations(group)]
    return out


def reference_minlex(cells: tuple[int, ...]) -> tuple[int, ...]:
    """dobrichev's minlex by another walk: the smallest pattern, then the smallest relabelled digits."""
    grids = ([cells[r * 9 : r * 9 + 9] for r in range(9)], [cells[c::9] for c in range(9)])
    best_pattern = -1
    tied = []
    for t in (0, 1):
        given = [[1 if v else 0 for v in row] for row in grids[t]]
        for rows in ORDERS:
            # a column's pattern read top to bottom, as a 9-bit number (row 0 the highest bit)
            vec = [sum(given[r][c] << (8 - i) for i, r in enumerate(rows)) for c in range(9)]
            stacks = [sorted(range(s * 3, s * 3 + 3), key=lambda c: vec[c]) for s in range(3)]
            block = []  # a stack's pattern read row by row, three bits a row
            for a, b, c in stacks:
                key = 0
                for i in range(9):
                    shift = 8 - i
                    key = key << 3 | (vec[a] >> shift & 1) << 2 | (vec[b] >> shift & 1) << 1 | (vec[c] >> shift & 1)
                block.append(key)
            order = sorted(range(3), key=lambda s: block[s])
            pattern = 0
            for i in range(9):
                for s in order:
                    pattern = pattern << 3 | (block[s] >> 3 * (8 - i) & 7)
            if best_pattern < 0 or pattern < best_pattern:
                best_pattern, tied = pattern, []
            if pattern == best_pattern:
                tied.append((t, rows, vec, block))
    best: tuple[int, ...] | None = None
    for t, rows, vec, block in tied:
        grid = [grids[t][r] for r in rows]
        inner = [_tied_orders(vec, range(s * 3, s * 3 + 3)) for s in range(3)]
        for order in _tied_orders(block, [0, 1, 2]):
            for within in product(*inner):
                cols = [c for s in order for c in within[s]]
                labels: dict[int, int] = {}
                values = []
                for i in range(9):
                    for c in cols:
                        d = grid[i][c]
                        if d and d not in labels:
                            labels[d] = len(labels) + 1
                        values.append(labels[d] if d else 0)
                if best is None or tuple(values) < best:
                    best = tuple(values)
    assert best is not None
    return best


def brute_force_grid(cells: tuple[int, ...]) -> tuple[int, ...]:
    """The minlex form of a solved grid over all 3,359,232 geometric transformations (numpy)."""
    import numpy as np

    perms = np.array(ORDERS)  # 1296 x 9: target column -> source column
    inverse = np.argsort(perms, axis=1)  # source column -> target column
    best = None
    base = np.array(cells).reshape(9, 9)
    for grid in (base, base.T):
        for rows in ORDERS:
            g = grid[list(rows)]
            where = np.empty(10, dtype=int)
            where[g[0]] = np.arange(9)  # digit -> its column in the first row
            f = where[g]  # 9 x 9: the first-row column of each cell's digit
            # relabelled: the digit at (i, j) becomes the target column of f[i][source column] + 1
            chosen = f[:, perms].transpose(1, 0, 2)  # K x 9 x 9: f at (row i, source column of target j)
            values = np.take_along_axis(inverse[:, None, :], chosen, axis=2)
            flat = values.reshape(len(perms), 81) + 1
            low = flat[np.lexsort(flat.T[::-1])[0]]
            if best is None or tuple(low) < best:
                best = tuple(int(v) for v in low)
    assert best is not None
    return best
