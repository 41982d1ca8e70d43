"""f-puzzles puzzles over HTTP (issue 29): ``{"fpuzzles": {...}}`` and ``{"puzzle": "<link>"}``, exact replies.

The thermometer puzzle is the one of tests/unit/test_rule_marks.py (CP-SAT says it is unique).
"""

from __future__ import annotations

from sudoku_server.text.fpuzzles import link
from tests.support.httptools import afetch, running_http_server

SOLUTION = "754286931921473568863915472698527143312649857547138629479862315135794286286351794"
GIVENS = ".....6.............6..1.4...........3.2.......4....6.9.......1.135..............."
LINES = (
    (72, 64, 56),
    (15, 25, 17),
    (60, 70, 79),
    (12, 13, 4),
    (49, 50, 41),
    (40, 30, 21),
    (3, 2, 1, 0, 9),
    (58, 66, 57, 67),
    (23, 32, 42),
)
THERMO = {
    "size": 9,
    "grid": [
        [{"value": GIVENS[r * 9 + c], "given": True} if GIVENS[r * 9 + c] != "." else {} for c in range(9)]
        for r in range(9)
    ],
    "thermometer": [{"lines": [[f"R{c // 9 + 1}C{c % 9 + 1}" for c in line]]} for line in LINES],
    "title": "thermo",
}


async def test_an_fpuzzles_object_and_a_link_are_answered():
    async with running_http_server() as (_server, port):
        reply = await afetch(port, "POST", "/api/v1/solve", {"fpuzzles": THERMO})
        assert (reply.status, reply.json) == (200, {"solution": SOLUTION, "text": SOLUTION + "\n"})
        reply = await afetch(port, "POST", "/api/v1/count", {"puzzle": link(THERMO)})
        assert (reply.status, reply.json) == (200, {"count": 1, "limit": 2, "at_least": False, "unique": True})
        reply = await afetch(
            port,
            "POST",
            "/api/v1/solve",
            {"fpuzzles": dict(THERMO, quadruple=[{"cells": ["R1C1", "R1C2", "R2C1", "R2C2"], "values": [1]}])},
        )
        error = {"code": "command", "message": 'fpuzzles: rule "quadruple" is not implemented here', "line": None}
        assert (reply.status, reply.json) == (400, {"error": error})


async def test_solve_format_fpuzzles_and_link_over_http():
    filled = [
        [{"value": int(SOLUTION[r * 9 + c]), **({"given": True} if GIVENS[r * 9 + c] != "." else {})} for c in range(9)]
        for r in range(9)
    ]
    async with running_http_server() as (_server, port):
        reply = await afetch(port, "POST", "/api/v1/solve", {"fpuzzles": THERMO, "format": "fpuzzles"})
        assert reply.status == 200 and reply.json["solution"] == SOLUTION
        written = reply.json["fpuzzles"]
        assert written["grid"] == filled
        assert written["thermometer"] == [{"lines": [[f"R{c // 9 + 1}C{c % 9 + 1}" for c in line]]} for line in LINES]
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": link(THERMO), "format": "link"})
        assert (reply.status, reply.json["link"]) == (200, link(written))


async def test_a_plain_one_line_puzzle_keeps_its_format_over_http():
    """Break-session finding: a plain one-line 9x9 puzzle took the bulk path, which answered without the
    ``fpuzzles`` or ``link`` field it was asked for (a bordered grid, or ``any``, had it)."""
    from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION

    filled = [
        [
            {
                "value": int(NEWSPAPER_SOLUTION[r * 9 + c]),
                **({"given": True} if NEWSPAPER_LINE[r * 9 + c] != "." else {}),
            }
            for c in range(9)
        ]
        for r in range(9)
    ]
    written = {"size": 9, "grid": filled}
    async with running_http_server() as (_server, port):
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzle": NEWSPAPER_LINE, "format": "fpuzzles"})
        assert (reply.status, reply.json["solution"], reply.json["fpuzzles"]) == (200, NEWSPAPER_SOLUTION, written)
        reply = await afetch(port, "GET", f"/api/v1/solve?puzzle={NEWSPAPER_LINE}&format=link")
        assert (reply.status, reply.json["link"]) == (200, link(written))
        reply = await afetch(port, "POST", "/api/v1/solve", {"puzzles": [NEWSPAPER_LINE], "format": "link"})
        assert [result["link"] for result in reply.json["results"]] == [link(written)]


async def test_generate_format_fpuzzles_and_link_over_http():
    """A second break session's finding: generate took format=fpuzzles|link and answered neither field. The reply
    keeps its other fields, and the object and the link read back as the puzzle."""
    from sudoku_server.sudoku.variant_generator import generate_variant
    from sudoku_server.sudoku.variants import Variant
    from sudoku_server.text.fpuzzles import read_object, write

    made = generate_variant(Variant(("thermo",)), seed=5)
    written = write(made.puzzle, made.variant, None)
    async with running_http_server() as (_server, port):
        reply = await afetch(port, "POST", "/api/v1/generate", {"seed": 5, "rules": "thermo", "format": "fpuzzles"})
        assert (reply.status, reply.json["fpuzzles"], reply.json["seed"]) == (200, written, "5")
        reply = await afetch(port, "GET", "/api/v1/generate?seed=5&rules=thermo&format=link")
        assert (reply.status, reply.json["link"]) == (200, link(written))
        reply = await afetch(port, "GET", "/api/v1/generate?seed=5")
        assert reply.status == 200 and "link" not in reply.json and "fpuzzles" not in reply.json
    assert read_object(written)[0] == made.puzzle


async def test_a_generated_killer_jigsaw_over_http_is_its_fpuzzles_line():
    """Regions and cages together have no text layout: ``text`` is the f-puzzles line, which solve reads back."""
    async with running_http_server() as (_server, port):
        reply = await afetch(port, "POST", "/api/v1/generate", {"seed": 3, "rules": "killer+jigsaw"})
        assert reply.status == 200 and reply.json["text"].startswith('{"size":9,"grid":[[{"region":0}')
        solved = await afetch(port, "POST", "/api/v1/count", {"puzzle": reply.json["text"].strip()})
    assert (solved.status, solved.json["unique"]) == (200, True)
