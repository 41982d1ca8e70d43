"""The one module that reaches into Hypercorn's internals: how each HTTP connection is driven.

Everything else of the HTTP front uses Hypercorn's public parts only (its ``Config``, the ASGI app it serves);
this module is pinned to the Hypercorn versions in :data:`TESTED_HYPERCORN` (tests/test_http_hypercorn_pin.py
fails on any other, and pyproject.toml pins the same range): a new release needs a look here first.

Why not ``hypercorn.trio.serve`` (docs/HTTP.md "Hypercorn"). It builds each connection as its own
``TCPServer`` inside its serving nursery, and offers no hook for what this port must hold:

- **No client input ends the process.** An exception in a connection's protocol (Hypercorn 0.18 raises
  ``KeyError`` in its HTTP/2 protocol on a DATA frame after a stream's reply: three frames) leaves
  ``TCPServer.run`` and cancels ``serve``, taking the process (and the line port) with it. Here each
  connection's failure is caught and logged at its own level, as the line port does (:class:`Connection`).
- **HTTP/1.1 only** (the port is documented as HTTP/1.1): Hypercorn serves HTTP/2 to any client that asks
  (the prior-knowledge preface, ``Upgrade: h2c``) with no setting to turn it off. Here the preface is
  answered ``505`` and the connection closed (:data:`HTTP2_REFUSED`); an ``Upgrade: h2c`` is ignored and the
  request answered in HTTP/1.1 (RFC 9110 section 7.8: a server may ignore ``Upgrade``).
- **Bounds on what a client holds:** a write timeout (Hypercorn's ``send_all`` is shielded, unbounded) and a
  request body deadline on every route (Hypercorn's ``read_timeout`` bounds one read, not a body sent a byte
  at a time; and a route that does not read its body, as a static file, held such a connection forever).
- **The CPU of a small request:** a reply's header block and body in one ``send`` and one timer task per
  connection (two ``send`` calls and a timer task per request in Hypercorn): about 490 to 400 µs of server
  CPU per single-puzzle request (benchmarks/RESULTS.md, "HTTP/JSON and the web page (issue 21)").

The upstream changes that would retire this module: a setting to serve HTTP/1.1 only, per-connection
exception isolation in ``worker_serve``, a write timeout and a body (whole-request) timeout in ``Config``.
"""

from __future__ import annotations

import collections
import functools
import json
import logging
import math
import re
import socket
import sys
from collections.abc import Sequence
from typing import Any

import h11
import trio
from hypercorn.config import Config
from hypercorn.events import Closed, Event, RawData, Updated
from hypercorn.protocol.h11 import H11Protocol
from hypercorn.trio.task_group import TaskGroup
from hypercorn.trio.tcp_server import MAX_RECV, TCPServer
from hypercorn.trio.worker_context import WorkerContext
from hypercorn.typing import ConnectionState
from hypercorn.utils import parse_socket_addr, wrap_app

from sudoku_server.wire.proxy import is_trusted

if sys.version_info < (3, 11):  # pragma: no cover
    from exceptiongroup import BaseExceptionGroup  # type: ignore[import-not-found,unused-ignore]

log = logging.getLogger("sudoku_server.http")

#: The Hypercorn versions this module is for (``major.minor``; tests/test_http_hypercorn_pin.py holds it): the suite
#: ran on 0.18.0; of 0.17.3 the parts used here (``TCPServer``, ``H11Protocol``, the task group) were read and are alike.
TESTED_HYPERCORN = ("0.17", "0.18")


def _refusal(status: bytes, message: bytes) -> bytes:
    body = b'{"error":{"code":"command","message":"%s","line":null}}' % message
    return b"HTTP/1.1 %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\nconnection: close\r\n\r\n%s" % (
        status,
        len(body),
        body,
    )


def _busy(address: str, n: int) -> bytes:
    """The whole reply to a connection over ``--max-connections-per-ip``: ``503 busy``, then the connection closes."""
    body = b'{"error":{"code":"busy","message":"%d connections open from %s; try again later","line":null}}' % (
        n,
        address.encode("ascii", "replace"),
    )
    return (
        b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
        b"retry-after: 1\r\nconnection: close\r\n\r\n%s" % (len(body), body)
    )


class AddressCap:
    """The HTTP port's connections per client address, at most ``cap`` (``--max-connections-per-ip``, as on the line
    port; 0: no cap). A trusted proxy's own address (``--http-trusted-proxy``) is not capped: its clients are named
    per request by ``X-Forwarded-For`` (break-session finding: the HTTP port had no cap at all)."""

    def __init__(self, cap: int = 0, trusted: Sequence[Any] = ()) -> None:
        self.cap = cap
        self.trusted = tuple(trusted)
        self.open: collections.Counter[str] = collections.Counter()

    def take(self, address: str) -> int:
        """Count a connection from ``address`` in: 0, or the connections it holds already when over the cap."""
        held = self.open[address]
        if self.cap and held >= self.cap and not is_trusted(address, self.trusted):
            return held
        self.open[address] = held + 1
        return 0

    def give_back(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]


#: The whole reply to an HTTP/2 client (the prior-knowledge preface ``PRI * HTTP/2.0``), then the connection closes.
HTTP2_REFUSED = _refusal(b"505 HTTP Version Not Supported", b"HTTP/2 is not served on this port: use HTTP/1.1")
#: The whole reply to a request with both Content-Length and Transfer-Encoding, then the connection closes (RFC 9112
#: section 6.3: such a request may be an attempt at request smuggling; the server MUST close the connection).
AMBIGUOUS_LENGTH_REFUSED = _refusal(
    b"400 Bad Request", b"a request with both Content-Length and Transfer-Encoding is refused (RFC 9112 6.3)"
)


class _Refused(Exception):
    """A request answered with ``reply`` (whole bytes) at once, and the connection closed."""

    def __init__(self, reply: bytes, why: str) -> None:
        super().__init__(why)
        self.reply = reply


class _ClosingConnection(h11.Connection):
    """h11's connection that reads nothing after a request that closes it (``Connection: close``, HTTP/1.0), and
    keeps the words of the protocol error it raised last (``refused``: for :meth:`Http11Protocol._send_error_response`).

    RFC 9112 9.6: the request is answered, then the connection closes, and later bytes are ignored. h11 instead
    raises "Got data when expecting EOF" for them, which made Hypercorn answer 400 while the request was still
    being answered (two senders on one stream), and close it: the valid request went unanswered.
    """

    refused = ""

    def next_event(self) -> Any:
        if self.their_state is h11.MUST_CLOSE:
            return h11.NEED_DATA
        try:
            event = super().next_event()
            if isinstance(event, h11.Request) and header_bytes(event) > self._max_incomplete_event_size:
                # h11 bounds only headers still incomplete: a block that arrived whole in one read passed
                # (s9-break finding 1: 20 KB in one send was 200, in 1 KB pieces 431). The same bound, whole.
                raise h11.RemoteProtocolError("request headers too large", error_status_hint=431)
            return event
        except h11.RemoteProtocolError as error:
            self.refused = str(error)
            raise


def header_bytes(request: h11.Request) -> int:
    """The bytes of ``request``'s header block as sent, request line and blank line included (h11 strips the
    blanks around a value: so much less)."""
    line = len(request.method) + len(request.target) + len(b"  HTTP/1.1\r\n")
    return line + sum(len(name) + len(value) + 4 for name, value in request.headers) + 2


_BYTES_REPR = re.compile(r"bytearray\(b('.*')\)")
#: Characters of h11's words kept in an error message (some quote the bad request line).
_H11_WORDS = 200


def protocol_error(status: int, words: str, max_header_bytes: int) -> bytes:
    """The JSON error of a request that h11 refused (``status``: its ``error_status_hint``; ``words``: its
    message). ``431``: ``too-large``, the request's headers over
    ``max_header_bytes``; any other: ``command``, ``malformed HTTP/1.1 request: <h11's words>``."""
    if status == 431:
        code, message = "too-large", f"request headers over {max_header_bytes} bytes"
    else:
        words = _BYTES_REPR.sub(r"\1", words)  # h11 quotes a bad line as bytearray(b'...'): the quoted text
        words = words if len(words) <= _H11_WORDS else words[: _H11_WORDS - 3] + "..."
        code, message = "command", f"malformed HTTP/1.1 request: {words or 'refused by the parser'}"
    body = json.dumps({"error": {"code": code, "message": message, "line": None}}, separators=(",", ":"))
    return body.encode("ascii")


class Http11Protocol(H11Protocol):
    """Hypercorn's HTTP/1.1 protocol that never switches to HTTP/2, refuses an ambiguous body length, ignores
    bytes after a request that closes the connection (:class:`_ClosingConnection`), and answers a request h11
    refuses with the API's JSON error (:meth:`_send_error_response`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.connection = _ClosingConnection(h11.SERVER, max_incomplete_event_size=self.config.h11_max_incomplete_size)

    async def _send_error_response(self, status_code: int) -> None:
        """Hypercorn's reply to a request h11 refused (no ``Host``, a malformed request line, headers over
        ``h11_max_incomplete_size``: ``400`` or ``431``), with the API's JSON error as its body (Hypercorn's has
        none: break-session finding), then the connection closes."""
        words = getattr(self.connection, "refused", "")
        body = protocol_error(status_code, words, self.config.h11_max_incomplete_size)
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode("ascii")),
            (b"connection", b"close"),
            *self.config.response_headers("h11"),
        ]
        await self._send_h11_event(h11.Response(status_code=status_code, headers=headers))
        await self._send_h11_event(h11.Data(data=body))
        await self._send_h11_event(h11.EndOfMessage())

    async def _check_protocol(self, event: h11.Request) -> None:
        if event.method == b"PRI" and event.target == b"*" and event.http_version == b"2.0":
            raise _Refused(HTTP2_REFUSED, "HTTP/2 refused (505)")
        # An Upgrade: h2c is not taken up: the request is answered in HTTP/1.1, as by a server that never heard of it.
        names = {name for name, _ in event.headers}
        if b"content-length" in names and b"transfer-encoding" in names:
            raise _Refused(AMBIGUOUS_LENGTH_REFUSED, "both Content-Length and Transfer-Encoding (400)")


class Connection(TCPServer):
    """One HTTP/1.1 connection (Hypercorn's ``TCPServer`` less TLS and HTTP/2), with its bounds.

    Its one timer (a task per connection, its deadline moving) closes it when:

    - idle (before its first request, or between requests): no request's headers within
      ``config.keep_alive_timeout`` seconds (the header timeout);
    - busy: the request's body not all in within ``body_seconds`` of its headers (on every route);
    - the server stops: at once when idle, once its request is answered when busy.

    A reply that the client does not take within ``write_seconds`` (the socket's buffers full) closes it. A
    reply's header block is held and sent with the next piece of data (its body), in one ``send``.

    Args:
      app, config, context, state: as Hypercorn's ``TCPServer``.
      stream: the accepted ``trio.SocketStream``.
      body_seconds: the body deadline; write_seconds: the write timeout.
    """

    held = b""
    deadline = math.inf  # when the timer closes the connection
    timer_scope: trio.CancelScope | None = None
    busy = False  # a request is in progress (its headers read, its reply not all sent)
    close_when_idle = False  # the server stopped while a request was in progress

    def __init__(
        self,
        app: Any,
        config: Config,
        context: WorkerContext,
        state: Any,
        stream: Any,
        *,
        body_seconds: float,
        write_seconds: float,
        addresses: AddressCap | None = None,
    ) -> None:
        super().__init__(app, config, context, state, stream)
        self.body_seconds = body_seconds
        self.write_seconds = write_seconds
        self.addresses = addresses or AddressCap()
        self.peer = "?"
        self.closed = False  # the connection was closed (by either side)
        self.idle_or_closed = trio.Event()  # set (and renewed) when a request ends or the connection closes

    def _wake(self) -> None:
        self.idle_or_closed.set()
        self.idle_or_closed = trio.Event()

    async def _initiate_server_close(self) -> None:
        self.closed = True
        self._wake()
        await super()._initiate_server_close()

    async def run(self) -> None:
        sock = self.stream.socket
        try:
            client = parse_socket_addr(sock.family, sock.getpeername())
            server = parse_socket_addr(sock.family, sock.getsockname())
            self.peer = f"{client[0]}:{client[1]}" if client else "?"
            address = str(client[0]) if client else "?"
            held = self.addresses.take(address)
            if held:
                log.info("HTTP connection %s refused: %d connections open from %s", self.peer, held, address)
                with trio.move_on_after(self.write_seconds):
                    await self.stream.send_all(_busy(address, held))
                return
            try:
                await self._serve(client, server)
            finally:
                self.addresses.give_back(address)
        except OSError:
            pass
        except BaseExceptionGroup as group:
            errors, rest = group.split(Exception)
            if errors is not None:
                self._failed(errors)
            if rest is not None:
                raise rest from None
        except Exception as error:
            self._failed(error)
        finally:
            with trio.CancelScope(shield=True):
                await self._close()

    async def _serve(self, client: Any, server: Any) -> None:
        """The connection's protocol, timer and reading, until the client goes or the connection closes."""
        with trio.CancelScope() as everything:
            async with TaskGroup() as task_group:
                self._task_group = task_group
                self.protocol = Http11Protocol(  # type: ignore[assignment]
                    self.app,
                    self.config,
                    self.context,
                    task_group,
                    ConnectionState(self.state),
                    False,
                    client,
                    server,
                    self.protocol_send,
                )
                self.deadline = trio.current_time() + self.config.keep_alive_timeout
                task_group.spawn(self._timer)
                await self._read_data()
                everything.cancel()  # the client is gone (or the connection closed): its app and timer end

    def _failed(self, error: BaseException) -> None:
        """A fault of this connection (its protocol or its app): logged, the connection closed, nothing else."""
        log.warning("HTTP connection %s closed: %s", self.peer, _describe(error), exc_info=error)

    async def _read_data(self) -> None:
        while True:
            try:
                data = await self.stream.receive_some(MAX_RECV)
            except (trio.ClosedResourceError, trio.BrokenResourceError):
                break
            try:
                await self.protocol.handle(RawData(bytes(data)))
            except _Refused as refused:
                log.info("HTTP connection %s closed: %s", self.peer, refused)
                with trio.move_on_after(self.write_seconds):
                    try:
                        await self.stream.send_all(refused.reply)
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        pass
                break
            if not data:
                # The client half-closed (``nc -N``, ``shutdown(SHUT_WR)``): it may still read. A request in
                # progress is answered, and the connection closes after it (h11 has seen the end of input);
                # a reset, or a reply the client does not take, still ends it at once.
                while self.busy and not self.closed:
                    await self.idle_or_closed.wait()
                break
        await self.protocol.handle(Closed())

    async def protocol_send(self, event: Event) -> None:
        if isinstance(event, Updated):
            await self._idle_changed(event.idle)
            return
        if isinstance(event, RawData):
            data = event.data
            if self.held:
                data, self.held = self.held + data, b""
            elif data.startswith(b"HTTP/1.1 ") and not data.startswith(b"HTTP/1.1 1"):
                self.held = data  # a final reply's header block: sent with its body
                return
            if data:  # h11's end of a body with a Content-Length is no bytes: no send, no checkpoint
                await self._send(data)
            return
        if self.held:
            held, self.held = self.held, b""
            await self._send(held)
        if isinstance(event, Closed):
            self.closed = True
            self._wake()
            await self._close()
            await self.protocol.handle(Closed())

    async def _send(self, data: bytes) -> None:
        """Send ``data``; a client that takes none of it for ``write_seconds`` is disconnected."""
        gone = False
        async with self.send_lock:
            with trio.CancelScope(shield=True) as scope:
                scope.deadline = trio.current_time() + self.write_seconds
                try:
                    await self.stream.send_all(data)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    gone = True
            if scope.cancelled_caught:
                log.info("HTTP connection %s closed: took no reply for %g s", self.peer, self.write_seconds)
                with trio.CancelScope(shield=True):
                    await self.stream.aclose()
                gone = True
        if gone:
            await self.protocol.handle(Closed())

    async def _idle_changed(self, idle: bool) -> None:
        self.busy = not idle
        if idle:
            self._wake()
        if idle and self.close_when_idle:
            with trio.CancelScope(shield=True):
                await self._initiate_server_close()
            return
        now = trio.current_time()
        self._move(now + (self.config.keep_alive_timeout if idle else self.body_seconds))

    def _move(self, deadline: float) -> None:
        self.deadline = deadline
        if self.timer_scope is not None:
            self.timer_scope.deadline = deadline

    def _body_in(self) -> bool:
        """The request's body is all in (or it has none)."""
        connection = getattr(self.protocol, "connection", None)
        return not isinstance(connection, h11.Connection) or connection.their_state is not h11.SEND_BODY

    async def _timer(self) -> None:
        """The connection's one timer (see the class): closes it at its deadline or when the server stops."""
        while True:
            with trio.CancelScope(deadline=self.deadline) as scope:
                self.timer_scope = scope
                await self.context.terminated.wait()
            self.timer_scope = None
            if not scope.cancelled_caught:  # the server stops
                if self.busy:
                    self.close_when_idle = True  # closed once its request is answered
                    return
            elif self.busy and self._body_in():
                self.deadline = math.inf  # the body is in: the request takes as long as its answer
                continue
            elif self.busy:
                log.info("HTTP connection %s closed: request body not in within %g s", self.peer, self.body_seconds)
            with trio.CancelScope(shield=True):
                await self._initiate_server_close()
            return


def _describe(error: BaseException) -> str:
    if isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        return _describe(error.exceptions[0])
    return f"{type(error).__name__}: {error}"


async def serve(
    app: Any,
    config: Config,
    sockets: Sequence[socket.socket],
    stop: trio.Event,
    *,
    body_seconds: float,
    write_seconds: float,
    addresses: AddressCap | None = None,
    task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve the ASGI ``app`` on ``sockets`` (bound and listening) until ``stop`` is set, each connection a
    :class:`Connection`; then as Hypercorn's graceful shutdown: no new connection, idle ones closed, the
    requests in progress given ``config.graceful_timeout`` seconds; ``addresses``: the connections per client
    address and their cap (:class:`AddressCap`). (``hypercorn.trio.run.worker_serve`` less its lifespan, statsd,
    TLS and QUIC parts.)"""
    context = WorkerContext(None)
    handler = functools.partial(
        Connection,
        wrap_app(app, config.wsgi_max_body_size, "asgi"),
        config,
        context,
        {},
        body_seconds=body_seconds,
        write_seconds=write_seconds,
        addresses=addresses or AddressCap(),
    )
    listeners = [trio.SocketListener(trio.socket.from_stdlib_socket(sock)) for sock in sockets]
    async with trio.open_nursery() as connections:
        async with trio.open_nursery() as accepting:
            accepting.start_soon(
                functools.partial(trio.serve_listeners, handler, listeners, handler_nursery=connections)
            )
            task_status.started()
            await stop.wait()
            accepting.cancel_scope.cancel()
        for listener in listeners:
            await listener.aclose()
        await context.terminated.set()  # idle keep-alive connections close now
        connections.cancel_scope.deadline = trio.current_time() + config.graceful_timeout
