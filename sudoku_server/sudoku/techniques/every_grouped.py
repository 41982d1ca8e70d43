"""Every grouped chain and nice loop at one state (9x9; :mod:`.every`): grouped AICs and grouped
continuous and discontinuous nice loops.

As :mod:`.every_chains`, with *group nodes* besides single candidates: two or
three places of a digit in one box-line intersection, taken together ("the
digit is in one of these cells"). A strong link joins two nodes of a digit
that are its only places in a unit; a weak link joins two nodes of a digit
whose cells all see each other. *ALS nodes* (HoDoKu's ``TablingSolver``
with ALS in chains, read for the definitions): for an almost locked set of
two to four cells (:mod:`.every_als`; larger ones cost too much time here)
and a digit x of it, the node "x is in the ALS" (its places of x). A weak
link joins it to the nodes of x whose cells see all those places (and to
another ALS's node of x, the two a restricted common apart); false, the ALS
is locked, so a strong link joins it to the node of each other digit of the
same ALS. In a continuous loop through an ALS, its digits other than the
two the loop uses go from the cells seeing all their places in it. A chain
is listed here only when it goes through a group or ALS node (HoDoKu's codes
``0709``, ``0710``, ``0711``); where the shortest chain through an ALS uses
a candidate twice, the shortest one without ALS nodes is tried; for a
discontinuous loop placing a digit, ``HINT all`` then searches again without
the literals that used a candidate the second time (:data:`RETRIES`).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

from sudoku_server.sudoku.techniques.board import Context, cells_of, popcount
from sudoku_server.sudoku.techniques.every_als import almost_locked_sets
from sudoku_server.sudoku.techniques.every_basic import BOX, PEERS, UNITS, cells_text, seen_by_all, step
from sudoku_server.sudoku.techniques.step import Step, rc

__all__ = ["RETRIES", "grouped_chains"]

Lit = tuple[int, bool]
#: The largest ALS taken as a chain node, in cells (HoDoKu takes all; 5 and more cost HINT all 12 ms a state
#: on average and pass one more of its library's cases).
ALS_CELLS = 4
#: First id of a group node (single candidates are ``cell * 9 + d0``).
GROUPS = 729


class _Nodes:
    def __init__(self, x: Context, with_als: bool = True) -> None:
        cand = x.cand
        self.mask: dict[int, int] = {}
        self.digit: dict[int, int] = {}
        by_mask: dict[tuple[int, int], int] = {}
        for c in range(81):
            for d in range(9):
                if cand[c] >> d & 1:
                    n = c * 9 + d
                    self.mask[n], self.digit[n] = 1 << c, d
                    by_mask[(d, 1 << c)] = n
        k = GROUPS
        for d in range(9):
            for b in range(9):
                for line in range(18):
                    m = x.pos[d] & BOX[b] & UNITS[line]
                    if popcount(m) < 2:
                        continue
                    cells = cells_of(m)
                    for size in range(2, len(cells) + 1):
                        for combo in combinations(cells, size):
                            gm = sum(1 << c for c in combo)
                            if (d, gm) not in by_mask:
                                self.mask[k], self.digit[k] = gm, d
                                by_mask[(d, gm)] = k
                                k += 1
        self.weak: dict[int, list[int]] = {}
        self.strong: dict[int, list[int]] = {}
        self._succ: list[list[int]] | None = None  # per search state, the states one link on
        self._holding: dict[int, list[int]] | None = None  # per candidate index, the nodes holding it
        groups_of = {d: [g for g in self.mask if g >= GROUPS and self.digit[g] == d] for d in range(9)}
        first_als = k
        for n, m in self.mask.items():
            d = self.digit[n]
            seen = seen_by_all(m)
            w = [p * 9 + d for p in cells_of(x.pos[d] & seen & ~m)]
            w += [g for g in groups_of[d] if not self.mask[g] & m and self.mask[g] & ~seen == 0]
            s = []
            if n < GROUPS:
                c = n // 9
                w += [c * 9 + o for o in range(9) if o != d and cand[c] >> o & 1]
                if popcount(cand[c]) == 2:
                    s.append(c * 9 + (cand[c] & ~(1 << d)).bit_length() - 1)
            for u in range(27):
                if m & ~UNITS[u]:
                    continue
                rest = x.pos[d] & UNITS[u] & ~m
                hit = by_mask.get((d, rest))
                if rest and hit is not None and hit not in s:
                    s.append(hit)
            self.weak[n], self.strong[n] = w, s
        #: ALS nodes (HoDoKu's, in its chains with ALS): per ALS of 2 to :data:`ALS_CELLS` cells and digit x, the
        #: node "x is in the ALS" (its places of x); false, the ALS is locked and holds its other digits
        self.als: dict[int, int] = {}
        self.als_cells: dict[int, int] = {}
        if with_als:
            self._add_als(x, first_als, groups_of)

    def _add_als(self, x: Context, k: int, groups_of: dict[int, list[int]]) -> None:
        a = almost_locked_sets(x)
        reach = a.reach(x)
        node: dict[tuple[int, int], int] = {}
        for i, m in enumerate(a.masks):
            if m & (m - 1) == 0 or popcount(m) > ALS_CELLS:
                continue  # one cell: its candidates are nodes already
            ds = [d for d in range(9) if a.places[i][d]]
            if not any(reach[i][d] for d in ds):
                continue  # locked, it clears nothing
            for d in ds:
                node[(i, d)] = k
                self.mask[k], self.digit[k], self.als[k], self.als_cells[k] = a.places[i][d], d, i, m
                self.weak[k], self.strong[k] = [], []
                k += 1
        for (i, d), n in node.items():
            self.strong[n] = [node[(i, o)] for o in range(9) if o != d and (i, o) in node]
            w = self.weak[n]
            for c in cells_of(reach[i][d]):
                w.append(c * 9 + d)
                self.weak[c * 9 + d].append(n)
            mi = a.masks[i]
            for g in groups_of[d]:
                if not self.mask[g] & mi and self.mask[g] & ~reach[i][d] == 0:
                    w.append(g)
                    self.weak[g].append(n)
        for (i, j), commons in a.rcc.items():
            if a.masks[i] & a.masks[j]:
                continue
            for d in commons:
                ni, nj = node.get((i, d)), node.get((j, d))
                if ni is not None and nj is not None:
                    self.weak[ni].append(nj)
                    self.weak[nj].append(ni)

    def holding(self, n: int) -> list[int]:
        """The nodes other than ``n`` that hold one of its candidates (same digit, a cell in common)."""
        if self._holding is None:
            self._holding = {}
            for i, m in self.mask.items():
                d = self.digit[i]
                for c in cells_of(m):
                    self._holding.setdefault(c * 9 + d, []).append(i)
        d = self.digit[n]
        return list(dict.fromkeys(i for c in cells_of(self.mask[n]) for i in self._holding[c * 9 + d] if i != n))

    def search(self, start: Lit, banned: frozenset[Lit] = frozenset()) -> _Found:
        """Breadth first from ``start``, over (literal, whether a group node was passed): the states in the
        order reached, each with its predecessor on a shortest chain. A state is ``node * 4 + value * 2 +
        through``, so the search runs on lists of ints. Never through the ``banned`` literals."""
        if self._succ is None:
            size = max(self.mask) + 1
            through = [0] * size
            for n in self.mask:
                if n >= GROUPS:
                    through[n] = 1
            succ: list[list[int]] = [[] for _ in range(size * 4)]
            for n, ws in self.weak.items():
                succ[n * 4 + 2] = [j * 4 + through[j] for j in ws]
                succ[n * 4 + 3] = [j * 4 + 1 for j in ws]
            for n, ss in self.strong.items():
                succ[n * 4] = [j * 4 + 2 + through[j] for j in ss]
                succ[n * 4 + 1] = [j * 4 + 3 for j in ss]
            self._succ = succ
        succ = self._succ
        a, val = start
        first = a * 4 + (2 if val else 0) + (1 if a >= GROUPS else 0)
        parent = [-2] * len(succ)
        for n, v in banned:
            parent[n * 4 + 2 * v] = parent[n * 4 + 2 * v + 1] = -3
        parent[first] = -1
        order = [first]
        for state in order:  # grows while read: the queue
            for n in succ[state]:
                if parent[n] == -2:
                    parent[n] = state
                    order.append(n)
        return parent, order


#: A search: per state its predecessor (-1 the start, -2 not reached), and the states in the order reached.
_Found = tuple[list[int], list[int]]


def _reached(found: _Found, lit: Lit) -> bool:
    """Whether the search reached ``lit`` (through a group node); a literal of no node (a candidate the grid no
    longer has, past the last node) is not reached."""
    state = lit[0] * 4 + (2 if lit[1] else 0) + 1
    return state < len(found[0]) and found[0][state] != -2


def _path_of(found: _Found, end: Lit) -> list[Lit]:
    parent = found[0]
    state = end[0] * 4 + (2 if end[1] else 0) + 1
    out = []
    while state >= 0:
        out.append((state >> 2, bool(state & 2)))
        state = parent[state]
    return out[::-1]


def _ok(g: _Nodes, path: list[Lit]) -> bool:
    """Goes through a group node, and no candidate (cell and digit) is used by two nodes."""
    if not any(i >= GROUPS for i, _v in path):
        return False
    used = [0] * 9
    for i, _v in path:
        d, m = g.digit[i], g.mask[i]
        if m & used[d]:
            return False
        used[d] |= m
    return True


def _reused(g: _Nodes, path: list[Lit]) -> set[Lit]:
    """The literals of ``path`` whose node uses a candidate (cell and digit) a node before them used."""
    used = [0] * 9
    out = set()
    for i, v in path:
        d, m = g.digit[i], g.mask[i]
        if m & used[d]:
            out.add((i, v))
        used[d] |= m
    return out


#: How many times ``HINT all`` searches a loop placing a digit whose shortest chain uses a candidate twice
#: again, without the literals that used it the second time (more passes no more of HoDoKu's library cases).
RETRIES = 4


def _name(g: _Nodes, i: int) -> str:
    if i in g.als:
        return f"({g.digit[i] + 1})ALS[{cells_text(g.als_cells[i])}]"
    cells = cells_of(g.mask[i])
    if len(cells) == 1:
        return f"({g.digit[i] + 1}){rc(cells[0], 9)}"
    rows = sorted({c // 9 + 1 for c in cells})
    cols = sorted({c % 9 + 1 for c in cells})
    return f"({g.digit[i] + 1})r{''.join(map(str, rows))}c{''.join(map(str, cols))}"


def _text(g: _Nodes, path: list[Lit]) -> str:
    parts = []
    for k, (i, val) in enumerate(path):
        if k:
            parts.append("=" if val else "-")
        parts.append(_name(g, i))
    return "".join(parts)


def _ends(x: Context, g: _Nodes, a: int, b: int) -> list[tuple[int, int]]:
    da, db = g.digit[a], g.digit[b]
    ma, mb = g.mask[a], g.mask[b]
    if ma & mb:
        return []
    if da == db:
        return [(c, da + 1) for c in cells_of(x.pos[da] & seen_by_all(ma | mb) & ~(ma | mb))]
    if a >= GROUPS or b >= GROUPS or not PEERS[a // 9] >> (b // 9) & 1:
        return []
    out = []
    if x.cand[a // 9] >> db & 1:
        out.append((a // 9, db + 1))
    if x.cand[b // 9] >> da & 1:
        out.append((b // 9, da + 1))
    return out


class _Search:
    """The searches from one start literal: through ALS nodes, and (made when needed) without them, for a
    chain whose shortest way through an ALS uses a candidate twice while a way without one does not."""

    def __init__(self, g: _Nodes, plain: Callable[[], _Nodes], start: Lit) -> None:
        self.g, self.plain, self.start = g, plain, start
        self.found = g.search(start)
        self._without: _Found | None = None

    def path(self, end: Lit, check: Callable[[list[Lit]], bool], retries: int = 0) -> list[Lit] | None:
        """A shortest chain to ``end`` (through a group or ALS node) that ``check`` accepts, or None."""
        if not _reached(self.found, end):
            return None
        path = _path_of(self.found, end)
        if check(path):
            return path
        first = path
        if end[0] not in self.g.als and any(i in self.g.als for i, _v in path):
            if self._without is None:
                self._without = self.plain().search(self.start)
            if _reached(self._without, end):
                path = _path_of(self._without, end)
                if check(path):
                    return path
        return self._again(first, end, check, retries)

    def _again(self, path: list[Lit], end: Lit, check: Callable[[list[Lit]], bool], retries: int) -> list[Lit] | None:
        """While the shortest chain uses a candidate twice, the shortest one without the literals that used it
        the second time (at most ``retries`` times; the ends are never left out). The first time, the nodes
        other than the ends that hold an end's candidate (group and ALS nodes through its cell) go too."""
        g, ends = self.g, (self.start[0], end[0])
        banned: frozenset[Lit] = frozenset()
        for k in range(retries):
            inner = path[:-1] if path[-1][0] == self.start[0] else path
            again = {lit for lit in _reused(g, inner) if lit[0] not in ends}
            if not again:
                return None
            if not k:
                again |= {(n, v) for e in ends for n in g.holding(e) if n not in ends for v in (False, True)}
            if again <= banned:
                return None
            banned |= again
            found = g.search(self.start, banned)
            if not _reached(found, end):
                return None
            path = _path_of(found, end)
            if check(path):
                return path
        return None


def grouped_chains(x: Context, with_als: bool = True, retries: int = 0) -> list[Step]:
    """Every grouped AIC and nice loop; ``with_als``: through ALS nodes too (HoDoKu's option, off in its
    default solving path, which :mod:`~sudoku_server.sudoku.hodoku_rating` follows). ``retries``: how many
    times a discontinuous loop placing a digit ("not x" leads to "x") whose shortest chain uses a candidate
    twice is searched again without the literals that used it the second time (``HINT all`` passes
    :data:`RETRIES`; the rating path, 0)."""
    g = _Nodes(x, with_als)
    plain: list[_Nodes] = []

    def without_als() -> _Nodes:
        if not plain:
            plain.append(_Nodes(x, with_als=False))
        return plain[0]

    out: list[Step] = []
    done: set[tuple[int, int]] = set()
    for a in g.mask:
        if a in g.als:
            continue  # chains start and end at candidates and group nodes
        x.check()
        from_false = _Search(g, without_als, (a, False))
        for state in [s for s in from_false.found[1] if s & 3 == 3]:  # true, through a group or ALS node
            b = state >> 2
            if b == a or b in g.als or (min(a, b), max(a, b)) in done:
                continue
            gone = _ends(x, g, a, b)
            if not gone:
                continue
            path = from_false.path((b, True), lambda p: len(p) >= 4 and _ok(g, p))
            if path is not None:
                done.add((min(a, b), max(a, b)))
                out.append(step(x, "grouped AIC", f" ({len(path) - 1} links): {_text(g, path)}", elim=gone))
        if a < GROUPS:
            out.extend(_loops(x, g, a, from_false, _Search(g, without_als, (a, True)), retries))
    return out


def _loops(x: Context, g: _Nodes, a: int, from_false: _Search, from_true: _Search, retries: int) -> list[Step]:
    out = []
    ca, da = divmod(a, 9)
    name = "grouped discontinuous nice loop"

    def open_ok(p: list[Lit]) -> bool:
        return len(p) > 3 and _ok(g, p[:-1])

    path = from_true.path((a, False), open_ok)
    if path is not None:
        out.append(step(x, name, f": {_text(g, path)}", elim=((ca, da + 1),)))
    path = from_false.path((a, True), open_ok, retries)
    if path is not None:
        others = [(ca, d + 1) for d in range(9) if d != da and x.cand[ca] >> d & 1]
        out.append(step(x, name, f": {_text(g, path)}", elim=others))
    for o in range(9):
        b = ca * 9 + o
        if o != da:
            path = from_true.path((b, True), open_ok)
            if path is not None:
                out.append(step(x, name, f": {_text(g, path)}", elim=((ca, da + 1),)))
    for b in g.weak[a]:
        path = from_false.path((b, True), lambda p: len(p) >= 4 and _ok(g, p))
        if path is None:
            continue
        loop = [*path, (a, False)]
        gone: set[tuple[int, int]] = set()
        for (i, vi), (j, vj) in zip(loop, loop[1:]):
            if vi and not vj:
                di, dj = g.digit[i], g.digit[j]
                if di == dj:
                    both = g.mask[i] | g.mask[j]
                    gone |= {(c, di + 1) for c in cells_of(x.pos[di] & seen_by_all(both) & ~both)}
                elif i < GROUPS and j < GROUPS:
                    ci = i // 9
                    gone |= {(ci, d + 1) for d in range(9) if x.cand[ci] >> d & 1 and d not in (di, dj)}
            elif not vi and vj and i in g.als:
                # through an ALS (in by one digit, out by another): locked on the rest, which goes from the
                # cells seeing all its places in the ALS
                reach = almost_locked_sets(x).reach(x)[g.als[i]]
                keep = (g.digit[i], g.digit[j])
                gone |= {(c, d + 1) for d in range(9) if d not in keep for c in cells_of(reach[d])}
        used = 0
        for i, _v in loop:
            used |= g.mask[i]
        gone = {
            (c, d)
            for c, d in gone
            if not (used >> c & 1 and any(g.digit[i] == d - 1 and g.mask[i] >> c & 1 for i, _ in loop))
        }
        if gone:
            out.append(step(x, "grouped continuous nice loop", f": {_text(g, loop)}", elim=gone))
    return out
