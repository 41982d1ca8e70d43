"""The HTTP front's ASGI app (``--http-port``; :mod:`sudoku_server.net.http` is the rest).

One Starlette app (:func:`create_app`): one router whose routes are an :class:`ApiEndpoint` per verb (a plain ASGI
app, the short way), ``/healthz``, the OpenAPI document, the web page and its files; Starlette's CORS middleware and
:class:`SecurityHeaders` on every reply; the JSON 404, 405 and 500. The endpoints are module-level and can be called
alone (the front is ``request.app.state.front``). :mod:`sudoku_server.net.http_hypercorn` serves it on the HTTP
port's sockets.
"""

from __future__ import annotations

import functools
import importlib.resources
import logging
import re
import urllib.parse
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

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
from sudoku_server.wire.rules_json import RULES_PATH, rules_document

if TYPE_CHECKING:
    from sudoku_server.net.config import ServerConfig
    from sudoku_server.net.services import FrontServices

#: How a batch reply is sent as it comes: ``stream(None)`` starts it (200), ``stream(data)`` sends a piece.
Stream = Callable[[bytes | None], Awaitable[None]]


def _path_keeping_encoded_slashes(raw_path: bytes) -> str:
    """The request path of ``raw_path`` (its query left out) percent-decoded, but for ``%2F``, which stays as
    written (``/api%2Fv1%2Fsolve`` routes to no endpoint: s10-break finding 10)."""
    text = raw_path.split(b"?", 1)[0].decode("latin-1")
    return "%2F".join(urllib.parse.unquote(part) for part in re.split("%2[fF]", text))


class HttpFront(Protocol):
    """What the app needs of the HTTP front (:class:`sudoku_server.net.http.HttpFront` is the one), so that this
    module does not import the front (no import circle in ``net/``) and can be tested with any front."""

    server: FrontServices
    config: ServerConfig
    in_progress: int
    openapi_body: bytes

    def address_of(self, peer: str, forwarded_for: list[str]) -> str:
        """The client's address for the budget: ``peer``, or the last untrusted ``X-Forwarded-For`` hop."""
        ...

    async def answer(
        self, endpoint: json_api.Endpoint, call: json_api.Call, address: str, stream: Stream | None = None
    ) -> tuple[int, bytes, int | None] | None:
        """The reply of one API call, ``(status, JSON bytes, Retry-After)``, or None when it was streamed."""
        ...


log = logging.getLogger("sudoku_server")

#: Seconds a request's body may take to arrive, in all; then ``400 command`` (a slow body holds no more).
BODY_SECONDS = 10.0
#: Bytes of a request body read into fields on the event loop at most; a larger one is read in a worker thread
#: (one at a time), so that parsing its puzzles (a 1 MiB body: up to 1,000 puzzles) never stalls other clients.
PARSE_INLINE_BYTES = 16 * 1024
#: Bytes of an over-limit body read and discarded at most before the ``413`` (more: the connection closes).
DISCARD_BYTES = 64 * 1024 * 1024
#: Seconds in a ``Retry-After`` of a ``503 busy`` (the queue's wait bound) and of a ``503 draining``/``shutdown``.
RETRY_BUSY_SECONDS = 1
RETRY_DRAINING_SECONDS = 5
#: Where the OpenAPI document is served (GET and HEAD only).
OPENAPI_PATH = "/api/v1/openapi.json"
#: The page's Content-Security-Policy: its scripts, styles and requests from this origin only (no inline script
#: or style, no ``eval``), no plugin, no framing by any page (clickjacking).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self';"
    " object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: Headers of every reply of the HTTP port but the API's (docs/HTTP.md "Security headers").
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode("ascii")),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
)
#: The API's replies (JSON, never a document): a policy that allows nothing, as OWASP's REST cheat sheet has it, and
#: short (each header is validated again by h11 on every reply: the page's policy cost the single request ~10 µs).
API_SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", b"default-src 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
)


_SECURITY_NAMES = frozenset(name for name, _ in SECURITY_HEADERS)


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every reply of the app it wraps, :data:`API_SECURITY_HEADERS`
    on every reply under ``/api/`` (JSON, never a document: the endpoints, their 404 and 405, the OpenAPI document,
    the CORS preflight); a header the app set wins."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await refuse_websocket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        path = scope["path"]
        if path.startswith(("http://", "https://")):  # the absolute form (RFC 9112 3.2.2, which a server must accept)
            rest = path.split("://", 1)[1]
            path = rest[rest.find("/") :] if "/" in rest else "/"
            scope = {**scope, "path": path, "raw_path": path.encode("latin-1", "replace")}
        raw = scope.get("raw_path") or b""
        if b"%2f" in raw.lower():  # an encoded slash is part of a segment, never a separator: /api%2Fv1%2Fsolve is 404
            path = _path_keeping_encoded_slashes(raw)
            scope = {**scope, "path": path}
        ours = API_SECURITY_HEADERS if path.startswith("/api/") else SECURITY_HEADERS

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = message.get("headers", ())
                if any(name.lower() in _SECURITY_NAMES for name, _ in headers):
                    headers = [*headers, *(h for h in ours if h[0] not in {n.lower() for n, _ in headers})]
                else:
                    headers = [*headers, *ours]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


#: The reply to a WebSocket handshake (``Upgrade: websocket``): the port serves no WebSocket.
WEBSOCKET_REFUSED = {"error": {"code": "command", "message": "WebSocket is not served on this port", "line": None}}


async def refuse_websocket(scope: Scope, receive: Receive, send: Send) -> None:
    """Refuse a WebSocket handshake with ``400`` and the API's JSON error, through the ASGI WebSocket Denial
    Response extension (``websocket.http.response``, which Hypercorn offers); without it, a close (Hypercorn's
    bare ``403``). Starlette's router closed it, a bare ``403`` (break-session finding)."""
    await receive()  # websocket.connect
    if "websocket.http.response" not in scope.get("extensions", {}):
        await send({"type": "websocket.close"})
        return
    body = json_api.dumps(WEBSOCKET_REFUSED)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode("ascii")),
        *(API_SECURITY_HEADERS if scope["path"].startswith("/api/") else SECURITY_HEADERS),
    ]
    await send({"type": "websocket.http.response.start", "status": 400, "headers": headers})
    await send({"type": "websocket.http.response.body", "body": body})


class JsonCors(CORSMiddleware):
    """Starlette's CORS middleware whose refused preflight (``400 Disallowed CORS method``, text) is the API's JSON
    error (``{"error": {"code": "command", ...}}``), with the same CORS headers; an allowed one stays ``200 OK``."""

    def preflight_response(self, request_headers: Any) -> Response:
        response = super().preflight_response(request_headers)
        if response.status_code < 400:
            return response
        message = (
            bytes(response.body).decode("ascii", "replace").replace("Disallowed CORS", "CORS preflight: disallowed")
        )
        headers = {k: v for k, v in response.headers.items() if k.lower().startswith(("access-control-", "vary"))}
        return Response(json_api.dumps(_command(message)), response.status_code, headers, "application/json")


def static_directory() -> Path:
    """The web page's files: the package's ``web/static`` directory (it may be missing or empty)."""
    return Path(str(importlib.resources.files("sudoku_server") / "web" / "static"))


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


def _read_call(endpoint: json_api.Endpoint, body: bytes) -> json_api.Call:
    """A ``POST`` body's call (:func:`json_api.read_body`, :func:`json_api.read_fields`): pure, any thread."""
    return json_api.read_fields(endpoint, json_api.read_body(body))


def _query_fields(query: bytes, endpoint: json_api.Endpoint) -> dict[str, object]:
    """The query string's fields (``?puzzle=...&any``: a field without ``=`` is the empty string).

    A ``%XX`` byte that is not UTF-8 reaches the text layer as a lone surrogate, reported as ``byte 0xXX``
    as on the line port (docs/PROTOCOL.md), not as U+FFFD. A blank in ``rules`` is a ``+`` (a query string
    decodes ``+`` to a blank, so ``?rules=x+antiknight`` means ``x+antiknight``, as the docs write it).

    Raises:
      CommandError: a field given twice.
    """
    fields: dict[str, object] = {}
    text = query.decode("utf-8", "surrogateescape")
    for key, value in urllib.parse.parse_qsl(text, keep_blank_values=True, errors="surrogateescape"):
        if key in fields:
            raise CommandError(f"{endpoint.verb}: field {quote(key)} given twice; {json_api.fields_help(endpoint)}")
        fields[key] = value.replace(" ", "+") if key == "rules" else value
    return fields


def _without_body(send: Send) -> Send:
    """``send`` for a ``HEAD``: the reply's start (its ``content-length`` that of the ``GET``), an empty body."""

    async def head_send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.body":
            message = {**message, "body": b""}
        await send(message)

    return head_send


class ApiEndpoint:
    """``GET``/``HEAD``/``POST /api/v1/<name>``: one row of :data:`json_api.ENDPOINTS` as a plain ASGI app (a route
    of the one Starlette router; CORS and the security headers are the app's middleware).

    A plain ASGI app rather than Starlette's request and response objects: those cost about a quarter of a small
    request's CPU (benchmarks/RESULTS.md, "HTTP/JSON and the web page (issue 21)"). It can be called alone, with any
    ``front`` that has ``config``, ``server`` (with its ``stats``), ``in_progress``, ``address_of`` and ``answer``.
    """

    def __init__(self, front: HttpFront, endpoint: json_api.Endpoint, parsing: trio.CapacityLimiter) -> None:
        self.front = front
        self.endpoint = endpoint
        self.parsing = parsing  # large bodies are read in a worker thread, one at a time (shared by the endpoints)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["method"] == "HEAD":  # GET's status and headers, no body (RFC 9110 9.3.2)
            scope, send = {**scope, "method": "GET"}, _without_body(send)
        declared = None
        forwarded = []
        for name, value in scope["headers"]:
            if name == b"content-length":
                declared = value
            elif name == b"x-forwarded-for":
                forwarded.append(value.decode("latin-1"))
        headers: list[tuple[bytes, bytes]] = [(b"content-type", b"application/json"), *API_SECURITY_HEADERS]
        started = False

        async def stream(data: bytes | None) -> None:
            """A batch reply sent as it comes (chunked): ``None`` starts it, bytes are a piece of it."""
            nonlocal started
            if data is None:
                started = True
                await send({"type": "http.response.start", "status": 200, "headers": headers})
            else:
                await send({"type": "http.response.body", "body": data, "more_body": True})

        try:
            answered = await self._answer(self.endpoint, scope, receive, declared, forwarded, stream)
            if answered is None:  # streamed
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                self.front.server.stats.http_requests[(self.endpoint.name, 200)] += 1
                return
            status, body, retry = answered
        except PuzzleError as error:
            status, reply = json_api.error_reply(error)
            body, retry = json_api.dumps(reply), None
        except Exception as error:
            log.exception("HTTP %s %s: internal error", scope["method"], scope["path"])
            if started:
                raise  # the reply has begun: the connection closes (Hypercorn ends it)
            status, reply = json_api.error_reply(
                InternalError(f"{type(error).__name__} while answering {scope['path']}")
            )
            body, retry = json_api.dumps(reply), None
        if retry is not None and status in json_api.RETRY_STATUSES:
            headers.append((b"retry-after", str(retry).encode("ascii")))
        server = self.front.server
        if server.shutting_down or (status == 503 and server.draining):
            headers.append((b"connection", b"close"))  # the client reconnects (to the next process of a restart)
        headers.append((b"content-length", str(len(body)).encode("ascii")))
        self.front.server.stats.http_requests[(self.endpoint.name, status)] += 1  # sudoku_http_requests_total
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def _answer(
        self,
        endpoint: json_api.Endpoint,
        scope: Scope,
        receive: Receive,
        declared: bytes | None,
        forwarded: list[str],
        stream: Stream,
    ) -> tuple[int, bytes, int | None] | None:
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
            if scope["query_string"]:  # never read: the request would be answered with defaults, silently
                names = ", ".join(quote(key) for key in _query_fields(scope["query_string"], endpoint))
                raise CommandError(
                    f"{endpoint.verb}: a POST takes its fields in the JSON body, not the query string ({names});"
                    " send them in the body, or the query with GET"
                )
            body = await _read_body(receive, declared, config.http_max_body)
            if len(body) > PARSE_INLINE_BYTES:  # off the event loop, one at a time
                call = await trio.to_thread.run_sync(_read_call, endpoint, body, limiter=self.parsing)
            else:
                call = _read_call(endpoint, body)
        else:
            call = json_api.read_fields(endpoint, _query_fields(scope["query_string"], endpoint), query=True)
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
        return await front.answer(endpoint, call, address, stream)


def _front(request: HttpRequest) -> HttpFront:
    return request.app.state.front


def _guarded(handler: Callable[[HttpRequest], Awaitable[Response]]) -> Callable[[HttpRequest], Awaitable[Response]]:
    """``handler``, its faults logged here and answered ``500 internal`` (no traceback to the client)."""

    @functools.wraps(handler)
    async def run(request: HttpRequest) -> Response:
        try:
            return await handler(request)
        except Exception as error:
            log.exception("HTTP %s %s: internal error", request.method, request.url.path)
            return _error(InternalError(f"{type(error).__name__} while answering {request.url.path}"))

    return run


def _json(status: int, body: bytes) -> Response:
    return Response(body, status_code=status, media_type="application/json")


def _error(error: PuzzleError) -> Response:
    status, body = json_api.error_reply(error)
    return _json(status, json_api.dumps(body))


@_guarded
async def healthz(request: HttpRequest) -> Response:
    """``GET /healthz``: ``200 ok``, or ``503 draining`` (``Retry-After: 5``, ``Connection: close``) from the stop
    signal on."""
    server = _front(request).server
    if server.draining or server.shutting_down:
        headers = {"Retry-After": str(RETRY_DRAINING_SECONDS), "Connection": "close"}
        return Response(b"draining\n", status_code=503, media_type="text/plain", headers=headers)
    return Response(b"ok\n", media_type="text/plain")


@_guarded
async def openapi_json(request: HttpRequest) -> Response:
    """``GET /api/v1/openapi.json``: the OpenAPI document (:mod:`sudoku_server.wire.openapi`)."""
    return Response(_front(request).openapi_body, media_type="application/json")


_RULES_BODY = json_api.dumps(rules_document())


@_guarded
async def rules_json(request: HttpRequest) -> Response:
    """``GET /api/v1/rules``: the rules the server knows (:mod:`sudoku_server.wire.rules_json`)."""
    return Response(_RULES_BODY, media_type="application/json")


@_guarded
async def index(request: HttpRequest) -> Response:
    """``GET /``: the web page (``web/static/index.html``), or ``404`` when it is not installed."""
    page = static_directory() / "index.html"
    if not page.is_file():
        return Response(b"the web page is not installed; the API is at /api/v1/\n", 404, media_type="text/plain")
    return _FileResponse(page, media_type="text/html")


#: The methods of :func:`no_endpoint`'s route (a function's route takes GET and HEAD unless told): every method
#: of RFC 9110, so that a path under ``/api/v1/`` that is no endpoint is ``404`` by any of them.
_EVERY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"]
_ENDPOINT_PATHS = frozenset(PREFIX + name for name in json_api.ENDPOINTS)


@_guarded
async def no_endpoint(request: HttpRequest) -> Response:
    """``/api/v1/<name>`` by any method its route does not take: ``404`` when it is no endpoint, whatever the
    method (``PUT /api/v1/nothing``); ``405`` with its ``Allow`` when it is one (``PUT /api/v1/solve``, ``POST``
    to the OpenAPI document): its own route matched only partly."""
    path = request.url.path
    if path in (OPENAPI_PATH, RULES_PATH):
        return await not_found(request, HTTPException(405, headers={"Allow": "GET, HEAD"}))
    if path in _ENDPOINT_PATHS:
        return await not_found(request, HTTPException(405, headers={"Allow": "GET, HEAD, POST"}))
    return _json(404, json_api.dumps(_command(f"no endpoint {path}")))


def _command(message: str) -> dict[str, Any]:
    return {"error": {"code": "command", "message": message, "line": None}}


async def not_found(request: HttpRequest, exc: Exception) -> Response:
    """The JSON ``404`` (no such path) and ``405`` (with its ``Allow``) of every route."""
    status = getattr(exc, "status_code", 404)
    message = "no such path" if status == 404 else f"method {request.method} not allowed"
    response = _json(status, json_api.dumps(_command(message)))
    allow = (getattr(exc, "headers", None) or {}).get("Allow")
    if status == 405 and allow:
        response.headers["Allow"] = ", ".join(sorted(word.strip() for word in allow.split(",")))
    return response


async def internal(request: HttpRequest, exc: Exception) -> Response:
    """Any other fault of a route: ``500 internal``, without its traceback."""
    return _error(InternalError(f"{type(exc).__name__} while answering {request.url.path}"))


def _asgi_24(scope: Any) -> Any:
    """``scope`` saying ASGI 2.4 to Starlette's ``FileResponse`` (the page and its files), so that it sends its
    file without listening for ``http.disconnect`` beside it. Hypercorn says 2.1; under it a reply that closes the
    connection (``Connection: close``, HTTP/1.0) ended, yet the connection stayed open, the response still waiting
    for a disconnect that Hypercorn sends only once the app has returned: every page and static file held its
    connection for good, no timeout applying (break-session finding: 100 connections held 150 s, and a stop
    waited its whole grace). A file is sent whole in milliseconds; to a client that is gone, into nothing."""
    return {**scope, "asgi": {**scope.get("asgi", {}), "spec_version": "2.4"}}


class _FileResponse(FileResponse):
    """Starlette's ``FileResponse`` under :func:`_asgi_24`."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await super().__call__(_asgi_24(scope), receive, send)


class StaticFilesOr404:
    """``/static/...``: the page's files (Starlette's ``StaticFiles``), or a JSON ``404`` for all while the
    directory does not exist."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.files = StaticFiles(directory=directory, check_dir=False)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if self.directory.is_dir():
            if scope["method"] not in ("GET", "HEAD"):  # StaticFiles says 405 before it looks: 404 for no file
                _, found = self.files.lookup_path(self.files.get_path(scope))
                if found is None:
                    await _json(404, json_api.dumps(_command("no such path")))(scope, receive, send)
                    return
            await self.files(_asgi_24(scope), receive, send)
            return
        await _json(404, json_api.dumps(_command("no such path")))(scope, receive, send)


def create_app(front: HttpFront) -> Starlette:
    """The ASGI app of the HTTP front (docs/HTTP.md): one Starlette router (an :class:`ApiEndpoint` per row of
    :data:`json_api.ENDPOINTS`, ``/healthz``, the OpenAPI document, the page and its files), Starlette's CORS
    (``--http-cors``), the security headers on every reply, and the JSON 404, 405 and 500."""
    config = front.config
    middleware: list[Middleware] = [Middleware(SecurityHeaders)]
    if config.http_cors:
        middleware.append(
            Middleware(
                JsonCors,
                allow_origins=list(config.http_cors),
                allow_methods=["GET", "POST"],
                allow_headers=["Content-Type"],
                max_age=86400,
            )
        )
    parsing = trio.CapacityLimiter(1)
    api = [
        Route(PREFIX + name, ApiEndpoint(front, endpoint, parsing), methods=["GET", "HEAD", "POST"])
        for name, endpoint in json_api.ENDPOINTS.items()
    ]
    routes = [
        *api,
        Route("/healthz", healthz, methods=["GET", "HEAD"]),
        Route(OPENAPI_PATH, openapi_json, methods=["GET", "HEAD"]),
        Route(RULES_PATH, rules_json, methods=["GET", "HEAD"]),
        Route("/api/v1/{name}", no_endpoint, methods=_EVERY_METHOD),  # after the others: what they did not take
        Route("/", index, methods=["GET", "HEAD"]),
        Mount("/static", StaticFilesOr404(static_directory()), name="static"),
    ]
    handlers: dict[Any, Any] = {404: not_found, 405: not_found, Exception: internal}
    app = Starlette(routes=routes, middleware=middleware, exception_handlers=handlers)
    app.router.redirect_slashes = False  # /api/v1/solve/ is no path (404), not a 307 to /api/v1/solve
    app.state.front = front
    return app
