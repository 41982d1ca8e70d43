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
from dataclasses import dataclass
from typing import Protocol, cast

import trio

from sudoku_server.errors import SolveTimeoutError
from sudoku_server.net import scheduler as _scheduler
from sudoku_server.net.config import ServerConfig
from sudoku_server.net.lifecycle import ServerLifecycle
from sudoku_server.net.metrics import Counts
from sudoku_server.net.window import Signal, Slot
from sudoku_server.service.answer import Server, Solvers, answer, answer_many
from sudoku_server.service.requests import Request, Solve
from sudoku_server.sudoku.solver import is_own_solve
from sudoku_server.text import Puzzle
from sudoku_server.text.marksline import solve_marks, solve_taken
from sudoku_server.wire import replies
from sudoku_server.wire.session import Event, Reply, RequestReceived, TakenLine

__all__ = [
    "BULK_PUZZLES",
    "SWITCH_INTERVAL",
    "Job",
    "JobContext",
    "PoolClient",
    "Signal",
    "Slot",
    "SolverPool",
    "error_code",
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
#: it leaves the bulk for a job of its own, which searches it again from the start: 4, 2 ms. At 1 (0.5 ms)
#: the pipelined renban requests of the stored set (search mean 0.13 ms, worst 1.8 ms) sent 36 of 400 to
#: jobs, each searched twice; whispers 11 (benchmarks/RESULTS.md, eighth session).
BULK_LINE_CHECKS = 4
#: Past this many seconds of a bulk job, its puzzle at its next check leaves it (with those after it): a
#: bulk of slow puzzles holds its worker about as long as 32 puzzles of 0.5 ms did, under a 20 ms slice.
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


def busy_timeout_error(seconds: float) -> SolveTimeoutError:
    """The error of a job that passed its wall-time bound (``seconds``): ``no answer within 20 s (the server is
    busy)``; the solve timeout's own words (``no answer within 10 s``) say the job itself took that long."""
    return SolveTimeoutError(f"no answer within {seconds:g} s (the server is busy)")


#: One puzzle of a bulk job: a plain one-line puzzle read (its request and puzzle), or a marks line unread.
BulkItem = tuple[Solve, Puzzle] | TakenLine


def first_line(item: BulkItem) -> int:
    """The line number of a bulk job's puzzle."""
    return item.lineno if isinstance(item, TakenLine) else item[1].first_line


def _line_of(item: BulkItem) -> bytes:
    """A bulk job's puzzle as its line's bytes, terminator included."""
    if isinstance(item, TakenLine):
        return item.line
    puzzle = item[1]
    return (puzzle.lines[0] + puzzle.endings[0]).encode("ascii")


def _answer_events(events: list[Event], check: Callable[[], None], context: JobContext) -> bytes:
    """The replies of a line's events: its error line, or its request answered and rendered as :meth:`Job.work`
    answers one."""
    chunks = []
    for event in events:
        if isinstance(event, Reply):
            chunks.append(event.data)
        elif isinstance(event, RequestReceived):
            about = f"the puzzle at line {event.line}"
            result = answer(event.request, check=check, solvers=context.solvers, server=context.server, about=about)
            chunks.append(replies.render(result, event.ending, event.puzzle))
    return b"".join(chunks)


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


class PoolClient(Protocol):
    """What a client of the pool provides: a line connection, or the HTTP front's client of one address.

    The pool calls these on the event loop, except :meth:`output_full`,
    which a worker thread reads between the jobs of a batch.
    """

    @property
    def peer(self) -> str:
        """The client, for the log (``127.0.0.1:50312``)."""
        ...

    solver_seconds: float  # time its batches (and its inline solving) held a worker

    def __hash__(self) -> int:
        """Clients are the scheduler's keys (by identity)."""
        ...

    def fill(self, slot: Slot, data: bytes) -> None:
        """A job's reply is ready: ``data`` for ``slot``."""
        ...

    def check_peer(self) -> None:
        """Before a batch and once per slice: find out whether the client has gone (then close it in the pool)."""
        ...

    def output_full(self, extra: int = 0, ahead: bool = False) -> bool:
        """True when its replies ready and unsent, plus ``extra`` bytes, fill its window (the batch is cut);
        ``ahead``: for an extra batch, counting the replies done behind one not known yet."""
        ...

    def shutdown_line(self, job: Job) -> bytes:
        """The reply of ``job`` when the server stops before it is answered."""
        ...

    def split_bulk(self, job: Job, leftover: list[BulkItem]) -> list[Job]:
        """A bulk job stopped at a slow puzzle: ``leftover`` get jobs of their own, returned in order."""
        ...


@dataclass(frozen=True, slots=True)
class JobContext:
    """What a job answers with: the solver functions and the server the verbs about it read."""

    solvers: Solvers
    server: Server


@dataclass(eq=False, slots=True)
class Job:
    """One piece of solver work: a request answered by ``service.answer`` in a worker thread.

    Its reply is the result rendered by ``wire.replies`` (in ``puzzle``'s
    layout when it has one).
    """

    connection: PoolClient
    slot: Slot
    request: Request | None
    puzzle: Puzzle | None
    what: str  # for messages: "puzzle at line 3"
    ending: str = "\n"
    bulk: list[BulkItem] | None = None  # a run of plain one-line puzzles and marks lines (SolverPool._run_bulk)
    taken: TakenLine | None = None  # a marks line unread, answered alone (request and puzzle None)

    def each(self) -> list[str]:
        """What each of its replies is about: ``["puzzle at line 3"]``, one per puzzle of a bulk."""
        if self.bulk is None:
            return [self.what]
        return [f"puzzle at line {first_line(item)}" for item in self.bulk[: self.slot.count]]

    def work(self, check: Callable[[], None], context: JobContext) -> bytes:
        """In a worker thread: answer the request and render its reply. Raises what ``check`` raises."""
        if self.taken is not None:  # a marks line: text to text, else read and answered the usual way
            own = is_own_solve(context.solvers.solve)  # (a test's replaced solver sees every line)
            answered = solve_marks(self.taken.line, check=check) if own else None
            return answered if answered is not None else _answer_events(self.taken.events(), check, context)
        assert self.request is not None
        result = answer(
            self.request, check=check, solvers=context.solvers, server=context.server, about=f"the {self.what}"
        )
        return replies.render(result, self.ending, self.puzzle)

    # The replies the pool gives on its own (another front, HTTP, renders them its own way).

    def timeout_reply(self, seconds: float, busy: bool = False) -> bytes:
        """The reply of a request that used its solve timeout (``seconds``), or (``busy``) its wall-time bound."""
        if busy:
            return b"".join(replies.error_line(busy_timeout_error(seconds), self.ending) for _ in self.each())
        return replies.timeout_line(seconds, self.ending)

    def internal_reply(self, error: BaseException) -> bytes:
        """The reply of a request whose work failed outside the service (a fault: logged by the caller)."""
        return replies.internal_line(error, f"the {self.what}", self.ending)

    def refused_reply(self, reason: str, budget: bool = False) -> bytes:
        """The reply of a request the scheduler refused (``budget``: its client's budget is used)."""
        return b"".join(replies.not_solved_line(reason, what, self.ending) for what in self.each())


class SolverPool:
    """Carries out the :class:`~sudoku_server.net.scheduler.Scheduler`'s decisions.

    One unit because dispatching, running, pausing and delivering a batch all
    work on the same scheduler state and resume events.

    Batches run in worker threads (``trio.to_thread``); the scheduler's state
    changes only on the event loop, and workers read two of its values (is
    anyone waiting, when did my slice start) without a lock. A worker that
    must pause calls back into the event loop (``trio.from_thread.run``) and
    waits there for its turn.

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
        )
        # Threads: the computing ones (solver_threads) and the paused ones
        # (at most one per worker and connection: a connection's extra batches may pause too).
        workers = max(1, cfg.solver_threads)
        self._threads = trio.CapacityLimiter(workers * (1 + cfg.max_connections))
        self._wake = Signal()
        self._resume: dict[int, trio.Event] = {}
        self._nursery: trio.Nursery | None = None
        self.clients: set[PoolClient] = set()  # every client open in the pool (line connections, HTTP clients)

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

    def open(self, client: PoolClient) -> None:
        """A new client: a full budget, nothing queued."""
        self.clients.add(client)
        self.scheduler.open(client, time.monotonic())

    def submit(self, job: Job, puzzles: int = 1) -> None:
        """Queue ``job`` after its client's earlier ones; ``puzzles``: the solver requests it counts for in STATS."""
        self.scheduler.submit(job.connection, job, time.monotonic())
        self.stats.puzzles += puzzles
        self._wake.set()

    def hold(self, client: PoolClient) -> None:
        """The client's reply window is full: compute nothing more for it (``Scheduler.hold``)."""
        self.scheduler.hold(client)

    def release(self, client: PoolClient) -> None:
        """The client's reply window has room again (``Scheduler.release``)."""
        if self.scheduler.held(client):
            self.scheduler.release(client, time.monotonic())
            self._wake.set()

    def close(self, client: PoolClient) -> list[Job]:
        """Forget a client; its running batch stops; returns its jobs that never ran."""
        self.clients.discard(client)
        dropped = self.scheduler.close(client)
        self._wake.set()
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
        owner = _owner(batch)
        owner.check_peer()  # a half-closed client that has since gone: no work for it
        try:
            if not batch.cancelled:
                unfinished = await trio.to_thread.run_sync(self._work, batch, results, limiter=self._threads)
        finally:
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
            self._wake.set()

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
        """
        context = self.context()
        run = _BatchRun(self, batch, results)
        jobs = batch.jobs
        for index, job in enumerate(jobs):
            if batch.cancelled:
                return []
            if index:
                now = time.monotonic()
                if self._cut_before(batch, results, now):
                    return jobs[index:]
                run.flush(now)
            started = time.monotonic()
            if job.bulk is not None:
                data, leftover = self._run_bulk(job, batch, context)
                results.append((job, data, time.monotonic() - started))
                if leftover:
                    # A slow puzzle: it and those after it in the bulk become
                    # jobs of their own, in order, before the rest of the batch.
                    jobs_after = trio.from_thread.run_sync(job.connection.split_bulk, job, leftover)
                    return jobs_after + jobs[index + 1 :]
                continue
            try:
                data, paused = run.job(job, context, started)
            except _Stopped:
                return []
            results.append((job, data, time.monotonic() - started - paused))
        return []

    def _run_bulk(self, job: Job, batch: _scheduler.Batch, context: JobContext):
        """In a worker thread: answer a bulk job's puzzles while each is quick.

        Returns ``(answers, leftover)``: the answers' bytes, and the puzzles
        from the first slow one on (it searched past :data:`BULK_LINE_CHECKS`
        check intervals, or the bulk past :data:`BULK_SLOW_SECONDS`): it gets
        a job of its own, with its own solve timeout, pauses and answers, and
        those after it a bulk job (``PoolClient.split_bulk``).
        """

        started = time.monotonic()
        at = [-1, 0]  # the line the last check was in (its index), and its checks so far

        def check() -> None:
            if batch.cancelled:
                raise _Stopped()
            index = len(texts)  # the line searching now (a later one when it fell back to the service)
            if at[0] != index:
                at[0], at[1] = index, 0
            at[1] += 1
            if at[1] >= BULK_LINE_CHECKS or time.monotonic() - started > BULK_SLOW_SECONDS:
                raise _Slow()

        items = job.bulk
        assert items is not None
        solvers = context.solvers
        # Text to text in the native core (text.marksline.solve_taken: plain lines, marks lines); a line it
        # does not take (an error to word) is read and answered by the service, and rendered.
        texts: list[bytes | None] = []
        try:
            if is_own_solve(solvers.solve):  # a test's replaced solver sees every line
                solve_taken([_line_of(item) for item in items], texts, check=check)
            else:
                texts = [None] * len(items)
        except _Slow:
            pass  # this puzzle and those after it leave the bulk
        done = len(texts)
        chunks: list[bytes] = []
        for index, text in enumerate(texts):
            if text is not None:
                chunks.append(text)
                continue
            item = items[index]
            try:
                if isinstance(item, TakenLine):  # a marks line: read now, as the session would have read it
                    chunks.append(_answer_events(item.events(), check, context))
                    continue
                request, puzzle = item
                results = list(
                    answer_many([(request, f"the puzzle at line {puzzle.first_line}")], check=check, solvers=solvers)
                )
            except _Slow:
                done = index  # this puzzle and those after it leave the bulk
                break
            chunks.append(replies.render_many(results, [puzzle]))
        return b"".join(chunks), items[done:]

    def _tick(self, batch: _scheduler.Batch, results: list[tuple]) -> None:
        """On the event loop, once per time slice of a running batch: hand over the
        answers done, and see whether a half-closed client has since gone."""
        if results:
            self._deliver(results)
        _owner(batch).check_peer()

    def _pause_from_thread(self, batch: _scheduler.Batch, results: list[tuple], until: float) -> None:
        trio.from_thread.run(self._pause, batch, results, until)

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
        self._wake.set()
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
            trio.from_thread.run_sync(self.pool._tick, self.batch, self.results)
            self.flushed = now

    def job(self, job: Job, context: JobContext, started: float) -> tuple[bytes, float]:
        """Run one job: its reply (or the timeout's, or an internal error's) and the seconds it was paused.

        Raises _Stopped when the batch is cancelled (the client is gone, the server stops).
        """
        pool, batch = self.pool, self.batch
        cpu_started = time.thread_time()
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

        try:
            data = job.work(check, context)
        except _TimedOut as timed_out:
            data = job.timeout_reply(self.wall if timed_out.busy else self.timeout, busy=timed_out.busy)
        except Exception as error:
            log.exception("%s: internal error on the %s", job.connection.peer, job.what)
            data = job.internal_reply(error)
        except _Stopped:
            raise
        except BaseException:
            # trio.Cancelled out of a pause (the server is stopping): the
            # batch ends here; the jobs get their shutdown answers.
            if batch.cancelled or pool.lifecycle.stopping:
                raise _Stopped() from None
            raise
        return data, paused[0]


def _owner(batch: _scheduler.Batch) -> PoolClient:
    """The client a batch belongs to (the scheduler's key)."""
    return cast(PoolClient, batch.key)  # the scheduler's keys are the pool's clients
