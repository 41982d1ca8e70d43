"""HINT, STEPS, RATE and parse take a HoDoKu library line as a classic solving state (issue 30).

The state's givens, placed digits and candidates are read by
sudoku_server/text/hodoku.py (``Variant.state``); the path reasons under the
classic rules from its candidates, uniqueness techniques on and placed cells
apart from givens (avoidable rectangles), as ``HINT all`` does.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from sudoku_server.service.answer import answer
from sudoku_server.text import PuzzleReader
from sudoku_server.wire.replies import render
from sudoku_server.wire.verbs import check_arguments, parse_command

ROOT = Path(__file__).resolve().parents[2]
REGLIB = (ROOT / "puzzles" / "hodoku" / "reglib-1.4.txt").read_text("utf-8").splitlines()


def _sent(lineno: int) -> str:
    """reglib-1.4's line ``lineno`` as the conformance test sends it: ``:::<givens>:<deleted>:::``."""
    fields = REGLIB[lineno - 1].split(":")
    return ":::" + fields[3] + ":" + fields[4] + ":::"


def _reply(text: str, command: str) -> str:
    request = check_arguments(parse_command(command, 1, "\n"))
    (puzzle,) = PuzzleReader().feed_line(text, "\n", 2)
    error = getattr(puzzle, "error", None)
    if error is not None:
        return f"ERROR {error.code} {error}\n"
    request = dataclasses.replace(request, grid=puzzle.grid, variant=puzzle.variant or request.variant)
    return render(answer(request), "\n", puzzle).decode()


# reglib-1.4 line 882, 0600-1: a unique rectangle type 1 removes 2 and 3 from r2c7
UR = _sent(882)
# reglib-1.4 line 1027, 0607-1: an avoidable rectangle type 1 on placed r1c1 and r2c1 removes 9 from r2c9
AR1 = _sent(1027)
# reglib-1.4 line 1039, 0608-1: an avoidable rectangle type 2 removes 9 from r4c3, r7c2 and r8c2
AR2 = _sent(1039)


def test_hint_of_a_state_takes_the_unique_rectangle_hint_all_lists_first() -> None:
    assert _reply(UR, "HINT all").splitlines()[1] == (
        "STEP 0600 unique-rectangle-type-1 r2c7<>2 r2c7<>3 # unique rectangle type 1 on 2/3 in r2c7, r2c9, r9c7 and r9c9"
    )
    assert _reply(UR, "HINT") == (
        "HINT unique rectangle type 1 on 2 and 3 in r2c7, r2c9, r9c7, r9c9: remove 2 from r2c7; 3 from r2c7\n"
    )


def test_hint_of_a_state_takes_an_avoidable_rectangle_on_its_placed_cells() -> None:
    assert _reply(AR1, "HINT all").splitlines()[1] == (
        "STEP 0607 avoidable-rectangle-type-1 r2c9<>9 # avoidable rectangle type 1 on 9/7 in r1c1, r1c9, r2c1 and r2c9"
    )
    assert _reply(AR1, "HINT") == (
        "HINT avoidable rectangle type 1 on 9/7 in r1c1, r1c9, r2c1 and r2c9: remove 9 from r2c9\n"
    )
    assert _reply(AR2, "HINT all").splitlines()[1] == (
        "STEP 0608 avoidable-rectangle-type-2 r4c3<>9 r7c2<>9 r8c2<>9 # avoidable rectangle type 2 on 3/7 in r7c3,"
        " r7c7, r8c3 and r8c7"
    )
    assert _reply(AR2, "HINT") == (
        "HINT avoidable rectangle type 2 on 3/7 in r7c3, r7c7, r8c3 and r8c7: remove 9 from r4c3, r7c2, r8c2\n"
    )
    assert _reply(AR2, "HINT nudge") == "HINT avoidable rectangle type 2: look at box 7\n"


def test_the_same_digits_all_given_make_no_avoidable_rectangle() -> None:
    # AR1 with every placed digit given (its '+' marks dropped): no avoidable rectangle is left to find
    given = AR1.replace("+", "")
    assert "avoidable" not in _reply(given, "HINT")
    assert "avoidable" not in _reply(given, "HINT all")
