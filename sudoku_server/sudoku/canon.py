"""The minlex canonical form of a puzzle or solved grid, and the transformation onto it.

Two puzzles are *equivalent* when a validity-preserving transformation maps
one onto the other: the transposition, a permutation of the bands, of the
rows within each band, of the stacks, of the columns within each stack
(2 * 6^8 = 3,359,232 geometric transformations at 9x9), then a relabelling
of the digits. Their canonical form is one chosen member of the class, so
that equal forms mean equivalent puzzles.

The convention is dobrichev's minlex for puzzles (sudoku-minlexing-tool,
``patminlex``; the Enjoy Sudoku forum's "minlex"), docs/PROTOCOL.md "CANON":

1. the *pattern* first: the 81 cells row-major, a given as 1 and an empty
   cell as 0; the transformations whose pattern is the smallest string win
   (empty cells as early as possible);
2. among those, the *digits*: the givens relabelled in order of first
   appearance (row-major: the first given becomes 1, the next new digit 2,
   ...), the smallest string of digits wins.

For a solved grid the pattern is all givens and this is the usual minlex
grid (its first row is ``123456789``). It is not always the smallest
string with empty cells as ``0``: there a given digit can win before the
pattern is compared to its end.

The search (the native core ``_canon.c`` does the same, and must give the
same form and the same transformation):

* puzzles: the rows are chosen one by one (the transposition and the first
  row, then the rows of the first band, then a band and its rows...), each
  keeping only the choices whose pattern row is the smallest; the columns
  are kept as sets (a stack order, and per stack the column orders still
  allowed), refined row by row (after dobrichev). Then the column orders
  left are walked and the digits compared, with the relabelling by first
  appearance.
* solved grids: the first two rows and the column order decide the first
  band; the column order is searched cell by cell of the second row (its
  value is where the digit sits in the first row), each choice pruned
  against the best so far; the other rows then follow by sorting.

4x4 and 6x6 grids are canonicalised by walking their whole group (128 and
3,456 geometric transformations; a 6x6 grid has no transposition, its boxes
are 2x3). Other sizes raise :class:`~sudoku_server.errors.CommandError`.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from itertools import permutations, product
from typing import Any

from sudoku_server.errors import CommandError
from sudoku_server.sudoku.grid import Grid

#: The 6 orders of 3 things: order p puts item ``PERM3[p][k]`` at place k (as the native core numbers them).
PERM3 = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
#: Cell values (bytes 0..25) -> their characters in a form: ``.`` then ``1-9``, ``A-P``.
_TEXT = bytes.maketrans(bytes(range(26)), b".123456789ABCDEFGHIJKLMNOP")
#: Sizes CANON and SAME take.
CANON_SIZES = (4, 6, 9)


def _load_native() -> Any:
    if os.environ.get("SUDOKU_SERVER_PURE_PYTHON", "") not in ("", "0"):
        return None
    try:
        return importlib.import_module("sudoku_server.sudoku._canon")
    except ImportError:  # not built: no compiler, or a checkout without ``pip install -e .``
        return None


#: The native core (``sudoku_server.sudoku._canon``), or None when it is not built or turned off.
NATIVE = _load_native()
#: ``native`` or ``python``: the core :func:`canonical` uses for 9x9 grids.
CORE = "native" if NATIVE is not None else "python"


@dataclass(frozen=True)
class Transformation:
    """A validity-preserving transformation of a grid of side ``size``.

    ``out[i][j] = digits[in'[rows[i]][cols[j]] - 1]`` where ``in'`` is the
    input transposed when ``transpose``, else the input; an empty cell stays
    empty.

    Attributes:
      transpose: the input is transposed first.
      rows: for each row of the result, the row of ``in'`` it comes from (0-based).
      cols: for each column of the result, the column of ``in'`` it comes from (0-based).
      digits: ``digits[d - 1]`` is what digit d becomes (a permutation of 1..size).
    """

    transpose: bool
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    digits: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.rows)

    def sources(self) -> list[int]:
        """For each cell of the result (row-major), the input cell it comes from."""
        n = self.size
        if self.transpose:
            return [c * n + r for r in self.rows for c in self.cols]
        return [r * n + c for r in self.rows for c in self.cols]

    def apply(self, grid: Grid) -> Grid:
        """The grid transformed (same box shape). Raises ValueError for a grid of another size."""
        if grid.size != self.size:
            raise ValueError(f"a {self.size}x{self.size} transformation applied to a {grid.size}x{grid.size} grid")
        cells = grid.cells
        table = (0, *self.digits)
        return Grid(tuple(table[cells[k]] for k in self.sources()), grid.box_rows, grid.box_cols)

    def then(self, other: Transformation) -> Transformation:
        """This transformation, then ``other``."""
        mine = self.sources()
        theirs = other.sources()
        cells = [mine[k] for k in theirs]
        digits = tuple(other.digits[d - 1] for d in self.digits)
        return _from_sources(cells, self.size, digits)

    def inverse(self) -> Transformation:
        """The transformation that undoes this one."""
        n = self.size
        back = [0] * (n * n)
        for target, source in enumerate(self.sources()):
            back[source] = target
        digits = [0] * n
        for d, to in enumerate(self.digits, start=1):
            digits[to - 1] = d
        return _from_sources(back, n, tuple(digits))

    def describe(self) -> str:
        """``transpose=no rows=123456789 cols=123456789 digits=123456789`` (1-based, docs/PROTOCOL.md "CANON")."""
        words = self.words()
        return (
            f"transpose={'yes' if self.transpose else 'no'} rows={words['rows']}"
            f" cols={words['cols']} digits={words['digits']}"
        )

    def words(self) -> dict[str, str]:
        """``{"rows": "123456789", "cols": ..., "digits": ...}``: the orders and relabelling as :meth:`describe`
        writes them (1-based rows and columns; ``digits``: what 1, 2, ... become)."""
        return {"rows": _word(self.rows, 1), "cols": _word(self.cols, 1), "digits": _word(self.digits, 0)}


def _word(values: tuple[int, ...], plus: int) -> str:
    """Values as one word of symbols 1-9 then A-P (``(0, 1, 2)`` with plus 1 -> ``123``)."""
    return "".join("123456789ABCDEFGHIJKLMNOP"[v + plus - 1] for v in values)


def _from_sources(cells: list[int], n: int, digits: tuple[int, ...]) -> Transformation:
    """The transformation whose result cell k comes from input cell ``cells[k]`` (a geometric one)."""
    first, second = divmod(cells[0], n), divmod(cells[1], n)
    if n == 1 or first[0] == second[0]:
        rows = tuple(cells[i * n] // n for i in range(n))
        cols = tuple(cells[j] % n for j in range(n))
        return Transformation(False, rows, cols, digits)
    rows = tuple(cells[i * n] % n for i in range(n))
    cols = tuple(cells[j] // n for j in range(n))
    return Transformation(True, rows, cols, digits)


def _full_digits(labels: dict[int, int], n: int) -> tuple[int, ...]:
    """The relabelling as a permutation of 1..n: digits absent from the input take the labels left, in order."""
    free = iter(sorted(set(range(1, n + 1)) - set(labels.values())))
    return tuple(labels[d] if d in labels else next(free) for d in range(1, n + 1))


@dataclass(frozen=True)
class Canonical:
    """A grid's canonical form and a transformation mapping the grid onto it."""

    grid: Grid
    transformation: Transformation

    def text(self) -> str:
        """The form as one line: ``.`` for an empty cell, then the digits (``1-9``, ``A-P``)."""
        return bytes(self.grid.cells).translate(_TEXT).decode("ascii")


def _check_size(grid: Grid, verb: str) -> None:
    if grid.size not in CANON_SIZES:
        raise CommandError(
            f"{verb}: a {grid.size}x{grid.size} puzzle has no canonical form here (4x4, 6x6 and 9x9 only)"
        )


def canonical(
    grid: Grid, *, verb: str = "CANON", native: bool | None = None, check: Callable[[], None] | None = None
) -> Canonical:
    """The minlex canonical form of ``grid`` (any puzzle: 0, 1 or many solutions, duplicates too).

    Args:
      grid: a 4x4, 6x6 or 9x9 grid (0 = empty).
      verb: the verb named in the error.
      native: True for the native core, False for the Python one, None for :data:`CORE` (9x9 only).
      check: called regularly by the Python core's search (the solve timeout, a pause; it may raise);
        the native core takes at most tens of milliseconds and does not call it.

    Raises:
      CommandError: ``CANON: a 16x16 puzzle has no canonical form here (4x4, 6x6 and 9x9 only)``.
    """
    _check_size(grid, verb)
    if grid.size != 9:
        return _small(grid)
    use_native = (NATIVE is not None) if native is None else native
    if use_native:
        if NATIVE is None:
            raise RuntimeError("the native canon core is not built")
        form, transpose, rows, cols, labels = NATIVE.minlex(bytes(grid.cells))
        cells = tuple(form)
        transformation = Transformation(bool(transpose), tuple(rows), tuple(cols), tuple(labels))
    else:
        cells, transformation = minlex9(grid.cells, check)
    return Canonical(Grid.trusted(cells, 3, 3), transformation)


def equivalent(first: Grid, second: Grid, *, check: Callable[[], None] | None = None) -> Transformation | None:
    """A transformation mapping ``first`` onto ``second``, or None when they are not equivalent.

    Raises:
      CommandError: as :func:`canonical`, naming SAME.
    """
    _check_size(first, "SAME")
    _check_size(second, "SAME")
    one = canonical(first, verb="SAME", check=check)
    two = canonical(second, verb="SAME", check=check)
    if one.grid.cells != two.grid.cells:
        return None
    return one.transformation.then(two.transformation.inverse())


def canonical_line(cells: bytes) -> bytes:
    """The form of 81 cell values (bytes 0..9) as 81 ASCII characters: for the client-side and bulk paths."""
    if NATIVE is not None:
        return bytes(b".123456789"[v] for v in NATIVE.minlex(cells)[0])
    return bytes(b".123456789"[v] for v in minlex9(tuple(cells))[0])


# -- 9x9, the Python core ------------------------------------------------------------------


def _best_table() -> list[list[tuple[int, int]]]:
    """``[triplet][mask] -> (smallest value, mask of the orders giving it)`` over the orders in ``mask``."""
    table = []
    for trip in range(8):
        bits = [(trip >> (2 - k)) & 1 for k in range(3)]
        row = []
        for mask in range(64):
            best, keep = 8, 0
            for p in range(6):
                if not mask >> p & 1:
                    continue
                value = (bits[PERM3[p][0]] << 2) | (bits[PERM3[p][1]] << 1) | bits[PERM3[p][2]]
                if value < best:
                    best, keep = value, 1 << p
                elif value == best:
                    keep |= 1 << p
            row.append((best, keep))
        table.append(row)
    return table


BEST = _best_table()


def _orders(mask: int) -> list[int]:
    return [p for p in range(6) if mask >> p & 1]


def minlex9(
    cells: tuple[int, ...] | list[int], check: Callable[[], None] | None = None
) -> tuple[tuple[int, ...], Transformation]:
    """The minlex form of 81 cells (0 = empty) and the transformation onto it (the Python core; ``check``:
    called once per candidate walked, as :func:`canonical` says)."""
    if check is None:
        check = _no_check
    grids = (
        [list(cells[r * 9 : r * 9 + 9]) for r in range(9)],
        [[cells[c * 9 + r] for c in range(9)] for r in range(9)],
    )
    if not any(cells):  # every transformation gives the empty grid: the first one walked, the identity
        same = tuple(range(9))
        return tuple(cells), Transformation(False, same, same, tuple(range(1, 10)))
    if all(cells) and _is_solved_grid(grids[0]):
        return _grid_minlex(grids, check)
    return _puzzle_minlex(grids, check)


def _is_solved_grid(rows: list[list[int]]) -> bool:
    """Every row, column and box holds each digit 1-9 once (the solved-grid search reads rows as permutations;
    any other full grid is searched as a puzzle)."""
    digits = set(range(1, 10))
    boxes = [[rows[b // 3 * 3 + i // 3][b % 3 * 3 + i % 3] for i in range(9)] for b in range(9)]
    columns = [[rows[r][c] for r in range(9)] for c in range(9)]
    return all(set(unit) == digits for unit in (*rows, *columns, *boxes))


def _no_check() -> None:
    pass


def _puzzle_minlex(
    grids: tuple[list[list[int]], ...], check: Callable[[], None]
) -> tuple[tuple[int, ...], Transformation]:
    pattern = [[sum(1 << (8 - c) for c in range(9) if g[r][c]) for r in range(9)] for g in grids]

    def score(t: int, row: int, stacks: tuple[int, ...], masks: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
        bits = pattern[t][row]
        value = 0
        kept = []
        for k in range(3):
            best, keep = BEST[(bits >> (6 - 3 * stacks[k])) & 7][masks[k]]
            value = value << 3 | best
            kept.append(keep)
        return value, tuple(kept)

    # candidates: (transpose, source rows so far, stack order, column-order masks per target stack)
    found: list[tuple[int, tuple[int, ...], int, tuple[int, ...]]] = []
    top = 512
    for t in range(2):
        for row in range(9):
            for sp in range(6):
                value, masks = score(t, row, PERM3[sp], (63, 63, 63))
                if value < top:
                    top, found = value, []
                if value == top:
                    found.append((t, (row,), sp, masks))
    rows_best = [top]
    for i in range(1, 9):
        nxt: list[tuple[int, tuple[int, ...], int, tuple[int, ...]]] = []
        top = 512
        for t, chosen, sp, masks in found:
            check()
            if i % 3 == 0:
                bands = {r // 3 for r in chosen}
                choices = [r for r in range(9) if r // 3 not in bands]
            else:
                band = chosen[-1] // 3
                choices = [r for r in range(band * 3, band * 3 + 3) if r not in chosen]
            for row in choices:
                value, kept = score(t, row, PERM3[sp], masks)
                if value < top:
                    top, nxt = value, []
                if value == top:
                    nxt.append((t, (*chosen, row), sp, kept))
        found = nxt
        rows_best.append(top)
    spots = [i * 9 + j for i in range(9) for j in range(9) if rows_best[i] >> (8 - j) & 1]
    best: list[int] | None = None
    winner: tuple[int, tuple[int, ...], tuple[int, ...], dict[int, int]] | None = None
    for t, chosen, sp, masks in found:
        check()
        g = grids[t]
        stacks = PERM3[sp]
        for p0, p1, p2 in product(*(_orders(m) for m in masks)):
            orders = (p0, p1, p2)
            cols = tuple(stacks[j // 3] * 3 + PERM3[orders[j // 3]][j % 3] for j in range(9))
            labels: dict[int, int] = {}
            values = []
            less = best is None
            for k, spot in enumerate(spots):
                d = g[chosen[spot // 9]][cols[spot % 9]]
                label = labels.get(d)
                if label is None:
                    label = labels[d] = len(labels) + 1
                if not less:
                    assert best is not None
                    if label > best[k]:
                        break
                    less = label < best[k]
                values.append(label)
            else:
                if less:
                    best, winner = values, (t, chosen, cols, labels)
    assert winner is not None and best is not None
    t, chosen, cols, labels = winner
    out = [0] * 81
    for spot, value in zip(spots, best):
        out[spot] = value
    return tuple(out), Transformation(bool(t), chosen, cols, _full_digits(labels, 9))


def _grid_minlex(
    grids: tuple[list[list[int]], ...], check: Callable[[], None]
) -> tuple[tuple[int, ...], Transformation]:
    """Solved grids: the column order searched on the second row, cell by cell, against the best so far.

    A *root* is a transposition, a band and its first two rows (36). Its
    second row starts ``456`` when the three columns of a stack take their
    digits from one stack of the first row (a *pure* root), else ``457``:
    the pure roots are walked first, and the others then only when no root
    is pure. Within a root, only the first stack's column orders that give
    that start are walked (the pair of columns sharing a stack of the first
    row first, when the root is not pure).
    """
    state: dict[str, Any] = {"best": None, "gen": 0, "winner": None}
    roots = []
    for t in range(2):
        g = grids[t]
        for band in range(3):
            for r0, r1 in permutations(range(band * 3, band * 3 + 3), 2):
                r2 = 9 * band + 3 - r0 - r1  # the band's third row: its rows sum to 9 * band + 3
                pos0 = [0] * 10
                for c in range(9):
                    pos0[g[r0][c]] = c
                f = [pos0[g[r1][c]] for c in range(9)]
                pure = any(f[3 * k] // 3 == f[3 * k + 1] // 3 == f[3 * k + 2] // 3 for k in range(3))
                roots.append((not pure, t, band, (r0, r1, r2), f))
    roots.sort(key=lambda root: root[0])  # stable: the pure roots first, each kind in its walking order
    for impure, t, band, rows, f in roots:
        check()
        if impure and state["best"] is not None and state["best"][1][2] == 6:
            break  # a pure root gave 456...: the others give 457...
        for c0 in range(9):
            for c1 in range(c0 // 3 * 3, c0 // 3 * 3 + 3):
                if c1 == c0 or (impure and f[c0] // 3 != f[c1] // 3):
                    continue
                c2 = c0 // 3 * 9 + 3 - c0 - c1
                _grid_search(state, grids[t], t, rows, band, f, (c0, c1, c2))
    best, winner = state["best"], state["winner"]
    t, rows, src_at, labels = winner
    out = tuple(v for row in best for v in row)
    return out, Transformation(bool(t), rows, src_at, _full_digits(labels, 9))


def _grid_search(
    state: dict[str, Any],
    g: list[list[int]],
    t: int,
    band_rows: tuple[int, int, int],
    band: int,
    f: list[int],
    start: tuple[int, int, int],
) -> None:
    """Walk the column orders of one root whose first stack is ``start`` (source columns), best kept in ``state``."""
    tpos = [-1] * 9  # source column -> target column
    src_at = [-1] * 9  # target column -> source column
    spos = [-1] * 3  # source stack -> target stack
    row1 = [0] * 9

    def place(c: int, j: int) -> None:
        tpos[c] = j
        src_at[j] = c

    def value_of(c: int, undo: list[tuple[str, int]]) -> int:
        target = f[c]
        if tpos[target] >= 0:
            return tpos[target]
        s = target // 3
        if spos[s] < 0:
            free = min(k for k in range(3) if k not in spos)
            spos[s] = free
            undo.append(("s", s))
        ts = spos[s]
        j = next(j for j in range(ts * 3, ts * 3 + 3) if src_at[j] < 0)
        place(target, j)
        undo.append(("c", target))
        return j

    def rollback(undo: list[tuple[str, int]]) -> None:
        for kind, x in reversed(undo):
            if kind == "s":
                spos[x] = -1
            else:
                src_at[tpos[x]] = -1
                tpos[x] = -1

    def leaf(eq: bool) -> None:
        label = [0] * 10
        for c in range(9):
            label[g[band_rows[0]][c]] = tpos[c] + 1
        rows = [[label[g[r][src_at[j]]] for j in range(9)] for r in range(9)]
        others = [b for b in range(3) if b != band]
        bands = sorted(others, key=lambda b: min(rows[r][0] for r in range(b * 3, b * 3 + 3)))
        order = list(band_rows)
        for b in bands:
            order.extend(sorted(range(b * 3, b * 3 + 3), key=lambda r: rows[r][0]))
        candidate = [rows[r] for r in order]
        best = state["best"]
        if best is None or not eq or candidate < best:
            state["best"] = candidate
            state["gen"] += 1
            labels = {g[band_rows[0]][c]: tpos[c] + 1 for c in range(9)}
            state["winner"] = (t, tuple(order), tuple(src_at), labels)

    def dfs(j: int, eq: bool) -> None:
        if j == 9:
            leaf(eq)
            return
        if src_at[j] >= 0:
            choices = [src_at[j]]
        elif j < 3:
            choices = [start[j]]
        elif j % 3 == 0:
            choices = [c for c in range(9) if spos[c // 3] < 0]
        else:
            s = spos.index(j // 3)
            choices = [c for c in range(s * 3, s * 3 + 3) if tpos[c] < 0]
        for c in choices:
            undo: list[tuple[str, int]] = []
            if src_at[j] < 0:
                if spos[c // 3] < 0:
                    spos[c // 3] = j // 3
                    undo.append(("s", c // 3))
                place(c, j)
                undo.append(("c", c))
            v = value_of(c, undo) + 1
            best = state["best"]
            now_eq = eq and best is not None
            if now_eq:
                assert best is not None
                if v > best[1][j]:
                    rollback(undo)
                    continue
                now_eq = v == best[1][j]
            row1[j] = v
            gen = state["gen"]
            dfs(j + 1, now_eq)
            if state["gen"] != gen:
                eq = True  # a better leaf under this prefix: the best now shares it
            rollback(undo)

    dfs(0, state["best"] is not None)


# -- 4x4 and 6x6: the whole group -------------------------------------------------------


def _line_orders(n: int, per: int) -> list[tuple[int, ...]]:
    """Every order of n lines in chutes of ``per`` lines: chute order, then lines within each chute."""
    chutes = n // per
    out = []
    for chute_order in permutations(range(chutes)):
        for inner in product(*(list(permutations(range(per))) for _ in range(chutes))):
            out.append(tuple(chute * per + inner[k][i] for k, chute in enumerate(chute_order) for i in range(per)))
    return out


def _small(grid: Grid) -> Canonical:
    """Walk every geometric transformation of a 4x4 or 6x6 grid: the smallest pattern, then digits."""
    n, br, bc = grid.size, grid.box_rows, grid.box_cols
    cells = grid.cells
    transposes = (False, True) if br == bc else (False,)
    row_orders = _line_orders(n, br)
    col_orders = _line_orders(n, bc)
    if br > bc:  # 3x2 boxes: turned a quarter first, so that its form is a grid of 2x3 boxes, as any 6x6's is
        transposes, row_orders, col_orders = (True,), col_orders, row_orders  # (break-session finding: a
        # 3x2 form was read as 2x3, and a 3x2 puzzle and another 2x3 one shared a form)
    best_key: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    winner: Transformation | None = None
    for transpose in transposes:
        for rows in row_orders:
            for cols in col_orders:
                if transpose:
                    source = [cells[c * n + r] for r in rows for c in cols]
                else:
                    source = [cells[r * n + c] for r in rows for c in cols]
                labels: dict[int, int] = {}
                values = []
                for d in source:
                    if d and d not in labels:
                        labels[d] = len(labels) + 1
                    values.append(labels[d] if d else 0)
                key = (tuple(1 if d else 0 for d in source), tuple(values))
                if best_key is None or key < best_key:
                    best_key = key
                    winner = Transformation(transpose, rows, cols, _full_digits(labels, n))
    assert winner is not None
    return Canonical(Grid(winner.apply(grid).cells, min(br, bc), max(br, bc)), winner)
