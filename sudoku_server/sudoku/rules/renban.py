"""``renban``: a renban line's digits are distinct and consecutive, in any order.

Marks: lines (f-puzzles ``renban``). No new kind is needed: a line of L
cells compiles to one :class:`~sudoku_server.sudoku.constraints.Relation`
over every pair of its cells, the table ``a != b and |a - b| <= L - 1``; L
distinct digits within L - 1 of each other are exactly a run of L
consecutive digits. Named ``renban r1c1-r1c4 (4 cells)``.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping, Sequence

from sudoku_server.sudoku.constraints import Constraint, Relation, relation_table
from sudoku_server.sudoku.rules._making import random_lines, syntax_text
from sudoku_server.sudoku.rules._marks import (
    Read,
    fp_lines,
    fp_out_lines,
    line_apart,
    line_name,
    marks_of,
    relation_words,
    syntax_lines,
)
from sudoku_server.sudoku.rules._native_marks import NativeParts, native_lines
from sudoku_server.sudoku.rules.base import BLIND, Build, Compiled, Making, Mark, NativeShape, Random, Rule, StepWords


@functools.lru_cache(maxsize=256)
def _table(size: int, span: int) -> tuple[int, ...]:
    """The table ``a != b and |a - b| <= span`` (cached)."""
    digits = range(1, size + 1)
    return relation_table(size, [(a, b) for a in digits for b in digits if a != b and abs(a - b) <= span])


def _compile(build: Build) -> Compiled:
    size = build.size
    out: list[tuple[Constraint, str]] = []
    for k, m in enumerate(marks_of(build, RULE.word)):
        span = len(m.cells) - 1
        pairs = tuple(itertools.combinations(m.cells, 2))
        if pairs:
            table = _table(size, span)
            out.append(
                (Relation(pairs, table, (k,) * len(pairs)), f"renban {line_name(size, m.cells)} ({len(m.cells)} cells)")
            )
    return out


_GIVEN, _SOLUTION = relation_words(
    lambda da, db: "are the same digit" if da == db else f"differ by {abs(da - db)}, too far apart"
)


def _check(mark: Mark, size: int) -> str:
    """A line longer than the digits (no run of distinct digits fills it: refused at once, not searched), or broken."""
    if len(mark.cells) > size:
        return f"has {len(mark.cells)} cells, more than the {size} digits"
    return line_apart(mark, size)


def _native(text: str, size: int, parts: NativeParts) -> bool:
    """``_compile`` of ``syntax``'s marks, straight to the native arrays (:mod:`._native_marks`): every two
    cells of a line differ by at most its length less one."""
    lines = native_lines(text, size)
    if lines is None or any(len(cells) > size for cells in lines):
        return False
    for cells in lines:
        parts.relate([c for pair in itertools.combinations(cells, 2) for c in pair], _table(size, len(cells) - 1))
    return True


def _fpuzzles(data: Mapping[str, object], size: int) -> Read:
    return fp_lines(data, "renban", size, RULE.word, check=_check)


def _made(solution: Sequence[int], size: int, rng: Random) -> tuple[Mark, ...]:
    """GENERATE's renban lines: up to ``size - 2`` walks of 3 to 5 cells whose digits are distinct and within
    the line's length of each other, kept when they are a run of consecutive digits."""

    def digits(line: Sequence[int]) -> list[int]:
        return [solution[c] for c in line]

    def fits(line: Sequence[int]) -> bool:
        d = digits(line)
        return len(set(d)) == len(d) and max(d) - min(d) < 5

    lines = random_lines(
        size, rng, size - 2, (3, 5), fits, lambda line: max(digits(line)) - min(digits(line)) == len(line) - 1
    )
    return tuple(Mark(RULE.word, line) for line in lines)


RULE = Rule(
    word="renban",
    summary="a renban line's digits are distinct and consecutive, in any order",
    data="marks",
    constraints=_compile,
    given_words=_GIVEN,
    solution_words=_SOLUTION,
    off=("unique rectangle", "BUG", *BLIND),
    step=StepWords("renban", 2.4, "cells on its renban line"),
    line=StepWords("renban run", 2.5, "its digits are a run of consecutive digits", kind="run"),
    missing="a renban puzzle needs its lines",
    formats={"f-puzzles": ("renban",)},
    fpuzzles=_fpuzzles,
    fpuzzles_out=fp_out_lines("renban"),
    syntax=syntax_lines("renban", check=_check, value=None),
    draw={"kind": "lines", "shape": "renban"},
    syntax_out=lambda marks, size: syntax_text(marks, size),
    making=Making(exact=True, marks=_made, noun="renban lines"),
    native_shape=NativeShape("pairs", lambda size, cells: _table(size, cells - 1)),
    native=_native,
)
