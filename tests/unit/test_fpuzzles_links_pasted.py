"""s10-break finding 5: an f-puzzles link percent-encoded whole (as a chat or browser may copy it) is decoded;
SudokuPad links that hold no f-puzzles puzzle (short links, scl links) get the link's own error saying what to
send, not a digit error at column 1. Fed whole, one byte at a time, and with a request after them."""

from __future__ import annotations

import pytest

from sudoku_server.text.fpuzzles import link
from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.sessions import replies

OBJECT = {
    "size": 9,
    "grid": [
        [{"value": int(c), "given": True} if c != "." else {} for c in NEWSPAPER_LINE[r * 9 : r * 9 + 9]]
        for r in range(9)
    ],
}
LINK = link(OBJECT)
ANSWER = NEWSPAPER_SOLUTION.encode() + b"\n"
SHORT_LINK_ERROR = (
    b"ERROR format fpuzzles: a SudokuPad link that holds no f-puzzles puzzle (a short link names a puzzle kept on"
    b" SudokuPad's server, which this server does not fetch); send its f-puzzles link"
    b" (https://sudokupad.app/fpuzzles..., https://f-puzzles.com/?load=...), its f-puzzles object, or its givens\n"
)


def percent_encoded(text: str) -> str:
    return text.replace("%", "%25").replace("+", "%2B").replace("/", "%2F").replace("=", "%3D").replace(":", "%3A")


@pytest.mark.parametrize(
    "line",
    [
        percent_encoded(LINK),  # https%3A%2F%2Ff-puzzles.com%2F?load%3D...
        LINK.replace("/", "%2F").replace("=", "%3D"),  # https:%2F%2Ff-puzzles.com... (the finding's script)
        "SOLVE " + percent_encoded(LINK),
        percent_encoded(LINK) + " # from the chat",
    ],
    ids=["whole", "slashes-and-equals", "after-verb", "with-comment"],
)
@pytest.mark.parametrize("bytewise", [False, True], ids=["whole", "bytewise"])
def test_a_percent_encoded_link_is_decoded(line, bytewise):
    assert "%3D" in line and "load=" not in line
    assert replies(line.encode() + b"\nPING\n", bytewise) == ANSWER + b"PONG\n"


@pytest.mark.parametrize(
    "line",
    [
        "https://sudokupad.app/psxnwbfa3d",
        "https://sudokupad.app/scl12345abc",
        "sudokupad.app/abc",
        "SOLVE http://www.sudokupad.app/x",
    ],
)
@pytest.mark.parametrize("bytewise", [False, True], ids=["whole", "bytewise"])
def test_a_sudokupad_link_that_is_no_fpuzzles_link_says_what_to_send(line, bytewise):
    assert replies(line.encode() + b"\nPING\n", bytewise) == SHORT_LINK_ERROR + b"PONG\n"


def test_a_percent_sign_in_a_line_that_is_no_link_is_still_a_digit_error():
    assert replies(b"http%20x\n") == b"ERROR format line 1, column 1: 'h' is not a digit 1-9 or an empty mark (. 0 _)\n"
