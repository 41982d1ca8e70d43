"""The client's pure helpers, in process: the reply scanner, the request readers
(the package's and the single file's heuristic one), the verb rewriting of
--count, the summary, the progress line, the GENERATE lines.
"""

from __future__ import annotations

import argparse
import io
import re

import pytest

from sudoku_client import cli as client_cli
from sudoku_client import progress
from sudoku_client.interactive import ShiftedOutput, shift_line_numbers
from sudoku_client.replies import ReplyScanner
from sudoku_server.service.requests import MAX_SEED
from sudoku_server.wire.session import CommandReceived, PuzzleReceived, Reply, Session
from sudoku_server.wire.verbs import VERBS
from tests.support.clienttools import PUZZLES, load_client

sc = load_client()  # sudoku_client of this checkout (it checks)

NEWSPAPER = (PUZZLES / "newspaper.txt").read_bytes()
NEWSPAPER_ANSWER = (PUZZLES / "newspaper.expected").read_bytes()
INKALA = (PUZZLES / "inkala.txt").read_bytes()
INKALA_ANSWER = (PUZZLES / "inkala.expected").read_bytes()
SIZE16_ANSWER = (PUZZLES / "layouts" / "size16.expected").read_bytes()

#: Replies as the server frames them (PROTOCOL.md "Replies"), and what the
#: scanner must make of them.
REPLIES = b"".join(
    [
        b"HELP PING\n  health check, answered without the solver\n  example: PING -> PONG\nEND\n",
        b"PONG\n",
        NEWSPAPER_ANSWER,
        INKALA_ANSWER,
        NEWSPAPER_ANSWER.replace(b"\n", b"\r\n"),
        SIZE16_ANSWER,  # 16x16: a one-line answer, a grid of 1-9 A-G, a grid of 0-F
        b"COUNT 1 unique\n",
        b"COUNT 2+ multiple\r\n",
        b"# generated size=9 givens=21 symmetry=none seed=7\n",
        INKALA,
        b"# generated size=9 givens=21 symmetry=none seed=8\n",
        NEWSPAPER + b"\n",
        b"ERROR invalid duplicate 5 in row 1 at r1c1 and r1c2\n",
        b'ERROR command unknown verb "HELLO"; try HELP\n',
        b'ERROR command GENERATE: size must be 4, 6, 9, 16 or 25, not "10"\n',
        b"STAT pid 12\rSTAT uptime 3\rEND\r",  # lone CR endings
        b"VERSION sudoku-server 0.3.0 protocol=2 core=python\n",
        b"ERROR busy queue wait over 10 s; the puzzle at line 7 was not solved\n",
        b"BYE\n",
        b"ERROR shutdown server shutting down before the puzzle at line 9 was answered\n",
    ]
)


def scan(chunks) -> object:
    scanner = sc.ReplyScanner()
    for chunk in chunks:
        scanner.feed(chunk)
    scanner.finish()
    return scanner


def summary_of(scanner) -> tuple:
    return (
        scanner.replies,
        scanner.solved,
        scanner.generated,
        scanner.words,
        scanner.errors,
        scanner.closing,
        scanner.not_puzzles,
        scanner.other,
        scanner.failures,
        scanner.closing_error,
    )


EXPECTED_SCAN = (
    20,  # replies
    6,  # solved: newspaper, inkala, newspaper CRLF, the three 16x16 (one line, letters, 0-F)
    2,  # generated
    {
        "PONG": {"": 1},
        "COUNT": {"1 unique": 1, "2+ multiple": 1},
        "VERSION": {"sudoku-server 0.3.0 protocol=2 core=python": 1},
        "BYE": {"": 1},
    },
    {"invalid": 1, "command": 1, "busy": 1},
    {"shutdown": 1},  # closing: not a puzzle's error (issue 17: it may stand for a PING)
    1,  # not puzzles
    5,  # other: HELP, PONG, STATS, VERSION, BYE
    4,  # failures (exit 1): invalid, unknown verb, command, busy for one puzzle
    "ERROR shutdown server shutting down before the puzzle at line 9 was answered",
)


def test_reply_scanner_frames_every_kind_of_reply():
    assert summary_of(scan([REPLIES])) == EXPECTED_SCAN
    assert scan([REPLIES]).puzzles == 6 + 2 + 2 + 3  # the closing ERROR shutdown is not a puzzle (issue 17)


def test_reply_scanner_in_any_chunking():
    for cut in range(0, len(REPLIES), 7):
        assert summary_of(scan([REPLIES[:cut], REPLIES[cut:]])) == EXPECTED_SCAN, cut
    assert summary_of(scan(REPLIES[i : i + 1] for i in range(len(REPLIES)))) == EXPECTED_SCAN


def test_reply_scanner_closing_errors():
    for line in (
        "ERROR too-large line 1 is longer than 4096 bytes",
        "ERROR busy 1024 connections open, try again later",
        "ERROR shutdown server shutting down; input from line 3 on was not read",
    ):
        scanner = scan([line.encode() + b"\n"])
        assert scanner.closing_error == line
        assert scanner.failures == 0


def test_reply_scanner_last_line_without_ending():
    scanner = scan([b"ERROR invalid duplicate 1 in row 1 at r1c1 and r1c2"])
    assert scanner.errors == {"invalid": 1}
    assert scanner.replies == 1


@pytest.mark.parametrize(
    "line, expected",
    [
        (INKALA.rstrip(), True),
        (b"inkala:" + INKALA_ANSWER.rstrip(), True),
        (INKALA_ANSWER.rstrip() + b"," + INKALA_ANSWER.rstrip(), True),
        (INKALA_ANSWER.rstrip() + b"  # a note", True),
        (b"1234341221434321", True),  # 4x4
        (b"123456789ABCDEFG", False),  # a row of a 16x16 grid
        (b"| 7 9 8 | 6 3 5 | 4 2 1 |", False),
        (b"8" * 80, False),
        (b"." * 81 + b" thermo=" + b"-".join(b"r%dc1" % r for r in range(1, 10)) * 3, True),  # givens, marks
        (b"." * 81 + b" thermo=r1c1-r1c2 kropki=r5c5-r5c6:w;negative", True),
        (b"8" * 80 + b" thermo=r1c1-r1c2-r1c3", False),
        # GENERATE under jigsaw, or rules no text layout holds together (break-session finding: exit 2)
        (b"." * 81 + b"aaabbbccc" * 9, True),  # a jigsaw line: givens, then a region symbol per cell
        (b"." * 80 + b"aaabbbccc" * 9, False),
        (b'{"size":9,"grid":[[{},{}' + b"," * 3000, True),  # an f-puzzles object (the scanner keeps its start)
        (b"https://f-puzzles.com/?load=N4IgzglgXgpiBcBOANCALhNAbO8QFkIBDAcwCdEQBVAO", True),
    ],
)
def test_one_line_answers(line, expected):
    assert sc.is_one_line_answer(line.decode()) is expected


# --- lines and requests -------------------------------------------------------


def test_line_splitter_endings_across_chunks():
    splitter = sc.LineSplitter()
    assert splitter.feed(b"\xef") == []
    assert splitter.feed(b"\xbb\xbfa\r") == []  # BOM dropped; the CR may start a CRLF
    assert splitter.feed(b"\nb\r") == [(b"a", b"\r\n")]
    assert splitter.feed(b"c\r\x00d\n") == [(b"b", b"\r"), (b"c", b"\r\x00"), (b"d", b"\n")]
    assert splitter.feed(b"e") == []
    assert splitter.finish() == [(b"e", b"")]
    splitter = sc.LineSplitter()
    assert splitter.feed(b"x\r") == []
    assert splitter.finish() == [(b"x", b"\r")]


def _session_replies(data: bytes) -> int:
    """How many replies the server's own session gives for *data*."""
    session = Session()
    events = session.receive_data(data) + session.receive_eof()
    return sum(isinstance(event, (PuzzleReceived, CommandReceived, Reply)) for event in events)


MIXED = b"".join(
    [
        b"HELP\nPING\nSTATS\nVERSION\nSOLVE\n",
        NEWSPAPER,
        b"COUNT limit=5 " + b"." * 80 + b"9\n",
        b"hello world\n",
        b"SOLVE any " + INKALA,
        b"COUNT\nPING\nGENERATE size=10\nHELP FLY\n",
        b"55" + b"." * 79 + b"\n",
        (PUZZLES / "layouts" / "size16.txt").read_bytes(),
        b"SOLVE\n",
    ]
)

SAMPLES = sorted(PUZZLES.glob("*.txt")) + sorted(PUZZLES.glob("*.csv")) + sorted((PUZZLES / "layouts").glob("*.txt"))


@pytest.mark.parametrize("path", SAMPLES + ["mixed"], ids=lambda p: getattr(p, "name", p))
def test_readers_count_the_replies_of_the_server(path):
    data = MIXED if path == "mixed" else path.read_bytes()
    replies = _session_replies(data)
    package = sc.PackageReader(sc._package())
    assert sc.count_requests([data], package) == replies
    # the heuristic reader finds the same in every sample the repository ships
    assert sc.count_requests([data], sc.HeuristicReader()) == replies
    # and in any chunking
    assert sc.count_requests((data[i : i + 50] for i in range(0, len(data), 50)), sc.HeuristicReader()) == replies


def test_count_requests_of_a_large_dataset():
    data = (PUZZLES / "sudoku17_500.txt").read_bytes()
    assert sc.count_requests([data]) == 500


READERS = pytest.mark.parametrize(
    "make", [lambda: sc.PackageReader(sc._package()), sc.HeuristicReader], ids=["package", "heuristic"]
)

COUNT_INPUT = b"".join(
    [
        b"# a comment\n",
        INKALA,
        b"\n",
        NEWSPAPER.replace(b"\n", b"\r\n"),
        b"hello\r\n",
        b"SOLVE\n",
        NEWSPAPER,
        b"COUNT limit=9 " + INKALA,
        INKALA.rstrip(b"\n"),  # the last line, unterminated
    ]
)

COUNT_OUTPUT = b"".join(
    [
        b"# a comment\n",
        b"COUNT " + INKALA,
        b"\n",
        b"COUNT\r\n" + NEWSPAPER.replace(b"\n", b"\r\n"),
        b"hello\r\n",
        b"SOLVE\n",
        NEWSPAPER,  # already after a verb
        b"COUNT limit=9 " + INKALA,
        b"COUNT " + INKALA.rstrip(b"\n"),
    ]
)


@READERS
def test_request_stream_puts_the_verb_before_each_puzzle(make):
    stream = sc.RequestStream("COUNT", reader=make())
    assert stream.feed(COUNT_INPUT) + stream.finish() == COUNT_OUTPUT
    assert stream.requests == 6


@READERS
def test_request_stream_holds_a_grid_until_it_is_complete(make):
    stream = sc.RequestStream("COUNT", reader=make())
    lines = NEWSPAPER.splitlines(keepends=True)
    for line in lines[:-1]:
        assert stream.feed(line) == b""
    assert stream.feed(lines[-1]) == b"COUNT\n" + NEWSPAPER
    assert stream.feed(b"PING\n") == b"PING\n"
    assert stream.finish() == b""
    assert stream.requests == 2


@READERS
def test_request_stream_without_verb_passes_lines_unchanged(make):
    stream = sc.RequestStream(reader=make())
    out = b"".join(stream.feed(COUNT_INPUT[i : i + 13]) for i in range(0, len(COUNT_INPUT), 13))
    assert out + stream.finish() == COUNT_INPUT
    assert stream.requests == 6


def test_heuristic_reader_grids_with_blank_cells_end_at_a_blank_line():
    text = "| 8     |       |\n|     3 | 6     |\n\n" + INKALA.decode()
    reader = sc.HeuristicReader()
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        found += reader.feed_line(line, "\n", number)
    assert found == [sc.Request(1, True), sc.Request(4, True, one_line=True)]
    assert reader.finish() == []


def test_heuristic_reader_after_quit_reads_nothing():
    assert sc.count_requests([b"PING\nQUIT\n" + INKALA], sc.HeuristicReader()) == 2


# --- the summary and the progress line --------------------------------------------


def test_summary_text():
    scanner = scan([REPLIES])
    assert sc.summary_text(scanner, 2.0) == (
        "13 puzzles: 6 solved, 2 generated, 3 errors (busy 1, command 1, invalid 1);"
        " 1 line was not a puzzle (an error: exit status 1); 5 commands answered;"
        " the server ended the connection (ERROR shutdown); 2.00 s, 6.5 puzzles/s"
    )
    count = sc.VERB_MODES["count"]
    scanner = scan([b"COUNT 1 unique\n" * 300 + b"COUNT 0 unsolvable\nCOUNT 2+ multiple\nCOUNT 2+ multiple\n"])
    assert sc.summary_text(scanner, 1.0, count) == (
        "303 puzzles: 300 unique, 3 not unique (0 unsolvable 1, 2+ multiple 2), 0 errors; 1.00 s, 303 puzzles/s"
    )
    assert count.failed(scanner.words["COUNT"]) == 3
    assert sc.summary_text(scan([INKALA_ANSWER]), 0.5) == "1 puzzle: 1 solved, 0 errors; 0.50 s, 2.0 puzzles/s"


def test_plain_progress_line(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    stream = io.StringIO()
    bar = sc.PlainProgress(1000, 0, stream)
    clock[0] = 102.0
    bar.update(400)
    clock[0] = 102.1
    bar.update(450)  # within 0.2 s: not drawn
    bar.total = None
    clock[0] = 104.0
    bar.update(800)
    bar.close()
    first = "sudoku-client: 0/1000 puzzles (0%)"
    second = "sudoku-client: 400/1000 puzzles (40%), 200/s, ETA 0:03"
    third = "sudoku-client: 800 puzzles, 200/s"
    assert stream.getvalue() == (
        "\r"
        + first
        + "\r"
        + second
        + "\r"
        + third
        + " " * (len(second) - len(third))  # covers the longer line before
        + "\r"
        + " " * len(third)
        + "\r"  # blanked
    )


def test_progress_starts_above_a_few_hundred_puzzles():
    stream = io.StringIO()
    total = [None]
    progress = sc.Progress(lambda: total[0], stream, use_tqdm=False)
    progress.update(sc.PROGRESS_MIN_PUZZLES)
    assert stream.getvalue() == ""
    total[0] = 5000
    progress.update(10)
    assert re.fullmatch(r"\rsudoku-client: 10/5000 puzzles \(0%\)", stream.getvalue())
    progress.close()


# --- GENERATE lines ----------------------------------------------------------------


def _generate_args(**given) -> argparse.Namespace:
    options = dict(
        generate=3, full=False, size=None, symmetry=None, givens=None, seed=None, format=None, level=None, rules=None
    )
    options.update(given)
    return argparse.Namespace(**options)


def test_generate_lines():
    assert list(sc.generate_lines(_generate_args(generate=2))) == [b"GENERATE\n", b"GENERATE\n"]
    assert list(sc.generate_lines(_generate_args(size=16, symmetry="rot90", givens=100, seed=7, format="grid"))) == [
        b"GENERATE size=16 symmetry=rot90 givens=100 format=grid seed=7\n",
        b"GENERATE size=16 symmetry=rot90 givens=100 format=grid seed=8\n",
        b"GENERATE size=16 symmetry=rot90 givens=100 format=grid seed=9\n",
    ]
    assert list(sc.generate_lines(_generate_args(generate=1, full=True, seed=0))) == [b"GENERATE full seed=0\n"]


def test_generate_options_are_the_servers():
    from sudoku_server.wire import verbs as commands

    assert sc.GENERATE_SIZES == commands.GENERATE_SIZES
    assert sc.GENERATE_SYMMETRIES == commands.SYMMETRIES
    # the single file's verb table knows every verb of the package's
    assert set(commands.VERBS) <= sc.KNOWN_VERBS
    assert {name for name, verb in commands.VERBS.items() if verb.takes_puzzle} <= sc.PUZZLE_VERBS


def test_standalone_copies_are_the_servers_definitions():
    # The client keeps its own copies so that it runs without the server
    # package; each is pinned here to the one definition it restates.
    from sudoku_client import replies
    from sudoku_server.sudoku.generator import SYMMETRIES
    from sudoku_server.sudoku.grid import BOX_SHAPES
    from sudoku_server.sudoku.rating import LEVELS

    sizes = tuple(sorted(BOX_SHAPES))
    assert sizes == sc.GENERATE_SIZES  # --size's choices
    assert sizes == sc.ROW_SIZES  # cells per row the heuristic reader takes for a grid row
    assert tuple(size * size for size in sizes) == sc.LINE_CELLS  # cells of a one-line puzzle
    assert (*SYMMETRIES, "random") == sc.GENERATE_SYMMETRIES  # --symmetry's choices
    assert frozenset(VERBS) == sc.KNOWN_VERBS
    assert frozenset(name for name, verb in VERBS.items() if verb.takes_puzzle) == sc.PUZZLE_VERBS
    assert replies.LEVELS == LEVELS  # the order of the --rate summary


def test_progress_waits_for_the_count():
    stream = io.StringIO()
    total = [None]
    counting = [True]
    progress = sc.Progress(lambda: total[0], stream, use_tqdm=False, counting=lambda: counting[0])
    progress.update(400)
    assert stream.getvalue() == ""  # not yet: the total comes soon
    total[0], counting[0] = 1000, False
    progress.update(450)
    assert stream.getvalue() == "\rsudoku-client: 450/1000 puzzles (45%)"
    progress.close()


INKALA_SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"


def test_client_line_numbers_count_from_the_persons_first_line():
    assert shift_line_numbers(b"ERROR format line 4: expected 9 cells, found 8\n", 1) == (
        b"ERROR format line 3: expected 9 cells, found 8\n"
    )
    assert shift_line_numbers(b"ERROR busy x; the puzzles at lines 3 to 9 was not solved\n", 1) == (
        b"ERROR busy x; the puzzles at lines 2 to 8 was not solved\n"
    )
    assert shift_line_numbers(b"123456789\n", 1) == b"123456789\n"

    class Sink:
        def __init__(self) -> None:
            self.data = b""

        def write(self, data: bytes) -> None:
            self.data += data

        def flush(self) -> None:
            pass

    from sudoku_client.exchange import Output

    sink = Sink()
    shifted = ShiftedOutput(Output(sink, ReplyScanner()))  # type: ignore[arg-type]
    for piece in (b"ERROR format li", b"ne 2, column 1: 'x' is", b" not a digit\n", INKALA_SOLUTION.encode(), b"\n"):
        assert shifted.write(piece)
    assert sink.data == b"ERROR format line 1, column 1: 'x' is not a digit\n" + INKALA_SOLUTION.encode() + b"\n"


def test_client_refuses_seeds_past_64_bits(capsys):
    with pytest.raises(SystemExit) as caught:
        client_cli.main(["--generate", "2", "--seed", str(MAX_SEED)])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert err.endswith(
        f"error: --seed {MAX_SEED} with --generate 2 would send seed={MAX_SEED + 1};"
        f" seeds are 0 to {MAX_SEED} (2**64 - 1)\n"
    ), err
    assert client_cli.MAX_SEED == MAX_SEED


def test_terminal_safe_escapes_controls_and_keeps_utf8_cut_between_reads():
    """``TerminalSafe`` (what the client prints): a UTF-8 character cut between two reads is kept whole; ESC, BEL,
    DEL, a C1 control and a byte that is not UTF-8 become ``\\xNN``; a sequence never ended is escaped at the end."""
    from sudoku_client.common import TerminalSafe, escape_bytes

    safe = TerminalSafe()
    pieces = [b"| 7 \xe2\x94", b"\x82 9 |\r\n", b"\x1b[31m\x07\x7f\xc2\x9b\xff\t", b"ok\n\xe2\x94"]
    assert [safe.feed(piece) for piece in pieces] + [safe.finish()] == [
        b"| 7 ",
        b"\xe2\x94\x82 9 |\r\n",
        b"\\x1b[31m\\x07\\x7f\\x9b\\xff\t",
        b"ok\n",
        b"\\xe2\\x94",
    ]
    answer = (PUZZLES / "newspaper.expected").read_bytes()
    assert escape_bytes(answer) == answer


def test_first_unanswered_is_the_first_bare_puzzle_with_another_reply():
    from sudoku_client.replies import ANSWER, ERROR, OTHER, first_unanswered

    scanner = ReplyScanner(watch=True)
    scanner.feed(b"PONG\n" + b"1" * 81 + b"\nERROR format line 3: x\nPONG\nhi\n\n")
    assert bytes(scanner.kinds) == bytes((OTHER, ANSWER, ERROR, OTHER, OTHER))
    assert scanner.texts == {0: "PONG", 3: "PONG", 4: "hi"}
    assert first_unanswered(b"\x00\x01\x01\x00\x01", scanner.kinds) == 4  # a PING's PONG; "hi" is no grid
    assert first_unanswered(b"\x00\x01\x01\x01", scanner.kinds) == 3
    assert first_unanswered(b"\x00\x01\x01\x00", scanner.kinds) is None
    assert ReplyScanner().kinds == bytearray()  # kept only when watched
