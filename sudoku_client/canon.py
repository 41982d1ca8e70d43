"""``--canon`` and ``--dedupe``: canonical forms of a file of one-line puzzles, and its equivalence classes.

The input holds one puzzle per line (blank lines and ``#`` comments are
skipped). The client sends ``CANON <line>`` for each over one connection,
pipelined (a thread sends while the main thread reads), and reads one reply
line per puzzle, in order (docs/PROTOCOL.md "CANON"):

* ``--canon``: standard output gets one line per puzzle: its canonical form
  (the reply without ``CANON``), or the server's ``ERROR`` line for a line it
  could not read;
* ``--dedupe``: standard output gets one line per equivalence class, in the
  order the classes first appear: the class's first puzzle as it appeared in
  the input, a blank, and how many puzzles of the input are in the class.
  Nothing else: a line the server answers with an error goes to standard
  error (``sudoku-client: ERROR format line 7: ...``, the input's line
  number: :func:`input_error`).


Standard error gets the progress bar (for more than ``PROGRESS_MIN_PUZZLES``
puzzles, when it is a terminal and standard output is not) and the summary
(``49151 puzzles: 49151 classes, 0 errors; 3.10 s, 15855 puzzles/s``).

Exit status: 0 when every puzzle got its form, 1 when a reply was an
``ERROR``, 2 when the connection failed or closed before every reply came.
"""

from __future__ import annotations

import argparse
import io
import re
import select
import socket
import sys
import threading
import time
from collections.abc import Sequence

from sudoku_client.common import (
    CHUNK_BYTES,
    EXIT_ERROR_ANSWER,
    EXIT_FAILURE,
    EXIT_OK,
    POLL_SECONDS,
    describe,
    escape_bytes,
    escape_controls,
    format_address,
    plural,
    report,
)
from sudoku_client.progress import Progress

#: The reply word of CANON.
CANON_WORD = b"CANON "
#: The longest reply line taken from a server (a CANON reply or an ERROR line is far shorter): bytes.
MAX_REPLY_BYTES = 64 * 1024


class ReplyTooLong(ValueError):
    """The server sent a line longer than :data:`MAX_REPLY_BYTES` (no server of this project does)."""


#: A line number in an ERROR reply: ``line 4``.


#: Where a server's error names its own request line (``line 17`` or ``line 17, column 12``).
_SERVER_PLACE = re.compile(rb"\bline [0-9]+(?:, column ([0-9]+))?")


#: A line of prose: its first word is letters (any script), with one punctuation mark after them at most, and more
#: words follow (``Here is today's puzzle:``, ``Good luck!``); a one-line puzzle is one word.
_PROSE = re.compile(r"\s*(?:(?!\d)\w)+(?:['\u2019](?:(?!\d)\w)+)?[.,:;!?]?\s+\S")
#: A server's error about the first character of the line (``CANON `` is 6 characters).
_AT_FIRST_COLUMN = re.compile(rb"ERROR format line [0-9]+, column %d: " % (len(CANON_WORD) + 1))


def input_error(reply: bytes, number: int, line: bytes = b"") -> bytes:
    """The server's ``ERROR`` reply to ``CANON <line>`` told about input line ``number`` instead.

    The server counts the lines of the client's ``CANON`` requests, not of
    the input, and its columns include ``CANON``: its place becomes the
    input's line (and the column in the input's line). A reply about the
    CANON command itself (``ERROR command CANON: unknown option "hello"``),
    or a bad first character of a line of prose (``Good luck!``: the server
    reads ``'G'`` as a cell), means the line is not a one-line puzzle:
    ``ERROR format line 17: not a one-line puzzle``. One line number per
    error, the input's.
    """
    prose = _AT_FIRST_COLUMN.match(reply) is not None and _PROSE.match(line.decode("utf-8", "replace")) is not None
    if reply.startswith(b"ERROR command CANON") or prose:
        return b"ERROR format line %d: not a one-line puzzle" % number

    def place(match: re.Match[bytes]) -> bytes:
        column = match.group(1)
        if column is None:
            return b"line %d" % number
        return b"line %d, column %d" % (number, max(1, int(column) - len(CANON_WORD)))

    return _SERVER_PLACE.sub(place, reply, count=1)


def puzzle_lines(data: bytes) -> list[tuple[int, bytes]]:
    """``(line number, text)`` of each puzzle line: not blank, not a ``#`` comment; text without its ending."""
    out = []
    for number, raw in enumerate(data.splitlines(), start=1):
        text = raw.strip()
        if text and not text.startswith(b"#"):
            out.append((number, raw.rstrip(b"\r\n")))
    return out


def _send_all(sock: socket.socket, payload: bytes, failed: list[BaseException]) -> None:
    try:
        view = memoryview(payload)
        for start in range(0, len(view), CHUNK_BYTES):
            sock.sendall(view[start : start + CHUNK_BYTES])
        sock.shutdown(socket.SHUT_WR)
    except OSError as exc:
        failed.append(exc)


def canon_replies(
    sock: socket.socket, lines: Sequence[bytes], timeout: float, progress: Progress | None = None
) -> list[bytes]:
    """Send ``CANON <line>`` for every line over ``sock``; return the reply lines (without endings), in order.

    Fewer replies than lines when the server closed first.

    Raises:
      OSError: the connection failed; socket.timeout: ``timeout`` seconds without a byte from the server.
      ReplyTooLong: a line of the server's over :data:`MAX_REPLY_BYTES` bytes.
    """
    payload = b"".join(b"CANON " + line + b"\n" for line in lines)
    failed: list[BaseException] = []
    sender = threading.Thread(target=_send_all, args=(sock, payload, failed), daemon=True)
    sender.start()
    replies: list[bytes] = []
    rest = b""
    silent_since = time.monotonic()
    while len(replies) < len(lines):
        ready, _, _ = select.select([sock], [], [], POLL_SECONDS)
        if not ready:
            if time.monotonic() - silent_since > timeout:
                raise socket.timeout("timed out")  # noqa: UP041 - Python 3.8: not yet TimeoutError
            continue
        data = sock.recv(CHUNK_BYTES)
        if not data:
            break
        silent_since = time.monotonic()
        rest += data
        if b"\n" not in data:  # no line ended: nothing to split (a line with no end costs its length once)
            if len(rest) > MAX_REPLY_BYTES:
                raise ReplyTooLong(f"the server sent a line of over {MAX_REPLY_BYTES} bytes")
            continue
        parts = rest.split(b"\n")
        rest = parts.pop()
        if len(rest) > MAX_REPLY_BYTES or any(len(part) > MAX_REPLY_BYTES for part in parts):
            raise ReplyTooLong(f"the server sent a line of over {MAX_REPLY_BYTES} bytes")
        replies.extend(part.rstrip(b"\r") for part in parts)
        if progress is not None:
            progress.update(len(replies))
    sender.join(timeout)
    return replies


def run(args: argparse.Namespace, sources: Sequence[tuple[str, io.FileIO]], dedupe: bool) -> int:
    """``--canon`` or ``--dedupe`` over ``sources`` (open inputs); the exit status."""
    data = b"".join(source.read() or b"" for _, source in sources)
    found = puzzle_lines(data)
    address = format_address(args.host, args.port)
    stderr_tty = sys.stderr.isatty()
    progress = None
    if not args.quiet and stderr_tty and not sys.stdout.isatty():
        progress = Progress(lambda: len(found), sys.stderr)
    started = time.monotonic()
    try:
        sock = socket.create_connection((args.host, args.port), timeout=args.timeout)
    except OSError as exc:
        report("cannot connect to %s: %s" % (address, describe(exc)))
        return EXIT_FAILURE
    try:
        sock.settimeout(None)
        replies = canon_replies(sock, [text for _, text in found], args.timeout, progress)
    except OSError as exc:
        report("connection to %s broken: %s" % (address, describe(exc)))
        return EXIT_FAILURE
    except ReplyTooLong as exc:
        report("%s: %s" % (address, exc))
        return EXIT_FAILURE
    finally:
        sock.close()
        if progress is not None:
            progress.close()
    seconds = time.monotonic() - started
    out = sys.stdout.buffer
    errors = 0
    classes: dict[bytes, list[int]] = {}  # form -> [index of the first puzzle, size]
    strange = 0
    for (number, text), reply in zip(found, replies):
        if not reply.startswith((CANON_WORD, b"ERROR ")):  # no answer to CANON: not this project's server
            strange += 1
            if strange == 1:
                shown = reply[:60].decode("ascii", "backslashreplace")
                report('%s answered "%s" to CANON, neither a form nor an ERROR line' % (address, shown))
            continue
        if not reply.startswith(CANON_WORD):
            errors += 1
            error = input_error(reply, number, text)
            if dedupe:
                report(escape_controls(error.decode("utf-8", "surrogateescape")))
            else:
                out.write(escape_bytes(error) + b"\n")
            continue
        form = reply[len(CANON_WORD) :]
        if dedupe:
            entry = classes.setdefault(form, [number, 0])
            entry[1] += 1
        else:
            out.write(escape_bytes(form) + b"\n")
    if dedupe:
        first_text = dict(found)
        for number, size in classes.values():
            out.write(b"%s %d\n" % (first_text[number], size))
    out.flush()
    status = EXIT_FAILURE if strange else EXIT_ERROR_ANSWER if errors else EXIT_OK
    if len(replies) < len(found):
        report("%s answered %d of %s" % (address, len(replies), plural(len(found), "request")))
        status = EXIT_FAILURE
    if not args.quiet and (args.summary or stderr_tty):
        rate = len(replies) / seconds if seconds > 0 else 0.0
        words = [plural(len(found), "puzzle") + ":"]
        if dedupe:
            words.append("%d %s," % (len(classes), "class" if len(classes) == 1 else "classes"))
        else:
            words.append("%d canonical," % (len(replies) - errors))
        words.append(plural(errors, "error") + ";")
        report("%s %.2f s, %.0f puzzles/s" % (" ".join(words), seconds, rate))
    return status
