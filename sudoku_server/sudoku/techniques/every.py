"""Every step at one solving state (``HINT all``), with HoDoKu's technique codes.

:func:`all_steps` runs, at one board state, every enumerator of
:data:`ENUMERATORS` (each lists EVERY instance of its technique, HoDoKu's
``/bsa`` way: :mod:`.every_basic`, :mod:`.every_patterns`) and then every
finder of the path's registry (:data:`~sudoku_server.sudoku.techniques.TECHNIQUES`)
that no enumerator covers, which gives its first step. It keeps one step
per distinct (technique, effects), simplest first: HoDoKu's default order
of techniques (:data:`ORDER`), then the path's own techniques in Sudoku
Explainer's order.

Each step carries HoDoKu's code for its technique (the number the header of
HoDoKu's ``reglib-1.4.txt`` lists, ``0300`` X-Wing, ``0311`` finned
Swordfish; ``-`` where HoDoKu has none), from :data:`CODES`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sudoku_server.sudoku.check import Check, no_check
from sudoku_server.sudoku.techniques import TECHNIQUES, Board, Step, TechniqueError
from sudoku_server.sudoku.techniques import every_als as als
from sudoku_server.sudoku.techniques import every_basic as basic
from sudoku_server.sudoku.techniques import every_bug_lite as bug_lite
from sudoku_server.sudoku.techniques import every_chains as chains
from sudoku_server.sudoku.techniques import every_fish as fish
from sudoku_server.sudoku.techniques import every_grouped as grouped
from sudoku_server.sudoku.techniques import every_kraken as kraken
from sudoku_server.sudoku.techniques import every_medusa as medusa
from sudoku_server.sudoku.techniques import every_patterns as patterns
from sudoku_server.sudoku.techniques.board import Context
from sudoku_server.sudoku.techniques.variant_rules import RULE_FINDERS

__all__ = ["CODES", "ENUMERATORS", "ORDER", "Found", "all_steps", "code_of", "passes", "placed_cells"]

#: Our technique name -> HoDoKu's code (``SolutionType.java`` of HoDoKu 2.2; reglib-1.4's header).
CODES: dict[str, str] = {
    "full house": "0000",
    "hidden single": "0002",
    "naked single": "0003",
    "pointing": "0100",
    "claiming": "0101",
    "locked pair": "0110",
    "locked triple": "0111",
    "naked pair": "0200",
    "naked triple": "0201",
    "naked quadruple": "0202",
    "hidden pair": "0210",
    "hidden triple": "0211",
    "hidden quadruple": "0212",
    "X-Wing": "0300",
    "Swordfish": "0301",
    "Jellyfish": "0302",
    "finned X-Wing": "0310",
    "finned Swordfish": "0311",
    "Siamese finned Swordfish": "03111",
    "finned Jellyfish": "0312",
    "Siamese finned Jellyfish": "03121",
    "sashimi X-Wing": "0320",
    "sashimi Swordfish": "0321",
    "Siamese sashimi Swordfish": "03211",
    "sashimi Jellyfish": "0322",
    "Siamese sashimi Jellyfish": "03221",
    "skyscraper": "0400",
    "two-string kite": "0401",
    "empty rectangle": "0402",
    "turbot fish": "0403",
    "dual two-string kite": "0404",
    "dual empty rectangle": "0405",
    "simple colours trap": "0500",
    "simple colours wrap": "0501",
    "multi-colours 1": "0502",
    "multi-colours 2": "0503",
    "unique rectangle type 1": "0600",
    "unique rectangle type 2": "0601",
    "unique rectangle type 3": "0602",
    "unique rectangle type 4": "0603",
    "unique rectangle type 5": "0604",
    "unique rectangle type 6": "0605",
    "hidden rectangle": "0606",
    "avoidable rectangle type 1": "0607",
    "avoidable rectangle type 2": "0608",
    "BUG+1": "0610",
    "X-chain": "0701",
    "continuous nice loop": "0706",
    "discontinuous nice loop": "0707",
    "AIC": "0708",
    "grouped continuous nice loop": "0709",
    "grouped discontinuous nice loop": "0710",
    "grouped AIC": "0711",
    "XY-chain": "0702",
    "remote pair": "0703",
    "XY-Wing": "0800",
    "XYZ-Wing": "0801",
    "WXYZ-Wing": "0802",
    "W-Wing": "0803",
    "ALS-XZ": "0901",
    "ALS-XY-Wing": "0902",
    "ALS-XY-Chain": "0903",
    "death blossom": "0904",
    "Sue de Coq": "1101",
    "template set": "1201",
    "template delete": "1202",
    "aligned pair exclusion": "1000",
    "aligned triple exclusion": "1001",
    "Kraken fish type 1": "0371",
    "Kraken fish type 2": "0372",
    "3D Medusa": "0507",
    "BUG Lite": "0620",
}
#: Franken and mutant fish (``every_fish``): 033k Franken, 034k finned Franken, 035k mutant, 036k finned
#: mutant (k = size - 2); a Siamese pair adds ``1`` (``03411`` Siamese finned Franken Swordfish).
for _size, _fish_name in fish.SIZES.items():
    for _kind, _code in (("Franken", 33), ("finned Franken", 34), ("mutant", 35), ("finned mutant", 36)):
        CODES[f"{_kind} {_fish_name}"] = f"0{_code}{_size - 2}"
        CODES[f"Siamese {_kind} {_fish_name}"] = f"0{_code}{_size - 2}1"

#: Simplest first: HoDoKu's default step order (the index of each technique in
#: ``Options.DEFAULT_SOLVER_STEPS`` of HoDoKu 2.2; the Siamese and dual forms just after their base).
ORDER: dict[str, int] = {
    "full house": 100,
    "naked single": 200,
    "hidden single": 300,
    "locked pair": 1000,
    "locked triple": 1100,
    "pointing": 1200,
    "claiming": 1210,
    "naked pair": 1300,
    "naked triple": 1400,
    "hidden pair": 1500,
    "hidden triple": 1600,
    "naked quadruple": 2000,
    "hidden quadruple": 2100,
    "X-Wing": 2200,
    "Swordfish": 2300,
    "Jellyfish": 2400,
    "remote pair": 2800,
    "BUG+1": 2900,
    "skyscraper": 3000,
    "two-string kite": 3100,
    "dual two-string kite": 3101,
    "turbot fish": 3120,
    "empty rectangle": 3170,
    "dual empty rectangle": 3171,
    "W-Wing": 3200,
    "XY-Wing": 3300,
    "XYZ-Wing": 3400,
    "unique rectangle type 1": 3500,
    "unique rectangle type 2": 3600,
    "unique rectangle type 3": 3700,
    "unique rectangle type 4": 3800,
    "unique rectangle type 5": 3900,
    "unique rectangle type 6": 4000,
    "hidden rectangle": 4010,
    "avoidable rectangle type 1": 4020,
    "avoidable rectangle type 2": 4030,
    "finned X-Wing": 4100,
    "sashimi X-Wing": 4200,
    "finned Swordfish": 4300,
    "Siamese finned Swordfish": 4301,
    "sashimi Swordfish": 4400,
    "Siamese sashimi Swordfish": 4401,
    "finned Jellyfish": 4500,
    "Siamese finned Jellyfish": 4501,
    "sashimi Jellyfish": 4600,
    "Siamese sashimi Jellyfish": 4601,
    "Sue de Coq": 5300,
    "simple colours trap": 5330,
    "simple colours wrap": 5331,
    "multi-colours 1": 5360,
    "multi-colours 2": 5361,
    "X-chain": 5400,
    "XY-chain": 5500,
    "continuous nice loop": 5600,
    "discontinuous nice loop": 5601,
    "AIC": 5602,
    "grouped continuous nice loop": 5650,
    "grouped discontinuous nice loop": 5651,
    "grouped AIC": 5652,
    "ALS-XZ": 5700,
    "ALS-XY-Wing": 5800,
    "ALS-XY-Chain": 5900,
    "death blossom": 6000,
    "template set": 8700,
    "template delete": 8800,
    "Kraken fish type 1": 8450,
    "Kraken fish type 2": 8451,
    "3D Medusa": 5370,
    "BUG Lite": 2910,
}
#: Franken and mutant fish: Franken X-Wing 6100 to Leviathan 6600, finned 6700-7200, mutant 7300-7800, finned
#: mutant 7900-8400 (HoDoKu's order); a Siamese pair just after its kind.
for _size, _fish_name in fish.SIZES.items():
    for _kind, _at in (("Franken", 6100), ("finned Franken", 6700), ("mutant", 7300), ("finned mutant", 7900)):
        ORDER[f"{_kind} {_fish_name}"] = _at + 100 * (_size - 2)
        ORDER[f"Siamese {_kind} {_fish_name}"] = _at + 100 * (_size - 2) + 1
#: Where the path's own techniques go: after every enumerated one, in the path's order.
_LAST = 1 << 30

#: The enumerators in HoDoKu's order of techniques (simplest first): context -> every step.
ENUMERATORS: tuple[tuple[str, Callable[[Context], list[Step]]], ...] = (
    ("full house", basic.full_houses),
    ("hidden single", basic.hidden_singles),
    ("naked single", basic.naked_singles),
    ("locked pair", functools.partial(basic.naked_subsets, k=2, locked=True)),
    ("locked triple", functools.partial(basic.naked_subsets, k=3, locked=True)),
    ("pointing", functools.partial(basic.locked_candidates, kind=1)),
    ("claiming", functools.partial(basic.locked_candidates, kind=2)),
    ("naked pair", functools.partial(basic.naked_subsets, k=2, locked=False)),
    ("naked triple", functools.partial(basic.naked_subsets, k=3, locked=False)),
    ("hidden pair", functools.partial(basic.hidden_subsets, k=2)),
    ("hidden triple", functools.partial(basic.hidden_subsets, k=3)),
    ("naked quadruple", functools.partial(basic.naked_subsets, k=4, locked=False)),
    ("hidden quadruple", functools.partial(basic.hidden_subsets, k=4)),
    ("X-Wing", functools.partial(basic.fish, k=2)),
    ("Swordfish", functools.partial(basic.fish, k=3)),
    ("Jellyfish", functools.partial(basic.fish, k=4)),
    ("Franken/mutant X-Wing", functools.partial(fish.franken_mutant_fish, k=2)),
    ("Franken/mutant Swordfish", functools.partial(fish.franken_mutant_fish, k=3)),
    ("Franken/mutant Jellyfish", functools.partial(fish.franken_mutant_fish, k=4)),
    ("Franken/mutant Squirmbag", functools.partial(fish.large_fish, k=5)),
    ("Franken/mutant Whale", functools.partial(fish.large_fish, k=6)),
    ("Franken/mutant Leviathan", functools.partial(fish.large_fish, k=7)),
    ("skyscraper", patterns.single_digit),
    ("XY-Wing", patterns.xy_wings),
    ("XYZ-Wing", patterns.xyz_wings),
    ("W-Wing", patterns.w_wings),
    ("unique rectangle", patterns.rectangles),
    ("BUG+1", patterns.bug_plus_one),
    ("BUG Lite", bug_lite.bug_lite),
    ("simple colours", patterns.colours),
    ("3D Medusa", medusa.medusa),
    ("remote pair", chains.remote_pairs),
    ("chains", functools.partial(chains.chains, retries=chains.RETRIES)),
    ("grouped chains", functools.partial(grouped.grouped_chains, retries=grouped.RETRIES)),
    ("ALS-XZ", als.als_xz),
    ("ALS-XY-Wing", als.als_wings),
    ("ALS-XY-Chain", als.als_chains),
    ("death blossom", als.death_blossoms),
    ("Sue de Coq", als.sue_de_coq),
    ("template", patterns.templates),
    ("Kraken fish", kraken.kraken_fish),
)

#: Path finders (registry names) the enumerators stand for: their steps would repeat.
COVERED = frozenset(
    {
        "full house",
        "hidden single",
        "naked single",
        "pointing",
        "claiming",
        "naked pair",
        "X-Wing",
        "hidden pair",
        "naked triple",
        "Swordfish",
        "hidden triple",
        "naked quadruple",
        "Jellyfish",
        "hidden quadruple",
        "two strong links",
        "skyscraper",
        "two-string kite",
        "turbot fish",
        "empty rectangle",
        "XY-Wing",
        "XYZ-Wing",
        "W-Wing",
        "unique rectangle",
        "unique rectangle type 1",
        "unique rectangle type 2",
        "unique rectangle type 3",
        "unique rectangle type 4",
        "avoidable rectangle",
        "simple colouring",
        # the constraints' own steps (a relation's, named by its rule): no step on a classic grid
        *(name for name, _ in RULE_FINDERS),
        "cage combinations",
        "rule of 45",
    }
)


def code_of(technique: str) -> str:
    """HoDoKu's code of one of our technique names, ``-`` where HoDoKu has none."""
    return CODES.get(technique, "-")


@dataclass(frozen=True)
class Found:
    """One line of ``HINT all``: HoDoKu's code (or ``-``) and the step."""

    code: str
    step: Step

    @property
    def effects(self) -> tuple[tuple[int, int, bool], ...]:
        """``(cell, digit, placed)`` for every effect, sorted."""
        s = self.step
        return tuple(sorted([(c, d, True) for c, d in s.placements] + [(c, d, False) for c, d in s.eliminations]))


def placed_cells(cells: Sequence[int], candidates: Sequence[int] | None) -> int:
    """The bitboard of the filled cells a solving state marks placed, not given: those whose candidate mask
    is more than their digit (a HoDoKu library line's ``+`` cells, :mod:`sudoku_server.text.hodoku`)."""
    if candidates is None:
        return 0
    return sum(1 << c for c, v in enumerate(cells) if v and candidates[c] != 1 << (v - 1))


def _classic_units(board: Board) -> bool:
    """The board has the classic 9x9 units (its geometry's other rules are pencilmarks at most)."""
    geo = board.t.geometry
    if board.size != 9 or board.t.box_rows != 3:
        return False
    return geo.classic or (len(geo.units) == 27 and all(hasattr(k, "masks") for k in geo.constraints))


def _changes(step: Step, board: Board) -> bool:
    return any(not board.values[c] for c, _ in step.placements) or any(
        board.cand[c] >> (d - 1) & 1 for c, d in step.eliminations
    )


def all_steps(
    board: Board,
    solution: Sequence[int] | None = None,
    *,
    check: Check | None = None,
    path_finders: bool = True,
    kraken: bool = False,
) -> list[Found]:
    """Every step at the board's state, one per distinct (technique, effects), simplest first.

    Args:
      board: a 9x9 classic board (other grids: the path finders' steps only).
      solution: the state's solution (81 digits); each step is checked against it.
      check: called between enumerators and finders; what it raises propagates.
      path_finders: also the first step of each path finder no enumerator covers
        (chains, forcing chains, ...).
      kraken: also Kraken fish (``0371``/``0372``: HoDoKu's "find all steps" keeps them off by
        default, and here they double a state's time).

    Raises:
      TechniqueError: a step contradicts the solution (a bug).
    """
    check = check or no_check
    out: list[Found] = []
    seen: set[tuple[str, tuple[tuple[int, int, bool], ...]]] = set()

    def add(step: Step) -> None:
        if not _changes(step, board):
            return
        found = Found(code_of(step.technique), step)
        key = (step.technique, found.effects)
        if key in seen:
            return
        seen.add(key)
        if solution is not None:
            for c, d in step.placements:
                if solution[c] != d:
                    raise TechniqueError(f"{step.technique} placed {d} at r{c // 9 + 1}c{c % 9 + 1}: {step.describe()}")
            for c, d in step.eliminations:
                if solution[c] == d:
                    raise TechniqueError(f"{step.technique} removed the solution's {d}: {step.describe()}")
        out.append(found)

    classic = _classic_units(board)
    if classic:
        x = Context(board, check)
        for name, enumerate_steps in ENUMERATORS:
            if name == "Kraken fish" and not kraken:
                continue
            check()
            for s in enumerate_steps(x):
                add(s)
    if path_finders:
        x = Context(board, check)
        below = len(out)
        for tech in TECHNIQUES:
            if classic and tech.name in COVERED:
                continue
            if not tech.any_size and board.size != 9:
                continue
            if tech.name in _TOP and len(out) > below:
                continue  # the top of SE's scale: only where nothing below it applies (0.1-1 s a state)
            check()
            first = tech.finder(x)
            if first is not None:
                add(first)
    return sorted(out, key=lambda f: ORDER.get(f.step.technique, _LAST))  # stable: found order within


#: Path finders run only where no other step is found: SE's dynamic forcing chains plus and nested forcing chains
#: (levels 2-3, then level 4: SE's ``getAllHints`` runs its experimental level only when nothing else applies).
_TOP = frozenset({"dynamic forcing chains plus", "nested forcing chains", "nested forcing chains level 4"})


def passes(found: Sequence[Found], base: str, fail: bool, effects: set[tuple[int, int, bool]]) -> bool:
    """How a HoDoKu library case is judged (``:::<givens>:<deleted>:::`` sent to ``HINT all``).

    ``base``: the case's code without its variant suffix; ``fail``: a ``-x`` case (no step with that code may
    be found); ``effects``: ``(cell, digit, placed)`` it must find. It passes when the steps with its code
    give exactly those effects: one step's, or the union of them all.
    """
    mine = [set(f.effects) for f in found if f.code == base]
    if fail:
        return not mine
    return any(m == effects for m in mine) or (bool(mine) and set().union(*mine) == effects)
