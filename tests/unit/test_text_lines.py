"""text/lines.py: what ONE line is, as pure functions with exact classification values."""

import pytest

from sudoku_server.text.lines import (
    BrokenRow,
    CutLine,
    FirstRow,
    Header,
    Kind,
    Line,
    NotARow,
    OneLine,
    Prose,
    RowShape,
    RowStart,
    WrongCount,
    classify_line,
    ends_grid,
    near_line_size,
    near_row_size,
    opening,
    row_start,
)

ONE_LINE = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def test_a_border_line():
    text = "+-------+-------+-------+"
    assert classify_line(text, "\n") == Line(Kind.BORDER, text, text, text, "\n")


def test_a_box_drawn_border_is_read_through_its_view():
    line = classify_line("┌───┬───┐", "\r\n")
    assert line == Line(Kind.BORDER, "┌───┬───┐", "┌───┬───┐", "+---+---+", "\r\n")


def test_a_row_of_9_cells():
    text = "| 8 . . | . 1 . | . . 5 |"
    line = classify_line(text, "\n")
    cells = [(2, "8"), (4, "."), (6, "."), (10, "."), (12, "1"), (14, "."), (18, "."), (20, "."), (22, "5")]
    assert line == Line(Kind.CELLS, text, text, text, "\n", text, cells)
    assert opening(line) == FirstRow(RowShape(9, 3, None))
    assert row_start(line) == RowStart(RowShape(9, 3, None), 9, False)


def test_a_row_of_9_cells_with_blank_cells_is_read_by_column():
    line = classify_line("| 8     |   1   |     5 |", "\n")
    assert line.cells == [(2, "8"), (12, "1"), (22, "5")]
    assert opening(line) == FirstRow(RowShape(9, 3, (2, 4, 6, 10, 12, 14, 18, 20, 22)))


def test_a_plain_row_of_9_cells():
    line = classify_line("8 . . . 1 . . . 5", "\n")
    assert line.kind is Kind.CELLS
    assert opening(line) == FirstRow(RowShape(9))


def test_a_one_line_puzzle():
    line = classify_line(ONE_LINE, "\n")
    assert line == Line(Kind.CELLS, ONE_LINE, ONE_LINE, ONE_LINE, "\n", ONE_LINE, list(enumerate(ONE_LINE)))
    assert opening(line) == OneLine(9, list(enumerate(ONE_LINE)))


def test_a_one_line_puzzle_keeps_its_comment_out_of_the_body():
    line = classify_line(ONE_LINE + " # Inkala", "\n")
    assert line.body == ONE_LINE + " "
    assert opening(line) == OneLine(9, list(enumerate(ONE_LINE)))


def test_a_labelled_puzzle_and_a_dataset_row_are_fields():
    labelled = classify_line("id:" + ONE_LINE, "\n")
    assert labelled.kind is Kind.FIELDS
    assert opening(labelled) == OneLine(9, [(3 + i, ch) for i, ch in enumerate(ONE_LINE)], field=True)
    solution = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
    row = classify_line(f"{ONE_LINE},{solution}", "\n")
    assert opening(row) == OneLine(
        9,
        list(enumerate(ONE_LINE)),
        [(82 + i, ch) for i, ch in enumerate(solution)],
        dataset=True,
        field=True,
    )


def test_a_csv_header():
    line = classify_line("quizzes,solutions", "\n")
    assert line == Line(
        Kind.FIELDS, "quizzes,solutions", "quizzes,solutions", "quizzes,solutions", "\n", "quizzes,solutions"
    )
    assert opening(line) == Header()


def test_prose():
    line = classify_line("hello", "\n")
    assert line.kind is Kind.CELLS  # its kind says nothing yet: it could be a row with typos
    assert opening(line) == Prose(0)
    assert row_start(line) == RowStart(None, 6, True)
    assert opening(classify_line("Here is today's puzzle:", "\n")) == Prose(0)
    assert opening(classify_line("Sudoku 2024-06-01", "\n")) == Prose(0)
    assert opening(classify_line("No. 1234", "\n")) == Prose(0)


@pytest.mark.parametrize("text", ["# Arto Inkala", "  #D The world's hardest sudoku", "[Puzzle]"])
def test_a_comment(text):
    assert classify_line(text, "\n") == Line(Kind.COMMENT, text, text, text, "\n")


@pytest.mark.parametrize("text", ["", "   ", "\u00a0\u3000"])
def test_a_blank_line(text):
    assert classify_line(text, "\n").kind is Kind.BLANK


def test_a_16x16_row():
    text = "1 2 3 4 5 6 7 8 9 A B C D E F G"
    line = classify_line(text, "\n")
    assert line.cells == list(zip(range(0, 31, 2), "123456789ABCDEFG"))
    assert opening(line) == FirstRow(RowShape(16))
    letters = classify_line("ABCD EFGH IJKL MNOP", "\n")  # words a 16x16 grid could hold
    assert opening(letters) == FirstRow(RowShape(16))


def test_a_16_cell_line_is_a_4x4_puzzle_only_unseparated_and_with_1_to_4():
    small = ".1....4.....24.."
    assert opening(classify_line(small, "\n")) == OneLine(4, list(enumerate(small)))
    assert opening(classify_line("D92.....G...43..", "\n")) == FirstRow(RowShape(16))


def test_a_tab_row_has_one_cell_per_field():
    text = "8\t\t1\t\t\t\t\t\t5"
    line = classify_line(text, "\n")
    assert line.kind is Kind.CELLS and line.tabbed
    assert line.view == "8\t.\t1\t.\t.\t.\t.\t.\t5"
    assert line.template == "8\t \t1\t \t \t \t \t \t5"
    assert line.inserted == (2, 6, 8, 10, 12, 14)
    assert opening(line) == FirstRow(RowShape(9))


def test_lines_that_are_no_row():
    assert opening(classify_line("8..........", "\n")) == BrokenRow(9, 11)
    assert opening(classify_line("1 2 3 4 5 6 7 8 9 1 2 3", "\n")) == NotARow(12)
    assert opening(classify_line("12345678\b\b9", "\n")) == NotARow(11, 8)  # the first backspace's column
    assert opening(classify_line("8" + "." * 39, "\n")) == WrongCount(40, None)
    assert opening(classify_line("8" + "." * 39, "")) == CutLine(40, 81)  # the input ended inside it
    assert opening(classify_line("8" + "." * 40 + "\x00" + "." * 40, "\n")) == WrongCount(82, 41)


def test_sizes_near_a_miss():
    assert [near_row_size(n) for n in (0, 5, 10, 12, 14, 27)] == [None, 6, 9, None, 16, 25]
    assert [near_line_size(n) for n in (14, 40, 80, 85, 86, 244, 656)] == [16, None, 81, 81, None, 256, 625]


def test_which_lines_end_a_grid():
    assert ends_grid(81, 9)
    assert ends_grid(16, 4)  # after a 4x4 grid, a 16-cell line is the next 4x4 puzzle
    assert not ends_grid(16, 16)
    assert not ends_grid(16, None)  # a framed grid's first row: a 16x16 row
    assert not ends_grid(9, 9)
