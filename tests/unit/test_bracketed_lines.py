"""s10-break finding 4: a line in square brackets that is no ``[Section]`` header gets one precise error, never
silence (a JSON array of f-puzzles objects, ``[1,2,3]``); ``SOLVE [x]`` names the word. ``[Section]`` headers of
.sdk-style files (a name that starts with a letter: ``[Puzzle]``) are still skipped. Fed whole, one byte at a
time, and with a request after them."""

from __future__ import annotations

import json

import pytest

from sudoku_server.text.lines import Kind, classify_line
from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.sessions import replies

PUZZLE = NEWSPAPER_LINE.encode()
ANSWER = NEWSPAPER_SOLUTION.encode() + b"\n"
OBJECT = {
    "size": 9,
    "grid": [
        [{"value": int(c), "given": True} if c != "." else {} for c in NEWSPAPER_LINE[r * 9 : r * 9 + 9]]
        for r in range(9)
    ],
}
ARRAY_ERROR = b"ERROR format line 1: a JSON array; send one f-puzzles object per line\n"


@pytest.mark.parametrize(
    ("line", "reply"),
    [
        (json.dumps([OBJECT]).encode(), ARRAY_ERROR),  # json.dumps([obj]): what a program serialising a list sends
        (json.dumps([OBJECT, OBJECT], separators=(",", ":")).encode(), ARRAY_ERROR),
        (b"[1,2,3]", ARRAY_ERROR),
        (b"[]", ARRAY_ERROR),
        (b"SOLVE [1,2,3]", ARRAY_ERROR),
        (
            b"[1 2 3]",
            b'ERROR format line 1: "[1 2 3]" is no [Section] header (a name in brackets, such as [Puzzle])'
            b" and no puzzle\n",
        ),
        (
            b"[" + b"9" * 60 + b"]",  # a one-number array
            ARRAY_ERROR,
        ),
        (
            b"[1 " + b"2 " * 40 + b"]",
            b'ERROR format line 1: "[1 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 ..." is no [Section] header (a name in'
            b" brackets, such as [Puzzle]) and no puzzle\n",
        ),
        (
            b"SOLVE [x]",
            b'ERROR command SOLVE: "[x]" is no option or puzzle (a [Section] header goes on a line of its own);'
            b" try HELP SOLVE\n",
        ),
        (
            b"COUNT limit=2 [Puzzle] " + PUZZLE,
            b'ERROR command COUNT: "[Puzzle]" is no option or puzzle (a [Section] header goes on a line of its'
            b" own); try HELP COUNT\n",
        ),
    ],
    ids=[
        "fpuzzles-array",
        "two-objects",
        "numbers",
        "empty",
        "after-verb",
        "words",
        "long-number",
        "long",
        "verb-x",
        "verb-header-puzzle",
    ],
)
@pytest.mark.parametrize("bytewise", [False, True], ids=["whole", "bytewise"])
def test_a_bracketed_line_that_is_no_header_gets_one_error_then_the_next_request(line, reply, bytewise):
    assert replies(line + b"\n" + PUZZLE + b"\n", bytewise) == reply + ANSWER


@pytest.mark.parametrize("header", [b"[Puzzle]", b"  [State] ", b"[Puzzle 12]", b"[Sudoku #3 - hard]"])
def test_a_section_header_is_still_skipped(header):
    assert replies(b"#A Arto Inkala\n" + header + b"\n" + PUZZLE + b"\n") == ANSWER
    assert replies(header + b"\n" + PUZZLE + b"\n", bytewise=True) == ANSWER


@pytest.mark.parametrize(
    ("text", "kind"),
    [("[Puzzle]", Kind.COMMENT), ("[State 2]", Kind.COMMENT), ("[1,2,3]", Kind.FIELDS), ('[{"size":9}]', Kind.FIELDS)],
)
def test_only_a_name_in_brackets_is_a_section_header(text, kind):
    assert classify_line(text, "\n").kind is kind
