"""The request path without the thread hop: plain puzzles solved on the event loop, replies sent without waiting.

Mixed into :class:`~sudoku_server.net.connection.Connection` (ARCHITECTURE.md
"The request path"). A connection's reader takes the plain one-line 9x9
puzzles at the front of what it received (``Session.take_plain``) and, while
the connection has no reply pending before them, lets the native core read,
solve and write them right there (``service.answer_lines``), within a budget
of solving time per read (``--inline-budget``); a puzzle that searches past
the core's check interval (0.5 ms), or that has an error to word, goes with
those after it to the solver pool as before. The reader reads with a plain
``read`` while bytes wait, and when none do, it sends every reply ready in
one plain ``write`` before it waits: one send per wake-up, no task switch to
the writer, no trio stream machinery on the way. Anything the socket does
not take at once is left to the writer task.
"""

from __future__ import annotations

import logging
import os
import time
from typing import TYPE_CHECKING

import trio

from sudoku_server.net.pool import Signal, Slot, error_code
from sudoku_server.net.window import WINDOW_BYTES, ReplyWindow, puzzle_weight
from sudoku_server.service.answer import answer_lines

if TYPE_CHECKING:
    from sudoku_server.net.config import ServerConfig
    from sudoku_server.net.lifecycle import SessionClock
    from sudoku_server.net.server import SudokuServer
    from sudoku_server.wire.session import Event, Session

log = logging.getLogger("sudoku_server")

#: Bytes asked of the kernel per receive: the bound on what one parse step
#: handles before the event loop serves others (4 KiB of one-line puzzles is
#: about 50 puzzles, 1 ms or so of parsing; of junk lines, about 10 ms).
RECEIVE_SIZE = 16384

#: Plain puzzles the inline path gives the native core in its first call of a read (later calls: as many as
#: fit in the rest of ``inline_seconds`` at the pace so far, at most :data:`INLINE_GROUP`).
INLINE_FIRST_GROUP = 8
#: Plain puzzles per native call of the inline path, at most: the bound on how far one call may run past
#: ``inline_seconds`` (each puzzle stops at the core's 0.5 ms check interval: 8 ms at worst).
INLINE_GROUP = 16


#: A 9x9 puzzle's weight in the reply window (``window.puzzle_weight``).
NINE_WEIGHT = puzzle_weight(81)


class _InlineSlow(BaseException):
    """Raised by the inline path's ``check``: the puzzle searched past the native core's check interval
    (0.5 ms); it and those after it go to the pool."""


def _too_slow() -> None:
    raise _InlineSlow()


class InlinePath(ReplyWindow):
    """The inline path's reads, solves and sends (module docstring); the rest of the connection is
    :class:`~sudoku_server.net.connection.Connection`."""

    server: SudokuServer
    config: ServerConfig
    session: Session
    clock: SessionClock
    peer: str
    reserve: bool
    answered: int
    jobs: int
    solver_seconds: float
    errors: dict[str, int]
    send_lock: trio.Lock
    stream: trio.SocketStream
    read_scope: trio.CancelScope | None
    _fd: int
    _reader_wake: Signal

    def _read_deadline(self) -> float:
        raise NotImplementedError

    # -- the inline path (ARCHITECTURE.md "The request path") -----------------

    def _receive_buffered(self, room: int) -> list[Event]:
        """Parse buffered input: the plain one-line puzzles at its front first (:meth:`_add_plain`), then the rest
        (``Session.receive_more``); at most ``room`` requests in all. Returns the events to add, in order."""
        session = self.session
        events: list[Event] = []
        if self.server.bulk and not self.reserve:
            lines, first = session.take_plain(room)
            if lines and self.weight_per_request < NINE_WEIGHT:
                # The first puzzles of the connection: the room was counted for 25x25 ones; these are 9x9.
                self.weight_per_request = NINE_WEIGHT
                more, _ = session.take_plain(max(0, self._room() - len(lines)))
                lines += more
            if lines:
                events = self._add_plain(lines, first)
                room -= len(lines)
                if room <= 0:
                    return events  # the rest stays buffered (session.backlog) until the window has room
        if session.backlog:
            events += session.receive_more(self.clock.waited, room)
        return events

    def _inline_ok(self) -> bool:
        """True when this connection's plain puzzles may be solved on the event loop now.

        Not while any reply before them waits (a solver job, a ``STATS``: the
        order and the scheduler's turn stay theirs), nor while the connection
        is held (its client does not read) or its budget is used (the pool
        refuses its puzzles), nor once the server stops.
        """
        server = self.server
        if self.config.inline_seconds <= 0 or self.gone or server.stopping:
            return False
        for slot in self.slots:
            if slot.data is None:
                return False
        scheduler = self.pool.scheduler
        return not scheduler.held(self) and scheduler.budget_left(self, time.monotonic()) > 0

    def _add_plain(self, lines: list[bytes], first: int) -> list[Event]:
        """Plain one-line puzzles (``Session.take_plain``, the first at line ``first``): solve what is quick inline.

        The native core reads, solves and writes them (``solver.solve_lines``)
        on the event loop, a group at a time, while the connection may
        (:meth:`_inline_ok`) and for at most ``inline_seconds`` per call
        (plus one group: at most :data:`INLINE_GROUP` puzzles of 0.5 ms,
        the native core's check interval, which stops a puzzle that searches
        longer). The answers done go in one reply slot, now; the time is
        charged to the connection's budget and virtual time
        (``Scheduler.charge``) and counted in STATS as the pool counts it.
        The puzzles from the first one not answered on (slow, an error to
        word, or over the budget) are returned as events, for the usual path
        (the pool), in order after them.
        """
        out: list[bytes | None] = []
        count = len(lines)
        self.weight_per_request = max(self.weight_per_request, NINE_WEIGHT)  # as _hold_weight counts a 9x9
        if self._inline_ok():
            budget = self.config.inline_seconds
            started = time.monotonic()
            spent = 0.0
            group = INLINE_FIRST_GROUP
            solvers = self.server.solvers
            while len(out) < count and spent < budget:
                done = len(out)
                try:
                    answer_lines(lines[done : done + group], out, check=_too_slow, solvers=solvers)
                except _InlineSlow:
                    spent = time.monotonic() - started
                    break
                spent = time.monotonic() - started
                if None in out:
                    break
                group = max(
                    1, min(INLINE_GROUP, int((budget - spent) * len(out) / spent) if spent > 0 else INLINE_GROUP)
                )
            now = started + spent
            answered = out.index(None) if None in out else len(out)
            if spent > 0:
                self.pool.scheduler.charge(self, spent, now)
                self.server.stats.solver_seconds += spent
                self.solver_seconds += spent
            if answered:
                answers = out[:answered]
                data = b"".join(answers)  # type: ignore[arg-type]  # no None before `answered`
                self.slots.append(Slot(data, count=answered))
                self.unanswered += answered
                self.jobs += answered
                stats = self.server.stats
                stats.puzzles += answered
                stats.solve_times.extend([spent / answered] * answered)
                self._add_unsent(len(data))  # sent when the reader has read all there is (_flush_now)
                if log.isEnabledFor(logging.DEBUG):
                    for index in range(answered):
                        log.debug(
                            "%s puzzle at line %d: answered, %.1f ms (inline)",
                            self.peer,
                            first + index,
                            spent / answered * 1000,
                        )
            out = out[:answered]
        session = self.session
        return [session.plain_event(lines[index], first + index) for index in range(len(out), count)]

    def _read_now(self) -> bytes | None:
        """The bytes waiting on the socket (``b""``: end of stream), without waiting; None when none wait.

        A plain ``read`` on the descriptor trio holds non-blocking: no task
        switch, no cancel scope (ARCHITECTURE.md "The request path").

        Raises:
          trio.BrokenResourceError: the client reset the connection.
        """
        if self._fd < 0 or self.gone:
            return None
        try:
            return os.read(self._fd, RECEIVE_SIZE)
        except (BlockingIOError, InterruptedError):
            return None
        except OSError as error:
            raise trio.BrokenResourceError(str(error)) from error

    async def _wait_and_read(self) -> bytes:
        """Wait until bytes (or the end of stream) wait on the socket, then read them (:meth:`_read_now`).

        ``SocketStream.receive_some`` without its first attempt, which the
        reader has just made.

        Raises:
          trio.BrokenResourceError: the client reset the connection.
        """
        if self._fd < 0:
            return await self.stream.receive_some(RECEIVE_SIZE)
        while True:
            await trio.lowlevel.wait_readable(self._fd)
            data = self._read_now()
            if data is not None:
                return data

    def _flush_now(self) -> None:
        """The reader is about to wait: send the replies ready at the head of the queue now, in one send.

        A plain ``write`` on the descriptor, when no send is under way; what
        the socket does not take at once (or on any error) is left to the
        writer task, which is woken for it.
        """
        slots = self.slots
        if not slots or slots[0].data is None:
            if slots:
                self._writer_wake.set()  # a STATS to render at the head: the writer's
            return
        if self._fd < 0 or self.gone or self.send_lock.locked():
            self._writer_wake.set()
            return
        data, count = self.take_ready()
        try:
            sent = os.write(self._fd, data)
        except OSError:  # would block, or an error the writer's send reports
            sent = 0
        if sent < len(data):
            slots.appendleft(Slot(data[sent:], count=0))  # the rest: the writer sends it, counted here
        if slots:
            self._writer_wake.set()  # the rest, or a STATS to render now that the replies before it are sent
        self._sent(data, sent, count)

    def _sent(self, data: bytes, sent: int, count: int) -> None:
        """``sent`` bytes of ``data``, which holds ``count`` replies, were sent (the rest, if any, is queued
        first with a count of 0): the window, the counts and the timers."""
        self.unsent -= sent
        if count:
            self.unanswered -= count
            self.answered += count
            count_replies(self.server.stats, self.errors, data, count)
        self._reader_wake.set()
        slots = self.slots
        if not slots:
            self.clock.last_progress = trio.current_time()  # every reply sent: progress
        if self.unsent < WINDOW_BYTES:
            self.pool.release(self)  # type: ignore[arg-type]  # the Connection this is mixed into
        scope = self.read_scope
        if scope is not None and not slots:
            # All caught up: the close grace (or a person's idle limit) starts now.
            scope.deadline = self._read_deadline()


def count_replies(stats, errors: dict[str, int], data: bytes, count: int) -> None:
    """Count ``count`` replies sent in ``data`` (bytes) in the server's ``stats`` and the connection's
    ``errors``: answered, or ERROR by code."""
    stats.answers += count
    replies = stats.replies
    failed = 0
    if data.startswith(b"ERROR ") or b"\nERROR " in data or b"\rERROR " in data:
        for line in data.splitlines():
            code = error_code(line)
            if code is not None:
                errors[code] += 1
                replies[code] += 1
                failed += 1
    replies["answered"] += count - failed
