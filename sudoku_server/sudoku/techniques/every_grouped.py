"""Every grouped chain and nice loop at one state (9x9; :mod:`.every`): grouped AICs and grouped
continuous and discontinuous nice loops.

As :mod:`.every_chains`, with *group nodes* besides single candidates: two or
three places of a digit in one box-line intersection, taken together ("the
digit is in one of these cells"). A strong link joins two nodes of a digit
that are its only places in a unit; a weak link joins two nodes of a digit
whose cells all see each other. A chain is listed here only when it goes
through a group node (HoDoKu's codes ``0709``, ``0710``, ``0711``); chains
through almost locked sets are not searched.
"""

from __future__ import annotations

from collections import deque
from itertools import combinations

from sudoku_server.sudoku.techniques.board import Context, cells_of, popcount
from sudoku_server.sudoku.techniques.every_basic import BOX, PEERS, UNITS, seen_by_all, step
from sudoku_server.sudoku.techniques.step import Step, rc

__all__ = ["grouped_chains"]

Lit = tuple[int, bool]
#: First id of a group node (single candidates are ``cell * 9 + d0``).
GROUPS = 729


class _Nodes:
    def __init__(self, x: Context) -> None:
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
        groups_of = {d: [g for g in self.mask if g >= GROUPS and self.digit[g] == d] for d in range(9)}
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

    def search(self, start: Lit) -> _Found:
        """Breadth first from ``start``, over (literal, whether a group node was passed): the literals
        reached through a group node, each with its predecessor on a shortest such chain."""
        first = (start[0], start[1], start[0] >= GROUPS)
        parent: dict[tuple[int, bool, bool], tuple[int, bool, bool] | None] = {first: None}
        todo = deque([first])
        while todo:
            state = todo.popleft()
            i, val, grouped = state
            for j in self.weak[i] if val else self.strong[i]:
                n = (j, not val, grouped or j >= GROUPS)
                if n not in parent:
                    parent[n] = state
                    todo.append(n)
        return parent


#: A search's states (literal, through a group node) and their predecessors.
_Found = dict[tuple[int, bool, bool], "tuple[int, bool, bool] | None"]


def _reached(found: _Found, lit: Lit) -> bool:
    return (lit[0], lit[1], True) in found


def _path_of(parent: _Found, end: Lit) -> list[Lit]:
    state: tuple[int, bool, bool] | None = (end[0], end[1], True)
    out = []
    while state is not None:
        out.append((state[0], state[1]))
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


def _name(g: _Nodes, i: int) -> str:
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


def grouped_chains(x: Context) -> list[Step]:
    g = _Nodes(x)
    out: list[Step] = []
    done: set[tuple[int, int]] = set()
    for a in g.mask:
        x.check()
        from_false = g.search((a, False))
        for b, val, through in from_false:
            if not through or not val or b == a or (min(a, b), max(a, b)) in done:
                continue
            path = _path_of(from_false, (b, val))
            if len(path) < 4 or not _ok(g, path):
                continue
            gone = _ends(x, g, a, b)
            if gone:
                done.add((min(a, b), max(a, b)))
                out.append(step(x, "grouped AIC", f" ({len(path) - 1} links): {_text(g, path)}", elim=gone))
        if a < GROUPS:
            out.extend(_loops(x, g, a, from_false, g.search((a, True))))
    return out


def _loops(x: Context, g: _Nodes, a: int, from_false: _Found, from_true: _Found) -> list[Step]:
    out = []
    ca, da = divmod(a, 9)
    name = "grouped discontinuous nice loop"
    if _reached(from_true, (a, False)):
        path = _path_of(from_true, (a, False))
        if len(path) > 3 and _ok(g, path[:-1]):
            out.append(step(x, name, f": {_text(g, path)}", elim=((ca, da + 1),)))
    if _reached(from_false, (a, True)):
        path = _path_of(from_false, (a, True))
        if len(path) > 3 and _ok(g, path[:-1]):
            others = [(ca, d + 1) for d in range(9) if d != da and x.cand[ca] >> d & 1]
            out.append(step(x, name, f": {_text(g, path)}", elim=others))
    for o in range(9):
        b = ca * 9 + o
        if o != da and _reached(from_true, (b, True)):
            path = _path_of(from_true, (b, True))
            if len(path) > 3 and _ok(g, path[:-1]):
                out.append(step(x, name, f": {_text(g, path)}", elim=((ca, da + 1),)))
    for b in g.weak[a]:
        if not _reached(from_false, (b, True)):
            continue
        path = _path_of(from_false, (b, True))
        if len(path) < 4 or not _ok(g, path):
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
