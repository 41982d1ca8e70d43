"""The HTTP front's endpoints are module-level and can be called alone (issue 28): an ASGI call with a stand-in
front, no server, no socket, no Hypercorn."""

from __future__ import annotations

from types import SimpleNamespace

from starlette.applications import Starlette
from starlette.requests import Request

from sudoku_server.net.http_app import ApiEndpoint, SecurityHeaders, healthz
from sudoku_server.net.metrics import Counts
from sudoku_server.wire import json_api
from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION


async def call(app, scope: dict, body: bytes = b"") -> tuple[int, dict[bytes, bytes], bytes]:
    """One ASGI request: status, headers, body."""
    sent: list[dict] = []
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message) -> None:
        sent.append(dict(message))

    await app({"type": "http", "headers": [], "query_string": b"", "client": ("10.0.0.9", 1), **scope}, receive, send)
    return sent[0]["status"], dict(sent[0]["headers"]), b"".join(m.get("body", b"") for m in sent[1:])


def server(draining: bool = False) -> SimpleNamespace:
    return SimpleNamespace(draining=draining, shutting_down=False, stats=Counts())


async def test_healthz_alone():
    app = Starlette()
    request = Request({"type": "http", "method": "GET", "path": "/healthz", "headers": [], "app": app})
    app.state.front = SimpleNamespace(server=server())
    response = await healthz(request)
    assert (response.status_code, response.body) == (200, b"ok\n")
    app.state.front = SimpleNamespace(server=server(draining=True))
    response = await healthz(request)
    assert (response.status_code, response.body) == (503, b"draining\n")
    assert (response.headers["connection"], response.headers["retry-after"]) == ("close", "5")


async def test_an_api_endpoint_alone_with_a_stand_in_front():
    asked = []

    async def answer(endpoint, call_, address, stream):
        asked.append((endpoint.name, [item.plain for item in call_.items], address))
        return 200, json_api.plain_solved(NEWSPAPER_SOLUTION), None

    import trio

    front = SimpleNamespace(
        config=SimpleNamespace(max_connections=10, http_max_body=1 << 20),
        server=server(),
        in_progress=0,
        address_of=lambda peer, forwarded: peer,
        answer=answer,
    )
    endpoint = ApiEndpoint(front, json_api.ENDPOINTS["solve"], trio.CapacityLimiter(1))  # type: ignore[arg-type]
    body = b'{"puzzle": "' + NEWSPAPER_LINE.encode() + b'"}'
    status, headers, reply = await call(endpoint, {"method": "POST", "path": "/api/v1/solve"}, body)
    assert (status, headers[b"content-type"], reply) == (
        200,
        b"application/json",
        json_api.plain_solved(NEWSPAPER_SOLUTION),
    )
    assert dict(front.server.stats.http_requests) == {("solve", 200): 1}  # counted for the metrics
    assert asked == [("solve", [NEWSPAPER_LINE], "10.0.0.9")]


async def test_security_headers_alone():
    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": [(b"x-frame-options", b"SAMEORIGIN")]})
        await send({"type": "http.response.body", "body": b"x"})

    status, headers, body = await call(SecurityHeaders(app), {"method": "GET", "path": "/"})
    assert headers[b"x-frame-options"] == b"SAMEORIGIN"  # the app's own header wins
    assert headers[b"x-content-type-options"] == b"nosniff"
    assert headers[b"content-security-policy"].endswith(b"frame-ancestors 'none'")
