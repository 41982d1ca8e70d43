"""Findings of a hostile outside test (the breaker pass), each with the exact bytes.

A test marked ``xfail(strict=True)`` asserts what README.md / docs/PROTOCOL.md /
docs/LAYOUTS.md promise where the server does otherwise today; it starts to
pass (and then fails as XPASS) once the bug is fixed: drop the mark then. The
unmarked tests pin tricky cases that already work and that the suite did not
cover.

Most tests run the server in-process on 127.0.0.1 port 0 (``running_server``);
the command-line one starts ``python -m sudoku_server`` in a subprocess.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
import trio

from tests.support.examples import (
    INKALA,
    INKALA_SOLUTION,
    NEWSPAPER,
    NEWSPAPER_ANSWER,
    NEWSPAPER_LINE,
    NEWSPAPER_SOLUTION,
)
from tests.support.paths import REPO
from tests.support.servers import ask, connect, exchange, read_all, reset, running_server, stat_values

GOOD = (NEWSPAPER_LINE + "\n").encode()
GOOD_ANSWER = (NEWSPAPER_SOLUTION + "\n").encode()
NOT_A_DIGIT = b"is not a digit 1-9 or an empty mark (. 0 _)"
INTERACTIVE_ON = b"INTERACTIVE on: no close grace; QUIT or end of input ends the session, or 300 s of silence\n"
# The first two rows of the newspaper puzzle: a grid that is still waiting for 7 rows.
TWO_ROWS = (NEWSPAPER_LINE[:9] + "\n" + NEWSPAPER_LINE[9:18] + "\n").encode()
CUT_AT_3 = b"ERROR format line 3: the grid that starts at line 1 has 2 rows, expected 9\n"
CUT_AT_4 = b"ERROR format line 4: the grid that starts at line 2 has 2 rows, expected 9\n"


# 1. A command line inside an unfinished grid --------------------------------------
#
# LAYOUTS.md: "A blank line, a comment, a one-line puzzle or a dataset row inside
# a grid ends that grid early: the grid gets one error, and the line is then read
# on its own." A command line does not: it is taken as a bad row, and the next
# rows (whatever they are: PING, QUIT, SOLVE <puzzle>) are skipped without a
# reply. PROTOCOL.md promises one reply to every received puzzle, and the README
# an interactive session that stays open "until QUIT".


async def test_a_one_line_puzzle_inside_an_unfinished_grid_ends_it_and_is_answered():
    # What already works, and what the command lines below should do too.
    assert await ask(TWO_ROWS + GOOD + b"PING\nQUIT\n") == CUT_AT_3 + GOOD_ANSWER + b"PONG\nBYE\n"


async def test_a_blank_line_rescues_a_person_who_gives_up_on_a_grid():
    # The way out that works today: Enter on an empty line, then QUIT.
    data = b"INTERACTIVE\n" + TWO_ROWS + b"\nQUIT\n"
    assert await ask(data) == INTERACTIVE_ON + CUT_AT_4 + b"BYE\n"


async def test_commands_inside_an_unfinished_grid_end_it_and_are_answered():
    # Today: b"ERROR format line 3: expected 9 cells, found 4\n" and nothing else.
    assert await ask(TWO_ROWS + b"PING\nQUIT\n") == CUT_AT_3 + b"PONG\nBYE\n"


async def test_solve_with_its_puzzle_inside_an_unfinished_grid_is_answered():
    # Today: b"ERROR format line 3: expected 9 cells, found 86\n" and no answer for INKALA.
    data = TWO_ROWS + b"SOLVE " + INKALA.encode() + b"\n"
    assert await ask(data) == CUT_AT_3 + INKALA_SOLUTION.encode() + b"\n"


async def test_quit_after_a_half_typed_grid_ends_an_interactive_session():
    # Today: INTERACTIVE_ON + b"ERROR format line 4: expected 9 cells, found 4\n", no BYE
    # (without the half-close here the session would stay open for 300 s).
    data = b"INTERACTIVE\n" + TWO_ROWS + b"QUIT\n"
    assert await ask(data) == INTERACTIVE_ON + CUT_AT_4 + b"BYE\n"


# 2. connections_rejected at the connection limit -----------------------------------


async def wait_for(predicate, seconds: float = 5) -> None:
    with trio.fail_after(seconds):
        while not predicate():
            await trio.sleep(0.01)


async def test_a_refusal_at_the_connection_limit_counts_as_rejected():
    with trio.fail_after(10):
        async with running_server(max_connections=1) as server:
            held = await connect(server)
            await held.send_all(b"# waiting\n")
            await wait_for(lambda: len(server.connections) == 1)
            assert await exchange(server, GOOD) == b"ERROR busy 1 connection open, try again later\n"
            await held.aclose()
            await wait_for(lambda: not server.connections)
            values = stat_values(await exchange(server, b"STATS\n"))
    assert values["connections_rejected"] == "1"


async def test_a_refusal_by_the_per_address_cap_counts_as_rejected():
    with trio.fail_after(10):
        async with running_server(max_connections_per_ip=1) as server:
            held = await connect(server)
            await held.send_all(b"# waiting\n")
            await wait_for(lambda: len(server.connections) == 1)
            assert await exchange(server, GOOD) == b"ERROR busy 1 connection open from 127.0.0.1, try again later\n"
            await held.aclose()
            await wait_for(lambda: not server.connections)
            values = stat_values(await exchange(server, b"STATS\n"))
    assert (values["connections_rejected"], values["connections_total"]) == ("1", "2")


async def test_a_full_server_still_answers_every_health_check_verb():
    # docs/OPERATIONS.md: "8 more are kept for `PING`"; VERSION, HELP, STATS and QUIT are allowed too,
    # and a puzzle after them gets the busy line.
    with trio.fail_after(10):
        async with running_server(max_connections=1) as server:
            held = await connect(server)
            await held.send_all(b"# waiting\n")
            await wait_for(lambda: len(server.connections) == 1)
            version = await exchange(server, b"VERSION\n")
            help_ping = await exchange(server, b"HELP PING\n")
            stats = await exchange(server, b"STATS\n")
            quit_ = await exchange(server, b"PING\nQUIT\n")
            busy = await exchange(server, b"PING\n" + GOOD + b"PING\n")
            await held.aclose()
    assert re.fullmatch(rb"VERSION sudoku-server 0\.3\.0 protocol=2 core=(python|native)\n", version)
    assert help_ping == b"HELP PING\n  health check, answered without the solver\n  example: PING -> PONG\nEND\n"
    assert stat_values(stats)["connections_current"] == "2"
    assert quit_ == b"PONG\nBYE\n"
    assert busy == b"PONG\nERROR busy 1 connection open, try again later\n"


# 3. The metrics endpoint ----------------------------------------------------------


async def test_metrics_name_filter_is_served():
    from sudoku_server.app.runtime import start_metrics_http

    with trio.fail_after(10):
        async with running_server() as server:
            http = start_metrics_http(server.metrics, "127.0.0.1", 0)
            url = f"http://127.0.0.1:{http.server_address[1]}/metrics?name[]=sudoku_connections_total"

            def scrape():
                try:
                    with urllib.request.urlopen(url, timeout=5) as response:
                        return response.status, response.read().decode()
                except urllib.error.HTTPError as error:
                    return error.code, error.read().decode()

            try:
                status, text = await trio.to_thread.run_sync(scrape)
            finally:
                http.shutdown()
                http.server_close()
    assert status == 200, text
    assert "sudoku_connections_total 0.0" in text and "sudoku_queued" not in text


def test_a_metrics_port_in_use_is_named():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    metrics_port = taken.getsockname()[1]
    try:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "sudoku_server",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--metrics-port",
                str(metrics_port),
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=30,
        )
    finally:
        taken.close()
    assert result.returncode == 1
    assert re.search(rf"ERROR .*cannot listen on .*port {metrics_port}: Address already in use", result.stderr), (
        result.stderr
    )
    assert "choose another with --port)" not in result.stderr


# 4. STATS solve_ms_p50 / solve_ms_p99 -----------------------------------------------


async def test_solve_time_percentiles_do_not_exceed_the_solving_time():
    def steady(grid, *, check):
        from sudoku_server import solve

        end = time.monotonic() + 0.105
        while time.monotonic() < end:
            check()
            time.sleep(0.005)
        return solve(grid, check=check)

    with trio.fail_after(10):
        async with running_server(solve=steady) as server:
            assert await exchange(server, GOOD) == GOOD_ANSWER
            values = stat_values(await exchange(server, b"STATS\n"))
    total_ms = float(values["solver_seconds"]) * 1000
    seen = (values["solver_seconds"], values["solve_ms_p50"], values["solve_ms_p99"])
    assert float(values["solve_ms_p50"]) <= total_ms * 1.05, seen
    assert float(values["solve_ms_p99"]) <= total_ms * 1.05, seen


# 5. A foreign character inserted in a one-line puzzle ---------------------------------
#
# PROTOCOL.md: "Bytes that are not valid UTF-8 are reported as `byte 0xNN`; other
# non-ASCII characters as `U+NNNN`." That holds when the character replaces a cell;
# when it is inserted (a stray byte, a zero-width space from a web page, a NUL),
# the reply is only a cell count (`expected 81 cells, found 82`), which names
# neither the character nor its place.

INSERTED = [
    pytest.param(b"\xfe", b"byte 0xFE", id="invalid-utf8"),
    pytest.param(b"\x00", b"U+0000", id="nul"),
    pytest.param("\u200b".encode(), b"U+200B", id="zero-width-space"),
]


@pytest.mark.parametrize("inserted,named", INSERTED)
async def test_an_inserted_foreign_character_is_named_with_its_column(inserted, named):
    data = NEWSPAPER_LINE[:5].encode() + inserted + NEWSPAPER_LINE[5:].encode() + b"\n" + GOOD
    reply = await ask(data)
    first, rest = reply.split(b"\n", 1)
    assert first.startswith(b"ERROR format line 1, column 6: " + named + b" " + NOT_A_DIGIT), reply
    assert rest == GOOD_ANSWER


@pytest.mark.parametrize("inserted,named", INSERTED)
async def test_a_foreign_character_in_place_of_a_cell_is_named(inserted, named):
    # The replacing case, which works: the same characters, one cell replaced.
    data = NEWSPAPER_LINE[:5].encode() + inserted + NEWSPAPER_LINE[6:].encode() + b"\n" + GOOD
    assert (
        await ask(data) == b"ERROR format line 1, column 6: " + named + b" " + NOT_A_DIGIT + b" at r1c6\n" + GOOD_ANSWER
    )


# 6. Tricky cases that hold ----------------------------------------------------------


async def test_count_limits_one_and_a_thousand_on_a_unique_puzzle():
    data = f"COUNT limit=1 {INKALA}\nCOUNT limit=3 {INKALA}\nCOUNT limit=1000 {INKALA}\n".encode()
    assert await ask(data) == b"COUNT 1+\nCOUNT 1 unique\nCOUNT 1 unique\n"


async def test_blocks_and_session_lines_keep_crlf():
    data = b"HELP PING\r\nSOLVE\r\nPING\r\nINTERACTIVE\r\nQUIT\r\n"
    assert await ask(data) == (
        b"HELP PING\r\n  health check, answered without the solver\r\n  example: PING -> PONG\r\nEND\r\n"
        b"ERROR command SOLVE at line 2: no puzzle followed it\r\nPONG\r\n"
        + INTERACTIVE_ON.replace(b"\n", b"\r\n")
        + b"BYE\r\n"
    )


async def test_quit_after_a_pipelined_batch_answers_the_batch_then_bye():
    puzzles = (REPO / "puzzles" / "norvig_top95.txt").read_bytes()
    expected = (REPO / "puzzles" / "norvig_top95.expected").read_bytes()
    assert await ask(puzzles + b"QUIT\n" + puzzles) == expected + b"BYE\n"


# A stream that mixes layouts, commands, telnet sequences, CRLF and multi-byte
# characters; sent byte by byte it must get the same replies as sent at once
# (telnet answers aside, whose place among the replies follows the chunks).
MIXED = (
    b"\xef\xbb\xbf\xff\xfd\x01PING\r\n"
    + NEWSPAPER.replace("\n", "\r\n").encode()
    + "\uff18\uff0e\uff0e\n".encode()
    + b"COUNT "
    + INKALA.encode()
    + b"\r"
    + b"\xff\xfb\x03hello world\n"
    + "\u250c\u2500\u2510\n".encode()
    + b"# a comment\n[Puzzle]\n"
    + INKALA.encode()
    + b" # Inkala\n"
    + b"\xff\xfa\x18\x00xterm\xff\xf0SOLVE\n"
    + NEWSPAPER.encode()
)


async def test_replies_do_not_depend_on_how_the_stream_is_cut():
    def strip_telnet(data: bytes) -> bytes:
        return re.sub(rb"\xff[\xfb-\xfe].", b"", data)

    with trio.fail_after(20):
        async with running_server() as server:
            whole = await exchange(server, MIXED)
            stream = await connect(server)
            async with stream:
                for k in range(len(MIXED)):
                    await stream.send_all(MIXED[k : k + 1])
                    await trio.sleep(0)
                await stream.send_eof()
                bytewise = await read_all(stream)
    assert strip_telnet(whole) == strip_telnet(bytewise)
    assert whole.count(b"\xff\xfc\x01") == bytewise.count(b"\xff\xfc\x01") == 1
    assert whole.count(b"\xff\xfe\x03") == bytewise.count(b"\xff\xfe\x03") == 1
    assert strip_telnet(whole).startswith(b"PONG\r\n" + NEWSPAPER_ANSWER.replace("\n", "\r\n").encode())
    assert strip_telnet(whole).endswith(INKALA_SOLUTION.encode() + b" # Inkala\n" + NEWSPAPER_ANSWER.encode())


async def test_a_reset_at_every_moment_leaves_the_server_serving():
    puzzles = (REPO / "puzzles" / "norvig_top95.txt").read_bytes()
    with trio.fail_after(20):
        async with running_server() as server:
            for cut in range(0, len(puzzles), len(puzzles) // 12):
                stream = await connect(server)
                await stream.send_all(puzzles[:cut])
                if cut % 2:
                    await stream.send_eof()
                reset(stream)
            await wait_for(lambda: not server.connections)
            assert await exchange(server, GOOD) == GOOD_ANSWER
