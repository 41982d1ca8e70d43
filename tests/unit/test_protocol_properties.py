"""Property tests of the sans-I/O Session (hypothesis, no trio, no sockets).

For any byte string, built from random bytes and structured fragments (the
layouts of test_formats.py, line endings, telnet commands, the BOM, comments,
borders), fed in any chunking:

* ``receive_data`` / ``receive_eof`` never raise;
* the line buffer never holds more than ``max(max_line_bytes, HELD_LINE_BYTES) + 1`` bytes
  (a line whose end has not arrived is held until it is known not to be f-puzzles);
* the events are the same whole, split at random points, and one byte at a
  time, both before and after ``receive_eof()``.

"The same events" compares the whole sequence, telnet replies included
(telnet commands act where they stand in the stream). The regression tests
at the end pin the chunking dependences these properties found: a telnet
interrupt that dropped complete lines of its own chunk, telnet answered past
a too-large line, and one-line puzzles swallowed by a malformed short line.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sudoku_server.wire.session import (
    DEFAULT_MAX_LINE_BYTES,
    HELD_LINE_BYTES,
    CloseConnection,
    CommandReceived,
    PuzzleReceived,
    Reply,
    Session,
    TelnetReply,
)
from tests.support.examples import (
    GRID_LINES,
    LAYOUT_TEXTS,
    NEWSPAPER,
    NEWSPAPER_LINE,
    NEWSPAPER_SOLUTION,
    PLAIN_ROWS,
)

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FEWER = settings(SETTINGS, max_examples=100)

BOM = b"\xef\xbb\xbf"
TELNET = [
    b"\xff\xfd\x18",  # DO terminal-type
    b"\xff\xfd\x06",  # DO timing-mark
    b"\xff\xfe\x01",  # DONT echo
    b"\xff\xfb\x1f",  # WILL window-size
    b"\xff\xfc\x03",  # WONT suppress-go-ahead
    b"\xff\xff",  # escaped 0xFF data byte
    b"\xff\xf1",  # NOP
    b"\xff\xfa\x18\x00xterm\xff\xf0",  # subnegotiation
    b"\xff",  # a command cut short
    b"\xff\xfa",
    b"\xff\xf0",
]
INTERRUPTS = [b"\xff\xf4", b"\xff\xf5"]  # IP, AO: Ctrl-C drops the puzzle being read
ENDINGS = [b"\n", b"\r\n", b"\r", b"\r\x00"]
MISC = [
    BOM,
    b"# comment",
    b"#A author",
    b"[Puzzle]",
    b"+-------+-------+-------+",
    b"---+---+---",
    b"------+------+------",
    b"|",
    b" ",
    b"\t",
    b"\x00",
    b"\xc3\xa9",  # UTF-8 e-acute
    b"\xe2\x91",  # a UTF-8 sequence cut short
    NEWSPAPER_LINE[:80].encode(),
    (NEWSPAPER_LINE + ".").encode(),
    # Other layouts and sizes (formats.py): dataset rows, labels, comments, 4x4.
    f"{NEWSPAPER_LINE},{NEWSPAPER_SOLUTION}".encode(),
    f"{NEWSPAPER_LINE},{NEWSPAPER_SOLUTION[::-1]}".encode(),
    b"quizzes,solutions",
    f"p1: {NEWSPAPER_LINE}".encode(),
    f"{NEWSPAPER_LINE} # rated 9.1".encode(),
    b"1.3..4..........",
    b"12|34",
    # Protocol 2 commands (commands.py), good and bad.
    b"PING",
    b"ping",
    b"SOLVE",
    b"SOLVE any",
    f"SOLVE {NEWSPAPER_LINE}".encode(),
    b"COUNT limit=5",
    b"COUNT limit=0",
    b"HELP count",
    b"INTERACTIVE",
    b"STATS",
    b"GENERATE size=10",
    b"hello",
    b"QUIT",
]
LINE_LIMITS = [DEFAULT_MAX_LINE_BYTES, 1, 9, 24, 81, 100]


def with_endings(text: str, ending: bytes) -> bytes:
    return text.encode().replace(b"\n", ending)


def fragments(interrupts: bool = True) -> st.SearchStrategy[bytes]:
    structured = TELNET + ENDINGS + MISC
    if interrupts:
        structured = structured + INTERRUPTS
    grid_line = st.sampled_from(GRID_LINES).map(str.encode)
    random_text = st.text(alphabet="123456789._0 |+-=*#[]\tx", max_size=30).map(str.encode)
    line = st.builds(
        lambda parts, ending: b"".join(parts) + ending,
        st.lists(st.one_of(grid_line, grid_line, random_text, st.sampled_from(structured)), max_size=3),
        st.sampled_from(ENDINGS),
    )
    return st.one_of(
        line,
        st.sampled_from(structured),
        st.builds(with_endings, st.sampled_from(LAYOUT_TEXTS), st.sampled_from(ENDINGS)),
        st.binary(max_size=16),
    )


def streams(interrupts: bool = True) -> st.SearchStrategy[bytes]:
    return st.lists(fragments(interrupts), max_size=25).map(b"".join)


def describe(event) -> tuple:
    """An event as a comparable tuple."""
    if isinstance(event, PuzzleReceived):
        p = event.puzzle
        extra = (getattr(p, "symbols", None), getattr(p, "expected", None))
        request = event.request  # the typed request it answers (Solve for a bare puzzle)
        return ("puzzle", p.grid, tuple(p.lines), tuple(p.endings), tuple(p.positions), p.first_line, extra, request)
    if isinstance(event, Reply):
        return ("reply", event.data)
    if isinstance(event, TelnetReply):
        return ("telnet", event.data)
    if isinstance(event, CommandReceived):
        return ("command", event.request, event.line, event.ending)
    assert isinstance(event, CloseConnection), event
    return ("close",)


def pieces(data: bytes, cuts: Sequence[int]) -> list[bytes]:
    bounds = [0, *sorted({min(max(c, 0), len(data)) for c in cuts}), len(data)]
    return [data[a:b] for a, b in zip(bounds, bounds[1:]) if b > a]


def check_puzzle(event: PuzzleReceived) -> None:
    """A complete puzzle is well formed: size*size cells, each at a cell character."""
    p = event.puzzle
    size = p.grid.box_rows * p.grid.box_cols
    assert len(p.grid.cells) == size * size and all(0 <= v <= size for v in p.grid.cells)
    assert len(p.positions) == size * size and len(p.endings) == len(p.lines) >= 1
    assert p.first_line >= 1
    for (li, col), value in zip(p.positions, p.grid.cells):
        ch = p.lines[li][col]
        assert ch not in "|+=\r\n"
        if value:
            assert not ch.isspace()


def feed(data: bytes, cuts: Sequence[int] = (), max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> tuple[list, list]:
    """Feed ``data`` split at ``cuts``, then EOF, checking the invariants after each call.

    Asserts: no exception, the buffer within ``max(max_line_bytes, HELD_LINE_BYTES) + 1`` after every
    call, closed after EOF and deaf afterwards, nothing after CloseConnection,
    every puzzle well formed. Returns the events before and after
    ``receive_eof()``, as tuples.
    """
    session = Session(max_line_bytes=max_line_bytes)
    before = []
    for piece in pieces(data, cuts):
        before.extend(session.receive_data(piece))
        assert len(session._buffer) <= max(max_line_bytes, HELD_LINE_BYTES) + 1
    after = session.receive_eof()
    assert len(session._buffer) <= max(max_line_bytes, HELD_LINE_BYTES) + 1
    assert session.closed
    assert session.receive_data(NEWSPAPER_LINE.encode() + b"\n") == []
    assert session.receive_eof() == []
    events = before + after
    for i, event in enumerate(events):
        if isinstance(event, CloseConnection):
            assert i == len(events) - 1, "events after CloseConnection"
        elif isinstance(event, PuzzleReceived):
            check_puzzle(event)
    return [describe(e) for e in before], [describe(e) for e in after]


def assert_same_events(expected: tuple[list, list], got: tuple[list, list]) -> None:
    assert got[0] == expected[0]  # before EOF
    assert got[1] == expected[1]  # at EOF


@FEWER
@given(
    st.lists(st.integers(1, 20000), min_size=1, max_size=10),
    st.sampled_from([b"x", b"\r", b"\n", b"\r\n", b"\xff\xff", b"\xff\xfd"]),
    st.sampled_from(LINE_LIMITS),
)
def test_buffer_stays_bounded_under_a_flood(sizes, tail, limit):
    session = Session(max_line_bytes=limit)
    for size in sizes:
        session.receive_data(b"." * size + tail)
        assert len(session._buffer) <= max(limit, HELD_LINE_BYTES) + 1
        if session.closed:
            break


@SETTINGS
@given(
    data=streams(interrupts=True),
    cuts=st.lists(st.integers(0, 4000), max_size=30),
    limit=st.sampled_from(LINE_LIMITS),
)
@example(data=b"+-------+-------+-------+\xff\xf4\n", cuts=[], limit=1)
@example(data=b"\r" + with_endings(NEWSPAPER, b"\r\x00") + b"\xff", cuts=[1, 2, 30], limit=DEFAULT_MAX_LINE_BYTES)
@example(data=BOM[:2] + b"\xff\xfd\x06" + BOM[2:] + PLAIN_ROWS.encode(), cuts=[1, 3, 4], limit=9)
def test_never_raises_buffer_bounded_and_chunking_does_not_change_events(data, cuts, limit):
    # Whole, split at random points, one byte at a time: feed() checks the
    # invariants after every call; the events must be identical.
    whole = feed(data, (), limit)
    assert_same_events(whole, feed(data, cuts, limit))
    assert_same_events(whole, feed(data, range(len(data)), limit))


def feed_limited(data: bytes, cuts: Sequence[int], max_events: int) -> tuple[list, list]:
    """feed(), but asking for at most ``max_events`` events per call (the server's reply window)."""
    session = Session()
    before = []
    telnet = b"\xff" in data  # telnet input is parsed whole (Session.receive_data)
    for piece in pieces(data, cuts):
        got = session.receive_data(piece, max_events=max_events)
        while True:
            # one line may complete two events, and INTERACTIVE adds the binary offer (6 bytes, once)
            replies = [e for e in got if not isinstance(e, TelnetReply)]
            assert telnet or len(replies) <= max_events + 1
            before.extend(got)
            if not session.backlog:
                break
            got = session.receive_more(max_events=max_events)
    after = session.receive_eof()
    return [describe(e) for e in before], [describe(e) for e in after]


@SETTINGS
@given(
    data=streams(interrupts=False),
    cuts=st.lists(st.integers(0, 4000), max_size=10),
    max_events=st.integers(1, 5),
)
@example(data=b". . . 3 . . 9 . .\nINTERACTIVE\r\n", cuts=[], max_events=1)  # a grid's error, the offer, the command
def test_parsing_no_more_than_the_window_holds_does_not_change_events(data, cuts, max_events):
    assert_same_events(feed(data, cuts), feed_limited(data, cuts, max_events))


# -- regressions: chunking dependences these properties found --------------------


def test_telnet_interrupt_keeps_complete_lines_of_the_same_chunk():
    # Found by test_events_do_not_depend_on_chunking: the interrupt cleared
    # the whole chunk, so a puzzle sent just before Ctrl-C was answered or
    # silently dropped depending on TCP segmentation (fixed in 4305637).
    data = NEWSPAPER_LINE.encode() + b"\n" + b"\xff\xf4"
    whole = feed(data)
    split = feed(data, [len(data) - 2])  # ['...puzzle\n', IAC IP]
    assert split[0][0][0] == "puzzle"
    assert whole == split


def test_telnet_interrupt_after_a_too_long_partial_line():
    # The bytewise feed hits too-large before the interrupt arrives; the whole
    # chunk must too (the interrupt must not rescue a line already over the limit).
    data = b"+-------+-------+-------+\xff\xf4\n"
    assert feed(data, (), 1) == feed(data, range(len(data)), 1)


def test_telnet_after_a_too_large_line_is_not_answered():
    # Found by the fuzzer: the whole chunk's telnet commands were answered
    # before the line split, so a DO after a too-large line got a WONT only
    # when it arrived in the same segment.
    data = b"1" * 10 + b"\n" + b"\xff\xfd\x06"
    whole = feed(data, (), 9)
    split = feed(data, [11], 9)
    assert split == ([("reply", b"ERROR too-large line 1 is longer than 9 bytes\n"), ("close",)], [])
    assert whole == split


def test_binary_offer_stands_where_the_first_negotiation_stands():
    # Found by the session fuzzer (about 155,000 inputs): WILL 1, WONT 1,
    # WILL BINARY in one chunk. The whole chunk was parsed before the offer,
    # so WILL BINARY was taken as the client asking first (answered DO
    # BINARY) and the offer came before that answer; a byte at a time, the
    # offer goes out at the first negotiation and WILL BINARY agrees to it.
    data = b"\xff\xfb\x01\xff\xfc\x01\xff\xfb\x00x\n"
    whole = feed(data)
    assert whole == (
        [
            ("telnet", b"\xff\xfe\x01"),  # DONT 1: refused
            ("telnet", b"\xff\xfd\x00\xff\xfb\x00"),  # the offer: DO BINARY, WILL BINARY
            ("reply", b'ERROR command unknown verb "X"; try HELP\n'),
        ],
        [],
    )
    assert whole == feed(data, range(1, len(data)))


def test_a_line_that_may_still_be_fpuzzles_is_held_until_that_is_known():
    # Found by the session fuzzer (limit 1 byte): byte by byte, "GV" was
    # refused as too large before the "{" that makes "GVM {" an f-puzzles
    # line (64 KiB) arrived; whole, the line was read. A line whose end has
    # not arrived is now held to 279 bytes before it is refused.
    data = b"GVM\t{\x8b\r\x00\r\nx\n"
    whole = feed(data, (), 1)
    assert whole == (
        [
            ("reply", b'ERROR command unknown verb "GVM"; try HELP\r\n'),
            ("reply", b'ERROR command unknown verb "X"; try HELP\n'),
        ],
        [],
    )
    assert whole == feed(data, range(1, len(data)), 1)


def test_an_fpuzzles_object_must_begin_within_256_bytes_of_its_line():
    data = b"SOLVE" + b" " * 300 + b"{" + b"x" * 5000 + b"\n"
    assert feed(data) == ([("reply", b"ERROR too-large line 1 is longer than 4096 bytes\n"), ("close",)], [])


JUNK_LINE = st.text(alphabet="123456789._0 |x-#", min_size=1, max_size=20).filter(
    lambda s: sum(ch not in " |" for ch in s) not in (0, 81)
)


@FEWER
@given(st.lists(st.one_of(st.just(None), JUNK_LINE), min_size=1, max_size=12))
@example(["12", None, None])
@example(["|", None])
@example(["12345678x", None])
@example(["0000 0000", None])  # the first row of a 4x4 cage block: it swallowed the puzzle after it
def test_every_one_line_puzzle_after_junk_is_answered(lines):
    # PROTOCOL.md: a line that is not part of a puzzle "must never bleed into
    # the next puzzle". A malformed short line ('12', '1 2 3', '12345678x')
    # used to start a grid that swallowed the next 8 one-line puzzles as rows,
    # with no answer for them at all.
    text = "".join((NEWSPAPER_LINE if line is None else line) + "\n" for line in lines)
    before, after = feed(text.encode())
    answered = {event[5] for event in before + after if event[0] == "puzzle"}
    wanted = {i + 1 for i, line in enumerate(lines) if line is None}
    assert wanted <= answered


def test_a_cage_block_row_before_a_one_line_puzzle_is_an_error_and_the_puzzle_is_answered():
    before, after = feed(b"0000 0000\n" + NEWSPAPER_LINE.encode() + b"\n")
    events = before + after
    assert events[0] == ("reply", b"ERROR format line 2: the cage block that starts at line 1 has 1 row, expected 4\n")
    assert [event[5] for event in events if event[0] == "puzzle"] == [2]
