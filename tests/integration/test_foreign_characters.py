"""A foreign character inserted into a puzzle line, or in place of a cell, is named with its column."""

from __future__ import annotations

import pytest

from tests.support.examples import (
    GOOD,
    GOOD_ANSWER,
    NEWSPAPER_LINE,
)
from tests.support.servers import ask

NOT_A_DIGIT = b"is not a digit 1-9 or an empty mark (. 0 _)"


INSERTED = [
    pytest.param(b"\xfe", b"byte 0xFE", id="invalid-utf8"),
    pytest.param(b"\x00", b"U+0000", id="nul"),
    pytest.param("\u200b".encode(), b"U+200B", id="zero-width-space"),
]


@pytest.mark.parametrize("inserted,named", INSERTED)
async def test_an_inserted_foreign_character_is_named_with_its_column(inserted, named):
    data = NEWSPAPER_LINE[:5].encode() + inserted + NEWSPAPER_LINE[5:].encode() + b"\n" + GOOD
    reply = await ask(data)
    first, rest = reply.split(b"\n", 1)
    assert first.startswith(b"ERROR format line 1, column 6: " + named + b" " + NOT_A_DIGIT), reply
    assert rest == GOOD_ANSWER


@pytest.mark.parametrize("inserted,named", INSERTED)
async def test_a_foreign_character_in_place_of_a_cell_is_named(inserted, named):
    # The replacing case, which works: the same characters, one cell replaced.
    data = NEWSPAPER_LINE[:5].encode() + inserted + NEWSPAPER_LINE[6:].encode() + b"\n" + GOOD
    assert (
        await ask(data) == b"ERROR format line 1, column 6: " + named + b" " + NOT_A_DIGIT + b" at r1c6\n" + GOOD_ANSWER
    )


TYPED_BACKSPACES = b"12345678\x08\x089\n"  # a person's two backspaces, sent raw by nc or a telnet client in line mode


async def test_a_backspace_typed_in_an_interactive_session_is_named_not_counted():
    """Break-session finding F12: ``INTERACTIVE`` then ``12345678<BS><BS>9`` was ``expected a row of 4, 6, 9, 16 or
    25 cells, found 11``: the backspaces, which a terminal does not show, counted as cells. The first control
    character is named with its column, as a foreign letter is, in ASCII (U+0008); the session goes on."""
    reply = await ask(b"INTERACTIVE\n" + TYPED_BACKSPACES + GOOD)
    assert reply == (
        b"INTERACTIVE on: no close grace; QUIT or end of input ends the session, or 300 s of silence\n"
        b"ERROR format line 2, column 9: U+0008 " + NOT_A_DIGIT + b"\n" + GOOD_ANSWER
    )


@pytest.mark.parametrize(
    ("data", "reply"),
    [
        (TYPED_BACKSPACES, b"ERROR format line 1, column 9: U+0008 " + NOT_A_DIGIT),
        (b"1234\x7f\n", b"ERROR format line 1, column 5: U+007F " + NOT_A_DIGIT),  # DEL, a terminal's backspace
        (b"1234567\x1b[A9\n", b"ERROR format line 1, column 8: U+001B " + NOT_A_DIGIT),  # an arrow key's escape
        (b"123456789\n" + TYPED_BACKSPACES, b"ERROR format line 2, column 9: U+0008 " + NOT_A_DIGIT),  # a grid's row
        (
            b"123456789ABCDEFG\n123456789ABCDEFG\x08\x08\n",
            b"ERROR format line 2, column 17: U+0008 is not a 16x16 symbol",
        ),
        (b"1 2 3 4 5 6 7 8 9 1 2 3\n", b"ERROR format line 1: expected a row of 4, 6, 9, 16 or 25 cells, found 12"),
    ],
    ids=["first-row", "del", "escape", "grid-row", "16x16-row", "no-control-character"],
)
async def test_a_control_character_in_a_row_of_a_wrong_count_is_named(data, reply):
    assert await ask(data + GOOD) == reply + b"\n" + GOOD_ANSWER
