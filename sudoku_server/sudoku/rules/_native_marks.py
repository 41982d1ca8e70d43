"""The fast path of the rules that take marks: a rule's marks text read straight to the native core's arrays.

A marks line (``<81 givens> thermo=r1c1-r1c2-r1c3 ...``) is read, by the
usual path, into :class:`~.base.Mark` values (each rule's ``syntax``), then a
:class:`~sudoku_server.sudoku.geometry.Geometry` with named constraints (each
rule's ``constraints``), then the native core's arrays
(``solver._constraint_arrays``): 5-7 µs of Python per mark (issue 29). A rule
may also give :attr:`~.base.Rule.native`: the same marks, in their common
form only, appended to a :class:`NativeParts` as the pairs, tables, masks,
sums and between lines those steps would make, in the same order. It
answers False for anything else (a ``:`` part it does not take, a name
that is not a cell, a dot named in upper case, cells that do not touch): the
usual path then reads the line and words its error. ``tests/unit/test_marks_fast_path.py`` holds every rule's
``native`` to its ``syntax`` and ``constraints`` on every stored puzzle.
"""

from __future__ import annotations

import functools
import itertools
import sys
from array import array
from collections.abc import Iterable
from operator import itemgetter

from sudoku_server.sudoku.rules._marks import ORTHOGONAL, _index_of, _touching
from sudoku_server.sudoku.rules.base import Rule, pairs_of

__all__ = [
    "SHAPES",
    "NativeParts",
    "ReaderWord",
    "add_dots",
    "cell_index",
    "free_flat",
    "native_dots",
    "native_lines",
    "reader_words",
    "steps",
]

_chain = itertools.chain.from_iterable


class NativeParts:
    """What a marks line's rules compile to, as the native core takes it (``_native.prepare``'s arrays).

    Attributes:
      pairs: relation pairs, flat (``a, b, a, b, ...``), in the constraints' order, one byte a cell (grids
        up to 9x9: 81 cells).
      numbers: per pair the number of its table in :attr:`tables`, one byte each.
      tables: the tables (``size`` masks: the digits ``b`` may hold for each digit of ``a``) by their number,
        numbered in the order they first appear (equal tables share a number).
      masks: per cell the digits it may hold (bit ``d - 1``), None when no rule narrows any.
      sums: the sums as records (count, total, distinct, the cells, their weights), in order.
      between: the between lines as records (count, low, high, total, the cells), in order; each a row or a
        column (a unit: its cells are peers, as the native core takes them).
    """

    __slots__ = ("between", "masks", "numbers", "pairs", "sums", "tables")

    def __init__(self) -> None:
        self.pairs = bytearray()
        self.numbers = bytearray()
        self.tables: dict[tuple[int, ...], int] = {}
        self.masks: list[int] | None = None
        self.sums: list[int] = []
        self.between: list[int] = []

    def number(self, table: tuple[int, ...]) -> int:
        """The number of ``table`` (a new one is numbered next)."""
        return self.tables.setdefault(table, len(self.tables))

    def relate(self, pairs: list[int] | bytes, table: tuple[int, ...]) -> None:
        """Add ``pairs`` (flat: cells, or a byte a cell) under one ``table``."""
        self.pairs += bytes(pairs)
        self.numbers += bytes((self.number(table),)) * (len(pairs) // 2)

    def arrays(self) -> dict[str, bytes] | None:
        """The keyword arguments of ``_native.prepare``, as ``solver._constraint_arrays`` makes them; None
        when they do not fit a byte a cell or a table number (never on 9x9 with today's rules)."""
        out: dict[str, bytes] = {}
        if self.pairs:
            if len(self.tables) > 255:
                return None
            out["pairs"] = _wide(self.pairs)
            out["pair_table"] = _wide(self.numbers)
            out["tables"] = array("I", _chain(self.tables)).tobytes()
        if self.sums:
            out["sums"] = array("i", self.sums).tobytes()
        if self.masks is not None:
            out["candidates"] = array("I", self.masks).tobytes()
        if self.between:
            out["between"] = array("i", self.between).tobytes()
        return out


def _wide(data: bytearray) -> bytes:
    """Bytes as 16-bit numbers in the machine's order (``array("H", data).tobytes()``, in one C step)."""
    out = bytearray(2 * len(data))
    out[_LOW::2] = data
    return bytes(out)


#: Where a 16-bit number's low byte is.
_LOW = 0 if sys.byteorder == "little" else 1


#: The native reader's code of each :class:`~.base.NativeShape` kind (``solver/_native_marksline.h``, ``MR_STEPS``...).
SHAPES = {"steps": 1, "ends": 2, "pairs": 3, "bulb": 4, "dots": 5, "cells": 6, "diagonal": 7}

#: A word of the native reader (:func:`reader_words`): its word, place, shape's code, tables of lines, tails,
#: words without cells and the free pairs' tables by the words' flags.
ReaderWord = tuple[bytes, int, int, bytes, tuple[tuple[bytes, bytes], ...], tuple[tuple[bytes, bytes], ...], bytes]


def reader_words(rules: Iterable[tuple[str, Rule]]) -> list[ReaderWord]:
    """The words of the native core's reader of a marks line (``solver.marks_reader``), from ``rules`` (the
    registry's items, in its order): per rule with a :attr:`~.base.Rule.native_shape`, its word, its place
    among ``rules`` (the order the constraints are compiled in), its shape's code (:data:`SHAPES`), on a 9x9
    grid: the tables of its lines of 1 to 9 cells (9 masks each), its tails (``(text, table or mask)``), its
    words without cells (``(text, flags)``) and the free pairs' tables by the words' flags 0 to 3; every
    number 32-bit, in the machine's order, empty where the shape has none."""
    out = []
    for order, (word, rule) in enumerate(rules):
        shape = rule.native_shape
        if shape is not None:
            table, tails, negative = shape.table, shape.tails, shape.negative
            out.append(
                (
                    word.encode("ascii"),
                    order,
                    SHAPES[shape.kind],
                    b"" if table is None else _words32(_chain(table(9, k) for k in range(1, 10))),
                    () if tails is None else tuple((t.encode("ascii"), _words32(v)) for t, v in tails(9)),
                    tuple((w.encode("ascii"), _words32((flags,))) for w, flags in shape.words),
                    b"" if negative is None else _words32(_chain([(0,) * 9, *(negative(9, f) for f in (1, 2, 3))])),
                )
            )
    return out


def _words32(numbers: Iterable[int]) -> bytes:
    """Numbers as 32-bit words in the machine's order."""
    return array("I", numbers).tobytes()


def native_lines(text: str, size: int, least: int = 2) -> list[list[int]] | None:
    """The lines of ``text`` (``r1c1-r1c2-r2c3;...``) in the common form of a rule of lines: each at least
    ``least`` cells, every name a cell of the grid, no cell twice, each cell touching the next (diagonal steps
    too), no ``:`` part. None for anything else (the rule's ``syntax`` reads it, or words its error)."""
    if size > 9:
        return None
    cell = _index_of(size).__getitem__
    try:
        out = [list(map(cell, item.split("-"))) for item in text.split(";")]  # a ":" part: no cell's name
    except KeyError:
        return None
    for cells in out:
        n = len(cells)
        if n < least or len(set(cells)) != n:
            return None
    if not _touching(size, True).issuperset(_chain(zip(cells, cells[1:]) for cells in out)):
        return None
    return out


def cell_index(size: int) -> dict[str, int]:
    """Each cell of a grid of ``size`` (1 to 9) digits per unit by its name in the line syntax, in any case
    (``r1c2`` and ``R1C2``: 1), as ``syntax_marks`` reads it."""
    return _index_of(size)


def steps(lines: list[list[int]]) -> list[int]:
    """The steps of lines, flat: ``a, b, b, c, c, d`` for the line ``a b c d``, line after line."""
    return [c for cells in lines for step in zip(cells, cells[1:]) for c in step]


#: A dot read by :func:`native_dots`: its two cells (a byte each), its tail's index in ``tails``, its place among
#: the grid's orthogonal pairs.
Dot = tuple[bytes, int, int]


def native_dots(
    text: str, size: int, tails: tuple[tuple[str, tuple[int, ...]], ...], words: frozenset[str]
) -> tuple[list[Dot], set[str]] | None:
    """The dots of ``text`` (``r1c1-r1c2:w;...;negative``) in their common form: two orthogonal neighbours
    named in lower case then a ``:`` part of ``tails`` (``(part, table)`` pairs: ``("w", white)``); and the
    marks without cells among ``words`` (``negative``), in lower case. None for anything else (the rule's
    ``syntax`` reads it, or words its error)."""
    if size > 9:
        return None
    known = _dot_items(size, tails)
    items = text.split(";")
    dots = list(map(known.get, items))
    seen = set()
    if None in dots:
        for item in items:
            if item not in known:
                if item.lower() not in words:
                    return None
                seen.add(item.lower())
        dots = [dot for dot in dots if dot is not None]
    return dots, seen  # type: ignore[return-value]


def add_dots(parts: NativeParts, dots: list[Dot], tails: tuple[tuple[str, tuple[int, ...]], ...]) -> None:
    """Add the dots read by :func:`native_dots` with these ``tails`` to ``parts``, in order."""
    parts.pairs += b"".join(map(_first, dots))
    kinds = bytes(map(_second, dots))
    numbers = bytearray(256)
    for kind in dict.fromkeys(kinds):  # numbered in the order they first appear, as the constraints are
        numbers[kind] = parts.number(tails[kind][1])
    parts.numbers += kinds.translate(numbers)


def free_flat(size: int, dots: list[Dot]) -> bytes:
    """:func:`~._marks.free_pairs` of ``dots``, flat (a byte a cell): the orthogonal neighbours ``a < b`` no dot
    joins."""
    pairs = _orthogonal_bytes(size)
    keep = bytearray(b"\x01") * len(pairs)
    any(map(keep.__setitem__, map(_third, dots), itertools.repeat(0)))  # (every dot's place cleared, in C)
    return b"".join(itertools.compress(pairs, keep))


_first, _second, _third = itemgetter(0), itemgetter(1), itemgetter(2)


@functools.cache
def _orthogonal_bytes(size: int) -> tuple[bytes, ...]:
    """Every two orthogonal neighbours ``a < b`` in :func:`~.base.pairs_of` order, each as two bytes."""
    return tuple(bytes(pair) for pair in pairs_of(size, ORTHOGONAL))


@functools.lru_cache(maxsize=64)
def _dot_items(size: int, tails: tuple[tuple[str, tuple[int, ...]], ...]) -> dict[str, Dot]:
    """``{"r1c1-r1c2:w": (b"\\x00\\x01", 0, 0), ...}``: every dot of ``tails`` on two orthogonal neighbours of a grid
    of ``size`` (1 to 9) digits per unit, named in lower case, in either order."""
    place = {pair: k for k, pair in enumerate(pairs_of(size, ORTHOGONAL))}
    names = [f"r{c // size + 1}c{c % size + 1}" for c in range(size * size)]
    out = {}
    for (a, b), k in place.items():
        for x, y in ((a, b), (b, a)):
            for n, (tail, _table) in enumerate(tails):
                out[f"{names[x]}-{names[y]}:{tail}"] = (bytes((x, y)), n, k)
    return out
