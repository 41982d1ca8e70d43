"""A grid left unfinished: a one-line puzzle, a command, SOLVE with its puzzle or a blank line inside it ends
it and is answered; QUIT after a half-typed grid ends an interactive session. Exact bytes.

Each test runs the server in process on 127.0.0.1 port 0 (``running_server``).
"""

from __future__ import annotations

from tests.support.examples import (
    GOOD,
    GOOD_ANSWER,
    INKALA,
    INKALA_SOLUTION,
    NEWSPAPER_LINE,
)
from tests.support.servers import ask

INTERACTIVE_ON = b"INTERACTIVE on: no close grace; QUIT or end of input ends the session, or 300 s of silence\n"


# The first two rows of the newspaper puzzle: a grid that is still waiting for 7 rows.
TWO_ROWS = (NEWSPAPER_LINE[:9] + "\n" + NEWSPAPER_LINE[9:18] + "\n").encode()


CUT_AT_3 = b"ERROR format line 3: the grid that starts at line 1 has 2 rows, expected 9\n"


CUT_AT_4 = b"ERROR format line 4: the grid that starts at line 2 has 2 rows, expected 9\n"


async def test_a_one_line_puzzle_inside_an_unfinished_grid_ends_it_and_is_answered():
    # What already works, and what the command lines below should do too.
    assert await ask(TWO_ROWS + GOOD + b"PING\nQUIT\n") == CUT_AT_3 + GOOD_ANSWER + b"PONG\nBYE\n"


async def test_a_blank_line_rescues_a_person_who_gives_up_on_a_grid():
    # The way out that works today: Enter on an empty line, then QUIT.
    data = b"INTERACTIVE\n" + TWO_ROWS + b"\nQUIT\n"
    assert await ask(data) == INTERACTIVE_ON + CUT_AT_4 + b"BYE\n"


async def test_commands_inside_an_unfinished_grid_end_it_and_are_answered():
    # Today: b"ERROR format line 3: expected 9 cells, found 4\n" and nothing else.
    assert await ask(TWO_ROWS + b"PING\nQUIT\n") == CUT_AT_3 + b"PONG\nBYE\n"


async def test_solve_with_its_puzzle_inside_an_unfinished_grid_is_answered():
    # Today: b"ERROR format line 3: expected 9 cells, found 86\n" and no answer for INKALA.
    data = TWO_ROWS + b"SOLVE " + INKALA.encode() + b"\n"
    assert await ask(data) == CUT_AT_3 + INKALA_SOLUTION.encode() + b"\n"


async def test_quit_after_a_half_typed_grid_ends_an_interactive_session():
    # Today: INTERACTIVE_ON + b"ERROR format line 4: expected 9 cells, found 4\n", no BYE
    # (without the half-close here the session would stay open for 300 s).
    data = b"INTERACTIVE\n" + TWO_ROWS + b"QUIT\n"
    assert await ask(data) == INTERACTIVE_ON + CUT_AT_4 + b"BYE\n"
