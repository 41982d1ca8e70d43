"""sudoku-client: send puzzles to a sudoku-server and print its answers.

Usage::

    sudoku-client [--host HOST] [--port PORT] [--timeout SECONDS] [FILE ...]
    python client/sudoku_client.py puzzles/newspaper.txt

The client opens one TCP connection, sends the input (the FILEs concatenated in
order, bytes as they are; standard input when there are none or for ``-``) and,
at the same time, copies every byte the server answers to standard output as
soon as it arrives. After the last input byte it half-closes the connection
(``shutdown(SHUT_WR)``), which tells the server that no more puzzles follow; the
server then answers what is left and closes, and the client exits.

Sending runs in a thread while the main thread reads, so a large input never
deadlocks against a server that answers while it is still reading.

Exit status (one table for every reply; README "The bundled client"):
  0    every puzzle was solved and every command answered
  1    a reply was a puzzle-level error: ``ERROR format``, ``invalid``,
       ``unsolvable``, ``timeout``, ``incomplete``, ``mismatch``, ``command``,
       or a ``busy`` that concerns one puzzle (queue wait, connection budget)
  2    the connection failed: cannot connect, reset, closed before all input
       was sent, ``ERROR too-large``, the ``busy`` that refuses a connection
       (``N connections open``), ``ERROR shutdown``, a FILE that cannot be
       read, or no answer within ``--timeout``; the reason goes to stderr
  130  interrupted (Ctrl-C)

This module uses the standard library only (Python 3.8+) so that it runs from
a bare checkout, without installing the server or trio.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import select
import socket
import sys
import threading
import time
from typing import BinaryIO, List, Optional, Sequence, Tuple

PROG = "sudoku-client"

EXIT_OK = 0
EXIT_ERROR_ANSWER = 1
EXIT_FAILURE = 2
EXIT_INTERRUPTED = 130

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

#: Marks the start of a failed answer (PROTOCOL.md: ``ERROR <code> <detail>``).
ERROR_PREFIX = b"ERROR "
_LINE_END = re.compile(rb"[\r\n]")


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


#: Codes of ``ERROR`` replies after which the server closes the connection:
#: the client then exits 2 (the connection failed), not 1 (a puzzle failed).
CLOSING_CODES = ("too-large", "shutdown")
#: Bytes of an ``ERROR`` line kept to classify and report it.
_ERROR_LINE_KEEP = 512


class AnswerScanner:
    """Classify the server's replies in a byte stream, line by line.

    Lines end with LF, CRLF or CR; data may be fed in chunks of any size (a
    line split across chunks is still recognised). Each line that starts
    with ``ERROR `` is counted by its code (PROTOCOL.md: ``ERROR <code>
    <detail>``); ``too-large``, ``shutdown`` and the ``busy`` that refuses a
    connection (``... connections open``) end the connection, the others
    concern one puzzle or command.

    Attributes:
      error_lines: puzzle-level ``ERROR`` replies (exit status 1).
      errors: every ``ERROR`` reply's code -> count.
      closing_error: the first reply that ended the connection (text), or None.
    """

    def __init__(self) -> None:
        self.error_lines = 0
        self.errors = {}  # type: dict
        self.closing_error = None  # type: Optional[str]
        self._line = b""  # the start of the current line (kept while it may be an ERROR)
        self._keep = True

    def feed(self, data: bytes) -> None:
        """Scan the next chunk of the stream."""
        pieces = _LINE_END.split(data)
        for index, piece in enumerate(pieces):
            if index:
                self._end_line()
            if self._keep and piece:
                self._line += piece[: _ERROR_LINE_KEEP - len(self._line)]
                if not ERROR_PREFIX.startswith(self._line[: len(ERROR_PREFIX)]):
                    self._keep = False  # not an ERROR line: ignore the rest of it

    def finish(self) -> None:
        """End of stream: classify a last line with no terminator."""
        self._end_line()

    def _end_line(self) -> None:
        line, self._line, self._keep = self._line, b"", True
        if not line.startswith(ERROR_PREFIX):
            return
        text = line.decode("utf-8", "replace")
        code = text.split(" ", 2)[1] if text.count(" ") >= 1 else ""
        self.errors[code] = self.errors.get(code, 0) + 1
        closing = code in CLOSING_CODES or (code == "busy" and "connections open" in text)
        if closing:
            if self.closing_error is None:
                self.closing_error = text
        else:
            self.error_lines += 1


class _Shared:
    """State shared by the sending thread and the reading main thread.

    Plain attribute assignments, which are atomic in CPython; no lock needed.
    """

    def __init__(self) -> None:
        self.last_activity = time.monotonic()
        self.waiting_for_input = False
        self.input_error: Optional[str] = None
        self.send_error: Optional[str] = None
        self.finished = False

    def touch(self) -> None:
        self.last_activity = time.monotonic()


class _Sender(threading.Thread):
    """Copy the input sources to the socket, then half-close it."""

    def __init__(
        self, sock: socket.socket, sources: Sequence[Tuple[str, io.FileIO]], shared: _Shared
    ) -> None:
        super().__init__(name="sudoku-client-sender", daemon=True)
        self._sock = sock
        self._sources = sources
        self._shared = shared

    def run(self) -> None:
        shared = self._shared
        try:
            for name, source in self._sources:
                while True:
                    shared.waiting_for_input = True
                    try:
                        # Unbuffered: one read() returns what is available (a
                        # pipe, a terminal line) instead of waiting for a chunk.
                        data = source.read(CHUNK_BYTES)
                    except (OSError, ValueError) as exc:
                        shared.input_error = "cannot read %s: %s" % (name, _describe(exc))
                        self._abort()
                        return
                    finally:
                        shared.waiting_for_input = False
                        shared.touch()
                    if data is None:  # a non-blocking input with nothing yet
                        time.sleep(POLL_SECONDS / 10)
                        continue
                    if not data:
                        break
                    if not self._send(data):
                        return
            try:
                self._sock.shutdown(socket.SHUT_WR)
            except OSError as exc:
                shared.send_error = _describe(exc)
        finally:
            # The sender owns the sources once started: closing them from the
            # main thread could block on a read in progress.
            _close_sources(self._sources)
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
            "the server has answered everything and closed the connection."
        ),
        epilog=(
            "exit status:\n"
            "  0    every puzzle was solved and every command answered\n"
            "  1    a reply was a puzzle-level error: ERROR format, invalid, unsolvable,\n"
            "       timeout, incomplete, mismatch, command, or a busy for one puzzle\n"
            "       (queue wait, connection budget)\n"
            "  2    the connection failed: cannot connect, reset, closed before all\n"
            "       input was sent, ERROR too-large, the busy that refuses a connection\n"
            "       (N connections open), ERROR shutdown, a FILE that cannot be read,\n"
            "       or no answer within --timeout; the reason goes to stderr\n"
            "  130  interrupted\n\n"
            "example:\n"
            "  sudoku-client --host sudoku.example --port 9999 puzzles/newspaper.txt"
        ),
    )
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="puzzle file to send ('-' for standard input; default: standard input)",
    )
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
    return parser


def _open_sources(names: Sequence[str]) -> List[Tuple[str, io.FileIO]]:
    """Open every input up front, so a missing file fails before connecting.

    Raises:
      OSError: a file cannot be opened; ``filename`` names it.
    """
    # Unbuffered (FileIO) on purpose: a daemon thread blocked in a buffered
    # read holds the buffer's lock, and the interpreter then aborts at exit
    # ("could not acquire lock for <stdin> at interpreter shutdown").
    stdin: Optional[io.FileIO] = None
    sources: List[Tuple[str, io.FileIO]] = []
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


def _close_sources(sources: Sequence[Tuple[str, io.FileIO]]) -> None:
    for _, source in sources:
        source.close()  # standard input itself stays open (closefd=False)


def _stdout_gone() -> None:
    """Point standard output at devnull so the exit flush raises nothing."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _exchange(
    sock: socket.socket,
    address: str,
    sources: Sequence[Tuple[str, io.FileIO]],
    timeout: float,
    out: BinaryIO,
    interactive: bool = False,
) -> int:
    """Send *sources* while copying answers to *out*; return the exit code.

    *interactive* tells that an input is a terminal.
    """
    shared = _Shared()
    scanner = AnswerScanner()
    sender = _Sender(sock, sources, shared)
    sender.start()
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
        try:
            out.write(data)
            out.flush()
        except BrokenPipeError:
            _stdout_gone()
            return EXIT_FAILURE
        scanner.feed(data)
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
    lost_input = shared.send_error is not None or not (
        shared.finished or shared.waiting_for_input
    )
    if lost_input:
        reason = " (%s)" % shared.send_error if shared.send_error else ""
        _error("%s closed the connection before all input was sent%s" % (address, reason))
        return EXIT_FAILURE
    return EXIT_ERROR_ANSWER if scanner.error_lines else EXIT_OK


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the client; return the exit code (0, 1, 2 or 130, see --help)."""
    args = build_parser().parse_args(argv)
    address = _format_address(args.host, args.port)
    try:
        sources = _open_sources(args.files)
    except OSError as exc:
        _error("cannot read %s: %s" % (exc.filename, _describe(exc)))
        return EXIT_FAILURE

    sock: Optional[socket.socket] = None
    try:
        try:
            sock = socket.create_connection((args.host, args.port), timeout=args.timeout)
        except OSError as exc:
            _close_sources(sources)
            _error("cannot connect to %s: %s" % (address, _describe(exc)))
            return EXIT_FAILURE
        sock.settimeout(None)  # the sender blocks; the reader uses select()
        interactive = any(source.isatty() for _, source in sources)
        return _exchange(sock, address, sources, args.timeout, sys.stdout.buffer, interactive)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    finally:
        if sock is not None:
            try:
                # Wakes a sender blocked in send() before the socket goes away.
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()


if __name__ == "__main__":
    sys.exit(main())
