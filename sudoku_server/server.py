"""The TCP server: the only module of the package that touches sockets.

Each connection runs two tasks: a reader that feeds the sans-I/O
:class:`~sudoku_server.protocol.Session` and queues its events, and a writer
that answers them in order, solving each puzzle in a worker thread. The
timers of PROTOCOL.md ("Connection lifecycle") live here:

* before the first answer, the reader waits up to ``idle_timeout`` between
  bytes; after an answer, or while input is pending (an unterminated line),
  only ``close_grace``. When the timer runs out the session ends as if the
  client had half-closed.
* the writer then half-closes (``send_eof``) and reads and discards for up to
  ``linger_time`` before closing, so the kernel never resets a connection
  that still has unread bytes (which can make ``nc`` print nothing).
"""

from __future__ import annotations

import errno
import functools
import logging
import math
import os
import time
from dataclasses import dataclass
from typing import Callable, List, Optional

import trio

from .formats import Puzzle
from .protocol import (
    DEFAULT_MAX_LINE_BYTES,
    CloseConnection,
    PuzzleReceived,
    Reply,
    Session,
    TelnetReply,
    answer_puzzle,
)
from . import solver as _solver

log = logging.getLogger("sudoku_server")

#: Bytes asked of the kernel per receive.
RECEIVE_SIZE = 65536
#: accept() errors that mean "out of descriptors or memory": wait and retry.
ACCEPT_CAPACITY_ERRNOS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.ENOBUFS})
#: Seconds between accept() retries when out of descriptors (as trio's serve_listeners).
ACCEPT_RETRY_SLEEP = 0.1
#: Seconds between two log lines about the same accept() condition.
ACCEPT_ERROR_LOG_INTERVAL = 10.0
#: Items (puzzles or error lines) queued per connection before the reader
#: waits for the writer; bounds a connection's memory when a client sends
#: faster than puzzles are solved.
QUEUE_SIZE = 64


@dataclass
class ServerConfig:
    """Settings of one server; each is a command-line option of ``sudoku-server``.

    Attributes:
      host: address to bind; None for all interfaces (IPv4 and IPv6).
      port: TCP port; 0 picks a free one (tests).
      solve_timeout: seconds one puzzle may take before ``ERROR timeout``.
      idle_timeout: seconds to wait between lines before the first answer; also
        the longest a client may leave an answer unread before it is dropped.
      close_grace: seconds of silence after an answer (or with an unterminated
        line pending) that end the session (PROTOCOL.md: 0.5 s answered 1000 of
        1000 grids trickled in 4 KB chunks every 300 ms).
      linger_time: seconds to read and discard after half-closing.
      max_line_bytes: longest accepted line, in bytes.
      max_connections: connections served at once; more get ``ERROR busy``.
      solver_threads: puzzles solved at once (worker threads).
      shutdown_grace: seconds in-flight connections get after SIGTERM/SIGINT.
    """

    host: Optional[str] = None
    port: int = 9999
    solve_timeout: float = 10.0
    idle_timeout: float = 60.0
    close_grace: float = 0.5
    linger_time: float = 2.0
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    max_connections: int = 1024
    solver_threads: int = 2
    shutdown_grace: float = 5.0


class _ClientNotReading(Exception):
    """An answer could not be sent for ``idle_timeout`` seconds."""


def _peer_name(stream) -> str:
    try:
        addr = stream.socket.getpeername()
        return f"{addr[0]}:{addr[1]}" if ":" not in addr[0] else f"[{addr[0]}]:{addr[1]}"
    except (OSError, AttributeError, IndexError):
        return "?"


class _Connection:
    """One client: reader and writer tasks around a :class:`Session`."""

    def __init__(self, server: "SudokuServer", stream: trio.abc.Stream, peer: str) -> None:
        self.server = server
        self.config = server.config
        self.stream = stream
        self.peer = peer
        self.session = Session(max_line_bytes=self.config.max_line_bytes)
        self.send_lock = trio.Lock()
        self.answered = 0  # answers and error lines sent
        self.queued = 0  # puzzles and error lines handed to the writer
        self.errors = 0
        self.read_scope: Optional[trio.CancelScope] = None
        self.stop_reading = False

    async def run(self) -> None:
        send_channel, receive_channel = trio.open_memory_channel(QUEUE_SIZE)
        async with trio.open_nursery() as nursery:
            self.nursery = nursery
            nursery.start_soon(self._read, send_channel)
            await self._write(receive_channel)

    def shutdown(self) -> None:
        """Stop reading: what was received is answered, then the connection closes."""
        self.stop_reading = True
        if self.read_scope is not None:
            self.read_scope.cancel()

    def _read_deadline(self) -> float:
        """When the reader gives up waiting (PROTOCOL.md "Connection lifecycle").

        While puzzles received on this connection are still queued or being
        solved there is no deadline (the writer sets one when it catches up);
        after an answer, or with an unterminated line pending, the close grace;
        before the first answer, the idle timeout.
        """
        cfg = self.config
        if self.queued > self.answered:
            return math.inf
        quick = self.answered or self.session.pending
        return trio.current_time() + (cfg.close_grace if quick else cfg.idle_timeout)

    async def _read(self, send_channel) -> None:
        try:
            async with send_channel:
                await self._read_events(send_channel)
        except (trio.BrokenResourceError, trio.ClosedResourceError, _ClientNotReading) as error:
            self._gone(error)

    async def _read_events(self, send_channel) -> None:
        session = self.session
        while not session.closed:
            if self.stop_reading:
                events = session.receive_eof()
            else:
                with trio.CancelScope(deadline=self._read_deadline()) as scope:
                    self.read_scope = scope
                    data = await self.stream.receive_some(RECEIVE_SIZE)
                self.read_scope = None
                if scope.cancelled_caught or not data:
                    events = session.receive_eof()  # end of stream, idle timeout or close grace
                else:
                    events = session.receive_data(data)
            for event in events:
                if isinstance(event, TelnetReply):
                    await self._send(event.data)
                elif isinstance(event, CloseConnection):
                    break
                else:
                    self.queued += 1
                    await send_channel.send(event)

    def _gone(self, error: BaseException) -> None:
        """The client reset, closed, or stopped reading: drop the connection quietly."""
        if isinstance(error, _ClientNotReading):
            log.info("%s read nothing for %g s: closing", self.peer, self.config.idle_timeout)
        else:
            log.info("%s went away (%s)", self.peer, type(error).__name__)
        self.nursery.cancel_scope.cancel()

    async def _send(self, data: bytes) -> None:
        """Send bytes; a client that takes none of them for ``idle_timeout`` s is dropped."""
        async with self.send_lock:
            with trio.move_on_after(self.config.idle_timeout) as scope:
                await self.stream.send_all(data)
            if scope.cancelled_caught:
                raise _ClientNotReading()

    async def _write(self, receive_channel) -> None:
        try:
            async with receive_channel:
                async for event in receive_channel:
                    if isinstance(event, Reply):
                        data = event.data
                    else:
                        assert isinstance(event, PuzzleReceived)
                        data = await self._answer(event.puzzle)
                    await self._send(data)
                    self.answered += 1
                    if data.startswith(b"ERROR "):
                        self.errors += 1
                    scope = self.read_scope
                    if scope is not None and self.answered == self.queued:
                        # All caught up: the close grace starts now.
                        scope.deadline = trio.current_time() + self.config.close_grace
        except (trio.BrokenResourceError, trio.ClosedResourceError, _ClientNotReading) as error:
            self._gone(error)
            return
        await self._linger()

    async def _answer(self, puzzle: Puzzle) -> bytes:
        server = self.server
        started = time.perf_counter()
        work = functools.partial(
            answer_puzzle, puzzle, solve=server.solve, check=trio.from_thread.check_cancelled
        )
        try:
            # The solve timeout counts from when a worker is free, not while
            # the puzzle waits for one.
            async with server.solver_limiter:
                with trio.fail_after(self.config.solve_timeout):
                    data = await trio.to_thread.run_sync(work)
        except trio.TooSlowError:
            data = f"ERROR timeout no answer within {self.config.solve_timeout:g} s{puzzle.default_ending}".encode()
        ms = (time.perf_counter() - started) * 1000
        result = "solved" if not data.startswith(b"ERROR ") else data.split(b" ", 2)[1].decode()
        log.info(
            "%s puzzle line %d layout=%s result=%s ms=%.1f",
            self.peer, puzzle.first_line, puzzle.layout, result, ms,
        )
        return data

    async def _linger(self) -> None:
        """Half-close, read and discard until the client closes (at most linger_time)."""
        try:
            await self.stream.send_eof()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            return
        with trio.move_on_after(self.config.linger_time):
            try:
                while await self.stream.receive_some(RECEIVE_SIZE):
                    pass
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass


class SudokuServer:
    """A sudoku-server bound to its config; run with :meth:`serve`.

    Args:
      config: the settings.
      solve: the solver, ``solve(grid, *, check) -> Grid`` (a parameter so
        tests can pass a fake that spins while calling ``check()``).
    """

    def __init__(self, config: ServerConfig, *, solve: Optional[Callable] = None) -> None:
        self.config = config
        self.solve = solve if solve is not None else _solver.solve
        self.solver_limiter = trio.CapacityLimiter(max(1, config.solver_threads))
        self.connections: set = set()
        self._accept_scope: Optional[trio.CancelScope] = None
        self._handler_nursery: Optional[trio.Nursery] = None
        self._shutting_down = False

    async def open_listeners(self) -> List[trio.SocketListener]:
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

    async def serve(self, *, listeners=None, task_status=trio.TASK_STATUS_IGNORED) -> None:
        """Listen and serve until :meth:`shutdown` or cancellation.

        Args:
          listeners: already bound listeners (from :meth:`open_listeners`);
            None binds the configured address here.

        Supports ``nursery.start``: reports the list of listeners once they
        are bound (``listeners[0].socket.getsockname()`` gives the port).

        Cancellation: cancelling this task closes every connection at once;
        :meth:`shutdown` is the graceful way.
        """
        cfg = self.config
        if listeners is None:
            listeners = await self.open_listeners()
        try:
            async with trio.open_nursery() as handler_nursery:
                self._handler_nursery = handler_nursery
                with trio.CancelScope() as accept_scope:
                    self._accept_scope = accept_scope
                    if self._shutting_down:
                        accept_scope.cancel()
                    async with trio.open_nursery() as accept_nursery:
                        for listener in listeners:
                            accept_nursery.start_soon(self._accept_loop, listener, handler_nursery)
                        task_status.started(listeners)
                for listener in listeners:
                    await listener.aclose()
                log.info("stopped accepting; %d connection(s) finishing", len(self.connections))
                handler_nursery.cancel_scope.deadline = trio.current_time() + cfg.shutdown_grace
        finally:
            for listener in listeners:
                await trio.aclose_forcefully(listener)
        log.info("server stopped")

    def close_connections(self) -> None:
        """Close every open connection now (a second SIGTERM/SIGINT); serve() then returns."""
        self.shutdown()
        if self._handler_nursery is not None:
            self._handler_nursery.cancel_scope.cancel()

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
                        os.strerror(error.errno), ACCEPT_RETRY_SLEEP, suppressed,
                    )
                    last_logged, suppressed = now, 0
                else:
                    suppressed += 1
                await trio.sleep(ACCEPT_RETRY_SLEEP)
            else:
                handler_nursery.start_soon(self._handle, stream)

    def shutdown(self) -> None:
        """Stop accepting; let connections answer what they received (``shutdown_grace`` s)."""
        self._shutting_down = True
        if self._accept_scope is not None:
            self._accept_scope.cancel()
        for connection in list(self.connections):
            connection.shutdown()

    async def _handle(self, stream: trio.SocketStream) -> None:
        peer = _peer_name(stream)
        try:
            if len(self.connections) >= self.config.max_connections or self._shutting_down:
                await self._refuse(stream, peer)
                return
            connection = _Connection(self, stream, peer)
            self.connections.add(connection)
            started = time.perf_counter()
            log.debug("%s connected", peer)
            try:
                await connection.run()
            finally:
                self.connections.discard(connection)
                log.info(
                    "%s closed: %d answer(s), %d error(s), %.0f ms",
                    peer, connection.answered, connection.errors,
                    (time.perf_counter() - started) * 1000,
                )
        except Exception:
            log.exception("%s: unexpected error in the connection handler", peer)
        finally:
            await trio.aclose_forcefully(stream)

    async def _refuse(self, stream: trio.SocketStream, peer: str) -> None:
        log.warning("%s refused: %d connections open (limit)", peer, len(self.connections))
        try:
            with trio.move_on_after(1):
                await stream.send_all(
                    f"ERROR busy {self.config.max_connections} connections open, try again later\n".encode()
                )
                await stream.send_eof()
            with trio.move_on_after(1):
                while await stream.receive_some(RECEIVE_SIZE):
                    pass
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass


async def serve(
    config: ServerConfig, *, solve: Optional[Callable] = None, task_status=trio.TASK_STATUS_IGNORED
) -> None:
    """Run a :class:`SudokuServer` with ``config`` until cancelled.

    Supports ``nursery.start`` (reports the listeners). Cancellation closes
    every connection at once.
    """
    await SudokuServer(config, solve=solve).serve(task_status=task_status)
