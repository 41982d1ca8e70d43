"""The typed requests: one frozen value per verb, validated once.

A request holds domain values only (a :class:`~sudoku_server.sudoku.grid.Grid`,
ints, names), never text layouts: the wire layer keeps the request's
``Puzzle`` beside it to render the answer in the layout sent.

Requests built from a command line's words go through one ``validate``
classmethod per type, which raises :class:`~sudoku_server.errors.CommandError`
with the wording of docs/PROTOCOL.md (``COUNT: limit must be 1 to 1000, not 0``);
the constructors take values already checked (tests, a future HTTP front).

A verb that takes a puzzle is validated when its command line is read, before
its puzzle arrives: ``validate`` then gets no grid and the request holds
:data:`NO_GRID` until :meth:`PuzzleRequest.on` puts the puzzle's grid in.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import ClassVar, TypeVar

from sudoku_server.errors import CommandError, escape, quote
from sudoku_server.sudoku.generator import SEED_LIMIT, SIZES, SYMMETRIES
from sudoku_server.sudoku.geometry import Geometry
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rating import LEVELS
from sudoku_server.sudoku.rules import taking
from sudoku_server.sudoku.variants import CLASSIC, RULES, Variant, check_fits, parse_rules, variant_geometry

#: Largest ``COUNT limit=N``: counting is bounded by the solve timeout too.
MAX_COUNT_LIMIT = 1000
#: Largest GENERATE seed (seeds are 0 .. 2**64 - 1: the generator's SEED_LIMIT).
MAX_SEED = SEED_LIMIT - 1
#: What ``GENERATE symmetry=`` takes: the generator's symmetries, and ``random`` (one of them, from the seed).
GENERATE_SYMMETRIES = (*SYMMETRIES, "random")
#: What ``GENERATE format=`` takes.
GENERATE_FORMATS = ("line", "grid", "fpuzzles", "link")
#: What ``SOLVE format=`` takes: the puzzle's own layout, an f-puzzles object, an f-puzzles link.
SOLVE_FORMATS = ("line", "fpuzzles", "link")
#: The grid of a puzzle request whose puzzle has not arrived yet (an empty 1x1 grid).
NO_GRID = Grid((0,), 1, 1)

_P = TypeVar("_P", bound="PuzzleRequest")
_S = TypeVar("_S", bound="Solve")
_NONE: Mapping[str, str] = MappingProxyType({})
#: The mark a bad number is quoted in (``seed must be 0 to ..., not 'x1'``).
APOSTROPHE = "'"
_SE = re.compile(r"([0-9]{1,2}(?:\.[0-9])?)(?:-([0-9]{1,2}(?:\.[0-9])?))?")


def _lower(text: str) -> str:
    """An option's value lower-cased when it is ASCII, else as sent (``str.lower()`` maps the Kelvin sign U+212A
    to ``k``: ``format=lin\u212a`` is no ``link``)."""
    return text.lower() if text.isascii() else text


def _choice(words: Sequence[str]) -> str:
    """``a, b or c``."""
    return f"{', '.join(words[:-1])} or {words[-1]}"


def _int_option(verb: str, options: Mapping[str, str], key: str, low: int, high: int, what: str) -> int | None:
    """The int of ``key=N`` (ASCII digits only: int() takes ``٣`` and ``1_000`` too), None when absent."""
    text = options.get(key)
    if text is None:
        return None
    if not re.fullmatch(r"-?[0-9]+", text):
        # a number that is not whole (2.5, 1e3: also a JSON number over HTTP) unquoted, as JSON writes it
        number = re.fullmatch(r"-?[0-9]{1,12}(?:\.[0-9]{1,12})?(?:[eE][-+]?[0-9]{1,4})?", text) is not None
        raise CommandError(f"{verb}: {key} must be {what}, not {text if number else quote(text)}")
    if len(text.lstrip("-")) > max(12, len(str(high))):  # cut as the f-puzzles reader cuts (never past int()'s limit)
        raise CommandError(f"{verb}: {key} must be {what}, not {text[: 12 + text.startswith('-')]}...")
    value = int(text)
    if not low <= value <= high:
        raise CommandError(f"{verb}: {key} must be {what}, not {value}")
    return value


def rules_option(verb: str, options: Mapping[str, str]) -> Variant:
    """The variant of ``rules=x+antiknight`` (:func:`~sudoku_server.sudoku.variants.parse_rules`); CLASSIC when absent.

    Raises CommandError naming the verb and the word:
    ``SOLVE: rules: unknown rule 'foo' (rules are classic, x, ...)``.
    """
    text = options.get("rules")
    if text is None:
        return CLASSIC
    try:
        rules = parse_rules(text)
    except CommandError as error:
        raise CommandError(f"{verb}: {error.detail}") from None
    return Variant(rules) if rules else CLASSIC


@dataclass(frozen=True)
class PuzzleRequest:
    """A request about one puzzle.

    Attributes:
      grid: the puzzle's givens (``size * size`` ints row-major, 0 = empty),
        or :data:`NO_GRID` while its puzzle has not arrived.
      variant: the puzzle's rules (``rules=``, regions, cages, pencilmarks);
        keyword only, :data:`~sudoku_server.sudoku.variants.CLASSIC` by default.
    """

    #: Answered by a search (a solver thread, under the scheduler), not at once.
    solver_work: ClassVar[bool] = True
    #: May be answered in bulk, text to text (a plain one-line classic SOLVE: :attr:`Solve.bulk_able`).
    bulk_able: ClassVar[bool] = False
    #: May be answered on the event loop when its search is quick (a SOLVE: :attr:`Solve.inline_able`).
    inline_able: ClassVar[bool] = False
    #: May be asked on a reserve connection (over ``--max-connections``: health checks).
    health_check: ClassVar[bool] = False
    #: Answered once every reply before it is sent (STATS counts them).
    after_replies: ClassVar[bool] = False
    #: May be answered from a warm pool (GENERATE by level).
    warm_pooled: ClassVar[bool] = False

    grid: Grid
    variant: Variant = field(default=CLASSIC, kw_only=True)

    @property
    def geometry(self) -> Geometry:
        """The geometry of the grid's box shape under the request's rules (cached).

        Raises the errors of :func:`~sudoku_server.sudoku.variants.variant_geometry`.
        """
        return variant_geometry(self.variant, self.grid.box_rows, self.grid.box_cols)

    def on(self: _P, grid: Grid, expected: Grid | None = None) -> _P:
        """The same request about ``grid`` (``expected``: a dataset row's solution, kept by :class:`Solve` only)."""
        return dataclasses.replace(self, grid=grid)


@dataclass(frozen=True)
class Solve(PuzzleRequest):
    """Solve a puzzle (``SOLVE [any]``, or a bare puzzle).

    Attributes:
      any: answer the first solution found, not the first in row-major order.
      expected: a dataset row's expected solution; a different solution is
        answered ``ERROR mismatch``.
      format: ``line`` (the solution in the puzzle's own layout),
        ``fpuzzles`` (the f-puzzles object with the grid filled, one line of
        JSON) or ``link`` (its f-puzzles link).
    """

    any: bool = False
    expected: Grid | None = None
    format: str = "line"

    @property
    def bulk_able(self) -> bool:  # type: ignore[override]
        """True for a classic SOLVE that is not ``any``: a plain one-line puzzle of it may be answered in bulk."""
        return not self.any and self.variant.classic and self.format == "line"

    @property
    def inline_able(self) -> bool:  # type: ignore[override]
        """True for a SOLVE of a grid up to 9x9 that is not ``any``, whatever its rules: answered on the event loop
        when its search is quick (larger grids take longer to set up than the inline path's bound)."""
        return not self.any and self.grid.size <= 9

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE, grid: Grid = NO_GRID) -> Solve:
        """``SOLVE [any] [format=line|fpuzzles|link]``.

        Raises CommandError: ``SOLVE: format must be line, fpuzzles or link, not 'xml'``.
        """
        fmt = _lower(options.get("format", "line"))
        if fmt not in SOLVE_FORMATS:
            raise CommandError(f"SOLVE: format must be {_choice(SOLVE_FORMATS)}, not {quote(options['format'])}")
        return cls(grid, any="any" in flags, variant=rules_option("SOLVE", options), format=fmt)

    def on(self: _S, grid: Grid, expected: Grid | None = None) -> _S:
        return dataclasses.replace(self, grid=grid, expected=expected)


@dataclass(frozen=True)
class Count(PuzzleRequest):
    """Count solutions up to ``limit`` (``COUNT [limit=N]``, 1 <= N <= :data:`MAX_COUNT_LIMIT`)."""

    limit: int = 2

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE, grid: Grid = NO_GRID) -> Count:
        """Raises CommandError: ``COUNT: limit must be 1 to 1000, not 0``."""
        limit = _int_option("COUNT", options, "limit", 1, MAX_COUNT_LIMIT, f"1 to {MAX_COUNT_LIMIT}")
        return cls(grid, 2 if limit is None else limit, variant=rules_option("COUNT", options))


@dataclass(frozen=True)
class Candidates(PuzzleRequest):
    """The true candidates (``CANDIDATES [rules=R]``): every digit each cell takes in some solution."""

    @classmethod
    def validate(
        cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE, grid: Grid = NO_GRID
    ) -> Candidates:
        return cls(grid, variant=rules_option("CANDIDATES", options))


@dataclass(frozen=True)
class Rate(PuzzleRequest):
    """Rate a puzzle by the techniques people use (``RATE``)."""

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE, grid: Grid = NO_GRID) -> Rate:
        return cls(grid, variant=rules_option("RATE", options))


@dataclass(frozen=True)
class Hint(PuzzleRequest):
    """The next logical step (``HINT [nudge]``; ``nudge``: only the technique and where to look)."""

    nudge: bool = False

    @classmethod
    def validate(
        cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE, grid: Grid = NO_GRID
    ) -> Hint | HintAll:
        """``HINT [nudge|all [kraken]]``; ``all`` asks for :class:`HintAll`.

        Raises CommandError for both flags, or ``kraken`` without ``all``."""
        if "all" in flags:
            if "nudge" in flags:
                raise CommandError("HINT: all and nudge do not go together")
            return HintAll(grid, variant=rules_option("HINT", options), kraken="kraken" in flags)
        if "kraken" in flags:
            raise CommandError("HINT: kraken goes with all (HINT all kraken <puzzle>)")
        return cls(grid, nudge="nudge" in flags, variant=rules_option("HINT", options))


@dataclass(frozen=True)
class HintAll(PuzzleRequest):
    """Every step at the puzzle's solving state, with HoDoKu's technique codes (``HINT all``).

    ``kraken``: Kraken fish too (``HINT all kraken``; HoDoKu keeps them behind an option, and in Python
    they double the time of a state).
    """

    kraken: bool = False


@dataclass(frozen=True)
class Steps(PuzzleRequest):
    """Every step from the puzzle to its solution (``STEPS``)."""

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE, grid: Grid = NO_GRID) -> Steps:
        return cls(grid, variant=rules_option("STEPS", options))


@dataclass(frozen=True)
class Minimal(PuzzleRequest):
    """Which givens can go, each alone, while the puzzle stays unique (``MINIMAL``)."""

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE, grid: Grid = NO_GRID) -> Minimal:
        return cls(grid, variant=rules_option("MINIMAL", options))


@dataclass(frozen=True)
class Canon(PuzzleRequest):
    """The minlex canonical form (``CANON [map] <puzzle>``; ``map``: also the transformation onto it)."""

    map: bool = False

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE, grid: Grid = NO_GRID) -> Canon:
        return cls(grid, map="map" in flags)


@dataclass(frozen=True)
class Same(PuzzleRequest):
    """Whether two puzzles are equivalent (``SAME <puzzle> <puzzle>``).

    Takes two puzzles: the first one read goes to ``first`` and the request
    waits for the second (:attr:`wants_more`), which becomes ``grid``.

    Attributes:
      first: the first puzzle's grid, or None while it has not arrived.
    """

    first: Grid | None = None

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE, grid: Grid = NO_GRID) -> Same:
        return cls(grid)

    @property
    def wants_more(self) -> bool:
        """True while the first puzzle has not arrived: the next puzzle read is the first, not the last."""
        return self.first is None

    def on(self, grid: Grid, expected: Grid | None = None) -> Same:
        if self.first is None:
            return dataclasses.replace(self, first=grid)
        return dataclasses.replace(self, grid=grid)


@dataclass(frozen=True)
class Unique(PuzzleRequest):
    """Whether a puzzle has one solution; if not, where two differ and which clues fix it (``UNIQUE``)."""

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE, grid: Grid = NO_GRID) -> Unique:
        return cls(grid, variant=rules_option("UNIQUE", options))


@dataclass(frozen=True)
class Generate:
    """Make a puzzle (``GENERATE``).

    Attributes:
      full: a random solved grid instead of a puzzle.
      size: digits per unit, one of :data:`sudoku_server.sudoku.generator.SIZES`.
      symmetry: one of :data:`GENERATE_SYMMETRIES`.
      givens: stop removing givens at this many (0 .. size * size; 0: minimal), or
        None: the generator's default (minimal; 320 at 25x25, ``generator.DEFAULT_GIVENS``).
      seed: 0 .. :data:`MAX_SEED`; None: a random one.
      format: ``line`` or ``grid``.
      level: a named level the puzzle must rate at (:data:`sudoku_server.sudoku.rating.LEVELS`), or None.
      se: ``(low, high)``: the Sudoku Explainer band it must rate in, or None.
      variant: the rules the puzzle must follow (``rules=``; jigsaw regions
        or killer cages are made by the generator unless given).
    """

    solver_work: ClassVar[bool] = True
    bulk_able: ClassVar[bool] = False
    inline_able: ClassVar[bool] = False
    health_check: ClassVar[bool] = False
    after_replies: ClassVar[bool] = False
    warm_pooled: ClassVar[bool] = True

    full: bool = False
    size: int = 9
    symmetry: str = "none"
    givens: int | None = None
    seed: int | None = None
    format: str = "line"
    level: str | None = None
    se: tuple[float, float] | None = None
    variant: Variant = CLASSIC

    @property
    def rated(self) -> bool:
        """True when the puzzle must be rated in a band (level or se)."""
        return self.level is not None or self.se is not None

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE) -> Generate:
        """Check GENERATE's words: flags (``full``) and ``key=value`` options as given.

        Raises:
          CommandError: the first bad value, e.g. ``GENERATE: size must be 4, 6, 9, 16 or 25, not 10``.
        """
        size_text = options.get("size", "9")
        size = int(size_text) if re.fullmatch(r"[0-9]{1,3}", size_text) else -1
        if size not in SIZES:
            raise CommandError(f"GENERATE: size must be {_choice([str(s) for s in SIZES])}, not {quote(size_text)}")
        symmetry = _lower(options.get("symmetry", "none"))
        if symmetry not in GENERATE_SYMMETRIES:
            raise CommandError(
                f"GENERATE: symmetry must be {_choice(GENERATE_SYMMETRIES)}, not {quote(options['symmetry'])}"
            )
        givens = _int_option("GENERATE", options, "givens", 0, size * size, f"0 to {size * size}")
        seed = _int_option("GENERATE", options, "seed", 0, MAX_SEED, f"0 to {MAX_SEED}")
        fmt = _lower(options.get("format", "line"))
        if fmt not in GENERATE_FORMATS:
            raise CommandError(f"GENERATE: format must be {_choice(GENERATE_FORMATS)}, not {quote(options['format'])}")
        full = "full" in flags
        if full and (givens is not None or symmetry != "none"):
            raise CommandError("GENERATE: full makes a solved grid; givens and symmetry do not apply")
        level = options.get("level")
        if level is not None:
            level = _lower(level)
            if level not in LEVELS:
                raise CommandError(f"GENERATE: level must be {_choice(LEVELS)}, not {quote(options['level'])}")
        band = None
        se_text = options.get("se")
        if se_text is not None:
            match = _SE.fullmatch(se_text)
            if match is None:
                raise CommandError(f"GENERATE: se must be a rating or a band such as 7.0-7.5, not {quote(se_text)}")
            if float(match.group(2) or match.group(1)) < float(match.group(1)):
                low, high = match.group(1), match.group(2)
                raise CommandError(f"GENERATE: se band {escape(se_text)} runs backwards; write it {high}-{low}")
            band = (float(match.group(1)), float(match.group(2) or match.group(1)))
            if band[1] < 1.0 or band[0] > 12.0:  # else 10 s of search, then ERROR timeout (break-session finding)
                raise CommandError(
                    f"GENERATE: se {escape(se_text)} lies outside the scale (1.0 to 12.0): no puzzle is rated there"
                )
        if (level or band) and full:
            raise CommandError("GENERATE: full makes a solved grid; level and se do not apply")
        if (level or band) and size != 9:
            raise CommandError("GENERATE: level and se are for 9x9 puzzles (the ratings are 9x9)")
        made = cls(full, size, symmetry, givens, seed, fmt, level, band)
        regions = options.get("regions")
        if "rules" in options or regions is not None:
            made = made.under(rules_option("GENERATE", options).rules, regions)
        return made

    def under(self, rules: Sequence[str], regions: str | None = None) -> Generate:
        """The same request under ``rules`` (``RULES``' default, or ``rules=``), with ``regions=`` if given.

        ``regions``: ``size * size`` region symbols, row-major; they imply
        ``jigsaw``. Raises CommandError: a rule that does not fit the size
        (``GENERATE: rules: windoku needs a 9x9 grid, not 16x16``), regions
        of the wrong length, a rule that takes marks the generator does not
        make (``GENERATE: rules: palindrome marks are not generated
        (GENERATE makes oddeven, thermo, ...)``).
        """
        words = set(rules)
        numbered, symbols = self.variant.regions, self.variant.region_symbols
        if regions is not None:
            ncells = self.size * self.size
            bad = next((k for k, symbol in enumerate(regions) if symbol in "|#,:" or symbol.isspace()), None)
            if bad is not None:  # the jigsaw line it makes would not read back (break-session finding)
                raise CommandError(
                    f"GENERATE: regions: {quote(regions[bad], chr(39))} at {bad + 1} is not a region symbol (region"
                    " symbols are any characters but blanks, | # , and :)"
                )
            if len(regions) != ncells:
                raise CommandError(
                    f"GENERATE: regions must be {ncells} region symbols for size={self.size}, not {len(regions)}"
                )
            order: dict[str, int] = {}
            numbered = tuple(order.setdefault(symbol, len(order)) for symbol in regions)
            symbols = tuple(order)
        if numbered is not None:
            words.add(taking("regions").word)
        variant = Variant(tuple(r for r in RULES if r in words), regions=numbered, region_symbols=symbols)
        if variant.classic:
            variant = CLASSIC
        try:
            check_fits(variant.rules, self.size)
        except CommandError as error:
            raise CommandError(f"GENERATE: {error.detail}") from None
        unmade = [word for word in variant.rules if RULES[word].data == "marks" and RULES[word].making.marks is None]
        if unmade:
            made = ", ".join(rule.word for rule in RULES.values() if rule.making.marks is not None)
            raise CommandError(f"GENERATE: rules: {unmade[0]} marks are not generated (GENERATE makes {made})")
        return dataclasses.replace(self, variant=variant)


@dataclass(frozen=True)
class Rules:
    """``RULES [list]``: the rules of this connection's puzzles from now on (``RULES classic``: the classic rules).

    Attributes:
      rules: the rule words in :data:`~sudoku_server.sudoku.variants.RULES`
        order, without ``classic``; None for ``RULES`` alone, which asks for
        the rules in force (the line router fills them in).
    """

    solver_work: ClassVar[bool] = False
    bulk_able: ClassVar[bool] = False
    inline_able: ClassVar[bool] = False
    health_check: ClassVar[bool] = False
    after_replies: ClassVar[bool] = False
    warm_pooled: ClassVar[bool] = False

    rules: tuple[str, ...] | None = None

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE) -> Rules:
        """Raises CommandError: ``RULES: rules: unknown rule 'foo' (rules are classic, x, ...)``."""
        if "list" not in options:
            return cls()
        try:
            rules = parse_rules(options["list"])
        except CommandError as error:
            raise CommandError(f"RULES: {error.detail.removeprefix('rules: ')}") from None
        return cls(rules)


@dataclass(frozen=True)
class Help:
    """``HELP [verb]``: the verb list, or one verb's usage (``topic`` as typed, or None)."""

    solver_work: ClassVar[bool] = False
    bulk_able: ClassVar[bool] = False
    inline_able: ClassVar[bool] = False
    health_check: ClassVar[bool] = True
    after_replies: ClassVar[bool] = False
    warm_pooled: ClassVar[bool] = False

    topic: str | None = None

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE) -> Help:
        """The topic is checked against the verb table when answered (the table is the wire's)."""
        return cls(options.get("verb"))


@dataclass(frozen=True)
class Version:
    """``VERSION``: the server's name, version, protocol and solver core."""

    solver_work: ClassVar[bool] = False
    bulk_able: ClassVar[bool] = False
    inline_able: ClassVar[bool] = False
    health_check: ClassVar[bool] = True
    after_replies: ClassVar[bool] = False
    warm_pooled: ClassVar[bool] = False

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE) -> Version:
        return cls()


@dataclass(frozen=True)
class Ping:
    """``PING``: health check, answered without the solver."""

    solver_work: ClassVar[bool] = False
    bulk_able: ClassVar[bool] = False
    inline_able: ClassVar[bool] = False
    health_check: ClassVar[bool] = True
    after_replies: ClassVar[bool] = False
    warm_pooled: ClassVar[bool] = False

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE) -> Ping:
        return cls()


@dataclass(frozen=True)
class Quit:
    """``QUIT``: answer what came before, say BYE and close."""

    solver_work: ClassVar[bool] = False
    bulk_able: ClassVar[bool] = False
    inline_able: ClassVar[bool] = False
    health_check: ClassVar[bool] = True
    after_replies: ClassVar[bool] = False
    warm_pooled: ClassVar[bool] = False

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE) -> Quit:
        return cls()


@dataclass(frozen=True)
class Stats:
    """``STATS``: the server's counters."""

    solver_work: ClassVar[bool] = False
    bulk_able: ClassVar[bool] = False
    inline_able: ClassVar[bool] = False
    health_check: ClassVar[bool] = True
    after_replies: ClassVar[bool] = True
    warm_pooled: ClassVar[bool] = False

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE) -> Stats:
        return cls()


@dataclass(frozen=True)
class Interactive:
    """``INTERACTIVE``: keep the session open for a person."""

    solver_work: ClassVar[bool] = False
    bulk_able: ClassVar[bool] = False
    inline_able: ClassVar[bool] = False
    health_check: ClassVar[bool] = False
    after_replies: ClassVar[bool] = False
    warm_pooled: ClassVar[bool] = False

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE) -> Interactive:
        return cls()


@dataclass(frozen=True)
class KeepAlive:
    """``KEEPALIVE``: a program holds this connection between requests (no close grace, not interactive)."""

    solver_work: ClassVar[bool] = False
    bulk_able: ClassVar[bool] = False
    inline_able: ClassVar[bool] = False
    health_check: ClassVar[bool] = False
    after_replies: ClassVar[bool] = False
    warm_pooled: ClassVar[bool] = False

    @classmethod
    def validate(cls, flags: Sequence[str] = (), options: Mapping[str, str] = _NONE) -> KeepAlive:
        return cls()


#: The request types about one puzzle.
PuzzleRequestType = Solve | Count | Candidates | Rate | Hint | HintAll | Steps | Minimal | Canon | Same | Unique
#: Every request type.
Request = (
    Solve
    | Count
    | Candidates
    | Rate
    | Hint
    | HintAll
    | Steps
    | Minimal
    | Canon
    | Same
    | Unique
    | Generate
    | Help
    | Version
    | Ping
    | Quit
    | Stats
    | Interactive
    | KeepAlive
    | Rules
)
