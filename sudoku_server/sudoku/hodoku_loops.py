"""HoDoKu's nice loops and AICs, plain and grouped, as its rating path finds and chooses them.

HoDoKu 2.2.0 finds ``Nice Loop/AIC`` (280) and ``Grouped Nice Loop/AIC`` (300) in Trebor's tables, the same
tables as its forcing chains (``solver/TablingSolver.java``: ``getStep``, ``getNiceLoops``, ``doGetNiceLoops``,
``fillTables``, ``fillTablesWithGroupNodes``, ``expandTables``, ``checkNiceLoops``, ``checkNiceLoop``,
``checkAics``, ``checkAic``, ``addChain``, ``buildChain``; ``solver/TableEntry.java``;
``sudoku/SolutionStep.java``: ``compareTo``, ``getIndexSumme``; read for the rules, no code copied). With its
default settings (``Options``: ALS nodes in tabling chains off, a table at most 1,000 entries long):

- **Tables.** One per premise "d in c" (on) and "d not in c" (off), its direct entries in HoDoKu's order
  (:class:`.hodoku_tabling._Tables` with ``ordered``); the grouped search adds the group nodes' tables.
- **Expansion.** Each table is closed in place: its entries are taken in order and each appends the direct
  entries of its own table that the table lacks (a breadth-first search; each entry remembers the entry
  that brought it, its *parent*, and its distance, 2 per link). A table stops at 1,000 entries.
- **Chains.** The chain to an entry is the path back through the parents (``buildChain``); a chain that
  comes back to a cell it left (a lasso, group node cells included) is dropped (``addChain``).
- **Nice loops.** In every on table, then every off table (cell by cell, digit by digit), every entry in
  the premise's own cell at distance > 2 closes a loop: discontinuous (the premise's digit out, or in, or
  the weak end's digit out) or continuous (eliminations along the loop's weak links and in cells entered
  and left by strong links). The loop's first link must leave the cell and its last must come from
  another cell.
- **AICs.** In every off table, every on entry in another cell: same digit, with at least two candidates
  seeing both ends (they go); other digit, ends that see each other (the crossed candidates go).
- **The step taken.** One step per set of eliminations (a shorter chain replaces it); HoDoKu then sorts
  (``SolutionStep.compareTo``: most eliminations, then the smallest index sum of the eliminations taken
  digit by digit, then the shorter chain) and takes the first. A loop with a group node is a grouped loop.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from sudoku_server.sudoku.hodoku_grid import HGrid, index_sum
from sudoku_server.sudoku.hodoku_tabling import BUDDY, GROUP, OFF, _bits, _Tables

__all__ = ["LoopStep", "nice_loop_step"]

Pairs = list[tuple[int, int]]

#: ``Options.MAX_TABLE_ENTRY_LENGTH``
MAX_ENTRIES = 1000


@dataclass(frozen=True)
class LoopStep:
    """One nice loop or AIC HoDoKu finds.

    Attributes:
      kind: HoDoKu's type name (``Discontinuous Nice Loop``, ``Grouped AIC``, ...).
      eliminations: ``(cell, digit)`` pairs, cells 0..80, sorted by digit then cell (HoDoKu's order).
      length: the chain's number of nodes, premise and end included.
      chain: the chain's nodes, premise first, each written ``r5c3=1`` (on) or ``r4c89<>2`` (off; a group
        node's cells run together, as HoDoKu writes them).
    """

    kind: str
    eliminations: tuple[tuple[int, int], ...]
    length: int
    chain: tuple[str, ...]

    @property
    def grouped(self) -> bool:
        return self.kind.startswith("Grouped")


class _Search:
    """One run of ``doGetNiceLoops`` at one state."""

    def __init__(self, g: HGrid, grouped: bool) -> None:
        self.g = g
        t = _Tables(g, False, ordered=True, groups=grouped)
        assert t.order is not None
        self.order = t.order
        self.succ = t.succ
        self.groups = t.groups
        self.cands = t.cands
        self.steps: list[LoopStep] = []
        self.by_elims: dict[tuple[tuple[int, int], ...], int] = {}

    # -- nodes -----------------------------------------------------------------------------------------------

    def cell(self, n: int) -> int:
        """A node's cell (a group node's first cell, as HoDoKu's ``getCellIndex``)."""
        if n >= GROUP:
            return _bits(self.groups[(n - GROUP) >> 1][1])[0]
        return n % 81

    def cells(self, n: int) -> list[int]:
        if n >= GROUP:
            return _bits(self.groups[(n - GROUP) >> 1][1])
        return [n % 81]

    def digit(self, n: int) -> int:
        if n >= GROUP:
            return self.groups[(n - GROUP) >> 1][0]
        return (n % OFF) // 81 + 1

    @staticmethod
    def strong(n: int) -> bool:
        """An on node (HoDoKu's ``isStrong``: the link into it is strong)."""
        if n >= GROUP:
            return not (n - GROUP) & 1
        return n < OFF

    def text(self, n: int) -> str:
        cells = self.cells(n)
        rows = "".join(sorted({str(c // 9 + 1) for c in cells}))
        cols = "".join(sorted({str(c % 9 + 1) for c in cells}))
        return f"r{rows}c{cols}{'=' if self.strong(n) else '<>'}{self.digit(n)}"

    def buddies(self, n: int) -> int:
        m = (1 << 81) - 1
        for c in self.cells(n):
            m &= BUDDY[c]
        return m

    # -- tables ----------------------------------------------------------------------------------------------

    def expand(self, premise: int) -> tuple[list[int], list[int]]:
        """The expanded table of a premise: its entries in HoDoKu's order and each one's parent index."""
        order, succ = self.order, self.succ
        entries = [premise]
        parent = [-1]
        seen = 1 << premise
        j = 0
        while j < len(entries):
            e = entries[j]
            new = succ.get(e, 0) & ~seen
            if new:
                for x in order.get(e, ()):
                    if new >> x & 1:
                        if len(entries) >= MAX_ENTRIES:
                            return entries, parent
                        entries.append(x)
                        parent.append(j)
                seen |= new
            j += 1
            if len(entries) >= MAX_ENTRIES:
                break
        return entries, parent

    @staticmethod
    def path(entries: list[int], parent: list[int], j: int) -> list[int]:
        out = []
        while j >= 0:
            out.append(entries[j])
            j = parent[j]
        out.reverse()
        return out

    def lasso(self, chain: list[int], aic: bool) -> bool:
        """``addChain``'s check: does the chain come back to a cell it left (a nice loop may end in its
        first cell)?"""
        first = self.cell(chain[0])
        banned: set[int] = set()
        last = -1
        last_node = -1
        for n in chain:
            c = self.cell(n)
            if c in banned:
                return True
            if last != -1 and (last != first or aic):
                banned.update(self.cells(last_node))
            last = c
            last_node = n
        return False

    # -- checks ----------------------------------------------------------------------------------------------

    def add(self, kind: str, elims: set[tuple[int, int]], chain: list[int]) -> None:
        if any(n >= GROUP for n in chain):
            kind = "Grouped " + kind
        key = tuple(sorted(elims, key=lambda p: (p[1], p[0])))
        old = self.by_elims.get(key)
        if old is not None and self.steps[old].length <= len(chain):
            return
        self.by_elims[key] = len(self.steps)
        self.steps.append(LoopStep(kind, key, len(chain), tuple(self.text(n) for n in chain)))

    def nice_loop(self, entries: list[int], parent: list[int], j: int) -> None:
        """``checkNiceLoop``: the loop closed by entry j (in the premise's cell)."""
        g = self.g
        chain = self.path(entries, parent, j)
        if len(chain) <= 2:
            return
        if self.cell(chain[-1]) == self.cell(chain[-2]) or self.lasso(chain, False):
            return
        if self.cell(chain[0]) == self.cell(chain[1]):
            return
        first_strong = self.strong(entries[1])
        last_strong = self.strong(chain[-1])
        sc, ec = self.digit(chain[0]), self.digit(chain[-1])
        start = self.cell(chain[0])
        cands = g.cells[start]
        elims: set[tuple[int, int]] = set()
        kind = "Discontinuous Nice Loop"
        if not first_strong and not last_strong and sc == ec:
            elims.add((start, sc))
        elif first_strong and last_strong and sc == ec:
            elims.update((start, d) for d in _digits(cands) if d != sc)
        elif first_strong != last_strong and sc != ec:
            elims.add((start, sc if not first_strong else ec))
        elif (
            (not first_strong and not last_strong and _pop(cands) == 2 and sc != ec)
            or (first_strong and last_strong and sc != ec)
            or (first_strong != last_strong and sc == ec)
        ):
            kind = "Continuous Nice Loop"
            self.continuous(chain, first_strong and last_strong, sc, ec, start, elims)
        if elims:
            self.add(kind, elims, chain)

    def continuous(
        self, ch: list[int], both_strong: bool, sc: int, ec: int, start: int, elims: set[tuple[int, int]]
    ) -> None:
        """A continuous loop's eliminations (``checkNiceLoop``): cells entered and left by strong links lose
        their other digits; a weak link between cells clears its digit from cells seeing both ends."""
        g = self.g
        on_chain = 0
        for n in ch[:-1]:
            for c in self.cells(n):
                on_chain |= 1 << c
        last = len(ch) - 1
        for i in range(last + 1):
            n = ch[i]
            if (i == 0 and both_strong) or (i > 0 and self.strong_pass(ch, i)):
                c1, c2 = (sc, ec) if i == 0 else (self.digit(n), self.digit(ch[i + 2]))
                c = self.cell(n)
                elims.update((c, d) for d in _digits(g.cells[c]) if d != c1 and d != c2)
            if i > 0 and not self.strong(n) and self.cell(ch[i - 1]) != self.cell(n):
                d = self.digit(n)
                m = self.buddies(ch[i - 1]) & self.buddies(n) & ~on_chain & ~(1 << start) & self.cands[d]
                elims.update((c, d) for c in _bits(m))

    def strong_pass(self, ch: list[int], i: int) -> bool:
        """Is node i (not the premise) a cell entered by a strong link and left by one, through a weak link
        inside the cell?"""
        n = ch[i]
        return (
            self.strong(n)
            and i <= len(ch) - 3
            and self.cell(ch[i - 1]) != self.cell(n)
            and not self.strong(ch[i + 1])
            and self.cell(n) == self.cell(ch[i + 1])
            and self.strong(ch[i + 2])
            and self.cell(ch[i + 1]) != self.cell(ch[i + 2])
        )

    def aic(self, entries: list[int], parent: list[int], j: int) -> None:
        """``checkAic``: the AIC from an off premise to the on entry j."""
        g = self.g
        chain = self.path(entries, parent, j)
        if len(chain) <= 2:
            return
        sc, ec = self.digit(chain[0]), self.digit(chain[-1])
        start, end = self.cell(chain[0]), self.cell(chain[-1])
        elims: set[tuple[int, int]] = set()
        if sc == ec:
            m = BUDDY[start] & BUDDY[end] & self.cands[sc]
            if _pop(m) > 1:
                elims.update((c, sc) for c in _bits(m) if c != start)
        else:
            if g.cells[start] >> (ec - 1) & 1:
                elims.add((start, ec))
            if g.cells[end] >> (sc - 1) & 1:
                elims.add((end, sc))
        if not elims or self.lasso(chain, True):
            return
        self.add("AIC", elims, chain)

    def run(self) -> None:
        """``checkNiceLoops`` on the on tables, then the off tables, then ``checkAics`` on the off tables."""
        g = self.g
        premises = [(c, d) for c in range(81) for d in _digits(g.cells[c])]
        offs: list[tuple[list[int], list[int]]] = []
        for off in (False, True):
            for c, d in premises:
                node = (OFF if off else 0) + (d - 1) * 81 + c
                entries, parent = self.expand(node)
                if off:
                    offs.append((entries, parent))
                for j in range(1, len(entries)):
                    e = entries[j]
                    if e < GROUP and e % 81 == c:
                        self.nice_loop(entries, parent, j)
        for (c, d), (entries, parent) in zip(premises, offs, strict=True):
            for j in range(1, len(entries)):
                e = entries[j]
                if e >= OFF or e % 81 == c:
                    continue
                ed = e // 81 + 1
                x = e % 81
                if d == ed:
                    m = BUDDY[c] & BUDDY[x] & self.cands[d]
                    if _pop(m) >= 2:
                        self.aic(entries, parent, j)
                elif BUDDY[c] >> x & 1 and g.cells[x] >> (d - 1) & 1 and g.cells[c] >> (ed - 1) & 1:
                    self.aic(entries, parent, j)


def _digits(mask: int) -> list[int]:
    return [d + 1 for d in range(9) if mask >> d & 1]


def _pop(mask: int) -> int:
    return bin(mask).count("1")


def _compare(a: LoopStep, b: LoopStep) -> int:
    """``SolutionStep.compareTo`` for two loop steps."""
    r = len(b.eliminations) - len(a.eliminations)
    if r:
        return r
    if a.kind != b.kind or a.eliminations != b.eliminations:
        return index_sum(a.eliminations) - index_sum(b.eliminations)
    return a.length - b.length


def nice_loop_steps(g: HGrid, grouped: bool) -> list[LoopStep]:
    """Every nice loop and AIC HoDoKu's search finds at this state, in HoDoKu's sorted order.

    ``grouped``: the grouped search (group nodes in the tables; it reports plain loops too).
    """
    s = _Search(g, grouped)
    s.run()
    return sorted(s.steps, key=functools.cmp_to_key(_compare))


def nice_loop_step(g: HGrid, grouped: bool) -> LoopStep | None:
    """The nice loop or AIC HoDoKu's rating path takes at this state (``getNiceLoops``), or None."""
    steps = nice_loop_steps(g, grouped)
    return steps[0] if steps else None
