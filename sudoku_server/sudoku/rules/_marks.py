"""Helpers of the rules that take marks (:class:`~.base.Mark`): a rule's own marks, how a line is named."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from sudoku_server.errors import quote
from sudoku_server.sudoku.constraints import Broken
from sudoku_server.sudoku.rules.base import Build, Mark, Words, pairs_of


def marks_of(build: Build, word: str) -> tuple[Mark, ...]:
    """The marks of ``build``'s variant that belong to the rule ``word``, in the puzzle's order."""
    return tuple(mark for mark in build.variant.marks if mark.rule == word)


def cell_name(size: int, c: int) -> str:
    """``r1c2``: cell ``c`` of a grid of ``size`` digits per unit."""
    return f"r{c // size + 1}c{c % size + 1}"


def line_name(size: int, cells: tuple[int, ...]) -> str:
    """``r1c1-r1c4``: a line by its first and last cell (one cell: that cell)."""
    if len(cells) == 1:
        return cell_name(size, cells[0])
    return f"{cell_name(size, cells[0])}-{cell_name(size, cells[-1])}"


#: The four orthogonal steps (row, column): the neighbours a dot or an XV marker joins.
ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))


def relation_words(
    fact: Callable[[int, int], str],
) -> tuple[Callable[[Broken, Words], str], Callable[[Broken, Words], str]]:
    """The given and solution words of a relation rule: ``name: 3 at r1c1 and 5 at r1c2 <fact>``.

    ``fact(da, db)`` words why the two digits break it (``differ by 2, not 1``).
    """

    def words(broken: Broken, w: Words) -> str:
        a, b = broken.cells
        return f"{w.name}: {w.at(a)} and {w.at(b)} {fact(w.cells[a], w.cells[b])}"

    return words, words


def free_pairs(size: int, marks: tuple[Mark, ...]) -> tuple[tuple[int, int], ...]:
    """The orthogonal neighbour pairs ``(a, b)``, ``a < b``, that none of ``marks`` joins."""
    marked = {(min(m.cells), max(m.cells)) for m in marks if len(m.cells) == 2}
    return tuple(p for p in pairs_of(size, ORTHOGONAL) if p not in marked)


# -- f-puzzles entries (read by the rules' ``fpuzzles`` functions) -------------------------------

#: What a rule's ``fpuzzles`` function answers: its marks, and the keys it claimed beyond its own.
Read = tuple[tuple[Mark, ...], frozenset[str]]

_CELL = re.compile(r"[Rr](\d+)[Cc](\d+)")


def fp_entries(data: Mapping[str, object], key: str) -> list[Mapping[str, object]]:
    """The entries of ``key`` (a list of objects; absent, null or false: none). Raises ValueError."""
    value = data.get(key)
    if value is None or value is False:
        return []
    if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
        raise ValueError(f"{quote(key)} is not a list of objects")
    return value


def fp_cell(text: object, size: int, where: str, outside: bool = False) -> tuple[int, int]:
    """``"R1C2"`` -> (row, column), 0-based; ``outside`` allows one step past the edge (a clue). Raises ValueError."""
    match = _CELL.fullmatch(text) if isinstance(text, str) else None
    low, high = (0, size + 1) if outside else (1, size)
    if match is None or not all(low <= int(g) <= high for g in match.groups()):
        raise ValueError(f"{where}: {quote(str(text))} is not a cell of the grid")
    return int(match.group(1)) - 1, int(match.group(2)) - 1


def fp_cells(cells: object, size: int, where: str) -> tuple[int, ...]:
    """A list of ``"R1C2"`` -> cell indices (row-major, 0-based), in order. Raises ValueError."""
    if not isinstance(cells, list) or not cells:
        raise ValueError(f"{where} has no cells")
    out = []
    for text in cells:
        r, c = fp_cell(text, size, where)
        out.append(r * size + c)
    return tuple(out)


def fp_value(entry: Mapping[str, object], default: int, where: str) -> int:
    """An entry's ``value`` as an int (it may be a string, ``"15"``); ``default`` when absent or empty."""
    value = entry.get("value")
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).strip().isdigit():
        raise ValueError(f"{where}: value {quote(str(value))} is not a number")
    return int(value)


def fp_lines(data: Mapping[str, object], key: str, size: int, word: str, default: int = 0) -> Read:
    """Marks of rule ``word`` from ``key``'s entries, one per line of their ``lines`` (value: the entry's or ``default``)."""
    marks = []
    for k, entry in enumerate(fp_entries(data, key), 1):
        where = f"{quote(key)} entry {k}"
        lines = entry.get("lines")
        if not isinstance(lines, list) or not lines:
            raise ValueError(f"{where} has no lines")
        value = fp_value(entry, default, where)
        marks += [Mark(word, fp_cells(line, size, where), value) for line in lines]
    return tuple(marks), frozenset()


# -- the line syntax (``thermo=r1c1-r1c2-r1c3;r5c5-r6c6``) -----------------------------------------

_NAME = re.compile(r"r(\d+)c(\d+)", re.I)
#: Cells of one-digit rows and columns, ``-``-joined (``r1c1-r1c2``): every cell of grids up to 9x9.
_ONE_DIGIT = re.compile(r"[rR][1-9][cC][1-9](?:-[rR][1-9][cC][1-9])*")


def syntax_marks(text: str, size: int, word: str) -> list[tuple[tuple[int, ...], str]]:
    """``r1c1-r1c2:5;negative`` -> ``[((0, 1), "5"), ((), "negative")]``: each mark's cells and its ``:`` part.

    A mark with no cell is a word alone (``negative``). Raises ValueError naming the mark.
    """
    top = str(size)
    out: list[tuple[tuple[int, ...], str]] = []
    for k, item in enumerate(text.split(";"), 1):
        cells_text, _, tail = item.partition(":")
        if size <= 9 and _ONE_DIGIT.fullmatch(cells_text):  # the common case, read without a regex per cell
            names = cells_text.split("-")
            if all(name[1] <= top and name[3] <= top for name in names):
                out.append((tuple((int(name[1]) - 1) * size + int(name[3]) - 1 for name in names), tail.lower()))
                continue
        if not cells_text or _NAME.match(cells_text) is None:
            out.append(((), item.lower()))
            continue
        cells = []
        for name in cells_text.split("-"):
            match = _NAME.fullmatch(name)
            if match is None or not all(1 <= int(g) <= size for g in match.groups()):
                raise ValueError(f"{word}= mark {k}: {quote(name)} is not a cell of the grid")
            cells.append((int(match.group(1)) - 1) * size + int(match.group(2)) - 1)
        out.append((tuple(cells), tail.lower()))
    return out


def syntax_number(tail: str, default: int, word: str, k: int) -> int:
    """A mark's ``:`` part as a number (``default`` when empty). Raises ValueError."""
    if not tail:
        return default
    if not tail.isdigit():
        raise ValueError(f"{word}= mark {k}: {quote(tail)} is not a number")
    return int(tail)


def syntax_lines(word: str, least: int = 2, default: int = 0) -> Callable[[str, int], tuple[Mark, ...]]:
    """The line syntax of a rule of lines: ``r1c1-r1c2-r1c3[:value];...``, each at least ``least`` cells."""

    def read(text: str, size: int) -> tuple[Mark, ...]:
        marks = []
        for k, (cells, tail) in enumerate(syntax_marks(text, size, word), 1):
            if len(cells) < least:
                raise ValueError(f"{word}= mark {k} has fewer than {least} cells")
            marks.append(Mark(word, cells, syntax_number(tail, default, word, k)))
        return tuple(marks)

    return read
