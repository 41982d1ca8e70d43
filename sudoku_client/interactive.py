"""A person at a terminal: one session kept open until Ctrl-D.

The client asks for an ``INTERACTIVE`` session; a server without that verb is
used one request at a time, each on a connection of its own.
"""

from __future__ import annotations

import argparse
import io
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
        if rest and not output.write(rest):
            close_sources(sources)
            return EXIT_FAILURE

        def chunks(shared: Shared) -> Iterator[bytes]:
            reads = read_sources(sources, shared)
            return reads if verb is None else through(reads, RequestStream(verb))

        return exchange(sock, address, chunks, args.timeout, output, interactive=True)
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
