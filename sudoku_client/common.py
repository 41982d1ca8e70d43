"""What every module of the client shares: its name and version, exit codes,
defaults, sizes of reads, and how a message reaches standard error."""

from __future__ import annotations

import socket
import sys

PROG = "sudoku-client"
#: The client's version: that of the sudoku_server package it ships with. When
#: the package is importable, :func:`sudoku_client.routing.client_version` reads
#: it from there; a test keeps this copy equal for the client run alone.
VERSION = "0.3.0"

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


def format_address(host: str, port: int) -> str:
    """Return ``host:port``, with brackets around an IPv6 address."""
    if ":" in host:
        return "[%s]:%d" % (host, port)
    return "%s:%d" % (host, port)


def describe(exc: BaseException) -> str:
    """Return the operating system's text for *exc* ("Connection refused")."""
    if isinstance(exc, socket.timeout):
        return "timed out"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def report(message: str) -> None:
    """Print one ``sudoku-client: message`` line to standard error."""
    sys.stderr.write("%s: %s\n" % (PROG, message))
    sys.stderr.flush()


def plural(count: int, noun: str) -> str:
    return "%d %s%s" % (count, noun, "" if count == 1 else "s")
