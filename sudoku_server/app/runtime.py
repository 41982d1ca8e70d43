"""The server process: run_server, its signals, its logging queue, the metrics HTTP server.

:func:`run` is one server process from start to exit status (``sudoku-server``
without ``--workers``); :func:`run_server` is the part under ``trio.run``,
which a pre-forked worker of :mod:`sudoku_server.app.workers` runs too.
"""

from __future__ import annotations

import atexit
import errno
import functools
import logging
import logging.handlers
import os
import queue
import signal
import sys
import threading
from typing import NoReturn, cast

import trio

from sudoku_server.net.balance import AcceptBalance, BalancedListener
from sudoku_server.net.config import ServerConfig
from sudoku_server.net.http_bind import listen_sockets
from sudoku_server.net.metrics_http import serve_http
from sudoku_server.net.server import SudokuServer

log = logging.getLogger("sudoku_server")

#: Signals that stop the server gracefully. SIGHUP is what a closed terminal
#: sends; SIGQUIT is Ctrl-\\.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
#: Signals a terminal sends to its whole process group (Ctrl-C, Ctrl-\\, hang-up).
TERMINAL_SIGNALS = (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP)
#: A second one of these closes the open connections at once.
HURRY_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: Log records held for the writer thread at most; more are dropped (and
#: counted) so that a stderr nobody reads never stops the server.
LOG_QUEUE_RECORDS = 10000


async def run_server(
    config: ServerConfig, sockets=None, on_ready=None, balance: AcceptBalance | None = None, http_sockets=None
) -> None:
    """Serve until a stop signal, then shut down gracefully.

    Args:
      config: the settings.
      sockets: listening stdlib sockets to serve (a pre-forked worker's,
        inherited from the supervisor); None binds ``config.host``/``port``.
      on_ready: called once the server accepts connections.
      balance: with ``sockets``, the supervisor's table of open connections
        per worker, its ``slot`` this worker's: the worker with the fewest
        accepts first (``net.balance``).
      http_sockets: with ``sockets``, the supervisor's listening sockets of
        ``--http-port``; None binds ``config.http_port`` here (when set).

    Signals: SIGTERM, SIGINT, SIGHUP and SIGQUIT drain (``--drain-grace``),
    stop accepting and let open connections finish within
    ``shutdown_grace``; a second SIGTERM or SIGINT closes them at once;
    SIGUSR1 logs one line of counters; SIGUSR2 (sent by the supervisor to a
    worker it retires) stops at once without draining.

    Raises:
      OSError: the address cannot be bound (before anything is served).
    """
    server = SudokuServer(config, balance=balance if sockets is not None else None)
    listeners: list
    if sockets is None:
        listeners = await server.open_listeners()
    elif balance is not None:
        listeners = [BalancedListener(sock, balance) for sock in sockets]
    else:
        listeners = [trio.SocketListener(trio.socket.from_stdlib_socket(sock)) for sock in sockets]
    if sockets is None and config.http_port is not None:
        try:
            http_sockets = listen_sockets(config.host, config.http_port)
        except OSError as error:
            for listener in listeners:
                await listener.aclose()
            raise HttpPortError(error) from error
    log.info("%s, %d solver thread(s)", server.version_text(), config.solver_threads)
    metrics_http = None
    if config.metrics_port is not None and sockets is None:
        try:
            metrics_http = start_metrics_http(server.metrics, config.host, config.metrics_port)
        except OSError as error:
            raise MetricsPortError(error) from error
    stop_signals: tuple[signal.Signals, ...] = STOP_SIGNALS
    if sockets is not None:
        # A pre-forked worker: the terminal's signals reach the whole process
        # group; the supervisor passes on what they mean (SIGTERM).
        for signum in TERMINAL_SIGNALS:
            signal.signal(signum, signal.SIG_IGN)
        stop_signals = (signal.SIGTERM,)
    with trio.open_signal_receiver(*stop_signals, signal.SIGUSR1, signal.SIGUSR2) as signals:
        async with trio.open_nursery() as nursery:

            async def watch() -> None:
                stopping = False
                async for signum in signals:
                    name = signal.Signals(signum).name
                    if signum == signal.SIGUSR1:
                        log.info("%s", server.stats_line())
                    elif signum == signal.SIGUSR2 and not stopping:
                        log.info("retired by the supervisor: stopping without a drain")
                        server.shutdown()
                        stopping = True
                    elif not stopping:
                        log.info("received %s: shutting down (SIGTERM again to close connections now)", name)
                        server.stop()
                        stopping = True
                    elif signum in HURRY_SIGNALS:
                        log.info("received %s again: closing open connections now", name)
                        server.close_connections()

            nursery.start_soon(watch)
            if sockets is not None:
                nursery.start_soon(_watch_supervisor, server, os.getppid())
            try:
                await nursery.start(functools.partial(server.serve, listeners=listeners, http_sockets=http_sockets))
                if on_ready is not None:
                    on_ready()
                await server.stopped.wait()
            finally:
                if metrics_http is not None:
                    metrics_http.shutdown()
                    metrics_http.server_close()
            nursery.cancel_scope.cancel()


#: Seconds between a worker's checks that its supervisor is alive.
SUPERVISOR_CHECK_SECONDS = 1.0


async def _watch_supervisor(server: SudokuServer, parent: int) -> None:
    """A worker whose supervisor died (it is re-parented) stops gracefully, as on SIGTERM."""
    while os.getppid() == parent:
        await trio.sleep(SUPERVISOR_CHECK_SECONDS)
    log.warning("the supervisor (pid %d) is gone: stopping", parent)
    server.stop()


def start_metrics_http(metrics, host: str | None, port: int):
    """Serve ``metrics`` (Prometheus text) over HTTP in a thread; returns the HTTP server.

    Uses prometheus_client's WSGI app on a bounded server
    (:func:`sudoku_server.net.metrics_http.serve_http`: any path answers the
    metrics; a connection lives 3 s at most). The counters are copied into
    the metrics twice a second and before a scrape is rendered.

    Raises:
      OSError: the port cannot be bound.
    """

    class _Fresh:
        """A registry view that syncs the counters before each scrape.

        prometheus_client's handler calls ``collect`` for a whole scrape and
        ``restricted_registry`` for ``?name[]=...`` filters.
        """

        def collect(self):
            metrics.sync()
            return metrics.collecting_registry().collect()

        def restricted_registry(self, names):
            metrics.sync()
            return metrics.collecting_registry().restricted_registry(names)

    server = serve_http(_Fresh(), host, port)
    log.info("metrics on http://%s:%d/metrics", host or "0.0.0.0", server.server_address[1])
    return server


class DroppingQueueHandler(logging.handlers.QueueHandler):
    """A QueueHandler that never blocks: when the queue is full the record is dropped and counted.

    The count is logged once the writer thread catches up.
    """

    def __init__(self, records: queue.Queue) -> None:
        super().__init__(records)
        self.dropped = 0
        self._lock_dropped = threading.Lock()

    def enqueue(self, record: logging.LogRecord) -> None:
        records = cast("queue.Queue[logging.LogRecord]", self.queue)
        if self.dropped and records.qsize() < records.maxsize // 2:
            with self._lock_dropped:
                dropped, self.dropped = self.dropped, 0
            if dropped:
                note = logging.LogRecord(
                    record.name,
                    logging.WARNING,
                    __file__,
                    0,
                    "logging fell behind: %d record(s) dropped",
                    (dropped,),
                    None,
                )
                try:
                    self.queue.put_nowait(self.prepare(note))
                except queue.Full:
                    with self._lock_dropped:
                        self.dropped += dropped
        try:
            self.queue.put_nowait(record)
        except queue.Full:
            with self._lock_dropped:
                self.dropped += 1


def setup_logging(
    level: str, stream=None, records: int = LOG_QUEUE_RECORDS, with_pid: bool = False
) -> logging.handlers.QueueListener:
    """Log to ``stream`` (stderr) through a bounded queue and a writer thread.

    Returns the started listener; stop it before exiting to flush the queue.
    Call it in the process that serves (a pre-forked worker calls it itself,
    after the fork).
    """
    held: queue.Queue = queue.Queue(records)
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    pid = " [%(process)d]" if with_pid else ""  # a pre-forked worker says which it is
    handler.setFormatter(logging.Formatter(f"%(asctime)s %(levelname)s{pid} %(message)s"))
    listener = logging.handlers.QueueListener(held, handler, respect_handler_level=False)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(DroppingQueueHandler(held))
    root.setLevel(getattr(logging, level.upper()))
    listener.start()
    return listener


class MetricsPortError(OSError):
    """The ``--metrics-port`` cannot be bound (``args[0]``: the OSError)."""


class HttpPortError(OSError):
    """The ``--http-port`` cannot be bound (``args[0]``: the OSError)."""


def log_listen_error(config: ServerConfig, error: OSError) -> None:
    """Log why the server cannot listen: the address, the option to change and, if in use, a hint."""
    port: int | None
    option, port = "--port", config.port
    if isinstance(error, MetricsPortError):
        option, port, error = "--metrics-port", config.metrics_port, error.args[0]
    elif isinstance(error, HttpPortError):
        option, port, error = "--http-port", config.http_port, error.args[0]
    where = f"{config.host or 'all interfaces'} port {port}"
    hint = f" (is another server running? choose another with {option})" if error.errno == errno.EADDRINUSE else ""
    log.error("cannot listen on %s: %s%s", where, error.strerror or error, hint)


def run(config: ServerConfig, log_level: str = "info", log_queue: int = LOG_QUEUE_RECORDS) -> int:
    """One server process (no ``--workers``): queued logging, then :func:`run_server`.

    Returns the exit status: 0 after a stop signal, 1 when the address (or
    the ``--metrics-port``) cannot be bound, logged with a hint.
    """
    listener = setup_logging(log_level, records=log_queue)
    try:
        trio.run(run_server, config)
    except OSError as error:
        log_listen_error(config, error)
        return 1
    finally:
        listener.stop()
    return 0


def exit_now(status: int) -> NoReturn:
    """End the process with ``status`` once the server has stopped, without tearing the interpreter down.

    A normal exit frees every object one by one and unloads every module:
    after a large request (a heap of a few hundred MB) that took seconds
    after ``server stopped`` was logged, with the port already closed, so a
    supervisor or systemd waited for nothing. The exit handlers still run
    (``atexit``: coverage, prometheus_client), and standard output and
    standard error are flushed; then ``os._exit``.
    """
    try:
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(status)
