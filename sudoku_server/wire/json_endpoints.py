"""The JSON API's endpoint table (docs/HTTP.md): one row per verb, with its fields, renderer and reply schema.

Pure: no I/O, no trio. :data:`ENDPOINTS` is the table, one row per verb: its path
(``/api/v1/<name>``), its line-protocol verb (whose flags and options are the
JSON fields), the fields' JSON types, whether it takes a puzzle (and so a batch
``{"puzzles": [...]}``), and its result's renderer and schema
(:mod:`sudoku_server.wire.openapi` builds the OpenAPI document from it). A new
verb is one more row (the schema pieces rows share are in
:mod:`sudoku_server.wire.json_schemas`). :mod:`sudoku_server.wire.json_api` reads
requests against a row and renders results with it (and re-exports the table).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sudoku_server.service.results import (
    CandidatesFound,
    Canonized,
    Compared,
    Counted,
    Generated,
    MinimalChecked,
    Rated,
    Solved,
    Stepped,
    UniqueChecked,
)
from sudoku_server.sudoku import rules as _rules
from sudoku_server.sudoku.grid import DIGIT_SYMBOLS, Grid, cell_name
from sudoku_server.sudoku.variants import CLASSIC
from sudoku_server.text import Puzzle, bordered_lines, fpuzzles
from sudoku_server.wire.json_hint_all import ALL_SCHEMA, hint_reply
from sudoku_server.wire.json_parse import PARSE_SCHEMA, PARSE_SUMMARY, parse_object
from sudoku_server.wire.json_schemas import (
    CAGE,
    CAGES_DESCRIPTION,
    CELLS,
    MAP,
    PLACEMENT,
    RATING_PROPERTIES,
    STEP_SCHEMA,
    cage_object,
    mark_object,
    nullable,
)
from sudoku_server.wire.replies import candidates_line, technique_word, variant_puzzle_lines
from sudoku_server.wire.verbs import VERBS, Verb

if TYPE_CHECKING:
    from sudoku_server.sudoku.canon import Transformation
    from sudoku_server.sudoku.rating import Rating
    from sudoku_server.sudoku.techniques import Step


@dataclass(frozen=True)
class Field:
    """One JSON field of an endpoint: its name, JSON type (``string``, ``integer``, ``boolean``) and words."""

    name: str
    type: str
    description: str


@dataclass(frozen=True)
class Endpoint:
    """One row of :data:`ENDPOINTS`: a verb of the line protocol as ``/api/v1/<name>``.

    Attributes:
      name: the path's last part (``solve``).
      verb: the line protocol's verb (``SOLVE``): its flags are the boolean fields,
        its options the others, its request type builds the request.
      fields: the JSON fields besides ``puzzle``/``puzzles``, in the verb's order.
      summary: one line for the OpenAPI document.
      render: ``(result, puzzle) -> object``: the reply object of a result that is not an error.
      schema: the JSON schema of that reply object (:mod:`sudoku_server.wire.openapi`).
      second: the field of a second puzzle (``other`` of ``same``: compared with each puzzle), or "".
      direct: rendered from the typed request, without the solver (``parse``: :mod:`.json_parse`).
    """

    name: str
    verb: str
    fields: tuple[Field, ...]
    summary: str
    render: Callable[[Any, Puzzle | None], dict[str, Any]]
    schema: dict[str, Any]
    second: str = ""
    direct: bool = False

    @property
    def line_verb(self) -> Verb:
        return VERBS[self.verb]

    @property
    def takes_puzzle(self) -> bool:
        return self.line_verb.takes_puzzle


# -- rendering a result ---------------------------------------------------------------


def _symbols(puzzle: Puzzle | None, grid: Grid) -> str:
    if puzzle is not None and puzzle.grid.symbols:
        return puzzle.grid.symbols
    return grid.symbols or DIGIT_SYMBOLS


def one_line(grid: Grid, puzzle: Puzzle | None = None) -> str:
    """The grid as one line of ``size * size`` symbols (the puzzle's own symbols), ``.`` for an empty cell."""
    symbols = _symbols(puzzle, grid)
    return "".join(symbols[v - 1] if v else "." for v in grid.cells)


def _solved(result: Solved, puzzle: Puzzle | None) -> dict[str, Any]:
    assert puzzle is not None
    reply: dict[str, Any] = {"solution": one_line(result.solution, puzzle), "text": puzzle.render(result.solution)}
    if result.format != "line" and result.givens is not None:
        data = fpuzzles.write(result.givens, result.variant or CLASSIC, result.solution)
        reply["fpuzzles" if result.format == "fpuzzles" else "link"] = (
            data if result.format == "fpuzzles" else fpuzzles.link(data)
        )
    return reply


def _candidates(result: CandidatesFound, puzzle: Puzzle | None) -> dict[str, Any]:
    """Per cell (row-major) its candidates in the grid's symbols, and the line port's pencilmark line."""
    symbols, size = result.puzzle.symbols or DIGIT_SYMBOLS, result.puzzle.size
    cells = ["".join(symbols[k] for k in range(size) if mask >> k & 1) for mask in result.masks]
    return {"candidates": cells, "pencilmarks": candidates_line(result)}


def _counted(result: Counted, puzzle: Puzzle | None) -> dict[str, Any]:
    return {
        "count": result.count,
        "limit": result.limit,
        "at_least": result.count >= result.limit,  # the line's "+": counting stopped at the limit
        "unique": result.count == 1 and result.limit > 1,
    }


def _rating(rating: Rating) -> dict[str, Any]:
    return {
        "level": rating.level,
        "se": rating.se,
        "qqwing": rating.qqwing,
        "hardest": rating.hardest.technique if rating.hardest is not None else None,
        "method": technique_word(rating.method),
        "rules": rating.rules,
        "notes": list(rating.notes),
        "hodoku": _hodoku(rating.hodoku),
    }


def _hodoku(field: str | None) -> dict[str, Any] | None:
    """RATE's ``hodoku=<level>:<score>[+]`` as ``{"level", "score", "complete"}`` (None off classic 9x9)."""
    if field is None:
        return None
    level, _, score = field.partition(":")
    return {"level": level, "score": int(score.rstrip("+")), "complete": not score.endswith("+")}


def _generated(result: Generated, puzzle: Puzzle | None) -> dict[str, Any]:
    """The made puzzle; with rules, ``rules`` names them and a jigsaw's ``regions`` (``N * N`` symbols, as the
    ``regions`` field takes them) or a killer's ``cages`` come with it, and ``text`` is the puzzle as GENERATE
    writes it (the 2·N² line of a jigsaw, the cage block of a killer), which ``solve`` reads back."""
    made, rating = result.made, result.rating
    variant = made.variant
    n = made.puzzle.size
    if (variant.regions is not None) + bool(variant.cages) + bool(variant.marks) >= 2:  # no text layout together
        text = fpuzzles.answer_text(made.puzzle, variant, None, "fpuzzles") + "\n"
    elif variant.regions is not None or variant.cages:
        text = "".join(line + "\n" for line in variant_puzzle_lines(made.puzzle, variant, result.format))
    elif variant.marks:
        text = fpuzzles.marks_text(made.puzzle, variant) + "\n"
    else:
        text = "".join(line + "\n" for line in bordered_lines(made.puzzle))
    regions = None
    if variant.regions is not None:
        names = variant.region_symbols or DIGIT_SYMBOLS
        regions = "".join(names[k] for k in variant.regions)
    cages = [cage_object(cage, n) for cage in variant.cages]
    reply: dict[str, Any] = {
        "puzzle": one_line(made.puzzle),
        "text": text,
        "size": made.size,
        "seed": str(made.seed),  # a string: a JSON number above 2**53 loses digits in a browser (a double)
        "givens": made.givens,
        "symmetry": made.symmetry,
        "minimal": made.minimal,
        "full": result.full,
        "level": rating.level if rating is not None else None,
        "se": rating.se if rating is not None else None,
        "rules": variant.words,
        "regions": regions,
        "cages": cages if variant.cages else None,
        "marks": [mark_object(m, n) for m in variant.marks] or None,
    }
    if result.format in ("fpuzzles", "link"):  # as solve's: the f-puzzles object, or its link, beside the rest
        data = fpuzzles.write(made.puzzle, variant, None)
        reply[result.format] = data if result.format == "fpuzzles" else fpuzzles.link(data)
    return reply


def _rated(result: Rated, puzzle: Puzzle | None) -> dict[str, Any]:
    return _rating(result.rating)


def step_object(step: Step, *, nudge: bool = False) -> dict[str, Any]:
    """A step as JSON: technique, words, SE rating, and the cells lit (placements, eliminations, pattern cells).

    ``nudge``: only the technique and where to look (``focus``): no placement, elimination or cell.
    """
    n = step.size
    if nudge:
        return {
            "technique": step.technique,
            "text": step.nudge(),
            "se": step.se,
            "focus": step.focus or None,
            "placements": [],
            "eliminations": [],
            "cells": [],
        }
    return {
        "technique": step.technique,
        "text": step.describe(),
        "se": step.se,
        "focus": step.focus or None,
        "placements": [{"cell": cell_name(c, n), "digit": d} for c, d in step.placements],
        "eliminations": [{"cell": cell_name(c, n), "digit": d} for c, d in step.eliminations],
        "cells": [cell_name(c, n) for c in step.cells],
    }


def _stepped(result: Stepped, puzzle: Puzzle | None) -> dict[str, Any]:
    return {"steps": [step_object(step) for step in result.steps], **_rating(result.rating)}


def _map(transformation: Transformation) -> dict[str, Any]:
    """A transformation as JSON: ``{"transpose": false, "rows": "123456789", "cols": ..., "digits": ...}``
    (docs/PROTOCOL.md "CANON": 1-based row and column orders; ``digits``: what 1, 2, ... become)."""
    return {"transpose": transformation.transpose, **transformation.words()}


def _canonized(result: Canonized, puzzle: Puzzle | None) -> dict[str, Any]:
    return {"canon": result.form.text(), "map": _map(result.form.transformation) if result.map else None}


def _compared(result: Compared, puzzle: Puzzle | None) -> dict[str, Any]:
    found = result.transformation
    return {"same": found is not None, "map": _map(found) if found is not None else None}


def _unique(result: UniqueChecked, puzzle: Puzzle | None) -> dict[str, Any]:
    found, size = result.uniqueness, result.size
    out: dict[str, Any] = {
        "unique": found is not None and found.unique,
        "solutions": [],
        "differ": [],
        "add": [],
        "add_all": False,
        "unsolvable": result.unsolvable,
    }
    if found is not None and not found.unique:
        symbols = result.symbols or DIGIT_SYMBOLS
        out["solutions"] = ["".join(symbols[d - 1] for d in found.first), "".join(symbols[d - 1] for d in found.last)]
        out["differ"] = [cell_name(cell, size) for cell in found.differ]
        out["add"] = [{"cell": cell_name(cell, size), "digit": digit} for cell, digit in found.add]
        out["add_all"] = found.add_all
    return out


def _minimal(result: MinimalChecked, puzzle: Puzzle | None) -> dict[str, Any]:
    return {"minimal": not result.redundant, "redundant": [cell_name(cell, result.size) for cell in result.redundant]}


# -- schemas and the table -------------------------------------------------------------------


_REG = _rules.taking("regions").word  # the rule that takes regions (regions= implies it)
#: The ``rules`` field of the verbs that take the line protocol's ``rules=`` (docs/PROTOCOL.md "RULES").
_RULES = Field(
    "rules",
    "string",
    f"variant rules, a +-joined list of {_rules.listed()} (default classic);"
    f" {', '.join(rule.word for rule in _rules.with_data())} and pencilmark layouts imply theirs",
)

#: THE endpoint table: name -> row (module docstring). Rows are added for new verbs.
ENDPOINTS: dict[str, Endpoint] = {
    endpoint.name: endpoint
    for endpoint in (
        Endpoint(
            "solve",
            "SOLVE",
            (
                Field("any", "boolean", "answer the first solution found, not the first in row-major order"),
                _RULES,
                Field("format", "string", "line (default), fpuzzles (adds fpuzzles: the filled object) or link"),
            ),
            "Solve a puzzle: its solution as one line and in the puzzle's own layout",
            _solved,
            {
                "type": "object",
                "required": ["solution", "text"],
                "additionalProperties": False,
                "properties": {
                    "solution": {"type": "string"},
                    "text": {"type": "string"},
                    "fpuzzles": {"type": "object"},
                    "link": {"type": "string"},
                },
            },
        ),
        Endpoint(
            "count",
            "COUNT",
            (Field("limit", "integer", "count up to this many solutions (1 to 1000, default 2)"), _RULES),
            "Count a puzzle's solutions up to a limit",
            _counted,
            {
                "type": "object",
                "required": ["count", "limit", "at_least", "unique"],
                "additionalProperties": False,
                "properties": {
                    "count": {"type": "integer", "minimum": 0},
                    "limit": {"type": "integer", "minimum": 1},
                    "at_least": {"type": "boolean", "description": "count == limit: at least that many (COUNT's +)"},
                    "unique": {"type": "boolean", "description": "exactly one solution (never with limit 1)"},
                },
            },
        ),
        Endpoint(
            "candidates",
            "CANDIDATES",
            (_RULES,),
            "The true candidates: every digit each cell takes in some solution",
            _candidates,
            {
                "type": "object",
                "required": ["candidates", "pencilmarks"],
                "additionalProperties": False,
                "properties": {
                    "candidates": {"type": "array", "items": {"type": "string"}},
                    "pencilmarks": {"type": "string"},
                },
            },
        ),
        Endpoint(
            "generate",
            "GENERATE",
            (
                Field("full", "boolean", "a random solved grid instead of a puzzle"),
                Field("size", "integer", "digits per unit: 4, 6, 9, 16 or 25 (default 9)"),
                Field("symmetry", "string", "none, rot180, rot90, mirror, diagonal or random (default none)"),
                Field("givens", "integer", "stop removing givens at this many (0: minimal)"),
                Field("seed", "integer", "0 to 2**64 - 1, digits in a string (exact in a browser) or an integer"),
                Field(
                    "format",
                    "string",
                    "line or grid (the reply has both forms), fpuzzles (adds fpuzzles: the puzzle's f-puzzles object)"
                    " or link (adds link: its f-puzzles link)",
                ),
                Field("level", "string", "easy, medium, hard, expert or extreme (9x9)"),
                Field("se", "string", "a Sudoku Explainer rating or band such as 7.0-7.5 (9x9)"),
                _RULES,
                Field("regions", "string", f"{_REG} regions: size * size region symbols, row-major (implies {_REG})"),
            ),
            "Make a puzzle with one solution",
            _generated,
            {
                "type": "object",
                "required": [
                    "puzzle",
                    "text",
                    "size",
                    "seed",
                    "givens",
                    "symmetry",
                    "minimal",
                    "full",
                    "level",
                    "se",
                    "rules",
                    "regions",
                    "cages",
                    "marks",
                ],
                "additionalProperties": False,
                "properties": {
                    "puzzle": {"type": "string"},
                    "text": {"type": "string"},
                    "size": {"type": "integer"},
                    "seed": {"type": "string", "pattern": "^[0-9]+$"},  # digits: exact in a browser
                    "givens": {"type": "integer", "minimum": 0},
                    "symmetry": {"type": "string"},
                    "minimal": {"type": "boolean"},
                    "full": {"type": "boolean"},
                    "level": nullable("string"),
                    "se": nullable("number"),
                    "rules": {"type": "string", "description": "the rules it follows, as rules= writes them"},
                    "regions": {
                        "type": ["string", "null"],
                        "description": f"{_REG}: the region symbols of the cells, row-major",
                    },
                    "cages": {"type": ["array", "null"], "description": CAGES_DESCRIPTION, "items": CAGE},
                    "marks": {
                        "type": ["array", "null"],
                        "description": "the marks of the rules that take them, as parse gives them",
                        "items": PARSE_SCHEMA["properties"]["marks"]["items"],
                    },
                    "fpuzzles": {"type": "object", "description": "format=fpuzzles: the puzzle as f-puzzles JSON"},
                    "link": {"type": "string", "description": "format=link: the puzzle's f-puzzles link"},
                },
            },
        ),
        Endpoint(
            "rate",
            "RATE",
            (_RULES,),
            "Rate a puzzle: level, Sudoku Explainer rating, QQWing level, hardest technique",
            _rated,
            {
                "type": "object",
                "required": list(RATING_PROPERTIES),
                "additionalProperties": False,
                "properties": RATING_PROPERTIES,
            },
        ),
        Endpoint(
            "hint",
            "HINT",
            (
                Field("nudge", "boolean", "only the technique and where to look"),
                Field("all", "boolean", "all steps"),
                Field("kraken", "boolean", "with all: Kraken fish too (HoDoKu keeps them behind an option; slower)"),
                _RULES,
            ),
            "The next logical step, with its placements and eliminations (all: every step, HoDoKu's codes)",
            hint_reply(step_object),
            {"oneOf": [STEP_SCHEMA, ALL_SCHEMA]},
        ),
        Endpoint(
            "steps",
            "STEPS",
            (_RULES,),
            "Every logical step from the puzzle to its solution, and the puzzle's rating",
            _stepped,
            {
                "type": "object",
                "required": ["steps", *RATING_PROPERTIES],
                "additionalProperties": False,
                "properties": {"steps": {"type": "array", "items": STEP_SCHEMA}, **RATING_PROPERTIES},
            },
        ),
        Endpoint(
            "canon",
            "CANON",
            (Field("map", "boolean", "also the transformation that maps the puzzle onto its form"),),
            "The minlex canonical form of a 4x4, 6x6 or 9x9 puzzle or solved grid",
            _canonized,
            {
                "type": "object",
                "required": ["canon", "map"],
                "additionalProperties": False,
                "properties": {"canon": {"type": "string"}, "map": MAP},
            },
        ),
        Endpoint(
            "same",
            "SAME",
            (Field("other", "string", "the puzzle to compare with (each puzzle of a batch is compared with it)"),),
            "Whether two puzzles are the same up to the validity-preserving transformations, and a map of one onto"
            " the other",
            _compared,
            {
                "type": "object",
                "required": ["same", "map"],
                "additionalProperties": False,
                "properties": {"same": {"type": "boolean"}, "map": MAP},
            },
            second="other",
        ),
        Endpoint("parse", "SOLVE", (_RULES,), PARSE_SUMMARY, parse_object, PARSE_SCHEMA, direct=True),
        Endpoint(
            "unique",
            "UNIQUE",
            (_RULES,),
            "Whether a puzzle has one solution; if not, two solutions, where they differ, and the clues that fix it",
            _unique,
            {
                "type": "object",
                "required": ["unique", "solutions", "differ", "add", "add_all", "unsolvable"],
                "additionalProperties": False,
                "properties": {
                    "unique": {"type": "boolean"},
                    "solutions": {"type": "array", "maxItems": 2, "items": {"type": "string"}},
                    "differ": CELLS,
                    "add": {"type": "array", "items": PLACEMENT},
                    "add_all": {"type": "boolean"},
                    "unsolvable": nullable("string"),
                },
            },
        ),
        Endpoint(
            "minimal",
            "MINIMAL",
            (_RULES,),
            "Whether a puzzle with one solution is minimal: the givens each of which could go alone",
            _minimal,
            {
                "type": "object",
                "required": ["minimal", "redundant"],
                "additionalProperties": False,
                "properties": {"minimal": {"type": "boolean"}, "redundant": CELLS},
            },
        ),
    )
}

__all__ = ["ENDPOINTS", "Endpoint", "Field", "one_line", "step_object"]
