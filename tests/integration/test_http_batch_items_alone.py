"""A batch's items are answered each on its own: an item that is no string gets its own error, in its place."""

from __future__ import annotations

from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.httptools import afetch, running_http_server


def command(message: str) -> dict:
    return {"error": {"code": "command", "message": message, "line": None}}


async def test_a_non_string_item_of_a_batch_is_answered_in_its_place():
    async with running_http_server() as (server, port):
        body = {"puzzles": [NEWSPAPER_LINE, 5, None, NEWSPAPER_LINE, ["x"]]}
        reply = await afetch(port, "POST", "/api/v1/solve", body)
        solved = {"solution": NEWSPAPER_SOLUTION, "text": NEWSPAPER_SOLUTION + "\n"}
        assert (reply.status, reply.headers["content-type"], reply.json) == (
            200,
            "application/json",
            {
                "results": [
                    solved,
                    command("SOLVE: puzzles[1] must be a string of its text, not 5"),
                    command("SOLVE: puzzles[2] must be a string of its text, not null"),
                    solved,
                    command('SOLVE: puzzles[4] must be a string of its text, not ["x"]'),
                ]
            },
        )


async def test_a_non_string_first_item_of_a_count_batch_is_answered_in_its_place():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/count", {"puzzles": [{"a": 1}, NEWSPAPER_LINE]})
        assert (reply.status, reply.json) == (
            200,
            {
                "results": [
                    command('COUNT: puzzles[0] must be a string of its text, not {"a": 1}'),
                    {"count": 1, "limit": 2, "at_least": False, "unique": True},
                ]
            },
        )


async def test_a_single_puzzle_that_is_no_string_is_still_the_whole_request_s_400():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": 5})
        assert (reply.status, reply.json) == (400, command("SOLVE: a puzzle must be a string of its text, not 5"))
