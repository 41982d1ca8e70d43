"""Issue 29: one pipelining connection uses every solver thread when no one else waits, and its answers keep their
order whatever order its batches end in. In-process over real sockets; the solver is replaced by one that waits for
the other thread, so that the test is about the server's scheduling, not the solver's speed."""

from __future__ import annotations

import threading

import trio

from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.solver import solve as real_solve
from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.servers import exchange, running_server

GOOD = (NEWSPAPER_LINE + "\n").encode()
GOOD_ANSWER = (NEWSPAPER_SOLUTION + "\n").encode()
EMPTY = ("." * 81 + "\n").encode()
EMPTY_ANSWER = real_solve(Grid((0,) * 81)).to_string().encode() + b"\n"
#: Seconds a solver thread waits for the other before it gives up (a deadlock guard, no speed bound).
GUARD = 30.0


async def test_two_requests_of_one_connection_are_solved_at_once_on_two_threads():
    both = threading.Barrier(2, timeout=GUARD)  # passed only when both requests are being solved together

    def solve(grid: Grid, *, check=None):
        both.wait()
        return real_solve(grid, check=check)

    async with running_server(solve=solve, solver_threads=2) as server:
        with trio.fail_after(2 * GUARD):
            answer = await exchange(server, GOOD + EMPTY)
    assert answer == GOOD_ANSWER + EMPTY_ANSWER


async def test_answers_keep_request_order_when_the_later_batch_ends_first():
    second_done = threading.Event()

    def solve(grid: Grid, *, check=None):
        if any(grid.cells):  # the first request: ends only once the second one is solved
            assert second_done.wait(GUARD)
            return real_solve(grid, check=check)
        found = real_solve(grid, check=check)
        second_done.set()
        return found

    async with running_server(solve=solve, solver_threads=2) as server:
        with trio.fail_after(2 * GUARD):
            answer = await exchange(server, GOOD + EMPTY + EMPTY)
    assert second_done.is_set()
    assert answer == GOOD_ANSWER + EMPTY_ANSWER + EMPTY_ANSWER
