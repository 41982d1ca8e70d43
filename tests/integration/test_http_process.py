"""``sudoku-server --http-port`` as a process: the start command, ``--help``, a busy port, ``--workers``, a stop."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.support.examples import NEWSPAPER_LINE, NEWSPAPER_SOLUTION
from tests.support.paths import REPO

_HTTP = re.compile(r"HTTP on http://(\S+):(\d+)/")


def start(*args: str) -> tuple[subprocess.Popen, int, list[str]]:
    """``python -m sudoku_server --host 127.0.0.1 --port 0 --http-port 0 ARGS``: the process, its HTTP port, the
    log lines read so far (up to the first ``HTTP on`` line)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0", "--http-port", "0", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env=dict(os.environ, PYTHONUNBUFFERED="1"),
        text=True,
    )
    lines = []
    assert proc.stderr is not None
    for line in proc.stderr:
        lines.append(line)
        match = _HTTP.search(line)
        if match:
            return proc, int(match.group(2)), lines
        if len(lines) > 50:
            break
    proc.kill()
    raise RuntimeError("no HTTP line:\n" + "".join(lines))


def get(port: int, path: str, data: bytes | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_help_names_the_http_options():
    out = subprocess.run(
        [sys.executable, "-m", "sudoku_server", "--help"], cwd=REPO, capture_output=True, text=True, timeout=30
    ).stdout
    for option in ("--http-port", "--http-max-body", "--http-cors", "--http-trusted-proxy"):
        assert option in out, option


def test_start_serve_and_stop():
    proc, port, lines = start("--drain-grace", "1")
    try:
        assert get(port, "/healthz") == (200, b"ok\n")
        status, body = get(port, "/api/v1/solve", json.dumps({"puzzle": NEWSPAPER_LINE}).encode())
        assert status == 200 and json.loads(body)["solution"] == NEWSPAPER_SOLUTION
        proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 5
        while get(port, "/healthz")[0] == 200 and time.monotonic() < deadline:
            time.sleep(0.02)  # the signal is handled on the event loop
        assert get(port, "/healthz") == (503, b"draining\n")
        assert proc.wait(timeout=15) == 0
        rest = proc.stderr.read() if proc.stderr else ""
        assert "server stopped" in rest and "Traceback" not in rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()


def test_a_busy_http_port_is_named_with_a_hint():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "sudoku_server", "--host", "127.0.0.1", "--port", "0", "--http-port", str(port)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert result.returncode == 1
    assert re.search(
        rf" ERROR cannot listen on 127\.0\.0\.1 port {port}: Address already in use"
        r" \(is another server running\? choose another with --http-port\)\n$",
        result.stderr,
    ), result.stderr


def _listening_inodes(port: int) -> set[str]:
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not Path(table).exists():
            continue
        for row in Path(table).read_text().splitlines()[1:]:
            fields = row.split()
            if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:  # LISTEN
                inodes.add(fields[9])
    return inodes


def _socket_inodes(pid: int) -> set[str]:
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            found.add(target[8:-1])
    return found


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads /proc")
def test_every_worker_serves_the_http_port():
    proc, port, lines = start("--workers", "2")
    try:
        children: list[int] = []
        deadline = time.monotonic() + 15
        while len(children) < 2 and time.monotonic() < deadline:
            text = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text()
            children = [int(pid) for pid in text.split()]
            time.sleep(0.05)
        listening = _listening_inodes(port)
        assert listening
        workers = [pid for pid in children if _socket_inodes(pid) & listening]
        assert len(workers) == 2, (children, workers)
        for _ in range(8):
            assert get(port, "/api/v1/count?puzzle=" + "." * 80 + "9")[0] == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()
