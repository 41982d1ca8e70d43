"""HoDoKu 2.2.0's single-digit patterns, found in its own order: the step its solver takes.

HoDoKu takes the first skyscraper, two-string kite or empty rectangle its
search meets (``SingleDigitPatternSolver.java`` of HoDoKu 2.2.0, read for the
rules and the order of the search, no code copied); which one is taken
decides the rest of its path, so the order is kept here:

- *skyscraper*: per digit 1-9, rows then columns; the lines where the digit
  has two places, in order, paired (i < j); the first places (else the
  second) of the two lines must share a column (a row), the other two not;
  the digit goes from the cells that see both other places.
- *two-string kite*: per digit, each row with two places against each column
  with two places; one end of each in one box (the row's first end tried
  first), no cell shared; the digit goes from the cell in the column's other
  end's row and the row's other end's column. A found box match swaps the
  ends in place, and the swap stays for the later pairs, as in HoDoKu.
- *empty rectangle*: per digit and box (2 to 5 places), the nine ways a row
  and a column of the box can hold every place (a 2x2 corner of the box
  empty, both lines with a place off the crossing, one of them with two
  places); then along the row (then the column) a cell outside the box with
  the digit whose column (row) has exactly two places: the other one's row
  (column) loses the digit where it crosses the box's column (row).

Cells 0..80 row-major, digits 1..9, on an :class:`~.hodoku_grid.HGrid`.
"""

from __future__ import annotations

from sudoku_server.sudoku.hodoku_grid import ALL_UNITS, BUDDIES, HGrid

__all__ = ["empty_rectangle", "skyscraper", "two_string_kite"]

Pairs = list[tuple[int, int]]

#: per box position 0..8 (the empty 2x2 corner), the 4 cell offsets from the box's first cell
_ER_OFFSETS = (
    (0, 1, 9, 10),
    (0, 2, 9, 11),
    (1, 2, 10, 11),
    (0, 1, 18, 19),
    (0, 2, 18, 20),
    (1, 2, 19, 20),
    (9, 10, 18, 19),
    (9, 11, 18, 20),
    (10, 11, 19, 20),
)
_ER_LINE = (2, 2, 2, 1, 1, 1, 0, 0, 0)
_ER_COL = (2, 1, 0, 2, 1, 0, 2, 1, 0)


def _col(c: int) -> int:
    return c % 9


def _row(c: int) -> int:
    return c // 9


def _box(c: int) -> int:
    return c // 27 * 3 + c % 9 // 3


def _two_places(g: HGrid, units: range, d: int) -> list[list[int]]:
    bit = 1 << (d - 1)
    out = []
    for u in units:
        if g.free[u][d] == 2:
            out.append([c for c in ALL_UNITS[u] if g.cells[c] & bit][:2])
    return out


def skyscraper(g: HGrid) -> Pairs | None:
    """The first skyscraper in HoDoKu's order; its eliminations, ascending cells."""
    for lines in (True, False):
        side = _col if lines else _row
        for d in range(1, 10):
            bit = 1 << (d - 1)
            pairs = _two_places(g, range(0, 9) if lines else range(9, 18), d)
            for i in range(len(pairs)):
                for j in range(i + 1, len(pairs)):
                    a, b = pairs[i], pairs[j]
                    if side(a[0]) == side(b[0]):
                        other = 1
                    elif side(a[1]) == side(b[1]):
                        other = 0
                    else:
                        continue
                    if side(a[other]) == side(b[other]):
                        continue
                    seen = set(BUDDIES[a[other]]) & set(BUDDIES[b[other]])
                    gone = sorted(c for c in seen if g.cells[c] & bit)
                    if gone:
                        return [(c, d) for c in gone]
    return None


def two_string_kite(g: HGrid) -> Pairs | None:
    """The first two-string kite in HoDoKu's order; its one elimination."""
    for d in range(1, 10):
        rows = _two_places(g, range(0, 9), d)
        cols = _two_places(g, range(9, 18), d)
        for a in rows:
            for b in cols:
                if _box(a[0]) == _box(b[0]):
                    pass
                elif _box(a[0]) == _box(b[1]):
                    b[0], b[1] = b[1], b[0]
                elif _box(a[1]) == _box(b[0]):
                    a[0], a[1] = a[1], a[0]
                elif _box(a[1]) == _box(b[1]):
                    b[0], b[1] = b[1], b[0]
                    a[0], a[1] = a[1], a[0]
                else:
                    continue
                if a[0] in b or a[1] in b:
                    continue
                cross = b[1] // 9 * 9 + a[1] % 9
                if g.cells[cross] >> (d - 1) & 1:
                    return [(cross, d)]
    return None


def empty_rectangle(g: HGrid) -> Pairs | None:
    """The first empty rectangle in HoDoKu's order (two-place ERs left out, its default); one elimination."""
    for d in range(1, 10):
        bit = 1 << (d - 1)
        for box in range(9):
            if not 2 <= g.free[18 + box][d] <= 5:
                continue
            first = box // 3 * 27 + box % 3 * 3
            places = {c for c in ALL_UNITS[18 + box] if g.cells[c] & bit}
            for j in range(9):
                if places & {first + o for o in _ER_OFFSETS[j]}:
                    continue
                row, col = box // 3 * 3 + _ER_LINE[j], box % 3 * 3 + _ER_COL[j]
                in_row = {c for c in places if c // 9 == row}
                enough = len(in_row) >= 2
                if not in_row - {c for c in places if c % 9 == col}:
                    continue
                in_col = {c for c in places if c % 9 == col}
                enough = enough or len(in_col) >= 2
                if not in_col - in_row:
                    continue
                if not enough:
                    continue
                found = _check(g, d, box, ALL_UNITS[row], col, False)
                if found is None:
                    found = _check(g, d, box, ALL_UNITS[9 + col], row, True)
                if found is not None:
                    return [(found, d)]
    return None


def _check(g: HGrid, d: int, box: int, line: list[int], cross: int, reversed_: bool) -> int | None:
    """Along the ER's row (its column when ``reversed_``): a cell off the box with the digit whose column
    (row) holds the digit twice; the other place's row (column) loses it in the ER's column (row) ``cross``."""
    bit = 1 << (d - 1)
    for c in line:
        if g.values[c] or _box(c) == box or not g.cells[c] & bit:
            continue
        across = ALL_UNITS[(c // 9) if reversed_ else (9 + c % 9)]
        two = [p for p in across if g.cells[p] & bit]
        if len(two) != 2:
            continue
        other = two[1] if two[0] == c else two[0]
        along = ALL_UNITS[(9 + other % 9) if reversed_ else (other // 9)]
        for p in along:
            if not g.cells[p] & bit or _box(p) == box:
                continue
            if (p // 9 if reversed_ else p % 9) == cross:
                return p
    return None


# -- wings (``WingSolver.java``) ---------------------------------------------------------------------------------

_PEERS = [frozenset(b) for b in BUDDIES]


def _wing(g: HGrid, xyz: bool) -> Pairs | None:
    """The first XY-Wing (XYZ-Wing) in HoDoKu's order: the pivot and pincers taken from the cells with two (the
    pivot: three) candidates in cell order, each XY triple tried with each cell as the pivot in turn."""
    pop = [bin(m).count("1") for m in g.cells]
    bi = [c for c in range(81) if pop[c] == 2]
    firsts = [c for c in range(81) if pop[c] == 3] if xyz else bi
    cells = g.cells
    for i in range(len(firsts)):
        for j in range(0 if xyz else i + 1, len(bi)):
            if bin(cells[firsts[i]] | cells[bi[j]]).count("1") != 3:
                continue
            for k in range(j + 1, len(bi)):
                i1, i2, i3 = firsts[i], bi[j], bi[k]
                if bin(cells[i1] | cells[i2] | cells[i3]).count("1") != 3:
                    continue
                if cells[i1] == cells[i2] or cells[i2] == cells[i3] or cells[i3] == cells[i1]:
                    continue
                for tries in range(1 if xyz else 3):
                    if tries == 1:
                        i1, i2 = bi[j], firsts[i]
                    elif tries == 2:
                        i1, i2, i3 = bi[k], bi[j], firsts[i]
                    if i2 not in _PEERS[i1] or i3 not in _PEERS[i1]:
                        continue
                    z = cells[i2] & cells[i3]
                    if not z or z & (z - 1):
                        continue
                    seen = _PEERS[i2] & _PEERS[i3]
                    if xyz:
                        seen &= _PEERS[i1]
                    gone = sorted(c for c in seen if cells[c] & z)
                    if gone:
                        return [(c, z.bit_length()) for c in gone]
    return None


def xy_wing(g: HGrid) -> Pairs | None:
    """The first XY-Wing in HoDoKu's order."""
    return _wing(g, False)


def xyz_wing(g: HGrid) -> Pairs | None:
    """The first XYZ-Wing in HoDoKu's order."""
    return _wing(g, True)


def w_wing(g: HGrid) -> Pairs | None:
    """The first W-Wing in HoDoKu's order: two cells with the same two candidates (in cell order), x seen by
    both goes (x the lower digit first) where a unit with two places for the other digit links them."""
    cells = g.cells
    for i in range(81):
        if g.values[i] or bin(cells[i]).count("1") != 2:
            continue
        c1, c2 = [d + 1 for d in range(9) if cells[i] >> d & 1]
        for j in range(i + 1, 81):
            if cells[j] != cells[i]:
                continue
            for x, y in ((c1, c2), (c2, c1)):
                bit = 1 << (x - 1)
                gone = sorted(c for c in _PEERS[i] & _PEERS[j] if cells[c] & bit)
                if gone and _linked(g, y, i, j):
                    return [(c, x) for c in gone]
    return None


def _linked(g: HGrid, y: int, a: int, b: int) -> bool:
    """A unit whose two places for y (neither a nor b) see a and b, one each (``WingSolver.checkLink``)."""
    bit = 1 << (y - 1)
    for u in range(27):
        if g.free[u][y] != 2:
            continue
        sees_a = sees_b = False
        for c in ALL_UNITS[u]:
            if c != a and c != b and g.cells[c] & bit:
                if a in _PEERS[c]:
                    sees_a = True
                elif b in _PEERS[c]:
                    sees_b = True
            if sees_a and sees_b:
                return True
    return False


# -- remote pairs (``ChainSolver.getRemotePairs``) ------------------------------------------------------------------


def remote_pair(g: HGrid, max_cells: int = 10) -> Pairs | None:
    """The remote pair HoDoKu sorts first: of every chain of at least 4 cells with the same two candidates,
    each seeing the next (at most ``max_cells``: its default chain length), the one with most eliminations
    (then the lowest weighted sum of them); a cell that sees two chain cells an odd number of links (3 or
    more) apart loses both digits."""
    groups: dict[int, list[int]] = {}
    for c in range(81):
        m = g.cells[c]
        if m and bin(m).count("1") == 2:
            groups.setdefault(m, []).append(c)
    best: tuple[int, int, Pairs] | None = None
    for mask, members in groups.items():
        if len(members) < 4:
            continue
        near = {c: [p for p in members if p in _PEERS[c]] for c in members}
        found: set[frozenset[tuple[int, int]]] = set()

        def walk(path: list[int], mask: int = mask, near: dict[int, list[int]] = near) -> None:
            if len(path) >= 4:
                gone: set[tuple[int, int]] = set()
                for i in range(len(path)):
                    for j in range(i + 3, len(path), 2):
                        for c in _PEERS[path[i]] & _PEERS[path[j]]:
                            for d in (1, 2, 3, 4, 5, 6, 7, 8, 9):
                                if mask >> (d - 1) & 1 and g.cells[c] >> (d - 1) & 1:
                                    gone.add((c, d))
                if gone:
                    found.add(frozenset(gone))
            if len(path) < max_cells:
                for p in near[path[-1]]:
                    if p not in path:
                        path.append(p)
                        walk(path)
                        path.pop()

        for start in members:
            walk([start])
        for gone_set in found:
            pairs = sorted(gone_set, key=lambda p: (p[1], p[0]))
            key = (-len(pairs), _weight(pairs), pairs)
            if best is None or key[:2] < best[:2]:
                best = key
    return best[2] if best else None


def _weight(pairs: Pairs) -> int:
    total, offset = 0, 1
    for c, d in pairs:
        total += c * offset + d
        offset += 80
    return total
