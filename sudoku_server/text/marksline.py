"""The fast path of a marks line: ``SOLVE <81 givens> thermo=r1c1-r1c2-r1c3 ...``, text to text (issue 29).

The usual path reads such a line into a :class:`~.puzzle.Puzzle` with its
rules' marks (:func:`.fpuzzles.marks_line`), a typed request, a geometry of
named constraints, the native core's arrays, then renders the answer; for
a puzzle of a few thermometers that is about 100 µs of Python beside its
search. :func:`solve_marks` answers the common shape of the line straight:
the givens, each rule's marks read by the rule itself to the native arrays
(:attr:`~sudoku_server.sudoku.rules.Rule.native`), the search, the
independent check, the 81 digits and the line's terminator. Anything else
(another verb or option, a rule without a fast reading, a mark in an
unusual form, a rule named twice, givens that break a rule, no solution) is
None: the caller reads the line the usual way, which words every error.
``tests/unit/test_marks_fast_path.py`` holds the two paths' answers equal on
every stored puzzle.

Pure: no I/O.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from sudoku_server.sudoku import solver as _solver
from sudoku_server.sudoku.rules import RULES
from sudoku_server.sudoku.rules._native_marks import NativeParts, reader_words

__all__ = ["MARKS_BUFFERED", "PLAIN_MAX", "solve_marks"]

#: A marks line as bytes at the front of a buffer, with an LF or CRLF terminator (``match`` at a position):
#: ``SOLVE`` and a blank or nothing, 81 givens of a 9x9 grid, then one or more `` word=marks`` fields (one
#: blank each). The line :func:`solve_marks` may answer; the session takes it beside the plain lines.
MARKS_BUFFERED = re.compile(rb"(?:SOLVE )?[0-9._]{81}(?: [A-Za-z]+=[0-9A-Za-z:;-]+)+\r?\n")

#: The longest plain line with its terminator (81 cells, CRLF): a longer line the session took is a marks line.
PLAIN_MAX = 83

_VALUES = bytes.maketrans(b"0123456789._", bytes(range(10)) + b"\x00\x00")
_DIGITS = bytes.maketrans(bytes(range(10)), b"0123456789")


@functools.cache
def _readers() -> dict[str, tuple[int, Callable[[str, int, NativeParts], bool]]]:
    """Each rule's fast reading of its marks by its word, with its place in :data:`RULES` (the order its
    constraints are compiled in)."""
    return {word: (k, rule.native) for k, (word, rule) in enumerate(RULES.items()) if rule.native is not None}


@functools.cache
def _reader() -> object | None:
    """The native core's reader of a marks line: the words of the rules whose marks are lines of cells
    (:attr:`~sudoku_server.sudoku.rules.Rule.native_shape`); None without the native core."""
    return _solver.marks_reader(reader_words(RULES.items()))


def solve_marks(line: bytes, *, check: Callable[[], None] | None = None) -> bytes | None:
    """The answer of a marks line (its bytes, terminator included: :data:`MARKS_BUFFERED`), or None.

    The answer is what the usual path sends for it: the row-major-first
    solution's 81 digits and the line's own terminator. None: the line is
    the usual path's to answer (module docstring). Whatever ``check`` raises
    (called once the search has run 0.5 ms) propagates.

    A line whose rules all have a :attr:`~sudoku_server.sudoku.rules.Rule.native_shape` is read, solved
    and written in one native call (:func:`~sudoku_server.sudoku.solver.solve_marks_line`); one it does
    not take goes to the rules' own readings (:attr:`~sudoku_server.sudoku.rules.Rule.native`) below.
    """
    reader = _reader()
    if reader is not None:
        answer = _solver.solve_marks_line(line, reader, check=check)
        if answer is not False:
            return answer  # type: ignore[return-value]
    text = line.decode("ascii")
    ending = "\r\n" if text.endswith("\r\n") else "\n"
    fields = text[: -len(ending)].split(" ")
    if fields[0] == "SOLVE":
        del fields[0]
    givens = fields[0]
    readers = _readers()
    chosen = []
    for field in fields[1:]:
        word, _, marks = field.partition("=")
        entry = readers.get(word.lower())
        if entry is None:
            return None
        chosen.append((entry[0], marks, entry[1]))
    chosen.sort(key=lambda item: item[0])  # the rules' order, as the geometry compiles them
    parts = NativeParts()
    before = -1
    for order, marks, native in chosen:
        if order == before or not native(marks, 9, parts):
            return None  # a rule named twice, or marks in a form the usual path reads
        before = order
    arrays = parts.arrays()
    if arrays is None:
        return None
    found = _solver.solve_nine_arrays(tuple(givens.encode("ascii").translate(_VALUES)), arrays, check=check)
    if found is None:
        return None
    return bytes(found).translate(_DIGITS) + ending.encode("ascii")
