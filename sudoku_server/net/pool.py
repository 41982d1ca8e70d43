"""The solver pool: runs solver jobs in worker threads under the scheduler.

Solver jobs go to :class:`SolverPool`, which asks the pure
:class:`~sudoku_server.net.scheduler.Scheduler` who runs next and runs batches of
one connection's jobs in worker threads. The solver's ``check`` hook is where a
job stops (the connection is gone, its own solving time passed the solve
timeout) or pauses (it used its time slice while other connections wait).
Plain one-line puzzles that arrive together run as one *bulk* job
(:data:`BULK_PUZZLES`) until one of them is slow.
"""

from __future__ import annotations

import logging
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import trio

from sudoku_server.net import scheduler as _scheduler
from sudoku_server.service.answer import answer, answer_lines, answer_many
from sudoku_server.service.requests import Request, Solve
from sudoku_server.text import Puzzle
from sudoku_server.wire import replies

if TYPE_CHECKING:
    from sudoku_server.net.connection import Connection
    from sudoku_server.net.server import SudokuServer

log = logging.getLogger("sudoku_server")

#: Plain one-line puzzles (formats: 81 digits and empty marks) that arrive
#: together go to the solver as one *bulk* job of at most this many: one
#: slot, one job, one answer run, instead of each puzzle's own. With the
#: native core most take a few microseconds, and the per-puzzle bookkeeping
#: of the server would cost more than the work (benchmarks/RESULTS.md, "Server under load").
BULK_PUZZLES = 32
#: Seconds a thread may hold the interpreter lock while another wants it
#: (``sys.setswitchinterval``; Python's default is 0.005). The technique
#: engine is pure Python: with 2 workers in it, the event loop waits for the
#: lock at every hand-off, and a newcomer's answer takes several. 1 ms took
#: an easy SOLVE's p99 from 35-40 ms to 26-28 ms against 8 RATE/STEPS/HINT
#: connections (benchmarks/RESULTS.md, "What attackers and newcomers found").
SWITCH_INTERVAL = 0.001


def error_code(data: bytes) -> str | None:
    """The code of an ``ERROR <code> ...`` reply, or None for any other reply."""
    if data.startswith(b"ERROR "):
        return data[6:].split(b" ", 1)[0].split(b"\r", 1)[0].split(b"\n", 1)[0].decode("ascii", "replace")
    return None


def pause_weight(job: Job) -> int:
    """The job's weight among paused jobs (``Scheduler.should_pause``): 1 on a 9x9 grid, more on larger ones."""
    if job.puzzle is not None:
        cells = len(job.puzzle.grid.cells)
    elif job.bulk is not None:
        cells = 81
    else:
        size = getattr(job.request, "size", 9)
        cells = size * size if isinstance(size, int) else 81
    return 1 if cells <= 81 else _scheduler.LARGE_PAUSE_WEIGHT


def _owner(batch: _scheduler.Batch) -> Connection:
    """The connection a batch belongs to (the scheduler's key)."""
    return cast("Connection", batch.key)


def own_seconds(wall: float, cpu: float, threads: int) -> float:
    """A job's own solving time, in seconds, which the solve timeout bounds.

    ``wall`` is the job's running time less its pauses, ``cpu`` its thread's
    CPU time (``time.thread_time``) over the same span, ``threads`` the
    solver threads. The solver threads share the interpreter lock, so a
    thread running Python beside another one gets about half the wall time:
    what it waited for the lock is not its own time. Its own time is its CPU
    time, but at least its share of the wall time (``wall / threads``: a
    puzzle on a machine starved by other processes still times out within
    ``threads`` times the timeout) and at most the wall time. With one
    solver thread it is the wall time.
    """
    return min(wall, max(cpu, wall / threads))


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
class Slot:
    """One reply in request order (or a run of replies: a bulk job's): its bytes once known."""

    data: bytes | None = None
    job: Job | None = None  # the solver job that fills it (dropped once filled)
    count: int = 1  # replies it holds
    weight: int = 0  # weight of the parsed puzzles it holds until filled (the reply window)


@dataclass(eq=False, slots=True)
class Job:
    """One piece of solver work: a request answered by ``service.answer`` in a worker thread.

    Its reply is the result rendered by ``wire.replies`` (in ``puzzle``'s
    layout when it has one).
    """

    connection: Connection
    slot: Slot
    request: Request | None
    puzzle: Puzzle | None
    what: str  # for messages: "puzzle at line 3"
    ending: str = "\n"
    bulk: list[tuple[Solve, Puzzle]] | None = None  # a run of plain one-line puzzles (SolverPool._run_bulk)

    def each(self) -> list[str]:
        """What each of its replies is about: ``["puzzle at line 3"]``, one per puzzle of a bulk."""
        if self.bulk is None:
            return [self.what]
        return [f"puzzle at line {puzzle.first_line}" for _, puzzle in self.bulk[: self.slot.count]]

    def work(self, check: Callable[[], None]) -> bytes:
        """In a worker thread: answer the request and render its reply. Raises what ``check`` raises."""
        assert self.request is not None
        server = self.connection.server
        result = answer(self.request, check=check, solvers=server.solvers, server=server, about=f"the {self.what}")
        return replies.render(result, self.ending, self.puzzle)

    # The replies the pool gives on its own (another front, HTTP, renders them its own way).

    def timeout_reply(self, seconds: float) -> bytes:
        """The reply of a request that used its solve timeout (``seconds``)."""
        return replies.timeout_line(seconds, self.ending)

    def internal_reply(self, error: BaseException) -> bytes:
        """The reply of a request whose work failed outside the service (a fault: logged by the caller)."""
        return replies.internal_line(error, f"the {self.what}", self.ending)

    def refused_reply(self, reason: str, budget: bool = False) -> bytes:
        """The reply of a request the scheduler refused (``budget``: its client's budget is used)."""
        return b"".join(replies.not_solved_line(reason, what, self.ending) for what in self.each())


class Signal:
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


class SolverPool:
    """Carries out the :class:`~sudoku_server.net.scheduler.Scheduler`'s decisions.

    One unit because dispatching, running, pausing and delivering a batch all
    work on the same scheduler state and resume events.

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
        self._wake = Signal()
        self._resume: dict[int, trio.Event] = {}
        self._nursery: trio.Nursery | None = None
        self.other_clients: set = set()  # clients that are not line connections (net.http's, one per address)

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Dispatch until cancelled. Supports ``nursery.start``.

        Lowers the interpreter's switch interval to :data:`SWITCH_INTERVAL`
        (for the whole process, never raising it).
        """
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            task_status.started()
            await self._dispatch()

    def open(self, connection: Connection) -> None:
        self.scheduler.open(connection, time.monotonic())

    def submit(self, job: Job, puzzles: int = 1) -> None:
        self.scheduler.submit(job.connection, job, time.monotonic())
        self.server.stats.puzzles += puzzles
        self._wake.set()

    def hold(self, connection: Connection) -> None:
        """The connection's reply window is full: compute nothing more for it (``Scheduler.hold``)."""
        self.scheduler.hold(connection)

    def release(self, connection: Connection) -> None:
        """The connection's reply window has room again (``Scheduler.release``)."""
        if self.scheduler.held(connection):
            self.scheduler.release(connection, time.monotonic())
            self._wake.set()

    def close(self, connection: Connection) -> list[Job]:
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
                    job.connection.fill(job.slot, job.refused_reply(decision.reason, decision.budget))

    async def _run_batch(self, batch: _scheduler.Batch) -> None:
        results: list[tuple] = []
        unfinished: list[Job] = []
        _owner(batch).check_peer()  # a half-closed client that has since gone: no work for it
        try:
            if not batch.cancelled:
                unfinished = await trio.to_thread.run_sync(self._work, batch, results, limiter=self._threads)
        finally:
            try:
                now = time.monotonic()
                spent = max(0.0, now - batch.slice_started)
                self.server.stats.solver_seconds += spent
                _owner(batch).solver_seconds += spent
                self.scheduler.finished(batch, now, None if batch.cancelled else unfinished)
                self._deliver(results)
                if self.server.stopping:
                    # stopped mid-batch: every job still gets its line (also
                    # those a bulk job split off, which were never queued)
                    for job in list(batch.jobs) + list(unfinished or ()):
                        job.connection.fill(job.slot, job.connection.shutdown_line(job))
            except Exception:  # the pool must outlive any one batch
                log.exception("%s: internal error after a batch", _owner(batch).peer)
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
                        for (_, puzzle), line in zip(job.bulk[:count], data.splitlines()):
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

    def _work(self, batch: _scheduler.Batch, results: list[tuple]) -> list[Job]:
        """In a worker thread: run the batch's jobs in order; returns those not run.

        The batch is cut before a job when its slice is used and others wait,
        when the connection's budget is used (its next turn refuses the rest),
        or when its reply window is full, the answers done here included
        (it is held until the client reads).
        Answers done are handed over at least once per time slice, so that a
        slow puzzle never holds back the answers before it.
        """
        scheduler = self.scheduler
        timeout = self.config.solve_timeout
        threads = max(1, self.config.solver_threads)
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
                if _owner(batch).output_full(sum(len(result[1]) for result in results)):
                    return jobs[index:]
                flush(now)
            started = time.monotonic()
            cpu_started = time.thread_time()
            paused = [0.0]  # seconds this job spent paused

            weight = pause_weight(job)

            def check(job=job, started=started, cpu_started=cpu_started, paused=paused, weight=weight) -> None:
                if batch.cancelled:
                    raise _Stopped()
                now = time.monotonic()
                if own_seconds(now - started - paused[0], time.thread_time() - cpu_started, threads) > timeout:
                    raise _TimedOut()
                if scheduler.should_pause(batch, now, weight):
                    batch.pause_weight = weight
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
                data = job.timeout_reply(timeout)
            except _Stopped:
                return []
            except Exception as error:
                log.exception("%s: internal error on the %s", job.connection.peer, job.what)
                data = job.internal_reply(error)
            except BaseException:
                # trio.Cancelled out of a pause (the server is stopping): the
                # batch ends here; the jobs get their shutdown answers.
                if batch.cancelled or self.server.stopping:
                    return []
                raise
            results.append((job, data, time.monotonic() - started - paused[0]))
        return []

    def _run_bulk(self, job: Job, batch: _scheduler.Batch):
        """In a worker thread: answer a bulk job's puzzles while each is quick.

        Returns ``(answers, leftover)``: the answers' bytes, and the puzzles
        from the first one that called ``check`` on (it searched for more than
        the native core's check interval): they get jobs of their own, with
        their own solve timeout, pauses and answers.
        """

        def check() -> None:
            if batch.cancelled:
                raise _Stopped()
            raise _Slow()

        pairs = job.bulk
        assert pairs is not None
        solvers = self.server.solvers
        # Text to text in the native core (service.answer_lines); a line it
        # does not take (an error to word) goes through the Python text layer.
        texts: list[bytes | None] = []
        try:
            answer_lines(
                [(puzzle.lines[0] + puzzle.endings[0]).encode("ascii") for _, puzzle in pairs],
                texts,
                check=check,
                solvers=solvers,
            )
        except _Slow:
            pass  # this puzzle and those after it leave the bulk
        done = len(texts)
        chunks: list[bytes] = []
        for index, text in enumerate(texts):
            if text is not None:
                chunks.append(text)
                continue
            request, puzzle = pairs[index]
            try:
                results = list(
                    answer_many([(request, f"the puzzle at line {puzzle.first_line}")], check=check, solvers=solvers)
                )
            except _Slow:
                done = index  # this puzzle and those after it leave the bulk
                break
            chunks.append(replies.render_many(results, [puzzle]))
        return b"".join(chunks), pairs[done:]

    def _tick(self, batch: _scheduler.Batch, results: list[tuple]) -> None:
        """On the event loop, once per time slice of a running batch: hand over the
        answers done, and see whether a half-closed client has since gone."""
        if results:
            self._deliver(results)
        _owner(batch).check_peer()

    def _pause_from_thread(self, batch: _scheduler.Batch, results: list[tuple]) -> None:
        trio.from_thread.run(self._pause, batch, results)

    async def _pause(self, batch: _scheduler.Batch, results: list[tuple]) -> None:
        """On the event loop: hand over the answers done so far, give up the worker, wait."""
        now = time.monotonic()
        spent = max(0.0, now - batch.slice_started)
        self.server.stats.solver_seconds += spent
        _owner(batch).solver_seconds += spent
        self._deliver(results)
        if batch.cancelled:
            return
        event = self._resume[id(batch)] = trio.Event()
        self.scheduler.pause(batch, now)
        self._wake.set()
        await event.wait()

    def cancel_all(self) -> None:
        """Stop every batch (the server stops): workers end within a ``check`` call."""
        for connection in [*self.server.connections, *self.other_clients]:
            for job in self.close(connection):
                connection.fill(job.slot, connection.shutdown_line(job))
        for event in self._resume.values():
            event.set()
        self._resume.clear()
