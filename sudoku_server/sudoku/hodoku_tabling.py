"""HoDoKu's forcing chains and forcing nets, as its rating path takes them (``Forcing Chain`` 500, ``Forcing Net`` 700).

HoDoKu 2.2.0 finds both with Trebor's tables (``solver/TablingSolver.java``: ``getStep``,
``doGetForcingChains``, ``fillTables``, ``fillTablesWithGroupNodes``, ``getTableEntry``, ``setCell``,
``expandTables``, ``checkForcingChains``, ``checkOneChain``, ``checkTwoChains``, ``checkAllChainsForHouse``,
``checkEntryList``, ``replaceOrCopyStep``, ``TablingComparator``; ``solver/GroupNode.java``; read for the
rules, no code copied). With its default settings (``Options``: group nodes on, ALS nodes off, one chain per
step, a look-ahead of 4 rounds of singles for nets):

- **Tables.** Every premise "digit d in cell c" (*on*) and "d not in c" (*off*) gets a table of what it
  implies. For chains only direct links: on -> off for the cell's other digits and d in the cell's peers;
  off -> on for the cell's other digit (two left) and the other place of d in a unit holding d twice. For
  nets the premise is played on a copy of the grid and 4 rounds of naked then hidden singles (HoDoKu's
  singles queues, :class:`.hodoku_grid.HGrid`) are placed; every placement and every candidate it removes
  (among the state's candidates) is in the table. Group nodes (2-3 cells of one box in a row or column
  holding d) link by the same rules, in both modes.
- **Expansion.** Each table is closed under the tables of what it holds (plain reachability here: HoDoKu
  expands each table in place, pulling the unexpanded entries of the tables of its entries).
- **Checks**, each premise alone: a premise that leads to a candidate both on and off, two digits on in a
  cell, a digit on twice in a unit, a cell with all its candidates off, or a unit with all places of a
  digit off (places where no peer holds it, HoDoKu's ``candidatesAllowed``) is false. Two premises: what
  both on(c, d) and off(c, d) lead to (outside c) is true. All the on premises of a cell's candidates, or
  of a digit's places in a unit: what they all lead to is true.
- **The step taken.** Each result sets one cell or removes one candidate; HoDoKu sorts them
  (``TablingComparator``): placements first, the lowest cell; else the lowest cell, then the lowest digit.
  A net search keeps only steps whose chains need a net; the path tries nets only where no forcing chain
  exists, so every result of the net tables is taken as a net here.

HoDoKu caps a table at 1,000 entries (``Options.MAX_TABLE_ENTRY_LENGTH``); the closure here has no cap.
"""

from __future__ import annotations

from collections.abc import Sequence

from sudoku_server.sudoku.hodoku_grid import ALL_UNITS, BUDDIES, CONSTRAINTS, HGrid, digit_cells

__all__ = ["forcing_step"]

Pairs = list[tuple[int, int]]

M81 = (1 << 81) - 1
#: node ids: on(c, d) = (d - 1) * 81 + c, off(c, d) = OFF + (d - 1) * 81 + c, group nodes from GROUP on
OFF = 729
GROUP = 1458
HOUSE = [sum(1 << c for c in cells) for cells in ALL_UNITS]
BUDDY = [sum(1 << p for p in BUDDIES[c]) for c in range(81)]
#: HoDoKu's ``Sudoku2.LINE_TEMPLATES``, ``COL_TEMPLATES``, ``BLOCK_TEMPLATES``: unit masks in that order
LOOK_AHEAD = 4


def _bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def _once(node: int, entries: list[int]) -> list[int]:
    """A node's direct entries in order, each once, the node left out (``TableEntry.addEntry``)."""
    seen = {node}
    out = []
    for e in entries:
        if e not in seen:
            seen.add(e)
            out.append(e)
    return out


def _copy(g: HGrid) -> HGrid:
    w = HGrid.__new__(HGrid)
    w.values = g.values[:]
    w.cells = g.cells[:]
    w.free = [f[:] for f in g.free]
    w.ns = g.ns[:]
    w.hs = g.hs[:]
    return w


class _Tables:
    """The premise tables of one state: direct successors per node, then their closure."""

    def __init__(self, g: HGrid, nets: bool, ordered: bool = False, groups: bool = True) -> None:
        self.g = g
        self.groups: list[tuple[int, int, int, int, int]] = []
        #: with ``ordered`` (chains only): each node's direct entries as a list in HoDoKu's ``addEntry`` order
        #: (a normal node once; the premise left out), for :mod:`.hodoku_loops`
        self.order: dict[int, list[int]] | None = {} if ordered else None
        self.cands = digit_cells(g.cells)
        self.succ: dict[int, int] = {}
        if nets:
            self._fill_nets()
        else:
            self._fill_chains()
        if groups:
            self._fill_groups()

    # -- direct links ----------------------------------------------------------------------------------------

    def _add(self, node: int, bits: int) -> None:
        self.succ[node] = self.succ.get(node, 0) | bits
        if self.order is not None:
            self.order.setdefault(node, []).extend(_bits(bits))

    def _fill_chains(self) -> None:
        """``TablingSolver.fillTables`` for chains: direct links only."""
        g, cands = self.g, self.cands
        ordered = self.order is not None
        for c in range(81):
            m = g.cells[c]
            if not m:
                continue
            ds = [d for d in range(1, 10) if m >> (d - 1) & 1]
            for d in ds:
                on = (d - 1) * 81 + c
                off_ = OFF + on
                out_on = 0
                out_off = 0
                for d2 in ds:
                    if d2 != d:
                        out_on |= 1 << (OFF + (d2 - 1) * 81 + c)
                        if len(ds) == 2:
                            out_off |= 1 << ((d2 - 1) * 81 + c)
                others = cands[d] & ~(1 << c)
                list_on = [OFF + (d2 - 1) * 81 + c for d2 in ds if d2 != d] if ordered else []
                list_off = [(d2 - 1) * 81 + c for d2 in ds if d2 != d and len(ds) == 2] if ordered else []
                for u in CONSTRAINTS[c]:
                    if g.free[u][d] < 2:
                        continue
                    rest = others & HOUSE[u]
                    if not rest:
                        continue
                    out_on |= rest << (OFF + (d - 1) * 81)
                    if g.free[u][d] == 2:
                        out_off |= rest << ((d - 1) * 81)
                    if ordered:
                        places = _bits(rest)
                        list_on += [OFF + (d - 1) * 81 + x for x in places]
                        if g.free[u][d] == 2:
                            list_off.append((d - 1) * 81 + places[0])
                self.succ[on] = out_on
                self.succ[off_] = out_off
                if self.order is not None:
                    self.order[on] = _once(on, list_on)
                    self.order[off_] = _once(off_, list_off)

    def _fill_nets(self) -> None:
        """``TablingSolver.fillTables`` for nets (``getTableEntry``, ``setCell``): each premise played on a copy
        of the grid with 4 rounds of singles."""
        g = self.g
        for c in range(81):
            m = g.cells[c]
            if not m:
                continue
            for d in range(1, 10):
                if not m >> (d - 1) & 1:
                    continue
                on = (d - 1) * 81 + c
                w = _copy(g)
                self.succ[on] = self._play(w, c, d, True)
                w = _copy(g)
                self.succ[OFF + on] = self._play(w, c, d, False)

    def _place(self, w: HGrid, c: int, v: int) -> int:
        """``TablingSolver.setCell``: place v in c on the copy; the entries it makes."""
        out = 1 << ((v - 1) * 81 + c)
        peers = self.cands[v] & BUDDY[c]
        out |= peers << (OFF + (v - 1) * 81)
        m = w.cells[c]
        for d in range(1, 10):
            if d != v and m >> (d - 1) & 1:
                out |= 1 << (OFF + (d - 1) * 81 + c)
        w.set_cell(c, v)
        return out

    def _play(self, w: HGrid, c: int, d: int, on: bool) -> int:
        """``TablingSolver.getTableEntry``: the entries of one net premise (the premise itself left out)."""
        if on:
            out = self._place(w, c, d)
        else:
            w.del_candidate(c, d)
            out = 1 << (OFF + (d - 1) * 81 + c)
            m = w.cells[c]
            if m and m & (m - 1) == 0:
                out |= self._place(w, c, m.bit_length())
        for _ in range(LOOK_AHEAD):
            singles = [(x, v) for x, v in w.ns if not w.values[x]]
            found = set()
            for x, v in w.hs:
                if not w.values[x] and x not in found and any(w.free[u][v] == 1 for u in CONSTRAINTS[x]):
                    singles.append((x, v))
                    found.add(x)
            for x, v in singles:
                out |= self._place(w, x, v)
        return out

    def _fill_groups(self) -> None:
        """``TablingSolver.fillTablesWithGroupNodes`` with ``GroupNode.getGroupNodes``."""
        cands = self.cands
        #: HoDoKu's group nodes (``GroupNode.getGroupNodes``), node ``i`` on = GROUP + 2 i, off = GROUP + 2 i + 1:
        #: (digit, cells mask, row unit or -1, column unit or -1, box unit)
        nodes: list[tuple[int, int, int, int, int]] = []
        for base in (0, 9):
            for u in range(base, base + 9):
                for d in range(1, 10):
                    inside = HOUSE[u] & cands[d]
                    if not inside:
                        continue
                    for b in range(18, 27):
                        gm = inside & HOUSE[b]
                        if gm and gm & (gm - 1):
                            nodes.append((d, gm, u if base == 0 else -1, u if base == 9 else -1, b))
        self.groups = nodes
        for i, (d, gm, line, col, box) in enumerate(nodes):
            gon = GROUP + 2 * i
            goff = gon + 1
            sh = (d - 1) * 81
            buddies = M81
            for x in _bits(gm):
                buddies &= BUDDY[x]
            seen = cands[d] & buddies
            list_on = [OFF + sh + x for x in _bits(seen)]
            list_off = []
            for x in _bits(seen):
                self._add(sh + x, 1 << goff)
            for unit in (box, line if line >= 0 else col):
                one = seen & HOUSE[unit]
                if one and not one & (one - 1):
                    x = one.bit_length() - 1
                    list_off.append(sh + x)
                    self._add(OFF + sh + x, 1 << gon)
            counts = {"line": [0, -1], "col": [0, -1], "box": [0, -1]}
            for j, (d2, gm2, line2, col2, box2) in enumerate(nodes):
                if j == i or d2 != d or gm & gm2:
                    continue
                for key, same in (
                    ("line", line >= 0 and line == line2),
                    ("col", col >= 0 and col == col2),
                    ("box", box == box2),
                ):
                    if same:
                        counts[key][0] += 1
                        if counts[key][0] == 1:
                            counts[key][1] = j
                        list_on.append(GROUP + 2 * j + 1)
            for key, unit in (("line", line), ("col", col), ("box", box)):
                n, j = counts[key]
                if n == 1 and not (HOUSE[unit] & cands[d] & ~gm & ~nodes[j][1]):
                    list_off.append(GROUP + 2 * j)
            self.succ[gon] = sum(1 << e for e in set(list_on))
            self.succ[goff] = sum(1 << e for e in set(list_off))
            if self.order is not None:
                self.order[gon] = list_on
                self.order[goff] = list_off

    # -- expansion -------------------------------------------------------------------------------------------

    def closure(self) -> dict[int, int]:
        """Every node's table closed under its entries' tables (the node itself included), by strongly
        connected components (Tarjan, iterative)."""
        succ = self.succ
        adj = {n: _bits(m) for n, m in succ.items()}
        index: dict[int, int] = {}
        low: dict[int, int] = {}
        on_stack: set[int] = set()
        stack: list[int] = []
        comp_reach: dict[int, int] = {}
        reach: dict[int, int] = {}
        counter = 0
        for root in adj:
            if root in index:
                continue
            work = [(root, 0)]
            while work:
                node, i = work[-1]
                if i == 0:
                    index[node] = low[node] = counter
                    counter += 1
                    stack.append(node)
                    on_stack.add(node)
                nbrs = adj.get(node, ())
                if i < len(nbrs):
                    work[-1] = (node, i + 1)
                    nxt = nbrs[i]
                    if nxt not in index:
                        work.append((nxt, 0))
                    elif nxt in on_stack:
                        low[node] = min(low[node], index[nxt])
                    continue
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    members = []
                    while True:
                        x = stack.pop()
                        on_stack.discard(x)
                        members.append(x)
                        if x == node:
                            break
                    r = 0
                    for x in members:
                        r |= 1 << x
                    for x in members:
                        for y in adj.get(x, ()):
                            if y in reach:
                                r |= reach[y]
                    for x in members:
                        reach[x] = r
                    comp_reach[node] = r
        return reach


def _premise_false(r: int, solved: int, cands: Sequence[int], allowed: Sequence[int]) -> bool:
    """``checkOneChain``: does a table hold a contradiction?"""
    onall = r & ((1 << OFF) - 1)
    offall = (r >> OFF) & ((1 << OFF) - 1)
    if onall & offall:
        return True
    ons = [(onall >> ((d - 1) * 81)) & M81 for d in range(1, 10)]
    offs = [(offall >> ((d - 1) * 81)) & M81 for d in range(1, 10)]
    seen = 0
    for s in ons:
        if seen & s:
            return True
        seen |= s
        if s & (s - 1):
            for h in HOUSE:
                t = s & h
                if t & (t - 1):
                    return True
    empty = M81 & ~solved & ~seen
    for i in range(9):
        empty &= offs[i] | ~cands[i + 1]
    if empty:
        return True
    for i in range(9):
        off = offs[i]
        if not off:
            continue
        a = allowed[i + 1]
        for h in HOUSE:
            t = h & a
            if t and not t & ~off:
                return True
    return False


def forcing_step(g: HGrid, nets: bool) -> tuple[Pairs, Pairs] | None:
    """The forcing chain (``nets`` False) or forcing net HoDoKu takes at this state, or None.

    Returns ``(placements, eliminations)``, one ``(cell, digit)`` pair in one of them (cells 0..80
    row-major, digits 1..9).
    """
    t = _Tables(g, nets)
    reach = t.closure()
    cands = t.cands
    solved = sum(1 << c for c in range(81) if g.values[c])
    allowed = [0] * 10
    for d in range(1, 10):
        a = M81 & ~solved
        for c in range(81):
            if g.values[c] == d:
                a &= ~BUDDY[c]
        allowed[d] = a
    place: set[tuple[int, int]] = set()
    elim: set[tuple[int, int]] = set()

    def effects(r: int, exclude: int = 0) -> None:
        for d in range(1, 10):
            sh = (d - 1) * 81
            on = (r >> sh) & M81 & ~exclude
            off = (r >> (OFF + sh)) & M81 & ~exclude
            place.update((c, d) for c in _bits(on))
            elim.update((c, d) for c in _bits(off))

    premises = [(c, d) for c in range(81) for d in range(1, 10) if g.cells[c] >> (d - 1) & 1]
    for c, d in premises:
        on = (d - 1) * 81 + c
        if _premise_false(reach[on], solved, cands, allowed):
            elim.add((c, d))
        if _premise_false(reach[OFF + on], solved, cands, allowed):
            place.add((c, d))
    for c, d in premises:
        on = (d - 1) * 81 + c
        effects(reach[on] & reach[OFF + on], 1 << c)
    for c in range(81):
        if g.cells[c]:
            r = -1
            for d in range(1, 10):
                if g.cells[c] >> (d - 1) & 1:
                    r &= reach[(d - 1) * 81 + c]
            effects(r)
    for h in HOUSE:
        for d in range(1, 10):
            where = h & cands[d]
            if where:
                r = -1
                for c in _bits(where):
                    r &= reach[(d - 1) * 81 + c]
                effects(r)
    if place:
        return [min(place)], []
    if elim:
        return [], [min(elim, key=lambda p: p[0] * 10 + p[1])]
    return None
