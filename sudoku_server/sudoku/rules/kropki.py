"""``kropki``: a white dot joins digits that differ by its value (1), a black dot digits in its ratio (2).

Marks: two orthogonal neighbours, ``kind`` ``"white"`` (f-puzzles
``difference``, ``value`` default 1) or ``"black"`` (f-puzzles ``ratio``,
``value`` default 2). A mark with no cells of kind ``"negative white"``
(f-puzzles ``"nonconsecutive": true`` with dots) says neighbours without a dot
are not consecutive; ``"negative black"`` (f-puzzles ``"negative": ["ratio"]``)
that they are not in ratio 2; a dot of either colour frees its pair from both.
Each dot compiles to one :class:`~sudoku_server.sudoku.constraints.Relation`
(``kropki r1c1-r1c2 white 1``), the negative constraint to one over every free
pair (``kropki negative``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from sudoku_server.sudoku.constraints import Constraint, Relation, relation_table
from sudoku_server.sudoku.rules._making import neighbour_pairs, syntax_text
from sudoku_server.sudoku.rules._marks import (
    Read,
    apart,
    dot_name,
    fp_cells,
    fp_entries,
    fp_name,
    fp_value,
    free_pairs,
    marks_of,
    new_mark,
    new_relation,
    relation_words,
    syntax_marks,
)
from sudoku_server.sudoku.rules._native_marks import NativeParts, add_dots, free_flat, native_dots
from sudoku_server.sudoku.rules.base import (
    BLIND,
    Broken,
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


@functools.lru_cache(maxsize=256)
def _dot_table(size: int, black: bool, v: int) -> tuple[int, ...]:
    """The table of a dot: black ``a == v * b`` or ``b == v * a``, white ``|a - b| == v`` (cached)."""
    digits = range(1, size + 1)
    if black:
        return relation_table(size, [(a, b) for a in digits for b in digits if a == v * b or b == v * a])
    return relation_table(size, [(a, b) for a in digits for b in digits if abs(a - b) == v])


@functools.lru_cache(maxsize=32)
def _negative_table(size: int, no_white: bool, no_black: bool) -> tuple[int, ...]:
    """The table of the free pairs: not consecutive (``no_white``), not in ratio 2 (``no_black``) (cached)."""
    return relation_table(
        size,
        test=lambda a, b: not (no_white and abs(a - b) == 1) and not (no_black and (a == 2 * b or b == 2 * a)),
    )


def _compile(build: Build) -> Compiled:
    size = build.size
    marks = marks_of(build, RULE.word)
    dots = tuple(m for m in marks if len(m.cells) == 2)
    out: list[tuple[Constraint, str]] = []
    for k, m in enumerate(dots):
        black = m.kind == "black"
        v = m.value or (2 if black else 1)
        a, b = m.cells
        out.append(
            (
                new_relation(((a, b),), _dot_table(size, black, v), (k,)),
                f"kropki {dot_name(size, a, b)} {m.kind or 'white'} {v}",
            )
        )
    kinds = {m.kind for m in marks if not m.cells}
    no_white, no_black = "negative white" in kinds, "negative black" in kinds
    if no_white or no_black:
        table = _negative_table(size, no_white, no_black)
        out.append((Relation(free_pairs(size, dots), table), "kropki negative"))
    return out


def _fact(da: int, db: int) -> str:
    return f"differ by {abs(da - db)}" + (
        f" and are in ratio {max(da, db) // min(da, db)}" if max(da, db) % min(da, db) == 0 else ""
    )


_NEGATIVE_WORDS, _ = relation_words(_fact)


def _words(broken: Broken, w: Words) -> str:
    """A broken dot in its own terms (``kropki r1c1-r1c2 black 3: 2 at r1c1 and 5 at r1c2: neither is 3 times the
    other``; a white one ``differ by 3, not 1``); the negative rule as a relation (``differ by 1``). Break-session
    finding: a black dot was explained by the digits' difference."""
    kind, value = w.name.split()[-2:]
    if kind not in ("white", "black"):
        return _NEGATIVE_WORDS(broken, w)
    a, b = broken.cells
    da, db = w.cells[a], w.cells[b]
    if kind == "white":
        return f"{w.name}: {w.at(a)} and {w.at(b)} differ by {abs(da - db)}, not {value}"
    times = "twice" if value == "2" else f"{value} times"
    return f"{w.name}: {w.at(a)} and {w.at(b)}: neither is {times} the other"


_GIVEN = _SOLUTION = _words


def _no_digits(size: int, kind: str, value: int) -> str:
    """Why no two digits of 1-``size`` make a dot of ``value`` (``""`` when some do): a white dot of 9 on 9x9, a
    black dot of 10 (s9-break finding 2: they were searched, ``unsolvable``)."""
    if kind == "white" and value >= size:
        return f"is no dot (no two digits of 1-{size} differ by {value})"
    if kind == "black" and value > size:
        return f"is no dot (no two digits of 1-{size} have the ratio {value})"
    return ""


def _fpuzzles(data: Mapping[str, object], size: int) -> Read:
    marks = []
    for key, kind, default in (("difference", "white", 1), ("ratio", "black", 2)):
        for k, entry in enumerate(fp_entries(data, key), 1):
            where = f'"{key}" entry {k}'
            cells = fp_cells(entry.get("cells"), size, where)
            if len(cells) != 2:
                raise ValueError(f"{where} does not join two cells")
            if apart(size, cells, False):
                raise ValueError(f"{where}: {apart(size, cells, False)}")
            value = fp_value(entry, default, where)
            if value == 0:
                raise ValueError(f"{where}: value 0 is no {key} (a {kind} dot's {key} is 1 or more)")
            if _no_digits(size, kind, value):
                raise ValueError(f"{where}: value {value} {_no_digits(size, kind, value)}")
            marks.append(Mark(RULE.word, cells, value, kind))
    claimed = set()
    negative = data.get("negative")
    if isinstance(negative, list) and "ratio" in negative:
        marks.append(Mark(RULE.word, (), 0, "negative black"))
        claimed.add("negative:ratio")
    if marks and data.get("nonconsecutive") is True:  # with dots, f-puzzles' nonconsecutive is the white negative
        marks.append(Mark(RULE.word, (), 0, "negative white"))
        claimed.add("nonconsecutive")
    return tuple(marks), frozenset(claimed)


#: A dot's ``:`` part without a value -> its kind.
_DOTS = {"w": "white", "b": "black"}


def _syntax(text: str, size: int) -> tuple[Mark, ...]:
    marks = []
    for k, (cells, tail) in enumerate(syntax_marks(text, size, RULE.word), 1):
        if not cells and tail in ("negative", "negativewhite", "negativeblack"):
            kinds = ("negative white", "negative black") if tail == "negative" else (f"negative {tail[8:]}",)
            marks += [Mark(RULE.word, (), 0, kind) for kind in kinds]
        elif len(cells) == 2 and apart(size, cells, False):
            raise ValueError(f"{RULE.word}= mark {k}: {apart(size, cells, False)}")
        elif len(cells) == 2 and tail in _DOTS:  # :w, :b (the common case)
            marks.append(new_mark(RULE.word, cells, 0, _DOTS[tail]))
        elif len(cells) == 2 and tail[:1] in ("w", "b") and (tail[1:] == "" or tail[1:].isdigit()) and len(tail) < 6:
            kind = "white" if tail[0] == "w" else "black"
            if tail[1:] and int(tail[1:]) == 0:
                what = "difference" if kind == "white" else "ratio"
                raise ValueError(f"{RULE.word}= mark {k}: {tail} is no dot (a {kind} dot's {what} is 1 or more)")
            if _no_digits(size, kind, int(tail[1:] or 0)):
                raise ValueError(f"{RULE.word}= mark {k}: {tail} {_no_digits(size, kind, int(tail[1:]))}")
            marks.append(new_mark(RULE.word, cells, int(tail[1:] or 0), kind))
        else:
            raise ValueError(f"{RULE.word}= mark {k} is not two cells then :w or :b, nor negative")
    return tuple(marks)


def _native(text: str, size: int, parts: NativeParts) -> bool:
    """``_compile`` of ``syntax``'s dots ``:w`` and ``:b`` (no value), straight to the native arrays
    (:mod:`._native_marks`); the negative constraints after them."""
    tails = (("w", _dot_table(size, False, 1)), ("b", _dot_table(size, True, 2)))
    read = native_dots(text, size, tails, _NEGATIVES)
    if read is None:
        return False
    dots, words = read
    add_dots(parts, dots, tails)
    no_white = "negative" in words or "negativewhite" in words
    no_black = "negative" in words or "negativeblack" in words
    if no_white or no_black:
        parts.relate(free_flat(size, dots), _negative_table(size, no_white, no_black))
    return True


#: The marks without cells the fast reading takes (the negative constraints).
_NEGATIVES = frozenset(("negative", "negativewhite", "negativeblack"))


def _fpuzzles_out(marks: tuple[Mark, ...], size: int) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, kind, default in (("difference", "white", 1), ("ratio", "black", 2)):
        # a dot with no value of its own (``:w``, ``:b``) or the default's is f-puzzles' default (no "value": 1 white,
        # 2 black), as the line writer's ``:w`` (s9-break finding 6: SOLVE wrote "value":1 where GENERATE wrote none)
        entries = [
            {
                "cells": [fp_name(size, c) for c in m.cells],
                **({"value": m.value} if m.value not in (0, default) else {}),
            }
            for m in marks
            if m.kind == kind
        ]
        if entries:
            out[key] = entries
    if any(m.kind == "negative black" for m in marks):
        out["negative"] = ["ratio"]
    if any(m.kind == "negative white" for m in marks):
        out["nonconsecutive"] = True
    return out


def _made(solution: Sequence[int], size: int, rng: Random) -> tuple[Mark, ...]:
    """GENERATE's dots: every orthogonal pair of ``solution`` one apart (white) or one twice the other
    (black; a 1 beside a 2 takes either colour, drawn from ``rng``)."""
    marks = []
    for a, b in neighbour_pairs(size):
        x, y = solution[a], solution[b]
        white, black = abs(x - y) == 1, x == 2 * y or y == 2 * x
        if white and black:
            white = rng.below(2) == 0
        if white or black:
            marks.append(Mark(RULE.word, (a, b), 0, "white" if white else "black"))
    return tuple(marks)


def _tail(mark: Mark) -> str:
    if not mark.cells:
        return mark.kind.replace(" ", "")  # negativewhite, negativeblack
    default = 2 if mark.kind == "black" else 1
    return mark.kind[0] + (str(mark.value) if mark.value and mark.value != default else "")


RULE = Rule(
    word="kropki",
    summary="a white dot joins digits that differ by 1, a black dot digits one twice the other",
    data="marks",
    constraints=_compile,
    given_words=_GIVEN,
    solution_words=_SOLUTION,
    off=("unique rectangle", "BUG", *BLIND),
    step=StepWords("kropki", 2.3, "kropki neighbours"),
    missing="a kropki puzzle needs its dots",
    formats={"f-puzzles": ("difference", "ratio")},
    fpuzzles=_fpuzzles,
    fpuzzles_out=_fpuzzles_out,
    syntax=_syntax,
    draw={"kind": "dots"},
    syntax_out=lambda marks, size: syntax_text(marks, size, _tail),
    making=Making(exact=True, marks=_made, noun="kropki dots"),
    native_shape=NativeShape(
        "dots",
        tails=lambda size: (("w", _dot_table(size, False, 1)), ("b", _dot_table(size, True, 2))),
        words=(("negative", 3), ("negativewhite", 1), ("negativeblack", 2)),
        negative=lambda size, flags: _negative_table(size, bool(flags & 1), bool(flags & 2)),
    ),
    native=_native,
)
