"""``littlekiller``: the digits along a little killer diagonal sum to its clue; digits may repeat.

Marks: the diagonal's cells, from one step past the clue to the edge, and
``value`` the sum (f-puzzles ``littlekillersum``: ``cell`` outside the grid,
``direction``, ``value``; the f-puzzles reader walks the diagonal). Each
compiles to one :class:`~sudoku_server.sudoku.constraints.Sum`, not distinct
(``little killer r1c2-r8c9 sum 15``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sudoku_server.errors import InvalidPuzzleError
from sudoku_server.sudoku.constraints import Broken, Constraint, Sum
from sudoku_server.sudoku.rules._making import shuffled, syntax_text
from sudoku_server.sudoku.rules._marks import (
    Read,
    fp_cell,
    fp_entries,
    fp_value,
    line_name,
    marks_of,
    syntax_lines,
)
from sudoku_server.sudoku.rules._native_marks import NativeParts
from sudoku_server.sudoku.rules.base import (
    BLIND,
    Build,
    Compiled,
    Making,
    Mark,
    NativeShape,
    Random,
    Rule,
    StepWords,
    Words,
)


def _compile(build: Build) -> Compiled:
    size = build.size
    out: list[tuple[Constraint, str]] = []
    for k, m in enumerate(marks_of(build, RULE.word)):
        name = f"little killer {line_name(size, m.cells)} sum {m.value}"
        n = len(m.cells)
        if not n <= m.value <= n * size:  # refused before the search, as a sandwich sum no digits make
            cells = f"{n} cell{'s' if n > 1 else ''}"
            raise InvalidPuzzleError(f"{name}: digits 1-{size} on its {cells} sum to {n} to {n * size} only")
        out.append((Sum(m.cells, m.value, False, (), k), name))
    return out


def _given(broken: Broken, w: Words) -> str:
    return f"{w.name}: its givens sum to {sum(w.cells[c] for c in broken.cells)}"


def _solution(broken: Broken, w: Words) -> str:
    return f"{w.name}: its digits sum to {sum(w.cells[c] for c in broken.cells)}"


_STEPS = {"UR": (-1, 1), "UL": (-1, -1), "DR": (1, 1), "DL": (1, -1)}


def _diagonal(mark: Mark, size: int) -> str:
    """What keeps a mark's cells from being a little killer diagonal (``""`` when they are one): each cell one
    diagonal step after the one before, in one direction, from an edge of the grid to an edge."""
    cells = mark.cells
    rows, cols = [c // size for c in cells], [c % size for c in cells]
    if len(cells) == 1:  # a corner's diagonal of one cell (from the clue beside it, away from the grid)
        corner = rows[0] in (0, size - 1) and cols[0] in (0, size - 1)
        return "" if corner else "does not run from an edge of the grid to an edge"
    step = (rows[1] - rows[0], cols[1] - cols[0])
    dr, dc = step
    if (
        abs(dr) != 1
        or abs(dc) != 1
        or any((rows[i + 1] - rows[i], cols[i + 1] - cols[i]) != step for i in range(len(cells) - 1))
    ):
        return "is not a diagonal (each cell one diagonal step after the one before, in one direction)"
    inside = range(size)
    if (rows[0] - dr in inside and cols[0] - dc in inside) or (rows[-1] + dr in inside and cols[-1] + dc in inside):
        return "does not run from an edge of the grid to an edge"
    return ""


_SYNTAX = syntax_lines("littlekiller", 1, check=_diagonal, value="sum", required=True)


def _native(text: str, size: int, parts: NativeParts) -> bool:
    """``_compile`` of ``syntax``'s marks (the rule's own reading), straight to the native arrays
    (:mod:`._native_marks`); False for marks it refuses."""
    try:
        marks = _SYNTAX(text, size)
    except ValueError:
        return False
    sums = parts.sums
    for m in marks:
        if not len(m.cells) <= m.value <= len(m.cells) * size:
            return False  # ``_compile`` words it
        sums += (len(m.cells), m.value, 0, *m.cells, *(1,) * len(m.cells))
    return True


def _fpuzzles(data: Mapping[str, object], size: int) -> Read:
    marks = []
    for k, entry in enumerate(fp_entries(data, "littlekillersum"), 1):
        where = f'"littlekillersum" entry {k}'
        value = fp_value(entry, -1, where)
        if value < 0:
            continue  # a clue without a sum says nothing
        r, c = fp_cell(entry.get("cell"), size, where, outside=True)
        if 0 <= r < size and 0 <= c < size:  # a clue sits outside the grid, before its diagonal
            raise ValueError(f"{where}: R{r + 1}C{c + 1} is a cell of the grid, not one outside it")
        step = _STEPS.get(str(entry.get("direction", "")).upper())
        if step is None:
            raise ValueError(f"{where}: direction {entry.get('direction')!r} is not UR, UL, DR or DL")
        cells = []
        r, c = r + step[0], c + step[1]
        while 0 <= r < size and 0 <= c < size:
            cells.append(r * size + c)
            r, c = r + step[0], c + step[1]
        if not cells:
            raise ValueError(f"{where}: its diagonal misses the grid")
        marks.append(Mark(RULE.word, tuple(cells), value))
    return tuple(marks), frozenset()


def _fpuzzles_out(marks: tuple[Mark, ...], size: int) -> dict[str, object]:
    entries: list[dict[str, object]] = []
    for m in marks:
        first = m.cells[0]
        r, c = divmod(first, size)
        inside = range(size)
        dr, dc = next(
            step
            for step in _STEPS.values()
            if (r - step[0] not in inside or c - step[1] not in inside)
            and (len(m.cells) == 1 or m.cells[1] == first + step[0] * size + step[1])
            and (len(m.cells) > 1 or r + step[0] not in inside or c + step[1] not in inside)
        )
        direction = next(name for name, step in _STEPS.items() if step == (dr, dc))
        entries.append({"cell": f"R{r - dr + 1}C{c - dc + 1}", "direction": direction, "value": m.value})
    return {"littlekillersum": entries} if entries else {}


def _made(solution: Sequence[int], size: int, rng: Random) -> tuple[Mark, ...]:
    """GENERATE's little killers: ``size - 1`` diagonals from the grid's edge drawn from ``rng`` (2 cells or
    more, none twice), each with its sum in ``solution``."""
    diagonals = []
    for r, c, dr, dc in _clues(size):
        cells = []
        while 0 <= r < size and 0 <= c < size:
            cells.append(r * size + c)
            r, c = r + dr, c + dc
        if len(cells) >= 2:
            diagonals.append(tuple(cells))
    chosen = shuffled(sorted(set(diagonals)), rng)[: size - 1]
    return tuple(Mark(RULE.word, cells, sum(solution[c] for c in cells)) for cells in chosen)


def _clues(size: int) -> list[tuple[int, int, int, int]]:
    """Every diagonal's first cell and step ``(r, c, dr, dc)`` from a clue outside the grid."""
    out = []
    for k in range(size):
        for dr, dc in ((1, 1), (1, -1)):
            out.append((0, k, dr, dc))  # from above
        for dr, dc in ((-1, 1), (-1, -1)):
            out.append((size - 1, k, dr, dc))  # from below
    return out


RULE = Rule(
    word="littlekiller",
    summary="the digits along a little killer diagonal sum to its clue; digits may repeat",
    data="marks",
    constraints=_compile,
    given_words=_given,
    solution_words=_solution,
    off=("unique rectangle", "BUG", *BLIND),
    step=StepWords("little killer", 2.4, "its digits cannot make its sum"),
    missing="a little killer puzzle needs its diagonals",
    formats={"f-puzzles": ("littlekillersum",)},
    fpuzzles=_fpuzzles,
    fpuzzles_out=_fpuzzles_out,
    syntax=_SYNTAX,
    draw={"kind": "diagonal sums"},
    syntax_out=lambda marks, size: syntax_text(marks, size, lambda m: str(m.value)),
    native=_native,
    native_shape=NativeShape("diagonal"),
    making=Making(marks=_made, noun="little killer sums"),
)
