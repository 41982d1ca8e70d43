"""The server's lifecycle is one state machine (issue 28): SERVING -> DRAINING -> CLOSING -> STOPPING -> STOPPED.

The state machine alone, then a real server on trio's MockClock (autojump): the drain grace and the
shutdown grace are exact on the fake clock, with no real sleep.
"""

from __future__ import annotations

import trio
import trio.testing

from sudoku_server.net.config import ServerConfig
from sudoku_server.net.lifecycle import ServerLifecycle, ServerState
from sudoku_server.net.server import SudokuServer


def test_states_only_go_forward_and_each_reached_state_is_an_event():
    lifecycle = ServerLifecycle()
    assert lifecycle.state is ServerState.SERVING and lifecycle.event(ServerState.SERVING).is_set()
    assert lifecycle.advance(ServerState.DRAINING) and lifecycle.draining and not lifecycle.closing
    assert lifecycle.advance(ServerState.STOPPING)  # a state may be skipped: those before it are reached
    assert [lifecycle.event(state).is_set() for state in ServerState] == [True, True, True, True, False]
    assert lifecycle.closing and lifecycle.stopping
    assert not lifecycle.advance(ServerState.CLOSING)  # never back
    assert lifecycle.state is ServerState.STOPPING and lifecycle.draining  # it drained on the way


def test_without_a_drain_grace_ping_never_says_draining():
    lifecycle = ServerLifecycle()
    lifecycle.advance(ServerState.CLOSING)
    assert lifecycle.closing and not lifecycle.draining


def test_the_drain_grace_then_the_shutdown_grace_on_the_fake_clock():
    clock = trio.testing.MockClock(autojump_threshold=0)
    seen: list[tuple[ServerState, float]] = []

    async def main() -> None:
        server = SudokuServer(ServerConfig(host="127.0.0.1", port=0, drain_grace=5.0, shutdown_grace=3.0))
        async with trio.open_nursery() as nursery:
            listeners = await nursery.start(server.serve)
            stream = await trio.testing.open_stream_to_socket_listener(listeners[0])  # a client that stays
            started = trio.current_time()

            async def watch(state: ServerState) -> None:
                await server.lifecycle.wait_for(state)
                seen.append((state, trio.current_time() - started))

            for state in (ServerState.DRAINING, ServerState.CLOSING, ServerState.STOPPING, ServerState.STOPPED):
                nursery.start_soon(watch, state)
            await trio.sleep(1)
            server.stop()
            await server.stopped.wait()
            await stream.aclose()

    trio.run(main, clock=clock)
    assert seen == [
        (ServerState.DRAINING, 1.0),
        (ServerState.CLOSING, 6.0),  # after the drain grace
        (ServerState.STOPPING, 9.0),  # after the shutdown grace: the silent client is still there
        (ServerState.STOPPED, 9.5),
    ]
    assert seen[3][1] == 9.5  # then the final flush (FINAL_FLUSH_SECONDS): the silent client is cut at its end


def test_a_second_signal_ends_the_drain_and_the_grace_at_once():
    clock = trio.testing.MockClock(autojump_threshold=0)
    times: dict[ServerState, float] = {}

    async def main() -> None:
        server = SudokuServer(ServerConfig(host="127.0.0.1", port=0, drain_grace=5.0, shutdown_grace=3.0))
        async with trio.open_nursery() as nursery:
            listeners = await nursery.start(server.serve)
            stream = await trio.testing.open_stream_to_socket_listener(listeners[0])
            started = trio.current_time()
            server.stop()
            await trio.sleep(2)
            server.close_connections()  # the second signal
            for state in (ServerState.CLOSING, ServerState.STOPPING):
                await server.lifecycle.wait_for(state)
                times[state] = trio.current_time() - started
            await server.stopped.wait()
            await stream.aclose()

    trio.run(main, clock=clock)
    assert times == {ServerState.CLOSING: 2.0, ServerState.STOPPING: 2.0}
