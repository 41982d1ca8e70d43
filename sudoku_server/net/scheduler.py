"""Who solves next: fair sharing of the solver workers between connections.

Pure logic, no threads and no trio: the server feeds it what happens
(:meth:`Scheduler.submit`, :meth:`Scheduler.finished`, ...) with the current
time, asks it what to do next (:meth:`Scheduler.next_decision`), and carries
that out. ARCHITECTURE.md draws the shape; the rules (PROTOCOL.md "Fairness and bounds"):

* **Least served first.** Each connection has a *virtual time*: the solver
  seconds its batches have held a worker. Connections with solver work (and
  paused batches) wait in one queue ordered by virtual time, ties in the
  order they became ready. A free worker takes the connection at the head
  and runs a *batch* of its jobs (puzzles, ratings, generation...), in
  request order. Answers keep their order whatever order batches end in:
  each job fills its own slot of the connection's reply window, and the
  writer sends from the head (``net.window``).
* **A free worker is not left idle.** While no other connection (and no
  paused batch) waits, a connection with a batch running and more jobs
  queued may start an *extra* batch on a free worker (issue 29: one
  pipelining client used one core of two), of the jobs at the front of its
  queue that may run beside another (``parallel``: the server's are those
  whose search runs in the native core without the interpreter lock). A batch started while workers
  are free and nothing else waits takes its share of the queue (its
  puzzles, a bulk job's many, divided by the free workers and the
  connection's batches running, at most ``batch_size`` jobs), so the rest
  can start beside it, or on the worker that frees first (an extra batch
  that took all that waited once kept one worker busy with 56 puzzles while
  the other idled: benchmarks/RESULTS.md, tenth session). As soon as another connection (or a paused batch) waits,
  the rules below apply: an extra batch ends between jobs at once, or
  pauses at the end of its slice in the middle of a job, and its worker goes
  to the head of the queue; the connection queues again once its last
  batch ends. Every batch is charged to the budget and the virtual time, so
  a connection that used two workers is served that much later.
* **A newcomer goes first.** A connection that becomes ready after having
  no work (a new one, or one that was answered and asks again) starts at
  ``floor - time_slice``, where the *floor* is the virtual time of the last
  batch started (it never decreases): it goes before every connection that
  kept working, but its past idleness buys it one slice, no more. Between
  connections that keep working this is round robin weighted by the time
  each used: each gets about 1/N of the solver time.
* **Time slice.** A batch ends after :attr:`~Scheduler.batch_size` jobs, or,
  while other connections wait, once it has run for :attr:`time_slice`
  seconds (an extra batch: at once, between jobs); the connection then
  queues again by its virtual time, once its last batch has ended. A single
  job that runs past the slice while others wait *pauses* (the solver's
  ``check`` hook blocks): it gives its worker to the head of the queue and
  queues again itself. An easy puzzle from a light connection so waits
  for the first worker whose slice ends: about ``time_slice`` plus the gap
  between two ``check`` calls of the running jobs, whatever the number of
  heavy connections (before issue 17: behind all of them, about
  ``N * time_slice / workers``).
* **Budget.** Each connection has a bucket of solver seconds
  (:attr:`budget_seconds`) that refills at ``budget_seconds / budget_window``
  per second; the time its batches run is taken from it. A connection whose
  bucket is empty gets its waiting jobs refused (``ERROR busy connection
  budget used ...``) without solving, and goes on.
* **Hold.** A connection whose reply window is full (the client does not
  read: :meth:`Scheduler.hold`) gets no batch until it has room again
  (:meth:`Scheduler.release`); the server cuts its running batch between
  jobs. Its replies are not computed ahead of a client that does not read.
* **Wait bound.** A connection that waited more than :attr:`queue_timeout`
  seconds for a worker gets its waiting jobs refused (``ERROR busy queue wait
  over ... s``).

Jobs are opaque to the scheduler: anything the server wants to run.
"""

from __future__ import annotations

import collections
import heapq
import itertools
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

#: Seconds a batch may run while other connections wait, before it yields.
#: Short enough that an easy puzzle from a newcomer waits about one slice
#: for a worker; long enough that a 9x9 batch of 64 easy puzzles (about
#: 0.3 ms each with the Python core) seldom splits.
DEFAULT_TIME_SLICE = 0.02
#: Jobs per batch at most: answers of a batch are written together.
DEFAULT_BATCH_SIZE = 32
#: Seconds a connection may wait for a worker before its jobs get ``busy``.
#: Above the 1000-connection load test's p99 (3.1 s with the first server).
DEFAULT_QUEUE_TIMEOUT = 10.0
#: Solver seconds a connection may use at once, refilled over the window:
#: ``nc < sudoku17`` (49,151 puzzles, about 15 solver seconds with the Python
#: core) completes; a stream of hopeless puzzles (10 s each) is cut after 6.
DEFAULT_BUDGET_SECONDS = 60.0
#: Weight of the batches paused in the middle of a job, at most: each holds a
#: thread and the job's working memory (about 150-250 KB for a 16x16 or 25x25
#: STEPS, far less for 9x9). A job on a 9x9 grid weighs 1, a larger one
#: :data:`LARGE_PAUSE_WEIGHT`: 64 9x9 jobs, or 8 larger ones. At the bound a
#: running job no longer pauses at its slice: it runs on to its end (or is
#: cut between jobs), and the worker it frees goes, as always, to the least
#: served (a newcomer first); pausing would only swap one half-done job for
#: another (a second fresh-eyes pass found newcomers starved for the 10 s
#: wait bound that way, with 9 heavy connections against a bound of 8).
DEFAULT_MAX_PAUSED = 64
#: Pause weight of a job on a grid larger than 9x9 (see :data:`DEFAULT_MAX_PAUSED`).
LARGE_PAUSE_WEIGHT = 8
#: Seconds in which a connection's budget refills completely.
DEFAULT_BUDGET_WINDOW = 120.0


@dataclass(eq=False)
class Batch:
    """Jobs of one connection run together on one worker.

    Attributes:
      key: the connection.
      jobs: the jobs, in request order.
      started: when it got its worker (seconds, the scheduler's clock).
      slice_started: when its current time slice began (reset on resume).
      used: seconds it has held a worker so far (charged to the budget).
      cancelled: the connection is gone; the worker should stop at once.
      paused: waiting for a worker to resume on.
      extra: started while its connection had another batch running (module docstring): it ends between
        jobs as soon as another connection waits.
      cut_full: the server cut it because the connection's replies fill its window (an extra batch: counting
        the replies done ahead of one not known yet); no extra batch then starts for the connection until
        one of its batches ends otherwise, or the connection is released.
    """

    key: Hashable
    jobs: list[Any]
    started: float = 0.0
    slice_started: float = 0.0
    used: float = 0.0
    cancelled: bool = False
    paused: bool = False
    pause_weight: int = 1
    extra: bool = False
    cut_full: bool = False  # cut because its connection's replies fill the window (set by the server)


@dataclass
class Start:
    """Run ``batch`` on a free worker (it holds the worker until finished or paused)."""

    batch: Batch


@dataclass
class Resume:
    """Let the paused ``batch`` go on: it holds a worker again."""

    batch: Batch


@dataclass
class Refuse:
    """Answer ``jobs`` of connection ``key`` with ``ERROR busy <reason>``, unsolved."""

    key: Hashable
    jobs: list[Any]
    reason: str
    budget: bool = False  # the connection's budget is used (not the wait bound)


Decision = Start | Resume | Refuse


def _batch_length(
    queue: collections.deque[Any],
    batch_size: int,
    free: int,
    parallel: Callable[[Any], bool],
    extra: bool,
    weight: Callable[[Any], int] = lambda job: 1,
) -> int:
    """Jobs a batch takes from the front of ``queue``: up to ``batch_size``; with ``free`` workers (more than one,
    and nothing else waiting), its share of the queue's ``weight`` (puzzles: a bulk job holds many), when the job
    after the share may run beside it (``parallel``); an extra batch, only the run of jobs that may."""
    size = min(batch_size, len(queue))
    share = size
    if free > 1:
        due, share, held = -(-sum(weight(job) for job in queue) // free), 0, 0
        while share < size and held < due:
            held += weight(queue[share])
            share += 1
    if share < size and parallel(queue[share]):
        size = share
    if extra:
        size = next((n for n in range(1, size) if not parallel(queue[n])), size)
    return size


@dataclass
class _Client:
    """What the scheduler knows of one connection."""

    queue: collections.deque[Any] = field(default_factory=collections.deque)
    batches: list[Batch] = field(default_factory=list)  # running or paused, oldest first
    ready_since: float | None = None  # in the ready queue since (None: not in it)
    tokens: float = 0.0  # budget left, solver seconds
    refilled: float = 0.0  # when tokens were last brought up to date
    used: float = 0.0  # solver seconds used in all
    vtime: float = 0.0  # virtual time: its order in the queue (module docstring)
    held: bool = False  # its output is backed up: no new batch (hold, release)
    ahead_full: bool = False  # an extra batch was cut for its window (Batch.cut_full): no extra batch

    def ended(self, batch: Batch) -> None:
        """``batch`` of this connection ended: it no longer runs; whether extra batches may start (cut_full)."""
        self.batches.remove(batch)
        if batch.extra and batch.cut_full:
            self.ahead_full = True
        elif not batch.cut_full:
            self.ahead_full = False

    def tokens_at(self, now: float, seconds: float, window: float) -> float:
        """Its budget at ``now``: ``tokens`` refilled at ``seconds / window`` per second, up to ``seconds``."""
        if window <= 0:
            return self.tokens
        return min(seconds, self.tokens + (now - self.refilled) * seconds / window)


class Scheduler:
    """Fair scheduling of solver work across connections (module docstring).

    One unit because the queue, the virtual times, the holds, the paused batches and the budgets are one state
    that every decision reads and changes together.

    Args:
      workers: batches that may run at once (``--solver-threads``).
      time_slice: seconds a batch runs while others wait before it yields.
      batch_size: jobs per batch at most.
      queue_timeout: seconds a connection may wait for a worker.
      budget_seconds: solver seconds a connection may use at once.
      budget_window: seconds in which the budget refills completely.
      parallel: whether a job may run in an extra batch (default: every job); the server's: those whose
        search runs in the native core without the interpreter lock. weight: a job's puzzles (default 1).

    Every method takes ``now``, the current time in seconds (any monotonic clock, the same for every call).
    """

    def __init__(
        self,
        workers: int,
        *,
        time_slice: float = DEFAULT_TIME_SLICE,
        batch_size: int = DEFAULT_BATCH_SIZE,
        queue_timeout: float = DEFAULT_QUEUE_TIMEOUT,
        budget_seconds: float = DEFAULT_BUDGET_SECONDS,
        budget_window: float = DEFAULT_BUDGET_WINDOW,
        max_paused: int = DEFAULT_MAX_PAUSED,
        parallel: Callable[[Any], bool] = lambda job: True,
        weight: Callable[[Any], int] = lambda job: 1,
    ) -> None:
        if workers < 1 or batch_size < 1:
            raise ValueError("workers and batch_size must be at least 1")
        self.workers, self.time_slice = workers, time_slice
        self.batch_size = batch_size
        self.queue_timeout = queue_timeout
        self.budget_seconds, self.budget_window = budget_seconds, budget_window  # the budget's rate
        self.max_paused = max_paused
        self.parallel, self.weight = parallel, weight
        self._clients: dict[Hashable, _Client] = {}
        # Connections waiting to start a batch (their key) and paused batches: a heap of [vtime, sequence, item],
        # least virtual time first, and each item's live entry (an entry no longer there is skipped).
        self._heap: list[list[Any]] = []
        self._queued: dict[Hashable | Batch, list[Any]] = {}
        # Connections waiting, in the order they became ready (the wait bound).
        self._since: dict[Hashable, None] = {}
        # Connections with a batch running (or paused), more jobs queued and not held: they may start an
        # extra batch while nothing waits (module docstring). Not in the queue: they do not make others yield.
        self._extra: dict[Hashable, None] = {}
        self._sequence = itertools.count()
        self.floor = 0.0  # virtual time of the last batch started or resumed
        self._paused_count = 0  # paused batches in the queue
        self._paused_weight = 0  # their pause weights (bounded by max_paused)
        self.running = 0  # batches holding a worker
        self.charged_at = -math.inf  # when solving outside a batch (the inline path) was last charged

    # -- what the server reads --------------------------------------------

    @property
    def waiting(self) -> bool:
        """True when some connection or paused batch waits for a worker (not one that may start an extra batch).

        Read by the workers' ``check`` hooks (from other threads: a plain attribute read): yield, or go on."""
        return bool(self._queued)

    def starving(self, key: Hashable) -> bool:
        """A worker is free and no job waits, not even ``key``'s: ``key``'s bulk then splits (read by worker threads)."""
        client = self._clients.get(key)
        return self.running < self.workers and not self._queued and (client is None or not client.queue)

    @property
    def queued_jobs(self) -> int:
        """Jobs submitted and not yet started, over all connections."""
        return sum(len(c.queue) for c in self._clients.values())

    @property
    def paused(self) -> int:
        """Batches paused in the middle of a job."""
        return self._paused_count

    @property
    def idle(self) -> bool:
        """True when no batch runs and none waits: background work (the warm pools, the lowest priority) may use a
        worker. Read by that work's ``check`` hook (from its thread), which pauses it once a connection has work."""
        return not self.running and not self._queued

    def should_yield(self, batch: Batch, now: float) -> bool:
        """True when ``batch`` should end before its next job: others wait for a worker, and it has used its
        slice or is an extra batch (:attr:`Batch.extra`)."""
        return bool(self._queued) and (batch.extra or now - batch.slice_started >= self.time_slice)

    def should_pause(self, batch: Batch, now: float, weight: int = 1) -> bool:
        """True when ``batch`` should pause in the middle of a job of pause weight ``weight`` (1 for 9x9,
        :data:`LARGE_PAUSE_WEIGHT` for larger): its slice is used, others wait, and the paused weight stays
        within :attr:`max_paused` (read from the workers' threads: the bound may be passed by one job per
        worker at most)."""
        return (
            bool(self._queued)
            and now - batch.slice_started >= self.time_slice
            and self._paused_weight + weight <= self.max_paused
        )

    def over_budget(self, batch: Batch, now: float) -> bool:
        """True when ``batch``'s connection has used its budget, the running slices of all its batches included.
        Read-only (workers call it between jobs to cut the batch; the connection's next turn refuses the rest)."""
        client = self._clients.get(batch.key)
        if client is None:
            return False
        return self._budget_now(client, now) <= 0

    def budget_left(self, key: Hashable, now: float) -> float:
        """Solver seconds connection ``key`` may still use now."""
        client = self._clients[key]
        self._refill(client, now)
        return client.tokens

    def charge(self, key: Hashable, seconds: float, now: float) -> None:
        """Connection ``key`` used ``seconds`` of solving outside a batch (on the event loop, the server's inline
        path): taken from its budget and added to its virtual time, as a batch's time is."""
        self.charged_at = now
        client = self._clients.get(key)
        if client is None:
            return
        self._refill(client, now)
        client.tokens -= seconds
        client.used += seconds
        client.vtime += seconds

    # -- connections -------------------------------------------------------

    def open(self, key: Hashable, now: float) -> None:
        """A new connection: a full budget, nothing queued."""
        self._clients[key] = _Client(tokens=self.budget_seconds, refilled=now, vtime=-math.inf)

    def close(self, key: Hashable) -> list[Any]:
        """The connection is gone: forget it; returns its jobs that never started. Its batches, running or paused,
        are marked ``cancelled`` (the server stops their workers; :meth:`finished` still follows)."""
        client = self._clients.pop(key, None)
        if client is None:
            return []
        dropped = list(client.queue)
        client.queue.clear()
        if client.ready_since is not None:
            self._unqueue(key)
        self._extra.pop(key, None)
        for batch in client.batches:
            batch.cancelled = True
        return dropped

    def submit(self, key: Hashable, job: Any, now: float) -> None:
        """Queue ``job`` after the connection's earlier ones."""
        client = self._clients[key]
        client.queue.append(job)
        if client.ready_since is None and not client.held:
            self._settle(key, client, now)

    def hold(self, key: Hashable) -> None:
        """Connection ``key``'s reply window is full: no new batch for it until :meth:`release`.

        It leaves the queue (a held connection is not waiting for a worker: the wait bound does not run). Its
        running batch is cut by the server between jobs; a paused one resumes in its turn (its job is started).
        """
        client = self._clients.get(key)
        if client is None or client.held:
            return
        client.held = True
        self._extra.pop(key, None)
        if client.ready_since is not None:
            self._unqueue(key)
            client.ready_since = None

    def release(self, key: Hashable, now: float) -> None:
        """Connection ``key``'s reply window has room again: its jobs queue as for a connection that had none."""
        client = self._clients.get(key)
        if client is None or not client.held:
            return
        client.held = client.ahead_full = False
        self._settle(key, client, now)

    def held(self, key: Hashable) -> bool:
        """True while connection ``key`` is held (:meth:`hold`); read by workers between jobs."""
        client = self._clients.get(key)
        return client is not None and client.held

    # -- workers -------------------------------------------------------------

    def next_decision(self, now: float) -> Decision | None:
        """What to do now, or None when there is nothing to do (or no free worker).

        Call it again after carrying out a decision: a :class:`Refuse` needs no worker, so several may come in a row.
        """
        oldest = self._oldest_waiting()
        if oldest is not None:
            key, client = oldest
            assert client.ready_since is not None
            if now - client.ready_since > self.queue_timeout:
                self._unqueue(key)
                return self._refuse(key, client, f"queue wait over {self.queue_timeout:g} s")
        while self._heap:
            entry = self._heap[0]
            head = entry[2]
            if self._queued.get(head) is not entry:  # withdrawn: skip
                heapq.heappop(self._heap)
                continue
            if isinstance(head, Batch):
                if self.running >= self.workers:
                    return None
                return self._resume(entry, now)
            client = self._clients[head]
            if not client.queue:  # everything was withdrawn meanwhile
                self._unqueue(head)
                client.ready_since = None
                continue
            self._refill(client, now)
            if client.tokens <= 0:
                self._unqueue(head)
                refusal = self._refuse(
                    head,
                    client,
                    f"connection budget used ({self.budget_seconds:g} solver seconds per {self.budget_window:g} s)",
                )
                refusal.budget = True
                return refusal
            if self.running >= self.workers:
                return None
            self._unqueue(head)
            self.floor = max(self.floor, entry[0])
            client.ready_since = None
            return self._start(head, client, now)
        return self._start_extra(now)

    def refusal_due(self) -> float | None:
        """When the longest-waiting connection passes the wait bound (None: none waits).

        The server asks :meth:`next_decision` again at that time, so the
        ``busy`` answer comes when the bound passes even if no worker frees up.
        """
        oldest = self._oldest_waiting()
        if oldest is None:
            return None
        assert oldest[1].ready_since is not None
        return oldest[1].ready_since + self.queue_timeout

    def pause(self, batch: Batch, now: float) -> None:
        """``batch`` gives up its worker in the middle of a job and waits for another."""
        self._charge(batch, now)
        self.running -= 1
        batch.paused = True
        client = self._clients.get(batch.key)
        self._enqueue(batch, client)

    def resume_now(self, batch: Batch, now: float) -> None:
        """The paused ``batch`` takes a worker back at once, out of turn: its job passed its wall-time bound and
        only ends (``ERROR timeout``). Nothing happens when it has been resumed already."""
        entry = self._queued.get(batch)
        if entry is not None:
            self._resume(entry, now)

    def give_back(self, batch: Batch, jobs: list[Any], now: float) -> None:
        """The running ``batch`` will not run ``jobs`` (a bulk job split at a slow puzzle it goes on solving):
        back to the front of its connection's queue now, for a free worker (an extra batch, or in its turn)."""
        client = self._clients.get(batch.key)
        if client is not None and batch in client.batches:  # (else the connection is gone)
            client.queue.extendleft(reversed(jobs))
            self._settle(batch.key, client, now)

    def finished(self, batch: Batch, now: float, unfinished: list[Any] | None = None) -> None:
        """``batch`` ended (done, cut at its slice, or cancelled); its worker is free.

        Args:
          unfinished: its jobs that did not run (the batch was cut at its time
            slice); they go back to the front of the connection's queue.
        """
        self._charge(batch, now)
        self.running -= 1
        client = self._clients.get(batch.key)
        if client is None or batch not in client.batches:
            return  # the connection is gone
        client.ended(batch)
        if unfinished:
            client.queue.extendleft(reversed(unfinished))
        self._settle(batch.key, client, now)

    # -- internals -----------------------------------------------------------

    def _budget_now(self, client: _Client, now: float) -> float:
        """Solver seconds ``client`` has left, its batches' running slices taken (read from worker threads too)."""
        running = sum(now - batch.slice_started for batch in tuple(client.batches) if not batch.paused)
        return client.tokens_at(now, self.budget_seconds, self.budget_window) - running

    def _settle(self, key: Hashable, client: _Client, now: float) -> None:
        """Where ``key`` (not queued) stands: queued (jobs, no batch), may start an extra batch, or neither."""
        if not client.queue or client.held:
            self._extra.pop(key, None)
        elif client.batches:
            self._extra[key] = None
        else:
            self._extra.pop(key, None)
            client.ready_since = now
            self._enqueue(key, client)

    def _start(self, key: Hashable, client: _Client, now: float, extra: bool = False) -> Start:
        """Start a batch of connection ``key`` on a free worker, of :func:`_batch_length` jobs: its share over
        the free workers and its batches running (they come back for more)."""
        free = 0 if self._queued else self.workers - self.running + sum(not b.paused for b in client.batches)
        size = _batch_length(client.queue, self.batch_size, free, self.parallel, extra, self.weight)
        jobs = [client.queue.popleft() for _ in range(size)]
        batch = Batch(key, jobs, started=now, slice_started=now, extra=extra)
        client.batches.append(batch)
        self.running += 1
        self._settle(key, client, now)
        return Start(batch)

    def _start_extra(self, now: float) -> Start | None:
        """Nothing waits, a worker is free: an extra batch of the least served connection that may (or None)."""
        if self._queued or self.running >= self.workers or not self._extra:
            return None
        best: tuple[float, Hashable, _Client] | None = None
        for key in self._extra:
            client = self._clients[key]
            self._refill(client, now)
            if not (self._budget_now(client, now) > 0 and not client.ahead_full and self.parallel(client.queue[0])):
                continue
            if best is None or client.vtime < best[0]:
                best = (client.vtime, key, client)
        if best is None:
            return None
        vtime, key, client = best
        self.floor = max(self.floor, vtime)
        return self._start(key, client, now, extra=True)

    def vtime(self, key: Hashable) -> float:
        """Connection ``key``'s virtual time (solver seconds, on the scheduler's scale)."""
        return self._clients[key].vtime

    def _enqueue(self, item: Hashable | Batch, client: _Client | None) -> None:
        """``item`` (a connection's key, or a paused batch) waits for a worker, by its virtual time.

        A connection that had no work comes in at ``floor - time_slice`` at
        the latest: before those that kept working, one slice ahead at most.
        """
        vtime = self.floor
        if client is not None:
            client.vtime = max(client.vtime, self.floor - self.time_slice)
            vtime = client.vtime
        entry = [vtime, next(self._sequence), item]
        self._queued[item] = entry
        heapq.heappush(self._heap, entry)
        if isinstance(item, Batch):
            self._paused_count += 1
            self._paused_weight += item.pause_weight
        if not isinstance(item, Batch):
            self._since[item] = None

    def _unqueue(self, item: Hashable | Batch) -> None:
        """``item`` no longer waits (its heap entry is skipped when it comes up)."""
        if self._queued.pop(item, None) is not None and isinstance(item, Batch):
            self._paused_count -= 1
            self._paused_weight -= item.pause_weight
        self._since.pop(item, None)
        if not self._queued:
            self._heap.clear()

    def _resume(self, entry: list[Any], now: float) -> Resume:
        batch = entry[2]
        self._unqueue(batch)
        self.floor = max(self.floor, entry[0])
        batch.paused = False
        batch.slice_started = now
        self.running += 1
        return Resume(batch)

    def _oldest_waiting(self) -> tuple[Hashable, _Client] | None:
        """(key, client) of the connection waiting longest with jobs, or None (``_since`` is in ready order)."""
        for key in self._since:
            client = self._clients[key]
            if client.queue:
                return key, client
        return None

    def _refuse(self, key: Hashable, client: _Client, reason: str) -> Refuse:
        client.ready_since = None
        jobs = list(client.queue)
        client.queue.clear()
        return Refuse(key, jobs, reason)

    def _charge(self, batch: Batch, now: float) -> None:
        spent = max(0.0, now - batch.slice_started)
        batch.used += spent
        client = self._clients.get(batch.key)
        if client is not None:
            self._refill(client, now)
            client.tokens -= spent
            client.used += spent
            client.vtime += spent

    def _refill(self, client: _Client, now: float) -> None:
        client.tokens = client.tokens_at(now, self.budget_seconds, self.budget_window)
        client.refilled = now
