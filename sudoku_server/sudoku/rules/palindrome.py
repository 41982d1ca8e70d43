"""``palindrome``: a palindrome line reads the same from both ends.

Marks: lines (f-puzzles ``palindrome``). Each line compiles to one
:class:`~sudoku_server.sudoku.constraints.Relation` of equality over the
pairs of cells at the same distance from its two ends (``palindrome r1c1-r1c5``).
"""

from __future__ import annotations

import functools
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


@functools.lru_cache(maxsize=32)
def _table(size: int) -> tuple[int, ...]:
    """The table of equality (cached)."""
    return relation_table(size, [(d, d) for d in range(1, size + 1)])


def _compile(build: Build) -> Compiled:
    size = build.size
    table = _table(size)
    out: list[tuple[Constraint, str]] = []
    for k, m in enumerate(marks_of(build, RULE.word)):
        pairs = tuple((m.cells[i], m.cells[-1 - i]) for i in range(len(m.cells) // 2))
        if pairs:
            out.append((Relation(pairs, table, (k,) * len(pairs)), f"palindrome {line_name(size, m.cells)}"))
    return out


_GIVEN, _SOLUTION = relation_words(lambda da, db: "differ, at the same distance from the two ends")


def _native(text: str, size: int, parts: NativeParts) -> bool:
    """``_compile`` of ``syntax``'s marks, straight to the native arrays (:mod:`._native_marks`): the cells at
    the same distance from the two ends, equal."""
    lines = native_lines(text, size)
    if lines is None:
        return False
    table = _table(size)
    parts.relate([c for cells in lines for i in range(len(cells) // 2) for c in (cells[i], cells[-1 - i])], table)
    return True


def _fpuzzles(data: Mapping[str, object], size: int) -> Read:
    return fp_lines(data, "palindrome", size, RULE.word, check=line_apart)


def _made(solution: Sequence[int], size: int, rng: Random) -> tuple[Mark, ...]:
    """GENERATE's palindromes: up to ``size - 2`` walks of 3 to 5 cells whose digits read the same from both ends
    (most walks are not: :func:`~._making.random_lines` tries 40 a line)."""

    def same_both_ways(line: Sequence[int]) -> bool:
        digits = [solution[c] for c in line]
        return digits == digits[::-1]

    lines = random_lines(size, rng, size - 2, (3, 5), lambda line: True, same_both_ways)
    return tuple(Mark(RULE.word, line) for line in lines)


RULE = Rule(
    word="palindrome",
    summary="a palindrome line reads the same from both ends",
    data="marks",
    constraints=_compile,
    given_words=_GIVEN,
    solution_words=_SOLUTION,
    off=("unique rectangle", "BUG", *BLIND),
    step=StepWords("palindrome", 2.2, "mirror cells on its palindrome"),
    missing="a palindrome puzzle needs its lines",
    formats={"f-puzzles": ("palindrome",)},
    fpuzzles=_fpuzzles,
    fpuzzles_out=fp_out_lines("palindrome"),
    syntax=syntax_lines("palindrome", check=line_apart, value=None),
    draw={"kind": "lines", "shape": "palindrome"},
    syntax_out=lambda marks, size: syntax_text(marks, size),
    making=Making(exact=True, marks=_made, noun="palindromes"),
    native_shape=NativeShape("ends", lambda size, _cells: _table(size)),
    native=_native,
)
