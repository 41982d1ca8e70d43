"""What every module of the client shares: its name and version, exit codes,
defaults, sizes of reads, how a message reaches standard error, and how the
server's bytes are made safe for a terminal (:class:`TerminalSafe`)."""

from __future__ import annotations

import codecs
import re
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


#: Bytes that are not plain printable ASCII text (tab, LF and CR aside): where :class:`TerminalSafe` looks closer.
_NOT_PLAIN = re.compile(rb"[^\t\n\r\x20-\x7e]")
#: Characters a terminal acts on: C0 controls but tab, LF and CR (ESC starts its escape sequences), DEL, the C1
#: controls (U+0080 to U+009F: U+009B is CSI), and a byte that is not UTF-8 (decoded as a lone surrogate).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f\udc80-\udcff]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return "\\x%02x" % (code - 0xDC00 if code >= 0xDC00 else code)


def escape_controls(text: str) -> str:
    """``text`` with each character a terminal would act on written as ``\\xNN`` (``\\x1b`` for ESC).

    Those are the C0 controls but tab, LF and CR, DEL, the C1 controls, and
    undecodable bytes (``surrogateescape``: ``\\udcff`` is byte 0xFF, shown
    ``\\xff``). Everything else, box drawing and full-width digits included,
    is kept: an answer comes back in the puzzle's own characters.
    """
    return _CONTROLS.sub(_escaped, text)


class TerminalSafe:
    """The server's bytes made safe to print: control bytes escaped (:func:`escape_controls`), in a stream.

    A hostile or broken server could otherwise drive the user's terminal
    (``ESC [ 2 J`` clears it, ``ESC ] 0 ;`` sets its title, OSC 52 writes the
    clipboard). UTF-8 is decoded incrementally, so a character cut between
    two reads is kept whole; plain ASCII text (every reply of this project's
    server but answers in non-ASCII layouts) passes unchanged without decoding.
    """

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        self._pending = False

    def feed(self, data: bytes) -> bytes:
        """The printable form of the next chunk of the stream (a cut UTF-8 character waits for its rest)."""
        if not self._pending and _NOT_PLAIN.search(data) is None:
            return data
        text = self._decoder.decode(data)
        self._pending = bool(self._decoder.getstate()[0])
        return escape_controls(text).encode("utf-8", "surrogateescape")

    def finish(self) -> bytes:
        """End of the stream: the bytes of a UTF-8 character that never ended, escaped."""
        text = self._decoder.decode(b"", final=True)
        self._pending = False
        return escape_controls(text).encode("utf-8", "surrogateescape")


def escape_bytes(data: bytes) -> bytes:
    """``data`` (a whole reply) as :class:`TerminalSafe` prints it."""
    safe = TerminalSafe()
    return safe.feed(data) + safe.finish()
