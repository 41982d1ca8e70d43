"""``GET /api/v1/rules``: the registry as JSON (sudoku_server/wire/rules_json.py), exact, and over HTTP."""

from __future__ import annotations

from sudoku_server.wire.rules_json import rules_document
from tests.support.httptools import afetch, running_http_server

_ALL = [4, 6, 9, 16, 25]
_WINDOWS = [
    ["r2c2", "r2c3", "r2c4", "r3c2", "r3c3", "r3c4", "r4c2", "r4c3", "r4c4"],
    ["r2c6", "r2c7", "r2c8", "r3c6", "r3c7", "r3c8", "r4c6", "r4c7", "r4c8"],
    ["r6c2", "r6c3", "r6c4", "r7c2", "r7c3", "r7c4", "r8c2", "r8c3", "r8c4"],
    ["r6c6", "r6c7", "r6c8", "r7c6", "r7c7", "r7c8", "r8c6", "r8c7", "r8c8"],
]

EXPECTED = {
    "rules": [
        {
            "word": "x",
            "summary": "both main diagonals hold every digit once",
            "data": "none",
            "sizes": _ALL,
            "draw": {"kind": "diagonals"},
            "formats": {"f-puzzles": ["diagonal+", "diagonal-"]},
        },
        {
            "word": "windoku",
            "summary": "four extra 3x3 windows hold every digit once",
            "data": "none",
            "sizes": [9],
            "draw": {"kind": "windows", "windows": _WINDOWS},
            "formats": {},
        },
        {
            "word": "antiknight",
            "summary": "cells a chess knight's move apart hold different digits",
            "data": "none",
            "sizes": _ALL,
            "draw": {"kind": "none"},
            "formats": {"f-puzzles": ["antiknight"]},
        },
        {
            "word": "antiking",
            "summary": "diagonally adjacent cells hold different digits",
            "data": "none",
            "sizes": _ALL,
            "draw": {"kind": "none"},
            "formats": {"f-puzzles": ["antiking"]},
        },
        {
            "word": "nonconsecutive",
            "summary": "orthogonally adjacent cells never hold consecutive digits",
            "data": "none",
            "sizes": _ALL,
            "draw": {"kind": "none"},
            "formats": {"f-puzzles": ["nonconsecutive"]},
        },
        {
            "word": "jigsaw",
            "summary": "irregular regions of connected cells replace the boxes",
            "data": "regions",
            "sizes": _ALL,
            "draw": {"kind": "regions"},
            "formats": {"f-puzzles": ["region"]},
        },
        {
            "word": "killer",
            "summary": "cages whose digits do not repeat and sum to the cage's total",
            "data": "cages",
            "sizes": _ALL,
            "draw": {"kind": "cages", "sums": True},
            "formats": {"f-puzzles": ["killercage"]},
        },
        {
            "word": "disjoint",
            "summary": "cells in the same position of every box hold different digits",
            "data": "none",
            "sizes": _ALL,
            "draw": {"kind": "groups"},
            "formats": {"f-puzzles": ["disjointgroups"]},
        },
        {
            "word": "oddeven",
            "summary": "a cell marked odd holds an odd digit, a cell marked even an even one",
            "data": "marks",
            "sizes": _ALL,
            "draw": {"kind": "marks"},
            "formats": {"f-puzzles": ["odd", "even"]},
        },
        {
            "word": "thermo",
            "summary": "along a thermometer the digits strictly increase from the bulb",
            "data": "marks",
            "sizes": _ALL,
            "draw": {"kind": "lines", "shape": "thermometer"},
            "formats": {"f-puzzles": ["thermometer"]},
        },
        {
            "word": "kropki",
            "summary": "a white dot joins digits that differ by 1, a black dot digits one twice the other",
            "data": "marks",
            "sizes": _ALL,
            "draw": {"kind": "dots"},
            "formats": {"f-puzzles": ["difference", "ratio"]},
        },
        {
            "word": "xv",
            "summary": "neighbours joined by an X sum to 10, by a V to 5",
            "data": "marks",
            "sizes": _ALL,
            "draw": {"kind": "xv"},
            "formats": {"f-puzzles": ["xv"]},
        },
        {
            "word": "whispers",
            "summary": "neighbours along a German whispers line differ by at least 5 (on 9x9; size // 2 + 1)",
            "data": "marks",
            "sizes": _ALL,
            "draw": {"kind": "lines", "shape": "whispers"},
            "formats": {"f-puzzles": ["whispers"]},
        },
        {
            "word": "palindrome",
            "summary": "a palindrome line reads the same from both ends",
            "data": "marks",
            "sizes": _ALL,
            "draw": {"kind": "lines", "shape": "palindrome"},
            "formats": {"f-puzzles": ["palindrome"]},
        },
        {
            "word": "renban",
            "summary": "a renban line's digits are distinct and consecutive, in any order",
            "data": "marks",
            "sizes": _ALL,
            "draw": {"kind": "lines", "shape": "renban"},
            "formats": {"f-puzzles": ["renban"]},
        },
        {
            "word": "arrow",
            "summary": "the digits along an arrow sum to the number in its bulb",
            "data": "marks",
            "sizes": _ALL,
            "draw": {"kind": "arrows"},
            "formats": {"f-puzzles": ["arrow"]},
        },
        {
            "word": "littlekiller",
            "summary": "the digits along a little killer diagonal sum to its clue; digits may repeat",
            "data": "marks",
            "sizes": _ALL,
            "draw": {"kind": "diagonal sums"},
            "formats": {"f-puzzles": ["littlekillersum"]},
        },
        {
            "word": "sandwich",
            "summary": (
                "the digits between the 1 and the 9 of a row or column sum to its clue (lowest and highest digit)"
            ),
            "data": "marks",
            "sizes": _ALL,
            "draw": {"kind": "outside sums"},
            "formats": {"f-puzzles": ["sandwichsum"]},
        },
    ]
}


def test_the_rules_document_is_exact():
    assert rules_document() == EXPECTED


async def test_get_api_v1_rules_answers_the_document():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "GET", "/api/v1/rules")
        head = await afetch(port, "HEAD", "/api/v1/rules")
        post = await afetch(port, "POST", "/api/v1/rules", {})
    assert reply.status == 200 and reply.headers["content-type"] == "application/json"
    assert reply.json == EXPECTED
    assert head.status == 200 and head.body == b""
    assert post.status == 405 and post.headers["allow"] == "GET, HEAD"
