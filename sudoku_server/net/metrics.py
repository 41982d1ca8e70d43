"""Metrics: what the server counts, as Prometheus metrics and as the STATS block.

The serving code counts in plain ints (:class:`Counts`, cheap on the hot
path); :meth:`Metrics.sync` copies them into ``prometheus_client`` metrics
every half second and before every read. Both readers, the STATS verb and
the ``--metrics-port`` endpoint, read those metrics, so they agree.

With ``--workers N`` every worker process writes its metrics to files in
``PROMETHEUS_MULTIPROC_DIR`` (``prometheus_client``'s multiprocess mode, set
by the supervisor before the workers start and before ``prometheus_client``
is imported); readers then merge all workers' files: counters are summed,
gauges of live workers summed, and the solve-time percentiles come from the
merged histogram.

``prometheus_client`` is imported only when a :class:`Metrics` is made, so
that the mode is chosen by the environment at that time.

The ``--metrics-port`` endpoint that serves them is
:mod:`sudoku_server.net.metrics_http`.
"""

from __future__ import annotations

import bisect
import collections
import itertools
import math
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any

#: Upper bounds (seconds) of the solve-time histogram's buckets, each 1.25x
#: the one below, from 20 us to 20 s: 9x9 puzzles take 0.01-5 ms, hopeless
#: ones run to the 10 s solve timeout. A percentile read off the histogram
#: is then within 25% of the true value.
SOLVE_BUCKETS = tuple(round(0.00002 * 1.25**k, 9) for k in range(63)) + (math.inf,)


def observe_runs(histogram: Any, times: list[float]) -> None:
    """Observe ``times`` (seconds) in a ``prometheus_client`` Histogram, a run of equal times at once.

    A bulk job counts each of its requests its share of the bulk's time (``SolverPool.solved``): runs of
    equal times. ``Histogram.observe`` costs 1.4 µs a time on the event loop (a bucket searched in Python, two
    locked increments); a run of ``n`` adds ``n`` to its bucket and ``n`` times the time to the sum, as ``n``
    observes would (the Histogram's ``_upper_bounds``, ``_buckets`` and ``_sum``, prometheus_client 0.25-0.26;
    a Histogram without them gets one observe a time).
    """
    bounds, buckets, total = (getattr(histogram, name, None) for name in ("_upper_bounds", "_buckets", "_sum"))
    for seconds, run in itertools.groupby(times):
        count = sum(1 for _ in run)
        if count == 1 or bounds is None or buckets is None or total is None:
            for _ in range(count):
                histogram.observe(seconds)
            continue
        total.inc(seconds * count)
        buckets[bisect.bisect_left(bounds, seconds)].inc(count)


@dataclass
class Counts:
    """The counters of one server process, kept as plain numbers on the hot path.

    Attributes:
      connections_total, connections_rejected: accepted; refused (``busy``,
        per-address cap, shutdown, bad PROXY header).
      puzzles: solver requests received; answers: replies sent.
      replies: replies sent by outcome (``answered`` or the ERROR code), on the line port.
      http_requests: HTTP API requests answered, by (endpoint, status): ``("solve", 200)``.
      solver_seconds: time batches held a worker.
      solve_times: per solver request, its own solving seconds, since the last sync.
    """

    started: float = field(default_factory=time.time)
    connections_total: int = 0
    connections_rejected: int = 0
    puzzles: int = 0
    answers: int = 0
    replies: dict[str, int] = field(default_factory=lambda: collections.defaultdict(int))
    http_requests: dict[tuple[str, int], int] = field(default_factory=lambda: collections.defaultdict(int))
    solver_seconds: float = 0.0
    solve_times: list[float] = field(default_factory=list)

    @property
    def errors(self) -> dict[str, int]:
        """Replies that were ``ERROR <code>``, by code."""
        return {code: n for code, n in self.replies.items() if code != "answered"}


def multiprocess_dir() -> str | None:
    """The directory of the workers' metric files, when running as pre-forked workers."""
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def multiprocess_dir_problem() -> str | None:
    """What is wrong with a ``PROMETHEUS_MULTIPROC_DIR`` set in the environment, or None.

    The text names the variable and the path: ``PROMETHEUS_MULTIPROC_DIR=/x
    is not a directory`` (missing, or a file) or ``... is not a writable
    directory`` (prometheus_client writes one file per process there).
    """
    path = multiprocess_dir()
    if path is None:
        return None
    if not os.path.isdir(path):
        return f"PROMETHEUS_MULTIPROC_DIR={path} is not a directory"
    if not os.access(path, os.W_OK | os.X_OK):
        return f"PROMETHEUS_MULTIPROC_DIR={path} is not a writable directory"
    return None


class Metrics:
    """The Prometheus metrics of one server process (see the module docstring).

    Args:
      counts: the process's :class:`Counts`.
      gauges: a function returning ``(open connections, queued, running,
        paused)`` now.
      pools: a function returning the warm pools now: ``([(label, puzzles
        ready), ...], puzzles served from them, the filler's CPU seconds)``;
        None: no pools.
    """

    def __init__(self, counts: Counts, gauges, pools=None) -> None:
        import prometheus_client as prom

        self._prom = prom
        self.counts = counts
        self._gauges = gauges
        self.multiprocess = multiprocess_dir() is not None
        self.registry = prom.CollectorRegistry(auto_describe=True)
        reg = self.registry
        self.connections = prom.Counter("sudoku_connections", "Connections accepted", registry=reg)
        self.rejected = prom.Counter(
            "sudoku_connections_rejected",
            "Connections refused (busy, per-address cap, shutdown, PROXY header)",
            registry=reg,
        )
        self.requests = prom.Counter(
            "sudoku_solver_requests", "Solver requests received (puzzles, GENERATE)", registry=reg
        )
        self.replies = prom.Counter(
            "sudoku_replies", "Replies sent, by outcome (answered or the ERROR code)", ["outcome"], registry=reg
        )
        self.http_requests = prom.Counter(
            "sudoku_http_requests",
            "HTTP API requests answered, by endpoint and status",
            ["endpoint", "status"],
            registry=reg,
        )
        self.solver_seconds = prom.Counter(
            "sudoku_solver_busy_seconds", "Seconds solver workers were busy", registry=reg
        )
        self.solve_time = prom.Histogram(
            "sudoku_solve_seconds", "Own solving time of each solver request", buckets=SOLVE_BUCKETS, registry=reg
        )
        mode: dict[str, Any] = {"multiprocess_mode": "livesum"} if self.multiprocess else {}
        self.open = prom.Gauge("sudoku_connections_open", "Connections open now", registry=reg, **mode)
        self.queued = prom.Gauge("sudoku_queued", "Solver requests waiting for a worker", registry=reg, **mode)
        self.running = prom.Gauge("sudoku_running", "Batches being solved", registry=reg, **mode)
        self.paused = prom.Gauge("sudoku_paused", "Batches paused for other connections", registry=reg, **mode)
        self._pools = pools
        self.pool_ready = prom.Gauge(
            "sudoku_warm_pool_puzzles",
            "Puzzles ready in each warm pool (GENERATE by level)",
            ["pool"],
            registry=reg,
            **mode,
        )
        self.pool_served = prom.Counter(
            "sudoku_warm_pool_served", "GENERATE requests answered from a warm pool", registry=reg
        )
        self.pool_fill = prom.Counter(
            "sudoku_warm_pool_fill_seconds", "CPU seconds spent filling the warm pools", registry=reg
        )
        self._pool_labels: set[str] = set()
        self._pool_done = (0, 0.0)
        self._synced = Counts()
        self._synced.replies = {}
        self._synced.http_requests = {}
        self._lock = threading.Lock()  # the metrics endpoint's thread syncs too

    def sync(self) -> None:
        """Copy what was counted since the last sync into the Prometheus metrics."""
        with self._lock:
            self._sync()

    def _sync(self) -> None:
        counts, done = self.counts, self._synced
        for name, metric in (
            ("connections_total", self.connections),
            ("connections_rejected", self.rejected),
            ("puzzles", self.requests),
        ):
            delta = getattr(counts, name) - getattr(done, name)
            if delta:
                metric.inc(delta)
                setattr(done, name, getattr(counts, name))
        for outcome, n in list(counts.replies.items()):
            delta = n - done.replies.get(outcome, 0)
            if delta:
                self.replies.labels(outcome).inc(delta)
                done.replies[outcome] = n
        for (endpoint, status), n in list(counts.http_requests.items()):
            delta = n - done.http_requests.get((endpoint, status), 0)
            if delta:
                self.http_requests.labels(endpoint, str(status)).inc(delta)
                done.http_requests[(endpoint, status)] = n
        delta = counts.solver_seconds - done.solver_seconds
        if delta > 0:
            self.solver_seconds.inc(delta)
            done.solver_seconds = counts.solver_seconds
        times, counts.solve_times = counts.solve_times, []
        observe_runs(self.solve_time, times)
        open_, queued, running, paused = self._gauges()
        self.open.set(open_)
        self.queued.set(queued)
        self.running.set(running)
        self.paused.set(paused)
        if self._pools is not None:
            self._sync_pools()

    def _sync_pools(self) -> None:
        levels, served, fill = self._pools()
        labels = set()
        for label, ready in levels:
            self.pool_ready.labels(label).set(ready)
            labels.add(label)
        for gone in self._pool_labels - labels:  # a pool dropped (evicted): its line goes
            if self.multiprocess:
                # prometheus_client cannot remove a label from the workers' files: it stays, at 0
                self.pool_ready.labels(gone).set(0)
            else:
                self.pool_ready.remove(gone)
        self._pool_labels = labels
        done_served, done_fill = self._pool_done
        if served > done_served:
            self.pool_served.inc(served - done_served)
        if fill > done_fill:
            self.pool_fill.inc(fill - done_fill)
        self._pool_done = (max(served, done_served), max(fill, done_fill))

    def collecting_registry(self):
        """The registry to read: this process's, or all workers' merged."""
        if not self.multiprocess:
            return self.registry
        from prometheus_client import multiprocess

        # the merged collector names no metric before it reads the files: taken without names, so that a
        # ``?name[]=`` filter (``restricted_registry``) still reads it (prometheus_client 0.25)
        registry = self._prom.CollectorRegistry(support_collectors_without_names=True)
        multiprocess.MultiProcessCollector(registry)
        return registry

    def exposition(self) -> bytes:
        """The metrics in Prometheus text format (what ``--metrics-port`` serves)."""
        self.sync()
        return self._prom.generate_latest(self.collecting_registry())

    def totals(self) -> dict[str, Any]:
        """Merged values: ``{metric or sample name: value}``; replies by outcome; histogram buckets."""
        self.sync()
        out: dict[str, Any] = {"replies": {}, "buckets": [], "pools": {}}
        for family in self.collecting_registry().collect():
            for sample in family.samples:
                if sample.name == "sudoku_replies_total":
                    out["replies"][sample.labels["outcome"]] = (
                        out["replies"].get(sample.labels["outcome"], 0) + sample.value
                    )
                elif sample.name == "sudoku_warm_pool_puzzles":
                    label = sample.labels["pool"]
                    out["pools"][label] = out["pools"].get(label, 0) + sample.value
                elif sample.name == "sudoku_solve_seconds_bucket":
                    out["buckets"].append((float(sample.labels["le"]), sample.value))
                elif not sample.labels:
                    out[sample.name] = out.get(sample.name, 0) + sample.value
        merged: dict[float, float] = collections.defaultdict(float)
        for bound, value in out["buckets"]:
            merged[bound] += value
        out["buckets"] = sorted(merged.items())
        return out


def quantile(buckets: list[tuple[float, float]], q: float, total: float | None = None) -> float | None:
    """The ``q`` quantile (0..1) of a cumulative histogram, as Prometheus' histogram_quantile.

    Linear interpolation inside the bucket that holds it; None when empty.
    ``total``, the sum of the observations, caps the estimate: no observation
    exceeds it (one solve of 0.105 s is never reported as 0.11 s).
    """
    value = _quantile(buckets, q)
    if value is not None and total is not None:
        value = min(value, total)
    return value


def _quantile(buckets: list[tuple[float, float]], q: float) -> float | None:
    if not buckets or buckets[-1][1] <= 0:
        return None
    total = buckets[-1][1]
    rank = q * total
    lower_bound, lower_count = 0.0, 0.0
    for bound, count in buckets:
        if count >= rank:
            if math.isinf(bound):
                return lower_bound
            if count == lower_count:
                return bound
            return lower_bound + (bound - lower_bound) * (rank - lower_count) / (count - lower_count)
        lower_bound, lower_count = bound, count
    return lower_bound
