"""Line-level steps of the rules drawn as lines: a whole thermometer, renban or whispers line at once.

The pair steps of :mod:`.variant_rules` look at one pair of a line at a time;
the steps here look at the line. A rule module declares its line step as
:attr:`~...rules.Rule.line` (its name, rating, words and ``kind``); the
finders go by kind (:data:`LINE_FINDERS`), each over the rule's relations,
one per line, so no module here names a rule:

* ``rising``, **thermometer bounds** (:func:`find_rising_bounds`, 2.3): the digits
  rise from the bulb, so the cell at place ``i`` (from 0) of a thermometer
  holds more than the least digit the cells below it can rise through and
  less than the most digit the cells above it can fall through: the least
  chain from the bulb (each cell's least candidate above the one before) and
  the most chain from the tip. On an empty 9x9 grid a 4-cell thermometer's
  cells hold 1-6, 2-7, 3-8 and 4-9. Exact for a line (a candidate kept has
  a rising placement of the whole line through it); on a line the pair step
  reaches the same candidates one pair at a time, so this step, tried first,
  says in one step what the pair steps say in many.
* ``run``, **renban run** (:func:`find_run`, 2.5): a line of L cells holds L
  distinct consecutive digits, so some run ``{s, ..., s + L - 1}`` is
  matched one to one to its cells, each cell a candidate (or its placed
  digit); a candidate no such matching of any run uses goes. Stronger than
  the pair step (digits within L - 1 of each other): on a 3-cell line whose
  cells are {1,3}, {1,3} and {1,2,3}, 2 must be in the third cell. And a
  digit every fitting run holds is on the line (a 5-cell line on 9x9 always
  holds 5): it leaves the cells off the line that see every cell of the line
  that can hold it (2.6, as pointing).
* ``apart``, **whispers neighbours** (:func:`find_apart_neighbours`, 2.4): a
  cell's two neighbours on a whispers line (or on two lines crossing at the
  cell) that see each other hold different digits, so a digit of the cell
  goes when, beside it, both neighbours could hold only the same one digit
  (on 9x9: a 4 needs a 9 on each side, a 6 a 1).

Palindromes have no line step beyond their pair step: mirrored cells are
equal (the pair step copies their candidates), and the line adds no
difference between cells the units do not already give.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from sudoku_server.sudoku.constraints import Relation
from sudoku_server.sudoku.rules import rule_of
from sudoku_server.sudoku.techniques.board import Context, cells_of
from sudoku_server.sudoku.techniques.step import Step, and_list, rcs

__all__ = ["LINE_FINDERS", "find_apart_neighbours", "find_rising_bounds", "find_run"]


def _lines(x: Context, word: str) -> list[tuple[Relation, str]]:
    """The relations of rule ``word`` (one per line) and their names, in the geometry's order."""
    geo = x.t.geometry
    return [
        (constraint, geo.constraint_names[k] or word)
        for k, constraint in enumerate(geo.constraints)
        if isinstance(constraint, Relation) and geo.constraint_rules[k] == word
    ]


def _masks(x: Context, cells: Sequence[int]) -> list[int]:
    """Per cell its placed digit's bit, else its candidates."""
    return [1 << (x.values[c] - 1) if x.values[c] else x.cand[c] for c in cells]


def _gone(x: Context, cells: Sequence[int], keep: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """The candidates ``(cell, digit)`` of the empty ``cells`` outside ``keep``, sorted."""
    return tuple(sorted((c, d + 1) for c, k in zip(cells, keep) if not x.values[c] for d in cells_of(x.cand[c] & ~k)))


# -- thermometer bounds ---------------------------------------------------------------


def rising_keep(masks: Sequence[int], n: int) -> tuple[list[int], list[tuple[int, int]]] | None:
    """Per cell of a thermometer (bulb first) the digits a rising placement of the whole line gives it, and
    its bounds ``(above, below)``: it holds more than ``above`` (0 at the bulb) and less than ``below``
    (``n + 1`` at the tip).

    ``masks``: per cell its digits (bit ``d - 1``). None when no rising
    placement exists. ``rising_keep([0x1FF] * 4, 9)[0]`` is 1-6, 2-7, 3-8, 4-9.
    """
    k = len(masks)
    low = [0] * (k + 1)  # low[i + 1]: the least digit cell i can hold above the cells before it (low[0] = 0)
    for i, m in enumerate(masks):
        above = m >> low[i] << low[i]
        if not above:
            return None
        low[i + 1] = (above & -above).bit_length()
    high = [0] * (k + 1)  # high[i]: the most digit cell i can hold below the cells after it (high[k] = n + 1)
    high[k] = n + 1
    for i in range(k - 1, -1, -1):
        below = masks[i] & ((1 << (high[i + 1] - 1)) - 1)
        if not below:
            return None
        high[i] = below.bit_length()
    # cell i keeps the digits d with low[i] < d < high[i + 1]
    keep = [m & ~((1 << low[i]) - 1) & ((1 << (high[i + 1] - 1)) - 1) for i, m in enumerate(masks)]
    return keep, [(low[i], high[i + 1]) for i in range(k)]


def find_rising_bounds(x: Context, word: str = "") -> Step | None:
    """The first thermometer (the geometry's order) whose bounds rule out a candidate (module docstring)."""
    words = rule_of(word).line if word else None
    if words is None:
        return None
    for relation, name in _lines(x, word):
        cells = (relation.pairs[0][0], *(b for _a, b in relation.pairs))
        found = rising_keep(_masks(x, cells), x.n)
        if found is None:
            continue
        keep, bounds = found
        gone = _gone(x, cells, keep)
        if not gone:
            continue
        hit = {c for c, _d in gone}
        ranges = []
        for c, (above, below) in zip(cells, bounds):
            if c in hit:
                said = [f"above {x.d(above - 1)}"] if above else []
                said += [f"below {x.d(below - 1)}"] if below <= x.n else []
                ranges.append(f"{rcs((c,), x.n)} is {' and '.join(said)}")
        return x.step(
            words.name,
            words.rating,
            eliminations=gone,
            cells=cells,
            digits=tuple(sorted({d for _c, d in gone})),
            explanation=f": {name}: {words.partners}, so {and_list(ranges)}",
            focus=name,
        )
    return None


# -- renban runs ----------------------------------------------------------------------


def _matching(masks: Sequence[int]) -> list[int] | None:
    """A digit per cell (0-based), all different, each in its cell's mask; None when there is none."""
    owner: dict[int, int] = {}

    def place(i: int, seen: int) -> int:
        for d in cells_of(masks[i] & ~seen):
            seen |= 1 << d
            if d not in owner:
                owner[d] = i
                return seen
            got = place(owner[d], seen)
            if got >= 0:
                owner[d] = i
                return got
            seen = -got - 1
        return -seen - 1

    for i in range(len(masks)):
        if place(i, 0) < 0:
            return None
    digit = [0] * len(masks)
    for d, i in owner.items():
        digit[i] = d
    return digit


def run_keep(masks: Sequence[int], n: int) -> tuple[list[int], list[int]]:
    """Per cell of a renban line the digits some run's one-to-one placement gives it, and the runs that fit.

    ``masks``: per cell its digits (bit ``d - 1``); a run is a mask of
    ``len(masks)`` consecutive digits. ``run_keep([0b101, 0b101, 0b111], 9)``
    is ``([0b101, 0b101, 0b010], [0b111])``.
    """
    k = len(masks)
    keep = [0] * k
    runs = []
    for start in range(n - k + 1):
        run = ((1 << k) - 1) << start
        inside = [m & run for m in masks]
        found = _matching(inside)
        if found is None:
            continue
        runs.append(run)
        for i, d in enumerate(found):
            keep[i] |= 1 << d
        for i in range(k):
            for d in cells_of(inside[i] & ~keep[i]):
                fixed = [m & ~(1 << d) for m in inside]
                fixed[i] = 1 << d
                other = _matching(fixed)
                if other is not None:
                    for j, e in enumerate(other):
                        keep[j] |= 1 << e
    return keep, runs


def find_run(x: Context, word: str = "") -> Step | None:
    """The first renban line (the geometry's order) whose runs rule out a candidate, else the first whose runs
    all hold a digit that only some of its cells can take (module docstring)."""
    words = rule_of(word).line if word else None
    if words is None:
        return None
    found = []
    for relation, name in _lines(x, word):
        cells = tuple(dict.fromkeys(c for pair in relation.pairs for c in pair))
        keep, runs = run_keep(_masks(x, cells), x.n)
        if not runs:
            continue
        found.append((cells, name, keep, runs))
        gone = _gone(x, cells, keep)
        if gone:
            return x.step(
                words.name,
                words.rating,
                eliminations=gone,
                cells=tuple(sorted(cells)),
                digits=tuple(sorted({d for _c, d in gone})),
                explanation=f": {name}: {words.partners}: {' or '.join(x.digit_set(r) for r in runs)}",
                focus=name,
            )
    for cells, name, keep, runs in found:
        step = _run_digit(x, words.name, cells, name, keep, runs)
        if step is not None:
            return step
    return None


def _run_digit(
    x: Context, technique: str, cells: Sequence[int], name: str, keep: Sequence[int], runs: Sequence[int]
) -> Step | None:
    """A digit every run of the line holds is on the line: it leaves the cells off the line that see every cell
    of the line that can hold it (2.6, as pointing). One cell that can is a single already (the runs' matching
    leaves it that digit alone)."""
    every = runs[0]
    for run in runs[1:]:
        every &= run
    values, cand, peer_mask = x.values, x.cand, x.t.peer_mask
    line = 0
    for c in cells:
        line |= 1 << c
    for d in cells_of(every):
        if any(values[c] == d + 1 for c in cells):
            continue
        holders = [c for c, k in zip(cells, keep) if k >> d & 1]
        if not holders:
            continue
        said = f": {name}: every run ({' or '.join(x.digit_set(r) for r in runs)}) holds {x.d(d)}"
        seen = -1
        for c in holders:
            seen &= peer_mask[c]
        seen &= ~line
        gone = tuple((c, d + 1) for c in cells_of(seen) if cand[c] >> d & 1)
        if gone:
            return x.step(
                technique,
                2.6,
                eliminations=gone,
                cells=tuple(sorted(cells)),
                digits=(d + 1,),
                explanation=f"{said}, so one of {rcs(holders, x.n)} holds it",
                focus=name,
            )
    return None


# -- whispers neighbours --------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _converse(table: tuple[int, ...]) -> tuple[int, ...]:
    """``table`` read from its second cell's side (:attr:`~...constraints.Relation.converse`), cached per table."""
    n = len(table)
    return tuple(sum(1 << a for a in range(n) if table[a] >> b & 1) for b in range(n))


def find_apart_neighbours(x: Context, word: str = "") -> Step | None:
    """The first cell (the lines' order) with two neighbours on whispers lines (one line, or two lines that cross
    there) that see each other and, beside one of its digits, could both hold only the same one digit (module
    docstring)."""
    words = rule_of(word).line if word else None
    if words is None:
        return None
    peer_mask, values = x.t.peer_mask, x.values
    near: dict[int, list[tuple[int, tuple[int, ...], str]]] = {}  # cell -> (neighbour, its line's table, name)
    for relation, name in _lines(x, word):
        table = relation.table
        converse = _converse(table)  # b's side: what a may hold beside b's digit (whispers: the table itself)
        for a, b in relation.pairs:
            near.setdefault(a, []).append((b, table, name))
            near.setdefault(b, []).append((a, converse, name))
    for c, sides in near.items():
        if values[c] or len(sides) < 2:
            continue
        for i, (a, table_a, name_a) in enumerate(sides):
            for b, table_b, name_b in sides[i + 1 :]:
                if a != b and peer_mask[a] >> b & 1:
                    step = _apart_pair(
                        x, words.name, words.rating, words.partners, c, (a, table_a, name_a), (b, table_b, name_b)
                    )
                    if step is not None:
                        return step
    return None


def _apart_pair(
    x: Context,
    technique: str,
    se: float,
    partners: str,
    c: int,
    side_a: tuple[int, tuple[int, ...], str],
    side_b: tuple[int, tuple[int, ...], str],
) -> Step | None:
    """The digits of ``c`` beside which its neighbours ``a`` and ``b`` (peers) could both hold only one digit."""
    (a, table_a, name_a), (b, table_b, name_b) = side_a, side_b
    mask_a, mask_b = _masks(x, (a, b))
    out = []  # (digit, the one digit)
    for d in cells_of(x.cand[c]):
        ma, mb = mask_a & table_a[d], mask_b & table_b[d]
        both = ma | mb
        if ma and mb and not both & (both - 1):
            out.append((d, cells_of(both)[0]))
    if not out:
        return None
    name = name_a if name_a == name_b else f"{name_a} and {name_b}"
    why = ", ".join(f"beside {x.d(d)} both could hold only {x.d(one)}" for d, one in out)
    return x.step(
        technique,
        se,
        eliminations=tuple((c, d + 1) for d, _one in out),
        cells=(c, a, b),
        digits=tuple(d + 1 for d, _one in out),
        explanation=f": {name}: {rcs((a,), x.n)} and {rcs((b,), x.n)} beside {rcs((c,), x.n)} {partners}: {why}",
        focus=name,
    )


#: line kind (:attr:`~...rules.StepWords.kind` of a rule's ``line``) -> its finder, called with the rule's word
#: (the registry rows are made in :mod:`.variant_rules`): ``rising`` digits along the line (a thermometer),
#: a ``run`` of consecutive digits (renban), neighbours ``apart`` by a table (whispers).
LINE_FINDERS: dict[str, Callable[..., Step | None]] = {
    "rising": find_rising_bounds,
    "run": find_run,
    "apart": find_apart_neighbours,
}
