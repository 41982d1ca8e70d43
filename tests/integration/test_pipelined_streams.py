"""Pipelined streams: COUNT's limits 1 and 1000, CRLF kept on blocks and session lines, QUIT after a batch
answers the batch then BYE, replies whatever the cuts of the stream, and a reset at every moment leaves
the server serving.
"""

from __future__ import annotations

import re

import trio

from tests.support.examples import (
    GOOD,
    GOOD_ANSWER,
    INKALA,
    INKALA_SOLUTION,
    NEWSPAPER,
    NEWSPAPER_ANSWER,
)
from tests.support.paths import REPO
from tests.support.servers import ask, connect, exchange, read_all, reset, running_server

INTERACTIVE_ON = b"INTERACTIVE on: no close grace; QUIT or end of input ends the session, or 300 s of silence\n"


async def wait_for(predicate, seconds: float = 5) -> None:
    with trio.fail_after(seconds):
        while not predicate():
            await trio.sleep(0.01)


async def test_count_limits_one_and_a_thousand_on_a_unique_puzzle():
    data = f"COUNT limit=1 {INKALA}\nCOUNT limit=3 {INKALA}\nCOUNT limit=1000 {INKALA}\n".encode()
    assert await ask(data) == b"COUNT 1+\nCOUNT 1 unique\nCOUNT 1 unique\n"


async def test_blocks_and_session_lines_keep_crlf():
    data = b"HELP PING\r\nSOLVE\r\nPING\r\nINTERACTIVE\r\nQUIT\r\n"
    answered = await ask(data)
    # INTERACTIVE with CRLF: telnet's TRANSMIT-BINARY offer (issue 32), sent at once, so wherever the replies
    # written before it have got to; once
    offer = b"\xff\xfd\x00\xff\xfb\x00"
    assert answered.count(offer) == 1
    assert answered.replace(offer, b"") == (
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
