"""``whispers``: neighbours along a German whispers line differ by at least its value (5 on 9x9).

Marks: lines (f-puzzles ``whispers``, ``value`` default 5; our default is
``size // 2 + 1``, 5 on 9x9). Each line compiles to one
:class:`~sudoku_server.sudoku.constraints.Relation` over its consecutive
cells, the table ``|a - b| >= value``, named with its value: ``whispers
r1c1-r1c4 (at least 5 apart): 1 at r1c1 and 5 at r1c2 differ by 4``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from sudoku_server.errors import quote
from sudoku_server.sudoku.constraints import Constraint, Relation, relation_table
from sudoku_server.sudoku.rules._making import random_lines, syntax_text
from sudoku_server.sudoku.rules._marks import (
    Read,
    fp_entries,
    fp_lines,
    fp_out_lines,
    fp_value,
    line_apart,
    line_name,
    marks_of,
    relation_words,
    syntax_lines,
)
from sudoku_server.sudoku.rules._native_marks import NativeParts, native_lines, steps
from sudoku_server.sudoku.rules.base import BLIND, Build, Compiled, Making, Mark, NativeShape, Random, Rule, StepWords


@functools.lru_cache(maxsize=256)
def _table(size: int, v: int) -> tuple[int, ...]:
    """The table ``|a - b| >= v`` (cached)."""
    return relation_table(size, [(a, b) for a in range(1, size + 1) for b in range(1, size + 1) if abs(a - b) >= v])


def _compile(build: Build) -> Compiled:
    size = build.size
    out: list[tuple[Constraint, str]] = []
    for k, m in enumerate(marks_of(build, RULE.word)):
        v = m.value or size // 2 + 1
        pairs = tuple(zip(m.cells, m.cells[1:]))
        if pairs:
            table = _table(size, v)
            out.append(
                (Relation(pairs, table, (k,) * len(pairs)), f"whispers {line_name(size, m.cells)} (at least {v} apart)")
            )
    return out


_GIVEN, _SOLUTION = relation_words(lambda da, db: f"differ by {abs(da - db)}")


def _native(text: str, size: int, parts: NativeParts) -> bool:
    """``_compile`` of ``syntax``'s marks without a value (at least ``size // 2 + 1`` apart), straight to the
    native arrays (:mod:`._native_marks`)."""
    lines = native_lines(text, size)
    if lines is None:
        return False
    table = _table(size, size // 2 + 1)
    parts.relate(steps(lines), table)  # one table: the lines' steps in order
    return True


def _zero_refused(size: int) -> str:
    """Why a difference of 0 is refused (s9-break finding 10: it was read as no value, the default)."""
    return f"a difference is 1 or more (none written: {size // 2 + 1})"


def _too_far(size: int, value: int) -> str:
    """A difference no two digits make (s9-break finding 2: it was searched, ``unsolvable``)."""
    return f"no two digits of 1-{size} differ by {value} or more"


_read_syntax = syntax_lines("whispers", default=-1, check=line_apart)  # -1: no :value written


def _syntax(text: str, size: int) -> tuple[Mark, ...]:
    """The line syntax, ``whispers=r1c1-r1c2[:value];...``; ``:0`` is refused, naming the mark."""
    marks = _read_syntax(text, size)
    for k, mark in enumerate(marks, 1):
        if mark.value == 0:
            raise ValueError(f"whispers= mark {k}: :0 is refused, {_zero_refused(size)}")
        if mark.value >= size:
            raise ValueError(f"whispers= mark {k}: {_too_far(size, mark.value)}")
    return tuple(Mark(m.rule, m.cells, max(m.value, 0), m.kind) for m in marks)


def _fpuzzles(data: Mapping[str, object], size: int) -> Read:
    for k, entry in enumerate(fp_entries(data, "whispers"), 1):
        value = fp_value(entry, -1, f"{quote('whispers')} entry {k}")
        if value == 0:
            raise ValueError(f"{quote('whispers')} entry {k}: value 0 is refused, {_zero_refused(size)}")
        if value >= size:
            raise ValueError(f"{quote('whispers')} entry {k}: {_too_far(size, value)}")
    return fp_lines(data, "whispers", size, RULE.word, 0, check=line_apart)


def _made(solution: Sequence[int], size: int, rng: Random) -> tuple[Mark, ...]:
    """GENERATE's whispers lines: up to ``size - 2`` walks of 3 to 6 cells whose neighbours differ by the default."""
    apart = size // 2 + 1
    lines = random_lines(
        size, rng, size - 2, (3, 6), lambda line: len(line) < 2 or abs(solution[line[-2]] - solution[line[-1]]) >= apart
    )
    return tuple(Mark(RULE.word, line) for line in lines)


RULE = Rule(
    word="whispers",
    summary="neighbours along a German whispers line differ by at least 5 (on 9x9; size // 2 + 1)",
    data="marks",
    constraints=_compile,
    given_words=_GIVEN,
    solution_words=_SOLUTION,
    off=("unique rectangle", "BUG", *BLIND),
    step=StepWords("whispers", 2.3, "neighbours on its whispers line"),
    line=StepWords("whispers neighbours", 2.4, "see each other", kind="apart"),
    missing="a German whispers puzzle needs its lines",
    formats={"f-puzzles": ("whispers",)},
    fpuzzles=_fpuzzles,
    fpuzzles_out=fp_out_lines("whispers"),
    syntax=_syntax,
    draw={"kind": "lines", "shape": "whispers"},
    syntax_out=lambda marks, size: syntax_text(marks, size, lambda m: str(m.value) if m.value else ""),
    making=Making(exact=True, marks=_made, noun="whispers lines"),
    native_shape=NativeShape("steps", lambda size, _cells: _table(size, size // 2 + 1)),
    native=_native,
)
