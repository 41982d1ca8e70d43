"""Fair and bounded serving (issue 8), in-process over real sockets on 127.0.0.1.

The solver is replaced by a fake that spins on hopeless puzzles while calling
``check()`` (as every real solver core does), so that the tests are about the
server's scheduling, not the solver's speed.
"""

from __future__ import annotations

import socket
import struct
import time

import trio

from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.solver import solve as real_solve
from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.servers import connect, read_all, running_server
from tests.support.spinning import SpinningSolver

GOOD = (NEWSPAPER_LINE + "\n").encode()
GOOD_ANSWER = (NEWSPAPER_SOLUTION + "\n").encode()
#: The empty 9x9: the fake solver below treats it as hopeless.
HOPELESS = ("." * 81 + "\n").encode()


async def timed_exchange(server, data: bytes) -> tuple:
    """(answer, seconds until the whole answer arrived), half-closing after sending."""
    stream = await connect(server)
    async with stream:
        started = trio.current_time()
        await stream.send_all(data)
        await stream.send_eof()
        answer = await read_all(stream)
        return answer, trio.current_time() - started


async def test_easy_puzzle_is_not_queued_behind_hopeless_ones(wallclock):
    fake = SpinningSolver()
    async with running_server(solve=fake, solver_threads=1, solve_timeout=4.0) as server:
        attackers = []
        for _ in range(2):
            stream = await connect(server)
            await stream.send_all(HOPELESS * 4)
            attackers.append(stream)
        await trio.sleep(0.2)  # both hopeless connections are being served
        with trio.fail_after(3):
            answer, seconds = await timed_exchange(server, GOOD)
        assert answer == GOOD_ANSWER
        wallclock.below(seconds, 1.0, "the easy answer, not behind 8 puzzles of 4 s each")
        for stream in attackers:
            await stream.aclose()


async def test_work_stops_at_once_for_a_client_that_reset(wallclock):
    fake = SpinningSolver()
    async with running_server(solve=fake, solver_threads=1, solve_timeout=30.0) as server:
        sock = socket.create_connection(server.listeners[0].socket.getsockname()[:2])
        sock.sendall(HOPELESS * 3)
        await trio.sleep(0.3)
        # A reset, not a half-close: SO_LINGER 0 makes close() send RST.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
        reset_at = time.monotonic()
        with trio.fail_after(5):
            while not fake.ended:
                await trio.sleep(0.01)
        stopped_at, why = fake.ended[0]
        assert why == "_Stopped"
        wallclock.below(stopped_at - reset_at, 0.5, "the stop after the reset")
        await trio.sleep(0.3)
        assert len(fake.ended) == 1  # the two queued hopeless puzzles never started
        answer, _ = await timed_exchange(server, GOOD)
        assert answer == GOOD_ANSWER


async def test_half_closed_client_still_gets_every_answer():
    fake = SpinningSolver(spin=0.2)
    async with running_server(solve=fake) as server:
        with trio.fail_after(5):
            answer, _ = await timed_exchange(server, HOPELESS + GOOD + HOPELESS)
    empty_solution = real_solve(Grid((0,) * 81)).to_string().encode() + b"\n"
    assert answer == empty_solution + GOOD_ANSWER + empty_solution


async def test_paused_puzzles_are_answered_and_paused_time_is_not_solve_time():
    # Two 0.6 s puzzles share one worker: each takes about 1.2 s of wall
    # time, but only 0.6 s of its own, under the 0.9 s solve timeout.
    fake = SpinningSolver(spin=0.6)
    empty_solution = real_solve(Grid((0,) * 81)).to_string().encode() + b"\n"
    async with running_server(solve=fake, solver_threads=1, solve_timeout=0.9) as server:
        results = []

        async def one():
            results.append(await timed_exchange(server, HOPELESS))

        with trio.fail_after(5):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(one)
                nursery.start_soon(one)
    assert [answer for answer, _ in results] == [empty_solution, empty_solution]
    assert max(seconds for _, seconds in results) > 0.9  # they did share the worker


async def test_connection_budget_used_refuses_the_rest_and_goes_on():
    fake = SpinningSolver(spin=0.3)
    async with running_server(solve=fake, budget_seconds=0.5, budget_window=1000.0) as server:
        with trio.fail_after(10):
            answer, _ = await timed_exchange(server, HOPELESS * 3 + GOOD)
    empty_solution = real_solve(Grid((0,) * 81)).to_string().encode() + b"\n"
    reason = b"connection budget used (0.5 solver seconds per 1000 s)"

    def refused(line: int) -> bytes:
        return b"ERROR busy " + reason + b"; the puzzle at line %d was not solved" % line

    # Nothing else waits: the lines run as two batches on the two solver threads at once (lines 1 | 2-4, or
    # 1-2 | 3-4, as the reader's first steps cut them). After 0.3 s each, the two running slices together
    # (0.6 s) pass the budget: both batches stop before their next job, whose requests are refused.
    lines = answer.split(b"\n")
    assert lines[0] == empty_solution.rstrip() and lines[3] == refused(4) and lines[4] == b""
    assert lines[1:3] in ([empty_solution.rstrip(), refused(3)], [refused(2), empty_solution.rstrip()])


async def test_queue_wait_over_the_bound_is_answered_busy_at_once(wallclock):
    fake = SpinningSolver(spin=2.0)
    async with running_server(solve=fake, solver_threads=1, time_slice=10.0, queue_timeout=0.3) as server:
        slow = await connect(server)
        await slow.send_all(HOPELESS)
        await trio.sleep(0.1)
        with trio.fail_after(5):
            answer, seconds = await timed_exchange(server, GOOD)
        assert answer == b"ERROR busy queue wait over 0.3 s; the puzzle at line 1 was not solved\n"
        wallclock.below(seconds, 1.0, "answered when the bound passed, not when the worker freed up")
        await slow.aclose()


async def test_a_client_that_never_reads_is_not_read_further():
    # 2 MiB of puzzles and no reading: the server stops reading once its
    # window of unanswered replies and unsent bytes is full.
    data = GOOD * (2 * 1024 * 1024 // len(GOOD))
    async with running_server() as server:
        sock = trio.socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the kernel holds little
        await sock.connect(server.listeners[0].socket.getsockname())
        stream = trio.SocketStream(sock)
        async with stream:
            with trio.move_on_after(1.0):
                await stream.send_all(data)
            (connection,) = server.connections
            lines_read = -1
            with trio.fail_after(5):
                while connection.session.lineno != lines_read:  # until it stops reading
                    lines_read = connection.session.lineno
                    await trio.sleep(0.3)
            # The window (64 replies), 64 KiB of unsent answers and what the
            # kernel buffers: far below the 25,575 lines sent.
            assert 64 < lines_read < 1200


async def test_an_answer_is_sent_when_ready_not_when_its_batch_ends(wallclock):
    # One connection, nobody else waiting: its puzzles run as one batch that
    # never pauses. The easy puzzle's answer must not wait for the slow one.
    # (Found by benchmarks/hostile_load.py.)
    fake = SpinningSolver(spin=2.0)
    async with running_server(solve=fake, solve_timeout=30.0) as server:
        stream = await connect(server)
        async with stream:
            await stream.send_all(GOOD + HOPELESS)
            await stream.send_eof()
            started = trio.current_time()
            received = b""
            with trio.fail_after(5):
                while not received.endswith(b"\n"):
                    received += await stream.receive_some(65536)
            seconds = trio.current_time() - started
    assert received == GOOD_ANSWER
    wallclock.below(seconds, 1.0, "the first answer, not with the slow puzzle's")


async def test_a_client_that_closed_after_sending_is_dropped_after_its_first_answer():
    # close() sends a FIN: a half-close to the server, which answers. The
    # closed socket answers that with a reset, and then no more work is done.
    fake = SpinningSolver(spin=0.4)
    async with running_server(solve=fake, solve_timeout=30.0) as server:
        sock = socket.create_connection(server.listeners[0].socket.getsockname()[:2])
        sock.sendall(HOPELESS * 5)
        sock.close()
        with trio.fail_after(10):
            while not fake.ended or server.connections:
                await trio.sleep(0.05)
        await trio.sleep(0.5)
    assert [why for _, why in fake.ended][:1] == ["done"]
    # per solver thread (2: the client's 5 puzzles run as two batches at once), the first puzzle, and at most the
    # one running when the reset came
    assert len(fake.ended) <= 2 * 2


async def test_a_slow_puzzle_leaves_its_bulk_and_answers_keep_their_order():
    # Plain one-line puzzles that arrive together are solved in bulk; one
    # whose search calls check() (past the native core's first 0.5 ms) leaves
    # the bulk for a job of its own, with its own timeout and pauses.
    fake = SpinningSolver(spin=0.5)
    async with running_server(solve=fake) as server:
        server.bulk = True  # as with the native core and the real solver
        stream = await connect(server)
        async with stream:
            await stream.send_all(GOOD * 3 + HOPELESS + GOOD * 2)
            await stream.send_eof()
            received = b""
            with trio.fail_after(10):  # a hang guard
                while received.count(b"\n") < 3:
                    received += await stream.receive_some(65536)
                slow_done_before = [why for _, why in fake.ended if why == "done"]
                received += await read_all(stream)
    empty_solution = real_solve(Grid((0,) * 81)).to_string().encode() + b"\n"
    assert received == GOOD_ANSWER * 3 + empty_solution + GOOD_ANSWER * 2
    assert slow_done_before == []  # the first three were not held back by the slow one (it spins 0.5 s)
    # it left the bulk at its first check; on a very busy machine the reply window may take it alone, as a job
    # of its own from the start (CI found that once): either way it is answered in its turn
    assert fake.whys == ["done"]  # searched once: it goes on as its own job, never from the start again
    assert server.stats.puzzles == 6 and server.stats.replies["answered"] == 6
