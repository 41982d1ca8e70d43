"""Issue 19: the variant layouts read by the text layer (jigsaw, SudoCue killer, cage block, pencilmark).

Exact values: the variant each layout implies (regions, cages, candidates),
the answer's bytes in the givens' layout, and each format error's words.
The wire and the socket: tests/unit/test_variant_wire.py.
"""

from __future__ import annotations

import pytest

from sudoku_server.errors import PuzzleFormatError
from sudoku_server.sudoku.grid import Grid
from sudoku_server.sudoku.variants import Cage, Variant, variant_geometry
from sudoku_server.text import Puzzle, PuzzleReader, Rejected
from tests.support.variant_examples import (
    CAGE_ROWS,
    CAGE_SUMS,
    INKALA,
    INKALA_ANSWER,
    INKALA_PENCILMARKS,
    JIGSAW_ANSWER,
    JIGSAW_GIVENS,
    JIGSAW_REGIONS,
    KILLER_ANSWER,
    SUDOCUE,
)


def read(text: str, rules: tuple[str, ...] = ()) -> list[Puzzle | Rejected]:
    reader = PuzzleReader()
    reader.rules = frozenset(rules)
    events: list[Puzzle | Rejected] = []
    for number, raw in enumerate(text.splitlines(keepends=True), start=1):
        body = raw.rstrip("\r\n")
        events.extend(reader.feed_line(body, raw[len(body) :], number))
    return events + reader.finish()


def one(text: str, rules: tuple[str, ...] = ()) -> Puzzle:
    (event,) = read(text, rules)
    assert isinstance(event, Puzzle), event
    return event


def error(text: str, rules: tuple[str, ...] = ()) -> str:
    (event,) = read(text, rules)
    assert isinstance(event, Rejected), event
    return f"{event.error.code} {event.error.detail}"


def grid_of(answer: str) -> Grid:
    return Grid(tuple(int(ch) for ch in answer), 3, 3)


# -- jigsaw --------------------------------------------------------------------------


def test_a_jigsaw_line_is_givens_then_regions_and_answers_one_line_of_digits():
    puzzle = one(JIGSAW_GIVENS + JIGSAW_REGIONS + "\r\n")
    assert puzzle.layout == "jigsaw-line"
    assert puzzle.grid.cells == tuple(0 if ch == "." else int(ch) for ch in JIGSAW_GIVENS)
    variant = puzzle.variant
    assert variant is not None and variant.rules == ("jigsaw",)
    assert variant.region_symbols == tuple("abcdefhgi")  # numbered in order of first appearance (h before g)
    assert variant.regions == tuple("abcdefhgi".index(ch) for ch in JIGSAW_REGIONS)
    assert puzzle.render(grid_of(JIGSAW_ANSWER)) == JIGSAW_ANSWER + "\r\n"  # never the regions


@pytest.mark.parametrize("symbol", ["|", "#", ",", ":"])
def test_a_jigsaw_line_with_a_layout_character_for_a_region_symbol_names_it(symbol):
    """Break-session finding: ``|`` for region a was read as a border, and the error named a good ``b`` at column
    85 (``#`` started a comment: the regions were dropped, and the classic puzzle answered)."""
    regions = JIGSAW_REGIONS.replace(JIGSAW_REGIONS[0], symbol)
    assert error(JIGSAW_GIVENS + regions + "\n") == (
        f"format line 1, column 82: '{symbol}' is not a region symbol (region symbols are any characters but blanks,"
        " | # , and :)"
    )


def test_a_jigsaw_grid_needs_the_rule_then_takes_the_region_grid_after_it():
    givens = "\n".join(JIGSAW_GIVENS[r * 9 : r * 9 + 9] for r in range(9)) + "\n"
    regions = "\n".join(" ".join(JIGSAW_REGIONS[r * 9 : r * 9 + 9]) for r in range(9)) + "\n"
    puzzle = one(givens + "\n" + regions, ("jigsaw",))  # a blank line between the two grids
    assert puzzle.layout == "jigsaw-grid" and puzzle.first_line == 1
    assert puzzle.variant is not None and puzzle.variant.regions == one(JIGSAW_GIVENS + JIGSAW_REGIONS).variant.regions
    rows = "".join(JIGSAW_ANSWER[r * 9 : r * 9 + 9] + "\n" for r in range(9))
    assert puzzle.render(grid_of(JIGSAW_ANSWER)) == rows + "\n"
    # without the rule the two grids are two puzzles (today's reading): the second is no puzzle of digits
    events = read(givens + regions)
    assert isinstance(events[0], Puzzle) and events[0].variant is None
    assert len(events) == 10 and isinstance(events[1], Rejected)
    assert events[1].error.detail == "line 10, column 1: 'a' is not a digit 1-9 or an empty mark (. 0 _)"


def test_a_region_grid_cut_short_or_with_a_bad_row_names_its_line():
    givens = "".join(JIGSAW_GIVENS[r * 9 : r * 9 + 9] + "\n" for r in range(9))
    regions = [JIGSAW_REGIONS[r * 9 : r * 9 + 9] + "\n" for r in range(9)]
    assert error(givens + "".join(regions[:3]), ("jigsaw",)) == (
        "incomplete input ended inside the region grid (3 of 9 rows) that starts at line 10"
    )
    events = read(givens + "".join(regions[:3]) + "\n" + "".join(regions[3:]), ("jigsaw",))
    assert isinstance(events[0], Rejected)
    assert events[0].error.detail == "line 13: the region grid that starts at line 10 has 3 rows, expected 9"
    bad = regions[:2] + ["aaabbbcc\n"] + regions[3:]
    assert error(givens + "".join(bad), ("jigsaw",)) == "format line 12: expected 9 region symbols, found 8"


def test_jigsaw_regions_of_the_wrong_size_are_worded_by_the_geometry():
    wrong = "b" + JIGSAW_REGIONS[1:]  # region b takes one cell of region a
    variant = one(JIGSAW_GIVENS + wrong).variant
    assert variant is not None
    with pytest.raises(PuzzleFormatError, match=r"^region b has 10 cells, not 9$"):
        variant_geometry(variant)
    ten = "j" + JIGSAW_REGIONS[1:]
    variant = one(JIGSAW_GIVENS + ten).variant
    assert variant is not None
    with pytest.raises(PuzzleFormatError, match=r"^jigsaw regions: 10 region symbols, not 9$"):
        variant_geometry(variant)


# -- killer ------------------------------------------------------------------------------


def test_a_sudocue_line_is_cages_of_sum_times_256_plus_id():
    puzzle = one(SUDOCUE + "\n")
    assert puzzle.layout == "sudocue" and puzzle.grid.cells == (0,) * 81
    variant = puzzle.variant
    assert variant is not None and variant.rules == ("killer",)
    assert variant.cages[:3] == (Cage((0, 1), 13, "1"), Cage((2, 3, 11, 20), 17, "2"), Cage((4, 13), 6, "3"))
    assert len(variant.cages) == 34 and sum(c.total for c in variant.cages) == 405
    assert puzzle.render(grid_of(KILLER_ANSWER)) == KILLER_ANSWER + "\n"
    killer_x = one(SUDOCUE.replace("3x3::k:", "3x3:d:k:", 1) + "\n").variant
    assert killer_x is not None and killer_x.rules == ("x", "killer")  # d: the diagonals too


def test_sudocue_cells_in_no_cage_and_the_closing_colon():
    fields = ["0"] * 81
    fields[0] = fields[1] = str(3 * 256 + 7)
    fields[2] = "5"  # a sum of 0: in no cage, whatever its id
    for text in ("3x3::k:" + ":".join(fields) + ":", "3x3::k:" + ":".join(fields)):
        variant = one(text + "\n").variant
        assert variant is not None and variant.cages == (Cage((0, 1), 3, "7"),)


def test_sudocue_errors_name_the_line_and_the_number():
    fields = SUDOCUE[len("3x3::k:") :].rstrip(":").split(":")
    assert error("3x3::k:" + ":".join(fields[:80]) + ":\n") == (
        "format line 1: a SudoCue killer line has 81 numbers, found 80"
    )
    assert error("3x3::k:" + ":".join(["x1", *fields[1:]]) + ":\n") == (
        "format line 1: SudoCue number 1 (r1c1) is 'x1', not a number"
    )
    assert error("3x3::k:" + ":".join([str(14 * 256 + 1), *fields[1:]]) + ":\n") == (
        "format line 1: cage 1 has sum 14 at r1c1 and 13 at r1c2"
    )


def test_a_cage_block_with_givens_is_the_codingame_form():
    rows = [("..8......" if r == 0 else ".........") + " " + CAGE_ROWS[r] for r in range(9)]
    puzzle = one("\n".join(rows) + "\n" + CAGE_SUMS + "\n")
    assert puzzle.layout == "cages" and puzzle.grid.cells[2] == 8 and sum(puzzle.grid.cells) == 8
    variant = puzzle.variant
    assert variant is not None and variant.rules == ("killer",)
    assert variant.cages[0] == Cage((0, 1), 13, "a") and variant.cages[-1] == Cage((76, 77, 78), 15, "H")
    answer = "".join(KILLER_ANSWER[r * 9 : r * 9 + 9] + "\n" for r in range(9)) + "\n"
    assert puzzle.render(grid_of(KILLER_ANSWER)) == answer  # N rows of N digits, never the cages


def test_cage_rows_alone_need_the_killer_rule_and_dots_are_in_no_cage():
    block = "\n".join(CAGE_ROWS) + "\n" + CAGE_SUMS + "\n"
    cages = one(block, ("killer",)).variant
    assert cages is not None and cages.rules == ("killer",)
    sudocue = one(SUDOCUE).variant
    assert sudocue is not None and [(c.cells, c.total) for c in cages.cages] == [
        (c.cells, c.total) for c in sudocue.cages
    ]  # the same cages, symbols a.. instead of ids 1..
    assert not any(isinstance(e, Puzzle) for e in read(block))  # without the rule: words, not a puzzle
    holes = ["." + CAGE_ROWS[0][1:], *CAGE_ROWS[1:]]
    variant = one("\n".join(holes) + "\n" + CAGE_SUMS + "\n", ("killer",)).variant
    assert variant is not None and variant.cages[0] == Cage((1,), 13, "a")


@pytest.mark.parametrize(
    ("block", "detail"),
    [
        (
            CAGE_ROWS[:2] + ["aabbcdde", *CAGE_ROWS[3:]],
            "format line 3: expected a row of the cage block: 9 cage symbols",
        ),
        (CAGE_ROWS[:3] + [""], "format line 4: the cage block that starts at line 1 has 3 rows, expected 9"),
        (
            [*CAGE_ROWS, "hello"],
            "format line 10: expected the cage sums (symbol=sum ...) after the cage block that starts at line 1",
        ),
        ([*CAGE_ROWS, CAGE_SUMS.replace(" H=15", ""), ""], "format line 10: cage H has no sum"),
        (
            [*CAGE_ROWS, CAGE_SUMS.replace(" H=15", "")],
            "incomplete input ended before the sum of cage H of the cage block that starts at line 1"
            " (its sums so far end at line 10)",
        ),
        (
            [*CAGE_ROWS, "a=13 b=17 c=6", "d=16", "Z=4"],
            "format line 12: cage Z has a sum but no cell in the cage block",
        ),
        ([*CAGE_ROWS, CAGE_SUMS + " Z=5"], "format line 10: cage Z has a sum but no cell in the cage block"),
        ([*CAGE_ROWS, CAGE_SUMS + " a=5"], "format line 10: cage a has two sums"),
        ([*CAGE_ROWS, CAGE_SUMS.replace("a=13", "a=x")], "format line 10: cage sums: 'a=x' is not symbol=sum"),
    ],
)
def test_cage_block_errors_name_the_line_and_the_cage(block, detail):
    events = read("\n".join(block) + "\n", ("killer",))
    assert isinstance(events[0], Rejected)
    assert f"{events[0].error.code} {events[0].error.detail}" == detail


def test_cage_sums_may_take_several_lines_until_every_cage_has_its_sum():
    """Break-session finding F7: on a 4x4 grid the second sums line ``c=10 d=10`` (two words of 4 characters) was read
    as the first row of a new cage block: ``cage c has no sum``, then an ``incomplete`` error for a block that does
    not exist. A line with a ``=`` after sums that leave a cage without its sum is a sums line too."""
    block = ".... aabb\n.... aabb\n.... ccdd\n.... ccdd\n"
    (puzzle,) = read(block + "a=10 b=10\nc=10 d=10\n")
    assert isinstance(puzzle, Puzzle) and puzzle.variant is not None
    assert puzzle.variant.cages == (
        Cage((0, 1, 4, 5), 10, "a"),
        Cage((2, 3, 6, 7), 10, "b"),
        Cage((8, 9, 12, 13), 10, "c"),
        Cage((10, 11, 14, 15), 10, "d"),
    )
    assert one(block + "a=10\nb=10\nc=10\nd=10\n").variant == puzzle.variant  # one sum a line
    lines = [*CAGE_ROWS, *CAGE_SUMS.replace(" k=", "\nk=").replace(" w=", "\nw=").split("\n")]
    assert (
        one("\n".join(lines) + "\n", ("killer",)).variant
        == one("\n".join(CAGE_ROWS) + "\n" + CAGE_SUMS + "\n", ("killer",)).variant
    )
    # after a first sums line, a line with a word without "=" ends the sums: a marks line is a puzzle of its own
    events = read(block + "a=10 b=10\n" + "." * 16 + " thermo=r1c1-r1c2\n")
    assert isinstance(events[0], Rejected) and events[0].error.detail == "line 5: cage c has no sum"
    assert isinstance(events[1], Puzzle) and events[1].first_line == 6 and len(events) == 2
    # every cage summed: the next line is what follows (here another 4x4 cage block)
    events = read(block + "a=10 b=10 c=10 d=10\n" + block + "a=10 b=10 c=10 d=10\n")
    assert [type(event) for event in events] == [Puzzle, Puzzle] and events[1].first_line == 6


@pytest.mark.parametrize("first", ["..8.....", "..8......."])
def test_a_cage_blocks_first_row_of_givens_a_cell_short_or_long_is_the_blocks_row_error(first):
    """Break-session finding: ``..8..... aabbcddee`` (8 givens) was ``expected 16 cells, found 17``, and the rest of
    the block was read away; a row error of the block, as row 2 gets, names what a row holds. One error only."""
    rows = [(first if r == 0 else ".........") + " " + CAGE_ROWS[r] for r in range(9)]
    events = read("\n".join(rows) + "\n" + CAGE_SUMS + "\n")
    assert [f"{e.error.code} {e.error.detail}" for e in events] == [
        "format line 1: expected a row of the cage block: 9 givens, a blank and 9 cage symbols"
    ]


@pytest.mark.parametrize("symbols", [6, 7, 8])
def test_a_cage_row_with_too_few_symbols_is_the_blocks_row_error(symbols):
    """Break-session finding: a row of 9 givens and 7 cage symbols (16 cells) was taken for a 4x4 puzzle and then a
    16x16 grid's first row: two wrong errors, the rest of the block lost."""
    rows = [".........  "[:10] + (CAGE_ROWS[r][:symbols] if r == 3 else CAGE_ROWS[r]) for r in range(9)]
    events = read("\n".join(rows) + "\n" + CAGE_SUMS + "\n")
    assert [f"{e.error.code} {e.error.detail}" for e in events] == [
        "format line 4: expected a row of the cage block: 9 givens, a blank and 9 cage symbols"
    ]


def test_cage_block_givens_of_a_foreign_character_name_the_cell():
    rows = [("..x......" if r == 0 else ".........") + " " + CAGE_ROWS[r] for r in range(9)]
    assert error("\n".join(rows) + "\n" + CAGE_SUMS + "\n") == (
        "format line 1, column 3: 'x' is not a digit 1-9 or an empty mark (. 0 _) at r1c3"
    )


def test_cage_sums_and_overlaps_are_worded_by_the_geometry():
    variant = one(SUDOCUE.replace("3329:3329", "4609:4609", 1) + "\n").variant
    assert variant is not None
    with pytest.raises(Exception, match=r"^cage 1 has 2 cells and sum 18: no 2 distinct digits of 1-9 make it$"):
        variant_geometry(variant)
    overlap = Variant(("killer",), cages=(Cage((0, 1), 3, "a"), Cage((1, 2), 3, "b")))
    with pytest.raises(PuzzleFormatError, match=r"^cage a and cage b overlap at r1c2$"):
        variant_geometry(overlap)


# -- pencilmark ------------------------------------------------------------------------------


def test_a_pencilmark_line_is_nine_characters_a_cell():
    puzzle = one(INKALA_PENCILMARKS + "\n")
    assert puzzle.layout == "pencilmark"
    assert puzzle.grid.cells == tuple(0 if ch == "." else int(ch) for ch in INKALA)  # one candidate: a given
    variant = puzzle.variant
    assert variant is not None and variant.rules == () and variant.candidates is not None
    assert variant.candidates[0] == 1 << 7 and variant.candidates[1] == 0b101011  # r1c2: 1 2 4 6
    assert puzzle.render(grid_of(INKALA_ANSWER)) == INKALA_ANSWER + "\n"
    zeros = one(INKALA_PENCILMARKS.replace(".", "0") + "\n")
    assert zeros.variant == variant


def test_pencilmark_errors_name_the_column_and_the_cell():
    wrong = INKALA_PENCILMARKS[:9] + "5" + INKALA_PENCILMARKS[10:]
    assert error(wrong + "\n") == "format line 1, column 10: '5' in the candidates of r1c2, where 1, . or 0 goes"
    empty = "." * 9 + INKALA_PENCILMARKS[9:]
    variant = one(empty + "\n").variant
    assert variant is not None
    with pytest.raises(Exception, match=r"^r1c1 has no candidate$"):
        variant_geometry(variant)


# -- classic layouts are untouched ------------------------------------------------------------


def test_classic_lines_bring_no_variant_and_other_lengths_keep_their_errors():
    assert one(INKALA + "\n").variant is None
    assert error("1" * 160 + "\n") == "format line 1: expected 16, 36, 81, 256 or 625 cells, found 160"
    assert error("1" * 728 + "\n") == "format line 1: expected 16, 36, 81, 256 or 625 cells, found 728"


def test_cage_symbols_may_be_marks_that_elsewhere_start_a_comment_or_a_border():
    marks = str.maketrans({"b": "#", "c": "-", "d": "*"})  # GENERATE's symbols after the letters include these
    block = [("..8......" if r == 0 else ".........") + " " + CAGE_ROWS[r].translate(marks) for r in range(9)]
    puzzle = one("\n".join(block) + "\n" + CAGE_SUMS.translate(marks) + "\n")
    variant = puzzle.variant
    assert variant is not None and [cage.symbol for cage in variant.cages[:4]] == ["a", "#", "-", "*"]
    assert variant.cages[1] == Cage((2, 3, 11, 20), 17, "#")
    alone = one(
        "\n".join(row.translate(marks) for row in CAGE_ROWS) + "\n" + CAGE_SUMS.translate(marks) + "\n", ("killer",)
    )
    assert alone.variant is not None and alone.variant.cages == variant.cages


def test_the_session_waits_for_the_rest_of_a_block():
    from sudoku_server.wire.session import Session

    session = Session()
    session.receive_data(b"RULES killer\n" + ("\n".join(CAGE_ROWS[:4]) + "\n").encode())
    assert session.incomplete  # 4 of 9 rows: the sender is still sending
    session.receive_data(("\n".join(CAGE_ROWS[4:]) + "\n").encode())
    assert session.incomplete  # the sums line is still to come
    (event,) = session.receive_data((CAGE_SUMS + "\n").encode())
    assert not session.incomplete and event.puzzle.layout == "cages"


def test_interactive_reading_reports_a_bad_block_row_at_once_and_nothing_more():
    reader = PuzzleReader(report_early=True)
    reader.rules = frozenset({"killer"})
    rows = [*CAGE_ROWS[:2], "aabbcdde", *CAGE_ROWS[3:], CAGE_SUMS]
    out = [(number, reader.feed_line(row, "\n", number)) for number, row in enumerate(rows, start=1)]
    reported = [(number, events) for number, events in out if events]
    assert len(reported) == 1 and reported[0][0] == 3
    (error,) = reported[0][1]
    assert isinstance(error, Rejected)
    assert error.error.detail == "line 3: expected a row of the cage block: 9 cage symbols"
    assert reader.finish() == [] and reader.puzzle_start is None
