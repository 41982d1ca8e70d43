"""The server's replies: framing and classifying them, and the summary line.

PROTOCOL.md "Replies" gives the three shapes a reply takes (a single line, a
puzzle answer, a block ending with ``END``); :class:`ReplyScanner` tells them
apart in a byte stream of any chunking and counts them by kind, which decides
the exit status and fills the summary (:func:`summary_text`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from sudoku_client.common import plural

#: Marks the start of a failed answer (PROTOCOL.md: ``ERROR <code> <detail>``).
ERROR_PREFIX = b"ERROR "
#: Line ends, as the server reads and writes them: LF, CRLF, a lone CR.
_LINE_END = re.compile(rb"\r\n|\r|\n")
#: Bytes of a reply line kept to classify it (an ERROR's text, a 25x25 one-line answer).
_REPLY_LINE_KEEP = 2048


#: First words of single-line replies (PROTOCOL.md "Replies", rule 1).
REPLY_WORDS = frozenset(("PONG", "BYE", "VERSION", "COUNT", "INTERACTIVE", "RATE", "HINT", "MINIMAL", "CANON", "SAME"))
#: Those that answer a puzzle (``COUNT 1 unique``, ``RATE ...``, ``MINIMAL yes``): counted as puzzles.
PUZZLE_REPLY_WORDS = frozenset(("COUNT", "RATE", "HINT", "MINIMAL", "CANON", "SAME"))
#: First words of informational blocks, which end with a line ``END`` (rule 3).
BLOCK_WORDS = frozenset(("HELP", "STAT", "STEPS"))
#: Codes of ``ERROR`` replies after which the server closes the connection
#: (with the ``busy`` that says ``... connections open``, ``1 connection open``).
CLOSING_CODES = ("too-large", "shutdown", "proxy")
_CONNECTIONS_OPEN = re.compile(r"\bconnections? open\b")
#: Cells of a one-line puzzle, by grid size 4, 6, 9, 16, 25.
LINE_CELLS = (16, 36, 81, 256, 625)
#: A run of cells in a reply line: what is left between blanks, ``,`` (a
#: dataset row's solution), ``:`` (an ``id:`` label) and ``#`` (a comment).
_CELL_RUN = re.compile(r"[^\s,:#]+")
#: A rule's marks after a one-line puzzle: ``thermo=r1c1-r1c2-r1c3;r5c5-r6c6`` (docs/LAYOUTS.md).
_MARKS_FIELD = re.compile(r"[A-Za-z]+=\S*")
#: A single-line reply of a verb this client does not know: an upper-case word,
#: then words holding lower case or ``=`` (never a row of letters).
_OTHER_REPLY = re.compile(r"[A-Z][A-Z-]+ .*[a-z=]")


#: Kinds of replies in :attr:`ReplyScanner.kinds`: a puzzle answer (one line, or a grid of at least
#: :data:`MIN_GRID_LINES` lines), an ``ERROR`` line, anything else (``PONG``, a block, a short "grid").
ANSWER, ERROR, OTHER = b"A"[0], b"E"[0], b"O"[0]
#: The fewest lines of a grid answer: the 4 rows of a 4x4 grid.
MIN_GRID_LINES = 4


#: How an f-puzzles link starts (docs/LAYOUTS.md "f-puzzles").
FPUZZLES_LINK = "https://f-puzzles.com/?load="


def is_one_line_answer(text: str) -> bool:
    """True when a reply line is a whole one-line puzzle (16, 36, 81, 256, 625 cells).

    A run of 16 cells is a 4x4 puzzle only when it holds nothing but ``1-4``
    and empty marks: a row of a 16x16 grid holds other symbols. A puzzle
    followed by rules' marks (``<givens> thermo=r1c1-r1c2-r1c3``, GENERATE
    for the rules that take marks) is one too: its givens are looked at; so
    are a jigsaw line (the givens, then a region symbol per cell) and an
    f-puzzles object or link (GENERATE under rules with no text layout
    together; break-session finding: those were counted unanswered, exit 2).
    """
    line = text.strip()
    if line.startswith(("{", FPUZZLES_LINK)):  # (the scanner keeps a long line's start only)
        return True  # an f-puzzles object or link: GENERATE under rules no text layout holds together
    if len(line) // 2 in LINE_CELLS and len(line) % 2 == 0 and not any(ch.isspace() for ch in line):
        text = line[: len(line) // 2]  # a jigsaw line: the givens, then as many region symbols
    head, _, rest = text.strip().partition(" ")
    if rest and all(_MARKS_FIELD.fullmatch(field) for field in rest.split()):
        text = head
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
      closing: the ``ERROR`` replies that ended the connection (``shutdown``,
        ``too-large``, ``proxy``, the ``busy`` refusing it), by code: not
        puzzles (the request they came in place of may be a ``PING``).
      closing_error: the first reply that ended the connection (text), or None.
      kinds: with ``watch``, each reply's kind in order (:data:`ANSWER`, :data:`ERROR`, :data:`OTHER`), to tell
        whether it answers its request (:func:`first_unanswered`); empty without.
      texts: with ``watch``, the first line of each :data:`OTHER` reply, by its index.

    Args:
      watch: keep :attr:`kinds` and :attr:`texts`.
    """

    _IDLE, _GRID, _BLOCK = range(3)

    def __init__(self, watch: bool = False) -> None:
        self.watch = watch
        self.kinds = bytearray()
        self.texts: dict[int, str] = {}
        self.replies = 0
        self.solved = 0
        self.generated = 0
        self.words: dict[str, dict[str, int]] = {}
        self.errors: dict[str, int] = {}
        self.not_puzzles = 0
        self.other = 0
        self.failures = 0
        self.closing: dict[str, int] = {}
        self.closing_error: str | None = None
        self._line = bytearray()
        self._after_cr = False
        self._state = self._IDLE
        self._header = False
        self._first = ""  # the first line of the grid or block being read
        self._rows = 0  # lines of the grid being read

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
        """End of stream: classify a last line with no terminator.

        A grid or block cut short is no reply; with ``watch``, it is kept as an :data:`OTHER` one after the
        replies (:attr:`kinds`; :attr:`replies` does not count it), to be named.
        """
        if self._line:
            self._end_line()
        if self._state != self._IDLE and self.watch:
            self._kind(OTHER, self._first)

    def _kind(self, kind: int, text: str = "") -> None:
        if self.watch:
            if kind == OTHER:
                self.texts[len(self.kinds)] = text
            self.kinds.append(kind)

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
                self._answer(self._rows >= MIN_GRID_LINES)
            else:
                self._rows += 1
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
            self._first = text
        elif word in REPLY_WORDS or _OTHER_REPLY.match(text):
            self._kind(OTHER, text)
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
            self._first, self._rows = text, 1

    def _answer(self, grid: bool = True) -> None:
        self._kind(ANSWER if grid else OTHER, "" if grid else self._first)
        self.replies += 1
        if self._header:
            self.generated += 1
        else:
            self.solved += 1
        self._header = False

    def _reply_other(self) -> None:
        self._kind(OTHER, self._first)
        self.replies += 1
        self.other += 1
        self._header = False

    def _error(self, text: str) -> None:
        self._kind(ERROR)
        self.replies += 1
        self._header = False
        parts = text.split(" ", 2)
        code = parts[1] if len(parts) > 1 else ""
        if code in CLOSING_CODES or (code == "busy" and _CONNECTIONS_OPEN.search(text)):
            # The connection's end, not a puzzle's answer: counted apart.
            self.closing[code] = self.closing.get(code, 0) + 1
            if self.closing_error is None:
                self.closing_error = text
            return
        self.failures += 1
        if text.startswith("ERROR command unknown verb "):
            self.not_puzzles += 1
        else:
            self.errors[code] = self.errors.get(code, 0) + 1


def first_unanswered(puzzles: Sequence[int], kinds: Sequence[int]) -> int | None:
    """The index of the first reply that does not answer its request, a puzzle to solve; None when all do.

    ``puzzles[i]`` is true when request ``i`` is a bare puzzle (no verb before it: its reply is its answer or an
    ``ERROR`` line); ``kinds`` the replies' kinds (:attr:`ReplyScanner.kinds`), in the same order.
    """
    for index, (puzzle, kind) in enumerate(zip(puzzles, kinds)):
        if puzzle and kind == OTHER:
            return index
    return None


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


#: The named levels of ``RATE`` replies, easiest first (the server's ``rating.LEVELS``; a test pins the copy).
LEVELS = ("easy", "medium", "hard", "expert", "extreme")


def _rate_summary(replies: dict[str, int]) -> list[str]:
    levels: dict[str, int] = {}
    for rest, n in replies.items():
        level = rest.split(" ", 1)[0]
        levels[level] = levels.get(level, 0) + n
    return ["rated " + ", ".join("%s %d" % (level, levels[level]) for level in LEVELS if level in levels)]


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
    text = plural(errors, "error")
    if errors:
        text += " (%s)" % ", ".join("%s %d" % (code, n) for code, n in sorted(scanner.errors.items()))
    details.append(text)
    parts = ["%s: %s" % (plural(scanner.puzzles, "puzzle"), ", ".join(details))]
    if scanner.not_puzzles:
        # each is an ERROR reply, so the exit status is 1: the summary says so (it counts them apart from puzzles)
        if scanner.not_puzzles == 1:
            parts.append("1 line was not a puzzle (an error: exit status 1)")
        else:
            parts.append("%d lines were not puzzles (errors: exit status 1)" % scanner.not_puzzles)
    if scanner.other:
        parts.append("%s answered" % plural(scanner.other, "command"))
    if scanner.closing:
        closing = ", ".join("ERROR %s" % code for code in sorted(scanner.closing))
        parts.append("the server ended the connection (%s)" % closing)
    rate = scanner.puzzles / seconds if seconds > 0 else 0.0
    parts.append("%.2f s, %s puzzles/s" % (seconds, ("%.0f" if rate >= 100 else "%.1f") % rate))
    return "; ".join(parts)
