"""The plain one-line 9x9 format: defined here, once (issue 28).

A *plain line* is exactly 81 cells, each a digit ``1``-``9`` or an empty
mark ``0`` ``.`` ``_``, and nothing else (no blank, no comment), then its
terminator: ``\\n``, ``\\r\\n`` or ``\\r``. It is the commonest request
(dataset files, pipelined clients), so several readers take it without the
general machinery of :mod:`.reader`; each implements this definition:

- :class:`~sudoku_server.text.reader.PuzzleReader` (:data:`PLAIN_TEXT`);
- the line session's buffer (:data:`PLAIN_BUFFERED`: LF or CRLF only,
  because a lone CR at the end of what has arrived may be the start of a
  CRLF whose LF has not);
- the native core's text-to-text reader, ``solve_lines`` in
  ``sudoku/solver/_native.c`` (``tests/test_oneline_format.py`` holds it to
  :func:`is_plain_line` on a table of lines);
- the JSON API's ``plain`` items (:data:`PLAIN_TEXT`);
- the bundled client's copy (``sudoku_client/requests.py``,
  ``PLAIN_ONE_LINE``: it may not import the server; a test pins it).

:func:`solve_plain` is the text layer's fast path for these lines: text to
text in the native core (``sudoku.solver.solve_lines``), the same bytes as
reading the line, ``service.answer`` and ``wire.replies.render``
(``tests/test_ctext.py`` holds the two paths equal).

Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from sudoku_server.sudoku import solver as _solver

__all__ = [
    "CELLS",
    "DIGITS",
    "EMPTY_MARKS",
    "PLAIN_BUFFERED",
    "PLAIN_TEXT",
    "TERMINATORS",
    "is_plain_line",
    "plain_values",
    "solve_plain",
]

#: Cells of a plain line (a 9x9 grid, row-major).
CELLS = 81
#: The digits a cell may hold.
DIGITS = "123456789"
#: The marks of an empty cell.
EMPTY_MARKS = "0._"
#: The line terminators a plain line may end with.
TERMINATORS = ("\n", "\r\n", "\r")
#: A plain line's text without its terminator (``fullmatch``).
PLAIN_TEXT = re.compile(r"[0-9._]{%d}" % CELLS)
#: A plain line as bytes at the front of a buffer, with an LF or CRLF terminator (``match`` at a position).
PLAIN_BUFFERED = re.compile(rb"[0-9._]{%d}\r?\n" % CELLS)

_VALUES = bytes.maketrans(b"0123456789._", bytes(range(10)) + b"\x00\x00")


def is_plain_line(line: bytes) -> bool:
    """True when ``line`` (bytes, its terminator included) is a plain line as defined above."""
    for terminator in (b"\r\n", b"\n", b"\r"):
        if line.endswith(terminator):
            body = line[: -len(terminator)]
            return len(body) == CELLS and PLAIN_TEXT.fullmatch(body.decode("latin-1")) is not None
    return False


def plain_values(text: str) -> tuple[int, ...]:
    """The 81 cell values of a plain line's text (0 for an empty mark), row-major."""
    return tuple(text.encode("ascii").translate(_VALUES))


def solve_plain(lines: Sequence[bytes], out: list[bytes | None], *, check: Callable[[], None] | None = None) -> None:
    """Plain lines, text to text in the native core: append each line's answer (or None) to ``out``.

    :func:`sudoku_server.sudoku.solver.solve_lines`: a line's answer is the
    solution's 81 digits and the line's own terminator; None for a line the
    caller answers the usual way (not a plain line, an error to word, or no
    native core). The caller decides that the server's own solver is in use
    (a test's replaced solver must see every line: ``FrontServices.fast``).

    Whatever ``check`` raises propagates; ``out`` then holds the answers of
    the lines before the one it was raised in.
    """
    _solver.solve_lines(lines, out, check=check)
