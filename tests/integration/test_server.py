"""The server over real sockets on 127.0.0.1 (port 0), in-process with trio."""

from __future__ import annotations

import threading

import pytest
import trio
import trio.testing

from tests.support.examples import (
    INKALA,
    INKALA_SOLUTION,
    NEWSPAPER,
    NEWSPAPER_ANSWER,
    NEWSPAPER_LINE,
    NEWSPAPER_SOLUTION,
)
from tests.support.servers import connect, exchange, read_all, reset, running_server


async def test_newspaper_answered_with_exact_bytes():
    with trio.fail_after(10):
        async with running_server() as server:
            assert await exchange(server, NEWSPAPER.encode()) == NEWSPAPER_ANSWER.encode()


async def test_three_puzzles_in_one_connection_answered_in_order():
    data = (NEWSPAPER + "\n" + INKALA + "\n" + NEWSPAPER_LINE + "\n").encode()
    with trio.fail_after(10):
        async with running_server() as server:
            answer = await exchange(server, data)
    assert answer == (NEWSPAPER_ANSWER + INKALA_SOLUTION + "\n" + NEWSPAPER_SOLUTION + "\n").encode()


async def test_client_that_never_half_closes_gets_answer_and_close_in_grace(fake_clock):
    with trio.fail_after(10):
        async with running_server() as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(NEWSPAPER_LINE.encode() + b"\n")
                started = trio.current_time()
                answer = await read_all(stream)
                elapsed = trio.current_time() - started
    assert answer == NEWSPAPER_SOLUTION.encode() + b"\n"
    assert elapsed == pytest.approx(0.5, abs=0.005)  # the close grace


async def test_unterminated_last_line_is_answered_at_the_idle_timeout_not_the_grace(fake_clock):
    # s10-break finding 1: a line without its end waits for it (the close grace never reads a partial line);
    # the idle timeout reads it as end of input would.
    with trio.fail_after(10):
        async with running_server(idle_timeout=3.0) as server:
            started = trio.current_time()
            answer = await exchange(server, NEWSPAPER_LINE.encode(), half_close=False)
            elapsed = trio.current_time() - started
    assert answer == NEWSPAPER_SOLUTION.encode() + b"\n"
    assert elapsed == pytest.approx(3.0, abs=0.005)  # the idle timeout, not the close grace (0.5 s)


async def test_unterminated_last_line_is_answered_at_once_on_a_half_close(fake_clock):
    with trio.fail_after(10):
        async with running_server(idle_timeout=3.0) as server:
            started = trio.current_time()
            answer = await exchange(server, NEWSPAPER_LINE.encode(), half_close=True)
            elapsed = trio.current_time() - started
    assert answer == NEWSPAPER_SOLUTION.encode() + b"\n"
    assert elapsed == pytest.approx(0.0, abs=0.005)  # nc -N: no timer at all


async def test_errors_do_not_close_the_connection():
    data = b"hello\n" + (NEWSPAPER_LINE + "\n").encode()
    with trio.fail_after(10):
        async with running_server() as server:
            answer = await exchange(server, data)
    assert answer == (b'ERROR command unknown verb "HELLO"; try HELP\n' + NEWSPAPER_SOLUTION.encode() + b"\n")


async def test_client_reset_before_the_answer_leaves_the_server_serving():
    entered = threading.Event()

    def slow_solve(grid, *, check):
        entered.set()
        for _ in range(2000):
            check()
            threading.Event().wait(0.001)
        raise AssertionError("should have been cancelled")

    with trio.fail_after(10):
        async with running_server(solve=slow_solve) as server:
            stream = await connect(server)
            await stream.send_all(NEWSPAPER_LINE.encode() + b"\n")
            await trio.to_thread.run_sync(entered.wait)
            reset(stream)
            # The solve is stopped and its thread ends.
            with trio.fail_after(1):
                while server.connections:
                    await trio.sleep(0.01)
                await trio.testing.wait_all_threads_completed()
            server.solve = __import__("sudoku_server").solve
            assert await exchange(server, NEWSPAPER.encode()) == NEWSPAPER_ANSWER.encode()


async def test_slow_solver_gets_timeout_and_its_thread_ends():
    calls = []

    def spinning_solve(grid, *, check):
        while True:
            check()
            calls.append(1)

    with trio.fail_after(10):
        async with running_server(solve=spinning_solve, solve_timeout=0.3) as server:
            answer = await exchange(server, NEWSPAPER_LINE.encode() + b"\n")
            with trio.fail_after(0.1):
                await trio.testing.wait_all_threads_completed()
    assert answer == b"ERROR timeout no answer within 0.3 s\n"
    assert calls


async def test_solver_exception_is_internal_error_and_connection_goes_on():
    def broken_solve(grid, *, check):
        if grid.cells[0] == 7:
            raise ZeroDivisionError("boom")
        from sudoku_server import solve

        return solve(grid, check=check)

    data = (NEWSPAPER_LINE + "\n" + INKALA + "\n").encode()
    with trio.fail_after(10):
        async with running_server(solve=broken_solve) as server:
            answer = await exchange(server, data)
    assert answer == (
        b"ERROR internal ZeroDivisionError while solving the puzzle at line 1\n" + INKALA_SOLUTION.encode() + b"\n"
    )


async def test_connection_limit_answers_busy():
    with trio.fail_after(10):
        async with running_server(max_connections=1) as server:
            first = await connect(server)
            async with first:
                await first.send_all(b"# waiting\n")
                while not server.connections:
                    await trio.sleep(0.01)
                assert await exchange(server, NEWSPAPER.encode()) == (
                    b"ERROR busy 1 connection open, try again later\n"
                )
                await first.send_all(NEWSPAPER.encode())
                await first.send_eof()
                assert await read_all(first) == NEWSPAPER_ANSWER.encode()


async def test_idle_timeout_with_a_partial_puzzle():
    rows = NEWSPAPER.splitlines(keepends=True)[:5]
    with trio.fail_after(10):
        async with running_server(idle_timeout=0.3) as server:
            answer = await exchange(server, "".join(rows).encode(), half_close=False)
    assert answer == (b"ERROR incomplete input ended inside the puzzle that starts at line 1 (3 of 9 rows)\n")


async def test_shutdown_lets_in_flight_answers_finish():
    release = threading.Event()

    def gated_solve(grid, *, check):
        while not release.is_set():
            check()
            release.wait(0.005)
        from sudoku_server import solve

        return solve(grid, check=check)

    with trio.fail_after(10):
        async with running_server(solve=gated_solve, shutdown_grace=5) as server:
            streams = [await connect(server) for _ in range(3)]
            for stream in streams:
                await stream.send_all(NEWSPAPER_LINE.encode() + b"\n")
            while len(server.connections) < 3:
                await trio.sleep(0.01)
            await trio.sleep(0.1)
            server.shutdown()
            release.set()
            for stream in streams:
                async with stream:
                    assert await read_all(stream) == NEWSPAPER_SOLUTION.encode() + b"\n"


async def test_close_grace_waits_while_a_puzzle_is_being_solved():
    # A slow solve after the first answer must not start the close grace: the
    # client's next puzzle, sent after the slow answer, is still answered.
    def slow_on_inkala(grid, *, check):
        from sudoku_server import Grid, solve

        if grid == Grid.from_string(INKALA):
            import time

            end = time.monotonic() + 1.0
            while time.monotonic() < end:
                check()
                time.sleep(0.01)
        return solve(grid, check=check)

    with trio.fail_after(10):
        async with running_server(solve=slow_on_inkala) as server:
            stream = await connect(server)
            async with stream:
                received = b""
                for line, answer in (
                    (NEWSPAPER_LINE, NEWSPAPER_SOLUTION),
                    (INKALA, INKALA_SOLUTION),
                    (NEWSPAPER_LINE, NEWSPAPER_SOLUTION),
                ):
                    await stream.send_all(line.encode() + b"\n")
                    while not received.endswith(b"\n"):
                        received += await stream.receive_some(65536)
                    assert received == answer.encode() + b"\n"
                    received = b""
                assert await read_all(stream) == b""


async def test_solve_timeout_does_not_count_the_wait_for_a_worker():
    import time

    def slowish(grid, *, check):
        from sudoku_server import solve

        end = time.monotonic() + 0.25
        while time.monotonic() < end:
            check()
            time.sleep(0.01)
        return solve(grid, check=check)

    # One worker, four puzzles of 0.25 s each at once, a 0.4 s limit: each
    # solve fits, though the last waits 0.75 s for the worker.
    with trio.fail_after(10):
        async with running_server(solve=slowish, solver_threads=1, solve_timeout=0.4) as server:  # noqa: SIM117
            async with trio.open_nursery() as nursery:
                answers = []

                async def one():
                    answers.append(await exchange(server, NEWSPAPER_LINE.encode() + b"\n"))

                for _ in range(4):
                    nursery.start_soon(one)
    assert answers == [NEWSPAPER_SOLUTION.encode() + b"\n"] * 4
