"""HTTP requests as people and browsers write them: big seeds, captions, lines beside the puzzle, HEAD and other
methods, ``+`` and ``%FF`` in the query. Exact replies.

- f05: a seed above 2**53 comes back as a string of digits (a browser's JSON numbers are doubles) and makes the
  same puzzle again, over HTTP and as the line protocol's ``GENERATE seed=``.
- f08: an error about a line beside the puzzle names that line (never ``line ?``); a caption above the puzzle is
  skipped, as the line protocol skips it.
- f13: ``HEAD`` on an endpoint is its ``GET`` without the body; other methods get ``405`` with ``Allow``.
- f15: ``?rules=x+antiknight`` means ``x+antiknight``; a ``%FF`` byte is reported as ``byte 0xFF``.
"""

from __future__ import annotations

import json

import trio
import trio.testing

from sudoku_server.text import parse
from tests.support.httptools import afetch, fetch, running_http_server

PUZZLE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
SOLVED = {"solution": SOLUTION, "text": SOLUTION + "\n"}
BIG_SEED = "15299291225202835323"  # above 2**53: a double holds 15299291225202835456
BIG_SEED_PUZZLE = "563.....8.....4...........5.5..8...7..2....6..8.1..5.3....93.2.....6......6.529.."


async def _line_exchange(server, data: bytes, lines: int) -> list[bytes]:
    """``lines`` reply lines of the line port to ``data``."""
    stream = await trio.testing.open_stream_to_socket_listener(server.listeners[0])
    async with stream:
        await stream.send_all(data)
        buffer = b""
        with trio.fail_after(20):
            while buffer.count(b"\n") < lines:
                chunk = await stream.receive_some()
                assert chunk, buffer
                buffer += chunk
    return buffer.split(b"\n")[:lines]


# -- f05 ------------------------------------------------------------------------------------------------


async def test_a_big_seed_round_trips_as_a_string_and_makes_the_line_protocols_puzzle():
    assert float(BIG_SEED) != int(BIG_SEED)  # the case: a double cannot hold it
    async with running_http_server() as (server, port):
        made = await afetch(port, "POST", "/api/v1/generate", {"seed": BIG_SEED})
        assert made.status == 200
        reply = made.json
        assert reply["seed"] == BIG_SEED and reply["puzzle"] == BIG_SEED_PUZZLE
        assert b'"seed":"15299291225202835323"' in made.body  # a JSON string, not a number
        # The seed as a browser reads it back (a string, kept exact), as an integer, and in a query string.
        again = await afetch(port, "POST", "/api/v1/generate", {"seed": json.loads(made.body)["seed"]})
        assert (again.json["seed"], again.json["puzzle"]) == (BIG_SEED, BIG_SEED_PUZZLE)
        as_int = await afetch(port, "POST", "/api/v1/generate", {"seed": int(BIG_SEED)})
        assert (as_int.json["seed"], as_int.json["puzzle"]) == (BIG_SEED, BIG_SEED_PUZZLE)
        query = await afetch(port, "GET", f"/api/v1/generate?seed={BIG_SEED}")
        assert (query.json["seed"], query.json["puzzle"]) == (BIG_SEED, BIG_SEED_PUZZLE)
        line = await _line_exchange(server, f"GENERATE seed={BIG_SEED}\n".encode(), 2)
        assert line == [
            b"# generated size=9 givens=23 symmetry=none seed=15299291225202835323 minimal=yes",
            BIG_SEED_PUZZLE.encode(),
        ]


async def test_every_seed_is_a_string_of_digits_in_the_document():
    async with running_http_server() as (server, port):
        document = (await afetch(port, "GET", "/api/v1/openapi.json")).json
        seed = document["components"]["schemas"]["GenerateReply"]["properties"]["seed"]
        assert (seed["type"], seed["pattern"]) == ("string", "^[0-9]+$")
        drawn = await afetch(port, "GET", "/api/v1/generate?size=4")
        assert isinstance(drawn.json["seed"], str) and drawn.json["seed"].isdigit()


def test_the_page_sends_the_seed_as_typed():
    from tests.support.paths import REPO

    script = (REPO / "sudoku_server" / "web" / "static" / "app.js").read_text(encoding="utf-8")
    assert "if (seed) request.seed = seed;" in script
    assert "Number(seed)" not in script


# -- f08 ------------------------------------------------------------------------------------------------


async def test_a_line_beside_the_puzzle_is_named():
    async with running_http_server() as (server, port):
        prose = await afetch(port, "POST", "/api/v1/solve", {"puzzle": PUZZLE + "\nhello"})
        assert (prose.status, prose.json) == (
            400,
            {
                "error": {
                    "code": "format",
                    "message": "line 2, column 1: 'h' is not a digit 1-9 or an empty mark (. 0 _)",
                    "line": 2,
                }
            },
        )
        two = await afetch(port, "POST", "/api/v1/solve", {"puzzle": PUZZLE + "\n" + PUZZLE})
        assert (two.status, two.json) == (
            400,
            {"error": {"code": "format", "message": "line 2: more than one puzzle", "line": 2}},
        )
        assert b"line ?" not in prose.body + two.body


async def test_a_captioned_paste_is_read_as_the_line_protocol_reads_it():
    captioned = "Solve this one please:\n" + PUZZLE + "\n"
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": captioned})
        assert (reply.status, reply.json) == (200, SOLVED)
        assert await _line_exchange(server, captioned.encode(), 1) == [SOLUTION.encode()]
        crlf = await afetch(port, "POST", "/api/v1/count", {"puzzle": captioned.replace("\n", "\r\n")})
        assert crlf.json == {"count": 1, "limit": 2, "at_least": False, "unique": True}
        # Not directly above the puzzle: not a caption, its own error (as on the line port).
        apart = await afetch(port, "POST", "/api/v1/solve", {"puzzle": "Solve this one please:\n\n" + PUZZLE})
        assert (apart.status, apart.json["error"]["line"]) == (400, 1)
        assert apart.json["error"]["message"].startswith("line 1, column 1: 'S' is not a digit")


def test_parse_skips_a_caption_above_a_bordered_grid():
    grid = parse(PUZZLE).grid
    from sudoku_server.text import bordered_lines

    text = "Today's puzzle, hard:\n" + "\n".join(bordered_lines(grid)) + "\n"
    puzzle = parse(text)
    assert (puzzle.first_line, puzzle.grid.cells) == (2, grid.cells)


# -- f13 ------------------------------------------------------------------------------------------------


async def test_head_is_get_without_the_body():
    async with running_http_server() as (server, port):
        for path in (f"/api/v1/solve?puzzle={PUZZLE}", f"/api/v1/count?puzzle={PUZZLE}", "/api/v1/generate?size=4"):
            get = await afetch(port, "GET", path)
            origin = {"Origin": "https://a.example"}  # CORS headers answer a request that names its origin
            head = await trio.to_thread.run_sync(lambda: fetch(port, "HEAD", path, headers=origin))
            assert (head.status, head.body) == (200, b""), path
            assert head.headers["content-type"] == "application/json"
            assert head.headers["access-control-allow-origin"] == "*"
            if "generate" not in path:  # a drawn seed may differ in length
                assert head.headers["content-length"] == get.headers["content-length"] == str(len(get.body))
        bad = await trio.to_thread.run_sync(lambda: fetch(port, "HEAD", "/api/v1/solve?puzzle=77"))
        bad_get = await afetch(port, "GET", "/api/v1/solve?puzzle=77")
        assert (bad.status, bad.body, bad.headers["content-length"]) == (400, b"", str(len(bad_get.body)))
        missing = await trio.to_thread.run_sync(lambda: fetch(port, "HEAD", "/api/v1/nosuch"))
        assert missing.status == 404


async def test_other_methods_get_405_with_allow():
    async with running_http_server() as (server, port):
        reply = await trio.to_thread.run_sync(lambda: fetch(port, "PATCH", "/api/v1/solve"))
        assert (reply.status, reply.headers["allow"], reply.json) == (
            405,
            "GET, HEAD, POST",
            {"error": {"code": "command", "message": "method PATCH not allowed", "line": None}},
        )
        document = (await afetch(port, "GET", "/api/v1/openapi.json")).json
        path = document["paths"]["/api/v1/solve"]  # the methods it takes, and those refused with their 405 only
        assert {method: set(path[method]["responses"]) == {"405"} for method in path} == {
            "get": False,
            "head": False,
            "post": False,
            "put": True,
            "patch": True,
            "delete": True,
        }


# -- f15 ------------------------------------------------------------------------------------------------


async def test_a_blank_in_rules_is_a_plus():
    async with running_http_server() as (server, port):
        for spelled in ("x+antiknight", "x%2Bantiknight", "x%20antiknight"):
            reply = await afetch(port, "GET", f"/api/v1/count?rules={spelled}&puzzle=1...............")
            assert (reply.status, reply.json) == (200, {"count": 0, "limit": 2, "at_least": False, "unique": False}), (
                spelled
            )
        plain_x = await afetch(port, "GET", "/api/v1/count?rules=x&puzzle=1...............")
        assert plain_x.json == {
            "count": 2,
            "limit": 2,
            "at_least": True,
            "unique": False,
        }  # the antiknight rule was applied above
        solved = await afetch(port, "GET", "/api/v1/solve?rules=x+antiknight&puzzle=1...............")
        assert (solved.status, solved.json) == (
            422,
            {"error": {"code": "unsolvable", "message": "no place for 1 in diagonal 2", "line": 1}},
        )


async def test_a_byte_that_is_not_utf8_is_named_as_a_byte():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "GET", "/api/v1/solve?puzzle=%FF" + PUZZLE[1:])
        assert (reply.status, reply.json) == (
            400,
            {
                "error": {
                    "code": "format",
                    "message": "line 1, column 1: byte 0xFF is not a digit 1-9 or an empty mark (. 0 _) at r1c1",
                    "line": 1,
                }
            },
        )
        assert "\ufffd" not in reply.body.decode("utf-8")
        utf8 = await afetch(port, "GET", "/api/v1/solve?puzzle=%C3%A9" + PUZZLE[1:])
        assert utf8.json["error"]["message"] == (
            "line 1, column 1: U+00E9 is not a digit 1-9 or an empty mark (. 0 _) at r1c1"
        )


# -- f04 (checked on the merged tree: the plain one-line 9x9 fast path takes classic requests only) -------------


async def test_a_plain_line_with_rules_never_gets_a_classic_answer():
    cases = [
        (
            "GET",
            "/api/v1/solve?rules=x&puzzle=.2.4..7.......91.3..............5.9.............81.6...4.6..2..8........6.5......",
            None,
            "123456789456789123789123456214365897368972514597814632941638275832547961675291348",
        ),
        (
            "POST",
            "/api/v1/solve",
            {
                "rules": "windoku",
                "puzzle": "...4....9....8.1.3........6.....7....1...5....9.31.....4.6..9.5.........8.5......",
            },
            "123456789456789123789123456534297861217865394698314572342678915971542638865931247",
        ),
        (
            "GET",
            "/api/v1/solve?rules=nonconsecutive&puzzle=.3......87......1..6....3....49..8......2......7..8....7...64......92753..97..18.",
            None,
            "135247968792683514468159372624971835381524697957368241573816429816492753249735186",
        ),
    ]
    async with running_http_server() as (server, port):
        for method, path, body, answer in cases:
            reply = await afetch(port, method, path, body)
            assert (reply.status, reply.json) == (200, {"solution": answer, "text": answer + "\n"}), path


async def test_post_to_the_openapi_document_is_405_with_allow():
    """Second fresh eyes: POST /api/v1/openapi.json was 404 "no endpoint"; it is a path with GET and HEAD."""
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/openapi.json", {"puzzle": "."})
        assert reply.status == 405
        assert reply.headers["allow"] == "GET, HEAD"
        assert reply.json == {"error": {"code": "command", "message": "method POST not allowed", "line": None}}


async def test_a_trailing_slash_is_no_path_not_a_redirect():
    """Second fresh eyes: /api/v1/solve/ got Starlette's 307 redirect, which neither HTTP.md nor OpenAPI names."""
    async with running_http_server() as (server, port):
        reply = await afetch(port, "GET", "/api/v1/solve/?puzzle=1")
        assert reply.status == 404
        assert reply.json == {"error": {"code": "command", "message": "no such path", "line": None}}


async def test_rate_under_rules_names_them_as_the_line_does():
    """Second fresh eyes: the JSON rating had no ``rules`` (the line's ``rules=x``) nor the notes STEPS prints."""
    from tests.support.variant_examples import X

    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/rate", {"puzzle": X, "rules": "x"})
        assert reply.status == 200
        assert reply.json["rules"] == "x"
        steps = await afetch(port, "POST", "/api/v1/steps", {"puzzle": X, "rules": "x"})
        assert steps.json["notes"] == reply.json["notes"] != []
        line = steps.json["notes"][0]
        assert line.startswith("BUG: off")
