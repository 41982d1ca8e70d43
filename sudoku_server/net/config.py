"""ServerConfig: the settings of one server, each a ``sudoku-server`` option.

Lives in the network layer (not :mod:`sudoku_server.app`) because the server
reads it and ``net`` may not import ``app``; :mod:`sudoku_server.app.cli`
builds one from the command line.
"""

from __future__ import annotations

from dataclasses import dataclass

from sudoku_server.net import scheduler as _scheduler
from sudoku_server.wire.proxy import Network
from sudoku_server.wire.session import DEFAULT_MAX_LINE_BYTES

#: The longest timeout, grace, budget or window any option accepts, in
#: seconds (a day): anything longer (or infinite, or NaN) is refused at start,
#: so that a stop signal always ends in bounded time.
MAX_SECONDS = 86400.0
#: Fraction of one core the warm pools' filling may use, over all worker processes (``--warm-pool-cpu``).
DEFAULT_WARM_POOL_CPU = 0.08

#: Seconds of inline solving per read of a connection (:attr:`ServerConfig.inline_seconds`): 2 ms, a tenth
#: of the scheduler's time slice, about 200 top1465 puzzles or 700 kaggle ones with the native core.
DEFAULT_INLINE_SECONDS = 0.002


@dataclass
class ServerConfig:
    """Settings of one server; each is a command-line option of ``sudoku-server``.

    Attributes:
      host: address to bind; None for all interfaces (IPv4 and IPv6).
      port: TCP port; 0 picks a free one (tests).
      solve_timeout: seconds of its own solving time one puzzle may take
        before ``ERROR timeout`` (time paused for others does not count).
      idle_timeout: seconds to wait between lines before the first answer; also
        the longest a client may leave an answer unread before it is dropped.
      close_grace: seconds of silence after an answer that end the session,
        never while a line's end has not arrived (that line waits for the idle
        timeout, whatever it holds) (PROTOCOL.md: 0.5 s answered 1000 of
        1000 grids trickled in 4 KB chunks every 300 ms); None (``--close-grace
        off``): no close grace, every session is held as after ``KEEPALIVE``
        (for a port that serves programs holding their connections).
      linger_time: seconds to read and discard after half-closing.
      max_line_bytes: longest accepted line, in bytes.
      max_connections: connections served at once; more get ``ERROR busy``.
      solver_threads: batches solved at once (worker threads that compute;
        paused ones wait in threads of their own).
      shutdown_grace: seconds in-flight connections get after SIGTERM/SIGINT.
      queue_timeout: seconds a connection's puzzles may wait for a worker
        before they are answered ``ERROR busy queue wait over ... s``.
      time_slice: seconds a batch runs while others wait before it yields.
      batch_size: jobs per batch at most.
      budget_seconds, budget_window: each connection may use
        ``budget_seconds`` solver seconds at once, refilled over
        ``budget_window`` seconds; past it, ``ERROR busy connection budget used``.
      interactive_timeout: seconds of silence that end an interactive session
        (a person at the keyboard: no close grace).
      workers: worker processes serving the same socket (``--workers``; this
        process is one of them).
      proxy_protocol: every connection starts with a PROXY v1/v2 header
        (from a load balancer); its address is the peer's.
      trusted_proxies: the networks a PROXY header is honoured from
        (``--trusted-proxy``); a peer outside them is refused with ``ERROR
        proxy``. Empty: every peer is refused (the command line refuses to
        start ``--proxy-protocol`` without one).
      max_connections_per_ip: connections one address may hold; 0: no cap.
      drain_grace: seconds after a stop signal during which the server
        keeps accepting and answers ``PING`` with ``ERROR draining`` (so a
        load balancer takes it out), before it stops accepting.
      metrics_port: serve Prometheus metrics over HTTP on this port (None: off).
      http_port: serve the HTTP/JSON API, ``/healthz`` and the web page on this port, same host (None: off;
        docs/HTTP.md).
      http_max_body: bytes of an HTTP request body at most; more is answered ``413``.
      http_cors: the origins the API allows (``Access-Control-Allow-Origin``); ``("*",)`` any; ``()`` no CORS.
      http_trusted_proxies: the networks whose ``X-Forwarded-For`` names the HTTP client (``--http-trusted-proxy``);
        empty: the peer's address is the client's.
      inline_seconds: seconds of solving a connection's plain one-line puzzles may take on the event loop
        per read, before the rest go to the solver threads (``--inline-budget``; 0: every puzzle goes to
        the threads, as before issue 18). ARCHITECTURE.md "The request path".
      warm_pool: puzzles kept ready per pool for GENERATE by level without a seed (``--warm-pool``; 0: no pools).
      warm_pool_cpu: fraction of one core the filling may use on average, split between the worker
        processes (``--warm-pool-cpu``). OPERATIONS.md "Warm pools".
    """

    host: str | None = None
    port: int = 9999
    solve_timeout: float = 10.0
    idle_timeout: float = 60.0
    close_grace: float | None = 0.5
    linger_time: float = 2.0
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    max_connections: int = 1024
    solver_threads: int = 2
    shutdown_grace: float = 5.0
    queue_timeout: float = _scheduler.DEFAULT_QUEUE_TIMEOUT
    time_slice: float = _scheduler.DEFAULT_TIME_SLICE
    batch_size: int = _scheduler.DEFAULT_BATCH_SIZE
    budget_seconds: float = _scheduler.DEFAULT_BUDGET_SECONDS
    budget_window: float = _scheduler.DEFAULT_BUDGET_WINDOW
    interactive_timeout: float = 300.0
    workers: int = 1
    proxy_protocol: bool = False
    trusted_proxies: tuple[Network, ...] = ()
    max_connections_per_ip: int = 0
    drain_grace: float = 0.0
    metrics_port: int | None = None
    inline_seconds: float = DEFAULT_INLINE_SECONDS
    http_port: int | None = None
    http_max_body: int = 1024 * 1024
    http_cors: tuple[str, ...] = ("*",)
    http_trusted_proxies: tuple[Network, ...] = ()
    warm_pool: int = 32
    warm_pool_cpu: float = DEFAULT_WARM_POOL_CPU
