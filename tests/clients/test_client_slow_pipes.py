"""The bundled client on a slow pipe, against a real server or a fake one, each case pinned exactly.

* The bundled client and a slow pipe: a hidden ``KEEPALIVE`` holds the
  session (every answer comes, exit 0, also against a short close grace); an
  older server's unknown-verb reply is hidden and the input goes on a new
  connection; fewer replies than the requests read (even those read after
  the server stopped reading) is exit 2 with the documented message.
* Input after ``QUIT``; a verb-word caption counted as the server counts it;
  the summary after ``ERROR shutdown``.
"""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from sudoku_client.replies import ReplyScanner, summary_text
from tests.support.clienttools import PUZZLES, RUN_TIMEOUT, Close, FakeServer, client_command, client_cwd, client_env
from tests.support.servers import start_server_process, stop_server_process

INKALA = (PUZZLES / "inkala.txt").read_bytes()


ANSWER = b"812753649943682175675491283154237896369845721287169534521974368438526917796318452\n"


#: A writer that sends its pieces with a pause between them (the tester's
#: ``(printf; sleep 1; printf; sleep 1; printf)``, with shorter pauses).
SLOW_WRITER = """
import sys, time
pieces = sys.argv[2:]
for index, piece in enumerate(pieces):
    if index:
        time.sleep(float(sys.argv[1]))
    sys.stdout.buffer.write(piece.encode() + b"\\n")
    sys.stdout.flush()
"""


def slow_client(port: int, pieces: list[bytes], *args: str, pause: float = 0.8) -> subprocess.CompletedProcess:
    """Run the client on a pipe fed by :data:`SLOW_WRITER` (*pause* seconds between pieces)."""
    writer = subprocess.Popen(
        [sys.executable, "-c", SLOW_WRITER, str(pause), *(p.decode() for p in pieces)], stdout=subprocess.PIPE
    )
    try:
        return subprocess.run(
            client_command("--port", str(port), *args),
            stdin=writer.stdout,
            capture_output=True,
            cwd=client_cwd(),
            env=client_env(),
            timeout=RUN_TIMEOUT,
        )
    finally:
        assert writer.stdout is not None
        writer.stdout.close()
        writer.wait(RUN_TIMEOUT)


@pytest.fixture(scope="module")
def short_grace_server():
    """A real server whose close grace is 0.1 s (the default is 0.5 s)."""
    proc, host, port = start_server_process("--close-grace", "0.1")
    threading.Thread(target=lambda: proc.stderr.read(), daemon=True).start()
    yield port
    stop_server_process(proc)


def test_slow_pipe_every_answer_with_a_short_close_grace(short_grace_server):
    # Before: one answer, "1 puzzle: 1 solved, 0 errors", exit 0.
    line = INKALA.rstrip(b"\n")
    result = slow_client(short_grace_server, [line, line, line], "--summary")
    assert result.stdout == ANSWER * 3
    assert result.returncode == 0
    assert result.stderr.startswith(b"sudoku-client: 3 puzzles: 3 solved, 0 errors; ")


def test_slow_pipe_count_mode_every_answer(short_grace_server):
    # Before: "COUNT 1 unique", "answered 1 of 2 requests", exit 2.
    line = INKALA.rstrip(b"\n")
    result = slow_client(short_grace_server, [line, line, line], "--count", "--quiet")
    assert (result.stdout, result.stderr, result.returncode) == (b"COUNT 1 unique\n" * 3, b"", 0)


def test_errors_count_the_persons_lines_not_the_hidden_keepalive(short_grace_server):
    result = slow_client(short_grace_server, [INKALA.rstrip(b"\n"), b"12345"], "--quiet", pause=0.3)
    assert result.stdout == ANSWER + b"ERROR format line 2: expected 6 cells, found 5\n"
    assert result.returncode == 1


def _close_after_first_answer(line: bytes) -> bytes | None:
    """An older server's close grace: the first answer, then the connection closes."""
    return Close(ANSWER)


def test_older_server_keepalive_error_hidden_and_a_new_connection():
    with FakeServer(lambda line: ANSWER, keepalive=False) as fake:
        result = slow_client(fake.port, [INKALA.rstrip(b"\n")] * 2, "--quiet", pause=0.2)
    assert (result.stdout, result.stderr, result.returncode) == (ANSWER * 2, b"", 0)
    assert fake.keepalives == 1
    assert fake.connections == [[], [INKALA.rstrip(b"\n")] * 2]


@pytest.mark.parametrize("mode", [(), ("--count",)])
def test_fewer_replies_than_requests_read_is_exit_2(mode, wallclock):
    # The server closes after the first answer; the second and third puzzles
    # are written after that: still counted (read, never sent).
    line = INKALA.rstrip(b"\n")
    with FakeServer(_close_after_first_answer, keepalive=False) as fake:
        result = slow_client(fake.port, [line, line, line], "--quiet", *mode, pause=0.4)
    assert result.stdout == ANSWER
    assert result.stderr.startswith(b"sudoku-client: 127.0.0.1:%d answered 1 of 3 requests" % fake.port)
    # the close came while input was still being sent: after the 0.4 s pause, which a loaded machine can stretch
    wallclock.holds(
        result.stderr
        == (
            b"sudoku-client: 127.0.0.1:%d answered 1 of 3 requests"
            b" (it closed the connection before all input was sent)\n" % fake.port
        ),
        f"the reason named after the count: {result.stderr!r}",
    )
    assert result.returncode == 2


def test_input_after_quit_is_not_sent_and_said(server_address):
    result = subprocess.run(
        client_command("--port", str(server_address[1]), "--summary"),
        input=b"QUIT\n" + INKALA,
        capture_output=True,
        cwd=client_cwd(),
        env=client_env(),
        timeout=RUN_TIMEOUT,
    )
    assert result.stdout == b"BYE\n"
    lines = result.stderr.splitlines()
    assert lines[0] == (
        b"sudoku-client: input after QUIT was not sent: 1 line from line 2"
        b" (the server reads nothing after QUIT; exit status 1)"
    )
    assert lines[1].startswith(b"sudoku-client: 0 puzzles: 0 solved, 0 errors; 1 command answered; ")
    assert result.returncode == 1


@pytest.mark.parametrize("standalone", [False, True])
def test_the_client_counts_a_verb_word_caption_as_the_server_does(server_address, standalone):
    result = subprocess.run(
        client_command("--port", str(server_address[1]), "--count", standalone=standalone),
        input=b"Count the solutions:\n" + INKALA,
        capture_output=True,
        cwd=client_cwd(standalone),
        env=client_env(standalone),
        timeout=RUN_TIMEOUT,
    )
    assert (result.stdout, result.stderr, result.returncode) == (b"COUNT 1 unique\n", b"", 0)


def test_summary_after_shutdown_counts_no_ping_as_a_puzzle():
    scanner = ReplyScanner()
    scanner.feed(b"PONG\nERROR shutdown server shutting down before the request at line 2 was answered\n")
    scanner.finish()
    assert summary_text(scanner, 1.0) == (
        "0 puzzles: 0 solved, 0 errors; 1 command answered;"
        " the server ended the connection (ERROR shutdown); 1.00 s, 0.0 puzzles/s"
    )
    busy = ReplyScanner()
    busy.feed(b"ERROR busy 1 connection open from 192.0.2.50, try again later\n")
    assert busy.closing == {"busy": 1} and busy.closing_error is not None
