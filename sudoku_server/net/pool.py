"""The solver pool: runs solver jobs in worker threads under the scheduler.

Solver jobs go to :class:`SolverPool`, which asks the pure
:class:`~sudoku_server.net.scheduler.Scheduler` who runs next and runs batches of
one connection's jobs in worker threads. The solver's ``check`` hook is where a
job stops (the connection is gone, its own solving time passed the solve
timeout) or pauses (it used its time slice while other connections wait).
Plain one-line puzzles that arrive together run as one *bulk* job
(:data:`BULK_PUZZLES`) until one of them is slow.

A client of the pool is anything that implements :class:`PoolClient` (the
line connection, the HTTP front's client): the pool knows nothing else of
it. Solver time and the STATS counts of solving are kept here, in one place
(:meth:`SolverPool.account`, :meth:`SolverPool.solved`), for the pool's
batches and for solving done on the event loop (the inline paths).

Two bounds end a job with ``ERROR timeout`` (PROTOCOL.md "Fairness and
bounds"): its own solving time passed the solve timeout (:func:`own_seconds`:
``no answer within 10 s``), or its wall time since a worker took it, pauses
for other clients included, passed twice the solve timeout
(:func:`wall_limit`: ``no answer within 20 s (the server is busy)``).
"""

from __future__ import annotations

import logging
import math
import sys
import time
from collections.abc import Callable
from typing import cast

import outcome
import trio

from sudoku_server.net import scheduler as _scheduler
from sudoku_server.net.config import ServerConfig
from sudoku_server.net.jobs import (
    BulkItem,
    Job,
    JobContext,
    PoolClient,
    answer_events,
    busy_timeout_error,
    first_line,
    line_of,
    to_loop,
    to_loop_async,
    worker_of,
)
from sudoku_server.net.lifecycle import ServerLifecycle
from sudoku_server.net.metrics import Counts
from sudoku_server.net.window import Signal, Slot
from sudoku_server.service.answer import answer_many
from sudoku_server.service.requests import Solve
from sudoku_server.sudoku.solver import is_own_solve
from sudoku_server.text.marksline import solve_marks
from sudoku_server.text.oneline import solve_plain
from sudoku_server.wire import replies
from sudoku_server.wire.session import TakenLine

__all__ = [
    "BULK_PUZZLES",
    "SWITCH_INTERVAL",
    "BulkItem",
    "Job",
    "JobContext",
    "PoolClient",
    "Signal",
    "Slot",
    "SolverPool",
    "busy_timeout_error",
    "error_code",
    "first_line",
    "own_seconds",
    "wall_limit",
]

log = logging.getLogger("sudoku_server")

#: Plain one-line puzzles (formats: 81 digits and empty marks) that arrive
#: together go to the solver as one *bulk* job of at most this many: one
#: slot, one job, one answer run, instead of each puzzle's own. With the
#: native core most take a few microseconds, and the per-puzzle bookkeeping
#: of the server would cost more than the work (benchmarks/RESULTS.md, "Server under load").
BULK_PUZZLES = 32
#: A puzzle of a bulk job searches for this many of the native core's check intervals (0.5 ms each) before
#: it leaves the bulk for a job of its own (:class:`_BulkRun`): 4, 2 ms. A puzzle searched alone (a marks
#: line) goes on searching as that job; a plain line, searched in a run, is searched again from the start (at 1,
#: 0.5 ms, when every slow puzzle was: the pipelined renban requests of the stored set, search mean 0.13 ms,
#: worst 1.8 ms, sent 36 of 400 to jobs, each searched twice; benchmarks/RESULTS.md, eighth session).
BULK_LINE_CHECKS = 4
#: Past this many seconds of a bulk job, its puzzle at its next check leaves it (with those after it; one searched
#: alone, when a split helps: :meth:`_BulkRun._split_due`): a
#: bulk of slow puzzles holds its worker about as long as 32 puzzles of 0.5 ms did, under a 20 ms slice, and
#: the answers before it are not held back.
BULK_SLOW_SECONDS = 0.010
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


def runs_unlocked(job: Job) -> bool:
    """True for a job whose search runs in the native core without the interpreter lock: a bulk job, a marks
    line, a ``SOLVE`` (docs/SOLVER.md). Only such jobs run in an extra batch beside their connection's other
    one (``net.scheduler``): ``RATE``, ``STEPS`` and ``HINT`` run Python, ``CANON`` C that keeps the lock; a
    second thread of them gains nothing and keeps the event loop waiting longer for the lock."""
    return job.bulk is not None or job.taken is not None or isinstance(job.request, Solve)


def puzzles_of(job: Job) -> int:
    """The puzzles of a job: a bulk job's count, else 1 (the scheduler's shares count them)."""
    return len(job.bulk) if job.bulk is not None else 1


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


def wall_limit(solve_timeout: float) -> float:
    """Seconds of wall time a job may take from when a worker takes it, pauses included: twice the solve timeout.

    The solve timeout counts a job's own time (:func:`own_seconds`), which
    on a busy server (paused for other clients, starved of CPU) is well
    below the wall time its client waits; this bound keeps that wait
    bounded. Past it the job ends ``ERROR timeout no answer within 20 s
    (the server is busy)`` (:func:`busy_timeout_error`).
    """
    return 2 * solve_timeout


class _Slow(BaseException):
    """Raised by a bulk job's ``check``: this puzzle searched past :data:`BULK_LINE_CHECKS` of the native
    core's check intervals (or the bulk past :data:`BULK_SLOW_SECONDS`); it leaves the bulk for a job of its
    own."""


class _Stopped(BaseException):
    """Raised by ``check`` in a worker: the job's connection is gone (or the server stops).

    A BaseException, like trio.Cancelled, so that no ``except Exception`` in
    the code it unwinds through takes it for a fault.
    """


class _TimedOut(BaseException):
    """Raised by ``check`` in a worker: the job used its solve timeout (``busy``: its wall-time bound)."""

    def __init__(self, busy: bool = False) -> None:
        super().__init__()
        self.busy = busy


class SolverPool:
    """Carries out the :class:`~sudoku_server.net.scheduler.Scheduler`'s decisions.

    One unit because dispatching, running, pausing and delivering a batch all
    work on the same scheduler state and resume events.

    Batches run in worker threads; the scheduler's state changes only on the
    event loop, and workers read two of its values (is anyone waiting, when
    did my slice start) without a lock. A worker that must pause calls back
    into the event loop (``trio.from_thread.run``) and waits there for its
    turn.

    The scheduler is asked what to do next where its state changes (:meth:`_wake`), with no dispatching task;
    a batch starts on trio's thread cache (``trio.lowlevel.start_thread_soon``), not in a task through
    ``trio.to_thread``, and its end comes back as one callback (:meth:`_ended`): about half the event loop's
    CPU per batch (benchmarks/RESULTS.md, eleventh session).

    Args:
      config: the settings (threads, time slice, solve timeout, budget...).
      stats: the process's counters (solver time, puzzles, solve times).
      context: what jobs answer with (called once per batch: tests swap the solver).
      lifecycle: the server's lifecycle (once it is stopping, a batch's jobs get ``ERROR shutdown``).
    """

    def __init__(
        self, config: ServerConfig, stats: Counts, context: Callable[[], JobContext], lifecycle: ServerLifecycle
    ) -> None:
        cfg = config
        self.config = cfg
        self.stats = stats
        self.context = context
        self.lifecycle = lifecycle
        self.scheduler = _scheduler.Scheduler(
            max(1, cfg.solver_threads),
            time_slice=cfg.time_slice,
            batch_size=cfg.batch_size,
            queue_timeout=cfg.queue_timeout,
            budget_seconds=cfg.budget_seconds,
            budget_window=cfg.budget_window,
            parallel=runs_unlocked,
            weight=puzzles_of,
        )
        # Threads: the computing ones (solver_threads) and the paused ones, which the scheduler bounds
        # (its max_paused): trio's thread cache keeps them.
        self._token: trio.lowlevel.TrioToken | None = None
        self._pumping = self._again = False  # in _pump, and asked again meanwhile
        self._timer = Signal()  # wakes run's timer: the wait bound's next refusal changed
        self._armed: float | None = None  # the refusal time the timer sleeps until
        self._live = 0  # batches started whose thread has not reported back
        self._drained: trio.Event | None = None  # set when the last of them reports back (run's end waits)
        self._crash: BaseException | None = None  # a batch's thread raised: run raises it
        self._resume: dict[int, trio.Event] = {}
        self.clients: set[PoolClient] = set()  # every client open in the pool (line connections, HTTP clients)

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Serve until cancelled: the wait bound's refusals on time (the rest happens in :meth:`_wake`). Supports
        ``nursery.start``. Cancelled, it returns once every batch's thread has reported back (batches still
        running then are stopped, :meth:`cancel_all`).

        Lowers the interpreter's switch interval to :data:`SWITCH_INTERVAL`
        (for the whole process, never raising it).
        """
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL))
        self._token = trio.lowlevel.current_trio_token()
        task_status.started()
        self._wake()  # (what was submitted before)
        try:
            while self._crash is None:
                due = self._armed
                with trio.move_on_after(max(0.0, due - time.monotonic()) if due is not None else math.inf):
                    await self._timer.wait()
                self._wake()
            raise self._crash
        finally:
            with trio.CancelScope(shield=True):
                if self._live:
                    self.cancel_all()
                while self._live:
                    self._drained = trio.Event()
                    await self._drained.wait()
                self._token = None  # no batch starts any more

    def open(self, client: PoolClient) -> None:
        """A new client: a full budget, nothing queued."""
        self.clients.add(client)
        self.scheduler.open(client, time.monotonic())

    def submit(self, job: Job, puzzles: int = 1) -> None:
        """Queue ``job`` after its client's earlier ones; ``puzzles``: the solver requests it counts for in STATS."""
        self.scheduler.submit(job.connection, job, time.monotonic())
        self.stats.puzzles += puzzles
        self._wake()

    def hold(self, client: PoolClient) -> None:
        """The client's reply window is full: compute nothing more for it (``Scheduler.hold``)."""
        self.scheduler.hold(client)

    def release(self, client: PoolClient) -> None:
        """The client's reply window has room again (``Scheduler.release``)."""
        if self.scheduler.held(client):
            self.scheduler.release(client, time.monotonic())
            self._wake()

    def close(self, client: PoolClient) -> list[Job]:
        """Forget a client; its running batch stops; returns its jobs that never ran."""
        self.clients.discard(client)
        dropped = self.scheduler.close(client)
        self._wake()
        return dropped

    # -- the one place solving is counted ----------------------------------------------------

    def account(self, client: PoolClient, seconds: float) -> None:
        """``client`` held a worker (or the event loop, inline) for ``seconds``: STATS' solver seconds and its own."""
        self.stats.solver_seconds += seconds
        client.solver_seconds += seconds

    def solved(self, count: int, seconds: float) -> None:
        """``count`` answers took ``seconds`` together: the solve times of STATS' percentiles (one each)."""
        if count == 1:
            self.stats.solve_times.append(seconds)
        elif count:
            self.stats.solve_times.extend([seconds / count] * count)

    def charge_inline(self, client: PoolClient, seconds: float, now: float, answered: int) -> None:
        """``client``'s requests were answered on the event loop (the inline paths): ``answered`` answers in
        ``seconds``, charged to its budget and virtual time (``Scheduler.charge``) and counted as the pool's."""
        if seconds > 0:
            self.scheduler.charge(client, seconds, now)
            self.account(client, seconds)
        self.stats.puzzles += answered
        self.solved(answered, seconds)

    def may_inline(self, client: PoolClient) -> bool:
        """True when ``client``'s work may run on the event loop now: not held, budget left, not stopping."""
        if self.lifecycle.stopping:
            return False
        scheduler = self.scheduler
        return not scheduler.held(client) and scheduler.budget_left(client, time.monotonic()) > 0

    # -- running batches -------------------------------------------------------------------------

    def _wake(self) -> None:
        """On the event loop, after the scheduler's state changed: carry out what it decides now (batches started
        or resumed, jobs refused), until it has nothing more; re-entered (a decision's effects change the state
        again), it asks once more when the outer call is done. Then re-arms the refusal timer when the wait
        bound's next refusal moved."""
        if self._pumping or self._token is None:  # (not running yet: run starts with this)
            self._again = True
            return
        self._pumping = True
        scheduler = self.scheduler
        try:
            while True:
                decision = scheduler.next_decision(time.monotonic())
                if decision is None:
                    if not self._again:
                        break
                    self._again = False
                elif isinstance(decision, _scheduler.Start):
                    self._start(decision.batch)
                elif isinstance(decision, _scheduler.Resume):
                    event = self._resume.pop(id(decision.batch), None)
                    if event is not None:
                        event.set()
                else:
                    for job in decision.jobs:
                        job.connection.fill(job.slot, job.refused_reply(decision.reason, decision.budget))
        finally:
            self._pumping = False
        due = scheduler.refusal_due()
        if due != self._armed:
            self._armed = due
            self._timer.set()

    def _start(self, batch: _scheduler.Batch) -> None:
        """Run ``batch`` in a thread of trio's cache; its end comes back to :meth:`_ended`."""
        results: list[tuple] = []
        _owner(batch).check_peer()  # a half-closed client that has since gone: no work for it
        if batch.cancelled:
            self._ended(batch, results, outcome.Value([]), counted=False)
            return
        token = self._token
        assert token is not None

        def report(result: outcome.Outcome[list[Job]]) -> None:  # in the thread, its work done
            try:
                token.run_sync_soon(self._ended, batch, results, result)
            except trio.RunFinishedError:
                pass

        self._live += 1
        trio.lowlevel.start_thread_soon(lambda: worker_of(token, self._work, batch, results), report)

    def _ended(
        self, batch: _scheduler.Batch, results: list[tuple], result: outcome.Outcome[list[Job]], counted: bool = True
    ) -> None:
        """On the event loop: ``batch`` ended, ``result`` its jobs not run (or what its thread raised)."""
        unfinished: list[Job] = []
        owner = _owner(batch)
        if counted:
            self._live -= 1
            if not self._live and self._drained is not None:
                self._drained.set()
        try:
            unfinished = result.unwrap()
        except BaseException as error:  # a fault of the pool itself: run raises it
            self._crash = error
            self._timer.set()
        try:
            now = time.monotonic()
            self.account(owner, max(0.0, now - batch.slice_started))
            self.scheduler.finished(batch, now, None if batch.cancelled else unfinished)
            self._deliver(results)
            if self.lifecycle.stopping:
                # stopped mid-batch: every job still gets its line (also
                # those a bulk job split off, which were never queued)
                for job in list(batch.jobs) + list(unfinished or ()):
                    job.connection.fill(job.slot, job.connection.shutdown_line(job))
        except Exception:  # the pool must outlive any one batch
            log.exception("%s: internal error after a batch", owner.peer)
        self._wake()

    def _deliver(self, results: list[tuple]) -> None:
        debug = log.isEnabledFor(logging.DEBUG)
        for job, data, seconds in results:
            job.connection.fill(job.slot, data)
            if job.bulk is not None:
                count = job.slot.count  # answers done (the slow ones left the bulk)
                self.solved(count, seconds)
                if debug and count:
                    for item, line in zip(job.bulk[:count], data.splitlines()):
                        log.debug(
                            "%s puzzle at line %d: %s, %.1f ms (in bulk)",
                            job.connection.peer,
                            first_line(item),
                            error_code(line) or "answered",
                            seconds / count * 1000,
                        )
                continue
            self.solved(1, seconds)
            if debug:
                log.debug(
                    "%s %s: %s, %.1f ms", job.connection.peer, job.what, error_code(data) or "answered", seconds * 1000
                )
        results.clear()

    def _cut_before(self, batch: _scheduler.Batch, results: list[tuple], now: float) -> bool:
        """Between two jobs of a batch: True when the batch ends here (slice used with others waiting, budget
        used, or the client's window full with the answers done so far)."""
        scheduler = self.scheduler
        if scheduler.should_yield(batch, now) or scheduler.over_budget(batch, now):
            return True
        if _owner(batch).output_full(sum(len(result[1]) for result in results), batch.extra):
            batch.cut_full = True  # (an extra batch: no other starts for its connection meanwhile)
            return True
        return False

    def _work(self, batch: _scheduler.Batch, results: list[tuple]) -> list[Job]:
        """In a worker thread: run the batch's jobs in order; returns those not run.

        The batch is cut before a job when its slice is used and others wait,
        when the connection's budget is used (its next turn refuses the rest),
        or when its reply window is full, the answers done here included
        (it is held until the client reads).
        Answers done are handed over at least once per time slice, so that a
        slow puzzle never holds back the answers before it.
        A bulk job split at a slow puzzle (:class:`_BulkRun`) gives the jobs after that puzzle back to the
        scheduler (``Scheduler.give_back``) and the batch ends with the slow one.
        """
        context = self.context()
        run = _BatchRun(self, batch, results)
        jobs = batch.jobs
        index = 0
        while index < len(jobs):
            job = jobs[index]
            if batch.cancelled:
                return jobs[index:]  # (jobs a split made get their shutdown lines too)
            if index:
                now = time.monotonic()
                if self._cut_before(batch, results, now):
                    return jobs[index:]
                run.flush(now)
            started = time.monotonic()
            if job.bulk is not None:
                bulk = _BulkRun(run, job, context, jobs[index + 1 :])
                jobs = bulk.run(started)
                if bulk.stopped:
                    return jobs
                index = 0
                continue
            try:
                data, paused = run.job(job, context, started)
            except _Stopped:
                return jobs[index:]
            results.append((job, data, time.monotonic() - started - paused))
            index += 1
        return []

    def _split(
        self, batch: _scheduler.Batch, job: Job, leftover: list[BulkItem], results: list[tuple], after: list[Job]
    ) -> tuple[list[Job], bool]:
        """On the event loop: bulk ``job`` of ``batch`` stopped at a slow puzzle, the first of ``leftover``.

        Its answers done (in ``results``) are handed over now; the puzzles left get jobs of their own
        (``PoolClient.split_bulk``), returned in order with True: all but the first (the slow puzzle's, which
        this batch runs) go back to the scheduler with ``after`` (the batch's jobs not run) at once, for a free
        worker to take (``Scheduler.give_back``). False: the batch was cancelled, nothing was given back.
        """
        made = job.connection.split_bulk(job, leftover)
        self._deliver(results)
        if batch.cancelled:
            return made, False
        self.scheduler.give_back(batch, made[1:] + after, time.monotonic())
        self._wake()
        return made, True

    def _tick(self, batch: _scheduler.Batch, results: list[tuple]) -> None:
        """On the event loop, once per time slice of a running batch: hand over the
        answers done, and see whether a half-closed client has since gone."""
        if results:
            self._deliver(results)
        _owner(batch).check_peer()

    def _pause_from_thread(self, batch: _scheduler.Batch, results: list[tuple], until: float) -> None:
        to_loop_async(self._pause, batch, results, until)

    async def _pause(self, batch: _scheduler.Batch, results: list[tuple], until: float) -> None:
        """On the event loop: hand over the answers done so far, give up the worker, wait for its turn.

        ``until`` (``time.monotonic``): the job's wall-time bound; a batch still
        paused then takes its worker back out of turn, only to end its job
        ``ERROR timeout`` (``Scheduler.resume_now``).
        """
        now = time.monotonic()
        self.account(_owner(batch), max(0.0, now - batch.slice_started))
        self._deliver(results)
        if batch.cancelled:
            return
        event = self._resume[id(batch)] = trio.Event()
        self.scheduler.pause(batch, now)
        self._wake()
        with trio.move_on_after(max(0.0, until - now)):
            await event.wait()
            return
        if self._resume.pop(id(batch), None) is event:
            self.scheduler.resume_now(batch, time.monotonic())

    def cancel_all(self) -> None:
        """Stop every batch (the server stops): workers end within a ``check`` call."""
        for client in list(self.clients):
            for job in self.close(client):
                client.fill(job.slot, client.shutdown_line(job))
        for event in self._resume.values():
            event.set()
        self._resume.clear()


class _BatchRun:
    """One batch's run in its worker thread: the ``check`` of each job (timeouts, pauses, hand-overs)."""

    def __init__(self, pool: SolverPool, batch: _scheduler.Batch, results: list[tuple]) -> None:
        self.pool = pool
        self.batch = batch
        self.results = results
        config = pool.config
        self.timeout = config.solve_timeout
        self.wall = wall_limit(config.solve_timeout)
        self.threads = max(1, config.solver_threads)
        self.time_slice = config.time_slice
        self.flushed = time.monotonic()  # when answers were last handed over

    def flush(self, now: float) -> None:
        """Hand the answers done over to the event loop, once per time slice."""
        if now - self.flushed >= self.time_slice:
            to_loop(self.pool._tick, self.batch, self.results)
            self.flushed = now

    def job(self, job: Job, context: JobContext, started: float) -> tuple[bytes, float]:
        """Run one job: its reply (or the timeout's, or an internal error's) and the seconds it was paused.

        Raises _Stopped when the batch is cancelled (the client is gone, the server stops).
        """
        check, paused = self.checker(job, started, time.thread_time())
        try:
            data = job.work(check, context)
        except BaseException:
            data = self.failed(job)
        return data, paused[0]

    def checker(self, job: Job, started: float, cpu_started: float) -> tuple[Callable[[], None], list[float]]:
        """The ``check`` of ``job``, whose search began at ``started`` (``time.monotonic``) and ``cpu_started``
        (``time.thread_time``), and the list whose one item counts the seconds it spent paused.

        It raises _Stopped (the batch is cancelled) and _TimedOut (the job's own time passed the solve
        timeout, or its wall time the wall-time bound); it pauses the batch when its slice is used and others
        wait, else hands the answers done over once per slice.
        """
        pool, batch = self.pool, self.batch
        paused = [0.0]  # seconds this job spent paused
        weight = pause_weight(job)
        scheduler = pool.scheduler

        def check() -> None:
            if batch.cancelled:
                raise _Stopped()
            now = time.monotonic()
            if own_seconds(now - started - paused[0], time.thread_time() - cpu_started, self.threads) > self.timeout:
                raise _TimedOut()  # its own time: the job itself took that long
            if now - started > self.wall:
                raise _TimedOut(busy=True)  # paused for others or starved: the client has waited long enough
            if scheduler.should_pause(batch, now, weight):
                batch.pause_weight = weight
                pool._pause_from_thread(batch, self.results, started + self.wall)
                paused[0] += time.monotonic() - now
                self.flushed = time.monotonic()
            else:
                self.flush(now)
            if batch.cancelled:
                raise _Stopped()

        return check, paused

    def failed(self, job: Job) -> bytes:
        """In an ``except`` block around ``job``'s work (under :meth:`checker`'s ``check``): the reply of the
        exception being handled (a timeout's, an internal error's); raises _Stopped when the batch ends
        there (cancelled, or the server stops), and re-raises anything else."""
        error = sys.exc_info()[1]
        if isinstance(error, _TimedOut):
            return job.timeout_reply(self.wall if error.busy else self.timeout, busy=error.busy)
        if isinstance(error, Exception):
            log.exception("%s: internal error on the %s", job.connection.peer, job.what)
            return job.internal_reply(error)
        if isinstance(error, _Stopped):
            raise error
        # trio.Cancelled out of a pause (the server is stopping): the
        # batch ends here; the jobs get their shutdown answers.
        if self.batch.cancelled or self.pool.lifecycle.stopping:
            raise _Stopped() from None
        raise  # (called in an except block: the exception being handled)


class _BulkRun:
    """One bulk job's run in its worker thread (``SolverPool._work``): its puzzles answered in order while each
    is quick.

    Text to text in the native core (a run of plain lines in one native call, ``text.oneline.solve_plain``; a
    marks line alone, ``text.marksline.solve_marks``); a line the core does not take (an error to word) is read
    and answered by the service, alone, and rendered. A puzzle is *slow* once it searched past
    :data:`BULK_LINE_CHECKS` of the native core's check intervals, or the bulk past :data:`BULK_SLOW_SECONDS`.
    A plain line then stops; a puzzle searched alone goes on in the bulk until a split helps (:meth:`_split_due`:
    another connection waits, a worker idles with nothing to take, or the bulk has run a time slice). Then the
    bulk splits at it (``SolverPool._split``): the answers done are handed over at once, the puzzle
    gets a job of its own and those after it a bulk job (``PoolClient.split_bulk``), which go back to the
    scheduler with the batch's jobs not run, for a free worker to take; the batch ends with the slow puzzle's
    job. A puzzle searched alone (a marks line, a line the service answers) goes on searching where it is,
    now under its own job's rules (:meth:`_BatchRun.checker`: its solve timeout and wall-time bound counted
    from when its search began, pauses, hand-overs, cancel): it is never searched again. A plain line stops
    (the native call answers a run of them) and its job searches it again from the start: a plain 9x9 line
    seldom searches 2 ms.
    """

    def __init__(self, run: _BatchRun, job: Job, context: JobContext, after: list[Job]) -> None:
        self.batch_run = run
        self.job = job
        self.context = context
        self.after = after  # the batch's jobs after this one
        assert job.bulk is not None
        self.items = job.bulk
        self.chunks: list[bytes] = []  # the answers of the first ``done`` puzzles
        self.done = 0
        self.alone = False  # the puzzle searching now is searched alone (it may go on as its own job)
        self.checks = 0  # the check calls of the puzzle (or run of plain lines) searching now
        self.started = self.line_started = 0.0  # when the bulk, and the puzzle searching now, began
        self.own: Job | None = None  # the slow puzzle's job, once the bulk split
        self.own_check: Callable[[], None] | None = None  # its check, while it goes on searching here
        self.own_paused = [0.0]
        self.stopped = False  # the batch ends here (cancelled, the server stops)
        self.left = [job, *after]  # the jobs not answered, for their shutdown lines when it does

    def run(self, started: float) -> list[Job]:
        """Answer the puzzles, the results (``(job, reply, seconds)``) appended to the batch's: returns the jobs
        the batch runs next: the batch's jobs after this one, or after a split the slow puzzle's job when it
        was not answered here, else none. With :attr:`stopped` set, the jobs not answered instead."""
        self.started = self.line_started = started
        items = self.items
        native = is_own_solve(self.context.solvers.solve)  # a test's replaced solver sees every line
        try:
            while self.done < len(items) and self.own is None:
                if native and not isinstance(items[self.done], TakenLine):
                    self._plain_run()
                else:
                    self._alone(native)
        except _Stopped:
            self.stopped = True
            return self.left
        if self.own is None:
            self.batch_run.results.append((self.job, b"".join(self.chunks), time.monotonic() - started))
            return self.after
        return [] if self.own_check is not None else [self.own]

    def check(self) -> None:
        """The bulk's ``check``: slow past the bounds (class docstring); once split, the slow puzzle's own."""
        if self.own_check is not None:
            self.own_check()
            return
        if self.batch_run.batch.cancelled:
            raise _Stopped()
        self.checks += 1
        now = time.monotonic()
        if self.checks >= BULK_LINE_CHECKS or now - self.started > BULK_SLOW_SECONDS:
            if not self.alone:
                raise _Slow()
            if not self._split_due(now):
                return
            self._split(now)
            assert self.own is not None
            # it goes on under its own job's rules, its search counted from when it began (its CPU time
            # taken as its wall time so far: the native search runs without the lock)
            cpu_started = time.thread_time() - (now - self.line_started)
            self.own_check, self.own_paused = self.batch_run.checker(self.own, self.line_started, cpu_started)
            self.own_check()

    def _split_due(self, now: float) -> bool:
        """A puzzle searched alone is slow: True when the bulk splits at it now. Only when it helps: another
        connection waits (the batch must yield), a worker is idle with nothing to take (the puzzles after this
        one are its work), or the answers done have waited a time slice (the client's window)."""
        run = self.batch_run
        scheduler = run.pool.scheduler
        return scheduler.waiting or scheduler.starving(run.batch.key) or now - self.started >= run.time_slice

    def _split(self, now: float) -> None:
        """Split the bulk at its puzzle ``done`` (``SolverPool._split``): the answers done handed over, its
        job in :attr:`own`. Raises _Stopped when the batch was cancelled meanwhile."""
        run = self.batch_run
        run.results.append((self.job, b"".join(self.chunks), now - self.started))
        made, given = to_loop(run.pool._split, run.batch, self.job, self.items[self.done :], run.results, self.after)
        self.own = made[0]
        self.left = [self.own] if given else made + self.after
        if not given:
            raise _Stopped()

    def _plain_run(self) -> None:
        """The plain lines from puzzle ``done`` on, in one native call; a line it does not take alone."""
        items = self.items
        end = self.done + 1
        while end < len(items) and not isinstance(items[end], TakenLine):
            end += 1
        out: list[bytes | None] = []
        self.alone, self.checks, self.line_started = False, 0, time.monotonic()
        slow = False
        try:
            solve_plain([line_of(item) for item in items[self.done : end]], out, check=self.check)
        except _Slow:
            slow = True
        for text in out:
            if text is None:  # an error to word (givens that share a unit, no solution): the service's
                self._alone(False)
                if self.own is not None:
                    return
            else:
                self.chunks.append(text)
                self.done += 1
        if slow:
            self._split(time.monotonic())  # its job searches it again

    def _alone(self, native: bool) -> None:
        """Answer puzzle ``done`` alone: a marks line text to text, else read and answered by the service. Slow,
        it goes on as its own job (:meth:`check`), whose result then ends the bulk."""
        item = self.items[self.done]
        self.alone, self.checks, self.line_started = True, 0, time.monotonic()
        check, context = self.check, self.context
        try:
            if isinstance(item, TakenLine):
                text = solve_marks(item.line, check=check) if native else None
                if text is None:  # read now, as the session would have read it
                    text = answer_events(item.events(), check, context)
            else:
                request, puzzle = item
                about = f"the puzzle at line {puzzle.first_line}"
                results = list(answer_many([(request, about)], check=check, solvers=context.solvers))
                text = replies.render_many(results, [puzzle])
        except BaseException:
            if self.own is None:
                raise
            text = self.batch_run.failed(self.own)
        finally:
            self.alone = False
        if self.own is not None:
            seconds = time.monotonic() - self.line_started - self.own_paused[0]
            self.batch_run.results.append((self.own, text, seconds))
            self.left = []
            return
        self.chunks.append(text)
        self.done += 1


def _owner(batch: _scheduler.Batch) -> PoolClient:
    """The client a batch belongs to (the scheduler's key)."""
    return cast(PoolClient, batch.key)  # the scheduler's keys are the pool's clients
