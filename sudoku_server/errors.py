"""Every error the server answers with, each with its wire code (``ERROR <code> <detail>``).

No error line without an error class: the wire layer (:mod:`sudoku_server.wire.replies`)
renders any of these as one ``ERROR`` line; nothing else builds one.
"""

from __future__ import annotations

#: Characters written as themselves inside a quote: printable ASCII (the quote mark and ``\\`` escaped).
_PLAIN = frozenset(chr(c) for c in range(0x20, 0x7F))
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\\": "\\\\"}


def escape(text: str, mark: str = "") -> str:
    """Client input as a reply shows it: ASCII, no control character left raw (``mark`` escaped too).

    THE one escape of every reply that shows input (docs/PROTOCOL.md "Quoted
    input"), Python's ``ascii()`` escapes: printable ASCII stays; ``\\`` and
    ``mark`` get a backslash; tab, LF and CR are ``\\t \\n \\r``; any other
    character is ``\\xNN`` up to U+00FF (C0 controls, DEL, C1 controls,
    Latin-1 letters: ``é`` is ``\\xe9``), else ``\\uNNNN`` or
    ``\\UNNNNNNNN``; a byte that was not UTF-8 (kept as a surrogate escape)
    is ``\\xNN``, the byte as sent. ``escape("l\\x1bmit")`` is the 9
    characters ``l\\x1bmit``.
    """
    out = []
    for ch in text:
        if ch in _PLAIN and ch != "\\" and ch != mark:
            out.append(ch)
            continue
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte, kept by surrogateescape
            code -= 0xDC00
        if ch == mark:
            out.append("\\" + mark)
        elif ch in _NAMED:
            out.append(_NAMED[ch])
        elif code < 0x100:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return "".join(out)


def quote(text: str, mark: str = '"') -> str:
    """Client input between two ``mark`` (``"`` or ``'``), through :func:`escape`: ``quote("lmit")`` is ``"lmit"``."""
    return f"{mark}{escape(text, mark)}{mark}"


class PuzzleError(Exception):
    """Base of every error about one puzzle.

    Attributes:
      code: the wire code of ``ERROR <code> <detail>`` (PROTOCOL.md).
      detail: the human-readable detail, naming the place (line, cell, unit).
    """

    code = "internal"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail

    def __eq__(self, other: object) -> bool:
        """Errors are values: equal when of the same class with the same detail (results compare)."""
        if not isinstance(other, PuzzleError):
            return NotImplemented
        return type(self) is type(other) and self.detail == other.detail

    def __hash__(self) -> int:
        return hash((type(self), self.detail))


class PuzzleFormatError(PuzzleError):
    """The text is not a puzzle (``ERROR format line 4: expected 9 cells, found 8``)."""

    code = "format"


class InvalidPuzzleError(PuzzleError):
    """Givens break a rule (``ERROR invalid duplicate 8 in box 1 at r1c1 and r3c3``)."""

    code = "invalid"


class UnsolvableError(PuzzleError):
    """No solution exists (``ERROR unsolvable no digit fits r1c5``)."""

    code = "unsolvable"


class MultipleSolutionsError(PuzzleError):
    """The puzzle has more than one solution, so it has no logical path to rate, hint or explain.

    ``ERROR multiple the puzzle has more than one solution (r1c2 can be 3 or 5)``:
    the detail names a cell whose digit differs between two solutions.
    """

    code = "multiple"


class SolutionMismatchError(PuzzleError):
    """A dataset row's expected solution differs from ours (``ERROR mismatch ...``).

    Attributes:
      cell: the first cell that differs (0-based, row-major), or None when not known.
      expected: the row's digit there (1..size), or 0.
      found: the solution's digit there (1..size), or 0.
    """

    code = "mismatch"

    def __init__(self, detail: str, *, cell: int | None = None, expected: int = 0, found: int = 0) -> None:
        super().__init__(detail)
        self.cell = cell
        self.expected = expected
        self.found = found


class IncompletePuzzleError(PuzzleError):
    """The input ended inside a puzzle (``ERROR incomplete ...``)."""

    code = "incomplete"


class TooLargeError(PuzzleError):
    """A line or request over the limits (``ERROR too-large ...``); the connection closes."""

    code = "too-large"


class ShutdownError(PuzzleError):
    """The server stopped before answering (``ERROR shutdown ...``); the connection closes."""

    code = "shutdown"


class BusyError(PuzzleError):
    """No solver time for this request (``ERROR busy <reason>``); the connection goes on."""

    code = "busy"


class CommandError(PuzzleError):
    """A command line with bad arguments, or an unknown verb (``ERROR command ...``)."""

    code = "command"


class SolveTimeoutError(PuzzleError):
    """The request used its solve timeout (``ERROR timeout no answer within 10 s``); the connection goes on."""

    code = "timeout"


class InternalError(PuzzleError):
    """A fault of the server (``ERROR internal ValueError while solving the puzzle at line 3``); logged."""

    code = "internal"


class DrainingError(PuzzleError):
    """``PING`` while the server drains before stopping (``ERROR draining server shutting down, use another``)."""

    code = "draining"


class ProxyProtocolError(PuzzleError):
    """A ``--proxy-protocol`` port refuses a connection before its session (``ERROR proxy <reason>``); it closes.

    The reasons: no PROXY header (a client that connected directly), none
    within 5 s, a malformed one, or a peer outside ``--trusted-proxy``.
    """

    code = "proxy"
