"""A caption right above a grid (``Today's puzzle:``) is skipped whatever its first word; prose that is not
right above a puzzle keeps its error.
"""

from __future__ import annotations

import pytest

from tests.support.examples import INKALA, INKALA_SOLUTION
from tests.support.servers import ask

NOT_A_DIGIT = "is not a digit 1-9 or an empty mark (. 0 _)"


BORDERED = "+-------+-------+-------+\n" + "".join(
    "| "
    + " | ".join(" ".join(INKALA[r * 9 + c * 3 : r * 9 + c * 3 + 3]) for c in range(3))
    + " |\n"
    + ("+-------+-------+-------+\n" if r % 3 == 2 else "")
    for r in range(9)
)


BORDERED_ANSWER = (
    "+-------+-------+-------+\n"
    + "".join(
        "| "
        + " | ".join(" ".join(INKALA_SOLUTION[r * 9 + c * 3 : r * 9 + c * 3 + 3]) for c in range(3))
        + " |\n"
        + ("+-------+-------+-------+\n" if r % 3 == 2 else "")
        for r in range(9)
    )
    + "\n"
)


PLAIN = "".join(INKALA[r * 9 : r * 9 + 9] + "\n" for r in range(9))


PLAIN_ANSWER = "".join(INKALA_SOLUTION[r * 9 : r * 9 + 9] + "\n" for r in range(9)) + "\n"


@pytest.mark.parametrize("caption", ["Today's puzzle:", "Here is today's puzzle:", "Sudoku 2024-06-01 (hard)"])
@pytest.mark.parametrize("grid,answer", [(BORDERED, BORDERED_ANSWER), (PLAIN, PLAIN_ANSWER)], ids=["bordered", "plain"])
async def test_a_caption_right_above_a_grid_is_skipped_whatever_its_first_word(caption, grid, answer):
    assert await ask((caption + "\n" + grid).encode()) == answer.encode()


@pytest.mark.parametrize(
    "text,reply",
    [
        ("Today's puzzle:\n\n", "ERROR format line 1, column 1: 'T' " + NOT_A_DIGIT + "\n"),  # a blank line between
        ("Here is today's puzzle:\n\n", 'ERROR command unknown verb "HERE"; try HELP\n'),
        ("hello\n", 'ERROR command unknown verb "HELLO"; try HELP\n'),  # one word: a mistyped verb, not a caption
        ("COUNTT limit=5\n", 'ERROR command unknown verb "COUNTT"; try HELP\n'),
    ],
)
async def test_prose_not_right_above_a_puzzle_keeps_its_error(text, reply):
    assert await ask((text + PLAIN).encode()) == (reply + PLAIN_ANSWER).encode()
