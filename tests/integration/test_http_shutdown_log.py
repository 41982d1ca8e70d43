"""The stop's log lines count the HTTP requests as they are answered (break-session finding: the end of the grace
said "answering 4 HTTP request(s) 503 shutdown" of two single requests and two batches, the batches answered 200
with their puzzles ``shutdown``; and "stopped accepting; 0 connection(s) finishing" left the HTTP requests out)."""

from __future__ import annotations

import logging

import trio

from tests.integration.test_http_errors import SLOW, spinning_solve
from tests.support.examples import NEWSPAPER_LINE
from tests.support.httptools import afetch, running_http_server


def _stop_lines(caplog) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == "sudoku_server" and record.getMessage().startswith(("stopped accepting", "shutdown grace"))
    ]


async def test_the_stop_logs_the_http_requests_and_batch_puzzles_it_answers_shutdown(caplog):
    caplog.set_level(logging.INFO, logger="sudoku_server")
    overrides = {"solve_timeout": 30.0, "solver_threads": 1, "shutdown_grace": 0.3}
    statuses: list[tuple[int, list[str] | None]] = []
    async with running_http_server(solve=spinning_solve, **overrides) as (server, port), trio.open_nursery() as nursery:

        async def send(body: dict) -> None:
            reply = await afetch(port, "POST", "/api/v1/solve", body)
            results = reply.json.get("results")
            codes = [item["error"]["code"] if "error" in item else "ok" for item in results] if results else None
            statuses.append((reply.status, codes))

        nursery.start_soon(send, {"puzzles": [NEWSPAPER_LINE, SLOW]})  # its first puzzle answered, then it spins
        await trio.sleep(0.2)
        for body in ({"puzzle": SLOW}, {"puzzle": SLOW}, {"puzzles": [SLOW] * 3}):  # queued behind it
            nursery.start_soon(send, body)
        await trio.sleep(0.3)
        server.shutdown()
    assert sorted(statuses, key=repr) == [
        (200, ["ok", "shutdown"]),
        (200, ["shutdown", "shutdown", "shutdown"]),
        (503, None),
        (503, None),
    ]
    assert _stop_lines(caplog) == [
        "stopped accepting; 0 connection(s) finishing, 4 HTTP request(s) in progress",
        "shutdown grace over: answering 2 HTTP requests 503 shutdown and 4 puzzles of 2 HTTP batches shutdown"
        " in their place",
    ]


async def test_the_stop_logs_one_http_request_in_the_singular(caplog):
    caplog.set_level(logging.INFO, logger="sudoku_server")
    overrides = {"solve_timeout": 30.0, "solver_threads": 1, "shutdown_grace": 0.3}
    async with running_http_server(solve=spinning_solve, **overrides) as (server, port), trio.open_nursery() as nursery:
        nursery.start_soon(afetch, port, "POST", "/api/v1/solve", {"puzzle": SLOW})
        await trio.sleep(0.3)
        server.shutdown()
    assert _stop_lines(caplog) == [
        "stopped accepting; 0 connection(s) finishing, 1 HTTP request(s) in progress",
        "shutdown grace over: answering 1 HTTP request 503 shutdown",
    ]
