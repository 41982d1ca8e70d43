"""Issue 17, no slot exhaustion by trickling: sessions must make progress (complete lines) to stay.

A session's timeout counts from its last complete line (or its last reply),
so one byte per timeout no longer keeps it; and when every slot is taken, a
newcomer takes the slot of the session idle longest (nothing to answer, no
complete line for EVICT_IDLE_SECONDS), which is told why.
"""

from __future__ import annotations

import re

import pytest
import trio

from sudoku_server.net.server import EVICT_IDLE_SECONDS
from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.servers import connect, read_all, running_server

INTERACTIVE_ON = b"INTERACTIVE on: no close grace; QUIT or end of input ends the session, or 300 s of silence\n"
PUZZLE = (NEWSPAPER_LINE + "\n").encode()
ANSWER = (NEWSPAPER_SOLUTION + "\n").encode()


async def trickle(stream: trio.SocketStream, every: float) -> None:
    """One byte of a comment line that never ends, every ``every`` seconds, until the server closes."""
    try:
        while True:
            await stream.send_all(b"#")
            await trio.sleep(every)
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        pass


async def test_bytes_of_a_line_that_never_ends_do_not_keep_an_interactive_session(fake_clock):
    with trio.fail_after(10):
        async with running_server(interactive_timeout=1.0) as server:
            stream = await connect(server)
            async with stream, trio.open_nursery() as nursery:
                await stream.send_all(b"INTERACTIVE\n")
                nursery.start_soon(trickle, stream, 0.1)  # ten bytes per timeout
                started = trio.current_time()
                answer = await read_all(stream)
                elapsed = trio.current_time() - started
                nursery.cancel_scope.cancel()
    # The comment line is taken as complete at the end (a comment: no reply), then BYE.
    assert answer == INTERACTIVE_ON.replace(b"300 s", b"1 s") + b"BYE idle for 1 s\n"
    assert elapsed == pytest.approx(1.0, abs=0.005)  # the interactive timeout: the bytes did not reset it


async def test_a_fresh_client_is_served_while_tricklers_hold_every_slot():
    limit = 8
    with trio.fail_after(15):
        async with running_server(max_connections=limit) as server, trio.open_nursery() as nursery:
            tricklers = []
            for k in range(limit):
                # Each from an address of its own: Linux routes all of 127/8 to lo.
                stream = await trio.open_tcp_stream(
                    "127.0.0.1", server.listeners[0].socket.getsockname()[1], local_address=f"127.0.0.{2 + k}"
                )
                await stream.send_all(b"INTERACTIVE\n")
                nursery.start_soon(trickle, stream, 0.3)
                tricklers.append(stream)
            while len(server.connections) < limit:
                await trio.sleep(0.01)
            await trio.sleep(EVICT_IDLE_SECONDS + 0.3)  # each trickler: no complete line for that long
            fresh = await trio.open_tcp_stream(
                "127.0.0.1", server.listeners[0].socket.getsockname()[1], local_address="127.0.0.1"
            )
            async with fresh:
                await fresh.send_all(PUZZLE)
                await fresh.send_eof()
                assert await read_all(fresh) == ANSWER
            # The one evicted (the oldest) was told why; the others still hold on.
            evicted = await read_all(tricklers[0])
            assert re.fullmatch(
                rb"INTERACTIVE on: [^\n]*\nBYE idle for (\d+) s and the server is full \(8 connections\)\n", evicted
            ), evicted
            assert int(re.search(rb"idle for (\d+) s", evicted).group(1)) >= EVICT_IDLE_SECONDS
            while len(server.connections) > limit - 1:  # the evicted one closes (the fresh one is done)
                await trio.sleep(0.01)
            for stream in tricklers:
                await stream.aclose()  # their trickle tasks end


async def test_a_full_server_with_busy_sessions_still_refuses():
    # Nobody idle long enough: the newcomer gets the busy line, as before issue 17.
    with trio.fail_after(10):
        async with running_server(max_connections=1) as server:
            held = await connect(server)
            async with held:
                await held.send_all(b"INTERACTIVE\n")
                while len(server.connections) < 1:
                    await trio.sleep(0.01)
                stream = await connect(server)
                async with stream:
                    await stream.send_all(PUZZLE)
                    await stream.send_eof()
                    assert await read_all(stream) == b"ERROR busy 1 connection open, try again later\n"
