"""The HTTP front's ASGI app and its Hypercorn loop (``--http-port``; :mod:`sudoku_server.net.http` is the rest).

:class:`ApiApp` answers ``GET``/``POST /api/v1/<verb>`` itself (a plain ASGI function, the short way) and hands
everything else to a Starlette app (``/healthz``, the OpenAPI document, the web page, CORS preflights, JSON 404
and 405); :func:`serve_hypercorn` runs Hypercorn's trio worker on the HTTP port's sockets, each connection
sending a reply in one ``send``.
"""

from __future__ import annotations

import functools
import importlib.resources
import logging
import math
import socket
import urllib.parse
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import trio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request as HttpRequest
from starlette.responses import FileResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from sudoku_server.errors import BusyError, CommandError, InternalError, PuzzleError, TooLargeError, quote
from sudoku_server.wire import json_api, json_parse
from sudoku_server.wire.json_api import PREFIX

if TYPE_CHECKING:
    from sudoku_server.net.http import HttpFront

log = logging.getLogger("sudoku_server")

#: Seconds a request's body may take to arrive, in all; then ``400 command`` (a slow body holds no more).
BODY_SECONDS = 10.0
#: Bytes of an over-limit body read and discarded at most before the ``413`` (more: the connection closes).
DISCARD_BYTES = 64 * 1024 * 1024
#: Seconds in a ``Retry-After`` of a ``503 busy`` (the queue's wait bound) and of a ``503 draining``/``shutdown``.
RETRY_BUSY_SECONDS = 1
RETRY_DRAINING_SECONDS = 5
#: Where the OpenAPI document is served (GET and HEAD only).
OPENAPI_PATH = "/api/v1/openapi.json"


def static_directory() -> Path:
    """The web page's files: the package's ``web/static`` directory (it may be missing or empty)."""
    return Path(str(importlib.resources.files("sudoku_server") / "web" / "static"))


async def serve_hypercorn(
    app: Any, config: Any, sockets: Sequence[socket.socket], stop: trio.Event, task_status=trio.TASK_STATUS_IGNORED
) -> None:
    """Hypercorn's trio worker (``hypercorn.trio.run.worker_serve``, less its lifespan, statsd and QUIC parts)
    serving ``app`` on ``sockets`` until ``stop`` is set; then as Hypercorn's graceful shutdown: no new
    connection, idle ones closed, the requests in progress given ``config.graceful_timeout`` seconds.

    Its own loop so that each connection is a :class:`_OneSendTCPServer` (a reply in one send).
    """
    from hypercorn.trio.worker_context import WorkerContext
    from hypercorn.typing import ConnectionState
    from hypercorn.utils import wrap_app

    context = WorkerContext(None)
    handler = functools.partial(
        _one_send_server(), wrap_app(app, config.wsgi_max_body_size, "asgi"), config, context, ConnectionState({})
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


def _one_send_server() -> type:
    """Hypercorn's ``TCPServer``, sending a reply's header block and its body in one ``send``, with one
    keep-alive timer task per connection.

    Hypercorn's HTTP/1.1 protocol hands its connection the header block of a reply (h11's ``Response``) and
    the body as two pieces of data, which cost two ``send`` calls: on loopback each costs about as much
    as the rest of a small request (benchmarks/RESULTS.md, "HTTP/JSON and the web page (issue 21)"). The
    header block of a final reply (not ``1xx``: a ``100 Continue`` goes at once) is held until the next
    event of the connection (its body, the empty end of message, or the close), and sent with it. Hypercorn also cancels and starts a timer task
    at each request (idle, busy, idle again); here one task per connection waits with a deadline that moves
    (the keep-alive seconds while idle, none while a request is in progress), as Hypercorn's timer closes an
    idle connection at the keep-alive time (its headers incomplete included) or at once when the server
    stops, and a busy one once its request is answered. The two took a single request's server CPU from
    about 490 to 400 µs (benchmarks/RESULTS.md, "HTTP/JSON and the web page (issue 21)").

    Both reach into ``TCPServer``'s internals (``protocol_send``, ``_idle_timeout``), which is why
    pyproject.toml pins Hypercorn below 0.19 (the versions tested); a newer release needs a look here first.
    """
    from hypercorn.events import RawData, Updated
    from hypercorn.trio.tcp_server import TCPServer

    class OneSendTCPServer(TCPServer):
        held = b""
        idle_deadline: float | None = None  # when an idle connection closes (inf: a request in progress; None: new)
        idle_scope: trio.CancelScope | None = None
        close_when_idle = False  # the server stopped while a request was in progress

        async def protocol_send(self, event: Any) -> None:
            if isinstance(event, Updated):
                await self._idle_changed(event.idle)
                return
            if isinstance(event, RawData):
                if self.held:
                    event = RawData(data=self.held + event.data)
                    self.held = b""
                elif event.data.startswith(b"HTTP/1.1 ") and not event.data.startswith(b"HTTP/1.1 1"):
                    self.held = event.data
                    return
            elif self.held:
                held, self.held = self.held, b""
                await super().protocol_send(RawData(data=held))
            await super().protocol_send(event)

        async def _idle_changed(self, idle: bool) -> None:
            """Hypercorn restarts a timer task at each change; here one task's deadline moves instead."""
            if idle and self.close_when_idle:
                with trio.CancelScope(shield=True):
                    await self._initiate_server_close()
                return
            self.idle_deadline = trio.current_time() + self.config.keep_alive_timeout if idle else math.inf
            if self.idle_scope is not None:
                self.idle_scope.deadline = self.idle_deadline

        async def _idle_timeout(self) -> None:
            """The connection's one keep-alive timer (started once by ``run``): an idle connection is closed
            at its deadline, or at once when the server stops; one with a request in progress when it is over."""
            if self.idle_deadline is None:  # a new connection: idle until its first request's headers
                self.idle_deadline = trio.current_time() + self.config.keep_alive_timeout
            with trio.CancelScope(deadline=self.idle_deadline) as scope:
                self.idle_scope = scope
                await self.context.terminated.wait()
            self.idle_scope = None
            if not scope.cancelled_caught and self.idle_deadline == math.inf:
                self.close_when_idle = True  # stopped during a request: closed once it is answered
                return
            with trio.CancelScope(shield=True):
                await self._initiate_server_close()

    return OneSendTCPServer


Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


async def _read_body(receive: Receive, declared: bytes | None, limit: int) -> bytes:
    """The request's body, at most ``limit`` bytes, within :data:`BODY_SECONDS` (ASGI ``receive``).

    Raises:
      TooLargeError: over ``limit`` (the rest read and discarded first, up to :data:`DISCARD_BYTES`).
      CommandError: the body did not arrive in time.
    """
    chunks: list[bytes] = []
    size = 0
    over = declared is not None and declared.isdigit() and int(declared) > limit
    with trio.move_on_after(BODY_SECONDS) as scope:
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                over = True
            if over:
                chunks.clear()
            else:
                chunks.append(chunk)
            if not message.get("more_body", False) or size > DISCARD_BYTES:
                break
    if over:
        raise TooLargeError(f"request body over {limit} bytes")
    if scope.cancelled_caught:
        raise CommandError(f"the request body did not arrive within {BODY_SECONDS:g} s")
    return b"".join(chunks)


def _query_fields(query: bytes, verb: str) -> dict[str, object]:
    """The query string's fields (``?puzzle=...&any``: a field without ``=`` is the empty string).

    A ``%XX`` byte that is not UTF-8 reaches the text layer as a lone surrogate, reported as ``byte 0xXX``
    as on the line port (docs/PROTOCOL.md), not as U+FFFD. A blank in ``rules`` is a ``+`` (a query string
    decodes ``+`` to a blank, so ``?rules=x+antiknight`` means ``x+antiknight``, as the docs write it).

    Raises:
      CommandError: a field given twice (the line protocol's words).
    """
    fields: dict[str, object] = {}
    text = query.decode("utf-8", "surrogateescape")
    for key, value in urllib.parse.parse_qsl(text, keep_blank_values=True, errors="surrogateescape"):
        if key in fields:
            raise CommandError(f"{verb}: option {quote(key)} given twice; try HELP {verb}")
        fields[key] = value.replace(" ", "+") if key == "rules" else value
    return fields


def _without_body(send: Send) -> Send:
    """``send`` for a ``HEAD``: the reply's start (its ``content-length`` that of the ``GET``), an empty body."""

    async def head_send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.body":
            message = {**message, "body": b""}
        await send(message)

    return head_send


class ApiApp:
    """The ASGI app of the HTTP front: ``GET``/``POST /api/v1/<verb>`` answered here, the rest by Starlette.

    The API's requests take the short way (a plain ASGI function: body, fields, answer, one JSON reply with its
    CORS header) rather than Starlette's middleware, request and response objects, which cost about a
    quarter of a small request's CPU (benchmarks/RESULTS.md, "HTTP/JSON and the web page (issue 21)"); Starlette serves everything else
    (``/healthz``, the OpenAPI document, the page, CORS preflights, 404 and 405).
    """

    def __init__(self, front: HttpFront, rest: Starlette) -> None:
        self.front = front
        self.rest = rest
        origins = front.config.http_cors
        self.any_origin = "*" in origins
        self.origins = frozenset(origin.encode("latin-1") for origin in origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "POST", "HEAD") and scope["path"].startswith(PREFIX):
            endpoint = json_api.ENDPOINTS.get(scope["path"][len(PREFIX) :])
            if endpoint is not None:
                if scope["method"] == "HEAD":  # GET's status and headers, no body (RFC 9110 9.3.2)
                    await self.api(endpoint, {**scope, "method": "GET"}, receive, _without_body(send))
                    return
                await self.api(endpoint, scope, receive, send)
                return
        await self.rest(scope, receive, send)

    async def api(self, endpoint: json_api.Endpoint, scope: Scope, receive: Receive, send: Send) -> None:
        headers: list[tuple[bytes, bytes]] = [(b"content-type", b"application/json")]
        origin = None
        declared = None
        forwarded = []
        for name, value in scope["headers"]:
            if name == b"origin":
                origin = value
            elif name == b"content-length":
                declared = value
            elif name == b"x-forwarded-for":
                forwarded.append(value.decode("latin-1"))
        if self.any_origin:
            headers.append((b"access-control-allow-origin", b"*"))
        elif origin is not None and origin in self.origins:
            headers += [(b"access-control-allow-origin", origin), (b"vary", b"Origin")]
        try:
            status, body, retry = await self._answer(endpoint, scope, receive, declared, forwarded)
        except PuzzleError as error:
            status, reply = json_api.error_reply(error)
            body, retry = json_api.dumps(reply), None
        except Exception as error:
            log.exception("HTTP %s %s: internal error", scope["method"], scope["path"])
            status, reply = json_api.error_reply(
                InternalError(f"{type(error).__name__} while answering {scope['path']}")
            )
            body, retry = json_api.dumps(reply), None
        if retry is not None and status in json_api.RETRY_STATUSES:
            headers.append((b"retry-after", str(retry).encode("ascii")))
        headers.append((b"content-length", str(len(body)).encode("ascii")))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def _answer(
        self, endpoint: json_api.Endpoint, scope: Scope, receive: Receive, declared: bytes | None, forwarded: list[str]
    ) -> tuple[int, bytes, int | None]:
        front = self.front
        config = front.config
        if front.in_progress >= config.max_connections:
            n = front.in_progress
            error = BusyError(f"{n} HTTP request{'s' if n != 1 else ''} in progress, try again later")
            return (
                json_api.status_of(error),
                json_api.dumps({"error": json_api.error_object(error)}),
                RETRY_BUSY_SECONDS,
            )
        if scope["method"] == "POST":
            fields = json_api.read_body(await _read_body(receive, declared, config.http_max_body))
            call = json_api.read_fields(endpoint, fields)
        else:
            call = json_api.read_fields(endpoint, _query_fields(scope["query_string"], endpoint.verb), query=True)
        if front.server.shutting_down:  # a request that came in after the server stopped accepting
            draining = json_api.draining_error()
            return (
                json_api.status_of(draining),
                json_api.dumps({"error": json_api.error_object(draining)}),
                RETRY_DRAINING_SECONDS,
            )
        if endpoint.direct:  # read, not solved (parse): no solver, no budget
            status, reply = json_parse.direct_reply(endpoint, call)
            return status, json_api.dumps(reply), None
        client = scope.get("client")
        address = front.address_of(client[0] if client else "?", forwarded)
        return await front.answer(endpoint, call, address)


def _static_files(front: HttpFront) -> Callable[..., Awaitable[None]]:
    """``/static/...``: the page's files (StaticFiles), or ``404`` for all while the directory does not exist."""
    directory = static_directory()
    files = StaticFiles(directory=directory, check_dir=False)

    async def static(scope: Any, receive: Any, send: Any) -> None:
        if directory.is_dir():
            await files(scope, receive, send)
            return
        body = json_api.dumps({"error": {"code": "command", "message": "no such path", "line": None}})
        await front.reply(404, body)(scope, receive, send)

    return static


def create_app(front: HttpFront) -> ApiApp:
    """The ASGI app of the HTTP front (docs/HTTP.md): the API (:class:`ApiApp`), and in Starlette ``/healthz``,
    the OpenAPI document, the page, CORS preflights and the JSON 404 and 405."""
    config = front.config

    def guarded(handler: Callable[[HttpRequest], Awaitable[Response]]) -> Callable[[HttpRequest], Awaitable[Response]]:
        async def run(request: HttpRequest) -> Response:
            try:
                return await handler(request)
            except Exception as error:
                log.exception("HTTP %s %s: internal error", request.method, request.url.path)
                return front.error(InternalError(f"{type(error).__name__} while answering {request.url.path}"))

        return run

    async def no_endpoint(request: HttpRequest) -> Response:
        if request.url.path == OPENAPI_PATH:  # POST to the document: its GET route matched only partly
            return await not_found(request, HTTPException(405, headers={"Allow": "GET, HEAD"}))
        body = {"error": {"code": "command", "message": f"no endpoint {request.url.path}", "line": None}}
        return front.reply(404, json_api.dumps(body))

    async def healthz(request: HttpRequest) -> Response:
        server = front.server
        if server.draining or server.shutting_down:
            headers = {"Retry-After": str(RETRY_DRAINING_SECONDS)}
            return Response(b"draining\n", status_code=503, media_type="text/plain", headers=headers)
        return Response(b"ok\n", media_type="text/plain")

    async def openapi_json(request: HttpRequest) -> Response:
        return Response(front.openapi_body, media_type="application/json")

    async def index(request: HttpRequest) -> Response:
        page = static_directory() / "index.html"
        if not page.is_file():
            return Response(b"the web page is not installed; the API is at /api/v1/\n", 404, media_type="text/plain")
        return FileResponse(page, media_type="text/html")

    async def not_found(request: HttpRequest, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        message = "no such path" if status == 404 else f"method {request.method} not allowed"
        response = front.reply(status, json_api.dumps({"error": {"code": "command", "message": message, "line": None}}))
        allow = (getattr(exc, "headers", None) or {}).get("Allow")
        if status == 405 and allow:
            response.headers["Allow"] = ", ".join(sorted(word.strip() for word in allow.split(",")))
        return response

    async def internal(request: HttpRequest, exc: Exception) -> Response:
        return front.error(InternalError(f"{type(exc).__name__} while answering {request.url.path}"))

    middleware: list[Middleware] = []
    if config.http_cors:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(config.http_cors),
                allow_methods=["GET", "POST"],
                allow_headers=["Content-Type"],
                max_age=86400,
            )
        )
    routes = [
        Route("/healthz", guarded(healthz), methods=["GET", "HEAD"]),
        Route(OPENAPI_PATH, guarded(openapi_json), methods=["GET", "HEAD"]),
        Route("/api/v1/{name}", guarded(no_endpoint), methods=["GET", "HEAD", "POST"]),  # ApiApp answers the endpoints
        Route("/", guarded(index), methods=["GET", "HEAD"]),
        Mount("/static", _static_files(front), name="static"),
    ]
    handlers: dict[Any, Any] = {404: not_found, 405: not_found, Exception: internal}
    app = Starlette(routes=routes, middleware=middleware, exception_handlers=handlers)
    app.router.redirect_slashes = False  # /api/v1/solve/ is no path (404), not a 307 to /api/v1/solve
    return ApiApp(front, app)
