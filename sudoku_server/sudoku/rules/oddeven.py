"""``oddeven``: a cell marked odd holds an odd digit, a cell marked even an even one.

Its marks are single cells, ``value`` 1 (odd, f-puzzles ``odd``) or 2 (even,
f-puzzles ``even``). It compiles to one
:class:`~sudoku_server.sudoku.constraints.Candidates`: every marked cell keeps
the digits of its parity, every other cell all digits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sudoku_server.sudoku.constraints import Broken, Candidates
from sudoku_server.sudoku.rules._making import syntax_text
from sudoku_server.sudoku.rules._marks import (
    Read,
    cell_name,
    fp_cell,
    fp_entries,
    fp_name,
    marks_of,
    new_mark,
    syntax_marks,
)
from sudoku_server.sudoku.rules._native_marks import NativeParts, cell_index
from sudoku_server.sudoku.rules.base import Build, Compiled, Making, Mark, NativeShape, Random, Rule, Words
from sudoku_server.sudoku.seeded import permutation

#: A mark's value: odd, even.
ODD, EVEN = 1, 2


def _compile(build: Build) -> Compiled:
    size = build.size
    full = (1 << size) - 1
    odd = sum(1 << (d - 1) for d in range(1, size + 1, 2))
    masks = [full] * (size * size)
    for mark in marks_of(build, RULE.word):
        for c in mark.cells:
            masks[c] &= odd if mark.value == ODD else full ^ odd
    return ((Candidates(tuple(masks)), ""),)


def _parity(d: int) -> str:
    return "odd" if d % 2 else "even"


def _given(broken: Broken, w: Words) -> str:
    (c,) = broken.cells
    d = w.cells[c]
    return f"{w.at(c)} is {_parity(d)} on a cell marked {_parity(d + 1)}"


def _solution(broken: Broken, w: Words) -> str:
    (c,) = broken.cells
    d = w.cells[c]
    return f"{w.cell(c)} is marked {_parity(d + 1)} and holds {w.symbol(d)}"


def _both(size: int, c: int) -> str:
    """A cell marked odd and even: no digit is both (s9-break finding 2: it was searched, ``unsolvable``)."""
    return f"{cell_name(size, c)} is marked odd and even"


def _fpuzzles(data: Mapping[str, object], size: int) -> Read:
    marks = []
    seen: dict[int, int] = {}
    for key, value in (("odd", ODD), ("even", EVEN)):
        for k, entry in enumerate(fp_entries(data, key), 1):
            where = f"{key!r} entry {k}".replace("'", '"')
            r, c = fp_cell(entry.get("cell"), size, where)
            if seen.setdefault(r * size + c, value) != value:
                raise ValueError(f"{where}: {_both(size, r * size + c)}")
            marks.append(Mark(RULE.word, (r * size + c,), value))
    return tuple(marks), frozenset()


def _syntax(text: str, size: int) -> tuple[Mark, ...]:
    marks = []
    seen: dict[int, int] = {}
    for k, (cells, tail) in enumerate(syntax_marks(text, size, RULE.word), 1):
        if not cells or tail not in ("odd", "even"):
            raise ValueError(f"{RULE.word}= mark {k} is not cells then :odd or :even")
        value = ODD if tail == "odd" else EVEN
        for c in cells:
            if seen.setdefault(c, value) != value:
                raise ValueError(f"{RULE.word}= mark {k}: {_both(size, c)}")
        marks += [new_mark(RULE.word, (c,), value) for c in cells]
    return tuple(marks)


def _odd(size: int) -> int:
    """The odd digits of a grid of ``size`` digits per unit, as a mask (bit ``d - 1``)."""
    return sum(1 << (d - 1) for d in range(1, size + 1, 2))


def _native(text: str, size: int, parts: NativeParts) -> bool:
    """``_compile`` of ``syntax``'s marks (cells then ``:odd`` or ``:even``, no cell marked twice), straight to
    the native arrays (:mod:`._native_marks`)."""
    if size > 9 or parts.masks is not None:
        return False
    index = cell_index(size)
    full = (1 << size) - 1
    odd = sum(1 << (d - 1) for d in range(1, size + 1, 2))
    masks = [full] * (size * size)
    for item in text.split(";"):
        names, _, tail = item.partition(":")
        tail = tail.lower()
        mask = odd if tail == "odd" else full ^ odd if tail == "even" else 0
        if not mask:
            return False
        for name in names.split("-"):
            c = index.get(name)
            if c is None or masks[c] != full:
                return False
            masks[c] = mask
    parts.masks = masks
    return True


def _fpuzzles_out(marks: tuple[Mark, ...], size: int) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in (("odd", ODD), ("even", EVEN)):
        entries = [{"cell": fp_name(size, m.cells[0])} for m in marks if m.value == value]
        if entries:
            out[key] = entries
    return out


def marked_cells(solution: Sequence[int], size: int, rng: Random) -> tuple[Mark, ...]:
    """GENERATE's marks: ``size * size // 4`` cells (20 on 9x9) in a random order (a permutation of the
    cells drawn from ``rng``), each marked by the parity of its digit in ``solution``; row-major."""
    order = permutation(rng, size * size)  # type: ignore[arg-type]
    cells = sorted(order[: size * size // 4])
    return tuple(Mark(RULE.word, (c,), ODD if solution[c] % 2 else EVEN) for c in cells)


RULE = Rule(
    word="oddeven",
    summary="a cell marked odd holds an odd digit, a cell marked even an even one",
    data="marks",
    constraints=_compile,
    given_words=_given,
    solution_words=_solution,
    missing="an odd/even puzzle needs its marked cells",
    formats={"f-puzzles": ("odd", "even")},
    fpuzzles=_fpuzzles,
    fpuzzles_out=_fpuzzles_out,
    syntax=_syntax,
    draw={"kind": "marks"},
    syntax_out=lambda marks, size: syntax_text(marks, size, lambda m: "odd" if m.value == ODD else "even"),
    making=Making(exact=True, marks=marked_cells, noun="odd/even cells"),
    native_shape=NativeShape(
        "cells", tails=lambda size: (("odd", (_odd(size),)), ("even", (_odd(size) ^ ((1 << size) - 1),)))
    ),
    native=_native,
)
