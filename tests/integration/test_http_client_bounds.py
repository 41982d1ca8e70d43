"""What one HTTP client can hold (issue 32): a body deadline on every route, a write timeout, a reply window that
stops the work of a client that does not read, and the end of its work when it goes away."""

from __future__ import annotations

import logging
import socket
import struct
import threading
import time

import trio

from sudoku_server.net import http as http_front
from sudoku_server.net import http_app
from sudoku_server.sudoku import solver as _solver
from sudoku_server.wire import json_api
from tests.support.examples import NEWSPAPER, NEWSPAPER_SOLUTION
from tests.support.httptools import running_http_server


def read_to_eof(sock: socket.socket, limit: float = 20.0) -> bytes:
    sock.settimeout(limit)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass
    return data


def reset(sock: socket.socket) -> None:
    """Close with a reset (SO_LINGER 0), as a client killed mid-request."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


async def test_a_slow_body_on_a_static_file_is_closed_by_the_body_deadline(monkeypatch):
    monkeypatch.setattr(http_front, "BODY_SECONDS", 0.3)  # the connection's body deadline: 1.3 s
    async with running_http_server() as (server, port):

        def slow_body() -> tuple[bytes, int]:
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.sendall(b"GET /static/app.js HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\nx")
                sock.settimeout(0.2)
                data, sent = b"", 1
                while True:
                    try:
                        chunk = sock.recv(65536)
                    except TimeoutError:
                        try:
                            sock.sendall(b"x")  # one byte a tick: each read is quick, the body never ends
                            sent += 1
                        except OSError:
                            return data, sent
                        if sent > 200:
                            return data + b"<still open>", sent
                        continue
                    except ConnectionResetError:
                        return data, sent
                    if not chunk:
                        return data, sent
                    data += chunk

        data, sent = await trio.to_thread.run_sync(slow_body)
    assert data.startswith(b"HTTP/1.1 200 ") and not data.endswith(b"<still open>")
    assert sent < 200


async def test_a_slow_api_body_is_400_then_closed(monkeypatch):
    monkeypatch.setattr(http_app, "BODY_SECONDS", 0.3)
    monkeypatch.setattr(http_front, "BODY_SECONDS", 0.3)
    async with running_http_server() as (server, port):

        def slow_body() -> bytes:
            with socket.create_connection(("127.0.0.1", port)) as sock:
                sock.sendall(b"POST /api/v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
                return read_to_eof(sock)

        data = await trio.to_thread.run_sync(slow_body)
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ")
    assert body == b'{"error":{"code":"command","message":"the request body did not arrive within 0.3 s","line":null}}'


async def test_a_client_that_reads_no_reply_is_dropped_after_the_write_timeout(caplog):
    caplog.set_level(logging.INFO, logger="sudoku_server.http")
    async with running_http_server(idle_timeout=0.5) as (server, port):
        request = b"GET /static/app.js HTTP/1.1\r\nHost: x\r\n\r\n"
        size = len(http_app.static_directory().joinpath("app.js").read_bytes())

        def pipeline_and_read_nothing() -> int:
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", port))
            try:
                sock.sendall(request * 2000)
            except OSError:
                pass  # the server closed first
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and "took no reply" not in caplog.text:
                time.sleep(0.05)
            got = len(read_to_eof(sock))
            sock.close()
            return got

        got = await trio.to_thread.run_sync(pipeline_and_read_nothing)
    assert got < 2000 * size  # the server stopped writing and closed the connection
    assert "took no reply for 0.5 s" in caplog.text


async def test_a_batch_whose_reply_is_not_read_stops_its_work(monkeypatch):
    """The reply window: a batch's puzzles go to the solver AHEAD_PUZZLES at most ahead of what has been sent;
    a stream that does not take the reply (a client that does not read) so stops the work."""
    monkeypatch.setattr(http_front, "AHEAD_PUZZLES", 4)
    monkeypatch.setattr(http_front, "GATHER_BYTES", 1000)
    solved = []

    def counting(grid, *, check):
        solved.append(1)
        return _solver.solve(grid, check=check)

    async with running_http_server(solve=counting, solver_threads=1) as (server, port):
        front = server.http
        call = json_api.read_fields(json_api.ENDPOINTS["solve"], {"puzzles": [NEWSPAPER] * 100})
        pieces: list[bytes | None] = []
        stuck = trio.Event()

        async def stream(data: bytes | None) -> None:
            pieces.append(data)
            if data is not None:
                stuck.set()
                await trio.sleep_forever()  # the client reads nothing more

        async with trio.open_nursery() as nursery:
            nursery.start_soon(front.answer, json_api.ENDPOINTS["solve"], call, "10.0.0.1", stream)
            await stuck.wait()
            await trio.sleep(0.5)  # time for any work that would run on
            count = len(solved)
            nursery.cancel_scope.cancel()
    assert pieces[0] is None and pieces[1].startswith(b'{"results":[{"solution":"' + NEWSPAPER_SOLUTION.encode())
    sent = pieces[1].count(b'"solution"')
    assert sent <= count <= sent + 4  # the answers sent, and at most AHEAD_PUZZLES more (those ahead of the last sent)


async def test_a_streamed_batch_is_the_same_json_as_one_piece(monkeypatch):
    monkeypatch.setattr(http_front, "GATHER_BYTES", 1000)
    async with running_http_server() as (server, port):
        call = json_api.read_fields(json_api.ENDPOINTS["solve"], {"puzzles": [NEWSPAPER, "x", NEWSPAPER] * 10})
        pieces: list[bytes] = []

        async def stream(data: bytes | None) -> None:
            if data is not None:
                pieces.append(data)

        assert await server.http.answer(json_api.ENDPOINTS["solve"], call, "10.0.0.2", stream) is None
        monkeypatch.setattr(http_front, "GATHER_BYTES", 10**9)
        whole = await server.http.answer(json_api.ENDPOINTS["solve"], call, "10.0.0.2", stream)
    assert len(pieces) > 2 and whole is not None and b"".join(pieces) == whole[1]


async def test_a_client_that_goes_away_stops_its_job():
    """A batch of slow puzzles whose client resets: the running one stops at its next check (its job abandoned),
    the queued ones never start."""
    started: list[int] = []
    ended = threading.Event()
    how: list[str] = []

    def spinning(grid, *, check):
        started.append(1)
        try:
            for _ in range(60_000):  # a minute of search if nothing stops it
                check()
                time.sleep(0.001)
        except BaseException as error:
            how.append(type(error).__name__)
            raise
        finally:
            ended.set()
        return _solver.solve(grid, check=check)

    slow = ".." + NEWSPAPER_SOLUTION[2:]
    async with running_http_server(solve=spinning, solver_threads=1, solve_timeout=120.0) as (server, port):
        body = ('{"puzzles": ["' + '", "'.join([slow] * 3) + '"]}').encode()

        def send_then_reset() -> bool:
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(b"POST /api/v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            while not started:
                time.sleep(0.01)
            reset(sock)
            return ended.wait(30)

        assert await trio.to_thread.run_sync(send_then_reset)
        await trio.sleep(0.3)
    assert how == ["_Abandoned"] and len(started) == 1


async def test_a_large_batch_reply_goes_chunked_over_http_with_the_same_json(monkeypatch):
    from tests.support.httptools import afetch

    body = {"puzzles": [NEWSPAPER, "x", NEWSPAPER] * 10}
    async with running_http_server() as (server, port):
        whole = await afetch(port, "POST", "/api/v1/solve", body)
        monkeypatch.setattr(http_front, "GATHER_BYTES", 1000)
        streamed = await afetch(port, "POST", "/api/v1/solve", body)
    assert (whole.status, streamed.status) == (200, 200)
    assert whole.headers["content-length"] == str(len(whole.body)) and "transfer-encoding" not in whole.headers
    assert streamed.headers["transfer-encoding"] == "chunked" and "content-length" not in streamed.headers
    assert streamed.body == whole.body and len(streamed.json["results"]) == 30
    assert streamed.headers["content-security-policy"] == "default-src 'none'; frame-ancestors 'none'"


async def test_a_client_that_half_closes_after_its_request_gets_the_reply():
    """``nc -N`` and ``shutdown(SHUT_WR)`` end the client's sending, not its reading: the request in progress is
    answered (the same bytes as a client that keeps its connection), then the connection closes. Before, the
    end of input gave the request up and the client read nothing."""
    entered = threading.Event()
    release = threading.Event()

    def held(grid, *, check):
        entered.set()
        release.wait(30)  # the half-close arrives while the puzzle is in the solver
        return _solver.solve(grid, check=check)

    slow = ".." + NEWSPAPER_SOLUTION[2:]
    body = ('{"puzzle": "' + slow + '"}').encode()
    request = b"POST /api/v1/solve HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
    async with running_http_server(solve=held, solver_threads=1) as (_server, port):

        def half_close() -> bytes:
            sock = socket.create_connection(("127.0.0.1", port))
            with sock:
                sock.sendall(request)
                sock.shutdown(socket.SHUT_WR)
                assert entered.wait(30)
                time.sleep(0.2)  # the end of input is read before the answer is ready
                release.set()
                return read_to_eof(sock)

        reply = await trio.to_thread.run_sync(half_close)
    head, _, content = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 ")
    solution = NEWSPAPER_SOLUTION.encode()
    assert content == b'{"solution":"' + solution + b'","text":"' + solution + b'\\n"}'
