"""The socket side: send the input while printing the answers, on one connection.

:func:`exchange` runs a sender thread (:class:`_Sender`: the input's bytes to
the socket, then a half-close) while the main thread copies every byte the
server answers to standard output (:class:`Output`) and watches the silence
limit. Also here: opening and closing the inputs, the ``INTERACTIVE``
handshake, a request on a connection of its own, and ``--ping`` with its
optional PROXY v1 header.
"""

from __future__ import annotations

import io
import os
import select
import socket
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from typing import BinaryIO

from sudoku_client.common import (
    CHUNK_BYTES,
    EXIT_ERROR_ANSWER,
    EXIT_FAILURE,
    EXIT_OK,
    POLL_SECONDS,
    TerminalSafe,
    describe,
    escape_controls,
    format_address,
    report,
)
from sudoku_client.progress import Progress
from sudoku_client.replies import ReplyScanner

#: Seconds to wait, after the server closed, for a send still in progress to
#: fail or finish, so that lost input is reported.
SENDER_JOIN_SECONDS = 1.0


#: The line the client sends first when standard input is a terminal.
INTERACTIVE_REQUEST = b"INTERACTIVE\n"
#: The reply of a server that has no INTERACTIVE verb (protocol 2 before it).
INTERACTIVE_UNKNOWN = b'ERROR command unknown verb "INTERACTIVE"'
#: The line the client sends first when no input is a terminal (a pipe, a file):
#: the session is held by a program, so the server's close grace never ends it
#: while the input is still coming (docs/PROTOCOL.md "Programs that hold a connection").
KEEPALIVE_REQUEST = b"KEEPALIVE\n"


class Shared:
    """State shared by the sending thread and the reading main thread.

    Plain attribute assignments, which are atomic in CPython; no lock needed.
    """

    def __init__(self) -> None:
        self.last_activity = time.monotonic()
        self.waiting_for_input = False
        self.input_error: str | None = None
        self.send_error: str | None = None
        self.finished = False
        #: Set by the reader when the server closed: the sender sends nothing
        #: more, and reads the rest of the input only to count its requests.
        self.server_closed = False
        #: Input read but not sent (the server had closed, or a send failed).
        self.unsent = False

    def touch(self) -> None:
        self.last_activity = time.monotonic()


class InputFailed(Exception):
    """An input could not be read (the reason is in ``Shared.input_error``)."""


def read_sources(sources: Sequence[tuple[str, io.FileIO]], shared: Shared) -> Generator[bytes, None, None]:
    """Yield the inputs' bytes in order; closes them when done.

    Raises:
      InputFailed: a read failed (``shared.input_error`` says why).
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
                    shared.input_error = "cannot read %s: %s" % (name, describe(exc))
                    raise InputFailed() from exc
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
        close_sources(sources)


class _Sender(threading.Thread):
    """Send the chunks to the socket, then half-close it."""

    def __init__(self, sock: socket.socket, chunks: Iterator[bytes], shared: Shared) -> None:
        super().__init__(name="sudoku-client-sender", daemon=True)
        self._sock = sock
        self._chunks = chunks
        self._shared = shared

    def run(self) -> None:
        shared = self._shared
        try:
            sending = True
            for data in self._chunks:
                # Once the server has closed (or a send failed), the rest of
                # the input is still read, to count the requests it holds.
                sending = sending and not shared.server_closed and self._send(data)
                if not sending:
                    shared.unsent = True
            if sending and not shared.server_closed:
                try:
                    self._sock.shutdown(socket.SHUT_WR)
                except OSError as exc:
                    shared.send_error = describe(exc)
        except InputFailed:
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
                self._shared.send_error = describe(exc)
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


def stdout_gone() -> None:
    """Point standard output at devnull so the exit flush raises nothing."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


class Output:
    """Where replies go: standard output, and the scanner and progress that watch them.

    What is printed has its control bytes escaped (:class:`.common.TerminalSafe`: ``\\x1b`` for ESC), so
    that a hostile server cannot drive the terminal; the scanner sees the bytes as they came.
    """

    def __init__(self, out: BinaryIO, scanner: ReplyScanner, progress: Progress | None = None) -> None:
        self.out = out
        self.scanner = scanner
        self.progress = progress
        self.safe = TerminalSafe()
        #: The caller counts the requests exactly (and reports a reply short of them itself).
        self.count_exact = False
        #: Set when the server closed before all the input was sent (the send error, or "lost").
        self.lost_input: str | None = None

    def write(self, data: bytes) -> bool:
        """Print and scan *data*; False when standard output is gone."""
        if not self._print(self.safe.feed(data)):
            return False
        self.scanner.feed(data)
        if self.progress is not None:
            self.progress.update(self.scanner.replies)
        return True

    def finish(self) -> bool:
        """End of the replies: a UTF-8 character cut short at the end is printed escaped."""
        return self._print(self.safe.finish())

    def _print(self, data: bytes) -> bool:
        try:
            if data:
                self.out.write(data)
                self.out.flush()
        except BrokenPipeError:
            stdout_gone()
            return False
        return True


def exchange(
    sock: socket.socket,
    address: str,
    chunks: Callable[[Shared], Iterator[bytes]],
    timeout: float,
    output: Output,
    interactive: bool = False,
) -> int:
    """Send ``chunks(shared)`` while printing the answers; return EXIT_OK or EXIT_FAILURE.

    EXIT_FAILURE is the connection failing (the reason is printed); whether a
    reply was an error is for the caller to judge from ``output.scanner``.
    *chunks* makes the iterator of bytes to send, given the state it reports
    its reads to (:func:`read_sources`). *interactive* tells that an input
    is a terminal.
    """
    shared = Shared()
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
            report("no answer from %s within %g s" % (address, timeout))
            return EXIT_FAILURE
        readable, _, _ = select.select([sock], [], [], min(remaining, POLL_SECONDS))
        if not readable:
            continue
        try:
            data = sock.recv(CHUNK_BYTES)
        except OSError as exc:
            report("connection to %s broken: %s" % (address, describe(exc)))
            return EXIT_FAILURE
        if not data:
            break
        shared.touch()
        if not output.write(data):
            return EXIT_FAILURE
    scanner.finish()
    if not output.finish():
        return EXIT_FAILURE
    if scanner.closing_error is not None:
        report("the server ended the connection: %s" % escape_controls(scanner.closing_error))
        return EXIT_FAILURE

    if interactive:
        if not shared.finished and not shared.waiting_for_input:
            # A person at a terminal who types nothing more is not an error;
            # a paste still being sent is: wait a moment for its send to fail.
            sender.join(SENDER_JOIN_SECONDS)
    elif not shared.finished:
        # The server closed before the input ended (an older server's close
        # grace, a too-large line): read the rest of the input, unsent, so
        # that its requests are counted, until it ends or is silent for
        # *timeout* seconds.
        shared.server_closed = True
        while not shared.finished and time.monotonic() - shared.last_activity < timeout:
            sender.join(POLL_SECONDS)
    if shared.input_error is not None:
        report(shared.input_error)
        return EXIT_FAILURE
    if interactive:
        lost_input = shared.send_error is not None or not (shared.finished or shared.waiting_for_input)
    else:
        lost_input = shared.unsent or shared.send_error is not None or not shared.finished
    if lost_input:
        output.lost_input = shared.send_error or "lost"
        if not output.count_exact:
            reason = " (%s)" % shared.send_error if shared.send_error else ""
            report("%s closed the connection before all input was sent%s" % (address, reason))
            return EXIT_FAILURE
    if interactive and not shared.finished and not scanner.words.get("BYE"):
        # Closed on its idle limit (a QUIT's BYE needs no word).
        report("%s ended the session" % address)
    return EXIT_OK


def handshake(
    sock: socket.socket, address: str, timeout: float, request: bytes = INTERACTIVE_REQUEST
) -> tuple[bool | None, bytes]:
    """Send *request* (``INTERACTIVE`` or ``KEEPALIVE``); return (True: supported, False: unknown verb, None: other)
    and the bytes after its reply.

    The reply's line is consumed (not printed) when it starts with the verb
    (``INTERACTIVE on: ...``) or is the unknown-verb error of an older server
    (``ERROR command unknown verb "KEEPALIVE"; try HELP``); anything else (a
    busy line sent at connect) is returned whole, to be printed.

    Raises:
      OSError: sending or receiving failed; socket.timeout: no reply in *timeout*.
    """
    verb = request.strip()
    unknown = b'ERROR command unknown verb "%s"' % verb
    sock.sendall(request)
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
    if line.startswith(verb + b" "):
        return True, rest
    if line.startswith(unknown):
        return False, rest
    return None, data


def one_connection(host: str, port: int, address: str, data: bytes, timeout: float, output: Output) -> int:
    """Send *data* on a connection of its own, half-close, print the replies."""
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except OSError as exc:
        report("cannot connect to %s: %s" % (address, describe(exc)))
        return EXIT_FAILURE
    try:
        sock.settimeout(None)
        return exchange(sock, address, lambda shared: iter([data]), timeout, output)
    finally:
        close_socket(sock)


def open_sources(names: Sequence[str]) -> list[tuple[str, io.FileIO]]:
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
        close_sources(sources)
        raise
    return sources


def close_sources(sources: Sequence[tuple[str, io.FileIO]]) -> None:
    for _, source in sources:
        source.close()  # standard input itself stays open (closefd=False)


def close_socket(sock: socket.socket) -> None:
    try:
        # Wakes a sender blocked in send() before the socket goes away.
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()


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
    address = format_address(host, port)
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
        report("cannot ping %s: %s" % (address, describe(exc)))
        return EXIT_FAILURE
    line = reply.split(b"\n", 1)[0].rstrip(b"\r").decode("utf-8", "replace")
    if line:
        sys.stdout.write(escape_controls(line) + "\n")  # (the report below shows it by repr(): escaped too)
        sys.stdout.flush()
    if line == "PONG":
        return EXIT_OK
    if line.startswith("ERROR draining"):
        return EXIT_ERROR_ANSWER
    report("%s answered %r to PING" % (address, line) if line else "%s closed without answering PING" % address)
    return EXIT_FAILURE
