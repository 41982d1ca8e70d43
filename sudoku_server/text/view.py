"""Characters as the layouts read them: Unicode spaces, box drawing, full width, tab fields.

Pasted text (docs/LAYOUTS.md "Pasted grids": web pages, word processors,
spreadsheets) is read through a view of each line with the same length
(:func:`cell_view`): box-drawing lines (``─│┌┼``, ``━┃┏╋``, ``═║╔╬``, arcs,
dashes, mixed) read as ``- | +``, Unicode spaces (no-break, ideographic...)
as blanks, full-width digits, letters and ``．`` as their ASCII forms. A row
holding tabs whose fields hold at most one cell each (a copied spreadsheet or
HTML table) splits at every tab (:func:`tab_fields`), and an empty field is
an empty cell (:func:`expand_tabs`).
"""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Sequence

from sudoku_server.text.sizes import LINE_SIZES, ROW_SIZES, SIZE


def _box_drawing_view() -> dict[int, str]:
    """Box-drawing characters (U+2500..U+257F) -> ``-``, ``|`` or ``+``, from their Unicode names.

    A character drawn only left/right (``─ ━ ═ ┄ ╌ ╴``) is a ``-``; only
    up/down (``│ ┃ ║ ┆ ╎ ╵``) a ``|``; both (corners, tees, crosses, arcs,
    light/heavy/double mixed: ``┌ ┼ ╋ ╬ ╟ ╭``) a ``+``. The diagonals are left
    out: they are no frame.
    """
    table: dict[int, str] = {}
    across, down = {"HORIZONTAL", "LEFT", "RIGHT"}, {"VERTICAL", "UP", "DOWN"}
    for cp in range(0x2500, 0x2580):
        words = set(unicodedata.name(chr(cp), "").split())
        if "DIAGONAL" in words:
            continue
        h, v = bool(words & across), bool(words & down)
        if h or v:
            table[cp] = "+" if h and v else "-" if h else "|"
    return table


#: Unicode spaces read as a blank: no-break (U+00A0), ogham, en quad .. hair
#: space (U+2000..U+200A), narrow no-break (U+202F), medium mathematical
#: (U+205F) and ideographic (U+3000): the space separators (Zs) of Unicode.
UNICODE_SPACES = "\u00a0\u1680" + "".join(chr(cp) for cp in range(0x2000, 0x200B)) + "\u202f\u205f\u3000"
#: Full-width forms read as their ASCII counterparts: digits, letters and
#: ``． ＿ ｜ ＋ － ＝ ＊`` (U+FF0E ...).
FULL_WIDTH = (
    "".join(chr(0xFF10 + i) for i in range(10))
    + "".join(chr(0xFF21 + i) + chr(0xFF41 + i) for i in range(26))
    + "．＿｜＋－＝＊"
)
_VIEW = {
    **_box_drawing_view(),
    **{ord(ch): " " for ch in UNICODE_SPACES},
    **{ord(ch): chr(ord(ch) - 0xFEE0) for ch in FULL_WIDTH},
    0x00A6: "|",  # broken bar
}
#: ASCII -> full width, for answers to full-width requests.
_WIDE = {ord(chr(ord(ch) - 0xFEE0)): ch for ch in FULL_WIDTH}


def cell_view(text: str) -> str:
    """``text`` as the layouts read it: the same length, one character for one.

    Box-drawing lines become ``-``, ``|`` or ``+``; Unicode spaces
    (:data:`UNICODE_SPACES`) a blank; full-width digits, letters and
    ``． ＿ ｜ ＋ － ＝ ＊`` their ASCII forms (docs/LAYOUTS.md "Pasted
    grids"). Every other character is kept (and reported as foreign where it
    stands in a cell): ``cell_view("│８．．│")`` is ``"|8..|"``.
    """
    return text if text.isascii() else text.translate(_VIEW)


def full_width(symbols: str) -> str:
    """``symbols`` in full-width forms (``"123"`` -> ``"１２３"``), for answers to full-width requests."""
    return symbols.translate(_WIDE)


def is_wide(ch: str) -> bool:
    """True for a full-width form or the ideographic space (a full-width blank)."""
    return "\uff01" <= ch <= "\uff5e" or ch == "\u3000"


def mostly_wide(lines: Sequence[str], positions: Sequence[tuple[int, int]]) -> bool:
    """True when more than half the cells at ``positions`` (``(line index, column)`` pairs) are full width."""
    return 2 * sum(is_wide(lines[li][col]) for li, col in positions) > len(positions)


def strip_comment(line: str) -> str:
    """The line up to a trailing ``# comment`` (``#`` is never a cell)."""
    cut = line.find("#")
    return line if cut < 0 else line[:cut]


#: Field counts a tab row may have (row and one-line sizes), and the only-tab
#: lines read as empty rows between puzzles (9x9, 16x16, 25x25 rows).
_TAB_SIZES = frozenset(ROW_SIZES) | frozenset(LINE_SIZES)
_EMPTY_TAB_ROW = frozenset(size for size in ROW_SIZES if size >= SIZE)

#: A cell field of a tab row: ``(start, end, empty)``, columns of the view,
#: ``empty`` when the field holds no character besides blanks.
TabField = tuple[int, int, bool]


def tab_fields(view: str, in_tab_grid: bool) -> list[TabField] | None:
    """The cell fields of a tab row (a copied spreadsheet or HTML table), or None when the line is not one.

    A line is a tab row when it holds a tab, no ``|``, ``,`` or ``:``, and
    every field between tabs holds at most one character besides blanks. A
    last empty field is the end of the line, not a cell, unless the fields
    then number a row or one-line size (a row whose last cell is empty). A
    line of tabs only is a row inside a grid of tab rows (``in_tab_grid``),
    or with 9, 16 or 25 fields; else a blank line.

    Returns:
      ``(start, end, empty)`` per cell field: ``"8\\t\\t1"`` gives
      ``[(0, 1, False), (2, 2, True), (3, 4, False)]``.
    """
    body = strip_comment(view)
    if "\t" not in body or "|" in body or "," in body or ":" in body:
        return None
    fields: list[TabField] = []
    start = 0
    for part in body.split("\t"):
        end = start + len(part)
        held = part.strip(" ")
        if len(held) > 1:
            return None
        fields.append((start, end, not held))
        start = end + 1
    if fields[-1][2] and len(fields) not in _TAB_SIZES:
        fields.pop()  # a trailing tab
    if all(empty for _, _, empty in fields) and not (in_tab_grid or len(fields) in _EMPTY_TAB_ROW):
        return None  # a blank line (auto-indent)
    return fields


def expand_tabs(view: str, raw: str, fields: list[TabField]) -> tuple[str, str, tuple[int, ...]]:
    """A tab row with one character per cell: ``.`` in the view for each empty field.

    An empty field gets a blank inserted in ``raw`` (the answer writes its
    digit there); a field of blanks has its first blank read as ``.``.

    Returns:
      the new view, the new raw line (both one character longer per empty
      field), and the columns (in the new lines) of the inserted characters,
      to map columns back to the request's (:func:`request_col`).
    """
    views: list[str] = []
    raws: list[str] = []
    inserted: list[int] = []
    pos = 0
    length = 0
    for start, end, empty in fields:
        views.append(view[pos:start])
        raws.append(raw[pos:start])
        length += start - pos
        if not empty:
            views.append(view[start:end])
            raws.append(raw[start:end])
            length += end - start
        elif start == end:
            inserted.append(length)
            views.append(".")
            raws.append(" ")
            length += 1
        else:
            views.append("." + view[start + 1 : end])
            raws.append(raw[start:end])
            length += end - start
        pos = end
    views.append(view[pos:])
    raws.append(raw[pos:])
    return "".join(views), "".join(raws), tuple(inserted)


def request_col(inserted: Sequence[int], col: int) -> int:
    """The column in the request of column ``col`` of a line with ``inserted`` characters (0-based)."""
    return col - bisect.bisect_left(inserted, col) if inserted else col
