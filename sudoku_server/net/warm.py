"""The warm pools' filler: makes GENERATE puzzles by level in idle solver time, at the lowest priority (issue 20).

What to make is :class:`sudoku_server.service.warm.WarmPools`' (pure); this
module runs it. :class:`WarmFiller` is one trio task per server process.
While no pool wants a puzzle (nobody asked for a level, or every pool is
full) it waits on an event and uses no CPU: a server nobody asked for a
level stays idle. Otherwise it makes one puzzle at a time with
:func:`sudoku_server.service.answer.answer` in a thread of its own, under
three rules kept by the ``check`` hook the domain calls at least once per
millisecond of work:

* **Lowest priority.** It runs only while the scheduler is idle (no batch
  runs, none waits, no inline solving nor GENERATE in the last time slice:
  :attr:`Scheduler.idle <sudoku_server.net.scheduler.Scheduler.idle>`). It
  never takes a worker from the scheduler: a connection's batch starts at
  once, and the filler pauses at its next ``check`` (within a millisecond
  or so, well within one time slice), until the scheduler is idle again.
* **CPU share, overhead included.** A token bucket of CPU seconds
  (:class:`sudoku_server.service.warm.CpuBudget`) refilled at ``share``
  seconds per second and holding one time slice at most: filling takes at
  most ``share`` of one core on average (``--warm-pool-cpu``, divided
  between ``--workers``: each worker's share is the total over N). It is
  charged the *process's* CPU (``time.process_time``) while the filler
  works and the server is otherwise idle: the thread hops, the event loop's
  wake-ups and the bookkeeping count, not only the puzzle's own work (issue
  32: counting the thread alone, 8 % became 9.6-10.2 % of a core in one
  process and 11.3-11.7 % under ``--workers 2``). Over its share, the
  filler rests until the bucket is full again, in one sleep (0.1 s at
  most, to see the server stop), then works a whole time slice: resting
  only until the debt was paid, it woke every few tens of microseconds of
  work, and the wake-ups cost as much again as the work.
* **Bounded effort.** A puzzle that takes more than the solve timeout of
  CPU is given up and its pool dropped (a band nothing rates in); the next
  request for it starts it again.
"""

from __future__ import annotations

import logging
import math
import time
from typing import TYPE_CHECKING

import trio

from sudoku_server.net.config import ServerConfig
from sudoku_server.service.answer import answer
from sudoku_server.service.requests import Generate
from sudoku_server.service.results import Generated
from sudoku_server.service.warm import CpuBudget, PoolKey, WarmPools
from sudoku_server.wire import replies

if TYPE_CHECKING:
    from sudoku_server.net.scheduler import Scheduler

log = logging.getLogger("sudoku_server")

#: Seconds between two looks at the scheduler while the filler waits for it to be idle. The filler is the
#: lowest priority: resuming 20 ms late costs nothing, looking 200 times a second cost a busy server CPU.
POLL_SECONDS = 0.02
#: The longest single sleep of a paused filler thread (seconds), so that it sees the server stop.
MAX_REST_SECONDS = 0.1


#: What the filler's thread returns for a pool to drop.
_DROP = object()


class _Stopped(BaseException):
    """Raised by the filler's ``check``: the server stops."""


class _GaveUp(BaseException):
    """Raised by the filler's ``check``: this puzzle used its CPU bound (the solve timeout)."""


class WarmFiller:
    """Fills the warm pools of one server process (module docstring).

    Args:
      pools: what to make and where it goes.
      scheduler: the server's scheduler (read only: is it idle?).
      share: fraction of one core the filling may use on average (0 < share <= 1).
      time_slice: seconds; the most CPU the filler spends in one go, and how
        long after inline solving the scheduler still counts as busy.
      give_up: CPU seconds one puzzle may take (the solve timeout).

    Attributes (read by STATS and the metrics):
      cpu_seconds: CPU charged to the filling, in all (the process's while it filled: overhead included).
      made: puzzles made; yields: times it paused for a connection.
    """

    def __init__(
        self, pools: WarmPools, scheduler: Scheduler, *, share: float, time_slice: float, give_up: float
    ) -> None:
        self.pools = pools
        self.scheduler = scheduler
        self.share = share
        self.time_slice = time_slice
        self.give_up = give_up
        self.cpu_seconds = 0.0
        self.made = 0
        self.yields = 0
        self.budget = CpuBudget(share, time_slice, time.monotonic()) if share > 0 else None
        self._mark = time.process_time()  # the process's CPU charged up to here
        self._wake = trio.Event()
        self._stop = False
        self._limiter = trio.CapacityLimiter(1)
        self._asked_at = -math.inf

    def take(self, request: Generate, ending: str = "\n") -> bytes | None:
        """On the event loop: the reply to a GENERATE from its warm pool (``# ... pool=yes``), or None.

        Counts the request towards its pool (the first for a level starts
        it) and wakes the filler: a pool started or lost a puzzle.
        """
        if self.pools.target <= 0:
            return None
        self._asked_at = time.monotonic()  # a client is here: the filler pauses for a time slice
        made = self.pools.take(request)
        self._wake.set()
        return None if made is None else replies.render(made, ending)

    def gauges(self) -> tuple[list[tuple[str, int]], int, float]:
        """The pools now (the metrics): ``(label, puzzles ready)`` each, puzzles served from them, CPU seconds used."""
        return self.pools.levels(), self.pools.served, self.cpu_seconds

    def idle(self) -> bool:
        """True when the scheduler is idle and no GENERATE came in the last time slice (from any thread: plain
        attribute reads)."""
        scheduler = self.scheduler
        quiet = time.monotonic() - self.time_slice
        return scheduler.idle and scheduler.charged_at < quiet and self._asked_at < quiet

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Fill until cancelled. Supports ``nursery.start``."""
        task_status.started()
        try:
            while True:
                key = self.pools.wanted()
                if key is None or self.share <= 0:
                    await self._wake.wait()
                    self._wake = trio.Event()
                    continue
                if not self.idle():  # a client is served: rest
                    await trio.sleep(POLL_SECONDS)
                    continue
                rest = self._rest()
                if rest > 0:  # the CPU share is used: rest the debt off
                    await trio.sleep(rest)
                    continue
                self._mark = time.process_time()  # from here on, the process's CPU is the filling's
                made = await trio.to_thread.run_sync(self._make, key, abandon_on_cancel=True, limiter=self._limiter)
                if isinstance(made, Generated):
                    self.made += 1
                    self.pools.put(key, made)
                elif made is _DROP:
                    self.pools.drop(key)
                self._charge()  # the hop back and the bookkeeping
        finally:
            self._stop = True

    def _rest(self) -> float:
        """Seconds to rest before filling more (0: go on; over the share: until the bucket is full again)."""
        assert self.budget is not None
        return self.budget.rest_to_full(time.monotonic())

    def _charge_overhead(self, seconds: float) -> None:
        self.cpu_seconds += seconds
        if self.budget is not None:
            self.budget.charge(seconds)

    def _charge(self) -> None:
        """Charge the process's CPU since the last mark to the filling (from the filler's thread or the loop)."""
        now = time.process_time()
        used = max(0.0, now - self._mark)
        self._mark = now
        self.cpu_seconds += used
        if self.budget is not None:
            self.budget.charge(used)

    def _make(self, key: PoolKey) -> Generated | object | None:
        """In the filler's thread: one puzzle for ``key``; None when stopped; :data:`_DROP`: drop the pool
        (given up, or the request failed)."""
        mark = [time.thread_time()]
        spent = [0.0]  # this puzzle's own CPU (the thread's): bounded by give_up

        def account() -> None:
            now = time.thread_time()
            spent[0] += now - mark[0]
            mark[0] = now
            self._charge()

        def check() -> None:
            if self._stop:
                raise _Stopped()
            account()
            if spent[0] > self.give_up:
                raise _GaveUp()
            if self.idle() and self._rest() <= 0:
                return
            if not self.idle():
                self.yields += 1
            paused = time.thread_time()
            while True:  # paused: the thread sleeps, holding nothing
                if not self.idle():
                    time.sleep(POLL_SECONDS)
                elif (rest := self._rest()) > 0:
                    time.sleep(min(rest, MAX_REST_SECONDS))
                else:
                    break
                if self._stop:
                    raise _Stopped()
            mark[0] = time.thread_time()
            self._mark = time.process_time()  # the others' CPU during a pause is not the filling's ...
            self._charge_overhead(mark[0] - paused)  # ... but the pause's own looking and waking is

        try:
            result = answer(key.request(), check=check)
        except _Stopped:
            return None
        except _GaveUp:
            log.warning("warm pool %s: no puzzle within %g CPU seconds; pool dropped", key.label, self.give_up)
            return _DROP
        finally:
            account()
        if not isinstance(result, Generated):
            log.warning("warm pool %s: %s; pool dropped", key.label, result)
            return _DROP
        return result


def warm_filler(config: ServerConfig, scheduler: Scheduler) -> WarmFiller:
    """The filler of one server process, with its pools: ``--warm-pool`` puzzles each, ``--warm-pool-cpu``
    split between ``--workers``, one time slice at a time, each puzzle bounded by the solve timeout."""
    share = config.warm_pool_cpu / max(1, config.workers) if math.isfinite(config.warm_pool_cpu) else 0.0
    return WarmFiller(
        WarmPools(config.warm_pool),
        scheduler,
        share=share,
        time_slice=config.time_slice,
        give_up=config.solve_timeout,
    )
