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
    """``(PuzzleReader, Puzzle, commands module, version)`` of sudoku_server, or None.

    Imported on first use (about 20 ms), from any thread; None when the
    package is missing or too old to have the protocol-2 command table (the
    client then uses :class:`HeuristicReader`).
    """
    global _PACKAGE, _PACKAGE_LOADED
    with _PACKAGE_LOCK:
        if not _PACKAGE_LOADED:
            try:
                from sudoku_server import __version__ as version
                from sudoku_server.text import Puzzle, PuzzleReader
                from sudoku_server.wire import verbs as commands

                for name in ("is_verb", "parse_command", "check_arguments", "CommandError"):
                    getattr(commands, name)
                for name in ("feed_line", "finish", "puzzle_start", "awaiting_optional_line"):
                    getattr(PuzzleReader, name)
            except (ImportError, AttributeError):
                _PACKAGE = None
            else:
                _PACKAGE = (PuzzleReader, Puzzle, commands, version)
            _PACKAGE_LOADED = True
    return _PACKAGE


def client_version() -> str:
    """The version: the sudoku_server package's when importable, else :data:`VERSION`."""
    package = _package()
    return package[3] if package is not None else VERSION


class PackageReader:
    """Find the requests in the input with the server's own reader (exact).

    Mirrors the protocol session: between puzzles, a line whose first word is
    a verb is a command (``sudoku_server.wire.verbs``); every other line goes
    to ``sudoku_server.text.PuzzleReader``. One :class:`Request` per reply
    the server gives.

    Attributes:
      held_from: the first line of a request not complete yet, or None.
    """

    exact = True

    def __init__(self, package: tuple) -> None:
        reader_class, self._puzzle_class, self._commands, _ = package
        self._reader = reader_class()
        self._verb_line: int | None = None
        self._closed = False

    @property
    def closed(self) -> bool:
        """True after a ``QUIT``: the server reads nothing more."""
        return self._closed

    @property
    def held_from(self) -> int | None:
        if self._verb_line is not None:
            return self._verb_line
        return self._reader.puzzle_start

    def feed_line(self, text: str, ending: str, lineno: int) -> list[Request]:
        if self._closed:
            return []
        reader = self._reader
        if reader.puzzle_start is None and self._verb_line is None and PLAIN_ONE_LINE.fullmatch(text):
            return [Request(lineno, True, True)]  # what the reader makes of it
        commands = self._commands
        found: list[Request] = []
        if (reader.puzzle_start is None or reader.awaiting_optional_line) and commands.is_verb(text):
            if reader.awaiting_optional_line:
                self._take(reader.finish(), lineno, found)
            if self._verb_line is not None:
                found.append(Request(self._verb_line, False))  # no puzzle followed it
                self._verb_line = None
            try:
                command = commands.parse_command(text, lineno, ending)
                commands.check_arguments(command)
            except commands.CommandError:
                found.append(Request(lineno, False))
                return found
            if command.name == "QUIT":
                self._closed = True
            if command.verb.takes_puzzle and command.puzzle_text is None:
                self._verb_line = lineno
            else:
                found.append(Request(lineno, False))
            return found
        self._take(reader.feed_line(text, ending, lineno), lineno, found)
        return found

    def finish(self) -> list[Request]:
        found: list[Request] = []
        self._take(self._reader.finish(), 0, found)
        if self._verb_line is not None:
            found.append(Request(self._verb_line, False))
            self._verb_line = None
        return found

    def _take(self, events: Iterable[object], lineno: int, found: list[Request]) -> None:
        for event in events:
            attached = self._verb_line is not None
            self._verb_line = None
            if isinstance(event, self._puzzle_class):
                one_line = event.layout in ("line", "csv")
                found.append(Request(event.first_line, True, one_line, attached))
            else:
                found.append(Request(lineno, False, False, attached))


def make_reader() -> RequestReader:
    """A :class:`PackageReader` when sudoku_server is importable, else a :class:`HeuristicReader`."""
    package = _package()
    return PackageReader(package) if package is not None else HeuristicReader()
