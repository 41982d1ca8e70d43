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
* **CPU share.** A token bucket of CPU seconds (the thread's own
  ``time.thread_time``) refilled at ``share`` seconds per second and
  holding one time slice at most: filling takes at most ``share`` of one
  core on average (``--warm-pool-cpu``, split between ``--workers``).
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
from sudoku_server.service.warm import PoolKey, WarmPools
from sudoku_server.wire import replies

if TYPE_CHECKING:
    from sudoku_server.net.scheduler import Scheduler

log = logging.getLogger("sudoku_server")

#: Seconds between two looks at the scheduler while the filler waits for it to be idle (or for CPU tokens).
POLL_SECONDS = 0.005


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
      cpu_seconds: CPU the filler's thread used, in all.
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
        self._tokens = time_slice
        self._refilled = time.monotonic()
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
                tokens = self._refill()
                if not self.idle() or tokens < 0:  # a client is served, or the CPU share is used: rest
                    await trio.sleep(max(POLL_SECONDS, -tokens / self.share))
                    continue
                made = await trio.to_thread.run_sync(self._make, key, abandon_on_cancel=True, limiter=self._limiter)
                if isinstance(made, Generated):
                    self.made += 1
                    self.pools.put(key, made)
                elif made is _DROP:
                    self.pools.drop(key)
        finally:
            self._stop = True

    def _refill(self) -> float:
        """The CPU tokens now (seconds; negative: a debt to rest off)."""
        now = time.monotonic()
        self._tokens = min(self.time_slice, self._tokens + (now - self._refilled) * self.share)
        self._refilled = now
        return self._tokens

    def _make(self, key: PoolKey) -> Generated | object | None:
        """In the filler's thread: one puzzle for ``key``; None when stopped; :data:`_DROP`: drop the pool
        (given up, or the request failed)."""
        mark = [time.thread_time()]
        spent = [0.0]

        def account() -> None:
            now = time.thread_time()
            used = now - mark[0]
            mark[0] = now
            spent[0] += used
            self.cpu_seconds += used
            self._tokens -= used

        def check() -> None:
            if self._stop:
                raise _Stopped()
            account()
            if spent[0] > self.give_up:
                raise _GaveUp()
            if self.idle() and self._refill() >= 0:
                return
            if not self.idle():
                self.yields += 1
            while not self.idle() or self._refill() < 0:  # paused: the thread sleeps, holding nothing
                time.sleep(POLL_SECONDS)
                if self._stop:
                    raise _Stopped()
            mark[0] = time.thread_time()

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
