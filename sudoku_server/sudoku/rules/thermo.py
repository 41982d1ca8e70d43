"""``thermo``: along a thermometer the digits strictly increase from the bulb.

Its marks are lines, the bulb first (f-puzzles ``thermometer``, its
``lines``). Each line compiles to one
:class:`~sudoku_server.sudoku.constraints.Relation` over its consecutive
cells ``(lower, higher)``, the table ``a < b``: strict increase step by step
is strict increase along the line. The relation is named
``thermometer r1c1-r1c4`` (its bulb and its tip), so a broken one reads
``thermometer r1c1-r1c4: 7 at r1c2 is not below 5 at r1c3``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from sudoku_server.sudoku.constraints import Broken, Constraint, relation_table
from sudoku_server.sudoku.rules._making import random_lines, syntax_text
from sudoku_server.sudoku.rules._marks import (
    Read,
    fp_lines,
    fp_out_lines,
    line_apart,
    line_name,
    marks_of,
    new_relation,
    syntax_lines,
)
from sudoku_server.sudoku.rules._native_marks import NativeParts, native_lines, steps
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


@functools.lru_cache(maxsize=32)
def _table(size: int) -> tuple[int, ...]:
    """The table ``a < b`` (cached: a request compiles its thermometers once, issue 29's fast path)."""
    return relation_table(size, test=lambda a, b: a < b)


def _compile(build: Build) -> Compiled:
    size = build.size
    table = _table(size)
    out: list[tuple[Constraint, str]] = []
    for k, mark in enumerate(marks_of(build, RULE.word)):
        pairs = tuple(zip(mark.cells, mark.cells[1:]))
        if pairs:
            relation = new_relation(pairs, table, (k,) * len(pairs))
            out.append((relation, f"thermometer {line_name(size, mark.cells)}"))
    return out


def _native(text: str, size: int, parts: NativeParts) -> bool:
    """``_compile`` of ``syntax``'s marks, straight to the native arrays (:mod:`._native_marks`): the steps of
    each line, bulb first, under ``a < b``."""
    lines = native_lines(text, size)
    if lines is None:
        return False
    table = _table(size)
    parts.relate(steps(lines), table)  # one table: the lines' steps in order
    return True


def _given(broken: Broken, w: Words) -> str:
    a, b = broken.cells
    return f"{w.name}: {w.at(a)} is not below {w.at(b)}"


def _solution(broken: Broken, w: Words) -> str:
    a, b = broken.cells
    return f"{w.name}: {w.cell(a)} holds {w.symbol(w.cells[a])}, not below {w.symbol(w.cells[b])} at {w.cell(b)}"


def _check(mark: Mark, size: int) -> str:
    """A thermometer longer than the digits (no rising run fills it: refused at once, not searched), or broken."""
    if len(mark.cells) > size:
        return f"has {len(mark.cells)} cells, more than the {size} digits"
    return line_apart(mark, size)


def _fpuzzles(data: Mapping[str, object], size: int) -> Read:
    return fp_lines(data, "thermometer", size, RULE.word, check=_check)


def _made(solution: Sequence[int], size: int, rng: Random) -> tuple[Mark, ...]:
    """GENERATE's thermometers: up to ``size - 1`` walks of 3 to 6 cells along rising digits of ``solution``."""
    lines = random_lines(
        size, rng, size - 1, (3, 6), lambda line: len(line) < 2 or solution[line[-2]] < solution[line[-1]]
    )
    return tuple(Mark(RULE.word, line) for line in lines)


RULE = Rule(
    word="thermo",
    summary="along a thermometer the digits strictly increase from the bulb",
    data="marks",
    constraints=_compile,
    given_words=_given,
    solution_words=_solution,
    off=("unique rectangle", "BUG", *BLIND),
    step=StepWords("thermometer", 2.3, "neighbours on its thermometer"),
    line=StepWords("thermometer bounds", 2.3, "its digits rise from the bulb", kind="rising"),
    missing="a thermometer puzzle needs its thermometers",
    formats={"f-puzzles": ("thermometer",)},
    fpuzzles=_fpuzzles,
    fpuzzles_out=fp_out_lines("thermometer"),
    syntax=syntax_lines("thermo", check=_check, value=None),
    draw={"kind": "lines", "shape": "thermometer"},
    syntax_out=lambda marks, size: syntax_text(marks, size),
    making=Making(exact=True, marks=_made, noun="thermometers"),
    native_shape=NativeShape("steps", lambda size, _cells: _table(size)),
    native=_native,
)
