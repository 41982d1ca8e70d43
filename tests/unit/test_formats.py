"""The text layouts and the request parser, driven with plain bytes (no trio).

Each layout is fed whole, one byte at a time, and followed by another
puzzle; the events must be the same however the bytes are chunked.
"""

from __future__ import annotations

import pytest

from sudoku_server import Grid, PuzzleFormatError, solve
from sudoku_server.text import PuzzleReader, parse
from sudoku_server.wire.session import CloseConnection, Reply, Session
from tests.support.examples import (
    COMPACT,
    NEWSPAPER,
    NEWSPAPER_ANSWER,
    NEWSPAPER_LINE,
    NEWSPAPER_SOLUTION,
    PLAIN_ROWS,
    SPACED_ROWS,
    UNFRAMED,
)
from tests.support.paths import REPO
from tests.support.sessions import all_chunkings, replies, run_session


def fill(template: str, solution: str = NEWSPAPER_SOLUTION) -> str:
    """The expected answer: each cell character of the template set from ``solution``."""
    out = []
    digits = iter(solution)
    for line in template.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        if set(body) <= set("+-=|* ") and any(c in body for c in "-="):
            out.append(line)
            continue
        chars = [next(digits) if ch not in " |" else ch for ch in body]
        out.append("".join(chars) + line[len(body) :])
    return "".join(out)


LAYOUTS = [
    pytest.param(NEWSPAPER, "bordered", NEWSPAPER_ANSWER, id="bordered"),
    pytest.param(PLAIN_ROWS, "rows", fill(PLAIN_ROWS) + "\n", id="rows"),
    pytest.param(SPACED_ROWS, "rows", fill(SPACED_ROWS) + "\n", id="spaced-rows"),
    pytest.param(UNFRAMED, "bordered", fill(UNFRAMED) + "\n", id="unframed"),
    pytest.param(COMPACT, "bordered", fill(COMPACT) + "\n", id="compact"),
    pytest.param(NEWSPAPER_LINE + "\n", "line", NEWSPAPER_SOLUTION + "\n", id="line"),
    pytest.param(NEWSPAPER_LINE.replace(".", "0") + "\n", "line", NEWSPAPER_SOLUTION + "\n", id="line-zeros"),
    pytest.param(NEWSPAPER_LINE.replace(".", "_") + "\n", "line", NEWSPAPER_SOLUTION + "\n", id="line-underscores"),
]


@pytest.mark.parametrize("text,layout,answer", LAYOUTS)
def test_layout_whole_and_bytewise(text, layout, answer):
    assert all_chunkings(text.encode()) == [("answer", layout, answer)]


@pytest.mark.parametrize("text,layout,answer", LAYOUTS)
def test_layout_followed_by_another_puzzle(text, layout, answer):
    data = (text + NEWSPAPER_LINE + "\n").encode()
    assert all_chunkings(data) == [
        ("answer", layout, answer),
        ("answer", "line", NEWSPAPER_SOLUTION + "\n"),
    ]


@pytest.mark.parametrize("text,layout,answer", LAYOUTS)
def test_layout_answered_before_end_of_stream(text, layout, answer):
    # Complete at its last line's end: no end of stream needed.
    assert run_session(text.encode(), eof=False) == [("answer", layout, answer)]


def test_framed_grid_waits_one_line_for_its_closing_border():
    text = "\n".join(NEWSPAPER.splitlines()[:12]) + "\n"  # no closing border
    session = Session()
    assert session.receive_data(text.encode()) == []
    assert session.pending  # the server's close grace settles it
    [event] = session.receive_data(b"\n")
    assert event.puzzle.render(Grid.from_string(NEWSPAPER_SOLUTION)) == (
        "\n".join(NEWSPAPER_ANSWER.splitlines()[:12]) + "\n\n"
    )


def test_crlf_in_crlf_out():
    data = NEWSPAPER.replace("\n", "\r\n").encode()
    assert all_chunkings(data) == [("answer", "bordered", NEWSPAPER_ANSWER.replace("\n", "\r\n"))]


def test_lone_cr_line_endings():
    data = NEWSPAPER.replace("\n", "\r").encode()
    assert all_chunkings(data) == [("answer", "bordered", NEWSPAPER_ANSWER.replace("\n", "\r"))]


def test_bom_is_skipped():
    data = b"\xef\xbb\xbf" + NEWSPAPER.encode()
    assert all_chunkings(data) == [("answer", "bordered", NEWSPAPER_ANSWER)]


def test_comments_headers_and_blank_lines_between_puzzles():
    data = ("# top of file\n\n#A author\n[Puzzle]\n" + NEWSPAPER + "\n\n# next\n" + NEWSPAPER_LINE + "\n").encode()
    assert all_chunkings(data) == [
        ("answer", "bordered", NEWSPAPER_ANSWER),
        ("answer", "line", NEWSPAPER_SOLUTION + "\n"),
    ]


def test_last_line_without_newline():
    assert all_chunkings(NEWSPAPER_LINE.encode()) == [("answer", "line", NEWSPAPER_SOLUTION + "\n")]


def test_row_with_eight_cells_is_one_error_and_next_puzzle_is_answered():
    bad = PLAIN_ROWS.splitlines()
    bad[3] = bad[3][:8]
    data = ("\n".join(bad) + "\n" + NEWSPAPER_LINE + "\n").encode()
    assert all_chunkings(data) == [
        ("reply", "ERROR format line 4: expected 9 cells, found 8\n"),
        ("answer", "line", NEWSPAPER_SOLUTION + "\n"),
    ]


def test_row_with_ten_cells_in_bordered_grid():
    lines = NEWSPAPER.splitlines()
    lines[5] = "| . . . | 5 . . | 3 . . . |"
    data = ("\n".join(lines) + "\n" + NEWSPAPER).encode()
    assert all_chunkings(data) == [
        ("reply", "ERROR format line 6: expected 9 cells, found 10\n"),
        ("answer", "bordered", NEWSPAPER_ANSWER),
    ]


def test_grid_of_eight_rows_then_blank_line():
    rows = PLAIN_ROWS.splitlines()[:8]
    data = ("\n".join(rows) + "\n\n" + NEWSPAPER_LINE + "\n").encode()
    assert all_chunkings(data) == [
        ("reply", "ERROR format line 9: the grid that starts at line 1 has 8 rows, expected 9\n"),
        ("answer", "line", NEWSPAPER_SOLUTION + "\n"),
    ]


@pytest.mark.parametrize("cells", [80, 82])
def test_one_line_of_wrong_length_does_not_swallow_the_next(cells):
    line = (NEWSPAPER_LINE + ".")[:cells]
    data = (line + "\n" + NEWSPAPER_LINE + "\n").encode()
    assert all_chunkings(data) == [
        ("reply", f"ERROR format line 1: expected 81 cells, found {cells}\n"),
        ("answer", "line", NEWSPAPER_SOLUTION + "\n"),
    ]


def test_letter_in_a_row_names_line_column_and_cell():
    lines = NEWSPAPER.splitlines()
    lines[2] = "| . 2 . | . x . | . 8 . |"
    data = ("\n".join(lines) + "\n").encode()
    assert all_chunkings(data) == [
        ("reply", "ERROR format line 3, column 13: 'x' is not a digit 1-9 or an empty mark (. 0 _) at r2c5\n"),
    ]


@pytest.mark.parametrize(
    "char,shown",
    [("\u00b0", "U+00B0"), ("\u0663", "U+0663"), ("\x00", "U+0000")],
    ids=["degree", "arabic-indic-3", "nul"],
)
def test_foreign_characters_in_a_one_line_puzzle(char, shown):
    line = NEWSPAPER_LINE[:4] + char + NEWSPAPER_LINE[5:]
    data = (line + "\n" + NEWSPAPER_LINE + "\n").encode()
    assert all_chunkings(data) == [
        ("reply", f"ERROR format line 1, column 5: {shown} is not a digit 1-9 or an empty mark (. 0 _) at r1c5\n"),
        ("answer", "line", NEWSPAPER_SOLUTION + "\n"),
    ]


def test_invalid_utf8_is_named_as_a_byte():
    line = NEWSPAPER_LINE[:4].encode() + b"\xff\xfe"[1:] + NEWSPAPER_LINE[5:].encode()
    assert all_chunkings(line + b"\n") == [
        ("reply", "ERROR format line 1, column 5: byte 0xFE is not a digit 1-9 or an empty mark (. 0 _) at r1c5\n"),
    ]


def test_tabs_separate_cells():
    data = "\n".join("\t".join(NEWSPAPER_LINE[r * 9 : r * 9 + 9]) for r in range(9)).encode() + b"\n"
    [(kind, layout, answer)] = all_chunkings(data)
    assert (kind, layout) == ("answer", "rows")
    assert answer.replace("\t", "").replace("\n", "") == NEWSPAPER_SOLUTION


def test_telnet_negotiation_is_refused_and_removed():
    data = b"\xff\xfd\x18" + NEWSPAPER_LINE.encode() + b"\xff\xfb\x1f\r\n"
    assert all_chunkings(data) == [
        ("telnet", b"\xff\xfc\x18"),
        ("telnet", b"\xff\xfd\x00\xff\xfb\x00"),  # a telnet client: TRANSMIT-BINARY offered (issue 32)
        ("telnet", b"\xff\xfe\x1f"),
        ("answer", "line", NEWSPAPER_SOLUTION + "\r\n"),
    ]


def test_telnet_ctrl_c_drops_the_partial_puzzle_and_next_works():
    data = PLAIN_ROWS[:40].encode() + b"\xff\xf4\xff\xfd\x06" + (NEWSPAPER_LINE + "\r\n").encode()
    assert all_chunkings(data) == [
        ("telnet", b"\xff\xfd\x00\xff\xfb\x00"),  # a telnet client: TRANSMIT-BINARY offered (issue 32)
        ("telnet", b"\xff\xfc\x06"),
        ("answer", "line", NEWSPAPER_SOLUTION + "\r\n"),
    ]


def test_unterminated_telnet_subnegotiation_at_end_of_input_is_named_after_the_answers():
    """``IAC SB`` never ended by ``IAC SE``, then end of input: the line before it is answered, and the bytes it
    swallowed are named in one ERROR (break-session finding: nothing told the client they were skipped)."""
    data = NEWSPAPER_LINE.encode() + b"\r\n\xff\xfa\x18\x00xterm\r\nPING\r\n"
    assert all_chunkings(data) == [
        ("answer", "line", NEWSPAPER_SOLUTION + "\r\n"),
        (
            "reply",
            "ERROR incomplete input ended inside the telnet subnegotiation (IAC SB) that starts at line 2, before its"
            " IAC SE; the 15 byte(s) after IAC SB were not read\r\n",
        ),
    ]


def test_unterminated_telnet_subnegotiation_mid_line_completes_the_line_first():
    """A subnegotiation that starts inside an unterminated line: the line is read at end of input, then the
    error names that same line; an IAC inside the subnegotiation is counted among the skipped bytes."""
    assert replies(b"PING\xff\xfa\x18\xff") == (
        b"PONG\n"
        b"ERROR incomplete input ended inside the telnet subnegotiation (IAC SB) that starts at line 1, before its"
        b" IAC SE; the 2 byte(s) after IAC SB were not read\n"
    )
    assert replies(b"PING\xff\xfa\x18\xff", bytewise=True) == replies(b"PING\xff\xfa\x18\xff")


@pytest.mark.parametrize(
    ("data", "reply"),
    [
        (
            b"PING\n\xff",
            b"PONG\nERROR incomplete input ended inside a telnet command at line 2: IAC (byte 0xFF) with no",
        ),
        (b"PING\xff", b"PONG\nERROR incomplete input ended inside a telnet command at line 1: IAC (byte 0xFF) with no"),
        (b"\xff", b"ERROR incomplete input ended inside a telnet command at line 1: IAC (byte 0xFF) with no"),
    ],
)
def test_a_lone_iac_at_end_of_input_is_named_after_the_answers(data, reply):
    """Break-session finding: a 0xFF last in the input (telnet's IAC with nothing after it) was dropped without a
    word. It is ``incomplete``, as an unended subnegotiation is, named after the answers to what came before it."""
    assert replies(data) == reply + b" command byte after it\n"
    assert replies(data, bytewise=True) == replies(data)


def test_a_telnet_verb_without_its_option_at_end_of_input_is_named():
    assert replies(b"PING\r\n\xff\xfd") == (
        b"PONG\r\nERROR incomplete input ended inside a telnet command at line 2: IAC DO with no option byte after it\r\n"
    )
    assert replies(b"PING\n\xff\xff") == (  # an escaped 0xFF is a data byte, named as any byte that is not UTF-8
        b"PONG\nERROR format line 2, column 1: byte 0xFF is not a digit 1-9 or an empty mark (. 0 _)\n"
    )


def test_ended_telnet_subnegotiation_is_skipped_silently():
    assert replies(b"PING\n\xff\xfa\x18\x00xterm\xff\xf0PING\n") == b"PONG\nPONG\n"


def test_partial_puzzle_at_end_of_input_is_incomplete():
    data = PLAIN_ROWS[:40].encode()  # four whole rows
    assert all_chunkings(data) == [
        ("reply", "ERROR incomplete input ended inside the puzzle that starts at line 1 (4 of 9 rows)\n"),
    ]


def test_framed_grid_without_closing_border_is_answered_at_end_of_input():
    text = "\n".join(NEWSPAPER.splitlines()[:12]) + "\n"
    assert all_chunkings(text.encode()) == [
        ("answer", "bordered", "\n".join(NEWSPAPER_ANSWER.splitlines()[:12]) + "\n\n"),
    ]


def test_line_over_the_limit_is_too_large_and_closes():
    session = Session(max_line_bytes=100)
    events = session.receive_data(b"1" * 101)
    assert events == [Reply(b"ERROR too-large line 1 is longer than 100 bytes\n"), CloseConnection()]
    assert session.closed
    assert session.receive_data(NEWSPAPER_LINE.encode() + b"\n") == []


def test_long_line_is_too_large_whatever_the_chunking():
    data = b"." * 70000 + b"\n"
    expected = [("reply", "ERROR too-large line 1 is longer than 4096 bytes\n"), ("close",)]
    assert run_session(data) == expected
    assert run_session(data, chunk=1000) == expected


def test_buffer_stays_bounded_for_a_flood_without_newline():
    session = Session(max_line_bytes=4096)
    for _ in range(1000):
        session.receive_data(b"x" * 65536)
        assert len(session._buffer) <= 4097
    assert session.closed


def test_parse_reads_one_puzzle():
    puzzle = parse(NEWSPAPER)
    assert puzzle.grid == Grid.from_string(NEWSPAPER_LINE)
    assert puzzle.layout == "bordered"
    assert puzzle.render(Grid.from_string(NEWSPAPER_SOLUTION)) == NEWSPAPER_ANSWER


def test_parse_rejects_a_short_row():
    with pytest.raises(PuzzleFormatError, match=r"^line 2: expected 9 cells, found 8$"):
        parse(PLAIN_ROWS.replace(".2..7..8.", ".2..7..8", 1))


def test_text_that_is_not_a_row_does_not_start_a_grid():
    data = ("GET / HTTP/1.1\n" + NEWSPAPER_LINE + "\n").encode()
    assert all_chunkings(data) == [
        ("reply", 'ERROR command unknown verb "GET"; try HELP\n'),  # protocol 2: a word, not cells
        ("answer", "line", NEWSPAPER_SOLUTION + "\n"),
    ]


def test_one_line_puzzle_inside_a_grid_cuts_the_grid_short():
    rows = PLAIN_ROWS.splitlines(keepends=True)[:4]
    data = ("".join(rows) + NEWSPAPER_LINE + "\n").encode()
    assert all_chunkings(data) == [
        ("reply", "ERROR format line 5: the grid that starts at line 1 has 4 rows, expected 9\n"),
        ("answer", "line", NEWSPAPER_SOLUTION + "\n"),
    ]


def test_a_grid_with_an_error_is_still_cut_short_by_a_one_line_puzzle():
    rows = PLAIN_ROWS.splitlines(keepends=True)
    data = (rows[0] + rows[1][:5] + "\n" + rows[2] + NEWSPAPER_LINE + "\n" + NEWSPAPER_LINE + "\n").encode()
    assert all_chunkings(data) == [
        ("reply", "ERROR format line 2: expected 9 cells, found 5\n"),
        ("answer", "line", NEWSPAPER_SOLUTION + "\n"),
        ("answer", "line", NEWSPAPER_SOLUTION + "\n"),
    ]


def test_border_lines_alone_before_a_one_line_puzzle_ask_nothing():
    data = ("+-------+-------+-------+\n" + NEWSPAPER_LINE + "\n").encode()
    assert all_chunkings(data) == [("answer", "line", NEWSPAPER_SOLUTION + "\n")]


@pytest.mark.parametrize("cells", [12, 20])
def test_line_far_from_any_row_size_is_rejected_on_its_own(cells):
    line = NEWSPAPER_LINE[:cells]
    data = (line + "\n" + NEWSPAPER_LINE + "\n").encode()
    assert all_chunkings(data) == [
        ("reply", f"ERROR format line 1: expected a row of 4, 6, 9, 16 or 25 cells, found {cells}\n"),
        ("answer", "line", NEWSPAPER_SOLUTION + "\n"),
    ]


def test_render_writes_only_the_empty_cells():
    puzzle = parse(NEWSPAPER)
    # A solution object without the request's symbols still renders with them.
    solution = Grid(Grid.from_string(NEWSPAPER_SOLUTION).cells)
    assert puzzle.render(solution) == NEWSPAPER_ANSWER
    assert [puzzle.lines[li][col] for li, col in puzzle.positions if puzzle.lines[li][col] != "."] == [
        ch for ch in NEWSPAPER_LINE if ch != "."
    ]


def test_from_string_reads_every_size_and_symbol_set():
    assert Grid.from_string("1" + "." * 15).size == 4
    assert Grid.from_string("." * 36).box_cols == 3
    grid = Grid.from_string("0" + "." * 255)
    assert grid.size == 16 and grid.cells[0] == 1 and grid.symbols == "0123456789ABCDEF"
    assert Grid.from_string("y" + "." * 624).cells[0] == 25
    with pytest.raises(PuzzleFormatError, match=r"^'Z' is not a 25x25 symbol at r1c1$"):
        Grid.from_string("Z" + "." * 624)


def test_the_plain_one_line_fast_path_reads_what_the_general_reader_reads(monkeypatch):
    import gzip
    import re

    from sudoku_server.text import reader

    lines = [
        NEWSPAPER_LINE,
        NEWSPAPER_LINE.replace(".", "0"),
        NEWSPAPER_LINE.replace(".", "_"),
        "." * 81,
        NEWSPAPER_SOLUTION,
    ]
    path = REPO / "puzzles" / "datasets" / "norvig_top95.txt.gz"
    lines += [line.strip() for line in gzip.open(path, "rt")][:40]  # noqa: SIM115

    def read(line):
        (puzzle,) = PuzzleReader().feed_line(line, "\r\n", 7)
        return (
            puzzle.grid,
            puzzle.grid.symbols,
            puzzle.layout,
            puzzle.first_line,
            puzzle.lines,
            puzzle.endings,
            list(puzzle.positions),
            puzzle.symbols,
            puzzle.expected,
            puzzle.wide,
            puzzle.render(solve(puzzle.grid)),
        )

    fast = [read(line) for line in lines]
    monkeypatch.setattr(reader, "_PLAIN_LINE", re.compile(r"(?!)"))  # never matches: the general path
    assert [read(line) for line in lines] == fast
