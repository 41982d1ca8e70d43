"""What the fronts need of the server: one small interface object, :class:`FrontServices`.

The line connections (:mod:`.connection`) and the HTTP front (:mod:`.http`)
are given this object, never the :class:`~sudoku_server.net.server.SudokuServer`
itself: they read the settings, the pool, the counters and the lifecycle
through it, and it is the ``server`` that ``service.answer`` reads for the
verbs about the server (VERSION, PING, STATS, INTERACTIVE, KEEPALIVE). It
imports nothing of ``net`` above the pool, so that no front imports the
server module (no import circle).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sudoku_server import __version__
from sudoku_server.net.config import ServerConfig
from sudoku_server.net.lifecycle import Admission, ServerLifecycle
from sudoku_server.net.metrics import Counts
from sudoku_server.net.pool import JobContext, SolverPool
from sudoku_server.service.answer import Solvers

__all__ = ["FrontServices"]


class FrontServices:
    """The server as its fronts see it.

    Args:
      config: the settings.
      stats: the process's counters.
      pool: the one solver pool (and its scheduler).
      lifecycle: the server's lifecycle (:class:`~.lifecycle.ServerLifecycle`).
      admission: the places of ``--max-connections`` (line connections).
      filler: the warm pools' filler (``take(request, ending)``: a GENERATE answered from a pool, or None).
      solvers: what ``service.answer`` solves with now (tests swap the solver).
      bulk: True when plain one-line 9x9 puzzles that arrive together go to the pool as bulk jobs.
      fast: True when they may be answered text to text in the native core (inline, in bulk, HTTP): with
        the solver's own solve only (a test's replaced solver must see every line).
      stats_pairs: the STATS fields, ``(name, value)`` in order.
      busy_line: the reply that refuses a connection at the connection limit.
    """

    def __init__(
        self,
        config: ServerConfig,
        stats: Counts,
        pool: SolverPool,
        lifecycle: ServerLifecycle,
        admission: Admission[Any],
        filler: Any,
        *,
        solvers: Callable[[], Solvers],
        bulk: Callable[[], bool],
        fast: Callable[[], bool],
        stats_pairs: Callable[[], list[tuple[str, object]]],
        busy_line: Callable[[], bytes],
    ) -> None:
        self.config = config
        self.stats = stats
        self.pool = pool
        self.lifecycle = lifecycle
        self.admission = admission
        self.filler = filler
        self._solvers = solvers
        self._bulk = bulk
        self._fast = fast
        self._stats_pairs = stats_pairs
        self.busy_line = busy_line

    @property
    def solvers(self) -> Solvers:
        """What ``service.answer`` solves with (the server's ``solve``, which tests may swap)."""
        return self._solvers()

    @property
    def bulk(self) -> bool:
        """Plain one-line 9x9 puzzles that arrive together go to the pool as bulk jobs."""
        return self._bulk()

    @property
    def fast(self) -> bool:
        """Plain one-line 9x9 puzzles go text to text in the native core (inline, in bulk)."""
        return self._fast()

    @property
    def shutting_down(self) -> bool:
        """True once the server stopped accepting (after the drain grace)."""
        return self.lifecycle.closing

    def context(self) -> JobContext:
        """What a job answers with (:class:`~.pool.JobContext`)."""
        return JobContext(self._solvers(), self)

    # -- service.answer.Server: what the verbs about the server read --------------------------

    @property
    def version(self) -> str:
        """The package version (VERSION, STATS)."""
        return __version__

    @property
    def draining(self) -> bool:
        """True while the server drains before stopping: PING answers ``ERROR draining``."""
        return self.lifecycle.draining

    @property
    def interactive_timeout(self) -> float:
        """Seconds of silence that end an interactive session (``INTERACTIVE on: ...``)."""
        return self.config.interactive_timeout

    @property
    def idle_timeout(self) -> float:
        """Seconds of silence that end a held session (``KEEPALIVE on: ...``)."""
        return self.config.idle_timeout

    def stats_pairs(self) -> list[tuple[str, object]]:
        """The STATS fields, ``(name, value)`` in order (docs/PROTOCOL.md "STATS")."""
        return self._stats_pairs()
