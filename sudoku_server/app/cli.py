"""The ``sudoku-server`` command: options -> :class:`ServerConfig`, logging, trio.run."""

from __future__ import annotations

import argparse
import errno
import functools
import logging
import logging.handlers
import os
import queue
import signal
import sys
import threading

import trio

from sudoku_server import __version__
from sudoku_server.net.config import ServerConfig
from sudoku_server.net.server import SudokuServer

log = logging.getLogger("sudoku_server")

DESCRIPTION = """\
A plain-text TCP service that solves Sudoku puzzles. Send a puzzle (a bordered
grid, 9 rows of 9 cells, or one line of 81 cells; '.', '0' or '_' for an empty
cell) and read the solved grid back in the same layout, or one line
'ERROR <code> <detail>'. Several puzzles per connection are answered in order.
Example: nc 127.0.0.1 9999 < puzzles/newspaper.txt
"""


def _number(kind, low, high=None, *, above: bool = False, extra: str = ""):
    """An argparse type: ``kind`` (int or float) from ``low`` (excluded when ``above``) to ``high``."""

    def parse(text: str):
        if extra and text == extra:
            return os.cpu_count() or 1
        value = kind(text)
        if value < low or (above and value == low) or (high is not None and value > high) or value != value:
            if high is not None:
                bound = f"{low}..{high}" + (f" or {extra}" if extra else "")
            else:
                bound = f"{'>' if above else '>='} {low}"
            raise argparse.ArgumentTypeError(f"must be {bound}, got {text}")
        return value

    return parse


_positive_float = _number(float, 0, above=True)
_non_negative_float = _number(float, 0)
_positive_int = _number(int, 1)
_non_negative_int = _number(int, 0)
_port = _number(int, 0, 65535)
#: --workers: 1..256, or "auto" for one per CPU.
_workers = _number(int, 1, 256, extra="auto")


def build_parser() -> argparse.ArgumentParser:
    d = ServerConfig()
    p = argparse.ArgumentParser(
        prog="sudoku-server",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default=None, help="address to listen on (default: all interfaces)")
    p.add_argument("--port", type=_port, default=d.port, help="TCP port, 0 for any free one (default: %(default)s)")
    p.add_argument(
        "--solve-timeout",
        type=_positive_float,
        default=d.solve_timeout,
        metavar="SECONDS",
        help="longest time one puzzle may take, then 'ERROR timeout' (default: %(default)s)",
    )
    p.add_argument(
        "--idle-timeout",
        type=_positive_float,
        default=d.idle_timeout,
        metavar="SECONDS",
        help="wait between lines before the first answer, and the longest a client"
        " may leave an answer unread (default: %(default)s)",
    )
    p.add_argument(
        "--close-grace",
        type=_positive_float,
        default=d.close_grace,
        metavar="SECONDS",
        help="silence after an answer that ends the session, for clients that never"
        " half-close such as plain nc (default: %(default)s)",
    )
    p.add_argument(
        "--max-line-bytes",
        type=_positive_int,
        default=d.max_line_bytes,
        metavar="BYTES",
        help="longest line accepted, then 'ERROR too-large' and close (default: %(default)s)",
    )
    p.add_argument(
        "--max-connections",
        type=_positive_int,
        default=d.max_connections,
        metavar="N",
        help="connections served at once, more get 'ERROR busy' (default: %(default)s)",
    )
    p.add_argument(
        "--workers",
        type=_workers,
        default=None,
        metavar="N",
        help="run N worker processes on the same socket under a supervisor (pre-fork;"
        " 'auto': one per CPU; SIGHUP then restarts them one by one); fairness,"
        " budgets and limits hold per worker (default: one process, no supervisor)",
    )
    p.add_argument(
        "--solver-threads",
        type=_positive_int,
        default=d.solver_threads,
        metavar="N",
        help="puzzles solved at once in worker threads (default: %(default)s)",
    )
    p.add_argument(
        "--shutdown-grace",
        type=_positive_float,
        default=d.shutdown_grace,
        metavar="SECONDS",
        help="time open connections get to finish after SIGTERM, SIGINT, SIGHUP or"
        " SIGQUIT; puzzles still unanswered then get 'ERROR shutdown'; a second"
        " SIGTERM/SIGINT closes them at once (default: %(default)s)",
    )
    p.add_argument(
        "--interactive-timeout",
        type=_positive_float,
        default=d.interactive_timeout,
        metavar="SECONDS",
        help="silence that ends an interactive session (a person typing: after INTERACTIVE,"
        " or when input arrives with pauses of over 1 s) (default: %(default)s)",
    )
    p.add_argument(
        "--queue-timeout",
        type=_positive_float,
        default=d.queue_timeout,
        metavar="SECONDS",
        help="longest a connection's puzzles wait for a solver worker, then"
        " 'ERROR busy queue wait over ... s' (default: %(default)s)",
    )
    p.add_argument(
        "--connection-budget",
        type=_positive_float,
        default=d.budget_seconds,
        metavar="SECONDS",
        help="solver seconds one connection may use at once, refilled over"
        " --budget-window; past it its puzzles get 'ERROR busy connection budget"
        " used' (default: %(default)s)",
    )
    p.add_argument(
        "--budget-window",
        type=_positive_float,
        default=d.budget_window,
        metavar="SECONDS",
        help="seconds in which a connection's budget refills completely (default: %(default)s)",
    )
    p.add_argument(
        "--drain-grace",
        type=_non_negative_float,
        default=d.drain_grace,
        metavar="SECONDS",
        help="after a stop signal, keep accepting for this long and answer PING with"
        " 'ERROR draining', so a load balancer takes the server out before it"
        " stops accepting (default: %(default)s; the recipes in deploy/ use 2)",
    )
    p.add_argument(
        "--proxy-protocol",
        action="store_true",
        help="every connection starts with a PROXY protocol v1 or v2 header (HAProxy"
        " send-proxy); its address is used in logs and --max-connections-per-ip;"
        " a connection without one is closed",
    )
    p.add_argument(
        "--max-connections-per-ip",
        type=_non_negative_int,
        default=d.max_connections_per_ip,
        metavar="N",
        help="connections one address may hold, more get 'ERROR busy'; 0 for no cap (default: %(default)s)",
    )
    p.add_argument(
        "--metrics-port",
        type=_port,
        default=None,
        metavar="PORT",
        help="serve Prometheus metrics (text format, /metrics) on this port, same --host (default: off)",
    )
    p.add_argument(
        "--log-level",
        default="info",
        choices=["debug", "info", "warning", "error"],
        help="log verbosity on stderr; debug adds a line per puzzle (default: %(default)s)",
    )
    p.add_argument(
        "--log-queue",
        type=_positive_int,
        default=LOG_QUEUE_RECORDS,
        metavar="RECORDS",
        help="log records held while stderr is slow; more are dropped and counted,"
        " so logging never stops serving (default: %(default)s)",
    )
    p.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__} (protocol 2)", help="print the version and exit"
    )
    return p


def config_from_args(args: argparse.Namespace) -> ServerConfig:
    return ServerConfig(
        host=args.host,
        port=args.port,
        solve_timeout=args.solve_timeout,
        idle_timeout=args.idle_timeout,
        close_grace=args.close_grace,
        max_line_bytes=args.max_line_bytes,
        max_connections=args.max_connections,
        solver_threads=args.solver_threads,
        shutdown_grace=args.shutdown_grace,
        queue_timeout=args.queue_timeout,
        interactive_timeout=args.interactive_timeout,
        drain_grace=args.drain_grace,
        proxy_protocol=args.proxy_protocol,
        max_connections_per_ip=args.max_connections_per_ip,
        metrics_port=args.metrics_port,
        workers=args.workers or 1,
        budget_seconds=args.connection_budget,
        budget_window=args.budget_window,
    )


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


async def run_server(config: ServerConfig, sockets=None, on_ready=None) -> None:
    """Serve until a stop signal, then shut down gracefully.

    Args:
      config: the settings.
      sockets: listening stdlib sockets to serve (a pre-forked worker's,
        inherited from the supervisor); None binds ``config.host``/``port``.
      on_ready: called once the server accepts connections.

    Signals: SIGTERM, SIGINT, SIGHUP and SIGQUIT drain (``--drain-grace``),
    stop accepting and let open connections finish within
    ``shutdown_grace``; a second SIGTERM or SIGINT closes them at once;
    SIGUSR1 logs one line of counters; SIGUSR2 (sent by the supervisor to a
    worker it retires) stops at once without draining.

    Raises:
      OSError: the address cannot be bound (before anything is served).
    """
    server = SudokuServer(config)
    if sockets is None:
        listeners = await server.open_listeners()
    else:
        listeners = [trio.SocketListener(trio.socket.from_stdlib_socket(sock)) for sock in sockets]
    log.info("%s, %d solver thread(s)", server.version_text(), config.solver_threads)
    metrics_http = None
    if config.metrics_port is not None and sockets is None:
        try:
            metrics_http = start_metrics_http(server.metrics, config.host, config.metrics_port)
        except OSError as error:
            raise MetricsPortError(error) from error
    stop_signals = STOP_SIGNALS
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
                await nursery.start(functools.partial(server.serve, listeners=listeners))
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

    Uses prometheus_client's own exposition server (any path answers the
    metrics). The counters are copied into the metrics twice a second.
    """
    import prometheus_client

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

    server, _thread = prometheus_client.start_http_server(port, addr=host or "", registry=_Fresh())
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
        if self.dropped and self.queue.qsize() < self.queue.maxsize // 2:
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


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``sudoku-server``; returns the exit status."""
    args = build_parser().parse_args(argv)
    config = config_from_args(args)
    if args.workers is not None:  # even --workers 1: SIGHUP then means a rolling restart
        return _supervise(config, args)
    listener = setup_logging(args.log_level, records=args.log_queue)
    try:
        trio.run(run_server, config)
    except OSError as error:
        _listen_error(config, error)
        return 1
    finally:
        listener.stop()
    return 0


class MetricsPortError(OSError):
    """The ``--metrics-port`` cannot be bound (``args[0]``: the OSError)."""


def _listen_error(config: ServerConfig, error: OSError) -> None:
    option, port = "--port", config.port
    if isinstance(error, MetricsPortError):
        option, port, error = "--metrics-port", config.metrics_port, error.args[0]
    where = f"{config.host or 'all interfaces'} port {port}"
    hint = f" (is another server running? choose another with {option})" if error.errno == errno.EADDRINUSE else ""
    log.error("cannot listen on %s: %s%s", where, error.strerror or error, hint)


def _supervise(config: ServerConfig, args: argparse.Namespace) -> int:
    """``--workers N``: the pre-fork supervisor (sudoku_server.app.workers).

    The supervisor logs straight to stderr (it starts no thread before it
    forks; its few lines are lifecycle events); each worker sets up its own
    queued logging.
    """
    from sudoku_server.app.workers import Supervisor

    logging.basicConfig(
        level=getattr(logging, args.log_level.upper()),
        stream=sys.stderr,
        format="%(asctime)s %(levelname)s %(message)s",
        force=True,
    )
    try:
        return Supervisor(config, args.log_level, args.log_queue).run()
    except OSError as error:
        _listen_error(config, error)
        return 1
