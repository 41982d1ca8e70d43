"""Helpers of the HTTP front's tests: a server with ``--http-port`` in-process, and a plain stdlib client.

The client is :mod:`http.client` run in a thread (``trio.to_thread``), one connection per call unless one is
passed: the requests are real HTTP/1.1 over loopback sockets.
"""

from __future__ import annotations

import http.client
import json
from contextlib import asynccontextmanager
from dataclasses import dataclass

import trio

from sudoku_server.net.config import ServerConfig
from sudoku_server.net.http_bind import listen_sockets
from sudoku_server.net.server import SudokuServer


@dataclass
class Reply:
    """An HTTP reply: status, headers (lower-case names), body bytes."""

    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def json(self):
        return json.loads(self.body)


@asynccontextmanager
async def running_http_server(solve=None, **overrides):
    """A SudokuServer on 127.0.0.1 port 0 with its HTTP front on another free port; yields (server, http_port)."""
    config = ServerConfig(host="127.0.0.1", port=0, **overrides)
    server = SudokuServer(config, **({"solve": solve} if solve else {}))
    sockets = listen_sockets("127.0.0.1", 0)
    port = sockets[0].getsockname()[1]
    async with trio.open_nursery() as nursery:
        server.listeners = await nursery.start(
            lambda task_status: server.serve(http_sockets=sockets, task_status=task_status)
        )
        yield server, port
        nursery.cancel_scope.cancel()


def fetch(port: int, method: str, path: str, body=None, headers=None, conn=None) -> Reply:
    """One request (``body``: bytes, or an object sent as JSON); blocking: call it in a thread."""
    own = conn is None
    if conn is None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    headers = dict(headers or {})
    if body is not None and not isinstance(body, bytes):
        body = json.dumps(body).encode()
        headers.setdefault("Content-Type", "application/json")
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        return Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, data)
    finally:
        if own:
            conn.close()


async def afetch(port: int, method: str, path: str, body=None, headers=None, conn=None) -> Reply:
    """:func:`fetch` in a thread; an API reply is checked against the OpenAPI document (:func:`check_reply`)."""
    reply = await trio.to_thread.run_sync(lambda: fetch(port, method, path, body, headers, conn))
    check_reply(method, path, reply)
    return reply


_DOCUMENT: dict = {}


def check_reply(method: str, path: str, reply: Reply) -> None:
    """A reply of an API endpoint (``GET``/``POST`` ``/api/v1/<verb>``) matches the OpenAPI document's schema
    for its status (and has the headers it lists: ``Retry-After``, ``Allow``)."""
    import jsonschema

    from sudoku_server.wire.openapi import document

    if not _DOCUMENT:
        _DOCUMENT.update(document("test"))
    operation = _DOCUMENT["paths"].get(path.split("?", 1)[0], {}).get(method.lower())
    if operation is None or not path.startswith("/api/v1/") or "openapi" in path:
        return
    response = operation["responses"][str(reply.status)]
    schema = response["content"]["application/json"]["schema"]
    jsonschema.Draft202012Validator({**schema, "components": _DOCUMENT["components"]}).validate(json.loads(reply.body))
    for name in response.get("headers", {}):  # Retry-After (a 429 or 503), Allow (a 405)
        assert reply.headers[name.lower()]
        if name == "Retry-After":
            assert int(reply.headers["retry-after"]) >= 1
