"""The pure-Python core's rules, compiled from a geometry's units into bitboard code.

**State.** A search node is one int, a bitboard: bit ``cell * (n + 1) + d - 1``
is set while digit ``d`` is still a candidate of ``cell`` (``n`` digits per
unit, cells row-major). The last bit of each cell is a spare, always 0, that
catches carries: ``(s + full) & spare`` marks the cells that are not empty in
two steps. Copying a state is free (ints are immutable) and every rule is
applied to all cells, units and digits at once with shifts and masks, so the
interpreter runs a few hundred int operations per search node, not thousands
of list operations.

**From units to code.** Everything comes from the geometry's list of units
(:mod:`..geometry`; Norvig's ``unitlist``): the peers, and the unit *kinds*:
units with the same shape (the same cell offsets from their first cell) that
share no cell are handled together, one shift per cell of the shape (rows,
columns and boxes are three kinds of a classic grid; a diagonal is a kind of
its own). The code of one geometry is generated once (:class:`_Compiler`)
with its masks as constants, and cached by the geometry's key.

**Propagation** (``propagate``) removes only candidates that no solution can
use, until nothing changes:

* naked singles: a cell with one candidate removes it from its peers;
* hidden singles: a digit with one place left in a unit goes there (the
  first kind first; the others only while nothing new is found);
* locked candidates, for every pair of units that share two cells or more
  (classic grids: pointing and claiming): a digit whose places in one unit
  all lie in the intersection leaves the rest of the other unit. Each unit's
  intersections are taken in families of disjoint ones; a digit in one
  intersection of a family only, and nowhere else in the unit, is locked
  there. Measured on magictour top1465: 3.2x fewer search nodes, about 2.5x
  less time.

A unit rule counts, for every unit and digit at once, "at least one" and
"at least two" places with shifted ORs, doubling the window when the shape
is a line or a rectangle (4 steps for 9 cells). Any contradiction (an empty
cell, a digit with no place in a unit) ends the propagation.

**Branching** (``pick``): the lower digit of the cell with two candidates
that has the most open peers; else a digit with two places in a unit; else
the first cell with the fewest candidates (see :mod:`._python`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from sudoku_server.sudoku.geometry import Geometry
from sudoku_server.sudoku.solver._constraints import constrain

__all__ = ["Engine", "engine"]

#: Grids with at least this many digits per unit also call ``check()`` once
#: per propagation round, not only once per search node.
_CHECK_ROUNDS_FROM = 16


class _Compiler:
    """Writes the source of one straight-line function, with its constants.

    Masks are stored as named globals (``K0``, ``K1``...) rather than literals:
    a 25x25 state has 15,625 bits, over the limit of int literals in source.
    """

    def __init__(self, header: str) -> None:
        self.lines = [header]
        self.consts: dict[str, int] = {}
        self._by_value: dict[int, str] = {}
        self._n = 0

    def const(self, value: int) -> str:
        if -1000 < value < 1000:
            return str(value)
        name = self._by_value.get(value)
        if name is None:
            name = self._by_value[value] = f"K{len(self.consts)}"
            self.consts[name] = value
        return name

    def var(self, prefix: str = "v") -> str:
        self._n += 1
        return f"{prefix}{self._n}"

    def emit(self, line: str, indent: int = 1) -> None:
        self.lines.append("    " * indent + line)

    def fold(
        self, x: str, windows: Sequence[tuple[int, int]], indent: int, twice: bool = True
    ) -> tuple[str, str | None]:
        """Count the bits of ``x`` over a window at every position.

        ``windows`` is a list of ``(step, length)``: the window at bit ``i`` is
        ``i + a*step1 + b*step2 ...`` (``a < length1``...), e.g. ``[(w, n)]``
        for the n cells of a row (``w`` bits per cell). Windows are built by
        doubling.

        Returns:
          (ones, twos): names of ints whose bit ``i`` says the window at ``i``
          holds at least one / at least two set bits of ``x`` (``twos`` is None
          when ``twice`` is false).
        """
        o, t = x, None
        for step, length in windows:
            ro = rt = None
            offset = 0
            po, pt = o, t
            plen = 1
            rest = length
            while rest:
                if rest & 1:
                    if ro is None:
                        ro = self.var("o")
                        shift = f" >> {offset * step}" if offset else ""
                        self.emit(f"{ro} = {po}{shift}", indent)
                        if pt is not None:
                            rt = self.var("t")
                            self.emit(f"{rt} = {pt}{shift}", indent)
                    else:
                        y = self.var("y")
                        self.emit(f"{y} = {po} >> {offset * step}", indent)
                        if twice:
                            terms = [f"({ro} & {y})"]
                            if rt is not None:
                                terms.append(rt)
                            if pt is not None:
                                terms.append(f"({pt} >> {offset * step})")
                            nt = self.var("t")
                            self.emit(f"{nt} = {' | '.join(terms)}", indent)
                            rt = nt
                        self.emit(f"{ro} |= {y}", indent)
                    offset += plen
                rest >>= 1
                if rest:
                    y, no = self.var("y"), self.var("o")
                    self.emit(f"{y} = {po} >> {plen * step}", indent)
                    if twice:
                        nt = self.var("t")
                        terms = [f"({po} & {y})"]
                        if pt is not None:
                            terms += [pt, f"({pt} >> {plen * step})"]
                        self.emit(f"{nt} = {' | '.join(terms)}", indent)
                        pt = nt
                    self.emit(f"{no} = {po} | {y}", indent)
                    po = no
                    plen *= 2
            assert ro is not None  # every window has a length of 1 or more
            o, t = ro, rt
        return o, t

    def fold_offsets(self, x: str, offsets: Sequence[int], indent: int, twice: bool = True) -> tuple[str, str | None]:
        """Like :meth:`fold` over any set of bit offsets (linear: one shift per offset)."""
        o = self.var("o")
        self.emit(f"{o} = {x} >> {offsets[0]}" if offsets[0] else f"{o} = {x}", indent)
        t = None
        for offset in offsets[1:]:
            y = self.var("y")
            self.emit(f"{y} = {x} >> {offset}", indent)
            if twice:
                nt = self.var("t")
                self.emit(f"{nt} = {t} | ({o} & {y})" if t else f"{nt} = {o} & {y}", indent)
                t = nt
            self.emit(f"{o} |= {y}", indent)
        return o, t

    def fold3(self, x: str, offsets: Sequence[int], indent: int) -> tuple[str, str]:
        """Like :meth:`fold` with at-least-two and at-least-three counts (linear)."""
        o, t, h = self.var("o"), self.var("t"), self.var("h")
        self.emit(f"{o} = {x}; {t} = 0; {h} = 0", indent)
        for offset in offsets[1:]:
            y = self.var("y")
            self.emit(f"{y} = {x} >> {offset}; {h} |= {t} & {y}; {t} |= {o} & {y}; {o} |= {y}", indent)
        return t, h

    def build(self, name: str, extra: dict[str, Any]) -> Any:
        namespace = dict(self.consts)
        namespace.update(extra)
        exec("\n".join(self.lines), namespace)
        return namespace[name]


#: Largest grid whose ``elim`` masks are all computed ahead: 16x16 takes
#: 1.5 MB, 25x25 would take 33 MB (15,625 masks of 16,250 bits).
_ELIM_TABLE_UP_TO = 16


class _Eliminations:
    """``elim`` of :class:`Engine` computed on demand (for 25x25 grids)."""

    __slots__ = ("own", "peer_ones", "width")

    def __init__(self, width: int, own: list[int], peer_ones: list[int]) -> None:
        self.width, self.own, self.peer_ones = width, own, peer_ones

    def __getitem__(self, index: int) -> int:
        cell, digit = divmod(index - 1, self.width)
        return (self.own[cell] ^ (1 << (index - 1))) | (self.peer_ones[cell] << digit)


def _windows(pattern: Sequence[int], w: int) -> list[tuple[int, int]] | None:
    """Fold windows (bit step, length) for a shape of cell offsets, or None when it is not a line or rectangle."""
    m = len(pattern)
    if m < 2:
        return None
    s1 = pattern[1]
    l1 = 1
    while l1 < m and pattern[l1] == l1 * s1:
        l1 += 1
    if l1 == m:
        return [(s1 * w, m)]
    if m % l1:
        return None
    s2, l2 = pattern[l1], m // l1
    if s2 <= (l1 - 1) * s1 or sorted(a * s1 + b * s2 for a in range(l1) for b in range(l2)) != list(pattern):
        return None
    return [(s1 * w, l1), (s2 * w, l2)]


def _shape(cells: Iterable[int]) -> tuple[int, tuple[int, ...]]:
    """(first cell, offsets of the cells from it, ascending)."""
    ordered = sorted(cells)
    return ordered[0], tuple(c - ordered[0] for c in ordered)


class _Kind:
    """Units of one shape that share no cell: one fold covers them all."""

    __slots__ = ("cells", "firsts", "pattern", "units")

    def __init__(self, pattern: tuple[int, ...]) -> None:
        self.pattern = pattern
        self.units: list[int] = []
        self.firsts: list[int] = []
        self.cells: set[int] = set()


def _kinds(geo: Geometry) -> list[_Kind]:
    """The units grouped into kinds, in the order of their first unit."""
    kinds: list[_Kind] = []
    for u, unit in enumerate(geo.units):
        first, pattern = _shape(unit)
        for kind in kinds:
            if kind.pattern == pattern and not kind.cells.intersection(unit):
                break
        else:
            kind = _Kind(pattern)
            kinds.append(kind)
        kind.units.append(u)
        kind.firsts.append(first)
        kind.cells.update(unit)
    return kinds


def _split(items: list[Any], key: Callable[[Any], Hashable], fits: Callable[[list[Any], Any], bool]) -> list[list[Any]]:
    """``items`` grouped by ``key``, each group split (in order) so that ``fits(group, item)`` holds when added."""
    groups: dict[Hashable, list[list[Any]]] = {}
    for item in items:
        subgroups = groups.setdefault(key(item), [])
        for group in subgroups:
            if fits(group, item):
                group.append(item)
                break
        else:
            subgroups.append([item])
    return [group for subgroups in groups.values() for group in subgroups]


#: One side of an intersection: (unit A, the other unit B, the cells they share).
_Side = tuple[int, int, tuple[int, ...]]
#: A family's shape: (unit shape, pieces as (offset from the unit's first cell,
#: intersection shape), offsets of the rest of the unit).
_FamilyKey = tuple[tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...], tuple[int, ...]]
#: A batch of families: their shape, the units' first cells, and per piece the
#: sides as (intersection first cell, target group).
_Batch = tuple[
    tuple[int, ...], tuple[tuple[int, tuple[int, ...]], ...], tuple[int, ...], list[int], list[list[tuple[int, int]]]
]


class _Locked:
    """The locked-candidates plan of a geometry (see the module docstring).

    Attributes:
      patterns: intersection shapes -> the first cells of the intersections of that shape.
      batches: families of intersections (one unit's, pairwise disjoint) with
        the same shape, at distinct first cells: (unit shape, pieces as
        (offset from the unit's first cell, intersection shape), offsets of
        the rest of the unit, unit first cells, per piece the sides
        (intersection first cell, target group)).
      targets: per target group: (intersection shape, shape of the other
        unit, offset of the intersection from that unit's first cell).
    """

    def __init__(self, geo: Geometry) -> None:
        units = geo.units
        cell_sets = [frozenset(u) for u in units]
        inters = []  # (unit a, unit b, cells)
        for a in range(len(units)):
            for b in range(a + 1, len(units)):
                common = cell_sets[a] & cell_sets[b]
                if len(common) >= 2:
                    inters.append((a, b, tuple(sorted(common))))
        self.patterns: dict[tuple[int, ...], list[int]] = {}
        for _a, _b, cells in inters:
            first, pattern = _shape(cells)
            self.patterns.setdefault(pattern, []).append(first)
        # sides: (unit A, the other unit B, intersection cells); families per unit A
        families: list[tuple[int, list[_Side]]] = []
        for u in range(len(units)):
            sides = [(a if b == u else b, cells) for a, b, cells in inters if u in (a, b)]
            while sides:
                taken: set[int] = set()
                family, left = [], []
                for other, cells in sides:
                    if taken.isdisjoint(cells):
                        taken.update(cells)
                        family.append((u, other, cells))
                    else:
                        left.append((other, cells))
                families.append((u, family))
                sides = left
        # target groups: (shape of I, shape of B, offset of I in B), B's disjoint or equal
        side_list = [side for _u, family in families for side in family]

        def target_key(side: _Side) -> tuple[tuple[int, ...], tuple[int, ...], int]:
            _a, b, cells = side
            b_first, b_pattern = _shape(units[b])
            return _shape(cells)[1], b_pattern, cells[0] - b_first

        def target_fits(group: list[_Side], side: _Side) -> bool:
            return all(b == side[1] or cell_sets[b].isdisjoint(cell_sets[side[1]]) for _a, b, _c in group)

        groups = _split(side_list, target_key, target_fits)
        target_of: dict[_Side, int] = {}
        self.targets: list[tuple[tuple[int, ...], tuple[int, ...], int]] = []
        for g, group in enumerate(groups):
            key = target_key(group[0])
            self.targets.append(key)
            for side in group:
                target_of[side] = g

        def family_key(item: tuple[int, list[_Side]]) -> _FamilyKey:
            u, family = item
            first, pattern = _shape(units[u])
            pieces = tuple((cells[0] - first, _shape(cells)[1]) for _a, _b, cells in family)
            inside = {c for _a, _b, cells in family for c in cells}
            rest = tuple(sorted(c - first for c in units[u] if c not in inside))
            return pattern, pieces, rest

        def family_fits(group: list[tuple[int, list[_Side]]], item: tuple[int, list[_Side]]) -> bool:
            first = min(units[item[0]])
            return all(min(units[u]) != first for u, _f in group)

        self.batches: list[_Batch] = []
        for batch in _split(families, family_key, family_fits):
            pattern, pieces, rest = family_key(batch[0])
            firsts = [min(units[u]) for u, _f in batch]
            piece_sides = [[(fam[j][2][0], target_of[fam[j]]) for _u, fam in batch] for j in range(len(pieces))]
            self.batches.append((pattern, pieces, rest, firsts, piece_sides))


class Engine:
    """The compiled rules of one geometry.

    Attributes:
      geo: the geometry.
      n, ncells: digits per unit and cells of the grid.
      width: bits per cell, ``n + 1`` (the last is the spare bit, always 0).
      full: the state with every candidate.
      root: where :meth:`state` starts: ``full``, or a pencilmark puzzle's candidates.
      cell_ones, spare: the lowest bit, the spare bit of every cell.
      digit_mask: ``(1 << n) - 1``.
      elim: ``elim[i + 1]``, for candidate bit ``i`` (digit d at cell c), the
        candidates that placing it removes: its cell's other digits and d in
        the peers. Indexed by ``bit.bit_length()``.
      propagate(s, done, check) -> (s, done): the state after propagation
        (with the geometry's constraints, :mod:`._constraints`),
        or ``(0, 0)`` on a contradiction. ``done`` holds the singles whose
        consequences are already removed (a speed-up; 0 is always valid).
        For 16x16 and larger, ``check()`` is also called every round (a
        25x25 node can take tens of milliseconds).
      pick(s) -> int: the candidate bit to branch on, 0 when ``s`` is solved.
    """

    def __init__(self, geo: Geometry) -> None:
        self.geo = geo
        n = self.n = geo.size
        w = self.width = n + 1  # bits per cell: n digits and a spare bit, always 0
        self.ncells = geo.ncells
        self.digit_mask = (1 << n) - 1
        self.cell_ones = self._spread(c * w for c in range(geo.ncells))
        self.spare = self.cell_ones << n
        self.full = self.cell_ones * self.digit_mask
        self.root = self.full
        own = [self.digit_mask << (c * w) for c in range(geo.ncells)]
        peer_ones = [self._spread(p * w for p in geo.peers[c]) for c in range(geo.ncells)]
        self.elim: Any
        if n <= _ELIM_TABLE_UP_TO:
            elim = [0] * (geo.ncells * w + 1)
            for c in range(geo.ncells):
                for d in range(n):
                    elim[c * w + d + 1] = (own[c] ^ (1 << (c * w + d))) | (peer_ones[c] << d)
            self.elim = elim
        else:
            self.elim = _Eliminations(w, own, peer_ones)
        kinds = _kinds(geo)
        self.propagate: Callable[..., tuple[int, int]] = self._compile_propagate(kinds, _Locked(geo))
        self.pick: Callable[[int], int] = self._compile_pick(kinds)

    @staticmethod
    def _spread(offsets: Iterable[int]) -> int:
        """One bit at each offset."""
        return sum(1 << off for off in offsets)

    def _cells(self, seq: Iterable[int]) -> int:
        """Every digit's bit in the given cells."""
        mask, w = 0, self.width
        for c in seq:
            mask |= self.digit_mask << (c * w)
        return mask

    def _fold(self, src: _Compiler, x: str, pattern: Sequence[int], indent: int, twice: bool = True) -> tuple[str, str]:
        """:meth:`_Compiler.fold` over a shape of cell offsets (doubling for lines and rectangles)."""
        w = self.width
        windows = _windows(pattern, w)
        if windows is not None:
            o, t = src.fold(x, windows, indent, twice)
        else:
            o, t = src.fold_offsets(x, [off * w for off in pattern], indent, twice)
        return o, t or "0"

    def _compile_propagate(self, kinds: list[_Kind], locked: _Locked) -> Callable[..., tuple[int, int]]:
        n, w = self.n, self.width
        cells, spread = self._cells, self._spread
        src = _Compiler("def propagate(s, done, check):")
        K = src.const
        src.emit("while True:")
        if n >= _CHECK_ROUNDS_FROM:
            src.emit("check()", 2)
        # Naked singles; an empty cell is a contradiction. Adding n ones to a
        # cell carries into its spare bit unless the cell is empty; so does it
        # after the cell loses its lowest candidate, unless it had one only.
        src.emit(f"some = (s + {K(self.full)}) & {K(self.spare)}", 2)
        src.emit(f"if some != {K(self.spare)}: return 0, 0", 2)
        src.emit(f"r1 = s & (s - {K(self.cell_ones)})", 2)
        src.emit(f"new = s & (((some ^ ((r1 + {K(self.full)}) & {K(self.spare)})) >> {n}) * {K(self.digit_mask)})", 2)
        src.emit("new ^= new & done", 2)
        src.emit("if not new:", 2)
        # Hidden singles; a digit with no place in a unit is a contradiction
        # (the first kind first; the others only while nothing new is found).
        several: dict[tuple[int, ...], str] = {}  # unit shape -> its digits with two places or more
        for k, kind in enumerate(kinds):
            firsts = cells(kind.firsts)
            o, t = self._fold(src, "s", kind.pattern, 3 + k)
            several.setdefault(kind.pattern, t)
            src.emit(f"if {o} & {K(firsts)} != {K(firsts)}: return 0, 0", 3 + k)
            src.emit(f"new = s & ((({o} ^ {t}) & {K(firsts)}) * {K(spread(off * w for off in kind.pattern))})", 3 + k)
            src.emit("new ^= new & done", 3 + k)
            src.emit("if not new:", 3 + k)
        lc = 3 + len(kinds)  # the indent of the locked-candidates code
        self._emit_locked(src, locked, several, lc)
        src.emit("e &= s", lc)
        src.emit("if not e: return s, done", lc)
        src.emit("s ^= e", lc)
        src.emit("continue", lc)
        # Place the new singles: remove what each excludes.
        src.emit("done |= new", 2)
        src.emit("e = 0", 2)
        src.emit("while new:", 2)
        src.emit("low = new & -new", 3)
        src.emit("e |= ELIM[low.bit_length()]", 3)
        src.emit("new ^= low", 3)
        src.emit("s ^= s & e", 2)
        return src.build("propagate", {"ELIM": self.elim})  # type: ignore[no-any-return]

    def _emit_locked(self, src: _Compiler, locked: _Locked, several: dict[tuple[int, ...], str], lc: int) -> None:
        """Locked candidates: ``e`` gets the candidates they remove."""
        w, cells, spread, K = self.width, self._cells, self._spread, src.const
        src.emit("e = 0", lc)
        seg = {}  # intersection shape -> at each intersection's first cell, the digits with a place in it
        for pattern, firsts in locked.patterns.items():
            seg[pattern] = self._fold(src, "s", pattern, lc, twice=False)[0]
            src.emit(f"{seg[pattern]} &= {K(cells(firsts))}", lc)
        targets = [src.var("T") for _ in locked.targets]
        if targets:
            src.emit(" = ".join(targets) + " = 0", lc)
        for unit_pattern, pieces, rest, firsts, sides in locked.batches:
            # at each unit's first cell: the digits in one piece of the family only, nowhere else in the unit
            parts = []
            for off, pattern in pieces:
                if off:
                    part = src.var("p")
                    src.emit(f"{part} = {seg[pattern]} >> {off * w}", lc)
                    parts.append(part)
                else:
                    parts.append(seg[pattern])
            once, twice = src.var("o"), src.var("t")
            src.emit(f"{once} = {parts[0]}; {twice} = 0", lc)
            for part in parts[1:]:
                src.emit(f"{twice} |= {once} & {part}; {once} |= {part}", lc)
            only = src.var("only")
            expr = f"({once} ^ {twice}) & {several[unit_pattern]} & {K(cells(firsts))}"
            if rest:
                r = self._fold(src, "s", rest, lc, twice=False)[0] if rest[0] == 0 else self._rest(src, rest, lc)
                expr += f" & ~{r}"
            src.emit(f"{only} = {expr}", lc)
            src.emit(f"if {only}:", lc)
            for j, (off, pattern) in enumerate(pieces):
                sel = src.var("sel")
                shift = f" << {off * w}" if off else ""
                src.emit(f"{sel} = ({only}{shift}) & {seg[pattern]}", lc + 1)
                by_target: dict[int, list[int]] = {}
                for first, g in sides[j]:
                    by_target.setdefault(g, []).append(first)
                for g, group_firsts in by_target.items():
                    if len(by_target) == 1:
                        src.emit(f"{targets[g]} |= {sel}", lc + 1)
                    else:
                        src.emit(f"{targets[g]} |= {sel} & {K(cells(group_firsts))}", lc + 1)
        # the rest of each target unit loses the digits locked in its intersection
        for g, (pattern, unit_pattern, offset) in enumerate(locked.targets):
            t = targets[g]
            src.emit(f"if {t}:", lc)
            back = f" >> {offset * w}" if offset else ""
            src.emit(f"x = ({t}{back}) * {K(spread(off * w for off in unit_pattern))}", lc + 1)
            src.emit(f"e |= x ^ (x & ({t} * {K(spread(off * w for off in pattern))}))", lc + 1)

    def _rest(self, src: _Compiler, rest: Sequence[int], lc: int) -> str:
        """At each unit's first cell: the digits of the cells at offsets ``rest`` (none at 0)."""
        w = self.width
        r = src.var("r")
        src.emit(f"{r} = " + " | ".join(f"(s >> {off * w})" for off in rest), lc)
        return r

    def _compile_pick(self, kinds: list[_Kind]) -> Callable[[int], int]:
        geo, spread, cells = self.geo, self._spread, self._cells
        n, w = self.n, self.width
        peer_spares: dict[int, int] = {}
        for c in range(geo.ncells):
            peer_spares[c * w + n] = spread(p * w + n for p in geo.peers[c])
        src = _Compiler("def pick(s):")
        K = src.const
        # Each cell loses its lowest candidate, then (r2) its second lowest
        # (no cell is empty, so the subtractions borrow inside a cell only);
        # the spare-bit carries mark the cells with two or more, three or more.
        ones, full, spare = K(self.cell_ones), K(self.full), K(self.spare)
        src.emit(f"r1 = s & (s - {ones})")
        src.emit(f"open_ = (r1 + {full}) & {spare}")
        src.emit("if not open_: return 0")
        src.emit(f"r2 = r1 & ((r1 | {spare}) - {ones})")
        src.emit(f"pairs = open_ ^ ((r2 + {full}) & {spare})")
        src.emit("if pairs:")
        src.emit("best = -1", 2)
        src.emit("while pairs:", 2)
        src.emit("low = pairs & -pairs", 3)
        src.emit("pairs ^= low", 3)
        src.emit("i = low.bit_length() - 1", 3)
        src.emit("degree = (open_ & PEERS[i]).bit_count()", 3)
        src.emit("if degree > best: best = degree; at = i", 3)
        src.emit(f"at -= {n}", 2)
        src.emit(f"m = (s >> at) & {K(self.digit_mask)}", 2)
        src.emit("return (m & -m) << at", 2)
        for kind in kinds:
            offsets = [off * w for off in kind.pattern]
            firsts = cells(kind.firsts)
            t, h = src.fold3("s", offsets, 1)
            src.emit(f"two = ({t} ^ {h}) & {K(firsts)}")
            src.emit("if two:")
            src.emit(f"m = s & ((two & -two) * {K(spread(offsets))})", 2)
            src.emit("return m & -m", 2)
        src.emit("return fewest(s)")
        return src.build("pick", {"PEERS": peer_spares, "fewest": self._fewest})  # type: ignore[no-any-return]

    def _fewest(self, s: int) -> int:
        """The lowest candidate of the first cell with the fewest (>1) candidates."""
        w, mask = self.width, self.digit_mask
        best_count, best_at = w, 0
        x = s
        for c in range(self.ncells):
            m = x & mask
            x >>= w
            if m & (m - 1):
                count = m.bit_count()
                if count < best_count:
                    best_count, best_at = count, c * w
        m = (s >> best_at) & mask
        return (m & -m) << best_at

    def state(self, cells: Sequence[int]) -> tuple[int, int]:
        """(state, givens) of a puzzle, before propagation.

        ``state`` has each given's eliminations applied; ``givens`` holds the
        givens' bits. Two givens in one unit remove each other's bit.
        """
        w, elim = self.width, self.elim
        removed = placed = 0
        for c, d in enumerate(cells):
            if d:
                i = c * w + d
                removed |= elim[i]
                placed |= 1 << (i - 1)
        return self.root ^ (self.root & removed), placed

    def digits(self, s: int) -> tuple[int, ...]:
        """The digit of every cell of a solved state, row-major."""
        w, mask = self.width, self.digit_mask
        out = []
        for _ in range(self.ncells):
            out.append((s & mask).bit_length())
            s >>= w
        return tuple(out)


_ENGINES: dict[Hashable, Engine] = {}


def engine(geo: Geometry) -> Engine:
    """The compiled :class:`Engine` of ``geo`` (built once per geometry key).

    The constraints that are not units (nonconsecutive pairs, killer cage
    sums, pencilmarks) are added by :func:`._constraints.constrain`.

    Raises:
      ValueError: a constraint the core does not know (it refuses rather
        than ignores it).
    """
    found = _ENGINES.get(geo.key)
    if found is None:
        found = Engine(geo)
        if geo.constraints:
            constrain(found)
        _ENGINES[geo.key] = found
    return found
