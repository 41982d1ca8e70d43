"""MINIMAL: the verb that showed the add-a-verb path (one request type, one handler row,
one result and its renderer, one row of the verb table), at every layer with exact values."""

from __future__ import annotations

import pytest
import trio

from sudoku_server.errors import InvalidPuzzleError, MultipleSolutionsError, UnsolvableError
from sudoku_server.service.answer import answer
from sudoku_server.service.requests import Minimal
from sudoku_server.service.results import Failed, MinimalChecked
from sudoku_server.sudoku.clues import redundant_givens
from sudoku_server.sudoku.grid import Grid
from sudoku_server.wire.replies import render
from sudoku_server.wire.session import PuzzleReceived, Session
from tests.support.servers import exchange, running_server

#: The first puzzle of puzzles/sudoku17_500.txt (Royle's minimal 17-clue puzzles).
SEVENTEEN = ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6..."
#: The same with r1c1 = 6 and r9c9 = 9 added from its solution: both are redundant, nothing else is.
NINETEEN = "6......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6..9"


def test_redundant_givens_of_a_minimal_and_a_padded_puzzle():
    assert redundant_givens(Grid.from_string(SEVENTEEN)) == ()
    assert redundant_givens(Grid.from_string(NINETEEN)) == (0, 80)


def test_redundant_givens_of_a_4x4():
    # minimal with its 6 givens; adding r4c4 = 1 from the solution makes that one redundant
    assert redundant_givens(Grid.from_string("......12.1.3.32.")) == ()
    assert redundant_givens(Grid.from_string("......12.1.3.321")) == (15,)


@pytest.mark.parametrize(
    "text, error",
    [
        ("11" + "." * 79, InvalidPuzzleError("duplicate 1 in row 1 at r1c1 and r1c2")),
        ("." * 81, MultipleSolutionsError("the puzzle has more than one solution (r8c3 can be 2 or 8)")),
    ],
)
def test_answer_minimal_fails_as_the_other_technique_verbs(text, error):
    assert answer(Minimal(Grid.from_string(text))) == Failed(error)


def test_answer_minimal_of_an_unsolvable_puzzle():
    puzzle = Grid.from_string("12345678." + "........9" + "." * 63)
    assert answer(Minimal(puzzle)) == Failed(UnsolvableError("no digit fits r1c9"))


def test_answer_and_render():
    assert answer(Minimal(Grid.from_string(NINETEEN))) == MinimalChecked((0, 80), 9)
    assert render(MinimalChecked((0, 80), 9), "\r\n") == b"MINIMAL no r1c1 r9c9\r\n"
    assert render(MinimalChecked((), 9), "\n") == b"MINIMAL yes\n"
    assert render(MinimalChecked((255,), 16), "\n") == b"MINIMAL no r16c16\n"


def test_the_session_routes_minimal_with_its_puzzle_on_the_line_or_after_it():
    (event,) = Session().receive_data(f"MINIMAL {NINETEEN}\n".encode())
    assert isinstance(event, PuzzleReceived) and event.request == Minimal(Grid.from_string(NINETEEN))
    events = Session().receive_data(b"minimal\n" + SEVENTEEN.encode() + b"\n")
    assert [type(e) for e in events] == [PuzzleReceived]
    assert events[0].request == Minimal(Grid.from_string(SEVENTEEN))


async def test_minimal_over_a_socket():
    with trio.fail_after(20):
        async with running_server() as server:
            reply = await exchange(
                server,
                f"MINIMAL {SEVENTEEN}\nMINIMAL {NINETEEN}\nMINIMAL 11{'.' * 79}\nHELP MINIMAL\n".encode(),
            )
    assert reply == (
        b"MINIMAL yes\n"
        b"MINIMAL no r1c1 r9c9\n"
        b"ERROR invalid duplicate 1 in row 1 at r1c1 and r1c2\n"
        b"HELP MINIMAL [rules=R] <puzzle>\n"
        b"  whether a puzzle with one solution is minimal: the givens each of which could go alone,"
        b" the puzzle staying unique\n"
        b"  example: MINIMAL <puzzle> -> MINIMAL no r1c1 r5c6\n"
        b"END\n"
    )


def test_minimal_of_a_solving_state_is_that_of_its_givens():
    """A HoDoKu library line's placed cells (``+``) and deleted candidates are progress, not clues:
    with its candidates frozen every given would look removable (break-session finding)."""
    (state,) = Session().receive_data(b"MINIMAL :::" + NINETEEN.encode() + b"::::\n")
    assert isinstance(state, PuzzleReceived)
    assert render(answer(state.request), "\n") == b"MINIMAL no r1c1 r9c9\n"
    # the same puzzle with two cells of its solution placed and a candidate deleted
    placed = NINETEEN[0] + "+9+3" + NINETEEN[3:]
    (state,) = Session().receive_data(f"MINIMAL :::{placed}:522:::\n".encode())
    assert isinstance(state, PuzzleReceived)
    assert render(answer(state.request), "\n") == b"MINIMAL no r1c1 r9c9\n"
