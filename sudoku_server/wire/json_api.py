"""The JSON API, version 1 (docs/HTTP.md): fields in, typed requests out; typed results in, JSON objects out.

Pure: no I/O, no trio. The HTTP front (:mod:`sudoku_server.net.http`) reads a
request's fields (a JSON body, or the query string of a ``GET``), asks
:func:`read_fields` for typed requests (:mod:`sudoku_server.service.requests`,
through each type's one ``validate``, so the words of every error are the line
protocol's), has them answered by the same service and scheduler as the line
protocol, and sends what :func:`render` / :func:`error_reply` make of the
results: ``(status, object)``.

:data:`ENDPOINTS`, the endpoint table (one row per verb: its fields, renderer and reply schema), is in
:mod:`sudoku_server.wire.json_endpoints`, re-exported here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sudoku_server.errors import (
    CommandError,
    PuzzleError,
    quote,
)
from sudoku_server.service.answer import rules_named
from sudoku_server.service.requests import Request, Solve
from sudoku_server.service.results import Failed, Result
from sudoku_server.sudoku.grid import Grid
from sudoku_server.text import Puzzle, parse
from sudoku_server.wire.json_body import MAX_DIGITS, read_body
from sudoku_server.wire.json_endpoints import ENDPOINTS, Endpoint, Field
from sudoku_server.wire.json_errors import RETRY_STATUSES, STATUS, draining_error, error_object, error_reply, status_of
from sudoku_server.wire.splitter import variant_request

#: Puzzles in one batch request (``{"puzzles": [...]}``) at most; more is ``400 command``.
MAX_BATCH = 1000
#: Bytes of a request body at most (``--http-max-body``'s default, 1 MiB); more is ``413 too-large``.
DEFAULT_MAX_BODY = 1024 * 1024
#: The API's path prefix.
PREFIX = "/api/v1/"

#: Query-string words read as a true / false boolean (``?any``, ``?any=1``, ``?nudge=true``).
TRUE_WORDS = frozenset({"", "1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})
#: A plain one-line 9x9 puzzle (as ``text.reader``'s plain lines, and the native core's ``solve_lines``).
PLAIN = re.compile(r"[0-9._]{81}")


# -- reading a request --------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    """One request of an API call (a batch has several): the typed request and its puzzle, or the error it got.

    ``request`` is None when ``error`` is set (the puzzle's text is not a puzzle; or, with ``puzzle`` set, its
    rules do not fit it). ``plain``: the text of a plain one-line 9x9 puzzle to solve (81 of ``1-9 0 . _``),
    not parsed yet (``request`` then holds no grid and ``puzzle`` is None): the front solves it text to text in
    the native core, or has :func:`parsed` make the usual item of it.
    """

    request: Request | None
    puzzle: Puzzle | None = None
    error: PuzzleError | None = None
    plain: str | None = None


def parsed(item: Item) -> Item:
    """The item of a ``plain`` item read by the text layer (its request with the grid, or its error)."""
    if item.plain is None:
        return item
    assert isinstance(item.request, Solve)
    try:
        puzzle = parse(item.plain)
    except PuzzleError as error:
        return Item(None, None, error)
    return Item(item.request.on(puzzle.grid, puzzle.expected), puzzle)


def plain_solved(solution: str) -> bytes:
    """The JSON of a plain one-line puzzle's solution (``solution``: its 81 digits), as :func:`render` gives it."""
    return b'{"solution":"%s","text":"%s\\n"}' % (solution.encode("ascii"), solution.encode("ascii"))


@dataclass(frozen=True)
class Call:
    """What :func:`read_fields` read: the items, in order, and whether it was the batch form."""

    items: tuple[Item, ...]
    batch: bool = False


def _text(value: object) -> str:
    """A non-boolean option's value as the line protocol's word (a JSON number or a string)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise TypeError
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def read_fields(endpoint: Endpoint, fields: Mapping[str, object], *, query: bool = False) -> Call:
    """The typed requests of one API call.

    Args:
      endpoint: the row of :data:`ENDPOINTS`.
      fields: the JSON body's object, or the query string's parameters (each a string).
      query: the fields came from a query string (booleans as words: :data:`TRUE_WORDS`, :data:`FALSE_WORDS`).

    Returns:
      A :class:`Call`; a puzzle whose text is not a puzzle is an :class:`Item` with its error (format,
      incomplete, invalid; a ``rules`` that does not fit it, or jigsaw or killer rules without regions
      or cages: the line protocol's words), answered in its place; so is an item of a batch that is no string
      (command: ``SOLVE: puzzles[1] must be a string of its text, not 5``, its 0-based index in ``puzzles``). Each puzzle is read under the request's
      ``rules`` (a grid of regions after a jigsaw grid, a cage block), and its layout's rules (jigsaw and
      SudoCue lines, cage blocks, pencilmarks) join them (:func:`~sudoku_server.wire.splitter.variant_request`).

    Raises:
      CommandError: an unknown field, a value of the wrong type (``puzzle`` not a string), a missing puzzle,
        a batch over :data:`MAX_BATCH`, or a bad option (the line protocol's words: ``COUNT: limit must be 1 to 1000, not 0``,
        ``SOLVE: rules: unknown rule 'foo' (rules are classic, x, ...)``).
      PuzzleError: the endpoint's second puzzle (``other``) is not a puzzle (its error, as for a puzzle), or is one
        under other rules than classic (``SAME: classic rules only, not thermo``).
    """
    verb = endpoint.line_verb
    flags: list[str] = []
    options: dict[str, str] = {}
    puzzles: list[object] | None = None
    second: object = None
    batch = False
    integers = {field.name for field in endpoint.fields if field.type == "integer"}
    if verb.takes_puzzle and "puzzle" in fields and "puzzles" in fields:
        raise CommandError(f'{verb.name}: send "puzzle" (one) or "puzzles" (a list), not both')
    for key, value in fields.items():
        if endpoint.second and key == endpoint.second:
            second = value
            continue
        if verb.takes_puzzle and key == "puzzle":
            puzzles = [value]
            continue
        if verb.takes_puzzle and key == "fpuzzles":  # an f-puzzles object: read as its JSON line (text/fpuzzles.py)
            if not isinstance(value, dict) or puzzles is not None or "puzzle" in fields or "puzzles" in fields:
                what = "an f-puzzles object" if not isinstance(value, dict) else 'sent instead of "puzzle", not with it'
                raise CommandError(f"{verb.name}: fpuzzles must be {what}")
            puzzles = [json.dumps(value)]
            continue
        if verb.takes_puzzle and key == "puzzles" and query:
            raise CommandError(f'{verb.name}: "puzzles" (a batch) is POST only; a GET takes one "puzzle"')
        if verb.takes_puzzle and key == "puzzles":
            if not isinstance(value, list):
                raise CommandError(f"{verb.name}: puzzles must be a list of puzzles (strings)")
            if len(value) > MAX_BATCH:
                raise CommandError(f"{verb.name}: at most {MAX_BATCH} puzzles in one request, not {len(value)}")
            puzzles, batch = value, True
            continue
        if key in verb.flags:
            if query and isinstance(value, str) and value.lower() in TRUE_WORDS | FALSE_WORDS:
                value = value.lower() in TRUE_WORDS
            if not isinstance(value, bool):
                raise CommandError(f"{verb.name}: {key} must be true or false, not {_shown(value)}")
            if value:
                flags.append(key)
            continue
        if key in verb.options:
            try:
                options[key] = _text(value)
            except TypeError:
                raise CommandError(f"{verb.name}: {key} must be a number or a string, not {_shown(value)}") from None
            digits = len(options[key].lstrip("+-"))
            if digits > MAX_DIGITS and key in integers:  # int() of over 4,300 digits raises ValueError
                raise CommandError(f"{verb.name}: {key} must have at most {MAX_DIGITS} digits, not {digits}")
            continue
        raise CommandError(f"{verb.name}: unknown field {quote(key)}; {fields_help(endpoint)}")
    request = verb.request.validate(tuple(flags), options)
    if not verb.takes_puzzle:
        return Call((Item(request),))
    if puzzles is None:
        raise CommandError(
            f'{verb.name}: no puzzle: send {{"puzzle": "<text>"}}, {{"puzzles": [...]}} or {{"fpuzzles": {{...}}}}'
        )
    rules: tuple[str, ...] = request.variant.rules
    other = _second(endpoint, second) if endpoint.second else None
    items = []
    plain_ok = isinstance(request, Solve) and request.bulk_able
    for index, value in enumerate(puzzles):
        if not isinstance(value, str) and batch:  # answered in its place, as a puzzle that is not one
            error = CommandError(f"{verb.name}: puzzles[{index}] must be a string of its text, not {_shown(value)}")
            items.append(Item(None, None, error))
            continue
        if not isinstance(value, str):
            raise CommandError(f"{verb.name}: a puzzle must be a string of its text, not {_shown(value)}")
        if plain_ok and len(value) == 81 and PLAIN.fullmatch(value):
            items.append(Item(request, plain=value))
            continue
        try:
            puzzle = parse(value, rules)
        except PuzzleError as error:
            items.append(Item(None, None, error))
            continue
        one = request.on(puzzle.grid, puzzle.expected)
        if other is not None:
            one = one.on(other)
        if rules or puzzle.variant is not None:
            try:
                one = variant_request(puzzle, one, rules)
            except PuzzleError as error:
                items.append(Item(None, puzzle, error))
                continue
        items.append(Item(one, puzzle))
    return Call(tuple(items), batch)


def fields_help(endpoint: Endpoint) -> str:
    """Where an HTTP client finds an endpoint's fields (the line protocol's errors say ``try HELP <verb>``)."""
    names = [field.name for field in endpoint.fields] + (
        ["puzzle", "puzzles", "fpuzzles"] if endpoint.takes_puzzle else []
    )
    return f"the fields of {PREFIX}{endpoint.name} are {', '.join(names) or 'none'}"


def _second(endpoint: Endpoint, value: object) -> Grid:
    """The grid of the endpoint's second puzzle (``same``'s ``other``: each puzzle is compared with it, as
    ``SAME <puzzle> <other>``: the map takes the puzzle onto it).

    Raises:
      CommandError: it is missing or not a string, or it is under other rules than classic.
      PuzzleError: its text is not a puzzle (the puzzle's error).
    """
    verb, name = endpoint.verb, endpoint.second
    if value is None:
        raise CommandError(f'{verb}: no {name} puzzle: send {{"puzzle": "<text>", "{name}": "<text>"}}')
    if not isinstance(value, str):
        raise CommandError(f"{verb}: {name} must be a string of its text, not {_shown(value)}")
    try:
        other = parse(value)
    except PuzzleError as error:  # named: the same words as the puzzle's would not say which text is wrong
        raise type(error)(f"{name}: {error.detail}") from None
    if other.variant is not None and not other.variant.classic:  # as SAME <puzzle> <other> on a line (answer)
        raise CommandError(f"{verb}: classic rules only, not {rules_named(other.variant)}")
    return other.grid


def _shown(value: object) -> str:
    """A JSON value in an error's words: its JSON text, escaped (at most 40 characters)."""
    text = json.dumps(value, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."


def render(endpoint: Endpoint, result: Result, puzzle: Puzzle | None) -> tuple[int, dict[str, Any]]:
    """``(status, object)`` of one result: 200 and the endpoint's reply object, or an error's (:func:`error_reply`)."""
    if isinstance(result, Failed):
        return error_reply(result.error, puzzle)
    try:
        return 200, endpoint.render(result, puzzle)
    except CommandError as error:  # format=fpuzzles of a rule f-puzzles cannot write
        return error_reply(error, puzzle)


def batch_reply(replies: list[tuple[int, dict[str, Any]]]) -> tuple[int, dict[str, Any]]:
    """The reply of a batch: 200 and ``{"results": [...]}``, each item a reply object or ``{"error": {...}}``."""
    return 200, {"results": [body for _, body in replies]}


def dumps(value: object) -> bytes:
    """The JSON bytes of a reply (UTF-8, compact)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogateescape")


__all__ = [
    "DEFAULT_MAX_BODY",
    "ENDPOINTS",
    "MAX_BATCH",
    "PREFIX",
    "RETRY_STATUSES",
    "STATUS",
    "Call",
    "Endpoint",
    "Field",
    "Item",
    "draining_error",
    "error_object",
    "error_reply",
    "read_body",
    "read_fields",
    "render",
    "status_of",
]
