"""Every Kraken fish at one state (``HINT all``, 9x9): HoDoKu's Kraken Fish Type 1 (``0371``) and Type 2 (``0372``).

HoDoKu 2.2's definitions (``solver/FishSolver.java``: its header, ``getAllKrakenFishes``, ``searchCoverUnits``,
``searchForKraken``; ``solver/TablingSolver.java``: ``initForKrakenSearch``, ``checkKrakenTypeOne``,
``checkKrakenTypeTwo``; read for the rules, no code copied):

- The fish tried: basic and Franken fish of one digit (HoDoKu's "find all steps" defaults,
  ``Options.ALL_STEPS_*KRAKEN*``: type basic+Franken, sizes 2-4, at most 2 fins, no endo fins). Base units are
  rows and boxes with cover units columns and boxes, or columns and boxes with rows and boxes; no two base
  units share a candidate; a cover unit holds a base candidate. *Fins*: the base candidates no cover unit
  holds, 1 or 2 of them.
- Only a finned fish that eliminates nothing as a finned fish is a Kraken candidate: no *potential
  elimination* (a cover candidate that is no base candidate, or one in two cover units) sees every fin.
- **Type 1** (``0371``): the fish is true or one of its fins is. A potential elimination that every fin
  (digit d there) leads to by a chain (its forcing-chain table holds "d not at the target") goes.
- **Type 2** (``0372``): without fins, each cover unit holds a true base candidate. For a cover unit that
  holds a candidate other than its base candidates (the cannibalistic ones left out), a candidate that
  every base candidate of the unit and every fin lead to as "not set", in a cell none of them is in, goes.
- The chains: HoDoKu's forcing-chain tables for chains (direct links and group nodes, no ALS nodes,
  expanded): :class:`~sudoku_server.sudoku.hodoku_tabling._Tables` and its closure, the tables the path's
  forcing chains and nice loops use.

One line per (type, elimination). HoDoKu keeps, per digit searched and elimination, a later step only
where its fish is of a simpler kind or its chains shorter (``addKrakenStep``); this lists each type that
finds an elimination, whichever fish found it first (the words name the smallest fish, in search order).
Kraken fish are off in HoDoKu's default solver and "find all steps" (``Options.DEFAULT_SOLVER_STEPS``,
index 8450, both flags false): the HoDoKu rating (:mod:`sudoku_server.sudoku.hodoku_rating`) does not use them.
"""

from __future__ import annotations

from sudoku_server.sudoku.hodoku_grid import HGrid
from sudoku_server.sudoku.hodoku_tabling import M81, OFF, _Tables
from sudoku_server.sudoku.techniques.board import Context, cells_of, popcount
from sudoku_server.sudoku.techniques.every_basic import CELL_UNITS, PEERS, UNIT_NAMES, UNITS
from sudoku_server.sudoku.techniques.every_fish import BASIC, FRANKEN, MUTANT, SIZES, kind_of
from sudoku_server.sudoku.techniques.step import Step, and_list, rc

__all__ = ["MAX_FINS", "MAX_SIZE", "TYPE_1", "TYPE_2", "kraken_fish"]

#: The technique names (HoDoKu's codes ``0371`` and ``0372``).
TYPE_1 = "Kraken fish type 1"
TYPE_2 = "Kraken fish type 2"
#: HoDoKu's "find all steps" limits (``ALL_STEPS_MAX_KRAKEN_FISH_SIZE``, ``ALL_STEPS_MAX_KRAKEN_FINS``).
MAX_SIZE = 4
MAX_FINS = 2

ROWS, COLS, BOXES = 0x1FF, 0x1FF << 9, 0x1FF << 18
#: (base units, cover units): HoDoKu's Franken search, lines first (``initForCandidat``).
_ORIENTATIONS = ((ROWS | BOXES, COLS | BOXES), (COLS | BOXES, ROWS | BOXES))
_OFFS = ((1 << (9 * 81)) - 1) << OFF
_KIND = {BASIC: "", FRANKEN: "Franken ", MUTANT: "mutant "}
_UNITS_OF = [sum(1 << u for u in CELL_UNITS[c]) for c in range(81)]
#: A cell bitboard times this: the same cells in each digit's 81 bits.
_EVERY_DIGIT = sum(1 << (81 * i) for i in range(9))


class _Chains:
    """What each premise "digit d at cell c" leads to as "not set", per digit (HoDoKu's ``onTable`` offSets)."""

    def __init__(self, x: Context) -> None:
        g = HGrid.from_givens(x.values)
        g.delete([(c, d) for c in range(81) if not x.values[c] for d in range(1, 10) if not x.cand[c] >> (d - 1) & 1])
        self.reach = _Tables(g, False).closure()

    def offs(self, c: int, d: int) -> int:
        """The "not set" entries of on(c, d)'s table: bit ``(e - 1) * 81 + cell`` for "e not at cell"."""
        return (self.reach.get((d - 1) * 81 + c, 0) & _OFFS) >> OFF


def _digit(offs: int, e: int) -> int:
    return (offs >> ((e - 1) * 81)) & M81


class _Search:
    """Every Kraken fish of one digit and size: HoDoKu's base and cover walk with 1-2 fins."""

    def __init__(self, x: Context, chains: _Chains, d: int, k: int, found: _Found) -> None:
        self.x, self.chains, self.d, self.k, self.found = x, chains, d, k, found
        self.pos = x.pos[d - 1]
        self.layer = M81 << ((d - 1) * 81)
        self.cand = [UNITS[u] & self.pos for u in range(27)]
        self.fin_offs: dict[int, int] = {}

    def offs(self, c: int) -> int:
        o = self.fin_offs.get(c)
        if o is None:
            o = self.fin_offs[c] = self.chains.offs(c, self.d)
        return o

    def run(self) -> None:
        for base_units, cover_units in _ORIENTATIONS:
            pool = [u for u in range(27) if self.cand[u] and base_units >> u & 1]
            self.cover_all = sum(1 << u for u in range(27) if self.cand[u] and cover_units >> u & 1)
            self._bases(pool, 0, 0, 0)

    def _bases(self, pool: list[int], start: int, used: int, base: int) -> None:
        if popcount(used) == self.k:
            self.x.check()
            self.used, self.base = used, base
            self._covers(0, 0, 0, 0, 0, -1)
            return
        for i in range(start, len(pool) - (self.k - popcount(used)) + 1):
            u = pool[i]
            if base & self.cand[u]:
                continue  # an endo fin: none allowed
            if (
                self._need(base | self.cand[u], self.cover_all & ~(used | 1 << u), self.k + MAX_FINS)
                > self.k + MAX_FINS
            ):
                continue  # more candidates than k cover units and the fins can take: so with any more units
            self._bases(pool, i + 1, used | 1 << u, base | self.cand[u])

    @staticmethod
    def _need(cells: int, allowed: int, limit: int) -> int:
        """A lower bound of the cover units and fins ``cells`` need: cells no two of which one ``allowed``
        unit holds each need their own (or are fins), counted greedily up to ``limit`` + 1."""
        taken = need = 0
        while cells:  # the set cells, lowest first (cells_of inlined: this is the search's hot loop)
            low = cells & -cells
            cells ^= low
            r = low.bit_length() - 1
            if not _UNITS_OF[r] & allowed & taken:
                taken |= _UNITS_OF[r] & allowed
                need += 1
                if need > limit:
                    break
        return need

    def _covers(self, chosen: int, barred: int, covered: int, twice: int, fins: int, implied: int) -> None:
        """Cover sets of ``chosen`` units (``barred`` ones left out); ``implied``: what every fin leads to."""
        rest = self.base & ~covered & ~fins
        allowed = self.cover_all & ~self.used & ~barred & ~chosen
        if not rest:
            if not fins:
                return  # every base candidate covered: no fin, no Kraken fish
            self._extras(chosen, allowed, 0, covered, twice, fins, implied)
            return
        if popcount(chosen) == self.k:  # the rest are fins
            if popcount(fins | rest) <= MAX_FINS:
                for c in cells_of(rest):
                    implied &= self.offs(c)
                if implied & self.found.open(self.layer):
                    self._leaf(chosen, covered, twice, fins | rest, implied)
            return
        budget = self.k - popcount(chosen) + MAX_FINS - popcount(fins)
        if popcount(rest) > budget and self._need(rest, allowed, budget) > budget:
            return
        c = (rest & -rest).bit_length() - 1
        bar = barred
        for u in CELL_UNITS[c]:
            if allowed >> u & 1:
                cu = self.cand[u]
                self._covers(chosen | 1 << u, bar, covered | cu, twice | (covered & cu), fins, implied)
                bar |= 1 << u
        if popcount(fins) < MAX_FINS:
            now = implied & self.offs(c)
            if now & self.found.open(self.layer):  # a new Kraken fish needs a new target every fin leads to
                self._covers(chosen, barred | _UNITS_OF[c], covered, twice, fins | 1 << c, now)

    def _extras(self, chosen: int, allowed: int, start: int, covered: int, twice: int, fins: int, implied: int) -> None:
        if popcount(chosen) == self.k:
            if fins:
                self._leaf(chosen, covered, twice, fins, implied)
            return
        for u in range(start, 27):
            cu = self.cand[u]
            if allowed >> u & 1 and cu & self.base:
                self._extras(chosen | 1 << u, allowed, u + 1, covered | cu, twice | (covered & cu), fins, implied)

    def _leaf(self, chosen: int, covered: int, twice: int, fins: int, implied: int) -> None:
        see = -1
        for f in cells_of(fins):
            see &= PEERS[f]
        potential = (covered & ~self.base) | twice
        if potential & see:
            return  # a finned fish that eliminates: no Kraken fish
        d, found = self.d, self.found
        # type 1: a potential elimination every fin leads to
        for t in cells_of(potential & _digit(implied & ~found.done[TYPE_1], d)):
            self._add(TYPE_1, t, d, chosen, fins, "")
        # type 2: per cover unit, its base candidates (no cannibalistic one) and the fins lead to one candidate
        implied &= found.cands & ~found.done[TYPE_2]
        if not implied:
            return
        for u in cells_of(chosen):
            cu = self.cand[u]
            starts = cu & self.base & ~twice
            if starts == cu:
                continue  # the unit holds base candidates only: a plain forcing chain
            common = implied
            for c in cells_of(starts):
                common &= self.offs(c)
                if not common:
                    break
            if not common:
                continue
            for i in cells_of(common & ~((starts | fins) * _EVERY_DIGIT)):
                self._add(TYPE_2, i % 81, i // 81 + 1, chosen, fins, UNIT_NAMES[u])

    def _add(self, name: str, t: int, e: int, cover: int, fins: int, unit: str) -> None:
        x, d = self.x, self.d
        words = (
            f" on {d}: {_KIND[kind_of(self.used, cover)]}{SIZES[self.k]} base {_units(self.used)}; cover {_units(cover)}; "
            f"fins {and_list([rc(c, 9) for c in cells_of(fins)])}; "
        )
        if name == TYPE_1:
            words += f"the fish or a fin holds {d}, and each fin leads by a chain to {rc(t, 9)}<>{d}"
        else:
            words += f"one of {unit}'s base candidates or a fin holds {d}, and each leads by a chain to {rc(t, 9)}<>{e}"
        self.found.add(name, t, e, x.step(name, 0.0, placements=(), eliminations=((t, e),), explanation=words))


class _Found:
    """The steps found so far, and per type the candidates they remove (bit ``(e - 1) * 81 + cell``)."""

    def __init__(self, x: Context) -> None:
        self.steps: list[Step] = []
        self.cands = sum(p << (81 * i) for i, p in enumerate(x.pos[:9]))
        self.done = {TYPE_1: 0, TYPE_2: 0}

    def add(self, name: str, t: int, e: int, step: Step) -> None:
        bit = 1 << ((e - 1) * 81 + t)
        if not self.done[name] & bit:
            self.done[name] |= bit
            self.steps.append(step)

    def open(self, layer: int) -> int:
        """The candidates a new step may still remove: type 2's, or type 1's on the fish's digit (``layer``)."""
        return self.cands & ~(self.done[TYPE_2] & (self.done[TYPE_1] | ~layer))


def _units(units: int) -> str:
    return and_list([UNIT_NAMES[u] for u in range(27) if units >> u & 1])


def kraken_fish(x: Context) -> list[Step]:
    """Every Kraken fish elimination at the state, type 1 first, then by size, digit and search order.

    Returns one :class:`Step` per (type, eliminated candidate); ``[]`` when no finned fish is a candidate.
    """
    if not any(popcount(p) > 1 for p in x.pos[:9]):
        return []
    chains = _Chains(x)
    found = _Found(x)
    for k in range(2, MAX_SIZE + 1):
        for d in range(1, 10):
            _Search(x, chains, d, k, found).run()
    return sorted(found.steps, key=lambda s: s.technique != TYPE_1)
