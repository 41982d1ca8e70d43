"""Marks drawn over a solution for ``GENERATE rules=...``, and marks written back in the line syntax.

The generator (:mod:`..variant_generator`) makes a random full grid, asks
each rule that takes marks for marks that grid keeps (the rule's
``Making.marks``), then removes givens while the puzzle stays unique under
the marks. The functions here draw those marks from a seeded stream
(:class:`~..seeded.SplitMix64`), so a seed gives the same marks on every
machine:

* :func:`random_lines`: lines (thermometers, arrows, whispers, renban) as
  random walks over the cells, each step to one of the 8 cells around the
  last (f-puzzles lines step diagonally too), each cell in one line at
  most, kept while the rule's test of the line so far holds;
* :func:`neighbour_pairs`: the orthogonal neighbour pairs (kropki dots, XV).

:func:`syntax_text` is the inverse of the rules' line syntax
(docs/LAYOUTS.md "Marks after a line"): ``r1c1-r1c2-r1c3;r4c4-r5c5:2``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from sudoku_server.sudoku.rules.base import Mark, Random
from sudoku_server.sudoku.seeded import permutation

__all__ = ["neighbour_pairs", "random_lines", "shuffled", "syntax_text"]

#: Walks tried per line wanted before :func:`random_lines` gives up on more.
_TRIES = 40


def _around(c: int, size: int) -> list[int]:
    """The cells around ``c`` (8 at most), row-major."""
    r, col = divmod(c, size)
    return [
        (r + dr) * size + col + dc
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < size and 0 <= col + dc < size
    ]


def random_lines(
    size: int,
    rng: Random,
    count: int,
    lengths: tuple[int, int],
    fits: Callable[[Sequence[int]], bool],
    done: Callable[[Sequence[int]], bool] | None = None,
) -> list[tuple[int, ...]]:
    """Up to ``count`` lines of ``lengths[0]`` to ``lengths[1]`` cells, no cell in two, drawn from ``rng``.

    A line is a walk: a random start, then a random next cell around the
    last (:func:`_around`) that no line holds, kept while ``fits(line)``
    holds; it ends at its drawn length, or earlier when no cell fits, and
    is kept when it has ``lengths[0]`` cells or more and ``done(line)``
    holds (None: always). At most ``_TRIES * count`` walks are tried.
    """
    used: set[int] = set()
    lines: list[tuple[int, ...]] = []
    ncells = size * size
    for _ in range(_TRIES * count):
        if len(lines) == count:
            break
        start = rng.below(ncells)
        if start in used or not fits((start,)):
            continue
        want = lengths[0] + rng.below(lengths[1] - lengths[0] + 1)
        line = [start]
        while len(line) < want:
            options = [c for c in _around(line[-1], size) if c not in used and c not in line and fits((*line, c))]
            if not options:
                break
            line.append(options[rng.below(len(options))])
        if len(line) >= lengths[0] and (done is None or done(line)):
            lines.append(tuple(line))
            used.update(line)
    return lines


def neighbour_pairs(size: int) -> list[tuple[int, int]]:
    """The orthogonal neighbour pairs ``(a, b)``, ``a < b``, row-major by ``a`` (right, then below)."""
    out = []
    for c in range(size * size):
        if c % size < size - 1:
            out.append((c, c + 1))
        if c + size < size * size:
            out.append((c, c + size))
    return out


T = TypeVar("T")


def shuffled(items: Sequence[T], rng: Random) -> list[T]:
    """``items`` in a random order drawn from ``rng`` (:func:`~..seeded.permutation`)."""
    return [items[k] for k in permutation(rng, len(items))]  # type: ignore[arg-type]


def syntax_text(marks: Sequence[Mark], size: int, tail: Callable[[Mark], str] = lambda m: "") -> str:
    """Marks in the line syntax: each its cells ``-``-joined (``r1c1``), then ``:`` and ``tail(mark)`` when
    that is not empty; a mark with no cell is its tail alone (``negative``); ``;`` between marks."""
    out = []
    for mark in marks:
        cells = "-".join(f"r{c // size + 1}c{c % size + 1}" for c in mark.cells)
        text = tail(mark)
        out.append(f"{cells}:{text}" if cells and text else cells or text)
    return ";".join(out)
