"""The errors of the pure API, each with the protocol code it is answered with."""

from __future__ import annotations


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
    """A dataset row's expected solution differs from ours (``ERROR mismatch ...``)."""

    code = "mismatch"


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
