"""Every Franken and mutant fish at one state, finned ones and their Siamese pairs (``HINT all``, 9x9).

HoDoKu's definitions (``FishSolver.java`` of HoDoKu 2.2, read for the facts; the Ultimate Fish Guide):

- A fish of size k on one digit: k *base* units and k *cover* units (rows, columns, boxes), no unit both,
  each holding the digit, each cover unit holding a base candidate.
- *Base candidates*: the digit's cells in the base units. *Endo fins*: base candidates in two base units
  (at most 2). *Fins*: the base candidates no cover unit holds, and the endo fins (at most 5).
- Eliminations: the cover units' candidates that are no base candidate, and the candidates in two cover
  units (*cannibalism*); when there are fins, only those that see every fin.
- The kind, from the kinds of unit used: base rows and cover columns (or the transpose) is a basic fish
  (:func:`.every_basic.fish` lists those); base rows, or rows and boxes, with cover columns, or columns and
  boxes (or the transpose) is a *Franken* fish; anything else is *mutant*. *Finned* when it has fins.
- *Siamese*: two fish of the same kind on the same digit and base units whose first elimination differs,
  taken together (named after the first).

The search (:func:`search`) runs in C (``techniques/_fish.c``) when built, else in Python
(:func:`_search_python`, the same walk; the test holds them equal). Sizes: 2-4 with HoDoKu's limits of
fins (:data:`MAX_FINS`, :data:`MAX_ENDO_FINS`); Squirmbag, Whale and Leviathan (5-7) with tighter ones
(:data:`LARGE_MAX_FINS`, :data:`LARGE_MAX_ENDO_FINS`) and no Siamese pairs (:func:`large_fish`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from itertools import combinations
from typing import Any, NamedTuple

from sudoku_server.sudoku.check import no_check
from sudoku_server.sudoku.techniques.board import Context, cells_of, popcount
from sudoku_server.sudoku.techniques.every_basic import CELL_UNITS, PEERS, UNIT_NAMES, UNITS
from sudoku_server.sudoku.techniques.step import Step, and_list, rc

__all__ = [
    "BASIC",
    "FINNED",
    "FRANKEN",
    "LARGE_MAX_ENDO_FINS",
    "LARGE_MAX_FINS",
    "MUTANT",
    "NATIVE",
    "SIZES",
    "Fish",
    "franken_mutant_fish",
    "kind_of",
    "large_fish",
    "search",
]

_native: Any
try:
    from sudoku_server.sudoku.techniques import _fish

    _native = _fish
except ImportError:  # no C compiler at install time: the Python search below
    _native = None
if os.environ.get("SUDOKU_SERVER_PURE_PYTHON", "") not in ("", "0"):
    _native = None

#: Whether the search runs in C (``techniques/_fish.c``).
NATIVE: bool = _native is not None

#: HoDoKu's fish names by size.
SIZES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish", 5: "Squirmbag", 6: "Whale", 7: "Leviathan"}
#: HoDoKu's ``getAllFishes`` limits for "find all steps" (``Options.ALL_STEPS_MAX_FINS`` / ``_MAX_ENDO_FINS``).
MAX_FINS = 5
MAX_ENDO_FINS = 2
#: Our limits for the large fish (sizes 5-7, which HoDoKu's "all steps" leaves out: ``ALL_STEPS_MAX_FISH_SIZE``
#: is 4): at most 2 fins and no endo fins, no Siamese pairs. HoDoKu's 5 and 2 cost up to 0.6 s a state here;
#: these keep HINT all within its time (``benchmarks/RESULTS.md``) and find reglib-1.4's Squirmbag and Whale.
LARGE_MAX_FINS = 2
LARGE_MAX_ENDO_FINS = 0

ALL = (1 << 81) - 1
LOW = (1 << 64) - 1
ROWS, COLS, BOXES = 0x1FF, 0x1FF << 9, 0x1FF << 18


#: Kinds of fish (or-ed in a search's ``kinds``): HoDoKu's basic, Franken and mutant fish.
BASIC, FRANKEN, MUTANT = 1, 2, 4
KIND_NAMES = {BASIC: "basic", FRANKEN: "Franken", MUTANT: "mutant"}


#: Or-ed to a fish's kind when it has fins.
FINNED = 8
#: Of the fish of one base set with the same kind and eliminations, the first only (up to this many kept).
SEEN = 256


class Fish(NamedTuple):
    """One fish: unit masks (bit u: unit u, 0-8 rows, 9-17 columns, 18-26 boxes) and cell bitboards."""

    base: int
    cover: int
    kind: int  #: :data:`BASIC`, :data:`FRANKEN` or :data:`MUTANT`, plus :data:`FINNED` when it has fins
    first: int  #: HoDoKu's first elimination: the lowest cell that is no base candidate, else the lowest
    fins: int  #: every fin, endo fins included
    endo: int
    elims: int


def search(
    pos: int,
    base_units: int,
    cover_units: int,
    k: int,
    kinds: int = BASIC | FRANKEN | MUTANT,
    max_fins: int = MAX_FINS,
    max_endo: int = MAX_ENDO_FINS,
    check: Callable[[], None] = no_check,
    placed: int = 0,
    distinct: bool = False,
) -> list[Fish]:
    """Every fish of size ``k`` of one digit whose places are ``pos`` (bitboard) that has eliminations; of
    those of one base set with the same kind and eliminations, the first only (``distinct``: of all those
    with the same kind and eliminations).

    Args:
      pos: the digit's candidate cells (bit c: cell c = row * 9 + column).
      base_units, cover_units: the units (27-bit masks) base and cover units are drawn from.
      k: the fish's size (1-9).
      kinds: which kinds to list (:data:`BASIC`, :data:`FRANKEN`, :data:`MUTANT`, or-ed).
      max_fins, max_endo: at most that many fins (endo fins included) and endo fins.
      check: called now and then by the Python search (the C search takes milliseconds).
      placed: the cells holding the digit (bitboard): the C search skips what its templates rule out (no
        elimination can come of it; the Python walk does not, and finds the same).
    """
    if _native is None:
        found = _search_python(pos, base_units, cover_units, k, kinds, max_fins, max_endo, check)
        if distinct:
            firsts: dict[tuple[int, int], Fish] = {}
            for f in found:
                firsts.setdefault((f.kind, f.elims), f)
            found = list(firsts.values())
        return found
    raw = _native.search(
        pos & LOW, pos >> 64, placed & LOW, placed >> 64, base_units, cover_units, k, max_fins, max_endo, kinds
    )
    if distinct:  # before the tuples are made: the large fish come by the hundred thousand
        first: dict[tuple[int, int, int], Any] = {}
        for t in raw:
            first.setdefault((t[2], t[8], t[9]), t)
        raw = list(first.values())
    return [
        Fish(b, c, kind, first, f0 | f1 << 64, e0 | e1 << 64, x0 | x1 << 64)
        for b, c, kind, first, f0, f1, e0, e1, x0, x1 in raw
    ]


def _buddies(cells: int) -> int:
    m = ALL
    for c in cells_of(cells):
        m &= PEERS[c]
    return m


def _search_python(
    pos: int,
    base_units: int,
    cover_units: int,
    k: int,
    kinds: int,
    max_fins: int,
    max_endo: int,
    check: Callable[[], None] = no_check,
) -> list[Fish]:
    """:func:`search` in Python: the walk of ``_fish.c`` (see its header)."""
    walk = _Walk(pos, base_units, cover_units, k, kinds, max_fins, max_endo, check)
    walk.bases(0, 0, 0, 0, ALL)
    return walk.out


class _Walk:
    """One search's state; the base set (``used`` units, its candidates ``base``, ``endo`` fins) as it stands."""

    def __init__(
        self,
        pos: int,
        base_units: int,
        cover_units: int,
        k: int,
        kinds: int,
        max_fins: int,
        max_endo: int,
        check: Callable[[], None],
    ) -> None:
        self.pos, self.k, self.kinds, self.max_fins, self.max_endo, self.check = (
            pos,
            k,
            kinds,
            max_fins,
            max_endo,
            check,
        )
        self.cand = [UNITS[u] & pos for u in range(27)]
        self.pool = [u for u in range(27) if self.cand[u] and base_units >> u & 1]
        self.cover_all = sum(1 << u for u in range(27) if self.cand[u] and cover_units >> u & 1)
        self.cover_ok = self.used = self.base = self.endo = 0
        self.out: list[Fish] = []

    def bases(self, start: int, used: int, base: int, endo: int, seeing: int) -> None:
        """Base sets from ``pool[start:]`` added to ``used``; ``seeing``: the cells seeing every endo fin."""
        k, cand = self.k, self.cand
        if popcount(used) == k:
            self.check()
            self.used, self.base, self.endo, self.cover_ok = used, base, endo, self.cover_all & ~used
            self.seen: list[tuple[int, int]] = []
            self.covers(0, 0, 0, 0, 0, seeing)
            return
        for i in range(start, len(self.pool) - (k - popcount(used)) + 1):
            u = self.pool[i]
            new = base & cand[u]
            e = endo | new
            if popcount(e) > min(self.max_endo, self.max_fins):
                continue
            see = seeing & _buddies(new) if new else seeing
            if new and not see & self.pos:
                continue
            self.bases(i + 1, used | 1 << u, base | cand[u], e, see)

    def covers(self, chosen: int, barred: int, covered: int, twice: int, fins: int, seeing: int) -> None:
        """Cover sets over ``chosen`` units (``barred`` ones left out), the base candidates ``fins`` uncovered."""
        rest = self.base & ~self.endo & ~covered & ~fins
        if not rest:
            self.extras(chosen, self.cover_ok & ~barred & ~chosen, 0, covered, twice, fins, seeing)
            return
        nfins = popcount(fins | self.endo)
        if popcount(chosen) == self.k:  # the rest are fins
            if nfins + popcount(rest) <= self.max_fins:
                see = seeing & _buddies(rest)
                if see & self.pos:
                    self.leaf(chosen, covered, twice, fins | rest, see)
            return
        c = (rest & -rest).bit_length() - 1
        allowed = self.cover_ok & ~barred & ~chosen
        bar = barred
        for u in CELL_UNITS[c]:
            if allowed >> u & 1:
                cu = self.cand[u]
                self.covers(chosen | 1 << u, bar, covered | cu, twice | (covered & cu), fins, seeing)
                bar |= 1 << u
        if nfins + 1 <= self.max_fins:
            see = seeing & PEERS[c]
            if see & self.pos:
                units = sum(1 << u for u in CELL_UNITS[c])
                self.covers(chosen, barred | units, covered, twice, fins | 1 << c, see)

    def extras(self, chosen: int, allowed: int, start: int, covered: int, twice: int, fins: int, seeing: int) -> None:
        """The cover units left to choose once every base candidate is covered or a fin: any ``allowed`` ones."""
        if popcount(chosen) == self.k:
            self.leaf(chosen, covered, twice, fins, seeing)
            return
        for u in range(start, 27):
            cu = self.cand[u]
            if allowed >> u & 1 and cu & self.base:
                self.extras(chosen | 1 << u, allowed, u + 1, covered | cu, twice | (covered & cu), fins, seeing)

    def leaf(self, chosen: int, covered: int, twice: int, fins: int, seeing: int) -> None:
        kind = kind_of(self.used, chosen)
        if not kind & self.kinds:
            return
        elims = (covered & ~self.base) | twice
        fins |= self.endo
        if fins:
            elims &= seeing
            kind |= FINNED
        if not elims or (kind, elims) in self.seen:
            return
        if len(self.seen) < SEEN:
            self.seen.append((kind, elims))
        outside = elims & ~self.base or elims
        first = (outside & -outside).bit_length() - 1
        self.out.append(Fish(self.used, chosen, kind, first, fins, self.endo, elims))


def _kinds(units: int) -> int:
    return (1 if units & ROWS else 0) | (2 if units & COLS else 0) | (4 if units & BOXES else 0)


def kind_of(base: int, cover: int) -> int:
    """HoDoKu's kind of a fish from its base and cover units (``FishSolver.createFishStep``): :data:`BASIC`
    for base rows and cover columns (or the transpose); :data:`FRANKEN` for base rows, or rows and boxes,
    and cover columns, or columns and boxes (or the transpose); else :data:`MUTANT`."""
    b, c = _kinds(base), _kinds(cover)
    if (b, c) in ((1, 2), (2, 1)):
        return BASIC
    if (b in (1, 5) and c in (2, 6)) or (b in (2, 6) and c in (1, 5)):
        return FRANKEN
    return MUTANT


def _units_text(units: int) -> str:
    return and_list([UNIT_NAMES[u] for u in range(27) if units >> u & 1])


#: (base units, cover units) of the searches: Franken fish only (rows or columns with boxes), or every kind.
_FRANKEN = ((ROWS | BOXES, COLS | BOXES), (COLS | BOXES, ROWS | BOXES))
_EVERY = ((ROWS | COLS | BOXES, ROWS | COLS | BOXES),)


def franken_mutant_fish(
    x: Context,
    k: int,
    mutant: bool = True,
    max_fins: int = MAX_FINS,
    max_endo: int = MAX_ENDO_FINS,
    siamese: bool = True,
) -> list[Step]:
    """Every Franken fish of size ``k`` and, when ``mutant``, every mutant one; finned forms, Siamese pairs.

    One step per distinct (technique, eliminations): the first fish found that gives them. Technique names:
    ``Franken Swordfish``, ``finned Franken Swordfish``, ``Siamese finned Franken Swordfish``, ``mutant
    Jellyfish``, ``finned mutant Jellyfish``, ... (basic fish: :func:`.every_basic.fish`). At most
    ``max_fins`` fins (endo fins included) and ``max_endo`` endo fins; Siamese pairs when ``siamese``.
    """
    out: list[Step] = []
    kinds = FRANKEN | (MUTANT if mutant else 0)
    names = {
        kind | fins: ("finned " if fins else "") + f"{KIND_NAMES[kind]} {SIZES[k]}"
        for kind in KIND_NAMES
        for fins in (0, FINNED)
    }
    for d0 in range(9):
        x.check()
        placed = sum(1 << c for c in range(81) if x.values[c] == d0 + 1)
        found: dict[tuple[str, int], Fish] = {}
        #: (base units, name) -> first elimination -> eliminations -> the first fish giving them
        groups: dict[tuple[int, str], dict[int, dict[int, Fish]]] = {}
        for base_units, cover_units in _EVERY if mutant else _FRANKEN:
            for f in search(
                x.pos[d0], base_units, cover_units, k, kinds, max_fins, max_endo, x.check, placed, not siamese
            ):
                name = names[f.kind]
                found.setdefault((name, f.elims), f)
                if siamese:
                    by_first = groups.setdefault((f.base, name), {})
                    by_first.setdefault(f.first, {}).setdefault(f.elims, f)
        for (name, elims), f in found.items():
            out.append(_step(x, name, d0, f, elims))
        pairs: set[tuple[str, int]] = set()
        for (_, name), by_first in groups.items():
            for one, two in combinations(by_first.values(), 2):
                for f1 in one.values():
                    for f2 in two.values():
                        if (name, f1.elims | f2.elims) not in pairs:
                            pairs.add((name, f1.elims | f2.elims))
                            both = f1._replace(
                                cover=f1.cover | f2.cover, fins=f1.fins | f2.fins, elims=f1.elims | f2.elims
                            )
                            out.append(_step(x, "Siamese " + name, d0, both, both.elims))
    return out


def large_fish(x: Context, k: int) -> list[Step]:
    """Every Franken and mutant fish of size ``k`` (5 Squirmbag, 6 Whale, 7 Leviathan) with at most
    :data:`LARGE_MAX_FINS` fins and :data:`LARGE_MAX_ENDO_FINS` endo fins, no Siamese pairs
    (:func:`franken_mutant_fish`)."""
    return franken_mutant_fish(x, k, max_fins=LARGE_MAX_FINS, max_endo=LARGE_MAX_ENDO_FINS, siamese=False)


def _step(x: Context, name: str, d0: int, f: Fish, elims: int) -> Step:
    words = f" on {d0 + 1}: base {_units_text(f.base)}; cover {_units_text(f.cover)}"
    fins = f.fins & ~f.endo
    if fins:
        words += f"; fins {and_list([rc(c, 9) for c in cells_of(fins)])}"
    if f.endo:
        words += f"; endo fins {and_list([rc(c, 9) for c in cells_of(f.endo)])}"
    pairs = tuple((c, d0 + 1) for c in cells_of(elims))
    return x.step(name, 0.0, placements=(), eliminations=pairs, explanation=words)
