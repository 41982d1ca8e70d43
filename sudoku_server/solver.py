"""Propagation and search: the solver. Pure and synchronous; imports no I/O.

The state of a search node is one int, a bitboard: bit ``cell * n + d - 1``
is set while digit ``d`` is still a candidate of ``cell`` (``n`` digits per
unit, cells row-major). Copying a state is free (ints are immutable), and
the rules are applied to every cell, unit and digit at once with shifts and
masks, so the interpreter runs a few hundred int operations per search node
instead of thousands of list operations.

Propagation (:meth:`_Engine.propagate`) removes only candidates that no
solution can use, until nothing changes:

* naked singles: a cell with one candidate removes it from its peers;
* hidden singles: a digit with one place left in a unit goes there;
* locked candidates: a digit whose places in a box all lie in one row (or
  column) leaves the rest of that row (pointing), and a digit whose places in
  a row (or column) all lie in one box leaves the rest of that box
  (claiming). Measured: on magictour top1465 this cuts the search nodes
  about 3x and the time about 2.5x.

A rule is evaluated for all units at once by counting, for every unit and
digit, "at least one" and "at least two" places with shifted ORs (a window
doubling: 4 steps for 9 cells). The code for one box shape is generated once
(:class:`_Compiler`) with its masks as constants.

Search branches two ways on one candidate: assign it, or remove it. The
candidate (:meth:`_Engine.pick`) is the lower digit of the cell with two
candidates that has the most open peers (measured: about 2x fewer nodes than
the first such cell on the hard sets); when no cell has two candidates, a
digit with two places in a unit (the constraint-level choice of exact cover
solvers; without it Norvig's ``hard1`` takes 10^5 nodes instead of 30); else
the first cell with the fewest candidates.

The answer promised is the *first solution in row-major order*: the one the
naive backtracker (1..n in each empty cell, left to right, top to bottom)
prints first, i.e. the smallest solution read as one number. Propagation
never changes it (it removes only impossible candidates); the search order
must not either, so :func:`solve` runs two complete searches, interleaved:

* branch and bound: the search above; each solution found becomes the
  bound, and a node is cut unless it may hold a smaller solution. The bound
  also propagates: cells before the first cell that can still go below the
  bound must equal it, and that cell must not exceed it. On a puzzle with one
  solution this is at most a uniqueness proof.
* row-major: branch on the first open cell, lowest digit first, under the
  same bound; the first solution it reaches is the answer. It starts once a
  bound exists and gets one node per four of the first (one per one after
  the bound has improved twice, i.e. on puzzles with many solutions, such as
  the empty grid, where choosing cells by constraint wanders).

Whichever finishes first answers, so a puzzle costs about the better of the
two: proofs for hard unique puzzles, lexicographic order for open ones.

Every search node calls ``check()``; the server passes
``trio.from_thread.check_cancelled`` so that a timed-out solve really stops.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Dict, List, Optional, Tuple

from ._errors import UnsolvableError
from .grid import SYMBOLS, Grid, cell_name, check_givens, geometry

__all__ = ["solve", "count_solutions", "Check"]

#: The stop hook: called at every search node; raising from it ends the search
#: (the exception propagates out of :func:`solve` / :func:`count_solutions`).
Check = Callable[[], None]


def _no_check() -> None:
    return None


class _Compiler:
    """Writes the source of one straight-line function, with its constants.

    Masks are stored as named globals (``K0``, ``K1``...) rather than literals:
    a 25x25 state has 15,625 bits, over the limit of int literals in source.
    """

    def __init__(self, header: str) -> None:
        self.lines = [header]
        self.consts: Dict[str, int] = {}
        self._by_value: Dict[int, str] = {}
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

    def fold(self, x: str, windows, indent: int, twice: bool = True) -> Tuple[str, Optional[str]]:
        """Count the bits of ``x`` over a window at every position.

        ``windows`` is a list of ``(step, length)``: the window at bit ``i`` is
        ``i + a*step1 + b*step2 ...`` (``a < length1``...), e.g. ``[(n, n)]``
        for the cells of a row. Windows are built by doubling.

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
                        shift = offset * step
                        y = self.var("y")
                        self.emit(f"{y} = {po} >> {shift}", indent)
                        if twice:
                            terms = [f"({ro} & {y})"]
                            if rt is not None:
                                terms.append(rt)
                            if pt is not None:
                                terms.append(f"({pt} >> {shift})")
                            nt = self.var("t")
                            self.emit(f"{nt} = {' | '.join(terms)}", indent)
                            rt = nt
                        self.emit(f"{ro} |= {y}", indent)
                    offset += plen
                rest >>= 1
                if rest:
                    shift = plen * step
                    y, no = self.var("y"), self.var("o")
                    self.emit(f"{y} = {po} >> {shift}", indent)
                    if twice:
                        nt = self.var("t")
                        terms = [f"({po} & {y})"]
                        if pt is not None:
                            terms += [pt, f"({pt} >> {shift})"]
                        self.emit(f"{nt} = {' | '.join(terms)}", indent)
                        pt = nt
                    self.emit(f"{no} = {po} | {y}", indent)
                    po = no
                    plen *= 2
            o, t = ro, rt
        return o, t

    def fold3(self, x: str, offsets, indent: int) -> Tuple[str, str]:
        """Like :meth:`fold` with at-least-two and at-least-three counts (linear)."""
        o, t, h = self.var("o"), self.var("t"), self.var("h")
        self.emit(f"{o} = {x}; {t} = 0; {h} = 0", indent)
        for offset in offsets[1:]:
            y = self.var("y")
            self.emit(f"{y} = {x} >> {offset}; {h} |= {t} & {y}; {t} |= {o} & {y}; {o} |= {y}", indent)
        return t, h

    def build(self, name: str, extra: dict):
        namespace = dict(self.consts)
        namespace.update(extra)
        exec("\n".join(self.lines), namespace)  # noqa: S102 - generated from tables above
        return namespace[name]


class _Engine:
    """The compiled rules of one box shape.

    Attributes:
      n, ncells: digits per unit and cells of the grid.
      full: the state with every candidate.
      cell_ones: bit ``cell * n`` of every cell (the lowest bit of each cell).
      digit_mask: ``(1 << n) - 1``.
      elim: ``elim[i + 1]``, for candidate bit ``i`` (digit d at cell c), the
        candidates that placing it removes: its cell's other digits and d in
        the peers. Indexed by ``bit.bit_length()``.
      propagate(s, done) -> (s, done): the state after propagation, or
        ``(0, 0)`` on a contradiction. ``done`` holds the singles whose
        consequences are already removed (a speed-up; 0 is always valid).
      pick(s) -> int: the candidate bit to branch on, 0 when ``s`` is solved.
    """

    def __init__(self, box_rows: int, box_cols: int) -> None:
        geo = geometry(box_rows, box_cols)
        self.geo = geo
        n = self.n = geo.size
        self.ncells = geo.ncells
        self.digit_mask = (1 << n) - 1
        row_bits = n * n  # bits per row of cells

        def cells(seq) -> int:
            """Every digit's bit in the given cells."""
            mask = 0
            for c in seq:
                mask |= self.digit_mask << (c * n)
            return mask

        def spread(offsets) -> int:
            return sum(1 << off for off in offsets)

        self.cell_ones = spread(c * n for c in range(geo.ncells))
        self.full = (1 << (geo.ncells * n)) - 1
        elim = [0] * (geo.ncells * n + 1)
        for c in range(geo.ncells):
            for d in range(n):
                mask = cells([c]) & ~(1 << (c * n + d))
                for p in geo.peers[c]:
                    mask |= 1 << (p * n + d)
                elim[c * n + d + 1] = mask
        self.elim = elim

        # Each unit kind: its window (as cell offsets and as fold steps), the
        # bits of its first cells, and the multiplier spreading a first-cell
        # bit over the unit.
        box_offsets = [r * row_bits + c * n for r in range(box_rows) for c in range(box_cols)]
        kinds = [
            ([j * n for j in range(n)], [(n, n)], cells(u[0] for u in geo.rows)),
            ([r * row_bits for r in range(n)], [(row_bits, n)], cells(u[0] for u in geo.columns)),
            (box_offsets, [(n, box_cols), (row_bits, box_rows)], cells(u[0] for u in geo.boxes)),
        ]
        self._compile_propagate(geo, kinds, cells, spread, row_bits)
        self._compile_pick(geo, kinds, spread)

    def _compile_propagate(self, geo, kinds, cells, spread, row_bits) -> None:
        n = self.n
        br, bc = geo.box_rows, geo.box_cols
        src = _Compiler("def propagate(s, done):")
        K = src.const
        src.emit("while True:")
        # Naked singles; an empty cell is a contradiction.
        o, t = src.fold("s", [(1, n)], 2)
        src.emit(f"if {K(self.cell_ones)} & ~{o}: return 0, 0", 2)
        src.emit(f"new = s & (({o} & ~{t} & {K(self.cell_ones)}) * {K(self.digit_mask)}) & ~done", 2)
        src.emit("if not new:", 2)
        # Hidden singles; a digit with no place in a unit is a contradiction.
        for k, (offsets, windows, firsts) in enumerate(kinds):
            o, t = src.fold("s", windows, 3)
            src.emit(f"if {K(firsts)} & ~{o}: return 0, 0", 3)
            op = "=" if k == 0 else "|="
            src.emit(f"new {op} s & (({o} & ~{t} & {K(firsts)}) * {K(spread(offsets))})", 3)
        src.emit("new &= ~done", 3)
        src.emit("if not new:", 3)
        # Locked candidates, along rows then along columns. A segment is the
        # part of a row (column) inside one box; ``seg`` marks, at the first
        # cell of each segment, the digits with a place in it.
        first = True
        for along_rows in (True, False):
            if along_rows:
                seg_len, seg_step = bc, n  # cells per segment, bits between them
                line_step, line_count = bc * n, n // bc  # next segment of the line
                across_step, across_count = row_bits, br  # next segment of the box
                seg_firsts = cells(r * n + j * bc for r in range(n) for j in range(n // bc))
                line_firsts = cells(u[0] for u in geo.rows)
            else:
                seg_len, seg_step = br, row_bits
                line_step, line_count = br * row_bits, n // br
                across_step, across_count = n, bc
                seg_firsts = cells(i * br * n + c for i in range(n // br) for c in range(n))
                line_firsts = cells(u[0] for u in geo.columns)
            box_firsts = cells(u[0] for u in geo.boxes)
            seg_spread = spread(k * seg_step for k in range(seg_len))
            seg = src.fold("s", [(seg_step, seg_len)], 4, twice=False)[0]
            src.emit(f"{seg} &= {K(seg_firsts)}", 4)
            # Claiming: a line whose digit lies in one segment only.
            o, t = src.fold(seg, [(line_step, line_count)], 4)
            sel = src.var("sel")
            src.emit(
                f"{sel} = {seg} & (({o} & ~{t} & {K(line_firsts)}) * {K(spread(k * line_step for k in range(line_count)))})",
                4,
            )
            box_spread = spread(r * row_bits + c * n for r in range(br) for c in range(bc))
            parts = []
            for v in range(across_count):
                # segments at position v across their box: back to the box's first cell
                if along_rows:
                    at_v = cells(r * n + j * bc for r in range(n) if r % br == v for j in range(n // bc))
                else:
                    at_v = cells(i * br * n + c for i in range(n // br) for c in range(n) if c % bc == v)
                back = f" >> {v * across_step}" if v else ""
                parts.append(f"((({sel} & {K(at_v)}){back}) * {K(box_spread)})")
            op = "=" if first else "|="
            first = False
            src.emit(f"e {op} ({' | '.join(parts)}) & ~({sel} * {K(seg_spread)})", 4)
            # Pointing: a box whose digit lies in one segment only.
            o, t = src.fold(seg, [(across_step, across_count)], 4)
            sel = src.var("sel")
            src.emit(
                f"{sel} = {seg} & (({o} & ~{t} & {K(box_firsts)}) * {K(spread(k * across_step for k in range(across_count)))})",
                4,
            )
            line_spread = spread(k * (n if along_rows else row_bits) for k in range(n))
            parts = []
            for j in range(line_count):
                if along_rows:
                    at_j = cells(r * n + j * bc for r in range(n))
                else:
                    at_j = cells(j * br * n + c for c in range(n))
                back = f" >> {j * line_step}" if j else ""
                parts.append(f"((({sel} & {K(at_j)}){back}) * {K(line_spread)})")
            src.emit(f"e |= ({' | '.join(parts)}) & ~({sel} * {K(seg_spread)})", 4)
        src.emit("if not e & s: return s, done", 4)
        src.emit("s &= ~e", 4)
        src.emit("continue", 4)
        # Place the new singles: remove what each excludes.
        src.emit("done |= new", 2)
        src.emit("e = 0", 2)
        src.emit("while new:", 2)
        src.emit("low = new & -new", 3)
        src.emit("e |= ELIM[low.bit_length()]", 3)
        src.emit("new ^= low", 3)
        src.emit("s &= ~e", 2)
        self.propagate = src.build("propagate", {"ELIM": self.elim})

    def _compile_pick(self, geo, kinds, spread) -> None:
        n = self.n
        peer_ones = {}
        for c in range(geo.ncells):
            peer_ones[c * n] = spread(p * n for p in geo.peers[c])
        src = _Compiler("def pick(s):")
        K = src.const
        # Each open cell loses its lowest candidate (no cell is empty, so the
        # subtraction borrows inside each cell only); what is left of a cell
        # with two candidates is one bit.
        src.emit(f"r1 = s & (s - {K(self.cell_ones)})")
        o, t = src.fold("r1", [(1, n)], 1)
        src.emit(f"open_ = {o} & {K(self.cell_ones)}")
        src.emit("if not open_: return 0")
        src.emit(f"pairs = open_ & ~{t}")
        src.emit("if pairs:")
        src.emit("best = -1", 2)
        src.emit("while pairs:", 2)
        src.emit("low = pairs & -pairs", 3)
        src.emit("pairs ^= low", 3)
        src.emit("i = low.bit_length() - 1", 3)
        src.emit("degree = (open_ & PEERS[i]).bit_count()", 3)
        src.emit("if degree > best: best = degree; at = i", 3)
        src.emit(f"m = (s >> at) & {K(self.digit_mask)}", 2)
        src.emit("return (m & -m) << at", 2)
        for offsets, _windows, firsts in kinds:
            t, h = src.fold3("s", offsets, 1)
            src.emit(f"two = {t} & ~{h} & {K(firsts)}")
            src.emit("if two:")
            src.emit(f"m = s & ((two & -two) * {K(spread(offsets))})", 2)
            src.emit("return m & -m", 2)
        src.emit("return fewest(s)")
        self.pick = src.build("pick", {"PEERS": peer_ones, "fewest": self._fewest})

    def _fewest(self, s: int) -> int:
        """The lowest candidate of the first cell with the fewest (>1) candidates."""
        n, mask = self.n, self.digit_mask
        best_count, best_at = n + 1, 0
        x = s
        for c in range(self.ncells):
            m = x & mask
            x >>= n
            if m & (m - 1):
                count = m.bit_count()
                if count < best_count:
                    best_count, best_at = count, c * n
        m = (s >> best_at) & mask
        return (m & -m) << best_at

    def state(self, cells) -> Tuple[int, int]:
        """(state, done) of a puzzle's givens, before propagation."""
        n, elim = self.n, self.elim
        removed = placed = 0
        for c, d in enumerate(cells):
            if d:
                i = c * n + d
                removed |= elim[i]
                placed |= 1 << (i - 1)
        return self.full & ~removed, placed

    def digits(self, s: int) -> tuple:
        """The digit of every cell of a solved state, row-major."""
        n, mask = self.n, self.digit_mask
        out = []
        for _ in range(self.ncells):
            out.append((s & mask).bit_length())
            s >>= n
        return tuple(out)


_ENGINES: Dict[Tuple[int, int], _Engine] = {}


def _engine(grid: Grid) -> _Engine:
    key = (grid.box_rows, grid.box_cols)
    engine = _ENGINES.get(key)
    if engine is None:
        engine = _ENGINES[key] = _Engine(*key)
    return engine


class _Bound:
    """The smallest solution found so far, and the lexicographic cut it implies."""

    __slots__ = ("best", "below", "at_most", "improved")

    def __init__(self) -> None:
        self.best = 0  # a solved state, 0 while none is known
        self.below = 0  # each cell's candidates smaller than its digit in best
        self.at_most = 0  # below | best
        self.improved = 0  # solutions found

    def offer(self, s: int, cell_ones: int) -> None:
        self.best = s
        self.below = s - cell_ones  # one bit per cell: no borrow between cells
        self.at_most = s | self.below
        self.improved += 1

    def cut(self, s: int, done: int, engine: _Engine):
        """``s`` restricted to solutions smaller than ``best``: (s, done) or (0, 0).

        Cells before the first cell that can go below ``best`` must equal it
        (else the solution would be larger), and that cell cannot exceed it.
        """
        n, propagate = engine.n, engine.propagate
        best = self.best
        while True:
            lower = s & self.below
            if not lower:
                return 0, 0  # every cell is at least best's digit
            first = ((lower & -lower).bit_length() - 1) // n
            missing = best & ~s
            if missing and ((missing & -missing).bit_length() - 1) // n < first:
                return 0, 0  # an earlier cell already exceeds best
            shift = first * n
            before = (1 << shift) - 1
            cut = ((s & ~before) | (best & before)) & ~((engine.digit_mask << shift) & ~self.at_most)
            if cut == s:
                return s, done
            s, done = propagate(cut, done)
            if not s:
                return 0, 0


def _bound_search(engine: _Engine, root: int, done: int, bound: _Bound, check: Check):
    """Branch and bound over the picked candidates; yields after every node."""
    propagate, pick, elim, ones = engine.propagate, engine.pick, engine.elim, engine.cell_ones
    stack = [(root, done)]
    while stack:
        yield
        check()
        s, done = stack.pop()
        s, done = propagate(s, done)
        if not s:
            continue
        if bound.best:
            s, done = bound.cut(s, done, engine)
            if not s:
                continue
        b = pick(s)
        if not b:
            bound.offer(s, ones)
            continue
        stack.append((s & ~b, done))
        stack.append((s & ~elim[b.bit_length()], done))


def _row_major_search(engine: _Engine, root: int, done: int, bound: _Bound, check: Check, found: list):
    """Row-major, lowest digit first, under the bound; stops at its first solution."""
    propagate, elim, ones, n, mask = engine.propagate, engine.elim, engine.cell_ones, engine.n, engine.digit_mask
    stack = [(root, done)]
    while stack:
        yield
        check()
        s, done = stack.pop()
        s, done = propagate(s, done)
        if not s:
            continue
        s, done = bound.cut(s, done, engine)
        if not s:
            continue
        rest = s & (s - ones)  # nonzero in the open cells
        if not rest:
            found.append(s)
            return
        at = ((rest & -rest).bit_length() - 1) // n * n
        m = (s >> at) & mask
        b = (m & -m) << at
        stack.append((s & ~b, done))
        stack.append((s & ~elim[b.bit_length()], done))


def _search_first(engine: _Engine, root: int, done: int, check: Check) -> int:
    """The row-major-first solution below a propagated root, or 0 (see the module doc)."""
    bound = _Bound()
    found: list = []
    bounded = _bound_search(engine, root, done, bound, check)
    row_major = None
    turn = 0
    for _ in bounded:
        if not bound.best:
            continue
        if row_major is None:
            row_major = _row_major_search(engine, root, done, bound, check, found)
        turn += 1
        if turn >= (4 if bound.improved < 3 else 1):
            turn = 0
            if next(row_major, True):
                return found[0] if found else bound.best
    return bound.best


def _symbol(grid: Grid, digit: int) -> str:
    symbol = getattr(grid, "symbol", None)
    return symbol(digit) if symbol is not None else SYMBOLS[digit]


def _explain(grid: Grid) -> str:
    """Words for the contradiction the givens lead to by naked and hidden singles.

    Run only when propagation fails at the root: a plain cell-by-cell version
    of the singles that remembers where it failed: "no digit fits r1c5",
    "no place for 4 in row 3", "r2c2 is the only place for both 1 and 5 in
    box 1". "no solution exists" when singles alone find nothing (the
    contradiction came from locked candidates).
    """
    geo = grid.geometry
    size, full = geo.size, geo.all_digits
    cand = [full] * geo.ncells
    stack = []
    for i, d in enumerate(grid.cells):
        if d:
            cand[i] = 1 << (d - 1)
            stack.append(i)

    def digits(mask: int) -> str:
        return " and ".join(_symbol(grid, d) for d in range(1, size + 1) if mask >> (d - 1) & 1)

    while True:
        while stack:
            c = stack.pop()
            b = cand[c]
            for p in geo.peers[c]:
                m = cand[p]
                if m & b:
                    m ^= b
                    if not m:
                        return f"no digit fits {cell_name(p, size)}"
                    cand[p] = m
                    if not m & (m - 1):
                        stack.append(p)
        for u, unit in enumerate(geo.units):
            once = twice = 0
            for c in unit:
                m = cand[c]
                twice |= once & m
                once |= m
            if once != full:
                missing = full & ~once
                return f"no place for {digits(missing & -missing)} in {geo.unit_names[u]}"
            uniq = once & ~twice
            for c in unit:
                m = cand[c]
                h = m & uniq
                if h and h != m:
                    if h & (h - 1):
                        return f"{cell_name(c, size)} is the only place for both {digits(h)} in {geo.unit_names[u]}"
                    cand[c] = h
                    stack.append(c)
        if not stack:
            return "no solution exists"


def solve(grid: Grid, *, check: Optional[Check] = None) -> Grid:
    """The first solution of ``grid`` in row-major order.

    "First" is what the naive backtracker (try 1..size in each empty cell, left
    to right, top to bottom) prints first: the smallest solution read as one
    number. For a puzzle with one solution that is simply the solution. The
    search order does not change the answer (module docstring).

    Args:
      grid: the puzzle; ``grid.cells`` holds ``size * size`` ints row-major,
        0 for an empty cell. Any box shape of :data:`grid.BOX_SHAPES`.
      check: called at every search node (well under a millisecond apart
        for 9x9); whatever it raises ends the search and propagates to the
        caller.

    Returns:
      Grid: the solution, same shape (and symbols), no zeros.

    Raises:
      InvalidPuzzleError: two givens share a unit (checked first, O(cells)):
        "duplicate 8 in box 1 at r1c1 and r3c3".
      UnsolvableError: no solution exists; the detail names the cell or unit
        where the givens alone lead to a contradiction ("no digit fits r1c5",
        "no place for 4 in row 3"), or "no solution exists" when it takes a
        search to prove.
    """
    if check is None:
        check = _no_check
    check_givens(grid)
    engine = _engine(grid)
    s, done = engine.propagate(*engine.state(grid.cells))
    if not s:
        raise UnsolvableError(_explain(grid))
    solution = _search_first(engine, s, done, check)
    if not solution:
        raise UnsolvableError("no solution exists")
    return dataclasses.replace(grid, cells=engine.digits(solution))


def count_solutions(grid: Grid, limit: int = 2, *, check: Optional[Check] = None) -> int:
    """How many solutions ``grid`` has, counting no further than ``limit``.

    The search of :func:`solve` without a bound, so ``limit=2`` costs at most
    one search beyond the first solution.

    Args:
      grid: the puzzle (``size * size`` ints row-major, 0 = empty).
      limit: stop once this many are found (``limit=2`` answers "is it unique?").
      check: called at every search node; what it raises propagates.

    Returns:
      int: 0 (none, or givens that break a rule), 1, ... up to ``limit``.
    """
    if check is None:
        check = _no_check
    if limit < 1:
        return 0
    engine = _engine(grid)
    propagate, pick, elim = engine.propagate, engine.pick, engine.elim
    stack = [engine.state(grid.cells)]
    total = 0
    while stack:
        check()
        s, done = stack.pop()
        s, done = propagate(s, done)
        if not s:
            continue
        b = pick(s)
        if not b:
            total += 1
            if total >= limit:
                break
            continue
        stack.append((s & ~b, done))
        stack.append((s & ~elim[b.bit_length()], done))
    return total
