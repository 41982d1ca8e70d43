"""The HTTP front's ASGI app (``--http-port``; :mod:`sudoku_server.net.http` is the rest).

:class:`ApiApp` answers ``GET``/``POST /api/v1/<verb>`` itself (a plain ASGI function, the short way) and hands
everything else to a Starlette app (``/healthz``, the OpenAPI document, the web page, CORS preflights, JSON 404
and 405); :mod:`sudoku_server.net.http_hypercorn` serves it on the HTTP port's sockets.
"""

from __future__ import annotations

import importlib.resources
import logging
import urllib.parse
from collections.abc import Awaitable, Callable, MutableMapping
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
from sudoku_server.wire import json_api
from sudoku_server.wire.json_api import PREFIX

if TYPE_CHECKING:
    from sudoku_server.net.http import HttpFront, Stream

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
#: The page's Content-Security-Policy: its scripts, styles and requests from this origin only (no inline script
#: or style, no ``eval``), no plugin, no framing by any page (clickjacking).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self';"
    " object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: Headers of every reply of the HTTP port (docs/HTTP.md "Security headers").
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode("ascii")),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
)


class SecurityHeaders:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every reply of the app it wraps (a header the app set wins)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers += [header for header in SECURITY_HEADERS if header[0] not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


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
        started = False

        async def stream(data: bytes | None) -> None:
            """A batch reply sent as it comes (chunked): ``None`` starts it, bytes are a piece of it."""
            nonlocal started
            if data is None:
                started = True
                await send({"type": "http.response.start", "status": 200, "headers": headers + list(SECURITY_HEADERS)})
            else:
                await send({"type": "http.response.body", "body": data, "more_body": True})

        try:
            answered = await self._answer(endpoint, scope, receive, declared, forwarded, stream)
            if answered is None:  # streamed
                await send({"type": "http.response.body", "body": b"", "more_body": False})
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
        headers += SECURITY_HEADERS
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
            fields = json_api.read_body(await _read_body(receive, declared, config.http_max_body))
            call = json_api.read_fields(endpoint, fields)
        else:
            call = json_api.read_fields(endpoint, _query_fields(scope["query_string"], endpoint), query=True)
        if front.server.shutting_down:  # a request that came in after the server stopped accepting
            draining = json_api.draining_error()
            return (
                json_api.status_of(draining),
                json_api.dumps({"error": json_api.error_object(draining)}),
                RETRY_DRAINING_SECONDS,
            )
        client = scope.get("client")
        address = front.address_of(client[0] if client else "?", forwarded)
        return await front.answer(endpoint, call, address, stream)


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
            headers = {"Retry-After": str(RETRY_DRAINING_SECONDS), "Connection": "close"}
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

    middleware: list[Middleware] = [Middleware(SecurityHeaders)]
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
