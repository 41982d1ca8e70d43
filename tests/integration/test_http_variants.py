"""Issue 19 on the JSON API (issue 21): the ``rules`` field and the variant layouts, exact replies and errors.

The same puzzles and words as the line protocol's tests (tests/unit/test_variant_wire.py); every reply is also
checked against the OpenAPI document (``afetch``).
"""

from __future__ import annotations

import urllib.parse

import pytest

from sudoku_server.service.requests import Generate
from sudoku_server.wire.json_api import ENDPOINTS, read_fields
from tests.support.httptools import afetch, running_http_server
from tests.support.sessions import replies
from tests.support.variant_examples import (
    ALL_RULES,
    ANTIKING,
    ANTIKNIGHT,
    ANTIKNIGHT_ANSWER,
    CAGE_BLOCK,
    CODINGAME,
    INKALA,
    INKALA_ANSWER,
    INKALA_PENCILMARKS,
    JIGSAW_ANSWER,
    JIGSAW_GIVENS,
    JIGSAW_GRID,
    JIGSAW_REGIONS,
    KILLER_ANSWER,
    SUDOCUE,
    WINDOKU,
    WINDOKU_ANSWER,
    X_ANSWER,
    X,
    rows,
)

KNIGHT = ".." + "3" + "." * 10 + "3" + "." * 67
#: The X puzzle's answer with a cell of each diagonal and a few others empty: quick to rate.
X_NEAR = "".join("." if k in (2, 12, 22, 32, 40, 48, 58, 68, 78, 5, 15) else c for k, c in enumerate(X_ANSWER))
DIAGONAL = "3" + "." * 39 + "3" + "." * 40


def solved(line: str, text: str | None = None) -> dict:
    return {"solution": line, "text": text if text is not None else line + "\n"}


#: (endpoint, body, reply): each rule and each variant layout, answered in the givens' layout.
CASES = [
    ("solve", {"puzzle": X, "rules": "x"}, solved(X_ANSWER)),
    ("solve", {"puzzle": rows(X), "rules": "X"}, solved(X_ANSWER, rows(X_ANSWER) + "\n")),
    ("solve", {"puzzle": WINDOKU, "rules": "windoku"}, solved(WINDOKU_ANSWER)),
    ("solve", {"puzzle": ANTIKNIGHT, "rules": "antiknight"}, solved(ANTIKNIGHT_ANSWER)),
    ("count", {"puzzle": ANTIKING, "rules": "antiking"}, {"count": 1, "limit": 2, "at_least": False, "unique": True}),
    ("solve", {"puzzle": JIGSAW_GIVENS + JIGSAW_REGIONS}, solved(JIGSAW_ANSWER)),
    ("solve", {"puzzle": ".......2...3.321aabbaacbcbddccdd"}, solved("1234341221434321")),
    ("solve", {"puzzle": JIGSAW_GRID + "\n", "rules": "jigsaw"}, solved(JIGSAW_ANSWER, rows(JIGSAW_ANSWER) + "\n")),
    ("solve", {"puzzle": SUDOCUE}, solved(KILLER_ANSWER)),
    ("count", {"puzzle": SUDOCUE}, {"count": 1, "limit": 2, "at_least": False, "unique": True}),
    ("solve", {"puzzle": CAGE_BLOCK, "rules": "killer"}, solved(KILLER_ANSWER, rows(KILLER_ANSWER) + "\n")),
    ("count", {"puzzle": CAGE_BLOCK, "rules": "killer"}, {"count": 1, "limit": 2, "at_least": False, "unique": True}),
    ("solve", {"puzzle": CODINGAME}, solved(KILLER_ANSWER, rows(KILLER_ANSWER) + "\n")),
    ("solve", {"puzzle": INKALA_PENCILMARKS}, solved(INKALA_ANSWER)),
    ("count", {"puzzle": INKALA_PENCILMARKS}, {"count": 1, "limit": 2, "at_least": False, "unique": True}),
    ("solve", {"puzzle": INKALA, "rules": "classic"}, solved(INKALA_ANSWER)),
    # a killer-X SudoCue line under x: its own cages and the diagonals have no solution together
    (
        "solve",
        {"puzzle": SUDOCUE.replace("3x3::k:", "3x3:d:k:", 1)},
        {"error": {"code": "unsolvable", "message": "no solution exists", "line": 1}},
    ),
]


async def test_each_rule_and_layout_answers_in_the_givens_layout():
    async with running_http_server() as (server, port):
        for name, body, expected in CASES:
            reply = await afetch(port, "POST", f"/api/v1/{name}", body)
            assert (reply.status, reply.json) == (200 if "error" not in expected else 422, expected), body


async def test_rules_in_a_query_string_and_the_batch_form():
    async with running_http_server() as (server, port):
        query = urllib.parse.urlencode({"puzzle": X, "rules": "x"})
        reply = await afetch(port, "GET", f"/api/v1/solve?{query}")
        assert (reply.status, reply.json) == (200, solved(X_ANSWER))
        # the plain one-line X puzzle never takes the classic fast path: under classic rules it has other answers
        reply = await afetch(port, "POST", "/api/v1/count", {"puzzle": X})
        assert reply.json == {"count": 2, "limit": 2, "at_least": True, "unique": False}
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzles": [X, DIAGONAL, X], "rules": "x"})
        invalid = {"error": {"code": "invalid", "message": "duplicate 3 in diagonal 1 at r1c1 and r5c5", "line": 1}}
        assert (reply.status, reply.json) == (200, {"results": [solved(X_ANSWER), invalid, solved(X_ANSWER)]})


def error(code: str, message: str, line: int | None) -> dict:
    return {"error": {"code": code, "message": message, "line": line}}


#: (endpoint, body, status, reply): each variant error, in the line protocol's words.
ERRORS = [
    (
        "solve",
        {"puzzle": X, "rules": "x+foo"},
        400,
        error("command", f"SOLVE: rules: unknown rule 'foo' (rules are {ALL_RULES})", None),
    ),
    ("count", {"puzzle": X, "rules": "x+X"}, 400, error("command", "COUNT: rules: x is named twice", None)),
    (
        "rate",
        {"puzzle": X, "rules": "knights"},
        400,
        error("command", f"RATE: rules: unknown rule 'knights' (rules are {ALL_RULES})", None),
    ),
    (
        "hint",
        {"puzzle": X, "rules": ""},
        400,
        error("command", f"HINT: rules: no rule named (rules are {ALL_RULES})", None),
    ),
    (
        "steps",
        {"puzzle": X, "rules": 7},
        400,
        error("command", f"STEPS: rules: unknown rule '7' (rules are {ALL_RULES})", None),
    ),
    (
        "solve",
        {"puzzle": KNIGHT, "rules": "antiknight"},
        400,
        error("invalid", "3 at r1c3 and r2c5 are a knight's move apart", 1),
    ),
    (
        "solve",
        {"puzzle": DIAGONAL, "rules": "x"},
        400,
        error("invalid", "duplicate 3 in diagonal 1 at r1c1 and r5c5", 1),
    ),
    (
        "solve",
        {"puzzle": "." * 256, "rules": "windoku"},
        400,
        error("command", "line 1: rules: windoku needs a 9x9 grid, not 16x16", 1),
    ),
    (
        "count",
        {"puzzle": X, "rules": "jigsaw"},
        400,
        error(
            "format",
            "line 1: a jigsaw puzzle needs its regions: a line of givens then region symbols,"
            " or a grid of region symbols after the grid",
            1,
        ),
    ),
    (
        "solve",
        {"puzzle": "\n" + X, "rules": "killer"},
        400,
        error("format", "line 2: a killer puzzle needs its cages: a SudoCue line or a cage block", 2),
    ),
    (
        "solve",
        {"puzzle": f"{JIGSAW_GIVENS}b{JIGSAW_REGIONS[1:]}"},
        400,
        error("format", "region b has 10 cells, not 9", 1),
    ),
    (
        "solve",
        {"puzzle": CAGE_BLOCK.replace("a=13", "a=18"), "rules": "killer"},
        400,
        error("invalid", "cage a has 2 cells and sum 18: no 2 distinct digits of 1-9 make it", 1),
    ),
    ("solve", {"puzzle": "." * 9 + INKALA_PENCILMARKS[9:]}, 400, error("invalid", "r1c1 has no candidate", 1)),
    (
        "canon",
        {"puzzle": JIGSAW_GIVENS + JIGSAW_REGIONS},
        400,
        error("command", "CANON: classic rules only, not jigsaw", 1),
    ),
    (
        "generate",
        {"size": 16, "rules": "windoku"},
        400,
        error("command", "GENERATE: rules: windoku needs a 9x9 grid, not 16x16", None),
    ),
    (
        "generate",
        {"regions": "abc"},
        400,
        error("command", "GENERATE: regions must be 81 region symbols for size=9, not 3", None),
    ),
]


@pytest.mark.parametrize("method", ["POST", "GET"])
async def test_each_variant_error(method):
    async with running_http_server() as (server, port):
        for name, body, status, expected in ERRORS:
            if method == "GET":
                query = urllib.parse.urlencode({key: str(value) for key, value in body.items()})
                reply = await afetch(port, "GET", f"/api/v1/{name}?{query}")
            else:
                reply = await afetch(port, "POST", f"/api/v1/{name}", body)
            assert (reply.status, reply.json) == (status, expected), (name, body)


@pytest.mark.parametrize("name", ["solve", "count", "rate", "hint", "steps"])
def test_rules_reach_each_puzzle_verbs_request(name):
    """The field goes into the request's variant as ``rules=`` does on the line (RATE, HINT and STEPS then answer
    under it as the line protocol does)."""
    call = read_fields(ENDPOINTS[name], {"puzzle": X, "rules": "antiknight+x"})
    (item,) = call.items
    assert item.request is not None and item.request.variant.rules == ("x", "antiknight")
    call = read_fields(ENDPOINTS[name], {"puzzles": [JIGSAW_GIVENS + JIGSAW_REGIONS], "rules": "x"})
    (item,) = call.items
    assert item.request is not None and item.request.variant.rules == ("x", "jigsaw")
    assert item.request.variant.region_symbols == tuple("abcdefhgi")


def test_generate_rules_and_regions_reach_its_request_as_on_the_line():
    (item,) = read_fields(ENDPOINTS["generate"], {"rules": "windoku", "regions": JIGSAW_REGIONS, "seed": 1}).items
    assert item.request == Generate.validate((), {"rules": "windoku", "regions": JIGSAW_REGIONS, "seed": "1"})
    assert item.request.variant.rules == ("windoku", "jigsaw")


async def test_generate_with_rules_makes_unique_puzzles_that_read_back():
    """x, jigsaw and a pure killer: each made puzzle is unique under its rules when its ``text`` is sent back."""
    async with running_http_server() as (server, port):
        made = await afetch(port, "POST", "/api/v1/generate", {"rules": "x", "seed": 1})
        assert made.status == 200
        assert (made.json["rules"], made.json["regions"], made.json["cages"]) == ("x", None, None)
        count = await afetch(port, "POST", "/api/v1/count", {"puzzle": made.json["puzzle"], "rules": "x"})
        assert count.json == {"count": 1, "limit": 2, "at_least": False, "unique": True}
        line = replies(b"GENERATE rules=x seed=1\n").decode().splitlines()
        assert line[1] == made.json["puzzle"]

        made = await afetch(port, "GET", "/api/v1/generate?rules=jigsaw&seed=3")
        reply = made.json
        assert reply["rules"] == "jigsaw" and reply["cages"] is None
        assert reply["text"] == reply["puzzle"] + reply["regions"] + "\n"
        assert reply["text"] == replies(b"GENERATE rules=jigsaw seed=3\n").decode().split("\n", 1)[1]
        count = await afetch(port, "POST", "/api/v1/count", {"puzzle": reply["text"]})
        assert count.json == {"count": 1, "limit": 2, "at_least": False, "unique": True}
        # its regions go back in as the regions field: the same puzzle
        again = await afetch(port, "POST", "/api/v1/generate", {"regions": reply["regions"], "seed": 3})
        assert (again.json["puzzle"], again.json["regions"]) == (reply["puzzle"], reply["regions"])

        made = await afetch(port, "POST", "/api/v1/generate", {"rules": "killer", "seed": 1})
        reply = made.json
        assert reply["rules"] == "killer" and reply["regions"] is None and reply["givens"] == 0
        assert reply["text"] == replies(b"GENERATE rules=killer seed=1\n").decode().split("\n", 1)[1]
        cells = sorted(cell for cage in reply["cages"] for cell in cage["cells"])
        assert len(cells) == len(set(cells))  # cages do not overlap
        first = reply["cages"][0]
        assert (first["symbol"], reply["text"][0]) == ("a", "a") and "r1c1" in first["cells"]
        assert f"a={first['sum']} " in reply["text"]
        count = await afetch(port, "POST", "/api/v1/count", {"puzzle": reply["text"], "rules": "killer"})
        assert count.json == {"count": 1, "limit": 2, "at_least": False, "unique": True}

        # a marks rule: its marks as parse gives them, and the text (the line with its marks) reads back
        made = await afetch(port, "POST", "/api/v1/generate", {"rules": "kropki", "seed": 2})
        reply = made.json
        line = replies(b"GENERATE rules=kropki seed=2\n").decode().split("\n")[1]
        assert reply["text"] == line + "\n" and reply["cages"] is None and reply["regions"] is None
        parsed = await afetch(port, "POST", "/api/v1/parse", {"puzzle": line})
        assert reply["marks"] == parsed.json["marks"] and reply["marks"][0]["rule"] == "kropki"
        count = await afetch(port, "POST", "/api/v1/count", {"puzzle": reply["text"]})
        assert count.json == {"count": 1, "limit": 2, "at_least": False, "unique": True}
        assert made.json["marks"] is not None
        plain = await afetch(port, "POST", "/api/v1/generate", {"rules": "x", "seed": 1})
        assert plain.json["marks"] is None


async def test_rate_hint_and_steps_under_rules_answer_as_the_line_protocol():
    """The technique engine under the rules (issue 19): the same step, rating and step count as RATE, HINT and
    STEPS with ``rules=`` on the line."""
    async with running_http_server() as (server, port):
        for rules, puzzle in (("x", X_NEAR), ("antiking", ANTIKING), ("windoku", WINDOKU)):
            hint = (await afetch(port, "POST", "/api/v1/hint", {"puzzle": puzzle, "rules": rules})).json
            assert replies(f"HINT rules={rules} {puzzle}\n".encode()).decode() == f"HINT {hint['text']}\n"
            rate = (await afetch(port, "POST", "/api/v1/rate", {"puzzle": puzzle, "rules": rules})).json
            line = replies(f"RATE rules={rules} {puzzle}\n".encode()).decode()
            assert line.startswith(f"RATE {rate['level']} se={rate['se']:.1f} "), line
            steps = (await afetch(port, "POST", "/api/v1/steps", {"puzzle": puzzle, "rules": rules})).json
            lines = replies(f"STEPS rules={rules} {puzzle}\n".encode()).decode().splitlines()
            assert lines[0].startswith(f"STEPS {len(steps['steps'])} steps, {steps['level']} se={steps['se']:.1f} ")
            numbered = [line.split(" ", 1)[1] for line in lines if line.split(" ", 1)[0].rstrip(".").isdigit()]
            assert [step["text"] for step in steps["steps"]] == numbered
