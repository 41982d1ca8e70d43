"""``xv``: the two neighbours an X joins sum to 10, a V to 5.

Marks: two orthogonal neighbours, ``value`` 10 (X) or 5 (V) (f-puzzles
``xv``, ``value`` ``"X"`` or ``"V"``). A mark with no cells of kind
``"negative"`` (f-puzzles ``"negative": ["xv"]``) says neighbours without a
marker sum to neither. Each marker compiles to one
:class:`~sudoku_server.sudoku.constraints.Relation` (``xv r1c1-r1c2 sum 10``),
the negative constraint to one over every free pair (``xv negative``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from sudoku_server.errors import InvalidPuzzleError
from sudoku_server.sudoku.constraints import Constraint, Relation, relation_table
from sudoku_server.sudoku.rules._making import neighbour_pairs, syntax_text
from sudoku_server.sudoku.rules._marks import (
    Read,
    apart,
    dot_name,
    fp_cells,
    fp_entries,
    fp_name,
    free_pairs,
    marks_of,
    new_mark,
    new_relation,
    relation_words,
    syntax_marks,
)
from sudoku_server.sudoku.rules._native_marks import NativeParts, add_dots, free_flat, native_dots
from sudoku_server.sudoku.rules.base import BLIND, Build, Compiled, Making, Mark, NativeShape, Random, Rule, StepWords


@functools.lru_cache(maxsize=256)
def _sum_table(size: int, value: int) -> tuple[int, ...]:
    """The table ``a + b == value`` (cached)."""
    return relation_table(size, [(a, value - a) for a in range(1, size + 1) if 1 <= value - a <= size])


@functools.lru_cache(maxsize=32)
def _negative_table(size: int) -> tuple[int, ...]:
    """The table ``a + b`` neither 5 nor 10 (cached)."""
    return relation_table(size, test=lambda a, b: a + b not in (5, 10))


def _compile(build: Build) -> Compiled:
    size = build.size
    marks = marks_of(build, RULE.word)
    pairs = tuple(m for m in marks if len(m.cells) == 2)
    out: list[tuple[Constraint, str]] = []
    for k, m in enumerate(pairs):
        table = _sum_table(size, m.value)
        a, b = m.cells
        if m.value > 2 * size - 1:  # an X on 4x4: refused before the search, as a sandwich sum no digits make
            raise InvalidPuzzleError(f"xv {dot_name(size, a, b)} sum {m.value}: no two digits of 1-{size} make it")
        out.append((new_relation(((a, b),), table, (k,)), f"xv {dot_name(size, a, b)} sum {m.value}"))
    if any(not m.cells and m.kind == "negative" for m in marks):
        table = _negative_table(size)
        out.append((Relation(free_pairs(size, pairs), table), "xv negative"))
    return out


_GIVEN, _SOLUTION = relation_words(lambda da, db: f"sum to {da + db}")


def _fpuzzles(data: Mapping[str, object], size: int) -> Read:
    marks = []
    for k, entry in enumerate(fp_entries(data, "xv"), 1):
        where = f'"xv" entry {k}'
        cells = fp_cells(entry.get("cells"), size, where)
        value = {"X": 10, "V": 5}.get(str(entry.get("value", "")).upper())
        if value is None or len(cells) != 2:
            raise ValueError(f"{where} is not an X or a V between two cells")
        if apart(size, cells, False):
            raise ValueError(f"{where}: {apart(size, cells, False)}")
        marks.append(Mark(RULE.word, cells, value))
    negative = data.get("negative")
    if isinstance(negative, list) and "xv" in negative:
        marks.append(Mark(RULE.word, (), 0, "negative"))
        return tuple(marks), frozenset({"negative:xv"})
    return tuple(marks), frozenset()


def _syntax(text: str, size: int) -> tuple[Mark, ...]:
    marks = []
    for k, (cells, tail) in enumerate(syntax_marks(text, size, RULE.word), 1):
        if not cells and tail == "negative":
            marks.append(Mark(RULE.word, (), 0, "negative"))
        elif len(cells) == 2 and apart(size, cells, False):
            raise ValueError(f"{RULE.word}= mark {k}: {apart(size, cells, False)}")
        elif len(cells) == 2 and tail in ("x", "v"):
            marks.append(new_mark(RULE.word, cells, 10 if tail == "x" else 5))
        else:
            raise ValueError(f"{RULE.word}= mark {k} is not two cells then :x or :v, nor negative")
    return tuple(marks)


def _native(text: str, size: int, parts: NativeParts) -> bool:
    """``_compile`` of ``syntax``'s marks ``:x`` and ``:v`` and ``negative``, straight to the native arrays
    (:mod:`._native_marks`)."""
    tails = (("x", _sum_table(size, 10)), ("v", _sum_table(size, 5)))
    read = native_dots(text, size, tails, _NEGATIVE)
    if read is None:
        return False
    dots, words = read
    add_dots(parts, dots, tails)
    if words:
        parts.relate(free_flat(size, dots), _negative_table(size))
    return True


#: The mark without cells the fast reading takes (the negative constraint).
_NEGATIVE = frozenset(("negative",))


def _fpuzzles_out(marks: tuple[Mark, ...], size: int) -> dict[str, object]:
    out: dict[str, object] = {}
    entries = [
        {"cells": [fp_name(size, c) for c in m.cells], "value": "X" if m.value == 10 else "V"} for m in marks if m.cells
    ]
    if entries:
        out["xv"] = entries
    if any(m.kind == "negative" for m in marks):
        out["negative"] = ["xv"]
    return out


def _made(solution: Sequence[int], size: int, rng: Random) -> tuple[Mark, ...]:
    """GENERATE's XV: every orthogonal pair of ``solution`` summing to 10 (X) or 5 (V)."""
    return tuple(
        Mark(RULE.word, (a, b), solution[a] + solution[b])
        for a, b in neighbour_pairs(size)
        if solution[a] + solution[b] in (5, 10)
    )


def _tail(mark: Mark) -> str:
    return mark.kind if not mark.cells else "x" if mark.value == 10 else "v"


RULE = Rule(
    word="xv",
    summary="neighbours joined by an X sum to 10, by a V to 5",
    data="marks",
    constraints=_compile,
    given_words=_GIVEN,
    solution_words=_SOLUTION,
    off=("unique rectangle", "BUG", *BLIND),
    step=StepWords("xv", 2.3, "XV neighbours"),
    missing="an XV puzzle needs its markers",
    formats={"f-puzzles": ("xv",)},
    fpuzzles=_fpuzzles,
    fpuzzles_out=_fpuzzles_out,
    syntax=_syntax,
    draw={"kind": "xv"},
    syntax_out=lambda marks, size: syntax_text(marks, size, _tail),
    making=Making(exact=True, marks=_made, noun="XV marks"),
    native_shape=NativeShape(
        "dots",
        tails=lambda size: (("x", _sum_table(size, 10)), ("v", _sum_table(size, 5))),
        words=(("negative", 1),),
        negative=lambda size, _flags: _negative_table(size),
    ),
    native=_native,
)
