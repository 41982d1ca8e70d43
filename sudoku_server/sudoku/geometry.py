"""The rules of a grid as data: cells plus a list of units (Norvig's ``unitlist``).

A :class:`Geometry` is the cells of a square grid (``size * size`` of them,
numbered row-major from 0) and a LIST OF UNITS: tuples of ``size`` cells that
must hold every digit ``1..size`` once (a row, a column, a box; for variants
a diagonal, a jigsaw region, an extra window). Everything else is computed
from that list, after Norvig ("Solving Every Sudoku Puzzle"): each cell's
units (:attr:`Geometry.cell_units`) and its peers (the other cells of its
units). The solver cores, the duplicate check and ``verify_solution`` work
from the units only, so a variant whose rules are units (X-Sudoku, windoku,
jigsaw) is a new constructor here and nothing else.

:func:`classic` builds the geometry of boxes ``box_rows x box_cols`` (rows,
then columns, then boxes); :func:`geometry` is its public name.
:func:`from_units` builds one from any list of units.

Cells are shown to people as ``r1c1``..``r9c9`` (1-based, :func:`cell_name`);
units are numbered from 1 in their names (``"row 1"``, ``"box 9"``).
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from sudoku_server.sudoku.constraints import Constraint

__all__ = ["BOX_SHAPES", "VALID_BOXES", "Geometry", "cell_name", "classic", "from_units", "geometry"]

#: Box shapes by grid size (rows x columns of one box): THE one list of the
#: sizes (4, 6, 9, 16, 25) the server reads, solves and generates. 6x6 uses
#: 2x3 boxes, the usual convention (two box rows of three columns each).
BOX_SHAPES = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4), 25: (5, 5)}

#: Every box shape the text layouts accept: the defaults above and 3x2 boxes
#: for 6x6 (three box rows of two columns), chosen by the request's layout.
VALID_BOXES = frozenset(BOX_SHAPES.values()) | {(3, 2)}

#: Largest number of digits per unit (25x25 grids: candidates fit 32 bits).
MAX_SIZE = 25


def cell_name(cell: int, size: int = 9) -> str:
    """The 1-based name of a 0-based cell index: ``cell_name(0) == "r1c1"``."""
    return f"r{cell // size + 1}c{cell % size + 1}"


@dataclass(frozen=True, eq=False)
class Geometry:
    """The cells, units and peers of one kind of grid.

    Two geometries are equal when their keys are (the key identifies the rules).

    Attributes:
      key: hashable, identifies the geometry: ``("classic", 3, 3)`` for the
        classic 9x9; the cores cache their tables per key.
      size: digits per unit, and cells per row (9).
      ncells: ``size * size`` (81).
      units: the units, each a tuple of ``size`` distinct cell indices (27
        for 9x9: rows, columns, boxes); every core works from this list.
      unit_names: parallel to ``units``: ``"row 1"``, ``"column 1"``,
        ``"box 1"``, later ``"diagonal 1"``, ``"region 3"``...
      constraints: the rules that are not units, as values of the constraint
        vocabulary (:mod:`.constraints`: all-different, relation, sum,
        candidates); empty for classic and the unit variants. Every engine
        switches on their kinds; a core refuses (ValueError) a kind it does
        not know rather than ignore it.
      constraint_rules: parallel to ``constraints``: the word of the rule
        each came from (:mod:`.rules`), which words its errors.
      constraint_names: parallel to ``constraints``: the name messages give
        it (``"cage a"``), "" for none.
      rule_words: the words of the rules of the grid, in the registry's order
        (``("x", "antiknight")``; ``"pencilmarks"`` last for a pencilmark
        puzzle); empty for classic.
      cell_units: for each cell, the indices (into ``units``) of its units,
        ascending (three per cell for classic grids; any number here).
      peers: for each cell, the sorted tuple of the cells that must hold
        another digit: the other cells of its units (20 per cell for 9x9),
        plus the extra peers of peer rules and cages (:mod:`.variants`).
      unit_array: the units as one flat array of 16-bit cell indices
        (``len(units) * size`` of them, native byte order), for the C core.
      box_rows, box_cols: the shape of the square grid's boxes (3, 3); 0, 0
        when the grid has no boxes of one shape. Layouts draw them.
      rows, columns: the square grid's ``size`` rows and columns, each a tuple
        of cell indices in row-major order (a grid of any geometry has them).
      boxes: the boxes of shape ``box_rows x box_cols`` (empty without one).
      row_of, col_of, box_of: 0-based row, column and box index of each cell
        (``box_of`` all -1 without a box shape).
      all_digits: bitmask with bit ``d - 1`` set for every digit d (0x1FF).
    """

    key: Hashable
    size: int
    ncells: int
    units: tuple[tuple[int, ...], ...]
    unit_names: tuple[str, ...]
    constraints: tuple[Constraint, ...]
    cell_units: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    unit_array: bytes = field(repr=False)
    box_rows: int
    box_cols: int
    rows: tuple[tuple[int, ...], ...] = field(repr=False)
    columns: tuple[tuple[int, ...], ...] = field(repr=False)
    boxes: tuple[tuple[int, ...], ...] = field(repr=False)
    row_of: tuple[int, ...] = field(repr=False)
    col_of: tuple[int, ...] = field(repr=False)
    box_of: tuple[int, ...] = field(repr=False)
    all_digits: int
    constraint_rules: tuple[str, ...] = ()
    constraint_names: tuple[str, ...] = ()
    rule_words: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Geometry) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def classic(self) -> bool:
        """True for the rows, columns and boxes of :func:`classic` (``key[0] == "classic"``)."""
        return isinstance(self.key, tuple) and bool(self.key) and self.key[0] == "classic"


def _boxes(size: int, box_rows: int, box_cols: int) -> tuple[tuple[int, ...], ...]:
    boxes = []
    for br in range(0, size, box_rows):
        for bc in range(0, size, box_cols):
            boxes.append(tuple((br + r) * size + bc + c for r in range(box_rows) for c in range(box_cols)))
    return tuple(boxes)


def from_units(
    key: Hashable,
    size: int,
    units: Sequence[Sequence[int]],
    unit_names: Sequence[str],
    *,
    box_rows: int = 0,
    box_cols: int = 0,
    constraints: Sequence[Constraint] = (),
    extra_peers: Sequence[tuple[int, int]] = (),
    constraint_rules: Sequence[str] = (),
    constraint_names: Sequence[str] = (),
    rule_words: Sequence[str] = (),
) -> Geometry:
    """A :class:`Geometry` of ``size * size`` cells from any list of units.

    Args:
      key: hashable and unique to these rules (the cores cache per key).
      size: digits per unit, 1..25.
      units: each ``size`` distinct cells in ``0 .. size * size - 1``.
      unit_names: one name per unit, for messages (``"diagonal 1"``).
      box_rows, box_cols: the shape of the grid's boxes, for layouts and the
        ``boxes``/``box_of`` attributes (0, 0: none); the units decide the rules.
      constraints: rules that are not units (see :class:`Geometry`).
      constraint_rules, constraint_names: parallel to ``constraints`` (empty:
        "" for each); rule_words: the rules' words (see :class:`Geometry`).
      extra_peers: pairs of cells that must differ without sharing a unit
        (a knight's move for anti-knight, the cells of a killer cage): they
        join ``peers``, so whatever eliminates along peers sees them; the
        constraint that put them there says which rule they come from.

    Raises:
      ValueError: a size out of 1..25, a unit of the wrong length or with a
        cell out of range or repeated, names not parallel to the units, or a
        box shape that does not tile the grid.
    """
    units_t = tuple(tuple(map(int, unit)) for unit in units)
    names = tuple(unit_names)
    sk = _skeleton(size, units_t, names, box_rows, box_cols)
    ncells = size * size
    peers = sk.peers
    if extra_peers:
        seen = [set(p) for p in peers]
        for a, b in extra_peers:
            if not (0 <= a < ncells and 0 <= b < ncells) or a == b:
                raise ValueError(f"extra peers ({a}, {b}): two distinct cells of 0..{ncells - 1}")
            seen[a].add(b)
            seen[b].add(a)
        peers = tuple(tuple(sorted(cells)) for cells in seen)
    return Geometry(
        key=key,
        size=size,
        ncells=ncells,
        units=sk.units,
        unit_names=sk.names,
        constraints=tuple(constraints),
        cell_units=sk.cell_units,
        peers=peers,
        unit_array=sk.unit_array,
        box_rows=box_rows,
        box_cols=box_cols,
        rows=sk.rows,
        columns=sk.columns,
        boxes=sk.boxes,
        row_of=sk.row_of,
        col_of=sk.col_of,
        box_of=sk.box_of,
        all_digits=(1 << size) - 1,
        constraint_rules=tuple(constraint_rules) or ("",) * len(constraints),
        constraint_names=tuple(constraint_names) or ("",) * len(constraints),
        rule_words=tuple(rule_words),
    )


@dataclass(frozen=True)
class _Skeleton:
    """What a geometry derives from its units and box shape alone (:func:`_skeleton`)."""

    units: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]
    cell_units: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    unit_array: bytes
    rows: tuple[tuple[int, ...], ...]
    columns: tuple[tuple[int, ...], ...]
    boxes: tuple[tuple[int, ...], ...]
    row_of: tuple[int, ...]
    col_of: tuple[int, ...]
    box_of: tuple[int, ...]


@functools.lru_cache(maxsize=64)
def _skeleton(
    size: int, units_t: tuple[tuple[int, ...], ...], names: tuple[str, ...], box_rows: int, box_cols: int
) -> _Skeleton:
    """The unit-derived parts of :func:`from_units`' geometry (checked), cached by units: every puzzle of a
    rule of marks (thermometers, arrows..) has the classic units and constraints of its own, so its geometry
    is built from this and its constraints only (issue 29). Raises ValueError as :func:`from_units` says."""
    if not 1 <= size <= MAX_SIZE:
        raise ValueError(f"unsupported size {size}")
    ncells = size * size
    if len(names) != len(units_t):
        raise ValueError(f"{len(units_t)} units but {len(names)} names")
    for name, unit in zip(names, units_t):
        if len(unit) != size or len(set(unit)) != size or not all(0 <= c < ncells for c in unit):
            raise ValueError(f"{name}: a unit holds {size} distinct cells of 0..{ncells - 1}")
    if (box_rows or box_cols) and (box_rows * box_cols != size or box_rows < 1 or box_cols < 1):
        raise ValueError(f"box shape {box_rows}x{box_cols} does not tile a {size}x{size} grid")
    cell_units: list[list[int]] = [[] for _ in range(ncells)]
    for u, unit in enumerate(units_t):
        for c in unit:
            cell_units[c].append(u)
    seen: list[set[int]] = [{p for u in cell_units[c] for p in units_t[u]} for c in range(ncells)]
    peers = tuple(tuple(sorted(seen[c] - {c})) for c in range(ncells))
    rows = tuple(tuple(r * size + c for c in range(size)) for r in range(size))
    columns = tuple(tuple(r * size + c for r in range(size)) for c in range(size))
    row_of = tuple(i // size for i in range(ncells))
    col_of = tuple(i % size for i in range(ncells))
    if box_rows:
        boxes = _boxes(size, box_rows, box_cols)
        box_of = tuple((row_of[i] // box_rows) * (size // box_cols) + col_of[i] // box_cols for i in range(ncells))
    else:
        boxes, box_of = (), (-1,) * ncells
    return _Skeleton(
        units=units_t,
        names=names,
        cell_units=tuple(tuple(us) for us in cell_units),
        peers=peers,
        unit_array=array("H", [c for unit in units_t for c in unit]).tobytes(),
        rows=rows,
        columns=columns,
        boxes=boxes,
        row_of=row_of,
        col_of=col_of,
        box_of=box_of,
    )


@functools.cache
def classic(box_rows: int = 3, box_cols: int = 3) -> Geometry:
    """The classic geometry of boxes ``box_rows x box_cols`` (built once, cached).

    Its units are the rows, then the columns, then the boxes (left to right,
    top to bottom), named ``"row 1"``.. ``"column 1"``.. ``"box 1"``..; its key
    is ``("classic", box_rows, box_cols)``.

    Raises:
      ValueError: a box dimension below 1 or a size over 25.
    """
    size = box_rows * box_cols
    if box_rows < 1 or box_cols < 1 or size > MAX_SIZE:
        raise ValueError(f"unsupported box shape {box_rows}x{box_cols}")
    rows = [tuple(r * size + c for c in range(size)) for r in range(size)]
    columns = [tuple(r * size + c for r in range(size)) for c in range(size)]
    boxes = list(_boxes(size, box_rows, box_cols))
    names = (
        [f"row {k + 1}" for k in range(size)]
        + [f"column {k + 1}" for k in range(size)]
        + [f"box {k + 1}" for k in range(size)]
    )
    return from_units(
        ("classic", box_rows, box_cols), size, rows + columns + boxes, names, box_rows=box_rows, box_cols=box_cols
    )


#: The public name of :func:`classic` (``sudoku_server.geometry``): the classic
#: geometry of boxes ``box_rows x box_cols``, cached.
geometry = classic
