"""wire.splitter: the line routing, fed lines; and the session around it, fed bytes whole, byte by byte, with trailing data."""

from __future__ import annotations

import pytest

from sudoku_server.service.requests import Count, Generate, Ping, Quit, Solve
from sudoku_server.sudoku.grid import Grid
from sudoku_server.wire.session import CloseConnection, CommandReceived, PuzzleReceived, Reply, Session
from sudoku_server.wire.splitter import CommandRead, LineRejected, PuzzleRead, Splitter
from tests.support.sessions import replies
from tests.support.variant_examples import JIGSAW_GIVENS, JIGSAW_REGIONS

INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
ROWS = [INKALA[r * 9 : r * 9 + 9] for r in range(9)]


def grid(text: str) -> Grid:
    return Grid(tuple(0 if ch == "." else int(ch) for ch in text))


def feed(lines: list[str], splitter: Splitter | None = None) -> list:
    splitter = splitter or Splitter()
    out = []
    for lineno, text in enumerate(lines, start=1):
        out.extend(splitter.feed(text, "\n", lineno))
    return out + splitter.finish()


def test_a_bare_puzzle_is_a_solve_request():
    [item] = feed([INKALA])
    assert isinstance(item, PuzzleRead) and item.request == Solve(grid(INKALA)) and item.command is None


def test_a_verb_waits_for_its_puzzle():
    items = feed(["COUNT limit=5", *ROWS])
    assert len(items) == 1 and isinstance(items[0], PuzzleRead)
    assert items[0].request == Count(grid(INKALA), 5) and items[0].command.name == "COUNT"


def test_a_puzzle_on_the_verbs_line():
    [item] = feed(["COUNT " + INKALA])
    assert isinstance(item, PuzzleRead) and item.request == Count(grid(INKALA), 2)
    assert item.puzzle.lines == [INKALA]


def test_commands_and_errors_in_order():
    items = feed(["PING", "GENERATE seed=3", "COUNT limit=0 x", "hello", "QUIT", "PING"])
    assert [type(item) for item in items] == [CommandRead, CommandRead, LineRejected, LineRejected, CommandRead]
    assert items[0].request == Ping() and items[1].request == Generate(seed=3) and items[4].request == Quit()
    assert items[2].error.detail == "COUNT: limit must be 1 to 1000, not 0"
    assert items[3].error.detail == 'unknown verb "HELLO"; try HELP'


@pytest.mark.parametrize("verb", ["SOLVE ", "SOLVE rules=jigsaw ", "COUNT "])
def test_a_jigsaw_line_on_a_verbs_line_names_a_colon_region_symbol_at_its_column(verb):
    """Break-session finding: after a verb the line was padded to its column and the check skipped it, so
    ``SOLVE <jigsaw line with ':' symbols>`` answered (read with ``:`` as a region) where the bare line is refused."""
    regions = JIGSAW_REGIONS.replace(JIGSAW_REGIONS[0], ":")
    [item] = feed([verb + JIGSAW_GIVENS + regions])
    assert isinstance(item, LineRejected)
    assert item.error.detail == (
        f"line 1, column {len(verb) + 82}: ':' is not a region symbol (region symbols are any characters but"
        " blanks, | # , and :)"
    )


def test_a_jigsaw_line_with_equals_signs_as_region_symbols_is_a_verbs_puzzle():
    """``=`` may be a region symbol; after a verb the line was taken for an option named by its givens (break-session
    finding: ``COUNT: unknown option "...3.8..9..."``). An option's name is a word; a typo stays an unknown option."""
    regions = JIGSAW_REGIONS.replace(JIGSAW_REGIONS[0], "=")
    [item] = feed(["COUNT " + JIGSAW_GIVENS + regions])
    assert isinstance(item, PuzzleRead) and item.request.variant.rules == ("jigsaw",)
    [typo] = feed(["COUNT lmit=5 " + JIGSAW_GIVENS + regions])
    assert isinstance(typo, LineRejected) and typo.error.detail == 'COUNT: unknown option "lmit"; try HELP COUNT'


def test_a_verb_without_its_puzzle():
    items = feed(["SOLVE", "PING"])
    assert isinstance(items[0], LineRejected) and items[0].error.detail == "SOLVE at line 1: no puzzle followed it"
    assert items[1].request == Ping()
    [end] = feed(["RATE"])
    assert isinstance(end, LineRejected) and end.error.code == "incomplete"
    assert end.error.detail == "input ended after RATE at line 1, before its puzzle"


def test_a_command_ends_an_unfinished_grid():
    items = feed([*ROWS[:4], "PING"])
    assert isinstance(items[0], LineRejected) and items[0].error.code == "format"
    assert isinstance(items[1], CommandRead) and items[1].request == Ping()


def test_quit_and_eot_end_the_input():
    splitter = Splitter()
    assert [i.request for i in splitter.feed("QUIT", "\n", 1)] == [Quit()]
    assert splitter.closed and splitter.feed("PING", "\n", 2) == []
    splitter = Splitter()
    splitter.feed("COUNT", "\n", 1)
    [end] = splitter.feed("\x04", "\n", 2)
    assert isinstance(end, LineRejected) and end.error.code == "incomplete" and splitter.closed


# -- the session over the splitter: bytes whole, byte by byte, and trailing data ---------------


def events(data: bytes, chunk: int = 0) -> list:
    session = Session()
    out = []
    pieces = [data] if not chunk else [data[i : i + chunk] for i in range(0, len(data), chunk)]
    for piece in pieces:
        out.extend(session.receive_data(piece))
    return out + session.receive_eof()


DATA = ("PING\r\nCOUNT limit=3\r\n" + "\r\n".join(ROWS) + "\r\nGENERATE seed=1\r\nbogus\r\n").encode()


def describe(event):
    if isinstance(event, (PuzzleReceived, CommandReceived)):
        return (type(event).__name__, event.request, event.line, event.ending)
    return event


def test_session_events_whole_and_byte_by_byte():
    whole = [describe(e) for e in events(DATA)]
    assert whole == [
        ("CommandReceived", Ping(), 1, "\r\n"),
        ("PuzzleReceived", Count(grid(INKALA), 3), 3, "\r\n"),
        ("CommandReceived", Generate(seed=1), 12, "\r\n"),
        Reply(b'ERROR command unknown verb "BOGUS"; try HELP\r\n'),
    ]
    assert [describe(e) for e in events(DATA, 1)] == whole


def test_session_trailing_data_after_quit_is_not_read():
    got = [describe(e) for e in events(b"PING\nQUIT\n" + DATA)]
    assert got == [("CommandReceived", Ping(), 1, "\n"), ("CommandReceived", Quit(), 2, "\n"), CloseConnection()]
    assert [describe(e) for e in events(b"PING\nQUIT\n" + DATA, 1)] == got


def test_session_unterminated_trailing_line_is_answered_at_eof():
    got = [describe(e) for e in events(b"PING\n" + INKALA.encode())]
    assert got[0] == ("CommandReceived", Ping(), 1, "\n")
    assert got[1][:2] == ("PuzzleReceived", Solve(grid(INKALA)))


PROXY_V2 = b"\r\n\r\n\x00\r\nQUIT\n" + bytes([0x21, 0x11, 0, 12, 192, 0, 2, 1, 198, 51, 100, 1, 0xDC, 0x04, 0x27, 0x0F])


def pieces_events(pieces: list[bytes]) -> list:
    session = Session()
    out = []
    for piece in pieces:
        out.extend(session.receive_data(piece))
    return out + session.receive_eof()


@pytest.mark.parametrize("cut", [None, 1, 2, 4, 5, 13, 20])
def test_a_proxy_v2_header_between_requests_is_one_error_and_the_session_goes_on(cut):
    """Break-session finding: a second v2 header (two proxies in front) was read as lines: an error about a NUL
    cell, then the ``QUIT`` of its signature ended the session and the puzzle after it was never answered. The
    lines around it come byte by byte; the header whole, or cut in two anywhere."""
    rows = b"\r\n".join(r.encode() for r in ROWS) + b"\r\n"
    header = [PROXY_V2] if cut is None else [PROXY_V2[:cut], PROXY_V2[cut:]]
    got = [describe(e) for e in pieces_events([bytes([b]) for b in b"PING\r\n"] + header + [rows[:1], rows[1:]])]
    assert got == [
        ("CommandReceived", Ping(), 1, "\r\n"),
        Reply(
            b"ERROR command line 2: a PROXY protocol v2 header is not a request (the server reads one, as a"
            b" connection's first bytes, only with --proxy-protocol; is a second proxy in front of it?)\r\n"
        ),
        ("PuzzleReceived", Solve(grid(INKALA)), 6, "\r\n"),
    ]


def test_blank_lines_at_the_end_of_what_came_are_never_held_back():
    """A v2 signature starts with blank lines: those are read at once (a session waiting on them would be
    pending, its close grace running), and at the end of input too."""
    session = Session()
    assert [describe(e) for e in session.receive_data(b"PING\r\n\r\n\r\n")] == [("CommandReceived", Ping(), 1, "\r\n")]
    assert not session.pending
    assert [describe(e) for e in events(b"PING\r\n\r\n\r\nPING\r\n", 1)] == [
        ("CommandReceived", Ping(), 1, "\r\n"),
        ("CommandReceived", Ping(), 4, "\r\n"),
    ]


def test_a_fault_while_reading_a_line_is_its_error_and_the_reading_goes_on(monkeypatch, caplog):
    """A fault of the reader (no input should raise; a RecursionError in the f-puzzles reader did) answers that
    line ``ERROR internal`` and the lines before and after it are read; it ended the connection before."""
    splitter = Splitter()
    feed_line = splitter.reader.feed_line

    def faulty(text, ending, lineno):
        if "boom" in text:
            raise RecursionError("maximum recursion depth exceeded")
        return feed_line(text, ending, lineno)

    monkeypatch.setattr(splitter.reader, "feed_line", faulty)
    items = feed(["COUNT", "boom", INKALA, "SOLVE boom", "PING"], splitter)
    assert [type(item).__name__ for item in items] == ["LineRejected", "PuzzleRead", "LineRejected", "CommandRead"]
    assert [(i.error.code, i.error.detail) for i in items if isinstance(i, LineRejected)] == [
        ("internal", "RecursionError while reading line 2"),
        ("internal", "RecursionError while reading line 4"),
    ]
    assert items[1].request == Solve(grid(INKALA)) and items[3].request == Ping()
    assert "line 2: unexpected error while reading it" in caplog.text


@pytest.mark.parametrize("chunk", [0, 1])
def test_a_stray_0xff_is_a_byte_that_is_not_utf_8_and_keeps_the_byte_after_it(chunk):
    """Break-session finding: 0xFF and the byte after it were taken as a telnet command whatever that byte was, so
    a line end after a stray 0xFF (a Latin-1 ``ÿ``) vanished and two puzzles ran together. Only RFC 854's commands
    (0xF0-0xFE after it) are; any other byte after it is data, and the 0xFF is named as any byte that is no UTF-8."""
    got = [describe(e) for e in events(INKALA.encode() + b"\xff\n" + INKALA.encode() + b"\n", chunk)]
    assert got == [
        Reply(b"ERROR format line 1, column 82: byte 0xFF is not a digit 1-9 or an empty mark (. 0 _)\n"),
        ("PuzzleReceived", Solve(grid(INKALA)), 2, "\n"),
    ]
    assert [describe(e) for e in events(b"PI\xff\xf1NG\n", chunk)] == [("CommandReceived", Ping(), 1, "\n")]  # NOP


NEWSPAPER_HTTP = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
NEWSPAPER_HTTP_ANSWER = b"417369825632158947958724316825437169791586432346912758289643571573291684164875293\n"


@pytest.mark.parametrize(
    ("first", "error"),
    [
        ("HINT ::::::::", b"ERROR format line 1: the givens hold 0 cells, not 81\n"),
        ("HINT all :", b"ERROR format line 1, column 10: ':' is not a digit 1-9 or an empty mark (. 0 _)\n"),
        ("SOLVE ........:", b"ERROR format line 1: expected 81 cells (9x9), found 8\n"),
        ("COUNT .:", b"ERROR format line 1: expected 81 cells (9x9), found 1\n"),
        (
            "Hint ....",
            b"ERROR command HINT: the puzzle on its line must be a whole one-line puzzle;"
            b" put a grid on the lines after HINT\n",
        ),
    ],
)
def test_a_verb_line_with_a_cut_puzzle_keeps_its_error_above_a_puzzle(first, error):
    """s9-break finding 15: a verb line whose puzzle is only dots or colons was skipped as a caption when a puzzle
    followed (no reply: a client counting replies is off by one); followed by PING it had its error."""
    assert replies(f"{first}\n{NEWSPAPER_HTTP}\n".encode()) == error + NEWSPAPER_HTTP_ANSWER


def test_a_verb_word_caption_is_still_skipped():
    assert replies(f"Solve this one please:\n{NEWSPAPER_HTTP}\n".encode()) == NEWSPAPER_HTTP_ANSWER


# -- s10-break findings 1 and 7: a line whose end has not arrived is unterminated, whatever it holds ---------------

UNTERMINATED = [
    (INKALA[:36].encode(), True),  # 36 cells: a whole 6x6 line, if it ended here
    (b"SOLVE " + INKALA.encode(), True),  # a whole request, if it ended here
    (b"GENERATE seed=4", True),
    (b"# generated by my tool", True),
    (b"\xef", True),  # the first byte of a full-width digit (or of a byte-order mark)
    (INKALA.encode() + b"\n", False),
    (INKALA.encode() + b"\r", False),  # a CR is a line end (held only to see whether LF follows)
    (INKALA.encode() + b"\r\n", False),
    (b"# a comment\n", False),
    (b"", False),
]


@pytest.mark.parametrize(
    ("data", "unterminated"), UNTERMINATED, ids=lambda v: repr(v[:24]) if isinstance(v, bytes) else None
)
def test_session_unterminated_whole_and_byte_by_byte(data, unterminated):
    whole = Session()
    whole.receive_data(data)
    trickled = Session()
    for byte in data:
        trickled.receive_data(bytes([byte]))
    assert whole.unterminated is unterminated
    assert trickled.unterminated is unterminated


def test_session_unterminated_follows_the_line_end_and_trailing_data():
    session = Session()
    session.receive_data(INKALA[:36].encode())
    assert session.unterminated
    session.receive_data(INKALA[36:].encode() + b"\nPI")  # the line ends; a new one begins
    assert session.unterminated and session.lineno == 1
    session.receive_data(b"NG\n")
    assert not session.unterminated and session.lineno == 2
    session.receive_data(b"SOLVE")
    session.receive_eof()
    assert not session.unterminated  # end of input settled it
