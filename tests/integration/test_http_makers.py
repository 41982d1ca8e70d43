"""Issue 20's verbs on the JSON API (issue 21): ``canon``, ``same``, ``unique`` and ``minimal``, exact replies.

Each reply is the line protocol's answer (CANON, SAME, UNIQUE, MINIMAL: compared here with the line verb's
reply on the same puzzle) as structured JSON, and is checked against the OpenAPI document (``afetch``).
"""

from __future__ import annotations

import urllib.parse

from tests.support.httptools import afetch, running_http_server
from tests.support.sessions import replies

EASY = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EASY_CANON = "........1.....2....34....5.......56......7.3.2...18......6.......54.....8.......7"
EASY_MAP = {"transpose": False, "rows": "231987654", "cols": "897564312", "digits": "671538249"}
#: EASY without its r1c1 given: two solutions, r1c1=4 alone makes it unique again.
NOT_UNIQUE = "." + EASY[1:]
NOT_UNIQUE_FIRST = "217364895435198726689725341921437568356982417748516932892653174573241689164879253"
NOT_UNIQUE_LAST = "917364825835129746642758319429537168751986432386412957298643571573291684164875293"
#: EASY with one more given (r1c2=1 of its solution): that given, and only it, can go again.
ONE_MORE = "41" + EASY[2:]
UNSOLVABLE = "12345678." + "........9" + "." * 63
#: A 4x4 puzzle and the same puzzle with its rows 1 and 2 swapped and digits 1 and 2 swapped.
SMALL = "1.3..4.....2.1.."
SMALL_SWAPPED = ".4..2.3....1.2.."


def error(code: str, message: str, line: int | None) -> dict:
    return {"error": {"code": code, "message": message, "line": line}}


def differ() -> list[str]:
    return [
        f"r{k // 9 + 1}c{k % 9 + 1}"
        for k in range(81)
        if NOT_UNIQUE_FIRST[k] != NOT_UNIQUE_LAST[k]  # where the two solutions differ
    ]


async def test_canon_exact_and_as_the_line_protocol_says():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/canon", {"puzzle": EASY})
        assert (reply.status, reply.json) == (200, {"canon": EASY_CANON, "map": None})
        reply = await afetch(port, "GET", f"/api/v1/canon?map&puzzle={EASY}")
        assert (reply.status, reply.json) == (200, {"canon": EASY_CANON, "map": EASY_MAP})
        assert replies(f"CANON map {EASY}\n".encode()) == (
            f"CANON {EASY_CANON} map transpose=no rows=231987654 cols=897564312 digits=671538249\n".encode()
        )
        reply = await afetch(port, "POST", "/api/v1/canon", {"puzzles": [EASY, EASY_CANON, "." * 256, "12"]})
        assert (reply.status, reply.json) == (
            200,
            {
                "results": [
                    {"canon": EASY_CANON, "map": None},
                    {"canon": EASY_CANON, "map": None},
                    error("command", "CANON: a 16x16 puzzle has no canonical form here (4x4, 6x6 and 9x9 only)", 1),
                    error("incomplete", "input ended inside the one-line puzzle at line 1 (2 of 81 cells)", 1),
                ]
            },
        )
        reply = await afetch(port, "POST", "/api/v1/canon", {"puzzle": EASY, "map": "yes"})
        assert (reply.status, reply.json) == (
            400,
            error("command", 'CANON: map must be true or false, not "yes"', None),
        )


async def test_same_exact():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/same", {"puzzle": EASY, "other": EASY_CANON})
        assert (reply.status, reply.json) == (200, {"same": True, "map": EASY_MAP})
        query = urllib.parse.urlencode({"puzzle": SMALL, "other": SMALL_SWAPPED})
        reply = await afetch(port, "GET", f"/api/v1/same?{query}")
        small_map = {"transpose": False, "rows": "2134", "cols": "1234", "digits": "2134"}
        assert (reply.status, reply.json) == (200, {"same": True, "map": small_map})
        assert replies(f"SAME {SMALL} {SMALL_SWAPPED}\n".encode()) == (
            b"SAME yes transpose=no rows=2134 cols=1234 digits=2134\n"
        )
        reply = await afetch(port, "POST", "/api/v1/same", {"puzzle": EASY, "other": NOT_UNIQUE})
        assert (reply.status, reply.json) == (200, {"same": False, "map": None})
        # the batch form: each puzzle compared with the one other
        reply = await afetch(port, "POST", "/api/v1/same", {"puzzles": [EASY, NOT_UNIQUE, SMALL], "other": EASY_CANON})
        assert (reply.status, reply.json) == (
            200,
            {"results": [{"same": True, "map": EASY_MAP}, {"same": False, "map": None}, {"same": False, "map": None}]},
        )


async def test_same_errors():
    async with running_http_server() as (server, port):
        cases = [
            (
                {"puzzle": EASY},
                error("command", 'SAME: no other puzzle: send {"puzzle": "<text>", "other": "<text>"}', None),
            ),
            ({"puzzle": EASY, "other": 5}, error("command", "SAME: other must be a string of its text, not 5", None)),
            (
                {"puzzle": EASY, "other": "12"},  # named (break-session finding: the words of a bad puzzle's)
                error("incomplete", "other: input ended inside the one-line puzzle at line 1 (2 of 81 cells)", 1),
            ),
            (
                {"other": EASY},
                error(
                    "command",
                    'SAME: no puzzle: send {"puzzle": "<text>"}, {"puzzles": [...]} or {"fpuzzles": {...}}',
                    None,
                ),
            ),
            (
                {"puzzle": "." * 256, "other": "." * 256},
                error("command", "SAME: a 16x16 puzzle has no canonical form here (4x4, 6x6 and 9x9 only)", 1),
            ),  # break-session finding: a variant other was compared as classic (SAME <puzzle> <other> refuses it)
            (
                {"puzzle": EASY, "other": EASY + " thermo=r1c1-r1c2"},
                error("command", "SAME: classic rules only, not thermo", None),
            ),
            (
                {"puzzle": EASY, "other": EASY + " xv=negative"},
                error("command", "SAME: classic rules only, not xv", None),
            ),
        ]
        for body, expected in cases:
            reply = await afetch(port, "POST", "/api/v1/same", body)
            assert (reply.status, reply.json) == (400, expected), body


async def test_unique_exact():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "GET", f"/api/v1/unique?puzzle={EASY}")
        assert (reply.status, reply.json) == (
            200,
            {"unique": True, "solutions": [], "differ": [], "add": [], "add_all": False, "unsolvable": None},
        )
        # rules (as UNIQUE rules= on a line; the OpenAPI document lists it: break-session finding, it did not)
        x_puzzle = ".2.4..7.......91.3..............5.9.............81.6...4.6..2..8........6.5......"
        reply = await afetch(port, "GET", f"/api/v1/unique?rules=x&puzzle={x_puzzle}")
        assert (reply.status, reply.json["unique"]) == (200, True)
        several = {
            "unique": False,
            "solutions": [NOT_UNIQUE_FIRST, NOT_UNIQUE_LAST],
            "differ": differ(),
            "add": [{"cell": "r1c1", "digit": 4}],
            "add_all": False,
            "unsolvable": None,
        }
        reply = await afetch(port, "POST", "/api/v1/unique", {"puzzle": NOT_UNIQUE})
        assert (reply.status, reply.json) == (200, several)
        line = replies(f"UNIQUE {NOT_UNIQUE}\n".encode()).decode()
        assert line == (f"UNIQUE no {NOT_UNIQUE_FIRST} {NOT_UNIQUE_LAST} differ {' '.join(differ())} add r1c1=4\n")
        nothing = {
            "unique": False,
            "solutions": [],
            "differ": [],
            "add": [],
            "add_all": False,
            "unsolvable": "no digit fits r1c9",
        }
        reply = await afetch(
            port, "POST", "/api/v1/unique", {"puzzles": [EASY, NOT_UNIQUE, UNSOLVABLE, "77" + EASY[2:]]}
        )
        assert (reply.status, reply.json["results"][1:]) == (
            200,
            [several, nothing, error("invalid", "duplicate 7 in row 1 at r1c1 and r1c2", 1)],
        )


async def test_unique_add_all():
    """No one clue is enough: ``add_all`` and the set that is (the line protocol's ``add-all``)."""
    async with running_http_server() as (server, port):
        reply = await afetch(port, "POST", "/api/v1/unique", {"puzzle": "1234" + "." * 12})
        assert (reply.status, reply.json) == (
            200,
            {
                "unique": False,
                "solutions": ["1234341221434321", "1234432134122143"],
                "differ": [f"r{r}c{c}" for r in (2, 3, 4) for c in (1, 2, 3, 4)],
                "add": [{"cell": "r2c3", "digit": 2}, {"cell": "r4c1", "digit": 4}],
                "add_all": True,
                "unsolvable": None,
            },
        )
        assert replies(b"UNIQUE 1234............\n") == (
            b"UNIQUE no 1234341221434321 1234432134122143 differ r2c1 r2c2 r2c3 r2c4 r3c1 r3c2 r3c3 r3c4"
            b" r4c1 r4c2 r4c3 r4c4 add-all r2c3=2 r4c1=4\n"
        )


async def test_minimal_exact():
    async with running_http_server() as (server, port):
        reply = await afetch(port, "GET", f"/api/v1/minimal?puzzle={EASY}")
        assert (reply.status, reply.json) == (200, {"minimal": True, "redundant": []})
        reply = await afetch(port, "POST", "/api/v1/minimal", {"puzzle": ONE_MORE})
        assert (reply.status, reply.json) == (200, {"minimal": False, "redundant": ["r1c2"]})
        assert replies(f"MINIMAL {ONE_MORE}\n".encode()) == b"MINIMAL no r1c2\n"
        reply = await afetch(port, "POST", "/api/v1/minimal", {"puzzles": [ONE_MORE, NOT_UNIQUE, UNSOLVABLE]})
        assert (reply.status, reply.json) == (
            200,
            {
                "results": [
                    {"minimal": False, "redundant": ["r1c2"]},
                    error("multiple", "the puzzle has more than one solution (r2c1 can be 4 or 6)", 1),
                    error("unsolvable", "no digit fits r1c9", 1),
                ]
            },
        )
        reply = await afetch(port, "POST", "/api/v1/minimal", {"puzzle": NOT_UNIQUE})
        assert (reply.status, reply.json) == (
            422,
            error("multiple", "the puzzle has more than one solution (r2c1 can be 4 or 6)", 1),
        )
        # MINIMAL takes rules= (issue 19 fresh eyes): the easy puzzle breaks X's diagonals, as on the line
        reply = await afetch(port, "POST", "/api/v1/minimal", {"puzzle": EASY, "rules": "x"})
        line = replies(f"MINIMAL rules=x {EASY}\n".encode()).decode().rstrip("\n")
        code, detail = line.removeprefix("ERROR ").split(" ", 1)
        assert (reply.status, reply.json) == (422, error(code, detail, 1))


async def test_canon_and_same_of_9x9_grids_are_solver_jobs_as_on_the_line():
    """As the line protocol's CANON and SAME (issue 32): solver jobs under the scheduler and the solve timeout,
    never on the event loop; the answers are those of the native canon core."""
    async with running_http_server() as (server, port):
        submitted = []
        submit = server.pool.submit

        def spy(job, puzzles=1):
            submitted.append(type(job.request).__name__)
            submit(job, puzzles)

        server.pool.submit = spy
        reply = await afetch(port, "POST", "/api/v1/canon", {"puzzles": [EASY, EASY_CANON]})
        assert reply.json == {"results": [{"canon": EASY_CANON, "map": None}] * 2}
        reply = await afetch(port, "POST", "/api/v1/same", {"puzzle": EASY, "other": EASY_CANON})
        assert reply.json == {"same": True, "map": EASY_MAP}
        assert submitted == ["Canon", "Canon", "Same"]
