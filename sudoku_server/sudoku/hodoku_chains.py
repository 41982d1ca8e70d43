"""HoDoKu's X-Chains, XY-Chains and Turbot Fish, as its rating path finds and chooses them.

HoDoKu 2.2.0 finds these three with one depth-first search over links (``solver/ChainSolver.java``:
``getStep``, ``getXChains``, ``getXYChains``, ``getTurbotChains``, ``getChains``, ``getAllLinks``,
``getChain``, ``checkXChain``, ``checkXYChain``; ``sudoku/SolutionStep.java``: ``compareTo``; read for the
rules, no code copied). With its default settings (``Options``: chain size restricted, 20 links):

- **Links.** Per candidate (cell, digit), in cell order then digit order: for an XY-Chain (bivalue cells
  only) first the cell's other digit (strong), then the digit in the cell's row, column and box (row-major
  in each, a box cell already in the row or column left out), to bivalue cells, weak; for an X-Chain or a
  Turbot Fish the digit in the row, column and box, strong where the unit holds the digit twice (a box
  cell in the row or column keeps the row's or column's kind).
- **Search.** From every candidate (cell order, digit order) along its strong links (an XY-Chain's first
  link is the cell's other digit), alternately any link (a strong one taken as weak) and a strong link
  (an XY-Chain's strong link stays in the cell), at most 20 links, a cell not entered twice (HoDoKu's
  set of the chain's cells, kept as it keeps it). A strong link to the start digit past the first link,
  whose cell sees candidates of the start digit the start cell sees, is a chain: those candidates go
  (a Turbot Fish: exactly three links).
- **The step taken.** One step per set of eliminations (a shorter chain replaces it; not for Turbot Fish);
  HoDoKu sorts (``SolutionStep.compareTo``: most eliminations, then the smallest index sum, then the
  shorter chain) and takes the first.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from sudoku_server.sudoku.hodoku_grid import ALL_UNITS, BUDDIES, CONSTRAINTS, HGrid, digit_cells, index_sum

__all__ = ["ChainStep", "chain_step", "chain_steps"]

X_CHAIN, XY_CHAIN, TURBOT = "X-Chain", "XY-Chain", "Turbot Fish"
#: ``Options.RESTRICT_CHAIN_LENGTH``
MAX_LINKS = 20

_BUDDY = [sum(1 << p for p in BUDDIES[c]) for c in range(81)]


@dataclass(frozen=True)
class ChainStep:
    """One chain HoDoKu finds.

    Attributes:
      kind: ``X-Chain``, ``XY-Chain`` or ``Turbot Fish``.
      eliminations: ``(cell, digit)`` pairs, cells 0..80 ascending (one digit).
      length: the chain's number of nodes (links + 1).
    """

    kind: str
    eliminations: tuple[tuple[int, int], ...]
    length: int


class _Links(dict[tuple[int, int], list[tuple[int, int, bool]]]):
    """``getAllLinks``: per candidate (cell, digit), its links ``(cell, digit, strong)`` in HoDoKu's order,
    each list made when first asked for (no list for an empty cell, a missing candidate, or a cell that is
    not bivalue in an XY-Chain search)."""

    def __init__(self, g: HGrid, kind: str) -> None:
        super().__init__()
        self.g = g
        self.xy = kind == XY_CHAIN

    def __missing__(self, key: tuple[int, int]) -> list[tuple[int, int, bool]]:
        g, xy = self.g, self.xy
        c, d = key
        m = g.cells[c]
        links: list[tuple[int, int, bool]] = []
        bit = 1 << (d - 1)
        if not m & bit or (xy and _pop(m) != 2):
            self[key] = links
            return links
        if xy:
            links.append((c, (m & ~bit).bit_length(), True))
        for i, u in enumerate(CONSTRAINTS[c]):
            strong = not xy and g.free[u][d] == 2
            for x in ALL_UNITS[u]:
                if x == c or not g.cells[x] & bit:
                    continue
                if xy and _pop(g.cells[x]) != 2:
                    continue
                if i == 2 and (x // 9 == c // 9 or x % 9 == c % 9):
                    continue
                links.append((x, d, strong))
        self[key] = links
        return links


class _Entry:
    __slots__ = ("at", "cell", "digit", "links", "strong_only")

    def __init__(self) -> None:
        self.cell = 0
        self.digit = 0
        self.strong_only = False
        self.links: list[tuple[int, int, bool]] = []
        self.at = 0


def chain_steps(g: HGrid, kind: str) -> list[ChainStep]:
    """Every chain of this kind HoDoKu's search finds at this state, in HoDoKu's sorted order."""
    links = _Links(g, kind)
    cands = digit_cells(g.cells)
    xy = kind == XY_CHAIN
    longest = 3 if kind == TURBOT else MAX_LINKS
    steps: list[ChainStep] = []
    best: dict[tuple[tuple[int, int], ...], int] = {}
    stack = [_Entry() for _ in range(longest + 2)]  # levels 0 .. longest (+1 while a link is tried)
    for start in range(81):
        if not g.cells[start]:
            continue
        for sc in range(1, 10):
            if not g.cells[start] >> (sc - 1) & 1:
                continue
            if xy and _pop(g.cells[start]) != 2:
                continue
            if not xy and all(g.free[u][sc] != 2 for u in CONSTRAINTS[start]):
                continue  # no strong link leaves this candidate
            start_seen = _BUDDY[start] & cands[sc]
            for cell, digit, strong in links[(start, sc)]:
                if not strong or (not xy and digit != sc) or (xy and cell != start):
                    continue
                e = stack[1]
                e.cell, e.digit, e.strong_only = cell, digit, False
                e.links, e.at = links[(cell, digit)], 0
                on_chain = {start}
                level = 1
                while True:
                    while e.at >= len(e.links):
                        level -= 1
                        e = stack[level]
                        on_chain.discard(e.cell)
                        if level <= 0:
                            break
                    if level <= 0:
                        break
                    x, d, s = e.links[e.at]
                    e.at += 1
                    if e.strong_only and not s:
                        continue
                    if x == e.cell and d == e.digit:
                        continue
                    if not xy and d != sc:
                        continue
                    if xy and e.strong_only and x != e.cell:
                        continue
                    loop = False
                    if x in on_chain:
                        if x != start:
                            continue
                        loop = True
                    on_chain.add(e.cell)
                    if not e.strong_only:
                        s = False
                    level += 1
                    if level > 1 and s and d == sc:
                        m = start_seen & _BUDDY[x]
                        if m and (kind != TURBOT or level == 3):
                            _record(steps, best, kind, m, sc, level)
                    was_strong_only = e.strong_only
                    e = stack[level]
                    if level < longest and not loop:
                        e.cell, e.digit, e.strong_only = x, d, not was_strong_only
                        e.links, e.at = links[(x, d)], 0
                    else:
                        e.links, e.at = [], 0
    return sorted(steps, key=functools.cmp_to_key(_compare))


def _record(
    steps: list[ChainStep], best: dict[tuple[tuple[int, int], ...], int], kind: str, m: int, d: int, level: int
) -> None:
    """``checkXChain`` / ``checkXYChain``: the chain ending here (``level`` links)."""
    elims = tuple((c, d) for c in range(81) if m >> c & 1)
    if kind != TURBOT:
        old = best.get(elims)
        if old is not None and old <= level:
            return
        best[elims] = level
    steps.append(ChainStep(kind, elims, level + 1))


def _pop(m: int) -> int:
    return bin(m).count("1")


def _compare(a: ChainStep, b: ChainStep) -> int:
    """``SolutionStep.compareTo`` for two chains of one kind."""
    r = len(b.eliminations) - len(a.eliminations)
    if r:
        return r
    if a.eliminations != b.eliminations:
        return index_sum(a.eliminations) - index_sum(b.eliminations)
    return a.length - b.length


def chain_step(g: HGrid, kind: str) -> ChainStep | None:
    """The X-Chain, XY-Chain or Turbot Fish (``kind``) HoDoKu's rating path takes at this state, or None."""
    steps = chain_steps(g, kind)
    return steps[0] if steps else None
