"""Every chain and nice loop at one state (9x9; :mod:`.every`): X-chains, XY-chains, remote pairs, AICs,
continuous and discontinuous nice loops.

A chain links candidates ``(cell, digit)``: a *strong* link (one of the two
is true: a bivalue cell, or a digit with two places in a unit) and a *weak*
link (not both: one cell, or one digit in one unit). An alternating chain
from "A is false" to "B is true" proves "A or B": its *ends*. The search is
breadth first over literals (a candidate true, or false) from every
candidate, so each pair of ends gets a shortest chain; the steps are keyed by
their effects, so every elimination set a chain between two ends gives is
listed. Where the shortest AIC between two ends enters a cell twice, ``HINT
all`` searches again without the candidates it re-entered by
(:data:`RETRIES`). Names as HoDoKu 2.2 has them (``ChainSolver.java``,
``TablingSolver.java`` read for the definitions):

- *AIC* (``0708``): ends on one digit (the digit goes from the cells seeing
  both ends) or on two digits in cells that see each other (each end's digit
  goes from the other end's cell). Where a chain between the same ends uses
  one digit only it is also an *X-chain* (``0701``); where its strong links
  are all bivalue cells and the ends share a digit, an *XY-chain* (``0702``);
  an XY-chain over cells of the same two digits is a *remote pair* (``0703``:
  both digits go from the cells seeing two of its cells an odd number of
  links apart).
- *discontinuous nice loop* (``0707``): a chain from a candidate back to its
  own cell: "A true implies A false" (A goes), "A false implies A true" (A is
  placed: the cell's other digits go), "A true implies B true" in A's cell (A goes).
- *continuous nice loop* (``0706``): a closed alternating loop: every weak
  link of it acts as strong, so a digit goes from the cells seeing both ends
  of a weak link between cells, and the other digits go from a cell whose
  two digits are joined by a weak link.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from sudoku_server.sudoku.techniques.board import Context, cells_of, popcount
from sudoku_server.sudoku.techniques.every_basic import PEERS, UNITS, step
from sudoku_server.sudoku.techniques.step import Step, rc

__all__ = ["RETRIES", "chains", "remote_pairs"]

#: A literal: (candidate index cell * 9 + 0-based digit, value).
Lit = tuple[int, bool]


class _Graph:
    """The weak and strong links of one board state, per candidate index (``cell * 9 + d0``)."""

    def __init__(self, x: Context) -> None:
        cand = x.cand
        self.cands = [c * 9 + d for c in range(81) for d in range(9) if cand[c] >> d & 1]
        weak: dict[int, list[int]] = {}
        strong: dict[int, list[int]] = {}
        bistrong: dict[int, list[int]] = {}
        for i in self.cands:
            c, d = divmod(i, 9)
            w = [c * 9 + o for o in range(9) if o != d and cand[c] >> o & 1]
            w += [p * 9 + d for p in cells_of(x.pos[d] & PEERS[c])]
            weak[i] = w
            s = []
            if popcount(cand[c]) == 2:
                o = (cand[c] & ~(1 << d)).bit_length() - 1
                s.append(c * 9 + o)
                bistrong[i] = [c * 9 + o]
            for u in range(27):
                m = x.pos[d] & UNITS[u]
                if m >> c & 1 and popcount(m) == 2:
                    other = (m & ~(1 << c)).bit_length() - 1
                    if other * 9 + d not in s:
                        s.append(other * 9 + d)
            strong[i] = s
        self.weak, self.strong, self.bistrong = weak, strong, bistrong

    def search(self, start: Lit, mode: str, banned: frozenset[int] = frozenset()) -> dict[Lit, Lit | None]:
        """Breadth first from ``start``: every literal reached and its parent. ``mode``: ``aic`` (any link),
        ``x`` (one digit), ``xy`` (strong links in bivalue cells only, weak links between cells); never
        through the ``banned`` candidates."""
        parent: dict[Lit, Lit | None] = {start: None}
        todo = deque([start])
        digit = start[0] % 9
        while todo:
            lit = todo.popleft()
            i, val = lit
            if val:
                nxt = self.weak[i]
                if mode == "xy":
                    nxt = [j for j in nxt if j // 9 != i // 9]
            else:
                nxt = self.bistrong.get(i, []) if mode == "xy" else self.strong[i]
            for j in nxt:
                if mode == "x" and j % 9 != digit:
                    continue
                n = (j, not val)
                if n not in parent and j not in banned:
                    parent[n] = lit
                    todo.append(n)
        return parent


def _path(parent: dict[Lit, Lit | None], end: Lit) -> list[Lit]:
    out = [end]
    p = parent[end]
    while p is not None:
        out.append(p)
        p = parent[p]
    return out[::-1]


def _simple(path: list[Lit]) -> bool:
    """No cell is entered twice except through its own weak or strong link (consecutive literals)."""
    seen = []
    for k, (i, _v) in enumerate(path):
        c = i // 9
        if k and path[k - 1][0] // 9 == c:
            continue
        if c in seen:
            return False
        seen.append(c)
    return True


def _reentered(path: list[Lit]) -> list[int]:
    """The candidates by which ``path`` enters a cell it was in before (not through the cell's own link)."""
    seen: set[int] = set()
    out = []
    for k, (i, _v) in enumerate(path):
        c = i // 9
        if k and path[k - 1][0] // 9 == c:
            continue
        if c in seen:
            out.append(i)
        seen.add(c)
    return out


#: How many times ``HINT all`` searches an AIC between two ends that enters a cell twice again, without the
#: candidates by which it did (more passes no more of HoDoKu's library cases).
RETRIES = 2


def _simple_path(
    g: _Graph,
    parent: dict[Lit, Lit | None],
    start: Lit,
    end: Lit,
    mode: str,
    ok: Callable[[list[Lit]], bool],
    retries: int,
) -> list[Lit] | None:
    """A shortest chain from ``start`` to ``end`` that ``ok`` accepts: the breadth-first one (``parent``), else,
    while it enters a cell twice, the shortest one without the candidates it entered by (at most ``retries``
    times; the ends are never left out)."""
    path = _path(parent, end)
    banned: frozenset[int] = frozenset()
    for _ in range(retries + 1):
        if ok(path):
            return path
        again = set(_reentered(path)) - {start[0], end[0]}
        if not again or not banned.isdisjoint(again):
            return None
        banned |= again
        parent = g.search(start, mode, banned)
        if end not in parent:
            return None
        path = _path(parent, end)
    return None


def _text(path: list[Lit]) -> str:
    """``(5)r1c1=(5)r1c7-(5)r4c7=...``: strong links ``=``, weak links ``-``."""
    parts = []
    for k, (i, val) in enumerate(path):
        c, d = divmod(i, 9)
        if k:
            parts.append("=" if val else "-")
        parts.append(f"({d + 1}){rc(c, 9)}")
    return "".join(parts)


def _end_eliminations(x: Context, a: int, b: int) -> list[tuple[int, int]]:
    """What "a or b" (candidate indices) removes."""
    ca, da = divmod(a, 9)
    cb, db = divmod(b, 9)
    if ca == cb:
        return []
    if da == db:
        return [(c, da + 1) for c in cells_of(x.pos[da] & PEERS[ca] & PEERS[cb])]
    if not PEERS[ca] >> cb & 1:
        return []
    out = []
    if x.cand[ca] >> db & 1:
        out.append((ca, db + 1))
    if x.cand[cb] >> da & 1:
        out.append((cb, da + 1))
    return out


def chains(x: Context, retries: int = 0) -> list[Step]:
    """Every X-chain, XY-chain, AIC and nice loop (one per pair of ends and kind: the shortest that enters no
    cell twice). ``retries``: how many times an AIC whose shortest chain enters a cell twice is searched again
    without the candidates it re-entered by (``HINT all`` passes :data:`RETRIES`; HoDoKu's rating path, 0)."""
    g = _Graph(x)
    out: list[Step] = []
    done: set[tuple[str, int, int]] = set()
    for a in g.cands:
        x.check()
        parent = {}
        for mode, name in (("x", "X-chain"), ("xy", "XY-chain"), ("aic", "AIC")):
            if mode == "xy" and a not in g.bistrong:
                continue
            parent = g.search((a, False), mode)
            for (b, val), _p in parent.items():
                if not val or b == a or (name, min(a, b), max(a, b)) in done:
                    continue
                if mode != "aic" and b % 9 != a % 9:
                    continue
                gone = _end_eliminations(x, a, b)
                if not gone:
                    continue
                again = retries if mode == "aic" else 0
                path = _simple_path(g, parent, (a, False), (b, val), mode, _chain_ok, again)
                if path is None:
                    continue
                done.add((name, min(a, b), max(a, b)))
                words = f" ({(len(path) - 1)} links): {_text(path)}"
                out.append(step(x, name, words, elim=gone))
        out.extend(_loops(x, g, a, parent, g.search((a, True), "aic")))  # parent: the last search, any link
    return out


def _chain_ok(path: list[Lit]) -> bool:
    return len(path) >= 4 and _simple(path)


def remote_pairs(x: Context) -> list[Step]:
    """Cells of the same two digits joined as a chain (peers): two of them an odd number of links apart
    (at least 3) take both digits from every cell seeing both; one step per such pair, and one per chain."""
    out = []
    cand = x.cand
    by_pair: dict[int, list[int]] = {}
    for c in range(81):
        if popcount(cand[c]) == 2:
            by_pair.setdefault(cand[c], []).append(c)
    for pair, cells in by_pair.items():
        if len(cells) < 4:
            continue
        digits = [d for d in range(9) if pair >> d & 1]
        for start in cells:
            dist = {start: 0}
            todo = deque([start])
            while todo:
                c = todo.popleft()
                for o in cells:
                    if o not in dist and PEERS[c] >> o & 1:
                        dist[o] = dist[c] + 1
                        todo.append(o)
            for end, k in dist.items():
                if end <= start or k < 3 or k % 2 == 0:
                    continue
                gone = [
                    (c, d + 1) for d in digits for c in cells_of(x.pos[d] & PEERS[start] & PEERS[end]) if c not in dist
                ]
                if gone:
                    words = f": {rc(start, 9)} and {rc(end, 9)} on {x.digit_set(pair)}, {k} links apart"
                    out.append(step(x, "remote pair", words, elim=gone))
    return out


def _loops(
    x: Context, g: _Graph, a: int, from_false: dict[Lit, Lit | None], from_true: dict[Lit, Lit | None]
) -> list[Step]:
    """Discontinuous nice loops at candidate ``a`` and continuous ones through it."""
    out = []
    ca, da = divmod(a, 9)
    # a true implies a false: a goes
    if (a, False) in from_true:
        path = _path(from_true, (a, False))
        if len(path) > 3 and _simple(path[:-1]):
            out.append(step(x, "discontinuous nice loop", f": {_text(path)}", elim=((ca, da + 1),)))
    # a false implies a true: a is placed (HoDoKu writes it as the cell's other digits going)
    if (a, True) in from_false:
        path = _path(from_false, (a, True))
        if len(path) > 3 and _simple(path[:-1]):
            others = [(ca, d + 1) for d in range(9) if d != da and x.cand[ca] >> d & 1]
            out.append(step(x, "discontinuous nice loop", f": {_text(path)}", elim=others))
    # a true implies another digit of its cell true: a goes
    for o in range(9):
        b = ca * 9 + o
        if o != da and (b, True) in from_true:
            path = _path(from_true, (b, True))
            if len(path) > 3 and _simple(path[:-1]):
                out.append(step(x, "discontinuous nice loop", f": {_text(path)}", elim=((ca, da + 1),)))
    # continuous: a false ... b true, and b weakly linked back to a (a closed loop)
    for b in g.weak[a]:
        if (b, True) not in from_false:
            continue
        path = _path(from_false, (b, True))
        if len(path) < 4 or not _simple(path):
            continue
        loop = [*path, (a, False)]
        gone: set[tuple[int, int]] = set()
        for (i, vi), (j, vj) in zip(loop, loop[1:]):
            if vi and not vj:  # a weak link i - j acts as strong
                ci, di = divmod(i, 9)
                cj, dj = divmod(j, 9)
                if ci == cj:
                    gone |= {(ci, d + 1) for d in range(9) if x.cand[ci] >> d & 1 and d not in (di, dj)}
                elif di == dj:
                    gone |= {(c, di + 1) for c in cells_of(x.pos[di] & PEERS[ci] & PEERS[cj])}
        loop_cands = {i for i, _v in loop}
        gone = {(c, d) for c, d in gone if c * 9 + d - 1 not in loop_cands}
        if gone:
            out.append(step(x, "continuous nice loop", f": {_text(loop)}", elim=gone))
    return out
