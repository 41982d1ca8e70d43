"""Sandwich puzzles over the line port and over HTTP (issue 29): the line syntax, f-puzzles JSON and links.

The puzzle is docs/LAYOUTS.md's sandwich example (CP-SAT says it is unique,
tests/unit/test_rule_sandwich.py); exact replies from a real in-process server.
"""

from __future__ import annotations

import json

from sudoku_server.text.fpuzzles import link
from tests.support.httptools import afetch, running_http_server
from tests.support.servers import ask

SOLUTION = "754286931921473568863915472698527143312649857547138629479862315135794286286351794"
GIVENS = "...................6...............................................9............."
CLUES = "r1:3;r2:2;r5:12;r6:19;r7:19;r8:15;r9:7;c1:26;c3:20;c4:11;c5:15;c7:9;c9:20"
LINE = f"{GIVENS} sandwich={CLUES}"


def _fpuzzles() -> dict[str, object]:
    """The puzzle as f-puzzles JSON: row clues on the left (``R3C0``), column clues above (``R0C5``)."""
    clues = []
    for clue in CLUES.split(";"):
        where, value = clue.split(":")
        index = int(where[1:])
        clues.append({"cell": f"R{index}C0" if where[0] == "r" else f"R0C{index}", "value": value})
    grid = [[{"value": int(GIVENS[r * 9 + c]), "given": True} if GIVENS[r * 9 + c] != "." else {} for c in range(9)]
            for r in range(9)]  # fmt: skip
    return {"size": 9, "grid": grid, "sandwichsum": clues, "title": "sandwich"}


#: The example with 9, 2, 4 and 1 given in row 2 (r2c1, r2c2, r2c3, r2c6): 2 + 4 between, over its clue 2.
BROKEN = f"{GIVENS[:9]}924..1...{GIVENS[18:]} sandwich={CLUES}"
BROKEN_ERROR = "invalid sandwich r2: the givens between 1 at r2c6 and 9 at r2c1 sum to 6, over 2"


async def test_the_line_port_answers_the_line_syntax_json_and_link():
    data = json.dumps(_fpuzzles())
    request = f"{LINE}\nCOUNT {LINE}\nSOLVE {data}\nCOUNT {link(_fpuzzles())}\nSOLVE {BROKEN}\n"
    got = await ask(request.encode())
    assert got == f"{SOLUTION}\nCOUNT 1 unique\n{SOLUTION}\nCOUNT 1 unique\nERROR {BROKEN_ERROR}\n".encode()


async def test_http_answers_the_line_syntax_json_and_link():
    async with running_http_server() as (_server, port):
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": LINE})
        assert (reply.status, reply.json) == (200, {"solution": SOLUTION, "text": SOLUTION + "\n"})
        reply = await afetch(port, "POST", "/api/v1/solve", {"fpuzzles": _fpuzzles()})
        assert (reply.status, reply.json) == (200, {"solution": SOLUTION, "text": SOLUTION + "\n"})
        reply = await afetch(port, "POST", "/api/v1/count", {"puzzle": link(_fpuzzles())})
        assert (reply.status, reply.json) == (200, {"count": 1, "limit": 2, "at_least": False, "unique": True})
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": BROKEN})
        code, _, message = BROKEN_ERROR.partition(" ")
        assert (reply.status, reply.json) == (400, {"error": {"code": code, "message": message, "line": 1}})


async def test_http_writes_the_answer_back_as_fpuzzles_with_the_clues():
    async with running_http_server() as (_server, port):
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": LINE, "format": "fpuzzles"})
    assert reply.status == 200
    written = reply.json["fpuzzles"]
    assert written["sandwichsum"] == [{"cell": k["cell"], "value": int(k["value"])} for k in _fpuzzles()["sandwichsum"]]  # type: ignore[union-attr]
    assert "".join(str(cell["value"]) for row in written["grid"] for cell in row) == SOLUTION
