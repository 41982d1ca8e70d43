"""The variant layouts' errors name their own line, and the killer and SudoCue headers are read in any case.

The tester's cases: a jigsaw region grid's errors name the region grid's own
line (f10); a cage block of symbols alone whose first row starts with ``#``
(a cage symbol) is read under killer rules (f12); one clear error for a
stray word on a sums line, a sum or SudoCue number too large, a SudoCue
line with no cage, and ``3X3::K:`` read in any case (f11). The text layer
and the sans-I/O session are fed the bytes whole and one byte at a time;
then one socket test.
"""

from __future__ import annotations

import pytest
import trio

from sudoku_server.text import Puzzle, PuzzleReader, Rejected
from tests.support.servers import exchange, running_server
from tests.support.sessions import replies
from tests.support.variant_examples import (
    CAGE_ROWS,
    CAGE_SUMS,
    JIGSAW_ANSWER,
    JIGSAW_GIVENS,
    JIGSAW_REGIONS,
    KILLER_ANSWER,
    SUDOCUE,
)


def rows(line: str, size: int = 9) -> str:
    return "".join(line[r * size : r * size + size] + "\n" for r in range(size))


def read(text: str, rules: tuple[str, ...] = ()) -> list[Puzzle | Rejected]:
    """The text layer alone: the reader's events for ``text`` under ``rules``."""
    reader = PuzzleReader()
    reader.rules = frozenset(rules)
    events: list[Puzzle | Rejected] = []
    for number, raw in enumerate(text.splitlines(keepends=True), start=1):
        body = raw.rstrip("\r\n")
        events.extend(reader.feed_line(body, raw[len(body) :], number))
    return events + reader.finish()


GIVENS = rows(JIGSAW_GIVENS)  # lines 2-10 after RULES jigsaw


REGION_ROWS = [" ".join(JIGSAW_REGIONS[r * 9 : r * 9 + 9]) + "\n" for r in range(9)]


#: The cage block with cage a renamed "#": its first row starts with "#" (LAYOUTS.md: a cage symbol, not a comment).
HASH_ROWS = [row.replace("a", "#") for row in CAGE_ROWS]


HASH_SUMS = CAGE_SUMS.replace("a=13", "#=13")


FOUR = ".... aabb\n.... ccdd\n.... eeff\n.... gghh\n"


FOUR_SUMS = "a=3 b=7 c=7 d=3 e=5 f=5 g=5 h=5"


ZERO_SUDOCUE = "3x3::k:" + ":".join(["0"] * 81) + ":"


#: (request, reply): the tester's cases, then neighbours of them.
CASES = {
    # f10: the region grid's own line, not the givens'
    "region grid cut by the end of input": (
        "RULES jigsaw\n" + GIVENS + "\n" + "".join(REGION_ROWS[:5]),
        "RULES jigsaw\nERROR incomplete input ended inside the region grid (5 of 9 rows) that starts at line 12\n",
    ),
    "region grid cut by a blank line": (
        "RULES jigsaw\n" + GIVENS + "".join(REGION_ROWS[:3]) + "\nPING\n",
        "RULES jigsaw\nERROR format line 14: the region grid that starts at line 11 has 3 rows, expected 9\nPONG\n",
    ),
    "a command before the region grid": (
        "RULES jigsaw\n" + GIVENS + "PING\n",
        "RULES jigsaw\nERROR format line 11: expected the region grid (9 rows of 9 region symbols)"
        " after the jigsaw givens' grid that starts at line 2\nPONG\n",
    ),
    "the input ends before the region grid": (
        "RULES jigsaw\n" + GIVENS + "\n",
        "RULES jigsaw\nERROR incomplete input ended before the region grid (9 rows of 9 region symbols)"
        " after the jigsaw givens' grid that starts at line 2\n",
    ),
    "region grid whole": (
        "RULES jigsaw\n" + GIVENS + "\n" + "".join(REGION_ROWS),
        "RULES jigsaw\n" + rows(JIGSAW_ANSWER) + "\n",
    ),
    # f12: "#" first in the first row of a cage block of symbols alone
    "cage block of symbols whose first row starts with #": (
        "RULES killer\n" + "\n".join(HASH_ROWS) + "\n" + HASH_SUMS + "\n",
        "RULES killer\n" + rows(KILLER_ANSWER) + "\n",
    ),
    "a comment before it is still a comment": (
        "RULES killer\n# a comment\n[Puzzle]\n" + "\n".join(HASH_ROWS) + "\n" + HASH_SUMS + "\n",
        "RULES killer\n" + rows(KILLER_ANSWER) + "\n",
    ),
    "the same block with givens": (
        "RULES killer\n" + "".join("......... " + row + "\n" for row in HASH_ROWS) + HASH_SUMS + "\n",
        "RULES killer\n" + rows(KILLER_ANSWER) + "\n",
    ),
    # f11: one clear error each
    "a stray word on the sums line": (
        FOUR + FOUR_SUMS + " q\nPING\n",
        "ERROR format line 5: cage sums: 'q' is not symbol=sum\nPONG\n",
    ),
    "the sums line without the stray word": (FOUR + FOUR_SUMS + "\n", "1234\n3412\n2341\n4123\n\n"),
    "a sum of 20 digits": (
        FOUR + FOUR_SUMS.replace("h=5", "h=99999999999999999999") + "\nPING\n",
        "ERROR format line 5: cage h: its sum has 20 digits, too large (at most 4)\nPONG\n",
    ),
    "a SudoCue number of 23 digits": (
        SUDOCUE.replace(":3329:3329:", ":99999999999999999999999:3329:", 1) + "\nPING\n",
        "ERROR format line 1: SudoCue number 1 (r1c1) has 23 digits, too large (at most 6)\nPONG\n",
    ),
    "a SudoCue line with no cage": (
        ZERO_SUDOCUE + "\nPING\n",
        "ERROR format line 1: the SudoCue line has no cage (every number is under 256)\nPONG\n",
    ),
    "a SudoCue line in upper case": ("3X3::K:" + SUDOCUE[len("3x3::k:") :] + "\n", KILLER_ANSWER + "\n"),
}


@pytest.mark.parametrize("bytewise", [False, True], ids=["whole", "bytewise"])
@pytest.mark.parametrize("name", list(CASES))
def test_each_finding_answers_exact_bytes(name, bytewise):
    request, reply = CASES[name]
    assert replies(request.encode(), bytewise=bytewise) == reply.encode()


def test_the_region_grid_errors_name_its_first_row_in_the_text_layer():
    (event,) = read(GIVENS + "\n" + "".join(REGION_ROWS[:5]), ("jigsaw",))
    assert isinstance(event, Rejected)
    assert event.error.detail == "input ended inside the region grid (5 of 9 rows) that starts at line 11"
    bad = REGION_ROWS[:2] + ["a a a b b b c c\n"] + REGION_ROWS[3:]
    (event,) = read(GIVENS + "\n# regions\n" + "".join(bad), ("jigsaw",))
    assert isinstance(event, Rejected) and event.error.detail == "line 14: expected 9 region symbols, found 8"


def test_a_hash_first_row_is_a_cage_row_under_killer_only():
    (puzzle,) = read("\n".join(HASH_ROWS) + "\n" + HASH_SUMS + "\n", ("killer",))
    assert isinstance(puzzle, Puzzle) and puzzle.layout == "cages" and puzzle.first_line == 1
    assert puzzle.variant is not None and puzzle.variant.cages[0].symbol == "#"
    assert puzzle.variant.cages[0].cells == (0, 1) and puzzle.variant.cages[0].total == 13
    # without killer rules the line is a comment; a comment of several words is one under killer rules too
    assert read(HASH_ROWS[0] + "\n") == []
    assert read("# a comment\n#A author\n", ("killer",)) == []


def test_sudocue_header_in_any_case_implies_its_rules():
    for header, rules in [("3X3::K:", ("killer",)), ("3X3:D:K:", ("x", "killer")), ("3x3:D:k:", ("x", "killer"))]:
        (puzzle,) = read(header + SUDOCUE[len("3x3::k:") :] + "\n")
        assert isinstance(puzzle, Puzzle) and puzzle.layout == "sudocue"
        assert puzzle.variant is not None and puzzle.variant.rules == rules


async def test_the_findings_over_a_socket():
    names = [
        "region grid cut by the end of input",
        "a command before the region grid",
        "cage block of symbols whose first row starts with #",
        "a stray word on the sums line",
        "a SudoCue line with no cage",
        "a SudoCue line in upper case",
    ]
    with trio.fail_after(20):
        async with running_server() as server:
            for name in names:  # one connection each: the errors name the lines of their own stream
                request, reply = CASES[name]
                assert await exchange(server, request.encode()) == reply.encode(), name
