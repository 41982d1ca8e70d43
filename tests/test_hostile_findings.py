"""Findings of the hostile-load benchmark (benchmarks/hostile_load.py) that the server misses today.

Each test is marked ``xfail(strict=True)``: the suite passes while the bug is
there, and fails (XPASS) once it is fixed, so that the mark is removed then.
"""

from __future__ import annotations

import pytest
import trio

from test_fairness import GOOD, GOOD_ANSWER, HOPELESS, FakeSolver
from test_server import connect, running_server


@pytest.mark.xfail(strict=True, reason="answers of a batch are held until the batch ends when no other"
                                       " connection waits (hostile_load.py row 2a)")
async def test_an_answer_is_sent_when_ready_not_when_its_batch_ends():
    # One connection, nobody else waiting: its puzzles run as one batch, which
    # never pauses. The easy puzzle's answer must not wait for the slow one.
    fake = FakeSolver(spin=2.0)
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
    assert received.startswith(GOOD_ANSWER)
    assert seconds < 1.0, f"the first answer came after {seconds:.2f} s, with the slow puzzle's"
