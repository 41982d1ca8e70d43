"""A word after SOLVE, HINT, COUNT or RATE is an unknown option, whatever follows; the known flags and
word-like puzzle rows still work.
"""

from __future__ import annotations

import pytest

from tests.support.examples import INKALA, INKALA_SOLUTION
from tests.support.servers import ask


@pytest.mark.parametrize("verb", ["SOLVE", "HINT", "COUNT", "RATE"])
async def test_a_word_after_a_puzzle_verb_is_an_unknown_option(verb):
    reply = await ask(f"{verb} fast {INKALA}\n{verb} fast\n".encode())
    line = f'ERROR command {verb}: unknown option "fast"; try HELP {verb}\n'
    assert reply == (line * 2).encode()


async def test_known_flags_and_word_like_puzzles_still_work():
    letters16 = "ABCD EFGH IJKL MNOP"  # a letters row: a grid, not an option, as before
    reply = await ask(f"SOLVE any {INKALA}\nHINT nudge {INKALA}\nSOLVE {INKALA}\nSOLVE {letters16}\n".encode())
    lines = reply.decode().splitlines()
    assert lines[0] == INKALA_SOLUTION
    assert lines[1].startswith("HINT ") and "look at" in lines[1]
    assert lines[2] == INKALA_SOLUTION
    assert lines[3] == (
        "ERROR command SOLVE: the puzzle on its line must be a whole one-line puzzle; put a grid on the lines after SOLVE"
    )
