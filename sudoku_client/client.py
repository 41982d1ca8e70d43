"""sudoku-client: send puzzles to a sudoku-server and print its answers.

Usage::

    sudoku-client [--host HOST] [--port PORT] [--timeout SECONDS] [FILE ...]
    sudoku-client --count FILE ...          # COUNT 1 unique, COUNT 2+ multiple ...
    sudoku-client --generate 10 --symmetry rot180 --seed 42
    python3 sudoku_client/client.py puzzles/newspaper.txt

The client opens one TCP connection, sends the input (the FILEs concatenated in
order, bytes as they are; standard input when there are none or for ``-``) and,
at the same time, copies every byte the server answers to standard output as
soon as it arrives. After the last input byte it half-closes the connection
(``shutdown(SHUT_WR)``), which tells the server that no more puzzles follow; the
server then answers what is left and closes, and the client exits.

Sending runs in a thread while the main thread reads, so a large input never
deadlocks against a server that answers while it is still reading.

Modes (docs/PROTOCOL.md "Commands"):

* ``--count``: sends ``COUNT`` before each puzzle (on the puzzle's line for a
  one-line puzzle, on its own line before a grid) and prints the replies.
* ``--generate N``: sends N ``GENERATE`` lines (``seed=S``, ``S+1``... with
  ``--seed S``) and prints the puzzles, each after its ``#`` line.
* A terminal on standard input: the client sends ``INTERACTIVE`` first and
  keeps the connection open until Ctrl-D; each puzzle is answered as soon as
  it is complete. A server without that verb (``ERROR command unknown verb
  "INTERACTIVE"``) is used one request at a time instead: the client sends
  each puzzle when it is complete, on a connection of its own.

Requests are told apart (for ``--count``, the fallback above, the progress
total and the check that every request was answered) by the server package's
own reader when ``sudoku_server`` is importable (exact), else by
:class:`HeuristicReader` (one-line puzzles, and grids separated by blank lines
or holding their cells on ``n`` rows).

Exit status (one table for every reply; README "The bundled client" and
``--help`` hold the same table, :data:`EXIT_TABLE`):
  0    every puzzle was solved (--count: every puzzle is unique; --generate:
       every puzzle was generated) and every command answered
  1    a reply was a puzzle-level error: ERROR format, invalid, unsolvable,
       timeout, incomplete, mismatch, command (also for a line that is not a
       puzzle: unknown verb), internal, or a busy for one puzzle (queue wait,
       connection budget); with --count, a COUNT reply other than COUNT 1 unique
  2    the connection failed: cannot connect, reset, closed before all input
       was sent, ERROR too-large, the busy that refuses a connection (N
       connections open), ERROR shutdown, fewer replies than requests sent
       (counted exactly when the sudoku_server package is installed), a FILE
       that cannot be read, or no answer within --timeout; the reason goes to
       stderr
  130  interrupted (Ctrl-C)
  --ping: 0 on PONG, 1 on ERROR draining (the server is stopping), 2 when it
       cannot connect or gets any other reply

This module uses the standard library only (Python 3.8+) so that it runs from
a bare checkout, without installing the server or trio; ``tqdm`` draws the
progress bar when it is installed (``pip install 'sudoku-server[progress]'``).
"""

from __future__ import annotations

import argparse
import io
import os
import re
import select
import socket
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import BinaryIO, NamedTuple

PROG = "sudoku-client"
#: The client's version: that of the sudoku_server package it ships with. When
#: the package is importable, :func:`client_version` reads it from there; a
#: test keeps this copy equal for the single file.
VERSION = "0.3.0"

EXIT_OK = 0
EXIT_ERROR_ANSWER = 1
EXIT_FAILURE = 2
EXIT_INTERRUPTED = 130

#: The exit-status table, as ``--help`` prints it (README "The bundled client"
#: holds the same text; a test compares them).
EXIT_TABLE = """\
exit status:
  0    every puzzle was solved (--count: every puzzle is unique; --generate:
       every puzzle was generated) and every command answered
  1    a reply was a puzzle-level error: ERROR format, invalid, unsolvable,
       timeout, incomplete, mismatch, command (also for a line that is not a
       puzzle: unknown verb), internal, or a busy for one puzzle (queue wait,
       connection budget); with --count, a COUNT reply other than COUNT 1 unique
  2    the connection failed: cannot connect, reset, closed before all input
       was sent, ERROR too-large, the busy that refuses a connection (N
       connections open), ERROR shutdown, fewer replies than requests sent
       (counted exactly when the sudoku_server package is installed), a FILE
       that cannot be read, or no answer within --timeout; the reason goes to
       stderr
  130  interrupted (Ctrl-C)
  --ping: 0 on PONG, 1 on ERROR draining (the server is stopping), 2 when it
       cannot connect or gets any other reply
"""

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 9999
#: Seconds: connect timeout, and the longest silence accepted from the server.
#: Above the server's default solve limit (10 s) so a slow puzzle is not cut off.
DEFAULT_TIMEOUT = 30.0

#: Bytes per read from the input and from the socket.
CHUNK_BYTES = 64 * 1024
#: Seconds between two checks of the silence deadline while waiting for data.
POLL_SECONDS = 0.25

#: Seconds to wait, after the server closed, for a send still in progress to
#: fail or finish, so that lost input is reported.
SENDER_JOIN_SECONDS = 1.0

#: Puzzles (counted in the input, or answered) above which a progress bar is
#: drawn when standard error is a terminal.
PROGRESS_MIN_PUZZLES = 300
#: Seconds between two redraws of the plain progress line.
PROGRESS_INTERVAL = 0.2

#: The line the client sends first when standard input is a terminal.
INTERACTIVE_REQUEST = b"INTERACTIVE\n"
#: The reply of a server that has no INTERACTIVE verb (protocol 2 before it).
INTERACTIVE_UNKNOWN = b'ERROR command unknown verb "INTERACTIVE"'

#: Marks the start of a failed answer (PROTOCOL.md: ``ERROR <code> <detail>``).
ERROR_PREFIX = b"ERROR "
#: Line ends, as the server reads and writes them: LF, CRLF, a lone CR.
_LINE_END = re.compile(rb"\r\n|\r|\n")
#: Bytes of a reply line kept to classify it (an ERROR's text, a 25x25 one-line answer).
_REPLY_LINE_KEEP = 2048


def _format_address(host: str, port: int) -> str:
    """Return ``host:port``, with brackets around an IPv6 address."""
    if ":" in host:
        return "[%s]:%d" % (host, port)
    return "%s:%d" % (host, port)


def _describe(exc: BaseException) -> str:
    """Return the operating system's text for *exc* ("Connection refused")."""
    if isinstance(exc, socket.timeout):
        return "timed out"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def _error(message: str) -> None:
    """Print one ``sudoku-client: message`` line to standard error."""
    sys.stderr.write("%s: %s\n" % (PROG, message))
    sys.stderr.flush()


def _plural(count: int, noun: str) -> str:
    return "%d %s%s" % (count, noun, "" if count == 1 else "s")


# --- the server package, when it is there -----------------------------------

_PACKAGE: tuple | None = None
_PACKAGE_LOADED = False
_PACKAGE_LOCK = threading.Lock()


def _package() -> tuple | None:
    """``(PuzzleReader, Puzzle, commands module, version)`` of sudoku_server, or None.

    Imported on first use (about 20 ms), from any thread; None when the
    package is missing or too old to have the protocol-2 command table (the
    single-file client then uses :class:`HeuristicReader`).
    """
    global _PACKAGE, _PACKAGE_LOADED
    with _PACKAGE_LOCK:
        if not _PACKAGE_LOADED:
            try:
                from sudoku_server import __version__ as version
                from sudoku_server.text import Puzzle, PuzzleReader
                from sudoku_server.wire import verbs as commands

                for name in ("is_verb", "parse_command", "check_arguments", "CommandError"):
                    getattr(commands, name)
                for name in ("feed_line", "finish", "puzzle_start", "awaiting_optional_line"):
                    getattr(PuzzleReader, name)
            except (ImportError, AttributeError):
                _PACKAGE = None
            else:
                _PACKAGE = (PuzzleReader, Puzzle, commands, version)
            _PACKAGE_LOADED = True
    return _PACKAGE


def client_version() -> str:
    """The version: the sudoku_server package's when importable, else :data:`VERSION`."""
    package = _package()
    return package[3] if package is not None else VERSION


# --- replies ----------------------------------------------------------------

#: First words of single-line replies (PROTOCOL.md "Replies", rule 1).
REPLY_WORDS = frozenset(("PONG", "BYE", "VERSION", "COUNT", "INTERACTIVE", "RATE", "HINT"))
#: Those that answer a puzzle (``COUNT 1 unique``, ``RATE ...``): counted as puzzles.
PUZZLE_REPLY_WORDS = frozenset(("COUNT", "RATE", "HINT"))
#: First words of informational blocks, which end with a line ``END`` (rule 3).
BLOCK_WORDS = frozenset(("HELP", "STAT", "STEPS"))
#: Codes of ``ERROR`` replies after which the server closes the connection
#: (with the ``busy`` that says ``... connections open``).
CLOSING_CODES = ("too-large", "shutdown")
#: Cells of a one-line puzzle, by grid size 4, 6, 9, 16, 25.
LINE_CELLS = (16, 36, 81, 256, 625)
#: A run of cells in a reply line: what is left between blanks, ``,`` (a
#: dataset row's solution), ``:`` (an ``id:`` label) and ``#`` (a comment).
_CELL_RUN = re.compile(r"[^\s,:#]+")
#: A single-line reply of a verb this client does not know: an upper-case word,
#: then words holding lower case or ``=`` (never a row of letters).
_OTHER_REPLY = re.compile(r"[A-Z][A-Z-]+ .*[a-z=]")


def is_one_line_answer(text: str) -> bool:
    """True when a reply line is a whole one-line puzzle (16, 36, 81, 256, 625 cells).

    A run of 16 cells is a 4x4 puzzle only when it holds nothing but ``1-4``
    and empty marks: a row of a 16x16 grid holds other symbols.
    """
    longest = max(_CELL_RUN.findall(text), key=len, default="")
    if len(longest) not in LINE_CELLS:
        return False
    return len(longest) != 16 or set(longest) <= set("1234.0_")


class ReplyScanner:
    """Frame and classify the server's replies in a byte stream.

    PROTOCOL.md "Replies": every reply is a single line starting with an
    upper-case word (``PONG``, ``COUNT 1 unique``, ``ERROR <code> <detail>``);
    or a puzzle answer, one line or a grid followed by one empty line,
    optionally after ``#`` lines (``GENERATE``); or a block (``HELP``,
    ``STATS``) whose last line is ``END``. Lines end with LF, CRLF or CR;
    data may come in chunks of any size.

    Attributes:
      replies: complete replies so far.
      solved: puzzle answers (no ``#`` line before them).
      generated: puzzle answers after ``#`` lines.
      words: single-line replies by first word, then by the rest of the line
        (``{"COUNT": {"1 unique": 3, "2+ multiple": 1}}``).
      errors: ``ERROR`` replies by code, lines that were not puzzles apart.
      not_puzzles: ``ERROR command unknown verb ...``: a line of prose, a typo.
      other: blocks and single-line replies other than :data:`PUZZLE_REPLY_WORDS`
        (commands answered).
      failures: puzzle-level ``ERROR`` replies (exit status 1).
      closing_error: the first reply that ended the connection (text), or None.
    """

    _IDLE, _GRID, _BLOCK = range(3)

    def __init__(self) -> None:
        self.replies = 0
        self.solved = 0
        self.generated = 0
        self.words: dict[str, dict[str, int]] = {}
        self.errors: dict[str, int] = {}
        self.not_puzzles = 0
        self.other = 0
        self.failures = 0
        self.closing_error: str | None = None
        self._line = bytearray()
        self._after_cr = False
        self._state = self._IDLE
        self._header = False

    @property
    def puzzles(self) -> int:
        """Replies about a puzzle: answers, COUNT (RATE) lines and ERROR lines (not prose)."""
        counted = sum(sum(self.words.get(word, {}).values()) for word in PUZZLE_REPLY_WORDS)
        return self.solved + self.generated + counted + sum(self.errors.values())

    def feed(self, data: bytes) -> None:
        """Scan the next chunk of the stream."""
        pos = 0
        if self._after_cr and data[:1] == b"\n":
            pos = 1  # the LF of a CRLF split across chunks
        self._after_cr = False
        for match in _LINE_END.finditer(data, pos):
            self._keep(data[pos : match.start()])
            self._end_line()
            pos = match.end()
            if match.end() == len(data) and match.group() == b"\r":
                self._after_cr = True
        self._keep(data[pos:])

    def finish(self) -> None:
        """End of stream: classify a last line with no terminator."""
        if self._line:
            self._end_line()

    def _keep(self, piece: bytes) -> None:
        room = _REPLY_LINE_KEEP - len(self._line)
        if room > 0 and piece:
            self._line += piece[:room]

    def _end_line(self) -> None:
        line = bytes(self._line)
        self._line.clear()
        if self._state == self._BLOCK:
            if line.strip() == b"END":
                self._state = self._IDLE
                self._reply_other()
            return
        if self._state == self._GRID:
            if not line:
                self._state = self._IDLE
                self._answer()
            return
        if not line:
            return
        if line.startswith(b"#"):
            self._header = True
            return
        if line.startswith(ERROR_PREFIX):
            self._error(line.decode("utf-8", "replace"))
            return
        text = line.decode("utf-8", "replace")
        word = text.split(None, 1)[0] if text.strip() else ""
        if word in BLOCK_WORDS:
            self._state = self._BLOCK
        elif word in REPLY_WORDS or _OTHER_REPLY.match(text):
            rest = text[len(word) :].strip()
            by_rest = self.words.setdefault(word, {})
            by_rest[rest] = by_rest.get(rest, 0) + 1
            self.replies += 1
            if word not in PUZZLE_REPLY_WORDS:
                self.other += 1
            self._header = False
        elif is_one_line_answer(text):
            self._answer()
        else:
            self._state = self._GRID

    def _answer(self) -> None:
        self.replies += 1
        if self._header:
            self.generated += 1
        else:
            self.solved += 1
        self._header = False

    def _reply_other(self) -> None:
        self.replies += 1
        self.other += 1
        self._header = False

    def _error(self, text: str) -> None:
        self.replies += 1
        self._header = False
        parts = text.split(" ", 2)
        code = parts[1] if len(parts) > 1 else ""
        if code in CLOSING_CODES or (code == "busy" and "connections open" in text):
            self.errors[code] = self.errors.get(code, 0) + 1
            if self.closing_error is None:
                self.closing_error = text
            return
        self.failures += 1
        if text.startswith("ERROR command unknown verb "):
            self.not_puzzles += 1
        else:
            self.errors[code] = self.errors.get(code, 0) + 1


# --- requests ---------------------------------------------------------------


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

    def feed(self, data: bytes) -> list[tuple[bytes, bytes]]:
        """The lines completed by *data*: ``(text, ending)`` pairs, as bytes."""
        buffer = self._buffer + data
        if self._start:
            if len(buffer) < 3 and b"\xef\xbb\xbf".startswith(buffer):
                self._buffer = buffer
                return []
            if buffer.startswith(b"\xef\xbb\xbf"):
                buffer = buffer[3:]
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


#: Verbs of protocol 2 the single-file reader knows (the package's table is
#: used when it is installed), and those that take a puzzle.
KNOWN_VERBS = frozenset(
    ("HELP", "VERSION", "PING", "QUIT", "SOLVE", "COUNT", "GENERATE", "STATS", "INTERACTIVE", "RATE", "HINT", "STEPS")
)
PUZZLE_VERBS = frozenset(("SOLVE", "COUNT", "RATE", "HINT", "STEPS"))
#: A 9x9 one-line puzzle and nothing else, or a dataset row (puzzle, solution):
#: the common cases, found by both readers without the line-by-line rules
#: (what those make of it, 5 to 10 times sooner).
_PLAIN_ONE_LINE = re.compile(r"[0-9.]{81}(?:,[0-9]{81})?")
#: Flags of the verbs that take a puzzle: words that are not the puzzle's start.
_VERB_FLAGS = frozenset(("any",))
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


class HeuristicReader:
    """Find the requests in the input without the server package (standard library only).

    The same interface as :class:`PackageReader`, approximately: one-line
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
        """Take one line (without its ending); return the requests it completes."""
        if self._closed:
            return []
        grid = self._grid
        if grid is None and self._verb_line is None and _PLAIN_ONE_LINE.fullmatch(text):
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
        if words[0].upper() in KNOWN_VERBS:
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


class PackageReader:
    """Find the requests in the input with the server's own reader (exact).

    Mirrors the protocol session: between puzzles, a line whose first word is
    a verb is a command (``sudoku_server.wire.verbs``); every other line goes
    to ``sudoku_server.text.PuzzleReader``. One :class:`Request` per reply
    the server gives.

    Attributes:
      held_from: the first line of a request not complete yet, or None.
    """

    exact = True

    def __init__(self, package: tuple) -> None:
        reader_class, self._puzzle_class, self._commands, _ = package
        self._reader = reader_class()
        self._verb_line: int | None = None
        self._closed = False

    @property
    def closed(self) -> bool:
        """True after a ``QUIT``: the server reads nothing more."""
        return self._closed

    @property
    def held_from(self) -> int | None:
        if self._verb_line is not None:
            return self._verb_line
        return self._reader.puzzle_start

    def feed_line(self, text: str, ending: str, lineno: int) -> list[Request]:
        if self._closed:
            return []
        reader = self._reader
        if reader.puzzle_start is None and self._verb_line is None and _PLAIN_ONE_LINE.fullmatch(text):
            return [Request(lineno, True, True)]  # what the reader makes of it
        commands = self._commands
        found: list[Request] = []
        if (reader.puzzle_start is None or reader.awaiting_optional_line) and commands.is_verb(text):
            if reader.awaiting_optional_line:
                self._take(reader.finish(), lineno, found)
            if self._verb_line is not None:
                found.append(Request(self._verb_line, False))  # no puzzle followed it
                self._verb_line = None
            try:
                command = commands.parse_command(text, lineno, ending)
                commands.check_arguments(command)
            except commands.CommandError:
                found.append(Request(lineno, False))
                return found
            if command.name == "QUIT":
                self._closed = True
            if command.verb.takes_puzzle and command.puzzle_text is None:
                self._verb_line = lineno
            else:
                found.append(Request(lineno, False))
            return found
        self._take(reader.feed_line(text, ending, lineno), lineno, found)
        return found

    def finish(self) -> list[Request]:
        found: list[Request] = []
        self._take(self._reader.finish(), 0, found)
        if self._verb_line is not None:
            found.append(Request(self._verb_line, False))
            self._verb_line = None
        return found

    def _take(self, events: Iterable[object], lineno: int, found: list[Request]) -> None:
        for event in events:
            attached = self._verb_line is not None
            self._verb_line = None
            if isinstance(event, self._puzzle_class):
                one_line = event.layout in ("line", "csv")
                found.append(Request(event.first_line, True, one_line, attached))
            else:
                found.append(Request(lineno, False, False, attached))


def make_reader() -> object:
    """A :class:`PackageReader` when sudoku_server is importable, else a :class:`HeuristicReader`."""
    package = _package()
    return PackageReader(package) if package is not None else HeuristicReader()


class RequestStream:
    """The input split into requests, optionally with a verb put before each puzzle.

    Feed it the input's bytes; it returns what to send, line by line, once
    each line's request is known: with ``verb="COUNT"``, ``COUNT <puzzle>``
    for a one-line puzzle and a line ``COUNT`` before the first line of a
    grid (with the grid's line ending). Lines of other requests, and puzzles
    that already follow a verb, go unchanged.

    Args:
      verb: the verb to put before each puzzle, or None.
      reader: :func:`make_reader` by default.
      keep_output: False to count requests only (nothing is returned).

    Attributes:
      requests: requests completed so far (the server gives each one reply).
      exact: the count comes from the server package's reader.
    """

    def __init__(self, verb: str | None = None, reader: object | None = None, keep_output: bool = True) -> None:
        self.reader = reader if reader is not None else make_reader()
        self.exact = bool(getattr(self.reader, "exact", False))
        self.requests = 0
        self._verb = verb.encode("ascii") if verb else None
        self._keep = keep_output
        self._lines = LineSplitter()
        self._lineno = 0
        self._held: list[tuple[int, bytes, bytes]] = []
        self._prefix: dict[int, bool] = {}  # first line -> one-line puzzle

    @property
    def closed(self) -> bool:
        """True after a ``QUIT``: nothing more is a request."""
        return bool(getattr(self.reader, "closed", False))

    def feed(self, data: bytes) -> bytes:
        """Take input bytes; return the bytes that are ready to send."""
        for text, ending in self._lines.feed(data):
            self._line(text, ending)
        return self._flush(self.reader.held_from)

    def finish(self) -> bytes:
        """End of input: return the rest."""
        for text, ending in self._lines.finish():
            self._line(text, ending)
        self._take(self.reader.finish())
        return self._flush(None)

    def _line(self, text: bytes, ending: bytes) -> None:
        self._lineno += 1
        if self._keep:
            self._held.append((self._lineno, text, ending))
        decoded = text.decode("utf-8", "surrogateescape")
        self._take(self.reader.feed_line(decoded, ending.decode("latin-1"), self._lineno))

    def _take(self, requests: list[Request]) -> None:
        self.requests += len(requests)
        if self._verb is not None and self._keep:
            for request in requests:
                if request.puzzle and not request.attached:
                    self._prefix[request.first_line] = request.one_line

    def _flush(self, held_from: int | None) -> bytes:
        held = self._held
        if not held:
            return b""
        count = len(held)
        if held_from is not None:
            count = 0
            while count < len(held) and held[count][0] < held_from:
                count += 1
        if not count:
            return b""
        out = []
        for lineno, text, ending in held[:count]:
            one_line = self._prefix.pop(lineno, None)
            if one_line is not None:
                assert self._verb is not None
                out.append(self._verb + (b" " if one_line else ending or b"\n"))
            out.append(text + ending)
        del held[:count]
        return b"".join(out)


def count_requests(chunks: Iterable[bytes], reader: object | None = None) -> int:
    """Requests (replies the server will give) in the input made of *chunks*."""
    stream = RequestStream(reader=reader, keep_output=False)
    for chunk in chunks:
        stream.feed(chunk)
    stream.finish()
    return stream.requests


# --- per-puzzle verb modes (--count; --rate is one more entry) ----------------


class VerbMode(NamedTuple):
    """A mode that sends one verb before every puzzle (``--count``).

    Attributes:
      verb: the verb sent (``COUNT``).
      failed: replies that make the exit status 1 besides ERROR lines, from
        the verb's replies (the rest of the line -> how many).
      summary: the summary's words for the verb's replies.
    """

    verb: str
    failed: Callable[[dict[str, int]], int]
    summary: Callable[[dict[str, int]], list[str]]


def _count_summary(replies: dict[str, int]) -> list[str]:
    unique = replies.get("1 unique", 0)
    others = sorted((rest, n) for rest, n in replies.items() if rest != "1 unique")
    words = ["%d unique" % unique]
    if others:
        detail = ", ".join("%s %d" % (rest, n) for rest, n in others)
        words.append("%d not unique (%s)" % (sum(n for _, n in others), detail))
    return words


def _rate_summary(replies: dict[str, int]) -> list[str]:
    levels: dict[str, int] = {}
    for rest, n in replies.items():
        level = rest.split(" ", 1)[0]
        levels[level] = levels.get(level, 0) + n
    order = ("easy", "medium", "hard", "expert", "extreme")
    return ["rated " + ", ".join("%s %d" % (level, levels[level]) for level in order if level in levels)]


VERB_MODES: dict[str, VerbMode] = {
    "count": VerbMode(
        "COUNT",
        failed=lambda replies: sum(n for rest, n in replies.items() if rest != "1 unique"),
        summary=_count_summary,
    ),
    "rate": VerbMode("RATE", failed=lambda replies: 0, summary=_rate_summary),
}


def summary_text(scanner: ReplyScanner, seconds: float, mode: VerbMode | None = None) -> str:
    """The summary line (without the program name).

    ``95 puzzles: 94 solved, 1 error (invalid 1); 2 lines were not puzzles;
    0.42 s, 226 puzzles/s``.
    """
    details = []
    if scanner.solved or not (scanner.generated or mode):
        details.append("%d solved" % scanner.solved)
    if scanner.generated:
        details.append("%d generated" % scanner.generated)
    if mode is not None:
        details.extend(mode.summary(scanner.words.get(mode.verb, {})))
    errors = sum(scanner.errors.values())
    text = _plural(errors, "error")
    if errors:
        text += " (%s)" % ", ".join("%s %d" % (code, n) for code, n in sorted(scanner.errors.items()))
    details.append(text)
    parts = ["%s: %s" % (_plural(scanner.puzzles, "puzzle"), ", ".join(details))]
    if scanner.not_puzzles:
        if scanner.not_puzzles == 1:
            parts.append("1 line was not a puzzle")
        else:
            parts.append("%d lines were not puzzles" % scanner.not_puzzles)
    if scanner.other:
        parts.append("%s answered" % _plural(scanner.other, "command"))
    rate = scanner.puzzles / seconds if seconds > 0 else 0.0
    parts.append("%.2f s, %s puzzles/s" % (seconds, ("%.0f" if rate >= 100 else "%.1f") % rate))
    return "; ".join(parts)


# --- progress ------------------------------------------------------------------


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    if seconds >= 3600:
        return "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)
    return "%d:%02d" % (seconds // 60, seconds % 60)


class PlainProgress:
    """A ``\\r``-updated line on standard error (when tqdm is not installed).

    ``sudoku-client: 450/1000 puzzles (45%), 400/s, ETA 0:01``; without a
    total, ``sudoku-client: 450 puzzles, 400/s``.
    """

    def __init__(self, total: int | None, done: int, stream) -> None:
        self.total = total
        self._stream = stream
        self._started = time.monotonic()
        self._start_done = done
        self._drawn = 0.0
        self._width = 0
        self.update(done)

    def update(self, done: int, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._drawn < PROGRESS_INTERVAL:
            return
        self._drawn = now
        elapsed = now - self._started
        rate = (done - self._start_done) / elapsed if elapsed > 0 else 0.0
        if self.total:
            text = "%s: %d/%d puzzles (%d%%)" % (PROG, done, self.total, 100 * done // self.total)
        else:
            text = "%s: %d puzzles" % (PROG, done)
        if rate > 0:
            text += ", %.0f/s" % rate
            if self.total and done < self.total:
                text += ", ETA %s" % _clock((self.total - done) / rate)
        pad = max(0, self._width - len(text))
        self._width = len(text)
        self._stream.write("\r" + text + " " * pad)
        self._stream.flush()

    def close(self) -> None:
        if self._width:
            self._stream.write("\r" + " " * self._width + "\r")
            self._stream.flush()


class TqdmProgress:
    """The same, drawn by tqdm (``pip install 'sudoku-server[progress]'``)."""

    def __init__(self, tqdm_class, total: int | None, done: int, stream) -> None:
        self._bar = tqdm_class(
            total=total,
            initial=done,
            unit="puzzle",
            desc=PROG,
            file=stream,
            leave=False,
            mininterval=PROGRESS_INTERVAL,
            dynamic_ncols=True,
        )
        self.total = total

    def update(self, done: int, force: bool = False) -> None:
        if self._bar.total != self.total:
            self._bar.total = self.total
            self._bar.refresh()
        if done > self._bar.n:
            self._bar.update(done - self._bar.n)

    def close(self) -> None:
        self._bar.close()


class Progress:
    """Progress of the answers on standard error, from :data:`PROGRESS_MIN_PUZZLES` on.

    Args:
      total: a callable returning the requests in the input (None when unknown).
      stream: standard error.
      use_tqdm: draw with tqdm when it is importable.
      counting: a callable, True while the total is being counted: the bar
        waits for it (the count is much faster than the answers).
    """

    def __init__(
        self,
        total: Callable[[], int | None],
        stream,
        use_tqdm: bool = True,
        counting: Callable[[], bool] = lambda: False,
    ) -> None:
        self._total = total
        self._stream = stream
        self._use_tqdm = use_tqdm
        self._counting = counting
        self._bar: object | None = None

    def update(self, done: int) -> None:
        total = self._total()
        bar = self._bar
        if bar is None:
            if max(total or 0, done) <= PROGRESS_MIN_PUZZLES or (total is None and self._counting()):
                return
            bar = self._bar = self._start(total, done)
        bar.total = total
        bar.update(done)

    def _start(self, total: int | None, done: int) -> object:
        if self._use_tqdm:
            try:
                from tqdm import tqdm
            except ImportError:
                pass
            else:
                return TqdmProgress(tqdm, total, done, self._stream)
        return PlainProgress(total, done, self._stream)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


class _Counter(threading.Thread):
    """Count the requests of regular-file inputs in the background.

    The count is the progress bar's total and, when exact, what the replies
    are checked against at the end.

    Reads its own duplicates of the inputs' descriptors with ``os.pread``,
    which leaves the sender's offsets alone (standard input included).

    Attributes:
      total: the requests counted, once done (None before, or on a read error).
      exact: counted by the server package's reader.
    """

    def __init__(self, sources: Sequence[tuple[str, io.FileIO]]) -> None:
        super().__init__(name="sudoku-client-counter", daemon=True)
        self._inputs: list[tuple[int, int]] = []  # (duplicate descriptor, start offset)
        for _, source in sources:
            fd = os.dup(source.fileno())
            self._inputs.append((fd, os.lseek(fd, 0, os.SEEK_CUR)))
        self.total: int | None = None
        self.exact = False

    @staticmethod
    def applies(sources: Sequence[tuple[str, io.FileIO]]) -> bool:
        """True when every input is a regular file (a pipe or a terminal cannot be read twice)."""
        try:
            return bool(sources) and all(stat.S_ISREG(os.fstat(s.fileno()).st_mode) for _, s in sources)
        except (OSError, ValueError):
            return False

    def _chunks(self) -> Iterator[bytes]:
        for fd, offset in self._inputs:
            while True:
                data = os.pread(fd, CHUNK_BYTES, offset)
                if not data:
                    break
                offset += len(data)
                yield data

    def run(self) -> None:
        try:
            reader = make_reader()
            total = count_requests(self._chunks(), reader)
        except OSError:
            return  # the sender reports a file it cannot read
        finally:
            for fd, _ in self._inputs:
                os.close(fd)
        self.exact = bool(getattr(reader, "exact", False))
        self.total = total


# --- sending and reading ---------------------------------------------------------


class _Shared:
    """State shared by the sending thread and the reading main thread.

    Plain attribute assignments, which are atomic in CPython; no lock needed.
    """

    def __init__(self) -> None:
        self.last_activity = time.monotonic()
        self.waiting_for_input = False
        self.input_error: str | None = None
        self.send_error: str | None = None
        self.finished = False

    def touch(self) -> None:
        self.last_activity = time.monotonic()


class _InputFailed(Exception):
    """An input could not be read (the reason is in ``_Shared.input_error``)."""


def _read_sources(sources: Sequence[tuple[str, io.FileIO]], shared: _Shared) -> Iterator[bytes]:
    """Yield the inputs' bytes in order; closes them when done.

    Raises:
      _InputFailed: a read failed (``shared.input_error`` says why).
    """
    try:
        for name, source in sources:
            while True:
                shared.waiting_for_input = True
                try:
                    # Unbuffered: one read() returns what is available (a
                    # pipe, a terminal line) instead of waiting for a chunk.
                    data = source.read(CHUNK_BYTES)
                except (OSError, ValueError) as exc:
                    shared.input_error = "cannot read %s: %s" % (name, _describe(exc))
                    raise _InputFailed() from exc
                finally:
                    shared.waiting_for_input = False
                    shared.touch()
                if data is None:  # a non-blocking input with nothing yet
                    time.sleep(POLL_SECONDS / 10)
                    continue
                if not data:
                    break
                yield data
    finally:
        _close_sources(sources)


def _through(chunks: Iterable[bytes], stream: RequestStream) -> Iterator[bytes]:
    """The chunks rewritten by *stream* (a verb before each puzzle)."""
    for data in chunks:
        out = stream.feed(data)
        if out:
            yield out
    out = stream.finish()
    if out:
        yield out


class _Sender(threading.Thread):
    """Send the chunks to the socket, then half-close it."""

    def __init__(self, sock: socket.socket, chunks: Iterator[bytes], shared: _Shared) -> None:
        super().__init__(name="sudoku-client-sender", daemon=True)
        self._sock = sock
        self._chunks = chunks
        self._shared = shared

    def run(self) -> None:
        shared = self._shared
        try:
            for data in self._chunks:
                if not self._send(data):
                    return
            try:
                self._sock.shutdown(socket.SHUT_WR)
            except OSError as exc:
                shared.send_error = _describe(exc)
        except _InputFailed:
            self._abort()
        finally:
            # The sender owns the inputs once started: closing them from the
            # main thread could block on a read in progress.
            close = getattr(self._chunks, "close", None)
            if close is not None:
                close()
            shared.finished = True

    def _send(self, data: bytes) -> bool:
        view = memoryview(data)
        while view:
            try:
                sent = self._sock.send(view)
            except (OSError, ValueError) as exc:
                self._shared.send_error = _describe(exc)
                return False
            view = view[sent:]
            self._shared.touch()
        return True

    def _abort(self) -> None:
        # Wake the reader: never half-close normally after a partial input,
        # the server would answer a truncated puzzle.
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _stdout_gone() -> None:
    """Point standard output at devnull so the exit flush raises nothing."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


class _Output:
    """Where replies go: standard output, and the scanner and progress that watch them."""

    def __init__(self, out: BinaryIO, scanner: ReplyScanner, progress: Progress | None = None) -> None:
        self.out = out
        self.scanner = scanner
        self.progress = progress

    def write(self, data: bytes) -> bool:
        """Print and scan *data*; False when standard output is gone."""
        try:
            self.out.write(data)
            self.out.flush()
        except BrokenPipeError:
            _stdout_gone()
            return False
        self.scanner.feed(data)
        if self.progress is not None:
            self.progress.update(self.scanner.replies)
        return True


def _exchange(
    sock: socket.socket,
    address: str,
    chunks: Callable[[_Shared], Iterator[bytes]],
    timeout: float,
    output: _Output,
    interactive: bool = False,
) -> int:
    """Send ``chunks(shared)`` while printing the answers; return EXIT_OK or EXIT_FAILURE.

    EXIT_FAILURE is the connection failing (the reason is printed); whether a
    reply was an error is for the caller to judge from ``output.scanner``.
    *chunks* makes the iterator of bytes to send, given the state it reports
    its reads to (:func:`_read_sources`). *interactive* tells that an input
    is a terminal.
    """
    shared = _Shared()
    sender = _Sender(sock, chunks(shared), shared)
    sender.start()
    scanner = output.scanner
    while True:
        now = time.monotonic()
        if shared.waiting_for_input:
            # The silence limit is for answers, not for a person typing.
            shared.touch()
            remaining = timeout
        else:
            remaining = shared.last_activity + timeout - now
        if remaining <= 0:
            _error("no answer from %s within %g s" % (address, timeout))
            return EXIT_FAILURE
        readable, _, _ = select.select([sock], [], [], min(remaining, POLL_SECONDS))
        if not readable:
            continue
        try:
            data = sock.recv(CHUNK_BYTES)
        except OSError as exc:
            _error("connection to %s broken: %s" % (address, _describe(exc)))
            return EXIT_FAILURE
        if not data:
            break
        shared.touch()
        if not output.write(data):
            return EXIT_FAILURE
    scanner.finish()
    if scanner.closing_error is not None:
        _error("the server ended the connection: %s" % scanner.closing_error)
        return EXIT_FAILURE

    if not shared.finished and not (shared.waiting_for_input and interactive):
        # The server closed before the input ended (a too-large line, say).
        # A pipe or file goes on, and the next send fails: wait a moment for
        # that so the report below is right. A person at a terminal who types
        # nothing more is not an error.
        sender.join(SENDER_JOIN_SECONDS)
    if shared.input_error is not None:
        _error(shared.input_error)
        return EXIT_FAILURE
    lost_input = shared.send_error is not None or not (shared.finished or shared.waiting_for_input)
    if lost_input:
        reason = " (%s)" % shared.send_error if shared.send_error else ""
        _error("%s closed the connection before all input was sent%s" % (address, reason))
        return EXIT_FAILURE
    if interactive and not shared.finished and not scanner.words.get("BYE"):
        # Closed on its idle limit (a QUIT's BYE needs no word).
        _error("%s ended the session" % address)
    return EXIT_OK


# --- interactive use (a terminal on standard input) --------------------------------


def _handshake(sock: socket.socket, address: str, timeout: float) -> tuple[bool | None, bytes]:
    """Send ``INTERACTIVE``; return (True: supported, False: unknown verb, None: other) and the bytes after its reply.

    The reply's line is consumed (not printed) when it is ``INTERACTIVE ...`` or
    the unknown-verb error; anything else is returned whole, to be printed.

    Raises:
      OSError: sending or receiving failed; socket.timeout: no reply in *timeout*.
    """
    sock.sendall(INTERACTIVE_REQUEST)
    data = b""
    deadline = time.monotonic() + timeout
    while b"\n" not in data:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("timed out")
        readable, _, _ = select.select([sock], [], [], min(remaining, POLL_SECONDS))
        if not readable:
            continue
        chunk = sock.recv(CHUNK_BYTES)
        if not chunk:
            return None, data
        data += chunk
    line, _, rest = data.partition(b"\n")
    if line.startswith(b"INTERACTIVE"):
        return True, rest
    if line.startswith(INTERACTIVE_UNKNOWN):
        return False, rest
    return None, data


def _one_connection(host: str, port: int, address: str, data: bytes, timeout: float, output: _Output) -> int:
    """Send *data* on a connection of its own, half-close, print the replies."""
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as exc:
        _error("cannot connect to %s: %s" % (address, _describe(exc)))
        return EXIT_FAILURE
    try:
        sock.settimeout(None)
        return _exchange(sock, address, lambda shared: iter([data]), timeout, output)
    finally:
        _close_socket(sock)


def _interactive(
    sock: socket.socket,
    args: argparse.Namespace,
    address: str,
    sources: Sequence[tuple[str, io.FileIO]],
    output: _Output,
    verb: str | None,
) -> int:
    """A person at the terminal: one session kept open until Ctrl-D.

    With a server that knows ``INTERACTIVE``, every line goes out as it is
    typed and each puzzle is answered as soon as it is complete. Without it,
    the client keeps each request until it is complete (:class:`RequestStream`)
    and sends it on a connection of its own, so that the server's close
    grace never ends the session.
    """
    if not args.quiet and sys.stderr.isatty():
        _error("connected to %s; type or paste puzzles (each is answered when it is complete), Ctrl-D to end" % address)
    try:
        supported, rest = _handshake(sock, address, args.timeout)
    except OSError as exc:
        _close_sources(sources)
        if isinstance(exc, socket.timeout):
            _error("no answer from %s within %g s" % (address, args.timeout))
        else:
            _error("connection to %s broken: %s" % (address, _describe(exc)))
        return EXIT_FAILURE
    if supported is None and not rest:
        _close_sources(sources)
        _error("%s closed the connection before answering INTERACTIVE" % address)
        return EXIT_FAILURE
    if supported is not False:
        if rest and not output.write(rest):
            _close_sources(sources)
            return EXIT_FAILURE

        def chunks(shared: _Shared) -> Iterator[bytes]:
            reads = _read_sources(sources, shared)
            return reads if verb is None else _through(reads, RequestStream(verb))

        return _exchange(sock, address, chunks, args.timeout, output, interactive=True)
    _close_socket(sock)
    return _one_request_at_a_time(args, address, sources, output, verb)


def _one_request_at_a_time(
    args: argparse.Namespace,
    address: str,
    sources: Sequence[tuple[str, io.FileIO]],
    output: _Output,
    verb: str | None,
) -> int:
    """A terminal and a server without ``INTERACTIVE``: a connection per complete request.

    What is typed is kept until the request it belongs to is complete, then
    sent with everything before it on a new connection, which is
    half-closed at once; the answers are printed as they come. A ``QUIT``
    ends the session like Ctrl-D.
    """
    stream = RequestStream(verb)
    shared = _Shared()
    reads = _read_sources(sources, shared)
    pending = b""
    sent = 0
    try:
        for data in reads:
            pending += stream.feed(data)
            if stream.requests > sent:
                sent = stream.requests
                status = _one_connection(args.host, args.port, address, pending, args.timeout, output)
                pending = b""
                if status != EXIT_OK or stream.closed:
                    return status
    except _InputFailed:
        _error(shared.input_error or "cannot read the input")
        return EXIT_FAILURE
    finally:
        reads.close()
    pending += stream.finish()
    if stream.requests > sent:
        return _one_connection(args.host, args.port, address, pending, args.timeout, output)
    return EXIT_OK


# --- the command line ---------------------------------------------------------------


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError("invalid port %r (expected 1-65535)" % text)
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError("invalid timeout %r (expected seconds > 0)" % text)
    return value


def _natural(low: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            value = low - 1
        if value < low:
            raise argparse.ArgumentTypeError("invalid number %r (expected an integer >= %d)" % (text, low))
        return value

    return parse


#: GENERATE's options, as the client passes them on (PROTOCOL.md "Commands").
GENERATE_SIZES = (4, 6, 9, 16, 25)
GENERATE_SYMMETRIES = ("none", "rot180", "rot90", "mirror", "diagonal", "random")


def build_parser() -> argparse.ArgumentParser:
    """Return the command-line parser."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=(
            "Send Sudoku puzzles to a sudoku-server and print its answers.\n\n"
            "The FILEs (standard input when none is given; '-' is standard input\n"
            "too) are sent as they are, one after the other, over one connection.\n"
            "Every answer is printed as soon as it arrives; the client exits when\n"
            "the server has answered everything and closed the connection.\n\n"
            "With a terminal on standard input the session stays open: type or\n"
            "paste puzzles, each is answered when it is complete; Ctrl-D ends.\n"
            "The client asks the server for an INTERACTIVE session; a server\n"
            "without that verb gets each puzzle, once complete, on a connection\n"
            "of its own.\n\n"
            "On standard error: a progress bar for more than %d puzzles when it\n"
            "is a terminal (and standard output is not), drawn by tqdm when it is\n"
            "installed; at the end, a summary (puzzles, solved, errors by code,\n"
            "seconds, puzzles/s) when it is a terminal or with --summary. --quiet\n"
            "turns both off." % PROGRESS_MIN_PUZZLES
        ),
        epilog=(
            EXIT_TABLE + "\n"
            "requests: --count, the progress total and the check that every request\n"
            "was answered use the sudoku_server package's reader when it is\n"
            "installed. The single-file client (python3 sudoku_client/client.py)\n"
            "finds one-line puzzles, and grids separated by blank lines (or of n\n"
            "rows of n cells); its progress total is an estimate.\n\n"
            "examples:\n"
            "  sudoku-client --host sudoku.example --port 9999 puzzles/newspaper.txt\n"
            "  sudoku-client --count puzzles/norvig_top95.txt\n"
            "  sudoku-client --generate 3 --symmetry rot180 --seed 42"
        ),
    )
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="puzzle file to send ('-' for standard input; default: standard input)",
    )
    parser.add_argument("--version", action="version", version="%s %s" % (PROG, client_version()))
    parser.add_argument(
        "--host",
        default=os.environ.get("SUDOKU_HOST") or DEFAULT_HOST,
        help="server host (default: $SUDOKU_HOST or %s; now %%(default)s)" % DEFAULT_HOST,
    )
    parser.add_argument(
        "--port",
        type=_port,
        default=os.environ.get("SUDOKU_PORT") or str(DEFAULT_PORT),
        help="server port (default: $SUDOKU_PORT or %d; now %%(default)s)" % DEFAULT_PORT,
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=(
            "connect timeout, and the longest silence from the server accepted "
            "while waiting for answers (default: %(default)g)"
        ),
    )
    parser.add_argument(
        "--proxy-header",
        action="store_true",
        help="start the connection with a PROXY protocol v1 header (a server run with --proxy-protocol)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary, no hint")
    parser.add_argument(
        "--summary", action="store_true", help="print the summary also when standard error is not a terminal"
    )
    modes = parser.add_argument_group("modes (instead of solving)")
    exclusive = modes.add_mutually_exclusive_group()
    exclusive.add_argument(
        "--count",
        action="store_true",
        help=(
            "ask whether each puzzle of the FILEs is unique: COUNT before each one; "
            "prints COUNT 1 unique, COUNT 2+ multiple or COUNT 0 unsolvable per puzzle"
        ),
    )
    exclusive.add_argument(
        "--rate",
        action="store_true",
        help=(
            "rate each puzzle of the FILEs by the techniques people use: RATE before each"
            " one; prints RATE <level> se=<x.y> qqwing=<level> hardest=<technique> per puzzle"
        ),
    )
    exclusive.add_argument(
        "--ping",
        action="store_true",
        help=(
            "health check: send PING and print the reply; exit 0 on PONG, 1 on ERROR"
            " draining, 2 when it cannot connect (for load balancers, Docker, Kubernetes)"
        ),
    )
    exclusive.add_argument(
        "--generate",
        type=_natural(1),
        metavar="N",
        help="print N new puzzles (N GENERATE requests); takes no FILE",
    )
    generate = parser.add_argument_group("--generate options (passed to GENERATE)")
    generate.add_argument("--size", type=int, choices=GENERATE_SIZES, help="grid size (server default 9)")
    generate.add_argument("--symmetry", choices=GENERATE_SYMMETRIES, help="of the givens (server default none)")
    generate.add_argument("--givens", type=_natural(0), metavar="N", help="stop removing givens at N")
    generate.add_argument(
        "--seed", type=_natural(0), metavar="S", help="seed of the first puzzle; the next ones get S+1, S+2..."
    )
    generate.add_argument(
        "--format", choices=("line", "grid"), help="one line, or a bordered grid (server default line)"
    )
    generate.add_argument("--full", action="store_true", help="solved grids instead of puzzles")
    return parser


def generate_lines(args: argparse.Namespace) -> Iterator[bytes]:
    """The GENERATE request lines for ``--generate N`` (``seed=S+i`` with ``--seed S``)."""
    words = ["GENERATE"]
    if args.full:
        words.append("full")
    if args.size is not None:
        words.append("size=%d" % args.size)
    if args.symmetry is not None:
        words.append("symmetry=%s" % args.symmetry)
    if args.givens is not None:
        words.append("givens=%d" % args.givens)
    if args.format is not None:
        words.append("format=%s" % args.format)
    base = " ".join(words)
    for index in range(args.generate):
        if args.seed is None:
            yield (base + "\n").encode("ascii")
        else:
            yield ("%s seed=%d\n" % (base, args.seed + index)).encode("ascii")


def _batched(lines: Iterable[bytes], size: int = CHUNK_BYTES) -> Iterator[bytes]:
    batch: list[bytes] = []
    length = 0
    for line in lines:
        batch.append(line)
        length += len(line)
        if length >= size:
            yield b"".join(batch)
            batch, length = [], 0
    if batch:
        yield b"".join(batch)


def _open_sources(names: Sequence[str]) -> list[tuple[str, io.FileIO]]:
    """Open every input up front, so a missing file fails before connecting.

    Raises:
      OSError: a file cannot be opened; ``filename`` names it.
    """
    # Unbuffered (FileIO) on purpose: a daemon thread blocked in a buffered
    # read holds the buffer's lock, and the interpreter then aborts at exit
    # ("could not acquire lock for <stdin> at interpreter shutdown").
    stdin: io.FileIO | None = None
    sources: list[tuple[str, io.FileIO]] = []
    try:
        for name in names or ["-"]:
            if name == "-":
                if stdin is None:
                    if sys.stdin is None:
                        raise OSError(0, "no standard input", "-")
                    stdin = io.FileIO(sys.stdin.fileno(), "rb", closefd=False)
                sources.append(("standard input", stdin))
            else:
                sources.append((name, io.FileIO(name, "rb")))
    except OSError:
        _close_sources(sources)
        raise
    return sources


def _close_sources(sources: Sequence[tuple[str, io.FileIO]]) -> None:
    for _, source in sources:
        source.close()  # standard input itself stays open (closefd=False)


def _close_socket(sock: socket.socket) -> None:
    try:
        # Wakes a sender blocked in send() before the socket goes away.
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


def _isatty(stream) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (OSError, ValueError):
        return False


def proxy_v1_header(sock: socket.socket) -> bytes:
    """A PROXY protocol v1 header for this connection (HAProxy's proxy-protocol.txt).

    It names the connection's own ends: a health check made through a
    server's ``--proxy-protocol`` port.
    """
    source, destination = sock.getsockname()[:2], sock.getpeername()[:2]
    proto = "TCP6" if sock.family == socket.AF_INET6 else "TCP4"
    return ("PROXY %s %s %s %d %d\r\n" % (proto, source[0], destination[0], source[1], destination[1])).encode()


def ping(host: str, port: int, timeout: float, proxy_header: bool = False) -> int:
    """``--ping``: one PING; 0 on PONG, 1 on ERROR draining, 2 otherwise (the reason on stderr)."""
    address = _format_address(host, port)
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            request = (proxy_v1_header(sock) if proxy_header else b"") + b"PING\r\n"
            sock.sendall(request)
            sock.shutdown(socket.SHUT_WR)
            reply = b""
            while b"\n" not in reply and len(reply) < 1024:
                data = sock.recv(1024)
                if not data:
                    break
                reply += data
    except OSError as exc:
        _error("cannot ping %s: %s" % (address, _describe(exc)))
        return EXIT_FAILURE
    line = reply.split(b"\n", 1)[0].rstrip(b"\r").decode("utf-8", "replace")
    if line:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    if line == "PONG":
        return EXIT_OK
    if line.startswith("ERROR draining"):
        return EXIT_ERROR_ANSWER
    _error("%s answered %r to PING" % (address, line) if line else "%s closed without answering PING" % address)
    return EXIT_FAILURE


def main(argv: Sequence[str] | None = None) -> int:
    """Run the client; return the exit code (0, 1, 2 or 130, see --help)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.generate is None:
        given = [name for name in ("size", "symmetry", "givens", "seed", "format") if getattr(args, name) is not None]
        if args.full:
            given.append("full")
        if given:
            parser.error("--%s needs --generate" % given[0])
    elif args.files:
        parser.error("--generate takes no FILE")
    address = _format_address(args.host, args.port)
    if args.ping:
        if args.files:
            parser.error("--ping takes no FILE")
        return ping(args.host, args.port, args.timeout, args.proxy_header)
    mode = VERB_MODES["count"] if args.count else VERB_MODES["rate"] if args.rate else None

    sources: list[tuple[str, io.FileIO]] = []
    if args.generate is None:
        try:
            sources = _open_sources(args.files)
        except OSError as exc:
            _error("cannot read %s: %s" % (exc.filename, _describe(exc)))
            return EXIT_FAILURE
    interactive = any(_isatty(source) for _, source in sources)
    stderr_tty = _isatty(sys.stderr)
    scanner = ReplyScanner()

    counter: _Counter | None = None
    if args.generate is not None:

        def total() -> int | None:
            return args.generate

    else:
        if not interactive and _Counter.applies(sources):
            counter = _Counter(sources)
            counter.start()

        def total() -> int | None:
            return counter.total if counter is not None else None

    progress = None
    if not args.quiet and stderr_tty and not interactive and not _isatty(sys.stdout):
        progress = Progress(total, sys.stderr, counting=lambda: counter is not None and counter.is_alive())
    output = _Output(sys.stdout.buffer, scanner, progress)

    sock: socket.socket | None = None
    started = time.monotonic()
    status = EXIT_OK
    try:
        try:
            sock = socket.create_connection((args.host, args.port), timeout=args.timeout)
        except OSError as exc:
            _close_sources(sources)
            _error("cannot connect to %s: %s" % (address, _describe(exc)))
            return EXIT_FAILURE
        sock.settimeout(None)  # the sender blocks; the reader uses select()
        verb = mode.verb if mode is not None else None
        sent: RequestStream | None = None
        if interactive:
            status = _interactive(sock, args, address, sources, output, verb)
        else:
            if verb is not None:
                sent = RequestStream(verb)
            stream = sent

            def chunks(shared: _Shared) -> Iterator[bytes]:
                if args.generate is not None:
                    return _batched(generate_lines(args))
                reads = _read_sources(sources, shared)
                return reads if stream is None else _through(reads, stream)

            status = _exchange(sock, address, chunks, args.timeout, output)
    except KeyboardInterrupt:
        if progress is not None:
            progress.close()
        return EXIT_INTERRUPTED
    finally:
        if sock is not None:
            _close_socket(sock)
    if progress is not None:
        progress.close()
    seconds = time.monotonic() - started

    if status == EXIT_OK:
        expected, exact = None, False
        if args.generate is not None:
            expected, exact = args.generate, True
        elif sent is not None:
            expected, exact = sent.requests, sent.exact
        elif counter is not None:
            counter.join()
            expected, exact = counter.total, counter.exact
        if exact and expected is not None and scanner.replies < expected:
            _error("%s answered %d of %s" % (address, scanner.replies, _plural(expected, "request")))
            status = EXIT_FAILURE
    if status == EXIT_OK:
        failed = scanner.failures
        if mode is not None:
            failed += mode.failed(scanner.words.get(mode.verb, {}))
        status = EXIT_ERROR_ANSWER if failed else EXIT_OK
    if not args.quiet and (args.summary or stderr_tty):
        _error(summary_text(scanner, seconds, mode))
    return status


if __name__ == "__main__":
    sys.exit(main())
