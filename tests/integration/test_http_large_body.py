"""A large request body is read in bounded work (issue 32): a 1 MiB text of one-digit lines was 12.5 s of parsing on
the event loop and 400 MB of memory; the reader now stops once the first lines settle the answer."""

from __future__ import annotations

import json
import random
import tracemalloc

from sudoku_server.errors import PuzzleFormatError
from sudoku_server.text.reader import _lines, parse
from tests.support.httptools import afetch, running_http_server

ONE_DIGIT_LINES = "1\n" * ((1024 * 1024 - 32) // 3)  # its JSON body is just under the 1 MiB limit


def test_lines_are_splitlines_a_piece_at_a_time():
    rng = random.Random(1)
    alphabet = "ab\r\n\x0b\x0c\x1c\x85\u2028 "
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 200)))
        for chunk in (1, 2, 5, 64):
            assert list(_lines(text, chunk)) == text.splitlines(keepends=True), (text, chunk)


def test_a_megabyte_of_one_digit_lines_is_read_in_bounded_memory():
    tracemalloc.start()
    try:
        parse(ONE_DIGIT_LINES)
    except PuzzleFormatError as error:
        message = error.detail
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert message == "line 1: expected a row of 4, 6, 9, 16 or 25 cells, found 1"
    assert peak < 4 * 1024 * 1024  # the lines of one 64 KiB piece (about 2 MB), not of the whole text (hundreds)


async def test_a_megabyte_post_of_one_digit_lines_is_400():
    async with running_http_server() as (server, port):
        body = json.dumps({"puzzle": ONE_DIGIT_LINES}).encode()
        assert len(body) <= 1024 * 1024
        reply = await afetch(port, "POST", "/api/v1/solve", body)
        assert (reply.status, reply.json) == (
            400,
            {
                "error": {
                    "code": "format",
                    "message": "line 1: expected a row of 4, 6, 9, 16 or 25 cells, found 1",
                    "line": 1,
                }
            },
        )
