"""The plain one-line 9x9 format is defined once (``sudoku_server.text.oneline``): every fast reader implements
that definition, held here on one table of lines (issue 28).

The readers: the native core's ``solve_lines`` (C), the line session's buffer (``Session.take_plain``), the
text reader (``PuzzleReader.feed_plain_line``), and the bundled client's copy (pinned: it may not import the
server).
"""

from __future__ import annotations

import pytest

from sudoku_client.requests import PLAIN_ONE_LINE
from sudoku_server.sudoku import solver
from sudoku_server.text import PuzzleReader, oneline
from sudoku_server.wire.session import Session

PUZZLE = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
SOLUTION = "812753649943682175675491283154237896369845721287169534521974368438526917796318452"
ZEROS = PUZZLE.replace(".", "0")
UNDERSCORES = PUZZLE.replace(".", "_")
MIXED = PUZZLE[:1] + "0_" + PUZZLE[3:]  # r1c2 and r1c3 are empty: the marks mixed


def one_line(line: bytes) -> bool:
    """True when ``line`` holds no line break before its last terminator (one line, not two)."""
    body = line[:-2] if line.endswith(b"\r\n") else line[:-1]
    return b"\n" not in body and b"\r" not in body


#: (line, plain by the definition): one puzzle (unique solution) written in and around the format.
TABLE: list[tuple[bytes, bool]] = [
    (f"{PUZZLE}\n".encode(), True),
    (f"{PUZZLE}\r\n".encode(), True),
    (f"{PUZZLE}\r".encode(), True),
    (f"{ZEROS}\n".encode(), True),
    (f"{UNDERSCORES}\n".encode(), True),
    (f"{MIXED}\n".encode(), True),
    (PUZZLE.encode(), False),  # no terminator
    (f"{PUZZLE[:80]}\n".encode(), False),  # 80 cells
    (f"{PUZZLE}.\n".encode(), False),  # 82 cells
    (f" {PUZZLE}\n".encode(), False),  # a blank before
    (f"{PUZZLE} \n".encode(), False),  # a blank after
    (f"{PUZZLE}\t\n".encode(), False),
    (f"{PUZZLE[:80]}x\n".encode(), False),  # a letter
    (f"{PUZZLE[:80]}*\n".encode(), False),  # another empty mark of other layouts
    (f"{PUZZLE}\n\r".encode(), False),  # LF then CR: two lines
    (f"{PUZZLE}\n\n".encode(), False),
    (f"{PUZZLE[:80]}\uff18\n".encode(), False),  # a full-width digit (UTF-8)
    (f"{PUZZLE},{SOLUTION}\n".encode(), False),  # a dataset row
    (f"SOLVE {PUZZLE}\n".encode(), False),  # a verb before it
]


def test_the_definition_on_the_table():
    assert [oneline.is_plain_line(line) for line, _ in TABLE] == [plain for _, plain in TABLE]
    assert oneline.plain_values(PUZZLE)[:3] == (8, 0, 0) and len(oneline.plain_values(UNDERSCORES)) == 81


@pytest.mark.skipif(not solver.LINES_NATIVE, reason="the native core is not built")
def test_the_c_reader_takes_exactly_the_plain_lines():
    for line, plain in TABLE:
        out: list[bytes | None] = []
        solver.solve_lines([line], out)
        terminator = line[-2:] if line.endswith(b"\r\n") else line[-1:]
        expected = SOLUTION.encode() + terminator if plain else None
        assert out == [expected], line


def test_the_session_takes_the_plain_lines_ending_lf_or_crlf():
    for line, plain in TABLE:
        if not one_line(line):
            continue
        session = Session()
        assert session.buffer_plain(line + b"PING\n")
        lines, _ = session.take_plain(10)
        buffered = plain and not (line.endswith(b"\r") and not line.endswith(b"\r\n"))  # a lone CR waits for LF
        assert lines == ([line] if buffered else []), line


def test_the_text_reader_reads_the_plain_texts():
    for line, plain in TABLE:
        text = line.decode("utf-8").rstrip("\r\n") if line.endswith((b"\n", b"\r")) else None
        if text is None or not one_line(line):
            continue
        read = PuzzleReader().feed_plain_line(text, "\n", 1)
        assert (read is not None) is plain, line
        if read is not None:
            assert read.grid.cells == oneline.plain_values(text)


def test_the_clients_copy_is_pinned():
    """The client keeps its own copy (it may not import the server): digits and ``.`` only, or a dataset row.
    Every line it takes as a bare puzzle is a plain line by the definition; it leaves ``_`` lines (and the
    dataset rows it takes) to its general reader, which reads them the same."""
    assert PLAIN_ONE_LINE.pattern == r"[0-9.]{81}(?:,[0-9]{81})?"
    for line, plain in TABLE:
        if not line.endswith((b"\n", b"\r")) or not one_line(line):
            continue  # the client matches lines already split at their terminator
        text = line.decode("utf-8").rstrip("\r\n")
        if PLAIN_ONE_LINE.fullmatch(text) and "," not in text:
            assert plain, line
    assert not PLAIN_ONE_LINE.fullmatch(UNDERSCORES)
