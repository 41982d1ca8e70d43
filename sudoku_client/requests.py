"""The requests in the client's input, found without the server package.

A *reader* takes the input line by line and tells where each request (each
thing the server gives one reply to) starts and whether it is a puzzle. Every
reader has the interface of :class:`RequestReader`: :class:`HeuristicReader`
here (standard library only, approximate) and
:class:`sudoku_client.routing.PackageReader` (the server's own reader, exact).
:class:`LineSplitter` cuts bytes into lines as the server does.
"""

from __future__ import annotations

import re
from typing import NamedTuple, Protocol

from sudoku_client.replies import is_one_line_answer


class Request(NamedTuple):
    """One request a reader found in the input: the server gives it one reply.

    Attributes:
      first_line: the 1-based line it starts on.
      puzzle: True for a puzzle (a request to solve it), False for a command
        line or a line the server answers with an error.
      one_line: a one-line puzzle (its whole text on ``first_line``).
      attached: the puzzle follows a verb that takes it (``SOLVE``, ``COUNT``
        on the line before a grid): verb and puzzle make one request.
    """

    first_line: int
    puzzle: bool
    one_line: bool = False
    attached: bool = False


class RequestReader(Protocol):
    """What the client asks of a reader (:func:`sudoku_client.routing.make_reader`).

    The interface between the client and whichever reader finds its requests:
    :class:`HeuristicReader`, or :class:`sudoku_client.routing.PackageReader`
    over the server package. Lines are fed in order, numbered from 1.
    """

    #: True when the count is the server's own (a reply short of it is an error).
    exact: bool

    @property
    def held_from(self) -> int | None:
        """The first line of a request not complete yet (nothing from it on can be sent), or None."""

    @property
    def closed(self) -> bool:
        """True after a ``QUIT``: the server reads nothing more, no line is a request."""

    def feed_line(self, text: str, ending: str, lineno: int) -> list[Request]:
        """Take line *lineno* (*text* without its *ending*); return the requests it completes."""

    def finish(self) -> list[Request]:
        """End of input: the requests cut short, if any."""


#: Bytes of a line without an end after which :class:`LineSplitter` hands it
#: on anyway (the server's own limit is 4096 by default).
LONG_LINE_BYTES = 1024 * 1024


class LineSplitter:
    """Bytes -> lines, split as the server splits them.

    Lines end with LF, CRLF or a lone CR (a CR then NUL, telnet's bare
    carriage return, counts as CRLF); a CR at the end of what has arrived
    waits for the next byte. A UTF-8 byte-order mark at the very start is
    dropped. A piece of a line longer than :data:`LONG_LINE_BYTES` comes out
    as a line with the ending ``b""``.
    """

    def __init__(self) -> None:
        self._buffer = b""
        self._start = True
        #: Bytes dropped: 3 after a byte-order mark at the start, else 0.
        self.dropped = 0

    def feed(self, data: bytes) -> list[tuple[bytes, bytes]]:
        """The lines completed by *data*: ``(text, ending)`` pairs, as bytes."""
        buffer = self._buffer + data
        if self._start:
            if len(buffer) < 3 and b"\xef\xbb\xbf".startswith(buffer):
                self._buffer = buffer
                return []
            if buffer.startswith(b"\xef\xbb\xbf"):
                buffer = buffer[3:]
                self.dropped = 3
            self._start = False
        lines = []
        pos = 0
        size = len(buffer)
        while pos < size:
            lf = buffer.find(b"\n", pos)
            cr = buffer.find(b"\r", pos, lf if lf >= 0 else size)
            if cr >= 0:
                if cr + 1 == size:
                    break  # CR at the end: it may be the start of CRLF
                after = buffer[cr + 1]
                if after in (0x0A, 0x00):
                    lines.append((buffer[pos:cr], buffer[cr : cr + 2]))
                    pos = cr + 2
                else:
                    lines.append((buffer[pos:cr], b"\r"))
                    pos = cr + 1
            elif lf >= 0:
                lines.append((buffer[pos:lf], b"\n"))
                pos = lf + 1
            else:
                break
        rest = buffer[pos:]
        if len(rest) > LONG_LINE_BYTES:
            # Far over any server's line limit (it answers ERROR too-large):
            # pass it on as it is rather than buffer it without end.
            lines.append((rest, b""))
            rest = b""
        self._buffer = rest
        return lines

    def finish(self) -> list[tuple[bytes, bytes]]:
        """End of input: the last line (unterminated, or ending in a lone CR)."""
        buffer, self._buffer = self._buffer, b""
        if not buffer:
            return []
        if buffer.endswith(b"\r"):
            return [(buffer[:-1], b"\r")]
        return [(buffer, b"")]


#: Verbs of protocol 2 the heuristic reader knows (the package's table is used
#: when it is importable; a test pins these copies to it), and those that take a puzzle.
KNOWN_VERBS = frozenset(
    (
        "HELP",
        "VERSION",
        "PING",
        "QUIT",
        "SOLVE",
        "COUNT",
        "CANDIDATES",
        "GENERATE",
        "STATS",
        "INTERACTIVE",
        "KEEPALIVE",
        "RATE",
        "HINT",
        "STEPS",
        "MINIMAL",
        "CANON",
        "SAME",
        "UNIQUE",
        "RULES",
    )
)
PUZZLE_VERBS = frozenset(
    ("SOLVE", "COUNT", "CANDIDATES", "RATE", "HINT", "STEPS", "MINIMAL", "CANON", "SAME", "UNIQUE")
)
#: A 9x9 one-line puzzle and nothing else, or a dataset row (puzzle, solution):
#: the common cases, found by both readers without the line-by-line rules
#: (what those make of it, 5 to 10 times sooner).
PLAIN_ONE_LINE = re.compile(r"[0-9.]{81}(?:,[0-9]{81})?")
#: Flags of the verbs that take a puzzle: words that are not the puzzle's start.
_VERB_FLAGS = frozenset(("any", "map"))
#: Grid sizes (cells per row).
ROW_SIZES = (4, 6, 9, 16, 25)
_BORDER_CHARS = frozenset("+-=|*")
_RULE_CHARS = frozenset("-=*\u2500\u2501\u2550\u2504\u2505\u2508\u2509\u254c\u254d")
_DIGIT_CELLS = frozenset("0123456789._")


def _is_box_drawing(ch: str) -> bool:
    return "\u2500" <= ch <= "\u257f"


def _is_border(text: str) -> bool:
    """A border line: only ``+ - = | *``, box drawing and blanks, with a rule character."""
    body = text.strip()
    if not body or not any(ch in _RULE_CHARS for ch in body):
        return False
    return all(ch in _BORDER_CHARS or ch.isspace() or _is_box_drawing(ch) for ch in body)


def _row_cells(text: str) -> int | None:
    """Cells of a grid row (separators aside), or None when it does not look like one.

    A row with a tab is a row of fields (one cell each, an empty field is an
    empty cell; a tab at the end of the row ends it); otherwise every
    character that is not a blank, ``|`` or box drawing is a cell: digits
    and empty marks, also letters for 16x16 and 25x25, and their full-width
    forms.
    """
    body = text.strip(" \r\n")
    if "\t" in body:
        fields = [field.strip(" ") for field in body.split("\t")]
        if all(len(field) <= 1 for field in fields):
            if len(fields) not in ROW_SIZES and not fields[-1]:
                fields.pop()
            return len(fields) if len(fields) in ROW_SIZES else None
    chars = [ch for ch in body if not (ch.isspace() or ch == "|" or _is_box_drawing(ch))]
    count = len(chars)
    if count not in ROW_SIZES:
        return None
    for ch in chars:
        if not _is_cell_char(ch, count):
            return None
    return count


def _is_cell_char(ch: str, size: int = 9) -> bool:
    if "\uff01" <= ch <= "\uff5e":  # full width: its ASCII form
        ch = chr(ord(ch) - 0xFEE0)
    return ch in _DIGIT_CELLS or (size >= 16 and ch.isalpha() and ch.isascii())


def _is_partial_row(text: str) -> bool:
    """A row of a grid whose empty cells are blanks: ``|`` and cell characters only."""
    if "|" not in text:
        return False
    return all(ch.isspace() or ch == "|" or _is_box_drawing(ch) or _is_cell_char(ch) for ch in text)


#: A CSV header line (``quizzes,solutions``): words separated by commas.
_CSV_HEADER = re.compile(r"[A-Za-z_ ]+(?:,[A-Za-z_ ]+)+")


def _is_skippable(text: str) -> bool:
    """Blank, a ``#`` comment, a ``[Section]`` header, a CSV header."""
    body = text.strip()
    return (
        not body
        or body.startswith("#")
        or (body.startswith("[") and body.endswith("]"))
        or _CSV_HEADER.fullmatch(body) is not None
    )


class _HeuristicGrid:
    def __init__(self, first_line: int, framed: bool, size: int | None = None, rows: int = 0) -> None:
        self.first_line = first_line
        self.framed = framed
        self.size = size
        self.rows = rows

    @property
    def complete(self) -> bool:
        return self.size is not None and self.rows >= self.size


#: A word of a caption (the server's ``text.lines.is_caption``; a test compares the two on samples).
_CAPTION_WORD = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*[.,:;!?]?")


def is_caption(text: str) -> bool:
    """A line of prose that the server skips when it stands right above a puzzle (docs/LAYOUTS.md "Captions")."""
    tokens = text.split()
    if not tokens or "=" in text or not _CAPTION_WORD.fullmatch(tokens[0]):
        return False
    head = tokens[0].rstrip(".,:;!?")
    if len(head) > 1 and head.isupper():
        return False  # a command's word: a mistyped verb, PROXY, GET (never a caption)
    return len(tokens) >= 2 or tokens[0].endswith(":")


def is_verb_caption(text: str) -> bool:
    """A line starting with a verb's word that reads as prose (the server's ``splitter.is_verb_caption``).

    Two tokens or more, a word first, no ``=``, no digit, and the first word
    not all capitals or the line ending with ``:`` (``Solve this one please:``);
    a caption when it stands right above a puzzle (docs/LAYOUTS.md "Captions").
    """
    tokens = text.split()
    if len(tokens) < 2 or "=" in text or any(ch.isdigit() for ch in text):
        return False
    head = tokens[0].rstrip(".,:;!?")
    if not head.isalpha():
        return False
    return not head.isupper() or text.rstrip().endswith(":")


def _verb_prose(words: list[str], text: str) -> bool:
    """A verb line the server rejects and reads as prose (``HELP <verb>`` is a request, not prose)."""
    if not is_verb_caption(text):
        return False
    return not (words[0].upper() == "HELP" and len(words) == 2 and words[1].upper() in KNOWN_VERBS)


def _puzzle_command(text: str) -> bool:
    """A verb that takes a puzzle with its one-line puzzle on the line (``SOLVE any 8...``)."""
    words = text.split()
    return len(words) > 1 and words[0].upper() in PUZZLE_VERBS


class HeuristicReader:
    """Find the requests in the input without the server package (standard library only).

    The same interface as :class:`sudoku_client.routing.PackageReader`, approximately: one-line
    puzzles (16, 36, 81, 256 or 625 cells on a line, with a label, a comment
    or a dataset row's solution), command lines, and grids, which end after
    ``n`` rows of ``n`` cells (plus a closing border for a grid that starts
    with one) or at a blank line (grids whose empty cells are blanks are
    found that way). Other lines (prose) are one request each.

    Attributes:
      held_from: the first line of a request not complete yet, or None.
    """

    exact = False

    def __init__(self) -> None:
        self._grid: _HeuristicGrid | None = None
        self._verb_line: int | None = None  # a verb waiting for its puzzle
        self._closed = False  # after QUIT
        self._caption: int | None = None  # the line of a caption-like prose line, until the next line settles it
        self._prose_line: int | None = None

    @property
    def closed(self) -> bool:
        """True after a ``QUIT``: the server reads nothing more."""
        return self._closed

    @property
    def held_from(self) -> int | None:
        if self._verb_line is not None:
            return self._verb_line
        return self._grid.first_line if self._grid is not None else None

    def feed_line(self, text: str, ending: str, lineno: int) -> list[Request]:
        """Take one line (without its ending); return the requests it completes.

        A caption-like prose line waits for the next line: right above a
        puzzle the server skips it (no reply), else it is one request.
        """
        if self._closed:
            return []
        caption, self._caption = self._caption, None
        found = self._feed_line(text, ending, lineno)
        if caption is not None:
            starts = caption == lineno - 1 and (
                (self._grid is not None and self._grid.first_line == lineno)
                or any(r.first_line == lineno and (r.puzzle or _puzzle_command(text)) for r in found)
            )
            if not starts:
                found.insert(0, Request(caption, False))
        if (
            found
            and self._prose_line == lineno
            and found[-1].first_line == lineno
            and (is_caption(text) or is_verb_caption(text))
        ):
            found.pop()
            self._caption = lineno
        return found

    def _feed_line(self, text: str, ending: str, lineno: int) -> list[Request]:
        grid = self._grid
        if grid is None and self._verb_line is None and PLAIN_ONE_LINE.fullmatch(text):
            return [Request(lineno, True, True)]
        found: list[Request] = []
        if grid is not None:
            if not text.strip():
                self._end_grid(found)
                return found
            if grid.complete:  # a framed grid with all its rows
                self._end_grid(found)
                if _is_border(text):
                    return found
            else:
                if not _is_border(text):
                    if grid.rows == 0:  # the first row gives the size (None: ends at a blank line)
                        grid.size = _row_cells(text)
                    grid.rows += 1
                    if grid.complete and not grid.framed:
                        self._end_grid(found)
                return found
        self._idle_line(text, lineno, found)
        return found

    def finish(self) -> list[Request]:
        """End of input: the request cut short, if any."""
        found: list[Request] = []
        if self._caption is not None:
            found.append(Request(self._caption, False))
            self._caption = None
        if self._grid is not None:
            self._end_grid(found)
        if self._verb_line is not None:
            found.append(Request(self._verb_line, False))
            self._verb_line = None
        return found

    def _request(self, found: list[Request], first_line: int, puzzle: bool, one_line: bool = False) -> None:
        attached = self._verb_line is not None
        self._verb_line = None
        found.append(Request(first_line, puzzle, one_line, attached))

    def _end_grid(self, found: list[Request]) -> None:
        grid, self._grid = self._grid, None
        assert grid is not None
        if grid.rows == 0:
            return  # border lines only: nothing was asked
        self._request(found, grid.first_line, grid.complete or grid.size is None)

    def _idle_line(self, text: str, lineno: int, found: list[Request]) -> None:
        if _is_skippable(text):
            return
        words = text.split()
        if words[0].upper() in KNOWN_VERBS and not _verb_prose(words, text):
            self._command(words, lineno, found)
            return
        if _is_border(text):
            self._grid = _HeuristicGrid(lineno, framed=True)
            return
        if is_one_line_answer(text):
            self._request(found, lineno, True, one_line=True)
            return
        cells = _row_cells(text)
        if cells is not None or _is_partial_row(text):
            self._grid = _HeuristicGrid(lineno, framed=False, size=cells, rows=1)
            return
        self._prose_line = lineno
        self._request(found, lineno, False)  # prose, a cut or foreign line: one error

    def _command(self, words: list[str], lineno: int, found: list[Request]) -> None:
        verb = words[0].upper()
        if self._verb_line is not None:  # "no puzzle followed it"
            found.append(Request(self._verb_line, False))
            self._verb_line = None
        if verb == "QUIT":
            self._closed = True
        if verb in PUZZLE_VERBS:
            rest = [w for w in words[1:] if "=" not in w and w.lower() not in _VERB_FLAGS]
            if not rest:
                self._verb_line = lineno
                return
        found.append(Request(lineno, False))
