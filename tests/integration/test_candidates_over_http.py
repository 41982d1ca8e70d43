"""CANDIDATES over HTTP (issue 29): ``POST /api/v1/candidates``, exact JSON from a real in-process server."""

from __future__ import annotations

from tests.support.httptools import afetch, running_http_server

UNIQUE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
#: The solution with r1c1 and r1c2, r2c1 and r2c2 open: 4 1 / 6 3 cannot swap (their columns hold the others).
OPEN = "..7369825..2158947" + SOLUTION[18:]


async def test_the_candidates_route_answers_every_cells_digits_and_the_pencilmark_line():
    async with running_http_server() as (_server, port):
        reply = await afetch(port, "POST", "/api/v1/candidates", {"puzzle": UNIQUE})
        assert reply.status == 200
        assert reply.json["candidates"] == list(SOLUTION)
        assert reply.json["pencilmarks"] == "".join("." * (int(d) - 1) + d + "." * (9 - int(d)) for d in SOLUTION)
        reply = await afetch(port, "POST", "/api/v1/candidates", {"puzzle": OPEN})
        assert reply.json["candidates"] == ["4", "1", *SOLUTION[2:9], "6", "3", *SOLUTION[11:]]
        reply = await afetch(port, "POST", "/api/v1/candidates", {"puzzle": "11" + "." * 79})
        assert (reply.status, reply.json["error"]["code"]) == (400, "invalid")
