"""The one module of the client that uses the server package, when it is there.

With ``sudoku_server`` importable, requests are found by the server's own verb
table and puzzle reader (:class:`PackageReader`), so the count is exact; without
it, by :class:`sudoku_client.requests.HeuristicReader`. The rest of the client
sees only :func:`make_reader` (a reader with the interface of
:class:`sudoku_client.requests.RequestReader`: ``feed_line``, ``finish``,
``held_from``, ``closed``, ``exact``) and :func:`client_version`. The package is
imported lazily, on first use, and never at import of this module.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from sudoku_client.common import VERSION
from sudoku_client.requests import PLAIN_ONE_LINE, HeuristicReader, Request, RequestReader

# --- the server package, when it is there -----------------------------------

_PACKAGE: tuple | None = None
_PACKAGE_LOADED = False
_PACKAGE_LOCK = threading.Lock()


def _package() -> tuple | None:
    """``(Splitter class, PuzzleRead class, version)`` of sudoku_server, or None.

    Imported on first use (about 20 ms), from any thread; None when the
    package is missing or too old to have :mod:`sudoku_server.wire.splitter`
    (the client then uses :class:`HeuristicReader`).
    """
    global _PACKAGE, _PACKAGE_LOADED
    with _PACKAGE_LOCK:
        if not _PACKAGE_LOADED:
            try:
                from sudoku_server import __version__ as version
                from sudoku_server.wire.splitter import PuzzleRead, Splitter
            except ImportError:
                _PACKAGE = None
            else:
                _PACKAGE = (Splitter, PuzzleRead, version)
            _PACKAGE_LOADED = True
    return _PACKAGE


def client_version() -> str:
    """The version: the sudoku_server package's when importable, else :data:`VERSION`."""
    package = _package()
    return package[2] if package is not None else VERSION


class PackageReader:
    """Find the requests in the input with the server's own line routing (exact).

    A thin adapter over ``sudoku_server.wire.splitter.Splitter``, the routing
    the server's session uses: every item it returns (a command, a puzzle with
    the request it answers, a rejected line) is one reply from the server.

    Attributes:
      held_from: the first line of a request not complete yet, or None.
    """

    exact = True

    def __init__(self, package: tuple) -> None:
        splitter_class, self._puzzle_read, _ = package
        self._splitter = splitter_class()
        self._quit = False

    @property
    def closed(self) -> bool:
        """True after a ``QUIT``: the server reads nothing more."""
        return self._quit

    @property
    def held_from(self) -> int | None:
        splitter = self._splitter
        waiting = splitter.waiting
        if waiting is not None:
            return int(waiting.line)
        start = splitter.reader.puzzle_start
        return None if start is None else int(start)

    def feed_line(self, text: str, ending: str, lineno: int) -> list[Request]:
        if self._quit:
            return []
        splitter = self._splitter
        if splitter.idle and not splitter.holding and PLAIN_ONE_LINE.fullmatch(text):
            return [Request(lineno, True, True)]  # what the splitter makes of it, without the parse
        found = self._take(splitter.feed(text, ending, lineno), lineno)
        self._quit = splitter.closed
        return found

    def finish(self) -> list[Request]:
        if self._quit:
            return []
        return self._take(self._splitter.finish(), 0)

    def _take(self, items: Iterable[object], lineno: int) -> list[Request]:
        found: list[Request] = []
        for item in items:
            if isinstance(item, self._puzzle_read):
                puzzle = item.puzzle
                attached = item.command is not None
                found.append(Request(puzzle.first_line, True, puzzle.layout in ("line", "csv"), attached))
            else:
                found.append(Request(lineno, False))
        return found


def make_reader() -> RequestReader:
    """A :class:`PackageReader` when sudoku_server is importable, else a :class:`HeuristicReader`."""
    package = _package()
    return PackageReader(package) if package is not None else HeuristicReader()
