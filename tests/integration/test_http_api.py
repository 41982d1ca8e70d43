"""The JSON API, version 1 (docs/HTTP.md): exact replies of every endpoint over a real HTTP connection."""

from __future__ import annotations

import urllib.parse

from tests.support.examples import NEWSPAPER, NEWSPAPER_ANSWER, NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.httptools import afetch, running_http_server
from tests.support.paths import REPO

#: A puzzle with many solutions (one given): COUNT 2+.
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


NEAR = ".." + NEWSPAPER_SOLUTION[2:]
UNSOLVABLE = "12345678." + "........9" + "." * 63


def full_house(cell: str, digit: int, unit: str, where: str) -> dict:
    return {
        "technique": "full house",
        "text": f"full house: {cell} is the last empty cell in {where} ({cell}={digit})",
        "se": 1.0,
        "focus": unit,
        "placements": [{"cell": cell, "digit": digit}],
        "eliminations": [],
        "cells": [cell],
    }


async def test_every_endpoint_exact():
    async with running_http_server() as (server, port):
        cases = [
            ("POST", "/api/v1/count", {"puzzle": TWO}, {"count": 2, "limit": 2, "at_least": True, "unique": False}),
            (
                "POST",
                "/api/v1/count",
                {"puzzle": NEWSPAPER_LINE},
                {"count": 1, "limit": 2, "at_least": False, "unique": True},
            ),
            (
                "GET",
                f"/api/v1/count?limit=1000&puzzle={TWO}",
                None,
                {"count": 1000, "limit": 1000, "at_least": True, "unique": False},
            ),
            (
                "POST",
                "/api/v1/count",
                {"puzzle": UNSOLVABLE, "limit": 5},
                {"count": 0, "limit": 5, "at_least": False, "unique": False},
            ),
            (
                "POST",
                "/api/v1/rate",
                {"puzzle": NEWSPAPER_LINE},
                {
                    "level": "extreme",
                    "se": 9.8,
                    "qqwing": "expert",
                    "hardest": "dynamic forcing chains plus",
                    "method": "techniques",
                    "rules": "classic",
                    "notes": [],
                    "hodoku": {"level": "extreme", "score": 64, "complete": False},
                },
            ),
            (
                "GET",
                f"/api/v1/hint?nudge&puzzle={NEWSPAPER_LINE}",
                None,
                {
                    "technique": "hidden single",
                    "text": "hidden single: look at box 9",
                    "se": 1.2,
                    "focus": "box 9",
                    "placements": [],
                    "eliminations": [],
                    "cells": [],
                },
            ),
            ("POST", "/api/v1/hint", {"puzzle": NEAR}, full_house("r1c1", 7, "column 1", "column 1")),
            (
                "POST",
                "/api/v1/hint",
                {"puzzle": NEWSPAPER_SOLUTION},
                {
                    "technique": None,
                    "text": "none: the grid is complete",
                    "se": None,
                    "focus": None,
                    "placements": [],
                    "eliminations": [],
                    "cells": [],
                },
            ),
            (
                "POST",
                "/api/v1/steps",
                {"puzzle": NEAR},
                {
                    "steps": [
                        full_house("r1c1", 7, "column 1", "column 1"),
                        full_house("r1c2", 9, "box 1", "box 1"),
                    ],
                    "level": "easy",
                    "se": 1.0,
                    "qqwing": "simple",
                    "hardest": "full house",
                    "method": "techniques",
                    "rules": "classic",
                    "notes": [],
                    "hodoku": None,
                },
            ),
            (
                "GET",
                "/api/v1/generate?size=4&seed=7",
                None,
                {
                    "puzzle": "1..3.....32.....",
                    "text": "+-----+-----+\n| 1 . | . 3 |\n| . . | . . |\n+-----+-----+\n"
                    "| . 3 | 2 . |\n| . . | . . |\n+-----+-----+\n",
                    "size": 4,
                    "seed": "7",
                    "givens": 4,
                    "symmetry": "none",
                    "minimal": True,
                    "full": False,
                    "level": None,
                    "se": None,
                    "rules": "classic",
                    "regions": None,
                    "cages": None,
                    "marks": None,
                },
            ),
            (
                "POST",
                "/api/v1/generate",
                {"full": True, "seed": 1, "size": 4},
                {
                    "puzzle": "2314413232411423",
                    "text": "+-----+-----+\n| 2 3 | 1 4 |\n| 4 1 | 3 2 |\n+-----+-----+\n"
                    "| 3 2 | 4 1 |\n| 1 4 | 2 3 |\n+-----+-----+\n",
                    "size": 4,
                    "seed": "1",
                    "givens": 16,
                    "symmetry": "none",
                    "minimal": False,
                    "full": True,
                    "level": None,
                    "se": None,
                    "rules": "classic",
                    "regions": None,
                    "cages": None,
                    "marks": None,
                },
            ),
            ("POST", "/api/v1/solve", {"puzzle": NEWSPAPER_LINE, "any": True}, None),
        ]
        for method, path, body, expected in cases:
            reply = await afetch(port, method, path, body)
            assert reply.status == 200, (path, reply.body)
            if expected is None:
                expected = {"solution": NEWSPAPER_SOLUTION, "text": NEWSPAPER_SOLUTION + "\n"}
            assert reply.json == expected, path


async def test_generate_with_a_level_rates_it():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/generate", {"level": "easy", "seed": 5})
        assert reply.status == 200
        made = reply.json
        assert (made["level"], made["se"], made["seed"], made["givens"]) == ("easy", 2.3, "6", 24)
        assert made["puzzle"] == ("7....2......9.46.8...713.9.9....6.1...1.......8.......62...7.3....6..8...7.4....2")
        count = await afetch(port, "POST", "/api/v1/count", {"puzzle": made["puzzle"]})
        assert count.json == {"count": 1, "limit": 2, "at_least": False, "unique": True}


async def test_batch_answers_in_order_with_errors_in_place():
    async with running_http_server() as (server, port):
        reply = await afetch(
            port, "POST", "/api/v1/solve", {"puzzles": [NEWSPAPER_LINE, DUPLICATE, "12", UNSOLVABLE, NEWSPAPER]}
        )
        assert reply.status == 200
        assert reply.json == {
            "results": [
                {"solution": NEWSPAPER_SOLUTION, "text": NEWSPAPER_SOLUTION + "\n"},
                {"error": {"code": "invalid", "message": "duplicate 7 in box 1 at r1c1 and r3c3", "line": 1}},
                {
                    "error": {
                        "code": "incomplete",
                        "message": "input ended inside the one-line puzzle at line 1 (2 of 81 cells)",
                        "line": 1,
                    }
                },
                {"error": {"code": "unsolvable", "message": "no digit fits r1c9", "line": 1}},
                {"solution": NEWSPAPER_SOLUTION, "text": NEWSPAPER_ANSWER},
            ]
        }


async def test_batch_limit_and_empty_batch():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/count", {"puzzles": [TWO] * 1001})
        assert (reply.status, reply.json) == (
            400,
            {
                "error": {
                    "code": "command",
                    "message": "COUNT: at most 1000 puzzles in one request, not 1001",
                    "line": None,
                }
            },
        )
        reply = await afetch(port, "POST", "/api/v1/count", {"puzzles": []})
        assert (reply.status, reply.json) == (200, {"results": []})


async def test_query_booleans_and_unknown_fields():
    async with running_http_server() as (server, port):
        for word in ("", "1", "true", "yes", "on", "TRUE"):
            reply = await afetch(port, "GET", f"/api/v1/hint?nudge={word}&puzzle={NEAR}")
            assert reply.json["text"] == "full house: look at column 1", word
        reply = await afetch(port, "GET", f"/api/v1/hint?nudge=off&puzzle={NEAR}")
        assert reply.json["placements"] == [{"cell": "r1c1", "digit": 7}]
        cases = [
            ("GET", f"/api/v1/hint?nudge=maybe&puzzle={NEAR}", None, 'HINT: nudge must be true or false, not "maybe"'),
            ("POST", "/api/v1/hint", {"puzzle": NEAR, "nudge": 1}, "HINT: nudge must be true or false, not 1"),
            (
                "POST",
                "/api/v1/count",
                {"puzzle": NEAR, "lmit": 3},
                'COUNT: unknown field "lmit"; the fields of /api/v1/count are limit, rules, puzzle, puzzles, fpuzzles',
            ),
            ("POST", "/api/v1/count", {"puzzle": NEAR, "limit": 0}, "COUNT: limit must be 1 to 1000, not 0"),
            ("POST", "/api/v1/count", {"puzzle": NEAR, "limit": 2.5}, "COUNT: limit must be 1 to 1000, not 2.5"),
            (  # a second break session's finding: it was 'unknown field "puzzles"', then a list that named it
                "GET",
                f"/api/v1/solve?puzzles={NEAR}",
                None,
                'SOLVE: "puzzles" (a batch) is POST only; a GET takes one "puzzle"',
            ),
            (
                "POST",
                "/api/v1/count",
                {"puzzle": NEAR, "limit": [2]},
                "COUNT: limit must be a number or a string, not [2]",
            ),
            (
                "GET",
                f"/api/v1/solve?puzzle={NEAR}&puzzle={NEAR}",
                None,
                'SOLVE: field "puzzle" given twice; the fields of /api/v1/solve are any, rules, format, puzzle, puzzles, fpuzzles',
            ),
            (  # an f-puzzles object with a puzzle: the fault is sending both (break-session finding)
                "POST",
                "/api/v1/solve",
                {"puzzle": "1", "fpuzzles": {"size": 4}},
                'SOLVE: fpuzzles must be sent instead of "puzzle", not with it',
            ),
            (
                "POST",
                "/api/v1/solve",
                {},
                'SOLVE: no puzzle: send {"puzzle": "<text>"}, {"puzzles": [...]} or {"fpuzzles": {...}}',
            ),
            ("POST", "/api/v1/solve", {"puzzle": 5}, "SOLVE: a puzzle must be a string of its text, not 5"),
            ("POST", "/api/v1/solve", {"puzzles": "x"}, "SOLVE: puzzles must be a list of puzzles (strings)"),
            ("POST", "/api/v1/generate", {"size": 10}, 'GENERATE: size must be 4, 6, 9, 16 or 25, not "10"'),
            (
                "POST",
                "/api/v1/generate",
                {"puzzle": NEAR},
                'GENERATE: unknown field "puzzle"; the fields of /api/v1/generate are full, size, symmetry, givens,'
                " seed, format, level, se, rules, regions",
            ),
            ("POST", "/api/v1/solve", b"[1]", "the body must be a JSON object, not an array"),
            ("POST", "/api/v1/solve", b"null", "the body must be a JSON object, not null"),
            ("POST", "/api/v1/solve", b'"x"', "the body must be a JSON object, not a string"),
            (
                "POST",
                "/api/v1/solve",
                b"{",
                "the body is not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
            ),
            (
                "POST",
                "/api/v1/solve",
                b"\xff",
                "the body is not JSON: byte 0xFF (byte 1 of the body) is not UTF-8",
            ),
            (  # s9-break finding 11: Python's codec words ("'utf-8' codec can't decode byte 0xff in position 12")
                "POST",
                "/api/v1/solve",
                b'{"puzzle": "\xff\xfe"}',
                "the body is not JSON: byte 0xFF (byte 13 of the body) is not UTF-8",
            ),
        ]
        for method, path, body, message in cases:
            reply = await afetch(port, method, path, body)
            assert (reply.status, reply.json) == (400, {"error": {"code": "command", "message": message, "line": None}})


async def test_format_errors_name_their_line():
    async with running_http_server() as (server, port):
        grid = NEWSPAPER.replace("| . . 9 | . . 1 | . . 5 |", "| . . 9 | . . 1 | . . |")
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": grid})
        assert reply.status == 400
        error = reply.json["error"]
        assert (error["code"], error["line"]) == ("format", 12)
        assert error["message"].startswith("line 12: ")


async def test_unknown_paths_and_methods_are_json_errors():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "GET", "/api/v1/solv")
        assert (reply.status, reply.json) == (
            404,
            {"error": {"code": "command", "message": "no endpoint /api/v1/solv", "line": None}},
        )
        reply = await afetch(port, "GET", "/nothing")
        assert (reply.status, reply.json) == (
            404,
            {"error": {"code": "command", "message": "no such path", "line": None}},
        )
        reply = await afetch(port, "DELETE", "/api/v1/solve")
        assert (reply.status, reply.json) == (
            405,
            {"error": {"code": "command", "message": "method DELETE not allowed", "line": None}},
        )


async def test_a_large_batch_inline_and_in_bulk_matches_the_solver():
    import sys

    sys.path.insert(0, str(REPO / "benchmarks"))
    import datasets

    from sudoku_server.sudoku import solver
    from sudoku_server.sudoku.grid import Grid

    puzzles = datasets.one_line_puzzles(datasets.find("magictour_top1465.txt"), 300)
    expected = [{"solution": solver.solve(Grid.from_string(p)).to_string(), "text": None} for p in puzzles]
    for want in expected:
        want["text"] = want["solution"] + "\n"
    for inline in (0.002, 0.0):  # the inline path first, then bulk jobs only
        async with running_http_server(inline_seconds=inline) as (server, port):
            reply = await afetch(port, "POST", "/api/v1/solve", {"puzzles": puzzles})
            assert reply.status == 200
            assert reply.json == {"results": expected}
            assert server.stats.puzzles == len(puzzles)
