"""The client's modes against the real server: --count, --generate, the summary,
the progress bar, interactive use on a terminal, the check that every request
was answered; fake servers where the real one has no such verb yet.

Every mode runs twice where the two ways of finding requests differ: with the
server package (its own reader, exact) and standalone (``python3 -S``, the
single file's heuristic reader).
"""

from __future__ import annotations

import re
import socket
import time

import pytest

from tests.support.clienttools import (
    PUZZLES,
    RUN_TIMEOUT,
    Close,
    FakeServer,
    TerminalClient,
    address_args,
    run_client,
    run_with_terminal_stderr,
)

NEWSPAPER = (PUZZLES / "newspaper.txt").read_bytes()
NEWSPAPER_ANSWER = (PUZZLES / "newspaper.expected").read_bytes()
INKALA = (PUZZLES / "inkala.txt").read_bytes()
INKALA_ANSWER = (PUZZLES / "inkala.expected").read_bytes()
EMPTY = (PUZZLES / "empty.txt").read_bytes()
INVALID_ONE_LINE = b"55" + b"." * 79 + b"\n"
INVALID_ERROR = b"ERROR invalid duplicate 5 in row 1 at r1c1 and r1c2\n"

WAYS = pytest.mark.parametrize("standalone", [False, True], ids=["package", "standalone"])


def summary_pattern(text: str) -> re.Pattern:
    """The summary line: *text*, then the seconds and the rate."""
    return re.compile(rb"sudoku-client: " + re.escape(text.encode()) + rb"; \d+\.\d\d s, \d+(\.\d)? puzzles/s\r?\n")


# --- --count ----------------------------------------------------------------------


@WAYS
def test_count_every_puzzle(server_address, tmp_path, standalone):
    path = tmp_path / "mixed.txt"
    path.write_bytes((PUZZLES / "several.txt").read_bytes() + NEWSPAPER + EMPTY + INVALID_ONE_LINE)
    result = run_client(*address_args(server_address), "--count", "--summary", str(path), standalone=standalone)
    assert result.stdout == b"COUNT 1 unique\n" * 6 + b"COUNT 2+ multiple\n" + INVALID_ERROR
    assert summary_pattern("8 puzzles: 6 unique, 1 not unique (2+ multiple 1), 1 error (invalid 1)").fullmatch(
        result.stderr
    ), result.stderr
    assert result.returncode == 1


@WAYS
def test_count_all_unique_exits_0(server_address, standalone):
    result = run_client(
        *address_args(server_address), "--count", str(PUZZLES / "norvig_top95.txt"), standalone=standalone
    )
    assert result.stdout == b"COUNT 1 unique\n" * 95
    assert result.stderr == b""
    assert result.returncode == 0


@WAYS
def test_rate_every_puzzle(server_address, tmp_path, standalone):
    path = tmp_path / "five.txt"
    path.write_bytes(b"".join((PUZZLES / "norvig_top95.txt").read_bytes().splitlines(keepends=True)[:5]) + NEWSPAPER)
    result = run_client(*address_args(server_address), "--rate", "--summary", str(path), standalone=standalone)
    assert (
        result.stdout
        == (
            b"RATE medium se=2.6 qqwing=intermediate hardest=pointing method=techniques hodoku=medium:696\n"
            + b"RATE medium se=2.6 qqwing=intermediate hardest=pointing method=techniques hodoku=medium:756\n"
            + b"RATE medium se=2.6 qqwing=intermediate hardest=pointing method=techniques hodoku=medium:806\n"
            + b"RATE expert se=5.5 qqwing=expert hardest=WXYZ-Wing method=techniques hodoku=unfair:1706\n"
            + b"RATE hard se=4.1 qqwing=expert hardest=two-string-kite method=techniques hodoku=hard:1286\n"
            # the newspaper grid: dynamic forcing chains (+) since the nested finders are in the path (search before)
            + b"RATE extreme se=9.8 qqwing=expert hardest=dynamic-forcing-chains-plus method=techniques"
            b" hodoku=extreme:64+\n"
        )
    )
    assert summary_pattern("6 puzzles: rated medium 3, hard 1, expert 1, extreme 1, 0 errors").fullmatch(
        result.stderr
    ), result.stderr
    assert result.returncode == 0


@WAYS
def test_count_from_stdin_crlf_grid_and_prose(server_address, standalone):
    request = b"Here is today's puzzle:\r\n" + NEWSPAPER.replace(b"\n", b"\r\n")
    result = run_client(*address_args(server_address), "--count", "--summary", input=request, standalone=standalone)
    assert result.stdout == b'ERROR command unknown verb "HERE"; try HELP\r\n' + b"COUNT 1 unique\r\n"
    assert summary_pattern("1 puzzle: 1 unique, 0 errors; 1 line was not a puzzle (an error: exit status 1)").fullmatch(
        result.stderr
    )
    assert result.returncode == 1  # a line that is not a puzzle is an error (exit table)


@WAYS
def test_count_sends_count_before_each_puzzle(standalone):
    unique = b"COUNT 1 unique\n"
    borders = []

    def answer(line: bytes):
        if line.startswith(b"COUNT "):
            return unique
        if line.startswith(b"+"):  # the newspaper grid has 4 border lines
            borders.append(line)
            return unique if len(borders) == 4 else None
        return None

    with FakeServer(answer) as fake:
        result = run_client(
            "--port", str(fake.port), "--count", input=INKALA + b"\n" + NEWSPAPER, standalone=standalone
        )
    assert result.stdout == unique * 2
    assert result.returncode == 0
    assert fake.connections == [[b"COUNT " + INKALA.rstrip(b"\n"), b"", b"COUNT", *NEWSPAPER.splitlines()]]


# --- plain solving: the summary ----------------------------------------------------


@WAYS
def test_summary_counts_errors_and_prose_apart(server_address, standalone):
    request = (PUZZLES / "norvig_top95.txt").read_bytes() + INVALID_ONE_LINE + b"hello there\n"
    result = run_client(*address_args(server_address), "--summary", input=request, standalone=standalone)
    assert result.stdout == (
        (PUZZLES / "norvig_top95.expected").read_bytes()
        + INVALID_ERROR
        + b'ERROR command unknown verb "HELLO"; try HELP\n'
    )
    assert summary_pattern(
        "96 puzzles: 95 solved, 1 error (invalid 1); 1 line was not a puzzle (an error: exit status 1)"
    ).fullmatch(result.stderr), result.stderr
    assert result.returncode == 1


def test_summary_counts_commands(server_address):
    result = run_client(*address_args(server_address), "--summary", input=b"PING\nHELP PING\n" + INKALA)
    assert result.stdout.startswith(b"PONG\nHELP PING\n")
    assert result.stdout.endswith(b"END\n" + INKALA_ANSWER)
    assert summary_pattern("1 puzzle: 1 solved, 0 errors; 2 commands answered").fullmatch(result.stderr)
    assert result.returncode == 0


def test_quiet_turns_the_summary_off(server_address):
    result = run_client(*address_args(server_address), "--summary", "--quiet", input=INKALA)
    assert result.stdout == INKALA_ANSWER
    assert result.stderr == b""


# --- every request answered ----------------------------------------------------------


@WAYS
def test_a_missing_answer_exits_2_with_the_package(tmp_path, standalone):
    # A server that drops the second of three puzzles and closes normally.
    seen = []

    def answer(line: bytes):
        seen.append(line)
        return None if len(seen) == 2 else INKALA_ANSWER

    path = tmp_path / "three.txt"
    path.write_bytes(INKALA * 3)
    with FakeServer(answer) as fake:
        result = run_client("--port", str(fake.port), str(path), standalone=standalone)
    assert result.stdout == INKALA_ANSWER * 2
    if standalone:  # the heuristic count is no proof: no check
        assert result.stderr == b""
        assert result.returncode == 0
    else:
        assert result.stderr == b"sudoku-client: 127.0.0.1:%d answered 2 of 3 requests\n" % fake.port
        assert result.returncode == 2


# --- --generate ------------------------------------------------------------------------


def _fake_generate(line: bytes) -> bytes:
    """A GENERATE reply as PROTOCOL.md frames it: a # line, then the puzzle."""
    words = line.decode().split()
    assert words[0] == "GENERATE"
    options = dict(word.split("=", 1) for word in words[1:] if "=" in word)
    header = "# generated size=9 givens=21 symmetry=%s seed=%s\n" % (
        options.get("symmetry", "none"),
        options.get("seed", "7"),
    )
    puzzle = NEWSPAPER + b"\n" if options.get("format") == "grid" else INKALA
    return header.encode() + puzzle


def test_generate_sends_n_lines_with_consecutive_seeds():
    with FakeServer(_fake_generate) as fake:
        result = run_client(
            "--port", str(fake.port), "--generate", "3", "--symmetry", "rot180", "--seed", "42", "--summary"
        )
    assert fake.connections == [
        [b"GENERATE symmetry=rot180 seed=42", b"GENERATE symmetry=rot180 seed=43", b"GENERATE symmetry=rot180 seed=44"]
    ]
    assert result.stdout == b"".join(
        b"# generated size=9 givens=21 symmetry=rot180 seed=%d\n" % seed + INKALA for seed in (42, 43, 44)
    )
    assert summary_pattern("3 puzzles: 3 generated, 0 errors").fullmatch(result.stderr), result.stderr
    assert result.returncode == 0


def test_generate_grids_with_every_option():
    with FakeServer(_fake_generate) as fake:
        result = run_client(
            "--port",
            str(fake.port),
            "--generate",
            "2",
            "--size",
            "9",
            "--givens",
            "30",
            "--format",
            "grid",
            standalone=True,
        )
    assert fake.connections == [[b"GENERATE size=9 givens=30 format=grid"] * 2]
    assert result.stdout == (b"# generated size=9 givens=21 symmetry=none seed=7\n" + NEWSPAPER + b"\n") * 2
    assert result.stderr == b""
    assert result.returncode == 0


def test_generate_full():
    with FakeServer(lambda line: b"# generated full size=9 seed=1\n" + INKALA_ANSWER) as fake:
        result = run_client("--port", str(fake.port), "--generate", "1", "--full", "--summary")
    assert fake.connections == [[b"GENERATE full"]]
    assert result.stdout == b"# generated full size=9 seed=1\n" + INKALA_ANSWER
    assert summary_pattern("1 puzzle: 1 generated, 0 errors").fullmatch(result.stderr)
    assert result.returncode == 0


def test_generate_error_exits_1():
    # The server counts the client's hidden KEEPALIVE as line 1: its "line 3"
    # is the client's second GENERATE, printed as line 2.
    error = b"ERROR internal ImportError while answering the GENERATE at line %d\n"
    replies = iter([_fake_generate(b"GENERATE"), error % 3])
    with FakeServer(lambda line: next(replies)) as fake:
        result = run_client("--port", str(fake.port), "--generate", "2")
    assert result.stdout == _fake_generate(b"GENERATE") + error % 2
    assert result.returncode == 1


def _server_generates(server_address) -> bytes:
    with socket.create_connection(server_address, timeout=10) as sock:
        sock.sendall(b"GENERATE seed=1\n")
        sock.shutdown(socket.SHUT_WR)
        reply = b""
        while True:
            data = sock.recv(65536)
            if not data:
                return reply
            reply += data


def test_generate_against_the_real_server(server_address):
    reply = _server_generates(server_address)
    if not reply.startswith(b"#"):
        pytest.skip("the server does not answer GENERATE yet: %s" % reply.decode(errors="replace").strip())
    args = [*address_args(server_address), "--generate", "3", "--seed", "5", "--symmetry", "rot180"]
    first = run_client(*args)
    assert first.returncode == 0
    assert run_client(*args).stdout == first.stdout  # the same seeds, the same puzzles
    lines = first.stdout.splitlines()
    assert len(lines) == 6
    for header, puzzle in zip(lines[::2], lines[1::2]):
        assert header.startswith(b"# ")
        assert len(puzzle) == 81
    counted = run_client(*address_args(server_address), "--count", input=first.stdout)
    assert counted.stdout == b"COUNT 1 unique\n" * 3
    assert counted.returncode == 0
    grids = run_client(*address_args(server_address), "--generate", "2", "--seed", "5", "--format", "grid")
    assert grids.returncode == 0
    counted = run_client(*address_args(server_address), "--count", input=grids.stdout)
    assert counted.stdout == b"COUNT 1 unique\n" * 2


# --- progress on a terminal ---------------------------------------------------------------

SUDOKU17 = PUZZLES / "sudoku17_500.txt"


def test_progress_bar_with_tqdm(server_address):
    pytest.importorskip("tqdm")
    seen, status = run_with_terminal_stderr(*address_args(server_address), str(SUDOKU17))
    assert status == 0
    assert re.search(rb"sudoku-client: +\d+%\|.*\| \d+/500 \[", seen), seen
    assert summary_pattern("500 puzzles: 500 solved, 0 errors").search(seen), seen
    assert seen.endswith(b"puzzles/s\r\n")


def test_plain_progress_line_without_tqdm(server_address):
    seen, status = run_with_terminal_stderr(*address_args(server_address), str(SUDOKU17), standalone=True)
    assert status == 0
    # the line is redrawn after \r, and blanked before the summary
    match = re.fullmatch(rb"(\rsudoku-client: \d+/500 puzzles[^\r]*)+\r +\r(?P<summary>.*)", seen, re.S)
    assert match, seen
    assert summary_pattern("500 puzzles: 500 solved, 0 errors").fullmatch(match.group("summary")), seen


def test_no_progress_bar_for_a_few_puzzles(server_address):
    seen, status = run_with_terminal_stderr(*address_args(server_address), str(PUZZLES / "norvig_top95.txt"))
    assert status == 0
    assert summary_pattern("95 puzzles: 95 solved, 0 errors").fullmatch(seen), seen


def test_quiet_means_nothing_on_the_terminal(server_address):
    seen, status = run_with_terminal_stderr(*address_args(server_address), "--quiet", str(SUDOKU17))
    assert status == 0
    assert seen == b""


def test_progress_of_a_pipe_has_no_total(server_address):
    seen, status = run_with_terminal_stderr(*address_args(server_address), standalone=True, stdin=SUDOKU17.read_bytes())
    assert status == 0
    assert re.search(rb"\rsudoku-client: \d+ puzzles", seen), seen
    assert b"/500" not in seen


# --- interactive use: a terminal on standard input ----------------------------------------


def _type_slowly(terminal: TerminalClient, text: bytes, pause_after: tuple = (1, 7)) -> None:
    """Type *text* line by line, pausing longer than the server's close grace (0.5 s) after some."""
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        terminal.type(line)
        time.sleep(0.7 if number in pause_after else 0.05)


@WAYS
def test_interactive_fallback_keeps_the_session(server_address, standalone):
    # Today's server has no INTERACTIVE: the client sends each complete
    # puzzle on a connection of its own, and nothing typed is lost.
    terminal = TerminalClient(*address_args(server_address), standalone=standalone)
    _type_slowly(terminal, NEWSPAPER)
    assert terminal.wait_stdout(NEWSPAPER_ANSWER), terminal.stdout
    time.sleep(0.7)
    terminal.type(INKALA)
    assert terminal.wait_stdout(NEWSPAPER_ANSWER + INKALA_ANSWER), terminal.stdout
    time.sleep(0.7)
    terminal.type(b"hello\n")
    assert terminal.wait_stdout(NEWSPAPER_ANSWER + INKALA_ANSWER + b'ERROR command unknown verb "HELLO"; try HELP\n')
    assert terminal.end() == 1
    assert terminal.stderr == b""


def test_interactive_ctrl_d_inside_a_grid(server_address):
    terminal = TerminalClient(*address_args(server_address))
    terminal.type(b"".join(NEWSPAPER.splitlines(keepends=True)[:4]))
    time.sleep(0.3)
    assert terminal.end() == 1
    # issue 17: the INTERACTIVE line the client sent first is the server's line 1; the client counts the person's.
    assert terminal.stdout == b"ERROR incomplete input ended inside the puzzle that starts at line 1 (3 of 9 rows)\n"


INTERACTIVE_REPLY = b"INTERACTIVE on; idle timeout 300 s; QUIT or end of input to close\n"


def _fake_interactive(line: bytes):
    if line == b"INTERACTIVE":
        return INTERACTIVE_REPLY
    if line.startswith(b"COUNT "):
        return b"COUNT 1 unique\n"
    return INKALA_ANSWER if line == INKALA.rstrip(b"\n") else None


@WAYS
def test_interactive_session_on_one_connection(standalone):
    with FakeServer(_fake_interactive) as fake:
        terminal = TerminalClient("--port", str(fake.port), standalone=standalone)
        terminal.type(INKALA)
        assert terminal.wait_stdout(INKALA_ANSWER), terminal.stdout  # answered before the next is typed
        time.sleep(0.7)
        terminal.type(INKALA)
        assert terminal.wait_stdout(INKALA_ANSWER * 2), terminal.stdout
        assert terminal.end() == 0
    assert terminal.stderr == b""  # the INTERACTIVE reply is not printed
    assert fake.connections == [[b"INTERACTIVE", INKALA.rstrip(b"\n"), INKALA.rstrip(b"\n")]]


def test_interactive_count():
    with FakeServer(_fake_interactive) as fake:
        terminal = TerminalClient("--port", str(fake.port), "--count")
        terminal.type(INKALA)
        assert terminal.wait_stdout(b"COUNT 1 unique\n"), terminal.stdout
        assert terminal.end() == 0
    assert fake.connections == [[b"INTERACTIVE", b"COUNT " + INKALA.rstrip(b"\n")]]


def test_interactive_refused_connection_exits_2():
    busy = b"ERROR busy 1024 connections open, try again later\n"
    with FakeServer(lambda line: Close(busy)) as fake:
        terminal = TerminalClient("--port", str(fake.port))
        status = terminal.proc.wait(15)
        terminal.end()
    assert status == 2
    assert terminal.stdout == busy
    assert terminal.stderr == b"sudoku-client: the server ended the connection: " + busy


def test_interactive_quit_ends_the_session(server_address):
    terminal = TerminalClient(*address_args(server_address))
    terminal.type(b"ping\n")
    assert terminal.wait_stdout(b"PONG\n"), terminal.stdout
    terminal.type(b"QUIT\n")
    assert terminal.wait_stdout(b"PONG\nBYE\n"), terminal.stdout
    assert terminal.proc.wait(RUN_TIMEOUT) == 0  # without Ctrl-D
    terminal.end()
    assert terminal.stderr == b""
