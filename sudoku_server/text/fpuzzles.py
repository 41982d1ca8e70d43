"""f-puzzles puzzles: a line holding an f-puzzles JSON object, or an f-puzzles link (docs/LAYOUTS.md).

f-puzzles (https://f-puzzles.com), SudokuPad and dclamage's SudokuSolver
share variant puzzles as a JSON object, or as a link
``https://f-puzzles.com/?load=<payload>`` whose payload is lz-string's
``compressToBase64`` of that JSON (the PyPI package ``lzstring``, held byte for
byte to the JavaScript ``lz-string`` by tests/unit/test_fpuzzles.py).

Read: ``size``; ``grid`` (rows of cells; a cell's ``value`` is a given when
its ``given`` is true; its ``region``, 0-based, makes a jigsaw); and the rule
keys, found through the registry (each rule's ``formats["f-puzzles"]``): a
rule with no data is on when its keys are all true (``diagonal+`` and
``diagonal-`` together); the cage rule reads ``killercage`` (``cells``,
``value``); a rule that takes marks reads its own keys (``thermometer``,
``arrow``, ...; its ``fpuzzles`` function) and may claim more (kropki claims
``nonconsecutive`` when it has dots, and ``"negative": ["ratio"]``). Keys
that do not change the solution are ignored (:data:`IGNORED`); any other key
is a rule we do not have: ``ERROR command`` naming it. Values may be strings.

The answer is one line of the grid's digits (the puzzle's template is its
givens as one line). A line holding one may be up to :data:`MAX_LINE_BYTES`.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping
from urllib.parse import unquote

import lzstring  # type: ignore[import-untyped]

from sudoku_server.errors import CommandError, PuzzleError, PuzzleFormatError, quote
from sudoku_server.sudoku.grid import BOX_SHAPES, DIGIT_SYMBOLS, Grid
from sudoku_server.sudoku.rules import RULES, Cage, Variant, canonical, taking
from sudoku_server.sudoku.rules.base import Mark
from sudoku_server.text.puzzle import LAYOUT_LINE, Positions, Puzzle, Rejected
from sudoku_server.text.sizes import LINE_SIZES, listed
from sudoku_server.text.view import mostly_wide

__all__ = [
    "IGNORED",
    "LINK",
    "MAX_LINE_BYTES",
    "answer_text",
    "compress",
    "decode_link",
    "decompress",
    "is_fpuzzles",
    "link",
    "marks_text",
    "read",
    "read_object",
    "write",
]

#: The link prefix; ``?load=`` carries lz-string ``compressToBase64`` of the JSON.
LINK = "https://f-puzzles.com/?load="

#: The longest line an f-puzzles object or link may take, in bytes (64 KiB).
MAX_LINE_BYTES = 64 * 1024

#: f-puzzles keys that do not change the solution (drawings, metadata, solver settings).
IGNORED = frozenset(
    {
        "size", "grid", "negative", "title", "author", "ruleset", "solution", "highlightConflicts",
        "line", "circle", "text", "rectangle", "cage", "disabledlogic", "truecandidatesoptions",
        "cellSize", "version", "edgeLength", "Bi", "unique", "activeConstraints",
    }
)  # fmt: skip


#: How a link to an f-puzzles puzzle starts: f-puzzles' own (``?load=<payload>`` follows), or SudokuPad's
#: (``sudokupad.app/fpuzzles<payload>``, also ``?puzzleid=fpuzzles<payload>``), the scheme and ``www.`` optional.
_LINK_START = re.compile(
    r"(?:https?://)?(?:www\.)?(?:f-puzzles\.com/\?|sudokupad\.app/(?:\?puzzleid=)?fpuzzles)", re.I | re.A
)
#: A comment after a link (base64 holds no ``#``).
_LINK_COMMENT = re.compile(r"\s+#.*$", re.S)


#: Any SudokuPad link: one that is no f-puzzles link (a short link ``sudokupad.app/<id>``, an ``scl`` one) is
#: refused with what to send instead.
_SUDOKUPAD = re.compile(r"(?:https?://)?(?:www\.)?sudokupad\.app/", re.I | re.A)


def _as_link(text: str) -> str | None:
    """``text`` (stripped) as a link this reader takes, percent-decoded when it was sent percent-encoded whole
    (``https:%2F%2Ff-puzzles.com%2F%3Fload%3D...``, as a chat or browser may copy it); None: no such link."""
    if _LINK_START.match(text) is not None or _SUDOKUPAD.match(text) is not None:
        return text
    if "%" in text and text[:4].lower() == "http":
        unquoted = unquote(text)
        if _LINK_START.match(unquoted) is not None:
            return unquoted
    return None


def is_fpuzzles(text: str) -> bool:
    """Whether ``text`` (one line) is meant as an f-puzzles object or link (f-puzzles' or SudokuPad's, also
    percent-encoded whole), or is a SudokuPad link of another kind (refused by :func:`decode_link`)."""
    s = text.strip()
    return s.startswith("{") or _as_link(s) is not None


def _units(text: str) -> str:
    """``text`` as JavaScript sees it: one character per UTF-16 code unit (a pair for U+10000 and above)."""
    data = text.encode("utf-16-le", "surrogatepass")
    return "".join(chr(data[i] | data[i + 1] << 8) for i in range(0, len(data), 2))


def _joined(units: str) -> str:
    """Back from UTF-16 code units to characters (a lone surrogate stays)."""
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def compress(text: str) -> str:
    """lz-string ``compressToBase64`` of ``text``, as the JavaScript lz-string computes it (on UTF-16 code units)."""
    return str(lzstring.LZString().compressToBase64(_units(text)))


_BASE64 = {ch: k for k, ch in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")}


def decompressed_length(payload: str, most: int) -> int | None:
    """The length of lz-string ``decompressFromBase64(payload)`` (UTF-16 units), without building it: None when it
    would pass ``most``, or the payload is not lz-string base64 (the package's reading, bit for bit, with each
    dictionary entry's length in place of its text).

    An 18 KB link can hold 40 MB of text (each code may repeat the whole text before it): a link is measured with
    this before it is decompressed, so a link's cost is bounded by its own length.
    """
    data = [_BASE64.get(ch, -1) for ch in payload]
    if not data or -1 in data:
        return None
    value, position, index = data[0], 32, 1

    def read(count: int) -> int:
        nonlocal value, position, index
        bits = 0
        for k in range(count):
            if value & position:
                bits |= 1 << k
            position >>= 1
            if position == 0:
                if index >= len(data):
                    raise IndexError
                position, value, index = 32, data[index], index + 1
        return bits

    try:
        first = read(2)
        if first == 2:
            return 0
        read(8 if first == 0 else 16)
        lengths = [0, 0, 0, 1]  # codes 0-2 are controls; code 3 the first character
        w, total, enlarge, width = 1, 1, 4, 3
        while True:
            if index > len(data):
                return 0
            code = read(width)
            if code == 2:
                return total
            if code in (0, 1):
                read(8 if code == 0 else 16)
                lengths.append(1)
                code = len(lengths) - 1
                enlarge -= 1
            if enlarge == 0:
                enlarge, width = 1 << width, width + 1
            if code < len(lengths):
                entry = lengths[code]
            elif code == len(lengths):
                entry = w + 1
            else:
                return None
            total += entry
            if total > most:
                return None
            lengths.append(w + 1)
            enlarge -= 1
            w = entry
            if enlarge == 0:
                enlarge, width = 1 << width, width + 1
    except IndexError:
        return None


def decompress(payload: str) -> str | None:
    """lz-string ``decompressFromBase64`` of ``payload``; None (or "") when it is not lz-string base64, or would be
    longer than an f-puzzles line (:data:`MAX_LINE_BYTES` characters: :func:`decompressed_length`)."""
    if decompressed_length(payload, MAX_LINE_BYTES) is None:
        return None
    return _decompress(payload)


def _decompress(payload: str) -> str | None:
    try:
        decoded = lzstring.LZString().decompressFromBase64(payload)
    except Exception:  # the package raises what its arithmetic meets on foreign input
        return None
    return None if decoded is None else _joined(str(decoded))


def link(data: Mapping[str, object]) -> str:
    """The f-puzzles link of an f-puzzles object (compact JSON, as f-puzzles writes it)."""
    return LINK + compress(json.dumps(data, separators=(",", ":"), ensure_ascii=False))


def decode_link(text: str) -> str:
    """The JSON text of an f-puzzles link (its ``load=`` payload, or what follows SudokuPad's ``fpuzzles``,
    URL-unquoted, lz-string decompressed; a trailing ``# comment`` is left out).

    Raises:
      PuzzleFormatError: no ``load=`` payload, one that does not decompress, or one that would decompress to
        more than an f-puzzles line (:data:`MAX_LINE_BYTES` characters); a SudokuPad link that is no f-puzzles
        link (a short link, ``https://sudokupad.app/psxnwbfa3d``).
    """
    link = _LINK_COMMENT.sub("", text.strip())  # a one-line puzzle's trailing comment (break-session finding)
    link = _as_link(link) or link
    words = link.split()
    if len(words) > 1 and _payload_text(words[0]):  # the link is whole before its first blank: the rest is junk
        raise PuzzleFormatError(f"fpuzzles: {quote(words[1][:24])} follows the link (only a # comment may)")
    return _decoded_link(link)


def _payload_text(link: str) -> str:
    """The JSON text of a link's payload (a blank in it read as the ``+`` it stood for), or ``""``."""
    try:
        return _decoded_link(link)
    except PuzzleFormatError:
        return ""


def _decoded_link(link: str) -> str:
    """:func:`decode_link` of a link without its comment. Raises PuzzleFormatError as it."""
    start = _LINK_START.match(link)
    if start is None and _SUDOKUPAD.match(link) is not None:
        raise PuzzleFormatError(
            "fpuzzles: a SudokuPad link that holds no f-puzzles puzzle (a short link names a puzzle kept on"
            " SudokuPad's server, which this server does not fetch); send its f-puzzles link"
            " (https://sudokupad.app/fpuzzles..., https://f-puzzles.com/?load=...), its f-puzzles object, or its givens"
        )
    if start is not None and "sudokupad" in start.group().lower():  # SudokuPad: the payload follows at once
        found, payload = "fpuzzles", link[start.end() :]
    else:
        _, found, payload = link.partition("load=")
    payload = unquote(payload.split("&")[0]).replace(" ", "+")
    if not found or not payload:
        raise PuzzleFormatError("fpuzzles: the link has no load= payload")
    length = decompressed_length(payload, 1 << 62)
    if length is not None and length > MAX_LINE_BYTES:
        raise PuzzleFormatError(f"fpuzzles: the link's payload holds {length} characters, over {MAX_LINE_BYTES}")
    decoded = _decompress(payload) if length is not None else None
    if not decoded:
        raise PuzzleFormatError("fpuzzles: the link's payload is not lz-string base64")
    return decoded


def _int(value: object, what: str) -> int:
    """A whole number of the object (it may be a string, ``"9"``; the caller checks its range).

    Raises PuzzleFormatError naming ``what`` and the value as JSON spells it (``size 9.0 is not a whole number``),
    or ``size is missing``.
    """
    if value is None:
        raise PuzzleFormatError(f"fpuzzles: {what} is missing")
    text = str(value).strip()
    if isinstance(value, bool) or not isinstance(value, (int, str)) or not text.lstrip("-").isdigit():
        shown = quote(value) if isinstance(value, str) else json.dumps(value)[:40]
        raise PuzzleFormatError(f"fpuzzles: {what} {shown} is not a whole number")
    if len(text) > 9:
        raise PuzzleFormatError(f"fpuzzles: {what} {text[:12]}... is too large")
    return int(text)


def _on(value: object) -> bool:
    """Whether a rule key's value turns its rule on: not ``null``, ``false``, empty, nor the string ``"false"``
    (values may be strings: ``"diagonal-": "false"`` is off)."""
    if isinstance(value, str):
        return value.strip().lower() not in ("", "false", "0")
    return bool(value)


def _boxes(size: int, box_rows: int, box_cols: int) -> list[int]:
    """Each cell's box (row-major, 0-based) in a grid of ``size`` digits with boxes ``box_rows x box_cols``."""
    return [(k // size // box_rows) * (size // box_cols) + k % size // box_cols for k in range(size * size)]


def _numbered(regions: list[int]) -> list[int]:
    """``regions`` renumbered in the order their cells come (row-major): equal for the same partition."""
    order: dict[int, int] = {}
    return [order.setdefault(r, len(order)) for r in regions]


def read_object(data: Mapping[str, object]) -> tuple[Grid, Variant]:
    """The givens and the rules of an f-puzzles object.

    Raises:
      PuzzleFormatError: a missing or malformed ``size``, ``grid`` or entry
        (``fpuzzles: "arrow" entry 3 has no lines``).
      CommandError: a rule key we do not implement (``fpuzzles: rule
        "sandwichsum" is not implemented here``).
    """
    size = _int(data.get("size"), "size")
    if size not in BOX_SHAPES:
        raise PuzzleFormatError(f"fpuzzles: size {size} is not one of {', '.join(map(str, sorted(BOX_SHAPES)))}")
    box_rows, box_cols = BOX_SHAPES[size]
    rows = data.get("grid")
    if not isinstance(rows, list) or len(rows) != size or not all(isinstance(r, list) and len(r) == size for r in rows):
        raise PuzzleFormatError(f"fpuzzles: grid is not {size} rows of {size} cells")
    cells = [0] * (size * size)
    regions: list[int] = []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if not isinstance(cell, dict):
                raise PuzzleFormatError(f"fpuzzles: grid r{r + 1}c{c + 1} is not an object")
            if _on(cell.get("given")) and cell.get("value") not in (None, ""):  # "given": "false" is not one
                d = _int(cell["value"], f"grid r{r + 1}c{c + 1} value")
                if not 1 <= d <= size:
                    raise PuzzleFormatError(f"fpuzzles: grid r{r + 1}c{c + 1} value {d} is not a digit 1-{size}")
                cells[r * size + c] = d
            region = cell.get("region")
            regions.append(
                (r // box_rows) * (size // box_cols) + c // box_cols if region is None else _int(region, "region")
            )
    words: list[str] = []
    marks: list[Mark] = []
    claimed: set[str] = set()
    own: set[str] = set()
    cages: tuple[Cage, ...] = ()
    for rule in RULES.values():
        keys = rule.formats.get("f-puzzles", ())
        own.update(keys)
        if rule.fpuzzles is not None:
            try:
                found, more = rule.fpuzzles(data, size)
            except ValueError as exc:
                raise PuzzleFormatError(f"fpuzzles: {exc}") from None
            if found:
                words.append(rule.word)
                marks += found
                claimed |= more
    for rule in RULES.values():
        keys = rule.formats.get("f-puzzles", ())
        if rule.fpuzzles is not None or not keys:
            continue
        if rule.data == "cages":
            cages = _cages(data, keys[0], size)
            if cages:
                words.append(rule.word)
            continue
        on = [k for k in keys if _on(data.get(k)) and k not in claimed]
        if rule.data == "regions":
            if any(cell.get("region") is not None for row in rows for cell in row):
                words.append(rule.word)
            continue
        if on and len(on) < len(keys):
            missing = next(k for k in keys if k not in on)
            raise CommandError(f"fpuzzles: {quote(on[0])} without {quote(missing)} is not a rule here")
        if on:
            words.append(rule.word)
    for key, value in data.items():
        if key in IGNORED or key in own or not _on(value):
            continue
        raise CommandError(f"fpuzzles: rule {quote(key)} is not implemented here")
    negative = data.get("negative")
    if negative not in (None, False, "") and not isinstance(negative, list):  # "ratio": ignored, silently, before
        raise PuzzleFormatError(f'fpuzzles: "negative" is a list of rule names (["ratio"]), not {json.dumps(negative)}')
    for name in negative if isinstance(negative, list) else ():
        if f"negative:{name}" not in claimed:
            raise CommandError(f"fpuzzles: negative rule {quote(str(name))} is not implemented here")
    chosen = canonical(words)
    symbols: tuple[str, ...] = ()
    if any(not 0 <= r < size for r in regions):  # f-puzzles numbers regions 0 to size - 1; others are labels,
        labels: dict[int, int] = {}  # numbered in the order met
        regions = [labels.setdefault(r, len(labels)) for r in regions]
        symbols = tuple(map(str, labels))  # and named as written: "region -1" (it was "region 1": break finding F4)
    by_regions = taking("regions").word
    if by_regions in chosen and box_rows != box_cols and _numbered(regions) == _boxes(size, box_cols, box_rows):
        # the regions are the boxes turned a quarter (a 6x6 of 3x2 boxes, as :func:`write` gives it): classic
        chosen = tuple(w for w in chosen if w != by_regions)
        box_rows, box_cols = box_cols, box_rows
    variant = Variant(
        chosen,
        regions=tuple(regions) if taking("regions").word in chosen else None,
        region_symbols=symbols if taking("regions").word in chosen else (),
        cages=cages,
        marks=tuple(marks),
    )
    return Grid.trusted(tuple(cells), box_rows, box_cols), variant


def write(grid: Grid, variant: Variant, solution: Grid | None = None) -> dict[str, object]:
    """The f-puzzles object of a puzzle: the inverse of :func:`read_object` (``read_object(write(g, v)) == (g, v)``).

    ``grid``'s givens are cells ``{"value": d, "given": true}``; with
    ``solution``, every other cell holds its ``value`` too (not given): the
    answer of ``SOLVE format=fpuzzles``. Regions (jigsaw) are written on every
    cell, 0-based; cages as ``killercage``; a rule with no data as its keys
    set true; a rule's marks by its ``fpuzzles_out``.

    Raises:
      CommandError: a rule f-puzzles has no key for (``format=fpuzzles: rule
        "windoku" has no f-puzzles form``).
    """
    if variant.candidates is not None:
        raise CommandError("format=fpuzzles: a pencilmark puzzle has no f-puzzles form")
    for word in variant.rules:
        if not RULES[word].formats.get("f-puzzles"):
            raise CommandError(f"format=fpuzzles: rule {quote(word)} has no f-puzzles form")
    size = grid.size
    # boxes of another shape than f-puzzles' for the size (a 6x6 of 3x2 boxes; its are 2x3) are written as regions
    # (break-session finding: f-puzzles, and this reader, read them back as 2x3 boxes, another puzzle)
    other_shape = (grid.box_rows, grid.box_cols) != BOX_SHAPES[size]
    boxes = _boxes(size, grid.box_rows, grid.box_cols) if other_shape else None
    cells: list[list[dict[str, object]]] = []
    for r in range(size):
        row: list[dict[str, object]] = []
        for c in range(size):
            k = r * size + c
            cell: dict[str, object] = {}
            if grid.cells[k]:
                cell = {"value": grid.cells[k], "given": True}
            elif solution is not None and solution.cells[k]:
                cell = {"value": solution.cells[k]}
            if variant.regions is not None:
                cell["region"] = variant.regions[k]
            elif boxes is not None:
                cell["region"] = boxes[k]
            row.append(cell)
        cells.append(row)
    data: dict[str, object] = {"size": size, "grid": cells}
    negative: list[object] = []
    for word in variant.rules:
        rule = RULES[word]
        keys = rule.formats.get("f-puzzles", ())
        if rule.data == "regions":
            continue
        if rule.data == "cages":
            data[keys[0]] = [
                {"cells": [f"R{c // size + 1}C{c % size + 1}" for c in cage.cells], "value": cage.total}
                for cage in variant.cages
            ]
        elif rule.fpuzzles_out is not None:
            for key, value in rule.fpuzzles_out(tuple(m for m in variant.marks if m.rule == word), size).items():
                if key == "negative" and isinstance(value, list):
                    negative.extend(value)
                else:
                    data[key] = value
        else:
            for key in keys:
                data[key] = True
    if negative:
        data["negative"] = negative
    return data


def answer_text(givens: Grid, variant: Variant, solution: Grid | None, form: str) -> str:
    """``SOLVE format=fpuzzles`` / ``format=link``'s answer: the filled f-puzzles object as one line of compact
    JSON, or its link (``form`` ``"link"``). Raises CommandError as :func:`write`."""
    data = write(givens, variant, solution)
    return link(data) if form == "link" else json.dumps(data, separators=(",", ":"))


def _cages(data: Mapping[str, object], key: str, size: int) -> tuple[Cage, ...]:
    entries = data.get(key)
    if not entries:
        return ()
    if not isinstance(entries, list):
        raise PuzzleFormatError(f"fpuzzles: {quote(key)} is not a list of objects")
    out = []
    for k, entry in enumerate(entries, 1):
        where = f"{quote(key)} entry {k}"
        if not isinstance(entry, dict) or not isinstance(entry.get("cells"), list) or not entry["cells"]:
            raise PuzzleFormatError(f"fpuzzles: {where} has no cells")
        if entry.get("value") in (None, ""):
            raise CommandError(f"fpuzzles: {where} has no sum (a cage without a sum is not a rule here)")
        cells = []
        for text in entry["cells"]:
            t = str(text).upper()
            r, _, c = t[1:].partition("C")
            if not (t.startswith("R") and r.isdigit() and c.isdigit() and 1 <= int(r) <= size and 1 <= int(c) <= size):
                raise PuzzleFormatError(f"fpuzzles: {where}: {quote(str(text))} is not a cell of the grid")
            cell = (int(r) - 1) * size + int(c) - 1
            if cell in cells:  # as the marks' readers say it (it was "cage 1 and cage 1 overlap")
                raise PuzzleFormatError(f"fpuzzles: {where}: r{r}c{c} appears twice")
            cells.append(cell)
        out.append(Cage(tuple(sorted(cells)), _int(entry["value"], f"{where} value"), str(k)))
    return tuple(out)


def _once_each(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object whose keys are all different (a key given twice is ambiguous: refused, never "the last wins").

    Raises:
      PuzzleFormatError: ``fpuzzles: key "size" given twice``.
    """
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise PuzzleFormatError(f"fpuzzles: key {json.dumps(key)} given twice")
        out[key] = value
    return out


def _whole(text: str) -> int | str:
    """A JSON whole number; one of more than 100 digits stays its text, which the field's reader refuses by name
    (``size 999999999999... is too large``; break-session finding: CPython's own digit-limit message)."""
    return int(text) if len(text) <= 100 else text


def _not_json(error: json.JSONDecodeError, link: bool) -> str:
    """``fpuzzles: not JSON: Expecting value at column 12 of the object`` (s9-break finding 9: the parser's
    position was cut off, leaving ``... character at)``); a ``# comment`` after an object is named as such."""
    where = f"column {error.pos + 1} of the {'link' + chr(39) + 's decoded object' if link else 'object'}"
    words = f"fpuzzles: not JSON: {error.msg.removesuffix(' at')} at {where}"  # "starting at", "character at"
    if error.msg == "Extra data" and error.doc[error.pos : error.pos + 1] == "#":
        words += " (a # comment may follow a link, not an object)"
    return words


def read(text: str, lineno: int, ending: str) -> Puzzle | Rejected:
    """The puzzle on a line holding an f-puzzles object or link (:func:`is_fpuzzles`), or its error."""
    try:
        s = text.strip()
        body = s if s.startswith("{") else decode_link(s)
        try:
            data = json.loads(body, object_pairs_hook=_once_each, parse_int=_whole)
        except json.JSONDecodeError as exc:
            raise PuzzleFormatError(_not_json(exc, link=body is not s)) from None
        except ValueError as exc:
            raise PuzzleFormatError(f"fpuzzles: not JSON ({exc.args[0].split(':')[0]})") from None
        except RecursionError:  # arrays or objects nested a thousand deep (break-session finding: a traceback)
            raise PuzzleFormatError("fpuzzles: not JSON (nested too deep)") from None
        if not isinstance(data, dict):
            raise PuzzleFormatError("fpuzzles: not a JSON object")
        grid, variant = read_object(data)
    except PuzzleError as exc:
        return Rejected(exc, ending, None)
    line = "".join(DIGIT_SYMBOLS[v - 1] if v else "." for v in grid.cells)
    return Puzzle(
        grid=grid,
        layout=LAYOUT_LINE,
        first_line=lineno,
        lines=[line],
        endings=[ending],
        positions=Positions.on_one_line(range(len(line))),
        variant=variant,  # even classic: its line is made here, not cut from the request line
    )


# -- marks after a line: ``<givens> thermo=r1c1-r1c2-r1c3;r5c5-r6c6 arrow=...`` ----------------------

_MARKS_FIELD = re.compile(r"\s+([A-Za-z]+)=(\S*)")


def _looks_like_givens(text: str) -> bool:
    """A one-line puzzle's givens: a whole number of cells (16 to 625) of digits, letters and empty marks."""
    return len(text) in (16, 36, 81, 256, 625) and re.fullmatch(r"[0-9A-Za-z._]+", text) is not None


@functools.cache
def _syntaxes() -> dict[str, Callable[[str, int], tuple[Mark, ...]]]:
    """Each rule's line syntax by its word (the rules that take marks), in :data:`RULES` order."""
    return {rule.word: rule.syntax for rule in RULES.values() if rule.syntax is not None}


#: The cells of a 9x9 line of givens, each at its column: shared by every puzzle read from such a line (a
#: one-line puzzle's positions never change).
_NINE_POSITIONS = Positions.on_one_line(range(81))


@functools.lru_cache(maxsize=1024)
def _read_marks(syntax: Callable[[str, int], tuple[Mark, ...]], text: str, size: int) -> tuple[Mark, ...]:
    """``syntax(text, size)``: a rule's marks read from their field, kept by its text (a client that sends a puzzle
    again, or many puzzles under one set of marks, has them read once). Raises ValueError as ``syntax`` does
    (not kept)."""
    return syntax(text, size)


def marks_text(grid: Grid, variant: Variant) -> str:
    """A puzzle with marks as one line that :func:`marks_line` reads back: its givens, then a ``word=marks``
    field per rule with marks, in :data:`RULES` order (each rule's ``syntax_out``).

    ``"...3.8..9... thermo=r1c1-r1c2-r2c3;r5c5-r6c6-r7c7"``. Only the rules that take marks are written: a
    rule without marks (``x``) is for the ``rules=`` field that goes with the line.
    """
    fields = []
    for rule in RULES.values():
        marks = tuple(m for m in variant.marks if m.rule == rule.word)
        if marks and rule.syntax_out is not None:
            fields.append(f"{rule.word}={rule.syntax_out(marks, grid.size)}")
    return " ".join([grid.to_string(), *fields])


def _marked_grid(givens: str, words: list[str], lineno: int) -> Grid:
    """The grid of a marks line's givens (``Grid.from_string``), its error naming the line.

    Raises:
      PuzzleFormatError: a bad symbol (``line 2: 'x' is not a 9x9 symbol at r1c4``), or givens of no grid's length:
        a labelled, jigsaw, pencilmark or HoDoKu line before the marks (break-session finding: ``expected 81
        cells, found 84``, with no line, counting the label).
    """
    try:
        return Grid.from_string(givens)
    except PuzzleFormatError as exc:
        if len(givens) not in LINE_SIZES:
            fields = " ".join(f"{word}=" for word in words)
            raise PuzzleFormatError(
                f"line {lineno}: marks ({fields}) follow a one-line puzzle of {listed(LINE_SIZES)} cells with"
                f" nothing else before them, not {len(givens)} characters (other layouts take rules as f-puzzles)"
            ) from None
        raise PuzzleFormatError(f"line {lineno}: {exc.detail}") from None


#: Full-width digits, dot and low line, read in a marks line's givens as their ASCII forms (LAYOUTS.md "Empty
#: cells", "Pasted grids"); a full-width letter is left as sent, so that an error names the character sent.
_NARROW = str.maketrans({chr(0xFF10 + d): str(d) for d in range(10)} | {"\uff0e": ".", "\uff3f": "_"})


def marks_line(text: str, lineno: int, ending: str) -> Puzzle | Rejected | None:
    """A one-line puzzle followed by ``word=marks`` fields of rules that take marks (docs/LAYOUTS.md); None: not one.

    The fields' words are the rules' (each rule's ``syntax``); the rules join the puzzle's.
    """
    head = re.match(r"\s*(\S+)", text)
    if head is None:
        return None
    rest = text[head.end() :]
    comment = re.search(r"\s#", rest)  # a trailing ``# comment``, as on the other one-line forms (left out)
    if comment is not None:
        rest = rest[: comment.start()]
    fields = []
    pos = 0
    stray = None
    for match in _MARKS_FIELD.finditer(rest):
        if match.start() != pos:
            stray = rest[pos : match.start()].split()[0]
            break
        fields.append((match.group(1).lower(), match.group(2)))
        pos = match.end()
    else:
        stray = rest[pos:].split()[0] if rest[pos:].strip() else None
    if stray is not None and fields and _looks_like_givens(head.group(1)):
        # a blank inside a rule's marks (``thermo= r1c1-r1c2``): a word that is no field, after fields
        error = PuzzleFormatError(
            f"line {lineno}: {quote(stray[:24])} is no word=marks field (a rule's marks follow its = with no blank)"
        )
        return Rejected(error, ending, None)
    if not fields or stray is not None:
        return None
    syntaxes = _syntaxes()
    written = head.group(1)
    givens = written.translate(_NARROW)  # the full-width digits and dots of a pasted grid (s10-break finding 12)
    try:
        grid = _marked_grid(givens, [word for word, _ in fields], lineno)
        marks: list[Mark] = []
        for word, value in fields:
            if word not in syntaxes:  # after a puzzle's givens, a field is a rule's marks or nothing
                words = ", ".join(f"{w}=" for w in syntaxes)
                raise PuzzleFormatError(f"line {lineno}: {word}= is no rule's marks (marks are {words})")
            if not value:
                raise PuzzleFormatError(f"line {lineno}: {word}= has no marks")
            try:
                marks += _read_marks(syntaxes[word], value, grid.size)
            except ValueError as exc:
                raise PuzzleFormatError(f"line {lineno}: {exc}") from None
    except PuzzleError as exc:
        if not all(word in syntaxes for word, _ in fields) and not _looks_like_givens(givens):
            return None  # not a puzzle with marks at all: the other layouts say what it is
        return Rejected(exc, ending, None)
    variant = Variant(canonical(word for word, _ in fields), marks=tuple(marks))
    positions = _NINE_POSITIONS if len(givens) == 81 else Positions.on_one_line(range(len(givens)))
    return Puzzle(
        grid=grid,
        layout=LAYOUT_LINE,
        first_line=lineno,
        lines=[written],
        endings=[ending],
        positions=positions,
        plain=len(givens) == 81 and written.isascii(),  # 81 digits and empty marks: answered as digits
        variant=variant,
        wide=not written.isascii() and mostly_wide([written], list(positions)),  # answered in full width
    )
