"""Signals, shutdown replies, the last read before close, and logging (issue 8).

Each test runs the real server in a subprocess whose solver spins (calling
``check()``, for ``SLOW`` seconds of its own time) on puzzles with an empty
r1c1, and solves every other puzzle normally.
"""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.paths import REPO
from tests.support.servers import stat_values

GOOD = (NEWSPAPER_LINE + "\n").encode()  # r1c1 is a given: solved at once
GOOD_ANSWER = (NEWSPAPER_SOLUTION + "\n").encode()
SLOW = ("." * 81 + "\n").encode()  # r1c1 empty: the slow solver spins on it

SERVER = textwrap.dedent(
    """
    import sys, time
    import sudoku_server.sudoku.solver as solver
    real_solve = solver.solve
    seconds = float(sys.argv.pop(1))
    def slow_solve(grid, *, check=None):
        if grid.cells[0] == 0:
            own, last = 0.0, time.monotonic()
            while own < seconds:
                own += time.monotonic() - last
                check()
                last = time.monotonic()
                time.sleep(0.002)
        return real_solve(grid, check=check)
    solver.solve = slow_solve
    from sudoku_server.app.cli import main
    sys.exit(main(sys.argv[1:]))
    """
)


class Server:
    """The server subprocess; its stderr is read by a thread into ``log``."""

    def __init__(self, slow_seconds: float, *args: str, read_log: bool = True) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(slow_seconds), "--host", "127.0.0.1", "--port", "0", *args],
            cwd=REPO,
            stderr=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
        )
        self.lines: list = []
        self.port = None
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            line = raw.decode("utf-8", "replace")
            self.lines.append(line)
            match = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
            if match:
                self.port = int(match.group(1))
                break
        assert self.port is not None, "".join(self.lines)
        self._reader = None
        if read_log:
            self.read_log()

    def read_log(self) -> None:
        def drain():
            for raw in self.proc.stderr:
                self.lines.append(raw.decode("utf-8", "replace"))

        self._reader = threading.Thread(target=drain, daemon=True)
        self._reader.start()

    @property
    def log(self) -> str:
        return "".join(self.lines)

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=10)

    def wait_running(self, count: int = 1, timeout: float = 20) -> None:
        """Wait until STATS (on a connection of its own) says ``count`` puzzles are being solved.

        A signal sent before then could come before the server read the request: the race
        a fixed sleep lost on a loaded machine.
        """
        deadline = time.monotonic() + timeout
        while True:
            with self.connect() as sock:
                sock.sendall(b"STATS\n")
                sock.shutdown(socket.SHUT_WR)
                running = int(stat_values(sock.makefile("rb").read())["running"])
            if running >= count:
                return
            assert time.monotonic() < deadline, f"{running} running, not {count}, after {timeout} s:\n{self.log}"
            time.sleep(0.02)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        if self._reader is not None:
            self._reader.join(5)
        self.proc.stderr.close()


@pytest.fixture
def server_factory():
    servers = []

    def make(*args, **kwargs):
        server = Server(*args, **kwargs)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


def read_all(sock: socket.socket) -> bytes:
    with sock:
        return sock.makefile("rb").read()


@pytest.mark.parametrize("signum", [signal.SIGHUP, signal.SIGQUIT], ids=["HUP", "QUIT"])
def test_sighup_and_sigquit_stop_gracefully(server_factory, signum, wallclock):
    server = server_factory(0.8)
    sock = server.connect()
    sock.sendall(SLOW + GOOD)
    server.wait_running()
    started = time.monotonic()
    server.proc.send_signal(signum)
    time.sleep(0.2)
    with pytest.raises(ConnectionRefusedError):
        server.connect()
    empty_solution = b"123456789456789123789123456214365897365897214897214365531642978642978531978531642\n"
    assert read_all(sock) == empty_solution + GOOD_ANSWER
    assert server.proc.wait(timeout=10) == 0
    wallclock.below(time.monotonic() - started, 3, "the graceful stop")
    assert f"received {signal.Signals(signum).name}: shutting down" in server.log


def test_sigusr1_logs_one_line_of_counters_and_goes_on(server_factory):
    server = server_factory(0.1)
    sock = server.connect()
    sock.sendall(GOOD + b"%\n")
    sock.shutdown(socket.SHUT_WR)
    assert read_all(sock) == GOOD_ANSWER + (
        b"ERROR format line 2, column 1: '%' is not a digit 1-9 or an empty mark (. 0 _)\n"
    )
    time.sleep(0.2)
    server.proc.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 5
    while "stats:" not in server.log and time.monotonic() < deadline:
        time.sleep(0.05)
    (line,) = [line for line in server.lines if "stats:" in line]
    assert re.search(
        r" INFO stats: connections=0 total=1 rejected=0 queued=0 running=0 paused=0"
        r" puzzles=1 answers=2 errors: format=1; solver \d+\.\d s, up \d+ s$",
        line.rstrip("\n"),
    ), line
    assert server.proc.poll() is None  # still serving
    sock = server.connect()
    sock.sendall(GOOD)
    sock.shutdown(socket.SHUT_WR)
    assert read_all(sock) == GOOD_ANSWER


def test_sigterm_answers_what_it_can_and_shutdown_for_the_rest(server_factory, wallclock):
    server = server_factory(30, "--solver-threads", "1", "--shutdown-grace", "1")
    slow = server.connect()
    slow.sendall(SLOW + SLOW)
    server.wait_running()
    easy = server.connect()
    easy.sendall(GOOD)
    answered = easy.recv(len(GOOD_ANSWER), socket.MSG_WAITALL)  # read before the signal, whatever the load
    started = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    easy.shutdown(socket.SHUT_WR)
    assert answered + read_all(easy) == GOOD_ANSWER  # not queued behind the slow ones
    assert read_all(slow) == (
        b"ERROR shutdown server shutting down before the puzzle at line 1 was answered\n"
        b"ERROR shutdown server shutting down before the puzzle at line 2 was answered\n"
    )
    assert server.proc.wait(timeout=10) == 0
    wallclock.below(time.monotonic() - started, 1 + 1, "the shutdown grace + 1 s")


def test_sigterm_never_parses_a_partial_line_and_says_what_was_not_read(server_factory):
    server = server_factory(0.1)
    sock = server.connect()
    sock.sendall(GOOD + NEWSPAPER_LINE[:40].encode())  # the second line is cut
    answered = sock.recv(len(GOOD_ANSWER), socket.MSG_WAITALL)  # the first line is read: inside the close grace
    server.proc.send_signal(signal.SIGTERM)
    assert answered + read_all(sock) == GOOD_ANSWER + (
        b"ERROR shutdown server shutting down; input from line 2 on was not read\n"
    )
    assert server.proc.wait(timeout=10) == 0


def test_sigterm_while_a_client_streams_names_the_first_line_not_read(server_factory, wallclock):
    server = server_factory(0.05, "--solver-threads", "1", "--shutdown-grace", "0.5")
    sock = server.connect()
    lines = 2000
    sender = threading.Thread(target=lambda: _send_quietly(sock, SLOW * lines))
    sender.start()
    time.sleep(0.5)  # the reader stops at its window; the rest waits in the kernel
    started = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    answer = read_all(sock)
    sender.join(10)
    assert server.proc.wait(timeout=10) == 0
    wallclock.below(time.monotonic() - started, 0.5 + 1, "the shutdown grace + 1 s")
    replies = answer.splitlines(keepends=True)
    last = replies.pop()
    match = re.fullmatch(rb"ERROR shutdown server shutting down; input from line (\d+) on was not read\n", last)
    assert match, last
    first_unread = int(match.group(1))
    assert 1 < first_unread < lines  # it stopped reading early
    assert len(replies) == first_unread - 1  # one reply per line read, in order
    empty_solution = b"123456789456789123789123456214365897365897214897214365531642978642978531978531642\n"
    for number, reply in enumerate(replies, start=1):
        assert reply in (
            empty_solution,
            b"ERROR shutdown server shutting down before the puzzle at line %d was answered\n" % number,
        )


def _send_quietly(sock: socket.socket, data: bytes) -> None:
    try:
        sock.sendall(data)
    except OSError:
        pass  # the server closed: what it did not read is in its last line


def test_client_exits_2_on_shutdown(server_factory):
    server = server_factory(30, "--shutdown-grace", "0.5")
    client = subprocess.Popen(
        [sys.executable, str(REPO / "sudoku_client" / "client.py"), "--port", str(server.port)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    client.stdin.write(SLOW)
    client.stdin.flush()
    server.wait_running()  # the client connected and sent it: no race with its start-up
    server.proc.send_signal(signal.SIGTERM)
    out, err = client.communicate(timeout=10)
    line = b"ERROR shutdown server shutting down before the puzzle at line 1 was answered"
    assert out == line + b"\n"
    assert err == b"sudoku-client: the server ended the connection: " + line + b"\n"
    assert client.returncode == 2


def test_a_puzzle_that_arrives_while_the_server_is_stopped_is_still_answered(server_factory):
    # SIGSTOP inside the close grace, a puzzle meanwhile, SIGCONT after the
    # grace has passed: the last read before the session ends finds it.
    server = server_factory(0.1)
    sock = server.connect()
    sock.sendall(GOOD)
    assert sock.recv(len(GOOD_ANSWER), socket.MSG_WAITALL) == GOOD_ANSWER
    server.proc.send_signal(signal.SIGSTOP)
    try:
        sock.sendall(GOOD)
        time.sleep(1.5)
    finally:
        server.proc.send_signal(signal.SIGCONT)
    assert read_all(sock) == GOOD_ANSWER


def test_logging_never_blocks_serving_when_stderr_is_not_read(server_factory):
    # stderr is a pipe nobody reads until the end: after 64 KiB the log
    # writer thread blocks, records are dropped and counted, serving goes on.
    server = server_factory(0.1, "--log-level", "debug", "--log-queue", "100", read_log=False)
    for _ in range(10):  # 2,000 puzzles, a debug line each: 64 KiB of pipe and 100 queued
        sock = server.connect()
        sock.sendall(GOOD * 200)
        sock.shutdown(socket.SHUT_WR)
        assert read_all(sock) == GOOD_ANSWER * 200
    server.read_log()  # the writer catches up...
    time.sleep(0.5)
    sock = server.connect()  # ...and the next record brings the count
    sock.sendall(GOOD)
    sock.shutdown(socket.SHUT_WR)
    assert read_all(sock) == GOOD_ANSWER
    server.proc.send_signal(signal.SIGTERM)
    assert server.proc.wait(timeout=10) == 0
    server._reader.join(5)
    assert re.search(r"WARNING logging fell behind: \d+ record\(s\) dropped", server.log), server.log[-2000:]
