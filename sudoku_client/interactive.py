"""A person at a terminal: one session kept open until Ctrl-D.

The client asks for an ``INTERACTIVE`` session; a server without that verb is
used one request at a time, each on a connection of its own.
"""

from __future__ import annotations

import argparse
import io
import re
import socket
import sys
from collections.abc import Iterator, Sequence

from sudoku_client.common import EXIT_FAILURE, EXIT_OK, describe, report
from sudoku_client.exchange import (
    InputFailed,
    Output,
    Shared,
    close_socket,
    close_sources,
    exchange,
    handshake,
    one_connection,
    read_sources,
)
from sudoku_client.stream import RequestStream, through

#: A line number in an ERROR reply: ``line 4``, ``lines 3 to 9``.
_LINE_NUMBER = re.compile(rb"\b(lines? )([0-9]+)(?:( to )([0-9]+))?")


def shift_line_numbers(line: bytes, hidden: int) -> bytes:
    """An ERROR reply's line numbers counted from the person's first line, not the server's.

    The ``INTERACTIVE`` line the client sends first is line 1 for the server
    and never seen by the person: ``ERROR format line 4: ...`` is about their
    line 3 (``hidden`` = 1). Other replies are returned as they are.
    """
    if not line.startswith(b"ERROR "):
        return line

    def shifted(match: re.Match[bytes]) -> bytes:
        first = b"%d" % max(1, int(match.group(2)) - hidden)
        if match.group(4) is None:
            return match.group(1) + first
        return match.group(1) + first + match.group(3) + b"%d" % max(1, int(match.group(4)) - hidden)

    return _LINE_NUMBER.sub(shifted, line)


class ShiftedOutput(Output):
    """The output of a session opened by ``INTERACTIVE``: ERROR replies name the person's own line numbers.

    Whole lines are passed on (a partial line waits for its end, which every
    reply line has), each through :func:`shift_line_numbers`.
    """

    def __init__(self, output: Output, hidden: int = 1) -> None:
        super().__init__(output.out, output.scanner, output.progress)
        self.hidden = hidden
        self._partial = b""

    def write(self, data: bytes) -> bool:
        data = self._partial + data
        cut = max(data.rfind(b"\n"), data.rfind(b"\r")) + 1
        self._partial = data[cut:]
        if not cut:
            return True
        lines = data[:cut].splitlines(keepends=True)
        return super().write(b"".join(shift_line_numbers(line, self.hidden) for line in lines))

    def flush_partial(self) -> bool:
        """End of the session: a last line with no end goes out as it is (shifted)."""
        data, self._partial = self._partial, b""
        return super().write(shift_line_numbers(data, self.hidden)) if data else True


def interactive_session(
    sock: socket.socket,
    args: argparse.Namespace,
    address: str,
    sources: Sequence[tuple[str, io.FileIO]],
    output: Output,
    verb: str | None,
) -> int:
    """A person at the terminal: one session kept open until Ctrl-D.

    With a server that knows ``INTERACTIVE``, every line goes out as it is
    typed and each puzzle is answered as soon as it is complete. Without it,
    the client keeps each request until it is complete (:class:`~sudoku_client.stream.RequestStream`)
    and sends it on a connection of its own, so that the server's close
    grace never ends the session.
    """
    if not args.quiet and sys.stderr.isatty():
        report("connected to %s; type or paste puzzles (each is answered when it is complete), Ctrl-D to end" % address)
    try:
        supported, rest = handshake(sock, address, args.timeout)
    except OSError as exc:
        close_sources(sources)
        if isinstance(exc, socket.timeout):
            report("no answer from %s within %g s" % (address, args.timeout))
        else:
            report("connection to %s broken: %s" % (address, describe(exc)))
        return EXIT_FAILURE
    if supported is None and not rest:
        close_sources(sources)
        report("%s closed the connection before answering INTERACTIVE" % address)
        return EXIT_FAILURE
    if supported is not False:
        shifted = ShiftedOutput(output) if supported else output  # the INTERACTIVE line is the server's line 1
        if rest and not shifted.write(rest):
            close_sources(sources)
            return EXIT_FAILURE

        def chunks(shared: Shared) -> Iterator[bytes]:
            reads = read_sources(sources, shared)
            return reads if verb is None else through(reads, RequestStream(verb))

        status = exchange(sock, address, chunks, args.timeout, shifted, interactive=True)
        if isinstance(shifted, ShiftedOutput) and not shifted.flush_partial():
            return EXIT_FAILURE
        return status
    close_socket(sock)
    return _one_request_at_a_time(args, address, sources, output, verb)


def _one_request_at_a_time(
    args: argparse.Namespace,
    address: str,
    sources: Sequence[tuple[str, io.FileIO]],
    output: Output,
    verb: str | None,
) -> int:
    """A terminal and a server without ``INTERACTIVE``: a connection per complete request.

    What is typed is kept until the request it belongs to is complete, then
    sent with everything before it on a new connection, which is
    half-closed at once; the answers are printed as they come. A ``QUIT``
    ends the session like Ctrl-D.
    """
    stream = RequestStream(verb)
    shared = Shared()
    reads = read_sources(sources, shared)
    pending = b""
    sent = 0
    try:
        for data in reads:
            pending += stream.feed(data)
            if stream.requests > sent:
                sent = stream.requests
                status = one_connection(args.host, args.port, address, pending, args.timeout, output)
                pending = b""
                if status != EXIT_OK or stream.closed:
                    return status
    except InputFailed:
        report(shared.input_error or "cannot read the input")
        return EXIT_FAILURE
    finally:
        reads.close()
    pending += stream.finish()
    if stream.requests > sent:
        return one_connection(args.host, args.port, address, pending, args.timeout, output)
    return EXIT_OK
