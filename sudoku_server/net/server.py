"""The TCP server: the only module of the package that touches sockets.

Shape (SERVING.md)::

    socket --bytes--> Session (sans-I/O) --events--> replies, in request order
       ^                                               | solver jobs
       |                                               v
     writer <--answers, one send per run-- _SolverPool (carries out the Scheduler)

Each connection runs a **reader** task, which feeds the sans-I/O
:class:`~sudoku_server.wire.session.Session` bounded chunks and turns its events
into *replies* (slots in request order, filled at once for error lines, or
later by a solver job), and a **writer** task, which sends every reply that is
ready, in order, in one write. The reader stops reading while the connection
holds :data:`WINDOW_REPLIES` unanswered replies or :data:`WINDOW_BYTES` of
unsent output (backpressure: a client that never reads costs a bounded
amount of memory), and yields to the event loop after every chunk.

Solver jobs go to :class:`_SolverPool`, which asks the pure
:class:`~sudoku_server.net.scheduler.Scheduler` who runs next and runs batches of
one connection's jobs in worker threads. The solver's ``check`` hook is where a
job stops (the connection is gone, its own solving time passed the solve
timeout) or pauses (it used its time slice while other connections wait).

The timers of PROTOCOL.md ("Connection lifecycle") live here too: the idle
timeout before the first answer, the close grace after the last one (with one
last read before the session ends), the lingering close, and the shutdown
grace.
"""

from __future__ import annotations

import collections
import errno
import logging
import math
import os
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

import trio

from sudoku_server import __version__
from sudoku_server.errors import BusyError, ShutdownError
from sudoku_server.net import scheduler as _scheduler
from sudoku_server.net.config import ServerConfig
from sudoku_server.net.metrics import Counts, Metrics, quantile
from sudoku_server.sudoku import solver as _solver
from sudoku_server.text import Puzzle
from sudoku_server.wire import verbs as _commands
from sudoku_server.wire.proxy import ProxyHeaderError, parse_proxy_header
from sudoku_server.wire.session import (
    CloseConnection,
    CommandReceived,
    PuzzleReceived,
    Reply,
    Session,
    TelnetReply,
    answer_generate,
    answer_request,
    error_line,
)
from sudoku_server.wire.verbs import Command

log = logging.getLogger("sudoku_server")

#: Bytes asked of the kernel per receive: the bound on what one parse step
#: handles before the event loop serves others (4 KiB of one-line puzzles is
#: about 50 puzzles, 1 ms or so of parsing; of junk lines, about 10 ms).
RECEIVE_SIZE = 16384
#: Replies a connection may have unanswered (queued, being solved or unsent)
#: before its reader stops reading; the session parses no more requests than
#: there is room for. Each parsed puzzle holds about 1.8 KB: 100 clients that
#: send without reading hold about 100 x (32 x 1.8 KB + 32 KiB) = 9 MB.
WINDOW_REPLIES = 64
#: Bytes of answers a connection may have ready but unsent before its reader
#: stops reading.
WINDOW_BYTES = 32 * 1024
#: accept() errors that mean "out of descriptors or memory": wait and retry.
ACCEPT_CAPACITY_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS})
#: Seconds between accept() retries when out of descriptors (as trio's serve_listeners).
ACCEPT_RETRY_SLEEP = 0.1
#: Seconds between two log lines about the same accept() condition.
ACCEPT_ERROR_LOG_INTERVAL = 10.0
#: Seconds given to the last non-blocking read before a session ends (it
#: returns at once when bytes are waiting; this only bounds the attempt).
LAST_READ_SECONDS = 0.001
#: Plain one-line puzzles (formats: 81 digits and empty marks) that arrive
#: together go to the solver as one *bulk* job of at most this many: one
#: slot, one job, one answer run, instead of each puzzle's own. With the
#: native core most take a few microseconds, and the per-puzzle bookkeeping
#: of the server would cost more than the work (README, "Server under load").
BULK_PUZZLES = 32
#: Connections accepted above --max-connections for health checks: such a
#: connection may ask PING, VERSION, HELP, STATS and QUIT; anything else is
#: answered "ERROR busy ... connections open" and the connection closes.
PING_RESERVE = 8
#: Verbs a reserve connection may ask.
RESERVE_VERBS = frozenset({"PING", "VERSION", "HELP", "STATS", "QUIT"})
#: Seconds a connection has to send its PROXY header (--proxy-protocol).
PROXY_HEADER_SECONDS = 5.0
#: Seconds between two copies of the counters into the Prometheus metrics.
METRICS_SYNC_SECONDS = 0.5
#: Seconds, at the end of the shutdown grace, to send the ``ERROR shutdown``
#: lines and close; the process exits within shutdown grace + 1 s.
FINAL_FLUSH_SECONDS = 0.5


def error_code(data: bytes) -> str | None:
    """The code of an ``ERROR <code> ...`` reply, or None for any other reply."""
    if data.startswith(b"ERROR "):
        return data[6:].split(b" ", 1)[0].split(b"\r", 1)[0].split(b"\n", 1)[0].decode("ascii", "replace")
    return None


class _Gone(Exception):
    """The client reset, the send failed, or it left an answer unread too long."""


class _Slow(BaseException):
    """Raised by a bulk job's ``check``: this puzzle takes more than the native
    core's first half-millisecond; it leaves the bulk for a job of its own."""


class _Stopped(BaseException):
    """Raised by ``check`` in a worker: the job's connection is gone (or the server stops).

    A BaseException, like trio.Cancelled, so that no ``except Exception`` in
    the code it unwinds through takes it for a fault.
    """


class _TimedOut(BaseException):
    """Raised by ``check`` in a worker: the job used its solve timeout."""


@dataclass(eq=False, slots=True)
class _Slot:
    """One reply in request order (or a run of replies: a bulk job's): its bytes once known."""

    data: bytes | None = None
    job: _Job | None = None  # the solver job that fills it (dropped once filled)
    count: int = 1  # replies it holds


@dataclass(eq=False, slots=True)
class _Job:
    """One piece of solver work: ``work(check) -> reply bytes`` (runs in a worker thread)."""

    connection: _Connection
    slot: _Slot
    work: Callable[[Callable[[], None]], bytes] | None
    what: str  # for messages: "puzzle at line 3"
    ending: str = "\n"
    bulk: list[Puzzle] | None = None  # a run of plain one-line puzzles (_SolverPool._run_bulk)

    def each(self) -> list[str]:
        """What each of its replies is about: ``["puzzle at line 3"]``, one per puzzle of a bulk."""
        if self.bulk is None:
            return [self.what]
        return [f"puzzle at line {puzzle.first_line}" for puzzle in self.bulk[: self.slot.count]]


def _peer_name(stream) -> str:
    try:
        addr = stream.socket.getpeername()
        return f"{addr[0]}:{addr[1]}" if ":" not in addr[0] else f"[{addr[0]}]:{addr[1]}"
    except (OSError, AttributeError, IndexError):
        return "?"


class _Signal:
    """Wake one waiting task (a reset-on-wait event)."""

    def __init__(self) -> None:
        self._event = trio.Event()

    def set(self) -> None:
        self._event.set()

    async def wait(self) -> None:
        await self._event.wait()
        self._event = trio.Event()

    def clear(self) -> None:
        if self._event.is_set():
            self._event = trio.Event()


class _SolverPool:
    """Carries out the :class:`~sudoku_server.net.scheduler.Scheduler`'s decisions.

    Batches run in worker threads (``trio.to_thread``); the scheduler's state
    changes only on the event loop, and workers read two of its values (is
    anyone waiting, when did my slice start) without a lock. A worker that
    must pause calls back into the event loop (``trio.from_thread.run``) and
    waits there for its turn.
    """

    def __init__(self, server: SudokuServer) -> None:
        cfg = server.config
        self.server = server
        self.config = cfg
        self.scheduler = _scheduler.Scheduler(
            max(1, cfg.solver_threads),
            time_slice=cfg.time_slice,
            batch_size=cfg.batch_size,
            queue_timeout=cfg.queue_timeout,
            budget_seconds=cfg.budget_seconds,
            budget_window=cfg.budget_window,
        )
        # Threads: the computing ones (solver_threads) and the paused ones
        # (at most one per connection).
        self._threads = trio.CapacityLimiter(max(1, cfg.solver_threads) + cfg.max_connections)
        self._wake = _Signal()
        self._resume: dict[int, trio.Event] = {}
        self._nursery: trio.Nursery | None = None

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Dispatch until cancelled. Supports ``nursery.start``."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            task_status.started()
            await self._dispatch()

    def open(self, connection: _Connection) -> None:
        self.scheduler.open(connection, time.monotonic())

    def submit(self, job: _Job, puzzles: int = 1) -> None:
        self.scheduler.submit(job.connection, job, time.monotonic())
        self.server.stats.puzzles += puzzles
        self._wake.set()

    def close(self, connection: _Connection) -> list[_Job]:
        """Forget a connection; its running batch stops; returns its jobs that never ran."""
        dropped = self.scheduler.close(connection)
        self._wake.set()
        return dropped

    async def _dispatch(self) -> None:
        scheduler = self.scheduler
        while True:
            now = time.monotonic()
            decision = scheduler.next_decision(now)
            if decision is None:
                due = scheduler.refusal_due()
                with trio.move_on_after(max(0.0, due - now) if due is not None else math.inf):
                    await self._wake.wait()
                continue
            if isinstance(decision, _scheduler.Start):
                assert self._nursery is not None
                self._nursery.start_soon(self._run_batch, decision.batch)
            elif isinstance(decision, _scheduler.Resume):
                event = self._resume.pop(id(decision.batch), None)
                if event is not None:
                    event.set()
            else:
                for job in decision.jobs:
                    job.connection.fill(
                        job.slot,
                        b"".join(
                            error_line(BusyError(f"{decision.reason}; the {what} was not solved"), job.ending)
                            for what in job.each()
                        ),
                    )

    async def _run_batch(self, batch: _scheduler.Batch) -> None:
        results: list[tuple] = []
        unfinished: list[_Job] = []
        batch.key.check_peer()  # a half-closed client that has since gone: no work for it
        try:
            if not batch.cancelled:
                unfinished = await trio.to_thread.run_sync(self._work, batch, results, limiter=self._threads)
        finally:
            try:
                now = time.monotonic()
                spent = max(0.0, now - batch.slice_started)
                self.server.stats.solver_seconds += spent
                batch.key.solver_seconds += spent
                self.scheduler.finished(batch, now, None if batch.cancelled else unfinished)
                self._deliver(results)
                if self.server.stopping:
                    # stopped mid-batch: every job still gets its line (also
                    # those a bulk job split off, which were never queued)
                    for job in list(batch.jobs) + list(unfinished or ()):
                        job.connection.fill(job.slot, job.connection.shutdown_line(job))
            except Exception:  # the pool must outlive any one batch
                log.exception("%s: internal error after a batch", batch.key.peer)
            self._wake.set()

    def _deliver(self, results: list[tuple]) -> None:
        debug = log.isEnabledFor(logging.DEBUG)
        solve_times = self.server.stats.solve_times
        for job, data, seconds in results:
            job.connection.fill(job.slot, data)
            if job.bulk is not None:
                count = job.slot.count  # answers done (the slow ones left the bulk)
                if count:
                    solve_times.extend([seconds / count] * count)
                    if debug:
                        for puzzle, line in zip(job.bulk[:count], data.splitlines()):
                            log.debug(
                                "%s puzzle at line %d: %s, %.1f ms (in bulk)",
                                job.connection.peer,
                                puzzle.first_line,
                                error_code(line) or "answered",
                                seconds / count * 1000,
                            )
                continue
            solve_times.append(seconds)
            if debug:
                log.debug(
                    "%s %s: %s, %.1f ms", job.connection.peer, job.what, error_code(data) or "answered", seconds * 1000
                )
        results.clear()

    def _work(self, batch: _scheduler.Batch, results: list[tuple]) -> list[_Job]:
        """In a worker thread: run the batch's jobs in order; returns those not run.

        The batch is cut before a job when its slice is used and others wait,
        or when the connection's budget is used (its next turn refuses the rest).
        Answers done are handed over at least once per time slice, so that a
        slow puzzle never holds back the answers before it.
        """
        scheduler = self.scheduler
        timeout = self.config.solve_timeout
        time_slice = self.config.time_slice
        jobs = batch.jobs
        flushed = [time.monotonic()]  # when answers were last handed over

        def flush(now: float) -> None:
            if now - flushed[0] >= time_slice:
                trio.from_thread.run_sync(self._tick, batch, results)
                flushed[0] = now

        for index, job in enumerate(jobs):
            if batch.cancelled:
                return []
            if index:
                now = time.monotonic()
                if scheduler.should_yield(batch, now) or scheduler.over_budget(batch, now):
                    return jobs[index:]
                flush(now)
            started = time.monotonic()
            paused = [0.0]  # seconds this job spent paused

            def check(job=job, started=started, paused=paused) -> None:
                if batch.cancelled:
                    raise _Stopped()
                now = time.monotonic()
                if now - started - paused[0] > timeout:
                    raise _TimedOut()
                if scheduler.should_yield(batch, now):
                    self._pause_from_thread(batch, results)
                    paused[0] += time.monotonic() - now
                    flushed[0] = time.monotonic()
                else:
                    flush(now)
                if batch.cancelled:
                    raise _Stopped()

            if job.bulk is not None:
                data, leftover = self._run_bulk(job, batch)
                results.append((job, data, time.monotonic() - started))
                if leftover:
                    # A slow puzzle: it and those after it in the bulk become
                    # jobs of their own, in order, before the rest of the batch.
                    jobs_after = trio.from_thread.run_sync(job.connection.split_bulk, job, leftover)
                    return jobs_after + jobs[index + 1 :]
                continue
            try:
                data = job.work(check)
            except _TimedOut:
                data = f"ERROR timeout no answer within {timeout:g} s{job.ending}".encode()
            except _Stopped:
                return []
            except Exception as error:
                log.exception("%s: internal error on the %s", job.connection.peer, job.what)
                data = f"ERROR internal {type(error).__name__} while answering the {job.what}{job.ending}".encode()
            except BaseException:
                # trio.Cancelled out of a pause (the server is stopping): the
                # batch ends here; the jobs get their shutdown answers.
                if batch.cancelled or self.server.stopping:
                    return []
                raise
            results.append((job, data, time.monotonic() - started - paused[0]))
        return []

    def _run_bulk(self, job: _Job, batch: _scheduler.Batch):
        """In a worker thread: answer a bulk job's puzzles while each is quick.

        Returns ``(answers, leftover)``: the answers' bytes, and the puzzles
        from the first one that called ``check`` on (it searched for more than
        the native core's check interval): they get jobs of their own, with
        their own solve timeout, pauses and answers.
        """
        solve = self.server.solve

        def check() -> None:
            if batch.cancelled:
                raise _Stopped()
            raise _Slow()

        out = []
        puzzles = job.bulk
        for index, puzzle in enumerate(puzzles):
            try:
                out.append(answer_request(puzzle, None, solve=solve, check=check))
            except _Slow:
                return b"".join(out), puzzles[index:]
        return b"".join(out), []

    def _tick(self, batch: _scheduler.Batch, results: list[tuple]) -> None:
        """On the event loop, once per time slice of a running batch: hand over the
        answers done, and see whether a half-closed client has since gone."""
        if results:
            self._deliver(results)
        batch.key.check_peer()

    def _pause_from_thread(self, batch: _scheduler.Batch, results: list[tuple]) -> None:
        trio.from_thread.run(self._pause, batch, results)

    async def _pause(self, batch: _scheduler.Batch, results: list[tuple]) -> None:
        """On the event loop: hand over the answers done so far, give up the worker, wait."""
        now = time.monotonic()
        spent = max(0.0, now - batch.slice_started)
        self.server.stats.solver_seconds += spent
        batch.key.solver_seconds += spent
        self._deliver(results)
        if batch.cancelled:
            return
        event = self._resume[id(batch)] = trio.Event()
        self.scheduler.pause(batch, now)
        self._wake.set()
        await event.wait()

    def cancel_all(self) -> None:
        """Stop every batch (the server stops): workers end within a ``check`` call."""
        for connection in list(self.server.connections):
            for job in self.close(connection):
                connection.fill(job.slot, connection.shutdown_line(job))
        for event in self._resume.values():
            event.set()
        self._resume.clear()


class _Connection:
    """One client: reader and writer tasks around a :class:`Session`."""

    def __init__(
        self,
        server: SudokuServer,
        stream: trio.abc.Stream,
        peer: str,
        *,
        initial: bytes = b"",
        reserve: bool = False,
    ) -> None:
        self.server = server
        self.config = server.config
        self.pool = server.pool
        self.stream = stream
        self.peer = peer
        self.initial = initial  # bytes read with the PROXY header, for the session
        self.reserve = reserve  # over --max-connections: health checks only
        self.session = Session(max_line_bytes=self.config.max_line_bytes, opened_at=trio.current_time())
        self.slots: collections.deque[_Slot] = collections.deque()
        self.unanswered = 0  # replies not sent yet (a bulk slot holds several)
        self.unsent = 0  # bytes of ready replies not yet sent
        self.answered = 0  # replies sent
        self.jobs = 0  # solver jobs received
        self.solver_seconds = 0.0  # time its batches held a worker
        self.errors: dict[str, int] = collections.defaultdict(int)
        self.reading = True  # the reader has not finished
        self.stop_reading = False  # shutdown: read nothing more
        self.gone = False
        self.read_scope: trio.CancelScope | None = None
        self.send_lock = trio.Lock()
        self._writer_wake = _Signal()
        self._reader_wake = _Signal()
        self.nursery: trio.Nursery | None = None

    # -- the reply queue --------------------------------------------------------

    def add_reply(self, data: bytes) -> None:
        """A reply known now, in its turn."""
        self.slots.append(_Slot(data))
        self.unanswered += 1
        self.unsent += len(data)
        self._writer_wake.set()

    def add_job(self, work, what: str, ending: str) -> None:
        """A reply computed by the solver, in its turn."""
        slot = _Slot()
        job = slot.job = _Job(self, slot, work, what, ending)
        self.slots.append(slot)
        self.unanswered += 1
        self.jobs += 1
        self.pool.submit(job)

    def add_bulk(self, puzzles: list[Puzzle]) -> None:
        """Plain one-line puzzles that came together: one slot, one solver job."""
        if len(puzzles) == 1:
            self._add_puzzle(puzzles[0], None)
            return
        first, last = puzzles[0].first_line, puzzles[-1].first_line
        slot = _Slot(count=len(puzzles))
        job = slot.job = _Job(
            self, slot, None, f"puzzles at lines {first} to {last}", puzzles[0].default_ending, bulk=puzzles
        )
        self.slots.append(slot)
        self.unanswered += len(puzzles)
        self.jobs += len(puzzles)
        self.pool.submit(job, len(puzzles))

    def split_bulk(self, job: _Job, leftover: list[Puzzle]) -> list[_Job]:
        """On the event loop: a bulk job stopped at a slow puzzle.

        Its slot keeps the answers done (filled next); each puzzle left gets
        a slot of its own right after it, in order, and a job that the pool
        runs next for this connection (returned, for the batch to put first).
        """
        slot = job.slot
        slot.count -= len(leftover)
        at = self.slots.index(slot) + 1
        jobs = []
        for puzzle in leftover:
            own = _Slot()
            solve = self.server.solve

            def work(check, puzzle=puzzle) -> bytes:
                return answer_request(puzzle, None, solve=solve, check=check)

            own.job = _Job(self, own, work, f"puzzle at line {puzzle.first_line}", puzzle.default_ending)
            self.slots.insert(at, own)
            at += 1
            jobs.append(own.job)
        return jobs

    def fill(self, slot: _Slot, data: bytes) -> None:
        """A solver job's reply is ready (called by the pool)."""
        if slot.data is None and not self.gone:
            slot.data = data
            slot.job = None  # the puzzle it held is no longer needed
            self.unsent += len(data)
            self._writer_wake.set()

    def shutdown_line(self, job: _Job) -> bytes:
        """``ERROR shutdown`` for the job's request (one line per puzzle of a bulk job)."""
        return b"".join(
            error_line(ShutdownError(f"server shutting down before the {what} was answered"), job.ending)
            for what in job.each()
        )

    @property
    def window_full(self) -> bool:
        return self.unanswered >= WINDOW_REPLIES or self.unsent >= WINDOW_BYTES

    # -- tasks ---------------------------------------------------------------

    async def run(self) -> None:
        self.pool.open(self)
        try:
            async with trio.open_nursery() as nursery:
                self.nursery = nursery
                nursery.start_soon(self._read)
                await self._write()
        finally:
            for job in self.pool.close(self):
                pass  # nobody to answer: the connection is closed or gone

    def shutdown(self) -> None:
        """Stop reading: what was received is answered, then the connection closes."""
        self.stop_reading = True
        if self.read_scope is not None:
            self.read_scope.cancel()

    def _read_deadline(self) -> float:
        """When the reader gives up waiting (PROTOCOL.md "Connection lifecycle").

        While replies of this connection are still being computed or sent
        there is no deadline (the writer sets one when it catches up); after
        an answer, or with an unterminated line pending, the close grace;
        before the first answer, the idle timeout.
        """
        cfg = self.config
        if self.slots:
            return math.inf
        if self.session.interactive:
            return trio.current_time() + cfg.interactive_timeout
        quick = self.answered or self.session.pending
        return trio.current_time() + (cfg.close_grace if quick else cfg.idle_timeout)

    async def _read(self) -> None:
        try:
            await self._read_events()
        except (trio.BrokenResourceError, trio.ClosedResourceError, _Gone) as error:
            self._gone(error)
        finally:
            self.reading = False
            self._writer_wake.set()

    async def _receive(self) -> bytes | None:
        """Bytes from the client; None when the read deadline passed with nothing."""
        if self.initial:
            data, self.initial = self.initial, b""
            return data
        with trio.CancelScope(deadline=self._read_deadline()) as scope:
            self.read_scope = scope
            data = await self.stream.receive_some(RECEIVE_SIZE)
        self.read_scope = None
        if not scope.cancelled_caught:
            return data
        if self.stop_reading:
            return None
        # The timer ran out (or the process was stopped and resumed): one last
        # look, so that bytes that did arrive are answered, never dropped.
        return await self._try_receive()

    async def _try_receive(self) -> bytes | None:
        with trio.move_on_after(LAST_READ_SECONDS):
            return await self.stream.receive_some(RECEIVE_SIZE)
        return None

    async def _read_events(self) -> None:
        session = self.session
        while not session.closed:
            while self.window_full and not self.stop_reading:
                await self._reader_wake.wait()
            room = max(1, WINDOW_REPLIES - self.unanswered)
            if self.stop_reading:
                more = bool(await self._try_receive()) if not session.pending else False
                events = session.receive_shutdown(more_input=more)
            elif session.backlog:
                events = session.receive_more(trio.current_time(), room)
            else:
                data = await self._receive()
                if self.stop_reading:
                    more = bool(data) or (data is None and bool(await self._try_receive()))
                    events = session.receive_shutdown(more_input=more)
                elif data is None and self.server.shutting_down:
                    # Stopping: a timer ended the session; a partial line stays unparsed.
                    events = session.receive_shutdown()
                elif not data:
                    events = session.receive_eof()  # end of stream, idle timeout or close grace
                    if data is None and session.interactive:
                        timeout = self.config.interactive_timeout
                        events.append(Reply(f"BYE idle for {timeout:g} s\n".encode()))
                else:
                    events = session.receive_data(data, trio.current_time(), room)
            # Plain one-line puzzles go in bulk, with the native core and the
            # server's own solver (a test's fake solver gets them one by one).
            bulk: list[Puzzle] | None = [] if self.server.bulk else None
            for event in events:
                if isinstance(event, TelnetReply):
                    await self._send(event.data)
                    continue
                if isinstance(event, CloseConnection):
                    break
                if self.reserve and not (isinstance(event, CommandReceived) and event.command.name in RESERVE_VERBS):
                    # Over the connection limit: a health check may ask, nothing else.
                    self.add_reply(self.server.busy_line())
                    self.server.stats.connections_rejected += 1
                    session.closed = True
                    break
                if (
                    isinstance(event, PuzzleReceived)
                    and bulk is not None
                    and event.request is None
                    and event.puzzle.plain
                ):
                    bulk.append(event.puzzle)
                    if len(bulk) >= BULK_PUZZLES:
                        self.add_bulk(bulk)
                        bulk = []
                    continue
                if bulk:
                    self.add_bulk(bulk)
                    bulk = []
                if isinstance(event, Reply):
                    self.add_reply(event.data)
                elif isinstance(event, CommandReceived):
                    self._add_command(event.command)
                else:
                    assert isinstance(event, PuzzleReceived)
                    self._add_puzzle(event.puzzle, event.request)
            if bulk:
                self.add_bulk(bulk)
            await trio.lowlevel.checkpoint()  # one chunk at a time: others get the loop

    def _add_puzzle(self, puzzle: Puzzle, request: Command | None) -> None:
        solve = self.server.solve

        def work(check, puzzle=puzzle) -> bytes:
            return answer_request(puzzle, request, solve=solve, check=check)

        self.add_job(work, f"puzzle at line {puzzle.first_line}", puzzle.default_ending)

    def _add_command(self, command: Command) -> None:
        """Answer a command in its turn: at once, or as a solver job (GENERATE)."""
        try:
            self._answer_command(command)
        except Exception as error:
            log.exception("%s: internal error on %s at line %d", self.peer, command.name, command.line)
            detail = f"{type(error).__name__} while answering {command.name} at line {command.line}"
            self.add_reply(f"ERROR internal {detail}{command.ending}".encode())

    def _answer_command(self, command: Command) -> None:
        ending = command.ending
        name = command.name
        if name == "PING":
            if self.server.draining:
                self.add_reply(f"ERROR draining server shutting down, use another{ending}".encode())
            else:
                self.add_reply(f"PONG{ending}".encode())
        elif name == "QUIT":
            self.add_reply(f"BYE{ending}".encode())
        elif name == "VERSION":
            self.add_reply(f"VERSION {self.server.version_text()}{ending}".encode())
        elif name == "HELP":
            try:
                lines = _commands.help_lines(command.options.get("verb"))
            except _commands.CommandError as error:
                self.add_reply(error_line(error, ending))
            else:
                self.add_reply(_commands.block(lines, ending))
        elif name == "INTERACTIVE":
            timeout = self.config.interactive_timeout
            self.add_reply(
                f"INTERACTIVE on: no close grace; QUIT or end of input ends the session,"
                f" or {timeout:g} s of silence{ending}".encode()
            )
        elif name == "STATS":
            self.add_reply(_commands.block(_commands.stats_lines(self.server.stats_pairs()), ending))
        elif name == "GENERATE":
            request = _commands.generate_request(command)

            def work(check, request=request) -> bytes:
                return answer_generate(request, ending, check=check)

            self.add_job(work, f"GENERATE at line {command.line}", ending)
        else:  # a verb in the table with no answer here is a bug
            raise AssertionError(f"no answer for {name}")

    def check_peer(self) -> None:
        """After a half-close, is the client still there? (Before each batch of its puzzles.)

        A FIN alone is a half-close that still gets every answer; a client that
        closed completely answers our next send with a reset, which the socket
        reports as a pending error: then the connection is gone.
        """
        if self.reading or self.gone:
            return  # the reader sees resets itself
        try:
            error = self.stream.socket.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        except (OSError, AttributeError):
            return
        if error:
            self._gone(_Gone(f"reset the connection ({os.strerror(error)})"))

    def _gone(self, error: BaseException) -> None:
        """The client reset, closed, or stopped reading: drop the connection quietly."""
        if self.gone:
            return
        self.gone = True
        if isinstance(error, _Gone) and error.args:
            log.info("%s %s: closing", self.peer, error.args[0])
        else:
            log.info("%s went away (%s)", self.peer, type(error).__name__)
        self.pool.close(self)
        if self.nursery is not None:
            self.nursery.cancel_scope.cancel()

    async def _send(self, data: bytes) -> None:
        """Send bytes; a client that takes none of them for ``idle_timeout`` s is dropped."""
        async with self.send_lock:
            with trio.move_on_after(self.config.idle_timeout) as scope:
                await self.stream.send_all(data)
            if scope.cancelled_caught:
                raise _Gone(f"read nothing for {self.config.idle_timeout:g} s")

    async def _write(self) -> None:
        slots = self.slots
        try:
            while True:
                while not (slots and slots[0].data is not None):
                    if not slots and not self.reading:
                        break
                    await self._writer_wake.wait()
                if not slots:
                    break
                chunks = []
                replies = 0
                while slots and slots[0].data is not None:
                    slot = slots.popleft()
                    chunks.append(slot.data)
                    replies += slot.count
                data = b"".join(chunks)
                await self._send(data)
                self.unsent -= len(data)
                self.unanswered -= replies
                self.answered += replies
                self._count(data, replies)
                self._reader_wake.set()
                scope = self.read_scope
                if scope is not None and not slots:
                    # All caught up: the close grace (or a person's idle limit) starts now.
                    scope.deadline = self._read_deadline()
        except (trio.BrokenResourceError, trio.ClosedResourceError, _Gone) as error:
            self._gone(error)
            return
        await self._linger()

    def _count(self, data: bytes, count: int) -> None:
        """Count ``count`` replies sent in ``data``: answered, or ERROR by code."""
        stats = self.server.stats
        stats.answers += count
        replies = stats.replies
        errors = 0
        if data.startswith(b"ERROR ") or b"\nERROR " in data or b"\rERROR " in data:
            for line in data.splitlines():
                code = error_code(line)
                if code is not None:
                    self.errors[code] += 1
                    replies[code] += 1
                    errors += 1
        replies["answered"] += count - errors

    async def _linger(self) -> None:
        """Half-close, read and discard until the client closes (at most linger_time).

        Bytes that arrive now come after the session ended: they are logged,
        never dropped silently.
        """
        try:
            await self.stream.send_eof()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            return
        late = 0
        linger = self.config.linger_time
        if self.server.stopping:
            linger = min(linger, FINAL_FLUSH_SECONDS)
        with trio.move_on_after(linger):
            try:
                while True:
                    data = await self.stream.receive_some(65536)
                    if not data:
                        break
                    late += len(data)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass
        if late:
            log.info("%s sent %d byte(s) after its session ended: not read", self.peer, late)


class SudokuServer:
    """A sudoku-server bound to its config; run with :meth:`serve`.

    Args:
      config: the settings.
      solve: the solver, ``solve(grid, *, check) -> Grid`` (a parameter so
        tests can pass a fake that spins while calling ``check()``).
    """

    def __init__(self, config: ServerConfig, *, solve: Callable | None = None) -> None:
        self.config = config
        self.solve = solve if solve is not None else _solver.solve
        #: Plain one-line puzzles go to the solver in bulk (BULK_PUZZLES):
        #: with the native core, whose searches call check() only after
        #: 0.5 ms (a slow puzzle then leaves the bulk), and the real solver.
        self.bulk = solve is None and _solver.CORE == "native"
        self.stats = Counts()
        self.metrics = Metrics(self.stats, self._gauges)
        self.connections: set = set()
        self.pool = _SolverPool(self)
        self.stopping = False
        self.draining = False
        self._per_address: dict[str, int] = collections.defaultdict(int)
        self._accept_scope: trio.CancelScope | None = None
        self._handler_nursery: trio.Nursery | None = None
        self._shutting_down = False
        self._closing_now = trio.Event()  # stop waiting for the shutdown grace
        self.stopped = trio.Event()  # serve() has returned

    async def open_listeners(self) -> list[trio.SocketListener]:
        """Bind the configured host and port; log ``listening on HOST:PORT`` for each.

        Raises:
          OSError: the address is in use or cannot be bound.
        """
        cfg = self.config
        listeners = await trio.open_tcp_listeners(cfg.port, host=cfg.host)
        for listener in listeners:
            name = listener.socket.getsockname()
            host = f"[{name[0]}]" if ":" in name[0] else name[0]
            log.info("listening on %s:%d", host, name[1])
        return listeners

    async def serve(self, *, listeners=None, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Listen and serve until :meth:`shutdown` or cancellation.

        Args:
          listeners: already bound listeners (from :meth:`open_listeners`);
            None binds the configured address here.

        Supports ``nursery.start``: reports the list of listeners once they
        are bound (``listeners[0].socket.getsockname()`` gives the port).

        Cancellation: cancelling this task closes every connection at once;
        :meth:`shutdown` is the graceful way.
        """
        if listeners is None:
            listeners = await self.open_listeners()
        try:
            async with trio.open_nursery() as pool_nursery:
                await pool_nursery.start(self.pool.run)
                pool_nursery.start_soon(self._sync_metrics)
                async with trio.open_nursery() as handler_nursery:
                    self._handler_nursery = handler_nursery
                    with trio.CancelScope() as accept_scope:
                        self._accept_scope = accept_scope
                        if self._shutting_down:
                            accept_scope.cancel()
                        async with trio.open_nursery() as accept_nursery:
                            for listener in listeners:
                                accept_nursery.start_soon(self._accept_loop, listener, handler_nursery)
                            task_status.started(listeners)
                    for listener in listeners:
                        await listener.aclose()
                    log.info("stopped accepting; %d connection(s) finishing", len(self.connections))
                    handler_nursery.start_soon(self._stop_after_grace, handler_nursery)
                pool_nursery.cancel_scope.cancel()
        finally:
            for listener in listeners:
                await trio.aclose_forcefully(listener)
            self.stopped.set()
        log.info("server stopped")

    async def _sync_metrics(self) -> None:
        """Copy the counters into the Prometheus metrics twice a second."""
        while True:
            await trio.sleep(METRICS_SYNC_SECONDS)
            self.metrics.sync()

    async def _stop_after_grace(self, handler_nursery: trio.Nursery) -> None:
        """After the shutdown grace (or a second signal): answer what is left, close."""
        if self.connections:
            with trio.move_on_after(self.config.shutdown_grace):
                await self._closing_now.wait()  # a second signal, or the last connection done
        if not self.connections:
            return
        log.info("shutdown grace over: answering %d connection(s) 'ERROR shutdown' and closing", len(self.connections))
        self.stopping = True
        for connection in list(self.connections):
            connection.shutdown()  # stop reading: what was not read is named in one line
        self.pool.cancel_all()
        handler_nursery.cancel_scope.deadline = trio.current_time() + FINAL_FLUSH_SECONDS

    def stop(self) -> None:
        """A stop signal: drain for ``drain_grace`` seconds (if set), then :meth:`shutdown`.

        While draining, the server still accepts and serves, but answers
        ``PING`` with ``ERROR draining ...`` so that a load balancer stops
        sending it new connections.
        """
        grace = self.config.drain_grace
        if grace <= 0 or self._handler_nursery is None:
            self.shutdown()
            return
        log.info("draining for %g s: PING answers ERROR draining", grace)
        self.draining = True

        async def drain() -> None:
            with trio.move_on_after(grace):
                await self._closing_now.wait()  # a second signal ends the drain at once
            self.shutdown()

        self._handler_nursery.start_soon(drain)

    def close_connections(self) -> None:
        """End every open connection now (a second SIGTERM/SIGINT); serve() then returns."""
        self.shutdown()
        self._closing_now.set()

    async def _accept_loop(self, listener: trio.SocketListener, handler_nursery: trio.Nursery) -> None:
        """Accept connections forever; when out of descriptors or memory, wait and retry.

        Unlike ``trio.serve_listeners`` (which logs a traceback every 100 ms
        then), the condition is logged once per ``ACCEPT_ERROR_LOG_INTERVAL``.
        """
        last_logged = -math.inf
        suppressed = 0
        while True:
            try:
                stream = await listener.accept()
            except OSError as error:
                if error.errno not in ACCEPT_CAPACITY_ERRNOS:
                    raise
                now = trio.current_time()
                if now - last_logged >= ACCEPT_ERROR_LOG_INTERVAL:
                    log.warning(
                        "cannot accept: %s; retrying every %g s (%d more like this since the last report)",
                        os.strerror(error.errno),
                        ACCEPT_RETRY_SLEEP,
                        suppressed,
                    )
                    last_logged, suppressed = now, 0
                else:
                    suppressed += 1
                await trio.sleep(ACCEPT_RETRY_SLEEP)
            else:
                handler_nursery.start_soon(self._handle, stream)

    def shutdown(self) -> None:
        """Stop accepting; connections go on for ``shutdown_grace`` s, then stop (PROTOCOL.md).

        During the grace they are still read, so a client that sent its
        puzzles before the signal gets them answered; at its end, reading
        stops and what is left is answered ``ERROR shutdown``.
        """
        self._shutting_down = True
        if self._accept_scope is not None:
            self._accept_scope.cancel()

    @property
    def shutting_down(self) -> bool:
        """True once the server stopped accepting (after the drain grace)."""
        return self._shutting_down

    def version_text(self) -> str:
        """``sudoku-server <version> protocol=2 core=<core>`` (VERSION, the startup log)."""
        return f"sudoku-server {__version__} protocol=2 core={getattr(_solver, 'CORE', 'python')}"

    def _gauges(self) -> tuple:
        scheduler = self.pool.scheduler
        return len(self.connections), scheduler.queued_jobs, scheduler.running, scheduler.paused

    def stats_pairs(self) -> list[tuple]:
        """The STATS fields, ``(name, value)`` in order (docs/PROTOCOL.md "STATS").

        Counters are summed over every worker process, gauges over the live
        ones, and the percentiles come from the merged solve-time histogram.
        """
        totals = self.metrics.totals()
        replies = totals["replies"]
        buckets = totals["buckets"]
        total = totals.get("sudoku_solve_seconds_sum")
        p50, p99 = quantile(buckets, 0.5, total), quantile(buckets, 0.99, total)
        pairs = [
            ("pid", os.getpid()),
            ("uptime", int(time.time() - self.stats.started)),
            ("version", __version__),
            ("protocol", 2),
            ("core", getattr(_solver, "CORE", "python")),
            ("workers", self.config.workers),
            ("solver_threads", self.config.solver_threads),
            ("connections_current", int(totals.get("sudoku_connections_open", 0))),
            ("connections_total", int(totals.get("sudoku_connections_total", 0))),
            ("connections_rejected", int(totals.get("sudoku_connections_rejected_total", 0))),
            ("puzzles", int(totals.get("sudoku_solver_requests_total", 0))),
            ("answers", int(sum(replies.values()))),
        ]
        pairs += [
            (f"errors_{code.replace('-', '_')}", int(n)) for code, n in sorted(replies.items()) if code != "answered"
        ]
        pairs += [
            ("solver_seconds", float(totals.get("sudoku_solver_busy_seconds_total", 0.0))),
            ("queued", int(totals.get("sudoku_queued", 0))),
            ("running", int(totals.get("sudoku_running", 0))),
            ("paused", int(totals.get("sudoku_paused", 0))),
            ("solve_ms_p50", round(p50 * 1000, 3) if p50 is not None else 0.0),
            ("solve_ms_p99", round(p99 * 1000, 3) if p99 is not None else 0.0),
        ]
        return pairs

    def stats_line(self) -> str:
        """One line of the current counters (the SIGUSR1 log line)."""
        s = self.stats
        errors = " ".join(f"{code}={n}" for code, n in sorted(s.errors.items())) or "none"  # this process
        scheduler = self.pool.scheduler
        return (
            f"stats: connections={len(self.connections)} total={s.connections_total}"
            f" rejected={s.connections_rejected} queued={scheduler.queued_jobs}"
            f" running={scheduler.running} paused={scheduler.paused} puzzles={s.puzzles}"
            f" answers={s.answers} errors: {errors}; solver {s.solver_seconds:.1f} s,"
            f" up {time.time() - s.started:.0f} s"
        )

    async def _handle(self, stream: trio.SocketStream) -> None:
        peer = _peer_name(stream)
        cfg = self.config
        address = peer.rsplit(":", 1)[0].strip("[]")
        try:
            initial = b""
            if cfg.proxy_protocol:
                try:
                    source, initial = await self._read_proxy_header(stream)
                except (ProxyHeaderError, trio.TooSlowError) as error:
                    self.stats.connections_rejected += 1
                    why = (
                        str(error)
                        if isinstance(error, ProxyHeaderError)
                        else (f"no PROXY header within {PROXY_HEADER_SECONDS:g} s")
                    )
                    log.warning("%s closed: %s", peer, why)
                    return
                if source is not None:
                    address = source[0]
                    peer = f"{address}:{source[1]}" if ":" not in address else f"[{address}]:{source[1]}"
            # A connection accepted just before the listener closed is served
            # like the others during the shutdown grace.
            cap = cfg.max_connections_per_ip
            if cap and self._per_address[address] >= cap:
                log.warning("%s refused: %d connections open from %s (limit)", peer, cap, address)
                await self._refuse(stream, peer, f"ERROR busy {cap} connections open from {address}, try again later\n")
                return
            reserve = len(self.connections) >= cfg.max_connections
            if reserve and len(self.connections) >= cfg.max_connections + PING_RESERVE:
                log.warning("%s refused: %d connections open (limit)", peer, len(self.connections))
                await self._refuse(stream, peer, self.busy_line().decode())
                return
            connection = _Connection(self, stream, peer, initial=initial, reserve=reserve)
            self.connections.add(connection)
            self._per_address[address] += 1
            self.stats.connections_total += 1
            started = time.perf_counter()
            log.debug("%s connected", peer)
            try:
                await connection.run()
            finally:
                self.connections.discard(connection)
                self._per_address[address] -= 1
                if not self._per_address[address]:
                    del self._per_address[address]
                if self._shutting_down and not self.connections:
                    self._closing_now.set()
                errors = " ".join(f"{code}={n}" for code, n in sorted(connection.errors.items()))
                # Health checks (no solver work, no error) only at DEBUG: a
                # load balancer's PING every 500 ms would fill the log.
                level = logging.DEBUG if not connection.jobs and not connection.errors else logging.INFO
                log.log(
                    level,
                    "%s closed: %d puzzle(s), %d repl%s, errors: %s, solver %.0f ms, %.0f ms",
                    peer,
                    connection.jobs,
                    connection.answered,
                    "y" if connection.answered == 1 else "ies",
                    errors or "none",
                    connection.solver_seconds * 1000,
                    (time.perf_counter() - started) * 1000,
                )
        except Exception:
            log.exception("%s: unexpected error in the connection handler", peer)
        finally:
            await trio.aclose_forcefully(stream)

    def busy_line(self) -> bytes:
        """The reply that refuses a connection at the connection limit (it then closes)."""
        return f"ERROR busy {self.config.max_connections} connections open, try again later\n".encode()

    async def _read_proxy_header(self, stream: trio.SocketStream):
        """(source address or None, bytes after the header), read within PROXY_HEADER_SECONDS.

        Raises:
          ProxyHeaderError: not a valid header; trio.TooSlowError: none in time.
        """
        data = b""
        with trio.fail_after(PROXY_HEADER_SECONDS):
            while True:
                header = parse_proxy_header(data)
                if header is not None:
                    return header.source, data[header.length :]
                chunk = await stream.receive_some(RECEIVE_SIZE)
                if not chunk:
                    raise ProxyHeaderError("the connection ended before its PROXY header")
                data += chunk

    async def _refuse(self, stream: trio.SocketStream, peer: str, line: str) -> None:
        self.stats.connections_rejected += 1
        try:
            with trio.move_on_after(1):
                await stream.send_all(line.encode())
                await stream.send_eof()
            with trio.move_on_after(1):
                while await stream.receive_some(65536):
                    pass
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass


async def serve(config: ServerConfig, *, solve: Callable | None = None, task_status=trio.TASK_STATUS_IGNORED) -> None:
    """Run a :class:`SudokuServer` with ``config`` until cancelled.

    Supports ``nursery.start`` (reports the listeners). Cancellation closes
    every connection at once.
    """
    await SudokuServer(config, solve=solve).serve(task_status=task_status)
