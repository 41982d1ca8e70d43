"""The typed results of :func:`sudoku_server.service.answer.answer`: values, never bytes.

The wire layer (:mod:`sudoku_server.wire.replies`) renders each as reply
bytes; another front (HTTP/JSON) would render the same values its own way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sudoku_server.errors import PuzzleError
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.rules import Variant

if TYPE_CHECKING:  # the technique engine loads when a technique is used, not with the results
    from sudoku_server.sudoku.canon import Canonical, Transformation
    from sudoku_server.sudoku.clues import Uniqueness
    from sudoku_server.sudoku.generator import Generated as _Made
    from sudoku_server.sudoku.rating import Rating
    from sudoku_server.sudoku.techniques import Step
    from sudoku_server.sudoku.techniques.every import Found


@dataclass(frozen=True)
class Solved:
    """The solution (``size * size`` ints row-major, every cell 1..size), checked against the puzzle.

    ``format``: how it is answered (``SOLVE format=``): ``line`` in the
    puzzle's layout; ``fpuzzles`` or ``link`` as an f-puzzles object of
    ``givens`` under ``variant`` with the grid filled.
    """

    solution: Grid
    format: str = "line"
    givens: Grid | None = None
    variant: Variant | None = None


@dataclass(frozen=True)
class Counted:
    """``count`` solutions found, counting stopped at ``limit`` (so ``count <= limit``)."""

    count: int
    limit: int


@dataclass(frozen=True)
class CandidatesFound:
    """The true candidates: per cell (``size * size``, row-major) a mask, bit ``d - 1`` for digit d.

    ``puzzle``: the grid asked about (its size and symbols write the answer).
    """

    masks: tuple[int, ...]
    puzzle: Grid


@dataclass(frozen=True)
class Generated:
    """A made puzzle (``made``: the generator's value) and, when a level or band was asked, its rating.

    ``pooled``: taken from a warm pool (made earlier in idle solver time, ``service.warm``).
    """

    made: _Made
    rating: Rating | None = None
    full: bool = False
    format: str = "line"
    pooled: bool = False


@dataclass(frozen=True)
class Rated:
    """The puzzle's rating (level, Sudoku Explainer number, QQWing level, hardest step)."""

    rating: Rating


@dataclass(frozen=True)
class MinimalChecked:
    """The givens (0-based cell indices, row-major) each removable alone with the puzzle still unique; () when minimal."""

    redundant: tuple[int, ...]
    size: int


@dataclass(frozen=True)
class Canonized:
    """A puzzle's minlex canonical form and the transformation onto it (``map``: the reply shows it)."""

    form: Canonical
    map: bool = False


@dataclass(frozen=True)
class Compared:
    """``SAME``: a transformation mapping the first puzzle onto the second, or None when they are not equivalent."""

    transformation: Transformation | None


@dataclass(frozen=True)
class UniqueChecked:
    """UNIQUE's finding: ``uniqueness`` (two solutions, where they differ, the clues that fix it), or the
    ``unsolvable`` detail (``no digit fits r1c5``) of a puzzle without a solution (``uniqueness`` is then None)."""

    uniqueness: Uniqueness | None
    size: int
    symbols: str = ""
    unsolvable: str | None = None


@dataclass(frozen=True)
class Hinted:
    """The next logical step, or None when the grid is complete; ``nudge``: say only the technique and where."""

    step: Step | None
    nudge: bool = False


@dataclass(frozen=True)
class HintedAll:
    """Every step at a solving state (``HINT all``), simplest first, each with HoDoKu's code (or ``-``)."""

    found: tuple[Found, ...]


@dataclass(frozen=True)
class Stepped:
    """Every step from the puzzle to its solution, in order, and the puzzle's rating."""

    steps: tuple[Step, ...]
    rating: Rating


@dataclass(frozen=True)
class RulesSet:
    """The rules of the connection's puzzles from now on, as ``rules=`` writes them (``x+antiknight``, ``classic``)."""

    words: str


@dataclass(frozen=True)
class Failed:
    """The request has no answer but this error (its ``code`` and ``detail`` make the ERROR line)."""

    error: PuzzleError


@dataclass(frozen=True)
class Pong:
    """``PING`` answered: the server is up and not draining."""


@dataclass(frozen=True)
class Bye:
    """The session ends: ``QUIT`` (idle is None) or a person's session silent for ``idle`` seconds."""

    idle: float | None = None


@dataclass(frozen=True)
class VersionInfo:
    """The server's version (``0.3.0``), protocol version and solver core (``native`` or ``python``)."""

    version: str
    protocol: int
    core: str


@dataclass(frozen=True)
class HelpShown:
    """``HELP``: the verb list (topic None) or one verb's usage (``topic`` as typed, checked by the verb table)."""

    topic: str | None = None


@dataclass(frozen=True)
class StatsShown:
    """The server's counters, ``(name, value)`` in order (docs/PROTOCOL.md "STATS")."""

    pairs: tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class InteractiveOn:
    """The session is interactive; it ends after ``timeout`` seconds of silence."""

    timeout: float


@dataclass(frozen=True)
class KeepAliveOn:
    """The session is held by a program (``KEEPALIVE``); it ends after ``timeout`` seconds without a complete line."""

    timeout: float


#: Every result type.
Result = (
    Solved
    | Counted
    | CandidatesFound
    | Generated
    | Rated
    | Hinted
    | HintedAll
    | Stepped
    | MinimalChecked
    | Canonized
    | Compared
    | UniqueChecked
    | Failed
    | Pong
    | Bye
    | VersionInfo
    | HelpShown
    | StatsShown
    | InteractiveOn
    | KeepAliveOn
    | RulesSet
)
