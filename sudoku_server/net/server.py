"""The TCP server: accept loop, admission, lifecycle.

Shape (SERVING.md)::

    socket --bytes--> Session (sans-I/O) --events--> replies, in request order
       ^                                               | solver jobs
       |                                               v
     writer <--answers, one send per run-- SolverPool (carries out the Scheduler)

:class:`SudokuServer` accepts connections (retrying when out of descriptors),
admits them (``--max-connections`` with a reserve for health checks,
``--max-connections-per-ip``, the PROXY header), runs each as a
:class:`~sudoku_server.net.connection.Connection` and shares one
:class:`~sudoku_server.net.pool.SolverPool` between them. Its lifecycle
follows PROTOCOL.md ("Connection lifecycle"): the drain grace, the shutdown
grace, and the final flush of ``ERROR shutdown`` lines, as one state machine
(:class:`~sudoku_server.net.lifecycle.ServerLifecycle`). The fronts (the line
connections, the HTTP front) see the server only through
:class:`~sudoku_server.net.services.FrontServices`.
"""

from __future__ import annotations

import errno
import logging
import math
import os
import time
from collections.abc import Callable

import trio

from sudoku_server import __version__
from sudoku_server.net.balance import NOT_ACCEPTING, AcceptBalance
from sudoku_server.net.config import ServerConfig
from sudoku_server.net.connection import FINAL_FLUSH_SECONDS, RECEIVE_SIZE, Connection
from sudoku_server.net.lifecycle import Admission, ServerLifecycle, ServerState
from sudoku_server.net.metrics import Counts, Metrics, quantile
from sudoku_server.net.pool import SolverPool
from sudoku_server.net.services import FrontServices
from sudoku_server.net.warm import warm_filler
from sudoku_server.service.answer import PROTOCOL, Solvers
from sudoku_server.service.results import VersionInfo
from sudoku_server.sudoku import solver as _solver
from sudoku_server.wire import replies
from sudoku_server.wire.proxy import NoProxyHeaderError, ProxyHeaderError, is_trusted, parse_proxy_header

log = logging.getLogger("sudoku_server")

#: accept() errors that mean "out of descriptors or memory": wait and retry.
ACCEPT_CAPACITY_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS})
#: Seconds between accept() retries when out of descriptors (as trio's serve_listeners).
ACCEPT_RETRY_SLEEP = 0.1
#: Seconds between two log lines about the same accept() condition.
ACCEPT_ERROR_LOG_INTERVAL = 10.0
#: Connections accepted above --max-connections for health checks: such a
#: connection may ask PING, VERSION, HELP, STATS and QUIT; anything else is
#: answered "ERROR busy ... connections open" and the connection closes.
PING_RESERVE = 8
#: Seconds without a complete line (nor a reply) after which a connection
#: with nothing to answer may lose its slot to a newcomer when every slot
#: is taken (the one idle longest goes first). Programs send a request's
#: lines within a fraction of a second; 2 s spares them.
EVICT_IDLE_SECONDS = 2.0
#: Seconds a connection has to send its PROXY header (--proxy-protocol).
PROXY_HEADER_SECONDS = 5.0
#: Seconds between two copies of the counters into the Prometheus metrics.
METRICS_SYNC_SECONDS = 0.5


def _peer_name(stream) -> str:
    try:
        addr = stream.socket.getpeername()
        return f"{addr[0]}:{addr[1]}" if ":" not in addr[0] else f"[{addr[0]}]:{addr[1]}"
    except (OSError, AttributeError, IndexError):
        return "?"


class SudokuServer:
    """A sudoku-server bound to its config; run with :meth:`serve`.

    One unit because accepting, admitting, draining and stopping all read and
    change the one set of open connections and the lifecycle.

    Args:
      config: the settings.
      solve: the solver, ``solve(grid, *, check) -> Grid`` (a parameter so
        tests can pass a fake that spins while calling ``check()``).
      balance: a pre-forked worker's share of the table of open connections
        per worker (``net.balance``): this server publishes its count there,
        and its listeners (``BalancedListener``) read it. None: one process.
    """

    def __init__(
        self, config: ServerConfig, *, solve: Callable | None = None, balance: AcceptBalance | None = None
    ) -> None:
        self.config = config
        self.balance = balance
        self._accepted = 0  # streams accepted and not yet closed (published to the balance)
        self.solve = solve if solve is not None else _solver.solve
        #: Plain one-line puzzles go to the solver in bulk (BULK_PUZZLES):
        #: with the native core, whose searches call check() only after
        #: 0.5 ms (a slow puzzle then leaves the bulk), and the real solver.
        self.bulk = solve is None and _solver.CORE == "native"
        self._solvers: Solvers | None = None
        self.stats = Counts()
        self.connections: set[Connection] = set()
        self.lifecycle = ServerLifecycle()
        self.http = None  # the HTTP front (net.http.HttpFront) when serving http_sockets
        self.pool = SolverPool(config, self.stats, lambda: self.services.context(), self.lifecycle)
        #: GENERATE by level without a seed, made ahead in idle solver time (issue 20; net/warm.py).
        self.filler = warm_filler(config, self.pool.scheduler)
        self.metrics = Metrics(self.stats, self._gauges, self.filler.gauges)
        self.admission = Admission(self.connections, config.max_connections, PING_RESERVE, EVICT_IDLE_SECONDS)
        #: What the fronts see of the server (the line connections, the HTTP front).
        self.services = FrontServices(
            config,
            self.stats,
            self.pool,
            self.lifecycle,
            self.admission,
            self.filler,
            solvers=lambda: self.solvers,
            bulk=lambda: self.bulk,
            fast=lambda: self.bulk and _solver.is_own_solve(self.solve),
            stats_pairs=self.stats_pairs,
            busy_line=self.busy_line,
        )
        self._accept_scope: trio.CancelScope | None = None
        self._handler_nursery: trio.Nursery | None = None

    # -- the lifecycle (one state machine: net.lifecycle.ServerState) ------------------------

    @property
    def draining(self) -> bool:
        """True once a stop signal came with a drain grace: PING answers ``ERROR draining``."""
        return self.lifecycle.draining

    @property
    def stopping(self) -> bool:
        """True once the shutdown grace is over: what is left is answered ``ERROR shutdown``."""
        return self.lifecycle.stopping

    @property
    def stopped(self) -> trio.Event:
        """Set once :meth:`serve` has returned."""
        return self.lifecycle.event(ServerState.STOPPED)

    @property
    def accepting_stopped(self) -> trio.Event:
        """Set once the server stopped accepting (the HTTP front stops too)."""
        return self.lifecycle.event(ServerState.CLOSING)

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

    async def serve(self, *, listeners=None, http_sockets=None, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Listen and serve until :meth:`shutdown` or cancellation.

        Args:
          listeners: already bound listeners (from :meth:`open_listeners`);
            None binds the configured address here.
          http_sockets: listening sockets for the HTTP front (``--http-port``, :mod:`.http`), or None.

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
                await pool_nursery.start(self.filler.run)
                pool_nursery.start_soon(self._sync_metrics)
                if http_sockets:
                    self.http = await start_http(self.services, http_sockets, pool_nursery)
                async with trio.open_nursery() as handler_nursery:
                    self._handler_nursery = handler_nursery
                    with trio.CancelScope() as accept_scope:
                        self._accept_scope = accept_scope
                        if self.lifecycle.closing:
                            accept_scope.cancel()
                        async with trio.open_nursery() as accept_nursery:
                            for listener in listeners:
                                accept_nursery.start_soon(self._accept_loop, listener, handler_nursery)
                            self._publish()
                            task_status.started(listeners)
                    self._publish()  # not accepting any more: the other workers take every newcomer
                    for listener in listeners:
                        await listener.aclose()
                    http = f", {self.http.in_progress} HTTP request(s) in progress" if self.http else ""
                    log.info("stopped accepting; %d connection(s) finishing%s", len(self.connections), http)
                    handler_nursery.start_soon(self._stop_after_grace, handler_nursery)
                if self.http is not None:
                    await self.http.done.wait()  # its requests in progress get the shutdown grace too
                pool_nursery.cancel_scope.cancel()
        finally:
            for listener in listeners:
                await trio.aclose_forcefully(listener)
            self.lifecycle.advance(ServerState.STOPPED)
        log.info("server stopped")

    async def _sync_metrics(self) -> None:
        """Copy the counters into the Prometheus metrics twice a second."""
        while True:
            await trio.sleep(METRICS_SYNC_SECONDS)
            self.metrics.sync()

    async def _stop_after_grace(self, handler_nursery: trio.Nursery) -> None:
        """After the shutdown grace (or a second signal): answer what is left, close."""
        deadline = trio.current_time() + self.config.shutdown_grace
        lifecycle = self.lifecycle
        while self.connections and not lifecycle.hurried:
            # A connection accepted just before the listener closed may start after the
            # last one ended (seen under load in a rolling restart): it gets the grace too.
            with trio.move_on_at(deadline) as scope:
                await lifecycle.changed()  # a second signal, or the last connection done
            if scope.cancelled_caught:
                break
        if not self.connections:
            return
        log.info("shutdown grace over: answering %d connection(s) 'ERROR shutdown' and closing", len(self.connections))
        lifecycle.advance(ServerState.STOPPING)
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
        if not self.lifecycle.advance(ServerState.DRAINING):  # before the log line: a reader of the log may rely on it
            return  # draining or closing already
        log.info("draining for %g s: PING answers ERROR draining", grace)

        async def drain() -> None:
            with trio.move_on_after(grace):
                while not self.lifecycle.hurried and not self.lifecycle.closing:
                    await self.lifecycle.changed()  # a second signal ends the drain at once
            self.shutdown()

        self._handler_nursery.start_soon(drain)

    def close_connections(self) -> None:
        """End every open connection now (a second SIGTERM/SIGINT); serve() then returns."""
        self.shutdown()
        self.lifecycle.hurry()

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
                self._accepted += 1
                self._publish()
                handler_nursery.start_soon(self._handle, stream)

    def _publish(self) -> None:
        """Tell the other workers how many connections this one has open (``net.balance``)."""
        if self.balance is not None:
            accepting = self._accept_scope is not None and not self._accept_scope.cancel_called
            self.balance.publish(self._accepted if accepting else NOT_ACCEPTING)

    def shutdown(self) -> None:
        """Stop accepting; connections go on for ``shutdown_grace`` s, then stop (PROTOCOL.md).

        During the grace they are still read, so a client that sent its
        puzzles before the signal gets them answered; at its end, reading
        stops and what is left is answered ``ERROR shutdown``.
        """
        self.lifecycle.advance(ServerState.CLOSING)
        if self._accept_scope is not None:
            self._accept_scope.cancel()
        self._publish()

    @property
    def shutting_down(self) -> bool:
        """True once the server stopped accepting (after the drain grace)."""
        return self.lifecycle.closing

    @property
    def solvers(self) -> Solvers:
        """What ``service.answer`` solves with: :attr:`solve` for SOLVE and bare puzzles (tests may swap it)."""
        solvers = self._solvers
        if solvers is None or solvers.solve is not self.solve:
            solvers = self._solvers = Solvers(solve=self.solve)
        return solvers

    @property
    def version(self) -> str:
        """The package version (VERSION, STATS)."""
        return __version__

    @property
    def idle_timeout(self) -> float:
        """Seconds of silence that end a held session (``KEEPALIVE on: ...``)."""
        return self.config.idle_timeout

    @property
    def interactive_timeout(self) -> float:
        """Seconds of silence that end an interactive session (``INTERACTIVE on: ...``)."""
        return self.config.interactive_timeout

    def version_text(self) -> str:
        """``sudoku-server <version> protocol=2 core=<core>`` (the startup log; VERSION renders the same)."""
        return replies.version_text(VersionInfo(__version__, PROTOCOL, _solver.CORE))

    def _gauges(self) -> tuple:
        scheduler = self.pool.scheduler
        return len(self.connections), scheduler.queued_jobs, scheduler.running, scheduler.paused

    def stats_pairs(self) -> list[tuple]:
        """The STATS fields, ``(name, value)`` in order (docs/PROTOCOL.md "STATS"; :func:`stats_pairs`)."""
        return stats_pairs(self)

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
                if not is_trusted(address, cfg.trusted_proxies):
                    log.warning("%s refused: not a trusted proxy (--trusted-proxy), its PROXY header not read", peer)
                    await self._refuse(stream, peer, replies.proxy_untrusted_line(address))
                    return
                try:
                    source, initial = await read_proxy_header(stream)
                except trio.TooSlowError:
                    log.warning("%s refused: no PROXY header within %g s", peer, PROXY_HEADER_SECONDS)
                    await self._refuse(stream, peer, replies.proxy_missing_line(PROXY_HEADER_SECONDS))
                    return
                except ProxyHeaderError as error:
                    log.warning("%s refused: %s", peer, error)
                    line = (
                        replies.proxy_missing_line()
                        if isinstance(error, NoProxyHeaderError)
                        else replies.proxy_bad_header_line(str(error))
                    )
                    await self._refuse(stream, peer, line)
                    return
                if source is not None:  # the client's own address, relayed by a trusted proxy
                    proxy = address
                    address = source[0]
                    peer = f"{address}:{source[1]}" if ":" not in address else f"[{address}]:{source[1]}"
                    peer += f" via {proxy}"
            # A connection accepted just before the listener closed is served
            # like the others during the shutdown grace.
            cap = cfg.max_connections_per_ip
            if cap and self.admission.from_address(address) >= cap:  # a lingering session holds no place
                log.warning("%s refused: %d connections open from %s (limit)", peer, cap, address)
                await self._refuse(stream, peer, replies.connections_busy_line(cap, address))
                return
            # At the limit a newcomer is a reserve connection (health checks);
            # an idle session may give up its place before anyone is refused.
            reserve = self.admission.place_for_newcomer()
            if reserve is None:
                log.warning(
                    "%s refused: all %d connections in use and the %d reserve places taken (none idle for %g s)",
                    peer,
                    cfg.max_connections,
                    PING_RESERVE,
                    EVICT_IDLE_SECONDS,
                )
                await self._refuse(stream, peer, self.busy_line())
                return
            connection = Connection(self.services, stream, peer, initial=initial, reserve=reserve)
            self.connections.add(connection)
            self.admission.hold_address(connection, address)
            self.stats.connections_total += 1
            started = time.perf_counter()
            log.debug("%s connected", peer)
            try:
                await connection.run()
            finally:
                self.connections.discard(connection)
                self.admission.closed(connection)
                if self.lifecycle.closing and not self.connections:
                    self.lifecycle.poke()  # the last connection is done: the shutdown grace need not wait
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
            self._accepted -= 1
            self._publish()
            await trio.aclose_forcefully(stream)

    def busy_line(self) -> bytes:
        """The reply that refuses a connection at the connection limit (it then closes)."""
        return replies.connections_busy_line(self.config.max_connections)

    async def _refuse(self, stream: trio.SocketStream, peer: str, line: bytes) -> None:
        self.stats.connections_rejected += 1
        try:
            with trio.move_on_after(1):
                await stream.send_all(line)
                await stream.send_eof()
            with trio.move_on_after(1):
                while await stream.receive_some(65536):
                    pass
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass


def stats_pairs(server: SudokuServer) -> list[tuple]:
    """The STATS fields of ``server``, ``(name, value)`` in order (docs/PROTOCOL.md "STATS").

    Counters are summed over every worker process, gauges over the live
    ones, and the percentiles come from the merged solve-time histogram.
    """
    totals = server.metrics.totals()
    replies = totals["replies"]
    buckets = totals["buckets"]
    total = totals.get("sudoku_solve_seconds_sum")
    p50, p99 = quantile(buckets, 0.5, total), quantile(buckets, 0.99, total)
    pairs = [
        ("pid", os.getpid()),
        ("uptime", int(time.time() - server.stats.started)),
        ("version", __version__),
        ("protocol", PROTOCOL),
        ("core", _solver.CORE),
        ("workers", server.config.workers),
        ("solver_threads", server.config.solver_threads),
        ("connections_current", int(totals.get("sudoku_connections_open", 0))),
        ("connections_total", int(totals.get("sudoku_connections_total", 0))),
        ("connections_rejected", int(totals.get("sudoku_connections_rejected_total", 0))),
        ("puzzles", int(totals.get("sudoku_solver_requests_total", 0))),
        ("answers", int(sum(replies.values()))),
    ]
    pairs += [(f"errors_{code.replace('-', '_')}", int(n)) for code, n in sorted(replies.items()) if code != "answered"]
    pairs += [
        ("solver_seconds", float(totals.get("sudoku_solver_busy_seconds_total", 0.0))),
        ("queued", int(totals.get("sudoku_queued", 0))),
        ("running", int(totals.get("sudoku_running", 0))),
        ("paused", int(totals.get("sudoku_paused", 0))),
        ("solve_ms_p50", round(p50 * 1000, 3) if p50 is not None else 0.0),
        ("solve_ms_p99", round(p99 * 1000, 3) if p99 is not None else 0.0),
        ("pool_served", int(totals.get("sudoku_warm_pool_served_total", 0))),
        ("pool_fill_seconds", float(totals.get("sudoku_warm_pool_fill_seconds_total", 0.0))),
    ]
    pairs += [(f"pool_{label}", int(n)) for label, n in sorted(totals["pools"].items())]
    return pairs


async def start_http(server: FrontServices, sockets, nursery: trio.Nursery):
    """Start the HTTP front (:class:`sudoku_server.net.http.HttpFront`) of a server (what it gives its fronts:
    ``server``) on ``sockets``; returns it.

    Starlette and Hypercorn are imported here, when ``--http-port`` is used.
    """
    from sudoku_server.net.http import HttpFront

    front = HttpFront(server)
    await nursery.start(front.serve, sockets)
    return front


async def read_proxy_header(stream: trio.SocketStream):
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


async def serve(config: ServerConfig, *, solve: Callable | None = None, task_status=trio.TASK_STATUS_IGNORED) -> None:
    """Run a :class:`SudokuServer` with ``config`` until cancelled.

    Supports ``nursery.start`` (reports the listeners). Cancellation closes
    every connection at once.
    """
    await SudokuServer(config, solve=solve).serve(task_status=task_status)
