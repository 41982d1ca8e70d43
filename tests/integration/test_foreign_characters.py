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
