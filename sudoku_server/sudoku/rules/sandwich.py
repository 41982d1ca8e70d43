"""``sandwich``: the digits between the 1 and the 9 of a row or column sum to its clue.

A clue outside the grid, beside a row or above or below a column, gives the
sum of the digits strictly between the row's (column's) 1 and 9, in
whichever order they come; 0 says the 1 and the 9 touch. On grids of other
sizes the lowest and the highest digit take their place (1 and 4 on 4x4, 1
and 16 on 16x16).

Its marks are the clue's row or column, every cell, from the clue's side
(a clue left of row 3: ``r3c1`` .. ``r3c9``; right of it: ``r3c9`` ..
``r3c1``), ``value`` the sum (f-puzzles ``sandwichsum``: ``cell`` ``R3C0``,
``R3C10``, ``R0C5`` or ``R10C5``, and ``value``; the line syntax
``sandwich=r3:15;c5:0``, clues left of a row and above a column). Each
compiles to one :class:`~sudoku_server.sudoku.constraints.Between` (the only
rule that needs that kind: which cells add up depends on where two digits
fall), named ``sandwich r3``, so a broken one reads ``sandwich r3: the
digits between 1 at r3c2 and 9 at r3c4 sum to 5, not 15``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence

from sudoku_server.errors import InvalidPuzzleError, quote
from sudoku_server.sudoku.constraints import Between, Broken, Constraint
from sudoku_server.sudoku.rules._making import shuffled
from sudoku_server.sudoku.rules._marks import MAX_VALUE, Read, fp_cell, fp_entries, fp_value, marks_of, new_mark
from sudoku_server.sudoku.rules._native_marks import NativeParts
from sudoku_server.sudoku.rules.base import BLIND, Build, Compiled, Making, Mark, Random, Rule, StepWords, Words


def line_of(size: int, cells: tuple[int, ...]) -> str:
    """``r3`` or ``c5``: the row or column a sandwich mark covers (its first two cells say which)."""
    a, b = cells[0], cells[1]
    return f"r{a // size + 1}" if a // size == b // size else f"c{a % size + 1}"


@functools.lru_cache(maxsize=32)
def sums(size: int) -> frozenset[int]:
    """Every sum some set of the digits strictly between 1 and ``size`` makes (0: the empty set)."""
    made = {0}
    for d in range(2, size):
        made |= {s + d for s in made}
    return frozenset(made)


def _compile(build: Build) -> Compiled:
    size = build.size
    out: list[tuple[Constraint, str]] = []
    for k, m in enumerate(marks_of(build, RULE.word)):
        name = f"sandwich {line_of(size, m.cells)}"
        if m.value not in sums(size):
            raise InvalidPuzzleError(f"{name}: no digits between 1 and {size} sum to {m.value}")
        out.append((Between(m.cells, 1, size, m.value, k), name))
    return out


def _ends(broken: Broken, w: Words) -> tuple[str, int]:
    """``1 at r3c2 and 9 at r3c4`` (low first) and the sum of the cells between them."""
    first, *inner, last = broken.cells
    low, high = (first, last) if w.cells[first] < w.cells[last] else (last, first)
    return f"{w.at(low)} and {w.at(high)}", sum(w.cells[c] for c in inner)


def _given(broken: Broken, w: Words) -> str:
    assert isinstance(broken.constraint, Between)
    constraint, cells = broken.constraint, broken.cells
    if len(cells) == 2 and w.cells[cells[0]] == w.cells[cells[1]]:
        return f"{w.name}: {w.at(cells[0])} and {w.at(cells[1])}, one {w.symbol(w.cells[cells[0]])} too many"
    ends, total = _ends(broken, w)
    a, b = constraint.cells.index(cells[0]), constraint.cells.index(cells[-1])
    if b - a - 1 == len(cells) - 2:  # every cell between them given
        return f"{w.name}: the digits between {ends} sum to {total}, not {constraint.total}"
    return f"{w.name}: the givens between {ends} sum to {total}, over {constraint.total}"


def _solution(broken: Broken, w: Words) -> str:
    assert isinstance(broken.constraint, Between)
    constraint = broken.constraint
    if broken.cells == constraint.cells:
        return f"{w.name} lacks {w.symbol(constraint.low)} or {w.symbol(constraint.high)}"
    ends, total = _ends(broken, w)
    return f"{w.name}: the digits between {ends} sum to {total}, not {constraint.total}"


@functools.lru_cache(maxsize=512)
def _line(size: int, row: int, column: int) -> tuple[int, ...]:
    """The cells of the row or column a clue outside the grid at (``row``, ``column``), 0-based, points along."""
    if column in (-1, size):
        cells = tuple(row * size + c for c in range(size))
        return cells if column < 0 else cells[::-1]
    cells = tuple(r * size + column for r in range(size))
    return cells if row < 0 else cells[::-1]


def _fpuzzles(data: Mapping[str, object], size: int) -> Read:
    marks = []
    seen: dict[str, int] = {}  # "r3": the entry that clues row 3 (either side)
    for k, entry in enumerate(fp_entries(data, "sandwichsum"), 1):
        where = f'"sandwichsum" entry {k}'
        value = fp_value(entry, -1, where)
        if value < 0:
            continue  # a clue without a sum says nothing
        r, c = fp_cell(entry.get("cell"), size, where, outside=True)
        if (r in (-1, size)) == (c in (-1, size)):  # inside the grid, or a corner
            raise ValueError(f"{where}: {quote(str(entry.get('cell')))} is not beside a row or a column")
        clued = f"r{r + 1}" if c in (-1, size) else f"c{c + 1}"
        if clued in seen:  # as the line syntax (break-session finding: both sides, or twice, were both kept)
            raise ValueError(f"{where}: {clued} appears twice (entry {seen[clued]} clues it too)")
        seen[clued] = k
        marks.append(Mark(RULE.word, _line(size, r, c), value))
    return tuple(marks), frozenset()


_CLUE = re.compile(r"([rc])(\d+):(\d+)")


def _syntax(text: str, size: int) -> tuple[Mark, ...]:
    marks = []
    seen: set[tuple[str, int]] = set()  # ("r", 3): a row or column clued once
    for k, item in enumerate(text.split(";"), 1):
        head, _, tail = item.partition(":")
        if head[1:].isdigit() and tail.isdigit() and head[:1] in "rcRC" and len(head) <= 3 and len(tail) <= 3:
            index = int(head[1:])  # the common case, read without a regex
            if 1 <= index <= size and (head[0].lower(), index) not in seen:
                seen.add((head[0].lower(), index))
                row, column = (index - 1, -1) if head[0] in "rR" else (-1, index - 1)
                marks.append(new_mark(RULE.word, _line(size, row, column), int(tail)))
                continue
        match = _CLUE.fullmatch(item.strip().lower())
        where = f"{RULE.word}= mark {k}"
        if match is None:
            raise ValueError(f"{where}: {quote(item)} is not r<row>:<sum> or c<column>:<sum>")
        kind, index, value = match.group(1), int(match.group(2)), match.group(3)
        if not 1 <= index <= size:
            raise ValueError(f"{where}: {kind}{index} is not a {'row' if kind == 'r' else 'column'} of the grid")
        if len(value) > 5 or int(value) > MAX_VALUE:
            raise ValueError(f"{where}: {quote(value[:12])} is over {MAX_VALUE}")
        if (kind, index) in seen:
            raise ValueError(f"{where}: {kind}{index} appears twice")
        seen.add((kind, index))
        row, column = (index - 1, -1) if kind == "r" else (-1, index - 1)
        marks.append(Mark(RULE.word, _line(size, row, column), int(value)))
    return tuple(marks)


def _native(text: str, size: int, parts: NativeParts) -> bool:
    """``_compile`` of ``syntax``'s clues (the rule's own reading), straight to the native arrays
    (:mod:`._native_marks`); False for clues it refuses, or a sum no digits make."""
    try:
        marks = _syntax(text, size)
    except ValueError:
        return False
    made = sums(size)
    between = parts.between
    for m in marks:
        if m.value not in made:
            return False
        between += (len(m.cells), 1, size, m.value, *m.cells)
    return True


def _fpuzzles_out(marks: tuple[Mark, ...], size: int) -> dict[str, object]:
    entries: list[dict[str, object]] = []
    for m in marks:
        r, c = divmod(m.cells[0], size)
        step = m.cells[1] - m.cells[0]
        if abs(step) == 1:  # a row, from the left (step 1) or the right
            cell = f"R{r + 1}C{0 if step > 0 else size + 1}"
        else:
            cell = f"R{0 if step > 0 else size + 1}C{c + 1}"
        entries.append({"cell": cell, "value": m.value})
    return {"sandwichsum": entries} if entries else {}


def _made(solution: Sequence[int], size: int, rng: Random) -> tuple[Mark, ...]:
    """GENERATE's clues: ``size + 1`` of the rows and columns drawn from ``rng``, each with the sum of the digits
    of ``solution`` between its lowest and highest digit."""
    lines = [_line(size, r, -1) for r in range(size)] + [_line(size, -1, c) for c in range(size)]
    marks = []
    for cells in shuffled(lines, rng)[: size + 1]:
        digits = [solution[c] for c in cells]
        low, high = sorted((digits.index(1), digits.index(size)))
        marks.append(Mark(RULE.word, cells, sum(digits[low + 1 : high])))
    return tuple(sorted(marks, key=lambda m: (m.cells[1] - m.cells[0] != 1, m.cells[0])))


def _syntax_out(marks: tuple[Mark, ...], size: int) -> str:
    """The inverse of :func:`_syntax`: ``r3:12;c5:0`` (a row when its first two cells are side by side)."""
    out = []
    for m in marks:
        a, b = m.cells[0], m.cells[1]
        out.append(f"r{a // size + 1}:{m.value}" if a // size == b // size else f"c{a % size + 1}:{m.value}")
    return ";".join(out)


RULE = Rule(
    word="sandwich",
    summary="the digits between the 1 and the 9 of a row or column sum to its clue (lowest and highest digit)",
    data="marks",
    constraints=_compile,
    given_words=_given,
    solution_words=_solution,
    off=("unique rectangle", "BUG", *BLIND),
    step=StepWords("sandwich", 2.5, "cells between its 1 and 9"),
    missing="a sandwich puzzle needs its clues",
    formats={"f-puzzles": ("sandwichsum",)},
    fpuzzles=_fpuzzles,
    fpuzzles_out=_fpuzzles_out,
    syntax=_syntax,
    draw={"kind": "outside sums"},
    syntax_out=_syntax_out,
    native=_native,
    making=Making(exact=True, marks=_made, noun="sandwich clues"),
)
