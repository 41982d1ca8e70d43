"""The JSON API, version 1 (docs/HTTP.md): exact replies of every endpoint over a real HTTP connection."""

from __future__ import annotations

import urllib.parse

from httptools import afetch, running_http_server
from test_formats import NEWSPAPER, NEWSPAPER_ANSWER, NEWSPAPER_LINE, NEWSPAPER_SOLUTION

#: A puzzle with two solutions (the newspaper puzzle without its r1c1 given... and more): COUNT 2+.
TWO = "." * 80 + "9"
#: The newspaper puzzle with a second 7 in box 1 (r3c3): invalid.
DUPLICATE = "7.....4...2..7..8...7..8..9...5..3...6..2..9...1..7..6...3..9...3..4..6...9..1..5"
EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


async def test_healthz_ok():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "GET", "/healthz")
        assert (reply.status, reply.body) == (200, b"ok\n")


async def test_solve_post_one_line():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": NEWSPAPER_LINE})
        assert reply.status == 200
        assert reply.headers["content-type"] == "application/json"
        assert reply.body == (
            b'{"solution":"' + NEWSPAPER_SOLUTION.encode() + b'","text":"' + NEWSPAPER_SOLUTION.encode() + b'\\n"}'
        )


async def test_solve_post_grid_answers_in_its_layout():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": NEWSPAPER})
        assert reply.status == 200
        assert reply.json == {"solution": NEWSPAPER_SOLUTION, "text": NEWSPAPER_ANSWER}


async def test_solve_get_query():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "GET", "/api/v1/solve?" + urllib.parse.urlencode({"puzzle": NEWSPAPER_LINE}))
        assert reply.status == 200
        assert reply.json == {"solution": NEWSPAPER_SOLUTION, "text": NEWSPAPER_SOLUTION + "\n"}


async def test_invalid_puzzle_is_400_with_the_line_protocols_words():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": DUPLICATE})
        assert reply.status == 400
        assert reply.json == {
            "error": {"code": "invalid", "message": "duplicate 7 in box 1 at r1c1 and r3c3", "line": 1}
        }
