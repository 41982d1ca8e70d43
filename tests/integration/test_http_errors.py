"""The HTTP front's errors as data: every status of docs/HTTP.md "Errors", with its exact JSON and headers."""

from __future__ import annotations

import ipaddress
import socket
import threading
import time

import trio

from sudoku_server.sudoku import solver as _solver
from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.httptools import afetch, fetch, running_http_server

#: r1c1 empty: the fake solvers below spin on it (calling ``check``); any other puzzle is solved.
SLOW = ".." + NEWSPAPER_SOLUTION[2:]
TWO = "." * 80 + "9"
UNSOLVABLE = "12345678." + "........9" + "." * 63


def spinning_solve(grid, *, check):
    """Spins (calling ``check``) on a puzzle whose r1c1 is empty, else solves."""
    if grid.cells[0] == 0:
        while True:
            check()
            time.sleep(0.001)
    return _solver.solve(grid, check=check)


def error(code: str, message: str, line: int | None = 1) -> dict:
    return {"error": {"code": code, "message": message, "line": line}}


async def test_422_unsolvable_multiple_mismatch():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": UNSOLVABLE})
        assert (reply.status, reply.json) == (422, error("unsolvable", "no digit fits r1c9"))
        for verb in ("rate", "hint", "steps"):
            reply = await afetch(port, "POST", f"/api/v1/{verb}", {"puzzle": TWO})
            assert (reply.status, reply.json) == (
                422,
                error("multiple", "the puzzle has more than one solution (r8c2 can be 4 or 7)"),
            ), verb
        wrong = NEWSPAPER_SOLUTION[:80] + "4"
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": f"{NEWSPAPER_LINE},{wrong}"})
        assert (reply.status, reply.json) == (
            422,
            {
                "error": {
                    "code": "mismatch",
                    "message": "the row's solution has 4 at r9c9, the solution found has 5",
                    "line": 1,
                    "cell": "r9c9",
                }
            },
        )


async def test_504_timeout():
    async with running_http_server(solve=spinning_solve, solve_timeout=0.2, solver_threads=1) as (server, port):
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": SLOW})
        assert (reply.status, reply.json) == (504, error("timeout", "no answer within 0.2 s"))
        assert "retry-after" not in reply.headers


async def test_429_budget_with_retry_after():
    overrides = {"solve_timeout": 0.3, "solver_threads": 1, "budget_seconds": 0.1, "budget_window": 1000.0}
    async with running_http_server(solve=spinning_solve, **overrides) as (server, port):
        first = await afetch(port, "POST", "/api/v1/solve", {"puzzle": SLOW})
        assert first.status == 504
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": NEWSPAPER_LINE})
        assert (reply.status, reply.json) == (
            429,
            error("busy", "connection budget used (0.1 solver seconds per 1000 s); the puzzle was not solved"),
        )
        # about 0.2 s over a budget refilled at 0.1 s per 1000 s: some 2000 s
        assert 1000 <= int(reply.headers["retry-after"]) <= 4000
        # a batch: each puzzle refused in its place, the batch itself answered
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzles": [NEWSPAPER_LINE, NEWSPAPER_LINE]})
        assert reply.status == 200
        message = "connection budget used (0.1 solver seconds per 1000 s); the puzzle {} of 2 was not solved"
        assert reply.json == {"results": [error("busy", message.format(1)), error("busy", message.format(2))]}
        # idle past the window but still in debt: remembered until refilled, as its Retry-After says
        # (break-session finding: forgotten after the window, it was served again long before)
        front = server.http
        assert front is not None and len(front.clients) == 1
        front.sweep(time.monotonic() + 1001.0)
        assert len(front.clients) == 1
        front.sweep(time.monotonic() + 5000.0)  # refilled by then
        assert front.clients == {}


async def test_503_queue_wait_and_clients_by_forwarded_address():
    overrides = {
        "solve_timeout": 1.0,
        "solver_threads": 1,
        "queue_timeout": 0.2,
        "time_slice": 5.0,  # the slow job does not pause for the newcomer
        "http_trusted_proxies": (ipaddress.ip_network("127.0.0.1/32"),),
    }
    async with running_http_server(solve=spinning_solve, **overrides) as (server, port):
        async with trio.open_nursery() as nursery:
            slow: list = []

            async def hog() -> None:
                slow.append(
                    await afetch(port, "POST", "/api/v1/solve", {"puzzle": SLOW}, {"X-Forwarded-For": "10.0.0.1"})
                )

            nursery.start_soon(hog)
            await trio.sleep(0.2)
            reply = await afetch(
                port, "POST", "/api/v1/solve", {"puzzle": NEWSPAPER_LINE}, {"X-Forwarded-For": "192.0.2.9, 10.0.0.2"}
            )
        assert (reply.status, reply.json) == (
            503,
            error("busy", "queue wait over 0.2 s; the puzzle was not solved"),
        )
        assert reply.headers["retry-after"] == "1"
        assert slow[0].status == 504
        assert sorted(server.http.clients) == ["10.0.0.1", "10.0.0.2"]


async def test_forwarded_for_ignored_without_a_trusted_proxy():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/count", {"puzzle": TWO}, {"X-Forwarded-For": "10.0.0.1"})
        assert reply.status == 200
        assert sorted(server.http.clients) == ["127.0.0.1"]


async def test_503_too_many_requests_in_progress():
    overrides = {"solve_timeout": 0.5, "solver_threads": 1, "max_connections": 1}
    async with running_http_server(solve=spinning_solve, **overrides) as (server, port):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(afetch, port, "POST", "/api/v1/solve", {"puzzle": SLOW})
            await trio.sleep(0.15)
            reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": NEWSPAPER_LINE})
        assert (reply.status, reply.json) == (503, error("busy", "1 HTTP request in progress, try again later", None))
        assert reply.headers["retry-after"] == "1"


async def test_500_internal_from_the_solver_and_from_the_front():
    def broken(grid, *, check):
        raise ValueError("boom")

    async with running_http_server(solve=broken) as (server, port):
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": NEWSPAPER_LINE})
        assert (reply.status, reply.json) == (500, error("internal", "ValueError while solving the puzzle"))

        async def fault(*args, **kwargs):
            raise RuntimeError("a bug")

        server.http.answer = fault
        reply = await afetch(port, "POST", "/api/v1/count", {"puzzle": TWO})
        assert (reply.status, reply.json) == (
            500,
            error("internal", "RuntimeError while answering /api/v1/count", None),
        )
        assert b"Traceback" not in reply.body and b"a bug" not in reply.body


async def test_413_body_over_the_limit_read_and_discarded():
    async with running_http_server(http_max_body=1000) as (server, port):
        reply = await afetch(port, "POST", "/api/v1/solve", b"x" * 5000, {"Content-Type": "application/json"})
        assert (reply.status, reply.json) == (413, error("too-large", "request body over 1000 bytes", None))

        def expect_continue() -> bytes:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                head = (
                    "POST /api/v1/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    "Content-Length: 5000\r\nExpect: 100-continue\r\n\r\n"
                )
                sock.sendall(head.encode())
                seen = b""
                while b"\r\n\r\n" not in seen:
                    seen += sock.recv(4096)
                assert seen.startswith(b"HTTP/1.1 100 ")
                sock.sendall(b"x" * 5000)
                # the same connection then serves another request: the body was read, not left in the way
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                data = seen
                while not data.endswith(b"ok\n"):
                    chunk = sock.recv(4096)
                    assert chunk
                    data += chunk
                return data

        data = await trio.to_thread.run_sync(expect_continue)
        assert b"HTTP/1.1 413 \r\n" in data
        assert b'{"error":{"code":"too-large","message":"request body over 1000 bytes","line":null}}' in data
        assert data.index(b"HTTP/1.1 413 ") < data.index(b"HTTP/1.1 200 ")  # then /healthz, on the same connection


async def test_cors_default_off_and_chosen_origins():
    path = f"/api/v1/count?puzzle={TWO}"
    async with running_http_server() as (server, port):
        reply = await afetch(port, "GET", path, headers={"Origin": "https://example.org"})
        assert reply.headers["access-control-allow-origin"] == "*"
        reply = await afetch(
            port,
            "OPTIONS",
            "/api/v1/solve",
            headers={"Origin": "https://example.org", "Access-Control-Request-Method": "POST"},
        )
        assert reply.status == 200
        assert reply.headers["access-control-allow-origin"] == "*"
        assert reply.headers["access-control-allow-methods"] == "GET, POST"
    async with running_http_server(http_cors=()) as (server, port):
        reply = await afetch(port, "GET", path, headers={"Origin": "https://example.org"})
        assert reply.status == 200 and "access-control-allow-origin" not in reply.headers
    async with running_http_server(http_cors=("https://a.example",)) as (server, port):
        reply = await afetch(port, "GET", path, headers={"Origin": "https://a.example"})
        assert reply.headers["access-control-allow-origin"] == "https://a.example"
        reply = await afetch(port, "GET", path, headers={"Origin": "https://b.example"})
        assert "access-control-allow-origin" not in reply.headers


async def test_a_refused_cors_preflight_is_a_json_error():
    """Break-session finding: Starlette's refusal was ``400`` ``text/plain`` ``Disallowed CORS method``."""
    async with running_http_server() as (server, port):
        reply = await trio.to_thread.run_sync(
            lambda: fetch(
                port,
                "OPTIONS",
                "/api/v1/solve",
                headers={"Origin": "https://example.org", "Access-Control-Request-Method": "PUT"},
            )
        )
    assert (reply.status, reply.headers["content-type"]) == (400, "application/json")
    assert reply.json == {"error": {"code": "command", "message": "CORS preflight: disallowed method", "line": None}}
    assert reply.headers["access-control-allow-methods"] == "GET, POST"


async def test_healthz_503_while_draining_and_requests_after_the_stop():
    async with running_http_server(drain_grace=30.0, shutdown_grace=2.0) as (server, port):
        server.stop()
        reply = await afetch(port, "GET", "/healthz")
        assert (reply.status, reply.body, reply.headers["retry-after"]) == (503, b"draining\n", "5")
        # still served while draining (a load balancer takes the server out meanwhile)
        reply = await afetch(port, "POST", "/api/v1/count", {"puzzle": TWO})
        assert reply.status == 200

        # a request whose headers came before the server stopped accepting, its body after
        sent = threading.Event()
        go_on = threading.Event()

        def late_body() -> bytes:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                body = ('{"puzzle": "' + TWO + '"}').encode()
                head = f"POST /api/v1/count HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n"
                sock.sendall(head.encode())
                sent.set()
                go_on.wait(10)
                sock.sendall(body)
                data = b""
                while b'"line":null}}' not in data:
                    chunk = sock.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                return data

        async with trio.open_nursery() as nursery:
            result: list = []

            async def client() -> None:
                result.append(await trio.to_thread.run_sync(late_body))

            nursery.start_soon(client)
            await trio.to_thread.run_sync(sent.wait)
            await trio.sleep(0.1)
            server.shutdown()
            await trio.sleep(0.05)
            go_on.set()
        assert result[0].startswith(b"HTTP/1.1 503 \r\n")
        assert b"retry-after: 5\r\n" in result[0]
        assert result[0].endswith(
            b'{"error":{"code":"draining","message":"server shutting down, use another","line":null}}'
        )


async def test_503_shutdown_when_the_grace_ends_before_the_answer(wallclock):
    overrides = {"solve_timeout": 30.0, "solver_threads": 1, "shutdown_grace": 0.3}
    async with running_http_server(solve=spinning_solve, **overrides) as (server, port):
        async with trio.open_nursery() as nursery:
            replies: list = []

            async def slow() -> None:
                replies.append(await afetch(port, "POST", "/api/v1/solve", {"puzzle": SLOW}))

            nursery.start_soon(slow)
            await trio.sleep(0.2)
            started = trio.current_time()
            server.shutdown()
        wallclock.below(trio.current_time() - started, 3, "the 503 after the grace")
        reply = replies[0]
        assert (reply.status, reply.json) == (
            503,
            error("shutdown", "server shutting down before the puzzle was answered"),
        )
        assert reply.headers["retry-after"] == "5"


async def test_a_batch_past_the_reply_window_at_the_end_of_the_grace_is_answered_shutdown_to_its_end():
    """A second break session's finding: at the end of the stop's grace the batch went on submitting the puzzles
    past its reply window for a client the pool had dropped (KeyError, logged as an internal error) and the
    chunked reply was cut. Every puzzle not answered is now ``shutdown``, and the JSON is whole."""
    overrides = {"solve_timeout": 30.0, "solver_threads": 1, "shutdown_grace": 0.3}
    count = 200  # more than the reply window (AHEAD_PUZZLES, 128): some are submitted after the drop
    replies: list = []
    async with running_http_server(solve=spinning_solve, **overrides) as (server, port), trio.open_nursery() as nursery:

        async def batch() -> None:
            replies.append(await afetch(port, "POST", "/api/v1/solve", {"puzzles": [SLOW] * count}))

        nursery.start_soon(batch)
        await trio.sleep(0.3)
        server.shutdown()
    reply = replies[0]
    assert reply.status == 200
    assert [item["error"]["code"] for item in reply.json["results"]] == ["shutdown"] * count
    assert reply.json["results"][-1]["error"]["message"] == (
        f"server shutting down before the puzzle {count} of {count} was answered"
    )


async def test_a_second_signal_answers_http_requests_at_once(wallclock):
    overrides = {"solve_timeout": 30.0, "solver_threads": 1, "shutdown_grace": 20.0}
    async with running_http_server(solve=spinning_solve, **overrides) as (server, port):
        async with trio.open_nursery() as nursery:
            replies: list = []

            async def slow() -> None:
                replies.append(await afetch(port, "POST", "/api/v1/solve", {"puzzle": SLOW}))

            nursery.start_soon(slow)
            await trio.sleep(0.2)
            started = trio.current_time()
            server.shutdown()
            await trio.sleep(0.1)
            server.close_connections()
        wallclock.below(trio.current_time() - started, 3, "the answer after the second signal")
        assert (replies[0].status, replies[0].json["error"]["code"]) == (503, "shutdown")


async def test_http_requests_are_counted_by_endpoint_and_status():
    """Break-session finding: HTTP requests showed nowhere in the metrics (an operator saw no HTTP error or load)."""
    async with running_http_server() as (server, port):
        for _ in range(3):
            assert (await afetch(port, "GET", f"/api/v1/solve?puzzle={NEWSPAPER_LINE}")).status == 200
        assert (await afetch(port, "GET", "/api/v1/solve?puzzle=77")).status == 400
        reply = await afetch(port, "POST", "/api/v1/count", {"puzzles": [NEWSPAPER_LINE, "77"]})
        assert reply.status == 200
        assert dict(server.stats.http_requests) == {("solve", 200): 3, ("solve", 400): 1, ("count", 200): 1}
        server.metrics.sync()
        text = server.metrics.exposition().decode()
        assert 'sudoku_http_requests_total{endpoint="solve",status="200"} 3.0' in text
        assert 'sudoku_http_requests_total{endpoint="solve",status="400"} 1.0' in text
        assert 'sudoku_http_requests_total{endpoint="count",status="200"} 1.0' in text
