"""Techniques of the constraints that are not units, by kind: relations, sums, the rule of 45.

The units and the all-different constraints (extra peers) need no technique
of their own: every finder reads the geometry's units and peers
(:mod:`.board`). The other kinds of the vocabulary (:mod:`...constraints`)
get named steps:

* a :class:`~...constraints.Relation` (:func:`find_relation`), one registry
  row per rule that declares step words (:data:`RULE_FINDERS`; the step is
  named after the rule, ``nonconsecutive``): a digit e leaves a cell's
  partner when no digit the cell can hold may stand beside e (a placed 5
  removes 4 and 6 from its non-consecutive neighbours; a cell {3,5} removes 4).
* a :class:`~...constraints.Between` (:func:`find_between`), under the step
  words of its rule (``sandwich``): the placements of its low and high digit
  on the line and the digit sets between them that make its total
  (:func:`~...constraints.between_allowed`); a candidate no placement uses goes.
* a distinct :class:`~...constraints.Sum` (a cage): **cage combinations**
  (:func:`find_cage_combinations`): the sets of distinct digits of a cage's
  size that make its sum, placed in its cells as their candidates allow; a
  candidate no such placement uses goes. **Rule of 45**
  (:func:`find_rule_of_45`): a row, column or box holds 1 + 2 + ... + n (45
  on 9x9), so a group of ``k`` consecutive rows or columns, or a box, sums
  to ``45 k``; the cages wholly inside it leave its other cells (the
  *innies*) a known sum, and the cages that cross its border have their
  cells outside it (the *outies*) summing to those cages' sums minus the
  innies'. A set of one to four innies or outies with a known sum is
  treated as a cage whose digits may repeat where the cells are not peers:
  a candidate no placement uses goes (one cell: its digit).
* the line steps of :mod:`.line_rules` (``thermometer bounds``, ``renban
  run``, ``whispers neighbours``), one registry row each beside its rule's
  row (:func:`_rule_rows`), the words declared by the rule (:attr:`~...rules.Rule.line`).

Ratings are this server's own scale (Sudoku Explainer has no variants),
chosen beside the singles they resemble: a relation step as its rule says
(2.3 for a naked single's neighbour rule), cage combinations 2.0 + 0.1 per
cell past two (at most 2.5), rule of 45 2.2 for one cell, + 0.2 per more cell.

:func:`rule_notes` says which technique families do not apply to a rule set
(:data:`UNIQUENESS`; each rule declares the families it switches off), and
:func:`applies` keeps them out of the path.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence

from sudoku_server.sudoku.constraints import Between, Relation, Sum, between_allowed
from sudoku_server.sudoku.geometry import Geometry
from sudoku_server.sudoku.rules import RULES, StepWords, rule_of
from sudoku_server.sudoku.rules.base import BLIND
from sudoku_server.sudoku.techniques.board import Context, cells_of
from sudoku_server.sudoku.techniques.line_rules import LINE_FINDERS
from sudoku_server.sudoku.techniques.step import Step, rcs

__all__ = [
    "BLIND",
    "RULE_FINDERS",
    "UNIQUENESS",
    "applies",
    "find_between",
    "find_cage_combinations",
    "find_relation",
    "find_rule_of_45",
    "find_sum",
    "rule_notes",
]

#: The technique families that assume the puzzle's solution is unique under rows, columns and boxes
#: only: a swap of digits that keeps every unit whole (unique rectangle) or the BUG argument.
UNIQUENESS = ("unique rectangle", "BUG")

#: Innie and outie sets of more cells than this are not searched (a placement per set is enumerated).
_MAX_45 = 4


def _off(geo: Geometry, family: str) -> list[str]:
    """The words of ``geo``'s rules that switch ``family`` off, in the geometry's order."""
    return [word for word in geo.rule_words if family in rule_of(word).off]


def applies(technique: str, geo: Geometry) -> bool:
    """Whether the path may use ``technique`` (a registry name) on ``geo``.

    A family of :data:`UNIQUENESS` applies unless a rule of ``geo``
    switches it off (:attr:`~...rules.Rule.off`: unique rectangles need every
    rule to survive swapping two digits in the rectangle's cells, true for
    any list of units but not for peer rules, relations or sums; BUG is
    argued for rows, columns and boxes only). A family of :data:`BLIND`
    applies unless a rule of ``geo`` switches it off. Everything else
    applies to every geometry (it reads the units and peers).
    """
    if technique == "nested forcing chains level 4":
        technique = "nested forcing chains"  # its level 4 (:mod:`.nested_level4`): the same family, as blind
    if technique in BLIND and not geo.classic:
        return not _off(geo, technique)
    if technique in UNIQUENESS and not geo.classic:
        if not geo.rule_words:  # a geometry built from units alone: only unique rectangles, and without constraints
            return technique == "unique rectangle" and not geo.constraints
        return not _off(geo, technique)
    return True


def rule_notes(geo: Geometry) -> tuple[str, ...]:
    """What the technique engine leaves out on ``geo``, in words (empty on a classic grid).

    ``("unique rectangle: off (antiknight: swapping two digits may break the rule)",
    "BUG: off (argued for rows, columns and boxes only)")``.
    """
    if geo.classic:
        return ()
    notes = []
    if geo.rule_words:
        rules, bug = _off(geo, "unique rectangle"), bool(_off(geo, "BUG"))
    else:  # a geometry built from units alone
        rules, bug = list(dict.fromkeys(word for word in geo.constraint_rules if word)), True
    if rules:
        notes.append(f"unique rectangle: off ({'+'.join(rules)}: swapping two digits may break the rule)")
    if bug:
        notes.append("BUG: off (argued for rows, columns and boxes only)")
    blind = _off(geo, BLIND[-1]) if geo.rule_words else []
    if blind:
        notes.append(f"{' and '.join(BLIND)}: off ({'+'.join(blind)}: they do not read its constraints)")
    return tuple(notes)


# -- relations ----------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _partners(geo: Geometry, word: str) -> tuple[tuple[tuple[tuple[int, tuple[int, ...]], ...], tuple[int, ...]], ...]:
    """Per relation of rule ``word``: its cells with their partners as ``a`` (through the table), and the table.

    Only the cells that have partners are listed, in row-major order. A
    symmetric table gives each cell its partners on both sides; otherwise
    the converse side comes as a second entry. Cached per geometry (a
    path asks for them at every step).
    """
    out = []
    for k, constraint in enumerate(geo.constraints):
        if not isinstance(constraint, Relation) or geo.constraint_rules[k] != word:
            continue
        forward: dict[int, list[int]] = {}
        backward: dict[int, list[int]] = {}
        for a, b in constraint.pairs:
            forward.setdefault(a, []).append(b)
            backward.setdefault(b, []).append(a)
        converse = constraint.converse

        def listed(*sides: dict[int, list[int]]) -> tuple[tuple[int, tuple[int, ...]], ...]:
            cells = sorted(set().union(*sides))
            return tuple((c, tuple(p for side in sides for p in side.get(c, ()))) for c in cells)

        if converse == constraint.table:
            out.append((listed(forward, backward), constraint.table))
        else:
            out += [(listed(forward), constraint.table), (listed(backward), converse)]
    return tuple(out)


def find_relation(x: Context, word: str = "") -> Step | None:
    """The first cell (row-major) whose digits rule out a digit in a partner under rule ``word``'s relation."""
    sides = _partners(x.t.geometry, word)
    if not sides:
        return None
    step = rule_of(word).step
    assert step is not None
    full = x.t.full
    cand, values = x.cand, x.values
    for near, table in sides:
        for c, partners in near:
            m = 1 << (values[c] - 1) if values[c] else cand[c]
            if not m:
                continue
            open_ = 0
            for nb in partners:
                open_ |= cand[nb]
            if not open_:
                continue
            off = full
            for d in cells_of(m):
                off &= ~table[d]
            if not off & open_:
                continue
            gone = tuple(sorted((nb, d + 1) for nb in partners for d in cells_of(cand[nb] & off)))
            if gone:
                return _relation_step(x, step, c, m, off, gone)
    return None


def _relation_step(x: Context, step: StepWords, c: int, m: int, off: int, gone: tuple[tuple[int, int], ...]) -> Step:
    what = f"r{c // x.n + 1}c{c % x.n + 1}"
    holds = f"holds {x.d(x.values[c] - 1)}" if x.values[c] else f"is {x.digit_set(m)}"
    return x.step(
        step.name,
        step.rating,
        eliminations=gone,
        cells=(c,),
        digits=tuple(d + 1 for d in cells_of(off)),
        explanation=f": {what} {holds}, so its {step.partners} cannot hold {x.digit_set(off)}",
        focus=f"the {step.partners} of {what}",
    )


# -- between lines ------------------------------------------------------------------


def find_between(x: Context, word: str = "") -> Step | None:
    """The first :class:`Between` line of rule ``word`` (the geometry's order) that rules out a candidate.

    Each cell of the line keeps the digits some placement of the low and high
    digit and some set of digits between them summing to the total give it
    (:func:`~...constraints.between_allowed`); the rest go.
    """
    geo = x.t.geometry
    cand, values, n = x.cand, x.values, x.n
    for k, constraint in enumerate(geo.constraints):
        if not isinstance(constraint, Between) or geo.constraint_rules[k] != word:
            continue
        masks = [1 << (values[c] - 1) if values[c] else cand[c] for c in constraint.cells]
        kept = between_allowed(constraint, masks, n)
        gone = tuple(
            sorted(
                (c, d + 1)
                for c, m, keep in zip(constraint.cells, masks, kept)
                if not values[c]
                for d in cells_of(m & ~keep)
            )
        )
        if not gone:
            continue
        step = rule_of(word).step
        assert step is not None
        name = geo.constraint_names[k] or word
        low, high = x.d(constraint.low - 1), x.d(constraint.high - 1)
        return x.step(
            step.name,
            step.rating,
            eliminations=gone,
            cells=tuple(constraint.cells),
            digits=tuple(sorted({d for _c, d in gone})),
            explanation=f": the digits between the {low} and the {high} of {name} sum to {constraint.total}",
            focus=name,
        )
    return None


# -- sums with repeats ------------------------------------------------------------------


def _reachable(weights: Sequence[int], masks: Sequence[int]) -> list[set[int]]:
    """``out[i]``: the totals the first ``i`` cells can make, each cell a digit of its mask times its weight."""
    out = [{0}]
    for w, m in zip(weights, masks):
        out.append({s + w * (d + 1) for s in out[-1] for d in cells_of(m)})
    return out


#: The most search nodes :func:`_sum_supports` spends on a sum's placements before it keeps the relaxation's answer.
_MAX_SUM_NODES = 4000


class _Done(Exception):
    """Ends :func:`_sum_supports`' search: every candidate has a placement, or the node budget is spent."""


def _sum_supports(
    cells: Sequence[int], weights: Sequence[int], masks: Sequence[int], total: int, peer_mask: Sequence[int]
) -> list[int]:
    """Per cell the digits (a mask) some placement of the sum uses.

    A placement gives each cell a digit of its mask, peers among ``cells``
    different, the digits times their weights making ``total``. Searched
    depth first, each branch cut when the cells after it cannot make the rest
    (:func:`_reachable`, peers not consulted), and stopped when every
    candidate has been used. Past :data:`_MAX_SUM_NODES` nodes the answer is
    the relaxation's alone: the digits with a placement once peers are
    ignored (a superset, so nothing wrong is removed).
    """
    k = len(cells)
    before = _reachable(weights, masks)
    after = _reachable(weights[::-1], masks[::-1])[::-1]
    relaxed = [0] * k
    for i in range(k):
        for d in cells_of(masks[i]):
            need = total - weights[i] * (d + 1)
            if any(need - s in after[i + 1] for s in before[i]):
                relaxed[i] |= 1 << d
    used = [0] * k
    missing = sum(bin(m).count("1") for m in relaxed)
    chosen = [0] * k
    nodes = 0

    def walk(i: int, rest: int) -> None:
        nonlocal missing, nodes
        if i == k:
            if rest == 0:
                for j in range(k):
                    bit = 1 << (chosen[j] - 1)
                    if not used[j] & bit:
                        used[j] |= bit
                        missing -= 1
                if not missing:
                    raise _Done
            return
        nodes += 1
        if nodes > _MAX_SUM_NODES:
            raise _Done
        m = relaxed[i]
        for j in range(i):
            if peer_mask[cells[i]] >> cells[j] & 1:
                m &= ~(1 << (chosen[j] - 1))
        for d in cells_of(m):
            r = rest - weights[i] * (d + 1)
            if r in after[i + 1]:
                chosen[i] = d + 1
                walk(i + 1, r)

    try:
        walk(0, total)
    except _Done:
        if missing and nodes > _MAX_SUM_NODES:
            return relaxed
    return used


def find_sum(x: Context, word: str = "") -> Step | None:
    """The first sum of rule ``word`` whose total rules out a candidate of one of its cells.

    A sum whose digits may repeat (an arrow, a little killer diagonal): a
    digit stays in a cell when some placement of the sum's cells (each a
    candidate, peers among them different, times its weight) makes the total
    with it (:func:`_sum_supports`).
    """
    geo = x.t.geometry
    step = rule_of(word).step
    if step is None:
        return None
    cand, values = x.cand, x.values
    for k, constraint in enumerate(geo.constraints):
        if not isinstance(constraint, Sum) or constraint.distinct or geo.constraint_rules[k] != word:
            continue
        cells = constraint.cells
        weights = constraint.weights or (1,) * len(cells)
        masks = [1 << (values[c] - 1) if values[c] else cand[c] for c in cells]
        used = _sum_supports(cells, weights, masks, constraint.total, x.t.peer_mask)
        gone = [(c, d + 1) for c, u in zip(cells, used) if not values[c] for d in cells_of(cand[c] & ~u)]
        if not gone:
            continue
        name = geo.constraint_names[k] or word
        by_cell: dict[int, int] = {}
        for c, d in gone:
            by_cell[c] = by_cell.get(c, 0) | 1 << (d - 1)
        ruled = " or ".join(f"{rcs((c,), x.n)} as {x.digit_set(m)}" for c, m in sorted(by_cell.items()))
        return x.step(
            step.name,
            step.rating,
            eliminations=tuple(sorted(gone)),
            cells=tuple(cells),
            digits=tuple(sorted({d for _c, d in gone})),
            explanation=f": {name}: {step.partners} with {ruled}",
            focus=name,
        )
    return None


def _rule_step(x: Context, word: str) -> Step | None:
    """A rule's own step: its relations' (:func:`find_relation`), its between lines' (:func:`find_between`),
    else its sums' (:func:`find_sum`)."""
    return find_relation(x, word) or find_between(x, word) or find_sum(x, word)


def _rule_rows() -> list[tuple[str, Callable[[Context], Step | None]]]:
    """Per rule with step words, in :data:`~...rules.RULES` order: its pair step's row, and its line step's row
    (:mod:`.line_rules`) before it when rated no higher (a thermometer's bounds), else after it."""
    rows: list[tuple[str, Callable[[Context], Step | None]]] = []
    for rule in RULES.values():
        if not rule.step:
            continue
        pair = (rule.step.name, functools.partial(_rule_step, word=rule.word))
        if rule.line is None:
            rows.append(pair)
            continue
        line = (rule.line.name, functools.partial(LINE_FINDERS[rule.line.kind], word=rule.word))
        rows += [line, pair] if rule.line.rating <= rule.step.rating else [pair, line]
    return rows


#: ``(step name, finder)``: one technique registry row per rule that declares step words, and one per
#: line step (:func:`_rule_rows`), in :data:`~...rules.RULES` order (``techniques.TECHNIQUES`` places them
#: beside the singles).
RULE_FINDERS: tuple[tuple[str, Callable[[Context], Step | None]], ...] = tuple(_rule_rows())


# -- sums -------------------------------------------------------------------------


def _cages(geo: Geometry) -> list[tuple[Sum, str]]:
    """The distinct sums of ``geo`` and their names (``cage a``)."""
    out: list[tuple[Sum, str]] = []
    for k, constraint in enumerate(geo.constraints):
        if isinstance(constraint, Sum) and constraint.distinct:
            out.append((constraint, geo.constraint_names[k] or f"cage {len(out) + 1}"))
    return out


def _placements(
    cells: Sequence[int], masks: Sequence[int], total: int, peer_mask: Sequence[int], n: int
) -> tuple[list[int], set[int]]:
    """Per cell the digits (masks) some placement uses, and the digit sets of the placements.

    A placement gives each cell a digit of its mask, different from the
    digits of its peers among ``cells``, all summing to ``total``.
    """
    k = len(cells)
    used = [0] * k
    sets: set[int] = set()
    chosen = [0] * k

    def walk(i: int, rest: int) -> None:
        if i == k:
            if rest == 0:
                digits = 0
                for j in range(k):
                    used[j] |= 1 << (chosen[j] - 1)
                    digits |= 1 << (chosen[j] - 1)
                sets.add(digits)
            return
        left = k - i - 1
        m = masks[i]
        for j in range(i):
            if peer_mask[cells[i]] >> cells[j] & 1:
                m &= ~(1 << (chosen[j] - 1))
        while m:
            low = m & -m
            m ^= low
            d = low.bit_length()
            r = rest - d
            if r < left or r > left * n:
                continue
            chosen[i] = d
            walk(i + 1, r)

    walk(0, total)
    return used, sets


def find_cage_combinations(x: Context) -> Step | None:
    """The first cage whose sum rules out a candidate of its cells (module docstring)."""
    cages = _cages(x.t.geometry)
    cand, values, n = x.cand, x.values, x.n
    for cage, name in cages:
        empty = [c for c in cage.cells if not values[c]]
        if not empty:
            continue
        rest = cage.total - sum(values[c] for c in cage.cells)
        used, sets = _placements(empty, [cand[c] for c in empty], rest, x.t.peer_mask, n)
        gone = tuple(sorted((c, d + 1) for c, u in zip(empty, used) for d in cells_of(cand[c] & ~u)))
        if not gone:
            continue
        placements: tuple[tuple[int, int], ...] = ()
        if len(empty) == 1 and used[0]:
            placements, gone = ((empty[0], used[0].bit_length()),), ()  # a cage of one cell left: its digit
        combos = " or ".join(x.digit_set(s) for s in sorted(sets))
        placed = len(cage.cells) - len(empty)
        left = f", {rest} in its {len(empty)} empty cells" if placed else ""
        return x.step(
            "cage combinations",
            min(2.5, 2.0 + 0.1 * max(0, len(empty) - 2)),
            placements=placements,
            eliminations=gone,
            cells=tuple(cage.cells),
            explanation=f": {name} ({rcs(cage.cells, n)}) sums to {cage.total}{left}: {combos or 'no set'}",
            focus=name,
        )
    return None


def _groups(x: Context) -> Iterator[tuple[str, int, int]]:
    """``(name, cells mask, units)``: rows and columns by runs of 1 to n - 1, then the boxes or regions."""
    t = x.t
    for ids, word in ((t.rows, "row"), (t.columns, "column")):
        for length in range(1, t.n):
            for first in range(t.n - length + 1):
                mask = 0
                for u in ids[first : first + length]:
                    mask |= t.unit_mask[u]
                name = f"{word} {first + 1}" if length == 1 else f"{word}s {first + 1}-{first + length}"
                yield name, mask, length
    for u in t.boxes:
        yield t.unit_names[u], t.unit_mask[u], 1


def find_rule_of_45(x: Context) -> Step | None:
    """The first innie or outie set (fewest cells first) whose known sum rules out a candidate (module docstring)."""
    geo = x.t.geometry
    cages = [cage for cage, _name in _cages(geo)]
    if not cages:
        return None
    t, n = x.t, x.n
    cand, values = x.cand, x.values
    unit_sum = n * (n + 1) // 2
    cage_masks = [sum(1 << c for c in cage.cells) for cage in cages]
    caged = 0
    for m in cage_masks:
        caged |= m
    found: list[tuple[int, str, str, int, int]] = []  # (cells, name, kind, mask, sum)
    for name, region, units in _groups(x):
        inside_sum = 0
        inside = 0
        crossing = []
        for k, m in enumerate(cage_masks):
            if m & region == m:
                inside_sum += cages[k].total
                inside |= m
            elif m & region:
                crossing.append(k)
        innies = region & ~inside
        if not innies:
            continue
        innie_sum = unit_sum * units - inside_sum
        found.append((innies.bit_count(), name, "innies", innies, innie_sum))
        if innies & ~caged == 0:
            outies = 0
            total = 0
            for k in crossing:
                outies |= cage_masks[k] & ~region
                total += cages[k].total
            found.append((outies.bit_count(), name, "outies", outies, total - innie_sum))
    found.sort(key=lambda item: item[0])
    for count, name, kind, mask, total in found:
        if count > _MAX_45:
            break
        cells = cells_of(mask)
        empty = [c for c in cells if not values[c]]
        if not empty:
            continue
        rest = total - sum(values[c] for c in cells)
        used, _ = _placements(empty, [cand[c] for c in empty], rest, t.peer_mask, n)
        what = f": the {kind} of {name} ({rcs(cells, n)}) sum to {total}"
        se = 2.2 + 0.2 * (len(empty) - 1)
        if len(empty) == 1 and used[0] and not used[0] & (used[0] - 1):
            c, d = empty[0], used[0].bit_length()
            return x.step("rule of 45", se, placements=((c, d),), cells=tuple(cells), explanation=what, focus=name)
        gone = tuple(sorted((c, d + 1) for c, u in zip(empty, used) for d in cells_of(cand[c] & ~u)))
        if gone:
            return x.step("rule of 45", se, eliminations=gone, cells=tuple(cells), explanation=what, focus=name)
    return None
