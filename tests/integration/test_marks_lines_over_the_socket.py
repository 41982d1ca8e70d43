"""Marks lines over the socket (issue 29): taken beside the plain lines, answered inline or in bulk, the same bytes.

A ``SOLVE <81 givens> word=marks`` line is taken unread with the plain lines
(``Session.take_plain(marks=True)``); the inline path answers it text to text
(``text.marksline.solve_marks``); one it does not answer (its budget used, a
reply pending, an error to word) goes unread to a bulk job with the plain
lines (``wire.session.TakenLine``), which answers it the same way or reads
it as the session would have; a slow one leaves the bulk for a job of its
own. Every reply is the usual path's (``tests.support.sessions.replies``).
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import trio
import trio.testing

from sudoku_server.net.config import ServerConfig
from sudoku_server.net.server import SudokuServer
from sudoku_server.sudoku import solver
from tests.support.marks_examples import EXAMPLES, SOLUTION
from tests.support.sessions import replies

pytestmark = pytest.mark.skipif(solver.CORE != "native", reason="the fast path answers with the native core only")

STORED = Path(__file__).resolve().parents[2] / "puzzles" / "variants"


def stored(word: str, count: int) -> list[str]:
    """The first ``count`` lines of ``bench_<word>.txt`` as ``<givens> <word>=<marks>``."""
    out = []
    for line in (STORED / f"bench_{word}.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            _rule, givens, _solution, *fields = line.split()
            out.append(f"{givens.replace('0', '.')} {' '.join(fields)}")
    return out[:count]


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


def spied(server) -> list:
    """The jobs the server's pool is given from now on."""
    submitted: list = []
    submit = server.pool.submit

    def spy(job, puzzles=1):
        submitted.append(job)
        submit(job, puzzles)

    server.pool.submit = spy
    return submitted


THERMO = f"{EXAMPLES['thermo'][0]} thermo={EXAMPLES['thermo'][1]}"
#: A stream of marks lines with, among them, a slow one (little killer: milliseconds of search), errors to
#: word, a plain line, a verb and a SOLVE with an option.
MIXED = (
    [f"SOLVE {line}" for line in stored("thermo", 40)]
    + [f"SOLVE {stored('littlekiller', 1)[0]}"]
    + [
        f"SOLVE {EXAMPLES['thermo'][0]} thermo=r1c1-r1c3",
        f"SOLVE 53{'.' * 79} thermo=r1c1-r1c2",
        f"SOLVE 11{'.' * 79} thermo=r1c1-r1c2",
        f"SOLVE {THERMO}",
        EXAMPLES["thermo"][0],
        "PING",
        f"SOLVE format=link {THERMO}",
        f"SOLVE {EXAMPLES['kropki'][0]} kropki={EXAMPLES['kropki'][1]} thermo=r5c5-r6c6",
    ]
    + [f"SOLVE {line}" for line in stored("kropki", 40)]
)


@pytest.mark.parametrize("inline_seconds", [0.002, 0.0])
async def test_a_stream_of_marks_lines_answers_the_usual_paths_bytes(inline_seconds: float) -> None:
    data = "".join(line + "\n" for line in MIXED).encode()
    expected = replies(data)
    assert expected.count(b"\n") == len(MIXED) and expected.count(b"ERROR ") == 3
    async with running_server(inline_seconds=inline_seconds) as server:
        submitted = spied(server)
        assert await exchange(server, data) == expected
    # in bulk (32 a job at most), not one job a line (88 before): the slow one and the lines after it in its
    # bulk get jobs of their own (on a busy machine a preempted search may make another one slow), the verb none
    assert len(submitted) < 50, len(submitted)


async def test_marks_lines_alone_answer_inline_or_in_bulk_with_crlf() -> None:
    lines = [f"SOLVE {line}" for line in stored("oddeven", 60)]
    data = "".join(line + "\r\n" for line in lines).encode()
    expected = replies(data)
    assert expected.count(b"\r\n") == 60 and b"ERROR" not in expected
    async with running_server() as server:
        submitted = spied(server)
        assert await exchange(server, data) == expected
    # inline, else in bulks of 32: a job each no more (on a busy machine a search preempted past the native
    # core's check interval leaves its bulk with those after it: never all of them)
    assert len(submitted) < 40, len(submitted)


async def test_an_error_line_left_by_a_split_bulk_keeps_its_place() -> None:
    # no inline path: the little killer line is slow in its bulk; the lines after it leave the bulk, and the
    # format error among them is read when the bulk splits (its slot filled at once)
    lines = [
        f"SOLVE {THERMO}",
        f"SOLVE {stored('littlekiller', 1)[0]}",
        f"SOLVE {EXAMPLES['thermo'][0]} thermo=r1c1-r1c3",
        f"SOLVE {THERMO}",
    ]
    data = "".join(line + "\n" for line in lines).encode()
    expected = replies(data)
    assert expected.decode().splitlines()[2] == (
        "ERROR format line 3: thermo= mark 1 steps from r1c1 to r1c3, cells that do not touch"
    )
    assert expected.decode().splitlines()[3] == SOLUTION
    async with running_server(inline_seconds=0) as server:
        assert await exchange(server, data) == expected


async def test_a_marks_line_slow_on_the_event_loop_gets_a_job_of_its_own_that_answers_it_the_same_way() -> None:
    # the first stored little killer searches for milliseconds: past the inline bound (0.5 ms) it goes, unread,
    # to a job of its own (not to a bulk, where it would pass the same bound again)
    lines = [f"SOLVE {stored('littlekiller', 1)[0]}"] + [f"SOLVE {line}" for line in stored("thermo", 5)]
    data = "".join(line + "\n" for line in lines).encode()
    expected = replies(data)
    assert b"ERROR" not in expected and expected.count(b"\n") == 6
    async with running_server() as server:
        submitted = spied(server)
        assert await exchange(server, data) == expected
    first = submitted[0]
    assert first.taken is not None and first.taken.slow and first.taken.lineno == 1
    assert first.request is None and first.bulk is None


async def test_the_lines_after_a_slow_one_stay_in_a_bulk_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    # no inline path: the little killer line is slow in its bulk; it gets a job of its own, the lines after it
    # (an error to word among them) one bulk job, not a job each
    from sudoku_server.net.connection import Connection

    splits: list = []
    split_bulk = Connection.split_bulk

    def spy(self, job, leftover):
        jobs = split_bulk(self, job, leftover)
        splits.append(jobs)
        return jobs

    monkeypatch.setattr(Connection, "split_bulk", spy)
    lines = (
        [f"SOLVE {THERMO}", f"SOLVE {stored('littlekiller', 1)[0]}"]
        + [f"SOLVE {line}" for line in stored("thermo", 6)]
        + [f"SOLVE {EXAMPLES['thermo'][0]} thermo=r1c1-r1c3", f"SOLVE {THERMO}"]
    )
    data = "".join(line + "\n" for line in lines).encode()
    expected = replies(data)
    assert expected.count(b"\n") == 10 and expected.count(b"ERROR format line 9:") == 1
    async with running_server(inline_seconds=0) as server:
        assert await exchange(server, data) == expected
    own, bulk = splits[0]
    assert own.taken is not None and own.taken.lineno == 2 and own.bulk is None
    assert bulk.bulk is not None and [item.lineno for item in bulk.bulk] == list(range(3, 11))
    assert bulk.slot.count == 8 or len(splits) > 1  # (a thermo line preempted past the bound splits it again)
