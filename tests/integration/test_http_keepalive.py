"""The HTTP port's keep-alive timer (one per connection, ``net.http_hypercorn``): a connection idle between requests, or
still sending its headers (slowloris), is closed after the keep-alive seconds; a stop closes idle connections at
once and a busy one once its request is answered."""

from __future__ import annotations

import socket
import time

import trio

from sudoku_server.net import http as http_front
from sudoku_server.sudoku import solver as _solver
from tests.support.examples import NEWSPAPER_SOLUTION
from tests.support.httptools import running_http_server

SLOW = ".." + NEWSPAPER_SOLUTION[2:]


def closed_after(sock: socket.socket, limit: float = 10.0) -> float:
    """Seconds until the server closes ``sock`` (reading and dropping what it sends)."""
    started = time.monotonic()
    sock.settimeout(limit)
    while sock.recv(65536):
        pass
    return time.monotonic() - started


async def test_idle_and_slow_header_connections_are_closed(monkeypatch, wallclock):
    monkeypatch.setattr(http_front, "KEEP_ALIVE_SECONDS", 0.4)
    async with running_http_server() as (server, port):

        def scenarios() -> list[float]:
            seconds = []
            with socket.create_connection(("127.0.0.1", port)) as silent:
                seconds.append(closed_after(silent))
            with socket.create_connection(("127.0.0.1", port)) as slow:
                slow.sendall(b"GET /healthz HTTP/1.1\r\nHo")  # never ends its headers
                seconds.append(closed_after(slow))
            with socket.create_connection(("127.0.0.1", port)) as kept:
                kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                time.sleep(0.2)
                kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")  # within the keep-alive time
                started = time.monotonic()
                data = b""
                kept.settimeout(10)
                while chunk := kept.recv(65536):
                    data += chunk
                seconds.append(time.monotonic() - started)
                assert data.count(b"HTTP/1.1 200 ") == 2
            return seconds

        silent, slow, kept = await trio.to_thread.run_sync(scenarios)
    for seconds in (silent, slow, kept):
        assert seconds >= 0.3, (silent, slow, kept)
        wallclock.below(seconds, 3, "a connection's close after the keep-alive time")


async def test_a_stop_closes_idle_connections_at_once_and_busy_ones_after_their_answer(wallclock):
    def spinning(grid, *, check):
        if grid.cells[0] == 0:
            deadline = time.monotonic() + 0.5
            while time.monotonic() < deadline:
                check()
                time.sleep(0.001)
        return _solver.solve(grid, check=check)

    async with running_http_server(solve=spinning, solver_threads=1, shutdown_grace=5.0) as (server, port):
        idle = socket.create_connection(("127.0.0.1", port))
        busy = socket.create_connection(("127.0.0.1", port))
        body = ('{"puzzle": "' + SLOW + '"}').encode()
        busy.sendall(b"POST /api/v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
        await trio.sleep(0.1)
        server.shutdown()
        idle_closed = await trio.to_thread.run_sync(closed_after, idle)

        def answer_then_close() -> bytes:
            data = b""
            busy.settimeout(10)
            while chunk := busy.recv(65536):
                data += chunk
            return data

        data = await trio.to_thread.run_sync(answer_then_close)
        idle.close()
        busy.close()
    wallclock.below(idle_closed, 0.3, "an idle connection's close at the stop")
    assert data.startswith(b"HTTP/1.1 200 ") and NEWSPAPER_SOLUTION.encode() in data
