"""HoDoKu library lines read as solving states (sudoku_server/text/hodoku.py, docs/LAYOUTS.md)."""

from __future__ import annotations

import pytest

from sudoku_server.errors import PuzzleFormatError
from sudoku_server.text import PuzzleReader
from sudoku_server.text.hodoku import parse_effects, read_case, state_of

# reglib-1.4's example 2 (its header): a uniqueness test type 4 on 3
LINE = (
    ":0603:3:14+8..+9+72+5.+3...89.697+6....38.+61......3+2.8.56...9......2.5+9+186....+8+3....61+6+1...35+89"
    ":224 524 225 525 135 455 755 458 758 165 168 771 284 484 784 285 485 785:364 365::"
)


def test_a_library_line_is_a_state_with_givens_placed_and_deleted_candidates() -> None:
    case = read_case(LINE)
    assert (case.code, case.base, case.fail) == ("0603", "0603", False)
    st = case.state
    assert st.values[:9] == (1, 4, 8, 0, 0, 9, 7, 2, 5)
    assert st.given[:9] == (True, True, False, False, False, False, False, True, False)
    # r2c4: 2 and 5 deleted; the peers leave 2 4 5 7 -> 4 7
    assert [d + 1 for d in range(9) if st.candidates[12] >> d & 1] == [4, 7]
    assert case.eliminations == ((48, 3), (49, 3))  # r6c4<>3, r6c5<>3
    assert case.placements == ()


def test_the_reader_gives_the_state_as_a_puzzle_and_keeps_given_apart_from_placed() -> None:
    (puzzle,) = PuzzleReader().feed_line(LINE, "\n", 1)
    assert puzzle.layout == "hodoku"
    st = state_of(puzzle.grid, puzzle.variant)
    assert st == read_case(LINE).state


def test_a_bad_token_is_named() -> None:
    bad = LINE.replace(":224 524", ":224 5x4")
    (event,) = PuzzleReader().feed_line(bad, "\n", 3)
    assert str(event.error) == "line 3: '5x4' is not <digit><row><col> (three digits 1-9)"
    with pytest.raises(PuzzleFormatError, match="the givens hold 80 cells, not 81"):
        read_case(":0000::" + "." * 80 + "::::")
    # a character of no kind names its cell and what may stand there (break-session finding: it named neither)
    (event,) = PuzzleReader().feed_line(":0000::" + "_" * 81 + ":::", "\n", 1)
    assert str(event.error) == (
        "line 1: '_' at character 1 of the givens (r1c1) is not a digit 1-9, an empty mark (. 0) or + before a"
        " placed digit"
    )


def test_effect_tokens() -> None:
    assert parse_effects("436 257") == ((23, 4), (42, 2))
