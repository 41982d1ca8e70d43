"""The HTTP port serves HTTP/1.1 only, and no client input ends the process (issue 32, "Broken").

Hypercorn 0.18 served HTTP/2 to any client that asked, and three frames (the preface, HEADERS of a GET
without END_STREAM, one DATA byte after the reply) raised ``KeyError`` in its HTTP/2 protocol, which ended
the process and its line port. The prior-knowledge preface is now answered ``505`` and closed; an
``Upgrade: h2c`` is ignored (answered in HTTP/1.1); a fault in one connection's protocol closes that
connection alone.
"""

from __future__ import annotations

import logging
import re
import socket
import time

import h2.config
import h2.connection
import pytest
import trio

from sudoku_server.net import http_hypercorn
from sudoku_server.net.http_hypercorn import HTTP2_REFUSED
from tests.support.httptools import afetch, running_http_server
from tests.support.servers import start_server_process, stop_server_process

EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EASY_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
_HTTP = re.compile(r"HTTP on http://\S+:(\d+)/")


def _h2_frames() -> tuple[bytes, bytes]:
    """The crash's frames: the preface with SETTINGS and HEADERS of ``GET /healthz`` (no END_STREAM); then
    one DATA byte on the same stream."""
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    headers = [(":method", "GET"), (":path", "/healthz"), (":scheme", "http"), (":authority", "localhost")]
    conn.send_headers(1, headers, end_stream=False)
    first = conn.data_to_send()
    conn.send_data(1, b"x")
    return first, conn.data_to_send()


def _read_to_eof(sock: socket.socket) -> bytes:
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return data
        if not chunk:
            return data
        data += chunk


def test_refusal_bytes():
    body = b'{"error":{"code":"command","message":"HTTP/2 is not served on this port: use HTTP/1.1","line":null}}'
    assert (
        b"HTTP/1.1 505 HTTP Version Not Supported\r\ncontent-type: application/json\r\n"
        b"content-length: 100\r\nconnection: close\r\n\r\n" + body
    ) == HTTP2_REFUSED
    assert len(body) == 100


async def test_prior_knowledge_preface_gets_505_then_eof():
    first, data = _h2_frames()
    async with running_http_server() as (server, port):

        def exchange() -> bytes:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(first)
                try:
                    sock.sendall(data)
                except OSError:
                    pass  # closed already
                return _read_to_eof(sock)

        assert await trio.to_thread.run_sync(exchange) == HTTP2_REFUSED
        reply = await afetch(port, "GET", "/healthz")
        assert (reply.status, reply.body) == (200, b"ok\n")


async def test_upgrade_h2c_is_answered_in_http11():
    async with running_http_server() as (server, port):

        def exchange() -> bytes:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(
                    b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                    b"Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n"
                    b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                )
                return _read_to_eof(sock)

        data = await trio.to_thread.run_sync(exchange)
        replies = re.findall(rb"HTTP/1\.1 (\d+) [^\r]*\r\n(?:[^\r]+\r\n)*\r\n(ok\n)", data)
        assert replies == [(b"200", b"ok\n"), (b"200", b"ok\n")]
        assert b"101" not in data.split(b"\r\n", 1)[0]


async def test_a_fault_in_one_connection_closes_it_alone(monkeypatch, caplog):
    """Any exception out of a connection's protocol is logged and closes that connection; others are served."""
    original = http_hypercorn.Http11Protocol.handle

    async def faulty(self, event):
        if getattr(event, "data", b"").startswith(b"BOOM"):
            raise KeyError(1)
        await original(self, event)

    monkeypatch.setattr(http_hypercorn.Http11Protocol, "handle", faulty)
    caplog.set_level(logging.INFO, logger="sudoku_server.http")
    async with running_http_server() as (server, port):

        def boom() -> bytes:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(b"BOOM\r\n\r\n")
                return _read_to_eof(sock)

        assert await trio.to_thread.run_sync(boom) == b""
        reply = await afetch(port, "GET", "/healthz")
        assert (reply.status, reply.body) == (200, b"ok\n")
    faults = [r for r in caplog.records if r.name == "sudoku_server.http" and "KeyError" in r.getMessage()]
    assert len(faults) == 1 and faults[0].levelname == "WARNING"
    assert re.fullmatch(r"HTTP connection 127\.0\.0\.1:\d+ closed: KeyError: 1", faults[0].getMessage())


@pytest.mark.parametrize("workers", [None, "2"])
def test_the_three_frames_do_not_end_the_process(workers):
    """The crash of issue 32 against a real process (and ``--workers 2``): the 505, the process alive, its line
    port and HTTP port answering, no restart of a worker."""
    extra = ["--http-port", "0"] + (["--workers", workers] if workers else [])
    proc, host, line_port = start_server_process(*extra)
    try:
        assert proc.stderr is not None
        http_port = None
        for _ in range(50):
            match = _HTTP.search(proc.stderr.readline().decode())
            if match:
                http_port = int(match.group(1))
                break
        assert http_port is not None
        first, data = _h2_frames()
        for _ in range(5 if workers else 1):
            with socket.create_connection((host, http_port), timeout=10) as sock:
                sock.sendall(first)
                time.sleep(0.2)
                try:
                    sock.sendall(data)
                except OSError:
                    pass
                assert _read_to_eof(sock) == HTTP2_REFUSED
        time.sleep(0.5)
        assert proc.poll() is None
        with socket.create_connection((host, line_port), timeout=10) as sock:
            sock.sendall(b"SOLVE " + EASY.encode() + b"\n")
            reply = b""
            while not reply.endswith(b"\n"):
                reply += sock.recv(4096)
        assert reply == EASY_SOLUTION.encode() + b"\n"
        with socket.create_connection((host, http_port), timeout=10) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert _read_to_eof(sock).endswith(b"\r\n\r\nok\n")
        proc.terminate()
        log = proc.stderr.read().decode()
        assert proc.wait(15) == 0
        assert " died " not in log and "Traceback" not in log  # no worker restarted, nothing uncaught
        assert log.count("HTTP/2 refused (505)") == (5 if workers else 1)
    finally:
        stop_server_process(proc)
