"""The ``sudoku-server`` command: options -> :class:`ServerConfig`, logging, trio.run."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from typing import List, Optional

import trio

from . import __version__
from .server import ServerConfig, SudokuServer

log = logging.getLogger("sudoku_server")

DESCRIPTION = """\
A plain-text TCP service that solves Sudoku puzzles. Send a puzzle (a bordered
grid, 9 rows of 9 cells, or one line of 81 cells; '.', '0' or '_' for an empty
cell) and read the solved grid back in the same layout, or one line
'ERROR <code> <detail>'. Several puzzles per connection are answered in order.
Example: nc 127.0.0.1 9999 < puzzles/newspaper.txt
"""


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text}")
    return value


def _port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be 0..65535, got {text}")
    return value


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    d = ServerConfig()
    p = argparse.ArgumentParser(
        prog="sudoku-server",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--host", default=None, help="address to listen on (default: all interfaces)")
    p.add_argument("--port", type=_port, default=d.port, help="TCP port, 0 for any free one (default: %(default)s)")
    p.add_argument("--solve-timeout", type=_positive_float, default=d.solve_timeout, metavar="SECONDS",
                   help="longest time one puzzle may take, then 'ERROR timeout' (default: %(default)s)")
    p.add_argument("--idle-timeout", type=_positive_float, default=d.idle_timeout, metavar="SECONDS",
                   help="wait between lines before the first answer, and the longest a client"
                        " may leave an answer unread (default: %(default)s)")
    p.add_argument("--close-grace", type=_positive_float, default=d.close_grace, metavar="SECONDS",
                   help="silence after an answer that ends the session, for clients that never"
                        " half-close such as plain nc (default: %(default)s)")
    p.add_argument("--max-line-bytes", type=_positive_int, default=d.max_line_bytes, metavar="BYTES",
                   help="longest line accepted, then 'ERROR too-large' and close (default: %(default)s)")
    p.add_argument("--max-connections", type=_positive_int, default=d.max_connections, metavar="N",
                   help="connections served at once, more get 'ERROR busy' (default: %(default)s)")
    p.add_argument("--solver-threads", type=_positive_int, default=d.solver_threads, metavar="N",
                   help="puzzles solved at once in worker threads (default: %(default)s)")
    p.add_argument("--shutdown-grace", type=_positive_float, default=d.shutdown_grace, metavar="SECONDS",
                   help="time open connections get to finish after SIGTERM/SIGINT; a second"
                        " signal closes them at once (default: %(default)s)")
    p.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"],
                   help="log verbosity on stderr (default: %(default)s)")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
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
    )


async def run_server(config: ServerConfig) -> None:
    """Serve until SIGINT or SIGTERM, then shut down gracefully.

    Raises:
      OSError: the address cannot be bound (before anything is served).
    """
    server = SudokuServer(config)
    listeners = await server.open_listeners()
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:

            async def watch() -> None:
                first = True
                async for signum in signals:
                    name = signal.Signals(signum).name
                    if first:
                        log.info("received %s: shutting down (again to close connections now)", name)
                        server.shutdown()
                        first = False
                    else:
                        log.info("received %s again: closing open connections now", name)
                        server.close_connections()

            nursery.start_soon(watch)
            await server.serve(listeners=listeners)
            nursery.cancel_scope.cancel()


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of ``sudoku-server``; returns the exit status."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=getattr(logging, args.log_level.upper()),
        format="%(asctime)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    try:
        trio.run(run_server, config_from_args(args))
    except OSError as error:
        log.error("cannot listen: %s", error)
        return 1
    return 0
