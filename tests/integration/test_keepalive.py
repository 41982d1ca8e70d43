"""Issue 17, programs that hold a connection: KEEPALIVE, --close-grace off, and the log line that names them."""

from __future__ import annotations

import logging

import pytest
import trio

from sudoku_server.app.cli import build_parser, config_from_args
from sudoku_server.service.answer import Standalone, answer
from sudoku_server.service.requests import KeepAlive
from sudoku_server.wire.replies import render
from sudoku_server.wire.session import CommandReceived, Reply, Session
from tests.support.examples import NEWSPAPER, NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.servers import connect, read_all, running_server

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
INKALA_SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
QUIT = b"QUIT\n"
KEEPALIVE_ON = b"KEEPALIVE on: no close grace; QUIT or end of input ends the session, or 60 s of silence\n"
FIRST = (NEWSPAPER_LINE + "\n").encode()
FIRST_ANSWER = (NEWSPAPER_SOLUTION + "\n").encode()
SECOND = (INKALA + "\n").encode()
SECOND_ANSWER = (INKALA_SOLUTION + "\n").encode()


def test_the_keepalive_reply_mirrors_interactive():
    assert render(answer(KeepAlive(), server=Standalone(idle_timeout=60.0))) == KEEPALIVE_ON
    assert render(answer(KeepAlive(), server=Standalone(idle_timeout=2.5)), "\r\n") == (
        b"KEEPALIVE on: no close grace; QUIT or end of input ends the session, or 2.5 s of silence\r\n"
    )


def test_help_keepalive():
    session = Session()
    (event,) = session.receive_data(b"HELP KEEPALIVE\n")
    assert isinstance(event, CommandReceived)
    assert render(answer(event.request)) == (
        b"HELP KEEPALIVE\n"
        b"  this connection is held by a program between requests: no close grace, errors reported as for a pipe;"
        b" --idle-timeout of silence, QUIT or end of input ends it\n"
        b"  example: KEEPALIVE -> KEEPALIVE on: ...\n"
        b"END\n"
    )


def test_a_held_session_never_becomes_interactive_and_reports_bad_rows_as_a_pipe():
    rows = NEWSPAPER.splitlines(keepends=True)
    bad = rows[:5] + ["| . 6 . | . 2 . | . 9 |\n"] + rows[6:]
    session = Session()
    session.receive_data(b"KEEPALIVE\n", now=0.0)
    out = []
    for k, row in enumerate(bad):
        out += [(k, e) for e in session.receive_data(row.encode(), now=1.0 + 2.0 * k)]  # a row every 2 s
    out += [(len(bad), e) for e in session.receive_data(b"\xff\xfd\x01", now=40.0)]  # telnet DO: still held
    assert session.held and not session.interactive
    errors = [(k, e.data) for k, e in out if isinstance(e, Reply)]
    assert errors == [(len(bad) - 1, b"ERROR format line 7: expected 9 cells, found 8\n")]  # at the grid's end


def test_interactive_after_keepalive_wins_and_keepalive_after_interactive_wins():
    session = Session()
    session.receive_data(b"KEEPALIVE\nINTERACTIVE\n")
    assert session.interactive and not session.held
    session.receive_data(b"KEEPALIVE\n")
    assert session.held and not session.interactive


def test_close_grace_off_on_the_command_line():
    parse = build_parser().parse_args
    assert config_from_args(parse(["--close-grace", "off"])).close_grace is None
    assert config_from_args(parse(["--close-grace", "0.7"])).close_grace == 0.7
    assert config_from_args(parse([])).close_grace == 0.5


def test_close_grace_refuses_other_words(capsys):
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["--close-grace", "never"])
    assert exit_info.value.code == 2
    assert "argument --close-grace: must be > 0 seconds or off, got never" in capsys.readouterr().err


async def program(server, preamble: bytes = b"") -> tuple[bytes, bytes, bytes, str]:
    """A program holding its connection: a puzzle, read the answer, 2 s of work, the next puzzle.

    Returns (what it read for the first puzzle, for the second, at the end, its address as the server names it).
    """
    stream = await connect(server)
    async with stream:
        host, port = stream.socket.getsockname()[:2]
        await stream.send_all(preamble + FIRST)
        first = b""
        want = (KEEPALIVE_ON if preamble else b"") + FIRST_ANSWER
        while len(first) < len(want):
            chunk = await stream.receive_some(65536)
            if not chunk:
                break
            first += chunk
        await trio.sleep(2.0)
        second = b""
        try:
            await stream.send_all(SECOND)
            with trio.move_on_after(3):
                while len(second) < len(SECOND_ANSWER):
                    chunk = await stream.receive_some(65536)
                    if not chunk:
                        break
                    second += chunk
            await stream.send_all(QUIT)
            rest = await read_all(stream)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            rest = b"(closed)"
    return first, second, rest, f"{host}:{port}"


async def test_a_program_that_pauses_between_requests(caplog):
    caplog.set_level(logging.INFO, logger="sudoku_server")
    results = {}
    with trio.fail_after(15):
        async with (
            running_server() as default,
            running_server(close_grace=None) as off,
        ):

            async def run(name, server, preamble=b""):
                results[name] = await program(server, preamble)

            async with trio.open_nursery() as nursery:
                nursery.start_soon(run, "keepalive", default, b"KEEPALIVE\n")
                nursery.start_soon(run, "close grace off", off)
                nursery.start_soon(run, "default", default)
            await trio.sleep(0.5)  # the default session's linger logs the late bytes
    assert results["keepalive"][:3] == (KEEPALIVE_ON + FIRST_ANSWER, SECOND_ANSWER, b"BYE\n")
    assert results["close grace off"][:3] == (FIRST_ANSWER, SECOND_ANSWER, b"BYE\n")
    first, second, _, peer = results["default"]
    assert (first, second) == (FIRST_ANSWER, b"")  # the close grace ended the session after 0.5 s
    # Its second puzzle and its QUIT came while the server lingered: logged, with the fix.
    messages = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert (
        f"{peer} sent {len(SECOND) + len(QUIT)} byte(s) after its session ended: not read;"
        " the close grace (0.5 s) had ended it:"
        " a program that keeps its connection between requests should send KEEPALIVE first"
        " (or the server run with --close-grace off)"
    ) in messages, messages


async def test_a_held_session_ends_after_the_idle_timeout_and_says_so(fake_clock):
    with trio.fail_after(10):
        async with running_server(idle_timeout=0.6) as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(b"KEEPALIVE\n" + FIRST + b"# a line that never ends")
                started = trio.current_time()
                answer = await read_all(stream)
                elapsed = trio.current_time() - started
    assert answer == (
        b"KEEPALIVE on: no close grace; QUIT or end of input ends the session, or 0.6 s of silence\n"
        + FIRST_ANSWER
        + b"BYE idle for 0.6 s\n"
    )
    assert elapsed == pytest.approx(0.6, abs=0.005)  # the idle timeout
