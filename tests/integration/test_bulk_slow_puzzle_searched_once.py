"""A slow puzzle of a bulk job is searched once (issue 29, tenth session).

A bulk job's puzzle that turns slow (``net.pool.BULK_LINE_CHECKS`` check
intervals, or the bulk past ``BULK_SLOW_SECONDS``) splits the bulk there:
the answers done are handed over, and a puzzle searched alone (a marks
line, a line the service answers) goes on searching in its thread as a job
of its own, under that job's rules (its solve timeout, pauses, cancel). It
was searched again from the start before. The searches are counted by
instrumented solvers: the service's (a fake that spins on the empty grid)
and the marks lines' fast path (``solve_marks``, wrapped so that one line
calls ``check`` past the bulk's bound before it searches).
"""

from __future__ import annotations

import collections

import pytest
import trio

from sudoku_server.net import jobs, pool
from sudoku_server.sudoku import solver
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.solver import solve as real_solve
from sudoku_server.text import marksline
from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.marks_examples import EXAMPLES
from tests.support.servers import connect, exchange, read_all, running_server
from tests.support.sessions import replies
from tests.support.spinning import SpinningSolver

GOOD = (NEWSPAPER_LINE + "\n").encode()
GOOD_ANSWER = (NEWSPAPER_SOLUTION + "\n").encode()
#: The empty 9x9: the spinning solver below treats it as slow.
HOPELESS = ("." * 81 + "\n").encode()
EMPTY_SOLUTION = real_solve(Grid((0,) * 81)).to_string().encode() + b"\n"


async def test_a_slow_puzzle_of_a_bulk_is_searched_once_and_answered_in_its_turn():
    fake = SpinningSolver(spin=0.05)  # 100 checks: far past the bulk's 4
    async with running_server(solve=fake) as server:
        server.bulk = True  # as with the native core and the real solver
        stream = await connect(server)
        async with stream:
            await stream.send_all(GOOD * 3 + HOPELESS + GOOD * 2)
            await stream.send_eof()
            with trio.fail_after(10):  # a hang guard
                received = await read_all(stream)
    assert received == GOOD_ANSWER * 3 + EMPTY_SOLUTION + GOOD_ANSWER * 2
    assert fake.whys == ["done"]  # one search, not one stopped in the bulk and one from the start
    assert server.stats.puzzles == 6 and server.stats.replies["answered"] == 6


async def test_a_slow_puzzle_that_left_its_bulk_has_its_own_solve_timeout():
    fake = SpinningSolver(spin=1e9)
    async with running_server(solve=fake, solve_timeout=0.3) as server:
        server.bulk = True
        stream = await connect(server)
        async with stream:
            await stream.send_all(GOOD * 2 + HOPELESS + GOOD * 3)
            await stream.send_eof()
            with trio.fail_after(10):
                received = await read_all(stream)
    assert received == GOOD_ANSWER * 2 + b"ERROR timeout no answer within 0.3 s\n" + GOOD_ANSWER * 3
    assert fake.whys == ["_TimedOut"]  # the one search ended by its own timeout


@pytest.mark.skipif(solver.CORE != "native", reason="marks lines are answered text to text with the native core")
async def test_a_slow_marks_line_of_a_bulk_is_searched_once(monkeypatch: pytest.MonkeyPatch):
    slow = f"SOLVE {EXAMPLES['kropki'][0]} kropki={EXAMPLES['kropki'][1]}\n".encode()
    searches: collections.Counter[bytes] = collections.Counter()
    solve_marks = marksline.solve_marks

    def counted(line: bytes, *, check=None):
        searches[line] += 1
        if line == slow and check is not None:
            for _ in range(pool.BULK_LINE_CHECKS):  # a search past the bulk's bound of check intervals
                check()
        return solve_marks(line, check=check)

    thermo = [f"SOLVE {EXAMPLES['thermo'][0]} thermo={EXAMPLES['thermo'][1]}\n".encode()]
    data = b"".join(thermo * 3 + [slow] + thermo * 4)
    expected = replies(data)
    for module in (marksline, pool, jobs):
        monkeypatch.setattr(module, "solve_marks", counted, raising=False)
    async with running_server(inline_seconds=0) as server:  # no inline path: they go in one bulk
        assert await exchange(server, data) == expected
    assert searches[slow] == 1
    assert searches[thermo[0]] == 7
