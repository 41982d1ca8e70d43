"""What a rule is: :class:`Rule`, the data a puzzle carries (:class:`Variant`, :class:`Cage`), and :class:`Build`.

A rule is data plus a few small functions (after sigh's Interactive Sudoku
Solver, ``js/sudoku_constraint.js``, and python-chess' variant registry):

- its **word** (``rules=x``) and the **data** it takes with the puzzle
  (``"none"``, ``"regions"``, ``"cages"``, ``"candidates"``: the name of the
  :class:`Variant` field that holds it);
- where it **fits** (grid sizes);
- what it **compiles to**: extra units (``"diagonal 1"``), or units that
  replace the boxes (jigsaw regions), and constraints of the vocabulary
  (:mod:`sudoku_server.sudoku.constraints`), each with the name messages
  give it (``"cage a"``);
- its **error words**: a kind reports a neutral :class:`~.constraints.Broken`
  fact, the rule words it (:class:`Words`);
- the technique families it **switches off** (``"unique rectangle"``,
  ``"BUG"``), its technique **step words** (:class:`StepWords`);
- how the **generator** makes its data (:class:`Making`);
- its **keys in other formats** (f-puzzles) and what a page needs to **draw** it.

Nothing here names a rule; the rule modules beside this one do.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sudoku_server.sudoku.constraints import Broken, Constraint
from sudoku_server.sudoku.geometry import cell_name

__all__ = [
    "DATA_KINDS",
    "Build",
    "Cage",
    "Making",
    "Mark",
    "Random",
    "Rule",
    "StepWords",
    "Variant",
    "Words",
]

#: The data a rule may take with its puzzle (each but "none" a :class:`Variant` field).
DATA_KINDS = ("none", "regions", "cages", "candidates", "marks")


@dataclass(frozen=True)
class Cage:
    """A cage: its cells hold distinct digits that sum to ``total``.

    Attributes:
      cells: the cage's cells, ascending (0-based, row-major), at least one.
      total: the sum of its digits (1 .. the sum of the largest digits).
      symbol: how the puzzle named it (``"a"`` in a cage block, the cage id
        of a SudoCue line); messages say ``cage a``.
    """

    cells: tuple[int, ...]
    total: int
    symbol: str = ""


@dataclass(frozen=True)
class Mark:
    """One thing drawn on the grid for a rule: a line, a dot, a marked cell.

    Attributes:
      rule: the word of the rule it belongs to (``"thermo"``).
      cells: its cells in the rule's order (0-based, row-major): a line
        from its start (a thermometer from the bulb), a dot's two cells, one
        marked cell.
      value: the rule's number for it (odd/even: 1 odd, 2 even; a kropki
        dot's difference or ratio; XV's sum); 0 when it has none.
      kind: which of the rule's marks it is, when it has several (kropki
        ``"white"``, ``"black"``); a mark with no cells and kind
        ``"negative"`` (XV) or ``"negative white"`` / ``"negative black"``
        (kropki) turns on the rule's negative constraint.
    """

    rule: str
    cells: tuple[int, ...]
    value: int = 0
    kind: str = ""


@dataclass(frozen=True)
class Variant:
    """The rules of one puzzle, as a request carries them (a hashable value).

    Attributes:
      rules: rule words in the registry's order (:data:`~sudoku_server.sudoku.rules.RULES`),
        without ``classic`` (empty: the classic rules).
      regions: for a rule that takes regions, per cell (row-major) its region
        0..size-1, numbered in the order the regions first appear; None otherwise.
      region_symbols: the symbol the puzzle wrote for each region (messages
        say ``region c``); empty: regions are named by number.
      cages: for a rule that takes cages, the cages.
      candidates: for a pencilmark puzzle, per cell the allowed digits (bit
        ``d - 1``); None otherwise.
      marks: for rules that take marks (thermometers, odd/even cells), the
        marks of every such rule, each naming its rule.
      state: the candidates are a classic solving state (a HoDoKu library
        line, sudoku_server/text/hodoku.py), not a pencilmark puzzle: with
        no other rules, HINT, STEPS and RATE reason under the classic rules
        from its candidates (uniqueness techniques on), and a filled cell
        whose candidate mask is more than its digit was placed, not given.
        The solution is still searched under the candidates (as pencilmarks).
    """

    rules: tuple[str, ...] = ()
    regions: tuple[int, ...] | None = None
    region_symbols: tuple[str, ...] = ()
    cages: tuple[Cage, ...] = ()
    candidates: tuple[int, ...] | None = None
    marks: tuple[Mark, ...] = ()
    state: bool = False

    def __hash__(self) -> int:
        # Hashed once (a request's variant is a key of the geometry cache, and its marks are many small
        # values: a kropki puzzle's 40-odd dots); kept out of pickles, as str hashes differ between processes.
        try:
            return self.__dict__["_hash"]  # type: ignore[no-any-return]
        except KeyError:
            pass
        value = hash(
            (self.rules, self.regions, self.region_symbols, self.cages, self.candidates, self.marks, self.state)
        )
        self.__dict__["_hash"] = value
        return value

    def __getstate__(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    @property
    def classic(self) -> bool:
        """True for the classic rules and no pencilmarks (today's paths)."""
        return not self.rules and self.candidates is None

    @property
    def classic_state(self) -> bool:
        """True for a classic solving state (:attr:`state`, no other rules): its path runs under the classic rules."""
        return self.state and not self.rules and self.candidates is not None

    @property
    def words(self) -> str:
        """The rules as ``rules=`` writes them: ``"x+antiknight"``, ``"classic"``."""
        return "+".join(self.rules) or "classic"


@dataclass(frozen=True)
class Build:
    """What a rule compiles from: the puzzle's variant and the grid's shape.

    Attributes:
      variant: the rules and their data.
      size: digits per unit (9).
      box_rows, box_cols: the classic box shape of the grid (3, 3).
    """

    variant: Variant
    size: int
    box_rows: int
    box_cols: int

    def region_name(self, k: int) -> str:
        """``region c`` by the puzzle's symbol, else ``region 3`` (``k`` from 0)."""
        symbols = self.variant.region_symbols
        return f"region {symbols[k]}" if k < len(symbols) else f"region {k + 1}"


@dataclass(frozen=True)
class Words:
    """What a rule's error words see: the grid's digits and how to write them.

    Attributes:
      cells: the grid's cells (givens, or a full solution), row-major, 0 = empty.
      symbol: digit -> the character the puzzle writes for it.
      size: digits per unit.
      name: the name of the broken constraint (``"cage a"``; "" when it has none).
    """

    cells: Sequence[int]
    symbol: Callable[[int], str]
    size: int
    name: str = ""

    def cell(self, c: int) -> str:
        """``r1c1`` for cell 0."""
        return cell_name(c, self.size)

    def at(self, c: int) -> str:
        """``3 at r1c1``: the digit of cell ``c`` and its place."""
        return f"{self.symbol(self.cells[c])} at {self.cell(c)}"

    def digits(self, mask: int) -> str:
        """A candidate mask as its symbols, ascending: ``124``."""
        return "".join(self.symbol(d) for d in range(1, self.size + 1) if mask >> (d - 1) & 1)


#: The forcing chains that reason on units and candidates alone (the technique engine's nested
#: forcing chains and dynamic forcing chains plus): sound on every geometry, but blind to relations,
#: sums and between lines. A rule whose marks they cannot read lists them in :attr:`Rule.off`: on
#: the stored marks sets they found almost nothing there and took 90-97% of RATE's time
#: (benchmarks/RESULTS.md, "Named steps for the marks rules").
BLIND = ("dynamic forcing chains plus", "nested forcing chains")


@dataclass(frozen=True)
class StepWords:
    """The technique step a rule's relations, between lines or sums give (:mod:`..techniques.variant_rules`).

    Attributes:
      name: the step's name (``hardest=`` and ``STEPS`` say it).
      rating: its rating on this server's scale.
      partners: what the cells of a pair are to each other, plural (``"neighbours"``); for a
        rule of sums, what its sum cannot do (``"its digits cannot make its sum"``); for a line
        step, why its line rules the candidates out (``"its digits rise from the bulb"``).
      kind: for a line step (:attr:`Rule.line`), which reasoning it takes
        (:data:`..techniques.line_rules.LINE_FINDERS`): ``"rising"``, ``"run"`` or ``"apart"``.
    """

    name: str
    rating: float
    partners: str
    kind: str = ""


class Random(Protocol):
    """A seeded source of draws (:class:`~sudoku_server.sudoku.seeded.SplitMix64`)."""

    def next(self) -> int: ...

    def below(self, n: int) -> int: ...


@dataclass(frozen=True)
class Making:
    """How the generator makes a rule's data (:mod:`..variant_generator`).

    Attributes:
      exact: rule sets made of rules with ``exact`` keep exact (unbudgeted)
        removal tests (units on the boxes: as fast as classic).
      layout: ``(size, rng) -> data`` drawn before the solution (random
        regions); a layout may have no grid, and another is drawn.
      from_solution: ``(solution, size, rng) -> lists of cells`` drawn over the
        solution (cages); their totals come from the solution.
      variant_of: ``(variant, lists of cells, solution) -> variant`` with that data.
      split: ``(lists of cells, cell, size)``: split the list holding ``cell``
        (so that a puzzle with no givens becomes unique).
      marks: ``(solution, size, rng) -> marks`` the solution satisfies,
        drawn over it (odd/even cells, thermometers); givens are then
        removed as for any rule.
      noun: what it makes, for messages (``"killer cages"``).
    """

    exact: bool = False
    layout: Callable[[int, Random], tuple[int, ...]] | None = None
    from_solution: Callable[[Sequence[int], int, Random], list[list[int]]] | None = None
    variant_of: Callable[[Variant, Sequence[Sequence[int]], Sequence[int]], Variant] | None = None
    split: Callable[[list[list[int]], int, int], None] | None = None
    marks: Callable[[Sequence[int], int, Random], tuple[Mark, ...]] | None = None
    noun: str = ""


#: The units of a rule: (cells, name) pairs.
Units = Sequence[tuple[tuple[int, ...], str]]
#: The constraints of a rule: (constraint, name) pairs.
Compiled = Sequence[tuple[Constraint, str]]


@dataclass(frozen=True)
class NativeShape:
    """What a rule's marks compile to, for the native core's reader of a marks line (issue 29).

    The reader (``solver/_native_marksline.h``, through ``text.marksline``) takes the marks' common form
    only: lines ``r1c1-r1c2-r2c3;...`` (cells named in any case), each at least 2 distinct cells, each touching
    the next, no ``:`` part but a bulb's ``:1`` to ``:4``; diagonals and their sum; dots; cells and their tail. Anything else goes to
    the rule's ``native`` reading, then the usual path. It makes what ``native`` makes
    (``tests/unit/test_marks_fast_path.py``).

    Attributes:
      kind: ``"steps"``: a relation pair per step of each line (``a, b``, ``b, c``, ...); ``"ends"``: a pair
        per two cells at the same distance from the ends (first and last, ...); ``"pairs"``: every two cells
        of a line of at most ``size`` cells, in order; ``"bulb"``: a sum per line, total 0, its bulb's cells
        weighing ``-10^(k-1)`` to ``-1``, its line's 1 (no table); ``"diagonal"``: a sum per mark
        ``r1c6-r2c5:<sum>``, not distinct, its cells weighing 1, the mark a diagonal from an edge of the grid to
        an edge (a little killer's; no table); ``"dots"`` and ``"cells"``: ``tails``.
      table: ``(size, cells) -> table`` of a line of ``cells`` cells (``size`` masks: the digits ``b`` may hold
        for each digit of ``a``); None for the other kinds.
      tails: for ``"dots"``, ``size -> ((tail, table), ...)``: a dot ``r1c1-r1c2:<tail>`` (two orthogonal
        neighbours named in lower case, the tail as given) is a relation pair under its table; for
        ``"cells"``, ``size -> ((tail, (mask,)), ...)``: the cells of ``r1c1-r2c2:<tail>`` (any case, each
        cell once) keep to the tail's digits (bit ``d - 1``; one such rule a line).
      words: for ``"dots"``, the marks without cells (``negative``, in lower case; named in any case) and
        their flags: once any is named, every two orthogonal neighbours no dot joins are a pair under
        ``negative(size, flags)``, the flags of the words named or'ed together (1 to 3).
    """

    kind: str
    table: Callable[[int, int], tuple[int, ...]] | None = None
    tails: Callable[[int], tuple[tuple[str, tuple[int, ...]], ...]] | None = None
    words: tuple[tuple[str, int], ...] = ()
    negative: Callable[[int, int], tuple[int, ...]] | None = None


@dataclass(frozen=True)
class Rule:
    """One rule, as data (module docstring).

    Attributes:
      word: its word in ``rules=`` (``"x"``).
      summary: one line for people (docs, ``GET /api/v1/rules``).
      data: what it takes with the puzzle: one of :data:`DATA_KINDS`.
      sizes: the grid sizes it fits (empty: every size).
      units: ``build -> units`` it adds (after the boxes), or None.
      replaces_boxes: its units take the boxes' place (jigsaw regions).
      constraints: ``build -> constraints`` it compiles to, or None.
      given_words: ``(broken, words) -> text`` for givens that break it
        (the detail of ``ERROR invalid``), or None.
      solution_words: ``(broken, words) -> text`` for a full grid that breaks it.
      off: the technique families it switches off (``"unique rectangle"``, ``"BUG"``, the forcing
        chains of :data:`BLIND` that cannot read its marks).
      step: the step words of its relation, or None.
      line: the step words of its line-level step (a whole thermometer, renban or whispers line at
        once: :mod:`..techniques.line_rules`), or None.
      making: how the generator makes its data (None: it takes none).
      missing: how a puzzle gives its data, for the error when it does not
        (``"a line of givens then region symbols, ..."``).
      formats: its keys in other formats, by format (``{"f-puzzles": ("antiknight",)}``).
      fpuzzles: for a rule that takes marks, ``(f-puzzles object, size) ->
        (marks, claimed)``: its marks read from its own keys of the object,
        and the keys or ``negative:<name>`` entries it read beyond its own
        (kropki claims ``nonconsecutive`` when it has dots); raises
        ValueError with the place (``"thermometer" entry 2 has no lines``).
      syntax: for a rule that takes marks, its line syntax: ``(text after
        "<word>=", size) -> marks`` (docs/LAYOUTS.md "Marks after a line":
        marks ``;``-separated, each its cells ``-``-joined and ``:`` its
        value or kind); raises ValueError with the place.
      syntax_out: for a rule that takes marks, the inverse of ``syntax``:
        ``(its marks, size) -> text after "<word>="`` (GENERATE writes a
        made puzzle's marks with it).
      fpuzzles_out: for a rule that takes marks, the inverse of
        ``fpuzzles``: ``(its marks, size) -> {key: value}`` to add to an
        f-puzzles object (:func:`sudoku_server.text.fpuzzles.write`); None:
        the rule's marks cannot be written.
      draw: what a page needs to draw it (``{"kind": "diagonals"}``).
      native_shape: for a rule whose marks are lines of cells, how the native core's reader of a marks
        line takes them in their common form (:class:`NativeShape`), a whole line in one C call; None:
        ``native`` reads them (or the usual path).
      native: for a rule that takes marks, the request path's fast reading of its marks
        (:mod:`._native_marks`): ``(text after "<word>=", size, parts) -> bool``, the marks in their
        common form appended to a :class:`~._native_marks.NativeParts` as ``syntax`` then
        ``constraints`` then the native core's arrays would make them; False for any other text (what
        it appended is then dropped), which the usual path reads. None: the rule's marks always take
        the usual path.
    """

    word: str
    summary: str
    data: str = "none"
    sizes: frozenset[int] = frozenset()
    units: Callable[[Build], Units] | None = None
    replaces_boxes: bool = False
    constraints: Callable[[Build], Compiled] | None = None
    given_words: Callable[[Broken, Words], str] | None = None
    solution_words: Callable[[Broken, Words], str] | None = None
    off: tuple[str, ...] = ("BUG",)
    step: StepWords | None = None
    line: StepWords | None = None
    making: Making = field(default_factory=Making)
    missing: str = ""
    formats: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    fpuzzles: Callable[[Mapping[str, object], int], tuple[tuple[Mark, ...], frozenset[str]]] | None = None
    syntax: Callable[[str, int], tuple[Mark, ...]] | None = None
    syntax_out: Callable[[tuple[Mark, ...], int], str] | None = None
    fpuzzles_out: Callable[[tuple[Mark, ...], int], dict[str, object]] | None = None
    draw: Mapping[str, object] = field(default_factory=dict)
    native_shape: NativeShape | None = None
    native: Callable[[str, int, Any], bool] | None = None  # its third argument: a _native_marks.NativeParts (no
    # import of it here, even for types: _native_marks imports this module, and the domain has no import circle)

    def fits(self, size: int) -> bool:
        """Whether the rule fits a grid of ``size`` digits per unit."""
        return not self.sizes or size in self.sizes


@functools.lru_cache(maxsize=64)
def pairs_of(size: int, steps: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The cell pairs ``(a, b)``, ``a < b``, ascending, one of the ``steps`` (row, column) apart (cached: ``steps`` hashable)."""
    pairs = set()
    for r in range(size):
        for c in range(size):
            for dr, dc in steps:
                rr, cc = r + dr, c + dc
                if 0 <= rr < size and 0 <= cc < size:
                    a, b = r * size + c, rr * size + cc
                    pairs.add((min(a, b), max(a, b)))
    return tuple(sorted(pairs))
