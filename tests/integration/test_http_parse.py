"""The JSON API's ``parse`` endpoint (issue 31): a puzzle's structure for the web page, exact replies.

Read, not solved: the givens, the rules (given and implied by the layout), the regions per cell (a jigsaw's,
else the boxes), the killer cages and a pencilmark line's candidates; errors as ``solve`` words them. Every
reply is also checked against the OpenAPI document (``afetch``).
"""

from __future__ import annotations

import json

from tests.support.httptools import afetch, running_http_server
from tests.support.variant_examples import INKALA, INKALA_PENCILMARKS

BOXES_4 = [1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4]
BOXES_9 = [r // 3 * 3 + c // 3 + 1 for r in range(9) for c in range(9)]
BOXES_6 = [r // 2 * 2 + c // 3 + 1 for r in range(6) for c in range(6)]
JIGSAW_4 = ".......2...3.321aabbaacbcbddccdd"
#: A 4x4 killer as a cage block with its givens (the CodinGame form): four cages, one cell in none.
KILLER_4 = "1... aabb\n.... acbb\n.... dcc.\n.... ddcc\na=8 b=10 c=13 d=7\n"


def parsed(size: int, givens: str, rules: str, regions: list[int], cages=(), names=None, symbols=None) -> dict:
    return {
        "size": size,
        "symbols": symbols or "123456789"[:size],
        "givens": givens,
        "rules": rules,
        "regions": regions,
        "region_symbols": names,
        "cages": list(cages),
        "candidates": None,
        "marks": [],
    }


async def test_parse_gives_each_layouts_structure_exactly():
    cases = [
        ({"puzzle": ".3...24....1..3."}, parsed(4, ".3...24....1..3.", "classic", BOXES_4)),
        ({"puzzle": "1" + "." * 35, "rules": "antiking"}, parsed(6, "1" + "." * 35, "antiking", BOXES_6)),
        (
            {"puzzle": JIGSAW_4, "rules": "x"},
            parsed(
                4, ".......2...3.321", "x+jigsaw", [1, 1, 2, 2, 1, 1, 3, 2, 3, 2, 4, 4, 3, 3, 4, 4], names=list("abcd")
            ),
        ),
        (
            {"puzzle": KILLER_4},
            parsed(
                4,
                "1" + "." * 15,
                "killer",
                BOXES_4,
                [
                    {"symbol": "a", "sum": 8, "cells": ["r1c1", "r1c2", "r2c1"]},
                    {"symbol": "b", "sum": 10, "cells": ["r1c3", "r1c4", "r2c3", "r2c4"]},
                    {"symbol": "c", "sum": 13, "cells": ["r2c2", "r3c2", "r3c3", "r4c3", "r4c4"]},
                    {"symbol": "d", "sum": 7, "cells": ["r3c1", "r4c1", "r4c2"]},
                ],
            ),
        ),
    ]
    async with running_http_server() as (server, port):
        for body, expected in cases:
            reply = await afetch(port, "POST", "/api/v1/parse", body)
            assert (reply.status, reply.json) == (200, expected), body
        # a pencilmark line: its candidates per cell (a cell with one is a given)
        reply = await afetch(port, "POST", "/api/v1/parse", {"puzzle": INKALA_PENCILMARKS})
        chunks = [INKALA_PENCILMARKS[k : k + 9] for k in range(0, 729, 9)]
        marks = [chunk.replace(".", "") for chunk in chunks]
        assert (reply.status, reply.json) == (200, {**parsed(9, INKALA, "classic", BOXES_9), "candidates": marks})
        # a 16x16 written 0-F: the page types and shows its symbols
        reply = await afetch(port, "GET", "/api/v1/parse?puzzle=0123456789ABCDEF" + "." * 240)
        assert reply.status == 200
        assert reply.json["symbols"] == "0123456789ABCDEF" and reply.json["givens"] == "0123456789ABCDEF" + "." * 240


#: One f-puzzles puzzle with a mark of each rule that takes marks (issue 29), as the page is sent it.
FPUZZLES_MARKS = {
    "size": 9,
    "grid": [[{"value": 5, "given": True}] + [{}] * 8] + [[{}] * 9 for _ in range(8)],
    "thermometer": [{"lines": [["R1C2", "R1C3", "R2C4"]]}],
    "arrow": [{"cells": ["R3C1"], "lines": [["R3C1", "R4C1", "R5C2"]]}],
    "difference": [{"cells": ["R6C1", "R6C2"]}, {"cells": ["R6C3", "R6C4"], "value": "3"}],
    "ratio": [{"cells": ["R7C1", "R8C1"]}],
    "xv": [{"cells": ["R9C1", "R9C2"], "value": "X"}, {"cells": ["R9C3", "R9C4"], "value": "V"}],
    "whispers": [{"lines": [["R1C6", "R2C6"]]}],
    "renban": [{"lines": [["R3C6", "R3C7", "R3C8"]]}],
    "palindrome": [{"lines": [["R4C6", "R5C7", "R4C8"]]}],
    "littlekillersum": [{"cell": "R0C7", "direction": "DR", "value": "6"}],
    "sandwichsum": [{"cell": "R2C10", "value": "12"}, {"cell": "R0C5", "value": 0}],
    "odd": [{"cell": "R8C8"}],
    "even": [{"cell": "R9C9"}],
}


def mark(rule: str, cells: str, value: int = 0, kind: str = "") -> dict:
    return {"rule": rule, "cells": cells.split("-"), "value": value, "kind": kind}


async def test_parse_gives_an_fpuzzles_puzzles_marks_exactly():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/parse", {"puzzle": json.dumps(FPUZZLES_MARKS)})
    assert reply.status == 200, reply.json
    assert reply.json["givens"] == "5" + "." * 80
    # in the registry's order, each rule's in the puzzle's; whispers' value 0: the default (5 on 9x9)
    assert reply.json["marks"] == [
        mark("oddeven", "r8c8", 1),
        mark("oddeven", "r9c9", 2),
        mark("thermo", "r1c2-r1c3-r2c4"),
        mark("kropki", "r6c1-r6c2", 1, "white"),
        mark("kropki", "r6c3-r6c4", 3, "white"),
        mark("kropki", "r7c1-r8c1", 2, "black"),
        mark("xv", "r9c1-r9c2", 10),
        mark("xv", "r9c3-r9c4", 5),
        mark("whispers", "r1c6-r2c6"),
        mark("palindrome", "r4c6-r5c7-r4c8"),
        mark("renban", "r3c6-r3c7-r3c8"),
        mark("arrow", "r3c1-r4c1-r5c2", 1),
        mark("littlekiller", "r1c8-r2c9", 6),
        # a sandwich clue's row or column from the clue's side: right of row 2, above column 5
        mark("sandwich", "-".join(f"r2c{c}" for c in range(9, 0, -1)), 12),
        mark("sandwich", "-".join(f"r{r}c5" for r in range(1, 10)), 0),
    ]
    assert reply.json["rules"] == "oddeven+thermo+kropki+xv+whispers+palindrome+renban+arrow+littlekiller+sandwich"


async def test_parse_reads_duplicates_but_words_format_and_rule_errors_as_solve_does():
    async with running_http_server() as (server, port):
        # givens that break a rule are still read: the page shows them, Solve names the fault
        reply = await afetch(port, "POST", "/api/v1/parse", {"puzzle": "11" + "." * 79})
        assert (reply.status, reply.json) == (200, parsed(9, "11" + "." * 79, "classic", reply.json["regions"]))
        cases = [
            (
                {"puzzle": "1"},
                {"code": "incomplete", "message": "input ended inside the one-line puzzle at line 1 (1 of 81 cells)"},
            ),
            (
                {"puzzle": "." * 81, "rules": "killer"},
                {
                    "code": "format",
                    "message": "line 1: a killer puzzle needs its cages: a SudoCue line or a cage block",
                },
            ),
            (  # break-session finding: parsed as "thermo+arrow", with no arrow
                {"puzzle": "." * 81 + " thermo=r1c1-r1c2", "rules": "arrow"},
                {
                    "code": "format",
                    "message": "line 1: an arrow puzzle needs its marks: an arrow puzzle needs its arrows",
                },
            ),
        ]
        for body, error in cases:
            reply = await afetch(port, "POST", "/api/v1/parse", body)
            assert (reply.status, reply.json) == (400, {"error": {**error, "line": 1}}), body
        reply = await afetch(port, "POST", "/api/v1/parse", {"puzzles": [JIGSAW_4, "1"]})
        jigsaw = parsed(
            4, ".......2...3.321", "jigsaw", [1, 1, 2, 2, 1, 1, 3, 2, 3, 2, 4, 4, 3, 3, 4, 4], names=list("abcd")
        )
        assert (reply.status, reply.json) == (200, {"results": [jigsaw, {"error": {**cases[0][1], "line": 1}}]})


#: A killer cage's schema in the OpenAPI document, as it stood before parse and generate shared one definition.
CAGE_ITEMS = (
    b'{"type":"object","required":["symbol","sum","cells"],"additionalProperties":false,"properties":'
    b'{"symbol":{"type":"string"},"sum":{"type":"integer"},"cells":{"type":"array","items":{"type":"string",'
    b'"pattern":"^r[0-9]+c[0-9]+$"}}}}'
)
CAGES_DESCRIPTION = b'"description":"killer: the cages, each its symbol, sum and cells"'


async def test_parse_and_generate_write_cages_from_one_definition_byte_for_byte():
    """Duplicate D8: the killer cage's schema and writer were written twice (wire/json_parse.py and
    wire/json_endpoints.py); they are one (wire/json_schemas.py ``CAGE``, ``cage_object``), and the OpenAPI
    document and both replies are byte for byte what they were."""
    from sudoku_server.wire import json_schemas
    from sudoku_server.wire.json_endpoints import ENDPOINTS
    from sudoku_server.wire.json_parse import PARSE_SCHEMA

    generate = ENDPOINTS["generate"]
    assert PARSE_SCHEMA["properties"]["cages"]["items"] is json_schemas.CAGE
    assert generate.schema["properties"]["cages"]["items"] is json_schemas.CAGE
    async with running_http_server() as (server, port):
        document = (await afetch(port, "GET", "/api/v1/openapi.json")).body
        parse = await afetch(port, "POST", "/api/v1/parse", {"puzzle": KILLER_4})
        made = await afetch(port, "POST", "/api/v1/generate", {"rules": "killer", "seed": 1, "size": 4})
    assert b'"cages":{"type":"array",' + CAGES_DESCRIPTION + b',"items":' + CAGE_ITEMS + b"}" in document
    assert b'"cages":{"type":["array","null"],' + CAGES_DESCRIPTION + b',"items":' + CAGE_ITEMS + b"}" in document
    assert parse.body == (
        b'{"size":4,"symbols":"1234","givens":"1...............","rules":"killer","regions":[1,1,2,2,1,1,2,2,3,3,4,4,3,'
        b'3,4,4],"region_symbols":null,"cages":[{"symbol":"a","sum":8,"cells":["r1c1","r1c2","r2c1"]},{"symbol":"b",'
        b'"sum":10,"cells":["r1c3","r1c4","r2c3","r2c4"]},{"symbol":"c","sum":13,"cells":["r2c2","r3c2","r3c3","r4c3",'
        b'"r4c4"]},{"symbol":"d","sum":7,"cells":["r3c1","r4c1","r4c2"]}],"candidates":null,"marks":[]}'
    )
    assert made.body == (
        b'{"puzzle":"................","text":"aaab\\ncdeb\\nfgdb\\nchdb\\na=6 b=10 c=5 d=7 e=3 f=3 g=2 h=4\\n\\n",'
        b'"size":4,"seed":"1","givens":0,"symmetry":"none","minimal":true,"full":false,"level":null,"se":null,'
        b'"rules":"killer","regions":null,"cages":[{"symbol":"a","sum":6,"cells":["r1c1","r1c2","r1c3"]},'
        b'{"symbol":"b","sum":10,"cells":["r1c4","r2c4","r3c4","r4c4"]},{"symbol":"c","sum":5,"cells":["r2c1",'
        b'"r4c1"]},{"symbol":"d","sum":7,"cells":["r2c2","r3c3","r4c3"]},{"symbol":"e","sum":3,"cells":["r2c3"]},'
        b'{"symbol":"f","sum":3,"cells":["r3c1"]},{"symbol":"g","sum":2,"cells":["r3c2"]},{"symbol":"h","sum":4,'
        b'"cells":["r4c2"]}],"marks":null}'
    )
