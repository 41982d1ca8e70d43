"""The request path without the thread hop: plain puzzles solved on the event loop, replies sent without waiting.

Two small parts a :class:`~sudoku_server.net.connection.Connection` owns
(ARCHITECTURE.md "The request path"):

* :class:`InlineSolver` lets the native core read, solve and write plain
  one-line 9x9 puzzles (``text.oneline.solve_plain``) on the event loop, a group at a time, within a
  budget of solving time per read (``--inline-budget``); a puzzle that
  searches past the core's check interval (0.5 ms), or that has an error
  to word, stops the run: it and those after it go to the solver pool. The
  HTTP front uses the same part for its plain puzzles. It answers a typed
  SOLVE (a variant puzzle, a grid in another layout) on the event loop the
  same way, through ``service.answer``, when the request says it may
  (``inline_able``): one search of at most 0.5 ms (the native core's check
  interval), else the request goes to the pool.
* :class:`SocketIO` reads with a plain ``read`` while bytes wait, and sends
  with a plain ``write`` when no send is under way: one send per wake-up,
  no task switch to the writer, no trio stream machinery on the way.

What was solved is charged and counted by the pool
(``SolverPool.charge_inline``), the one place solving is counted.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

import trio

from sudoku_server.net.pool import JobContext, error_code
from sudoku_server.service.answer import answer
from sudoku_server.service.requests import Request
from sudoku_server.text import Puzzle
from sudoku_server.text.marksline import PLAIN_MAX, solve_marks
from sudoku_server.text.oneline import solve_plain
from sudoku_server.wire import replies

__all__ = [
    "INLINE_FIRST_GROUP",
    "INLINE_GROUP",
    "INLINE_HANDOFF",
    "INLINE_REQUEST_SECONDS",
    "INLINE_SKIP_MAX",
    "RECEIVE_SIZE",
    "InlineSolver",
    "SocketIO",
    "count_replies",
]

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
#: Seconds a typed request answered on the event loop may search before it goes to the pool (the native
#: core's check interval: it calls ``check`` once its search has run this long).
INLINE_REQUEST_SECONDS = 0.0005
#: Lines a connection sends to the pool without trying them inline, at most, after tries that stopped slow
#: (:meth:`InlineSolver.solve`: 1 after the first, doubling while the tries stay slow): a search stopped
#: there is thrown away (the pool searches the line from the start), and a slow line's search seldom comes
#: alone (little killer: most searches pass the 0.5 ms bound). The reply window's 64 replies.
INLINE_SKIP_MAX = 64
#: A read whose lines would take more than this many budgets at the connection's pace goes to the pool
#: whole (:meth:`InlineSolver.solve`): most of it would go there anyway, and the solver threads would wait
#: while the event loop answered a budget's worth. Within it, a read is answered up to the budget as
#: before: thermo's and odd/even's pipelined reads (64 lines of 20-35 µs) stay on the event loop, where they
#: cost least; whispers' (64 lines of 60 µs, 3.8 ms) go to the pool, which searches them outside the
#: interpreter lock: at 2 budgets its first 34 lines were searched on the event loop while both threads
#: waited, 10-15 µs of the event loop's CPU a request (benchmarks/RESULTS.md, tenth session: "The event
#: loop's cost per request").
INLINE_HANDOFF = 1.5


class _InlineSlow(BaseException):
    """Raised by the inline path's ``check``: the puzzle searched past the native core's check interval
    (0.5 ms); it and those after it go to the pool."""


def _too_slow() -> None:
    raise _InlineSlow()


class InlineSolver:
    """Plain one-line 9x9 puzzles answered text to text on the event loop, within a budget (module docstring).

    It remembers the connection's recent lines: the pace of those it answered (seconds per line), and the
    tries that stopped slow; :meth:`solve` uses both to leave lines to the pool without trying them.

    Args:
      budget: seconds of solving per call of :meth:`solve` (``--inline-budget``; 0 turns the path off).
    """

    def __init__(self, budget: float) -> None:
        self.budget = budget
        #: The last :meth:`solve` stopped at a line whose search ran past the check interval (the first line it
        #: did not answer): a marks line then goes to a job of its own, not to a bulk where it would be slow again.
        self.stopped_slow = False
        self.pace = 0.0  # seconds per line of the last lines answered (0: none yet)
        self.skip = 0  # lines still to leave to the pool untried, after a try that stopped slow
        self.backoff = 0  # lines the next slow stop leaves untried (doubles, up to INLINE_SKIP_MAX)

    def solve(self, lines: Sequence[bytes], first_group: int = INLINE_FIRST_GROUP) -> tuple[list[bytes], float]:
        """Answer ``lines`` (each with its terminator) from the first on while each is quick and the budget lasts.

        A line is a plain one (``text.oneline.solve_plain``, a group at a time) or a marks line
        (``text.marksline.solve_marks``, one at a time), as ``Session.take_plain`` takes them.

        Returns ``(answers, seconds)``: the answers of the first
        ``len(answers)`` lines (each the reply's bytes, terminator included),
        and the solving time spent, for the caller to charge
        (``SolverPool.charge_inline``). The lines from ``len(answers)`` on
        were not answered (slow, an error to word, or over the budget).

        A read whose lines would take more than :data:`INLINE_HANDOFF` budgets at the pace so far (known
        after :data:`INLINE_FIRST_GROUP` lines, when no earlier read told it) goes to the pool whole: the
        event loop does not spend a budget on a prefix while the solver threads wait for the rest (a
        pipelining client of a rule of 60-200 µs a line: the pool's threads answer its reads side by side,
        benchmarks/RESULTS.md, tenth session). A read left to the pool that way lowers the pace by a
        quarter, so that a connection whose lines turned quick tries again. After a try that
        stopped slow, the next lines go to the pool untried (1, then doubling while the tries stay slow, up to
        :data:`INLINE_SKIP_MAX`; a call that answers every line it was given starts over).
        """
        out: list[bytes | None] = []
        count = len(lines)
        budget = self.budget
        self.stopped_slow = False
        if self.skip > 0:
            self.skip = max(0, self.skip - count)
            return [], 0.0
        if count > 1 and self.pace * count > INLINE_HANDOFF * budget:
            self.pace *= 0.75  # (a connection's lines may turn quick: a try comes within a few reads)
            return [], 0.0
        started = time.monotonic()
        spent = 0.0
        group = first_group
        while len(out) < count and spent < budget:
            done = len(out)
            end = done
            while end < count and end - done < group and len(lines[end]) <= PLAIN_MAX:
                end += 1
            try:
                if end > done:
                    solve_plain(lines[done:end], out, check=_too_slow)
                else:  # a marks line (``Session.take_plain(marks=True)``)
                    out.append(solve_marks(lines[done], check=_too_slow))
            except _InlineSlow:
                spent = time.monotonic() - started
                self.stopped_slow = True
                self.backoff = min(INLINE_SKIP_MAX, max(1, 2 * self.backoff))
                self.skip = self.backoff
                break
            spent = time.monotonic() - started
            if None in out:
                break
            pace = spent / len(out)
            if len(out) >= first_group and spent + (count - len(out)) * pace > INLINE_HANDOFF * budget:
                break  # a long read: the pool's threads take the rest
            group = max(1, min(INLINE_GROUP, int((budget - spent) / pace) if pace > 0 else INLINE_GROUP))
        answered = out.index(None) if None in out else len(out)
        answers: list[bytes] = [text for text in out[:answered] if text is not None]
        if self.stopped_slow:  # (the slow line counted as one)
            self.pace = max(self.pace, spent / (answered + 1))
        elif answered:
            self.pace = spent / answered
        if answered == count:
            self.backoff = 0
        return answers, spent

    def answer(
        self, request: Request, puzzle: Puzzle | None, ending: str, context: JobContext, about: str
    ) -> tuple[bytes | None, float]:
        """A typed request (``request.inline_able``) answered on the event loop: ``(reply, seconds)``.

        The reply is ``service.answer``'s result rendered by ``wire.replies``,
        as a solver thread would give it; None when its search ran past
        :data:`INLINE_REQUEST_SECONDS` (it then goes to the pool). The
        seconds spent are the caller's to charge (``SolverPool.charge_inline``).
        """
        started = time.monotonic()
        deadline = started + INLINE_REQUEST_SECONDS

        def check() -> None:
            if time.monotonic() > deadline:
                raise _InlineSlow()

        try:
            result = answer(request, check=check, solvers=context.solvers, server=context.server, about=about)
        except _InlineSlow:
            return None, time.monotonic() - started
        data = replies.render(result, ending, puzzle)
        return data, time.monotonic() - started


class SocketIO:
    """Reads and writes on a socket's descriptor without waiting, beside trio's stream (module docstring).

    Args:
      stream: the connection's stream; a stream that is not a socket (tests) has no descriptor: every read
        then goes through trio.
    """

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.fd = stream.socket.fileno() if isinstance(stream, trio.SocketStream) else -1
        #: The last read took less than it asked for: the kernel's buffer was emptied then, so the next
        #: read without waiting would most likely find nothing (an ``EAGAIN`` system call, about a quarter
        #: of a request-response answer's system calls: benchmarks/RESULTS.md, issue 28). The reader then
        #: waits at once (trio's ``wait_readable`` reports bytes that arrived since without delay).
        self.drained = False

    def read_now(self) -> bytes | None:
        """The bytes waiting on the socket (``b""``: end of stream), without waiting; None when none wait.

        A plain ``read`` on the descriptor trio holds non-blocking: no task
        switch, no cancel scope (ARCHITECTURE.md "The request path").

        Raises:
          trio.BrokenResourceError: the client reset the connection.
        """
        if self.fd < 0:
            return None
        try:
            data = os.read(self.fd, RECEIVE_SIZE)
        except (BlockingIOError, InterruptedError):
            self.drained = False
            return None
        except OSError as error:
            raise trio.BrokenResourceError(str(error)) from error
        self.drained = 0 < len(data) < RECEIVE_SIZE
        return data

    async def wait_and_read(self) -> bytes:
        """Wait until bytes (or the end of stream) wait on the socket, then read them (:meth:`read_now`).

        ``SocketStream.receive_some`` without its first attempt, which the
        reader has just made.

        Raises:
          trio.BrokenResourceError: the client reset the connection.
        """
        if self.fd < 0:
            return await self.stream.receive_some(RECEIVE_SIZE)
        while True:
            await trio.lowlevel.wait_readable(self.fd)
            data = self.read_now()
            if data is not None:
                return data

    def write_now(self, data: bytes) -> int:
        """Send what the socket takes of ``data`` at once (a plain ``write``); returns the bytes sent (0: none,
        or an error the writer's send reports). -1: no descriptor (the writer task must send)."""
        if self.fd < 0:
            return -1
        try:
            return os.write(self.fd, data)
        except OSError:  # would block, or an error the writer's send reports
            return 0


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
