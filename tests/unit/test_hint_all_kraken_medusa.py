"""``HINT all``'s Kraken fish (0371/0372, held to HoDoKu 2.2.0), 3D Medusa (0507) and BUG Lite (0620)."""

from __future__ import annotations

import dataclasses

import pytest

from sudoku_server.errors import CommandError
from sudoku_server.service.answer import answer
from sudoku_server.text import PuzzleReader
from sudoku_server.wire.replies import render
from sudoku_server.wire.verbs import check_arguments, parse_command

# reglib-1.4 states (their fields blanked as the conformance test sends them)
KRAKEN = ":::+27+961+3+5+8+453+69+8+47+1+2+1+84+5+7+23+6+9+7+15+2+3+9+64+8+34876192+5+69+2+4+5+81+3+7+8.7.+2+54+9.+4.1+3+97.56..+3.46.7.::::"
MEDUSA = ":::+6+3+42+8+9...8+7531+6+2+9+42+91+7+5+4+6+38+349+16+58+7+2+5+8+79+42..+6+1+62+83+754+97+5+8+4+2+39+61+9.+6+5784+23+4+2+3+6+91...::::"
BUG_LITE = (
    ":::5694+23+1+78+241+86+7+93+5......+2...8+2.+7...9.1.932.8.7+9..+4+8.2+1+1.+4+2...+5+3.2.+31.49+79..7.4612::::"
)


def _lines(text: str, *codes: str, command: str = "HINT all") -> list[str]:
    request = check_arguments(parse_command(command, 1, "\n"))
    (puzzle,) = PuzzleReader().feed_line(text, "\n", 2)
    request = dataclasses.replace(request, grid=puzzle.grid, variant=puzzle.variant or request.variant)
    out = render(answer(request), "\n", puzzle).decode()
    return [line for line in out.splitlines() if line.split(" ")[1:2] and line.split(" ")[1] in codes]


def test_kraken_fish_are_hodokus_at_a_library_state() -> None:
    """HoDoKu 2.2.0's ``getAllKrakenFishes`` (its "find all steps" defaults, run through
    ``benchmarks/hodoku/KrakenDriver.java``) gives exactly these five Type 2 eliminations here and no Type 1.

    Base columns 4 and 7, cover row 8 and box 9 on 8: the fin r9c4 sees no cover candidate outside the base,
    so the finned fish removes nothing. Without the fin, row 8's base candidate r8c7 is 8; so r8c7 or r9c4 is
    8, and HoDoKu's chain tables lead from each (r8c7=8 gives r8c7<>2 at once, r9c4=8 gives r9c4<>1) to
    each candidate listed. The same fish the other way (cover row 9 and box 8, fin r8c7) removes r9c4's 1.
    """
    lead = (
        "Kraken fish type 2 on 8: Franken X-Wing base column 4 and column 7; cover row 8 and box 9; fins r9c4; "
        "one of row 8's base candidates or a fin holds 8, and each leads by a chain to "
    )
    assert _lines(KRAKEN, "0371", "0372", command="HINT all kraken") == [
        f"STEP 0372 Kraken-fish-type-2 r7c9<>1 # {lead}r7c9<>1",
        f"STEP 0372 Kraken-fish-type-2 r8c7<>2 # {lead}r8c7<>2",
        f"STEP 0372 Kraken-fish-type-2 r9c2<>2 # {lead}r9c2<>2",
        f"STEP 0372 Kraken-fish-type-2 r9c7<>8 # {lead}r9c7<>8",
        "STEP 0372 Kraken-fish-type-2 r9c4<>1 # Kraken fish type 2 on 8: Franken X-Wing base column 4 and column 7;"
        " cover row 9 and box 8; fins r8c7; one of box 8's base candidates or a fin holds 8, and each leads by a"
        " chain to r9c4<>1",
    ]


def test_kraken_fish_only_when_asked() -> None:
    """HoDoKu's "find all steps" keeps Kraken fish off by default; so does ``HINT all`` (they double its time)."""
    assert _lines(KRAKEN, "0371", "0372") == []
    with pytest.raises(CommandError, match=r"^HINT: kraken goes with all \(HINT all kraken <puzzle>\)$"):
        check_arguments(parse_command("HINT kraken", 1, "\n"))


def test_3d_medusa_cell_emptied_by_a_colour() -> None:
    """Box 3 and r9: r1c7 {1,7}, r1c8 {1,5}, r1c9 {5,7}, r5c7 {1,3}, r5c8 {1}, r9c7 {7}, r9c8 {5,8},
    r9c9 {5,7}. Colouring the strong links (bivalue cells, digits twice in a unit) from r1c7=1 (A): r1c7=7 (B),
    r1c9=7 (A), r1c9=5 (B), r1c8=5 (A), r1c8=1 (B), r5c7=1 (B, with r1c7's 1 in column 7) ... Rule 6: r5c8's
    only candidate 1 sees r1c8=1 and r5c7=1, both B: were B true, r5c8 would be empty, so B is false and
    each of its six candidates goes."""
    assert _lines(MEDUSA, "0507") == [
        "STEP 0507 3D-Medusa r1c7<>7 r1c8<>1 r1c9<>5 r5c7<>1 r9c8<>5 r9c9<>7 # 3D Medusa: colour A r1c7=1, r1c8=5,"
        " r1c9=7, r5c7=3, r5c8=1, r9c7=7, r9c8=8 and r9c9=5; colour B r1c7=7, r1c8=1, r1c9=5, r5c7=1, r9c8=5 and"
        " r9c9=7; colour B is false: every candidate of r5c8 sees its digit in it"
    ]


def test_bug_lite_plus_one() -> None:
    """r3c8, r3c9, r4c8, r5c1, r5c9 are {4,6} and r4c1 {3,4,6}. In rows 3, 4, 5, columns 1, 8, 9 and boxes 3,
    4, 6 these six cells hold 4 and 6 exactly twice each: with r4c1 4 or 6 the six cells could swap 4 and 6
    (two solutions). So r4c1 is 3: its 4 and 6 go."""
    assert _lines(BUG_LITE, "0620") == [
        "STEP 0620 BUG-Lite r4c1<>4 r4c1<>6 # BUG Lite: r4c1(46), r4c8(46), r5c1(46), r3c8(46), r5c9(46) and"
        " r3c9(46) would have two solutions, so r4c1 holds neither 4 nor 6"
    ]
