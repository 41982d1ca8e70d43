"""The HTTP layer's own refusals carry the API's JSON error (break-session finding: no ``Host``, a 200 KB header,
a malformed request line and ``Upgrade: websocket`` were a bare 400, 431 and 403 of h11 and Hypercorn)."""

from __future__ import annotations

import re

import pytest

from tests.integration.test_http_request_rules import raw_exchange
from tests.support.httptools import running_http_server

WEBSOCKET = (
    b"GET /api/v1/solve HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
)


def without_date(reply: bytes) -> bytes:
    return re.sub(rb"date: [^\r]*\r\n", b"", reply)


def refused(status: bytes, body: bytes) -> bytes:
    return b"HTTP/1.1 %s \r\ncontent-type: application/json\r\ncontent-length: %d\r\nconnection: close\r\n\r\n%s" % (
        status,
        len(body),
        body,
    )


@pytest.mark.parametrize(
    ("request_bytes", "status", "body"),
    [
        (
            b"GET /api/v1/solve HTTP/1.1\r\n\r\n",
            b"400",
            b'{"error":{"code":"command","message":"malformed HTTP/1.1 request: Missing mandatory Host: header",'
            b'"line":null}}',
        ),
        (
            b"GET /api/v1/solve HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200_000 + b"\r\n\r\n",
            b"431",
            b'{"error":{"code":"too-large","message":"request headers over 16384 bytes","line":null}}',
        ),
        (
            b"GARBAGE\r\n\r\n",
            b"400",
            b'{"error":{"code":"command","message":"malformed HTTP/1.1 request: illegal request line:'
            b' \'GARBAGE\'","line":null}}',
        ),
        (
            b"GET /api/v1/solve HTTP/1.1 extra\r\nHost: x\r\n\r\n",
            b"400",
            b'{"error":{"code":"command","message":"malformed HTTP/1.1 request: illegal request line:'
            b' \'GET /api/v1/solve HTTP/1.1 extra\'","line":null}}',
        ),
    ],
    ids=["no-host", "200-KB-header", "garbage-request-line", "request-line-with-extra"],
)
async def test_a_request_h11_refuses_gets_the_json_error_then_eof(request_bytes, status, body):
    async with running_http_server() as (server, port):
        assert without_date(await raw_exchange(port, request_bytes)) == refused(status, body)


async def test_a_websocket_handshake_is_400_with_the_json_error():
    body = b'{"error":{"code":"command","message":"WebSocket is not served on this port","line":null}}'
    async with running_http_server() as (server, port):
        assert without_date(await raw_exchange(port, WEBSOCKET)) == (
            b"HTTP/1.1 400 \r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
            b"content-security-policy: default-src 'none'; frame-ancestors 'none'\r\n"
            b"x-content-type-options: nosniff\r\nx-frame-options: DENY\r\n\r\n%s" % (len(body), body)
        )
