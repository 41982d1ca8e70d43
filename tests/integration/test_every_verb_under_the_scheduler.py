"""Every verb runs under the scheduler and a bounded wait (issue 32): CANON and SAME too, and a busy server
answers ``ERROR timeout ... (the server is busy)`` once a job has waited twice its solve timeout.

The figure (another client's easy-SOLVE latency while 300 pipelined symmetric CANONs run) is a benchmark
(``benchmarks/bench_canon_fairness.py``); these tests hold the behaviour, with counts and exact bytes.
"""

from __future__ import annotations

from contextlib import asynccontextmanager

import pytest
import trio
import trio.testing

from sudoku_server.net.config import ServerConfig
from sudoku_server.net.pool import busy_timeout_error, wall_limit
from sudoku_server.net.server import SudokuServer
from sudoku_server.service.answer import answer
from sudoku_server.service.requests import Canon, Same
from sudoku_server.sudoku import canon
from sudoku_server.sudoku.grid import Grid
from sudoku_server.wire import replies

#: The most symmetric 9x9 grid (648 automorphisms); two of its bands make a CANON of tens of milliseconds (native)
#: and seconds (Python).
SYMMETRIC = "123456789456789123789123456231564897564897231897231564312645978645978312978312645"
TWO_BANDS = SYMMETRIC[:54] + "." * 27
EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
EASY_SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def cells(text: str) -> list[int]:
    return [0 if c == "." else int(c) for c in text]


@asynccontextmanager
async def running_server(**overrides):
    solve = overrides.pop("solve", None)
    server = SudokuServer(ServerConfig(host="127.0.0.1", port=0, **overrides), solve=solve)
    async with trio.open_nursery() as nursery:
        server.listeners = await nursery.start(server.serve)
        yield server
        nursery.cancel_scope.cancel()


async def read_lines(stream, count: int, seen: list[bytes]) -> None:
    """Read ``count`` reply lines from ``stream`` into ``seen`` (one item per line, as they arrive)."""
    buffer = b""
    while len(seen) < count:
        data = await stream.receive_some(65536)
        assert data, f"the connection ended after {len(seen)} of {count} replies"
        buffer += data
        *lines, buffer = buffer.split(b"\n")
        seen.extend(lines)


def test_canon_and_same_are_solver_work_whatever_the_core():
    assert Canon(Grid(cells(TWO_BANDS))).solver_work
    assert Same(Grid(cells(TWO_BANDS)), first=Grid(cells(SYMMETRIC))).solver_work


def test_the_python_canon_core_calls_check_so_the_solve_timeout_stops_it():
    class Stop(BaseException):
        pass

    calls = []

    def check() -> None:
        calls.append(1)
        if len(calls) == 3:
            raise Stop()

    with pytest.raises(Stop):
        canon.canonical(Grid(cells(TWO_BANDS)), native=False, check=check)
    calls.clear()
    with pytest.raises(Stop):
        canon.canonical(Grid(cells(SYMMETRIC)), native=False, check=check)  # a solved grid: its own walk
    calls.clear()
    if canon.CORE == "python":
        with pytest.raises(Stop):
            answer(Canon(Grid(cells(TWO_BANDS))), check=check)  # the service passes its check down


async def test_an_easy_solve_is_answered_while_a_client_pipelines_symmetric_canons():
    """One solver thread: 40 CANONs of 20-80 ms each pipelined on one connection; a second client's SOLVE
    sent after the first CANON answer is answered before most of them (each CANON is a job of its own, and
    the newcomer goes first at the next job boundary), not after the whole run (as when they ran in bulk)."""
    count = 40
    async with running_server(solver_threads=1) as server:
        heavy = await trio.testing.open_stream_to_socket_listener(server.listeners[0])
        await heavy.send_all(b"".join(f"CANON {TWO_BANDS}\n".encode() for _ in range(count)))
        seen: list[bytes] = []
        async with heavy, trio.open_nursery() as nursery:
            nursery.start_soon(read_lines, heavy, count, seen)
            while not seen:
                await trio.sleep(0.001)
            light = await trio.testing.open_stream_to_socket_listener(server.listeners[0])
            async with light:
                await light.send_all(f"{EASY}\n".encode())
                answer_line: list[bytes] = []
                await read_lines(light, 1, answer_line)
                heavy_done = len(seen)
        assert answer_line == [EASY_SOLUTION.encode()]
        assert heavy_done < count // 2, f"the SOLVE waited for {heavy_done} of {count} CANONs"
        assert len(set(seen)) == 1 and seen[0].startswith(b"CANON ")


def test_the_busy_timeout_words():
    assert wall_limit(10.0) == 20.0
    line = replies.error_line(busy_timeout_error(wall_limit(10.0)))
    assert line == b"ERROR timeout no answer within 20 s (the server is busy)\n"
    assert replies.timeout_line(10.0) == b"ERROR timeout no answer within 10 s\n"  # the job's own time


async def test_a_job_paused_for_others_past_twice_the_solve_timeout_gets_the_busy_timeout():
    """Three clients spin on one solver thread, each pausing at its time slice for the others: a job's own
    time grows at a third of the wall time, so each passes twice its solve timeout in wall time first and is
    answered ``ERROR timeout no answer within 0.6 s (the server is busy)``, not after 3x its timeout."""

    def spinning_solve(grid, *, check):
        while True:
            check()

    async with running_server(solve=spinning_solve, solve_timeout=0.3, solver_threads=1) as server:
        replies_got: list[bytes] = []

        async def client() -> None:
            stream = await trio.testing.open_stream_to_socket_listener(server.listeners[0])
            async with stream:
                await stream.send_all(f"{EASY}\n".encode())
                got: list[bytes] = []
                await read_lines(stream, 1, got)
                replies_got.extend(got)

        async with trio.open_nursery() as nursery:
            for _ in range(3):
                nursery.start_soon(client)
    busy = b"ERROR timeout no answer within 0.6 s (the server is busy)"
    own = b"ERROR timeout no answer within 0.3 s"
    assert set(replies_got) <= {busy, own} and busy in replies_got
