"""Issue 17, "a late pipe is still a pipe": only signals a pipe never gives make a session interactive.

The rule (PROTOCOL.md "Sessions"): the rows of one puzzle arriving over
more than INTERACTIVE_AFTER (a grid typed row by row), telnet option
negotiation (or its Ctrl-C), or the INTERACTIVE verb. A whole puzzle in one
burst, however late, is answered and the session ends with the close grace,
as with ``nc < file``.
"""

from __future__ import annotations

import subprocess
import time

import pytest
import trio

from sudoku_server.wire.session import INTERACTIVE_AFTER, PuzzleReceived, Session, TelnetReply
from tests.support.binaries import find_binary
from tests.support.examples import NEWSPAPER, NEWSPAPER_ANSWER, NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.paths import PUZZLES, REPO
from tests.support.servers import connect, read_all, running_server

ROWS = NEWSPAPER.splitlines(keepends=True)


def test_a_whole_grid_long_after_connecting_stays_a_pipe():
    session = Session()
    events = session.receive_data(NEWSPAPER.encode(), now=30.0)
    assert not session.interactive
    assert [type(e) for e in events] == [PuzzleReceived]


def test_a_one_line_puzzle_long_after_connecting_stays_a_pipe():
    session = Session()
    events = session.receive_data((NEWSPAPER_LINE + "\n").encode(), now=30.0)
    assert not session.interactive
    assert [type(e) for e in events] == [PuzzleReceived]


def test_rows_of_one_grid_over_more_than_the_threshold_make_it_interactive():
    session = Session()
    session.receive_data("".join(ROWS[:4]).encode(), now=5.0)
    assert not session.interactive
    session.receive_data("".join(ROWS[4:6]).encode(), now=5.0 + INTERACTIVE_AFTER * 0.9)
    assert not session.interactive  # under the threshold: a slow program's chunks
    session.receive_data("".join(ROWS[6:]).encode(), now=5.0 + INTERACTIVE_AFTER * 1.1)
    assert session.interactive


def test_separate_bursts_of_whole_puzzles_stay_a_pipe():
    session = Session()
    for k in range(5):
        session.receive_data(NEWSPAPER.encode(), now=3.0 * k)  # whole grids, 3 s apart
    assert not session.interactive


def test_telnet_option_negotiation_makes_it_interactive():
    session = Session()
    events = session.receive_data(b"\xff\xfd\x01PING\n", now=0.0)  # IAC DO ECHO
    assert session.interactive
    assert isinstance(events[0], TelnetReply) and events[0].data == b"\xff\xfc\x01"  # IAC WONT ECHO


def test_lines_parsed_later_from_the_buffer_keep_their_arrival_time():
    # A full reply window makes the server parse buffered lines later: no human pause.
    session = Session()
    events = session.receive_data((NEWSPAPER * 3).encode(), now=0.0, max_events=1)
    assert len(events) == 1 and session.backlog
    while session.backlog:
        events += session.receive_more(now=10.0, max_events=1)
    assert len(events) == 3
    assert not session.interactive


async def test_a_late_whole_grid_is_answered_then_the_close_grace_ends_the_session(wallclock):
    with trio.fail_after(10):
        async with running_server() as server:
            stream = await connect(server)
            async with stream:
                await trio.sleep(1.5)  # a pipe that connects first and writes later
                await stream.send_all(NEWSPAPER.encode())
                started = trio.current_time()
                answer = await read_all(stream)  # no half-close: the server ends the session
                elapsed = trio.current_time() - started
    assert answer == NEWSPAPER_ANSWER.encode()
    wallclock.below(elapsed, 3.0, "the 0.5 s close grace and the 2 s linger at most, not 300 s")


#: Plain nc variants that never half-close: each must exit by itself after a late burst.
NC_VARIANTS = {
    "nc.openbsd": ("/bin/nc.openbsd", "nc.openbsd"),
    "ncat": ("ncat",),
    "nc.traditional": ("/bin/nc.traditional", "nc.traditional"),
}


@pytest.mark.parametrize("request_file", ["newspaper", "inkala"])
def test_sleep_then_cat_into_plain_nc_exits_by_itself(server_address, request_file, wallclock):
    # `(sleep 2; cat puzzle.txt) | nc host port`: before issue 17 nc hung for the 300 s interactive timeout.
    _, port = server_address
    found = {name: find_binary(*names) for name, names in NC_VARIANTS.items()}
    if not any(found.values()):
        pytest.skip("no nc variant is installed (.ci/run installs them)")
    expected = (PUZZLES / f"{request_file}.expected").read_bytes()
    started = time.monotonic()
    procs = {
        name: subprocess.Popen(
            [
                "bash",
                "-c",
                '(sleep 2; cat "$1") | "$2" 127.0.0.1 "$3"',
                "bash",
                str(PUZZLES / f"{request_file}.txt"),
                binary,
                str(port),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
        )
        for name, binary in found.items()
        if binary is not None
    }
    try:
        for name, proc in procs.items():
            out, err = proc.communicate(timeout=15)
            assert out == expected, (name, err)
            assert proc.returncode == 0, (name, err)
    finally:
        for proc in procs.values():
            proc.kill()
    wallclock.below(time.monotonic() - started, 2 + 4.0, "the sleep, then the answer, close grace and linger")


async def test_a_grid_typed_row_by_row_still_keeps_the_session_for_the_next_puzzle():
    with trio.fail_after(10):
        async with running_server() as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all("".join(ROWS[:2]).encode())
                await trio.sleep(INTERACTIVE_AFTER + 0.2)
                await stream.send_all("".join(ROWS[2:]).encode())
                await trio.sleep(1.5)  # past the close grace
                await stream.send_all((NEWSPAPER_LINE + "\nQUIT\n").encode())
                answer = await read_all(stream)
    assert answer == NEWSPAPER_ANSWER.encode() + (NEWSPAPER_SOLUTION + "\n").encode() + b"BYE\n"
