"""``HINT all``: every step at a solving state, one STEP line each with HoDoKu's code (issue 30)."""

from __future__ import annotations

import dataclasses

import pytest

from sudoku_server.errors import CommandError
from sudoku_server.service.answer import answer
from sudoku_server.service.results import HintedAll
from sudoku_server.sudoku.techniques.every_als import carried_on
from sudoku_server.text import PuzzleReader
from sudoku_server.wire.json_hint_all import all_object
from sudoku_server.wire.replies import render
from sudoku_server.wire.verbs import check_arguments, parse_command

SOLUTION = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
TWO_LEFT = "." + SOLUTION[1:40] + "." + SOLUTION[41:]
# reglib-1.4's first X-Wing case, its fields blanked as the conformance test sends it
X_WING = ":::9.....+5+6+1..+6.+1.7+937+1..962486...2+147+9........5....4...642..+586+1+75.71.+2..+4..1....+52::::"


def _answer(text: str, command: str = "HINT all") -> tuple[object, str]:
    request = check_arguments(parse_command(command, 1, "\n"))
    (puzzle,) = PuzzleReader().feed_line(text, "\n", 2)
    request = dataclasses.replace(request, grid=puzzle.grid, variant=puzzle.variant or request.variant)
    result = answer(request)
    return result, render(result, "\n", puzzle).decode()


def test_every_single_of_every_kind_one_line_each_in_hodokus_order() -> None:
    assert _answer(TWO_LEFT)[1] == (
        "HINT all 8 steps\n"
        "STEP 0000 full-house r1c1=1 # full house: r1c1 is the last empty cell of row 1\n"
        "STEP 0000 full-house r5c5=9 # full house: r5c5 is the last empty cell of row 5\n"
        "STEP 0003 naked-single r1c1=1 # naked single: 1 is the only candidate of r1c1\n"
        "STEP 0003 naked-single r5c5=9 # naked single: 9 is the only candidate of r5c5\n"
        "STEP 0002 hidden-single r1c1=1 # hidden single: r1c1 is the only place for 1 in box 1\n"
        "STEP 0002 hidden-single r5c5=9 # hidden single: r5c5 is the only place for 9 in box 5\n"
        "STEP 1201 template-set r1c1=1 # template set: every template of 1 holds r1c1\n"
        "STEP 1201 template-set r5c5=9 # template set: every template of 9 holds r5c5\n"
        "END\n"
    )


def test_the_first_cells_left_empty_get_their_singles() -> None:
    """Break-session finding: with r1c1 (or r1c1 and r1c2) the only empty cells, the grouped chains looked up a
    candidate past their last node (``IndexError``, ``ERROR internal``)."""
    solution = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
    assert _answer("." + solution[1:])[1] == (
        "HINT all 4 steps\n"
        "STEP 0000 full-house r1c1=8 # full house: r1c1 is the last empty cell of row 1\n"
        "STEP 0003 naked-single r1c1=8 # naked single: 8 is the only candidate of r1c1\n"
        "STEP 0002 hidden-single r1c1=8 # hidden single: r1c1 is the only place for 8 in box 1\n"
        "STEP 1201 template-set r1c1=8 # template set: every template of 8 holds r1c1\n"
        "END\n"
    )
    assert _answer(".." + solution[2:])[1].splitlines()[:3] == [
        "HINT all 8 steps",
        "STEP 0000 full-house r1c1=8 # full house: r1c1 is the last empty cell of column 1",
        "STEP 0000 full-house r1c2=1 # full house: r1c2 is the last empty cell of column 2",
    ]


def test_a_placed_cell_of_a_library_line_is_filled() -> None:
    line = ":0000::+1" + SOLUTION[1:40] + "." + SOLUTION[41:] + ":555:::"
    assert _answer(line)[1] == (
        "HINT all 4 steps\n"
        "STEP 0000 full-house r5c5=9 # full house: r5c5 is the last empty cell of row 5\n"
        "STEP 0003 naked-single r5c5=9 # naked single: 9 is the only candidate of r5c5\n"
        "STEP 0002 hidden-single r5c5=9 # hidden single: r5c5 is the only place for 9 in box 5\n"
        "STEP 1201 template-set r5c5=9 # template set: every template of 9 holds r5c5\n"
        "END\n"
    )


def test_the_x_wing_of_a_library_state_is_one_line_one_token_per_cell() -> None:
    result, text = _answer(X_WING)
    assert (
        "STEP 0300 X-Wing r1c3<>3 r1c4<>3 r4c3<>3 r4c4<>3 r5c3<>3 r5c4<>3 r6c3<>3 r6c4<>3 r9c4<>3"
        " # X-Wing on 3 in rows 3 and 7, columns 3 and 4\n"
    ) in text
    assert text.startswith("HINT all ") and text.endswith("\nEND\n")
    assert isinstance(result, HintedAll)
    first = all_object(result)["steps"][0]
    assert first["code"] == "0300" and first["technique"] == "X-Wing"
    assert first["eliminations"][0] == {"cell": "r1c3", "digit": 3}


def test_all_and_nudge_do_not_go_together() -> None:
    with pytest.raises(CommandError, match="HINT: all and nudge do not go together"):
        check_arguments(parse_command("HINT all nudge", 1, "\n"))


def test_a_pencilmark_line_is_a_state_too() -> None:
    # the 729-character form of TWO_LEFT: each filled cell its digit alone, each empty cell every digit
    line = "".join("123456789" if ch == "." else "." * (int(ch) - 1) + ch + "." * (9 - int(ch)) for ch in TWO_LEFT)
    assert _answer(line)[1] == _answer(TWO_LEFT)[1]


# reglib-1.4 line 1446 (0903-1, ALS-XY-Chain), its fields blanked: HoDoKu's step removes 6 from r1c1 and 9 from
# r1c1, r1c2 and r2c7
ALS_CHAIN = (
    ":::..+1.3+7......2+1+8.577.....81.1.9+3+65....6..+74.3.....82.....87....44.....+78..37+8+415..:"
    "212 412 914 932 533 934 939 277 677 977 582 984 289 689 989:::"
)


def test_the_als_chain_of_a_library_state_is_hodokus_step() -> None:
    text = _answer(ALS_CHAIN)[1]
    assert [line for line in text.split("\n") if line.startswith("STEP 0903 ")] == [
        "STEP 0903 ALS-XY-Chain r1c1<>6 r1c1<>9 r1c2<>9 r2c7<>9 # ALS-XY-Chain: r1c4, r1c7, r1c8 and r1c9"
        " {2,4,5,6,9} -{5}- r3c5 {5,9} -{9}- r7c5, r8c4 and r8c5 {2,5,6,9} -{6}- r5c3 and r8c3 {2,5,6} -{2}-"
        " r2c1, r2c2, r2c3 and r3c3 {2,3,4,6,9}"
    ]


@pytest.mark.parametrize(
    ("before", "c1", "c2", "after"),
    [
        (1 << 4, 4, -1, 0),  # the one common was carried into the ALS: the chain stops
        (1 << 4, 6, -1, 1 << 6),
        (1 << 4, 4, 6, 1 << 6),  # two commons: the one not carried in goes on
        (1 << 6, 4, 6, 1 << 4),
        (1 << 2, 4, 6, 1 << 4 | 1 << 6),  # neither carried in: both go on
        (1 << 4 | 1 << 6, 4, 6, 1 << 6),  # two carried in: HoDoKu checks the first alone
    ],
)
def test_an_als_chain_link_carries_what_hodoku_carries(before: int, c1: int, c2: int, after: int) -> None:
    assert carried_on(before, c1, c2) == after


# reglib-1.4 line 1298 (0710-4, a grouped discontinuous nice loop through an ALS), its fields blanked
ALS_NODE_LOOP = (
    ":::.+1+5.......4+29...5...64+51+273.7+4.8.9....31.45....1.9..2.43+76.58...2+9+8.7.4...+8.+4+9...:"
    "811 911 316 821 851 852 661 669 869 179 197:::"
)


def test_a_nice_loop_through_an_als_node_is_hodokus_step() -> None:
    text = _answer(ALS_NODE_LOOP)[1]
    assert (
        "STEP 0710 grouped-discontinuous-nice-loop r4c4<>3 # grouped discontinuous nice loop: (3)r4c4-(5)r4c4"
        "=(5)r4c1-(5)ALS[r6c1, r6c2 and r6c6]=(3)ALS[r6c1, r6c2 and r6c6]-(3)r4c4\n"
    ) in text


# reglib-1.4 line 836 (0404): HoDoKu pairs two kites through the same two box cells, here on two digits
DUAL_KITE = (
    ":::.....89.....62..1.......6387....45.6.1.....4.4.93..+1.7951.......8+7.41.+6..+468....+1:"
    "211 311 212 213 321 231 251 351 353 554 555 556 284 289 389 298 798:::"
)
# reglib-1.4 line 1438 (0902-2): an ALS-XY-Wing whose wings overlap (r8c4 and r9c4)
OVERLAPPING_WINGS = (
    ":::..+9......2.....3495...3926..9.........41..+98....598..4..182...6......7....3..6...:"
    "111 711 811 112 712 812 714 515 715 516 716 722 625 725 726 739 341 744 348 352 652 752 162 262 663 683 883"
    " 586 589 794:::"
)


def test_a_dual_kite_pairs_kites_through_the_same_box_cells_on_any_digits() -> None:
    text = _answer(DUAL_KITE)[1]
    assert [line for line in text.split("\n") if line.startswith("STEP 0404 ")] == [
        "STEP 0404 dual-two-string-kite r1c4<>5 r4c4<>9 # dual two-string kite on 5/9 through r8c9 and r9c8 (box 9)"
    ]


def test_als_xy_wings_may_overlap_as_hodoku_allows() -> None:
    text = _answer(OVERLAPPING_WINGS)[1]
    assert (
        "STEP 0902 ALS-XY-Wing r7c6<>3 r8c8<>3 r8c9<>3 # ALS-XY-Wing: pivot r2c3, r3c3, r6c3 and r8c3 {2,5,6,7,8},"
        " r8c4, r8c5, r8c6 and r9c4 {1,3,4,5,9}, r2c4, r3c4, r8c4 and r9c4 {3,4,6,7,9}\n"
    ) in text


# reglib-1.4 line 1225 (0708-2): the shortest chain between the ends enters r1c7 twice; the search again
# without the candidate it re-entered by, (8)r1c7, gives HoDoKu's AIC
AIC_AROUND_A_CELL = ":::..+2....5...+4+52.1..+5.38..+2..+3+9+86+5+7+4+122+5+74+18+6934+61.+9.+7851+3+9...+5..+8+26+1359+47745.....+1::::"
# reglib-1.4 lines 1267 and 1271 (0710-1): "r7c7 is not 7" (r1c1 not 5) leads to "it is" only by a chain
# that goes through (7)r6c7 twice (through (5)r1c3 twice); searched again without its second use
PLACING_LOOP_1267 = ":::+3+745+2+68+91...3+9+1.7.619..+4+2+3+5...6.9+3..736+2.5.......4+3..2...+1.+8.23...+9.21.....4.7...:448 449 967:::"
PLACING_LOOP_1271 = (
    ":::.6....7...+3.7...56..7536+28.3..+26..9.2...1...8.4..7...2+72.3891+6.18.+6.2...+6.3+1.+7+82.:"
    "411 113 413 813 913 914 415 423 923 425 549 587 589:::"
)


def test_an_aic_whose_shortest_chain_reenters_a_cell_is_searched_again() -> None:
    text = _answer(AIC_AROUND_A_CELL)[1]
    assert (
        "STEP 0708 AIC r1c7<>8 r9c7<>3 # AIC (7 links): (3)r1c7=(3)r2c8-(7)r2c8=(7)r2c2-(8)r2c2=(8)r2c9"
        "-(8)r7c9=(8)r9c7\n"
    ) in text


def test_a_grouped_loop_placing_a_digit_avoids_a_candidate_used_twice() -> None:
    lines = [line for line in _answer(PLACING_LOOP_1267)[1].split("\n") if line.startswith("STEP 0710 ")]
    lines = [line for line in lines if "r7c7<>4 r7c7<>5" in line]
    assert lines == [
        "STEP 0710 grouped-discontinuous-nice-loop r7c7<>4 r7c7<>5 r7c7<>6 r7c7<>9 # grouped discontinuous nice"
        " loop: (7)r7c7=(7)r6c7-(7)ALS[r5c5 and r6c4]=(1)ALS[r5c5 and r6c4]-(1)ALS[r4c9, r5c7, r5c8 and r5c9]"
        "=(7)ALS[r4c9, r5c7, r5c8 and r5c9]-(7)r8c9=(7)r7c7"
    ]
    lines = [line for line in _answer(PLACING_LOOP_1271)[1].split("\n") if line.startswith("STEP 0710 ")]
    lines = [line for line in lines if "r1c1<>8 r1c1<>9" in line]
    assert lines == [
        "STEP 0710 grouped-discontinuous-nice-loop r1c1<>8 r1c1<>9 # grouped discontinuous nice loop:"
        " (5)r1c1=(5)r1c3-(2)r1c3=(2)r1c5-(2)r2c5=(9)r2c5-(9)r2c7=(9)r8c7-(9)r8c3=(9)r9c2-(5)r9c2=(5)r45c2"
        "-(5)r6c1=(5)r1c1"
    ]


# reglib-1.4 line 1289 (0710-3): the loop placing 7 in r9c4 is found once the ALS and group nodes holding
# (7)r9c4 itself are left out, and then the literals used twice, four times over
PLACING_LOOP_1289 = (
    ":::5+67...+21+4...56+4+387+3+8427+1+5+9+6.......6+9......8+35....5..42.32.9+54+7+11..3+4.+9+2+8.....265+3::::"
)


def test_a_grouped_loop_placing_a_digit_leaves_out_the_nodes_through_its_cell() -> None:
    lines = [line for line in _answer(PLACING_LOOP_1289)[1].split("\n") if line.startswith("STEP 0710 ")]
    assert [line for line in lines if "r9c4<>1 r9c4<>8" in line] == [
        "STEP 0710 grouped-discontinuous-nice-loop r9c4<>1 r9c4<>8 # grouped discontinuous nice loop:"
        " (7)r9c4=(7)r9c12-(7)ALS[r7c1, r8c2 and r8c3]=(8)ALS[r7c1, r8c2 and r8c3]-(8)ALS[r2c3, r5c3 and r9c3]"
        "=(6)ALS[r2c3, r5c3 and r9c3]-(6)r8c3=(6)r8c6-(7)r8c6=(7)r9c4"
    ]


# reglib-1.4 line 1480 (0904-2), its fields blanked: HoDoKu's one death blossom removes 6 and 7 from r5c2
DEATH_BLOSSOM = (
    ":::+9..12.+4..24.3.8.1......4.7..24..38..5..+2...+94..94..32..1.7+4+9....8+25+31.49+4+9.+862...:"
    "513 519 619 523 627 631 632 533 633 539 639 657 761 579 679 399 599:::"
)


def test_a_death_blossom_removing_two_digits_is_one_step() -> None:
    text = _answer(DEATH_BLOSSOM)[1]
    assert [line for line in text.split("\n") if line.startswith("STEP 0904 ")] == [
        "STEP 0904 death-blossom r5c2<>6 r5c2<>7 # death blossom: stem r3c1, petals r4c1, r6c1 and r6c2;"
        " r1c2, r3c2 and r6c2; r4c1, r6c1 and r6c2"
    ]
