"""Hostile clients and faults (issue 4): each class sends the bytes and asserts the exact reply.

Most tests run the server in-process on 127.0.0.1 port 0; those that need a
process of their own (memory, descriptor limits, signals) start
``python -m sudoku_server`` in a subprocess.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import time

import pytest
import trio
import trio.testing

from tests.support.examples import NEWSPAPER, NEWSPAPER_ANSWER, NEWSPAPER_LINE, NEWSPAPER_SOLUTION, PLAIN_ROWS
from tests.support.paths import REPO
from tests.support.servers import ask, connect, exchange, read_all, reset, running_server

GOOD = (NEWSPAPER_LINE + "\n").encode()
GOOD_ANSWER = (NEWSPAPER_SOLUTION + "\n").encode()
NOT_A_DIGIT = "is not a digit 1-9 or an empty mark (. 0 _)"
#: Seconds before a test that should finish is called hung: a guard against a hang, far above any busy machine's time.
HANG_GUARD = 900


# 1. Framing ---------------------------------------------------------------

FRAMING = [
    pytest.param(
        (NEWSPAPER_LINE[:80] + "\n").encode() + GOOD,
        b"ERROR format line 1: expected 81 cells, found 80\n" + GOOD_ANSWER,
        id="80-cells-then-good",
    ),
    pytest.param(
        (NEWSPAPER_LINE + "5\n").encode() + GOOD,
        b"ERROR format line 1: expected 81 cells, found 82\n" + GOOD_ANSWER,
        id="82-cells-then-good",
    ),
    pytest.param(
        ("".join(PLAIN_ROWS.splitlines(keepends=True)[:8]) + "\n").encode() + GOOD,
        b"ERROR format line 9: the grid that starts at line 1 has 8 rows, expected 9\n" + GOOD_ANSWER,
        id="8-rows-then-blank",
    ),
    pytest.param(
        PLAIN_ROWS.replace("...5..3..", "...5..3..1", 1).encode() + GOOD,
        b"ERROR format line 4: expected 9 cells, found 10\n" + GOOD_ANSWER,
        id="row-of-10-cells",
    ),
    pytest.param(
        (NEWSPAPER_LINE[:9] + "a" + NEWSPAPER_LINE[10:] + "\n").encode() + GOOD,
        f"ERROR format line 1, column 10: 'a' {NOT_A_DIGIT} at r2c1\n".encode() + GOOD_ANSWER,
        id="letter",
    ),
    pytest.param(
        (NEWSPAPER_LINE[:2] + "\u00b0" + NEWSPAPER_LINE[3:] + "\n").encode() + GOOD,
        f"ERROR format line 1, column 3: U+00B0 {NOT_A_DIGIT} at r1c3\n".encode() + GOOD_ANSWER,
        id="degree-sign",
    ),
    pytest.param(
        PLAIN_ROWS.replace(".2..7..8.", ".\u0662..7..8.", 1).encode() + GOOD,
        f"ERROR format line 2, column 2: U+0662 {NOT_A_DIGIT} at r2c2\n".encode() + GOOD_ANSWER,
        id="arabic-indic-digit",
    ),
]


@pytest.mark.parametrize("data,reply", FRAMING)
async def test_framing(data, reply):
    assert await ask(data) == reply


# 2. Line endings and encodings -----------------------------------------------

ROWS = PLAIN_ROWS.splitlines()
SOLVED_ROWS = [NEWSPAPER_SOLUTION[r * 9 : r * 9 + 9] for r in range(9)]

ENCODINGS = [
    pytest.param(PLAIN_ROWS.encode(), ("\n".join(SOLVED_ROWS) + "\n\n").encode(), id="lf"),
    pytest.param(
        PLAIN_ROWS.replace("\n", "\r\n").encode(), ("\r\n".join(SOLVED_ROWS) + "\r\n\r\n").encode(), id="crlf"
    ),
    pytest.param(PLAIN_ROWS.replace("\n", "\r").encode(), ("\r".join(SOLVED_ROWS) + "\r\r").encode(), id="cr"),
    pytest.param(
        "".join(row + ("\r\n", "\n", "\r")[i % 3] for i, row in enumerate(ROWS)).encode(),
        "".join(row + ("\r\n", "\n", "\r")[i % 3] for i, row in enumerate(SOLVED_ROWS)).encode() + b"\r\n",
        id="mixed",
    ),
    pytest.param(b"\xef\xbb\xbf" + GOOD, GOOD_ANSWER, id="bom"),
    pytest.param(
        NEWSPAPER_LINE[:5].encode() + b"\x00" + NEWSPAPER_LINE[6:].encode() + b"\n" + GOOD,
        f"ERROR format line 1, column 6: U+0000 {NOT_A_DIGIT} at r1c6\n".encode() + GOOD_ANSWER,
        id="nul",
    ),
    pytest.param(
        NEWSPAPER_LINE[:5].encode() + b"\xc3\x28" + NEWSPAPER_LINE[7:].encode() + b"\n" + GOOD,
        f"ERROR format line 1, column 6: byte 0xC3 {NOT_A_DIGIT} at r1c6\n".encode() + GOOD_ANSWER,
        id="invalid-utf8",
    ),
    pytest.param(
        "\n".join("\t".join(row) for row in ROWS).encode() + b"\n",
        ("\n".join("\t".join(row) for row in SOLVED_ROWS) + "\n\n").encode(),
        id="tabs",
    ),
    pytest.param(NEWSPAPER_LINE.encode(), GOOD_ANSWER, id="no-final-newline"),
]


@pytest.mark.parametrize("data,reply", ENCODINGS)
async def test_line_endings_and_encodings(data, reply):
    assert await ask(data) == reply


# 3. Telnet ---------------------------------------------------------------------


async def test_telnet_ctrl_c_is_answered_and_the_next_puzzle_works():
    data = PLAIN_ROWS[:30].encode() + b"\xff\xf4\xff\xfd\x06" + NEWSPAPER_LINE.encode() + b"\r\n"
    # a telnet client (its Ctrl-C): TRANSMIT-BINARY offered first (issue 32), then DO TIMING-MARK refused
    assert await ask(data) == b"\xff\xfd\x00\xff\xfb\x00\xff\xfc\x06" + NEWSPAPER_SOLUTION.encode() + b"\r\n"


async def test_telnet_sequences_split_across_packets():
    with trio.fail_after(10):
        async with running_server() as server:
            stream = await connect(server)
            async with stream:
                for piece in (
                    b"\xff",
                    b"\xfd",
                    b"\x18" + NEWSPAPER_LINE[:40].encode() + b"\xff",
                    b"\xfb\x01",
                    NEWSPAPER_LINE[40:].encode() + b"\r\n",
                ):
                    await stream.send_all(piece)
                    await trio.sleep(0.02)
                await stream.send_eof()
                assert await read_all(stream) == (  # the refusals, and TRANSMIT-BINARY offered once (issue 32)
                    b"\xff\xfc\x18\xff\xfd\x00\xff\xfb\x00\xff\xfe\x01" + NEWSPAPER_SOLUTION.encode() + b"\r\n"
                )


# 4. Size ---------------------------------------------------------------------------


async def test_line_of_70000_bytes_is_too_large_and_closes():
    assert await ask(b"." * 70000 + b"\n" + GOOD) == b"ERROR too-large line 1 is longer than 4096 bytes\n"


async def test_ten_thousand_blank_lines_then_a_puzzle():
    assert await ask(b"\n" * 10000 + GOOD) == GOOD_ANSWER


@pytest.mark.slow  # a load test: 17 MB parsed in process (a minute under coverage on a loaded machine)
async def test_a_million_comment_lines_then_a_puzzle(wallclock):
    data = b"# a comment line\n" * 1_000_000 + GOOD + b"# trailing\n"
    started = trio.current_time()
    with trio.fail_after(HANG_GUARD):  # a hang guard, not a speed bound: the minute is wallclock's
        async with running_server() as server:
            stream = await connect(server)
            async with stream, trio.open_nursery() as nursery:

                async def send():
                    await stream.send_all(data)
                    await stream.send_eof()

                nursery.start_soon(send)
                answer = await read_all(stream)
    assert answer == GOOD_ANSWER
    wallclock.below(trio.current_time() - started, 60, "a million comment lines, then the answer")


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))


def _fd_count(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@pytest.fixture
def server_process(request):
    """A server subprocess; parametrize indirectly with extra args or a preexec."""
    from tests.support.servers import start_server_process, stop_server_process

    extra = getattr(request, "param", ())
    proc, host, port = start_server_process(*extra)
    try:
        yield proc, host, port
    finally:
        stop_server_process(proc)


def _send_flood(host: str, port: int, total: int, chunk: bytes) -> bytes:
    """Send ``total`` bytes of ``chunk`` (stopping when the server closes); return what it answered."""
    received = bytearray()
    with socket.create_connection((host, port), timeout=30) as sock:
        sent = 0
        try:
            while sent < total:
                sock.sendall(chunk)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass
        try:
            while True:
                data = sock.recv(65536)
                if not data:
                    break
                received += data
        except ConnectionResetError:
            pass
    return bytes(received)


def test_64_mib_without_newline_is_too_large_and_memory_stays_flat(server_process):
    proc, host, port = server_process
    assert _send_flood(host, port, 1 << 20, b"1" * 65536) == b"ERROR too-large line 1 is longer than 4096 bytes\n"
    before = _rss_kib(proc.pid)
    answer = _send_flood(host, port, 64 << 20, b"1" * 65536)
    after = _rss_kib(proc.pid)
    assert answer == b"ERROR too-large line 1 is longer than 4096 bytes\n"
    assert after - before < 4096, f"RSS grew from {before} KiB to {after} KiB"
    with socket.create_connection((host, port), timeout=10) as sock:  # still serving
        sock.sendall(GOOD)
        sock.shutdown(socket.SHUT_WR)
        assert sock.makefile("rb").read() == GOOD_ANSWER


# 5. Timing ---------------------------------------------------------------------------


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_half_puzzle_then_half_close_is_incomplete_and_cpu_stays_idle(server_process, wallclock):
    proc, host, port = server_process
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall("".join(PLAIN_ROWS.splitlines(keepends=True)[:4]).encode())
        sock.shutdown(socket.SHUT_WR)
        answer = sock.makefile("rb").read()
        assert answer == b"ERROR incomplete input ended inside the puzzle that starts at line 1 (4 of 9 rows)\n"
        cpu_before = _cpu_seconds(proc.pid)
        time.sleep(1.0)  # the client keeps its socket open, half-closed
        wallclock.below(_cpu_seconds(proc.pid) - cpu_before, 0.1, "the server's CPU after the half puzzle")


async def test_slowloris_does_not_block_other_clients(wallclock):
    with trio.fail_after(20):
        async with running_server() as server:
            slow = await connect(server)
            async with slow:
                for byte in NEWSPAPER_LINE[:3].encode():
                    await slow.send_all(bytes([byte]))
                    started = trio.current_time()
                    assert await exchange(server, NEWSPAPER.encode()) == NEWSPAPER_ANSWER.encode()
                    wallclock.below(trio.current_time() - started, 2, "a client beside the slowloris")
                    await trio.sleep(0.3)


@pytest.mark.slow  # a load test: 500 connections opened against a 0.5 s idle timeout
async def test_idle_connections_are_closed_by_the_idle_timeout_and_descriptors_return():
    def fds() -> int:
        return len(os.listdir("/proc/self/fd"))

    with trio.fail_after(30):
        async with running_server(idle_timeout=0.5) as server:
            baseline = fds()
            streams = [await connect(server) for _ in range(500)]
            # every one accepted (on a busy machine the first may already be closed by the idle timeout before the
            # last connects: the count of open connections then never reached 500, and the guard fired)
            while server.stats.connections_total < 500:
                await trio.sleep(0.01)
            assert fds() >= baseline + 500  # our ends of the 500 connections
            for stream in streams:
                assert await read_all(stream) == b""  # closed by the server, no answer
            while server.connections:
                await trio.sleep(0.01)
            for stream in streams:
                await stream.aclose()
            assert fds() == baseline


# 6. Disconnects ---------------------------------------------------------------------


async def test_reset_right_after_sending_a_puzzle():
    with trio.fail_after(10):
        async with running_server() as server:
            stream = await connect(server)
            await stream.send_all(GOOD * 50)
            reset(stream)
            while server.connections:
                await trio.sleep(0.01)
            assert await exchange(server, GOOD) == GOOD_ANSWER


async def test_reset_while_the_answers_are_being_written():
    with trio.fail_after(20):
        async with running_server() as server:
            stream = await connect(server)
            await stream.send_all(GOOD * 500)
            received = b""
            while received.count(b"\n") < 3:  # answers are flowing
                received += await stream.receive_some(65536)
            assert received.startswith(GOOD_ANSWER * 3)
            reset(stream)
            while server.connections:
                await trio.sleep(0.01)
            await trio.testing.wait_all_threads_completed()
            assert await exchange(server, GOOD) == GOOD_ANSWER


async def test_client_gone_before_the_half_close():
    # The client closes right after its request: send_eof meets a dead peer.
    with trio.fail_after(10):
        async with running_server() as server:
            for _ in range(20):
                stream = await connect(server)
                await stream.send_all(GOOD)
                await stream.send_eof()
                await stream.aclose()
            while server.connections:
                await trio.sleep(0.01)
            assert await exchange(server, GOOD) == GOOD_ANSWER


# 7. Resource limits ---------------------------------------------------------------------


def test_descriptor_exhaustion_is_survived_and_logged_once(tmp_path):
    """With RLIMIT_NOFILE 64, 100 connections: the server lives, logs once, serves again."""
    code = textwrap.dedent(
        """
        import resource, sys
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
        from sudoku_server.app.cli import main
        sys.exit(main(sys.argv[1:]))
        """
    )
    log_path = tmp_path / "server.log"
    with open(log_path, "wb") as log_file:
        proc = subprocess.Popen(
            [sys.executable, "-c", code, "--host", "127.0.0.1", "--port", "0", "--idle-timeout", "3"],
            cwd=REPO,
            stderr=log_file,
            stdout=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
        )
    try:
        port = None
        for _ in range(200):
            match = re.search(r"listening on 127\.0\.0\.1:(\d+)", log_path.read_text())
            if match:
                port = int(match.group(1))
                break
            time.sleep(0.05)
        assert port, log_path.read_text()
        socks = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(100)]
        time.sleep(1.5)
        assert proc.poll() is None
        for sock in socks:
            sock.close()
        time.sleep(0.5)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(GOOD)
            sock.shutdown(socket.SHUT_WR)
            sock.settimeout(10)
            assert sock.makefile("rb").read() == GOOD_ANSWER
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    text = log_path.read_text()
    assert text.count("cannot accept: Too many open files") == 1, text
    assert "Traceback" not in text


# 9. Shutdown ------------------------------------------------------------------------------

SLOW_SERVER = textwrap.dedent(
    """
    import sys, time
    import sudoku_server.sudoku.solver as solver
    real_solve = solver.solve
    seconds = float(sys.argv.pop(1))
    def slow_solve(grid, *, check=None):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            check()
            time.sleep(0.01)
        return real_solve(grid, check=check)
    solver.solve = slow_solve
    from sudoku_server.app.cli import main
    sys.exit(main(sys.argv[1:]))
    """
)


def start_slow_server(tmp_path, solve_seconds: float, *args: str):
    """A server subprocess whose every solve takes ``solve_seconds``; returns (proc, port, log path)."""
    log_path = tmp_path / "server.log"
    with open(log_path, "wb") as log_file:
        proc = subprocess.Popen(
            [sys.executable, "-c", SLOW_SERVER, str(solve_seconds), "--host", "127.0.0.1", "--port", "0", *args],
            cwd=REPO,
            stderr=log_file,
            stdout=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
        )
    for _ in range(200):
        match = re.search(r"listening on 127\.0\.0\.1:(\d+)", log_path.read_text())
        if match:
            return proc, int(match.group(1)), log_path
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(log_path.read_text())


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT], ids=["TERM", "HUP", "QUIT"])
def test_stop_signal_with_three_clients_mid_solve(tmp_path, signum, wallclock):
    """Three clients mid-solve get their answers; new connections are refused; exit 0."""
    proc, port, log_path = start_slow_server(tmp_path, 1.5, "--solver-threads", "3")
    try:
        clients = []
        for _ in range(3):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            sock.sendall(GOOD)
            clients.append(sock)
        time.sleep(0.3)  # all three are solving
        started = time.monotonic()
        proc.send_signal(signum)
        time.sleep(0.2)
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=2)
        for sock in clients:
            with sock:
                assert sock.makefile("rb").read() == GOOD_ANSWER
        assert proc.wait(timeout=10) == 0
        wallclock.below(time.monotonic() - started, 5, "the stop")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["TERM", "INT"])
def test_second_signal_closes_connections_at_once_and_exits_0(tmp_path, signum, wallclock):
    proc, port, log_path = start_slow_server(tmp_path, 30)
    try:
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(GOOD)
        time.sleep(0.3)
        started = time.monotonic()
        proc.send_signal(signum)
        time.sleep(0.3)
        proc.send_signal(signum)
        assert proc.wait(timeout=10) == 0
        wallclock.below(time.monotonic() - started, 2, "the exit after the second signal")
        with sock:  # every received puzzle gets exactly one reply, even now
            assert sock.makefile("rb").read() == (
                b"ERROR shutdown server shutting down before the puzzle at line 1 was answered\n"
            )
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in log_path.read_text()


async def test_endless_telnet_subnegotiation_is_too_large():
    data = b"\xff\xfa\x18" + b"1" * 5000 + b"\n" + GOOD
    assert await ask(data) == b"ERROR too-large telnet subnegotiation longer than 4096 bytes\n"


async def test_a_lone_iac_then_half_close_is_answered():
    """A line, then one 0xFF (telnet's IAC) and the half-close: the line is answered, the cut command named."""
    assert await ask(b"PING\r\n\xff") == (
        b"PONG\r\nERROR incomplete input ended inside a telnet command at line 2: IAC (byte 0xFF) with no command"
        b" byte after it\r\n"
    )


async def test_unterminated_telnet_subnegotiation_then_half_close_is_answered():
    """A line, then ``IAC SB`` with no ``IAC SE``, then the client half-closes: the line is answered and the
    skipped bytes are named, before the close (break-session finding: the skipped request went unanswered)."""
    data = b"PING\r\n\xff\xfa\x18\x00xterm\r\n" + GOOD
    assert await ask(data) == b"PONG\r\nERROR incomplete input ended inside the telnet subnegotiation (IAC SB) that" + (
        b" starts at line 2, before its IAC SE; the %d byte(s) after IAC SB were not read\r\n" % (9 + len(GOOD))
    )
