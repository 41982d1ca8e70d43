"""Issue 17, how sessions end: bytes after QUIT or EOT are logged, a pipe ends at EOT, nothing after ERROR shutdown."""

from __future__ import annotations

import logging
import time

import trio

from sudoku_server.wire.session import CloseConnection, Session
from tests.support.examples import NEWSPAPER_LINE
from tests.support.servers import connect, read_all, running_server

EMPTY = ("." * 81 + "\n").encode()  # r1c1 empty: the slow fake solver spins on it


def test_bytes_after_quit_in_the_same_packet_are_counted():
    session = Session()
    events = session.receive_data(b"PING\nQUIT\nPING\nVERSION\n")
    assert isinstance(events[-1], CloseConnection)
    assert session.unread == len(b"PING\nVERSION\n")


def test_bytes_after_an_eot_line_are_counted_and_a_pipe_ends_there():
    session = Session()
    events = session.receive_data(b"PING\n\x04\nPING\n")
    assert session.closed and not session.interactive
    assert isinstance(events[-1], CloseConnection)
    assert session.unread == len(b"PING\n")


async def test_bytes_after_quit_are_logged_with_the_count(caplog):
    caplog.set_level(logging.INFO, logger="sudoku_server")
    with trio.fail_after(10):
        async with running_server() as server:
            stream = await connect(server)
            async with stream:
                host, port = stream.socket.getsockname()[:2]
                await stream.send_all(b"PING\nQUIT\nPING\n" + (NEWSPAPER_LINE + "\n").encode())
                await stream.send_eof()
                assert await read_all(stream) == b"PONG\nBYE\n"
            while not any("not read" in r.getMessage() for r in caplog.records):
                await trio.sleep(0.01)
    messages = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert f"{host}:{port} sent 87 byte(s) after its session ended: not read" in messages, messages


def slow_solve(grid, *, check=None):
    """A fake solver: spins on a puzzle whose r1c1 is empty (calling ``check``), else solves."""
    from sudoku_server.sudoku import solver

    if grid.cells[0] == 0:
        while True:
            check()
            time.sleep(0.002)
    return solver.solve(grid, check=check)


async def test_nothing_is_answered_after_the_shutdown_line():
    # Found by a fresh-eyes pass: INTERACTIVE + a long request + SIGTERM gave ERROR shutdown, then PONG.
    with trio.fail_after(10):
        async with running_server(solve=slow_solve, shutdown_grace=0.5) as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(b"INTERACTIVE\n" + EMPTY)
                await trio.sleep(0.2)
                server.stop()
                await trio.sleep(0.1)
                await stream.send_all(b"PING\nVERSION\n")  # read during the grace, answered behind the puzzle
                answer = await read_all(stream)
    assert answer == (
        b"INTERACTIVE on: no close grace; QUIT or end of input ends the session, or 300 s of silence\n"
        b"ERROR shutdown server shutting down before the puzzle at line 2 was answered\n"
        b"ERROR shutdown server shutting down before the PING at line 3 was answered\n"
        b"ERROR shutdown server shutting down before the VERSION at line 4 was answered\n"
    )
