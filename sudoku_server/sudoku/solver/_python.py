"""The pure-Python solver core: propagation and search. Pure and synchronous; imports no I/O.

The fallback when the native core (``_csolver``) is not built, and the oracle
it is tested against; :mod:`.solver` chooses between them and states the
contract both keep.

**State.** A search node is one int, a bitboard: bit ``cell * (n + 1) + d - 1``
is set while digit ``d`` is still a candidate of ``cell`` (``n`` digits per
unit, cells row-major). The last bit of each cell is a spare, always 0, that
catches carries: ``(s + full) & spare`` marks the cells that are not empty in
two steps. Copying a state is free (ints are immutable) and every rule is
applied to all cells, units and digits at once with shifts and masks, so the
interpreter runs a few hundred int operations per search node, not thousands
of list operations. The units and peers come from :mod:`.grid` (Norvig's
vocabulary, "Solving Every Sudoku Puzzle"); the code of one box shape is
generated once from them (:class:`_Compiler`) with its masks as constants.

**Propagation** (:meth:`_Engine.propagate`) removes only candidates that no
solution can use, until nothing changes:

* naked singles: a cell with one candidate removes it from its peers;
* hidden singles: a digit with one place left in a unit goes there (rows
  first; columns and boxes only while nothing new is found);
* locked candidates (pointing and claiming, along rows and columns): a digit
  whose places in a box all lie in one row (column) leaves the rest of that
  row (column), and one whose places in a row (column) all lie in one box
  leaves the rest of that box. Measured on magictour top1465: 3.2x fewer
  search nodes, about 2.5x less time.

A unit rule counts, for every unit and digit at once, "at least one" and
"at least two" places with shifted ORs, doubling the window (4 steps for 9
cells). Any contradiction (an empty cell, a digit with no place in a unit)
ends the propagation.

**Search** branches two ways on one candidate: assign it, or remove it. The
candidate (:meth:`_Engine.pick`) is the lower digit of the cell with two
candidates that has the most open peers (measured: 1.8x to 2.7x fewer nodes
than the first such cell on the hard sets); when no cell has two
candidates, a digit with two places in a unit (the constraint-level choice
of exact cover solvers, Knuth's "Dancing Links"; without it Norvig's
``hard1`` takes 94,000 nodes to a first solution instead of 31); else the
first cell with the fewest candidates.

**The answer** is the *first solution in row-major order*: the one the naive
backtracker (1..n in each empty cell, left to right, top to bottom) prints
first, i.e. the smallest solution read as one number. Propagation cannot
change it (it removes only impossible candidates); the search order must
not either, so :func:`solve` runs two complete searches, interleaved:

* branch and bound: the search above; each solution found becomes the
  bound, and a node is cut unless it may hold a smaller solution. The bound
  also propagates (:meth:`_Bound.cut`): cells before the first cell that can
  still go below the bound must equal it, and that cell must not exceed it.
  On a puzzle with one solution this costs less than a uniqueness proof.
* row-major: branch on the first open cell, lowest digit first, under the
  same bound; the first solution it reaches is the answer. It starts once a
  bound exists and gets one node per eight of the first; one per one once a
  second solution is known (puzzles with many solutions, such as the empty
  grid or ``hard1``, where choosing cells by constraint wanders).

Whichever finishes first answers: a puzzle costs about the better of the two
(proofs for hard puzzles with one solution, plain order for open ones).

**Stopping.** Every search node calls ``check()`` (16x16 and larger grids
also every propagation round); the server passes
``trio.from_thread.check_cancelled`` so that a timed-out solve really stops.

**Limits.** Pure Python: about 25 us per node for 9x9 here. The empty 25x25
grid is not solved in reasonable time (the row-major search meets a dead end
it cannot refute quickly); the server's timeout stops it through ``check``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from sudoku_server.errors import UnsolvableError
from sudoku_server.sudoku.grid import SYMBOLS, Grid, cell_name, check_givens, geometry

__all__ = ["Check", "count_solutions", "solve", "solve_any"]

#: The stop hook. Every solver core calls it at least once per millisecond of
#: search (here: at every search node, and every propagation round from 16x16
#: up), with the interpreter lock held. It may block (the server pauses a solve
#: that has used its time slice while other connections wait) or raise (the
#: exception ends the search and propagates out of :func:`solve`,
#: :func:`solve_any` and :func:`count_solutions` unchanged).
Check = Callable[[], None]


def _no_check() -> None:
    return None


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

    def fold(self, x: str, windows, indent: int, twice: bool = True) -> tuple[str, str | None]:
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

    def fold3(self, x: str, offsets, indent: int) -> tuple[str, str]:
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
        exec("\n".join(self.lines), namespace)
        return namespace[name]


#: Largest grid whose ``elim`` masks are all computed ahead: 16x16 takes
#: 1.5 MB, 25x25 would take 33 MB (15,625 masks of 16,250 bits).
_ELIM_TABLE_UP_TO = 16


class _Eliminations:
    """``elim`` of :class:`_Engine` computed on demand (for 25x25 grids)."""

    __slots__ = ("own", "peer_ones", "width")

    def __init__(self, width: int, own: list, peer_ones: list) -> None:
        self.width, self.own, self.peer_ones = width, own, peer_ones

    def __getitem__(self, index: int) -> int:
        cell, digit = divmod(index - 1, self.width)
        return (self.own[cell] ^ (1 << (index - 1))) | (self.peer_ones[cell] << digit)


class _Engine:
    """The compiled rules of one box shape.

    Attributes:
      n, ncells: digits per unit and cells of the grid.
      width: bits per cell, ``n + 1`` (the last is the spare bit, always 0).
      full: the state with every candidate.
      cell_ones, spare: the lowest bit, the spare bit of every cell.
      digit_mask: ``(1 << n) - 1``.
      elim: ``elim[i + 1]``, for candidate bit ``i`` (digit d at cell c), the
        candidates that placing it removes: its cell's other digits and d in
        the peers. Indexed by ``bit.bit_length()``.
      propagate(s, done, check) -> (s, done): the state after propagation,
        or ``(0, 0)`` on a contradiction. ``done`` holds the singles whose
        consequences are already removed (a speed-up; 0 is always valid).
        For 16x16 and larger, ``check()`` is also called every round (a
        25x25 node can take tens of milliseconds).
      pick(s) -> int: the candidate bit to branch on, 0 when ``s`` is solved.
    """

    def __init__(self, box_rows: int, box_cols: int) -> None:
        geo = geometry(box_rows, box_cols)
        self.geo = geo
        n = self.n = geo.size
        w = self.width = n + 1  # bits per cell: n digits and a spare bit, always 0
        self.ncells = geo.ncells
        self.digit_mask = (1 << n) - 1
        row_bits = n * w  # bits per row of cells

        def cells(seq) -> int:
            """Every digit's bit in the given cells."""
            mask = 0
            for c in seq:
                mask |= self.digit_mask << (c * w)
            return mask

        def spread(offsets) -> int:
            return sum(1 << off for off in offsets)

        self.cell_ones = spread(c * w for c in range(geo.ncells))
        self.spare = self.cell_ones << n
        self.full = self.cell_ones * self.digit_mask
        own = [self.digit_mask << (c * w) for c in range(geo.ncells)]
        peer_ones = [spread(p * w for p in geo.peers[c]) for c in range(geo.ncells)]
        if n <= _ELIM_TABLE_UP_TO:
            elim = [0] * (geo.ncells * w + 1)
            for c in range(geo.ncells):
                for d in range(n):
                    elim[c * w + d + 1] = (own[c] ^ (1 << (c * w + d))) | (peer_ones[c] << d)
            self.elim = elim
        else:
            self.elim = _Eliminations(w, own, peer_ones)

        # Each unit kind: its window (as cell offsets and as fold steps), the
        # bits of its first cells, and the multiplier spreading a first-cell
        # bit over the unit.
        box_offsets = [r * row_bits + c * w for r in range(box_rows) for c in range(box_cols)]
        kinds = [
            ([j * w for j in range(n)], [(w, n)], cells(u[0] for u in geo.rows)),
            ([r * row_bits for r in range(n)], [(row_bits, n)], cells(u[0] for u in geo.columns)),
            (box_offsets, [(w, box_cols), (row_bits, box_rows)], cells(u[0] for u in geo.boxes)),
        ]
        self._compile_propagate(geo, kinds, cells, spread, row_bits)
        self._compile_pick(geo, kinds, spread)

    def _compile_propagate(self, geo, kinds, cells, spread, row_bits) -> None:
        n, w = self.n, self.width
        br, bc = geo.box_rows, geo.box_cols
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
        # Hidden singles; a digit with no place in a unit is a contradiction.
        # (rows first; columns and boxes only while nothing new is found)
        several = []  # per unit kind: the unit's digit has two places or more
        for k, (offsets, windows, firsts) in enumerate(kinds):
            o, t = src.fold("s", windows, 3 + k)
            several.append(t)
            src.emit(f"if {o} & {K(firsts)} != {K(firsts)}: return 0, 0", 3 + k)
            src.emit(f"new = s & ((({o} ^ {t}) & {K(firsts)}) * {K(spread(offsets))})", 3 + k)
            src.emit("new ^= new & done", 3 + k)
            src.emit("if not new:", 3 + k)
        lc = 3 + len(kinds)  # the indent of the locked-candidates code
        # Locked candidates, along rows then along columns. A segment is the
        # part of a row (column) inside one box; ``seg`` marks, at the first
        # cell of each segment, the digits with a place in it.
        src.emit("e = 0", lc)
        rows_several, columns_several, boxes_several = several
        for along_rows in (True, False):
            if along_rows:
                seg_len, seg_step = bc, w  # cells per segment, bits between them
                line_step, line_count = bc * w, n // bc  # next segment of the line
                across_step, across_count = row_bits, br  # next segment of the box
                seg_firsts = cells(r * n + j * bc for r in range(n) for j in range(n // bc))
                line_firsts = cells(u[0] for u in geo.rows)
                line_several = rows_several
            else:
                seg_len, seg_step = br, row_bits
                line_step, line_count = br * row_bits, n // br
                across_step, across_count = w, bc
                seg_firsts = cells(i * br * n + c for i in range(n // br) for c in range(n))
                line_firsts = cells(u[0] for u in geo.columns)
                line_several = columns_several
            box_firsts = cells(u[0] for u in geo.boxes)
            seg_spread = spread(k * seg_step for k in range(seg_len))
            seg = src.fold("s", [(seg_step, seg_len)], lc, twice=False)[0]
            src.emit(f"{seg} &= {K(seg_firsts)}", lc)
            # Claiming: a line whose digit lies in one segment only.
            o, t = src.fold(seg, [(line_step, line_count)], lc)
            sel = src.var("sel")
            # (only digits with two places or more in the line: a placed digit
            # is locked too, but has nothing left to remove)
            src.emit(
                f"{sel} = {seg} & ((({o} ^ {t}) & {line_several} & {K(line_firsts)})"
                f" * {K(spread(k * line_step for k in range(line_count)))})",
                lc,
            )
            src.emit(f"if {sel}:", lc)
            box_spread = spread(r * row_bits + c * w for r in range(br) for c in range(bc))
            parts = []
            for v in range(across_count):
                # segments at position v across their box: back to the box's first cell
                if along_rows:
                    at_v = cells(r * n + j * bc for r in range(n) if r % br == v for j in range(n // bc))
                else:
                    at_v = cells(i * br * n + c for i in range(n // br) for c in range(n) if c % bc == v)
                back = f" >> {v * across_step}" if v else ""
                parts.append(f"((({sel} & {K(at_v)}){back}) * {K(box_spread)})")
            src.emit(f"x = {' | '.join(parts)}", lc + 1)
            src.emit(f"e |= x ^ (x & ({sel} * {K(seg_spread)}))", lc + 1)
            # Pointing: a box whose digit lies in one segment only.
            o, t = src.fold(seg, [(across_step, across_count)], lc)
            sel = src.var("sel")
            src.emit(
                f"{sel} = {seg} & ((({o} ^ {t}) & {boxes_several} & {K(box_firsts)})"
                f" * {K(spread(k * across_step for k in range(across_count)))})",
                lc,
            )
            src.emit(f"if {sel}:", lc)
            line_spread = spread(k * (w if along_rows else row_bits) for k in range(n))
            parts = []
            for j in range(line_count):
                if along_rows:
                    at_j = cells(r * n + j * bc for r in range(n))
                else:
                    at_j = cells(j * br * n + c for c in range(n))
                back = f" >> {j * line_step}" if j else ""
                parts.append(f"((({sel} & {K(at_j)}){back}) * {K(line_spread)})")
            src.emit(f"x = {' | '.join(parts)}", lc + 1)
            src.emit(f"e |= x ^ (x & ({sel} * {K(seg_spread)}))", lc + 1)
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
        self.propagate = src.build("propagate", {"ELIM": self.elim})

    def _compile_pick(self, geo, kinds, spread) -> None:
        n, w = self.n, self.width
        peer_spares = {}
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
        for offsets, _windows, firsts in kinds:
            t, h = src.fold3("s", offsets, 1)
            src.emit(f"two = ({t} ^ {h}) & {K(firsts)}")
            src.emit("if two:")
            src.emit(f"m = s & ((two & -two) * {K(spread(offsets))})", 2)
            src.emit("return m & -m", 2)
        src.emit("return fewest(s)")
        self.pick = src.build("pick", {"PEERS": peer_spares, "fewest": self._fewest})

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

    def state(self, cells) -> tuple[int, int]:
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
        return self.full ^ (self.full & removed), placed

    def digits(self, s: int) -> tuple:
        """The digit of every cell of a solved state, row-major."""
        w, mask = self.width, self.digit_mask
        out = []
        for _ in range(self.ncells):
            out.append((s & mask).bit_length())
            s >>= w
        return tuple(out)


_ENGINES: dict[tuple[int, int], _Engine] = {}

#: Nodes of the branch and bound per node of the row-major search while at
#: most one solution is known. Measured on top1465 and forum hardest 1106:
#: 4, 8, 16 and "never" cost within 3% of each other in propagations (the
#: row-major search sometimes finishes first); 8 keeps it as a safety net.
_TURNS = 8


def _engine(grid: Grid) -> _Engine:
    key = (grid.box_rows, grid.box_cols)
    engine = _ENGINES.get(key)
    if engine is None:
        engine = _ENGINES[key] = _Engine(*key)
    return engine


class _Bound:
    """The smallest solution found so far, and the lexicographic cut it implies."""

    __slots__ = ("above", "below", "best", "improved")

    def __init__(self) -> None:
        self.best = 0  # a solved state, 0 while none is known
        self.below = 0  # each cell's candidates smaller than its digit in best
        self.above = 0  # each cell's candidates larger than its digit in best
        self.improved = 0  # solutions found

    def offer(self, s: int, engine: _Engine) -> None:
        """Make the solved state ``s`` the bound (the cut guarantees it is smaller)."""
        self.best = s
        self.below = s - engine.cell_ones  # one bit per cell: no borrow between cells
        self.above = engine.full ^ (s | self.below)
        self.improved += 1

    def cut(self, s: int, done: int, engine: _Engine, check: Check):
        """``s`` restricted to solutions smaller than ``best``: (s, done) or (0, 0).

        Cells before the first cell that can go below ``best`` must equal it
        (else the solution would be larger), and that cell cannot exceed it.
        """
        w, propagate = engine.width, engine.propagate
        best = self.best
        while True:
            lower = s & self.below
            if not lower:
                return 0, 0  # every cell is at least best's digit
            first = ((lower & -lower).bit_length() - 1) // w
            missing = best ^ (best & s)
            if missing and ((missing & -missing).bit_length() - 1) // w < first:
                return 0, 0  # an earlier cell already exceeds best
            shift = first * w
            above = (engine.digit_mask << shift) & self.above
            cut = (s >> shift << shift) | (best & ((1 << shift) - 1))
            cut ^= cut & above
            if cut == s:
                return s, done
            s, done = propagate(cut, done, check)
            if not s:
                return 0, 0


def _bound_search(engine: _Engine, root: int, done: int, bound: _Bound, check: Check):
    """Branch and bound over the picked candidates; yields after every node."""
    propagate, pick, elim = engine.propagate, engine.pick, engine.elim
    stack = [(root, done)]
    while stack:
        yield
        check()
        s, done = stack.pop()
        s, done = propagate(s, done, check)
        if not s:
            continue
        if bound.best:
            s, done = bound.cut(s, done, engine, check)
            if not s:
                continue
        b = pick(s)
        if not b:
            bound.offer(s, engine)
            continue
        stack.append((s ^ b, done))
        stack.append((s ^ (s & elim[b.bit_length()]), done))


def _row_major_search(engine: _Engine, root: int, done: int, bound: _Bound, check: Check, found: list):
    """Row-major, lowest digit first, under the bound; stops at its first solution."""
    propagate, elim, ones, w, mask = engine.propagate, engine.elim, engine.cell_ones, engine.width, engine.digit_mask
    stack = [(root, done)]
    while stack:
        yield
        check()
        s, done = stack.pop()
        s, done = propagate(s, done, check)
        if not s:
            continue
        s, done = bound.cut(s, done, engine, check)
        if not s:
            continue
        rest = s & (s - ones)  # nonzero in the open cells
        if not rest:
            found.append(s)
            return
        at = ((rest & -rest).bit_length() - 1) // w * w
        m = (s >> at) & mask
        b = (m & -m) << at
        stack.append((s ^ b, done))
        stack.append((s ^ (s & elim[b.bit_length()]), done))


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
        if turn >= (_TURNS if bound.improved < 2 else 1):
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
                        # c and p both hold digit b: name the one that is not a given.
                        return f"no digit fits {cell_name(c if grid.cells[p] else p, size)}"
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


def _propagated(grid: Grid, check: Check) -> tuple:
    """The engine for ``grid``'s shape and the state after propagating its givens: (engine, state, done).

    Raises:
      InvalidPuzzleError: two givens share a unit.
      UnsolvableError: propagation alone reaches a contradiction (the detail
        from :func:`_explain`).
    """
    engine = _engine(grid)
    s, givens = engine.state(grid.cells)
    if s & givens != givens:
        # a given removed by another: two share a unit; find_duplicate names them
        check_givens(grid)
    check()
    s, done = engine.propagate(s, givens, check)
    if not s:
        raise UnsolvableError(_explain(grid))
    return engine, s, done


def solve(grid: Grid, *, check: Check | None = None) -> Grid:
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
      InvalidPuzzleError: two givens share a unit (checked first, O(cells),
        with the words of :func:`grid.find_duplicate`):
        "duplicate 8 in box 1 at r1c1 and r3c3".
      UnsolvableError: no solution exists; the detail names the cell or unit
        where the givens alone lead to a contradiction ("no digit fits r1c5",
        "no place for 4 in row 3"), or "no solution exists" when it takes a
        search to prove.
    """
    if check is None:
        check = _no_check
    engine, s, done = _propagated(grid, check)
    # solved by propagation alone: the only solution, no search
    solution = _search_first(engine, s, done, check) if engine.pick(s) else s
    if not solution:
        raise UnsolvableError("no solution exists")
    return dataclasses.replace(grid, cells=engine.digits(solution))


def solve_any(grid: Grid, *, check: Check | None = None) -> Grid:
    """Some solution of ``grid``: the first one the search finds (``SOLVE any``).

    For a puzzle with one solution this is :func:`solve`'s answer; with
    several it is whichever the branch choices reach first, which may differ
    between solver cores and versions (the one non-canonical answer of the
    protocol). Much sooner than :func:`solve` for open 16x16 and 25x25 grids.

    Args, Raises: as :func:`solve` (``InvalidPuzzleError``, ``UnsolvableError``).

    Returns:
      Grid: a solution, same shape (and symbols), no zeros.
    """
    if check is None:
        check = _no_check
    engine, s, done = _propagated(grid, check)
    if engine.pick(s):
        bound = _Bound()
        for _ in _bound_search(engine, s, done, bound, check):
            if bound.best:
                break
        s = bound.best
        if not s:
            raise UnsolvableError("no solution exists")
    return dataclasses.replace(grid, cells=engine.digits(s))


def count_solutions(grid: Grid, limit: int = 2, *, check: Check | None = None) -> int:
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
        s, done = propagate(s, done, check)
        if not s:
            continue
        b = pick(s)
        if not b:
            total += 1
            if total >= limit:
                break
            continue
        stack.append((s ^ b, done))
        stack.append((s ^ (s & elim[b.bit_length()]), done))
    return total
