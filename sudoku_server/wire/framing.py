"""Framing of the line protocol, sans-I/O: how long a line may be, and what else the byte stream may hold.

Pure functions over a connection's buffer, for :class:`.session.Session`
(docs/PROTOCOL.md "Transport"; the session's own loop finds where each line
ends, inline, as it is the hottest code of the line path): a
line holding an f-puzzles object or link may be 64 KiB whatever the line
limit says (:func:`limit_of`); a UTF-8 byte order mark may start the
input (:func:`bom_may_follow`); a run of blank lines is skipped in one step
(:data:`BLANK_RUN`), and after two CRLF blank lines a PROXY protocol v2
header may follow, to be skipped whole (:func:`crlf_blanks`, :func:`proxy_v2_end`).
"""

from __future__ import annotations

import json
import re

from sudoku_server.text.fpuzzles import MAX_LINE_BYTES as FPUZZLES_MAX_LINE_BYTES
from sudoku_server.wire.proxy import V2_MAX_BYTES, V2_SIGNATURE

__all__ = [
    "BLANK_RUN",
    "BOM",
    "FPUZZLES_LINE",
    "FPUZZLES_START_BYTES",
    "HELD_LINE_BYTES",
    "MARKS_LINE",
    "bom_may_follow",
    "crlf_blanks",
    "limit_of",
    "proxy_v2_end",
    "waits_for_its_end",
]

#: A line holding an f-puzzles object or link (``{`` or ``https://f-puzzles.com/?`` first, after an
#: optional verb, options and flag words: ``HINT all kraken {...}``; ``[{`` too, a JSON array of objects, so
#: that it is named as such rather than refused as too large) may be this long whatever ``max_line_bytes`` says (docs/PROTOCOL.md).
FPUZZLES_LINE = re.compile(
    rb"[ \t]*(?:[A-Za-z]{1,20}[ \t]+(?:[A-Za-z]+(?:=[^ \t\r\n]*)?[ \t]+)*)?"
    rb"(?:(?:\[[ \t]*)?\{|https?://(?:www\.)?f-puzzles\.com/\?|https?://sudokupad\.app/(?:\?puzzleid=)?fpuzzles)",
    re.I,
)


#: An f-puzzles object or link begins within this many bytes of its line (docs/PROTOCOL.md). A
#: line whose end has not arrived is held at least this long whatever ``max_line_bytes`` says, so
#: that whether it is an f-puzzles line is known before it is refused as too large: the events
#: are the same however the stream is chunked.
FPUZZLES_START_BYTES = 256
#: The links an f-puzzles line may start with (f-puzzles', SudokuPad's): text/fpuzzles.py ``is_fpuzzles``.
_LINKS = (
    b"https://f-puzzles.com/",
    b"http://f-puzzles.com/",
    b"https://www.f-puzzles.com/",
    b"http://www.f-puzzles.com/",
    b"https://sudokupad.app/?puzzleid=fpuzzles",
    b"http://sudokupad.app/?puzzleid=fpuzzles",
    b"https://sudokupad.app/fpuzzles",
    b"http://sudokupad.app/fpuzzles",
)
HELD_LINE_BYTES = FPUZZLES_START_BYTES + max(len(url) for url in _LINKS)
#: What may still become the start of an f-puzzles line (it allows a little more: a verb
#: run into a link); a line without its end that is no such start is refused at ``max_line_bytes``.
_FPUZZLES_PREFIX = re.compile(
    rb"[ \t]*(?:[A-Za-z]{1,20}(?:[ \t]+(?:[A-Za-z]+(?:=[^ \t\r\n]*)?[ \t]+)*(?:[A-Za-z]+(?:=[^ \t\r\n]*)?)?)?)?(?:"
    + b"|".join(re.escape(url[:n]) for url in _LINKS for n in range(1, len(url) + 1))
    + rb")?",
    re.I,
)


#: The givens of a marks line, then a blank and a word with its ``=`` (or cut before it) or nothing yet, after an optional verb, options
#: and flags (docs/LAYOUTS.md "Marks after a line"): ``<givens> thermo=...``. Unterminated, it waits for
#: its end of line (:func:`waits_for_its_end`).
MARKS_LINE = re.compile(
    rb"[ \t]*(?:[A-Za-z]{1,20}[ \t]+(?:[A-Za-z]+(?:=[^ \t\r\n]*)?[ \t]+)*)?"
    rb"[^ \t\r\n=#]*[0-9._][^ \t\r\n=]*[ \t]+(?:[A-Za-z]+(?:=|\Z)|\Z)",
    re.I,
)


def waits_for_its_end(line: bytes) -> bool | None:
    """Whether an unterminated line waits for its end of line, when only that end can say it is whole.

    True for an f-puzzles object that is no whole JSON value yet (its braces may be cut anywhere) and
    for a marks line (:data:`MARKS_LINE`: it still reads when cut between two marks); False for a
    whole object; None for an f-puzzles link (the caller's dry run decides: a link cut in its payload
    does not decode) and for any other line (a one-line puzzle knows its length). docs/PROTOCOL.md
    "Connection lifecycle".
    """
    start = FPUZZLES_LINE.match(line, 0, HELD_LINE_BYTES)
    if start is not None:
        if line[start.end() - 1 : start.end()] != b"{":
            return None
        try:
            json.JSONDecoder().raw_decode(line[start.end() - 1 :].decode("utf-8", "surrogateescape"))
        except ValueError:
            return True
        return False
    return True if MARKS_LINE.match(line) else None


#: A PROXY v2 signature after its two CRLF blank lines (which are read as such, never held back).
_V2_REST = V2_SIGNATURE[4:]


def crlf_blanks(run: bytes, before: int) -> int:
    """How many CRLF blank lines (at most 2) end the input read so far, after a run of blank lines ``run``
    (``before``: how many ended it before the run)."""
    n = 0
    while n < 2 and run.endswith(b"\r\n", 0, len(run) - 2 * n):
        n += 1
    return min(2, n + before) if 2 * n == len(run) else n


def proxy_v2_end(buf: bytearray, pos: int, final: bool) -> int:
    """Where a PROXY protocol v2 header ends whose two CRLF blank lines were read and whose NUL is at ``pos``
    (``wire.proxy``: its 12-byte signature, 4 bytes, then as many as its length says; past
    :data:`V2_MAX_BYTES`, the 16 bytes alone); 0 when none is there; -1 when the bytes at the end could be one
    (more must come first; never when ``final``)."""
    have = len(buf) - pos
    if buf[pos : pos + 8] != _V2_REST[: min(have, 8)]:
        return 0
    if have < 12:
        return 0 if final else -1
    length = int.from_bytes(buf[pos + 10 : pos + 12], "big")
    if 16 + length > V2_MAX_BYTES:
        return pos + 12
    if have < 12 + length:
        return pos + have if final else -1
    return pos + 12 + length


BOM = b"\xef\xbb\xbf"


def bom_may_follow(buf: bytearray) -> bool:
    """At the start of the input: drop a UTF-8 byte order mark from the front of ``buf``; True while ``buf`` is
    still a start of one (read nothing yet)."""
    if len(buf) < len(BOM) and BOM.startswith(bytes(buf)):
        return True
    if buf.startswith(BOM):
        del buf[: len(BOM)]
    return False


def limit_of(buf: bytearray, pos: int, limit: int, *, partial: bool = False) -> int:
    """The longest the line starting at ``pos`` may be: ``limit``, or 64 KiB for an f-puzzles line.

    ``partial``: the line's end has not arrived; one that may still become an f-puzzles line
    (shorter than :data:`HELD_LINE_BYTES`) may be that long.
    """
    if FPUZZLES_LINE.match(buf, pos, pos + HELD_LINE_BYTES):
        return max(limit, FPUZZLES_MAX_LINE_BYTES)
    if partial and len(buf) - pos <= HELD_LINE_BYTES and _FPUZZLES_PREFIX.fullmatch(buf, pos):
        return max(limit, HELD_LINE_BYTES)
    return limit


#: A run of blank lines (LF or CRLF): skipped in one step between puzzles, so
#: a flood of empty lines costs a regex match, not a parse per line.
BLANK_RUN = re.compile(rb"(?:\r?\n)+")
