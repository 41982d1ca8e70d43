"""``arrow``: the digits along an arrow sum to the number in its bulb; digits may repeat where Sudoku allows.

Marks: the bulb's cells then the line's, ``value`` the number of bulb cells
(1, or 2+ for a pill read as one number, most significant digit first);
an f-puzzles ``arrow`` with several ``lines`` is one mark per line. Each
compiles to one :class:`~sudoku_server.sudoku.constraints.Sum`, not
distinct, total 0: the line's cells weigh 1, the bulb's ``-10^k`` (a pill
of two cells: -10, -1). Named ``arrow r1c1-r1c4`` (bulb to tip).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sudoku_server.sudoku.constraints import Broken, Constraint, Sum
from sudoku_server.sudoku.rules._making import random_lines, syntax_text
from sudoku_server.sudoku.rules._marks import (
    Read,
    _touching,
    cell_name,
    fp_cells,
    fp_entries,
    fp_name,
    line_apart,
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

#: The most cells a bulb (a pill) may have: it reads as a number of that many digits.
MAX_BULB = 4


def _bulb(mark: Mark, size: int) -> str:
    """What keeps a mark from being an arrow (``""`` when it is one): a bulb (the mark's value: its cells, the first
    ones) of 1 to :data:`MAX_BULB` cells that touch each other, then a line that starts beside the bulb, each cell
    touching the next (side by side or corner to corner, as every line: docs/LAYOUTS.md)."""
    bulb, cells = mark.value, mark.cells
    if not 1 <= bulb <= MAX_BULB or bulb >= len(cells):
        most = min(MAX_BULB, len(cells) - 1)
        return f"has a bulb of {bulb} cells (1 to {most} on a line of {len(cells)})"
    near = _touching(size, True)
    joined = {cells[0]}  # a pill's cells, reached from its first through touching ones
    grown = True
    while grown:
        grown = False
        for c in cells[1:bulb]:
            if c not in joined and any((c, d) in near for d in joined):
                joined.add(c)
                grown = True
    if len(joined) < bulb:
        return f"has a bulb of cells that do not touch ({', '.join(cell_name(size, c) for c in cells[:bulb])})"
    if not any((cells[bulb], c) in near for c in cells[:bulb]):
        where = "-".join(cell_name(size, c) for c in cells[:bulb])
        return f"starts its line at {cell_name(size, cells[bulb])}, which does not touch its bulb {where}"
    return line_apart(Mark(mark.rule, cells[bulb:]), size)


_SYNTAX = syntax_lines("arrow", 2, 1, check=_bulb)


def _compile(build: Build) -> Compiled:
    size = build.size
    out: list[tuple[Constraint, str]] = []
    for k, m in enumerate(marks_of(build, RULE.word)):
        bulb = max(m.value, 1)
        weights = tuple(-(10 ** (bulb - 1 - i)) for i in range(bulb)) + (1,) * (len(m.cells) - bulb)
        out.append((Sum(m.cells, 0, False, weights, k), f"arrow {line_name(size, m.cells)}"))
    return out


def _native(text: str, size: int, parts: NativeParts) -> bool:
    """``_compile`` of ``syntax``'s marks (the rule's own reading), straight to the native arrays
    (:mod:`._native_marks`); False for marks it refuses."""
    try:
        marks = _SYNTAX(text, size)
    except ValueError:
        return False
    sums = parts.sums
    for m in marks:
        bulb = max(m.value, 1)
        sums += (len(m.cells), 0, 0, *m.cells, *(-(10 ** (bulb - 1 - i)) for i in range(bulb)))
        sums += (1,) * (len(m.cells) - bulb)
    return True


def _words(broken: Broken, w: Words) -> str:
    constraint = broken.constraint
    assert isinstance(constraint, Sum)
    bulb = [c for c, k in zip(constraint.cells, constraint.weights) if k < 0]
    line = [c for c, k in zip(constraint.cells, constraint.weights) if k > 0]
    number = "".join(w.symbol(w.cells[c]) for c in bulb)
    return f"{w.name}: its line sums to {sum(w.cells[c] for c in line)}, not {number} in its bulb"


def _fpuzzles(data: Mapping[str, object], size: int) -> Read:
    marks = []
    for k, entry in enumerate(fp_entries(data, "arrow"), 1):
        where = f'"arrow" entry {k}'
        bulb = fp_cells(entry.get("cells"), size, where)
        lines = entry.get("lines")
        if not isinstance(lines, list) or not lines:
            raise ValueError(f"{where} has no lines")
        if len(bulb) > MAX_BULB:
            raise ValueError(f"{where}: a bulb of {len(bulb)} cells (at most {MAX_BULB})")
        for line in lines:
            cells = fp_cells(line, size, where)
            start = 0
            while (
                start < len(cells) and cells[start] in bulb
            ):  # the line starts at (in) its bulb, as f-puzzles draws it
                start += 1
            shaft = cells[start:]
            if not shaft:  # as the line syntax: an arrow is its bulb and at least one cell more
                raise ValueError(f"{where} has a line with no cell past its bulb")
            back = next((c for c in shaft if c in bulb), None)
            if back is not None:  # break-session finding: the cell was dropped, the rest of the line kept
                raise ValueError(f"{where}: its line re-enters its bulb at {cell_name(size, back)}")
            mark = Mark(RULE.word, bulb + shaft, len(bulb))
            wrong = _bulb(mark, size)
            if wrong:
                raise ValueError(f"{where} {wrong}")
            marks.append(mark)
    return tuple(marks), frozenset()


def _fpuzzles_out(marks: tuple[Mark, ...], size: int) -> dict[str, object]:
    entries = [
        {"cells": [fp_name(size, c) for c in m.cells[: m.value]], "lines": [[fp_name(size, c) for c in m.cells]]}
        for m in marks
    ]
    return {"arrow": entries} if entries else {}


def _made(solution: Sequence[int], size: int, rng: Random) -> tuple[Mark, ...]:
    """GENERATE's arrows: up to ``size - 3`` walks of 3 to 4 cells, a one-cell bulb first, whose later cells
    sum to the bulb's digit (kept when they reach it)."""

    def fits(line: Sequence[int]) -> bool:
        return sum(solution[c] for c in line[1:]) <= solution[line[0]]

    def done(line: Sequence[int]) -> bool:
        return sum(solution[c] for c in line[1:]) == solution[line[0]]

    lines = random_lines(size, rng, size - 3, (3, 4), fits, done)
    return tuple(Mark(RULE.word, line, 1) for line in lines)


RULE = Rule(
    word="arrow",
    summary="the digits along an arrow sum to the number in its bulb",
    data="marks",
    constraints=_compile,
    given_words=_words,
    solution_words=_words,
    off=("unique rectangle", "BUG", *BLIND),
    step=StepWords("arrow", 2.4, "its line cannot sum to its bulb"),
    missing="an arrow puzzle needs its arrows",
    formats={"f-puzzles": ("arrow",)},
    fpuzzles=_fpuzzles,
    fpuzzles_out=_fpuzzles_out,
    syntax=_SYNTAX,
    draw={"kind": "arrows"},
    syntax_out=lambda marks, size: syntax_text(marks, size, lambda m: str(m.value) if m.value > 1 else ""),
    native_shape=NativeShape("bulb"),
    native=_native,
    making=Making(marks=_made, noun="arrows"),
)
