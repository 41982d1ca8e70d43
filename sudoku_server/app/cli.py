"""The ``sudoku-server`` command: argparse only (options -> :class:`ServerConfig`).

:func:`main` hands the config to :mod:`sudoku_server.app.runtime` (one process)
or to :mod:`sudoku_server.app.workers` (``--workers``, the pre-fork
supervisor). Nothing imports this module: it is the entry point
(``sudoku-server``, ``python -m sudoku_server``).
"""

from __future__ import annotations

import argparse
import math
import os
from typing import NoReturn

from sudoku_server import __version__
from sudoku_server.app import runtime, workers
from sudoku_server.net import metrics
from sudoku_server.net.config import MAX_SECONDS, ServerConfig
from sudoku_server.wire.proxy import Network, parse_network
from sudoku_server.wire.session import INTERACTIVE_AFTER

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


def check_seconds(value: float, text: str, *, zero: bool = False) -> float:
    """``value`` (parsed from ``text``) as a number of seconds for an option: finite, above 0
    (or 0 too when ``zero``) and at most :data:`MAX_SECONDS` (a day).

    Raises:
      argparse.ArgumentTypeError: out of bounds, infinite or NaN; argparse names the option.
    """
    if not math.isfinite(value) or value < 0 or (value == 0 and not zero) or value > MAX_SECONDS:
        bound = f"0..{MAX_SECONDS:g}" if zero else f"above 0 and at most {MAX_SECONDS:g}"
        raise argparse.ArgumentTypeError(f"must be {bound} seconds, got {text}")
    return value


def _seconds(*, zero: bool = False):
    """An argparse type: a number of seconds (:func:`check_seconds`)."""

    def seconds(text: str) -> float:
        return check_seconds(float(text), text, zero=zero)

    return seconds


_positive_float = _seconds()
_non_negative_float = _seconds(zero=True)
_positive_int = _number(int, 1)
_non_negative_int = _number(int, 0)
_port = _number(int, 0, 65535)
_warm_pool_size = _number(int, 0, 1024)


def _warm_pool_cpu(text: str) -> float:
    """An argparse type: ``--warm-pool-cpu FRACTION``, 0.001 to 1 (of one core)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a fraction of one core, 0.001 to 1, got {text}") from None
    if not (math.isfinite(value) and 0.001 <= value <= 1):
        raise argparse.ArgumentTypeError(f"must be a fraction of one core, 0.001 to 1, got {text}")
    return value


def _trusted_proxy(text: str) -> Network:
    """An argparse type: ``--trusted-proxy CIDR`` (IPv4 or IPv6, ipaddress's parsing)."""
    try:
        return parse_network(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def check_proxy_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse (``parser.error``: exit 2 with the message) ``--proxy-protocol`` without ``--trusted-proxy``, and the reverse."""
    if args.proxy_protocol and not args.trusted_proxy:
        parser.error(
            "--proxy-protocol needs --trusted-proxy CIDR, the load balancer's address"
            " (e.g. --trusted-proxy 10.0.0.5/32; on one machine --trusted-proxy 127.0.0.1/32):"
            " a PROXY header from any other peer would let it claim any address"
        )
    if args.trusted_proxy and not args.proxy_protocol:
        parser.error("--trusted-proxy applies to PROXY protocol headers: add --proxy-protocol")


def check_http_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse (``parser.error``: exit 2) ``--http-cors off`` given with an origin: one says no CORS headers, the
    other CORS headers for that origin, and neither can win without the user's surprise; and two of ``--port``,
    ``--http-port``, ``--metrics-port`` set to one port, before anything listens."""
    ports = {"--port": args.port, "--http-port": args.http_port, "--metrics-port": args.metrics_port}
    named = [(option, port) for option, port in ports.items() if port]  # 0: any free port, never a clash
    for i, (option, port) in enumerate(named):
        for other, same in named[:i]:
            if port == same:  # s9-break finding 14: the second bind failed as "is another server running?"
                parser.error(f"{option} {port} is the same as {other}: each port serves one protocol")
    values = args.http_cors or []
    origins = [value for value in values if value.lower() != "off"]
    if origins and len(origins) < len(values):
        parser.error(
            f"--http-cors off (no CORS headers) cannot go with an origin (--http-cors {origins[0]}):"
            " give the origins, or off alone"
        )


def _close_grace(text: str) -> float | None:
    """--close-grace: seconds (:func:`check_seconds`, above 0), or ``off`` (None: no close grace)."""
    if text.strip().lower() == "off":
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be > 0 seconds or off, got {text}") from None
    return check_seconds(value, text)


def _cors(text: str) -> str:
    """--http-cors: an origin (``*``, ``https://example.org``) or ``off``."""
    text = text.strip()
    if not text:
        raise argparse.ArgumentTypeError("must be an origin such as https://example.org, * or off")
    return text


def http_cors(values: list[str] | None) -> tuple[str, ...]:
    """The CORS origins of ``--http-cors`` (repeated): ``("*",)`` when not given, ``()`` for ``off`` (alone:
    :func:`check_http_options` refuses it with an origin)."""
    if not values:
        return ("*",)
    if any(value.lower() == "off" for value in values):
        return ()
    return tuple(values)


#: --workers: 1..MAX_WORKERS, or "auto" for one per CPU.
_workers = _number(int, 1, workers.MAX_WORKERS, extra="auto")


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
        type=_close_grace,
        default=d.close_grace,
        metavar="SECONDS|off",
        help="silence after an answer that ends the session, for clients that never"
        " half-close such as plain nc (never inside a line: a line without its end waits"
        " for --idle-timeout); 'off' for a port serving programs that hold"
        " their connections between requests (as after KEEPALIVE: only --idle-timeout"
        " ends them) (default: %(default)s)",
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
        f" with telnet, or when a grid's rows arrive over more than {INTERACTIVE_AFTER:g} s;"
        " a whole puzzle at once, however late, is a pipe's) (default: %(default)s)",
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
        help="seconds in which a connection's budget refills completely from empty (default: %(default)s)",
    )
    p.add_argument(
        "--inline-budget",
        type=_non_negative_float,
        default=d.inline_seconds,
        metavar="SECONDS",
        help="solving time a connection's plain one-line 9x9 puzzles may take on the event loop per read,"
        " without the hop to a solver thread (each stops after 0.5 ms of search and goes to a thread);"
        " 0: every puzzle goes to a thread (default: %(default)s)",
    )
    p.add_argument(
        "--warm-pool",
        type=_warm_pool_size,
        default=d.warm_pool,
        metavar="N",
        help="puzzles kept ready per level for GENERATE level=... (and se= bands asked often) without a seed,"
        " made in idle solver time; a pool starts at the first request for its level; 0: no pools"
        " (default: %(default)s)",
    )
    p.add_argument(
        "--warm-pool-cpu",
        type=_warm_pool_cpu,
        default=d.warm_pool_cpu,
        metavar="FRACTION",
        help="share of one core the warm pools' filling may use on average, over all workers, 0.001 to 1"
        " (default: %(default)s)",
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
        " a connection without one gets 'ERROR proxy' and is closed. Needs --trusted-proxy:"
        " the server refuses to start without one (it cannot know the balancer's address,"
        " and trusting any peer would let anyone claim any address)",
    )
    p.add_argument(
        "--trusted-proxy",
        type=_trusted_proxy,
        action="append",
        default=[],
        metavar="CIDR",
        help="with --proxy-protocol: a network (10.0.0.0/24, 2001:db8::/64) or address (10.0.0.5, /32) of the"
        " load balancer; repeat for several. PROXY headers are honoured only from these; any other peer gets"
        " 'ERROR proxy ... is not a trusted proxy' and is closed. One machine: --trusted-proxy 127.0.0.1/32",
    )
    p.add_argument(
        "--max-connections-per-ip",
        type=_non_negative_int,
        default=d.max_connections_per_ip,
        metavar="N",
        help="connections one address may hold on each port, more get 'ERROR busy' (HTTP: 503 busy); 0 for no cap"
        " (default: %(default)s)",
    )
    p.add_argument(
        "--metrics-port",
        type=_port,
        default=None,
        metavar="PORT",
        help="serve Prometheus metrics (text format, /metrics) on this port, same --host; a connection"
        " is closed 3 s after it was accepted (default: off)",
    )
    p.add_argument(
        "--http-port",
        type=_port,
        default=None,
        metavar="PORT",
        help="also serve HTTP/JSON on this port, same --host: the API under /api/v1/ (solve, count, unique, minimal,"
        " candidates, generate, rate, hint, steps, canon, same, parse, rules; docs/HTTP.md), its OpenAPI document"
        " /api/v1/openapi.json, /healthz (503 while"
        " draining) and the web page at / ; the same solver, fair share, budgets and timeouts (default: off)",
    )
    p.add_argument(
        "--http-max-body",
        type=_positive_int,
        default=d.http_max_body,
        metavar="BYTES",
        help="largest HTTP request body, more is answered 413 (default: %(default)s)",
    )
    p.add_argument(
        "--http-cors",
        type=_cors,
        default=None,
        metavar="ORIGIN|off",
        action="append",
        help="an origin the API allows to call it from a browser (Access-Control-Allow-Origin); repeat for"
        " several; 'off' (alone: not with an origin) for no CORS headers (default: *, any origin: the API has no"
        " state and no credentials)",
    )
    p.add_argument(
        "--http-trusted-proxy",
        type=_trusted_proxy,
        action="append",
        default=[],
        metavar="CIDR",
        help="a reverse proxy in front of the HTTP port (10.0.0.5, 10.0.0.0/24); repeat for several. Its"
        " X-Forwarded-For names the client (for the fair share and budgets); from any other peer the header"
        " is ignored (default: none, the peer is the client)",
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
        default=runtime.LOG_QUEUE_RECORDS,
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
        trusted_proxies=tuple(args.trusted_proxy),
        max_connections_per_ip=args.max_connections_per_ip,
        metrics_port=args.metrics_port,
        workers=args.workers or 1,
        budget_seconds=args.connection_budget,
        budget_window=args.budget_window,
        inline_seconds=args.inline_budget,
        http_port=args.http_port,
        http_max_body=args.http_max_body,
        http_cors=http_cors(args.http_cors),
        http_trusted_proxies=tuple(args.http_trusted_proxy),
        warm_pool=args.warm_pool,
        warm_pool_cpu=args.warm_pool_cpu,
    )


def main(argv: list[str] | None = None) -> NoReturn:
    """Entry point of ``sudoku-server``: serves until stopped, then ends the process (:func:`.runtime.exit_now`).

    Raises:
      SystemExit: bad arguments (status 2), ``--help``, ``--version``.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    check_proxy_options(parser, args)
    check_http_options(parser, args)
    problem = metrics.multiprocess_dir_problem()
    if problem is not None:
        parser.error(problem)
    config = config_from_args(args)
    if args.workers is not None:  # even --workers 1: SIGHUP then means a rolling restart
        status = workers.supervise(config, args.log_level, args.log_queue)
    else:
        status = runtime.run(config, args.log_level, args.log_queue)
    runtime.exit_now(status)
