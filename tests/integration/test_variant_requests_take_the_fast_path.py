"""A variant SOLVE takes the fast path as a classic one-line puzzle does (issue 27): answered on the event loop
when its search is quick (within the inline budget, charged to the connection), not one pool job each.

The figure (server CPU per variant answer against its raw solve, pipelined over one connection) is
``benchmarks/bench_variant_requests.py``.
"""

from __future__ import annotations

from contextlib import asynccontextmanager

import pytest
import trio
import trio.testing

from sudoku_server.net.config import ServerConfig
from sudoku_server.net.server import SudokuServer
from sudoku_server.sudoku import solver
from sudoku_server.sudoku.variant_generator import generate_variant
from sudoku_server.sudoku.variants import Variant, variant_geometry

pytestmark = pytest.mark.skipif(solver.CORE != "native", reason="the inline path needs the native core")


def text_of(cells) -> str:
    return "".join("." if v == 0 else str(v) for v in cells)


@asynccontextmanager
async def running_server(**overrides):
    server = SudokuServer(ServerConfig(host="127.0.0.1", port=0, **overrides))
    async with trio.open_nursery() as nursery:
        server.listeners = await nursery.start(server.serve)
        yield server
        nursery.cancel_scope.cancel()


async def exchange(server, data: bytes) -> bytes:
    stream = await trio.testing.open_stream_to_socket_listener(server.listeners[0])
    async with stream:
        await stream.send_all(data)
        await stream.send_eof()
        chunks = []
        while chunk := await stream.receive_some(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def x_puzzles(count: int) -> tuple[list[str], list[str]]:
    variant = Variant(("x",))
    geometry = variant_geometry(variant, 3, 3)
    grids = [generate_variant(variant, 9, seed=seed).puzzle for seed in range(1, count + 1)]
    return [text_of(g.cells) for g in grids], [text_of(solver.solve(g, geometry=geometry).cells) for g in grids]


async def test_variant_puzzles_are_answered_on_the_event_loop_and_charged():
    puzzles, solutions = x_puzzles(5)
    async with running_server() as server:
        submitted = []
        submit = server.pool.submit

        def spy(job, puzzles=1):
            submitted.append(job)
            submit(job, puzzles)

        server.pool.submit = spy
        data = b"RULES x\n" + "".join(p + "\n" for p in puzzles).encode()
        reply = await exchange(server, data)
        assert reply == b"RULES x\n" + "".join(s + "\n" for s in solutions).encode()
        # on a quiet machine not one crosses to a thread; the inline search stops at the core's check
        # interval (0.5 ms of wall time), which a busy machine's preemption can pass: then that one goes
        # to the pool. Every one going there is the fast path missing.
        assert len(submitted) < len(puzzles), submitted
        assert server.stats.puzzles == 5 and server.stats.solver_seconds > 0  # counted as the pool counts


async def test_a_variant_error_answered_inline_has_the_services_words():
    puzzles, _ = x_puzzles(1)
    bad = "11" + puzzles[0][2:]  # two 1s in row 1
    async with running_server() as server:
        reply = await exchange(server, f"RULES x\n{bad}\n".encode())
    assert reply.startswith(b"RULES x\nERROR invalid ") and b"r1c1" in reply


async def test_with_the_inline_budget_off_variant_puzzles_go_to_the_pool():
    puzzles, solutions = x_puzzles(3)
    async with running_server(inline_seconds=0) as server:
        submitted = []
        submit = server.pool.submit

        def spy(job, puzzles=1):
            submitted.append(job)
            submit(job, puzzles)

        server.pool.submit = spy
        reply = await exchange(server, b"RULES x\n" + "".join(p + "\n" for p in puzzles).encode())
    assert reply == b"RULES x\n" + "".join(s + "\n" for s in solutions).encode()
    assert len(submitted) == 3
