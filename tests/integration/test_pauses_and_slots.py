"""Pauses inside a request, and the slots sessions hold: what waits, what is answered, who gives up a place.

1. A pause inside a line that is no whole request yet (``SOLVE `` then its
   puzzle, half a one-line puzzle: a block-buffered producer) waits for the
   rest like any line; an unterminated line that is a whole request is still
   answered after the close grace.
2. (docs only: telnet on a port other than 23 negotiates nothing.)
3. Silent reserve connections give up their place when the reserve is full,
   first; sessions that ended (lingering) hold no place; the log names the
   configured limits, as the ``ERROR busy`` line does.
"""

from __future__ import annotations

import json
import logging
import re

import pytest
import trio

from sudoku_server.net.server import EVICT_IDLE_SECONDS, PING_RESERVE
from sudoku_server.text.fpuzzles import link
from sudoku_server.wire.session import Session
from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.paths import REPO as ROOT
from tests.support.servers import connect, exchange, read_all, running_server

PUZZLE = NEWSPAPER_LINE.encode()
ANSWER = NEWSPAPER_SOLUTION.encode() + b"\n"
SECOND = b"7.....4...2..7..8...3..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5"
SECOND_ANSWER = b"798635421126974583453218679972586314564123897381497256617352948835749162249861735\n"
BUSY = b"ERROR busy 2 connections open, try again later\n"
#: The puzzle as an f-puzzles object with a long title (about 10 KB: it spans 8 KiB blocks), as a link,
#: and LAYOUTS.md's thermo example as a marks line.
FPUZZLES = json.dumps(
    {
        "size": 9,
        "title": "x" * 9500,
        "grid": [
            [{"value": int(c), "given": True} if c != "." else {} for c in NEWSPAPER_LINE[r * 9 : r * 9 + 9]]
            for r in range(9)
        ],
    },
    separators=(",", ":"),
).encode()
FPUZZLES_LINK = link(json.loads(FPUZZLES)).encode()
THERMO = (
    b".....6.............6..1.4...........3.2.......4....6.9.......1.135..............."
    b" thermo=r9c1-r8c2-r7c3;r2c7-r3c8-r2c9;r7c7-r8c8-r9c8;r2c4-r2c5-r1c5;r6c5-r6c6-r5c6;"
    b"r5c5-r4c4-r3c4;r1c4-r1c3-r1c2-r1c1-r2c1;r7c5-r8c4-r7c4-r8c5;r3c6-r4c6-r5c7"
)
THERMO_ANSWER = b"754286931921473568863915472698527143312649857547138629479862315135794286286351794\n"


async def timed_read(stream: trio.SocketStream) -> tuple[bytes, float]:
    """Everything until the server closes, and the seconds that took."""
    started = trio.current_time()
    data = await read_all(stream)
    return data, trio.current_time() - started


# -- 1. a pause inside a line that is no whole request yet ---------------------------


async def test_a_verb_then_its_puzzle_a_second_later_is_answered(fake_clock):
    # (printf 'SOLVE '; sleep 1; printf '%s\n' "$I") | nc 127.0.0.1 P
    with trio.fail_after(10):
        async with running_server() as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(b"SOLVE ")
                await trio.sleep(1.0)
                await stream.send_all(PUZZLE + b"\n")
                answer, elapsed = await timed_read(stream)
    assert answer == ANSWER
    assert elapsed == pytest.approx(0.5, abs=0.005)  # then the close grace ends it, as for any pipe


async def test_a_one_line_puzzle_split_by_a_pause_is_answered_then_the_next_line(fake_clock):
    with trio.fail_after(10):
        async with running_server() as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(PUZZLE[:40])
                await trio.sleep(1.0)
                await stream.send_all(PUZZLE[40:] + b"\n" + SECOND + b"\n")
                answer, _ = await timed_read(stream)
    assert answer == ANSWER + SECOND_ANSWER


async def test_a_block_buffered_producer_after_answers_loses_nothing(fake_clock):
    # A block ends mid-line after an answer was sent; the next block comes 1 s later.
    with trio.fail_after(10):
        async with running_server() as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(PUZZLE + b"\n" + SECOND[:74])
                await trio.sleep(1.0)
                await stream.send_all(SECOND[74:] + b"\n")
                await stream.send_eof()  # nc -N
                answer, _ = await timed_read(stream)
    assert answer == ANSWER + SECOND_ANSWER


async def test_a_pause_between_the_rows_of_a_grid_after_an_answer_is_waited_for(fake_clock):
    # (echo $I; head -5 newspaper.txt; sleep 0.8; tail -n +6 newspaper.txt) | nc -N 127.0.0.1 P
    rows = (ROOT / "puzzles" / "newspaper.txt").read_bytes().splitlines(keepends=True)
    expected = (ROOT / "puzzles" / "newspaper.expected").read_bytes()
    with trio.fail_after(10):
        async with running_server() as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(SECOND + b"\n" + b"".join(rows[:5]))
                await trio.sleep(0.8)
                await stream.send_all(b"".join(rows[5:]))
                await stream.send_eof()
                answer, _ = await timed_read(stream)
    assert answer == SECOND_ANSWER + expected


async def test_a_verb_line_then_its_puzzle_after_a_pause_is_answered(fake_clock):
    # (echo $I; echo SOLVE; sleep 0.8; echo $I) | nc -N 127.0.0.1 P
    with trio.fail_after(10):
        async with running_server() as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(SECOND + b"\nSOLVE\n")
                await trio.sleep(0.8)
                await stream.send_all(SECOND + b"\n")
                await stream.send_eof()
                answer, _ = await timed_read(stream)
    assert answer == SECOND_ANSWER * 2


@pytest.mark.parametrize(
    ("line", "cut", "answer"),
    [
        (FPUZZLES, 8192, ANSWER),  # a block-buffered producer's 8 KiB block ends inside the object
        (FPUZZLES_LINK, 60, ANSWER),  # a link cut inside its payload
        (THERMO, 120, THERMO_ANSWER),  # cut inside a mark (r1 of r1c5)
        (THERMO, 87, THERMO_ANSWER),  # cut inside the first mark's name
        (THERMO, 82, THERMO_ANSWER),  # cut after the givens' blank: they would read alone
        (THERMO, 134, THERMO_ANSWER),  # cut between two marks: the first one would read alone
    ],
    ids=["object", "link", "thermo-120", "thermo-87", "thermo-82", "thermo-134"],
)
async def test_an_fpuzzles_or_marks_line_split_by_a_pause_waits_for_its_end(fake_clock, line, cut, answer):
    # (head -c N line; sleep 1; tail -c +N+1 line) | nc -N 127.0.0.1 P  (s9-break finding 16)
    with trio.fail_after(10):
        async with running_server() as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(line[:cut])
                await trio.sleep(1.0)
                await stream.send_all(line[cut:] + b"\n")
                await stream.send_eof()
                reply, _ = await timed_read(stream)
    assert reply == answer


async def test_an_unterminated_whole_request_waits_for_the_idle_timeout_not_the_close_grace(fake_clock):
    # printf 'SOLVE <81 cells>' | nc 127.0.0.1 P  (no final newline, no half-close): s10-break finding 1 changed
    # this from "answered after the close grace": its line end may still come, so it is read only at the idle
    # timeout, as end of input would read it.
    with trio.fail_after(10):
        async with running_server(idle_timeout=2.0) as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(b"SOLVE " + PUZZLE)
                answer, elapsed = await timed_read(stream)
    assert answer == ANSWER
    assert elapsed == pytest.approx(2.0, abs=0.005)  # the idle timeout


async def test_an_unterminated_whole_request_is_answered_at_once_on_a_half_close(fake_clock):
    # printf 'SOLVE <81 cells>' | nc -N 127.0.0.1 P
    with trio.fail_after(10):
        async with running_server(idle_timeout=2.0) as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(b"SOLVE " + PUZZLE)
                await stream.send_eof()
                answer, elapsed = await timed_read(stream)
    assert answer == ANSWER
    assert elapsed < 0.5  # no timer: end of input settles the line


#: s10-break findings 1 and 7: prefixes that are whole requests of their own (a 6x6 or 4x4 puzzle, a classic
#: puzzle without its marks, ``GENERATE seed=4``, a comment before any request), cut by a pause longer than
#: the close grace. The whole line is answered, never the prefix.
EMPTY_BUT_ONE = b"1" + b"." * 80
EMPTY_BUT_ONE_ANSWER = b"123456789456789123789123456214365897365897214897214365531642978642978531978531642\n"


@pytest.mark.parametrize(
    ("line", "cut", "answer"),
    [
        (PUZZLE, 36, ANSWER),  # 36 cells: a 6x6 puzzle of their own
        (EMPTY_BUT_ONE, 16, EMPTY_BUT_ONE_ANSWER),  # 16 cells: a 4x4 puzzle
        (b"SOLVE " + PUZZLE, 42, ANSWER),
        (THERMO, 81, THERMO_ANSWER),  # the givens alone: a classic puzzle without its marks
        (b"\xef\xbc\x97" + PUZZLE[1:], 1, b"\xef\xbc\x97" + ANSWER[1:]),  # the first byte of U+FF17 (7)
        (b"# generated by my tool v2\n" + PUZZLE, 22, ANSWER),  # a comment cut before any request
    ],
    ids=["6x6-prefix", "4x4-prefix", "verb-6x6-prefix", "thermo-givens", "fullwidth-first-byte", "comment"],
)
async def test_a_line_cut_where_a_shorter_request_ends_waits_for_its_end(fake_clock, line, cut, answer):
    # (head -c N line; sleep 1; tail -c +N+1 line) | nc 127.0.0.1 P  (no half-close)
    with trio.fail_after(10):
        async with running_server() as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(line[:cut])
                await trio.sleep(1.0)
                await stream.send_all(line[cut:] + b"\n")
                reply, elapsed = await timed_read(stream)
    assert reply == answer
    assert elapsed == pytest.approx(0.5, abs=0.005)  # the close grace after the answer, as for any pipe


async def test_generate_cut_inside_its_seed_waits_for_the_whole_seed(fake_clock):
    # (printf 'GENERATE seed=4'; sleep 1; printf '2\n') | nc 127.0.0.1 P  was answered for seed=4
    with trio.fail_after(30):
        async with running_server() as server:
            expected = await exchange(server, b"GENERATE seed=42\n")
            stream = await connect(server)
            async with stream:
                await stream.send_all(b"GENERATE seed=4")
                await trio.sleep(1.0)
                await stream.send_all(b"2\n")
                reply, _ = await timed_read(stream)
    assert reply.startswith(b"# generated size=9 ") and b" seed=42 " in reply
    assert reply == expected


async def test_a_partial_line_after_answers_is_read_at_the_idle_timeout_as_end_of_input_would(fake_clock):
    # The idle timeout (from the last complete line) still ends a line that never completes: read as it stands.
    with trio.fail_after(10):
        async with running_server(idle_timeout=2.0) as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(PUZZLE + b"\n" + PUZZLE[:36])
                reply, elapsed = await timed_read(stream)
    assert reply == ANSWER + b"ERROR format line 2: '7' is not a 6x6 symbol at r1c1\n"
    assert elapsed == pytest.approx(2.0, abs=0.005)


async def test_a_line_that_never_completes_still_ends_at_the_idle_timeout(fake_clock):
    with trio.fail_after(10):
        async with running_server(idle_timeout=1.5) as server:
            stream = await connect(server)
            async with stream:
                await stream.send_all(PUZZLE[:74])
                answer, elapsed = await timed_read(stream)
    assert answer == b"ERROR incomplete input ended inside the one-line puzzle at line 1 (74 of 81 cells)\n"
    assert elapsed == pytest.approx(1.5, abs=0.005)  # the idle timeout, not the close grace (0.5 s)


@pytest.mark.parametrize(
    ("data", "incomplete"),
    [
        (b"SOLVE ", True),
        (b"SOLVE", True),
        (PUZZLE[:74], True),
        (b"COUNT limit=5 " + PUZZLE[:70], True),
        (PUZZLE[:9], True),
        (b"5 3 . | . 7 . | . . .\n6 . . | 1 9 5 | . . .\n. 9 8", True),  # a grid that lacks rows
        (b"SOLVE\n" + PUZZLE[:50], True),
        (b"SOLVE " + PUZZLE, False),  # a whole request
        (PUZZLE, False),
        (b"SOLVE " + PUZZLE + b"\r", False),
        (b"PING", False),
        (b"PIN", False),  # answered `unknown verb` at end of input: no request to wait for
        (b"# a comment", False),
        (PUZZLE + b"\n", False),  # nothing unterminated, no request begun
        (b"SOLVE\n", True),  # a whole verb line still waiting for its puzzle (second fresh-eyes pass)
        (b"5 3 . | . 7 . | . . .\n6 . . | 1 9 5 | . . .\n", True),  # whole rows of a grid that lacks rows
        (b"", False),
        (FPUZZLES[:8192], True),  # an f-puzzles object whose braces are not closed yet
        (b"SOLVE " + FPUZZLES[:100], True),
        (FPUZZLES, False),  # the whole object: answered after the close grace
        (b'{"size":9,"grid":[]}', False),  # refused whole: an error to send, nothing to wait for
        (b'{"size":9,"grid":[]', True),
        (FPUZZLES_LINK[:60], True),  # a link cut inside its payload
        (FPUZZLES_LINK, False),
        (THERMO[:82], True),  # givens and a blank: marks may follow
        (THERMO[:134], True),  # a marks line cut between two marks still reads: only its end says
        (THERMO, True),
        (PUZZLE + b" # a comment", False),
        (b"5 3 . | . 7 .", False),  # a row of blanks and marks is no marks line
    ],
    ids=lambda value: f"{value[:30]!r}+{len(value)}" if isinstance(value, bytes) else None,
)
def test_session_incomplete_tells_a_partial_request_from_a_whole_one(data, incomplete):
    session = Session()
    session.receive_data(data)
    assert session.incomplete is incomplete
    assert session.incomplete is incomplete  # cached: the same answer


def test_session_incomplete_follows_more_bytes():
    session = Session()
    session.receive_data(b"SOLVE ")
    assert session.incomplete
    session.receive_data(PUZZLE)
    assert not session.incomplete and session.pending  # whole now: the close grace settles it


async def test_a_trickler_of_a_puzzle_line_still_loses_its_slot_when_the_server_is_full():
    async def trickle(stream: trio.SocketStream) -> None:
        try:
            for byte in PUZZLE[:70]:
                await stream.send_all(bytes([byte]))
                await trio.sleep(0.2)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            pass

    with trio.fail_after(15):
        async with running_server(max_connections=2) as server, trio.open_nursery() as nursery:
            tricklers = [await connect(server), await connect(server)]
            for stream in tricklers:
                nursery.start_soon(trickle, stream)
            await trio.sleep(EVICT_IDLE_SECONDS + 0.5)
            fresh = await connect(server)
            async with fresh:
                await fresh.send_all(PUZZLE + b"\n")
                await fresh.send_eof()
                assert await read_all(fresh) == ANSWER
            evicted = await read_all(tricklers[0])
            nursery.cancel_scope.cancel()
        for stream in tricklers:
            await stream.aclose()
    assert re.fullmatch(
        rb"ERROR incomplete input ended inside the one-line puzzle at line 1 \(\d+ of 81 cells\)\n"
        rb"BYE idle for \d+ s and the server is full \(2 connections\)\n",
        evicted,
    ), evicted


# -- 3. the reserve, and sessions that ended --------------------------------------------


async def test_silent_reserve_connections_give_up_their_places(caplog):
    # full4.py: 2 slots held by programs that PING every 0.3 s, 8 silent reserve connections.
    caplog.set_level(logging.INFO, logger="sudoku_server")
    with trio.fail_after(15):
        async with running_server(max_connections=2) as server, trio.open_nursery() as nursery:

            async def hold(stream: trio.SocketStream) -> None:
                await stream.send_all(b"KEEPALIVE\n")
                while True:
                    await stream.send_all(b"PING\n")
                    await trio.sleep(0.3)

            holders = [await connect(server), await connect(server)]
            for stream in holders:
                nursery.start_soon(hold, stream)
            while len(server.connections) < 2:
                await trio.sleep(0.01)
            silent = [await connect(server) for _ in range(PING_RESERVE)]
            while len(server.connections) < 2 + PING_RESERVE:
                await trio.sleep(0.01)
            # Fresh: no place may go yet; refused, and the log names the configured limits.
            early = await connect(server)
            async with early:
                await early.send_all(b"PING\n")
                assert await read_all(early) == BUSY
            await trio.sleep(EVICT_IDLE_SECONDS + 0.3)
            late = await connect(server)
            async with late:
                await late.send_all(b"PING\n")
                assert await read_all(late) == b"PONG\n"  # the oldest silent one left the reserve
            assert re.fullmatch(
                rb"BYE idle for \d+ s and the server is full \(2 connections\)\n", await read_all(silent[0])
            )
            # A puzzle needs a slot: both are in use by programs that make progress: busy, honestly.
            puzzle = await connect(server)
            async with puzzle:
                await puzzle.send_all(PUZZLE + b"\n")
                assert await read_all(puzzle) == BUSY
            nursery.cancel_scope.cancel()
        for stream in holders + silent:
            await stream.aclose()
    messages = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert (
        sum(
            bool(
                re.fullmatch(
                    r"\S+ refused: all 2 connections in use and the 8 reserve places taken \(none idle for 2 s\)", m
                )
            )
            for m in messages
        )
        == 1
    ), messages
    assert any(
        re.fullmatch(
            r"\S+ evicted from the reserve \(all 8 places taken\): no complete line for \d+ s"
            r" and all 2 connections in use",
            m,
        )
        for m in messages
    ), messages


async def test_sessions_that_ended_hold_no_slot_while_they_linger(caplog):
    # full5.py: answered sessions whose clients never close linger up to 2 s; they hold no slot.
    caplog.set_level(logging.INFO, logger="sudoku_server")
    with trio.fail_after(15):
        async with running_server(max_connections=2) as server:
            done = []
            for _ in range(2):
                stream = await connect(server)
                await stream.send_all(PUZZLE + b"\n")
                answer, _ = await timed_read(stream)  # the close grace ends it; the client keeps the socket
                assert answer == ANSWER
                done.append(stream)
            assert len(server.connections) == 2  # both still lingering
            for _ in range(2):
                fresh = await connect(server)
                async with fresh:
                    await fresh.send_all(PUZZLE + b"\n")
                    await fresh.send_eof()
                    assert await read_all(fresh) == ANSWER
            for stream in done:
                await stream.aclose()
    assert not any("evicted" in r.getMessage() or "refused" in r.getMessage() for r in caplog.records)
