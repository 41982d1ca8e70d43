"""The JSON API on a HoDoKu library line (issue 30): hint, steps, rate and parse take it as a classic solving state.

Exact replies over a real HTTP connection, each checked against the OpenAPI document (``afetch``); the line
protocol's replies are in tests/unit/test_solving_states.py.
"""

from __future__ import annotations

from tests.support.httptools import afetch, running_http_server
from tests.support.paths import REPO

REGLIB = (REPO / "puzzles" / "hodoku" / "reglib-1.4.txt").read_text("utf-8").splitlines()
# reglib-1.4 line 1027 (0607-1), its fields blanked: an avoidable rectangle type 1 on placed r1c1 and r2c1
_FIELDS = REGLIB[1026].split(":")
AR1 = ":::" + _FIELDS[3] + ":" + _FIELDS[4] + ":::"
AR1_STEP = {
    "technique": "avoidable rectangle type 1",
    "text": "avoidable rectangle type 1 on 9/7 in r1c1, r1c9, r2c1 and r2c9: remove 9 from r2c9",
    "se": 4.5,
    "focus": "box 1",
    "placements": [],
    "eliminations": [{"cell": "r2c9", "digit": 9}],
    "cells": ["r1c1", "r1c9", "r2c1", "r2c9"],
}


async def test_hint_steps_and_rate_start_from_the_state() -> None:
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/hint", {"puzzle": AR1})
        assert (reply.status, reply.json) == (200, AR1_STEP)
        reply = await afetch(port, "POST", "/api/v1/rate", {"puzzle": AR1})
        assert (reply.status, reply.json) == (
            200,
            {
                "level": "hard",
                "se": 4.5,
                "qqwing": None,
                "hardest": "avoidable rectangle type 1",
                "method": "techniques",
                "rules": "classic",
                "notes": [],
                "hodoku": {"level": "hard", "score": 204, "complete": True},
            },
        )
        reply = await afetch(port, "POST", "/api/v1/steps", {"puzzle": AR1})
        assert reply.status == 200
        assert len(reply.json["steps"]) == 27
        assert reply.json["steps"][0] == AR1_STEP
        assert {k: v for k, v in reply.json.items() if k != "steps"} == {
            "level": "hard",
            "se": 4.5,
            "qqwing": None,
            "hardest": "avoidable rectangle type 1",
            "method": "techniques",
            "rules": "classic",
            "notes": [],
            "hodoku": None,
        }


async def test_parse_gives_placed_cells_their_digit_and_names_them() -> None:
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/parse", {"puzzle": AR1})
    assert reply.status == 200
    body = reply.json
    assert body["givens"] == "9543..1.77615.42..238.714..41...36.862...89.189.1..7..3468195725892.731.172.3589."
    assert body["rules"] == "classic"
    # a filled cell (given or placed) has its digit as its candidate; an empty cell its state's candidates
    assert body["candidates"][:9] == ["9", "5", "4", "3", "268", "26", "1", "68", "7"]
    assert body["placed"] == [
        "r1c1", "r1c3", "r1c4", "r1c7", "r1c9", "r2c1", "r2c3", "r3c1", "r3c2", "r3c7", "r4c2",
        "r5c1", "r5c2", "r5c6", "r5c7", "r5c9", "r7c2", "r7c3", "r7c4", "r7c5", "r7c6", "r7c7",
        "r7c8", "r7c9", "r8c1", "r8c2", "r8c3", "r8c7", "r9c1", "r9c6", "r9c7",
    ]  # fmt: skip


async def test_a_cell_left_with_no_candidate_is_invalid_as_in_a_pencilmark_line() -> None:
    dead = AR1[:-3].rstrip(":") + " 215 615 815:::"  # r1c5 keeps 2, 6 and 8: deleted
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/hint", {"puzzle": dead})
    assert (reply.status, reply.json) == (
        400,
        {"error": {"code": "invalid", "message": "r1c5 has no candidate", "line": 1}},
    )
