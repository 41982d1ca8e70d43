"""Helpers of the rules that take marks (:class:`~.base.Mark`): a rule's own marks, how a line is named."""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping

from sudoku_server.errors import quote
from sudoku_server.sudoku.constraints import Broken, Relation
from sudoku_server.sudoku.rules.base import Build, Mark, Words, pairs_of

_new = object.__new__


def new_mark(rule: str, cells: tuple[int, ...], value: int = 0, kind: str = "") -> Mark:
    """``Mark(rule, cells, value, kind)``, made as its frozen ``__init__`` makes it at half its cost (a request
    reads every mark of its line: a kropki puzzle's 40-odd dots)."""
    mark = _new(Mark)
    fields = mark.__dict__
    fields["rule"] = rule
    fields["cells"] = cells
    fields["value"] = value
    fields["kind"] = kind
    return mark


def new_relation(pairs: tuple[tuple[int, int], ...], table: tuple[int, ...], source: tuple[int, ...] = ()) -> Relation:
    """``Relation(pairs, table, source)``, made as :func:`new_mark` makes a mark (one per dot of a request)."""
    relation = _new(Relation)
    fields = relation.__dict__
    fields["pairs"] = pairs
    fields["table"] = table
    fields["source"] = source
    return relation


@functools.lru_cache(maxsize=4096)
def dot_name(size: int, a: int, b: int) -> str:
    """``r1c1-r1c2``: the two cells of a dot or a pair (:func:`line_name` of two cells, cached: a request names
    each of its dots)."""
    return f"{cell_name(size, a)}-{cell_name(size, b)}"


def marks_of(build: Build, word: str) -> tuple[Mark, ...]:
    """The marks of ``build``'s variant that belong to the rule ``word``, in the puzzle's order."""
    return tuple(mark for mark in build.variant.marks if mark.rule == word)


def cell_name(size: int, c: int) -> str:
    """``r1c2``: cell ``c`` of a grid of ``size`` digits per unit."""
    names = _NAMES.get(size)
    if names is None:
        names = _NAMES[size] = tuple(f"r{k // size + 1}c{k % size + 1}" for k in range(size * size))
    return names[c]


#: The cells' names by grid size (a request names every mark it compiles: a kropki puzzle's 40-odd dots).
_NAMES: dict[int, tuple[str, ...]] = {}


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


def apart(size: int, cells: tuple[int, ...], diagonal: bool) -> str:
    """What is wrong with ``cells`` as a line (each cell touching the next: beside it, or ``diagonal`` also
    corner to corner) or, for two cells, a dot on their edge: ``"r1c1 and r3c3 do not touch"``; ``""``."""
    touching = _touching(size, diagonal)
    if cells in touching if len(cells) == 2 else all(pair in touching for pair in zip(cells, cells[1:])):
        return ""  # the common case: one look-up a step (a dot's two cells are their own step)
    for a, b in zip(cells, cells[1:]):
        dr, dc = abs(a // size - b // size), abs(a % size - b % size)
        if max(dr, dc) != 1 or (not diagonal and dr + dc != 1):
            return f"{cell_name(size, a)} and {cell_name(size, b)} do not touch"
    return ""


def line_apart(mark: Mark, size: int) -> str:
    """A line's check (``syntax_lines``, ``fp_lines``): each cell touches the next (diagonal steps allowed);
    ``"steps from r1c1 to r9c9, cells that do not touch"`` or ``""``."""
    touching = _touching(size, True)
    for a, b in zip(mark.cells, mark.cells[1:]):
        if (a, b) not in touching:
            return f"steps from {cell_name(size, a)} to {cell_name(size, b)}, cells that do not touch"
    return ""


@functools.cache
def _touching(size: int, diagonal: bool) -> frozenset[tuple[int, int]]:
    """Every ``(a, b)`` of cells beside each other (``diagonal``: or corner to corner) in a grid of ``size``."""
    steps = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr or dc) and (diagonal or not (dr and dc))]
    return frozenset(
        (r * size + c, (r + dr) * size + c + dc)
        for r in range(size)
        for c in range(size)
        for dr, dc in steps
        if 0 <= r + dr < size and 0 <= c + dc < size
    )


def free_pairs(size: int, marks: tuple[Mark, ...]) -> tuple[tuple[int, int], ...]:
    """The orthogonal neighbour pairs ``(a, b)``, ``a < b``, that none of ``marks`` joins."""
    return free_cell_pairs(size, {(min(m.cells), max(m.cells)) for m in marks if len(m.cells) == 2})


def free_cell_pairs(size: int, marked: set[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The orthogonal neighbour pairs ``(a, b)``, ``a < b``, ascending, not in ``marked`` (pairs ``a < b``)."""
    return tuple([p for p in pairs_of(size, ORTHOGONAL) if p not in marked])


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
    if text is None:  # break-session finding: the message quoted Python's "None"
        raise ValueError(f"{where} has no cell")
    if match is None or not all(low <= int(g) <= high for g in match.groups()):
        raise ValueError(f"{where}: {quote(str(text))} is not a cell of the grid")
    return int(match.group(1)) - 1, int(match.group(2)) - 1


def fp_cells(cells: object, size: int, where: str) -> tuple[int, ...]:
    """A list of ``"R1C2"`` -> cell indices (row-major, 0-based), in order. Raises ValueError."""
    if not isinstance(cells, list) or not cells:
        raise ValueError(f"{where} has no cells")
    out: list[int] = []
    for text in cells:
        r, c = fp_cell(text, size, where)
        if r * size + c in out:
            raise ValueError(f"{where}: {quote(str(text))} appears twice")
        out.append(r * size + c)
    return tuple(out)


#: The largest number a mark carries (a sum along a 25x25 diagonal is at most 625): larger is refused, as it
#: could not fit the solver cores' arrays.
MAX_VALUE = 10_000


def _short(text: str) -> str:
    """A long number cut for an error line: its first 12 characters and ``...``."""
    return text if len(text) <= 12 else text[:12] + "..."


def fp_value(entry: Mapping[str, object], default: int, where: str) -> int:
    """An entry's ``value`` as an int (it may be a string, ``"15"``); ``default`` when absent or empty."""
    value = entry.get("value")
    if value is None or value == "":
        return default
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not str(value).strip().isdigit():
        shown = quote(value) if isinstance(value, str) else json.dumps(value)[:40]
        raise ValueError(f"{where}: value {shown} is not a whole number 0 or more")
    if len(str(value).strip()) > 5 or int(value) > MAX_VALUE:
        raise ValueError(f"{where}: value {quote(_short(str(value)))} is over {MAX_VALUE}")
    return int(value)


def fp_lines(
    data: Mapping[str, object],
    key: str,
    size: int,
    word: str,
    default: int = 0,
    check: Callable[[Mark, int], str] | None = None,
    least: int = 2,
) -> Read:
    """Marks of rule ``word`` from ``key``'s entries, one per line of their ``lines`` (value: the entry's or ``default``).

    ``check(mark, size)``: what is wrong with a mark the rule cannot take (``""`` when nothing), as in
    :func:`syntax_lines`; a line of fewer than ``least`` cells is refused, as there. Raises ValueError naming the
    entry.
    """
    marks = []
    for k, entry in enumerate(fp_entries(data, key), 1):
        where = f"{quote(key)} entry {k}"
        lines = entry.get("lines")
        if not isinstance(lines, list) or not lines:
            raise ValueError(f"{where} has no lines")
        value = fp_value(entry, default, where)
        for line in lines:
            mark = Mark(word, fp_cells(line, size, where), value)
            if len(mark.cells) < least:  # a one-cell thermometer: the line syntax refuses it too
                raise ValueError(f"{where} has a line of fewer than {least} cells")
            wrong = check(mark, size) if check is not None else ""
            if wrong:
                raise ValueError(f"{where} {wrong}")
            marks.append(mark)
    return tuple(marks), frozenset()


# -- the line syntax (``thermo=r1c1-r1c2-r1c3;r5c5-r6c6``) -----------------------------------------

_NAME = re.compile(r"r([0-9]+)c([0-9]+)", re.I | re.A)  # ASCII digits only (\d takes any script's)


def syntax_marks(text: str, size: int, word: str) -> list[tuple[tuple[int, ...], str]]:
    """``r1c1-r1c2:5;negative`` -> ``[((0, 1), "5"), ((), "negative")]``: each mark's cells and its ``:`` part.

    A mark with no cell is a word alone (``negative``). Raises ValueError naming the mark.
    """
    index = _index_of(size) if size <= 9 else None
    out: list[tuple[tuple[int, ...], str]] = []
    for k, item in enumerate(text.split(";"), 1):
        cells_text, _, tail = item.partition(":")
        if index is not None:  # the common case: every name a cell of the grid, read by one look-up each
            try:
                quick = tuple([index[name] for name in cells_text.split("-")])
            except KeyError:
                pass
            else:
                n = len(quick)
                if n == 1 or (quick[0] != quick[1] if n == 2 else len(set(quick)) == n):
                    out.append((quick, tail.lower()))
                    continue  # else the general reading below names the cell given twice
        if not cells_text or _NAME.match(cells_text) is None:
            if cells_text and not (cells_text.isascii() and cells_text.isalpha()):  # no word (``negative``): a cell
                name = cells_text.split("-")[0]  # break-session finding: ``r１c1`` (a full-width 1) was read as a word
                raise ValueError(f"{word}= mark {k}: {quote(name)} is not a cell of the grid")
            out.append(((), item.lower()))
            continue
        cells = []
        for name in cells_text.split("-"):
            match = _NAME.fullmatch(name)
            if match is None or not all(1 <= int(g) <= size for g in match.groups()):
                raise ValueError(f"{word}= mark {k}: {quote(name)} is not a cell of the grid")
            cell = (int(match.group(1)) - 1) * size + int(match.group(2)) - 1
            if cell in cells:
                raise ValueError(f"{word}= mark {k}: {name.lower()} appears twice")
            cells.append(cell)
        out.append((tuple(cells), tail.lower()))
    return out


@functools.cache
def _index_of(size: int) -> dict[str, int]:
    """``{"r1c2": 1, "R1C2": 1, "r1C2": 1, "R1c2": 1, ...}``: each cell of a grid of ``size`` (1 to 9) digits per
    unit by its name in the line syntax, in any case."""
    index = {}
    for c in range(size * size):
        r, col = c // size + 1, c % size + 1
        for rr in "rR":
            for cc in "cC":
                index[f"{rr}{r}{cc}{col}"] = c
    return index


def syntax_number(tail: str, default: int, word: str, k: int) -> int:
    """A mark's ``:`` part as a number (``default`` when empty). Raises ValueError."""
    if not tail:
        return default
    if not (tail.isascii() and tail.isdigit()):
        raise ValueError(f"{word}= mark {k}: {quote(tail)} is not a number")
    if len(tail) > 5 or int(tail) > MAX_VALUE:
        raise ValueError(f"{word}= mark {k}: {quote(_short(tail))} is over {MAX_VALUE}")
    return int(tail)


def syntax_lines(
    word: str,
    least: int = 2,
    default: int = 0,
    check: Callable[[Mark, int], str] | None = None,
    value: str | None = "value",
    required: bool = False,
) -> Callable[[str, int], tuple[Mark, ...]]:
    """The line syntax of a rule of lines: ``r1c1-r1c2-r1c3[:value];...``, each at least ``least`` cells.

    ``check(mark, size)``: what is wrong with a mark the rule cannot take (``""`` when nothing), named in the
    ValueError with the mark's number. ``value``: what the ``:`` part is called (``"sum"``), None when the rule
    takes none (``thermo= mark 1 takes no :value, not ":5"``); ``required``: a mark without it is refused
    (``littlekiller= mark 1 has no :sum``; break-session finding: it was read as 0).
    """

    def read(text: str, size: int) -> tuple[Mark, ...]:
        marks = []
        for k, (cells, tail) in enumerate(syntax_marks(text, size, word), 1):
            if not cells and not tail:
                raise ValueError(f"{word}= mark {k} is empty")
            if len(cells) < least:
                raise ValueError(f"{word}= mark {k} has fewer than {least} cells")
            if value is None and tail:
                raise ValueError(f"{word}= mark {k} takes no :value, not {quote(':' + _short(tail))}")
            if required and not tail:
                raise ValueError(f"{word}= mark {k} has no :{value}")
            mark = new_mark(word, cells, syntax_number(tail, default, word, k))
            wrong = check(mark, size) if check is not None else ""
            if wrong:
                raise ValueError(f"{word}= mark {k} {wrong}")
            marks.append(mark)
        return tuple(marks)

    return read


# -- f-puzzles entries written back (the rules' ``fpuzzles_out`` functions) ------------------------


def fp_name(size: int, c: int) -> str:
    """``R1C2``: cell ``c`` (0-based, row-major) as f-puzzles names it."""
    return f"R{c // size + 1}C{c % size + 1}"


def fp_out_lines(key: str) -> Callable[[tuple[Mark, ...], int], dict[str, object]]:
    """The inverse of :func:`fp_lines`: one ``key`` entry per line mark (``value`` when the mark has one)."""

    def write(marks: tuple[Mark, ...], size: int) -> dict[str, object]:
        entries: list[dict[str, object]] = []
        for mark in marks:
            entry: dict[str, object] = {"lines": [[fp_name(size, c) for c in mark.cells]]}
            if mark.value:
                entry["value"] = mark.value
            entries.append(entry)
        return {key: entries} if entries else {}

    return write
