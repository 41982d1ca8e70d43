"""Interactive sessions (issue 11): a person typing, told from a program by its pauses."""

from __future__ import annotations

import trio

from sudoku_server.service.answer import answer
from sudoku_server.service.requests import Interactive
from sudoku_server.wire.replies import render
from sudoku_server.wire.session import CommandReceived, PuzzleReceived, Session
from tests.support.examples import NEWSPAPER, NEWSPAPER_ANSWER, NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.servers import connect, read_all, running_server


def answer_request(puzzle) -> bytes:
    """What the server answers a bare puzzle: solved, in its own layout."""
    from sudoku_server.service.requests import Solve

    return render(answer(Solve(puzzle.grid, expected=puzzle.expected)), puzzle.default_ending, puzzle)


ROWS = NEWSPAPER.splitlines(keepends=True)  # 13 lines: frame, 3 rows, rule, ... closing frame


def typed(lines, pause: float, start: float = 0.0, session=None):
    """Feed ``lines`` one by one, ``pause`` seconds apart; returns (session, [(line index, event)])."""
    session = session or Session()
    out = []
    now = start
    for index, line in enumerate(lines):
        for event in session.receive_data(line.encode(), now):
            out.append((index, event))
        now += pause
    return session, out


def test_a_burst_stays_a_program_session():
    session, events = typed([NEWSPAPER + NEWSPAPER_LINE + "\n"], 0.0, start=0.01)
    assert not session.interactive
    assert [type(e) for _, e in events] == [PuzzleReceived, PuzzleReceived]


def test_trickled_chunks_stay_a_program_session():
    data = NEWSPAPER * 100
    chunks = [data[i : i + 4096] for i in range(0, len(data), 4096)]
    session, events = typed(chunks, 0.3, start=0.01)  # 4 KB every 300 ms: the slowest program measured
    assert len(events) == 100
    assert not session.interactive


def test_a_grid_typed_row_by_row_makes_the_session_interactive():
    session, events = typed(ROWS, 0.8, start=0.2)  # its lines span 9.6 s
    assert session.interactive
    # The closing frame is awaited: the answer comes with it, on the last line.
    ((index, event),) = events
    assert index == len(ROWS) - 1 and isinstance(event, PuzzleReceived)
    assert answer_request(event.puzzle).decode() == NEWSPAPER_ANSWER


def test_the_first_line_long_after_connecting_stays_a_pipe():
    # Issue 17: a late first line is no sign of a person (a pipe may connect first, write later).
    session, _ = typed(["PING\n"], 0.0, start=2.0)
    assert not session.interactive


def test_a_bad_row_is_reported_as_soon_as_it_is_typed():
    bad = ROWS[:5] + ["| . 6 . | . 2 . | . 9 |\n"] + ROWS[6:]
    session, events = typed(bad, 1.5)
    assert session.interactive
    assert [(index, e.data.decode()) for index, e in events] == [
        (5, "ERROR format line 6: expected 9 cells, found 8\n"),  # at once, not after row 9
    ]
    _, more = typed([NEWSPAPER_LINE + "\n"], 0.0, start=30.0, session=session)
    assert [answer_request(e.puzzle).decode() for _, e in more] == [NEWSPAPER_SOLUTION + "\n"]


def test_the_interactive_verb():
    session = Session()
    events = session.receive_data(b"INTERACTIVE\n", 0.01)
    assert session.interactive
    assert [e.request for e in events if isinstance(e, CommandReceived)] == [Interactive()]


async def test_interactive_session_stays_open_past_the_close_grace():
    with trio.fail_after(10):
        async with running_server() as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(b"INTERACTIVE\n" + (NEWSPAPER_LINE + "\n").encode())
                await trio.sleep(1.5)  # three close graces
                await stream.send_all(NEWSPAPER.encode())
                await trio.sleep(0.7)
                await stream.send_all(b"QUIT\n")
                answer = await read_all(stream)
    assert answer == (
        b"INTERACTIVE on: no close grace; QUIT or end of input ends the session, or 300 s of silence\n"
        + (NEWSPAPER_SOLUTION + "\n").encode()
        + NEWSPAPER_ANSWER.encode()
        + b"BYE\n"
    )


async def test_typed_grid_over_a_socket_then_a_second_puzzle_later():
    with trio.fail_after(10):
        async with running_server() as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all("".join(ROWS[:2]).encode())
                await trio.sleep(1.2)  # a person: this grid's lines span more than 1 s
                await stream.send_all("".join(ROWS[2:]).encode())
                await trio.sleep(1.5)  # past the close grace: a program session would be over
                await stream.send_all((NEWSPAPER_LINE + "\n").encode())
                await trio.sleep(0.2)
                await stream.send_eof()  # Ctrl-D
                answer = await read_all(stream)
    assert answer == NEWSPAPER_ANSWER.encode() + (NEWSPAPER_SOLUTION + "\n").encode()


async def test_interactive_idle_timeout_says_bye():
    with trio.fail_after(10):
        async with running_server(interactive_timeout=0.5) as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(b"INTERACTIVE\n" + "".join(ROWS[:3]).encode())
                answer = await read_all(stream)
    assert answer == (
        b"INTERACTIVE on: no close grace; QUIT or end of input ends the session, or 0.5 s of silence\n"
        b"ERROR incomplete input ended inside the puzzle that starts at line 2 (2 of 9 rows)\n"
        b"BYE idle for 0.5 s\n"
    )
