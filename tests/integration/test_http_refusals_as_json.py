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
        (  # s9-break finding 1: a header block over 16 KiB that arrived whole was answered 200
            b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 20_000 + b"\r\n\r\n",
            b"431",
            b'{"error":{"code":"too-large","message":"request headers over 16384 bytes","line":null}}',
        ),
        (  # s9-break finding 13: HTTP.md now lists this 501 (RFC 9112 6.1)
            b'POST /api/v1/solve HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5\r\n{"a":\r\n0\r\n\r\n',
            b"501",
            b'{"error":{"code":"command","message":"malformed HTTP/1.1 request: Only Transfer-Encoding: chunked is'
            b' supported","line":null}}',
        ),
    ],
    ids=[
        "no-host",
        "200-KB-header",
        "garbage-request-line",
        "request-line-with-extra",
        "20-KB-header-whole",
        "transfer-encoding-gzip",
    ],
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


@pytest.mark.parametrize("piece", [1 << 20, 1000])
def test_the_header_limit_holds_however_the_bytes_arrive(piece):
    """s9-break finding 1: h11 bounds the headers only while incomplete, so 20 KB in one read passed and the same
    bytes in 1,000-byte pieces were 431. Fed to the server's h11 connection whole or in pieces: 431 both ways,
    and a block of 16,384 bytes is still a request."""
    import h11

    from sudoku_server.net.http_hypercorn import _ClosingConnection

    def event(data: bytes) -> object:
        connection = _ClosingConnection(h11.SERVER, max_incomplete_event_size=16384)
        try:
            for at in range(0, len(data), piece):
                connection.receive_data(data[at : at + piece])
                got = connection.next_event()
                if got is not h11.NEED_DATA:
                    return type(got).__name__
        except h11.RemoteProtocolError as error:
            return error.error_status_hint
        return "need data"

    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: "
    assert event(head + b"a" * 20_000 + b"\r\n\r\n") == 431
    assert event(head + b"a" * (16384 - len(head) - 4) + b"\r\n\r\n") == "Request"
    assert event(head + b"a" * (16385 - len(head) - 4) + b"\r\n\r\n") == 431
