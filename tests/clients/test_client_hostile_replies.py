"""The bundled client against replies that do not answer what it sent, and bytes that would drive a terminal.

Break-session findings: in plain mode the client exited 0 when a server answered a puzzle ``PONG`` (the reply
count matched), and it copied ESC and the other control bytes it received to the terminal as they came.
"""

from __future__ import annotations

from tests.support.clienttools import PUZZLES, Close, FakeServer, address_args, run_client

PUZZLE = b"..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SOLUTION = b"483921657967345821251876493548132976729564138136798245372689514814253769695417382"
NEWSPAPER = (PUZZLES / "newspaper.txt").read_bytes()


def test_pong_to_a_one_line_puzzle_exits_2_and_names_the_puzzle():
    with FakeServer(lambda line: b"PONG\n" if line else None) as fake:  # (a blank line gets no reply)
        result = run_client("--port", str(fake.port), input=b"\n" + PUZZLE + b"\n")
    assert result.stdout == b"PONG\n"
    assert result.stderr == (
        b'sudoku-client: 127.0.0.1:%d answered "PONG" to the puzzle at line 2, neither its answer nor an ERROR line'
        b" (is it a sudoku-server?)\n" % fake.port
    )
    assert result.returncode == 2


def test_a_short_non_grid_reply_to_a_grid_exits_2():
    """A reply to a bordered grid that is a line of text and a blank line is no grid answer."""
    rows = iter(range(1, 100))
    with FakeServer(lambda line: b"hello there\n\n" if next(rows) == len(NEWSPAPER.splitlines()) else None) as fake:
        result = run_client("--port", str(fake.port), input=NEWSPAPER)
    assert result.stdout == b"hello there\n\n"
    assert result.stderr == (
        b'sudoku-client: 127.0.0.1:%d answered "hello there" to the puzzle at line 1, neither its answer nor an'
        b" ERROR line (is it a sudoku-server?)\n" % fake.port
    )
    assert result.returncode == 2


def test_pong_answering_a_ping_line_of_the_input_is_fine(server_address):
    """The real server: a PING line of the input gets PONG, the puzzle its answer; exit 0."""
    result = run_client(*address_args(server_address), input=b"PING\n" + PUZZLE + b"\n")
    assert (result.stdout, result.stderr, result.returncode) == (b"PONG\n" + SOLUTION + b"\n", b"", 0)


def test_an_error_line_to_a_puzzle_is_its_answer_and_exits_1():
    with FakeServer(lambda line: b"ERROR unsolvable no solution exists\n") as fake:
        result = run_client("--port", str(fake.port), input=PUZZLE + b"\n")
    assert (result.stdout, result.stderr, result.returncode) == (b"ERROR unsolvable no solution exists\n", b"", 1)


def test_control_bytes_from_the_server_are_printed_escaped():
    """ESC (clear screen, set the title), BEL, a C1 CSI and a byte that is not UTF-8 are printed as ``\\xNN``; tab,
    line ends and UTF-8 text (box drawing) stay as they are."""
    reply = b"ERROR format \x1b[2J\x1b]0;pwned\x07 \xc2\x9b31m caf\xc3\xa9 \xe2\x94\x9c\t\xff\n"
    with FakeServer(lambda line: reply) as fake:
        result = run_client("--port", str(fake.port), input=PUZZLE + b"\n")
    assert result.stdout == (b"ERROR format \\x1b[2J\\x1b]0;pwned\\x07 \\x9b31m caf\xc3\xa9 \xe2\x94\x9c\t\\xff\n")
    assert (result.stderr, result.returncode) == (b"", 1)


def test_a_hostile_non_answer_is_named_escaped_on_stderr():
    """A line the server sends that never ends as a reply (no grid, no blank line) is named, escaped, and exit 2."""
    with FakeServer(lambda line: Close(b"\x1b]52;c;aGk=\x07hello\n")) as fake:
        result = run_client("--port", str(fake.port), input=PUZZLE + b"\n")
    assert result.stdout == b"\\x1b]52;c;aGk=\\x07hello\n"
    assert result.stderr == (
        b'sudoku-client: 127.0.0.1:%d answered "\\x1b]52;c;aGk=\\x07hello" to the puzzle at line 1, neither its'
        b" answer nor an ERROR line (is it a sudoku-server?)\n" % fake.port
    )
    assert result.returncode == 2


def test_ping_prints_the_reply_escaped():
    with FakeServer(lambda line: b"\x1b[2JPONG\n") as fake:
        result = run_client("--port", str(fake.port), "--ping")
    assert result.stdout == b"\\x1b[2JPONG\n"
    assert result.stderr == b"sudoku-client: 127.0.0.1:%d answered '\\x1b[2JPONG' to PING\n" % fake.port
    assert result.returncode == 2
